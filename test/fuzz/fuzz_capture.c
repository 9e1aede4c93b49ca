/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_capture: libFuzzer target for the capture reader (pcap/pcapng bytes in memory) and what runs on its frames. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wr_replay_pcap.h"
#include "wr_pkt_csum.h"
#include "wr_replay.h"

/*
 * Any bytes, read twice: from memory (wr_capture_load_buf()) and from a
 * file by its name (wr_capture_load(), the path a stream's pcap: takes:
 * wr_in_open(), the magic check, the digest), on an in-memory file
 * (memfd).  Both refuse them with an error (and hold nothing) or both
 * return the same frames, which satisfy every promise of wr_replay_pcap.h;
 * the per-frame edits and the timing maths then run over them.
 *
 * libpcap is not built with coverage: without the seeds in
 * test/fuzz/seeds/fuzz_capture (pcap in both byte orders, micro- and
 * nanoseconds, pcapng with several interfaces and blocks) libFuzzer saw
 * no edge past the first four bytes.  capture_magic() in the file path
 * is ours, so its compares guide it to each magic number too.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* wr_capture_load() of @p data as a file; -1 when no file could be made. */
static int
load_file(const uint8_t *data, size_t size, struct wr_capture *c,
	  struct wr_error *err)
{
	char path[64];
	size_t done = 0;
	ssize_t n;
	int fd = memfd_create("fuzz_capture", MFD_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	while (done < size && (n = write(fd, data + done, size - done)) > 0)
		done += (size_t)n;
	if (done != size) {
		close(fd);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	rc = wr_capture_load(path, UINT64_MAX, c, err);
	close(fd);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_field_spec fs[WR_REWRITE__COUNT];
	bool set[WR_REWRITE__COUNT] = { false };
	struct wr_capture c, f;
	struct wr_error err, ferr;
	uint64_t dl[4];
	uint32_t k;
	int rc, frc;

	rc = wr_capture_load_buf("fuzz.pcap", data, size, &c, &err);
	if (rc != 0 && (c.n != 0 || c.data != NULL || err.msg[0] == '\0'))
		__builtin_trap();
	frc = load_file(data, size, &f, &ferr);
	if (frc != -1) {
		if (frc != 0 && (f.n != 0 || f.data != NULL ||
				 ferr.msg[0] == '\0'))
			__builtin_trap();
		/* One reader, two ways in: the same answer. */
		if ((rc == 0) != (frc == 0))
			__builtin_trap();
		if (rc == 0 && (f.n != c.n || f.bytes != c.bytes ||
				f.reordered != c.reordered ||
				memcmp(f.sha256, c.sha256, 32) != 0 ||
				memcmp(f.data, c.data, c.bytes) != 0 ||
				memcmp(f.len, c.len, c.n * sizeof(*c.len)) != 0 ||
				memcmp(f.ts_ns, c.ts_ns,
				       c.n * sizeof(*c.ts_ns)) != 0))
			__builtin_trap();
		if (frc == 0)
			wr_capture_free(&f);
	}
	if (rc != 0)
		return 0;
	if (c.n == 0 || c.min_len < WR_CAPTURE_FRAME_MIN ||
	    c.max_len > WR_CAPTURE_FRAME_MAX)
		__builtin_trap();
	for (k = 0; k < c.n; k++)
		if (c.len[k] < c.min_len || c.len[k] > c.max_len ||
		    (k > 0 && c.ts_ns[k] < c.ts_ns[k - 1]))
			__builtin_trap();
	memset(fs, 0, sizeof(fs));
	set[WR_REWRITE_ETH_SRC] = set[WR_REWRITE_IPV4_DST] = true;
	set[WR_REWRITE_IPV6_SRC] = true;
	fs[WR_REWRITE_IPV6_SRC].mode = WR_VARY_RANDOM;
	fs[WR_REWRITE_IPV6_SRC].from = (__uint128_t)0x20010db8ull << 96;
	fs[WR_REWRITE_IPV6_SRC].to = fs[WR_REWRITE_IPV6_SRC].from | (((__uint128_t)1 << 80) - 1);
	fs[WR_REWRITE_IPV4_DST].mode = WR_VARY_INC;
	fs[WR_REWRITE_IPV4_DST].from = 1;
	fs[WR_REWRITE_IPV4_DST].to = 9;
	fs[WR_REWRITE_IPV4_DST].step = 2;
	wr_capture_rewrite(&c, set, fs, 1);
	for (k = 0; k < c.n; k++)
		wr_pkt_fix_csums(wr_capture_frame(&c, k), c.len[k]);
	(void)wr_capture_over_mtu(&c, 1500);
	(void)wr_replay_pass_ns(&c, 3 * WR_REPLAY_SPEEDUP_ONE);
	if (wr_replay_lane_frames(c.n, 3, 0) <= 4)
		wr_replay_lane_deadlines(&c, 2 * WR_REPLAY_SPEEDUP_ONE,
					 3000000000ull, 3, 0, dl);
	wr_capture_free(&c);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_capture: libFuzzer target for the capture reader (pcap/pcapng bytes in memory) and what runs on its frames. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wr_capture.h"
#include "wr_replay.h"

/*
 * Any bytes: the reader either refuses them with an error (and holds
 * nothing) or returns frames that satisfy every promise of wr_capture.h;
 * the per-frame edits and the timing maths then run over them.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_field_spec fs[WR_REWRITE__COUNT];
	bool set[WR_REWRITE__COUNT] = { false };
	struct wr_capture c;
	struct wr_error err;
	uint64_t dl[4];
	uint32_t k;

	if (wr_capture_load_buf("fuzz.pcap", data, size, &c, &err) != 0) {
		if (c.n != 0 || c.data != NULL || err.msg[0] == '\0')
			__builtin_trap();
		return 0;
	}
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
		wr_capture_fix_csum(wr_capture_frame(&c, k), c.len[k]);
	(void)wr_capture_over_mtu(&c, 1500);
	(void)wr_replay_pass_ns(&c, 3 * WR_REPLAY_SPEEDUP_ONE);
	if (wr_replay_lane_frames(c.n, 3, 0) <= 4)
		wr_replay_lane_deadlines(&c, 2 * WR_REPLAY_SPEEDUP_ONE,
					 3000000000ull, 3, 0, dl);
	wr_capture_free(&c);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* test_capture: the capture reader's checks, rewrites and checksums, replay lanes and capture timing with a fake clock. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_replay_pcap.h"
#include "wr_pkt_csum.h"
#include "wr_replay.h"
#include "wr_rng.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* ---- pcap bytes written by hand (the file format, not our reader) ---- */

#define MAGIC_USEC 0xa1b2c3d4u
#define MAGIC_NSEC 0xa1b23c4du
#define DLT_ETH 1
#define DLT_RAW_IP 101

struct buf {
	uint8_t *b;
	size_t len;
};

static void
put(struct buf *o, const void *p, size_t n)
{
	o->b = realloc(o->b, o->len + n);
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

static void
put32(struct buf *o, uint32_t v)
{
	put(o, &v, 4); /* the writer's byte order: the magic says which */
}

static void
file_header(struct buf *o, uint32_t magic, uint32_t dlt)
{
	put32(o, magic);
	put32(o, 2 | (4u << 16)); /* version 2.4 */
	put32(o, 0);
	put32(o, 0);
	put32(o, 65535);
	put32(o, dlt);
}

static void
record(struct buf *o, uint32_t sec, uint32_t frac, uint32_t caplen,
       uint32_t len, uint8_t fill)
{
	uint8_t *d = malloc(caplen ? caplen : 1);

	memset(d, fill, caplen);
	if (caplen >= 14) { /* an Ethernet header of an unknown type */
		d[12] = 0x88;
		d[13] = 0xb5;
	}
	put32(o, sec);
	put32(o, frac);
	put32(o, caplen);
	put32(o, len);
	put(o, d, caplen);
	free(d);
}

static int
load(struct buf *o, struct wr_capture *c, struct wr_error *err)
{
	int rc = wr_capture_load_buf("t.pcap", o->b, o->len, c, err);

	free(o->b);
	o->b = NULL;
	o->len = 0;
	return rc;
}

static void
test_load_ok(void)
{
	struct buf o = { 0 };
	struct wr_capture c;
	struct wr_error err;

	file_header(&o, MAGIC_NSEC, DLT_ETH);
	record(&o, 1, 500, 60, 60, 0x11);
	record(&o, 1, 10500, 1514, 1514, 0x22);
	record(&o, 2, 0, 42, 42, 0x33);
	CU_ASSERT_EQUAL_FATAL(load(&o, &c, &err), 0);
	CU_ASSERT_EQUAL(c.n, 3);
	CU_ASSERT_EQUAL(c.len[0], 60);
	CU_ASSERT_EQUAL(c.len[1], 1514);
	CU_ASSERT_EQUAL(c.len[2], 42);
	CU_ASSERT_EQUAL(c.min_len, 42);
	CU_ASSERT_EQUAL(c.max_len, 1514);
	CU_ASSERT_EQUAL(c.max_rec, 2);
	CU_ASSERT_EQUAL(c.bytes, 60 + 1514 + 42);
	CU_ASSERT_EQUAL(c.ts_ns[0], 1000000500ull);
	CU_ASSERT_EQUAL(c.ts_ns[1], 1000010500ull);
	CU_ASSERT_EQUAL(c.ts_ns[2], 2000000000ull);
	CU_ASSERT_EQUAL(wr_capture_frame(&c, 1)[20], 0x22);
	CU_ASSERT_EQUAL(wr_capture_frame(&c, 2)[41], 0x33);
	/* A 42-byte frame occupies 60 + FCS on the wire. */
	CU_ASSERT_EQUAL(wr_capture_wire_len(c.len[2]), 64);
	CU_ASSERT_EQUAL(wr_capture_wire_len(c.len[1]), 1518);
	wr_capture_free(&c);
}

static void
test_load_usec_reordered(void)
{
	struct buf o = { 0 };
	struct wr_capture c;
	struct wr_error err;

	file_header(&o, MAGIC_USEC, DLT_ETH);
	record(&o, 5, 10, 64, 64, 1);
	record(&o, 5, 5, 64, 64, 2);   /* earlier: sent at the previous time */
	record(&o, 5, 30, 64, 64, 3);
	CU_ASSERT_EQUAL_FATAL(load(&o, &c, &err), 0);
	CU_ASSERT_EQUAL(c.ts_ns[0], 5000010000ull);
	CU_ASSERT_EQUAL(c.ts_ns[1], 5000010000ull);
	CU_ASSERT_EQUAL(c.ts_ns[2], 5000030000ull);
	CU_ASSERT_EQUAL(c.reordered, 1);
	wr_capture_free(&c);
}

static void
expect_error(struct buf *o, const char *needle)
{
	struct wr_capture c;
	struct wr_error err;
	int rc;

	wr_error_clear(&err);
	rc = load(o, &c, &err);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle));
	CU_ASSERT_STRING_EQUAL(err.file, "t.pcap");
	if (strstr(err.msg, needle) == NULL)
		fprintf(stderr, "got \"%s\", expected \"%s\"\n", err.msg, needle);
	CU_ASSERT_EQUAL(c.n, 0);
	CU_ASSERT_PTR_NULL(c.data);
}

static void
test_load_errors(void)
{
	struct buf o = { 0 };
	uint8_t junk[64];

	file_header(&o, MAGIC_NSEC, DLT_ETH);
	record(&o, 1, 0, 64, 64, 0);
	record(&o, 1, 0, 60, 1514, 0); /* snapshot length cut it */
	expect_error(&o, "record 2: truncated: 60 of its 1514 bytes");

	file_header(&o, MAGIC_NSEC, DLT_RAW_IP);
	record(&o, 1, 0, 64, 64, 0);
	expect_error(&o, "record 1: link type");

	file_header(&o, MAGIC_NSEC, DLT_ETH);
	expect_error(&o, "record 1: the capture holds no frame");

	memset(junk, 'x', sizeof(junk));
	put(&o, junk, sizeof(junk));
	expect_error(&o, "record 0: not a pcap or pcapng capture");

	put(&o, junk, 0);
	{
		struct wr_capture c;
		struct wr_error err;

		CU_ASSERT_EQUAL(wr_capture_load_buf("t.pcap", junk, 0, &c,
						    &err), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "record 0"));
		free(o.b);
		o.b = NULL;
		o.len = 0;
	}

	file_header(&o, MAGIC_NSEC, DLT_ETH);
	record(&o, 1, 0, 64, 64, 0);
	record(&o, 1, 0, 64, 64, 0);
	record(&o, 1, 0, 9015, 9015, 0);
	expect_error(&o, "record 3: a frame of 9015 bytes");

	file_header(&o, MAGIC_NSEC, DLT_ETH);
	record(&o, 1, 0, 10, 10, 0);
	expect_error(&o, "record 1: 10 bytes is shorter");

	/* The file ends inside a record. */
	file_header(&o, MAGIC_NSEC, DLT_ETH);
	record(&o, 1, 0, 64, 64, 0);
	record(&o, 1, 0, 100, 100, 0);
	o.len -= 50;
	expect_error(&o, "record 2: cannot be read");
}

/* ---- checksums checked by summing, as a receiver does ---- */

static uint32_t
sum16(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)p[n - 1] << 8;
	return s;
}

static uint16_t
fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

/* An Ethernet / IPv4 / UDP frame with an 18-byte payload, checksums right. */
static void
udp4_frame(uint8_t *f)
{
	static const uint8_t hdr[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x08, 0x00,
		0x45, 0, 0, 46, 0, 1, 0, 0, 64, 17, 0, 0,
		192, 168, 0, 1, 192, 168, 0, 2,
		0x04, 0x00, 0x00, 0x35, 0, 26, 0x12, 0x34,
	};

	memset(f, 0xab, 60);
	memcpy(f, hdr, sizeof(hdr));
	wr_pkt_fix_csums(f, 60);
}

static bool
udp4_ok(const uint8_t *f)
{
	const uint8_t *ip = f + 14, *udp = ip + 20;
	uint32_t ph = sum16(ip + 12, 8) + 17 + 26;

	return fold(sum16(ip, 20)) == 0xffff &&
	       fold(ph + sum16(udp, 26)) == 0xffff;
}

static void
test_rewrite(void)
{
	struct wr_field_spec fs[WR_REWRITE__COUNT];
	bool set[WR_REWRITE__COUNT] = { false };
	struct wr_capture c;
	uint8_t f[60];
	uint32_t k;

	memset(fs, 0, sizeof(fs));
	udp4_frame(f);
	CU_ASSERT_TRUE(udp4_ok(f));
	CU_ASSERT_EQUAL_FATAL(wr_capture_from_frame("x", f, 60, 7, &c, NULL), 0);
	set[WR_REWRITE_IPV4_SRC] = set[WR_REWRITE_ETH_DST] = true;
	fs[WR_REWRITE_IPV4_SRC].mode = WR_VARY_INC;
	fs[WR_REWRITE_IPV4_SRC].from = 0x0a000001;
	fs[WR_REWRITE_IPV4_SRC].to = 0x0a000003;
	fs[WR_REWRITE_IPV4_SRC].step = 1;
	fs[WR_REWRITE_ETH_DST].mode = WR_VARY_FIXED;
	fs[WR_REWRITE_ETH_DST].value = 0x02aabbccddeeull;
	CU_ASSERT_EQUAL(wr_capture_rewrite(&c, set, fs, 1), 7);
	for (k = 0; k < 7; k++) {
		const uint8_t *b = wr_capture_frame(&c, k);

		CU_ASSERT_EQUAL(b[0], 0x02);
		CU_ASSERT_EQUAL(b[5], 0xee);
		CU_ASSERT_EQUAL(b[6], 6); /* src MAC as it was */
		CU_ASSERT_EQUAL(b[26], 10);
		CU_ASSERT_EQUAL(b[29], 1 + k % 3);
		CU_ASSERT_EQUAL(b[30], 192); /* dst as it was */
		CU_ASSERT_TRUE(udp4_ok(b));
	}
	wr_capture_free(&c);
}

/* Any sub-sequence tag will do: these draws only go back into the field. */
#define TAG_ANY 9

static void
test_value_at(void)
{
	struct wr_field_spec fs = { 0 };
	__uint128_t list[3] = { 7, 9, 11 };
	uint64_t k;

	fs.mode = WR_VARY_DEC;
	fs.from = 10;
	fs.to = 4;
	fs.step = 3;
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, TAG_ANY), 0), 10);
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, TAG_ANY), 2), 4);
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, TAG_ANY), 3), 10);
	fs.mode = WR_VARY_LIST;
	fs.list = list;
	fs.list_len = 3;
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, TAG_ANY), 4), 9);
	fs.mode = WR_VARY_RANDOM;
	fs.from = 100;
	fs.to = 103;
	for (k = 0; k < 1000; k++) {
		uint64_t v = wr_field_value_at(&fs, wr_rng_key(5, TAG_ANY), k);

		CU_ASSERT_TRUE(v >= 100 && v <= 103);
		CU_ASSERT_EQUAL(v, wr_field_value_at(&fs, wr_rng_key(5, TAG_ANY), k));
	}
}

static void
test_fix_csum_ipv6(void)
{
	static const uint8_t hdr[] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x86, 0xdd,
		0x60, 0, 0, 0, 0, 16, 17, 64,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2,
		0x04, 0x00, 0x00, 0x35, 0, 16, 0x12, 0x34,
	};
	uint8_t f[70];
	uint32_t ph;

	memset(f, 0x5a, sizeof(f));
	memcpy(f, hdr, sizeof(hdr));
	wr_pkt_fix_csums(f, sizeof(f));
	ph = sum16(f + 22, 32) + 17 + 16;
	CU_ASSERT_EQUAL(fold(ph + sum16(f + 54, 16)), 0xffff);
}

/* Checksums only the protocol registry knows where to find (wr_pkt_csum.h):
 * the inner IPv4 and UDP ones of a VXLAN frame, GRE's (C flag) and its
 * inner IPv4 and ICMP, SCTP's CRC32c over IPv6.  The frames are Scapy
 * 2.5's (checksums as it computes them), theirs spoiled here. */
static void
test_fix_csum_registry(void)
{
	static const struct {
		const char *hex;
		uint16_t at[4]; /* checksum fields spoiled; 0: no more */
	} cases[] = {
		/* Ether/IP/UDP(1234, 4789)/VXLAN(flags=8, vni=7)/Ether/IP/UDP(5, 6)/"abcdefgh" */
		{ "020000000002020000000001080045000056000100004011ee6ec6120001c613"
		  "000104d212b5004254d808000000000007000200000000040200000000030800"
		  "4500002400010000401166c60a0000010a0000020005000600105a2b61626364"
		  "65666768", { 24, 40, 74, 90 } },
		/* Ether/IP/GRE(chksum_present=1)/IP/ICMP(id=1, seq=2)/"pingping" */
		{ "02000000000202000000000108004500004000010000402fee66c6120001c613"
		  "00018000080077ff00004500002400010000400166d60a0000010a00000208"
		  "003a5b0001000270696e6770696e67", { 24, 38, 52, 64 } },
		/* Ether/IPv6/SCTP(1, 2, tag=3)/SCTPChunkData(tsn=1, "datadata") */
		{ "02000000000202000000000186dd600000000024844020010db8000000000000"
		  "00000000000120010db800000000000000000000000200010002000000037368"
		  "ae87000000180000000100000000000000006461746164617461", { 62 } },
	};
	unsigned int i, j, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t want[128], f[128];
		size_t n = strlen(cases[i].hex) / 2;

		for (k = 0; k < n; k++)
			sscanf(cases[i].hex + 2 * k, "%2hhx", &want[k]);
		memcpy(f, want, n);
		for (j = 0; j < 4 && cases[i].at[j] != 0; j++) {
			f[cases[i].at[j]] ^= 0x5a;
			f[cases[i].at[j] + 1] ^= 0xa5;
		}
		CU_ASSERT_NOT_EQUAL(memcmp(f, want, n), 0);
		wr_pkt_fix_csums(f, (uint16_t)n);
		if (memcmp(f, want, n) != 0)
			for (k = 0; k < n; k++)
				if (f[k] != want[k])
					fprintf(stderr, "\n    case %u: byte %u: %02x, "
						"Scapy's %02x", i, k, f[k], want[k]);
		CU_ASSERT_EQUAL(memcmp(f, want, n), 0);
	}
	/* A first fragment (MF): its IPv4 header's checksum fixed, its UDP
	 * one (over later fragments' bytes too) left as it was. */
	{
		static const char frag[] =
			"020000000002020000000001080045000024000920004011ce98c612"
			"0001c613000100050006006412346162636465666768";
		uint8_t want[64], f[64];
		size_t n = strlen(frag) / 2;

		for (k = 0; k < n; k++)
			sscanf(frag + 2 * k, "%2hhx", &want[k]);
		memcpy(f, want, n);
		f[24] ^= 0x5a;
		wr_pkt_fix_csums(f, (uint16_t)n);
		CU_ASSERT_EQUAL(memcmp(f, want, n), 0);
	}
}

/* ---- lanes and limits against enumeration ---- */

static void
test_lanes(void)
{
	uint32_t n, k, j;
	uint64_t loops, count, g, want;

	for (n = 1; n <= 7; n++)
		for (k = 1; k <= 4; k++)
			for (j = 0; j < k; j++) {
				uint32_t m = 0, i;

				for (i = 0; i < n; i++)
					m += i % k == j;
				CU_ASSERT_EQUAL(wr_replay_lane_frames(n, k, j), m);
				for (loops = 0; loops <= 3; loops++)
					for (count = 0; count <= 3 * n + 2;
					     count++) {
						uint64_t end = loops ? loops * n :
							UINT64_MAX;

						if (count != 0 && count < end)
							end = count;
						if (end == UINT64_MAX) {
							want = m ? UINT64_MAX : 0;
						} else {
							want = 0;
							for (g = 0; g < end; g++)
								want += (g % n) % k == j;
						}
						CU_ASSERT_EQUAL(wr_replay_lane_limit(
							n, loops, count, k, j),
							want);
					}
			}
}

/* ---- timing with a fake clock: 1 tick = 1 ns ---- */

static void
timed_capture(struct wr_capture *c, const uint64_t *ts, uint32_t n)
{
	uint8_t f[60];

	udp4_frame(f);
	CU_ASSERT_EQUAL_FATAL(wr_capture_from_frame("x", f, 60, n, c, NULL), 0);
	memcpy(c->ts_ns, ts, n * sizeof(*ts));
}

static void
test_timing(void)
{
	/* Gaps 10 us, 100 us, 1 ms, 0 (a burst of two): span 1110 us, mean
	 * gap 277.5 us, pass 1387.5 us. */
	static const uint64_t ts[] = { 1000, 11000, 111000, 1111000, 1111000 };
	struct wr_capture c;
	struct wr_replay_sched s;
	uint64_t dl[5], due[8], t0 = 5000000, now;
	uint32_t n, p;

	timed_capture(&c, ts, 5);
	CU_ASSERT_EQUAL(wr_replay_pass_ns(&c, WR_REPLAY_SPEEDUP_ONE), 1387500);
	CU_ASSERT_EQUAL(wr_replay_pass_ns(&c, 4 * WR_REPLAY_SPEEDUP_ONE),
			346875);
	/* 5 frames a pass over 1387.5 us: 3603.6 frames/s. */
	CU_ASSERT_EQUAL(wr_replay_capture_millipps(&c, WR_REPLAY_SPEEDUP_ONE),
			3603603);
	wr_replay_lane_deadlines(&c, WR_REPLAY_SPEEDUP_ONE, 1000000000ull, 1,
				 0, dl);
	CU_ASSERT_EQUAL(dl[0], 0);
	CU_ASSERT_EQUAL(dl[1], 10000);
	CU_ASSERT_EQUAL(dl[2], 110000);
	CU_ASSERT_EQUAL(dl[3], 1110000);
	CU_ASSERT_EQUAL(dl[4], 1110000);
	wr_replay_sched_start(&s, dl, 5, 1387500, 1000000000ull, t0);
	CU_ASSERT_EQUAL(wr_replay_sched_take(&s, t0, 8, due), 1);
	CU_ASSERT_EQUAL(due[0], t0);
	CU_ASSERT_EQUAL(wr_replay_sched_take(&s, t0 + 9999, 8, due), 0);
	CU_ASSERT_EQUAL(wr_replay_sched_take(&s, t0 + 10000, 8, due), 1);
	/* Late (< 1 ms): made up: frame 2, then 3 and 4 together. */
	CU_ASSERT_EQUAL(wr_replay_sched_take(&s, t0 + 610000, 8, due), 1);
	CU_ASSERT_EQUAL(due[0], t0 + 110000);
	n = wr_replay_sched_take(&s, t0 + 1110000 + 200000, 8, due);
	CU_ASSERT_EQUAL(n, 2);
	CU_ASSERT_EQUAL(due[0], t0 + 1110000);
	CU_ASSERT_EQUAL(due[1], t0 + 1110000);
	CU_ASSERT_EQUAL(s.stalls, 0);
	/* 1000 passes later, on time to the tick: no drift. */
	for (p = 1; p <= 1000; p++) {
		now = t0 + p * 1387500ull;
		CU_ASSERT_EQUAL(wr_replay_sched_take(&s, now - 1, 8, due), 0);
		CU_ASSERT_EQUAL(wr_replay_sched_take(&s, now, 1, due), 1);
		CU_ASSERT_EQUAL(due[0], now);
		for (n = 1; n < 5; n++)
			wr_replay_sched_take(&s, now + dl[n], 8, due);
	}
	CU_ASSERT_EQUAL(s.pass, 1001);
	/* A 5 ms stall: the schedule moves, nothing is sent as one burst. */
	now = t0 + 1001 * 1387500ull + 5000000;
	n = wr_replay_sched_take(&s, now, 8, due);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_EQUAL(due[0], now);
	CU_ASSERT_EQUAL(s.stalls, 1);
	CU_ASSERT_EQUAL(s.stall_ticks, 5000000);
	CU_ASSERT_EQUAL(wr_replay_sched_take(&s, now + 9999, 8, due), 0);
	CU_ASSERT_EQUAL(wr_replay_sched_take(&s, now + 10000, 8, due), 1);
	wr_capture_free(&c);
}

static void
test_timing_lanes_speedup(void)
{
	static const uint64_t ts[] = { 0, 1000, 3000, 6000 };
	struct wr_capture c;
	uint64_t dl[2];

	timed_capture(&c, ts, 4);
	/* Lane 1 of 2 holds frames 1 and 3; speedup 4, a 2 GHz clock. */
	wr_replay_lane_deadlines(&c, 4 * WR_REPLAY_SPEEDUP_ONE, 2000000000ull,
				 2, 1, dl);
	CU_ASSERT_EQUAL(dl[0], 500);
	CU_ASSERT_EQUAL(dl[1], 3000);
	/* One frame, or all at one time: no timing to reproduce. */
	c.n = 1;
	CU_ASSERT_EQUAL(wr_replay_pass_ns(&c, WR_REPLAY_SPEEDUP_ONE), 0);
	c.n = 4;
	memset(c.ts_ns, 0, 4 * sizeof(*c.ts_ns));
	CU_ASSERT_EQUAL(wr_replay_pass_ns(&c, WR_REPLAY_SPEEDUP_ONE), 0);
	wr_capture_free(&c);
}

static void
test_over_mtu(void)
{
	struct wr_capture c;
	uint8_t f[1520];

	memset(f, 0, sizeof(f));
	f[12] = 0x81; /* one VLAN tag: 1518 bytes carry 1500 */
	f[13] = 0x00;
	f[16] = 0x08;
	CU_ASSERT_EQUAL_FATAL(wr_capture_from_frame("x", f, 1518, 2, &c, NULL), 0);
	CU_ASSERT_EQUAL(wr_capture_over_mtu(&c, 1500), -1);
	CU_ASSERT_EQUAL(wr_capture_over_mtu(&c, 1499), 0);
	wr_capture_free(&c);
}

/* ---- the loader's replay keys (frame: streams need no file) ---- */

#define SYN "\"020000000002020000000001080045000028000100004006eea7c6120001" \
	"c61300019c40005000000001000000005002200067290000\""

static void
expect_yaml(const char *text, int rc_want, unsigned int line,
	    const char *needle)
{
	struct wr_stream_file f;
	struct wr_error err;
	int rc;

	rc = wr_yaml_load_streams_buf("t.yaml", text, strlen(text), &f, &err);
	CU_ASSERT_EQUAL(rc, rc_want);
	if (rc != 0) {
		CU_ASSERT_EQUAL(err.line, line);
		if (err.line != line)
			fprintf(stderr, "line %u for \"%s\"\n", err.line, err.msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle));
		if (strstr(err.msg, needle) == NULL)
			fprintf(stderr, "got \"%s\"\n", err.msg);
		return;
	}
	wr_stream_file_free(&f);
}

static void
test_yaml_keys(void)
{
	struct wr_stream_file f;
	struct wr_error err;
	const char *ok = "version: 1\nstreams:\n  - name: s\n    frame: " SYN "\n"
		"    fields:\n      - {offset: 26, width: 4, value: "
		"{inc: {from: 10.0.0.1, to: 10.0.0.3}}}\n"
		"      - {offset: 34, width: 2, value: {list: [7, 8]}}\n"
		"    rate: 1 Mpps\n";
	const struct wr_replay_spec *r;
	const uint8_t *b;

	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("t.yaml", ok, strlen(ok),
						       &f, &err), 0);
	r = f.streams[0].replay;
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->cap.n, 6); /* lcm(3, 2) */
	CU_ASSERT_EQUAL(r->loops, 0);
	b = wr_capture_frame(&r->cap, 4);
	CU_ASSERT_EQUAL(b[29], 2);   /* 10.0.0.(1 + 4 % 3) */
	CU_ASSERT_EQUAL(b[35], 7);   /* list[4 % 2] */
	CU_ASSERT_EQUAL(fold(sum16(b + 14, 20)), 0xffff);
	CU_ASSERT_EQUAL(fold(sum16(b + 26, 8) + 6 + 20 + sum16(b + 34, 20)),
			0xffff);
	CU_ASSERT_EQUAL(f.streams[0].size.min, 64);
	wr_stream_file_free(&f);

	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    speedup: 2\n", -EINVAL, 5, "needs timing: capture");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    size: 128\n", -EINVAL, 5,
		    "size does not apply to a replayed stream");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    latency: true\n", -EINVAL, 5,
		    "latency signature would overwrite");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    rate: max\n    timing: capture\n", -EINVAL, 6,
		    "give either rate or timing");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    timing: capture\n", -EINVAL, 5,
		    "timing: capture needs frames at two different times");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    loops: 3\n",
		    -EINVAL, 4, "loops applies to a replayed stream");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    fields:\n      - {offset: 60, width: 4, value: 1.2.3.4}\n",
		    -EINVAL, 6, "expected an integer in 0..50");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    fields:\n      - {offset: 2, width: 2, value: "
		    "{random: {min: 1, max: 9}}}\n", -EINVAL, 6,
		    "give count:");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: \"zz\"\n",
		    -EINVAL, 4, "the frame's bytes in hex");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    memory: lots\n", -EINVAL, 5, "a size such as");
	/* The file itself: where the stream file names it (the pcap: key). */
	expect_yaml("version: 1\nstreams:\n  - name: s\n    pcap: /nonexistent.pcap\n",
		    -EINVAL, 4, "/nonexistent.pcap: cannot read the capture: No such file");
	/* The fields' frames over the budget: refused before any is laid
	 * out (1000 frames of 54 bytes take 62.5 KiB in 64-byte slots). */
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    memory: 63999\n    fields:\n      - {offset: 34, "
		    "width: 2, value: {inc: {from: 1, to: 1000}}}\n", -EINVAL, 7,
		    "1000 frames of 54 bytes take at least 0.1 MiB, over the "
		    "stream's memory: budget");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " SYN
		    "\n    memory: 64000 B\n    fields:\n      - {offset: 34, "
		    "width: 2, value: {inc: {from: 1, to: 999}}}\n", 0, 0, "");
}

/* A pcap: that is not a regular file, or larger than the stream's budget:
 * refused at once (a FIFO with no writer would block the open, /dev/zero
 * never ends), one error at the pcap: key. */
static void
test_yaml_pcap_files(void)
{
	char dir[] = "/tmp/wrcapXXXXXX", fifo[64], big[64], text[256];
	struct buf o = { 0 };
	FILE *fp;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/fifo.pcap", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    pcap: %s\n", fifo);
	expect_yaml(text, -EINVAL, 4, "cannot read the capture: a FIFO, not a "
		    "regular file");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    pcap: /dev/zero\n",
		    -EINVAL, 4, "/dev/zero: cannot read the capture: a character "
		    "device, not a regular file");
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    pcap: %s\n", dir);
	expect_yaml(text, -EINVAL, 4, "a directory, not a regular file");
	/* 40 records of 1514 bytes: about 61 KiB of file, over a 16 KiB
	 * budget; within a 1 MiB one. */
	file_header(&o, MAGIC_NSEC, DLT_ETH);
	for (unsigned int k = 0; k < 40; k++)
		record(&o, 1, k, 1514, 1514, 0x22);
	snprintf(big, sizeof(big), "%s/big.pcap", dir);
	fp = fopen(big, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	CU_ASSERT_EQUAL(fwrite(o.b, 1, o.len, fp), o.len);
	fclose(fp);
	free(o.b);
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    memory: 16 KiB\n    pcap: %s\n", big);
	expect_yaml(text, -EINVAL, 5, "over the 16.0 KiB such a file may be "
		    "(the stream's memory: budget; raise memory:)");
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    memory: 1 MiB\n    pcap: %s\n", big);
	expect_yaml(text, 0, 0, "");
	unlink(big);
	unlink(fifo);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
}

/* ---- IPv6 rewrites ---- */

static const uint8_t v6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x0a };
static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x0b };

/* Ethernet [/ 802.1Q] / IPv6 (next header @p nh) / @p l4, checksums set. */
static uint16_t
v6_frame(uint8_t *f, bool vlan, uint8_t nh, const uint8_t *l4, uint16_t l4len)
{
	uint16_t o = 12;

	memset(f, 0, 14);
	f[0] = 0x02;
	f[11] = 0x01;
	if (vlan) {
		f[o++] = 0x81;
		f[o++] = 0x00;
		f[o++] = 0x00;
		f[o++] = 0x07;
	}
	f[o++] = 0x86;
	f[o++] = 0xdd;
	memset(f + o, 0, 40);
	f[o] = 0x60;
	f[o + 4] = (uint8_t)(l4len >> 8);
	f[o + 5] = (uint8_t)l4len;
	f[o + 6] = nh;
	f[o + 7] = 64;
	memcpy(f + o + 8, v6_src, 16);
	memcpy(f + o + 24, v6_dst, 16);
	memcpy(f + o + 40, l4, l4len);
	wr_pkt_fix_csums(f, (uint16_t)(o + 40 + l4len));
	return (uint16_t)(o + 40 + l4len);
}

/* The L4 checksum of an IPv6 frame verifies (as a receiver sums it:
 * RFC 8200 8.1 pseudo-header, after a hop-by-hop header if any). */
static bool
v6_ok(const uint8_t *f)
{
	const uint8_t *ip = f + (f[12] == 0x81 ? 18 : 14), *l4 = ip + 40;
	uint32_t plen = (uint32_t)(ip[4] << 8 | ip[5]);
	uint8_t nh = ip[6];

	if (nh == 0) {
		nh = l4[0];
		plen -= (l4[1] + 1u) * 8;
		l4 += (l4[1] + 1u) * 8;
	}
	if (nh == 17 && l4[6] == 0 && l4[7] == 0)
		return false; /* IPv6 UDP must carry a checksum */
	return fold(sum16(ip + 8, 32) + nh + plen + sum16(l4, plen)) == 0xffff;
}

static void
u128_be(uint8_t *out, __uint128_t v)
{
	int i;

	for (i = 15; i >= 0; i--, v >>= 8)
		out[i] = (uint8_t)v;
}

static void
rec_bytes(struct buf *o, const uint8_t *b, uint32_t len)
{
	put32(o, 1);
	put32(o, 0);
	put32(o, len);
	put32(o, len);
	put(o, b, len);
}

/* UDP, TCP (tagged), ICMPv6, IPv4/UDP, ARP, hop-by-hop + UDP. */
static void
mixed_v6_capture(struct buf *o)
{
	static const uint8_t udp[16] = { 0x30, 0x39, 0x00, 0x35, 0, 16, 0, 0,
					 'w', 'i', 'r', 'e', 'r', 'a', 't', 'e' };
	static const uint8_t tcp[20] = { 0x9c, 0x40, 0x00, 0x50, 0, 0, 0, 1,
					 0, 0, 0, 0, 0x50, 0x02, 0x20, 0 };
	static const uint8_t icmp6[12] = { 128, 0, 0, 0, 0x12, 0x34, 0, 1,
					   1, 2, 3, 4 };
	static const uint8_t hbh_udp[24] = { 17, 0, 1, 4, 0, 0, 0, 0, /* PadN */
					     0x30, 0x39, 0x00, 0x35, 0, 16, 0, 0,
					     1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t f[128], arp[42];

	file_header(o, MAGIC_USEC, DLT_ETH);
	rec_bytes(o, f, v6_frame(f, false, 17, udp, sizeof(udp)));
	rec_bytes(o, f, v6_frame(f, true, 6, tcp, sizeof(tcp)));
	rec_bytes(o, f, v6_frame(f, false, 58, icmp6, sizeof(icmp6)));
	udp4_frame(f);
	rec_bytes(o, f, 60);
	memset(arp, 0, sizeof(arp));
	memset(arp, 0xff, 6);
	arp[6] = 0x02;
	arp[12] = 0x08;
	arp[13] = 0x06;
	arp[15] = 1;
	arp[16] = 0x08;
	arp[18] = 6;
	arp[19] = 4;
	arp[21] = 1;
	rec_bytes(o, arp, sizeof(arp));
	rec_bytes(o, f, v6_frame(f, false, 0, hbh_udp, sizeof(hbh_udp)));
}

static void
test_rewrite_ipv6(void)
{
	struct wr_field_spec fs[WR_REWRITE__COUNT];
	bool set[WR_REWRITE__COUNT] = { false };
	struct wr_capture c, orig;
	struct buf o = { 0 };
	const uint64_t seed = 42;
	uint8_t want[16], first_dst[16];
	bool dst_moved = false;
	uint32_t k;

	mixed_v6_capture(&o);
	put(&o, "", 0);
	CU_ASSERT_EQUAL_FATAL(wr_capture_load_buf("m.pcap", o.b, o.len, &orig,
						  NULL), 0);
	CU_ASSERT_EQUAL_FATAL(load(&o, &c, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(c.n, 6);
	for (k = 0; k < 6; k++)
		if (k != 3 && k != 4)
			CU_ASSERT_TRUE(v6_ok(wr_capture_frame(&c, k)));
	memset(fs, 0, sizeof(fs));
	/* ipv6.src inc 2001:db8::1 .. 2001:db8::4; ipv6.dst random in a /48
	 * (more than 2^64 values: the wide draw). */
	set[WR_REWRITE_IPV6_SRC] = set[WR_REWRITE_IPV6_DST] = true;
	fs[WR_REWRITE_IPV6_SRC].mode = WR_VARY_INC;
	fs[WR_REWRITE_IPV6_SRC].from = (__uint128_t)0x20010db8ull << 96 | 1;
	fs[WR_REWRITE_IPV6_SRC].to = (__uint128_t)0x20010db8ull << 96 | 4;
	fs[WR_REWRITE_IPV6_SRC].step = 1;
	fs[WR_REWRITE_IPV6_DST].mode = WR_VARY_RANDOM;
	fs[WR_REWRITE_IPV6_DST].from = (__uint128_t)0x20010db80001ull << 80;
	fs[WR_REWRITE_IPV6_DST].to = fs[WR_REWRITE_IPV6_DST].from |
				     (((__uint128_t)1 << 80) - 1);
	CU_ASSERT_EQUAL(wr_capture_rewrite(&c, set, fs, seed), 4);
	for (k = 0; k < 6; k++) {
		const uint8_t *b = wr_capture_frame(&c, k);
		const uint8_t *ip = b + (k == 1 ? 18 : 14);

		if (k == 3 || k == 4) { /* IPv4 and ARP: as captured */
			CU_ASSERT_EQUAL(c.len[k], orig.len[k]);
			CU_ASSERT_EQUAL(memcmp(b, wr_capture_frame(&orig, k),
					       c.len[k]), 0);
			continue;
		}
		CU_ASSERT_TRUE(v6_ok(b));
		/* src: 2001:db8::(1 + k mod 4) */
		memset(want, 0, 16);
		memcpy(want, v6_src, 4);
		want[15] = (uint8_t)(1 + k % 4);
		CU_ASSERT_EQUAL(memcmp(ip + 8, want, 16), 0);
		/* dst: in 2001:db8:1::/48, draw k of the ipv6.dst sub-sequence */
		CU_ASSERT_EQUAL(memcmp(ip + 24, "\x20\x01\x0d\xb8\x00\x01", 6), 0);
		u128_be(want, wr_field_value_at(&fs[WR_REWRITE_IPV6_DST],
			wr_rng_key(seed, WR_CAPTURE_TAG_IPV6 + 1), k));
		CU_ASSERT_EQUAL(memcmp(ip + 24, want, 16), 0);
		if (k == 0)
			memcpy(first_dst, ip + 24, 16);
		else
			dst_moved |= memcmp(first_dst, ip + 24, 16) != 0;
		/* nothing else moved: the bytes before the addresses */
		CU_ASSERT_EQUAL(memcmp(b, wr_capture_frame(&orig, k),
				       (size_t)(ip - b) + 8), 0);
	}
	CU_ASSERT_TRUE(dst_moved);
	wr_capture_free(&c);
	wr_capture_free(&orig);
}

/* The rule is the generator's: packet 0 of a generated stream with the
 * same spec and key, inc/dec over 128 bits, and a /64 drawn in its low
 * half exactly as a 64-bit range. */
static void
test_value_at_128(void)
{
	struct wr_field_spec fs = { 0 };
	__uint128_t hi = (__uint128_t)0x20010db8ull << 96, v;
	uint64_t key = wr_rng_key(7, 3), k;

	fs.mode = WR_VARY_INC;
	fs.from = hi | (((__uint128_t)1 << 64) - 2); /* carries into the high half */
	fs.to = hi | (((__uint128_t)1 << 64) + 5);
	fs.step = 3;
	CU_ASSERT_TRUE(wr_field_value_at(&fs, key, 1) == (hi | (__uint128_t)1 << 64 | 1));
	CU_ASSERT_TRUE(wr_field_value_at(&fs, key, 3) == fs.from);
	fs.mode = WR_VARY_DEC;
	fs.from = hi | (__uint128_t)1 << 64;
	fs.to = hi;
	fs.step = (__uint128_t)1 << 63;
	CU_ASSERT_TRUE(wr_field_value_at(&fs, key, 2) == hi);
	fs.mode = WR_VARY_RANDOM;
	fs.from = hi;
	fs.to = hi | UINT64_MAX; /* a /64: from + the draw itself */
	for (k = 0; k < 100; k++)
		CU_ASSERT_TRUE(wr_field_value_at(&fs, key, k) == (hi | wr_rng_at(key, k)));
	fs.to = hi | (((__uint128_t)1 << 72) - 1); /* a /56 */
	for (k = 0; k < 1000; k++) {
		v = wr_field_value_at(&fs, key, k);
		CU_ASSERT_TRUE(v >= fs.from && v <= fs.to);
		CU_ASSERT_TRUE((uint64_t)v == wr_rng_mix64(wr_rng_at(key, k) + WR_RNG_GAMMA));
		CU_ASSERT_TRUE((uint8_t)(v >> 64) == (uint8_t)wr_rng_at(key, k));
	}
}

/* A frame: stream with an IPv6 address field (16 bytes) and integer
 * fields of 3 and 8 bytes; widths the loader refuses. */
#define V6UDP "\"02000000000002000000000186dd600000000014114020010db8" \
	"00000000000000000000000a20010db800000000000000000000000b3039003500" \
	"140000000000000000000000000000\""

static void
test_yaml_frame_v6(void)
{
	static const char text[] = "version: 1\nstreams:\n  - name: s\n"
		"    frame: " V6UDP "\n"
		"    fields:\n"
		"      - {offset: 22, width: 16, value: {inc: {from: \"2001:db8::ffff:fffe\", to: \"2001:db8::1:0:1\"}}}\n"
		"      - {offset: 62, width: 8, value: {list: [1, 0xfffffffffffffffe]}}\n"
		"      - {offset: 54, width: 3, value: {dec: {from: 0x123456, to: 0x123450, step: 2}}}\n";
	struct wr_stream_file f;
	struct wr_error err;
	const struct wr_replay_spec *r;
	uint32_t k;

	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("t.yaml", text,
		strlen(text), &f, &err), 0);
	r = f.streams[0].replay;
	CU_ASSERT_EQUAL(r->cap.n, 4); /* lcm(4, 2, 4) */
	for (k = 0; k < r->cap.n; k++) {
		const uint8_t *b = wr_capture_frame(&r->cap, k);
		uint8_t want[16];

		/* 2001:db8::ffff:fffe + k */
		u128_be(want, (__uint128_t)0x20010db8ull << 96 | (0xfffffffeull + k));
		CU_ASSERT_EQUAL(memcmp(b + 22, want, 16), 0);
		CU_ASSERT_EQUAL(b[69], k % 2 ? 0xfe : 0x01);
		CU_ASSERT_EQUAL(b[62], k % 2 ? 0xff : 0x00);
		CU_ASSERT_EQUAL(b[54], 0x12);
		CU_ASSERT_EQUAL(b[56], 0x56 - 2 * k);
		CU_ASSERT_TRUE(v6_ok(b));
	}
	wr_stream_file_free(&f);
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " V6UDP
		    "\n    fields:\n      - {offset: 22, width: 9, value: 1}\n",
		    -EINVAL, 6, "or 16 (an IPv6 address)");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " V6UDP
		    "\n    fields:\n      - {offset: 22, width: 16, value: 10.0.0.1}\n",
		    -EINVAL, 6, "IPv6");
	expect_yaml("version: 1\nstreams:\n  - name: s\n    frame: " V6UDP
		    "\n    count: 8\n    fields:\n      - {offset: 22, width: 16, value: "
		    "{random: {min: \"2001:db8::\", max: \"2001:db9::\"}}}\n",
		    -EINVAL, 7, "must be a prefix");
}

/* rewrite: ipv6.* from a stream file, and their errors. */
static void
test_yaml_rewrite_v6(void)
{
	char path[] = "/tmp/wr-test-capture-XXXXXX", text[512];
	struct wr_stream_file f;
	struct wr_error err;
	struct buf o = { 0 };
	const struct wr_replay_spec *r;
	FILE *fp;
	int fd;

	mixed_v6_capture(&o);
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	fp = fdopen(fd, "wb");
	CU_ASSERT_EQUAL(fwrite(o.b, 1, o.len, fp), o.len);
	fclose(fp);
	free(o.b);
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    pcap: %s\n    rewrite:\n"
		 "      ipv6.src: {list: [\"2001:db8::5\", \"fd00::1\"]}\n"
		 "      ipv6.dst: \"2001:db8::99\"\n", path);
	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("t.yaml", text,
		strlen(text), &f, &err), 0);
	r = f.streams[0].replay;
	CU_ASSERT_TRUE(r->rewrite[WR_REWRITE_IPV6_SRC]);
	CU_ASSERT_EQUAL(wr_capture_frame(&r->cap, 2)[14 + 8 + 15], 0x05);
	CU_ASSERT_EQUAL(wr_capture_frame(&r->cap, 5)[14 + 8], 0xfd);
	CU_ASSERT_EQUAL(wr_capture_frame(&r->cap, 1)[18 + 24 + 15], 0x99);
	CU_ASSERT_TRUE(v6_ok(wr_capture_frame(&r->cap, 1)));
	wr_stream_file_free(&f);
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    pcap: %s\n    rewrite:\n"
		 "      ipv6.dst: {random: {prefix: \"2001:db8::/33\", min: 1}}\n",
		 path);
	expect_yaml(text, -EINVAL, 6, "either prefix or min and max");
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    pcap: %s\n    rewrite:\n      ipv6.dst: 10.1.1.1\n", path);
	expect_yaml(text, -EINVAL, 6, "IPv6");
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n"
		 "    pcap: %s\n    rewrite:\n      ipv6.flow: 1\n", path);
	expect_yaml(text, -EINVAL, 6, "ipv6.src, ipv6.dst");
	unlink(path);
}

static CU_TestInfo reader_tests[] = {
	{ "load_ok", test_load_ok },
	{ "load_usec_reordered", test_load_usec_reordered },
	{ "load_errors", test_load_errors },
	{ "over_mtu", test_over_mtu },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo edit_tests[] = {
	{ "rewrite", test_rewrite },
	{ "value_at", test_value_at },
	{ "fix_csum_ipv6", test_fix_csum_ipv6 },
	{ "fix_csum_registry", test_fix_csum_registry },
	{ "yaml_keys", test_yaml_keys },
	{ "yaml_pcap_files", test_yaml_pcap_files },
	{ "rewrite_ipv6", test_rewrite_ipv6 },
	{ "value_at_128", test_value_at_128 },
	{ "yaml_frame_v6", test_yaml_frame_v6 },
	{ "yaml_rewrite_v6", test_yaml_rewrite_v6 },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo replay_tests[] = {
	{ "lanes", test_lanes },
	{ "timing", test_timing },
	{ "timing_lanes_speedup", test_timing_lanes_speedup },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "reader", .pTests = reader_tests },
	{ .pName = "edits", .pTests = edit_tests },
	{ .pName = "replay", .pTests = replay_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

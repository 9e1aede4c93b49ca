/* SPDX-License-Identifier: BSD-3-Clause */
/* test_capture: the capture reader's checks, rewrites and checksums, replay lanes and capture timing with a fake clock. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_capture.h"
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
	wr_capture_fix_csum(f, 60);
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
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, WR_FIELD_UDP_SRC), 0), 10);
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, WR_FIELD_UDP_SRC), 2), 4);
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, WR_FIELD_UDP_SRC), 3), 10);
	fs.mode = WR_VARY_LIST;
	fs.list = list;
	fs.list_len = 3;
	CU_ASSERT_EQUAL(wr_field_value_at(&fs, wr_rng_key(1, WR_FIELD_UDP_SRC), 4), 9);
	fs.mode = WR_VARY_RANDOM;
	fs.from = 100;
	fs.to = 103;
	for (k = 0; k < 1000; k++) {
		uint64_t v = wr_field_value_at(&fs, wr_rng_key(5, WR_FIELD_UDP_SRC), k);

		CU_ASSERT_TRUE(v >= 100 && v <= 103);
		CU_ASSERT_EQUAL(v, wr_field_value_at(&fs, wr_rng_key(5, WR_FIELD_UDP_SRC), k));
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
	wr_capture_fix_csum(f, sizeof(f));
	ph = sum16(f + 22, 32) + 17 + 16;
	CU_ASSERT_EQUAL(fold(ph + sum16(f + 54, 16)), 0xffff);
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
	expect_yaml("version: 1\nstreams:\n  - name: s\n    pcap: /nonexistent.pcap\n",
		    -EINVAL, 0, "cannot open the capture");
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
	{ "yaml_keys", test_yaml_keys },
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

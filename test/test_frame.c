/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of frame templates, signatures and the pcap dump (wr_frame, wr_dump). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "wr_sig.h"
#include "wr_test.h"
#include "wr_test_frame.h"
#include "wr_yaml.h"

/*
 * Golden frames, FCS excluded, written out from the RFC 791/768 layouts.
 * The checksums of gold_plain and gold_vlan_pattern were summed by hand
 * (e.g. IPv4: 4500+002e+0000+4000+4011+c0a8+0001+c0a8+0002 = 24692,
 * folded 4694, complemented b96b); the others by an independent Python
 * struct-based implementation.
 */
static const uint8_t gold_plain[60] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb9, 0x6b, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02, 0x04, 0x00,
	0x04, 0x01, 0x00, 0x1a, 0x76, 0x65, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* VLAN 100 PCP 5, DSCP 46 (EF) ECN 1, TTL 255, id 0x1234, no DF,
 * 10.0.0.1:5000 -> 10.0.0.2:53, pattern deadbeef. */
static const uint8_t gold_vlan_pattern[60] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x81, 0x00, 0xa0, 0x64, 0x08, 0x00, 0x45, 0xb9, 0x00, 0x2a, 0x12, 0x34,
	0x00, 0x00, 0xff, 0x11, 0x94, 0xd3, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00,
	0x00, 0x02, 0x13, 0x88, 0x00, 0x35, 0x00, 0x16, 0x20, 0x7c, 0xde, 0xad,
	0xbe, 0xef, 0xde, 0xad, 0xbe, 0xef, 0xde, 0xad, 0xbe, 0xef, 0xde, 0xad,
};

static const uint8_t gold_string[60] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb9, 0x6b, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02, 0x04, 0x00,
	0x04, 0x01, 0x00, 0x1a, 0xa5, 0xcf, 0x77, 0x69, 0x72, 0x65, 0x72, 0x61,
	0x74, 0x65, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const uint8_t gold_inc[60] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb9, 0x6b, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02, 0x04, 0x00,
	0x04, 0x01, 0x00, 0x1a, 0x2e, 0x14, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
	0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11,
};

/* 74-byte frame: headers, a zero signature area, 4 payload bytes. */
static const uint8_t gold_latency[70] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x08, 0x00, 0x45, 0x00, 0x00, 0x38, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb9, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0x02, 0x04, 0x00,
	0x04, 0x01, 0x00, 0x24, 0x74, 0x4d, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0x03,
};

static struct wr_frame_tmpl *
make(const struct wr_stream *s)
{
	struct wr_frame_tmpl *t = NULL;
	struct wr_error err;
	int rc;

	rc = wr_frame_tmpl_create(s, 0, &t, &err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0)
		fprintf(stderr, "tmpl_create: %s\n", err.msg);
	return t;
}

/* The template, and frame 0 generated over a scratch buffer, equal @p gold. */
static void
check_gold(const struct wr_stream *s, const uint8_t *gold, unsigned int len)
{
	struct wr_frame_tmpl *t = make(s);
	struct wr_frame_gen g;
	uint8_t buf[WR_FRAME_MAX];

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(wr_frame_tmpl_max_len(t), len);
	CU_ASSERT_EQUAL(memcmp(wr_frame_tmpl_bytes(t), gold, len), 0);
	CU_ASSERT_EQUAL(ref_check(gold, len), 0);
	memcpy(buf, wr_frame_tmpl_bytes(t), len);
	wr_frame_gen_init(&g, t, 0, 1);
	CU_ASSERT_EQUAL(wr_frame_gen_next(&g, buf), len);
	CU_ASSERT_EQUAL(memcmp(buf, gold, len), 0);
	CU_ASSERT_EQUAL(wr_frame_size_at(t, 0), len + WR_FCS_LEN);
	wr_frame_tmpl_free(t);
}

static void
test_gold_plain(void)
{
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	check_gold(&s, gold_plain, sizeof(gold_plain));
	ref_free(&s);
}

static void
test_gold_vlan_pattern(void)
{
	static uint8_t pat[] = { 0xde, 0xad, 0xbe, 0xef };
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	ref_vlan(&s);
	REF(&s, REF_VLAN_ID).value = 100;
	REF(&s, REF_VLAN_PCP).value = 5;
	REF(&s, REF_IPV4_DSCP).value = 46;
	REF_KEY(&s, "ipv4.ecn").value = 1;
	REF(&s, REF_IPV4_TTL).value = 255;
	REF(&s, REF_IPV4_ID).value = 0x1234;
	REF_KEY(&s, "ipv4.df").value = false;
	REF(&s, REF_IPV4_SRC).value = 0x0a000001;
	REF(&s, REF_IPV4_DST).value = 0x0a000002;
	REF(&s, REF_UDP_SRC).value = 5000;
	REF(&s, REF_UDP_DST).value = 53;
	s.payload.kind = WR_PAYLOAD_PATTERN;
	s.payload.bytes = pat;
	s.payload.len = sizeof(pat);
	check_gold(&s, gold_vlan_pattern, sizeof(gold_vlan_pattern));
	ref_free(&s);
}

static void
test_gold_string(void)
{
	static uint8_t str[] = "wirerate";
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.payload.kind = WR_PAYLOAD_STRING;
	s.payload.bytes = str;
	s.payload.len = 8;
	check_gold(&s, gold_string, sizeof(gold_string));
	ref_free(&s);
}

static void
test_gold_inc(void)
{
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.payload.kind = WR_PAYLOAD_INC;
	check_gold(&s, gold_inc, sizeof(gold_inc));
	ref_free(&s);
}

static void
test_gold_latency(void)
{
	struct wr_frame_tmpl *t;
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.payload.kind = WR_PAYLOAD_INC;
	s.latency = true;
	s.size.fixed = 74;
	check_gold(&s, gold_latency, sizeof(gold_latency));
	t = make(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_off(t), 42);
	CU_ASSERT_TRUE(wr_frame_tmpl_offload(t)->ok);
	CU_ASSERT_EQUAL(wr_frame_tmpl_offload(t)->l4_csum_off, 40);
	CU_ASSERT_EQUAL(wr_frame_tmpl_offload(t)->l2_len, 14);
	CU_ASSERT_FALSE(wr_frame_tmpl_is_static(t));
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

static void
test_lengths(void)
{
	static const uint16_t sizes[] = { 64, 1518, 9018 };
	unsigned int i, vlan;

	for (vlan = 0; vlan < 2; vlan++) {
		for (i = 0; i < 3; i++) {
			struct wr_frame_tmpl *t;
			struct wr_stream s;
			const uint8_t *b;
			unsigned int l2 = vlan ? 18 : 14, len = sizes[i] - 4u;

			ref_stream(&s);
			if (vlan)
				ref_vlan(&s);
			s.size.fixed = sizes[i];
			s.payload.kind = WR_PAYLOAD_INC;
			t = make(&s);
			CU_ASSERT_PTR_NOT_NULL_FATAL(t);
			b = wr_frame_tmpl_bytes(t);
			CU_ASSERT_EQUAL(wr_frame_tmpl_max_len(t), len);
			CU_ASSERT_EQUAL(b[l2 + 2] << 8 | b[l2 + 3], len - l2);
			CU_ASSERT_EQUAL(b[l2 + 24] << 8 | b[l2 + 25],
					len - l2 - 20);
			CU_ASSERT_EQUAL(b[len - 1], (uint8_t)(len - l2 - 28 - 1));
			CU_ASSERT_EQUAL(ref_check(b, len), 0);
			CU_ASSERT_TRUE(wr_frame_tmpl_is_static(t));
			CU_ASSERT_EQUAL(wr_frame_tmpl_sig_off(t), 0);
			CU_ASSERT_EQUAL(wr_frame_tmpl_offload(t)->l4_csum_off, l2 + 26);
			wr_frame_tmpl_free(t);
			ref_free(&s);
		}
	}
}

static void
test_static(void)
{
	struct wr_frame_tmpl *t;
	struct wr_stream s;

	/* A range of one value does not vary: still static. */
	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	ref_inc(&s, REF_UDP_SRC, 7, 7, 1);
	ref_random(&s, REF_IPV4_ID, 9, 9);
	t = make(&s);
	CU_ASSERT_TRUE(wr_frame_tmpl_is_static(t));
	CU_ASSERT_EQUAL(ref_field(wr_frame_tmpl_bytes(t), REF_UDP_SRC), 7);
	CU_ASSERT_EQUAL(ref_field(wr_frame_tmpl_bytes(t), REF_IPV4_ID), 9);
	wr_frame_tmpl_free(t);

	ref_inc(&s, REF_ETH_SRC, 1, 2, 1);
	t = make(&s);
	CU_ASSERT_FALSE(wr_frame_tmpl_is_static(t));
	wr_frame_tmpl_free(t);

	ref_free(&s);
	ref_stream(&s);
	s.size.mode = WR_SIZE_INC;
	s.size.from = 64;
	s.size.to = 128;
	s.size.step = 64;
	t = make(&s);
	CU_ASSERT_FALSE(wr_frame_tmpl_is_static(t));
	CU_ASSERT_EQUAL(wr_frame_tmpl_max_len(t), 124);
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

static void
test_sig_write(void)
{
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct wr_stream s;
	struct wr_sig sig;
	uint8_t buf[WR_FRAME_MAX];
	uint64_t st = 99;
	unsigned int k;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.latency = true;
	s.size.mode = WR_SIZE_RANDOM;
	s.size.from = 74;
	s.size.to = 300;
	s.payload.kind = WR_PAYLOAD_INC;
	ref_random(&s, REF_IPV4_SRC, 0, 0xffffffff);
	ref_inc(&s, REF_UDP_DST, 1, 65535, 7);
	t = make(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < 3000; k++) {
		uint16_t len = wr_frame_gen_next(&g, buf);
		uint64_t seq = ref_rand(&st), tsc = ref_rand(&st);
		uint32_t id = (uint32_t)ref_rand(&st);

		if (k % 3 == 0)
			seq = tsc = 0;
		wr_frame_sig_write(t, buf, len, id, seq, tsc);
		CU_ASSERT_EQUAL_FATAL(ref_check(buf, len), 0);
		CU_ASSERT_EQUAL_FATAL(wr_sig_decode(buf + 42, &sig), 0);
		CU_ASSERT_EQUAL(sig.stream_id, id);
		CU_ASSERT_EQUAL(sig.seq, seq);
		CU_ASSERT_EQUAL(sig.tx_tsc, tsc);
		/* Where a receiver looks: where the template put it, and
		 * nowhere when a loss-only signature does not fit. */
		CU_ASSERT_EQUAL_FATAL(wr_frame_sig_offset(buf, len, NULL), 42);
		CU_ASSERT_EQUAL(wr_frame_sig_offset(buf, 42 + WR_SIG_SHORT_LEN - 1,
						    NULL), -1);
	}
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

static void
test_sig_short(void)
{
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct wr_stream s;
	struct wr_sig sig;
	struct wr_error err;
	uint8_t buf[WR_FRAME_MAX];
	uint64_t st = 7;
	unsigned int k;

	/* The loss-only signature fits a 64-byte frame (18 payload bytes),
	 * as the compact one does (test_sig_compact). */
	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.latency = true;
	s.size.fixed = 64;
	s.sig_short = true;
	/* Nor with a string payload it would have to cut. */
	{
		static uint8_t ten[] = "ten bytes!";

		s.payload.kind = WR_PAYLOAD_STRING;
		s.payload.bytes = ten;
		s.payload.len = 10;
		CU_ASSERT_EQUAL(wr_frame_tmpl_create(&s, 0, &t, &err), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "string payload"));
		s.payload.len = 2; /* 14 + 20 + 8 + 16 + 2 + 4 = 64: fits */
		t = make(&s);
		CU_ASSERT_PTR_NOT_NULL(t);
		wr_frame_tmpl_free(t);
		s.payload.kind = WR_PAYLOAD_ZEROS;
		s.payload.bytes = NULL;
		s.payload.len = 0;
	}
	t = make(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_off(t), 42);
	CU_ASSERT_FALSE(wr_frame_tmpl_is_static(t));
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < 3000; k++) {
		uint16_t len = wr_frame_gen_next(&g, buf);
		uint64_t seq = k % 3 == 0 ? 0 : ref_rand(&st);
		uint32_t id = (uint32_t)ref_rand(&st);

		CU_ASSERT_EQUAL_FATAL(len, 60);
		wr_frame_sig_write(t, buf, len, id, seq, ref_rand(&st));
		/* Checksums by the independent recomputation. */
		CU_ASSERT_EQUAL_FATAL(ref_check(buf, len), 0);
		CU_ASSERT_EQUAL_FATAL(wr_sig_decode_any(buf + 42, len - 42, &sig), 1);
		CU_ASSERT_EQUAL(sig.stream_id, id);
		CU_ASSERT_EQUAL(sig.seq, seq);
		CU_ASSERT_EQUAL(sig.tx_tsc, 0);
		/* The payload after it is the stream's (zeros). */
		CU_ASSERT_EQUAL(buf[58], 0);
		CU_ASSERT_EQUAL(buf[59], 0);
	}
	/* A full signature is recognised by the same decoder, a cut one not. */
	{
		struct wr_sig full = { 0x00010002, 77, 123456789 };
		uint8_t b[WR_SIG_LEN];

		wr_sig_encode(b, &full);
		CU_ASSERT_EQUAL(wr_sig_decode_any(b, WR_SIG_LEN, &sig), 0);
		CU_ASSERT_EQUAL(sig.tx_tsc, 123456789);
		CU_ASSERT_EQUAL(wr_sig_decode_any(b, WR_SIG_SHORT_LEN, &sig), -1);
		b[0] ^= 1;
		CU_ASSERT_EQUAL(wr_sig_decode_any(b, WR_SIG_LEN, &sig), -1);
	}
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

/*
 * The compact signature: what a 64-byte Ethernet/IPv4/UDP latency stream
 * carries (18 bytes after the UDP header, the frame's last 18 before the
 * FCS), its bytes where wr_sig.h says, the UDP checksum right by the
 * independent recomputation, and the sequence and TX TSC read back whole
 * from their low 48 bits against a nearby value, across the 2^48 wrap.
 */
static void
test_sig_compact(void)
{
	static const uint8_t gold[18] = {
		'W', 'R', 's', 'c',             /* magic */
		0x05, 0x03,                     /* stream 5, lane 3 */
		0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, /* seq, low 48 bits */
		0x89, 0xab, 0xcd, 0xef, 0x01, 0x23, /* tx_tsc, low 48 bits */
	};
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct wr_stream s;
	struct wr_sig sig = { 0, 0, 0 };
	uint8_t buf[WR_FRAME_MAX];
	uint64_t st = 11, seq, tsc;
	unsigned int k, size;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.latency = true;
	s.size.fixed = 64;
	ref_inc(&s, REF_UDP_DST, 1, 65535, 7);
	t = make(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_off(t), 42);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), WR_SIG_KIND_COMPACT);
	CU_ASSERT_EQUAL(wr_frame_tmpl_max_len(t), 60);
	memcpy(buf, wr_frame_tmpl_bytes(t), 60);
	wr_frame_gen_init(&g, t, 0, 1);
	CU_ASSERT_EQUAL_FATAL(wr_frame_gen_next(&g, buf), 60);
	wr_frame_sig_write(t, buf, 60, WR_SIG_ID(5, 3), 0x123456789abcdeull,
			   0x456789abcdef0123ull);
	CU_ASSERT_EQUAL(memcmp(buf + 42, gold, sizeof(gold)), 0);
	CU_ASSERT_EQUAL(ref_check(buf, 60), 0);
	CU_ASSERT_EQUAL(wr_sig_decode_any(buf + 42, 18, &sig),
			WR_SIG_KIND_COMPACT);
	CU_ASSERT_EQUAL(sig.stream_id, WR_SIG_ID(5, 3));
	CU_ASSERT_EQUAL(sig.seq, 0x3456789abcdeull);
	CU_ASSERT_EQUAL(sig.tx_tsc, 0x89abcdef0123ull);
	/* Cut short: not a signature. */
	CU_ASSERT_EQUAL(wr_sig_decode_any(buf + 42, 17, &sig), -1);
	/* The full one is not read where a compact one is. */
	CU_ASSERT_EQUAL(wr_sig_decode(buf + 42, &sig), -1);

	/* Every frame: varying port, random ids, sequences and TSCs. */
	for (k = 0; k < 3000; k++) {
		uint16_t len = wr_frame_gen_next(&g, buf);
		uint32_t id = WR_SIG_ID(ref_rand(&st) & 0xff, ref_rand(&st) & 0xff);

		seq = k % 3 == 0 ? 0 : ref_rand(&st);
		tsc = k % 5 == 0 ? ~0ull : ref_rand(&st);
		CU_ASSERT_EQUAL_FATAL(len, 60);
		wr_frame_sig_write(t, buf, len, id, seq, tsc);
		CU_ASSERT_EQUAL_FATAL(ref_check(buf, len), 0);
		CU_ASSERT_EQUAL_FATAL(wr_sig_decode_any(buf + 42, len - 42, &sig),
				      WR_SIG_KIND_COMPACT);
		CU_ASSERT_EQUAL(sig.stream_id, id);
		/* Read against any value within 2^47 of the one sent. */
		CU_ASSERT_EQUAL(wr_sig_extend48(sig.seq, seq + (k & 1 ? 1000 : -1000ull)),
				seq);
		CU_ASSERT_EQUAL(wr_sig_extend48(sig.tx_tsc, tsc + (1ull << 46)), tsc);
		CU_ASSERT_EQUAL(wr_sig_extend48(sig.tx_tsc, tsc - (1ull << 47) + 1), tsc);
	}
	wr_frame_tmpl_free(t);

	/* The full one where it fits, the compact one below. */
	for (size = 64; size <= 72; size++) {
		s.size.fixed = (uint16_t)size;
		t = make(&s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), size >= 70 ?
				WR_SIG_KIND_FULL : WR_SIG_KIND_COMPACT);
		wr_frame_tmpl_free(t);
	}
	/* A size range takes the kind its smallest frame holds, for all. */
	s.size.mode = WR_SIZE_INC;
	s.size.from = 64;
	s.size.to = 1518;
	s.size.step = 1;
	t = make(&s);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), WR_SIG_KIND_COMPACT);
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < 200; k++) {
		uint16_t len = wr_frame_gen_next(&g, buf);

		wr_frame_sig_write(t, buf, len, WR_SIG_ID(1, 0), k, ref_rand(&st));
		CU_ASSERT_EQUAL_FATAL(ref_check(buf, len), 0);
	}
	wr_frame_tmpl_free(t);
	s.size.from = 70;
	t = make(&s);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), WR_SIG_KIND_FULL);
	wr_frame_tmpl_free(t);
	ref_free(&s);

	/* The wrap: 2^48 - 1 then 0 is one step forward. */
	CU_ASSERT_EQUAL(wr_sig_extend48(0, (1ull << 48) - 1), 1ull << 48);
	CU_ASSERT_EQUAL(wr_sig_extend48(WR_SIG_COMPACT_MASK, 1ull << 48),
			(1ull << 48) - 1);
	CU_ASSERT_EQUAL(wr_sig_extend48(5, 0), 5);
	CU_ASSERT_EQUAL(wr_sig_extend48(WR_SIG_COMPACT_MASK, 0), ~0ull);
}

/* Find the UDP source port that makes the computed checksum 0. */
static uint16_t
zero_csum_port(const struct wr_stream *base)
{
	struct wr_frame_tmpl *t;
	struct wr_stream s = *base;
	uint8_t f[60], ph[12];
	uint32_t sum;

	REF(&s, REF_UDP_SRC).value = 0;
	t = make(&s);
	memcpy(f, wr_frame_tmpl_bytes(t), 60);
	wr_frame_tmpl_free(t);
	f[40] = f[41] = 0;
	memcpy(ph, f + 26, 8);
	ph[8] = 0;
	ph[9] = 17;
	ph[10] = f[38];
	ph[11] = f[39];
	sum = ref_sum(f + 34, 26, ref_sum(ph, 12, 0));
	/* sum + port == 0xffff makes ~sum 0. */
	return (uint16_t)(0xffff - sum);
}

static void
test_udp_zero_is_ffff(void)
{
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct wr_stream s;
	uint64_t ports[2];
	uint8_t buf[60];
	uint16_t port;

	ref_stream(&s);
	port = zero_csum_port(&s);
	/* RFC 768: a computed 0 is sent as all ones, in the template ... */
	REF(&s, REF_UDP_SRC).value = port;
	t = make(&s);
	CU_ASSERT_EQUAL(wr_frame_tmpl_bytes(t)[40], 0xff);
	CU_ASSERT_EQUAL(wr_frame_tmpl_bytes(t)[41], 0xff);
	CU_ASSERT_EQUAL(ref_check(wr_frame_tmpl_bytes(t), 60), 0);
	wr_frame_tmpl_free(t);
	/* ... and per packet. */
	ports[0] = (uint16_t)(port + 1);
	ports[1] = port;
	ref_list(&s, REF_UDP_SRC, ports, 2);
	t = make(&s);
	memcpy(buf, wr_frame_tmpl_bytes(t), 60);
	wr_frame_gen_init(&g, t, 1, 1);
	wr_frame_gen_next(&g, buf);
	CU_ASSERT_EQUAL(ref_field(buf, REF_UDP_SRC), port);
	CU_ASSERT_EQUAL(buf[40], 0xff);
	CU_ASSERT_EQUAL(buf[41], 0xff);
	CU_ASSERT_EQUAL(ref_check(buf, 60), 0);
	wr_frame_tmpl_free(t);
	wr_stream_free(&s);
}

static void
test_sig_zero_is_ffff(void)
{
	struct wr_frame_tmpl *t;
	struct wr_stream s;
	uint8_t buf[70], ph[12];
	uint32_t sum;

	/* Pick seq's last word so that the signed frame sums to 0xffff. */
	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.latency = true;
	s.size.fixed = 74;
	t = make(&s);
	memcpy(buf, wr_frame_tmpl_bytes(t), 70);
	wr_frame_sig_write(t, buf, 70, 3, 0x1111222233330000ull, 0x42);
	buf[40] = buf[41] = 0;
	memcpy(ph, buf + 26, 8);
	ph[8] = 0;
	ph[9] = 17;
	ph[10] = buf[38];
	ph[11] = buf[39];
	sum = ref_sum(buf + 34, 36, ref_sum(ph, 12, 0));
	memcpy(buf, wr_frame_tmpl_bytes(t), 70);
	wr_frame_sig_write(t, buf, 70, 3,
			   0x1111222233330000ull | (uint16_t)(0xffff - sum), 0x42);
	CU_ASSERT_EQUAL(buf[40], 0xff);
	CU_ASSERT_EQUAL(buf[41], 0xff);
	CU_ASSERT_EQUAL(ref_check(buf, 70), 0);
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

/* The stream at line 12 (its layers too, as the loader marks them) does
 * not build, and the error names @p path_sub. */
static void
expect_einval(struct wr_stream *s, const char *path_sub)
{
	struct wr_frame_tmpl *t = (void *)1;
	struct wr_error err;
	uint32_t i;

	s->mark.line = 12;
	s->mark.col = 3;
	for (i = 0; i < s->n_layers; i++)
		s->layers[i].mark = s->mark;
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_frame_tmpl_create(s, 0, &t, &err), -EINVAL);
	CU_ASSERT_PTR_NULL(t);
	CU_ASSERT_NOT_EQUAL(err.msg[0], '\0');
	CU_ASSERT_PTR_NOT_NULL(strstr(err.path, path_sub));
	CU_ASSERT_EQUAL(err.line, 12);
}

static void
test_errors(void)
{
	struct wr_frame_tmpl *t;
	struct wr_stream s;

	ref_stream(&s);
	s.latency = true;
	ref_vlan(&s); /* 46 + 18 (compact signature) + FCS = 68 is the smallest */
	s.size.fixed = 67;
	expect_einval(&s, "size");
	s.size.fixed = 68;
	CU_ASSERT_EQUAL(wr_frame_tmpl_create(&s, 0, &t, NULL), 0);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), WR_SIG_KIND_COMPACT);
	wr_frame_tmpl_free(t);
	s.size.fixed = 73;
	CU_ASSERT_EQUAL(wr_frame_tmpl_create(&s, 0, &t, NULL), 0);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), WR_SIG_KIND_COMPACT);
	wr_frame_tmpl_free(t);
	s.size.fixed = 74; /* 46 + 24 + FCS: the full one fits */
	CU_ASSERT_EQUAL(wr_frame_tmpl_create(&s, 0, &t, NULL), 0);
	CU_ASSERT_EQUAL(wr_frame_tmpl_sig_kind(t), WR_SIG_KIND_FULL);
	wr_frame_tmpl_free(t);
	wr_stream_free(&s);

	ref_stream(&s);
	s.size.fixed = 9019;
	expect_einval(&s, "size");
	s.size.fixed = 63;
	expect_einval(&s, "size");
	wr_stream_free(&s);

	ref_stream(&s);
	ref_vlan(&s);
	REF(&s, REF_VLAN_ID).value = 4096;
	expect_einval(&s, "vlan.id");
	wr_stream_free(&s);

	ref_stream(&s);
	ref_inc(&s, REF_IPV4_ID, 1, 5, 0);
	expect_einval(&s, "ipv4.id");
	wr_stream_free(&s);

	ref_stream(&s);
	ref_random(&s, REF_IPV4_DSCP, 0, 64);
	expect_einval(&s, "ipv4.dscp");
	wr_stream_free(&s);

	ref_stream(&s);
	s.size.mode = WR_SIZE_MIX;
	s.size.n_mix = 0;
	expect_einval(&s, "size");
	wr_stream_free(&s);
}

/* ---- pcap dump ---- */

static char tmpdir[64];

static int
dump_setup(void)
{
	strcpy(tmpdir, "/tmp/wr_test_dump.XXXXXX");
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
dump_cleanup(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	char p[512];

	if (d != NULL) {
		while ((e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", tmpdir, e->d_name);
			if (unlink(p) != 0)
				rmdir(p);
		}
		closedir(d);
	}
	return rmdir(tmpdir);
}

static unsigned int
dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned int n = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void
two_streams(struct wr_stream_file *f)
{
	memset(f, 0, sizeof(*f));
	strcpy(f->path, "test.yaml");
	f->n_streams = 2;
	f->streams = calloc(2, sizeof(*f->streams));
	ref_stream(&f->streams[0]);
	ref_inc(&f->streams[0], REF_UDP_SRC, 1000, 1009, 1);
	f->streams[0].size.mode = WR_SIZE_INC;
	f->streams[0].size.from = 64;
	f->streams[0].size.to = 128;
	f->streams[0].size.step = 16;
	ref_stream(&f->streams[1]);
	f->streams[1].latency = true;
	f->streams[1].size.fixed = 100;
	ref_vlan(&f->streams[1]);
	ref_random(&f->streams[1], REF_IPV4_DST, 1, 1000);
}

/* Frames of stream @p s (index @p id), indices 0..count-1, as lane 0 of a
 * TX loop would build them. */
static void
expect_frames(pcap_t *p, const struct wr_stream *s, uint32_t id, unsigned int count)
{
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct pcap_pkthdr *h;
	const u_char *data;
	uint8_t buf[WR_FRAME_MAX];
	unsigned int k;

	t = make(s);
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < count; k++) {
		uint16_t len = wr_frame_gen_next(&g, buf);

		if (s->latency)
			wr_frame_sig_write(t, buf, len, WR_SIG_ID(id, 0), k, 0);
		CU_ASSERT_EQUAL_FATAL(pcap_next_ex(p, &h, &data), 1);
		CU_ASSERT_EQUAL(h->caplen, len);
		CU_ASSERT_EQUAL(h->len, len);
		CU_ASSERT_EQUAL(memcmp(data, buf, len), 0);
		CU_ASSERT_EQUAL(ref_check(data, h->caplen), 0);
	}
	wr_frame_tmpl_free(t);
}

static void
test_dump_roundtrip(void)
{
	char path[128], errbuf[PCAP_ERRBUF_SIZE];
	struct wr_stream_file f;
	struct pcap_pkthdr *h;
	const u_char *data;
	struct wr_error err;
	pcap_t *p;

	two_streams(&f);
	snprintf(path, sizeof(path), "%s/one.pcap", tmpdir);
	CU_ASSERT_EQUAL_FATAL(wr_frame_dump_pcap(&f, 0, 25, path, &err), 0);
	p = pcap_open_offline(path, errbuf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(pcap_datalink(p), DLT_EN10MB);
	expect_frames(p, &f.streams[0], 0, 25);
	CU_ASSERT_EQUAL(pcap_next_ex(p, &h, &data), PCAP_ERROR_BREAK);
	pcap_close(p);

	/* All streams, stream after stream. */
	snprintf(path, sizeof(path), "%s/all.pcap", tmpdir);
	CU_ASSERT_EQUAL_FATAL(wr_frame_dump_pcap(&f, -1, 17, path, &err), 0);
	p = pcap_open_offline(path, errbuf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	expect_frames(p, &f.streams[0], 0, 17);
	expect_frames(p, &f.streams[1], 1, 17);
	CU_ASSERT_EQUAL(pcap_next_ex(p, &h, &data), PCAP_ERROR_BREAK);
	pcap_close(p);
	CU_ASSERT_EQUAL(dir_entries(tmpdir), 2); /* no temporary left */

	CU_ASSERT_EQUAL(wr_frame_dump_pcap(&f, 2, 1, path, &err), -EINVAL);
	wr_stream_file_free(&f);
}

static void
test_dump_failure(void)
{
	char path[160], sub[128];
	struct wr_stream_file f;
	unsigned int base = dir_entries(tmpdir);
	struct wr_error err;
	int fd;

	two_streams(&f);
	/* A directory that does not exist. */
	snprintf(path, sizeof(path), "%s/missing/x.pcap", tmpdir);
	CU_ASSERT_EQUAL(wr_frame_dump_pcap(&f, 0, 5, path, &err), -EIO);
	CU_ASSERT_NOT_EQUAL(err.msg[0], '\0');
	/* A parent that is a file. */
	snprintf(sub, sizeof(sub), "%s/file", tmpdir);
	fd = open(sub, O_CREAT | O_WRONLY, 0644);
	CU_ASSERT_TRUE_FATAL(fd >= 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/x.pcap", sub);
	CU_ASSERT_EQUAL(wr_frame_dump_pcap(&f, 0, 5, path, &err), -EIO);
	/* The target is a directory: written, then the rename fails, and
	 * the temporary file must be gone. */
	snprintf(sub, sizeof(sub), "%s/adir", tmpdir);
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0755), 0);
	CU_ASSERT_EQUAL(wr_frame_dump_pcap(&f, -1, 5, sub, &err), -EIO);
	CU_ASSERT_EQUAL(dir_entries(tmpdir), base + 2); /* file and adir */
	CU_ASSERT_EQUAL(dir_entries(sub), 0);
	/* A stream that cannot be built: no file either. */
	f.streams[1].size.fixed = 64; /* too small for the signature */
	snprintf(path, sizeof(path), "%s/bad.pcap", tmpdir);
	CU_ASSERT_EQUAL(wr_frame_dump_pcap(&f, -1, 5, path, &err), -EINVAL);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	CU_ASSERT_EQUAL(dir_entries(tmpdir), base + 2);
	unlink(sub);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/file", tmpdir);
	unlink(sub);
	wr_stream_file_free(&f);
}


/* SCTP's CRC32c of the packet at @p sctp (@p len bytes) is right. */
static bool
sctp_ok(const uint8_t *sctp, size_t len)
{
	uint8_t b[WR_FRAME_MAX];
	uint32_t want;

	memcpy(b, sctp, len);
	memset(b + 8, 0, 4);
	want = ref_crc32c(b, len);
	return sctp[8] == (uint8_t)want && sctp[9] == (uint8_t)(want >> 8) &&
	       sctp[10] == (uint8_t)(want >> 16) && sctp[11] == (uint8_t)(want >> 24);
}

/* The UDP checksum over IPv6 of the datagram at @p udp is right. */
static bool
udp6_ok(const uint8_t *ip6, const uint8_t *udp, unsigned int ulen)
{
	uint8_t ph[40];
	uint32_t sum;

	memcpy(ph, ip6 + 8, 32);
	memset(ph + 32, 0, 8);
	ph[34] = (uint8_t)(ulen >> 8);
	ph[35] = (uint8_t)ulen;
	ph[39] = 17;
	sum = ref_sum(ph, 40, 0);
	return ref_sum(udp, ulen, sum) == 0xffff;
}

/*
 * SCTP's CRC32c (computed once per frame) on every frame: with a varying
 * port and sizes, of one size (the constant tail by its shift map), with a
 * signature written after the frame, and nested in an outer UDP checksum
 * (VXLAN over IPv6), through the frame-by-frame and the burst generators
 * alike.
 */
static void
test_sctp_crc(void)
{
	static const char text[] =
		"version: 1\n"
		"streams:\n"
		"  - name: plain\n"
		"    size: {inc: {from: 80, to: 333, step: 3}}\n"
		"    stack: [eth, ipv4, {sctp: {src: {inc: {from: 1, to: 7}}}}, sctp_data]\n"
		"  - name: latency\n"
		"    size: {random: {min: 100, max: 200}}\n"
		"    latency: true\n"
		"    stack: [eth, ipv4, {sctp: {dst: {random: {min: 1, max: 65535}}}}, sctp_data]\n"
		"  - name: tunnel\n"
		"    size: 170\n"
		"    latency: loss\n"
		"    stack: [eth, ipv6, udp, vxlan, eth, ipv4, {sctp: {src: {inc: {from: 9, to: 99}}}}, sctp_data]\n"
		"  - name: one-size\n"
		"    size: 1000\n"
		"    payload: inc\n"
		"    stack: [eth, ipv4, {sctp: {src: {inc: {from: 1, to: 7}}}}, {sctp_data: {tsn: {random: {min: 0, max: 4294967295}}}}]\n"
		"  - name: one-size-latency\n"
		"    size: 600\n"
		"    payload: {pattern: \"c0ffee\"}\n"
		"    latency: true\n"
		"    stack: [eth, ipv6, udp, vxlan, eth, ipv4, {sctp: {dst: {inc: {from: 9, to: 99}}}}, sctp_data]\n"
		"  - name: tunnel-sizes\n"
		"    size: {inc: {from: 140, to: 200}}\n"
		"    stack: [eth, ipv6, udp, vxlan, eth, ipv4, {sctp: {src: {inc: {from: 9, to: 99}}}}, sctp_data]\n"
		/* One's-complement inside one's-complement: the outer UDP
		 * takes the inner regions as their known totals. */
		"  - name: geneve-udp\n"
		"    size: {inc: {from: 130, to: 300, step: 7}}\n"
		"    latency: true\n"
		"    payload: inc\n"
		"    stack: [eth, {ipv4: {ttl: {inc: {from: 1, to: 9}}}}, {udp: {src: {random: {min: 1, max: 65535}}}},\n"
		"            {geneve: {vni: {inc: {from: 1, to: 5}}}}, {eth: {src: {inc: {from: 02:00:00:00:00:01, to: 02:00:00:00:00:03}}}},\n"
		"            {ipv4: {src: {inc: {from: 10.0.0.1, to: 10.0.0.99}}, id: {random: {min: 0, max: 65535}}}},\n"
		"            {udp: {dst: {list: [1, 2, 3]}}}]\n"
		"  - name: vxlan6-udp\n"
		"    size: 400\n"
		"    stack: [eth, ipv6, udp, vxlan, eth, {ipv4: {dst: {random: {min: 10.0.0.1, max: 10.0.39.15}}}},\n"
		"            {udp: {src: {inc: {from: 1, to: 77}}}}]\n";
	static uint8_t bufs[8][WR_FRAME_MAX];
	const struct wr_proto *proto[WR_LAYERS_MAX];
	uint16_t off[WR_LAYERS_MAX], lens[8];
	struct wr_stream_file f;
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct wr_error err;
	uint8_t *ptrs[8];
	uint32_t s, n, k, sc, ip6, in_eth;
	bool sctp, v6;

	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("t.yaml", text, strlen(text), &f,
						       &err), 0);
	for (s = 0; s < f.n_streams; s++) {
		CU_ASSERT_EQUAL_FATAL(wr_frame_tmpl_create(&f.streams[s], s, &t, &err), 0);
		n = wr_frame_tmpl_layers(t, proto, off);
		sctp = strcmp(proto[n - 1]->name, "sctp_data") == 0;
		v6 = strcmp(proto[1]->name, "ipv6") == 0;
		sc = off[n - 2];
		ip6 = off[1];
		in_eth = off[4];
		CU_ASSERT_TRUE(!sctp || sctp_ok(wr_frame_tmpl_bytes(t) + sc,
						wr_frame_tmpl_max_len(t) - sc) ||
			       f.streams[s].latency);
		for (k = 0; k < 8; k++) {
			memcpy(bufs[k], wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
			ptrs[k] = bufs[k];
		}
		wr_frame_gen_init(&g, t, 0, 1);
		for (n = 0; n < 40; n++) {
			if (n % 2 == 0) {
				for (k = 0; k < 8; k++)
					lens[k] = wr_frame_gen_next(&g, ptrs[k]);
			} else {
				wr_frame_gen_burst(&g, ptrs, lens, 8);
			}
			for (k = 0; k < 8; k++) {
				wr_frame_sig_write(t, ptrs[k], lens[k], s, n * 8 + k, 77);
				if (sctp)
					CU_ASSERT_TRUE_FATAL(sctp_ok(ptrs[k] + sc, lens[k] - sc));
				if (v6 && n > 5)
					CU_ASSERT_TRUE_FATAL(udp6_ok(ptrs[k] + ip6, ptrs[k] + ip6 + 40,
								     lens[k] - ip6 - 40u));
				/* IPv4/UDP outside, then inside: every checksum. */
				if (!v6 && !sctp)
					CU_ASSERT_EQUAL_FATAL(ref_check(ptrs[k], lens[k]), 0);
				if (!sctp && n > 5)
					CU_ASSERT_EQUAL_FATAL(ref_check(ptrs[k] + in_eth,
									lens[k] - in_eth), 0);
			}
		}
		wr_frame_tmpl_free(t);
	}
	wr_stream_file_free(&f);
}

static CU_TestInfo frame_tests[] = {
	{ "sctp_crc", test_sctp_crc },
	{ "gold_plain", test_gold_plain },
	{ "gold_vlan_pattern", test_gold_vlan_pattern },
	{ "gold_string", test_gold_string },
	{ "gold_inc", test_gold_inc },
	{ "gold_latency", test_gold_latency },
	{ "lengths", test_lengths },
	{ "static", test_static },
	{ "sig_write", test_sig_write },
	{ "sig_short", test_sig_short },
	{ "sig_compact", test_sig_compact },
	{ "udp_zero_is_ffff", test_udp_zero_is_ffff },
	{ "sig_zero_is_ffff", test_sig_zero_is_ffff },
	{ "errors", test_errors },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo dump_tests[] = {
	{ "roundtrip", test_dump_roundtrip },
	{ "failure", test_dump_failure },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "frame", .pTests = frame_tests },
	{ .pName = "dump", .pInitFunc = dump_setup,
	  .pCleanupFunc = dump_cleanup, .pTests = dump_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

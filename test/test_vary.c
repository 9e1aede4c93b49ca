/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of per-packet variation: field modes, combine, sizes, strides, RNG (wr_frame). */
#include <dirent.h>

#include "wr_proto.h"
#include "wr_rng.h"
#include "wr_sig.h"
#include "wr_test.h"
#include "wr_test_frame.h"
#include "wr_yaml.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static struct wr_frame_tmpl *
make(const struct wr_stream *s)
{
	struct wr_frame_tmpl *t = NULL;
	struct wr_error err;

	if (wr_frame_tmpl_create(s, 0, &t, &err) != 0)
		fprintf(stderr, "tmpl_create: %s: %s\n", err.path, err.msg);
	return t;
}

/*
 * A cursor and its own buffer (seeded with the template), the way a TX
 * lcore uses them; every frame is also checked by full recomputation.
 */
struct cur {
	struct wr_frame_gen g;
	uint8_t buf[WR_FRAME_MAX];
	uint16_t len;
};

static void
cur_init(struct cur *c, const struct wr_frame_tmpl *t, uint64_t first,
	 uint32_t stride)
{
	memcpy(c->buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&c->g, t, first, stride);
}

/* ref_check knows Ethernet / [802.1Q] / IPv4 / UDP only (tshark checks
 * every other stack: test/frames). */
static bool
ref_knows(const struct wr_frame_tmpl *t)
{
	const struct wr_proto *p[WR_LAYERS_MAX];
	uint32_t n = wr_frame_tmpl_layers(t, p, NULL), i = 1;
	bool ok = strcmp(p[0]->name, "eth") == 0;

	if (n == 4)
		ok &= strcmp(p[i++]->name, "vlan") == 0;
	ok &= n >= 3 && n <= 4 && strcmp(p[i]->name, "ipv4") == 0 &&
	      strcmp(p[i + 1]->name, "udp") == 0;
	return ok;
}

static const uint8_t *
cur_next(struct cur *c)
{
	static const uint8_t zero[WR_SIG_LEN];
	uint16_t sig = wr_frame_tmpl_sig_off(c->g.t);

	c->len = wr_frame_gen_next(&c->g, c->buf);
	/* A latency frame is complete only once its signature is written:
	 * until then its UDP checksum covers a zero signature area. */
	if ((sig == 0 || memcmp(c->buf + sig, zero, WR_SIG_LEN) == 0) &&
	    ref_knows(c->g.t))
		CU_ASSERT_EQUAL(ref_check(c->buf, c->len), 0);
	return c->buf;
}

/* Check the first n values of field id against want[] (cyclic). */
static void
expect_seq(const struct wr_stream *s, enum ref_id id,
	   const uint64_t *want, unsigned int n_want, unsigned int n)
{
	struct wr_frame_tmpl *t = make(s);
	static struct cur c;
	unsigned int k;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	CU_ASSERT_EQUAL(ref_field(wr_frame_tmpl_bytes(t), id), want[0]);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < n; k++) {
		uint64_t v = ref_field(cur_next(&c), id);

		CU_ASSERT_EQUAL(v, want[k % n_want]);
		if (v != want[k % n_want])
			fprintf(stderr, "%s frame %u: %llu, want %llu\n",
				ref_key[id], k, (unsigned long long)v,
				(unsigned long long)want[k % n_want]);
	}
	wr_frame_tmpl_free(t);
}

static void
test_inc_wrap(void)
{
	static const uint64_t want[] = { 10, 13, 16, 19 };
	static const uint64_t mac[] = { 0xfffffffffffe, 0xffffffffffff };
	static const uint64_t mac2[] = { 0x0000000000fe, 0x0000000000ff,
					 0x000000000100, 0x000000000101 };
	struct wr_stream s;

	/* Step 3 does not divide 20 - 10: 19 is the last value. */
	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	ref_inc(&s, REF_IPV4_ID, 10, 20, 3);
	expect_seq(&s, REF_IPV4_ID, want, NELEM(want), 13);
	/* 48-bit MACs, all six bytes, up to the top of the range. */
	ref_free(&s);
	ref_stream(&s);
	ref_inc(&s, REF_ETH_SRC, 0xfffffffffffe, 0xffffffffffff, 1);
	expect_seq(&s, REF_ETH_SRC, mac, NELEM(mac), 5);
	ref_free(&s);
	ref_stream(&s);
	ref_inc(&s, REF_ETH_DST, 0xfe, 0x101, 1);
	expect_seq(&s, REF_ETH_DST, mac2, NELEM(mac2), 9);
	ref_free(&s);
}

static void
test_dec_wrap(void)
{
	static const uint64_t ttl[] = { 64, 62, 60 };
	static const uint64_t ip[] = { 0x0a000005, 0x0a000002 };
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	ref_inc(&s, REF_IPV4_TTL, 64, 59, 2);
	CU_ASSERT_EQUAL(REF(&s, REF_IPV4_TTL).mode, WR_VARY_DEC);
	expect_seq(&s, REF_IPV4_TTL, ttl, NELEM(ttl), 10);
	ref_free(&s);
	ref_stream(&s);
	ref_inc(&s, REF_IPV4_SRC, 0x0a000005, 0x0a000001, 3);
	expect_seq(&s, REF_IPV4_SRC, ip, NELEM(ip), 7);
	ref_free(&s);
}

static void
test_list_order(void)
{
	static const uint64_t ports[] = { 53, 80, 443, 80 };
	static const uint64_t dscp[] = { 46, 0, 10, 63 };
	struct wr_stream s;

	ref_stream(&s);
	ref_list(&s, REF_UDP_DST, ports, NELEM(ports));
	expect_seq(&s, REF_UDP_DST, ports, NELEM(ports), 11);
	wr_stream_free(&s);
	/* DSCP shares its byte with ECN, which must survive. */
	ref_stream(&s);
	REF_KEY(&s, "ipv4.ecn").value = 2;
	ref_list(&s, REF_IPV4_DSCP, dscp, NELEM(dscp));
	expect_seq(&s, REF_IPV4_DSCP, dscp, NELEM(dscp), 9);
	{
		struct wr_frame_tmpl *t = make(&s);
		static struct cur c;
		unsigned int k;

		cur_init(&c, t, 0, 1);
		for (k = 0; k < 8; k++)
			CU_ASSERT_EQUAL(cur_next(&c)[15] & 3, 2);
		wr_frame_tmpl_free(t);
	}
	wr_stream_free(&s);
}

static void
test_vlan_tci(void)
{
	static const uint64_t ids[] = { 1, 4095, 100 };
	static const uint64_t pcps[] = { 7, 0, 3, 5 };
	struct wr_frame_tmpl *t;
	static struct cur c;
	struct wr_stream s;
	unsigned int k;

	/* id and pcp share the TCI, both varying, in both combine modes. */
	ref_stream(&s);
	ref_vlan(&s);
	ref_list(&s, REF_VLAN_ID, ids, NELEM(ids));
	ref_list(&s, REF_VLAN_PCP, pcps, NELEM(pcps));
	t = make(&s);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 30; k++) {
		const uint8_t *f = cur_next(&c);

		CU_ASSERT_EQUAL(ref_field(f, REF_VLAN_ID), ids[k % 3]);
		CU_ASSERT_EQUAL(ref_field(f, REF_VLAN_PCP), pcps[k % 4]);
		CU_ASSERT_EQUAL(f[14] & 0x10, 0); /* DEI */
		CU_ASSERT_EQUAL(f[12] << 8 | f[13], 0x8100);
	}
	wr_frame_tmpl_free(t);
	s.combine = WR_COMBINE_PRODUCT;
	t = make(&s);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 30; k++) {
		const uint8_t *f = cur_next(&c);

		CU_ASSERT_EQUAL(ref_field(f, REF_VLAN_ID), ids[k % 3]);
		CU_ASSERT_EQUAL(ref_field(f, REF_VLAN_PCP),
				pcps[(k / 3) % 4]);
	}
	wr_frame_tmpl_free(t);
	wr_stream_free(&s);
}

static void
test_random_fields(void)
{
	struct wr_frame_tmpl *t, *t2, *t3;
	static struct cur a, b, c;
	unsigned int seen[8] = { 0 }, k, same = 0, i;
	struct wr_stream s;
	double chi = 0;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	ref_random(&s, REF_UDP_SRC, 1000, 1999);
	ref_random(&s, REF_IPV4_TTL, 100, 107);
	ref_random(&s, REF_ETH_SRC, 0x020000000000, 0x02ffffffffff);
	t = make(&s);
	t2 = make(&s);
	s.seed = 2;
	t3 = make(&s);
	cur_init(&a, t, 0, 1);
	cur_init(&b, t2, 0, 1);
	cur_init(&c, t3, 0, 1);
	for (k = 0; k < 8000; k++) {
		const uint8_t *fa = cur_next(&a), *fb = cur_next(&b),
			      *fc = cur_next(&c);
		uint64_t sp = ref_field(fa, REF_UDP_SRC),
			 ttl = ref_field(fa, REF_IPV4_TTL),
			 mac = ref_field(fa, REF_ETH_SRC);

		CU_ASSERT_TRUE(sp >= 1000 && sp <= 1999);
		CU_ASSERT_TRUE(ttl >= 100 && ttl <= 107);
		CU_ASSERT_TRUE(mac >= 0x020000000000 && mac <= 0x02ffffffffff);
		if (ttl >= 100 && ttl <= 107)
			seen[ttl - 100]++;
		/* Same seed: same frames. */
		CU_ASSERT_EQUAL_FATAL(memcmp(fa, fb, a.len), 0);
		if (ref_field(fc, REF_UDP_SRC) == sp)
			same++;
	}
	/* Another seed: another sequence (equal by chance 1 in 1000). */
	CU_ASSERT_TRUE(same < 40);
	/* 8 TTL values over 8000 draws: chi-square with 7 degrees of
	 * freedom, 24.3 is its 0.999 quantile. */
	for (i = 0; i < 8; i++)
		chi += (seen[i] - 1000.0) * (seen[i] - 1000.0) / 1000.0;
	CU_ASSERT_TRUE(chi < 24.3);
	wr_frame_tmpl_free(t);
	wr_frame_tmpl_free(t2);
	wr_frame_tmpl_free(t3);
	ref_free(&s);
}

static void
test_rng_pinned(void)
{
	static const uint64_t sport[] = { 1834, 1670, 1843, 1166, 1836, 1386 };
	static const uint16_t size[] = { 1325, 299, 890, 1353, 1138, 286 };
	struct wr_frame_tmpl *t;
	static struct cur c;
	struct wr_stream s;
	unsigned int k;

	/* SplitMix64's published first outputs for state 1234567. */
	CU_ASSERT_EQUAL(wr_rng_at(1234567, 0), 6457827717110365317ull);
	CU_ASSERT_EQUAL(wr_rng_at(1234567, 1), 3203168211198807973ull);
	CU_ASSERT_EQUAL(wr_rng_at(1234567, 2), 9817491932198370423ull);
	/* The reproducibility contract: these values, computed by an
	 * independent Python implementation of wr_rng.h, must never change. */
	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	ref_random(&s, REF_UDP_SRC, 1000, 1999);
	t = make(&s);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < NELEM(sport); k++)
		CU_ASSERT_EQUAL(ref_field(cur_next(&c), REF_UDP_SRC), sport[k]);
	wr_frame_tmpl_free(t);
	ref_free(&s);
	ref_stream(&s);
	s.seed = 42;
	s.size.mode = WR_SIZE_RANDOM;
	s.size.from = 64;
	s.size.to = 1518;
	t = make(&s);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < NELEM(size); k++) {
		cur_next(&c);
		CU_ASSERT_EQUAL(c.len + 4, size[k]);
		CU_ASSERT_EQUAL(wr_frame_size_at(t, k), size[k]);
	}
	wr_frame_tmpl_free(t);
	/* Lemire's mapping is exact: range 3 from every 2-bit-ish draw. */
	CU_ASSERT_EQUAL(wr_rng_threshold(3), (0 - 3ull) % 3);
	CU_ASSERT_EQUAL(wr_rng_below(0, 3, wr_rng_threshold(3)) < 3, 1);
	CU_ASSERT_EQUAL(wr_rng_below(UINT64_MAX, 3, wr_rng_threshold(3)), 2);
	CU_ASSERT_EQUAL(wr_rng_below(UINT64_MAX, 1, 0), 0);
	ref_free(&s);
}

static void
test_together_product(void)
{
	static const uint64_t src[] = { 1, 2 }, dst[] = { 10, 20, 30 };
	static const uint64_t tog[][2] = { { 1, 10 }, { 2, 20 }, { 1, 30 },
					   { 2, 10 }, { 1, 20 }, { 2, 30 } };
	static const uint64_t prod[][2] = { { 1, 10 }, { 2, 10 }, { 1, 20 },
					    { 2, 20 }, { 1, 30 }, { 2, 30 } };
	struct wr_frame_tmpl *t;
	static struct cur c;
	struct wr_stream s;
	unsigned int k;

	ref_stream(&s);
	ref_list(&s, REF_UDP_DST, dst, 3);
	ref_list(&s, REF_UDP_SRC, src, 2);
	ref_random(&s, REF_IPV4_ID, 0, 65535);
	t = make(&s);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 14; k++) {
		const uint8_t *f = cur_next(&c);

		CU_ASSERT_EQUAL(ref_field(f, REF_UDP_SRC), tog[k % 6][0]);
		CU_ASSERT_EQUAL(ref_field(f, REF_UDP_DST), tog[k % 6][1]);
	}
	wr_frame_tmpl_free(t);
	/* PRODUCT: the first in stack order (udp.src) runs fastest,
	 * whatever order the fields were set in; the random field does not
	 * take part in the odometer. */
	s.combine = WR_COMBINE_PRODUCT;
	t = make(&s);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 14; k++) {
		const uint8_t *f = cur_next(&c);

		CU_ASSERT_EQUAL(ref_field(f, REF_UDP_SRC), prod[k % 6][0]);
		CU_ASSERT_EQUAL(ref_field(f, REF_UDP_DST), prod[k % 6][1]);
	}
	wr_frame_tmpl_free(t);
	wr_stream_free(&s);
}

/* ---- an independent model of the sequenced fields ---- */

static uint64_t
model_value(const struct wr_field_spec *fs, uint64_t d)
{
	switch (fs->mode) {
	case WR_VARY_INC:
		return fs->from + d * fs->step;
	case WR_VARY_DEC:
		return fs->from - d * fs->step;
	case WR_VARY_LIST:
		return fs->list[d];
	default:
		return fs->value;
	}
}

/* Check every sequenced field of frame f against packet index k. */
static void
model_check(const struct wr_stream *s, const uint8_t *f, uint64_t k)
{
	unsigned __int128 q = k; /* the mixed-radix quotient */
	unsigned int id;

	for (id = 0; id < REF__COUNT; id++) {
		const struct wr_field_spec *fs = wr_stream_field(s, ref_key[id]);
		uint64_t p, d;

		if (fs == NULL) /* vlan.* of an untagged stream */
			continue;
		p = wr_field_period(fs);
		if (fs->mode == WR_VARY_RANDOM) {
			uint64_t v = ref_field(f, id);

			CU_ASSERT_TRUE(v >= fs->from && v <= fs->to);
			continue;
		}
		if (fs->mode == WR_VARY_FIXED || p <= 1) {
			d = 0;
		} else if (s->combine == WR_COMBINE_PRODUCT) {
			d = (uint64_t)(q % p);
			q /= p;
		} else {
			d = k % p;
		}
		CU_ASSERT_EQUAL_FATAL(ref_field(f, id), model_value(fs, d));
	}
}

/* A random stream: every field random-moded, sizes random-moded. */
static void
rand_stream(struct wr_stream *s, uint64_t *st, bool small_periods)
{
	unsigned int id;

	ref_stream(s);
	s->seed = ref_rand(st);
	if (ref_rand(st) & 1)
		ref_vlan(s);
	REF_KEY(s, "ipv4.df").value = ref_rand(st) & 1;
	REF_KEY(s, "ipv4.ecn").value = ref_rand(st) & 3;
	s->combine = ref_rand(st) & 1 ? WR_COMBINE_PRODUCT : WR_COMBINE_TOGETHER;
	s->payload.kind = (enum wr_payload_kind)(ref_rand(st) % WR_PAYLOAD__COUNT);
	if (s->payload.kind == WR_PAYLOAD_PATTERN ||
	    s->payload.kind == WR_PAYLOAD_STRING) {
		s->payload.len = 1 + ref_rand(st) % 13;
		s->payload.bytes = malloc(s->payload.len);
		for (id = 0; id < s->payload.len; id++)
			s->payload.bytes[id] = (uint8_t)ref_rand(st);
	}
	for (id = 0; id < REF__COUNT; id++) {
		struct wr_field_spec *fs = ref_spec(s, (enum ref_id)id);
		unsigned int bits = ref_bits[id];
		uint64_t max = (1ull << bits) - 1, a, b, lim, span;
		uint64_t v[5];
		unsigned int n, i;

		if (fs == NULL) /* vlan.* of an untagged stream */
			continue;
		a = ref_rand(st) & max;
		b = ref_rand(st) & max;
		lim = small_periods ? 5 : max;
		fs->value = a;
		switch (ref_rand(st) % 6) {
		case 0:
		case 1:
			break; /* FIXED */
		case 2:
			span = ref_rand(st) % (lim * 3 + 1);
			b = span <= max - a ? a + span : max;
			ref_inc(s, id, a, b, 1 + ref_rand(st) % 3);
			break;
		case 3:
			span = ref_rand(st) % (lim * 3 + 1);
			b = a >= span ? a - span : 0;
			ref_inc(s, id, a, b, 1 + ref_rand(st) % 3);
			fs->mode = WR_VARY_DEC;
			break;
		case 4:
			ref_random(s, id, a < b ? a : b, a < b ? b : a);
			break;
		default:
			n = 1 + (unsigned int)(ref_rand(st) % 5);
			for (i = 0; i < n; i++)
				v[i] = ref_rand(st) & max;
			ref_list(s, id, v, n);
			break;
		}
	}
	switch (ref_rand(st) % 4) {
	case 0:
		s->size.mode = WR_SIZE_FIXED;
		s->size.fixed = (uint16_t)(80 + ref_rand(st) % 1439);
		break;
	case 1:
		s->size.mode = WR_SIZE_INC;
		s->size.from = (uint16_t)(78 + ref_rand(st) % 100);
		s->size.to = (uint16_t)(s->size.from + ref_rand(st) % 1400);
		s->size.step = (uint16_t)(1 + ref_rand(st) % 37);
		break;
	case 2:
		s->size.mode = WR_SIZE_RANDOM;
		s->size.from = (uint16_t)(78 + ref_rand(st) % 100);
		s->size.to = (uint16_t)(s->size.from + ref_rand(st) % 9000 % (WR_FRAME_MAX - s->size.from + 1));
		break;
	default:
		s->size.mode = WR_SIZE_MIX;
		s->size.n_mix = 1 + ref_rand(st) % 4;
		s->size.mix = calloc(s->size.n_mix, sizeof(*s->size.mix));
		for (id = 0; id < s->size.n_mix; id++) {
			s->size.mix[id].size = (uint16_t)(78 + ref_rand(st) % 1441);
			s->size.mix[id].weight = 1 + ref_rand(st) % 9;
		}
		break;
	}
	s->latency = ref_rand(st) % 3 == 0;
}

static void
test_random_streams_model(void)
{
	uint64_t st = 0xfeedf00d;
	static struct cur c;
	unsigned int n, k;

	/* Thousands of frames of random streams: lengths, both checksums
	 * (full recomputation), and every sequenced field against the
	 * model, at indices 0.. and far away (random access). */
	for (n = 0; n < 60; n++) {
		struct wr_frame_tmpl *t;
		struct wr_stream s;
		uint64_t first;

		rand_stream(&s, &st, n % 2 == 0);
		t = make(&s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		first = n % 3 == 0 ? 0 : ref_rand(&st) >> (n % 40);
		cur_init(&c, t, first, 1);
		for (k = 0; k < 300; k++) {
			const uint8_t *f = cur_next(&c);

			CU_ASSERT_EQUAL_FATAL(c.len + 4u,
					      wr_frame_size_at(t, first + k));
			CU_ASSERT_TRUE(c.len <= wr_frame_tmpl_max_len(t));
			model_check(&s, f, first + k);
			if (s.latency) {
				wr_frame_sig_write(t, c.buf, c.len, n, k, ~k);
				CU_ASSERT_EQUAL_FATAL(ref_check(c.buf, c.len), 0);
			}
		}
		if (first == 0 && !s.latency && s.size.mode == WR_SIZE_FIXED) {
			/* No signature, fixed size: frame 0 is the template. */
			cur_init(&c, t, 0, 1);
			cur_next(&c);
			CU_ASSERT_EQUAL(memcmp(c.buf, wr_frame_tmpl_bytes(t), c.len), 0);
		}
		wr_frame_tmpl_free(t);
		wr_stream_free(&s);
	}
}

/* ---- stride equivalence ---- */

/* K lcores interleaved == one lcore, byte for byte, from index `first`. */
static void
check_strides(const struct wr_stream *s, uint64_t first, unsigned int n)
{
	struct wr_frame_tmpl *t = make(s);
	static struct cur one, lc[5];
	static uint8_t ref[600][WR_FRAME_MAX];
	static uint16_t ref_len[600];
	unsigned int K, k, j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	if (n > 600)
		n = 600;
	cur_init(&one, t, first, 1);
	for (k = 0; k < n; k++) {
		cur_next(&one);
		memcpy(ref[k], one.buf, one.len);
		ref_len[k] = one.len;
	}
	for (K = 1; K <= 5; K++) {
		for (j = 0; j < K; j++)
			cur_init(&lc[j], t, first + j, K);
		for (k = 0; k < n; k++) {
			struct cur *c = &lc[k % K];

			cur_next(c);
			CU_ASSERT_EQUAL_FATAL(c->len, ref_len[k]);
			CU_ASSERT_EQUAL_FATAL(memcmp(c->buf, ref[k], c->len), 0);
		}
	}
	wr_frame_tmpl_free(t);
}

/*
 * wr_frame_gen_burst == wr_frame_gen_next, byte for byte, for bursts of
 * every size, with any stride, buffers holding earlier frames of any size.
 */
static void
check_burst(const struct wr_stream *s, uint64_t first, uint32_t stride)
{
	/* 64 bytes before each frame: room for the object start of the
	 * offset form below. */
	static uint8_t bufs[64][64 + WR_FRAME_MAX];
	static struct cur one;
	struct wr_frame_tmpl *t = make(s);
	struct wr_frame_gen g;
	uint8_t *ptrs[64];
	uint16_t lens[64];
	unsigned int b, k, total = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	for (k = 0; k < 64; k++) {
		memcpy(bufs[k] + 64, wr_frame_tmpl_bytes(t),
		       wr_frame_tmpl_max_len(t));
		ptrs[k] = bufs[k] + 64;
	}
	cur_init(&one, t, first, stride);
	wr_frame_gen_init(&g, t, first, stride);
	for (b = 1; b <= 64; b += (b < 8 ? 1 : 13)) {
		/* Rotate the buffers: each holds some earlier frame. */
		uint8_t *tmp = ptrs[0];

		memmove(ptrs, ptrs + 1, 63 * sizeof(ptrs[0]));
		ptrs[63] = tmp;
		if (b % 2 == 0) {
			wr_frame_gen_burst(&g, ptrs, lens, b);
		} else {
			/* The mbuf form: frames at a fixed offset into each
			 * object, no lengths wanted for a one-size stream. */
			void *objs[64];

			for (k = 0; k < b; k++)
				objs[k] = ptrs[k] - 37;
			wr_frame_gen_burst_at(&g, objs, 37,
					      wr_frame_tmpl_size_varies(t) ?
					      lens : NULL, b);
			if (!wr_frame_tmpl_size_varies(t))
				for (k = 0; k < b; k++)
					lens[k] = wr_frame_tmpl_max_len(t);
		}
		for (k = 0; k < b; k++, total++) {
			cur_next(&one);
			CU_ASSERT_EQUAL_FATAL(lens[k], one.len);
			CU_ASSERT_EQUAL_FATAL(memcmp(ptrs[k], one.buf, one.len), 0);
			if (ref_knows(t))
				CU_ASSERT_EQUAL(ref_check(ptrs[k], lens[k]), 0);
		}
	}
	CU_ASSERT_EQUAL(g.index, one.g.index);
	CU_ASSERT_EQUAL(total, 28 + 8 + 21 + 34 + 47 + 60);
	wr_frame_tmpl_free(t);
}

static void
test_burst_equivalence(void)
{
	uint64_t st = 4242;
	struct wr_stream s;
	unsigned int n;

	for (n = 0; n < 80; n++) {
		rand_stream(&s, &st, n % 3 != 0);
		s.latency = false; /* signatures are written after the burst */
		check_burst(&s, n % 2 ? 0 : ref_rand(&st) >> 16,
			    (uint32_t)(1 + n % 5));
		wr_stream_free(&s);
	}
}

/* The same for every stream of every shipped file: every stack. */
static void
test_stack_burst_equivalence(void)
{
	DIR *dir = opendir(WR_STREAMS);
	struct dirent *d;
	unsigned int n = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	while ((d = readdir(dir)) != NULL) {
		struct wr_stream_file f;
		struct wr_error e;
		char path[512];
		uint32_t i;

		if (strstr(d->d_name, ".yaml") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", WR_STREAMS, d->d_name);
		CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams(path, &f, &e), 0);
		for (i = 0; i < f.n_streams; i++, n++) {
			if (f.streams[i].replay != NULL)
				continue; /* a capture's frames: no template */
			f.streams[i].latency = false;
			check_burst(&f.streams[i], n % 3 ? 0 : 1000003, 1 + n % 3);
		}
		wr_stream_file_free(&f);
	}
	closedir(dir);
	CU_ASSERT(n >= 25);
}

/*
 * The shapes the frame generator builds frame by frame (fm_burst in
 * wr_frame_gen.c: one or two INC/DEC fields of 2, 4 or 8 bytes under at most
 * two plain sums): each takes that path (g.fm) and gives the bytes of
 * wr_frame_gen_next, across its ranges' wraps, from any first frame and
 * with any stride.
 */
static void
test_frame_major_shapes(void)
{
	static const char yaml[] =
		"version: 1\n"
		"streams:\n"
		"  - name: ipv4-udp\n"
		"    size: 64\n"
		"    ipv4: {src: {inc: {from: 198.18.0.1, to: 198.18.0.255}}, dst: 198.19.0.1}\n"
		"    udp: {src: {inc: {from: 1024, to: 1279}}, dst: 1024}\n"
		"  - name: ipv4-tcp-dec-step\n"
		"    size: 78\n"
		"    stack:\n"
		"      - eth\n"
		"      - ipv4: {src: 198.18.0.1, dst: {dec: {from: 10.0.0.200, to: 10.0.0.3, step: 7}}}\n"
		"      - tcp: {src: 80, dst: {inc: {from: 65500, to: 65535, step: 3}}}\n"
		"  - name: ipv6-low-half\n"
		"    size: 86\n"
		"    stack:\n"
		"      - eth\n"
		"      - ipv6: {src: {inc: {from: \"2001:2::fff0\", to: \"2001:2::1:0010\"}}, dst: \"2001:2:0:1::1\"}\n"
		"      - udp: {src: {inc: {from: 1024, to: 1034}}, dst: 1024}\n"
		"  - name: udp-ports\n"
		"    size: 100\n"
		"    ipv4: {src: 198.18.0.1, dst: 198.19.0.1}\n"
		"    udp: {src: {inc: {from: 0, to: 65535}}, dst: {dec: {from: 9, to: 1}}}\n"
		"  - name: ipv4-id-only\n"
		"    size: 64\n"
		"    ipv4: {src: 198.18.0.1, dst: 198.19.0.1, id: {inc: {from: 65530, to: 65535}}}\n"
		"    udp: {src: 1, dst: 2}\n";
	static const uint64_t firsts[] = { 0, 1, 254, 65279, 1000003 };
	struct wr_stream_file f;
	struct wr_error e;
	uint32_t i, k;

	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("shapes.yaml", yaml,
						       sizeof(yaml) - 1, &f, &e), 0);
	CU_ASSERT_EQUAL_FATAL(f.n_streams, 5);
	for (i = 0; i < f.n_streams; i++) {
		struct wr_frame_tmpl *t = make(&f.streams[i]);
		struct wr_frame_gen g;

		CU_ASSERT_PTR_NOT_NULL_FATAL(t);
		wr_frame_gen_init(&g, t, 0, 1);
		if (g.fm == 0)
			fprintf(stderr, "not frame-major: %s\n", f.streams[i].name);
		CU_ASSERT_NOT_EQUAL(g.fm, 0);
		wr_frame_tmpl_free(t);
		for (k = 0; k < NELEM(firsts); k++)
			check_burst(&f.streams[i], firsts[k], 1 + k * 3);
	}
	wr_stream_file_free(&f);
}

static void
test_stride_equivalence(void)
{
	static const uint64_t ports[] = { 53, 80, 443, 8080, 123 };
	static struct wr_size_weight mix[] = { { 64, 7 }, { 594, 4 }, { 1518, 1 } };
	uint64_t st = 77;
	struct wr_stream s;
	unsigned int combine, size, n;

	for (combine = 0; combine < 2; combine++) {
		for (size = 0; size < 3; size++) {
			ref_stream(&s);
			ref_vlan(&s);
			s.combine = combine ? WR_COMBINE_PRODUCT : WR_COMBINE_TOGETHER;
			ref_inc(&s, REF_ETH_SRC, 0x020000000001, 0x020000000007, 2);
			ref_inc(&s, REF_VLAN_ID, 10, 13, 1);
			ref_random(&s, REF_VLAN_PCP, 0, 7);
			ref_inc(&s, REF_IPV4_SRC, 0x0a000009, 0x0a000001, 4);
			ref_random(&s, REF_IPV4_DST, 0, 0xffffffff);
			ref_list(&s, REF_UDP_DST, ports, NELEM(ports));
			ref_inc(&s, REF_IPV4_TTL, 1, 255, 100);
			s.payload.kind = WR_PAYLOAD_INC;
			s.size.mode = size == 0 ? WR_SIZE_INC
				      : size == 1 ? WR_SIZE_MIX : WR_SIZE_RANDOM;
			s.size.from = 64;
			s.size.to = 1518;
			s.size.step = 97;
			if (size == 1) {
				s.size.mix = mix;
				s.size.n_mix = NELEM(mix);
			}
			check_strides(&s, 0, 600);
			check_strides(&s, 1000000007, 200);
			check_strides(&s, UINT64_MAX - 4000, 200);
			s.size.mix = NULL;
			wr_stream_free(&s);
		}
	}
	/* Random streams, too. */
	for (n = 0; n < 12; n++) {
		rand_stream(&s, &st, true);
		check_strides(&s, n % 2 ? 0 : ref_rand(&st) >> 20, 300);
		wr_stream_free(&s);
	}
}

static void
test_large_stride(void)
{
	static const uint64_t l3[] = { 1, 2, 3 };
	struct wr_frame_tmpl *t;
	static struct cur a, b;
	struct wr_stream s;
	uint32_t strides[] = { 7, 60, 1000, 65536 * 3 + 5, UINT32_MAX };
	unsigned int i, k;

	/* A PRODUCT odometer with carries through several digits: cursor
	 * (first, K) against a fresh cursor started at each index. */
	ref_stream(&s);
	s.combine = WR_COMBINE_PRODUCT;
	ref_list(&s, REF_ETH_SRC, l3, 3);
	ref_inc(&s, REF_IPV4_ID, 0, 4, 1);
	ref_inc(&s, REF_IPV4_TTL, 200, 100, 3);
	ref_inc(&s, REF_UDP_SRC, 0, 65535, 1);
	ref_inc(&s, REF_UDP_DST, 7, 9, 1);
	t = make(&s);
	for (i = 0; i < NELEM(strides); i++) {
		uint64_t first = 123456789ull * (i + 1);

		cur_init(&a, t, first, strides[i]);
		for (k = 0; k < 200; k++) {
			uint64_t idx = first + (uint64_t)k * strides[i];

			cur_next(&a);
			cur_init(&b, t, idx, 1);
			cur_next(&b);
			CU_ASSERT_EQUAL_FATAL(memcmp(a.buf, b.buf, a.len), 0);
			model_check(&s, a.buf, idx);
		}
	}
	wr_frame_tmpl_free(t);
	wr_stream_free(&s);
}

/* ---- sizes ---- */

static void
test_size_inc(void)
{
	static const uint16_t want[] = { 64, 74, 84, 94 };
	struct wr_frame_tmpl *t;
	static struct cur c;
	struct wr_stream s;
	unsigned int k;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.payload.kind = WR_PAYLOAD_INC;
	s.size.mode = WR_SIZE_INC;
	s.size.from = 64;
	s.size.to = 100;
	s.size.step = 10;
	t = make(&s);
	CU_ASSERT_EQUAL(wr_frame_tmpl_max_len(t), 90);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 13; k++) {
		cur_next(&c);
		CU_ASSERT_EQUAL(c.len + 4, want[k % 4]);
		CU_ASSERT_EQUAL(wr_frame_size_at(t, k), want[k % 4]);
		/* The payload is the same byte sequence at every size. */
		CU_ASSERT_EQUAL(c.buf[c.len - 1], (uint8_t)(c.len - 42 - 1));
	}
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

static void
test_size_random(void)
{
	struct wr_frame_tmpl *t;
	static struct cur c;
	unsigned int seen[11] = { 0 }, k, i;
	struct wr_stream s;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.size.mode = WR_SIZE_RANDOM;
	s.size.from = 100;
	s.size.to = 110;
	t = make(&s);
	CU_ASSERT_EQUAL(wr_frame_tmpl_max_len(t), 106);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 2200; k++) {
		cur_next(&c);
		CU_ASSERT_TRUE_FATAL(c.len + 4 >= 100 && c.len + 4 <= 110);
		CU_ASSERT_EQUAL(wr_frame_size_at(t, k), c.len + 4);
		seen[c.len + 4 - 100]++;
	}
	for (i = 0; i < 11; i++)
		CU_ASSERT_TRUE(seen[i] > 100); /* 200 expected each */
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

/* Frame sizes of one MIX cycle. */
static void
mix_cycle(struct wr_size_weight *mix, unsigned int n, uint16_t *out,
	  unsigned int cycle)
{
	struct wr_frame_tmpl *t;
	static struct cur c;
	struct wr_stream s;
	unsigned int k;

	ref_stream(&s);	ref_free(&s);
	ref_stream(&s);
	s.size.mode = WR_SIZE_MIX;
	s.size.mix = mix;
	s.size.n_mix = n;
	t = make(&s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	cur_init(&c, t, 0, 1);
	for (k = 0; k < 2 * cycle; k++) {
		cur_next(&c);
		if (k < cycle)
			out[k] = c.len + 4;
		else /* the cycle repeats */
			CU_ASSERT_EQUAL(c.len + 4, out[k - cycle]);
		CU_ASSERT_EQUAL(wr_frame_size_at(t, k), c.len + 4);
	}
	wr_frame_tmpl_free(t);
	ref_free(&s);
}

static void
test_size_mix(void)
{
	/* nginx's documented order for weights a=5, b=1, c=1. */
	static struct wr_size_weight w511[] = { { 100, 5 }, { 200, 1 }, { 300, 1 } };
	static const uint16_t want511[] = { 100, 100, 200, 100, 300, 100, 100 };
	static struct wr_size_weight imix[] = { { 64, 7 }, { 594, 4 }, { 1518, 1 } };
	static struct wr_size_weight imix10[] = { { 64, 70 }, { 594, 40 }, { 1518, 10 } };
	static struct wr_size_weight odd[] = { { 64, 13 }, { 128, 5 }, { 256, 1 },
					       { 1500, 8 } };
	uint16_t seq[32], seq10[32];
	unsigned int k, i, cnt, tot = 0;

	mix_cycle(w511, 3, seq, 7);
	CU_ASSERT_EQUAL(memcmp(seq, want511, sizeof(want511)), 0);

	/* Simple IMIX: exact counts per cycle; weights scaled by 10 give the
	 * same cycle (divided by their GCD). */
	mix_cycle(imix, 3, seq, 12);
	mix_cycle(imix10, 3, seq10, 12);
	CU_ASSERT_EQUAL(memcmp(seq, seq10, 12 * sizeof(seq[0])), 0);
	for (i = 0; i < 3; i++) {
		for (cnt = 0, k = 0; k < 12; k++)
			cnt += seq[k] == imix[i].size;
		CU_ASSERT_EQUAL(cnt, imix[i].weight);
	}
	/* Smooth: 1518 is not next to itself, 594 never runs twice in a row. */
	for (k = 0; k < 12; k++)
		CU_ASSERT_FALSE(seq[k] == 594 && seq[(k + 1) % 12] == 594);

	/* Over every prefix, each size's count stays within one frame of
	 * its share: the defining property of a smooth spread. */
	for (i = 0; i < 4; i++)
		tot += odd[i].weight;
	mix_cycle(odd, 4, seq, tot);
	for (i = 0; i < 4; i++) {
		for (cnt = 0, k = 0; k < tot; k++) {
			double share;

			cnt += seq[k] == odd[i].size;
			share = (double)(k + 1) * odd[i].weight / tot;
			CU_ASSERT_TRUE(cnt < share + 1.0 && cnt > share - 1.0);
		}
		CU_ASSERT_EQUAL(cnt, odd[i].weight);
	}
}

static CU_TestInfo vary_tests[] = {
	{ "inc_wrap", test_inc_wrap },
	{ "dec_wrap", test_dec_wrap },
	{ "list_order", test_list_order },
	{ "vlan_tci", test_vlan_tci },
	{ "random_fields", test_random_fields },
	{ "rng_pinned", test_rng_pinned },
	{ "together_product", test_together_product },
	{ "random_streams_model", test_random_streams_model },
	{ "stride_equivalence", test_stride_equivalence },
	{ "burst_equivalence", test_burst_equivalence },
	{ "stack_burst_equivalence", test_stack_burst_equivalence },
	{ "frame_major_shapes", test_frame_major_shapes },
	{ "large_stride", test_large_stride },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo size_tests[] = {
	{ "inc", test_size_inc },
	{ "random", test_size_random },
	{ "mix", test_size_mix },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "vary", .pTests = vary_tests },
	{ .pName = "size", .pTests = size_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

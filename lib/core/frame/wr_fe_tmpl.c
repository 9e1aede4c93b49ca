/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_fe_tmpl: a field-engine frame compiled into a template and a flat table of writes and checksums, and the per-frame generator. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_replay_pcap.h"
#include "wr_csum.h"
#include "wr_fe.h"
#include "wr_fe_priv.h"
#include "wr_pkt_csum.h"
#include "wr_frame.h"
#include "wr_frame_src.h"
#include "wr_stream.h"

/* Frames generated per pass of the burst loops: every table below is one
 * stack array of this many entries (values 16 x 64 x 8 = 8 KiB). */
#define CHUNK 64

/* One write, compiled: where, how its bits come from its variable, and the
 * running checksums it is in (acc[j], shifted by csh[j]: 8 at an odd
 * offset of that checksum's words, RFC 1071's byte swap). */
struct slot {
	uint16_t off;
	uint8_t width;
	uint8_t var;
	bool masked;
	bool little;
	int8_t shift;
	uint8_t n_acc;
	uint32_t mask;
	uint64_t add;
	uint64_t wmask;    /* the width's bits */
	uint64_t keep;     /* template bits a masked write leaves */
	uint8_t acc[WR_FE_CSUMS_MAX];
	uint8_t csh[WR_FE_CSUMS_MAX];
};

/* A checksum completed per frame, innermost first. */
struct cs {
	uint16_t csum;     /* the field */
	uint16_t start;    /* the region's first byte */
	bool ffff;         /* UDP: a computed 0 is sent as 0xffff */
	bool tail;         /* trimmed L4: bytes [start, len), length len - start */
	bool pseudo;       /* the tail's length is in its pseudo-header */
	uint8_t n_nest;
	uint8_t nest[WR_FE_CSUMS_MAX];
	uint8_t nest_sh[WR_FE_CSUMS_MAX];
	uint64_t cconst;   /* what never changes (the tail's bytes aside) */
};

struct wr_fe_tmpl {
	struct wr_fe_spec spec;  /* a copy; its lists are the template's own */
	uint8_t *bytes;          /* frame 0 */
	uint32_t s0;             /* the random variables' first state */
	uint64_t seed;
	uint32_t n_slot;
	struct slot slot[WR_FE_WRITES_MAX];
	uint32_t n_cs;
	struct cs cs[WR_FE_CSUMS_MAX];
	uint16_t *gsum;          /* trimmed: folded sums of the zeroed frame's first n bytes */
	bool used[WR_FE_VARS_MAX];
	uint64_t fmod[WR_FE_VARS_MAX]; /* random: Lemire's fastmod factor of the range */
	bool fast[WR_FE_VARS_MAX];     /* fmod applies (values of 31 bits or fewer) */
	bool is_static;
};

/* ---- byte helpers (wr_bytes.h's, and this little-endian swap) ---- */

static inline uint64_t
bswap_w(uint64_t v, unsigned int w)
{
	return __builtin_bswap64(v) >> (64 - 8 * w);
}

/* x mod d for x, d < 2^32 (d >= 1) with m = UINT64_MAX / d + 1: Lemire,
 * Kaser and Kurz, "Faster remainder by direct computation" (2019). */
static inline uint64_t
fastmod32(uint64_t x, uint64_t m, uint64_t d)
{
	return (uint64_t)(((__uint128_t)(m * x) * d) >> 64);
}

/* ---- values per frame ---- */

/* The random value of variable @p v from state @p s, with the template's
 * fastmod factor where the range allows (the same numbers as
 * wr_fe_rand_value, without a division). */
static inline uint64_t
rand_fast(const struct wr_fe_tmpl *t, const struct wr_fe_var *v, uint32_t i,
	  uint32_t s)
{
	uint64_t r, d;

	if (!t->fast[i])
		return wr_fe_rand_value(v, s);
	s = wr_fe_lcg_step(s);
	r = wr_fe_lcg_r15(s);
	if (v->n_list > 0)
		return v->list[fastmod32(r, t->fmod[i], v->n_list)];
	if (v->size == 4) {
		s = wr_fe_lcg_step(s);
		r = (r << 16) + wr_fe_lcg_r15(s);
	}
	d = v->max - v->min + 1;
	return v->min + fastmod32(r, t->fmod[i], d);
}

static void
cursor_state(struct wr_fe_cursor *c)
{
	const struct wr_fe_tmpl *t = c->t;
	const struct wr_fe_spec *fe = &t->spec;
	uint32_t i;

	for (i = 0; i < fe->n_var; i++) {
		const struct wr_fe_var *v = &fe->var[i];

		switch (v->kind) {
		case WR_FE_INC:
		case WR_FE_DEC:
			if (v->prev < 0)
				c->pos[i] = wr_fe_run_offset(v, c->k + 1);
			break;
		case WR_FE_RANDOM:
			c->lcg[i] = wr_fe_lcg_skip(t->s0, c->k * fe->n_draws +
						   v->draw_off);
			break;
		case WR_FE_REPEAT:
			if (v->prev < 0) {
				c->pos[i] = c->k % v->limit;
				c->lcg[i] = wr_fe_lcg_skip(v->seed, c->pos[i] * v->draws);
			}
			break;
		default: /* tuples */
			c->pos[i] = v->flows != 0 ? c->k % v->flows : c->k;
			break;
		}
	}
}

static void
fe_cursor_init(struct wr_fe_cursor *c, const struct wr_fe_tmpl *t,
	       uint64_t first, uint32_t stride)
{
	const struct wr_fe_spec *fe = &t->spec;
	uint32_t i, a, b;

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->index = first;
	c->stride = stride == 0 ? 1 : stride;
	c->k = fe->cache != 0 ? first % fe->cache : first;
	for (i = 0; i < fe->n_var; i++) {
		const struct wr_fe_var *v = &fe->var[i];
		__uint128_t r;

		switch (v->kind) {
		case WR_FE_INC:
		case WR_FE_DEC:
			r = v->n_list > 0 ? v->n_list :
			    (__uint128_t)v->max - v->min + 1;
			c->adv[i] = (uint64_t)((__uint128_t)v->step * c->stride % r);
			break;
		case WR_FE_RANDOM:
			wr_fe_lcg_jump((uint64_t)c->stride * fe->n_draws, &a, &b);
			c->lcg_a[i] = a;
			c->lcg_c[i] = b;
			break;
		case WR_FE_REPEAT:
			wr_fe_lcg_jump((uint64_t)c->stride * v->draws, &a, &b);
			c->lcg_a[i] = a;
			c->lcg_c[i] = b;
			break;
		default:
			break;
		}
	}
	cursor_state(c);
}

/* Values of variable @p i for @p m frames from the cursor's, advancing its
 * state (not the cursor's index).  One loop per kind, its branches taken
 * once per chunk. */
static void
var_values(struct wr_fe_cursor *c, uint32_t i, uint64_t *out, unsigned int m)
{
	const struct wr_fe_tmpl *t = c->t;
	const struct wr_fe_var *v = &t->spec.var[i];
	const uint64_t adv = c->adv[i], stride = c->stride;
	uint64_t pos = c->pos[i];
	uint32_t s = c->lcg[i];
	const uint32_t a = c->lcg_a[i], b = c->lcg_c[i];
	unsigned int k;

	if (v->prev >= 0) {
		/* Behind a next_var: from its chain's run counts (rare). */
		for (k = 0; k < m; k++)
			out[k] = wr_fe_value_at(&t->spec, i, c->k + (uint64_t)k * stride,
						t->seed);
		return;
	}
	switch (v->kind) {
	case WR_FE_INC:
	case WR_FE_DEC: {
		/* pos + adv mod r without overflow, r up to 2^64 (0). */
		const uint64_t r = v->n_list > 0 ? v->n_list : v->max - v->min + 1;
		const uint64_t back = r - adv;

		if (v->n_list > 0) {
			const uint64_t *l = v->list;
			const uint64_t top = v->kind == WR_FE_INC ? 0 : v->n_list - 1;

			for (k = 0; k < m; k++) {
				out[k] = l[top == 0 ? pos : top - pos];
				pos = pos >= back ? pos - back : pos + adv;
			}
		} else if (r == 0) {
			for (k = 0; k < m; k++) {
				out[k] = v->kind == WR_FE_INC ? v->min + pos : v->max - pos;
				pos += adv;
			}
		} else if (v->kind == WR_FE_INC) {
			const uint64_t base = v->min;

			for (k = 0; k < m; k++) {
				out[k] = base + pos;
				pos = pos >= back ? pos - back : pos + adv;
			}
		} else {
			const uint64_t base = v->max;

			for (k = 0; k < m; k++) {
				out[k] = base - pos;
				pos = pos >= back ? pos - back : pos + adv;
			}
		}
		break;
	}
	case WR_FE_RANDOM:
		if (t->fast[i] && v->n_list == 0 && v->size <= 2) {
			const uint64_t fm = t->fmod[i], d = v->max - v->min + 1;
			const uint64_t base = v->min;

			for (k = 0; k < m; k++) {
				out[k] = base + fastmod32(wr_fe_lcg_r15(wr_fe_lcg_step(s)), fm, d);
				s = a * s + b;
			}
		} else if (t->fast[i] && v->n_list == 0 && v->size == 4) {
			const uint64_t fm = t->fmod[i], d = v->max - v->min + 1;
			const uint64_t base = v->min;

			for (k = 0; k < m; k++) {
				uint32_t s1 = wr_fe_lcg_step(s), s2 = wr_fe_lcg_step(s1);

				out[k] = base + fastmod32((wr_fe_lcg_r15(s1) << 16) +
							  wr_fe_lcg_r15(s2), fm, d);
				s = a * s + b;
			}
		} else {
			for (k = 0; k < m; k++) {
				out[k] = rand_fast(t, v, i, s);
				s = a * s + b;
			}
		}
		break;
	case WR_FE_REPEAT:
		for (k = 0; k < m; k++) {
			out[k] = rand_fast(t, v, i, s);
			pos += stride;
			if (pos < v->limit) {
				s = a * s + b;
			} else {
				pos %= v->limit;
				s = wr_fe_lcg_skip(v->seed, pos * v->draws);
			}
		}
		break;
	case WR_FE_TUPLE_IP:
		for (k = 0; k < m; k++) {
			out[k] = v->min + pos % (v->max - v->min + 1);
			pos += stride;
			if (v->flows != 0 && pos >= v->flows)
				pos %= v->flows;
		}
		break;
	default: /* WR_FE_TUPLE_PORT */
		for (k = 0; k < m; k++) {
			out[k] = v->min + (pos / v->ip_range) % (v->max - v->min + 1);
			pos += stride;
			if (v->flows != 0 && pos >= v->flows)
				pos %= v->flows;
		}
		break;
	}
	c->pos[i] = pos;
	c->lcg[i] = s;
}

/* The bits a write stores for variable value @p x, as a big-endian number
 * of its width. */
static inline uint64_t
slot_bits(const struct slot *sl, uint64_t x)
{
	uint32_t v32;

	if (!sl->masked) {
		x = (x + sl->add) & sl->wmask;
		return sl->little ? bswap_w(x, sl->width) : x;
	}
	/* TRex's masked write: 32-bit arithmetic on the variable. */
	v32 = (uint32_t)x + (uint32_t)sl->add;
	if (sl->shift > 0)
		v32 <<= sl->shift;
	else if (sl->shift < 0)
		v32 >>= -sl->shift;
	return v32 & sl->mask & sl->wmask;
}

static inline void
slot_store(const struct slot *sl, uint8_t *p, uint64_t bits)
{
	switch (sl->width) {
	case 1:
		p[0] = (uint8_t)((p[0] & sl->keep) | bits);
		break;
	case 2:
		wr_put16(p, sl->keep ? (wr_get16(p) & sl->keep) | bits : bits);
		break;
	case 4:
		wr_put32(p, sl->keep ? (wr_get32(p) & sl->keep) | bits : bits);
		break;
	default:
		wr_put64(p, bits);
		break;
	}
}

static inline uint16_t
tail_sum(const struct wr_fe_tmpl *t, uint16_t start, uint16_t len)
{
	/* One's-complement difference of two prefix sums. */
	return wr_csum_fold((uint64_t)t->gsum[len] + (uint16_t)~t->gsum[start]);
}

/* One write over a chunk: its bits stored and added to the frames' sums.
 * Each expansion is one layout (width, endianness, bits kept, number of
 * checksums), so the loop over frames has no dispatch. */
#define FE_SLOT_LOOP(BITS, STORE, ACC)                                      \
	for (k = 0; k < m; k++) {                                           \
		uint8_t *p = (uint8_t *)objs[k] + base + off;               \
		uint64_t x = vv[k];                                         \
									    \
		BITS;                                                       \
		STORE;                                                      \
		ACC;                                                        \
	}

#define FE_BITS_PLAIN x = (x + add) & wmask
#define FE_BITS_LITTLE x = bswap_w((x + add) & wmask, width)
#define FE_BITS_MASKED x = slot_bits(sl, x)

#define FE_STORE_2 wr_put16(p, x)
#define FE_STORE_4 wr_put32(p, x)
#define FE_STORE_ANY slot_store(sl, p, x)

#define FE_ACC_0 (void)0
#define FE_ACC_1 A0[k] += x << c0
#define FE_ACC_2 A0[k] += x << c0; A1[k] += x << c1
#define FE_ACC_N for (j = 0; j < sl->n_acc; j++) \
		acc[sl->acc[j]][k] += (width == 8 ? wr_csum_u64(x) : x) << sl->csh[j]

#define FE_SLOT_ACCS(BITS, STORE)                                           \
	if (sl->n_acc == 0)                                                 \
		FE_SLOT_LOOP(BITS, STORE, FE_ACC_0)                         \
	else if (sl->n_acc == 1 && width < 8)                               \
		FE_SLOT_LOOP(BITS, STORE, FE_ACC_1)                         \
	else if (sl->n_acc == 2 && width < 8)                               \
		FE_SLOT_LOOP(BITS, STORE, FE_ACC_2)                         \
	else                                                                \
		FE_SLOT_LOOP(BITS, STORE, FE_ACC_N)

/* @p m frames of one chunk: no cache wrap inside it. */
static void
chunk(struct wr_fe_cursor *c, void **objs, uint32_t base, uint16_t *lens,
      unsigned int m)
{
	const struct wr_fe_tmpl *t = c->t;
	const struct wr_fe_spec *fe = &t->spec;
	uint64_t val[WR_FE_VARS_MAX][CHUNK];
	uint64_t acc[WR_FE_CSUMS_MAX][CHUNK];
	uint16_t len[CHUNK];
	unsigned int k;
	uint32_t i, j;

	for (i = 0; i < fe->n_var; i++)
		if (t->used[i])
			var_values(c, i, val[i], m);
	if (fe->trim >= 0) {
		for (k = 0; k < m; k++)
			len[k] = (uint16_t)val[fe->trim][k];
		if (lens != NULL)
			memcpy(lens, len, m * sizeof(*len));
	} else if (lens != NULL) {
		for (k = 0; k < m; k++)
			lens[k] = fe->len;
	}
	for (j = 0; j < t->n_cs; j++) {
		const struct cs *x = &t->cs[j];

		for (k = 0; k < m; k++)
			acc[j][k] = x->cconst;
		if (x->tail)
			for (k = 0; k < m; k++)
				acc[j][k] += ((uint64_t)tail_sum(t, x->start, len[k])
					      << ((x->start & 1) * 8)) +
					     (x->pseudo ? (uint64_t)(len[k] - x->start) : 0);
	}
	for (i = 0; i < t->n_slot; i++) {
		const struct slot *sl = &t->slot[i];
		const uint64_t *vv = val[sl->var];
		const uint16_t off = sl->off;
		const unsigned int width = sl->width;
		const uint64_t add = sl->add, wmask = sl->wmask;
		const unsigned int c0 = sl->csh[0], c1 = sl->csh[1];
		uint64_t *const A0 = acc[sl->n_acc > 0 ? sl->acc[0] : 0];
		uint64_t *const A1 = acc[sl->n_acc > 1 ? sl->acc[1] : 0];

		if (sl->masked) {
			FE_SLOT_ACCS(FE_BITS_MASKED, FE_STORE_ANY)
		} else if (sl->little) {
			FE_SLOT_ACCS(FE_BITS_LITTLE, FE_STORE_ANY)
		} else if (width == 2) {
			FE_SLOT_ACCS(FE_BITS_PLAIN, FE_STORE_2)
		} else if (width == 4) {
			FE_SLOT_ACCS(FE_BITS_PLAIN, FE_STORE_4)
		} else {
			FE_SLOT_ACCS(FE_BITS_PLAIN, FE_STORE_ANY)
		}
	}
	for (j = 0; j < t->n_cs; j++) {
		const struct cs *x = &t->cs[j];
		const uint16_t at = x->csum;
		const bool ffff = x->ffff;

		if (x->n_nest == 0) {
			for (k = 0; k < m; k++) {
				uint16_t v = (uint16_t)~wr_csum_fold(acc[j][k]);

				wr_put16((uint8_t *)objs[k] + base + at,
					 v == 0 && ffff ? 0xffff : v);
			}
			continue;
		}
		for (k = 0; k < m; k++) {
			uint8_t *b = (uint8_t *)objs[k] + base;
			uint64_t sum = acc[j][k];
			uint16_t v;
			uint32_t q;

			for (q = 0; q < x->n_nest; q++)
				sum += (uint64_t)wr_get16(b + t->cs[x->nest[q]].csum)
				       << x->nest_sh[q];
			v = (uint16_t)~wr_csum_fold(sum);
			wr_put16(b + at, v == 0 && ffff ? 0xffff : v);
		}
	}
}

static void
fe_cursor_burst(struct wr_fe_cursor *c, void **objs, uint32_t off,
		uint16_t *lens, unsigned int n)
{
	const uint32_t cache = c->t->spec.cache;

	while (n > 0) {
		unsigned int m = n < CHUNK ? n : CHUNK;

		if (cache != 0) {
			uint64_t left = (cache - c->k + c->stride - 1) / c->stride;

			if (left < m)
				m = (unsigned int)left;
		}
		chunk(c, objs, off, lens, m);
		objs += m;
		if (lens != NULL)
			lens += m;
		n -= m;
		c->index += (uint64_t)m * c->stride;
		c->k += (uint64_t)m * c->stride;
		if (cache != 0 && c->k >= cache) {
			c->k %= cache;
			cursor_state(c);
		}
	}
}

/* ---- the source (wr_frame_src.h) ---- */

static void
fe_gen_init(struct wr_frame_gen *g)
{
	fe_cursor_init(&g->fe, g->src->priv, g->index, g->stride);
}

static void
fe_burst_at(struct wr_frame_gen *g, void **objs, uint32_t off,
	    uint16_t *lens, unsigned int n)
{
	fe_cursor_burst(&g->fe, objs, off, lens, n);
	g->index = g->fe.index;
}

static uint16_t
fe_next(struct wr_frame_gen *g, uint8_t *buf)
{
	void *obj = buf;
	uint16_t len;

	fe_burst_at(g, &obj, 0, &len, 1);
	return len;
}

static uint16_t
fe_size_at(const struct wr_frame_src *src, uint64_t index)
{
	const struct wr_fe_tmpl *t = src->priv;

	return (uint16_t)wr_capture_wire_len(wr_fe_len_at(&t->spec,
			t->spec.cache != 0 ? index % t->spec.cache : index,
			t->seed));
}

/* ---- the template ---- */

static void
fe_tmpl_free(struct wr_fe_tmpl *t)
{
	uint32_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->spec.n_var; i++)
		free(t->spec.var[i].list);
	free(t->bytes);
	free(t->gsum);
	free(t);
}

/* The regions the stream fixes: listed, or every one the frame holds. */
static int
regions(const struct wr_fe_spec *fe, struct wr_csum_region *r, uint32_t *n,
	struct wr_error *err)
{
	uint32_t i;

	if (fe->csum_all) {
		*n = wr_pkt_csums(fe->frame, fe->len, WR_PKT_CSUM_SUM16, r,
				  WR_FE_CSUMS_MAX);
		return 0;
	}
	for (i = 0; i < fe->n_fix; i++) {
		const struct wr_fe_fix *f = &fe->fix[i];
		const struct wr_proto *p = wr_pkt_csum_kind(f->kind);

		if (wr_pkt_csum_at(fe->frame, fe->len, p, f->off, f->ip, &r[i]) != 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"checksums[%u]: the frame holds no %s header at "
				"offset %u in an IP header at %u", i,
				p->name, f->off, f->ip);
	}
	*n = fe->n_fix;
	return 0;
}

/* Where write [o, o + w) lies in region @p r: its words (1), its
 * pseudo-header's addresses (2), outside (0), or across an edge (-1).  Its
 * value is added shifted by 8 when its last byte is the high byte of a word
 * (RFC 1071's byte order: an even position from the region's start). */
static int
lies(const struct wr_csum_region *r, uint32_t o, uint32_t w, bool tail,
     uint8_t *sh)
{
	uint32_t a0, a1;

	if (o >= r->start && (tail || o + w <= r->end)) {
		*sh = (uint8_t)(((o + w - r->start) & 1) * 8);
		return 1;
	}
	if (o < r->start && o + w > r->start)
		return -1;
	if (!tail && o < r->end && o + w > r->end)
		return -1;
	if (r->rule != WR_CSUM_PSEUDO)
		return 0;
	a0 = r->addr;
	a1 = r->addr_end;
	if (o >= a0 && o + w <= a1) {
		*sh = (uint8_t)(((o + w - r->ip) & 1) * 8);
		return 2;
	}
	if ((o < a0 && o + w > a0) || (o < a1 && o + w > a1))
		return -1;
	/* The pseudo-header's protocol is the checksum's own. */
	if (o <= r->proto_at && o + w > r->proto_at)
		return -1;
	return 0;
}

/* Bits a write covers, per byte, for the overlap check and the zeroed copy. */
static void
write_bits(const struct wr_fe_write *w, uint8_t *bits)
{
	unsigned int b;

	for (b = 0; b < w->width; b++)
		bits[b] = w->masked ? (uint8_t)(w->mask >> (8 * (w->width - 1 - b)))
				    : 0xff;
}

static int
build_slots(struct wr_fe_tmpl *t, const struct wr_csum_region *r, uint32_t n_r,
	    uint8_t *z, struct wr_error *err)
{
	const struct wr_fe_spec *fe = &t->spec;
	uint8_t *owned = calloc(fe->len, 1);
	uint32_t i, j;
	int rc = 0;

	if (owned == NULL)
		return -ENOMEM;
	for (i = 0; rc == 0 && i < fe->n_wr; i++) {
		const struct wr_fe_write *w = &fe->wr[i];
		struct slot *sl = &t->slot[i];
		uint8_t bits[8];
		unsigned int b;

		write_bits(w, bits);
		for (b = 0; b < w->width; b++) {
			if (owned[w->off + b] & bits[b])
				rc = wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					"fields[%u]: writes bits of byte %u another "
					"write already writes", i, w->off + b);
			owned[w->off + b] |= bits[b];
			z[w->off + b] &= (uint8_t)~bits[b];
		}
		if (rc == 0 && fe->trim >= 0 && w->off + w->width > fe->trim_min)
			rc = wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"fields[%u]: writes byte %u, past the smallest "
				"trimmed frame (%u bytes)", i,
				w->off + w->width - 1u, fe->trim_min);
		memset(sl, 0, sizeof(*sl));
		sl->off = w->off;
		sl->width = w->width;
		sl->var = w->var;
		sl->masked = w->masked;
		sl->little = w->little;
		sl->shift = w->shift;
		sl->mask = w->mask;
		sl->add = (uint64_t)w->add;
		sl->wmask = w->width >= 8 ? UINT64_MAX : (1ull << (8 * w->width)) - 1;
		sl->keep = w->masked ? ~(uint64_t)w->mask & sl->wmask : 0;
		t->used[w->var] = true;
		for (j = 0; rc == 0 && j < n_r; j++) {
			uint8_t sh = 0;
			int where = lies(&r[j], w->off, w->width,
					 fe->trim >= 0 && r[j].rule != WR_CSUM_HEADER, &sh);

			if (w->off < r[j].csum + 2u && w->off + w->width > r[j].csum)
				rc = wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					"fields[%u]: writes over the checksum at "
					"offset %u, which checksums: computes", i,
					r[j].csum);
			else if (where < 0)
				rc = wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					"fields[%u]: a write across the edge of what "
					"the checksum at offset %u covers", i,
					r[j].csum);
			else if (where > 0) {
				sl->acc[sl->n_acc] = (uint8_t)j;
				sl->csh[sl->n_acc++] = sh;
			}
		}
	}
	free(owned);
	t->n_slot = fe->n_wr;
	return rc;
}

/* One's-complement sum of z[a, b) as words aligned at a. */
static uint64_t
span_sum(const uint8_t *z, uint32_t a, uint32_t b)
{
	return b > a ? wr_csum_sum(z + a, b - a) : 0;
}

static int
build_csums(struct wr_fe_tmpl *t, struct wr_csum_region *r, uint32_t n_r,
	    const uint8_t *z, struct wr_error *err)
{
	const struct wr_fe_spec *fe = &t->spec;
	uint32_t i, j, q;

	for (i = 0; i < n_r; i++) {
		struct cs *x = &t->cs[i];
		bool l4 = r[i].rule != WR_CSUM_HEADER;

		memset(x, 0, sizeof(*x));
		x->csum = r[i].csum;
		x->start = r[i].start;
		x->ffff = r[i].ffff;
		x->tail = l4 && fe->trim >= 0;
		x->pseudo = r[i].rule == WR_CSUM_PSEUDO;
		if (x->tail && r[i].csum + 2u > fe->trim_min)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"the checksum at offset %u lies past the smallest "
				"trimmed frame (%u bytes)", r[i].csum, fe->trim_min);
		if (x->pseudo) {
			x->cconst = span_sum(z, r[i].addr, r[i].addr_end) + r[i].ipproto;
			if (!x->tail)
				x->cconst += (uint64_t)(r[i].end - r[i].start);
		}
		if (!x->tail)
			x->cconst += span_sum(z, r[i].start, r[i].end);
		/* Checksums inside it (a tunnel's inner headers): their final
		 * values, computed first. */
		for (j = 0; j < n_r; j++)
			if (j != i && r[j].csum >= r[i].start &&
			    (x->tail || r[j].csum + 2u <= r[i].end)) {
				x->nest[x->n_nest] = (uint8_t)j;
				x->nest_sh[x->n_nest++] =
					(uint8_t)(((r[j].csum - r[i].start) & 1) * 8);
			}
	}
	/* Innermost first: a checksum is computed after those it covers;
	 * reorder by start, deepest first, and renumber. */
	{
		uint8_t order[WR_FE_CSUMS_MAX], where[WR_FE_CSUMS_MAX];
		struct cs tmp[WR_FE_CSUMS_MAX];

		for (i = 0; i < n_r; i++)
			order[i] = (uint8_t)i;
		for (i = 1; i < n_r; i++)
			for (j = i; j > 0 && r[order[j]].start > r[order[j - 1]].start; j--) {
				uint8_t s = order[j];

				order[j] = order[j - 1];
				order[j - 1] = s;
			}
		for (i = 0; i < n_r; i++) {
			tmp[i] = t->cs[order[i]];
			where[order[i]] = (uint8_t)i;
		}
		for (i = 0; i < n_r; i++) {
			t->cs[i] = tmp[i];
			for (q = 0; q < t->cs[i].n_nest; q++)
				t->cs[i].nest[q] = where[t->cs[i].nest[q]];
		}
		for (i = 0; i < t->n_slot; i++)
			for (q = 0; q < t->slot[i].n_acc; q++)
				t->slot[i].acc[q] = where[t->slot[i].acc[q]];
	}
	t->n_cs = n_r;
	return 0;
}

static int
build_gsum(struct wr_fe_tmpl *t, const uint8_t *z)
{
	uint64_t sum = 0;
	uint32_t i;

	t->gsum = malloc(((size_t)t->spec.len + 1) * sizeof(*t->gsum));
	if (t->gsum == NULL)
		return -ENOMEM;
	t->gsum[0] = 0;
	for (i = 0; i < t->spec.len; i++) {
		sum += (uint64_t)z[i] << ((i & 1) ? 0 : 8);
		t->gsum[i + 1] = wr_csum_fold(sum);
	}
	return 0;
}

static int
fe_tmpl_create(const struct wr_fe_spec *fe, uint64_t seed,
	       struct wr_fe_tmpl **out, struct wr_error *err)
{
	struct wr_csum_region r[WR_FE_CSUMS_MAX];
	struct wr_fe_tmpl *t;
	struct wr_fe_cursor c;
	uint8_t *z = NULL;
	uint32_t i, n_r = 0;
	void *obj;
	int rc;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->spec = *fe;
	for (i = 0; i < fe->n_var; i++)
		t->spec.var[i].list = NULL;
	rc = 0;
	for (i = 0; rc == 0 && i < fe->n_var; i++) {
		const struct wr_fe_var *v = &fe->var[i];

		if (v->n_list == 0)
			continue;
		t->spec.var[i].list = malloc(v->n_list * sizeof(*v->list));
		if (t->spec.var[i].list == NULL)
			rc = -ENOMEM;
		else
			memcpy(t->spec.var[i].list, v->list,
			       v->n_list * sizeof(*v->list));
	}
	t->spec.frame = NULL;
	t->seed = seed;
	t->s0 = (uint32_t)seed * WR_FE_LCG_CORE0;
	t->bytes = rc == 0 ? malloc(fe->len) : NULL;
	z = rc == 0 ? malloc(fe->len) : NULL;
	if (rc == 0 && (t->bytes == NULL || z == NULL))
		rc = -ENOMEM;
	if (rc == 0) {
		memcpy(t->bytes, fe->frame, fe->len);
		memcpy(z, fe->frame, fe->len);
		rc = regions(fe, r, &n_r, err);
	}
	for (i = 0; rc == 0 && i < n_r; i++)
		z[r[i].csum] = z[r[i].csum + 1] = 0;
	if (rc == 0)
		rc = build_slots(t, r, n_r, z, err);
	if (rc == 0)
		rc = build_csums(t, r, n_r, z, err);
	if (rc == 0 && fe->trim >= 0) {
		t->used[fe->trim] = true;
		rc = build_gsum(t, z);
	}
	for (i = 0; rc == 0 && i < fe->n_var; i++) {
		const struct wr_fe_var *v = &t->spec.var[i];
		uint64_t d = v->n_list > 0 ? v->n_list : v->max - v->min + 1;

		/* A value of 15 or 31 bits mod a range below 2^32. */
		if ((v->kind == WR_FE_RANDOM || v->kind == WR_FE_REPEAT) &&
		    v->size <= 4 && d != 0 && d <= UINT32_MAX) {
			t->fmod[i] = UINT64_MAX / d + 1;
			t->fast[i] = true;
		}
	}
	free(z);
	if (rc != 0) {
		fe_tmpl_free(t);
		return rc;
	}
	t->is_static = t->n_slot == 0 && fe->trim < 0;
	/* Frame 0 in the template: what a buffer is filled with, and for a
	 * static stream every frame. */
	fe_cursor_init(&c, t, 0, 1);
	obj = t->bytes;
	fe_cursor_burst(&c, &obj, 0, NULL, 1);
	*out = t;
	return 0;
}

static bool
fe_wants(const struct wr_stream *s)
{
	return s->fe != NULL;
}

static int
fe_build(struct wr_frame_src *src, const struct wr_stream *s,
	 struct wr_error *err)
{
	struct wr_fe_tmpl *t;
	int rc;

	rc = fe_tmpl_create(s->fe, s->seed, &t, err);
	if (rc != 0) {
		/* The stream's place when the frame's own is unknown. */
		if (err != NULL && err->line == 0) {
			err->line = s->mark.line;
			err->col = s->mark.col;
		}
		return rc;
	}
	src->priv = t;
	src->bytes = t->bytes;
	src->max_len = t->spec.len;
	src->is_static = t->is_static;
	src->size_varies = t->spec.trim >= 0;
	return 0;
}

static void
fe_free(struct wr_frame_src *src)
{
	fe_tmpl_free(src->priv);
}

const struct wr_frame_src_ops wr_frame_src_fe = {
	.name = "trex field engine",
	.wants = fe_wants,
	.build = fe_build,
	.free = fe_free,
	.size_at = fe_size_at,
	.gen_init = fe_gen_init,
	.next = fe_next,
	.burst_at = fe_burst_at,
};

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame_gen: the per-packet generator of the layer stack's templates (the stack source's hot loops). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame_priv.h"

static uint16_t
stack_size_at(const struct wr_frame_src *src, uint64_t index)
{
	const struct wr_frame_tmpl *t = tmpl_of(src);

	switch (t->size_kind) {
	case WR_SZ_TABLE:
		return t->size_tab[index % t->size_cycle];
	case WR_SZ_RANDOM:
		return (uint16_t)(t->size_from +
				  wr_rng_below(wr_rng_at(t->size_key, index),
					       t->size_range, t->size_thresh));
	default:
		return t->fixed_len + WR_FCS_LEN;
	}
}
/* ---- generator ---- */

/* A template's shape for fm_burst: W0, W1, NCS and WIDE in one code. */
#define FM_CODE(W0, W1, NCS, WIDE) \
	((W0) << 8 | (W1) << 4 | (NCS) | (WIDE) << 3 | 0x1000)

/* fm_burst's code for @p t, 0 when its fields or sums are of another kind. */
static uint16_t
fm_shape(const struct wr_frame_tmpl *t)
{
	unsigned int w[2] = { 0, 0 }, i;
	bool wide = false;

	if (t->product || t->size_kind != WR_SZ_FIXED || t->n_vary == 0 ||
	    t->n_vary > 2 || t->n_seq != t->n_vary || t->n_cs > 2)
		return 0;
	for (i = 0; i < t->n_vary; i++) {
		const struct wr_vf *f = &t->vf[i];

		if (f->kind != WR_VF_ARITH || f->keep != 0 || f->shift != 0 ||
		    (f->width != 2 && f->width != 4 && f->width != 8))
			return 0;
		w[i] = f->width;
	}
	for (i = 0; i < t->n_cs; i++) {
		if (t->cs[i].neg || t->cs[i].crc || t->cs[i].n_nest != 0)
			return 0;
		wide |= t->cs[i].wide;
	}
	return FM_CODE(w[0], w[1], t->n_cs, wide);
}
void
wr_frame_gen_init(struct wr_frame_gen *g, const struct wr_frame_tmpl *t,
		  uint64_t first, uint32_t stride)
{
	memset(g, 0, sizeof(*g));
	g->ops = t->src.ops;
	g->t = t;
	g->src = &t->src;
	g->index = first;
	g->stride = stride == 0 ? 1 : stride;
	g->ops->gen_init(g);
}

static void
stack_gen_init(struct wr_frame_gen *g)
{
	const struct wr_frame_tmpl *t = g->t;
	const uint64_t first = g->index, stride = g->stride;
	uint64_t q_first = first, q_stride = stride;
	uint32_t i;

	g->n_vary = t->n_vary;
	g->n_seq = t->n_seq;
	g->fm = fm_shape(t);
	for (i = 0; i < t->n_seq; i++) {
		uint64_t p = t->vf[i].period;

		if (t->product) {
			/* Digits of first and of stride in the mixed radix
			 * of the periods, least significant (fastest) first. */
			g->pos[i] = q_first % p;
			q_first /= p;
			g->stride_step[i] = q_stride % p;
			q_stride /= p;
			if (g->stride_step[i] != 0)
				g->odo_top = i;
		} else {
			g->pos[i] = first % p;
			g->stride_step[i] = stride % p;
		}
	}
	if (t->size_kind == WR_SZ_TABLE) {
		g->size_pos = first % t->size_cycle;
		g->size_stride = stride % t->size_cycle;
	}
}

/* Advance the sequenced slots by the stride: no division, one compare each. */
static inline void
gen_advance(struct wr_frame_gen *g)
{
	const struct wr_vf *vf = g->t->vf;
	uint64_t carry = 0, d;
	uint32_t i;

	if (!g->t->product) {
		for (i = 0; i < g->n_seq; i++) {
			d = g->pos[i] + g->stride_step[i];
			g->pos[i] = d >= vf[i].period ? d - vf[i].period : d;
		}
		return;
	}
	/* Mixed-radix addition of the stride's digits with carry; digit +
	 * step + carry < 2 * period, so one subtraction suffices.  A carry out
	 * of the last slot is the whole odometer wrapping. */
	for (i = 0; i < g->n_seq; i++) {
		if (i > g->odo_top && carry == 0)
			break;
		d = g->pos[i] + g->stride_step[i] + carry;
		carry = d >= vf[i].period;
		g->pos[i] = carry ? d - vf[i].period : d;
	}
}

/* A 128-bit field's value at a position or packet index. */
static inline __uint128_t
wide_value(const struct wr_vf *f, uint64_t pos, uint64_t index)
{
	uint64_t h;

	switch (f->wkind) {
	case WR_VF_ARITH:
		return f->wbase + (__uint128_t)pos * f->wdelta;
	case WR_VF_LIST:
		return f->wlist[pos];
	default:
		h = wr_rng_at(f->key, index);
		return f->wbase + ((__uint128_t)(h & f->whi_mask) << 64 |
				   wr_rng_mix64(h + WR_RNG_GAMMA));
	}
}

static inline uint64_t
wide_sum(__uint128_t v)
{
	return wr_csum_u64((uint64_t)(v >> 64)) + wr_csum_u64((uint64_t)v);
}

/* One value's bits in its span (see struct wr_vf), stored keeping the
 * bits of the other fields. */
static inline void
vf_store(const struct wr_vf *f, uint8_t *p, uint64_t x)
{
	switch (f->width) {
	case 1:
		p[0] = (uint8_t)((p[0] & f->keep) | x);
		break;
	case 2:
		wr_put16(p, (wr_get16(p) & f->keep) | x);
		break;
	case 3:
		wr_put24(p, (wr_get24(p) & f->keep) | x);
		break;
	case 4:
		wr_put32(p, x);
		break;
	case 6:
		wr_put48(p, x);
		break;
	default:
		wr_put64(p, x);
		break;
	}
}

/* The CRC32c of entry @p c's region of the frame at @p buf (its field 0). */
static inline uint32_t
crc_of(const struct wr_cs *c, const uint8_t *buf, uint16_t len)
{
	if (c->crc_split != 0)
		return ~(wr_crc32c_shift(c->crc_shift,
					 wr_crc32c_update(~0u, buf + c->start,
							  (size_t)(c->crc_split - c->start))) ^
			 c->crc_tail);
	return wr_crc32c(buf + c->start, (size_t)(len - c->start));
}

/*
 * Compute and store CRC entry @p c over the frame of @p len bytes at
 * @p buf, once per frame, every byte under it written (inner checksums
 * included: they come first).  @return what it adds to an outer
 * one's-complement sum: its 4 bytes as two words.  A latency stream's is
 * computed once its signature is in (wr_frame_sig_write): until then it
 * adds nothing, as the outer sums assume.
 */
static inline uint64_t
crc_fill(const struct wr_frame_tmpl *t, const struct wr_cs *c, uint8_t *buf,
	 uint16_t len)
{
	uint8_t *p = buf + c->off;

	if (t->sig_off != 0)
		return 0;
	memset(p, 0, 4);
	crc_put(p, crc_of(c, buf, len));
	return (uint64_t)wr_get16(p) + wr_get16(p + 2);
}

static inline uint64_t
fold_cs(const struct wr_cs *c, uint64_t sum)
{
	uint16_t v = (uint16_t)~(c->wide ? wr_csum_fold(sum) : wr_csum_fold48(sum));

	return v == 0 && c->ffff ? 0xffff : v;
}

/*
 * Two phases: every value, length and sum is computed first, with loads
 * only; then the bytes are stored.  A store through a uint8_t pointer may
 * alias anything, so interleaving them would make the compiler reload the
 * template and the cursor after every byte written.  Fields are a table
 * walk (struct wr_vf), not a switch per protocol.
 */
static uint16_t
stack_next(struct wr_frame_gen *g, uint8_t *buf)
{
	const struct wr_frame_tmpl *t = g->t;
	const struct wr_vf *vf = t->vf;
	const uint32_t n = g->n_vary, n_seq = g->n_seq, n_cs = t->n_cs;
	const uint64_t index = g->index;
	uint64_t acc[2 * WR_CSUMS_MAX], fin[WR_CSUMS_MAX] = { 0 }, v[WR_FRAME_VARY_MAX], size;
	__uint128_t w[WR_FRAME_VARY_MAX];
	uint16_t len = t->fixed_len;
	const bool sized = t->size_kind != WR_SZ_FIXED;
	uint32_t i, j;

	for (i = 0; i < n_cs; i++) {
		acc[i] = t->cs[i].cconst;
		acc[WR_CSUMS_MAX + i] = 0;
	}
	if (sized) {
		if (t->size_kind == WR_SZ_TABLE) {
			size = t->size_tab[g->size_pos];
			g->size_pos += g->size_stride;
			if (g->size_pos >= t->size_cycle)
				g->size_pos -= t->size_cycle;
		} else {
			size = t->size_from +
			       wr_rng_below(wr_rng_at(t->size_key, index),
					    t->size_range, t->size_thresh);
		}
		len = (uint16_t)(size - WR_FCS_LEN);
		for (i = 0; i < t->n_le; i++)
			for (j = 0; j < t->le[i].n_acc; j++)
				acc[t->le[i].acc[j]] +=
					(uint64_t)(uint16_t)(len - t->le[i].sub)
					<< t->le[i].csh[j];
		for (i = 0; i < n_cs; i++)
			if (t->cs[i].payload)
				acc[i] += (uint64_t)t->psum[len - t->pay_off]
					  << t->cs[i].pay_sh;
	}
	/* Sequenced slots come first (build_fields), then the random ones. */
	for (i = 0; i < n; i++) {
		const struct wr_vf *f = &vf[i];
		uint64_t x, c;

		if (f->kind == WR_VF_WIDE) {
			w[i] = wide_value(f, i < n_seq ? g->pos[i] : 0, index);
			c = wide_sum(w[i]);
		} else {
			if (i < n_seq)
				x = f->kind == WR_VF_ARITH ? f->base + g->pos[i] * f->delta
							   : f->list[g->pos[i]];
			else if (f->kind == WR_VF_RANDOM_FULL)
				x = f->base + wr_rng_at(f->key, index);
			else
				x = f->base + wr_rng_below(wr_rng_at(f->key, index),
							   f->range, f->thresh);
			x <<= f->shift;
			v[i] = x;
			c = f->width == 8 ? wr_csum_u64(x) : x;
		}
		for (j = 0; j < f->n_acc; j++)
			acc[f->acc[j]] += c << f->csh[j];
	}
	g->index = index + g->stride;
	gen_advance(g);

	/* Stores only from here on. */
	for (i = 0; i < n; i++) {
		if (vf[i].kind == WR_VF_WIDE)
			wr_put128(buf + vf[i].off, w[i]);
		else
			vf_store(&vf[i], buf + vf[i].off, v[i]);
	}
	if (sized)
		for (i = 0; i < t->n_le; i++)
			if (t->le[i].write)
				wr_put16(buf + t->le[i].off, len - t->le[i].sub);
	for (i = 0; i < n_cs; i++) {
		const struct wr_cs *c = &t->cs[i];

		if (c->crc) {
			fin[i] = crc_fill(t, c, buf, len);
			continue;
		}
		for (j = 0; j < c->n_nest; j++)
			acc[i] += fin[c->nest[j]] << c->nest_sh[j];
		if (c->neg)
			acc[i] += CS_ZERO - acc[WR_CSUMS_MAX + i];
		fin[i] = fold_cs(c, acc[i]);
		wr_put16(buf + c->off, fin[i]);
	}
	return len;
}

/*
 * One field over a burst: its value for each frame, stored and added to the
 * frames' sums.  Each expansion is specialised to one layout (width, bits
 * kept, number of checksums), so the inner loop has no dispatch.
 */
#define WR_FIELD_LOOP(STORE, ACC, VALUE, ADVANCE)                           \
	for (k = 0; k < n; k++) {                                           \
		uint8_t *p = (uint8_t *)objs[k] + base_off + off;           \
		uint64_t x = (VALUE);                                       \
									    \
		STORE;                                                      \
		ACC;                                                        \
		ADVANCE;                                                    \
	}

#define WR_STORE_1 x <<= shift; p[0] = (uint8_t)((p[0] & keep) | x)
#define WR_STORE_2K x <<= shift; wr_put16(p, (wr_get16(p) & keep) | x)
#define WR_STORE_2 wr_put16(p, x)
#define WR_STORE_3 x <<= shift; wr_put24(p, (wr_get24(p) & keep) | x)
#define WR_STORE_4 wr_put32(p, x)
#define WR_STORE_6 wr_put48(p, x)
#define WR_STORE_8 wr_put64(p, x); x = wr_csum_u64(x)

#define WR_ACC_0 (void)0
#define WR_ACC_1 A0[k] += x << c0
#define WR_ACC_2 A0[k] += x << c0; A1[k] += x << c1
#define WR_ACC_3 A0[k] += x << c0; A1[k] += x << c1; A2[k] += x << c2

#define WR_FIELD_ACCS(STORE, VALUE, ADVANCE)                                \
	if (f->n_acc == 0)                                                  \
		WR_FIELD_LOOP(STORE, WR_ACC_0, VALUE, ADVANCE)              \
	else if (f->n_acc == 1)                                             \
		WR_FIELD_LOOP(STORE, WR_ACC_1, VALUE, ADVANCE)              \
	else if (f->n_acc == 2)                                             \
		WR_FIELD_LOOP(STORE, WR_ACC_2, VALUE, ADVANCE)              \
	else                                                                \
		WR_FIELD_LOOP(STORE, WR_ACC_3, VALUE, ADVANCE)

#define WR_FIELD_WIDTHS(VALUE, ADVANCE)                                     \
	if (f->width == 1)                                                  \
		WR_FIELD_ACCS(WR_STORE_1, VALUE, ADVANCE)                   \
	else if (f->width == 2 && keep != 0)                                \
		WR_FIELD_ACCS(WR_STORE_2K, VALUE, ADVANCE)                  \
	else if (f->width == 2)                                             \
		WR_FIELD_ACCS(WR_STORE_2, VALUE, ADVANCE)                   \
	else if (f->width == 3)                                             \
		WR_FIELD_ACCS(WR_STORE_3, VALUE, ADVANCE)                   \
	else if (f->width == 4)                                             \
		WR_FIELD_ACCS(WR_STORE_4, VALUE, ADVANCE)                   \
	else if (f->width == 6)                                             \
		WR_FIELD_ACCS(WR_STORE_6, VALUE, ADVANCE)                   \
	else                                                                \
		WR_FIELD_ACCS(WR_STORE_8, VALUE, ADVANCE)

/* A 128-bit field over a burst (ranges wider than a /64: rare). */
static void
wide_burst(struct wr_frame_gen *g, uint32_t i, void **objs, uint32_t base_off,
	   unsigned int n, uint64_t (*acc)[WR_FRAME_BURST_MAX])
{
	const struct wr_vf *f = &g->t->vf[i];
	uint64_t idx = g->index, pos = i < g->n_seq ? g->pos[i] : 0;
	unsigned int k, j;

	for (k = 0; k < n; k++) {
		__uint128_t v = wide_value(f, pos, idx);
		uint64_t c = wide_sum(v);

		wr_put128((uint8_t *)objs[k] + base_off + f->off, v);
		for (j = 0; j < f->n_acc; j++)
			acc[f->acc[j]][k] += c << f->csh[j];
		idx += g->stride;
		if (i < g->n_seq) {
			pos += g->stride_step[i];
			if (pos >= f->period)
				pos -= f->period;
		}
	}
	if (i < g->n_seq)
		g->pos[i] = pos;
}

/*
 * The commonest varying stream, frame by frame: one or two INC/DEC fields
 * of 2, 4 or 8 whole bytes (an address, a port, the low half of an IPv6
 * address) under at most two plain one's-complement sums, one size.  Each
 * frame's values and sums stay in registers from its first field to its
 * fold, where the field-major loops below keep the sums in rows in
 * memory, a load and a store per field and sum and frame.  W0, W1 (0: no
 * second field) and NCS are constants in each expansion (FM_CASE), so
 * nothing is decided per frame but the wrap of a field's range; a field's
 * share of a sum is a multiplier of 0 (not in it), 1 or 256 (at an odd
 * offset of it: RFC 1071 byte swap).  fm_shape says which templates fit.
 */
static inline __attribute__((always_inline)) void
fm_burst(struct wr_frame_gen *g, void **objs, uint32_t base_off,
	 unsigned int n, const unsigned int W0, const unsigned int W1,
	 const unsigned int NCS, const bool WIDE)
{
	const struct wr_frame_tmpl *t = g->t;
	const struct wr_vf *f0 = &t->vf[0], *f1 = &t->vf[W1 ? 1 : 0];
	const uint16_t o0 = f0->off, o1 = f1->off;
	const uint16_t co0 = t->cs[0].off, co1 = t->cs[NCS > 1 ? 1 : 0].off;
	const uint64_t cc0 = t->cs[0].cconst, cc1 = t->cs[NCS > 1 ? 1 : 0].cconst;
	const uint16_t ff0 = t->cs[0].ffff ? 0xffff : 0;
	const uint16_t ff1 = t->cs[NCS > 1 ? 1 : 0].ffff ? 0xffff : 0;
	const uint64_t per0 = f0->period, per1 = f1->period;
	const uint64_t st0 = g->stride_step[0], st1 = g->stride_step[W1 ? 1 : 0];
	const uint64_t inc0 = st0 * f0->delta, inc1 = st1 * f1->delta;
	const uint64_t wr0 = per0 * f0->delta, wr1 = per1 * f1->delta;
	uint64_t m00 = 0, m01 = 0, m10 = 0, m11 = 0;
	uint64_t p0 = g->pos[0], p1 = g->pos[W1 ? 1 : 0];
	uint64_t v0 = f0->base + p0 * f0->delta, v1 = f1->base + p1 * f1->delta;
	unsigned int j, k;

	for (j = 0; j < f0->n_acc; j++)
		*(f0->acc[j] == 0 ? &m00 : &m01) = 1ull << f0->csh[j];
	for (j = 0; W1 && j < f1->n_acc; j++)
		*(f1->acc[j] == 0 ? &m10 : &m11) = 1ull << f1->csh[j];
	for (k = 0; k < n; k++) {
		uint8_t *b = (uint8_t *)objs[k] + base_off;
		uint64_t c0 = W0 == 8 ? wr_csum_u64(v0) : v0;
		uint64_t c1 = W1 == 8 ? wr_csum_u64(v1) : v1;
		uint64_t a0 = cc0 + c0 * m00, a1 = cc1 + c0 * m01;
		uint16_t s0, s1;

		if (W0 == 2)
			wr_put16(b + o0, v0);
		else if (W0 == 4)
			wr_put32(b + o0, v0);
		else
			wr_put64(b + o0, v0);
		if (W1 == 2)
			wr_put16(b + o1, v1);
		else if (W1 == 4)
			wr_put32(b + o1, v1);
		else if (W1 == 8)
			wr_put64(b + o1, v1);
		if (W1) {
			a0 += c1 * m10;
			a1 += c1 * m11;
		}
		if (NCS > 0) {
			s0 = (uint16_t)~(WIDE ? wr_csum_fold(a0) : wr_csum_fold48(a0));
			wr_put16(b + co0, s0 == 0 ? ff0 : s0);
		}
		if (NCS > 1) {
			s1 = (uint16_t)~(WIDE ? wr_csum_fold(a1) : wr_csum_fold48(a1));
			wr_put16(b + co1, s1 == 0 ? ff1 : s1);
		}
		p0 += st0;
		v0 += inc0;
		if (p0 >= per0) {
			p0 -= per0;
			v0 -= wr0;
		}
		if (W1) {
			p1 += st1;
			v1 += inc1;
			if (p1 >= per1) {
				p1 -= per1;
				v1 -= wr1;
			}
		}
	}
	g->pos[0] = p0;
	if (W1)
		g->pos[1] = p1;
}

#define FM_CASE(W0, W1, NCS, WIDE)                                          \
	case FM_CODE(W0, W1, NCS, WIDE):                                    \
		fm_burst(g, objs, base_off, n, W0, W1, NCS, WIDE);          \
		break;
#define FM_NCS(W0, W1) FM_CASE(W0, W1, 0, false)                            \
	FM_CASE(W0, W1, 1, false) FM_CASE(W0, W1, 2, false)                 \
	FM_CASE(W0, W1, 1, true) FM_CASE(W0, W1, 2, true)
#define FM_W1(W0) FM_NCS(W0, 0) FM_NCS(W0, 2) FM_NCS(W0, 4) FM_NCS(W0, 8)

static void
fm_dispatch(struct wr_frame_gen *g, void **objs, uint32_t base_off,
	    unsigned int n)
{
	switch (g->fm) {
	FM_W1(2)
	FM_W1(4)
	FM_W1(8)
	default: /* fm_shape said 0 */
		break;
	}
}

/*
 * Parts of stack_burst_at, always inlined into it (the code is what it was
 * as one function: acc stays its local array): the lengths and payload
 * sums of a tabulated size cycle, then the checksums, innermost first.
 */
static inline __attribute__((always_inline)) void
sizes_burst(struct wr_frame_gen *g, void **objs, uint32_t base_off,
	    uint16_t *lens, unsigned int n,
	    uint64_t acc[2 * WR_CSUMS_MAX][WR_FRAME_BURST_MAX])
{
	const struct wr_frame_tmpl *t = g->t;
	const uint32_t n_cs = t->n_cs;
	unsigned int k;
	uint32_t i, e;

	if (t->size_kind == WR_SZ_TABLE) {
		uint64_t pos = g->size_pos;

		for (k = 0; k < n; k++) {
			uint16_t len = (uint16_t)(t->size_tab[pos] - WR_FCS_LEN);
			uint8_t *b = (uint8_t *)objs[k] + base_off;
			uint16_t ps = t->psum[len - t->pay_off];

			lens[k] = len;
			for (e = 0; e < t->n_le; e++) {
				const struct wr_le *le = &t->le[e];
				uint16_t l = (uint16_t)(len - le->sub);

				if (le->write)
					wr_put16(b + le->off, l);
				for (i = 0; i < le->n_acc; i++)
					acc[le->acc[i]][k] += (uint64_t)l << le->csh[i];
			}
			for (i = 0; i < n_cs; i++)
				if (t->cs[i].payload)
					acc[i][k] += (uint64_t)ps << t->cs[i].pay_sh;
			pos += g->size_stride;
			if (pos >= t->size_cycle)
				pos -= t->size_cycle;
		}
		g->size_pos = pos;
	} else if (lens != NULL) {
		for (k = 0; k < n; k++)
			lens[k] = t->fixed_len;
	}
}

static inline __attribute__((always_inline)) void
csums_burst(const struct wr_frame_tmpl *t, void **objs, uint32_t base_off,
	    const uint16_t *lens, unsigned int n,
	    uint64_t acc[2 * WR_CSUMS_MAX][WR_FRAME_BURST_MAX])
{
	const uint32_t n_cs = t->n_cs;
	unsigned int k;
	uint32_t i, e;

	/* Innermost first; the commonest case (IPv4 + L4) in one pass. */
	if (n_cs == 2 && !t->cs[0].wide && !t->cs[1].wide && !t->cs[0].crc &&
	    !t->cs[0].neg && !t->cs[1].neg &&
	    t->cs[0].n_nest == 0 && t->cs[1].n_nest == 0) {
		const uint16_t o0 = t->cs[0].off, o1 = t->cs[1].off;
		const bool f0 = t->cs[0].ffff, f1 = t->cs[1].ffff;

		for (k = 0; k < n; k++) {
			uint8_t *b = (uint8_t *)objs[k] + base_off;
			uint16_t c0 = (uint16_t)~wr_csum_fold48(acc[0][k]);
			uint16_t c1 = (uint16_t)~wr_csum_fold48(acc[1][k]);

			wr_put16(b + o0, c0 == 0 && f0 ? 0xffff : c0);
			wr_put16(b + o1, c1 == 0 && f1 ? 0xffff : c1);
		}
	} else {
		for (i = 0; i < n_cs; i++) {
			const struct wr_cs *c = &t->cs[i];

			if (c->crc) {
				for (k = 0; k < n; k++)
					crc_fill(t, c, (uint8_t *)objs[k] + base_off,
						 lens != NULL ? lens[k] : t->fixed_len);
				continue;
			}
			/* Inner checksums are final in the frames already (a
			 * latency stream's CRC is not: it adds nothing yet). */
			for (e = 0; e < c->n_nest; e++) {
				const struct wr_cs *in = &t->cs[c->nest[e]];

				if (in->crc && t->sig_off != 0)
					continue;
				for (k = 0; k < n; k++) {
					const uint8_t *q = (uint8_t *)objs[k] + base_off + in->off;

					acc[i][k] += ((uint64_t)wr_get16(q) +
						      (in->crc ? wr_get16(q + 2) : 0))
						     << c->nest_sh[e];
				}
			}
			if (c->neg)
				for (k = 0; k < n; k++)
					acc[i][k] += CS_ZERO - acc[WR_CSUMS_MAX + i][k];
			for (k = 0; k < n; k++)
				wr_put16((uint8_t *)objs[k] + base_off + c->off,
				      fold_cs(c, acc[i][k]));
		}
	}
}

/*
 * The stack's frames for a burst: field outside, frames inside (see
 * wr_frame_gen_burst_at()).  The measured hot loop of every varying
 * stream: each field kind's loop is written out here (WR_FIELD_WIDTHS, one
 * loop per width), so that its running value stays in a register across
 * the burst.
 */
static void
stack_burst_at(struct wr_frame_gen *g, void **objs, uint32_t base_off,
	       uint16_t *lens, unsigned int n)
{
	const struct wr_frame_tmpl *t = g->t;
	uint64_t acc[2 * WR_CSUMS_MAX][WR_FRAME_BURST_MAX];
	const uint64_t index = g->index, stride = g->stride;
	const uint32_t n_cs = t->n_cs;
	unsigned int k;
	uint32_t i;

	if (g->fm != 0) {
		fm_dispatch(g, objs, base_off, n);
		if (lens != NULL)
			for (k = 0; k < n; k++)
				lens[k] = t->fixed_len;
		g->index = index + stride * n;
		return;
	}
	/* An odometer carries between fields frame by frame, and random
	 * sizes are rare: those take the frame-by-frame path. */
	if (t->product || t->size_kind == WR_SZ_RANDOM) {
		for (k = 0; k < n; k++) {
			uint16_t len = stack_next(g, (uint8_t *)objs[k] +
						  base_off);

			if (lens != NULL)
				lens[k] = len;
		}
		return;
	}
	for (i = 0; i < n_cs; i++) {
		const uint64_t cc = t->cs[i].cconst;

		for (k = 0; k < n; k++)
			acc[i][k] = cc;
		if (t->cs[i].neg)
			memset(acc[WR_CSUMS_MAX + i], 0, n * sizeof(acc[0][0]));
	}
	sizes_burst(g, objs, base_off, lens, n, acc);
	for (i = 0; i < g->n_vary; i++) {
		const struct wr_vf *f = &t->vf[i];
		const uint16_t off = f->off;
		const uint64_t keep = f->keep;
		const unsigned int shift = f->shift;
		const unsigned int c0 = f->csh[0], c1 = f->csh[1], c2 = f->csh[2];
		uint64_t *const A0 = acc[f->n_acc > 0 ? f->acc[0] : 0];
		uint64_t *const A1 = acc[f->n_acc > 1 ? f->acc[1] : 0];
		uint64_t *const A2 = acc[f->n_acc > 2 ? f->acc[2] : 0];

		if (f->kind == WR_VF_WIDE) {
			wide_burst(g, i, objs, base_off, n, acc);
		} else if (i >= g->n_seq && f->kind == WR_VF_RANDOM_FULL) {
			const uint64_t base = f->base, key = f->key;
			uint64_t idx = index;

			WR_FIELD_WIDTHS(base + wr_rng_at(key, idx), idx += stride)
		} else if (i >= g->n_seq) {
			const uint64_t base = f->base, key = f->key;
			const uint64_t range = f->range, thresh = f->thresh;
			uint64_t idx = index;

			WR_FIELD_WIDTHS(base + wr_rng_below(wr_rng_at(key, idx),
							    range, thresh),
					idx += stride)
		} else if (f->kind == WR_VF_ARITH) {
			/* base + pos * delta, kept as a running value. */
			const uint64_t period = f->period;
			const uint64_t step = g->stride_step[i];
			const uint64_t inc = step * f->delta;
			const uint64_t wrap = period * f->delta;
			uint64_t pos = g->pos[i];
			uint64_t cur = f->base + pos * f->delta;

			WR_FIELD_WIDTHS(cur,
					pos += step; cur += inc;
					if (pos >= period) {
						pos -= period;
						cur -= wrap;
					})
			g->pos[i] = pos;
		} else {
			const uint64_t period = f->period;
			const uint64_t step = g->stride_step[i];
			const uint64_t *list = f->list;
			uint64_t pos = g->pos[i];

			WR_FIELD_WIDTHS(list[pos],
					pos += step;
					if (pos >= period)
						pos -= period;)
			g->pos[i] = pos;
		}
	}
	csums_burst(t, objs, base_off, lens, n, acc);
	g->index = index + stride * n;
}

/* The layer stack as a template source (wr_frame_src.h): built by
 * wr_frame_compile.c, run here. */
const struct wr_frame_src_ops wr_frame_src_stack = {
	.name = "stack",
	.wants = wr_frame_stack_wants,
	.build = wr_frame_stack_build,
	.free = wr_frame_stack_free,
	.size_at = stack_size_at,
	.gen_init = stack_gen_init,
	.next = stack_next,
	.burst_at = stack_burst_at,
};

void
wr_frame_sig_write(const struct wr_frame_tmpl *t, uint8_t *buf, uint16_t len,
		   uint32_t stream_id, uint64_t seq, uint64_t tx_tsc)
{
	struct wr_sig sig = { stream_id, seq, tx_tsc };
	uint64_t was[WR_CSUMS_MAX], now[WR_CSUMS_MAX];
	uint64_t words;
	uint32_t i;

	if (t->sig_off == 0)
		return;
	if (t->sig_kind == WR_SIG_KIND_FULL) {
		wr_sig_encode(buf + t->sig_off, &sig);
		words = (WR_SIG_MAGIC >> 16) + (WR_SIG_MAGIC & 0xffff) +
			wr_csum_u64(tx_tsc) + (stream_id >> 16) +
			(stream_id & 0xffff) + wr_csum_u64(seq);
	} else if (t->sig_kind == WR_SIG_KIND_COMPACT) {
		/* The low 48 bits of both: three words each, at even
		 * offsets in the signature like the full one's. */
		wr_sig_encode_compact(buf + t->sig_off, &sig);
		words = (WR_SIG_COMPACT_MAGIC >> 16) +
			(WR_SIG_COMPACT_MAGIC & 0xffff) +
			wr_sig_compact_id(stream_id) +
			wr_csum_u64(seq & WR_SIG_COMPACT_MASK) +
			wr_csum_u64(tx_tsc & WR_SIG_COMPACT_MASK);
	} else {
		/* Loss only: no TX time to carry, and none summed. */
		wr_sig_encode_short(buf + t->sig_off, &sig);
		words = (WR_SIG_SHORT_MAGIC >> 16) +
			(WR_SIG_SHORT_MAGIC & 0xffff) + (stream_id >> 16) +
			(stream_id & 0xffff) + wr_csum_u64(seq);
	}
	/* Each checksum over the signature covers zeros there
	 * (wr_frame_gen_next): add the signature's words to the sum it
	 * encodes.  ~field is that sum, or 0 for a sum of 0xffff sent as
	 * 0xffff: both are one's-complement zero, and the magic makes the new
	 * sum nonzero, so the fold is the same as a full recomputation's. */
	/* Innermost first: an outer checksum over an inner one also takes
	 * the inner one's change (subtract the old value: add its
	 * complement). */
	/* A CRC is computed whole, now that everything under it is written
	 * (the frame generator left it: the outer sums took it as zero). */
	for (i = 0; i < t->n_sig_cs; i++) {
		const struct wr_cs *c = &t->cs[t->sig_cs[i]];
		uint8_t *p = buf + c->off;
		uint64_t sum = (uint16_t)~wr_get16(p);
		uint16_t v;
		uint32_t j, q;

		if (c->crc) {
			memset(p, 0, 4);
			crc_put(p, crc_of(c, buf, len));
			was[i] = 0;
			now[i] = (uint64_t)wr_get16(p) + wr_get16(p + 2);
			continue;
		}
		sum += words << t->sig_sh[i];
		for (j = 0; j < c->n_nest; j++)
			for (q = 0; q < i; q++)
				if (t->sig_cs[q] == c->nest[j])
					sum += ((uint16_t)~was[q] + now[q]) << c->nest_sh[j];
		was[i] = wr_get16(p);
		v = (uint16_t)~wr_csum_fold(sum);
		wr_put16(p, v == 0 && c->ffff ? 0xffff : v);
		now[i] = wr_get16(p);
	}
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame_compile: the layer stack's varying fields, lengths and checksums compiled into the template's flat edit table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame_priv.h"

/* ---- compiling the varying fields ---- */

/*
 * Inner checksums an outer one need not read.  A region whose
 * one's-complement checksum is right sums to zero with it (a header, ICMP,
 * GRE's) or to minus its pseudo-header (UDP, TCP, ICMPv6: RFC 1071
 * arithmetic), whatever it holds.  So an outer checksum whose region holds
 * an inner L4 one (a tunnel's UDP over the inner UDP) and the checksummed
 * headers before it sums those regions' bytes as that known total: fields
 * inside them add nothing, a field of the inner pseudo-header adds minus
 * itself, and the inner checksums need neither be computed first nor read
 * back.  A CRC region is no such sum: its bytes count as themselves (the
 * outer one adds the CRC's bytes once it is computed, wr_cs.nest).
 */

/* The inner L4 layer whose region the payload-type checksum of layer o
 * takes as its known total (one's-complement, sent, the first after o),
 * or n: none, or a CRC region comes first. */
static uint32_t
cancel_l4(const struct lay *ly, uint32_t n, uint32_t o)
{
	uint32_t i;

	if (ly[o].lo.csum != WR_CSUM_PSEUDO && ly[o].lo.csum != WR_CSUM_PLAIN)
		return n;
	for (i = o + 1; i < n; i++) {
		if (wr_frame_csum_off(ly, n, i) || ly[i].lo.csum == WR_CSUM_HEADER)
			continue;
		return ly[i].lo.csum == WR_CSUM_CRC32C ? n : i;
	}
	return n;
}

/* Are bytes [off, off + w) inside a region layer o's checksum takes as a
 * known total: a checksummed header before its inner L4 (or before a CRC
 * region), or that L4's region? */
static bool
in_cancelled(const struct lay *ly, uint32_t n, uint32_t o, uint16_t off, uint16_t w)
{
	uint32_t l4 = cancel_l4(ly, n, o), i;

	if (ly[o].lo.csum != WR_CSUM_PSEUDO && ly[o].lo.csum != WR_CSUM_PLAIN)
		return false;
	if (l4 < n && off >= ly[l4].off)
		return true;
	for (i = o + 1; i < n && i < l4; i++) {
		if (ly[i].lo.csum == WR_CSUM_CRC32C && !wr_frame_csum_off(ly, n, i))
			break;
		if (ly[i].lo.csum == WR_CSUM_HEADER && !wr_frame_csum_off(ly, n, i) &&
		    off >= ly[i].off && off + w <= ly[i].off + ly[i].hlen)
			return true;
	}
	return false;
}

/* Marks a negative contribution in wr_vf.acc / wr_le.acc while they hold
 * layers (build_csums turns them into accumulators). */
#define ACC_NEG 0x80

static int
acc_add(uint8_t *n_acc, uint8_t *acc, uint8_t *csh, uint8_t target, uint8_t sh)
{
	if (*n_acc == WR_ACC_MAX)
		return -ENOTSUP;
	acc[*n_acc] = target;
	csh[(*n_acc)++] = sh;
	return 0;
}

/* Checksummed layers (indices) a field at [off, off + w) of layer li is in,
 * and with which sign. */
static int
field_accs(const struct lay *ly, uint32_t n, uint32_t li, unsigned int j,
	   uint16_t off, uint16_t w, struct wr_vf *f)
{
	uint32_t c, l4;
	uint8_t csh = 0;
	bool pos, neg;

	f->n_acc = 0;
	for (c = 0; c < n; c++) {
		/* A CRC sums nothing per field: it is taken whole
		 * (build_csums finds it active). */
		if (wr_frame_csum_off(ly, n, c) || ly[c].lo.csum == WR_CSUM_CRC32C)
			continue;
		pos = wr_frame_covers(ly, c, off, w, &csh) && !in_cancelled(ly, n, c, off, w);
		/* An address or the protocol below an L4 checksum is in
		 * its pseudo-header, as the low byte of a word (protocol)
		 * or whole words (addresses). */
		if (!pos && wr_frame_in_pseudo(ly, c, li, j)) {
			pos = true;
			csh = 0;
		}
		l4 = cancel_l4(ly, n, c);
		neg = l4 < n && wr_frame_in_pseudo(ly, l4, li, j);
		/* The same value added and taken away. */
		if (pos && neg && csh == 0)
			continue;
		if (pos && acc_add(&f->n_acc, f->acc, f->csh, (uint8_t)c, csh) < 0)
			return -ENOTSUP;
		if (neg && acc_add(&f->n_acc, f->acc, f->csh, (uint8_t)(c | ACC_NEG), 0) < 0)
			return -ENOTSUP;
	}
	return 0;
}

/* Compile one varying field into slot f. */
static int
build_vf(struct wr_vf *f, const struct wr_field_spec *fs,
	 const struct wr_proto_field *pf, uint16_t at, uint64_t key)
{
	bool hi_const = true;
	uint32_t i;

	f->off = at;
	f->width = pf->span;
	f->shift = pf->shift;
	f->keep = 0;
	if (pf->span <= 8)
		f->keep = (pf->span == 8 ? ~0ull : (1ull << (8 * pf->span)) - 1) &
			  ~((uint64_t)wr_frame_bits_max(pf->bits) << pf->shift);
	f->period = wr_field_period(fs);
	f->key = key;
	if (pf->span == 16) {
		/* A 128-bit field whose high half never changes (a range or
		 * list within one /64) is compiled as its low 8 bytes. */
		switch (fs->mode) {
		case WR_VARY_LIST:
			for (i = 1; i < fs->list_len; i++)
				hi_const &= fs->list[i] >> 64 == fs->list[0] >> 64;
			break;
		default:
			hi_const = fs->from >> 64 == fs->to >> 64;
			break;
		}
		if (hi_const) {
			f->off += 8;
			f->width = 8;
		} else {
			f->kind = WR_VF_WIDE;
		}
	}
	if (f->kind == WR_VF_WIDE) {
		switch (fs->mode) {
		case WR_VARY_INC:
		case WR_VARY_DEC:
			f->wkind = WR_VF_ARITH;
			f->wbase = fs->from;
			f->wdelta = fs->mode == WR_VARY_INC ? fs->step : 0 - fs->step;
			return 0;
		case WR_VARY_LIST:
			f->wkind = WR_VF_LIST;
			f->wlist = malloc(fs->list_len * sizeof(*f->wlist));
			if (f->wlist == NULL)
				return -ENOMEM;
			memcpy(f->wlist, fs->list, fs->list_len * sizeof(*f->wlist));
			return 0;
		default:
			/* A prefix (check_field): high bits from one draw,
			 * the low 64 from the next. */
			f->wkind = WR_VF_RANDOM;
			f->wbase = fs->from;
			f->whi_mask = (uint64_t)((fs->to - fs->from) >> 64);
			f->period = 0;
			return 0;
		}
	}
	switch (fs->mode) {
	case WR_VARY_INC:
	case WR_VARY_DEC:
		f->kind = WR_VF_ARITH;
		f->base = (uint64_t)fs->from;
		f->delta = fs->mode == WR_VARY_INC ? (uint64_t)fs->step
						   : 0 - (uint64_t)fs->step;
		return 0;
	case WR_VARY_LIST:
		f->kind = WR_VF_LIST;
		f->list = malloc(fs->list_len * sizeof(*f->list));
		if (f->list == NULL)
			return -ENOMEM;
		for (i = 0; i < fs->list_len; i++)
			f->list[i] = (uint64_t)fs->list[i];
		return 0;
	default:
		f->base = (uint64_t)fs->from;
		f->range = (uint64_t)(fs->to - fs->from) + 1;
		f->period = 0;
		if (f->range == 0) {
			f->kind = WR_VF_RANDOM_FULL;
			return 0;
		}
		f->kind = WR_VF_RANDOM;
		f->thresh = wr_rng_threshold(f->range);
		return 0;
	}
}

static int
build_fields(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n,
	     const struct wr_stream *s, struct wr_error *err)
{
	unsigned int pass, i, j, k = 0;
	int rc;

	/* Pass 0 takes the sequenced fields, pass 1 the RANDOM ones, each in
	 * stack order (outer first) and field table order: the odometer runs
	 * over slots 0..n_seq-1. */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			for (j = 0; j < ly[i].p->n_fields; j++) {
				const struct wr_field_spec *fs = &ly[i].eff[j];
				const struct wr_proto_field *pf = &ly[i].p->fields[j];
				struct wr_vf *f = &t->vf[k];

				if (!wr_frame_field_varies(fs) || pf->role == WR_ROLE_MY_ETHERTYPE ||
				    ly[i].lo.off[j] == WR_OFF_NONE)
					continue;
				if ((fs->mode == WR_VARY_RANDOM) != (pass == 1))
					continue;
				if (k == WR_FRAME_VARY_MAX)
					return wr_frame_lay_fail(err, &ly[i], pf->name,
								 "more than %s varying fields in one stream%s",
								 "64", "");
				rc = build_vf(f, fs, pf, (uint16_t)(ly[i].off + ly[i].lo.off[j]),
					      wr_frame_field_key(s, &ly[i], i, j));
				if (rc < 0)
					return rc;
				rc = field_accs(ly, n, i, j, f->off, f->width, f);
				if (rc < 0)
					return wr_frame_lay_fail(err, &ly[i], pf->name,
								 "a field in more than two checksums%s%s",
								 "", "");
				k++;
			}
		}
		if (pass == 0)
			t->n_seq = k;
	}
	t->n_vary = k;
	return 0;
}

/* The checksums rewritten per packet, innermost first; map[layer] gives
 * the accumulator of a checksummed layer, -1 for the others. */
static int
build_csums(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n,
	    bool size_varies, bool latency, int8_t *map)
{
	bool active[WR_LAYERS_MAX] = { false };
	uint32_t i, j;
	uint8_t csh;

	for (i = 0; i < t->n_vary; i++)
		for (j = 0; j < t->vf[i].n_acc; j++)
			active[t->vf[i].acc[j] & ~ACC_NEG] = true;
	for (i = 0; i < n; i++) {
		map[i] = -1;
		if (wr_frame_csum_off(ly, n, i))
			continue;
		/* A CRC is computed again when a varying field lies under
		 * it (and, below, when the size or a signature does). */
		for (j = 0; ly[i].lo.csum == WR_CSUM_CRC32C && j < t->n_vary; j++)
			if (t->vf[j].off >= ly[i].off)
				active[i] = true;
		if (ly[i].lo.csum != WR_CSUM_HEADER && (size_varies || latency))
			active[i] = true;
		/* A header checksum over a length field (IPv4 total length). */
		if (ly[i].lo.csum == WR_CSUM_HEADER && size_varies)
			for (j = 0; j < n; j++)
				if (ly[j].p->len_off >= 0 &&
				    wr_frame_covers(ly, i, (uint16_t)(ly[j].off + ly[j].p->len_off),
						    2, &csh))
					active[i] = true;
	}
	/* An outer checksum over a rewritten inner one is rewritten too. */
	for (i = n; i-- > 0;)
		for (j = 0; active[i] && j < i; j++)
			if (!wr_frame_csum_off(ly, n, j) &&
			    wr_frame_covers(ly, j, (uint16_t)(ly[i].off + ly[i].lo.csum_off), 2,
					    &csh))
				active[j] = true;
	for (i = n; i-- > 0;) {
		struct wr_cs *c;

		if (!active[i])
			continue;
		if (t->n_cs == WR_CSUMS_MAX)
			return -ENOTSUP;
		map[i] = (int8_t)t->n_cs;
		c = &t->cs[t->n_cs++];
		c->off = (uint16_t)(ly[i].off + ly[i].lo.csum_off);
		c->ffff = ly[i].p->csum_ffff;
		c->crc = ly[i].lo.csum == WR_CSUM_CRC32C;
		c->start = ly[i].off;
		/* The payload is in an inner L4 region it takes whole. */
		c->payload = ly[i].lo.csum != WR_CSUM_HEADER && !c->crc &&
			     cancel_l4(ly, n, i) == n;
		c->pay_sh = ((t->pay_off - ly[i].off) & 1) ? 8 : 0;
		c->wide = cancel_l4(ly, n, i) < n; /* it adds CS_ZERO */
		for (j = i + 1; j < n; j++)
			if (map[j] >= 0 &&
			    wr_frame_covers(ly, i, (uint16_t)(ly[j].off + ly[j].lo.csum_off), 2,
					    &csh) &&
			    !in_cancelled(ly, n, i, (uint16_t)(ly[j].off + ly[j].lo.csum_off), 2)) {
				c->nest[c->n_nest] = (uint8_t)map[j];
				c->nest_sh[c->n_nest++] = csh;
			}
	}
	for (i = 0; i < t->n_vary; i++) {
		struct wr_vf *f = &t->vf[i];

		for (j = 0; j < f->n_acc; j++) {
			bool neg = f->acc[j] & ACC_NEG;
			uint8_t c = (uint8_t)map[f->acc[j] & ~ACC_NEG];

			f->acc[j] = neg ? (uint8_t)(WR_CSUMS_MAX + c) : c;
			t->cs[c].neg |= neg;
			/* Sums of shifted 6- and 8-byte values can pass 2^48. */
			if (f->width >= 6 || (f->width >= 4 && f->csh[j] != 0) ||
			    f->kind == WR_VF_WIDE)
				t->cs[c].wide = true;
		}
	}
	return 0;
}

/* Lengths that follow the size (variable sizes only). */
static int
build_lens(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n,
	   const int8_t *map)
{
	uint32_t i, c;
	uint8_t csh;

	for (i = 0; i < n; i++) {
		const struct lay *y = &ly[i];

		if (y->p->len_off >= 0) {
			struct wr_le *e = &t->le[t->n_le++];
			uint16_t at = (uint16_t)(y->off + y->p->len_off);

			e->off = at;
			e->sub = (uint16_t)(y->off + y->p->len_base);
			e->write = true;
			for (c = 0; c < n; c++)
				if (map[c] >= 0 && !t->cs[map[c]].crc &&
				    wr_frame_covers(ly, c, at, 2, &csh) &&
				    !in_cancelled(ly, n, c, at, 2) &&
				    acc_add(&e->n_acc, e->acc, e->csh, (uint8_t)map[c], csh) < 0)
					return -ENOTSUP;
		}
		if (y->p->pseudo_len && map[i] >= 0 && !t->cs[map[i]].crc) {
			struct wr_le *e = &t->le[t->n_le++];

			e->sub = y->off;
			e->write = false;
			e->n_acc = 1;
			e->acc[0] = (uint8_t)map[i];
			e->csh[0] = 0;
			/* Taken away by the checksums that take its region as a
			 * known total. */
			for (c = 0; c < i; c++)
				if (map[c] >= 0 && cancel_l4(ly, n, c) == i) {
					if (acc_add(&e->n_acc, e->acc, e->csh,
						    (uint8_t)(WR_CSUMS_MAX + map[c]), 0) < 0)
						return -ENOTSUP;
					t->cs[map[c]].neg = true;
				}
		}
	}
	return 0;
}

/*
 * The sums of everything that does not vary, over a scratch copy of the
 * frame where every varying bit, every rewritten checksum and, for variable
 * sizes, every length and the payload are zero: the per-packet code adds
 * exactly those back.
 */
static int
const_sums(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n,
	   const int8_t *map, bool size_varies)
{
	uint8_t *b = malloc(t->max_len), *b2 = malloc(t->max_len);
	uint32_t i, k, l4;
	uint64_t neg;

	if (b == NULL || b2 == NULL) {
		free(b);
		free(b2);
		return -ENOMEM;
	}
	memcpy(b, t->bytes, t->max_len);
	for (i = 0; i < t->n_vary; i++) {
		const struct wr_vf *f = &t->vf[i];

		if (f->width > 8)
			memset(b + f->off, 0, f->width);
		else
			wr_put_be(b + f->off, wr_get_be(b + f->off, f->width) & f->keep,
			       f->width);
	}
	for (i = 0; i < t->n_cs; i++)
		memset(b + t->cs[i].off, 0, t->cs[i].crc ? 4 : 2);
	if (size_varies) {
		for (k = 0; k < t->n_le; k++)
			if (t->le[k].write)
				wr_put16(b + t->le[k].off, 0);
		memset(b + t->pay_off, 0, t->max_len - t->pay_off);
	}
	for (i = 0; i < n; i++) {
		if (map[i] < 0 || t->cs[map[i]].crc)
			continue;
		/* The regions it takes as known totals count as those: zero,
		 * and minus the inner L4's pseudo-header (its constant part:
		 * the varying fields come with their sign). */
		l4 = cancel_l4(ly, n, i);
		memcpy(b2, b, t->max_len);
		for (k = i + 1; k < n; k++)
			if (in_cancelled(ly, n, i, ly[k].off, ly[k].hlen))
				memset(b2 + ly[k].off, 0, k == l4 ? t->max_len - ly[k].off :
				       ly[k].hlen);
		neg = l4 == n || ly[l4].lo.csum != WR_CSUM_PSEUDO ? 0 :
		      wr_frame_pseudo_sum(ly, l4, b) +
		      (size_varies || !ly[l4].p->pseudo_len ? 0 :
		       (uint16_t)(t->max_len - ly[l4].off));
		t->cs[map[i]].cconst =
			wr_frame_region_sum(ly, i, b2, t->max_len,
					    size_varies || !ly[i].p->pseudo_len ? 0 :
					    (uint16_t)(t->max_len - ly[i].off)) +
			(neg != 0 ? CS_ZERO - neg : 0);
	}
	free(b);
	free(b2);
	return 0;
}

/* Full checksums of packet 0, innermost first, straight from the RFCs. */
static void
template_csums(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n)
{
	uint32_t i;

	for (i = n; i-- > 0;) {
		uint8_t *c = t->bytes + ly[i].off + ly[i].lo.csum_off;
		uint16_t v;

		if (ly[i].lo.csum == WR_CSUM_NONE)
			continue;
		if (ly[i].lo.csum == WR_CSUM_CRC32C) {
			memset(c, 0, 4);
			crc_put(c, wr_crc32c(t->bytes + ly[i].off, t->max_len - ly[i].off));
			continue;
		}
		wr_put16(c, 0);
		if (wr_frame_csum_off(ly, n, i))
			continue;
		v = (uint16_t)~wr_csum_fold(wr_frame_region_sum(ly, i, t->bytes, t->max_len,
			ly[i].p->pseudo_len ? (uint16_t)(t->max_len - ly[i].off) : 0));
		wr_put16(c, v == 0 && ly[i].p->csum_ffff ? 0xffff : v);
	}
}

static void
template_lens(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (ly[i].p->len_off >= 0)
			wr_put16(t->bytes + ly[i].off + ly[i].p->len_off,
			      t->max_len - ly[i].off - ly[i].p->len_base);
}

/* Checksum offload: one IPv4 or IPv6 layer under one UDP or TCP, nothing
 * inside a tunnel. */
static void
build_offload(struct wr_frame_tmpl *t, const struct lay *ly, uint32_t n)
{
	struct wr_frame_offload *o = &t->offload;
	uint32_t i, n_l3 = 0;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < n; i++)
		n_l3 += ly[i].p->l3;
	if (n < 3 || n_l3 != 1 || !ly[0].p->link ||
	    (ly[n - 2].p->offload != WR_OL_IPV4 && ly[n - 2].p->offload != WR_OL_IPV6) ||
	    (ly[n - 1].p->offload != WR_OL_UDP && ly[n - 1].p->offload != WR_OL_TCP))
		return;
	/* l2_len is Ethernet and VLAN tags to a NIC: nothing else below. */
	for (i = 1; i + 2 < n; i++)
		if (!ly[i].p->tag)
			return;
	o->ok = true;
	o->l2_len = ly[n - 2].off;
	o->l3_len = ly[n - 2].hlen;
	o->ipv6 = ly[n - 2].p->offload == WR_OL_IPV6;
	o->tcp = ly[n - 1].p->offload == WR_OL_TCP;
	o->l4_csum_off = (uint16_t)(ly[n - 1].off + ly[n - 1].lo.csum_off);
}

/* ---- the template ---- */

void
wr_frame_stack_free(struct wr_frame_src *src)
{
	struct wr_frame_tmpl *t = tmpl_of(src);
	unsigned int i;

	for (i = 0; i < WR_FRAME_VARY_MAX; i++) {
		free(t->vf[i].list);
		free(t->vf[i].wlist);
	}
	for (i = 0; i < WR_CSUMS_MAX; i++)
		free(t->cs[i].crc_shift);
	free(t->size_tab);
	free(t->psum);
	free(t->bytes);
}

static int
build_psum(struct wr_frame_tmpl *t)
{
	uint32_t n = t->max_len - t->pay_off, k;
	const uint8_t *p = t->bytes + t->pay_off;
	uint64_t acc = 0;

	t->psum = malloc((n + 1) * sizeof(*t->psum));
	if (t->psum == NULL)
		return -ENOMEM;
	t->psum[0] = 0;
	for (k = 0; k < n; k++) {
		/* Byte k is the high byte of its word when k is even: the
		 * prefix of odd length ends with a zero-padded word. */
		acc += (k & 1) ? p[k] : (uint64_t)p[k] << 8;
		t->psum[k + 1] = wr_csum_fold(acc);
	}
	return 0;
}

/* Check the stream-level settings and every field of every layer. */
static int
check_stream(const struct wr_stream *s, const struct lay *ly, uint32_t n,
	     struct wr_error *err)
{
	uint32_t i, j;
	int rc;

	if (s->payload.kind == WR_PAYLOAD_PATTERN &&
	    (s->payload.len < 1 || s->payload.bytes == NULL))
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "payload", "pattern is empty");
	if (s->payload.kind == WR_PAYLOAD_STRING && s->payload.len > 0 &&
	    s->payload.bytes == NULL)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "payload", "string has no bytes");
	for (i = 0; i < n; i++)
		for (j = 0; j < ly[i].p->n_fields; j++) {
			rc = wr_frame_check_field(&ly[i].l->field[j], &ly[i].p->fields[j],
						  &ly[i], err);
			if (rc < 0)
				return rc;
		}
	return 0;
}

/* Fewer constant bytes than this after the last varying one: the whole
 * region is run (a shift costs four lookups and 4 KiB). */
#define CRC_TAIL_MIN 64

/* For a frame of one size, where each CRC's constant tail starts: after
 * every varying field, the signature and the CRC field itself. */
static int
crc_splits(struct wr_frame_tmpl *t)
{
	uint32_t i, j, end;

	for (i = 0; i < t->n_cs; i++) {
		struct wr_cs *c = &t->cs[i];

		if (!c->crc)
			continue;
		end = c->off + 4u;
		for (j = 0; j < t->n_vary; j++)
			if (t->vf[j].off >= c->start && t->vf[j].off + t->vf[j].width > end)
				end = t->vf[j].off + t->vf[j].width;
		if (t->sig_off != 0 && t->sig_off >= c->start)
			end = t->pay_off > end ? t->pay_off : end; /* the signature's end */
		if (end + CRC_TAIL_MIN > t->max_len)
			continue;
		c->crc_shift = malloc(sizeof(*c->crc_shift));
		if (c->crc_shift == NULL)
			return -ENOMEM;
		wr_crc32c_shift_init(c->crc_shift, t->max_len - end);
		c->crc_split = (uint16_t)end;
		c->crc_tail = wr_crc32c_update(0, t->bytes + end, t->max_len - end);
	}
	return 0;
}

/* "IPv4 20 + UDP 8" for the too-small message. */
static void
stack_parts(const struct lay *ly, uint32_t n, char *buf, size_t len)
{
	size_t k = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s %u", i ? " + " : "",
				      ly[i].p->name, ly[i].hlen);
}

static int
tmpl_build(struct wr_frame_tmpl *t, struct lay *ly, uint32_t n,
	   const struct wr_stream *s, struct wr_error *err)
{
	uint16_t min = 0, max = 0, len, hdr_len = 0;
	int8_t map[WR_LAYERS_MAX];
	uint32_t k, str_len;
	bool size_varies;
	int rc;

	rc = check_stream(s, ly, n, err);
	if (rc == 0)
		rc = wr_frame_stack_layout(ly, n, s, &hdr_len, err);
	if (rc < 0)
		return rc;
	t->product = s->combine == WR_COMBINE_PRODUCT;
	t->sig_off = s->latency ? hdr_len : 0;
	rc = wr_frame_build_sizes(t, s, &min, &max, err);
	if (rc < 0)
		return rc;
	/* A string payload is never cut to fit (wr_stream.h): the loader
	 * checks it, and so does this, for streams built by a subcommand
	 * that adds a signature after loading. */
	str_len = s->payload.kind == WR_PAYLOAD_STRING ? s->payload.len : 0;
	t->sig_kind = wr_sig_kind_for(s->sig_short, (uint32_t)(min - WR_FCS_LEN),
				      hdr_len + str_len);
	t->pay_off = hdr_len + (!s->latency ? 0 : wr_sig_len(t->sig_kind));
	if ((uint32_t)(min - WR_FCS_LEN) < t->pay_off + str_len) {
		char parts[256];

		stack_parts(ly, n, parts, sizeof(parts));
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "size",
				    "a %u-byte frame cannot hold its headers%s%s (%u bytes + %u FCS: %s)",
				    min, !s->latency ? "" : s->sig_short ?
				    " and loss signature" : " and latency signature",
				    str_len ? " and string payload" : "",
				    t->pay_off + str_len, WR_FCS_LEN, parts);
	}
	/* A layer that ends the frame (SCTP INIT) has nothing after it. */
	if (ly[n - 1].p->no_payload &&
	    (s->latency || min != max || (uint32_t)(max - WR_FCS_LEN) != hdr_len))
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "size", "%s ends the frame, nothing may follow it: "
				    "expected size %u (its headers and FCS) and no signature",
				    ly[n - 1].p->title, hdr_len + WR_FCS_LEN);
	size_varies = t->size_kind != WR_SZ_FIXED;
	t->max_len = max - WR_FCS_LEN;
	t->fixed_len = t->max_len;
	len = t->max_len;

	t->bytes = calloc(1, len);
	if (t->bytes == NULL)
		return -ENOMEM;
	wr_frame_write_layers(ly, n, s, t->bytes);
	for (k = 0; k < (uint32_t)(len - t->pay_off); k++)
		t->bytes[t->pay_off + k] = wr_frame_payload_byte(&s->payload, k);
	template_lens(t, ly, n);
	template_csums(t, ly, n);

	rc = build_fields(t, ly, n, s, err);
	if (rc < 0)
		return rc;
	if (build_csums(t, ly, n, size_varies, s->latency, map) < 0)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "stack", "more than %u checksums vary per packet",
				    WR_CSUMS_MAX);
	if (size_varies && build_lens(t, ly, n, map) < 0)
		return -ENOTSUP;
	rc = const_sums(t, ly, n, map, size_varies);
	if (rc == 0 && size_varies)
		rc = build_psum(t);
	if (rc < 0)
		return rc;
	/* The checksums over the signature, innermost first (sig_write). */
	for (k = n; k-- > 0;) {
		int8_t c = map[k];

		if (s->latency && c >= 0 && (t->cs[c].payload || t->cs[c].crc)) {
			t->sig_cs[t->n_sig_cs] = (uint8_t)c;
			t->sig_sh[t->n_sig_cs++] = ((t->sig_off - ly[k].off) & 1) ? 8 : 0;
		}
		t->proto[k] = ly[k].p;
		t->layer_off[k] = ly[k].off;
		t->layer_len[k] = ly[k].hlen;
	}
	t->n_layers = n;
	if (!size_varies) {
		rc = crc_splits(t);
		if (rc < 0)
			return rc;
	}
	build_offload(t, ly, n);
	t->is_static = t->n_vary == 0 && !size_varies && !s->latency;
	t->src.bytes = t->bytes;
	t->src.max_len = t->max_len;
	t->src.is_static = t->is_static;
	t->src.size_varies = size_varies;
	return 0;
}

bool
wr_frame_stack_wants(const struct wr_stream *s)
{
	(void)s;
	return true; /* every stream has a stack, the shorthand's at least */
}

int
wr_frame_stack_build(struct wr_frame_src *src, const struct wr_stream *s,
		     struct wr_error *err)
{
	struct wr_frame_tmpl *t = tmpl_of(src);
	struct lay *ly;
	uint32_t i;
	int rc;

	if (s->n_layers > WR_LAYERS_MAX)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "stack", "more than %u layers", WR_LAYERS_MAX);
	ly = calloc(WR_LAYERS_MAX, sizeof(*ly));
	if (ly == NULL)
		return -ENOMEM;
	for (i = 0; i < s->n_layers; i++) {
		ly[i].p = s->layers[i].proto;
		ly[i].l = &s->layers[i];
		/* Where the file wrote it; a stream built in code names the
		 * layer by its place. */
		if (s->layers[i].key[0] != '\0')
			snprintf(ly[i].key, sizeof(ly[i].key), "%s", s->layers[i].key);
		else
			snprintf(ly[i].key, sizeof(ly[i].key), "stack[%u].%s", i,
				 ly[i].p->name);
	}
	rc = tmpl_build(t, ly, s->n_layers, s, err);
	free(ly);
	return rc;
}

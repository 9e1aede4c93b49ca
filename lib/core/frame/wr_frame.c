/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame: compile a stream's layer stack into a template and a per-packet edit table, and run it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_replay_pcap.h"
#include "wr_csum.h"
#include "wr_fe.h"
#include "wr_frame.h"
#include "wr_pkt.h"
#include "wr_proto.h"
#include "wr_rng.h"
#include "wr_sig.h"

/*
 * Largest MIX cycle we tabulate (entries of 2 bytes: 2 MiB).  Weights are
 * first divided by their GCD, which leaves the smooth WRR order unchanged
 * (every "current" value scales by the GCD, so every comparison is the
 * same), so only weights with a huge reduced sum, e.g. 1000003:1, hit it.
 */
#define WR_SIZE_CYCLE_MAX (1u << 20)
/* Checksums rewritten per packet: outer IPv4 + outer UDP (VXLAN over
 * IPv6) + inner IPv4 + inner L4 is the deepest registered stack. */
#define WR_CSUMS_MAX 4
#define WR_LENS_MAX (2 * WR_LAYERS_MAX)
/* Checksums one field is in: its IP header, its L4 (pseudo-header), and an
 * outer UDP's that covers the whole inner frame (VXLAN over IPv6). */
#define WR_ACC_MAX 3
/* A multiple of 0xffff (0xffff * 0x100010001): zero to a one's-complement
 * sum, and above every sum taken away from it. */
#define CS_ZERO 0xffffffffffffull
/* Random sub-sequence tags of fields the fixed frame model did not have:
 * above the legacy ids (0..10) and WR_RNG_TAG_SIZE. */
#define WR_RNG_TAG_LAYER 0x200u

/* How a varying slot computes its value from its position. */
enum wr_vf_kind {
	WR_VF_ARITH,       /* INC/DEC: base + pos * delta (mod 2^64) */
	WR_VF_LIST,        /* list[pos] */
	WR_VF_RANDOM,      /* base + uniform [0, range) at the packet index */
	WR_VF_RANDOM_FULL, /* base + a whole 64-bit draw (a /64 prefix) */
	WR_VF_WIDE,        /* 128-bit values: see wkind */
};

/*
 * One varying field, compiled: where it goes and which running checksums
 * it is in.  The value v is stored as (v << shift), written as `width`
 * big-endian bytes keeping the bits in `keep` of what is there (fields
 * that share bytes: the VLAN TCI, DSCP/ECN, the IPv6 flow label), and
 * added to checksum accumulator acc[j] shifted by csh[j] (8 when the field
 * ends at an odd offset of that checksum's region: RFC 1071 byte swap).
 */
struct wr_vf {
	uint8_t kind;
	uint8_t wkind;   /* WIDE: WR_VF_ARITH, _LIST or _RANDOM */
	uint8_t width;   /* 1, 2, 3, 4, 6, 8 or 16 bytes */
	uint8_t shift;
	uint8_t n_acc;
	uint8_t acc[WR_ACC_MAX];
	uint8_t csh[WR_ACC_MAX];
	uint16_t off;
	uint64_t keep;
	uint64_t base;
	uint64_t delta;  /* ARITH: step (two's complement for DEC) */
	uint64_t period; /* ARITH, LIST: number of values */
	uint64_t range;  /* RANDOM: to - from + 1 */
	uint64_t thresh; /* RANDOM: Lemire threshold of range */
	uint64_t key;    /* RANDOM: sub-sequence key */
	uint64_t *list;  /* LIST: owned */
	__uint128_t wbase, wdelta;
	__uint128_t *wlist;  /* WIDE LIST: owned */
	uint64_t whi_mask;   /* WIDE RANDOM: random bits of the high half */
};

/* A checksum rewritten per packet, innermost first. */
struct wr_cs {
	uint16_t off;      /* of the checksum field */
	/* Inner checksums (earlier in cs[]) inside its region: their final
	 * values are added, shifted by nest_sh, before it is folded. */
	uint8_t n_nest;
	uint8_t nest[WR_CSUMS_MAX];
	uint8_t nest_sh[WR_CSUMS_MAX];
	bool ffff;         /* 0 is sent as 0xffff (UDP) */
	bool wide;         /* sums may pass 2^48: fold all 64 bits */
	/* Fields of an inner pseudo-header it takes away (see cancel_l4):
	 * they are summed in accumulator WR_CSUMS_MAX + its index, and the
	 * fold adds CS_ZERO minus that. */
	bool neg;
	/* A CRC32c (SCTP) over [start, end of frame), computed whole from the
	 * frame's bytes once everything under it is written; as an inner
	 * checksum it adds the one's-complement sum of its 4 bytes. */
	bool crc;
	uint16_t start;
	/* Of a fixed size whose bytes from crc_split on never change (the
	 * payload): the register over those is the register before them
	 * shifted (crc_shift) xor crc_tail, so only the bytes before are
	 * run per frame.  0: the whole region is. */
	uint16_t crc_split;
	uint32_t crc_tail;
	struct wr_crc32c_shift *crc_shift; /* owned */
	bool payload;      /* the region runs to the end of the frame */
	uint8_t pay_sh;    /* the payload starts at an odd offset of it: 8 */
	uint64_t cconst;   /* sum of everything in it that never changes */
};

/* A length that follows the frame size: len - sub, written at off (if
 * write) and added to accumulators acc[] shifted by csh[]. */
struct wr_le {
	uint16_t off;
	uint16_t sub;
	bool write;
	uint8_t n_acc;
	uint8_t acc[WR_ACC_MAX];
	uint8_t csh[WR_ACC_MAX];
};

enum wr_size_kind {
	WR_SZ_FIXED,
	WR_SZ_TABLE,  /* INC and MIX: a precomputed cycle */
	WR_SZ_RANDOM,
};

struct wr_frame_tmpl {
	/* A frame: stream with TRex's field engine: everything is its own
	 * (wr_fe.h), the rest of this struct unused. */
	struct wr_fe_tmpl *fe;
	uint8_t *bytes;      /* packet 0 at max size, FCS excluded */
	uint16_t max_len;
	uint16_t fixed_len;  /* frame length when sizes are FIXED */
	uint16_t sig_off;    /* 0 when no signature */
	uint8_t sig_kind;    /* WR_SIG_KIND_*: which signature (wr_sig.h) */
	uint16_t pay_off;    /* first payload byte (the signature's, if any) */
	bool product;
	bool is_static;
	uint32_t stream_id;
	uint32_t n_vary;
	uint32_t n_seq;
	uint32_t n_cs;
	uint32_t n_le;
	struct wr_cs cs[WR_CSUMS_MAX];
	struct wr_le le[WR_LENS_MAX];
	/* Checksums the signature is in (indices into cs[]), with parity. */
	uint32_t n_sig_cs;
	uint8_t sig_cs[WR_CSUMS_MAX];
	uint8_t sig_sh[WR_CSUMS_MAX];
	struct wr_frame_offload offload;
	/* The stack, for `check` and the parser's tests. */
	uint32_t n_layers;
	const struct wr_proto *proto[WR_LAYERS_MAX];
	uint16_t layer_off[WR_LAYERS_MAX];
	uint16_t layer_len[WR_LAYERS_MAX];
	/* Sizes. */
	uint8_t size_kind;
	uint16_t size_from;        /* RANDOM */
	uint64_t size_range;       /* RANDOM */
	uint64_t size_thresh;      /* RANDOM */
	uint64_t size_key;         /* RANDOM */
	uint16_t *size_tab;        /* TABLE: sizes incl. FCS */
	uint64_t size_cycle;       /* TABLE: entries */
	/*
	 * psum[n]: one's-complement sum of the first n payload bytes, for every
	 * n up to the largest payload (variable sizes only).
	 */
	uint16_t *psum;
	struct wr_vf vf[WR_FRAME_VARY_MAX];
};

static int
check_size(uint16_t size, const struct wr_stream *s, struct wr_error *err)
{
	if (size < WR_FRAME_MIN || size > WR_FRAME_MAX)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "size", "frame size %u is outside %u..%u",
				    size, WR_FRAME_MIN, WR_FRAME_MAX);
	return 0;
}

static uint64_t
gcd64(uint64_t a, uint64_t b)
{
	while (b != 0) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/* Fill t's size description and the smallest and largest size (incl. FCS). */
static int
build_sizes(struct wr_frame_tmpl *t, const struct wr_stream *s,
	    uint16_t *min, uint16_t *max, struct wr_error *err)
{
	const struct wr_size_spec *z = &s->size;
	uint64_t i, total, g;
	int64_t *cur;
	uint32_t j;
	int rc;

	switch (z->mode) {
	case WR_SIZE_FIXED:
		rc = check_size(z->fixed, s, err);
		if (rc < 0)
			return rc;
		t->size_kind = WR_SZ_FIXED;
		*min = *max = z->fixed;
		return 0;
	case WR_SIZE_INC:
		if ((rc = check_size(z->from, s, err)) < 0 ||
		    (rc = check_size(z->to, s, err)) < 0)
			return rc;
		if (z->step < 1 || z->from > z->to)
			return wr_error_set(err, -EINVAL, NULL, s->mark.line,
					    s->mark.col, "size",
					    "inc needs from <= to and step >= 1");
		t->size_cycle = (uint64_t)(z->to - z->from) / z->step + 1;
		t->size_tab = malloc(t->size_cycle * sizeof(*t->size_tab));
		if (t->size_tab == NULL)
			return -ENOMEM;
		for (i = 0; i < t->size_cycle; i++)
			t->size_tab[i] = (uint16_t)(z->from + i * z->step);
		t->size_kind = t->size_cycle > 1 ? WR_SZ_TABLE : WR_SZ_FIXED;
		*min = z->from;
		*max = t->size_tab[t->size_cycle - 1];
		return 0;
	case WR_SIZE_RANDOM:
		if ((rc = check_size(z->from, s, err)) < 0 ||
		    (rc = check_size(z->to, s, err)) < 0)
			return rc;
		if (z->from > z->to)
			return wr_error_set(err, -EINVAL, NULL, s->mark.line,
					    s->mark.col, "size",
					    "random needs from <= to");
		t->size_kind = z->from == z->to ? WR_SZ_FIXED : WR_SZ_RANDOM;
		t->size_from = z->from;
		t->size_range = (uint64_t)(z->to - z->from) + 1;
		t->size_thresh = wr_rng_threshold(t->size_range);
		t->size_key = wr_rng_key(s->seed, WR_RNG_TAG_SIZE);
		*min = z->from;
		*max = z->to;
		return 0;
	case WR_SIZE_MIX:
		if (z->n_mix < 1 || z->mix == NULL)
			return wr_error_set(err, -EINVAL, NULL, s->mark.line,
					    s->mark.col, "size", "mix is empty");
		g = 0;
		*min = UINT16_MAX;
		*max = 0;
		for (j = 0; j < z->n_mix; j++) {
			if ((rc = check_size(z->mix[j].size, s, err)) < 0)
				return rc;
			if (z->mix[j].weight < 1)
				return wr_error_set(err, -EINVAL, NULL, s->mark.line,
						    s->mark.col, "size",
						    "mix weight of %u must be at least 1",
						    z->mix[j].size);
			g = gcd64(g, z->mix[j].weight);
			if (z->mix[j].size < *min)
				*min = z->mix[j].size;
			if (z->mix[j].size > *max)
				*max = z->mix[j].size;
		}
		total = 0;
		for (j = 0; j < z->n_mix; j++)
			total += z->mix[j].weight / g;
		if (total > WR_SIZE_CYCLE_MAX)
			return wr_error_set(err, -EINVAL, NULL, s->mark.line,
					    s->mark.col, "size",
					    "mix cycle of %llu frames (weights divided by their GCD) exceeds %u",
					    (unsigned long long)total,
					    WR_SIZE_CYCLE_MAX);
		t->size_cycle = total;
		t->size_tab = malloc(total * sizeof(*t->size_tab));
		cur = calloc(z->n_mix, sizeof(*cur));
		if (t->size_tab == NULL || cur == NULL) {
			free(cur);
			return -ENOMEM;
		}
		/* nginx's smooth weighted round-robin: every slot, each entry
		 * gains its weight, the largest (first on ties) is picked and
		 * loses the total.  Over `total` slots each entry is picked
		 * exactly `weight` times, interleaved rather than in runs. */
		for (i = 0; i < total; i++) {
			uint32_t best = 0;

			for (j = 0; j < z->n_mix; j++) {
				cur[j] += z->mix[j].weight / g;
				if (cur[j] > cur[best])
					best = j;
			}
			cur[best] -= (int64_t)total;
			t->size_tab[i] = z->mix[best].size;
		}
		free(cur);
		t->size_kind = total > 1 ? WR_SZ_TABLE : WR_SZ_FIXED;
		return 0;
	default:
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "size", "unknown size mode %d", (int)z->mode);
	}
}

static uint8_t
payload_byte(const struct wr_payload_spec *ps, uint32_t k)
{
	switch (ps->kind) {
	case WR_PAYLOAD_PATTERN:
		return ps->bytes[k % ps->len];
	case WR_PAYLOAD_STRING:
		return k < ps->len ? ps->bytes[k] : 0;
	case WR_PAYLOAD_INC:
		return (uint8_t)k;
	case WR_PAYLOAD_ZEROS:
	default:
		return 0;
	}
}

/* SCTP carries its CRC32c little-endian (RFC 9260 appendix A; Linux's
 * sctp_compute_cksum). */
static inline void
crc_put(uint8_t *p, uint32_t crc)
{
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
}

/* ---- the stack ---- */

/* What the compiler knows of one layer. */
struct lay {
	const struct wr_proto *p;
	const struct wr_layer *l;
	uint16_t off;
	uint16_t hlen;
	struct wr_layout lo;   /* this frame's header of it (wr_proto_layout) */
	struct wr_field_spec eff[WR_PROTO_FIELDS_MAX]; /* with defaults resolved */
	char key[48];   /* "ipv4" (a shorthand key) or "stack[2].ipv4" */
	bool first;     /* the first layer of its protocol */
};

static __uint128_t
bits_max(unsigned int bits)
{
	return bits >= 128 ? ~(__uint128_t)0 : ((__uint128_t)1 << bits) - 1;
}

/* A value for messages: decimal below 2^64, else hex. */
static const char *
u128_str(__uint128_t v, char *buf, size_t len)
{
	if (v >> 64 == 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "0x%llx%016llx", (unsigned long long)(v >> 64),
			 (unsigned long long)v);
	return buf;
}

static int
lay_fail(struct wr_error *err, const struct lay *y, const char *field,
	 const char *fmt, const char *a, const char *b)
{
	char key[96];

	if (field != NULL)
		snprintf(key, sizeof(key), "%s.%s", y->key, field);
	else
		snprintf(key, sizeof(key), "%s", y->key);
	return wr_error_set(err, -EINVAL, NULL, y->l->mark.line,
			    y->l->mark.col, key, fmt, a, b);
}

static int
check_field(const struct wr_field_spec *fs, const struct wr_proto_field *pf,
	    const struct lay *y, struct wr_error *err)
{
	__uint128_t max = bits_max(pf->bits);
	char a[48], b[48], w[16];
	uint32_t i;

	snprintf(w, sizeof(w), "%u", pf->bits);
	switch (fs->mode) {
	case WR_VARY_FIXED:
		if (fs->value > max)
			return lay_fail(err, y, pf->name, "value %s does not fit %s bits",
					u128_str(fs->value, a, sizeof(a)), w);
		return 0;
	case WR_VARY_INC:
	case WR_VARY_DEC:
		if (fs->step < 1)
			return lay_fail(err, y, pf->name, "step must be at least 1%s%s",
					"", "");
		if (fs->mode == WR_VARY_INC ? fs->from > fs->to : fs->from < fs->to)
			return lay_fail(err, y, pf->name, "%s needs from %s to",
					wr_vary_mode_name(fs->mode),
					fs->mode == WR_VARY_INC ? "<=" : ">=");
		if (wr_field_period(fs) == UINT64_MAX)
			return lay_fail(err, y, pf->name,
					"%s%s over 2^64 or more values: use random",
					wr_vary_mode_name(fs->mode), "");
		/* fall through */
	case WR_VARY_RANDOM:
		if (fs->from > max || fs->to > max) {
			char r[100];

			snprintf(r, sizeof(r), "%s..%s",
				 u128_str(fs->from, a, sizeof(a)),
				 u128_str(fs->to, b, sizeof(b)));
			return lay_fail(err, y, pf->name, "range %s does not fit %s bits",
					r, w);
		}
		if (fs->mode == WR_VARY_RANDOM && fs->from > fs->to)
			return lay_fail(err, y, pf->name, "random needs from <= to%s%s",
					"", "");
		if (fs->mode == WR_VARY_RANDOM &&
		    (fs->to - fs->from) >> 64 != 0) {
			__uint128_t r = fs->to - fs->from + 1;

			/* More than 2^64 values: a prefix, drawn as bits. */
			if (r != 0 && ((r & (r - 1)) != 0 || (fs->from & (r - 1)) != 0))
				return lay_fail(err, y, pf->name,
						"a random range of more than 2^64 values must be a prefix such as %s%s",
						"2001:db8::/48", "");
		}
		return 0;
	case WR_VARY_LIST:
		if (fs->list_len < 1 || fs->list == NULL)
			return lay_fail(err, y, pf->name, "list is empty%s%s", "", "");
		for (i = 0; i < fs->list_len; i++)
			if (fs->list[i] > max) {
				char what[96];

				snprintf(what, sizeof(what), "list[%u] = %s", i,
					 u128_str(fs->list[i], a, sizeof(a)));
				return lay_fail(err, y, pf->name, "%s does not fit %s bits",
						what, w);
			}
		return 0;
	default:
		return lay_fail(err, y, pf->name, "unknown variation mode%s%s", "", "");
	}
}

static bool
field_varies(const struct wr_field_spec *fs)
{
	switch (fs->mode) {
	case WR_VARY_RANDOM:
		return fs->from != fs->to;
	case WR_VARY_INC:
	case WR_VARY_DEC:
	case WR_VARY_LIST:
		return wr_field_period(fs) > 1;
	default:
		return false;
	}
}

/* The value a fixed spec holds (packet 0's for a varying one). */
static __uint128_t
spec_value0(const struct wr_field_spec *fs, uint64_t key)
{
	return wr_field_value_at(fs, key, 0);
}

static uint64_t
field_key(const struct wr_stream *s, const struct lay *y, unsigned int li,
	  unsigned int fi)
{
	const struct wr_proto_field *pf = &y->p->fields[fi];

	/* The fixed model's tags for its fields, so old files draw the
	 * same values; every other field its own sub-sequence. */
	if (pf->legacy_tag != 0 && y->first)
		return wr_rng_key(s->seed, pf->legacy_tag - 1u);
	return wr_rng_key(s->seed, WR_RNG_TAG_LAYER + li * 32u + fi);
}

/*
 * Extension headers (IPv6's) sit on an IP layer of their version, in an
 * order RFC 8200 section 4.1 allows: each takes the lowest of its ranks
 * above the previous one's (hop-by-hop 1, destination options 2 or 5,
 * routing 3, fragment 4), so hop-by-hop comes first, each comes once, and
 * destination options at most twice, before routing and last.
 */
static int
ext_order(const struct lay *ly, uint32_t n, struct wr_error *err)
{
	unsigned int prev = 0, r;
	uint32_t i, b;

	for (i = 0; i < n; i++) {
		const struct wr_proto *p = ly[i].p;

		if (p->ext_of == 0) {
			prev = 0;
			continue;
		}
		for (b = i; b > 0 && ly[b - 1].p->ext_of != 0; b--)
			;
		if (b == 0 || ly[b - 1].p->ip_version != p->ext_of) {
			char v[8];

			snprintf(v, sizeof(v), "%u", p->ext_of);
			return lay_fail(err, &ly[i], NULL,
					"an extension header goes on an IPv%s layer or "
					"another extension header%s", v, "");
		}
		for (r = prev + 1; r <= 7 && !(p->ext_ranks >> r & 1); r++)
			;
		if (r > 7)
			return lay_fail(err, &ly[i], NULL, "%s%s out of the order RFC 8200 "
					"section 4.1 gives: hop-by-hop first, then destination "
					"options, routing, fragment, destination options",
					p->name, "");
		prev = r;
	}
	return 0;
}

/*
 * Lay the stack out and resolve what each layer says about its neighbours:
 * offsets, the "next protocol" fields left at their defaults, MPLS bottom
 * of stack, a layer that cannot carry the one above it.
 */
static int
stack_layout(struct lay *ly, uint32_t n, const struct wr_stream *s,
	     uint16_t *hdr_len, struct wr_error *err)
{
	char why[320], links[64];
	uint32_t i, j, k;
	uint16_t off = 0;
	int rc;

	for (i = 0; i < n; i++) {
		struct lay *y = &ly[i];

		if (y->p->n_fields > WR_PROTO_FIELDS_MAX)
			return -EINVAL;
		y->off = off;
		if (y->p->hlen == 0 && (y->l->raw_len == 0 || y->l->raw == NULL))
			return lay_fail(err, y, "hex", "a raw layer needs at least one byte%s%s",
					"", "");
		if (wr_proto_layout(y->l, &y->lo) < 0)
			return lay_fail(err, y, NULL, "%s%s", y->lo.why, "");
		y->hlen = y->lo.hlen;
		off = (uint16_t)(off + y->hlen);
		y->first = true;
		for (k = 0; k < i; k++)
			if (ly[k].p == y->p)
				y->first = false;
		for (j = 0; j < y->p->n_fields; j++)
			y->eff[j] = y->l->field[j];
	}
	rc = ext_order(ly, n, err);
	if (rc < 0)
		return rc;
	if (n == 0 || !ly[0].p->link)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "stack", "expected %s as the first layer, got %s",
				    wr_proto_link_names(links, sizeof(links)),
				    n == 0 ? "nothing" : ly[0].p->name);
	for (i = 0; i < n; i++) {
		struct lay *y = &ly[i];
		const struct lay *a = i + 1 < n ? &ly[i + 1] : NULL;

		if (a != NULL && wr_proto_carry_error(y->p, a->p, why, sizeof(why)) != NULL)
			return wr_error_set(err, -EINVAL, NULL, a->l->mark.line,
					    a->l->mark.col, a->key,
					    "%s cannot carry %s: expected %s",
					    y->p->name, a->p->name, why);
		if (a == NULL && y->p->carry == WR_CARRY_ETH)
			return lay_fail(err, y, NULL,
					"%s needs an inner frame: expected an eth layer after it%s",
					y->p->name, "");
		for (j = 0; j < y->p->n_fields; j++) {
			const struct wr_proto_field *pf = &y->p->fields[j];
			struct wr_field_spec *fs = &y->eff[j];
			int mine;

			if (y->l->set[j] && pf->role != WR_ROLE_BOTTOM)
				continue;
			switch (pf->role) {
			case WR_ROLE_NEXT_ETHERTYPE:
				if (a == NULL)
					break;
				mine = wr_proto_field_role(a->p, WR_ROLE_MY_ETHERTYPE);
				/* A tag's TPID is written here, varying or not. */
				if (mine >= 0)
					*fs = a->eff[mine];
				else if (a->p->ethertype != 0)
					wr_field_fixed(fs, a->p->ethertype);
				else
					return lay_fail(err, y, pf->name,
							"the layer above (%s) has no EtherType: give %s",
							a->p->name, pf->name);
				break;
			case WR_ROLE_NEXT_IPPROTO:
				if (a == NULL)
					break;
				if (a->p->ipproto == 0 && !a->p->ipproto_zero)
					return lay_fail(err, y, pf->name,
							"the layer above (%s) has no IP protocol number: give %s",
							a->p->name, pf->name);
				wr_field_fixed(fs, a->p->ipproto);
				break;
			case WR_ROLE_NEXT_UDP_PORT:
				if (a != NULL && a->p->udp_port != 0)
					wr_field_fixed(fs, a->p->udp_port);
				break;
			case WR_ROLE_BOTTOM:
				if (!y->l->set[j])
					wr_field_fixed(fs, a == NULL || a->p != y->p);
				break;
			default:
				break;
			}
		}
	}
	*hdr_len = off;
	return 0;
}

/* Write packet 0's header bytes. */
static void
write_layers(const struct lay *ly, uint32_t n, const struct wr_stream *s,
	     uint8_t *b)
{
	uint32_t i, j;

	for (i = 0; i < n; i++) {
		const struct lay *y = &ly[i];
		uint8_t *h = b + y->off;

		memcpy(h, y->lo.bytes, y->hlen);
		for (j = 0; j < y->p->n_fields; j++) {
			const struct wr_proto_field *pf = &y->p->fields[j];
			const uint16_t at = y->lo.off[j];
			__uint128_t v = spec_value0(&y->eff[j],
						    field_key(s, y, i, j));

			if (pf->role == WR_ROLE_MY_ETHERTYPE || at == WR_OFF_NONE ||
			    ((y->lo.computed >> j & 1) && !y->l->set[j]))
				continue;
			if (pf->span == 16) {
				wr_put128(h + at, v);
			} else {
				uint64_t m = (uint64_t)bits_max(pf->bits) << pf->shift;
				uint64_t cur = (uint64_t)wr_get_be(h + at, pf->span);

				wr_put_be(h + at, (cur & ~m) | ((uint64_t)v << pf->shift),
					  pf->span);
			}
		}
	}
}

/* The IP layer an L4 checksum at layer i takes its pseudo-header from:
 * the one below it, past any extension headers (RFC 8200 section 8.1). */
static const struct lay *
pseudo_ip(const struct lay *ly, uint32_t i)
{
	while (i > 0 && ly[i - 1].p->ext_of != 0)
		i--;
	return i > 0 && ly[i - 1].p->l3 ? &ly[i - 1] : NULL;
}

/* An extension header between that IP layer and layer i that holds the
 * final destination the pseudo-header takes (a routing header), or NULL. */
static const struct lay *
pseudo_final(const struct lay *ly, uint32_t i)
{
	const struct lay *f = NULL;

	while (i > 0 && ly[i - 1].p->ext_of != 0) {
		if (ly[i - 1].lo.final_dst != 0 && f == NULL)
			f = &ly[i - 1];
		i--;
	}
	return f;
}

/* Is field j of layer li in the pseudo-header of the L4 checksum of layer
 * c: an address of its IP layer (the destination unless a routing header
 * names the final one), or the protocol number of the layer right below? */
static bool
in_pseudo(const struct lay *ly, uint32_t c, uint32_t li, unsigned int j)
{
	const struct wr_proto_field *pf = &ly[li].p->fields[j];
	const struct lay *ip = pseudo_ip(ly, c);

	if (ly[c].lo.csum != WR_CSUM_PSEUDO || ip == NULL)
		return false;
	if (&ly[li] == ip && (pf->role == WR_ROLE_SRC_ADDR ||
			      (pf->role == WR_ROLE_DST_ADDR && pseudo_final(ly, c) == NULL)))
		return true;
	return li + 1 == c && pf->role == WR_ROLE_NEXT_IPPROTO;
}

/* Sum of the pseudo-header (RFC 768 / RFC 8200 8.1) of layer i over
 * bytes @p b, without the length: addresses and protocol.  Both forms sum
 * to src + dst + protocol + length. */
static uint64_t
pseudo_sum(const struct lay *ly, uint32_t i, const uint8_t *b)
{
	const struct lay *ip = pseudo_ip(ly, i), *fin = pseudo_final(ly, i);
	const struct lay *below = &ly[i - 1];
	uint64_t sum = 0;
	int j;

	if (ip == NULL)
		return 0;
	for (j = 0; j < ip->p->n_fields; j++) {
		const struct wr_proto_field *pf = &ip->p->fields[j];

		if (pf->role == WR_ROLE_SRC_ADDR ||
		    (pf->role == WR_ROLE_DST_ADDR && fin == NULL))
			sum += wr_csum_sum(b + ip->off + ip->lo.off[j], pf->span);
		else if (pf->role == WR_ROLE_DST_ADDR)
			sum += wr_csum_sum(b + fin->off + fin->lo.final_dst, pf->span);
	}
	j = wr_proto_field_role(below->p, WR_ROLE_NEXT_IPPROTO);
	if (j >= 0)
		sum += b[below->off + below->lo.off[j]];
	return sum;
}

/* Sum of checksum region of layer i in @p b (len bytes), pseudo-header
 * included, with @p l4len as its length. */
static uint64_t
region_sum(const struct lay *ly, uint32_t i, const uint8_t *b, uint16_t end,
	   uint16_t l4len)
{
	const struct lay *y = &ly[i];

	switch (y->lo.csum) {
	case WR_CSUM_HEADER:
		return wr_csum_sum(b + y->off, y->hlen);
	case WR_CSUM_PSEUDO:
		return pseudo_sum(ly, i, b) + l4len +
		       wr_csum_sum(b + y->off, end - y->off);
	case WR_CSUM_PLAIN:
		return wr_csum_sum(b + y->off, end - y->off);
	default:
		return 0;
	}
}

/* A checksum the layer sends as 0 (a UDP under VXLAN), or none at all. */
static bool
csum_off(const struct lay *ly, uint32_t n, uint32_t i)
{
	const struct lay *ip = pseudo_ip(ly, i);

	return ly[i].lo.csum == WR_CSUM_NONE ||
	       (i + 1 < n && ly[i + 1].p->zero_udp_csum_below &&
		!(ip != NULL && ip->p->l4_csum_required));
}

/* Is byte range [off, off + w) in layer i's checksum?  *csh its parity. */
static bool
covers(const struct lay *ly, uint32_t i, uint16_t off, uint16_t w,
       uint8_t *csh)
{
	const struct lay *y = &ly[i];
	uint16_t end = y->lo.csum == WR_CSUM_HEADER ? y->off + y->hlen : UINT16_MAX;

	if (off < y->off || off + w > end)
		return false;
	*csh = ((off + w - y->off) & 1) ? 8 : 0;
	return true;
}

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
		if (csum_off(ly, n, i) || ly[i].lo.csum == WR_CSUM_HEADER)
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
		if (ly[i].lo.csum == WR_CSUM_CRC32C && !csum_off(ly, n, i))
			break;
		if (ly[i].lo.csum == WR_CSUM_HEADER && !csum_off(ly, n, i) &&
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
		if (csum_off(ly, n, c) || ly[c].lo.csum == WR_CSUM_CRC32C)
			continue;
		pos = covers(ly, c, off, w, &csh) && !in_cancelled(ly, n, c, off, w);
		/* An address or the protocol below an L4 checksum is in
		 * its pseudo-header, as the low byte of a word (protocol)
		 * or whole words (addresses). */
		if (!pos && in_pseudo(ly, c, li, j)) {
			pos = true;
			csh = 0;
		}
		l4 = cancel_l4(ly, n, c);
		neg = l4 < n && in_pseudo(ly, l4, li, j);
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
			  ~((uint64_t)bits_max(pf->bits) << pf->shift);
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

				if (!field_varies(fs) || pf->role == WR_ROLE_MY_ETHERTYPE ||
				    ly[i].lo.off[j] == WR_OFF_NONE)
					continue;
				if ((fs->mode == WR_VARY_RANDOM) != (pass == 1))
					continue;
				if (k == WR_FRAME_VARY_MAX)
					return lay_fail(err, &ly[i], pf->name,
							"more than %s varying fields in one stream%s",
							"64", "");
				rc = build_vf(f, fs, pf, (uint16_t)(ly[i].off + ly[i].lo.off[j]),
					      field_key(s, &ly[i], i, j));
				if (rc < 0)
					return rc;
				rc = field_accs(ly, n, i, j, f->off, f->width, f);
				if (rc < 0)
					return lay_fail(err, &ly[i], pf->name,
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
		if (csum_off(ly, n, i))
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
				    covers(ly, i, (uint16_t)(ly[j].off + ly[j].p->len_off),
					   2, &csh))
					active[i] = true;
	}
	/* An outer checksum over a rewritten inner one is rewritten too. */
	for (i = n; i-- > 0;)
		for (j = 0; active[i] && j < i; j++)
			if (!csum_off(ly, n, j) &&
			    covers(ly, j, (uint16_t)(ly[i].off + ly[i].lo.csum_off), 2,
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
			    covers(ly, i, (uint16_t)(ly[j].off + ly[j].lo.csum_off), 2,
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
				    covers(ly, c, at, 2, &csh) &&
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
		      pseudo_sum(ly, l4, b) +
		      (size_varies || !ly[l4].p->pseudo_len ? 0 :
		       (uint16_t)(t->max_len - ly[l4].off));
		t->cs[map[i]].cconst =
			region_sum(ly, i, b2, t->max_len,
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
		if (csum_off(ly, n, i))
			continue;
		v = (uint16_t)~wr_csum_fold(region_sum(ly, i, t->bytes, t->max_len,
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

/* ---- template ---- */

void
wr_frame_tmpl_free(struct wr_frame_tmpl *t)
{
	unsigned int i;

	if (t == NULL)
		return;
	for (i = 0; i < WR_FRAME_VARY_MAX; i++) {
		free(t->vf[i].list);
		free(t->vf[i].wlist);
	}
	for (i = 0; i < WR_CSUMS_MAX; i++)
		free(t->cs[i].crc_shift);
	free(t->size_tab);
	free(t->psum);
	free(t->bytes);
	wr_fe_tmpl_free(t->fe);
	free(t);
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
			rc = check_field(&ly[i].l->field[j], &ly[i].p->fields[j],
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
		rc = stack_layout(ly, n, s, &hdr_len, err);
	if (rc < 0)
		return rc;
	t->product = s->combine == WR_COMBINE_PRODUCT;
	t->sig_off = s->latency ? hdr_len : 0;
	rc = build_sizes(t, s, &min, &max, err);
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
	write_layers(ly, n, s, t->bytes);
	for (k = 0; k < (uint32_t)(len - t->pay_off); k++)
		t->bytes[t->pay_off + k] = payload_byte(&s->payload, k);
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
	return 0;
}

int
wr_frame_tmpl_create(const struct wr_stream *s, uint32_t stream_id,
		     struct wr_frame_tmpl **out, struct wr_error *err)
{
	struct wr_frame_tmpl *t = NULL;
	struct lay *ly = NULL;
	int rc = -ENOMEM;
	uint32_t i;

	*out = NULL;
	if (s->fe != NULL) {
		t = calloc(1, sizeof(*t));
		if (t == NULL)
			return -ENOMEM;
		t->stream_id = stream_id;
		rc = wr_fe_tmpl_create(s->fe, s->seed, &t->fe, err);
		if (rc != 0) {
			if (err != NULL && err->line == 0) {
				err->line = s->mark.line;
				err->col = s->mark.col;
			}
			free(t);
			return rc;
		}
		*out = t;
		return 0;
	}
	if (s->n_layers > WR_LAYERS_MAX)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "stack", "more than %u layers", WR_LAYERS_MAX);
	ly = calloc(WR_LAYERS_MAX, sizeof(*ly));
	t = calloc(1, sizeof(*t));
	if (ly == NULL || t == NULL)
		goto done;
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
	t->stream_id = stream_id;
	rc = tmpl_build(t, ly, s->n_layers, s, err);
done:
	free(ly);
	if (rc < 0) {
		wr_frame_tmpl_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

const uint8_t *
wr_frame_tmpl_bytes(const struct wr_frame_tmpl *t)
{
	return t->fe != NULL ? wr_fe_tmpl_bytes(t->fe) : t->bytes;
}

uint16_t
wr_frame_tmpl_max_len(const struct wr_frame_tmpl *t)
{
	return t->fe != NULL ? wr_fe_tmpl_max_len(t->fe) : t->max_len;
}

bool
wr_frame_tmpl_is_static(const struct wr_frame_tmpl *t)
{
	return t->fe != NULL ? wr_fe_tmpl_is_static(t->fe) : t->is_static;
}

bool
wr_frame_tmpl_size_varies(const struct wr_frame_tmpl *t)
{
	return t->fe != NULL ? wr_fe_tmpl_size_varies(t->fe) :
			       t->size_kind != WR_SZ_FIXED;
}

uint16_t
wr_frame_tmpl_sig_off(const struct wr_frame_tmpl *t)
{
	return t->sig_off;
}

int
wr_frame_tmpl_sig_kind(const struct wr_frame_tmpl *t)
{
	return t->sig_off != 0 ? t->sig_kind : -1;
}

const struct wr_frame_offload *
wr_frame_tmpl_offload(const struct wr_frame_tmpl *t)
{
	return &t->offload;
}

uint32_t
wr_frame_tmpl_layers(const struct wr_frame_tmpl *t,
		     const struct wr_proto **proto, uint16_t *off)
{
	uint32_t i;

	for (i = 0; i < t->n_layers; i++) {
		if (proto != NULL)
			proto[i] = t->proto[i];
		if (off != NULL)
			off[i] = t->layer_off[i];
	}
	return t->n_layers;
}

int
wr_frame_tmpl_rx_hint(const struct wr_frame_tmpl *t, struct wr_pkt_raw *out)
{
	const struct wr_proto *below;
	uint32_t i;
	int j;

	for (i = 1; i < t->n_layers; i++) {
		if (t->proto[i]->hlen != 0)
			continue;
		below = t->proto[i - 1];
		j = below->carry == WR_CARRY_ETHERTYPE ?
		    wr_proto_field_role(below, WR_ROLE_NEXT_ETHERTYPE) :
		    below->carry == WR_CARRY_IPPROTO ?
		    wr_proto_field_role(below, WR_ROLE_NEXT_IPPROTO) :
		    below->carry == WR_CARRY_UDP_PORT ?
		    wr_proto_field_role(below, WR_ROLE_NEXT_UDP_PORT) : -ENOENT;
		if (j < 0)
			return -ENOENT;
		out->carry = below->carry;
		out->value = (uint32_t)(wr_get_be(t->bytes + t->layer_off[i - 1] +
						  below->fields[j].off,
						  below->fields[j].span) >>
					below->fields[j].shift) &
			     (uint32_t)((1ull << below->fields[j].bits) - 1);
		out->len = t->layer_len[i];
		return 0;
	}
	return -ENOENT;
}

int
wr_frame_l2_tags(const struct wr_stream *s, uint8_t *tags, uint16_t cap)
{
	struct wr_frame_tmpl *t;
	struct wr_error err;
	uint32_t i;
	uint16_t end;
	int rc;

	rc = wr_frame_tmpl_create(s, 0, &t, &err);
	if (rc < 0)
		return rc;
	for (i = 1; i < t->n_layers && t->proto[i]->tag; i++)
		;
	/* From the link header's EtherType to the last tag's TCI: every
	 * byte of the L2 header but the MACs and the final EtherType. */
	end = (uint16_t)(t->layer_off[i - 1] + t->layer_len[i - 1] - 2);
	rc = end - 2 * 6;
	if (rc > cap)
		rc = -ENOSPC;
	else if (rc > 0)
		memcpy(tags, t->bytes + 12, (size_t)rc);
	wr_frame_tmpl_free(t);
	return rc;
}

int
wr_frame_tmpl_payload_off(const struct wr_frame_tmpl *t)
{
	uint32_t i = t->n_layers;

	/* The innermost UDP or TCP header: a tunnel's outer UDP (VXLAN)
	 * carries the inner frame, which is not the application's data. */
	while (i-- > 0)
		if (t->proto[i]->goodput)
			return t->layer_off[i] + t->layer_len[i];
	return -ENOENT;
}

/* ---- sizes ---- */

uint16_t
wr_frame_size_at(const struct wr_frame_tmpl *t, uint64_t index)
{
	if (t->fe != NULL)
		return (uint16_t)wr_capture_wire_len(wr_fe_tmpl_len_at(t->fe, index));
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
	uint64_t q_first = first, q_stride;
	uint32_t i;

	if (stride == 0)
		stride = 1;
	q_stride = stride;
	memset(g, 0, sizeof(*g));
	g->t = t;
	g->index = first;
	g->stride = stride;
	if (t->fe != NULL) {
		wr_fe_cursor_init(&g->fe, t->fe, first, stride);
		return;
	}
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
uint16_t
wr_frame_gen_next(struct wr_frame_gen *g, uint8_t *buf)
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

	if (t->fe != NULL) {
		len = wr_fe_next(&g->fe, buf);
		g->index = g->fe.index;
		return len;
	}

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

void
wr_frame_gen_burst(struct wr_frame_gen *g, uint8_t **bufs,
		   uint16_t *lens, unsigned int n)
{
	wr_frame_gen_burst_at(g, (void **)bufs, 0, lens, n);
}

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

void
wr_frame_gen_burst_at(struct wr_frame_gen *g, void **objs, uint32_t base_off,
		      uint16_t *lens, unsigned int n)
{
	const struct wr_frame_tmpl *t = g->t;
	uint64_t acc[2 * WR_CSUMS_MAX][WR_FRAME_BURST_MAX];
	const uint64_t index = g->index, stride = g->stride;
	const uint32_t n_cs = t->n_cs;
	unsigned int k;
	uint32_t i, e;

	if (t->fe != NULL) {
		wr_fe_burst_at(&g->fe, objs, base_off, lens, n);
		g->index = g->fe.index;
		return;
	}
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
			uint16_t len = wr_frame_gen_next(g, (uint8_t *)objs[k] +
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
	g->index = index + stride * n;
}

int
wr_frame_sig_offset(const uint8_t *p, uint32_t len,
		    const struct wr_pkt_hints *hints)
{
	struct wr_pkt k;

	/* Where tmpl_build puts it: after the last layer. */
	if (wr_pkt_parse(p, len, hints, &k) < 0 ||
	    len < (uint32_t)k.pay_off + WR_SIG_SHORT_LEN)
		return -1;
	return k.pay_off;
}

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

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame: build a stream's frame template and generate each packet from it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_csum.h"
#include "wr_frame.h"
#include "wr_rng.h"
#include "wr_sig.h"

#define ETHERTYPE_IPV4 0x0800 /* IEEE 802 numbers */
#define ETHERTYPE_VLAN 0x8100 /* IEEE 802.1Q TPID */
#define IPPROTO_UDP_NUM 17    /* IANA protocol numbers */
#define IPV4_VER_IHL 0x45     /* version 4, 5 words: no options */
#define IPV4_FLAG_DF 0x4000   /* RFC 791: flags are the top 3 bits of word 3 */

/*
 * Largest MIX cycle we tabulate (entries of 2 bytes: 2 MiB).  Weights are
 * first divided by their GCD, which leaves the smooth WRR order unchanged
 * (every "current" value scales by the GCD, so every comparison is the
 * same), so only weights with a huge reduced sum, e.g. 1000003:1, hit it.
 */
#define WR_SIZE_CYCLE_MAX (1u << 20)

/* How a varying slot computes its value from its position. */
enum wr_vf_kind {
	WR_VF_ARITH,  /* INC/DEC: base + pos * delta (delta = -step for DEC, mod 2^64) */
	WR_VF_LIST,   /* list[pos] */
	WR_VF_RANDOM, /* base + uniform [0, range) drawn at the packet index */
};

struct wr_vf {
	uint8_t id;    /* enum wr_field_id */
	uint8_t kind;  /* enum wr_vf_kind */
	uint16_t off;  /* offset of the field's first byte in the frame */
	uint64_t base;
	uint64_t delta;  /* ARITH: step (two's complement for DEC) */
	uint64_t period; /* ARITH, LIST: number of values */
	uint64_t range;  /* RANDOM: to - from + 1 */
	uint64_t thresh; /* RANDOM: Lemire threshold of range */
	uint64_t key;    /* RANDOM: sub-sequence key */
	uint64_t *list;  /* LIST: owned copy */
	/*
	 * Layout, so that the per-packet code is one table walk for every
	 * field: the stored value is (v << shift) | or_bits, written as
	 * `width` big-endian bytes keeping the bits in `keep` of what is
	 * there (the VLAN TCI and its PCP share bytes); it adds
	 * (stored << ip_shift) & ip_mask to the IPv4 sum and stored & udp_mask
	 * to the UDP sum (all ones or zero: no branch per field).
	 */
	uint8_t width;
	uint8_t shift;
	uint8_t ip_shift;
	uint16_t keep;
	uint64_t or_bits;
	uint64_t ip_mask;
	uint64_t udp_mask;
};

enum wr_size_kind {
	WR_SZ_FIXED,
	WR_SZ_TABLE,  /* INC and MIX: a precomputed cycle */
	WR_SZ_RANDOM,
};

struct wr_frame_tmpl {
	uint8_t *bytes;      /* packet 0 at max size, FCS excluded */
	uint16_t max_len;
	uint16_t fixed_len;  /* frame length when sizes are FIXED */
	uint16_t l2_len;     /* 14 or 18 */
	uint16_t ip_off;
	uint16_t udp_off;
	uint16_t sig_off;    /* 0 when no signature */
	bool sig_short;      /* the 16-byte loss-only signature (wr_sig.h) */
	uint16_t pay_off;    /* first payload byte */
	uint8_t ecn;
	bool product;
	bool is_static;
	bool ip_csum;        /* rewrite the IPv4 checksum per packet */
	bool udp_csum;       /* rewrite the UDP checksum per packet */
	uint32_t stream_id;
	uint32_t n_vary;
	uint32_t n_seq;
	/* Constant parts of the sums, see wr_csum.h. */
	uint64_t ip_const;
	uint64_t udp_const;
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
	struct wr_vf vf[WR_FIELD__COUNT];
};

/* ---- byte helpers (big-endian stores, no alignment assumed) ---- */

static inline void
put16(uint8_t *p, uint64_t v)
{
	uint16_t be = __builtin_bswap16((uint16_t)v);

	memcpy(p, &be, 2);
}

static inline void
put32(uint8_t *p, uint64_t v)
{
	uint32_t be = __builtin_bswap32((uint32_t)v);

	memcpy(p, &be, 4);
}

static inline void
put48(uint8_t *p, uint64_t v)
{
	put16(p, v >> 32);
	put32(p + 2, v);
}

static inline uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

/* ---- checksum ---- */

uint16_t
wr_csum_sum(const void *buf, uint32_t len)
{
	const uint8_t *p = buf;
	uint64_t sum = 0;
	uint32_t w;
	uint8_t tail[4] = { 0, 0, 0, 0 };
	uint16_t s;

	/* Native-order 32-bit words: RFC 1071 section 2(B), the sum is byte
	 * order independent up to a final swap.  2^32 additions of 32-bit
	 * values cannot overflow 64 bits, and len < 2^32. */
	for (; len >= 4; len -= 4, p += 4) {
		memcpy(&w, p, 4);
		sum += w;
	}
	/* The tail padded with zeros after it: an odd last byte becomes the
	 * high (first) byte of a zero-padded word, as RFC 1071 requires. */
	if (len > 0)
		memcpy(tail, p, len);
	memcpy(&w, tail, 4);
	sum += w;
	s = wr_csum_fold(sum);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	s = __builtin_bswap16(s);
#endif
	return s;
}

/* ---- validation ---- */

static int
check_field(const struct wr_field_spec *fs, enum wr_field_id id,
	    const struct wr_stream *s, struct wr_error *err)
{
	unsigned int bits = wr_field_bits(id);
	uint64_t max = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	const char *name = wr_field_name(id);
	uint32_t i;

#define FAIL(...) wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col, \
			       name, __VA_ARGS__)
	switch (fs->mode) {
	case WR_VARY_FIXED:
		if (fs->value > max)
			return FAIL("value %llu does not fit %u bits",
				    (unsigned long long)fs->value, bits);
		return 0;
	case WR_VARY_INC:
	case WR_VARY_DEC:
		if (fs->step < 1)
			return FAIL("step must be at least 1");
		if (fs->mode == WR_VARY_INC ? fs->from > fs->to : fs->from < fs->to)
			return FAIL("%s needs from %s to", wr_vary_mode_name(fs->mode),
				    fs->mode == WR_VARY_INC ? "<=" : ">=");
		/* fall through */
	case WR_VARY_RANDOM:
		if (fs->from > max || fs->to > max)
			return FAIL("range %llu..%llu does not fit %u bits",
				    (unsigned long long)fs->from,
				    (unsigned long long)fs->to, bits);
		if (fs->mode == WR_VARY_RANDOM && fs->from > fs->to)
			return FAIL("random needs from <= to");
		return 0;
	case WR_VARY_LIST:
		if (fs->list_len < 1 || fs->list == NULL)
			return FAIL("list is empty");
		for (i = 0; i < fs->list_len; i++)
			if (fs->list[i] > max)
				return FAIL("list[%u] = %llu does not fit %u bits", i,
					    (unsigned long long)fs->list[i], bits);
		return 0;
	default:
		return FAIL("unknown variation mode %d", (int)fs->mode);
	}
#undef FAIL
}

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

/* ---- field values ---- */

static inline uint64_t
vf_value(const struct wr_vf *f, uint64_t pos, uint64_t index)
{
	switch (f->kind) {
	case WR_VF_ARITH:
		return f->base + pos * f->delta;
	case WR_VF_LIST:
		return f->list[pos];
	default:
		return f->base + wr_rng_below(wr_rng_at(f->key, index),
					      f->range, f->thresh);
	}
}

/*
 * Offset of each field's first byte.  The TTL, DSCP and VLAN fields are
 * single bytes (or share one) but are written through the same table.
 */
static uint16_t
field_off(const struct wr_frame_tmpl *t, enum wr_field_id id)
{
	switch (id) {
	case WR_FIELD_ETH_DST: return 0;
	case WR_FIELD_ETH_SRC: return 6;
	case WR_FIELD_VLAN_ID:
	case WR_FIELD_VLAN_PCP: return 14; /* the TCI, after the TPID */
	case WR_FIELD_IPV4_DSCP: return t->ip_off + 1;
	case WR_FIELD_IPV4_ID: return t->ip_off + 4;
	case WR_FIELD_IPV4_TTL: return t->ip_off + 8;
	case WR_FIELD_IPV4_SRC: return t->ip_off + 12;
	case WR_FIELD_IPV4_DST: return t->ip_off + 16;
	case WR_FIELD_UDP_SRC: return t->udp_off;
	case WR_FIELD_UDP_DST: return t->udp_off + 2;
	default: return 0;
	}
}

/* Fill the layout of a varying slot (see struct wr_vf). */
static void
vf_layout(const struct wr_frame_tmpl *t, struct wr_vf *f)
{
	f->off = field_off(t, f->id);
	f->shift = f->ip_shift = 0;
	f->keep = 0;
	f->or_bits = 0;
	f->ip_mask = f->udp_mask = 0;
	switch (f->id) {
	case WR_FIELD_ETH_SRC:
	case WR_FIELD_ETH_DST:
		f->width = 6;
		break;
	case WR_FIELD_VLAN_ID:
		f->width = 2;
		f->keep = 0xf000; /* PCP and DEI */
		break;
	case WR_FIELD_VLAN_PCP:
		f->width = 1;
		f->shift = 5;
		f->keep = 0x1f;   /* DEI and the VLAN id's top bits */
		break;
	case WR_FIELD_IPV4_DSCP:
		/* The TOS byte, low byte of the header's word 0. */
		f->width = 1;
		f->shift = 2;
		f->or_bits = t->ecn;
		f->ip_mask = ~0ull;
		break;
	case WR_FIELD_IPV4_TTL:
		/* High byte of word 4 (TTL, protocol). */
		f->width = 1;
		f->ip_shift = 8;
		f->ip_mask = ~0ull;
		break;
	case WR_FIELD_IPV4_ID:
		f->width = 2;
		f->ip_mask = ~0ull;
		break;
	case WR_FIELD_IPV4_SRC:
	case WR_FIELD_IPV4_DST:
		/* In the header and in the UDP pseudo-header. */
		f->width = 4;
		f->ip_mask = f->udp_mask = ~0ull;
		break;
	case WR_FIELD_UDP_SRC:
	case WR_FIELD_UDP_DST:
	default:
		f->width = 2;
		f->udp_mask = ~0ull;
		break;
	}
}

/* ---- template ---- */

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

static int
build_fields(struct wr_frame_tmpl *t, const struct wr_stream *s)
{
	unsigned int id, pass, n = 0;

	/* Pass 0 takes the sequenced fields, pass 1 the RANDOM ones, each in
	 * WR_FIELDS order: the odometer runs over slots 0..n_seq-1. */
	for (pass = 0; pass < 2; pass++) {
		for (id = 0; id < WR_FIELD__COUNT; id++) {
			const struct wr_field_spec *fs = &s->field[id];
			struct wr_vf *f = &t->vf[n];

			if (!field_varies(fs))
				continue;
			if ((fs->mode == WR_VARY_RANDOM) != (pass == 1))
				continue;
			if ((id == WR_FIELD_VLAN_ID || id == WR_FIELD_VLAN_PCP) &&
			    !s->vlan)
				continue; /* no tag to write it into */
			f->id = (uint8_t)id;
			vf_layout(t, f);
			f->period = wr_field_period(fs);
			switch (fs->mode) {
			case WR_VARY_INC:
			case WR_VARY_DEC:
				f->kind = WR_VF_ARITH;
				f->base = fs->from;
				f->delta = fs->mode == WR_VARY_INC ? fs->step
								   : 0 - fs->step;
				break;
			case WR_VARY_LIST:
				f->kind = WR_VF_LIST;
				f->list = malloc(fs->list_len * sizeof(*f->list));
				if (f->list == NULL)
					return -ENOMEM;
				memcpy(f->list, fs->list,
				       fs->list_len * sizeof(*f->list));
				break;
			default:
				f->kind = WR_VF_RANDOM;
				f->base = fs->from;
				f->range = fs->to - fs->from + 1;
				f->thresh = wr_rng_threshold(f->range);
				f->key = wr_rng_key(s->seed, id);
				f->period = 0;
				break;
			}
			n++;
		}
		if (pass == 0)
			t->n_seq = n;
	}
	t->n_vary = n;
	return 0;
}

/* The value of a field in packet 0 (the template). */
static uint64_t
value0(const struct wr_stream *s, enum wr_field_id id)
{
	const struct wr_field_spec *fs = &s->field[id];

	switch (fs->mode) {
	case WR_VARY_INC:
	case WR_VARY_DEC:
	case WR_VARY_RANDOM:
		if (fs->mode == WR_VARY_RANDOM) {
			uint64_t range = fs->to - fs->from + 1;

			return fs->from +
			       wr_rng_below(wr_rng_at(wr_rng_key(s->seed, id), 0),
					    range, wr_rng_threshold(range));
		}
		return fs->from;
	case WR_VARY_LIST:
		return fs->list[0];
	default:
		return fs->value;
	}
}

static void
write_headers(struct wr_frame_tmpl *t, const struct wr_stream *s, uint16_t len)
{
	uint8_t *b = t->bytes, *ip = b + t->ip_off, *udp = b + t->udp_off;
	uint16_t tci;

	put48(b, value0(s, WR_FIELD_ETH_DST));
	put48(b + 6, value0(s, WR_FIELD_ETH_SRC));
	if (s->vlan) {
		put16(b + 12, ETHERTYPE_VLAN);
		/* 802.1Q TCI: PCP (3 bits), DEI (0), VID (12 bits). */
		tci = (uint16_t)((value0(s, WR_FIELD_VLAN_PCP) << 13) |
				 value0(s, WR_FIELD_VLAN_ID));
		put16(b + 14, tci);
		put16(b + 16, ETHERTYPE_IPV4);
	} else {
		put16(b + 12, ETHERTYPE_IPV4);
	}
	ip[0] = IPV4_VER_IHL;
	ip[1] = (uint8_t)((value0(s, WR_FIELD_IPV4_DSCP) << 2) | t->ecn);
	put16(ip + 2, len - t->l2_len);
	put16(ip + 4, value0(s, WR_FIELD_IPV4_ID));
	put16(ip + 6, s->df ? IPV4_FLAG_DF : 0);
	ip[8] = (uint8_t)value0(s, WR_FIELD_IPV4_TTL);
	ip[9] = IPPROTO_UDP_NUM;
	put16(ip + 10, 0);
	put32(ip + 12, value0(s, WR_FIELD_IPV4_SRC));
	put32(ip + 16, value0(s, WR_FIELD_IPV4_DST));
	put16(udp, value0(s, WR_FIELD_UDP_SRC));
	put16(udp + 2, value0(s, WR_FIELD_UDP_DST));
	put16(udp + 4, len - t->udp_off);
	put16(udp + 6, 0);
}

static bool
slot_varies(const struct wr_frame_tmpl *t, enum wr_field_id id)
{
	uint32_t i;

	for (i = 0; i < t->n_vary; i++)
		if (t->vf[i].id == id)
			return true;
	return false;
}

/*
 * The sums of everything that does not vary, computed on scratch copies of
 * the headers where the varying parts are zeroed: the per-packet code adds
 * exactly those parts back (vf_write, the length words, psum).
 */
static void
const_sums(struct wr_frame_tmpl *t, bool size_varies)
{
	uint8_t ip[WR_IPV4_HLEN], ps[12 + WR_UDP_HLEN];
	const uint8_t *b = t->bytes;
	uint16_t len = t->max_len;

	memcpy(ip, b + t->ip_off, sizeof(ip));
	ip[10] = ip[11] = 0;
	if (slot_varies(t, WR_FIELD_IPV4_DSCP))
		ip[1] = 0;
	if (size_varies)
		ip[2] = ip[3] = 0;
	if (slot_varies(t, WR_FIELD_IPV4_ID))
		ip[4] = ip[5] = 0;
	if (slot_varies(t, WR_FIELD_IPV4_TTL))
		ip[8] = 0;
	if (slot_varies(t, WR_FIELD_IPV4_SRC))
		memset(ip + 12, 0, 4);
	if (slot_varies(t, WR_FIELD_IPV4_DST))
		memset(ip + 16, 0, 4);
	t->ip_const = wr_csum_sum(ip, sizeof(ip));

	/* RFC 768 pseudo-header (src, dst, zero, protocol, UDP length), then
	 * the UDP header with its checksum zeroed. */
	memcpy(ps, ip + 12, 8);
	ps[8] = 0;
	ps[9] = IPPROTO_UDP_NUM;
	memcpy(ps + 10, b + t->udp_off + 4, 2);
	memcpy(ps + 12, b + t->udp_off, WR_UDP_HLEN);
	ps[18] = ps[19] = 0;
	if (size_varies)
		ps[10] = ps[11] = ps[16] = ps[17] = 0;
	if (slot_varies(t, WR_FIELD_UDP_SRC))
		ps[12] = ps[13] = 0;
	if (slot_varies(t, WR_FIELD_UDP_DST))
		ps[14] = ps[15] = 0;
	t->udp_const = wr_csum_sum(ps, sizeof(ps));
	/* The signature area is zero in the template: it adds nothing.  The
	 * payload starts at an even offset of the datagram (8 + 0 or 24), so
	 * its sum adds as is. */
	if (!size_varies)
		t->udp_const += wr_csum_sum(b + t->pay_off, len - t->pay_off);
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

void
wr_frame_tmpl_free(struct wr_frame_tmpl *t)
{
	unsigned int i;

	if (t == NULL)
		return;
	for (i = 0; i < WR_FIELD__COUNT; i++)
		free(t->vf[i].list);
	free(t->size_tab);
	free(t->psum);
	free(t->bytes);
	free(t);
}

int
wr_frame_tmpl_create(const struct wr_stream *s, uint32_t stream_id,
		     struct wr_frame_tmpl **out, struct wr_error *err)
{
	struct wr_frame_tmpl *t;
	uint16_t min = 0, max = 0, len, sum;
	bool size_varies;
	unsigned int id;
	uint8_t ps[12];
	uint64_t usum;
	uint32_t k, str_len;
	int rc;

	*out = NULL;
	if (s->ecn > 3)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "ipv4.ecn", "ECN %u does not fit 2 bits", s->ecn);
	if (s->payload.kind == WR_PAYLOAD_PATTERN &&
	    (s->payload.len < 1 || s->payload.bytes == NULL))
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "payload", "pattern is empty");
	if (s->payload.kind == WR_PAYLOAD_STRING && s->payload.len > 0 &&
	    s->payload.bytes == NULL)
		return wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				    "payload", "string has no bytes");
	for (id = 0; id < WR_FIELD__COUNT; id++) {
		rc = check_field(&s->field[id], id, s, err);
		if (rc < 0)
			return rc;
	}
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->stream_id = stream_id;
	t->ecn = s->ecn;
	t->product = s->combine == WR_COMBINE_PRODUCT;
	t->l2_len = WR_ETH_HLEN + (s->vlan ? WR_VLAN_HLEN : 0);
	t->ip_off = t->l2_len;
	t->udp_off = t->ip_off + WR_IPV4_HLEN;
	t->sig_off = s->latency ? t->udp_off + WR_UDP_HLEN : 0;
	t->sig_short = s->latency && s->sig_short;
	t->pay_off = t->udp_off + WR_UDP_HLEN +
		     (!s->latency ? 0 : t->sig_short ? WR_SIG_SHORT_LEN : WR_SIG_LEN);

	rc = build_sizes(t, s, &min, &max, err);
	if (rc < 0)
		goto fail;
	/* A string payload is never cut to fit (wr_stream.h): the loader
	 * checks it, and so does this, for streams built by a subcommand
	 * that adds a signature after loading. */
	str_len = s->payload.kind == WR_PAYLOAD_STRING ? s->payload.len : 0;
	if ((uint32_t)(min - WR_FCS_LEN) < t->pay_off + str_len) {
		rc = wr_error_set(err, -EINVAL, NULL, s->mark.line, s->mark.col,
				  "size",
				  "a %u-byte frame cannot hold its headers%s%s (%u bytes + %u FCS)",
				  min, !s->latency ? "" : t->sig_short ?
				  " and loss signature" : " and latency signature",
				  str_len ? " and string payload" : "",
				  t->pay_off + str_len, WR_FCS_LEN);
		goto fail;
	}
	size_varies = t->size_kind != WR_SZ_FIXED;
	t->max_len = max - WR_FCS_LEN;
	t->fixed_len = t->max_len;
	len = t->max_len;

	rc = build_fields(t, s);
	if (rc < 0)
		goto fail;

	rc = -ENOMEM;
	t->bytes = calloc(1, len);
	if (t->bytes == NULL)
		goto fail;
	write_headers(t, s, len);
	for (k = 0; k < (uint32_t)(len - t->pay_off); k++)
		t->bytes[t->pay_off + k] = payload_byte(&s->payload, k);

	/* Full checksums of the template, straight from RFC 791 / RFC 768. */
	sum = wr_csum_sum(t->bytes + t->ip_off, WR_IPV4_HLEN);
	put16(t->bytes + t->ip_off + 10, (uint16_t)~sum);
	memcpy(ps, t->bytes + t->ip_off + 12, 8);
	ps[8] = 0;
	ps[9] = IPPROTO_UDP_NUM;
	memcpy(ps + 10, t->bytes + t->udp_off + 4, 2);
	usum = (uint64_t)wr_csum_sum(ps, sizeof(ps)) +
	       wr_csum_sum(t->bytes + t->udp_off, len - t->udp_off);
	put16(t->bytes + t->udp_off + 6, wr_csum_udp(usum));

	const_sums(t, size_varies);
	if (size_varies && build_psum(t) < 0)
		goto fail;

	t->ip_csum = size_varies;
	t->udp_csum = size_varies || s->latency;
	for (k = 0; k < t->n_vary; k++) {
		switch (t->vf[k].id) {
		case WR_FIELD_IPV4_SRC:
		case WR_FIELD_IPV4_DST:
			t->udp_csum = true;
			/* fall through */
		case WR_FIELD_IPV4_ID:
		case WR_FIELD_IPV4_TTL:
		case WR_FIELD_IPV4_DSCP:
			t->ip_csum = true;
			break;
		case WR_FIELD_UDP_SRC:
		case WR_FIELD_UDP_DST:
			t->udp_csum = true;
			break;
		default:
			break;
		}
	}
	t->is_static = t->n_vary == 0 && !size_varies && !s->latency;
	*out = t;
	return 0;
fail:
	wr_frame_tmpl_free(t);
	return rc;
}

const uint8_t *
wr_frame_tmpl_bytes(const struct wr_frame_tmpl *t)
{
	return t->bytes;
}

uint16_t
wr_frame_tmpl_max_len(const struct wr_frame_tmpl *t)
{
	return t->max_len;
}

bool
wr_frame_tmpl_is_static(const struct wr_frame_tmpl *t)
{
	return t->is_static;
}

bool
wr_frame_tmpl_size_varies(const struct wr_frame_tmpl *t)
{
	return t->size_kind != WR_SZ_FIXED;
}

uint16_t
wr_frame_tmpl_sig_off(const struct wr_frame_tmpl *t)
{
	return t->sig_off;
}

uint16_t
wr_frame_tmpl_udp_csum_off(const struct wr_frame_tmpl *t)
{
	return t->udp_off + 6;
}

/* ---- sizes ---- */

uint16_t
wr_frame_size_at(const struct wr_frame_tmpl *t, uint64_t index)
{
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
	g->n_vary = t->n_vary;
	g->n_seq = t->n_seq;
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

/*
 * Two phases: every value, length and sum is computed first, with loads
 * only; then the bytes are stored.  A store through a uint8_t pointer may
 * alias anything, so interleaving them would make the compiler reload the
 * template and the cursor after every byte written.  Fields are a table
 * walk (struct wr_vf's layout), not a switch per field id.
 */
uint16_t
wr_frame_gen_next(struct wr_frame_gen *g, uint8_t *buf)
{
	const struct wr_frame_tmpl *t = g->t;
	const struct wr_vf *vf = t->vf;
	const uint32_t n = g->n_vary, n_seq = g->n_seq;
	const uint64_t index = g->index;
	uint64_t ip = t->ip_const, udp = t->udp_const, size;
	uint64_t v[WR_FIELD__COUNT];
	uint16_t len = t->fixed_len, l3len = 0, l4len = 0;
	const uint16_t ip_off = t->ip_off, udp_off = t->udp_off;
	const bool sized = t->size_kind != WR_SZ_FIXED;
	const bool ip_csum = t->ip_csum, udp_csum = t->udp_csum;
	uint32_t i;

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
		l3len = (uint16_t)(len - t->l2_len);
		l4len = (uint16_t)(len - udp_off);
		/* UDP length counts twice: pseudo-header and UDP header. */
		ip += l3len;
		udp += 2 * (uint64_t)l4len + t->psum[len - t->pay_off];
	}
	/* Sequenced slots come first (build_fields), then the random ones. */
	for (i = 0; i < n; i++) {
		const struct wr_vf *f = &vf[i];
		uint64_t x;

		if (i < n_seq)
			x = f->kind == WR_VF_ARITH ? f->base + g->pos[i] * f->delta
						   : f->list[g->pos[i]];
		else
			x = f->base + wr_rng_below(wr_rng_at(f->key, index),
						   f->range, f->thresh);
		x = (x << f->shift) | f->or_bits;
		ip += (x << f->ip_shift) & f->ip_mask;
		udp += x & f->udp_mask;
		v[i] = x;
	}
	g->index = index + g->stride;
	gen_advance(g);

	/* Stores only from here on. */
	for (i = 0; i < n; i++) {
		uint8_t *p = buf + vf[i].off;
		uint64_t x = v[i];

		switch (vf[i].width) {
		case 1:
			p[0] = (uint8_t)((p[0] & vf[i].keep) | x);
			break;
		case 2:
			put16(p, (get16(p) & vf[i].keep) | x);
			break;
		case 4:
			put32(p, x);
			break;
		default:
			put48(p, x);
			break;
		}
	}
	if (sized) {
		put16(buf + ip_off + 2, l3len);
		put16(buf + udp_off + 4, l4len);
	}
	if (ip_csum)
		put16(buf + ip_off + 10, wr_csum_ipv4(ip));
	if (udp_csum)
		put16(buf + udp_off + 6, wr_csum_udp(udp));
	return len;
}

/*
 * One field over a burst: its value for each frame, stored and added to the
 * frames' sums.  Each expansion is specialised to one layout, so the inner
 * loop has no dispatch and no variable shift left: only the 1-byte fields
 * (TTL, DSCP, VLAN PCP) shift or keep bits, only the VLAN id keeps bits of
 * a 2-byte word, and the MACs are in no checksum.
 */
#define WR_FIELD_LOOP(STORE, VALUE, ADVANCE)                                \
	for (k = 0; k < n; k++) {                                           \
		uint8_t *p = (uint8_t *)objs[k] + base_off + off;           \
		uint64_t x = (VALUE);                                       \
									    \
		STORE;                                                      \
		ADVANCE;                                                    \
	}

#define WR_STORE_1                                                          \
	x = (x << shift) | or_bits;                                         \
	p[0] = (uint8_t)((p[0] & keep) | x);                                \
	ip[k] += (x << ip_shift) & ip_mask
#define WR_STORE_2_IP put16(p, x); ip[k] += x            /* ipv4.id */
#define WR_STORE_2_UDP put16(p, x); udp[k] += x          /* UDP ports */
#define WR_STORE_2_KEEP put16(p, (get16(p) & keep) | x)  /* VLAN id */
#define WR_STORE_4 put32(p, x); ip[k] += x; udp[k] += x  /* IPv4 addresses */
#define WR_STORE_6 put48(p, x)                           /* MACs */

#define WR_FIELD_WIDTHS(VALUE, ADVANCE)                                     \
	if (f->width == 1)                                                  \
		WR_FIELD_LOOP(WR_STORE_1, VALUE, ADVANCE)                   \
	else if (f->width == 2 && keep != 0)                                \
		WR_FIELD_LOOP(WR_STORE_2_KEEP, VALUE, ADVANCE)              \
	else if (f->width == 2 && ip_mask != 0)                             \
		WR_FIELD_LOOP(WR_STORE_2_IP, VALUE, ADVANCE)                \
	else if (f->width == 2)                                             \
		WR_FIELD_LOOP(WR_STORE_2_UDP, VALUE, ADVANCE)               \
	else if (f->width == 4)                                             \
		WR_FIELD_LOOP(WR_STORE_4, VALUE, ADVANCE)                   \
	else                                                                \
		WR_FIELD_LOOP(WR_STORE_6, VALUE, ADVANCE)

void
wr_frame_gen_burst(struct wr_frame_gen *g, uint8_t **bufs,
		   uint16_t *lens, unsigned int n)
{
	wr_frame_gen_burst_at(g, (void **)bufs, 0, lens, n);
}

void
wr_frame_gen_burst_at(struct wr_frame_gen *g, void **objs, uint32_t base_off,
		      uint16_t *lens, unsigned int n)
{
	const struct wr_frame_tmpl *t = g->t;
	uint64_t ip[WR_FRAME_BURST_MAX], udp[WR_FRAME_BURST_MAX];
	const uint64_t index = g->index, stride = g->stride;
	const uint16_t ip_off = t->ip_off, udp_off = t->udp_off;
	unsigned int k;
	uint32_t i;

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
	if (t->size_kind == WR_SZ_TABLE) {
		uint64_t pos = g->size_pos;

		for (k = 0; k < n; k++) {
			uint16_t len = (uint16_t)(t->size_tab[pos] - WR_FCS_LEN);
			uint16_t l3len = (uint16_t)(len - t->l2_len);
			uint16_t l4len = (uint16_t)(len - udp_off);

			uint8_t *b = (uint8_t *)objs[k] + base_off;

			lens[k] = len;
			ip[k] = t->ip_const + l3len;
			udp[k] = t->udp_const + 2 * (uint64_t)l4len +
				 t->psum[len - t->pay_off];
			put16(b + ip_off + 2, l3len);
			put16(b + udp_off + 4, l4len);
			pos += g->size_stride;
			if (pos >= t->size_cycle)
				pos -= t->size_cycle;
		}
		g->size_pos = pos;
	} else {
		for (k = 0; k < n; k++) {
			ip[k] = t->ip_const;
			udp[k] = t->udp_const;
		}
		if (lens != NULL)
			for (k = 0; k < n; k++)
				lens[k] = t->fixed_len;
	}
	for (i = 0; i < g->n_vary; i++) {
		const struct wr_vf *f = &t->vf[i];
		const uint16_t off = f->off, keep = f->keep;
		const unsigned int shift = f->shift, ip_shift = f->ip_shift;
		const uint64_t or_bits = f->or_bits, ip_mask = f->ip_mask;

		if (i >= g->n_seq) {
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
	/* The sums here stay far below 2^48 (wr_csum_fold48). */
	if (t->ip_csum && t->udp_csum) {
		for (k = 0; k < n; k++) {
			uint8_t *b = (uint8_t *)objs[k] + base_off;
			uint16_t uc = (uint16_t)~wr_csum_fold48(udp[k]);

			put16(b + ip_off + 10, (uint16_t)~wr_csum_fold48(ip[k]));
			put16(b + udp_off + 6, uc == 0 ? 0xffff : uc);
		}
	} else if (t->ip_csum) {
		for (k = 0; k < n; k++)
			put16((uint8_t *)objs[k] + base_off + ip_off + 10,
			      (uint16_t)~wr_csum_fold48(ip[k]));
	} else if (t->udp_csum) {
		for (k = 0; k < n; k++) {
			uint16_t uc = (uint16_t)~wr_csum_fold48(udp[k]);

			put16((uint8_t *)objs[k] + base_off + udp_off + 6,
			      uc == 0 ? 0xffff : uc);
		}
	}
	g->index = index + stride * n;
}

void
wr_frame_sig_write(const struct wr_frame_tmpl *t, uint8_t *buf, uint16_t len,
		   uint32_t stream_id, uint64_t seq, uint64_t tx_tsc)
{
	struct wr_sig sig = { stream_id, seq, tx_tsc };
	uint8_t *c = buf + t->udp_off + 6;
	uint64_t sum;

	(void)len; /* the signature sits at a fixed offset in every size */
	if (t->sig_off == 0)
		return;
	if (t->sig_short) {
		/* Loss only: no TX time to carry, and none summed. */
		wr_sig_encode_short(buf + t->sig_off, &sig);
		sum = (uint16_t)~get16(c);
		sum += (WR_SIG_SHORT_MAGIC >> 16) + (WR_SIG_SHORT_MAGIC & 0xffff);
		sum += (stream_id >> 16) + (stream_id & 0xffff);
		sum += wr_csum_u64(seq);
		put16(c, wr_csum_udp(sum));
		return;
	}
	wr_sig_encode(buf + t->sig_off, &sig);
	/* The field covers zeros at the signature (wr_frame_gen_next); add
	 * the signature's words to the sum it encodes.  ~field is that sum,
	 * or 0 for a sum of 0xffff sent as 0xffff: both are one's-complement
	 * zero, and the magic makes the new sum nonzero, so the fold is the
	 * same as a full recomputation's. */
	sum = (uint16_t)~get16(c);
	sum += (WR_SIG_MAGIC >> 16) + (WR_SIG_MAGIC & 0xffff);
	sum += (stream_id >> 16) + (stream_id & 0xffff);
	sum += wr_csum_u64(seq) + wr_csum_u64(tx_tsc);
	put16(c, wr_csum_udp(sum));
}

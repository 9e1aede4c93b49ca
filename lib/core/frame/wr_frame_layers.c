/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame_layers: a stream's layer stack laid out, its sizes tabulated, packet 0's bytes written; which checksum covers what. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame_priv.h"

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
int
wr_frame_build_sizes(struct wr_frame_tmpl *t, const struct wr_stream *s,
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

uint8_t
wr_frame_payload_byte(const struct wr_payload_spec *ps, uint32_t k)
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

/* ---- the stack ---- */

__uint128_t
wr_frame_bits_max(unsigned int bits)
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

int
wr_frame_lay_fail(struct wr_error *err, const struct lay *y, const char *field,
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

int
wr_frame_check_field(const struct wr_field_spec *fs, const struct wr_proto_field *pf,
		     const struct lay *y, struct wr_error *err)
{
	__uint128_t max = wr_frame_bits_max(pf->bits);
	char a[48], b[48], w[16];
	uint32_t i;

	snprintf(w, sizeof(w), "%u", pf->bits);
	switch (fs->mode) {
	case WR_VARY_FIXED:
		if (fs->value > max)
			return wr_frame_lay_fail(err, y, pf->name, "value %s does not fit %s bits",
						 u128_str(fs->value, a, sizeof(a)), w);
		return 0;
	case WR_VARY_INC:
	case WR_VARY_DEC:
		if (fs->step < 1)
			return wr_frame_lay_fail(err, y, pf->name, "step must be at least 1%s%s",
						 "", "");
		if (fs->mode == WR_VARY_INC ? fs->from > fs->to : fs->from < fs->to)
			return wr_frame_lay_fail(err, y, pf->name, "%s needs from %s to",
						 wr_vary_mode_name(fs->mode),
						 fs->mode == WR_VARY_INC ? "<=" : ">=");
		if (wr_field_period(fs) == UINT64_MAX)
			return wr_frame_lay_fail(err, y, pf->name,
						 "%s%s over 2^64 or more values: use random",
						 wr_vary_mode_name(fs->mode), "");
		/* fall through */
	case WR_VARY_RANDOM:
		if (fs->from > max || fs->to > max) {
			char r[100];

			snprintf(r, sizeof(r), "%s..%s",
				 u128_str(fs->from, a, sizeof(a)),
				 u128_str(fs->to, b, sizeof(b)));
			return wr_frame_lay_fail(err, y, pf->name, "range %s does not fit %s bits",
						 r, w);
		}
		if (fs->mode == WR_VARY_RANDOM && fs->from > fs->to)
			return wr_frame_lay_fail(err, y, pf->name, "random needs from <= to%s%s",
						 "", "");
		if (fs->mode == WR_VARY_RANDOM &&
		    (fs->to - fs->from) >> 64 != 0) {
			__uint128_t r = fs->to - fs->from + 1;

			/* More than 2^64 values: a prefix, drawn as bits. */
			if (r != 0 && ((r & (r - 1)) != 0 || (fs->from & (r - 1)) != 0))
				return wr_frame_lay_fail(err, y, pf->name,
							 "a random range of more than 2^64 values must be a prefix such as %s%s",
							 "2001:db8::/48", "");
		}
		return 0;
	case WR_VARY_LIST:
		if (fs->list_len < 1 || fs->list == NULL)
			return wr_frame_lay_fail(err, y, pf->name, "list is empty%s%s", "", "");
		for (i = 0; i < fs->list_len; i++)
			if (fs->list[i] > max) {
				char what[96];

				snprintf(what, sizeof(what), "list[%u] = %s", i,
					 u128_str(fs->list[i], a, sizeof(a)));
				return wr_frame_lay_fail(err, y, pf->name, "%s does not fit %s bits",
							 what, w);
			}
		return 0;
	default:
		return wr_frame_lay_fail(err, y, pf->name, "unknown variation mode%s%s", "", "");
	}
}

bool
wr_frame_field_varies(const struct wr_field_spec *fs)
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

uint64_t
wr_frame_field_key(const struct wr_stream *s, const struct lay *y, unsigned int li,
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
			return wr_frame_lay_fail(err, &ly[i], NULL,
						 "an extension header goes on an IPv%s layer or "
						 "another extension header%s", v, "");
		}
		for (r = prev + 1; r <= 7 && !(p->ext_ranks >> r & 1); r++)
			;
		if (r > 7)
			return wr_frame_lay_fail(err, &ly[i], NULL, "%s%s out of the order RFC 8200 "
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
int
wr_frame_stack_layout(struct lay *ly, uint32_t n, const struct wr_stream *s,
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
			return wr_frame_lay_fail(err, y, "hex", "a raw layer needs at least one byte%s%s",
						 "", "");
		if (wr_proto_layout(y->l, &y->lo) < 0)
			return wr_frame_lay_fail(err, y, NULL, "%s%s", y->lo.why, "");
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
			return wr_frame_lay_fail(err, y, NULL,
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
					return wr_frame_lay_fail(err, y, pf->name,
								 "the layer above (%s) has no EtherType: give %s",
								 a->p->name, pf->name);
				break;
			case WR_ROLE_NEXT_IPPROTO:
				if (a == NULL)
					break;
				if (a->p->ipproto == 0 && !a->p->ipproto_zero)
					return wr_frame_lay_fail(err, y, pf->name,
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
void
wr_frame_write_layers(const struct lay *ly, uint32_t n, const struct wr_stream *s,
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
						    wr_frame_field_key(s, y, i, j));

			if (pf->role == WR_ROLE_MY_ETHERTYPE || at == WR_OFF_NONE ||
			    ((y->lo.computed >> j & 1) && !y->l->set[j]))
				continue;
			if (pf->span == 16) {
				wr_put128(h + at, v);
			} else {
				uint64_t m = (uint64_t)wr_frame_bits_max(pf->bits) << pf->shift;
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
bool
wr_frame_in_pseudo(const struct lay *ly, uint32_t c, uint32_t li, unsigned int j)
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
uint64_t
wr_frame_pseudo_sum(const struct lay *ly, uint32_t i, const uint8_t *b)
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
uint64_t
wr_frame_region_sum(const struct lay *ly, uint32_t i, const uint8_t *b, uint16_t end,
		    uint16_t l4len)
{
	const struct lay *y = &ly[i];

	switch (y->lo.csum) {
	case WR_CSUM_HEADER:
		return wr_csum_sum(b + y->off, y->hlen);
	case WR_CSUM_PSEUDO:
		return wr_frame_pseudo_sum(ly, i, b) + l4len +
		       wr_csum_sum(b + y->off, end - y->off);
	case WR_CSUM_PLAIN:
		return wr_csum_sum(b + y->off, end - y->off);
	default:
		return 0;
	}
}

/* A checksum the layer sends as 0 (a UDP under VXLAN), or none at all. */
bool
wr_frame_csum_off(const struct lay *ly, uint32_t n, uint32_t i)
{
	const struct lay *ip = pseudo_ip(ly, i);

	return ly[i].lo.csum == WR_CSUM_NONE ||
	       (i + 1 < n && ly[i + 1].p->zero_udp_csum_below &&
		!(ip != NULL && ip->p->l4_csum_required));
}

/* Is byte range [off, off + w) in layer i's checksum?  *csh its parity. */
bool
wr_frame_covers(const struct lay *ly, uint32_t i, uint16_t off, uint16_t w,
		uint8_t *csh)
{
	const struct lay *y = &ly[i];
	uint16_t end = y->lo.csum == WR_CSUM_HEADER ? y->off + y->hlen : UINT16_MAX;

	if (off < y->off || off + w > end)
		return false;
	*csh = ((off + w - y->off) & 1) ? 8 : 0;
	return true;
}

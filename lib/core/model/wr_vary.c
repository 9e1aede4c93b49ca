/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_vary: field variation: periods, the value at any packet index, and the stream-file grammar of a field. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_parse.h"
#include "wr_rng.h"
#include "wr_vary.h"
#include "wr_ytree.h"

static const char *const vary_names[] = {
#define WR_X(e, name) [WR_VARY_##e] = name,
	WR_VARY_MODES(WR_X)
#undef WR_X
};

/* The keys of a vary mapping, in the order of enum wr_vary_mode less FIXED. */
static const char *const vary_keys[] = { "inc", "dec", "random", "list", NULL };
static const char *const step_keys[] = { "from", "to", "step", NULL };
static const char *const random_keys[] = { "min", "max", "prefix", NULL };

/* How a field's values are written and how wide they are. */
struct vdesc {
	uint8_t kind; /* enum wr_val_kind */
	uint8_t bits;
};

const char *
wr_vary_mode_name(enum wr_vary_mode m)
{
	if ((unsigned int)m >= WR_VARY__COUNT)
		return NULL;
	return vary_names[m];
}

uint64_t
wr_field_period(const struct wr_field_spec *fs)
{
	switch (fs->mode) {
	case WR_VARY_INC:
	case WR_VARY_DEC: {
		/* Saturated: wr_frame rejects more than 2^64 - 1 values. */
		__uint128_t span = fs->mode == WR_VARY_INC ? fs->to - fs->from
							   : fs->from - fs->to;
		__uint128_t p = fs->step == 0 ? 1 : span / fs->step + 1;

		return p > UINT64_MAX || p == 0 ? UINT64_MAX : (uint64_t)p;
	}
	case WR_VARY_LIST:
		return fs->list_len;
	case WR_VARY_RANDOM:
		return 0;
	case WR_VARY_FIXED:
	default:
		return 1;
	}
}

__uint128_t
wr_field_value_at(const struct wr_field_spec *fs, uint64_t key, uint64_t k)
{
	__uint128_t r;
	uint64_t h;

	switch (fs->mode) {
	case WR_VARY_INC:
		return fs->from + (__uint128_t)(k % wr_field_period(fs)) * fs->step;
	case WR_VARY_DEC:
		return fs->from - (__uint128_t)(k % wr_field_period(fs)) * fs->step;
	case WR_VARY_LIST:
		return fs->list[k % fs->list_len];
	case WR_VARY_RANDOM:
		r = fs->to - fs->from + 1;
		h = wr_rng_at(key, k);
		if (r >> 64 == 0 && (uint64_t)r != 0)
			return fs->from + wr_rng_below(h, (uint64_t)r,
						       wr_rng_threshold((uint64_t)r));
		if (r >> 64 == 1 && (uint64_t)r == 0)
			return fs->from + h;
		/* A prefix (the loaders check): high bits from the draw. */
		return fs->from + ((__uint128_t)(h & (uint64_t)((r >> 64) - 1)) << 64 |
				   wr_rng_mix64(h + WR_RNG_GAMMA));
	case WR_VARY_FIXED:
	default:
		return fs->value;
	}
}

uint64_t
wr_period_lcm(uint64_t a, uint64_t b)
{
	uint64_t x = a, y = b;
	unsigned __int128 l;

	while (y != 0) {
		uint64_t t = x % y;

		x = y;
		y = t;
	}
	l = (unsigned __int128)(a / x) * b;
	return l > UINT64_MAX ? UINT64_MAX : (uint64_t)l;
}

void
wr_field_fixed(struct wr_field_spec *fs, __uint128_t v)
{
	memset(fs, 0, sizeof(*fs));
	fs->mode = WR_VARY_FIXED;
	fs->value = v;
}

int
wr_field_copy(struct wr_field_spec *dst, const struct wr_field_spec *src)
{
	*dst = *src;
	dst->list = NULL;
	if (src->mode != WR_VARY_LIST || src->list == NULL)
		return 0;
	dst->list = malloc(src->list_len * sizeof(*dst->list));
	if (dst->list == NULL) {
		wr_field_fixed(dst, src->value);
		return -ENOMEM;
	}
	memcpy(dst->list, src->list, src->list_len * sizeof(*dst->list));
	return 0;
}

void
wr_field_free(struct wr_field_spec *fs)
{
	free(fs->list);
	fs->list = NULL;
	fs->list_len = 0;
	if (fs->mode == WR_VARY_LIST)
		wr_field_fixed(fs, fs->value);
}

/* ---- the grammar ---- */

static uint64_t
field_max(const struct vdesc *d)
{
	return d->bits >= 64 ? UINT64_MAX : (1ull << d->bits) - 1;
}

/* One value in a field's own syntax and range. */
static int
field_value(struct wr_ywalk *w, const struct wr_ynode *n,
	    const struct vdesc *d, __uint128_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	const char *text = wr_ynode_text(n);
	uint64_t v = 0;
	uint32_t ip;
	int rc;

	switch (d->kind) {
	case WR_VAL_MAC:
		rc = wr_parse_mac(text, &v, why, sizeof(why));
		break;
	case WR_VAL_IPV4:
		rc = wr_parse_ipv4(text, &ip, why, sizeof(why));
		v = ip;
		break;
	case WR_VAL_IPV6:
		rc = wr_parse_ipv6(text, out, why, sizeof(why));
		return rc == 0 ? 0 : wr_ywalk_why(w, n, why);
	case WR_VAL_INT:
	default:
		rc = wr_parse_u64(text, 0, field_max(d), &v, why, sizeof(why));
		break;
	}
	*out = v;
	return rc == 0 ? 0 : wr_ywalk_why(w, n, why);
}

/* {random: {prefix: 10.1.0.0/16}}: every address of an IPv4 or IPv6 prefix. */
static int
field_prefix(struct wr_ywalk *w, const struct wr_ynode *n,
	     const struct vdesc *d, struct wr_field_spec *fs)
{
	char text[80], why[WR_PARSE_WHY_MAX], *slash;
	const char *what = d->kind == WR_VAL_IPV6 ? "an IPv6 prefix such as 2001:db8::/64" :
						    "an IPv4 prefix such as 10.1.0.0/16";
	__uint128_t addr, host;
	uint64_t plen;
	uint32_t ip;

	if ((d->kind != WR_VAL_IPV4 && d->kind != WR_VAL_IPV6) ||
	    n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, d->kind == WR_VAL_IPV4 ||
					 d->kind == WR_VAL_IPV6 ? what :
					 "min and max (prefix is for addresses)");
	snprintf(text, sizeof(text), "%s", wr_ynode_text(n));
	slash = strchr(text, '/');
	if (slash == NULL)
		return wr_ywalk_expected(w, n, what);
	*slash++ = '\0';
	if (wr_parse_u64(slash, 0, d->bits, &plen, why, sizeof(why)) != 0)
		return wr_ywalk_expected(w, n, what);
	if (d->kind == WR_VAL_IPV6) {
		if (wr_parse_ipv6(text, &addr, why, sizeof(why)) != 0)
			return wr_ywalk_expected(w, n, what);
	} else {
		if (wr_parse_ipv4(text, &ip, why, sizeof(why)) != 0)
			return wr_ywalk_expected(w, n, what);
		addr = ip;
	}
	host = plen >= d->bits ? 0 : ((__uint128_t)1 << (d->bits - plen)) - 1;
	fs->from = addr & ~host;
	fs->to = fs->from | host;
	fs->mode = WR_VARY_RANDOM;
	fs->value = fs->from;
	return 0;
}

/* {inc|dec: {from, to, step}} */
static int
field_step(struct wr_ywalk *w, const struct wr_ynode *n,
	   const struct vdesc *id, bool inc, struct wr_field_spec *fs)
{
	const struct wr_ynode *from = wr_ynode_get(n, "from");
	const struct wr_ynode *to = wr_ynode_get(n, "to");
	const struct wr_ynode *step = wr_ynode_get(n, "step");
	char what[96];
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {from, to, step}", step_keys);
	if (rc != 0)
		return rc;
	if (from == NULL)
		return wr_ywalk_missing(w, n, "from");
	if (to == NULL)
		return wr_ywalk_missing(w, n, "to");
	fs->step = 1;
	rc = WR_YWALK_KEY(w, "from", field_value(w, from, id, &fs->from));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "to", field_value(w, to, id, &fs->to));
	if (rc == 0 && step != NULL) {
		uint64_t st;

		rc = WR_YWALK_KEY(w, "step", wr_ywalk_u64(w, step, 1, field_max(id),
						       &st));
		fs->step = st;
	}
	if (rc != 0)
		return rc;
	if (inc ? fs->to < fs->from : fs->to > fs->from) {
		snprintf(what, sizeof(what), "a value %s from (%s) for %s",
			 inc ? ">=" : "<=", from->str, inc ? "inc" : "dec");
		return WR_YWALK_KEY(w, "to", wr_ywalk_expected(w, to, what));
	}
	fs->mode = inc ? WR_VARY_INC : WR_VARY_DEC;
	fs->value = fs->from;
	return 0;
}

/* {random: {min, max}} */
static int
field_random(struct wr_ywalk *w, const struct wr_ynode *n,
	     const struct vdesc *id, struct wr_field_spec *fs)
{
	const struct wr_ynode *min = wr_ynode_get(n, "min");
	const struct wr_ynode *max = wr_ynode_get(n, "max");
	char what[96];
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {min, max} or {prefix}", random_keys);
	if (rc != 0)
		return rc;
	if (wr_ynode_get(n, "prefix") != NULL) {
		if (min != NULL || max != NULL)
			return wr_ywalk_fail(w, n, "expected either prefix or min and max, not both");
		return WR_YWALK_KEY(w, "prefix", field_prefix(w,
				    wr_ynode_get(n, "prefix"), id, fs));
	}
	if (min == NULL)
		return wr_ywalk_missing(w, n, "min");
	if (max == NULL)
		return wr_ywalk_missing(w, n, "max");
	rc = WR_YWALK_KEY(w, "min", field_value(w, min, id, &fs->from));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "max", field_value(w, max, id, &fs->to));
	if (rc != 0)
		return rc;
	if (fs->to < fs->from) {
		snprintf(what, sizeof(what), "a value >= min (%s)", min->str);
		return WR_YWALK_KEY(w, "max", wr_ywalk_expected(w, max, what));
	}
	fs->mode = WR_VARY_RANDOM;
	fs->value = fs->from;
	return 0;
}

/* {list: [v, ...]} */
static int
field_list(struct wr_ywalk *w, const struct wr_ynode *n,
	   const struct vdesc *id, struct wr_field_spec *fs)
{
	__uint128_t *list;
	size_t i, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 || n->n_kids > WR_VARY_LIST_MAX) {
		if (n->type == WR_YNODE_SEQ)
			return wr_ywalk_fail(w, n, "expected a list of 1 to %u "
					     "values, got %zu", WR_VARY_LIST_MAX,
					     n->n_kids);
		return wr_ywalk_expected(w, n, "a list of values [v, ...]");
	}
	list = calloc(n->n_kids, sizeof(*list));
	if (list == NULL)
		return -ENOMEM;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		rc = field_value(w, n->kids[i], id, &list[i]);
		wr_ywalk_pop(w, old);
	}
	if (rc != 0) {
		free(list);
		return rc;
	}
	fs->mode = WR_VARY_LIST;
	fs->list = list;
	fs->list_len = (uint32_t)n->n_kids;
	fs->value = list[0];
	return 0;
}

/* A header field: a scalar (fixed) or a one-key vary mapping. */
static int
field_spec(struct wr_ywalk *w, const struct wr_ynode *n,
	   const struct vdesc *id, struct wr_field_spec *fs)
{
	const struct wr_ynode *body = NULL;
	size_t old;
	int mode, rc;

	if (n->type == WR_YNODE_SCALAR) {
		rc = field_value(w, n, id, &fs->value);
		if (rc == 0)
			fs->mode = WR_VARY_FIXED;
		return rc;
	}
	mode = wr_ywalk_one_key(w, n, "a value or one of {inc: ...}, {dec: ...}, "
		       "{random: ...}, {list: [...]}", vary_keys, &body);
	if (mode < 0)
		return mode;
	old = wr_ywalk_push_key(w, vary_keys[mode]);
	switch (mode) {
	case 0:
	case 1:
		rc = field_step(w, body, id, mode == 0, fs);
		break;
	case 2:
		rc = field_random(w, body, id, fs);
		break;
	default:
		rc = field_list(w, body, id, fs);
		break;
	}
	wr_ywalk_pop(w, old);
	return rc;
}

int
wr_vary_parse(struct wr_ywalk *w, const struct wr_ynode *n, unsigned int kind,
	      unsigned int bits, struct wr_field_spec *fs)
{
	struct vdesc d = { (uint8_t)kind, (uint8_t)bits };

	return field_spec(w, n, &d, fs);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_pat: an OTG field pattern (value, values, increment, decrement, random, auto) read into a sequence of values and written as wirerate's vary grammar. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg_priv.h"
#include "wr_rng.h"
#include "wr_vary.h"

/*
 * OTG counters (increment, decrement) are start, step, count: the values
 * start, start + step, ... count of them, then start again (the model's
 * counter).  wirerate's {inc: {from, to, step}} is the same sequence when
 * it does not wrap at the field's width: to = start + (count - 1) * step.
 * One that wraps (a MAC counting past ff:ff:ff:ff:ff:ff) is written as a
 * list, up to WR_VARY_LIST_MAX values.
 */

static u128
field_max(unsigned int bits)
{
	return bits >= 128 ? ~(u128)0 : (((u128)1 << bits) - 1);
}

static int
parse_mac(const char *t, u128 *out)
{
	unsigned int b[6];
	char end;
	u128 v = 0;
	int i;

	if (sscanf(t, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
		   &b[4], &b[5], &end) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++)
		v = v << 8 | b[i];
	*out = v;
	return 0;
}

int
wr_otg_val_parse(enum wr_otg_vk kind, const json_t *j, u128 *out)
{
	const char *t;

	if (kind == WR_OTG_VK_INT) {
		if (json_is_integer(j)) {
			if (json_integer_value(j) < 0)
				return -EINVAL;
			*out = (u128)(uint64_t)json_integer_value(j);
			return 0;
		}
		if (json_is_string(j)) {
			char *end;
			unsigned long long v;

			t = json_string_value(j);
			if (t[0] < '0' || t[0] > '9')
				return -EINVAL;
			errno = 0;
			v = strtoull(t, &end, 10);
			if (errno != 0 || *end != '\0')
				return -EINVAL;
			*out = v;
			return 0;
		}
		return -EINVAL;
	}
	if (!json_is_string(j))
		return -EINVAL;
	t = json_string_value(j);
	if (kind == WR_OTG_VK_MAC)
		return parse_mac(t, out);
	if (kind == WR_OTG_VK_IP4) {
		uint8_t a[4];

		if (inet_pton(AF_INET, t, a) != 1)
			return -EINVAL;
		*out = (u128)a[0] << 24 | (u128)a[1] << 16 | (u128)a[2] << 8 | a[3];
		return 0;
	} else {
		uint8_t a[16];
		u128 v = 0;
		int i;

		if (inet_pton(AF_INET6, t, a) != 1)
			return -EINVAL;
		for (i = 0; i < 16; i++)
			v = v << 8 | a[i];
		*out = v;
		return 0;
	}
}

json_t *
wr_otg_val_json(enum wr_otg_vk kind, u128 v)
{
	char t[INET6_ADDRSTRLEN];
	uint8_t a[16];
	int i;

	switch (kind) {
	case WR_OTG_VK_INT:
		if (v > (u128)INT64_MAX)
			return NULL;
		return json_integer((json_int_t)v);
	case WR_OTG_VK_MAC:
		snprintf(t, sizeof(t), "%02x:%02x:%02x:%02x:%02x:%02x",
			 (unsigned int)(v >> 40) & 0xff, (unsigned int)(v >> 32) & 0xff,
			 (unsigned int)(v >> 24) & 0xff, (unsigned int)(v >> 16) & 0xff,
			 (unsigned int)(v >> 8) & 0xff, (unsigned int)v & 0xff);
		return json_string(t);
	case WR_OTG_VK_IP4:
		snprintf(t, sizeof(t), "%u.%u.%u.%u", (unsigned int)(v >> 24) & 0xff,
			 (unsigned int)(v >> 16) & 0xff, (unsigned int)(v >> 8) & 0xff,
			 (unsigned int)v & 0xff);
		return json_string(t);
	case WR_OTG_VK_IP6:
		for (i = 15; i >= 0; i--) {
			a[i] = (uint8_t)v;
			v >>= 8;
		}
		if (inet_ntop(AF_INET6, a, t, sizeof(t)) == NULL)
			return NULL;
		return json_string(t);
	}
	return NULL;
}

static const char *
kind_what(enum wr_otg_vk kind, unsigned int bits)
{
	static const char *const what[] = {
		[WR_OTG_VK_MAC] = "a MAC address",
		[WR_OTG_VK_IP4] = "an IPv4 address",
		[WR_OTG_VK_IP6] = "an IPv6 address",
	};

	(void)bits;
	return kind == WR_OTG_VK_INT ? "an integer" : what[kind];
}

/* @p j at @p path: a value of the field (kind, width). */
static int
val_get(const struct wr_otg_fdesc *f, const json_t *j, const char *path,
	u128 *out, struct wr_otg_err *err)
{
	char *txt;
	int rc;

	if (wr_otg_val_parse(f->kind, j, out) == 0 && *out <= field_max(f->bits))
		return 0;
	txt = json_dumps(j, JSON_ENCODE_ANY | JSON_COMPACT);
	if (f->kind == WR_OTG_VK_INT)
		rc = wr_otg_err_add(err, path, "expected an integer in 0..%" PRIu64
				    ", got %s", (uint64_t)field_max(f->bits),
				    txt != NULL ? txt : "?");
	else
		rc = wr_otg_err_add(err, path, "expected %s, got %s",
				    kind_what(f->kind, f->bits),
				    txt != NULL ? txt : "?");
	free(txt);
	return rc;
}

/* A member of @p obj that the check may have left out: the model's
 * default is @p dflt (a field's value text, or an integer). */
static int
member_u128(const struct wr_otg_fdesc *f, const json_t *obj, const char *key,
	    const char *path, const char *dflt, u128 *out,
	    struct wr_otg_err *err)
{
	const json_t *j = json_object_get(obj, key);
	char p[WR_OTG_PATH_MAX];
	json_t *d;
	int rc;

	wr_otg_at(p, "%s.%s", path, key);
	if (j != NULL)
		return val_get(f, j, p, out, err);
	d = f->kind == WR_OTG_VK_INT ? json_integer(strtoll(dflt, NULL, 0)) :
		json_string(dflt);
	rc = val_get(f, d, p, out, err);
	json_decref(d);
	return rc;
}

static int
count_get(const json_t *obj, const char *path, uint64_t *count,
	  struct wr_otg_err *err)
{
	const json_t *j = json_object_get(obj, "count");
	char p[WR_OTG_PATH_MAX];
	u128 v = 1;

	wr_otg_at(p, "%s.count", path);
	if (j != NULL && (wr_otg_val_parse(WR_OTG_VK_INT, j, &v) != 0 ||
			  v > UINT32_MAX))
		return wr_otg_err_add(err, p, "expected an integer in "
				      "1..4294967295");
	if (v == 0)
		return wr_otg_err_add(err, p, "expected an integer >= 1, got 0");
	*count = (uint64_t)v;
	return 0;
}

/* 0 in the field's own syntax. */
static const char *
zero_text(enum wr_otg_vk kind)
{
	static const char *const d[] = {
		[WR_OTG_VK_INT] = "0", [WR_OTG_VK_MAC] = "00:00:00:00:00:00",
		[WR_OTG_VK_IP4] = "0.0.0.0", [WR_OTG_VK_IP6] = "::",
	};

	return d[kind];
}

/* The step's default of a counter: 1 in the field's own syntax. */
static const char *
step_default(enum wr_otg_vk kind)
{
	static const char *const d[] = {
		[WR_OTG_VK_INT] = "1", [WR_OTG_VK_MAC] = "00:00:00:00:00:01",
		[WR_OTG_VK_IP4] = "0.0.0.1", [WR_OTG_VK_IP6] = "::1",
	};

	return d[kind];
}

static int
seq_list(struct wr_otg_seq *s, uint64_t n, const char *path,
	 struct wr_otg_err *err)
{
	if (n > WR_VARY_LIST_MAX)
		return wr_otg_err_add(err, path, "a counter that wraps at the "
				      "field's width is sent as a list of at "
				      "most %u values, got a count of %" PRIu64,
				      WR_VARY_LIST_MAX, n);
	s->list = calloc(n, sizeof(*s->list));
	if (s->list == NULL)
		return -ENOMEM;
	s->mode = WR_OTG_SEQ_LIST;
	s->n = (size_t)n;
	return 0;
}

/* increment / decrement {start, step, count} */
static int
seq_counter(const struct wr_otg_fdesc *f, const json_t *c, const char *path,
	    bool down, struct wr_otg_seq *s, struct wr_otg_err *err)
{
	u128 start = 0, step = 0, span, max = field_max(f->bits);
	uint64_t count = 0, i;
	int rc;

	rc = member_u128(f, c, "start", path, f->dval != NULL ? f->dval :
			 zero_text(f->kind), &start, err);
	rc |= member_u128(f, c, "step", path, step_default(f->kind), &step, err);
	rc |= count_get(c, path, &count, err);
	if (rc != 0)
		return -EINVAL;
	s->v = start;
	if (count == 1 || step == 0) {
		s->mode = WR_OTG_SEQ_FIXED;
		return 0;
	}
	/* No overflow: step <= max < 2^bits and count < 2^32 fit 128 bits
	 * when bits <= 96; wider fields check the product first. */
	if (f->bits <= 96 || step <= max / (count - 1)) {
		span = step * (count - 1);
		if (span <= (down ? start : max - start) && step <= INT64_MAX) {
			s->mode = down ? WR_OTG_SEQ_DEC : WR_OTG_SEQ_INC;
			s->to = down ? start - span : start + span;
			s->step = step;
			return 0;
		}
	}
	rc = seq_list(s, count, path, err);
	if (rc != 0)
		return rc;
	for (i = 0; i < count; i++)
		s->list[i] = (down ? start - step * i : start + step * i) & max;
	return 0;
}

/* random {min, max, seed, count}: "count" values drawn from "seed", sent
 * in turn (the model: the total number of values generated; a seed of 0
 * asks for values that are not deterministic: then a new value on every
 * frame, drawn from the stream's seed). */
static int
seq_random(const struct wr_otg_fdesc *f, const json_t *r, const char *path,
	   struct wr_otg_seq *s, struct wr_otg_err *err)
{
	u128 lo = 0, hi = 0, seed = 1;
	uint64_t count = 0, i, key, range, thr;
	const json_t *j = json_object_get(r, "seed");
	char dmax[48];
	int rc;

	snprintf(dmax, sizeof(dmax), "%" PRIu64, (uint64_t)field_max(f->bits));
	rc = member_u128(f, r, "min", path, f->kind == WR_OTG_VK_IP4 ?
			 "0.0.0.0" : "0", &lo, err);
	rc |= member_u128(f, r, "max", path, f->kind == WR_OTG_VK_IP4 ?
			  "255.255.255.255" : dmax, &hi, err);
	rc |= count_get(r, path, &count, err);
	if (j != NULL && wr_otg_val_parse(WR_OTG_VK_INT, j, &seed) != 0)
		rc |= wr_otg_err_add(err, path, "seed: expected an integer");
	if (rc != 0)
		return -EINVAL;
	if (lo > hi)
		return wr_otg_err_add(err, path, "expected min <= max");
	/* The model has random on fields of 32 bits at most (ports, IPv4
	 * addresses, the flow label); a wider one is not drawn here. */
	if (f->bits > 32)
		return wr_otg_err_add(err, path, "not on a field of %u bits",
				      f->bits);
	s->v = lo;
	s->to = hi;
	if (seed == 0 || count > WR_VARY_LIST_MAX) {
		s->mode = WR_OTG_SEQ_RANDOM;
		return 0;
	}
	rc = seq_list(s, count, path, err);
	if (rc != 0)
		return rc;
	key = wr_rng_key((uint64_t)seed, 0);
	range = (uint64_t)(hi - lo) + 1; /* fields of random are <= 32 bits */
	thr = wr_rng_threshold(range);
	for (i = 0; i < count; i++)
		s->list[i] = lo + wr_rng_below(wr_rng_at(key, i), range, thr);
	return 0;
}

static int
seq_values(const struct wr_otg_fdesc *f, const json_t *a, const char *path,
	   struct wr_otg_seq *s, struct wr_otg_err *err)
{
	char p[WR_OTG_PATH_MAX];
	size_t i;
	int rc = 0;

	if (!json_is_array(a) || json_array_size(a) == 0)
		return wr_otg_err_add(err, path, "expected a list of 1..%u "
				      "values", WR_VARY_LIST_MAX);
	rc = seq_list(s, json_array_size(a), path, err);
	if (rc != 0)
		return rc;
	for (i = 0; i < s->n; i++) {
		wr_otg_at(p, "%s[%zu]", path, i);
		rc |= val_get(f, json_array_get(a, i), p, &s->list[i], err);
	}
	return rc != 0 ? -EINVAL : 0;
}

int
wr_otg_seq_read(const struct wr_otg_fdesc *f, const json_t *pat,
		const char *path, struct wr_otg_seq *s, struct wr_otg_err *err)
{
	const char *choice;
	const json_t *mt;
	char p[WR_OTG_PATH_MAX];
	json_t *d;
	int rc;

	memset(s, 0, sizeof(*s));
	if (pat == NULL) {
		/* Absent: the model's default choice and value. */
		if (f->dval == NULL) {
			s->mode = WR_OTG_SEQ_AUTO;
			return 0;
		}
		d = f->kind == WR_OTG_VK_INT ?
			json_integer(strtoll(f->dval, NULL, 0)) : json_string(f->dval);
		rc = val_get(f, d, path, &s->v, err);
		json_decref(d);
		s->mode = WR_OTG_SEQ_FIXED;
		return rc;
	}
	if (!json_is_object(pat))
		return wr_otg_err_add(err, path, "expected an object");
	mt = json_object_get(pat, "metric_tags");
	if (mt != NULL && json_array_size(mt) > 0) {
		wr_otg_at(p, "%s.metric_tags", path);
		return wr_otg_err_add(err, p, "not supported: wirerate counts a "
				      "flow as a whole, not per value of a field");
	}
	choice = json_string_value(json_object_get(pat, "choice"));
	if (choice == NULL)
		choice = f->dval == NULL ? "auto" : "value";
	wr_otg_at(p, "%s.%s", path, choice);
	if (strcmp(choice, "value") == 0) {
		const json_t *v = json_object_get(pat, "value");

		s->mode = WR_OTG_SEQ_FIXED;
		if (v == NULL)
			return member_u128(f, pat, "value", path, f->dval != NULL ?
					   f->dval : zero_text(f->kind), &s->v, err);
		return val_get(f, v, p, &s->v, err);
	}
	if (strcmp(choice, "values") == 0)
		return seq_values(f, json_object_get(pat, "values"), p, s, err);
	if (strcmp(choice, "increment") == 0 || strcmp(choice, "decrement") == 0)
		return seq_counter(f, json_object_get(pat, choice) != NULL ?
				   json_object_get(pat, choice) : json_object(),
				   p, choice[0] == 'd', s, err);
	if (strcmp(choice, "random") == 0 && json_object_get(pat, "random") != NULL)
		return seq_random(f, json_object_get(pat, "random"), p, s, err);
	if (strcmp(choice, "auto") == 0) {
		const json_t *a = json_object_get(pat, "auto");

		s->mode = WR_OTG_SEQ_AUTO;
		/* The model's auto member holds the value used when nothing
		 * better is known (its default); an object (ipv4's dhcp) is
		 * a choice of where to take it from. */
		if (a != NULL && !json_is_object(a) &&
		    val_get(f, a, p, &s->v, err) != 0)
			return -EINVAL;
		s->has_auto = a != NULL && !json_is_object(a);
		s->auto_obj = a != NULL && json_is_object(a);
		return 0;
	}
	if (strcmp(choice, "generated") == 0 || strcmp(choice, "custom") == 0) {
		s->mode = WR_OTG_SEQ_AUTO;
		s->csum_custom = choice[0] == 'c';
		s->csum_bad = choice[0] == 'g' &&
			json_is_string(json_object_get(pat, "generated")) &&
			strcmp(json_string_value(json_object_get(pat, "generated")),
			       "good") != 0;
		return 0;
	}
	return wr_otg_err_add(err, path, "choice %s: not one this field has",
			      choice);
}

void
wr_otg_seq_free(struct wr_otg_seq *s)
{
	free(s->list);
	s->list = NULL;
	s->n = 0;
}

uint64_t
wr_otg_seq_len(const struct wr_otg_seq *s)
{
	switch (s->mode) {
	case WR_OTG_SEQ_LIST:
		return s->n;
	case WR_OTG_SEQ_INC:
		return (uint64_t)((s->to - s->v) / s->step) + 1;
	case WR_OTG_SEQ_DEC:
		return (uint64_t)((s->v - s->to) / s->step) + 1;
	default:
		return 1;
	}
}

u128
wr_otg_seq_at(const struct wr_otg_seq *s, uint64_t k)
{
	uint64_t n = wr_otg_seq_len(s);

	switch (s->mode) {
	case WR_OTG_SEQ_LIST:
		return s->list[k % n];
	case WR_OTG_SEQ_INC:
		return s->v + s->step * (k % n);
	case WR_OTG_SEQ_DEC:
		return s->v - s->step * (k % n);
	default:
		return s->v;
	}
}

json_t *
wr_otg_seq_json(const struct wr_otg_seq *s, enum wr_otg_vk kind)
{
	json_t *a;
	size_t i;

	switch (s->mode) {
	case WR_OTG_SEQ_FIXED:
	case WR_OTG_SEQ_AUTO:
		return wr_otg_val_json(kind, s->v);
	case WR_OTG_SEQ_LIST:
		if (s->n == 1)
			return wr_otg_val_json(kind, s->list[0]);
		a = json_array();
		for (i = 0; a != NULL && i < s->n; i++)
			if (json_array_append_new(a, wr_otg_val_json(kind,
							 s->list[i])) != 0) {
				json_decref(a);
				return NULL;
			}
		return json_pack("{s:o}", "list", a);
	case WR_OTG_SEQ_INC:
	case WR_OTG_SEQ_DEC:
		return json_pack("{s:{s:o, s:o, s:I}}",
				 s->mode == WR_OTG_SEQ_INC ? "inc" : "dec",
				 "from", wr_otg_val_json(kind, s->v),
				 "to", wr_otg_val_json(kind, s->to),
				 "step", (json_int_t)s->step);
	case WR_OTG_SEQ_RANDOM:
		return json_pack("{s:{s:o, s:o}}", "random",
				 "min", wr_otg_val_json(kind, s->v),
				 "max", wr_otg_val_json(kind, s->to));
	}
	return NULL;
}

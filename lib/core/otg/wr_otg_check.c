/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_check: a request body against the OTG model's schemas (wr_otg_schema.c): every problem with its JSON path, the model's defaults filled in. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg.h"
#include "wr_otg_schema.h"

/* The walk follows the model's schemas, which have no cycles: its deepest
 * chain of objects is 17 (Config.Update; Config's is 16), so a document
 * nested deeper is refused at an unknown member first.  The cap guards the
 * stack should a later model recurse. */
#define CHECK_DEPTH_MAX 64
/* "got ..." shows at most this much of a string the model refused. */
#define GOT_MAX 48

struct check {
	struct wr_otg_err *err;
	char path[1024];
	size_t len;
	unsigned int depth;
	unsigned int made;           /**< inside an object the check made */
};

/* ---- the path of what is being checked ---- */

static size_t
path_push_key(struct check *c, const char *key)
{
	size_t was = c->len;
	int n = snprintf(c->path + c->len, sizeof(c->path) - c->len, "%s%s",
			 c->len > 0 ? "." : "", key);

	if (n > 0)
		c->len = c->len + (size_t)n < sizeof(c->path) ?
			 c->len + (size_t)n : sizeof(c->path) - 1;
	return was;
}

static size_t
path_push_index(struct check *c, size_t i)
{
	size_t was = c->len;
	int n = snprintf(c->path + c->len, sizeof(c->path) - c->len, "[%zu]",
			 i);

	if (n > 0)
		c->len = c->len + (size_t)n < sizeof(c->path) ?
			 c->len + (size_t)n : sizeof(c->path) - 1;
	return was;
}

static void
path_pop(struct check *c, size_t was)
{
	c->len = was;
	c->path[was] = '\0';
}

/* ---- "got ..." ---- */

static void
got(const json_t *v, char *buf, size_t size)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		snprintf(buf, size, "an object");
		break;
	case JSON_ARRAY:
		snprintf(buf, size, "an array");
		break;
	case JSON_STRING: {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
		size_t n = s != NULL ? strlen(s) : 0;

		if (s == NULL)
			snprintf(buf, size, "a string");
		else if (n > GOT_MAX)
			snprintf(buf, size, "%.*s...\" (%zu characters)",
				 GOT_MAX, s, json_string_length(v));
		else
			snprintf(buf, size, "%s", s);
		free(s);
		break;
	}
	case JSON_INTEGER:
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT,
			 json_integer_value(v));
		break;
	case JSON_REAL: {
		double d = json_real_value(v);

		snprintf(buf, size, "%.15g", d);
		if (strpbrk(buf, ".eE") == NULL && size > strlen(buf) + 2)
			strcat(buf, ".0");
		break;
	}
	case JSON_TRUE:
		snprintf(buf, size, "true");
		break;
	case JSON_FALSE:
		snprintf(buf, size, "false");
		break;
	default:
		snprintf(buf, size, "null");
		break;
	}
}

static void
fail(struct check *c, const json_t *v, const char *expected)
{
	char g[GOT_MAX + 40];

	got(v, g, sizeof(g));
	wr_otg_err_add(c->err, c->path, "expected %s, got %s", expected, g);
}

/* ---- formats ---- */

static bool
is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

static bool
is_mac(const char *s)
{
	for (int i = 0; i < 6; i++) {
		if (!is_hex(s[0]) || !is_hex(s[1]))
			return false;
		s += 2;
		if (*s != (i < 5 ? ':' : '\0'))
			return false;
		s += i < 5;
	}
	return true;
}

/* hex: "0x1f", "1F"; hexbytes (Flow.Custom.bytes' pattern
 * ^(?:0[xX])?[A-Fa-f0-9: ]+$): also ':' and ' ' between the digits. */
static bool
is_hexstr(const char *s, bool seps)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!is_hex(*s) && !(seps && (*s == ':' || *s == ' ')))
			return false;
	return true;
}

/* An OID in dotted decimal ("1.3.6.1.2.1"): at least two arcs (the first
 * two share BER's first byte), each fitting 32 bits. */
static bool
is_oid(const char *s)
{
	unsigned int arcs = 0;

	while (*s != '\0') {
		unsigned long long a = 0;
		const char *d = s;

		while (*s >= '0' && *s <= '9' && s - d < 11)
			a = a * 10 + (unsigned long long)(*s++ - '0');
		if (s == d || a > UINT32_MAX)
			return false;
		arcs++;
		if (*s == '.' && s[1] != '\0')
			s++;
		else if (*s != '\0')
			return false;
	}
	return arcs >= 2;
}

static const char *
fmt_check(uint8_t fmt, const char *s)
{
	unsigned char buf[16];

	switch (fmt) {
	case WR_OTG_F_MAC:
		return is_mac(s) ? NULL : "a MAC address (xx:xx:xx:xx:xx:xx)";
	case WR_OTG_F_IPV4:
		return inet_pton(AF_INET, s, buf) == 1 ? NULL :
		       "an IPv4 address";
	case WR_OTG_F_IPV6:
		return inet_pton(AF_INET6, s, buf) == 1 ? NULL :
		       "an IPv6 address";
	case WR_OTG_F_HEX:
		return is_hexstr(s, false) ? NULL : "hexadecimal digits";
	case WR_OTG_F_HEXBYTES:
		return is_hexstr(s, true) ? NULL :
		       "hexadecimal bytes (spaces and ':' allowed)";
	case WR_OTG_F_OID:
		return is_oid(s) ? NULL : "an OID (dotted decimal)";
	default:
		return NULL;
	}
}

/* ---- scalars ---- */

static size_t
utf8_chars(const char *s, size_t bytes)
{
	size_t n = 0;

	for (size_t i = 0; i < bytes; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

static bool
check_enum(struct check *c, const json_t *v, const char *const *en)
{
	char want[600];
	size_t n = 0;

	for (const char *const *e = en; *e != NULL; e++)
		if (strcmp(*e, json_string_value(v)) == 0)
			return true;
	n += (size_t)snprintf(want, sizeof(want), "one of");
	for (const char *const *e = en; *e != NULL && n < sizeof(want); e++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s %s",
				      e == en ? "" : ",", *e);
	fail(c, v, want);
	return false;
}

static void
check_string(struct check *c, const json_t *v, const struct wr_otg_prop *p)
{
	const char *s = json_string_value(v);
	const char *want;
	size_t n;
	char msg[80];

	if (s == NULL) {
		fail(c, v, "a string");
		return;
	}
	if (p->en != NULL && !check_enum(c, v, p->en))
		return;
	if (strlen(s) != json_string_length(v)) {
		fail(c, v, "a string without NUL");
		return;
	}
	want = fmt_check(p->fmt, s);
	if (want != NULL) {
		fail(c, v, want);
		return;
	}
	n = utf8_chars(s, json_string_length(v));
	if (p->len_lo > 0 && n < p->len_lo) {
		snprintf(msg, sizeof(msg), "at least %" PRIu32 " characters",
			 p->len_lo);
		fail(c, v, msg);
	} else if (p->len_hi > 0 && n > p->len_hi) {
		snprintf(msg, sizeof(msg), "at most %" PRIu32 " characters",
			 p->len_hi);
		fail(c, v, msg);
	}
}

/* A 64-bit integer as snappi may write it (a decimal string).
 * @return 0; -EINVAL not a decimal integer; -ERANGE past 64 bits signed
 * (jansson's json_int_t). */
static int
parse_decimal(const char *s, bool is_signed, json_int_t *out)
{
	const char *d = s + (*s == '-' && is_signed);
	char *end;
	long long v;

	if (*d < '0' || *d > '9')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0')
		return -EINVAL;
	if (errno != 0)
		return -ERANGE;
	*out = v;
	return 0;
}

/* @return a new value to put in @p v's place (a 64-bit string made an
 * integer), or NULL (keep it). */
static json_t *
check_integer(struct check *c, json_t *v, const struct wr_otg_prop *p)
{
	bool wide = p->fmt == WR_OTG_F_U64 || p->fmt == WR_OTG_F_I64;
	bool is_signed = p->fmt == WR_OTG_F_I32 || p->fmt == WR_OTG_F_I64;
	long long lo = is_signed ? (wide ? LLONG_MIN : INT32_MIN) : 0;
	long long hi = wide ? LLONG_MAX : is_signed ? INT32_MAX : UINT32_MAX;
	json_t *made = NULL;
	json_int_t x;
	char msg[64];

	if (json_is_string(v) && wide) {
		int rc = parse_decimal(json_string_value(v), is_signed, &x);

		if (rc == -ERANGE) {
			fail(c, v, json_string_value(v)[0] == '-' ?
			     "an integer >= -9223372036854775808" :
			     "an integer <= 9223372036854775807");
			return NULL;
		}
		if (rc < 0) {
			fail(c, v, "an integer (a JSON number or a decimal "
				   "string)");
			return NULL;
		}
		made = json_integer(x);
	} else if (json_is_integer(v)) {
		x = json_integer_value(v);
	} else {
		fail(c, v, "an integer");
		return NULL;
	}
	if ((p->flags & WR_OTG_LO) && p->lo > lo)
		lo = p->lo;
	if ((p->flags & WR_OTG_HI) && p->hi < hi)
		hi = p->hi;
	if (x < lo || x > hi) {
		snprintf(msg, sizeof(msg), "an integer %s %lld",
			 x < lo ? ">=" : "<=", x < lo ? lo : hi);
		fail(c, made != NULL ? made : v, msg);
		json_decref(made);
		return NULL;
	}
	return made;
}

static void
check_number(struct check *c, const json_t *v, const struct wr_otg_prop *p)
{
	double x;
	char msg[64];

	if (!json_is_number(v)) {
		fail(c, v, "a number");
		return;
	}
	x = json_number_value(v);
	if ((p->flags & WR_OTG_LO) && x < (double)p->lo) {
		snprintf(msg, sizeof(msg), "a number >= %lld", p->lo);
		fail(c, v, msg);
	} else if ((p->flags & WR_OTG_HI) && x > (double)p->hi) {
		snprintf(msg, sizeof(msg), "a number <= %lld", p->hi);
		fail(c, v, msg);
	}
}

/* ---- objects and arrays ---- */

static void check_object(struct check *c, json_t *o, uint16_t head);

/* One value of member @p p (an array's item when @p p is an array).
 * @return a replacement (new reference) or NULL. */
static json_t *
check_one(struct check *c, json_t *v, const struct wr_otg_prop *p)
{
	switch (p->type) {
	case WR_OTG_OBJ:
		check_object(c, v, p->ref);
		return NULL;
	case WR_OTG_STR:
		check_string(c, v, p);
		return NULL;
	case WR_OTG_INT:
		return check_integer(c, v, p);
	case WR_OTG_NUM:
		check_number(c, v, p);
		return NULL;
	default:
		if (!json_is_boolean(v))
			fail(c, v, "a boolean");
		return NULL;
	}
}

static json_t *
check_member(struct check *c, json_t *v, const struct wr_otg_prop *p)
{
	size_t i, n;
	char msg[64];

	if (!(p->flags & WR_OTG_ARRAY))
		return check_one(c, v, p);
	if (!json_is_array(v)) {
		fail(c, v, "an array");
		return NULL;
	}
	n = json_array_size(v);
	if (n < p->items_lo || (p->items_hi > 0 && n > p->items_hi)) {
		char g[32];

		snprintf(msg, sizeof(msg), "%s %u item%s",
			 n < p->items_lo ? "at least" : "at most",
			 n < p->items_lo ? p->items_lo : p->items_hi,
			 (n < p->items_lo ? p->items_lo : p->items_hi) == 1 ?
			 "" : "s");
		snprintf(g, sizeof(g), "%zu", n);
		wr_otg_err_add(c->err, c->path, "expected %s, got %s", msg, g);
	}
	for (i = 0; i < n; i++) {
		size_t was = path_push_index(c, i);
		json_t *r = check_one(c, json_array_get(v, i), p);

		if (r != NULL)
			json_array_set_new(v, i, r);
		path_pop(c, was);
	}
	return NULL;
}

static const struct wr_otg_prop *
find_member(uint16_t head, const char *key)
{
	const struct wr_otg_prop *h = &wr_otg_props[head];

	for (unsigned int i = 1; i <= h->n; i++)
		if (strcmp(h[i].name, key) == 0)
			return &h[i];
	return NULL;
}

/* The default of @p p as a JSON value (new reference), NULL none. */
static json_t *
default_value(const struct wr_otg_prop *p)
{
	if (p->def == NULL)
		return NULL;
	if (p->flags & WR_OTG_ARRAY)
		return json_loads(p->def, JSON_DECODE_ANY, NULL);
	switch (p->type) {
	case WR_OTG_STR:
		return json_string(p->def);
	case WR_OTG_INT:
		return json_integer(strtoll(p->def, NULL, 10));
	case WR_OTG_NUM:
		return json_real(strtod(p->def, NULL));
	case WR_OTG_BOOL:
		return json_boolean(strcmp(p->def, "true") == 0);
	default:
		return NULL;
	}
}

/* The choice of @p o: its member "choice" as given; else the one
 * alternative present (as gosnappi reads {"rate": {"bps": 9000}}); else the
 * model's default.  Set in @p o when it was not. */
static const char *
choose(struct check *c, json_t *o, const struct wr_otg_prop *h)
{
	const struct wr_otg_prop *cp = NULL, *only = NULL;
	json_t *v;
	unsigned int alts = 0;

	for (unsigned int i = 1; i <= h->n; i++) {
		if (h[i].flags & WR_OTG_CHOICE)
			cp = &h[i];
		else if ((h[i].flags & WR_OTG_ALT) &&
			 json_object_get(o, h[i].name) != NULL) {
			only = &h[i];
			alts++;
		}
	}
	if (cp == NULL)
		return NULL;
	v = json_object_get(o, cp->name);
	if (v != NULL) {
		const char *s = json_string_value(v);

		/* Refused above when not one of the enum. */
		for (const char *const *e = cp->en; s != NULL && *e != NULL;
		     e++)
			if (strcmp(*e, s) == 0)
				return s;
		return NULL;
	}
	if (alts > 1) {
		size_t was = path_push_key(c, cp->name);

		wr_otg_err_add(c->err, c->path, "required, missing (%u of "
			       "its alternatives are given)", alts);
		path_pop(c, was);
		return NULL;
	}
	if (alts == 1)
		v = json_string(only->name);
	else if (cp->def != NULL)
		v = json_string(cp->def);
	else if (c->made > 0 && cp->en != NULL && cp->en[0] != NULL &&
		 cp->en[1] == NULL)
		/* A required choice of one value in an object the check made
		 * (snappi's {"choice": "auto"} for ipv4's dst, whose auto is
		 * {"choice": "dhcp"} and nothing else). */
		v = json_string(cp->en[0]);
	else
		return NULL;
	if (v == NULL || json_object_set_new(o, cp->name, v) != 0)
		return NULL;
	return json_string_value(v);
}

static void
check_object(struct check *c, json_t *o, uint16_t head)
{
	const struct wr_otg_prop *h = &wr_otg_props[head];
	const struct wr_otg_prop *p;
	const char *key, *chosen;
	json_t *v;
	void *tmp;

	if (!json_is_object(o)) {
		fail(c, o, "an object");
		return;
	}
	if (++c->depth > CHECK_DEPTH_MAX) {
		wr_otg_err_add(c->err, c->path, "nested deeper than %d",
			       CHECK_DEPTH_MAX);
		c->depth--;
		return;
	}
	json_object_foreach_safe(o, tmp, key, v) {
		size_t was = path_push_key(c, key);
		json_t *r;

		p = find_member(head, key);
		if (p == NULL) {
			wr_otg_err_add(c->err, c->path, "unknown member");
		} else {
			r = check_member(c, v, p);
			if (r != NULL)
				json_object_set_new(o, key, r);
		}
		path_pop(c, was);
	}
	chosen = choose(c, o, h);
	for (unsigned int i = 1; i <= h->n; i++) {
		size_t was;

		p = &h[i];
		if (json_object_get(o, p->name) != NULL)
			continue;
		/* Only the chosen alternative is made: the others stay
		 * absent, as snappi leaves them. */
		if ((p->flags & WR_OTG_ALT) &&
		    (chosen == NULL || strcmp(chosen, p->name) != 0))
			continue;
		was = path_push_key(c, p->name);
		if (p->def != NULL) {
			json_object_set_new(o, p->name, default_value(p));
		} else if ((p->flags & WR_OTG_ALT) && p->type == WR_OTG_OBJ &&
			   !(p->flags & WR_OTG_ARRAY)) {
			json_t *made = json_object();

			if (made != NULL) {
				json_object_set_new(o, p->name, made);
				c->made++;
				check_object(c, made, p->ref);
				c->made--;
			}
		} else if (p->flags & WR_OTG_REQ) {
			wr_otg_err_add(c->err, c->path, "required, missing");
		}
		path_pop(c, was);
	}
	c->depth--;
}

static int
find_schema(const char *schema)
{
	size_t n = strlen(schema);

	if (n == 0)
		return -1;
	for (unsigned int i = 0; i < wr_otg_props_n;
	     i += 1u + wr_otg_props[i].n) {
		const char *s = wr_otg_props[i].def;

		while ((s = strstr(s, schema)) != NULL) {
			if (s[-1] == '|' && s[n] == '|')
				return (int)i;
			s += n;
		}
	}
	return -1;
}

int
wr_otg_check(json_t *doc, const char *schema, struct wr_otg_err *err)
{
	struct check c = { .err = err };
	size_t before;
	unsigned int more;
	int head;

	head = schema != NULL && strchr(schema, '|') == NULL ?
	       find_schema(schema) : -1;
	if (head < 0)
		return -ENOENT;
	if (err->errors == NULL)
		err->errors = json_array();
	if (err->errors == NULL)
		return -ENOMEM;
	before = json_array_size(err->errors);
	more = err->n_more;
	check_object(&c, doc, (uint16_t)head);
	return json_array_size(err->errors) > before || err->n_more > more ?
	       -EINVAL : 0;
}

/* A new object of the schema at @p head with its defaults. */
static json_t *
default_object(uint16_t head)
{
	struct wr_otg_err err;
	struct check c = { .err = &err, .made = 1 };
	json_t *o = json_object();

	if (o == NULL)
		return NULL;
	wr_otg_err_init(&err);
	/* Required members without a default are absent here (their
	 * errors dropped): the caller fills them. */
	check_object(&c, o, head);
	wr_otg_err_free(&err);
	return o;
}

json_t *
wr_otg_default(const char *schema)
{
	int head = schema != NULL && strchr(schema, '|') == NULL ?
		   find_schema(schema) : -1;

	return head < 0 ? NULL : default_object((uint16_t)head);
}

json_t *
wr_otg_member_default(const char *schema, const char *member)
{
	int head = schema != NULL && strchr(schema, '|') == NULL ?
		   find_schema(schema) : -1;
	const struct wr_otg_prop *p;

	if (head < 0 || member == NULL)
		return NULL;
	p = find_member((uint16_t)head, member);
	if (p == NULL)
		return NULL;
	if (p->def != NULL)
		return default_value(p);
	if (p->type == WR_OTG_OBJ && !(p->flags & WR_OTG_ARRAY))
		return default_object(p->ref);
	return NULL;
}

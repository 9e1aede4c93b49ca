/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_fe: TRex's field engine: the stream-file grammar of vars:/fields:/checksums:/trim:/cache:, and each variable's value at any frame. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_replay_pcap.h"
#include "wr_fe.h"
#include "wr_fe_priv.h"
#include "wr_parse.h"
#include "wr_pkt_csum.h"
#include "wr_stream.h"
#include "wr_wire.h"
#include "wr_ytree.h"

static const char *const var_keys[] = {
	"name", "size", "inc", "dec", "random", "repeat", "tuple", "next_var",
	NULL
};
static const char *const var_kinds[] = {
	"inc", "dec", "random", "repeat", "tuple", NULL
};
static const char *const range_keys[] = {
	"min", "max", "step", "init", "list", NULL
};
static const char *const random_keys[] = { "min", "max", "list", NULL };
static const char *const repeat_keys[] = {
	"min", "max", "seed", "limit", NULL
};
static const char *const tuple_keys[] = { "ip", "port", "flows", NULL };
static const char *const minmax_keys[] = { "min", "max", NULL };
static const char *const write_keys[] = {
	"offset", "var", "add", "order", "width", "mask", "shift", NULL
};
static const char *const eth_keys[] = { "src", "dst", NULL };
/* Keys a frame: stream for the field engine does not take (they describe
 * generated frames or captures). */
static const char *const not_fe[] = {
	"size", "payload", "vlan", "ipv4", "udp", "vary", "stack", "gateway",
	"latency", "pcap", "loops", "timing", "speedup", "rewrite", "memory",
	NULL
};
/* wirerate's default source and destination MACs (doc/stack.md): what
 * `port` stands for until the run resolves it. */
#define MAC_SRC_DEFAULT 0x020000000001ull
#define MAC_DST_DEFAULT 0x020000000002ull

static uint64_t
size_max(unsigned int size)
{
	return size >= 8 ? UINT64_MAX : (1ull << (8 * size)) - 1;
}

/* ---- the generator ---- */

void
wr_fe_lcg_jump(uint64_t n, uint32_t *a, uint32_t *c)
{
	uint32_t ra = 1, rc = 0, pa = WR_FE_LCG_A, pc = WR_FE_LCG_C;

	/* Doubling: (pa, pc) composed with itself is (pa^2, (pa + 1) pc). */
	while (n != 0) {
		if (n & 1) {
			ra = pa * ra;
			rc = pa * rc + pc;
		}
		pc = (pa + 1) * pc;
		pa = pa * pa;
		n >>= 1;
	}
	*a = ra;
	*c = rc;
}

uint32_t
wr_fe_lcg_skip(uint32_t s, uint64_t n)
{
	uint32_t a, c;

	wr_fe_lcg_jump(n, &a, &c);
	return a * s + c;
}

/* Draws of one value: TRex's vm_rand16 for 1 and 2 bytes (and a list
 * index), vm_rand32 (two) for 4, vm_rand64 (four) for 8. */
static uint8_t
draws_of(const struct wr_fe_var *v)
{
	if (v->n_list > 0 || v->size <= 2)
		return 1;
	return v->size == 4 ? 2 : 4;
}

/* A random value from state @p s (the state before its draws).  The first
 * draw is the high half, as TRex's (a << 16) + b evaluates with GCC and
 * clang (left operand first). */
uint64_t
wr_fe_rand_value(const struct wr_fe_var *v, uint32_t s)
{
	uint64_t r, hi;

	s = wr_fe_lcg_step(s);
	if (v->n_list > 0)
		return v->list[wr_fe_lcg_r15(s) % v->n_list];
	r = wr_fe_lcg_r15(s);
	if (v->size == 4 || v->size == 8) {
		s = wr_fe_lcg_step(s);
		r = (r << 16) + wr_fe_lcg_r15(s);
	}
	if (v->size == 8) {
		hi = r;
		s = wr_fe_lcg_step(s);
		r = wr_fe_lcg_r15(s);
		s = wr_fe_lcg_step(s);
		r = (hi << 32) + ((r << 16) + wr_fe_lcg_r15(s));
		if (v->max - v->min == UINT64_MAX)
			return r;
	}
	return v->min + r % (v->max - v->min + 1);
}

/* ---- values ---- */

/* Number of values of an INC/DEC variable: 0 stands for 2^64. */
static uint64_t
range_of(const struct wr_fe_var *v)
{
	return v->n_list > 0 ? v->n_list : v->max - v->min + 1;
}

/* Offset of an INC/DEC variable after its run number n >= 1 (run 1 gives
 * init): from the bottom for INC, from the top for DEC, or a list index. */
uint64_t
wr_fe_run_offset(const struct wr_fe_var *v, uint64_t n)
{
	__uint128_t r = range_of(v) == 0 ? (__uint128_t)1 << 64 : range_of(v);
	__uint128_t o = v->n_list > 0 ? 0 :
		v->kind == WR_FE_INC ? v->init - v->min : v->max - v->init;

	return (uint64_t)((o + (__uint128_t)(n - 1) * v->step) % r);
}

static uint64_t
offset_value(const struct wr_fe_var *v, uint64_t o)
{
	if (v->n_list > 0)
		return v->list[v->kind == WR_FE_INC ? o : v->n_list - 1 - o];
	return v->kind == WR_FE_INC ? v->min + o : v->max - o;
}

/* TRex's variable memory before a variable's first run: the value before
 * init (for a list, the index before the first: the index itself is what
 * it holds), 0 for a repeatable random. */
static uint64_t
unrun_value(const struct wr_fe_var *v)
{
	__uint128_t r, o;

	if (v->kind == WR_FE_REPEAT)
		return 0;
	r = range_of(v) == 0 ? (__uint128_t)1 << 64 : range_of(v);
	if (v->n_list > 0)
		return (uint64_t)(v->kind == WR_FE_INC ? (r - v->step) % r
						       : (r - 1 + v->step) % r);
	o = v->kind == WR_FE_INC ? v->init - v->min : v->max - v->init;
	o = (o + r - v->step) % r;
	return v->kind == WR_FE_INC ? v->min + (uint64_t)o : v->max - (uint64_t)o;
}

/* How many of a variable's first n runs moved its next_var (TRex skips the
 * next one unless this one wrapped): a range variable wraps when its
 * offset passes the range (its first run too, if init - step fell below
 * min), a list at its index's wrap, a repeatable random at each restart. */
static uint64_t
runs_moving_next(const struct wr_fe_var *v, uint64_t n)
{
	__uint128_t r, o;

	if (n == 0)
		return 0;
	if (v->kind == WR_FE_REPEAT)
		return (n - 1) / v->limit + 1;
	if (v->step == 0)
		return 0;
	r = range_of(v) == 0 ? (__uint128_t)1 << 64 : range_of(v);
	if (v->n_list > 0)
		return 1 + (uint64_t)((__uint128_t)(n - 1) * v->step / r);
	o = v->kind == WR_FE_INC ? v->init - v->min : v->max - v->init;
	return (uint64_t)((o + (__uint128_t)(n - 1) * v->step) / r) + (o < v->step);
}

/* The value after run n of variable @p v (n = 0: before its first). */
static uint64_t
run_value(const struct wr_fe_var *v, uint64_t n)
{
	uint32_t s;

	if (n == 0)
		return unrun_value(v);
	if (v->kind == WR_FE_REPEAT) {
		s = wr_fe_lcg_skip(v->seed, ((n - 1) % v->limit) * v->draws);
		return wr_fe_rand_value(v, s);
	}
	return offset_value(v, wr_fe_run_offset(v, n));
}

/* Runs of variable @p i by frame k (inclusive): k + 1 for a variable
 * nothing waits on, fewer behind a next_var chain. */
static uint64_t
runs_at(const struct wr_fe_spec *fe, uint32_t i, uint64_t k)
{
	const struct wr_fe_var *v = &fe->var[i];

	if (v->prev < 0)
		return k + 1;
	return runs_moving_next(&fe->var[v->prev], runs_at(fe, (uint32_t)v->prev, k));
}

static uint64_t
tuple_flow(const struct wr_fe_var *v, uint64_t k)
{
	return v->flows != 0 ? k % v->flows : k;
}

uint64_t
wr_fe_value_at(const struct wr_fe_spec *fe, uint32_t i, uint64_t k,
	       uint64_t seed)
{
	const struct wr_fe_var *v = &fe->var[i];
	uint64_t f;
	uint32_t s;

	switch (v->kind) {
	case WR_FE_RANDOM:
		s = wr_fe_lcg_skip((uint32_t)seed * WR_FE_LCG_CORE0,
			     k * fe->n_draws + v->draw_off);
		return wr_fe_rand_value(v, s);
	case WR_FE_TUPLE_IP:
		f = tuple_flow(v, k);
		return v->min + f % (v->max - v->min + 1);
	case WR_FE_TUPLE_PORT:
		f = tuple_flow(v, k);
		return v->min + (f / v->ip_range) % (v->max - v->min + 1);
	default:
		return run_value(v, runs_at(fe, i, k));
	}
}

uint16_t
wr_fe_len_at(const struct wr_fe_spec *fe, uint64_t k, uint64_t seed)
{
	if (fe->trim < 0)
		return fe->len;
	return (uint16_t)wr_fe_value_at(fe, (uint32_t)fe->trim, k, seed);
}

void
wr_fe_apply_macs(struct wr_fe_spec *fe)
{
	unsigned int i, b;

	/* src is bytes 6..11, dst 0..5 */
	for (i = 0; i < 2; i++)
		if (fe->mac_mode[i] != WR_FE_MAC_KEEP)
			for (b = 0; b < 6; b++)
				fe->frame[(i == 0 ? 6 : 0) + b] =
					(uint8_t)(fe->mac[i] >> (40 - 8 * b));
}

/* Append to buf[*n..len), never past it. */
static void __attribute__((format(printf, 4, 5)))
put(char *buf, size_t len, int *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if ((size_t)*n >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, len - (size_t)*n, fmt, ap);
	va_end(ap);
	if (k > 0)
		*n = (size_t)(*n + k) >= len ? (int)len - 1 : *n + k;
}

int
wr_fe_describe(const struct wr_fe_spec *fe, const char *indent, char *buf,
	       size_t len)
{
	static const char *const kinds[] = {
#define WR_X(e, name) name,
		WR_FE_KINDS(WR_X)
#undef WR_X
	};
	int n = 0;
	uint32_t i;

	buf[0] = '\0';
	put(buf, len, &n, "%s  frame: %u bytes without FCS", indent, fe->len);
	for (i = 0; i < 2; i++)
		if (fe->mac_mode[i] == WR_FE_MAC_PORT)
			put(buf, len, &n, ", eth.%s the port's (until resolved "
			    "%012llx)", i == 0 ? "src" : "dst",
			    (unsigned long long)fe->mac[i]);
	put(buf, len, &n, "\n");
	for (i = 0; i < fe->n_var; i++) {
		const struct wr_fe_var *v = &fe->var[i];

		put(buf, len, &n, "%s  var %s (%u bytes): %s", indent, v->name,
		    v->size, kinds[v->kind]);
		if (v->n_list > 0)
			put(buf, len, &n, " over %u values", v->n_list);
		else
			put(buf, len, &n, " %llu..%llu", (unsigned long long)v->min,
			    (unsigned long long)v->max);
		if (v->kind == WR_FE_INC || v->kind == WR_FE_DEC)
			put(buf, len, &n, ", step %llu%s%llu",
			    (unsigned long long)v->step, v->n_list ? "" : ", from ",
			    (unsigned long long)(v->n_list ? 0 : v->init));
		if (v->kind == WR_FE_REPEAT)
			put(buf, len, &n, ", seed %u, limit %llu", v->seed,
			    (unsigned long long)v->limit);
		if (v->flows != 0)
			put(buf, len, &n, ", %llu flows", (unsigned long long)v->flows);
		if (v->prev >= 0)
			put(buf, len, &n, ", moves when %s wraps",
			    fe->var[v->prev].name);
		put(buf, len, &n, "\n");
	}
	for (i = 0; i < fe->n_wr; i++) {
		const struct wr_fe_write *w = &fe->wr[i];

		put(buf, len, &n, "%s  write %s at %u (%u byte%s%s", indent,
		    fe->var[w->var].name, w->off, w->width, w->width == 1 ? "" : "s",
		    w->little ? ", little-endian" : "");
		if (w->masked)
			put(buf, len, &n, ", mask 0x%x, shift %d", w->mask, w->shift);
		if (w->add != 0)
			put(buf, len, &n, ", add %lld", (long long)w->add);
		put(buf, len, &n, ")\n");
	}
	if (fe->csum_all)
		put(buf, len, &n, "%s  checksums: every one the frame holds\n",
		    indent);
	else if (fe->n_fix == 0)
		put(buf, len, &n, "%s  checksums: none recomputed (as in the "
		    "frame)\n", indent);
	for (i = 0; !fe->csum_all && i < fe->n_fix; i++)
		put(buf, len, &n, "%s  checksum %s at %u\n", indent,
		    wr_pkt_csum_kind(fe->fix[i].kind)->name, fe->fix[i].off);
	if (fe->trim >= 0)
		put(buf, len, &n, "%s  trim: %s (%u..%u bytes without FCS)\n",
		    indent, fe->var[fe->trim].name, fe->trim_min, fe->trim_max);
	if (fe->cache != 0)
		put(buf, len, &n, "%s  cache: frames repeat every %u\n", indent,
		    fe->cache);
	return n;
}

void
wr_fe_spec_free(struct wr_fe_spec *fe)
{
	uint32_t i;

	if (fe == NULL)
		return;
	for (i = 0; i < fe->n_var; i++)
		free(fe->var[i].list);
	free(fe->frame);
	free(fe);
}

/* ---- grammar ---- */

bool
wr_fe_yaml_wants(const struct wr_ynode *n)
{
	static const char *const keys[] = { WR_FE_KEYS, NULL };
	unsigned int i;

	for (i = 0; keys[i] != NULL; i++)
		if (wr_ynode_get(n, keys[i]) != NULL)
			return true;
	return false;
}

/* An integer or, for variables of 4 bytes or more, a dotted quad. */
static int
parse_value(struct wr_ywalk *w, const struct wr_ynode *n, unsigned int size,
	    uint64_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	const char *t = wr_ynode_text(n);
	uint32_t ip;

	if (n->type == WR_YNODE_SCALAR && size >= 4 && strchr(t, '.') != NULL) {
		if (wr_parse_ipv4(t, &ip, why, sizeof(why)) != 0)
			return wr_ywalk_why(w, n, why);
		*out = ip;
		return 0;
	}
	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_u64(t, 0, size_max(size), out, why, sizeof(why)) != 0) {
		snprintf(why, sizeof(why), "expected an integer that fits %u "
			 "byte%s (0..%llu)%s", size, size == 1 ? "" : "s",
			 (unsigned long long)size_max(size),
			 size >= 4 ? " or an IPv4 address" : "");
		return wr_ywalk_why(w, n, why);
	}
	return 0;
}

/* A signed integer (add:): [-]decimal or 0x hex. */
static int
parse_signed(struct wr_ywalk *w, const struct wr_ynode *n, int64_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	const char *t = wr_ynode_text(n);
	bool neg = n->type == WR_YNODE_SCALAR && t[0] == '-';
	uint64_t u;

	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_u64(t + neg, 0, neg ? (uint64_t)INT64_MAX + 1 : INT64_MAX,
			 &u, why, sizeof(why)) != 0)
		return wr_ywalk_expected(w, n, "an integer such as -34 or 1");
	*out = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

static int
key_value(struct wr_ywalk *w, const struct wr_ynode *map, const char *key,
	  unsigned int size, bool need, uint64_t *out)
{
	const struct wr_ynode *v = wr_ynode_get(map, key);

	if (v == NULL)
		return need ? wr_ywalk_missing(w, map, key) : 0;
	return WR_YWALK_KEY(w, key, parse_value(w, v, size, out));
}

static int
parse_list(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_var *v)
{
	size_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 ||
	    n->n_kids > WR_FE_LIST_MAX)
		return WR_YWALK_KEY(w, "list", wr_ywalk_expected(w, n,
			"a list of 1 to 65535 values"));
	v->list = calloc(n->n_kids, sizeof(*v->list));
	if (v->list == NULL)
		return -ENOMEM;
	v->n_list = (uint32_t)n->n_kids;
	for (i = 0; rc == 0 && i < n->n_kids; i++) {
		size_t old = wr_ywalk_push_key(w, "list");
		size_t oi = wr_ywalk_push_index(w, i);

		rc = parse_value(w, n->kids[i], v->size, &v->list[i]);
		wr_ywalk_pop(w, oi);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

/* inc: / dec: {min, max, step, init} or {list, step}. */
static int
parse_range(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_var *v)
{
	const struct wr_ynode *l = wr_ynode_get(n, "list");
	uint64_t step = 1, r;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {min, max, step, init} or {list, "
			   "step}", range_keys);
	if (rc == 0 && wr_ynode_get(n, "step") != NULL)
		rc = WR_YWALK_KEY(w, "step", wr_ywalk_u64(w, wr_ynode_get(n,
				  "step"), 1, size_max(v->size), &step));
	if (rc != 0)
		return rc;
	if (l != NULL) {
		if (wr_ynode_get(n, "min") || wr_ynode_get(n, "max") ||
		    wr_ynode_get(n, "init"))
			return wr_ywalk_fail(w, n, "give either list: or min:/max:");
		rc = parse_list(w, l, v);
		v->step = rc == 0 ? step % v->n_list : 0;
		return rc;
	}
	rc = key_value(w, n, "min", v->size, true, &v->min);
	if (rc == 0)
		rc = key_value(w, n, "max", v->size, true, &v->max);
	if (rc == 0 && v->max < v->min)
		return WR_YWALK_KEY(w, "max", wr_ywalk_fail(w, wr_ynode_get(n,
			"max"), "max is below min"));
	v->init = v->kind == WR_FE_INC ? v->min : v->max;
	if (rc == 0)
		rc = key_value(w, n, "init", v->size, false, &v->init);
	if (rc == 0 && (v->init < v->min || v->init > v->max))
		return WR_YWALK_KEY(w, "init", wr_ywalk_fail(w, wr_ynode_get(n,
			"init"), "init must lie in [min, max]"));
	r = v->max - v->min + 1;
	v->step = r == 0 ? step : step % r;
	return rc;
}

static int
parse_random(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_var *v)
{
	const struct wr_ynode *l = wr_ynode_get(n, "list");
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {min, max} or {list}", random_keys);
	if (rc != 0)
		return rc;
	if (l != NULL) {
		if (wr_ynode_get(n, "min") || wr_ynode_get(n, "max"))
			return wr_ywalk_fail(w, n, "give either list: or min:/max:");
		return parse_list(w, l, v);
	}
	v->max = size_max(v->size);
	rc = key_value(w, n, "min", v->size, false, &v->min);
	if (rc == 0)
		rc = key_value(w, n, "max", v->size, false, &v->max);
	if (rc == 0 && v->max < v->min)
		rc = wr_ywalk_fail(w, n, "max is below min");
	return rc;
}

static int
parse_repeat(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_var *v)
{
	uint64_t seed = 0;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {min, max, seed, limit}",
			   repeat_keys);
	v->max = size_max(v->size);
	if (rc == 0)
		rc = key_value(w, n, "min", v->size, false, &v->min);
	if (rc == 0)
		rc = key_value(w, n, "max", v->size, false, &v->max);
	if (rc == 0 && v->max < v->min)
		rc = wr_ywalk_fail(w, n, "max is below min");
	if (rc == 0 && wr_ynode_get(n, "seed") == NULL)
		rc = wr_ywalk_missing(w, n, "seed");
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "seed", wr_ywalk_u64(w, wr_ynode_get(n,
				  "seed"), 0, UINT32_MAX, &seed));
	if (rc == 0 && wr_ynode_get(n, "limit") == NULL)
		rc = wr_ywalk_missing(w, n, "limit");
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "limit", wr_ywalk_u64(w, wr_ynode_get(n,
				  "limit"), 1, size_max(v->size), &v->limit));
	v->seed = (uint32_t)seed;
	return rc;
}

static int
parse_minmax(struct wr_ywalk *w, const struct wr_ynode *n, unsigned int size,
	     uint64_t *lo, uint64_t *hi)
{
	int rc = wr_ywalk_keys(w, n, "a mapping {min, max}", minmax_keys);

	if (rc == 0)
		rc = key_value(w, n, "min", size, true, lo);
	if (rc == 0)
		rc = key_value(w, n, "max", size, true, hi);
	if (rc == 0 && *hi < *lo)
		rc = wr_ywalk_fail(w, n, "max is below min");
	return rc;
}

/* tuple: {ip: {min, max}, port: {min, max}, flows}: two variables, NAME.ip
 * (4 bytes) and NAME.port (2). */
static int
parse_tuple(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe,
	    const char *name)
{
	struct wr_fe_var *ip, *port;
	const struct wr_ynode *v;
	int rc;

	if (fe->n_var + 2 > WR_FE_VARS_MAX)
		return wr_ywalk_fail(w, n, "at most %u variables (a tuple is "
				     "two)", WR_FE_VARS_MAX);
	ip = &fe->var[fe->n_var];
	port = ip + 1;
	rc = wr_ywalk_keys(w, n, "a mapping {ip, port, flows}", tuple_keys);
	if (rc == 0 && (v = wr_ynode_get(n, "ip")) == NULL)
		rc = wr_ywalk_missing(w, n, "ip");
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "ip", parse_minmax(w, v, 4, &ip->min,
							&ip->max));
	if (rc == 0 && (v = wr_ynode_get(n, "port")) == NULL)
		rc = wr_ywalk_missing(w, n, "port");
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "port", parse_minmax(w, v, 2, &port->min,
							  &port->max));
	if (rc == 0 && (v = wr_ynode_get(n, "flows")) != NULL)
		rc = WR_YWALK_KEY(w, "flows", wr_ywalk_u64(w, v, 0, UINT32_MAX,
							   &ip->flows));
	if (rc != 0)
		return rc;
	/* name is at most WR_FE_NAME_MAX - 6 characters (parse_var_name) */
	memcpy(ip->name, name, strlen(name));
	memcpy(ip->name + strlen(name), ".ip", 4);
	memcpy(port->name, name, strlen(name));
	memcpy(port->name + strlen(name), ".port", 6);
	ip->kind = WR_FE_TUPLE_IP;
	port->kind = WR_FE_TUPLE_PORT;
	ip->size = 4;
	port->size = 2;
	port->flows = ip->flows;
	port->ip_range = ip->max - ip->min + 1;
	ip->next = ip->prev = port->next = port->prev = -1;
	fe->n_var += 2;
	return 0;
}

static int
find_var(const struct wr_fe_spec *fe, const char *name)
{
	uint32_t i;

	for (i = 0; i < fe->n_var; i++)
		if (strcmp(fe->var[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int
parse_var_name(struct wr_ywalk *w, const struct wr_ynode *n, char *out)
{
	const char *t = wr_ynode_text(n);
	size_t i, len = n->type == WR_YNODE_SCALAR ? strlen(t) : 0;

	for (i = 0; i < len; i++)
		if (!((t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
		      (t[i] >= '0' && t[i] <= '9') || t[i] == '_' || t[i] == '-'))
			break;
	if (len == 0 || i < len || len > WR_FE_NAME_MAX - 6)
		return wr_ywalk_expected(w, n, "a variable name of 1 to 26 "
					 "characters [A-Za-z0-9_-]");
	memcpy(out, t, len + 1);
	return 0;
}

static int
parse_var(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe,
	  char nexts[][WR_FE_NAME_MAX])
{
	struct wr_fe_var *v = &fe->var[fe->n_var];
	const struct wr_ynode *body = NULL, *x;
	char name[WR_FE_NAME_MAX];
	uint64_t size;
	int kind, rc;

	rc = wr_ywalk_keys(w, n, "a variable {name, size, inc|dec|random|repeat"
			   "|tuple: {...}}", var_keys);
	if (rc == 0 && (x = wr_ynode_get(n, "name")) == NULL)
		rc = wr_ywalk_missing(w, n, "name");
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "name", parse_var_name(w, x, name));
	if (rc != 0)
		return rc;
	{
		char part[WR_FE_NAME_MAX + 3];

		snprintf(part, sizeof(part), "%s.ip", name);
		if (find_var(fe, name) >= 0 || find_var(fe, part) >= 0)
			return WR_YWALK_KEY(w, "name", wr_ywalk_fail(w, x,
					    "variable %s is declared twice",
					    name));
	}
	kind = 0;
	{
		/* exactly one of the kinds */
		unsigned int i, seen = 0;

		for (i = 0; var_kinds[i] != NULL; i++)
			if (wr_ynode_get(n, var_kinds[i]) != NULL) {
				seen++;
				kind = (int)i;
				body = wr_ynode_get(n, var_kinds[i]);
			}
		if (seen != 1)
			return wr_ywalk_fail(w, n, "a variable takes one of inc, "
					     "dec, random, repeat, tuple");
	}
	if (kind == 4) {
		if (wr_ynode_get(n, "size") != NULL || wr_ynode_get(n, "next_var"))
			return wr_ywalk_fail(w, n, "a tuple takes neither size "
					     "nor next_var (NAME.ip has 4 bytes, "
					     "NAME.port 2)");
		return WR_YWALK_KEY(w, "tuple", parse_tuple(w, body, fe, name));
	}
	if (fe->n_var >= WR_FE_VARS_MAX)
		return wr_ywalk_fail(w, n, "at most %u variables",
				     WR_FE_VARS_MAX);
	memset(v, 0, sizeof(*v));
	memcpy(v->name, name, sizeof(v->name));
	v->next = v->prev = -1;
	if ((x = wr_ynode_get(n, "size")) == NULL)
		return wr_ywalk_missing(w, n, "size");
	rc = WR_YWALK_KEY(w, "size", wr_ywalk_u64(w, x, 1, 8, &size));
	if (rc == 0 && size != 1 && size != 2 && size != 4 && size != 8)
		rc = WR_YWALK_KEY(w, "size", wr_ywalk_expected(w, x,
				  "1, 2, 4 or 8 (bytes)"));
	if (rc != 0)
		return rc;
	v->size = (uint8_t)size;
	v->kind = kind == 0 ? WR_FE_INC : kind == 1 ? WR_FE_DEC :
		  kind == 2 ? WR_FE_RANDOM : WR_FE_REPEAT;
	fe->n_var++; /* from here on its list is freed with the spec */
	rc = WR_YWALK_KEY(w, var_kinds[kind], kind <= 1 ? parse_range(w, body, v) :
			  kind == 2 ? parse_random(w, body, v) :
			  parse_repeat(w, body, v));
	if (rc == 0 && (x = wr_ynode_get(n, "next_var")) != NULL) {
		if (v->kind == WR_FE_RANDOM)
			return WR_YWALK_KEY(w, "next_var", wr_ywalk_fail(w, x,
				"a random variable cannot have a next_var"));
		rc = WR_YWALK_KEY(w, "next_var", parse_var_name(w, x,
				  nexts[fe->n_var - 1]));
	}
	v->draws = draws_of(v);
	return rc;
}

/* next_var: the variable right after this one in vars:, inc, dec or
 * repeat, moved only when this one wraps (TRex's order). */
static int
link_chains(struct wr_ywalk *w, const struct wr_ynode *list,
	    struct wr_fe_spec *fe, char nexts[][WR_FE_NAME_MAX])
{
	uint32_t i;

	for (i = 0; i < fe->n_var; i++) {
		struct wr_fe_var *v = &fe->var[i];
		size_t old;
		int rc = 0;

		if (nexts[i][0] == '\0')
			continue;
		old = wr_ywalk_push_index(w, i);
		if (i + 1 >= fe->n_var || strcmp(fe->var[i + 1].name, nexts[i]) != 0)
			rc = WR_YWALK_KEY(w, "next_var", wr_ywalk_fail(w,
				wr_ynode_get(list->kids[i], "next_var"),
				"%s must be the variable right after %s in vars:",
				nexts[i], v->name));
		else if (fe->var[i + 1].kind != WR_FE_INC &&
			 fe->var[i + 1].kind != WR_FE_DEC &&
			 fe->var[i + 1].kind != WR_FE_REPEAT)
			rc = WR_YWALK_KEY(w, "next_var", wr_ywalk_fail(w,
				wr_ynode_get(list->kids[i], "next_var"),
				"%s is a random or tuple variable: only inc, dec "
				"and repeat follow a next_var", nexts[i]));
		wr_ywalk_pop(w, old);
		if (rc != 0)
			return rc;
		v->next = (int8_t)(i + 1);
		fe->var[i + 1].prev = (int8_t)i;
	}
	return 0;
}

static int
parse_vars(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe)
{
	char nexts[WR_FE_VARS_MAX][WR_FE_NAME_MAX];
	size_t i;
	uint32_t j;
	int rc = 0;

	memset(nexts, 0, sizeof(nexts));
	if (n->type != WR_YNODE_SEQ || n->n_kids == 0)
		return wr_ywalk_expected(w, n, "a list of variables {name, size, "
					 "inc|dec|random|repeat|tuple: {...}}");
	for (i = 0; rc == 0 && i < n->n_kids; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		rc = parse_var(w, n->kids[i], fe, nexts);
		wr_ywalk_pop(w, old);
	}
	if (rc == 0)
		rc = link_chains(w, n, fe, nexts);
	/* Draws: the stream's random variables, in order, share one LCG. */
	for (j = 0; rc == 0 && j < fe->n_var; j++)
		if (fe->var[j].kind == WR_FE_RANDOM) {
			fe->var[j].draw_off = fe->n_draws;
			fe->n_draws = (uint16_t)(fe->n_draws + fe->var[j].draws);
		}
	return rc;
}

static int
parse_write(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe)
{
	struct wr_fe_write *wr = &fe->wr[fe->n_wr];
	const struct wr_ynode *x;
	char name[WR_FE_NAME_MAX];
	uint64_t u;
	int i, rc;

	memset(wr, 0, sizeof(*wr));
	rc = wr_ywalk_keys(w, n, "a write {offset, var, add, order} or {offset, "
			   "var, width, mask, shift, add}", write_keys);
	if (rc == 0 && (x = wr_ynode_get(n, "var")) == NULL)
		rc = wr_ywalk_missing(w, n, "var");
	if (rc == 0) {
		const char *t = wr_ynode_text(x);

		if (x->type != WR_YNODE_SCALAR || strlen(t) >= sizeof(name))
			rc = WR_YWALK_KEY(w, "var", wr_ywalk_expected(w, x,
					  "the name of a variable of vars:"));
		else
			memcpy(name, t, strlen(t) + 1);
	}
	if (rc != 0)
		return rc;
	i = find_var(fe, name);
	if (i < 0)
		return WR_YWALK_KEY(w, "var", wr_ywalk_fail(w, x, "no variable %s "
				    "in vars: (a tuple's are NAME.ip and "
				    "NAME.port)", name));
	wr->var = (uint8_t)i;
	wr->width = fe->var[i].size;
	if ((x = wr_ynode_get(n, "mask")) != NULL) {
		wr->masked = true;
		rc = WR_YWALK_KEY(w, "mask", wr_ywalk_u64(w, x, 1, UINT32_MAX, &u));
		wr->mask = (uint32_t)u;
		if (rc == 0 && fe->var[i].size > 4)
			rc = WR_YWALK_KEY(w, "var", wr_ywalk_fail(w, wr_ynode_get(n,
				"var"), "a masked write reads a variable of 1, 2 "
				"or 4 bytes; %s has 8", name));
		if (rc == 0 && (x = wr_ynode_get(n, "width")) == NULL)
			rc = wr_ywalk_missing(w, n, "width");
		if (rc == 0) {
			rc = WR_YWALK_KEY(w, "width", wr_ywalk_u64(w, x, 1, 4, &u));
			if (rc == 0 && u == 3)
				rc = WR_YWALK_KEY(w, "width", wr_ywalk_expected(w,
						  x, "1, 2 or 4 (bytes)"));
			wr->width = (uint8_t)u;
		}
		if (rc == 0 && (x = wr_ynode_get(n, "shift")) != NULL) {
			int64_t sh = 0;

			rc = WR_YWALK_KEY(w, "shift", parse_signed(w, x, &sh));
			if (rc == 0 && (sh < -31 || sh > 31))
				rc = WR_YWALK_KEY(w, "shift", wr_ywalk_expected(w, x,
						  "a shift in -31..31 (bits; "
						  "negative: right)"));
			wr->shift = (int8_t)sh;
		}
	} else {
		static const char *const masked_only[] = { "width", "shift", NULL };
		unsigned int k;

		for (k = 0; masked_only[k] != NULL; k++)
			if ((x = wr_ynode_get(n, masked_only[k])) != NULL)
				return WR_YWALK_KEY(w, masked_only[k],
					wr_ywalk_fail(w, x, "%s applies to a masked "
						      "write: give mask:",
						      masked_only[k]));
	}
	if (rc == 0 && (x = wr_ynode_get(n, "add")) != NULL)
		rc = WR_YWALK_KEY(w, "add", parse_signed(w, x, &wr->add));
	if (rc == 0 && (x = wr_ynode_get(n, "order")) != NULL) {
		const char *t = wr_ynode_text(x);

		if (strcmp(t, "little") == 0 && !wr->masked)
			wr->little = true;
		else if (strcmp(t, "big") != 0)
			rc = WR_YWALK_KEY(w, "order", wr_ywalk_expected(w, x,
					  wr->masked ? "big (masked writes are "
					  "big-endian)" : "big or little"));
	}
	if (rc == 0 && (x = wr_ynode_get(n, "offset")) == NULL)
		rc = wr_ywalk_missing(w, n, "offset");
	if (rc == 0 && wr->width > fe->len)
		rc = WR_YWALK_KEY(w, "offset", wr_ywalk_fail(w, x, "a write of "
				  "%u bytes does not fit the frame's %u",
				  wr->width, fe->len));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "offset", wr_ywalk_u64(w, x, 0,
				  fe->len - wr->width, &u));
	wr->off = (uint16_t)u;
	if (rc == 0)
		fe->n_wr++;
	return rc;
}

static int
parse_writes(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe)
{
	size_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 ||
	    n->n_kids > WR_FE_WRITES_MAX)
		return wr_ywalk_expected(w, n, "a list of 1 to 32 writes {offset, "
					 "var, ...}");
	for (i = 0; rc == 0 && i < n->n_kids; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		if (wr_ynode_get(n->kids[i], "value") != NULL)
			rc = wr_ywalk_fail(w, n->kids[i], "a frame: stream with "
					   "vars: writes variables: {offset, var}");
		else
			rc = parse_write(w, n->kids[i], fe);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

/* checksums: all, or a list of {ipv4: OFF}, {udp|tcp|icmp|icmp6: OFF, ip:
 * OFF} (the IP header the L4 one is in). */
static int
parse_checksums(struct wr_ywalk *w, const struct wr_ynode *n,
		struct wr_fe_spec *fe)
{
	size_t i;
	int rc = 0;

	if (n->type == WR_YNODE_SCALAR && strcmp(wr_ynode_text(n), "all") == 0) {
		fe->csum_all = true;
		return 0;
	}
	if (n->type != WR_YNODE_SEQ || n->n_kids > WR_FE_CSUMS_MAX)
		return wr_ywalk_expected(w, n, "all, or a list of up to 8 "
					 "checksums such as {ipv4: 14} or "
					 "{udp: 34, ip: 14}");
	fe->csum_all = false;
	for (i = 0; rc == 0 && i < n->n_kids; i++) {
		const struct wr_ynode *c = n->kids[i], *x = NULL;
		struct wr_fe_fix *f = &fe->fix[fe->n_fix];
		size_t old = wr_ywalk_push_index(w, i);
		const char *keys[WR_PKT_CSUM_KINDS_MAX + 2];
		const struct wr_proto *p;
		unsigned int k, seen = 0;
		bool own = false;
		uint64_t u = 0;

		/* The checksums the registry's modules carry in every header. */
		for (k = 0; k < WR_PKT_CSUM_KINDS_MAX &&
		     (p = wr_pkt_csum_kind(k)) != NULL; k++) {
			keys[k] = p->name;
			if (wr_ynode_get(c, p->name) != NULL) {
				seen++;
				f->kind = (uint8_t)k;
				x = wr_ynode_get(c, p->name);
			}
		}
		keys[k] = "ip";
		keys[k + 1] = NULL;
		rc = wr_ywalk_keys(w, c, "a checksum such as {ipv4: 14} or {udp: "
				   "34, ip: 14}", keys);
		if (rc == 0 && seen != 1) {
			char names[128];

			rc = wr_ywalk_fail(w, c, "a checksum names one of %s with "
					   "its header's offset",
					   wr_pkt_csum_kind_names(names, sizeof(names)));
		}
		if (rc == 0) {
			p = wr_pkt_csum_kind(f->kind);
			own = p->csum == WR_CSUM_HEADER;
			rc = WR_YWALK_KEY(w, p->name, wr_ywalk_u64(w, x,
					  0, fe->len - 1, &u));
		}
		f->off = (uint16_t)u;
		x = wr_ynode_get(c, "ip");
		if (rc == 0 && own && x != NULL)
			rc = WR_YWALK_KEY(w, "ip", wr_ywalk_fail(w, x, "an IP "
					  "header's checksum takes its own offset "
					  "only: no ip:"));
		if (rc == 0 && !own && x == NULL)
			rc = wr_ywalk_missing(w, c, "ip");
		if (rc == 0 && x != NULL)
			rc = WR_YWALK_KEY(w, "ip", wr_ywalk_u64(w, x, 0, f->off,
					  &u));
		f->ip = own ? f->off : (uint16_t)u;
		wr_ywalk_pop(w, old);
		if (rc == 0)
			fe->n_fix++;
	}
	return rc;
}

static int
parse_trim(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe)
{
	const struct wr_fe_var *v;
	uint64_t lo, hi;
	uint32_t i;
	int k;

	k = n->type == WR_YNODE_SCALAR ? find_var(fe, wr_ynode_text(n)) : -1;
	if (k < 0)
		return wr_ywalk_expected(w, n, "the name of a variable of vars: "
					 "(its values are the frame's length)");
	v = &fe->var[k];
	if (v->size != 2 || (v->kind != WR_FE_INC && v->kind != WR_FE_DEC &&
			     v->kind != WR_FE_RANDOM))
		return wr_ywalk_fail(w, n, "the trim variable is an inc, dec or "
				     "random variable of 2 bytes");
	lo = v->min;
	hi = v->max;
	if (v->n_list > 0) {
		lo = UINT64_MAX;
		hi = 0;
		for (i = 0; i < v->n_list; i++) {
			lo = v->list[i] < lo ? v->list[i] : lo;
			hi = v->list[i] > hi ? v->list[i] : hi;
		}
	}
	if (lo < WR_FE_TRIM_MIN || hi > fe->len)
		return wr_ywalk_fail(w, n, "%s takes values %llu..%llu: a frame is "
				     "cut to %u..%u bytes (its own length)",
				     v->name, (unsigned long long)lo,
				     (unsigned long long)hi, WR_FE_TRIM_MIN,
				     fe->len);
	fe->trim = (int8_t)k;
	fe->trim_min = (uint16_t)lo;
	fe->trim_max = (uint16_t)hi;
	return 0;
}

/* eth: {src, dst}: a MAC, or port (the port's, doc/trex.md). */
static int
parse_eth(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_fe_spec *fe,
	  uint8_t *mac_port)
{
	static const char *const which[] = { "src", "dst" };
	char why[WR_PARSE_WHY_MAX];
	unsigned int i;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {src, dst}", eth_keys);
	for (i = 0; rc == 0 && i < 2; i++) {
		const struct wr_ynode *x = wr_ynode_get(n, which[i]);
		const char *t;

		if (x == NULL)
			continue;
		t = wr_ynode_text(x);
		if (x->type == WR_YNODE_SCALAR && strcmp(t, "port") == 0) {
			fe->mac_mode[i] = WR_FE_MAC_PORT;
			fe->mac[i] = i == 0 ? MAC_SRC_DEFAULT : MAC_DST_DEFAULT;
			*mac_port |= i == 0 ? WR_MAC_PORT_SRC : WR_MAC_PORT_DST;
		} else if (x->type == WR_YNODE_SCALAR &&
			   wr_parse_mac(t, &fe->mac[i], why, sizeof(why)) == 0) {
			fe->mac_mode[i] = WR_FE_MAC_VALUE;
		} else {
			rc = WR_YWALK_KEY(w, which[i], wr_ywalk_expected(w, x,
					  "a MAC such as 02:00:00:00:00:01, or "
					  "port (the port's)"));
		}
	}
	return rc;
}

static int
refuse_keys(struct wr_ywalk *w, const struct wr_ynode *n)
{
	const struct wr_ynode *v;
	unsigned int i;

	if ((v = wr_ynode_get(n, "frame")) == NULL) {
		static const char *const keys[] = { WR_FE_KEYS, NULL };

		for (i = 0; keys[i] != NULL; i++)
			if ((v = wr_ynode_get(n, keys[i])) != NULL)
				return WR_YWALK_KEY(w, keys[i], wr_ywalk_fail(w, v,
					"%s belongs to a frame: stream (the "
					"frame's bytes and TRex's field engine, "
					"doc/trex.md)", keys[i]));
	}
	for (i = 0; not_fe[i] != NULL; i++)
		if ((v = wr_ynode_get(n, not_fe[i])) != NULL)
			return WR_YWALK_KEY(w, not_fe[i], wr_ywalk_fail(w, v,
				"%s does not apply to a field-engine frame: stream "
				"(vars:, checksums:, trim:, cache:): its frames are "
				"the frame's bytes", not_fe[i]));
	return 0;
}

int
wr_fe_yaml_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		 struct wr_stream *s)
{
	const struct wr_ynode *v = wr_ynode_get(n, "frame");
	char why[WR_PARSE_WHY_MAX];
	struct wr_fe_spec *fe;
	size_t len = 0;
	int rc;

	rc = refuse_keys(w, n);
	if (rc != 0)
		return rc;
	fe = calloc(1, sizeof(*fe));
	if (fe == NULL)
		return -ENOMEM;
	s->fe = fe;
	fe->trim = -1;
	fe->csum_all = true;
	fe->frame = malloc(WR_FRAME_MAX);
	if (fe->frame == NULL)
		return -ENOMEM;
	if (v->type != WR_YNODE_SCALAR ||
	    wr_parse_hex(wr_ynode_text(v), fe->frame, WR_FRAME_MAX - WR_FCS_LEN,
			 &len, why, sizeof(why)) != 0 || len < WR_FE_FRAME_MIN)
		return WR_YWALK_KEY(w, "frame", wr_ywalk_expected(w, v,
			"the frame's bytes in hex (14 to 9014 of them, without "
			"FCS), e.g. bytes(pkt).hex() from Scapy"));
	fe->len = (uint16_t)len;
	if ((v = wr_ynode_get(n, "eth")) != NULL)
		rc = WR_YWALK_KEY(w, "eth", parse_eth(w, v, fe, &s->mac_port));
	if (rc == 0 && (v = wr_ynode_get(n, "vars")) != NULL)
		rc = WR_YWALK_KEY(w, "vars", parse_vars(w, v, fe));
	if (rc == 0 && (v = wr_ynode_get(n, "fields")) != NULL) {
		if (fe->n_var == 0)
			rc = WR_YWALK_KEY(w, "fields", wr_ywalk_fail(w, v,
				"fields: write variables: declare them in vars:"));
		else
			rc = WR_YWALK_KEY(w, "fields", parse_writes(w, v, fe));
	}
	if (rc == 0 && (v = wr_ynode_get(n, "checksums")) != NULL)
		rc = WR_YWALK_KEY(w, "checksums", parse_checksums(w, v, fe));
	if (rc == 0 && (v = wr_ynode_get(n, "trim")) != NULL)
		rc = WR_YWALK_KEY(w, "trim", parse_trim(w, v, fe));
	if (rc == 0 && (v = wr_ynode_get(n, "cache")) != NULL) {
		uint64_t c;

		rc = WR_YWALK_KEY(w, "cache", wr_ywalk_u64(w, v, 1,
				  WR_FE_CACHE_MAX, &c));
		fe->cache = (uint32_t)c;
	}
	if (rc != 0)
		return rc;
	wr_fe_apply_macs(fe);
	/* The sizes the report and the rates see, FCS included; a trimmed
	 * stream's as a uniform range (TRex converts rates with its mean). */
	s->size.mode = fe->trim < 0 ? WR_SIZE_FIXED : WR_SIZE_RANDOM;
	s->size.from = s->size.min = (uint16_t)wr_capture_wire_len(fe->trim < 0 ?
							fe->len : fe->trim_min);
	s->size.to = s->size.max = (uint16_t)wr_capture_wire_len(fe->trim < 0 ?
							fe->len : fe->trim_max);
	s->size.fixed = s->size.max;
	return 0;
}

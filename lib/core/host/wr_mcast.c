/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_mcast: the host side of IGMP and MLD, one state machine for both (wr_igmp and wr_mld are its two families). */
#include "wr_mcast.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_parse.h"

#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull

/* RFC 3376 section 8.1 / RFC 3810 section 9.1: Robustness Variable 2;
 * 8.11 / 9.11: Unsolicited Report Interval 1 s (IGMPv3, MLDv2); RFC 2236
 * section 8.10 and RFC 2710 section 7.10: 10 s (IGMPv2, MLDv1). */
#define ROBUSTNESS_DEFAULT 2
#define UNSOL_V3_MS 1000
#define UNSOL_V2_MS 10000
/* RFC 3376 section 8.2 / 8.3: Query Interval 125 s, Query Response Interval
 * 10 s; the Older Version Querier Present Timeout (8.12, RFC 3810 9.12) is
 * robustness * query interval + one query response interval.  An IGMPv2
 * host's Version 1 Router Present Timeout is 400 s (RFC 2236 section 8.11). */
#define QUERY_INTERVAL_MS 125000
#define QUERY_RESPONSE_MS 10000
#define V1_ROUTER_PRESENT_MS 400000
/* A v1 query has no max response time: 10 s (RFC 2236 section 4). */

/* ---- The `igmp:` / `mld:` key ---- */

static const char *const top_keys[] = {
	"version", "groups", "per_host", "robustness", "unsolicited_interval",
	NULL,
};
static const char *const group_keys[] = {
	"group", "count", "step", "sources", "mode", NULL,
};

static int
parse_addr(struct wr_ywalk *w, const struct wr_ynode *n, bool v6,
	   __uint128_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	uint32_t a4;

	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, v6 ? "an IPv6 address" :
					 "an IPv4 address");
	if (v6)
		return wr_parse_ipv6(wr_ynode_text(n), out, why, sizeof(why)) ?
		       wr_ywalk_why(w, n, why) : 0;
	if (wr_parse_ipv4(wr_ynode_text(n), &a4, why, sizeof(why)))
		return wr_ywalk_why(w, n, why);
	*out = a4;
	return 0;
}

static bool
is_mcast(__uint128_t a, bool v6)
{
	return v6 ? (uint8_t)(a >> 120) == 0xff : (a >> 28) == 0xe;
}

/* A group a host may report: multicast, not the all-systems / all-nodes
 * group (never reported: RFC 2236 section 6, RFC 3810 section 6), and for
 * IPv6 of at least link scope (scopes 0 and 1 never leave the node:
 * RFC 4291 section 2.7, RFC 3810 section 6). */
static bool
group_ok(__uint128_t a, bool v6)
{
	if (!is_mcast(a, v6))
		return false;
	if (!v6)
		return a != 0xe0000001u;
	if (((uint8_t)(a >> 112) & 0xf) < 2)
		return false;
	return a != (((__uint128_t)0xff02u << 112) | 1);
}

static int
parse_range(struct wr_ywalk *w, const struct wr_ynode *n,
	    struct wr_mcast_cfg *c, struct wr_mcast_range *r)
{
	bool v6 = c->v6;
	const struct wr_ynode *v, *mode_n, *src_n;
	uint64_t u;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {group, count, step, sources, "
			   "mode}", group_keys);
	if (rc)
		return rc;
	v = wr_ynode_get(n, "group");
	if (!v)
		return wr_ywalk_missing(w, n, "group");
	rc = WR_YWALK_KEY(w, "group", parse_addr(w, v, v6, &r->group));
	if (rc)
		return rc;
	if (!group_ok(r->group, v6))
		return WR_YWALK_KEY(w, "group", wr_ywalk_expected(w, v, v6 ?
			"a multicast group (ff00::/8 of link scope or wider, "
			"not ff02::1)" :
			"a multicast group (224.0.0.0/4, not 224.0.0.1)"));
	r->count = 1;
	if ((v = wr_ynode_get(n, "count"))) {
		rc = WR_YWALK_KEY(w, "count", wr_ywalk_u64(w, v, 1,
				  WR_HOSTS_PORT_MAX, &u));
		if (rc)
			return rc;
		r->count = (uint32_t)u;
	}
	r->step = 1;
	if ((v = wr_ynode_get(n, "step"))) {
		rc = WR_YWALK_KEY(w, "step", parse_addr(w, v, v6, &r->step));
		if (rc)
			return rc;
		if (r->step == 0)
			return WR_YWALK_KEY(w, "step", wr_ywalk_expected(w, v,
				v6 ? "a step above :: (::1)" :
				"a step above 0.0.0.0 (0.0.0.1)"));
	}
	/* The last group: still multicast, and no wrap past the family's
	 * last address (a step * count that overflows 128 bits cannot be
	 * written: step < 2^128 / 2^20 is checked first). */
	if (r->count > 1) {
		__uint128_t last, span;

		if (r->step > ~(__uint128_t)0 / r->count)
			return WR_YWALK_KEY(w, "count", wr_ywalk_expected(w,
				wr_ynode_get(n, "count"),
				"a count whose groups stay multicast"));
		span = r->step * (r->count - 1);
		last = r->group + span;
		if (last < r->group || (!v6 && last > 0xffffffffu) ||
		    !group_ok(last, v6))
			return WR_YWALK_KEY(w, "count", wr_ywalk_expected(w,
				wr_ynode_get(n, "count"),
				"a count whose groups stay multicast (group + "
				"step * (count - 1))"));
	}
	src_n = wr_ynode_get(n, "sources");
	if (src_n) {
		size_t i;

		if (src_n->type != WR_YNODE_SEQ || src_n->n_kids == 0 ||
		    src_n->n_kids > WR_MCAST_SOURCES_MAX)
			return WR_YWALK_KEY(w, "sources", wr_ywalk_expected(w,
				src_n, v6 ? "a list of 1 to 8 IPv6 unicast "
				"addresses" : "a list of 1 to 8 IPv4 unicast "
				"addresses"));
		if (c->version == (v6 ? 1 : 2))
			return WR_YWALK_KEY(w, "sources", wr_ywalk_fail(w,
				src_n, "sources need version %u (%s cannot "
				"name sources)", v6 ? 2 : 3,
				v6 ? "MLDv1" : "IGMPv2"));
		for (i = 0; i < src_n->n_kids; i++) {
			size_t old = wr_ywalk_push_key(w, "sources");
			size_t old2 = wr_ywalk_push_index(w, i);
			__uint128_t s;

			rc = parse_addr(w, src_n->kids[i], v6, &s);
			if (rc == 0 && (s == 0 || is_mcast(s, v6)))
				rc = wr_ywalk_expected(w, src_n->kids[i],
					"a unicast source address");
			for (size_t j = 0; rc == 0 && j < i; j++)
				if (r->src[j] == s)
					rc = wr_ywalk_fail(w, src_n->kids[i],
						"source listed twice");
			wr_ywalk_pop(w, old2);
			wr_ywalk_pop(w, old);
			if (rc)
				return rc;
			r->src[r->n_src++] = s;
		}
	}
	r->mode = r->n_src ? WR_MCAST_INCLUDE : WR_MCAST_EXCLUDE;
	mode_n = wr_ynode_get(n, "mode");
	if (mode_n) {
		const char *t = wr_ynode_text(mode_n);

		if (mode_n->type == WR_YNODE_SCALAR && !strcmp(t, "include"))
			r->mode = WR_MCAST_INCLUDE;
		else if (mode_n->type == WR_YNODE_SCALAR &&
			 !strcmp(t, "exclude"))
			r->mode = WR_MCAST_EXCLUDE;
		else
			return WR_YWALK_KEY(w, "mode", wr_ywalk_expected(w,
				mode_n, "include or exclude"));
		/* INCLUDE {} is no membership (RFC 3376 section 3.1). */
		if (r->mode == WR_MCAST_INCLUDE && r->n_src == 0)
			return WR_YWALK_KEY(w, "mode", wr_ywalk_fail(w,
				mode_n, "mode include needs sources: INCLUDE "
				"with no source is no membership"));
	}
	return 0;
}

static int
parse_groups(struct wr_ywalk *w, const struct wr_ynode *n,
	     struct wr_mcast_cfg *c)
{
	uint64_t total = 0;
	size_t i;
	int rc;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 ||
	    n->n_kids > WR_MCAST_RANGES_MAX)
		return wr_ywalk_expected(w, n, "a list of 1 to 16 groups "
					 "({group: ADDR, count: N, ...})");
	for (i = 0; i < n->n_kids; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		rc = parse_range(w, n->kids[i], c, &c->r[i]);
		wr_ywalk_pop(w, old);
		if (rc)
			return rc;
		total += c->r[i].count;
	}
	if (total > WR_HOSTS_PORT_MAX)
		return wr_ywalk_fail(w, n, "%llu groups: at most %u",
				     (unsigned long long)total,
				     WR_HOSTS_PORT_MAX);
	c->n_ranges = (uint32_t)n->n_kids;
	c->n_groups = (uint32_t)total;
	return 0;
}

static int
parse_cfg(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_mcast_cfg *c)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {version, groups, per_host, "
			   "robustness, unsolicited_interval}", top_keys);
	if (rc)
		return rc;
	/* The version first: it decides what groups may say. */
	c->version = c->v6 ? 2 : 3;
	if ((v = wr_ynode_get(n, "version"))) {
		rc = WR_YWALK_KEY(w, "version", wr_ywalk_u64(w, v,
				  c->v6 ? 1 : 2, c->v6 ? 2 : 3, &u));
		if (rc)
			return rc;
		c->version = (uint8_t)u;
	}
	c->robustness = ROBUSTNESS_DEFAULT;
	if ((v = wr_ynode_get(n, "robustness"))) {
		/* QRV is 3 bits (RFC 3376 section 4.1.6); 0 is no value. */
		rc = WR_YWALK_KEY(w, "robustness",
				  wr_ywalk_u64(w, v, 1, 7, &u));
		if (rc)
			return rc;
		c->robustness = (uint8_t)u;
	}
	c->unsolicited_ms = c->version == (c->v6 ? 2 : 3) ? UNSOL_V3_MS :
			    UNSOL_V2_MS;
	if ((v = wr_ynode_get(n, "unsolicited_interval"))) {
		char why[WR_PARSE_WHY_MAX];
		uint64_t ns;
		size_t old = wr_ywalk_push_key(w, "unsolicited_interval");

		rc = 0;
		if (v->type != WR_YNODE_SCALAR)
			rc = wr_ywalk_expected(w, v, "a duration such as 1s "
					       "or 500ms");
		else if (wr_parse_duration_ns(wr_ynode_text(v), &ns, why,
					      sizeof(why)))
			rc = wr_ywalk_why(w, v, why);
		else if (ns < NS_PER_MS || ns > 3600 * NS_PER_S ||
			 ns % NS_PER_MS)
			rc = wr_ywalk_expected(w, v, "a whole number of ms "
					       "from 1ms to 1h");
		wr_ywalk_pop(w, old);
		if (rc)
			return rc;
		c->unsolicited_ms = (uint32_t)(ns / NS_PER_MS);
	}
	if ((v = wr_ynode_get(n, "per_host"))) {
		const char *t = wr_ynode_text(v);

		if (v->type == WR_YNODE_SCALAR && !strcmp(t, "all"))
			c->per_host = WR_MCAST_PER_HOST_ALL;
		else if (v->type == WR_YNODE_SCALAR && !strcmp(t, "one"))
			c->per_host = WR_MCAST_PER_HOST_ONE;
		else
			return WR_YWALK_KEY(w, "per_host", wr_ywalk_expected(w,
				v, "all (every host joins every group) or one "
				"(host k joins group k mod n)"));
	}
	v = wr_ynode_get(n, "groups");
	if (!v)
		return wr_ywalk_missing(w, n, "groups");
	rc = WR_YWALK_KEY(w, "groups", parse_groups(w, v, c));
	if (rc)
		return rc;
	if (c->per_host == WR_MCAST_PER_HOST_ALL &&
	    c->n_groups > WR_MCAST_HOST_GROUPS_MAX)
		return WR_YWALK_KEY(w, "groups", wr_ywalk_fail(w, v,
			"per_host: all makes each host a member of %u groups, "
			"at most %u (per_host: one spreads them over hosts)",
			c->n_groups, WR_MCAST_HOST_GROUPS_MAX));
	return 0;
}

int
wr_mcast_parse(struct wr_ywalk *w, const struct wr_ynode *n, bool v6,
	       void **cfg)
{
	struct wr_mcast_cfg *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	c->v6 = v6;
	rc = parse_cfg(w, n, c);
	if (rc) {
		free(c);
		return rc;
	}
	*cfg = c;
	return 0;
}

/* ---- Codes ---- */

uint32_t
wr_mcast_code8(uint8_t code)
{
	if (code < 128)
		return code;
	return (uint32_t)((code & 0x0f) | 0x10) << (((code >> 4) & 7) + 3);
}

uint32_t
wr_mcast_code16(uint16_t code)
{
	if (code < 32768)
		return code;
	return (uint32_t)((code & 0x0fff) | 0x1000) << (((code >> 12) & 7) + 3);
}

/* ---- A host's groups ---- */

/* Host @p h's index in its host group, from its MAC (the engine gives host
 * k of a group mac + k * mac_step). */
static uint32_t
host_k(const struct wr_hosts *hs, uint32_t h)
{
	const struct wr_host_group *g = wr_hosts_group(hs, h);
	uint64_t mac = wr_mac_from_bytes(wr_hosts_cget(hs, h)->mac);

	if (!g || g->mac_step == 0)
		return 0;
	return (uint32_t)(((mac - g->mac) & 0xffffffffffffull) / g->mac_step);
}

static __uint128_t
group_at(const struct wr_mcast_cfg *c, uint32_t j, uint32_t *range)
{
	uint32_t i;

	for (i = 0; i + 1 < c->n_ranges && j >= c->r[i].count; i++)
		j -= c->r[i].count;
	*range = i;
	return c->r[i].group + c->r[i].step * j;
}

uint32_t
wr_mcast_host_groups(const struct wr_hosts *hs, uint32_t h,
		     const struct wr_mcast_cfg *cfg)
{
	(void)hs;
	(void)h;
	if (cfg->n_groups == 0)
		return 0;
	return cfg->per_host == WR_MCAST_PER_HOST_ALL ? cfg->n_groups : 1;
}

__uint128_t
wr_mcast_host_group(const struct wr_hosts *hs, uint32_t h,
		    const struct wr_mcast_cfg *cfg, uint32_t i, uint32_t *range)
{
	if (cfg->per_host == WR_MCAST_PER_HOST_ONE)
		i = host_k(hs, h) % cfg->n_groups;
	return group_at(cfg, i, range);
}

/* A slot: a configured group (0..WR_MCAST_HOST_GROUPS_MAX-1) or an extra
 * one (MLD's solicited-node groups: EXCLUDE {} like an any-source join). */
struct slot {
	__uint128_t group;
	const struct wr_mcast_range *r;  /* NULL: extra */
};

struct host_groups {
	uint32_t n_cfg;
	uint32_t n_extra;
	struct slot s[WR_MCAST_SLOTS];
};

static void
host_groups(const struct wr_mcast_fam *f, const struct wr_hosts *hs,
	    uint32_t h, const struct wr_mcast_cfg *c, struct host_groups *g)
{
	__uint128_t extra[WR_MCAST_EXTRA_MAX];
	uint32_t i, range;

	memset(g, 0, sizeof(*g));
	g->n_cfg = wr_mcast_host_groups(hs, h, c);
	for (i = 0; i < g->n_cfg; i++) {
		g->s[i].group = wr_mcast_host_group(hs, h, c, i, &range);
		g->s[i].r = &c->r[range];
	}
	if (!f->extra)
		return;
	g->n_extra = f->extra(hs, h, extra);
	for (i = 0; i < g->n_extra; i++)
		g->s[WR_MCAST_HOST_GROUPS_MAX + i].group = extra[i];
}

static bool
slot_used(const struct host_groups *g, uint32_t s)
{
	return s < WR_MCAST_HOST_GROUPS_MAX ? s < g->n_cfg :
	       s - WR_MCAST_HOST_GROUPS_MAX < g->n_extra;
}

static int
slot_of(const struct host_groups *g, __uint128_t group)
{
	for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++)
		if (slot_used(g, s) && g->s[s].group == group)
			return (int)s;
	return -1;
}

/* ---- Messages ---- */

static void
put_addr(uint8_t *p, __uint128_t a, uint8_t alen)
{
	for (int i = alen - 1; i >= 0; i--, a >>= 8)
		p[i] = (uint8_t)a;
}

static __uint128_t
get_addr(const uint8_t *p, uint8_t alen)
{
	__uint128_t a = 0;

	for (int i = 0; i < alen; i++)
		a = (a << 8) | p[i];
	return a;
}

/* A v3 report being filled: records are added until the next would pass
 * the link's MTU (1500 bytes of IP: RFC 3376 section 4.2.16), then it is
 * sent and another begun. */
struct report {
	const struct wr_mcast_fam *f;
	struct wr_hosts *hs;
	uint32_t h;
	uint32_t len;
	uint32_t cap;
	uint16_t nrec;
	uint32_t *counter;      /* frames sent are counted here */
	uint32_t *counter2;     /* and here (answered), NULL: no */
	uint8_t msg[1500];
};

static void
rep_begin(struct report *r, const struct wr_mcast_fam *f, struct wr_hosts *hs,
	  uint32_t h, uint32_t *counter, uint32_t *counter2)
{
	r->f = f;
	r->hs = hs;
	r->h = h;
	r->cap = f->msg_max;
	r->counter = counter;
	r->counter2 = counter2;
	r->nrec = 0;
	memset(r->msg, 0, 8);
	r->msg[0] = f->v3_type;
	r->len = 8;
}

static void
rep_flush(struct report *r)
{
	if (r->nrec == 0)
		return;
	r->msg[6] = (uint8_t)(r->nrec >> 8);
	r->msg[7] = (uint8_t)r->nrec;
	r->f->send(r->hs, r->h, r->f->v3_dst, r->msg, r->len);
	(*r->counter)++;
	if (r->counter2)
		(*r->counter2)++;
	memset(r->msg, 0, 8);
	r->msg[0] = r->f->v3_type;
	r->len = 8;
	r->nrec = 0;
}

/* A record of @p type for @p group, with the sources of @p rg whose bits
 * are set in @p mask (rg NULL: none). */
static void
rep_add(struct report *r, uint8_t type, __uint128_t group,
	const struct wr_mcast_range *rg, uint32_t mask)
{
	uint8_t alen = r->f->alen;
	uint16_t n = 0;
	uint32_t need = 4 + alen;
	uint8_t *p;

	for (uint32_t i = 0; rg && i < rg->n_src; i++)
		if (mask & (1u << i))
			need += alen;
	if (r->len + need > r->cap)
		rep_flush(r);
	p = r->msg + r->len;
	p[0] = type;
	p[1] = 0;
	put_addr(p + 4, group, alen);
	r->len += 4 + alen;
	for (uint32_t i = 0; rg && i < rg->n_src; i++) {
		if (!(mask & (1u << i)))
			continue;
		put_addr(r->msg + r->len, rg->src[i], alen);
		r->len += alen;
		n++;
	}
	p[2] = (uint8_t)(n >> 8);
	p[3] = (uint8_t)n;
	r->nrec++;
}

static uint32_t
all_src(const struct wr_mcast_range *rg)
{
	return rg ? (1u << rg->n_src) - 1 : 0;
}

/* A slot's current state record (RFC 3376 section 4.2.12). */
static void
rep_current(struct report *r, const struct slot *s, uint32_t mask)
{
	const struct wr_mcast_range *rg = s->r;

	if (rg && rg->mode == WR_MCAST_INCLUDE)
		rep_add(r, WR_MCAST_IS_IN, s->group, rg, mask ? mask :
			all_src(rg));
	else
		rep_add(r, WR_MCAST_IS_EX, s->group, rg, all_src(rg));
}

/* ---- The state machine ---- */

static struct wr_mcast_host *
st_of(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_state(hs, h, f->id);
}

static const struct wr_mcast_cfg *
cfg_of(const struct wr_mcast_fam *f, const struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_cfg(hs, h, f->id);
}

static enum wr_mcast_compat
configured(const struct wr_mcast_cfg *c)
{
	/* MLDv1 is IGMPv2's peer, MLDv2 IGMPv3's. */
	return c->v6 ? (enum wr_mcast_compat)(c->version + 1) :
	       (enum wr_mcast_compat)c->version;
}

static enum wr_mcast_compat
compat(const struct wr_mcast_cfg *c, const struct wr_mcast_host *st,
       uint64_t now)
{
	enum wr_mcast_compat m = configured(c);

	if (st->v1_until_ns > now)
		return WR_MCAST_V1;
	if (st->v2_until_ns > now && m > WR_MCAST_V2)
		return WR_MCAST_V2;
	return m;
}

static uint64_t
due_ns(const struct wr_mcast_host *st, uint32_t s)
{
	return st->epoch_ns + (uint64_t)(st->due_ms[s] - 1) * NS_PER_MS;
}

static void
set_due(struct wr_mcast_host *st, uint32_t s, uint64_t when)
{
	/* Rounded up to the ms: never before the time chosen. */
	st->due_ms[s] = (uint32_t)((when - st->epoch_ns + NS_PER_MS - 1) /
				   NS_PER_MS) + 1;
}

static void
rearm(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h,
      struct wr_mcast_host *st)
{
	uint64_t next = 0;

#define EARLIER(t) do { if ((t) && (!next || (t) < next)) next = (t); } while (0)
	EARLIER(st->unsol_due_ns);
	EARLIER(st->gen_due_ns);
	for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++)
		if (st->due_ms[s])
			EARLIER(due_ns(st, s));
#undef EARLIER
	wr_hosts_timer(hs, h, f->id, next);
}

static void
cancel_pending(struct wr_mcast_host *st)
{
	st->gen_due_ns = 0;
	st->unsol_due_ns = 0;
	st->unsol_left = 0;
	memset(st->due_ms, 0, sizeof(st->due_ms));
	memset(st->src_q, 0, sizeof(st->src_q));
	memset(st->why, 0, sizeof(st->why));
}

/* An old-version message (report or leave) for slot @p s. */
static void
send_old(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h,
	 enum wr_mcast_compat m, bool leave, __uint128_t group)
{
	uint8_t msg[64];
	uint32_t len = f->old_msg(msg, m, leave, group);

	f->send(hs, h, leave ? f->routers : group, msg, len);
}

/* Join (@p leave false) or leave every group: the unsolicited reports of
 * RFC 3376 section 5.1 (state-change records) or RFC 2236 section 3. */
static void
send_change(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h,
	    struct wr_mcast_host *st, enum wr_mcast_compat m, bool leave)
{
	const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
	struct host_groups g;
	struct report r;

	host_groups(f, hs, h, c, &g);
	if (m < WR_MCAST_V3) {
		/* An IGMPv1 host sends no leave (RFC 2236 section 3). */
		if (leave && m == WR_MCAST_V1)
			return;
		for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++) {
			if (!slot_used(&g, s))
				continue;
			send_old(f, hs, h, m, leave, g.s[s].group);
			st->c[leave ? WR_MCAST_C_leaves_sent :
			      WR_MCAST_C_reports_sent]++;
		}
		return;
	}
	rep_begin(&r, f, hs, h, &st->c[leave ? WR_MCAST_C_leaves_sent :
			  WR_MCAST_C_reports_sent], NULL);
	for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++) {
		const struct wr_mcast_range *rg = g.s[s].r;
		bool inc;

		if (!slot_used(&g, s))
			continue;
		inc = rg && rg->mode == WR_MCAST_INCLUDE;
		/* INCLUDE {} -> INCLUDE {S}: ALLOW(S); -> EXCLUDE {S}:
		 * TO_EX(S); and back: BLOCK(S), TO_IN({}) (section 5.1's
		 * table). */
		if (leave)
			rep_add(&r, inc ? WR_MCAST_BLOCK : WR_MCAST_TO_IN,
				g.s[s].group, inc ? rg : NULL, all_src(rg));
		else
			rep_add(&r, inc ? WR_MCAST_ALLOW : WR_MCAST_TO_EX,
				g.s[s].group, rg, all_src(rg));
	}
	rep_flush(&r);
}

static uint64_t
unsol_next(struct wr_hosts *hs, const struct wr_mcast_cfg *c,
	   enum wr_mcast_compat m, uint64_t now)
{
	uint32_t ms = c->unsolicited_ms;

	/* RFC 3376 section 5.1 (and RFC 3810 6.1): retransmissions at
	 * random in (0, interval]; RFC 2236 section 3 (and RFC 2710 4):
	 * after the interval. */
	if (m == WR_MCAST_V3)
		ms = 1 + wr_hosts_rand(hs) % ms;
	return now + (uint64_t)ms * NS_PER_MS;
}

void
wr_mcast_start(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h,
	       uint64_t now)
{
	const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
	struct wr_mcast_host *st = st_of(f, hs, h);
	enum wr_mcast_compat m;

	if (!c || !st) {
		wr_hosts_done(hs, h, f->id, true);
		return;
	}
	memset(st, 0, sizeof(*st));
	st->epoch_ns = now;
	st->state = WR_MCAST_MEMBER;
	m = compat(c, st, now);
	send_change(f, hs, h, st, m, false);
	st->unsol_left = c->robustness - 1;
	if (st->unsol_left)
		st->unsol_due_ns = unsol_next(hs, c, m, now);
	/* Joined when the first report is out: a querier's table follows. */
	wr_hosts_done(hs, h, f->id, true);
	rearm(f, hs, h, st);
}

void
wr_mcast_timer(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h,
	       uint64_t now)
{
	const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
	struct wr_mcast_host *st = st_of(f, hs, h);
	enum wr_mcast_compat m;
	struct host_groups g;
	struct report r;

	if (!c || !st || st->state != WR_MCAST_MEMBER)
		return;
	m = compat(c, st, now);
	if (st->unsol_due_ns && st->unsol_due_ns <= now) {
		st->unsol_due_ns = 0;
		send_change(f, hs, h, st, m, false);
		if (--st->unsol_left)
			st->unsol_due_ns = unsol_next(hs, c, m, now);
	}
	host_groups(f, hs, h, c, &g);
	if (st->gen_due_ns && st->gen_due_ns <= now) {
		/* The interface timer: every group's current state in one
		 * report (more when it passes the MTU). */
		st->gen_due_ns = 0;
		rep_begin(&r, f, hs, h, &st->c[WR_MCAST_C_reports_sent],
			  &st->c[WR_MCAST_C_answered_general]);
		for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++)
			if (slot_used(&g, s))
				rep_current(&r, &g.s[s], 0);
		rep_flush(&r);
	}
	rep_begin(&r, f, hs, h, &st->c[WR_MCAST_C_reports_sent], NULL);
	for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++) {
		enum wr_mcast_counter ans;

		if (!st->due_ms[s] || due_ns(st, s) > now)
			continue;
		ans = st->why[s] == 1 ? WR_MCAST_C_answered_general :
		      st->why[s] == 3 ? WR_MCAST_C_answered_group_source :
		      WR_MCAST_C_answered_group;
		st->due_ms[s] = 0;
		if (!slot_used(&g, s))
			continue;     /* an extra group gone since */
		st->c[ans]++;
		if (m < WR_MCAST_V3) {
			send_old(f, hs, h, m, false, g.s[s].group);
			st->c[WR_MCAST_C_reports_sent]++;
		} else {
			rep_current(&r, &g.s[s], st->src_q[s]);
		}
		st->src_q[s] = 0;
	}
	rep_flush(&r);
	rearm(f, hs, h, st);
}

void
wr_mcast_stop(const struct wr_mcast_fam *f, struct wr_hosts *hs, uint32_t h,
	      uint64_t now)
{
	const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
	struct wr_mcast_host *st = st_of(f, hs, h);

	if (!c || !st || st->state != WR_MCAST_MEMBER)
		return;
	/* Once: the port stops after this, so a retransmission could not
	 * go out (a snooping switch's last-member queries go unanswered and
	 * the group goes all the same). */
	send_change(f, hs, h, st, compat(c, st, now), true);
	cancel_pending(st);
	st->state = WR_MCAST_LEFT;
	wr_hosts_timer(hs, h, f->id, 0);
}

const char *
wr_mcast_state(const struct wr_mcast_fam *f, const struct wr_hosts *hs,
	       uint32_t h)
{
	/* The control plane copies the word before the next call. */
	static _Thread_local char buf[48];
	const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
	const struct wr_mcast_host *st;
	struct host_groups g;

	if (!c)
		return "";
	st = wr_hosts_state((struct wr_hosts *)hs, h, f->id);
	if (!st || st->state == WR_MCAST_IDLE)
		return "idle";
	if (st->state == WR_MCAST_LEFT)
		return "left";
	host_groups(f, hs, h, c, &g);
	snprintf(buf, sizeof(buf), "member of %u", g.n_cfg + g.n_extra);
	return buf;
}

void
wr_mcast_counters(const struct wr_mcast_fam *f, const struct wr_hosts *hs,
		  void (*put)(void *ctx, const char *name, uint64_t v),
		  void *ctx)
{
	static const char *const names[] = {
#define X(n) #n,
		WR_MCAST_COUNTERS(X)
#undef X
	};
	uint64_t sum[WR_MCAST_C__COUNT] = {0};
	uint32_t n = wr_hosts_n(hs);

	for (uint32_t h = 0; h < n; h++) {
		const struct wr_mcast_host *st;

		if (!cfg_of(f, hs, h))
			continue;
		st = wr_hosts_state((struct wr_hosts *)hs, h, f->id);
		for (int i = 0; i < WR_MCAST_C__COUNT; i++)
			sum[i] += st->c[i];
	}
	for (int i = 0; i < WR_MCAST_C__COUNT; i++)
		put(ctx, names[i], sum[i]);
}

/* The first host of @p rx's link with the module: where per-frame
 * counters go (module counters are per host, summed). */
static struct wr_mcast_host *
first_host(const struct wr_mcast_fam *f, struct wr_hosts *hs,
	   const struct wr_host_rx *rx)
{
	uint32_t n = wr_hosts_n(hs);

	for (uint32_t h = 0; h < n; h++)
		if (cfg_of(f, hs, h) && wr_hosts_same_link(hs, h, rx))
			return st_of(f, hs, h);
	return NULL;
}

void
wr_mcast_bad(const struct wr_mcast_fam *f, struct wr_hosts *hs,
	     const struct wr_host_rx *rx, enum wr_mcast_counter c)
{
	struct wr_mcast_host *st = first_host(f, hs, rx);

	if (st)
		st->c[c]++;
}

/* Bits of @p rg's sources that @p q names. */
static uint32_t
asked(const struct wr_mcast_fam *f, const struct wr_mcast_range *rg,
      const struct wr_mcast_query *q)
{
	uint32_t mask = 0;

	for (uint32_t j = 0; rg && j < q->n_src; j++) {
		__uint128_t a = get_addr(q->src + (size_t)j * f->alen, f->alen);

		for (uint32_t i = 0; i < rg->n_src; i++)
			if (rg->src[i] == a)
				mask |= 1u << i;
	}
	return mask;
}

/* RFC 3376 section 5.2 (RFC 3810 section 6.2): a v3 query, a v3 host. */
static void
query_v3(const struct wr_mcast_fam *f, struct wr_mcast_host *st,
	 const struct host_groups *g, const struct wr_mcast_query *q,
	 uint64_t now, uint64_t at)
{
	const struct wr_mcast_range *rg;
	uint32_t mask = 0;
	int s;

	if (st->gen_due_ns && st->gen_due_ns <= at)
		return;                 /* rule 1 */
	if (q->group == 0) {
		st->gen_due_ns = at;    /* rule 2 */
		return;
	}
	s = slot_of(g, q->group);
	if (s < 0)
		return;
	rg = g->s[s].r;
	if (q->n_src) {
		mask = asked(f, rg, q);
		if (rg && rg->mode == WR_MCAST_INCLUDE) {
			/* The answer is IS_IN(asked and included): none,
			 * no answer. */
			if (!mask)
				return;
		} else {
			/* EXCLUDE: answered with the group's whole state
			 * (IS_EX) unless every source asked is excluded. */
			if (rg && __builtin_popcount(mask) == q->n_src)
				return;
			mask = 0;
		}
	}
	if (!st->due_ms[s]) {           /* rule 3 */
		set_due(st, (uint32_t)s, at);
		st->src_q[s] = (uint8_t)mask;
		st->why[s] = q->n_src ? 3 : 2;
		return;
	}
	/* Rules 4 and 5: one answer, at the earlier time. */
	if (due_ns(st, (uint32_t)s) > at)
		set_due(st, (uint32_t)s, at);
	if (!q->n_src || st->src_q[s] == 0 || !mask)
		st->src_q[s] = 0;
	else
		st->src_q[s] |= (uint8_t)mask;
	(void)now;
}

/* RFC 2236 section 3 (RFC 2710 section 4): an old-version host (or one in
 * an old version's mode): a timer per group, restarted only when the query
 * asks for an answer sooner than it would come. */
static void
query_old(struct wr_hosts *hs, struct wr_mcast_host *st,
	  const struct host_groups *g, const struct wr_mcast_query *q,
	  uint64_t now)
{
	for (uint32_t s = 0; s < WR_MCAST_SLOTS; s++) {
		uint64_t at;

		if (!slot_used(g, s) || (q->group && g->s[s].group != q->group))
			continue;
		if (st->due_ms[s] &&
		    due_ns(st, s) <= now + (uint64_t)q->max_resp_ms * NS_PER_MS)
			continue;
		at = now + (uint64_t)(wr_hosts_rand(hs) %
				      (q->max_resp_ms + 1)) * NS_PER_MS;
		set_due(st, s, at);
		st->src_q[s] = 0;
		st->why[s] = q->group ? 2 : 1;
	}
}

void
wr_mcast_query(const struct wr_mcast_fam *f, struct wr_hosts *hs,
	       const struct wr_host_rx *rx, const struct wr_mcast_query *q,
	       uint64_t now)
{
	uint32_t n = wr_hosts_n(hs);
	bool counted = false;

	for (uint32_t h = 0; h < n; h++) {
		const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
		struct wr_mcast_host *st;
		enum wr_mcast_compat before, m;
		struct host_groups g;

		if (!c || !wr_hosts_same_link(hs, h, rx))
			continue;
		st = st_of(f, hs, h);
		if (!counted) {
			st->c[q->group == 0 ? WR_MCAST_C_queries_general :
			      q->n_src ? WR_MCAST_C_queries_group_source :
			      WR_MCAST_C_queries_group]++;
			counted = true;
		}
		if (st->state != WR_MCAST_MEMBER)
			continue;
		/* RFC 3376 section 7.2.1 (RFC 3810 section 8.2.1): an older
		 * querier moves the host to its version for a while. */
		before = compat(c, st, now);
		if (q->version == WR_MCAST_V1)
			st->v1_until_ns = now + NS_PER_MS *
				(configured(c) == WR_MCAST_V2 ?
				 V1_ROUTER_PRESENT_MS :
				 (uint64_t)c->robustness * QUERY_INTERVAL_MS +
				 QUERY_RESPONSE_MS);
		else if (q->version == WR_MCAST_V2)
			st->v2_until_ns = now + NS_PER_MS *
				((uint64_t)c->robustness * QUERY_INTERVAL_MS +
				 QUERY_RESPONSE_MS);
		m = compat(c, st, now);
		if (m < before) {
			/* "MUST cancel all its pending response and
			 * retransmission timers". */
			cancel_pending(st);
			st->c[WR_MCAST_C_compat_changes]++;
		}
		host_groups(f, hs, h, c, &g);
		if (q->group && slot_of(&g, q->group) < 0)
			continue;
		if (m == WR_MCAST_V3 && q->version == WR_MCAST_V3)
			query_v3(f, st, &g, q, now, now + (uint64_t)
				 (wr_hosts_rand(hs) % (q->max_resp_ms + 1)) *
				 NS_PER_MS);
		else
			query_old(hs, st, &g, q, now);
		rearm(f, hs, h, st);
	}
}

void
wr_mcast_heard(const struct wr_mcast_fam *f, struct wr_hosts *hs,
	       const struct wr_host_rx *rx, __uint128_t group, uint64_t now)
{
	uint32_t n = wr_hosts_n(hs);

	for (uint32_t h = 0; h < n; h++) {
		const struct wr_mcast_cfg *c = cfg_of(f, hs, h);
		struct wr_mcast_host *st;
		struct host_groups g;
		int s;

		if (!c || !wr_hosts_same_link(hs, h, rx))
			continue;
		st = st_of(f, hs, h);
		/* Suppression is the old versions' (RFC 3376 section 7.2.1:
		 * a v3 host never suppresses). */
		if (st->state != WR_MCAST_MEMBER ||
		    compat(c, st, now) == WR_MCAST_V3)
			continue;
		host_groups(f, hs, h, c, &g);
		s = slot_of(&g, group);
		if (s < 0 || !st->due_ms[s])
			continue;
		st->due_ms[s] = 0;
		st->c[WR_MCAST_C_suppressed]++;
		rearm(f, hs, h, st);
	}
}

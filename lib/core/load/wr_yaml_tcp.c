/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml_tcp: a stream file's `tcp:` key: classes of connections on the hosts groups, their program and TCP options (doc/tcp.md, "Keys"). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_config.h"
#include "wr_in.h"
#include "wr_parse.h"
#include "wr_yaml_priv.h"

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)
/* Sizes: 2^48 bytes (256 TiB) is more than any run sends in a message. */
#define SIZE_MAX_B (UINT64_C(1) << 48)
/* A data file is held in memory with its prefix sums (wr_tcp_app.h). */
#define DATA_FILE_MAX (1ull << 30)

static const char *const class_keys[] = {
	"name", "client", "server", "ip", "rate", "ramp", "concurrency",
	"count", "duration", "http", "program", "data", "tcp", NULL
};
static const char *const client_keys[] = { "hosts", "sport", NULL };
static const char *const server_keys[] = { "hosts", "addr", "port", NULL };
static const char *const http_keys[] = {
	"method", "path", "host", "request_body", "status", "body",
	"requests", "think", "close", NULL
};
static const char *const step_keys[] = { "send", "recv", "think", "close",
					  NULL };
static const char *const close_keys[] = { "by", "with", NULL };
static const char *const data_keys[] = { "file", NULL };
static const char *const opt_keys[] = {
	"mss", "wscale", "sack", "timestamps", "window", "init_cwnd",
	"rto_init", "rto_min", "rto_max", "syn_retries", "retries",
	"time_wait", "idle_timeout", NULL
};
static const char *const side_names[] = { "client", "server", NULL };
static const char *const with_names[] = { "fin", "rst", NULL };

static const char *
side_name(unsigned int side)
{
	return side == WR_TCP_CLIENT ? "client" : "server";
}

/* A size in bytes (wr_parse_bytes: 64, 1KB, 500MiB), or 0 where
 * @p min allows it, in [@p min, @p max]. */
static int
parse_size(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t min,
	   uint64_t max, uint64_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	uint64_t u;

	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, "a size such as 64, 1KB or "
					 "500MiB");
	if (strcmp(wr_ynode_text(n), "0") == 0)
		u = 0;
	else if (wr_parse_bytes(wr_ynode_text(n), &u, why, sizeof(why)) != 0)
		return wr_ywalk_why(w, n, why);
	if (u < min || u > max)
		return wr_ywalk_fail(w, n, "expected a size of %" PRIu64 "..%"
				     PRIu64 " bytes, got \"%s\"", min, max,
				     wr_ynode_text(n));
	*out = u;
	return 0;
}

/* A duration (5s, 500ms) in [@p min, @p max] ns. */
static int
parse_dur(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t min,
	  uint64_t max, uint64_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	uint64_t ns;

	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, "a duration such as 5s, 500ms "
					 "or 10us");
	if (wr_parse_duration_ns(wr_ynode_text(n), &ns, why, sizeof(why)) != 0)
		return wr_ywalk_why(w, n, why);
	if (ns < min || ns > max) {
		char lo[32];

		if (min % MS == 0 && min != 0)
			snprintf(lo, sizeof(lo), "%" PRIu64 "ms", min / MS);
		else
			snprintf(lo, sizeof(lo), "%" PRIu64 "%s", min,
				 min ? "ns" : "");
		return wr_ywalk_fail(w, n, "expected a duration of %s..%" PRIu64
				     "s, got \"%s\"", lo, max / SEC,
				     wr_ynode_text(n));
	}
	*out = ns;
	return 0;
}

static int
parse_u32(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t min,
	  uint64_t max, uint32_t *out)
{
	uint64_t u;
	int rc = wr_ywalk_u64(w, n, min, max, &u);

	if (rc == 0)
		*out = (uint32_t)u;
	return rc;
}

/* Connections a second: 10000, 10k, 1.5M, 2.5 (a fraction is kept to
 * the thousandth), an optional "/s" or " cps" after; max: as fast as
 * the concurrency lets (0).  Read by wr_parse_rate as packets a second,
 * so the same digits mean the same number as a stream's rate. */
static int
parse_rate(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *milli)
{
	static const char what[] = "a rate in connections a second such as "
				   "10000, 10k or 1.5M (or max)";
	struct wr_rate_spec r;
	char buf[64];
	size_t len;

	if (n->type != WR_YNODE_SCALAR || n->len == 0 || n->len > 40)
		return wr_ywalk_expected(w, n, what);
	if (strcmp(n->str, "max") == 0) {
		*milli = 0;
		return 0;
	}
	len = n->len;
	memcpy(buf, n->str, len + 1);
	if (len > 2 && strcmp(buf + len - 2, "/s") == 0)
		buf[len -= 2] = '\0';
	else if (len > 3 && strcmp(buf + len - 3, "cps") == 0)
		buf[len -= 3] = '\0';
	while (len > 0 && buf[len - 1] == ' ')
		buf[--len] = '\0';
	if (len > 0 && (buf[len - 1] == 'k' || buf[len - 1] == 'M' ||
			buf[len - 1] == 'G'))
		snprintf(buf + len - 1, sizeof(buf) - len + 1, "%cpps",
			 n->str[len - 1]);
	else
		snprintf(buf + len, sizeof(buf) - len, "pps");
	if (len == 0 || buf[0] < '0' || buf[0] > '9' ||
	    wr_parse_rate(buf, &r, NULL, 0) != 0 || r.unit != WR_RATE_PPS)
		return wr_ywalk_expected(w, n, what);
	*milli = r.value;
	return 0;
}

static int
parse_port(struct wr_ywalk *w, const struct wr_ynode *n, uint16_t *port)
{
	uint64_t u;
	int rc = wr_ywalk_u64(w, n, 1, 65535, &u);

	if (rc == 0)
		*port = (uint16_t)u;
	return rc;
}

/* hosts: NAME, a group of the file's hosts: on one of the run's ports. */
static int
parse_hosts_ref(struct wr_ywalk *w, const struct wr_ynode *n,
		const struct wr_host_specs *hosts, struct wr_tcp_end *e)
{
	const struct wr_host_group *g;
	int i;

	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, "the name of a group of hosts:");
	i = wr_host_specs_find(hosts, n->str);
	if (i < 0)
		return wr_ywalk_fail(w, n, "expected the name of a group of "
				     "hosts:, got \"%s\"%s", n->str, hosts->n ?
				     "" : " (the file has no hosts:)");
	g = &hosts->groups[i];
	if (g->port >= WR_PORTS_MAX)
		return wr_ywalk_fail(w, n, "hosts \"%s\" are on port %u: a run "
				     "has ports 0..%u", g->name, g->port,
				     WR_PORTS_MAX - 1);
	snprintf(e->hosts, sizeof(e->hosts), "%s", g->name);
	e->group = i;
	e->port = g->port;
	return 0;
}

/* sport: [lo, hi] or one port. */
static int
parse_sport(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_tcp_end *e)
{
	int rc;

	if (n->type == WR_YNODE_SCALAR) {
		rc = parse_port(w, n, &e->sport_lo);
		e->sport_hi = e->sport_lo;
		return rc;
	}
	if (n->type != WR_YNODE_SEQ || n->n_kids != 2)
		return wr_ywalk_expected(w, n, "a source port, or a range [lo, hi]");
	rc = parse_port(w, n->kids[0], &e->sport_lo);
	if (rc == 0)
		rc = parse_port(w, n->kids[1], &e->sport_hi);
	if (rc == 0 && e->sport_lo > e->sport_hi)
		rc = wr_ywalk_fail(w, n, "expected a range [lo, hi] with lo <= "
				   "hi, got [%u, %u]", e->sport_lo, e->sport_hi);
	return rc;
}

static int
parse_client(struct wr_ywalk *w, const struct wr_ynode *n,
	     const struct wr_host_specs *hosts, struct wr_tcp_end *e)
{
	const struct wr_ynode *v;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {hosts, sport}", client_keys);
	if (rc != 0)
		return rc;
	e->present = true;
	e->where.line = n->line;
	e->where.col = n->col;
	v = wr_ynode_get(n, "hosts");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "hosts");
	rc = WR_YWALK_KEY(w, "hosts", parse_hosts_ref(w, v, hosts, e));
	if (rc == 0 && (v = wr_ynode_get(n, "sport")) != NULL)
		rc = WR_YWALK_KEY(w, "sport", parse_sport(w, v, e));
	return rc;
}

/* The server's hosts or addr (its addresses are read once ip is known). */
static int
parse_server(struct wr_ywalk *w, const struct wr_ynode *n,
	     const struct wr_host_specs *hosts, struct wr_tcp_end *e)
{
	const struct wr_ynode *v, *h, *a;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {hosts, port} or {addr, port}",
			   server_keys);
	if (rc != 0)
		return rc;
	e->where.line = n->line;
	e->where.col = n->col;
	h = wr_ynode_get(n, "hosts");
	a = wr_ynode_get(n, "addr");
	if (h == NULL && a == NULL)
		return wr_ywalk_fail(w, n, "expected hosts: (an emulated "
				     "server) or addr: (a real one)");
	if (h != NULL && a != NULL)
		return WR_YWALK_KEY(w, "addr", wr_ywalk_fail(w, a, "a server is "
				    "emulated on hosts: or a real one at addr:, "
				    "not both"));
	if (h != NULL) {
		e->present = true;
		rc = WR_YWALK_KEY(w, "hosts", parse_hosts_ref(w, h, hosts, e));
	}
	if (rc == 0 && (v = wr_ynode_get(n, "port")) != NULL)
		rc = WR_YWALK_KEY(w, "port", parse_port(w, v, &e->dport));
	return rc;
}

static int
parse_addr1(struct wr_ywalk *w, const struct wr_ynode *n, uint8_t ip,
	    __uint128_t *out)
{
	uint32_t a4;

	if (ip == 4 && n->type == WR_YNODE_SCALAR &&
	    wr_parse_ipv4(n->str, &a4, NULL, 0) == 0) {
		*out = a4;
		return 0;
	}
	if (ip == 6 && n->type == WR_YNODE_SCALAR &&
	    wr_parse_ipv6(n->str, out, NULL, 0) == 0)
		return 0;
	return wr_ywalk_expected(w, n, ip == 4 ? "an IPv4 address (ip: 4)" :
				 "an IPv6 address (ip: 6)");
}

/* addr: one address or a list of them, of the class's family. */
static int
parse_addrs(struct wr_ywalk *w, const struct wr_ynode *n, uint8_t ip,
	    struct wr_tcp_end *e)
{
	size_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ) {
		e->n_addr = 1;
		return parse_addr1(w, n, ip, &e->addr[0]);
	}
	if (n->n_kids == 0 || n->n_kids > WR_TCP_SERVERS_MAX)
		return wr_ywalk_fail(w, n, "expected 1..%u server addresses, "
				     "got %zu", WR_TCP_SERVERS_MAX, n->n_kids);
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		rc = parse_addr1(w, n->kids[i], ip, &e->addr[i]);
		wr_ywalk_pop(w, old);
	}
	e->n_addr = (uint32_t)n->n_kids;
	return rc;
}

static const struct wr_host_addr_spec *
family(const struct wr_host_group *g, uint8_t ip)
{
	return ip == 6 ? &g->v6 : &g->v4;
}

/* ip: 4 or 6; by default 6 only when the class's hosts have IPv6
 * addresses and no IPv4 ones, or its real server's address is IPv6. */
static int
parse_ip(struct wr_ywalk *w, const struct wr_ynode *cn,
	 const struct wr_host_specs *hosts, struct wr_tcp_class *c)
{
	const struct wr_ynode *v = wr_ynode_get(cn, "ip");
	const struct wr_ynode *srv = wr_ynode_get(cn, "server");
	const struct wr_ynode *a = srv ? wr_ynode_get(srv, "addr") : NULL;
	const struct wr_tcp_end *e = c->client.present ? &c->client : &c->server;
	int rc;

	if (v != NULL) {
		static const char *const ips[] = { "4", "6", NULL };

		rc = WR_YWALK_KEY(w, "ip", wr_yaml_name_of(w, v, ips, "4 or 6"));
		if (rc < 0)
			return rc;
		c->ip = rc == 0 ? 4 : 6;
		return 0;
	}
	if (e->group >= 0) {
		const struct wr_host_group *g = &hosts->groups[e->group];

		if (g->v4.mode == WR_HOST_ADDR_NONE &&
		    g->v6.mode != WR_HOST_ADDR_NONE)
			c->ip = 6;
	} else if (a != NULL) {
		const struct wr_ynode *first = a->type == WR_YNODE_SEQ &&
					       a->n_kids > 0 ? a->kids[0] : a;
		__uint128_t x;

		if (first->type == WR_YNODE_SCALAR && strchr(first->str, ':') &&
		    wr_parse_ipv6(first->str, &x, NULL, 0) == 0)
			c->ip = 6;
	}
	return 0;
}

/* The end's hosts hold addresses of the class's family. */
static int
check_family(struct wr_ywalk *w, const struct wr_ynode *cn, const char *key,
	     const struct wr_host_specs *hosts, const struct wr_tcp_class *c,
	     const struct wr_tcp_end *e)
{
	const struct wr_host_group *g;
	const struct wr_ynode *v;
	size_t old;
	int rc;

	if (!e->present || e->group < 0)
		return 0;
	g = &hosts->groups[e->group];
	if (family(g, c->ip)->mode != WR_HOST_ADDR_NONE)
		return 0;
	v = wr_ynode_get(wr_ynode_get(cn, key), "hosts");
	old = wr_ywalk_push_key(w, key);
	rc = WR_YWALK_KEY(w, "hosts", wr_ywalk_fail(w, v, "hosts \"%s\" have "
		"no IPv%u address (the class's ip: %u): expected a group with "
		"ipv%u:", g->name, c->ip, c->ip, c->ip));
	wr_ywalk_pop(w, old);
	return rc;
}

/* Whether two groups' static addresses of family @p ip meet.  DHCP and
 * SLAAC addresses are not known before the run. */
static bool
addrs_meet(const struct wr_host_group *a, const struct wr_host_group *b,
	   uint8_t ip)
{
	const struct wr_host_addr_spec *x = family(a, ip), *y = family(b, ip);
	__uint128_t xl, yl;

	if (x->mode != WR_HOST_ADDR_STATIC || y->mode != WR_HOST_ADDR_STATIC)
		return false;
	/* One address on other VLANs is another link's: only groups on
	 * one VLAN (or none), the same, can clash. */
	if (a->n_tags != b->n_tags || a->vlan_step[0] || a->vlan_step[1] ||
	    b->vlan_step[0] || b->vlan_step[1] ||
	    memcmp(a->vlan, b->vlan, sizeof(a->vlan)) != 0)
		return false;
	if (x->addr >> 64 == y->addr >> 64 && x->step >> 64 == 0 &&
	    y->step >> 64 == 0 && x->step != 0 && y->step != 0) {
		xl = x->addr + x->step * (a->count - 1);
		yl = y->addr + y->step * (b->count - 1);
		if (xl >> 64 == x->addr >> 64 && yl >> 64 == y->addr >> 64)
			return wr_yaml_progressions_meet((uint64_t)x->addr,
				(uint64_t)x->step, a->count, (uint64_t)y->addr,
				(uint64_t)y->step, b->count);
	}
	/* Wider than 64 bits, or one address for all: the spans. */
	xl = x->addr + x->step * (a->count - 1);
	yl = y->addr + y->step * (b->count - 1);
	return !(xl < y->addr || yl < x->addr);
}

/* Ends, ip, a real server's addresses, and what holds across them. */
static int
parse_ends(struct wr_ywalk *w, const struct wr_ynode *cn,
	   const struct wr_host_specs *hosts, struct wr_tcp_class *c)
{
	const struct wr_ynode *v, *srv = wr_ynode_get(cn, "server");
	int rc = 0;

	if ((v = wr_ynode_get(cn, "client")) != NULL)
		rc = WR_YWALK_KEY(w, "client", parse_client(w, v, hosts,
							    &c->client));
	if (rc == 0 && srv != NULL)
		rc = WR_YWALK_KEY(w, "server", parse_server(w, srv, hosts,
							    &c->server));
	if (rc != 0)
		return rc;
	if (!c->client.present && !c->server.present)
		return wr_ywalk_fail(w, srv ? srv : cn, "expected client: "
			"(emulated clients), server: {hosts, port} (an emulated "
			"server), or both");
	rc = parse_ip(w, cn, hosts, c);
	if (rc == 0 && srv != NULL && (v = wr_ynode_get(srv, "addr")) != NULL) {
		size_t old = wr_ywalk_push_key(w, "server");

		rc = WR_YWALK_KEY(w, "addr", parse_addrs(w, v, c->ip, &c->server));
		wr_ywalk_pop(w, old);
	}
	if (rc == 0)
		rc = check_family(w, cn, "client", hosts, c, &c->client);
	if (rc == 0)
		rc = check_family(w, cn, "server", hosts, c, &c->server);
	if (rc == 0 && c->client.present && c->server.present &&
	    c->client.port == c->server.port &&
	    addrs_meet(&hosts->groups[c->client.group],
		       &hosts->groups[c->server.group], c->ip)) {
		size_t old = wr_ywalk_push_key(w, "server");

		rc = WR_YWALK_KEY(w, "hosts", wr_ywalk_fail(w,
			wr_ynode_get(srv, "hosts"), "server hosts \"%s\" share "
			"IPv%u addresses with client hosts \"%s\" on port %u: "
			"expected a client and a server of their own",
			c->server.hosts, c->ip, c->client.hosts, c->server.port));
		wr_ywalk_pop(w, old);
	}
	return rc;
}

/* rate, ramp, concurrency, count, duration: how connections are opened. */
static int
parse_opening(struct wr_ywalk *w, const struct wr_ynode *cn,
	      struct wr_tcp_class *c)
{
	static const char *const client_only[] = { "rate", "ramp", "count",
						   "duration", NULL };
	const struct wr_ynode *v;
	uint64_t u;
	int i, rc = 0;

	for (i = 0; !c->client.present && client_only[i] != NULL; i++)
		if ((v = wr_ynode_get(cn, client_only[i])) != NULL)
			return WR_YWALK_KEY(w, client_only[i], wr_ywalk_fail(w,
				v, "a server alone opens no connections: %s: "
				"is for a class with client:", client_only[i]));
	if ((v = wr_ynode_get(cn, "rate")) != NULL)
		rc = WR_YWALK_KEY(w, "rate", parse_rate(w, v, &c->rate_milli));
	if (rc == 0 && (v = wr_ynode_get(cn, "ramp")) != NULL) {
		rc = WR_YWALK_KEY(w, "ramp", parse_dur(w, v, 1, 3600 * SEC,
						       &c->ramp_ns));
		if (rc == 0 && c->rate_milli == 0)
			rc = WR_YWALK_KEY(w, "ramp", wr_ywalk_fail(w, v, "a ramp "
				"reaches a rate: expected rate: (not max) with "
				"it"));
	}
	if (rc == 0 && (v = wr_ynode_get(cn, "concurrency")) != NULL)
		rc = WR_YWALK_KEY(w, "concurrency", parse_u32(w, v, 1,
				  UINT32_MAX, &c->concurrency));
	if (rc == 0 && (v = wr_ynode_get(cn, "count")) != NULL)
		rc = WR_YWALK_KEY(w, "count", wr_ywalk_u64(w, v, 1, UINT64_MAX,
							   &c->count));
	if (rc == 0 && (v = wr_ynode_get(cn, "duration")) != NULL) {
		rc = WR_YWALK_KEY(w, "duration", parse_dur(w, v, 1, UINT64_MAX,
							   &u));
		c->duration_ns = u;
		if (rc == 0 && c->count != 0)
			rc = WR_YWALK_KEY(w, "duration", wr_ywalk_fail(w, v,
				"count: and duration: both given: a class ends "
				"by one of them (or, with neither, by the run's "
				"--duration)"));
	}
	return rc;
}

static int
parse_token(struct wr_ywalk *w, const struct wr_ynode *n, char *out,
	    size_t cap, bool method)
{
	const char *t = wr_ynode_text(n);
	size_t i, len = strlen(t);

	for (i = 0; i < len; i++)
		if (method ? !(t[i] >= 'A' && t[i] <= 'Z') :
		    (t[i] <= ' ' || t[i] > '~'))
			break;
	if (method && (len == 0 || i < len || len >= cap))
		return wr_ywalk_expected(w, n, "an HTTP method of 1 to 15 "
					 "capitals (GET, POST, ...)");
	if (!method && (len == 0 || i < len || len >= cap))
		return wr_ywalk_fail(w, n, "expected 1..%zu visible ASCII "
				     "characters (no spaces), got \"%s\"",
				     cap - 1, t);
	memcpy(out, t, len + 1);
	return 0;
}

static int
parse_http(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_tcp_http *h)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {method, path, status, body, ...}",
			   http_keys);
	if (rc == 0 && (v = wr_ynode_get(n, "method")) != NULL)
		rc = WR_YWALK_KEY(w, "method", parse_token(w, v, h->method,
			sizeof(h->method), true));
	if (rc == 0 && (v = wr_ynode_get(n, "path")) != NULL) {
		rc = WR_YWALK_KEY(w, "path", parse_token(w, v, h->path,
			sizeof(h->path), false));
		if (rc == 0 && h->path[0] != '/' && strcmp(h->path, "*") != 0)
			rc = WR_YWALK_KEY(w, "path", wr_ywalk_expected(w, v,
				"a path that starts with / (or *)"));
	}
	if (rc == 0 && (v = wr_ynode_get(n, "host")) != NULL)
		rc = WR_YWALK_KEY(w, "host", parse_token(w, v, h->host,
			sizeof(h->host), false));
	if (rc == 0 && (v = wr_ynode_get(n, "request_body")) != NULL)
		rc = WR_YWALK_KEY(w, "request_body", parse_size(w, v, 0,
			SIZE_MAX_B, &h->request_body));
	if (rc == 0 && (v = wr_ynode_get(n, "status")) != NULL) {
		rc = WR_YWALK_KEY(w, "status", wr_ywalk_u64(w, v, 100, 599, &u));
		h->status = (uint16_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "body")) != NULL)
		rc = WR_YWALK_KEY(w, "body", parse_size(w, v, 0, SIZE_MAX_B,
							&h->response_body));
	if (rc == 0 && (v = wr_ynode_get(n, "requests")) != NULL)
		rc = WR_YWALK_KEY(w, "requests", parse_u32(w, v, 1, UINT32_MAX,
							   &h->requests));
	if (rc == 0 && (v = wr_ynode_get(n, "think")) != NULL)
		rc = WR_YWALK_KEY(w, "think", parse_dur(w, v, 0, 3600 * SEC,
							&h->think_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "close")) != NULL) {
		int i = WR_YWALK_KEY(w, "close", wr_yaml_name_of(w, v,
				     side_names, "client or server"));

		rc = i < 0 ? i : 0;
		h->close_by_server = i == WR_TCP_SERVER;
	}
	return rc;
}

/* close: fin | rst | {by: client|server, with: fin|rst}; the client's
 * FIN by default. */
static int
parse_close(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_tcp_step *s)
{
	const struct wr_ynode *v;
	int i;

	s->by = WR_TCP_CLIENT;
	if (n->type == WR_YNODE_SCALAR) {
		i = wr_yaml_name_of(w, n, with_names, "fin, rst, or a mapping "
				    "{by: client|server, with: fin|rst}");
		s->rst = i == 1;
		return i < 0 ? i : 0;
	}
	i = wr_ywalk_keys(w, n, "fin, rst, or a mapping {by, with}", close_keys);
	if (i == 0 && (v = wr_ynode_get(n, "by")) != NULL) {
		i = WR_YWALK_KEY(w, "by", wr_yaml_name_of(w, v, side_names,
							  "client or server"));
		s->by = i == WR_TCP_SERVER ? WR_TCP_SERVER : WR_TCP_CLIENT;
	}
	if (i >= 0 && (v = wr_ynode_get(n, "with")) != NULL) {
		i = WR_YWALK_KEY(w, "with", wr_yaml_name_of(w, v, with_names,
							    "fin or rst"));
		s->rst = i == 1;
	}
	return i < 0 ? i : 0;
}

static int
parse_step(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_tcp_step *s)
{
	const struct wr_ynode *body;
	int k, rc;

	k = wr_ywalk_one_key(w, n, "a step {send: BYTES}, {recv: BYTES}, "
			     "{think: DURATION} or {close: fin|rst}", step_keys,
			     &body);
	if (k < 0)
		return k;
	s->where.line = n->line;
	s->where.col = n->col;
	if (k == 0 || k == 1) {
		s->op = WR_TCP_OP_SEND;
		s->by = k == 0 ? WR_TCP_CLIENT : WR_TCP_SERVER;
		if (body->type == WR_YNODE_SCALAR &&
		    strcmp(body->str, "until_close") == 0) {
			s->bytes = WR_TCP_UNTIL_CLOSE;
			return 0;
		}
		rc = WR_YWALK_KEY(w, step_keys[k], parse_size(w, body, 1,
				  SIZE_MAX_B, &s->bytes));
	} else if (k == 2) {
		s->op = WR_TCP_OP_THINK;
		rc = WR_YWALK_KEY(w, "think", parse_dur(w, body, 1, 3600 * SEC,
							&s->ns));
	} else {
		s->op = WR_TCP_OP_CLOSE;
		rc = WR_YWALK_KEY(w, "close", parse_close(w, body, s));
	}
	return rc;
}

/* A step no side can reach or finish: after an abort, after a side's own
 * FIN (it sends nothing more), after a send that lasts until the close. */
static int
check_step(struct wr_ywalk *w, const struct wr_ynode *list,
	   const struct wr_tcp_class *c, uint32_t i, int *fin_at)
{
	const struct wr_tcp_step *s = &c->steps[i];
	const struct wr_tcp_step *p = i > 0 ? &c->steps[i - 1] : NULL;
	size_t old = wr_ywalk_push_index(w, i);
	int rc = 0;

	if (p != NULL && p->op == WR_TCP_OP_CLOSE && p->rst)
		rc = wr_ywalk_fail(w, list->kids[i], "a program that no side "
			"can finish: steps[%u] aborts the connection (rst), "
			"so nothing can follow it", i - 1);
	else if (p != NULL && p->op == WR_TCP_OP_SEND &&
		 p->bytes == WR_TCP_UNTIL_CLOSE)
		rc = wr_ywalk_fail(w, list->kids[i], "a program that no side "
			"can finish: steps[%u]'s %s sends until the connection "
			"closes, so no step can follow it", i - 1,
			side_name(p->by));
	else if ((s->op == WR_TCP_OP_SEND || s->op == WR_TCP_OP_CLOSE) &&
		 fin_at[s->by] >= 0)
		rc = wr_ywalk_fail(w, list->kids[i], "the %s closed its side at "
			"steps[%d]: it can %s", side_name(s->by), fin_at[s->by],
			s->op == WR_TCP_OP_SEND ? "send nothing after" :
			"not close again");
	if (s->op == WR_TCP_OP_CLOSE)
		fin_at[s->by] = (int)i;
	wr_ywalk_pop(w, old);
	return rc;
}

static int
parse_program(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_tcp_class *c)
{
	int fin_at[2] = { -1, -1 };
	uint32_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 ||
	    n->n_kids > WR_TCP_STEPS_MAX)
		return wr_ywalk_expected(w, n, "a list of 1..32 steps (send, "
					 "recv, think, close)");
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		rc = parse_step(w, n->kids[i], &c->steps[i]);
		wr_ywalk_pop(w, old);
	}
	c->n_steps = (uint32_t)n->n_kids;
	for (i = 0; i < c->n_steps && rc == 0; i++)
		rc = check_step(w, n, c, i, fin_at);
	if (rc != 0)
		return rc;
	for (i = 0; i < c->n_steps; i++)
		if (c->steps[i].op != WR_TCP_OP_THINK)
			return 0;
	return wr_ywalk_fail(w, n, "a program of think steps alone sends "
			     "nothing: expected a send, recv or close step");
}

/* until_close with both sides emulated: neither closes, so only a
 * duration (the class's or the run's) ends those connections. */
static int
check_until_close(struct wr_ywalk *w, const struct wr_ynode *cn,
		  const struct wr_tcp_class *c)
{
	const struct wr_ynode *v = wr_ynode_get(cn, "count");
	const struct wr_tcp_step *s;

	if (c->is_http || c->n_steps == 0)
		return 0;
	s = &c->steps[c->n_steps - 1];
	if (s->op != WR_TCP_OP_SEND ||
	    s->bytes != WR_TCP_UNTIL_CLOSE || !c->client.present ||
	    !c->server.present || v == NULL)
		return 0;
	return WR_YWALK_KEY(w, "count", wr_ywalk_fail(w, v, "a program that "
		"no side can finish: the %s sends until the close and the "
		"emulated %s never closes, so no connection ends and count: "
		"is never reached: expected duration: instead",
		side_name(s->by), side_name(!s->by)));
}

/* The file's bytes to send, as written if absolute, else from the stream
 * file's folder (they travel together); read and sized at load so that a
 * run never starts to fail on it. */
static int
parse_data(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_tcp_class *c)
{
	const struct wr_ynode *v;
	const char *slash;
	char why[128];
	struct stat st;
	int fd, rc;

	if (n->type == WR_YNODE_SCALAR && strcmp(n->str, "pattern") == 0) {
		c->data = WR_TCP_DATA_PATTERN;
		return 0;
	}
	if (n->type != WR_YNODE_MAP)
		return wr_ywalk_expected(w, n, "pattern or {file: PATH}");
	rc = wr_ywalk_keys(w, n, "pattern or {file: PATH}", data_keys);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "file");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "file");
	if (v->type != WR_YNODE_SCALAR || v->len == 0)
		return WR_YWALK_KEY(w, "file", wr_ywalk_expected(w, v,
				    "the path of a file"));
	if (w->pcap_dir != WR_YAML_PCAP_ANY)
		return WR_YWALK_KEY(w, "file", wr_ywalk_fail(w, v, "this server "
				    "reads no file a client names: expected "
				    "data: pattern"));
	slash = strrchr(w->file, '/');
	if (v->str[0] == '/' || slash == NULL)
		rc = snprintf(c->data_file, sizeof(c->data_file), "%s", v->str);
	else
		rc = snprintf(c->data_file, sizeof(c->data_file), "%.*s/%s",
			      (int)(slash - w->file), w->file, v->str);
	if (rc < 0 || (size_t)rc >= sizeof(c->data_file))
		return WR_YWALK_KEY(w, "file", wr_ywalk_fail(w, v, "expected a "
				    "path of less than %u characters",
				    WR_TCP_FILE_MAX));
	c->data = WR_TCP_DATA_FILE;
	fd = wr_in_open(c->data_file, DATA_FILE_MAX, 0, why, sizeof(why));
	if (fd < 0)
		return WR_YWALK_KEY(w, "file", wr_ywalk_fail(w, v, "%s: %s%s",
				    c->data_file, why, fd == -EFBIG ?
				    " (data files are read into memory: at "
				    "most 1 GiB)" : ""));
	rc = fstat(fd, &st);
	close(fd);
	if (rc != 0 || st.st_size == 0)
		return WR_YWALK_KEY(w, "file", wr_ywalk_fail(w, v, "%s: %s",
				    c->data_file, rc != 0 ? "cannot be sized" :
				    "is empty: expected the bytes to send"));
	c->data_size = (uint64_t)st.st_size;
	return 0;
}

/* The timers: rto_min <= rto_init <= rto_max. */
static int
parse_timers(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_tcp_opts *o)
{
	const struct wr_ynode *v;
	int rc = 0;

	if ((v = wr_ynode_get(n, "rto_init")) != NULL)
		rc = WR_YWALK_KEY(w, "rto_init", parse_dur(w, v, MS, 600 * SEC,
							   &o->rto_init_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "rto_min")) != NULL)
		rc = WR_YWALK_KEY(w, "rto_min", parse_dur(w, v, MS, 600 * SEC,
							  &o->rto_min_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "rto_max")) != NULL)
		rc = WR_YWALK_KEY(w, "rto_max", parse_dur(w, v, MS, 600 * SEC,
							  &o->rto_max_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "time_wait")) != NULL)
		rc = WR_YWALK_KEY(w, "time_wait", parse_dur(w, v, 0, 600 * SEC,
							    &o->time_wait_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "idle_timeout")) != NULL)
		rc = WR_YWALK_KEY(w, "idle_timeout", parse_dur(w, v, MS,
				  86400 * SEC, &o->idle_timeout_ns));
	if (rc == 0 && (o->rto_min_ns > o->rto_init_ns ||
			o->rto_init_ns > o->rto_max_ns)) {
		const char *key = wr_ynode_get(n, "rto_max") ? "rto_max" :
				  wr_ynode_get(n, "rto_init") ? "rto_init" :
				  "rto_min";

		rc = WR_YWALK_KEY(w, key, wr_ywalk_fail(w, wr_ynode_get(n, key),
			"expected rto_min <= rto_init <= rto_max, got %" PRIu64
			"ms, %" PRIu64 "ms, %" PRIu64 "ms", o->rto_min_ns / MS,
			o->rto_init_ns / MS, o->rto_max_ns / MS));
	}
	return rc;
}

static int
parse_opts(struct wr_ywalk *w, const struct wr_ynode *n, uint8_t ip,
	   struct wr_tcp_opts *o)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	if (n == NULL) {
		if (ip == 6)
			o->mss = 1440;
		return 0;
	}
	rc = wr_ywalk_keys(w, n, "a mapping {mss, wscale, sack, ...}", opt_keys);
	if (rc == 0 && (v = wr_ynode_get(n, "mss")) != NULL) {
		/* 88: IPv4's 576-byte minimum less 40 of headers and 448 of
		 * options is still a segment; 9000: a jumbo frame's. */
		rc = WR_YWALK_KEY(w, "mss", wr_ywalk_u64(w, v, 88, 9000, &u));
		o->mss = (uint16_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "wscale")) != NULL) {
		rc = WR_YWALK_KEY(w, "wscale", wr_ywalk_u64(w, v, 0, 14, &u));
		o->wscale = (uint8_t)u;     /* RFC 7323 2.3: 14 at most */
	}
	if (rc == 0 && (v = wr_ynode_get(n, "sack")) != NULL)
		rc = WR_YWALK_KEY(w, "sack", wr_ywalk_bool(w, v, &o->sack));
	if (rc == 0 && (v = wr_ynode_get(n, "timestamps")) != NULL)
		rc = WR_YWALK_KEY(w, "timestamps", wr_ywalk_bool(w, v,
							       &o->timestamps));
	if (rc == 0 && (v = wr_ynode_get(n, "window")) != NULL) {
		rc = WR_YWALK_KEY(w, "window", parse_size(w, v, 1, UINT32_MAX,
							  &u));
		o->window = (uint32_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "init_cwnd")) != NULL)
		rc = WR_YWALK_KEY(w, "init_cwnd", parse_u32(w, v, 1, 1000,
							    &o->init_cwnd));
	if (rc == 0 && (v = wr_ynode_get(n, "syn_retries")) != NULL)
		rc = WR_YWALK_KEY(w, "syn_retries", parse_u32(w, v, 0, 20,
							      &o->syn_retries));
	if (rc == 0 && (v = wr_ynode_get(n, "retries")) != NULL)
		rc = WR_YWALK_KEY(w, "retries", parse_u32(w, v, 1, 50,
							  &o->retries));
	if (rc == 0)
		rc = parse_timers(w, n, o);
	if (rc != 0)
		return rc;
	if (wr_ynode_get(n, "mss") == NULL && ip == 6)
		o->mss = 1440;
	v = wr_ynode_get(n, "window") ? wr_ynode_get(n, "window") :
	    wr_ynode_get(n, "wscale");
	if (o->window > (uint64_t)65535 << o->wscale)
		return WR_YWALK_KEY(w, wr_ynode_get(n, "window") ? "window" :
				    "wscale", wr_ywalk_fail(w, v, "a window of "
				    "%u bytes needs a larger wscale: at most "
				    "%llu with wscale %u", o->window,
				    65535ull << o->wscale, o->wscale));
	if (o->window < o->mss && v != NULL)
		return WR_YWALK_KEY(w, "window", wr_ywalk_fail(w, v, "a window "
				    "of %u bytes is less than one segment (mss "
				    "%u)", o->window, o->mss));
	return 0;
}

static int
parse_class(struct wr_ywalk *w, const struct wr_ynode *cn,
	    const struct wr_host_specs *hosts, struct wr_tcp_class *c)
{
	const struct wr_ynode *v, *p;
	int rc;

	wr_tcp_class_defaults(c);
	c->where.line = cn->line;
	c->where.col = cn->col;
	rc = wr_ywalk_keys(w, cn, "a class {name, client, server, rate, ...}",
			   class_keys);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(cn, "name");
	if (v == NULL)
		return wr_ywalk_missing(w, cn, "name");
	rc = WR_YWALK_KEY(w, "name", wr_yaml_name(w, v, c->name, sizeof(c->name)));
	if (rc == 0)
		rc = parse_ends(w, cn, hosts, c);
	if (rc == 0)
		rc = parse_opening(w, cn, c);
	v = wr_ynode_get(cn, "http");
	p = wr_ynode_get(cn, "program");
	if (rc == 0 && v != NULL && p != NULL)
		return WR_YWALK_KEY(w, "program", wr_ywalk_fail(w, p, "a class "
				    "speaks http: or runs a program:, not both"));
	/* Neither: HTTP with its defaults, the common case. */
	c->is_http = p == NULL;
	if (rc == 0 && v != NULL)
		rc = WR_YWALK_KEY(w, "http", parse_http(w, v, &c->http));
	if (rc == 0 && p != NULL)
		rc = WR_YWALK_KEY(w, "program", parse_program(w, p, c));
	if (rc == 0)
		rc = check_until_close(w, cn, c);
	if (rc == 0 && (v = wr_ynode_get(cn, "data")) != NULL)
		rc = WR_YWALK_KEY(w, "data", parse_data(w, v, c));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "tcp", parse_opts(w, wr_ynode_get(cn, "tcp"),
				  c->ip, &c->tcp));
	return rc;
}

/* Two classes that listen on one group's port: which answers a SYN? */
static int
check_classes(struct wr_ywalk *w, const struct wr_ynode *list,
	      const struct wr_tcp_specs *s, uint32_t i)
{
	const struct wr_tcp_class *c = &s->classes[i];
	const struct wr_ynode *srv;
	uint32_t j;

	for (j = 0; j < i; j++) {
		const struct wr_tcp_class *o = &s->classes[j];

		if (strcmp(o->name, c->name) == 0)
			return WR_YWALK_KEY(w, "name", wr_ywalk_fail(w,
				wr_ynode_get(list->kids[i], "name"), "duplicate "
				"tcp class name \"%s\" (first at line %u)",
				c->name, o->where.line));
		if (!c->server.present || !o->server.present ||
		    o->server.group != c->server.group ||
		    o->server.dport != c->server.dport || o->ip != c->ip)
			continue;
		srv = wr_ynode_get(list->kids[i], "server");
		return WR_YWALK_KEY(w, "server", wr_ywalk_fail(w, srv, "class "
			"\"%s\" (line %u) already serves port %u on hosts \"%s\": "
			"expected another port or other hosts", o->name,
			o->where.line, c->server.dport, c->server.hosts));
	}
	return 0;
}

int
wr_yaml_tcp(struct wr_ywalk *w, const struct wr_ynode *n,
	    const struct wr_host_specs *hosts, struct wr_tcp_specs *out)
{
	uint32_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0)
		return wr_ywalk_expected(w, n, "a list of tcp classes");
	if (n->n_kids > WR_TCP_CLASSES_MAX)
		return wr_ywalk_fail(w, n, "expected at most %u tcp classes, got "
				     "%zu", WR_TCP_CLASSES_MAX, n->n_kids);
	out->classes = calloc(n->n_kids, sizeof(*out->classes));
	if (out->classes == NULL)
		return -ENOMEM;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		out->n = i + 1;
		rc = parse_class(w, n->kids[i], hosts, &out->classes[i]);
		if (rc == 0)
			rc = check_classes(w, n, out, i);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

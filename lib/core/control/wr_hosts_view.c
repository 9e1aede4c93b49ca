/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_hosts_view: one port's emulated hosts as JSON (hosts.list, hosts.counters) and as text (the end of a run). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "wr_hosts_view.h"

const char *const wr_host_view_state_names[WR_HOST_VIEW__COUNT] = {
	[WR_HOST_VIEW_IDLE] = "idle",
	[WR_HOST_VIEW_PENDING] = "pending",
	[WR_HOST_VIEW_UP] = "up",
	[WR_HOST_VIEW_FAILED] = "failed",
};

/* The modules' names without their registry (wr_host_protos.def alone): a
 * copy is shown by a process that need not link every module. */
static const char *const proto_names[WR_HOST_PROTO__COUNT + 1] = {
#define WR_HOST_PROTO(name) #name,
#include "wr_host_protos.def"
#undef WR_HOST_PROTO
	NULL
};

static const char *const neigh_names[] = {
	[WR_NEIGH_NONE] = "none",
	[WR_NEIGH_INCOMPLETE] = "incomplete",
	[WR_NEIGH_REACHABLE] = "reachable",
	[WR_NEIGH_STALE] = "stale",
	[WR_NEIGH_FAILED] = "failed",
};

static const char *const ip6_state_names[] = {
	[WR_IP6_NONE] = "none",
	[WR_IP6_TENTATIVE] = "tentative",
	[WR_IP6_PREFERRED] = "preferred",
	[WR_IP6_DEPRECATED] = "deprecated",
	[WR_IP6_DUPLICATE] = "duplicate",
};

static const char *const ip6_origin_names[] = {
	[WR_IP6_LINK_LOCAL] = "link-local",
	[WR_IP6_STATIC] = "static",
	[WR_IP6_SLAAC] = "slaac",
	[WR_IP6_DHCP] = "dhcp",
};

#define NAME_OF(tab, v) ((size_t)(v) < sizeof(tab) / sizeof((tab)[0]) && \
			 (tab)[(v)] != NULL ? (tab)[(v)] : "?")

static void
fmt_mac(char *buf, size_t len, const uint8_t m[6])
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}

/* Host-order integers (wr_host_spec.h) to text. */
static void
fmt_ip4(char *buf, size_t len, uint32_t ip)
{
	snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff);
}

static void
fmt_ip6(char *buf, size_t len, __uint128_t ip)
{
	uint8_t b[16];
	int i;

	for (i = 15; i >= 0; i--, ip >>= 8)
		b[i] = (uint8_t)ip;
	if (inet_ntop(AF_INET6, b, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

static void
fmt_neigh_ip(char *buf, size_t len, const struct wr_host_neigh *n)
{
	if (n->v6)
		fmt_ip6(buf, len, n->ip);
	else
		fmt_ip4(buf, len, (uint32_t)n->ip);
}

/* An address of the family the group configures (not the link-local one
 * every IPv6 host has): its state decides the host's. */
static enum wr_host_view_state
ip6_view(const struct wr_host *h)
{
	enum wr_host_view_state st = WR_HOST_VIEW_PENDING;
	unsigned int i;

	for (i = 0; i < h->n_ip6 && i < WR_HOST_IP6_MAX; i++) {
		const struct wr_host_ip6 *a = &h->ip6[i];

		if (a->origin == WR_IP6_LINK_LOCAL)
			continue;
		if (a->state == WR_IP6_DUPLICATE)
			return WR_HOST_VIEW_FAILED;
		if (a->state == WR_IP6_PREFERRED || a->state == WR_IP6_DEPRECATED)
			st = WR_HOST_VIEW_UP;
	}
	return st;
}

enum wr_host_view_state
wr_host_view_state(const struct wr_host *h, const struct wr_host_group *g)
{
	enum wr_host_view_state v6;
	unsigned int i;

	if (!h->started)
		return WR_HOST_VIEW_IDLE;
	/* A module or the engine (gateway never answered, DAD found a
	 * duplicate) that ended in failure: failed, whatever else is
	 * still under way. */
	if (h->failed != 0)
		return WR_HOST_VIEW_FAILED;
	for (i = 0; i < h->n_ip6 && i < WR_HOST_IP6_MAX; i++)
		if (h->ip6[i].state == WR_IP6_DUPLICATE)
			return WR_HOST_VIEW_FAILED;
	if (h->pending != 0)
		return WR_HOST_VIEW_PENDING;
	if (g == NULL)
		return WR_HOST_VIEW_UP;
	/* Every module is done: a family still without its address is one
	 * whose module gave up (DHCP unanswered, no RA). */
	if (g->v4.mode != WR_HOST_ADDR_NONE && h->ip4_state != WR_IP4_UP)
		return WR_HOST_VIEW_FAILED;
	/* DHCPv6 done without a failure holds what it asked for: an
	 * address, or only a delegated prefix (ia_na: false), which is no
	 * address of the host's own. */
	if (g->v6.mode != WR_HOST_ADDR_NONE && g->v6.mode != WR_HOST_ADDR_DHCP) {
		v6 = ip6_view(h);
		/* Static addresses wait for DAD, not for a module. */
		if (v6 != WR_HOST_VIEW_UP)
			return g->v6.mode == WR_HOST_ADDR_STATIC &&
			       v6 == WR_HOST_VIEW_PENDING ?
			       WR_HOST_VIEW_PENDING : WR_HOST_VIEW_FAILED;
	}
	return WR_HOST_VIEW_UP;
}

const char *
wr_host_view_proto_name(unsigned int id)
{
	return id < sizeof(proto_names) / sizeof(proto_names[0]) ?
	       proto_names[id] : NULL;
}

int
wr_host_view_state_parse(const char *word, enum wr_host_view_state *st)
{
	unsigned int i;

	for (i = 0; i < WR_HOST_VIEW__COUNT; i++)
		if (word != NULL && strcmp(word, wr_host_view_state_names[i]) == 0) {
			*st = (enum wr_host_view_state)i;
			return 0;
		}
	return -EINVAL;
}

static const struct wr_host_group *
group_of(const struct wr_hosts_snap *s, const struct wr_host *h)
{
	return s->specs != NULL && h->group < s->specs->n ?
		&s->specs->groups[h->group] : NULL;
}

static const char *
module_state(const struct wr_hosts_snap *s, uint32_t i, unsigned int m)
{
	const char *w;

	if (s->states == NULL)
		return NULL;
	w = s->states[(size_t)i * WR_HOST_PROTO__COUNT + m];
	return w != NULL && w[0] != '\0' ? w : NULL;
}

/* A neighbour entry: its age from the copy's clock (ms; a change after
 * the copy, which the clock cannot see, is age 0). */
static json_t *
neigh_json(const struct wr_hosts_snap *s, const struct wr_host_neigh *n)
{
	char ip[INET6_ADDRSTRLEN], mac[24];
	bool known = n->state == WR_NEIGH_REACHABLE || n->state == WR_NEIGH_STALE;

	fmt_neigh_ip(ip, sizeof(ip), n);
	fmt_mac(mac, sizeof(mac), n->mac);
	return json_pack("{s:s, s:s, s:s?, s:I, s:i}", "ip", ip, "state",
			 NAME_OF(neigh_names, n->state), "mac",
			 known ? mac : NULL, "age_ms",
			 (json_int_t)(s->now_ns > n->updated_ns ?
				      (s->now_ns - n->updated_ns) / 1000000 : 0),
			 "probes", n->probes);
}

json_t *
wr_hosts_view_host(const struct wr_hosts_snap *s, uint32_t i)
{
	const struct wr_host *h = &s->hosts[i];
	const struct wr_host_group *g = group_of(s, h);
	char mac[24], a[INET6_ADDRSTRLEN], gw[INET6_ADDRSTRLEN];
	json_t *j, *vlans, *v4 = json_null(), *v6, *ne, *mods;
	unsigned int k;

	fmt_mac(mac, sizeof(mac), h->mac);
	vlans = json_array();
	for (k = 0; k < h->n_tags && k < WR_HOST_TAGS_MAX; k++)
		json_array_append_new(vlans, json_pack("{s:i, s:i, s:i}",
			"tpid", h->tpid[k], "id", h->tci[k] & 0x0fff, "pcp",
			h->tci[k] >> 13));
	if (g == NULL || g->v4.mode != WR_HOST_ADDR_NONE || h->ip4 != 0) {
		fmt_ip4(a, sizeof(a), h->ip4);
		fmt_ip4(gw, sizeof(gw), h->gw4);
		json_decref(v4);
		v4 = json_pack("{s:s, s:s?, s:i, s:s?}", "state",
			       h->ip4_state == WR_IP4_UP ? "up" : "none",
			       "address", h->ip4_state == WR_IP4_UP ? a : NULL,
			       "prefix", h->prefix4, "gateway",
			       h->gw4 != 0 ? gw : NULL);
	}
	v6 = json_array();
	for (k = 0; k < h->n_ip6 && k < WR_HOST_IP6_MAX; k++) {
		const struct wr_host_ip6 *x = &h->ip6[k];

		fmt_ip6(a, sizeof(a), x->addr);
		json_array_append_new(v6, json_pack("{s:s, s:i, s:s, s:s}",
			"address", a, "prefix", x->prefix, "state",
			NAME_OF(ip6_state_names, x->state), "origin",
			NAME_OF(ip6_origin_names, x->origin)));
	}
	ne = json_array();
	if (h->gw4 != 0)
		json_array_append_new(ne, neigh_json(s, &h->gw4_n));
	if (h->gw6 != 0)
		json_array_append_new(ne, neigh_json(s, &h->gw6_n));
	mods = json_object();
	for (k = 0; proto_names[k] != NULL; k++) {
		const char *w = module_state(s, i, k);

		if (w != NULL)
			json_object_set_new(mods, proto_names[k], json_string(w));
	}
	fmt_ip6(gw, sizeof(gw), h->gw6);
	j = json_pack("{s:I, s:s?, s:s, s:s, s:o, s:o, s:o, s:s?, s:o, s:o}",
		      "index", (json_int_t)s->first + i, "group",
		      g != NULL ? g->name : NULL, "state",
		      wr_host_view_state_names[wr_host_view_state(h, g)],
		      "mac", mac, "vlans", vlans, "ipv4", v4, "ipv6", v6,
		      "gateway6", h->gw6 != 0 ? gw : NULL, "neighbours", ne,
		      "modules", mods);
	return j;
}

static bool
matches(const struct wr_hosts_snap *s, const struct wr_hosts_page *pg,
	uint32_t i)
{
	const struct wr_host *h = &s->hosts[i];

	if (pg->group >= 0 && h->group != (uint32_t)pg->group)
		return false;
	return !pg->q.has_state ||
	       wr_host_view_state(h, group_of(s, h)) == pg->q.state;
}

int
wr_hosts_view_begin(struct wr_hosts_page *pg,
		    const struct wr_host_specs *specs, uint16_t port,
		    const struct wr_hosts_query *q, struct wr_error *err)
{
	uint32_t i;

	memset(pg, 0, sizeof(*pg));
	pg->q = *q;
	pg->port = port;
	pg->group = -1;
	if (q->group != NULL) {
		for (i = 0; specs != NULL && i < specs->n && pg->group < 0; i++)
			if (specs->groups[i].port == port &&
			    strcmp(specs->groups[i].name, q->group) == 0)
				pg->group = (int)i;
		if (pg->group < 0)
			return wr_error_set(err, -ENOENT, NULL, 0, 0, "group",
					    "group: no host group \"%.64s\" on "
					    "port %u", q->group, port);
	}
	if (q->limit == 0 || q->limit > WR_HOSTS_VIEW_LIMIT_MAX)
		return wr_error_set(err, -ERANGE, NULL, 0, 0, "limit",
				    "limit: expected 1 to %u hosts a page, got "
				    "%" PRIu64, WR_HOSTS_VIEW_LIMIT_MAX, q->limit);
	pg->hosts = json_array();
	return pg->hosts != NULL ? 0 : -ENOMEM;
}

bool
wr_hosts_view_filtered(const struct wr_hosts_page *pg)
{
	return pg->group >= 0 || pg->q.has_state;
}

int
wr_hosts_view_add(struct wr_hosts_page *pg, const struct wr_hosts_snap *s)
{
	bool all = !wr_hosts_view_filtered(pg);
	uint32_t i;
	json_t *j;

	for (i = 0; i < s->n; i++) {
		/* Unfiltered, a host's place is its index: a copy of the
		 * page's range alone is enough. */
		uint64_t at = all ? (uint64_t)s->first + i : pg->matched;

		if (!all && !matches(s, pg, i))
			continue;
		if (at >= pg->q.offset && at - pg->q.offset < pg->q.limit &&
		    json_array_size(pg->hosts) < pg->q.limit) {
			j = wr_hosts_view_host(s, i);
			if (j == NULL || json_array_append_new(pg->hosts, j) != 0)
				return -ENOMEM;
		}
		pg->matched = at + 1 > pg->matched ? at + 1 : pg->matched;
	}
	return 0;
}

int
wr_hosts_view_end(struct wr_hosts_page *pg, uint32_t n_total, json_t **out,
		  struct wr_error *err)
{
	uint64_t next;

	*out = NULL;
	if (!wr_hosts_view_filtered(pg))
		pg->matched = n_total;
	/* The end of the list is a valid offset (an empty page): a client
	 * paging by next_offset never asks past it. */
	if (pg->q.offset > pg->matched) {
		json_decref(pg->hosts);
		pg->hosts = NULL;
		return wr_error_set(err, -ERANGE, NULL, 0, 0, "offset",
				    "offset: expected at most %" PRIu64 " (the "
				    "hosts matched on port %u), got %" PRIu64,
				    pg->matched, pg->port, pg->q.offset);
	}
	next = pg->q.offset + json_array_size(pg->hosts);
	*out = json_pack("{s:i, s:I, s:I, s:I, s:o, s:o}", "port", pg->port,
			 "total", (json_int_t)n_total, "matched",
			 (json_int_t)pg->matched, "offset",
			 (json_int_t)pg->q.offset, "hosts", pg->hosts,
			 "next_offset", next < pg->matched ?
			 json_integer((json_int_t)next) : json_null());
	pg->hosts = NULL;
	return *out != NULL ? 0 : -ENOMEM;
}

void
wr_hosts_view_abort(struct wr_hosts_page *pg)
{
	json_decref(pg->hosts);
	pg->hosts = NULL;
}

int
wr_hosts_view_list(const struct wr_hosts_snap *s,
		   const struct wr_hosts_query *q, json_t **out,
		   struct wr_error *err)
{
	struct wr_hosts_page pg;
	int rc;

	*out = NULL;
	rc = wr_hosts_view_begin(&pg, s->specs, s->port, q, err);
	if (rc == 0)
		rc = wr_hosts_view_add(&pg, s);
	if (rc == 0)
		return wr_hosts_view_end(&pg, s->n_total, out, err);
	wr_hosts_view_abort(&pg);
	return rc;
}

void
wr_hosts_view_count(const struct wr_hosts_snap *s,
		    uint32_t count[WR_HOST_VIEW__COUNT])
{
	uint32_t i;

	memset(count, 0, WR_HOST_VIEW__COUNT * sizeof(*count));
	for (i = 0; i < s->n; i++)
		count[wr_host_view_state(&s->hosts[i],
					 group_of(s, &s->hosts[i]))]++;
}

json_t *
wr_hosts_view_counters(const struct wr_hosts_snap *s)
{
	uint32_t count[WR_HOST_VIEW__COUNT], i;
	json_t *c = json_object();

	wr_hosts_view_count(s, count);
	for (i = 0; c != NULL && i < s->n_ctrs; i++)
		json_object_set_new(c, s->ctrs[i].name,
				    json_integer((json_int_t)s->ctrs[i].value));
	return json_pack("{s:i, s:I, s:I, s:I, s:I, s:I, s:o*}", "port",
			 s->port, "hosts", (json_int_t)s->n_total, "idle",
			 (json_int_t)count[WR_HOST_VIEW_IDLE], "pending",
			 (json_int_t)count[WR_HOST_VIEW_PENDING], "up",
			 (json_int_t)count[WR_HOST_VIEW_UP], "failed",
			 (json_int_t)count[WR_HOST_VIEW_FAILED], "counters", c);
}

void
wr_hosts_view_summary(FILE *out, const struct wr_hosts_snap *s)
{
	uint32_t count[WR_HOST_VIEW__COUNT];

	wr_hosts_view_count(s, count);
	wr_hosts_view_summary_counts(out, s, count);
}

void
wr_hosts_view_summary_counts(FILE *out, const struct wr_hosts_snap *s,
			     const uint32_t count[WR_HOST_VIEW__COUNT])
{
	uint32_t i, col = 0;

	fprintf(out, "port %u: hosts: %" PRIu32 " up, %" PRIu32 " pending, %"
		PRIu32 " failed, %" PRIu32 " idle (of %" PRIu32 ")\n", s->port,
		count[WR_HOST_VIEW_UP], count[WR_HOST_VIEW_PENDING],
		count[WR_HOST_VIEW_FAILED], count[WR_HOST_VIEW_IDLE],
		s->n_total);
	/* Counters that moved, several a line: a run's dozens of them in a
	 * few lines, the zeros left to --json and hosts.counters. */
	for (i = 0; i < s->n_ctrs; i++) {
		if (s->ctrs[i].value == 0)
			continue;
		if (col == 0)
			fprintf(out, "port %u: hosts:", s->port);
		fprintf(out, " %s=%" PRIu64, s->ctrs[i].name, s->ctrs[i].value);
		if (++col == 4) {
			fputc('\n', out);
			col = 0;
		}
	}
	if (col != 0)
		fputc('\n', out);
}

/* A gateway's column: "MAC state age" or "-". */
static void
fmt_gw(char *buf, size_t len, const struct wr_hosts_snap *s,
       const struct wr_host_neigh *n, bool has)
{
	char mac[24] = "-";

	if (!has) {
		snprintf(buf, len, "-");
		return;
	}
	if (n->state == WR_NEIGH_REACHABLE || n->state == WR_NEIGH_STALE)
		fmt_mac(mac, sizeof(mac), n->mac);
	snprintf(buf, len, "%s %s %" PRIu64 "ms", mac,
		 NAME_OF(neigh_names, n->state),
		 s->now_ns > n->updated_ns ?
		 (s->now_ns - n->updated_ns) / 1000000 : 0);
}

void
wr_hosts_view_table(FILE *out, const struct wr_hosts_snap *s)
{
	char mac[24], v4[40], v6[INET6_ADDRSTRLEN + 8], g4[64], g6[64],
	     vl[24];
	uint32_t i, k;

	/* The header with the table's first chunk. */
	if (s->first == 0)
		fprintf(out, "port %u: %-7s %-12s %-7s %-17s %-9s %-18s %-24s "
			"%-34s %s\n", s->port, "host", "group", "state", "mac",
			"vlan", "ipv4", "ipv6", "gateway4 (mac state age)",
			"gateway6 (mac state age)");
	for (i = 0; i < s->n; i++) {
		const struct wr_host *h = &s->hosts[i];
		const struct wr_host_group *g = group_of(s, h);
		int at = 0;

		fmt_mac(mac, sizeof(mac), h->mac);
		vl[0] = '\0';
		for (k = 0; k < h->n_tags && k < WR_HOST_TAGS_MAX; k++)
			at += snprintf(vl + at, sizeof(vl) - (size_t)at, "%s%u",
				       k ? "." : "", h->tci[k] & 0x0fffu);
		if (h->n_tags == 0)
			snprintf(vl, sizeof(vl), "-");
		if (h->ip4_state == WR_IP4_UP) {
			fmt_ip4(v4, sizeof(v4), h->ip4);
			snprintf(v4 + strlen(v4), sizeof(v4) - strlen(v4),
				 "/%u", h->prefix4);
		} else {
			snprintf(v4, sizeof(v4), "-");
		}
		/* The first address that is not the link-local one. */
		snprintf(v6, sizeof(v6), "-");
		for (k = 0; k < h->n_ip6 && k < WR_HOST_IP6_MAX; k++)
			if (h->ip6[k].origin != WR_IP6_LINK_LOCAL) {
				fmt_ip6(v6, sizeof(v6), h->ip6[k].addr);
				snprintf(v6 + strlen(v6), sizeof(v6) - strlen(v6),
					 "/%u", h->ip6[k].prefix);
				break;
			}
		fmt_gw(g4, sizeof(g4), s, &h->gw4_n, h->gw4 != 0);
		fmt_gw(g6, sizeof(g6), s, &h->gw6_n, h->gw6 != 0);
		fprintf(out, "port %u: %-7" PRIu32 " %-12s %-7s %-17s %-9s %-18s "
			"%-24s %-34s %s\n", s->port, s->first + i,
			g != NULL ? g->name : "-",
			wr_host_view_state_names[wr_host_view_state(h, g)], mac,
			vl, v4, v6, g4, g6);
	}
}

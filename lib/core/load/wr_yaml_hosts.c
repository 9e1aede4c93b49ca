/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml_hosts: a stream file's `hosts:` key: groups of emulated hosts, their addresses and their protocol modules' keys. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_host.h"
#include "wr_parse.h"
#include "wr_yaml_priv.h"

#define MAC_MAX ((1ull << 48) - 1)
#define VLAN_MAX 4094
#define GROUP_KEYS 9

static const char *const base_keys[GROUP_KEYS] = {
	"name", "port", "count", "mac", "mac_step", "vlan", "ipv4", "ipv6",
	"bringup",
};
/* Modules configured under ipv4:/ipv6: rather than by a key of their own. */
static const char *const addr_modules[] = { "dhcp4", "dhcp6", "slaac", NULL };
static const char *const static_keys[] = { "addr", "step", "prefix", "gateway",
					   NULL };
static const char *const vlan_keys[] = { "id", "tpid", "pcp", "step", NULL };
static const char *const bringup_keys[] = { "rate", "outstanding", NULL };

static bool
is_addr_module(const char *name)
{
	int i;

	for (i = 0; addr_modules[i] != NULL; i++)
		if (strcmp(addr_modules[i], name) == 0)
			return true;
	return false;
}

/* A hosts group's or a TCP class's name (one rule for both: streams refer
 * to either as NAME in hosts.NAME, the API by name). */
int
wr_yaml_name(struct wr_ywalk *w, const struct wr_ynode *n, char *name,
	     size_t cap)
{
	const char *t = wr_ynode_text(n);
	size_t i, len = strlen(t);
	bool ok = len > 0 && len < cap;

	for (i = 0; ok && i < len; i++) {
		char c = t[i];

		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		     (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
	}
	if (!ok) {
		char what[80];

		snprintf(what, sizeof(what), "a name of 1 to %zu letters, "
			 "digits, '_', '.' or '-'", cap - 1);
		return wr_ywalk_expected(w, n, what);
	}
	memcpy(name, t, len + 1);
	return 0;
}

static int
parse_mac(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *mac)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_parse_mac(wr_ynode_text(n), mac, why, sizeof(why)) != 0)
		return wr_ywalk_why(w, n, why);
	return 0;
}

/* An address of family @p v6, or (@p step) also a plain number. */
static int
parse_addr(struct wr_ywalk *w, const struct wr_ynode *n, bool v6, bool step,
	   __uint128_t *out)
{
	const char *t = wr_ynode_text(n);
	char why[WR_PARSE_WHY_MAX];
	uint64_t u;
	uint32_t a4;

	if (step && wr_parse_u64(t, 0, UINT64_MAX, &u, why, sizeof(why)) == 0) {
		*out = u;
		return 0;
	}
	if (v6 ? wr_parse_ipv6(t, out, why, sizeof(why)) == 0 :
		 wr_parse_ipv4(t, &a4, why, sizeof(why)) == 0) {
		if (!v6)
			*out = a4;
		return 0;
	}
	return wr_ywalk_expected(w, n, v6 ? (step ? "an IPv6 step such as ::1 "
					     "or a number" : "an IPv6 address")
				 : (step ? "an IPv4 step such as 0.0.0.1 or a "
				    "number" : "an IPv4 address"));
}

/* A module's parse for node @p n, keyed @p key on the path. */
static int
module_parse(struct wr_ywalk *w, const struct wr_ynode *n, const char *key,
	     const char *module, struct wr_host_group *g)
{
	const struct wr_host_proto *p;
	int id, rc;

	p = wr_host_proto_find(module, &id);
	if (p == NULL)
		return WR_YWALK_KEY(w, key, wr_ywalk_fail(w, n, "%s needs the %s "
				    "module, which this build does not have",
				    key, module));
	if (p->parse == NULL) {
		g->proto_cfg[id] = calloc(1, 1);
		return g->proto_cfg[id] == NULL ? -ENOMEM : 0;
	}
	rc = WR_YWALK_KEY(w, key, p->parse(w, n, g, &g->proto_cfg[id]));
	if (rc == 0 && g->proto_cfg[id] == NULL)
		g->proto_cfg[id] = calloc(1, 1);
	return rc;
}

/* Static addresses: host k has addr + k * step, all of them in the
 * family (no wrap). */
static int
parse_static(struct wr_ywalk *w, const struct wr_ynode *n, bool v6,
	     struct wr_host_group *g, struct wr_host_addr_spec *a)
{
	const __uint128_t top = v6 ? ~(__uint128_t)0 : 0xffffffffu;
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {addr, step, prefix, gateway}",
			   static_keys);
	if (rc != 0)
		return rc;
	a->mode = WR_HOST_ADDR_STATIC;
	a->step = 1;
	a->prefix = v6 ? 64 : 24;
	v = wr_ynode_get(n, "addr");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "addr");
	rc = WR_YWALK_KEY(w, "addr", parse_addr(w, v, v6, false, &a->addr));
	if (rc == 0 && (v = wr_ynode_get(n, "step")) != NULL)
		rc = WR_YWALK_KEY(w, "step", parse_addr(w, v, v6, true, &a->step));
	if (rc == 0 && (v = wr_ynode_get(n, "prefix")) != NULL) {
		rc = WR_YWALK_KEY(w, "prefix", wr_ywalk_u64(w, v, 1, v6 ? 128 : 32,
							   &u));
		a->prefix = (uint8_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "gateway")) != NULL) {
		rc = WR_YWALK_KEY(w, "gateway", parse_addr(w, v, v6, false,
							   &a->gateway));
		a->has_gateway = true;
	}
	if (rc != 0)
		return rc;
	if (g->count > 1 && a->step > (top - a->addr) / (g->count - 1)) {
		v = wr_ynode_get(n, "step") ? wr_ynode_get(n, "step") :
		    wr_ynode_get(n, "addr");
		return WR_YWALK_KEY(w, wr_ynode_get(n, "step") ? "step" : "addr",
			wr_ywalk_fail(w, v, "%u hosts from this address, %s "
				"apart, run past the last %s address", g->count,
				wr_ynode_get(n, "step") ? "step" : "1",
				v6 ? "IPv6" : "IPv4"));
	}
	/* One address on several links is fine (a subscriber a VLAN), on
	 * one link it is no host's own. */
	if (g->count > 1 && a->step == 0 && g->vlan_step[0] == 0 &&
	    g->vlan_step[1] == 0)
		return WR_YWALK_KEY(w, "step", wr_ywalk_fail(w,
			wr_ynode_get(n, "step"), "step 0 gives all %u hosts one "
			"address on one link: a step, or a VLAN step", g->count));
	if (!v6 && a->has_gateway && a->prefix < 32 &&
	    (a->gateway ^ a->addr) >> (32 - a->prefix) != 0)
		return WR_YWALK_KEY(w, "gateway", wr_ywalk_fail(w,
			wr_ynode_get(n, "gateway"), "expected a gateway on the "
			"hosts' link, in addr's /%u", a->prefix));
	return 0;
}

/* ipv4: / ipv6:  static {addr, ...}, or dhcp, {dhcp: X}, slaac, {slaac: X}. */
static int
parse_family(struct wr_ywalk *w, const struct wr_ynode *n, bool v6,
	     struct wr_host_group *g)
{
	struct wr_host_addr_spec *a = v6 ? &g->v6 : &g->v4;
	const char *dhcp_mod = v6 ? "dhcp6" : "dhcp4";
	const struct wr_ynode *body = n;
	const char *t = NULL;

	if (n->type == WR_YNODE_SCALAR) {
		t = wr_ynode_text(n);
	} else if (n->type == WR_YNODE_MAP && wr_ynode_size(n) == 1 &&
		   n->kids[0]->type == WR_YNODE_SCALAR &&
		   (strcmp(n->kids[0]->str, "dhcp") == 0 ||
		    (v6 && strcmp(n->kids[0]->str, "slaac") == 0))) {
		t = n->kids[0]->str;
		body = n->kids[1];
	} else if (n->type == WR_YNODE_MAP) {
		return parse_static(w, n, v6, g, a);
	}
	if (t != NULL && strcmp(t, "dhcp") == 0) {
		a->mode = WR_HOST_ADDR_DHCP;
		return module_parse(w, body, body == n ? "dhcp" : "dhcp", dhcp_mod,
				    g);
	}
	if (t != NULL && v6 && strcmp(t, "slaac") == 0) {
		a->mode = WR_HOST_ADDR_SLAAC;
		return module_parse(w, body, "slaac", "slaac", g);
	}
	return wr_ywalk_expected(w, n, v6 ? "slaac, dhcp, or a mapping {addr, "
				 "step, prefix, gateway}" : "dhcp, or a mapping "
				 "{addr, step, prefix, gateway}");
}

static int
parse_tag(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_host_group *g,
	  uint8_t i)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	if (n->type != WR_YNODE_MAP) {
		rc = wr_ywalk_u64(w, n, 1, VLAN_MAX, &u);
		g->vlan[i] = (uint16_t)u;
		return rc;
	}
	rc = wr_ywalk_keys(w, n, "a VLAN ID, or a mapping {id, tpid, pcp, step}",
			   vlan_keys);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "id");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "id");
	rc = WR_YWALK_KEY(w, "id", wr_ywalk_u64(w, v, 1, VLAN_MAX, &u));
	g->vlan[i] = (uint16_t)u;
	if (rc == 0 && (v = wr_ynode_get(n, "tpid")) != NULL) {
		rc = WR_YWALK_KEY(w, "tpid", wr_ywalk_u64(w, v, 0, 0xffff, &u));
		if (rc == 0 && u != WR_ETHERTYPE_VLAN && u != WR_ETHERTYPE_QINQ &&
		    u != WR_ETHERTYPE_QINQ_OLD)
			rc = WR_YWALK_KEY(w, "tpid", wr_ywalk_expected(w, v,
				"a tag's TPID: 0x8100, 0x88a8 or 0x9100"));
		g->tpid[i] = (uint16_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "pcp")) != NULL) {
		rc = WR_YWALK_KEY(w, "pcp", wr_ywalk_u64(w, v, 0, 7, &u));
		g->pcp[i] = (uint8_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "step")) != NULL) {
		rc = WR_YWALK_KEY(w, "step", wr_ywalk_u64(w, v, 0, VLAN_MAX, &u));
		g->vlan_step[i] = (uint16_t)u;
	}
	if (rc == 0 && g->count > 1 && g->vlan_step[i] != 0 &&
	    g->vlan[i] + (uint64_t)(g->count - 1) * g->vlan_step[i] > VLAN_MAX)
		rc = WR_YWALK_KEY(w, "step", wr_ywalk_fail(w, v, "%u hosts from "
			"VLAN %u, %u apart, run past VLAN %u", g->count,
			g->vlan[i], g->vlan_step[i], VLAN_MAX));
	return rc;
}

static int
parse_vlan(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_host_group *g)
{
	uint8_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids > WR_HOST_TAGS_MAX)
		return wr_ywalk_expected(w, n, "a list of 1 or 2 tags, outer "
					 "first: VLAN IDs or {id, tpid, pcp, step}");
	g->n_tags = (uint8_t)n->n_kids;
	for (i = 0; i < g->n_tags && rc == 0; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		/* 802.1ad: the outer of two is an S-tag. */
		g->tpid[i] = g->n_tags == 2 && i == 0 ? WR_ETHERTYPE_QINQ :
			     WR_ETHERTYPE_VLAN;
		rc = parse_tag(w, n->kids[i], g, i);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

static int
parse_bringup(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_host_group *g)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {rate, outstanding}", bringup_keys);
	if (rc == 0 && (v = wr_ynode_get(n, "rate")) != NULL) {
		/* Hosts a second; 0: all at once. */
		rc = WR_YWALK_KEY(w, "rate", wr_ywalk_u64(w, v, 0, 100000000, &u));
		g->bringup_rate = (uint32_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "outstanding")) != NULL) {
		rc = WR_YWALK_KEY(w, "outstanding", wr_ywalk_u64(w, v, 0,
				  WR_HOSTS_PORT_MAX, &u));
		g->outstanding = (uint32_t)u;
	}
	return rc;
}

/* name, port, count, mac, mac_step: what the rest depends on. */
static int
parse_identity(struct wr_ywalk *w, const struct wr_ynode *n,
	       struct wr_host_group *g)
{
	static const char *const required[] = { "name", "port", "count", "mac",
						NULL };
	const struct wr_ynode *v;
	uint64_t u, last;
	int i, rc = 0;

	for (i = 0; required[i] != NULL; i++)
		if (wr_ynode_get(n, required[i]) == NULL)
			return wr_ywalk_missing(w, n, required[i]);
	rc = WR_YWALK_KEY(w, "name", wr_yaml_name(w, wr_ynode_get(n, "name"),
						      g->name, sizeof(g->name)));
	if (rc == 0) {
		rc = WR_YWALK_KEY(w, "port", wr_ywalk_u64(w, wr_ynode_get(n, "port"),
							  0, UINT16_MAX, &u));
		g->port = (uint16_t)u;
	}
	if (rc == 0) {
		rc = WR_YWALK_KEY(w, "count", wr_ywalk_u64(w, wr_ynode_get(n, "count"),
			1, WR_HOSTS_PORT_MAX, &u));
		g->count = (uint32_t)u;
	}
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "mac", parse_mac(w, wr_ynode_get(n, "mac"),
						      &g->mac));
	g->mac_step = 1;
	if (rc == 0 && (v = wr_ynode_get(n, "mac_step")) != NULL)
		rc = WR_YWALK_KEY(w, "mac_step", wr_ywalk_u64(w, v, 1, MAC_MAX,
							      &g->mac_step));
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "mac");
	if (g->mac_step > (MAC_MAX - g->mac) / (g->count > 1 ? g->count - 1 : 1))
		return WR_YWALK_KEY(w, "mac", wr_ywalk_fail(w, v, "%u MACs from "
				    "this one run past ff:ff:ff:ff:ff:ff",
				    g->count));
	last = g->mac + (uint64_t)(g->count - 1) * g->mac_step;
	/* The group bit is the first byte's lowest (IEEE 802): a host's
	 * MAC is unicast, and one first byte for the whole range keeps it so. */
	if ((g->mac >> 40) & 1 || (g->mac >> 40) != (last >> 40))
		return WR_YWALK_KEY(w, "mac", wr_ywalk_fail(w, v, "expected "
				    "unicast MACs with one first byte for all "
				    "%u hosts (its lowest bit clear)", g->count));
	return 0;
}

static int
parse_modules(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_host_group *g)
{
	size_t i;
	int j, rc = 0;

	for (i = 0; i + 1 < n->n_kids && rc == 0; i += 2) {
		const char *key = n->kids[i]->str;

		for (j = 0; j < GROUP_KEYS; j++)
			if (strcmp(base_keys[j], key) == 0)
				break;
		if (j == GROUP_KEYS)
			rc = module_parse(w, n->kids[i + 1], key, key, g);
	}
	return rc;
}

static int
parse_group(struct wr_ywalk *w, const struct wr_ynode *n,
	    struct wr_host_group *g)
{
	const char *keys[GROUP_KEYS + WR_HOST_PROTO__COUNT + 1];
	const struct wr_ynode *v;
	int i, k = 0, rc;

	for (i = 0; i < GROUP_KEYS; i++)
		keys[k++] = base_keys[i];
	for (i = 0; i < WR_HOST_PROTO__COUNT; i++)
		if (!is_addr_module(wr_host_protos[i]->name))
			keys[k++] = wr_host_protos[i]->name;
	keys[k] = NULL;
	g->where.line = n->line;
	g->where.col = n->col;
	rc = wr_ywalk_keys(w, n, "a host group {name, port, count, mac, ...}",
			   keys);
	if (rc == 0)
		rc = parse_identity(w, n, g);
	if (rc == 0 && (v = wr_ynode_get(n, "vlan")) != NULL)
		rc = WR_YWALK_KEY(w, "vlan", parse_vlan(w, v, g));
	if (rc == 0 && (v = wr_ynode_get(n, "ipv4")) != NULL)
		rc = WR_YWALK_KEY(w, "ipv4", parse_family(w, v, false, g));
	if (rc == 0 && (v = wr_ynode_get(n, "ipv6")) != NULL)
		rc = WR_YWALK_KEY(w, "ipv6", parse_family(w, v, true, g));
	if (rc == 0 && (v = wr_ynode_get(n, "bringup")) != NULL)
		rc = WR_YWALK_KEY(w, "bringup", parse_bringup(w, v, g));
	if (rc == 0)
		rc = parse_modules(w, n, g);
	return rc;
}

/* ---- Across groups ---- */

static __int128
floordiv(__int128 a, __int128 b)
{
	__int128 q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Extended Euclid: g = gcd(a, b) = a * x + b * y. */
static __int128
egcd(__int128 a, __int128 b, __int128 *x, __int128 *y)
{
	__int128 x1, y1, g;

	if (b == 0) {
		*x = 1;
		*y = 0;
		return a;
	}
	g = egcd(b, a % b, &x1, &y1);
	*x = y1;
	*y = x1 - (a / b) * y1;
	return g;
}

/* Whether a1 + i*s1 (0 <= i < c1) and a2 + j*s2 (0 <= j < c2) share a
 * value: i*s1 - j*s2 = a2 - a1 solved over the integers (t free), then t
 * bounded by both ranges.  Exact for any steps: interleaved groups (even
 * and odd MACs) do not overlap. */
bool
wr_yaml_progressions_meet(uint64_t a1, uint64_t s1, uint32_t c1, uint64_t a2,
		  uint64_t s2, uint32_t c2)
{
	__int128 d = (__int128)a2 - (__int128)a1, x, y, g, i0, j0, u, v;
	__int128 lo, hi, l2, h2;

	g = egcd(s1, s2, &x, &y);
	if (d % g != 0)
		return false;
	i0 = x * (d / g);
	j0 = -y * (d / g);
	u = s2 / g;                     /* i = i0 + t u, j = j0 + t v */
	v = s1 / g;
	lo = -floordiv(i0, u);          /* ceil(-i0 / u) */
	hi = floordiv(c1 - 1 - i0, u);
	l2 = -floordiv(j0, v);
	h2 = floordiv(c2 - 1 - j0, v);
	if (l2 > lo)
		lo = l2;
	if (h2 < hi)
		hi = h2;
	return lo <= hi;
}

static int
check_groups(struct wr_ywalk *w, const struct wr_ynode *list,
	     const struct wr_host_specs *s, uint32_t i)
{
	const struct wr_host_group *g = &s->groups[i];
	uint64_t per_port = 0;
	uint32_t j;
	int rc = 0;

	for (j = 0; j <= i; j++)
		if (s->groups[j].port == g->port)
			per_port += s->groups[j].count;
	for (j = 0; j < i && rc == 0; j++) {
		const struct wr_host_group *o = &s->groups[j];

		if (strcmp(o->name, g->name) == 0)
			rc = WR_YWALK_KEY(w, "name", wr_ywalk_fail(w,
				wr_ynode_get(list->kids[i], "name"), "duplicate "
				"host group name \"%s\" (first at line %u)",
				g->name, o->where.line));
		else if (wr_yaml_progressions_meet(o->mac, o->mac_step, o->count, g->mac,
					   g->mac_step, g->count))
			rc = WR_YWALK_KEY(w, "mac", wr_ywalk_fail(w,
				wr_ynode_get(list->kids[i], "mac"), "MACs shared "
				"with hosts \"%s\" (line %u): each host has a MAC "
				"of its own", o->name, o->where.line));
	}
	if (rc == 0 && per_port > WR_HOSTS_PORT_MAX)
		rc = WR_YWALK_KEY(w, "count", wr_ywalk_fail(w,
			wr_ynode_get(list->kids[i], "count"), "port %u has %llu "
			"hosts with these: at most %u a port", g->port,
			(unsigned long long)per_port, WR_HOSTS_PORT_MAX));
	return rc;
}

int
wr_yaml_hosts(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_host_specs *out)
{
	uint32_t i;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0)
		return wr_ywalk_expected(w, n, "a list of host groups");
	if (n->n_kids > WR_HOST_GROUPS_MAX)
		return wr_ywalk_fail(w, n, "expected at most %u host groups, got "
				     "%zu", WR_HOST_GROUPS_MAX, n->n_kids);
	out->groups = calloc(n->n_kids, sizeof(*out->groups));
	if (out->groups == NULL)
		return -ENOMEM;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		size_t old = wr_ywalk_push_index(w, i);

		/* Counted first: a half-parsed group's configs are freed. */
		out->n = i + 1;
		rc = parse_group(w, n->kids[i], &out->groups[i]);
		if (rc == 0)
			rc = check_groups(w, n, out, i);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

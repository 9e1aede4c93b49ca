/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml_stack: a stream's headers, the `stack:` layers or the shorthand keys, read through the protocol registry. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame.h"
#include "wr_proto.h"
#include "wr_stream.h"
#include "wr_stream_hosts.h"
#include "wr_vary.h"
#include "wr_yaml_priv.h"
#include "wr_ytree.h"

static const char *const eth_keys[] = { "src", "dst", NULL };
static const char *const vlan_keys[] = { "id", "pcp", NULL };
static const char *const ipv4_keys[] = {
	"src", "dst", "ttl", "dscp", "ecn", "id", "df", "gateway", NULL
};
static const char *const udp_keys[] = { "src", "dst", NULL };

/*
 * Field @p j of layer @p l at node @p v: a value or vary mapping in the
 * module's syntax and width.  The first layer's eth.dst may instead be
 * arp (or nd): the run resolves it; its src or dst may be port: the port's
 * MAC (the words cannot be MACs, so they take no MAC away).
 */
static int
layer_field(struct wr_ywalk *w, const struct wr_ynode *v, struct wr_layer *l,
	    unsigned int j, bool first, struct wr_stream *s)
{
	const struct wr_proto_field *pf = &l->proto->fields[j];
	int rc;

	if (first && pf->role == WR_ROLE_LINK_DST && v->type == WR_YNODE_SCALAR &&
	    (strcmp(wr_ynode_text(v), "arp") == 0 ||
	     strcmp(wr_ynode_text(v), "nd") == 0)) {
		s->dst_arp = true;
		s->dst_nd = strcmp(wr_ynode_text(v), "nd") == 0;
		return 0;
	}
	/* port: the MAC of the stream's port, when a run starts
	 * (doc/trex.md); wirerate's default until then. */
	if (first && (pf->role == WR_ROLE_LINK_DST || pf->role == WR_ROLE_LINK_SRC) &&
	    v->type == WR_YNODE_SCALAR && strcmp(wr_ynode_text(v), "port") == 0) {
		s->mac_port |= pf->role == WR_ROLE_LINK_DST ? WR_MAC_PORT_DST :
							       WR_MAC_PORT_SRC;
		return 0;
	}
	/* hosts.NAME: the hosts' addresses, checked and filled once the
	 * file's hosts are read (wr_stream_hosts.h). */
	if (wr_yaml_is_host_ref(v))
		return wr_yaml_host_ref(w, v, s, (uint32_t)(l - s->layers), j);
	rc = WR_YWALK_KEY(w, pf->name, wr_vary_parse(w, v, pf->kind, pf->bits,
						     &l->field[j]));
	l->set[j] = true;
	return rc;
}

/* The keys @p keys of shorthand mapping @p n into the first layer of
 * protocol @p proto (wr_stream_shorthand made it). */
static int
shorthand_fields(struct wr_ywalk *w, const struct wr_ynode *n,
		 const char *proto, const char *const *keys,
		 struct wr_stream *s)
{
	const struct wr_ynode *v;
	struct wr_layer *l = NULL;
	uint32_t i;
	int rc = 0, j;

	for (i = 0; i < s->n_layers; i++)
		if (strcmp(s->layers[i].proto->name, proto) == 0) {
			l = &s->layers[i];
			break;
		}
	for (i = 0; keys[i] != NULL && rc == 0; i++) {
		v = wr_ynode_get(n, keys[i]);
		j = wr_proto_field_find(l->proto, keys[i]);
		if (v != NULL && j >= 0)
			rc = layer_field(w, v, l, (unsigned int)j, l == s->layers, s);
	}
	return rc;
}

static int
parse_eth(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	int rc = wr_ywalk_keys(w, n, "a mapping {src, dst}", eth_keys);

	return rc ? rc : shorthand_fields(w, n, "eth", eth_keys, s);
}

static int
parse_vlan(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	int rc = wr_ywalk_keys(w, n, "a mapping {id, pcp}", vlan_keys);

	if (rc != 0)
		return rc;
	/* An 802.1Q tag's VID is the point of writing `vlan:`: no default. */
	if (wr_ynode_get(n, "id") == NULL)
		return wr_ywalk_missing(w, n, "id");
	return shorthand_fields(w, n, "vlan", vlan_keys, s);
}

/* ipv4.gateway (or a stack's gateway:): a unicast next hop, meaningful
 * only with eth.dst: arp or nd (read before it). */
static int
parse_gateway(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_stream *s)
{
	char why[WR_PARSE_WHY_MAX];
	uint32_t ip;

	if (!s->dst_arp)
		return wr_ywalk_fail(w, n, "a gateway is the next hop eth: {dst: arp} "
				     "or {dst: nd} resolves; give one or leave the "
				     "gateway out");
	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_ipv4(wr_ynode_text(n), &ip, why, sizeof(why)) != 0)
		return wr_ywalk_expected(w, n, "the router's IPv4 address, "
					 "such as 192.0.2.254");
	/* 0.0.0.0, 127/8, multicast and broadcast answer no ARP. */
	if (ip == 0 || ip >> 24 == 127 || ip >> 28 >= 0xe)
		return wr_ywalk_expected(w, n, "a unicast IPv4 address "
					 "(not 0.0.0.0, 127/8, multicast or "
					 "broadcast)");
	s->gateway = ip;
	return 0;
}

static int
parse_ipv4(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	static const char *const varying[] = { "src", "dst", "ttl", "dscp", "id", NULL };
	struct wr_field_spec *fs;
	const struct wr_ynode *v;
	uint64_t ecn;
	bool df;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {src, dst, ttl, dscp, ecn, id, df}",
			   ipv4_keys);
	if (rc == 0)
		rc = shorthand_fields(w, n, "ipv4", varying, s);
	if (rc != 0)
		return rc;
	/* The shorthand writes ECN as a number and DF as a boolean, both
	 * fixed per stream (a stack's ipv4 layer may vary them). */
	v = wr_ynode_get(n, "ecn");
	if (v != NULL) {
		if (v->type != WR_YNODE_SCALAR)
			return WR_YWALK_KEY(w, "ecn", wr_ywalk_expected(w, v,
					"an integer in 0..3 (ecn is fixed per stream)"));
		rc = WR_YWALK_KEY(w, "ecn", wr_ywalk_u64(w, v, 0, 3, &ecn));
		if (rc != 0)
			return rc;
		fs = wr_stream_field(s, "ipv4.ecn");
		wr_field_fixed(fs, ecn);
	}
	v = wr_ynode_get(n, "df");
	if (v != NULL) {
		if (v->type != WR_YNODE_SCALAR)
			return WR_YWALK_KEY(w, "df", wr_ywalk_expected(w, v,
					"true or false (df is fixed per stream)"));
		rc = WR_YWALK_KEY(w, "df", wr_ywalk_bool(w, v, &df));
		if (rc == 0)
			wr_field_fixed(wr_stream_field(s, "ipv4.df"), df);
	}
	v = wr_ynode_get(n, "gateway");
	if (rc == 0 && v != NULL)
		rc = WR_YWALK_KEY(w, "gateway", parse_gateway(w, v, s));
	return rc;
}

static int
parse_udp(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	int rc = wr_ywalk_keys(w, n, "a mapping {src, dst}", udp_keys);

	return rc ? rc : shorthand_fields(w, n, "udp", udp_keys, s);
}

/* One option item: a mapping of the descriptor's values and data, or
 * (bare) its first value alone. */
static int
parse_opt(struct wr_ywalk *w, const struct wr_ynode *n,
	  const struct wr_proto_opts *d, struct wr_opt *o)
{
	const char *keys[WR_OPT_FIELDS_MAX + 2];
	char what[160], why[WR_PARSE_WHY_MAX];
	const struct wr_ynode *v;
	struct wr_field_spec fs;
	unsigned int j;
	size_t len = 0;
	int rc = 0;

	for (j = 0; j < d->n_fields; j++)
		o->v[j] = (__uint128_t)d->fields[j].def_hi << 64 | d->fields[j].def;
	if (d->bare && n->type == WR_YNODE_SCALAR) {
		memset(&fs, 0, sizeof(fs));
		rc = wr_vary_parse(w, n, d->fields[0].kind, d->fields[0].bits, &fs);
		o->v[0] = fs.value;
		o->set[0] = rc == 0;
		return rc;
	}
	for (j = 0; j < d->n_fields; j++)
		keys[j] = d->fields[j].name;
	if (d->data_max != 0)
		keys[j++] = "data";
	keys[j] = NULL;
	snprintf(what, sizeof(what), "a mapping of %s%s", d->fields[0].name,
		 d->n_fields > 1 ? ", ..." : "");
	rc = wr_ywalk_keys(w, n, what, keys);
	for (j = 0; rc == 0 && j < d->n_fields; j++) {
		if ((v = wr_ynode_get(n, d->fields[j].name)) == NULL)
			continue;
		/* A value, not a variation: options are bytes of the template. */
		if (v->type != WR_YNODE_SCALAR)
			return WR_YWALK_KEY(w, d->fields[j].name, wr_ywalk_expected(w, v,
					    "a value (an option does not vary)"));
		memset(&fs, 0, sizeof(fs));
		rc = WR_YWALK_KEY(w, d->fields[j].name, wr_vary_parse(w, v,
				  d->fields[j].kind, d->fields[j].bits, &fs));
		o->v[j] = fs.value;
		o->set[j] = true;
	}
	if (rc == 0 && d->data_max != 0 && (v = wr_ynode_get(n, "data")) != NULL) {
		o->data = malloc(d->data_max);
		if (o->data == NULL)
			return -ENOMEM;
		snprintf(what, sizeof(what), "up to %u bytes in hex, such as \"0001\"",
			 d->data_max);
		if (v->type != WR_YNODE_SCALAR ||
		    wr_parse_hex(wr_ynode_text(v), o->data, d->data_max, &len, why,
				 sizeof(why)) != 0)
			return WR_YWALK_KEY(w, "data", wr_ywalk_expected(w, v, what));
		o->data_len = (uint16_t)len;
	}
	return rc;
}

/* A layer's option list (wr_proto_opts): [item, ...]. */
static int
parse_opts(struct wr_ywalk *w, const struct wr_ynode *n,
	   const struct wr_proto_opts *d, struct wr_layer *l)
{
	char what[160];
	size_t i, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 || n->n_kids > d->max) {
		snprintf(what, sizeof(what), "a list of 1 to %u items: %s", d->max,
			 d->doc);
		return wr_ywalk_expected(w, n, what);
	}
	l->opts = calloc(n->n_kids, sizeof(*l->opts));
	if (l->opts == NULL)
		return -ENOMEM;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		/* Counted even when it failed half-way: freed with the rest. */
		l->n_opts = (uint16_t)(i + 1);
		rc = parse_opt(w, n->kids[i], d, &l->opts[i]);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

/* One layer of a `stack:` item: {proto: {field: value, ...}} or "proto". */
static int
parse_layer(struct wr_ywalk *w, const struct wr_ynode *item, struct wr_layer *l,
	    size_t index, struct wr_stream *s)
{
	const char *keys[WR_PROTO_FIELDS_MAX + 3];
	const struct wr_ynode *body = NULL, *v;
	const struct wr_proto *p;
	char what[256], why[WR_PARSE_WHY_MAX];
	unsigned int j;
	size_t old;
	int rc;

	snprintf(what, sizeof(what), "a layer, one of: %s", wr_proto_names());
	if (item->type == WR_YNODE_SCALAR) {
		p = wr_proto_find(wr_ynode_text(item));
	} else if (item->type == WR_YNODE_MAP && wr_ynode_size(item) == 1 &&
		   item->kids[0]->type == WR_YNODE_SCALAR) {
		p = wr_proto_find(item->kids[0]->str);
		body = item->kids[1];
		if (p == NULL) {
			old = wr_ywalk_push_key(w, item->kids[0]->str);
			rc = wr_ywalk_expected(w, item->kids[0], what);
			wr_ywalk_pop(w, old);
			return rc;
		}
	} else {
		return wr_ywalk_expected(w, item, what);
	}
	if (p == NULL)
		return wr_ywalk_expected(w, item, what);
	rc = wr_layer_init(l, p);
	if (rc < 0)
		return rc;
	l->mark.line = item->line;
	l->mark.col = item->col;
	snprintf(l->key, sizeof(l->key), "stack[%zu].%s", index, p->name);
	if (body == NULL || (body->type == WR_YNODE_SCALAR && body->len == 0))
		return p->hlen == 0 ? wr_ywalk_missing(w, item, "hex") : 0;
	for (j = 0; j < p->n_fields; j++)
		keys[j] = p->fields[j].name;
	if (p->hlen == 0)
		keys[j++] = "hex";
	if (p->opts != NULL)
		keys[j++] = p->opts->key;
	keys[j] = NULL;
	old = wr_ywalk_push_key(w, p->name);
	snprintf(what, sizeof(what), "a mapping of %s fields", p->name);
	rc = wr_ywalk_keys(w, body, what, keys);
	for (j = 0; rc == 0 && j < p->n_fields; j++) {
		v = wr_ynode_get(body, p->fields[j].name);
		if (v != NULL)
			rc = layer_field(w, v, l, j, index == 0, s);
	}
	if (rc == 0 && p->opts != NULL && (v = wr_ynode_get(body, p->opts->key)) != NULL)
		rc = WR_YWALK_KEY(w, p->opts->key, parse_opts(w, v, p->opts, l));
	if (rc == 0 && p->hlen == 0) {
		size_t n = 0;

		v = wr_ynode_get(body, "hex");
		if (v == NULL) {
			rc = wr_ywalk_missing(w, body, "hex");
		} else {
			l->raw = malloc(WR_RAW_MAX);
			if (l->raw == NULL)
				rc = -ENOMEM;
			else if (wr_parse_hex(wr_ynode_text(v), l->raw, WR_RAW_MAX,
					      &n, why, sizeof(why)) != 0 || n == 0)
				rc = WR_YWALK_KEY(w, "hex", wr_ywalk_expected(w, v,
					"1 to 256 header bytes in hex, such as \"0a0b0c0d\""));
			l->raw_len = (uint16_t)n;
		}
	}
	wr_ywalk_pop(w, old);
	return rc;
}

/* A stack's gateway: the router its eth: {dst: arp|nd} resolves. */
static int
stack_gateway(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	char why[WR_PARSE_WHY_MAX];
	__uint128_t a;

	if (!s->dst_arp || !s->dst_nd)
		return parse_gateway(w, n, s);
	/* ::, ::1 and multicast (ff00::/8) answer no solicitation. */
	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_ipv6(wr_ynode_text(n), &a, why, sizeof(why)) != 0 ||
	    a <= 1 || a >> 120 == 0xff)
		return wr_ywalk_expected(w, n, "the router's unicast IPv6 address, "
					 "such as fe80::1 or 2001:db8::1");
	s->gateway6 = a;
	return 0;
}

/* stack: [layer, ...]: the whole frame, outermost layer first. */
static int
parse_stack(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	size_t i, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 || n->n_kids > WR_LAYERS_MAX) {
		char what[96];

		snprintf(what, sizeof(what), "a list of 1 to %u layers, "
			 "outermost first: [eth: {...}, ipv4: {...}, ...]",
			 WR_LAYERS_MAX);
		return wr_ywalk_expected(w, n, what);
	}
	s->layers = calloc(n->n_kids, sizeof(*s->layers));
	if (s->layers == NULL)
		return -ENOMEM;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		rc = parse_layer(w, n->kids[i], &s->layers[i], i, s);
		wr_ywalk_pop(w, old);
		/* Counted even when it failed half-way: freed with the rest. */
		s->n_layers = (uint32_t)i + 1;
	}
	return rc;
}


/*
 * eth: {dst: arp|nd} resolves one next hop: the gateway, else the dst of
 * the first IPv4 (arp) or IPv6 (nd) layer, which must then be fixed.  The
 * question goes out from that layer's src and with the stream's tags as
 * packet 0 has them.
 */
int
wr_yaml_check_resolve(struct wr_ywalk *w, const struct wr_ynode *n,
		      const struct wr_stream *s)
{
	const char *ip = s->dst_nd ? "IPv6" : "IPv4", *word = s->dst_nd ? "nd" : "arp";
	const struct wr_ynode *stack = wr_ynode_get(n, "stack"), *at;
	const struct wr_field_spec *dst;
	size_t old;
	int rc;

	dst = wr_stream_addr(s, s->dst_nd ? WR_VAL_IPV6 : WR_VAL_IPV4,
			     WR_ROLE_DST_ADDR);
	if (dst != NULL && (dst->mode == WR_VARY_FIXED || s->gateway != 0 ||
			    s->gateway6 != 0))
		return 0;
	/* At eth.dst: the shorthand's value, a stack's first item. */
	at = stack != NULL ? stack->kids[0] :
	     wr_ynode_get(wr_ynode_get(n, "eth"), "dst");
	old = wr_ywalk_push_key(w, s->layers[0].key);
	rc = WR_YWALK_KEY(w, "dst", dst == NULL ?
		wr_ywalk_fail(w, at, "dst: %s needs an %s layer: its destination "
			      "(or a gateway) is the next hop", word, ip) :
		wr_ywalk_fail(w, at, "dst: %s resolves one next hop, and the %s "
			      "destination varies: give a gateway (the router) or "
			      "a fixed destination", word, ip));
	wr_ywalk_pop(w, old);
	return rc;
}

/*
 * What the frame compiler says about a stack (a layer that cannot carry
 * the next, a VXLAN without an inner frame, a field that may not vary),
 * as a loader error: this file, the layer's line, the path under the stream.
 */
int
wr_yaml_check_stack(struct wr_ywalk *w, struct wr_stream *s)
{
	struct wr_frame_tmpl *t = NULL;
	struct wr_error e;
	char path[WR_ERROR_PATH_MAX];
	size_t n;
	int rc;

	wr_error_clear(&e);
	rc = wr_frame_tmpl_create(s, 0, &t, &e);
	wr_frame_tmpl_free(t);
	if (rc != -EINVAL)
		return rc;
	/* Truncated only past WR_ERROR_PATH_MAX, as any path is.  By
	 * lengths, not strncat: its bound is what fortified builds warn on
	 * (-Wstringop-truncation), and the cut here is meant. */
	n = (size_t)snprintf(path, sizeof(path), "%.*s", (int)w->plen,
			     w->path);
	if (n < sizeof(path) - 1) {
		size_t k = strnlen(e.path, sizeof(e.path));

		path[n++] = '.';
		if (k > sizeof(path) - 1 - n)
			k = sizeof(path) - 1 - n;
		memcpy(path + n, e.path, k);
		path[n + k] = '\0';
	}
	return wr_error_set(w->err, -EINVAL, w->file, e.line, e.col, path, "%s",
			    e.msg);
}

/*
 * The frame's headers: `stack:`, or the shorthand keys eth, vlan, ipv4 and
 * udp (any of them, or none), which stand for the stack eth / [vlan] /
 * ipv4 / udp.  A replayed stream (pcap:, frame:) has neither.
 */
int
wr_yaml_headers(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	static const char *const shorthand[] = { "eth", "vlan", "ipv4", "udp" };
	const struct wr_ynode *stack = wr_ynode_get(n, "stack"), *v;
	unsigned int i;
	int rc;

	for (i = 0; i < 4 && stack != NULL; i++)
		if ((v = wr_ynode_get(n, shorthand[i])) != NULL)
			return WR_YWALK_KEY(w, shorthand[i], wr_ywalk_fail(w, v,
				"a stream with stack: gives every layer there; "
				"move %s into the stack or drop stack:", shorthand[i]));
	if (stack != NULL) {
		rc = WR_YWALK_KEY(w, "stack", parse_stack(w, stack, s));
		if (rc == 0 && (v = wr_ynode_get(n, "gateway")) != NULL)
			rc = WR_YWALK_KEY(w, "gateway", stack_gateway(w, v, s));
		return rc;
	}
	if ((v = wr_ynode_get(n, "gateway")) != NULL)
		return WR_YWALK_KEY(w, "gateway", wr_ywalk_fail(w, v,
			"gateway: goes with stack:; the shorthand writes "
			"ipv4: {gateway: ...}"));
	if (wr_ynode_get(n, "pcap") != NULL || wr_ynode_get(n, "frame") != NULL)
		return 0;
	rc = wr_stream_shorthand(s, wr_ynode_get(n, "vlan") != NULL);
	if (rc == 0 && (v = wr_ynode_get(n, "eth")) != NULL)
		rc = WR_YWALK_KEY(w, "eth", parse_eth(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "vlan")) != NULL)
		rc = WR_YWALK_KEY(w, "vlan", parse_vlan(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "ipv4")) != NULL)
		rc = WR_YWALK_KEY(w, "ipv4", parse_ipv4(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "udp")) != NULL)
		rc = WR_YWALK_KEY(w, "udp", parse_udp(w, v, s));
	return rc;
}

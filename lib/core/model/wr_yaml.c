/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml: the stream-file loader, YAML tree to a validated struct wr_stream_file. */

/*
 * Every key of a stream file (version 1).  Anything else is an error.
 *
 * Top level
 *   version: 1        required; the only version this loader reads.
 *   seed: <u64>       optional, default 1; the seed of every stream that
 *                     does not set its own.
 *   loops: <u64>      passes through a sequence whose streams end with
 *                     `next: first` (0 = for ever, the default, as
 *                     Ostinato's "goto first"); an error when no stream
 *                     says `next:`.
 *   streams: [...]    required, 1..256 (WR_STREAMS_MAX) stream mappings.
 *                     A stream's index is its position in this list.
 *
 * Stream
 *   name: <text>      required; 1..63 characters of [A-Za-z0-9_.-], unique
 *                     in the file (it names the stream in reports).
 *   port: <int>       0..31 (WR_PORTS_MAX - 1), default 0: index into the
 *                     profile's ports.
 *   size: ...         frame size with FCS; default the smallest frame that
 *                     holds headers, signature and string, 64 at least:
 *                       <int> 64..9018        fixed
 *                       imix                  simple IMIX 64:7, 594:4, 1518:1
 *                       {inc: {from, to, step}}   step default 1
 *                       {random: {min, max}}
 *                       {mix: [{size, weight}, ...]}  1..1024 entries,
 *                                             weights >= 1, sum <= 1000000
 *   count: <u64>|unlimited   frames to send, default unlimited (0 also
 *                     means unlimited).
 *   rate: ...         default max; "250 kpps", "1.2 Mpps", "10 Gbps L1",
 *                     "800 Mbps L2", "50%" (wr_parse_rate()).
 *   seed: <u64>       optional, overrides the file's seed for this stream.
 *   latency: <bool>|loss   default false; true carries a wr_sig after UDP
 *                     (loss, reorder, latency): 24 bytes, or the 18-byte
 *                     compact one where 24 do not fit (64-byte frames);
 *                     loss the 16-byte loss-only one.
 *   vary: together|product   how varying fields combine, default together
 *                     (enum wr_combine).
 *   eth:  {src, dst}  MACs, default 02:00:00:00:00:01 -> 02:00:00:00:00:02
 *                     (locally administered: they cannot clash with a
 *                     vendor's address).  dst: arp resolves the next hop's
 *                     MAC by ARP when the run starts (doc/arp.md): the next
 *                     hop is ipv4.gateway when given, else ipv4.dst, which
 *                     must then be fixed; a `wirerate check` or `dump`
 *                     shows the default dst in its place.
 *   vlan: {id, pcp}   optional; its presence adds an 802.1Q tag.  id
 *                     required 0..4095, pcp 0..7 default 0.
 *   ipv4: {src, dst, ttl, dscp, ecn, id, df}
 *                     src/dst default 198.18.0.1 -> 198.19.0.1 (RFC 2544
 *                     appendix C.2.2: 198.18.0.0/15 is for benchmarking),
 *                     ttl 0..255 default 64, dscp 0..63 default 0, id
 *                     0..65535 default 0, ecn 0..3 default 0 (fixed only),
 *                     df true|false default true (fixed only).
 *                     gateway: a dotted quad, only with eth: {dst: arp}:
 *                     the router whose MAC eth.dst resolves to (ipv4.dst
 *                     may then vary: every frame goes through the router).
 *   udp:  {src, dst}  ports 0..65535, default 1024 -> 1024.
 *   payload: zeros | inc | {pattern: "<hex>"} | {string: "<text>"}
 *                     default zeros; a pattern repeats, a string is
 *                     followed by zeros and must fit the smallest frame.
 *
 * Schedules (wr_sched.h; all optional)
 *   duration: <dur>   "5s", "500ms", ...: an activation of the stream ends
 *                     after this long, or after `count` frames, whichever
 *                     comes first.
 *   burst: <int>      1..512 (WR_BURST_MAX): frames per TX burst for this
 *                     stream, instead of the profile's `burst`; 1 spaces
 *                     every frame on its own.
 *   bursts: {frames: N, gap: <dur>}
 *                     trains of N (1..1000000) frames at the stream's rate
 *                     (back to back with rate max), gap > 0 from a train's
 *                     last frame to the next train's first.
 *   next: next|first|stop
 *                     what follows the stream in its port's sequence
 *                     (wr_order).  When any stream of a port says `next:`,
 *                     the streams of that port run one at a time in file
 *                     order instead of together (those without `next:` say
 *                     next), so each of them must end: count, duration or
 *                     a ramp with at_end: stop.
 *   ramp: {shape, from, to, step, step_time, at_end}
 *                     shape staircase (default) | linear; from, to, step
 *                     rates as `rate:` but not max; step_time a duration
 *                     > 0; at_end hold (default) | stop.  Replaces `rate:`
 *                     (giving both is an error) and cannot be combined
 *                     with `bursts:`.
 *
 * Varying header fields (eth.*, vlan.*, ipv4 src/dst/ttl/dscp/id, udp.*,
 * every field of a stack layer): instead of a scalar, a vary mapping in
 * the grammar of wr_vary.h (inc, dec, random, list), read by
 * wr_vary_parse().
 *
 * Across keys: the smallest frame must hold the stack's headers (eth 14 +
 * vlan 4 + ipv4 20 + udp 8 for the shorthand) (+ signature 24 with latency)
 * + a string payload + FCS 4; else the error is at `size`, saying what is
 * needed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "wr_config.h"
#include "wr_fe.h"
#include "wr_frame.h"
#include "wr_parse.h"
#include "wr_proto.h"
#include "wr_replay_yaml.h"
#include "wr_sig.h"
#include "wr_vary.h"
#include "wr_yaml.h"
#include "wr_ytree.h"

/* The largest payload: a 9018-byte frame less FCS, Ethernet, IPv4, UDP. */
#define PAYLOAD_MAX ((unsigned int)(WR_FRAME_MAX - WR_FCS_LEN - \
	WR_ETH_HLEN - WR_IPV4_HLEN - WR_UDP_HLEN))
/* Entries of a size mix, and the most frames one mix cycle may hold (the
 * frame builder lays out a whole cycle). */
#define MIX_MAX 1024
#define MIX_WEIGHT_SUM_MAX 1000000
#define DEFAULT_SEED 1
#define DEFAULT_SIZE 64
/* A train's frames are owed to the pacer at once (wr_rate.h: its cap is
 * at least a train); a million frames is 67 ms at 14.88 Mpps, longer
 * trains are better written as streams in a sequence. */
#define TRAIN_FRAMES_MAX 1000000


static const char *const top_keys[] = {
	"version", "seed", "loops", "rx_classes", "streams", NULL
};
static const char *const stream_keys[] = {
	"name", "port", "size", "count", "rate", "seed", "latency", "vary",
	"eth", "vlan", "ipv4", "udp", "payload", "duration", "burst", "bursts",
	"next", "ramp", "stack", "gateway", "isg", WR_REPLAY_KEYS, WR_FE_KEYS,
	NULL
};
static const char *const bursts_keys[] = { "frames", "gap", NULL };
static const char *const ramp_keys[] = {
	"shape", "from", "to", "step", "step_time", "at_end", NULL
};
static const char *const next_names[] = {
#define WR_X(e, name) [WR_SCHED_NEXT_##e] = name,
	WR_SCHED_NEXTS(WR_X)
#undef WR_X
	NULL
};
static const char *const shape_names[] = {
#define WR_X(e, name) [WR_RAMP_##e] = name,
	WR_RAMP_SHAPES(WR_X)
#undef WR_X
	NULL
};
static const char *const ramp_end_names[] = {
#define WR_X(e, name) [WR_RAMP_END_##e] = name,
	WR_RAMP_ENDS(WR_X)
#undef WR_X
	NULL
};
static const char *const eth_keys[] = { "src", "dst", NULL };
static const char *const vlan_keys[] = { "id", "pcp", NULL };
static const char *const ipv4_keys[] = {
	"src", "dst", "ttl", "dscp", "ecn", "id", "df", "gateway", NULL
};
static const char *const udp_keys[] = { "src", "dst", NULL };
static const char *const size_inc_keys[] = { "from", "to", "step", NULL };
static const char *const size_random_keys[] = { "min", "max", NULL };
static const char *const size_keys[] = { "inc", "random", "mix", NULL };
static const char *const mix_keys[] = { "size", "weight", NULL };
static const char *const payload_keys[] = { "pattern", "string", NULL };

static const char *const combine_names[] = {
	[WR_COMBINE_TOGETHER] = "together",
	[WR_COMBINE_PRODUCT] = "product",
};

/* Simple IMIX (the 7:4:1 mix of 64, 594 and 1518-byte frames, as Spirent,
 * Ixia and Ostinato define it). */
static const struct wr_size_weight simple_imix[] = {
	{ .size = 64, .weight = 7 },
	{ .size = 594, .weight = 4 },
	{ .size = 1518, .weight = 1 },
};

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
 * What the frame compiler says about a stack (a layer that cannot carry
 * the next, a VXLAN without an inner frame, a field that may not vary),
 * as a loader error: this file, the layer's line, the path under the stream.
 */
/*
 * eth: {dst: arp|nd} resolves one next hop: the gateway, else the dst of
 * the first IPv4 (arp) or IPv6 (nd) layer, which must then be fixed.  The
 * question goes out from that layer's src and with the stream's tags as
 * packet 0 has them.
 */
static int
check_resolve(struct wr_ywalk *w, const struct wr_ynode *n,
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

static int
check_stack(struct wr_ywalk *w, struct wr_stream *s)
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

static int
frame_size(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *out)
{
	return wr_ywalk_u64(w, n, WR_FRAME_MIN, WR_FRAME_MAX, out);
}

static int
size_mix(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_size_spec *sz)
{
	const struct wr_ynode *e, *size, *weight;
	struct wr_size_weight *mix;
	uint64_t v, sum = 0;
	size_t i, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ)
		return wr_ywalk_expected(w, n, "a list [{size, weight}, ...]");
	if (n->n_kids == 0 || n->n_kids > MIX_MAX)
		return wr_ywalk_fail(w, n, "expected a list of 1 to %u "
				     "{size, weight} entries, got %zu", MIX_MAX,
				     n->n_kids);
	mix = calloc(n->n_kids, sizeof(*mix));
	if (mix == NULL)
		return -ENOMEM;
	sz->min = WR_FRAME_MAX;
	sz->max = WR_FRAME_MIN;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		e = n->kids[i];
		old = wr_ywalk_push_index(w, i);
		rc = wr_ywalk_keys(w, e, "a mapping {size, weight}", mix_keys);
		size = wr_ynode_get(e, "size");
		weight = wr_ynode_get(e, "weight");
		if (rc == 0 && size == NULL)
			rc = wr_ywalk_missing(w, e, "size");
		if (rc == 0 && weight == NULL)
			rc = wr_ywalk_missing(w, e, "weight");
		if (rc == 0)
			rc = WR_YWALK_KEY(w, "size", frame_size(w, size, &v));
		if (rc == 0) {
			mix[i].size = (uint16_t)v;
			if (v < sz->min)
				sz->min = (uint16_t)v;
			if (v > sz->max)
				sz->max = (uint16_t)v;
			rc = WR_YWALK_KEY(w, "weight",
				      wr_ywalk_u64(w, weight, 1,
						   MIX_WEIGHT_SUM_MAX, &v));
		}
		if (rc == 0) {
			mix[i].weight = (uint32_t)v;
			sum += v;
			if (sum > MIX_WEIGHT_SUM_MAX)
				rc = WR_YWALK_KEY(w, "weight", wr_ywalk_fail(w, weight,
					"expected weights that sum to at most %u, "
					"got a sum of %" PRIu64 " here",
					MIX_WEIGHT_SUM_MAX, sum));
		}
		wr_ywalk_pop(w, old);
	}
	if (rc != 0) {
		free(mix);
		return rc;
	}
	sz->mode = WR_SIZE_MIX;
	sz->mix = mix;
	sz->n_mix = (uint32_t)n->n_kids;
	return 0;
}

#define SIZE_EXPECT \
	"a frame size in 64..9018 (FCS included), imix, {inc: ...}, " \
	"{random: ...} or {mix: [...]}"

static int
parse_size(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_size_spec *sz)
{
	const struct wr_ynode *body = NULL, *a, *b, *step;
	uint64_t from, to, st = 1;
	char what[64];
	int mode, rc;

	if (n->type == WR_YNODE_SCALAR) {
		if (strcmp(wr_ynode_text(n), "imix") == 0) {
			sz->mix = malloc(sizeof(simple_imix));
			if (sz->mix == NULL)
				return -ENOMEM;
			memcpy(sz->mix, simple_imix, sizeof(simple_imix));
			sz->n_mix = sizeof(simple_imix) / sizeof(simple_imix[0]);
			sz->mode = WR_SIZE_MIX;
			sz->min = 64;
			sz->max = 1518;
			return 0;
		}
		if (wr_parse_u64(wr_ynode_text(n), WR_FRAME_MIN, WR_FRAME_MAX,
				 &from, NULL, 0) != 0)
			return wr_ywalk_expected(w, n, SIZE_EXPECT);
		sz->mode = WR_SIZE_FIXED;
		sz->fixed = sz->min = sz->max = (uint16_t)from;
		return 0;
	}
	mode = wr_ywalk_one_key(w, n, SIZE_EXPECT, size_keys, &body);
	if (mode < 0)
		return mode;
	if (mode == 2)
		return WR_YWALK_KEY(w, "mix", size_mix(w, body, sz));

	/* inc {from, to, step} and random {min, max} share the checks. */
	{
		size_t old = wr_ywalk_push_key(w, size_keys[mode]);
		const char *ka = mode == 0 ? "from" : "min";
		const char *kb = mode == 0 ? "to" : "max";

		rc = wr_ywalk_keys(w, body, mode == 0 ?
				   "a mapping {from, to, step}" :
				   "a mapping {min, max}",
				   mode == 0 ? size_inc_keys : size_random_keys);
		a = wr_ynode_get(body, ka);
		b = wr_ynode_get(body, kb);
		step = mode == 0 ? wr_ynode_get(body, "step") : NULL;
		if (rc == 0 && a == NULL)
			rc = wr_ywalk_missing(w, body, ka);
		if (rc == 0 && b == NULL)
			rc = wr_ywalk_missing(w, body, kb);
		if (rc == 0)
			rc = WR_YWALK_KEY(w, ka, frame_size(w, a, &from));
		if (rc == 0)
			rc = WR_YWALK_KEY(w, kb, frame_size(w, b, &to));
		if (rc == 0 && step != NULL)
			rc = WR_YWALK_KEY(w, "step", wr_ywalk_u64(w, step, 1,
						WR_FRAME_MAX, &st));
		if (rc == 0 && to < from) {
			snprintf(what, sizeof(what), "a size >= %s (%s)", ka,
				 a->str);
			rc = WR_YWALK_KEY(w, kb, wr_ywalk_expected(w, b, what));
		}
		wr_ywalk_pop(w, old);
		if (rc != 0)
			return rc;
	}
	sz->mode = mode == 0 ? WR_SIZE_INC : WR_SIZE_RANDOM;
	sz->from = (uint16_t)from;
	sz->to = (uint16_t)to;
	sz->step = (uint16_t)st;
	sz->min = (uint16_t)from;
	/* inc stops at the last step that does not pass `to`. */
	sz->max = (uint16_t)(mode == 0 ? from + (to - from) / st * st : to);
	return 0;
}

#define PAYLOAD_EXPECT \
	"zeros, inc, {pattern: \"deadbeef\"} or {string: \"text\"}"

static int
parse_payload(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_payload_spec *p)
{
	char why[WR_PARSE_WHY_MAX];
	const struct wr_ynode *body = NULL;
	uint8_t *bytes;
	size_t len;
	int kind, rc;

	if (n->type == WR_YNODE_SCALAR) {
		if (strcmp(wr_ynode_text(n), "zeros") == 0)
			p->kind = WR_PAYLOAD_ZEROS;
		else if (strcmp(wr_ynode_text(n), "inc") == 0)
			p->kind = WR_PAYLOAD_INC;
		else
			return wr_ywalk_expected(w, n, PAYLOAD_EXPECT);
		return 0;
	}
	kind = wr_ywalk_one_key(w, n, PAYLOAD_EXPECT, payload_keys, &body);
	if (kind < 0)
		return kind;
	if (kind == 0) {
		/* Hex is two characters a byte at least: len / 2 bytes. */
		len = body->type == WR_YNODE_SCALAR ? body->len / 2 + 1 : 1;
		bytes = malloc(len);
		if (bytes == NULL)
			return -ENOMEM;
		rc = wr_parse_hex(wr_ynode_text(body), bytes, PAYLOAD_MAX < len ?
				  PAYLOAD_MAX : len, &len, why, sizeof(why));
		if (rc != 0) {
			free(bytes);
			return WR_YWALK_KEY(w, "pattern", wr_ywalk_why(w, body, why));
		}
		p->kind = WR_PAYLOAD_PATTERN;
	} else {
		if (body->type != WR_YNODE_SCALAR || body->len == 0)
			return WR_YWALK_KEY(w, "string", wr_ywalk_expected(w, body,
					"a non-empty string"));
		if (body->len > PAYLOAD_MAX)
			return WR_YWALK_KEY(w, "string", wr_ywalk_fail(w, body,
				"expected a string of at most %u bytes (a %u-byte "
				"frame less Ethernet, IPv4, UDP and FCS), got "
				"%zu bytes", PAYLOAD_MAX, WR_FRAME_MAX,
				body->len));
		len = body->len;
		/* Bytes as written, "\0" escapes included: len, not strlen. */
		bytes = malloc(len);
		if (bytes == NULL)
			return -ENOMEM;
		memcpy(bytes, body->str, len);
		p->kind = WR_PAYLOAD_STRING;
	}
	p->bytes = bytes;
	p->len = (uint32_t)len;
	return 0;
}

/* latency: true (a timestamp signature, 24 bytes or the 18-byte compact one
 * where 24 do not fit: loss and latency), false, or loss (the 16-byte
 * loss-only signature). */
static int
parse_latency(struct wr_ywalk *w, const struct wr_ynode *v,
	      struct wr_stream *s)
{
	if (strcmp(wr_ynode_text(v), "loss") == 0) {
		s->latency = true;
		s->sig_short = true;
		return 0;
	}
	if (wr_parse_bool(wr_ynode_text(v), &s->latency, NULL, 0) == 0)
		return 0;
	return wr_ywalk_expected(w, v, "true, false or loss");
}

/* The smallest frame must hold every header, the signature and a string
 * payload (wr_stream.h: the string is not cut to fit). */
static int
check_fit(struct wr_ywalk *w, const struct wr_ynode *stream,
	  struct wr_stream *s)
{
	const struct wr_ynode *size = wr_ynode_get(stream, "size");
	char parts[320], head[64];
	unsigned int need, used, i;
	uint32_t sig;
	size_t k;

	used = wr_stream_hdr_len(s) +
	       (s->payload.kind == WR_PAYLOAD_STRING ? s->payload.len : 0);
	/* Without size: the smallest frame that holds it, with the full
	 * signature (as before the compact one: the size a file without
	 * `size` got does not change). */
	if (size == NULL) {
		sig = !s->latency ? 0 : s->sig_short ? WR_SIG_SHORT_LEN :
			WR_SIG_LEN;
		need = used + sig + WR_FCS_LEN;
		if (s->size.min < need)
			s->size.fixed = s->size.min = s->size.max =
				(uint16_t)need;
		return 0;
	}
	/* A given size needs room for the smallest signature that serves:
	 * the compact one where the full one does not fit (wr_sig.h). */
	sig = !s->latency ? 0 : s->sig_short ? WR_SIG_SHORT_LEN :
		WR_SIG_COMPACT_LEN;
	need = used + sig + WR_FCS_LEN;
	if (s->size.min >= need)
		return 0;
	for (k = 0, i = 0; i < s->n_layers && k < sizeof(parts); i++)
		k += (size_t)snprintf(parts + k, sizeof(parts) - k, "%s%s %u",
				      i ? " + " : "", s->layers[i].proto->name,
				      wr_layer_hlen(&s->layers[i]));
	if (s->latency)
		k += (size_t)snprintf(parts + k, sizeof(parts) - k,
				      " + %s signature %u",
				      s->sig_short ? "loss" : "latency", sig);
	if (s->payload.kind == WR_PAYLOAD_STRING)
		k += (size_t)snprintf(parts + k, sizeof(parts) - k,
				      " + string payload %u", s->payload.len);
	snprintf(parts + k, sizeof(parts) - k, " + FCS %u", WR_FCS_LEN);
	if (s->size.mode == WR_SIZE_FIXED)
		snprintf(head, sizeof(head), "%u bytes", s->size.min);
	else
		snprintf(head, sizeof(head), "the smallest frame, %u bytes,",
			 s->size.min);
	return WR_YWALK_KEY(w, "size", wr_ywalk_fail(w, size,
			"%s cannot hold %s: need at least %u", head, parts,
			need));
}

static int
parse_name(struct wr_ywalk *w, const struct wr_ynode *n, char *name)
{
	static const char what[] = "a name of 1 to 63 letters, digits, "
				   "'_', '.' or '-'";
	const char *t = wr_ynode_text(n);
	size_t i, len = strlen(t);

	if (len == 0 || len >= WR_STREAM_NAME_MAX)
		return wr_ywalk_expected(w, n, what);
	for (i = 0; i < len; i++) {
		char c = t[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return wr_ywalk_expected(w, n, what);
	}
	memcpy(name, t, len + 1);
	return 0;
}

static int
parse_count(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *count)
{
	if (strcmp(wr_ynode_text(n), "unlimited") == 0) {
		*count = 0;
		return 0;
	}
	if (wr_parse_u64(wr_ynode_text(n), 0, UINT64_MAX, count, NULL, 0) == 0)
		return 0;
	return wr_ywalk_expected(w, n, "a frame count (an unsigned 64-bit "
				 "integer) or unlimited");
}

static int
parse_rate(struct wr_ywalk *w, const struct wr_ynode *n,
	   struct wr_rate_spec *rate)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_parse_rate(wr_ynode_text(n), rate, why, sizeof(why)) == 0)
		return 0;
	return wr_ywalk_why(w, n, why);
}

static int
parse_vary(struct wr_ywalk *w, const struct wr_ynode *n, enum wr_combine *c)
{
	const char *t = wr_ynode_text(n);

	if (strcmp(t, combine_names[WR_COMBINE_TOGETHER]) == 0)
		*c = WR_COMBINE_TOGETHER;
	else if (strcmp(t, combine_names[WR_COMBINE_PRODUCT]) == 0)
		*c = WR_COMBINE_PRODUCT;
	else
		return wr_ywalk_expected(w, n, "together or product");
	return 0;
}

static int
parse_duration(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *ns)
{
	char why[WR_PARSE_WHY_MAX];

	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, "a duration such as 5s, 500ms "
					 "or 10us");
	if (wr_parse_duration_ns(wr_ynode_text(n), ns, why, sizeof(why)) != 0)
		return wr_ywalk_why(w, n, why);
	if (*ns == 0)
		return wr_ywalk_expected(w, n, "a duration above 0 "
					 "(5s, 500ms, 10us)");
	return 0;
}

/* One of @p names (NULL-terminated); @return its index. */
static int
parse_name_of(struct wr_ywalk *w, const struct wr_ynode *n,
	      const char *const *names, const char *what)
{
	int i;

	for (i = 0; names[i] != NULL; i++)
		if (n->type == WR_YNODE_SCALAR &&
		    strcmp(wr_ynode_text(n), names[i]) == 0)
			return i;
	return wr_ywalk_expected(w, n, what);
}

/* {frames: N, gap: <dur>} */
static int
parse_bursts(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	const struct wr_ynode *frames, *gap;
	uint64_t v = 0;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {frames, gap}", bursts_keys);
	if (rc != 0)
		return rc;
	frames = wr_ynode_get(n, "frames");
	gap = wr_ynode_get(n, "gap");
	if (frames == NULL)
		return wr_ywalk_missing(w, n, "frames");
	if (gap == NULL)
		return wr_ywalk_missing(w, n, "gap");
	rc = WR_YWALK_KEY(w, "frames", wr_ywalk_u64(w, frames, 1,
						    TRAIN_FRAMES_MAX, &v));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "gap", parse_duration(w, gap,
							   &s->train_gap_ns));
	s->train_frames = (uint32_t)v;
	return rc;
}

static int
ramp_rate(struct wr_ywalk *w, const struct wr_ynode *map, const char *key,
	  struct wr_rate_spec *rate)
{
	const struct wr_ynode *v = wr_ynode_get(map, key);
	int rc;

	if (v == NULL)
		return wr_ywalk_missing(w, map, key);
	rc = WR_YWALK_KEY(w, key, parse_rate(w, v, rate));
	if (rc == 0 && rate->unit == WR_RATE_MAX)
		rc = WR_YWALK_KEY(w, key, wr_ywalk_expected(w, v,
			"a rate such as \"100 kpps\", \"1 Gbps L1\" or "
			"\"10%\" (a ramp needs numbers, not max)"));
	return rc;
}

/* {shape, from, to, step, step_time, at_end} */
static int
parse_ramp(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
{
	struct wr_ramp_spec *r = &s->ramp;
	const struct wr_ynode *v;
	int rc, i;

	rc = wr_ywalk_keys(w, n, "a mapping {shape, from, to, step, step_time, "
			   "at_end}", ramp_keys);
	if (rc != 0)
		return rc;
	r->shape = WR_RAMP_STAIRCASE;
	r->at_end = WR_RAMP_END_HOLD;
	if ((v = wr_ynode_get(n, "shape")) != NULL) {
		i = WR_YWALK_KEY(w, "shape", parse_name_of(w, v, shape_names,
						"staircase or linear"));
		if (i < 0)
			return i;
		r->shape = (enum wr_ramp_shape)i;
	}
	if ((v = wr_ynode_get(n, "at_end")) != NULL) {
		i = WR_YWALK_KEY(w, "at_end", parse_name_of(w, v, ramp_end_names,
						"hold or stop"));
		if (i < 0)
			return i;
		r->at_end = (enum wr_ramp_end)i;
	}
	rc = ramp_rate(w, n, "from", &r->from);
	if (rc == 0)
		rc = ramp_rate(w, n, "to", &r->to);
	if (rc == 0)
		rc = ramp_rate(w, n, "step", &r->step);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "step_time");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "step_time");
	rc = WR_YWALK_KEY(w, "step_time", parse_duration(w, v, &r->step_ns));
	if (rc == 0)
		s->has_ramp = true;
	return rc;
}

/* Keys that only make sense together, or not at all together. */
static int
check_schedule(struct wr_ywalk *w, const struct wr_ynode *n,
	       const struct wr_stream *s)
{
	if (s->has_ramp && wr_ynode_get(n, "rate") != NULL)
		return WR_YWALK_KEY(w, "ramp", wr_ywalk_fail(w,
			wr_ynode_get(n, "ramp"), "a ramp sets the rate: give "
			"either rate or ramp, not both"));
	if (s->has_ramp && s->train_frames != 0)
		return WR_YWALK_KEY(w, "ramp", wr_ywalk_fail(w,
			wr_ynode_get(n, "ramp"), "a ramp cannot be combined "
			"with bursts (trains keep one spacing)"));
	return 0;
}

/*
 * The frame's headers: `stack:`, or the shorthand keys eth, vlan, ipv4 and
 * udp (any of them, or none), which stand for the stack eth / [vlan] /
 * ipv4 / udp.  A replayed stream (pcap:, frame:) has neither.
 */
static int
parse_headers(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_stream *s)
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

static void
stream_defaults(struct wr_stream *s, const struct wr_ynode *n, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->mark.line = n->line;
	s->mark.col = n->col;
	s->rate.unit = WR_RATE_MAX;
	s->seed = seed;
	s->combine = WR_COMBINE_TOGETHER;
	s->size.mode = WR_SIZE_FIXED;
	s->size.fixed = s->size.min = s->size.max = DEFAULT_SIZE;
	s->payload.kind = WR_PAYLOAD_ZEROS;
}

static int
parse_stream(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t file_seed,
	     struct wr_stream *s)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	stream_defaults(s, n, file_seed);
	rc = wr_ywalk_keys(w, n, "a stream mapping {name, size, rate, ...}",
			   stream_keys);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "name");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "name");
	rc = WR_YWALK_KEY(w, "name", parse_name(w, v, s->name));
	if (rc == 0 && (v = wr_ynode_get(n, "port")) != NULL) {
		rc = WR_YWALK_KEY(w, "port", wr_ywalk_u64(w, v, 0, WR_PORTS_MAX - 1,
						      &u));
		s->port = (uint16_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "seed")) != NULL) {
		rc = WR_YWALK_KEY(w, "seed", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						      &s->seed));
		s->seed_set = true;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "count")) != NULL)
		rc = WR_YWALK_KEY(w, "count", parse_count(w, v, &s->count));
	if (rc == 0 && (v = wr_ynode_get(n, "rate")) != NULL)
		rc = WR_YWALK_KEY(w, "rate", parse_rate(w, v, &s->rate));
	if (rc == 0 && (v = wr_ynode_get(n, "latency")) != NULL)
		rc = WR_YWALK_KEY(w, "latency", parse_latency(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "vary")) != NULL)
		rc = WR_YWALK_KEY(w, "vary", parse_vary(w, v, &s->combine));
	if (rc == 0)
		rc = parse_headers(w, n, s);
	if (rc == 0 && (v = wr_ynode_get(n, "size")) != NULL)
		rc = WR_YWALK_KEY(w, "size", parse_size(w, v, &s->size));
	if (rc == 0 && (v = wr_ynode_get(n, "payload")) != NULL)
		rc = WR_YWALK_KEY(w, "payload", parse_payload(w, v, &s->payload));
	if (rc == 0 && (v = wr_ynode_get(n, "duration")) != NULL)
		rc = WR_YWALK_KEY(w, "duration", parse_duration(w, v,
							&s->duration_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "isg")) != NULL)
		rc = WR_YWALK_KEY(w, "isg", parse_duration(w, v, &s->isg_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "burst")) != NULL) {
		rc = WR_YWALK_KEY(w, "burst", wr_ywalk_u64(w, v, 1, WR_BURST_MAX,
							   &u));
		s->burst = (uint32_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "bursts")) != NULL)
		rc = WR_YWALK_KEY(w, "bursts", parse_bursts(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "next")) != NULL) {
		int i = WR_YWALK_KEY(w, "next", parse_name_of(w, v, next_names,
						"next, first or stop"));

		rc = i < 0 ? i : 0;
		s->has_next = i >= 0;
		s->next = i >= 0 ? (enum wr_sched_next)i : WR_SCHED_NEXT_NEXT;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "ramp")) != NULL)
		rc = WR_YWALK_KEY(w, "ramp", parse_ramp(w, v, s));
	if (rc == 0 && wr_fe_yaml_wants(n))
		rc = wr_fe_yaml_parse(w, n, s);
	else if (rc == 0)
		rc = wr_replay_yaml_parse(w, n, s);
	if (rc == 0)
		rc = check_schedule(w, n, s);
	if (rc == 0)
		rc = check_fit(w, n, s);
	if (rc == 0 && s->dst_arp)
		rc = check_resolve(w, n, s);
	if (rc == 0 && s->replay == NULL && s->fe == NULL)
		rc = check_stack(w, s);
	return rc;
}

static bool
any_next(const struct wr_stream_file *f)
{
	uint32_t i;

	for (i = 0; i < f->n_streams; i++)
		if (f->streams[i].has_next)
			return true;
	return false;
}

/* In a sequence the next stream starts when the active one ends, so each
 * stream of a sequenced port must end by itself. */
static int
check_sequences(struct wr_ywalk *w, const struct wr_ynode *list,
		const struct wr_stream_file *f)
{
	uint32_t i, j;
	size_t old;
	int rc;

	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];

		if (s->count != 0 || s->duration_ns != 0 ||
		    (s->has_ramp && s->ramp.at_end == WR_RAMP_END_STOP) ||
		    !wr_stream_file_port_sequenced(f, s->port))
			continue;
		for (j = 0; j < f->n_streams; j++)
			if (f->streams[j].port == s->port &&
			    f->streams[j].has_next)
				break;
		old = wr_ywalk_push_index(w, i);
		rc = wr_ywalk_fail(w, list->kids[i], "port %u runs its streams "
			"one after another (streams[%u] says next:), so this "
			"stream must end: give it count, duration or a ramp "
			"with at_end: stop", s->port, j);
		wr_ywalk_pop(w, old);
		return rc;
	}
	return 0;
}

static int
parse_file(struct wr_ywalk *w, const struct wr_ynode *root,
	   struct wr_stream_file *f)
{
	const struct wr_ynode *v, *list;
	size_t i, j, old;
	int rc;

	rc = wr_ywalk_version(w, root, WR_FILE_VERSION, &f->version);
	if (rc == 0)
		rc = wr_ywalk_keys(w, root, "a mapping {version, seed, streams}",
				   top_keys);
	if (rc != 0)
		return rc;
	f->seed = DEFAULT_SEED;
	v = wr_ynode_get(root, "seed");
	if (v != NULL) {
		rc = WR_YWALK_KEY(w, "seed", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						      &f->seed));
		if (rc != 0)
			return rc;
		f->seed_set = true;
	}
	v = wr_ynode_get(root, "loops");
	if (v != NULL) {
		rc = WR_YWALK_KEY(w, "loops", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						       &f->loops));
		if (rc != 0)
			return rc;
	}
	if (wr_ynode_get(root, "rx_classes") != NULL) {
		rc = WR_YWALK_KEY(w, "rx_classes", wr_rx_classes_parse(w,
				  wr_ynode_get(root, "rx_classes"), &f->classes));
		if (rc != 0)
			return rc;
	}
	list = wr_ynode_get(root, "streams");
	if (list == NULL)
		return wr_ywalk_missing(w, root, "streams");
	old = wr_ywalk_push_key(w, "streams");
	if (list->type != WR_YNODE_SEQ)
		rc = wr_ywalk_expected(w, list, "a list of streams");
	else if (list->n_kids == 0)
		rc = wr_ywalk_fail(w, list, "expected at least one stream, "
				   "got an empty list");
	else if (list->n_kids > WR_STREAMS_MAX)
		rc = wr_ywalk_fail(w, list, "expected at most %u streams, "
				   "got %zu", WR_STREAMS_MAX, list->n_kids);
	if (rc != 0)
		goto out;
	f->streams = calloc(list->n_kids, sizeof(*f->streams));
	if (f->streams == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < list->n_kids && rc == 0; i++) {
		size_t oi = wr_ywalk_push_index(w, i);

		/* Counted before parsing so a half-parsed stream is freed. */
		f->n_streams = (uint32_t)i + 1;
		rc = parse_stream(w, list->kids[i], f->seed, &f->streams[i]);
		for (j = 0; j < i && rc == 0; j++) {
			const struct wr_ynode *name;

			if (strcmp(f->streams[j].name, f->streams[i].name) != 0)
				continue;
			name = wr_ynode_get(list->kids[i], "name");
			rc = WR_YWALK_KEY(w, "name", wr_ywalk_fail(w, name,
				"duplicate stream name \"%s\" (first at line %u)",
				f->streams[i].name,
				wr_ynode_get(list->kids[j], "name")->line));
		}
		wr_ywalk_pop(w, oi);
	}
	if (rc == 0)
		rc = check_sequences(w, list, f);
out:
	wr_ywalk_pop(w, old);
	if (rc == 0 && v != NULL && !any_next(f))
		rc = WR_YWALK_KEY(w, "loops", wr_ywalk_fail(w, v, "loops repeats "
			"a sequence, but no stream says next: (add next: first "
			"to the last stream of the sequence)"));
	return rc;
}

int
wr_yaml_load_streams_buf(const char *name, const char *buf, size_t len,
			 struct wr_stream_file *out, struct wr_error *err)
{
	return wr_yaml_load_streams_at(name, buf, len, WR_YAML_PCAP_ANY, out,
				       err);
}

int
wr_yaml_load_streams_at(const char *name, const char *buf, size_t len,
			int pcap_dir, struct wr_stream_file *out,
			struct wr_error *err)
{
	struct wr_stream_file f;
	struct wr_ynode *root = NULL;
	struct wr_ywalk w;
	int rc;

	memset(out, 0, sizeof(*out));
	wr_error_clear(err);
	memset(&f, 0, sizeof(f));
	rc = wr_ytree_parse(name, buf, len, &root, err);
	if (rc != 0)
		return rc;
	wr_ywalk_init(&w, name, err);
	w.pcap_dir = pcap_dir;
	if (root == NULL || (root->type == WR_YNODE_SCALAR && root->len == 0))
		rc = wr_error_set(err, -EINVAL, name, root ? root->line : 1,
				  root ? root->col : 1, NULL,
				  "the file is empty: expected a mapping with "
				  "version: %u and streams", WR_FILE_VERSION);
	else if (root->type != WR_YNODE_MAP)
		rc = wr_ywalk_expected(&w, root,
				       "a mapping with version and streams");
	else
		rc = parse_file(&w, root, &f);
	wr_ytree_free(root);
	/* The digest names exactly the bytes that were read, so a results
	 * file can say which stream file produced it. */
	if (rc == 0 && EVP_Digest(buf, len, f.sha256, NULL, EVP_sha256(),
				  NULL) != 1)
		rc = wr_error_set(err, -EIO, name, 0, 0, NULL,
				  "sha256 of the file failed");
	if (rc == -ENOMEM && err != NULL && err->msg[0] == '\0')
		wr_error_set(err, rc, name, 0, 0, NULL, "out of memory");
	if (rc != 0) {
		wr_stream_file_free(&f);
		return rc;
	}
	snprintf(f.path, sizeof(f.path), "%s", name);
	*out = f;
	return 0;
}

int
wr_yaml_load_streams(const char *path, struct wr_stream_file *out,
		     struct wr_error *err)
{
	size_t len;
	char *buf;
	int rc;

	memset(out, 0, sizeof(*out));
	wr_error_clear(err);
	rc = wr_ytree_read_file(path, &buf, &len, err);
	if (rc != 0)
		return rc;
	rc = wr_yaml_load_streams_buf(path, buf, len, out, err);
	free(buf);
	return rc;
}

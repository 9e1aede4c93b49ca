/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_hdr: every OTG flow header as a wirerate stack layer, one table entry per header, each field mapped to its layer key. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg_priv.h"
#include "wr_vary.h"

/*
 * How a field of the model reaches the wire (struct wr_otg_fdesc.how):
 *   MAP    the layer key `wr` takes the pattern as it is;
 *   FIXED  wirerate's layer has no such key and writes `fixed` there:
 *          a pattern that gives only that value is what wirerate sends,
 *          any other is refused by path (never dropped);
 *   NEXT   a next-protocol field: auto leaves it to the stack (the layer
 *          above's type), or, with nothing above, the model's auto value;
 *          a value overrides it (NEXT and AUTOV: `fixed` holds the
 *          model's auto value, for a pattern left out);
 *   STACK  a length the stack computes on every frame: auto (or the
 *          model's default value 0 where it has no auto) only, or the
 *          one value it always is (`fixed`: IPv4's IHL without options,
 *          TCP's data offset, 5);
 *   CSUM   a checksum: generated good only (wirerate's are right on
 *          every frame);
 *   AUTOV  auto is the model's auto value (vxlan vni, mpls label);
 *   OMIT   auto is what the stack computes (mpls's bottom of stack, srh's
 *          segments left: the first segment active); a value overrides;
 *   ADDR   an address whose auto is DHCP's lease: refused;
 *   DMAC   ethernet.dst: auto is the gateway's MAC, resolved when the run
 *          starts (a device's flow), else the model's auto value;
 *   TPID   vlan.tpid, the EtherType after the tag (ethernet.ether_type
 *          is the tag's own TPID: featureprofiles' GDP test sets 0x8100
 *          there and 0x6007 in vlan.tpid, and reads them on the wire in
 *          that order): the model has no auto here; its default 0xFFFF
 *          (models PR #335: 0x8100 made a payload read as a second tag)
 *          is the header above's type when there is one, as
 *          implementations fill it, else 0xFFFF.
 */
enum {
	F_MAP, F_FIXED, F_NEXT, F_STACK, F_CSUM, F_AUTOV, F_ADDR, F_DMAC,
	F_TPID, F_OMIT
};

#define I WR_OTG_VK_INT
#define MAC WR_OTG_VK_MAC
#define IP4 WR_OTG_VK_IP4
#define IP6 WR_OTG_VK_IP6

struct hdr;
typedef int (*hdr_hook)(const struct hdr *h, const json_t *obj,
			const char *path, json_t *layer,
			struct wr_otg_err *err);

struct hdr {
	const char *otg;             /* Flow.Header choice */
	const char *layer;           /* wirerate layer; NULL: refused */
	const char *sub;             /* fields under this member ("echo") */
	const struct wr_otg_fdesc *f;
	hdr_hook hook;               /* members the table does not cover */
	const char *why;             /* refused: what wirerate lacks */
	const char *const *extra;    /* the members hook reads */
};

static const struct wr_otg_fdesc f_eth[] = {
	{ "dst", "dst", MAC, 48, F_DMAC, NULL, 0 },
	{ "src", "src", MAC, 48, F_MAP, "00:00:00:00:00:00", 0 },
	{ "ether_type", "type", I, 16, F_NEXT, NULL, 0xffff },
	{ "pfc_queue", NULL, I, 3, F_FIXED, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_vlan[] = {
	{ "priority", "pcp", I, 3, F_MAP, "0", 0 },
	{ "cfi", "dei", I, 1, F_MAP, "0", 0 },
	{ "id", "id", I, 12, F_MAP, "0", 0 },
	{ "tpid", "type", I, 16, F_TPID, "65535", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_mpls[] = {
	{ "label", "label", I, 20, F_AUTOV, NULL, 16 },
	{ "traffic_class", "tc", I, 3, F_MAP, "0", 0 },
	{ "bottom_of_stack", "s", I, 1, F_OMIT, NULL, 0 },
	{ "time_to_live", "ttl", I, 8, F_MAP, "64", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_arp[] = {
	{ "hardware_type", NULL, I, 16, F_FIXED, "1", 1 },
	{ "protocol_type", NULL, I, 16, F_FIXED, "2048", 0x0800 },
	{ "hardware_length", NULL, I, 8, F_FIXED, "6", 6 },
	{ "protocol_length", NULL, I, 8, F_FIXED, "4", 4 },
	{ "operation", "op", I, 16, F_MAP, "1", 0 },
	{ "sender_hardware_addr", "sha", MAC, 48, F_MAP, "00:00:00:00:00:00", 0 },
	{ "sender_protocol_addr", "spa", IP4, 32, F_MAP, "0.0.0.0", 0 },
	{ "target_hardware_addr", "tha", MAC, 48, F_MAP, "00:00:00:00:00:00", 0 },
	{ "target_protocol_addr", "tpa", IP4, 32, F_MAP, "0.0.0.0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_ipv4[] = {
	{ "version", NULL, I, 4, F_FIXED, "4", 4 },
	{ "header_length", NULL, I, 4, F_STACK, NULL, 5 },
	{ "total_length", NULL, I, 16, F_STACK, NULL, 0 },
	{ "identification", "id", I, 16, F_MAP, "0", 0 },
	{ "reserved", NULL, I, 1, F_FIXED, "0", 0 },
	{ "dont_fragment", "df", I, 1, F_MAP, "0", 0 },
	{ "more_fragments", NULL, I, 1, F_FIXED, "0", 0 },
	{ "fragment_offset", NULL, I, 5, F_FIXED, "0", 0 },
	{ "time_to_live", "ttl", I, 8, F_MAP, "64", 0 },
	{ "protocol", "proto", I, 8, F_NEXT, NULL, 61 },
	{ "header_checksum", NULL, I, 16, F_CSUM, NULL, 0 },
	{ "src", "src", IP4, 32, F_ADDR, "0.0.0.0", 0 },
	{ "dst", "dst", IP4, 32, F_ADDR, "0.0.0.0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_ipv6[] = {
	{ "version", NULL, I, 4, F_FIXED, "6", 6 },
	{ "traffic_class", "tc", I, 8, F_MAP, "0", 0 },
	{ "flow_label", "flow", I, 20, F_MAP, "0", 0 },
	{ "payload_length", NULL, I, 16, F_STACK, NULL, 0 },
	{ "next_header", "next", I, 8, F_NEXT, NULL, 59 },
	{ "hop_limit", "hop", I, 8, F_MAP, "64", 0 },
	{ "src", "src", IP6, 128, F_ADDR, "::0", 0 },
	{ "dst", "dst", IP6, 128, F_ADDR, "::0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_udp[] = {
	{ "src_port", "src", I, 16, F_MAP, "0", 0 },
	{ "dst_port", "dst", I, 16, F_MAP, "0", 0 },
	{ "length", NULL, I, 16, F_STACK, "0", 0 },
	{ "checksum", NULL, I, 16, F_CSUM, NULL, 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_tcp[] = {
	{ "src_port", "src", I, 16, F_MAP, "0", 0 },
	{ "dst_port", "dst", I, 16, F_MAP, "0", 0 },
	{ "seq_num", "seq", I, 32, F_MAP, "0", 0 },
	{ "ack_num", "ack", I, 32, F_MAP, "0", 0 },
	{ "data_offset", NULL, I, 4, F_STACK, "0", 5 },
	{ "ecn_ns", NULL, I, 1, F_FIXED, "0", 0 },
	{ "window", "window", I, 16, F_MAP, "0", 0 },
	{ "checksum", NULL, I, 16, F_CSUM, NULL, 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

/* TCP's flag bits, most significant first: one wirerate field `flags`. */
static const struct wr_otg_fdesc f_tcp_flags[] = {
	{ "ecn_cwr", NULL, I, 1, F_MAP, "0", 0x80 },
	{ "ecn_echo", NULL, I, 1, F_MAP, "0", 0x40 },
	{ "ctl_urg", NULL, I, 1, F_MAP, "0", 0x20 },
	{ "ctl_ack", NULL, I, 1, F_MAP, "0", 0x10 },
	{ "ctl_psh", NULL, I, 1, F_MAP, "0", 0x08 },
	{ "ctl_rst", NULL, I, 1, F_MAP, "0", 0x04 },
	{ "ctl_syn", NULL, I, 1, F_MAP, "0", 0x02 },
	{ "ctl_fin", NULL, I, 1, F_MAP, "0", 0x01 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_icmp[] = {
	{ "type", "type", I, 8, F_MAP, "8", 0 },
	{ "code", "code", I, 8, F_MAP, "0", 0 },
	{ "checksum", NULL, I, 16, F_CSUM, NULL, 0 },
	{ "identifier", "id", I, 16, F_MAP, "0", 0 },
	{ "sequence_number", "seq", I, 16, F_MAP, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_icmp6[] = {
	{ "type", "type", I, 8, F_MAP, "128", 0 },
	{ "code", "code", I, 8, F_MAP, "0", 0 },
	{ "identifier", "id", I, 16, F_MAP, "0", 0 },
	{ "sequence_number", "seq", I, 16, F_MAP, "0", 0 },
	{ "checksum", NULL, I, 16, F_CSUM, NULL, 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_gre[] = {
	{ "checksum_present", "c", I, 1, F_MAP, "0", 0 },
	{ "reserved0", NULL, I, 12, F_FIXED, "0", 0 },
	{ "version", NULL, I, 3, F_FIXED, "0", 0 },
	{ "protocol", "proto", I, 16, F_NEXT, NULL, 0x0800 },
	{ "checksum", NULL, I, 16, F_CSUM, NULL, 0 },
	{ "reserved1", NULL, I, 16, F_FIXED, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_vxlan[] = {
	{ "flags", NULL, I, 8, F_FIXED, "8", 8 },
	{ "reserved0", NULL, I, 24, F_FIXED, "0", 0 },
	{ "vni", "vni", I, 24, F_AUTOV, NULL, 0 },
	{ "reserved1", NULL, I, 8, F_FIXED, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_gtpv1[] = {
	{ "version", NULL, I, 3, F_FIXED, "1", 1 },
	{ "protocol_type", NULL, I, 1, F_FIXED, "1", 1 },
	{ "reserved", NULL, I, 1, F_FIXED, "0", 0 },
	{ "message_type", "type", I, 8, F_MAP, "0", 0 },
	{ "message_length", NULL, I, 16, F_STACK, "0", 0 },
	{ "teid", "teid", I, 32, F_MAP, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

/* ---- one field ---- */

static int
seq_put(json_t *layer, const char *key, const struct wr_otg_seq *s,
	enum wr_otg_vk kind)
{
	json_t *v = wr_otg_seq_json(s, kind);

	if (v == NULL || json_object_set_new(layer, key, v) != 0)
		return -ENOMEM;
	return 0;
}

/* Every value of @p s is @p want (FIXED fields). */
static bool
seq_only(const struct wr_otg_seq *s, u128 want)
{
	uint64_t k, n;

	if (s->mode == WR_OTG_SEQ_RANDOM)
		return s->v == want && s->to == want;
	n = wr_otg_seq_len(s);
	for (k = 0; k < n; k++)
		if (wr_otg_seq_at(s, k) != want)
			return false;
	return true;
}

static int
field_auto(const struct wr_otg_fdesc *f, const struct wr_otg_seq *s,
	   const char *path, bool above, const struct wr_otg_hdr_ctx *ctx,
	   json_t *layer, struct wr_otg_err *err)
{
	struct wr_otg_seq a;

	switch (f->how) {
	case F_NEXT:
	case F_AUTOV:
		/* NEXT: the stack writes the layer above's type; alone, the
		 * model's value for "unable to generate one". */
		if (f->how == F_NEXT && above)
			return 0;
		a = *s;
		a.mode = WR_OTG_SEQ_FIXED;
		if (!s->has_auto)
			a.v = f->fixed;
		return seq_put(layer, f->wr, &a, f->kind);
	case F_STACK:
	case F_CSUM:
	case F_OMIT:
		return 0;
	case F_DMAC:
		if (ctx != NULL && (ctx->dst_resolve != NULL ||
				    ctx->dst_mac != NULL))
			return json_object_set_new(layer, f->wr, json_string(
					ctx->dst_resolve != NULL ? ctx->dst_resolve :
					ctx->dst_mac)) != 0 ? -ENOMEM : 0;
		return seq_put(layer, f->wr, s, f->kind);
	case F_TPID:
		return 0;
	default:
		return wr_otg_err_add(err, path, "auto: not supported here "
				      "(wirerate has no DHCP lease to take it "
				      "from): give a value");
	}
}

static int
field_one(const struct wr_otg_fdesc *f, const json_t *obj, const char *path,
	  bool above, const struct wr_otg_hdr_ctx *ctx, json_t *layer,
	  struct wr_otg_err *err)
{
	char p[WR_OTG_PATH_MAX];
	struct wr_otg_seq s;
	int rc;

	wr_otg_at(p, "%s.%s", path, f->otg);
	rc = wr_otg_seq_read(f, json_object_get(obj, f->otg), p, &s, err);
	if (rc != 0)
		return rc;
	if (f->how == F_CSUM && s.mode == WR_OTG_SEQ_AUTO) {
		if (s.csum_custom || s.csum_bad)
			rc = wr_otg_err_add(err, p, "only a generated good "
					    "checksum: wirerate's are right on "
					    "every frame");
	} else if (s.mode == WR_OTG_SEQ_AUTO) {
		if (s.auto_obj && f->how != F_ADDR)
			rc = wr_otg_err_add(err, p, "auto: not supported here");
		else
			rc = field_auto(f, &s, p, above, ctx, layer, err);
	} else if (f->how == F_FIXED) {
		if (!seq_only(&s, f->fixed))
			rc = wr_otg_err_add(err, p, "wirerate writes %" PRIu64
					    " here: no other value can be sent",
					    f->fixed);
	} else if (f->how == F_STACK || f->how == F_CSUM) {
		/* The model's default value where it has no auto (udp
		 * length 0) means "computed", as implementations do. */
		if (!(f->dval != NULL && seq_only(&s, 0)) &&
		    !(f->fixed != 0 && seq_only(&s, f->fixed)))
			rc = wr_otg_err_add(err, p, "computed by wirerate on "
					    "every frame (auto): no value can "
					    "be given%s", f->fixed != 0 ?
					    " but the one it computes" : "");
	} else if (f->how == F_TPID && seq_only(&s, 0xffff) && above) {
		rc = 0;
	} else if (f->wr != NULL) {
		rc = seq_put(layer, f->wr, &s, f->kind);
	}
	wr_otg_seq_free(&s);
	return rc;
}

/* ---- headers with members the table does not cover ---- */

/*
 * Fields the model splits and wirerate keeps whole (TCP's flag bits in
 * one `flags`, IPv4's TOS bits in `dscp` and `ecn`): each part's pattern
 * read, and the whole field's value on frame k made of each part's k-th
 * value (the parts move together, each with its own period, as fields
 * do), a list of one period of them all.  A part's place is its mask
 * (struct wr_otg_fdesc.fixed).
 */
static int
combine(const struct wr_otg_fdesc *parts, const json_t *obj, const char *path,
	struct wr_otg_seq *out, struct wr_otg_err *err)
{
	struct wr_otg_seq s[8];
	char p[WR_OTG_PATH_MAX];
	uint64_t period = 1, k;
	int i, n, rc = 0;

	memset(s, 0, sizeof(s));
	memset(out, 0, sizeof(*out));
	for (n = 0; parts[n].otg != NULL; n++) {
		wr_otg_at(p, "%s.%s", path, parts[n].otg);
		rc |= wr_otg_seq_read(&parts[n], json_object_get(obj, parts[n].otg),
				      p, &s[n], err);
		if (rc == 0 && (s[n].mode == WR_OTG_SEQ_AUTO ||
				s[n].mode == WR_OTG_SEQ_RANDOM))
			rc = wr_otg_err_add(err, p, "expected value, values, "
					    "increment or decrement");
		if (rc == 0)
			period = wr_period_lcm(period, wr_otg_seq_len(&s[n]));
	}
	if (rc == 0 && period > WR_VARY_LIST_MAX)
		rc = wr_otg_err_add(err, path, "these fields' patterns repeat "
				    "after %" PRIu64 " frames together: at most "
				    "%u", period, WR_VARY_LIST_MAX);
	if (rc == 0) {
		out->mode = WR_OTG_SEQ_LIST;
		out->n = (size_t)period;
		out->list = calloc(out->n, sizeof(*out->list));
		rc = out->list == NULL ? -ENOMEM : 0;
	}
	for (k = 0; rc == 0 && k < period; k++)
		for (i = 0; i < n; i++)
			out->list[k] |= wr_otg_seq_at(&s[i], k) <<
				__builtin_ctzll(parts[i].fixed);
	for (i = 0; i < n; i++)
		wr_otg_seq_free(&s[i]);
	return rc != 0 ? -EINVAL : 0;
}

/* One period of @p s as a list of (v >> shift) & mask. */
static int
put_part(json_t *layer, const char *key, const struct wr_otg_seq *s,
	 unsigned int shift, unsigned int mask)
{
	struct wr_otg_seq o;
	uint64_t k, n = wr_otg_seq_len(s);
	int rc;

	memset(&o, 0, sizeof(o));
	o.mode = WR_OTG_SEQ_LIST;
	o.n = (size_t)n;
	o.list = calloc(n, sizeof(*o.list));
	if (o.list == NULL)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		o.list[k] = (wr_otg_seq_at(s, k) >> shift) & mask;
	rc = seq_put(layer, key, &o, WR_OTG_VK_INT);
	wr_otg_seq_free(&o);
	return rc;
}

static int
tcp_hook(const struct hdr *h, const json_t *obj, const char *path,
	 json_t *layer, struct wr_otg_err *err)
{
	struct wr_otg_seq flags;
	int rc;

	(void)h;
	rc = combine(f_tcp_flags, obj, path, &flags, err);
	if (rc == 0)
		rc = seq_put(layer, "flags", &flags, WR_OTG_VK_INT);
	wr_otg_seq_free(&flags);
	return rc;
}

static const struct wr_otg_fdesc f_tos[] = {
	{ "precedence", NULL, I, 3, F_MAP, "0", 0xe0 },
	{ "delay", NULL, I, 1, F_MAP, "0", 0x10 },
	{ "throughput", NULL, I, 1, F_MAP, "0", 0x08 },
	{ "reliability", NULL, I, 1, F_MAP, "0", 0x04 },
	{ "monetary", NULL, I, 1, F_MAP, "0", 0x02 },
	{ "unused", NULL, I, 1, F_MAP, "0", 0x01 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_dscp[] = {
	{ "phb", "dscp", I, 6, F_MAP, "0", 0 },
	{ "ecn", "ecn", I, 2, F_MAP, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static const struct wr_otg_fdesc f_raw = { "raw", NULL, I, 8, F_MAP, "0", 0 };

/* ipv4.priority: dscp (phb, ecn), tos (RFC 791's bits) or raw (the whole
 * byte): wirerate's dscp and ecn, the byte's high 6 and low 2 bits. */
static int
ipv4_priority(const json_t *pr, const char *path, json_t *layer,
	      struct wr_otg_err *err)
{
	const char *c = json_string_value(json_object_get(pr, "choice"));
	const json_t *o;
	char p[WR_OTG_PATH_MAX];
	struct wr_otg_seq b;
	int i, rc = 0;

	if (c == NULL)
		c = "dscp";
	wr_otg_at(p, "%s.%s", path, c);
	o = json_object_get(pr, c);
	if (strcmp(c, "dscp") == 0) {
		json_t *empty = json_object();

		for (i = 0; f_dscp[i].otg != NULL; i++)
			rc |= field_one(&f_dscp[i], o != NULL ? o : empty, p,
					false, NULL, layer, err);
		json_decref(empty);
		return rc != 0 ? -EINVAL : 0;
	}
	if (strcmp(c, "tos") == 0) {
		json_t *empty = json_object();

		rc = combine(f_tos, o != NULL ? o : empty, p, &b, err);
		json_decref(empty);
	} else if (strcmp(c, "raw") == 0) {
		rc = wr_otg_seq_read(&f_raw, o, p, &b, err);
		if (rc == 0 && b.mode == WR_OTG_SEQ_RANDOM)
			rc = wr_otg_err_add(err, p, "expected value, values, "
					    "increment or decrement");
	} else {
		return wr_otg_err_add(err, path, "choice %s: unknown", c);
	}
	if (rc == 0)
		rc = put_part(layer, "dscp", &b, 2, 0x3f);
	if (rc == 0)
		rc = put_part(layer, "ecn", &b, 0, 0x3);
	wr_otg_seq_free(&b);
	return rc;
}

static const struct wr_otg_fdesc f_opt_type[] = {
	{ "copied_flag", NULL, I, 1, F_MAP, "0", 0x80 },
	{ "option_class", NULL, I, 2, F_MAP, "0", 0x60 },
	{ "option_number", NULL, I, 5, F_MAP, "0", 0x1f },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

/* A custom option: its type byte from the three parts (fixed: wirerate's
 * options are written once), its length auto (2 + the value's bytes) or
 * that same value, its value's bytes. */
static json_t *
opt_custom(const json_t *c, const char *path, struct wr_otg_err *err)
{
	const json_t *len = json_object_get(c, "length");
	const char *val = json_string_value(json_object_get(c, "value"));
	json_t *tobj = json_object_get(c, "type"), *empty = json_object();
	struct wr_otg_seq t;
	char p[WR_OTG_PATH_MAX];
	size_t n;
	int rc;

	if (val == NULL)
		val = "0000";
	n = strlen(val) / 2;
	wr_otg_at(p, "%s.type", path);
	rc = combine(f_opt_type, tobj != NULL ? tobj : empty, p, &t, err);
	json_decref(empty);
	if (rc == 0 && t.n != 1)
		rc = wr_otg_err_add(err, p, "a fixed type: wirerate writes an "
				    "option's bytes once");
	if (rc == 0 && len != NULL && json_is_string(json_object_get(len, "choice")) &&
	    strcmp(json_string_value(json_object_get(len, "choice")), "value") == 0 &&
	    json_integer_value(json_object_get(len, "value")) != (json_int_t)(n + 2))
		rc = wr_otg_err_add(err, path, "length.value: expected %zu (2 + "
				    "the value's %zu bytes), as wirerate writes "
				    "it", n + 2, n);
	if (rc != 0) {
		wr_otg_seq_free(&t);
		return NULL;
	}
	rc = (int)t.list[0];
	wr_otg_seq_free(&t);
	if (n == 0)
		return json_pack("{s:i}", "type", rc);
	return json_pack("{s:i, s:s}", "type", rc, "data", val);
}

/* ipv4.options: RFC 791's options, wirerate's ipv4 `options:` list. */
static int
ipv4_options(const json_t *opts, const char *path, json_t *layer,
	     struct wr_otg_err *err)
{
	char p[WR_OTG_PATH_MAX];
	json_t *out = json_array(), *o;
	size_t i;
	int rc = 0;

	if (out == NULL)
		return -ENOMEM;
	for (i = 0; i < json_array_size(opts); i++) {
		const json_t *e = json_array_get(opts, i);
		const char *c = json_string_value(json_object_get(e, "choice"));

		if (c == NULL)
			c = "router_alert";
		wr_otg_at(p, "%s.options[%zu]", path, i);
		o = NULL;
		if (strcmp(c, "router_alert") == 0) /* RFC 2113 */
			o = json_pack("{s:i, s:s}", "type", 148, "data", "0000");
		else if (strcmp(c, "end_of_options") == 0)
			o = json_pack("{s:i}", "type", 0);
		else if (strcmp(c, "custom") == 0)
			o = opt_custom(json_object_get(e, "custom"), p, err);
		else
			rc |= wr_otg_err_add(err, p, "%s: not supported: wirerate "
					     "writes fixed options (router_alert, "
					     "custom, end_of_options)", c);
		if (o != NULL)
			json_array_append_new(out, o);
		else
			rc |= -EINVAL;
	}
	if (rc == 0)
		return json_object_set_new(layer, "options", out) != 0 ? -ENOMEM : 0;
	json_decref(out);
	return -EINVAL;
}

static int
ipv4_hook(const struct hdr *h, const json_t *obj, const char *path,
	  json_t *layer, struct wr_otg_err *err)
{
	const json_t *pr = json_object_get(obj, "priority");
	char p[WR_OTG_PATH_MAX];
	int rc = 0;

	(void)h;
	if (json_array_size(json_object_get(obj, "options")) > 0 &&
	    json_is_string(json_object_get(json_object_get(obj, "header_length"),
					   "choice")) &&
	    strcmp(json_string_value(json_object_get(json_object_get(obj,
			"header_length"), "choice")), "auto") != 0) {
		wr_otg_at(p, "%s.header_length", path);
		rc = wr_otg_err_add(err, p, "with options, auto only: wirerate "
				    "counts the options' words");
	}
	if (pr != NULL) {
		wr_otg_at(p, "%s.priority", path);
		rc = ipv4_priority(pr, p, layer, err);
	}
	if (json_array_size(json_object_get(obj, "options")) > 0)
		rc |= ipv4_options(json_object_get(obj, "options"), path, layer,
				   err);
	return rc != 0 ? -EINVAL : 0;
}

/* A fixed integer of pattern @p pat (field @p f), into *@p v. */
static int
fixed_int(const struct wr_otg_fdesc *f, const json_t *pat, const char *path,
	  uint64_t *v, struct wr_otg_err *err)
{
	struct wr_otg_seq s;
	int rc;

	rc = wr_otg_seq_read(f, pat, path, &s, err);
	if (rc == 0 && (s.mode == WR_OTG_SEQ_AUTO || wr_otg_seq_len(&s) != 1 ||
			s.mode == WR_OTG_SEQ_RANDOM))
		rc = wr_otg_err_add(err, path, "expected one value: it decides "
				    "the header's layout");
	*v = rc == 0 ? (uint64_t)wr_otg_seq_at(&s, 0) : 0;
	wr_otg_seq_free(&s);
	return rc;
}

static const struct wr_otg_fdesc f_gtp_flag = { "flag", NULL, I, 1, F_MAP, "0", 0 };
static const struct wr_otg_fdesc f_gtp_byte = { "type", NULL, I, 8, F_MAP, "0", 0 };
static const struct wr_otg_fdesc f_gtp_elen = { "extension_length", NULL, I, 8, F_MAP, "0", 0 };
static const struct wr_otg_fdesc f_gtp_cont = { "contents", NULL, I, 48, F_MAP, "0", 0 };

/* GTPv1's extension headers: wirerate's ext {type, data}: each one's type
 * is the previous one's next_extension_header (the first's the header's
 * next_extension_header_type), its 6 bytes of contents its data (length
 * 2 words, written by wirerate), the last one's next type 0. */
static int
gtp_ext(const json_t *obj, const char *path, uint64_t type0, json_t *layer,
	struct wr_otg_err *err)
{
	const json_t *a = json_object_get(obj, "extension_headers");
	char p[WR_OTG_PATH_MAX], q[WR_OTG_PATH_MAX], hex[16];
	json_t *ext = json_array();
	uint64_t type = type0, len, cont, next = 0;
	size_t i, n = json_array_size(a);
	int rc = 0;

	if (ext == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const json_t *e = json_array_get(a, i);

		wr_otg_at(p, "%s.extension_headers[%zu]", path, i);
		wr_otg_at(q, "%s.extension_length", p);
		rc |= fixed_int(&f_gtp_elen, json_object_get(e, "extension_length"),
				q, &len, err);
		if (rc == 0 && len != 0 && len != 2)
			rc = wr_otg_err_add(err, q, "expected 2 (4-byte words: "
					    "the length, 6 bytes of contents, the "
					    "next type), as wirerate writes it");
		wr_otg_at(q, "%s.contents", p);
		rc |= fixed_int(&f_gtp_cont, json_object_get(e, "contents"), q,
				&cont, err);
		wr_otg_at(q, "%s.next_extension_header", p);
		rc |= fixed_int(&f_gtp_byte, json_object_get(e,
				"next_extension_header"), q, &next, err);
		if (rc == 0 && (i + 1 == n) != (next == 0))
			rc = wr_otg_err_add(err, q, "expected %s", i + 1 == n ?
					    "0 after the last extension header" :
					    "the type of the next one, not 0");
		snprintf(hex, sizeof(hex), "%012" PRIx64, cont);
		if (rc == 0)
			json_array_append_new(ext, json_pack("{s:I, s:s}", "type",
					(json_int_t)type, "data", hex));
		type = next;
	}
	if (rc == 0 && n > 0)
		return json_object_set_new(layer, "ext", ext) != 0 ? -ENOMEM : 0;
	json_decref(ext);
	return rc != 0 ? -EINVAL : 0;
}

/* Field @p f of @p obj: 0 only (its flag @p flag is 0). */
static int
zero_only(const struct wr_otg_fdesc *f, const json_t *obj, const char *path,
	  const char *flag, struct wr_otg_err *err)
{
	char p[WR_OTG_PATH_MAX];
	uint64_t v = 0;

	wr_otg_at(p, "%s.%s", path, f->otg);
	if (fixed_int(f, json_object_get(obj, f->otg), p, &v, err) != 0)
		return -EINVAL;
	if (v != 0)
		return wr_otg_err_add(err, p, "sent only with %s 1 (else 0)",
				      flag);
	return 0;
}

/* gtpv1: E, S and PN say which optional parts there are; wirerate sets
 * each from what it is given (seq: S, npdu: PN, ext: E). */
static int
gtpv1_hook(const struct hdr *h, const json_t *obj, const char *path,
	   json_t *layer, struct wr_otg_err *err)
{
	static const char *const fl[] = { "e_flag", "s_flag", "pn_flag" };
	static const struct wr_otg_fdesc f_seq = { "squence_number", "seq", I,
						   16, F_MAP, "0", 0 };
	static const struct wr_otg_fdesc f_npdu = { "n_pdu_number", "npdu", I,
						    8, F_MAP, "0", 0 };
	char p[WR_OTG_PATH_MAX];
	uint64_t flag[3], t0 = 0;
	size_t n_ext = json_array_size(json_object_get(obj, "extension_headers"));
	int i, rc = 0;

	(void)h;
	for (i = 0; i < 3; i++) {
		wr_otg_at(p, "%s.%s", path, fl[i]);
		rc |= fixed_int(&f_gtp_flag, json_object_get(obj, fl[i]), p,
				&flag[i], err);
	}
	wr_otg_at(p, "%s.next_extension_header_type", path);
	rc |= fixed_int(&f_gtp_byte, json_object_get(obj,
			"next_extension_header_type"), p, &t0, err);
	if (rc != 0)
		return -EINVAL;
	if ((flag[0] != 0) != (n_ext > 0))
		return wr_otg_err_add(err, path, "e_flag: wirerate sets E when "
				      "there are extension headers, and only "
				      "then");
	/* A flag of 0: its field is 0 (or not there at all). */
	rc |= flag[1] ? field_one(&f_seq, obj, path, false, NULL, layer, err) :
		zero_only(&f_seq, obj, path, "s_flag", err);
	rc |= flag[2] ? field_one(&f_npdu, obj, path, false, NULL, layer, err) :
		zero_only(&f_npdu, obj, path, "pn_flag", err);
	if (rc == 0 && n_ext > 0)
		rc = gtp_ext(obj, path, t0, layer, err);
	return rc != 0 ? -EINVAL : 0;
}

static const struct wr_otg_fdesc f_srh[] = {
	{ "segments_left", "left", I, 8, F_OMIT, NULL, 0 },
	{ "last_entry", NULL, I, 8, F_STACK, NULL, 0 },
	{ "tag", "tag", I, 16, F_MAP, "0", 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

/* Earlier drafts' flag bits (draft-ietf-6man-segment-routing-header-07:
 * U P O A H): P 0x40, O 0x20, A 0x10. */
static const struct wr_otg_fdesc f_srh_flags[] = {
	{ "protected", NULL, I, 1, F_MAP, "0", 0x40 },
	{ "oam", NULL, I, 1, F_MAP, "0", 0x20 },
	{ "alert", NULL, I, 1, F_MAP, "0", 0x10 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

static int
srh_segments(const json_t *list, const char *path, json_t *layer,
	     struct wr_otg_err *err)
{
	static const struct wr_otg_fdesc f_seg = { "segment", NULL, IP6, 128,
						   F_MAP, "::0", 0 };
	char p[WR_OTG_PATH_MAX];
	json_t *segs = json_array();
	size_t i, n = json_array_size(list);
	int rc = 0;

	if (segs == NULL)
		return -ENOMEM;
	if (n == 0)
		rc = wr_otg_err_add(err, path, "expected at least one segment");
	/* The model lists them as on the wire (Segment[0] the last);
	 * wirerate in the order of the path. */
	for (i = n; i-- > 0;) {
		struct wr_otg_seq s;

		wr_otg_at(p, "%s[%zu].segment", path, i);
		if (wr_otg_seq_read(&f_seg, json_object_get(json_array_get(list, i),
						"segment"), p, &s, err) != 0) {
			rc = -EINVAL;
			continue;
		}
		if (s.mode == WR_OTG_SEQ_FIXED || (s.mode == WR_OTG_SEQ_LIST &&
						   s.n == 1))
			json_array_append_new(segs, wr_otg_val_json(IP6,
					wr_otg_seq_at(&s, 0)));
		else
			rc = wr_otg_err_add(err, p, "expected one value: "
					    "wirerate's segments are fixed");
		wr_otg_seq_free(&s);
	}
	if (rc == 0)
		return json_object_set_new(layer, "segments", segs) != 0 ? -ENOMEM : 0;
	json_decref(segs);
	return -EINVAL;
}

/* ipv6_extension_header: routing, segment_routing: wirerate's srh. */
static int
ext_hook(const struct hdr *h, const json_t *obj, const char *path,
	 json_t *layer, struct wr_otg_err *err)
{
	const json_t *r = json_object_get(obj, "routing"), *sr, *fo;
	const char *c = json_string_value(json_object_get(r, "choice"));
	char p[WR_OTG_PATH_MAX], q[WR_OTG_PATH_MAX];
	struct wr_otg_seq fl;
	json_t *empty;
	size_t i;
	int rc = 0;

	(void)h;
	wr_otg_at(p, "%s.routing", path);
	if (c != NULL && strcmp(c, "segment_routing") != 0)
		return wr_otg_err_add(err, p, "%s: not supported: wirerate's "
				      "srh carries whole SIDs (segment_routing)", c);
	wr_otg_at(p, "%s.routing.segment_routing", path);
	sr = json_object_get(r, "segment_routing");
	empty = json_object();
	if (empty == NULL)
		return -ENOMEM;
	if (sr == NULL)
		sr = empty;
	for (i = 0; f_srh[i].otg != NULL; i++)
		rc |= field_one(&f_srh[i], sr, p, false, NULL, layer, err);
	fo = json_object_get(sr, "flags");
	wr_otg_at(q, "%s.flags", p);
	rc |= combine(f_srh_flags, fo != NULL ? fo : empty, q, &fl, err);
	if (rc == 0 && !(fl.n == 1 && fl.list[0] == 0))
		rc = seq_put(layer, "flags", &fl, WR_OTG_VK_INT);
	wr_otg_seq_free(&fl);
	wr_otg_at(q, "%s.segment_list", p);
	rc |= srh_segments(json_object_get(sr, "segment_list"), q, layer, err);
	if (json_object_get(sr, "pad_tlv") != NULL) {
		wr_otg_at(q, "%s.pad_tlv", p);
		rc |= wr_otg_err_add(err, q, "not supported: wirerate's srh "
				     "carries no TLVs");
	}
	json_decref(empty);
	return rc != 0 ? -EINVAL : 0;
}

static const struct wr_otg_fdesc f_ext[] = {
	{ "next_header", "next", I, 8, F_NEXT, NULL, 59 },
	{ "hdr_ext_len", NULL, I, 8, F_STACK, NULL, 0 },
	{ NULL, NULL, I, 0, 0, NULL, 0 },
};

/* custom: its bytes (spaces, colons and a 0x dropped) as a raw layer. */
static int
custom_layer(const json_t *c, const char *path, json_t *stack,
	     struct wr_otg_err *err)
{
	const char *b = json_string_value(json_object_get(c, "bytes"));
	char hex[520], p[WR_OTG_PATH_MAX];
	size_t n = 0, i;

	wr_otg_at(p, "%s.bytes", path);
	if (b == NULL)
		return wr_otg_err_add(err, p, "required");
	if (json_array_size(json_object_get(c, "metric_tags")) > 0) {
		wr_otg_at(p, "%s.metric_tags", path);
		return wr_otg_err_add(err, p, "not supported: wirerate counts a "
				      "flow as a whole, not per value of a field");
	}
	if (b[0] == '0' && (b[1] == 'x' || b[1] == 'X'))
		b += 2;
	for (i = 0; b[i] != '\0'; i++) {
		char ch = b[i];

		if (ch == ' ' || ch == ':')
			continue;
		if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
		      (ch >= 'A' && ch <= 'F')) || n >= 512)
			return wr_otg_err_add(err, p, "expected 1..256 bytes "
					      "in hex");
		hex[n++] = ch;
	}
	hex[n] = '\0';
	if (n == 0 || n % 2 != 0)
		return wr_otg_err_add(err, p, "expected whole bytes in hex "
				      "(1..256), got %zu hex digits", n);
	return json_array_append_new(stack, json_pack("{s:{s:s}}", "raw",
							"hex", hex)) != 0 ?
		-ENOMEM : 0;
}

static const char *const ipv4_extra[] = { "priority", "options", NULL };
static const char *const tcp_extra[] = {
	"ecn_cwr", "ecn_echo", "ctl_urg", "ctl_ack", "ctl_psh", "ctl_rst",
	"ctl_syn", "ctl_fin", NULL
};

static const char *const gtpv1_extra[] = {
	"e_flag", "s_flag", "pn_flag", "squence_number", "n_pdu_number",
	"next_extension_header_type", "extension_headers", NULL
};
static const char *const ext_extra[] = { "choice", "routing", NULL };
static const struct wr_otg_fdesc f_none[] = { { NULL, NULL, I, 0, 0, NULL, 0 } };

static const struct hdr hdrs[] = {
	{ "ethernet", "eth", NULL, f_eth, NULL, NULL, NULL },
	{ "vlan", "vlan", NULL, f_vlan, NULL, NULL, NULL },
	{ "mpls", "mpls", NULL, f_mpls, NULL, NULL, NULL },
	{ "arp", "arp", NULL, f_arp, NULL, NULL, NULL },
	{ "ipv4", "ipv4", NULL, f_ipv4, ipv4_hook, NULL, ipv4_extra },
	{ "ipv6", "ipv6", NULL, f_ipv6, NULL, NULL, NULL },
	{ "tcp", "tcp", NULL, f_tcp, tcp_hook, NULL, tcp_extra },
	{ "udp", "udp", NULL, f_udp, NULL, NULL, NULL },
	{ "icmp", "icmp", "echo", f_icmp, NULL, NULL, NULL },
	{ "icmpv6", "icmp6", "echo", f_icmp6, NULL, NULL, NULL },
	{ "gre", "gre", NULL, f_gre, NULL, NULL, NULL },
	{ "vxlan", "vxlan", NULL, f_vxlan, NULL, NULL, NULL },
	{ "gtpv1", "gtpu", NULL, f_gtpv1, gtpv1_hook, NULL, gtpv1_extra },
	{ "ipv6_extension_header", "srh", NULL, f_ext, ext_hook, NULL, ext_extra },
	{ "custom", "raw", NULL, f_none, NULL, NULL, NULL },
	{ "gtpv2", NULL, NULL, NULL, NULL, "no GTPv2-C layer", NULL },
	{ "pfcpause", NULL, NULL, NULL, NULL, "no PFC pause frames", NULL },
	{ "ethernetpause", NULL, NULL, NULL, NULL, "no Ethernet pause frames", NULL },
	{ "ppp", NULL, NULL, NULL, NULL, "no PPP layer", NULL },
	{ "igmpv1", NULL, NULL, NULL, NULL, "no IGMPv1 layer (its hosts "
	  "speak IGMPv2/v3: doc/hosts.md)", NULL },
	{ "snmpv2c", NULL, NULL, NULL, NULL, "no SNMP layer", NULL },
	{ "rsvp", NULL, NULL, NULL, NULL, "no RSVP layer", NULL },
	{ "macsec", NULL, NULL, NULL, NULL, "no MACsec layer", NULL },
	{ "lacp", NULL, NULL, NULL, NULL, "no LACP layer", NULL },
	{ "cfm", NULL, NULL, NULL, NULL, "no CFM layer", NULL },
};

static const struct hdr *
hdr_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++)
		if (strcmp(hdrs[i].otg, name) == 0)
			return &hdrs[i];
	return NULL;
}

/* Whether wirerate refuses header @p name (doc/otg.md's table). */
const char *
wr_otg_hdr_refused(const char *name)
{
	const struct hdr *h = hdr_find(name);

	return h != NULL && h->layer == NULL ? h->why : NULL;
}

/* Members of the model this code does not read are refused by path:
 * nothing a config says is dropped. */
static int
hdr_known(const struct hdr *h, const json_t *obj, const char *path,
	  struct wr_otg_err *err)
{
	const char *key;
	json_t *v;
	size_t i;
	int rc = 0;

	json_object_foreach((json_t *)obj, key, v) {
		bool known = false;

		(void)v;
		for (i = 0; !known && h->f[i].otg != NULL; i++)
			known = strcmp(h->f[i].otg, key) == 0;
		for (i = 0; !known && h->extra != NULL && h->extra[i] != NULL; i++)
			known = strcmp(h->extra[i], key) == 0;
		if (!known)
			rc = wr_otg_err_add(err, path, "%s: not supported by "
					    "wirerate's %s layer", key, h->layer);
	}
	return rc;
}

static int
hdr_one(const json_t *hj, const char *path, bool above,
	const struct wr_otg_hdr_ctx *ctx, json_t *stack,
	struct wr_otg_err *err)
{
	const char *choice = json_string_value(json_object_get(hj, "choice"));
	const struct hdr *h;
	const json_t *obj;
	char p[WR_OTG_PATH_MAX];
	json_t *layer;
	size_t i;
	int rc = 0;

	if (choice == NULL)
		choice = "ethernet"; /* the model's default choice */
	wr_otg_at(p, "%s.%s", path, choice);
	h = hdr_find(choice);
	if (h == NULL)
		return wr_otg_err_add(err, path, "header %s: not supported by "
				      "wirerate", choice);
	if (h->layer == NULL)
		return wr_otg_err_add(err, p, "not supported: wirerate has %s",
				      h->why);
	obj = json_object_get(hj, choice);
	if (strcmp(choice, "custom") == 0)
		return custom_layer(obj, p, stack, err);
	if (obj == NULL)
		obj = json_object();
	else
		json_incref((json_t *)obj);
	if (h->sub != NULL) {
		const json_t *sub = json_object_get(obj, h->sub);

		snprintf(p + strlen(p), sizeof(p) - strlen(p), ".%s", h->sub);
		json_decref((json_t *)obj);
		obj = sub != NULL ? json_incref((json_t *)sub) : json_object();
	}
	layer = json_object();
	if (layer == NULL || obj == NULL) {
		json_decref(layer);
		json_decref((json_t *)obj);
		return -ENOMEM;
	}
	for (i = 0; h->f[i].otg != NULL; i++)
		rc |= field_one(&h->f[i], obj, p, above, ctx, layer, err);
	if (h->hook != NULL)
		rc |= h->hook(h, obj, p, layer, err);
	rc |= hdr_known(h, obj, p, err);
	json_decref((json_t *)obj);
	if (rc == 0 && json_array_append_new(stack, json_object_size(layer) > 0 ?
			json_pack("{s:o}", h->layer, layer) :
			(json_decref(layer), json_string(h->layer))) != 0)
		return -ENOMEM;
	if (rc != 0)
		json_decref(layer);
	return rc != 0 ? -EINVAL : 0;
}

int
wr_otg_hdr_stack(const json_t *packet, const char *path,
		 const struct wr_otg_hdr_ctx *ctx, json_t *stack,
		 struct wr_otg_err *err)
{
	char p[WR_OTG_PATH_MAX];
	size_t i, n = json_array_size(packet);
	int rc = 0;

	if (!json_is_array(packet) || n == 0)
		return wr_otg_err_add(err, path, "expected at least one header");
	{
		const char *c0 = json_string_value(json_object_get(
					json_array_get(packet, 0), "choice"));

		/* A frame on an Ethernet port: its first header (the model
		 * leaves that to the config; a header wirerate lacks is
		 * refused as such below). */
		if (c0 != NULL && strcmp(c0, "ethernet") != 0 &&
		    wr_otg_hdr_refused(c0) == NULL && hdr_find(c0) != NULL) {
			wr_otg_at(p, "%s[0]", path);
			rc = wr_otg_err_add(err, p, "%s: wirerate's frames start "
					    "with an ethernet header", c0);
		}
	}
	for (i = 0; i < n; i++) {
		wr_otg_at(p, "%s[%zu]", path, i);
		const char *next = i + 1 < n ? json_string_value(json_object_get(
					json_array_get(packet, i + 1), "choice")) : NULL;

		/* A next-protocol field's auto names the header above;
		 * custom bytes have no number: the model's value then.  The
		 * endpoints' next hop is the outermost ethernet's only. */
		rc |= hdr_one(json_array_get(packet, i), p, i + 1 < n &&
			      (next == NULL || strcmp(next, "custom") != 0),
			      i == 0 ? ctx : NULL, stack, err);
	}
	return rc != 0 ? -EINVAL : 0;
}

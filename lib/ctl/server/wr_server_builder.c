/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_builder: what the console's stream builder reads: the protocol registry (protocols.list) and a stream file as a tree (streams.parse). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_describe.h"
#include "wr_proto.h"
#include "wr_ytree.h"

#include "wr_server_priv.h"

/* The kinds a form control is chosen by (doc/api.md, protocols.list). */
static const char *
kind_name(const struct wr_proto_field *f)
{
	switch (f->kind) {
	case WR_VAL_MAC:
		return "mac";
	case WR_VAL_IPV4:
		return "ipv4";
	case WR_VAL_IPV6:
		return "ipv6";
	case WR_VAL_HEX:
		return "hex";
	default:
		return f->bits == 1 ? "bool" : "uint";
	}
}

static json_t *
oom(struct call *k)
{
	wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
			   "out of memory");
	return NULL;
}

static __uint128_t
field_max(unsigned int bits)
{
	return bits >= 128 ? ~(__uint128_t)0 : ((__uint128_t)1 << bits) - 1;
}

static __uint128_t
field_def(const struct wr_proto_field *f)
{
	return ((__uint128_t)f->def_hi << 64) | f->def;
}

/*
 * Whether field j of p may vary: asked of the registry itself, not of a
 * list here.  A layer of defaults with field j going through two values is
 * laid out as the frame builder lays it out; a module whose header length
 * depends on the field (gre.c) refuses it, and the page then offers the
 * field a fixed value only.
 */
static bool
may_vary(const struct wr_proto *p, unsigned int j)
{
	struct wr_field_spec spec[WR_PROTO_FIELDS_MAX];
	bool set[WR_PROTO_FIELDS_MAX];
	struct wr_layer l;
	struct wr_layout *lo;
	__uint128_t d = field_def(&p->fields[j]);
	unsigned int i;
	int rc;

	if (p->fields[j].bits == 0)
		return false;
	memset(&l, 0, sizeof(l));
	memset(spec, 0, sizeof(spec));
	memset(set, 0, sizeof(set));
	for (i = 0; i < p->n_fields && i < WR_PROTO_FIELDS_MAX; i++) {
		spec[i].mode = WR_VARY_FIXED;
		spec[i].value = field_def(&p->fields[i]);
	}
	spec[j].mode = WR_VARY_INC;
	spec[j].step = 1;
	if (d < field_max(p->fields[j].bits)) {
		spec[j].from = d;
		spec[j].to = d + 1;
	} else {
		spec[j].from = d - 1;
		spec[j].to = d;
	}
	spec[j].value = spec[j].from;
	set[j] = true;
	l.proto = p;
	l.field = spec;
	l.set = set;
	lo = malloc(sizeof(*lo));
	if (lo == NULL)
		return true;
	rc = wr_proto_layout(&l, lo);
	free(lo);
	return rc == 0;
}

static json_t *
field_json(const struct wr_proto_field *f, bool vary)
{
	char def[64];
	json_t *o;

	wr_describe_val(f->kind, field_def(f), def, sizeof(def));
	o = json_pack("{s:s, s:s, s:i, s:s, s:b}", "name", f->name, "kind",
		      kind_name(f), "bits", f->bits, "default", def, "vary",
		      vary);
	if (o != NULL && f->doc != NULL)
		json_object_set_new(o, "doc", json_string(f->doc));
	return o;
}

static json_t *
opts_json(const struct wr_proto_opts *op)
{
	json_t *fields = json_array();
	unsigned int i;

	for (i = 0; i < op->n_fields; i++)
		json_array_append_new(fields, field_json(&op->fields[i], false));
	return json_pack("{s:s, s:o, s:i, s:b, s:i, s:s}", "key", op->key,
			 "fields", fields, "data_max", op->data_max, "bare",
			 op->bare, "max", op->max, "doc", op->doc ? op->doc : "");
}

/* The registry's JSON (wr_proto_json: what the Python tools read), each
 * field completed with what a form needs: its kind, its default as a file
 * writes it, whether it may vary, its line of documentation; and each
 * protocol's option list. */
json_t *
wr_srv_m_protocols(struct call *k)
{
	size_t n = wr_proto_json(NULL, 0) + 1;
	char *buf = malloc(n);
	json_t *doc, *list;
	unsigned int i, j;

	if (buf == NULL)
		return oom(k);
	wr_proto_json(buf, n);
	doc = json_loads(buf, 0, NULL);
	free(buf);
	list = json_object_get(doc, "protocols");
	if (!json_is_array(list) || json_array_size(list) != wr_n_protos) {
		json_decref(doc);
		return oom(k);
	}
	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];
		json_t *po = json_array_get(list, i);
		json_t *fields = json_object_get(po, "fields");

		for (j = 0; j < p->n_fields; j++) {
			json_t *add = field_json(&p->fields[j], may_vary(p, j));

			json_object_update(json_array_get(fields, j), add);
			json_decref(add);
		}
		json_object_set_new(po, "opts", p->opts != NULL ?
				    opts_json(p->opts) : json_null());
		/* A raw layer's bytes are its own: `raw: {hex: "..."}`. */
		json_object_set_new(po, "raw", json_boolean(p->hlen == 0));
	}
	return doc;
}

/* A tree node as JSON: scalars as their text (the schema decides what
 * they mean, as the loader's does), mappings as objects in file order. */
static json_t *
ynode_json(const struct wr_ynode *n)
{
	json_t *o;
	size_t i;

	if (n->type == WR_YNODE_SCALAR)
		return json_stringn(n->str, n->len);
	if (n->type == WR_YNODE_SEQ) {
		o = json_array();
		for (i = 0; o != NULL && i < n->n_kids; i++)
			json_array_append_new(o, ynode_json(n->kids[i]));
		return o;
	}
	o = json_object();
	for (i = 0; o != NULL && i + 1 < n->n_kids; i += 2)
		json_object_setn_new(o, wr_ynode_text(n->kids[i]),
				     strlen(wr_ynode_text(n->kids[i])),
				     ynode_json(n->kids[i + 1]));
	return o;
}

/*
 * Where each node of the tree starts, for the page to keep the file's
 * comments beside the keys they stand by when the form rewrites the text
 * (web/builder.js): one [line, col, path...] per mapping key and per
 * sequence item, the path as the tree's keys and indexes.
 */
static void
ynode_at(const struct wr_ynode *n, json_t *path, json_t *out)
{
	size_t i;

	if (n->type == WR_YNODE_SCALAR)
		return;
	for (i = 0; i < n->n_kids; i++) {
		const struct wr_ynode *at = n->kids[i], *val = at;
		json_t *step, *e;

		if (n->type == WR_YNODE_MAP) {
			if (i % 2 != 0 || i + 1 >= n->n_kids)
				continue;
			val = n->kids[i + 1];
			step = json_string(wr_ynode_text(at));
		} else {
			step = json_integer((json_int_t)i);
		}
		json_array_append_new(path, step);
		e = json_pack("[I, I]", (json_int_t)at->line, (json_int_t)at->col);
		if (e != NULL) {
			json_array_extend(e, path);
			json_array_append_new(out, e);
		}
		ynode_at(val, path, out);
		json_array_remove(path, json_array_size(path) - 1);
	}
}

/* A key given twice or a key that is no scalar: the loader refuses both
 * (wr_ywalk_keys), and an object could not keep them apart. */
static int
tree_check(const char *file, const struct wr_ynode *n, struct wr_error *err)
{
	size_t i, j;
	int rc;

	if (n->type == WR_YNODE_SCALAR)
		return 0;
	for (i = 0; i < n->n_kids; i++) {
		const struct wr_ynode *c = n->kids[i];

		if (n->type == WR_YNODE_MAP && i % 2 == 0) {
			if (c->type != WR_YNODE_SCALAR)
				return wr_error_set(err, -EINVAL, file, c->line,
						    c->col, "", "a key must be "
						    "a scalar");
			for (j = 0; j < i; j += 2)
				if (strcmp(wr_ynode_text(n->kids[j]),
					   wr_ynode_text(c)) == 0)
					return wr_error_set(err, -EINVAL,
						file, c->line, c->col,
						wr_ynode_text(c),
						"duplicate key \"%s\"",
						wr_ynode_text(c));
			continue;
		}
		rc = tree_check(file, c, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* streams.parse: the editor's text as the tree the loader reads, so the
 * page's form follows the text; an error as streams.check reports it.
 * Read-only; an error is a result, not a JSON-RPC error. */
json_t *
wr_srv_m_parse(struct call *k)
{
	const char *name = wr_rpc_str(k->req, "name");
	const char *text = wr_rpc_str(k->req, "yaml");
	struct wr_ynode *root = NULL;
	struct wr_error err;
	char line[1024];
	json_t *res;
	int rc;

	wr_error_clear(&err);
	name = name ? name : "<streams.parse>";
	rc = wr_ytree_parse(name, text, strlen(text), &root, &err);
	if (rc == 0 && root != NULL)
		rc = tree_check(name, root, &err);
	if (rc == -ENOMEM) {
		wr_ytree_free(root);
		return oom(k);
	}
	if (rc != 0) {
		wr_ytree_free(root);
		return json_pack("{s:b, s:o}", "valid", 0, "error",
				 wr_srv_yaml_error_data(&err, line, sizeof(line)));
	}
	res = json_pack("{s:b, s:o, s:o}", "valid", 1, "tree",
			root != NULL ? ynode_json(root) : json_null(), "at",
			json_array());
	if (res != NULL && root != NULL) {
		json_t *path = json_array();

		if (path != NULL)
			ynode_at(root, path, json_object_get(res, "at"));
		json_decref(path);
	}
	wr_ytree_free(root);
	return res;
}

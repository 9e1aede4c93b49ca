/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_ytree: libyaml events to a located node tree, and the checked walk over it. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "wr_in.h"
#include "wr_parse.h"
#include "wr_ytree.h"

int
wr_ytree_read_file(const char *path, char **buf, size_t *len,
		   struct wr_error *err)
{
	char why[128];
	int rc;

	rc = wr_in_read(path, WR_YTREE_FILE_MAX, buf, len, why, sizeof(why));
	if (rc == 0)
		return 0;
	/* The codes the loaders' contracts name: a missing or forbidden
	 * file keeps its errno, anything else that stops us reading (not a
	 * regular file, too large, an I/O error) is -EIO; the message keeps
	 * the real reason. */
	if (rc == -ENOENT || rc == -EACCES)
		return wr_error_set(err, rc, path, 0, 0, NULL,
				    "cannot open: %s", why);
	return wr_error_set(err, rc == -ENOMEM ? rc : -EIO, path, 0, 0, NULL,
			    "cannot read: %s", why);
}

void
wr_ytree_free(struct wr_ynode *n)
{
	size_t i;

	if (n == NULL)
		return;
	for (i = 0; i < n->n_kids; i++)
		wr_ytree_free(n->kids[i]);
	free(n->kids);
	free(n->str);
	free(n);
}

static int
add_kid(struct wr_ynode *parent, struct wr_ynode *kid)
{
	struct wr_ynode **k;
	size_t cap;

	if (parent->n_kids == parent->cap_kids) {
		cap = parent->cap_kids ? parent->cap_kids * 2 : 8;
		k = realloc(parent->kids, cap * sizeof(*k));
		if (k == NULL)
			return -ENOMEM;
		parent->kids = k;
		parent->cap_kids = cap;
	}
	parent->kids[parent->n_kids++] = kid;
	return 0;
}

/* 1-based line/col of a byte offset, for reader errors that have no mark. */
static void
offset_mark(const char *buf, size_t len, size_t off, unsigned int *line,
	    unsigned int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int
syntax_error(const char *file, const char *buf, size_t len,
	     const yaml_parser_t *p, struct wr_error *err)
{
	unsigned int line, col;

	if (p->error == YAML_MEMORY_ERROR)
		return wr_error_set(err, -ENOMEM, file, 0, 0, NULL,
				    "out of memory parsing YAML");
	if (p->error == YAML_READER_ERROR) {
		offset_mark(buf, len, p->problem_offset, &line, &col);
		return wr_error_set(err, -EINVAL, file, line, col, NULL,
				    "invalid YAML: %s",
				    p->problem ? p->problem : "unreadable input");
	}
	line = (unsigned int)p->problem_mark.line + 1;
	col = (unsigned int)p->problem_mark.column + 1;
	if (p->context != NULL)
		return wr_error_set(err, -EINVAL, file, line, col, NULL,
				    "invalid YAML: %s (%s at line %u)",
				    p->problem ? p->problem : "syntax error",
				    p->context,
				    (unsigned int)p->context_mark.line + 1);
	return wr_error_set(err, -EINVAL, file, line, col, NULL,
			    "invalid YAML: %s",
			    p->problem ? p->problem : "syntax error");
}

/* Anchors, aliases and tags are refused: a profile or stream file is read
 * by people, and "*defaults" or "!!str" would make them resolve YAML in
 * their heads. */
static int
check_plain(const char *file, const yaml_event_t *ev, const yaml_char_t *anchor,
	    const yaml_char_t *tag, struct wr_error *err)
{
	unsigned int line = (unsigned int)ev->start_mark.line + 1;
	unsigned int col = (unsigned int)ev->start_mark.column + 1;

	if (anchor != NULL)
		return wr_error_set(err, -EINVAL, file, line, col, NULL,
				    "anchors (&%s) are not supported: write "
				    "the value out", (const char *)anchor);
	if (tag != NULL)
		return wr_error_set(err, -EINVAL, file, line, col, NULL,
				    "tags (%s) are not supported: write the "
				    "value without a tag", (const char *)tag);
	return 0;
}

int
wr_ytree_parse(const char *file, const char *buf, size_t len,
	       struct wr_ynode **rootp, struct wr_error *err)
{
	struct wr_ynode *stack[WR_YTREE_DEPTH_MAX];
	struct wr_ynode *root = NULL, *node;
	unsigned int depth = 0, docs = 0;
	yaml_parser_t p;
	yaml_event_t ev;
	bool done = false;
	const char *tab;
	unsigned int line, col;
	int rc = 0;

	*rootp = NULL;
	/* YAML forbids tabs in indentation but libyaml's message for it
	 * ("found character that cannot start any token") does not say so;
	 * and a tab elsewhere is invisible in review.  Refuse them all. */
	tab = memchr(buf, '\t', len);
	if (tab != NULL) {
		offset_mark(buf, len, (size_t)(tab - buf), &line, &col);
		return wr_error_set(err, -EINVAL, file, line, col, NULL,
				    "expected spaces, got a tab character "
				    "(write \\t in a double-quoted string "
				    "for a tab)");
	}
	if (!yaml_parser_initialize(&p))
		return wr_error_set(err, -ENOMEM, file, 0, 0, NULL,
				    "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = syntax_error(file, buf, len, &p, err);
			break;
		}
		node = NULL;
		line = (unsigned int)ev.start_mark.line + 1;
		col = (unsigned int)ev.start_mark.column + 1;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (docs++ > 0)
				rc = wr_error_set(err, -EINVAL, file, line, col,
						  NULL, "expected one YAML "
						  "document, found a second");
			break;
		case YAML_ALIAS_EVENT:
			rc = wr_error_set(err, -EINVAL, file, line, col, NULL,
					  "aliases (*%s) are not supported: "
					  "write the value out",
					  (const char *)ev.data.alias.anchor);
			break;
		case YAML_SCALAR_EVENT:
			rc = check_plain(file, &ev, ev.data.scalar.anchor,
					 ev.data.scalar.tag, err);
			if (rc != 0)
				break;
			node = calloc(1, sizeof(*node));
			if (node != NULL) {
				node->type = WR_YNODE_SCALAR;
				node->len = ev.data.scalar.length;
				node->str = malloc(node->len + 1);
				if (node->str == NULL) {
					free(node);
					node = NULL;
				} else {
					memcpy(node->str, ev.data.scalar.value,
					       node->len);
					node->str[node->len] = '\0';
				}
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (ev.type == YAML_SEQUENCE_START_EVENT)
				rc = check_plain(file, &ev,
						 ev.data.sequence_start.anchor,
						 ev.data.sequence_start.tag, err);
			else
				rc = check_plain(file, &ev,
						 ev.data.mapping_start.anchor,
						 ev.data.mapping_start.tag, err);
			if (rc != 0)
				break;
			if (depth == WR_YTREE_DEPTH_MAX) {
				rc = wr_error_set(err, -EINVAL, file, line, col,
						  NULL, "nested deeper than %u "
						  "levels", WR_YTREE_DEPTH_MAX);
				break;
			}
			node = calloc(1, sizeof(*node));
			if (node != NULL)
				node->type = ev.type == YAML_SEQUENCE_START_EVENT ?
						     WR_YNODE_SEQ : WR_YNODE_MAP;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		if (rc == 0 && (ev.type == YAML_SCALAR_EVENT ||
				ev.type == YAML_SEQUENCE_START_EVENT ||
				ev.type == YAML_MAPPING_START_EVENT)) {
			if (node == NULL) {
				rc = wr_error_set(err, -ENOMEM, file, 0, 0,
						  NULL, "out of memory");
			} else {
				node->line = line;
				node->col = col;
				if (depth == 0) {
					root = node;
				} else if (add_kid(stack[depth - 1], node) != 0) {
					wr_ytree_free(node);
					rc = wr_error_set(err, -ENOMEM, file,
							  0, 0, NULL,
							  "out of memory");
				}
				if (rc == 0 && node->type != WR_YNODE_SCALAR)
					stack[depth++] = node;
			}
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (rc != 0) {
		wr_ytree_free(root);
		return rc;
	}
	*rootp = root;
	return 0;
}

size_t
wr_ynode_size(const struct wr_ynode *n)
{
	if (n->type == WR_YNODE_MAP)
		return n->n_kids / 2;
	if (n->type == WR_YNODE_SEQ)
		return n->n_kids;
	return 0;
}

const char *
wr_ynode_text(const struct wr_ynode *n)
{
	if (n == NULL || n->type != WR_YNODE_SCALAR || strlen(n->str) != n->len)
		return "";
	return n->str;
}

const struct wr_ynode *
wr_ynode_get(const struct wr_ynode *map, const char *key)
{
	size_t i;

	if (map == NULL || map->type != WR_YNODE_MAP)
		return NULL;
	for (i = 0; i + 1 < map->n_kids; i += 2)
		if (map->kids[i]->type == WR_YNODE_SCALAR &&
		    strcmp(map->kids[i]->str, key) == 0)
			return map->kids[i + 1];
	return NULL;
}

void
wr_ywalk_init(struct wr_ywalk *w, const char *file, struct wr_error *err)
{
	w->file = file;
	w->err = err;
	w->pcap_dir = WR_YAML_PCAP_ANY; /* the command line's files */
	w->path[0] = '\0';
	w->plen = 0;
}

static void
path_append(struct wr_ywalk *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->plen >= sizeof(w->path) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->path + w->plen, sizeof(w->path) - w->plen, fmt, ap);
	va_end(ap);
	if (n > 0)
		w->plen += (size_t)n;
	if (w->plen > sizeof(w->path) - 1)
		w->plen = sizeof(w->path) - 1; /* truncated, still terminated */
}

size_t
wr_ywalk_push_key(struct wr_ywalk *w, const char *key)
{
	size_t old = w->plen;

	path_append(w, w->plen == 0 ? "%s" : ".%s", key);
	return old;
}

size_t
wr_ywalk_push_index(struct wr_ywalk *w, size_t i)
{
	size_t old = w->plen;

	path_append(w, "[%zu]", i);
	return old;
}

void
wr_ywalk_pop(struct wr_ywalk *w, size_t old_len)
{
	w->plen = old_len;
	w->path[old_len] = '\0';
}

int
wr_ywalk_fail(struct wr_ywalk *w, const struct wr_ynode *n, const char *fmt,
	      ...)
{
	char msg[WR_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return wr_error_set(w->err, -EINVAL, w->file, n ? n->line : 0,
			    n ? n->col : 0, w->path, "%s", msg);
}

/* What a node is, for "got ...": its text, quoted and shortened, with
 * control characters shown as '?' so the error stays one line. */
#define GOT_MAX 48

static void
describe(const struct wr_ynode *n, char *buf, size_t len)
{
	char text[GOT_MAX + 4];
	size_t i, k = 0;

	if (n->type == WR_YNODE_MAP) {
		snprintf(buf, len, "a mapping");
		return;
	}
	if (n->type == WR_YNODE_SEQ) {
		snprintf(buf, len, "a sequence");
		return;
	}
	for (i = 0; i < n->len && k < GOT_MAX; i++)
		text[k++] = (unsigned char)n->str[i] < 0x20 ? '?' : n->str[i];
	if (i < n->len) {
		memcpy(text + k, "...", 3);
		k += 3;
	}
	text[k] = '\0';
	snprintf(buf, len, "\"%s\"", text);
}

int
wr_ywalk_expected(struct wr_ywalk *w, const struct wr_ynode *n,
		  const char *what)
{
	char got[GOT_MAX + 8];

	describe(n, got, sizeof(got));
	return wr_ywalk_fail(w, n, "expected %s, got %s", what, got);
}

int
wr_ywalk_why(struct wr_ywalk *w, const struct wr_ynode *n, const char *why)
{
	char got[GOT_MAX + 8];

	describe(n, got, sizeof(got));
	return wr_ywalk_fail(w, n, "%s, got %s", why, got);
}

int
wr_ywalk_missing(struct wr_ywalk *w, const struct wr_ynode *map,
		 const char *key)
{
	return wr_ywalk_fail(w, map, "missing required key \"%s\"", key);
}

int
wr_ywalk_keys(struct wr_ywalk *w, const struct wr_ynode *n, const char *what,
	      const char *const *allowed)
{
	char list[WR_ERROR_MSG_MAX / 2];
	const struct wr_ynode *key;
	size_t i, j, old, k = 0;
	bool known;
	int rc;

	if (n->type != WR_YNODE_MAP)
		return wr_ywalk_expected(w, n, what);
	for (i = 0; i + 1 < n->n_kids; i += 2) {
		key = n->kids[i];
		if (key->type != WR_YNODE_SCALAR)
			return wr_ywalk_expected(w, key, "a key name");
		for (j = 0; j < i; j += 2) {
			if (strcmp(n->kids[j]->str, key->str) != 0)
				continue;
			old = wr_ywalk_push_key(w, key->str);
			rc = wr_ywalk_fail(w, key, "duplicate key \"%s\" "
					   "(first at line %u)", key->str,
					   n->kids[j]->line);
			wr_ywalk_pop(w, old);
			return rc;
		}
		known = false;
		for (j = 0; allowed[j] != NULL; j++)
			if (strcmp(allowed[j], key->str) == 0)
				known = true;
		if (known)
			continue;
		list[0] = '\0';
		k = 0;
		for (j = 0; allowed[j] != NULL && k < sizeof(list); j++) {
			int m = snprintf(list + k, sizeof(list) - k, "%s%s",
					 j ? ", " : "", allowed[j]);
			if (m > 0)
				k += (size_t)m;
		}
		old = wr_ywalk_push_key(w, key->str);
		rc = wr_ywalk_fail(w, key, "unknown key \"%.40s\"; expected "
				   "one of: %s", key->str, list);
		wr_ywalk_pop(w, old);
		return rc;
	}
	return 0;
}

int
wr_ywalk_scalar(struct wr_ywalk *w, const struct wr_ynode *n, const char *what)
{
	if (n->type != WR_YNODE_SCALAR)
		return wr_ywalk_expected(w, n, what);
	return 0;
}

int
wr_ywalk_u64(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t min,
	     uint64_t max, uint64_t *out)
{
	char why[WR_PARSE_WHY_MAX];

	/* A non-scalar reads as "", which yields the parser's own
	 * "expected ...", so both errors say the same thing. */
	if (wr_parse_u64(wr_ynode_text(n), min, max, out, why, sizeof(why)) == 0)
		return 0;
	return wr_ywalk_why(w, n, why);
}

int
wr_ywalk_bool(struct wr_ywalk *w, const struct wr_ynode *n, bool *out)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_parse_bool(wr_ynode_text(n), out, why, sizeof(why)) == 0)
		return 0;
	return wr_ywalk_why(w, n, why);
}

int
wr_ywalk_version(struct wr_ywalk *w, const struct wr_ynode *root,
		 unsigned int supported, unsigned int *out)
{
	const struct wr_ynode *v = wr_ynode_get(root, "version");
	char what[64];
	uint64_t ver;
	size_t old;
	int rc = 0;

	if (v == NULL)
		return wr_ywalk_missing(w, root, "version");
	old = wr_ywalk_push_key(w, "version");
	snprintf(what, sizeof(what), "version %u (the only version this "
		 "wirerate reads)", supported);
	if (wr_parse_u64(wr_ynode_text(v), supported, supported, &ver, NULL, 0) != 0)
		rc = wr_ywalk_expected(w, v, what);
	else
		*out = (unsigned int)ver;
	wr_ywalk_pop(w, old);
	return rc;
}

int
wr_ywalk_one_key(struct wr_ywalk *w, const struct wr_ynode *n,
		 const char *what, const char *const *allowed,
		 const struct wr_ynode **body)
{
	const char *key;
	int rc, i;

	rc = wr_ywalk_keys(w, n, what, allowed);
	if (rc != 0)
		return rc;
	if (wr_ynode_size(n) == 0)
		return wr_ywalk_expected(w, n, what);
	if (wr_ynode_size(n) > 1) {
		size_t old = wr_ywalk_push_key(w, n->kids[2]->str);

		rc = wr_ywalk_fail(w, n->kids[2], "expected one key, got both \"%s\" "
				   "and \"%s\"", n->kids[0]->str,
				   n->kids[2]->str);
		wr_ywalk_pop(w, old);
		return rc;
	}
	key = n->kids[0]->str;
	for (i = 0; allowed[i] != NULL; i++)
		if (strcmp(allowed[i], key) == 0)
			break;
	*body = n->kids[1];
	return i;
}

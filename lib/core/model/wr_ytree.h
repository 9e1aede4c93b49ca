/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_ytree: located YAML node tree and checked walk shared by both loaders (internal). */
#ifndef WR_YTREE_H
#define WR_YTREE_H

/**
 * @file
 * Internal to lib/core: wr_yaml.c and wr_config.c read their files through
 * this, so both have the same YAML subset and the same error discipline.
 *
 * wr_ytree_parse() turns a buffer into a tree of scalars, sequences and
 * mappings, each node with its 1-based line and column.  It accepts one
 * document of plain YAML and refuses, with a located error, what a
 * configuration file does not need and what makes one file mean two things:
 * tab characters, anchors and aliases, explicit tags, several documents,
 * nesting deeper than WR_YTREE_DEPTH_MAX.  Scalars are kept as text; the
 * schema decides what they mean (wr_parse.h).
 *
 * A struct wr_ywalk carries the file name, the key path of the node being
 * read ("streams[1].ipv4.src") and the error to fill, so every schema check
 * reports `file:line:col: path: expected X, got "Y"`.
 *
 * Thread-safety: reentrant; no global state.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_in.h"

/** Deeper nesting than any wirerate file needs is refused (and keeps the
 * recursive free and walk bounded). */
#define WR_YTREE_DEPTH_MAX 32
/** Files larger than this are refused (wr_in.h). */
#define WR_YTREE_FILE_MAX WR_IN_YAML_MAX

enum wr_ynode_type {
	WR_YNODE_SCALAR,
	WR_YNODE_SEQ,
	WR_YNODE_MAP,
};

struct wr_ynode {
	enum wr_ynode_type type;
	unsigned int line; /**< 1-based */
	unsigned int col;  /**< 1-based */
	char *str;         /**< SCALAR: NUL-terminated text */
	size_t len;        /**< SCALAR: length of str */
	/** SEQ: the items; MAP: key, value, key, value, ... (keys may be
	 * non-scalars here; wr_ywalk_keys() refuses them). */
	struct wr_ynode **kids;
	size_t n_kids;
	size_t cap_kids;
};

/**
 * Read a whole file into a malloc'd, NUL-terminated buffer: a regular
 * file only, at most WR_YTREE_FILE_MAX bytes (wr_in_read()).
 * @return 0, -ENOENT, -EACCES, -ENOMEM, or -EIO for anything else that
 *         stops the read (a directory, a FIFO, a device, a file over
 *         WR_YTREE_FILE_MAX, an I/O error); @p err names the path and the
 *         real reason
 */
int wr_ytree_read_file(const char *path, char **buf, size_t *len,
		       struct wr_error *err);

/**
 * Parse @p buf (one YAML document) into a tree.
 * @param file  name used in errors
 * @param root  set to the tree (free with wr_ytree_free()), or NULL for a
 *              file with no document at all (empty, or comments only)
 * @return 0, -EINVAL (@p err set), -ENOMEM
 */
int wr_ytree_parse(const char *file, const char *buf, size_t len,
		   struct wr_ynode **root, struct wr_error *err);

/** Free a tree.  NULL-safe. */
void wr_ytree_free(struct wr_ynode *n);

/** Number of entries of a mapping (pairs) or sequence (items). */
size_t wr_ynode_size(const struct wr_ynode *n);

/**
 * The text of a scalar, or "" when @p n is not a scalar or its text holds a
 * NUL (a "\0" escape): value parsers then refuse it instead of reading a
 * prefix.
 */
const char *wr_ynode_text(const struct wr_ynode *n);

/** The value of @p key in a mapping (first occurrence), or NULL. */
const struct wr_ynode *wr_ynode_get(const struct wr_ynode *map,
				    const char *key);

/** wr_yaml_load_streams_at()'s @p pcap_dir, and wr_ywalk.pcap_dir's:
 * pcap: names any path (the command line's files), or none at all. */
#define WR_YAML_PCAP_ANY (-1)
#define WR_YAML_PCAP_NONE (-2)

/** Where a walk is and where its errors go. */
struct wr_ywalk {
	const char *file;
	struct wr_error *err;
	int pcap_dir;                /**< wr_yaml_load_streams_at()'s; init: any */
	char path[WR_ERROR_PATH_MAX];
	size_t plen;
};

/** Start walking @p file at its root; errors go to @p err. */
void wr_ywalk_init(struct wr_ywalk *w, const char *file, struct wr_error *err);

/** Append ".key" (or "key" at the root) to the path; @return the old length
 * for wr_ywalk_pop(). */
size_t wr_ywalk_push_key(struct wr_ywalk *w, const char *key);
/** Append "[i]". */
size_t wr_ywalk_push_index(struct wr_ywalk *w, size_t i);
/** Back to the path @p old_len long (what a push returned). */
void wr_ywalk_pop(struct wr_ywalk *w, size_t old_len);

/**
 * Evaluate @p expr (an int-returning check) with @p key pushed on the path
 * of @p w, so an error it reports names that key; pops it again.  A GNU
 * statement expression (the project builds as gnu11).
 */
#define WR_YWALK_KEY(w, key, expr)                              \
	({                                                      \
		size_t old_ = wr_ywalk_push_key((w), (key));    \
		int rc_ = (expr);                               \
		wr_ywalk_pop((w), old_);                        \
		rc_;                                            \
	})

/** Fill the error at @p n (line/col) with the current path. @return -EINVAL */
int wr_ywalk_fail(struct wr_ywalk *w, const struct wr_ynode *n,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** "expected <what>, got "<scalar>"" (or "got a mapping" / "got a
 * sequence") at @p n.  @return -EINVAL */
int wr_ywalk_expected(struct wr_ywalk *w, const struct wr_ynode *n,
		      const char *what);

/** A value parser's @p why ("expected ...") followed by ", got ..." at @p n.
 * @return -EINVAL */
int wr_ywalk_why(struct wr_ywalk *w, const struct wr_ynode *n, const char *why);

/**
 * Check that @p n is a mapping whose keys are scalars, unique, and in
 * @p allowed (a NULL-terminated list).  A duplicate or unknown key is
 * reported at the key with the path of that key; an unknown key's message
 * lists the allowed ones.  @p what names the mapping for a type error.
 * @return 0 or -EINVAL
 */
int wr_ywalk_keys(struct wr_ywalk *w, const struct wr_ynode *n,
		  const char *what, const char *const *allowed);

/**
 * Error for a required key that is absent from mapping @p map (reported at
 * the mapping).  @return -EINVAL
 */
int wr_ywalk_missing(struct wr_ywalk *w, const struct wr_ynode *map,
		     const char *key);

/**
 * A mapping with exactly one key out of @p allowed (NULL-terminated: a
 * vary mode, a size mode, a payload kind); @p what is what an error says
 * was expected.  @return the index of its key in @p allowed, or -EINVAL
 * with the error at @p n; @p *body is the key's value.
 */
int wr_ywalk_one_key(struct wr_ywalk *w, const struct wr_ynode *n,
		     const char *what, const char *const *allowed,
		     const struct wr_ynode **body);

/** @p n must be a scalar; else "expected <what>, got a mapping".
 * @return 0, or -EINVAL with the error at @p n. */
int wr_ywalk_scalar(struct wr_ywalk *w, const struct wr_ynode *n,
		    const char *what);

/** A scalar integer in [@p min, @p max] (wr_parse_u64) into @p out.
 * @return 0, or -EINVAL with the error at @p n. */
int wr_ywalk_u64(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t min,
		 uint64_t max, uint64_t *out);

/** A scalar boolean (wr_parse_bool) into @p out.
 * @return 0, or -EINVAL with the error at @p n. */
int wr_ywalk_bool(struct wr_ywalk *w, const struct wr_ynode *n, bool *out);

/**
 * The `version:` key of a root mapping: required, and equal to @p supported.
 * Checked before any other key, since another version may have other keys.
 * @return 0 and *@p out, or -EINVAL (absent, not a number, another
 *         version) with the error at the key.
 */
int wr_ywalk_version(struct wr_ywalk *w, const struct wr_ynode *root,
		     unsigned int supported, unsigned int *out);

#endif /* WR_YTREE_H */

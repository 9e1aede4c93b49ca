/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_out: result files written whole, the checks of every output, the live log, JSON strings. */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wr_clock.h"
#include "wr_in.h"
#include "wr_out.h"

/* Tries at a fresh temporary name before giving up (each one is random:
 * a clash means another writer at the same instant). */
#define TMP_TRIES 64

/*
 * Create a temporary file beside @p path: "PATH.XXXXXX", O_EXCL with mode
 * 0666 (the umask applies, as for any created file; mkstemp's 0600 would
 * need a chmod that ignores it).  @return its descriptor, or -errno.
 */
static int
tmp_create(const char *path, char *tmp, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	struct timespec ts;
	uint64_t x;
	int fd, i, k;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull ^
	    (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32 ^
	    (uint64_t)(uintptr_t)tmp;
	for (i = 0; i < TMP_TRIES; i++) {
		char sfx[7];

		for (k = 0; k < 6; k++) {
			/* xorshift64: names, not secrets. */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sfx[k] = chars[x % (sizeof(chars) - 1)];
		}
		sfx[6] = '\0';
		if (snprintf(tmp, len, "%s.%s", path, sfx) >= (int)len)
			return -ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd >= 0 ? fd : -errno;
	}
	return -EEXIST;
}

/* @p st describes something a result may not replace. */
static int
not_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return 0;
	return S_ISDIR(st->st_mode) ? -EISDIR : -ENODEV;
}

int
wr_out_tmp_open(struct wr_out_tmp *o, const char *path)
{
	o->fd = -1;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >=
	    (int)sizeof(o->path))
		return -ENAMETOOLONG;
	o->fd = tmp_create(path, o->tmp, sizeof(o->tmp));
	return o->fd < 0 ? o->fd : 0;
}

int
wr_out_tmp_commit(struct wr_out_tmp *o)
{
	struct stat st;
	int rc = 0;

	if (o->fd < 0)
		return -EBADF;
	if (fsync(o->fd) != 0)
		rc = -errno;
	if (close(o->fd) != 0 && rc == 0)
		rc = -errno;
	o->fd = -1;
	/* Checked before the run too; again here, for what changed since
	 * and for writers that did not check: never replace a device. */
	if (rc == 0 && stat(o->path, &st) == 0)
		rc = not_regular(&st);
	if (rc == 0 && rename(o->tmp, o->path) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(o->tmp);
	return rc;
}

void
wr_out_tmp_abort(struct wr_out_tmp *o)
{
	if (o->fd < 0)
		return;
	close(o->fd);
	o->fd = -1;
	unlink(o->tmp);
}

int
wr_out_atomic(const char *path, int (*fn)(FILE *out, const void *arg),
	      const void *arg)
{
	struct wr_out_tmp o;
	FILE *f;
	int fd, rc;

	rc = wr_out_tmp_open(&o, path);
	if (rc != 0)
		return rc;
	/* The stream gets its own descriptor: the commit closes o.fd. */
	fd = dup(o.fd);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f == NULL) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		wr_out_tmp_abort(&o);
		return rc;
	}
	rc = fn(f, arg);
	if (fflush(f) != 0 && rc == 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0) {
		wr_out_tmp_abort(&o);
		return rc;
	}
	return wr_out_tmp_commit(&o);
}

int
wr_out_check(const char *path)
{
	char tmp[PATH_MAX + 8];
	struct stat st;
	int fd;

	if (path == NULL || path[0] == '\0')
		return -ENOENT;
	if (stat(path, &st) == 0) {
		if (not_regular(&st) != 0)
			return not_regular(&st);
		if (access(path, W_OK) != 0)
			return -errno;
	}
	/* What wr_out_atomic() will do: a temporary file beside it. */
	fd = tmp_create(path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	close(fd);
	unlink(tmp);
	return 0;
}

/* Which file a path is: its device and inode when it exists, else its
 * directory resolved and its name. */
struct out_id {
	bool exists, known, regular;
	dev_t dev;
	ino_t ino;
	char real[PATH_MAX + NAME_MAX + 2];
};

static void
out_id(const char *path, struct out_id *id)
{
	char dir[PATH_MAX], rdir[PATH_MAX];
	const char *slash, *base;
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st) == 0) {
		id->exists = id->known = true;
		id->regular = S_ISREG(st.st_mode);
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (base[0] == '\0' || realpath(dir, rdir) == NULL)
		return;
	snprintf(id->real, sizeof(id->real), "%s/%s",
		 strcmp(rdir, "/") == 0 ? "" : rdir, base);
	id->known = true;
}

static bool
out_same(const struct out_id *a, const struct out_id *b)
{
	if (!a->known || !b->known || a->exists != b->exists)
		return false;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->real, b->real) == 0;
}

/* Why @p path cannot be written, for @p rc from wr_out_check(). */
static void
out_reason(const char *path, int rc, char *buf, size_t len)
{
	struct stat st;

	if ((rc == -ENODEV || rc == -EISDIR) && stat(path, &st) == 0)
		snprintf(buf, len, "%s, not a regular file",
			 wr_in_kind(st.st_mode));
	else
		snprintf(buf, len, "%s", strerror(-rc));
}

int
wr_out_check_files(const struct wr_out_file *files, unsigned int n,
		   char *why, size_t why_len)
{
	struct out_id *ids = calloc(n ? n : 1, sizeof(*ids));
	char reason[128];
	unsigned int i, j;
	int rc = 0;

	if (ids == NULL) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < n && rc == 0; i++) {
		const struct wr_out_file *o = &files[i];

		if (o->path == NULL)
			continue;
		if (o->use == WR_OUT_INPUT) {
			struct stat st;

			/* Found now, before anything starts, as its loader
			 * would (wr_in.h). */
			if (stat(o->path, &st) == 0 && !S_ISREG(st.st_mode)) {
				snprintf(why, why_len, "%s %s: cannot read: "
					 "%s, not a regular file", o->what,
					 o->path, wr_in_kind(st.st_mode));
				rc = not_regular(&st);
				break;
			}
		}
		if (o->use != WR_OUT_INPUT) {
			rc = wr_out_check(o->path);
			if (rc != 0) {
				out_reason(o->path, rc, reason,
					   sizeof(reason));
				snprintf(why, why_len, "%s %s: cannot write "
					 "there: %s", o->what, o->path, reason);
				break;
			}
		}
		out_id(o->path, &ids[i]);
	}
	/* Each output against every input and every output before it. */
	for (i = 0; i < n && rc == 0; i++) {
		const struct wr_out_file *o = &files[i];

		if (o->path == NULL || o->use == WR_OUT_INPUT)
			continue;
		for (j = 0; j < n; j++) {
			const struct wr_out_file *x = &files[j];

			if (j == i || x->path == NULL ||
			    (x->use != WR_OUT_INPUT && j > i) ||
			    !out_same(&ids[i], &ids[j]))
				continue;
			snprintf(why, why_len, "%s %s: the same file as %s "
				 "%s: %s", o->what, o->path, x->what, x->path,
				 x->use == WR_OUT_INPUT ? "an output never "
				 "overwrites an input" : "each output needs a "
				 "path of its own");
			rc = -EEXIST;
			break;
		}
	}
	free(ids);
	return rc;
}

int
wr_out_pcap_devargs(char *const *args, int n_args, struct wr_out_file *files,
		    unsigned int cap, unsigned int *n, char **paths)
{
	static const struct {
		const char *key, *what;
		enum wr_out_use use;
	} keys[] = {
		{ "tx_pcap=", "net_pcap's tx_pcap", WR_OUT_FOREIGN },
		{ "rx_pcap=", "net_pcap's rx_pcap", WR_OUT_INPUT },
	};
	size_t room = 0, len;
	const char *at, *end;
	char *block = NULL, *w = NULL;
	unsigned int k;
	int i;

	if (files != NULL)
		*paths = NULL;
	/* Every path is a piece of an argument: their lengths bound it. */
	for (i = 0; files != NULL && i < n_args; i++)
		room += strlen(args[i]) + 1;
	if (room > 0) {
		block = w = malloc(room);
		if (block == NULL)
			return -ENOMEM;
	}
	for (i = 0; i < n_args; i++) {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			for (at = strstr(args[i], keys[k].key); at != NULL;
			     at = strstr(at + 1, keys[k].key)) {
				if (at != args[i] && at[-1] != ',')
					continue;
				if (files == NULL) {
					(*n)++;
					continue;
				}
				if (*n == cap) {
					free(block);
					return -E2BIG;
				}
				at += strlen(keys[k].key);
				end = strchr(at, ',');
				len = end != NULL ? (size_t)(end - at) :
				      strlen(at);
				memcpy(w, at, len);
				w[len] = '\0';
				files[(*n)++] = (struct wr_out_file){
					keys[k].what, w, keys[k].use };
				w += len + 1;
			}
		}
	}
	if (block != NULL && w == block) {
		free(block);
		block = NULL;
	}
	if (files != NULL)
		*paths = block;
	return 0;
}

int
wr_out_log_open(const char *path, FILE **f)
{
	struct stat st;
	int fd, rc;

	/* Not O_TRUNC: what the path is is looked at first.  O_NONBLOCK:
	 * a FIFO with no reader does not block the open. */
	fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC |
		  O_NOCTTY, 0666);
	if (fd < 0)
		/* ENXIO: a FIFO with no reader (or a device with none). */
		return errno == ENXIO ? -ENODEV : -errno;
	if (fstat(fd, &st) != 0)
		rc = -errno;
	else
		rc = not_regular(&st);
	if (rc == 0 && (ftruncate(fd, 0) != 0 ||
			fcntl(fd, F_SETFL, 0) != 0))
		rc = -errno;
	if (rc == 0) {
		*f = fdopen(fd, "w");
		if (*f == NULL)
			rc = -errno;
	}
	if (rc != 0)
		close(fd);
	return rc;
}

int
wr_out_log_close(const char *path, FILE *f, bool keep)
{
	int rc = 0;

	if (f != NULL && fclose(f) != 0)
		rc = -errno;
	if (rc != 0 || !keep)
		unlink(path);
	return rc;
}

/* Length of the well-formed UTF-8 sequence at @p s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if it is not one. */
static unsigned int
utf8_len(const unsigned char *s)
{
	unsigned int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void
wr_out_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int n;

	if (s == NULL) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p != '\0') {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		n = utf8_len(p);
		if (n == 0) {
			/* Not UTF-8 (a file name in another encoding): the
			 * byte as U+00XX keeps the output valid and the byte
			 * recoverable. */
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		/* U+2028 and U+2029 are valid in JSON but end lines for
		 * JavaScript and some line-based readers. */
		if (n == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			fprintf(out, "\\u%04x", 0x2000 | (p[2] - 0x80));
			p += 3;
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
	fputc('"', out);
}

static void
tsc_text(FILE *out, const void *arg)
{
	wr_tsc_cal_json(out, arg);
}

/* "key": "value", unless @p val is NULL. */
static void
head_str(const struct wr_sink *s, const char *key, const char *val)
{
	if (val != NULL)
		s->ops->str(s->ctx, key, val);
}

void
wr_out_head_emit(const struct wr_sink *s, const struct wr_out_head *h)
{
	s->ops->str(s->ctx, "schema", h->schema);
	head_str(s, "wirerate_version", h->wirerate_version);
	head_str(s, "dpdk_version", h->dpdk_version);
	head_str(s, "stream_file", h->stream_file);
	head_str(s, "stream_file_sha256", h->stream_sha256);
	head_str(s, "stream", h->stream);
	head_str(s, "config_file", h->config_file);
	if (h->has_seed)
		s->ops->u64(s->ctx, "seed", h->seed);
	head_str(s, "started_at", h->started_at);
	head_str(s, "finished_at", h->finished_at);
	head_str(s, "stop_reason", h->stop_reason);
	if (h->tsc != NULL)
		s->ops->text(s->ctx, "tsc", tsc_text, h->tsc);
	else
		s->ops->null(s->ctx, "tsc");
}

void
wr_out_json_head(FILE *out, const struct wr_out_head *h)
{
	struct wr_sink_file fs;
	struct wr_sink s;

	/* The object stays open: the caller writes its own members, each
	 * introduced by ",\n  ", and closes it. */
	wr_sink_file_init(&fs, &s, out, true);
	s.ops->open(s.ctx, NULL, false);
	wr_out_head_emit(&s, h);
}

/* ---- JSON text ---- */

/* The separator before a value and its key.  Pretty: the outermost
 * object a member a line, and each object in one of its arrays a line. */
static void
file_key(struct wr_sink_file *fs, const char *key, bool opens_object)
{
	unsigned int d = fs->depth;

	if (fs->pretty && (d == 1 || (d == 2 && opens_object && key == NULL))) {
		fprintf(fs->f, "%s\n%*s", fs->first[d] ? "" : ",", (int)(2 * d),
			"");
		fs->broke[d] = true;
	} else if (!fs->first[d]) {
		fputs(", ", fs->f);
	}
	fs->first[d] = false;
	if (key != NULL) {
		wr_out_json_str(fs->f, key);
		fputs(": ", fs->f);
	}
}

static void
file_u64(void *ctx, const char *key, uint64_t v)
{
	struct wr_sink_file *fs = ctx;

	file_key(fs, key, false);
	fprintf(fs->f, "%llu", (unsigned long long)v);
}

static void
file_f64(void *ctx, const char *key, double v, int decimals)
{
	struct wr_sink_file *fs = ctx;

	file_key(fs, key, false);
	if (!isfinite(v))
		fputs("null", fs->f);
	else if (decimals < 0)
		fprintf(fs->f, "%g", v);
	else
		fprintf(fs->f, "%.*f", decimals, v);
}

static void
file_str(void *ctx, const char *key, const char *s)
{
	struct wr_sink_file *fs = ctx;

	file_key(fs, key, false);
	wr_out_json_str(fs->f, s);
}

static void
file_bool(void *ctx, const char *key, bool b)
{
	struct wr_sink_file *fs = ctx;

	file_key(fs, key, false);
	fputs(b ? "true" : "false", fs->f);
}

static void
file_null(void *ctx, const char *key)
{
	struct wr_sink_file *fs = ctx;

	file_key(fs, key, false);
	fputs("null", fs->f);
}

static void
file_open(void *ctx, const char *key, bool array)
{
	struct wr_sink_file *fs = ctx;

	if (fs->depth > 0)
		file_key(fs, key, !array);
	fputc(array ? '[' : '{', fs->f);
	if (fs->depth < WR_SINK_DEPTH)
		fs->depth++;
	fs->first[fs->depth] = true;
	fs->broke[fs->depth] = false;
}

static void
file_close(void *ctx, bool array)
{
	struct wr_sink_file *fs = ctx;

	if (fs->broke[fs->depth])
		fprintf(fs->f, "\n%*s", (int)(2 * (fs->depth - 1)), "");
	fputc(array ? ']' : '}', fs->f);
	if (fs->depth > 0)
		fs->depth--;
}

static void
file_text(void *ctx, const char *key, void (*w)(FILE *out, const void *arg),
	  const void *arg)
{
	struct wr_sink_file *fs = ctx;

	file_key(fs, key, false);
	w(fs->f, arg);
}

static const struct wr_sink_ops file_ops = {
	.u64 = file_u64, .f64 = file_f64, .str = file_str,
	.boolean = file_bool, .null = file_null, .open = file_open,
	.close = file_close, .text = file_text,
};

void
wr_sink_file_init(struct wr_sink_file *fs, struct wr_sink *s, FILE *f,
		  bool pretty)
{
	memset(fs, 0, sizeof(*fs));
	fs->f = f;
	fs->pretty = pretty;
	s->ops = &file_ops;
	s->ctx = fs;
}

/* ---- jansson tree ---- */

static void
tree_put(struct wr_sink_tree *ts, const char *key, json_t *v)
{
	json_t *top = ts->depth > 0 ? ts->stack[ts->depth - 1] : NULL;
	int rc;

	if (v == NULL) {
		ts->oom = true;
		return;
	}
	if (top == NULL) {
		json_decref(v);
		return;
	}
	rc = json_is_array(top) ? json_array_append_new(top, v) :
		json_object_set_new(top, key, v);
	if (rc != 0)
		ts->oom = true;
}

static void
tree_u64(void *ctx, const char *key, uint64_t v)
{
	tree_put(ctx, key, json_integer(v > INT64_MAX ? INT64_MAX :
					(json_int_t)v));
}

static void
tree_f64(void *ctx, const char *key, double v, int decimals)
{
	double p;

	if (!isfinite(v)) {
		tree_put(ctx, key, json_null());
		return;
	}
	/* The value the text would hold: rounded as it writes it. */
	if (decimals >= 0) {
		p = pow(10, decimals);
		v = round(v * p) / p;
	}
	tree_put(ctx, key, json_real(v));
}

static void
tree_str(void *ctx, const char *key, const char *s)
{
	tree_put(ctx, key, s != NULL ? json_string(s) : json_null());
}

static void
tree_bool(void *ctx, const char *key, bool b)
{
	tree_put(ctx, key, json_boolean(b));
}

static void
tree_null(void *ctx, const char *key)
{
	tree_put(ctx, key, json_null());
}

static void
tree_open(void *ctx, const char *key, bool array)
{
	struct wr_sink_tree *ts = ctx;
	json_t *o = array ? json_array() : json_object();

	if (o == NULL || ts->depth >= WR_SINK_DEPTH) {
		json_decref(o);
		ts->oom = true;
		return;
	}
	if (ts->root == NULL)
		ts->root = json_incref(o);
	else
		tree_put(ts, key, json_incref(o));
	ts->stack[ts->depth++] = o;
}

static void
tree_close(void *ctx, bool array)
{
	struct wr_sink_tree *ts = ctx;

	(void)array;
	if (ts->depth > 0)
		json_decref(ts->stack[--ts->depth]);
}

/* A value only another module writes, as text (the TSC's calibration,
 * a few members): the one place a tree reads JSON text back. */
static void
tree_text(void *ctx, const char *key, void (*w)(FILE *out, const void *arg),
	  const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL) {
		tree_put(ctx, key, NULL);
		return;
	}
	w(f, arg);
	fclose(f);
	tree_put(ctx, key, json_loadb(buf, len, 0, NULL));
	free(buf);
}

static const struct wr_sink_ops tree_ops = {
	.u64 = tree_u64, .f64 = tree_f64, .str = tree_str,
	.boolean = tree_bool, .null = tree_null, .open = tree_open,
	.close = tree_close, .text = tree_text,
};

void
wr_sink_tree_init(struct wr_sink_tree *ts, struct wr_sink *s)
{
	memset(ts, 0, sizeof(*ts));
	s->ops = &tree_ops;
	s->ctx = ts;
}

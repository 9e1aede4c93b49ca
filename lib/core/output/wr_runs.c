/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_runs: the runs a server keeps, one two-line JSON file each in a directory (wr_runs.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_runs.h"

/* Room for "run-" + 20 digits + ".json" and the temporary's dot and ".tmp". */
#define NAME_MAX_ 48

static void
run_name(uint64_t id, bool tmp, char *buf, size_t len)
{
	snprintf(buf, len, "%srun-%" PRIu64 ".json%s", tmp ? "." : "", id,
		 tmp ? ".tmp" : "");
}

/* "run-ID.json" exactly as run_name() writes it (no leading zeros, no
 * sign): two names never stand for one id. */
static bool
name_id(const char *name, uint64_t *id)
{
	char back[NAME_MAX_], *end;
	unsigned long long v;

	if (strncmp(name, "run-", 4) != 0 || name[4] < '0' || name[4] > '9')
		return false;
	errno = 0;
	v = strtoull(name + 4, &end, 10);
	if (errno != 0 || strcmp(end, ".json") != 0 || v == 0)
		return false;
	run_name(v, false, back, sizeof(back));
	if (strcmp(back, name) != 0)
		return false;
	*id = v;
	return true;
}

int
wr_runs_default_dir(uid_t uid, const char *xdg_state, const char *home,
		    char *buf, size_t len)
{
	int n;

	if (uid == 0)
		n = snprintf(buf, len, "/var/lib/wirerate/runs");
	else if (xdg_state != NULL && xdg_state[0] == '/')
		n = snprintf(buf, len, "%s/wirerate/runs", xdg_state);
	else if (home != NULL && home[0] == '/')
		n = snprintf(buf, len, "%s/.local/state/wirerate/runs", home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* mkdir -p, each missing level 0750 (runs say what a lab ran: not every
 * user's to read). */
static int
make_dirs(const char *dir)
{
	char p[WR_RUNS_PATH_MAX];
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof(p))
		return -ENAMETOOLONG;
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0750) != 0 && errno != EEXIST)
			return -errno;
		p[i] = i < n ? '/' : '\0';
	}
	return 0;
}

int
wr_runs_dir_check(const char *dir, struct wr_error *err)
{
	struct stat sb;
	int rc;

	if (dir == NULL || dir[0] == '\0')
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--runs-dir",
				    "expected a directory, got \"\"");
	if (strlen(dir) >= WR_RUNS_PATH_MAX - NAME_MAX_)
		return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0, "--runs-dir",
				    "%.64s...: a path of %d bytes at most",
				    dir, WR_RUNS_PATH_MAX - NAME_MAX_ - 1);
	if (stat(dir, &sb) != 0) {
		if (errno != ENOENT)
			return wr_error_set(err, -errno, NULL, 0, 0, "--runs-dir",
					    "%s: %s", dir, strerror(errno));
		rc = make_dirs(dir);
		if (rc != 0)
			return wr_error_set(err, rc, NULL, 0, 0, "--runs-dir",
					    "%s: cannot make it: %s", dir,
					    strerror(-rc));
		if (stat(dir, &sb) != 0)
			return wr_error_set(err, -errno, NULL, 0, 0, "--runs-dir",
					    "%s: %s", dir, strerror(errno));
	}
	if (!S_ISDIR(sb.st_mode))
		return wr_error_set(err, -ENOTDIR, NULL, 0, 0, "--runs-dir",
				    "%s: expected a directory wirerate can "
				    "write to, found a file", dir);
	if (access(dir, W_OK | X_OK) != 0)
		return wr_error_set(err, -EACCES, NULL, 0, 0, "--runs-dir",
				    "%s: expected a directory wirerate can "
				    "write to: %s", dir, strerror(errno));
	return 0;
}

/* Line @p want (1 or 2) of @p f, parsed; NULL with @p err naming the file. */
static json_t *
read_line(FILE *f, const char *path, unsigned int want, size_t max,
	  struct wr_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = 0;
	unsigned int i;
	json_error_t je;
	json_t *j;

	for (i = 0; i < want; i++) {
		n = getline(&line, &cap, f);
		if (n < 0 || (i == 0 && (size_t)n > max))
			break;
	}
	if (n < 0 || i < want) {
		free(line);
		wr_error_set(err, -EBADMSG, path, i + 1, 0, NULL, "not a run: "
			     "%s", n < 0 ? "the file ends before this line" :
			     "its first line is too long");
		return NULL;
	}
	j = json_loadb(line, (size_t)n, 0, &je);
	free(line);
	if (!json_is_object(j)) {
		wr_error_set(err, -EBADMSG, path, want, j ? 1 : (unsigned int)
			     je.column, NULL, "not a run: %s", j ?
			     "expected a JSON object" : je.text);
		json_decref(j);
		return NULL;
	}
	return j;
}

static FILE *
open_run(const struct wr_runs *r, uint64_t id, char *path, size_t len)
{
	char name[NAME_MAX_];
	int fd;

	run_name(id, false, name, sizeof(name));
	snprintf(path, len, "%s/%s", r->dir, name);
	fd = openat(r->dirfd, name, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? NULL : fdopen(fd, "r");
}

/* The entry of run @p id, checked to be the run its name says. */
static json_t *
load_entry(const struct wr_runs *r, uint64_t id, struct wr_error *err)
{
	char path[WR_RUNS_PATH_MAX + NAME_MAX_];
	FILE *f = open_run(r, id, path, sizeof(path));
	json_t *e;

	if (f == NULL) {
		wr_error_set(err, -errno, path, 0, 0, NULL, "%s",
			     strerror(errno));
		return NULL;
	}
	e = read_line(f, path, 1, WR_RUNS_ENTRY_MAX, err);
	fclose(f);
	if (e != NULL && json_integer_value(json_object_get(e, "id")) !=
	    (json_int_t)id) {
		wr_error_set(err, -EBADMSG, path, 1, 1, NULL, "not a run: "
			     "expected \"id\": %" PRIu64 " as its name says",
			     id);
		json_decref(e);
		return NULL;
	}
	return e;
}

static int
ent_cmp(const void *a, const void *b)
{
	const struct wr_runs_ent *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int
ent_add(struct wr_runs *r, uint64_t id, json_t *entry)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct wr_runs_ent *n = realloc(r->ents, cap * sizeof(*n));

		if (n == NULL)
			return -ENOMEM;
		r->ents = n;
		r->cap = cap;
	}
	r->ents[r->n].id = id;
	r->ents[r->n].entry = entry;
	r->n++;
	return 0;
}

static ssize_t
ent_find(const struct wr_runs *r, uint64_t id)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t m = (lo + hi) / 2;

		if (r->ents[m].id == id)
			return (ssize_t)m;
		if (r->ents[m].id < id)
			lo = m + 1;
		else
			hi = m;
	}
	return -1;
}

static int
ent_remove(struct wr_runs *r, size_t i)
{
	char name[NAME_MAX_];
	int rc = 0;

	run_name(r->ents[i].id, false, name, sizeof(name));
	if (unlinkat(r->dirfd, name, 0) != 0 && errno != ENOENT)
		rc = -errno;
	json_decref(r->ents[i].entry);
	memmove(&r->ents[i], &r->ents[i + 1], (r->n - i - 1) * sizeof(*r->ents));
	r->n--;
	return rc;
}

/* The oldest go until @c max are left. */
static void
prune(struct wr_runs *r)
{
	while (r->n > r->max)
		ent_remove(r, 0);
}

int
wr_runs_open(struct wr_runs *r, const char *dir, unsigned int max,
	     struct wr_error *err)
{
	struct dirent *de;
	uint64_t id, top = 0;
	DIR *d;
	int rc, fd;

	memset(r, 0, sizeof(*r));
	r->dirfd = -1;
	rc = wr_runs_dir_check(dir, err);
	if (rc != 0)
		return rc;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->max = max ? max : WR_RUNS_MAX_DEFAULT;
	r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = r->dirfd < 0 ? -1 : dup(r->dirfd);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (d == NULL) {
		rc = wr_error_set(err, -errno, NULL, 0, 0, "--runs-dir", "%s: %s",
				  dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		wr_runs_close(r);
		return rc;
	}
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		struct wr_error e2;
		json_t *entry;

		/* A temporary left by a crash: the run it was is lost. */
		if (de->d_name[0] == '.' && n > 4 &&
		    strcmp(de->d_name + n - 4, ".tmp") == 0 &&
		    strncmp(de->d_name, ".run-", 5) == 0) {
			unlinkat(r->dirfd, de->d_name, 0);
			continue;
		}
		if (!name_id(de->d_name, &id))
			continue;
		/* Its id is taken even when the file is bad: a new run never
		 * takes the name of a file someone may want to look at. */
		if (id > top)
			top = id;
		entry = load_entry(r, id, &e2);
		if (entry == NULL) {
			if (r->n_bad++ == 0)
				snprintf(r->bad_first, sizeof(r->bad_first), "%.*s",
					 (int)sizeof(r->bad_first) - 1, de->d_name);
			continue;
		}
		if (ent_add(r, id, entry) != 0) {
			json_decref(entry);
			closedir(d);
			wr_runs_close(r);
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		}
	}
	closedir(d);
	if (r->n > 1) /* an empty store has no array (qsort's NULL) */
		qsort(r->ents, r->n, sizeof(*r->ents), ent_cmp);
	r->next_id = top + 1;
	prune(r);
	return 0;
}

void
wr_runs_close(struct wr_runs *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		json_decref(r->ents[i].entry);
	free(r->ents);
	r->ents = NULL;
	r->n = r->cap = 0;
	if (r->dirfd >= 0)
		close(r->dirfd);
	r->dirfd = -1;
}

/* Both lines to @p fd, whole. */
static int
write_all(int fd, const char *a, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, a, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		a += w;
		n -= (size_t)w;
	}
	return 0;
}

int
wr_runs_put(struct wr_runs *r, json_t *entry, json_t *doc, uint64_t *id,
	    struct wr_error *err)
{
	char tmp[NAME_MAX_], name[NAME_MAX_];
	char *a = NULL, *b = NULL;
	json_t *copy = NULL;
	int fd = -1, rc = 0;
	uint64_t n;

	if (r->dirfd < 0)
		return wr_error_set(err, -EBADF, NULL, 0, 0, NULL,
				    "the runs' directory is not open");
	n = r->next_id;
	json_object_set_new(entry, "id", json_integer((json_int_t)n));
	json_object_set_new(doc, "id", json_integer((json_int_t)n));
	/* Compact: no newline inside a line (jansson escapes those in
	 * strings), keys as the caller added them. */
	a = json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER);
	b = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	copy = json_deep_copy(entry);
	if (a == NULL || b == NULL || copy == NULL) {
		rc = wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				  "out of memory");
		goto out;
	}
	if (strlen(a) + 1 > WR_RUNS_ENTRY_MAX) {
		rc = wr_error_set(err, -E2BIG, NULL, 0, 0, NULL, "a run's "
				  "entry of %zu bytes: %u at most", strlen(a),
				  WR_RUNS_ENTRY_MAX);
		goto out;
	}
	run_name(n, true, tmp, sizeof(tmp));
	run_name(n, false, name, sizeof(name));
	fd = openat(r->dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		    0640);
	if (fd < 0) {
		rc = -errno;
		goto fail;
	}
	rc = write_all(fd, a, strlen(a));
	if (rc == 0)
		rc = write_all(fd, "\n", 1);
	if (rc == 0)
		rc = write_all(fd, b, strlen(b));
	if (rc == 0)
		rc = write_all(fd, "\n", 1);
	/* The bytes on the disk before the name points at them. */
	if (rc == 0 && fsync(fd) != 0)
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	fd = -1;
	if (rc == 0 && renameat(r->dirfd, tmp, r->dirfd, name) != 0)
		rc = -errno;
	if (rc != 0) {
		unlinkat(r->dirfd, tmp, 0);
		goto fail;
	}
	fsync(r->dirfd); /* the rename itself */
	r->next_id = n + 1;
	rc = ent_add(r, n, copy);
	if (rc != 0) {
		wr_error_set(err, rc, NULL, 0, 0, NULL, "out of memory");
		goto out;
	}
	copy = NULL;
	prune(r);
	*id = n;
	goto out;
fail:
	wr_error_set(err, rc, NULL, 0, 0, NULL, "%s: cannot write %s: %s",
		     r->dir, name, strerror(-rc));
out:
	json_decref(copy);
	free(a);
	free(b);
	return rc;
}

json_t *
wr_runs_list(const struct wr_runs *r, const char *kind, size_t limit)
{
	json_t *a = json_array();
	size_t i;

	for (i = r->n; a != NULL && i-- > 0;) {
		const char *k = json_string_value(json_object_get(
			r->ents[i].entry, "kind"));

		if (kind != NULL && (k == NULL || strcmp(k, kind) != 0))
			continue;
		if (limit != 0 && json_array_size(a) >= limit)
			break;
		json_array_append(a, r->ents[i].entry);
	}
	return a;
}

int
wr_runs_get(const struct wr_runs *r, uint64_t id, json_t **doc,
	    struct wr_error *err)
{
	char path[WR_RUNS_PATH_MAX + NAME_MAX_];
	FILE *f;
	json_t *d;

	if (ent_find(r, id) < 0)
		return wr_error_set(err, -ENOENT, NULL, 0, 0, NULL, "no run %"
				    PRIu64 " (runs.list lists them)", id);
	f = open_run(r, id, path, sizeof(path));
	if (f == NULL)
		return wr_error_set(err, -errno, path, 0, 0, NULL, "%s",
				    strerror(errno));
	d = read_line(f, path, 2, WR_RUNS_ENTRY_MAX, err);
	fclose(f);
	if (d == NULL)
		return -EBADMSG;
	if (json_integer_value(json_object_get(d, "id")) != (json_int_t)id) {
		json_decref(d);
		return wr_error_set(err, -EBADMSG, path, 2, 1, NULL, "not a run: "
				    "expected \"id\": %" PRIu64 " as its name "
				    "says", id);
	}
	*doc = d;
	return 0;
}

int
wr_runs_delete(struct wr_runs *r, uint64_t id, struct wr_error *err)
{
	ssize_t i = ent_find(r, id);
	int rc;

	if (i < 0)
		return wr_error_set(err, -ENOENT, NULL, 0, 0, NULL, "no run %"
				    PRIu64 " (runs.list lists them)", id);
	rc = ent_remove(r, (size_t)i);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL, "%s: cannot "
				    "delete run %" PRIu64 ": %s", r->dir, id,
				    strerror(-rc));
	return 0;
}

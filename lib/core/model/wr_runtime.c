/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_runtime: the run's own EAL file prefix, runtime directory and memif sockets. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_runtime.h"

int
wr_runtime_dir_of(uid_t uid, const char *env_dir, const char *xdg,
		  char *buf, size_t len)
{
	int n;

	if (env_dir != NULL && env_dir[0] != '\0')
		n = snprintf(buf, len, "%s", env_dir);
	else if (uid == 0)
		n = snprintf(buf, len, "/run/wirerate");
	else if (xdg != NULL && xdg[0] != '\0')
		n = snprintf(buf, len, "%s/wirerate", xdg);
	else
		n = snprintf(buf, len, "/tmp/wirerate-%u", (unsigned int)uid);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int
wr_runtime_dir(char *buf, size_t len)
{
	return wr_runtime_dir_of(geteuid(), getenv(WR_RUNTIME_ENV),
				 getenv("XDG_RUNTIME_DIR"), buf, len);
}

int
wr_runtime_dir_make(const char *dir, struct wr_error *err)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "cannot create the runtime directory %s: "
				    "%s (choose one with %s)", dir,
				    strerror(errno), WR_RUNTIME_ENV);
	/* lstat: a symbolic link planted in /tmp is not our directory. */
	if (lstat(dir, &st) != 0)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL, "%s: %s",
				    dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return wr_error_set(err, -ENOTDIR, NULL, 0, 0, NULL,
				    "the runtime directory %s is not a "
				    "directory (choose one with %s)", dir,
				    WR_RUNTIME_ENV);
	if (st.st_uid != geteuid())
		return wr_error_set(err, -EPERM, NULL, 0, 0, NULL,
				    "the runtime directory %s belongs to uid "
				    "%u, not to us (choose one with %s)", dir,
				    (unsigned int)st.st_uid, WR_RUNTIME_ENV);
	/* Only the user enters it: what is inside (sockets) needs no
	 * mode of its own. */
	if ((st.st_mode & 07777) != 0700 && chmod(dir, 0700) != 0)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "cannot make %s private (mode 0700): %s",
				    dir, strerror(errno));
	return 0;
}

void
wr_runtime_prefix(char *buf, size_t len)
{
	snprintf(buf, len, "wirerate-%u-%ld", (unsigned int)geteuid(),
		 (long)getpid());
}

/* The value of key @p key in the devargs @p spec ("net_memif0,k=v,..."),
 * copied to @p val; false when the key is absent. */
static bool
devarg(const char *spec, const char *key, char *val, size_t len)
{
	size_t klen = strlen(key);
	const char *p = strchr(spec, ',');

	while (p != NULL) {
		const char *kv = p + 1, *end = strchr(kv, ',');

		if (strncmp(kv, key, klen) == 0 && kv[klen] == '=') {
			size_t n = (end ? (size_t)(end - kv) : strlen(kv)) -
				   klen - 1;

			if (n >= len)
				n = len - 1;
			memcpy(val, kv + klen + 1, n);
			val[n] = '\0';
			return true;
		}
		p = end;
	}
	return false;
}

/* Copy @p s into the store; NULL when it is full. */
static char *
store_add(char **store, size_t *left, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = *store;

	if (n > *left)
		return NULL;
	memcpy(p, s, n);
	*store += n;
	*left -= n;
	return p;
}

/* A memif vdev spec whose socket is ours, with its defaults:
 * written to @p spec_out (the new spec), its socket path to @p sock
 * ("" when it stays abstract).  @return 0 or -ENAMETOOLONG. */
static int
memif_server_spec(const char *spec, const char *dir, char *spec_out,
		  size_t spec_len, char *sock, size_t sock_len)
{
	char v[WR_RUNTIME_PATH_MAX + 16];
	size_t n;

	sock[0] = '\0';
	if (strlen(spec) >= spec_len)
		return -ENAMETOOLONG;
	snprintf(spec_out, spec_len, "%s", spec);
	/* The profile chose: an abstract socket stays one. */
	if (devarg(spec, "socket-abstract", v, sizeof(v)) &&
	    strcmp(v, "no") != 0)
		return 0;
	n = strlen(spec_out);
	if (!devarg(spec, "socket-abstract", v, sizeof(v)))
		n += (size_t)snprintf(spec_out + n, spec_len - n,
				      ",socket-abstract=no");
	if (n >= spec_len)
		return -ENAMETOOLONG;
	if (!devarg(spec, "socket", v, sizeof(v))) {
		snprintf(v, sizeof(v), "%s/%s", dir, WR_RUNTIME_MEMIF_SOCK);
		n += (size_t)snprintf(spec_out + n, spec_len - n, ",socket=%s",
				      v);
		if (n >= spec_len)
			return -ENAMETOOLONG;
	}
	if (strlen(v) >= sock_len)
		return -ENAMETOOLONG;
	snprintf(sock, sock_len, "%s", v);
	return 0;
}

/* Whether the memif device @p spec is a server (memif's default role). */
static bool
memif_role_server(const char *spec)
{
	char v[16];

	return !devarg(spec, "role", v, sizeof(v)) || strcmp(v, "server") == 0;
}

/* Whether @p spec is a memif device whose socket is ours: this process is
 * its server (memif's default role), or its client without a socket= (then
 * the socket is the runtime directory's, a server in this run or another
 * of ours).  A client given socket= joins a peer's socket as it is. */
static bool
memif_ours(const char *spec)
{
	char v[WR_RUNTIME_PATH_MAX];

	if (strncmp(spec, "net_memif", 9) != 0)
		return false;
	return memif_role_server(spec) || !devarg(spec, "socket", v, sizeof(v));
}

int
wr_runtime_prefix_opt(char *const *args, int n, int from, int *value_at,
		      const char **value)
{
	static const char opt[] = "--file-prefix";
	int i;

	for (i = from < 0 ? 0 : from; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		size_t len = eq != NULL ? (size_t)(eq - args[i]) :
			     strlen(args[i]);

		/* getopt_long takes any unambiguous start: "--f" is also
		 * --force-max-simd-bitwidth's, "--fi" only this one's. */
		if (len < 4 || len > sizeof(opt) - 1 ||
		    strncmp(args[i], opt, len) != 0)
			continue;
		if (eq != NULL) {
			*value_at = i;
			*value = eq + 1;
		} else if (i + 1 < n) {
			*value_at = i + 1;
			*value = args[i + 1];
		} else {
			*value_at = n;
			*value = NULL;
		}
		return i;
	}
	return -1;
}

int
wr_runtime_prefix_check(const char *name, char *why, size_t why_len)
{
	const char *bad = NULL;

	if (name[0] == '\0' || strcmp(name, ".") == 0)
		bad = "a name";
	else if (strchr(name, '/') != NULL || strstr(name, "..") != NULL)
		bad = "a name without \"/\" or \"..\"";
	else if (strlen(name) > WR_RUNTIME_PREFIX_MAX)
		bad = "a name of at most 200 characters";
	if (bad == NULL)
		return 0;
	snprintf(why, why_len, "--file-prefix: expected %s (EAL's runtime "
		 "directory is RUN/dpdk/PREFIX, emptied at exit), got \"%s\"",
		 bad, name);
	return -EINVAL;
}

int
wr_runtime_eal(char *const *in, int n, const char *prefix, const char *dir,
	       char **out, int cap, char *store, size_t store_len,
	       struct wr_runtime_socks *socks, struct wr_error *err)
{
	bool have_prefix = false;
	size_t left = store_len;
	const char *name;
	char why[WR_RUNTIME_PREFIX_MAX + 160];
	int i, k = 0, at;

	socks->n = 0;
	snprintf(socks->prefix, sizeof(socks->prefix), "%s", prefix);
	/* EAL takes the last one. */
	for (i = wr_runtime_prefix_opt(in, n, 0, &at, &name); i >= 0;
	     i = wr_runtime_prefix_opt(in, n, i + 1, &at, &name)) {
		have_prefix = true;
		if (name == NULL)
			continue; /* EAL says what is missing */
		if (wr_runtime_prefix_check(name, why, sizeof(why)) != 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					    "%s", why);
		snprintf(socks->prefix, sizeof(socks->prefix), "%s", name);
	}
	for (i = 0; i < n; i++) {
		const char *spec = NULL;
		char *arg = in[i];

		if (strncmp(in[i], "--vdev=", 7) == 0)
			spec = in[i] + 7;
		else if (i > 0 && strcmp(in[i - 1], "--vdev") == 0)
			spec = in[i];
		if (spec != NULL && memif_ours(spec)) {
			char nspec[1024], sock[WR_RUNTIME_PATH_MAX], full[1040];
			int rc = memif_server_spec(spec, dir, nspec,
						   sizeof(nspec), sock,
						   sizeof(sock));

			if (rc != 0)
				return wr_error_set(err, rc, NULL, 0, 0, NULL,
						    "--vdev %s: the memif "
						    "socket path is longer "
						    "than %d bytes", spec,
						    WR_RUNTIME_PATH_MAX - 1);
			snprintf(full, sizeof(full), "%s%s",
				 spec == in[i] ? "" : "--vdev=", nspec);
			arg = store_add(&store, &left, full);
			if (arg == NULL)
				return wr_error_set(err, -ENOSPC, NULL, 0, 0,
						    NULL, "too many EAL "
						    "arguments");
			if (sock[0] != '\0' && memif_role_server(spec) &&
			    socks->n < WR_RUNTIME_SOCKS_MAX)
				snprintf(socks->path[socks->n++],
					 sizeof(socks->path[0]), "%s", sock);
		}
		if (k >= cap)
			return wr_error_set(err, -ENOSPC, NULL, 0, 0, NULL,
					    "too many EAL arguments");
		out[k++] = arg;
	}
	if (!have_prefix) {
		char opt[256];

		snprintf(opt, sizeof(opt), "--file-prefix=%s", prefix);
		if (k >= cap || (out[k] = store_add(&store, &left, opt)) == NULL)
			return wr_error_set(err, -ENOSPC, NULL, 0, 0, NULL,
					    "too many EAL arguments");
		k++;
	}
	return k;
}

/* Whether a socket listens on the path @p path: 1, 0, or a negative errno. */
static int
unix_listening(const char *path)
{
	/* __SO_ACCEPTCON in /proc/net/unix's Flags: a listening socket. */
	const unsigned long acceptcon = 0x10000;
	char line[512 + WR_RUNTIME_PATH_MAX];
	FILE *f = fopen("/proc/net/unix", "re");
	int found = 0;

	if (f == NULL)
		return -errno;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		unsigned long flags;
		char name[WR_RUNTIME_PATH_MAX + 1];

		/* Num: RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %lx %*s %*s %*s %108s", &flags,
			   name) != 2)
			continue;
		found = (flags & acceptcon) != 0 && strcmp(name, path) == 0;
	}
	fclose(f);
	return found;
}

int
wr_runtime_memif_prepare(const char *path, const char *dir,
			 struct wr_error *err)
{
	char parent[WR_RUNTIME_PATH_MAX], *slash;
	struct stat st;
	int rc;

	if (strlen(path) >= WR_RUNTIME_PATH_MAX)
		return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0, NULL,
				    "memif socket %s: path too long", path);
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (slash != NULL) {
		*slash = '\0';
		if (parent[0] == '\0')
			snprintf(parent, sizeof(parent), "/");
		if (strcmp(parent, dir) == 0) {
			rc = wr_runtime_dir_make(dir, err);
			if (rc != 0)
				return rc;
		} else if (mkdir(parent, 0700) != 0 && errno != EEXIST) {
			return wr_error_set(err, -errno, NULL, 0, 0, NULL,
					    "memif socket %s: cannot create "
					    "its directory: %s", path,
					    strerror(errno));
		}
	}
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 :
		       wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "memif socket %s: %s", path,
				    strerror(errno));
	if (!S_ISSOCK(st.st_mode))
		return wr_error_set(err, -EEXIST, NULL, 0, 0, NULL,
				    "memif socket %s: a file that is not a "
				    "socket is there", path);
	/* Not by connecting: a memif server that sees a client leave before
	 * its handshake may panic in EAL's interrupt thread (measured: 2 of
	 * 5 probes).  The kernel's list of listening sockets says it. */
	rc = unix_listening(path);
	if (rc < 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "memif socket %s: /proc/net/unix: %s", path,
				    strerror(-rc));
	if (rc > 0)
		return wr_error_set(err, -EADDRINUSE, NULL, 0, 0, NULL,
				    "memif socket %s: another process listens "
				    "there (give this run another socket=)", path);
	/* Left by a run that was killed: nobody answers on it. */
	if (unlink(path) != 0 && errno != ENOENT)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "memif socket %s: cannot remove the stale "
				    "socket: %s", path, strerror(errno));
	return 0;
}

int
wr_runtime_find_profile(const char *search, const char *name, char *buf,
			size_t len)
{
	static const char *const suffix[] = { "", ".yaml" };
	const char *d = search, *end;
	unsigned int i;
	int n;

	if (strchr(name, '/') != NULL || name[0] == '\0')
		return -ENOENT;
	while (*d != '\0') {
		end = strchr(d, ':');
		if (end == NULL)
			end = d + strlen(d);
		for (i = 0; end > d && i < 2; i++) {
			n = snprintf(buf, len, "%.*s/%s%s", (int)(end - d), d,
				     name, suffix[i]);
			if (n < 0 || (size_t)n >= len)
				return -ENAMETOOLONG;
			if (access(buf, R_OK) == 0)
				return 0;
		}
		d = *end == ':' ? end + 1 : end;
	}
	return -ENOENT;
}

int
wr_runtime_eal_dir_of(uid_t uid, const char *xdg, const char *prefix,
		      char *buf, size_t len)
{
	const char *base = uid == 0 ? "/var/run" : xdg != NULL ? xdg : "/tmp";
	int n = snprintf(buf, len, "%s/dpdk/%s", base, prefix);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void
wr_runtime_note_free(struct wr_runtime_note *n)
{
	unsigned int i;

	for (i = 0; i < n->n; i++)
		free(n->ent[i].name);
	free(n->ent);
	memset(n, 0, sizeof(*n));
}

int
wr_runtime_note_take(struct wr_runtime_note *n, const char *dir)
{
	struct wr_runtime_entry *grown;
	struct dirent *de = NULL;
	unsigned int cap = 0;
	struct stat st;
	DIR *d;
	int fd;

	memset(n, 0, sizeof(*n));
	if (snprintf(n->dir, sizeof(n->dir), "%s", dir) >= (int)sizeof(n->dir))
		return -ENAMETOOLONG;
	n->existed = lstat(dir, &st) == 0;
	fd = n->existed ? open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			       O_CLOEXEC) : -1;
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d == NULL && fd >= 0)
		close(fd);
	while (d != NULL && (de = readdir(d)) != NULL) {
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (n->n == cap) {
			grown = realloc(n->ent, (cap * 2 + 16) * sizeof(*grown));
			if (grown == NULL)
				break;
			n->ent = grown;
			cap = cap * 2 + 16;
		}
		n->ent[n->n].ino = st.st_ino;
		n->ent[n->n].name = strdup(de->d_name);
		if (n->ent[n->n].name == NULL)
			break;
		n->n++;
	}
	if (de != NULL && d != NULL) {
		/* Not all of it known: nothing may be removed. */
		closedir(d);
		wr_runtime_note_free(n);
		return -ENOMEM;
	}
	if (d != NULL)
		closedir(d);
	n->noted = true;
	return 0;
}

/* The names DPDK 22.11's EAL and telemetry give their files in the
 * runtime directory. */
static bool
eal_file_name(const char *name)
{
	static const char *const exact[] = { "config", "hugepage_info" };
	static const char *const start[] = { "fbarray_", "mp_socket",
					     "dpdk_telemetry.v" };
	unsigned int i;

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strcmp(name, exact[i]) == 0)
			return true;
	for (i = 0; i < sizeof(start) / sizeof(start[0]); i++)
		if (strncmp(name, start[i], strlen(start[i])) == 0)
			return true;
	return false;
}

void
wr_runtime_note_clean(const struct wr_runtime_note *n)
{
	struct dirent *de;
	struct stat st;
	unsigned int i;
	DIR *d;
	int fd;

	if (!n->noted)
		return;
	/* O_NOFOLLOW: a link put there is not the directory EAL made. */
	fd = open(n->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!eal_file_name(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    S_ISDIR(st.st_mode))
			continue;
		for (i = 0; i < n->n; i++)
			if (n->ent[i].ino == st.st_ino &&
			    strcmp(n->ent[i].name, de->d_name) == 0)
				break;
		if (i == n->n)
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	/* Made in this run; rmdir fails if anything else is in it. */
	if (!n->existed)
		rmdir(n->dir);
}

static struct wr_runtime_note eal_note;

const struct wr_runtime_note *
wr_runtime_eal_note(void)
{
	return &eal_note;
}

int
wr_runtime_apply(char **argv, int *argc, int cap, struct wr_error *err)
{
	static char store[4096];
	struct wr_runtime_socks socks;
	char prefix[64], dir[WR_RUNTIME_PATH_MAX];
	char **out;
	unsigned int i;
	int n;

	if (wr_runtime_dir(dir, sizeof(dir)) != 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "the runtime directory's path is too "
				    "long (%s)", WR_RUNTIME_ENV);
	wr_runtime_prefix(prefix, sizeof(prefix));
	out = calloc((size_t)cap, sizeof(*out));
	if (out == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	n = wr_runtime_eal(argv, *argc, prefix, dir, out, cap, store,
			   sizeof(store), &socks, err);
	for (i = 0; n >= 0 && i < socks.n; i++)
		if (wr_runtime_memif_prepare(socks.path[i], dir, err) != 0)
			n = -EINVAL;
	if (n >= 0) {
		char edir[sizeof(eal_note.dir)];

		memcpy(argv, out, (size_t)n * sizeof(*out));
		*argc = n;
		/* Before EAL makes anything there (getuid: EAL's rule). */
		wr_runtime_note_free(&eal_note);
		if (wr_runtime_eal_dir_of(getuid(), getenv("XDG_RUNTIME_DIR"),
					  socks.prefix, edir, sizeof(edir)) == 0)
			wr_runtime_note_take(&eal_note, edir);
	}
	free(out);
	return n < 0 ? -EINVAL : 0;
}

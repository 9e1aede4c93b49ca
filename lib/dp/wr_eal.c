/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_eal: the one EAL starter (an engine's open, `wirerate ports`): the
 * argument list, the hugepage fallback, EAL's start-up lines kept aside
 * and turned into one error line, and the cleanup of what EAL leaves on
 * disk.  Calls nothing of the engine or the ports above it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_memory.h>

#include "wr_clock_eal.h"
#include "wr_eal.h"
#include "wr_runtime.h"

RTE_LOG_REGISTER_SUFFIX(wr_eal_logtype, eal, NOTICE);

/* EAL's start-up log lines are dropped (wr_eal_quiet()). */
static bool eal_quiet;

void
wr_eal_quiet(bool quiet)
{
	eal_quiet = quiet;
}

/* Free hugepages of the default size (/proc/meminfo), -1 if unknown. */
static long
free_hugepages(void)
{
	char line[128];
	long n = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

/*
 * What EAL leaves on disk.  Without --in-memory, DPDK 22.11 keeps, after
 * rte_eal_cleanup() and after the process exits, its runtime directory
 * (/var/run/dpdk/PREFIX: config, hugepage_info, fbarray_*, mp_socket, the
 * telemetry socket) and one hugepage file per page it used
 * (/dev/hugepages/PREFIXmap_N), for secondary processes to attach to; with
 * --in-memory an empty directory and, after a kill, the telemetry socket.
 * Nothing of a run may outlive it: the hugepage files are found from the
 * memory segments' descriptors before cleanup (only ours, wherever the
 * hugetlbfs is mounted) and unlinked after, and EAL's files in the
 * directory are removed, and the directory when EAL made it in this run
 * (wr_runtime_note_clean(): only what was not there before EAL started),
 * unless another live process holds its config lock (EAL's own sign that
 * a primary process owns it).
 */
struct eal_files {
	char **path;
	unsigned int n, cap;
};

static int
huge_file_of(const struct rte_memseg_list *msl __rte_unused,
	     const struct rte_memseg *ms, void *arg)
{
	struct eal_files *f = arg;
	char link[64], path[PATH_MAX], **grown;
	int fd = rte_memseg_get_fd_thread_unsafe(ms);
	unsigned int i;
	ssize_t n;

	if (fd < 0)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	/* --in-memory and --huge-unlink: nothing on disk. */
	if (path[0] != '/' || strstr(path, " (deleted)") != NULL)
		return 0;
	for (i = f->n; i > 0; i--)
		if (strcmp(f->path[i - 1], path) == 0)
			return 0;
	if (f->n == f->cap) {
		grown = realloc(f->path, (f->cap * 2 + 16) * sizeof(*grown));
		if (grown == NULL)
			return 0;
		f->path = grown;
		f->cap = f->cap * 2 + 16;
	}
	f->path[f->n] = strdup(path);
	if (f->path[f->n] != NULL)
		f->n++;
	return 0;
}

/* True when a process other than this one holds the lock EAL's primary
 * takes on @p dir's config file. */
static bool
runtime_dir_owned_elsewhere(const char *dir)
{
	char path[PATH_MAX + 16];
	struct flock l = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	bool other;
	int fd;

	snprintf(path, sizeof(path), "%s/config", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	other = fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK &&
		l.l_pid != getpid();
	close(fd);
	return other;
}

/* Remove what EAL made in its runtime directory @p dir in this run,
 * unless another live process owns it.  Only the directory noted before
 * EAL started: any other is not known to be ours. */
static void
runtime_dir_remove(const char *dir)
{
	const struct wr_runtime_note *n = wr_runtime_eal_note();

	if (dir == NULL || dir[0] == '\0' || !n->noted ||
	    strcmp(dir, n->dir) != 0 || runtime_dir_owned_elsewhere(dir))
		return;
	wr_runtime_note_clean(n);
}

void
wr_eal_cleanup(void)
{
	struct eal_files f = { NULL, 0, 0 };
	char dir[PATH_MAX];
	unsigned int i;

	snprintf(dir, sizeof(dir), "%s", rte_eal_get_runtime_dir());
	rte_memseg_walk(huge_file_of, &f);
	rte_eal_cleanup();
	for (i = 0; i < f.n; i++) {
		unlink(f.path[i]);
		free(f.path[i]);
	}
	free(f.path);
	runtime_dir_remove(dir);
}

void
wr_eal_abandon(void)
{
	runtime_dir_remove(rte_eal_get_runtime_dir());
}

/* EAL's start-up lines to stderr, without the two notices every run on a
 * machine without 1 GB pages or legacy telemetry prints. */
static void
log_pass(const char *log)
{
	const char *l = log, *nl;

	for (; l != NULL && *l != '\0'; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		if (strstr(l, "hugepages reported on node") != NULL &&
		    (nl == NULL || strstr(l, "hugepages reported on node") < nl))
			continue;
		if (strncmp(l, "TELEMETRY: No legacy callbacks", 30) == 0)
			continue;
		fwrite(l, 1, nl ? (size_t)(nl - l) + 1 : strlen(l), stderr);
	}
}

/*
 * EAL refused to start: one line.  Its last log line says why; the
 * argument it names (a --vdev, an lcore list) is looked up among the
 * profile's `eal:` items for file:line:col.
 */
static int
eal_failed(struct wr_eal *e, int eal_errno, const char *log,
	   struct wr_error *err)
{
	char last[256] = "", *q;
	const char *l = log, *nl;
	unsigned int i;
	int code = eal_errno == EINVAL || eal_errno == ENODEV ||
		   eal_errno == ENOENT || eal_errno == EALREADY ? -EINVAL : -EIO;

	/* getopt's own line names an option EAL does not know. */
	if ((q = strstr(log ? log : "", "unrecognized option '")) != NULL ||
	    (q = strstr(log ? log : "", "invalid option -- '")) != NULL) {
		char opt[128];
		const char *v = strchr(q, '\'') + 1;
		size_t n = strcspn(v, "'");

		snprintf(opt, sizeof(opt), "%s%.*s",
			 strncmp(q, "invalid", 7) == 0 ? "-" : "", (int)n, v);
		for (i = 0; i < e->cfg->n_eal_args; i++)
			if (strcmp(e->cfg->eal_args[i], opt) == 0)
				return wr_error_set(err, -EINVAL, e->cfg_path,
					e->cfg->eal_marks[i].line,
					e->cfg->eal_marks[i].col, NULL,
					"eal[%u]: EAL has no option \"%s\"",
					i, opt);
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "EAL option after --: EAL has no option "
				    "\"%s\"", opt);
	}
	/* The first "EAL: " line that is not a notice about 1 GB pages
	 * names the cause; EAL's later lines repeat it. */
	while (l != NULL && *l != '\0') {
		nl = strchr(l, '\n');
		if (strncmp(l, "EAL: ", 5) == 0 &&
		    strncmp(l, "EAL: FATAL", 10) != 0 &&
		    strstr(l, "hugepages reported") == NULL) {
			size_t n = nl ? (size_t)(nl - l) - 5 : strlen(l + 5);

			snprintf(last, sizeof(last), "%.*s", (int)n, l + 5);
			break;
		}
		l = nl ? nl + 1 : NULL;
	}
	for (i = 0; last[0] != '\0' && i < e->cfg->n_eal_args; i++) {
		const char *a = e->cfg->eal_args[i], *v = strchr(a, '=');
		char dev[128];

		/* EAL quotes the value it refused ('net_bogus0'); a core it
		 * cannot use comes from the lcore list. */
		snprintf(dev, sizeof(dev), "%s", v ? v + 1 : a);
		if ((q = strchr(dev, ',')) != NULL)
			*q = '\0';
		if ((dev[0] != '\0' && strstr(last, dev) != NULL) ||
		    ((strstr(last, "core ") != NULL ||
		      strstr(last, "lcore") != NULL) &&
		     (strncmp(a, "--lcores", 8) == 0 ||
		      strncmp(a, "-l", 2) == 0 || strncmp(a, "-c", 2) == 0)))
			return wr_error_set(err, code, e->cfg_path,
					    e->cfg->eal_marks[i].line,
					    e->cfg->eal_marks[i].col, NULL,
					    "eal[%u]: EAL refused \"%s\": %s",
					    i, a, last);
	}
	return wr_error_set(err, code, NULL, 0, 0, NULL,
			    "EAL failed to start: %s%s%s%s",
			    last[0] ? last : rte_strerror(eal_errno),
			    last[0] ? " (" : "",
			    last[0] ? rte_strerror(eal_errno) : "",
			    eal_errno == ENOMEM ?
			    "; reserve hugepages: tools/wr-hugepages)" :
			    last[0] ? ")" : "");
}

/* The profile's eal: item @p arg was given as, -1 when it came after --. */
static int
eal_item(const struct wr_eal *e, const char *arg)
{
	unsigned int i;

	for (i = 0; i < e->cfg->n_eal_args; i++)
		if (e->cfg->eal_args[i] == arg || strcmp(e->cfg->eal_args[i], arg) == 0)
			return (int)i;
	return -1;
}

/*
 * EAL stopped parsing before @p arg: not an option (`eal: [5]`, a value
 * given as an item of its own after an option that takes none).  EAL
 * started anyway, on its default prefix: bad input all the same.
 */
static int
eal_leftover(struct wr_eal *e, const char *arg, struct wr_error *err)
{
	int i = eal_item(e, arg);

	if (i < 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "EAL option after --: \"%s\" is not an "
				    "EAL option", arg);
	return wr_error_set(err, -EINVAL, e->cfg_path,
			    e->cfg->eal_marks[i].line, e->cfg->eal_marks[i].col,
			    NULL, "eal[%d]: expected an EAL option such as "
			    "\"--vdev=net_null0\" (its value in the same item: "
			    "\"--lcores=0@0,1@1\"), got \"%s\"", i, arg);
}

int
wr_eal_start(struct wr_eal *e, const struct wr_config *cfg,
	     const char *cfg_path, char **extra, int n_extra,
	     struct wr_error *err)
{
	char *argv[RTE_DIM(e->argv)];
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *logf, *out;
	int eal_errno, saved[2];
	unsigned int i;
	int rc;

	memset(e, 0, sizeof(*e));
	e->cfg = cfg;
	e->cfg_path = cfg_path != NULL ? cfg_path : "";
	e->argc = 0;
	e->argv[e->argc++] = (char *)"wirerate";
	/* EAL's INFO lines (lcores detected, ...) drown the report; the
	 * user's own --log-level, later on the line, wins. */
	e->argv[e->argc++] = (char *)"--log-level=notice";
	for (i = 0; i < e->cfg->n_eal_args; i++)
		e->argv[e->argc++] = e->cfg->eal_args[i];
	for (i = 0; i < (unsigned int)n_extra &&
		    e->argc < (int)RTE_DIM(e->argv) - 1; i++)
		e->argv[e->argc++] = extra[i];
	e->argv[e->argc] = NULL;
	/* The run's own file prefix and private memif sockets. */
	rc = wr_runtime_apply(e->argv, &e->argc,
			      (int)RTE_DIM(e->argv) - 1, err);
	if (rc != 0)
		return rc;
	e->argv[e->argc] = NULL;
	if (free_hugepages() == 0) {
		char *alt[RTE_DIM(e->argv)];
		int n = wr_config_eal_without_hugepages(e->argv,
				e->argc, alt, (int)RTE_DIM(alt) - 1);

		if (n > 0) {
			/* A new user with no hugepage reserved still sees
			 * wirerate run, on ordinary memory. */
			rte_log(RTE_LOG_WARNING, wr_eal_logtype, "wirerate: no free hugepages: running on "
			       "ordinary memory (--no-huge), slower; reserve "
			       "hugepages with tools/wr-hugepages\n");
			memcpy(e->argv, alt, (size_t)n * sizeof(alt[0]));
			e->argc = n;
			e->argv[n] = NULL;
		}
	}

	/* The TSC's calibration spans EAL's start (wr_clock_eal.h). */
	wr_tsc_begin();
	/* rte_eal_init permutes argv: give it a copy.  Its log lines are
	 * kept aside while it starts: on failure they name what it rejected
	 * (one line for the user instead of EAL's three); on success they
	 * are passed on unless the run is quiet. */
	memcpy(argv, e->argv, sizeof(argv));
	logf = open_memstream(&logbuf, &loglen);
	if (logf != NULL)
		rte_openlog_stream(logf);
	/* EAL also writes to stdout and stderr directly while it starts
	 * (its whole usage text for one bad option, getopt's complaint):
	 * kept aside too, in a file, as the descriptors are shared. */
	fflush(stdout);
	fflush(stderr);
	out = tmpfile();
	saved[0] = out ? dup(STDOUT_FILENO) : -1;
	saved[1] = out ? dup(STDERR_FILENO) : -1;
	if (out != NULL && saved[0] >= 0 && saved[1] >= 0) {
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(out), STDERR_FILENO);
	}
	/* getopt names an option EAL does not know only with opterr set
	 * (the app's own parsing clears it). */
	opterr = 1;
	rc = rte_eal_init(e->argc, argv);
	eal_errno = rte_errno;
	fflush(stdout);
	fflush(stderr);
	if (saved[0] >= 0 && saved[1] >= 0) {
		dup2(saved[0], STDOUT_FILENO);
		dup2(saved[1], STDERR_FILENO);
	}
	if (saved[0] >= 0)
		close(saved[0]);
	if (saved[1] >= 0)
		close(saved[1]);
	if (logf != NULL) {
		/* What EAL wrote directly follows its log lines. */
		if (out != NULL) {
			char chunk[512];
			size_t n;

			rewind(out);
			while ((n = fread(chunk, 1, sizeof(chunk), out)) > 0)
				fwrite(chunk, 1, n, logf);
		}
		rte_openlog_stream(NULL);
		fclose(logf);
	}
	if (out != NULL)
		fclose(out);
	if (rc < 0) {
		rc = eal_failed(e, eal_errno, logbuf, err);
		free(logbuf);
		wr_eal_abandon();
		return rc;
	}
	/* Passed on by wr_eal_log_pass(). */
	e->log = logbuf;
	e->up = true;
	/* rc arguments parsed after the program name: what is left is
	 * not EAL's. */
	if (rc + 1 < e->argc)
		return eal_leftover(e, argv[rc + 1], err);
	return 0;
}

void
wr_eal_log_pass(struct wr_eal *e, bool pass)
{
	if (pass && e->log != NULL && !eal_quiet)
		log_pass(e->log);
	free(e->log);
	e->log = NULL;
}

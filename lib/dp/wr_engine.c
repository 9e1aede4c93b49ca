/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_engine: the engine's lifecycle: EAL's start and cleanup (and what it
 * leaves on disk), open and close, signals, and the accessors of an open
 * engine. The rest: wr_engine_ports.c (ports, lcores, link events, device
 * clocks, captures), wr_engine_load.c (streams onto ports), wr_engine_run.c
 * (launch, stop, counters into report rows); their shared state and
 * functions: wr_engine_priv.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <rte_memory.h>
#include <rte_version.h>

#include "wr_engine_priv.h"
#include "wr_runtime.h"
#include "wr_clock_eal.h"

RTE_LOG_REGISTER_DEFAULT(wr_engine_logtype, NOTICE);

/* EAL's start-up log lines are dropped (wr_engine_quiet()). */
static bool wr_eal_quiet;

const char *
wr_engine_dpdk_version(void)
{
	return rte_version();
}

void
wr_engine_quiet(bool quiet)
{
	wr_eal_quiet = quiet;
}

/* A signal came while wr_engine_open() waits (wr_engine_cancel()). */
volatile sig_atomic_t wr_eng_open_cancelled;

void
wr_engine_cancel(void)
{
	wr_eng_open_cancelled = 1;
}

uint64_t
wr_engine_tsc_to_ns(const struct wr_engine *e __rte_unused, uint64_t tsc)
{
	return wr_tsc_to_ns(tsc);
}

void
wr_engine_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
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
wr_engine_eal_cleanup(void)
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
wr_engine_eal_abandon(void)
{
	runtime_dir_remove(rte_eal_get_runtime_dir());
}

/* EAL's start-up lines to stderr, without the two notices every run on a
 * machine without 1 GB pages or legacy telemetry prints. */
static void
eal_log_pass(const char *log)
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
eal_failed(struct wr_engine *e, int eal_errno, const char *log,
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
eal_item(const struct wr_engine *e, const char *arg)
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
eal_leftover(struct wr_engine *e, const char *arg, struct wr_error *err)
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

static int
eal_start(struct wr_engine *e, char **extra, int n_extra,
	  struct wr_error *err)
{
	char *argv[RTE_DIM(e->eal_argv)];
	char *logbuf = NULL;
	size_t loglen = 0;
	FILE *logf, *out;
	int eal_errno, saved[2];
	unsigned int i;
	int rc;

	e->eal_argc = 0;
	e->eal_argv[e->eal_argc++] = (char *)"wirerate";
	/* EAL's INFO lines (lcores detected, ...) drown the report; the
	 * user's own --log-level, later on the line, wins. */
	e->eal_argv[e->eal_argc++] = (char *)"--log-level=notice";
	for (i = 0; i < e->cfg->n_eal_args; i++)
		e->eal_argv[e->eal_argc++] = e->cfg->eal_args[i];
	for (i = 0; i < (unsigned int)n_extra &&
		    e->eal_argc < (int)RTE_DIM(e->eal_argv) - 1; i++)
		e->eal_argv[e->eal_argc++] = extra[i];
	e->eal_argv[e->eal_argc] = NULL;
	/* The run's own file prefix and private memif sockets. */
	rc = wr_runtime_apply(e->eal_argv, &e->eal_argc,
			      (int)RTE_DIM(e->eal_argv) - 1, err);
	if (rc != 0)
		return rc;
	e->eal_argv[e->eal_argc] = NULL;
	if (free_hugepages() == 0) {
		char *alt[RTE_DIM(e->eal_argv)];
		int n = wr_config_eal_without_hugepages(e->eal_argv,
				e->eal_argc, alt, (int)RTE_DIM(alt) - 1);

		if (n > 0) {
			/* A new user with no hugepage reserved still sees
			 * wirerate run, on ordinary memory. */
			WR_LOG(WARNING, "no free hugepages: running on "
			       "ordinary memory (--no-huge), slower; reserve "
			       "hugepages with tools/wr-hugepages\n");
			memcpy(e->eal_argv, alt, (size_t)n * sizeof(alt[0]));
			e->eal_argc = n;
			e->eal_argv[n] = NULL;
		}
	}

	/* The TSC's calibration spans EAL's start (wr_clock_eal.h). */
	wr_tsc_begin();
	/* rte_eal_init permutes argv: give it a copy.  Its log lines are
	 * kept aside while it starts: on failure they name what it rejected
	 * (one line for the user instead of EAL's three); on success they
	 * are passed on unless the run is quiet. */
	memcpy(argv, e->eal_argv, sizeof(argv));
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
	rc = rte_eal_init(e->eal_argc, argv);
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
		wr_engine_eal_abandon();
		return rc;
	}
	/* Passed on once the ports were found: until then a device EAL
	 * could not start makes one line, not EAL's three. */
	e->eal_log = logbuf;
	e->eal_up = true;
	/* rc arguments parsed after the program name: what is left is
	 * not EAL's. */
	if (rc + 1 < e->eal_argc)
		return eal_leftover(e, argv[rc + 1], err);
	return 0;
}

int
wr_engine_open(struct wr_engine **out, const struct wr_config *cfg,
	       const char *cfg_path, char **extra, int n_extra,
	       struct wr_error *err)
{
	struct wr_engine *e = calloc(1, sizeof(*e));
	int rc;

	*out = NULL;
	if (e == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	e->cfg = cfg;
	e->oversubscribe = true;
	rte_spinlock_init(&e->guard);
	snprintf(e->cfg_path, sizeof(e->cfg_path), "%s",
		 cfg_path ? cfg_path : "");
	rc = eal_start(e, extra, n_extra, err);
	if (rc == 0)
		rc = wr_eng_ports_resolve(e, err);
	if (rc == 0)
		rc = wr_eng_lcores_assign(e, err);
	if (rc == 0 && e->eal_log != NULL && !wr_eal_quiet)
		eal_log_pass(e->eal_log);
	free(e->eal_log);
	e->eal_log = NULL;
	if (rc == 0)
		rc = wr_eng_rx_lcores_assign(e, err);
	if (rc == 0)
		rc = wr_eng_ports_open(e, err);
	if (rc != 0) {
		wr_engine_close(e);
		return rc;
	}
	/* From EAL's start to here: the TSC's frequency, before anything
	 * is paced or timed. */
	if (wr_tsc_calibrate() != 0)
		WR_LOG(WARNING, "the TSC disagrees with CLOCK_MONOTONIC_RAW by "
		       "more than 1 %% of DPDK's %llu Hz (a TSC that is not "
		       "constant?): times and rates use DPDK's figure\n",
		       (unsigned long long)rte_get_tsc_hz());
	wr_eng_guard_start(e);
	*out = e;
	return 0;
}

void
wr_engine_close(struct wr_engine *e)
{
	if (e == NULL)
		return;
	wr_eng_guard_stop(e);
	wr_engine_unload(e);
	wr_port_close_all(e->ports, e->n_ports);
	if (e->eal_up)
		wr_engine_eal_cleanup();
	free(e);
}

int
wr_engine_tx_files_check(struct wr_engine *e, struct wr_error *err)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < e->n_ports && rc == 0; i++)
		rc = wr_port_tx_files_check(&e->ports[i], err);
	return rc;
}

unsigned int
wr_engine_n_ports(const struct wr_engine *e)
{
	return e->n_ports;
}

struct wr_port *
wr_engine_port(struct wr_engine *e, unsigned int i)
{
	return &e->ports[i];
}

const struct wr_rxq *
wr_engine_rxq(const struct wr_engine *e, unsigned int i, unsigned int q)
{
	return q < e->n_rxq[i] ? e->rxq[i][q] : NULL;
}

uint64_t
wr_engine_tsc_hz(const struct wr_engine *e __rte_unused)
{
	return wr_tsc_hz();
}

bool
wr_engine_stopping(const struct wr_engine *e)
{
	return __atomic_load_n(&e->stop, __ATOMIC_RELAXED) != 0;
}

bool
wr_engine_aborted(const struct wr_engine *e)
{
	return __atomic_load_n(&e->aborted, __ATOMIC_RELAXED) != 0;
}

bool
wr_engine_any_rx(const struct wr_engine *e)
{
	return e->any_rx;
}

const struct wr_report_view *
wr_engine_view(const struct wr_engine *e)
{
	return &e->view;
}

const struct wr_stream_file *
wr_engine_file(const struct wr_engine *e)
{
	return e->f;
}

const struct wr_config *
wr_engine_config(const struct wr_engine *e)
{
	return e->cfg;
}

void
wr_engine_set_oversubscribe(struct wr_engine *e, bool on)
{
	e->oversubscribe = on;
}

uint64_t
wr_engine_tsc_now(void)
{
	return rte_rdtsc();
}

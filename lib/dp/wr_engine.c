/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_engine: EAL, ports, lcores, stream contexts and counters for a run. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_version.h>

#include "wr_arp.h"
#include "wr_engine_priv.h"
#include "wr_rate.h"
#include "wr_runtime.h"
#include "wr_tsc.h"

RTE_LOG_REGISTER_DEFAULT(wr_engine_logtype, NOTICE);
#define WR_LOG(level, ...) \
	rte_log(RTE_LOG_##level, wr_engine_logtype, "wirerate: " __VA_ARGS__)

/* How long the main lcore sleeps between checks while it waits. */
#define WR_WAIT_SLICE_NS (20 * 1000 * 1000ull)
/* The interval a device clock is fitted over: 100 ms of two clocks read
 * within ~100 ns of each other gives the ratio to 1 ppm. */
#define WR_CLOCK_FIT_NS (100 * 1000 * 1000ull)
/* How long frames accepted by tx_burst get to leave before ports stop. */
#define WR_DRAIN_PORT_MS 100
/* The lcore's mempool cache (wr_tx.c) and bursts in flight, per stream
 * context, on top of the NIC's ring. */
#define WR_TX_POOL_SLACK (2 * 256)

/* How long port_leave() waits for the lcores to pass a quiescent point:
 * a turn of the loop takes microseconds; 500 ms covers an lcore the kernel
 * scheduled out on a CPU it shares (2-CPU machines). */
#define WR_LEAVE_WAIT_NS (500 * 1000 * 1000ull)

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
static volatile sig_atomic_t wr_open_cancelled;

void
wr_engine_cancel(void)
{
	wr_open_cancelled = 1;
}

/* The engine whose ports munmap() guards: one per process, set while its
 * ports are started. */
static struct wr_engine *wr_guarded;

/* Frames wirerate sent on port index @p i so far (any thread: the counters
 * have one writer and are read as snapshots). */
static uint64_t
port_tx_pkts(const struct wr_engine *e, unsigned int i)
{
	uint64_t n = 0;
	unsigned int j;
	uint32_t s;

	if (e->f == NULL)
		return 0;
	for (s = 0; s < e->f->n_streams; s++) {
		if (e->f->streams[s].port != i)
			continue;
		for (j = 0; j < e->n_ts[s]; j++)
			n += __atomic_load_n(&e->ts[s][j]->c.tx_pkts,
					     __ATOMIC_RELAXED);
	}
	return n;
}

/*
 * Raise the epoch and wait until every running lcore has acknowledged it
 * (passed a quiescent point, see struct wr_lcore_ctx) or ended, bounded by
 * WR_LEAVE_WAIT_NS: what was withdrawn before (a port's gone flag, a
 * capture) is no longer touched by any lcore.  Under e->guard.
 * @return false when an lcore did not acknowledge in time.
 */
static bool
quiesce(struct wr_engine *e)
{
	uint64_t epoch, end;
	unsigned int k;
	bool left = true;

	epoch = __atomic_add_fetch(&e->epoch, 1, __ATOMIC_RELEASE);
	end = rte_rdtsc() + wr_tsc_from_ns(WR_LEAVE_WAIT_NS);
	for (k = 0; e->launched && k < e->n_lcores; k++) {
		const struct wr_lcore_ctx *c = e->lctx[e->lcores[k]];

		while (__atomic_load_n(&c->ack, __ATOMIC_ACQUIRE) < epoch &&
		       __atomic_load_n(&c->finished, __ATOMIC_ACQUIRE) == 0) {
			if (rte_rdtsc() >= end) {
				left = false;
				break;
			}
			sched_yield();
		}
	}
	while (left && e->ext_ack != NULL &&
	       __atomic_load_n(e->ext_ack, __ATOMIC_ACQUIRE) < epoch &&
	       __atomic_load_n(e->ext_done, __ATOMIC_ACQUIRE) == 0) {
		if (rte_rdtsc() >= end)
			left = false;
		sched_yield();
	}
	return left;
}

/*
 * Port index @p i went away: set its gone flag, raise the epoch, and wait
 * until every running lcore has acknowledged it (passed a quiescent point,
 * or ended), bounded by WR_LEAVE_WAIT_NS.  Its counters are read first,
 * while the PMD still has them.  Main lcore or EAL's interrupt thread;
 * once per port.
 */
static void
port_leave(struct wr_engine *e, unsigned int i)
{
	struct wr_port_loss *l = &e->loss[i];
	bool left;

	rte_spinlock_lock(&e->guard);
	if (__atomic_load_n(&e->port_gone[i], __ATOMIC_RELAXED) != 0) {
		rte_spinlock_unlock(&e->guard);
		return;
	}
	l->tsc = rte_rdtsc();
	l->tx_pkts = e->launched ? port_tx_pkts(e, i) : 0;
	/* memif resets its counters when the peer goes: the last reading
	 * taken while the link was up is the honest one. */
	l->has_nic = wr_port_stats(&e->ports[i], &l->nic) == 0;
	if (e->nic_last_ok[i] && (!l->has_nic ||
				  l->nic.opackets < e->nic_last[i].opackets)) {
		l->nic = e->nic_last[i];
		l->has_nic = true;
	}
	__atomic_store_n(&e->port_gone[i], 1, __ATOMIC_RELAXED);
	left = quiesce(e);
	l->left = left;
	if (!left)
		e->leave_timeouts++;
	e->n_lost++;
	rte_spinlock_unlock(&e->guard);
	WR_LOG(WARNING, "port %s: link lost%s\n", e->ports[i].device,
	       left ? "" : "; an lcore did not leave it in time");
}

/* Leave every port whose link is down. */
static unsigned int
links_check(struct wr_engine *e)
{
	struct rte_eth_link link;
	unsigned int i;

	for (i = 0; i < e->n_ports; i++) {
		if (__atomic_load_n(&e->port_gone[i], __ATOMIC_RELAXED) != 0 ||
		    !e->ports[i].started)
			continue;
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(e->ports[i].port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_DOWN)
			port_leave(e, i);
	}
	return e->n_lost;
}

void
wr_engine_watch(struct wr_engine *e, const uint64_t *ack, const uint32_t *done)
{
	rte_spinlock_lock(&e->guard);
	e->ext_ack = ack;
	e->ext_done = done;
	rte_spinlock_unlock(&e->guard);
}

unsigned int
wr_engine_links_check(struct wr_engine *e)
{
	return links_check(e);
}

/* LSC and RMV events (EAL's interrupt thread). */
static int
on_port_event(uint16_t port_id, enum rte_eth_event_type type, void *arg,
	      void *ret_param __rte_unused)
{
	struct wr_engine *e = arg;
	unsigned int i;

	for (i = 0; i < e->n_ports; i++) {
		if (e->ports[i].port_id != port_id)
			continue;
		if (type == RTE_ETH_EVENT_INTR_RMV)
			port_leave(e, i);
		else
			links_check(e);
	}
	return 0;
}

/*
 * The memif PMD of DPDK 22.11 raises no event when its peer goes: its
 * interrupt thread marks the link down and then, in memif_disconnect(),
 * unmaps the peer's regions and frees their descriptors while an lcore
 * may still be inside eth_memif_tx/rx on them (SIGSEGV in about one run in
 * three when the peer was killed).  The unmap is the only point that
 * comes between the two which an application can see, so wirerate defines
 * munmap: in EAL's interrupt thread, while a run's ports are up, it first
 * leaves every port whose link is already down, then unmaps.  Everywhere
 * else it is the system call, as libc's is.  The executable exports it
 * (app/meson.build) so the PMD, loaded later, binds to it.
 */
int
munmap(void *addr, size_t len)
{
	struct wr_engine *e = __atomic_load_n(&wr_guarded, __ATOMIC_ACQUIRE);

	if (e != NULL && rte_thread_is_intr())
		links_check(e);
	return (int)syscall(SYS_munmap, addr, len);
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
 * hugetlbfs is mounted) and unlinked after, and the directory is emptied
 * and removed, unless another live process holds its config lock (EAL's
 * own sign that a primary process owns it).
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

/* Empty and remove EAL's runtime directory @p dir, unless another live
 * process owns it. */
static void
runtime_dir_remove(const char *dir)
{
	struct dirent *de;
	DIR *d;

	if (dir == NULL || dir[0] == '\0' || runtime_dir_owned_elsewhere(dir))
		return;
	d = opendir(dir);
	if (d != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strcmp(de->d_name, ".") != 0 &&
			    strcmp(de->d_name, "..") != 0)
				unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
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

/*
 * Port @p device was asked for and EAL has none of that name: when EAL's
 * start-up lines say it failed to start it (a --vdev with an argument its
 * driver refuses), the EAL option is what is wrong, not the port.
 * @return -EINVAL with @p err filled, or 0 when EAL said nothing of it.
 */
static int
probe_failed(struct wr_engine *e, const char *device, struct wr_error *err)
{
	char what[160];
	const char *l, *nl, *q;
	size_t dn = strlen(device);
	int i;

	for (l = e->eal_log; l != NULL && *l != '\0'; l = nl ? nl + 1 : NULL) {
		nl = strchr(l, '\n');
		/* DPDK 22.11's vdev bus: "vdev_probe(): failed to
		 * initialize NAME device". */
		q = strstr(l, "failed to initialize ");
		if (q == NULL || (nl != NULL && q > nl))
			continue;
		q += strlen("failed to initialize ");
		if (strncmp(q, device, dn) != 0 || q[dn] != ' ')
			continue;
		snprintf(what, sizeof(what), "%.*s", (int)(nl ? nl - l :
			 (ptrdiff_t)strlen(l)), l);
		for (i = (int)e->cfg->n_eal_args - 1; i >= 0; i--) {
			const char *a = e->cfg->eal_args[i], *v = strchr(a, '=');

			v = v ? v + 1 : a;
			if (strncmp(v, device, dn) == 0 &&
			    (v[dn] == '\0' || v[dn] == ','))
				return wr_error_set(err, -EINVAL, e->cfg_path,
					e->cfg->eal_marks[i].line,
					e->cfg->eal_marks[i].col, NULL,
					"eal[%d]: EAL could not start the device of "
					"\"%s\" (%s): check its arguments", i, a,
					what);
		}
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "EAL could not start device %s (%s): check "
				    "its arguments", device, what);
	}
	return 0;
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

	/* The TSC's calibration spans EAL's start (wr_tsc.h). */
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

/* The profile's ports, or every probed port. */
static int
ports_resolve(struct wr_engine *e, struct wr_error *err)
{
	uint16_t pid;
	unsigned int i;

	if (e->cfg->n_ports > 0) {
		for (i = 0; i < e->cfg->n_ports; i++) {
			struct wr_port *p = &e->ports[i];

			if (wr_port_find(e->cfg->ports[i].device, &p->port_id,
					 err) != 0) {
				if (probe_failed(e, e->cfg->ports[i].device,
						 err) != 0)
					return -EINVAL;
				snprintf(err->file, sizeof(err->file), "%s",
					 e->cfg_path);
				snprintf(err->path, sizeof(err->path),
					 "ports[%u].device", i);
				err->line = e->cfg->ports[i].device_mark.line;
				err->col = e->cfg->ports[i].device_mark.col;
				return -ENODEV;
			}
			p->index = i;
			snprintf(p->device, sizeof(p->device), "%s",
				 e->cfg->ports[i].device);
		}
		e->n_ports = e->cfg->n_ports;
		return 0;
	}
	RTE_ETH_FOREACH_DEV(pid) {
		struct wr_port *p;

		if (e->n_ports == WR_PORTS_MAX)
			break;
		p = &e->ports[e->n_ports];
		p->port_id = pid;
		p->index = e->n_ports++;
		rte_eth_dev_get_name_by_port(pid, p->device);
	}
	if (e->n_ports == 0) {
		const char *q = e->eal_log ?
			strstr(e->eal_log, "failed to initialize ") : NULL;
		char dev[RTE_ETH_NAME_MAX_LEN];

		if (q != NULL &&
		    sscanf(q, "failed to initialize %63s device", dev) == 1 &&
		    probe_failed(e, dev, err) != 0)
			return -EINVAL;
		return wr_error_set(err, -ENODEV, NULL, 0, 0, NULL,
				    "EAL found no ports: give a device (-a PCI "
				    "address or --vdev) after --, or a --config");
	}
	return 0;
}

/* Whether lcore @p lc, given by port @p i's @p key, is an enabled worker;
 * @p err says why not. */
static bool
worker_ok(const struct wr_engine *e, unsigned int i, unsigned int lc,
	  const char *key, const struct wr_config_mark *mark,
	  struct wr_error *err)
{
	unsigned int main_lcore = rte_get_main_lcore();

	if (lc < RTE_MAX_LCORE && rte_lcore_is_enabled(lc) && lc != main_lcore)
		return true;
	wr_error_set(err, -EINVAL, e->cfg_path, mark->line, mark->col, NULL,
		     "ports[%u].%s: lcore %u is %s", i, key, lc,
		     lc == main_lcore ? "the main lcore, which prints the "
		     "statistics; give a worker lcore" :
		     "not enabled in EAL's --lcores/-l");
	return false;
}

/* Each port's TX lcores: the profile's, or the workers shared out. */
static int
lcores_assign(struct wr_engine *e, struct wr_error *err)
{
	unsigned int workers[RTE_MAX_LCORE], n_workers = 0, lc, i, j;

	RTE_LCORE_FOREACH_WORKER(lc)
		workers[n_workers++] = lc;
	for (i = 0; i < e->n_ports; i++) {
		const struct wr_port_cfg *pc =
			i < e->cfg->n_ports ? &e->cfg->ports[i] : NULL;

		if (pc != NULL && pc->no_tx) {
			e->port_n_lcores[i] = 0;   /* receives only */
			continue;
		}
		if (pc != NULL && pc->n_tx_lcores > 0) {
			for (j = 0; j < pc->n_tx_lcores; j++) {
				lc = pc->tx_lcores[j];
				if (!worker_ok(e, i, lc, "tx_lcores",
					       &pc->tx_lcores_mark, err))
					return -EINVAL;
				e->port_lcores[i][j] = lc;
			}
			e->port_n_lcores[i] = pc->n_tx_lcores;
			continue;
		}
		if (n_workers == 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"no worker lcore for TX: the main lcore only "
				"prints statistics; give EAL two lcores or more "
				"(e.g. --lcores=0@0,1@1)");
		/* More workers than ports: each port takes every n-th
		 * worker; fewer: ports share workers. */
		if (n_workers >= e->n_ports) {
			for (j = i; j < n_workers &&
				    e->port_n_lcores[i] < WR_PORT_LCORES_MAX;
			     j += e->n_ports)
				e->port_lcores[i][e->port_n_lcores[i]++] =
					workers[j];
		} else {
			e->port_lcores[i][0] = workers[i % n_workers];
			e->port_n_lcores[i] = 1;
		}
	}
	return 0;
}

/*
 * Each port's RX lcores, one RX queue each: the profile's rx_lcores (or
 * rx_lcore), else the port's first TX lcore (TX and RX share a worker on
 * a 2-CPU machine), else the first worker.  Whether a queue is polled is
 * decided at load (rx_setup()).
 */
static int
rx_lcores_assign(struct wr_engine *e, struct wr_error *err)
{
	unsigned int i, q, lc;

	for (i = 0; i < e->n_ports; i++) {
		const struct wr_port_cfg *pc =
			i < e->cfg->n_ports ? &e->cfg->ports[i] : NULL;

		e->port_n_rx[i] = 0;
		if (pc != NULL && pc->no_rx)
			continue;              /* sends only */
		if (pc != NULL && pc->n_rx_lcores > 0) {
			for (q = 0; q < pc->n_rx_lcores; q++) {
				lc = pc->rx_lcores[q];
				if (!worker_ok(e, i, lc, pc->rx_lcores_key,
					       &pc->rx_lcore_mark, err))
					return -EINVAL;
				e->port_rx_lcores[i][q] = lc;
			}
			e->port_n_rx[i] = pc->n_rx_lcores;
			continue;
		}
		lc = e->port_n_lcores[i] > 0 ? e->port_lcores[i][0] :
			rte_get_next_lcore(-1, 1, 0);
		if (lc >= RTE_MAX_LCORE)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					    "no worker lcore to poll port %s",
					    e->ports[i].device);
		e->port_rx_lcores[i][0] = lc;
		e->port_n_rx[i] = 1;
	}
	return 0;
}

/*
 * Hardware RX timestamps are mapped onto the TSC (wr_clock.h): a first fit
 * over WR_CLOCK_FIT_NS before any frame is sent, then a refit at every
 * collect.  A port whose clock cannot be read falls back to the TSC.
 */
static void
clocks_fit(struct wr_engine *e)
{
	struct wr_clock_pair a[WR_PORTS_MAX];
	struct wr_clock_map m;
	unsigned int i;
	bool any = false;

	for (i = 0; i < e->n_ports; i++) {
		struct wr_port *p = &e->ports[i];

		if (!p->rx_hwts)
			continue;
		if (wr_port_clock_pair(p, &a[i].tsc, &a[i].dev) != 0) {
			WR_LOG(NOTICE, "port %s stamps received frames but its "
			       "clock cannot be read: latency uses the TSC\n",
			       p->device);
			p->rx_hwts = false;
			continue;
		}
		any = true;
	}
	if (!any)
		return;
	wr_engine_sleep_ns(WR_CLOCK_FIT_NS);
	for (i = 0; i < e->n_ports; i++) {
		struct wr_port *p = &e->ports[i];
		struct wr_clock_pair b;

		if (!p->rx_hwts)
			continue;
		if (wr_port_clock_pair(p, &b.tsc, &b.dev) != 0 ||
		    wr_clock_fit(&m, &a[i], &b) != 0) {
			WR_LOG(NOTICE, "port %s: its clock does not advance: "
			       "latency uses the TSC\n", p->device);
			p->rx_hwts = false;
			continue;
		}
		wr_clock_pub_set(&e->clock[i], &m);
		e->clock_last[i] = b;
	}
}

/* Refit each hardware clock from its last pair, at least
 * WR_CLOCK_FIT_NS apart (main lcore, at every collect). */
static void
clocks_refit(struct wr_engine *e)
{
	struct wr_clock_pair b;
	struct wr_clock_map m;
	unsigned int i;

	for (i = 0; i < e->n_ports; i++) {
		if (!e->ports[i].rx_hwts ||
		    wr_port_clock_pair(&e->ports[i], &b.tsc, &b.dev) != 0 ||
		    wr_engine_tsc_to_ns(e, b.tsc - e->clock_last[i].tsc) <
			    WR_CLOCK_FIT_NS ||
		    wr_clock_fit(&m, &e->clock_last[i], &b) != 0)
			continue;
		wr_clock_pub_set(&e->clock[i], &m);
		e->clock_last[i] = b;
	}
}

static int
ports_open(struct wr_engine *e, struct wr_error *err)
{
	unsigned int i, j;
	int rc;

	for (i = 0; i < e->n_ports; i++) {
		struct wr_port *p = &e->ports[i];
		const struct wr_port_cfg *pc =
			i < e->cfg->n_ports ? &e->cfg->ports[i] : NULL;

		rc = wr_port_setup(p, (uint16_t)e->port_n_lcores[i],
				   (uint16_t)e->port_n_rx[i],
				   pc ? pc->txd : 0, pc ? pc->rxd : 0,
				   e->cfg->max_frame, err);
		if (rc != 0)
			return rc;
		for (j = 0; j < e->port_n_lcores[i]; j++) {
			unsigned int lc = e->port_lcores[i][j];
			int ls = (int)rte_lcore_to_socket_id(lc);

			if (p->socket_id >= 0 && ls != p->socket_id)
				WR_LOG(WARNING, "TX lcore %u is on NUMA node %d, "
				       "port %s on node %d: expect lower rates\n",
				       lc, ls, p->device, p->socket_id);
		}
	}
	for (i = 0; i < e->n_ports; i++) {
		rc = wr_port_start(&e->ports[i], err);
		if (rc != 0)
			return rc;
	}
	for (i = 0; i < e->n_ports; i++) {
		uint32_t waited = 0;

		/* In slices, so that a signal ends the wait. */
		while (wr_port_wait_link(&e->ports[i], 0) != 0) {
			if (wr_open_cancelled)
				return wr_error_set(err, -ECANCELED, NULL, 0, 0,
						    NULL, "stopped by a signal "
						    "while waiting for port "
						    "%s's link", e->ports[i].device);
			if (waited >= e->cfg->link_wait_ms)
				return wr_error_set(err, -ETIMEDOUT, NULL, 0, 0,
						    NULL, "port %s: link still "
						    "down after %u ms "
						    "(link_wait_ms)",
						    e->ports[i].device,
						    e->cfg->link_wait_ms);
			wr_engine_sleep_ns(10 * 1000 * 1000ull);
			waited += 10;
		}
	}
	/* The profile's settle time: a peer may report link up before it
	 * forwards (memif), and frames sent then would count as lost. */
	if (e->cfg->settle_ms > 0)
		wr_engine_sleep_ns((uint64_t)e->cfg->settle_ms * 1000000ull);
	clocks_fit(e);
	return 0;
}

/* The LSC and RMV events of every port, on or off. */
static void
port_events(struct wr_engine *e, bool on)
{
	static const enum rte_eth_event_type ev[] = {
		RTE_ETH_EVENT_INTR_LSC, RTE_ETH_EVENT_INTR_RMV,
	};
	unsigned int i, k;

	/* Not every PMD raises them: -ENOTSUP is fine.  A port closed
	 * already (rtt closes its own before the engine goes) was released
	 * with its callbacks: ethdev would only say "Invalid port_id". */
	for (i = 0; i < e->n_ports; i++)
		for (k = 0; k < RTE_DIM(ev); k++) {
			if (!on && !e->ports[i].configured)
				continue;
			if (on)
				rte_eth_dev_callback_register(
					e->ports[i].port_id, ev[k],
					on_port_event, e);
			else
				rte_eth_dev_callback_unregister(
					e->ports[i].port_id, ev[k],
					on_port_event, e);
		}
}

/* From here on a port that goes away is left (see wr_engine.h). */
static void
guard_start(struct wr_engine *e)
{
	port_events(e, true);
	__atomic_store_n(&wr_guarded, e, __ATOMIC_RELEASE);
}

static void
guard_stop(struct wr_engine *e)
{
	if (__atomic_load_n(&wr_guarded, __ATOMIC_ACQUIRE) != e)
		return;
	__atomic_store_n(&wr_guarded, NULL, __ATOMIC_RELEASE);
	port_events(e, false);
	/* A port_leave() already running in the interrupt thread ends
	 * under the lock. */
	rte_spinlock_lock(&e->guard);
	rte_spinlock_unlock(&e->guard);
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
		rc = ports_resolve(e, err);
	if (rc == 0)
		rc = lcores_assign(e, err);
	if (rc == 0 && e->eal_log != NULL && !wr_eal_quiet)
		eal_log_pass(e->eal_log);
	free(e->eal_log);
	e->eal_log = NULL;
	if (rc == 0)
		rc = rx_lcores_assign(e, err);
	if (rc == 0)
		rc = ports_open(e, err);
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
	guard_start(e);
	*out = e;
	return 0;
}

static struct wr_lcore_ctx *
lcore_ctx(struct wr_engine *e, unsigned int lc)
{
	struct wr_lcore_ctx *c = e->lctx[lc];

	if (c != NULL)
		return c;
	c = rte_zmalloc_socket("wr_lcore", sizeof(*c), RTE_CACHE_LINE_SIZE,
			       rte_lcore_to_socket_id(lc));
	if (c == NULL)
		return NULL;
	c->lcore_id = lc;
	c->burst = e->cfg->burst;
	c->stop = &e->stop;
	c->stop_rx = &e->stop_rx;
	c->epoch = &e->epoch;
	c->tsc_hz_word = wr_tsc_hz_word();
	c->tsc_hz = wr_tsc_hz();
	e->lctx[lc] = c;
	e->lcores[e->n_lcores++] = lc;
	return c;
}

static struct wr_txq *
lcore_txq(struct wr_lcore_ctx *c, uint16_t port_id, uint16_t queue_id)
{
	unsigned int i;

	for (i = 0; i < c->n_txq; i++)
		if (c->txq[i].port_id == port_id &&
		    c->txq[i].queue_id == queue_id)
			return &c->txq[i];
	if (c->n_txq == WR_LCORE_TXQ_MAX)
		return NULL;
	c->txq[c->n_txq].port_id = port_id;
	c->txq[c->n_txq].queue_id = queue_id;
	return &c->txq[c->n_txq++];
}

/* The queue of each sequenced port's first lane runs its streams in file
 * order, as their next: says. */
static int
sequences_setup(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	enum wr_sched_next next[WR_TXQ_STREAMS_MAX];
	unsigned int i, qi, si;

	for (i = 0; i < e->n_ports; i++) {
		struct wr_lcore_ctx *c;

		if (!wr_stream_file_port_sequenced(f, (uint16_t)i) ||
		    e->port_n_lcores[i] == 0 ||
		    (c = e->lctx[e->port_lcores[i][0]]) == NULL)
			continue;
		for (qi = 0; qi < c->n_txq; qi++) {
			struct wr_txq *q = &c->txq[qi];

			if (q->port_id != e->ports[i].port_id ||
			    q->queue_id != 0)
				continue;
			for (si = 0; si < q->n_streams; si++)
				next[si] = f->streams[q->streams[si]->stream_id].next;
			if (wr_txq_set_sequence(q, next, f->loops) != 0)
				return wr_error_set(err, -EINVAL, f->path, 0, 0,
						    NULL, "port %u: cannot "
						    "sequence its streams", i);
		}
	}
	return 0;
}

/*
 * A replayed stream's frames must fit its port and its memory budget:
 * checked for every lane before any pool is made, so a capture that does
 * not fit stops the run with one message saying what to change.
 */
/* A TX pool's size: enough for the NIC's ring, a burst pending and the
 * lcore's mempool cache; 2^q - 1 suits the pool's ring. */
static unsigned int
tx_pool_size(const struct wr_engine *e, const struct wr_stream *st)
{
	unsigned int burst = st->burst ? st->burst : e->cfg->burst, k;
	unsigned int n = e->ports[st->port].txd + 4 * burst + WR_TX_POOL_SLACK;

	for (k = 1; k < n; k <<= 1)
		;
	return k - 1;
}

static int
replay_check(struct wr_engine *e, uint32_t s, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	const struct wr_stream *st = &f->streams[s];
	const struct wr_replay_spec *r = st->replay;
	const struct wr_port *p = &e->ports[st->port];
	const char *what = r->from_frame ? "frame" : r->pcap;
	unsigned int n = wr_stream_file_port_sequenced(f, st->port) ? 1 :
		e->port_n_lcores[st->port], j;
	uint64_t need = 0;
	uint16_t mtu;
	int64_t k;

	if (rte_eth_dev_get_mtu(p->port_id, &mtu) == 0 &&
	    (k = wr_capture_over_mtu(&r->cap, mtu)) >= 0)
		return wr_error_set(err, -EINVAL, what, 0, 0, NULL,
			"record %lld: a frame of %u bytes is larger than port "
			"%s takes (MTU %u: %u bytes after the Ethernet "
			"header); raise the port's MTU or leave such frames "
			"out (editcap)", (long long)k + 1, r->cap.len[k],
			p->device, mtu, mtu);
	for (j = 0; j < n; j++)
		need += wr_replay_lane_mem(r, n, j, tx_pool_size(e, st));
	if (need > r->memory_bytes)
		return wr_error_set(err, -EINVAL, f->path, st->mark.line,
			st->mark.col, NULL, "streams[%u] (%s): its %u frames "
			"need %.1f MiB of hugepage memory (up to %u bytes "
			"each, %u lane%s), over its budget of %.1f MiB: "
			"raise memory: (e.g. memory: %llu MiB) and reserve the "
			"hugepages (tools/wr-hugepages), or replay fewer frames "
			"(editcap -r)", s, st->name, r->cap.n,
			(double)need / (1 << 20), r->cap.max_len, n,
			n == 1 ? "" : "s", (double)r->memory_bytes / (1 << 20),
			(unsigned long long)((need >> 20) + 1));
	return 0;
}

/* A stream whose frames its port was not set up for (a server's profile
 * without max_frame, jumbo streams loaded later): refused, not sent to be
 * cut or dropped. */
static int
frame_fits_port(struct wr_engine *e, uint32_t s, struct wr_error *err)
{
	const struct wr_stream *st = &e->f->streams[s];
	const struct wr_port *p = &e->ports[st->port];
	uint32_t len = (uint32_t)wr_frame_tmpl_max_len(e->tmpl[s]) +
		       WR_FCS_LEN;

	if (p->frame_max == 0 || len <= p->frame_max)
		return 0;
	return wr_error_set(err, -EMSGSIZE, e->f->path, st->mark.line,
			    st->mark.col, NULL, "streams[%u] (%s): frames of up "
			    "to %u bytes, port %s was set up for %u (its MTU "
			    "and RX buffers): give the profile max_frame: %u",
			    s, st->name, len, p->device, p->frame_max, len);
}

static int
streams_setup(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	unsigned int j;
	uint32_t s;
	int rc;

	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];

		if (st->port >= e->n_ports)
			return wr_error_set(err, -ENODEV, f->path,
				st->mark.line, st->mark.col, NULL,
				"streams[%u].port: port %u does not exist: "
				"there %s %u port%s (0..%u)", s, st->port,
				e->n_ports == 1 ? "is" : "are", e->n_ports,
				e->n_ports == 1 ? "" : "s", e->n_ports - 1);
		if (e->port_n_lcores[st->port] == 0)
			return wr_error_set(err, -EINVAL, f->path,
				st->mark.line, st->mark.col, NULL,
				"streams[%u].port: port %u only receives (its "
				"profile entry has tx_lcores: [])", s, st->port);
		if (st->replay != NULL) {
			rc = replay_check(e, s, err);
			if (rc != 0)
				return rc;
			continue;
		}
		rc = wr_engine_tmpl_create(f, s, &e->tmpl[s], err);
		if (rc != 0)
			return rc;
		rc = frame_fits_port(e, s, err);
		if (rc != 0)
			return rc;
	}

	/* Every stream is sent by all TX lcores of its port: lane j of k
	 * sends frames j, j+k, j+2k, ... (see wr_frame.h).  The streams of a
	 * sequenced port run one at a time on the port's first lane only:
	 * lanes would otherwise have to agree on when each stream ends. */
	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];
		struct wr_port *p = &e->ports[st->port];
		bool seq = wr_stream_file_port_sequenced(f, st->port);
		unsigned int n = seq ? 1 : e->port_n_lcores[st->port];
		unsigned int n_mbufs = tx_pool_size(e, st);
		for (j = 0; j < n; j++) {
			unsigned int lc = e->port_lcores[st->port][j];
			struct wr_lcore_ctx *c = lcore_ctx(e, lc);
			struct wr_tx_stream *ts;
			struct wr_txq *q;

			if (c == NULL)
				return wr_error_set(err, -ENOMEM, NULL, 0, 0,
						    NULL, "out of memory");
			q = lcore_txq(c, p->port_id, (uint16_t)j);
			if (q == NULL || q->n_streams == WR_TXQ_STREAMS_MAX)
				return wr_error_set(err, -EINVAL, NULL, 0, 0,
						    NULL, "lcore %u has too many "
						    "queues or streams", lc);
			q->gone = &e->port_gone[st->port];
			ts = rte_zmalloc_socket("wr_tx_stream", sizeof(*ts),
						RTE_CACHE_LINE_SIZE,
						rte_lcore_to_socket_id(lc));
			if (ts == NULL)
				return wr_error_set(err, -ENOMEM, NULL, 0, 0,
						    NULL, "out of memory");
			e->ts[s][e->n_ts[s]++] = ts;
			if (st->replay != NULL)
				rc = wr_tx_stream_init_replay(ts, st->replay,
					s, st->count, j, n, n_mbufs,
					p->socket_id >= 0 ?
					p->socket_id :
					(int)rte_lcore_to_socket_id(lc), err);
			else
				rc = wr_tx_stream_init(ts, e->tmpl[s], s,
					st->count, j, n, n_mbufs,
					p->socket_id >= 0 ? p->socket_id :
					(int)rte_lcore_to_socket_id(lc), err);
			if (rc != 0) {
				snprintf(err->path, sizeof(err->path),
					 "stream %s", st->name);
				return rc;
			}
			q->streams[q->n_streams++] = ts;
			if (p->tx_cksum && st->replay == NULL)
				wr_tx_stream_cksum_offload(ts, p->port_id,
							   (uint16_t)j);
		}
	}
	return sequences_setup(e, err);
}

/* rx_classes: the profile's, then the stream file's, each as eBPF. */
static int
classes_setup(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_rx_classes *lists[2] = { &e->cfg->classes,
						 &e->f->classes };
	unsigned int l, k, n = 0;
	char what[WR_RX_CLASS_NAME_MAX + 16];
	int rc;

	rc = wr_rx_classes_check_pair(lists[0], lists[1], err);
	if (rc != 0)
		return rc;
	if (lists[0]->n + lists[1]->n == 0)
		return 0;
	e->class_bpf = rte_zmalloc("wr_classes", (lists[0]->n + lists[1]->n) *
				   sizeof(*e->class_bpf), RTE_CACHE_LINE_SIZE);
	if (e->class_bpf == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	for (l = 0; l < 2; l++)
		for (k = 0; k < lists[l]->n; k++) {
			const struct wr_rx_class *c = &lists[l]->c[k];

			snprintf(what, sizeof(what), "class %s", c->name);
			rc = wr_bpf_load(&e->class_bpf[n], &c->filter, what,
					 err);
			if (rc != 0)
				return rc;
			e->class_names[n++] = c->name;
			e->n_classes = n;
		}
	return 0;
}

/* Whether port @p i is polled: it has an RX lcore and something wants
 * what it receives (echoes may come back on any port: a reflector returns
 * them on the port they left, a router on another). */
static bool
port_polled(const struct wr_engine *e, unsigned int i, bool rx,
	    bool latency)
{
	const struct wr_port_cfg *pc =
		i < e->cfg->n_ports ? &e->cfg->ports[i] : NULL;

	return e->port_n_rx[i] > 0 &&
	       (rx || latency || e->rx_want[i] || e->n_classes > 0 ||
		(pc != NULL && pc->n_rx_lcores > 0));
}

/* The raw layers of every stream's frames: any port may receive any
 * stream's echoes (through a device under test). */
static void
rx_hints(const struct wr_engine *e, struct wr_pkt_hints *h)
{
	struct wr_pkt_raw raw;
	uint32_t s;

	memset(h, 0, sizeof(*h));
	for (s = 0; s < e->f->n_streams; s++)
		if (e->tmpl[s] != NULL && wr_frame_tmpl_rx_hint(e->tmpl[s], &raw) == 0)
			(void)wr_pkt_hints_add(h, &raw); /* past 8: not found */
}

static int
rx_setup(struct wr_engine *e, bool rx, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	uint16_t lanes[WR_STREAMS_MAX];
	unsigned int i, q, lc;
	bool trains = false, latency = false;
	uint32_t s;
	int rc;

	for (s = 0; s < f->n_streams; s++) {
		lanes[s] = f->streams[s].latency ?
			(uint16_t)e->port_n_lcores[f->streams[s].port] : 0;
		latency |= f->streams[s].latency;
		trains |= f->streams[s].train_frames != 0 ||
			(f->streams[s].replay != NULL &&
			 f->streams[s].replay->timing ==
			 WR_REPLAY_TIMING_CAPTURE);
	}
	rc = classes_setup(e, err);
	if (rc != 0)
		return rc;
	e->any_rx = false;
	for (i = 0; i < e->n_ports; i++)
		e->any_rx |= port_polled(e, i, rx, latency);
	/* Histogram snapshots: echoes' latency (even with no port polled:
	 * the streams' rows still say none came back), trains' spacing. */
	if (e->any_rx || latency || trains) {
		e->scratch = rte_zmalloc("wr_scratch", sizeof(*e->scratch),
					 RTE_CACHE_LINE_SIZE);
		if (e->scratch == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
	}
	for (i = 0; i < e->n_ports; i++) {
		if (!port_polled(e, i, rx, latency))
			continue;
		for (q = 0; q < e->port_n_rx[i]; q++) {
			struct wr_lcore_ctx *c;
			struct wr_rxq *rq;
			int sock;

			lc = e->port_rx_lcores[i][q];
			sock = (int)rte_lcore_to_socket_id(lc);
			c = lcore_ctx(e, lc);
			rq = rte_zmalloc_socket("wr_rxq", sizeof(*rq),
						RTE_CACHE_LINE_SIZE, sock);
			if (c == NULL || rq == NULL ||
			    c->n_rxq == WR_LCORE_RXQ_MAX ||
			    wr_rxq_init(rq, e->ports[i].port_id, (uint16_t)q,
					(uint16_t)f->n_streams, lanes,
					e->n_classes, sock) != 0) {
				if (rq != NULL)
					wr_rxq_fini(rq);
				rte_free(rq);
				return wr_error_set(err, c != NULL &&
					c->n_rxq == WR_LCORE_RXQ_MAX ?
					-EINVAL : -ENOMEM, NULL, 0, 0, NULL,
					"cannot set up RX queue %u of port %s%s",
					q, e->ports[i].device, c != NULL &&
					c->n_rxq == WR_LCORE_RXQ_MAX ?
					": lcore polls too many queues" : "");
			}
			rq->lcore_id = lc;
			rq->n_classes = e->n_classes;
			rq->classes = e->class_bpf;
			if (e->ports[i].rx_hwts) {
				rq->hwts = true;
				rq->hwts_off = e->ports[i].hwts_off;
				rq->hwts_flag = e->ports[i].hwts_flag;
				rq->clock = &e->clock[i];
			}
			rx_hints(e, &rq->hints);
			for (s = 0; s < f->n_streams; s++)
				if (e->tmpl[s] != NULL)
					wr_rx_sig_offs_add(rq,
						wr_frame_tmpl_sig_off(e->tmpl[s]));
			e->rxq[i][q] = rq;
			e->n_rxq[i] = q + 1;
			c->rxq_gone[c->n_rxq] = &e->port_gone[i];
			c->rxq[c->n_rxq++] = rq;
		}
	}
	return 0;
}

/* A ramp's rates as packet rates for the stream's sizes and link. */
static int
ramp_of(const struct wr_stream *st, const struct wr_size_avg *avg,
	uint32_t link, struct wr_ramp *r)
{
	int rc;

	r->shape = st->ramp.shape;
	r->at_end = st->ramp.at_end;
	r->step_ns = st->ramp.step_ns;
	rc = wr_rate_millipps(&st->ramp.from, avg, link, &r->start_millipps);
	if (rc == 0)
		rc = wr_rate_millipps(&st->ramp.to, avg, link, &r->end_millipps);
	if (rc == 0)
		rc = wr_rate_millipps(&st->ramp.step, avg, link,
				      &r->step_millipps);
	if (rc == 0)
		rc = wr_ramp_check(r);
	return rc;
}

/*
 * Rates need the link speed (percentages, and bit rates of size mixes are
 * exact only per cycle), so they are set once the links are up.  A port
 * whose streams ask more than its link carries is reported, not clipped:
 * the report shows the achieved rate beside the target.  A ramp counts with
 * its higher end; a sequenced port with its fastest stream (they never run
 * together).
 */
static int
rates_setup(struct wr_engine *e, struct wr_error *err)
{
	static uint64_t l1[WR_PORTS_MAX][WR_STREAMS_MAX]; /* main lcore only */
	const struct wr_stream_file *f = e->f;
	unsigned int n_l1[WR_PORTS_MAX] = { 0 };
	char line[256];
	unsigned int i, j;
	uint32_t s;

	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];
		uint32_t link = e->ports[st->port].link_speed_mbps;
		const struct wr_rate_spec *top = &st->rate;
		struct wr_size_avg avg;
		struct wr_tx_pace pc;
		struct wr_ramp ramp;
		uint64_t mpps, bps;
		int rc;

		rc = wr_size_avg_of(&st->size, &avg);
		if (st->replay != NULL) {
			/* Exact per pass: every frame's wire size. */
			const struct wr_capture *c = &st->replay->cap;

			avg.frames = c->n;
			avg.bytes = 0;
			for (j = 0; j < c->n; j++)
				avg.bytes += wr_capture_wire_len(c->len[j]);
		}
		if (rc == 0 && st->has_ramp) {
			rc = ramp_of(st, &avg, link, &ramp);
			mpps = ramp.start_millipps;
			top = ramp.end_millipps > ramp.start_millipps ?
			      &st->ramp.to : &st->ramp.from;
		} else if (rc == 0) {
			rc = wr_rate_millipps(&st->rate, &avg, link, &mpps);
		}
		if (rc != 0)
			return wr_error_set(err, -EINVAL, f->path,
				st->mark.line, st->mark.col, NULL,
				"streams[%u].%s: %s", s,
				st->has_ramp ? "ramp" : "rate",
				(st->has_ramp ? st->ramp.from.unit == WR_RATE_PERCENT ||
				 st->ramp.to.unit == WR_RATE_PERCENT ||
				 st->ramp.step.unit == WR_RATE_PERCENT :
				 st->rate.unit == WR_RATE_PERCENT) && link == 0 ?
				"a percentage of the line rate needs the link "
				"speed, which this port does not report; give "
				"pps or bps" :
				"the rate is out of range for this stream");
		e->target_millipps[s] = st->has_ramp ? WR_RATE_UNPACED : mpps;
		/* Trains: the stream's frames over its time come to the
		 * schedule's average (each lane's trains), not the rate
		 * within a train. */
		if (st->train_frames != 0 && mpps != WR_RATE_UNPACED) {
			e->target_millipps[s] = 0;
			for (j = 0; j < e->n_ts[s]; j++)
				e->target_millipps[s] += wr_rate_train_millipps(
					wr_rate_split(mpps, e->n_ts[s], j),
					st->train_frames, st->train_gap_ns);
		}
		if (st->replay != NULL &&
		    st->replay->timing == WR_REPLAY_TIMING_CAPTURE) {
			/* The capture's schedule paces it, not the pacer. */
			e->target_millipps[s] = wr_replay_capture_millipps(
				&st->replay->cap, st->replay->speedup_ppm);
			mpps = WR_RATE_UNPACED;
		}
		for (j = 0; j < e->n_ts[s]; j++) {
			memset(&pc, 0, sizeof(pc));
			pc.millipps = mpps == WR_RATE_UNPACED ? mpps :
				wr_rate_split(mpps, e->n_ts[s], j);
			pc.burst = st->burst ? st->burst : e->cfg->burst;
			pc.duration_ns = st->duration_ns;
			pc.isg_ns = st->isg_ns;
			pc.train_frames = st->train_frames;
			pc.train_gap_ns = st->train_gap_ns;
			pc.ramp = st->has_ramp ? &ramp : NULL;
			rc = wr_tx_stream_set_rate(e->ts[s][j], &pc);
			if (rc != 0)
				return wr_error_set(err, rc == -ENOMEM ? rc :
					-EINVAL, f->path,
					st->mark.line, st->mark.col, NULL,
					"streams[%u]: cannot pace this rate, "
					"train or duration (%s)", s,
					strerror(-rc));
		}
		/* Streams at the maximum share what the link has: only set
		 * rates can ask for more than it carries. */
		if (top->unit == WR_RATE_MAX ||
		    wr_rate_l1_bps(top, &avg, link, &bps) != 0)
			continue;
		if (wr_stream_file_port_sequenced(f, st->port)) {
			if (n_l1[st->port] == 0) {
				n_l1[st->port] = 1;
				l1[st->port][0] = 0;
			}
			if (bps > l1[st->port][0])
				l1[st->port][0] = bps;
		} else {
			l1[st->port][n_l1[st->port]++] = bps;
		}
	}
	for (i = 0; i < e->n_ports; i++) {
		struct wr_rate_load load = wr_rate_load(
			l1[i], n_l1[i], e->ports[i].link_speed_mbps);

		if (load.over && !e->oversubscribe) {
			const struct wr_stream *st = NULL;

			for (s = 0; s < f->n_streams && st == NULL; s++)
				if (f->streams[s].port == i)
					st = &f->streams[s];
			wr_rate_load_format(&load, i, line, sizeof(line));
			return wr_error_set(err, -EINVAL, f->path,
					    st ? st->mark.line : 0,
					    st ? st->mark.col : 0, NULL,
					    "%s: more than the link carries "
					    "(--oversubscribe sends anyway)",
					    line);
		}
		if (load.over) {
			wr_rate_load_format(&load, i, line, sizeof(line));
			WR_LOG(WARNING, "%s: the port cannot carry it all; "
			       "achieved rates will be lower\n", line);
		}
	}
	return 0;
}

static void
rows_init(struct wr_engine *e)
{
	const struct wr_stream_file *f = e->f;
	unsigned int i;

	memset(e->port_rows, 0, sizeof(e->port_rows));
	for (i = 0; i < e->n_ports; i++) {
		struct wr_report_row *p = &e->port_rows[i];

		snprintf(p->name, sizeof(p->name), "%s", e->ports[i].device);
		snprintf(p->device, sizeof(p->device), "%s", e->ports[i].device);
		snprintf(p->driver, sizeof(p->driver), "%s", e->ports[i].driver);
		p->port_id = e->ports[i].port_id;
		p->port = (uint16_t)i;
		p->link_speed_mbps = e->ports[i].link_speed_mbps;
	}
	for (i = 0; i < f->n_streams; i++) {
		struct wr_report_row *s = &e->stream_rows[i];

		snprintf(s->name, sizeof(s->name), "%s", f->streams[i].name);
		s->port = f->streams[i].port;
		s->seed = f->streams[i].seed;
		s->size_min = f->streams[i].size.min;
		s->size_max = f->streams[i].size.max;
		s->target_kpps = e->target_millipps[i] == WR_RATE_UNPACED ? 0 :
			(double)e->target_millipps[i] / 1e6;
		if (f->streams[i].replay != NULL) {
			const struct wr_replay_spec *r = f->streams[i].replay;

			s->has_replay = true;
			snprintf(s->replay_file, sizeof(s->replay_file), "%s",
				 r->pcap);
			wr_report_hex(r->cap.sha256, s->replay_sha256);
			s->replay_frames = r->cap.n;
			s->replay_loops = r->loops;
			s->replay_timed = r->timing == WR_REPLAY_TIMING_CAPTURE;
			s->replay_speedup = (double)r->speedup_ppm /
				WR_REPLAY_SPEEDUP_ONE;
		}
	}
	memset(&e->view, 0, sizeof(e->view));
	e->view.class_names = e->class_names;
	e->view.n_classes = e->n_classes;
	e->view.ports = e->port_rows;
	e->view.n_ports = e->n_ports;
	e->view.streams = e->stream_rows;
	e->view.n_streams = f->n_streams;
}

void
wr_engine_port_macs(struct wr_engine *e, struct wr_stream_file *f)
{
	uint32_t s;

	for (s = 0; s < f->n_streams; s++) {
		struct wr_stream *st = &f->streams[s];
		const struct wr_port_cfg *pc;
		uint64_t mac;

		if (st->mac_port == 0 || st->port >= e->n_ports)
			continue;
		pc = st->port < e->cfg->n_ports ? &e->cfg->ports[st->port] : NULL;
		if (st->mac_port & WR_MAC_PORT_SRC) {
			mac = pc != NULL && pc->has_src_mac ? pc->src_mac :
			      wr_mac_from_bytes(e->ports[st->port].mac.addr_bytes);
			wr_stream_set_mac(st, false, mac);
		}
		if ((st->mac_port & WR_MAC_PORT_DST) && pc != NULL && pc->has_dst_mac)
			wr_stream_set_mac(st, true, pc->dst_mac);
	}
}

int
wr_engine_load(struct wr_engine *e, const struct wr_stream_file *f, bool rx,
	       struct wr_error *err)
{
	int rc;

	e->f = f;
	e->stop = e->stop_rx = e->aborted = 0;
	memset(e->ctl_pub_tsc, 0, sizeof(e->ctl_pub_tsc));
	e->stream_rows = calloc(f->n_streams ? f->n_streams : 1,
				sizeof(*e->stream_rows));
	if (e->stream_rows == NULL)
		rc = wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				  "out of memory");
	else
		rc = streams_setup(e, err);
	if (rc == 0)
		rc = rx_setup(e, rx, err);
	if (rc == 0)
		rc = rates_setup(e, err);
	if (rc != 0) {
		wr_engine_unload(e);
		return rc;
	}
	rows_init(e);
	return 0;
}

static void
set_launched(struct wr_engine *e, bool on)
{
	rte_spinlock_lock(&e->guard);
	e->launched = on;
	rte_spinlock_unlock(&e->guard);
}

int
wr_engine_start(struct wr_engine *e, struct wr_error *err)
{
	return wr_engine_start_at(e, 0, err);
}

int
wr_engine_start_at(struct wr_engine *e, uint64_t start_tsc,
		   struct wr_error *err)
{
	uint64_t soon = rte_rdtsc() +
			wr_tsc_from_ns(WR_ENGINE_START_MS * 1000000ull);
	unsigned int i;
	int rc;

	/* Several lcores start together: launching them one by one takes
	 * tens of microseconds each, which would shift one lane's schedule
	 * against another's. */
	if (e->n_lcores > 1 && start_tsc < soon)
		start_tsc = soon;
	for (i = 0; i < e->n_lcores; i++)
		e->lctx[e->lcores[i]]->start_at_tsc = start_tsc;
	/* Launched first: a port leaving from now on waits for them. */
	set_launched(e, true);
	for (i = 0; i < e->n_lcores; i++) {
		rc = rte_eal_remote_launch(wr_tx_lcore_main,
					   e->lctx[e->lcores[i]], e->lcores[i]);
		if (rc != 0) {
			__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&e->stop_rx, 1, __ATOMIC_RELAXED);
			rte_eal_mp_wait_lcore();
			set_launched(e, false);
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "cannot launch lcore %u: %s",
					    e->lcores[i], rte_strerror(-rc));
		}
	}
	return 0;
}

bool
wr_engine_tx_finished(const struct wr_engine *e)
{
	unsigned int i;

	for (i = 0; i < e->n_lcores; i++)
		if (!__atomic_load_n(&e->lctx[e->lcores[i]]->tx_finished,
				     __ATOMIC_ACQUIRE))
			return false;
	return true;
}

void
wr_engine_request_stop(struct wr_engine *e, bool abort)
{
	if (abort)
		__atomic_store_n(&e->aborted, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
}

/* A port's own counters into its row. */
static void
nic_to_row(struct wr_report_row *p, const struct rte_eth_stats *st)
{
	p->has_nic = true;
	p->nic_opackets = st->opackets;
	p->nic_obytes = st->obytes;
	p->nic_oerrors = st->oerrors;
	p->nic_ipackets = st->ipackets;
	p->nic_ibytes = st->ibytes;
	p->nic_imissed = st->imissed;
	p->nic_ierrors = st->ierrors;
	p->nic_rx_nombuf = st->rx_nombuf;
}

void
wr_engine_stop(struct wr_engine *e, uint64_t drain_ns)
{
	unsigned int i;
	uint64_t end, now;

	if (!e->launched)
		return;
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
	while (!wr_engine_tx_finished(e))
		wr_engine_sleep_ns(1000 * 1000);
	if (e->any_rx) {
		/* Echoes still in flight: wait the drain time out. */
		end = rte_rdtsc() + wr_tsc_from_ns(drain_ns);
		while (!__atomic_load_n(&e->aborted, __ATOMIC_RELAXED) &&
		       (now = rte_rdtsc()) < end)
			wr_engine_sleep_ns(RTE_MIN(
				wr_engine_tsc_to_ns(e, end - now),
				WR_WAIT_SLICE_NS));
	}
	e->rx_end_tsc = rte_rdtsc();
	__atomic_store_n(&e->stop_rx, 1, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	set_launched(e, false);

	for (i = 0; i < e->n_ports; i++) {
		struct rte_eth_stats st;
		struct wr_report_row *p = &e->port_rows[i];

		/* A port that went away: its counters from before. */
		if (__atomic_load_n(&e->port_gone[i], __ATOMIC_ACQUIRE) != 0) {
			rte_spinlock_lock(&e->guard);
			st = e->loss[i].nic;
			p->has_nic = e->loss[i].has_nic;
			rte_spinlock_unlock(&e->guard);
		} else {
			wr_port_drain(&e->ports[i], WR_DRAIN_PORT_MS);
			p->has_nic = wr_port_stats(&e->ports[i], &st) == 0;
		}
		if (p->has_nic)
			nic_to_row(p, &st);
	}
}

void
wr_engine_stream_seq(const struct wr_engine *e, uint32_t s, unsigned int port,
		     struct wr_seq_result *out, struct wr_latency *hist,
		     struct wr_latency_jitter *jit)
{
	unsigned int i, q, lane;
	bool jit_port = false;

	memset(out, 0, sizeof(*out));
	if (hist != NULL)
		wr_latency_init(hist);
	if (jit != NULL)
		wr_latency_jitter_init(jit);
	for (i = 0; i < e->n_ports; i++) {
		bool here = false;

		if (port != WR_ENGINE_ALL_PORTS && i != port)
			continue;
		for (q = 0; q < e->n_rxq[i]; q++) {
			const struct wr_rx_stream *rs = e->rxq[i][q]->streams[s];

			if (rs == NULL)
				continue;
			for (lane = 0; lane < rs->n_lanes; lane++) {
				struct wr_seq_result res;

				wr_seq_finish(&rs->seq[lane], 0, &res);
				out->rx_pkts += res.rx_pkts;
				out->reordered += res.reordered;
				out->duplicated += res.duplicated;
				out->distinct += res.distinct;
				out->too_old += res.too_old;
			}
			if (hist != NULL)
				wr_latency_merge(hist, &rs->hist);
			if (jit != NULL && !jit_port) {
				wr_latency_jitter_merge(jit, &rs->jitter);
				here |= jit->n > 0;
			}
		}
		jit_port |= here;
	}
}

/* A stream's echoes (wr_engine_stream_seq()): loss against what the
 * stream sent. */
static void
collect_rx(struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	struct wr_latency_jitter jit;
	struct wr_seq_result res;
	unsigned int lane;
	uint64_t sent = 0;

	for (lane = 0; lane < e->n_ts[s]; lane++)
		sent += __atomic_load_n(&e->ts[s][lane]->c.tx_pkts,
					__ATOMIC_RELAXED);
	wr_engine_stream_seq(e, s, WR_ENGINE_ALL_PORTS, &res, e->scratch, &jit);
	row->has_rx = true;
	row->rx_pkts = res.rx_pkts;
	row->reordered = res.reordered;
	row->duplicated = res.duplicated;
	row->lost = sent > res.distinct ? sent - res.distinct : 0;
	wr_latency_summarize(e->scratch, jit.n > 0 ? &jit : NULL, &row->lat);
}

void
wr_engine_port_rx(const struct wr_engine *e, unsigned int i,
		  uint64_t *rx_pkts, uint64_t *rx_foreign, uint64_t *rx_bad_sig)
{
	unsigned int q;

	*rx_pkts = *rx_foreign = *rx_bad_sig = 0;
	for (q = 0; q < e->n_rxq[i]; q++) {
		const struct wr_rxq *rq = e->rxq[i][q];

		*rx_pkts += __atomic_load_n(&rq->rx_pkts, __ATOMIC_RELAXED);
		*rx_foreign += __atomic_load_n(&rq->rx_foreign,
					       __ATOMIC_RELAXED);
		*rx_bad_sig += __atomic_load_n(&rq->rx_bad_sig,
					       __ATOMIC_RELAXED);
	}
}

/* Train-to-train intervals of a stream, over its lanes. */
static void
collect_trains(struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	unsigned int j;

	wr_latency_init(e->scratch);
	for (j = 0; j < e->n_ts[s]; j++)
		if (e->ts[s][j]->gaps != NULL)
			wr_latency_merge(e->scratch, e->ts[s][j]->gaps);
	row->train_frames = e->f->streams[s].train_frames;
	row->train_nominal_ns = e->n_ts[s] > 0 ?
		e->ts[s][0]->train_nominal_ns : 0;
	wr_latency_summarize(e->scratch, NULL, &row->train_gaps);
}

/* One histogram of stream @p s's replay lanes (the member at @p off),
 * merged over its lanes and summarized. */
static void
merge_lanes(struct wr_engine *e, uint32_t s, size_t off,
	    struct wr_latency_summary *out)
{
	unsigned int j;

	wr_latency_init(e->scratch);
	for (j = 0; j < e->n_ts[s]; j++) {
		const struct wr_latency *h = *(struct wr_latency *const *)
			((const char *)e->ts[s][j]->rl + off);

		if (h != NULL)
			wr_latency_merge(e->scratch, h);
	}
	wr_latency_summarize(e->scratch, NULL, out);
}

/* A timed replay's gap errors and lateness, over its lanes (after the
 * lcores stopped: the histograms have one writer). */
static void
collect_replay(struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	unsigned int j;

	row->replay_stalls = row->replay_stall_ns = 0;
	row->replay_late_away = row->replay_away_n = 0;
	row->replay_away_ns = row->replay_away_max_ns = 0;
	row->replay_polled_ns = 0;
	for (j = 0; j < e->n_ts[s]; j++) {
		const struct wr_tx_stream *ts = e->ts[s][j];
		const struct wr_replay_lane *rl = ts->rl;
		uint64_t mx = wr_engine_tsc_to_ns(e, rl->away_max);

		row->replay_stalls += rl->sched.stalls;
		row->replay_stall_ns += wr_engine_tsc_to_ns(e,
						rl->sched.stall_ticks);
		row->replay_late_away += rl->late_away;
		row->replay_away_n += rl->away_n;
		row->replay_away_ns += wr_engine_tsc_to_ns(e, rl->away_ticks);
		if (mx > row->replay_away_max_ns)
			row->replay_away_max_ns = mx;
		row->replay_polled_ns += wr_engine_tsc_to_ns(e,
			__atomic_load_n(&ts->active_tsc, __ATOMIC_RELAXED));
	}
	merge_lanes(e, s, offsetof(struct wr_replay_lane, gap_err),
		    &row->replay_gap_err);
	merge_lanes(e, s, offsetof(struct wr_replay_lane, late),
		    &row->replay_late);
	merge_lanes(e, s, offsetof(struct wr_replay_lane, late_polled),
		    &row->replay_late_polled);
}

/* Port @p i's RX queues summed into its row: frames, classes, each
 * queue's load up to @p now. */
static void
collect_port_rx(struct wr_engine *e, unsigned int i, uint64_t now)
{
	struct wr_report_row *p = &e->port_rows[i];
	unsigned int q, c;

	p->has_rx = e->n_rxq[i] > 0;
	p->n_rxq = e->n_rxq[i];
	p->rx_pkts = p->rx_foreign = p->rx_bad_sig = p->rx_hw_stamped = 0;
	p->rx_bytes = 0;
	for (c = 0; c < e->n_classes; c++)
		p->cls[c].pkts = p->cls[c].bytes = 0;
	for (q = 0; q < e->n_rxq[i]; q++) {
		const struct wr_rxq *rq = e->rxq[i][q];
		const struct wr_lcore_ctx *lc = e->lctx[rq->lcore_id];
		struct wr_report_rxq *r = &p->rxq[q];
		uint64_t st = lc != NULL ?
			__atomic_load_n(&lc->start_tsc, __ATOMIC_RELAXED) : 0;

		r->queue = rq->queue_id;
		r->lcore = rq->lcore_id;
		r->rx_pkts = __atomic_load_n(&rq->rx_pkts, __ATOMIC_RELAXED);
		r->polls = __atomic_load_n(&rq->polls, __ATOMIC_RELAXED);
		r->busy_polls = __atomic_load_n(&rq->busy_polls,
						__ATOMIC_RELAXED);
		r->busy_ns = wr_engine_tsc_to_ns(e, __atomic_load_n(
				&rq->busy_tsc, __ATOMIC_RELAXED));
		r->active_ns = st != 0 && now > st ?
			wr_engine_tsc_to_ns(e, now - st) : 0;
		p->rx_pkts += r->rx_pkts;
		p->rx_bytes += __atomic_load_n(&rq->rx_ours_bytes,
					       __ATOMIC_RELAXED);
		p->rx_foreign += __atomic_load_n(&rq->rx_foreign,
						 __ATOMIC_RELAXED);
		p->rx_bad_sig += __atomic_load_n(&rq->rx_bad_sig,
						 __ATOMIC_RELAXED);
		p->rx_hw_stamped += __atomic_load_n(&rq->rx_hwts,
						    __ATOMIC_RELAXED);
		p->rx_hwts = rq->hwts;
		for (c = 0; c < e->n_classes; c++) {
			p->cls[c].pkts += __atomic_load_n(
				&rq->class_count[c].pkts, __ATOMIC_RELAXED);
			p->cls[c].bytes += __atomic_load_n(
				&rq->class_count[c].bytes, __ATOMIC_RELAXED);
		}
	}
}

/* Each port's TX lcores' time over their sending, as the kernel counted
 * it (an lcore sending on several ports counts for each). */
static void
collect_usage(struct wr_engine *e)
{
	unsigned int i, q, k;

	for (i = 0; i < e->n_ports; i++)
		memset(&e->port_rows[i].tx_usage, 0,
		       sizeof(e->port_rows[i].tx_usage));
	for (k = 0; k < e->n_lcores; k++) {
		const struct wr_lcore_ctx *c = e->lctx[e->lcores[k]];
		struct wr_thread_usage u;

		if (c->start_tsc == 0 || c->end_tsc < c->start_tsc)
			continue;
		u = c->usage;
		u.wall_ns = wr_engine_tsc_to_ns(e, c->end_tsc - c->start_tsc);
		for (q = 0; q < c->n_txq; q++)
			for (i = 0; i < e->n_ports; i++)
				if (e->ports[i].port_id == c->txq[q].port_id)
					wr_thread_usage_add(
						&e->port_rows[i].tx_usage, &u);
	}
}

struct wr_report_view *
wr_engine_collect(struct wr_engine *e, bool final)
{
	const struct wr_stream_file *f = e->f;
	struct wr_report_view *v = &e->view;
	uint64_t start = UINT64_MAX, port_end[WR_PORTS_MAX] = { 0 };
	uint64_t now_tsc;
	unsigned int i, j;
	uint32_t s;

	/* Each report refines the TSC's frequency; the lcores follow. */
	wr_tsc_refine();
	now_tsc = rte_rdtsc();
	clocks_refit(e);

	for (i = 0; i < e->n_lcores; i++) {
		uint64_t st = __atomic_load_n(&e->lctx[e->lcores[i]]->start_tsc,
					      __ATOMIC_RELAXED);

		if (st != 0 && st < start)
			start = st;
	}
	if (start == UINT64_MAX)
		start = now_tsc;
	for (i = 0; i < e->n_ports; i++)
		memset(&e->port_rows[i].total, 0, sizeof(struct wr_counters));
	for (s = 0; s < f->n_streams; s++) {
		struct wr_report_row *row = &e->stream_rows[s];
		uint64_t end = 0;

		bool seq = wr_stream_file_port_sequenced(f, row->port);
		uint64_t active = 0;

		memset(&row->total, 0, sizeof(row->total));
		row->pacer_skipped = 0;
		for (j = 0; j < e->n_ts[s]; j++) {
			struct wr_counters c;
			uint64_t t = __atomic_load_n(&e->ts[s][j]->end_tsc,
						     __ATOMIC_RELAXED);

			wr_counters_read(&c, &e->ts[s][j]->c);
			wr_counters_add(&row->total, &c);
			/* The pacer's own counters are read once its lcore
			 * stopped. */
			if (final)
				row->pacer_skipped +=
					wr_tx_stream_skipped(e->ts[s][j]);
			active += __atomic_load_n(&e->ts[s][j]->active_tsc,
						  __ATOMIC_RELAXED);
			if (!final && t == 0)
				t = now_tsc;
			if (t > end)
				end = t;
		}
		if (end < start)
			end = start;
		/* A stream of a sequence sends only while it is active: its
		 * rates are over that time (known once it stopped). */
		row->duration_ns = wr_engine_tsc_to_ns(e, seq && final ?
						       active : end - start);
		if (f->streams[s].train_frames != 0)
			collect_trains(e, s, row);
		if (final && row->replay_timed)
			collect_replay(e, s, row);
		wr_counters_add(&e->port_rows[row->port].total, &row->total);
		if (f->streams[s].latency)
			collect_rx(e, s, row);
		if (end > port_end[row->port])
			port_end[row->port] = end;
	}
	for (i = 0; i < e->n_ports; i++)
		collect_port_rx(e, i, final ? (e->rx_end_tsc ? e->rx_end_tsc :
					       now_tsc) : now_tsc);
	for (i = 0; i < e->n_ports; i++) {
		struct wr_report_row *p = &e->port_rows[i];

		if (__atomic_load_n(&e->port_gone[i], __ATOMIC_ACQUIRE) == 0) {
			/* The last counters while the link was up; the
			 * generator's RX misses per interval from them. */
			if (!final) {
				e->nic_last_ok[i] = wr_port_stats(&e->ports[i],
						&e->nic_last[i]) == 0;
				if (e->nic_last_ok[i])
					nic_to_row(p, &e->nic_last[i]);
			}
			continue;
		}
		rte_spinlock_lock(&e->guard);
		p->link_lost = true;
		p->link_lost_ns = e->loss[i].tsc > start ?
			wr_engine_tsc_to_ns(e, e->loss[i].tsc - start) : 0;
		p->link_lost_tx_pkts = e->loss[i].tx_pkts;
		rte_spinlock_unlock(&e->guard);
	}
	if (final)
		collect_usage(e);
	v->elapsed_ns = 0;
	for (i = 0; i < e->n_ports; i++) {
		e->port_rows[i].duration_ns = port_end[i] > start ?
			wr_engine_tsc_to_ns(e, port_end[i] - start) : 0;
		if (e->port_rows[i].duration_ns > v->elapsed_ns)
			v->elapsed_ns = e->port_rows[i].duration_ns;
	}
	if (!final)
		v->elapsed_ns = wr_engine_tsc_to_ns(e, now_tsc - start);
	return v;
}

int
wr_engine_stream_rate(const struct wr_engine *e, uint32_t s,
		      const struct wr_rate_spec *spec, uint64_t *millipps)
{
	const struct wr_stream *st;
	struct wr_size_avg avg;
	int rc;

	if (e->f == NULL || s >= e->f->n_streams)
		return -ENOENT;
	st = &e->f->streams[s];
	rc = wr_size_avg_of(&st->size, &avg);
	if (rc == 0)
		rc = wr_rate_millipps(spec, &avg,
				      e->ports[st->port].link_speed_mbps,
				      millipps);
	return rc;
}

int
wr_engine_stream_ctl(struct wr_engine *e, uint32_t s,
		     enum wr_tx_ctl_state state, uint64_t millipps)
{
	unsigned int j;
	int rc;

	if (e->f == NULL || s >= e->f->n_streams)
		return -ENOENT;
	if (millipps == 0)
		millipps = e->target_millipps[s];
	if (millipps != e->target_millipps[s]) {
		if (wr_stream_file_port_sequenced(e->f, e->f->streams[s].port))
			return -ENOTSUP;
		for (j = 0; j < e->n_ts[s]; j++) {
			rc = wr_tx_stream_ctl_check(e->ts[s][j],
				millipps == WR_RATE_UNPACED ? millipps :
				wr_rate_split(millipps, e->n_ts[s], j));
			if (rc != 0)
				return rc;
		}
	}
	e->ctl_pub_tsc[s] = rte_rdtsc();
	for (j = 0; j < e->n_ts[s]; j++) {
		uint64_t share = millipps == WR_RATE_UNPACED ? millipps :
			wr_rate_split(millipps, e->n_ts[s], j);

		/* A lane's share below 1 millipps: the slowest pace. */
		wr_tx_stream_ctl(e->ts[s][j], state, share ? share : 1);
	}
	e->target_millipps[s] = millipps;
	e->stream_rows[s].target_kpps = millipps == WR_RATE_UNPACED ? 0 :
		(double)millipps / 1e6;
	return 0;
}

int64_t
wr_engine_stream_ctl_delay_ns(const struct wr_engine *e, uint32_t s)
{
	uint64_t worst = 0;
	unsigned int j;

	if (e->f == NULL || s >= e->f->n_streams || e->ctl_pub_tsc[s] == 0)
		return -1;
	for (j = 0; j < e->n_ts[s]; j++) {
		uint64_t t = __atomic_load_n(&e->ts[s][j]->ctl_applied_tsc,
					     __ATOMIC_RELAXED);

		if (t < e->ctl_pub_tsc[s])
			return -1;
		if (t - e->ctl_pub_tsc[s] > worst)
			worst = t - e->ctl_pub_tsc[s];
	}
	return (int64_t)wr_engine_tsc_to_ns(e, worst);
}

uint64_t
wr_engine_stream_millipps(const struct wr_engine *e, uint32_t s)
{
	return e->f != NULL && s < e->f->n_streams ?
		e->target_millipps[s] : 0;
}

bool
wr_engine_stream_done(const struct wr_engine *e, uint32_t s)
{
	unsigned int j;

	if (e->f == NULL || s >= e->f->n_streams)
		return true;
	for (j = 0; j < e->n_ts[s]; j++)
		if (!__atomic_load_n(&e->ts[s][j]->done, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&e->ts[s][j]->end_tsc,
				    __ATOMIC_RELAXED) == 0)
			return false;
	return true;
}

uint64_t
wr_engine_first_tx_tsc(const struct wr_engine *e)
{
	uint64_t first = 0;
	unsigned int i;

	for (i = 0; i < e->n_lcores; i++) {
		uint64_t t = __atomic_load_n(&e->lctx[e->lcores[i]]->start_tsc,
					     __ATOMIC_RELAXED);

		if (t != 0 && (first == 0 || t < first))
			first = t;
	}
	return first;
}

bool
wr_engine_stream_hist(const struct wr_engine *e, uint32_t s,
		      struct wr_latency *out)
{
	struct wr_seq_result res;
	unsigned int i, q;
	bool any = false;

	wr_latency_init(out);
	if (e->f == NULL || s >= e->f->n_streams)
		return false;
	for (i = 0; i < e->n_ports; i++)
		for (q = 0; q < e->n_rxq[i]; q++)
			any |= e->rxq[i][q]->streams[s] != NULL;
	if (any)
		wr_engine_stream_seq(e, s, WR_ENGINE_ALL_PORTS, &res, out, NULL);
	return any;
}

int
wr_engine_tmpl_create(const struct wr_stream_file *f, uint32_t s,
		      struct wr_frame_tmpl **t, struct wr_error *err)
{
	const struct wr_stream *st = &f->streams[s];
	int rc = wr_frame_tmpl_create(st, s, t, err);

	if (rc == 0)
		return 0;
	if (err->file[0] == '\0')
		snprintf(err->file, sizeof(err->file), "%s", f->path);
	if (err->line == 0) {
		err->line = st->mark.line;
		err->col = st->mark.col;
	}
	return rc;
}

/* Frames of a stream looked at for a group source MAC: a fixed or
 * listed address shows in the first ones; a random one in 1 of 2. */
#define WR_SRC_MAC_FRAMES 256

static int
check_src_mac(const struct wr_stream_file *f, uint32_t i,
		     const struct wr_frame_tmpl *t, struct wr_error *err)
{
	const struct wr_stream *s = &f->streams[i];
	uint8_t *buf = malloc(wr_frame_tmpl_max_len(t));
	struct wr_frame_gen g;
	uint64_t k, n = s->count != 0 && s->count < WR_SRC_MAC_FRAMES ?
		s->count : WR_SRC_MAC_FRAMES;
	int rc = 0;

	if (buf == NULL)
		return -ENOMEM;
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < n; k++) {
		wr_frame_gen_next(&g, buf);
		/* IEEE 802.3 clause 3.2.3: the I/G bit of a source address is
		 * always 0; a switch floods or drops such a frame. */
		if (buf[6] & 1) {
			rc = wr_error_set(err, -EINVAL, f->path, s->mark.line,
				s->mark.col, NULL, "streams[%u].eth.src: "
				"frame %llu's source MAC %02x:%02x:%02x:%02x:"
				"%02x:%02x is %s: a source address must be "
				"unicast", i, (unsigned long long)k, buf[6],
				buf[7], buf[8], buf[9], buf[10], buf[11],
				memcmp(buf + 6, "\xff\xff\xff\xff\xff\xff",
				       6) == 0 ? "broadcast" : "multicast");
			break;
		}
	}
	free(buf);
	return rc;
}

int
wr_engine_check_streams(const struct wr_stream_file *f, unsigned int n_ports,
			const char *ports_of, uint32_t *max_frame,
			struct wr_error *err)
{
	uint32_t i;
	int rc;

	if (max_frame != NULL)
		*max_frame = 0;

	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];
		struct wr_frame_tmpl *t;

		if (n_ports > 0 && s->port >= n_ports)
			return wr_error_set(err, -EINVAL, f->path,
				s->mark.line, s->mark.col, NULL,
				"streams[%u].port: port %u does not exist: %s "
				"has %u port%s (0..%u)", i, s->port, ports_of,
				n_ports, n_ports == 1 ? "" : "s", n_ports - 1);
		if (s->replay != NULL) {
			/* A capture's frames: no template; its largest size. */
			if (max_frame != NULL && s->size.max > *max_frame)
				*max_frame = s->size.max;
			continue;
		}
		rc = wr_engine_tmpl_create(f, i, &t, err);
		if (rc == 0) {
			/* The template's longest frame, and its FCS. */
			uint32_t len = (uint32_t)wr_frame_tmpl_max_len(t) +
				       WR_FCS_LEN;

			rc = check_src_mac(f, i, t, err);
			if (max_frame != NULL && len > *max_frame)
				*max_frame = len;
			wr_frame_tmpl_free(t);
		}
		if (rc != 0)
			return rc;
	}
	return 0;
}

void
wr_engine_meta(const struct wr_engine *e, const struct wr_stream_file *f,
	       const char *cfg_path, const char *started_at,
	       const char *reason, struct wr_report_meta *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->wirerate_version = WR_VERSION;
	m->dpdk_version = rte_version();
	m->stream_file = f->path;
	wr_report_hex(f->sha256, m->stream_sha256);
	m->config_file = cfg_path ? cfg_path : "";
	m->seed = f->seed;
	m->main_lcore = rte_get_main_lcore();
	for (i = 0; i < e->n_lcores && i < RTE_DIM(m->tx_lcores); i++)
		m->tx_lcores[m->n_tx_lcores++] = e->lcores[i];
	snprintf(m->started_at, sizeof(m->started_at), "%s", started_at);
	m->stop_reason = reason;
	m->eal_args = e->eal_argv + 1;
	m->n_eal_args = (unsigned int)(e->eal_argc - 1);
	wr_tsc_get(&m->tsc);
	m->has_tsc = true;
}

void
wr_engine_unload(struct wr_engine *e)
{
	unsigned int i, j;
	uint32_t s;

	if (e->launched) {
		__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&e->stop_rx, 1, __ATOMIC_RELAXED);
		rte_eal_mp_wait_lcore();
		set_launched(e, false);
	}
	/* Before the TX pools go: a TX capture holds some of their mbufs. */
	wr_engine_capture_stop_all(e);
	for (s = 0; s < WR_STREAMS_MAX; s++) {
		for (j = 0; j < e->n_ts[s]; j++) {
			wr_tx_stream_fini(e->ts[s][j]);
			rte_free(e->ts[s][j]);
		}
		e->n_ts[s] = 0;
		wr_frame_tmpl_free(e->tmpl[s]);
		e->tmpl[s] = NULL;
	}
	for (i = 0; i < e->n_ports; i++) {
		unsigned int q;

		for (q = 0; q < e->n_rxq[i]; q++) {
			wr_rxq_fini(e->rxq[i][q]);
			rte_free(e->rxq[i][q]);
			e->rxq[i][q] = NULL;
		}
		e->n_rxq[i] = 0;
	}
	for (i = 0; e->class_bpf != NULL && i < e->n_classes; i++)
		wr_bpf_free(&e->class_bpf[i]);
	rte_free(e->class_bpf);
	e->class_bpf = NULL;
	e->n_classes = 0;
	e->rx_end_tsc = 0;
	for (i = 0; i < e->n_lcores; i++) {
		rte_free(e->lctx[e->lcores[i]]);
		e->lctx[e->lcores[i]] = NULL;
	}
	e->n_lcores = 0;
	rte_free(e->scratch);
	e->scratch = NULL;
	e->any_rx = false;
	free(e->stream_rows);
	e->stream_rows = NULL;
	e->f = NULL;
}

void
wr_engine_close(struct wr_engine *e)
{
	unsigned int i;

	if (e == NULL)
		return;
	guard_stop(e);
	wr_engine_unload(e);
	for (i = 0; i < e->n_ports; i++)
		wr_port_close(&e->ports[i]);
	if (e->eal_up)
		wr_engine_eal_cleanup();
	free(e);
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

/*
 * Captures.  A capture of what port i receives is published to each of
 * its RX queues (the lcores load it once a burst); one of what it sends
 * installs TX callbacks.  Stopping withdraws both, waits until every lcore
 * passed a quiescent point (no lcore is inside wr_cap_rx() or a callback
 * any more), and only then closes the capture.
 */

void
wr_engine_set_rx(struct wr_engine *e, unsigned int port, bool on)
{
	if (port < e->n_ports)
		e->rx_want[port] = on;
}

int
wr_engine_capture_start(struct wr_engine *e, const struct wr_engine_cap *r,
			struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	const char *names[WR_STREAMS_MAX];
	struct wr_cap_cfg cc;
	struct wr_cap *c;
	struct wr_port *p;
	unsigned int k, q;
	uint32_t s;
	int rc;

	if (r->port >= e->n_ports)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "capture: port %u does not exist: there %s "
				    "%u port%s", r->port,
				    e->n_ports == 1 ? "is" : "are", e->n_ports,
				    e->n_ports == 1 ? "" : "s");
	for (k = 0; k < WR_CAPTURES_MAX && e->caps[k] != NULL; k++)
		;
	if (k == WR_CAPTURES_MAX)
		return wr_error_set(err, -EBUSY, NULL, 0, 0, NULL, "capture: "
				    "%u captures run already", WR_CAPTURES_MAX);
	if ((r->dir & WR_CAP_RX) && e->n_rxq[r->port] == 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "capture: port %u is not polled for RX (its "
				    "profile entry has rx_lcores: [], or "
				    "nothing was loaded)", r->port);
	p = &e->ports[r->port];
	memset(&cc, 0, sizeof(cc));
	cc.port_id = p->port_id;
	cc.port_index = r->port;
	cc.dir = r->dir;
	cc.file = r->file;
	cc.filter = r->filter;
	cc.lim = r->lim;
	cc.n_txq = (r->dir & WR_CAP_TX) ? p->n_txq : 0;
	for (s = 0; f != NULL && s < f->n_streams; s++)
		names[s] = f->streams[s].name;
	cc.stream_names = names;
	cc.n_streams = f != NULL ? f->n_streams : 0;
	if (f != NULL)
		rx_hints(e, &cc.hints);
	cc.tsc_hz = wr_tsc_hz();
	if (e->tsc0 == 0) {
		struct timespec ts;
		uint64_t t0 = rte_rdtsc(), t1;

		/* The TSC at the middle of the wall-clock read. */
		clock_gettime(CLOCK_REALTIME, &ts);
		t1 = rte_rdtsc();
		e->tsc0 = t0 + (t1 - t0) / 2;
		e->wall0_ns = (uint64_t)ts.tv_sec * 1000000000ull +
			      (uint64_t)ts.tv_nsec;
	}
	cc.wall0_ns = e->wall0_ns;
	cc.tsc0 = e->tsc0;
	cc.rx_held = &p->rx_held;
	cc.rx_hold_max = WR_PORT_RX_HOLD;
	cc.frame_max = p->frame_max ? p->frame_max : RTE_ETHER_MAX_LEN;
	cc.socket_id = p->socket_id >= 0 ? p->socket_id : (int)rte_socket_id();
	rc = wr_cap_open(&c, &cc, err);
	if (rc != 0)
		return rc;
	rc = wr_cap_attach_tx(c, p->tx_offloads, err);
	if (rc != 0) {
		wr_cap_close(c, NULL);
		return rc;
	}
	if (r->dir & WR_CAP_RX)
		for (q = 0; q < e->n_rxq[r->port]; q++) {
			struct wr_rxq *rq = e->rxq[r->port][q];

			__atomic_store_n(&rq->caps[k], c, __ATOMIC_RELEASE);
			__atomic_store_n(&rq->n_caps, rq->n_caps + 1,
					 __ATOMIC_RELEASE);
		}
	e->caps[k] = c;
	e->cap_port[k] = r->port;
	return (int)k;
}

int
wr_engine_capture_status(const struct wr_engine *e, int id,
			 struct wr_cap_status *st)
{
	if (id < 0 || id >= WR_CAPTURES_MAX || e->caps[id] == NULL)
		return -ENOENT;
	wr_cap_status(e->caps[id], st);
	return 0;
}

int
wr_engine_capture_stop(struct wr_engine *e, int id, struct wr_cap_status *st)
{
	struct wr_cap *c;
	unsigned int i, q;

	if (id < 0 || id >= WR_CAPTURES_MAX || e->caps[id] == NULL)
		return -ENOENT;
	c = e->caps[id];
	i = e->cap_port[id];
	wr_cap_detach_tx(c);
	for (q = 0; q < e->n_rxq[i]; q++) {
		struct wr_rxq *rq = e->rxq[i][q];

		if (rq->caps[id] != c)
			continue;
		__atomic_store_n(&rq->caps[id], NULL, __ATOMIC_RELEASE);
		__atomic_store_n(&rq->n_caps, rq->n_caps - 1, __ATOMIC_RELEASE);
	}
	rte_spinlock_lock(&e->guard);
	if (!quiesce(e))
		WR_LOG(WARNING, "capture: an lcore did not leave it in time\n");
	rte_spinlock_unlock(&e->guard);
	e->caps[id] = NULL;
	return wr_cap_close(c, st);
}

void
wr_engine_capture_stop_all(struct wr_engine *e)
{
	int k;

	for (k = 0; k < WR_CAPTURES_MAX; k++)
		if (e->caps[k] != NULL)
			wr_engine_capture_stop(e, k, NULL);
}

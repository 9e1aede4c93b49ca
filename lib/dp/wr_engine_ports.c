/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_engine_ports: the engine's ports: which ones and their TX/RX lcores,
 * opening them, device clocks fitted to the TSC, ports that go away (LSC/RMV
 * events, the memif munmap guard) and captures on their queues.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "wr_engine_priv.h"
#include "wr_clock_eal.h"

/* Here, the engine's lowest file: its siblings all sleep. */
void
wr_engine_sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

/* The interval a device clock is fitted over: 100 ms of two clocks read
 * within ~100 ns of each other gives the ratio to 1 ppm. */
#define WR_CLOCK_FIT_NS (100 * 1000 * 1000ull)

/* How long port_leave() waits for the lcores to pass a quiescent point:
 * a turn of the loop takes microseconds; 500 ms covers an lcore the kernel
 * scheduled out on a CPU it shares (2-CPU machines). */
#define WR_LEAVE_WAIT_NS (500 * 1000 * 1000ull)

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
	/* Counted lost before it is flagged gone: the lcores end for the
	 * flag, and the main lcore that sees them ended then asks
	 * links_check(), which skips a gone port and answers this count.
	 * Counted after the wait below, that answer could come first and
	 * be 0: a run its peer's death ended said "count" (test_server's
	 * test_link_lost_reason, about one run in ten). */
	__atomic_store_n(&e->n_lost, e->n_lost + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&e->port_gone[i], 1, __ATOMIC_RELEASE);
	left = quiesce(e);
	l->left = left;
	if (!left)
		e->leave_timeouts++;
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
		if (__atomic_load_n(&e->port_gone[i], __ATOMIC_ACQUIRE) != 0 ||
		    !e->ports[i].started)
			continue;
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(e->ports[i].port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_DOWN)
			port_leave(e, i);
	}
	return __atomic_load_n(&e->n_lost, __ATOMIC_ACQUIRE);
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

	for (l = e->eal.log; l != NULL && *l != '\0'; l = nl ? nl + 1 : NULL) {
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

/* The profile's ports, or every probed port. */
int
wr_eng_ports_resolve(struct wr_engine *e, struct wr_error *err)
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
		const char *q = e->eal.log ?
			strstr(e->eal.log, "failed to initialize ") : NULL;
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
int
wr_eng_lcores_assign(struct wr_engine *e, struct wr_error *err)
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
 * decided at load (rx_setup(), wr_engine_load.c).
 */
int
wr_eng_rx_lcores_assign(struct wr_engine *e, struct wr_error *err)
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
void
wr_eng_clocks_refit(struct wr_engine *e)
{
	struct wr_clock_pair b;
	struct wr_clock_map m;
	unsigned int i;

	for (i = 0; i < e->n_ports; i++) {
		if (!e->ports[i].rx_hwts ||
		    wr_port_clock_pair(&e->ports[i], &b.tsc, &b.dev) != 0 ||
		    wr_tsc_to_ns(b.tsc - e->clock_last[i].tsc) <
			    WR_CLOCK_FIT_NS ||
		    wr_clock_fit(&m, &e->clock_last[i], &b) != 0)
			continue;
		wr_clock_pub_set(&e->clock[i], &m);
		e->clock_last[i] = b;
	}
}

int
wr_eng_ports_open(struct wr_engine *e, struct wr_error *err)
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
		char path[128];
		int decoy = wr_port_memif_decoy(&e->ports[i], path,
						 sizeof(path));

		/* In slices, so that a signal ends the wait. */
		while (wr_port_wait_link(&e->ports[i], 0) != 0) {
			if (wr_eng_open_cancelled)
				rc = wr_error_set(err, -ECANCELED, NULL, 0, 0,
						  NULL, "stopped by a signal "
						  "while waiting for port "
						  "%s's link", e->ports[i].device);
			else if (wr_port_memif_decoy_hit(decoy))
				rc = wr_error_set(err, -ETIMEDOUT, NULL, 0, 0,
						  NULL, "port %s: link down: "
						  "a memif peer connected to "
						  "the abstract socket @%s "
						  "(DPDK's default), not to "
						  "this path socket: the peer "
						  "must add socket-abstract=no "
						  "to its --vdev",
						  e->ports[i].device, path);
			else if (waited >= e->cfg->link_wait_ms)
				rc = wr_error_set(err, -ETIMEDOUT, NULL, 0, 0,
						  NULL, "port %s: link still "
						  "down after %u ms "
						  "(link_wait_ms)",
						  e->ports[i].device,
						  e->cfg->link_wait_ms);
			if (rc != 0) {
				if (decoy >= 0)
					close(decoy);
				return rc;
			}
			wr_engine_sleep_ns(10 * 1000 * 1000ull);
			waited += 10;
		}
		if (decoy >= 0)
			close(decoy);
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
void
wr_eng_guard_start(struct wr_engine *e)
{
	port_events(e, true);
	__atomic_store_n(&wr_guarded, e, __ATOMIC_RELEASE);
}

void
wr_eng_guard_stop(struct wr_engine *e)
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
		wr_eng_rx_hints(e, &cc.hints);
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

/* The raw layers of every stream's frames: any port may receive any
 * stream's echoes (through a device under test). */
void
wr_eng_rx_hints(const struct wr_engine *e, struct wr_pkt_hints *h)
{
	struct wr_pkt_raw raw;
	uint32_t s;

	memset(h, 0, sizeof(*h));
	for (s = 0; s < e->f->n_streams; s++)
		if (e->tmpl[s] != NULL && wr_frame_tmpl_rx_hint(e->tmpl[s], &raw) == 0)
			(void)wr_pkt_hints_add(h, &raw); /* past 8: not found */
}

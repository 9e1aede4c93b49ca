/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_engine: the engine's lifecycle: open (EAL through wr_eal.c) and close,
 * signals, and the accessors of an open engine.  The rest:
 * wr_engine_ports.c (ports, lcores, link events, device clocks, captures),
 * wr_engine_load.c (streams onto ports), wr_engine_run.c (launch, stop,
 * counters into report rows); their shared state and functions, and the
 * one way they call each other: wr_engine_priv.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <rte_version.h>

#include "wr_engine_priv.h"
#include "wr_clock_eal.h"

RTE_LOG_REGISTER_DEFAULT(wr_engine_logtype, NOTICE);

const char *
wr_engine_dpdk_version(void)
{
	return rte_version();
}

void
wr_engine_quiet(bool quiet)
{
	wr_eal_quiet(quiet);
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
	rc = wr_eal_start(&e->eal, cfg, e->cfg_path, extra, n_extra, err);
	if (rc == 0)
		rc = wr_eng_ports_resolve(e, err);
	if (rc == 0)
		rc = wr_eng_lcores_assign(e, err);
	/* EAL's lines once the ports were found: until then a device EAL
	 * could not start makes one line, not EAL's three. */
	wr_eal_log_pass(&e->eal, rc == 0);
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
	if (e->eal.up)
		wr_eal_cleanup();
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

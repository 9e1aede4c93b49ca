/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: the port-level extras around the engine: ARP/ICMP, TX offloads, telemetry, --stats-jsonl, NIC drop counters. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wr_app.h"
#include "wr_arpd.h"
#include "wr_engine.h"
#include "wr_telemetry.h"

/* Which ports answer ARP/ICMP: the profile's `arp: true`, --arp, or a
 * stream of the port resolving its eth.dst by ARP (its next hop will ask
 * for us sooner or later, and must get an answer). */
static void
want_responders(struct wr_run_ext *x, const struct wr_opts *o,
		const struct wr_config *cfg, const struct wr_engine *e,
		const struct wr_stream_file *f)
{
	unsigned int i;
	uint32_t s;

	x->any_responder = false;
	for (i = 0; i < wr_engine_n_ports(e); i++) {
		x->want[i] = o->arp || (i < cfg->n_ports && cfg->ports[i].arp);
		for (s = 0; s < f->n_streams; s++)
			if (f->streams[s].port == i && f->streams[s].dst_arp)
				x->want[i] = true;
		x->any_responder |= x->want[i];
	}
}

int
wr_run_ext_before_load(struct wr_run_ext *x, const struct wr_opts *o,
		       const struct wr_config *cfg, struct wr_engine *e,
		       struct wr_stream_file *f, struct wr_error *err)
{
	unsigned int i, n;
	uint32_t s;
	int rc;

	want_responders(x, o, cfg, e, f);
	rc = wr_arpd_resolve(wr_engine_port(e, 0), wr_engine_n_ports(e), f, WR_ARPD_TIMEOUT_MS, err);
	if (rc != 0)
		return rc;
	wr_engine_port_macs(e, f);
	for (i = 0; i < wr_engine_n_ports(e); i++) {
		for (s = 0, n = 0; s < f->n_streams; s++)
			n += f->streams[s].port == i;
		rc = wr_port_tx_plan(wr_engine_port(e, i), n, x->want[i],
				     cfg->link_wait_ms, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
wr_run_ext_after_load(struct wr_run_ext *x, const struct wr_opts *o,
		      struct wr_engine *e, struct wr_error *err)
{
	int rc;

	if (x->any_responder) {
		rc = wr_arpd_attach(e, x->want, x->arpd, err);
		if (rc != 0)
			return rc;
	}
	/* Telemetry is a convenience: a run goes on without it. */
	rc = wr_telemetry_attach(e);
	if (rc != 0)
		fprintf(stderr, "wirerate: warning: telemetry commands not "
			"available: %s\n", strerror(-rc));
	if (o->stats_jsonl != NULL) {
		rc = wr_jsonl_open(&x->jsonl, o->stats_jsonl, wr_engine_n_ports(e),
				   wr_engine_file(e)->n_streams);
		if (rc != 0)
			return wr_error_set(err, rc, o->stats_jsonl, 0, 0, NULL,
					    "cannot write the statistics log: %s",
					    strerror(-rc));
		x->jsonl_open = true;
	}
	return 0;
}

int
wr_run_ext_reload(struct wr_run_ext *x, struct wr_engine *e,
		  const struct wr_stream_file *f, struct wr_error *err)
{
	int rc;

	/* The telemetry callbacks and the responders read the streams'
	 * state: neither may while it is freed and built again. */
	wr_telemetry_detach();
	wr_arpd_detach(e, x->arpd);
	wr_engine_unload(e);
	rc = wr_engine_load(e, f, x->any_responder, err);
	if (rc == 0 && x->any_responder)
		rc = wr_arpd_attach(e, x->want, x->arpd, err);
	/* A convenience, as at the first load (its warning said so). */
	if (rc == 0)
		(void)wr_telemetry_attach(e);
	return rc;
}

void
wr_run_ext_interval(struct wr_run_ext *x, const struct wr_report_view *v,
		    bool final)
{
	struct timespec ts;
	int rc;

	if (!x->jsonl_open || x->jsonl_failed)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	rc = wr_jsonl_write(&x->jsonl, v, (uint64_t)ts.tv_sec * 1000000000ull +
			    (uint64_t)ts.tv_nsec, final);
	if (rc != 0) {
		fprintf(stderr, "wirerate: --stats-jsonl %s: cannot write: %s "
			"(the run goes on; the log is removed at its end, "
			"exit status 1)\n", x->jsonl.path, strerror(-rc));
		x->jsonl_failed = true;
	}
}

void
wr_run_ext_summary(struct wr_run_ext *x, struct wr_engine *e, FILE *out)
{
	struct wr_port_xstat xs[WR_PORT_DROP_XSTATS_MAX];
	unsigned int i, j, n;

	for (i = 0; i < wr_engine_n_ports(e); i++) {
		const struct wr_arpd *d = x->arpd[i];

		n = wr_port_drop_xstats(wr_engine_port(e, i), xs, WR_DIM(xs));
		if (n > 0) {
			fprintf(out, "port %u: NIC TX drop counters:", i);
			for (j = 0; j < n; j++)
				fprintf(out, " %s=%llu", xs[j].name,
					(unsigned long long)xs[j].value);
			fputc('\n', out);
		}
		if (d != NULL)
			fprintf(out, "port %u: answered %llu ARP request%s and "
				"%llu ICMP echo request%s, %llu Neighbor "
				"Solicitation%s%s\n", i,
				(unsigned long long)d->arp_replies,
				d->arp_replies == 1 ? "" : "s",
				(unsigned long long)d->icmp_replies,
				d->icmp_replies == 1 ? "" : "s",
				(unsigned long long)d->nd_replies,
				d->nd_replies == 1 ? "" : "s",
				d->tx_drop ? " (some answers dropped: TX full)" : "");
	}
	fflush(out);
}

int
wr_run_ext_close(struct wr_run_ext *x, struct wr_engine *e)
{
	int rc = 0;

	wr_telemetry_detach();
	if (e != NULL)
		wr_arpd_detach(e, x->arpd);
	if (x->jsonl_open) {
		rc = wr_jsonl_close(&x->jsonl);
		/* A failed line said so already; a failed close not yet. */
		if (rc != 0 && !x->jsonl_failed)
			fprintf(stderr, "wirerate: --stats-jsonl: cannot "
				"write: %s (the log is removed)\n",
				strerror(-rc));
		x->jsonl_open = false;
	}
	return rc;
}

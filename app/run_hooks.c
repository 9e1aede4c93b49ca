/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: the port-level extras around the engine: ARP/ICMP, TX offloads, telemetry, --stats-jsonl, NIC drop counters. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "wr_app.h"
#include "wr_neigh.h"
#include "wr_engine.h"
#include "wr_report.h"
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
	/* A capture of what a port receives needs the port polled, and one
	 * of what it sends needs sent mbufs freed with reference counts
	 * (no MBUF_FAST_FREE): asked for as a responder's TX is. */
	for (i = 0; i < o->n_captures; i++) {
		const struct wr_capspec *c = &o->captures[i].spec;

		if (c->port >= wr_engine_n_ports(e))
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"--capture %u=%s: port %u does not exist: "
				"there %s %u port%s", c->port, c->file, c->port,
				wr_engine_n_ports(e) == 1 ? "is" : "are",
				wr_engine_n_ports(e),
				wr_engine_n_ports(e) == 1 ? "" : "s");
		if (c->dir & WR_CAP_RX)
			wr_engine_set_rx(e, c->port, true);
	}
	rc = wr_arpd_resolve(wr_engine_port(e, 0), wr_engine_n_ports(e), f, WR_ARPD_TIMEOUT_MS, err);
	if (rc != 0)
		return rc;
	wr_engine_port_macs(e, f);
	for (i = 0; i < wr_engine_n_ports(e); i++) {
		for (s = 0, n = 0; s < f->n_streams; s++)
			n += f->streams[s].port == i;
		bool tx_cap = false;
		unsigned int k;

		for (k = 0; k < o->n_captures; k++)
			tx_cap |= o->captures[k].spec.port == i &&
				  (o->captures[k].spec.dir & WR_CAP_TX);
		rc = wr_port_tx_plan(wr_engine_port(e, i), n,
				     x->want[i] || tx_cap, cfg->link_wait_ms,
				     err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
wr_run_ext_after_load(struct wr_run_ext *x, const struct wr_opts *o,
		      struct wr_engine *e, struct wr_error *err)
{
	unsigned int i;
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
	for (i = 0; i < o->n_captures; i++) {
		const struct wr_app_capture *k = &o->captures[i];
		struct wr_engine_cap c = {
			.port = k->spec.port,
			.dir = k->spec.dir,
			.file = k->spec.file,
			.filter = k->has_filter ? &k->filter : NULL,
			.lim = k->lim,
		};

		rc = wr_engine_capture_start(e, &c, err);
		if (rc < 0)
			return rc;
		x->cap_id[x->n_caps++] = rc;
	}
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

static const char *
dir_name(enum wr_cap_dir d)
{
	return d == WR_CAP_RX ? "rx" : d == WR_CAP_TX ? "tx" : "both";
}

void
wr_run_ext_stopped(struct wr_run_ext *x, const struct wr_opts *o,
		   struct wr_engine *e)
{
	unsigned int i;

	if (x->n_caps == 0 || x->caps != NULL)
		return;
	x->caps = calloc(x->n_caps, sizeof(*x->caps));
	for (i = 0; i < x->n_caps; i++) {
		struct wr_cap_status st;
		struct wr_report_capture *c;

		memset(&st, 0, sizeof(st));
		st.error = wr_engine_capture_stop(e, x->cap_id[i], &st);
		if (x->caps == NULL)
			continue;
		c = &x->caps[i];
		c->port = o->captures[i].spec.port;
		c->dir = dir_name(o->captures[i].spec.dir);
		snprintf(c->file, sizeof(c->file), "%s", st.file);
		c->filter = o->captures[i].has_filter ?
			o->captures[i].filter.expr : NULL;
		c->files = st.files;
		c->seen = st.seen;
		c->written = st.written;
		c->bytes = st.bytes;
		c->dropped = st.dropped;
		c->over_limit = st.over_limit;
		c->error = st.error;
	}
}

void
wr_run_ext_summary(struct wr_run_ext *x, struct wr_engine *e, FILE *out)
{
	struct wr_port_xstat xs[WR_PORT_DROP_XSTATS_MAX];
	unsigned int i, j, n;

	if (x->caps != NULL)
		wr_report_captures(out, x->caps, x->n_caps);
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
	free(x->caps);
	x->caps = NULL;
	return rc;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: what run adds around the engine session (wr_session.h): --arp and --capture as session options, --stats-jsonl, the summary's NIC drop counters and responders' counts. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "wr_app.h"
#include "wr_neigh.h"
#include "wr_engine.h"
#include "wr_report.h"

int
wr_run_ext_load(struct wr_run_ext *x, const struct wr_opts *o,
		struct wr_engine *e, struct wr_stream_file *f,
		struct wr_prepared *prep, struct wr_error *err)
{
	struct wr_session_opts so = {
		.arp_all = o->arp,
		.telemetry = true,
		.prepared = prep,
		.captures = x->cap,
		.n_captures = o->n_captures,
		.hosts_wait_ms = o->hosts_wait_ms > UINT32_MAX ? UINT32_MAX :
				 (uint32_t)o->hosts_wait_ms,
		.hosts_wait_set = o->hosts_wait_set,
		.host_lcore = (unsigned int)o->host_lcore,
		.host_lcore_set = o->host_lcore_set,
	};
	unsigned int i;
	int rc;

	for (i = 0; i < o->n_captures; i++) {
		const struct wr_app_capture *k = &o->captures[i];

		x->cap[i] = (struct wr_engine_cap){
			.port = k->spec.port,
			.dir = k->spec.dir,
			.file = k->spec.file,
			.filter = k->has_filter ? &k->filter : NULL,
			.lim = k->lim,
		};
	}
	wr_session_init(&x->sess, e, &so);
	rc = wr_session_load(&x->sess, f, err);
	if (rc != 0)
		return rc;
	if (x->sess.telemetry_rc != 0)
		fprintf(stderr, "wirerate: warning: telemetry commands not "
			"available: %s\n", strerror(-x->sess.telemetry_rc));
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

	if (x->sess.n_caps == 0 || x->caps != NULL)
		return;
	x->caps = calloc(x->sess.n_caps, sizeof(*x->caps));
	for (i = 0; i < x->sess.n_caps; i++) {
		struct wr_cap_status st;
		struct wr_report_capture *c;

		memset(&st, 0, sizeof(st));
		st.error = wr_engine_capture_stop(e, x->sess.cap_id[i], &st);
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
		wr_report_captures(out, x->caps, x->sess.n_caps);
	for (i = 0; i < wr_engine_n_ports(e); i++) {
		const struct wr_arpd *d = x->sess.arpd[i];

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

	if (e != NULL && x->sess.e == e)
		wr_session_unload(&x->sess);
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

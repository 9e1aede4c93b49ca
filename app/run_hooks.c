/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: what run adds around the engine session (wr_session.h): --arp and --capture as session options, --stats-jsonl, the summary's NIC drop counters and responders' counts. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

#include "wr_app.h"
#include "wr_host_svc.h"
#include "wr_hosts_read.h"
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
	x->hosts_table = o->hosts_table;
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
		/* Each line with the hosts' counts and counters. */
		x->jsonl.more = wr_run_ext_hosts_jsonl;
		x->jsonl.more_arg = x;
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
		struct wr_host_svc_counts d;

		n = wr_port_drop_xstats(wr_engine_port(e, i), xs, WR_DIM(xs));
		if (n > 0) {
			fprintf(out, "port %u: NIC TX drop counters:", i);
			for (j = 0; j < n; j++)
				fprintf(out, " %s=%llu", xs[j].name,
					(unsigned long long)xs[j].value);
			fputc('\n', out);
		}
		if (x->sess.hosts == NULL || x->sess.hosts->port[i] == NULL)
			continue;
		wr_host_svc_counts(x->sess.hosts, i, &d);
		/* What the service did: its load (frames in a second over
		 * the run) and what it lost.  A port with hosts has it in
		 * its hosts' counters (svc_rx, svc_tx...: below). */
		if (!x->sess.hosts_port[i])
			fprintf(out, "port %u: hosts' service: %llu frame%s "
				"in, %llu out, %llu dropped (TX), %llu dropped "
				"by the RX lcores (its ring full)\n", i,
				(unsigned long long)d.rx, d.rx == 1 ? "" : "s",
				(unsigned long long)d.tx,
				(unsigned long long)d.tx_drop,
				(unsigned long long)d.ring_drop);
		if (!x->sess.want[i])
			continue;
		fprintf(out, "port %u: answered %llu ARP request%s and "
			"%llu ICMP echo request%s, %llu Neighbor "
			"Solicitation%s%s\n", i,
			(unsigned long long)d.arp_replies,
			d.arp_replies == 1 ? "" : "s",
			(unsigned long long)d.icmp_replies,
			d.icmp_replies == 1 ? "" : "s",
			(unsigned long long)d.nd_replies,
			d.nd_replies == 1 ? "" : "s",
			d.tx_drop ? " (some answers dropped: TX full)" : "");
	}
	/* The hosts as they are at the end, before the unload stops them
	 * (doc/hosts.md). */
	if (x->sess.hosts != NULL &&
	    wr_hosts_read_print(x->sess.hosts, &wr_engine_file(e)->hosts,
				wr_engine_n_ports(e), x->hosts_table, out) == -ENOMEM)
		fprintf(stderr, "wirerate: hosts: out of memory\n");
	wr_run_tcp_summary(x, e, out);
	fflush(out);
}

/* `, "hosts": [...]` after @p sep (a line break in the results, none in
 * a JSONL line). */
static int
hosts_json(FILE *out, const struct wr_run_ext *x, const char *sep)
{
	struct wr_engine *e = x->sess.e;
	json_t *a;
	int rc;

	if (x->sess.hosts == NULL)
		return 0;
	a = wr_hosts_read_json(x->sess.hosts, &wr_engine_file(e)->hosts,
			       wr_engine_n_ports(e));
	if (a == NULL)
		return -ENOMEM;
	fprintf(out, ",%s\"hosts\": ", sep);
	rc = json_dumpf(a, out, JSON_COMPACT);
	json_decref(a);
	return rc == 0 ? 0 : -EIO;
}

int
wr_run_ext_hosts_json(FILE *out, const void *arg)
{
	int rc = hosts_json(out, arg, "\n  ");

	return rc != 0 ? rc : wr_run_tcp_json(out, arg, "\n  ", true);
}

int
wr_run_ext_hosts_jsonl(FILE *out, const void *arg)
{
	int rc = hosts_json(out, arg, " ");

	return rc != 0 ? rc : wr_run_tcp_json(out, arg, " ", false);
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

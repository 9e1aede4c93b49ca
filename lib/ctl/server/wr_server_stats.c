/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_stats: the JSON-RPC methods of `wirerate serve` on statistics (stats.get, stats.clear). */
#include "wr_server_priv.h"

/* ---- stats ---- */

static uint64_t
sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/* The row since stats.clear: every counter of the table, the time, and
 * what a port's row holds beside the table: its RX queues' counts and
 * load, its rx_classes' counts (stats.get reports them all). */
static void
row_sub(struct wr_report_row *r, const struct wr_report_row *b)
{
	unsigned int q, c;

	wr_ctr_row_sub(r, b);
	r->duration_ns = sub0(r->duration_ns, b->duration_ns);
	for (q = 0; q < r->n_rxq && q < b->n_rxq; q++) {
		r->rxq[q].rx_pkts = sub0(r->rxq[q].rx_pkts, b->rxq[q].rx_pkts);
		r->rxq[q].polls = sub0(r->rxq[q].polls, b->rxq[q].polls);
		r->rxq[q].busy_polls = sub0(r->rxq[q].busy_polls,
					    b->rxq[q].busy_polls);
		r->rxq[q].busy_ns = sub0(r->rxq[q].busy_ns, b->rxq[q].busy_ns);
		r->rxq[q].active_ns = sub0(r->rxq[q].active_ns,
					   b->rxq[q].active_ns);
	}
	for (c = 0; c < WR_RX_CLASSES_MAX; c++) {
		r->cls[c].pkts = sub0(r->cls[c].pkts, b->cls[c].pkts);
		r->cls[c].bytes = sub0(r->cls[c].bytes, b->cls[c].bytes);
	}
}

static struct wr_report_view *
snapshot(struct server *s)
{
	return s->state == ST_RUNNING ? wr_engine_collect(s->e, false) :
		&s->e->view;
}

/* Stream @p i's echo histogram since the start or the last stats.clear. */
static bool
stream_hist(struct server *s, uint32_t i, struct wr_latency *h)
{
	if (!wr_engine_stream_hist(s->e, i, h))
		return false;
	if (s->have_base && s->base_hist != NULL)
		wr_latency_sub(h, &s->base_hist[i]);
	return true;
}

static json_t *
histogram_json(struct server *s, uint32_t i)
{
	static struct wr_latency h; /* main lcore only; too large for the stack */

	if (!stream_hist(s, i, &h))
		return json_array();
	return wr_srv_hist_json(&h);
}

json_t *
wr_srv_stats_json(struct server *s, bool hist)
{
	static struct wr_report_row ports[WR_PORTS_MAX], streams[WR_STREAMS_MAX];
	struct wr_report_view *v, view;
	struct wr_report_meta meta;
	json_t *j, *a, *x;
	size_t i;

	if (!s->built)
		return json_pack("{s:s, s:s, s:[], s:[]}", "schema",
				 "wirerate-results/1", "state",
				 wr_srv_state_names[s->state], "ports", "streams");
	v = snapshot(s);
	view = *v;
	memcpy(ports, v->ports, v->n_ports * sizeof(*ports));
	memcpy(streams, v->streams, v->n_streams * sizeof(*streams));
	view.ports = ports;
	view.streams = streams;
	if (s->have_base) {
		for (i = 0; i < view.n_ports; i++)
			row_sub(&ports[i], &s->base_ports[i]);
		for (i = 0; i < view.n_streams; i++) {
			static struct wr_latency h; /* main lcore only */
			double jitter = streams[i].lat.jitter_ns;

			row_sub(&streams[i], &s->base_streams[i]);
			/* Latency since the clear from the histograms; the
			 * jitter estimate is a running one and keeps its
			 * history (doc/api.md). */
			if (streams[i].has_rx && stream_hist(s, (uint32_t)i, &h)) {
				wr_latency_summarize(&h, NULL, &streams[i].lat);
				streams[i].lat.jitter_ns = jitter;
			}
		}
		view.elapsed_ns = view.elapsed_ns > s->base_elapsed_ns ?
			view.elapsed_ns - s->base_elapsed_ns : 0;
	}
	wr_engine_meta(s->e, &s->f, s->o->cfg_path, s->started_at,
		       s->state == ST_RUNNING ? "running" : s->reason, &meta);
	j = wr_report_tree(&meta, &view);
	if (j == NULL)
		return NULL;
	json_object_set_new(j, "state", json_string(wr_srv_state_names[s->state]));
	json_object_set_new(j, "time", json_real(wr_srv_wall_s()));
	json_object_set_new(j, "cleared", json_boolean(s->have_base));
	{
		/* When the device took the first frame, in wall-clock time
		 * (not the schedule's origin, which is the start_at itself
		 * however late the lcore got its CPU: issue 31), and how late
		 * that was against start_at (doc/api.md). */
		uint64_t t = wr_engine_first_burst_tsc(s->e);

		json_object_set_new(j, "tx_started_at", t == 0 ? json_null() :
				    json_real(wr_srv_tsc_wall(s, t)));
		json_object_set_new(j, "tx_scheduled_at", s->start_at == 0 ?
				    json_null() : json_real(s->start_at));
		json_object_set_new(j, "tx_late_ns", s->start_at == 0 || t == 0 ?
				    json_null() : json_integer(
				    (json_int_t)wr_srv_late_ns(s, t)));
	}
	/* The emulated hosts of each port: counts by state, counters by
	 * name (doc/hosts.md), as hosts.counters gives them. */
	a = wr_srv_hosts_json(s);
	if (a != NULL)
		json_object_set_new(j, "hosts", a);
	/* The stateful classes: each side's counters by name, histograms
	 * with "histogram": true (doc/api.md's tcp.stats). */
	a = wr_srv_tcp_json(s, hist);
	if (a != NULL)
		json_object_set_new(j, "tcp", a);
	a = json_object_get(j, "streams");
	json_array_foreach(a, i, x) {
		json_object_set_new(x, "paused", json_boolean(s->paused[i]));
		json_object_set_new(x, "ended", json_boolean(s->ended[i] ||
					s->state == ST_DONE));
		if (hist)
			json_object_set_new(x, "histogram",
					    histogram_json(s, (uint32_t)i));
	}
	return j;
}

json_t *
wr_srv_m_stats(struct call *k)
{
	json_t *res = wr_srv_stats_json(k->s, wr_rpc_bool(k->req, "histogram",
							    false));

	/* The counter table, for the Prometheus exporter's names. */
	if (res != NULL && wr_rpc_bool(k->req, "counters", false))
		json_object_set_new(res, "counters", wr_ctr_describe());
	return res;
}

json_t *
wr_srv_m_clear(struct call *k)
{
	struct server *s = k->s;
	struct wr_tcp_read_base tcp = { 0 };
	json_t *hosts[WR_PORTS_MAX];
	struct wr_report_view *v;
	unsigned int i, port = 0;
	int rc;

	if (wr_srv_bench_busy(k) || !wr_srv_owns(s, k->c, k->id, wr_srv_ports_of(s, NULL)))
		return NULL;
	if (s->built) {
		/* The services' counters first: a hosts' service that does
		 * not answer leaves every baseline as it was. */
		rc = wr_srv_hosts_base(s, hosts, &port);
		if (rc == 0) {
			rc = wr_tcp_read_base_take(&s->sess, s->e->n_ports, &tcp);
			if (rc != 0)
				for (i = 0; i < WR_PORTS_MAX; i++)
					json_decref(hosts[i]);
		}
		if (rc == -ETIMEDOUT) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE,
					   json_pack("{s:i, s:i}", "port", port,
						     "errno", ETIMEDOUT),
					   "the hosts' service of port %u did "
					   "not answer within %u ms: nothing "
					   "cleared", port, WR_HOST_SVC_READ_MS);
			return NULL;
		}
		if (rc != 0) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL,
					   NULL, "out of memory");
			return NULL;
		}
		for (i = 0; i < WR_PORTS_MAX; i++) {
			json_decref(s->base_hosts[i]);
			s->base_hosts[i] = hosts[i];
		}
		wr_tcp_read_base_free(&s->base_tcp);
		s->base_tcp = tcp;
		v = snapshot(s);
		memcpy(s->base_ports, v->ports, v->n_ports * sizeof(*v->ports));
		/* The devices' own counters are read at the end of a run
		 * (wr_engine_stop()); cleared while it runs, they are read
		 * now, from the same origin as the end's (wr_port_stats(),
		 * since the port started), so the end's count from here. */
		for (i = 0; s->state == ST_RUNNING && i < v->n_ports &&
		     i < s->e->n_ports; i++) {
			struct wr_report_row *b = &s->base_ports[i];
			struct rte_eth_stats st;
			bool ok;

			memset(&st, 0, sizeof(st));
			ok = wr_port_stats(&s->e->ports[i], &st) == 0;
			wr_engine_nic_row(b, &st);
			b->has_nic = ok;
		}
		memcpy(s->base_streams, v->streams,
		       v->n_streams * sizeof(*v->streams));
		s->base_elapsed_ns = v->elapsed_ns;
		if (s->base_hist == NULL)
			s->base_hist = aligned_alloc(RTE_CACHE_LINE_SIZE,
					WR_STREAMS_MAX * sizeof(*s->base_hist));
		for (i = 0; s->base_hist != NULL && i < v->n_streams; i++)
			wr_engine_stream_hist(s->e, (uint32_t)i,
					      &s->base_hist[i]);
		s->have_base = true;
	}
	return json_pack("{s:b}", "cleared", s->built);
}

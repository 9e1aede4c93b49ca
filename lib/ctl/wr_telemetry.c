/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_telemetry: telemetry callbacks reading the engine's live counters. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_telemetry.h>

#include "wr_host_svc.h"
#include "wr_engine_priv.h"
#include "wr_report.h"
#include "wr_telemetry.h"

/* The engine published to the callbacks, and a histogram to snapshot into;
 * both under the lock.  A callback has no user argument in DPDK 22.11, so
 * this is module state. */
static pthread_mutex_t tel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wr_engine *tel_engine;
static struct wr_latency *tel_scratch;
static int tel_registered;

static uint64_t
load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/* A stream's TX counters and pacer skips, summed over its lanes. */
static void
stream_tx(const struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	unsigned int j;

	memset(&row->total, 0, sizeof(row->total));
	row->pacer_skipped = 0;
	for (j = 0; j < e->n_ts[s]; j++) {
		struct wr_counters c;

		wr_counters_read(&c, &e->ts[s][j]->c);
		wr_counters_add(&row->total, &c);
		row->pacer_skipped += wr_tx_stream_skipped(e->ts[s][j]);
	}
}

/* A port's row, read live: its streams' TX, its RX queues, its device. */
static void
port_row(const struct wr_engine *e, unsigned int i, struct wr_report_row *row)
{
	struct rte_eth_stats st;
	struct wr_report_row t;
	unsigned int q;
	uint32_t s;

	memset(row, 0, sizeof(*row));
	for (s = 0; s < e->f->n_streams; s++)
		if (e->f->streams[s].port == i) {
			stream_tx(e, s, &t);
			wr_counters_add(&row->total, &t.total);
		}
	row->port = (uint16_t)i;
	row->has_rx = e->n_rxq[i] > 0;
	if (row->has_rx)
		wr_engine_port_rx(e, i, &row->rx_pkts, &row->rx_foreign,
				  &row->rx_bad_sig);
	for (q = 0; q < e->n_rxq[i]; q++) {
		row->rx_bytes += load(&e->rxq[i][q]->rx_ours_bytes);
		row->rx_hw_stamped += load(&e->rxq[i][q]->rx_hwts);
	}
	/* ethdev's own /ethdev/stats reads them from this thread too. */
	if (rte_eth_stats_get(e->ports[i].port_id, &st) == 0)
		wr_engine_nic_row(row, &st);
}

/* DPDK telemetry's dictionary as a sink for the counter table: flat
 * (grouped counters as group_key), figures rounded to integers (22.11's
 * dictionaries hold no floating point). */
static void
tel_u64(void *ctx, const char *key, uint64_t v)
{
	rte_tel_data_add_dict_u64(ctx, key, v);
}

static void
tel_f64(void *ctx, const char *key, double v, int decimals __rte_unused)
{
	if (isfinite(v) && v >= 0)
		rte_tel_data_add_dict_u64(ctx, key, (uint64_t)llround(v));
}

static void
tel_str(void *ctx, const char *key, const char *s)
{
	rte_tel_data_add_dict_string(ctx, key, s != NULL ? s : "");
}

static void
tel_bool(void *ctx, const char *key, bool b)
{
	rte_tel_data_add_dict_int(ctx, key, b);
}

static void
tel_none(void *ctx __rte_unused, const char *key __rte_unused)
{
}

static void
tel_open(void *ctx __rte_unused, const char *key __rte_unused,
	 bool array __rte_unused)
{
}

static void
tel_close(void *ctx __rte_unused, bool array __rte_unused)
{
}

static void
tel_text(void *ctx __rte_unused, const char *key __rte_unused,
	 void (*w)(FILE *out, const void *arg) __rte_unused,
	 const void *arg __rte_unused)
{
}

static const struct wr_sink_ops tel_ops = {
	.u64 = tel_u64, .f64 = tel_f64, .str = tel_str, .boolean = tel_bool,
	.null = tel_none, .open = tel_open, .close = tel_close,
	.text = tel_text,
};

/* Start the answer: a dict of objects keyed by port or stream index (DPDK
 * allows only [A-Za-z0-9_/] in keys and no dict inside an array, so the
 * names are values).  @return 0 or a negative errno. */
static int
start(struct rte_tel_data *d)
{
	return rte_tel_data_start_dict(d);
}

static struct rte_tel_data *
object(struct rte_tel_data *d, unsigned int index)
{
	struct rte_tel_data *o = rte_tel_data_alloc();
	char key[16];

	if (o == NULL)
		return NULL;
	rte_tel_data_start_dict(o);
	snprintf(key, sizeof(key), "%u", index);
	if (rte_tel_data_add_dict_container(d, key, o, 0) != 0) {
		rte_tel_data_free(o);
		return NULL;
	}
	return o;
}

/* Every counter of the table (wr_report.h) that row @p r has. */
static void
counters(struct rte_tel_data *o, const struct wr_report_row *r, bool stream)
{
	const struct wr_sink s = { &tel_ops, o };

	wr_ctr_emit(&s, r, stream, false);
}

static int
cb_ports(const char *cmd __rte_unused, const char *params __rte_unused,
	 struct rte_tel_data *d)
{
	static struct wr_report_row row; /* large; under the lock */
	const struct wr_engine *e;
	unsigned int i;
	int rc = start(d);

	pthread_mutex_lock(&tel_lock);
	e = tel_engine;
	for (i = 0; e != NULL && e->f != NULL && rc == 0 && i < e->n_ports;
	     i++) {
		struct rte_tel_data *o = object(d, i);
		const struct wr_host_svc_port *hp = e->hosts != NULL &&
			i < WR_PORTS_MAX ? e->hosts->port[i] : NULL;

		if (o == NULL) {
			rc = -ENOMEM;
			break;
		}
		port_row(e, i, &row);
		rte_tel_data_add_dict_u64(o, "port", i);
		rte_tel_data_add_dict_string(o, "name", e->ports[i].device);
		rte_tel_data_add_dict_u64(o, "port_id", e->ports[i].port_id);
		rte_tel_data_add_dict_u64(o, "link_speed_mbps",
					  e->ports[i].link_speed_mbps);
		counters(o, &row, false);
		if (hp != NULL && hp->resp != NULL) {
			struct wr_host_svc_counts hc;

			wr_host_svc_counts(e->hosts, i, &hc);
			rte_tel_data_add_dict_u64(o, "arp_replies",
						  hc.arp_replies);
			rte_tel_data_add_dict_u64(o, "icmp_replies",
						  hc.icmp_replies);
			rte_tel_data_add_dict_u64(o, "nd_replies", hc.nd_replies);
			/* The service's TX drops: the responder's answers
			 * and the hosts' frames share its queue. */
			rte_tel_data_add_dict_u64(o, "answer_drop", hc.tx_drop);
		}
	}
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

static int
cb_streams(const char *cmd __rte_unused, const char *params __rte_unused,
	   struct rte_tel_data *d)
{
	static struct wr_report_row row; /* large; under the lock */
	const struct wr_engine *e;
	uint32_t s;
	int rc = start(d);

	pthread_mutex_lock(&tel_lock);
	e = tel_engine;
	for (s = 0; e != NULL && e->f != NULL && rc == 0 && s < e->f->n_streams;
	     s++) {
		struct rte_tel_data *o = object(d, s);

		if (o == NULL) {
			rc = -ENOMEM;
			break;
		}
		memset(&row, 0, sizeof(row));
		stream_tx(e, s, &row);
		rte_tel_data_add_dict_string(o, "name", e->f->streams[s].name);
		rte_tel_data_add_dict_u64(o, "port", e->f->streams[s].port);
		counters(o, &row, true);
	}
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

static int
cb_latency(const char *cmd __rte_unused, const char *params __rte_unused,
	   struct rte_tel_data *d)
{
	static struct wr_report_row row; /* large; under the lock */
	const struct wr_engine *e;
	uint32_t s;
	int rc = start(d);

	pthread_mutex_lock(&tel_lock);
	e = tel_engine;
	for (s = 0; e != NULL && e->f != NULL && rc == 0 && s < e->f->n_streams;
	     s++) {
		struct wr_latency_jitter jit;
		struct rte_tel_data *o;
		struct wr_seq_result res;

		if (!e->f->streams[s].latency)
			continue;
		o = object(d, s);
		if (o == NULL) {
			rc = -ENOMEM;
			break;
		}
		memset(&row, 0, sizeof(row));
		stream_tx(e, s, &row);
		wr_engine_stream_seq(e, s, WR_ENGINE_ALL_PORTS, &res, tel_scratch,
				     &jit);
		wr_latency_summarize(tel_scratch, &jit, &row.lat);
		row.has_rx = true;
		row.rx_pkts = res.rx_pkts;
		row.lost = row.total.tx_pkts > res.distinct ?
			row.total.tx_pkts - res.distinct : 0;
		row.reordered = res.reordered;
		row.duplicated = res.duplicated;
		rte_tel_data_add_dict_string(o, "name", e->f->streams[s].name);
		counters(o, &row, true);
		rte_tel_data_add_dict_u64(o, "latency_min_ns", row.lat.min);
		rte_tel_data_add_dict_u64(o, "latency_avg_ns", row.lat.avg);
		rte_tel_data_add_dict_u64(o, "latency_max_ns", row.lat.max);
		rte_tel_data_add_dict_u64(o, "latency_p50_ns", row.lat.p50);
		rte_tel_data_add_dict_u64(o, "latency_p99_ns", row.lat.p99);
	}
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

int
wr_telemetry_attach(struct wr_engine *e)
{
	static const struct {
		const char *cmd;
		telemetry_cb fn;
		const char *help;
	} cmds[] = {
		{ "/wirerate/ports", cb_ports,
		  "wirerate's ports: TX, RX, NIC and ARP/ICMP counters. No parameters" },
		{ "/wirerate/streams", cb_streams,
		  "wirerate's streams: TX counters. No parameters" },
		{ "/wirerate/latency", cb_latency,
		  "wirerate's latency streams: RX, loss, latency in ns. No parameters" },
	};
	struct wr_latency *h;
	unsigned int i;
	int rc;

	if (!tel_registered) {
		for (i = 0; i < RTE_DIM(cmds); i++) {
			rc = rte_telemetry_register_cmd(cmds[i].cmd, cmds[i].fn,
							cmds[i].help);
			if (rc != 0)
				return rc;
		}
		tel_registered = 1;
	}
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return -ENOMEM;
	pthread_mutex_lock(&tel_lock);
	free(tel_scratch);
	tel_scratch = h;
	tel_engine = e;
	pthread_mutex_unlock(&tel_lock);
	return 0;
}

void
wr_telemetry_detach(void)
{
	pthread_mutex_lock(&tel_lock);
	tel_engine = NULL;
	free(tel_scratch);
	tel_scratch = NULL;
	pthread_mutex_unlock(&tel_lock);
}

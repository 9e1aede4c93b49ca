/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_telemetry: telemetry callbacks reading the engine's live counters. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_telemetry.h>

#include "wr_neigh.h"
#include "wr_engine_priv.h"
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

static void
stream_tx(const struct wr_engine *e, uint32_t s, struct wr_counters *t)
{
	unsigned int j;

	memset(t, 0, sizeof(*t));
	for (j = 0; j < e->n_ts[s]; j++) {
		struct wr_counters c;

		wr_counters_read(&c, &e->ts[s][j]->c);
		wr_counters_add(t, &c);
	}
}

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

static int
cb_ports(const char *cmd __rte_unused, const char *params __rte_unused,
	 struct rte_tel_data *d)
{
	const struct wr_engine *e;
	unsigned int i;
	uint32_t s;
	int rc = start(d);

	pthread_mutex_lock(&tel_lock);
	e = tel_engine;
	for (i = 0; e != NULL && e->f != NULL && rc == 0 && i < e->n_ports;
	     i++) {
		struct rte_tel_data *o = object(d, i);
		struct wr_counters t, sum;
		const struct wr_rxq *q = e->n_rxq[i] > 0 ? e->rxq[i][0] : NULL;
		uint64_t rx_pkts, rx_foreign, rx_bad;

		if (o == NULL) {
			rc = -ENOMEM;
			break;
		}
		memset(&sum, 0, sizeof(sum));
		for (s = 0; s < e->f->n_streams; s++)
			if (e->f->streams[s].port == i) {
				stream_tx(e, s, &t);
				wr_counters_add(&sum, &t);
			}
		rte_tel_data_add_dict_u64(o, "port", i);
		rte_tel_data_add_dict_string(o, "name", e->ports[i].device);
		rte_tel_data_add_dict_u64(o, "port_id", e->ports[i].port_id);
		rte_tel_data_add_dict_u64(o, "link_speed_mbps",
					  e->ports[i].link_speed_mbps);
		rte_tel_data_add_dict_u64(o, "tx_pkts", sum.tx_pkts);
		rte_tel_data_add_dict_u64(o, "tx_bytes", sum.tx_bytes);
		if (q != NULL) {
			wr_engine_port_rx(e, i, &rx_pkts, &rx_foreign,
					  &rx_bad);
			rte_tel_data_add_dict_u64(o, "rx_pkts", rx_pkts);
			rte_tel_data_add_dict_u64(o, "rx_foreign", rx_foreign);
			rte_tel_data_add_dict_u64(o, "rx_bad_sig", rx_bad);
			if (q->arpd != NULL) {
				rte_tel_data_add_dict_u64(o, "arp_replies",
					load(&q->arpd->arp_replies));
				rte_tel_data_add_dict_u64(o, "icmp_replies",
					load(&q->arpd->icmp_replies));
				rte_tel_data_add_dict_u64(o, "nd_replies",
					load(&q->arpd->nd_replies));
				rte_tel_data_add_dict_u64(o, "answer_drop",
					load(&q->arpd->tx_drop));
			}
		}
	}
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

static int
cb_streams(const char *cmd __rte_unused, const char *params __rte_unused,
	   struct rte_tel_data *d)
{
	const struct wr_engine *e;
	uint32_t s;
	int rc = start(d);

	pthread_mutex_lock(&tel_lock);
	e = tel_engine;
	for (s = 0; e != NULL && e->f != NULL && rc == 0 && s < e->f->n_streams;
	     s++) {
		struct rte_tel_data *o = object(d, s);
		struct wr_counters t;

		if (o == NULL) {
			rc = -ENOMEM;
			break;
		}
		stream_tx(e, s, &t);
		rte_tel_data_add_dict_string(o, "name", e->f->streams[s].name);
		rte_tel_data_add_dict_u64(o, "port", e->f->streams[s].port);
		rte_tel_data_add_dict_u64(o, "tx_pkts", t.tx_pkts);
		rte_tel_data_add_dict_u64(o, "tx_bytes", t.tx_bytes);
		rte_tel_data_add_dict_u64(o, "tx_full", t.tx_full);
		rte_tel_data_add_dict_u64(o, "alloc_fail", t.alloc_fail);
	}
	pthread_mutex_unlock(&tel_lock);
	return rc;
}

static int
cb_latency(const char *cmd __rte_unused, const char *params __rte_unused,
	   struct rte_tel_data *d)
{
	const struct wr_engine *e;
	uint32_t s;
	int rc = start(d);

	pthread_mutex_lock(&tel_lock);
	e = tel_engine;
	for (s = 0; e != NULL && e->f != NULL && rc == 0 && s < e->f->n_streams;
	     s++) {
		struct wr_latency_summary sum;
		struct wr_counters t;
		struct rte_tel_data *o;
		struct wr_seq_result res;

		if (!e->f->streams[s].latency)
			continue;
		o = object(d, s);
		if (o == NULL) {
			rc = -ENOMEM;
			break;
		}
		stream_tx(e, s, &t);
		wr_engine_stream_seq(e, s, WR_ENGINE_ALL_PORTS, &res, tel_scratch,
				     NULL);
		wr_latency_summarize(tel_scratch, NULL, &sum);
		rte_tel_data_add_dict_string(o, "name", e->f->streams[s].name);
		rte_tel_data_add_dict_u64(o, "tx_pkts", t.tx_pkts);
		rte_tel_data_add_dict_u64(o, "rx_pkts", res.rx_pkts);
		rte_tel_data_add_dict_u64(o, "lost",
					  t.tx_pkts > res.distinct ?
					  t.tx_pkts - res.distinct : 0);
		rte_tel_data_add_dict_u64(o, "reordered", res.reordered);
		rte_tel_data_add_dict_u64(o, "duplicated", res.duplicated);
		rte_tel_data_add_dict_u64(o, "latency_min_ns", sum.min);
		rte_tel_data_add_dict_u64(o, "latency_avg_ns", sum.avg);
		rte_tel_data_add_dict_u64(o, "latency_max_ns", sum.max);
		rte_tel_data_add_dict_u64(o, "latency_p50_ns", sum.p50);
		rte_tel_data_add_dict_u64(o, "latency_p99_ns", sum.p99);
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
		  "wirerate's ports: TX, RX and ARP/ICMP counters. No parameters" },
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

/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: wires stream file, profile, EAL, ports, TX lcores and the stats lcore together. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_version.h>

#include "wr_app.h"
#include "wr_config.h"
#include "wr_frame.h"
#include "wr_port.h"
#include "wr_rate.h"
#include "wr_report.h"
#include "wr_rx.h"
#include "wr_tx.h"
#include "wr_yaml.h"

/* Where the default profile is looked for, in order (set by meson). */
#ifndef WR_CONFIG_DIRS
#define WR_CONFIG_DIRS "config"
#endif
#define WR_DEFAULT_PROFILE "default.yaml"
/* The stats lcore sleeps in slices this long so it notices a finished run
 * or a signal quickly without busy-polling. */
#define WR_STATS_SLICE_NS (20 * 1000 * 1000ull)
/* How long to let frames accepted by tx_burst leave before stopping ports. */
#define WR_DRAIN_MS 100

/* The only global: the stop flag, written by the signal handler and the
 * stats lcore, read (through a pointer in each context) by the data path. */
static uint32_t wr_stop;
static uint32_t wr_stop_rx;
static volatile sig_atomic_t wr_signalled;

static void
on_signal(int sig)
{
	wr_signalled = sig;
	__atomic_store_n(&wr_stop, 1, __ATOMIC_RELAXED);
}

struct run {
	const struct wr_opts *o;
	struct wr_stream_file f;
	struct wr_config cfg;
	const char *cfg_path;
	struct wr_frame_tmpl *tmpl[WR_STREAMS_MAX];
	char *eal_argv[WR_EAL_ARGS_MAX * 2 + 8];
	int eal_argc;
	bool eal_up;
	struct wr_port ports[WR_PORTS_MAX];
	unsigned int n_ports;
	/* Per port: its TX lcores, in queue order. */
	unsigned int port_lcores[WR_PORTS_MAX][WR_PORT_LCORES_MAX];
	unsigned int port_n_lcores[WR_PORTS_MAX];
	struct wr_lcore_ctx *lctx[RTE_MAX_LCORE];
	unsigned int lcores[RTE_MAX_LCORE]; /* lcore ids with a context */
	unsigned int n_lcores;
	bool launched;
	/* Every (lcore, stream) context, and per stream the list of them. */
	struct wr_tx_stream *ts[WR_STREAMS_MAX][WR_PORT_LCORES_MAX];
	unsigned int n_ts[WR_STREAMS_MAX];
	/* Per port: the RX queue polled for echoes (NULL: none). */
	struct wr_rxq *rxq[WR_PORTS_MAX];
	bool any_latency;
	uint64_t target_millipps[WR_STREAMS_MAX]; /* WR_RATE_UNPACED: max */
	struct wr_latency *scratch; /* histogram snapshots, stats lcore only */
	struct wr_report_row *port_rows;
	struct wr_report_row *stream_rows;
	char started_at[40];
};

static int
fail(struct wr_error *err, int code)
{
	wr_app_print_error(err);
	return code;
}

static const char *
find_default_profile(char *buf, size_t len)
{
	char dirs[1024], *save = NULL, *d;

	snprintf(dirs, sizeof(dirs), "%s", WR_CONFIG_DIRS);
	for (d = strtok_r(dirs, ":", &save); d != NULL;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", d, WR_DEFAULT_PROFILE);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

/* Stream file, profile and templates: everything that can be wrong in the
 * user's input is found here, before EAL starts and before any traffic. */
static int
prepare(struct run *r)
{
	static char default_path[1024];
	const struct wr_opts *o = r->o;
	struct wr_error err;
	uint32_t i;
	int rc;

	wr_error_clear(&err);
	if (o->stream_file == NULL) {
		fprintf(stderr, "wirerate: run: a stream file is required\n");
		return WR_EXIT_USAGE;
	}
	rc = wr_yaml_load_streams(o->stream_file, &r->f, &err);
	if (rc != 0)
		return fail(&err, WR_EXIT_USAGE);
	if (o->seed_set)
		wr_stream_file_set_seed(&r->f, o->seed);

	wr_config_init(&r->cfg);
	r->cfg_path = o->config_file;
	if (r->cfg_path == NULL && o->n_eal == 0) {
		r->cfg_path = find_default_profile(default_path,
						   sizeof(default_path));
		if (r->cfg_path == NULL) {
			fprintf(stderr, "wirerate: no --config given and no %s "
				"found in %s\n", WR_DEFAULT_PROFILE,
				WR_CONFIG_DIRS);
			return WR_EXIT_USAGE;
		}
	}
	if (r->cfg_path != NULL) {
		rc = wr_config_load(r->cfg_path, &r->cfg, &err);
		if (rc != 0)
			return fail(&err, WR_EXIT_USAGE);
	}

	for (i = 0; i < r->f.n_streams; i++) {
		struct wr_stream *s = &r->f.streams[i];

		if (o->count_set)
			s->count = o->count;
		if (r->cfg.n_ports > 0 && s->port >= r->cfg.n_ports) {
			wr_error_set(&err, -EINVAL, r->f.path, s->mark.line,
				     s->mark.col, NULL,
				     "streams[%u].port: port %u does not exist: "
				     "the profile %s has %u port%s (0..%u)",
				     i, s->port, r->cfg_path, r->cfg.n_ports,
				     r->cfg.n_ports == 1 ? "" : "s",
				     r->cfg.n_ports - 1);
			return fail(&err, WR_EXIT_USAGE);
		}
		rc = wr_frame_tmpl_create(s, i, &r->tmpl[i], &err);
		if (rc != 0) {
			if (err.file[0] == '\0')
				snprintf(err.file, sizeof(err.file), "%s",
					 r->f.path);
			if (err.line == 0) {
				err.line = s->mark.line;
				err.col = s->mark.col;
			}
			return fail(&err, WR_EXIT_USAGE);
		}
	}
	return WR_EXIT_OK;
}

static int
eal_start(struct run *r)
{
	const struct wr_opts *o = r->o;
	unsigned int i;
	int rc;

	r->eal_argc = 0;
	r->eal_argv[r->eal_argc++] = (char *)"wirerate";
	/* EAL's INFO lines (lcores detected, ...) drown the report; the
	 * user's own --log-level, later on the line, wins. */
	r->eal_argv[r->eal_argc++] = (char *)"--log-level=notice";
	for (i = 0; i < r->cfg.n_eal_args; i++)
		r->eal_argv[r->eal_argc++] = r->cfg.eal_args[i];
	for (i = 0; i < (unsigned int)o->n_eal &&
		    r->eal_argc < (int)RTE_DIM(r->eal_argv) - 1; i++)
		r->eal_argv[r->eal_argc++] = o->eal[i];
	r->eal_argv[r->eal_argc] = NULL;

	/* rte_eal_init permutes argv: give it a copy. */
	{
		char *argv[RTE_DIM(r->eal_argv)];

		memcpy(argv, r->eal_argv, sizeof(argv));
		rc = rte_eal_init(r->eal_argc, argv);
	}
	if (rc < 0) {
		fprintf(stderr, "wirerate: EAL failed to start: %s\n",
			rte_strerror(rte_errno));
		return rte_errno == EINVAL ? WR_EXIT_USAGE : WR_EXIT_FAIL;
	}
	r->eal_up = true;
	return WR_EXIT_OK;
}

/* Resolve the profile's ports, or take every probed port. */
static int
ports_resolve(struct run *r)
{
	struct wr_error err;
	uint16_t pid;
	unsigned int i;

	wr_error_clear(&err);
	if (r->cfg.n_ports > 0) {
		for (i = 0; i < r->cfg.n_ports; i++) {
			struct wr_port *p = &r->ports[i];

			if (wr_port_find(r->cfg.ports[i].device, &p->port_id,
					 &err) != 0) {
				snprintf(err.file, sizeof(err.file), "%s",
					 r->cfg_path);
				return fail(&err, WR_EXIT_USAGE);
			}
			p->index = i;
			snprintf(p->device, sizeof(p->device), "%s",
				 r->cfg.ports[i].device);
		}
		r->n_ports = r->cfg.n_ports;
		return WR_EXIT_OK;
	}
	RTE_ETH_FOREACH_DEV(pid) {
		struct wr_port *p;

		if (r->n_ports == WR_PORTS_MAX)
			break;
		p = &r->ports[r->n_ports];
		p->port_id = pid;
		p->index = r->n_ports++;
		rte_eth_dev_get_name_by_port(pid, p->device);
	}
	if (r->n_ports == 0) {
		fprintf(stderr, "wirerate: EAL found no ports: give a device "
			"(-a PCI address or --vdev) after --, or a --config\n");
		return WR_EXIT_USAGE;
	}
	for (i = 0; i < r->f.n_streams; i++)
		if (r->f.streams[i].port >= r->n_ports) {
			wr_error_set(&err, -EINVAL, r->f.path,
				     r->f.streams[i].mark.line,
				     r->f.streams[i].mark.col, NULL,
				     "streams[%u].port: port %u does not exist: "
				     "EAL found %u port%s", i,
				     r->f.streams[i].port, r->n_ports,
				     r->n_ports == 1 ? "" : "s");
			return fail(&err, WR_EXIT_USAGE);
		}
	return WR_EXIT_OK;
}

/* Give each port its TX lcores: the profile's, or the workers shared out. */
static int
lcores_assign(struct run *r)
{
	unsigned int workers[RTE_MAX_LCORE], n_workers = 0, lc, i, j;
	unsigned int main_lcore = rte_get_main_lcore();

	RTE_LCORE_FOREACH_WORKER(lc)
		workers[n_workers++] = lc;
	for (i = 0; i < r->n_ports; i++) {
		const struct wr_port_cfg *pc =
			i < r->cfg.n_ports ? &r->cfg.ports[i] : NULL;

		if (pc != NULL && pc->n_tx_lcores > 0) {
			for (j = 0; j < pc->n_tx_lcores; j++) {
				lc = pc->tx_lcores[j];
				if (lc >= RTE_MAX_LCORE ||
				    !rte_lcore_is_enabled(lc) ||
				    lc == main_lcore) {
					fprintf(stderr,
						"wirerate: %s: ports[%u].tx_lcores: "
						"lcore %u is %s\n",
						r->cfg_path, i, lc,
						lc == main_lcore ?
						"the main lcore, which prints the "
						"statistics; give a worker lcore" :
						"not enabled in EAL's --lcores/-l");
					return WR_EXIT_USAGE;
				}
				r->port_lcores[i][j] = lc;
			}
			r->port_n_lcores[i] = pc->n_tx_lcores;
			continue;
		}
		if (n_workers == 0) {
			fprintf(stderr, "wirerate: no worker lcore for TX: the "
				"main lcore only prints statistics; give EAL "
				"two lcores or more (e.g. --lcores=0@0,1@1)\n");
			return WR_EXIT_USAGE;
		}
		/* More workers than ports: each port takes every n-th
		 * worker; fewer: ports share workers. */
		if (n_workers >= r->n_ports) {
			for (j = i; j < n_workers &&
				    r->port_n_lcores[i] < WR_PORT_LCORES_MAX;
			     j += r->n_ports)
				r->port_lcores[i][r->port_n_lcores[i]++] =
					workers[j];
		} else {
			r->port_lcores[i][0] = workers[i % n_workers];
			r->port_n_lcores[i] = 1;
		}
	}
	return WR_EXIT_OK;
}

static struct wr_lcore_ctx *
lcore_ctx(struct run *r, unsigned int lc)
{
	struct wr_lcore_ctx *c = r->lctx[lc];

	if (c != NULL)
		return c;
	c = rte_zmalloc_socket("wr_lcore", sizeof(*c), RTE_CACHE_LINE_SIZE,
			       rte_lcore_to_socket_id(lc));
	if (c == NULL)
		return NULL;
	c->lcore_id = lc;
	c->burst = r->cfg.burst;
	c->stop = &wr_stop;
	c->stop_rx = &wr_stop_rx;
	r->lctx[lc] = c;
	r->lcores[r->n_lcores++] = lc;
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

/*
 * Echoes may come back on any port (a reflector returns them on the port
 * they left, a router on another), so when any stream carries a signature
 * every port is polled, each by its profile's rx_lcore, else by its first
 * TX lcore (TX and RX share a worker on a 2-CPU machine), else by the
 * first worker.
 */
static int
rx_setup(struct run *r)
{
	uint16_t lanes[WR_STREAMS_MAX];
	unsigned int i, lc;
	uint32_t s;

	for (s = 0; s < r->f.n_streams; s++) {
		lanes[s] = r->f.streams[s].latency ?
			(uint16_t)r->port_n_lcores[r->f.streams[s].port] : 0;
		r->any_latency |= r->f.streams[s].latency;
	}
	if (!r->any_latency)
		return WR_EXIT_OK;
	r->scratch = rte_zmalloc("wr_scratch", sizeof(*r->scratch),
				 RTE_CACHE_LINE_SIZE);
	if (r->scratch == NULL) {
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	for (i = 0; i < r->n_ports; i++) {
		const struct wr_port_cfg *pc =
			i < r->cfg.n_ports ? &r->cfg.ports[i] : NULL;
		struct wr_lcore_ctx *c;
		unsigned int w;

		if (pc != NULL && pc->rx_lcore >= 0) {
			lc = (unsigned int)pc->rx_lcore;
			if (lc >= RTE_MAX_LCORE || !rte_lcore_is_enabled(lc) ||
			    lc == rte_get_main_lcore()) {
				fprintf(stderr, "wirerate: %s: ports[%u].rx_lcore: "
					"lcore %u is not a worker lcore EAL "
					"enabled\n", r->cfg_path, i, lc);
				return WR_EXIT_USAGE;
			}
		} else if (r->port_n_lcores[i] > 0) {
			lc = r->port_lcores[i][0];
		} else {
			w = rte_get_next_lcore(-1, 1, 0);
			if (w >= RTE_MAX_LCORE) {
				fprintf(stderr, "wirerate: no worker lcore to "
					"poll port %s\n", r->ports[i].device);
				return WR_EXIT_USAGE;
			}
			lc = w;
		}
		c = lcore_ctx(r, lc);
		r->rxq[i] = rte_zmalloc_socket("wr_rxq", sizeof(struct wr_rxq),
					       RTE_CACHE_LINE_SIZE,
					       rte_lcore_to_socket_id(lc));
		if (c == NULL || r->rxq[i] == NULL ||
		    c->n_rxq == WR_LCORE_RXQ_MAX ||
		    wr_rxq_init(r->rxq[i], r->ports[i].port_id, 0,
				(uint16_t)r->f.n_streams, lanes,
				(int)rte_lcore_to_socket_id(lc)) != 0) {
			fprintf(stderr, "wirerate: cannot set up RX for port %s\n",
				r->ports[i].device);
			return WR_EXIT_FAIL;
		}
		c->rxq[c->n_rxq++] = r->rxq[i];
	}
	return WR_EXIT_OK;
}

/*
 * Rates need the link speed (percentages, and bit rates of size mixes are
 * exact only per cycle), so they are set once the links are up.  A port
 * whose streams ask more than its link carries is reported, not clipped:
 * the user sees the achieved rate beside the target.
 */
static int
rates_setup(struct run *r)
{
	uint64_t l1[WR_PORTS_MAX][WR_STREAMS_MAX];
	unsigned int n_l1[WR_PORTS_MAX] = { 0 };
	struct wr_error err;
	char line[256];
	unsigned int i, j;
	uint32_t s;

	for (s = 0; s < r->f.n_streams; s++) {
		const struct wr_stream *st = &r->f.streams[s];
		uint32_t link = r->ports[st->port].link_speed_mbps;
		struct wr_size_avg avg;
		uint64_t mpps, bps;
		int rc;

		rc = wr_size_avg_of(&st->size, &avg);
		if (rc == 0)
			rc = wr_rate_millipps(&st->rate, &avg, link, &mpps);
		if (rc != 0) {
			wr_error_set(&err, rc, r->f.path, st->mark.line,
				     st->mark.col, NULL,
				     "streams[%u].rate: %s", s,
				     st->rate.unit == WR_RATE_PERCENT && link == 0 ?
				     "a percentage of the line rate needs the "
				     "link speed, which this port does not report; "
				     "give pps or bps" :
				     "the rate is out of range for this stream");
			return fail(&err, WR_EXIT_USAGE);
		}
		r->target_millipps[s] = mpps;
		for (j = 0; j < r->n_ts[s]; j++) {
			rc = wr_tx_stream_set_rate(r->ts[s][j],
						   mpps == WR_RATE_UNPACED ? mpps :
						   wr_rate_split(mpps, r->n_ts[s], j),
						   r->cfg.burst);
			if (rc != 0) {
				wr_error_set(&err, rc, r->f.path, st->mark.line,
					     st->mark.col, NULL,
					     "streams[%u].rate: cannot pace this "
					     "rate (%s)", s, strerror(-rc));
				return fail(&err, WR_EXIT_USAGE);
			}
		}
		if (wr_rate_l1_bps(&st->rate, &avg, link, &bps) == 0)
			l1[st->port][n_l1[st->port]++] = bps;
	}
	for (i = 0; i < r->n_ports; i++) {
		struct wr_rate_load load;

		load = wr_rate_load(l1[i], n_l1[i],
				    r->ports[i].link_speed_mbps);
		if (load.over) {
			wr_rate_load_format(&load, i, line, sizeof(line));
			fprintf(stderr, "wirerate: warning: %s: the port cannot "
				"carry it all; achieved rates will be lower\n",
				line);
		}
	}
	return WR_EXIT_OK;
}

static int
ports_setup(struct run *r)
{
	struct wr_error err;
	unsigned int i, j, k;
	uint32_t s;
	int rc;

	wr_error_clear(&err);
	for (i = 0; i < r->n_ports; i++) {
		struct wr_port *p = &r->ports[i];
		const struct wr_port_cfg *pc =
			i < r->cfg.n_ports ? &r->cfg.ports[i] : NULL;

		rc = wr_port_setup(p, (uint16_t)r->port_n_lcores[i],
				   pc ? pc->txd : 0, pc ? pc->rxd : 0, &err);
		if (rc != 0)
			return fail(&err, WR_EXIT_FAIL);
		for (j = 0; j < r->port_n_lcores[i]; j++) {
			unsigned int lc = r->port_lcores[i][j];
			int ls = (int)rte_lcore_to_socket_id(lc);

			if (p->socket_id >= 0 && ls != p->socket_id)
				fprintf(stderr, "wirerate: warning: TX lcore %u "
					"is on NUMA node %d, port %s on node "
					"%d: expect lower rates\n", lc, ls,
					p->device, p->socket_id);
		}
	}

	/* Every stream is sent by all TX lcores of its port: lcore j of k
	 * sends frames j, j+k, j+2k, ... (see wr_frame.h). */
	for (s = 0; s < r->f.n_streams; s++) {
		const struct wr_stream *st = &r->f.streams[s];
		struct wr_port *p = &r->ports[st->port];
		unsigned int n = r->port_n_lcores[st->port];
		unsigned int n_mbufs;

		/* Enough for the NIC's ring, a burst pending and the
		 * lcore's mempool cache; 2^q - 1 suits the ring. */
		n_mbufs = p->txd + 4 * r->cfg.burst + 2 * 256;
		for (k = 1; k < n_mbufs; k <<= 1)
			;
		n_mbufs = k - 1;
		for (j = 0; j < n; j++) {
			unsigned int lc = r->port_lcores[st->port][j];
			struct wr_lcore_ctx *c = lcore_ctx(r, lc);
			struct wr_txq *q;
			struct wr_tx_stream *ts;

			if (c == NULL) {
				fprintf(stderr, "wirerate: out of memory\n");
				return WR_EXIT_FAIL;
			}
			q = lcore_txq(c, p->port_id, (uint16_t)j);
			if (q == NULL || q->n_streams == WR_TXQ_STREAMS_MAX) {
				fprintf(stderr, "wirerate: lcore %u has too many "
					"queues or streams\n", lc);
				return WR_EXIT_USAGE;
			}
			ts = rte_zmalloc_socket("wr_tx_stream", sizeof(*ts),
						RTE_CACHE_LINE_SIZE,
						rte_lcore_to_socket_id(lc));
			if (ts == NULL) {
				fprintf(stderr, "wirerate: out of memory\n");
				return WR_EXIT_FAIL;
			}
			r->ts[s][r->n_ts[s]++] = ts;
			rc = wr_tx_stream_init(ts, r->tmpl[s], s, st->count,
					       j, n, n_mbufs,
					       p->socket_id >= 0 ?
					       p->socket_id :
					       (int)rte_lcore_to_socket_id(lc),
					       &err);
			if (rc != 0) {
				snprintf(err.path, sizeof(err.path),
					 "stream %s", st->name);
				return fail(&err, WR_EXIT_FAIL);
			}
			q->streams[q->n_streams++] = ts;
		}
	}

	rc = rx_setup(r);
	if (rc != WR_EXIT_OK)
		return rc;
	for (i = 0; i < r->n_ports; i++) {
		rc = wr_port_start(&r->ports[i], &err);
		if (rc != 0)
			return fail(&err, WR_EXIT_FAIL);
	}
	for (i = 0; i < r->n_ports; i++) {
		if (wr_port_wait_link(&r->ports[i], r->cfg.link_wait_ms) != 0) {
			fprintf(stderr, "wirerate: port %s: link still down "
				"after %u ms (link_wait_ms)\n",
				r->ports[i].device, r->cfg.link_wait_ms);
			return WR_EXIT_FAIL;
		}
	}
	/* The profile's settle time: a peer may report link up before it
	 * forwards (memif), and frames sent then would count as lost. */
	if (r->cfg.settle_ms > 0)
		rte_delay_us_sleep(r->cfg.settle_ms * 1000u);
	return rates_setup(r);
}

static uint64_t
tsc_to_ns(uint64_t tsc)
{
	return (uint64_t)((double)tsc * 1e9 / (double)rte_get_tsc_hz());
}

/* A stream's echoes, over every polled port: sequence results per lane
 * against what that lane sent, one histogram merged from all ports. */
static void
collect_rx(struct run *r, uint32_t s, struct wr_report_row *row)
{
	struct wr_latency_jitter *jit = NULL;
	unsigned int i, lane;
	uint64_t distinct = 0, sent = 0;

	row->has_rx = true;
	row->rx_pkts = row->reordered = row->duplicated = 0;
	wr_latency_init(r->scratch);
	for (lane = 0; lane < r->n_ts[s]; lane++)
		sent += __atomic_load_n(&r->ts[s][lane]->c.tx_pkts,
					__ATOMIC_RELAXED);
	for (i = 0; i < r->n_ports; i++) {
		struct wr_rx_stream *rs;

		if (r->rxq[i] == NULL || (rs = r->rxq[i]->streams[s]) == NULL)
			continue;
		for (lane = 0; lane < rs->n_lanes; lane++) {
			struct wr_seq_result res;

			wr_seq_finish(&rs->seq[lane], 0, &res);
			row->rx_pkts += res.rx_pkts;
			row->reordered += res.reordered;
			row->duplicated += res.duplicated;
			distinct += res.distinct;
		}
		wr_latency_merge(r->scratch, &rs->hist);
		/* Jitter is a per-path quantity: report the port that saw
		 * the stream's echoes (the first, when several did). */
		if (jit == NULL && rs->jitter.n > 0)
			jit = &rs->jitter;
	}
	row->lost = sent > distinct ? sent - distinct : 0;
	wr_latency_summarize(r->scratch, jit, &row->lat);
}

/* Sum the per-lcore counters into the report rows. */
static void
collect(struct run *r, struct wr_report_view *v, uint64_t now_tsc,
	bool final)
{
	uint64_t start = UINT64_MAX, port_end[WR_PORTS_MAX] = { 0 };
	unsigned int i, j;
	uint32_t s;

	for (i = 0; i < r->n_lcores; i++) {
		uint64_t st = r->lctx[r->lcores[i]]->start_tsc;

		if (st != 0 && st < start)
			start = st;
	}
	if (start == UINT64_MAX)
		start = now_tsc;
	for (i = 0; i < r->n_ports; i++)
		memset(&r->port_rows[i].total, 0, sizeof(struct wr_counters));
	for (s = 0; s < r->f.n_streams; s++) {
		struct wr_report_row *row = &r->stream_rows[s];
		uint64_t end = 0;

		memset(&row->total, 0, sizeof(row->total));
		for (j = 0; j < r->n_ts[s]; j++) {
			struct wr_counters c;
			uint64_t e = __atomic_load_n(&r->ts[s][j]->end_tsc,
						     __ATOMIC_RELAXED);

			wr_counters_read(&c, &r->ts[s][j]->c);
			wr_counters_add(&row->total, &c);
			if (final)
				row->pacer_skipped += r->ts[s][j]->pacer.skipped;
			if (!final && e == 0)
				e = now_tsc;
			if (e > end)
				end = e;
		}
		if (end < start)
			end = start;
		row->duration_ns = tsc_to_ns(end - start);
		wr_counters_add(&r->port_rows[row->port].total, &row->total);
		if (r->f.streams[s].latency)
			collect_rx(r, s, row);
		if (end > port_end[row->port])
			port_end[row->port] = end;
	}
	for (i = 0; i < r->n_ports; i++) {
		struct wr_rxq *q = r->rxq[i];

		if (q == NULL)
			continue;
		r->port_rows[i].has_rx = true;
		r->port_rows[i].rx_pkts = __atomic_load_n(&q->rx_pkts,
							  __ATOMIC_RELAXED);
		r->port_rows[i].rx_foreign = __atomic_load_n(&q->rx_foreign,
							     __ATOMIC_RELAXED);
		r->port_rows[i].rx_bad_sig = __atomic_load_n(&q->rx_bad_sig,
							     __ATOMIC_RELAXED);
	}
	v->elapsed_ns = 0;
	for (i = 0; i < r->n_ports; i++) {
		r->port_rows[i].duration_ns =
			port_end[i] > start ? tsc_to_ns(port_end[i] - start) : 0;
		if (r->port_rows[i].duration_ns > v->elapsed_ns)
			v->elapsed_ns = r->port_rows[i].duration_ns;
	}
	if (!final)
		v->elapsed_ns = tsc_to_ns(now_tsc - start);
}

static bool
all_tx_finished(const struct run *r)
{
	unsigned int i;

	for (i = 0; i < r->n_lcores; i++)
		if (!__atomic_load_n(&r->lctx[r->lcores[i]]->tx_finished,
				     __ATOMIC_ACQUIRE))
			return false;
	return true;
}

static void
sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL); /* EINTR on a signal is what we want */
}

static void
fill_meta(struct run *r, struct wr_report_meta *m, const char *reason)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->wirerate_version = WR_VERSION;
	m->dpdk_version = rte_version();
	m->stream_file = r->f.path;
	wr_report_hex(r->f.sha256, m->stream_sha256);
	m->config_file = r->cfg_path ? r->cfg_path : "";
	m->seed = r->f.seed;
	m->main_lcore = rte_get_main_lcore();
	for (i = 0; i < r->n_lcores && i < RTE_DIM(m->tx_lcores); i++)
		m->tx_lcores[m->n_tx_lcores++] = r->lcores[i];
	snprintf(m->started_at, sizeof(m->started_at), "%s", r->started_at);
	m->stop_reason = reason;
	m->eal_args = r->eal_argv + 1;
	m->n_eal_args = (unsigned int)(r->eal_argc - 1);
}

static int
traffic(struct run *r)
{
	const struct wr_opts *o = r->o;
	const uint64_t hz = rte_get_tsc_hz();
	struct wr_report_view v;
	struct wr_report_meta meta;
	struct sigaction sa;
	const char *reason = "count";
	uint64_t t0, next, interval_tsc, deadline = UINT64_MAX, now;
	unsigned int i, lines = 0;
	bool tty = isatty(STDOUT_FILENO);
	time_t wall = time(NULL);
	struct tm tm;
	int rc = WR_EXIT_OK;

	gmtime_r(&wall, &tm);
	strftime(r->started_at, sizeof(r->started_at), "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	memset(&v, 0, sizeof(v));
	v.ports = r->port_rows;
	v.n_ports = r->n_ports;
	v.streams = r->stream_rows;
	v.n_streams = r->f.n_streams;
	for (i = 0; i < r->n_ports; i++) {
		struct wr_report_row *p = &r->port_rows[i];

		snprintf(p->name, sizeof(p->name), "%s", r->ports[i].device);
		snprintf(p->device, sizeof(p->device), "%s", r->ports[i].device);
		snprintf(p->driver, sizeof(p->driver), "%s", r->ports[i].driver);
		p->port_id = r->ports[i].port_id;
		p->port = (uint16_t)i;
		p->link_speed_mbps = r->ports[i].link_speed_mbps;
	}
	for (i = 0; i < r->f.n_streams; i++) {
		struct wr_report_row *s = &r->stream_rows[i];

		snprintf(s->name, sizeof(s->name), "%s", r->f.streams[i].name);
		s->port = r->f.streams[i].port;
		s->seed = r->f.streams[i].seed;
		s->size_min = r->f.streams[i].size.min;
		s->size_max = r->f.streams[i].size.max;
		s->target_kpps = r->target_millipps[i] == WR_RATE_UNPACED ? 0 :
			(double)r->target_millipps[i] / 1e6;
	}
	fill_meta(r, &meta, "running");
	wr_report_header(stdout, &meta, &v);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	for (i = 0; i < r->n_lcores; i++) {
		rc = rte_eal_remote_launch(wr_tx_lcore_main,
					   r->lctx[r->lcores[i]], r->lcores[i]);
		if (rc != 0) {
			fprintf(stderr, "wirerate: cannot launch lcore %u: %s\n",
				r->lcores[i], rte_strerror(-rc));
			__atomic_store_n(&wr_stop, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&wr_stop_rx, 1, __ATOMIC_RELAXED);
			rte_eal_mp_wait_lcore();
			return WR_EXIT_FAIL;
		}
	}
	r->launched = true;

	t0 = rte_rdtsc();
	interval_tsc = hz * r->cfg.stats_interval_ms / 1000;
	next = t0 + interval_tsc;
	if (o->duration_ns > 0)
		deadline = t0 + (uint64_t)((double)o->duration_ns * hz / 1e9);
	for (;;) {
		uint64_t until;

		now = rte_rdtsc();
		if (__atomic_load_n(&wr_stop, __ATOMIC_RELAXED)) {
			reason = "signal";
			break;
		}
		if (all_tx_finished(r)) {
			reason = "count";
			break;
		}
		if (now >= deadline) {
			reason = "duration";
			break;
		}
		if (now >= next) {
			v.interval_ns = tsc_to_ns(now - (next - interval_tsc));
			collect(r, &v, now, false);
			if (!o->quiet)
				lines = wr_report_interval(stdout, &v, tty,
							   lines);
			next += interval_tsc;
			if (next <= now) /* we overslept: do not catch up */
				next = now + interval_tsc;
		}
		until = next < deadline ? next : deadline;
		until = until > now ? tsc_to_ns(until - now) : 0;
		sleep_ns(until < WR_STATS_SLICE_NS ? until : WR_STATS_SLICE_NS);
	}
	__atomic_store_n(&wr_stop, 1, __ATOMIC_RELAXED);
	while (!all_tx_finished(r))
		sleep_ns(1000 * 1000);
	if (r->any_latency && wr_signalled == 0) {
		/* Echoes still in flight: wait the drain time out (a second
		 * Ctrl-C cuts it short). */
		uint64_t end = rte_rdtsc() +
			(uint64_t)((double)o->drain_ns * hz / 1e9);

		while (wr_signalled == 0 && (now = rte_rdtsc()) < end)
			sleep_ns(RTE_MIN(tsc_to_ns(end - now),
					 WR_STATS_SLICE_NS));
	}
	__atomic_store_n(&wr_stop_rx, 1, __ATOMIC_RELAXED);
	rte_eal_mp_wait_lcore();
	r->launched = false;

	for (i = 0; i < r->n_ports; i++) {
		struct rte_eth_stats st;

		wr_port_drain(&r->ports[i], WR_DRAIN_MS);
		if (wr_port_stats(&r->ports[i], &st) == 0) {
			r->port_rows[i].has_nic = true;
			r->port_rows[i].nic_opackets = st.opackets;
			r->port_rows[i].nic_obytes = st.obytes;
			r->port_rows[i].nic_oerrors = st.oerrors;
			r->port_rows[i].nic_ipackets = st.ipackets;
			r->port_rows[i].nic_imissed = st.imissed;
			r->port_rows[i].nic_ierrors = st.ierrors;
		}
	}
	collect(r, &v, rte_rdtsc(), true);
	fill_meta(r, &meta, reason);
	wr_report_final(stdout, &meta, &v);
	if (o->json_file != NULL) {
		int jrc = wr_report_json(o->json_file, &meta, &v);

		if (jrc != 0) {
			fprintf(stderr, "wirerate: %s: cannot write results: %s\n",
				o->json_file, strerror(-jrc));
			rc = WR_EXIT_FAIL;
		}
	}
	return rc;
}

static void
teardown(struct run *r)
{
	unsigned int i, j;
	uint32_t s;

	if (r->launched) {
		__atomic_store_n(&wr_stop, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&wr_stop_rx, 1, __ATOMIC_RELAXED);
		rte_eal_mp_wait_lcore();
		r->launched = false;
	}
	for (i = 0; i < r->n_ports; i++) {
		wr_rxq_fini(r->rxq[i]);
		rte_free(r->rxq[i]);
		r->rxq[i] = NULL;
	}
	rte_free(r->scratch);
	r->scratch = NULL;
	for (s = 0; s < WR_STREAMS_MAX; s++) {
		for (j = 0; j < r->n_ts[s]; j++) {
			wr_tx_stream_fini(r->ts[s][j]);
			rte_free(r->ts[s][j]);
		}
		r->n_ts[s] = 0;
	}
	for (i = 0; i < r->n_lcores; i++) {
		rte_free(r->lctx[r->lcores[i]]);
		r->lctx[r->lcores[i]] = NULL;
	}
	r->n_lcores = 0;
	for (i = 0; i < r->n_ports; i++)
		wr_port_close(&r->ports[i]);
	if (r->eal_up) {
		rte_eal_cleanup();
		r->eal_up = false;
	}
	for (s = 0; s < r->f.n_streams; s++)
		wr_frame_tmpl_free(r->tmpl[s]);
	wr_stream_file_free(&r->f);
	wr_config_free(&r->cfg);
	free(r->port_rows);
	free(r->stream_rows);
}

int
wr_cmd_run(const struct wr_opts *o)
{
	struct run *r = calloc(1, sizeof(*r));
	int rc;

	if (r == NULL) {
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	r->o = o;
	rc = prepare(r);
	if (rc == WR_EXIT_OK)
		rc = eal_start(r);
	if (rc == WR_EXIT_OK)
		rc = ports_resolve(r);
	if (rc == WR_EXIT_OK)
		rc = lcores_assign(r);
	if (rc == WR_EXIT_OK) {
		r->port_rows = calloc(r->n_ports, sizeof(*r->port_rows));
		r->stream_rows = calloc(r->f.n_streams ? r->f.n_streams : 1,
					sizeof(*r->stream_rows));
		if (r->port_rows == NULL || r->stream_rows == NULL) {
			fprintf(stderr, "wirerate: out of memory\n");
			rc = WR_EXIT_FAIL;
		}
	}
	if (rc == WR_EXIT_OK)
		rc = ports_setup(r);
	if (rc == WR_EXIT_OK)
		rc = traffic(r);
	teardown(r);
	free(r);
	return rc;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_engine_load: a stream file onto the open ports: lcore contexts, TX
 * pools and templates, sequences, rx_classes as eBPF, RX queues and their
 * raw-layer hints, rates and ramps, report rows; the checks made before a
 * load, and unload.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include "wr_arp.h"
#include "wr_engine_priv.h"
#include "wr_stream_hosts.h"
#include "wr_rate.h"
#include "wr_clock_eal.h"

/* The lcore's mempool cache (wr_tx.c) and bursts in flight, per stream
 * context, on top of the NIC's ring. */
#define WR_TX_POOL_SLACK (2 * 256)

static struct wr_lcore_ctx *
lcore_ctx(struct wr_engine *e, unsigned int lc)
{
	struct wr_lcore_ctx *c = e->lctx[lc];

	if (c != NULL)
		return c;
	c = rte_zmalloc_socket("wr_lcore", sizeof(*c), RTE_CACHE_LINE_SIZE,
			       rte_lcore_to_socket_id(lc));
	if (c == NULL)
		return NULL;
	c->lcore_id = lc;
	c->burst = e->cfg->burst;
	c->stop = &e->stop;
	c->stop_rx = &e->stop_rx;
	c->epoch = &e->epoch;
	c->tsc_hz_word = wr_tsc_hz_word();
	c->tsc_hz = wr_tsc_hz();
	e->lctx[lc] = c;
	e->lcores[e->n_lcores++] = lc;
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

/* The queue of each sequenced port's first lane runs its streams in file
 * order, as their next: says. */
static int
sequences_setup(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	enum wr_sched_next next[WR_TXQ_STREAMS_MAX];
	unsigned int i, qi, si;

	for (i = 0; i < e->n_ports; i++) {
		struct wr_lcore_ctx *c;

		if (!wr_stream_file_port_sequenced(f, (uint16_t)i) ||
		    e->port_n_lcores[i] == 0 ||
		    (c = e->lctx[e->port_lcores[i][0]]) == NULL)
			continue;
		for (qi = 0; qi < c->n_txq; qi++) {
			struct wr_txq *q = &c->txq[qi];

			if (q->port_id != e->ports[i].port_id ||
			    q->queue_id != 0)
				continue;
			for (si = 0; si < q->n_streams; si++)
				next[si] = f->streams[q->streams[si]->stream_id].next;
			if (wr_txq_set_sequence(q, next, f->loops) != 0)
				return wr_error_set(err, -EINVAL, f->path, 0, 0,
						    NULL, "port %u: cannot "
						    "sequence its streams", i);
		}
	}
	return 0;
}

/*
 * A replayed stream's frames must fit its port and its memory budget:
 * checked for every lane before any pool is made, so a capture that does
 * not fit stops the run with one message saying what to change.
 */
/* A TX pool's size: enough for the NIC's ring, a burst pending and the
 * lcore's mempool cache; 2^q - 1 suits the pool's ring. */
static unsigned int
tx_pool_size(const struct wr_engine *e, const struct wr_stream *st)
{
	unsigned int burst = st->burst ? st->burst : e->cfg->burst, k;
	unsigned int n = e->ports[st->port].txd + 4 * burst + WR_TX_POOL_SLACK;

	for (k = 1; k < n; k <<= 1)
		;
	return k - 1;
}

static int
replay_check(struct wr_engine *e, uint32_t s, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	const struct wr_stream *st = &f->streams[s];
	const struct wr_replay_spec *r = st->replay;
	const struct wr_port *p = &e->ports[st->port];
	const char *what = r->from_frame ? "frame" : r->pcap;
	unsigned int n = wr_stream_file_port_sequenced(f, st->port) ? 1 :
		e->port_n_lcores[st->port], j;
	uint64_t need = 0;
	uint16_t mtu;
	int64_t k;

	if (rte_eth_dev_get_mtu(p->port_id, &mtu) == 0 &&
	    (k = wr_capture_over_mtu(&r->cap, mtu)) >= 0)
		return wr_error_set(err, -EINVAL, what, 0, 0, NULL,
			"record %lld: a frame of %u bytes is larger than port "
			"%s takes (MTU %u: %u bytes after the Ethernet "
			"header); raise the port's MTU or leave such frames "
			"out (editcap)", (long long)k + 1, r->cap.len[k],
			p->device, mtu, mtu);
	for (j = 0; j < n; j++)
		need += wr_replay_lane_mem(r, n, j, tx_pool_size(e, st));
	if (need > r->memory_bytes)
		return wr_error_set(err, -EINVAL, f->path, st->mark.line,
			st->mark.col, NULL, "streams[%u] (%s): its %u frames "
			"need %.1f MiB of hugepage memory (up to %u bytes "
			"each, %u lane%s), over its budget of %.1f MiB: "
			"raise memory: (e.g. memory: %llu MiB) and reserve the "
			"hugepages (tools/wr-hugepages), or replay fewer frames "
			"(editcap -r)", s, st->name, r->cap.n,
			(double)need / (1 << 20), r->cap.max_len, n,
			n == 1 ? "" : "s", (double)r->memory_bytes / (1 << 20),
			(unsigned long long)((need >> 20) + 1));
	return 0;
}

/* A stream whose frames its port was not set up for (a server's profile
 * without max_frame, jumbo streams loaded later): refused, not sent to be
 * cut or dropped. */
static int
frame_fits_port(struct wr_engine *e, uint32_t s, struct wr_error *err)
{
	const struct wr_stream *st = &e->f->streams[s];
	const struct wr_port *p = &e->ports[st->port];
	uint32_t len = (uint32_t)wr_frame_tmpl_max_len(e->tmpl[s]) +
		       WR_FCS_LEN;

	if (p->frame_max == 0 || len <= p->frame_max)
		return 0;
	return wr_error_set(err, -EMSGSIZE, e->f->path, st->mark.line,
			    st->mark.col, NULL, "streams[%u] (%s): frames of up "
			    "to %u bytes, port %s was set up for %u (its MTU "
			    "and RX buffers): give the profile max_frame: %u",
			    s, st->name, len, p->device, p->frame_max, len);
}

/* A port with hosts and no stream (an OTG config's devices without
 * flows): on a device without a spare TX queue its hosts answer through
 * the TX queue of the lcore that polls it (wr_host_svc_attach()), which
 * only a stream made until now; an idle queue costs its lcore one loop
 * of no stream a turn.  A file of hosts alone then runs until stopped,
 * polling them.  TCP classes send on their lanes' queues, and an lcore
 * with a TCP lane takes no stateless queue: left to them. */
static int
hosts_queues(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	uint32_t g;

	if (f->tcp.n > 0)
		return 0;
	for (g = 0; g < f->hosts.n; g++) {
		uint16_t port = f->hosts.groups[g].port;
		struct wr_lcore_ctx *c;
		struct wr_txq *q;

		if (port >= e->n_ports || e->port_n_lcores[port] == 0)
			continue;
		c = lcore_ctx(e, e->port_lcores[port][0]);
		q = c != NULL ? lcore_txq(c, e->ports[port].port_id, 0) : NULL;
		if (q == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "lcore %u has too many queues",
					    e->port_lcores[port][0]);
		q->gone = &e->port_gone[port];
		/* Nothing would keep the lcore polling the hosts' port. */
		c->hold = f->n_streams == 0;
	}
	return 0;
}

static int
streams_setup(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	unsigned int j;
	uint32_t s;
	int rc;

	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];

		if (st->port >= e->n_ports)
			return wr_error_set(err, -ENODEV, f->path,
				st->mark.line, st->mark.col, NULL,
				"streams[%u].port: port %u does not exist: "
				"there %s %u port%s (0..%u)", s, st->port,
				e->n_ports == 1 ? "is" : "are", e->n_ports,
				e->n_ports == 1 ? "" : "s", e->n_ports - 1);
		if (e->port_n_lcores[st->port] == 0)
			return wr_error_set(err, -EINVAL, f->path,
				st->mark.line, st->mark.col, NULL,
				"streams[%u].port: port %u only receives (its "
				"profile entry has tx_lcores: [])", s, st->port);
		if (st->replay != NULL) {
			rc = replay_check(e, s, err);
			if (rc != 0)
				return rc;
			continue;
		}
		if (e->prep != NULL && e->prep->tmpl[s] != NULL) {
			e->tmpl[s] = e->prep->tmpl[s];
			e->tmpl_lent[s] = true;
		} else {
			rc = wr_engine_tmpl_create(f, s, &e->tmpl[s], err);
			if (rc != 0)
				return rc;
		}
		rc = frame_fits_port(e, s, err);
		if (rc != 0)
			return rc;
	}

	/* Every stream is sent by all TX lcores of its port: lane j of k
	 * sends frames j, j+k, j+2k, ... (see wr_frame.h).  The streams of a
	 * sequenced port run one at a time on the port's first lane only:
	 * lanes would otherwise have to agree on when each stream ends. */
	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];
		struct wr_port *p = &e->ports[st->port];
		bool seq = wr_stream_file_port_sequenced(f, st->port);
		unsigned int n = seq ? 1 : e->port_n_lcores[st->port];
		unsigned int n_mbufs = tx_pool_size(e, st);
		for (j = 0; j < n; j++) {
			unsigned int lc = e->port_lcores[st->port][j];
			struct wr_lcore_ctx *c = lcore_ctx(e, lc);
			struct wr_tx_stream *ts;
			struct wr_txq *q;

			if (c == NULL)
				return wr_error_set(err, -ENOMEM, NULL, 0, 0,
						    NULL, "out of memory");
			q = lcore_txq(c, p->port_id, (uint16_t)j);
			if (q == NULL || q->n_streams == WR_TXQ_STREAMS_MAX)
				return wr_error_set(err, -EINVAL, NULL, 0, 0,
						    NULL, "lcore %u has too many "
						    "queues or streams", lc);
			q->gone = &e->port_gone[st->port];
			ts = rte_zmalloc_socket("wr_tx_stream", sizeof(*ts),
						RTE_CACHE_LINE_SIZE,
						rte_lcore_to_socket_id(lc));
			if (ts == NULL)
				return wr_error_set(err, -ENOMEM, NULL, 0, 0,
						    NULL, "out of memory");
			e->ts[s][e->n_ts[s]++] = ts;
			if (st->replay != NULL)
				rc = wr_tx_stream_init_replay(ts, st->replay,
					s, st->count, j, n, n_mbufs,
					p->socket_id >= 0 ?
					p->socket_id :
					(int)rte_lcore_to_socket_id(lc), err);
			else
				rc = wr_tx_stream_init(ts, e->tmpl[s], s,
					st->count, j, n, n_mbufs,
					p->socket_id >= 0 ? p->socket_id :
					(int)rte_lcore_to_socket_id(lc), err);
			if (rc != 0) {
				snprintf(err->path, sizeof(err->path),
					 "stream %s", st->name);
				return rc;
			}
			q->streams[q->n_streams++] = ts;
			if (p->tx_cksum && st->replay == NULL)
				wr_tx_stream_cksum_offload(ts, p->port_id,
							   (uint16_t)j);
		}
	}
	rc = hosts_queues(e, err);
	return rc != 0 ? rc : sequences_setup(e, err);
}

/*
 * The classes as one program (wr_filter_merge()): a frame without a
 * signature then costs one call instead of one per class.  A set too long
 * to merge (over 4096 classic instructions) or to translate (wr_bpf.c:
 * jumps beyond 16 bits) is run one by one: the same counts, more slowly.
 */
static int
classes_merge(struct wr_engine *e, const struct wr_filter *const *fs,
	      unsigned int n, struct wr_error *err)
{
	struct wr_filter all;
	struct wr_error ignored;
	int rc;

	rc = wr_filter_merge(fs, n, &all);
	if (rc == 0) {
		rc = wr_bpf_load(&e->class_all, &all, "rx_classes", &ignored);
		wr_filter_free(&all);
	}
	if (rc == -ENOMEM)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	return 0;
}

/* rx_classes: the profile's, then the stream file's, each as eBPF. */
static int
classes_setup(struct wr_engine *e, struct wr_error *err)
{
	const struct wr_filter *fs[WR_RX_CLASSES_MAX];
	const struct wr_rx_classes *lists[2] = { &e->cfg->classes,
						 &e->f->classes };
	unsigned int l, k, n = 0;
	char what[WR_RX_CLASS_NAME_MAX + 16];
	int rc;

	rc = wr_rx_classes_check_pair(lists[0], lists[1], err);
	if (rc != 0)
		return rc;
	if (lists[0]->n + lists[1]->n == 0)
		return 0;
	e->class_bpf = rte_zmalloc("wr_classes", (lists[0]->n + lists[1]->n) *
				   sizeof(*e->class_bpf), RTE_CACHE_LINE_SIZE);
	if (e->class_bpf == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	for (l = 0; l < 2; l++)
		for (k = 0; k < lists[l]->n; k++) {
			const struct wr_rx_class *c = &lists[l]->c[k];

			snprintf(what, sizeof(what), "class %s", c->name);
			rc = wr_bpf_load(&e->class_bpf[n], &c->filter, what,
					 err);
			if (rc != 0)
				return rc;
			fs[n] = &c->filter;
			e->class_names[n++] = c->name;
			e->n_classes = n;
		}
	return classes_merge(e, fs, n, err);
}

/* Whether port @p i is polled: it has an RX lcore and something wants
 * what it receives (echoes may come back on any port: a reflector returns
 * them on the port they left, a router on another). */
static bool
port_polled(const struct wr_engine *e, unsigned int i, bool rx,
	    bool latency)
{
	const struct wr_port_cfg *pc =
		i < e->cfg->n_ports ? &e->cfg->ports[i] : NULL;

	return e->port_n_rx[i] > 0 &&
	       (rx || latency || e->rx_want[i] || e->n_classes > 0 ||
		e->tcp_port[i] || (pc != NULL && pc->n_rx_lcores > 0));
}

static int
rx_setup(struct wr_engine *e, bool rx, struct wr_error *err)
{
	const struct wr_stream_file *f = e->f;
	uint16_t lanes[WR_STREAMS_MAX];
	unsigned int i, q, lc;
	bool trains = false, latency = false;
	uint32_t s;
	int rc;

	for (s = 0; s < f->n_streams; s++) {
		lanes[s] = f->streams[s].latency ?
			(uint16_t)e->port_n_lcores[f->streams[s].port] : 0;
		latency |= f->streams[s].latency;
		trains |= f->streams[s].train_frames != 0 ||
			(f->streams[s].replay != NULL &&
			 f->streams[s].replay->timing ==
			 WR_REPLAY_TIMING_CAPTURE);
	}
	rc = classes_setup(e, err);
	if (rc != 0)
		return rc;
	e->any_rx = false;
	for (i = 0; i < e->n_ports; i++)
		e->any_rx |= port_polled(e, i, rx, latency);
	/* Histogram snapshots: echoes' latency (even with no port polled:
	 * the streams' rows still say none came back), trains' spacing. */
	if (e->any_rx || latency || trains) {
		e->scratch = rte_zmalloc("wr_scratch", sizeof(*e->scratch),
					 RTE_CACHE_LINE_SIZE);
		if (e->scratch == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
	}
	for (s = 0; s < f->n_streams; s++) {
		if (!f->streams[s].latency)
			continue;
		e->view_hist[s] = rte_zmalloc("wr_view_hist",
					      sizeof(*e->view_hist[s]),
					      RTE_CACHE_LINE_SIZE);
		if (e->view_hist[s] == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		wr_latency_init(e->view_hist[s]);
	}
	for (i = 0; i < e->n_ports; i++) {
		if (!port_polled(e, i, rx, latency))
			continue;
		for (q = 0; q < e->port_n_rx[i]; q++) {
			struct wr_lcore_ctx *c;
			struct wr_rxq *rq;
			int sock;

			lc = e->port_rx_lcores[i][q];
			sock = (int)rte_lcore_to_socket_id(lc);
			c = lcore_ctx(e, lc);
			rq = rte_zmalloc_socket("wr_rxq", sizeof(*rq),
						RTE_CACHE_LINE_SIZE, sock);
			if (c == NULL || rq == NULL ||
			    c->n_rxq == WR_LCORE_RXQ_MAX ||
			    wr_rxq_init(rq, e->ports[i].port_id, (uint16_t)q,
					(uint16_t)f->n_streams, lanes,
					e->n_classes, sock) != 0) {
				if (rq != NULL)
					wr_rxq_fini(rq);
				rte_free(rq);
				return wr_error_set(err, c != NULL &&
					c->n_rxq == WR_LCORE_RXQ_MAX ?
					-EINVAL : -ENOMEM, NULL, 0, 0, NULL,
					"cannot set up RX queue %u of port %s%s",
					q, e->ports[i].device, c != NULL &&
					c->n_rxq == WR_LCORE_RXQ_MAX ?
					": lcore polls too many queues" : "");
			}
			rq->lcore_id = lc;
			rq->n_classes = e->n_classes;
			rq->classes = e->class_bpf;
			rq->class_all = e->class_all.bpf != NULL ?
					&e->class_all : NULL;
			if (e->ports[i].rx_hwts) {
				rq->hwts = true;
				rq->hwts_off = e->ports[i].hwts_off;
				rq->hwts_flag = e->ports[i].hwts_flag;
				rq->clock = &e->clock[i];
			}
			wr_eng_rx_hints(e, &rq->hints);
			for (s = 0; s < f->n_streams; s++)
				if (e->tmpl[s] != NULL)
					wr_rx_sig_offs_add(rq,
						wr_frame_tmpl_sig_off(e->tmpl[s]),
						wr_frame_tmpl_sig_kind(e->tmpl[s]));
			e->rxq[i][q] = rq;
			e->n_rxq[i] = q + 1;
			c->rxq_gone[c->n_rxq] = &e->port_gone[i];
			c->rxq[c->n_rxq++] = rq;
		}
	}
	return 0;
}

/* A ramp's rates as packet rates for the stream's sizes and link. */
static int
ramp_of(const struct wr_stream *st, const struct wr_size_avg *avg,
	uint32_t link, struct wr_ramp *r)
{
	int rc;

	r->shape = st->ramp.shape;
	r->at_end = st->ramp.at_end;
	r->step_ns = st->ramp.step_ns;
	rc = wr_rate_millipps(&st->ramp.from, avg, link, &r->start_millipps);
	if (rc == 0)
		rc = wr_rate_millipps(&st->ramp.to, avg, link, &r->end_millipps);
	if (rc == 0)
		rc = wr_rate_millipps(&st->ramp.step, avg, link,
				      &r->step_millipps);
	if (rc == 0)
		rc = wr_ramp_check(r);
	return rc;
}

/*
 * Rates need the link speed (percentages, and bit rates of size mixes are
 * exact only per cycle), so they are set once the links are up.  A port
 * whose streams ask more than its link carries is reported, not clipped:
 * the report shows the achieved rate beside the target.  A ramp counts with
 * its higher end; a sequenced port with its fastest stream (they never run
 * together).
 */
static int
rates_setup(struct wr_engine *e, struct wr_error *err)
{
	static uint64_t l1[WR_PORTS_MAX][WR_STREAMS_MAX]; /* main lcore only */
	const struct wr_stream_file *f = e->f;
	unsigned int n_l1[WR_PORTS_MAX] = { 0 };
	char line[256];
	unsigned int i, j;
	uint32_t s;

	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];
		uint32_t link = e->ports[st->port].link_speed_mbps;
		const struct wr_rate_spec *top = &st->rate;
		struct wr_size_avg avg;
		struct wr_tx_pace pc;
		struct wr_ramp ramp;
		uint64_t mpps, bps;
		int rc;

		rc = wr_size_avg_of(&st->size, &avg);
		if (st->replay != NULL) {
			/* Exact per pass: every frame's wire size. */
			const struct wr_capture *c = &st->replay->cap;

			avg.frames = c->n;
			avg.bytes = 0;
			for (j = 0; j < c->n; j++)
				avg.bytes += wr_capture_wire_len(c->len[j]);
		}
		if (rc == 0 && st->has_ramp) {
			rc = ramp_of(st, &avg, link, &ramp);
			mpps = ramp.start_millipps;
			top = ramp.end_millipps > ramp.start_millipps ?
			      &st->ramp.to : &st->ramp.from;
		} else if (rc == 0) {
			rc = wr_rate_millipps(&st->rate, &avg, link, &mpps);
		}
		if (rc != 0)
			return wr_error_set(err, -EINVAL, f->path,
				st->mark.line, st->mark.col, NULL,
				"streams[%u].%s: %s", s,
				st->has_ramp ? "ramp" : "rate",
				(st->has_ramp ? st->ramp.from.unit == WR_RATE_PERCENT ||
				 st->ramp.to.unit == WR_RATE_PERCENT ||
				 st->ramp.step.unit == WR_RATE_PERCENT :
				 st->rate.unit == WR_RATE_PERCENT) && link == 0 ?
				"a percentage of the line rate needs the link "
				"speed, which this port does not report; give "
				"pps or bps" :
				"the rate is out of range for this stream");
		e->target_millipps[s] = st->has_ramp ? WR_RATE_UNPACED : mpps;
		/* Trains: the stream's frames over its time come to the
		 * schedule's average (each lane's trains), not the rate
		 * within a train. */
		if (st->train_frames != 0 && mpps != WR_RATE_UNPACED) {
			e->target_millipps[s] = 0;
			for (j = 0; j < e->n_ts[s]; j++)
				e->target_millipps[s] += wr_rate_train_millipps(
					wr_rate_split(mpps, e->n_ts[s], j),
					st->train_frames, st->train_gap_ns);
		}
		if (st->replay != NULL &&
		    st->replay->timing == WR_REPLAY_TIMING_CAPTURE) {
			/* The capture's schedule paces it, not the pacer. */
			e->target_millipps[s] = wr_replay_capture_millipps(
				&st->replay->cap, st->replay->speedup_ppm);
			mpps = WR_RATE_UNPACED;
		}
		for (j = 0; j < e->n_ts[s]; j++) {
			memset(&pc, 0, sizeof(pc));
			pc.millipps = mpps == WR_RATE_UNPACED ? mpps :
				wr_rate_split(mpps, e->n_ts[s], j);
			pc.burst = st->burst ? st->burst : e->cfg->burst;
			pc.duration_ns = st->duration_ns;
			pc.isg_ns = st->isg_ns;
			pc.train_frames = st->train_frames;
			pc.train_gap_ns = st->train_gap_ns;
			pc.ramp = st->has_ramp ? &ramp : NULL;
			rc = wr_tx_stream_set_rate(e->ts[s][j], &pc);
			if (rc != 0)
				return wr_error_set(err, rc == -ENOMEM ? rc :
					-EINVAL, f->path,
					st->mark.line, st->mark.col, NULL,
					"streams[%u]: cannot pace this rate, "
					"train or duration (%s)", s,
					strerror(-rc));
		}
		/* Streams at the maximum share what the link has: only set
		 * rates can ask for more than it carries. */
		if (top->unit == WR_RATE_MAX ||
		    wr_rate_l1_bps(top, &avg, link, &bps) != 0)
			continue;
		if (wr_stream_file_port_sequenced(f, st->port)) {
			if (n_l1[st->port] == 0) {
				n_l1[st->port] = 1;
				l1[st->port][0] = 0;
			}
			if (bps > l1[st->port][0])
				l1[st->port][0] = bps;
		} else {
			l1[st->port][n_l1[st->port]++] = bps;
		}
	}
	for (i = 0; i < e->n_ports; i++) {
		struct wr_rate_load load = wr_rate_load(
			l1[i], n_l1[i], e->ports[i].link_speed_mbps);

		if (load.over && !e->oversubscribe) {
			const struct wr_stream *st = NULL;

			for (s = 0; s < f->n_streams && st == NULL; s++)
				if (f->streams[s].port == i)
					st = &f->streams[s];
			wr_rate_load_format(&load, i, line, sizeof(line));
			return wr_error_set(err, -EINVAL, f->path,
					    st ? st->mark.line : 0,
					    st ? st->mark.col : 0, NULL,
					    "%s: more than the link carries "
					    "(--oversubscribe sends anyway)",
					    line);
		}
		if (load.over) {
			wr_rate_load_format(&load, i, line, sizeof(line));
			WR_LOG(WARNING, "%s: the port cannot carry it all; "
			       "achieved rates will be lower\n", line);
		}
	}
	return 0;
}

/* A stream row's hosts (`src: hosts.NAME`), as the session filled them. */
static void
row_hosts(struct wr_report_row *row, const struct wr_stream *st)
{
	if (st->host_src == 0)
		return;
	snprintf(row->hosts_group, sizeof(row->hosts_group), "%s",
		 wr_stream_hosts_src(st));
	row->hosts_from = st->hosts_from;
	row->hosts_skipped = st->hosts_skipped;
}

static void
rows_init(struct wr_engine *e)
{
	const struct wr_stream_file *f = e->f;
	unsigned int i;

	memset(e->port_rows, 0, sizeof(e->port_rows));
	for (i = 0; i < e->n_ports; i++) {
		struct wr_report_row *p = &e->port_rows[i];

		snprintf(p->name, sizeof(p->name), "%s", e->ports[i].device);
		snprintf(p->device, sizeof(p->device), "%s", e->ports[i].device);
		snprintf(p->driver, sizeof(p->driver), "%s", e->ports[i].driver);
		p->port_id = e->ports[i].port_id;
		p->port = (uint16_t)i;
		p->link_speed_mbps = e->ports[i].link_speed_mbps;
	}
	for (i = 0; i < f->n_streams; i++) {
		struct wr_report_row *s = &e->stream_rows[i];

		snprintf(s->name, sizeof(s->name), "%s", f->streams[i].name);
		s->port = f->streams[i].port;
		s->seed = f->streams[i].seed;
		s->size_min = f->streams[i].size.min;
		s->size_max = f->streams[i].size.max;
		s->target_kpps = e->target_millipps[i] == WR_RATE_UNPACED ? 0 :
			(double)e->target_millipps[i] / 1e6;
		row_hosts(s, &f->streams[i]);
		if (f->streams[i].replay != NULL) {
			const struct wr_replay_spec *r = f->streams[i].replay;

			s->has_replay = true;
			snprintf(s->replay_file, sizeof(s->replay_file), "%s",
				 r->pcap);
			wr_report_hex(r->cap.sha256, s->replay_sha256);
			s->replay_frames = r->cap.n;
			s->replay_loops = r->loops;
			s->replay_timed = r->timing == WR_REPLAY_TIMING_CAPTURE;
			s->replay_speedup = (double)r->speedup_ppm /
				WR_REPLAY_SPEEDUP_ONE;
		}
	}
	memset(&e->view, 0, sizeof(e->view));
	e->view.class_names = e->class_names;
	e->view.n_classes = e->n_classes;
	e->view.ports = e->port_rows;
	e->view.n_ports = e->n_ports;
	e->view.streams = e->stream_rows;
	e->view.n_streams = f->n_streams;
}

void
wr_engine_port_macs(struct wr_engine *e, struct wr_stream_file *f)
{
	uint32_t s;

	for (s = 0; s < f->n_streams; s++) {
		struct wr_stream *st = &f->streams[s];
		const struct wr_port_cfg *pc;
		uint64_t mac;

		if (st->mac_port == 0 || st->port >= e->n_ports)
			continue;
		pc = st->port < e->cfg->n_ports ? &e->cfg->ports[st->port] : NULL;
		if (st->mac_port & WR_MAC_PORT_SRC) {
			mac = pc != NULL && pc->has_src_mac ? pc->src_mac :
			      wr_mac_from_bytes(e->ports[st->port].mac.addr_bytes);
			wr_stream_set_mac(st, false, mac);
		}
		if ((st->mac_port & WR_MAC_PORT_DST) && pc != NULL && pc->has_dst_mac)
			wr_stream_set_mac(st, true, pc->dst_mac);
	}
}

/* A TCP lane's frames: the longest segment any class on port @p i sends
 * (its MSS) behind Ethernet, two tags, IPv6 and a TCP header with every
 * option; never less than a standard frame. */
static uint32_t
tcp_frame_max(const struct wr_engine *e, unsigned int i)
{
	const struct wr_tcp_specs *ts = &e->f->tcp;
	uint32_t k, max = 1518;

	for (k = 0; k < ts->n; k++) {
		const struct wr_tcp_class *c = &ts->classes[k];
		uint32_t len = (uint32_t)c->tcp.mss + 14 + 8 + 40 + 60;

		if (((c->client.present && c->client.port == i) ||
		     (c->server.present && c->server.port == i)) && len > max)
			max = len;
	}
	return max < 2048 ? 2048 : max;
}

/* The ports with TCP class ends, from the stream file (before rx_setup:
 * they are polled). */
static void
tcp_ports(struct wr_engine *e)
{
	unsigned int i;

	for (i = 0; i < e->n_ports; i++)
		e->tcp_port[i] =
			wr_tcp_specs_on_port(&e->f->tcp, (uint16_t)i,
					     WR_TCP_CLIENT) ||
			wr_tcp_specs_on_port(&e->f->tcp, (uint16_t)i,
					     WR_TCP_SERVER);
}

/* One port's lanes: RX queue q's lcore sends on TX queue q too, and runs
 * the lane (wr_tcp_lcore.h).  Several need RSS, and clients on several
 * lanes source ports chosen by the hash (not yet: one lane then). */
static int
tcp_port_lanes(struct wr_engine *e, unsigned int i, struct wr_error *err)
{
	const struct wr_port *p = &e->ports[i];
	bool clients = wr_tcp_specs_on_port(&e->f->tcp, (uint16_t)i,
					    WR_TCP_CLIENT);
	unsigned int q, n = e->n_rxq[i], n_mbufs, k;
	int rc;

	if (n == 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
			"port %s carries TCP classes but receives nothing "
			"(its profile entry says rx: false)", p->device);
	if (n > 1 && (p->rss_hf & RTE_ETH_RSS_TCP) == 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
			"port %s: %u RX queues for its TCP classes, but the "
			"device spreads no TCP flows over queues (RSS): give "
			"it one rx_lcore", p->device, n);
	if (n > 1 && clients)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
			"port %s: TCP clients run on one lane (one RX queue) "
			"a port: give it one rx_lcore", p->device);
	for (n_mbufs = 1; n_mbufs < 2u * p->txd + 1024; n_mbufs <<= 1)
		;
	for (q = 0; q < n; q++) {
		unsigned int lc = e->port_rx_lcores[i][q];
		struct wr_lcore_ctx *c = e->lctx[lc];
		struct wr_tcp_lane *l;

		for (k = 0; k < e->port_n_lcores[i] &&
			    e->port_lcores[i][k] != lc; k++)
			;
		if (k != q)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"port %s: its TCP lane %u polls RX queue %u on "
				"lcore %u, which must send on TX queue %u too: "
				"give the port tx_lcores and rx_lcores that "
				"are the same list", p->device, q, q, lc, q);
		if (c->n_txq > 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"lcore %u sends stateless streams and runs the "
				"TCP classes of port %s: give them lcores of "
				"their own (tx_lcores)", lc, p->device);
		rc = wr_tcp_lane_add(&c->tcp, &l, p->port_id, (uint16_t)q,
				     tcp_frame_max(e, i), n_mbufs - 1,
				     p->socket_id >= 0 ? p->socket_id :
				     (int)rte_lcore_to_socket_id(lc), err);
		if (rc != 0)
			return rc;
		l->port = i;
		l->rxq = e->rxq[i][q];
		l->gone = &e->port_gone[i];
		l->has_clients = clients;
		l->csum_offload = (p->tx_offloads &
				   (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				    RTE_ETH_TX_OFFLOAD_TCP_CKSUM)) ==
				  (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				   RTE_ETH_TX_OFFLOAD_TCP_CKSUM);
		e->tcp_lane[i][q] = l;
		e->n_tcp_lanes[i] = q + 1;
	}
	return 0;
}

static int
tcp_setup(struct wr_engine *e, struct wr_error *err)
{
	unsigned int i;
	int rc;

	for (i = 0; i < e->n_ports; i++) {
		if (!e->tcp_port[i])
			continue;
		rc = tcp_port_lanes(e, i, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int
wr_engine_load(struct wr_engine *e, const struct wr_stream_file *f,
	       const struct wr_prepared *p, bool rx, struct wr_error *err)
{
	int rc;

	e->f = f;
	e->prep = p;
	e->stop = e->stop_rx = e->aborted = 0;
	memset(e->ctl_pub_tsc, 0, sizeof(e->ctl_pub_tsc));
	e->stream_rows = calloc(f->n_streams ? f->n_streams : 1,
				sizeof(*e->stream_rows));
	if (e->stream_rows == NULL)
		rc = wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				  "out of memory");
	else
		rc = streams_setup(e, err);
	e->prep = NULL;
	if (rc == 0) {
		tcp_ports(e);
		rc = rx_setup(e, rx, err);
	}
	if (rc == 0)
		rc = tcp_setup(e, err);
	if (rc == 0)
		rc = rates_setup(e, err);
	if (rc != 0) {
		wr_engine_unload(e);
		return rc;
	}
	rows_init(e);
	return 0;
}

int
wr_engine_tmpl_create(const struct wr_stream_file *f, uint32_t s,
		      struct wr_frame_tmpl **t, struct wr_error *err)
{
	const struct wr_stream *st = &f->streams[s];
	int rc = wr_frame_tmpl_create(st, s, t, err);

	if (rc == 0)
		return 0;
	if (err->file[0] == '\0')
		snprintf(err->file, sizeof(err->file), "%s", f->path);
	if (err->line == 0) {
		err->line = st->mark.line;
		err->col = st->mark.col;
	}
	return rc;
}

/* Frames of a stream looked at for a group source MAC: a fixed or
 * listed address shows in the first ones; a random one in 1 of 2. */
#define WR_SRC_MAC_FRAMES 256

static int
check_src_mac(const struct wr_stream_file *f, uint32_t i,
		     const struct wr_frame_tmpl *t, struct wr_error *err)
{
	const struct wr_stream *s = &f->streams[i];
	uint8_t *buf = malloc(wr_frame_tmpl_max_len(t));
	struct wr_frame_gen g;
	uint64_t k, n = s->count != 0 && s->count < WR_SRC_MAC_FRAMES ?
		s->count : WR_SRC_MAC_FRAMES;
	int rc = 0;

	if (buf == NULL)
		return -ENOMEM;
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < n; k++) {
		wr_frame_gen_next(&g, buf);
		/* IEEE 802.3 clause 3.2.3: the I/G bit of a source address is
		 * always 0; a switch floods or drops such a frame. */
		if (buf[6] & 1) {
			rc = wr_error_set(err, -EINVAL, f->path, s->mark.line,
				s->mark.col, NULL, "streams[%u].eth.src: "
				"frame %llu's source MAC %02x:%02x:%02x:%02x:"
				"%02x:%02x is %s: a source address must be "
				"unicast", i, (unsigned long long)k, buf[6],
				buf[7], buf[8], buf[9], buf[10], buf[11],
				memcmp(buf + 6, "\xff\xff\xff\xff\xff\xff",
				       6) == 0 ? "broadcast" : "multicast");
			break;
		}
	}
	free(buf);
	return rc;
}

int
wr_engine_check_streams(const struct wr_stream_file *f, unsigned int n_ports,
			const char *ports_of, uint32_t *max_frame,
			struct wr_error *err)
{
	return wr_engine_prepare(f, n_ports, ports_of, max_frame, NULL, err);
}

void
wr_engine_prepared_free(struct wr_prepared *p)
{
	uint32_t s;

	for (s = 0; s < WR_STREAMS_MAX; s++) {
		wr_frame_tmpl_free(p->tmpl[s]);
		p->tmpl[s] = NULL;
	}
}

/*
 * A port with TCP class ends runs the TCP lcore loop (wr_tcp_lcore.h)
 * on its lcores, not the stateless one: a stateless stream there would
 * need both loops in one (the stateless loop is measured frame by frame,
 * and stays as it is).  Stateless streams go on other ports of the run.
 */
static int
tcp_check(const struct wr_stream_file *f, unsigned int n_ports,
	  const char *ports_of, struct wr_error *err)
{
	uint32_t i, k;

	for (k = 0; k < f->tcp.n; k++) {
		const struct wr_tcp_class *c = &f->tcp.classes[k];
		const struct wr_tcp_end *ends[2] = { &c->client, &c->server };
		unsigned int j;

		for (j = 0; j < 2; j++) {
			if (!ends[j]->present || n_ports == 0 ||
			    ends[j]->port < n_ports)
				continue;
			return wr_error_set(err, -EINVAL, f->path,
				ends[j]->where.line, ends[j]->where.col, NULL,
				"tcp[%u] (%s).%s: its hosts' port %u does not "
				"exist: %s has %u port%s (0..%u)", k, c->name,
				j == 0 ? "client" : "server", ends[j]->port,
				ports_of, n_ports, n_ports == 1 ? "" : "s",
				n_ports - 1);
		}
	}
	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];

		if (!wr_tcp_specs_on_port(&f->tcp, s->port, WR_TCP_CLIENT) &&
		    !wr_tcp_specs_on_port(&f->tcp, s->port, WR_TCP_SERVER))
			continue;
		return wr_error_set(err, -EINVAL, f->path, s->mark.line,
			s->mark.col, NULL, "streams[%u] (%s).port: port %u "
			"carries TCP classes (tcp:), which run on its lcores "
			"alone: put stateless streams on another port",
			i, s->name, s->port);
	}
	return 0;
}

int
wr_engine_prepare(const struct wr_stream_file *f, unsigned int n_ports,
		  const char *ports_of, uint32_t *max_frame,
		  struct wr_prepared *p, struct wr_error *err)
{
	uint32_t i;
	int rc;

	if (max_frame != NULL)
		*max_frame = 0;
	if (p != NULL)
		memset(p, 0, sizeof(*p));

	/* The hosts' ports, as the streams' (before EAL in `run`). */
	for (i = 0; n_ports > 0 && i < f->hosts.n; i++) {
		const struct wr_host_group *g = &f->hosts.groups[i];

		if (g->port >= n_ports)
			return wr_error_set(err, -EINVAL, f->path,
				g->where.line, g->where.col, NULL,
				"hosts[%u].port: port %u does not exist: %s "
				"has %u port%s (0..%u)", i, g->port, ports_of,
				n_ports, n_ports == 1 ? "" : "s", n_ports - 1);
	}
	rc = tcp_check(f, n_ports, ports_of, err);
	if (rc != 0)
		return rc;
	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];
		struct wr_frame_tmpl *t;

		if (n_ports > 0 && s->port >= n_ports) {
			rc = wr_error_set(err, -EINVAL, f->path,
				s->mark.line, s->mark.col, NULL,
				"streams[%u].port: port %u does not exist: %s "
				"has %u port%s (0..%u)", i, s->port, ports_of,
				n_ports, n_ports == 1 ? "" : "s", n_ports - 1);
			goto fail;
		}
		if (s->replay != NULL) {
			/* A capture's frames: no template; its largest size. */
			if (max_frame != NULL && s->size.max > *max_frame)
				*max_frame = s->size.max;
			continue;
		}
		rc = wr_engine_tmpl_create(f, i, &t, err);
		if (rc == 0) {
			/* The template's longest frame, and its FCS. */
			uint32_t len = (uint32_t)wr_frame_tmpl_max_len(t) +
				       WR_FCS_LEN;

			rc = check_src_mac(f, i, t, err);
			if (max_frame != NULL && len > *max_frame)
				*max_frame = len;
			if (rc == 0 && p != NULL)
				p->tmpl[i] = t;
			else
				wr_frame_tmpl_free(t);
		}
		if (rc != 0)
			goto fail;
	}
	return 0;
fail:
	if (p != NULL)
		wr_engine_prepared_free(p);
	return rc;
}

void
wr_eng_set_launched(struct wr_engine *e, bool on)
{
	rte_spinlock_lock(&e->guard);
	e->launched = on;
	rte_spinlock_unlock(&e->guard);
}

/*
 * Wait for the engine's own lcores, not every worker
 * (rte_eal_mp_wait_lcore()): the hosts' service may run on a lcore of
 * its own (wr_host_svc.h) across the engine's starts and stops.
 */
void
wr_eng_wait_lcores(struct wr_engine *e)
{
	unsigned int i;

	for (i = 0; i < e->n_lcores; i++)
		rte_eal_wait_lcore(e->lcores[i]);
}

void
wr_engine_unload(struct wr_engine *e)
{
	unsigned int i, j;
	uint32_t s;

	if (e->launched) {
		__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&e->stop_rx, 1, __ATOMIC_RELAXED);
		wr_eng_wait_lcores(e);
		wr_eng_set_launched(e, false);
	}
	/* Before the TX pools go: a TX capture holds some of their mbufs. */
	wr_engine_capture_stop_all(e);
	for (s = 0; s < WR_STREAMS_MAX; s++) {
		for (j = 0; j < e->n_ts[s]; j++) {
			wr_tx_stream_fini(e->ts[s][j]);
			rte_free(e->ts[s][j]);
		}
		e->n_ts[s] = 0;
		rte_free(e->view_hist[s]);
		e->view_hist[s] = NULL;
		/* A lent template goes back to its wr_prepared. */
		if (!e->tmpl_lent[s])
			wr_frame_tmpl_free(e->tmpl[s]);
		e->tmpl[s] = NULL;
		e->tmpl_lent[s] = false;
	}
	for (i = 0; i < e->n_ports; i++) {
		unsigned int q;

		for (q = 0; q < e->n_rxq[i]; q++) {
			wr_rxq_fini(e->rxq[i][q]);
			rte_free(e->rxq[i][q]);
			e->rxq[i][q] = NULL;
		}
		e->n_rxq[i] = 0;
	}
	for (i = 0; e->class_bpf != NULL && i < e->n_classes; i++)
		wr_bpf_free(&e->class_bpf[i]);
	wr_bpf_free(&e->class_all);
	rte_free(e->class_bpf);
	e->class_bpf = NULL;
	e->n_classes = 0;
	e->rx_end_tsc = 0;
	for (i = 0; i < e->n_lcores; i++) {
		/* The lanes' engines and pools: no lcore runs them now. */
		wr_tcp_lcore_free(e->lctx[e->lcores[i]]->tcp);
		rte_free(e->lctx[e->lcores[i]]);
		e->lctx[e->lcores[i]] = NULL;
	}
	memset(e->tcp_port, 0, sizeof(e->tcp_port));
	memset(e->tcp_lane, 0, sizeof(e->tcp_lane));
	memset(e->n_tcp_lanes, 0, sizeof(e->n_tcp_lanes));
	e->n_lcores = 0;
	rte_free(e->scratch);
	e->scratch = NULL;
	e->any_rx = false;
	free(e->stream_rows);
	e->stream_rows = NULL;
	e->f = NULL;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_engine_run: a loaded engine's run: launching the lcores, stopping and
 * draining, counters into report rows (echoes, trains, replay, RX queues,
 * lcore usage), the run-time stream controls and the report's metadata.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_version.h>

#include "wr_engine_priv.h"
#include "wr_rate.h"
#include "wr_clock_eal.h"


/* How long the main lcore sleeps between checks while it waits. */
#define WR_WAIT_SLICE_NS (20 * 1000 * 1000ull)
/* How long frames accepted by tx_burst get to leave before ports stop. */
#define WR_DRAIN_PORT_MS 100

int
wr_engine_start(struct wr_engine *e, struct wr_error *err)
{
	return wr_engine_start_at(e, 0, err);
}

int
wr_engine_start_at(struct wr_engine *e, uint64_t start_tsc,
		   struct wr_error *err)
{
	uint64_t soon = rte_rdtsc() +
			wr_tsc_from_ns(WR_ENGINE_START_MS * 1000000ull);
	unsigned int i;
	int rc;

	/* Several lcores start together: launching them one by one takes
	 * tens of microseconds each, which would shift one lane's schedule
	 * against another's. */
	if (e->n_lcores > 1 && start_tsc < soon)
		start_tsc = soon;
	for (i = 0; i < e->n_lcores; i++)
		e->lctx[e->lcores[i]]->start_at_tsc = start_tsc;
	/* This start's first burst, not a previous one's (the launch below
	 * orders these stores before the lcores run). */
	if (e->f != NULL)
		for (i = 0; i < e->f->n_streams; i++)
			for (unsigned int j = 0; j < e->n_ts[i]; j++)
				e->ts[i][j]->first_tx_tsc = 0;
	/* Launched first: a port leaving from now on waits for them. */
	wr_eng_set_launched(e, true);
	for (i = 0; i < e->n_lcores; i++) {
		struct wr_lcore_ctx *c = e->lctx[e->lcores[i]];

		/* A lcore of TCP lanes runs their loop (wr_tcp_lcore.h),
		 * chosen here once: the stateless loop stays as it is. */
		if (c->tcp != NULL)
			c->tx_finished = 0;
		rc = rte_eal_remote_launch(c->tcp != NULL ?
					   wr_tcp_lcore_main :
					   wr_tx_lcore_main, c, e->lcores[i]);
		if (rc != 0) {
			__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&e->stop_rx, 1, __ATOMIC_RELAXED);
			wr_eng_wait_lcores(e);
			wr_eng_set_launched(e, false);
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "cannot launch lcore %u: %s",
					    e->lcores[i], rte_strerror(-rc));
		}
	}
	return 0;
}

/* Whether lcore @p c's TCP lanes have clients: a lcore of servers alone
 * never finishes by itself (they answer until the stop). */
static bool
tcp_clients(const struct wr_lcore_ctx *c)
{
	unsigned int j;

	for (j = 0; j < c->tcp->n_lanes; j++)
		if (c->tcp->lanes[j]->has_clients)
			return true;
	return false;
}

bool
wr_engine_tx_finished(const struct wr_engine *e)
{
	bool stopping = __atomic_load_n(&e->stop, __ATOMIC_RELAXED) != 0;
	unsigned int i, n = 0;

	for (i = 0; i < e->n_lcores; i++) {
		const struct wr_lcore_ctx *c = e->lctx[e->lcores[i]];

		/* Servers alone count only once a stop was asked (then
		 * they say they stopped opening, as every lcore does). */
		if (c->tcp != NULL && !stopping && !tcp_clients(c))
			continue;
		n++;
		if (!__atomic_load_n(&c->tx_finished, __ATOMIC_ACQUIRE))
			return false;
	}
	/* A run of TCP servers alone ends by time or signal only. */
	return n > 0 || e->n_lcores == 0;
}

void
wr_engine_request_stop(struct wr_engine *e, bool abort)
{
	if (abort)
		__atomic_store_n(&e->aborted, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
}

void
wr_engine_nic_row(struct wr_report_row *p, const struct rte_eth_stats *st)
{
	p->has_nic = true;
	p->nic_opackets = st->opackets;
	p->nic_obytes = st->obytes;
	p->nic_oerrors = st->oerrors;
	p->nic_ipackets = st->ipackets;
	p->nic_ibytes = st->ibytes;
	p->nic_imissed = st->imissed;
	p->nic_ierrors = st->ierrors;
	p->nic_rx_nombuf = st->rx_nombuf;
}

void
wr_engine_stop(struct wr_engine *e, uint64_t drain_ns)
{
	unsigned int i;
	uint64_t end, now;

	if (!e->launched)
		return;
	__atomic_store_n(&e->stop, 1, __ATOMIC_RELAXED);
	while (!wr_engine_tx_finished(e))
		wr_engine_sleep_ns(1000 * 1000);
	if (e->any_rx) {
		/* Echoes still in flight: wait the drain time out. */
		end = rte_rdtsc() + wr_tsc_from_ns(drain_ns);
		while (!__atomic_load_n(&e->aborted, __ATOMIC_RELAXED) &&
		       (now = rte_rdtsc()) < end)
			wr_engine_sleep_ns(RTE_MIN(
				wr_tsc_to_ns(end - now),
				WR_WAIT_SLICE_NS));
	}
	e->rx_end_tsc = rte_rdtsc();
	__atomic_store_n(&e->stop_rx, 1, __ATOMIC_RELAXED);
	wr_eng_wait_lcores(e);
	wr_eng_set_launched(e, false);

	for (i = 0; i < e->n_ports; i++) {
		struct rte_eth_stats st;
		struct wr_report_row *p = &e->port_rows[i];

		/* A port that went away: its counters from before. */
		if (__atomic_load_n(&e->port_gone[i], __ATOMIC_ACQUIRE) != 0) {
			rte_spinlock_lock(&e->guard);
			st = e->loss[i].nic;
			p->has_nic = e->loss[i].has_nic;
			rte_spinlock_unlock(&e->guard);
		} else {
			wr_port_drain(&e->ports[i], WR_DRAIN_PORT_MS);
			p->has_nic = wr_port_stats(&e->ports[i], &st) == 0;
		}
		if (p->has_nic)
			wr_engine_nic_row(p, &st);
	}
}

void
wr_engine_stream_seq(const struct wr_engine *e, uint32_t s, unsigned int port,
		     struct wr_seq_result *out, struct wr_latency *hist,
		     struct wr_latency_jitter *jit)
{
	unsigned int i, q, lane;
	bool jit_port = false;

	memset(out, 0, sizeof(*out));
	if (hist != NULL)
		wr_latency_init(hist);
	if (jit != NULL)
		wr_latency_jitter_init(jit);
	for (i = 0; i < e->n_ports; i++) {
		bool here = false;

		if (port != WR_ENGINE_ALL_PORTS && i != port)
			continue;
		for (q = 0; q < e->n_rxq[i]; q++) {
			const struct wr_rx_stream *rs = e->rxq[i][q]->streams[s];

			if (rs == NULL)
				continue;
			for (lane = 0; lane < rs->n_lanes; lane++) {
				struct wr_seq_result res;

				wr_seq_finish(&rs->seq[lane], 0, &res);
				out->rx_pkts += res.rx_pkts;
				out->reordered += res.reordered;
				out->duplicated += res.duplicated;
				out->distinct += res.distinct;
				out->too_old += res.too_old;
			}
			if (hist != NULL)
				wr_latency_merge(hist, &rs->hist);
			if (jit != NULL && !jit_port) {
				wr_latency_jitter_merge(jit, &rs->jitter);
				here |= jit->n > 0;
			}
		}
		jit_port |= here;
	}
}

/* A stream's echoes (wr_engine_stream_seq()): loss against what the
 * stream sent. */
static void
collect_rx(struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	struct wr_latency_jitter jit;
	struct wr_seq_result res;
	unsigned int lane;
	uint64_t sent = 0;
	struct wr_latency *h = e->view_hist[s] != NULL ? e->view_hist[s] :
			       e->scratch;

	for (lane = 0; lane < e->n_ts[s]; lane++)
		sent += __atomic_load_n(&e->ts[s][lane]->c.tx_pkts,
					__ATOMIC_RELAXED);
	wr_engine_stream_seq(e, s, WR_ENGINE_ALL_PORTS, &res, h, &jit);
	row->has_rx = true;
	row->rx_pkts = res.rx_pkts;
	row->reordered = res.reordered;
	row->duplicated = res.duplicated;
	row->lost = sent > res.distinct ? sent - res.distinct : 0;
	wr_latency_summarize(h, jit.n > 0 ? &jit : NULL, &row->lat);
}

void
wr_engine_port_rx(const struct wr_engine *e, unsigned int i,
		  uint64_t *rx_pkts, uint64_t *rx_foreign, uint64_t *rx_bad_sig)
{
	unsigned int q;

	*rx_pkts = *rx_foreign = *rx_bad_sig = 0;
	for (q = 0; q < e->n_rxq[i]; q++) {
		const struct wr_rxq *rq = e->rxq[i][q];

		*rx_pkts += __atomic_load_n(&rq->rx_pkts, __ATOMIC_RELAXED);
		*rx_foreign += __atomic_load_n(&rq->rx_foreign,
					       __ATOMIC_RELAXED);
		*rx_bad_sig += __atomic_load_n(&rq->rx_bad_sig,
					       __ATOMIC_RELAXED);
	}
}

/* Train-to-train intervals of a stream, over its lanes. */
static void
collect_trains(struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	unsigned int j;

	wr_latency_init(e->scratch);
	for (j = 0; j < e->n_ts[s]; j++)
		if (e->ts[s][j]->gaps != NULL)
			wr_latency_merge(e->scratch, e->ts[s][j]->gaps);
	row->train_frames = e->f->streams[s].train_frames;
	row->train_nominal_ns = e->n_ts[s] > 0 ?
		e->ts[s][0]->train_nominal_ns : 0;
	wr_latency_summarize(e->scratch, NULL, &row->train_gaps);
}

/* One histogram of stream @p s's replay lanes (the member at @p off),
 * merged over its lanes and summarized. */
static void
merge_lanes(struct wr_engine *e, uint32_t s, size_t off,
	    struct wr_latency_summary *out)
{
	unsigned int j;

	wr_latency_init(e->scratch);
	for (j = 0; j < e->n_ts[s]; j++) {
		const struct wr_latency *h = *(struct wr_latency *const *)
			((const char *)e->ts[s][j]->rl + off);

		if (h != NULL)
			wr_latency_merge(e->scratch, h);
	}
	wr_latency_summarize(e->scratch, NULL, out);
}

/* A timed replay's gap errors and lateness, over its lanes (after the
 * lcores stopped: the histograms have one writer). */
static void
collect_replay(struct wr_engine *e, uint32_t s, struct wr_report_row *row)
{
	unsigned int j;

	row->replay_stalls = row->replay_stall_ns = 0;
	row->replay_late_away = row->replay_away_n = 0;
	row->replay_away_ns = row->replay_away_max_ns = 0;
	row->replay_polled_ns = 0;
	for (j = 0; j < e->n_ts[s]; j++) {
		const struct wr_tx_stream *ts = e->ts[s][j];
		const struct wr_replay_lane *rl = ts->rl;
		uint64_t mx = wr_tsc_to_ns(rl->away_max);

		row->replay_stalls += rl->sched.stalls;
		row->replay_stall_ns += wr_tsc_to_ns(rl->sched.stall_ticks);
		row->replay_late_away += rl->late_away;
		row->replay_away_n += rl->away_n;
		row->replay_away_ns += wr_tsc_to_ns(rl->away_ticks);
		if (mx > row->replay_away_max_ns)
			row->replay_away_max_ns = mx;
		row->replay_polled_ns += wr_tsc_to_ns(__atomic_load_n(&ts->active_tsc, __ATOMIC_RELAXED));
	}
	merge_lanes(e, s, offsetof(struct wr_replay_lane, gap_err),
		    &row->replay_gap_err);
	merge_lanes(e, s, offsetof(struct wr_replay_lane, late),
		    &row->replay_late);
	merge_lanes(e, s, offsetof(struct wr_replay_lane, late_polled),
		    &row->replay_late_polled);
}

/* Port @p i's RX queues summed into its row: frames, classes, each
 * queue's load up to @p now. */
static void
collect_port_rx(struct wr_engine *e, unsigned int i, uint64_t now)
{
	struct wr_report_row *p = &e->port_rows[i];
	unsigned int q, c;

	p->has_rx = e->n_rxq[i] > 0;
	p->n_rxq = e->n_rxq[i];
	p->rx_pkts = p->rx_foreign = p->rx_bad_sig = p->rx_hw_stamped = 0;
	p->rx_bytes = 0;
	for (c = 0; c < e->n_classes; c++)
		p->cls[c].pkts = p->cls[c].bytes = 0;
	for (q = 0; q < e->n_rxq[i]; q++) {
		const struct wr_rxq *rq = e->rxq[i][q];
		const struct wr_lcore_ctx *lc = e->lctx[rq->lcore_id];
		struct wr_report_rxq *r = &p->rxq[q];
		uint64_t st = lc != NULL ?
			__atomic_load_n(&lc->start_tsc, __ATOMIC_RELAXED) : 0;

		r->queue = rq->queue_id;
		r->lcore = rq->lcore_id;
		r->rx_pkts = __atomic_load_n(&rq->rx_pkts, __ATOMIC_RELAXED);
		r->polls = __atomic_load_n(&rq->polls, __ATOMIC_RELAXED);
		r->busy_polls = __atomic_load_n(&rq->busy_polls,
						__ATOMIC_RELAXED);
		r->busy_ns = wr_tsc_to_ns(__atomic_load_n(
				&rq->busy_tsc, __ATOMIC_RELAXED));
		r->active_ns = st != 0 && now > st ?
			wr_tsc_to_ns(now - st) : 0;
		p->rx_pkts += r->rx_pkts;
		p->rx_bytes += __atomic_load_n(&rq->rx_ours_bytes,
					       __ATOMIC_RELAXED);
		p->rx_foreign += __atomic_load_n(&rq->rx_foreign,
						 __ATOMIC_RELAXED);
		p->rx_bad_sig += __atomic_load_n(&rq->rx_bad_sig,
						 __ATOMIC_RELAXED);
		p->rx_hw_stamped += __atomic_load_n(&rq->rx_hwts,
						    __ATOMIC_RELAXED);
		p->rx_hwts = rq->hwts;
		for (c = 0; c < e->n_classes; c++) {
			p->cls[c].pkts += __atomic_load_n(
				&rq->class_count[c].pkts, __ATOMIC_RELAXED);
			p->cls[c].bytes += __atomic_load_n(
				&rq->class_count[c].bytes, __ATOMIC_RELAXED);
		}
	}
}

/* A TCP port's lanes: what they sent is the port's (the TCP counters
 * themselves: wr_session_tcp.h); they send until their lcore stops. */
static void
collect_tcp(struct wr_engine *e, unsigned int i, uint64_t now,
	    uint64_t *end)
{
	struct wr_counters *t = &e->port_rows[i].total;
	unsigned int q;

	for (q = 0; q < e->n_tcp_lanes[i]; q++) {
		const struct wr_tcp_lane *l = e->tcp_lane[i][q];
		const struct wr_lcore_ctx *c = e->lctx[e->port_rx_lcores[i][q]];
		uint64_t t_end = c != NULL ?
			__atomic_load_n(&c->end_tsc, __ATOMIC_RELAXED) : 0;

		t->tx_pkts += __atomic_load_n(&l->c.tx_frames,
					      __ATOMIC_RELAXED);
		t->tx_bytes += __atomic_load_n(&l->c.tx_bytes,
					       __ATOMIC_RELAXED);
		t->alloc_fail += __atomic_load_n(&l->c.tx_nobuf,
						 __ATOMIC_RELAXED);
		if (t_end == 0 || t_end < (c != NULL ? c->start_tsc : 0))
			t_end = now;
		if (t_end > *end)
			*end = t_end;
	}
}

/* Each port's TX lcores' time over their sending, as the kernel counted
 * it (an lcore sending on several ports counts for each). */
static void
collect_usage(struct wr_engine *e)
{
	unsigned int i, q, k;

	for (i = 0; i < e->n_ports; i++)
		memset(&e->port_rows[i].tx_usage, 0,
		       sizeof(e->port_rows[i].tx_usage));
	for (k = 0; k < e->n_lcores; k++) {
		const struct wr_lcore_ctx *c = e->lctx[e->lcores[k]];
		struct wr_thread_usage u;

		if (c->start_tsc == 0 || c->end_tsc < c->start_tsc)
			continue;
		u = c->usage;
		u.wall_ns = wr_tsc_to_ns(c->end_tsc - c->start_tsc);
		for (q = 0; q < c->n_txq; q++)
			for (i = 0; i < e->n_ports; i++)
				if (e->ports[i].port_id == c->txq[q].port_id)
					wr_thread_usage_add(
						&e->port_rows[i].tx_usage, &u);
	}
}

struct wr_report_view *
wr_engine_collect(struct wr_engine *e, bool final)
{
	const struct wr_stream_file *f = e->f;
	struct wr_report_view *v = &e->view;
	uint64_t start = UINT64_MAX, port_end[WR_PORTS_MAX] = { 0 };
	uint64_t now_tsc;
	unsigned int i, j;
	uint32_t s;

	/* Each report refines the TSC's frequency; the lcores follow. */
	wr_tsc_refine();
	now_tsc = rte_rdtsc();
	wr_eng_clocks_refit(e);

	for (i = 0; i < e->n_lcores; i++) {
		uint64_t st = __atomic_load_n(&e->lctx[e->lcores[i]]->start_tsc,
					      __ATOMIC_RELAXED);

		if (st != 0 && st < start)
			start = st;
	}
	if (start == UINT64_MAX)
		start = now_tsc;
	for (i = 0; i < e->n_ports; i++)
		memset(&e->port_rows[i].total, 0, sizeof(struct wr_counters));
	for (s = 0; s < f->n_streams; s++) {
		struct wr_report_row *row = &e->stream_rows[s];
		uint64_t end = 0;

		bool seq = wr_stream_file_port_sequenced(f, row->port);
		uint64_t active = 0;

		memset(&row->total, 0, sizeof(row->total));
		row->pacer_skipped = 0;
		for (j = 0; j < e->n_ts[s]; j++) {
			struct wr_counters c;
			uint64_t t = __atomic_load_n(&e->ts[s][j]->end_tsc,
						     __ATOMIC_RELAXED);

			wr_counters_read(&c, &e->ts[s][j]->c);
			wr_counters_add(&row->total, &c);
			/* The pacer's own counters are read once its lcore
			 * stopped. */
			if (final)
				row->pacer_skipped +=
					wr_tx_stream_skipped(e->ts[s][j]);
			active += __atomic_load_n(&e->ts[s][j]->active_tsc,
						  __ATOMIC_RELAXED);
			if (!final && t == 0)
				t = now_tsc;
			if (t > end)
				end = t;
		}
		if (end < start)
			end = start;
		/* A stream of a sequence sends only while it is active: its
		 * rates are over that time (known once it stopped). */
		row->duration_ns = wr_tsc_to_ns(seq && final ?
						       active : end - start);
		if (f->streams[s].train_frames != 0)
			collect_trains(e, s, row);
		if (final && row->replay_timed)
			collect_replay(e, s, row);
		wr_counters_add(&e->port_rows[row->port].total, &row->total);
		if (f->streams[s].latency)
			collect_rx(e, s, row);
		if (end > port_end[row->port])
			port_end[row->port] = end;
	}
	for (i = 0; i < e->n_ports; i++)
		collect_tcp(e, i, now_tsc, &port_end[i]);
	for (i = 0; i < e->n_ports; i++)
		collect_port_rx(e, i, final ? (e->rx_end_tsc ? e->rx_end_tsc :
					       now_tsc) : now_tsc);
	for (i = 0; i < e->n_ports; i++) {
		struct wr_report_row *p = &e->port_rows[i];

		if (__atomic_load_n(&e->port_gone[i], __ATOMIC_ACQUIRE) == 0) {
			/* The last counters while the link was up; the
			 * generator's RX misses per interval from them. */
			if (!final) {
				e->nic_last_ok[i] = wr_port_stats(&e->ports[i],
						&e->nic_last[i]) == 0;
				if (e->nic_last_ok[i])
					wr_engine_nic_row(p, &e->nic_last[i]);
			}
			continue;
		}
		rte_spinlock_lock(&e->guard);
		p->link_lost = true;
		p->link_lost_ns = e->loss[i].tsc > start ?
			wr_tsc_to_ns(e->loss[i].tsc - start) : 0;
		p->link_lost_tx_pkts = e->loss[i].tx_pkts;
		rte_spinlock_unlock(&e->guard);
	}
	if (final)
		collect_usage(e);
	v->elapsed_ns = 0;
	for (i = 0; i < e->n_ports; i++) {
		e->port_rows[i].duration_ns = port_end[i] > start ?
			wr_tsc_to_ns(port_end[i] - start) : 0;
		if (e->port_rows[i].duration_ns > v->elapsed_ns)
			v->elapsed_ns = e->port_rows[i].duration_ns;
	}
	if (!final)
		v->elapsed_ns = wr_tsc_to_ns(now_tsc - start);
	return v;
}

int
wr_engine_stream_rate(const struct wr_engine *e, uint32_t s,
		      const struct wr_rate_spec *spec, uint64_t *millipps)
{
	const struct wr_stream *st;
	struct wr_size_avg avg;
	int rc;

	if (e->f == NULL || s >= e->f->n_streams)
		return -ENOENT;
	st = &e->f->streams[s];
	rc = wr_size_avg_of(&st->size, &avg);
	if (rc == 0)
		rc = wr_rate_millipps(spec, &avg,
				      e->ports[st->port].link_speed_mbps,
				      millipps);
	return rc;
}

int
wr_engine_stream_ctl(struct wr_engine *e, uint32_t s,
		     enum wr_tx_ctl_state state, uint64_t millipps)
{
	unsigned int j;
	int rc;

	if (e->f == NULL || s >= e->f->n_streams)
		return -ENOENT;
	if (millipps == 0)
		millipps = e->target_millipps[s];
	if (millipps != e->target_millipps[s]) {
		if (wr_stream_file_port_sequenced(e->f, e->f->streams[s].port))
			return -ENOTSUP;
		for (j = 0; j < e->n_ts[s]; j++) {
			rc = wr_tx_stream_ctl_check(e->ts[s][j],
				millipps == WR_RATE_UNPACED ? millipps :
				wr_rate_split(millipps, e->n_ts[s], j));
			if (rc != 0)
				return rc;
		}
	}
	e->ctl_pub_tsc[s] = rte_rdtsc();
	for (j = 0; j < e->n_ts[s]; j++) {
		uint64_t share = millipps == WR_RATE_UNPACED ? millipps :
			wr_rate_split(millipps, e->n_ts[s], j);

		/* A lane's share below 1 millipps: the slowest pace. */
		wr_tx_stream_ctl(e->ts[s][j], state, share ? share : 1);
	}
	e->target_millipps[s] = millipps;
	e->stream_rows[s].target_kpps = millipps == WR_RATE_UNPACED ? 0 :
		(double)millipps / 1e6;
	return 0;
}

int64_t
wr_engine_stream_ctl_delay_ns(const struct wr_engine *e, uint32_t s)
{
	uint64_t worst = 0;
	unsigned int j;

	if (e->f == NULL || s >= e->f->n_streams || e->ctl_pub_tsc[s] == 0)
		return -1;
	for (j = 0; j < e->n_ts[s]; j++) {
		uint64_t t = __atomic_load_n(&e->ts[s][j]->ctl_applied_tsc,
					     __ATOMIC_RELAXED);

		if (t < e->ctl_pub_tsc[s])
			return -1;
		if (t - e->ctl_pub_tsc[s] > worst)
			worst = t - e->ctl_pub_tsc[s];
	}
	return (int64_t)wr_tsc_to_ns(worst);
}

uint64_t
wr_engine_stream_millipps(const struct wr_engine *e, uint32_t s)
{
	return e->f != NULL && s < e->f->n_streams ?
		e->target_millipps[s] : 0;
}

bool
wr_engine_stream_done(const struct wr_engine *e, uint32_t s)
{
	unsigned int j;

	if (e->f == NULL || s >= e->f->n_streams)
		return true;
	for (j = 0; j < e->n_ts[s]; j++)
		if (!__atomic_load_n(&e->ts[s][j]->done, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&e->ts[s][j]->end_tsc,
				    __ATOMIC_RELAXED) == 0)
			return false;
	return true;
}

uint64_t
wr_engine_first_burst_tsc(const struct wr_engine *e)
{
	uint64_t first = 0, t;
	unsigned int s, j;

	if (e->f == NULL)
		return 0;
	for (s = 0; s < e->f->n_streams; s++)
		for (j = 0; j < e->n_ts[s]; j++) {
			t = __atomic_load_n(&e->ts[s][j]->first_tx_tsc,
					    __ATOMIC_RELAXED);
			if (t != 0 && (first == 0 || t < first))
				first = t;
		}
	return first;
}

uint64_t
wr_engine_first_tx_tsc(const struct wr_engine *e)
{
	uint64_t first = 0;
	unsigned int i;

	for (i = 0; i < e->n_lcores; i++) {
		uint64_t t = __atomic_load_n(&e->lctx[e->lcores[i]]->start_tsc,
					     __ATOMIC_RELAXED);

		if (t != 0 && (first == 0 || t < first))
			first = t;
	}
	return first;
}

bool
wr_engine_stream_hist(const struct wr_engine *e, uint32_t s,
		      struct wr_latency *out)
{
	unsigned int i, q;
	bool any = false;

	if (e->f == NULL || s >= e->f->n_streams || e->view_hist[s] == NULL) {
		wr_latency_init(out);
		return false;
	}
	for (i = 0; i < e->n_ports; i++)
		for (q = 0; q < e->n_rxq[i]; q++)
			any |= e->rxq[i][q]->streams[s] != NULL;
	if (any)
		*out = *e->view_hist[s];
	else
		wr_latency_init(out);
	return any;
}

void
wr_engine_meta(const struct wr_engine *e, const struct wr_stream_file *f,
	       const char *cfg_path, const char *started_at,
	       const char *reason, struct wr_report_meta *m)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	m->wirerate_version = WR_VERSION;
	m->dpdk_version = rte_version();
	m->stream_file = f->path;
	wr_report_hex(f->sha256, m->stream_sha256);
	m->config_file = cfg_path ? cfg_path : "";
	m->seed = f->seed;
	m->main_lcore = rte_get_main_lcore();
	for (i = 0; i < e->n_lcores && i < RTE_DIM(m->tx_lcores); i++)
		m->tx_lcores[m->n_tx_lcores++] = e->lcores[i];
	snprintf(m->started_at, sizeof(m->started_at), "%s", started_at);
	m->stop_reason = reason;
	m->eal_args = e->eal.argv + 1;
	m->n_eal_args = (unsigned int)(e->eal.argc - 1);
	wr_tsc_get(&m->tsc);
	m->has_tsc = true;
}

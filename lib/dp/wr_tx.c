/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tx: TX lcore loop over prefilled per-stream mempools. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pause.h>

#include "wr_sig.h"
#include "wr_stream.h"
#include "wr_clock_eal.h"
#include "wr_tx.h"

/* The compact signature carries stream and lane in a byte each (wr_sig.h):
 * what a file and a port allow must fit. */
_Static_assert(WR_STREAMS_MAX <= 256 && WR_PORT_LCORES_MAX <= 256,
	       "stream or lane beyond the compact signature's byte");

/*
 * Per-lcore mempool cache: a TX burst comes out of it and the PMD's free
 * puts the same mbufs back, so with a cache of a few bursts the loop cycles
 * through the same few dozen mbufs, hot in L1/L2.
 */
#define WR_TX_POOL_CACHE 256
/* Until wr_tx_stream_set_rate(): the profile's default burst. */
#define WR_TX_BURST_DEFAULT 64
/* A linear ramp is followed in steps this long: at 1 Mpps that is a rate
 * change every 1000 frames, finer than any device's reaction and rare
 * enough to cost nothing. */
#define WR_RAMP_TICK_NS (1000 * 1000ull)
#define WR_NS_PER_S 1000000000ull
/* A paced stream makes up for stalls of the TX lcore up to this long
 * (see wr_tx_stream_set_rate), and never for more frames than this. */
#define WR_PACE_CATCHUP_NS (1000 * 1000ull)
#define WR_PACE_CATCHUP_MAX 65536u

struct fill_arg {
	const uint8_t *bytes;
	uint16_t len;
	uint32_t data_off;  /* where the frame starts, from the mbuf */
	bool same_off;      /* every mbuf has it at data_off */
};

/* rte_mempool_obj_iter callback: put the template into one mbuf. */
static void
fill_mbuf(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
	  unsigned int idx)
{
	const struct fill_arg *a = opaque;
	struct rte_mbuf *m = obj;

	struct fill_arg *w = opaque;
	uint32_t off = (uint32_t)(rte_pktmbuf_mtod(m, uint8_t *) - (uint8_t *)m);

	rte_memcpy(rte_pktmbuf_mtod(m, uint8_t *), a->bytes, a->len);
	m->data_len = a->len;
	m->pkt_len = a->len;
	/* rte_pktmbuf_init puts every mbuf's data at the same offset; the
	 * generator relies on it, so it is checked, not assumed. */
	if (idx == 0)
		w->data_off = off;
	else if (off != w->data_off)
		w->same_off = false;
}

/*
 * The template's pool as a TX source (wr_tx_src.h): three tables, so that
 * what a stream writes per burst is decided once, at setup.
 */

/* Every mbuf is in the NIC's ring: try again later. */
static inline int
tmpl_get(struct wr_tx_stream *ts, struct rte_mbuf **pkts, uint16_t want)
{
	return unlikely(rte_mempool_get_bulk(ts->mp, (void **)pkts, want) != 0) ?
	       -1 : want;
}

/* Nothing varies: the mbufs hold the frame. */
static int
tmpl_take_static(void *priv, struct rte_mbuf **pkts, uint16_t want,
		 uint64_t now __rte_unused)
{
	return tmpl_get(priv, pkts, want);
}

/* One size: the generator writes the varying bytes of the whole burst (one
 * call, each frame at the pool's fixed data offset in its mbuf); the
 * lengths the mbufs were filled with stay right. */
static int
tmpl_take_gen(void *priv, struct rte_mbuf **pkts, uint16_t want,
	      uint64_t now __rte_unused)
{
	struct wr_tx_stream *ts = priv;

	if (tmpl_get(ts, pkts, want) < 0)
		return -1;
	wr_frame_gen_burst_at(&ts->gen, (void **)pkts, ts->data_off, NULL,
			      want);
	return want;
}

/* Several sizes: the same, and each mbuf's length set. */
static int
tmpl_take_sized(void *priv, struct rte_mbuf **pkts, uint16_t want,
		uint64_t now __rte_unused)
{
	struct wr_tx_stream *ts = priv;
	uint16_t lens[WR_BURST_MAX];
	uint16_t i;

	if (tmpl_get(ts, pkts, want) < 0)
		return -1;
	wr_frame_gen_burst_at(&ts->gen, (void **)pkts, ts->data_off, lens,
			      want);
	for (i = 0; i < want; i++) {
		pkts[i]->data_len = lens[i];
		pkts[i]->pkt_len = lens[i];
	}
	return want;
}

/* One size: no need to read every mbuf's length back. */
static uint64_t
tmpl_sent_fixed(void *priv, struct rte_mbuf **pkts __rte_unused, uint16_t n)
{
	const struct wr_tx_stream *ts = priv;

	return (uint64_t)ts->frame_bytes * n;
}

static uint64_t
tmpl_sent_sized(void *priv __rte_unused, struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t bytes = 0;
	uint16_t i;

	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len + WR_FCS_LEN;
	return bytes;
}

/* A new activation sends the same frames again (a loop, a sequence). */
static void
tmpl_start(void *priv, uint64_t now __rte_unused)
{
	struct wr_tx_stream *ts = priv;

	wr_frame_gen_init(&ts->gen, ts->t, ts->lane, ts->n_lanes);
}

static void
tmpl_fini(void *priv, struct rte_mbuf **pending, uint16_t n)
{
	struct wr_tx_stream *ts = priv;

	if (ts->mp == NULL)
		return;
	if (n > 0)
		rte_mempool_put_bulk(ts->mp, (void **)pending, n);
	rte_mempool_free(ts->mp);
	ts->mp = NULL;
}

static const struct wr_tx_src_ops tmpl_static_ops = {
	.name = "template, static",
	.take = tmpl_take_static,
	.sent = tmpl_sent_fixed,
	.start = tmpl_start,
	.fini = tmpl_fini,
};

static const struct wr_tx_src_ops tmpl_gen_ops = {
	.name = "template, one size",
	.take = tmpl_take_gen,
	.sent = tmpl_sent_fixed,
	.start = tmpl_start,
	.fini = tmpl_fini,
};

static const struct wr_tx_src_ops tmpl_sized_ops = {
	.name = "template, sizes",
	.take = tmpl_take_sized,
	.sent = tmpl_sent_sized,
	.start = tmpl_start,
	.fini = tmpl_fini,
};

int
wr_tx_stream_init(struct wr_tx_stream *ts, const struct wr_frame_tmpl *t,
		  uint32_t stream_id, uint64_t count, uint32_t j, uint32_t k,
		  unsigned int n_mbufs, int socket_id, struct wr_error *err)
{
	static unsigned int pool_seq; /* main lcore only: unique pool names */
	char name[RTE_MEMPOOL_NAMESIZE];
	struct fill_arg fa;
	uint16_t max_len = wr_frame_tmpl_max_len(t);

	memset(ts, 0, sizeof(*ts));
	ts->t = t;
	ts->stream_id = stream_id;
	ts->sig_id = WR_SIG_ID(stream_id, j);
	ts->latency = wr_frame_tmpl_sig_off(t) != 0;
	ts->src.ops = wr_frame_tmpl_is_static(t) ? &tmpl_static_ops :
		      wr_frame_tmpl_size_varies(t) ? &tmpl_sized_ops :
		      &tmpl_gen_ops;
	ts->src.priv = ts;
	ts->frame_bytes = (uint32_t)max_len + WR_FCS_LEN;
	ts->count = wr_sched_split_count(count, k, j);
	ts->lane = j;
	ts->n_lanes = k;
	ts->burst = WR_TX_BURST_DEFAULT;
	ts->tsc_hz = wr_tsc_hz();
	wr_latency_tsc_init(&ts->ns, ts->tsc_hz);
	wr_frame_gen_init(&ts->gen, t, j, k);

	snprintf(name, sizeof(name), "wr_tx%u_s%u", pool_seq++, stream_id);
	ts->mp = rte_pktmbuf_pool_create(name, n_mbufs, WR_TX_POOL_CACHE, 0,
					 RTE_PKTMBUF_HEADROOM + max_len,
					 socket_id);
	if (ts->mp == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "no memory for %u mbufs of %u bytes: %s "
				    "(are hugepages reserved?)",
				    n_mbufs, max_len, rte_strerror(rte_errno));
	fa.bytes = wr_frame_tmpl_bytes(t);
	fa.len = max_len;
	fa.data_off = 0;
	fa.same_off = true;
	rte_mempool_obj_iter(ts->mp, fill_mbuf, &fa);
	if (!fa.same_off) {
		rte_mempool_free(ts->mp);
		ts->mp = NULL;
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "mbufs of one pool have their data at "
				    "different offsets");
	}
	ts->data_off = fa.data_off;
	return 0;
}

/*
 * A stall (the lcore preempted: on a VM the host takes the vCPU away for a
 * few hundred microseconds now and then; the ring full) is made up for when
 * it is short: the frames due in WR_PACE_CATCHUP_NS go out in bursts back to
 * back, so the average rate stays exact (measured here: a one-burst cap lost
 * 0.18 % of a 1 Mpps stream to such stalls).  What a longer stall owes
 * beyond that is skipped and reported, not sent as one huge burst.  A
 * train's frames are all due when it starts, and a smaller cap would drop
 * its tail.
 */
static uint32_t
pace_cap(uint64_t millipps, uint32_t burst, uint32_t train_frames)
{
	uint64_t catchup = (uint64_t)((unsigned __int128)millipps *
			WR_PACE_CATCHUP_NS / (WR_NS_PER_S * WR_RATE_MILLI));
	uint32_t cap = burst;

	if (millipps == WR_RATE_UNPACED || catchup > WR_PACE_CATCHUP_MAX)
		catchup = WR_PACE_CATCHUP_MAX;
	if (catchup > cap)
		cap = (uint32_t)catchup;
	if (train_frames > cap)
		cap = train_frames;
	return cap;
}

int
wr_tx_stream_init_replay(struct wr_tx_stream *ts,
			 const struct wr_replay_spec *r, uint32_t stream_id,
			 uint64_t count, uint32_t j, uint32_t k,
			 unsigned int n_mbufs, int socket_id, struct wr_error *err)
{
	uint64_t limit = wr_replay_lane_limit(r->cap.n, r->loops, count, k, j);

	int rc;

	memset(ts, 0, sizeof(*ts));
	ts->stream_id = stream_id;
	ts->sig_id = WR_SIG_ID(stream_id, j);
	ts->count = limit == UINT64_MAX ? 0 : limit;
	ts->idle = limit == 0;
	ts->lane = j;
	ts->n_lanes = k;
	ts->burst = WR_TX_BURST_DEFAULT;
	ts->tsc_hz = wr_tsc_hz();
	wr_latency_tsc_init(&ts->ns, ts->tsc_hz);
	rc = wr_replay_tx_src_init(&ts->src, r, k, j, n_mbufs, socket_id, err);
	ts->rl = ts->src.priv;
	return rc;
}

int
wr_tx_stream_set_rate(struct wr_tx_stream *ts, const struct wr_tx_pace *pc)
{
	struct wr_sched_run run;
	struct wr_pacer probe;
	int rc;

	if (pc->burst == 0 || pc->burst > WR_BURST_MAX ||
	    (pc->ramp != NULL && pc->train_frames != 0) ||
	    (pc->ramp != NULL && pc->millipps == WR_RATE_UNPACED))
		return -EINVAL;
	/* The end time must fit the TSC: checked once here. */
	rc = wr_sched_run_start(&run, 0, pc->duration_ns, ts->tsc_hz,
				rte_rdtsc());
	if (rc != 0)
		return rc;
	ts->burst = pc->burst;
	ts->duration_ns = pc->duration_ns;
	ts->isg_tsc = (uint64_t)(((unsigned __int128)pc->isg_ns * ts->tsc_hz +
				  WR_NS_PER_S - 1) / WR_NS_PER_S);
	ts->train_frames = pc->train_frames;
	ts->ramped = pc->ramp != NULL;
	if (ts->ramped) {
		ts->ramp = *pc->ramp;
		rc = wr_ramp_check(&ts->ramp);
		if (rc != 0)
			return rc;
	}
	memset(&ts->pacer_cfg, 0, sizeof(ts->pacer_cfg));
	ts->paced = pc->millipps != WR_RATE_UNPACED || pc->train_frames != 0;
	ts->clocked = ts->paced || ts->duration_ns != 0 || ts->ramped ||
		ts->isg_tsc != 0 || ts->src.clocked;
	if (!ts->paced)
		return 0;
	ts->pacer_cfg.rate_millipps = pc->millipps;
	ts->pacer_cfg.tsc_hz = ts->tsc_hz;
	ts->pacer_cfg.burst = pc->burst;
	ts->pacer_cfg.cap = pace_cap(pc->millipps, pc->burst,
				     pc->train_frames);
	ts->pacer_cfg.burst_frames = pc->train_frames;
	ts->pacer_cfg.burst_gap_ns = pc->train_gap_ns;
	/* Validate now, on the main lcore, so the lcore cannot fail. */
	rc = wr_pacer_init_cfg(&probe, &ts->pacer_cfg, 0);
	if (rc != 0 || pc->train_frames == 0)
		return rc;
	/* Train j starts (N - 1) periods + gap after train j - 1 (wr_rate.h). */
	ts->train_nominal_ns = pc->train_gap_ns;
	if (pc->millipps != WR_RATE_UNPACED)
		ts->train_nominal_ns += (uint64_t)((unsigned __int128)
			(pc->train_frames - 1) * WR_NS_PER_S * WR_RATE_MILLI /
			pc->millipps);
	if (ts->gaps == NULL)
		ts->gaps = rte_zmalloc("wr_train_gaps", sizeof(*ts->gaps),
				       RTE_CACHE_LINE_SIZE);
	if (ts->gaps == NULL)
		return -ENOMEM;
	wr_latency_init(ts->gaps);
	return 0;
}

int
wr_txq_set_sequence(struct wr_txq *q, const enum wr_sched_next *next,
		    uint64_t loops)
{
	int rc;

	if (q->n_streams == 0)
		return -EINVAL;
	memcpy(q->next, next, q->n_streams * sizeof(*next));
	rc = wr_order_init(&q->order, q->next, q->n_streams, loops);
	if (rc == 0)
		q->sequenced = true;
	return rc;
}

int
wr_tx_stream_ctl_check(const struct wr_tx_stream *ts, uint64_t millipps)
{
	struct wr_pacer_cfg cfg;
	struct wr_pacer probe;

	if (ts->ramped || ts->train_frames != 0)
		return -ENOTSUP;
	if (millipps == WR_RATE_UNPACED)
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	cfg.rate_millipps = millipps;
	/* The lcore owns ts->tsc_hz; the published figure is the same or
	 * a refinement of it. */
	cfg.tsc_hz = wr_tsc_hz();
	cfg.burst = ts->burst;
	cfg.cap = pace_cap(millipps, ts->burst, 0);
	return wr_pacer_init_cfg(&probe, &cfg, 0);
}

void
wr_tx_stream_ctl(struct wr_tx_stream *ts, enum wr_tx_ctl_state state,
		 uint64_t millipps)
{
	__atomic_store_n(&ts->ctl_millipps, millipps, __ATOMIC_RELAXED);
	__atomic_store_n(&ts->ctl_state, (uint32_t)state, __ATOMIC_RELAXED);
	/* Release: the lcore that sees the new generation sees both values. */
	__atomic_fetch_add(&ts->ctl_gen, 1, __ATOMIC_RELEASE);
}

/* rte_mempool_obj_iter callback: checksum-offload metadata on one mbuf. */
static void
flag_mbuf(struct rte_mempool *mp __rte_unused, void *opaque, void *obj,
	  unsigned int idx __rte_unused)
{
	const struct rte_mbuf *proto = opaque;
	struct rte_mbuf *m = obj;

	m->ol_flags = proto->ol_flags;
	m->l2_len = proto->l2_len;
	m->l3_len = proto->l3_len;
}

bool
wr_tx_stream_cksum_offload(struct wr_tx_stream *ts, uint16_t port_id,
			   uint16_t queue_id)
{
	const struct wr_frame_offload *o = wr_frame_tmpl_offload(ts->t);
	uint64_t need = o->tcp ? RTE_ETH_TX_OFFLOAD_TCP_CKSUM :
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	struct rte_eth_dev_info info;
	struct rte_mbuf *m;

	/* Only one IPv4/IPv6 header under one UDP/TCP header, and only with
	 * an L4 offload the port offers (wr_port enables every one offered):
	 * the NIC fills those checksums; other stacks keep software ones. */
	if (!o->ok || rte_eth_dev_info_get(port_id, &info) != 0 ||
	    (info.tx_offload_capa & need) != need)
		return false;
	if (rte_mempool_get(ts->mp, (void **)&m) != 0)
		return false;
	m->ol_flags = (o->ipv6 ? RTE_MBUF_F_TX_IPV6 :
		       RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM) |
		      (o->tcp ? RTE_MBUF_F_TX_TCP_CKSUM : RTE_MBUF_F_TX_UDP_CKSUM);
	m->l2_len = o->l2_len;
	m->l3_len = o->l3_len;
	if (rte_eth_tx_prepare(port_id, queue_id, &m, 1) != 1) {
		m->ol_flags = 0;
		m->l2_len = m->l3_len = 0;
		/* Back to the template's bytes: prepare may have written. */
		rte_memcpy(rte_pktmbuf_mtod(m, uint8_t *),
			   wr_frame_tmpl_bytes(ts->t), m->data_len);
		rte_mempool_put(ts->mp, m);
		return false;
	}
	rte_mempool_put(ts->mp, m);
	rte_mempool_obj_iter(ts->mp, flag_mbuf, m);
	ts->tx_prepare = true;
	return true;
}

void
wr_tx_stream_fini(struct wr_tx_stream *ts)
{
	if (ts == NULL)
		return;
	rte_free(ts->gaps);
	ts->gaps = NULL;
	if (ts->src.ops != NULL)
		ts->src.ops->fini(ts->src.priv, ts->pending, ts->n_pending);
	ts->src.ops = NULL;
	ts->src.priv = NULL;
	ts->rl = NULL;
	ts->n_pending = 0;
}

/*
 * Signatures: sequence numbers in the order the frames go to the NIC, and
 * one TSC read for the whole burst, taken after the frames were built, as
 * late as possible before rte_eth_tx_burst.  A tail the NIC refused keeps
 * its signatures (same sequence numbers, same TSC) when offered again, so
 * its latency includes the wait for room in the ring.
 */
static inline void
stamp_burst(struct wr_tx_stream *ts, struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t tsc = rte_rdtsc();
	uint16_t i;

	for (i = 0; i < n; i++)
		wr_frame_sig_write(ts->t, rte_pktmbuf_mtod(pkts[i], uint8_t *),
				   (uint16_t)pkts[i]->pkt_len, ts->sig_id,
				   ts->next_seq + i, tsc);
	ts->next_seq += n;
}

static void
deactivate(struct wr_tx_stream *ts, uint64_t now)
{
	ts->done = true;
	/* An activation stopped during its isg was never active. */
	__atomic_store_n(&ts->active_tsc, ts->active_tsc +
			 (now > ts->act_start_tsc ? now - ts->act_start_tsc : 0),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&ts->end_tsc, now, __ATOMIC_RELAXED);
}

/* Start an activation of @p ts at @p now. */
static void
activate(struct wr_tx_stream *ts, uint64_t now)
{
	if (ts->activations++ > 0)
		ts->skipped_before += ts->pacer.skipped;
	/* isg: the activation's frames start that much later, its count and
	 * duration run from then (TRex's inter-stream gap). */
	ts->hold_tsc = ts->isg_tsc != 0 ? now + ts->isg_tsc : 0;
	now += ts->isg_tsc;
	ts->src.ops->start(ts->src.priv, now);
	/* Checked by wr_tx_stream_set_rate: cannot fail. */
	wr_sched_run_start(&ts->run, ts->count, ts->duration_ns, ts->tsc_hz,
			   now);
	if (ts->paced)
		wr_pacer_init_cfg(&ts->pacer, &ts->pacer_cfg, now);
	ts->act_start_tsc = now;
	ts->ramp_next_tsc = now;
	ts->ramp_next_ns = 0;
	ts->ramp_rate = ts->pacer_cfg.rate_millipps;
	ts->train_pos = 0;
	ts->train_last_tsc = 0;
	ts->done = false;
	if (ts->idle)
		deactivate(ts, now);
}


/* (Re)start the pacer's lattice at @p now with the stream's configured rate
 * (live control: a new rate or a resume).  What the old lattice owed is
 * dropped, not caught up; its skipped count is kept. */
static void
pacer_anchor(struct wr_tx_stream *ts, uint64_t now)
{
	if (ts->ramped) {
		/* The ramp's current step, from now. */
		wr_pacer_set_rate(&ts->pacer, ts->ramp_rate, now);
		return;
	}
	ts->skipped_before += ts->pacer.skipped;
	/* Checked by wr_tx_stream_ctl_check: cannot fail. */
	wr_pacer_init_cfg(&ts->pacer, &ts->pacer_cfg, now);
}

/*
 * Live control, the lcore's slow path: a new generation was published, or
 * the stream is paused.  @return true when the stream must not send this
 * turn.
 */
static bool
ctl_turn(struct wr_tx_stream *ts)
{
	uint32_t gen = __atomic_load_n(&ts->ctl_gen, __ATOMIC_ACQUIRE);
	uint32_t state;
	uint64_t rate, now;

	if (gen == ts->ctl_seen)
		return ts->paused;
	state = __atomic_load_n(&ts->ctl_state, __ATOMIC_RELAXED);
	rate = __atomic_load_n(&ts->ctl_millipps, __ATOMIC_RELAXED);
	now = rte_rdtsc();
	if (state == WR_TX_CTL_STOP) {
		/* Frames built and stamped go out first: a stamped frame
		 * never sent would count as lost at the receiver. */
		if (ts->n_pending > 0)
			return false;
		ts->ctl_seen = gen;
		deactivate(ts, now);
		__atomic_store_n(&ts->ctl_applied_tsc, now, __ATOMIC_RELAXED);
		return true;
	}
	ts->ctl_seen = gen;
	__atomic_store_n(&ts->ctl_applied_tsc, now, __ATOMIC_RELAXED);
	/* A ramp or trains own the rate (wr_tx_stream_ctl_check): only the
	 * state applies to them. */
	if (!ts->ramped && ts->train_frames == 0 &&
	    rate != (ts->paced ? ts->pacer_cfg.rate_millipps :
		     WR_RATE_UNPACED)) {
		if (rate == WR_RATE_UNPACED) {
			ts->paced = false;
			ts->clocked = ts->duration_ns != 0;
		} else {
			memset(&ts->pacer_cfg, 0, sizeof(ts->pacer_cfg));
			ts->pacer_cfg.rate_millipps = rate;
			ts->pacer_cfg.tsc_hz = ts->tsc_hz;
			ts->pacer_cfg.burst = ts->burst;
			ts->pacer_cfg.cap = pace_cap(rate, ts->burst, 0);
			ts->paced = ts->clocked = true;
			pacer_anchor(ts, now);
		}
	} else if (ts->paused && state == WR_TX_CTL_RUN && ts->paced) {
		pacer_anchor(ts, now);
	}
	ts->paused = state == WR_TX_CTL_PAUSE;
	return ts->paused;
}

/* ns from an activation's start to TSC ticks, rounded up so that the
 * boundary has passed when the TSC reaches the result. */
static uint64_t
ns_to_tsc(const struct wr_tx_stream *ts, uint64_t ns)
{
	unsigned __int128 x = (unsigned __int128)ns * ts->tsc_hz;

	return (uint64_t)((x + WR_NS_PER_S - 1) / WR_NS_PER_S);
}

/*
 * A ramp's step boundary passed (slow path: once a step, every
 * WR_RAMP_TICK_NS along a linear ramp).  Each boundary is taken at its own
 * time, not at @p now: the frames due before it are at the old step's rate
 * (owed, or skipped after a stall), after it at the new one, so sent plus
 * skipped stays the ramp's schedule however late the lcore came.
 * @return false when a ramp with at_end: stop is over.
 */
static bool
ramp_update(struct wr_tx_stream *ts, uint64_t now)
{
	const struct wr_ramp *r = &ts->ramp;
	uint64_t dur = wr_ramp_duration_ns(r);

	while (now >= ts->ramp_next_tsc) {
		uint64_t at = ts->ramp_next_tsc, t_ns = ts->ramp_next_ns;
		uint64_t rate, next_ns;

		wr_pacer_reach(&ts->pacer, at);
		if (wr_ramp_rate_at(r, t_ns, &rate) == 0)
			return false;
		rate = wr_rate_split(rate, ts->n_lanes, ts->lane);
		if (rate == 0) /* a share below 1 millipps: the slowest pace */
			rate = 1;
		/* Ramp rates were checked against the pacer's range at load. */
		if (rate != ts->ramp_rate &&
		    wr_pacer_set_rate(&ts->pacer, rate, at) == 0)
			ts->ramp_rate = rate;
		if (t_ns >= dur) {
			/* HOLD: the end rate from now on (STOP returned above). */
			ts->ramp_next_tsc = UINT64_MAX;
			return true;
		}
		if (r->shape == WR_RAMP_STAIRCASE)
			next_ns = (t_ns / r->step_ns + 1) * r->step_ns;
		else
			next_ns = t_ns + WR_RAMP_TICK_NS;
		if (next_ns > dur)
			next_ns = dur;
		ts->ramp_next_ns = next_ns;
		ts->ramp_next_tsc = ts->act_start_tsc + ns_to_tsc(ts, next_ns);
	}
	return true;
}

/* The NIC took @p sent frames at @p tsc: record the interval since the
 * previous train for every train whose first frame is among them.  Out of
 * line: only paced trains call it, and the histogram's code inlined in
 * stream_turn() changed how GCC allocated every stream's burst. */
static __rte_noinline void
trains_account(struct wr_tx_stream *ts, uint16_t sent, uint64_t tsc)
{
	const uint32_t n = ts->train_frames;
	uint32_t end = ts->train_pos + sent, p;

	for (p = ts->train_pos == 0 ? 0 : n; p < end; p += n) {
		if (ts->train_last_tsc != 0)
			wr_latency_record(ts->gaps, wr_latency_tsc_to_ns(
					&ts->ns, tsc - ts->train_last_tsc));
		ts->train_last_tsc = tsc;
	}
	while (end >= n)
		end -= n;
	ts->train_pos = end;
}

/*
 * One turn of one stream: build a burst if none is pending, offer it.
 * @return true when the stream's activation ended (nothing pending).
 */
static inline bool
stream_turn(const struct wr_txq *q, struct wr_tx_stream *ts)
{
	struct rte_mbuf **pkts = ts->pending;
	uint16_t n = ts->n_pending, sent;

	if (n == 0) {
		uint64_t now = ts->clocked ? rte_rdtsc() : 0;
		uint32_t want, due = 0;
		int got;

		if (unlikely(now < ts->hold_tsc))
			return false;

		/* Unclocked streams have no end time: only the count. */
		if (unlikely(wr_sched_run_done(&ts->run, now) ||
			     (ts->ramped && now >= ts->ramp_next_tsc &&
			      !ramp_update(ts, now)))) {
			/* Time up: what fell due before the end while the
			 * lcore was held up is counted, not lost. */
			if (ts->paced && ts->run.left != 0 &&
			    now >= ts->run.end_tsc)
				wr_pacer_close(&ts->pacer, ts->run.end_tsc,
					       ts->run.left == UINT64_MAX ?
					       0 : ts->run.left);
			deactivate(ts, ts->clocked ? now : rte_rdtsc());
			return true;
		}
		want = wr_sched_run_clip(&ts->run, ts->burst);
		if (ts->paced) {
			/* Frames granted and then refused by the NIC stay
			 * pending and go first next turn: the schedule's
			 * count stays what was sent or is about to be. */
			due = wr_pacer_due(&ts->pacer, now);
			if (due == 0)
				return false;
			if (due < want)
				want = due;
		}
		/* The source's frames, built (timed replay: those due). */
		got = ts->src.ops->take(ts->src.priv, pkts, (uint16_t)want,
					now);
		if (unlikely(got <= 0)) {
			/* None due, or every mbuf in the NIC's ring (try
			 * again later): the grant is owed again. */
			if (ts->paced)
				wr_pacer_sent(&ts->pacer, 0, due);
			if (got < 0)
				__atomic_store_n(&ts->c.alloc_fail,
						 ts->c.alloc_fail + 1,
						 __ATOMIC_RELAXED);
			return false;
		}
		want = (uint32_t)got;
		if (ts->paced && want < due)
			wr_pacer_sent(&ts->pacer, want, due);
		n = (uint16_t)want;
		if (ts->latency)
			stamp_burst(ts, pkts, n);
		/* Built frames are sent before the activation ends. */
		wr_sched_run_sent(&ts->run, n);
	}
	/* Offloaded checksums: fields as the NIC wants them (idempotent,
	 * so a tail offered again is prepared again harmlessly).  The
	 * PMD accepted this stream's frame at setup. */
	if (unlikely(ts->tx_prepare))
		rte_eth_tx_prepare(q->port_id, q->queue_id, pkts, n);
	sent = rte_eth_tx_burst(q->port_id, q->queue_id, pkts, n);
	if (likely(sent > 0)) {
		if (unlikely(ts->first_tx_tsc == 0))
			__atomic_store_n(&ts->first_tx_tsc, rte_rdtsc(),
					 __ATOMIC_RELAXED);
		__atomic_store_n(&ts->c.tx_bytes, ts->c.tx_bytes +
				 ts->src.ops->sent(ts->src.priv, pkts, sent),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&ts->c.tx_pkts, ts->c.tx_pkts + sent,
				 __ATOMIC_RELAXED);
		if (ts->train_frames != 0)
			trains_account(ts, sent, rte_rdtsc());
	}
	if (unlikely(sent < n)) {
		/* A clocked activation whose time is up while the port takes
		 * nothing (a ring nobody drains, a peer that stopped reading)
		 * ends now instead of offering its tail for ever: the tail
		 * was never sent, so it is freed uncounted (as a PMD frees
		 * what it sent), and a trial ends on time. */
		if (ts->clocked) {
			uint64_t now = rte_rdtsc();

			if (now >= ts->run.end_tsc) {
				rte_pktmbuf_free_bulk(pkts + sent, n - sent);
				ts->n_pending = 0;
				deactivate(ts, now);
				return true;
			}
		}
		/* Keep the tail, in order, for the next turn. */
		memmove(pkts, pkts + sent, (size_t)(n - sent) * sizeof(*pkts));
		__atomic_store_n(&ts->c.tx_full, ts->c.tx_full + 1,
				 __ATOMIC_RELAXED);
	}
	ts->n_pending = n - sent;
	return false;
}

/* One turn of a sequenced queue: its active stream.  @return true while
 * the sequence runs. */
static inline bool
sequence_turn(struct wr_txq *q)
{
	uint32_t a = wr_order_active(&q->order);

	if (a == WR_ORDER_DONE)
		return false;
	if (stream_turn(q, q->streams[a])) {
		a = wr_order_end(&q->order);
		if (a != WR_ORDER_DONE)
			activate(q->streams[a], rte_rdtsc());
	}
	return a != WR_ORDER_DONE;
}

/*
 * A refined TSC frequency (wr_clock_eal.h), on the lcore: what was set as an
 * activation's start plus some nanoseconds moves to where those
 * nanoseconds now fall.  The pacer keeps its pending deadline (nothing
 * owed is lost or added); the end time and the ramp's next step follow;
 * a replayed capture's deadlines, computed at load, stay.
 */
static void
stream_retime(struct wr_tx_stream *ts, uint64_t hz)
{
	uint64_t old = ts->tsc_hz;

	if (hz == old)
		return;
	ts->tsc_hz = hz;
	ts->pacer_cfg.tsc_hz = hz;
	wr_latency_tsc_init(&ts->ns, hz);
	if (ts->activations == 0 || ts->done)
		return;
	/* A refinement moves the frequency by parts per million: neither
	 * can leave the ranges checked at load; on error the old stays. */
	wr_sched_run_set_end(&ts->run, ts->duration_ns, hz, ts->act_start_tsc);
	if (ts->paced)
		wr_pacer_set_hz(&ts->pacer, hz);
	if (ts->ramped)
		ts->ramp_next_tsc = wr_tsc_rescale(ts->ramp_next_tsc,
						   ts->act_start_tsc, old, hz);
}

static void __rte_noinline
lcore_retime(struct wr_lcore_ctx *ctx, uint64_t hz)
{
	unsigned int qi, si;

	for (qi = 0; qi < ctx->n_txq; qi++)
		for (si = 0; si < ctx->txq[qi].n_streams; si++)
			stream_retime(ctx->txq[qi].streams[si], hz);
	for (qi = 0; qi < ctx->n_rxq; qi++)
		wr_latency_tsc_init(&ctx->rxq[qi]->tsc, hz);
	ctx->tsc_hz = hz;
}

/* A new calibration published: one load a turn, a line nobody writes
 * but once a report. */
static inline void
clock_turn(struct wr_lcore_ctx *ctx)
{
	uint64_t hz = __atomic_load_n(ctx->tsc_hz_word, __ATOMIC_RELAXED);

	if (unlikely(hz != ctx->tsc_hz && hz != 0))
		lcore_retime(ctx, hz);
}

/* The port of @p q went away: its streams end now, nothing pending is
 * offered again (the frames were never sent). */
static void
txq_retire(struct wr_txq *q, uint64_t now)
{
	unsigned int si;

	for (si = 0; si < q->n_streams; si++) {
		struct wr_tx_stream *ts = q->streams[si];

		if (ts->activations > 0 && !ts->done)
			deactivate(ts, now);
		ts->done = true;
	}
	q->retired = true;
}

static uint64_t
tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull +
	       (uint64_t)tv->tv_usec * 1000ull;
}

void
wr_lcore_usage_mark(struct rusage *a, struct wr_thread_usage *u)
{
	struct rusage b;

	if (u == NULL) {
		if (getrusage(RUSAGE_THREAD, a) != 0)
			memset(a, 0, sizeof(*a));
		return;
	}
	memset(u, 0, sizeof(*u));
	if (getrusage(RUSAGE_THREAD, &b) != 0)
		return;
	u->user_ns = tv_ns(&b.ru_utime) - tv_ns(&a->ru_utime);
	u->sys_ns = tv_ns(&b.ru_stime) - tv_ns(&a->ru_stime);
	u->nvcsw = (uint64_t)(b.ru_nvcsw - a->ru_nvcsw);
	u->nivcsw = (uint64_t)(b.ru_nivcsw - a->ru_nivcsw);
}

int
wr_tx_lcore_main(void *arg)
{
	struct wr_lcore_ctx *ctx = arg;
	unsigned int qi, si, active;
	struct rusage ru;
	uint64_t now;

	/* A synchronised start (wr_engine_start_at): everything is built,
	 * only the first burst waits for the instant. */
	while (ctx->start_at_tsc != 0 && rte_rdtsc() < ctx->start_at_tsc &&
	       __atomic_load_n(ctx->stop, __ATOMIC_RELAXED) == 0) {
		wr_lcore_quiescent(ctx);     /* no port touched yet */
		rte_pause();
	}
	/* Every lcore anchors its schedules (pacers, capture timing) on the
	 * common instant, not on when it got here: lanes of one stream keep
	 * the capture's relative times.  One that arrived late catches up
	 * as after a stall. */
	wr_lcore_usage_mark(&ru, NULL);
	now = rte_rdtsc();
	ctx->start_tsc = ctx->start_at_tsc != 0 && ctx->start_at_tsc <= now ?
		ctx->start_at_tsc : now;
	for (qi = 0; qi < ctx->n_txq; qi++) {
		struct wr_txq *q = &ctx->txq[qi];

		if (q->sequenced)
			activate(q->streams[wr_order_active(&q->order)],
				 ctx->start_tsc);
		else
			for (si = 0; si < q->n_streams; si++)
				activate(q->streams[si], ctx->start_tsc);
	}
	do {
		wr_lcore_quiescent(ctx);
		clock_turn(ctx);
		for (qi = 0; qi < ctx->n_rxq; qi++)
			if (!wr_port_gone(ctx->rxq_gone[qi]))
				wr_rx_drain(ctx->rxq[qi], WR_RX_TURN_BURSTS);
		active = 0;
		for (qi = 0; qi < ctx->n_txq; qi++) {
			struct wr_txq *q = &ctx->txq[qi];

			if (wr_port_gone(q->gone)) {
				if (!q->retired)
					txq_retire(q, rte_rdtsc());
				continue;
			}
			if (q->sequenced) {
				active += sequence_turn(q);
				continue;
			}
			for (si = 0; si < q->n_streams; si++) {
				struct wr_tx_stream *ts = q->streams[si];

				if (ts->done)
					continue;
				/* Live control: one load per stream turn. */
				if (unlikely(__atomic_load_n(&ts->ctl_gen,
						__ATOMIC_RELAXED) != ts->ctl_seen ||
					     ts->paused) && ctl_turn(ts)) {
					active += !ts->done;
					continue;
				}
				stream_turn(q, ts);
				active += !ts->done;
			}
		}
	} while ((active > 0 || ctx->hold) &&
		 __atomic_load_n(ctx->stop, __ATOMIC_RELAXED) == 0);
	ctx->end_tsc = rte_rdtsc();
	wr_lcore_usage_mark(&ru, &ctx->usage);
	/* Activations cut short by the stop flag end now. */
	for (qi = 0; qi < ctx->n_txq; qi++)
		for (si = 0; si < ctx->txq[qi].n_streams; si++) {
			struct wr_tx_stream *ts = ctx->txq[qi].streams[si];

			if (ts->activations > 0 && !ts->done)
				deactivate(ts, ctx->end_tsc);
		}
	__atomic_store_n(&ctx->tx_finished, 1, __ATOMIC_RELEASE);
	/* Frames still in flight come back while the main lcore waits out
	 * the drain time. */
	while (ctx->n_rxq > 0 &&
	       __atomic_load_n(ctx->stop_rx, __ATOMIC_RELAXED) == 0) {
		wr_lcore_quiescent(ctx);
		clock_turn(ctx);
		for (qi = 0; qi < ctx->n_rxq; qi++)
			if (!wr_port_gone(ctx->rxq_gone[qi]))
				wr_rx_poll(ctx->rxq[qi]);
	}
	__atomic_store_n(&ctx->finished, 1, __ATOMIC_RELEASE);
	return 0;
}

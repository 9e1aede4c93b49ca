/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_tx: replay lanes in mbufs of a mempool whose put keeps them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_replay_tx.h"

#define WR_REPLAY_OPS "wr_replay"

/*
 * The "wr_replay" mempool driver: the pool is a fixed set of frames, not
 * a free list.  Objects put back (the PMD freeing a sent frame, and the
 * populate step adding each new object) are dropped on the floor: the
 * lane holds every mbuf's address in its own table.  Nothing can be taken
 * out (dequeue fails), so no other code can hand these mbufs out.
 */
static int
replay_ops_alloc(struct rte_mempool *mp __rte_unused)
{
	return 0;
}

static void
replay_ops_free(struct rte_mempool *mp __rte_unused)
{
}

static int
replay_ops_enqueue(struct rte_mempool *mp __rte_unused,
		   void *const *obj_table __rte_unused, unsigned int n __rte_unused)
{
	return 0;
}

static int
replay_ops_dequeue(struct rte_mempool *mp __rte_unused,
		   void **obj_table __rte_unused, unsigned int n __rte_unused)
{
	return -ENOBUFS;
}

static unsigned int
replay_ops_count(const struct rte_mempool *mp __rte_unused)
{
	return 0;
}

static struct rte_mempool_ops replay_ops = {
	.name = WR_REPLAY_OPS,
	.alloc = replay_ops_alloc,
	.free = replay_ops_free,
	.enqueue = replay_ops_enqueue,
	.dequeue = replay_ops_dequeue,
	.get_count = replay_ops_count,
};

RTE_MEMPOOL_REGISTER_OPS(replay_ops);

static uint32_t
elt_size(const struct wr_replay_spec *r)
{
	return (uint32_t)(sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM +
			  r->cap.max_len);
}

uint64_t
wr_replay_lane_mem(const struct wr_replay_spec *r, uint32_t k, uint32_t j)
{
	struct rte_mempool_objsz sz;
	uint64_t m = wr_replay_lane_frames(r->cap.n, k, j);

	rte_mempool_calc_obj_size(elt_size(r), 0, &sz);
	return m * (sz.total_size + sizeof(struct rte_mbuf *) +
		    sizeof(uint16_t) + sizeof(uint64_t));
}

struct collect_arg {
	struct wr_replay_lane *rl;
	uint32_t n;
};

/* rte_mempool_obj_iter callback: the lane's table, in the pool's order. */
static void
collect(struct rte_mempool *mp, void *opaque, void *obj,
	unsigned int idx __rte_unused)
{
	struct collect_arg *a = opaque;

	rte_pktmbuf_init(mp, NULL, obj, 0);
	if (a->n < a->rl->m)
		a->rl->frames[a->n] = obj;
	a->n++;
}

int
wr_replay_lane_init(struct wr_replay_lane *rl, const struct wr_replay_spec *r,
		    uint32_t k, uint32_t j, int socket, struct wr_error *err)
{
	static unsigned int pool_seq; /* main lcore only: unique pool names */
	struct rte_pktmbuf_pool_private priv;
	struct collect_arg ca = { .rl = rl, .n = 0 };
	char name[RTE_MEMPOOL_NAMESIZE];
	uint64_t tsc_hz = rte_get_tsc_hz();
	uint32_t i;

	memset(rl, 0, sizeof(*rl));
	rl->m = wr_replay_lane_frames(r->cap.n, k, j);
	rl->tsc_hz = tsc_hz;
	wr_latency_tsc_init(&rl->ns, tsc_hz);
	if (rl->m == 0)
		return 0; /* more lanes than frames: this one sends nothing */
	rl->frames = rte_zmalloc_socket("wr_replay_frames",
					rl->m * sizeof(*rl->frames),
					RTE_CACHE_LINE_SIZE, socket);
	rl->wire = rte_zmalloc_socket("wr_replay_wire",
				      rl->m * sizeof(*rl->wire),
				      RTE_CACHE_LINE_SIZE, socket);
	if (rl->frames == NULL || rl->wire == NULL)
		goto nomem;
	snprintf(name, sizeof(name), "wr_rp%u", pool_seq++);
	rl->mp = rte_mempool_create_empty(name, rl->m, elt_size(r), 0,
					  sizeof(priv), socket, 0);
	if (rl->mp == NULL ||
	    rte_mempool_set_ops_byname(rl->mp, WR_REPLAY_OPS, NULL) != 0)
		goto nomem;
	memset(&priv, 0, sizeof(priv));
	priv.mbuf_data_room_size = (uint16_t)(RTE_PKTMBUF_HEADROOM +
					      r->cap.max_len);
	rte_pktmbuf_pool_init(rl->mp, &priv);
	if (rte_mempool_populate_default(rl->mp) < 0)
		goto nomem;
	rte_mempool_obj_iter(rl->mp, collect, &ca);
	if (ca.n != rl->m)
		goto nomem;
	for (i = 0; i < rl->m; i++) {
		uint32_t f = j + i * k;
		uint16_t len = r->cap.len[f];
		struct rte_mbuf *mb = rl->frames[i];

		rte_memcpy(rte_pktmbuf_mtod(mb, uint8_t *),
			   wr_capture_frame(&r->cap, f), len);
		mb->data_len = len;
		mb->pkt_len = len;
		rl->wire[i] = (uint16_t)wr_capture_wire_len(len);
	}
	if (r->timing != WR_REPLAY_TIMING_CAPTURE)
		return 0;
	rl->timed = true;
	rl->pass_ns = wr_replay_pass_ns(&r->cap, r->speedup_ppm);
	rl->dl = rte_zmalloc_socket("wr_replay_dl", rl->m * sizeof(*rl->dl),
				    RTE_CACHE_LINE_SIZE, socket);
	rl->gap_err = rte_zmalloc_socket("wr_replay_gap", sizeof(*rl->gap_err),
					 RTE_CACHE_LINE_SIZE, socket);
	rl->late = rte_zmalloc_socket("wr_replay_late", sizeof(*rl->late),
				      RTE_CACHE_LINE_SIZE, socket);
	if (rl->dl == NULL || rl->gap_err == NULL || rl->late == NULL)
		goto nomem;
	wr_replay_lane_deadlines(&r->cap, r->speedup_ppm, tsc_hz, k, j, rl->dl);
	wr_latency_init(rl->gap_err);
	wr_latency_init(rl->late);
	return 0;
nomem:
	wr_replay_lane_fini(rl);
	return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
			    "no hugepage memory for %u frames of up to %u "
			    "bytes (%.1f MiB): %s; reserve more hugepages "
			    "(tools/wr-hugepages) or replay fewer frames "
			    "(editcap -r)", wr_replay_lane_frames(
			    r->cap.n, k, j), r->cap.max_len,
			    (double)wr_replay_lane_mem(r, k, j) / (1 << 20),
			    rte_strerror(rte_errno));
}

void
wr_replay_lane_fini(struct wr_replay_lane *rl)
{
	if (rl == NULL)
		return;
	rte_mempool_free(rl->mp);
	rte_free(rl->frames);
	rte_free(rl->wire);
	rte_free(rl->dl);
	rte_free(rl->gap_err);
	rte_free(rl->late);
	memset(rl, 0, sizeof(*rl));
}

void
wr_replay_lane_start(struct wr_replay_lane *rl, uint64_t now)
{
	wr_replay_sched_start(&rl->sched, rl->dl, rl->m, rl->pass_ns,
			      rl->tsc_hz, now);
	rl->acct = 0;
	rl->n_due = 0;
	rl->have_prev = false;
}

void
wr_replay_lane_departed(struct wr_replay_lane *rl, uint16_t sent, uint64_t tsc)
{
	uint64_t shift = rl->sched.stall_ticks;
	uint16_t i;

	for (i = 0; i < sent && i < rl->n_due; i++) {
		uint64_t due = rl->due[i];
		uint64_t d = due + shift;

		wr_latency_record(rl->late, tsc > d ?
			wr_latency_tsc_to_ns(&rl->ns, tsc - d) : 0);
		if (rl->have_prev) {
			uint64_t got = tsc - rl->prev_dep;
			uint64_t want = due - rl->prev_due;

			wr_latency_record(rl->gap_err, wr_latency_tsc_to_ns(
				&rl->ns, got > want ? got - want : want - got));
		}
		rl->have_prev = true;
		rl->prev_dep = tsc;
		rl->prev_due = due;
	}
	/* A tail the NIC refused keeps its deadlines for the next offer. */
	if (sent < rl->n_due)
		memmove(rl->due, rl->due + sent,
			(size_t)(rl->n_due - sent) * sizeof(*rl->due));
	rl->n_due = sent < rl->n_due ? (uint16_t)(rl->n_due - sent) : 0;
}

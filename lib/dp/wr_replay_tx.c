/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_tx: replay lanes: frames loaded once into hugepages, sent from hot bare mbufs pointed at them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_cycles.h>
#include <rte_time.h>

#include "wr_replay_tx.h"
#include "wr_clock_eal.h"

/* Frames start on cache lines, and on a page of their own where the
 * data's IOVA is physical (a NIC reads a frame as one contiguous run). */
static uint64_t
align_line(uint64_t x)
{
	return (x + RTE_CACHE_LINE_SIZE - 1) & ~(uint64_t)(RTE_CACHE_LINE_SIZE - 1);
}

/* Data bytes of lane j of k, before page padding. */
static uint64_t
lane_data(const struct wr_replay_spec *r, uint32_t k, uint32_t j)
{
	uint64_t bytes = 0;
	uint32_t f;

	for (f = j; f < r->cap.n; f += k)
		bytes += align_line(r->cap.len[f]);
	return bytes;
}

/* Page padding: at most one frame's room lost per page. */
static uint64_t
lane_pad(const struct wr_replay_spec *r, uint64_t data, uint64_t page)
{
	return (data / page + 2) * align_line(r->cap.max_len);
}

#define WR_REPLAY_HUGE_PAGE (2u << 20)
/* As a static stream's pool (wr_tx.c WR_TX_POOL_CACHE). */
#define WR_REPLAY_POOL_CACHE 256

uint64_t
wr_replay_lane_mem(const struct wr_replay_spec *r, uint32_t k, uint32_t j,
		   unsigned int n_mbufs)
{
	struct rte_mempool_objsz sz;
	uint64_t m = wr_replay_lane_frames(r->cap.n, k, j);
	uint64_t data = lane_data(r, k, j);

	rte_mempool_calc_obj_size(sizeof(struct rte_mbuf), 0, &sz);
	return m * sizeof(struct wr_replay_frame) + data +
		lane_pad(r, data, WR_REPLAY_HUGE_PAGE) +
		(uint64_t)n_mbufs * sz.total_size;
}

/* The IOVA of a byte of hugepage memory, from its memseg (one lookup per
 * frame at setup). */
static rte_iova_t
data_iova(const void *at)
{
	const struct rte_memseg_list *msl;
	const struct rte_memseg *ms;

	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return (uintptr_t)at;
	msl = rte_mem_virt2memseg_list(at);
	ms = msl != NULL ? rte_mem_virt2memseg(at, msl) : NULL;
	if (ms == NULL || ms->iova == RTE_BAD_IOVA)
		return rte_mem_virt2iova(at);
	return ms->iova + RTE_PTR_DIFF(at, ms->addr);
}

/* The frames' bytes into one block, and the table pointing at them. */
static int
place_data(struct wr_replay_lane *rl, const struct wr_replay_spec *r,
	   uint32_t k, uint32_t j, int socket)
{
	const struct rte_memseg_list *msl;
	uint64_t data = lane_data(r, k, j), page, off = 0, size;
	bool pa = rte_eal_iova_mode() != RTE_IOVA_VA;
	uint32_t i;

	/* The page size is known once memory is taken: probe it. */
	rl->data = rte_malloc_socket("wr_replay_data", RTE_CACHE_LINE_SIZE,
				     RTE_CACHE_LINE_SIZE, socket);
	msl = rl->data ? rte_mem_virt2memseg_list(rl->data) : NULL;
	page = msl != NULL ? msl->page_sz : WR_REPLAY_HUGE_PAGE;
	rte_free(rl->data);
	size = data + (pa ? lane_pad(r, data, page) : 0);
	rl->data = rte_malloc_socket("wr_replay_data", size,
				     RTE_CACHE_LINE_SIZE, socket);
	if (rl->data == NULL)
		return -ENOMEM;
	for (i = 0; i < rl->m; i++) {
		uint32_t f = j + i * k;
		uint16_t len = r->cap.len[f];
		uint8_t *at = rl->data + off;

		if (pa && RTE_ALIGN_FLOOR((uintptr_t)at, page) !=
		    RTE_ALIGN_FLOOR((uintptr_t)at + len - 1, page)) {
			off = RTE_ALIGN_CEIL((uintptr_t)at, page) -
				(uintptr_t)rl->data;
			at = rl->data + off;
		}
		if (off + len > size)
			return -ENOMEM;
		rte_memcpy(at, wr_capture_frame(&r->cap, f), len);
		rl->frames[i].addr = at;
		rl->frames[i].iova = data_iova(at);
		rl->frames[i].len = len;
		rl->frames[i].wire = (uint16_t)wr_capture_wire_len(len);
		off = align_line(off + len);
	}
	return 0;
}

/* rte_mempool_obj_iter callback: a bare header's data starts at its buffer. */
static void
zero_headroom(struct rte_mempool *mp __rte_unused, void *opaque __rte_unused,
	      void *obj, unsigned int idx __rte_unused)
{
	((struct rte_mbuf *)obj)->data_off = 0;
}

int
wr_replay_lane_init(struct wr_replay_lane *rl, const struct wr_replay_spec *r,
		    uint32_t k, uint32_t j, unsigned int n_mbufs, int socket,
		    struct wr_error *err)
{
	static unsigned int pool_seq; /* main lcore only: unique pool names */
	char name[RTE_MEMPOOL_NAMESIZE];
	uint64_t tsc_hz = wr_tsc_hz();

	memset(rl, 0, sizeof(*rl));
	rl->m = wr_replay_lane_frames(r->cap.n, k, j);
	rl->tsc_hz = tsc_hz;
	wr_latency_tsc_init(&rl->ns, tsc_hz);
	if (rl->m == 0)
		return 0; /* more lanes than frames: this one sends nothing */
	rl->frames = rte_zmalloc_socket("wr_replay_frames",
					rl->m * sizeof(*rl->frames),
					RTE_CACHE_LINE_SIZE, socket);
	if (rl->frames == NULL || place_data(rl, r, k, j, socket) != 0)
		goto nomem;
	snprintf(name, sizeof(name), "wr_rp%u", pool_seq++);
	rl->mp = rte_pktmbuf_pool_create(name, n_mbufs, WR_REPLAY_POOL_CACHE,
					 0, 0, socket);
	if (rl->mp == NULL)
		goto nomem;
	rte_mempool_obj_iter(rl->mp, zero_headroom, NULL);
	if (r->timing != WR_REPLAY_TIMING_CAPTURE)
		return 0;
	rl->timed = true;
	rl->pass_ns = wr_replay_pass_ns(&r->cap, r->speedup_ppm);
	rl->sched.dl = rte_zmalloc_socket("wr_replay_dl",
					  rl->m * sizeof(uint64_t),
					  RTE_CACHE_LINE_SIZE, socket);
	rl->gap_err = rte_zmalloc_socket("wr_replay_gap", sizeof(*rl->gap_err),
					 RTE_CACHE_LINE_SIZE, socket);
	rl->late = rte_zmalloc_socket("wr_replay_late", sizeof(*rl->late),
				      RTE_CACHE_LINE_SIZE, socket);
	rl->late_polled = rte_zmalloc_socket("wr_replay_late",
					     sizeof(*rl->late_polled),
					     RTE_CACHE_LINE_SIZE, socket);
	if (rl->sched.dl == NULL || rl->gap_err == NULL || rl->late == NULL ||
	    rl->late_polled == NULL)
		goto nomem;
	rl->away_thr = (uint64_t)WR_REPLAY_AWAY_NS * tsc_hz / NSEC_PER_SEC;
	wr_replay_lane_deadlines(&r->cap, r->speedup_ppm, tsc_hz, k, j,
				 (uint64_t *)(uintptr_t)rl->sched.dl);
	wr_latency_init(rl->gap_err);
	wr_latency_init(rl->late);
	wr_latency_init(rl->late_polled);
	return 0;
nomem:
	wr_replay_lane_fini(rl);
	return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
			    "no hugepage memory for %u frames of up to %u "
			    "bytes (%.1f MiB): %s; reserve more hugepages "
			    "(tools/wr-hugepages) or replay fewer frames "
			    "(editcap -r)", wr_replay_lane_frames(
			    r->cap.n, k, j), r->cap.max_len,
			    (double)wr_replay_lane_mem(r, k, j, n_mbufs) /
			    (1 << 20), rte_strerror(rte_errno));
}

void
wr_replay_lane_fini(struct wr_replay_lane *rl)
{
	if (rl == NULL)
		return;
	rte_mempool_free(rl->mp);
	rte_free(rl->data);
	rte_free(rl->frames);
	rte_free((void *)(uintptr_t)rl->sched.dl);
	rte_free(rl->gap_err);
	rte_free(rl->late);
	rte_free(rl->late_polled);
	memset(rl, 0, sizeof(*rl));
}

void
wr_replay_lane_start(struct wr_replay_lane *rl, uint64_t now)
{
	wr_replay_sched_start(&rl->sched, rl->sched.dl, rl->m, rl->pass_ns,
			      rl->tsc_hz, now);
	rl->acct = 0;
	rl->n_due = 0;
	rl->have_prev = false;
	rl->poll_tsc = now;
	rl->away_to = 0;
}

void
wr_replay_lane_away(struct wr_replay_lane *rl, uint64_t now)
{
	uint64_t gap = now - rl->poll_tsc;

	rl->away_to = now;
	rl->away_n++;
	rl->away_ticks += gap;
	if (gap > rl->away_max)
		rl->away_max = gap;
}

void
wr_replay_lane_departed(struct wr_replay_lane *rl, uint16_t sent, uint64_t tsc)
{
	uint64_t shift = rl->sched.stall_ticks;
	uint16_t i;

	/* Away between the take and the departure (preempted in the
	 * burst) delays these frames too. */
	if (unlikely(tsc - rl->poll_tsc > rl->away_thr))
		wr_replay_lane_away(rl, tsc);
	/* The lcore is here: a tail offered again is not time away. */
	rl->poll_tsc = tsc;
	for (i = 0; i < sent && i < rl->n_due; i++) {
		uint64_t due = rl->due[i];
		uint64_t d = due + shift;

		uint64_t late = tsc > d ?
			wr_latency_tsc_to_ns(&rl->ns, tsc - d) : 0;

		wr_latency_record(rl->late, late);
		/* Gaps are recorded as they end, so the lcore was away
		 * between this frame's deadline and its departure exactly
		 * when the latest gap ended after the deadline. */
		if (rl->away_to > d)
			rl->late_away++;
		else
			wr_latency_record(rl->late_polled, late);
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

/* ---- the TX loop's source (wr_tx_src.h) ---- */

static int
replay_take(void *priv, struct rte_mbuf **pkts, uint16_t want, uint64_t now)
{
	return wr_replay_lane_take(priv, pkts, want, now);
}

static uint64_t
replay_sent(void *priv, struct rte_mbuf **pkts __rte_unused, uint16_t n)
{
	struct wr_replay_lane *rl = priv;

	return wr_replay_lane_sent(rl, n, rl->timed ? rte_rdtsc() : 0);
}

static void
replay_start(void *priv, uint64_t now)
{
	wr_replay_lane_start(priv, now);
}

static void
replay_fini(void *priv, struct rte_mbuf **pending __rte_unused,
	    uint16_t n __rte_unused)
{
	/* Pending mbufs are the lane's pool's, which goes whole. */
	wr_replay_lane_fini(priv);
	rte_free(priv);
}

static const struct wr_tx_src_ops replay_ops = {
	.name = "replay",
	.take = replay_take,
	.sent = replay_sent,
	.start = replay_start,
	.fini = replay_fini,
};

int
wr_replay_tx_src_init(struct wr_tx_src *src, const struct wr_replay_spec *r,
		      uint32_t k, uint32_t j, unsigned int n_mbufs, int socket,
		      struct wr_error *err)
{
	struct wr_replay_lane *rl;
	int rc;

	rl = rte_zmalloc_socket("wr_replay_lane", sizeof(*rl),
				RTE_CACHE_LINE_SIZE, socket);
	if (rl == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	src->ops = &replay_ops;
	src->priv = rl;
	rc = wr_replay_lane_init(rl, r, k, j, n_mbufs, socket, err);
	src->clocked = rl->timed;
	return rc;
}

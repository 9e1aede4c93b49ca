/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_tx: replay lanes in mbufs of a mempool whose put keeps them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>
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

/* Page padding: at most one frame's room lost per page (2 MB pages). */
static uint64_t
lane_pad(const struct wr_replay_spec *r, uint64_t data, uint64_t page)
{
	return (data / page + 2) * align_line(r->cap.max_len);
}

/* A pool of bare mbuf headers: each frame's data is elsewhere (below). */
#define WR_REPLAY_HUGE_PAGE (2u << 20)
/* A pool cache big enough that the PMD's frees reach the (no-op) driver
 * in bulk, a few times per thousand frames, not once a frame. */
#define WR_REPLAY_POOL_CACHE RTE_MEMPOOL_CACHE_MAX_SIZE

uint64_t
wr_replay_lane_mem(const struct wr_replay_spec *r, uint32_t k, uint32_t j)
{
	struct rte_mempool_objsz sz;
	uint64_t m = wr_replay_lane_frames(r->cap.n, k, j);
	uint64_t data = lane_data(r, k, j);

	rte_mempool_calc_obj_size(sizeof(struct rte_mbuf), 0, &sz);
	return m * (sz.total_size + sizeof(struct rte_mbuf *) +
		    sizeof(uint16_t) + sizeof(uint64_t)) + data +
		lane_pad(r, data, WR_REPLAY_HUGE_PAGE);
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

/*
 * Why the headers and the data are apart: a capture of 100 000 frames
 * spreads inline mbufs over 180 MB, and the PMD's free of each sent frame
 * reads two cache lines of its header from DRAM at random-looking strides
 * (measured: replay at 0.9x testpmd txonly).  Bare headers in a pool of
 * their own are read in address order, which the hardware prefetcher
 * follows, and the frames' bytes, packed in one block, are read only by
 * the NIC.  The mbufs stay direct: buf_addr simply points into the block.
 */
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
		struct rte_mbuf *mb = rl->frames[i];
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
		mb->buf_addr = at;
		mb->buf_iova = data_iova(at);
		mb->buf_len = len;
		mb->data_off = 0;
		mb->data_len = len;
		mb->pkt_len = len;
		rl->wire[i] = (uint16_t)wr_capture_wire_len(len);
		off = align_line(off + len);
	}
	return 0;
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
	rl->mp = rte_mempool_create_empty(name, rl->m, sizeof(struct rte_mbuf),
		rl->m * 3 / 2 >= WR_REPLAY_POOL_CACHE * 2 ?
		WR_REPLAY_POOL_CACHE : 0, sizeof(priv), socket, 0);
	if (rl->mp == NULL ||
	    rte_mempool_set_ops_byname(rl->mp, WR_REPLAY_OPS, NULL) != 0)
		goto nomem;
	memset(&priv, 0, sizeof(priv));
	rte_pktmbuf_pool_init(rl->mp, &priv);
	if (rte_mempool_populate_default(rl->mp) < 0)
		goto nomem;
	rte_mempool_obj_iter(rl->mp, collect, &ca);
	if (ca.n != rl->m || place_data(rl, r, k, j, socket) != 0)
		goto nomem;
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
	rte_free(rl->data);
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

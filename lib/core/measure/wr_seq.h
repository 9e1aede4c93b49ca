/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_seq: per-stream sequence tracker: received, lost, late, duplicated frames. */
#ifndef WR_SEQ_H
#define WR_SEQ_H

/**
 * @file
 * Input: the sequence numbers (wr_sig seq: 0-based per stream, only frames
 * the NIC accepted get one) of a stream's received frames, in arrival order.
 *
 * State: next = highest sequence seen + 1 (0 before any frame), and a
 * bitmap of W = 2^window_log2 bits in which bit (s mod W) says whether s
 * was received, for s in the window [next - W, next).  Each frame is
 * exactly one of:
 *
 *   - new in order: s >= next.  The bits of next .. s - 1 (whose old
 *     owners leave the window) are cleared, s is set, next = s + 1.  A jump
 *     of W or more clears the whole bitmap at once (a memset of W / 8 bytes,
 *     paid only after at least W frames were skipped);
 *   - duplicated: s in the window with its bit set (seen before);
 *   - reordered (late): s in the window, bit clear: a higher sequence had
 *     already arrived.  It is set and counted as received, so not lost;
 *   - too_old: s < next - W.  It is late, so it is also counted in
 *     reordered, but its bit is gone and whether it is a duplicate cannot be
 *     known: it is counted as distinct.  If it was in fact a duplicate,
 *     lost is under-counted by one; size the window for the reordering depth
 *     of the device under test (65536 frames is 13 ms at 5 Mpps).
 *
 * So rx_pkts = distinct + duplicated, too_old <= reordered <= distinct, and
 * lost = sent - distinct, clamped at 0 (exact whenever no too_old frame was
 * a duplicate and no frame carried a sequence >= sent).
 *
 * Cost per frame: O(1), no division (the window is a power of two); a jump
 * forward over g sequence numbers costs O(min(g, W) / 64) word writes, paid
 * for by the g lost or late frames.  The in-order case is inline.
 * Sequence UINT64_MAX is not supported (next would wrap; 2^64 frames take
 * 100000 years at 5 Mpps).
 *
 * Threads: one writer (the RX lcore) calls wr_seq_record(); any thread may
 * call wr_seq_finish() at any time (counters are read with atomic loads).
 * During a run, lost also counts frames still in flight.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Window bounds: one 64-bit word at least; 2^24 bits = 2 MiB at most. */
#define WR_SEQ_WINDOW_LOG2_MIN 6
#define WR_SEQ_WINDOW_LOG2_MAX 24
/** 65536 frames: 13 ms of reordering at 5 Mpps, in an 8 KiB bitmap. */
#define WR_SEQ_WINDOW_LOG2_DEFAULT 16

struct wr_seq {
	/* Counters, written by the owner only, loaded atomically by readers. */
	uint64_t rx_pkts;
	uint64_t distinct;
	uint64_t reordered;
	uint64_t duplicated;
	uint64_t too_old;
	/* Window. */
	uint64_t next;   /**< highest sequence seen + 1; 0 before any */
	uint64_t mask;   /**< W - 1 */
	uint64_t *bitmap; /**< W bits */
	unsigned int window_log2;
	bool own_mem;    /**< bitmap allocated by wr_seq_init() */
};

struct wr_seq_result {
	uint64_t rx_pkts;    /**< frames received */
	uint64_t distinct;   /**< different sequence numbers received */
	uint64_t lost;       /**< sent - distinct, never negative */
	uint64_t reordered;  /**< late frames (too_old included) */
	uint64_t duplicated; /**< frames whose sequence was seen before */
	uint64_t too_old;    /**< late by W or more: counted as distinct */
};

/**
 * Bytes of bitmap memory wr_seq_init() needs for a window of 2^@p window_log2.
 * @return the size (a multiple of 8), or 0 if @p window_log2 is out of
 *         [WR_SEQ_WINDOW_LOG2_MIN, WR_SEQ_WINDOW_LOG2_MAX].
 */
size_t wr_seq_mem_size(unsigned int window_log2);

/**
 * Initialise a tracker with a window of 2^@p window_log2 frames.
 * @param s            tracker
 * @param window_log2  in [WR_SEQ_WINDOW_LOG2_MIN, WR_SEQ_WINDOW_LOG2_MAX]
 * @param mem          wr_seq_mem_size() bytes, 8-byte aligned, owned by the
 *                     caller (e.g. rte_zmalloc_socket() on the RX lcore's
 *                     node) and outliving @p s; or NULL to have it
 *                     allocated here (freed by wr_seq_free()).
 * @return 0; -EINVAL for a bad window; -ENOMEM.
 */
int wr_seq_init(struct wr_seq *s, unsigned int window_log2, void *mem);

/** Forget everything received (a new trial); keeps the window.  Owner only. */
void wr_seq_reset(struct wr_seq *s);

/** Release what wr_seq_init() allocated.  @p s may be re-initialised after. */
void wr_seq_free(struct wr_seq *s);

/* Out-of-line part of wr_seq_record(): anything but the next in order. */
void wr_seq_record_slow_(struct wr_seq *s, uint64_t seq);

/**
 * Account one received frame of sequence @p seq.  Owner only.
 */
static inline void
wr_seq_record(struct wr_seq *s, uint64_t seq)
{
	if (__builtin_expect(seq == s->next, 1)) {
		/* The bit of seq held seq - W, which leaves the window. */
		s->bitmap[(seq & s->mask) >> 6] |= 1ull << (seq & 63);
		s->next = seq + 1;
		__atomic_store_n(&s->rx_pkts, s->rx_pkts + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&s->distinct, s->distinct + 1, __ATOMIC_RELAXED);
		return;
	}
	wr_seq_record_slow_(s, seq);
}

/**
 * Account @p n frames received in order, sequences next .. next + n - 1:
 * what wr_seq_record() of each does, their bits set a word at a time and
 * the counters written once (a receive queue's run of one lane in a
 * burst).  Owner only.
 */
static inline void
wr_seq_record_run(struct wr_seq *s, uint64_t n)
{
	uint64_t seq = s->next, end = s->next + n, k;
	unsigned int b;

	while (seq < end) {
		/* Bits b .. b + k - 1 of one word (the window has 64 bits
		 * at least, whole words). */
		b = (unsigned int)(seq & 63);
		k = end - seq < 64 - b ? end - seq : 64 - b;
		s->bitmap[(seq & s->mask) >> 6] |=
			(k == 64 ? ~0ull : (1ull << k) - 1) << b;
		seq += k;
	}
	s->next = end;
	__atomic_store_n(&s->rx_pkts, s->rx_pkts + n, __ATOMIC_RELAXED);
	__atomic_store_n(&s->distinct, s->distinct + n, __ATOMIC_RELAXED);
}

/**
 * wr_seq_record() with the frames that come in order held back in
 * *@p run (a count, 0 at first) for wr_seq_record_run(): the caller flushes
 * them, wr_seq_record_run(s, *run) and *run = 0, before it reads @p s or
 * records into it otherwise.  The receive loop keeps *@p run in a register,
 * and an in-order frame costs one compare.  Owner only.
 */
static inline void
wr_seq_record_lazy(struct wr_seq *s, uint64_t *run, uint64_t seq)
{
	if (__builtin_expect(seq == s->next + *run, 1)) {
		(*run)++;
		return;
	}
	if (*run != 0) {
		wr_seq_record_run(s, *run);
		*run = 0;
	}
	wr_seq_record(s, seq);
}

/**
 * Account @p n frames (n >= 1) of sequences @p seq .. @p seq + n - 1, in
 * that order: exactly what wr_seq_record() of each does, the frames below
 * next classified a bitmap word at a time (a receive queue's burst of one
 * lane whose sequences follow each other, but not from next: a device that
 * repeats or reorders blocks of frames).  Owner only.
 */
void wr_seq_record_block(struct wr_seq *s, uint64_t seq, uint64_t n);

/**
 * Counters, with lost computed against @p sent frames.  Any thread.
 * @param s     tracker
 * @param sent  frames sent on the stream (sequence numbers 0 .. sent - 1)
 * @param res   receives the counters
 */
void wr_seq_finish(const struct wr_seq *s, uint64_t sent,
		   struct wr_seq_result *res);

#endif /* WR_SEQ_H */

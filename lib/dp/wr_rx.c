/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rx: signature recognition and per-stream RX accounting. */
#include <errno.h>
#include <string.h>


#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#if defined(RTE_ARCH_X86)
#include <emmintrin.h>
#endif
#include <rte_mbuf_dyn.h>

#include "wr_bpf.h"
#include "wr_capture_port.h"
#include "wr_frame.h"
#include "wr_pkt.h"
#include "wr_rx.h"
#include "wr_sig.h"
#include "wr_clock_eal.h"

/* wr_cap_rx() takes a received burst whole. */
_Static_assert(WR_RX_BURST <= WR_CAP_RX_BURST_MAX,
	       "an RX burst larger than a capture takes");

void
wr_rx_sig_offs_add(struct wr_rxq *q, uint16_t off, int kind)
{
	unsigned int k;

	if (off == 0)
		return;
	if (kind == WR_SIG_KIND_COMPACT)
		q->has_compact = true;
	for (k = 0; k < q->n_sig_off; k++)
		if (q->sig_off[k] == off)
			return;
	if (q->n_sig_off < WR_RX_SIG_OFFS_MAX)
		q->sig_off[q->n_sig_off++] = off;
}

/* Frames up to this length are scanned for a magic before the walk. */
#define SCAN_MAX 256

/*
 * Whether @p p (@p len bytes, at most SCAN_MAX) holds "WRs", how both
 * signatures' magic begins, at a place a signature could start: after the
 * Ethernet header, 16 bytes at least before the end.  A frame without it
 * carries no signature whatever its headers say, so the walk is spared.
 */
static inline bool
maybe_sig(const uint8_t *p, uint32_t len)
{
	uint32_t o, end;

	if (len < RTE_ETHER_HDR_LEN + WR_SIG_SHORT_LEN)
		return false;
	end = len - WR_SIG_SHORT_LEN; /* the last place */
#if defined(RTE_ARCH_X86)
	/* Most frames have no 'W' after the Ethernet header at all: one
	 * compare for 16 bytes, the last 16 loaded again where they overlap
	 * (measured, cachegrind, in-process net_ring, 60-byte UDP frames
	 * through three rx_classes: wr_rx_poll 113 instructions a frame with
	 * three compares in each of two windows of 16 places, 90 with
	 * this). */
	const __m128i w = _mm_set1_epi8('W');
	/* Bytes 14..29 and the last 16: all of a frame up to 46 bytes. */
	__m128i any = _mm_or_si128(
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)
					       (p + RTE_ETHER_HDR_LEN)), w),
		_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)
					       (p + len - 16)), w));

	for (o = RTE_ETHER_HDR_LEN + 16; o + 16 < len; o += 16)
		any = _mm_or_si128(any, _mm_cmpeq_epi8(_mm_loadu_si128(
				(const __m128i *)(p + o)), w));
	if (_mm_movemask_epi8(any) == 0)
		return false;
#endif
	for (o = RTE_ETHER_HDR_LEN; o <= end; o++)
		if (p[o] == 'W' && p[o + 1] == 'R' && p[o + 2] == 's')
			return true;
	return false;
}

/*
 * The signature of a received frame: at one of the offsets where the
 * streams put it, when a signature's magic is there (one 4-byte compare
 * each: frames as they were sent, or with their addresses and ports
 * rewritten), else where the walk over the registry finds it (a device
 * that pushed a tag, a stream beyond the offsets kept).  A magic at a
 * stream's offset is taken as what it says without the walk: four bytes
 * "WRsg", "WRsc" or "WRsl" exactly where a stream's signature sits.
 * @return wr_sig_decode_any()'s.
 */
static inline int
sig_find(const struct wr_rxq *q, const uint8_t *p, uint32_t len,
	 struct wr_sig *sig)
{
	unsigned int k;
	uint32_t magic;
	int off;

	/* The common case first: a full signature where the first stream
	 * puts it (measured, cachegrind: 7 instructions a frame fewer than
	 * through the loop and wr_sig_decode_any()). */
	if (likely(q->n_sig_off != 0)) {
		off = q->sig_off[0];
		if (likely(len >= (uint32_t)off + WR_SIG_LEN &&
			   wr_sig_decode(p + off, sig) == 0))
			return 0;
	}
	for (k = 0; k < q->n_sig_off; k++) {
		off = q->sig_off[k];
		if (len < (uint32_t)off + WR_SIG_SHORT_LEN)
			continue;
		magic = wr_get32(p + off);
		if (magic == WR_SIG_MAGIC || magic == WR_SIG_SHORT_MAGIC ||
		    magic == WR_SIG_COMPACT_MAGIC)
			return wr_sig_decode_any(p + off, len - (uint32_t)off,
						 sig);
	}
	if (len <= SCAN_MAX && !maybe_sig(p, len))
		return -1;
	off = wr_frame_sig_offset(p, len, &q->hints);
	if (off < 0)
		return -1;
	return wr_sig_decode_any(p + off, len - (uint32_t)off, sig);
}

int
wr_rxq_init(struct wr_rxq *q, uint16_t port_id, uint16_t queue_id,
	    uint16_t n_streams, const uint16_t *lanes, unsigned int n_classes,
	    int socket_id)
{
	uint16_t s, l;

	memset(q, 0, sizeof(*q));
	q->port_id = port_id;
	q->queue_id = queue_id;
	q->n_streams = n_streams;
	wr_latency_tsc_init(&q->tsc, wr_tsc_hz());
	q->streams = rte_zmalloc_socket("wr_rxq", (n_streams ? n_streams : 1) *
					sizeof(void *), RTE_CACHE_LINE_SIZE,
					socket_id);
	if (q->streams == NULL)
		return -ENOMEM;
	if (n_classes > 0) {
		q->class_count = rte_zmalloc_socket("wr_rxq_classes",
				n_classes * sizeof(*q->class_count),
				RTE_CACHE_LINE_SIZE, socket_id);
		if (q->class_count == NULL)
			goto nomem;
	}
	for (s = 0; s < n_streams; s++) {
		struct wr_rx_stream *rs;

		if (lanes[s] == 0)
			continue;
		rs = rte_zmalloc_socket("wr_rx_stream", sizeof(*rs),
					RTE_CACHE_LINE_SIZE, socket_id);
		if (rs == NULL)
			goto nomem;
		q->streams[s] = rs;
		wr_latency_init(&rs->hist);
		wr_latency_jitter_init(&rs->jitter);
		rs->seq = rte_zmalloc_socket("wr_rx_seq",
					     lanes[s] * sizeof(*rs->seq),
					     RTE_CACHE_LINE_SIZE, socket_id);
		if (rs->seq == NULL)
			goto nomem;
		for (l = 0; l < lanes[s]; l++) {
			/* Bitmaps come from libc: wr_seq owns and frees them. */
			if (wr_seq_init(&rs->seq[l], WR_SEQ_WINDOW_LOG2_DEFAULT,
					NULL) != 0)
				goto nomem;
			rs->n_lanes = l + 1;
		}
	}
	return 0;
nomem:
	wr_rxq_fini(q);
	return -ENOMEM;
}

void
wr_rxq_fini(struct wr_rxq *q)
{
	uint16_t s, l;

	if (q == NULL)
		return;
	rte_free(q->class_count);
	q->class_count = NULL;
	if (q->streams == NULL)
		return;
	for (s = 0; s < q->n_streams; s++) {
		struct wr_rx_stream *rs = q->streams[s];

		if (rs == NULL)
			continue;
		if (rs->seq != NULL)
			for (l = 0; l < rs->n_lanes; l++)
				wr_seq_free(&rs->seq[l]);
		rte_free(rs->seq);
		rte_free(rs);
	}
	rte_free(q->streams);
	q->streams = NULL;
}

static inline void
count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* The in-order frames held back for @p sq (wr_seq_record_lazy()). */
static inline void
seq_put(struct wr_seq *sq, uint64_t *run)
{
	if (*run != 0) {
		wr_seq_record_run(sq, *run);
		*run = 0;
	}
}

/* The latency of a frame sent at @p tx and received at @p rx (TSC), in ns:
 * a mapped stamp a hair before the TX TSC (the map's error) is a latency
 * of 0, not of 2^64 ticks. */
static inline uint64_t
transit_ns(const struct wr_latency_tsc *c, uint64_t rx, uint64_t tx)
{
	return (int64_t)(rx - tx) > 0 ? wr_latency_tsc_to_ns(c, rx - tx) : 0;
}

/* A stream's jitter state kept in registers over a burst, written back
 * (j16 and n loaded atomically by readers, wr_latency.h). */
static inline void
jitter_put(struct wr_latency_jitter *j, uint64_t prev, uint64_t j16,
	   uint64_t n)
{
	j->prev = prev;
	__atomic_store_n(&j->j16, j16, __ATOMIC_RELAXED);
	__atomic_store_n(&j->n, n, __ATOMIC_RELAXED);
}

/*
 * Return a received burst to its pool.  A burst as PMDs hand them out
 * (each mbuf one segment, one reference, direct, of the first's pool:
 * what rte_mbuf_raw_free() requires, next being NULL in a one-segment
 * mbuf) goes back in one rte_mempool_put_bulk(); any other burst (a
 * capture holding references, chained or attached mbufs, several pools)
 * through rte_pktmbuf_free_bulk().  Why: rte_pktmbuf_free_bulk() takes
 * each mbuf apart (its next in the second cache line, the pool of the
 * pending ones compared one by one): 40 instructions a frame against 13
 * for this test (cachegrind), and on net_pcap 1.13x the frames a second
 * with latency on every frame and with three rx_classes (wr-bench-rx
 * --ref).  A reference read as 1 is ours alone: no other owner can take
 * one more.
 */
static inline void
rx_free(struct rte_mbuf **m, uint16_t n)
{
	static const uint16_t ones[2] = { 1, 1 };
	const uintptr_t mp = (uintptr_t)m[0]->pool;
	uint32_t one_one, rs;
	uint64_t odd = 0;
	uint16_t i;

	/* refcnt and nb_segs in one load, against both 1 in one compare. */
	RTE_BUILD_BUG_ON(offsetof(struct rte_mbuf, nb_segs) !=
			 offsetof(struct rte_mbuf, refcnt) + sizeof(uint16_t));
	memcpy(&one_one, ones, sizeof(one_one));
	for (i = 0; i < n; i++) {
		memcpy(&rs, &m[i]->refcnt, sizeof(rs));
		odd |= (rs ^ one_one) |
			(m[i]->ol_flags & (RTE_MBUF_F_INDIRECT |
					   RTE_MBUF_F_EXTERNAL)) |
			((uintptr_t)m[i]->pool ^ mp);
	}
	if (likely(odd == 0))
		rte_mempool_put_bulk(m[0]->pool, (void **)m, n);
	else
		rte_pktmbuf_free_bulk(m, n);
}

/* A frame without a signature: the first class whose filter takes it, or
 * -1 (rx_foreign). */
static inline int
classify(const struct wr_rxq *q, struct rte_mbuf *m)
{
	unsigned int c;
	uint64_t r;

	if (likely(q->class_all != NULL)) {
		/* 1 + the class, n_classes + 1 for none; 0: stopped on a
		 * load beyond the frame, which filter's is not known. */
		r = wr_bpf_exec(q->class_all, m);
		if (likely(r != 0))
			return r <= q->n_classes ? (int)r - 1 : -1;
	}
	for (c = 0; c < q->n_classes; c++)
		if (wr_bpf_run(&q->classes[c], m))
			return (int)c;
	return -1;
}

/*
 * The burst a device under test returns most: frames of one lane of one
 * stream, sequences following each other, each with a full signature (or
 * each with a compact one: @p compact) at the first stream offset, stamped
 * by software (@p now).  Accounts the frames from the first while they are
 * so, as the general loop would, and returns how many (0 when the first is
 * not one): the general loop takes the rest.
 *
 * Why a loop of its own: the general one keeps a dozen variables across a
 * frame (the stream and lane of the one before, the run, the classes'
 * counts...) that GCC spills, and each signed frame passes the magic,
 * stream and lane lookups.  Here a frame is three loads from its signature,
 * two compares, and its latency; the lane's sequence is recorded once for
 * the block (wr_seq_record_block(): frames a device repeats or reorders a
 * block at a time cost no more).  Out of line: inlined, it cost frames
 * without a signature (rx_classes) 1.7 instructions each (cachegrind).
 * One body for both signatures, @p compact a constant in each copy, so the
 * full one's loop is the one it was.
 */
static __rte_always_inline uint16_t
rx_block_of(const struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t n,
	    uint64_t now, uint64_t *bytes, const bool compact)
{
	static const uint8_t head6[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	const uint32_t off = q->sig_off[0];
	const uint32_t len = compact ? WR_SIG_COMPACT_LEN : WR_SIG_LEN;
	const uint8_t *p = rte_pktmbuf_mtod(pkts[0], const uint8_t *);
	uint64_t t[WR_RX_BURST];
	struct wr_latency_batch lb;
	struct wr_latency_jitter *j;
	struct wr_rx_stream *rs;
	struct wr_seq *sq;
	struct wr_sig sig;
	uint64_t key, km = ~0ull, w, seq, prev, j16, sum = 0;
	uint16_t s, lane, i, k;

	if (rte_pktmbuf_data_len(pkts[0]) < off + len ||
	    (compact ? wr_sig_decode_any(p + off, len, &sig) !=
		       WR_SIG_KIND_COMPACT :
		       wr_sig_decode(p + off, &sig) != 0))
		return 0;
	s = WR_SIG_STREAM(sig.stream_id);
	lane = WR_SIG_LANE(sig.stream_id);
	if (s >= q->n_streams || (rs = q->streams[s]) == NULL ||
	    lane >= rs->n_lanes)
		return 0; /* the general loop counts it */
	sq = &rs->seq[lane];
	/* The magic and the stream's id as they are on the wire: all eight
	 * bytes of the full one's, the compact one's first six (then its
	 * sequence begins). */
	memcpy(&key, p + off, sizeof(key));
	if (compact) {
		memcpy(&km, head6, sizeof(km));
		key &= km;
		sig.seq = wr_sig_extend48(sig.seq, sq->next);
	}
	/* Two passes, each with what it needs in registers (one loop doing
	 * all spilled most of its state to the stack): which frames are of
	 * the block, then their latencies and the jitter. */
	for (i = 0, seq = sig.seq; i < n; i++, seq++) {
		const struct rte_mbuf *m = pkts[i];

		/* No prefetch: the pass reads one line of a frame and does
		 * little else, so the core has several frames' loads in
		 * flight of its own.  One frame ahead cost 7 instructions a
		 * frame (cachegrind); without it, no difference in cycles
		 * showed on net_pcap (wr-bench-rx --ref, 1.01x). */
		p = rte_pktmbuf_mtod(m, const uint8_t *);
		if (unlikely(rte_pktmbuf_data_len(m) < off + len))
			break;
		memcpy(&w, p + off, sizeof(w));
		if (compact) {
			if (unlikely(((w & km) != key) ||
				     (wr_get64(p + off + 4) &
				      WR_SIG_COMPACT_MASK) !=
				     (seq & WR_SIG_COMPACT_MASK)))
				break;
			/* The TX TSC's low 48 bits, for now. */
			t[i] = wr_get64(p + off + 10) & WR_SIG_COMPACT_MASK;
		} else {
			if (unlikely(w != key || wr_get64(p + off + 8) != seq))
				break;
			t[i] = wr_get64(p + off + 16); /* the TX TSC, for now */
		}
		sum += rte_pktmbuf_pkt_len(m);
	}
	k = i;
	if (k == 0)
		return 0;
	if (sig.seq == sq->next)
		wr_seq_record_run(sq, k);
	else
		wr_seq_record_block(sq, sig.seq, k);
	wr_latency_batch_reset(&lb);
	{
		const struct wr_latency_tsc tsc = q->tsc;

		/* A compact TX TSC's high bits are the receive TSC's, or
		 * one less (wr_sig_extend48()), put back in the pass that
		 * uses it. */
#define RX_TX_TSC(x) (compact ? wr_sig_extend48((x), now) : (x))
		j = &rs->jitter;
		j16 = j->j16;
		/* The stream's first frame has no jitter (no frame before): a
		 * step from itself, with j16 still 0, leaves it 0. */
		prev = j->n != 0 ? j->prev :
			transit_ns(&tsc, now, RX_TX_TSC(t[0]));
		for (i = 0; i < k; i++) {
			uint64_t transit = transit_ns(&tsc, now, RX_TX_TSC(t[i]));

			wr_latency_batch_add(&lb, transit);
			j16 = wr_latency_jitter_step(j16, prev, transit);
			prev = transit;
		}
#undef RX_TX_TSC
	}
	wr_latency_batch_flush(&rs->hist, &lb);
	jitter_put(j, prev, j16, j->n + k);
	*bytes += sum;
	return k;
}

/* rx_block_of() for frames with the compact signature (64-byte UDP). */
static __rte_noinline uint16_t
rx_block_compact(const struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t n,
		 uint64_t now, uint64_t *bytes)
{
	return rx_block_of(q, pkts, n, now, bytes, true);
}

/* rx_block_of() for the full signature (the same code as before the
 * compact one: its fallback is the caller's, not in here). */
static __rte_noinline uint16_t
rx_block(const struct wr_rxq *q, struct rte_mbuf **pkts, uint16_t n,
	 uint64_t now, uint64_t *bytes)
{
	return rx_block_of(q, pkts, n, now, bytes, false);
}

/* Out of line: most polls never come here. */
__rte_noinline void
wr_rx_hosts_send(struct wr_rxq *q)
{
	struct rte_mbuf *m[WR_RX_BURST];
	unsigned int n;
	uint16_t sent;

	n = rte_ring_sc_dequeue_burst(q->hosts_out, (void **)m, WR_RX_BURST,
				      NULL);
	if (n == 0)
		return;
	sent = rte_eth_tx_burst(q->port_id, q->hosts_txq, m, (uint16_t)n);
	if (sent < n) {
		rte_pktmbuf_free_bulk(m + sent, n - sent);
		count(&q->hosts_tx_drop, n - sent);
	}
}

/*
 * The RX hot loop (measured: tools/wr-bench-rx).  It stays one function
 * because the run of one (stream, lane) is carried from frame to frame in
 * locals (rs, sq, run, the jitter state) that the compiler keeps in
 * registers; split into calls, they would go through memory per frame.
 * wr-check-layout: hot loop, measured
 */
uint16_t
wr_rx_poll(struct wr_rxq *q)
{
	struct rte_mbuf *pkts[WR_RX_BURST], *fwd[WR_RX_BURST];
	uint16_t n, i, ours = 0, foreign = 0, bad = 0, n_fwd = 0, n_free;
	uint16_t n_hw = 0;
	uint64_t ours_bytes = 0;
	struct wr_clock_map map = { 0, 0, 0 };
	/* The stream and lane of the frame before: a burst is mostly runs
	 * of one, whose latencies go to its histogram at once. */
	struct wr_rx_stream *rs = NULL;
	struct wr_seq *sq = NULL;
	uint32_t cur_id = 0;
	struct wr_latency_batch lb;
	/* What is pending for them, in registers rather than written back a
	 * frame at a time: the run of sq's frames in order
	 * (wr_seq_record_lazy()) and rs's RFC 3550 jitter state (measured,
	 * cachegrind, wr_rx_poll on net_ring: 159 instructions a signed
	 * frame before, 152 after). */
	uint64_t run = 0, j_prev = 0, j16 = 0, j_n = 0;
	uint64_t t0, now, rx_tsc;
	unsigned int k;
	bool hw;

	/* The load figures need the time from before the call: an empty
	 * poll pays one TSC read, idle time anyway. */
	t0 = rte_rdtsc();
	if (unlikely(q->hosts_out != NULL))
		wr_rx_hosts_send(q);
	n = rte_eth_rx_burst(q->port_id, q->queue_id, pkts, WR_RX_BURST);
	count(&q->polls, 1);
	if (n == 0)
		return 0;
	/* The frames' receive time: after the call, so that none is
	 * stamped before it reached the ring (a latency never reads low). */
	now = rte_rdtsc();
	hw = q->hwts && wr_clock_pub_get(q->clock, &map) == 0;
	/* Before any frame is accounted or handed on: the capture sees the
	 * burst whole, and only copies (wr_capture_port.h). */
	if (unlikely(__atomic_load_n(&q->n_caps, __ATOMIC_ACQUIRE) != 0))
		for (k = 0; k < WR_CAPTURES_MAX; k++) {
			struct wr_cap *cap = __atomic_load_n(&q->caps[k],
							     __ATOMIC_ACQUIRE);

			if (cap != NULL)
				wr_cap_rx(cap, q->queue_id, pkts, n, now,
					  hw ? &map : NULL, q->hwts_off,
					  q->hwts_flag);
		}
	/* The common burst first (rx_block()); the rest, from the first
	 * frame that is not of it, through the loop for every kind. */
	i = 0;
	if (likely(q->n_sig_off != 0) && !hw) {
		i = rx_block(q, pkts, n, now, &ours_bytes);
		if (i == 0 && unlikely(q->has_compact))
			i = rx_block_compact(q, pkts, n, now, &ours_bytes);
		ours = i;
	}
	wr_latency_batch_reset(&lb);
	for (; i < n; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(pkts[i], const uint8_t *);
		struct wr_sig sig;
		uint64_t transit;
		int kind, c;

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		kind = sig_find(q, p, rte_pktmbuf_data_len(pkts[i]), &sig);
		if (kind < 0) {
			if (q->n_classes > 0 &&
			    (c = classify(q, pkts[i])) >= 0) {
				struct wr_rx_class_count *cc =
					&q->class_count[c];

				count(&cc->pkts, 1);
				count(&cc->bytes, rte_pktmbuf_pkt_len(pkts[i]));
			} else {
				foreign++;
			}
			/* The hosts' service takes it over (wr_host_svc.h:
			 * a capture's reference is left as it is: the
			 * service answers into a copy then). */
			if (unlikely(q->hosts != NULL)) {
				fwd[n_fwd++] = pkts[i];
				pkts[i] = NULL;
			}
			continue;
		}
		if (sq == NULL || sig.stream_id != cur_id) {
			uint16_t s = WR_SIG_STREAM(sig.stream_id);
			uint16_t lane = WR_SIG_LANE(sig.stream_id);
			struct wr_rx_stream *r;

			if (s >= q->n_streams || (r = q->streams[s]) == NULL ||
			    lane >= r->n_lanes) {
				bad++;
				continue;
			}
			if (r != rs) {
				if (rs != NULL) {
					wr_latency_batch_flush(&rs->hist, &lb);
					jitter_put(&rs->jitter, j_prev, j16,
						   j_n);
				}
				rs = r;
				j_prev = r->jitter.prev;
				j16 = r->jitter.j16;
				j_n = r->jitter.n;
			}
			if (sq != NULL)
				seq_put(sq, &run);
			sq = &r->seq[lane];
			cur_id = sig.stream_id;
		}
		ours++;
		/* pkt_len sits in the mbuf's first cache line, read already
		 * for the data pointer. */
		ours_bytes += rte_pktmbuf_pkt_len(pkts[i]);
		/* A compact signature's sequence: the one nearest the
		 * lane's next (wr_sig.h). */
		if (unlikely(kind == WR_SIG_KIND_COMPACT))
			sig.seq = wr_sig_extend48(sig.seq, sq->next + run);
		wr_seq_record_lazy(sq, &run, sig.seq);
		if (kind == WR_SIG_KIND_SHORT)
			continue; /* loss-only signature: no TX time */
		rx_tsc = now;
		if (hw && (pkts[i]->ol_flags & q->hwts_flag)) {
			rx_tsc = wr_clock_to_tsc(&map, *RTE_MBUF_DYNFIELD(
				pkts[i], q->hwts_off, rte_mbuf_timestamp_t *));
			n_hw++;
		}
		if (unlikely(kind == WR_SIG_KIND_COMPACT))
			sig.tx_tsc = wr_sig_extend48(sig.tx_tsc, rx_tsc);
		transit = transit_ns(&q->tsc, rx_tsc, sig.tx_tsc);
		wr_latency_batch_add(&lb, transit);
		if (j_n != 0)
			j16 = wr_latency_jitter_step(j16, j_prev, transit);
		j_prev = transit;
		j_n++;
	}
	if (rs != NULL) {
		wr_latency_batch_flush(&rs->hist, &lb);
		jitter_put(&rs->jitter, j_prev, j16, j_n);
	}
	if (sq != NULL)
		seq_put(sq, &run);
	n_free = n;
	if (unlikely(n_fwd > 0)) {
		for (i = 0, n_free = 0; i < n; i++)
			if (pkts[i] != NULL)
				pkts[n_free++] = pkts[i];
	}
	if (n_free != 0)
		rx_free(pkts, n_free);
	if (unlikely(n_fwd > 0))
		wr_rx_to_hosts(q, fwd, n_fwd);
	count(&q->rx_pkts, n);
	if (n_hw)
		count(&q->rx_hwts, n_hw);
	if (ours) {
		count(&q->rx_ours, ours);
		count(&q->rx_ours_bytes, ours_bytes);
	}
	if (foreign)
		count(&q->rx_foreign, foreign);
	if (bad)
		count(&q->rx_bad_sig, bad);
	count(&q->busy_polls, 1);
	count(&q->busy_tsc, rte_rdtsc() - t0);
	return n;
}

uint32_t
wr_rx_drain(struct wr_rxq *q, unsigned int max_bursts)
{
	uint32_t total = 0;
	uint16_t n;

	while (max_bursts-- > 0) {
		n = wr_rx_poll(q);
		total += n;
		if (n < WR_RX_BURST)
			break;
	}
	return total;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rx: the RX side: recognise echoed signatures, account loss, reorder, duplicates and latency. */
#ifndef WR_RX_H
#define WR_RX_H

/**
 * @file
 * One struct wr_rxq per polled (port, queue), owned by one lcore (which may
 * also be a TX lcore: on a 2-CPU machine TX and RX share the worker).  For
 * every stream with a latency signature it keeps, per TX lane, a sequence
 * tracker (wr_seq) and, per stream, a latency histogram (wr_latency) and the
 * RFC 3550 jitter.
 *
 * Several queues of one port (rx_lcores) each keep their own trackers, and
 * whoever reads them merges (wr_engine_run.c): nothing is shared between RX
 * lcores, so the hot path takes no lock and no atomic read-modify-write.
 * The merge is exact for what wirerate reports: received and duplicated are
 * sums; distinct is the sum of each queue's distinct sequence numbers, so
 * lost = sent - distinct holds when one lane's frames spread over several
 * queues (RSS over varying fields); histograms add bucket by bucket.  Two
 * things are defined per queue (doc/rx.md): a frame is reordered when a
 * later frame of its lane had already arrived on the same queue (frames on
 * different queues have no order: the NIC gives none, and each queue is
 * polled by its own lcore), and a duplicate is a second copy on the same
 * queue (a device's copy of a frame hashes to the queue of the original;
 * one that arrives on another queue is counted as received twice and
 * hides one lost frame).  Jitter is each queue's RFC 3550 estimate,
 * averaged weighted by frames.
 *
 * Frames without a signature are counted per class (rx_classes, the
 * first class whose filter matches, run as JIT-compiled eBPF) or in
 * rx_foreign.  A capture (wr_capture_port.h) attached to the queue sees every frame
 * before it is accounted.
 *
 * A frame is ours when it carries a signature (wr_sig.h: the full, compact
 * or loss-only one) where a template puts it, after the last header its
 * stack writes, whatever the stack (any the protocol registry knows) and
 * whatever a reflector did to MAC and IP addresses and ports.  It is looked
 * for first at the offsets where this queue's streams put it (one 4-byte
 * compare each: wr_rx_sig_offs_add()), then after the last header the
 * registry's walk recognises (wr_frame_sig_offset(): a device that pushed
 * a tag, a stream beyond the offsets kept; a frame of up to 256 bytes is
 * walked only when it holds the magics' first bytes at all).  Everything else counts in rx_foreign; a
 * signature naming a stream or lane we do not have counts in rx_bad_sig.
 *
 * Timestamps: where the port stamps received frames in hardware, the
 * stamp, mapped onto the TSC (wr_clock.h), is the RX time; otherwise the
 * TSC is read once per burst, right after rte_eth_rx_burst returned it, so
 * that no frame is stamped before it reached the ring (a latency never
 * reads low).  Latency then includes the time the frame waited in the RX
 * ring before the poll that found it (at most one poll interval).  Either
 * is compared with the TX TSC in the signature (same host, same TSC).  A
 * TSC read before the call only measures the lcore's load (polls, busy
 * time), never a frame.
 *
 * Threads: wr_rx_poll() on the owning lcore only.  The stats lcore reads
 * counters with atomic loads (wr_seq_finish, the rxq counters) while the run
 * goes on, and everything after the lcore stopped.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "wr_clock.h"
#include "wr_latency.h"
#include "wr_capture.h"
#include "wr_pkt.h"
#include "wr_seq.h"

#define WR_RX_BURST 32
/** Signature offsets an RX queue tries before the walk (wr_rxq.sig_off). */
#define WR_RX_SIG_OFFS_MAX 4

struct wr_bpf;
struct wr_cap;

/** Per stream, on one RX queue. */
struct wr_rx_stream {
	/* What every frame reads first, in one cache line, the histogram's
	 * 31 KiB after it. */
	uint16_t n_lanes;
	struct wr_seq *seq;        /**< n_lanes trackers */
	struct wr_latency_jitter jitter;
	struct wr_latency hist;
} __rte_cache_aligned;

/** Frames and bytes of one rx_classes class on one queue. */
struct wr_rx_class_count {
	uint64_t pkts;
	uint64_t bytes;            /**< as received (pkt_len, FCS excluded) */
};

struct wr_rxq {
	uint16_t port_id;
	uint16_t queue_id;
	unsigned int lcore_id;     /**< the lcore that polls it */
	uint64_t rx_pkts;          /**< every frame received */
	uint64_t rx_ours;          /**< frames with a valid signature */
	uint64_t rx_ours_bytes;    /**< their bytes as received (pkt_len: all
				    *   segments, FCS excluded) */
	uint64_t rx_foreign;       /**< frames without a signature */
	uint64_t rx_bad_sig;       /**< signature of an unknown stream/lane */
	struct wr_latency_tsc tsc;
	uint16_t n_streams;
	struct wr_rx_stream **streams; /**< by stream index; NULL: no latency */
	/** The hosts' ring (wr_host_svc.h: the emulated hosts and the
	 * port's responder): frames without a signature go there in one
	 * burst per poll (the service owns them from then on); NULL: they
	 * are only counted.  Set before the lcore starts. */
	struct rte_ring *hosts;
	uint64_t rx_host_drop;     /**< frames the hosts' ring had no room for */
	/** The hosts' frames this lcore sends for them, on its TX queue
	 * @c hosts_txq of the port, at each poll (a port without a spare
	 * TX queue: wr_host_svc.h); NULL: none.  Set before the lcore
	 * starts. */
	struct rte_ring *hosts_out;
	uint16_t hosts_txq;
	uint64_t hosts_tx_drop;    /**< of them, what the NIC did not take */
	/**
	 * Hardware RX timestamps: when the port stamps frames
	 * (RTE_ETH_RX_OFFLOAD_TIMESTAMP), a stamped frame's RX time is its
	 * stamp mapped onto the TSC through @p clock, which the main lcore
	 * refits (wr_clock.h); an unstamped frame falls back to the TSC read
	 * after rx_burst returned frames.  Set before the lcore starts.
	 */
	bool hwts;
	int hwts_off;              /**< mbuf dynfield offset of the stamp */
	uint64_t hwts_flag;        /**< ol_flags bit of a stamped mbuf */
	const struct wr_clock_pub *clock;
	uint64_t rx_hwts;          /**< signature frames timed by their stamp */
	/* The lcore's load on this queue (JSON rx_queues[]): every
	 * rx_burst call, those that returned frames, and the TSC ticks from
	 * before such a call to the end of its accounting. */
	uint64_t polls;
	uint64_t busy_polls;
	uint64_t busy_tsc;
	/** rx_classes: n_classes JIT-compiled filters run, in order, on each
	 * frame without a signature; set before the lcore starts.  When
	 * @p class_all is set (wr_filter_merge(): all of them as one
	 * program), a frame takes one call of it, and the filters one by one
	 * only when it stopped on a load beyond the frame. */
	unsigned int n_classes;
	const struct wr_bpf *classes;
	const struct wr_bpf *class_all;
	struct wr_rx_class_count *class_count; /**< n_classes entries */
	/** Captures of what this queue receives, by the engine's capture
	 * index (NULL: none), and how many there are.  Published and
	 * withdrawn by the main lcore while the lcore runs (one acquire load
	 * of n_caps per burst), freed only after the lcore passed a
	 * quiescent point. */
	uint32_t n_caps;
	struct wr_cap *caps[WR_CAPTURES_MAX];
	/** The raw layers of the streams' frames (wr_pkt.h): where the
	 * signature is after one.  Set before the lcore starts. */
	struct wr_pkt_hints hints;
	/** Where the streams' signatures sit in the frames they send (from
	 * their templates, wr_rx_sig_offs_add()): a frame with a signature's
	 * magic at one of them is read there, one 4-byte compare instead of
	 * the walk over the registry.  Set before the lcore starts. */
	uint8_t n_sig_off;
	/** A stream sends the compact signature (wr_sig.h): a burst whose
	 * first frame has no full one may be a block of compact ones. */
	bool has_compact;
	uint16_t sig_off[WR_RX_SIG_OFFS_MAX];
} __rte_cache_aligned;

/**
 * Set up @p q for @p n_streams streams, where @p lanes[s] is the number of
 * TX lanes of stream s, 0 for a stream without latency signature, and
 * @p n_classes class counters (wr_rxq.classes is set by the caller).
 * Memory comes from rte_zmalloc_socket on @p socket_id.
 * @return 0 or -ENOMEM.
 */
int wr_rxq_init(struct wr_rxq *q, uint16_t port_id, uint16_t queue_id,
		uint16_t n_streams, const uint16_t *lanes,
		unsigned int n_classes, int socket_id);

/**
 * Add @p off (a stream's wr_frame_tmpl_sig_off(), 0: none) to the offsets
 * @p q tries first.  Past WR_RX_SIG_OFFS_MAX distinct ones, the frames of
 * the others are found by the walk (the same result, more slowly).
 * @p kind is the stream's wr_frame_tmpl_sig_kind().
 */
void wr_rx_sig_offs_add(struct wr_rxq *q, uint16_t off, int kind);

/** Free what wr_rxq_init allocated.  NULL-safe. */
void wr_rxq_fini(struct wr_rxq *q);

/**
 * Receive one burst and account it; frees every mbuf.
 * @return the number of frames received.
 */
uint16_t wr_rx_poll(struct wr_rxq *q);

/**
 * Hand @p n frames received on @p q to the hosts' service (q->hosts, set:
 * wr_host_svc.h), which owns them from then on.  Never waits: what the
 * ring has no room for is freed and counted rx_host_drop.  The one way
 * every RX loop (wr_rx_poll(), wr_tcp_lcore.c) gives the service its
 * frames.
 */
static inline void
wr_rx_to_hosts(struct wr_rxq *q, struct rte_mbuf **fwd, unsigned int n)
{
	unsigned int k = rte_ring_enqueue_burst(q->hosts, (void **)fwd, n,
						NULL);

	if (unlikely(k < n)) {
		rte_pktmbuf_free_bulk(fwd + k, n - k);
		__atomic_store_n(&q->rx_host_drop, q->rx_host_drop + (n - k),
				 __ATOMIC_RELAXED);
	}
}

/**
 * The hosts' frames of a port without a spare TX queue (q->hosts_out,
 * wr_host_svc.h), sent on this lcore's TX queue q->hosts_txq: one burst
 * at most a call; what the NIC does not take is freed and counted
 * hosts_tx_drop.  Every lcore polling the port's first queue calls it
 * each poll.
 */
void wr_rx_hosts_send(struct wr_rxq *q);

/**
 * Bursts wr_rx_drain() takes at most per call: enough for everything one
 * TX turn can send (WR_BURST_MAX frames per stream, 512 = 16 bursts) to be
 * received in the same turn twice over, yet bounded so that a flood of
 * frames cannot starve the TX of a shared lcore.
 */
#define WR_RX_TURN_BURSTS 32

/**
 * Receive until the queue returns a short burst (it is empty for now), at
 * most @p max_bursts bursts; account everything as wr_rx_poll() does.
 *
 * Why: on a lcore that both sends and receives, one RX burst per TX turn
 * receives WR_RX_BURST frames while a turn may send up to the TX burst (64
 * by default): at a high rate the RX ring fills and the peer drops echoes
 * (measured: testpmd over memif dropped 17917 of 5 M frames at 5 Mpps).
 * @return the number of frames received.
 */
uint32_t wr_rx_drain(struct wr_rxq *q, unsigned int max_bursts);

#endif /* WR_RX_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rx: signature recognition and per-stream RX accounting. */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "wr_arpd.h"
#include "wr_bpf.h"
#include "wr_cap.h"
#include "wr_pkt.h"
#include "wr_rx.h"
#include "wr_sig.h"
#include "wr_tsc.h"

int
wr_rx_sig_offset(const uint8_t *p, uint32_t len, const struct wr_pkt_hints *hints)
{
	struct wr_pkt k;

	/* Where wr_frame puts it: after the last layer.  Room for the
	 * shorter, loss-only signature at least: which one is there, and
	 * whether a full one fits, is for the decoder. */
	if (wr_pkt_parse(p, len, hints, &k) < 0 ||
	    len < (uint32_t)k.pay_off + WR_SIG_SHORT_LEN)
		return -1;
	return k.pay_off;
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

/* A frame without a signature: the first class whose filter takes it, or
 * -1 (rx_foreign). */
static inline int
classify(const struct wr_rxq *q, struct rte_mbuf *m)
{
	unsigned int c;

	for (c = 0; c < q->n_classes; c++)
		if (wr_bpf_run(&q->classes[c], m))
			return (int)c;
	return -1;
}

uint16_t
wr_rx_poll(struct wr_rxq *q)
{
	struct rte_mbuf *pkts[WR_RX_BURST], *fwd[WR_RX_BURST];
	uint16_t n, i, ours = 0, foreign = 0, bad = 0, n_fwd = 0, n_free;
	uint16_t n_hw = 0;
	uint64_t ours_bytes = 0;
	struct wr_clock_map map = { 0, 0, 0 };
	uint64_t t0, now, rx_tsc;
	unsigned int k;
	bool hw;

	/* The load figures need the time from before the call: an empty
	 * poll pays one TSC read, idle time anyway. */
	t0 = rte_rdtsc();
	n = rte_eth_rx_burst(q->port_id, q->queue_id, pkts, WR_RX_BURST);
	count(&q->polls, 1);
	if (n == 0)
		return 0;
	now = rte_rdtsc();
	hw = q->hwts && wr_clock_pub_get(q->clock, &map) == 0;
	/* Before any frame is accounted or handed on: the capture sees the
	 * burst whole, and only copies (wr_cap.h). */
	if (unlikely(__atomic_load_n(&q->n_caps, __ATOMIC_ACQUIRE) != 0))
		for (k = 0; k < WR_CAPTURES_MAX; k++) {
			struct wr_cap *cap = __atomic_load_n(&q->caps[k],
							     __ATOMIC_ACQUIRE);

			if (cap != NULL)
				wr_cap_rx(cap, q->queue_id, pkts, n, now,
					  hw ? &map : NULL, q->hwts_off,
					  q->hwts_flag);
		}
	for (i = 0; i < n; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(pkts[i], const uint8_t *);
		struct wr_rx_stream *rs;
		struct wr_sig sig;
		uint16_t s, lane;
		uint64_t transit;
		int off, kind, c;

		if (i + 1 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 1], void *));
		off = wr_rx_sig_offset(p, rte_pktmbuf_data_len(pkts[i]), &q->hints);
		if (off < 0 || (kind = wr_sig_decode_any(p + off,
				rte_pktmbuf_data_len(pkts[i]) - (uint32_t)off,
				&sig)) < 0) {
			if (q->n_classes > 0 &&
			    (c = classify(q, pkts[i])) >= 0) {
				struct wr_rx_class_count *cc =
					&q->class_count[c];

				count(&cc->pkts, 1);
				count(&cc->bytes, rte_pktmbuf_pkt_len(pkts[i]));
			} else {
				foreign++;
			}
			/* The responder takes it over (answers or frees). */
			if (unlikely(q->arpd != NULL)) {
				fwd[n_fwd++] = pkts[i];
				pkts[i] = NULL;
			}
			continue;
		}
		s = WR_SIG_STREAM(sig.stream_id);
		lane = WR_SIG_LANE(sig.stream_id);
		if (s >= q->n_streams || (rs = q->streams[s]) == NULL ||
		    lane >= rs->n_lanes) {
			bad++;
			continue;
		}
		ours++;
		/* pkt_len sits in the mbuf's first cache line, read already
		 * for the data pointer. */
		ours_bytes += rte_pktmbuf_pkt_len(pkts[i]);
		wr_seq_record(&rs->seq[lane], sig.seq);
		if (kind == 1)
			continue; /* loss-only signature: no TX time */
		rx_tsc = now;
		if (hw && (pkts[i]->ol_flags & q->hwts_flag)) {
			rx_tsc = wr_clock_to_tsc(&map, *RTE_MBUF_DYNFIELD(
				pkts[i], q->hwts_off, rte_mbuf_timestamp_t *));
			n_hw++;
		}
		/* A mapped stamp a hair before the TX TSC (the map's error)
		 * is a latency of 0, not of 2^64 ticks. */
		transit = (int64_t)(rx_tsc - sig.tx_tsc) > 0 ?
			wr_latency_tsc_to_ns(&q->tsc, rx_tsc - sig.tx_tsc) : 0;
		wr_latency_record(&rs->hist, transit);
		wr_latency_jitter_update(&rs->jitter, transit);
	}
	n_free = n;
	if (unlikely(n_fwd > 0)) {
		for (i = 0, n_free = 0; i < n; i++)
			if (pkts[i] != NULL)
				pkts[n_free++] = pkts[i];
	}
	rte_pktmbuf_free_bulk(pkts, n_free);
	if (unlikely(n_fwd > 0))
		wr_arpd_input(q->arpd, fwd, n_fwd);
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

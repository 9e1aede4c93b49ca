/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_offload: which TX offloads a port uses, and which NIC counters mean TX drops, decided without EAL. */
#ifndef WR_OFFLOAD_H
#define WR_OFFLOAD_H

/**
 * @file
 * The data path asks a NIC for an offload only when it is offered and
 * cannot change what goes on the wire:
 *
 * - IPv4 and UDP checksums: our templates carry correct software checksums
 *   (wr_frame.h), so the frames are right without offload.  When the port
 *   offers both RTE_ETH_TX_OFFLOAD_IPV4_CKSUM and UDP_CKSUM, the mbufs are
 *   flagged (ol_flags, l2_len, l3_len) and each burst goes through
 *   rte_eth_tx_prepare(), which puts the fields in the form the NIC wants
 *   (IPv4 checksum 0, UDP checksum = pseudo-header sum, on Intel NICs); the
 *   NIC computes the same RFC 1071 checksums, so the wire bytes are
 *   identical either way.  One without the other is not used: a NIC that
 *   computes only the IPv4 checksum saves nothing over our incremental
 *   update.
 * - MBUF_FAST_FREE: the PMD may return mbufs to their pool in bulk without
 *   per-mbuf checks, which requires every mbuf of a TX queue to come from
 *   one mempool with refcnt 1.  Each (lcore, stream) has its own pool
 *   (wr_tx.h) and every stream of a port is sent on every TX queue of the
 *   port, so that holds only for a port with exactly one stream and no
 *   ARP/ICMP responder (whose answers are RX mbufs sent on a TX queue).
 *
 * Threads: pure functions; any thread.
 */

#include <stdbool.h>

/** What a port offers (from rte_eth_dev_info.tx_offload_capa). */
struct wr_offload_caps {
	bool ipv4_cksum;
	bool udp_cksum;
	bool fast_free;
};

/** What the run asks for. */
struct wr_offload_use {
	bool cksum;      /**< IPv4 + UDP checksum offload, with tx_prepare */
	bool fast_free;  /**< MBUF_FAST_FREE */
};

/**
 * Decide the offloads of one port.
 * @param caps          what the port offers
 * @param n_streams     streams sent on the port (each on every TX queue)
 * @param responder     the port answers ARP/ICMP (other mbufs on a queue)
 */
struct wr_offload_use wr_offload_choose(const struct wr_offload_caps *caps,
					unsigned int n_streams, bool responder);

/**
 * True when the extended NIC counter @p name counts frames that were to be
 * sent and were not (drops, errors, discards, failures on the TX side),
 * e.g. "tx_errors", "tx_dropped", "tx_q0_drop", "out_pkts_discarded",
 * "tx_underrun_errors"; false for good-traffic counters such as
 * "tx_good_packets", "tx_q0_bytes" or any RX counter.
 */
bool wr_xstat_is_tx_drop(const char *name);

#endif /* WR_OFFLOAD_H */

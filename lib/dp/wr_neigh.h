/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_neigh: the neighbour responder on a port's RX path (ARP and ND, ICMP and ICMPv6 echo), and the resolution of streams' next hops. */
#ifndef WR_NEIGH_H
#define WR_NEIGH_H

/**
 * @file
 * A port with a responder (profile `arp: true`, `run --arp`, or a stream
 * with `eth: {dst: arp}`) behaves as a host for the source addresses of
 * its streams: it answers ARP requests and IPv6 neighbour solicitations
 * for them with the port's MAC (rte_eth_macaddr_get), and ICMP and ICMPv6
 * echo requests to them (doc/arp.md).
 *
 * Data path: wr_rx_poll() hands every frame without a wirerate signature to
 * wr_arpd_input() when the RX queue has a responder (rxq->arpd); frames
 * with a signature never reach it, so ordinary traffic costs nothing more
 * than one NULL test per foreign frame.  Answers are written in place into
 * the received mbuf (an ARP reply fits where the request was; an echo reply
 * is the request with addresses swapped) and sent at once with
 * rte_eth_tx_burst on a TX queue of the same port owned by the same lcore,
 * so no queue is shared between lcores and no extra mempool exists.
 *
 * Resolution: before the streams' templates are built, wr_arpd_resolve()
 * sends ARP requests (IPv6: neighbour solicitations) for every next hop a
 * port's streams need, from the main lcore (no worker runs yet, so it may
 * use TX queue 0 and RX queue 0), answers requests meanwhile, and writes
 * the MACs into the streams.
 *
 * Threads: wr_arpd_input() on the lcore that polls the RX queue; counters
 * are stored with relaxed atomic stores and may be read by any thread
 * (telemetry, stats).  Setup and teardown on the main lcore while no
 * worker runs.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "wr_arp.h"
#include "wr_error.h"
#include "wr_nd.h"
#include "wr_port.h"
#include "wr_stream.h"

struct wr_engine;

/** A next hop being resolved. */
struct wr_arpd_query {
	bool v6;                /**< an IPv6 next hop (ND), else IPv4 (ARP) */
	uint32_t ip;            /**< the address asked for */
	uint32_t src_ip;        /**< the sender address the request carries */
	__uint128_t ip6;        /**< v6: the address asked for */
	__uint128_t src_ip6;    /**< v6: the sender address the NS carries */
	uint8_t tags[WR_ARP_TAGS_MAX * WR_TAG_HLEN]; /**< the stream's tags (packet 0's) */
	uint16_t tags_len;
	bool done;
	uint8_t mac[6];
};

struct wr_arpd {
	uint16_t port_id;
	uint16_t queue_id;          /**< TX queue answers go on */
	uint8_t mac[6];             /**< the port's MAC */
	struct wr_addrs addrs;      /**< IPv4 addresses answered for */
	struct wr_addrs addrs6;     /**< IPv6 addresses answered for */
	/* Counters: one writer (the polling lcore), any reader. */
	uint64_t arp_replies;       /**< ARP requests answered */
	uint64_t icmp_replies;      /**< ICMP and ICMPv6 echo requests answered */
	uint64_t nd_replies;        /**< Neighbor Solicitations answered */
	uint64_t arp_seen;          /**< ARP replies received */
	uint64_t tx_drop;           /**< answers the NIC did not take */
	/* Resolution, main lcore only. */
	struct wr_arpd_query *q;
	unsigned int n_q;
} __rte_cache_aligned;

/**
 * Set up a responder for @p p answering on TX queue @p queue_id for the
 * source addresses of every stream of @p f on port index @p port_index.
 * @return 0, -ENOMEM.
 */
int wr_arpd_init(struct wr_arpd *d, const struct wr_port *p,
		 uint16_t queue_id, const struct wr_stream_file *f,
		 unsigned int port_index);

/** Free what wr_arpd_init allocated.  NULL-safe. */
void wr_arpd_fini(struct wr_arpd *d);

/** Most frames one wr_arpd_input() call takes: the RX path's burst
 * (WR_RX_BURST, wr_rx.h; wr_neigh_attach.c checks it fits). */
#define WR_ARPD_BURST_MAX 32

/**
 * Take @p n frames a poll found without a signature (at most
 * WR_ARPD_BURST_MAX): answer what asks for an answer (sent at once), note
 * ARP replies for a resolution in progress, free the rest.  Owns the mbufs
 * from here on.
 */
void wr_arpd_input(struct wr_arpd *d, struct rte_mbuf **pkts, uint16_t n);

/**
 * Resolve eth.dst of every stream of @p f with `eth: {dst: arp}`: per port
 * of @p ports (@p n_ports, started, links up, no worker lcore running), send
 * an ARP request for each distinct next hop (ipv4.gateway, else ipv4.dst;
 * the sender address is the stream's ipv4.src, behind the stream's tags),
 * again after WR_ARPD_RETRY_MS, waiting at most @p timeout_ms in all while
 * RX queue 0 is polled (requests for the streams' sources are answered
 * meanwhile), then write each resolved MAC into the stream's eth.dst
 * (FIXED).
 * @return 0; -EHOSTUNREACH with @p err naming the stream, the address and
 *         the port when a next hop did not answer; -ENOMEM; -EIO when a
 *         request could not be sent.
 */
int wr_arpd_resolve(struct wr_port *ports, unsigned int n_ports,
		    struct wr_stream_file *f, uint32_t timeout_ms,
		    struct wr_error *err);

/** RFC 1122 section 2.3.2.1: at most one request per second per address. */
#define WR_ARPD_RETRY_MS 1000
/** Default bound of a resolution: two requests and a second for the last. */
#define WR_ARPD_TIMEOUT_MS 2000

/**
 * Give every port @p i of a loaded engine with @p want[i] a responder on its
 * RX queue (the engine must have been loaded with RX on), answering on the
 * TX queue of the same port its RX lcore sends on.  A port without streams
 * gets none (it has no address to answer for).  Responders go in @p out
 * (NULL where none).
 * @return 0; -EINVAL with @p err when a port's RX lcore sends nothing on
 *         it (profile rx_lcore not one of its tx_lcores); -ENOMEM.
 *         On failure nothing stays attached.
 */
int wr_arpd_attach(struct wr_engine *e, const bool *want,
		   struct wr_arpd **out, struct wr_error *err);

/** Detach and free the responders of @p out (lcores stopped).  */
void wr_arpd_detach(struct wr_engine *e, struct wr_arpd **out);

#endif /* WR_NEIGH_H */

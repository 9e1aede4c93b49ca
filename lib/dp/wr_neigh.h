/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_neigh: a port's own responder (its streams' sources, the port's MAC), run by the hosts' service: what it answers for, and the next hops of streams it resolves. */
#ifndef WR_NEIGH_H
#define WR_NEIGH_H

/**
 * @file
 * A port with a responder (profile `arp: true`, `run --arp`, or a stream
 * with `eth: {dst: arp}`) behaves as a host for the source addresses of
 * its streams: it answers ARP requests and IPv6 neighbour solicitations
 * for them with the port's MAC (rte_eth_macaddr_get), and ICMP and ICMPv6
 * echo requests to them (doc/arp.md).  It is the port's implicit host in
 * the hosts' service (wr_host_svc.h), which answers with the code the
 * emulated hosts answer with (wr_arp_answer, wr_nd_answer), on the hosts'
 * TX path: no frame is answered on a RX lcore any more.
 *
 * Resolution: before the streams' templates are built, the service asks
 * (ARP requests, IPv6: neighbour solicitations) for every next hop a
 * port's streams need, again after WR_ARPD_RETRY_MS, and the session
 * writes the MACs into the streams (wr_arpd_apply()).  This file holds
 * what the questions are and what their answers mean for the streams.
 *
 * Threads: the main lcore builds and applies the questions; the service
 * answers them in between (wr_host_svc.h says how).
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_arp.h"
#include "wr_error.h"
#include "wr_nd.h"
#include "wr_stream.h"

/** A next hop being resolved. */
struct wr_arpd_query {
	bool v6;                /**< an IPv6 next hop (ND), else IPv4 (ARP) */
	uint32_t ip;            /**< the address asked for */
	uint32_t src_ip;        /**< the sender address the request carries */
	__uint128_t ip6;        /**< v6: the address asked for */
	__uint128_t src_ip6;    /**< v6: the sender address the NS carries */
	uint8_t tags[WR_ARP_TAGS_MAX * WR_TAG_HLEN]; /**< the stream's tags (packet 0's) */
	uint16_t tags_len;
	uint32_t done;          /**< answered (stored last, with release) */
	uint8_t mac[6];
	/** The sender MAC the question carries: the port's, or the emulated
	 * host's whose address the sender's is (wr_host_svc.c). */
	uint8_t src_mac[6];
};

/** RFC 1122 section 2.3.2.1: at most one request per second per address. */
#define WR_ARPD_RETRY_MS 1000
/** Default bound of a resolution: two requests and a second for the last. */
#define WR_ARPD_TIMEOUT_MS 2000

/**
 * The distinct next hops of the streams of port index @p pi of @p f with
 * `eth: {dst: arp}` / `{dst: nd}` (ipv4.gateway, else ipv4.dst; the
 * sender address the stream's source, behind the stream's tags), into
 * @p q (room for WR_STREAMS_MAX), @p *n of them.
 * @return 0; -EINVAL with @p err naming the stream whose tags do not fit.
 */
int wr_arpd_queries(const struct wr_stream_file *f, unsigned int pi,
		    struct wr_arpd_query *q, unsigned int *n,
		    struct wr_error *err);

/**
 * Write each answered next hop's MAC into the eth.dst of the streams of
 * port index @p pi that asked for it (FIXED from then on).
 * @param n_req     requests sent, @p timeout_ms how long it was waited,
 *                  @p device the port's name: for the error
 * @return 0; -EHOSTUNREACH with @p err naming the stream, the address and
 *         the port when a next hop did not answer.
 */
int wr_arpd_apply(struct wr_stream_file *f, unsigned int pi,
		  const struct wr_arpd_query *q, unsigned int n_q,
		  unsigned int n_req, uint32_t timeout_ms, const char *device,
		  struct wr_error *err);

/** The source addresses of the streams of port index @p pi: what its
 * responder answers for.  @return 0, -ENOMEM. */
int wr_arpd_sources(const struct wr_stream_file *f, unsigned int pi,
		    struct wr_addrs *v4, struct wr_addrs *v6);

#endif /* WR_NEIGH_H */

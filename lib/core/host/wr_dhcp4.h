/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp4: the DHCPv4 client of emulated hosts (RFC 2131, RFC 2132, relay agent option RFC 3046). */
#ifndef WR_DHCP4_H
#define WR_DHCP4_H

/**
 * @file
 * A host group with `ipv4: dhcp` (or `ipv4: {dhcp: {...}}`, doc/hosts.md)
 * has each of its hosts lease its address: INIT -> SELECTING (DISCOVER
 * broadcast, the first OFFER taken) -> REQUESTING (REQUEST naming the
 * server and the offered address) -> BOUND (ACK: address, mask, router
 * given to the engine with wr_hosts_set_ip4) -> RENEWING at T1 (REQUEST
 * unicast to the server) -> REBINDING at T2 (REQUEST broadcast) -> the
 * address removed when the lease expires; a NAK sends the host back to
 * INIT; RELEASE when the run stops.  Retransmissions follow RFC 2131
 * section 4.1 (4, 8, 16, 32, 64 s, each +-1 s at random); a host whose
 * exchanges all go unanswered, NAKed or declined counts as failed.
 *
 * The module is struct wr_host_proto wr_host_proto_dhcp4 (wr_host.h);
 * its config is wr_dhcp4_cfg.h's, its bytes wr_dhcp4_msg.h's.  Counters
 * (by name, doc/hosts.md): dhcp4_tx_*, dhcp4_rx_*, what became of the
 * exchanges (leased, renewed, rebound, timeout, nak, declined, expired),
 * the hosts given up by reason (failed_*), messages refused by reason
 * (rx_bad_*), and how many started hosts are in each state now
 * (state_*).  Threads: the host engine's thread only.
 */

#include "wr_dhcp4_cfg.h"
#include "wr_host.h"

/** A host's DHCP state (its word in wr_hosts_proto_state, its gauge). */
#define WR_DHCP4_STATES(X)              \
	X(INIT, "init")                 \
	X(SELECTING, "selecting")       \
	X(REQUESTING, "requesting")     \
	X(BOUND, "bound")               \
	X(RENEWING, "renewing")         \
	X(REBINDING, "rebinding")       \
	X(FAILED, "failed")             \
	X(RELEASED, "released")

enum wr_dhcp4_state {
#define WR_X(e, s) WR_DHCP4_ST_##e,
	WR_DHCP4_STATES(WR_X)
#undef WR_X
	WR_DHCP4_ST__COUNT
};

/** Word of a state ("bound"). */
const char *wr_dhcp4_state_name(enum wr_dhcp4_state s);

/** The module (wr_host_protos.def). */
extern const struct wr_host_proto wr_host_proto_dhcp4;

#endif /* WR_DHCP4_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_mld: emulated hosts' MLDv1 (RFC 2710) and MLDv2 (RFC 3810), the IPv6 family of wr_mcast. */
#ifndef WR_MLD_H
#define WR_MLD_H

/**
 * @file
 * The `mld:` key of a host group: as `igmp:` (wr_igmp.h) with IPv6
 * groups and sources, version 1 or 2 (default 2).
 *
 * Messages go out from the host's link-local address (:: while it is
 * tentative, RFC 3590 section 4), hop limit 1, behind a hop-by-hop header
 * with a router alert option (RFC 2711, value 0: MLD): v1 reports to the
 * group, dones to ff02::2, v2 reports to ff02::16.
 *
 * Beside its configured groups a host reports the solicited-node group
 * (ff02::1:ffXX:XXXX, RFC 4291 section 2.7.1) of each of its IPv6
 * addresses, as the Linux kernel does: a snooping switch then forwards the
 * neighbour solicitations for its addresses to its port.  They are the
 * addresses it holds when it starts and when it answers a query (an
 * address added later is reported at the next query).
 */

#include "wr_host.h"
#include "wr_mcast.h"

extern const struct wr_host_proto wr_host_proto_mld;

/**
 * Parse the MLD message @p msg (@p len bytes: the ICMPv6 message), sent
 * from @p src to @p dst with hop limit @p hop_limit (its checksum covers
 * them).
 * @return as wr_igmp_parse().
 */
int wr_mld_parse(const uint8_t *msg, uint32_t len, __uint128_t src,
		 __uint128_t dst, uint8_t hop_limit, struct wr_mcast_query *q,
		 __uint128_t *group, enum wr_mcast_counter *bad);

/** The solicited-node group of @p addr (RFC 4291 section 2.7.1). */
__uint128_t wr_mld_solicited_node(__uint128_t addr);

#endif /* WR_MLD_H */

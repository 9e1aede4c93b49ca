/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_igmp: emulated hosts' IGMPv2 (RFC 2236) and IGMPv3 (RFC 3376), the IPv4 family of wr_mcast. */
#ifndef WR_IGMP_H
#define WR_IGMP_H

/**
 * @file
 * The `igmp:` key of a host group (doc/hosts.md):
 *
 *   igmp:
 *     version: 3              # 2 or 3 (default 3)
 *     robustness: 2           # reports sent on a join (default 2)
 *     unsolicited_interval: 1s# between them (default v3 1s, v2 10s)
 *     per_host: all           # all: every host joins every group (<= 16);
 *                             # one: host k joins group k mod n
 *     groups:
 *       - {group: 239.1.1.1, count: 10, step: 0.0.0.1}   # EXCLUDE {}
 *       - {group: 232.1.1.1, sources: [10.0.0.1], mode: include}
 *
 * Messages go out with TTL 1, an IP router alert option (RFC 2113) and the
 * host's address (0.0.0.0 before it has one, RFC 3376 section 4.2.13):
 * v2 reports to the group, leaves to 224.0.0.2, v3 reports to 224.0.0.22.
 * The state machine is wr_mcast.h's.
 */

#include "wr_host.h"
#include "wr_mcast.h"

extern const struct wr_host_proto wr_host_proto_igmp;

/**
 * Parse the IGMP message @p msg (@p len bytes: the IPv4 payload).
 * @return WR_MCAST_MSG_QUERY (@p q filled: its sources point into @p msg),
 *         WR_MCAST_MSG_REPORT (@p group: a v1/v2 report's group),
 *         WR_MCAST_MSG_OTHER, or -EINVAL with @p bad the counter of the
 *         reason.
 */
int wr_igmp_parse(const uint8_t *msg, uint32_t len, struct wr_mcast_query *q,
		  __uint128_t *group, enum wr_mcast_counter *bad);

#endif /* WR_IGMP_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp6: the DHCPv6 client of emulated hosts (RFC 8415): IA_NA and IA_PD, renew, rebind, release. */
#ifndef WR_DHCP6_H
#define WR_DHCP6_H

/**
 * @file
 * A host group with `ipv6: dhcp` or `ipv6: {dhcp: {...}}` leases its IPv6
 * address (IA_NA) and/or a delegated prefix (IA_PD) from a DHCPv6 server
 * (RFC 8415):
 *
 *   SOLICIT  -> (ADVERTISEs collected for the first RT, the most
 *                preferred taken; preference 255 at once)
 *   REQUEST  -> REPLY: bound (the address to the host, origin DHCP)
 *   RENEW at T1 (to that server), REBIND at T2 (to any), the binding
 *   dropped when its valid lifetime ends, RELEASE when the run stops.
 *   With rapid_commit a REPLY to the SOLICIT binds at once (section 18.2.1).
 *
 * Messages go from the host's link-local address to All_DHCP_Relay_Agents_
 * and_Servers (ff02::1:2), UDP 546 -> 547.  The client's DUID is made from
 * its MAC: DUID-LL (type 3, the default) or DUID-LLT (type 1, time 0: a
 * generator has no storage to keep a DUID's creation time in, and a DUID
 * that is the same on every run keeps the host's lease).  The IAID of both
 * IAs is the last four bytes of the MAC.  Retransmission follows section 15
 * (IRT, MRT, MRC, MRD, RAND in [-0.1, 0.1] from the run's seeded generator).
 *
 * Config (the `dhcp` key under ipv6:; every key optional):
 *
 *   ipv6: {dhcp: {ia_na: true, ia_pd: {prefix_len: 56}, rapid_commit: false,
 *                 retries: 4, duid: ll}}
 *
 * ia_na (default true), ia_pd (default false; true, or a map whose
 * prefix_len is sent as the IAPREFIX hint), at least one of the two;
 * retries: SOLICITs (or REQUESTs) without an answer before the host's
 * bring-up counts as failed (it keeps soliciting at SOL_MAX_RT after).
 *
 * The message parser (wr_dhcp6_parse) and builder are pure; the module
 * (wr_host_proto_dhcp6) runs on the host engine's thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_host.h"

/* Message types (RFC 8415 section 7.3). */
#define WR_DHCP6_SOLICIT 1
#define WR_DHCP6_ADVERTISE 2
#define WR_DHCP6_REQUEST 3
#define WR_DHCP6_RENEW 5
#define WR_DHCP6_REBIND 6
#define WR_DHCP6_REPLY 7
#define WR_DHCP6_RELEASE 8

#define WR_DHCP6_CLIENT_PORT 546
#define WR_DHCP6_SERVER_PORT 547
/** A DUID is at most 128 bytes after its 2-byte type (section 11.1). */
#define WR_DHCP6_DUID_MAX 130

/** The `dhcp` key's config (a flat struct, freed with free()). */
struct wr_dhcp6_cfg {
	bool ia_na;
	bool ia_pd;
	bool rapid_commit;
	uint8_t pd_len;         /**< IA_PD hint (IAPREFIX ::/pd_len), 0 = none */
	uint8_t duid_type;      /**< 1 (LLT) or 3 (LL) */
	uint16_t retries;       /**< transmissions before bring-up fails */
	struct wr_host_where where;
};

/** One IA of a message (the first of its kind), its first lease option. */
struct wr_dhcp6_ia {
	bool present;
	uint32_t iaid;
	uint32_t t1;
	uint32_t t2;
	bool has_status;
	uint16_t status;        /**< the IA's own status code (0: success) */
	bool has_lease;         /**< an IAADDR (IA_NA) or IAPREFIX (IA_PD) */
	__uint128_t addr;       /**< the address, or the prefix */
	uint8_t plen;           /**< 128 for an address */
	uint32_t preferred_s;
	uint32_t valid_s;
	bool lease_has_status;
	uint16_t lease_status;  /**< the IAADDR's / IAPREFIX's own status */
};

/** A parsed server message; the pointers point into the message. */
struct wr_dhcp6_msg {
	uint8_t type;
	uint32_t xid;
	const uint8_t *client_id;
	uint16_t client_id_len;
	const uint8_t *server_id;
	uint16_t server_id_len;
	bool has_preference;
	uint8_t preference;
	bool rapid_commit;
	bool has_status;
	uint16_t status;
	struct wr_dhcp6_ia na;
	struct wr_dhcp6_ia pd;
};

/** Why a message was refused: the X-macro gives the counters' names. */
#define WR_DHCP6_BAD_LIST(X)                                                 \
	X(SHORT, "short")               /* shorter than its headers */       \
	X(CSUM, "bad_csum")             /* UDP checksum wrong or absent */   \
	X(OPTION, "bad_option")         /* an option overruns its parent */  \
	X(IA, "bad_ia")                 /* an IA or lease option too short */\
	X(DUID, "bad_duid")             /* empty or longer than 130 bytes */ \
	X(TYPE, "bad_type")             /* not ADVERTISE or REPLY */         \
	X(NO_CLIENTID, "no_clientid")                                        \
	X(NO_SERVERID, "no_serverid")                                        \
	X(NOT_OURS, "not_ours")         /* a client ID of no host here */    \
	X(XID, "stale_xid")             /* no transaction of that host's */

enum wr_dhcp6_bad {
	WR_DHCP6_OK = 0,
#define X(e, s) WR_DHCP6_BAD_##e,
	WR_DHCP6_BAD_LIST(X)
#undef X
	WR_DHCP6_BAD__COUNT
};

/**
 * Parse a DHCPv6 message (the UDP payload, @p len bytes).  Checks every
 * option's length against its parent, the lengths of the options read
 * (IA_NA, IA_PD, IAADDR, IAPREFIX, STATUS_CODE, PREFERENCE, the DUIDs),
 * and that an ADVERTISE or REPLY names a client and a server.
 * @return WR_DHCP6_OK, or why not (enum wr_dhcp6_bad).
 */
enum wr_dhcp6_bad wr_dhcp6_parse(const uint8_t *p, uint32_t len,
				 struct wr_dhcp6_msg *m);

/** @p mac's DUID of @p type (1 or 3) into @p out.  @return its length. */
uint16_t wr_dhcp6_duid(uint8_t *out, uint8_t type, const uint8_t mac[6]);

/** Section 15's next RT (ms) after @p rt_ms (0: the first, from @p irt_ms),
 * capped by @p mrt_ms (0: none); @p r is a 32-bit random draw.  The first
 * RT of a SOLICIT (@p solicit) is strictly greater than IRT. */
uint32_t wr_dhcp6_next_rt(uint32_t rt_ms, uint32_t irt_ms, uint32_t mrt_ms,
			  uint32_t r, bool solicit);

extern const struct wr_host_proto wr_host_proto_dhcp6;

#endif /* WR_DHCP6_H */

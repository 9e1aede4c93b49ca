/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp6_msg: DHCPv6 messages as a client reads them (RFC 8415), its DUID, section 15's retransmission times. */
#ifndef WR_DHCP6_MSG_H
#define WR_DHCP6_MSG_H

/**
 * @file
 * What the DHCPv6 client (wr_dhcp6.h) needs of the protocol that is not
 * its state: the numbers, a server message parsed into a struct (every
 * length checked, counted by reason when wrong), the client's DUID from
 * its MAC, and RFC 8415 section 15's next retransmission time.  Pure
 * functions of their arguments; any thread.
 */

#include <stdbool.h>
#include <stdint.h>

/* Message types (RFC 8415 section 7.3). */
#define WR_DHCP6_SOLICIT 1
#define WR_DHCP6_ADVERTISE 2
#define WR_DHCP6_REQUEST 3
#define WR_DHCP6_RENEW 5
#define WR_DHCP6_REBIND 6
#define WR_DHCP6_REPLY 7
#define WR_DHCP6_RELEASE 8

/* Options (section 21; RFC 3646 for DNS servers). */
#define WR_DHCP6_OPT_CLIENTID 1
#define WR_DHCP6_OPT_SERVERID 2
#define WR_DHCP6_OPT_IA_NA 3
#define WR_DHCP6_OPT_IAADDR 5
#define WR_DHCP6_OPT_ORO 6
#define WR_DHCP6_OPT_PREFERENCE 7
#define WR_DHCP6_OPT_ELAPSED_TIME 8
#define WR_DHCP6_OPT_STATUS_CODE 13
#define WR_DHCP6_OPT_RAPID_COMMIT 14
#define WR_DHCP6_OPT_DNS_SERVERS 23
#define WR_DHCP6_OPT_IA_PD 25
#define WR_DHCP6_OPT_IAPREFIX 26
#define WR_DHCP6_OPT_SOL_MAX_RT 82

/* Status codes (section 21.13). */
#define WR_DHCP6_ST_NO_ADDRS 2
#define WR_DHCP6_ST_NO_BINDING 3
#define WR_DHCP6_ST_NO_PREFIX 6

#define WR_DHCP6_CLIENT_PORT 546
#define WR_DHCP6_SERVER_PORT 547
/** A DUID is at most 128 bytes after its 2-byte type (section 11.1). */
#define WR_DHCP6_DUID_MAX 130

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

#endif /* WR_DHCP6_MSG_H */

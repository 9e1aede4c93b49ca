/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp4_msg: DHCPv4 messages parsed and built (RFC 2131, RFC 2132, RFC 3046), per-host texts expanded. */
#ifndef WR_DHCP4_MSG_H
#define WR_DHCP4_MSG_H

/**
 * @file
 * The bytes of the DHCPv4 client (wr_dhcp4.h): a server's reply checked
 * and parsed (UDP checksum, op, hardware type, magic cookie, every
 * option's length: each refusal has its reason, counted by the module),
 * a client's message built, and the per-host texts a group's config
 * holds (hostname, client identifier, option 82's circuit-id and
 * remote-id) expanded:
 *
 *   {index}      the host's index in its group, from 0
 *   {host}       the host's index among the port's hosts, from 0
 *   {port}       the port's number
 *   {group}      the group's name
 *   {mac}        its MAC, 02:10:00:00:00:01
 *   {mac_hex}    its MAC without colons, 021000000001
 *   {vlan}       its outer VLAN ID (0 without a tag)
 *   {inner_vlan} its inner VLAN ID (0 without a second tag)
 *   {{ and }}    a brace
 *
 * Addresses are host-order integers (wr_stream.h).  Pure functions; any
 * thread.  The fuzz target (test/fuzz/fuzz_dhcp4.c) feeds wr_dhcp4_parse.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WR_DHCP4_SERVER_PORT 67
#define WR_DHCP4_CLIENT_PORT 68
/** RFC 2131 section 3: the options field starts with 99.130.83.99. */
#define WR_DHCP4_COOKIE 0x63825363u
/** The fixed BOOTP header before the cookie (RFC 2131 figure 1). */
#define WR_DHCP4_HDR_LEN 236
/** Template text (hostname, client_id, circuit_id, remote_id), with its NUL. */
#define WR_DHCP4_TMPL_MAX 64
/** Parameter request list entries (option 55). */
#define WR_DHCP4_PRL_MAX 32

/** DHCP message types (option 53, RFC 2132 section 9.6). */
enum wr_dhcp4_type {
	WR_DHCP4_DISCOVER = 1,
	WR_DHCP4_OFFER = 2,
	WR_DHCP4_REQUEST = 3,
	WR_DHCP4_DECLINE = 4,
	WR_DHCP4_ACK = 5,
	WR_DHCP4_NAK = 6,
	WR_DHCP4_RELEASE = 7,
	WR_DHCP4_INFORM = 8,
};

/** Why a received message was dropped (counter dhcp4_rx_bad_<name>). */
#define WR_DHCP4_BADS(X)                                                \
	X(SHORT, "short")               /* UDP or BOOTP cut short */    \
	X(UDP_CSUM, "udp_csum")         /* wrong UDP checksum */        \
	X(OP, "op")                     /* not a BOOTREPLY (2) */       \
	X(HTYPE, "htype")               /* not Ethernet, hlen 6 */      \
	X(COOKIE, "cookie")             /* no magic cookie */           \
	X(OPTION_LEN, "option_len")     /* an option past the end */    \
	X(MSG_TYPE, "msg_type")         /* option 53 absent or wrong */ \
	X(MISSING, "missing_option")    /* server id, lease absent */   \
	X(ADDRESS, "address")           /* yiaddr 0, multicast, ... */  \
	X(XID, "xid")                   /* not the host's transaction */

enum wr_dhcp4_bad {
	WR_DHCP4_OK = 0,
#define WR_X(e, s) WR_DHCP4_BAD_##e,
	WR_DHCP4_BADS(WR_X)
#undef WR_X
	WR_DHCP4_BAD__COUNT
};

/** Name of a wr_dhcp4_bad ("udp_csum"), "" for OK. */
const char *wr_dhcp4_bad_name(enum wr_dhcp4_bad b);
/** A received message, as wr_dhcp4_parse() found it. */
struct wr_dhcp4_msg {
	uint8_t op;
	uint8_t type;           /**< option 53 */
	uint16_t secs;
	uint16_t flags;
	uint32_t xid;
	uint32_t ciaddr;
	uint32_t yiaddr;
	uint32_t siaddr;
	uint32_t giaddr;
	uint8_t chaddr[6];
	/* Options (0 when absent; has_* where 0 is a value). */
	uint32_t server_id;     /**< 54 */
	uint32_t mask;          /**< 1 */
	uint32_t router;        /**< 3, the first */
	bool has_mask;
	bool has_lease;
	bool has_t1;
	bool has_t2;
	uint32_t lease_s;       /**< 51 */
	uint32_t t1_s;          /**< 58 */
	uint32_t t2_s;          /**< 59 */
};

/**
 * Check and parse a DHCP message from its UDP header on: @p udp, @p len
 * bytes to the end of the IP payload; @p src_ip, @p dst_ip the IPv4
 * header's (the UDP pseudo-header).  The UDP length must fit @p len, a
 * nonzero UDP checksum must be right, the BOOTP header whole, op 2,
 * Ethernet addresses, the cookie, every option within the options field
 * and option 53 present once with a known type.  Option overload (52) is
 * not followed: sname and file are left unread (RFC 2131 lets a server
 * use them only when the options field is full, which a reply to a client
 * asking for a handful of options never is).
 * @return WR_DHCP4_OK and @p m filled, or the reason it was refused.
 */
enum wr_dhcp4_bad wr_dhcp4_parse(const uint8_t *udp, uint32_t len,
				 uint32_t src_ip, uint32_t dst_ip,
				 struct wr_dhcp4_msg *m);

/** A message a client sends, for wr_dhcp4_build(). */
struct wr_dhcp4_out {
	uint8_t type;           /**< enum wr_dhcp4_type */
	uint32_t xid;
	uint16_t secs;
	bool broadcast;         /**< the flags' B bit */
	uint32_t src_ip;        /**< IPv4 source (0 before the host has one) */
	uint32_t dst_ip;        /**< IPv4 destination (255.255.255.255 or the server) */
	uint32_t ciaddr;
	const uint8_t *chaddr;  /**< 6 bytes */
	uint32_t requested_ip;  /**< option 50, 0 = absent */
	uint32_t server_id;     /**< option 54, 0 = absent */
	const uint8_t *client_id; /**< option 61's value (type byte first), NULL = absent */
	uint8_t client_id_len;
	const char *hostname;   /**< option 12, NULL or "" = absent */
	uint8_t hostname_len;
	const uint8_t *prl;     /**< option 55, n_prl codes */
	uint8_t n_prl;
	const uint8_t *opt82;   /**< option 82's value (its sub-options), NULL = absent */
	uint8_t opt82_len;
};

/** Room wr_dhcp4_build() may need after the link header. */
#define WR_DHCP4_FRAME_MAX (20 + 8 + WR_DHCP4_HDR_LEN + 4 + 3 + 6 + 6 + \
			    2 + 255 + 2 + 255 + 2 + WR_DHCP4_PRL_MAX + \
			    2 + 255 + 1)

/**
 * Write @p o as an IPv4 (no options, TTL 64) / UDP 68 -> 67 / BOOTREQUEST
 * datagram at @p buf: options 53, 61, 50, 54, 12, 55, then 82 last (RFC
 * 3046 section 2.1), the end option, and padding to the 300 bytes of
 * BOOTP that RFC 1542 section 2.1 asks for.  Both checksums computed.
 * @return its length (at most WR_DHCP4_FRAME_MAX).
 */
uint32_t wr_dhcp4_build(uint8_t *buf, const struct wr_dhcp4_out *o);

/** What a template's placeholders stand for (one host). */
struct wr_dhcp4_vars {
	uint32_t index;
	uint32_t host;
	uint16_t port;
	const char *group;
	uint8_t mac[6];
	uint16_t vlan;
	uint16_t inner_vlan;
};

/**
 * Expand template @p t for @p v into @p out (at most @p cap bytes,
 * not terminated: option values are not).
 * @return the length, or -EINVAL (an unknown placeholder, an unmatched
 *         brace), -ENOSPC (longer than @p cap).
 */
int wr_dhcp4_expand(const char *t, const struct wr_dhcp4_vars *v,
		    uint8_t *out, size_t cap);

/**
 * The longest expansion of @p t over every host, or -EINVAL with @p why
 * (@p why_len bytes) saying which placeholder is wrong: the parse refuses
 * a template that could overflow its option.
 */
int wr_dhcp4_expand_max(const char *t, char *why, size_t why_len);

#endif /* WR_DHCP4_MSG_H */

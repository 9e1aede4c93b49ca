/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_mcast: the host side of IGMP and MLD, one state machine for both (wr_igmp and wr_mld are its two families). */
#ifndef WR_MCAST_H
#define WR_MCAST_H

/**
 * @file
 * MLDv2 (RFC 3810) is IGMPv3 (RFC 3376) with 128-bit addresses, and MLDv1
 * (RFC 2710) is IGMPv2 (RFC 2236): the same queries, the same timers, the
 * same group records.  This file holds what the two have in common, so it
 * is written once: the `igmp:` / `mld:` key (struct wr_mcast_cfg), the
 * groups a host joins, its per-host state (struct wr_mcast_host), the
 * answer to a query (RFC 3376 section 5.2 / RFC 2236 section 3), the
 * compatibility modes (RFC 3376 section 7.2.1, RFC 3810 section 8.2.1),
 * and the messages' bodies.  A family (struct wr_mcast_fam: wr_igmp.c,
 * wr_mld.c) says how its messages are laid out and sent (the IPv4 header
 * with a router alert option, or IPv6 with a hop-by-hop router alert).
 *
 * Which hosts join which groups (`per_host:`): `all` (the default) makes
 * every host of the group a member of every group the `groups:` list
 * expands to (at most WR_MCAST_HOST_GROUPS_MAX), `one` makes host k (k
 * counted from 0 in its host group) a member of group k mod n, n the
 * number of groups the list expands to, in the list's order.
 *
 * Threads: the host engine's (wr_host.h); the config parser any thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_host.h"
#include "wr_ytree.h"

/** Group entries of a `groups:` list. */
#define WR_MCAST_RANGES_MAX 16
/** Sources of one entry (source-specific joins). */
#define WR_MCAST_SOURCES_MAX 8
/** Groups one host is a member of with `per_host: all`: its per-host
 * timers are kept in an array this long (4 bytes each). */
#define WR_MCAST_HOST_GROUPS_MAX 16
/** Groups of its own addresses a host reports beside them: the
 * solicited-node groups of MLD (one per IPv6 address). */
#define WR_MCAST_EXTRA_MAX WR_HOST_IP6_MAX
#define WR_MCAST_SLOTS (WR_MCAST_HOST_GROUPS_MAX + WR_MCAST_EXTRA_MAX)

/** A group's filter mode (RFC 3376 section 3.2). */
enum wr_mcast_mode {
	WR_MCAST_EXCLUDE = 0,   /**< every source but those listed (none: any source) */
	WR_MCAST_INCLUDE,       /**< only the listed sources (source-specific) */
};

/** Group record types (RFC 3376 section 4.2.12, RFC 3810 section 5.2.12). */
enum wr_mcast_rec {
	WR_MCAST_IS_IN = 1,
	WR_MCAST_IS_EX = 2,
	WR_MCAST_TO_IN = 3,
	WR_MCAST_TO_EX = 4,
	WR_MCAST_ALLOW = 5,
	WR_MCAST_BLOCK = 6,
};

/** `per_host:` */
enum wr_mcast_per_host {
	WR_MCAST_PER_HOST_ALL = 0,
	WR_MCAST_PER_HOST_ONE,
};

/** One entry of `groups:`: count groups group, group + step, ... */
struct wr_mcast_range {
	__uint128_t group;      /**< IPv4 as its 32 bits */
	__uint128_t step;
	uint32_t count;
	uint8_t mode;           /**< enum wr_mcast_mode */
	uint8_t n_src;
	__uint128_t src[WR_MCAST_SOURCES_MAX];
};

/** The `igmp:` or `mld:` key: a flat struct (free()). */
struct wr_mcast_cfg {
	uint8_t v6;             /**< MLD */
	uint8_t version;        /**< as written: IGMP 2 or 3, MLD 1 or 2 */
	uint8_t robustness;     /**< Robustness Variable (default 2) */
	uint8_t per_host;       /**< enum wr_mcast_per_host */
	uint32_t unsolicited_ms;/**< Unsolicited Report Interval */
	uint32_t n_ranges;
	uint32_t n_groups;      /**< sum of the ranges' counts */
	struct wr_mcast_range r[WR_MCAST_RANGES_MAX];
};

/** What a host is doing. */
enum wr_mcast_hstate {
	WR_MCAST_IDLE = 0,      /**< not started */
	WR_MCAST_MEMBER,        /**< joined (reports may still be repeated) */
	WR_MCAST_LEFT,          /**< stopped: left every group */
};

/** A host's compatibility mode (RFC 3376 section 7.2.1): the lowest
 * version a querier of the link spoke lately, or the configured one. */
enum wr_mcast_compat {
	WR_MCAST_V1 = 1,        /**< IGMPv1 */
	WR_MCAST_V2 = 2,        /**< IGMPv2, MLDv1 */
	WR_MCAST_V3 = 3,        /**< IGMPv3, MLDv2 */
};

/** Counters, per host (summed by the module's counters()). */
#define WR_MCAST_COUNTERS(X)                                                  \
	X(reports_sent)         /* report frames (any version) */             \
	X(leaves_sent)          /* leave / done frames, v3 reports that leave */ \
	X(queries_general)      /* general queries received */                \
	X(queries_group)        /* group-specific queries received */         \
	X(queries_group_source) /* group-and-source-specific (v3) received */ \
	X(answered_general)     /* reports sent to answer a general query */  \
	X(answered_group)       /* ... a group-specific one */                \
	X(answered_group_source)/* ... a group-and-source-specific one */     \
	X(suppressed)           /* v2/v1 reports not sent: another host's heard */ \
	X(compat_changes)       /* entered an older version's mode */         \
	X(bad_short)            /* message shorter than its type's */         \
	X(bad_checksum)                                                       \
	X(bad_length)           /* IGMP length 9..11 (RFC 3376 section 7.1) */\
	X(bad_hop_limit)        /* TTL / hop limit not 1 */                   \
	X(bad_source)           /* MLD not from a link-local source */        \
	X(bad_group)            /* a query's group not multicast */

enum wr_mcast_counter {
#define X(n) WR_MCAST_C_##n,
	WR_MCAST_COUNTERS(X)
#undef X
	WR_MCAST_C__COUNT
};

/** One host's state (the modules' state_size). */
struct wr_mcast_host {
	uint64_t epoch_ns;      /**< start: due_ms counts from here */
	uint64_t gen_due_ns;    /**< v3 interface timer (general query), 0 none */
	uint64_t unsol_due_ns;  /**< next unsolicited report, 0 none */
	uint64_t v1_until_ns;   /**< IGMPv1 querier present until */
	uint64_t v2_until_ns;   /**< IGMPv2 / MLDv1 querier present until */
	uint8_t state;          /**< enum wr_mcast_hstate */
	uint8_t unsol_left;     /**< unsolicited reports still to send */
	uint8_t n_extra;        /**< extra slots reported at start */
	uint8_t pad;
	/** Per group slot: its report is due at ms + 1 after epoch (0: none). */
	uint32_t due_ms[WR_MCAST_SLOTS];
	/** Per slot (INCLUDE groups): the sources of its range a pending
	 * group-and-source-specific query asked for (0: the whole group). */
	uint8_t src_q[WR_MCAST_SLOTS];
	/** Per slot: the query its pending report answers (1 general, 2
	 * group-specific, 3 group-and-source-specific), for the counters. */
	uint8_t why[WR_MCAST_SLOTS];
	uint32_t c[WR_MCAST_C__COUNT];
};

/** A query, parsed (either family). */
struct wr_mcast_query {
	uint8_t version;        /**< WR_MCAST_V1..V3 (the querier's) */
	uint32_t max_resp_ms;   /**< Maximum Response Time, decoded */
	__uint128_t group;      /**< 0: general */
	uint16_t n_src;
	const uint8_t *src;     /**< n_src addresses, in the frame */
};

/** What a family's parser found in a message. */
enum wr_mcast_msg {
	WR_MCAST_MSG_OTHER = 0, /**< not for a host (a v3 report, a leave) */
	WR_MCAST_MSG_QUERY,     /**< a query: struct wr_mcast_query */
	WR_MCAST_MSG_REPORT,    /**< another host's old-version report */
};

/** A family: how its messages look on the wire. */
struct wr_mcast_fam {
	enum wr_host_proto_id id;
	uint8_t alen;           /**< 4 or 16 */
	uint8_t v3_type;        /**< IGMPv3 report 0x22, MLDv2 report 143 */
	__uint128_t v3_dst;     /**< 224.0.0.22, ff02::16 */
	__uint128_t routers;    /**< 224.0.0.2, ff02::2 (leave, done) */
	uint16_t msg_max;       /**< most message bytes in 1500 of IP */
	/** The old version's message for @p group into @p msg: a report
	 * (in @p compat's version) or a leave.  @return its length. */
	uint32_t (*old_msg)(uint8_t *msg, enum wr_mcast_compat compat,
			    bool leave, __uint128_t group);
	/** Send message @p msg (@p len bytes, checksum 0: the family fills
	 * it) from @p h to @p dst. */
	void (*send)(struct wr_hosts *hs, uint32_t h, __uint128_t dst,
		     uint8_t *msg, uint32_t len);
	/** The extra groups of @p h (MLD: its solicited-node groups), into
	 * @p out (at most WR_MCAST_EXTRA_MAX). @return how many. NULL: none. */
	uint32_t (*extra)(const struct wr_hosts *hs, uint32_t h,
			  __uint128_t *out);
};

/**
 * Parse an `igmp:` (@p v6 false) or `mld:` key into @p *cfg (malloc'ed).
 * Errors at file:line:col through @p w.  @return 0, -EINVAL, -ENOMEM.
 */
int wr_mcast_parse(struct wr_ywalk *w, const struct wr_ynode *n, bool v6,
		   void **cfg);

/** Max Resp Code / QQIC of IGMPv3 (8 bits, tenths of s) and MLDv2 (16
 * bits, ms): values from 128 (32768) on are floating point, RFC 3376
 * section 4.1.1, RFC 3810 section 5.1.3.  Returns the decoded value in
 * the code's unit. */
uint32_t wr_mcast_code8(uint8_t code);
uint32_t wr_mcast_code16(uint16_t code);

/** The number of groups host @p h is a member of (configured ones), and
 * the i-th: its address and range (index into cfg->r). */
uint32_t wr_mcast_host_groups(const struct wr_hosts *hs, uint32_t h,
			      const struct wr_mcast_cfg *cfg);
__uint128_t wr_mcast_host_group(const struct wr_hosts *hs, uint32_t h,
				const struct wr_mcast_cfg *cfg, uint32_t i,
				uint32_t *range);

/* The module's entry points, for the families' struct wr_host_proto. */
void wr_mcast_start(const struct wr_mcast_fam *f, struct wr_hosts *hs,
		    uint32_t h, uint64_t now);
void wr_mcast_timer(const struct wr_mcast_fam *f, struct wr_hosts *hs,
		    uint32_t h, uint64_t now);
void wr_mcast_stop(const struct wr_mcast_fam *f, struct wr_hosts *hs,
		   uint32_t h, uint64_t now);
const char *wr_mcast_state(const struct wr_mcast_fam *f,
			   const struct wr_hosts *hs, uint32_t h);
void wr_mcast_counters(const struct wr_mcast_fam *f, const struct wr_hosts *hs,
		       void (*put)(void *ctx, const char *name, uint64_t v),
		       void *ctx);

/** A query received on @p rx's link (the family parsed and checked it). */
void wr_mcast_query(const struct wr_mcast_fam *f, struct wr_hosts *hs,
		    const struct wr_host_rx *rx, const struct wr_mcast_query *q,
		    uint64_t now);
/** Another host's old-version report for @p group heard on @p rx's link:
 * old-version report suppression (RFC 2236 section 3, RFC 2710 section 4). */
void wr_mcast_heard(const struct wr_mcast_fam *f, struct wr_hosts *hs,
		    const struct wr_host_rx *rx, __uint128_t group,
		    uint64_t now);
/** Count a malformed message on a host of @p rx's link that has the module
 * (the first: module counters are per host). */
void wr_mcast_bad(const struct wr_mcast_fam *f, struct wr_hosts *hs,
		  const struct wr_host_rx *rx, enum wr_mcast_counter c);

#endif /* WR_MCAST_H */

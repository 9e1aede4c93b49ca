/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host: one port's emulated hosts (table, timers, the frames they send), and the interface of their protocol modules. */
#ifndef WR_HOST_H
#define WR_HOST_H

/**
 * @file
 * The host engine, without EAL: a port's hosts (the groups of a
 * struct wr_host_specs on that port, expanded: one struct wr_host each),
 * their addresses, a neighbour table, a timer wheel, and the frames they
 * send.  It is driven by one thread (the service lcore or the main lcore,
 * lib/dp/wr_host_svc): frames received for hosts go in with
 * wr_hosts_input(), time goes on with wr_hosts_tick(), frames to send come
 * out through the send callback.  Nothing here blocks or reads a clock:
 * @c now is given (ns, monotonic), so every module is unit-tested with a
 * clock of its own and fuzzed with frames alone.
 *
 * The engine itself answers ARP (RFC 826) and ND neighbour solicitations
 * (RFC 4861) for hosts' addresses, ICMP and ICMPv6 echo, sends a
 * gratuitous ARP / unsolicited NA when an address comes up, performs IPv6
 * duplicate address detection (RFC 4862 section 5.4), and resolves each
 * host's gateways with retries (RFC 4861 section 7.3: INCOMPLETE,
 * REACHABLE, STALE, FAILED).  Everything else is a protocol module
 * (struct wr_host_proto, listed in wr_host_protos.def: DHCPv4, DHCPv6,
 * SLAAC, IGMP, MLD): adding a protocol is its file and one line there.
 *
 * Threads: one thread (the service's) calls everything of a struct
 * wr_hosts.  The control plane reads hosts and counters through the
 * service (lib/dp/wr_host_svc hands it a copy), never here directly.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_host_spec.h"
#include "wr_ytree.h"

struct wr_hosts;

/** Room for any frame a host sends: 1518 bytes without the FCS, and tags. */
#define WR_HOST_FRAME_MAX 1536
/** IPv6 addresses one host holds: link-local, static or SLAAC, DHCPv6, spare. */
#define WR_HOST_IP6_MAX 4

/** The modules, in wr_host_protos.def's order. */
enum wr_host_proto_id {
#define WR_HOST_PROTO(name) WR_HOST_PROTO_##name,
#include "wr_host_protos.def"
#undef WR_HOST_PROTO
	WR_HOST_PROTO__COUNT
};

/** A neighbour entry's state (RFC 4861 section 7.3.2, for ARP too). */
enum wr_neigh_state {
	WR_NEIGH_NONE = 0,
	WR_NEIGH_INCOMPLETE,    /**< asked, no answer yet */
	WR_NEIGH_REACHABLE,     /**< answered within the reachable time */
	WR_NEIGH_STALE,         /**< known, not confirmed lately: used, re-asked when used */
	WR_NEIGH_FAILED,        /**< asked the most times, never answered */
};

/** An IPv6 address's state (RFC 4862). */
enum wr_ip6_state {
	WR_IP6_NONE = 0,
	WR_IP6_TENTATIVE,       /**< duplicate address detection under way */
	WR_IP6_PREFERRED,
	WR_IP6_DEPRECATED,      /**< preferred lifetime over, still valid */
	WR_IP6_DUPLICATE,       /**< DAD found another host with it: never used */
};

/** Where an IPv6 address came from. */
enum wr_ip6_origin {
	WR_IP6_LINK_LOCAL = 0,  /**< fe80::/64 from the MAC's EUI-64 */
	WR_IP6_STATIC,
	WR_IP6_SLAAC,
	WR_IP6_DHCP,
};

struct wr_host_ip6 {
	__uint128_t addr;
	uint8_t prefix;
	uint8_t state;          /**< enum wr_ip6_state */
	uint8_t origin;         /**< enum wr_ip6_origin */
	uint8_t dad_left;       /**< DAD solicitations still to send */
	uint32_t valid_s;       /**< lifetimes as given (SLAAC, DHCPv6); 0xffffffff = infinite */
	uint32_t preferred_s;
	uint64_t since_ns;      /**< when it was added */
};

/** A host's view of one neighbour (its gateway, or a host that spoke to it). */
struct wr_host_neigh {
	__uint128_t ip;         /**< IPv4 as its 32 bits, or IPv6 */
	uint8_t v6;
	uint8_t state;          /**< enum wr_neigh_state */
	uint8_t probes;         /**< requests sent since the last answer */
	uint8_t mac[6];
	uint64_t updated_ns;    /**< last state change (its age: now - updated_ns) */
};

/** A host's addressing state for IPv4. */
enum wr_ip4_state {
	WR_IP4_NONE = 0,        /**< no address (DHCP not bound yet, or released) */
	WR_IP4_UP,              /**< has its address */
};

/** One emulated host.  The engine owns the table; modules read it and
 * change addresses only through wr_hosts_set_ip4()/wr_hosts_add_ip6()/.. */
struct wr_host {
	uint8_t mac[6];
	uint8_t n_tags;
	uint8_t ip4_state;      /**< enum wr_ip4_state */
	uint16_t tpid[WR_HOST_TAGS_MAX];
	uint16_t tci[WR_HOST_TAGS_MAX];     /**< PCP and VLAN ID, outer first */
	uint32_t group;         /**< index into the specs' groups */
	uint32_t ip4;
	uint8_t prefix4;
	uint8_t n_ip6;
	uint8_t started;        /**< bring-up began (wr_hosts_tick paces it) */
	uint8_t pending;        /**< modules not done with bring-up (bit per enum wr_host_proto_id; bit 7 the engine's: DAD, gateways) */
	uint8_t failed;         /**< bits of pending that ended in failure */
	uint32_t gw4;           /**< 0 = none */
	__uint128_t gw6;        /**< 0 = none */
	struct wr_host_ip6 ip6[WR_HOST_IP6_MAX];
	struct wr_host_neigh gw4_n; /**< the IPv4 gateway's entry */
	struct wr_host_neigh gw6_n; /**< the IPv6 gateway's entry */
};

/**
 * A received frame, parsed once by wr_hosts_input() for every module: the
 * link header behind 0..2 tags, then ARP or IPv4/IPv6 (IPv6 past a
 * hop-by-hop header: MLD comes behind one), then the ICMP type or the UDP
 * ports.  Checked: lengths, the IPv4 header checksum.  Not checked: the
 * payload's own checksums and fields (each module checks what it reads).
 */
struct wr_host_rx {
	const uint8_t *frame;
	uint32_t len;
	const uint8_t *dst_mac;
	const uint8_t *src_mac;
	uint8_t n_tags;
	uint16_t tpid[WR_HOST_TAGS_MAX];
	uint16_t tci[WR_HOST_TAGS_MAX];
	uint16_t ethertype;     /**< after the tags */
	uint32_t l3_off;        /**< ARP, IPv4 or IPv6 header */
	uint8_t ip_version;     /**< 4, 6, or 0 (ARP, other) */
	uint8_t l4_proto;       /**< IPv4 protocol / IPv6 next header past hop-by-hop */
	uint8_t hop_limit;      /**< TTL or hop limit */
	uint8_t router_alert;   /**< IPv4 option 148 or IPv6 hop-by-hop option 5 present */
	uint32_t l4_off;        /**< ICMP, ICMPv6, IGMP, UDP header */
	uint32_t l4_len;        /**< its length to the end of the IP payload */
	__uint128_t src_ip;     /**< IPv4 as its 32 bits */
	__uint128_t dst_ip;
	uint16_t sport;         /**< UDP */
	uint16_t dport;
	uint8_t icmp_type;      /**< ICMP / ICMPv6 */
};

/**
 * A protocol module (one file in lib/core/host, one line in
 * wr_host_protos.def).  Every member but @c name may be NULL.
 */
struct wr_host_proto {
	const char *name;       /**< its key in a host group, its counters' prefix */
	/**
	 * Parse the group's @c name key (@p n: a scalar or a map) into a
	 * config of its own, malloc'ed into @p *cfg (a flat struct: freed
	 * with free()).  Errors with file:line:col through @p w.  @p g is the
	 * group so far (its ipv4:/ipv6: mode is known: a module keyed under
	 * ipv4:/ipv6: is called by the loader with the `dhcp` value's node).
	 * @return 0, -EINVAL, -ENOMEM.
	 */
	int (*parse)(struct wr_ywalk *w, const struct wr_ynode *n,
		     const struct wr_host_group *g, void **cfg);
	/** Size of its per-host state (zeroed at start), 0 for none. */
	size_t state_size;
	/** Size of its per-port data (zeroed at create: its counters), 0
	 * for none. */
	size_t data_size;
	/** True when @p rx is this module's (tried in the .def's order,
	 * after the engine's own ARP/ND/echo). */
	bool (*wants)(const struct wr_host_rx *rx);
	/** Take a frame it wanted (it finds its hosts: wr_hosts_by_*). */
	void (*input)(struct wr_hosts *hs, const struct wr_host_rx *rx,
		      uint64_t now);
	/** Host @p h of a group naming the module starts (bring-up).  The
	 * host's bit in pending is set before; clear it with
	 * wr_hosts_done(). */
	void (*start)(struct wr_hosts *hs, uint32_t h, uint64_t now);
	/** The module's timer for @p h came due (wr_hosts_timer()). */
	void (*timer)(struct wr_hosts *hs, uint32_t h, uint64_t now);
	/** The run ends: release what @p h holds (DHCP RELEASE, leave
	 * groups).  Frames sent here still go out before the port stops. */
	void (*stop)(struct wr_hosts *hs, uint32_t h, uint64_t now);
	/** A word for @p h's state in this module ("bound", "renewing"). */
	const char *(*state)(const struct wr_hosts *hs, uint32_t h);
	/** The module's counters (per state, per failure), each by name. */
	void (*counters)(const struct wr_hosts *hs,
			 void (*put)(void *ctx, const char *name, uint64_t v),
			 void *ctx);
};

/** The registry: index by enum wr_host_proto_id; a NULL after the last
 * (so that a build without modules has an array all the same). */
extern const struct wr_host_proto *const wr_host_protos[WR_HOST_PROTO__COUNT + 1];

/** By name, or NULL. */
const struct wr_host_proto *wr_host_proto_find(const char *name, int *id);

/** How the engine sends a frame: @p frame (@p len bytes, no FCS) is copied
 * before the call returns.  @return 0, or -ENOBUFS (counted as tx_drop). */
typedef int (*wr_hosts_send_fn)(void *ctx, const uint8_t *frame, uint32_t len);

/**
 * The hosts of port @p port of @p specs (all its groups, in order: host
 * indexes are stable for the run), nothing started yet.  @p specs is
 * kept, not copied: it outlives @p hs (the stream file of the run).
 * Everything is allocated here (wr_hosts_mem()), nothing later.  @p seed makes
 * transaction IDs and random delays a function of the stream file's seed.
 * @return 0; -EINVAL (@p err: more than WR_HOSTS_PORT_MAX hosts, two
 *         groups with one MAC); -ENOMEM.
 */
int wr_hosts_create(struct wr_hosts **hs, const struct wr_host_specs *specs,
		    uint16_t port, uint64_t seed, wr_hosts_send_fn send,
		    void *send_ctx, struct wr_error *err);
void wr_hosts_free(struct wr_hosts *hs);
/** Bytes the hosts hold (table, indexes, timers, modules' states): all
 * allocated at create, none later (doc/hosts.md: memory per host). */
size_t wr_hosts_mem(const struct wr_hosts *hs);

/** Begin bring-up at @p now: hosts start at their groups' rates with at
 * most their outstanding caps (wr_hosts_tick starts the rest, at most 1024
 * a call: a group at rate 0 starts in calls one after another). */
void wr_hosts_start(struct wr_hosts *hs, uint64_t now);
/** Stop every host (modules' stop: releases, leaves). */
void wr_hosts_stop(struct wr_hosts *hs, uint64_t now);
/** True when no host is pending (every module done, or failed). */
bool wr_hosts_up(const struct wr_hosts *hs);

/** One received frame (not owned: copy what must outlive the call). */
void wr_hosts_input(struct wr_hosts *hs, const uint8_t *frame, uint32_t len,
		    uint64_t now);
/** Timers due by @p now, and bring-up.  @return the next due time (ns). */
uint64_t wr_hosts_tick(struct wr_hosts *hs, uint64_t now);

/* ---- For modules ---- */

uint32_t wr_hosts_n(const struct wr_hosts *hs);
struct wr_host *wr_hosts_get(struct wr_hosts *hs, uint32_t h);
const struct wr_host *wr_hosts_cget(const struct wr_hosts *hs, uint32_t h);
const struct wr_host_group *wr_hosts_group(const struct wr_hosts *hs,
					   uint32_t h);
/** The module's config for @p h's group (NULL when the group has none). */
const void *wr_hosts_cfg(const struct wr_hosts *hs, uint32_t h,
			 enum wr_host_proto_id id);
/** The module's state for @p h (state_size bytes, zeroed at create). */
void *wr_hosts_state(struct wr_hosts *hs, uint32_t h,
		     enum wr_host_proto_id id);

/** The module's state for @p h, read-only (its state word, counters). */
const void *wr_hosts_cstate(const struct wr_hosts *hs, uint32_t h,
			    enum wr_host_proto_id id);
/** The module's per-port data (data_size bytes, zeroed at create; NULL
 * when 0): what is not one host's, such as its counters. */
void *wr_hosts_data(struct wr_hosts *hs, enum wr_host_proto_id id);
const void *wr_hosts_cdata(const struct wr_hosts *hs,
			   enum wr_host_proto_id id);

/** Host by MAC, or -1. */
int64_t wr_hosts_by_mac(const struct wr_hosts *hs, const uint8_t mac[6]);
/** Host holding IPv4 @p ip on the VLANs of @p rx (its tags), or -1. */
int64_t wr_hosts_by_ip4(const struct wr_hosts *hs,
			const struct wr_host_rx *rx, uint32_t ip);
/** Host holding IPv6 @p ip (any state but DUPLICATE) on @p rx's VLANs, or -1. */
int64_t wr_hosts_by_ip6(const struct wr_hosts *hs,
			const struct wr_host_rx *rx, __uint128_t ip);
/** True when @p h is on the VLANs @p rx came on (same tag count and IDs). */
bool wr_hosts_same_link(const struct wr_hosts *hs, uint32_t h,
			const struct wr_host_rx *rx);

/** Write @p h's link header (to @p dst, its MAC, its tags, @p ethertype)
 * into @p buf.  @return its length. */
uint32_t wr_hosts_l2(const struct wr_hosts *hs, uint32_t h, uint8_t *buf,
		     const uint8_t dst[6], uint16_t ethertype);
/** Send a frame @p h built (padded with zeros to 60 bytes, and 4 a tag,
 * here when shorter: @p frame has room for 68). */
void wr_hosts_send(struct wr_hosts *hs, uint8_t *frame, uint32_t len);

/** Call the module @p id's timer for @p h at @p when (ns); replaces the one
 * set before; 0 cancels.  Resolution: one millisecond. */
void wr_hosts_timer(struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id,
		    uint64_t when);
/** The module @p id is done bringing @p h up (@p ok false: it failed). */
void wr_hosts_done(struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id,
		   bool ok);
/** A 32-bit value of the run's seeded generator (xids, jitter). */
uint32_t wr_hosts_rand(struct wr_hosts *hs);

/** Give @p h IPv4 @p ip/@p prefix, gateway @p gw (0: none): indexed,
 * gratuitous ARP sent, the gateway resolved.  @p ip 0 takes it away. */
int wr_hosts_set_ip4(struct wr_hosts *hs, uint32_t h, uint32_t ip,
		     uint8_t prefix, uint32_t gw, uint64_t now);
/** Add (or refresh the lifetimes of) an IPv6 address: TENTATIVE and DAD
 * begun (RFC 4862), PREFERRED after it with an unsolicited NA.
 * @return its slot, -ENOSPC. */
int wr_hosts_add_ip6(struct wr_hosts *hs, uint32_t h, __uint128_t ip,
		     uint8_t prefix, enum wr_ip6_origin origin,
		     uint32_t valid_s, uint32_t preferred_s, uint64_t now);
/** Remove an IPv6 address @p h holds. */
void wr_hosts_del_ip6(struct wr_hosts *hs, uint32_t h, __uint128_t ip);
/** Set @p h's IPv6 default router (a link-local address from an RA), and
 * resolve it. */
void wr_hosts_set_gw6(struct wr_hosts *hs, uint32_t h, __uint128_t gw,
		      uint64_t now);

/**
 * A neighbour a host reaches directly that is not its gateway: the on-link
 * peer of its TCP connections (lib/ctl/wr_session_tcp: one entry per
 * hosts group and peer address, asked by one host of the group).
 * Resolved as a gateway is (RFC 4861 7.3.2's states, MAX_SOLICIT
 * requests a second apart, then FAILED), and learned from the peer's own
 * requests too.  Counted peer_resolved / peer_failed.
 */
struct wr_host_peer {
	uint32_t host;          /**< the host that asks (its index here) */
	struct wr_host_neigh n; /**< @c ip and @c v6 set by the caller */
};

/**
 * Resolve @p n peers from @p now on (their state set INCOMPLETE here).
 * @p p is kept, not copied: it must outlive @p hs, or be replaced first
 * by another call (NULL, 0: none).  An entry whose host is out of range
 * or has no address of the family to ask from fails at once.
 */
void wr_hosts_peers(struct wr_hosts *hs, struct wr_host_peer *p, uint32_t n,
		    uint64_t now);

/* ---- For the control plane (the `hosts` API, counters) ---- */

/** The engine's own counters (ARP/ND/echo answered, DAD, resolution,
 * frames dropped as malformed by reason, tx_drop; hosts per gateway and
 * address state; mem_bytes) and each module's, by name, a module's as
 * <module>_<name> ("dhcp4_bound"). */
void wr_hosts_counters(const struct wr_hosts *hs,
		       void (*put)(void *ctx, const char *name, uint64_t v),
		       void *ctx);
/**
 * Whether counter @p name of wr_hosts_counters() (or of the host service,
 * whose own are all counters) is a gauge, a count of hosts or bytes now
 * (hosts, hosts_pending, mem_bytes, the gateway and address states, a
 * module's state_*), which stats.clear leaves alone.
 */
bool wr_hosts_counter_is_gauge(const char *name);

/**
 * For a module's counters: its hosts counted by state, each count put as
 * "state_<names[i]>" for the @p n states; a host's state is the uint8_t at
 * @p state_off of its per-host state.  Hosts of groups without the module
 * are not counted.  Counted when asked, not kept on every change.
 */
void wr_hosts_put_states(const struct wr_hosts *hs, enum wr_host_proto_id id,
			 size_t state_off, const char *const *names,
			 unsigned int n,
			 void (*put)(void *ctx, const char *name, uint64_t v),
			 void *ctx);
/** For a module's counters: @p v[i] put as "<prefix><names[i]>" for i in
 * @p first..@p n - 1 (a reason list whose 0 is "none" starts at 1). */
void wr_hosts_put_list(const char *prefix, const char *const *names,
		       const uint64_t *v, unsigned int first, unsigned int n,
		       void (*put)(void *ctx, const char *name, uint64_t v),
		       void *ctx);
/** @p h's state in module @p id's words ("" when the group has none). */
const char *wr_hosts_proto_state(const struct wr_hosts *hs, uint32_t h,
				 enum wr_host_proto_id id);

#endif /* WR_HOST_H */

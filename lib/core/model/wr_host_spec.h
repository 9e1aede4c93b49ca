/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_spec: the emulated hosts a stream file declares (its `hosts:` key), as plain data. */
#ifndef WR_HOST_SPEC_H
#define WR_HOST_SPEC_H

/**
 * @file
 * A stream file may declare, per port, groups of emulated hosts (doc/hosts.md):
 *
 *   hosts:
 *     - name: clients          # streams say `src: hosts.clients`
 *       port: 0
 *       count: 10000
 *       mac: 02:10:00:00:00:01 # first MAC; mac_step (default 1)
 *       vlan: [100]            # 0..2 tags, outer first; vlan_step per tag
 *       ipv4: {addr: 10.0.0.10, step: 0.0.0.1, prefix: 16, gateway: 10.0.0.1}
 *       # or ipv4: dhcp  /  ipv4: {dhcp: {relay_agent: ...}}
 *       ipv6: {addr: 2001:db8::10, prefix: 64, gateway: 2001:db8::1}
 *       # or ipv6: slaac / ipv6: {dhcp: {ia_na: true, ia_pd: true}}
 *       igmp: {version: 3, groups: [...]}
 *       mld:  {version: 2, groups: [...]}
 *       bringup: {rate: 1000, outstanding: 256}
 *
 * This is the model: what the loader (lib/core/load) fills and the host
 * engine (lib/core/host) reads.  The common part of a group is here; what a
 * protocol module alone reads (DHCP's options, the groups IGMP joins) is
 * that module's flat struct in @c proto_cfg, parsed by the module
 * (struct wr_host_proto, wr_host.h) and freed with free(): a module's
 * config owns no pointer.
 *
 * Addresses are host-order integers as in wr_stream.h.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"

#define WR_HOST_GROUP_NAME_MAX 32
#define WR_HOST_GROUPS_MAX 64
/** Tags a host's frames carry: none, 802.1Q, or QinQ. */
#define WR_HOST_TAGS_MAX 2
/** Most hosts of one port (all its groups). */
#define WR_HOSTS_PORT_MAX (1u << 20)
/** Protocol modules a group may configure (wr_host_protos.def). */
#define WR_HOST_PROTO_MAX 16

/** How a family's address is had. */
enum wr_host_addr_mode {
	WR_HOST_ADDR_NONE = 0,  /**< the family is off */
	WR_HOST_ADDR_STATIC,    /**< addr + k * step for host k */
	WR_HOST_ADDR_DHCP,      /**< DHCPv4 (RFC 2131) or DHCPv6 (RFC 8415) */
	WR_HOST_ADDR_SLAAC,     /**< IPv6 only: from router advertisements (RFC 4862) */
};

/** Where in the stream file a group was declared, for errors found later. */
struct wr_host_where {
	uint32_t line;
	uint32_t col;
};

/** One family's addressing of a group. */
struct wr_host_addr_spec {
	enum wr_host_addr_mode mode;
	__uint128_t addr;       /**< STATIC: host 0's address */
	__uint128_t step;       /**< STATIC: between consecutive hosts (default 1) */
	uint8_t prefix;         /**< prefix length (v4 default 24, v6 64) */
	bool has_gateway;
	__uint128_t gateway;    /**< next hop off the prefix (STATIC; DHCP/SLAAC learn it) */
};

/** One group of hosts: @c count hosts, host k's MAC mac + k * mac_step, ... */
struct wr_host_group {
	char name[WR_HOST_GROUP_NAME_MAX];
	struct wr_host_where where;
	uint16_t port;
	uint32_t count;
	uint64_t mac;           /**< host 0's MAC, a 48-bit value */
	uint64_t mac_step;      /**< default 1 */
	uint8_t n_tags;
	uint16_t tpid[WR_HOST_TAGS_MAX];     /**< outer first; 0x8100 default, outer of two 0x88a8 */
	uint16_t vlan[WR_HOST_TAGS_MAX];     /**< host 0's VLAN IDs */
	uint16_t vlan_step[WR_HOST_TAGS_MAX];/**< default 0: every host on one VLAN */
	uint8_t pcp[WR_HOST_TAGS_MAX];
	struct wr_host_addr_spec v4;
	struct wr_host_addr_spec v6;
	uint32_t bringup_rate;  /**< hosts started per second; 0 = all at once */
	uint32_t outstanding;   /**< most hosts starting at once; 0 = no cap */
	/** A module's own config (its flat struct), NULL when the group does
	 * not name the module; index: enum wr_host_proto_id. */
	void *proto_cfg[WR_HOST_PROTO_MAX];
};

/** Every group of a stream file (all ports). */
struct wr_host_specs {
	struct wr_host_group *groups;   /**< owned, n entries */
	uint32_t n;
};

/** Index of the group called @p name, or -1. */
int wr_host_specs_find(const struct wr_host_specs *s, const char *name);

/** Free what @p s owns (groups and their modules' configs).  NULL-safe. */
void wr_host_specs_free(struct wr_host_specs *s);

#endif /* WR_HOST_SPEC_H */

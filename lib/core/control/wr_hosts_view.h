/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_hosts_view: one port's emulated hosts as the API (hosts.list, hosts.counters, stats.get), the results JSON and the end of a run show them. */
#ifndef WR_HOSTS_VIEW_H
#define WR_HOSTS_VIEW_H

/**
 * @file
 * The control plane never reads a live host table (wr_host.h: one thread,
 * the service's, owns it).  The service hands it a copy of a port's hosts
 * and counters (lib/dp/wr_host_svc), and this file turns such a copy into
 * what users read:
 *
 *   wr_hosts_view_list()      hosts.list: a page of the hosts matching a
 *                             group and a state, each with its MAC, tags,
 *                             addresses, gateways' neighbour entries and
 *                             modules' state words;
 *   wr_hosts_view_counters()  hosts.counters, stats.get's and the results'
 *                             "hosts": how many are up, pending, failed,
 *                             and every counter by name;
 *   wr_hosts_view_summary(),
 *   wr_hosts_view_table()     the same as text, at the end of `wirerate run`.
 *
 * A host's state (one word, the filter's): "idle" (bring-up has not
 * reached it), "pending" (a module is not done, or the engine: DAD, the
 * gateways), "up" (every family its group configures has an address),
 * "failed" (a bit of wr_host's failed: a module gave up, a gateway never
 * answered, DAD found an address taken).
 * No EAL: unit-tested with copies of its own (test/test_hosts_view.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "wr_error.h"
#include "wr_host.h"

/** A counter of the engine or of a module, by name (modules' names carry
 * their prefix: "dhcp4_..."). */
struct wr_hosts_ctr {
	char name[48];
	uint64_t value;
};

/** A copy of one port's hosts (or of a range of them), owned by the
 * reader. */
struct wr_hosts_snap {
	uint16_t port;
	/** The service's clock when the copy was made (neighbour ages). */
	uint64_t now_ns;
	/** The loaded stream file's groups (their names, families). */
	const struct wr_host_specs *specs;
	/** Index of hosts[0] in the port's table, and the port's host count. */
	uint32_t first;
	uint32_t n_total;
	uint32_t n;
	const struct wr_host *hosts;
	/** n * WR_HOST_PROTO__COUNT module state words (host-major; "" or
	 * NULL: the module is not the host's), or NULL for none. */
	const char *const *states;
	const struct wr_hosts_ctr *ctrs;
	uint32_t n_ctrs;
};

/** A host's state (above). */
enum wr_host_view_state {
	WR_HOST_VIEW_IDLE = 0,
	WR_HOST_VIEW_PENDING,
	WR_HOST_VIEW_UP,
	WR_HOST_VIEW_FAILED,
	WR_HOST_VIEW__COUNT
};

extern const char *const wr_host_view_state_names[WR_HOST_VIEW__COUNT];

/** hosts.list's most hosts per page (a reply of about 600 kB). */
#define WR_HOSTS_VIEW_LIMIT_MAX 1000
#define WR_HOSTS_VIEW_LIMIT_DEFAULT 100

/** The state of @p h, of group @p g (NULL: none known, families unchecked). */
enum wr_host_view_state wr_host_view_state(const struct wr_host *h,
					   const struct wr_host_group *g);

/** Module @p id's name (wr_host_protos.def's order), NULL past the last:
 * loops over the modules that must also build without any. */
const char *wr_host_view_proto_name(unsigned int id);

/** A state's name to its value.  @return 0, -EINVAL for an unknown word. */
int wr_host_view_state_parse(const char *word, enum wr_host_view_state *st);

/** Host @p i of the copy as JSON (index, group, mac, vlans, state, ipv4,
 * ipv6, neighbours, modules).  NULL on ENOMEM. */
json_t *wr_hosts_view_host(const struct wr_hosts_snap *s, uint32_t i);

/** What hosts.list selects. */
struct wr_hosts_query {
	const char *group;      /**< NULL: every group */
	bool has_state;
	enum wr_host_view_state state;
	uint64_t offset;        /**< into the hosts matching */
	uint64_t limit;         /**< 1..WR_HOSTS_VIEW_LIMIT_MAX */
};

/** A page being gathered (wr_hosts_view_begin/add/end): the server reads
 * a port's hosts from the service in chunks and adds each. */
struct wr_hosts_page {
	struct wr_hosts_query q;
	uint16_t port;
	int group;              /**< the group's index, -1 any */
	uint64_t matched;       /**< hosts matching so far */
	json_t *hosts;
};

/** Check @p q against the port's groups (@p err: -ENOENT group, -ERANGE
 * limit, path the parameter) and start a page. */
int wr_hosts_view_begin(struct wr_hosts_page *pg,
			const struct wr_host_specs *specs, uint16_t port,
			const struct wr_hosts_query *q, struct wr_error *err);
/** True when the page filters (a group or a state): every host must be
 * added, in order; else only the copy of [offset, offset + limit). */
bool wr_hosts_view_filtered(const struct wr_hosts_page *pg);
/** Add a copy's hosts (copies in table order).  @return 0, -ENOMEM. */
int wr_hosts_view_add(struct wr_hosts_page *pg, const struct wr_hosts_snap *s);
/** The reply (below); -ERANGE when the offset is past what matched.
 * The page is finished either way. */
int wr_hosts_view_end(struct wr_hosts_page *pg, uint32_t n_total,
		      json_t **out, struct wr_error *err);
/** Drop a page not ended. */
void wr_hosts_view_abort(struct wr_hosts_page *pg);

/**
 * A page of the copy's hosts matching @p q (begin, add, end at once): {"port", "total" (the port's
 * hosts), "matched", "offset", "hosts": [...], "next_offset" (null at the
 * end)}.  @return 0 with @p out set; -ENOENT (@p err: no group of that name
 * on the port), -ERANGE (offset past the hosts matched, limit 0 or over
 * the most), -ENOMEM.  @p err's path names the parameter at fault.
 */
int wr_hosts_view_list(const struct wr_hosts_snap *s,
		       const struct wr_hosts_query *q, json_t **out,
		       struct wr_error *err);

/** How many hosts of the copy are in each state. */
void wr_hosts_view_count(const struct wr_hosts_snap *s,
			 uint32_t count[WR_HOST_VIEW__COUNT]);

/** {"port", "hosts", "idle", "pending", "up", "failed", "counters":
 * {name: value}}.  NULL on ENOMEM. */
json_t *wr_hosts_view_counters(const struct wr_hosts_snap *s);

/** One line per port (hosts up / pending / failed), then its counters
 * that are not zero, as `wirerate run` ends. */
void wr_hosts_view_summary(FILE *out, const struct wr_hosts_snap *s);

/** The same, with counts by state of the whole table (the copy @p s may
 * be a part of it: its counters and total are used). */
void wr_hosts_view_summary_counts(FILE *out, const struct wr_hosts_snap *s,
				  const uint32_t count[WR_HOST_VIEW__COUNT]);

/** The per-host table (`wirerate run --hosts`): index, group, state, MAC,
 * VLANs, addresses, each gateway's MAC, state and age; the header when
 * the copy starts the table (first 0). */
void wr_hosts_view_table(FILE *out, const struct wr_hosts_snap *s);

#endif /* WR_HOSTS_VIEW_H */

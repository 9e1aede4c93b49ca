/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream_hosts: streams that take their addresses from emulated hosts (`src: hosts.NAME`): references read, checked against `hosts:`, fields filled. */
#ifndef WR_STREAM_HOSTS_H
#define WR_STREAM_HOSTS_H

/**
 * @file
 * A stream may send from a group of hosts (doc/hosts.md, "Streams from
 * hosts"):
 *
 *   streams:
 *     - name: up
 *       src: hosts.clients          # eth.src, vlan ids, the IP src
 *       ipv4: {dst: 198.19.0.1}
 *     - name: up6
 *       stack:
 *         - eth: {src: hosts.clients}
 *         - vlan: {id: hosts.clients}
 *         - ipv6: {src: hosts.clients, dst: 2001:db8::1}
 *         - udp
 *
 * Frame k is host (k mod n)'s: its MAC, its VLAN IDs, its IPv4 or its
 * first global IPv6, in lockstep (`vary: together`, every one of those
 * fields of period n).  An IP src from hosts brings eth.src with it when
 * the file does not give eth.src.
 *
 * Hosts with static addresses are known when the file is loaded: their
 * fields are filled then, as INC ranges (or lists when the hosts' values
 * wrap), so `wirerate check` and `dump` show them and the template is
 * built once.  Addresses had by DHCP or SLAAC exist only once the hosts
 * are up: the loader fills what it knows (MACs, VLANs) and leaves the IP
 * at 0 (the stream's hosts_late); the session calls wr_stream_hosts_fill()
 * with the hosts' table after bring-up, which makes every field a list of
 * the hosts that came up (the others skipped and counted).
 *
 * The loader's part (wr_yaml_host_ref(), wr_yaml_stream_hosts(),
 * wr_yaml_hosts_resolve()) errs with file:line:col through a struct
 * wr_ywalk; the session's with a struct wr_error.  Pure data; any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_host.h"
#include "wr_host_spec.h"
#include "wr_stream.h"
#include "wr_ytree.h"

/** True when scalar @p v names hosts ("hosts." followed by a name). */
bool wr_yaml_is_host_ref(const struct wr_ynode *v);

/**
 * Field @p field of layer @p layer of @p s is written `hosts.NAME` (a
 * source) or `hosts.NAME.groups` (a destination) at @p v: checked for the
 * field (eth.src/dst of the first layer, vlan.id of a tag right behind
 * it, src/dst of the outermost IPv4 or IPv6 layer) and kept in
 * s->host_refs.  @return 0, -EINVAL (the error at @p v), -ENOMEM.
 */
int wr_yaml_host_ref(struct wr_ywalk *w, const struct wr_ynode *v,
		     struct wr_stream *s, uint32_t layer, unsigned int field);

/**
 * The stream-level keys `src: hosts.NAME` (eth.src, every tag's vlan.id,
 * the outermost IP layer's src) and `dst: hosts.NAME.groups` of stream
 * node @p n, and the fields an IP reference brings (eth.src, eth.dst the
 * file left out).  After the headers are read.  @return 0, -EINVAL,
 * -ENOMEM.
 */
int wr_yaml_stream_hosts(struct wr_ywalk *w, const struct wr_ynode *n,
			 struct wr_stream *s);

/**
 * Check every stream's references against @p hs (the file's `hosts:`):
 * the group exists, is on the stream's port, has the family and the tags
 * the fields ask for; `vary: together`.  Fill the fields of static
 * addresses; mark hosts_late those that wait for bring-up.  @return 0,
 * -EINVAL with the reference's file:line:col in @p w's error, -ENOMEM.
 */
int wr_yaml_hosts_resolve(struct wr_ywalk *w, struct wr_stream_file *f,
			  const struct wr_host_specs *hs);

/**
 * Fill the fields @p s takes from hosts with what the hosts hold now:
 * @p hosts (@p n entries @p stride bytes apart, in the engine's host
 * order: a port's table, or the struct wr_host inside each entry of a
 * copy of it) are searched for those of the stream's group;
 * a host whose address the stream needs is not up (no IPv4, no preferred
 * global IPv6) is skipped and counted in s->hosts_skipped.  Every filled
 * field becomes a list (one value per host that is up, in host order),
 * s->hosts_from their number, hosts_filled true (hosts_late stays: the
 * next bring-up fills it again).  Its template is built after (a kept
 * one holds the old values).
 * @return 0; -EHOSTUNREACH when no host of the group is up (@p err says
 *         which stream and group); -ENOMEM.
 */
int wr_stream_hosts_fill(struct wr_stream *s, const struct wr_host *hosts,
			 uint32_t n, size_t stride, struct wr_error *err);

/** The group name @p s sends from ("" when none). */
const char *wr_stream_hosts_src(const struct wr_stream *s);

#endif /* WR_STREAM_HOSTS_H */

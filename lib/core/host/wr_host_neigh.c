/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_neigh: what every host does itself: answer ARP, NS and echo, announce its addresses (gratuitous ARP, unsolicited NA), detect duplicate IPv6 addresses, resolve its gateways. */
#include <errno.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_host_priv.h"
#include "wr_nd.h"

#define NS_PER_S 1000000000ull
/* RFC 4861 section 10: MAX_MULTICAST_SOLICIT 3 and RETRANS_TIMER 1 s
 * (RFC 1122 2.3.2.1 asks no more than one ARP request a second per
 * address: the same schedule serves both); REACHABLE_TIME is
 * BaseReachableTime, 30 s, not drawn from 0.5..1.5 of it so that runs
 * repeat. */
#define MAX_SOLICIT 3
#define RETRANS_NS NS_PER_S
#define REACHABLE_NS (30 * NS_PER_S)
/* RFC 4862 5.1: DupAddrDetectTransmits 1, one RetransTimer apart. */
#define DAD_TRANSMITS 1
#define ND_HOP_LIMIT 255
#define ND_HLEN 24
#define INFINITE_S 0xffffffffu

static const uint8_t zero_mac[6];
static const uint8_t all_nodes_mac[6] = { 0x33, 0x33, 0, 0, 0, 1 };
#define ALL_NODES (((__uint128_t)0xff02000000000000ull << 64) | 1)

__uint128_t
wr_hosts_link_local(const uint8_t mac[6])
{
	/* fe80::/64 and the modified EUI-64: the universal/local bit
	 * flipped, ff:fe in the middle. */
	uint64_t iid = (uint64_t)(mac[0] ^ 0x02) << 56 | (uint64_t)mac[1] << 48 |
		       (uint64_t)mac[2] << 40 | 0xfffe000000ull |
		       (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];

	return (__uint128_t)0xfe80000000000000ull << 64 | iid;
}

/* A set of one address, for wr_arp/wr_nd's responders. */
#define ONE_ADDR(name, ip)                                        \
	struct wr_addr_range name##_r = { (ip), (ip) };           \
	struct wr_addrs name = { &name##_r, 1, 1 }

static uint16_t
host_tags(const struct wr_hosts *hs, uint32_t h, uint8_t *tags)
{
	return (uint16_t)wr_hosts_tags(&hs->h[h], tags);
}

static void
send_arp(struct wr_hosts *hs, uint32_t h, uint16_t op, const uint8_t *dst,
	 uint32_t tpa)
{
	const struct wr_host *x = &hs->h[h];
	uint8_t tags[4 * WR_HOST_TAGS_MAX];
	uint16_t tl = host_tags(hs, h, tags), n;

	n = wr_arp_build(hs->buf, op, dst, x->mac, x->ip4, zero_mac, tpa,
			 tags, tl);
	wr_hosts_send(hs, hs->buf, n);
}

static void
send_ns(struct wr_hosts *hs, uint32_t h, __uint128_t src, __uint128_t target)
{
	uint8_t tags[4 * WR_HOST_TAGS_MAX];
	uint16_t tl = host_tags(hs, h, tags);
	uint16_t n = wr_nd_build_ns(hs->buf, hs->h[h].mac, src, target, tags, tl);

	wr_hosts_send(hs, hs->buf, n);
}

/* RFC 4861 7.2.6 / RFC 4862 5.4: an address that became preferred is
 * announced to all nodes, override set, not solicited. */
static void
send_unsolicited_na(struct wr_hosts *hs, uint32_t h, __uint128_t ip)
{
	uint8_t tags[4 * WR_HOST_TAGS_MAX];
	uint16_t tl = host_tags(hs, h, tags);
	uint16_t n = wr_nd_build_na(hs->buf, hs->h[h].mac, all_nodes_mac, ip,
				    ALL_NODES, ip, WR_ND_NA_O, tags, tl);

	wr_hosts_send(hs, hs->buf, n);
	hs->c.na_unsolicited_sent++;
}

/* The address @p h sends ND from: its link-local one when preferred (RFC
 * 4861 7.2.2 allows any), else another preferred one; -1 while none is. */
static int
ip6_source(const struct wr_host *x)
{
	int best = -1;
	uint8_t i;

	for (i = 0; i < x->n_ip6; i++) {
		if (x->ip6[i].state != WR_IP6_PREFERRED &&
		    x->ip6[i].state != WR_IP6_DEPRECATED)
			continue;
		if (x->ip6[i].origin == WR_IP6_LINK_LOCAL)
			return i;
		if (best < 0)
			best = i;
	}
	return best;
}

static bool
any_tentative(const struct wr_host *x)
{
	uint8_t i;

	for (i = 0; i < x->n_ip6; i++)
		if (x->ip6[i].state == WR_IP6_TENTATIVE)
			return true;
	return false;
}

/* One step of a gateway's entry (RFC 4861 7.3.2, ARP alike): probes while
 * INCOMPLETE, FAILED after MAX_SOLICIT unanswered, REACHABLE ages to
 * STALE.  @return when it needs a look again. */
static uint64_t
neigh_step(struct wr_hosts *hs, uint32_t h, struct wr_host_neigh *n,
	   uint64_t now, uint64_t *failed)
{
	const struct wr_host *x = &hs->h[h];
	uint64_t due;
	int src;

	switch (n->state) {
	case WR_NEIGH_INCOMPLETE:
		while (n->probes < MAX_SOLICIT) {
			due = n->updated_ns + n->probes * RETRANS_NS;
			if (now < due)
				return due;
			if (n->v6) {
				src = ip6_source(x);
				if (src < 0 && any_tentative(x)) {
					/* DAD first; the count starts then. */
					n->updated_ns = now;
					return UINT64_MAX;
				}
				if (src < 0)
					break;
				/* The schedule counts from the first. */
				if (n->probes == 0)
					n->updated_ns = now;
				send_ns(hs, h, x->ip6[src].addr, n->ip);
				hs->c.ns_sent++;
			} else {
				send_arp(hs, h, WR_ARP_OP_REQUEST, wr_eth_broadcast,
					 (uint32_t)n->ip);
				hs->c.arp_requests_sent++;
			}
			n->probes++;
		}
		due = n->updated_ns + MAX_SOLICIT * RETRANS_NS;
		if (n->probes == MAX_SOLICIT && now < due)
			return due;
		n->state = WR_NEIGH_FAILED;
		n->updated_ns = now;
		(*failed)++;
		return UINT64_MAX;
	case WR_NEIGH_REACHABLE:
		due = n->updated_ns + REACHABLE_NS;
		if (now < due)
			return due;
		n->state = WR_NEIGH_STALE;
		n->updated_ns = now;
		hs->c.gw_stale++;
		return UINT64_MAX;
	default:
		return UINT64_MAX;
	}
}

/* DAD of slot @p s (RFC 4862 5.4): DAD_TRANSMITS solicitations from ::
 * one RetransTimer apart, then PREFERRED and announced.  @return when it
 * needs a look again. */
static uint64_t
dad_step(struct wr_hosts *hs, uint32_t h, uint32_t s, uint64_t now)
{
	struct wr_host_ip6 *a = &hs->h[h].ip6[s];
	uint64_t due;

	while (a->state == WR_IP6_TENTATIVE) {
		due = a->since_ns + (uint64_t)(DAD_TRANSMITS - a->dad_left) *
			RETRANS_NS;
		if (now < due)
			return due;
		if (a->dad_left > 0) {
			send_ns(hs, h, 0, a->addr);
			hs->c.dad_ns_sent++;
			a->dad_left--;
			continue;
		}
		a->state = WR_IP6_PREFERRED;
		hs->c.dad_ok++;
		send_unsolicited_na(hs, h, a->addr);
	}
	return UINT64_MAX;
}

void
wr_hosts_engine_timer(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct wr_host *x = &hs->h[h];
	uint64_t next = UINT64_MAX, t;
	uint32_t s;

	for (s = 0; s < x->n_ip6; s++) {
		t = dad_step(hs, h, s, now);
		next = t < next ? t : next;
	}
	t = neigh_step(hs, h, &x->gw4_n, now, &hs->c.gw_failed);
	next = t < next ? t : next;
	t = neigh_step(hs, h, &x->gw6_n, now, &hs->c.gw_failed);
	next = t < next ? t : next;
	wr_hosts_etimer(hs, h, next == UINT64_MAX ? 0 : next);
	wr_hosts_engine_check(hs, h);
}

static void
resolve(struct wr_hosts *hs, uint32_t h, struct wr_host_neigh *n,
	__uint128_t ip, bool v6, uint64_t now)
{
	memset(n, 0, sizeof(*n));
	n->ip = ip;
	n->v6 = v6;
	if (ip == 0)
		return;
	n->state = WR_NEIGH_INCOMPLETE;
	n->updated_ns = now;
	wr_hosts_engine_busy(hs, h);
}

int
wr_hosts_set_ip4(struct wr_hosts *hs, uint32_t h, uint32_t ip, uint8_t prefix,
		 uint32_t gw, uint64_t now)
{
	struct wr_host *x;
	bool same;

	if (h >= hs->n)
		return -EINVAL;
	x = &hs->h[h];
	same = x->ip4_state == WR_IP4_UP && x->ip4 == ip;
	if (!same && x->ip4_state == WR_IP4_UP)
		wr_hosts_ip4_index(hs, h, false);
	x->prefix4 = prefix;
	if (ip == 0) {
		x->ip4 = 0;
		x->ip4_state = WR_IP4_NONE;
		x->gw4 = 0;
		memset(&x->gw4_n, 0, sizeof(x->gw4_n));
		wr_hosts_engine_timer(hs, h, now);
		return 0;
	}
	x->ip4 = ip;
	if (!same) {
		x->ip4_state = WR_IP4_UP;
		wr_hosts_ip4_index(hs, h, true);
		/* RFC 5227 3: an ARP announcement, sender and target our
		 * address, so that neighbours update what they hold. */
		send_arp(hs, h, WR_ARP_OP_REQUEST, wr_eth_broadcast, ip);
		hs->c.garp_sent++;
	}
	/* A renewal with the same gateway keeps what was learned. */
	if (!same || x->gw4 != gw || x->gw4_n.state == WR_NEIGH_FAILED ||
	    x->gw4_n.state == WR_NEIGH_NONE) {
		x->gw4 = gw;
		resolve(hs, h, &x->gw4_n, gw, false, now);
	}
	wr_hosts_engine_timer(hs, h, now);
	return 0;
}

int
wr_hosts_add_ip6(struct wr_hosts *hs, uint32_t h, __uint128_t ip,
		 uint8_t prefix, enum wr_ip6_origin origin, uint32_t valid_s,
		 uint32_t preferred_s, uint64_t now)
{
	struct wr_host *x;
	struct wr_host_ip6 *a;
	uint8_t i;

	if (h >= hs->n)
		return -EINVAL;
	x = &hs->h[h];
	for (i = 0; i < x->n_ip6; i++) {
		if (x->ip6[i].addr != ip)
			continue;
		x->ip6[i].valid_s = valid_s;
		x->ip6[i].preferred_s = preferred_s;
		return i;
	}
	if (x->n_ip6 == WR_HOST_IP6_MAX)
		return -ENOSPC;
	a = &x->ip6[x->n_ip6];
	memset(a, 0, sizeof(*a));
	a->addr = ip;
	a->prefix = prefix;
	a->origin = (uint8_t)origin;
	a->valid_s = valid_s;
	a->preferred_s = preferred_s;
	a->since_ns = now;
	a->state = WR_IP6_TENTATIVE;
	a->dad_left = DAD_TRANSMITS;
	x->n_ip6++;
	wr_hosts_ip6_index(hs, h, i, true);
	hs->c.dad_started++;
	wr_hosts_engine_busy(hs, h);
	wr_hosts_engine_timer(hs, h, now);
	return i;
}

void
wr_hosts_del_ip6(struct wr_hosts *hs, uint32_t h, __uint128_t ip)
{
	struct wr_host *x;
	uint8_t i, last;

	if (h >= hs->n)
		return;
	x = &hs->h[h];
	for (i = 0; i < x->n_ip6 && x->ip6[i].addr != ip; i++)
		;
	if (i == x->n_ip6)
		return;
	last = (uint8_t)(x->n_ip6 - 1);
	/* Unindexed while the keys are still there, then the last slot
	 * fills the hole (the array stays dense: ip6[0..n_ip6)). */
	wr_hosts_ip6_index(hs, h, i, false);
	if (i != last) {
		wr_hosts_ip6_index(hs, h, last, false);
		x->ip6[i] = x->ip6[last];
		wr_hosts_ip6_index(hs, h, i, true);
	}
	memset(&x->ip6[last], 0, sizeof(x->ip6[last]));
	x->n_ip6 = last;
}

void
wr_hosts_set_gw6(struct wr_hosts *hs, uint32_t h, __uint128_t gw, uint64_t now)
{
	struct wr_host *x;

	if (h >= hs->n)
		return;
	x = &hs->h[h];
	if (x->gw6 == gw && x->gw6_n.state != WR_NEIGH_FAILED &&
	    x->gw6_n.state != WR_NEIGH_NONE)
		return;
	x->gw6 = gw;
	resolve(hs, h, &x->gw6_n, gw, true, now);
	wr_hosts_engine_timer(hs, h, now);
}

void
wr_hosts_engine_start(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	const struct wr_host_group *g = wr_hosts_group(hs, h);
	struct wr_host *x = &hs->h[h];
	uint32_t i, k = 0;

	for (i = 0; i < hs->n_grp; i++)
		if (hs->grp[i].spec == x->group)
			k = h - hs->grp[i].first;
	if (g->v4.mode == WR_HOST_ADDR_STATIC)
		(void)wr_hosts_set_ip4(hs, h, (uint32_t)(g->v4.addr + k * g->v4.step),
				       g->v4.prefix, g->v4.has_gateway ?
				       (uint32_t)g->v4.gateway : 0, now);
	if (g->v6.mode == WR_HOST_ADDR_NONE)
		return;
	(void)wr_hosts_add_ip6(hs, h, wr_hosts_link_local(x->mac), 64,
			       WR_IP6_LINK_LOCAL, INFINITE_S, INFINITE_S, now);
	if (g->v6.mode != WR_HOST_ADDR_STATIC)
		return;
	(void)wr_hosts_add_ip6(hs, h, g->v6.addr + (__uint128_t)k * g->v6.step,
			       g->v6.prefix, WR_IP6_STATIC, INFINITE_S,
			       INFINITE_S, now);
	if (g->v6.has_gateway)
		wr_hosts_set_gw6(hs, h, g->v6.gateway, now);
}

/* ---- Frames in ---- */

static bool
for_host(const struct wr_host_rx *rx, const struct wr_host *x)
{
	/* Broadcast and multicast, or unicast to the host's MAC. */
	return (rx->dst_mac[0] & 1) || memcmp(rx->dst_mac, x->mac, 6) == 0;
}

/* @p n learned @p mac: REACHABLE when the answer confirms it (a reply, a
 * solicited NA), else STALE (RFC 4861 7.2.3/7.2.5; Linux alike for ARP). */
static void
learn_as(struct wr_hosts *hs, uint32_t h, struct wr_host_neigh *n,
	 const uint8_t *mac, bool confirmed, uint64_t now, uint64_t *resolved)
{
	bool was_resolving = n->state == WR_NEIGH_INCOMPLETE ||
			     n->state == WR_NEIGH_FAILED;

	if (!confirmed && n->state == WR_NEIGH_REACHABLE &&
	    memcmp(n->mac, mac, 6) == 0)
		return;
	memcpy(n->mac, mac, 6);
	n->state = confirmed ? WR_NEIGH_REACHABLE : WR_NEIGH_STALE;
	n->probes = 0;
	n->updated_ns = now;
	if (was_resolving)
		(*resolved)++;
	if (!confirmed && was_resolving && resolved == &hs->c.gw_resolved)
		hs->c.gw_learned_from_request++;
	wr_hosts_engine_timer(hs, h, now);
}

static void
learn(struct wr_hosts *hs, uint32_t h, struct wr_host_neigh *n,
      const uint8_t *mac, bool confirmed, uint64_t now)
{
	learn_as(hs, h, n, mac, confirmed, now, &hs->c.gw_resolved);
}

/* A peer's answer (or question) to host @p h: every entry of @p h for
 * @p ip learns @p mac.  A linear pass: there are few peers (a group's
 * servers), and only ARP and ND come here. */
static void
peers_learn(struct wr_hosts *hs, uint32_t h, __uint128_t ip, bool v6,
	    const uint8_t *mac, bool confirmed, uint64_t now)
{
	uint32_t i;

	for (i = 0; i < hs->n_peers; i++) {
		struct wr_host_peer *p = &hs->peers[i];

		if (p->host == h && p->n.ip == ip && p->n.v6 == v6 &&
		    p->n.state != WR_NEIGH_NONE)
			learn_as(hs, h, &p->n, mac, confirmed, now,
				 &hs->c.peer_resolved);
	}
}

void
wr_hosts_peers(struct wr_hosts *hs, struct wr_host_peer *p, uint32_t n,
	       uint64_t now)
{
	uint32_t i;

	hs->peers = p;
	hs->n_peers = p != NULL ? n : 0;
	for (i = 0; i < hs->n_peers; i++) {
		struct wr_host_neigh *e = &p[i].n;
		const struct wr_host *x = p[i].host < hs->n ?
					  &hs->h[p[i].host] : NULL;

		e->state = WR_NEIGH_INCOMPLETE;
		e->probes = 0;
		e->updated_ns = now;
		if (x == NULL || (!e->v6 && x->ip4_state != WR_IP4_UP) ||
		    (e->v6 && x->n_ip6 == 0)) {
			e->state = WR_NEIGH_FAILED;
			hs->c.peer_failed++;
		}
	}
}

uint64_t
wr_hosts_peers_step(struct wr_hosts *hs, uint64_t now)
{
	uint64_t next = UINT64_MAX, t;
	uint32_t i;

	for (i = 0; i < hs->n_peers; i++) {
		struct wr_host_peer *p = &hs->peers[i];

		if (p->n.state != WR_NEIGH_INCOMPLETE)
			continue;
		t = neigh_step(hs, p->host, &p->n, now, &hs->c.peer_failed);
		next = t < next ? t : next;
	}
	return next;
}

static void
arp_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	struct wr_arp_pkt a;
	struct wr_host *x;
	uint32_t n;
	int64_t h;

	/* The tags were walked once (wr_hosts_parse): the body is at l3_off. */
	if (wr_arp_parse_at(rx->frame, rx->len, rx->l3_off, &a) != 0) {
		hs->c.rx_bad_arp++;
		return;
	}
	h = wr_hosts_by_ip4(hs, rx, a.tpa);
	if (h < 0 || !for_host(rx, &hs->h[h]) || a.spa == a.tpa) {
		hs->c.rx_ignored++;
		return;
	}
	x = &hs->h[h];
	if (x->gw4 != 0 && a.spa == x->gw4 &&
	    (a.op == WR_ARP_OP_REPLY || a.op == WR_ARP_OP_REQUEST))
		learn(hs, (uint32_t)h, &x->gw4_n, a.sha, a.op == WR_ARP_OP_REPLY,
		      now);
	if (hs->n_peers > 0 &&
	    (a.op == WR_ARP_OP_REPLY || a.op == WR_ARP_OP_REQUEST))
		peers_learn(hs, (uint32_t)h, a.spa, false, a.sha,
			    a.op == WR_ARP_OP_REPLY, now);
	if (a.op != WR_ARP_OP_REQUEST)
		return;
	memcpy(hs->buf, rx->frame, rx->l3_off);
	n = wr_arp_reply_at(hs->buf, rx->l3_off, sizeof(hs->buf), x->mac, &a);
	if (n != 0) {
		wr_hosts_send(hs, hs->buf, n);
		hs->c.arp_answered++;
	}
}

static bool
echo4_input(struct wr_hosts *hs, const struct wr_host_rx *rx)
{
	uint32_t ip = (uint32_t)rx->dst_ip;
	int64_t h = wr_hosts_by_ip4(hs, rx, ip);

	if (h < 0 || memcmp(rx->dst_mac, hs->h[h].mac, 6) != 0)
		return false;
	ONE_ADDR(ours, ip);
	memcpy(hs->buf, rx->frame, rx->len);
	if (!wr_icmp_echo_reply(hs->buf, rx->len, hs->h[h].mac, &ours))
		return false;
	wr_hosts_send(hs, hs->buf, rx->len);
	hs->c.echo4_answered++;
	return true;
}

static bool
usable(const struct wr_host_ip6 *a)
{
	return a->state == WR_IP6_PREFERRED || a->state == WR_IP6_DEPRECATED;
}

static int
slot_of(const struct wr_host *x, __uint128_t ip)
{
	uint8_t i;

	for (i = 0; i < x->n_ip6; i++)
		if (x->ip6[i].addr == ip)
			return i;
	return -1;
}

/* Answer an NS or an echo request in place on a copy (wr_nd_answer: one
 * builder for every NA). */
static void
nd_answer(struct wr_hosts *hs, const struct wr_host_rx *rx, uint32_t h,
	  __uint128_t ip, uint64_t *ctr)
{
	uint32_t len = rx->len;
	enum wr_nd_verdict v;

	ONE_ADDR(ours, ip);
	memcpy(hs->buf, rx->frame, rx->len);
	v = wr_nd_answer(hs->buf, &len, sizeof(hs->buf), hs->h[h].mac, &ours, NULL);
	if (v == WR_ND_ANSWER_NS || v == WR_ND_ANSWER_ECHO) {
		wr_hosts_send(hs, hs->buf, len);
		(*ctr)++;
	}
}

/* RFC 4862 5.4.3/5.4.4: another node's NS from :: or NA for an address
 * still tentative: that address is someone else's. */
static void
duplicate(struct wr_hosts *hs, uint32_t h, int s, uint64_t now)
{
	struct wr_host *x = &hs->h[h];

	x->ip6[s].state = WR_IP6_DUPLICATE;
	hs->c.dad_duplicate++;
	wr_hosts_engine_timer(hs, h, now);
}

static void
ns_input(struct wr_hosts *hs, const struct wr_host_rx *rx, const uint8_t *m,
	 uint64_t now)
{
	__uint128_t target = wr_get128(m + 8);
	int64_t h = wr_hosts_by_ip6(hs, rx, target);
	struct wr_host *x;
	int s;

	if (h < 0 || !for_host(rx, &hs->h[h])) {
		hs->c.rx_ignored++;
		return;
	}
	x = &hs->h[h];
	s = slot_of(x, target);
	if (x->ip6[s].state == WR_IP6_TENTATIVE) {
		/* One's own probe looped back is no conflict; an NS from
		 * a unicast source is silently ignored (5.4.3). */
		if (rx->src_ip == 0 && memcmp(rx->src_mac, x->mac, 6) != 0)
			duplicate(hs, (uint32_t)h, s, now);
		return;
	}
	if (!usable(&x->ip6[s]))
		return;
	/* The gateway asking: its source link-layer option tells its MAC. */
	if (x->gw6 != 0 && rx->src_ip == x->gw6 && rx->l4_len >= ND_HLEN + 8 &&
	    m[24] == 1 && m[25] == 1)
		learn(hs, (uint32_t)h, &x->gw6_n, m + 26, false, now);
	if (hs->n_peers > 0 && rx->l4_len >= ND_HLEN + 8 && m[24] == 1 &&
	    m[25] == 1)
		peers_learn(hs, (uint32_t)h, rx->src_ip, true, m + 26, false,
			    now);
	nd_answer(hs, rx, (uint32_t)h, target, &hs->c.ns_answered);
}

static void
na_input(struct wr_hosts *hs, const struct wr_host_rx *rx, const uint8_t *m,
	 uint64_t now)
{
	__uint128_t target = wr_get128(m + 8);
	const uint8_t *mac = rx->src_mac;
	int64_t h = wr_hosts_by_ip6(hs, rx, target);
	struct wr_host *x;
	int s;

	if (h >= 0) {
		x = &hs->h[h];
		s = slot_of(x, target);
		if (x->ip6[s].state == WR_IP6_TENTATIVE &&
		    memcmp(rx->src_mac, x->mac, 6) != 0)
			duplicate(hs, (uint32_t)h, s, now);
		return;
	}
	/* An answer to a host about its gateway: sent to the host's
	 * address (a solicited NA), or to all nodes (unsolicited: only
	 * the host it is sent to at link level is told). */
	h = wr_hosts_by_ip6(hs, rx, rx->dst_ip);
	if (h < 0)
		h = wr_hosts_by_mac(hs, rx->dst_mac);
	if (rx->l4_len >= ND_HLEN + 8 && m[24] == 2 && m[25] == 1)
		mac = m + 26;
	if (h >= 0 && hs->n_peers > 0)
		peers_learn(hs, (uint32_t)h, target, true, mac,
			    (m[4] & WR_ND_NA_S) != 0, now);
	if (h < 0 || hs->h[h].gw6 != target) {
		if (h < 0 || hs->n_peers == 0)
			hs->c.rx_ignored++;
		return;
	}
	learn(hs, (uint32_t)h, &hs->h[h].gw6_n, mac, (m[4] & WR_ND_NA_S) != 0,
	      now);
}

static bool
icmp6_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	const uint8_t *ip = rx->frame + rx->l3_off, *m = rx->frame + rx->l4_off;
	uint64_t sum;
	int64_t h;

	if (rx->icmp_type != WR_ICMP6_NS && rx->icmp_type != WR_ICMP6_NA &&
	    rx->icmp_type != WR_ICMP6_ECHO_REQUEST)
		return false;
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + rx->l4_len + WR_IPPROTO_ICMPV6 +
	      wr_csum_sum(m, rx->l4_len);
	if (wr_csum_fold(sum) != 0xffff) {
		hs->c.rx_bad_icmp6_csum++;
		return true;
	}
	if (rx->icmp_type == WR_ICMP6_ECHO_REQUEST) {
		h = wr_hosts_by_ip6(hs, rx, rx->dst_ip);
		if (h < 0 || memcmp(rx->dst_mac, hs->h[h].mac, 6) != 0 ||
		    !usable(&hs->h[h].ip6[slot_of(&hs->h[h], rx->dst_ip)]) ||
		    rx->l3_off + WR_IPV6_HLEN != rx->l4_off) {
			hs->c.rx_ignored++;
			return true;
		}
		nd_answer(hs, rx, (uint32_t)h, rx->dst_ip, &hs->c.echo6_answered);
		return true;
	}
	/* RFC 4861 7.1.1/7.1.2: hop limit 255, code 0, 24 bytes at least. */
	if (rx->hop_limit != ND_HOP_LIMIT || m[1] != 0 || rx->l4_len < ND_HLEN ||
	    rx->l3_off + WR_IPV6_HLEN != rx->l4_off) {
		hs->c.rx_bad_nd++;
		return true;
	}
	if (rx->icmp_type == WR_ICMP6_NS)
		ns_input(hs, rx, m, now);
	else
		na_input(hs, rx, m, now);
	return true;
}

bool
wr_hosts_neigh_input(struct wr_hosts *hs, const struct wr_host_rx *rx,
		     uint64_t now)
{
	if (rx->ethertype == WR_ETHERTYPE_ARP) {
		arp_input(hs, rx, now);
		return true;
	}
	if (rx->ip_version == 4 && rx->l4_proto == WR_IPPROTO_ICMP &&
	    rx->icmp_type == WR_ICMP_ECHO_REQUEST)
		return echo4_input(hs, rx);
	if (rx->ip_version == 6 && rx->l4_proto == WR_IPPROTO_ICMPV6)
		return icmp6_input(hs, rx, now);
	return false;
}

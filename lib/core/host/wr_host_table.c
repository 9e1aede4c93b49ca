/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_table: the hosts' table: indexes by MAC and address, what modules read and call (state, frames out, timers, done). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_bytes.h"
#include "wr_host_priv.h"

/* ---- Indexes: open addressing, linear probing, no rehash (O(1) at any
 * size: the tables are sized at create for every address a host can hold). */

uint64_t
wr_hosts_mix64(uint64_t x)
{
	/* splitmix64's finaliser: consecutive MACs and addresses (a range)
	 * spread over the whole table. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The link a host is on: its tag count and VLAN IDs (PCP and TPID apart). */
static uint64_t
link_key(uint8_t n_tags, const uint16_t *tci)
{
	uint64_t k = n_tags;
	uint8_t i;

	for (i = 0; i < n_tags && i < WR_HOST_TAGS_MAX; i++)
		k = k << 12 | (tci[i] & 0xfff);
	return k << 8;
}

static uint64_t
ip6_hash(__uint128_t ip, uint64_t link)
{
	return wr_hosts_mix64((uint64_t)(ip >> 64) ^ wr_hosts_mix64((uint64_t)ip ^ link));
}

int
wr_hosts_hash_init(struct wr_host_hash *t, uint64_t want)
{
	uint64_t cap = 2;

	while (cap < want)
		cap <<= 1;
	if (cap > (1ull << 31))
		return -ENOMEM;
	t->e = calloc(cap, sizeof(*t->e));
	t->mask = (uint32_t)cap - 1;
	t->n = 0;
	return t->e == NULL ? -ENOMEM : 0;
}

/* The hash of entry value @p v (the index of the table says what it is). */
static uint64_t
entry_hash(const struct wr_hosts *hs, const struct wr_host_hash *t, uint32_t v)
{
	const struct wr_host *x;

	if (t == &hs->by_mac)
		return wr_hosts_mix64(wr_mac_from_bytes(hs->h[v].mac));
	if (t == &hs->by_ip4) {
		x = &hs->h[v];
		return wr_hosts_mix64(x->ip4 ^ link_key(x->n_tags, x->tci) << 24);
	}
	x = &hs->h[v >> 2];
	return ip6_hash(x->ip6[v & 3].addr, link_key(x->n_tags, x->tci));
}

int
wr_hosts_hash_add(struct wr_hosts *hs, struct wr_host_hash *t, uint32_t v)
{
	uint32_t i = (uint32_t)entry_hash(hs, t, v) & t->mask;

	/* Never full: a probe always ends at an empty entry. */
	if (t->n >= t->mask)
		return -ENOSPC;
	while (t->e[i] != 0)
		i = (i + 1) & t->mask;
	t->e[i] = v + 1;
	t->n++;
	return 0;
}

/* Knuth's algorithm R (TAOCP 6.4): entries after the hole move back when
 * their home is not between the hole and themselves, so no tombstones. */
static void
hash_del(struct wr_hosts *hs, struct wr_host_hash *t, uint32_t v)
{
	uint32_t i = (uint32_t)entry_hash(hs, t, v) & t->mask, j, k;

	while (t->e[i] != 0 && t->e[i] != v + 1)
		i = (i + 1) & t->mask;
	if (t->e[i] == 0)
		return;
	t->e[i] = 0;
	t->n--;
	for (j = (i + 1) & t->mask; t->e[j] != 0; j = (j + 1) & t->mask) {
		k = (uint32_t)entry_hash(hs, t, t->e[j] - 1) & t->mask;
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->e[i] = t->e[j];
		t->e[j] = 0;
		i = j;
	}
}

void
wr_hosts_ip4_index(struct wr_hosts *hs, uint32_t h, bool add)
{
	if (add)
		(void)wr_hosts_hash_add(hs, &hs->by_ip4, h);
	else
		hash_del(hs, &hs->by_ip4, h);
}

void
wr_hosts_ip6_index(struct wr_hosts *hs, uint32_t h, uint32_t slot, bool add)
{
	if (add)
		(void)wr_hosts_hash_add(hs, &hs->by_ip6, h << 2 | slot);
	else
		hash_del(hs, &hs->by_ip6, h << 2 | slot);
}

int64_t
wr_hosts_by_mac(const struct wr_hosts *hs, const uint8_t mac[6])
{
	const struct wr_host_hash *t = &hs->by_mac;
	uint32_t i = (uint32_t)wr_hosts_mix64(wr_mac_from_bytes(mac)) & t->mask;

	for (; t->e[i] != 0; i = (i + 1) & t->mask)
		if (memcmp(hs->h[t->e[i] - 1].mac, mac, 6) == 0)
			return t->e[i] - 1;
	return -1;
}

bool
wr_hosts_same_link(const struct wr_hosts *hs, uint32_t h,
		   const struct wr_host_rx *rx)
{
	const struct wr_host *x = &hs->h[h];
	uint8_t i;

	if (x->n_tags != rx->n_tags)
		return false;
	for (i = 0; i < x->n_tags; i++)
		if ((x->tci[i] & 0xfff) != (rx->tci[i] & 0xfff))
			return false;
	return true;
}

int64_t
wr_hosts_by_ip4(const struct wr_hosts *hs, const struct wr_host_rx *rx,
		uint32_t ip)
{
	const struct wr_host_hash *t = &hs->by_ip4;
	uint32_t i;

	if (rx->n_tags > WR_HOST_TAGS_MAX)
		return -1;
	i = (uint32_t)wr_hosts_mix64(ip ^ link_key(rx->n_tags, rx->tci) << 24) & t->mask;
	for (; t->e[i] != 0; i = (i + 1) & t->mask) {
		uint32_t h = t->e[i] - 1;

		if (hs->h[h].ip4 == ip && wr_hosts_same_link(hs, h, rx))
			return h;
	}
	return -1;
}

int64_t
wr_hosts_by_ip6(const struct wr_hosts *hs, const struct wr_host_rx *rx,
		__uint128_t ip)
{
	const struct wr_host_hash *t = &hs->by_ip6;
	uint32_t i;

	if (rx->n_tags > WR_HOST_TAGS_MAX)
		return -1;
	i = (uint32_t)ip6_hash(ip, link_key(rx->n_tags, rx->tci)) & t->mask;
	for (; t->e[i] != 0; i = (i + 1) & t->mask) {
		uint32_t h = (t->e[i] - 1) >> 2, s = (t->e[i] - 1) & 3;
		const struct wr_host_ip6 *a = &hs->h[h].ip6[s];

		if (a->addr == ip && a->state != WR_IP6_DUPLICATE &&
		    wr_hosts_same_link(hs, h, rx))
			return h;
	}
	return -1;
}

/* ---- Getters ---- */

uint32_t
wr_hosts_n(const struct wr_hosts *hs)
{
	return hs->n;
}

struct wr_host *
wr_hosts_get(struct wr_hosts *hs, uint32_t h)
{
	return &hs->h[h];
}

const struct wr_host *
wr_hosts_cget(const struct wr_hosts *hs, uint32_t h)
{
	return &hs->h[h];
}

const struct wr_host_group *
wr_hosts_group(const struct wr_hosts *hs, uint32_t h)
{
	return &hs->specs->groups[hs->h[h].group];
}

const void *
wr_hosts_cfg(const struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id)
{
	return wr_hosts_group(hs, h)->proto_cfg[id];
}

void *
wr_hosts_state(struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id)
{
	size_t sz = wr_host_protos[id]->state_size;

	return hs->mstate[id] == NULL ? NULL : (uint8_t *)hs->mstate[id] + sz * h;
}

const void *
wr_hosts_cstate(const struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id)
{
	size_t sz = wr_host_protos[id]->state_size;

	return hs->mstate[id] == NULL ? NULL :
	       (const uint8_t *)hs->mstate[id] + sz * h;
}

void *
wr_hosts_data(struct wr_hosts *hs, enum wr_host_proto_id id)
{
	return hs->mdata[id];
}

const void *
wr_hosts_cdata(const struct wr_hosts *hs, enum wr_host_proto_id id)
{
	return hs->mdata[id];
}

uint32_t
wr_hosts_rand(struct wr_hosts *hs)
{
	/* xorshift64* (Vigna): seeded, so a run's xids and jitter repeat. */
	hs->rng ^= hs->rng >> 12;
	hs->rng ^= hs->rng << 25;
	hs->rng ^= hs->rng >> 27;
	return (uint32_t)((hs->rng * 0x2545f4914f6cdd1dull) >> 32);
}

/* ---- Frames out ---- */

uint32_t
wr_hosts_tags(const struct wr_host *x, uint8_t *tags)
{
	uint8_t i;

	for (i = 0; i < x->n_tags; i++) {
		wr_put16(tags + 4 * i, x->tpid[i]);
		wr_put16(tags + 4 * i + 2, x->tci[i]);
	}
	return 4u * x->n_tags;
}

uint32_t
wr_hosts_l2(const struct wr_hosts *hs, uint32_t h, uint8_t *buf,
	    const uint8_t dst[6], uint16_t ethertype)
{
	const struct wr_host *x = &hs->h[h];
	uint8_t tags[4 * WR_HOST_TAGS_MAX];
	uint32_t n = wr_hosts_tags(x, tags);

	return wr_arp_l2_head(buf, dst, x->mac, tags, (uint16_t)n, ethertype);
}

void
wr_hosts_send(struct wr_hosts *hs, uint8_t *frame, uint32_t len)
{
	uint32_t min = WR_ETH_MIN_LEN, off = 12;

	/* 60 bytes, and 4 a tag (as wr_arp_build: a frame stays 60 once a
	 * bridge strips its tags). */
	while (off + 4 <= len && (wr_get16(frame + off) == WR_ETHERTYPE_VLAN ||
				  wr_get16(frame + off) == WR_ETHERTYPE_QINQ)) {
		min += 4;
		off += 4;
	}
	if (len < min) {
		memset(frame + len, 0, min - len);
		len = min;
	}
	if (hs->send(hs->send_ctx, frame, len) < 0)
		hs->c.tx_drop++;
	else
		hs->c.tx_frames++;
}

/* ---- Timers ---- */

void
wr_hosts_timer(struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id,
	       uint64_t when)
{
	int kind = hs->tkind[id];

	if (kind < 0 || h >= hs->n)
		return;
	wr_host_wheel_set(&hs->wheel, h * hs->wheel.n_kinds + (uint32_t)kind,
			  when);
}

void
wr_hosts_etimer(struct wr_hosts *hs, uint32_t h, uint64_t when)
{
	wr_host_wheel_set(&hs->wheel, h * hs->wheel.n_kinds + WR_HOST_TK_ENGINE,
			  when);
}

/* ---- Bring-up ---- */

/* @p h has no pending bit left: it is up (or failed), no longer outstanding. */
static void
settle(struct wr_hosts *hs, uint32_t h)
{
	struct wr_host_grp *g = &hs->grp[0];
	uint32_t i;

	for (i = 1; i < hs->n_grp && hs->grp[i].first <= h; i++)
		g = &hs->grp[i];
	g->outstanding--;
	hs->n_pending--;
	if (hs->h[h].failed)
		hs->c.hosts_failed++;
	else
		hs->c.hosts_up++;
}

void
wr_hosts_done(struct wr_hosts *hs, uint32_t h, enum wr_host_proto_id id,
	      bool ok)
{
	struct wr_host *x = &hs->h[h];
	uint8_t bit = (uint8_t)(1u << id);

	if (!(x->pending & bit))
		return;
	x->pending &= (uint8_t)~bit;
	if (!ok)
		x->failed |= bit;
	if (x->pending == 0)
		settle(hs, h);
}

void
wr_hosts_engine_busy(struct wr_hosts *hs, uint32_t h)
{
	struct wr_host *x = &hs->h[h];

	/* Only while bring-up lasts: a renewal later makes no host pending. */
	if (x->pending != 0)
		x->pending |= WR_HOST_PENDING_ENGINE;
}

static bool
engine_busy(const struct wr_host *x)
{
	uint8_t i;

	if (x->gw4_n.state == WR_NEIGH_INCOMPLETE ||
	    x->gw6_n.state == WR_NEIGH_INCOMPLETE)
		return true;
	for (i = 0; i < x->n_ip6; i++)
		if (x->ip6[i].state == WR_IP6_TENTATIVE)
			return true;
	return false;
}

void
wr_hosts_engine_check(struct wr_hosts *hs, uint32_t h)
{
	struct wr_host *x = &hs->h[h];

	if (hs->starting || !(x->pending & WR_HOST_PENDING_ENGINE) ||
	    engine_busy(x))
		return;
	if (x->gw4_n.state == WR_NEIGH_FAILED || x->gw6_n.state == WR_NEIGH_FAILED)
		x->failed |= WR_HOST_PENDING_ENGINE;
	for (uint8_t i = 0; i < x->n_ip6; i++)
		if (x->ip6[i].state == WR_IP6_DUPLICATE)
			x->failed |= WR_HOST_PENDING_ENGINE;
	x->pending &= (uint8_t)~WR_HOST_PENDING_ENGINE;
	if (x->pending == 0)
		settle(hs, h);
}


/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_priv: the host engine's parts, top to bottom (wr_host.c create, bring-up and input; _neigh ARP/ND/echo, DAD and gateways; _rx the parser; _table the table, indexes and what modules call; _timer the wheel), internal to lib/core/host. */
#ifndef WR_HOST_PRIV_H
#define WR_HOST_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "wr_host.h"

/* The engine's own bit in struct wr_host.pending (the modules' are
 * 1 << enum wr_host_proto_id). */
#define WR_HOST_PENDING_ENGINE (1u << 7)
_Static_assert(WR_HOST_PROTO__COUNT <= 7,
	       "struct wr_host.pending has a bit per module and the engine's");

/* Timers: one per (host, timer kind).  Kind 0 is the engine's own (DAD,
 * gateways' retries and aging); kinds 1.. the modules that have a timer and
 * are named by a group of this port. */
#define WR_HOST_TK_ENGINE 0
#define WR_HOST_NIL UINT32_MAX
/* 1 ms slots (wr_hosts_timer()'s resolution), 8192 of them: 8.2 s a turn,
 * so REACHABLE_TIME's 30 s timers are passed over 3 times before they are
 * due, and a turn costs 32 KiB. */
#define WR_HOST_WHEEL_BITS 13
#define WR_HOST_WHEEL_SLOTS (1u << WR_HOST_WHEEL_BITS)
/* Most hosts wr_hosts_tick() starts in one call (wr_host.c says why). */
#define WR_HOST_START_BURST 1024

struct wr_host_tnode {
	uint32_t when_ms;       /* relative to wheel.base_ns */
	uint32_t next;
	uint32_t prev;          /* WR_HOST_NIL: first of its slot */
};

struct wr_host_wheel {
	struct wr_host_tnode *node;     /* n_hosts * n_kinds; when_ms 0 = unarmed */
	uint32_t *slot;                 /* heads */
	uint32_t n_kinds;
	uint32_t armed;
	uint64_t base_ns;               /* ms 0; set at the first time seen */
	bool based;
	uint32_t cur_ms;                /* slots before it are done */
	uint32_t cursor;                /* the walk's next node (unlink moves it on) */
};

/* One group of this port and its bring-up. */
struct wr_host_grp {
	uint32_t spec;                  /* index into the specs' groups */
	uint32_t first;
	uint32_t count;
	uint32_t started;               /* hosts 0..started-1 of the group began */
	uint32_t outstanding;           /* began, still pending */
	uint64_t t_ref;                 /* start k is due at t_ref + k / rate */
	uint64_t k;
	bool blocked;                   /* the cap held a start back */
	uint8_t mods;                   /* modules named (bits by id) that start */
};

/* Open addressing, linear probing, sized at create (load <= 1/2). */
struct wr_host_hash {
	uint32_t *e;                    /* 0 empty, else value + 1 */
	uint32_t mask;
	uint32_t n;
};

/* The engine's counters: one list gives names and fields. */
#define WR_HOST_COUNTERS(X)                                             \
	X(rx_frames) X(rx_ignored) X(rx_short) X(rx_tags) X(rx_too_long) \
	X(rx_bad_arp) X(rx_bad_ip4) X(rx_bad_ip4_csum) X(rx_ip4_frag)   \
	X(rx_bad_ip6) X(rx_bad_icmp6_csum) X(rx_bad_nd) X(rx_bad_udp)  \
	X(arp_answered) X(ns_answered) X(echo4_answered) X(echo6_answered) \
	X(garp_sent) X(na_unsolicited_sent)                             \
	X(dad_started) X(dad_ns_sent) X(dad_ok) X(dad_duplicate)                       \
	X(arp_requests_sent) X(ns_sent) X(gw_resolved) X(gw_failed)     \
	X(gw_stale) X(gw_learned_from_request)                          \
	X(peer_resolved) X(peer_failed)                                 \
	X(hosts_started) X(hosts_up) X(hosts_failed)                    \
	X(tx_frames) X(tx_drop)

struct wr_host_ctrs {
#define WR_X(n) uint64_t n;
	WR_HOST_COUNTERS(WR_X)
#undef WR_X
};

struct wr_hosts {
	const struct wr_host_specs *specs;
	uint16_t port;
	uint32_t n;
	struct wr_host *h;
	struct wr_host_grp *grp;
	uint32_t n_grp;
	void *mstate[WR_HOST_PROTO__COUNT + 1];
	void *mdata[WR_HOST_PROTO__COUNT + 1];  /* modules' per-port data_size */
	int8_t tkind[WR_HOST_PROTO__COUNT + 1]; /* module -> timer kind, -1 none */
	int8_t tmod[WR_HOST_PROTO__COUNT + 1]; /* timer kind -> module */
	struct wr_host_hash by_mac;
	struct wr_host_hash by_ip4;     /* value: host */
	struct wr_host_hash by_ip6;     /* value: host << 2 | slot */
	struct wr_host_wheel wheel;
	wr_hosts_send_fn send;
	void *send_ctx;
	uint64_t rng;
	uint32_t n_started;
	uint32_t n_pending;
	bool started;
	bool stopped;
	bool starting;                  /* a host's start under way: its engine bit stays */
	struct wr_host_ctrs c;
	/* Peers resolved beside the gateways (wr_hosts_peers()): the
	 * caller's array. */
	struct wr_host_peer *peers;
	uint32_t n_peers;
	uint8_t buf[WR_HOST_FRAME_MAX]; /* the frame being built */
};

/* wr_host_table.c: below the others (they call it, it calls none of them). */
uint64_t wr_hosts_mix64(uint64_t x);
int wr_hosts_hash_init(struct wr_host_hash *t, uint64_t want);
int wr_hosts_hash_add(struct wr_hosts *hs, struct wr_host_hash *t, uint32_t v);
/* The engine's own timer of @p h (DAD, gateways) at @p when, 0 none. */
void wr_hosts_etimer(struct wr_hosts *hs, uint32_t h, uint64_t when);
void wr_hosts_engine_busy(struct wr_hosts *hs, uint32_t h);
void wr_hosts_engine_check(struct wr_hosts *hs, uint32_t h);
void wr_hosts_ip4_index(struct wr_hosts *hs, uint32_t h, bool add);
void wr_hosts_ip6_index(struct wr_hosts *hs, uint32_t h, uint32_t slot,
			bool add);
uint32_t wr_hosts_tags(const struct wr_host *x, uint8_t *tags);

/* wr_host_timer.c */
int wr_host_wheel_init(struct wr_host_wheel *w, uint32_t n_hosts,
		       uint32_t n_kinds);
void wr_host_wheel_free(struct wr_host_wheel *w);
void wr_host_wheel_set(struct wr_host_wheel *w, uint32_t id, uint64_t when_ns);
/* Fire what is due by @p now through @p fire(hs, id); @return the next
 * time worth a tick (ns), UINT64_MAX when nothing is armed. */
uint64_t wr_host_wheel_run(struct wr_host_wheel *w, uint64_t now,
			   struct wr_hosts *hs,
			   void (*fire)(struct wr_hosts *hs, uint32_t id,
					uint64_t now));

/* wr_host_rx.c: @return 0, or -1 with the reason counted. */
int wr_hosts_parse(struct wr_hosts *hs, const uint8_t *frame, uint32_t len,
		   struct wr_host_rx *rx);

/* wr_host_neigh.c */
/* True when the engine took @p rx (ARP, ND, echo). */
bool wr_hosts_neigh_input(struct wr_hosts *hs, const struct wr_host_rx *rx,
			  uint64_t now);
void wr_hosts_engine_timer(struct wr_hosts *hs, uint32_t h, uint64_t now);
/* Bring-up of the addresses a group states (static, link-local). */
void wr_hosts_engine_start(struct wr_hosts *hs, uint32_t h, uint64_t now);
/* The peers' entries still being resolved stepped (wr_hosts_peers()).
 * @return the next time one needs a look (UINT64_MAX: none). */
uint64_t wr_hosts_peers_step(struct wr_hosts *hs, uint64_t now);
/* fe80::/64 with @p mac's modified EUI-64 (RFC 4291 appendix A). */
__uint128_t wr_hosts_link_local(const uint8_t mac[6]);

#endif /* WR_HOST_PRIV_H */

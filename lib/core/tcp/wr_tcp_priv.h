/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_priv: the TCP engine's own structures (connection, segment, engine), shared by its files and its tests only. */
#ifndef WR_TCP_PRIV_H
#define WR_TCP_PRIV_H

/**
 * @file
 * Not an interface: wr_tcp.c (create, counters, control), wr_tcp_seg.c
 * (parse and build), wr_tcp_in.c (the state machine on input) and
 * wr_tcp_out.c (opening, timers, sending) share these; test_tcp*.c read
 * them to check frames and state.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "wr_tcp.h"
#include "wr_tcp_app.h"
#include "wr_tcp_cc.h"

#define WR_TCP_NIL UINT32_MAX

/* RFC 9293 3.3.2's states (LISTEN is the listener table, CLOSED a free slot). */
enum wr_tcp_state {
	WR_TCP_ST_FREE = 0,
	WR_TCP_ST_SYN_SENT,
	WR_TCP_ST_SYN_RCVD,
	WR_TCP_ST_ESTABLISHED,
	WR_TCP_ST_FIN_WAIT_1,
	WR_TCP_ST_FIN_WAIT_2,
	WR_TCP_ST_CLOSING,
	WR_TCP_ST_TIME_WAIT,
	WR_TCP_ST_CLOSE_WAIT,
	WR_TCP_ST_LAST_ACK,
};

/* TCP header flags. */
#define WR_TH_FIN 0x01u
#define WR_TH_SYN 0x02u
#define WR_TH_RST 0x04u
#define WR_TH_PSH 0x08u
#define WR_TH_ACK 0x10u

/* Connection flags. */
#define WR_TC_TS        0x0001u /* timestamps agreed */
#define WR_TC_SACK      0x0002u /* SACK-permitted both ways */
#define WR_TC_SERVER    0x0004u /* the server side */
#define WR_TC_FIN_PEND  0x0008u /* the program asked for a FIN after its bytes */
#define WR_TC_FIN_RCVD  0x0010u /* the peer's FIN taken in order */
#define WR_TC_ACK_NOW   0x0020u /* an ACK is owed now */
#define WR_TC_TXQ       0x0040u /* on the engine's send queue */
#define WR_TC_PERSIST   0x0080u /* the RTO timer is the persist timer */
#define WR_TC_RTT       0x0100u /* timing rtt_seq (Karn, no timestamps) */
#define WR_TC_GOT_DATA  0x0200u /* TTFB recorded */
#define WR_TC_DONE      0x0400u /* the program ran to its end */
#define WR_TC_V6        0x0800u
#define WR_TC_WS        0x1000u /* window scaling agreed */
#define WR_TC_FIN_SENT  0x2000u /* our FIN went out (it may be sent again) */

/* Out-of-order ranges kept per connection (sequence numbers only). */
#define WR_TCP_OOO_MAX 3

/*
 * One connection.  Sizes are what doc/tcp.md counts: keep it small.
 * Times are wheel ticks (WR_TCP_TICK_SHIFT) in 32 bits.
 */
struct wr_tcp_conn {
	uint32_t snd_una, snd_nxt, snd_max, rcv_nxt;
	uint32_t iss, irs;
	uint32_t snd_wnd;       /* bytes, scaled */
	uint32_t snd_wl1, snd_wl2;
	uint32_t ts_recent;
	uint32_t rtt_seq, rtt_tick;
	uint32_t hnext;         /* hash chain; free list */
	uint32_t tnext, tprev;  /* timer wheel */
	uint32_t txnext;        /* send queue */
	uint32_t t_at;          /* the wheel slot's tick (WR_TCP_NIL: not on it) */
	uint32_t rto_at, dack_at, think_at, last_rx; /* 0: unarmed */
	uint32_t t0_us;         /* SYN sent / received (µs, 32 bits: a
				 * connection's times up to 71 minutes) */
	uint64_t send_end;      /* bytes the program appended */
	uint32_t rip[4];        /* the peer's address (4-byte aligned: no
				 * padding, as a __uint128_t would cost) */
	uint16_t lport, rport;
	uint16_t local;         /* engine local index */
	uint16_t flags;
	uint16_t peer_mss;      /* payload bytes per segment (options excluded) */
	uint8_t cls, state;
	uint8_t snd_ws, rcv_ws;
	uint8_t retries, nacks; /* RTO retries in a row; full segments unACKed */
	uint8_t n_ooo, pad;
	uint16_t tx_wraps, rx_wraps; /* stream offsets past 4 GB (streams to 2^48) */
	struct wr_tcp_cc_range ooo[WR_TCP_OOO_MAX];
	struct wr_tcp_app_st app;
	struct wr_tcp_cc cc;
};

/* A parsed segment (wr_tcp_parse). */
struct wr_tcp_seg {
	uint8_t v6;
	uint8_t flags;
	uint8_t ws;             /* 0xff: absent */
	uint8_t sack_ok;
	uint8_t has_ts;
	uint8_t n_sack;
	uint16_t mss;           /* 0: absent */
	uint16_t sport, dport;
	uint16_t win;
	uint16_t hdr_len;       /* TCP header */
	__uint128_t src, dst;
	uint32_t seq, ack;
	uint32_t tsval, tsecr;
	struct wr_tcp_cc_range sack[4];
	const uint8_t *src_mac;
	const uint8_t *payload;
	uint32_t len;           /* payload bytes */
};

/* What a built segment carries besides its header. */
struct wr_tcp_txseg {
	uint32_t seq, ack;
	uint8_t flags;
	uint16_t win;           /* as written (scaled down) */
	bool syn_opts;          /* the SYN / SYN-ACK options */
	uint16_t mss;           /* SYN: the MSS announced */
	uint8_t ws;             /* SYN: 0xff none */
	bool sack_ok, ts;
	uint32_t tsval, tsecr;
	const struct wr_tcp_cc_range *sack; /* blocks to send (ACKs) */
	unsigned int n_sack;
	/* payload: from the program's stream (app != NULL) */
	const struct wr_tcp_app *app;
	uint64_t off;
	uint32_t len;
};

/* A local address's header template: Ethernet, tags, IP with what does
 * not vary, the constant part of the IPv4 header's sum. */
struct wr_tcp_tmpl {
	uint8_t b[22 + 40];
	uint8_t l2_len;         /* 14, 18, 22 */
	uint8_t l3_len;         /* 20 or 40 */
	uint8_t v6;
	uint32_t ip4_sum;       /* IPv4 header words that never change */
	__uint128_t ip;
};

/* A class as the engine runs it on this lane. */
struct wr_tcp_cls {
	struct wr_tcp_class_rt rt;
	const struct wr_tcp_app *app[2];
	struct wr_tcp_app own_app[2];
	bool own[2];
	uint32_t *cl_local;     /* client i -> engine local */
	bool client, server;
	bool opening;           /* started and not stopped */
	bool paused;
	uint64_t rate_milli;    /* this lane's share */
	uint64_t start_ns;
	uint64_t opened;        /* connections this lane opened */
	uint64_t opened_base;   /* opened when the rate last changed */
	bool no_ramp;           /* a rate set by wr_tcp_ctl applies at once */
	uint64_t lane_count;    /* this lane's share of count (0: no bound) */
	uint32_t cap;           /* this lane's share of concurrency */
	uint32_t open_now;      /* client connections open (not TIME_WAIT) */
	uint32_t cli_i, srv_i;  /* the next connection's client and server */
	uint32_t sport_cur;     /* next source port's index in this lane's */
	uint32_t n_sports;      /* source ports this lane owns */
	uint32_t mss;           /* the class's MSS for its family */
	uint32_t rto_init_us;
	struct wr_tcp_cc_limits lim;
	uint32_t tw_ticks, idle_ticks;
	uint32_t rcv_win;       /* window announced (bytes) */
};

/* The wheel: 2^19 ns ticks (0.52 ms: "1 ms or finer"), 8192 slots (4.3 s). */
#define WR_TCP_TICK_SHIFT 19
#define WR_TCP_WHEEL_BITS 13
#define WR_TCP_WHEEL (1u << WR_TCP_WHEEL_BITS)
/* Delayed ACKs: at most 40 ms late (RFC 9293 3.8.6.3 allows 500 ms). */
#define WR_TCP_DACK_NS 40000000ull
/* RSTs for segments of no connection: at most this many per ms. */
#define WR_TCP_RST_PER_MS 100u
/* Segments one connection sends per turn of the send queue. */
#define WR_TCP_TX_BURST 32u

struct wr_tcp_ctl_box {
	uint32_t state;         /* 0 empty, 1 writing, 2 full */
	struct wr_tcp_ctl req;
};

struct wr_tcp {
	struct wr_tcp_cfg cfg;
	struct wr_tcp_cls *cls;
	unsigned int n_cls;
	struct wr_tcp_conn *conns;
	uint32_t max_conns;
	uint32_t free_head;
	uint32_t n_used;        /* slots ever taken (the rest untouched) */
	uint32_t n_open;        /* connections open (not free, not TIME_WAIT) */
	uint32_t *hash;         /* buckets: first connection */
	uint32_t hash_mask;
	uint32_t *wheel;
	uint32_t wheel_tick;    /* the next tick to run */
	uint32_t txq_head, txq_tail;
	/* Locals: templates and an open-addressing index by address. */
	struct wr_tcp_tmpl *loc;
	uint32_t n_loc;
	uint32_t *loc_hash;     /* idx + 1, 0 empty */
	uint32_t loc_mask;
	/* Listeners: (local << 16 | port) -> class + 1. */
	uint64_t *lis;          /* key << 8 | (class + 1) */
	uint32_t lis_mask;
	uint64_t now;
	uint64_t start_ns;
	uint32_t tick;
	uint32_t rst_ms, rst_n;
	bool started;
	struct wr_tcp_counters *ctr;    /* [class * 2 + side] */
	struct wr_latency *hist;        /* [(class * 2 + side) * 3 + id] */
	struct wr_tcp_port_counters pc;
	struct wr_tcp_ctl_box box;
	size_t mem;
};

/* Single-writer counters other threads read untorn. */
#define WR_TCP_ADD(p, v) __atomic_store_n(&(p), (p) + (v), __ATOMIC_RELAXED)
#define WR_TCP_SUB(p, v) __atomic_store_n(&(p), (p) - (v), __ATOMIC_RELAXED)

static inline struct wr_tcp_counters *
wr_tcp_ctr(struct wr_tcp *t, const struct wr_tcp_conn *c)
{
	return &t->ctr[c->cls * 2u + ((c->flags & WR_TC_SERVER) ? 1u : 0u)];
}

static inline struct wr_latency *
wr_tcp_hist_of(struct wr_tcp *t, const struct wr_tcp_conn *c,
	       enum wr_tcp_hist_id id)
{
	return &t->hist[(c->cls * 2u + ((c->flags & WR_TC_SERVER) ? 1u : 0u)) *
			WR_TCP_HIST__COUNT + id];
}

static inline uint64_t
wr_tcp_mix64(uint64_t x)
{
	/* splitmix64's finaliser: every input bit moves every output bit. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static inline __uint128_t
wr_tcp_rip(const struct wr_tcp_conn *c)
{
	__uint128_t v;

	memcpy(&v, c->rip, sizeof(v));
	return v;
}

static inline void
wr_tcp_rip_set(struct wr_tcp_conn *c, __uint128_t v)
{
	memcpy(c->rip, &v, sizeof(v));
}

/* A 2^10 ns clock for connection times (a shift, not a division). */
static inline uint32_t
wr_tcp_us(uint64_t now)
{
	return (uint32_t)(now >> 10);
}

/* ns since the connection opened. */
static inline uint64_t
wr_tcp_since(const struct wr_tcp *t, const struct wr_tcp_conn *c)
{
	return (uint64_t)(uint32_t)(wr_tcp_us(t->now) - c->t0_us) << 10;
}

static inline uint32_t
wr_tcp_ticks(uint64_t ns)
{
	return (uint32_t)(ns >> WR_TCP_TICK_SHIFT);
}

/* wr_tcp_seg.c */
int wr_tcp_parse(const uint8_t *f, uint32_t len, struct wr_tcp_seg *s);
void wr_tcp_tmpl_init(struct wr_tcp_tmpl *tp, const struct wr_tcp_local *l,
		      bool v6);
uint32_t wr_tcp_build(uint8_t *buf, const struct wr_tcp_tmpl *tp,
		      __uint128_t dst, uint16_t sport, uint16_t dport,
		      const struct wr_tcp_txseg *g, bool offload,
		      uint16_t *l3, uint16_t *l4);
uint32_t wr_tcp_tsval(uint64_t now);

/* wr_tcp_tab.c */
uint32_t wr_tcp_hash(const struct wr_tcp *t, uint32_t local, __uint128_t rip,
		     uint16_t lport, uint16_t rport);
uint32_t wr_tcp_lookup(const struct wr_tcp *t, uint32_t local,
		       __uint128_t rip, uint16_t lport, uint16_t rport);
int32_t wr_tcp_local_find(const struct wr_tcp *t, __uint128_t ip, bool v6);
int32_t wr_tcp_listener(const struct wr_tcp *t, uint32_t local,
			uint16_t port);
uint32_t wr_tcp_conn_alloc(struct wr_tcp *t);
void wr_tcp_conn_link(struct wr_tcp *t, uint32_t i);
void wr_tcp_conn_free(struct wr_tcp *t, uint32_t i);
void wr_tcp_timer_arm(struct wr_tcp *t, uint32_t i, uint32_t at);
void wr_tcp_timer_unlink(struct wr_tcp *t, struct wr_tcp_conn *c);
void wr_tcp_txq_push(struct wr_tcp *t, uint32_t i);
uint32_t wr_tcp_isn(const struct wr_tcp *t, const struct wr_tcp_conn *c);

/* wr_tcp_out.c */
void wr_tcp_rto_fire(struct wr_tcp *t, uint32_t i);
void wr_tcp_send_ctl(struct wr_tcp *t, struct wr_tcp_conn *c, uint8_t flags,
		     uint32_t seq);
void wr_tcp_send_rst_to(struct wr_tcp *t, uint32_t local,
			const struct wr_tcp_seg *s);
void wr_tcp_output(struct wr_tcp *t, uint32_t i);
void wr_tcp_app_apply(struct wr_tcp *t, uint32_t i,
		      const struct wr_tcp_app_out *o);
void wr_tcp_end(struct wr_tcp *t, uint32_t i, uint64_t *reason, bool rst);
void wr_tcp_enter_tw(struct wr_tcp *t, uint32_t i);
void wr_tcp_established(struct wr_tcp *t, uint32_t i);
void wr_tcp_rto_arm(struct wr_tcp *t, struct wr_tcp_conn *c);
void wr_tcp_close_clean(struct wr_tcp *t, uint32_t i, bool time_wait);
void wr_tcp_resend(struct wr_tcp *t, uint32_t i, uint32_t seq);

/* The send-stream offset of @p seq (at or above snd_una). */
static inline uint64_t
wr_tcp_tx_off(const struct wr_tcp_conn *c, uint32_t seq)
{
	return ((uint64_t)c->tx_wraps << 32 | (uint32_t)(c->snd_una - c->iss - 1)) +
	       (uint32_t)(seq - c->snd_una);
}

/* Bytes the program appended that were never sent. */
static inline bool
wr_tcp_unsent(const struct wr_tcp_conn *c)
{
	return wr_tcp_tx_off(c, c->snd_max) < c->send_end;
}


#endif /* WR_TCP_PRIV_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp: one lcore's TCP connections on one port (clients and servers of the stream file's classes), without EAL. */
#ifndef WR_TCP_H
#define WR_TCP_H

/**
 * @file
 * The stateful engine, written for wirerate (doc/tcp.md says why not lwIP):
 * small per-connection state in arrays the lcore owns, allocated at create
 * and never grown; a hashed timer wheel; segments built from a per-class
 * header template with only what varies written per segment (sequence
 * numbers, flags, window, options, checksums); payload bytes a function
 * of the stream offset (struct wr_tcp_app), so nothing sent is buffered
 * and a retransmission writes the same bytes again.
 *
 * One struct wr_tcp is one lcore's share of one port: the client side of
 * every class whose clients are on the port (its lane of their
 * connections: lane j of n opens connection k when k % n == j, from
 * source ports whose RSS hash lands on its queue where the port has several)
 * and the server side of every class whose servers are (their listeners).
 * It is driven by that lcore alone (lib/dp/wr_tcp_lcore):
 *
 *     wr_tcp_input()   each frame received on its queue
 *     wr_tcp_poll()    connections opened at the classes' rates, timers
 *                      due, data the windows allow, ACKs owed
 *     frames out       through struct wr_tcp_io, into the lcore's burst
 *
 * Nothing here blocks, allocates after create, or reads a clock: @c now
 * (ns, monotonic) is given, so the engine is unit-tested with a clock of
 * its own, run back to back against itself in one process, and fuzzed with
 * frames alone.
 *
 * The TCP: RFC 9293's state machine; in the SYN MSS, window scale,
 * SACK-permitted and timestamps (RFC 7323, 2018), each as the class asks
 * and the peer answers; flow control; congestion control by
 * wr_tcp_cc.h (NewReno, RFC 5681/6582, SACK recovery after RFC 6675 when
 * the peer offers SACK); RTO (RFC 6298) with backoff; fast retransmit;
 * out-of-order data kept as sequence ranges (SACK blocks sent), not as
 * bytes, when the program does not need the bytes in order; FIN, RST,
 * TIME_WAIT (the class's time_wait, and a client's port reused only after
 * it); an RST for a segment of no connection (RFC 9293 3.10.7.1), at most
 * a bounded number a millisecond (SYN floods, garbage: counted).
 *
 * Threads: everything on the owning lcore, except wr_tcp_counters(),
 * wr_tcp_hist() (any thread: single-writer counters read with relaxed
 * loads) and wr_tcp_ctl() (any thread: the lcore reads it at its next poll).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_latency.h"
#include "wr_tcp_spec.h"

struct wr_tcp;
struct wr_tcp_app;

/** Room for any frame the engine sends: Ethernet, two tags, IPv6, TCP
 * with options, and an MSS of payload (9000-byte jumbo frames). */
#define WR_TCP_FRAME_MAX 9216

/**
 * A local address connections use: one emulated host's (its MAC, VLAN
 * tags and address), as the host engine brought it up, and the MAC of
 * its next hop toward the peer (its gateway, or the on-link peer),
 * resolved before the run (lib/ctl).  Host-order integers.
 */
struct wr_tcp_local {
	__uint128_t ip;         /**< IPv4 as its 32 bits */
	uint8_t mac[6];
	uint8_t nh_mac[6];      /**< where its frames go */
	uint8_t n_tags;
	uint16_t tpid[WR_HOST_TAGS_MAX];
	uint16_t tci[WR_HOST_TAGS_MAX];
};

/** One class as this lcore runs it. */
struct wr_tcp_class_rt {
	const struct wr_tcp_class *spec;
	/** Client side here: its hosts' addresses (connection k uses local
	 * k % n_clients), and whom they connect to (spec's addr[] of a real
	 * server, or the server hosts' addresses: connection k's server is
	 * k / n_clients % n_servers). */
	const struct wr_tcp_local *clients;
	uint32_t n_clients;
	const __uint128_t *servers;
	uint32_t n_servers;
	/** Server side here: the server hosts' addresses it listens on
	 * (spec->server.dport on each). */
	const struct wr_tcp_local *listen;
	uint32_t n_listen;
	/** The bytes of a data file (spec->data == WR_TCP_DATA_FILE): loaded
	 * once by the caller, shared by the lcores, outlives the engine. */
	const uint8_t *data;
	uint64_t data_len;
	/** The programs compiled (wr_tcp_app_init) by the caller, shared by
	 * the lcores, indexed by enum wr_tcp_side; NULL: the engine compiles
	 * its own at create (the Host header: the first server's address). */
	const struct wr_tcp_app *app[2];
};

/**
 * How the engine sends.  frame() lends a buffer of at least @p room
 * bytes (the lcore's next mbuf's data); send() queues what was written
 * into the last one lent.  The engine writes whole frames (no FCS).
 */
struct wr_tcp_io {
	void *ctx;
	/** NULL when no buffer is free (the segment is not sent: counted
	 * tx_nobuf; a retransmission or the next poll sends it). */
	uint8_t *(*frame)(void *ctx, uint32_t room);
	/** @p l3_off / @p l4_off: where the IP and TCP headers start (for a
	 * device that computes checksums: @c csum_offload). */
	void (*send)(void *ctx, uint32_t len, uint16_t l3_off, uint16_t l4_off);
	/** The device fills the IPv4 header and TCP checksums (the engine
	 * writes the pseudo-header sum as DPDK's offload wants). */
	bool csum_offload;
};

/** What an engine is made of. */
struct wr_tcp_cfg {
	uint16_t port;          /**< the engine port index (counters, errors) */
	unsigned int lane;      /**< this lcore's lane of the port's @c n_lanes */
	unsigned int n_lanes;
	/** The classes with a side on this port (others are not listed). */
	struct wr_tcp_class_rt *classes;
	unsigned int n_classes;
	/** Connections held at once at most, over every class (the sum of
	 * the client classes' concurrency shares and the servers' expected
	 * load): the arrays are sized from it, and a SYN beyond it is
	 * refused with an RST and counted `server_full`. */
	uint32_t max_conns;
	uint64_t seed;          /**< ISNs, ports' order: a function of the stream file's seed */
	struct wr_tcp_io io;
	/**
	 * Several lanes on a port: true when the peer's segments of a
	 * connection from @p local's port @p sport to @p server's port
	 * @p dport reach this lane's RX queue (the device's RSS hash and
	 * redirection table: lib/dp computes it, as dperf does).  The
	 * engine then takes any port of the class's range that passes.
	 * NULL: lane j of n takes the ports p with (p - sport_lo) % n == j.
	 */
	bool (*sport_ok)(void *ctx, const struct wr_tcp_local *local,
			 __uint128_t server, uint16_t sport, uint16_t dport);
	void *sport_ctx;
};

/** Histograms kept per class and side (ns): wr_latency's. */
enum wr_tcp_hist_id {
	WR_TCP_HIST_HANDSHAKE = 0, /**< SYN sent to SYN-ACK received (client), SYN-ACK sent to its ACK (server) */
	WR_TCP_HIST_TTFB,          /**< connection opened (SYN sent / received) to the first payload byte received */
	WR_TCP_HIST_COMPLETE,      /**< opened to closed (program done, FIN or RST exchanged) */
	WR_TCP_HIST__COUNT
};

/** Counters of one class's side on one lcore (each word written by the
 * lcore alone; sum lcores to get a port's, ports to get a class's). */
struct wr_tcp_counters {
	/* Connections */
	uint64_t attempted;     /**< SYNs first sent (client), SYNs taken (server) */
	uint64_t established;
	uint64_t failed_refused; /**< an RST in answer to the SYN */
	uint64_t failed_timeout; /**< SYN retries, data retries or idle timeout ran out */
	uint64_t failed_reset;  /**< an RST after established */
	uint64_t failed_other;  /**< no port, no memory (server_full), the run ended */
	uint64_t closed;        /**< the program ran to its end and the connection closed cleanly */
	uint64_t aborted;       /**< RSTs sent by the program (close: rst) */
	uint64_t active;        /**< open now (a gauge: established or opening) */
	uint64_t time_wait;     /**< in TIME_WAIT now (a gauge) */
	/* Bytes: payload, each way */
	uint64_t tx_bytes;      /**< payload sent first time */
	uint64_t rx_bytes;      /**< payload received in order */
	uint64_t tx_segs;       /**< segments sent (all) */
	uint64_t rx_segs;
	uint64_t tx_frame_bytes; /**< L2 bytes of every frame sent, FCS included */
	uint64_t rx_frame_bytes;
	/* Loss and order */
	uint64_t rexmit_segs;   /**< segments sent again (RTO, fast, SACK) */
	uint64_t rexmit_bytes;
	uint64_t rto;           /**< retransmission timeouts */
	uint64_t fast_rexmit;   /**< recoveries entered by 3 duplicate ACKs / SACK */
	uint64_t ooo_segs;      /**< segments received beyond rcv_nxt */
	uint64_t dup_segs;      /**< segments received wholly before rcv_nxt */
	uint64_t dup_acks;
	uint64_t zero_window;   /**< times the peer's window was 0 when data waited */
	/* HTTP */
	uint64_t http_requests;   /**< sent (client) / received whole (server) */
	uint64_t http_responses;  /**< received whole (client) / sent (server) */
	uint64_t http_status[6];  /**< responses by status / 100; [0]: unparsable */
	uint64_t app_errors;    /**< bytes not as the program expects (a bad
				 *   HTTP line, data not the pattern) */
};

/** The engine's own counters (not one class's). */
struct wr_tcp_port_counters {
	uint64_t rx_frames;     /**< frames given to wr_tcp_input() */
	uint64_t rx_not_tcp;    /**< handed back (returned 1): ARP, ND, other */
	uint64_t rx_bad;        /**< malformed: lengths, checksums, options */
	uint64_t rx_no_conn;    /**< segments of no connection */
	uint64_t rst_sent_no_conn; /**< RSTs for them */
	uint64_t rst_limited;   /**< RSTs not sent (the per-ms bound) */
	uint64_t syn_dropped;   /**< SYNs refused: server_full (RST sent) */
	uint64_t tx_nobuf;      /**< io.frame() had no buffer */
	uint64_t ports_busy;    /**< a client found no free source port for a
				 *   (local, server) pair (TIME_WAIT): opening waits */
	uint64_t mem_bytes;     /**< what the engine allocated at create */
};

/**
 * An engine for @p cfg (copied; what it points to must outlive the
 * engine).  Every array is allocated here (wr_tcp_mem()).
 * @return 0; -EINVAL (@p err: a class without a side here, a local with
 *         no address, max_conns 0 or above 1 << 28); -ENOMEM.
 */
int wr_tcp_create(struct wr_tcp **t, const struct wr_tcp_cfg *cfg,
		  struct wr_error *err);
void wr_tcp_free(struct wr_tcp *t);
/** Bytes allocated (state, hash, timers, counters and histograms). */
size_t wr_tcp_mem(const struct wr_tcp *t);

/** The run starts at @p now: clients begin opening at their rates
 * (ramps from here), servers listen (they do from create too). */
void wr_tcp_start(struct wr_tcp *t, uint64_t now);

/**
 * One received frame (Ethernet, 0..2 tags, IPv4 or IPv6, TCP), not owned.
 * @return 0 taken (a segment of ours, or counted and dropped as
 *         malformed or of no connection); 1 not TCP to one of our
 *         addresses: the caller hands it on (to the hosts' service: ARP,
 *         ND, ICMP).
 */
int wr_tcp_input(struct wr_tcp *t, const uint8_t *frame, uint32_t len,
		 uint64_t now);

/**
 * Frames as wr_tcp_input() takes them one by one, @p n of them at once
 * (the same order, the same counts): their connections' lookups are
 * prefetched together.  @p ret[i] is what wr_tcp_input() would return
 * for frame i.  @return how many are handed back (ret 1).
 */
unsigned int wr_tcp_input_burst(struct wr_tcp *t,
				const uint8_t *const *frames,
				const uint32_t *lens, unsigned int n,
				uint64_t now, uint8_t *ret);

/**
 * Open what the rates allow, fire timers due, send what windows allow and
 * ACKs owed.  @return the next time something is due (ns; the lcore
 * polls RX in between anyway).
 */
uint64_t wr_tcp_poll(struct wr_tcp *t, uint64_t now);

/** Stop opening (count or duration reached is the same, per class);
 * connections open run their programs to the end.  @p abort: every
 * connection is reset now (RST sent, counted failed_other). */
void wr_tcp_stop(struct wr_tcp *t, bool abort, uint64_t now);

/** True once every client class stopped opening and no connection is
 * open (TIME_WAIT ones do not count). */
bool wr_tcp_done(const struct wr_tcp *t);

/** A control request, applied at the lcore's next poll (any thread). */
struct wr_tcp_ctl {
	unsigned int class_idx; /**< index in cfg.classes */
	bool set_rate;
	uint64_t rate_milli;    /**< this lane's share is taken by the engine */
	bool set_concurrency;
	uint32_t concurrency;
	bool pause;             /**< stop opening (open ones go on) */
	bool resume;
};
/** @return 0; -EINVAL (no such class, concurrency above what create
 *          sized for); -EBUSY (the last request not yet taken: retry). */
int wr_tcp_ctl(struct wr_tcp *t, const struct wr_tcp_ctl *c);

/** Class @p class_idx's counters for @p side (zero where the class has
 * no such side here).  Any thread. */
void wr_tcp_counters(const struct wr_tcp *t, unsigned int class_idx,
		     enum wr_tcp_side side, struct wr_tcp_counters *out);
/** Merge class @p class_idx's histogram @p id of @p side into @p dst
 * (wr_latency_merge).  Any thread. */
void wr_tcp_hist(const struct wr_tcp *t, unsigned int class_idx,
		 enum wr_tcp_side side, enum wr_tcp_hist_id id,
		 struct wr_latency *dst);
void wr_tcp_port_counters(const struct wr_tcp *t,
			  struct wr_tcp_port_counters *out);

/** Sum @p b into @p a (lcores into a port, ports into a class). */
void wr_tcp_counters_add(struct wr_tcp_counters *a,
			 const struct wr_tcp_counters *b);

/**
 * Take an earlier snapshot @p b out of @p a (stats.clear's baseline): every
 * counter, saturating at 0; the gauges (active, time_wait) are kept.
 */
void wr_tcp_counters_sub(struct wr_tcp_counters *a,
			 const struct wr_tcp_counters *b);
/** The same for an engine's counters; mem_bytes (a size) is kept. */
void wr_tcp_port_counters_sub(struct wr_tcp_port_counters *a,
			      const struct wr_tcp_port_counters *b);

/**
 * Every counter of @p c by name, in doc/tcp.md's order (for --json,
 * stats.get, Prometheus: one list, so the outputs agree).
 */
void wr_tcp_counters_each(const struct wr_tcp_counters *c,
			  void (*put)(void *ctx, const char *name, uint64_t v),
			  void *ctx);

#endif /* WR_TCP_H */

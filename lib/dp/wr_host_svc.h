/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_svc: the service that runs the emulated hosts of every port beside the data path (rings from the RX lcores, a TX queue of its own per port). */
#ifndef WR_HOST_SVC_H
#define WR_HOST_SVC_H

/**
 * @file
 * The host engine (lib/core/host/wr_host.h) is driven by one thread: this
 * service.  Per port with hosts it keeps a struct wr_hosts, an rte_ring the
 * port's RX lcores hand foreign frames to (wr_rx.c: frames without a
 * wirerate signature, in bursts; a full ring is a counted drop, the RX
 * loop never waits), a mempool of its own and the port's last TX queue,
 * which no lcore of the engine sends on (wr_port_txq_reserve()), or the
 * RX lcore's (below).
 *
 * One pass of the service: every port's ring drained in bursts into
 * wr_hosts_input(), wr_hosts_tick() when a timer is due, the frames the
 * hosts sent in the pass flushed with rte_eth_tx_burst (what the NIC does
 * not take is freed and counted), then a control request answered
 * (wr_host_svc_read()).
 *
 * A device without a spare TX queue (net_af_packet: a queue pair more
 * would also spread what it receives over a socket nobody polls) has its
 * hosts' frames sent by the lcore that polls its first RX queue, which
 * must send on the port too (as the old responder's answers were): the
 * service puts them in a second ring (out), which that lcore empties onto
 * its own TX queue at each poll (wr_rx_poll(): one test a poll, none a
 * frame).  While no worker runs the service sends them itself.
 *
 * It runs
 *   - on a control thread (rte_ctrl_thread_create: EAL puts it on the
 *     CPUs no lcore uses, else on the main lcore's), sleeping
 *     WR_HOST_SVC_IDLE_US when a pass found nothing to do: the main lcore
 *     of `run` sleeps between its reports and the server's in epoll, so
 *     the service needs no turn of either loop, and a bring-up the session
 *     waits for goes on while it waits;
 *   - or on a lcore of its own (`--host-lcore N`), polling without sleep.
 *
 * Before the workers run (bring-up) and after they stopped (release),
 * nobody polls the ports' RX queues: the service polls them itself
 * (wr_host_svc_rx_own()), so that a DHCP offer or an ARP reply reaches the
 * hosts then too.  While the workers run it only reads the rings.
 *
 * Threads: create, start, stop, free, rx_own on the main lcore (no worker
 * running for create/free/rx_own); wr_host_svc_read() from any one thread
 * at a time (the server); counters any thread (relaxed atomic loads).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ring.h>

#include "wr_config.h"
#include "wr_error.h"
#include "wr_host.h"
#include "wr_neigh.h"
#include "wr_port.h"

struct wr_engine;

/** Frames a ring holds: 8 ms at 1 M frames a second, so that a sleep of
 * the service (WR_HOST_SVC_IDLE_US, and the scheduler's lateness beyond
 * it) loses none at that rate. */
#define WR_HOST_SVC_RING 8192
/** The service's sleep when a pass found nothing (control thread). */
#define WR_HOST_SVC_IDLE_US 200
/** Frames one burst takes from a ring, and the most one TX burst sends. */
#define WR_HOST_SVC_BURST 32
/** Frames the service takes from one ring in one pass, at most: then the
 * other ports, the timers and the TX get their turn. */
#define WR_HOST_SVC_PASS_MAX 1024
/** Default bound of the wait for hosts' bring-up (run --hosts-wait). */
#define WR_HOST_SVC_WAIT_MS 5000
/** How long wr_host_svc_read() waits for a pass at most. */
#define WR_HOST_SVC_READ_MS 1000

/** What the service itself counts per port (any thread may read). */
struct wr_host_svc_counts {
	uint64_t rx;            /**< frames taken from the ring into the hosts */
	uint64_t tx;            /**< frames the NIC took (shared: handed to
				 *   the RX lcore, which counts its drops) */
	uint64_t tx_drop;       /**< no mbuf (-ENOBUFS), or the NIC full */
	uint64_t passes;        /**< service passes */
	uint64_t ring_drop;     /**< frames the RX lcores found no room for */
	/* The port's responder (wr_neigh.h): */
	uint64_t arp_replies;   /**< ARP requests answered */
	uint64_t icmp_replies;  /**< ICMP and ICMPv6 echo requests answered */
	uint64_t nd_replies;    /**< Neighbor Solicitations answered */
	uint64_t arp_seen;      /**< ARP replies and NAs received */
};

/**
 * A port's own responder, its implicit host (wr_neigh.h): the port's MAC
 * answers ARP, NS and echo for its streams' source addresses with
 * wr_arp_answer()/wr_nd_answer() (the emulated hosts' answers' code), and
 * asks for the next hops of its `dst: arp` / `dst: nd` streams.
 */
struct wr_host_svc_resp {
	uint8_t mac[6];
	struct wr_addrs addrs;  /**< IPv4 addresses answered for */
	struct wr_addrs addrs6; /**< IPv6 addresses answered for */
	struct wr_arpd_query *q; /**< next hops asked for, n_q of them */
	unsigned int n_q;
	uint32_t n_req;         /**< rounds of questions sent */
	uint64_t next_req_ns;
};

/** One port's hosts as the service runs them. */
struct wr_host_svc_port {
	uint16_t port_id;
	uint16_t queue_id;      /**< its TX queue (the port's last) */
	unsigned int index;     /**< the engine's port index */
	uint16_t n_rxq;         /**< RX queues polled while the service owns them */
	struct wr_hosts *hs;     /**< NULL: only a responder */
	struct wr_host_svc_resp *resp; /**< NULL: none */
	struct rte_ring *ring;  /**< RX lcores -> service */
	/** Service -> the RX lcore of queue 0, which sends them (no spare TX
	 * queue: @c shared); NULL with a queue of its own. */
	struct rte_ring *out;
	bool shared;
	struct rte_mempool *pool;
	struct rte_mbuf *out_m[WR_HOST_SVC_BURST]; /**< the pass's frames */
	uint16_t n_out;
	bool own;               /**< this pass: no worker runs */
	uint64_t next_tick_ns;
	uint32_t up;            /**< wr_hosts_up() as of the last pass */
	uint32_t n_hosts;
	struct wr_host_peer *peers; /**< attached to @c hs (wr_hosts_peers()) */
	struct wr_host_svc_counts c;
} __rte_cache_aligned;

/** A copy of one host for the control plane (wr_host_svc_read()). */
struct wr_host_svc_host {
	uint32_t index;         /**< in the port's table */
	struct wr_host h;       /**< addresses, tags, gateways' entries */
	/** Each module's state word (wr_hosts_proto_state()), "" for none. */
	char proto_state[WR_HOST_PROTO__COUNT > 0 ? WR_HOST_PROTO__COUNT : 1][16];
};

/** A counter by name (wr_hosts_counters(), then the service's own). */
struct wr_host_svc_counter {
	char name[48];
	uint64_t value;
};

/** What the control plane asks (wr_host_svc_read()); the buffers are the
 * caller's. */
struct wr_host_svc_req {
	unsigned int port;      /**< engine port index */
	/* Hosts: from @c first, at most @c max_hosts of them into @c hosts
	 * (NULL: none asked). */
	uint32_t first;
	uint32_t max_hosts;
	struct wr_host_svc_host *hosts;
	/* Counters: at most @c max_counters into @c counters (NULL: none). */
	uint32_t max_counters;
	struct wr_host_svc_counter *counters;
	/* Peers to resolve (wr_hosts_peers(): the TCP classes' on-link
	 * servers and clients): handed to the hosts by the first read that
	 * names them, kept by them until they are freed (the caller's array
	 * must outlive the service); NULL: none. */
	struct wr_host_peer *peers;
	uint32_t n_peers;
	/* Filled by the service: */
	uint32_t peers_pending; /**< of @c peers, those still INCOMPLETE */
	uint32_t n_total;       /**< hosts the port has */
	uint32_t n_hosts;       /**< copied into @c hosts */
	uint32_t n_counters;    /**< copied into @c counters */
	uint64_t now_ns;        /**< the service's clock when it copied (ages:
				 *   now_ns - updated_ns) */
	bool up;                /**< wr_hosts_up() */
	uint32_t done;          /* set by the service when filled */
};

struct wr_host_svc {
	struct wr_engine *e;
	struct wr_host_svc_port *port[WR_PORTS_MAX]; /**< NULL: no hosts */
	unsigned int n_ports;   /**< ports with hosts */
	int lcore;              /**< -1: a control thread */
	bool running;
	uint64_t thread;        /* pthread_t of the control thread */
	uint32_t stop;
	uint32_t rx_own;        /**< the service polls the RX queues itself */
	uint32_t rx_own_ack;    /**< ... and has seen it (handshake) */
	uint32_t hosts_stop;    /**< stop every host at the next pass */
	uint32_t hosts_stop_ack;
	struct wr_host_svc_req *req; /**< a pending read, or NULL */
};

/**
 * The hosts of @p f (its hosts:) and the responders of the ports with
 * @p responder[i] set (NULL: none; the port's streams' sources), nothing
 * started: per port with either a table (wr_hosts_create()) and/or a
 * responder with the next hops to ask for (wr_arpd_queries()), a ring, a
 * mempool, and a TX queue (the port's last when no TX lcore has it:
 * wr_port_txq_reserve(); else the RX lcore's).  Before wr_engine_load()
 * (the service polls the ports itself until wr_host_svc_attach() and
 * wr_host_svc_rx_own()).
 * @param lcore -1: a control thread; else the lcore to run on.
 * @return 0; -EINVAL (@p err: a group's port the engine lacks, a lcore
 *         that is not free, a table refused, a stream's tags too many to
 *         ask behind); -ENOMEM.  On failure nothing is left.
 */
int wr_host_svc_create(struct wr_host_svc **out, struct wr_engine *e,
		       const struct wr_stream_file *f, const bool *responder,
		       int lcore, struct wr_error *err);

/**
 * Wait (at most @p timeout_ms) until every next hop the responders asked
 * for answered, then write their MACs into @p f's streams
 * (wr_arpd_apply()).  Main lcore, the service started.
 * @return 0; -EHOSTUNREACH with @p err (a next hop that did not answer).
 */
int wr_host_svc_resolve(struct wr_host_svc *s, struct wr_stream_file *f,
			uint32_t timeout_ms, struct wr_error *err);

/**
 * After wr_engine_load(): every RX queue of a port with hosts hands its
 * foreign frames to the port's ring (wr_rxq.hosts).  No worker running.
 * @return 0; -EINVAL (@p err) when a port with hosts is not polled.
 */
int wr_host_svc_attach(struct wr_host_svc *s, struct wr_error *err);

/** Launch the service (its thread or lcore), owning the RX queues
 * (wr_host_svc_rx_own()), and start every host (wr_hosts_start()).
 * @return 0 or a negative errno with @p err. */
int wr_host_svc_start(struct wr_host_svc *s, struct wr_error *err);

/**
 * Give the ports' RX queues to the service (@p own: before the workers
 * are launched, after they stopped) or back to the workers; returns once
 * the service saw it (at most a second).
 */
void wr_host_svc_rx_own(struct wr_host_svc *s, bool own);

/**
 * Wait until every port's hosts are up (wr_hosts_up(): every module done
 * or failed with each host) or @p timeout_ms passed.  @return how many
 * ports' hosts were not all up then (0: all up).
 */
uint32_t wr_host_svc_wait_up(struct wr_host_svc *s, uint32_t timeout_ms);

/**
 * Stop every host (wr_hosts_stop(): DHCP release, leaves), let what they
 * send go out for @p linger_ms, then end the service.  Main lcore.
 */
void wr_host_svc_stop(struct wr_host_svc *s, uint32_t linger_ms);

/** Free everything (the service stopped).  NULL-safe. */
void wr_host_svc_free(struct wr_host_svc *s);

/**
 * The control plane's read: the service fills @p r at its next pass (or
 * the caller's thread does, when the service does not run).  One request
 * at a time (the caller serialises).
 * @return 0; -ENOENT (@p r->port has no hosts); -ETIMEDOUT (no pass in
 *         WR_HOST_SVC_READ_MS: nothing was written into the buffers).
 */
int wr_host_svc_read(struct wr_host_svc *s, struct wr_host_svc_req *r);

/** The service's own counters of engine port @p port (zero: no hosts). */
void wr_host_svc_counts(const struct wr_host_svc *s, unsigned int port,
			struct wr_host_svc_counts *c);

#endif /* WR_HOST_SVC_H */

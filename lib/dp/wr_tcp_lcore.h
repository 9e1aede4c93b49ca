/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_lcore: the lcore loop of the ports a stream file's TCP classes stand on (RX burst into the TCP engine, its frames out in TX bursts, the hosts' frames handed on). */
#ifndef WR_TCP_LCORE_H
#define WR_TCP_LCORE_H

/**
 * @file
 * A port with TCP class ends (wr_tcp_spec.h) is driven by its lanes: lane
 * q is RX queue q and TX queue q of the port, both on one worker lcore,
 * with one TCP engine (struct wr_tcp: lib/core/tcp) of its own.  Each
 * turn of the loop, for each lane:
 *
 *   - one RX burst: every frame given to wr_tcp_input() where it lies in
 *     the mbuf (no copy); those it returns 1 for (ARP, ND, ICMP, what is
 *     not TCP to one of our addresses) handed to the hosts' service ring
 *     by wr_rx_to_hosts(), the one way wr_rx_poll() hands them;
 *   - the hosts' own frames sent (wr_rx_hosts_send()) where the port has
 *     no spare TX queue for the service (af_packet, memif: wr_host_svc.h);
 *   - wr_tcp_poll(): the engine writes its frames through struct
 *     wr_tcp_io into the next mbuf of the lane's pool (frame(): the mbuf's
 *     own buffer, no copy) and queues them (send()); the burst goes to
 *     the NIC at WR_TCP_LCORE_BURST frames or at the end of the poll.
 *
 * A frame the NIC does not take after WR_TCP_LCORE_TX_TRIES tries stays
 * in the burst for the next flush; while a whole burst waits, frame()
 * lends nothing (counted tx_nobuf) and the engine sends later: a full
 * ring is back-pressure to TCP, not a loss.  Only frames still waiting
 * when the lane stops are freed, counted tx_drop.
 *
 * Several lanes on one port need the device's RSS to spread the peers'
 * segments by their 4-tuple: the engine picks each lane's client source
 * ports whose hash lands on its queue.  Devices without RSS (af_packet,
 * memif, net_ring, net_null here) run one lane per port (the engine load
 * refuses more, wr_engine_load.c).
 *
 * The run: wr_tcp_start() at the lcore's start; while the engine's stop
 * flag is clear, the loop above (the lcore says tx_finished once every
 * lane with clients has them done: wr_tcp_done()); at the stop flag,
 * wr_tcp_stop() graceful (opening ends, connections run their programs to
 * the end) for as long as the drain lasts; at stop_rx every connection
 * left is reset (wr_tcp_stop() abort) and its RST sent, and the loop ends.
 * A lane may be asked to stop earlier (wr_tcp_lane_stop()).
 * The lcore passes the engine's quiescent point (the port-gone epoch,
 * wr_engine.h) at the top of every turn and never touches a port gone.
 *
 * Threads: the loop on its lcore; create/free on the main lcore with no
 * worker running; counters, done and stop from any thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "wr_error.h"
#include "wr_rx.h"
#include "wr_tcp.h"
#include "wr_tx.h"

/** Frames one RX burst takes, and the most one TX burst sends. */
#define WR_TCP_LCORE_BURST 32
/** Calls of rte_eth_tx_burst for one burst before what is left is dropped. */
#define WR_TCP_LCORE_TX_TRIES 8
/** Lanes one lcore runs at most (ports x queues). */
#define WR_TCP_LCORE_LANES WR_LCORE_RXQ_MAX

/** Peers' MACs a server lane keeps (a power of two): the on-link
 * clients its frames go to (wr_tcp_lane.learn). */
#define WR_TCP_LANE_MACS 16384

/** One peer's MAC, by its address (direct-mapped: a newer peer of the
 * same slot takes it). */
struct wr_tcp_mac_ent {
	__uint128_t ip;         /**< IPv4 as its 32 bits; 0: empty */
	uint8_t mac[6];
};

/** What a lane counts (its lcore writes, any thread reads). */
struct wr_tcp_lane_counts {
	uint64_t rx_frames;     /**< frames received on the queue */
	uint64_t rx_hosts;      /**< of them, handed to the hosts' service */
	uint64_t tx_frames;     /**< frames the NIC took */
	uint64_t tx_bytes;      /**< their bytes, FCS included (as wr_counters) */
	uint64_t tx_drop;       /**< frames still waiting when the lane stopped (freed) */
	uint64_t tx_nobuf;      /**< frame() found the pool empty */
	uint64_t tx_nomac;      /**< a frame to a client whose MAC is not
				 *   known (not sent: its next segment finds it) */
	uint64_t polls;         /**< turns of the loop */
};

/** One (port, queue) pair of a lcore and the TCP engine on it. */
struct wr_tcp_lane {
	struct wr_tcp *t;       /**< its engine (owned) */
	unsigned int port;      /**< the engine's port index */
	uint16_t port_id;
	uint16_t queue_id;      /**< its RX and TX queue */
	/** The port's polled RX queue @c queue_id (wr_engine_load()):
	 * counters the reports read, and the hosts' rings
	 * (wr_host_svc_attach() sets them: hosts, hosts_out). */
	struct wr_rxq *rxq;
	const uint32_t *gone;   /**< the port went away */
	struct rte_mempool *pool; /**< the frames this lane sends */
	uint32_t room;          /**< bytes a frame may have (the mbufs' data room) */
	bool csum_offload;      /**< the device fills IPv4 and TCP checksums */
	bool has_clients;       /**< some class's clients run here */
	/**
	 * Servers: their next hop is not known before a client speaks (a
	 * listen local's nh_mac is zero: real clients on the link or behind
	 * a router, emulated ones with MACs of their own): each IP frame received
	 * teaches its source MAC by its source address, and a frame the
	 * engine sends with a zero destination MAC gets its peer's.  NULL:
	 * every local has its next hop.
	 */
	struct wr_tcp_mac_ent *macs;
	/* The burst being built, and the mbuf frame() lent. */
	struct rte_mbuf *lent;
	uint16_t n_tx;
	struct rte_mbuf *tx[WR_TCP_LCORE_BURST];
	struct wr_tcp_lane_counts c;
	/* Set by any thread: 1 stop opening, 2 abort now (wr_tcp_stop()). */
	uint32_t stop_req;
	uint32_t stop_seen;     /* the lcore's: what it applied */
	/** Published by the lcore every turn: wr_tcp_done() (clients only:
	 * a lane with servers alone is never done). */
	uint32_t done;
} __rte_cache_aligned;

/** The lanes of one lcore (struct wr_lcore_ctx.tcp). */
struct wr_tcp_lcore {
	unsigned int n_lanes;
	struct wr_tcp_lane *lanes[WR_TCP_LCORE_LANES];
	uint64_t tsc_base;      /**< the lcore's TSC at its start: now is ns since */
};

/**
 * A lane on port @p port_id's queue pair @p queue_id, its pool of
 * @p n_mbufs frames of up to @p frame_max bytes on @p socket_id, added to
 * @p *tl (allocated at the first).  Its engine is created after
 * (wr_tcp_lane_io() gives the io to create it with; set lane->t).
 * @return 0; -EINVAL (@p err: WR_TCP_LCORE_LANES lanes already); -ENOMEM.
 */
int wr_tcp_lane_add(struct wr_tcp_lcore **tl, struct wr_tcp_lane **out,
		    uint16_t port_id, uint16_t queue_id, uint32_t frame_max,
		    unsigned int n_mbufs, int socket_id, struct wr_error *err);

/** The io struct wr_tcp_cfg takes, sending through @p l. */
void wr_tcp_lane_io(struct wr_tcp_lane *l, struct wr_tcp_io *io);

/** Ask lane @p l to stop opening (@p abort false: connections run their
 * programs to the end) or to reset every connection now.  Any thread. */
void wr_tcp_lane_stop(struct wr_tcp_lane *l, bool abort);

/** Give lane @p l its peers' MAC table (wr_tcp_lane.macs) on
 * @p socket_id.  Main lcore, before the run.  @return 0 or -ENOMEM. */
int wr_tcp_lane_learn(struct wr_tcp_lane *l, int socket_id);

/** Free every lane of @p tl (their engines, pools).  NULL-safe. */
void wr_tcp_lcore_free(struct wr_tcp_lcore *tl);

/**
 * The lcore's loop (rte_eal_remote_launch argument: a struct
 * wr_lcore_ctx whose @c tcp is set).  Also receives, as
 * wr_tx_lcore_main() does, on the lcore's RX queues of other ports
 * (ctx->rxq[] that are no lane's).  @return 0.
 */
int wr_tcp_lcore_main(void *arg);

#endif /* WR_TCP_LCORE_H */

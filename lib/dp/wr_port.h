/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_port: setting up, starting, reading and closing one DPDK ethdev port. */
#ifndef WR_PORT_H
#define WR_PORT_H

/**
 * @file
 * A struct wr_port wraps one ethdev port for a run: one TX queue per TX
 * lcore, one RX queue (always configured, since several PMDs need at least
 * one; polled only when a lcore is given the port's RX), started, its link
 * waited for, and closed again in reverse order whatever happened.
 *
 * Threads: the main lcore only (setup, start, stats, close).  The data path
 * uses port_id and the queue ids directly.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "wr_error.h"

struct wr_port {
	uint16_t port_id;
	unsigned int index;        /**< position in the run's port list */
	char device[128];
	char driver[64];
	int socket_id;             /**< NUMA node, SOCKET_ID_ANY if unknown */
	uint16_t n_txq;
	uint16_t n_rxq;
	uint16_t txd;
	uint16_t rxd;
	struct rte_ether_addr mac;
	uint32_t link_speed_mbps;  /**< 0: unknown (virtual devices) */
	bool link_up;
	bool configured;
	bool started;
	struct rte_mempool *rx_pool;
	struct rte_eth_stats base; /**< counters at start, to report deltas */
};

/**
 * Find a port by the device name EAL gave it ("net_null0", "0000:3b:00.0").
 * @return 0 and *port_id, or -ENODEV (err says which names exist).
 */
int wr_port_find(const char *device, uint16_t *port_id, struct wr_error *err);

/**
 * Configure @p p (port_id and index filled by the caller) with @p n_txq TX
 * queues and one RX queue; descriptor counts 0 mean 1024 (adjusted to the
 * device's limits).  @return 0 or a negative errno with @p err filled.
 */
int wr_port_setup(struct wr_port *p, uint16_t n_txq, uint16_t txd,
		  uint16_t rxd, struct wr_error *err);

/** Start the port and snapshot its counters.  @return 0 or a negative errno. */
int wr_port_start(struct wr_port *p, struct wr_error *err);

/**
 * Wait until the link is up or @p timeout_ms passes, polling every 10 ms.
 * Fills link_up and link_speed_mbps.  @return 0, or -ETIMEDOUT.
 */
int wr_port_wait_link(struct wr_port *p, uint32_t timeout_ms);

/**
 * Wait until the port's opackets counter stops moving (frames accepted by
 * tx_burst still in the NIC's ring leave before the port is stopped), at
 * most @p timeout_ms.
 */
void wr_port_drain(struct wr_port *p, uint32_t timeout_ms);

/** Counters since wr_port_start().  @return 0 or a negative errno. */
int wr_port_stats(const struct wr_port *p, struct rte_eth_stats *st);

/** Stop and close, free the RX pool.  Safe on a port never set up. */
void wr_port_close(struct wr_port *p);

#endif /* WR_PORT_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_port: setting up, starting, reading and closing one DPDK ethdev port. */
#ifndef WR_PORT_H
#define WR_PORT_H

/**
 * @file
 * A struct wr_port wraps one ethdev port for a run: one TX queue per TX
 * lcore and one RX queue per RX lcore (at least one of each is always
 * configured, since several PMDs need one; a queue no lcore has is never
 * polled), started, its link waited for, and closed again in reverse order
 * whatever happened.  Several RX queues are filled by RSS over the IPv4/IPv6
 * addresses and TCP/UDP ports where the device hashes (rss_hf below), by
 * the peer's queue pairs on memif, AF_XDP or virtio-user (doc/rx.md).
 *
 * Threads: the main lcore only (setup, start, stats, close).  The data path
 * uses port_id and the queue ids directly.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "wr_error.h"

/** TX-drop extended counters followed per port (NICs have a few dozen at most per queue set). */
#define WR_PORT_DROP_XSTATS_MAX 32
/** Mbufs a port's RX pool has besides what its queues need, for received
 * frames that captures hold until their writers copy them (wr_capture_port.h):
 * 0.2 ms at 10 Mpps. */
#define WR_PORT_RX_HOLD 2048

struct wr_port {
	uint16_t port_id;
	unsigned int index;        /**< position in the run's port list */
	char device[128];
	char driver[64];
	int socket_id;             /**< NUMA node, SOCKET_ID_ANY if unknown */
	uint16_t n_txq;
	uint16_t n_rxq;
	uint64_t rss_hf;           /**< RSS hash fields on (several RX queues) */
	uint16_t txd;
	uint16_t rxd;
	struct rte_ether_addr mac;
	uint32_t link_speed_mbps;  /**< 0: unknown (virtual devices) */
	bool link_up;
	bool configured;
	bool started;
	struct rte_mempool *rx_pool;
	uint32_t rx_held;          /**< frames captures hold (wr_capture_port.h) */
	uint16_t mtu_set;          /**< MTU configured for jumbo frames, 0: the PMD's */
	uint32_t buf_limit;        /**< memif: its buffer size (bsize), else 0 */
	uint32_t frame_max;        /**< the largest frame (FCS included) the port
				    *   was set up to send and receive */
	struct rte_eth_stats base; /**< counters at start, to report deltas */
	/* TX offloads (wr_offload.h): what the port offers and what is on. */
	uint64_t tx_offload_capa;
	uint64_t tx_offloads;      /**< enabled in rte_eth_dev_configure */
	bool tx_cksum;             /**< IPv4 + UDP checksum offload on */
	/*
	 * Hardware RX timestamps (RTE_ETH_RX_OFFLOAD_TIMESTAMP), on when the
	 * port offers them and can read its clock (rte_eth_read_clock), so
	 * that stamps can be mapped onto the TSC (wr_clock.h).
	 */
	uint64_t rx_offloads;      /**< enabled in rte_eth_dev_configure */
	bool rx_hwts;
	int hwts_off;              /**< mbuf dynfield offset of the stamp */
	uint64_t hwts_flag;        /**< ol_flags bit set on stamped mbufs */
	/* Extended counters that count TX drops (wr_xstat_is_tx_drop), with
	 * their values at start. */
	unsigned int n_drop_xstats;
	uint64_t drop_xstat_id[WR_PORT_DROP_XSTATS_MAX];
	uint64_t drop_xstat_base[WR_PORT_DROP_XSTATS_MAX];
};

/** What `wirerate ports` shows of a port (wr_port_describe). */
struct wr_port_info {
	uint16_t port_id;
	char name[RTE_ETH_NAME_MAX_LEN];
	char driver[64];
	uint8_t mac[6];
	int socket_id;             /**< -1: unknown */
	bool link_up;
	uint32_t link_speed_mbps;  /**< 0: unknown */
	uint16_t max_rx_queues, max_tx_queues;
	uint16_t rx_queues, tx_queues; /**< configured (0 before a run) */
	bool tx_ipv4_cksum, tx_udp_cksum, tx_fast_free, tx_multi_seg;
	bool rx_timestamp;
	/* Frame sizes (wr_port_setup raises the MTU within them): */
	uint16_t mtu;              /**< now; 0: unknown */
	uint16_t max_mtu;          /**< the driver's largest */
	uint32_t max_rx_pktlen;    /**< longest frame received, FCS excluded */
};

/** One non-zero TX-drop extended counter (wr_port_drop_xstats). */
struct wr_port_xstat {
	char name[RTE_ETH_XSTATS_NAME_SIZE];
	uint64_t value;            /**< since wr_port_start() */
};

/**
 * Find a port by the device name EAL gave it ("net_null0", "0000:3b:00.0").
 * @return 0 and *port_id, or -ENODEV (err says which names exist).
 */
int wr_port_find(const char *device, uint16_t *port_id, struct wr_error *err);

/**
 * Configure @p p (port_id and index filled by the caller) with @p n_txq TX
 * queues and @p n_rxq RX queues (0 counts as 1 of each); with more than
 * one RX queue, RSS on the IP addresses and TCP/UDP ports the device can
 * hash (none: its own spreading, a memif or AF_XDP peer's queue pairs).
 * Descriptor counts 0 mean 1024 (adjusted to the device's limits).  For @p max_frame above 1518 bytes (FCS included) the
 * MTU is raised to max_frame - 18 and the RX buffers hold such a frame in
 * one segment; 0 or up to 1518 leave the PMD's MTU and 2 KB buffers.
 * @return 0 or a negative errno with @p err filled: -EINVAL for more
 *         queues than the device has; -EMSGSIZE when the
 *         device cannot take @p max_frame bytes (its max_mtu or
 *         max_rx_pktlen, or memif's buffer size, bsize=).
 */
int wr_port_setup(struct wr_port *p, uint16_t n_txq, uint16_t n_rxq,
		  uint16_t txd, uint16_t rxd, uint32_t max_frame,
		  struct wr_error *err);

/**
 * Read the TSC and the port's clock at the same instant (the TSC before and
 * after rte_eth_read_clock, their midpoint).  @return 0 or a negative errno.
 */
int wr_port_clock_pair(const struct wr_port *p, uint64_t *tsc, uint64_t *dev);

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

/**
 * Describe port @p port_id (probed, configured or not) for `wirerate ports`:
 * rte_eth_dev_info, MAC, NUMA node, the link without waiting.
 * @return 0 or a negative errno (-ENODEV: no such port).
 */
int wr_port_describe(uint16_t port_id, struct wr_port_info *out);

struct wr_config;
/**
 * `wirerate ports`: start EAL with the profile's EAL arguments and then
 * @p user's, describe the ports, close them and stop EAL again.
 * @param cfg the profile (its eal: list; an empty one adds nothing).
 * @param user @p n_user EAL arguments given after "--".
 * @param names @p n_names device names to describe, in that order; none:
 *        every port EAL probed.
 * @param out set to a malloc()ed array the caller frees, @p n_out long.
 * @return 0; -EINVAL (EAL refused its arguments), -EIO (EAL failed to
 *         start otherwise), -ENODEV (a name EAL does not know) or -ENOMEM,
 *         with @p err filled.
 */
int wr_port_list(const struct wr_config *cfg, char **user, int n_user,
		 const char *const *names, unsigned int n_names,
		 struct wr_port_info **out, unsigned int *n_out,
		 struct wr_error *err);

/**
 * Decide the port's TX offloads for a stream file (wr_offload_choose: the
 * checksum offloads when offered, MBUF_FAST_FREE when every TX queue sees
 * one mempool: @p n_streams == 1 and no @p responder) and, when
 * MBUF_FAST_FREE must change, reconfigure the stopped port with it and
 * start it again (waiting up to @p link_wait_ms for the link).
 * Main lcore, no worker running.  @return 0 or a negative errno, @p err filled.
 */
int wr_port_tx_plan(struct wr_port *p, unsigned int n_streams, bool responder,
		    uint32_t link_wait_ms, struct wr_error *err);

/**
 * Make sure @p p has a TX queue beyond the @p n_used its TX lcores send on
 * (the emulated hosts' service sends on it: wr_host_svc.h; no queue is
 * shared by two threads): when it has not, the port is configured again
 * with one more and started (waiting up to @p link_wait_ms for the
 * link).  The queue stays for the port's life.  Main lcore, no worker
 * running.
 * @return 0 (the last TX queue is spare); 1 when the device has no more
 *         TX queues (net_af_packet's qpairs: a pair more would also
 *         spread received frames over a socket no lcore polls;
 *         net_memif, whose client does not connect again after its
 *         queue count changed); or a
 *         negative errno of the reconfiguration, @p err filled.
 */
int wr_port_txq_reserve(struct wr_port *p, uint16_t n_used,
			uint32_t link_wait_ms, struct wr_error *err);

/**
 * The TX-drop extended counters (wr_xstat_is_tx_drop) that moved since
 * wr_port_start(), at most @p max.  @return how many were written.
 */
unsigned int wr_port_drop_xstats(const struct wr_port *p,
				 struct wr_port_xstat *out, unsigned int max);

/**
 * After a run, with the port's TX lcores stopped: whether each file a
 * net_pcap port writes (tx_pcap=, one a TX queue) holds what the queue
 * sent.  net_pcap writes through libpcap's dumper and flushes it after
 * every burst but never looks at the result: a full disk loses frames
 * that its counters, and the run's, count as sent.  A pcap file of N
 * frames of B bytes in all is 24 + 16 N + B bytes (the file header, a
 * record header each: libpcap's format, which net_pcap's byte counter
 * counts the captured bytes of); one a queue that sent nothing may still
 * hold only the header in libpcap's buffer (0 bytes).
 * @return 0 (not net_pcap, or every file whole), or -EIO with @p err
 *         naming the file, what it holds and what was sent.
 */
int wr_port_tx_files_check(const struct wr_port *p, struct wr_error *err);

/** Stop and close, free the RX pool.  Safe on a port never set up. */
void wr_port_close(struct wr_port *p);

/**
 * Return once EAL's interrupt thread has handled every event pending now
 * (and what those queued), or after a second.  Main lcore.
 */
void wr_port_intr_settle(void);

/**
 * Every port of @p ports stopped, then closed, EAL's interrupt thread
 * settled after each (wr_port_intr_settle()), RX pools freed: what the
 * drivers' interrupt handlers do about it is done before the caller goes
 * on to rte_eal_cleanup().  Main lcore, no worker running.
 */
void wr_port_close_all(struct wr_port *ports, unsigned int n);

/**
 * A memif server on a path socket (socket-abstract=no, as wirerate's own
 * sockets are) is never met by a peer that keeps DPDK 22.11's default, an
 * abstract socket of the same name: that peer connects in vain and never
 * retries.  Listen on that abstract name, to tell it.  @p path gets the
 * socket's path.  @return the listening socket, or -1 (not such a port, or
 * the name is taken).  Main lcore.
 */
int wr_port_memif_decoy(const struct wr_port *p, char *path, size_t len);

/** True when a peer of this user (or root) connected to @p fd
 * (wr_port_memif_decoy()); every connection is closed, nothing sent. */
bool wr_port_memif_decoy_hit(int fd);

#endif /* WR_PORT_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_peer: the counters of the device at the other end of a link: a DPDK process's telemetry or a Linux interface. */
#ifndef WR_PEER_H
#define WR_PEER_H

/**
 * @file
 * A repeated run (`wirerate run --repeat N --peer SPEC`) prints, beside what
 * it sent and got back, what the peer itself counted over each repetition:
 * its own RX and TX frames and bytes, read before and after.  Two kinds of
 * peer, written as the user gives them:
 *
 *   telemetry:SOCKET:PORT   a DPDK process (dpdk-testpmd, a vswitch) through
 *                           its telemetry v2 socket (SOCK_SEQPACKET; the
 *                           first message is a hello with max_output_len),
 *                           command `/ethdev/stats,PORT`; SOCKET is a path,
 *                           or a bare EAL --file-prefix for
 *                           /var/run/dpdk/PREFIX/dpdk_telemetry.v2
 *   netdev:[NETNS/]IFNAME   a Linux interface, in network namespace NETNS
 *                           (a name from `ip netns`, /var/run/netns/NETNS,
 *                           or a path such as /proc/PID/ns/net) or in ours;
 *                           its counters are the kernel's dev_get_stats()
 *                           as /proc/net/dev prints them (the same numbers
 *                           as `ip -s link` and /sys/class/net/IF/statistics)
 *
 * A namespace is entered once, at wr_peer_open(), by the calling thread
 * only (setns), long enough to open that namespace's /proc/net/dev; the
 * open file stays bound to the namespace, so later reads need no setns.
 *
 * Byte counts are the peer's own: a DPDK port counts frames without their
 * FCS, as does the kernel, where wirerate counts the FCS too.
 *
 * Errors: functions return 0 or a negative errno and never print; open
 * fills a one-line reason.  Thread: one thread per struct wr_peer.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WR_PEER_SPEC_MAX 256
/** Peers one run reads (--peer may be given this many times). */
#define WR_PEERS_MAX 8

enum wr_peer_kind {
	WR_PEER_TELEMETRY,
	WR_PEER_NETDEV,
};

/** What a peer counted (cumulative, or a difference of two readings). */
struct wr_peer_counts {
	uint64_t rx_pkts;
	uint64_t rx_bytes;
	uint64_t tx_pkts;
	uint64_t tx_bytes;
	uint64_t rx_missed;   /**< DPDK imissed; the kernel's rx drop */
	uint64_t rx_errors;
	uint64_t tx_errors;
};

struct wr_peer {
	enum wr_peer_kind kind;
	char spec[WR_PEER_SPEC_MAX];  /**< as given, for reports */
	char path[WR_PEER_SPEC_MAX];  /**< telemetry socket; netdev: netns file, "" = ours */
	uint16_t port;                /**< telemetry: the peer's ethdev port */
	char ifname[16];              /**< netdev: IFNAMSIZ */
	int fd;                       /**< -1 when closed */
	char *buf;                    /**< telemetry replies / /proc/net/dev text */
	size_t buf_len;
};

/**
 * Parse @p spec (see the file comment) into @p p, closed (fd -1).  Syntax
 * only: nothing is opened.
 * @return 0, or -EINVAL with @p why filled.
 */
int wr_peer_parse(struct wr_peer *p, const char *spec, char *why,
		  size_t why_len);

/**
 * Connect to the peer and read its counters once, to refuse a socket or an
 * interface that does not exist or answers nonsense before any traffic.
 * @return 0; -ENOENT (no such socket, namespace or interface), -ECONNREFUSED
 *         (nobody listens), -EPROTO (not a telemetry v2 hello, or a reply
 *         without the counters, e.g. no such port), -ETIMEDOUT (no answer
 *         within WR_PEER_TIMEOUT_MS), -ENOMEM, or another errno of
 *         socket/connect/setns/open; @p why filled.  Nothing stays open on
 *         failure.
 */
int wr_peer_open(struct wr_peer *p, char *why, size_t why_len);

/** How long a telemetry peer may take to answer. */
#define WR_PEER_TIMEOUT_MS 2000

/**
 * Read the peer's counters now.
 * @return 0; -EBADF (not open), -EPROTO (a reply without the counters),
 *         -ETIMEDOUT, -EIO or the errno of send/recv/pread.
 */
int wr_peer_read(struct wr_peer *p, struct wr_peer_counts *c);

/** Close @p p (safe on a closed or only parsed peer). */
void wr_peer_close(struct wr_peer *p);

/** @p after - @p before, counter by counter (0 where one went backwards:
 * a peer restarted or reset its counters). */
void wr_peer_counts_delta(const struct wr_peer_counts *before,
			  const struct wr_peer_counts *after,
			  struct wr_peer_counts *out);

/**
 * Parse a telemetry reply to `/ethdev/stats,N`: {"/ethdev/stats": {
 * "ipackets": .., "opackets": .., "ibytes": .., "obytes": .., "imissed":
 * .., "ierrors": .., "oerrors": ..}} (other keys ignored).
 * @return 0; -EPROTO (not JSON, the value null: no such port, a counter
 *         missing or not a non-negative integer).
 */
int wr_peer_parse_ethdev_stats(const char *json, size_t len,
			       struct wr_peer_counts *c);

/**
 * Find interface @p ifname in /proc/net/dev's text @p text.
 * @return 0; -ENODEV (no such interface), -EPROTO (its line malformed).
 */
int wr_peer_parse_proc_net_dev(const char *text, const char *ifname,
			       struct wr_peer_counts *c);

#endif /* WR_PEER_H */

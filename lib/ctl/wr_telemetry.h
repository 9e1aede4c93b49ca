/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_telemetry: /wirerate/ports, /wirerate/streams and /wirerate/latency for DPDK's telemetry socket. */
#ifndef WR_TELEMETRY_H
#define WR_TELEMETRY_H

/**
 * @file
 * While a run goes on, DPDK's telemetry client answers three commands with
 * live counters (doc/ports.md):
 *
 *     echo /wirerate/streams | dpdk-telemetry.py -f PREFIX
 *
 * - /wirerate/ports: per port, its name, port id, link speed, then the
 *   port counters of the table (wr_counter.def, wr_report.h): its streams'
 *   TX sums, the device's counts (rte_eth_stats, as nic_KEY), RX counters
 *   when the port is polled; and the ARP/ICMP/ND responder's answers when it
 *   has one;
 * - /wirerate/streams: per stream, the stream counters of the table;
 * - /wirerate/latency: per stream with a signature, the stream counters
 *   with its RX ones (lost: sent - distinct received: in-flight frames count
 *   as lost until they arrive) and the latency summary in ns.
 *
 * Each answer is an object keyed by the port or stream index ("0", "1",
 * ...), each value an object with the name inside: DPDK allows only
 * [A-Za-z0-9_/] in keys, and stream names may hold '-' and '.'.  Between
 * runs the commands answer an empty object.
 *
 * Threads: the callbacks run on DPDK's telemetry thread.  They read
 * counters with atomic loads, as the stats lcore does (single writers
 * elsewhere), under a mutex that wr_telemetry_detach() takes, so the engine
 * is never read after it is detached.
 */

struct wr_engine;

/**
 * Register the commands (once per process; later calls only succeed) and
 * publish @p e, loaded, to them.  Call after rte_eal_init().
 * @return 0, -ENOMEM, or the negative errno of rte_telemetry_register_cmd.
 */
int wr_telemetry_attach(struct wr_engine *e);

/** Stop publishing (waits for a callback in progress).  Safe when not attached. */
void wr_telemetry_detach(void);

#endif /* WR_TELEMETRY_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_session: the one way a stream file goes onto an open engine, for run, serve and every benchmark trial. */
#ifndef WR_SESSION_H
#define WR_SESSION_H

/**
 * @file
 * An engine's streams are loaded with what the ports around them need,
 * whoever asks (`wirerate run`, the server's traffic.start, a benchmark
 * trial), as testpmd's start_packet_forwarding() starts every forwarding
 * engine the same way:
 *
 *   1. the ports that answer ARP/ICMP/ND: the profile's `arp: true`, the
 *      options' @c arp_all, or a stream of the port whose eth.dst is
 *      resolved (its next hop will ask for us in turn); and the ports of
 *      the stream file's hosts (hosts:);
 *   2. each port's TX offloads planned for its streams (wr_port_tx_plan),
 *      and a TX queue for the hosts' service where the device has one
 *      to spare (wr_port_txq_reserve());
 *   3. the hosts' service (wr_host_svc.h) created and started: the
 *      emulated hosts, and each responder as its port's implicit host;
 *      the next hops of `eth: {dst: arp}` / `{dst: nd}` asked by the
 *      responders and written into the streams (wr_host_svc_resolve);
 *      the hosts' bring-up waited for at most hosts_wait_ms (a DHCP
 *      server that never answers ends the wait, not the run: the hosts'
 *      failures count it);
 *   4. the profile's or the port's MACs written into `eth: port` streams
 *      (wr_engine_port_macs); streams from DHCP/SLAAC hosts given the
 *      addresses their hosts came up with (wr_session_hosts_fill);
 *      wr_engine_load(), with the templates the
 *      stream file's check kept (wr_engine_prepare()), RX polled where a
 *      responder, hosts or an RX capture need it;
 *   5. the TCP classes' engines, one per lane of each port they stand
 *      on (wr_tcp_classes.h: locals from the hosts' tables, next hops
 *      resolved, programs compiled, data files read);
 *   6. the service's rings attached to the RX queues, DPDK telemetry's
 *      /wirerate/ commands published, the options' captures started,
 *      the RX queues handed to the workers.
 *
 * wr_session_traffic_stopped() hands the ports' RX back to the service
 * once the workers stopped.  wr_session_unload() stops the hosts (their
 * DHCP releases and leaves go out while the ports are up) and the
 * service, then undoes 4 and 5 (the ports stay up, planned).
 * Main lcore only, with no worker running.  Nothing here prints: a
 * telemetry that could not be published is a convenience lost, kept in
 * @c telemetry_rc for the caller to mention.
 */

#include <stdbool.h>

#include "wr_capture.h"
#include "wr_config.h"
#include "wr_engine.h"
#include "wr_error.h"
#include "wr_host_svc.h"

/** What a caller asks of a load beyond the streams themselves. */
struct wr_session_opts {
	/** Every port answers ARP/ICMP/ND (run --arp). */
	bool arp_all;
	/** Publish the engine to DPDK telemetry (wr_telemetry.h). */
	bool telemetry;
	/** Templates the stream file's check kept (wr_engine_prepare()),
	 * lent to every load; those of streams whose MACs the load writes
	 * (eth: port, dst: arp) are freed from it and built after.  NULL:
	 * every template is built at load. */
	struct wr_prepared *prepared;
	/** Captures started at the first load (run --capture); they end
	 * with the streams (wr_engine_unload() stops them). */
	const struct wr_engine_cap *captures;
	unsigned int n_captures;
	/** The emulated hosts' bring-up is waited for this long at most
	 * (run --hosts-wait); not set: WR_HOST_SVC_WAIT_MS. */
	uint32_t hosts_wait_ms;
	bool hosts_wait_set;
	/** The hosts' service runs on this lcore (run --host-lcore); not
	 * set: on a control thread (wr_host_svc.h). */
	unsigned int host_lcore;
	bool host_lcore_set;
};

/** One engine's loads: what each one attached, for its unload. */
struct wr_tcp_classes;

struct wr_session {
	struct wr_engine *e;
	struct wr_session_opts o;
	bool want[WR_PORTS_MAX];    /**< ports given a responder */
	bool any_responder;
	/** The hosts' service (the stream file's hosts:, the ports'
	 * responders), NULL: none. */
	struct wr_host_svc *hosts;
	bool hosts_port[WR_PORTS_MAX]; /**< ports with hosts */
	/** Ports whose hosts were not all up when the wait ended (their
	 * failures are in the hosts' counters; the streams went on). */
	uint32_t hosts_down;
	int cap_id[WR_CAPTURES_MAX]; /**< the captures' engine ids */
	unsigned int n_caps;
	bool caps_started;
	/** The stream file's TCP classes (wr_tcp_classes.h; read through
	 * wr_session_tcp.h), NULL: none. */
	struct wr_tcp_classes *tcp;
	/** 0, or why telemetry could not be published (the load went on). */
	int telemetry_rc;
	bool loaded;
};

/**
 * Bind @p s to the open engine @p e with options @p o (copied; the
 * captures it points to must outlive the session).
 */
void wr_session_init(struct wr_session *s, struct wr_engine *e,
		     const struct wr_session_opts *o);

/**
 * Load @p f (checked by wr_engine_check_streams(); it must stay valid and
 * unchanged until wr_session_unload(), and its resolved MACs are written
 * into it) with steps 1 to 5 above.  A session loaded already is
 * unloaded first.
 * @return 0; -EINVAL (a capture of a port the engine lacks, a responder
 *         or hosts whose RX lcore sends nothing on a port without a
 *         spare TX queue), -EHOSTUNREACH (a next
 *         hop that did not answer), -ETIMEDOUT (a link down after a TX
 *         offload change), or what wr_engine_load() returned; @p err
 *         filled.  On failure nothing stays loaded.
 */
int wr_session_load(struct wr_session *s, struct wr_stream_file *f,
		    struct wr_error *err);

/** Detach the responders and telemetry, stop and free the hosts, free
 * the streams' contexts.  Safe when nothing is loaded. */
void wr_session_unload(struct wr_session *s);

/** The engine's workers stopped (wr_engine_stop()): the hosts' service
 * polls their ports itself until the next start or the unload. */
void wr_session_traffic_stopped(struct wr_session *s);

#endif /* WR_SESSION_H */

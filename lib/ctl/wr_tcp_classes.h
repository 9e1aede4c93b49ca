/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_classes: a stream file's TCP classes put on a loaded engine: locals from the hosts' tables, next hops resolved, programs compiled, data files read, one TCP engine a lane. */
#ifndef WR_TCP_CLASSES_H
#define WR_TCP_CLASSES_H

/**
 * @file
 * Part of wr_session_load() (wr_session.h), after wr_engine_load() made
 * the lanes (wr_tcp_lcore.h) and the hosts came up: each class's locals
 * from its hosts' tables (wr_host_svc_read(): DHCP hosts with the
 * addresses they leased), the clients' next hops (an on-link server
 * resolved by the host engine, wr_hosts_peers(); else the host's
 * gateway), `data: {file:}` read once, each side's program compiled
 * (wr_tcp_app_init(): the Host header is the first server's address, and
 * its port when not 80), then one TCP engine a lane.  What the control
 * plane reads of them: wr_session_tcp.h.  Main lcore, no worker running.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_engine.h"
#include "wr_error.h"
#include "wr_host_svc.h"
#include "wr_stream.h"
#include "wr_tcp.h"
#include "wr_tcp_app.h"

/** One class as the session holds it for the engines. */
struct wr_tcp_classes_one {
	struct wr_tcp_app app[2];       /* [enum wr_tcp_side] */
	bool has_app[2];
	uint8_t *data;                  /* data: {file:} bytes */
	uint64_t data_len;
	struct wr_tcp_local *clients;
	uint32_t n_clients;
	__uint128_t *servers;
	uint32_t n_servers;
	struct wr_tcp_local *listen;
	uint32_t n_listen;
	uint64_t rate_milli;            /* asked now (tcp.set) */
	uint32_t concurrency;
	bool paused;
};

/** A loaded stream file's classes. */
struct wr_tcp_classes {
	struct wr_engine *e;
	struct wr_host_svc *svc;
	const struct wr_stream_file *f;
	uint32_t n;
	struct wr_tcp_classes_one *cls;
	/* Per port: the classes with a side there, as the lanes' engines
	 * take them, and their indexes in the file. */
	struct wr_tcp_class_rt *rt[WR_PORTS_MAX];
	uint32_t *rt_idx[WR_PORTS_MAX];
	unsigned int n_rt[WR_PORTS_MAX];
	/* On-link peers the hosts resolved (kept by the hosts until they
	 * are freed: this outlives them). */
	struct wr_host_peer *peers[WR_PORTS_MAX];
	uint32_t n_peers[WR_PORTS_MAX];
	/* The hosts' tables as copied after their bring-up. */
	struct wr_host_svc_host *hosts[WR_PORTS_MAX];
	uint32_t n_hosts[WR_PORTS_MAX];
};

/**
 * The engines of @p f's classes on @p e's lanes, their addresses from
 * @p hosts.  @return 0 (*@p out NULL without tcp:); -EHOSTUNREACH (@p err:
 * a server or gateway that never answered, a group with no host up);
 * -EINVAL; -ENOMEM; or wr_tcp_create()'s.  On failure *@p out holds what
 * was made (free it with wr_tcp_classes_free() after the engine's unload).
 */
int wr_tcp_classes_load(struct wr_tcp_classes **out, struct wr_engine *e,
			struct wr_host_svc *hosts,
			const struct wr_stream_file *f, struct wr_error *err);

/** Free what wr_tcp_classes_load() made but the lanes and their engines
 * (wr_engine_unload() frees them first), once the hosts are freed (they
 * keep the peers' entries).  NULL-safe. */
void wr_tcp_classes_free(struct wr_tcp_classes *c);

#endif /* WR_TCP_CLASSES_H */

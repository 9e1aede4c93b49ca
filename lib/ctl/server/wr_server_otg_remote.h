/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_remote: the other servers an OTG config's locations name (HOST:PORT/INDEX): their JSON-RPC TCP API with the remote token, their clocks, one stream list for all. */
#ifndef WR_SERVER_OTG_REMOTE_H
#define WR_SERVER_OTG_REMOTE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "wr_otg.h"
#include "wr_rpc.h"

struct server;

/** A connection to another `wirerate serve` (its --listen API). */
struct otg_remote;

/**
 * Connect to @p host:@p port and log in with the server's remote token
 * (--remote-token-file, else --token-file's), within @p timeout_ms; act
 * there as this server's session "otg-PID" (ports.acquire of none), and
 * measure the clock.  One connection per HOST:PORT, shared by the configs
 * that name it and kept open after them (wr_srv_otg_remote_close()): the
 * session keeps its ports.  One the remote closed meanwhile (its idle
 * timeout) is opened again here or at the next call, and the session
 * joined again with its secret.
 * @return 0 with *@p out; a negative errno with @p err's message.
 */
int wr_srv_otg_remote_open(struct server *s, const char *host, uint16_t port,
			   int timeout_ms, struct otg_remote **out,
			   struct wr_rpc_error *err);

/** Call @p method there (as wr_srv_call()), waiting at most @p timeout_ms
 * (the loop's turns run meanwhile). */
int wr_srv_otg_remote_call(struct server *s, struct otg_remote *r,
			   const char *method, json_t *params, json_t **result,
			   struct wr_rpc_error *err, int timeout_ms);

/** Its clock against ours: remote CLOCK_REALTIME minus ours, in ns, from
 * the round trips of server.info (the least-delay sample of several). */
int64_t wr_srv_otg_remote_offset_ns(const struct otg_remote *r);

/** The round trip of that sample, in ns: the offset is right to within
 * half of it (the rest of the path's asymmetry). */
uint64_t wr_srv_otg_remote_delay_ns(const struct otg_remote *r);

/** Its ports (server.info's, at the login): a location's INDEX past them
 * names no port. */
unsigned int wr_srv_otg_remote_n_ports(const struct otg_remote *r);

/**
 * Flows received on another server than their sender's (each server of
 * the @p n whose ports @p maps give, @p rs[k] its connection, NULL this
 * server): a signature's lane (the sender port's TX lcore) is counted
 * there only below the receiving placeholder's port's TX lcores
 * (wr_rx.c); fewer lanes there than at the sender is refused by the
 * flow's path, not left to show as bad signatures.
 * @return 0; -EINVAL with @p err.
 */
int wr_srv_otg_lanes_check(const struct server *s, const struct wr_otg_plan *p,
			   const int *const *maps, struct otg_remote *const *rs,
			   unsigned int n, struct wr_otg_err *err);

/** "HOST:PORT" ("[V6]:PORT"), as messages name it. */
const char *wr_srv_otg_remote_name(const struct otg_remote *r);

/** Done with @p r: the connection stays open in the server's pool (its
 * session keeps the ports for the next config) until
 * wr_srv_otg_remotes_free(). */
void wr_srv_otg_remote_close(struct otg_remote *r);

/** Close every connection to other servers (the server's exit). */
void wr_srv_otg_remotes_free(struct server *s);

/** Our wall-clock instant @p ours (Unix seconds) in @p r's clock (a
 * start_at for it); @p r NULL: this server, @p ours. */
double wr_srv_otg_remote_instant(const struct otg_remote *r, double ours);

#endif /* WR_SERVER_OTG_REMOTE_H */

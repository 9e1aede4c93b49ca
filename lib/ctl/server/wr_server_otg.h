/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg: the Open Traffic Generator side of `wirerate serve`: what its HTTP(S) transport, its handlers and its remote servers share. */
#ifndef WR_SERVER_OTG_H
#define WR_SERVER_OTG_H

/**
 * @file
 * Three files, bottom to top (wr_server_priv.h's order):
 *
 *   wr_server_tls.c         TLS on the server's sockets (OpenSSL, non-
 *                           blocking, in the one epoll loop), the
 *                           certificate made at start unless --tls-cert /
 *                           --tls-key give one, client certificates;
 *                           HTTP/1.1 requests with bodies and keep-alive on
 *                           the --otg listener, which also serves the web
 *                           console's pages and WebSocket (one server);
 *                           who a request is (loopback, token, certificate)
 *   wr_server_otg_remote.c  other servers a config's locations name
 *                           (HOST:PORT/INDEX): their JSON-RPC TCP API with
 *                           the token, their clocks, one start_at for all
 *   wr_server_otg.c         the OTG endpoints: a request's JSON checked and
 *                           planned (wr_otg.h), then run with the JSON-RPC
 *                           methods themselves (wr_srv_call(), on this server
 *                           and on the remote ones), their results written
 *                           back as the model says
 *
 * The handlers know nothing of HTTP: a gRPC transport (otg.proto, next)
 * calls wr_srv_otg_handle() with the same request.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "wr_otg.h"
#include "wr_rpc.h"

struct server;
struct conn;

/** One OTG request, whatever carried it. */
struct otg_req {
	const char *method;          /**< "GET", "POST", "PATCH" */
	const char *path;            /**< "/config", "/monitor/metrics", ... */
	const char *body;            /**< may be NULL with len 0 */
	size_t len;
};

/** Its answer: JSON (the model's response or Error), or bytes. */
struct otg_resp {
	int status;                  /**< 200, 400, 404, 405, 409, 500 */
	json_t *json;                /**< owned; NULL with raw */
	unsigned char *raw;          /**< malloc'd, application/octet-stream */
	size_t raw_len;
};

/**
 * Answer @p rq for connection @p c (its session owns what a config names).
 * Never fails: an error is an answer.  May run turns of the loop
 * (s->loop_turn) while it waits for the lcores or a remote server, as a
 * benchmark job does, so other clients are served meanwhile.
 */
void wr_srv_otg_handle(struct server *s, struct conn *c,
		       const struct otg_req *rq, struct otg_resp *out);

/** The server's OTG state (its plan, targets, flows' states) freed at exit. */
void wr_srv_otg_free(struct server *s);

/**
 * Call JSON-RPC method @p method with @p params (stolen; NULL: {}) on this
 * server as connection @p as's session: validated by wr_rpc_parse() and run
 * by the method's own handler, as a client's line is; its result or error
 * returned here instead of sent.
 * @return 0 with *@p result (new reference); a negative errno with @p err
 *         (the method's own code and message).
 */
int wr_srv_call(struct server *s, struct conn *as, const char *method,
		json_t *params, json_t **result, struct wr_rpc_error *err);

/* ---- remote servers: wr_server_otg_remote.h (a unit of its own, below
 * the handlers that call it) ---- */
#include "wr_server_otg_remote.h"

#endif /* WR_SERVER_OTG_H */

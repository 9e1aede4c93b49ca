/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server: `wirerate serve`, the JSON-RPC 2.0 control server over an open engine. */
#ifndef WR_SERVER_H
#define WR_SERVER_H

/**
 * @file
 * The server runs on the main lcore with EAL and the profile's ports
 * already up (wr_engine_open()).  One epoll loop serves every client:
 * non-blocking sockets, one request per line (wr_rpc.h), requests larger
 * than WR_RPC_REQUEST_MAX refused and the connection closed before more is
 * buffered, idle connections closed, replies queued per connection.
 *
 * Traffic: streams.load parses YAML text with the stream-file loader (same
 * errors, as the error's data); traffic.start builds the streams in the
 * engine (wr_engine_load()) and launches the worker lcores, at once or at a
 * wall-clock start_at; stop/pause/resume/update reach the lcores as
 * published values (wr_engine_stream_ctl()), never through a lock the
 * lcores could wait on.  Statistics are snapshots of the lcores' counters,
 * rendered as `wirerate run --json` renders them, minus the baselines
 * stats.clear took.
 *
 * Ownership: a session (a name a client gives, or one per connection) owns
 * ports; methods that change what ports send need the caller to own every
 * port involved.  The server gives a session's secret to the connection
 * that makes it; any other connection acts as that session only with the
 * secret (its name is public).  When the last connection of an owning
 * session closes, its ports stay owned for owner_timeout_ms (the client may
 * come back with the secret) and are then released; traffic keeps running
 * either way.
 *
 * The web console (--http, doc/web.md) shares the loop: its HTTP
 * connections are answered from the page's compiled-in files (wr_http.h) and
 * closed; its WebSocket connections are clients like the others, one
 * JSON-RPC request per text message, with the same methods, ownership and
 * events (a TCP login with the console's token when it has one).
 *
 * Abuse (doc/api.md, "Limits"): each turn of the loop serves a bounded
 * share of every busy connection; a client that does not read its replies
 * is not read either, and closed past a limit; TCP connections that have
 * not logged in have a pool and a deadline of their own; failed logins are
 * rate-limited and logged (wr_auth.h).
 *
 * Threads: main lcore only.  doc/api.md documents every method.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_auth.h"
#include "wr_engine.h"
#include "wr_error.h"

/** Default Unix socket. */
#define WR_SERVER_SOCK_DEFAULT "/run/wirerate/wirerate.sock"

struct wr_server_opts {
	const char *unix_path;       /**< NULL: WR_SERVER_SOCK_DEFAULT; "" : none */
	const char *tcp_host;        /**< NULL: no TCP listener */
	uint16_t tcp_port;
	const char *token_file;      /**< required with TCP */
	uint32_t idle_timeout_ms;    /**< close a connection silent this long; 0: 60 s */
	uint32_t owner_timeout_ms;   /**< release a vanished owner's ports; 0: 30 s */
	unsigned int max_clients;    /**< Unix and logged-in TCP; 0: 1024 (wr_server_check() sets it) */
	const char *cfg_path;        /**< the profile, for the results' metadata */
	const char *tools_dir;       /**< tools/ (wr-report for bench.result's HTML) */
	char token[WR_AUTH_TOKEN_MAX + 1]; /**< read by wr_server_check() */
	/* The web console (doc/web.md): HTTP and its WebSocket. */
	const char *http_host;       /**< NULL: no console */
	uint16_t http_port;
	const char *http_token_file; /**< its own token; NULL: token_file's */
	char http_token[WR_AUTH_TOKEN_MAX + 1]; /**< "" : none (loopback only) */
	const char *capture_dir;     /**< captures' files; NULL: a private
				      *   temporary directory, removed at exit */
	int64_t socket_gid;          /**< the Unix socket's group (mode 0660),
				      *   whose members may also use the web
				      *   console without a token; -1: none
				      *   (0600, the server's user only) */
	/* The Open Traffic Generator API (--otg, doc/otg.md): HTTP/1.1 or
	 * HTTPS, which also serves the console. */
	const char *otg_host;        /**< NULL: no OTG listener */
	uint16_t otg_port;
	bool otg_tls;                /**< https:// (the default) */
	const char *tls_cert;        /**< PEM; NULL: a certificate made at start */
	const char *tls_key;
	const char *tls_client_ca;   /**< PEM CA: client certificates it signs log in */
	const char *otg_token_file;  /**< NULL: --token-file's */
	char otg_token[WR_AUTH_TOKEN_MAX + 1]; /**< "" : none (loopback only) */
	const char *remote_token_file; /**< the other servers' token (locations
					*   HOST:PORT/INDEX); NULL: our own */
	char remote_token[WR_AUTH_TOKEN_MAX + 1];
	/* The runs kept (runs.*, doc/api.md; wr_runs.h). */
	const char *runs_dir;        /**< NULL: none kept */
	unsigned int runs_max;       /**< 0: WR_RUNS_MAX_DEFAULT */
	int pcap_dirfd;              /**< --pcap-dir, open: the captures a
				      *   client's pcap: may name (inside it
				      *   only); -1: none may be named */
};

/**
 * Check the options before EAL starts (no EAL needed): the Unix socket's
 * path (its length, its directory, nothing there but a socket no server
 * answers on), the TCP address (an IPv4 address, a port that can be bound)
 * and the token file (wr_auth_token_load()), which it reads into
 * @p o->token; the console's address likewise, with its token (its own
 * file, else the TCP one) in @p o->http_token: an address other than the
 * loopback needs one (-EPERM).  Makes the default socket's directory.  Raises the soft
 * descriptor limit to what max_clients needs (the default 1024 is lowered
 * to fit the hard limit; a max_clients given that does not fit: -EMFILE).
 * @return 0; a negative errno with @p err naming the option (-EADDRINUSE: a
 *         server answers on the socket; -EEXIST: something other than a
 *         socket is there; -EPERM: the token file's type, owner or mode).
 */
int wr_server_check(struct wr_server_opts *o, struct wr_error *err);

/**
 * Serve until *@p stop becomes non-zero (a signal handler sets it).  On the
 * way out traffic is stopped and the sockets removed; the engine is left
 * open for the caller to close.  @p o was checked by wr_server_check().
 * @return 0; a negative errno with @p err filled when a socket cannot be
 *         set up (-EADDRINUSE: a server already listens there; -EPERM: the
 *         token file is readable by others or not the server's owner).
 */
int wr_server_run(struct wr_engine *e, const struct wr_server_opts *o,
		  const volatile int *stop, struct wr_error *err);

#endif /* WR_SERVER_H */

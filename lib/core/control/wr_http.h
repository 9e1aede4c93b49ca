/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_http: the web console's wire formats: HTTP/1.1 request heads, the routes, WebSocket frames (RFC 6455); no I/O. */
#ifndef WR_HTTP_H
#define WR_HTTP_H

/**
 * @file
 * `wirerate serve --http ADDR:PORT` serves the web console (web/) from the
 * server's own epoll loop (lib/ctl/server/wr_server_io.c).  What a browser sends is
 * outside input; everything that reads it is here, without EAL, unit-tested
 * (test/test_http.c) and fuzzed (test/fuzz/fuzz_http.c):
 *
 *     wr_http_parse()     one request head: request line, the few headers
 *                         the routes read, limits (8 KiB, 64 headers);
 *     wr_http_route()     what to answer: an asset of the page (compiled
 *                         into the binary from web/, so no path reaches the
 *                         file system), the WebSocket upgrade of /ws, or an
 *                         error status;
 *     wr_http_head()      the response head, with the security headers;
 *     wr_ws_next()        client frames, unmasked and joined in place into
 *                         whole text messages (each one JSON-RPC request);
 *     wr_ws_head()        a server frame's header.
 *
 * The console speaks the server's JSON-RPC API over the WebSocket, one
 * request per text message: the same methods, ownership and events as the
 * Unix socket, no second API.  Nothing is accepted in a console request's
 * body: a request with one is refused (413) before its body is read.  The
 * OTG listener (--otg, doc/otg.md) serves the same routes and the OTG API,
 * whose requests have JSON bodies: wr_http_body() frames them
 * (Content-Length or chunked, at most WR_HTTP_BODY_MAX), and connections
 * are kept alive between requests.
 *
 * Host and Origin (doc/web.md): without a token (a loopback address), a
 * request's Host must name the loopback (127.0.0.1, localhost, [::1]) at the
 * server's port, so that a page of another site whose name was rebound to
 * 127.0.0.1 is refused; the WebSocket upgrade also needs an Origin equal to
 * http://HOST, so that another site's page open in the same browser cannot
 * drive the server.  With a token, the browser logs in (auth.login) over the
 * WebSocket as a TCP client does.
 *
 * Whose console (doc/web.md, "Security"): without a token the console is its
 * server's user's only, as the Unix socket (0600) is: the loopback peer's
 * uid is the owner of its TCP socket, which the server asks the kernel by
 * address (sock_diag) or, without it, wr_http_peer_uid() finds in the
 * kernel's table (/proc/net/tcp); any other uid gets 403 for every request.
 *
 * Thread-safety: reentrant; no state outside the arguments.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** Longest request head (request line and headers) read. */
#define WR_HTTP_HEAD_MAX 8192
/** Headers one request may have. */
#define WR_HTTP_HEADERS_MAX 64
/** The WebSocket's path. */
#define WR_HTTP_WS_PATH "/ws"

/** A page asset, compiled in from web/ (the generated wr_web_assets.c). */
struct wr_web_asset {
	const char *path;            /**< "/app.js"; "/" is index.html's */
	const char *type;            /**< Content-Type */
	const unsigned char *data;
	size_t len;
	const char *etag;            /**< "\"sha256 prefix\"" */
};

extern const struct wr_web_asset wr_web_assets[];
extern const size_t wr_web_n_assets;

/** The asset at @p path ("/" gives index.html), or NULL. */
const struct wr_web_asset *wr_http_asset(const char *path);

/** What a request asked, as far as the routes need. */
struct wr_http_req {
	char method[8];
	char path[1024];             /**< the target up to '?' */
	char host[256];
	char origin[256];
	char ws_key[64];
	char if_none_match[128];
	bool has_host, has_origin;
	bool conn_upgrade;           /**< Connection lists "upgrade" */
	bool upgrade_ws;             /**< Upgrade lists "websocket" */
	int ws_version;              /**< Sec-WebSocket-Version, -1 absent */
	bool http10;
	bool has_body;               /**< Content-Length > 0 or Transfer-Encoding */
	/* The OTG listener's requests (wr_http_body(), keep-alive, tokens). */
	unsigned long long content_length; /**< 0 when absent */
	bool chunked;                /**< Transfer-Encoding: chunked */
	bool conn_close;             /**< Connection lists "close" */
	bool conn_keep_alive;        /**< Connection lists "keep-alive" (1.0) */
	bool expect_continue;        /**< Expect: 100-continue */
	bool has_auth;
	char authorization[512];     /**< Authorization's value */
};

/**
 * Parse the request head at the start of @p buf.
 * @return its length (through the blank line) when complete; 0 when more
 *         bytes are needed; -EMSGSIZE the head is longer than
 *         WR_HTTP_HEAD_MAX (431) or the target longer than req->path (414);
 *         -EBADMSG malformed (400); -EPROTONOSUPPORT not HTTP/1.0 or 1.1
 *         (505).  @p status (may be NULL) gets the status to answer an
 *         error with.
 */
ssize_t wr_http_parse(const char *buf, size_t len, struct wr_http_req *req,
		      int *status);

/** The longest request body the OTG listener reads (a config of 1,000
 *  flows as snappi writes it is about 3 MB), as sent (chunked framing
 *  included). */
#define WR_HTTP_BODY_MAX (32u << 20)

/**
 * The body of the request whose head @p req was parsed from: @p buf holds
 * the @p len bytes received after that head.  Content-Length is taken as
 * it is; chunked is decoded in place (the body then starts at @p buf),
 * chunk extensions and trailers read and dropped.  No Content-Length and
 * no Transfer-Encoding: no body (RFC 9112 6.3: a request's body is never
 * read to the end of the connection).
 * @return the bytes of the framed body (from @p buf; what follows is the
 *         next request), @p body_len its decoded length; -EAGAIN more bytes
 *         needed; -EMSGSIZE longer than @p max bytes (413, known from the
 *         head when it says its length); -EBADMSG malformed framing (400).
 *         @p status (may be NULL) gets the status of an error.
 */
ssize_t wr_http_body(char *buf, size_t len, const struct wr_http_req *req,
		     size_t max, size_t *body_len, int *status);

/** Whether the connection stays open after the answer to @p req (HTTP/1.1
 *  unless "Connection: close"; HTTP/1.0 with "Connection: keep-alive"). */
bool wr_http_keep_alive(const struct wr_http_req *req);

/**
 * The token an Authorization value carries: "Bearer TOKEN", or "Basic" with
 * base64 of "USER:TOKEN" (the password; any user name), so that a client
 * that only knows URLs (https://otg:TOKEN@host:8443) sends it.
 * @return 0 with @p tok (NUL-terminated); -ENOENT when @p authz is empty;
 *         -EINVAL another scheme, bad base64, no ':', a token longer than
 *         @p len - 1 or with bytes that are not printable ASCII.
 */
int wr_http_auth_token(const char *authz, char *tok, size_t len);

/**
 * A response head: status @p status, @p ctype (NULL: none) and
 * Content-Length @p body_len, @p extra header lines (each ending "\r\n";
 * NULL: none), "Connection: keep-alive" or "close".
 * @return its length; -ENOSPC when @p len is too small.
 */
ssize_t wr_http_resp_head(int status, const char *ctype, size_t body_len,
			  bool keep_alive, const char *extra, char *buf,
			  size_t len);

/** The reason phrase of @p status ("Error" for one not in the table). */
const char *wr_http_reason(int status);

/** Who may use the console, from the server's options. */
struct wr_http_policy {
	uint16_t port;               /**< the --http port, for Host */
	bool loopback_hosts;         /**< no token: Host must be a loopback name */
	bool foreign;                /**< no token, and the peer is not the
				      *   server's user (or could not be
				      *   told): 403 for everything */
	uint32_t peer_uid;           /**< with foreign: the peer's, or
				      *   UINT32_MAX when not found */
	uint32_t own_uid;            /**< the server's */
	bool https;                  /**< served over TLS (--otg https://): the
				      *   WebSocket's Origin is https://HOST */
};

/**
 * The uid owning the TCP socket whose local end is @p peer_addr:@p peer_port
 * and remote end @p local_addr:@p local_port (the client's side of a
 * connection the server accepted), in @p table: the text of /proc/net/tcp
 * (addresses as the kernel prints them: the 32 bits of the address as they
 * are in memory, in hex, and the port in host order).  Addresses are in
 * network byte order (struct in_addr's s_addr), ports in host order.
 * @return 0 with @p uid; -ENOENT when no such line (the connection went, or
 *         is in another table); -EINVAL when the text is not such a table.
 */
int wr_http_peer_uid(const char *table, size_t len, uint32_t peer_addr,
		     uint16_t peer_port, uint32_t local_addr,
		     uint16_t local_port, uint32_t *uid);

enum wr_http_action {
	WR_HTTP_ANSWER_ASSET,        /**< 200 (or 304) with asset */
	WR_HTTP_ANSWER_UPGRADE,      /**< 101: the connection speaks WebSocket */
	WR_HTTP_ANSWER_ERROR,        /**< status with a one-line text body */
};

struct wr_http_answer {
	enum wr_http_action action;
	int status;
	const struct wr_web_asset *asset;
	char accept[32];             /**< Sec-WebSocket-Accept */
	char why[160];               /**< the error's one line */
};

/** Decide the answer to @p req.  Never fails: an error is an answer. */
void wr_http_route(const struct wr_http_req *req,
		   const struct wr_http_policy *pol, struct wr_http_answer *ans);

/**
 * The response head for @p ans (GET: then the body, asset or @p ans->why
 * with a newline; HEAD: no body) into @p buf.
 * @return its length; -ENOSPC when @p len is too small.
 */
ssize_t wr_http_head(const struct wr_http_answer *ans, bool head_only,
		     char *buf, size_t len);

/** The error body of @p ans (why, a newline), for wr_http_head()'s length. */
size_t wr_http_error_body(const struct wr_http_answer *ans, char *buf,
			  size_t len);

/** Sec-WebSocket-Accept for @p key (base64 of SHA-1 of key + RFC 6455's GUID).
 *  @return 0, -EINVAL when @p key is not 16 bytes in base64. */
int wr_http_ws_accept(const char *key, char out[32]);

/* ---- WebSocket frames ---- */

#define WR_WS_TEXT 0x1
#define WR_WS_CLOSE 0x8
#define WR_WS_PING 0x9
#define WR_WS_PONG 0xA
/* Close codes (RFC 6455 section 7.4.1). */
#define WR_WS_CLOSE_NORMAL 1000
#define WR_WS_CLOSE_PROTOCOL 1002
#define WR_WS_CLOSE_UNSUPPORTED 1003
#define WR_WS_CLOSE_TOO_BIG 1009

/** Reading state of one connection; zero it to start. */
struct wr_ws_rx {
	size_t msg_len;              /* message bytes joined at the buffer's start */
	size_t pos;                  /* the next frame's offset */
	bool in_msg;                 /* a text message has begun */
};

enum wr_ws_kind {
	WR_WS_EV_MORE,               /**< more bytes needed */
	WR_WS_EV_TEXT,               /**< a whole text message */
	WR_WS_EV_PING,
	WR_WS_EV_PONG,
	WR_WS_EV_CLOSE,              /**< the peer closes (code: its code, 1005 none) */
	WR_WS_EV_ERROR,              /**< close with code: malformed, binary, too big */
};

struct wr_ws_event {
	enum wr_ws_kind kind;
	uint8_t *data;               /**< TEXT: the message; PING/CLOSE: the payload */
	size_t len;
	size_t consumed;             /**< bytes the caller drops from the buffer's front now */
	uint16_t code;
};

/**
 * The next event in @p buf (@p len bytes received, not yet dropped).
 * Frames are unmasked and message fragments moved together in place, so a
 * TEXT event's data is contiguous at @p buf; it stays valid until the
 * caller drops @p ev->consumed bytes.  A frame announcing a message longer
 * than @p max_msg is an ERROR at once (WR_WS_CLOSE_TOO_BIG), its payload
 * never read.  After MORE with a full buffer, wr_ws_compact() makes room.
 * @return @p ev->kind.
 */
enum wr_ws_kind wr_ws_next(struct wr_ws_rx *st, uint8_t *buf, size_t len,
			   size_t max_msg, struct wr_ws_event *ev);

/** Drop the frames already joined into the message: @return the bytes that
 *  remain in @p buf (the message so far, then what follows). */
size_t wr_ws_compact(struct wr_ws_rx *st, uint8_t *buf, size_t len);

/** A final, unmasked server frame's header for @p len bytes of payload.
 *  @return its length (2, 4 or 10). */
size_t wr_ws_head(uint8_t hdr[10], uint8_t opcode, uint64_t len);

#endif /* WR_HTTP_H */

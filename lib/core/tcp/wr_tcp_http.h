/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_http: an HTTP/1.x message parser (request or response head, then its body) in 16 bytes of state, fed any split of the bytes. */
#ifndef WR_TCP_HTTP_H
#define WR_TCP_HTTP_H

/**
 * @file
 * What the emulated client reads of a real server's responses and the
 * emulated server of a real client's requests (RFC 9112): the start line,
 * the header fields that frame the message (Content-Length,
 * Transfer-Encoding: chunked, Connection), then the body by its length,
 * in chunks (sizes, extensions, trailers), or to the close.  Other header
 * fields are skipped.  The state is a few bytes (struct wr_tcp_http_st,
 * kept in a connection's struct wr_tcp_app_st), so bytes may come split
 * anywhere: feeding them one at a time gives what feeding them whole does.
 *
 * Body bytes are counted, not read: wr_tcp_http_blind() says how many may
 * be given as NULL (taken out of order by the engine without their bytes).
 * Private to lib/core/tcp (wr_tcp_app.c, the tests, the fuzz target).
 */

#include <stdbool.h>
#include <stdint.h>

/** The parser's state (zeroed, then wr_tcp_http_begin()). */
struct wr_tcp_http_st {
	uint8_t phase;
	uint8_t flags;          /**< WR_TCP_HTTP_F_* */
	uint16_t parse;         /**< a line's matching state */
	uint64_t left;          /**< body or chunk bytes left; in the head, the
				 *   Content-Length read and the status (top bits) */
};

/* flags */
#define WR_TCP_HTTP_F_RESPONSE  0x01u /**< parse a response (else a request) */
#define WR_TCP_HTTP_F_NO_BODY   0x02u /**< the response to a HEAD request */
#define WR_TCP_HTTP_F_LENGTH    0x04u /**< Content-Length given */
#define WR_TCP_HTTP_F_CHUNKED   0x08u /**< Transfer-Encoding ends in chunked */
#define WR_TCP_HTTP_F_CLOSE     0x10u /**< Connection: close */
#define WR_TCP_HTTP_F_KEEP      0x20u /**< Connection: keep-alive */
#define WR_TCP_HTTP_F_HTTP10    0x40u /**< HTTP/1.0 */

/** What a call to wr_tcp_http_feed() ended with. */
enum wr_tcp_http_ev {
	WR_TCP_HTTP_MORE = 0,   /**< the message goes on: every byte taken,
				 *   or @c used stops where body bytes begin
				 *   (call again with the rest) */
	WR_TCP_HTTP_DONE,       /**< a message ended (after @c used bytes) */
	WR_TCP_HTTP_BAD,        /**< not HTTP/1.x (at byte @c used) */
};

struct wr_tcp_http_res {
	uint32_t used;          /**< bytes taken of those given */
	uint8_t ev;             /**< enum wr_tcp_http_ev */
	uint16_t status;        /**< DONE of a response: its status */
	bool close;             /**< DONE: the peer closes after this message
				 *   (Connection: close, or HTTP/1.0 without
				 *   keep-alive) */
	bool to_close;          /**< DONE from wr_tcp_http_eof(): the body
				 *   ran to the close */
};

/** Start a message: a response when @p response (@p no_body: to a HEAD
 * request), else a request. */
void wr_tcp_http_begin(struct wr_tcp_http_st *s, bool response, bool no_body);

/**
 * Take bytes until the message ends, or all of them.  Interim responses
 * (1xx but 101) are skipped.  @p p may be NULL for the first
 * wr_tcp_http_blind() bytes.  After DONE the state is that of a finished
 * message (begin the next one); after BAD it stays bad.
 */
void wr_tcp_http_feed(struct wr_tcp_http_st *s, const uint8_t *p,
		      uint32_t len, struct wr_tcp_http_res *r);

/** The peer closed: DONE when the body was to end at the close, else BAD
 * (a message cut short) or MORE (between messages: nothing begun). */
void wr_tcp_http_eof(struct wr_tcp_http_st *s, struct wr_tcp_http_res *r);

/** Bytes ahead that are body (counted, not read): UINT64_MAX to the close. */
uint64_t wr_tcp_http_blind(const struct wr_tcp_http_st *s);

/** True when nothing of a message was taken since wr_tcp_http_begin(). */
bool wr_tcp_http_idle(const struct wr_tcp_http_st *s);

/** True once wr_tcp_http_feed() found the bytes bad. */
bool wr_tcp_http_bad(const struct wr_tcp_http_st *s);

/** Offset in the body of the next body byte when the body has a
 * Content-Length (for checking a known body), else UINT64_MAX. */
uint64_t wr_tcp_http_body_off(const struct wr_tcp_http_st *s, uint64_t body_len);

#endif /* WR_TCP_HTTP_H */

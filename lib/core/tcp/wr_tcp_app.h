/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_app: what a connection says (HTTP/1.1, a raw program), as the TCP engine asks it: bytes by stream offset, a few bytes of state per connection. */
#ifndef WR_TCP_APP_H
#define WR_TCP_APP_H

/**
 * @file
 * The TCP engine (wr_tcp.h) keeps no send buffer: what a side sends is a
 * function of the class and the stream offset (wr_tcp_app_fill()), so a
 * retransmission writes the same bytes again and a million connections
 * cost no buffers.  Every message a side sends has a length fixed by the
 * class (an HTTP request of the class, its response; a raw step's bytes),
 * so offset -> (message, offset in it) is arithmetic on the compiled
 * class (struct wr_tcp_app), not per-connection state.  What varies per
 * connection is what it has received: a parser's state in the
 * connection's 16 bytes of struct wr_tcp_app_st.
 *
 * The engine calls, on the connection's lcore:
 *   wr_tcp_app_start()   the connection is established
 *   wr_tcp_app_rx()      payload received in order (rcv_nxt advanced)
 *   wr_tcp_app_fin()     the peer's FIN came in order
 *   wr_tcp_app_timer()   the think time asked for (out.timer_ns) is over
 * and each answers with a struct wr_tcp_app_out: bytes appended to the
 * side's send stream, a close (FIN after what was appended, or RST now), a
 * think timer, events to count.  wr_tcp_app_fill() writes the bytes of
 * any range of the send stream, and their checksum sum.
 *
 * Real peers: an emulated client parses any HTTP/1.1 response (status
 * line, headers, Content-Length, chunked, or to the close); an emulated
 * server parses any request (headers to the blank line, a
 * Content-Length body) and answers with the class's response.  The
 * parsers are fuzzed (fuzz/).
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_tcp_spec.h"

/** Bytes of the pattern before it repeats (doc/tcp.md: byte i is
 * (i % 251), 251 a prime so that an offset error never looks right). */
#define WR_TCP_PATTERN_PERIOD 251

/** The longest header block an emulated side sends (request or response
 * line and headers). */
#define WR_TCP_APP_HDR_MAX 1024

/** Per connection: what the engine keeps for the program (zeroed at open). */
struct wr_tcp_app_st {
	uint8_t step;           /**< program step, or HTTP phase */
	uint8_t flags;
	uint16_t parse;         /**< a parser's state (header line matching) */
	uint32_t count;         /**< HTTP messages done on this connection */
	uint64_t left;          /**< bytes left in what is being received, or
				 *   a Content-Length / chunk size being read */
};

/** What a call asks of the engine. */
enum wr_tcp_app_close {
	WR_TCP_APP_OPEN = 0,
	WR_TCP_APP_FIN,         /**< FIN after every byte appended so far */
	WR_TCP_APP_RST,         /**< abort now (counted `aborted`) */
	WR_TCP_APP_ERROR,       /**< the peer's bytes were not what the program
				 *   expects: abort (RST), counted app_errors */
};

/** Events a call reports, for the counters (bits). */
#define WR_TCP_EV_REQUEST   0x01u /**< an HTTP request sent (client) / received whole (server) */
#define WR_TCP_EV_RESPONSE  0x02u /**< an HTTP response received whole (client) / sent (server) */
#define WR_TCP_EV_DONE      0x04u /**< the program ran to its end (a close that follows is clean) */

struct wr_tcp_app_out {
	uint64_t send;          /**< bytes appended to this side's send stream
				 *   (UINT64_MAX: without end, a raw send
				 *   until the close) */
	uint8_t close;          /**< enum wr_tcp_app_close */
	uint64_t timer_ns;      /**< call wr_tcp_app_timer() after this (0: none) */
	uint32_t events;        /**< WR_TCP_EV_* */
	uint16_t status;        /**< EV_RESPONSE on a client: the status (0: unparsable) */
	uint32_t requests;      /**< EV_REQUEST: how many (pipelined) */
	uint32_t responses;     /**< EV_RESPONSE: how many (a server answering
				 *   pipelined requests; 1 on a client) */
};

/** One class's side, compiled once before the run (shared by lcores:
 * read-only after wr_tcp_app_init()). */
struct wr_tcp_app {
	const struct wr_tcp_class *spec;
	enum wr_tcp_side side;
	/* What this side sends, message by message (HTTP: its request or
	 * response header block, then its body; raw: each of its sends). */
	uint8_t hdr[WR_TCP_APP_HDR_MAX];
	uint32_t hdr_len;
	uint64_t msg_len;       /**< header + body of one HTTP message */
	/** The header block of message @c last_msg (the last request, the
	 * server's last response when it closes): the same length as
	 * @c hdr, with Connection: close (padded by blanks before the
	 * value, which RFC 9112 5.1's OWS allows). */
	uint8_t hdr_last[WR_TCP_APP_HDR_MAX];
	uint64_t last_msg;      /**< UINT64_MAX: none */
	/** Prefix ones-complement sums of @c hdr ([0]) and @c hdr_last
	 * ([1]), as @c sum is of @c rep. */
	uint32_t hdr_sum[2][WR_TCP_APP_HDR_MAX + 1];
	uint64_t n_msgs;        /**< messages this side sends (UINT64_MAX: as
				 *   many as asked: a server) */
	uint64_t body_len;      /**< HTTP: this side's body bytes per message */
	uint64_t peer_body;     /**< HTTP: the other side's body (checked when
				 *   @c verify) */
	bool head;              /**< the client's method is HEAD: no bodies */
	/** The other side is wirerate's own (the class emulates both): the
	 * bytes received are checked against its data. */
	bool verify;
	uint64_t send_end[WR_TCP_STEPS_MAX]; /**< raw: stream offset after each step */
	/* The data bytes (pattern or file) and their prefix sums, for
	 * checksums in O(1). */
	const uint8_t *data;    /**< what copies come from: @c rep, or the
				 *   caller's file bytes when larger than
				 *   WR_TCP_APP_COPY_MAX (not copied: a copy
				 *   then wraps once a file's length) */
	uint64_t data_len;      /**< bytes at @c data (@c rep_len) */
	uint8_t *rep;           /**< the data repeated for copies without a
				 *   wrap per segment (owned; NULL when the
				 *   caller's bytes are used) */
	uint64_t rep_len;
	uint64_t period;        /**< the data repeats every this many bytes */
	/** Prefix ones-complement sums of @c data: sum[j] covers the first
	 * j << sum_shift bytes (sum_shift 0: every byte, for the pattern
	 * and small files; 6 for large files, which then cost 1/16 of
	 * their size in sums, and a range's ends are summed from their
	 * 64-byte blocks). Owned. */
	uint32_t *sum;
	uint8_t sum_shift;
};

/** A segment wr_tcp_app_fill() writes with one copy (longer ranges are
 * written in pieces of this). */
#define WR_TCP_APP_FILL_RUN 65536

/** Data files up to this size are copied, repeated and summed byte by
 * byte; larger ones are used where the caller keeps them. */
#define WR_TCP_APP_COPY_MAX (1u << 20)

/**
 * Compile class @p c's side @p side.  @p data / @p data_len: the bytes of
 * `data: {file:}` (the caller read them; NULL for the pattern).
 * @p host: the Host header when the class gives none (the server's address
 * as text).
 * @return 0; -EINVAL (@p err: a header block longer than
 *         WR_TCP_APP_HDR_MAX); -ENOMEM.
 */
int wr_tcp_app_init(struct wr_tcp_app *a, const struct wr_tcp_class *c,
		    enum wr_tcp_side side, const uint8_t *data,
		    uint64_t data_len, const char *host,
		    struct wr_error *err);
void wr_tcp_app_fini(struct wr_tcp_app *a);

/** Established: the program begins (a client's first request, a
 * server's first wait). */
void wr_tcp_app_start(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		      struct wr_tcp_app_out *o);
/** @p len bytes received in order at receive-stream offset @p off.
 * @p p may be NULL for the first wr_tcp_app_blind() bytes: they were
 * taken out of order and not kept, only their count matters. */
void wr_tcp_app_rx(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		   const uint8_t *p, uint32_t len, uint64_t off,
		   struct wr_tcp_app_out *o);
/** The peer closed its side (its FIN, in order). */
void wr_tcp_app_fin(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		    struct wr_tcp_app_out *o);
/** The think time asked for is over. */
void wr_tcp_app_timer(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		      struct wr_tcp_app_out *o);
/** True while what is received must come in order, byte by byte (a
 * parser reads it: HTTP headers); false when only its count matters (a
 * body, raw bytes), so that the engine may take data out of order as
 * ranges (and SACK them) without keeping the bytes. */
bool wr_tcp_app_ordered(const struct wr_tcp_app *a,
			const struct wr_tcp_app_st *st);

/** How many bytes from the in-order point are counted, not read (a body,
 * a raw receive): the engine may take them out of order without keeping
 * them and give them to wr_tcp_app_rx() as NULL.  0 while ordered;
 * UINT64_MAX to the peer's close. */
uint64_t wr_tcp_app_blind(const struct wr_tcp_app *a,
			  const struct wr_tcp_app_st *st);

/**
 * Write bytes @p off .. @p off + @p len of this side's send stream into
 * @p buf.  @return their ones-complement sum (RFC 1071, as though @p buf
 * started at an even offset of the checksummed data: a TCP header is a
 * multiple of 4 bytes), below 0xffff: equal modulo 0xffff to what
 * wr_csum_sum() gives for @p buf (fold it with the headers' sums).
 * Bytes past the end of the stream are written as zeros.
 */
uint32_t wr_tcp_app_fill(const struct wr_tcp_app *a, uint64_t off,
			 uint8_t *buf, uint32_t len);

/** True when @p p's @p n bytes are data bytes @p x .. @p x + @p n of a
 * message (its body, a raw send) of this class: what the receiving side
 * checks when the class emulates both sides (@c verify). */
bool wr_tcp_app_match(const struct wr_tcp_app *a, uint64_t x,
		      const uint8_t *p, uint64_t n);

/**
 * What this side sends, for `check`/`dump`: message @p k's first bytes
 * (HTTP: the header block; raw: the step's first bytes) into @p buf.
 * @return the message's whole length (0: no such message).
 */
uint64_t wr_tcp_app_message(const struct wr_tcp_app *a, uint32_t k,
			    uint8_t *buf, uint32_t cap, uint32_t *copied);

#endif /* WR_TCP_APP_H */

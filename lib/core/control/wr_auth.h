/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_auth: the server's secrets (the TCP token file, session secrets) and the limits on failed logins. */
#ifndef WR_AUTH_H
#define WR_AUTH_H

/**
 * @file
 * What `wirerate serve` trusts, without EAL, so that it is unit-tested and
 * fuzzed (test/fuzz/fuzz_rpc.c):
 *
 *     wr_auth_token_load()   the --token-file: a regular file of this user's,
 *                            readable by no one else, at most
 *                            WR_AUTH_TOKEN_FILE_MAX bytes, opened so that a
 *                            FIFO or a device cannot block or feed it for
 *                            ever; its first line is the token
 *                            (wr_auth_token_parse());
 *     wr_auth_secret_new()   a session's secret: 128 bits from getrandom(2),
 *                            as hex; the server gives it to the client that
 *                            creates the session and asks it from any other
 *                            connection that wants to act as that session;
 *     wr_auth_equal()        compares a secret with what a client sent in a
 *                            time that does not depend on where they differ;
 *     struct wr_auth_limit   failed TCP logins: per source address, a few
 *                            free failures (a mistyped token), then a
 *                            lockout doubling from WR_AUTH_BACKOFF_MS up to
 *                            WR_AUTH_BACKOFF_MAX_MS per failure; over all
 *                            addresses a budget of WR_AUTH_GLOBAL_BURST
 *                            failures refilling at one per
 *                            WR_AUTH_GLOBAL_MS (against many addresses).
 *                            While a limit holds, logins are refused without
 *                            the token being compared, so no guess is
 *                            tested.  It also decides what the server logs:
 *                            the first failures of a period one line each
 *                            (with the address), the rest as one summary per
 *                            WR_AUTH_LOG_PERIOD_MS.
 *
 * The limiter takes the time (milliseconds, any monotonic origin) as an
 * argument: tests drive it with a fake clock.  Threads: a struct
 * wr_auth_limit belongs to one thread; the other functions are reentrant.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"

/** A token is one line of 16 to 255 printable characters. */
#define WR_AUTH_TOKEN_MIN 16
#define WR_AUTH_TOKEN_MAX 255
/** A token file larger than this is not a token file (a log, a disk image). */
#define WR_AUTH_TOKEN_FILE_MAX 4096
/** A session secret: 32 hex characters (128 random bits). */
#define WR_AUTH_SECRET_LEN 32

/* Failed logins.  A user who mistypes the token gets WR_AUTH_FREE_FAILS tries
 * without delay; a script guessing from one address gets about one guess per
 * WR_AUTH_BACKOFF_MAX_MS after a dozen; guesses from many addresses share the
 * global budget: 30 at once, then one a second (the 7,859 a second of issue
 * 17 become 1). */
#define WR_AUTH_FREE_FAILS 3
#define WR_AUTH_BACKOFF_MS 1000
#define WR_AUTH_BACKOFF_MAX_MS (5 * 60 * 1000)
/** An address with no failure for this long starts again from zero. */
#define WR_AUTH_FORGET_MS (15 * 60 * 1000)
#define WR_AUTH_GLOBAL_BURST 30
#define WR_AUTH_GLOBAL_MS 1000
/** Addresses remembered; when full the one quiet the longest is forgotten. */
#define WR_AUTH_SOURCES 256
/** Log: per period, this many failures a line each, then one summary line. */
#define WR_AUTH_LOG_PERIOD_MS 5000
#define WR_AUTH_LOG_LINES 5
/** Longest address text (an IPv6 address, as inet_ntop writes it). */
#define WR_AUTH_ADDR_MAX 48

/**
 * The token in the bytes of a token file: the first line (a "\n" or "\r\n"
 * ends it; nothing after it is looked at).
 * @return 0 with @p tok filled; -EINVAL with @p why (static text) when the
 *         line is shorter than WR_AUTH_TOKEN_MIN, longer than
 *         WR_AUTH_TOKEN_MAX, or holds a byte that is not printable ASCII.
 */
int wr_auth_token_parse(const char *buf, size_t len, char *tok, size_t tok_len,
			const char **why);

/**
 * Read and check the token file @p path (see @file) into @p tok (at least
 * WR_AUTH_TOKEN_MAX + 1 bytes).
 * @return 0; -ENOENT, -EACCES, ... when it cannot be opened; -EPERM when it
 *         is not a regular file owned by this user and readable or writable
 *         by no one else; -EFBIG over WR_AUTH_TOKEN_FILE_MAX; -EINVAL a bad
 *         token.  @p err names the file and what is wrong.
 */
int wr_auth_token_load(const char *path, char *tok, size_t tok_len,
		       struct wr_error *err);

/**
 * A new secret: WR_AUTH_SECRET_LEN hex characters and a NUL in @p out.
 * @return 0, or a negative errno when the kernel gives no random bytes.
 */
int wr_auth_secret_new(char *out, size_t len);

/**
 * Whether @p given equals @p secret, in a time that depends only on
 * strlen(@p secret) (not on where they differ).  NULL @p given: false.
 */
bool wr_auth_equal(const char *secret, const char *given);

struct wr_auth_source {
	char addr[WR_AUTH_ADDR_MAX];
	uint32_t fails;              /**< checked failures since forgotten */
	uint64_t last_ms;            /**< last failure (checked or refused) */
	uint64_t until_ms;           /**< refused until this instant */
	uint32_t period;             /**< log period this count belongs to */
	uint32_t period_fails;       /**< failures in that period */
};

/** A period's failures, for one summary line. */
struct wr_auth_summary {
	uint64_t period_ms;          /**< how long the period was */
	uint32_t failed;             /**< every failed login (checked or refused) */
	uint32_t refused;            /**< of which refused unchecked by a limit */
	uint32_t sources;            /**< distinct addresses */
	char top[WR_AUTH_ADDR_MAX];  /**< the address with the most */
	uint32_t top_fails;
};

struct wr_auth_limit {
	struct wr_auth_source src[WR_AUTH_SOURCES];
	unsigned int n_src;
	uint64_t global_tat_ms;      /**< global budget as a theoretical arrival time (GCRA) */
	uint32_t period;             /**< current log period (starts at 1) */
	uint64_t period_start_ms;    /**< 0: no failure since the last summary */
	uint32_t failed, refused, sources, lines;
};

/** Start with nothing remembered. */
void wr_auth_limit_init(struct wr_auth_limit *l);

/**
 * Before a login from @p addr is checked: 0 to check it, else how many ms
 * until a login from there would be (the address's lockout or the global
 * budget, whichever is longer); the caller then refuses it unchecked and
 * calls wr_auth_limit_failed(refused = true).
 */
uint64_t wr_auth_limit_wait_ms(const struct wr_auth_limit *l, const char *addr,
			       uint64_t now_ms);

/**
 * A failed login from @p addr: a wrong token (@p refused false: counts
 * towards the address's backoff and the global budget) or one refused
 * unchecked (@p refused true: counted for the log only).
 * @return true when the server should log this one on a line of its own;
 *         false when it goes into the period's summary.
 */
bool wr_auth_limit_failed(struct wr_auth_limit *l, const char *addr,
			  bool refused, uint64_t now_ms);

/** A login from @p addr with the right token: its failures are forgotten. */
void wr_auth_limit_passed(struct wr_auth_limit *l, const char *addr);

/**
 * Once a log period has passed since its first failure: @return true with
 * @p out filled when it had failures that were not logged one by one (the
 * server prints one summary line); the next failure starts a new period.
 */
bool wr_auth_limit_summary(struct wr_auth_limit *l, uint64_t now_ms,
			   struct wr_auth_summary *out);

#endif /* WR_AUTH_H */

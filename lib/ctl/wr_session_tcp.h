/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_session_tcp: a session's stateful classes (the stream file's tcp:) as the control plane reads and changes them: counters, histograms, rate and concurrency. */
#ifndef WR_SESSION_TCP_H
#define WR_SESSION_TCP_H

/**
 * @file
 * wr_session_load() sets up a stream file's `tcp:` classes beside its
 * streams (lib/dp/wr_tcp_lcore: one TCP engine per lcore of each port a
 * class has a side on, the clients' and servers' addresses taken from
 * their hosts once up, their next hops resolved); wr_engine_start() runs
 * them.  What every caller (`run`'s live lines and its results, the
 * server's stats.get and tcp.* methods, Prometheus) reads and changes goes
 * through here, so that all agree.
 *
 * Threads: the main lcore, or the server's thread; the lcores are not
 * waited for (counters are read as they are, a change is taken at their
 * next poll).
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_latency.h"
#include "wr_tcp.h"

struct wr_session;

/** One class, summed over its lcores and ports. */
struct wr_tcp_class_stats {
	char name[WR_TCP_CLASS_NAME_MAX];
	bool has[2];                            /**< [enum wr_tcp_side]: the side runs here */
	struct wr_tcp_counters c[2];
	/** Histograms (ns), filled when the caller asks (@c want_hist). */
	struct wr_latency hist[2][WR_TCP_HIST__COUNT];
	bool stopped;                           /**< opening ended (count, duration, stop) */
	uint64_t rate_milli;                    /**< the rate asked now (clients) */
	uint32_t concurrency;                   /**< the cap now (clients) */
};

/** @return how many classes the loaded stream file has (0: none, or
 *          nothing loaded). */
unsigned int wr_session_tcp_n(const struct wr_session *s);

/**
 * Class @p i's counters (and its histograms when @p want_hist: @p out is
 * large, allocate it).  @return 0; -ENOENT (no such class).
 */
int wr_session_tcp_class(const struct wr_session *s, unsigned int i,
			 bool want_hist, struct wr_tcp_class_stats *out);

/** Port @p port's engine counters, summed over its lcores (zero: no TCP
 * there). */
void wr_session_tcp_port(const struct wr_session *s, unsigned int port,
			 struct wr_tcp_port_counters *out);

/** Class @p i's index by name, or -1. */
int wr_session_tcp_find(const struct wr_session *s, const char *name);

/**
 * Change class @p i while it runs: its rate (spread over its client
 * lanes), its concurrency cap, pause or resume opening.  Applied at each
 * lcore's next poll.
 * @return 0; -ENOENT; -EINVAL (@p err: a concurrency above what the run
 *         sized its tables for, a class without clients here).
 */
int wr_session_tcp_ctl(struct wr_session *s, unsigned int i,
		       const struct wr_tcp_ctl *c, struct wr_error *err);

/** True when every class with clients here has stopped opening and has
 * no connection open (a server-only run never is: it ends by time or
 * by stop). */
bool wr_session_tcp_done(const struct wr_session *s);

#endif /* WR_SESSION_TCP_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* bench: what wirerate sweep and wirerate rfc2544 share: one engine, one load per trial. */
#ifndef WR_APP_BENCH_H
#define WR_APP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "wr_app.h"
#include "wr_bench.h"
#include "wr_config.h"
#include "wr_engine.h"

struct wr_bench {
	const struct wr_opts *o;
	struct wr_stream_file f;
	bool loaded;
	uint32_t stream;            /**< index of the stream run */
	bool latency;               /**< every trial carries signatures */
	struct wr_config cfg;
	const char *cfg_path;
	struct wr_engine *e;
	uint16_t sizes[WR_BENCH_SIZES_MAX];
	unsigned int n_sizes;
	char started_at[40];
	bool link_lost;             /**< a port's link went during a trial */
	struct wr_report_row port_row; /**< the stream's port, last trial */
	uint16_t rx_port;           /**< with latency: where echoes count */
	uint64_t rx_distinct;       /**< last trial: distinct frames back on rx_port */
	uint64_t rx_port_pkts;      /**< last trial: every frame rx_port received */
	uint64_t rx_nic_pkts;       /**< last trial: rx_port's NIC ipackets (delta) */
	uint64_t rx_nic_missed;     /**< last trial: rx_port's NIC imissed (delta) */
	uint64_t nic_ipackets, nic_imissed; /* cumulative, since the engine opened */
};

/** Stream file, stream, sizes, profile; every size built once (with a
 * signature when @p latency).  Prints; @return an exit code. */
int wr_bench_prepare(struct wr_bench *b, const struct wr_opts *o, bool latency,
		     const uint16_t *default_sizes, unsigned int n_default);
/** EAL, ports, signal handlers.  @return an exit code. */
int wr_bench_open(struct wr_bench *b);
/** The stream at one fixed size, unpaced, unlimited, no schedule. */
void wr_bench_stream_at(const struct wr_bench *b, uint16_t size,
			struct wr_stream *st);
/**
 * Load @p st alone, send until its duration (or count) ends, wait
 * @p drain_ns for echoes, collect its row into @p row, unload.
 * @return 0, -EINTR after a signal or a link loss (the row is still filled when the
 *         trial ran), or the engine's error (printed).
 */
int wr_bench_trial(struct wr_bench *b, struct wr_stream *st,
		   uint64_t drain_ns, struct wr_report_row *row);
bool wr_bench_interrupted(void);

/** stop_reason after the last trial returned @p rc: done, signal or link-down. */
const char *wr_bench_stop_reason(const struct wr_bench *b, int rc);
void wr_bench_meta(const struct wr_bench *b, struct wr_bench_meta *m,
		   uint16_t tx_port, const char *reason);
/** Write @p path atomically when it is not NULL.  Prints; @return an exit code. */
int wr_bench_write(const char *path, int (*fn)(FILE *, const void *),
		   const void *arg);
void wr_bench_close(struct wr_bench *b);

#endif /* WR_APP_BENCH_H */

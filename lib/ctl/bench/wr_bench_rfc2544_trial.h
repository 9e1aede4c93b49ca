/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_rfc2544_trial: one RFC 2544 trial at a rate and the rates a search runs between, for the tests of wr_bench_rfc2544.c (above it). */
#ifndef WR_BENCH_RFC2544_TRIAL_H
#define WR_BENCH_RFC2544_TRIAL_H

#include "wr_bench_priv.h"

/** A --max-rate / --min-rate @p spec for one frame size into @p millipps,
 * 0 when not given.  @return 0, -EINVAL (@p err names @p opt). */
int wr_rfc2544_rate_at(const struct wr_rate_spec *spec, uint16_t size,
		       uint32_t link, const char *opt, uint64_t *millipps,
		       struct wr_error *err);
/**
 * One trial at @p size: @p rate millipps (0: as fast as the port takes
 * frames) for @p ns, or @p count frames when @p ns is 0, every frame with
 * the loss-only signature (@p sig_short) or the timestamp one.
 * @return 0, -EINTR, -EIO (nothing sent) or the engine's error.
 */
int wr_rfc2544_trial_at_sig(struct wr_bench *b, uint16_t size, uint64_t rate,
			    uint64_t ns, uint64_t count, uint64_t drain_ns,
			    bool sig_short, struct wr_bench_trial *t,
			    struct wr_error *err);
/** A trial with the loss-only signature (wr_rfc2544_trial_at_sig()). */
int wr_rfc2544_trial_at(struct wr_bench *b, uint16_t size, uint64_t rate,
			uint64_t ns, uint64_t count, uint64_t drain_ns,
			struct wr_bench_trial *t, struct wr_error *err);
/** What a two-way trial tells a search: the direction that lost the
 * larger share, and the lower rate offered. */
void wr_rfc2544_worst_direction(const struct wr_bench_trial *t, uint64_t *sent,
				uint64_t *received, uint64_t *offered);
/** --max-rate at @p size, else the line rate.  @return 0, -EINVAL. */
int wr_rfc2544_max_at(const struct wr_bench *b, uint16_t size,
		      uint64_t *millipps, struct wr_error *err);
/** --max-rate or the line rate at @p size without a word: 0 when unknown. */
int wr_rfc2544_rate_quiet(const struct wr_bench *b, uint16_t size,
			  uint64_t *millipps);
/** The resolution a trial's shortfall is judged against (as the search's). */
uint64_t wr_rfc2544_resolution_at(const struct wr_bench *b, uint64_t max);

#endif /* WR_BENCH_RFC2544_TRIAL_H */

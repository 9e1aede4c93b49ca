/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_rfc2544_trial: one RFC 2544 trial at a rate, one or both directions, and the rates a search runs between; below the tests of wr_bench_rfc2544.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bench_priv.h"
#include "wr_bench_rfc2544_trial.h"
#include "wr_rate.h"

/* A --max-rate / --min-rate for one frame size, 0 when not given. */
int
wr_rfc2544_rate_at(const struct wr_rate_spec *spec, uint16_t size,
		   uint32_t link, const char *opt, uint64_t *millipps,
		   struct wr_error *err)
{
	struct wr_size_avg avg = { .bytes = size, .frames = 1 };

	*millipps = 0;
	if (spec->unit == WR_RATE_MAX)
		return 0;
	if (wr_rate_millipps(spec, &avg, link, millipps) == 0)
		return 0;
	return wr_error_set(err, -EINVAL, NULL, 0, 0, opt, "%s", spec->unit ==
			    WR_RATE_PERCENT && link == 0 ? "a percentage needs "
			    "the link speed, which the TX port does not report: "
			    "give pps or bps" : "the rate is out of range");
}

/*
 * One trial at @p size: @p rate millipps (0: as fast as the port takes
 * frames) for @p ns, or @p count frames when @p ns is 0.  Every frame
 * carries a signature: the loss-only one (@p sig_short: loss exact per
 * frame; it fits RFC 2544's 64-byte frames, wr_sig.h) or the timestamp
 * one (latency too).  @return 0, -EINTR, -EIO (nothing
 * sent) or the engine's error.
 */
int
wr_rfc2544_trial_at_sig(struct wr_bench *b, uint16_t size, uint64_t rate,
			uint64_t ns, uint64_t count, uint64_t drain_ns,
			bool sig_short, struct wr_bench_trial *t,
			struct wr_error *err)
{
	struct wr_report_row r;
	struct wr_stream st;
	int rc;

	memset(t, 0, sizeof(*t));
	wr_bench_stream_at(b, size, &st);
	st.port = b->tx_port;
	st.latency = true;
	st.sig_short = sig_short;
	if (rate != 0) {
		st.rate.unit = WR_RATE_PPS;
		st.rate.value = rate;
	}
	st.duration_ns = ns;
	st.count = count;
	rc = wr_bench_trial(b, &st, drain_ns, &r, err);
	if (rc != 0)
		return rc;
	if (r.total.tx_pkts == 0)
		return wr_error_set(err, -EIO, NULL, 0, 0, "rfc2544", "the trial "
				    "at %.3f pps sent nothing", (double)rate / 1e3);
	t->rate_millipps = rate;
	t->trial_ns = ns;
	t->sent = r.total.tx_pkts;
	t->received = b->rx_distinct;
	t->duration_ns = r.duration_ns;
	t->pacer_skipped = r.pacer_skipped;
	t->rx_frames = b->rx_port_pkts;
	t->rx_nic_pkts = b->rx_nic_pkts;
	t->rx_nic_missed = b->rx_nic_missed;
	t->valid = wr_bench_trial_valid(t->sent, t->pacer_skipped);
	wr_bench_tx_of(b, &st, &r, &t->tx);
	t->offered_millipps = wr_rfc2544_offered_millipps(t->sent,
		t->duration_ns ? t->duration_ns : ns);
	if (b->bidir) {
		const struct wr_report_row *rv = &b->rev_row;

		t->bidir = true;
		t->rev_sent = rv->total.tx_pkts;
		t->rev_received = b->rev_distinct;
		t->rev_offered_millipps = wr_rfc2544_offered_millipps(
			t->rev_sent, rv->duration_ns ? rv->duration_ns : ns);
		t->valid = t->valid && wr_bench_trial_valid(t->rev_sent,
							    rv->pacer_skipped);
	}
	return 0;
}

/*
 * What a two-way trial tells a search: the direction that lost the larger
 * share (both pass only when it does) and the lower rate offered.
 */
void
wr_rfc2544_worst_direction(const struct wr_bench_trial *t, uint64_t *sent,
			   uint64_t *received, uint64_t *offered)
{
	*sent = t->sent;
	*received = t->received;
	*offered = t->offered_millipps;
	if (!t->bidir)
		return;
	/* rev lost / rev sent > fwd lost / fwd sent, on integers */
	if (t->rev_sent != 0 && t->rev_received <= t->rev_sent &&
	    (unsigned __int128)(t->rev_sent - t->rev_received) * t->sent >
	    (unsigned __int128)(t->sent - t->received) * t->rev_sent) {
		*sent = t->rev_sent;
		*received = t->rev_received;
	}
	if (t->rev_offered_millipps < *offered)
		*offered = t->rev_offered_millipps;
}

/* A trial with the loss-only signature. */
int
wr_rfc2544_trial_at(struct wr_bench *b, uint16_t size, uint64_t rate,
		    uint64_t ns, uint64_t count, uint64_t drain_ns,
		    struct wr_bench_trial *t, struct wr_error *err)
{
	return wr_rfc2544_trial_at_sig(b, size, rate, ns, count, drain_ns, true, t, err);
}

/* --max-rate at @p size, else the line rate.  @return 0, -EINVAL. */
int
wr_rfc2544_max_at(const struct wr_bench *b, uint16_t size,
		  uint64_t *millipps, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	uint32_t link = wr_engine_port(b->e, b->tx_port)->link_speed_mbps;
	struct wr_size_avg avg = { .bytes = size, .frames = 1 };

	if (wr_rfc2544_rate_at(&o->max_rate, size, link, "--max-rate", millipps, err) != 0)
		return -EINVAL;
	if (*millipps != 0)
		return 0;
	if (link != 0 && wr_rate_line_millipps(link, &avg, millipps) == 0)
		return 0;
	return wr_error_set(err, -EINVAL, NULL, 0, 0, "rfc2544", "the TX port "
			    "does not report its link speed: give --max-rate");
}

/* --max-rate or the line rate at @p size without a word: 0 when unknown. */
int
wr_rfc2544_rate_quiet(const struct wr_bench *b, uint16_t size,
		      uint64_t *millipps)
{
	const struct wr_bench_opts *o = b->o;
	uint32_t link = wr_engine_port(b->e, b->tx_port)->link_speed_mbps;
	struct wr_size_avg avg = { .bytes = size, .frames = 1 };

	*millipps = 0;
	if (o->max_rate.unit != WR_RATE_MAX)
		return wr_rate_millipps(&o->max_rate, &avg, link, millipps);
	if (link != 0)
		return wr_rate_line_millipps(link, &avg, millipps);
	return 0;
}

/* The resolution a trial's shortfall is judged against (as the search's). */
uint64_t
wr_rfc2544_resolution_at(const struct wr_bench *b, uint64_t max)
{
	const struct wr_bench_opts *o = b->o;
	uint32_t ppm = o->resolution_ppm ? o->resolution_ppm :
		       WR_RFC2544_RESOLUTION_PPM;

	if (o->resolution_millipps)
		return o->resolution_millipps;
	return (uint64_t)((unsigned __int128)max * ppm / 1000000);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_rfc2544: RFC 2544's four tests per frame size (throughput with NDR/PDR by binary search or MLRsearch, latency, frame loss, back-to-back), one or two directions, on one open engine. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bench_drivers.h"
#include "wr_bench_priv.h"
#include "wr_bench_rfc2544_trial.h"
#include "wr_rate.h"

#define DIM(a) (sizeof(a) / sizeof((a)[0]))

/* RFC 2544 section 24: trials SHOULD last at least 60 s. */
#define WR_TRIAL_DEFAULT_NS (60 * 1000 * 1000 * 1000ull)
/* A trial whose rate was not offered (wr_bench_trial_valid()) is run again
 * this many times before its counts are taken as they are. */
#define WR_TRIAL_REDO_MAX 3
/* MLRsearch's first phase: 1 s trials. */
#define WR_FIRST_TRIAL_DEFAULT_NS (1000 * 1000 * 1000ull)
/* RFC 2544 section 23: wait two seconds for residual frames. */
#define WR_TRIAL_DRAIN_DEFAULT_NS (2 * 1000 * 1000 * 1000ull)

/* --min-rate at most --max-rate at every size, on a link of @p link_mbps
 * (0: not known yet).  @return 0, -EINVAL. */
static int
rates_check(const struct wr_bench *b, uint32_t link_mbps, struct wr_error *err)
{
	char why[128];

	if (wr_bench_rate_order(&b->o->min_rate, &b->o->max_rate, b->sizes,
				b->n_sizes, link_mbps, why, sizeof(why)) == 0)
		return 0;
	return wr_error_set(err, -EINVAL, NULL, 0, 0, "--min-rate", "%s", why);
}

static int mlr_search(struct wr_bench *b, uint16_t size, uint64_t trial_ns,
		      uint64_t drain_ns, struct wr_rfc2544_row *row,
		      struct wr_error *err);

/* The search for one frame size.  @return 0, -EINTR, or an exit code's error. */
static int
search(struct wr_bench *b, uint16_t size, uint64_t trial_ns, uint64_t drain_ns,
       struct wr_rfc2544_row *row, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	uint32_t link = wr_engine_port(b->e, b->tx_port)->link_speed_mbps;
	struct wr_rfc2544_cfg cfg;
	struct wr_rfc2544 *s;
	uint64_t rate, w_sent, w_received, w_offered;
	unsigned int redo = 0;
	char why[160];
	int rc;

	if (o->search == WR_BENCH_SEARCH_MLR)
		return mlr_search(b, size, trial_ns, drain_ns, row, err);
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	memset(&cfg, 0, sizeof(cfg));
	row->has_throughput = true;
	cfg.frame_size = size;
	cfg.link_mbps = link;
	cfg.loss_ppm = o->loss_ppm;
	cfg.pdr_loss_ppm = o->pdr_ppm;
	cfg.phases = b->phases;
	cfg.trial_ns = trial_ns;
	cfg.first_trial_ns = b->first_trial_ns;
	cfg.resolution_ppm = o->resolution_ppm;
	cfg.resolution_millipps = o->resolution_millipps;
	rc = wr_rfc2544_rate_at(&o->max_rate, size, link, "--max-rate",
				&cfg.max_millipps, err);
	if (rc == 0)
		rc = wr_rfc2544_rate_at(&o->min_rate, size, link, "--min-rate",
			     &cfg.min_millipps, err);
	if (rc == 0) {
		rc = wr_rfc2544_start(s, &cfg, &rate);
		if (rc != 0)
			wr_error_set(err, rc, NULL, 0, 0, NULL, "rfc2544 at %u "
				     "bytes: %s", size, rc == -ERANGE ?
				     "--max-rate is above the line rate of the "
				     "TX port" : link == 0 &&
				     cfg.max_millipps == 0 ? "the TX port does "
				     "not report its link speed: give "
				     "--max-rate" : "--min-rate is above "
				     "--max-rate");
	}
	while (rc == 0) {
		struct wr_bench_trial *t = &row->trials[row->n_trials];

		rc = wr_rfc2544_trial_at(b, size, rate, wr_rfc2544_trial_ns(s),
					 0, drain_ns, t, err);
		if (rc != 0)
			break;
		t->phase = s->phase;
		wr_rfc2544_worst_direction(t, &w_sent, &w_received, &w_offered);
		t->short_offer = wr_rfc2544_short(rate, w_offered,
			wr_rfc2544_short_width(rate, s->resolution));
		row->n_trials++;
		if (!t->valid && redo < WR_TRIAL_REDO_MAX &&
		    row->n_trials < DIM(row->trials)) {
			char why[160];

			redo++;
			wr_bench_trial_short_by(t, why, sizeof(why));
			if (!o->quiet)
				wr_bench_say(b, "throughput", size, t->rate_millipps, true, "  %u bytes: "
				    "trial at %.3f pps offered only %.3f pps "
				    "(%s): again\n", size, (double)rate / 1e3,
				    (double)t->offered_millipps / 1e3, why);
			continue;
		}
		redo = 0;
		t->counted = true;
		/* Frames the RX port dropped because wirerate did not take
		 * them are never the device's loss. */
		rc = wr_rfc2544_report_rx(s, w_sent, w_received, w_offered,
					  t->rx_nic_missed, &rate);
		if (t->rx_nic_missed > 0 && !o->quiet)
			wr_bench_say(b, "throughput", size, t->rate_millipps,
				     false, "  %u bytes: the RX port dropped "
				     "%llu frames wirerate did not take in "
				     "time (imissed, rx_nombuf): the "
				     "generator's limit, not counted as the "
				     "device's loss\n", size,
				     (unsigned long long)t->rx_nic_missed);
		t->pass = s->trials[s->n_trials - 1].pass;
		t->pdr_pass = s->trials[s->n_trials - 1].pdr_pass;
		if (!o->quiet && wr_bench_trial_short_by(t, why, sizeof(why)))
			wr_bench_say(b, "throughput", size, t->rate_millipps, false, "  %u bytes: trial "
			    "%u offered %.3f of %.3f pps: %s\n", size,
			    row->n_trials, (double)t->offered_millipps / 1e3,
			    (double)t->rate_millipps / 1e3, why);
		if (!o->quiet)
			wr_bench_say(b, "throughput", size, t->rate_millipps, true, "  %u bytes: trial %u (phase %u, %.3f s) at "
			       "%.3f pps (offered %.3f): sent %llu, received "
			       "%llu, lost %lld: %s\n", size, row->n_trials,
			       t->phase + 1, (double)t->trial_ns / 1e9,
			       (double)t->rate_millipps / 1e3,
			       (double)t->offered_millipps / 1e3,
			       (unsigned long long)t->sent,
			       (unsigned long long)t->received,
			       (long long)(t->sent - t->received),
			       !t->short_offer ? (t->pass ? "pass" : "fail") :
			       t->pass ? "the generator could not offer the "
			       "rate and the device lost nothing: no figure "
			       "above this" : "fail at the rate offered");
		if (rc == 1) {
			rc = 0;
			break;
		}
		if (rc == -EBADMSG)
			rc = rate != 0 ? 0 : -EIO;
		if (row->n_trials == DIM(row->trials))
			break;
	}
	wr_rfc2544_result(s, &row->res);
	row->res.trials = NULL;
	free(s);
	return rc;
}

/* --reverse-stream: the stream exists and builds at every size. */
static int
reverse_prepare(struct wr_bench *b, struct wr_error *err)
{
	struct wr_frame_tmpl *tm;
	struct wr_error terr;
	struct wr_stream st;
	unsigned int i;
	int idx;

	idx = wr_stream_file_find(b->f, b->o->rev_stream);
	if (idx < 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--reverse-stream",
				    "no stream named \"%s\" in %s",
				    b->o->rev_stream, b->f->path);
	if ((uint32_t)idx == b->stream)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--reverse-stream",
				    "expected another stream than the forward "
				    "one (%s)", b->o->rev_stream);
	for (i = 0; i < b->n_sizes; i++) {
		wr_bench_stream_idx_at(b, (uint32_t)idx, b->sizes[i], &st);
		st.latency = true;
		st.sig_short = true;
		wr_error_clear(&terr);
		if (wr_frame_tmpl_create(&st, 0, &tm, &terr) != 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0,
					    "--reverse-stream", "stream %s cannot "
					    "be sent in %u-byte frames with the "
					    "loss-only signature: %s", st.name,
					    b->sizes[i], terr.msg);
		wr_frame_tmpl_free(tm);
	}
	b->bidir = true;
	b->rev_stream = (uint32_t)idx;
	return 0;
}

/* A goal's answer as RFC 2544's NDR or PDR: its relevant lower bound when
 * every trial there offered its load (the lowest offer if below it: never
 * above what was offered), else "at least" what was offered. */
static void
mlr_rate(const struct wr_mlr *s, const struct wr_mlr_result *m, uint16_t size,
	 uint32_t loss_ppm, uint64_t res, struct wr_rfc2544_rate *out)
{
	uint64_t off = UINT64_MAX;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->loss_ppm = loss_ppm;
	if (!m->has_lower)
		return;
	for (i = 0; i < s->n_trials; i++)
		if (s->trials[i].load == m->lower && s->trials[i].offered < off)
			off = s->trials[i].offered;
	if (!m->short_offer && !wr_rfc2544_short(m->lower, off,
			wr_rfc2544_short_width(m->lower, res))) {
		wr_rfc2544_rate_set(out, off < m->lower ? off : m->lower, size);
		return;
	}
	out->gen_limited = true;
	out->gen_millipps = off;
}

/*
 * The throughput by MLRsearch (RFC 9971, wr_mlr.h): NDR (--loss-tolerance)
 * and PDR (--pdr) are its two goals, searched in one pass; trials from
 * --first-trial up to --trial; --exceed-ratio and --duration-sum as the
 * RFC defines them; the goal width is the resolution.  Trials the
 * generator could not offer are run again, as the binary search's are.
 * @return 0, -EINTR, or an error.
 */
static int
mlr_search(struct wr_bench *b, uint16_t size, uint64_t trial_ns,
	   uint64_t drain_ns, struct wr_rfc2544_row *row, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	uint32_t link = wr_engine_port(b->e, b->tx_port)->link_speed_mbps;
	struct wr_mlr_cfg cfg;
	struct wr_mlr *s;
	uint64_t load, ns, res, w_sent, w_received, w_offered;
	unsigned int redo = 0, g;
	char why[160];
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	row->has_throughput = true;
	row->mlr = true;
	rc = wr_rfc2544_max_at(b, size, &cfg.max_millipps, err);
	if (rc == 0)
		rc = wr_rfc2544_rate_at(&o->min_rate, size, link, "--min-rate",
			     &cfg.min_millipps, err);
	if (rc != 0)
		return rc;
	res = wr_rfc2544_resolution_at(b, cfg.max_millipps);
	cfg.n_goals = o->pdr_ppm ? 2 : 1;
	for (g = 0; g < cfg.n_goals; g++) {
		struct wr_mlr_goal *x = &cfg.goals[g];

		x->loss_ppm = g == 0 ? o->loss_ppm : o->pdr_ppm;
		x->exceed_ppm = o->exceed_ppm;
		x->final_ns = trial_ns;
		x->initial_ns = b->first_trial_ns;
		x->sum_ns = o->sum_ns ? o->sum_ns : trial_ns;
		/* The resolution, relative to the maximum, as the width. */
		x->width_ppm = (uint32_t)((unsigned __int128)res * 1000000 /
					  cfg.max_millipps);
		if (x->width_ppm == 0)
			x->width_ppm = 1;
	}
	/* --phases counts the final one; MLRsearch's are the ones before. */
	cfg.phases = o->phases > 1 ? o->phases - 1 : 0;
	cfg.max_trials = DIM(row->trials);
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	rc = wr_mlr_start(s, &cfg, &load, &ns);
	if (rc != 0) {
		free(s);
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--search",
				    "mlr at %u bytes: %s", size, rc == -ERANGE ?
				    "a setting beyond MLRsearch's limits" :
				    "--min-rate is above the maximum rate");
	}
	row->n_goals = cfg.n_goals;
	memcpy(row->goals, s->cfg.goals, sizeof(row->goals));
	while (rc == 0) {
		struct wr_bench_trial *t = &row->trials[row->n_trials];
		uint32_t level = s->level;

		rc = wr_rfc2544_trial_at(b, size, load, ns, 0, drain_ns, t,
					 err);
		if (rc != 0)
			break;
		t->phase = level;
		wr_rfc2544_worst_direction(t, &w_sent, &w_received, &w_offered);
		t->short_offer = wr_rfc2544_short(load, w_offered,
			wr_rfc2544_short_width(load, res));
		row->n_trials++;
		if (!t->valid && redo < WR_TRIAL_REDO_MAX &&
		    row->n_trials < DIM(row->trials)) {
			redo++;
			wr_bench_trial_short_by(t, why, sizeof(why));
			if (!o->quiet)
				wr_bench_say(b, "throughput", size, load, true,
					     "  %u bytes: trial at %.3f pps "
					     "offered only %.3f pps (%s): again\n",
					     size, (double)load / 1e3,
					     (double)t->offered_millipps / 1e3, why);
			continue;
		}
		redo = 0;
		t->counted = true;
		/* Each goal's verdict on the trial: low-loss or high-loss. */
		t->pass = (unsigned __int128)(w_sent - (w_received < w_sent ?
			   w_received : w_sent)) * 1000000 <=
			  (unsigned __int128)cfg.goals[0].loss_ppm * w_sent;
		t->pdr_pass = cfg.n_goals > 1 &&
			(unsigned __int128)(w_sent - (w_received < w_sent ?
			 w_received : w_sent)) * 1000000 <=
			(unsigned __int128)cfg.goals[1].loss_ppm * w_sent;
		rc = wr_mlr_report(s, w_sent, w_received, w_offered, &load, &ns);
		if (!o->quiet)
			wr_bench_say(b, "throughput", size, t->rate_millipps,
				     true, "  %u bytes: trial %u (phase %u, "
				     "%.3f s) at %.3f pps (offered %.3f): sent "
				     "%llu, received %llu, lost %lld: %s\n", size,
				     row->n_trials, t->phase + 1,
				     (double)t->trial_ns / 1e9,
				     (double)t->rate_millipps / 1e3,
				     (double)t->offered_millipps / 1e3,
				     (unsigned long long)t->sent,
				     (unsigned long long)t->received,
				     (long long)(t->sent - t->received),
				     t->pass ? "low loss" : "high loss");
		if (rc == 1) {
			rc = 0;
			break;
		}
	}
	for (g = 0; g < cfg.n_goals; g++)
		wr_mlr_result(s, g, &row->mlr_res[g]);
	mlr_rate(s, &row->mlr_res[0], size, o->loss_ppm, res, &row->res.ndr);
	row->res.has_pdr = cfg.n_goals > 1;
	if (row->res.has_pdr)
		mlr_rate(s, &row->mlr_res[1], size, o->pdr_ppm, res,
			 &row->res.pdr);
	row->res.throughput_millipps = row->res.ndr.millipps;
	row->res.l2_bps = row->res.ndr.l2_bps;
	row->res.l1_bps = row->res.ndr.l1_bps;
	row->res.gen_limited = row->res.ndr.gen_limited;
	row->res.gen_millipps = row->res.ndr.gen_millipps;
	row->res.resolution_millipps = res;
	row->res.phases = s->phases + 1;
	row->res.n_trials = s->n_trials;
	row->res.done = s->done;
	row->res.converged = row->mlr_res[0].regular &&
		(cfg.n_goals < 2 || row->mlr_res[1].regular);
	if (link != 0) {
		struct wr_size_avg avg = { .bytes = size, .frames = 1 };

		wr_rate_line_millipps(link, &avg, &row->res.line_millipps);
	}
	free(s);
	return rc;
}

/* RFC 2544 section 26.3 at one size.  @return 0, -EINTR or an error. */
static int
frame_loss(struct wr_bench *b, uint16_t size, uint64_t trial_ns,
	   uint64_t drain_ns, struct wr_rfc2544_row *row, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	struct wr_floss_cfg cfg;
	struct wr_bench_trial t;
	uint64_t rate;
	int rc;

	memset(&cfg, 0, sizeof(cfg));
	rc = wr_rfc2544_max_at(b, size, &cfg.max_millipps, err);
	if (rc != 0)
		return rc;
	cfg.step_ppm = o->loss_step_ppm;
	cfg.resolution_millipps = wr_rfc2544_resolution_at(b, cfg.max_millipps);
	rc = wr_floss_start(&row->floss, &cfg, &rate);
	if (rc != 0)
		return rc;
	row->has_floss = true;
	while (rc == 0) {
		const struct wr_floss_step *st;

		rc = wr_rfc2544_trial_at(b, size, rate, trial_ns, 0, drain_ns,
					 &t, err);
		if (rc != 0)
			break;
		if (t.bidir)
			wr_floss_set_reverse(&row->floss, t.rev_sent,
					     t.rev_received);
		rc = wr_floss_report(&row->floss, t.sent, t.received,
				     t.offered_millipps < t.rev_offered_millipps ||
				     !t.bidir ? t.offered_millipps :
				     t.rev_offered_millipps, &rate);
		st = &row->floss.steps[row->floss.n_steps - 1];
		if (!o->quiet)
			wr_bench_say(b, "loss", size, st->rate_millipps, true, "  %u bytes: frame loss at %.1f %% (%.3f pps, "
			       "offered %.3f): sent %llu, received %llu, loss "
			       "%.4f %%%s\n", size, st->pct_ppm / 1e4,
			       (double)st->rate_millipps / 1e3,
			       (double)st->offered_millipps / 1e3,
			       (unsigned long long)st->sent,
			       (unsigned long long)st->received, st->loss_pct,
			       st->short_offer ? " (the generator fell short)" :
			       "");
		if (!o->quiet && st->bidir)
			wr_bench_say(b, "loss", size, st->rate_millipps, false, "  %u bytes: frame loss at %.1f %%, reverse: sent "
			       "%llu, received %llu, loss %.4f %%\n", size,
			       st->pct_ppm / 1e4, (unsigned long long)st->rev_sent,
			       (unsigned long long)st->rev_received,
			       st->rev_loss_pct);
	}
	return rc == 1 ? 0 : rc;
}

/* The burst a finished back-to-back search keeps sending beside the other
 * direction's: its last value (a lossless burst), at least one frame. */
static uint64_t
b2b_held(const struct wr_b2b *s)
{
	uint64_t v = s->n_values ? s->values[s->n_values - 1] : 0;

	return v ? v : 1;
}

/*
 * RFC 2544 section 26.4 at one size.  With both directions, each has its
 * own search and their bursts go out together; a direction whose search
 * ended keeps sending its last lossless burst until the other's ends, so
 * every burst met the other direction's traffic.
 * @return 0, -EINTR or an error.
 */
static int
back_to_back(struct wr_bench *b, uint16_t size, uint64_t drain_ns,
	     struct wr_rfc2544_row *row, struct wr_error *err)
{
	/* RFC 2544 section 26.4: trials of at least 2 s. */
	static const uint64_t trial_default_ns = 2000000000ull;
	const struct wr_bench_opts *o = b->o;
	uint64_t trial_ns = o->b2b_trial_ns ? o->b2b_trial_ns : trial_default_ns;
	struct wr_b2b_cfg cfg;
	struct wr_bench_trial t;
	uint64_t line, frames, rframes = 0, res = 0;
	bool fdone = false, rdone = !b->bidir, fshort, rshort;
	unsigned int redo = 0;
	int rc, rrc = 0;

	/* Bursts go out as fast as the port takes them (the minimum gap),
	 * or paced at --max-rate when given; the first burst is --b2b-trial
	 * of that rate. */
	rc = wr_rfc2544_max_at(b, size, &line, err);
	if (rc != 0)
		return rc;
	row->b2b_rate_millipps = o->max_rate.unit == WR_RATE_MAX ? 0 : line;
	/* A burst counts only offered at the rate: the paced one, or at
	 * the minimum gap of a real line (a virtual PMD's placeholder speed
	 * is no gap: there it goes as fast as the port takes it). */
	row->b2b_asked_millipps = row->b2b_rate_millipps;
	if (row->b2b_asked_millipps == 0 &&
	    wr_txlimit_line_mbps(wr_engine_port(b->e, b->tx_port)->driver,
			       wr_engine_port(b->e, b->tx_port)->link_speed_mbps))
		row->b2b_asked_millipps = line;
	if (row->b2b_asked_millipps != 0)
		res = wr_rfc2544_resolution_at(b, row->b2b_asked_millipps);
	memset(&cfg, 0, sizeof(cfg));
	cfg.max_frames = (uint64_t)((unsigned __int128)line * trial_ns /
				    1000000000000ull);
	if (cfg.max_frames == 0)
		cfg.max_frames = 1;
	cfg.repeats = o->b2b_repeats;
	cfg.resolution_frames = o->b2b_resolution;
	rc = wr_b2b_start(&row->b2b, &cfg, &frames);
	if (rc == 0 && b->bidir)
		rc = wr_b2b_start(&row->rev_b2b, &cfg, &rframes);
	if (rc != 0)
		return rc;
	row->has_b2b = true;
	row->bidir = b->bidir;
	row->b2b_offered_min = UINT64_MAX;
	row->rev_b2b_offered_min = UINT64_MAX;
	while (!fdone || !rdone) {
		uint32_t rep = row->b2b.repeat, rrep = row->rev_b2b.repeat;

		b->rev_count = rdone ? b2b_held(&row->rev_b2b) : rframes;
		rc = wr_rfc2544_trial_at(b, size, row->b2b_rate_millipps, 0,
			      fdone ? b2b_held(&row->b2b) : frames, drain_ns,
			      &t, err);
		b->rev_count = 0;
		if (rc != 0)
			break;
		row->b2b_bursts++;
		if (t.offered_millipps > b->eta_gen_millipps)
			b->eta_gen_millipps = t.offered_millipps;
		fshort = row->b2b_asked_millipps != 0 &&
			 wr_rfc2544_short(row->b2b_asked_millipps,
					  t.offered_millipps, res);
		rshort = row->b2b_asked_millipps != 0 && b->bidir &&
			 wr_rfc2544_short(row->b2b_asked_millipps,
					  t.rev_offered_millipps, res);
		if (fshort && !fdone && redo < WR_TRIAL_REDO_MAX) {
			char why[160];

			/* A stall (of the lcore, or of the peer that fills
			 * the port's ring) may pass: again. */
			redo++;
			wr_txlimit_of(&t.tx, why, sizeof(why));
			if (!o->quiet)
				wr_bench_say(b, "b2b", size, row->b2b_rate_millipps, true, "  %u bytes: burst of "
				    "%llu offered only %.3f of %.3f pps (%s): "
				    "again\n", size, (unsigned long long)t.sent,
				    (double)t.offered_millipps / 1e3,
				    (double)row->b2b_asked_millipps / 1e3, why);
			continue;
		}
		redo = 0;
		if (!fdone) {
			if (t.offered_millipps < row->b2b_offered_min)
				row->b2b_offered_min = t.offered_millipps;
			rc = wr_b2b_report(&row->b2b, t.sent, t.received,
					   fshort, &frames);
			if (rc < 0)
				break;
			fdone = rc == 1;
			/* The repeats are alike (each a search from the same
			 * first burst): those left at what these took. */
			wr_bench_eta_phase_done(b, row->b2b.n_values,
						row->b2b.cfg.repeats ?
						row->b2b.cfg.repeats :
						WR_B2B_REPEATS_DEFAULT);
			if (row->b2b.gen_limited && row->b2b_gen_offered == 0) {
				row->b2b_gen_offered = t.offered_millipps;
				row->b2b_gen_tx = t.tx;
			}
			if (!o->quiet)
				wr_bench_say(b, "b2b", size, row->b2b_rate_millipps, true, "  %u bytes: back-to-back %srepeat %u, "
				       "burst of %llu (offered %.3f pps): "
				       "received %llu: %s\n", size, b->bidir ?
				       "tx->rx " : "", rep + 1,
				       (unsigned long long)t.sent,
				       (double)t.offered_millipps / 1e3,
				       (unsigned long long)t.received,
				       fshort ? (t.received == t.sent ?
				       "not offered at the rate: no result" :
				       "fail at the rate offered") :
				       t.received == t.sent ? "pass" : "fail");
		}
		if (!rdone) {
			if (t.rev_offered_millipps < row->rev_b2b_offered_min)
				row->rev_b2b_offered_min = t.rev_offered_millipps;
			rrc = wr_b2b_report(&row->rev_b2b, t.rev_sent,
					    t.rev_received, rshort, &rframes);
			if (rrc < 0) {
				rc = rrc;
				break;
			}
			rdone = rrc == 1;
			if (!o->quiet)
				wr_bench_say(b, "b2b", size, row->b2b_rate_millipps, false, "  %u bytes: back-to-back rx->tx repeat "
				       "%u, burst of %llu (offered %.3f pps): "
				       "received %llu: %s\n", size, rrep + 1,
				       (unsigned long long)t.rev_sent,
				       (double)t.rev_offered_millipps / 1e3,
				       (unsigned long long)t.rev_received,
				       t.rev_received == t.rev_sent ? "pass" :
				       "fail");
		}
		rc = 0;
	}
	if (row->b2b_offered_min == UINT64_MAX)
		row->b2b_offered_min = 0;
	if (row->rev_b2b_offered_min == UINT64_MAX)
		row->rev_b2b_offered_min = 0;
	return rc;
}

/* One latency trial's figures for one direction into @p l. */
static void
lat_add(struct wr_bench_lat *l, const struct wr_latency_summary *sum,
	struct wr_latency *all, const struct wr_latency *one, uint64_t sent,
	uint64_t received, uint64_t offered, uint64_t resolution, double *jsum)
{
	uint32_t k = l->n_trials;

	l->sent[k] = sent;
	l->lost[k] = sent - received;
	l->offered[k] = offered;
	l->short_offer[k] = wr_rfc2544_short(l->rate_millipps, offered,
					     resolution);
	l->trial[k] = *sum;
	wr_latency_merge(all, one);
	*jsum += sum->jitter_ns;
	if (sum->jitter_ns > l->jitter_max_ns)
		l->jitter_max_ns = sum->jitter_ns;
	l->n_trials++;
}

/* After the trials: the overall summary of @p l. */
static void
lat_finish(struct wr_bench_lat *l, const struct wr_latency *all, double jsum)
{
	if (l->n_trials == 0)
		return;
	wr_latency_summarize(all, NULL, &l->overall);
	l->overall.jitter_ns = jsum / l->n_trials;
}

/*
 * RFC 2544 section 26.2 at one size, at the throughput just found: trials
 * with a timestamp signature on every frame (the full one, or the compact
 * one where it does not fit: 64-byte UDP frames, wr_sig.h); with both
 * directions, the reverse stream's frames are timed in the same trials
 * (the throughput is the rate both directions passed together).
 * @return 0, -EINTR or an error.
 */
static int
latency(struct wr_bench *b, uint16_t size, uint64_t drain_ns,
	struct wr_rfc2544_row *row, struct wr_error *lerr)
{
	/* RFC 2544 section 26.2: trials of 120 s, at least 20 of them. */
	static const uint64_t trial_default_ns = 120ull * 1000000000ull;
	const struct wr_bench_opts *o = b->o;
	uint64_t trial_ns = o->lat_trial_ns ? o->lat_trial_ns : trial_default_ns;
	uint32_t n = o->lat_trials ? o->lat_trials : WR_BENCH_LAT_TRIALS_DEFAULT;
	struct wr_bench_lat *l = &row->lat, *rl = &row->rev_lat;
	/* [0] a trial's, [1] every trial's; [2], [3] the reverse's */
	struct wr_latency *h;
	struct wr_frame_tmpl *tm;
	struct wr_bench_trial t;
	struct wr_stream st;
	struct wr_error err;
	double jsum = 0, rjsum = 0;
	int rc = 0;

	row->has_lat = true;
	row->bidir = b->bidir;
	memset(l, 0, sizeof(*l));
	if (row->res.ndr.gen_limited) {
		l->rate_millipps = row->res.ndr.gen_millipps;
		l->rate_at_least = true;
	} else {
		l->rate_millipps = row->res.ndr.millipps;
	}
	if (l->rate_millipps == 0)
		l->skipped = "no throughput: no rate passed";
	/* A timestamp signature needs 18 bytes of payload at least (the
	 * compact one, wr_sig.h). */
	wr_bench_stream_at(b, size, &st);
	st.latency = true;
	st.sig_short = false;
	wr_error_clear(&err);
	if (l->skipped == NULL && wr_frame_tmpl_create(&st, 0, &tm, &err) != 0)
		l->skipped = "no timestamp signature (18 bytes at least) "
			     "fits this frame size";
	else if (l->skipped == NULL)
		wr_frame_tmpl_free(tm);
	if (l->skipped == NULL && b->bidir) {
		wr_bench_stream_idx_at(b, b->rev_stream, size, &st);
		st.latency = true;
		st.sig_short = false;
		wr_error_clear(&err);
		if (wr_frame_tmpl_create(&st, 0, &tm, &err) != 0)
			l->skipped = "no timestamp signature (18 bytes at "
				     "least) fits the reverse stream at this "
				     "size";
		else
			wr_frame_tmpl_free(tm);
	}
	*rl = *l;
	if (l->skipped != NULL)
		return 0;
	h = calloc(4, sizeof(*h));
	if (h == NULL)
		return wr_error_set(lerr, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	wr_latency_init(&h[1]);
	wr_latency_init(&h[3]);
	b->lat_hist = &h[0];
	b->rev_lat_hist = b->bidir ? &h[2] : NULL;
	while (l->n_trials < n) {
		rc = wr_rfc2544_trial_at_sig(b, size, l->rate_millipps,
					     trial_ns, 0, drain_ns, false, &t,
					     lerr);
		if (rc != 0)
			break;
		lat_add(l, &b->lat, &h[1], &h[0], t.sent, t.received,
			t.offered_millipps, row->res.resolution_millipps, &jsum);
		if (b->bidir)
			lat_add(rl, &b->rev_lat, &h[3], &h[2], t.rev_sent,
				t.rev_received, t.rev_offered_millipps,
				row->res.resolution_millipps, &rjsum);
		/* Trials of one length: those left at what these took. */
		wr_bench_eta_phase_done(b, l->n_trials, n);
		if (!o->quiet)
			wr_bench_say(b, "latency", size, l->rate_millipps, true, "  %u bytes: latency trial %u of %u at %.3f pps "
			       "(offered %.3f): %llu frames timed, lost %llu, "
			       "min %.3f avg %.3f p99 %.3f max %.3f us\n", size,
			       l->n_trials, n, (double)l->rate_millipps / 1e3,
			       (double)t.offered_millipps / 1e3,
			       (unsigned long long)b->lat.n,
			       (unsigned long long)l->lost[l->n_trials - 1],
			       b->lat.min / 1e3, b->lat.avg / 1e3,
			       b->lat.p99 / 1e3, b->lat.max / 1e3);
		if (!o->quiet && b->bidir)
			wr_bench_say(b, "latency", size, l->rate_millipps, false, "  %u bytes: latency trial %u, reverse "
			       "(offered %.3f): %llu frames timed, lost %llu, "
			       "min %.3f avg %.3f p99 %.3f max %.3f us\n", size,
			       rl->n_trials, (double)t.rev_offered_millipps / 1e3,
			       (unsigned long long)b->rev_lat.n,
			       (unsigned long long)rl->lost[rl->n_trials - 1],
			       b->rev_lat.min / 1e3, b->rev_lat.avg / 1e3,
			       b->rev_lat.p99 / 1e3, b->rev_lat.max / 1e3);
	}
	b->lat_hist = NULL;
	b->rev_lat_hist = NULL;
	lat_finish(l, &h[1], jsum);
	lat_finish(rl, &h[3], rjsum);
	free(h);
	return rc;
}

/* The progress line's "about n" (wr_bench_trials_estimate()). */
/* What a test costs at each size, for the ETA: the same for trials of a
 * set length (throughput, latency, loss).  A back-to-back burst is a count
 * of frames (--b2b-trial at the line rate): on a real line it takes
 * --b2b-trial at every size; where the generator is slower than the line
 * (gen, the fastest burst seen) small frames' bursts take longer, but each
 * trial's own cost (loading, starting, the drain) does not grow with them.
 * Measured on config/2ports.yaml (memif, a 10G placeholder line; tools/
 * wr-bench-eta, two runs): 64, 256, 1024, 1518 bytes' back-to-back took
 * 9.1, 6.2, 2.9, 2.5 s and 8.0, 5.7, 2.8, 2.1 s, about the square root of
 * the line's frame rates (1, 0.55, 0.28, 0.23) and far from the rates
 * themselves (1, 0.30, 0.08, 0.05) or the same for all (a mean per size:
 * +48..60 % after the first size). */
static double
eta_weight(const void *ctx, unsigned int phase, uint32_t u)
{
	const struct wr_bench *b = ctx;
	uint64_t line = 0, gen = b->eta_gen_millipps;

	if (phase != 3 || wr_rfc2544_rate_quiet(b, b->sizes[u % b->n_sizes],
						&line) != 0 || line == 0)
		return 1.0;
	return gen != 0 && gen < line ? sqrt((double)line / (double)gen) : 1.0;
}

static void
progress_start(struct wr_bench *b, uint32_t tests)
{
	const struct wr_bench_opts *o = b->o;
	struct wr_bench_plan p;
	uint64_t max = 0, res;

	memset(&p, 0, sizeof(p));
	p.tests = tests;
	p.n_sizes = b->n_sizes;
	p.phases = b->phases;
	p.pdr = o->pdr_ppm != 0;
	p.lat_trials = o->lat_trials ? o->lat_trials :
		       WR_BENCH_LAT_TRIALS_DEFAULT;
	p.loss_step_ppm = o->loss_step_ppm;
	p.b2b_repeats = o->b2b_repeats ? o->b2b_repeats : WR_B2B_REPEATS_DEFAULT;
	p.width_ratio = 1000;  /* the default 0.1 % resolution */
	p.trial_ns = b->trial_ns;
	p.first_trial_ns = b->phases > 1 || o->search == WR_BENCH_SEARCH_MLR ?
			   b->first_trial_ns : 0;
	p.drain_ns = b->drain_ns;
	p.lat_trial_ns = o->lat_trial_ns ? o->lat_trial_ns :
			 120ull * 1000000000ull;  /* latency()'s default */
	p.b2b_trial_ns = o->b2b_trial_ns ? o->b2b_trial_ns : 2000000000ull;
	if (b->n_sizes > 0 &&
	    wr_rfc2544_rate_quiet(b, b->sizes[0], &max) == 0 && max) {
		res = wr_rfc2544_resolution_at(b, max);
		p.width_ratio = res ? max / res : 1;
		/* RFC 2544's 2 s first burst, bisected to single frames */
		p.b2b_ratio = (uint64_t)((unsigned __int128)max *
			(o->b2b_trial_ns ? o->b2b_trial_ns : 2000000000ull) /
			1000000000000ull / (o->b2b_resolution ?
					    o->b2b_resolution : 1));
	}
	if (o->search == WR_BENCH_SEARCH_MLR && (tests & WR_BENCH_TEST_THROUGHPUT)) {
		struct wr_mlr_cfg m = { .n_goals = o->pdr_ppm ? 2 : 1 };
		unsigned int g;

		for (g = 0; g < m.n_goals; g++) {
			m.goals[g].final_ns = b->trial_ns;
			m.goals[g].initial_ns = b->first_trial_ns;
			m.goals[g].sum_ns = o->sum_ns;
			m.goals[g].width_ppm = (uint32_t)(1000000 / p.width_ratio);
			if (m.goals[g].width_ppm == 0)
				m.goals[g].width_ppm = 1;
		}
		m.phases = o->phases > 1 ? o->phases - 1 : 0;
		p.mlr_trials = wr_mlr_trials_estimate(&m);
		b->plan_ns = wr_bench_time_estimate_ns(&p);
		p.tests &= ~WR_BENCH_TEST_THROUGHPUT;
		b->progress_est = wr_bench_trials_estimate(&p) +
				  b->n_sizes * p.mlr_trials;
	} else {
		b->progress_est = wr_bench_trials_estimate(&p);
		b->plan_ns = wr_bench_time_estimate_ns(&p);
	}
	b->progress_done = 0;
	b->progress_bound = true;
	b->progress_t0_ns = wr_bench_mono_ns();
	wr_bench_eta_start(b, b->n_pairs * b->n_sizes, eta_weight);
}

/* Before the first trial: what will run and about how long it takes (RFC
 * 2544's defaults take hours: issue 31 saw 45 s of silence after the
 * header, then a line a trial). */
static void
plan_line(struct wr_bench *b, uint32_t tests)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ WR_BENCH_TEST_THROUGHPUT, "throughput" },
		{ WR_BENCH_TEST_LATENCY, "latency" },
		{ WR_BENCH_TEST_LOSS, "frame loss" },
		{ WR_BENCH_TEST_B2B, "back-to-back" },
	};
	char list[64] = "", sizes[WR_BENCH_SIZES_MAX * 6] = "", when[24];
	size_t at = 0, sat = 0;
	unsigned int i;

	for (i = 0; i < DIM(names); i++)
		if (tests & names[i].bit)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s",
					       at ? ", " : "", names[i].name);
	for (i = 0; i < b->n_sizes && sat < sizeof(sizes); i++)
		sat += (size_t)snprintf(sizes + sat, sizeof(sizes) - sat, "%s%u",
					i ? "," : "", b->sizes[i]);
	wr_bench_duration_text(when, sizeof(when), b->plan_ns);
	wr_bench_line(b, "plan: %s; %u size%s (%s bytes)%s; about %u trials of "
		      "%.3f s and a %.3f s drain each: about %s in all (Ctrl-C "
		      "stops it and writes what was measured)\n", list,
		      b->n_sizes, b->n_sizes == 1 ? "" : "s", sizes,
		      b->n_pairs > 1 ? " on each pair" : "", b->progress_est,
		      (double)b->trial_ns / 1e9, (double)b->drain_ns / 1e9, when);
}

static int
rfc2544_opts(struct wr_bench *b, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;

	b->trial_ns = o->trial_ns ? o->trial_ns : WR_TRIAL_DEFAULT_NS;
	b->drain_ns = o->drain_set ? o->drain_ns : WR_TRIAL_DRAIN_DEFAULT_NS;
	b->tests = o->tests ? o->tests : WR_BENCH_TEST_THROUGHPUT;
	/* RFC 2544 section 26.2: latency runs at the throughput rate, so it
	 * needs the throughput search first. */
	if (b->tests & WR_BENCH_TEST_LATENCY)
		b->tests |= WR_BENCH_TEST_THROUGHPUT;
	if (o->n_pairs > 0) {
		if (o->tx_port_set || o->rx_port_set)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--pairs",
					    "expected either --pairs or "
					    "--tx-port/--rx-port, not both");
		memcpy(b->pairs, o->pairs, sizeof(b->pairs));
		b->n_pairs = o->n_pairs;
	} else if (!o->tx_port_set || !o->rx_port_set) {
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "rfc2544 "
				    "needs --tx-port N and --rx-port N (the same "
				    "port for a loopback), or --pairs A:B,C:D");
	} else {
		b->pairs[0][0] = o->tx_port;
		b->pairs[0][1] = o->rx_port;
		b->n_pairs = 1;
	}
	if (o->pdr_ppm != 0 && o->pdr_ppm <= o->loss_ppm)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--pdr", "expected "
				    "a loss tolerance above --loss-tolerance "
				    "(%.4f %%), got %.4f %%", o->loss_ppm / 1e4,
				    o->pdr_ppm / 1e4);
	if (o->first_trial_ns > b->trial_ns)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--first-trial",
				    "expected at most --trial (%.3f s), got "
				    "%.3f s", (double)b->trial_ns / 1e9,
				    (double)o->first_trial_ns / 1e9);
	if (o->rev_stream != NULL && b->n_pairs == 1 &&
	    b->pairs[0][0] == b->pairs[0][1])
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--reverse-stream",
				    "both directions need two ports (--tx-port "
				    "and --rx-port differ)");
	return 0;
}

static int
rfc2544_prepare(struct wr_bench *b, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	int rc = 0;

	if (o->rev_stream != NULL)
		rc = reverse_prepare(b, err);
	if (rc != 0)
		return rc;
	/* One phase of full-length trials is RFC 2544's search; with a PDR,
	 * MLRsearch's shape: 3 phases from 1 s trials up to --trial. */
	b->phases = o->phases ? o->phases : o->pdr_ppm ? 3 : 1;
	b->first_trial_ns = o->first_trial_ns ? o->first_trial_ns :
			    WR_FIRST_TRIAL_DEFAULT_NS < b->trial_ns ?
			    WR_FIRST_TRIAL_DEFAULT_NS : b->trial_ns;
	if (b->n_pairs * b->n_sizes > WR_BENCH_SIZES_MAX)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--pairs", "%u "
				    "pairs of %u sizes are more than %u results",
				    b->n_pairs, b->n_sizes, WR_BENCH_SIZES_MAX);
	/* Rates that compare without the link, before EAL starts. */
	return rates_check(b, 0, err);
}

/* The options of its own, the stream's checks, then what they allow. */
static int
rfc2544_init(struct wr_bench *b, unsigned int n_ports, struct wr_error *err)
{
	int rc = rfc2544_opts(b, err);

	if (rc != 0)
		return rc;
	/* Every trial counts its loss by signature, through a reflector or
	 * not. */
	b->latency = true;
	rc = wr_bench_init_stream(b, n_ports, err);
	if (rc != 0)
		return rc;
	return rfc2544_prepare(b, err);
}

static int
rfc2544_run(struct wr_bench *b, struct wr_bench_result *r,
	    struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	uint64_t trial = b->trial_ns, drain = b->drain_ns;
	uint32_t tests = b->tests;
	struct wr_rfc2544_row *rows;
	char head[512];
	unsigned int i, k, n = 0;
	uint16_t stopped_in = 0;
	int rc = 0, len;

	/* The others (a percentage against pps) with each TX port's link. */
	for (k = 0; rc == 0 && k < b->n_pairs; k++)
		rc = rates_check(b, wr_engine_port(b->e, b->pairs[k][0])->
				 link_speed_mbps, err);
	if (rc != 0)
		return rc;
	rows = calloc(WR_BENCH_SIZES_MAX, sizeof(*rows));
	if (rows == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	r->rfc = rows;
	b->tx_port = b->pairs[0][0];
	b->rx_port = b->pairs[0][1];
	len = snprintf(head, sizeof(head), "wirerate %s rfc2544: %s, stream %s, "
		       "port %u (%s) -> port %u (%s)%s, trials of %.3f s, drain "
		       "%.3f s, loss tolerance %.4f %%", WR_VERSION, b->f->path,
		       b->f->streams[b->stream].name, b->tx_port,
		       wr_engine_port(b->e, b->tx_port)->device, b->rx_port,
		       wr_engine_port(b->e, b->rx_port)->device,
		       b->n_pairs > 1 ? " and more pairs" : "",
		       (double)trial / 1e9, (double)drain / 1e9,
		       o->loss_ppm / 1e4);
	if (o->pdr_ppm != 0 && len > 0 && (size_t)len < sizeof(head))
		len += snprintf(head + len, sizeof(head) - (size_t)len,
				", PDR at %.4f %%", o->pdr_ppm / 1e4);
	if (o->search == WR_BENCH_SEARCH_MLR && len > 0 &&
	    (size_t)len < sizeof(head))
		len += snprintf(head + len, sizeof(head) - (size_t)len,
				", MLRsearch (RFC 9971) from %.3f s trials, "
				"exceed ratio %.4f %%, duration sum %.3f s",
				(double)b->first_trial_ns / 1e9,
				o->exceed_ppm / 1e4, (double)(o->sum_ns ?
				o->sum_ns : trial) / 1e9);
	else if (b->phases > 1 && len > 0 && (size_t)len < sizeof(head))
		len += snprintf(head + len, sizeof(head) - (size_t)len,
				", %u phases from %.3f s trials", b->phases,
				(double)b->first_trial_ns / 1e9);
	wr_bench_line(b, "%s\n", head);
	progress_start(b, tests);
	b->progress_est *= b->n_pairs;
	b->plan_ns *= b->n_pairs;
	plan_line(b, tests);
	for (k = 0; k < b->n_pairs * b->n_sizes && rc == 0; k++) {
		struct wr_rfc2544_row *row = &rows[n];

		/* Each pair in turn, every size on it (ports already up). */
		i = k % b->n_sizes;
		wr_bench_eta_unit(b, k);
		b->tx_port = b->pairs[k / b->n_sizes][0];
		b->rx_port = b->pairs[k / b->n_sizes][1];
		memset(row, 0, sizeof(*row));
		row->size = b->sizes[i];
		row->tx_port = b->tx_port;
		row->rx_port = b->rx_port;
		/* The share of the line only where there is one (not a
		 * virtual PMD's placeholder speed). */
		row->link_mbps = wr_txlimit_line_mbps(
			wr_engine_port(b->e, b->tx_port)->driver,
			wr_engine_port(b->e, b->tx_port)->link_speed_mbps);
		if (tests & WR_BENCH_TEST_THROUGHPUT) {
			row->cut = b->cur_test = "throughput";
			wr_bench_eta_phase(b, 0);
			rc = search(b, b->sizes[i], trial, drain, row, err);
		}
		if (rc == 0 && (tests & WR_BENCH_TEST_LATENCY)) {
			row->cut = b->cur_test = "latency";
			wr_bench_eta_phase(b, 1);
			rc = latency(b, b->sizes[i], drain, row, err);
		}
		if (rc == 0 && (tests & WR_BENCH_TEST_LOSS)) {
			row->cut = b->cur_test = "loss";
			wr_bench_eta_phase(b, 2);
			rc = frame_loss(b, b->sizes[i], trial, drain, row, err);
		}
		if (rc == 0 && (tests & WR_BENCH_TEST_B2B)) {
			row->cut = b->cur_test = "b2b";
			wr_bench_eta_phase(b, 3);
			rc = back_to_back(b, b->sizes[i], drain, row, err);
		}
		/* Which test a stop cut short, if any: its figures so far are
		 * marked incomplete. */
		if (rc == 0)
			row->cut = NULL;
		b->cur_test = NULL;
		if (rc == -EINTR && b->link_lost) {
			/* The path went away under this size: what its trials
			 * saw (the frames the link took with it) measured no
			 * device, nor would the sizes after it: as a sweep,
			 * they are listed as not measured, and the command
			 * exits 1 (README's exit status). */
			stopped_in = row->size;
			break;
		}
		if (rc == -EINTR)
			stopped_in = row->size;
		if (rc == 0 && k + 1 < b->n_pairs * b->n_sizes) {
			/* The plan counts each search at its longest (5 to 7
			 * times the trials most take: issue 31): once sizes are
			 * done, the rest are counted at the trials they took
			 * on average, and the ETA follows. */
			uint32_t left = b->n_pairs * b->n_sizes - (k + 1);

			wr_bench_eta_unit_done(b);
			b->progress_bound = false;
			b->progress_est = b->progress_done + (uint32_t)
				((uint64_t)b->progress_done * left / (k + 1));
		}
		if (rc == 0 || (rc == -EINTR && (row->n_trials > 0 ||
						 row->has_floss ||
						 row->has_b2b || row->has_lat)))
			n++;
	}
	r->n_rfc = n;
	if (rc != 0 && rc != -EINTR)
		return rc;
	wr_bench_meta(b, &r->m, b->pairs[0][0], wr_bench_stop_reason(b, rc));
	/* The rows not reported, in the order they would have run. */
	for (k = n; k < b->n_pairs * b->n_sizes; k++)
		r->not_measured[r->m.n_not_measured++] =
			b->sizes[k % b->n_sizes];
	r->n_sizes = b->n_pairs * b->n_sizes;
	r->m.not_measured = r->not_measured;
	r->m.stopped_in = rc == -EINTR ? stopped_in : 0;
	r->m.rx_device = wr_engine_port(b->e, b->pairs[0][1])->device;
	r->m.duration_ns = trial;
	r->m.drain_ns = drain;
	r->m.loss_ppm = o->loss_ppm;
	r->m.pdr_ppm = o->pdr_ppm;
	r->m.phases = b->phases;
	r->m.first_trial_ns = b->first_trial_ns;
	r->rc = rc;
	r->link_lost = b->link_lost;
	for (i = 0; i < n; i++)
		if (wr_rfc2544_row_gen_limited(&rows[i]))
			r->gen_limited = true;
	return 0;
}

static void
rfc2544_print(FILE *out, const struct wr_bench_result *r)
{
	wr_rfc2544_print(out, r->rfc, r->n_rfc);
	wr_bench_stop_print(out, &r->m);
}

static int
rfc2544_csv(FILE *out, const struct wr_bench_result *r)
{
	return wr_rfc2544_csv_write(out, r->rfc, r->n_rfc);
}

static int
rfc2544_json(FILE *out, const struct wr_bench_result *r)
{
	return wr_rfc2544_json_write(out, &r->m, r->rfc, r->n_rfc);
}

const struct wr_bench_driver wr_bench_driver_rfc2544 = {
	.name = "rfc2544",
	.init = rfc2544_init,
	.run = rfc2544_run,
	.print = rfc2544_print,
	.csv = rfc2544_csv,
	.json = rfc2544_json,
};

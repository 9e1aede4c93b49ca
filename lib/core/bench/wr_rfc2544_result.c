/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rfc2544_result: RFC 2544's results: verdicts of its rows, its tables, CSV and JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bench_result.h"
#include "wr_bench_result_priv.h"
#include "wr_out.h"
#include "wr_rate.h"
#include "wr_stats.h"

bool
wr_rfc2544_row_gen_limited(const struct wr_rfc2544_row *r)
{
	/* A search a signal stopped is no result, limited or not. */
	return (r->has_throughput && !(r->cut != NULL &&
				       strcmp(r->cut, "throughput") == 0) &&
		(r->res.ndr.gen_limited ||
				      (r->res.has_pdr &&
				       r->res.pdr.gen_limited))) ||
	       (r->has_b2b && (r->b2b.gen_limited ||
			       (r->bidir && r->rev_b2b.gen_limited)));
}

/* The words every output uses for a generator-limited result. */
#define GEN_LIMIT_TEXT "the device lost nothing; the generator could not offer more"

/* A rate of a row in pps, Mbps L1, Mbps L2 and % of the line. */
static void
rate_figures(const struct wr_rfc2544_row *r, const struct wr_rfc2544_rate *x,
	     double *pps, double *l1, double *l2, double *pct)
{
	*pps = (double)x->millipps / 1e3;
	*l1 = (double)x->l1_bps / 1e6;
	*l2 = (double)x->l2_bps / 1e6;
	*pct = r->link_mbps ? *l1 / r->link_mbps * 100 : 0;
}

/* The trial that ended a target generator-limited: the last counted one
 * that passed it at a rate the generator did not offer; NULL if none. */
static const struct wr_bench_trial *
gen_trial(const struct wr_rfc2544_row *r, bool pdr)
{
	unsigned int j;

	for (j = r->n_trials; j-- > 0;) {
		const struct wr_bench_trial *t = &r->trials[j];

		if (t->counted && t->short_offer && (pdr ? t->pdr_pass : t->pass))
			return t;
	}
	return NULL;
}

uint64_t
wr_rfc2544_row_passed_millipps(const struct wr_rfc2544_row *r, bool pdr)
{
	uint64_t best = 0, v;
	unsigned int j;

	for (j = 0; j < r->n_trials; j++) {
		const struct wr_bench_trial *t = &r->trials[j];

		if (!t->counted || t->short_offer || !(pdr ? t->pdr_pass : t->pass))
			continue;
		v = t->offered_millipps < t->rate_millipps ? t->offered_millipps :
		    t->rate_millipps;
		if (v > best)
			best = v;
	}
	return best;
}

/* The throughput search of this row was stopped by a signal. */
static bool
search_cut(const struct wr_rfc2544_row *r)
{
	return r->cut != NULL && strcmp(r->cut, "throughput") == 0;
}

static void
print_rates(FILE *out, const char *title, const struct wr_rfc2544_row *rows,
	    unsigned int n, bool pdr)
{
	double pps, l1, l2, pct;
	unsigned int i;
	char p[32];

	fprintf(out, "\n%s\n%10s %14s %12s %12s %10s %7s\n", title,
		"frame size", "pps", "Mbps L1", "Mbps L2", "% of line",
		"trials");
	for (i = 0; i < n; i++) {
		const struct wr_rfc2544_rate *x = pdr ? &rows[i].res.pdr :
						  &rows[i].res.ndr;

		if (!rows[i].has_throughput)
			continue;
		if (i > 0 && (rows[i].tx_port != rows[i - 1].tx_port ||
			      rows[i].rx_port != rows[i - 1].rx_port))
			fprintf(out, "port %u -> port %u\n", rows[i].tx_port,
				rows[i].rx_port);
		else if (i == 0 && n > 1 &&
			 (rows[n - 1].tx_port != rows[0].tx_port ||
			  rows[n - 1].rx_port != rows[0].rx_port))
			fprintf(out, "port %u -> port %u\n", rows[0].tx_port,
				rows[0].rx_port);
		if (search_cut(&rows[i])) {
			uint64_t v = wr_rfc2544_row_passed_millipps(&rows[i],
								    pdr);

			if (v != 0)
				fprintf(out, "%10u >= %.3f pps: incomplete, stopped "
					"by a signal after %u trials (the highest "
					"rate passed so far)\n", rows[i].size,
					(double)v / 1e3, rows[i].n_trials);
			else
				fprintf(out, "%10u incomplete, stopped by a signal "
					"after %u trials: no rate passed yet\n",
					rows[i].size, rows[i].n_trials);
			continue;
		}
		if (x->gen_limited) {
			const struct wr_bench_trial *t = gen_trial(&rows[i], pdr);
			char why[160] = "";

			if (t != NULL)
				wr_bench_trial_short_by(t, why, sizeof(why));
			fprintf(out, "%10u >= %.3f pps: " GEN_LIMIT_TEXT
				"%s%s%s (%u trials)\n", rows[i].size,
				(double)x->gen_millipps / 1e3, why[0] ? " (" : "",
				why, why[0] ? ")" : "", rows[i].n_trials);
			continue;
		}
		rate_figures(&rows[i], x, &pps, &l1, &l2, &pct);
		wr_bench_pct_text(pct, rows[i].link_mbps != 0, p, sizeof(p));
		fprintf(out, "%10u %14.3f %12.3f %12.3f %10s %7u%s\n",
			rows[i].size, pps, l1, l2, p, rows[i].n_trials,
			rows[i].res.converged ? "" : "  (not converged)");
	}
}

static const char *
verdict(bool pass, const struct wr_bench_trial *t)
{
	if (!t->counted)
		return "redo";
	if (t->short_offer && pass)
		return "short";
	return pass ? "pass" : "fail";
}

static void
print_floss(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, j;

	fprintf(out, "\nRFC 2544 frame loss rate\n%10s %7s %14s %14s %14s "
		"%14s %10s\n", "frame size", "% rate", "rate pps",
		"offered pps", "sent", "received", "loss %");
	for (i = 0; i < n; i++) {
		const struct wr_floss *f = &rows[i].floss;

		if (!rows[i].has_floss)
			continue;
		for (j = 0; j < f->n_steps; j++) {
			const struct wr_floss_step *st = &f->steps[j];

			fprintf(out, "%10u %7.2f %14.3f %14.3f %14llu %14llu "
				"%10.4f", rows[i].size, st->pct_ppm / 1e4,
				(double)st->rate_millipps / 1e3,
				(double)st->offered_millipps / 1e3,
				(unsigned long long)st->sent,
				(unsigned long long)st->received, st->loss_pct);
			if (st->bidir)
				fprintf(out, "  reverse: sent %llu, received "
					"%llu, loss %.4f %%",
					(unsigned long long)st->rev_sent,
					(unsigned long long)st->rev_received,
					st->rev_loss_pct);
			fprintf(out, "%s\n", st->short_offer ? "  (short: the "
				"loss is at the rate offered)" : "");
		}
	}
}

/* One direction's back-to-back line. */
static void
print_b2b_line(FILE *out, const struct wr_rfc2544_row *row,
	       const struct wr_b2b *b2b, uint64_t offered_min, const char *dir)
{
	struct wr_b2b_result r;

	wr_b2b_result(b2b, &r);
	if (r.n > 0)
		fprintf(out, "%10u %8s %14s %14.3f %8u %12llu %14.3f %12llu",
			row->size, dir, row->b2b_rate_millipps ? "" : "max",
			(double)offered_min / 1e3, r.n,
			(unsigned long long)r.min, r.avg,
			(unsigned long long)r.max);
	else
		fprintf(out, "%10u %8s %14s %14.3f %8u %12s %14s %12s",
			row->size, dir, row->b2b_rate_millipps ? "" : "max",
			(double)offered_min / 1e3, r.n, "-", "-", "-");
	if (row->b2b_rate_millipps)
		fprintf(out, "  at %.3f pps",
			(double)row->b2b_rate_millipps / 1e3);
	if (r.n_at_max)
		fprintf(out, "  (%u repeats forwarded the whole first "
			"burst: at least that)", r.n_at_max);
	if (r.gen_limited) {
		char why[160];

		fprintf(out, "\n%10s %8s generator-limited: a burst of %llu "
			"frames not offered at %.3f pps was forwarded whole: "
			"no result from it on (%u of %u repeats measured)", "",
			"", (unsigned long long)r.gen_burst,
			(double)row->b2b_asked_millipps / 1e3, r.n,
			b2b->cfg.repeats);
		if (b2b == &row->b2b) {
			wr_txlimit_of(&row->b2b_gen_tx, why, sizeof(why));
			fprintf(out, "\n%10s %8s it went out at %.3f pps: %s",
				"", "", (double)row->b2b_gen_offered / 1e3, why);
		}
	}
	fputc('\n', out);
}

static void
print_b2b(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i;

	fprintf(out, "\nRFC 2544 back-to-back (frames in the longest lossless "
		"burst)\n%10s %8s %14s %14s %8s %12s %14s %12s\n", "frame size",
		"dir", "rate pps", "min offered", "repeats", "min", "avg", "max");
	for (i = 0; i < n; i++) {
		if (!rows[i].has_b2b)
			continue;
		print_b2b_line(out, &rows[i], &rows[i].b2b,
			       rows[i].b2b_offered_min, "tx->rx");
		if (rows[i].bidir)
			print_b2b_line(out, &rows[i], &rows[i].rev_b2b,
				       rows[i].rev_b2b_offered_min, "rx->tx");
	}
}

static void
print_lat_line(FILE *out, uint16_t size, const char *which,
	       const struct wr_latency_summary *l)
{
	fprintf(out, "%10u %7s %10llu %10.3f %10.3f %10.3f %10.3f %10.3f "
		"%10.3f %10.3f %10.3f\n", size, which, (unsigned long long)l->n,
		l->min / 1e3, l->avg / 1e3, l->max / 1e3, l->p50 / 1e3,
		l->p99 / 1e3, l->p999 / 1e3, l->p9999 / 1e3,
		l->jitter_ns / 1e3);
}

/* One direction's latency lines. */
static void
print_lat_dir(FILE *out, uint16_t size, const struct wr_bench_lat *l,
	      const char *dir)
{
	unsigned int j;
	char k[16];

	if (l->skipped != NULL) {
		fprintf(out, "%10u   %sno trial: %s\n", size, dir, l->skipped);
		return;
	}
	for (j = 0; j < l->n_trials; j++) {
		snprintf(k, sizeof(k), "%u%s", j + 1,
			 l->short_offer[j] ? "*" : "");
		print_lat_line(out, size, k, &l->trial[j]);
	}
	print_lat_line(out, size, "all", &l->overall);
	fprintf(out, "%10s %sat %s%.3f pps; jitter: RFC 3550's per trial, "
		"\"all\" the trials' mean (max %.3f us); *: the "
		"generator offered less than the rate\n", "", dir,
		l->rate_at_least ? "the generator's " : "",
		(double)l->rate_millipps / 1e3, l->jitter_max_ns / 1e3);
}

static void
print_lat(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i;

	fprintf(out, "\nRFC 2544 latency (us), every frame timed, at the "
		"throughput\n%10s %7s %10s %10s %10s %10s %10s %10s %10s %10s "
		"%10s\n", "frame size", "trial", "frames", "min", "avg", "max",
		"p50", "p99", "p99.9", "p99.99", "jitter");
	for (i = 0; i < n; i++) {
		if (!rows[i].has_lat)
			continue;
		print_lat_dir(out, rows[i].size, &rows[i].lat,
			      rows[i].bidir ? "tx->rx: " : "");
		if (rows[i].bidir)
			print_lat_dir(out, rows[i].size, &rows[i].rev_lat,
				      "rx->tx: ");
	}
}

/* A rate in pps, or null when there is none. */
static void
json_pps_or_null(FILE *out, bool has, uint64_t millipps)
{
	if (has)
		fprintf(out, "%.3f", (double)millipps / 1e3);
	else
		fputs("null", out);
}

/* MLRsearch's goals: each one's relevant bounds and conditional
 * throughput (RFC 9971 section 4.7), regular or not. */
static void
print_mlr(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, g;
	bool any = false;

	for (i = 0; i < n; i++)
		any |= rows[i].mlr;
	if (!any)
		return;
	fprintf(out, "\nMLRsearch goals (RFC 9971): loss ratio, exceed ratio, "
		"final trial s, duration sum s, width; relevant lower and upper "
		"bound pps, conditional throughput pps\n");
	for (i = 0; i < n; i++)
		for (g = 0; rows[i].mlr && g < rows[i].n_goals; g++) {
			const struct wr_mlr_goal *x = &rows[i].goals[g];
			const struct wr_mlr_result *r = &rows[i].mlr_res[g];
			char lo[32] = "-", hi[32] = "-";

			if (r->has_lower)
				snprintf(lo, sizeof(lo), "%.3f",
					 (double)r->lower / 1e3);
			if (r->has_upper)
				snprintf(hi, sizeof(hi), "%.3f",
					 (double)r->upper / 1e3);
			fprintf(out, "%10u %s %.4f %% %.1f %% %.3f %.3f %.4f %%: "
				"%s .. %s, %.3f%s\n", rows[i].size,
				g == 0 ? "NDR" : "PDR", x->loss_ppm / 1e4,
				x->exceed_ppm / 1e4, (double)x->final_ns / 1e9,
				(double)x->sum_ns / 1e9, x->width_ppm / 1e4, lo,
				hi, r->conditional_pps, r->regular ? "" :
				r->max_is_lower ? " (irregular: nothing up to "
				"the maximum failed)" : r->min_is_upper ?
				" (irregular: even the minimum failed)" :
				" (irregular: not narrowed to the width)");
		}
}

/* A row's MLRsearch goals and results, after its trials in the JSON. */
static void
json_mlr(FILE *out, const struct wr_rfc2544_row *r)
{
	unsigned int g;

	if (!r->mlr)
		return;
	fputs(", \"search\": \"mlrsearch\", \"mlr_goals\": [", out);
	for (g = 0; g < r->n_goals; g++) {
		const struct wr_mlr_goal *x = &r->goals[g];
		const struct wr_mlr_result *m = &r->mlr_res[g];

		fprintf(out, "%s{\"loss_ratio_pct\": %.4f, \"exceed_ratio_pct\": "
			"%.4f, \"final_trial_s\": %.9f, \"initial_trial_s\": "
			"%.9f, \"duration_sum_s\": %.9f, \"width_pct\": %.4f, "
			"\"regular\": %s, \"relevant_lower_pps\": ", g ? ", " : "",
			x->loss_ppm / 1e4, x->exceed_ppm / 1e4,
			(double)x->final_ns / 1e9, (double)x->initial_ns / 1e9,
			(double)x->sum_ns / 1e9, x->width_ppm / 1e4,
			m->regular ? "true" : "false");
		json_pps_or_null(out, m->has_lower, m->lower);
		fputs(", \"relevant_upper_pps\": ", out);
		json_pps_or_null(out, m->has_upper, m->upper);
		fprintf(out, ", \"conditional_throughput_pps\": %.3f, "
			"\"max_is_lower\": %s, \"min_is_upper\": %s, "
			"\"short_offer\": %s}", m->conditional_pps,
			m->max_is_lower ? "true" : "false",
			m->min_is_upper ? "true" : "false",
			m->short_offer ? "true" : "false");
	}
	fputc(']', out);
}

/* Rows whose tests a signal stopped: what their figures are. */
static void
print_cut(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rows[i].cut != NULL)
			fprintf(out, "incomplete: %u bytes (port %u -> port %u): a "
				"signal stopped its %s test; its figures are the "
				"trials measured before\n", rows[i].size,
				rows[i].tx_port, rows[i].rx_port, rows[i].cut);
}

void
wr_rfc2544_print(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	bool pdr = n > 0 && rows[0].res.has_pdr;
	bool tp = false, fl = false, bb = false, lt = false;
	unsigned int i, j;
	char title[96];

	for (i = 0; i < n; i++) {
		tp |= rows[i].has_throughput;
		fl |= rows[i].has_floss;
		bb |= rows[i].has_b2b;
		lt |= rows[i].has_lat;
	}
	if (lt)
		print_lat(out, rows, n);
	if (fl)
		print_floss(out, rows, n);
	if (bb)
		print_b2b(out, rows, n);
	if (!tp) {
		print_cut(out, rows, n);
		fflush(out);
		return;
	}
	print_rates(out, pdr ? "RFC 2544 throughput (NDR)" :
		    "RFC 2544 throughput", rows, n, false);
	if (pdr) {
		snprintf(title, sizeof(title), "PDR (loss at most %.4f %%)",
			 rows[0].res.pdr.loss_ppm / 1e4);
		print_rates(out, title, rows, n, true);
	}
	fprintf(out, "\ntrials\n%10s %5s %5s %9s %14s %14s %14s %12s %12s %6s%s "
		"%8s\n", "frame size", "#", "phase", "length s", "rate pps",
		"sent", "received", "lost", "offered pps", "result",
		pdr ? "    PDR" : "", "short by");
	for (i = 0; i < n; i++)
		for (j = 0; j < rows[i].n_trials; j++) {
			const struct wr_bench_trial *t = &rows[i].trials[j];

			fprintf(out, "%10u %5u %5u %9.3f %14.3f %14llu %14llu "
				"%12lld %12.0f %6s", rows[i].size, j + 1,
				t->phase + 1, (double)t->trial_ns / 1e9,
				(double)t->rate_millipps / 1e3,
				(unsigned long long)t->sent,
				(unsigned long long)t->received,
				(long long)(t->sent - t->received),
				(double)t->offered_millipps / 1e3,
				verdict(t->pass, t));
			if (pdr)
				fprintf(out, " %6s", verdict(t->pdr_pass, t));
			{
				const char *by = wr_bench_trial_short_by(t, NULL,
									 0);

				fprintf(out, " %8s", by ? by : "");
			}
			if (t->bidir)
				fprintf(out, "  reverse: sent %llu, received "
					"%llu, lost %lld",
					(unsigned long long)t->rev_sent,
					(unsigned long long)t->rev_received,
					(long long)(t->rev_sent - t->rev_received));
			fputc('\n', out);
		}
	print_mlr(out, rows, n);
	fprintf(out, "short: the generator offered less than the rate asked "
		"(by more than the resolution) and the device lost nothing: "
		"no figure for the device at that rate; short by: what held "
		"the generator (port: the TX port did not take frames faster; "
		"cpu: the TX lcore's CPU; pacer: the schedule)\n");
	print_cut(out, rows, n);
	fflush(out);
}

/* CSV columns of one rate: pps, Mbps L1, Mbps L2, % of line, limited_by,
 * at_least_pps; a generator-limited rate leaves the first four empty. */
static void
csv_rate(FILE *out, const struct wr_rfc2544_row *r,
	 const struct wr_rfc2544_rate *x)
{
	double pps, l1, l2, pct;
	char p[32] = "";

	if (search_cut(r)) {
		uint64_t v = wr_rfc2544_row_passed_millipps(r, x == &r->res.pdr);

		fputs(",,,,incomplete,", out);
		if (v != 0)
			fprintf(out, "%.3f", (double)v / 1e3);
		return;
	}
	if (x->gen_limited) {
		fprintf(out, ",,,,generator,%.3f", (double)x->gen_millipps / 1e3);
		return;
	}
	rate_figures(r, x, &pps, &l1, &l2, &pct);
	if (r->link_mbps != 0)
		snprintf(p, sizeof(p), "%.4f", pct);
	fprintf(out, "%.3f,%.6f,%.6f,%s,device,", pps, l1, l2, p);
}

int
wr_rfc2544_csv_write(FILE *out, const struct wr_rfc2544_row *rows,
		     unsigned int n)
{
	bool pdr = n > 0 && rows[0].res.has_pdr;
	unsigned int i;

	fputs("frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,limited_by,"
	      "at_least_pps,trials,converged", out);
	if (pdr)
		fputs(",pdr_pps,pdr_mbps_l1,pdr_mbps_l2,pdr_line_pct,"
		      "pdr_limited_by,pdr_at_least_pps,pdr_loss_pct", out);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		if (!rows[i].has_throughput)
			continue;
		fprintf(out, "%u,", rows[i].size);
		csv_rate(out, &rows[i], &rows[i].res.ndr);
		fprintf(out, ",%u,%s", rows[i].n_trials,
			rows[i].res.converged ? "true" : "false");
		if (pdr) {
			fputc(',', out);
			csv_rate(out, &rows[i], &rows[i].res.pdr);
			fprintf(out, ",%.4f", rows[i].res.pdr.loss_ppm / 1e4);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static void
json_str_or_null(FILE *out, const char *s)
{
	if (s != NULL)
		wr_out_json_str(out, s);
	else
		fputs("null", out);
}

/* A trial's TX evidence and what held it short, as JSON members. */
static void
json_trial_tx(FILE *out, const struct wr_bench_trial *t)
{
	char why[160];
	const char *by = wr_bench_trial_short_by(t, why, sizeof(why));

	fprintf(out, "\"tx_full\": %llu, \"alloc_fail\": %llu, ",
		(unsigned long long)t->tx.tx_full,
		(unsigned long long)t->tx.alloc_fail);
	wr_bench_json_usage(out, &t->tx.usage);
	fputs(", \"short_by\": ", out);
	json_str_or_null(out, by);
	fputs(", \"limit_detail\": ", out);
	json_str_or_null(out, by ? why : NULL);
}

/* JSON members of one rate (no braces). */
static void
json_rate(FILE *out, const struct wr_rfc2544_row *r,
	  const struct wr_rfc2544_rate *x, const char *pps_key)
{
	double pps, l1, l2, pct;
	char p[32] = "null";

	if (search_cut(r)) {
		uint64_t v = wr_rfc2544_row_passed_millipps(r, x == &r->res.pdr);

		fprintf(out, "\"%s\": null, \"mbps_l1\": null, \"mbps_l2\": "
			"null, \"line_pct\": null, \"limited_by\": "
			"\"incomplete\", \"at_least_pps\": ", pps_key);
		if (v != 0)
			fprintf(out, "%.3f", (double)v / 1e3);
		else
			fputs("null", out);
		fputs(", \"note\": \"stopped by a signal: the search had not "
		      "ended; at_least_pps is the highest rate passed so far\"",
		      out);
		return;
	}
	if (x->gen_limited) {
		const struct wr_bench_trial *t = gen_trial(r, x == &r->res.pdr);
		char why[160] = "";
		const char *by = t ? wr_bench_trial_short_by(t, why,
							      sizeof(why)) : NULL;

		fprintf(out, "\"%s\": null, \"mbps_l1\": null, \"mbps_l2\": "
			"null, \"line_pct\": null, \"limited_by\": "
			"\"generator\", \"at_least_pps\": %.3f, \"note\": \""
			GEN_LIMIT_TEXT "\", \"generator_limit\": ", pps_key,
			(double)x->gen_millipps / 1e3);
		json_str_or_null(out, by);
		fputs(", \"generator_limit_detail\": ", out);
		json_str_or_null(out, by ? why : NULL);
		return;
	}
	rate_figures(r, x, &pps, &l1, &l2, &pct);
	if (r->link_mbps != 0)
		snprintf(p, sizeof(p), "%.4f", pct);
	fprintf(out, "\"%s\": %.3f, \"mbps_l1\": %.6f, \"mbps_l2\": %.6f, "
		"\"line_pct\": %s, \"limited_by\": \"device\", "
		"\"at_least_pps\": null", pps_key, pps, l1, l2, p);
}

/* "frame_loss": {...} or null, and a comma. */
static void
json_floss(FILE *out, const struct wr_rfc2544_row *r)
{
	const struct wr_floss *f = &r->floss;
	uint32_t j;

	if (!r->has_floss) {
		fputs("\"frame_loss\": null, ", out);
		return;
	}
	fprintf(out, "\"frame_loss\": {\"max_rate_pps\": %.3f, \"step_pct\": "
		"%.4f, \"stopped_clean\": %s, \"steps\": [",
		(double)f->cfg.max_millipps / 1e3, f->cfg.step_ppm / 1e4,
		f->stopped_clean ? "true" : "false");
	for (j = 0; j < f->n_steps; j++) {
		const struct wr_floss_step *st = &f->steps[j];

		fprintf(out, "%s\n      {\"rate_pct\": %.4f, \"rate_pps\": %.3f, "
			"\"offered_pps\": %.3f, \"short_offer\": %s, "
			"\"sent\": %llu, \"received\": %llu, \"lost\": %llu, "
			"\"excess\": %llu, \"loss_pct\": %.6f, \"reverse\": ",
			j ? "," : "",
			st->pct_ppm / 1e4, (double)st->rate_millipps / 1e3,
			(double)st->offered_millipps / 1e3,
			st->short_offer ? "true" : "false",
			(unsigned long long)st->sent,
			(unsigned long long)st->received,
			(unsigned long long)st->lost,
			(unsigned long long)st->excess, st->loss_pct);
		if (st->bidir)
			fprintf(out, "{\"sent\": %llu, \"received\": %llu, "
				"\"lost\": %llu, \"loss_pct\": %.6f}}",
				(unsigned long long)st->rev_sent,
				(unsigned long long)st->rev_received,
				(unsigned long long)st->rev_lost, st->rev_loss_pct);
		else
			fputs("null}", out);
	}
	fputs("]}, ", out);
}

static void
json_lat_summary(FILE *out, const struct wr_latency_summary *l)
{
	fputc('{', out);
	wr_latency_json_write(out, l, WR_LAT_JSON_NS);
	fprintf(out, ", \"jitter_ns\": %.3f", l->jitter_ns);
}

/* "latency": {...} or null, and a comma. */
static void
json_lat(FILE *out, const char *key, bool has, const struct wr_bench_lat *l)
{
	uint32_t j;

	if (!has) {
		fprintf(out, "\"%s\": null, ", key);
		return;
	}
	fprintf(out, "\"%s\": {\"skipped\": ", key);
	if (l->skipped != NULL)
		wr_out_json_str(out, l->skipped);
	else
		fputs("null", out);
	fprintf(out, ", \"rate_pps\": %.3f, \"rate_at_least\": %s, "
		"\"trials\": [", (double)l->rate_millipps / 1e3,
		l->rate_at_least ? "true" : "false");
	for (j = 0; j < l->n_trials; j++) {
		fputs(j ? ",\n      " : "\n      ", out);
		json_lat_summary(out, &l->trial[j]);
		fprintf(out, ", \"sent\": %llu, \"lost\": %llu, "
			"\"offered_pps\": %.3f, \"short_offer\": %s}",
			(unsigned long long)l->sent[j],
			(unsigned long long)l->lost[j],
			(double)l->offered[j] / 1e3,
			l->short_offer[j] ? "true" : "false");
	}
	fputs("], \"overall\": ", out);
	if (l->n_trials > 0) {
		json_lat_summary(out, &l->overall);
		fprintf(out, ", \"jitter_max_ns\": %.3f}", l->jitter_max_ns);
	} else {
		fputs("null", out);
	}
	fputs("}, ", out);
}

/* "back_to_back": {...} or null, and a comma. */
static void
json_b2b(FILE *out, const char *key, bool has, const struct wr_rfc2544_row *r,
	 const struct wr_b2b *b2b, uint64_t offered_min)
{
	struct wr_b2b_result res;
	uint32_t j;

	if (!has) {
		fprintf(out, "\"%s\": null, ", key);
		return;
	}
	wr_b2b_result(b2b, &res);
	fprintf(out, "\"%s\": {\"rate_pps\": ", key);
	json_pps_or_null(out, r->b2b_rate_millipps != 0, r->b2b_rate_millipps);
	fputs(", \"asked_rate_pps\": ", out);
	json_pps_or_null(out, r->b2b_asked_millipps != 0,
			 r->b2b_asked_millipps);
	fprintf(out, ", \"min_offered_pps\": %.3f, \"first_burst\": %llu, "
		"\"resolution_frames\": %llu, \"repeats\": %u, \"bursts\": "
		"%llu, ", (double)offered_min / 1e3,
		(unsigned long long)b2b->cfg.max_frames,
		(unsigned long long)b2b->cfg.resolution_frames, res.n,
		(unsigned long long)r->b2b_bursts);
	if (res.n > 0)
		fprintf(out, "\"min\": %llu, \"avg\": %.3f, \"max\": %llu, ",
			(unsigned long long)res.min, res.avg,
			(unsigned long long)res.max);
	else
		fputs("\"min\": null, \"avg\": null, \"max\": null, ", out);
	fprintf(out, "\"generator_limited\": %s, \"generator_burst\": ",
		res.gen_limited ? "true" : "false");
	if (res.gen_limited) {
		char why[160] = "";
		bool fwd = b2b == &r->b2b;

		if (fwd)
			wr_txlimit_of(&r->b2b_gen_tx, why, sizeof(why));
		fprintf(out, "%llu, \"generator_offered_pps\": ",
			(unsigned long long)res.gen_burst);
		if (fwd)
			fprintf(out, "%.3f", (double)r->b2b_gen_offered / 1e3);
		else
			fputs("null", out);
		fputs(", \"generator_limit\": ", out);
		json_str_or_null(out, fwd ? wr_txlimit_name(
			wr_txlimit_of(&r->b2b_gen_tx, NULL, 0)) : NULL);
		fputs(", \"generator_limit_detail\": ", out);
		json_str_or_null(out, fwd ? why : NULL);
	} else {
		fputs("null, \"generator_offered_pps\": null, "
		      "\"generator_limit\": null, \"generator_limit_detail\": "
		      "null", out);
	}
	fprintf(out, ", \"at_first_burst\": %u, \"values\": [", res.n_at_max);
	for (j = 0; j < res.n; j++)
		fprintf(out, "%s%llu", j ? ", " : "",
			(unsigned long long)res.values[j]);
	fputs("], \"trials_per_repeat\": [", out);
	for (j = 0; j < res.n; j++)
		fprintf(out, "%s%u", j ? ", " : "", b2b->trials_per[j]);
	fputs("]}, ", out);
}

int
wr_rfc2544_json_write(FILE *out, const struct wr_bench_meta *m,
		      const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, j;

	wr_bench_json_meta(out, "wirerate-rfc2544/1", m);
	wr_bench_json_key_str(out, "rx_device", m->rx_device);
	fprintf(out, ",\n  \"trial_s\": %.9f, \"drain_s\": %.9f, "
		"\"loss_tolerance_pct\": %.4f, \"pdr_loss_tolerance_pct\": ",
		(double)m->duration_ns / 1e9, (double)m->drain_ns / 1e9,
		m->loss_ppm / 1e4);
	if (m->pdr_ppm != 0)
		fprintf(out, "%.4f", m->pdr_ppm / 1e4);
	else
		fputs("null", out);
	fprintf(out, ", \"phases\": %u, \"first_trial_s\": %.9f, "
		"\"max_rate_pps\": %.3f,\n  \"results\": [",
		m->phases ? m->phases : 1, (double)m->first_trial_ns / 1e9,
		(double)m->max_millipps / 1e3);
	for (i = 0; i < n; i++) {
		const struct wr_rfc2544_row *r = &rows[i];

		fprintf(out, "%s\n    {\"frame_size\": %u, \"tx_port\": %u, "
			"\"rx_port\": %u, \"incomplete\": ", i ? "," : "",
			r->size, r->tx_port, r->rx_port);
		json_str_or_null(out, r->cut);
		fputs(", ", out);
		json_floss(out, r);
		json_b2b(out, "back_to_back", r->has_b2b, r, &r->b2b,
			 r->b2b_offered_min);
		json_b2b(out, "back_to_back_reverse", r->has_b2b && r->bidir,
			 r, &r->rev_b2b, r->rev_b2b_offered_min);
		json_lat(out, "latency", r->has_lat, &r->lat);
		json_lat(out, "latency_reverse", r->has_lat && r->bidir,
			 &r->rev_lat);
		if (!r->has_throughput) {
			fputs("\"throughput_pps\": null, \"limited_by\": null, "
			      "\"pdr\": null, \"trials\": []}", out);
			continue;
		}
		json_rate(out, r, &r->res.ndr, "throughput_pps");
		fputs(", \"pdr\": ", out);
		if (r->res.has_pdr) {
			fprintf(out, "{\"loss_tolerance_pct\": %.4f, ",
				r->res.pdr.loss_ppm / 1e4);
			json_rate(out, r, &r->res.pdr, "pps");
			fputc('}', out);
		} else {
			fputs("null", out);
		}
		fprintf(out, ", \"resolution_pps\": %.3f, \"converged\": %s, "
			"\"trials\": [", (double)r->res.resolution_millipps / 1e3,
			r->res.converged ? "true" : "false");
		for (j = 0; j < r->n_trials; j++) {
			const struct wr_bench_trial *t = &r->trials[j];

			fprintf(out, "%s\n      {\"rate_pps\": %.3f, "
				"\"phase\": %u, \"trial_s\": %.9f, "
				"\"offered_pps\": %.3f, \"short_offer\": %s, "
				"\"sent\": "
				"%llu, \"received\": %llu, \"lost\": %lld, "
				"\"duration_s\": %.9f, \"pacer_skipped\": %llu, "
				"\"rx_frames\": %llu, \"rx_nic_pkts\": %llu, "
				"\"rx_nic_missed\": %llu, \"valid\": %s, "
				"\"counted\": %s, \"pass\": %s, "
				"\"pdr_pass\": %s, ", j ? "," : "",
				(double)t->rate_millipps / 1e3, t->phase,
				(double)t->trial_ns / 1e9,
				(double)t->offered_millipps / 1e3,
				t->short_offer ? "true" : "false",
				(unsigned long long)t->sent,
				(unsigned long long)t->received,
				(long long)(t->sent - t->received),
				(double)t->duration_ns / 1e9,
				(unsigned long long)t->pacer_skipped,
				(unsigned long long)t->rx_frames,
				(unsigned long long)t->rx_nic_pkts,
				(unsigned long long)t->rx_nic_missed,
				t->valid ? "true" : "false",
				t->counted ? "true" : "false",
				t->pass ? "true" : "false",
				r->res.has_pdr ? (t->pdr_pass ? "true" :
						  "false") : "null");
			json_trial_tx(out, t);
			fputs(", \"reverse\": ", out);
			if (t->bidir)
				fprintf(out, "{\"sent\": %llu, \"received\": "
					"%llu, \"lost\": %lld, \"offered_pps\": "
					"%.3f}}", (unsigned long long)t->rev_sent,
					(unsigned long long)t->rev_received,
					(long long)(t->rev_sent - t->rev_received),
					(double)t->rev_offered_millipps / 1e3);
			else
				fputs("null}", out);
		}
		fputc(']', out);
		json_mlr(out, r);
		fputc('}', out);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_opts: a benchmark's options from their text, one parser for the command line and bench.start. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bench_opts.h"
#include "wr_config.h"
#include "wr_parse.h"
#include "wr_rtt_result.h"

const char *const wr_bench_opt_names[] = {
	"b2b-repeats", "b2b-resolution", "b2b-trial", "burst", "count",
	"drain", "duration", "duration-sum", "exceed-ratio", "first-trial",
	"latency-trial", "latency-trials", "loss-step", "loss-tolerance",
	"max-rate", "min-rate", "pairs", "pdr", "phases", "repeat",
	"resolution", "reverse-stream", "rx-port", "search", "sizes", "stream",
	"tests", "timeout", "trial", "tx-port", NULL,
};

static int
bad(struct wr_error *err, const char *name, const char *val, const char *why)
{
	char opt[48];

	snprintf(opt, sizeof(opt), "--%s", name);
	return wr_error_set(err, -EINVAL, NULL, 0, 0, opt, "%s, got \"%s\"",
			    why, val);
}

/* A duration above 0 into @p ns; @return 0 or the error. */
static int
duration(struct wr_error *err, const char *name, const char *val,
	 uint64_t *ns, const char *why)
{
	char w[WR_PARSE_WHY_MAX];

	uint64_t v;

	if (wr_parse_duration_ns(val, &v, w, sizeof(w)) || v == 0)
		return bad(err, name, val, why);
	*ns = v;
	return 0;
}

static int
u64_in(struct wr_error *err, const char *name, const char *val, uint64_t lo,
       uint64_t hi, uint64_t *v, const char *why)
{
	char w[WR_PARSE_WHY_MAX];
	uint64_t x;

	if (wr_parse_u64(val, lo, hi, &x, w, sizeof(w)))
		return bad(err, name, val, why);
	*v = x;
	return 0;
}

/* A percentage of lo..hi parts per million into @p ppm; @p why NULL: the
 * parser's own words.  Like the helpers above, a refused value leaves the
 * option as it was. */
static int
ppm_in(struct wr_error *err, const char *name, const char *val, uint32_t lo,
       uint32_t hi, uint32_t *ppm, const char *why)
{
	char w[WR_PARSE_WHY_MAX];
	uint32_t x;

	if (wr_bench_parse_ppm(val, &x, w, sizeof(w)))
		return bad(err, name, val, why != NULL ? why : w);
	if (x < lo || x > hi)
		return bad(err, name, val, why != NULL ? why : w);
	*ppm = x;
	return 0;
}

int
wr_bench_opt(struct wr_bench_opts *o, enum wr_bench_kind kind,
	     const char *name, const char *arg, struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];
	uint64_t v = 0;
	int rc;

#define IS(n) (strcmp(name, n) == 0)
	if (IS("burst")) {
		rc = u64_in(err, name, arg, 1, WR_BURST_MAX, &v,
			    "expected frames per burst 1..512");
		if (rc == 0) {
			o->burst = (uint32_t)v;
			o->burst_set = true;
		}
		return rc;
	}
	if (IS("sizes") && kind == WR_BENCH_RTT) {
		/* rtt sweeps UDP payload sizes by a step, as the
		 * raw-Ethernet vs UDP study did. */
		if (wr_rtt_parse_sizes(arg, &o->rtt_from, &o->rtt_to,
				       &o->rtt_step, why, sizeof(why)) != 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--sizes",
					    "expected UDP payload sizes "
					    "FROM:TO:STEP or SIZE, such as "
					    "50:1500:50, got \"%s\"", arg);
		return 0;
	}
	if (IS("sizes")) {
		if (wr_bench_parse_sizes(arg, o->sizes, WR_BENCH_SIZES_MAX,
					 &o->n_sizes, why, sizeof(why)))
			return bad(err, name, arg, why);
		return 0;
	}
	if (IS("tx-port") || IS("rx-port")) {
		rc = u64_in(err, name, arg, 0, WR_PORTS_MAX - 1, &v,
			    "expected a port index 0..31");
		if (rc != 0)
			return rc;
		if (IS("tx-port")) {
			o->tx_port = (uint16_t)v;
			o->tx_port_set = true;
		} else {
			o->rx_port = (uint16_t)v;
			o->rx_port_set = true;
		}
		return 0;
	}
	if (IS("trial"))
		return duration(err, name, arg, &o->trial_ns, "expected a "
				"duration above 0 such as 60, 2s or 500ms");
	if (IS("duration"))
		return duration(err, name, arg, &o->duration_ns, "expected a "
				"duration above 0 such as 2, 2s or 500ms");
	if (IS("timeout"))
		return duration(err, name, arg, &o->timeout_ns, "expected a "
				"positive duration such as 0.1, 100ms or 2s");
	if (IS("drain")) {
		uint64_t ns;

		if (wr_parse_duration_ns(arg, &ns, why, sizeof(why)) ||
		    ns > WR_DRAIN_MAX_NS)
			return bad(err, name, arg, "expected a duration of 0 "
				   "to 60 s such as 2, 0.2 or 200ms");
		o->drain_ns = ns;
		o->drain_set = true;
		return 0;
	}
	if (IS("count")) {
		rc = u64_in(err, name, arg, 1, UINT64_MAX, &o->count,
			    "expected a number of round trips of 1 or more");
		o->count_set = rc == 0;
		return rc;
	}
	if (IS("stream")) {
		o->stream_name = arg;
		return 0;
	}
	if (IS("resolution")) {
		struct wr_rate_spec r;

		if (strchr(arg, '%') != NULL) {
			rc = ppm_in(err, name, arg, 1, 1000000, &o->resolution_ppm,
				    "expected a share of the line rate above 0 "
				    "such as 0.1% or a rate such as 10 kpps");
			if (rc == 0)
				o->resolution_millipps = 0;
			return rc;
		}
		if (wr_parse_rate(arg, &r, why, sizeof(why)) ||
		    r.unit != WR_RATE_PPS)
			return bad(err, name, arg, "expected a share of the line "
				   "rate such as 0.1% or a packet rate such as "
				   "10 kpps");
		o->resolution_millipps = r.value;
		o->resolution_ppm = 0;
		return 0;
	}
	if (IS("loss-tolerance")) {
		return ppm_in(err, name, arg, 0, 1000000, &o->loss_ppm, NULL);
	}
	if (IS("pdr")) {
		return ppm_in(err, name, arg, 1, 1000000, &o->pdr_ppm,
			      "expected the loss the partial drop rate "
			      "tolerates, a percentage above 0 such as 0.5%");
	}
	if (IS("phases")) {
		rc = u64_in(err, name, arg, 1, WR_RFC2544_PHASES_MAX, &v,
			    "expected a number of search phases 1..8");
		if (rc == 0)
			o->phases = (uint32_t)v;
		return rc;
	}
	if (IS("tests")) {
		if (wr_bench_parse_tests(arg, &o->tests, why, sizeof(why)))
			return bad(err, name, arg, why);
		return 0;
	}
	if (IS("loss-step")) {
		return ppm_in(err, name, arg, 10000, 1000000, &o->loss_step_ppm,
			      "expected the frame loss rate's step, a "
			      "percentage 1..100 such as 10%");
	}
	if (IS("b2b-repeats")) {
		rc = u64_in(err, name, arg, 1, WR_B2B_REPEATS_MAX, &v,
			    "expected a number of back-to-back searches 1..1000");
		if (rc == 0)
			o->b2b_repeats = (uint32_t)v;
		return rc;
	}
	if (IS("b2b-trial"))
		return duration(err, name, arg, &o->b2b_trial_ns, "expected a "
				"duration above 0 such as 2s or 100ms");
	if (IS("b2b-resolution"))
		return u64_in(err, name, arg, 1, UINT64_MAX, &o->b2b_resolution,
			      "expected a number of frames of 1 or more");
	if (IS("reverse-stream")) {
		o->rev_stream = arg;
		return 0;
	}
	if (IS("pairs")) {
		if (wr_bench_parse_pairs(arg, o->pairs, WR_BENCH_PAIRS_MAX,
					 &o->n_pairs, why, sizeof(why)))
			return bad(err, name, arg, why);
		return 0;
	}
	if (IS("repeat")) {
		rc = u64_in(err, name, arg, 1, WR_SWEEP_REPEATS_MAX, &v,
			    "expected a number of repeats 1..1000");
		if (rc == 0)
			o->repeats = (uint32_t)v;
		return rc;
	}
	if (IS("latency-trials")) {
		rc = u64_in(err, name, arg, 1, WR_BENCH_LAT_TRIALS_MAX, &v,
			    "expected a number of latency trials 1..100");
		if (rc == 0)
			o->lat_trials = (uint32_t)v;
		return rc;
	}
	if (IS("latency-trial"))
		return duration(err, name, arg, &o->lat_trial_ns, "expected a "
				"duration above 0 such as 120s or 500ms");
	if (IS("first-trial"))
		return duration(err, name, arg, &o->first_trial_ns, "expected "
				"a duration above 0 such as 1, 1s or 500ms");
	if (IS("max-rate") || IS("min-rate")) {
		struct wr_rate_spec *r = IS("max-rate") ? &o->max_rate :
					 &o->min_rate;

		if (wr_parse_rate(arg, r, why, sizeof(why)) ||
		    r->unit == WR_RATE_MAX)
			return bad(err, name, arg, "expected a rate such as "
				   "\"300 kpps\", \"1 Gbps L1\" or \"50%\"");
		return 0;
	}
	if (IS("search")) {
		if (strcmp(arg, "binary") == 0)
			o->search = WR_BENCH_SEARCH_BINARY;
		else if (strcmp(arg, "mlr") == 0)
			o->search = WR_BENCH_SEARCH_MLR;
		else
			return bad(err, name, arg, "expected binary (RFC 2544's) "
				   "or mlr (MLRsearch, RFC 9971)");
		return 0;
	}
	if (IS("exceed-ratio")) {
		return ppm_in(err, name, arg, 0, 999999, &o->exceed_ppm,
			      "expected the share of a load's trial time that "
			      "may lose more than the tolerance, 0 up to below "
			      "100% such as 50%");
	}
	if (IS("duration-sum"))
		return duration(err, name, arg, &o->sum_ns, "expected a "
				"duration above 0 such as 120s");
#undef IS
	return -ENOENT;
}

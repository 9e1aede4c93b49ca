/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_opts: a benchmark's options from their text, one parser for the command line and bench.start. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "wr_bench_opts.h"
#include "wr_config.h"
#include "wr_parse.h"
#include "wr_rtt_result.h"

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

/*
 * The options, one line each: the name, the kinds whose parser it is (the
 * same name may parse differently for a kind: rtt's --sizes), the parser,
 * the field it sets, its "given" flag, and for a number or a duration the
 * bounds and what the user is told.  Sorted by name.
 */
struct opt {
	const char *name;
	unsigned int kinds;          /* 1u << enum wr_bench_kind */
	int (*parse)(const struct opt *d, struct wr_bench_opts *o,
		     const char *arg, struct wr_error *err);
	size_t off, size;            /* the field */
	ptrdiff_t set;               /* its "given" flag; -1: none */
	uint64_t lo, hi;
	const char *why;             /* NULL: the parser's own words */
};

static void *
field(const struct opt *d, struct wr_bench_opts *o)
{
	return (char *)o + d->off;
}

static void
given(const struct opt *d, struct wr_bench_opts *o)
{
	if (d->set >= 0)
		*(bool *)((char *)o + d->set) = true;
}

/* An integer lo..hi into a field of 2, 4 or 8 bytes. */
static int
p_uint(const struct opt *d, struct wr_bench_opts *o, const char *arg,
       struct wr_error *err)
{
	uint64_t v = 0;
	int rc = u64_in(err, d->name, arg, d->lo, d->hi, &v, d->why);

	if (rc != 0)
		return rc;
	if (d->size == sizeof(uint16_t))
		*(uint16_t *)field(d, o) = (uint16_t)v;
	else if (d->size == sizeof(uint32_t))
		*(uint32_t *)field(d, o) = (uint32_t)v;
	else
		*(uint64_t *)field(d, o) = v;
	given(d, o);
	return 0;
}

static int
p_duration(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	   struct wr_error *err)
{
	return duration(err, d->name, arg, (uint64_t *)field(d, o), d->why);
}

/* A duration of 0 up to hi (a drain may be none). */
static int
p_duration_upto(const struct opt *d, struct wr_bench_opts *o, const char *arg,
		struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];
	uint64_t ns;

	if (wr_parse_duration_ns(arg, &ns, why, sizeof(why)) || ns > d->hi)
		return bad(err, d->name, arg, d->why);
	*(uint64_t *)field(d, o) = ns;
	given(d, o);
	return 0;
}

static int
p_ppm(const struct opt *d, struct wr_bench_opts *o, const char *arg,
      struct wr_error *err)
{
	return ppm_in(err, d->name, arg, (uint32_t)d->lo, (uint32_t)d->hi,
		      (uint32_t *)field(d, o), d->why);
}

/* A string kept as given (a stream's name). */
static int
p_str(const struct opt *d, struct wr_bench_opts *o, const char *arg,
      struct wr_error *err)
{
	(void)err;
	*(const char **)field(d, o) = arg;
	return 0;
}

static int
p_sizes(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_bench_parse_sizes(arg, o->sizes, WR_BENCH_SIZES_MAX,
				 &o->n_sizes, why, sizeof(why)))
		return bad(err, d->name, arg, why);
	return 0;
}

/* rtt sweeps UDP payload sizes by a step, as the raw-Ethernet vs UDP study
 * did. */
static int
p_rtt_sizes(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	    struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];

	(void)d;
	if (wr_rtt_parse_sizes(arg, &o->rtt_from, &o->rtt_to, &o->rtt_step,
			       why, sizeof(why)) != 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--sizes",
				    "expected UDP payload sizes FROM:TO:STEP or "
				    "SIZE, such as 50:1500:50, got \"%s\"", arg);
	return 0;
}

static int
p_pairs(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_bench_parse_pairs(arg, o->pairs, WR_BENCH_PAIRS_MAX,
				 &o->n_pairs, why, sizeof(why)))
		return bad(err, d->name, arg, why);
	return 0;
}

static int
p_tests(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];

	if (wr_bench_parse_tests(arg, &o->tests, why, sizeof(why)))
		return bad(err, d->name, arg, why);
	return 0;
}

/* A share of the line rate ("0.1%") or a packet rate ("10 kpps"): the
 * other is cleared. */
static int
p_resolution(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	     struct wr_error *err)
{
	char why[WR_PARSE_WHY_MAX];
	struct wr_rate_spec r;
	int rc;

	if (strchr(arg, '%') != NULL) {
		rc = ppm_in(err, d->name, arg, 1, 1000000, &o->resolution_ppm,
			    "expected a share of the line rate above 0 such as "
			    "0.1% or a rate such as 10 kpps");
		if (rc == 0)
			o->resolution_millipps = 0;
		return rc;
	}
	if (wr_parse_rate(arg, &r, why, sizeof(why)) || r.unit != WR_RATE_PPS)
		return bad(err, d->name, arg, "expected a share of the line rate "
			   "such as 0.1% or a packet rate such as 10 kpps");
	o->resolution_millipps = r.value;
	o->resolution_ppm = 0;
	return 0;
}

/* A rate bound of the search: any rate but "max". */
static int
p_rate(const struct opt *d, struct wr_bench_opts *o, const char *arg,
       struct wr_error *err)
{
	struct wr_rate_spec *r = field(d, o);
	char why[WR_PARSE_WHY_MAX];

	if (wr_parse_rate(arg, r, why, sizeof(why)) || r->unit == WR_RATE_MAX)
		return bad(err, d->name, arg, "expected a rate such as "
			   "\"300 kpps\", \"1 Gbps L1\" or \"50%\"");
	return 0;
}

static int
p_search(const struct opt *d, struct wr_bench_opts *o, const char *arg,
	 struct wr_error *err)
{
	if (strcmp(arg, "binary") == 0)
		o->search = WR_BENCH_SEARCH_BINARY;
	else if (strcmp(arg, "mlr") == 0)
		o->search = WR_BENCH_SEARCH_MLR;
	else
		return bad(err, d->name, arg, "expected binary (RFC 2544's) or "
			   "mlr (MLRsearch, RFC 9971)");
	return 0;
}

#define K(k) (1u << WR_BENCH_##k)
#define ALL (K(SWEEP) | K(RFC2544) | K(RTT))
#define F(f) offsetof(struct wr_bench_opts, f), \
	     sizeof(((struct wr_bench_opts *)0)->f)
#define SET(f) (ptrdiff_t)offsetof(struct wr_bench_opts, f)
#define NONE (-1)

static const struct opt opts[] = {
	{ "b2b-repeats", ALL, p_uint, F(b2b_repeats), NONE, 1, WR_B2B_REPEATS_MAX,
	  "expected a number of back-to-back searches 1..1000" },
	{ "b2b-resolution", ALL, p_uint, F(b2b_resolution), NONE, 1, UINT64_MAX,
	  "expected a number of frames of 1 or more" },
	{ "b2b-trial", ALL, p_duration, F(b2b_trial_ns), NONE, 0, 0,
	  "expected a duration above 0 such as 2s or 100ms" },
	{ "burst", ALL, p_uint, F(burst), SET(burst_set), 1, WR_BURST_MAX,
	  "expected frames per burst 1..512" },
	{ "count", ALL, p_uint, F(count), SET(count_set), 1, UINT64_MAX,
	  "expected a number of round trips of 1 or more" },
	{ "drain", ALL, p_duration_upto, F(drain_ns), SET(drain_set), 0,
	  WR_DRAIN_MAX_NS, "expected a duration of 0 to 60 s such as 2, 0.2 "
	  "or 200ms" },
	{ "duration", ALL, p_duration, F(duration_ns), NONE, 0, 0,
	  "expected a duration above 0 such as 2, 2s or 500ms" },
	{ "duration-sum", ALL, p_duration, F(sum_ns), NONE, 0, 0,
	  "expected a duration above 0 such as 120s" },
	{ "exceed-ratio", ALL, p_ppm, F(exceed_ppm), NONE, 0, 999999,
	  "expected the share of a load's trial time that may lose more than "
	  "the tolerance, 0 up to below 100% such as 50%" },
	{ "first-trial", ALL, p_duration, F(first_trial_ns), NONE, 0, 0,
	  "expected a duration above 0 such as 1, 1s or 500ms" },
	{ "latency-trial", ALL, p_duration, F(lat_trial_ns), NONE, 0, 0,
	  "expected a duration above 0 such as 120s or 500ms" },
	{ "latency-trials", ALL, p_uint, F(lat_trials), NONE, 1,
	  WR_BENCH_LAT_TRIALS_MAX, "expected a number of latency trials 1..100" },
	{ "loss-step", ALL, p_ppm, F(loss_step_ppm), NONE, 10000, 1000000,
	  "expected the frame loss rate's step, a percentage 1..100 such as "
	  "10%" },
	{ "loss-tolerance", ALL, p_ppm, F(loss_ppm), NONE, 0, 1000000, NULL },
	{ "max-rate", ALL, p_rate, F(max_rate), NONE, 0, 0, NULL },
	{ "min-rate", ALL, p_rate, F(min_rate), NONE, 0, 0, NULL },
	{ "pairs", ALL, p_pairs, F(pairs), NONE, 0, 0, NULL },
	{ "pdr", ALL, p_ppm, F(pdr_ppm), NONE, 1, 1000000, "expected the loss "
	  "the partial drop rate tolerates, a percentage above 0 such as 0.5%" },
	{ "phases", ALL, p_uint, F(phases), NONE, 1, WR_RFC2544_PHASES_MAX,
	  "expected a number of search phases 1..8" },
	{ "repeat", ALL, p_uint, F(repeats), NONE, 1, WR_SWEEP_REPEATS_MAX,
	  "expected a number of repeats 1..1000" },
	{ "resolution", ALL, p_resolution, F(resolution_ppm), NONE, 0, 0, NULL },
	{ "reverse-stream", ALL, p_str, F(rev_stream), NONE, 0, 0, NULL },
	{ "rx-port", ALL, p_uint, F(rx_port), SET(rx_port_set), 0,
	  WR_PORTS_MAX - 1, "expected a port index 0..31" },
	{ "search", ALL, p_search, F(search), NONE, 0, 0, NULL },
	{ "sizes", K(SWEEP) | K(RFC2544), p_sizes, F(sizes), NONE, 0, 0, NULL },
	{ "sizes", K(RTT), p_rtt_sizes, F(rtt_from), NONE, 0, 0, NULL },
	{ "stream", ALL, p_str, F(stream_name), NONE, 0, 0, NULL },
	{ "tests", ALL, p_tests, F(tests), NONE, 0, 0, NULL },
	{ "timeout", ALL, p_duration, F(timeout_ns), NONE, 0, 0,
	  "expected a positive duration such as 0.1, 100ms or 2s" },
	{ "trial", ALL, p_duration, F(trial_ns), NONE, 0, 0,
	  "expected a duration above 0 such as 60, 2s or 500ms" },
	{ "tx-port", ALL, p_uint, F(tx_port), SET(tx_port_set), 0,
	  WR_PORTS_MAX - 1, "expected a port index 0..31" },
};

#undef NONE
#undef SET
#undef F
#undef ALL
#undef K

int
wr_bench_opt(struct wr_bench_opts *o, enum wr_bench_kind kind,
	     const char *name, const char *arg, struct wr_error *err)
{
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if ((opts[i].kinds & (1u << kind)) != 0 &&
		    strcmp(opts[i].name, name) == 0)
			return opts[i].parse(&opts[i], o, arg, err);
	return -ENOENT;
}

const char *
wr_bench_opt_name(unsigned int i)
{
	unsigned int n = 0;

	for (size_t j = 0; j < sizeof(opts) / sizeof(opts[0]); j++) {
		/* A name parsed per kind is listed once. */
		if (j > 0 && strcmp(opts[j].name, opts[j - 1].name) == 0)
			continue;
		if (n++ == i)
			return opts[j].name;
	}
	return NULL;
}

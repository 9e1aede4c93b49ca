/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate sweep / rfc2544 / rtt: their options, and the command around lib/ctl/bench/wr_bench (files, EAL, the log on the terminal, exit codes). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wr_app.h"
#include "wr_bench.h"
#include "wr_out.h"
#include "wr_parse.h"
#include "wr_rtt.h"

/* The engine the signal handler stops, and how many signals came: the
 * first stops the trial running and no other starts; a second cuts the
 * drain short. */
static struct wr_engine *wr_bench_engine;
static volatile int wr_bench_signals;

static void
on_signal(int sig)
{
	(void)sig;
	wr_engine_cancel();
	if (wr_bench_engine != NULL)
		wr_engine_request_stop(wr_bench_engine, wr_bench_signals > 0);
	wr_bench_signals++;
}

int
wr_app_bench_opt(struct wr_opts *o, int opt, const char *arg)
{
	/* getopt's codes (app/main.c) and the options' names. */
	static const struct { int opt; const char *name; } names[] = {
		{ 'b', "burst" }, { 'z', "sizes" }, { 't', "tx-port" },
		{ 'r', "rx-port" }, { 'T', "trial" }, { 'R', "resolution" },
		{ 'l', "loss-tolerance" }, { 'P', "pdr" }, { 'H', "phases" },
		{ 'E', "tests" }, { 'G', "loss-step" }, { 'B', "b2b-repeats" },
		{ 'K', "b2b-trial" }, { 'W', "b2b-resolution" },
		{ 'Y', "reverse-stream" }, { 'Z', "pairs" }, { 'X', "repeat" },
		{ 'U', "latency-trials" }, { 'V', "latency-trial" },
		{ 'F', "first-trial" }, { 'M', "max-rate" }, { 'm', "min-rate" },
		{ 'y', "search" }, { 'x', "exceed-ratio" }, { 'J', "duration-sum" },
		{ 'O', "timeout" },
	};
	struct wr_error err;
	unsigned int i;

	if (opt == 'C') {
		o->csv_file = arg;
		return 0;
	}
	if (opt == 'Q') {
		o->report_file = arg;
		return 0;
	}
	for (i = 0; i < WR_DIM(names); i++) {
		if (names[i].opt != opt)
			continue;
		wr_error_clear(&err);
		if (wr_bench_opt(&o->bench, o->cmd != NULL &&
				 strcmp(o->cmd, "rtt") == 0 ? WR_BENCH_RTT :
				 WR_BENCH_SWEEP, names[i].name, arg, &err) != 0) {
			wr_app_print_error(&err);
			return -EINVAL;
		}
		/* run shares --burst and --repeat. */
		o->burst = o->bench.burst;
		o->burst_set = o->bench.burst_set;
		o->repeats = o->bench.repeats;
		return 0;
	}
	return -EINVAL;
}

/* The command line's options as the benchmark library's: its own, and
 * those it shares with run. */
static void
bench_opts(const struct wr_opts *o, struct wr_bench_opts *b)
{
	*b = o->bench;
	b->stream_name = o->stream_name;
	b->duration_ns = o->duration_ns;
	b->drain_ns = o->drain_ns;
	b->drain_set = o->drain_set;
	b->repeats = o->repeats;
	b->burst = o->burst;
	b->burst_set = o->burst_set;
	b->quiet = o->quiet;
	b->count = o->count;
	b->count_set = o->count_set;
}

/* The log on the command line: each line as it comes in a pipe; on a
 * terminal, rfc2544's trials as one status line redrawn in place (test,
 * size, trial k of about n, ETA). */
struct cli_log {
	enum wr_bench_kind kind;
	bool tty;
	bool drew;                  /* a status line is on the screen */
};

static void
cli_line(void *ctx, const char *text, const struct wr_bench_progress *p,
	 bool counted)
{
	struct cli_log *l = ctx;
	char status[160];

	(void)counted;
	if (p == NULL || !l->tty || l->kind != WR_BENCH_RFC2544) {
		fputs(text, stdout);
		/* Each line as it comes, also into a pipe or a file (| tee):
		 * a benchmark's log is its progress. */
		fflush(stdout);
		return;
	}
	wr_bench_progress_text(status, sizeof(status), p->test, p->size,
			       p->done, p->estimate, p->eta_s);
	/* Inside a long trial: how far into it. */
	if (p->trial_s > 0 && p->trial_len_s > 0)
		printf("\r\033[K%s (this trial %.0f of %.0f s)", status,
		       p->trial_s, p->trial_len_s);
	else
		printf("\r\033[K%s", status);
	fflush(stdout);
	l->drew = true;
}

static void
cli_wait(void *ctx, uint64_t ns)
{
	(void)ctx;
	wr_engine_sleep_ns(ns);
}

static void
cli_note(void *ctx, const char *text)
{
	(void)ctx;
	fprintf(stderr, "wirerate: %s\n", text);
}

/* Write @p path atomically when it is not NULL.  Prints; @return an exit code. */
static int
bench_write(const char *path, int (*fn)(FILE *, const void *), const void *arg)
{
	int rc;

	if (path == NULL)
		return WR_EXIT_OK;
	rc = wr_out_atomic(path, fn, arg);
	if (rc != 0) {
		fprintf(stderr, "wirerate: %s: cannot write results: %s\n",
			path, strerror(-rc));
		return WR_EXIT_FAIL;
	}
	return WR_EXIT_OK;
}

/* tools/wr-report JSON -, into the temporary of wr_out_atomic(), so the
 * report is written whole or not at all, by the one writer of result
 * files. */
static int
report_job(FILE *out, const void *arg)
{
	char tools[4096];

	if (wr_app_place(WR_APP_TOOLS, tools, sizeof(tools)) == NULL)
		tools[0] = '\0';
	return wr_bench_report_html(out, arg, tools);
}

static int
bench_report(const char *json, const char *html)
{
	int rc = wr_out_atomic(html, report_job, json);

	if (rc == -ECHILD) {
		fprintf(stderr, "wirerate: --report: wr-report did not "
			"write %s (the JSON is in %s)\n", html, json);
		return WR_EXIT_FAIL;
	}
	if (rc != 0) {
		fprintf(stderr, "wirerate: --report %s: cannot write: %s (the "
			"JSON is in %s)\n", html, strerror(-rc), json);
		return WR_EXIT_FAIL;
	}
	printf("report: %s (raw JSON: %s)\n", html, json);
	return WR_EXIT_OK;
}

/* A benchmark's files: --csv, the JSON, then --report from that JSON.
 * Prints; @return the first failure's exit code, else WR_EXIT_OK. */
static int
bench_outputs(const struct wr_opts *o, const char *json,
	      const struct wr_bench_result *r)
{
	int rc, rc2;

	rc = bench_write(o->csv_file, wr_bench_result_csv, r);
	rc2 = bench_write(json, wr_bench_result_json, r);
	if (rc != WR_EXIT_OK || rc2 != WR_EXIT_OK)
		return rc != WR_EXIT_OK ? rc : rc2;
	return o->report_file != NULL ? bench_report(json, o->report_file) :
		WR_EXIT_OK;
}

static int
engine_exit_code(int rc)
{
	return rc == -EINVAL || rc == -ENODEV || rc == -ENOTSUP ||
		rc == -EMSGSIZE ? WR_EXIT_USAGE : WR_EXIT_FAIL;
}

/*
 * One benchmark command: its files and options checked before EAL (the
 * library checks the stream, sizes, ports and rates), EAL and the ports,
 * the benchmark (lib/ctl/bench/wr_bench), its tables, its files.
 */
static int
bench_cmd(const struct wr_opts *o, enum wr_bench_kind kind)
{
	/* The report's raw JSON: --json, else beside the report. */
	static char json_beside[1100];
	static struct wr_bench b;
	struct cli_log log = { .kind = kind };
	struct wr_bench_hooks hooks = {
		.ctx = &log, .line = cli_line, .wait = cli_wait,
		.cancel = &wr_bench_signals, .note = cli_note,
	};
	struct wr_bench_opts bo;
	struct wr_bench_result r;
	struct wr_stream_file f;
	struct wr_config cfg;
	const char *cfg_path = NULL, *json = NULL;
	struct wr_engine *e = NULL;
	struct wr_error err;
	bool loaded = false;
	int rc;

	bench_opts(o, &bo);
	memset(&f, 0, sizeof(f));
	memset(&r, 0, sizeof(r));
	wr_config_init(&cfg);
	/* First: a signal from here on ends the command cleanly. */
	wr_app_signals(on_signal);
	wr_engine_quiet(o->quiet);
	rc = wr_app_bench_json_path(o, json_beside, sizeof(json_beside), &json);
	if (rc == WR_EXIT_OK)
		rc = kind == WR_BENCH_RTT ? wr_app_load_streams(o, &f) :
		     wr_app_read_streams(o, &f);
	if (rc == WR_EXIT_OK) {
		loaded = true;
		if (o->seed_set)
			wr_stream_file_set_seed(&f, o->seed);
		rc = wr_app_load_profile(o, &cfg, &cfg_path);
	}
	if (rc == WR_EXIT_OK) {
		wr_error_clear(&err);
		if (wr_bench_init(&b, kind, &bo, &hooks, &f, cfg.n_ports,
				  &err) != 0) {
			wr_app_print_error(&err);
			rc = WR_EXIT_USAGE;
		}
	}
	if (rc == WR_EXIT_OK)
		rc = wr_app_check_files(o, &f, &cfg, cfg_path);
	if (rc == WR_EXIT_OK) {
		if (o->burst_set)
			cfg.burst = o->burst;
		/* Every port is set up for the largest size, sent or echoed
		 * back (MTU, RX buffers), or refuses it before any frame is
		 * sent. */
		if (wr_bench_max_frame(&b) > cfg.max_frame)
			cfg.max_frame = wr_bench_max_frame(&b);
		wr_error_clear(&err);
		rc = wr_engine_open(&e, &cfg, cfg_path, o->eal, o->n_eal, &err);
		if (rc != 0 && wr_bench_signals > 0) {
			fprintf(stderr, "wirerate: stopped by a signal before "
				"sending: nothing was %s\n", kind == WR_BENCH_RTT ?
				"sent" : "measured");
			rc = WR_EXIT_STOPPED;
		} else if (rc != 0) {
			wr_app_print_error(&err);
			rc = engine_exit_code(rc);
		}
	}
	if (rc == WR_EXIT_OK) {
		wr_bench_engine = e;
		log.tty = !o->quiet && isatty(STDOUT_FILENO);
		wr_error_clear(&err);
		rc = wr_bench_run(&b, e, cfg_path, cfg.burst, &r, &err);
		if (rc != 0) {
			wr_app_print_error(&err);
			rc = rc == -EINVAL ? WR_EXIT_USAGE : WR_EXIT_FAIL;
		}
	}
	if (rc == WR_EXIT_OK) {
		if (log.drew)
			putchar('\n');
		wr_bench_result_print(stdout, &r);
		rc = bench_outputs(o, json, &r);
	}
	if (rc == WR_EXIT_OK && r.link_lost) {
		/* A benchmark that lost its path did not run: a run-time
		 * failure, whatever the sizes measured before said (sweep,
		 * rfc2544 and rtt alike; rtt said which size in its note). */
		if (kind != WR_BENCH_RTT)
			fprintf(stderr, "wirerate: %s: a port's link went down "
				"during the %u-byte trial: %u of %u sizes "
				"measured\n", kind == WR_BENCH_SWEEP ? "sweep" :
				"rfc2544", r.m.stopped_in,
				r.n_sizes - r.m.n_not_measured, r.n_sizes);
		rc = WR_EXIT_FAIL;
	}
	/* Before the engine: the session's port and pool go before EAL. */
	wr_bench_fini(&b);
	wr_bench_engine = NULL;
	wr_engine_close(e);
	if (loaded)
		wr_stream_file_free(&f);
	wr_config_free(&cfg);
	/* Results the generator, not the device, limited: no figure. */
	if (rc == WR_EXIT_OK && r.gen_limited)
		rc = WR_EXIT_GEN_LIMIT;
	wr_bench_result_free(&r);
	return rc;
}

int
wr_cmd_sweep(const struct wr_opts *o)
{
	return bench_cmd(o, WR_BENCH_SWEEP);
}

int
wr_cmd_rfc2544(const struct wr_opts *o)
{
	return bench_cmd(o, WR_BENCH_RFC2544);
}

int
wr_cmd_rtt(const struct wr_opts *o)
{
	return bench_cmd(o, WR_BENCH_RTT);
}

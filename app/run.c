/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: wires stream file, profile, EAL, ports, TX lcores and the stats lcore together. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "wr_app.h"
#include "wr_config.h"
#include "wr_engine.h"
#include "wr_frame.h"
#include "wr_peer.h"
#include "wr_repeat.h"
#include "wr_report.h"
#include "wr_yaml.h"

/* The stats lcore sleeps in slices this long so it notices a finished run
 * or a signal quickly without busy-polling. */
#define WR_STATS_SLICE_NS (20 * 1000 * 1000ull)

/* The engine the signal handler stops, and how many signals came: the
 * only globals.  The first Ctrl-C stops sending and still waits the drain
 * time for echoes; a second one cuts the drain short. */
static struct wr_engine *wr_running;
static volatile sig_atomic_t wr_signals;
static volatile sig_atomic_t wr_draining;

/* Installed before anything starts: a signal during EAL's start, the port
 * set-up or the link wait ends the run cleanly too (with what it has).  In
 * the drain, one signal cuts it short. */
static void
on_signal(int sig)
{
	(void)sig;
	wr_engine_cancel();
	if (wr_running != NULL)
		wr_engine_request_stop(wr_running,
				       wr_signals > 0 || wr_draining);
	wr_signals++;
}

struct run {
	const struct wr_opts *o;
	struct wr_stream_file f;
	struct wr_config cfg;
	const char *cfg_path;
	struct wr_engine *e;
	struct wr_prepared prep;    /* the templates the check built */
	struct wr_run_ext x;        /* the engine session, JSONL */
	char started_at[40];
	struct wr_peer peers[WR_PEERS_MAX]; /* --peer: parsed, then open */
};

static int
fail(struct wr_error *err, int code)
{
	wr_app_print_error(err);
	return code;
}

/* Stream file, profile and templates: everything that can be wrong in the
 * user's input is found here, before EAL starts and before any traffic. */
static int
prepare(struct run *r)
{
	const struct wr_opts *o = r->o;
	int rc;

	rc = wr_app_read_streams(o, &r->f);
	if (rc == WR_EXIT_OK)
		rc = wr_app_load_profile(o, &r->cfg, &r->cfg_path);
	if (rc != WR_EXIT_OK)
		return rc;
	if (o->burst_set)
		r->cfg.burst = o->burst;
	/* A capture of a port the profile lacks: before EAL. */
	for (unsigned int i = 0; i < o->n_captures; i++)
		if (r->cfg.n_ports > 0 &&
		    o->captures[i].spec.port >= r->cfg.n_ports) {
			fprintf(stderr, "wirerate: --capture %u=%s: port %u "
				"does not exist: the profile %s has %u port%s\n",
				o->captures[i].spec.port,
				o->captures[i].spec.file,
				o->captures[i].spec.port, r->cfg_path,
				r->cfg.n_ports, r->cfg.n_ports == 1 ? "" : "s");
			return WR_EXIT_USAGE;
		}
	if (o->n_peers > 0 && o->repeats == 0) {
		fprintf(stderr, "wirerate: --peer: needs --repeat N (the peer's "
			"counters are read around each repetition)\n");
		return WR_EXIT_USAGE;
	}
	if (o->repeats > 0 && o->duration_ns == 0) {
		int s = wr_stream_file_endless(&r->f);

		if (s >= 0) {
			const struct wr_stream *st = &r->f.streams[s];

			fprintf(stderr, "wirerate: %s:%u:%u: --repeat: stream "
				"%s never ends: give it a count or a duration "
				"(or run --count N or --duration S)\n", r->f.path,
				st->mark.line, st->mark.col, st->name);
			return WR_EXIT_USAGE;
		}
	}
	/* Built here too, before EAL, so that a stream that cannot be built
	 * stops the run before anything starts. */
	rc = wr_app_build_streams(&r->f, &r->cfg, r->cfg_path, &r->prep);
	if (rc == WR_EXIT_OK)
		rc = wr_app_check_files(o, &r->f, &r->cfg, r->cfg_path);
	return rc;
}

/* Connect to every --peer and read it once, before anything is sent: a
 * socket or an interface that is not there, or answers nonsense, is bad
 * input (the peer's telemetry exists only once it runs, after the links
 * came up, so this is after EAL). */
static int
peers_open(struct run *r)
{
	char why[WR_PEER_SPEC_MAX + 160];
	unsigned int i;
	int rc;

	for (i = 0; i < r->o->n_peers; i++) {
		rc = wr_peer_parse(&r->peers[i], r->o->peers[i], why, sizeof(why));
		if (rc == 0)
			rc = wr_peer_open(&r->peers[i], why, sizeof(why));
		if (rc != 0) {
			fprintf(stderr, "wirerate: --peer %s: %s\n",
				r->o->peers[i], why);
			return WR_EXIT_USAGE;
		}
	}
	return WR_EXIT_OK;
}

static void
peers_close(struct run *r)
{
	unsigned int i;

	for (i = 0; i < WR_PEERS_MAX; i++)
		if (r->peers[i].spec[0] != '\0')
			wr_peer_close(&r->peers[i]);
}

static void
fill_meta(struct run *r, struct wr_report_meta *m, const char *reason)
{
	wr_engine_meta(r->e, &r->f, r->cfg_path, r->started_at, reason, m);
}

/* The streams ended by themselves: by their count, or, when one with a
 * `duration:` sent fewer frames than its count, by that duration.  An
 * unlimited stream ends by neither: when it ended, its link did. */
static const char *
streams_end(const struct run *r, const struct wr_report_view *v)
{
	uint32_t i;

	for (i = 0; i < r->f.n_streams && i < v->n_streams; i++) {
		const struct wr_stream *s = &r->f.streams[i];

		if (s->count == 0 && s->duration_ns == 0 &&
		    wr_engine_links_check(r->e) > 0)
			return "link-down";
	}
	for (i = 0; i < r->f.n_streams && i < v->n_streams; i++) {
		const struct wr_stream *s = &r->f.streams[i];

		if (s->duration_ns != 0 &&
		    (s->count == 0 || v->streams[i].total.tx_pkts < s->count))
			return "stream-duration";
	}
	return "count";
}

/* One sending on the loaded streams: sleep, report, until the counts are
 * done, the duration is over or a signal came; then stop and drain.  The
 * final view in *vp and why it ended in *reasonp. */
static int
send_once(struct run *r, struct wr_report_view **vp, const char **reasonp)
{
	const struct wr_opts *o = r->o;
	struct wr_engine *e = r->e;
	const uint64_t hz = wr_engine_tsc_hz(e);
	struct wr_report_view *v;
	struct wr_error err;
	const char *reason = "count";
	uint64_t t0, next, interval_tsc, deadline = UINT64_MAX, now;
	unsigned int lines = 0, lost;
	bool tty = isatty(STDOUT_FILENO);

	wr_running = e;
	/* A signal before this point: nothing is sent, the summary says so. */
	if (wr_signals > 0)
		wr_engine_request_stop(e, true);
	wr_error_clear(&err);
	if (!wr_engine_stopping(e) &&
	    wr_engine_start(e, &err) != 0)
		return fail(&err, WR_EXIT_FAIL);

	t0 = wr_engine_tsc_now();
	interval_tsc = hz * r->cfg.stats_interval_ms / 1000;
	next = t0 + interval_tsc;
	if (o->duration_ns > 0)
		deadline = t0 + (uint64_t)((double)o->duration_ns * hz / 1e9);
	for (;;) {
		uint64_t until;

		now = wr_engine_tsc_now();
		if (wr_engine_stopping(e)) {
			reason = "signal";
			break;
		}
		lost = wr_engine_links_check(e);
		if (lost > 0 && !o->link_down_continue) {
			reason = "link-down";
			break;
		}
		if (wr_engine_tx_finished(e)) {
			/* Again: a link lost since the check above (EAL's
			 * interrupt thread, wr_engine_ports.c) is what ended
			 * the lcores that left its port. */
			lost = wr_engine_links_check(e);
			reason = lost > 0 && (!o->link_down_continue ||
					      lost == wr_engine_n_ports(e)) ?
				 "link-down" : "count";
			break;
		}
		if (now >= deadline) {
			reason = "duration";
			break;
		}
		if (now >= next) {
			v = wr_engine_collect(e, false);
			v->interval_ns = wr_engine_tsc_to_ns(e,
						now - (next - interval_tsc));
			wr_run_ext_interval(&r->x, v, false);
			if (!o->quiet) {
				lines = wr_report_interval(stdout, v, tty,
							   lines);
				lines += wr_run_tcp_lines(&r->x, v, tty,
							  stdout);
			}
			next += interval_tsc;
			if (next <= now) /* we overslept: do not catch up */
				next = now + interval_tsc;
		}
		until = next < deadline ? next : deadline;
		until = until > now ? wr_engine_tsc_to_ns(e, until - now) : 0;
		wr_engine_sleep_ns(until < WR_STATS_SLICE_NS ?
				   until : WR_STATS_SLICE_NS);
	}
	/* A drain of seconds is silent otherwise: say that sending is over
	 * (a script reading the live lines learns it too, and can read a
	 * peer's counters while the link is still up). */
	if (!o->quiet && wr_engine_any_rx(e) && o->drain_ns > 0 &&
	    wr_engine_links_check(e) < wr_engine_n_ports(e) &&
	    !wr_engine_aborted(e)) {
		printf("sending stopped (%s); receiving echoes for %.3f s\n",
		       reason, (double)o->drain_ns / 1e9);
		fflush(stdout);
	}
	wr_draining = 1;
	if (wr_signals > 0)
		reason = "signal";
	/* Nothing comes back from ports that went away. */
	wr_engine_stop(e, wr_engine_links_check(e) == wr_engine_n_ports(e) ? 0 :
		       o->drain_ns);
	wr_draining = 0;
	/* The captures end with the traffic (their statuses for the
	 * summary and the JSON). */
	wr_run_ext_stopped(&r->x, o, e);
	/* Frames a device counted as sent but a file did not take (a
	 * net_pcap tx_pcap on a full disk) are not frames out. */
	if (wr_engine_tx_files_check(e, &err) != 0)
		return fail(&err, WR_EXIT_FAIL);
	/* The hosts poll their ports again (they keep answering until the
	 * unload stops them): after the files' check, which the frames
	 * they send would make disagree with the counters read at the
	 * stop. */
	wr_session_traffic_stopped(&r->x.sess);
	v = wr_engine_collect(e, true);
	if (strcmp(reason, "count") == 0)
		reason = streams_end(r, v);
	wr_run_ext_interval(&r->x, v, true);
	*vp = v;
	*reasonp = reason;
	return WR_EXIT_OK;
}

/* The start time and the header, once for the run. */
static void
run_header(struct run *r)
{
	struct wr_report_meta meta;
	time_t wall = time(NULL);
	struct tm tm;

	gmtime_r(&wall, &tm);
	strftime(r->started_at, sizeof(r->started_at), "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	fill_meta(r, &meta, "running");
	if (!r->o->quiet)
		wr_report_header(stdout, &meta, wr_engine_view(r->e));
}

/* The results' members after ports and streams: the repetitions (run
 * --repeat), the emulated hosts (doc/hosts.md). */
struct json_more {
	const struct wr_rep_set *reps;
	const struct wr_run_ext *x;
};

static int
json_more(FILE *out, const void *arg)
{
	const struct json_more *m = arg;
	int rc = wr_rep_json_more(out, m->reps);

	return rc != 0 ? rc : wr_run_ext_hosts_json(out, m->x);
}

/* The results JSON (--json); with @p reps, its repetitions too. */
static int
write_json(struct run *r, const char *reason, const struct wr_report_view *v,
	   const struct wr_rep_set *reps)
{
	struct json_more more = { .reps = reps, .x = &r->x };
	struct wr_report_meta meta;
	int jrc;

	if (r->o->json_file == NULL)
		return WR_EXIT_OK;
	fill_meta(r, &meta, reason);
	meta.json_more = json_more;
	meta.json_more_arg = &more;
	meta.captures = r->x.caps;
	meta.n_captures = r->x.caps != NULL ? r->x.sess.n_caps : 0;
	jrc = wr_report_json(r->o->json_file, &meta, v);
	if (jrc != 0) {
		fprintf(stderr, "wirerate: %s: cannot write results: %s\n",
			r->o->json_file, strerror(-jrc));
		return WR_EXIT_FAIL;
	}
	return WR_EXIT_OK;
}

/* A single run: send, then the summary over the whole run. */
static int
traffic(struct run *r)
{
	struct wr_report_view *v;
	struct wr_report_meta meta;
	const char *reason;
	int rc;

	run_header(r);
	rc = send_once(r, &v, &reason);
	if (rc != WR_EXIT_OK)
		return rc;
	fill_meta(r, &meta, reason);
	wr_report_final(stdout, &meta, v);
	wr_run_ext_summary(&r->x, r->e, stdout);
	return write_json(r, reason, v, NULL);
}

/* Every peer's counters now, into @p c (one per peer). */
static int
peers_read(struct run *r, struct wr_peer_counts *c)
{
	unsigned int i;
	int rc;

	for (i = 0; i < r->o->n_peers; i++) {
		rc = wr_peer_read(&r->peers[i], &c[i]);
		if (rc != 0) {
			fprintf(stderr, "wirerate: --peer %s: cannot read its "
				"counters: %s\n", r->peers[i].spec,
				strerror(-rc));
			return WR_EXIT_FAIL;
		}
	}
	return WR_EXIT_OK;
}

/* Where each stream's payload starts (goodput), -1 for none: a stack
 * without UDP or TCP, a replayed capture. */
static int
payload_offsets(struct run *r, int32_t *off)
{
	struct wr_frame_tmpl *t;
	struct wr_error err;
	uint32_t s;

	for (s = 0; s < r->f.n_streams; s++) {
		off[s] = -1;
		if (r->f.streams[s].replay != NULL)
			continue;
		wr_error_clear(&err);
		if (wr_engine_tmpl_create(&r->f, s, &t, &err) != 0)
			return fail(&err, WR_EXIT_FAIL);
		off[s] = wr_frame_tmpl_payload_off(t);
		if (off[s] < 0)
			off[s] = -1;
		wr_frame_tmpl_free(t);
	}
	return WR_EXIT_OK;
}

/* run --repeat N: the same streams N times on ports that stay up, each
 * repetition loaded afresh (its counters from zero, its frames the same
 * bytes: same file, same seed), the peers read around each; a line per
 * repetition, then min / median / max. */
static int
repeated(struct run *r)
{
	const struct wr_opts *o = r->o;
	struct wr_peer_counts before[WR_PEERS_MAX], after[WR_PEERS_MAX];
	struct wr_peer_counts delta[WR_PEERS_MAX];
	const char *names[WR_PEERS_MAX];
	struct wr_report_view *v = NULL;
	struct wr_rep_set reps;
	struct wr_error err;
	const char *reason = "count";
	int32_t *off;
	unsigned int i;
	uint32_t k;
	int rc;

	off = calloc(r->f.n_streams ? r->f.n_streams : 1, sizeof(*off));
	if (off == NULL)
		return WR_EXIT_FAIL;
	rc = payload_offsets(r, off);
	for (i = 0; i < o->n_peers; i++)
		names[i] = r->peers[i].spec;
	if (rc == WR_EXIT_OK &&
	    wr_rep_init(&reps, wr_engine_view(r->e), o->repeats, names,
			o->n_peers) != 0) {
		fprintf(stderr, "wirerate: out of memory\n");
		rc = WR_EXIT_FAIL;
	}
	if (rc != WR_EXIT_OK) {
		free(off);
		return rc;
	}
	run_header(r);
	for (k = 0; k < o->repeats && rc == WR_EXIT_OK; k++) {
		if (k > 0) {
			wr_error_clear(&err);
			if (wr_session_load(&r->x.sess, &r->f, &err) != 0) {
				rc = fail(&err, WR_EXIT_FAIL);
				break;
			}
			/* A signal while the streams were loaded again: no
			 * empty repetition. */
			if (wr_signals > 0)
				break;
		}
		rc = peers_read(r, before);
		if (rc == WR_EXIT_OK)
			rc = send_once(r, &v, &reason);
		if (rc == WR_EXIT_OK)
			rc = peers_read(r, after);
		if (rc != WR_EXIT_OK)
			break;
		for (i = 0; i < o->n_peers; i++)
			wr_peer_counts_delta(&before[i], &after[i], &delta[i]);
		wr_rep_add(&reps, v, off, delta, reason);
		wr_rep_print(stdout, &reps, k);
		/* A signal or a lost port ends the repetitions: what ran is
		 * reported. */
		if (wr_signals > 0 || strcmp(reason, "signal") == 0 ||
		    strcmp(reason, "link-down") == 0)
			break;
	}
	if (reps.n > 0) {
		wr_rep_summary_print(stdout, &reps);
		wr_run_ext_summary(&r->x, r->e, stdout);
		if (write_json(r, reason, v, &reps) != WR_EXIT_OK &&
		    rc == WR_EXIT_OK)
			rc = WR_EXIT_FAIL;
	}
	wr_rep_free(&reps);
	free(off);
	return rc;
}

/* A run a signal stopped before its engine was up: the JSON still says
 * what was asked and that nothing was sent. */
static int
before_start(struct run *r)
{
	struct wr_report_row *rows = calloc(r->f.n_streams + 1, sizeof(*rows));
	struct wr_report_view v;
	struct wr_report_meta m;
	uint32_t i;
	int rc = WR_EXIT_OK;

	if (rows == NULL)
		return WR_EXIT_FAIL;
	for (i = 0; i < r->f.n_streams; i++) {
		snprintf(rows[i].name, sizeof(rows[i].name), "%s",
			 r->f.streams[i].name);
		rows[i].port = r->f.streams[i].port;
		rows[i].seed = r->f.streams[i].seed;
	}
	memset(&v, 0, sizeof(v));
	v.streams = rows;
	v.n_streams = r->f.n_streams;
	memset(&m, 0, sizeof(m));
	m.wirerate_version = WR_VERSION;
	m.dpdk_version = wr_engine_dpdk_version();
	m.stream_file = r->f.path;
	wr_report_hex(r->f.sha256, m.stream_sha256);
	m.config_file = r->cfg_path ? r->cfg_path : "";
	m.seed = r->f.seed;
	m.stop_reason = "signal";
	printf("\nsummary (stopped by signal before sending: nothing sent)\n");
	if (r->o->json_file != NULL &&
	    wr_report_json(r->o->json_file, &m, &v) != 0)
		rc = WR_EXIT_FAIL;
	free(rows);
	return rc;
}

/* Negative errno from the engine to an exit code: input the user can fix,
 * or a run-time failure. */
static int
exit_code(int rc)
{
	return rc == -EINVAL || rc == -ENODEV || rc == -ENOTSUP ||
		rc == -EMSGSIZE ? WR_EXIT_USAGE : WR_EXIT_FAIL;
}

int
wr_cmd_run(const struct wr_opts *o)
{
	struct run *r = calloc(1, sizeof(*r));
	struct wr_error err;
	int rc;

	if (r == NULL) {
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	r->o = o;
	wr_app_signals(on_signal);
	wr_engine_quiet(o->quiet);
	wr_error_clear(&err);
	rc = prepare(r);
	if (rc == WR_EXIT_OK && wr_signals > 0) {
		/* Signalled while the input was read: EAL is not started
		 * only to be stopped. */
		rc = before_start(r);
	} else if (rc == WR_EXIT_OK) {
		rc = wr_engine_open(&r->e, &r->cfg, r->cfg_path, o->eal,
				    o->n_eal, &err);
		if (rc == 0) {
			wr_engine_set_oversubscribe(r->e, o->oversubscribe);
			rc = wr_run_ext_load(&r->x, o, r->e, &r->f, &r->prep,
					     &err);
		}
		if (rc != 0 && wr_signals > 0) {
			/* Stopped before sending: not a failure. */
			fprintf(stderr, "wirerate: stopped by a signal before "
				"sending: nothing was sent\n");
			rc = before_start(r);
		} else if (rc == 0) {
			rc = peers_open(r);
			if (rc == WR_EXIT_OK)
				rc = o->repeats > 0 ? repeated(r) : traffic(r);
		} else {
			rc = fail(&err, exit_code(rc));
		}
	}
	wr_running = NULL;
	peers_close(r);
	if (wr_run_ext_close(&r->x, r->e) != 0 && rc == WR_EXIT_OK)
		rc = WR_EXIT_FAIL;
	wr_engine_close(r->e);
	/* Lent to the engine until it closed. */
	wr_engine_prepared_free(&r->prep);
	wr_stream_file_free(&r->f);
	wr_config_free(&r->cfg);
	free(r);
	return rc;
}

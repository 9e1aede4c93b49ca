/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_traffic: the JSON-RPC methods of `wirerate serve` on streams (load, remove, list, check) and traffic (start, stop, pause, resume, update, wait, server.reset), and the end of a run. */
#include "wr_server_priv.h"

const char *const wr_srv_state_names[] = { "idle", "running", "done", "bench" };

/* ---- streams ---- */

/* Stream selection from a "streams" member: sel[i] for each named stream.
 * @return false (and replied) when a name is unknown. */
static bool
select_streams(struct server *s, struct conn *c, json_t *id,
	       const struct wr_rpc_req *req, bool *sel, bool *all)
{
	json_t *names = wr_rpc_get(req, "streams"), *v;
	size_t i;

	memset(sel, 0, sizeof(bool) * WR_STREAMS_MAX);
	*all = names == NULL;
	if (!s->loaded) {
		wr_srv_reply_error(s, c, id, WR_RPC_E_STATE, NULL,
				   "no streams loaded: streams.load first");
		return false;
	}
	if (names == NULL) {
		for (i = 0; i < s->f.n_streams; i++)
			sel[i] = true;
		return true;
	}
	json_array_foreach(names, i, v) {
		int k = wr_stream_file_find(&s->f, json_string_value(v));

		if (k < 0) {
			wr_srv_reply_error(s, c, id, WR_RPC_E_NOTFOUND,
					   json_pack("{s:s}", "stream",
						     json_string_value(v)),
					   "no stream named \"%.64s\"",
					   json_string_value(v));
			return false;
		}
		sel[k] = true;
	}
	return true;
}

/* Streams of a sequenced port run by their order, not one by one: a
 * selection that splits such a port is refused.  @return false (replied). */
static bool
whole_sequences(struct server *s, struct conn *c, json_t *id, const bool *sel)
{
	uint32_t i, j;

	for (i = 0; i < s->f.n_streams; i++) {
		uint16_t port = s->f.streams[i].port;

		if (!wr_stream_file_port_sequenced(&s->f, port))
			continue;
		for (j = 0; j < s->f.n_streams; j++)
			if (s->f.streams[j].port == port && sel[j] != sel[i]) {
				wr_srv_reply_error(s, c, id, WR_RPC_E_STATE, NULL,
					       "the streams of port %u run as a "
					       "sequence (next:): select all of them "
					       "or none", port);
				return false;
			}
	}
	return true;
}

/* The engine gives the loaded streams' contexts back (results go too). */
/* Captures (their section below): armed, begun, ended with runs. */

void
wr_srv_unbuild(struct server *s)
{
	if (!s->built)
		return;
	wr_srv_caps_end(s);
	wr_session_unload(&s->sess);
	s->built = false;
	s->state = ST_IDLE;
	s->have_base = false;
}

json_t *
wr_srv_yaml_error_data(const struct wr_error *err, char *line, size_t len)
{
	wr_error_format(err, line, len);
	return json_pack("{s:s, s:i, s:i, s:s, s:s}", "file", err->file,
			 "line", err->line, "col", err->col, "path", err->path,
			 "message", line);
}

/* Parse, then check against this server's ports and build every template
 * (as `wirerate run` does before EAL): what loads here also starts. */
int
wr_srv_parse_streams(struct server *s, const char *name, const char *text,
		     struct wr_stream_file *f, struct wr_error *err)
{
	int rc;

	/* Clients never name the server's files: pcap: only inside the
	 * operator's --pcap-dir (doc/api.md). */
	rc = wr_yaml_load_streams_at(name, text, strlen(text),
				     s->o->pcap_dirfd >= 0 ? s->o->pcap_dirfd :
				     WR_YAML_PCAP_NONE, f, err);
	if (rc != 0)
		return rc;
	rc = wr_engine_check_streams(f, s->e->n_ports, "this server", NULL,
				     err);
	if (rc != 0)
		wr_stream_file_free(f);
	else
		wr_engine_port_macs(s->e, f);
	return rc;
}

/* ---- traffic ---- */

/* The end of a stop: the lcores stopped and the drain is over (or there
 * was none): the NICs' counters, the results, the replies that waited. */
static void
finish_done(struct server *s)
{
	const char *reason = s->stop_reason;
	struct conn *c;

	/* A run shorter than the loop's turn: its start said too. */
	wr_srv_late_check(s);
	wr_engine_stop(s->e, 0); /* the drain was waited out by the loop */
	/* Hosts keep answering between runs: their service polls now. */
	wr_session_traffic_stopped(&s->sess);
	s->stopping = false;
	/* A capture covers the run it started in: it ends with it. */
	wr_srv_caps_end(s);
	wr_engine_collect(s->e, true);
	s->state = ST_DONE;
	s->reason = reason;
	wr_srv_runs_end(s);
	wr_srv_event_push(s, "traffic_done", json_pack("{s:s}", "reason", reason));
	for (c = s->conns; c != NULL; c = c->next) {
		if (c->parked) {
			/* Its traffic.stop, then what it sent meanwhile. */
			c->parked = false;
			wr_srv_conn_send(s, c, wr_rpc_reply_result(c->stop_id,
				       json_pack("{s:s}", "state", "done")));
			json_decref(c->stop_id);
			c->stop_id = NULL;
			if (c->fd >= 0) {
				wr_srv_conn_watch(s, c);
				wr_srv_set_ready(s, c, true);
			}
		}
		if (!c->waiting)
			continue;
		c->waiting = false;
		wr_srv_conn_send(s, c, wr_rpc_reply_result(c->wait_id, json_pack(
			       "{s:s, s:s, s:b}", "state", "done", "stop_reason",
			       reason, "timeout", 0)));
		json_decref(c->wait_id);
		c->wait_id = NULL;
	}
}

/* A stop under way, polled from each turn of the loop: once every lcore
 * stopped sending, echoes are received for the drain time; then it ends.
 * @return true when the run is done. */
static bool
finish_poll(struct server *s)
{
	uint64_t now;

	if (!s->stopping)
		return s->state != ST_RUNNING;
	if (!wr_engine_tx_finished(s->e))
		return false;
	now = rte_rdtsc();
	if (s->drain_end_tsc == 0)
		s->drain_end_tsc = now + (s->e->any_rx ?
			wr_tsc_from_ns(s->drain_ns) : 0);
	if (now < s->drain_end_tsc)
		return false;
	finish_done(s);
	return true;
}

/* Stop the run for @p reason: the lcores are told to stop sending and the
 * loop goes on; the drain is a state it polls (finish_poll()), so a long
 * drain stalls no client (issue 31: drain 8 held every client 8 s). */
void
wr_srv_finish(struct server *s, const char *reason)
{
	if (s->state != ST_RUNNING || s->stopping)
		return;
	s->stopping = true;
	s->stop_reason = reason;
	s->drain_end_tsc = 0;
	wr_engine_request_stop(s->e, false);
	/* Consoles show the wait; traffic_done follows once it is over. */
	wr_srv_event_push(s, "traffic_stopping", json_pack("{s:s, s:f}",
			  "reason", reason, "drain_s", s->e->any_rx ?
			  (double)s->drain_ns / 1e9 : 0.0));
	finish_poll(s);
}

/* The same, waited for here: when the server leaves (its loop is over) or
 * before the engine is taken by something else (server.reset, a job: their
 * results are not kept, so @p drain false skips the wait for echoes). */
void
wr_srv_finish_now(struct server *s, const char *reason, bool drain)
{
	wr_srv_finish(s, reason);
	if (!drain && s->stopping)
		s->drain_ns = 0;
	if (!drain && s->drain_end_tsc != 0)
		s->drain_end_tsc = rte_rdtsc();
	while (!finish_poll(s))
		wr_engine_sleep_ns(1000 * 1000);
}

/* Every stream that has a count sent all of it. */
static bool
counts_done(struct server *s)
{
	struct wr_report_view *v = wr_engine_collect(s->e, false);
	uint32_t i;
	bool any = false;

	for (i = 0; i < s->f.n_streams && i < v->n_streams; i++) {
		if (s->run_count[i] == 0)
			continue;
		any = true;
		if (v->streams[i].total.tx_pkts < s->run_count[i])
			return false;
	}
	return any;
}

/* The streams sent what they had to and the tcp: classes' clients are
 * done (a file of tcp: classes alone: they are; a server alone never is:
 * it ends by duration or traffic.stop). */
static bool
tx_finished(struct server *s)
{
	if (s->f.tcp.n == 0)
		return wr_engine_tx_finished(s->e);
	return (s->f.n_streams == 0 || wr_engine_tx_finished(s->e)) &&
	       !wr_srv_tcp_running(s);
}

void
wr_srv_traffic_tick(struct server *s)
{
	uint32_t i;

	if (s->state != ST_RUNNING)
		return;
	wr_srv_runs_tick(s);
	if (s->stopping) {
		finish_poll(s);
		return;
	}
	for (i = 0; i < s->f.n_streams; i++)
		if (!s->ended[i] && wr_engine_stream_done(s->e, i)) {
			s->ended[i] = true;
			wr_srv_event_push(s, "stream_ended", json_pack("{s:s, s:i}",
				       "stream", s->f.streams[i].name, "index", i));
		}
	/* TX lcores leave a port whose link went (wr_engine_ports.c): a run
	 * that ended so, short of its counts or with none, ended by the link
	 * (it said "count" for an unlimited stream). */
	if (tx_finished(s) && !s->hold)
		wr_srv_finish(s, wr_engine_links_check(s->e) > 0 &&
			      !counts_done(s) ? "link-down" :
			      s->stopped_some ? "stopped" :
			      s->duration && !counts_done(s) ? "duration" : "count");
	else if (rte_rdtsc() >= s->deadline_tsc)
		wr_srv_finish(s, "duration");
}

static json_t *
stream_names(struct server *s)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; s->loaded && i < s->f.n_streams; i++)
		json_array_append_new(a, json_string(s->f.streams[i].name));
	return a;
}

/* A loaded stream's rate before the engine holds it (after streams.load,
 * or once a benchmark gave the engine back): its rate: over its port's
 * link, as the engine will set it.  0 when only a start knows it (a ramp,
 * trains, a capture's own timing, a replay in bit/s: the engine's
 * schedule and frame sizes). */
static uint64_t
loaded_millipps(const struct server *s, const struct wr_stream *st)
{
	struct wr_size_avg avg;
	uint64_t r;

	if (st->has_ramp || st->train_frames != 0 ||
	    (st->replay != NULL && (st->replay->timing ==
	     WR_REPLAY_TIMING_CAPTURE || (st->rate.unit != WR_RATE_PPS &&
					  st->rate.unit != WR_RATE_MAX))))
		return 0;
	if (wr_size_avg_of(&st->size, &avg) != 0 && st->rate.unit !=
	    WR_RATE_PPS && st->rate.unit != WR_RATE_MAX)
		return 0;
	if (wr_rate_millipps(&st->rate, &avg,
			     s->e->ports[st->port].link_speed_mbps, &r) != 0)
		return 0;
	return r;
}

static json_t *
streams_json(struct server *s)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; s->loaded && i < s->f.n_streams; i++) {
		const struct wr_stream *st = &s->f.streams[i];
		uint64_t r = s->built ? wr_engine_stream_millipps(s->e, i) :
			loaded_millipps(s, st);
		const char *state = s->state != ST_RUNNING ? "loaded" :
			s->ended[i] ? "ended" : s->paused[i] ? "paused" :
			"running";
		char written[64];

		int64_t d = s->built ? wr_engine_stream_ctl_delay_ns(s->e, i) : -1;

		/* The rate as the file writes it: what rate_pps null means
		 * (max, or a rate only a start resolves). */
		if (st->has_ramp)
			snprintf(written, sizeof(written), "ramp");
		else
			wr_describe_rate(&st->rate, written, sizeof(written));
		json_array_append_new(a, json_pack(
			"{s:s, s:i, s:i, s:I, s:s, s:s, s:o, s:o}", "name", st->name,
			"index", i, "port", st->port, "count",
			(json_int_t)st->count, "state", state, "rate", written,
			"rate_pps", r == 0 || r == WR_RATE_UNPACED ? json_null() :
			json_real((double)r / 1000.0),
			/* publish to pick-up by the slowest lane, ns */
			"ctl_delay_ns", d < 0 ? json_null() : json_integer(d)));
	}
	return a;
}

json_t *
wr_srv_m_load(struct call *k)
{
	struct server *s = k->s;
	struct wr_stream_file f;
	struct wr_error err;
	const char *name = wr_rpc_str(k->req, "name");
	char line[1024];
	uint64_t mask;
	uint32_t i;

	if (wr_srv_bench_busy(k))
		return NULL;
	if (s->state == ST_RUNNING) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "traffic is running: traffic.stop first");
		return NULL;
	}
	wr_error_clear(&err);
	memset(&f, 0, sizeof(f));
	if (wr_srv_parse_streams(s, name ? name : "<streams.load>",
				 wr_rpc_str(k->req, "yaml"), &f, &err) != 0) {
		json_t *data = wr_srv_yaml_error_data(&err, line, sizeof(line));

		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STREAMS, data, "%s", line);
		return NULL;
	}
	mask = wr_srv_ports_of(s, NULL);
	for (i = 0; i < f.n_streams; i++)
		mask |= 1ull << f.streams[i].port;
	if (!wr_srv_owns(s, k->c, k->id, mask)) {
		wr_stream_file_free(&f);
		return NULL;
	}
	wr_srv_unbuild(s);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	s->f = f;
	s->loaded = true;
	s->cap_hints_ok = false;
	free(s->source);
	s->source = strdup(wr_rpc_str(k->req, "yaml"));
	snprintf(s->source_name, sizeof(s->source_name), "%s",
		 name ? name : "<streams.load>");
	/* Every console shows what is loaded now (doc/api.md, events). */
	wr_srv_event_push(s, "streams_loaded", json_pack("{s:s, s:s, s:o}", "file",
			  s->source_name, "session", k->c->sess->name, "streams",
			  stream_names(s)));
	return json_pack("{s:o}", "streams", streams_json(s));
}

json_t *
wr_srv_m_remove(struct call *k)
{
	struct server *s = k->s;
	bool sel[WR_STREAMS_MAX], all;
	uint32_t i, n = 0;

	if (wr_srv_bench_busy(k))
		return NULL;
	if (!s->loaded)
		return json_pack("{s:[]}", "streams");
	if (!select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !wr_srv_owns(s, k->c, k->id, wr_srv_ports_of(s, sel)))
		return NULL;
	if (s->state == ST_RUNNING) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "traffic is running: traffic.stop first");
		return NULL;
	}
	wr_srv_unbuild(s);
	for (i = 0; i < s->f.n_streams; i++) {
		if (sel[i]) {
			wr_stream_free(&s->f.streams[i]);
			continue;
		}
		s->f.streams[n++] = s->f.streams[i];
	}
	s->f.n_streams = n;
	if (n == 0) {
		wr_stream_file_free(&s->f);
		s->loaded = false;
	}
	wr_srv_event_push(s, "streams_removed", json_pack("{s:s, s:o}", "session",
			  k->c->sess->name, "streams", stream_names(s)));
	return json_pack("{s:o}", "streams", streams_json(s));
}

json_t *
wr_srv_m_list(struct call *k)
{
	struct server *s = k->s;
	json_t *res = json_pack("{s:s, s:o}", "state", wr_srv_state_names[s->state],
				"streams", streams_json(s));

	/* The text loaded, as its client sent it: what another console
	 * shows of someone else's streams. */
	if (res != NULL && wr_rpc_bool(k->req, "source", false))
		json_object_set_new(res, "source", !s->loaded || !s->source ?
			json_null() : json_pack("{s:s, s:s}", "file",
			s->source_name, "yaml", s->source));
	return res;
}

/* streams.check: the loader and template builder streams.load runs, on
 * text that is not loaded: the console checks the editor's text as it is
 * typed.  Read-only; an error is a result, not a JSON-RPC error. */
json_t *
wr_srv_m_check(struct call *k)
{
	struct server *s = k->s;
	const char *name = wr_rpc_str(k->req, "name");
	struct wr_stream_file f;
	struct wr_error err;
	char line[1024], hex[65], *buf;
	json_t *streams, *seqs;
	uint32_t i;

	wr_error_clear(&err);
	memset(&f, 0, sizeof(f));
	if (wr_srv_parse_streams(s, name ? name : "<streams.check>",
				 wr_rpc_str(k->req, "yaml"), &f, &err) != 0)
		return json_pack("{s:b, s:o}", "valid", 0, "error",
				 wr_srv_yaml_error_data(&err, line, sizeof(line)));
	buf = malloc(WR_DESCRIBE_MAX);
	streams = json_array();
	seqs = json_array();
	for (i = 0; buf != NULL && i < f.n_streams; i++) {
		const struct wr_stream *st = &f.streams[i];
		char rate[64];

		wr_describe_stream(st, "", buf, WR_DESCRIBE_MAX);
		wr_describe_rate(&st->rate, rate, sizeof(rate));
		json_array_append_new(streams, json_pack(
			"{s:s, s:i, s:I, s:s, s:b, s:s}", "name", st->name,
			"port", st->port, "count", (json_int_t)st->count,
			"rate", rate, "latency", st->latency, "summary", buf));
	}
	for (i = 0; i < WR_PORTS_MAX; i++)
		if (wr_stream_file_port_sequenced(&f, (uint16_t)i))
			json_array_append_new(seqs, json_pack("{s:i, s:I}",
				"port", i, "loops", (json_int_t)f.loops));
	wr_report_hex(f.sha256, hex);
	free(buf);
	{
		json_t *res = json_pack("{s:b, s:s, s:s, s:I, s:o, s:o}",
			"valid", 1, "file", f.path, "sha256", hex, "seed",
			(json_int_t)f.seed, "streams", streams, "sequences",
			seqs);

		wr_stream_file_free(&f);
		return res;
	}
}

double
wr_srv_tsc_wall(const struct server *s, uint64_t t)
{
	/* The way start_at became a TSC deadline, backwards: from the
	 * deadline, at the calibrated frequency. */
	if (s->start_at != 0)
		return t >= s->start_at_tsc ?
			s->start_at + (double)wr_tsc_to_ns(t - s->start_at_tsc) / 1e9 :
			s->start_at - (double)wr_tsc_to_ns(s->start_at_tsc - t) / 1e9;
	return s->ref_wall + ((double)t - (double)s->ref_tsc) /
	       (double)wr_tsc_hz();
}

int64_t
wr_srv_late_ns(const struct server *s, uint64_t t)
{
	return t >= s->start_at_tsc ? (int64_t)wr_tsc_to_ns(t - s->start_at_tsc) :
	       -(int64_t)wr_tsc_to_ns(s->start_at_tsc - t);
}

void
wr_srv_late_check(struct server *s)
{
	uint64_t t;
	int64_t late;

	if (s->state != ST_RUNNING || s->start_at == 0 || s->late_said)
		return;
	t = wr_engine_first_burst_tsc(s->e);
	if (t == 0)
		return;
	s->late_said = true;
	late = wr_srv_late_ns(s, t);
	if (late <= (int64_t)START_LATE_NS)
		return;
	SRV_LOG(WARNING, "warning: the first frame was handed to the device "
		"%.3f ms after start_at (more than %.3f ms late: another "
		"thread held the TX lcore's CPU at the instant?)\n",
		(double)late / 1e6, START_LATE_NS / 1e6);
	wr_srv_event_push(s, "traffic_late", json_pack("{s:I, s:f, s:f}",
			  "late_ns", (json_int_t)late, "start_at", s->start_at,
			  "tx_started_at", wr_srv_tsc_wall(s, t)));
}

/* Launch time from a wall-clock instant: the TSC at that instant, read
 * against CLOCK_REALTIME now. */
static bool
start_tsc_of(struct call *k, double start_at, uint64_t *tsc)
{
	double ahead = start_at - wr_srv_wall_s();

	if (ahead < 0 || ahead > START_AT_MAX_S) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STATE,
				   json_pack("{s:f}", "ahead_s", ahead),
				   "start_at is %.3f s %s: expected an instant in "
				   "the next %.0f s (Unix time in seconds)",
				   fabs(ahead), ahead < 0 ? "in the past" : "ahead",
				   START_AT_MAX_S);
		return false;
	}
	/* The freshest calibration (wr_clock_eal.h): at DPDK's rounded figure a
	 * start 2 s ahead would be 3 ms late. */
	wr_tsc_refine();
	*tsc = rte_rdtsc() + wr_tsc_from_ns((uint64_t)(ahead * 1e9));
	return true;
}

/* When traffic.start's duration ends the run: a backstop only for
 * streams (the lcores end them at the duration), the end of tcp: classes
 * alone (their own duration ends their opening, the run ends with their
 * clients).  UINT64_MAX: none. */
static uint64_t
deadline_of(const struct server *s, uint64_t start_tsc, double dur)
{
	if (dur <= 0)
		return UINT64_MAX;
	return start_tsc + wr_tsc_from_ns((uint64_t)((dur + (s->f.n_streams > 0 ?
						      1.0 : 0.0)) * 1e9));
}

json_t *
wr_srv_m_start(struct call *k)
{
	struct server *s = k->s;
	json_t *res;
	struct wr_rate_spec spec;
	struct wr_error err;
	bool sel[WR_STREAMS_MAX], all, has_rate;
	struct wr_rate_spec rate_save[WR_STREAMS_MAX];
	uint64_t count_save[WR_STREAMS_MAX], dur_save[WR_STREAMS_MAX];
	uint64_t start_tsc = 0;
	double dur = wr_rpc_num(k->req, "duration", 0);
	time_t wall;
	struct tm tm;
	uint32_t i;
	int rc;

	/* bench.start's --drain limit (WR_DRAIN_MAX_NS), in its words. */
	if (wr_rpc_num(k->req, "drain", 0) * 1e9 > (double)WR_DRAIN_MAX_NS) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
				   "{s:s, s:s}", "param", "drain", "expected",
				   "seconds from 0 to 60"), "traffic.start: drain: "
				   "expected a duration of 0 to 60 s such as 2 or "
				   "0.2, got %g", wr_rpc_num(k->req, "drain", 0));
		return NULL;
	}
	/* The stream file's tcp: classes run with every start. */
	if (wr_srv_bench_busy(k) ||
	    !select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !wr_srv_owns(s, k->c, k->id, wr_srv_ports_of(s, sel) |
			 wr_srv_tcp_ports_of(s, -1)) ||
	    !whole_sequences(s, k->c, k->id, sel))
		return NULL;
	if (s->state == ST_RUNNING) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "traffic is already running: traffic.stop first");
		return NULL;
	}
	has_rate = wr_rpc_rate(k->req, "rate", &spec) == 0;
	for (i = 0; has_rate && i < s->f.n_streams; i++)
		if (sel[i] && s->f.streams[i].has_ramp) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
					   "stream \"%s\" has a ramp: its ramp sets "
					   "its rate", s->f.streams[i].name);
			return NULL;
		}
	if (wr_rpc_has(k->req, "start_at") &&
	    !start_tsc_of(k, wr_rpc_num(k->req, "start_at", 0), &start_tsc))
		return NULL;
	s->start_at = start_tsc != 0 ? wr_rpc_num(k->req, "start_at", 0) : 0;
	s->start_at_tsc = start_tsc;
	s->late_said = false;
	wr_srv_unbuild(s);
	/* Overrides for this start only: the loaded streams keep theirs. */
	for (i = 0; i < s->f.n_streams; i++) {
		rate_save[i] = s->f.streams[i].rate;
		count_save[i] = s->f.streams[i].count;
		dur_save[i] = s->f.streams[i].duration_ns;
		if (!sel[i])
			continue;
		if (has_rate)
			s->f.streams[i].rate = spec;
		if (wr_rpc_has(k->req, "count"))
			s->f.streams[i].count = wr_rpc_uint(k->req, "count", 0);
		/* The TX lcores end the streams at the duration themselves,
		 * on their TSC from their first frame: exact to a burst,
		 * whatever the main lcore is doing. */
		if (dur > 0)
			s->f.streams[i].duration_ns = (uint64_t)(dur * 1e9);
	}
	for (i = 0; i < s->f.n_streams; i++)
		s->run_count[i] = sel[i] ? s->f.streams[i].count : 0;
	wr_srv_caps_prepare(s);
	wr_error_clear(&err);
	rc = wr_session_load(&s->sess, &s->f, &err);
	for (i = 0; i < s->f.n_streams; i++) {
		s->f.streams[i].rate = rate_save[i];
		s->f.streams[i].count = count_save[i];
		s->f.streams[i].duration_ns = dur_save[i];
	}
	if (rc != 0) {
		char line[1024];
		json_t *data = wr_srv_yaml_error_data(&err, line, sizeof(line));

		json_object_set_new(data, "errno", json_integer(-rc));
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, data, "%s", line);
		return NULL;
	}
	s->built = true;
	wr_srv_caps_begin(s);
	memset(s->paused, 0, sizeof(s->paused));
	memset(s->ended, 0, sizeof(s->ended));
	s->stopped_some = false;
	/* Streams not named never send: stopped before the lcores start
	 * (no stream_ended event for them: they never began). */
	for (i = 0; i < s->f.n_streams; i++)
		if (!sel[i]) {
			wr_engine_stream_ctl(s->e, i, WR_TX_CTL_STOP, 0);
			s->ended[i] = true;
		}
	s->drain_ns = wr_rpc_has(k->req, "drain") ?
		(uint64_t)(wr_rpc_num(k->req, "drain", 0) * 1e9) :
		DRAIN_DEFAULT_NS;
	if (start_tsc == 0)
		start_tsc = rte_rdtsc();
	s->deadline_tsc = deadline_of(s, start_tsc, dur);
	s->duration = dur > 0;
	s->hold = wr_rpc_bool(k->req, "hold", false);
	s->have_base = false;
	rc = wr_engine_start_at(s->e, start_tsc, &err);
	if (rc != 0) {
		wr_srv_unbuild(s);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, NULL, "%s",
				   err.msg);
		return NULL;
	}
	{
		uint64_t now = rte_rdtsc();

		wall = time(NULL) + (start_tsc > now ? (time_t)(wr_tsc_to_ns(
			start_tsc - now) / 1000000000ull) : 0);
	}
	gmtime_r(&wall, &tm);
	strftime(s->started_at, sizeof(s->started_at), "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	s->ref_tsc = rte_rdtsc();
	s->ref_wall = wr_srv_wall_s();
	s->state = ST_RUNNING;
	s->reason = "running";
	wr_srv_runs_begin(s);
	wr_srv_event_push(s, "traffic_started", NULL);
	res = json_pack("{s:s, s:o}", "state", "running", "streams",
			streams_json(s));
	/* The hosts as their bring-up left them (the streams start all the
	 * same): how many ports' hosts were still pending when the wait
	 * ended, and each port's hosts by state (doc/hosts.md). */
	if (res != NULL && s->sess.hosts != NULL) {
		json_t *h = wr_srv_hosts_json(s);

		json_object_set_new(res, "hosts_down",
				    json_integer(s->sess.hosts_down));
		if (h != NULL)
			json_object_set_new(res, "hosts", h);
	}
	return res;
}

static bool
need_running(struct call *k)
{
	if (k->s->state == ST_RUNNING)
		return true;
	wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
			   "no traffic running (state %s)", wr_srv_state_names[k->s->state]);
	return false;
}

/* stop, pause, resume: each selected stream gets the state; a stop of
 * every stream ends the run (drain, NIC counters) at once. */
static json_t *
m_ctl(struct call *k, enum wr_tx_ctl_state st)
{
	struct server *s = k->s;
	bool sel[WR_STREAMS_MAX], all;
	uint32_t i;

	/* A stop of everything stops the tcp: classes too. */
	if (wr_srv_bench_busy(k) ||
	    !select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !wr_srv_owns(s, k->c, k->id, wr_srv_ports_of(s, sel) |
			 (st == WR_TX_CTL_STOP && all ?
			  wr_srv_tcp_ports_of(s, -1) : 0)))
		return NULL;
	if (st == WR_TX_CTL_STOP && s->state != ST_RUNNING)
		return json_pack("{s:s}", "state", wr_srv_state_names[s->state]);
	if (!need_running(k))
		return NULL;
	if (st == WR_TX_CTL_STOP && (all || s->stopping)) {
		wr_srv_finish(s, "stopped");
		if (s->state != ST_RUNNING || k->c->quiet)
			return json_pack("{s:s}", "state",
					 wr_srv_state_names[s->state]);
		/* Answered when the drain is over (finish_done()); this
		 * connection's later requests wait behind it, the other
		 * clients are served meanwhile. */
		k->c->parked = true;
		k->c->stop_id = json_incref(k->id ? k->id : json_null());
		wr_srv_conn_watch(s, k->c);
		return NULL;
	}
	for (i = 0; i < s->f.n_streams; i++)
		if (sel[i] && wr_stream_file_port_sequenced(&s->f,
						s->f.streams[i].port)) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
					   "stream \"%s\" runs in a sequence: only "
					   "traffic.stop of everything applies",
					   s->f.streams[i].name);
			return NULL;
		}
	for (i = 0; i < s->f.n_streams; i++) {
		if (!sel[i] || s->ended[i])
			continue;
		wr_engine_stream_ctl(s->e, i, st, 0);
		s->paused[i] = st == WR_TX_CTL_PAUSE;
	}
	if (st == WR_TX_CTL_STOP)
		s->stopped_some = true;
	return json_pack("{s:s, s:o}", "state", wr_srv_state_names[s->state],
			 "streams", streams_json(s));
}

json_t *
wr_srv_m_stop(struct call *k)
{
	return m_ctl(k, WR_TX_CTL_STOP);
}

json_t *
wr_srv_m_pause(struct call *k)
{
	return m_ctl(k, WR_TX_CTL_PAUSE);
}

json_t *
wr_srv_m_resume(struct call *k)
{
	return m_ctl(k, WR_TX_CTL_RUN);
}

json_t *
wr_srv_m_update(struct call *k)
{
	struct server *s = k->s;
	bool sel[WR_STREAMS_MAX], all, has_rate, has_mult;
	uint64_t target[WR_STREAMS_MAX];
	struct wr_rate_spec spec;
	double mult = wr_rpc_num(k->req, "multiplier", 0);
	uint32_t i;
	int rc;

	has_rate = wr_rpc_rate(k->req, "rate", &spec) == 0;
	has_mult = wr_rpc_has(k->req, "multiplier");
	if (has_rate == has_mult) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
			       "{s:s, s:s}", "param", "rate", "expected",
			       "exactly one of rate and multiplier"),
			       "traffic.update: give exactly one of rate and "
			       "multiplier");
		return NULL;
	}
	if (wr_srv_bench_busy(k) ||
	    !select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !wr_srv_owns(s, k->c, k->id, wr_srv_ports_of(s, sel)) || !need_running(k))
		return NULL;
	/* Every new rate is computed and checked before any is published:
	 * an update applies to all the selected streams or to none. */
	for (i = 0; i < s->f.n_streams; i++) {
		uint64_t cur = wr_engine_stream_millipps(s->e, i);
		const struct wr_stream *st = &s->f.streams[i];

		if (!sel[i])
			continue;
		if (has_rate) {
			rc = wr_engine_stream_rate(s->e, i, &spec, &target[i]);
		} else if (cur == WR_RATE_UNPACED) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
					   "stream \"%s\" sends at the maximum rate: "
					   "a multiplier needs a set rate; give rate",
					   st->name);
			return NULL;
		} else {
			double t = (double)cur * mult;

			rc = t >= 1 && t < (double)WR_RATE_UNPACED ? 0 : -ERANGE;
			target[i] = (uint64_t)(t + 0.5);
		}
		if (rc == 0 && (st->has_ramp || st->train_frames != 0 ||
				wr_stream_file_port_sequenced(&s->f, st->port)))
			rc = -ENOTSUP;
		if (rc != 0) {
			wr_srv_reply_error(s, k->c, k->id, rc == -ENOTSUP ?
					   WR_RPC_E_STATE : WR_RPC_E_PARAMS, NULL,
					   "stream \"%s\": %s", st->name,
					   rc == -ENOTSUP ? "its ramp, trains or "
					   "sequence set its rate" :
					   "the rate is out of range for this stream");
			return NULL;
		}
	}
	for (i = 0; i < s->f.n_streams; i++) {
		if (!sel[i] || s->ended[i])
			continue;
		rc = wr_engine_stream_ctl(s->e, i, s->paused[i] ?
					  WR_TX_CTL_PAUSE : WR_TX_CTL_RUN,
					  target[i]);
		if (rc != 0) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, json_pack(
				       "{s:i}", "errno", -rc), "stream \"%s\": the "
				       "pacer cannot keep this rate (%s)",
				       s->f.streams[i].name, strerror(-rc));
			return NULL;
		}
	}
	wr_srv_event_push(s, "rate_updated", NULL);
	return json_pack("{s:s, s:o}", "state", wr_srv_state_names[s->state],
			 "streams", streams_json(s));
}

json_t *
wr_srv_m_wait(struct call *k)
{
	double t = wr_rpc_num(k->req, "timeout", 0);

	if (k->s->state != ST_RUNNING)
		return json_pack("{s:s, s:s?, s:b}", "state",
				 wr_srv_state_names[k->s->state], "stop_reason",
				 k->s->state == ST_DONE ? k->s->reason : NULL,
				 "timeout", 0);
	if (k->c->quiet)
		return NULL; /* a notification: nobody to answer */
	if (k->c->waiting) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "this connection already waits");
		return NULL;
	}
	k->c->waiting = true;
	k->c->wait_id = json_incref(k->id ? k->id : json_null());
	k->c->wait_deadline_ms = t > 0 ? wr_srv_now_ms() + (uint64_t)(t * 1000) : 0;
	return NULL; /* answered when traffic ends or the timeout passes */
}

json_t *
wr_srv_m_reset(struct call *k)
{
	struct server *s = k->s;

	if (wr_srv_bench_busy(k) || !wr_srv_owns(s, k->c, k->id, wr_srv_ports_of(s, NULL)))
		return NULL;
	wr_srv_finish_now(s, "reset", false);
	wr_srv_unbuild(s);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	s->loaded = false;
	wr_srv_event_push(s, "streams_removed", json_pack("{s:s, s:[]}", "session",
			  k->c->sess->name, "streams"));
	wr_srv_caps_forget(s);
	return json_pack("{s:s}", "state", wr_srv_state_names[s->state]);
}

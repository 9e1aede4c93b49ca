/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_jobs: the benchmark jobs of `wirerate serve` (bench.*): the library the CLI runs, on the server's engine, its log and results kept. */
#include "wr_server_priv.h"

const char *const wr_srv_job_state_names[] = { "queued", "running", "done",
						"failed", "cancelled" };


/* ---- benchmarks ---- */

void
wr_srv_job_free(struct job *j)
{
	unsigned int i;

	if (j == NULL)
		return;
	wr_bench_fini(&j->b);
	wr_bench_result_free(&j->r);
	wr_stream_file_free(&j->f);
	for (i = 0; i < j->n_strs; i++)
		free(j->strs[i]);
	free(j->log);
	free(j);
}

static struct job *
job_find(struct call *k)
{
	struct server *s = k->s;
	unsigned int i;

	if (!wr_rpc_has(k->req, "job")) {
		if (s->n_jobs > 0)
			return s->jobs[s->n_jobs - 1];
	} else {
		uint64_t id = wr_rpc_uint(k->req, "job", 0);

		for (i = 0; i < s->n_jobs; i++)
			if (s->jobs[i]->id == id)
				return s->jobs[i];
	}
	wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_NOTFOUND, json_pack("{s:I}",
			   "job", (json_int_t)wr_rpc_uint(k->req, "job", 0)),
			   "no such benchmark job (bench.list lists them)");
	return NULL;
}

/* The time left as of now: the estimate of the last progress line less the
 * time since it came.  Lines come per trial, which can be seconds apart (a
 * sweep's size, an RFC 2544 trial), so the estimate as it was made would be
 * stale by up to that much; the model's error is not the reader's to add. */
static double
job_eta_now(const struct job *j)
{
	double age = (double)(wr_srv_now_ms() - j->progress_ms) / 1e3;

	if (j->state != JOB_RUNNING || j->progress.eta_s <= 0)
		return j->progress.eta_s;
	return j->progress.eta_s > age ? j->progress.eta_s - age : 0;
}

static json_t *
job_json(const struct job *j)
{
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:f}", "job", j->id,
			      "kind", wr_bench_kind_name(j->kind), "state",
			      wr_srv_job_state_names[j->state], "session", j->session,
			      "queued_at", j->queued_at);

	if (o == NULL)
		return NULL;
	json_object_set_new(o, "started_at", j->started_at > 0 ?
			    json_real(j->started_at) : json_null());
	json_object_set_new(o, "finished_at", j->finished_at > 0 ?
			    json_real(j->finished_at) : json_null());
	json_object_set_new(o, "stream_file", json_string(j->f.path));
	json_object_set_new(o, "progress", json_pack(
		"{s:s, s:i, s:i, s:i, s:f, s:b, s:f, s:f}", "test",
		j->progress_test, "size", j->progress.size, "done",
		j->progress.done, "estimate", j->progress.estimate, "eta_s",
		job_eta_now(j), "eta_bound", j->progress.eta_bound,
		"rate_pps",
		(double)j->progress.rate_millipps / 1e3, "elapsed_s",
		j->progress.elapsed_s));
	json_object_set_new(o, "line", json_string(j->line));
	json_object_set_new(o, "error", j->error[0] ? json_string(j->error) :
			    json_null());
	if (j->has_result) {
		json_object_set_new(o, "stop_reason", json_string(
			j->kind == WR_BENCH_RTT ? j->r.rtt_meta.stop_reason :
			j->r.m.stop_reason ? j->r.m.stop_reason : "done"));
		json_object_set_new(o, "gen_limited",
				    json_boolean(j->r.gen_limited));
	}
	return o;
}

/* The hooks of a job: its log kept, each trial an event, time passing as
 * turns of the server's loop (clients are served while trials run). */
static void
job_line(void *ctx, const char *text, const struct wr_bench_progress *p,
	 bool counted)
{
	struct job *j = ctx;
	size_t n = strlen(text);

	if (j->log_len + n < JOB_LOG_MAX) {
		char *nb = realloc(j->log, j->log_len + n + 1);

		if (nb != NULL) {
			j->log = nb;
			memcpy(j->log + j->log_len, text, n + 1);
			j->log_len += n;
		}
	}
	if (p == NULL)
		return;
	j->progress = *p;
	j->progress_ms = wr_srv_now_ms();
	snprintf(j->progress_test, sizeof(j->progress_test), "%s", p->test);
	snprintf(j->line, sizeof(j->line), "%.*s", (int)(n > 0 &&
		 text[n - 1] == '\n' ? n - 1 : n), text);
	if (counted)
		wr_srv_event_push(j->s, "bench_progress", json_pack(
			       "{s:i, s:s, s:i, s:i, s:i, s:f, s:b, s:f, s:s}", "job",
			       j->id, "test", p->test, "size", p->size, "done", p->done,
			       "estimate", p->estimate, "eta_s", p->eta_s,
			       "eta_bound", p->eta_bound, "rate_pps",
			       (double)p->rate_millipps / 1e3, "line", j->line));
}

static void
job_note(void *ctx, const char *text)
{
	char line[600];

	snprintf(line, sizeof(line), "wirerate: %s\n", text);
	job_line(ctx, line, NULL, false);
}

static void
job_wait(void *ctx, uint64_t ns)
{
	struct job *j = ctx;
	struct server *s = j->s;
	uint64_t end = wr_srv_now_ms() + (ns + 999999) / 1000000, t;

	do {
		/* A signal to the server cancels the job first. */
		if (*s->stop && j->cancel == 0) {
			j->cancel = 1;
			wr_engine_request_stop(s->e, false);
		}
		t = wr_srv_now_ms();
		s->loop_turn(s, t < end ? (int)(end - t) : 0);
	} while (wr_srv_now_ms() < end);
}

/* An option's value as the command line would give it. */
static bool
opt_text(json_t *v, char *buf, size_t len)
{
	size_t i;
	json_t *x;
	int n = 0;

	if (json_is_string(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
		return true;
	}
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		return true;
	}
	if (json_is_real(v)) {
		snprintf(buf, len, "%.9g", json_real_value(v));
		return true;
	}
	if (!json_is_array(v))
		return false;
	/* [64, 128] as "64,128"; [[0, 1], [2, 3]] as "0:1,2:3". */
	buf[0] = '\0';
	json_array_foreach(v, i, x) {
		if (json_is_integer(x))
			n += snprintf(buf + n, len - (size_t)n, "%s%lld",
				      i ? "," : "", (long long)json_integer_value(x));
		else if (json_is_array(x) && json_array_size(x) == 2 &&
			 json_is_integer(json_array_get(x, 0)) &&
			 json_is_integer(json_array_get(x, 1)))
			n += snprintf(buf + n, len - (size_t)n, "%s%lld:%lld",
				      i ? "," : "",
				      (long long)json_integer_value(json_array_get(x, 0)),
				      (long long)json_integer_value(json_array_get(x, 1)));
		else
			return false;
		if ((size_t)n >= len)
			return false;
	}
	return true;
}

json_t *
wr_srv_m_bench_start(struct call *k)
{
	struct server *s = k->s;
	const char *kind = wr_rpc_str(k->req, "kind");
	const char *yaml = wr_rpc_str(k->req, "yaml");
	const char *name = wr_rpc_str(k->req, "name");
	json_t *opts = wr_rpc_get(k->req, "options"), *v;
	struct wr_error err;
	struct job *j;
	const char *key;
	char line[1024];
	uint64_t mask;
	unsigned int i;

	if (s->state == ST_RUNNING || s->job != NULL) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, "%s",
				   s->job != NULL ? "a benchmark job is queued or runs: "
				   "one at a time" : "traffic is running: "
				   "traffic.stop first");
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (j == NULL) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "out of memory");
		return NULL;
	}
	j->s = s;
	if (wr_bench_kind_find(kind, &j->kind) != 0) {
		wr_srv_job_free(j);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
			       "{s:s, s:s}", "param", "kind", "expected",
			       "sweep, rfc2544 or rtt"), "bench.start: kind: expected "
			       "sweep, rfc2544 or rtt, got \"%.32s\"", kind);
		return NULL;
	}
	/* The options, by the command line's names, through its parser. */
	wr_error_clear(&err);
	json_object_foreach(opts, key, v) {
		char text[1024];
		int rc;

		if (!opt_text(v, text, sizeof(text)) ||
		    j->n_strs == sizeof(j->strs) / sizeof(j->strs[0])) {
			wr_srv_job_free(j);
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
				       "{s:s, s:s}", "param", key, "expected", "a "
				       "string, a number or a list of them"),
				       "bench.start: options.%.64s: expected a string, "
				       "a number or a list of them", key);
			return NULL;
		}
		j->strs[j->n_strs] = strdup(text);
		if (j->strs[j->n_strs] == NULL) {
			wr_srv_job_free(j);
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
					   "out of memory");
			return NULL;
		}
		rc = wr_bench_opt(&j->o, j->kind, key, j->strs[j->n_strs++],
				  &err);
		if (rc != 0) {
			wr_srv_job_free(j);
			if (rc == -ENOENT)
				wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS,
					       json_pack("{s:s, s:s}", "param", key,
					       "expected", "an option of wirerate's "
					       "benchmarks (doc/api.md)"), "bench.start: "
					       "options: unknown option \"%.64s\"", key);
			else
				wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS,
					       json_pack("{s:s}", "param", key), "%s: %s",
					       err.path, err.msg);
			return NULL;
		}
	}
	/* Its own stream file: the text given, else the loaded one. */
	if (yaml == NULL && (!s->loaded || s->source == NULL)) {
		wr_srv_job_free(j);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, "no streams "
				   "loaded: give yaml, or streams.load first");
		return NULL;
	}
	if (wr_srv_parse_streams(s, yaml ? (name ? name : "<bench.start>") :
				 s->source_name, yaml ? yaml : s->source, &j->f,
				 &err) != 0) {
		json_t *data = wr_srv_yaml_error_data(&err, line, sizeof(line));

		wr_srv_job_free(j);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STREAMS, data, "%s", line);
		return NULL;
	}
	j->hooks.ctx = j;
	j->hooks.line = job_line;
	j->hooks.wait = job_wait;
	j->hooks.note = job_note;
	j->hooks.cancel = &j->cancel;
	wr_error_clear(&err);
	if (wr_bench_init(&j->b, j->kind, &j->o, &j->hooks, &j->f,
			  s->e->n_ports, &err) != 0) {
		wr_error_format(&err, line, sizeof(line));
		wr_srv_job_free(j);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL, "%s", line);
		return NULL;
	}
	/* The ports it sends on and receives on are the caller's. */
	mask = 1ull << j->f.streams[j->b.stream].port;
	if (j->o.tx_port_set)
		mask |= 1ull << j->o.tx_port;
	if (j->o.rx_port_set)
		mask |= 1ull << j->o.rx_port;
	for (i = 0; i < j->o.n_pairs; i++)
		mask |= 1ull << j->o.pairs[i][0] | 1ull << j->o.pairs[i][1];
	if (!wr_srv_owns(s, k->c, k->id, mask)) {
		wr_srv_job_free(j);
		return NULL;
	}
	for (i = 0; i < s->e->n_ports; i++)
		if ((mask & (1ull << i)) &&
		    wr_bench_max_frame(&j->b) > s->e->ports[i].frame_max) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
					   "%u-byte frames: port %u takes frames of "
					   "%u bytes at most (the profile's max_frame "
					   "sets it when the server starts)",
					   wr_bench_max_frame(&j->b), i,
					   s->e->ports[i].frame_max);
			wr_srv_job_free(j);
			return NULL;
		}
	if (s->n_jobs == JOBS_MAX) {
		wr_srv_job_free(s->jobs[0]);
		memmove(s->jobs, s->jobs + 1, (JOBS_MAX - 1) * sizeof(*s->jobs));
		s->n_jobs--;
	}
	j->id = ++s->next_job;
	j->state = JOB_QUEUED;
	j->queued_at = wr_srv_wall_s();
	j->progress.eta_s = -1;
	snprintf(j->session, sizeof(j->session), "%s", k->c->sess->name);
	s->jobs[s->n_jobs++] = j;
	s->job = j;
	wr_srv_event_push(s, "bench_queued", json_pack("{s:i, s:s, s:s}", "job", j->id,
			  "kind", wr_bench_kind_name(j->kind), "session", j->session));
	return job_json(j);
}

/* Run the queued job: from the loop, not from a request, so that its
 * turns (job_wait()) serve every connection without re-entering one. */
void
wr_srv_job_run(struct server *s)
{
	struct job *j = s->job;
	struct wr_error err;
	int rc;

	if (j->state == JOB_CANCELLED) {
		s->job = NULL;
		return;
	}
	wr_srv_finish_now(s, "bench", false);
	wr_srv_unbuild(s);
	s->state = ST_BENCH;
	j->state = JOB_RUNNING;
	j->started_at = wr_srv_wall_s();
	wr_srv_event_push(s, "bench_started", json_pack("{s:i, s:s}", "job", j->id,
			  "kind", wr_bench_kind_name(j->kind)));
	wr_error_clear(&err);
	rc = 0;
	if (j->kind == WR_BENCH_RTT) {
		/* One session per server, kept: its port may hold its mbufs. */
		unsigned int port = j->f.streams[j->b.stream].port;
		uint16_t max = wr_bench_max_frame(&j->b);

		if (s->rtt_ses != NULL && (s->rtt_port != port ||
					   s->rtt_max_frame < max))
			rc = wr_error_set(&err, -EINVAL, NULL, 0, 0, "rtt",
					  "this server's rtt session is on port "
					  "%u for frames up to %u bytes: rtt on "
					  "port %u up to %u bytes needs a restart",
					  s->rtt_port, s->rtt_max_frame, port,
					  max);
		else if (s->rtt_ses == NULL &&
			 (rc = wr_rtt_ses_open(&s->rtt_ses, s->e, port,
					       (uint16_t)(max - 4), &err)) == 0) {
			s->rtt_port = port;
			s->rtt_max_frame = max;
		}
		if (rc == 0)
			wr_bench_rtt_session(&j->b, s->rtt_ses);
	}
	if (rc == 0)
		rc = wr_bench_run(&j->b, s->e, s->o->cfg_path, s->e->cfg->burst,
				  &j->r, &err);
	j->finished_at = wr_srv_wall_s();
	if (rc != 0) {
		wr_error_format(&err, j->error, sizeof(j->error));
		j->state = JOB_FAILED;
	} else {
		j->has_result = true;
		j->state = j->cancel ? JOB_CANCELLED : JOB_DONE;
	}
	s->state = ST_IDLE;
	s->job = NULL;
	wr_srv_runs_job(s, j);
	wr_srv_event_push(s, "bench_done", json_pack("{s:i, s:s, s:b, s:s?}", "job",
			  j->id, "state", wr_srv_job_state_names[j->state], "gen_limited",
			  j->has_result && j->r.gen_limited, "error",
			  j->error[0] ? j->error : NULL));
}

json_t *
wr_srv_m_bench_status(struct call *k)
{
	struct job *j = job_find(k);

	return j ? job_json(j) : NULL;
}

json_t *
wr_srv_m_bench_list(struct call *k)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; i < k->s->n_jobs; i++)
		json_array_append_new(a, job_json(k->s->jobs[i]));
	return json_pack("{s:o}", "jobs", a);
}

json_t *
wr_srv_m_bench_cancel(struct call *k)
{
	struct server *s = k->s;
	struct job *j = job_find(k);

	if (j == NULL)
		return NULL;
	if (strcmp(j->session, k->c->sess->name) != 0) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_OWNER, json_pack("{s:s}",
				   "owner", j->session), "job %u is session \"%s\"'s: "
				   "only it cancels it", j->id, j->session);
		return NULL;
	}
	if (j->state == JOB_QUEUED) {
		j->state = JOB_CANCELLED;
		wr_srv_event_push(s, "bench_done", json_pack("{s:i, s:s, s:b}", "job",
				  j->id, "state", "cancelled", "gen_limited", 0));
	} else if (j->state == JOB_RUNNING) {
		/* As a signal stops the command: the trial ends, no other
		 * starts; a second cancel cuts its drain short. */
		j->cancel++;
		wr_engine_request_stop(s->e, j->cancel > 1);
	}
	return job_json(j);
}

static int
write_table(FILE *out, const void *arg)
{
	wr_bench_result_print(out, arg);
	return ferror(out) ? -EIO : 0;
}

/* bench.result: a finished job's log, table, CSV, JSON (the CLI's --csv
 * and --json bytes) or HTML report (tools/wr-report on that JSON). */
json_t *
wr_srv_m_bench_result(struct call *k)
{
	struct server *s = k->s;
	struct job *j = job_find(k);
	const char *fmt = wr_rpc_str(k->req, "format");
	int (*fn)(FILE *, const void *) = NULL;
	char *buf = NULL, tmp[] = "/tmp/wirerate-bench-XXXXXX";
	size_t len = 0;
	json_t *res;
	FILE *out;
	int rc = 0;

	if (j == NULL)
		return NULL;
	if (fmt == NULL)
		fmt = "json";
	if (strcmp(fmt, "log") == 0)
		return json_pack("{s:i, s:s, s:s}", "job", j->id, "format",
				 fmt, "text", j->log ? j->log : "");
	if (!j->has_result) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, "job %u is "
				   "%s: no results (its log: format \"log\")", j->id,
				   wr_srv_job_state_names[j->state]);
		return NULL;
	}
	if (strcmp(fmt, "json") == 0 || strcmp(fmt, "html") == 0)
		fn = wr_bench_result_json;
	else if (strcmp(fmt, "csv") == 0)
		fn = wr_bench_result_csv;
	else if (strcmp(fmt, "table") == 0)
		fn = write_table;
	if (fn == NULL || (strcmp(fmt, "html") == 0 && j->kind == WR_BENCH_RTT)) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
			       "{s:s, s:s}", "param", "format", "expected", "json, "
			       "csv, table, log or html (sweep, rfc2544)"),
			       "bench.result: format: expected json, csv, table, log "
			       "or html (sweep and rfc2544 only)");
		return NULL;
	}
	out = open_memstream(&buf, &len);
	if (out == NULL)
		return NULL;
	if (strcmp(fmt, "html") == 0) {
		/* wr-report reads the JSON from a file: a private one. */
		int fd = mkstemp(tmp);
		FILE *jf = fd >= 0 ? fdopen(fd, "w") : NULL;

		rc = jf == NULL ? -errno : wr_bench_result_json(jf, &j->r);
		if (jf != NULL && fclose(jf) != 0 && rc == 0)
			rc = -EIO;
		if (rc == 0)
			rc = wr_bench_report_html(out, tmp, s->o->tools_dir ?
						  s->o->tools_dir : "tools");
		if (fd >= 0)
			unlink(tmp);
	} else {
		rc = fn(out, &j->r);
	}
	fclose(out);
	if (rc != 0) {
		free(buf);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "bench.result: %s: %s", fmt, rc == -ECHILD ?
				   "tools/wr-report failed" : strerror(-rc));
		return NULL;
	}
	res = json_pack("{s:i, s:s, s:s%}", "job", j->id, "format", fmt,
			"text", buf ? buf : "", len);
	free(buf);
	return res;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_runs: the runs `wirerate serve` keeps (runs.*): each trial's 1 Hz samples, final counters and latency, each benchmark job's result, in --runs-dir (wr_runs.h). */
#include <inttypes.h>

#include "wr_server_priv.h"
#include "wr_runs.h"

/* One sample a second: the console's charts' resolution (doc/web.md). */
#define SAMPLE_NS (1000 * 1000 * 1000ull)
/* A day of samples at most (about 0.6 KB each for a port and a stream);
 * beyond it the run's samples stop and its document says so. */
#define SAMPLES_MAX 86400

struct ctr4 {
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
};

struct srv_runs {
	struct wr_runs store;
	/* The trial being recorded (traffic.start to its end). */
	bool rec;
	json_t *samples;
	bool truncated;
	bool t0_known;
	uint64_t t0_tsc, last_tsc;
	struct ctr4 prev_p[WR_PORTS_MAX], prev_s[WR_STREAMS_MAX];
};

int
wr_srv_runs_open(struct server *s, struct wr_error *err)
{
	int rc;

	s->runs = calloc(1, sizeof(*s->runs));
	if (s->runs == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	s->runs->store.dirfd = -1;
	if (s->o->runs_dir == NULL)
		return 0;
	rc = wr_runs_open(&s->runs->store, s->o->runs_dir, s->o->runs_max, err);
	if (rc != 0)
		return rc;
	if (s->runs->store.n_bad > 0)
		SRV_LOG(WARNING, "%s: %u file%s named as runs but not runs (%s%s): "
			"left there, not listed\n", s->o->runs_dir,
			s->runs->store.n_bad, s->runs->store.n_bad == 1 ? "" : "s",
			s->runs->store.bad_first, s->runs->store.n_bad > 1 ?
			", ..." : "");
	SRV_LOG(INFO, "runs kept in %s (%zu, at most %u)\n", s->o->runs_dir,
		s->runs->store.n, s->runs->store.max);
	return 0;
}

void
wr_srv_runs_free(struct server *s)
{
	if (s->runs == NULL)
		return;
	wr_runs_close(&s->runs->store);
	json_decref(s->runs->samples);
	free(s->runs);
	s->runs = NULL;
}

json_t *
wr_srv_hist_json(const struct wr_latency *h)
{
	json_t *a = json_array();
	unsigned int b;

	for (b = 0; a != NULL && b < WR_LATENCY_BUCKETS; b++) {
		uint64_t lo, hi;

		if (h->counts[b] == 0 || wr_latency_bucket_bounds(b, &lo, &hi))
			continue;
		json_array_append_new(a, json_pack("[I, I, I]", (json_int_t)lo,
			(json_int_t)(hi > INT64_MAX ? INT64_MAX : hi),
			(json_int_t)h->counts[b]));
	}
	return a;
}

static void
iso_utc(double wall, char *buf, size_t len)
{
	time_t t = (time_t)wall;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
sha_hex(const uint8_t d[32], char out[65])
{
	unsigned int i;

	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* A port's or stream's counters as a sample counts them.  Bytes are L2
 * with the FCS (tx_bytes has it; received bytes are counted without:
 * rx_rates() of wr_report.c).  A port counts the bytes of the frames with
 * wirerate's signature (rx_pkts - rx_foreign of them); a stream counts
 * echoes, not their bytes: an echo is the frame sent, so its bytes are
 * its frames' mean size so far. */
static struct ctr4
row_ctr(const struct wr_report_row *r, bool stream)
{
	struct ctr4 c = {
		.tx_pkts = r->total.tx_pkts, .tx_bytes = r->total.tx_bytes,
		.rx_pkts = r->rx_pkts,
	};

	if (!stream) {
		uint64_t sig = r->rx_pkts > r->rx_foreign ?
			r->rx_pkts - r->rx_foreign : 0;

		c.rx_bytes = r->rx_bytes + (uint64_t)WR_FCS_LEN * sig;
	} else if (r->total.tx_pkts > 0) {
		c.rx_bytes = (uint64_t)((double)r->rx_pkts *
			((double)r->total.tx_bytes / (double)r->total.tx_pkts));
	}
	return c;
}

/* L1: 20 more bytes a frame (preamble, SFD, inter-frame gap: IEEE 802.3). */
static json_t *
rates_json(const struct ctr4 *now, const struct ctr4 *prev, double dt)
{
	uint64_t tp = now->tx_pkts - prev->tx_pkts;
	uint64_t tb = now->tx_bytes - prev->tx_bytes;
	uint64_t rp = now->rx_pkts >= prev->rx_pkts ? now->rx_pkts - prev->rx_pkts : 0;
	uint64_t rb = now->rx_bytes >= prev->rx_bytes ?
		now->rx_bytes - prev->rx_bytes : 0;
	double k = dt > 0 ? 1.0 / dt : 0;

	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I}",
		"tx_pps", (double)tp * k, "rx_pps", (double)rp * k,
		"tx_bps", (double)tb * 8 * k, "rx_bps", (double)rb * 8 * k,
		"tx_bps_l1", (double)(tb + 20 * tp) * 8 * k,
		"rx_bps_l1", (double)(rb + 20 * rp) * 8 * k,
		"tx_pkts", (json_int_t)tp, "rx_pkts", (json_int_t)rp,
		"tx_bytes", (json_int_t)tb, "rx_bytes", (json_int_t)rb);
}

/* One sample of view @p v at TSC @p now: each row's change since the last. */
static void
sample(struct server *s, const struct wr_report_view *v, uint64_t now)
{
	struct srv_runs *r = s->runs;
	double dt = (double)wr_tsc_to_ns(now - r->last_tsc) / 1e9;
	json_t *smp, *ports, *streams;
	char key[16];
	uint32_t i;

	if (json_array_size(r->samples) >= SAMPLES_MAX) {
		r->truncated = true;
		return;
	}
	ports = json_object();
	streams = json_object();
	for (i = 0; i < v->n_ports && i < WR_PORTS_MAX; i++) {
		struct ctr4 c = row_ctr(&v->ports[i], false);

		snprintf(key, sizeof(key), "%u", i);
		json_object_set_new(ports, key, rates_json(&c, &r->prev_p[i], dt));
		r->prev_p[i] = c;
	}
	for (i = 0; i < v->n_streams && i < s->f.n_streams; i++) {
		struct ctr4 c = row_ctr(&v->streams[i], true);

		json_object_set_new(streams, s->f.streams[i].name,
				    rates_json(&c, &r->prev_s[i], dt));
		r->prev_s[i] = c;
	}
	smp = json_pack("{s:f, s:f, s:o, s:o}", "t", (double)wr_tsc_to_ns(
			now - r->t0_tsc) / 1e9, "dt", dt, "ports", ports,
			"streams", streams);
	json_array_append_new(r->samples, smp);
	r->last_tsc = now;
}

void
wr_srv_runs_begin(struct server *s)
{
	struct srv_runs *r = s->runs;

	if (r == NULL || r->store.dirfd < 0)
		return;
	json_decref(r->samples);
	r->samples = json_array();
	r->rec = r->samples != NULL;
	r->truncated = false;
	r->t0_known = false;
	memset(r->prev_p, 0, sizeof(r->prev_p));
	memset(r->prev_s, 0, sizeof(r->prev_s));
}

/* The samples' t is time since the device took the run's first frame
 * (a start_at's, or the lcores' own start: tens of ms after
 * traffic.start, which would make the first second short). */
static bool
t0_set(struct server *s)
{
	struct srv_runs *r = s->runs;
	uint64_t t;

	if (r->t0_known)
		return true;
	t = wr_engine_first_burst_tsc(s->e);
	if (t == 0)
		return false;
	r->t0_tsc = r->last_tsc = t;
	r->t0_known = true;
	return true;
}

void
wr_srv_runs_tick(struct server *s)
{
	struct srv_runs *r = s->runs;
	uint64_t now;

	if (r == NULL || !r->rec || !t0_set(s))
		return;
	now = rte_rdtsc();
	if (now < r->last_tsc || wr_tsc_to_ns(now - r->last_tsc) < SAMPLE_NS)
		return;
	sample(s, wr_engine_collect(s->e, false), now);
}

static void
store(struct server *s, json_t *entry, json_t *doc)
{
	struct wr_error err;
	uint64_t id;

	wr_error_clear(&err);
	if (entry == NULL || doc == NULL) {
		SRV_LOG(WARNING, "a run not kept: out of memory\n");
	} else if (wr_runs_put(&s->runs->store, entry, doc, &id, &err) != 0) {
		SRV_LOG(WARNING, "a run not kept: %s\n", err.msg);
	} else {
		wr_srv_event_push(s, "run_stored", json_pack("{s:I, s:O}", "id",
				  (json_int_t)id, "kind", json_object_get(entry,
				  "kind")));
	}
	json_decref(entry);
	json_decref(doc);
}

/* The members the entry and the document share. */
static json_t *
head(const char *kind, const char *name, double started, double ended,
     const uint8_t sha[32])
{
	char a[40], b[40], hex[65];

	iso_utc(started, a, sizeof(a));
	iso_utc(ended, b, sizeof(b));
	sha_hex(sha, hex);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "kind", kind, "name",
			 name, "started", a, "ended", b, "stream_sha256", hex,
			 "stream_name", name);
}

void
wr_srv_runs_end(struct server *s)
{
	static struct wr_latency h; /* main lcore only; too large for the stack */
	struct srv_runs *r = s->runs;
	const struct wr_report_view *v = &s->e->view;
	struct wr_report_meta meta;
	json_t *entry, *doc, *fin, *lat, *sum, *st;
	uint64_t tx = 0, rx = 0, lost = 0, now = rte_rdtsc();
	double dur;
	size_t i;

	if (r == NULL || !r->rec)
		return;
	r->rec = false;
	if (!t0_set(s))
		r->t0_tsc = r->last_tsc = s->ref_tsc; /* nothing was sent */
	/* The last (partial) second from the final counters, so the samples
	 * add up to them exactly. */
	if (now > r->last_tsc)
		sample(s, v, now);
	wr_engine_meta(s->e, &s->f, s->o->cfg_path, s->started_at, s->reason,
		       &meta);
	fin = wr_report_tree(&meta, v);
	lat = json_object();
	for (i = 0; i < v->n_streams && i < s->f.n_streams; i++) {
		tx += v->streams[i].total.tx_pkts;
		rx += v->streams[i].rx_pkts;
		lost += v->streams[i].lost;
		if (!v->streams[i].has_rx ||
		    !wr_engine_stream_hist(s->e, (uint32_t)i, &h))
			continue;
		st = json_array_get(json_object_get(fin, "streams"), i);
		json_object_set_new(lat, s->f.streams[i].name, json_pack(
			"{s:O?, s:o}", "summary", json_object_get(st, "latency_ns"),
			"histogram", wr_srv_hist_json(&h)));
	}
	dur = (double)v->elapsed_ns / 1e9;
	sum = json_pack("{s:s, s:f, s:i, s:I, s:I, s:I, s:f, s:i}",
			"stop_reason", s->reason ? s->reason : "", "duration_s", dur,
			"streams", (int)s->f.n_streams, "tx_pkts", (json_int_t)tx,
			"rx_pkts", (json_int_t)rx, "lost", (json_int_t)lost,
			"tx_pps", dur > 0 ? (double)tx / dur : 0.0, "samples",
			(int)json_array_size(r->samples));
	entry = head("trial", s->source_name, s->ref_wall, wr_srv_wall_s(),
		     s->f.sha256);
	if (entry != NULL)
		json_object_set(entry, "summary", sum);
	doc = json_deep_copy(entry);
	if (doc != NULL) {
		json_object_set_new(doc, "samples", r->samples);
		r->samples = NULL;
		json_object_set_new(doc, "samples_truncated",
				    json_boolean(r->truncated));
		json_object_set_new(doc, "cleared", json_boolean(s->have_base));
		json_object_set_new(doc, "final", fin);
		fin = NULL;
		json_object_set_new(doc, "latency", lat);
		lat = NULL;
	}
	json_decref(sum);
	json_decref(fin);
	json_decref(lat);
	store(s, entry, doc);
}

void
wr_srv_runs_job(struct server *s, struct job *j)
{
	json_t *entry, *doc, *res = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	if (s->runs == NULL || s->runs->store.dirfd < 0)
		return;
	/* The result as bench.result's "json" gives it. */
	if (j->has_result && (out = open_memstream(&buf, &len)) != NULL) {
		int rc = wr_bench_result_json(out, &j->r);

		fclose(out);
		if (rc == 0 && buf != NULL)
			res = json_loadb(buf, len, 0, NULL);
		free(buf);
	}
	entry = head(wr_bench_kind_name(j->kind), j->f.path, j->started_at,
		     j->finished_at, j->f.sha256);
	if (entry != NULL)
		json_object_set_new(entry, "summary", json_pack(
			"{s:s, s:i, s:f, s:b, s:s?}", "state",
			wr_srv_job_state_names[j->state], "trials",
			(int)j->progress.done, "duration_s", j->finished_at -
			j->started_at, "gen_limited", j->has_result &&
			j->r.gen_limited, "error", j->error[0] ? j->error : NULL));
	doc = json_deep_copy(entry);
	if (doc != NULL) {
		json_object_set_new(doc, "job", json_integer(j->id));
		json_object_set_new(doc, "result", res ? res : json_null());
		res = NULL;
	}
	json_decref(res);
	store(s, entry, doc);
}

/* ---- methods ---- */

static const char *const kinds[] = { "trial", "sweep", "rfc2544", "rtt" };

json_t *
wr_srv_m_runs_list(struct call *k)
{
	const char *kind = wr_rpc_str(k->req, "kind");
	struct wr_runs *st = &k->s->runs->store;
	unsigned int i;

	for (i = 0; kind != NULL && i < sizeof(kinds) / sizeof(*kinds); i++)
		if (strcmp(kind, kinds[i]) == 0)
			break;
	if (kind != NULL && i == sizeof(kinds) / sizeof(*kinds)) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
			"{s:s, s:s}", "param", "kind", "expected",
			"trial, sweep, rfc2544 or rtt"), "runs.list: kind: expected "
			"trial, sweep, rfc2544 or rtt, got \"%.32s\"", kind);
		return NULL;
	}
	if (st->dirfd < 0)
		return json_pack("{s:[], s:n, s:i}", "runs", "dir", "max", 0);
	return json_pack("{s:o, s:s, s:i}", "runs", wr_runs_list(st, kind,
			 (size_t)wr_rpc_uint(k->req, "limit", 0)), "dir", st->dir,
			 "max", st->max);
}

static bool
runs_err(struct call *k, int rc, const struct wr_error *err, uint64_t id)
{
	char line[WR_ERROR_FILE_MAX + WR_ERROR_MSG_MAX + 32];

	wr_error_format(err, line, sizeof(line));
	return wr_srv_reply_error(k->s, k->c, k->id, rc == -ENOENT ?
				  WR_RPC_E_NOTFOUND : WR_RPC_E_INTERNAL,
				  json_pack("{s:I}", "id", (json_int_t)id),
				  "%s", line);
}

json_t *
wr_srv_m_runs_get(struct call *k)
{
	uint64_t id = wr_rpc_uint(k->req, "id", 0);
	struct wr_error err;
	json_t *doc = NULL;
	int rc;

	wr_error_clear(&err);
	rc = wr_runs_get(&k->s->runs->store, id, &doc, &err);
	if (rc != 0) {
		runs_err(k, rc, &err, id);
		return NULL;
	}
	return doc;
}

/* Runs are the lab's record: deleting them is the owner's, as traffic is
 * (every port owned by the caller's session). */
json_t *
wr_srv_m_runs_delete(struct call *k)
{
	struct server *s = k->s;
	json_t *ids = wr_rpc_get(k->req, "ids"), *x, *done;
	struct wr_error err;
	size_t i;
	int rc;

	if (!wr_srv_owns(s, k->c, k->id, s->e->n_ports >= 64 ? UINT64_MAX :
			 (1ull << s->e->n_ports) - 1))
		return NULL;
	/* All or none: every id is checked first. */
	json_array_foreach(ids, i, x) {
		uint64_t id = (uint64_t)json_integer_value(x);
		size_t n;

		wr_error_clear(&err);
		for (n = 0; n < s->runs->store.n; n++)
			if (s->runs->store.ents[n].id == id)
				break;
		if (n == s->runs->store.n) {
			wr_error_set(&err, -ENOENT, NULL, 0, 0, NULL, "no run %"
				     PRIu64 " (runs.list lists them): none "
				     "deleted", id);
			runs_err(k, -ENOENT, &err, id);
			return NULL;
		}
	}
	done = json_array();
	json_array_foreach(ids, i, x) {
		uint64_t id = (uint64_t)json_integer_value(x);

		rc = wr_runs_delete(&s->runs->store, id, &err);
		if (rc == 0)
			json_array_append_new(done, json_integer((json_int_t)id));
	}
	if (json_array_size(done) > 0)
		wr_srv_event_push(s, "runs_deleted", json_pack("{s:O}", "ids",
				  done));
	return json_pack("{s:o}", "deleted", done);
}

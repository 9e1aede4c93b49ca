/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate rtt: round trips one frame at a time, per UDP payload size; table, CSV and JSON. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "wr_app.h"
#include "wr_engine.h"
#include "wr_frame.h"
#include "wr_rtt.h"
#include "wr_rtt_table.h"
#include "wr_sig.h"
#include "wr_tsc.h"

/* The raw-Ethernet vs UDP study's sweep: payloads 50..1500 by 50 bytes,
 * 100000 round trips each. */
#define RTT_FROM 50
#define RTT_TO 1500
#define RTT_STEP 50
#define RTT_COUNT 100000
/* A lost frame costs the whole timeout: 100 ms is over a thousand times a
 * kernel or switch round trip (tens of microseconds) and still lets a run
 * with some loss finish. */
#define RTT_TIMEOUT_NS (100 * 1000 * 1000ull)
/* How often the main lcore looks whether the round-trip lcore finished. */
#define RTT_POLL_NS (1000 * 1000ull)

static uint32_t rtt_stop;
static bool rtt_link_lost;  /* the port went away: the sweep ends */

/* Installed before anything starts: a signal during EAL's start, the port
 * set-up or the link wait ends rtt cleanly too (nothing was sent). */
static void
on_signal(int sig)
{
	(void)sig;
	wr_engine_cancel();
	__atomic_store_n(&rtt_stop, 1, __ATOMIC_RELAXED);
}

struct rtt_run {
	const struct wr_opts *o;
	struct wr_stream_file f;
	struct wr_config cfg;
	const char *cfg_path;
	struct wr_stream *st;   /* the (first) stream measured */
	uint32_t st_index;
	/* --stream A,B: k streams side by side; stream j's sizes and rows
	 * rows[i * k + j] (k = 1: the one stream's table). */
	unsigned int k;
	struct wr_stream *sts[WR_RTT_CMP_MAX];
	uint32_t idx[WR_RTT_CMP_MAX];
	const char *names[WR_RTT_CMP_MAX];
	char names_joined[WR_RTT_CMP_MAX * 66];
	struct wr_rtt_size *sizes_of[WR_RTT_CMP_MAX];
	struct wr_rtt_size *sizes;
	unsigned int n_sizes;
	struct wr_rtt_row *rows;
	unsigned int n_rows;
	struct wr_engine *e;
	struct wr_rtt_ses *ses;
};

/* The stream at one size: a shallow copy whose size is fixed and which
 * carries a signature; the copy owns nothing (never freed). */
static int
tmpl_at(const struct rtt_run *x, unsigned int j, const struct wr_rtt_size *sz,
	struct wr_frame_tmpl **t, struct wr_error *err)
{
	struct wr_stream s = *x->sts[j];

	memset(&s.size, 0, sizeof(s.size));
	s.size.mode = WR_SIZE_FIXED;
	s.size.fixed = s.size.min = s.size.max = (uint16_t)sz->frame;
	s.latency = true;
	return wr_frame_tmpl_create(&s, x->idx[j], t, err);
}

/* --stream NAME or NAME,NAME,...: the streams, each once. */
static int
pick_streams(struct rtt_run *x, const char *list)
{
	char buf[1024], *save = NULL, *name;
	unsigned int j;
	int idx;

	if (list == NULL) {
		x->k = 1;
		x->idx[0] = 0;
		x->sts[0] = &x->f.streams[0];
		x->names[0] = x->sts[0]->name;
		return WR_EXIT_OK;
	}
	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf)) {
		fprintf(stderr, "wirerate: --stream: too long\n");
		return WR_EXIT_USAGE;
	}
	for (name = strtok_r(buf, ",", &save); name != NULL;
	     name = strtok_r(NULL, ",", &save)) {
		idx = wr_stream_file_find(&x->f, name);
		if (idx < 0) {
			fprintf(stderr, "wirerate: --stream: no stream named "
				"\"%s\" in %s\n", name, x->f.path);
			return WR_EXIT_USAGE;
		}
		for (j = 0; j < x->k; j++)
			if (x->idx[j] == (uint32_t)idx) {
				fprintf(stderr, "wirerate: --stream: \"%s\" "
					"given twice\n", name);
				return WR_EXIT_USAGE;
			}
		if (x->k == WR_RTT_CMP_MAX) {
			fprintf(stderr, "wirerate: --stream: at most %u "
				"streams side by side\n", WR_RTT_CMP_MAX);
			return WR_EXIT_USAGE;
		}
		x->idx[x->k] = (uint32_t)idx;
		x->sts[x->k] = &x->f.streams[idx];
		x->names[x->k] = x->sts[x->k]->name;
		if (x->sts[x->k]->port != x->sts[0]->port) {
			fprintf(stderr, "wirerate: --stream: %s is on port %u, "
				"%s on port %u: streams side by side share one "
				"port\n", x->sts[x->k]->name,
				x->sts[x->k]->port, x->sts[0]->name,
				x->sts[0]->port);
			return WR_EXIT_USAGE;
		}
		x->k++;
	}
	if (x->k == 0) {
		fprintf(stderr, "wirerate: --stream: expected NAME or "
			"NAME,NAME,...\n");
		return WR_EXIT_USAGE;
	}
	return WR_EXIT_OK;
}

/* Everything the user can get wrong, before EAL starts. */
static int
prepare(struct rtt_run *x)
{
	const struct wr_opts *o = x->o;
	uint32_t from = RTT_FROM, to = RTT_TO, step = RTT_STEP;
	unsigned int i, j, raised = 0;
	struct wr_error err;
	int rc;

	rc = wr_app_load_streams(o, &x->f);
	if (rc == WR_EXIT_OK)
		rc = pick_streams(x, o->stream_name);
	if (rc != WR_EXIT_OK)
		return rc;
	x->st_index = x->idx[0];
	x->st = x->sts[0];
	for (j = 0; j < x->k; j++)
		if (x->sts[j]->replay != NULL || x->sts[j]->fe != NULL) {
			fprintf(stderr, "wirerate: rtt: stream %s sends the "
				"frames it is given (pcap: or frame:), whose "
				"sizes rtt does not set: give a generated stream "
				"(--stream)\n", x->sts[j]->name);
			return WR_EXIT_USAGE;
		}
	if (o->rtt_step != 0) {
		from = o->rtt_from;
		to = o->rtt_to;
		step = o->rtt_step;
	}
	/* The same payloads for every stream; each its own frame sizes. */
	for (j = 0; j < x->k; j++) {
		unsigned int n;

		x->sizes_of[j] = calloc(WR_RTT_SIZES_MAX, sizeof(*x->sizes));
		if (x->sizes_of[j] == NULL) {
			fprintf(stderr, "wirerate: out of memory\n");
			return WR_EXIT_FAIL;
		}
		rc = wr_rtt_sizes(from, to, step, wr_stream_hdr_len(x->sts[j]),
				  x->sizes_of[j], WR_RTT_SIZES_MAX, &n,
				  &raised);
		if (rc != 0) {
			fprintf(stderr, "wirerate: --sizes: %s%s%s\n",
				rc == -E2BIG ? "more than 10000 sizes" :
				"a payload that makes a frame above 9018 bytes",
				x->k > 1 ? " for stream " : "",
				x->k > 1 ? x->sts[j]->name : "");
			return WR_EXIT_USAGE;
		}
		x->n_sizes = n;
	}
	x->sizes = x->sizes_of[0];
	if (raised > 0)
		fprintf(stderr, "wirerate: note: %u payload size%s below %u "
			"bytes raised to %u: a frame must carry the %u-byte "
			"signature to be recognised when it comes back\n",
			raised, raised == 1 ? "" : "s", WR_SIG_LEN, WR_SIG_LEN,
			WR_SIG_LEN);
	x->rows = calloc((size_t)x->n_sizes * x->k, sizeof(*x->rows));
	if (x->rows == NULL) {
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	/* Every size must build (a string payload may not fit a small
	 * one); the templates are built again, one at a time, later. */
	for (j = 0; j < x->k; j++)
		for (i = 0; i < x->n_sizes; i++) {
			struct wr_frame_tmpl *t;

			wr_error_clear(&err);
			if (tmpl_at(x, j, &x->sizes_of[j][i], &t, &err) != 0) {
				if (err.file[0] == '\0')
					snprintf(err.file, sizeof(err.file),
						 "%s", x->f.path);
				if (err.line == 0) {
					err.line = x->sts[j]->mark.line;
					err.col = x->sts[j]->mark.col;
				}
				fprintf(stderr, "wirerate: payload %u bytes "
					"(frame %u): ",
					x->sizes_of[j][i].payload,
					x->sizes_of[j][i].frame);
				wr_app_print_error(&err);
				return WR_EXIT_USAGE;
			}
			wr_frame_tmpl_free(t);
		}
	rc = wr_app_load_profile(o, &x->cfg, &x->cfg_path);
	if (rc == WR_EXIT_OK)
		rc = wr_app_check_files(o, &x->f, &x->cfg, x->cfg_path);
	if (rc != WR_EXIT_OK)
		return rc;
	if (x->cfg.n_ports > 0 && x->st->port >= x->cfg.n_ports) {
		fprintf(stderr, "wirerate: %s:%u:%u: streams[%u].port: port %u "
			"does not exist: the profile %s has %u port%s\n",
			x->f.path, x->st->mark.line, x->st->mark.col,
			x->st_index, x->st->port, x->cfg_path, x->cfg.n_ports,
			x->cfg.n_ports == 1 ? "" : "s");
		return WR_EXIT_USAGE;
	}
	/* The port is set up for the largest frame (its MTU, RX buffers
	 * that hold the echo), as for run and sweep; a port that cannot
	 * take it is refused before anything is sent. */
	for (j = 0; j < x->k; j++)
		for (i = 0; i < x->n_sizes; i++)
			if (x->sizes_of[j][i].frame > x->cfg.max_frame)
				x->cfg.max_frame = x->sizes_of[j][i].frame;
	return WR_EXIT_OK;
}

static int
engine_exit_code(int rc)
{
	return rc == -EINVAL || rc == -ENODEV || rc == -ENOTSUP ||
		rc == -EMSGSIZE ? WR_EXIT_USAGE : WR_EXIT_FAIL;
}

/* One size on the port's first TX lcore; the main lcore sleeps meanwhile. */
static int
measure(struct rtt_run *x, unsigned int i, unsigned int j, uint64_t *next_seq)
{
	struct wr_rtt_row *row = &x->rows[i * x->k + j];
	const struct wr_rtt *r;
	struct wr_frame_tmpl *t;
	struct wr_error err;
	int rc;

	wr_error_clear(&err);
	if (tmpl_at(x, j, &x->sizes_of[j][i], &t, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_FAIL;
	}
	rc = wr_rtt_ses_measure(x->ses, t, WR_SIG_ID(x->idx[j], 0),
				x->o->count_set ? x->o->count : RTT_COUNT,
				x->o->timeout_ns ? x->o->timeout_ns :
				RTT_TIMEOUT_NS, *next_seq, &rtt_stop,
				RTT_POLL_NS, &err);
	wr_frame_tmpl_free(t);
	if (err.msg[0] != '\0') {
		wr_app_print_error(&err);
		return WR_EXIT_FAIL;
	}
	if (rc == -ENOLINK)
		rtt_link_lost = true;
	r = wr_rtt_ses_result(x->ses);
	*next_seq += r->sent + r->lost;
	row->size = x->sizes_of[j][i];
	row->sent = r->sent;
	row->lost = r->lost;
	row->late = r->late;
	row->foreign = r->foreign;
	wr_latency_summarize(&r->hist, &r->jitter, &row->rtt);
	/* A signal leaves the frame in flight neither answered nor timed
	 * out: it is not counted as sent, so sent = round trips + lost. */
	if (row->sent > row->rtt.n + row->lost)
		row->sent = row->rtt.n + row->lost;
	if (rc == -ENOBUFS) {
		fprintf(stderr, "wirerate: rtt: out of mbufs\n");
		return WR_EXIT_FAIL;
	}
	return WR_EXIT_OK;
}

/* A frame above the port's MTU leaves (DPDK takes it) and a kernel or a
 * switch drops it silently: every round trip of the size would time out. */
static void
mtu_check(const struct rtt_run *x, unsigned int j, const struct wr_port *p)
{
	const uint32_t l2 = wr_stream_l2_len(x->sts[j]) + WR_FCS_LEN;
	const struct wr_rtt_size *sz = x->sizes_of[j];
	uint16_t mtu;
	unsigned int i;

	/* Only this side's MTU can be read; the peer's (a kernel interface,
	 * a switch port) may have been raised or not: say which is which. */
	if (wr_rtt_ses_mtu(x->ses, &mtu) != 0)
		return;
	for (i = 0; i < x->n_sizes; i++)
		if (sz[i].frame - l2 > mtu) {
			fprintf(stderr, "wirerate: note: from payload %u bytes "
				"on, frames carry more than %u bytes after the "
				"Ethernet header, the MTU port %s reports; "
				"wirerate sends them anyway and cannot see the "
				"peer's MTU: a peer whose MTU is lower drops them "
				"(each such round trip is lost after the "
				"timeout)\n", sz[i].payload, mtu,
				p->device);
			return;
		}
}

static int
sweep(struct rtt_run *x)
{
	const struct wr_opts *o = x->o;
	const struct wr_port *p = wr_engine_port(x->e, x->st->port);
	unsigned int lcore, j;
	uint64_t next_seq[WR_RTT_CMP_MAX] = { 0 };
	uint32_t largest = 0;
	struct wr_error err;
	struct wr_rtt_meta m;
	char started[40];
	time_t wall = time(NULL);
	struct tm tm;
	unsigned int i;
	int rc = WR_EXIT_OK, wrc;

	gmtime_r(&wall, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	wr_error_clear(&err);
	for (j = 0; j < x->k; j++)
		if (x->sizes_of[j][x->n_sizes - 1].frame > largest)
			largest = x->sizes_of[j][x->n_sizes - 1].frame;
	if (wr_rtt_ses_open(&x->ses, x->e, x->st->port,
			    (uint16_t)(largest - WR_FCS_LEN), &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_FAIL;
	}
	lcore = wr_rtt_ses_lcore(x->ses);

	for (j = 0; j < x->k; j++)
		snprintf(x->names_joined + strlen(x->names_joined),
			 sizeof(x->names_joined) - strlen(x->names_joined),
			 "%s%s", j ? "," : "", x->names[j]);
	printf("wirerate %s (%s): rtt of stream%s %s (%s) on port %u: %s (%s), "
	       "lcore %u\n", WR_VERSION, wr_engine_dpdk_version(),
	       x->k > 1 ? "s" : "", x->names_joined, x->f.path,
	       x->st->port, p->device, p->driver, lcore);
	printf("%llu round trips per size%s, one frame in flight, timeout "
	       "%.3f s\n",
	       (unsigned long long)(o->count_set ? o->count : RTT_COUNT),
	       x->k > 1 ? " and stream, the streams taking turns" : "",
	       (double)(o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS) / 1e9);
	for (j = 0; j < x->k; j++)
		mtu_check(x, j, p);
	if (x->k > 1)
		wr_rtt_cmp_header(stdout, x->names, x->k);
	else
		wr_rtt_table_header(stdout);
	for (i = 0; i < x->n_sizes; i++) {
		bool any = false;

		/* Each size is measured for every stream in turn, so that a
		 * drift of the path over the sweep weighs on all alike. */
		for (j = 0; j < x->k && rc == WR_EXIT_OK; j++) {
			rc = measure(x, i, j, &next_seq[j]);
			any |= x->rows[i * x->k + j].sent +
			       x->rows[i * x->k + j].lost > 0;
			if (__atomic_load_n(&rtt_stop, __ATOMIC_RELAXED) ||
			    rtt_link_lost)
				break;
		}
		if (rc != WR_EXIT_OK)
			break;
		/* A size cut short by a signal is shown if it measured anything. */
		if (any) {
			x->n_rows = i + 1;
			if (x->k > 1)
				wr_rtt_cmp_row(stdout, &x->rows[i * x->k],
					       x->k);
			else
				wr_rtt_table_row(stdout, &x->rows[i]);
		}
		if (__atomic_load_n(&rtt_stop, __ATOMIC_RELAXED) ||
		    rtt_link_lost)
			break;
	}
	if (rtt_link_lost)
		fprintf(stderr, "wirerate: rtt: port %s's link went away: the "
			"sweep ends here\n", p->device);
	memset(&m, 0, sizeof(m));
	m.wirerate_version = WR_VERSION;
	m.dpdk_version = wr_engine_dpdk_version();
	wr_tsc_get(&m.tsc);
	m.has_tsc = true;
	m.stream_file = x->f.path;
	m.stream_name = x->names_joined;
	m.config_file = x->cfg_path;
	m.device = p->device;
	m.started_at = started;
	m.stop_reason = rtt_link_lost ? "link-down" :
		__atomic_load_n(&rtt_stop, __ATOMIC_RELAXED) ? "signal" : "done";
	m.count = o->count_set ? o->count : RTT_COUNT;
	m.timeout_ns = o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS;
	if (o->csv_file != NULL &&
	    (wrc = x->k > 1 ? wr_rtt_cmp_csv(o->csv_file, x->names, x->k,
					     x->rows, x->n_rows) :
	     wr_rtt_csv(o->csv_file, x->rows, x->n_rows)) != 0) {
		fprintf(stderr, "wirerate: %s: cannot write: %s\n", o->csv_file,
			strerror(-wrc));
		rc = WR_EXIT_FAIL;
	}
	if (o->json_file != NULL &&
	    (wrc = x->k > 1 ? wr_rtt_cmp_json(o->json_file, &m, x->names,
					      x->k, x->rows, x->n_rows) :
	     wr_rtt_json(o->json_file, &m, x->rows, x->n_rows)) != 0) {
		fprintf(stderr, "wirerate: %s: cannot write: %s\n",
			o->json_file, strerror(-wrc));
		rc = WR_EXIT_FAIL;
	}
	return rc;
}

int
wr_cmd_rtt(const struct wr_opts *o)
{
	struct rtt_run *x = calloc(1, sizeof(*x));
	struct wr_error err;
	int rc;

	if (x == NULL) {
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	x->o = o;
	wr_app_signals(on_signal);
	wr_config_init(&x->cfg);
	rc = prepare(x);
	if (rc == WR_EXIT_OK) {
		wr_error_clear(&err);
		rc = wr_engine_open(&x->e, &x->cfg, x->cfg_path, o->eal,
				    o->n_eal, &err);
		if (rc != 0 && __atomic_load_n(&rtt_stop, __ATOMIC_RELAXED)) {
			/* Stopped before sending: not a failure. */
			fprintf(stderr, "wirerate: stopped by a signal before "
				"sending: nothing was sent\n");
			rc = WR_EXIT_STOPPED;
		} else if (rc != 0) {
			wr_app_print_error(&err);
			rc = engine_exit_code(rc);
		}
	}
	if (rc == WR_EXIT_OK)
		rc = sweep(x);
	/* Before the engine: the session's port and pool go before EAL. */
	wr_rtt_ses_close(x->ses);
	wr_engine_close(x->e);
	wr_stream_file_free(&x->f);
	wr_config_free(&x->cfg);
	for (unsigned int j = 0; j < WR_RTT_CMP_MAX; j++)
		free(x->sizes_of[j]);
	free(x->rows);
	free(x);
	return rc;
}

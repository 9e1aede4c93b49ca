/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench: what sweep, rfc2544 and rtt share: checks, one trial on an open engine, the log, the results' files. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wr_bench_priv.h"
#include "wr_clock_eal.h"
#include "wr_report.h"
#include "wr_rtt.h"
#include "wr_session.h"

/* The main lcore checks for the end of a trial this often. */
#define WR_BENCH_POLL_NS (20 * 1000 * 1000ull)
/* A line this often inside an rfc2544 trial (RFC 2544's are 60 s and 120 s
 * long: issue 31 saw 45 s of silence), enough to see it runs and no more. */
#define WR_BENCH_TICK_NS (5 * 1000 * 1000 * 1000ull)

uint64_t
wr_bench_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool
wr_bench_cancelled(const struct wr_bench *b)
{
	return b->h->cancel != NULL && *b->h->cancel != 0;
}

/* Let @p ns pass through the caller's hook, in slices, a second signal
 * (the engine aborted) cutting it short. */
static void
pass_time(struct wr_bench *b, uint64_t ns)
{
	uint64_t end = wr_bench_mono_ns() + ns, now;

	while (!wr_engine_aborted(b->e) && (now = wr_bench_mono_ns()) < end)
		b->h->wait(b->h->ctx, end - now < WR_BENCH_POLL_NS ?
			   end - now : WR_BENCH_POLL_NS);
}

void
wr_bench_line(struct wr_bench *b, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	b->h->line(b->h->ctx, text, NULL, false);
}

void
wr_bench_note(struct wr_bench *b, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (b->h->note == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	b->h->note(b->h->ctx, text);
}

void
wr_bench_eta_start(struct wr_bench *b, uint32_t units,
		   double (*weight)(const void *, unsigned int, uint32_t))
{
	wr_eta_start(&b->eta, units, weight, b);
}

void
wr_bench_eta_unit(struct wr_bench *b, uint32_t u)
{
	wr_eta_unit(&b->eta, u, wr_bench_mono_ns());
}

void
wr_bench_eta_phase(struct wr_bench *b, unsigned int phase)
{
	wr_eta_phase(&b->eta, phase, wr_bench_mono_ns());
}

void
wr_bench_eta_phase_done(struct wr_bench *b, uint32_t done, uint32_t of)
{
	wr_eta_phase_done(&b->eta, done, of, wr_bench_mono_ns());
}

void
wr_bench_eta_unit_done(struct wr_bench *b)
{
	wr_eta_unit_done(&b->eta, wr_bench_mono_ns());
}

/* Seconds left by the phases' times (< 0: no unit done yet). */
static double
eta_time(const struct wr_bench *b)
{
	return wr_eta_left(&b->eta, wr_bench_mono_ns());
}

void
wr_bench_say(struct wr_bench *b, const char *test, uint16_t size,
	     uint64_t rate, bool counted, const char *fmt, ...)
{
	struct wr_bench_progress p = {
		.test = test, .size = size, .rate_millipps = rate, .eta_s = -1,
	};
	char text[1024];
	va_list ap;

	if (counted)
		b->progress_done++;
	p.done = b->progress_done;
	p.estimate = b->progress_est;
	p.eta_bound = b->progress_bound;
	p.elapsed_s = (double)(wr_bench_mono_ns() - b->progress_t0_ns) / 1e9;
	if (p.done > 0 && p.estimate > p.done)
		p.eta_s = p.elapsed_s / p.done * (p.estimate - p.done);
	else if (p.done > 0)
		p.eta_s = 0;
	if (eta_time(b) >= 0)
		p.eta_s = eta_time(b);
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	b->h->line(b->h->ctx, text, &p, counted);
}

/* The stream a bench runs, at @p size: a copy that shares the original's
 * owned arrays (never freed through the copy). */
void
wr_bench_stream_at(const struct wr_bench *b, uint16_t size,
		   struct wr_stream *st)
{
	wr_bench_stream_idx_at(b, b->stream, size, st);
}

void
wr_bench_stream_idx_at(const struct wr_bench *b, uint32_t idx, uint16_t size,
		       struct wr_stream *st)
{
	*st = b->f->streams[idx];
	st->size.mode = WR_SIZE_FIXED;
	st->size.fixed = st->size.min = st->size.max = size;
	st->count = 0;
	st->rate.unit = WR_RATE_MAX;
	st->rate.value = 0;
	st->has_next = false;
	st->has_ramp = false;
	st->train_frames = 0;
	st->train_gap_ns = 0;
	st->duration_ns = 0;
	if (b->o->burst_set)
		st->burst = b->o->burst;
}

/* A file of @p n streams (the trial's, and with --reverse-stream its
 * reverse) that share the loaded file's identity. */
static void
trial_stream_file(const struct wr_bench *b, struct wr_stream *st, uint32_t n,
		  struct wr_stream_file *sf)
{
	memset(sf, 0, sizeof(*sf));
	snprintf(sf->path, sizeof(sf->path), "%s", b->f->path);
	sf->version = b->f->version;
	sf->seed = b->f->seed;
	sf->seed_set = b->f->seed_set;
	memcpy(sf->sha256, b->f->sha256, sizeof(sf->sha256));
	sf->streams = st;
	sf->n_streams = n;
}

/* Distinct frames of stream @p s back on @p port (sequence numbers). */
static uint64_t
distinct_on(const struct wr_bench *b, uint16_t port, uint32_t s)
{
	struct wr_seq_result res;

	wr_engine_stream_seq(b->e, s, port, &res, NULL, NULL);
	return res.distinct;
}

int
wr_bench_bad(struct wr_error *err, const char *opt, const char *val,
	     const char *why)
{
	return wr_error_set(err, -EINVAL, NULL, 0, 0, opt, "%s, got \"%s\"",
			    why, val);
}

/* A port option naming a port that does not exist. */
static int
port_bad(struct wr_error *err, const char *opt, unsigned int port,
	 const char *why)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", port);
	return wr_bench_bad(err, opt, val, why);
}

int
wr_bench_ports_check(const struct wr_bench *b, unsigned int n_ports,
		     bool from_profile, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_stream *st = &b->f->streams[b->stream];
	char why[128];
	unsigned int i, k;

	/* The stream's own port, unless --tx-port or --pairs replace it. */
	if (!o->tx_port_set && o->n_pairs == 0 && n_ports > 0 &&
	    st->port >= n_ports)
		return wr_error_set(err, -EINVAL, b->f->path, st->mark.line,
				    st->mark.col, NULL, "streams[%u].port: port "
				    "%u does not exist: %s has %u port%s (0..%u)",
				    b->stream, st->port, from_profile ?
				    "the profile" : "EAL", n_ports,
				    n_ports == 1 ? "" : "s", n_ports - 1);
	if (o->tx_port_set &&
	    wr_bench_port_check(o->tx_port, n_ports, why, sizeof(why)) != 0)
		return port_bad(err, "--tx-port", o->tx_port, why);
	if (o->rx_port_set &&
	    wr_bench_port_check(o->rx_port, n_ports, why, sizeof(why)) != 0)
		return port_bad(err, "--rx-port", o->rx_port, why);
	for (i = 0; i < o->n_pairs; i++)
		for (k = 0; k < 2; k++)
			if (wr_bench_port_check(o->pairs[i][k], n_ports, why,
						sizeof(why)) != 0)
				return port_bad(err, "--pairs", o->pairs[i][k],
						why);
	return 0;
}

/* Every size must build (a signature or a string needs room): found
 * before EAL starts. */
static int
sizes_check(const struct wr_bench *b, struct wr_error *err)
{
	struct wr_frame_tmpl *t;
	struct wr_stream st;
	struct wr_error terr;
	unsigned int i;

	for (i = 0; i < b->n_sizes; i++) {
		wr_bench_stream_at(b, b->sizes[i], &st);
		if (b->latency) {
			/* Trials count loss with the loss-only signature,
			 * which fits 64-byte frames. */
			st.latency = true;
			st.sig_short = true;
		}
		wr_error_clear(&terr);
		if (wr_frame_tmpl_create(&st, 0, &t, &terr) != 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--sizes",
					    "stream %s cannot be sent in %u-byte "
					    "frames%s: %s", st.name, b->sizes[i],
					    b->latency ? " with the loss-only "
					    "signature that counts loss" : "",
					    terr.msg);
		wr_frame_tmpl_free(t);
	}
	return 0;
}

int
wr_bench_init_stream(struct wr_bench *b, unsigned int n_ports,
		     struct wr_error *err)
{
	static const uint16_t defaults[] = WR_BENCH_SIZES_DEFAULT;
	const struct wr_bench_opts *o = b->o;
	const struct wr_stream_file *f = b->f;
	int rc;

	if (o->stream_name != NULL) {
		rc = wr_stream_file_find(f, o->stream_name);
		if (rc < 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--stream",
					    "no stream named \"%s\" in %s",
					    o->stream_name, f->path);
		b->stream = (uint32_t)rc;
	}
	/* These commands choose the frame size: a stream whose frames are
	 * given (a capture, a frame's bytes) has its own. */
	if (f->streams[b->stream].replay != NULL ||
	    f->streams[b->stream].fe != NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "%s: stream %s "
				    "sends the frames it is given (pcap: or "
				    "frame:), whose sizes %s does not set: give a "
				    "generated stream (--stream)", b->drv->name,
				    f->streams[b->stream].name, b->drv->name);
	/* Through a reflector, every frame carries the loss-only signature
	 * so that what came back is counted exactly (rfc2544's always do). */
	b->latency = b->latency || o->rx_port_set;
	if (o->n_sizes > 0) {
		memcpy(b->sizes, o->sizes, o->n_sizes * sizeof(*b->sizes));
		b->n_sizes = o->n_sizes;
	} else {
		memcpy(b->sizes, defaults, sizeof(defaults));
		b->n_sizes = WR_BENCH_N_SIZES_DEFAULT;
	}
	rc = wr_bench_ports_check(b, n_ports, true, err);
	if (rc == 0)
		rc = sizes_check(b, err);
	return rc;
}

/* The largest frame a benchmark sends or has echoed back: the ports are
 * set up for it (MTU, RX buffers). */
uint16_t
wr_bench_max_frame(const struct wr_bench *b)
{
	uint16_t m = 0;
	unsigned int i;

	for (i = 0; i < b->n_sizes; i++)
		if (b->sizes[i] > m)
			m = b->sizes[i];
	return m;
}

/* A progress line @p in_ns into a trial of @p st (rfc2544's, cur_test). */
static void
trial_tick(struct wr_bench *b, const struct wr_stream *st, uint64_t in_ns)
{
	struct wr_bench_progress p = {
		.test = b->cur_test, .size = st->size.fixed, .eta_s = -1,
		.rate_millipps = st->rate.unit == WR_RATE_PPS ? st->rate.value : 0,
		.done = b->progress_done, .estimate = b->progress_est,
		/* An upper bound until the first size is done, as the
		 * trials' lines say (the page said "about 438 s" inside the
		 * first size's bursts, "at most" between them). */
		.eta_bound = b->progress_bound,
		.trial_s = (double)in_ns / 1e9,
		.trial_len_s = (double)st->duration_ns / 1e9,
	};
	char text[256], rate[48] = "as fast as the port takes frames";

	p.elapsed_s = (double)(wr_bench_mono_ns() - b->progress_t0_ns) / 1e9;
	if (p.done > 0 && p.estimate > p.done)
		p.eta_s = p.elapsed_s / p.done * (p.estimate - p.done);
	if (eta_time(b) >= 0)
		p.eta_s = eta_time(b);
	if (p.rate_millipps != 0)
		snprintf(rate, sizeof(rate), "at %.3f pps",
			 (double)p.rate_millipps / 1e3);
	if (st->duration_ns != 0)
		snprintf(text, sizeof(text), "  %u bytes: %s trial %u of ~%u %s: "
			 "%.0f s of %.0f s\n", p.size, p.test, p.done + 1,
			 p.estimate > p.done ? p.estimate : p.done + 1, rate,
			 p.trial_s, p.trial_len_s);
	else
		snprintf(text, sizeof(text), "  %u bytes: %s trial %u of ~%u %s: "
			 "%.0f s\n", p.size, p.test, p.done + 1,
			 p.estimate > p.done ? p.estimate : p.done + 1, rate,
			 p.trial_s);
	b->h->line(b->h->ctx, text, &p, false);
}

int
wr_bench_trial(struct wr_bench *b, struct wr_stream *st, uint64_t drain_ns,
	       struct wr_report_row *row, struct wr_error *err)
{
	uint64_t t0, tick;
	struct wr_stream two[2];
	struct wr_stream_file sf;
	struct wr_session sess;
	struct wr_report_view *v;
	int rc;

	two[0] = *st;
	if (b->bidir) {
		/* The reverse direction: the same size, rate, length and
		 * signature, from the RX port. */
		wr_bench_stream_idx_at(b, b->rev_stream, st->size.fixed, &two[1]);
		two[1].port = b->rx_port;
		two[1].rate = st->rate;
		two[1].count = st->count != 0 && b->rev_count != 0 ?
			       b->rev_count : st->count;
		two[1].duration_ns = st->duration_ns;
		two[1].latency = st->latency;
		two[1].sig_short = st->sig_short;
	}
	trial_stream_file(b, two, b->bidir ? 2 : 1, &sf);
	wr_session_init(&sess, b->e, NULL);
	wr_error_clear(err);
	rc = wr_session_load(&sess, &sf, err);
	if (rc == 0 && wr_bench_cancelled(b))
		rc = -EINTR;
	if (rc == 0)
		rc = wr_engine_start(b->e, err);
	if (rc != 0) {
		wr_session_unload(&sess);
		return rc;
	}
	/* The stream's own duration ends the trial; a signal or a link
	 * that goes away cuts it short. */
	t0 = wr_bench_mono_ns();
	tick = t0 + WR_BENCH_TICK_NS;
	while (!wr_engine_tx_finished(b->e)) {
		if (wr_engine_links_check(b->e) > 0) {
			b->link_lost = true;
			wr_engine_request_stop(b->e, true);
		}
		b->h->wait(b->h->ctx, WR_BENCH_POLL_NS);
		if (b->cur_test != NULL && !wr_bench_cancelled(b) &&
		    wr_bench_mono_ns() >= tick) {
			trial_tick(b, st, wr_bench_mono_ns() - t0);
			tick += WR_BENCH_TICK_NS;
		}
	}
	/* Echoes still in flight: the drain, time the caller may use. */
	if (wr_engine_any_rx(b->e))
		pass_time(b, drain_ns);
	wr_engine_stop(b->e, 0);
	/* A link that went after the last frame (in the drain, or before
	 * this trial: nothing was sent at all) counts as much. */
	if (wr_engine_links_check(b->e) > 0)
		b->link_lost = true;
	v = wr_engine_collect(b->e, true);
	*row = v->streams[0];
	b->port_row = v->ports[st->port];
	b->rx_distinct = 0;
	b->rx_port_pkts = 0;
	b->rx_bytes = 0;
	if (b->bidir) {
		b->rev_row = v->streams[1];
		b->rev_distinct = distinct_on(b, st->port, 1);
		b->rev_port_pkts = v->ports[st->port].rx_pkts;
	}
	/* The NIC's counters run since the engine opened: this trial's
	 * share is the difference. */
	if (v->ports[b->rx_port].has_nic) {
		b->rx_nic_pkts = v->ports[b->rx_port].nic_ipackets -
				 b->nic_ipackets[b->rx_port];
		b->rx_nic_missed = v->ports[b->rx_port].nic_imissed +
				   v->ports[b->rx_port].nic_rx_nombuf -
				   b->nic_imissed[b->rx_port];
		b->rx_nic_bytes = v->ports[b->rx_port].nic_ibytes -
				  b->nic_ibytes[b->rx_port];
	}
	for (unsigned int i = 0; i < wr_engine_n_ports(b->e); i++) {
		if (!v->ports[i].has_nic)
			continue;
		b->nic_ipackets[i] = v->ports[i].nic_ipackets;
		b->nic_imissed[i] = v->ports[i].nic_imissed +
				    v->ports[i].nic_rx_nombuf;
		b->nic_ibytes[i] = v->ports[i].nic_ibytes;
	}
	if (b->latency && wr_engine_rxq(b->e, b->rx_port, 0) != NULL) {
		/* What came back on the RX port itself, not on any port. */
		struct wr_latency_jitter jit;
		struct wr_seq_result res;

		b->rx_port_pkts = v->ports[b->rx_port].rx_pkts;
		b->rx_bytes = v->ports[b->rx_port].rx_bytes;
		wr_engine_stream_seq(b->e, 0, b->rx_port, &res, b->lat_hist,
				     &jit);
		b->rx_distinct = res.distinct;
		if (b->lat_hist != NULL && !st->sig_short)
			wr_latency_summarize(b->lat_hist, &jit, &b->lat);
	}
	if (b->bidir && b->rev_lat_hist != NULL && !st->sig_short &&
	    wr_engine_rxq(b->e, st->port, 0) != NULL) {
		/* The reverse stream's frames, timed on the stream's port. */
		struct wr_latency_jitter jit;
		struct wr_seq_result res;

		wr_engine_stream_seq(b->e, 1, st->port, &res, b->rev_lat_hist,
				     &jit);
		wr_latency_summarize(b->rev_lat_hist, &jit, &b->rev_lat);
	}
	wr_session_unload(&sess);
	return wr_bench_cancelled(b) || b->link_lost ? -EINTR : 0;
}

void
wr_bench_tx_of(const struct wr_bench *b, const struct wr_stream *st,
	       const struct wr_report_row *row, struct wr_txlimit_tx *tx)
{
	memset(tx, 0, sizeof(*tx));
	tx->sent = row->total.tx_pkts;
	tx->pacer_skipped = row->pacer_skipped;
	tx->tx_full = row->total.tx_full;
	tx->alloc_fail = row->total.alloc_fail;
	tx->burst = st->burst ? st->burst : b->cfg_burst;
	tx->usage = b->port_row.tx_usage;
}

const char *
wr_bench_stop_reason(const struct wr_bench *b, int rc)
{
	if (rc != -EINTR)
		return "done";
	return b->link_lost ? "link-down" : "signal";
}

void
wr_bench_utc(char *buf, size_t len)
{
	time_t wall = time(NULL);
	struct tm tm;

	gmtime_r(&wall, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void
wr_bench_meta(const struct wr_bench *b, struct wr_bench_meta *m,
	      uint16_t tx_port, const char *reason)
{
	const struct wr_port *p = wr_engine_port(b->e, tx_port);

	memset(m, 0, sizeof(*m));
	m->wirerate_version = WR_VERSION;
	m->dpdk_version = wr_engine_dpdk_version();
	wr_tsc_get(&m->tsc);
	m->has_tsc = true;
	m->stream_file = b->f->path;
	wr_report_hex(b->f->sha256, m->stream_sha256);
	m->stream = b->f->streams[b->stream].name;
	m->config_file = b->cfg_path ? b->cfg_path : "";
	snprintf(m->started_at, sizeof(m->started_at), "%s", b->started_at);
	wr_bench_utc(m->finished_at, sizeof(m->finished_at));
	m->seed = b->f->seed;
	m->tx_device = p->device;
	m->tx_driver = p->driver;
	m->link_mbps = p->link_speed_mbps;
	m->link_placeholder = wr_txlimit_placeholder(p->driver);
	m->stop_reason = reason;
}

int
wr_bench_run(struct wr_bench *b, struct wr_engine *e, const char *cfg_path,
	     uint32_t cfg_burst, struct wr_bench_result *r, struct wr_error *err)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->kind = b->kind;
	b->e = e;
	b->cfg_path = cfg_path;
	b->cfg_burst = cfg_burst;
	b->progress_t0_ns = wr_bench_mono_ns();
	wr_bench_utc(b->started_at, sizeof(b->started_at));
	/* A profile without ports uses every port EAL probed: known now. */
	rc = wr_bench_ports_check(b, wr_engine_n_ports(e), false, err);
	if (rc != 0)
		return rc;
	return b->drv->run(b, r, err);
}

void
wr_bench_rtt_session(struct wr_bench *b, struct wr_rtt_ses *ses)
{
	b->rtt_ses = ses;
	b->rtt_ses_own = false;
}

void
wr_bench_fini(struct wr_bench *b)
{
	for (unsigned int j = 0; j < WR_RTT_CMP_MAX; j++) {
		free(b->rtt_sizes_of[j]);
		b->rtt_sizes_of[j] = NULL;
	}
	b->rtt_sizes = NULL;
	if (b->rtt_ses_own)
		wr_rtt_ses_close(b->rtt_ses);
	b->rtt_ses = NULL;
	b->rtt_ses_own = false;
}

/* ---- results ---- */

/* tools/wr-report JSON - : the HTML on its stdout, copied to @p out. */
int
wr_bench_report_html(FILE *out, const char *json, const char *tools_dir)
{
	char tool[1024], buf[65536];
	int pfd[2], status, rc = 0;
	ssize_t n;
	pid_t pid;

	snprintf(tool, sizeof(tool), "%s/wr-report", tools_dir);
	fflush(NULL);
	if (pipe2(pfd, O_CLOEXEC) != 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return rc;
	}
	if (pid == 0) {
		if (dup2(pfd[1], STDOUT_FILENO) < 0)
			_exit(127);
		execl(tool, tool, json, "-", (char *)NULL);
		fprintf(stderr, "wirerate: --report: cannot run %s: %s\n",
			tool, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		/* A write error is kept; the rest is read so that the
		 * tool is not stopped by a broken pipe mid-sentence. */
		if (rc == 0 && fwrite(buf, 1, (size_t)n, out) != (size_t)n)
			rc = -errno;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		rc = -ECHILD;
	return rc;
}

void
wr_bench_result_free(struct wr_bench_result *r)
{
	free(r->rows);
	free(r->st);
	free(r->rfc);
	free(r->rtt);
	memset(r, 0, sizeof(*r));
}

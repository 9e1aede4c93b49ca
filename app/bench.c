/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate sweep / rfc2544: options, preparation and one trial on an open engine. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


#include "bench.h"
#include "wr_out.h"
#include "wr_parse.h"
#include "wr_report.h"
#include "wr_tsc.h"
#include "wr_yaml.h"

/* The main lcore checks for the end of a trial this often. */
#define WR_BENCH_POLL_NS (20 * 1000 * 1000ull)

/* The engine the signal handler stops, and how many signals came: the
 * first stops the trial running and no other starts; a second cuts the
 * drain short. */
static struct wr_engine *wr_bench_engine;
static volatile sig_atomic_t wr_bench_signals;

static void
on_signal(int sig)
{
	(void)sig;
	wr_engine_cancel();
	if (wr_bench_engine != NULL)
		wr_engine_request_stop(wr_bench_engine, wr_bench_signals > 0);
	wr_bench_signals++;
}

bool
wr_bench_interrupted(void)
{
	return wr_bench_signals > 0;
}

static int
bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "wirerate: %s: %s, got \"%s\"\n", opt, why, val);
	return -EINVAL;
}

int
wr_app_bench_opt(struct wr_opts *o, int opt, const char *arg)
{
	char why[WR_PARSE_WHY_MAX];
	uint64_t v;

	switch (opt) {
	case 'b':
		if (wr_parse_u64(arg, 1, WR_BURST_MAX, &v, why, sizeof(why)))
			return bad("--burst", arg, "expected frames per burst "
				   "1..512");
		o->burst = (uint32_t)v;
		o->burst_set = true;
		return 0;
	case 'z':
		if (wr_bench_parse_sizes(arg, o->sizes, WR_BENCH_SIZES_MAX,
					 &o->n_sizes, why, sizeof(why)))
			return bad("--sizes", arg, why);
		return 0;
	case 'C':
		o->csv_file = arg;
		return 0;
	case 't':
	case 'r':
		if (wr_parse_u64(arg, 0, WR_PORTS_MAX - 1, &v, why, sizeof(why)))
			return bad(opt == 't' ? "--tx-port" : "--rx-port", arg,
				   "expected a port index 0..31");
		if (opt == 't') {
			o->tx_port = (uint16_t)v;
			o->tx_port_set = true;
		} else {
			o->rx_port = (uint16_t)v;
			o->rx_port_set = true;
		}
		return 0;
	case 'T':
		if (wr_parse_duration_ns(arg, &o->trial_ns, why, sizeof(why)) ||
		    o->trial_ns == 0)
			return bad("--trial", arg, "expected a duration above 0 "
				   "such as 60, 2s or 500ms");
		return 0;
	case 'R':
		if (strchr(arg, '%') != NULL) {
			if (wr_bench_parse_ppm(arg, &o->resolution_ppm, why,
					       sizeof(why)) ||
			    o->resolution_ppm == 0)
				return bad("--resolution", arg, "expected a "
					   "share of the line rate above 0 such "
					   "as 0.1% or a rate such as 10 kpps");
			o->resolution_millipps = 0;
			return 0;
		}
		{
			struct wr_rate_spec r;

			if (wr_parse_rate(arg, &r, why, sizeof(why)) ||
			    r.unit != WR_RATE_PPS)
				return bad("--resolution", arg, "expected a "
					   "share of the line rate such as 0.1% "
					   "or a packet rate such as 10 kpps");
			o->resolution_millipps = r.value;
			o->resolution_ppm = 0;
		}
		return 0;
	case 'l':
		if (wr_bench_parse_ppm(arg, &o->loss_ppm, why, sizeof(why)))
			return bad("--loss-tolerance", arg, why);
		return 0;
	case 'P':
		if (wr_bench_parse_ppm(arg, &o->pdr_ppm, why, sizeof(why)) ||
		    o->pdr_ppm == 0)
			return bad("--pdr", arg, "expected the loss the partial "
				   "drop rate tolerates, a percentage above 0 "
				   "such as 0.5%");
		return 0;
	case 'H':
		if (wr_parse_u64(arg, 1, WR_RFC2544_PHASES_MAX, &v, why,
				 sizeof(why)))
			return bad("--phases", arg, "expected a number of search "
				   "phases 1..8");
		o->phases = (uint32_t)v;
		return 0;
	case 'E':
		if (wr_bench_parse_tests(arg, &o->tests, why, sizeof(why)))
			return bad("--tests", arg, why);
		return 0;
	case 'G':
		if (wr_bench_parse_ppm(arg, &o->loss_step_ppm, why,
				       sizeof(why)) || o->loss_step_ppm < 10000)
			return bad("--loss-step", arg, "expected the frame loss "
				   "rate's step, a percentage 1..100 such as 10%");
		return 0;
	case 'B':
		if (wr_parse_u64(arg, 1, WR_B2B_REPEATS_MAX, &v, why,
				 sizeof(why)))
			return bad("--b2b-repeats", arg, "expected a number of "
				   "back-to-back searches 1..1000");
		o->b2b_repeats = (uint32_t)v;
		return 0;
	case 'K':
		if (wr_parse_duration_ns(arg, &o->b2b_trial_ns, why,
					 sizeof(why)) || o->b2b_trial_ns == 0)
			return bad("--b2b-trial", arg, "expected a duration above "
				   "0 such as 2s or 100ms");
		return 0;
	case 'W':
		if (wr_parse_u64(arg, 1, UINT64_MAX, &o->b2b_resolution, why,
				 sizeof(why)))
			return bad("--b2b-resolution", arg, "expected a number "
				   "of frames of 1 or more");
		return 0;
	case 'Y':
		o->rev_stream = arg;
		return 0;
	case 'Q':
		o->report_file = arg;
		return 0;
	case 'Z':
		if (wr_bench_parse_pairs(arg, o->pairs, WR_BENCH_PAIRS_MAX,
					 &o->n_pairs, why, sizeof(why)))
			return bad("--pairs", arg, why);
		return 0;
	case 'X':
		if (wr_parse_u64(arg, 1, WR_SWEEP_REPEATS_MAX, &v, why,
				 sizeof(why)))
			return bad("--repeat", arg, "expected a number of "
				   "repeats 1..1000");
		o->repeats = (uint32_t)v;
		return 0;
	case 'U':
		if (wr_parse_u64(arg, 1, WR_BENCH_LAT_TRIALS_MAX, &v, why,
				 sizeof(why)))
			return bad("--latency-trials", arg, "expected a number "
				   "of latency trials 1..100");
		o->lat_trials = (uint32_t)v;
		return 0;
	case 'V':
		if (wr_parse_duration_ns(arg, &o->lat_trial_ns, why,
					 sizeof(why)) || o->lat_trial_ns == 0)
			return bad("--latency-trial", arg, "expected a duration "
				   "above 0 such as 120s or 500ms");
		return 0;
	case 'F':
		if (wr_parse_duration_ns(arg, &o->first_trial_ns, why,
					 sizeof(why)) || o->first_trial_ns == 0)
			return bad("--first-trial", arg, "expected a duration "
				   "above 0 such as 1, 1s or 500ms");
		return 0;
	case 'M':
	case 'm':
		if (wr_parse_rate(arg, opt == 'M' ? &o->max_rate : &o->min_rate,
				  why, sizeof(why)) ||
		    (opt == 'M' ? o->max_rate.unit : o->min_rate.unit) ==
		    WR_RATE_MAX)
			return bad(opt == 'M' ? "--max-rate" : "--min-rate", arg,
				   "expected a rate such as \"300 kpps\", "
				   "\"1 Gbps L1\" or \"50%\"");
		return 0;
	default:
		return -EINVAL;
	}
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
	*st = b->f.streams[idx];
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
	snprintf(sf->path, sizeof(sf->path), "%s", b->f.path);
	sf->version = b->f.version;
	sf->seed = b->f.seed;
	sf->seed_set = b->f.seed_set;
	memcpy(sf->sha256, b->f.sha256, sizeof(sf->sha256));
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

/* One line for a port option naming a port that does not exist. */
static int
port_bad(const char *opt, unsigned int port, const char *why)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", port);
	bad(opt, val, why);
	return WR_EXIT_USAGE;
}

/* Every port the options and the stream name exists among @p n_ports
 * (the profile's before EAL starts, EAL's after; 0: not known yet).
 * Prints; @return an exit code. */
static int
ports_check(const struct wr_bench *b, unsigned int n_ports)
{
	const struct wr_opts *o = b->o;
	const struct wr_stream *st = &b->f.streams[b->stream];
	char why[128];
	unsigned int i;

	/* The stream's own port, unless --tx-port or --pairs replace it. */
	if (!o->tx_port_set && o->n_pairs == 0 && n_ports > 0 &&
	    st->port >= n_ports) {
		fprintf(stderr, "wirerate: %s:%u:%u: streams[%u].port: port %u "
			"does not exist: %s has %u port%s (0..%u)\n", b->f.path,
			st->mark.line, st->mark.col, b->stream, st->port,
			b->cfg.n_ports ? "the profile" : "EAL", n_ports,
			n_ports == 1 ? "" : "s", n_ports - 1);
		return WR_EXIT_USAGE;
	}
	if (o->tx_port_set &&
	    wr_bench_port_check(o->tx_port, n_ports, why, sizeof(why)) != 0)
		return port_bad("--tx-port", o->tx_port, why);
	if (o->rx_port_set &&
	    wr_bench_port_check(o->rx_port, n_ports, why, sizeof(why)) != 0)
		return port_bad("--rx-port", o->rx_port, why);
	for (i = 0; i < o->n_pairs; i++)
		for (unsigned int k = 0; k < 2; k++)
			if (wr_bench_port_check(o->pairs[i][k], n_ports, why,
						sizeof(why)) != 0)
				return port_bad("--pairs", o->pairs[i][k], why);
	return WR_EXIT_OK;
}

int
wr_bench_prepare(struct wr_bench *b, const struct wr_opts *o, bool latency,
		 const uint16_t *default_sizes, unsigned int n_default)
{
	struct wr_error err;
	struct wr_stream st;
	struct wr_frame_tmpl *t;
	unsigned int i;
	int rc;

	memset(b, 0, sizeof(*b));
	b->o = o;
	b->latency = latency;
	/* First: a signal from here on ends the command cleanly. */
	wr_app_signals(on_signal);
	wr_engine_quiet(o->quiet);
	wr_error_clear(&err);
	rc = wr_app_read_streams(o, &b->f);
	if (rc != WR_EXIT_OK)
		return rc;
	b->loaded = true;
	if (o->seed_set)
		wr_stream_file_set_seed(&b->f, o->seed);
	if (o->stream_name != NULL) {
		rc = wr_stream_file_find(&b->f, o->stream_name);
		if (rc < 0) {
			fprintf(stderr, "wirerate: --stream: no stream named "
				"\"%s\" in %s\n", o->stream_name, b->f.path);
			return WR_EXIT_USAGE;
		}
		b->stream = (uint32_t)rc;
	}
	/* These commands choose the frame size: a stream whose frames are
	 * given (a capture, a frame's bytes) has its own. */
	if (b->f.streams[b->stream].replay != NULL ||
	    b->f.streams[b->stream].fe != NULL) {
		fprintf(stderr, "wirerate: %s: stream %s sends the frames it is "
			"given (pcap: or frame:), whose sizes %s does not set: "
			"give a generated stream (--stream)\n", o->cmd,
			b->f.streams[b->stream].name, o->cmd);
		return WR_EXIT_USAGE;
	}
	if (o->n_sizes > 0) {
		memcpy(b->sizes, o->sizes, o->n_sizes * sizeof(*b->sizes));
		b->n_sizes = o->n_sizes;
	} else {
		memcpy(b->sizes, default_sizes, n_default * sizeof(*b->sizes));
		b->n_sizes = n_default;
	}

	rc = wr_app_load_profile(o, &b->cfg, &b->cfg_path);
	if (rc == WR_EXIT_OK)
		rc = ports_check(b, b->cfg.n_ports);
	if (rc == WR_EXIT_OK)
		rc = wr_app_check_files(o, &b->f, &b->cfg, b->cfg_path);
	if (rc != WR_EXIT_OK)
		return rc;
	if (o->burst_set)
		b->cfg.burst = o->burst;
	/* Every port is set up for the largest size, sent or echoed back
	 * (MTU, RX buffers), or refuses it before any frame is sent. */
	for (i = 0; i < b->n_sizes; i++)
		if (b->sizes[i] > b->cfg.max_frame)
			b->cfg.max_frame = b->sizes[i];

	/* Every size must build (a signature or a string needs room): found
	 * now, before EAL starts. */
	for (i = 0; i < b->n_sizes; i++) {
		wr_bench_stream_at(b, b->sizes[i], &st);
		if (b->latency) {
			/* Trials count loss with the loss-only signature,
			 * which fits 64-byte frames. */
			st.latency = true;
			st.sig_short = true;
		}
		wr_error_clear(&err);
		rc = wr_frame_tmpl_create(&st, 0, &t, &err);
		if (rc != 0) {
			fprintf(stderr, "wirerate: --sizes: stream %s cannot be "
				"sent in %u-byte frames%s: %s\n", st.name,
				b->sizes[i], b->latency ? " with the loss-only "
				"signature that counts loss" : "", err.msg);
			return WR_EXIT_USAGE;
		}
		wr_frame_tmpl_free(t);
	}
	return WR_EXIT_OK;
}

int
wr_bench_open(struct wr_bench *b)
{
	struct wr_error err;
	time_t wall = time(NULL);
	struct tm tm;
	int rc;

	gmtime_r(&wall, &tm);
	strftime(b->started_at, sizeof(b->started_at), "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	wr_error_clear(&err);
	rc = wr_engine_open(&b->e, &b->cfg, b->cfg_path, b->o->eal,
			    b->o->n_eal, &err);
	if (rc != 0 && wr_bench_interrupted()) {
		fprintf(stderr, "wirerate: stopped by a signal before sending: "
			"nothing was measured\n");
		return WR_EXIT_STOPPED;
	}
	if (rc != 0) {
		wr_app_print_error(&err);
		return rc == -EINVAL || rc == -ENODEV || rc == -ENOTSUP ||
			rc == -EMSGSIZE ? WR_EXIT_USAGE : WR_EXIT_FAIL;
	}
	wr_bench_engine = b->e;
	/* A profile without ports uses every port EAL probed: known now. */
	return ports_check(b, wr_engine_n_ports(b->e));
}

int
wr_bench_trial(struct wr_bench *b, struct wr_stream *st, uint64_t drain_ns,
	       struct wr_report_row *row)
{
	struct wr_stream two[2];
	struct wr_stream_file sf;
	struct wr_report_view *v;
	struct wr_error err;
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
	wr_engine_port_macs(b->e, &sf);
	wr_error_clear(&err);
	rc = wr_engine_load(b->e, &sf, false, &err);
	if (rc == 0 && wr_bench_interrupted())
		rc = -EINTR;
	if (rc == 0)
		rc = wr_engine_start(b->e, &err);
	if (rc != 0) {
		if (rc != -EINTR)
			wr_app_print_error(&err);
		wr_engine_unload(b->e);
		return rc;
	}
	/* The stream's own duration ends the trial; a signal or a link
	 * that goes away cuts it short. */
	while (!wr_engine_tx_finished(b->e)) {
		if (wr_engine_links_check(b->e) > 0) {
			b->link_lost = true;
			wr_engine_request_stop(b->e, true);
		}
		wr_engine_sleep_ns(WR_BENCH_POLL_NS);
	}
	wr_engine_stop(b->e, drain_ns);
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
	wr_engine_unload(b->e);
	return wr_bench_interrupted() || b->link_lost ? -EINTR : 0;
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
	tx->burst = st->burst ? st->burst : b->cfg.burst;
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
wr_bench_meta(const struct wr_bench *b, struct wr_bench_meta *m,
	      uint16_t tx_port, const char *reason)
{
	const struct wr_port *p = wr_engine_port(b->e, tx_port);

	memset(m, 0, sizeof(*m));
	m->wirerate_version = WR_VERSION;
	m->dpdk_version = wr_engine_dpdk_version();
	wr_tsc_get(&m->tsc);
	m->has_tsc = true;
	m->stream_file = b->f.path;
	wr_report_hex(b->f.sha256, m->stream_sha256);
	m->stream = b->f.streams[b->stream].name;
	m->config_file = b->cfg_path ? b->cfg_path : "";
	snprintf(m->started_at, sizeof(m->started_at), "%s", b->started_at);
	{
		time_t wall = time(NULL);
		struct tm tm;

		gmtime_r(&wall, &tm);
		strftime(m->finished_at, sizeof(m->finished_at),
			 "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	m->seed = b->f.seed;
	m->tx_device = p->device;
	m->tx_driver = p->driver;
	m->link_mbps = p->link_speed_mbps;
	m->link_placeholder = wr_txlimit_placeholder(p->driver);
	m->stop_reason = reason;
}

int
wr_bench_write(const char *path, int (*fn)(FILE *, const void *),
	       const void *arg)
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

int
wr_bench_json_path(const struct wr_opts *o, char *buf, size_t len,
		   const char **json)
{
	*json = o->json_file;
	if (o->report_file == NULL || *json != NULL)
		return WR_EXIT_OK;
	if (snprintf(buf, len, "%s.json", o->report_file) >= (int)len) {
		fprintf(stderr, "wirerate: --report: the path is too long\n");
		return WR_EXIT_USAGE;
	}
	*json = buf;
	return WR_EXIT_OK;
}

/* tools/wr-report JSON - : the HTML on its stdout, copied into the
 * temporary of wr_out_atomic(), so the report is written whole or not at
 * all, by the one writer of result files. */
static int
report_job(FILE *out, const void *arg)
{
	const char *json = arg;
	char tool[1024], buf[65536];
	int pfd[2], status, rc = 0;
	ssize_t n;
	pid_t pid;

	if (wr_app_place(WR_APP_TOOLS, tool, sizeof(tool) - 16) == NULL)
		tool[0] = '\0';
	strcat(tool, "/wr-report");
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

int
wr_bench_report(const char *json, const char *html)
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

int
wr_bench_outputs(const struct wr_opts *o, const char *json,
		 int (*csv_fn)(FILE *, const void *),
		 int (*json_fn)(FILE *, const void *), const void *arg)
{
	int rc = wr_bench_write(o->csv_file, csv_fn, arg);
	int rc2 = wr_bench_write(json, json_fn, arg);

	if (rc != WR_EXIT_OK || rc2 != WR_EXIT_OK)
		return rc != WR_EXIT_OK ? rc : rc2;
	return o->report_file != NULL ?
		wr_bench_report(json, o->report_file) : WR_EXIT_OK;
}

void
wr_bench_close(struct wr_bench *b)
{
	wr_bench_engine = NULL;
	wr_engine_close(b->e);
	b->e = NULL;
	if (b->loaded)
		wr_stream_file_free(&b->f);
	wr_config_free(&b->cfg);
}

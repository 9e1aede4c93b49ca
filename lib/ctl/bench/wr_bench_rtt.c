/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_rtt: round trips one frame at a time, per UDP payload size (wirerate rtt). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bench_drivers.h"
#include "wr_bench_priv.h"
#include "wr_rtt.h"
#include "wr_sig.h"

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

/* The stream at one size: a shallow copy whose size is fixed and which
 * carries a signature; the copy owns nothing (never freed). */
static int
tmpl_at(const struct wr_bench *b, unsigned int j, const struct wr_rtt_size *sz,
	struct wr_frame_tmpl **t, struct wr_error *err)
{
	struct wr_stream s = b->f->streams[b->rtt_idx[j]];

	memset(&s.size, 0, sizeof(s.size));
	s.size.mode = WR_SIZE_FIXED;
	s.size.fixed = s.size.min = s.size.max = (uint16_t)sz->frame;
	s.latency = true;
	return wr_frame_tmpl_create(&s, b->rtt_idx[j], t, err);
}

/* --stream NAME or NAME,NAME,...: the streams, each once, on one port;
 * none: the file's first. */
static int
pick_streams(struct wr_bench *b, const char *list, struct wr_error *err)
{
	const struct wr_stream_file *f = b->f;
	char buf[1024], *save = NULL, *name;
	unsigned int j;
	int idx;

	b->rtt_k = 0;
	if (list == NULL) {
		b->rtt_k = 1;
		b->rtt_idx[0] = 0;
		return 0;
	}
	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf))
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--stream",
				    "too long");
	for (name = strtok_r(buf, ",", &save); name != NULL;
	     name = strtok_r(NULL, ",", &save)) {
		idx = wr_stream_file_find(f, name);
		if (idx < 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--stream",
					    "no stream named \"%s\" in %s",
					    name, f->path);
		for (j = 0; j < b->rtt_k; j++)
			if (b->rtt_idx[j] == (uint32_t)idx)
				return wr_error_set(err, -EINVAL, NULL, 0, 0,
						    "--stream", "\"%s\" given "
						    "twice", name);
		if (b->rtt_k == WR_RTT_CMP_MAX)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--stream",
					    "at most %u streams side by side",
					    WR_RTT_CMP_MAX);
		if (b->rtt_k > 0 &&
		    f->streams[idx].port != f->streams[b->rtt_idx[0]].port)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--stream",
					    "%s is on port %u, %s on port %u: "
					    "streams side by side share one "
					    "port", f->streams[idx].name,
					    f->streams[idx].port,
					    f->streams[b->rtt_idx[0]].name,
					    f->streams[b->rtt_idx[0]].port);
		b->rtt_idx[b->rtt_k++] = (uint32_t)idx;
	}
	if (b->rtt_k == 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--stream",
				    "expected NAME or NAME,NAME,...");
	return 0;
}

static int
rtt_init(struct wr_bench *b, unsigned int n_ports, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_stream *st;
	uint32_t from = RTT_FROM, to = RTT_TO, step = RTT_STEP;
	unsigned int i, j, raised = 0;
	uint32_t largest = 0;
	int rc;

	rc = pick_streams(b, o->stream_name, err);
	if (rc != 0)
		return rc;
	b->stream = b->rtt_idx[0];
	st = &b->f->streams[b->stream];
	for (j = 0; j < b->rtt_k; j++) {
		const struct wr_stream *sj = &b->f->streams[b->rtt_idx[j]];

		/* rtt chooses the frame size: a stream whose frames are
		 * given (a capture, a frame's bytes) has its own. */
		if (sj->replay != NULL || sj->fe != NULL)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					    "rtt: stream %s sends the frames it "
					    "is given (pcap: or frame:), whose "
					    "sizes rtt does not set: give a "
					    "generated stream (--stream)",
					    sj->name);
	}
	if (o->rtt_step != 0) {
		from = o->rtt_from;
		to = o->rtt_to;
		step = o->rtt_step;
	}
	/* The same payloads for every stream; each its own frame sizes. */
	for (j = 0; j < b->rtt_k; j++) {
		const struct wr_stream *sj = &b->f->streams[b->rtt_idx[j]];

		b->rtt_sizes_of[j] = calloc(WR_RTT_SIZES_MAX,
					    sizeof(*b->rtt_sizes_of[j]));
		if (b->rtt_sizes_of[j] == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		rc = wr_rtt_sizes(from, to, step, wr_stream_hdr_len(sj),
				  b->rtt_sizes_of[j], WR_RTT_SIZES_MAX,
				  &b->n_rtt_sizes, &raised);
		if (rc != 0)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, "--sizes",
					    "%s%s%s", rc == -E2BIG ?
					    "more than 10000 sizes" :
					    "a payload that makes a frame above "
					    "9018 bytes", b->rtt_k > 1 ?
					    " for stream " : "", b->rtt_k > 1 ?
					    sj->name : "");
	}
	b->rtt_sizes = b->rtt_sizes_of[0];
	if (raised > 0)
		wr_bench_note(b, "note: %u payload size%s below %u bytes raised to %u: a "
		     "frame must carry the %u-byte signature to be recognised "
		     "when it comes back", raised, raised == 1 ? "" : "s",
		     WR_SIG_LEN, WR_SIG_LEN, WR_SIG_LEN);
	/* Every size must build (a string payload may not fit a small
	 * one); the templates are built again, one at a time, later. */
	for (j = 0; j < b->rtt_k; j++)
		for (i = 0; i < b->n_rtt_sizes; i++) {
			const struct wr_stream *sj = &b->f->streams[b->rtt_idx[j]];
			const struct wr_rtt_size *sz = &b->rtt_sizes_of[j][i];
			struct wr_frame_tmpl *t;
			struct wr_error terr;
			char line[768];

			wr_error_clear(&terr);
			if (tmpl_at(b, j, sz, &t, &terr) != 0) {
				if (terr.file[0] == '\0')
					snprintf(terr.file, sizeof(terr.file),
						 "%s", b->f->path);
				if (terr.line == 0) {
					terr.line = sj->mark.line;
					terr.col = sj->mark.col;
				}
				wr_error_format(&terr, line, sizeof(line));
				return wr_error_set(err, -EINVAL, NULL, 0, 0,
						    NULL, "payload %u bytes "
						    "(frame %u): wirerate: %s",
						    sz->payload, sz->frame, line);
			}
			wr_frame_tmpl_free(t);
			if (sz->frame > largest)
				largest = sz->frame;
		}
	if (n_ports > 0 && st->port >= n_ports)
		return wr_error_set(err, -EINVAL, b->f->path, st->mark.line,
				    st->mark.col, NULL, "streams[%u].port: port "
				    "%u does not exist: the profile has %u port%s",
				    b->stream, st->port, n_ports,
				    n_ports == 1 ? "" : "s");
	/* The port is set up for the largest frame (its MTU, RX buffers
	 * that hold the echo), as for run and sweep. */
	b->sizes[0] = (uint16_t)largest;
	b->n_sizes = 1;
	return 0;
}

/* rtt's time left: each size is count round trips of its k streams, one
 * frame in flight, so a size's time is count * k round trips (a lost one
 * its timeout), and a round trip grows with the frame: memif to testpmd
 * (README's example, this VM, quiet) took 2.6 us at 96 bytes and 3.5 us
 * at 1546 (p50 2.17 to 3.16 us, 0.68 ns a byte), and the sizes left at
 * the mean time of those done were 20-27 % short all along.  The sizes
 * left are each the mean of the sizes done plus the slope times count * k
 * times their frame's distance from the done ones' mean frame.  The slope
 * is the p50s' on the frame bytes, drawn towards that 0.7 ns a byte until
 * the sizes done span enough bytes to tell (the p50 of one size scatters
 * by about 0.15 us: a fit over sizes 50 bytes apart weighs half at
 * Sxx = (150 ns / 0.5 ns a byte, the prior's spread)^2). */
#define RTT_ETA_NS_PER_BYTE 0.7
#define RTT_ETA_FIT_K (300.0 * 300.0)

static double
rtt_frame_mean(const struct wr_bench *b, uint32_t u)
{
	double f = 0;
	unsigned int j;

	for (j = 0; j < b->rtt_k; j++)
		f += b->rtt_sizes_of[j][u].frame;
	return f / b->rtt_k;
}

static double
rtt_eta_weight(const void *ctx, unsigned int phase, uint32_t u)
{
	const struct wr_bench *b = ctx;
	const struct wr_bench_opts *o = b->o;
	double trips = (double)(o->count_set ? o->count : RTT_COUNT) * b->rtt_k;
	double mean_ns, w;

	(void)phase;
	if (b->eta.units_done == 0 || b->eta.sum_ns[0] == 0 ||
	    b->rtt_fit.n == 0)
		return 1.0;
	/* The weights of the sizes done sum to their count: the time per
	 * weight is their mean time. */
	mean_ns = (double)b->eta.sum_ns[0] / b->eta.units_done;
	w = 1.0 + b->rtt_ns_per_byte * trips *
	    (rtt_frame_mean(b, u) - wr_eta_fit_mean_x(&b->rtt_fit)) / mean_ns;
	return w > 0.05 ? w : 0.05;
}

/* Size @p i is done: its p50 into the fit. */
static void
rtt_eta_size_done(struct wr_bench *b, const struct wr_rtt_row *rows,
		  unsigned int i)
{
	unsigned int j;
	double p50 = 0;

	for (j = 0; j < b->rtt_k; j++) {
		if (rows[i * b->rtt_k + j].rtt.n == 0)
			return;
		p50 += (double)rows[i * b->rtt_k + j].rtt.p50;
	}
	wr_eta_fit_add(&b->rtt_fit, rtt_frame_mean(b, i), p50 / b->rtt_k);
	b->rtt_ns_per_byte = wr_eta_fit_slope(&b->rtt_fit, RTT_ETA_NS_PER_BYTE,
					      RTT_ETA_FIT_K);
}

/* The hooks' wait, and a cancel carried to the round-trip lcore. */
static void
rtt_wait(void *ctx, uint64_t ns)
{
	struct wr_bench *b = ctx;

	if (wr_bench_cancelled(b))
		__atomic_store_n(&b->rtt_stop, 1, __ATOMIC_RELAXED);
	b->h->wait(b->h->ctx, ns);
}

/* One size on the port's first TX lcore; the caller's time passes
 * meanwhile.  @return 0, -ENOLINK the port went away, -EINTR, or an
 * error (@p err). */
static int
measure(struct wr_bench *b, struct wr_rtt_ses *ses, unsigned int j,
	struct wr_rtt_row *row, const struct wr_rtt_size *sz,
	uint64_t *next_seq, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_rtt *r;
	struct wr_frame_tmpl *t;
	int rc;

	wr_error_clear(err);
	if (tmpl_at(b, j, sz, &t, err) != 0)
		return -EINVAL;
	rc = wr_rtt_ses_measure(ses, t, WR_SIG_ID(b->rtt_idx[j], 0),
				o->count_set ? o->count : RTT_COUNT,
				o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS,
				*next_seq, &b->rtt_stop, rtt_wait, b,
				RTT_POLL_NS, err);
	wr_frame_tmpl_free(t);
	if (err->msg[0] != '\0')
		return rc < 0 ? rc : -EIO;
	r = wr_rtt_ses_result(ses);
	*next_seq += r->sent + r->lost;
	row->size = *sz;
	row->sent = r->sent;
	row->lost = r->lost;
	row->late = r->late;
	row->foreign = r->foreign;
	wr_latency_summarize(&r->hist, &r->jitter, &row->rtt);
	/* A signal leaves the frame in flight neither answered nor timed
	 * out: it is not counted as sent, so sent = round trips + lost. */
	if (row->sent > row->rtt.n + row->lost)
		row->sent = row->rtt.n + row->lost;
	if (rc == -ENOBUFS)
		return wr_error_set(err, -ENOBUFS, NULL, 0, 0, "rtt",
				    "out of mbufs");
	return rc == -ENOLINK ? -ENOLINK : 0;
}

/* A frame above the port's MTU leaves (DPDK takes it) and a kernel or a
 * switch drops it silently: every round trip of the size would time out. */
static void
mtu_check(struct wr_bench *b, struct wr_rtt_ses *ses, unsigned int j,
	  const struct wr_port *p)
{
	const struct wr_stream *st = &b->f->streams[b->rtt_idx[j]];
	const uint32_t l2 = wr_stream_l2_len(st) + WR_FCS_LEN;
	const struct wr_rtt_size *sz = b->rtt_sizes_of[j];
	uint16_t mtu;
	unsigned int i;

	/* Only this side's MTU can be read; the peer's (a kernel interface,
	 * a switch port) may have been raised or not: say which is which. */
	if (wr_rtt_ses_mtu(ses, &mtu) != 0)
		return;
	for (i = 0; i < b->n_rtt_sizes; i++)
		if (sz[i].frame - l2 > mtu) {
			wr_bench_note(b, "note: from payload %u bytes on, frames carry "
			     "more than %u bytes after the Ethernet header, the "
			     "MTU port %s reports; wirerate sends them anyway "
			     "and cannot see the peer's MTU: a peer whose MTU "
			     "is lower drops them (each such round trip is lost "
			     "after the timeout)", sz[i].payload, mtu,
			     p->device);
			return;
		}
}

/* A table line rendered by wr_rtt_result.h into the log (@p row: the k
 * streams' rows of one size; NULL: the heading). */
static void
table_line(struct wr_bench *b, const struct wr_bench_result *r,
	   const struct wr_rtt_row *row, uint32_t done)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	if (row == NULL && r->rtt_k > 1)
		wr_rtt_cmp_header(f, r->rtt_name, r->rtt_k);
	else if (row == NULL)
		wr_rtt_table_header(f);
	else if (r->rtt_k > 1)
		wr_rtt_cmp_row(f, row, r->rtt_k);
	else
		wr_rtt_table_row(f, row);
	fclose(f);
	if (row == NULL) {
		wr_bench_line(b, "%s", buf);
	} else {
		b->progress_done = done - 1;
		wr_bench_say(b, "rtt", (uint16_t)row->size.frame, 0, true,
			     "%s", buf);
	}
	free(buf);
}

static int
rtt_run(struct wr_bench *b, struct wr_bench_result *r, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_stream *st = &b->f->streams[b->stream];
	const struct wr_port *p = wr_engine_port(b->e, st->port);
	struct wr_rtt_ses *ses = b->rtt_ses;
	struct wr_rtt_meta *m = &r->rtt_meta;
	struct wr_bench_meta bm;
	uint64_t next_seq[WR_RTT_CMP_MAX] = { 0 };
	const unsigned int k = b->rtt_k;
	bool link_lost = false;
	uint32_t stopped_in = 0;
	unsigned int i, j;
	size_t at = 0;
	int rc = 0;

	r->rtt = calloc((size_t)b->n_rtt_sizes * k, sizeof(*r->rtt));
	if (r->rtt == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	r->rtt_k = k;
	for (j = 0; j < k; j++) {
		snprintf(r->rtt_names[j], sizeof(r->rtt_names[j]), "%s",
			 b->f->streams[b->rtt_idx[j]].name);
		r->rtt_name[j] = r->rtt_names[j];
		at += (size_t)snprintf(r->rtt_names_joined + at,
				       sizeof(r->rtt_names_joined) - at,
				       "%s%s", j ? "," : "", r->rtt_names[j]);
	}
	wr_bench_utc(r->rtt_started, sizeof(r->rtt_started));
	if (ses == NULL) {
		wr_error_clear(err);
		rc = wr_rtt_ses_open(&ses, b->e, st->port,
				     (uint16_t)(b->sizes[0] - WR_FCS_LEN), err);
		if (rc != 0)
			return rc;
		b->rtt_ses = ses;
		b->rtt_ses_own = true;
	}
	b->progress_est = b->n_rtt_sizes;
	/* Each size is the same count of round trips, one frame in flight
	 * (and a timeout for each one lost): the sizes left at the time the
	 * sizes done took, counted from the first size's start (not the
	 * session's opening, a pool and a queue set up once), and, inside a
	 * size, less what it has run. */
	wr_bench_eta_start(b, b->n_rtt_sizes, rtt_eta_weight);
	memset(&b->rtt_fit, 0, sizeof(b->rtt_fit));
	b->rtt_ns_per_byte = RTT_ETA_NS_PER_BYTE;
	wr_bench_line(b, "wirerate %s (%s): rtt of stream%s %s (%s) on port "
		      "%u: %s (%s), lcore %u\n", WR_VERSION,
		      wr_engine_dpdk_version(), k > 1 ? "s" : "",
		      r->rtt_names_joined, b->f->path, st->port, p->device,
		      p->driver, wr_rtt_ses_lcore(ses));
	wr_bench_line(b, "%llu round trips per size%s, one frame in flight, "
		      "timeout %.3f s\n",
		      (unsigned long long)(o->count_set ? o->count : RTT_COUNT),
		      k > 1 ? " and stream, the streams taking turns" : "",
		      (double)(o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS) /
		      1e9);
	for (j = 0; j < k; j++)
		mtu_check(b, ses, j, p);
	table_line(b, r, NULL, 0);
	for (i = 0; i < b->n_rtt_sizes; i++) {
		bool any = false;

		wr_bench_eta_unit(b, i);
		wr_bench_eta_phase(b, 0);
		/* Each size is measured for every stream in turn, so that a
		 * drift of the path over the sweep weighs on all alike. */
		for (j = 0; j < k && rc == 0; j++) {
			struct wr_rtt_row *row = &r->rtt[i * k + j];

			rc = measure(b, ses, j, row, &b->rtt_sizes_of[j][i],
				     &next_seq[j], err);
			if (rc == -ENOLINK) {
				link_lost = true;
				rc = 0;
			}
			any |= row->sent + row->lost > 0;
			if (__atomic_load_n(&b->rtt_stop, __ATOMIC_RELAXED) ||
			    wr_bench_cancelled(b) || link_lost)
				break;
		}
		if (rc != 0)
			break;
		/* A size cut short by a signal is shown if it measured
		 * anything; one the link went in is not: the round trips it
		 * lost went with the path, not with the device (sweep's and
		 * rfc2544's rule). */
		if (link_lost) {
			stopped_in = b->rtt_sizes[i].payload;
			break;
		}
		/* The fit first: a unit's time is summed with the weights
		 * of this fit's mean frame. */
		rtt_eta_size_done(b, r->rtt, i);
		wr_bench_eta_unit_done(b);
		if (any) {
			r->n_rtt = i + 1;
			table_line(b, r, &r->rtt[i * k], i + 1);
		}
		if (__atomic_load_n(&b->rtt_stop, __ATOMIC_RELAXED) ||
		    wr_bench_cancelled(b) || link_lost)
			break;
	}
	if (rc != 0)
		return rc;
	if (link_lost)
		wr_bench_note(b, "rtt: port %s's link went down during payload "
			      "%u bytes: %u of %u sizes measured", p->device,
			      stopped_in, r->n_rtt, b->n_rtt_sizes);
	/* The head every result shares (wr_bench_meta()), in rtt's form. */
	wr_bench_meta(b, &bm, st->port, "done");
	*m = (struct wr_rtt_meta){
		.wirerate_version = bm.wirerate_version,
		.dpdk_version = bm.dpdk_version,
		.tsc = bm.tsc,
		.has_tsc = bm.has_tsc,
		.stream_file = bm.stream_file,
		.stream_name = r->rtt_names_joined,
		.config_file = b->cfg_path,
		.device = bm.tx_device,
		.started_at = r->rtt_started,
		.stop_reason = link_lost ? "link-down" :
			__atomic_load_n(&b->rtt_stop, __ATOMIC_RELAXED) ||
			wr_bench_cancelled(b) ? "signal" : "done",
		.count = o->count_set ? o->count : RTT_COUNT,
		.timeout_ns = o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS,
		.stopped_in = stopped_in,
	};
	if (link_lost) {
		m->not_measured = &b->rtt_sizes[r->n_rtt];
		m->n_not_measured = b->n_rtt_sizes - r->n_rtt;
	}
	r->link_lost = link_lost;
	r->rc = link_lost || wr_bench_cancelled(b) ? -EINTR : 0;
	return 0;
}

static int
rtt_csv(FILE *out, const struct wr_bench_result *r)
{
	if (r->rtt_k > 1)
		return wr_rtt_cmp_csv_write(out, r->rtt_name, r->rtt_k, r->rtt,
					    r->n_rtt);
	return wr_rtt_csv_write(out, r->rtt, r->n_rtt);
}

static int
rtt_json(FILE *out, const struct wr_bench_result *r)
{
	if (r->rtt_k > 1)
		return wr_rtt_cmp_json_write(out, &r->rtt_meta, r->rtt_name,
					     r->rtt_k, r->rtt, r->n_rtt);
	return wr_rtt_json_write(out, &r->rtt_meta, r->rtt, r->n_rtt);
}

/* Its rows are printed as it runs (table_line()): no print. */
const struct wr_bench_driver wr_bench_driver_rtt = {
	.name = "rtt",
	.init = rtt_init,
	.run = rtt_run,
	.csv = rtt_csv,
	.json = rtt_json,
};

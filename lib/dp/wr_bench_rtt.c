/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_rtt: round trips one frame at a time, per UDP payload size (wirerate rtt). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bench_priv.h"
#include "wr_tsc.h"
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
tmpl_at(const struct wr_bench *b, const struct wr_rtt_size *sz,
	struct wr_frame_tmpl **t, struct wr_error *err)
{
	struct wr_stream s = b->f->streams[b->stream];

	memset(&s.size, 0, sizeof(s.size));
	s.size.mode = WR_SIZE_FIXED;
	s.size.fixed = s.size.min = s.size.max = (uint16_t)sz->frame;
	s.latency = true;
	return wr_frame_tmpl_create(&s, b->stream, t, err);
}

int
wr_bench_rtt_init(struct wr_bench *b, unsigned int n_ports,
		  struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_stream *st = &b->f->streams[b->stream];
	uint32_t from = RTT_FROM, to = RTT_TO, step = RTT_STEP;
	unsigned int i, raised;
	int rc;

	if (o->rtt_step != 0) {
		from = o->rtt_from;
		to = o->rtt_to;
		step = o->rtt_step;
	}
	b->rtt_sizes = calloc(WR_RTT_SIZES_MAX, sizeof(*b->rtt_sizes));
	if (b->rtt_sizes == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	rc = wr_rtt_sizes(from, to, step, wr_stream_hdr_len(st), b->rtt_sizes,
			  WR_RTT_SIZES_MAX, &b->n_rtt_sizes, &raised);
	if (rc != 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--sizes", "%s",
				    rc == -E2BIG ? "more than 10000 sizes" :
				    "a payload that makes a frame above 9018 "
				    "bytes");
	if (raised > 0)
		wr_bench_note(b, "note: %u payload size%s below %u bytes raised to %u: a "
		     "frame must carry the %u-byte signature to be recognised "
		     "when it comes back", raised, raised == 1 ? "" : "s",
		     WR_SIG_LEN, WR_SIG_LEN, WR_SIG_LEN);
	/* Every size must build (a string payload may not fit a small
	 * one); the templates are built again, one at a time, later. */
	for (i = 0; i < b->n_rtt_sizes; i++) {
		struct wr_frame_tmpl *t;
		struct wr_error terr;
		char line[768];

		wr_error_clear(&terr);
		if (tmpl_at(b, &b->rtt_sizes[i], &t, &terr) != 0) {
			if (terr.file[0] == '\0')
				snprintf(terr.file, sizeof(terr.file), "%s",
					 b->f->path);
			if (terr.line == 0) {
				terr.line = st->mark.line;
				terr.col = st->mark.col;
			}
			wr_error_format(&terr, line, sizeof(line));
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
					    "payload %u bytes (frame %u): "
					    "wirerate: %s",
					    b->rtt_sizes[i].payload,
					    b->rtt_sizes[i].frame, line);
		}
		wr_frame_tmpl_free(t);
	}
	if (n_ports > 0 && st->port >= n_ports)
		return wr_error_set(err, -EINVAL, b->f->path, st->mark.line,
				    st->mark.col, NULL, "streams[%u].port: port "
				    "%u does not exist: the profile has %u port%s",
				    b->stream, st->port, n_ports,
				    n_ports == 1 ? "" : "s");
	/* The port is set up for the largest frame (its MTU, RX buffers
	 * that hold the echo), as for run and sweep. */
	b->sizes[0] = (uint16_t)b->rtt_sizes[b->n_rtt_sizes - 1].frame;
	b->n_sizes = 1;
	return 0;
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
measure(struct wr_bench *b, struct wr_rtt_ses *ses, struct wr_rtt_row *row,
	const struct wr_rtt_size *sz, uint64_t *next_seq, struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_rtt *r;
	struct wr_frame_tmpl *t;
	int rc;

	wr_error_clear(err);
	if (tmpl_at(b, sz, &t, err) != 0)
		return -EINVAL;
	rc = wr_rtt_ses_measure(ses, t, WR_SIG_ID(b->stream, 0),
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
mtu_check(struct wr_bench *b, struct wr_rtt_ses *ses, const struct wr_port *p)
{
	const struct wr_stream *st = &b->f->streams[b->stream];
	const uint32_t l2 = wr_stream_l2_len(st) + WR_FCS_LEN;
	uint16_t mtu;
	unsigned int i;

	/* Only this side's MTU can be read; the peer's (a kernel interface,
	 * a switch port) may have been raised or not: say which is which. */
	if (wr_rtt_ses_mtu(ses, &mtu) != 0)
		return;
	for (i = 0; i < b->n_rtt_sizes; i++)
		if (b->rtt_sizes[i].frame - l2 > mtu) {
			wr_bench_note(b, "note: from payload %u bytes on, frames carry "
			     "more than %u bytes after the Ethernet header, the "
			     "MTU port %s reports; wirerate sends them anyway "
			     "and cannot see the peer's MTU: a peer whose MTU "
			     "is lower drops them (each such round trip is lost "
			     "after the timeout)", b->rtt_sizes[i].payload, mtu,
			     p->device);
			return;
		}
}

/* A table line rendered by wr_rtt_table.h into the log. */
static void
table_line(struct wr_bench *b, const struct wr_rtt_row *row, uint32_t done)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	if (row == NULL)
		wr_rtt_table_header(f);
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

int
wr_bench_rtt_run(struct wr_bench *b, struct wr_bench_result *r,
		 struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	const struct wr_stream *st = &b->f->streams[b->stream];
	const struct wr_port *p = wr_engine_port(b->e, st->port);
	struct wr_rtt_ses *ses = b->rtt_ses;
	struct wr_rtt_meta *m = &r->rtt_meta;
	uint64_t next_seq = 0;
	bool link_lost = false;
	unsigned int i;
	int rc = 0;

	r->rtt = calloc(b->n_rtt_sizes, sizeof(*r->rtt));
	if (r->rtt == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	wr_bench_utc(r->rtt_started, sizeof(r->rtt_started));
	if (ses == NULL) {
		wr_error_clear(err);
		rc = wr_rtt_ses_open(&ses, b->e, st->port,
				     (uint16_t)(b->rtt_sizes[b->n_rtt_sizes - 1].frame -
						WR_FCS_LEN), err);
		if (rc != 0)
			return rc;
		b->rtt_ses = ses;
		b->rtt_ses_own = true;
	}
	b->progress_est = b->n_rtt_sizes;
	wr_bench_line(b, "wirerate %s (%s): rtt of stream %s (%s) on port %u: "
		      "%s (%s), lcore %u\n", WR_VERSION,
		      wr_engine_dpdk_version(), st->name, b->f->path, st->port,
		      p->device, p->driver, wr_rtt_ses_lcore(ses));
	wr_bench_line(b, "%llu round trips per size, one frame in flight, "
		      "timeout %.3f s\n",
		      (unsigned long long)(o->count_set ? o->count : RTT_COUNT),
		      (double)(o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS) /
		      1e9);
	mtu_check(b, ses, p);
	table_line(b, NULL, 0);
	for (i = 0; i < b->n_rtt_sizes; i++) {
		rc = measure(b, ses, &r->rtt[i], &b->rtt_sizes[i], &next_seq,
			     err);
		if (rc == -ENOLINK) {
			link_lost = true;
			rc = 0;
		}
		if (rc != 0)
			break;
		/* A size cut short by a signal is shown if it measured anything. */
		if (r->rtt[i].sent + r->rtt[i].lost > 0) {
			r->n_rtt = i + 1;
			table_line(b, &r->rtt[i], i + 1);
		}
		if (__atomic_load_n(&b->rtt_stop, __ATOMIC_RELAXED) ||
		    wr_bench_cancelled(b) || link_lost)
			break;
	}
	if (rc != 0)
		return rc;
	if (link_lost)
		wr_bench_note(b, "rtt: port %s's link went away: the sweep ends here",
		     p->device);
	memset(m, 0, sizeof(*m));
	m->wirerate_version = WR_VERSION;
	m->dpdk_version = wr_engine_dpdk_version();
	wr_tsc_get(&m->tsc);
	m->has_tsc = true;
	m->stream_file = b->f->path;
	m->stream_name = st->name;
	m->config_file = b->cfg_path;
	m->device = p->device;
	m->started_at = r->rtt_started;
	m->stop_reason = link_lost ? "link-down" :
		__atomic_load_n(&b->rtt_stop, __ATOMIC_RELAXED) ||
		wr_bench_cancelled(b) ? "signal" : "done";
	m->count = o->count_set ? o->count : RTT_COUNT;
	m->timeout_ns = o->timeout_ns ? o->timeout_ns : RTT_TIMEOUT_NS;
	r->link_lost = link_lost;
	r->rc = link_lost || wr_bench_cancelled(b) ? -EINTR : 0;
	return 0;
}

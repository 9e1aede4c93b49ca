/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_sweep: one stream at the maximum rate for each frame size, Ostinato's table; repeats and echoes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bench_drivers.h"
#include "wr_bench_priv.h"

/* Long enough for a steady rate on any port, short enough for 7 sizes. */
#define WR_SWEEP_DURATION_DEFAULT_NS (2 * 1000 * 1000 * 1000ull)

/* Bytes before the payload of the stream at @p size (above its innermost
 * UDP/TCP header, as `run --repeat` counts goodput); -1: none. */
static int32_t
payload_offset(const struct wr_bench *b, uint16_t size)
{
	struct wr_frame_tmpl *t;
	struct wr_stream st;
	struct wr_error err;
	int32_t off = -1;

	wr_bench_stream_at(b, size, &st);
	wr_error_clear(&err);
	if (wr_frame_tmpl_create(&st, 0, &t, &err) == 0) {
		off = wr_frame_tmpl_payload_off(t);
		wr_frame_tmpl_free(t);
	}
	return off < 0 ? -1 : off;
}

/* The first line of a sweep's log: what it sends where, for how long. */
static void
sweep_intro(struct wr_bench *b, uint16_t port, const struct wr_port *tp,
	    uint32_t line, uint64_t duration, uint32_t reps)
{
	char tail[160];

	if (line != 0)
		snprintf(tail, sizeof(tail), "line %u Mbps", line);
	else if (tp->link_speed_mbps != 0)
		snprintf(tail, sizeof(tail), "no line rate (%s reports %u Mbps, "
			 "a placeholder whatever the path carries)", tp->driver,
			 tp->link_speed_mbps);
	else
		snprintf(tail, sizeof(tail), "link speed unknown");
	wr_bench_line(b, "wirerate %s sweep: %s, stream %s on port %u (%s)%s, "
		      "%.3f s a size%s, %s\n", WR_VERSION, b->f->path,
		      b->f->streams[b->stream].name, port, tp->device,
		      b->o->rx_port_set ? ", echoes counted on --rx-port" : "",
		      (double)duration / 1e9, reps > 1 ? ", repeated" : "", tail);
}

/* The spread of one size's repeats (rows first..n-1) and of their
 * @p echoes (NULL: none) into @p st.  @return 0, or non-zero: no spread. */
static int
sweep_stat(struct wr_bench *b, struct wr_bench_result *r,
	   struct wr_sweep_stat *st, unsigned int first, unsigned int n,
	   const struct wr_sweep_echo *echoes, uint64_t rx_missed,
	   uint16_t size)
{
	if (wr_sweep_stat_calc(st, &r->rows[first], echoes, n - first,
			       payload_offset(b, size)) != 0)
		return -1;
	r->gen_limited |= wr_sweep_stat_gen_limited(st);
	/* Echoes the RX port dropped because wirerate did not take them:
	 * what came back measures the generator. */
	if (rx_missed > 0) {
		st->limited_by = "generator";
		r->gen_limited = true;
		if (!b->o->quiet)
			wr_bench_say(b, "sweep", size, 0, false, "  %u bytes: the "
				     "RX port dropped %llu echoes wirerate did "
				     "not take in time (imissed, rx_nombuf): the "
				     "generator's limit, not the reflector's "
				     "loss\n", size,
				     (unsigned long long)rx_missed);
	}
	return 0;
}

/* The sizes a stop left out of the @p n rows: the one it cut (with
 * link-down) and those after it. */
static void
not_measured(const struct wr_bench *b, struct wr_bench_result *r,
	     unsigned int n)
{
	for (unsigned int i = 0; i < b->n_sizes; i++) {
		bool done = false;

		for (unsigned int k = 0; k < n && !done; k++)
			done = r->rows[k].size == b->sizes[i];
		if (!done)
			r->not_measured[r->m.n_not_measured++] = b->sizes[i];
	}
}

static int
sweep_run(struct wr_bench *b, struct wr_bench_result *r,
	  struct wr_error *err)
{
	const struct wr_bench_opts *o = b->o;
	bool echo = o->rx_port_set;
	uint32_t reps = o->repeats ? o->repeats : 1;
	struct wr_sweep_echo *echoes;
	uint64_t duration = o->duration_ns ? o->duration_ns :
			    WR_SWEEP_DURATION_DEFAULT_NS;
	unsigned int i, rep, n = 0, n_st = 0;
	uint16_t stopped_in = 0;
	uint64_t rx_missed;
	const struct wr_port *tp;
	uint32_t line;
	uint16_t port;
	int rc;

	port = b->f->streams[b->stream].port;
	b->rx_port = echo ? o->rx_port : port;
	tp = wr_engine_port(b->e, port);
	/* A virtual PMD's link speed is a constant, not a line. */
	line = wr_txlimit_line_mbps(tp->driver, tp->link_speed_mbps);
	r->rows = calloc((size_t)b->n_sizes * reps, sizeof(*r->rows));
	r->st = calloc(WR_BENCH_SIZES_MAX, sizeof(*r->st));
	echoes = calloc((size_t)reps, sizeof(*echoes));
	if (r->rows == NULL || r->st == NULL || echoes == NULL) {
		free(echoes);
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	}
	r->n_sizes = b->n_sizes;
	b->progress_est = b->n_sizes * reps;
	if (!o->quiet)
		sweep_intro(b, port, tp, line, duration, reps);
	rc = 0;
	for (i = 0; i < b->n_sizes && rc == 0; i++) {
		unsigned int first = n;

		rx_missed = 0;
		for (rep = 0; rep < reps; rep++) {
			struct wr_report_row row;
			struct wr_txlimit_tx tx;
			struct wr_stream s;

			wr_bench_stream_at(b, b->sizes[i], &s);
			s.duration_ns = duration;
			if (echo) {
				s.latency = true;
				s.sig_short = true;
			}
			rc = wr_bench_trial(b, &s, echo ?
					    WR_BENCH_DRAIN_DEFAULT_NS : 0, &row,
					    err);
			if (rc != 0 && rc != -EINTR)
				break;
			if (rc == -EINTR && b->link_lost) {
				/* The path went away under this size: its
				 * figures (the frames it took with it) are no
				 * measurement, nor are the sizes after it. */
				stopped_in = b->sizes[i];
				n = first;
				break;
			}
			wr_bench_tx_of(b, &s, &row, &tx);
			wr_sweep_row_calc(&r->rows[n], b->sizes[i],
					  row.total.tx_pkts, row.duration_ns,
					  line, &tx);
			r->rows[n].cut_short = rc == -EINTR;
			echoes[rep].rx_pkts = b->rx_distinct;
			echoes[rep].rx_nic_pkts = b->rx_nic_pkts;
			echoes[rep].rx_bytes = b->rx_bytes;
			echoes[rep].rx_nic_bytes = b->rx_nic_bytes;
			rx_missed += echo ? b->rx_nic_missed : 0;
			n++;
			/* One line per trial (the progress in a pipe). */
			if (!o->quiet)
				wr_bench_say(b, "sweep", b->sizes[i], 0, true,
					     "  %u bytes, %u of %u: %.3f Kpps%s\n",
					     b->sizes[i], rep + 1, reps,
					     r->rows[n - 1].kpps, rc == -EINTR ?
					     " (cut short)" : "");
			if (!o->quiet && echo)
				wr_bench_say(b, "sweep", b->sizes[i], 0, false,
					     "  %u bytes, %u of %u: returned "
					     "%llu of %llu, %llu bytes\n",
					     b->sizes[i], rep + 1, reps,
					     (unsigned long long)b->rx_distinct,
					     (unsigned long long)row.total.tx_pkts,
					     (unsigned long long)b->rx_bytes);
			if (rc == -EINTR)
				break;
		}
		if (n > first && (reps > 1 || echo) &&
		    sweep_stat(b, r, &r->st[n_st], first, n, echo ? echoes : NULL,
			       rx_missed, b->sizes[i]) == 0)
			n_st++;
	}
	free(echoes);
	r->n_rows = n;
	r->n_st = n_st;
	r->spread = reps > 1 || echo;
	not_measured(b, r, n);
	if (rc != 0 && rc != -EINTR)
		return rc;
	{
		unsigned int n_not = r->m.n_not_measured;

		wr_bench_meta(b, &r->m, port, wr_bench_stop_reason(b, rc));
		r->m.n_not_measured = n_not;
	}
	r->m.duration_ns = duration;
	r->m.stopped_in = stopped_in ? stopped_in : rc == -EINTR && n > 0 ?
			  r->rows[n - 1].size : 0;
	r->m.not_measured = r->not_measured;
	r->rc = rc;
	r->link_lost = b->link_lost;
	/* Echoes that all came back at less than the line rate measured the
	 * generator, not the reflector: no figure for the reflector. */
	return 0;
}

static void
sweep_print(FILE *out, const struct wr_bench_result *r)
{
	fputc('\n', out);
	wr_sweep_print(out, r->rows, r->n_rows);
	if (r->n_st > 0) {
		fputc('\n', out);
		wr_sweep_stat_print(out, r->st, r->n_st);
	}
	wr_bench_stop_print(out, &r->m);
}

static int
sweep_csv(FILE *out, const struct wr_bench_result *r)
{
	return wr_sweep_csv_write(out, r->rows, r->n_rows);
}

static int
sweep_json(FILE *out, const struct wr_bench_result *r)
{
	/* A repeat or echo sweep keeps its schema when a stop left no size
	 * measured: "sizes": [], not another list. */
	if (r->spread)
		return wr_sweep_stat_json_write(out, &r->m, r->st, r->n_st);
	return wr_sweep_json_write(out, &r->m, r->rows, r->n_rows);
}

const struct wr_bench_driver wr_bench_driver_sweep = {
	.name = "sweep",
	.init = wr_bench_init_stream,
	.run = sweep_run,
	.print = sweep_print,
	.csv = sweep_csv,
	.json = sweep_json,
};

/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate sweep: one stream at the maximum rate for each frame size, Ostinato's table; repeats and echoes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "bench.h"

/* Long enough for a steady rate on any port, short enough for 7 sizes. */
#define WR_SWEEP_DURATION_DEFAULT_NS (2 * 1000 * 1000 * 1000ull)

struct sweep_out {
	const struct wr_bench_meta *m;
	const struct wr_sweep_row *rows;
	unsigned int n;
	const struct wr_sweep_stat *st;
	unsigned int n_st;
};

static int
write_csv(FILE *out, const void *arg)
{
	const struct sweep_out *s = arg;

	return wr_sweep_csv_write(out, s->rows, s->n);
}

static int
write_json(FILE *out, const void *arg)
{
	const struct sweep_out *s = arg;

	if (s->st != NULL)
		return wr_sweep_stat_json_write(out, s->m, s->st, s->n_st);
	return wr_sweep_json_write(out, s->m, s->rows, s->n);
}

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

int
wr_cmd_sweep(const struct wr_opts *o)
{
	static const uint16_t defaults[] = WR_BENCH_SIZES_DEFAULT;
	bool echo = o->rx_port_set;
	uint32_t reps = o->repeats ? o->repeats : 1;
	struct wr_sweep_row *rows = NULL;
	struct wr_sweep_echo *echoes = NULL;
	struct wr_sweep_stat st[WR_BENCH_SIZES_MAX];
	struct wr_bench b;
	struct wr_bench_meta m;
	struct sweep_out out;
	uint64_t duration = o->duration_ns ? o->duration_ns :
			    WR_SWEEP_DURATION_DEFAULT_NS;
	unsigned int i, r, n = 0, n_st = 0;
	uint16_t not_measured[WR_BENCH_SIZES_MAX], stopped_in = 0;
	unsigned int n_not = 0;
	bool gen_limited = false;
	uint64_t rx_missed;
	const struct wr_port *tp;
	uint32_t line;
	uint16_t port;
	int rc;

	/* Through a reflector, every frame carries the loss-only signature
	 * so that what came back is counted exactly. */
	/* The report's raw JSON: --json, else beside the report. */
	static char json_beside[1100];
	const char *json;

	if (wr_bench_json_path(o, json_beside, sizeof(json_beside), &json) !=
	    WR_EXIT_OK)
		return WR_EXIT_USAGE;
	rc = wr_bench_prepare(&b, o, echo, defaults, WR_BENCH_N_SIZES_DEFAULT);
	if (rc == WR_EXIT_OK)
		rc = wr_bench_open(&b);
	if (rc != WR_EXIT_OK) {
		wr_bench_close(&b);
		return rc;
	}
	port = b.f.streams[b.stream].port;
	b.rx_port = echo ? o->rx_port : port;
	tp = wr_engine_port(b.e, port);
	/* A virtual PMD's link speed is a constant, not a line. */
	line = wr_txlimit_line_mbps(tp->driver, tp->link_speed_mbps);
	rows = calloc((size_t)b.n_sizes * reps, sizeof(*rows));
	echoes = calloc((size_t)reps, sizeof(*echoes));
	if (rows == NULL || echoes == NULL) {
		free(rows);
		free(echoes);
		wr_bench_close(&b);
		return WR_EXIT_FAIL;
	}
	if (!o->quiet) {
		printf("wirerate %s sweep: %s, stream %s on port %u (%s)%s, "
		       "%.3f s a size%s, ", WR_VERSION, b.f.path,
		       b.f.streams[b.stream].name, port, tp->device,
		       echo ? ", echoes counted on --rx-port" : "",
		       (double)duration / 1e9, reps > 1 ? ", repeated" : "");
		if (line != 0)
			printf("line %u Mbps\n", line);
		else if (tp->link_speed_mbps != 0)
			printf("no line rate (%s reports %u Mbps, a placeholder "
			       "whatever the path carries)\n", tp->driver,
			       tp->link_speed_mbps);
		else
			printf("link speed unknown\n");
	}
	rc = 0;
	for (i = 0; i < b.n_sizes && rc == 0; i++) {
		unsigned int first = n;

		rx_missed = 0;
		for (r = 0; r < reps; r++) {
			struct wr_report_row row;
			struct wr_txlimit_tx tx;
			struct wr_stream s;

			wr_bench_stream_at(&b, b.sizes[i], &s);
			s.duration_ns = duration;
			if (echo) {
				s.latency = true;
				s.sig_short = true;
			}
			rc = wr_bench_trial(&b, &s, echo ? WR_DRAIN_DEFAULT_NS :
					    0, &row);
			if (rc != 0 && rc != -EINTR)
				break;
			if (rc == -EINTR && b.link_lost) {
				/* The path went away under this size: its
				 * figures (the frames it took with it) are no
				 * measurement, nor are the sizes after it. */
				stopped_in = b.sizes[i];
				n = first;
				break;
			}
			wr_bench_tx_of(&b, &s, &row, &tx);
			wr_sweep_row_calc(&rows[n], b.sizes[i],
					  row.total.tx_pkts, row.duration_ns,
					  line, &tx);
			rows[n].cut_short = rc == -EINTR;
			echoes[r].rx_pkts = b.rx_distinct;
			echoes[r].rx_nic_pkts = b.rx_nic_pkts;
			echoes[r].rx_bytes = b.rx_bytes;
			echoes[r].rx_nic_bytes = b.rx_nic_bytes;
			rx_missed += echo ? b.rx_nic_missed : 0;
			n++;
			/* One line per trial (the progress in a pipe). */
			if (!o->quiet)
				printf("  %u bytes, %u of %u: %.3f Kpps%s\n",
				       b.sizes[i], r + 1, reps, rows[n - 1].kpps,
				       rc == -EINTR ? " (cut short)" : "");
			if (!o->quiet && echo)
				printf("  %u bytes, %u of %u: returned %llu of "
				       "%llu, %llu bytes\n", b.sizes[i], r + 1,
				       reps, (unsigned long long)b.rx_distinct,
				       (unsigned long long)row.total.tx_pkts,
				       (unsigned long long)b.rx_bytes);
			if (rc == -EINTR)
				break;
		}
		if (n > first && (reps > 1 || echo) &&
		    wr_sweep_stat_calc(&st[n_st], &rows[first],
				       echo ? echoes : NULL, n - first,
				       payload_offset(&b, b.sizes[i])) == 0) {
			gen_limited |= wr_sweep_stat_gen_limited(&st[n_st]);
			/* Echoes the RX port dropped because wirerate did not
			 * take them: what came back measures the generator. */
			if (rx_missed > 0) {
				st[n_st].limited_by = "generator";
				gen_limited = true;
				if (!o->quiet)
					printf("  %u bytes: the RX port dropped "
					       "%llu echoes wirerate did not take "
					       "in time (imissed, rx_nombuf): "
					       "the generator's limit, not the "
					       "reflector's loss\n", b.sizes[i],
					       (unsigned long long)rx_missed);
			}
			n_st++;
		}
	}
	/* The sizes a stop left out: the one it cut (with link-down) and
	 * those after it. */
	for (i = 0; i < b.n_sizes; i++) {
		bool done = false;

		for (r = 0; r < n && !done; r++)
			done = rows[r].size == b.sizes[i];
		if (!done)
			not_measured[n_not++] = b.sizes[i];
	}
	if (rc != 0 && rc != -EINTR) {
		free(rows);
		free(echoes);
		wr_bench_close(&b);
		return WR_EXIT_FAIL;
	}
	putchar('\n');
	wr_sweep_print(stdout, rows, n);
	if (n_st > 0) {
		putchar('\n');
		wr_sweep_stat_print(stdout, st, n_st);
	}
	wr_bench_meta(&b, &m, port, wr_bench_stop_reason(&b, rc));
	m.duration_ns = duration;
	m.stopped_in = stopped_in ? stopped_in : rc == -EINTR && n > 0 ?
		       rows[n - 1].size : 0;
	m.not_measured = not_measured;
	m.n_not_measured = n_not;
	wr_bench_stop_print(stdout, &m);
	out.m = &m;
	out.rows = rows;
	out.n = n;
	out.st = n_st > 0 ? st : NULL;
	out.n_st = n_st;
	rc = wr_bench_outputs(o, json, write_csv, write_json, &out);
	free(rows);
	free(echoes);
	if (rc == WR_EXIT_OK && b.link_lost) {
		/* A sweep that lost its path did not run: a run-time failure,
		 * whatever the sizes measured before said. */
		fprintf(stderr, "wirerate: sweep: a port's link went down "
			"during the %u-byte trial: %u of %u sizes measured\n",
			stopped_in, b.n_sizes - n_not, b.n_sizes);
		rc = WR_EXIT_FAIL;
	}
	wr_bench_close(&b);
	if (rc != WR_EXIT_OK)
		return rc;
	/* Echoes that all came back at less than the line rate measured the
	 * generator, not the reflector: no figure for the reflector. */
	return gen_limited ? WR_EXIT_GEN_LIMIT : WR_EXIT_OK;
}

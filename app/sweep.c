/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate sweep: one stream at the maximum rate for each frame size, Ostinato's table. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* Long enough for a steady rate on any port, short enough for 7 sizes. */
#define WR_SWEEP_DURATION_DEFAULT_NS (2 * 1000 * 1000 * 1000ull)

struct sweep_out {
	const struct wr_bench_meta *m;
	const struct wr_sweep_row *rows;
	unsigned int n;
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

	return wr_sweep_json_write(out, s->m, s->rows, s->n);
}

int
wr_cmd_sweep(const struct wr_opts *o)
{
	static const uint16_t defaults[] = WR_BENCH_SIZES_DEFAULT;
	struct wr_sweep_row rows[WR_BENCH_SIZES_MAX];
	struct wr_bench b;
	struct wr_bench_meta m;
	struct sweep_out out;
	uint64_t duration = o->duration_ns ? o->duration_ns :
			    WR_SWEEP_DURATION_DEFAULT_NS;
	unsigned int i, n = 0;
	uint16_t port;
	int rc, rc2;

	rc = wr_bench_prepare(&b, o, false, defaults, WR_BENCH_N_SIZES_DEFAULT);
	if (rc == WR_EXIT_OK)
		rc = wr_bench_open(&b);
	if (rc != WR_EXIT_OK) {
		wr_bench_close(&b);
		return rc;
	}
	port = b.f.streams[b.stream].port;
	if (port >= b.e->n_ports) {
		fprintf(stderr, "wirerate: stream %s is on port %u; there %s "
			"%u port%s\n", b.f.streams[b.stream].name, port,
			b.e->n_ports == 1 ? "is" : "are", b.e->n_ports,
			b.e->n_ports == 1 ? "" : "s");
		wr_bench_close(&b);
		return WR_EXIT_USAGE;
	}
	if (!o->quiet)
		printf("wirerate %s sweep: %s, stream %s on port %u (%s), %.3f s a "
	       "size, link %s\n", WR_VERSION, b.f.path,
	       b.f.streams[b.stream].name, port, b.e->ports[port].device,
	       (double)duration / 1e9,
	       b.e->ports[port].link_speed_mbps ? "known" : "speed unknown");
	for (i = 0; i < b.n_sizes; i++) {
		struct wr_report_row row;
		struct wr_stream st;

		wr_bench_stream_at(&b, b.sizes[i], &st);
		st.duration_ns = duration;
		rc = wr_bench_trial(&b, &st, 0, &row);
		if (rc != 0 && rc != -EINTR)
			break;
		wr_sweep_row_calc(&rows[n], b.sizes[i], row.total.tx_pkts,
				  row.duration_ns,
				  b.e->ports[port].link_speed_mbps);
		rows[n].pacer_skipped = row.pacer_skipped;
		rows[n].tx_full = row.total.tx_full;
		rows[n].cut_short = rc == -EINTR;
		n++;
		if (!o->quiet)
			printf("  %u bytes: %.3f Kpps%s\n", b.sizes[i],
			       rows[n - 1].kpps, rc == -EINTR ?
			       " (cut short)" : "");
		if (rc == -EINTR)
			break;
	}
	if (rc != 0 && rc != -EINTR) {
		wr_bench_close(&b);
		return WR_EXIT_FAIL;
	}
	putchar('\n');
	wr_sweep_print(stdout, rows, n);
	wr_bench_meta(&b, &m, port, wr_bench_stop_reason(&b, rc));
	m.duration_ns = duration;
	out.m = &m;
	out.rows = rows;
	out.n = n;
	rc = wr_bench_write(o->csv_file, write_csv, &out);
	rc2 = wr_bench_write(o->json_file, write_json, &out);
	wr_bench_close(&b);
	return rc != WR_EXIT_OK ? rc : rc2;
}

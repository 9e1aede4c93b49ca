/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate rfc2544: RFC 2544 throughput per frame size, trials on one open engine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "bench.h"
#include "wr_rate.h"

/* RFC 2544 section 24: trials SHOULD last at least 60 s. */
#define WR_TRIAL_DEFAULT_NS (60 * 1000 * 1000 * 1000ull)
/* A trial whose rate was not offered (wr_bench_trial_valid()) is run again
 * this many times before its counts are taken as they are. */
#define WR_TRIAL_REDO_MAX 3
/* RFC 2544 section 23: wait two seconds for residual frames. */
#define WR_TRIAL_DRAIN_DEFAULT_NS (2 * 1000 * 1000 * 1000ull)

struct rfc_out {
	const struct wr_bench_meta *m;
	const struct wr_rfc2544_row *rows;
	unsigned int n;
};

static int
write_csv(FILE *out, const void *arg)
{
	const struct rfc_out *r = arg;

	return wr_rfc2544_csv_write(out, r->rows, r->n);
}

static int
write_json(FILE *out, const void *arg)
{
	const struct rfc_out *r = arg;

	return wr_rfc2544_json_write(out, r->m, r->rows, r->n);
}

/* A --max-rate / --min-rate for one frame size, 0 when not given. */
static int
rate_at(const struct wr_rate_spec *spec, uint16_t size, uint32_t link,
	const char *opt, uint64_t *millipps)
{
	struct wr_size_avg avg = { .bytes = size, .frames = 1 };

	*millipps = 0;
	if (spec->unit == WR_RATE_MAX)
		return 0;
	if (wr_rate_millipps(spec, &avg, link, millipps) == 0)
		return 0;
	fprintf(stderr, "wirerate: %s: %s\n", opt, spec->unit ==
		WR_RATE_PERCENT && link == 0 ? "a percentage needs the link "
		"speed, which the TX port does not report: give pps or bps" :
		"the rate is out of range");
	return -EINVAL;
}

/* The search for one frame size.  @return 0, -EINTR, or an exit code's error. */
static int
search(struct wr_bench *b, uint16_t size, uint64_t trial_ns, uint64_t drain_ns,
       struct wr_rfc2544_row *row)
{
	const struct wr_opts *o = b->o;
	uint32_t link = b->e->ports[o->tx_port].link_speed_mbps;
	struct wr_rfc2544_cfg cfg;
	struct wr_rfc2544 *s;
	uint64_t rate;
	unsigned int redo = 0;
	int rc;

	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	memset(&cfg, 0, sizeof(cfg));
	memset(row, 0, sizeof(*row));
	row->size = size;
	row->link_mbps = link;
	cfg.frame_size = size;
	cfg.link_mbps = link;
	cfg.loss_ppm = o->loss_ppm;
	cfg.resolution_ppm = o->resolution_ppm;
	cfg.resolution_millipps = o->resolution_millipps;
	rc = rate_at(&o->max_rate, size, link, "--max-rate", &cfg.max_millipps);
	if (rc == 0)
		rc = rate_at(&o->min_rate, size, link, "--min-rate",
			     &cfg.min_millipps);
	if (rc == 0) {
		rc = wr_rfc2544_start(s, &cfg, &rate);
		if (rc != 0)
			fprintf(stderr, "wirerate: rfc2544 at %u bytes: %s\n",
				size, rc == -ERANGE ? "--max-rate is above the "
				"line rate of the TX port" : link == 0 &&
				cfg.max_millipps == 0 ? "the TX port does not "
				"report its link speed: give --max-rate" :
				"--min-rate is above --max-rate");
	}
	while (rc == 0) {
		struct wr_bench_trial *t = &row->trials[row->n_trials];
		struct wr_report_row r;
		struct wr_stream st;

		wr_bench_stream_at(b, size, &st);
		st.port = o->tx_port;
		/* The loss-only signature: loss is exact per frame, and it
		 * fits RFC 2544's 64-byte frames (wr_sig.h). */
		st.latency = true;
		st.sig_short = true;
		st.rate.unit = WR_RATE_PPS;
		st.rate.value = rate;
		st.duration_ns = trial_ns;
		rc = wr_bench_trial(b, &st, drain_ns, &r);
		if (rc != 0)
			break;
		if (r.total.tx_pkts == 0) {
			fprintf(stderr, "wirerate: rfc2544: the trial at %.3f "
				"pps sent nothing\n", (double)rate / 1e3);
			rc = -EIO;
			break;
		}
		t->rate_millipps = rate;
		t->sent = r.total.tx_pkts;
		t->received = b->rx_distinct;
		t->duration_ns = r.duration_ns;
		t->pacer_skipped = r.pacer_skipped;
		t->rx_frames = b->rx_port_pkts;
		t->rx_nic_pkts = b->rx_nic_pkts;
		t->rx_nic_missed = b->rx_nic_missed;
		t->valid = wr_bench_trial_valid(t->sent, t->pacer_skipped);
		row->n_trials++;
		if (!t->valid && redo < WR_TRIAL_REDO_MAX &&
		    row->n_trials < RTE_DIM(row->trials)) {
			redo++;
			if (!o->quiet)
				printf("  %u bytes: trial at %.3f pps offered "
				       "only %.3f pps (%llu frames late: the TX "
				       "lcore's CPU was busy): again\n", size,
				       (double)rate / 1e3, t->duration_ns ?
				       (double)t->sent * 1e9 / t->duration_ns :
				       0.0,
				       (unsigned long long)t->pacer_skipped);
			continue;
		}
		redo = 0;
		t->counted = true;
		rc = wr_rfc2544_report(s, t->sent, t->received, &rate);
		t->pass = s->trials[s->n_trials - 1].pass;
		if (!o->quiet)
			printf("  %u bytes: trial %u at %.3f pps: sent %llu, "
			       "received %llu, lost %lld: %s%s\n", size,
			       row->n_trials, (double)t->rate_millipps / 1e3,
			       (unsigned long long)t->sent,
			       (unsigned long long)t->received,
			       (long long)(t->sent - t->received),
			       t->pass ? "pass" : "fail", t->valid ? "" :
			       " (the rate was not offered; kept after "
			       "retries)");
		if (rc == 1) {
			rc = 0;
			break;
		}
		if (rc == -EBADMSG)
			rc = rate != 0 ? 0 : -EIO;
		if (row->n_trials == RTE_DIM(row->trials))
			break;
	}
	wr_rfc2544_result(s, &row->res);
	row->res.trials = NULL;
	free(s);
	return rc;
}

int
wr_cmd_rfc2544(const struct wr_opts *o)
{
	/* RFC 2544's Ethernet sizes (section 9.1). */
	static const uint16_t defaults[] = { 64, 128, 256, 512, 1024, 1280,
					     1518 };
	static struct wr_rfc2544_row rows[WR_BENCH_SIZES_MAX];
	uint64_t trial = o->trial_ns ? o->trial_ns : WR_TRIAL_DEFAULT_NS;
	uint64_t drain = o->drain_set ? o->drain_ns : WR_TRIAL_DRAIN_DEFAULT_NS;
	struct wr_bench b;
	struct wr_bench_meta m;
	struct rfc_out out;
	unsigned int i, n = 0;
	int rc, rc2;

	if (!o->tx_port_set || !o->rx_port_set) {
		fprintf(stderr, "wirerate: rfc2544 needs --tx-port N and "
			"--rx-port N (the same port for a loopback)\n");
		return WR_EXIT_USAGE;
	}
	rc = wr_bench_prepare(&b, o, true, defaults, RTE_DIM(defaults));
	if (rc == WR_EXIT_OK)
		rc = wr_bench_open(&b);
	if (rc == WR_EXIT_OK && (o->tx_port >= b.e->n_ports ||
				 o->rx_port >= b.e->n_ports)) {
		fprintf(stderr, "wirerate: --tx-port/--rx-port: there %s %u "
			"port%s (0..%u)\n", b.e->n_ports == 1 ? "is" : "are",
			b.e->n_ports, b.e->n_ports == 1 ? "" : "s",
			b.e->n_ports - 1);
		rc = WR_EXIT_USAGE;
	}
	if (rc != WR_EXIT_OK) {
		wr_bench_close(&b);
		return rc;
	}
	b.rx_port = o->rx_port;
	printf("wirerate %s rfc2544: %s, stream %s, port %u (%s) -> port %u "
	       "(%s), trials of %.3f s, drain %.3f s, loss tolerance %.4f %%\n",
	       WR_VERSION, b.f.path, b.f.streams[b.stream].name, o->tx_port,
	       b.e->ports[o->tx_port].device, o->rx_port,
	       b.e->ports[o->rx_port].device, (double)trial / 1e9,
	       (double)drain / 1e9, o->loss_ppm / 1e4);
	rc = 0;
	for (i = 0; i < b.n_sizes && rc == 0; i++) {
		rc = search(&b, b.sizes[i], trial, drain, &rows[n]);
		if (rc == 0 || (rc == -EINTR && rows[n].n_trials > 0))
			n++;
	}
	if (rc != 0 && rc != -EINTR) {
		wr_bench_close(&b);
		return rc == -EINVAL ? WR_EXIT_USAGE : WR_EXIT_FAIL;
	}
	wr_rfc2544_print(stdout, rows, n);
	wr_bench_meta(&b, &m, o->tx_port, wr_bench_stop_reason(&b, rc));
	m.rx_device = b.e->ports[o->rx_port].device;
	m.duration_ns = trial;
	m.drain_ns = drain;
	m.loss_ppm = o->loss_ppm;
	out.m = &m;
	out.rows = rows;
	out.n = n;
	rc = wr_bench_write(o->csv_file, write_csv, &out);
	rc2 = wr_bench_write(o->json_file, write_json, &out);
	wr_bench_close(&b);
	return rc != WR_EXIT_OK ? rc : rc2;
}

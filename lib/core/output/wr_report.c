/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_report: rendering live lines, the summary and the JSON results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_out.h"
#include "wr_repeat.h"
#include "wr_report.h"

void
wr_report_hex(const uint8_t digest[32], char hex[65])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < 32; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 0xf];
	}
	hex[64] = '\0';
}

bool
wr_report_gen_limited(const struct wr_report_view *v)
{
	unsigned int i;

	for (i = 0; i < v->n_ports; i++)
		if (wr_report_rx_missed(&v->ports[i]) > 0)
			return true;
	return false;
}

/* Rates of received bytes (pkt_len: FCS excluded) as wirerate counts
 * them: L2 with the 4-byte FCS, L1 with 20 more per frame. */
static struct wr_rates
rx_rates(uint64_t pkts, uint64_t bytes, uint64_t ns)
{
	return wr_rates_calc(pkts, bytes + (uint64_t)WR_FCS_LEN * pkts, ns);
}

/* A queue's busy share of its lcore's time, 0..1. */
static double
rxq_busy(const struct wr_report_rxq *q)
{
	return q->active_ns ? (double)q->busy_ns / (double)q->active_ns : 0;
}

void
wr_report_header(FILE *out, const struct wr_report_meta *meta,
		 const struct wr_report_view *v)
{
	unsigned int i;

	fprintf(out, "wirerate %s (%s): %s, %u stream%s on %u port%s\n",
		meta->wirerate_version,
		meta->dpdk_version[0] ? meta->dpdk_version : "no EAL",
		meta->stream_file, v->n_streams, v->n_streams == 1 ? "" : "s",
		v->n_ports, v->n_ports == 1 ? "" : "s");
	for (i = 0; i < v->n_ports; i++) {
		const struct wr_report_row *p = &v->ports[i];

		if (p->link_speed_mbps)
			fprintf(out, "port %u: %s (%s, port id %u), link %u Mbps\n",
				i, p->device, p->driver, p->port_id,
				p->link_speed_mbps);
		else
			fprintf(out, "port %u: %s (%s, port id %u), link speed unknown\n",
				i, p->device, p->driver, p->port_id);
	}
	if (meta->has_tsc && meta->tsc.source == WR_TSC_SOURCE_MONOTONIC_RAW)
		fprintf(out, "clock: TSC %.6f MHz against %s (+-%.2f ppm); "
			"DPDK says %.3f MHz\n", (double)meta->tsc.hz / 1e6,
			wr_tsc_source_name(meta->tsc.source),
			(double)meta->tsc.err_ppb / 1000.0,
			(double)meta->tsc.eal_hz / 1e6);
	else if (meta->has_tsc)
		fprintf(out, "clock: TSC %.3f MHz as DPDK says (not measured: "
			"+-%.0f ppm)\n", (double)meta->tsc.hz / 1e6,
			(double)meta->tsc.err_ppb / 1000.0);
	fprintf(out,
		"Mbps L2 counts frame bytes incl. the 4-byte FCS; "
		"Mbps L1 = (frame size incl. FCS + 20 B preamble/SFD/IFG) x 8 bits per frame\n");
}

static void
row_line(FILE *out, const char *prefix, const char *kind, const char *name,
	 const struct wr_counters *now, const struct wr_counters *last,
	 uint64_t interval_ns)
{
	struct wr_rates r = wr_rates_calc(now->tx_pkts - last->tx_pkts,
					  now->tx_bytes - last->tx_bytes,
					  interval_ns);

	fprintf(out, "%s%-6s %-20.20s %12.1f %12.1f %12.1f %16llu %18llu\n",
		prefix, kind, name, r.kpps, r.mbps_l2, r.mbps_l1,
		(unsigned long long)now->tx_pkts,
		(unsigned long long)now->tx_bytes);
}

/* A polled port's interval: what it received, per class, and what the
 * port dropped because wirerate did not take it in time.  @return lines. */
static unsigned int
port_rx_lines(FILE *out, const char *prefix, const struct wr_report_view *v,
	      struct wr_report_row *p)
{
	double secs = (double)v->interval_ns / 1e9;
	uint64_t missed = wr_report_rx_missed(p);
	unsigned int c, lines = 1;

	if (!p->has_rx)
		return 0;
	fprintf(out, "%s  rx %10.1f Kpps %14llu frames, %llu foreign",
		prefix, secs > 0 ? (double)(p->rx_pkts - p->rx_last) / secs /
		1e3 : 0, (unsigned long long)p->rx_pkts,
		(unsigned long long)p->rx_foreign);
	if (missed > 0)
		fprintf(out, ", wirerate missed %llu (+%llu): the generator's "
			"limit", (unsigned long long)missed,
			(unsigned long long)(missed - p->nic_last_missed));
	fputc('\n', out);
	p->rx_last = p->rx_pkts;
	p->nic_last_missed = missed;
	for (c = 0; c < v->n_classes; c++) {
		struct wr_report_class *k = &p->cls[c];
		struct wr_rates r = rx_rates(k->pkts - k->last_pkts,
					     k->bytes - k->last_bytes,
					     v->interval_ns);

		fprintf(out, "%s  class %-14.14s %12.1f %12.1f %12.1f %16llu "
			"%18llu\n", prefix, v->class_names[c], r.kpps,
			r.mbps_l2, r.mbps_l1, (unsigned long long)k->pkts,
			(unsigned long long)k->bytes);
		k->last_pkts = k->pkts;
		k->last_bytes = k->bytes;
		lines++;
	}
	return lines;
}

unsigned int
wr_report_interval(FILE *out, struct wr_report_view *v, bool tty,
		   unsigned int lines_before)
{
	char prefix[32] = "";
	unsigned int i, lines = 0;

	if (tty && lines_before > 0)
		/* Up to the first line of the previous report, clear below. */
		fprintf(out, "\033[%uA\033[J", lines_before);
	if (!tty)
		snprintf(prefix, sizeof(prefix), "%8.1fs ",
			 (double)v->elapsed_ns / 1e9);
	/* In a pipe the column header is printed once, on the first report. */
	if (tty || lines_before == 0) {
		fprintf(out, "%s%-6s %-20s %12s %12s %12s %16s %18s\n",
			tty ? "" : "elapsed  ", "", "name", "Kpps", "Mbps L2",
			"Mbps L1", "tx_pkts", "tx_bytes");
		lines++;
	}
	for (i = 0; i < v->n_ports; i++) {
		char name[WR_REPORT_NAME_MAX + 16];

		snprintf(name, sizeof(name), "%u:%s", i, v->ports[i].device);
		row_line(out, prefix, "port", name, &v->ports[i].total,
			 &v->ports[i].last, v->interval_ns);
		v->ports[i].last = v->ports[i].total;
		lines++;
		lines += port_rx_lines(out, prefix, v, &v->ports[i]);
	}
	for (i = 0; i < v->n_streams; i++) {
		struct wr_report_row *r = &v->streams[i];

		row_line(out, prefix, "stream", r->name, &r->total, &r->last,
			 v->interval_ns);
		r->last = r->total;
		lines++;
		if (!r->has_rx)
			continue;
		fprintf(out, "%s  rx %10.1f Kpps %14llu back, %llu lost/in flight, "
			"%llu reordered, %llu duplicated, latency avg %.2f us "
			"max %.2f us\n", prefix,
			v->interval_ns ? (double)(r->rx_pkts - r->rx_last) /
						 ((double)v->interval_ns / 1e9) / 1e3 : 0,
			(unsigned long long)r->rx_pkts,
			(unsigned long long)r->lost,
			(unsigned long long)r->reordered,
			(unsigned long long)r->duplicated,
			(double)r->lat.avg / 1e3, (double)r->lat.max / 1e3);
		r->rx_last = r->rx_pkts;
		lines++;
	}
	fflush(out);
	return lines;
}

/* A rate needs two frames and a time the summary can show (1 ms). */
bool
wr_report_rate_measured(const struct wr_report_row *r)
{
	return r->total.tx_pkts >= 2 && r->duration_ns >= 1000000;
}

static void
final_line(FILE *out, const char *kind, const char *name,
	   const struct wr_report_row *r)
{
	struct wr_rates rt = wr_rates_calc(r->total.tx_pkts, r->total.tx_bytes,
					   r->duration_ns);

	if (!wr_report_rate_measured(r)) {
		/* One frame, or a time too short to print: no rate. */
		fprintf(out, "%-6s %-20.20s %16llu %18llu %10.6f %12s %12s "
			"%12s\n", kind, name,
			(unsigned long long)r->total.tx_pkts,
			(unsigned long long)r->total.tx_bytes,
			(double)r->duration_ns / 1e9, "-", "-", "-");
		return;
	}
	fprintf(out, "%-6s %-20.20s %16llu %18llu %10.3f %12.1f %12.1f %12.1f\n",
		kind, name, (unsigned long long)r->total.tx_pkts,
		(unsigned long long)r->total.tx_bytes,
		(double)r->duration_ns / 1e9, rt.kpps, rt.mbps_l2, rt.mbps_l1);
}

/* Where a timed replay's lateness came from: frames whose lcore polled
 * the lane all the time from their deadline to their departure (the
 * pacer's own figure) and those that waited through a gap of more than
 * WR_REPLAY_AWAY_NS between polls (the host, an interrupt, other work). */
static void
print_replay_away(FILE *out, const struct wr_report_row *r)
{
	const struct wr_latency_summary *p = &r->replay_late_polled;

	fprintf(out, "stream %s: %llu frames the lcore kept polling for "
		"from deadline to departure: late p50 %.3f, p99 %.3f, max "
		"%.3f us; %llu frames waited through a time the lcore was away "
		"(%llu gaps over 1 us between polls, %.3f %% of its time, "
		"longest %.3f us: the host, interrupts or other work), late by "
		"up to that gap whatever the pacer does\n", r->name,
		(unsigned long long)p->n, p->p50 / 1e3, p->p99 / 1e3,
		p->max / 1e3, (unsigned long long)r->replay_late_away,
		(unsigned long long)r->replay_away_n,
		r->replay_polled_ns ? 100.0 * (double)r->replay_away_ns /
		(double)r->replay_polled_ns : 0.0,
		r->replay_away_max_ns / 1e3);
}

/* The summary's receive side: per polled port its queues' load, its
 * classes over the run, and what wirerate missed (the generator's limit,
 * never counted as the device's loss). */
/* Frames of port row @p p counted in some class. */
static uint64_t
wr_report_class_total(const struct wr_report_view *v,
		      const struct wr_report_row *p)
{
	uint64_t n = 0;
	unsigned int c;

	for (c = 0; c < v->n_classes; c++)
		n += p->cls[c].pkts;
	return n;
}

static void
final_rx(FILE *out, const struct wr_report_view *v)
{
	unsigned int i, q, c;

	for (i = 0; i < v->n_ports; i++) {
		const struct wr_report_row *p = &v->ports[i];
		uint64_t missed = wr_report_rx_missed(p);

		if (!p->has_rx)
			continue;
		fprintf(out, "port %u: received %llu frames (%llu without our "
			"signature, %llu in no class)", i,
			(unsigned long long)p->rx_pkts,
			(unsigned long long)(p->rx_foreign + wr_report_class_total(
				v, p)), (unsigned long long)p->rx_foreign);
		for (q = 0; q < p->n_rxq; q++) {
			const struct wr_report_rxq *r = &p->rxq[q];

			fprintf(out, "%s queue %u (lcore %u): %llu, busy %.1f %%, "
				"%.3f frames per poll", q ? ";" : ":", r->queue,
				r->lcore, (unsigned long long)r->rx_pkts,
				100.0 * rxq_busy(r), r->polls ?
				(double)r->rx_pkts / (double)r->polls : 0);
		}
		fputc('\n', out);
		for (c = 0; c < v->n_classes; c++) {
			struct wr_rates r = rx_rates(p->cls[c].pkts,
						     p->cls[c].bytes,
						     v->elapsed_ns);

			fprintf(out, "port %u: class %s: %llu frames, %llu bytes, "
				"%.3f Kpps, %.3f Mbps L2, %.3f Mbps L1\n", i,
				v->class_names[c],
				(unsigned long long)p->cls[c].pkts,
				(unsigned long long)p->cls[c].bytes, r.kpps,
				r.mbps_l2, r.mbps_l1);
		}
		if (missed > 0)
			fprintf(out, "port %u: GENERATOR-LIMITED: wirerate missed "
				"%llu received frames (imissed %llu: its RX ring "
				"was full; rx_nombuf %llu: its RX pool was empty); "
				"the device did not lose them, and echo loss on "
				"this port counts them too\n", i,
				(unsigned long long)missed,
				(unsigned long long)p->nic_imissed,
				(unsigned long long)p->nic_rx_nombuf);
	}
}

void
wr_report_final(FILE *out, const struct wr_report_meta *meta,
		const struct wr_report_view *v)
{
	unsigned int i;

	fprintf(out, "\nsummary (stopped by %s)\n", meta->stop_reason);
	fprintf(out, "%-6s %-20s %16s %18s %10s %12s %12s %12s\n", "", "name",
		"tx_pkts", "tx_bytes", "seconds", "Kpps", "Mbps L2", "Mbps L1");
	for (i = 0; i < v->n_ports; i++) {
		char name[WR_REPORT_NAME_MAX + 16];

		snprintf(name, sizeof(name), "%u:%s", i, v->ports[i].device);
		final_line(out, "port", name, &v->ports[i]);
	}
	for (i = 0; i < v->n_streams; i++)
		final_line(out, "stream", v->streams[i].name, &v->streams[i]);
	for (i = 0; i < v->n_streams; i++) {
		const struct wr_report_row *r = &v->streams[i];
		struct wr_rates rt;

		if (r->target_kpps <= 0 || !wr_report_rate_measured(r))
			continue;
		rt = wr_rates_calc(r->total.tx_pkts, r->total.tx_bytes,
				   r->duration_ns);
		fprintf(out, "stream %s: target %.3f Kpps, achieved %.3f Kpps "
			"(%+.3f %%)", r->name, r->target_kpps, rt.kpps,
			(rt.kpps / r->target_kpps - 1) * 100);
		if (r->pacer_skipped > 0)
			fprintf(out, "; %llu frames skipped after stalls of "
				"the TX lcore (another thread on its CPU?)",
				(unsigned long long)r->pacer_skipped);
		fputc('\n', out);
	}
	for (i = 0; i < v->n_streams; i++) {
		const struct wr_report_row *r = &v->streams[i];
		const struct wr_latency_summary *g = &r->train_gaps;

		if (r->train_frames == 0)
			continue;
		fprintf(out, "stream %s: trains of %u frames, %llu intervals "
			"first frame to first frame: nominal %.3f us, min "
			"%.3f, avg %.3f, p99 %.3f, max %.3f us\n", r->name,
			r->train_frames, (unsigned long long)g->n,
			r->train_nominal_ns / 1e3, g->min / 1e3, g->avg / 1e3,
			g->p99 / 1e3, g->max / 1e3);
	}
	for (i = 0; i < v->n_streams; i++) {
		const struct wr_report_row *r = &v->streams[i];
		const struct wr_latency_summary *g = &r->replay_gap_err;
		const struct wr_latency_summary *l = &r->replay_late;

		if (!r->has_replay)
			continue;
		fprintf(out, "stream %s: replayed %s (%llu frames a pass, "
			"sha256 %.16s...), loops %llu%s", r->name,
			r->replay_file[0] ? r->replay_file : "frame:",
			(unsigned long long)r->replay_frames, r->replay_sha256,
			(unsigned long long)r->replay_loops,
			r->replay_loops == 0 ? " (for ever)" : "");
		if (r->replay_timed)
			fprintf(out, "; timing capture x%g: gap error vs the "
				"capture over %llu gaps p50 %.3f, p99 %.3f, "
				"max %.3f us; departure after deadline p50 "
				"%.3f, p99 %.3f, max %.3f us; %llu stalls "
				"(%.3f ms) moved the schedule",
				r->replay_speedup, (unsigned long long)g->n,
				g->p50 / 1e3, g->p99 / 1e3, g->max / 1e3,
				l->p50 / 1e3, l->p99 / 1e3, l->max / 1e3,
				(unsigned long long)r->replay_stalls,
				r->replay_stall_ns / 1e6);
		fputc('\n', out);
		if (r->replay_timed)
			print_replay_away(out, r);
	}
	for (i = 0; i < v->n_streams; i++) {
		const struct wr_report_row *r = &v->streams[i];

		if (!r->has_rx)
			continue;
		if (i == 0 || !v->streams[i - 1].has_rx)
			fprintf(out, "\n%-20s %14s %12s %10s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n",
				"echoes (us)", "rx_pkts", "lost", "reordered",
				"duplicated", "min", "avg", "p50", "p90", "p99",
				"p99.9", "max", "jitter");
		fprintf(out, "%-20.20s %14llu %12llu %10llu %10llu %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.3f\n",
			r->name, (unsigned long long)r->rx_pkts,
			(unsigned long long)r->lost,
			(unsigned long long)r->reordered,
			(unsigned long long)r->duplicated, r->lat.min / 1e3,
			r->lat.avg / 1e3, r->lat.p50 / 1e3, r->lat.p90 / 1e3,
			r->lat.p99 / 1e3, r->lat.p999 / 1e3, r->lat.max / 1e3,
			r->lat.jitter_ns / 1e3);
	}
	final_rx(out, v);
	for (i = 0; i < v->n_ports; i++) {
		const struct wr_report_row *p = &v->ports[i];
		long long diff;

		if (p->link_lost) {
			fprintf(out, "port %u: link lost %.3f s into the run, "
				"after %llu frames sent; ", i,
				(double)p->link_lost_ns / 1e9,
				(unsigned long long)p->link_lost_tx_pkts);
			if (p->has_nic)
				fprintf(out, "NIC counted %llu frames out by then "
					"(%lld not confirmed, lost with the link)\n",
					(unsigned long long)p->nic_opackets,
					(long long)p->link_lost_tx_pkts -
					(long long)p->nic_opackets);
			else
				fputs("no NIC counters read before it went\n",
				      out);
			continue;
		}
		if (!p->has_nic)
			continue;
		diff = (long long)p->nic_opackets - (long long)p->total.tx_pkts;
		fprintf(out,
			"port %u: NIC counted %llu frames out, %llu errors%s",
			i, (unsigned long long)p->nic_opackets,
			(unsigned long long)p->nic_oerrors,
			diff == 0 ? " (matches)\n" : "");
		if (diff != 0)
			fprintf(out, " (%+lld against wirerate's count)\n",
				diff);
	}
	fflush(out);
}

/* , "key": {["n": n, ]"p50": .., "p99": .., "max": ..} of a summary (ns). */
static void
json_p50_p99_max(FILE *out, const char *key, const char *n_key,
		 const struct wr_latency_summary *l)
{
	fprintf(out, ", \"%s\": {", key);
	if (n_key != NULL)
		fprintf(out, "\"%s\": %llu, ", n_key, (unsigned long long)l->n);
	fprintf(out, "\"p50\": %llu, \"p99\": %llu, \"max\": %llu}",
		(unsigned long long)l->p50, (unsigned long long)l->p99,
		(unsigned long long)l->max);
}

/* A polled port's receive side in the JSON: queues and their load,
 * classes, what wirerate missed. */
static void
json_port_rx(FILE *out, const struct wr_report_view *v,
	     const struct wr_report_row *r)
{
	unsigned int q, c;

	fprintf(out, ", \"rx_bytes\": %llu, \"rx_missed\": %llu"
		", \"generator_limited\": %s, \"rx_queues\": [",
		(unsigned long long)r->rx_bytes,
		(unsigned long long)wr_report_rx_missed(r),
		wr_report_rx_missed(r) ? "true" : "false");
	for (q = 0; q < r->n_rxq; q++) {
		const struct wr_report_rxq *x = &r->rxq[q];

		fprintf(out, "%s{\"queue\": %u, \"lcore\": %u, \"rx_pkts\": %llu"
			", \"polls\": %llu, \"busy_polls\": %llu"
			", \"frames_per_poll\": %.3f"
			", \"frames_per_busy_poll\": %.3f, \"busy_ns\": %llu"
			", \"active_ns\": %llu, \"busy\": %.4f}", q ? ", " : "",
			x->queue, x->lcore, (unsigned long long)x->rx_pkts,
			(unsigned long long)x->polls,
			(unsigned long long)x->busy_polls,
			x->polls ? (double)x->rx_pkts / (double)x->polls : 0,
			x->busy_polls ? (double)x->rx_pkts /
			(double)x->busy_polls : 0,
			(unsigned long long)x->busy_ns,
			(unsigned long long)x->active_ns, rxq_busy(x));
	}
	fputs("], \"rx_classes\": [", out);
	for (c = 0; c < v->n_classes; c++) {
		struct wr_rates rt = rx_rates(r->cls[c].pkts, r->cls[c].bytes,
					      v->elapsed_ns);

		fprintf(out, "%s{\"name\": ", c ? ", " : "");
		wr_out_json_str(out, v->class_names[c]);
		fprintf(out, ", \"pkts\": %llu, \"bytes\": %llu, \"kpps\": %.3f"
			", \"mbps_l2\": %.3f, \"mbps_l1\": %.3f}",
			(unsigned long long)r->cls[c].pkts,
			(unsigned long long)r->cls[c].bytes, rt.kpps,
			rt.mbps_l2, rt.mbps_l1);
	}
	fputc(']', out);
}

static void
json_row(FILE *out, const struct wr_report_view *v,
	 const struct wr_report_row *r, bool stream)
{
	struct wr_rates rt = wr_rates_calc(r->total.tx_pkts, r->total.tx_bytes,
					   r->duration_ns);

	fputs("{\"name\": ", out);
	wr_out_json_str(out, r->name);
	if (stream) {
		fprintf(out, ", \"port\": %u, \"seed\": %llu, "
			"\"size_min\": %u, \"size_max\": %u, "
			"\"target_kpps\": %.6f, \"pacer_skipped\": %llu",
			r->port, (unsigned long long)r->seed, r->size_min,
			r->size_max, r->target_kpps,
			(unsigned long long)r->pacer_skipped);
	} else {
		fputs(", \"device\": ", out);
		wr_out_json_str(out, r->device);
		fputs(", \"driver\": ", out);
		wr_out_json_str(out, r->driver);
		fprintf(out, ", \"port_id\": %u, \"link_speed_mbps\": %u",
			r->port_id, r->link_speed_mbps);
		/* nic below is then the reading from before the link went. */
		if (r->link_lost)
			fprintf(out, ", \"link_lost\": {\"at_s\": %.9f"
				", \"tx_pkts\": %llu, \"nic_read_before\": %s}",
				(double)r->link_lost_ns / 1e9,
				(unsigned long long)r->link_lost_tx_pkts,
				r->has_nic ? "true" : "false");
	}
	fprintf(out,
		", \"tx_pkts\": %llu, \"tx_bytes\": %llu, \"tx_bytes_l1\": %llu"
		", \"duration_s\": %.9f",
		(unsigned long long)r->total.tx_pkts,
		(unsigned long long)r->total.tx_bytes,
		(unsigned long long)wr_l1_bytes(r->total.tx_bytes,
						r->total.tx_pkts),
		(double)r->duration_ns / 1e9);
	if (wr_report_rate_measured(r))
		fprintf(out, ", \"kpps\": %.3f, \"mbps_l2\": %.3f"
			", \"mbps_l1\": %.3f", rt.kpps, rt.mbps_l2,
			rt.mbps_l1);
	else
		fputs(", \"kpps\": null, \"mbps_l2\": null, \"mbps_l1\": null",
		      out);
	fprintf(out, ", \"tx_full\": %llu, \"alloc_fail\": %llu",
		(unsigned long long)r->total.tx_full,
		(unsigned long long)r->total.alloc_fail);
	if (!stream && r->has_nic)
		fprintf(out, ", \"nic\": {\"opackets\": %llu, \"obytes\": %llu"
			", \"oerrors\": %llu, \"ipackets\": %llu"
			", \"imissed\": %llu, \"ierrors\": %llu"
			", \"rx_nombuf\": %llu}",
			(unsigned long long)r->nic_opackets,
			(unsigned long long)r->nic_obytes,
			(unsigned long long)r->nic_oerrors,
			(unsigned long long)r->nic_ipackets,
			(unsigned long long)r->nic_imissed,
			(unsigned long long)r->nic_ierrors,
			(unsigned long long)r->nic_rx_nombuf);
	if (!stream && r->has_rx)
		fprintf(out, ", \"rx_pkts\": %llu, \"rx_foreign\": %llu"
			", \"rx_bad_sig\": %llu, \"rx_timestamps\": \"%s\""
			", \"rx_hw_stamped\": %llu",
			(unsigned long long)r->rx_pkts,
			(unsigned long long)r->rx_foreign,
			(unsigned long long)r->rx_bad_sig,
			r->rx_hwts ? "hardware" : "tsc",
			(unsigned long long)r->rx_hw_stamped);
	if (!stream && r->has_rx)
		json_port_rx(out, v, r);
	if (stream && r->train_frames != 0)
		fprintf(out, ", \"trains\": {\"frames\": %u, \"nominal_ns\": "
			"%llu, \"intervals\": %llu, \"min_ns\": %llu, "
			"\"avg_ns\": %llu, \"p50_ns\": %llu, \"p99_ns\": %llu, "
			"\"max_ns\": %llu}", r->train_frames,
			(unsigned long long)r->train_nominal_ns,
			(unsigned long long)r->train_gaps.n,
			(unsigned long long)r->train_gaps.min,
			(unsigned long long)r->train_gaps.avg,
			(unsigned long long)r->train_gaps.p50,
			(unsigned long long)r->train_gaps.p99,
			(unsigned long long)r->train_gaps.max);
	if (stream && r->has_replay) {
		fprintf(out, ", \"replay\": {\"file\": ");
		wr_out_json_str(out, r->replay_file);
		fprintf(out, ", \"sha256\": \"%s\", \"frames\": %llu, "
			"\"loops\": %llu, \"timing\": \"%s\"",
			r->replay_sha256, (unsigned long long)r->replay_frames,
			(unsigned long long)r->replay_loops,
			r->replay_timed ? "capture" : "rate");
		if (r->replay_timed) {
			fprintf(out, ", \"speedup\": %g, \"gaps\": %llu",
				r->replay_speedup,
				(unsigned long long)r->replay_gap_err.n);
			json_p50_p99_max(out, "gap_error_ns", NULL,
					 &r->replay_gap_err);
			json_p50_p99_max(out, "late_ns", NULL, &r->replay_late);
			fprintf(out, ", \"stalls\": %llu, \"stall_ns\": %llu",
				(unsigned long long)r->replay_stalls,
				(unsigned long long)r->replay_stall_ns);
			json_p50_p99_max(out, "late_polled_ns", "n",
					 &r->replay_late_polled);
			fprintf(out, ", \"late_away_frames\": %llu, \"away\": "
				"{\"gaps\": %llu, \"ns\": %llu, \"max_ns\": %llu, "
				"\"polled_ns\": %llu}",
				(unsigned long long)r->replay_late_away,
				(unsigned long long)r->replay_away_n,
				(unsigned long long)r->replay_away_ns,
				(unsigned long long)r->replay_away_max_ns,
				(unsigned long long)r->replay_polled_ns);
		}
		fputc('}', out);
	}
	if (stream && r->has_rx) {
		fprintf(out, ", \"rx_pkts\": %llu, \"lost\": %llu"
			", \"reordered\": %llu, \"duplicated\": %llu"
			", \"latency_ns\": {",
			(unsigned long long)r->rx_pkts,
			(unsigned long long)r->lost,
			(unsigned long long)r->reordered,
			(unsigned long long)r->duplicated);
		wr_latency_json_write(out, &r->lat, WR_LAT_JSON_PLAIN);
		fprintf(out, "}, \"jitter_ns\": %.3f", r->lat.jitter_ns);
	}
	fputc('}', out);
}

void
wr_report_captures(FILE *out, const struct wr_report_capture *c,
		   unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++, c++) {
		fprintf(out, "capture %u (port %u %s%s%s%s): %llu frames, %llu "
			"bytes in %s%s", i, c->port, c->dir,
			c->filter ? ", filter \"" : "",
			c->filter ? c->filter : "", c->filter ? "\"" : "",
			(unsigned long long)c->written,
			(unsigned long long)c->bytes, c->file,
			c->files > 1 ? "" : "");
		if (c->files > 1)
			fprintf(out, " (the last of %u files)", c->files);
		fprintf(out, "; %llu matched, %llu capture dropped, %llu after "
			"its limit", (unsigned long long)c->seen,
			(unsigned long long)c->dropped,
			(unsigned long long)c->over_limit);
		if (c->error != 0)
			fprintf(out, "; ENDED BY AN ERROR: %s (the file being "
				"written was removed)", strerror(-c->error));
		fputc('\n', out);
	}
}

static void
json_captures(FILE *out, const struct wr_report_meta *m)
{
	unsigned int i;

	fputs(",\n  \"captures\": [", out);
	for (i = 0; i < m->n_captures; i++) {
		const struct wr_report_capture *c = &m->captures[i];

		fprintf(out, "%s\n    {\"port\": %u, \"dir\": \"%s\", \"file\": ",
			i ? "," : "", c->port, c->dir);
		wr_out_json_str(out, c->file);
		fputs(", \"filter\": ", out);
		wr_out_json_str(out, c->filter);
		fprintf(out, ", \"files\": %u, \"seen\": %llu, \"written\": %llu"
			", \"bytes\": %llu, \"capture_dropped\": %llu"
			", \"over_limit\": %llu, \"error\": ", c->files,
			(unsigned long long)c->seen,
			(unsigned long long)c->written,
			(unsigned long long)c->bytes,
			(unsigned long long)c->dropped,
			(unsigned long long)c->over_limit);
		if (c->error != 0)
			wr_out_json_str(out, strerror(-c->error));
		else
			fputs("null", out);
		fputc('}', out);
	}
	fputs(m->n_captures ? "\n  ]" : "]", out);
}

int
wr_report_json_write(FILE *out, const struct wr_report_meta *meta,
		     const struct wr_report_view *v)
{
	unsigned int i;

	const struct wr_out_head head = {
		.schema = "wirerate-results/1",
		.wirerate_version = meta->wirerate_version,
		.dpdk_version = meta->dpdk_version,
		.stream_file = meta->stream_file,
		.stream_sha256 = meta->stream_sha256,
		.config_file = meta->config_file,
		.has_seed = true,
		.seed = meta->seed,
		.started_at = meta->started_at,
		.stop_reason = meta->stop_reason,
		.tsc = meta->has_tsc ? &meta->tsc : NULL,
	};

	wr_out_json_head(out, &head);
	fprintf(out, ",\n  \"duration_s\": %.9f", (double)v->elapsed_ns / 1e9);
	/* Frames a port dropped because wirerate did not take them in time
	 * (ports[].rx_missed): the generator's limit, said once here. */
	fprintf(out, ",\n  \"generator_limited\": %s",
		wr_report_gen_limited(v) ? "true" : "false");
	fprintf(out, ",\n  \"lcores\": {\"main\": %u, \"tx\": [",
		meta->main_lcore);
	for (i = 0; i < meta->n_tx_lcores; i++)
		fprintf(out, "%s%u", i ? ", " : "", meta->tx_lcores[i]);
	fputs("]},\n  \"eal_args\": [", out);
	for (i = 0; i < meta->n_eal_args; i++) {
		if (i)
			fputs(", ", out);
		wr_out_json_str(out, meta->eal_args[i]);
	}
	fputs("],\n  \"ports\": [", out);
	for (i = 0; i < v->n_ports; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		json_row(out, v, &v->ports[i], false);
	}
	fputs("\n  ],\n  \"streams\": [", out);
	for (i = 0; i < v->n_streams; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		json_row(out, v, &v->streams[i], true);
	}
	fputs("\n  ]", out);
	if (meta->n_captures > 0)
		json_captures(out, meta);
	/* run --repeat: ports and streams above are the last repetition's;
	 * every repetition and their spread follow. */
	if (meta->repeats != NULL && wr_rep_json_write(out, meta->repeats) != 0)
		return -EIO;
	fputs("\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

struct json_job {
	const struct wr_report_meta *meta;
	const struct wr_report_view *v;
};

static int
json_job(FILE *out, const void *arg)
{
	const struct json_job *j = arg;

	return wr_report_json_write(out, j->meta, j->v);
}

int
wr_report_json(const char *path, const struct wr_report_meta *meta,
	       const struct wr_report_view *v)
{
	struct json_job j = { meta, v };

	return wr_out_atomic(path, json_job, &j);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_report: rendering live lines, the summary and the JSON results. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_out.h"
#include "wr_report.h"

/* ---- the counter table ---- */

#define WR_CTR_SCOPE_P WR_CTR_PORT
#define WR_CTR_SCOPE_S WR_CTR_STREAM
#define WR_CTR_SCOPE_PS (WR_CTR_PORT | WR_CTR_STREAM)
#define WR_CTR_VAL_U64 u
#define WR_CTR_VAL_F3 d
#define WR_CTR_GET_FIELD(src) (r->src)
#define WR_CTR_GET_CALC(src) (src)
#define WR_CTR_OFF_FIELD(src) offsetof(struct wr_report_row, src)
#define WR_CTR_OFF_CALC(src) SIZE_MAX

/* One reader per line. */
#define WR_CTR(key, group, scope, when, type, how, source, metric, help) \
static void								\
get_##key(const struct wr_report_row *r, union wr_ctr_val *v)		\
{									\
	v->WR_CTR_VAL_##type = WR_CTR_GET_##how(source);		\
}
#include "wr_counter.def"
#undef WR_CTR

const struct wr_ctr wr_ctrs[] = {
#define WR_CTR(key, group, scope, when, type, how, source, metric, help) \
	{ #key, group, WR_CTR_SCOPE_##scope, WR_CTR_WHEN_##when,	\
	  WR_CTR_##type, WR_CTR_OFF_##how(source), metric, help, get_##key },
#include "wr_counter.def"
#undef WR_CTR
};

const unsigned int wr_n_ctrs = sizeof(wr_ctrs) / sizeof(wr_ctrs[0]);

bool
wr_ctr_applies(const struct wr_ctr *c, const struct wr_report_row *r,
	       bool stream)
{
	if (!(c->scope & (stream ? WR_CTR_STREAM : WR_CTR_PORT)))
		return false;
	switch (c->when) {
	case WR_CTR_WHEN_RX:
		return r->has_rx;
	case WR_CTR_WHEN_NIC:
		return r->has_nic;
	case WR_CTR_WHEN_ALL:
		break;
	}
	return true;
}

void
wr_ctr_row_sub(struct wr_report_row *r, const struct wr_report_row *b)
{
	unsigned int i;

	for (i = 0; i < wr_n_ctrs; i++) {
		const struct wr_ctr *c = &wr_ctrs[i];
		uint64_t *x, y;

		if (c->off == SIZE_MAX || c->type != WR_CTR_U64)
			continue;
		if (c->when == WR_CTR_WHEN_NIC && !(r->has_nic && b->has_nic))
			continue;
		x = (uint64_t *)((char *)r + c->off);
		memcpy(&y, (const char *)b + c->off, sizeof(y));
		*x = *x > y ? *x - y : 0;
	}
}

void
wr_ctr_emit(const struct wr_sink *s, const struct wr_report_row *r,
	    bool stream, bool group_objects)
{
	const char *open = NULL; /* the group object open, if any */
	unsigned int i;

	for (i = 0; i < wr_n_ctrs; i++) {
		const struct wr_ctr *c = &wr_ctrs[i];
		char flat[64];
		const char *key = c->key;
		union wr_ctr_val v;

		if (!wr_ctr_applies(c, r, stream))
			continue;
		if (open != NULL && strcmp(open, c->group) != 0) {
			s->ops->close(s->ctx, false);
			open = NULL;
		}
		if (c->group[0] != '\0' && group_objects && open == NULL) {
			s->ops->open(s->ctx, c->group, false);
			open = c->group;
		} else if (c->group[0] != '\0' && !group_objects) {
			snprintf(flat, sizeof(flat), "%s_%s", c->group, c->key);
			key = flat;
		}
		c->get(r, &v);
		if (c->type == WR_CTR_U64)
			s->ops->u64(s->ctx, key, v.u);
		else
			s->ops->f64(s->ctx, key, v.d, 3);
	}
	if (open != NULL)
		s->ops->close(s->ctx, false);
}

json_t *
wr_ctr_describe(void)
{
	json_t *a = json_array();
	unsigned int i;

	for (i = 0; a != NULL && i < wr_n_ctrs; i++) {
		const struct wr_ctr *c = &wr_ctrs[i];
		json_t *scope = json_array();

		if (scope == NULL ||
		    ((c->scope & WR_CTR_PORT) &&
		     json_array_append_new(scope, json_string("port")) != 0) ||
		    ((c->scope & WR_CTR_STREAM) &&
		     json_array_append_new(scope, json_string("stream")) != 0) ||
		    json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:s, s:s, s:s}",
			"key", c->key, "group", c->group, "scope", scope,
			"type", c->type == WR_CTR_U64 ? "counter" : "gauge",
			"metric", c->metric, "help", c->help)) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

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

/* The summary's counters line: the table's counters of a row as
 * "key value" (grouped ones group_key), those that are not 0. */
struct text_sink {
	FILE *f;
	unsigned int n;
};

static void
text_sep(struct text_sink *t, const char *key)
{
	fprintf(t->f, "%s%s ", t->n++ ? ", " : "", key);
}

static void
text_u64(void *ctx, const char *key, uint64_t v)
{
	if (v != 0) {
		text_sep(ctx, key);
		fprintf(((struct text_sink *)ctx)->f, "%llu",
			(unsigned long long)v);
	}
}

static void
text_f64(void *ctx, const char *key, double v, int decimals)
{
	if (v != 0 && isfinite(v)) {
		text_sep(ctx, key);
		fprintf(((struct text_sink *)ctx)->f, "%.*f",
			decimals < 0 ? 3 : decimals, v);
	}
}

/* wr_ctr_emit() writes only numbers, flat. */
static const struct wr_sink_ops text_ops = {
	.u64 = text_u64, .f64 = text_f64,
};

static void
final_counters(FILE *out, const struct wr_report_view *v)
{
	struct text_sink t = { .f = out };
	const struct wr_sink s = { &text_ops, &t };
	unsigned int i;

	fputc('\n', out);
	for (i = 0; i < v->n_ports + v->n_streams; i++) {
		bool stream = i >= v->n_ports;
		const struct wr_report_row *r = stream ?
			&v->streams[i - v->n_ports] : &v->ports[i];

		if (stream)
			fprintf(out, "counters of stream %s: ", r->name);
		else
			fprintf(out, "counters of port %u: ", i);
		t.n = 0;
		wr_ctr_emit(&s, r, stream, false);
		fputs(t.n ? "\n" : "all 0\n", out);
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
	final_counters(out, v);
	fflush(out);
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

/* "key": {["n": n, ]"p50": .., "p99": .., "max": ..} of a summary (ns). */
static void
emit_p50_p99_max(const struct wr_sink *s, const char *key, const char *n_key,
		 const struct wr_latency_summary *l)
{
	s->ops->open(s->ctx, key, false);
	if (n_key != NULL)
		s->ops->u64(s->ctx, n_key, l->n);
	s->ops->u64(s->ctx, "p50", l->p50);
	s->ops->u64(s->ctx, "p99", l->p99);
	s->ops->u64(s->ctx, "max", l->max);
	s->ops->close(s->ctx, false);
}

/* "latency_ns": the summary under the plain names (WR_LAT_JSON_PLAIN). */
static void
emit_latency(const struct wr_sink *s, const struct wr_latency_summary *l)
{
	static const char *const key[] = { "n", "min", "avg", "max", "p50",
					   "p90", "p99", "p999", "p9999" };
	const uint64_t val[] = { l->n, l->min, l->avg, l->max, l->p50, l->p90,
				 l->p99, l->p999, l->p9999 };
	unsigned int i;

	s->ops->open(s->ctx, "latency_ns", false);
	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++)
		s->ops->u64(s->ctx, key[i], val[i]);
	s->ops->close(s->ctx, false);
}

static void
emit_rates(const struct wr_sink *s, const struct wr_rates *rt)
{
	s->ops->f64(s->ctx, "kpps", rt->kpps, 3);
	s->ops->f64(s->ctx, "mbps_l2", rt->mbps_l2, 3);
	s->ops->f64(s->ctx, "mbps_l1", rt->mbps_l1, 3);
}

/* A polled port's receive side: where its times come from, its queues and
 * their load, its classes (rates over @p span or the run). */
static void
emit_port_rx(const struct wr_sink *s, const struct wr_report_view *v,
	     const struct wr_report_row *r, const struct wr_report_span *span)
{
	unsigned int q, c;

	s->ops->str(s->ctx, "rx_timestamps", r->rx_hwts ? "hardware" : "tsc");
	s->ops->boolean(s->ctx, "generator_limited",
			wr_report_rx_missed(r) > 0);
	s->ops->open(s->ctx, "rx_queues", true);
	for (q = 0; q < r->n_rxq; q++) {
		const struct wr_report_rxq *x = &r->rxq[q];

		s->ops->open(s->ctx, NULL, false);
		s->ops->u64(s->ctx, "queue", x->queue);
		s->ops->u64(s->ctx, "lcore", x->lcore);
		s->ops->u64(s->ctx, "rx_pkts", x->rx_pkts);
		s->ops->u64(s->ctx, "polls", x->polls);
		s->ops->u64(s->ctx, "busy_polls", x->busy_polls);
		s->ops->f64(s->ctx, "frames_per_poll", x->polls ?
			    (double)x->rx_pkts / (double)x->polls : 0, 3);
		s->ops->f64(s->ctx, "frames_per_busy_poll", x->busy_polls ?
			    (double)x->rx_pkts / (double)x->busy_polls : 0, 3);
		s->ops->u64(s->ctx, "busy_ns", x->busy_ns);
		s->ops->u64(s->ctx, "active_ns", x->active_ns);
		s->ops->f64(s->ctx, "busy", rxq_busy(x), 4);
		s->ops->close(s->ctx, false);
	}
	s->ops->close(s->ctx, true);
	/* The same shares alone, as the --stats-jsonl lines first had them. */
	s->ops->open(s->ctx, "rx_busy", true);
	for (q = 0; q < r->n_rxq; q++)
		s->ops->f64(s->ctx, NULL, rxq_busy(&r->rxq[q]), 4);
	s->ops->close(s->ctx, true);
	s->ops->open(s->ctx, "rx_classes", true);
	for (c = 0; c < v->n_classes; c++) {
		const struct wr_report_class *k = &r->cls[c];
		const struct wr_report_class *b = span != NULL ?
			&span->cls_base[c] : NULL;
		struct wr_rates rt = b != NULL ?
			rx_rates(k->pkts - b->pkts, k->bytes - b->bytes, span->ns) :
			rx_rates(k->pkts, k->bytes, v->elapsed_ns);

		s->ops->open(s->ctx, NULL, false);
		s->ops->str(s->ctx, "name", v->class_names[c]);
		s->ops->u64(s->ctx, "pkts", k->pkts);
		s->ops->u64(s->ctx, "bytes", k->bytes);
		emit_rates(s, &rt);
		s->ops->close(s->ctx, false);
	}
	s->ops->close(s->ctx, true);
}

static void
emit_trains(const struct wr_sink *s, const struct wr_report_row *r)
{
	const struct wr_latency_summary *g = &r->train_gaps;

	s->ops->open(s->ctx, "trains", false);
	s->ops->u64(s->ctx, "frames", r->train_frames);
	s->ops->u64(s->ctx, "nominal_ns", r->train_nominal_ns);
	s->ops->u64(s->ctx, "intervals", g->n);
	s->ops->u64(s->ctx, "min_ns", g->min);
	s->ops->u64(s->ctx, "avg_ns", g->avg);
	s->ops->u64(s->ctx, "p50_ns", g->p50);
	s->ops->u64(s->ctx, "p99_ns", g->p99);
	s->ops->u64(s->ctx, "max_ns", g->max);
	s->ops->close(s->ctx, false);
}

static void
emit_replay(const struct wr_sink *s, const struct wr_report_row *r)
{
	s->ops->open(s->ctx, "replay", false);
	s->ops->str(s->ctx, "file", r->replay_file);
	s->ops->str(s->ctx, "sha256", r->replay_sha256);
	s->ops->u64(s->ctx, "frames", r->replay_frames);
	s->ops->u64(s->ctx, "loops", r->replay_loops);
	s->ops->str(s->ctx, "timing", r->replay_timed ? "capture" : "rate");
	if (r->replay_timed) {
		s->ops->f64(s->ctx, "speedup", r->replay_speedup, -1);
		s->ops->u64(s->ctx, "gaps", r->replay_gap_err.n);
		emit_p50_p99_max(s, "gap_error_ns", NULL, &r->replay_gap_err);
		emit_p50_p99_max(s, "late_ns", NULL, &r->replay_late);
		s->ops->u64(s->ctx, "stalls", r->replay_stalls);
		s->ops->u64(s->ctx, "stall_ns", r->replay_stall_ns);
		emit_p50_p99_max(s, "late_polled_ns", "n",
				 &r->replay_late_polled);
		s->ops->u64(s->ctx, "late_away_frames", r->replay_late_away);
		s->ops->open(s->ctx, "away", false);
		s->ops->u64(s->ctx, "gaps", r->replay_away_n);
		s->ops->u64(s->ctx, "ns", r->replay_away_ns);
		s->ops->u64(s->ctx, "max_ns", r->replay_away_max_ns);
		s->ops->u64(s->ctx, "polled_ns", r->replay_polled_ns);
		s->ops->close(s->ctx, false);
	}
	s->ops->close(s->ctx, false);
}

void
wr_report_row_emit(const struct wr_sink *s, const struct wr_report_view *v,
		   const struct wr_report_row *r, bool stream,
		   const struct wr_report_span *span)
{
	struct wr_rates rt;

	s->ops->open(s->ctx, NULL, false);
	s->ops->str(s->ctx, "name", r->name);
	s->ops->u64(s->ctx, "port", r->port);
	if (stream) {
		s->ops->u64(s->ctx, "seed", r->seed);
		s->ops->u64(s->ctx, "size_min", r->size_min);
		s->ops->u64(s->ctx, "size_max", r->size_max);
		s->ops->f64(s->ctx, "target_kpps", r->target_kpps, 6);
		if (r->hosts_group[0] != '\0') {
			s->ops->open(s->ctx, "hosts", false);
			s->ops->str(s->ctx, "group", r->hosts_group);
			s->ops->u64(s->ctx, "from", r->hosts_from);
			s->ops->u64(s->ctx, "skipped", r->hosts_skipped);
			s->ops->close(s->ctx, false);
		}
	} else {
		s->ops->str(s->ctx, "device", r->device);
		s->ops->str(s->ctx, "driver", r->driver);
		s->ops->u64(s->ctx, "port_id", r->port_id);
		s->ops->u64(s->ctx, "link_speed_mbps", r->link_speed_mbps);
		/* nic below is then the reading from before the link went. */
		if (r->link_lost) {
			s->ops->open(s->ctx, "link_lost", false);
			s->ops->f64(s->ctx, "at_s",
				    (double)r->link_lost_ns / 1e9, 9);
			s->ops->u64(s->ctx, "tx_pkts", r->link_lost_tx_pkts);
			s->ops->boolean(s->ctx, "nic_read_before", r->has_nic);
			s->ops->close(s->ctx, false);
		}
	}
	if (span != NULL) {
		/* The interval's rates; the row's duration is the run's. */
		rt = wr_rates_calc(r->total.tx_pkts - span->tx_base->tx_pkts,
				   r->total.tx_bytes - span->tx_base->tx_bytes,
				   span->ns);
		emit_rates(s, &rt);
	} else {
		s->ops->f64(s->ctx, "duration_s", (double)r->duration_ns / 1e9,
			    9);
		rt = wr_rates_calc(r->total.tx_pkts, r->total.tx_bytes,
				   r->duration_ns);
		if (!wr_report_rate_measured(r))
			rt.kpps = rt.mbps_l2 = rt.mbps_l1 = NAN; /* null */
		emit_rates(s, &rt);
	}
	/* Every counter of the table (wr_counter.def). */
	wr_ctr_emit(s, r, stream, true);
	if (!stream && r->has_rx)
		emit_port_rx(s, v, r, span);
	if (stream && r->train_frames != 0)
		emit_trains(s, r);
	if (stream && r->has_replay)
		emit_replay(s, r);
	if (stream && r->has_rx)
		emit_latency(s, &r->lat);
	s->ops->close(s->ctx, false);
}

static void
emit_captures(const struct wr_sink *s, const struct wr_report_meta *m)
{
	unsigned int i;

	s->ops->open(s->ctx, "captures", true);
	for (i = 0; i < m->n_captures; i++) {
		const struct wr_report_capture *c = &m->captures[i];

		s->ops->open(s->ctx, NULL, false);
		s->ops->u64(s->ctx, "port", c->port);
		s->ops->str(s->ctx, "dir", c->dir);
		s->ops->str(s->ctx, "file", c->file);
		s->ops->str(s->ctx, "filter", c->filter);
		s->ops->u64(s->ctx, "files", c->files);
		s->ops->u64(s->ctx, "seen", c->seen);
		s->ops->u64(s->ctx, "written", c->written);
		s->ops->u64(s->ctx, "bytes", c->bytes);
		s->ops->u64(s->ctx, "capture_dropped", c->dropped);
		s->ops->u64(s->ctx, "over_limit", c->over_limit);
		s->ops->str(s->ctx, "error", c->error != 0 ?
			    strerror(-c->error) : NULL);
		s->ops->close(s->ctx, false);
	}
	s->ops->close(s->ctx, true);
}

/* The results document's members, into the object @p s has open. */
static void
emit_results(const struct wr_sink *s, const struct wr_report_meta *meta,
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

	wr_out_head_emit(s, &head);
	s->ops->f64(s->ctx, "duration_s", (double)v->elapsed_ns / 1e9, 9);
	/* Frames a port dropped because wirerate did not take them in time
	 * (ports[].rx_missed): the generator's limit, said once here. */
	s->ops->boolean(s->ctx, "generator_limited", wr_report_gen_limited(v));
	s->ops->open(s->ctx, "lcores", false);
	s->ops->u64(s->ctx, "main", meta->main_lcore);
	s->ops->open(s->ctx, "tx", true);
	for (i = 0; i < meta->n_tx_lcores; i++)
		s->ops->u64(s->ctx, NULL, meta->tx_lcores[i]);
	s->ops->close(s->ctx, true);
	s->ops->close(s->ctx, false);
	s->ops->open(s->ctx, "eal_args", true);
	for (i = 0; i < meta->n_eal_args; i++)
		s->ops->str(s->ctx, NULL, meta->eal_args[i]);
	s->ops->close(s->ctx, true);
	s->ops->open(s->ctx, "ports", true);
	for (i = 0; i < v->n_ports; i++)
		wr_report_row_emit(s, v, &v->ports[i], false, NULL);
	s->ops->close(s->ctx, true);
	s->ops->open(s->ctx, "streams", true);
	for (i = 0; i < v->n_streams; i++)
		wr_report_row_emit(s, v, &v->streams[i], true, NULL);
	s->ops->close(s->ctx, true);
	if (meta->n_captures > 0)
		emit_captures(s, meta);
}

int
wr_report_json_write(FILE *out, const struct wr_report_meta *meta,
		     const struct wr_report_view *v)
{
	struct wr_sink_file fs;
	struct wr_sink s;

	wr_sink_file_init(&fs, &s, out, true);
	s.ops->open(s.ctx, NULL, false);
	emit_results(&s, meta, v);
	/* run --repeat: ports and streams above are the last repetition's;
	 * every repetition and their spread follow (wr_repeat.h). */
	if (meta->json_more != NULL && meta->json_more(out, meta->json_more_arg) != 0)
		return -EIO;
	s.ops->close(s.ctx, false);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

json_t *
wr_report_tree(const struct wr_report_meta *meta,
	       const struct wr_report_view *v)
{
	struct wr_sink_tree ts;
	struct wr_sink s;

	wr_sink_tree_init(&ts, &s);
	s.ops->open(s.ctx, NULL, false);
	emit_results(&s, meta, v);
	s.ops->close(s.ctx, false);
	if (ts.oom) {
		json_decref(ts.root);
		return NULL;
	}
	return ts.root;
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

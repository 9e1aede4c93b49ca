/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_view: the stateful classes' counters as users read them: the JSON of run --json, stats.get, tcp.stats and the exporter; run's live lines and its summary. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_tcp_view.h"

static const char *const side_names[2] = { "client", "server" };
static const char *const hist_names[WR_TCP_HIST__COUNT] = {
	[WR_TCP_HIST_HANDSHAKE] = "handshake",
	[WR_TCP_HIST_TTFB] = "ttfb",
	[WR_TCP_HIST_COMPLETE] = "complete",
};

const char *
wr_tcp_view_side_name(enum wr_tcp_side side)
{
	return side == WR_TCP_SERVER ? side_names[1] : side_names[0];
}

const char *
wr_tcp_view_hist_name(enum wr_tcp_hist_id id)
{
	return (unsigned int)id < WR_TCP_HIST__COUNT ? hist_names[id] : "?";
}

static void
put_json(void *ctx, const char *name, uint64_t v)
{
	json_object_set_new(ctx, name, json_integer(v > INT64_MAX ?
						    INT64_MAX : (json_int_t)v));
}

/* A summary through wr_latency_json_write, the one writer of its members
 * (run's "latency_ns" spelling), read back as a tree. */
static json_t *
summary_json(const struct wr_latency *h)
{
	struct wr_latency_summary s;
	char buf[512] = "{";
	FILE *f = fmemopen(buf + 1, sizeof(buf) - 3, "w");

	if (f == NULL)
		return NULL;
	wr_latency_summarize(h, NULL, &s);
	wr_latency_json_write(f, &s, WR_LAT_JSON_PLAIN);
	fclose(f);
	strcat(buf, "}");
	return json_loads(buf, 0, NULL);
}

static json_t *
side_json(const struct wr_tcp_counters *c,
	  const struct wr_latency *hist)
{
	json_t *o = json_object(), *h;
	unsigned int i;

	if (o == NULL)
		return NULL;
	wr_tcp_counters_each(c, put_json, o);
	if (hist == NULL)
		return o;
	h = json_object();
	if (h == NULL) {
		json_decref(o);
		return NULL;
	}
	for (i = 0; i < WR_TCP_HIST__COUNT; i++)
		json_object_set_new(h, hist_names[i], summary_json(&hist[i]));
	json_object_set_new(o, "histograms_ns", h);
	return o;
}

json_t *
wr_tcp_view_class_json(const struct wr_tcp_view_class *v)
{
	json_t *o = json_pack("{s:s, s:b, s:f, s:I}", "name", v->name,
			      "stopped", v->stopped, "rate",
			      (double)v->rate_milli / 1000.0, "concurrency",
			      (json_int_t)v->concurrency);
	unsigned int s;

	if (o == NULL)
		return NULL;
	for (s = 0; s < 2; s++) {
		json_t *j = v->has[s] ? side_json(&v->c[s], v->hist != NULL ?
						  v->hist[s] : NULL) :
			json_null();

		if (j == NULL) {
			json_decref(o);
			return NULL;
		}
		json_object_set_new(o, side_names[s], j);
	}
	return o;
}

void
wr_tcp_view_port_each(const struct wr_tcp_port_counters *p,
		      void (*put)(void *ctx, const char *name, uint64_t v),
		      void *ctx)
{
#define WR_TCP_VIEW_PUT_(f) put(ctx, #f, p->f)
	WR_TCP_VIEW_PUT_(rx_frames);
	WR_TCP_VIEW_PUT_(rx_not_tcp);
	WR_TCP_VIEW_PUT_(rx_bad);
	WR_TCP_VIEW_PUT_(rx_no_conn);
	WR_TCP_VIEW_PUT_(rst_sent_no_conn);
	WR_TCP_VIEW_PUT_(rst_limited);
	WR_TCP_VIEW_PUT_(syn_dropped);
	WR_TCP_VIEW_PUT_(tx_nobuf);
	WR_TCP_VIEW_PUT_(ports_busy);
	WR_TCP_VIEW_PUT_(mem_bytes);
#undef WR_TCP_VIEW_PUT_
}

json_t *
wr_tcp_view_port_json(unsigned int port, const struct wr_tcp_port_counters *p)
{
	json_t *o = json_pack("{s:I}", "port", (json_int_t)port);

	if (o != NULL)
		wr_tcp_view_port_each(p, put_json, o);
	return o;
}

static uint64_t
delta(uint64_t prev, uint64_t cur)
{
	return cur > prev ? cur - prev : 0;
}

void
wr_tcp_view_rates(const struct wr_tcp_counters *prev,
		  const struct wr_tcp_counters *cur, uint64_t interval_ns,
		  struct wr_tcp_view_rate *r)
{
	double s = (double)interval_ns / 1e9;

	memset(r, 0, sizeof(*r));
	r->rexmit_segs = delta(prev->rexmit_segs, cur->rexmit_segs);
	if (interval_ns == 0)
		return;
	r->cps = (double)delta(prev->established, cur->established) / s;
	r->attempts_ps = (double)delta(prev->attempted, cur->attempted) / s;
	r->tx_mbps = (double)delta(prev->tx_bytes, cur->tx_bytes) * 8 / s / 1e6;
	r->rx_mbps = (double)delta(prev->rx_bytes, cur->rx_bytes) * 8 / s / 1e6;
}

int
wr_tcp_view_line(char *buf, size_t len, const char *name,
		 enum wr_tcp_side side, const struct wr_tcp_counters *c,
		 const struct wr_tcp_view_rate *r)
{
	return snprintf(buf, len, "tcp %-12s %s %10.1f cps %9llu concurrent "
			"%11llu established, failed %llu refused %llu timeout "
			"%llu reset %llu other, goodput %.3f Mbps out %.3f Mbps "
			"in, %llu retransmits (%llu in all)", name,
			wr_tcp_view_side_name(side), r->cps,
			(unsigned long long)c->active,
			(unsigned long long)c->established,
			(unsigned long long)c->failed_refused,
			(unsigned long long)c->failed_timeout,
			(unsigned long long)c->failed_reset,
			(unsigned long long)c->failed_other, r->tx_mbps,
			r->rx_mbps, (unsigned long long)r->rexmit_segs,
			(unsigned long long)c->rexmit_segs);
}

struct sum_ctx {
	FILE *out;
	bool all;
	unsigned int col;
};

static void
put_text(void *ctx, const char *name, uint64_t v)
{
	struct sum_ctx *x = ctx;
	char w[80];
	int n;

	if (v == 0 && !x->all)
		return;
	n = snprintf(w, sizeof(w), " %s=%llu", name, (unsigned long long)v);
	/* Lines of at most about 100 columns, indented under the class. */
	if (x->col + (unsigned int)n > 100) {
		fputs("\n   ", x->out);
		x->col = 3;
	}
	fputs(w, x->out);
	x->col += (unsigned int)n;
}

static void
hist_text(FILE *out, const char *name, const struct wr_latency *h)
{
	uint64_t n = wr_latency_count(h), p50 = 0, p99 = 0;

	if (n == 0)
		return;
	wr_latency_percentile(h, 50.0, &p50);
	wr_latency_percentile(h, 99.0, &p99);
	fprintf(out, "    %-9s %10llu: min %.1f us, median %.1f us, p99 %.1f "
		"us, max %.1f us\n", name, (unsigned long long)n,
		(double)wr_latency_min(h) / 1e3, (double)p50 / 1e3,
		(double)p99 / 1e3, (double)wr_latency_max(h) / 1e3);
}

int
wr_tcp_view_summary(FILE *out, const struct wr_tcp_view_class *v,
		    uint64_t elapsed_ns, bool all)
{
	unsigned int s, i;

	for (s = 0; s < 2; s++) {
		const struct wr_tcp_counters *c = &v->c[s];
		struct sum_ctx x = { .out = out, .all = all };

		if (!v->has[s])
			continue;
		fprintf(out, "tcp %s %s:", v->name, side_names[s]);
		if (elapsed_ns > 0) {
			double t = (double)elapsed_ns / 1e9;

			fprintf(out, " %.1f cps, goodput %.3f Mbps out %.3f "
				"Mbps in (averages over %.3f s)\n   ",
				(double)c->established / t,
				(double)c->tx_bytes * 8 / t / 1e6,
				(double)c->rx_bytes * 8 / t / 1e6, t);
		}
		x.col = 3;
		wr_tcp_counters_each(c, put_text, &x);
		fputc('\n', out);
		for (i = 0; v->hist != NULL && i < WR_TCP_HIST__COUNT; i++)
			hist_text(out, hist_names[i], &v->hist[s][i]);
	}
	return ferror(out) ? -EIO : 0;
}

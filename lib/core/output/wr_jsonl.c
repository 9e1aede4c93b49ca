/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_jsonl: per-interval JSON Lines statistics. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_jsonl.h"
#include "wr_out.h"

int
wr_jsonl_open_stream(struct wr_jsonl *j, FILE *f, unsigned int n_ports,
		     unsigned int n_streams)
{
	memset(j, 0, sizeof(*j));
	j->prev = calloc((size_t)n_ports + n_streams + 1, sizeof(*j->prev));
	j->prev_cls = calloc((size_t)n_ports * WR_RX_CLASSES_MAX + 1,
			     sizeof(*j->prev_cls));
	if (j->prev == NULL || j->prev_cls == NULL) {
		free(j->prev);
		free(j->prev_cls);
		return -ENOMEM;
	}
	j->f = f;
	j->n_ports = n_ports;
	j->n_streams = n_streams;
	return 0;
}

int
wr_jsonl_open(struct wr_jsonl *j, const char *path, unsigned int n_ports,
	      unsigned int n_streams)
{
	FILE *f = NULL;
	int rc;

	rc = wr_out_log_open(path, &f);
	if (rc != 0)
		return rc;
	rc = wr_jsonl_open_stream(j, f, n_ports, n_streams);
	if (rc == 0) {
		j->path = strdup(path);
		if (j->path == NULL) {
			free(j->prev);
			j->prev = NULL;
			rc = -ENOMEM;
		}
	}
	if (rc != 0) {
		wr_out_log_close(path, f, false);
		return rc;
	}
	return 0;
}

/* A polled port's misses, queues' load and classes. */
static void
port_rx(FILE *f, const struct wr_report_view *v, const struct wr_report_row *r,
	struct wr_report_class *prev, uint64_t interval_ns, bool final)
{
	unsigned int q, c;

	fprintf(f, ", \"rx_missed\": %llu, \"rx_busy\": [",
		(unsigned long long)wr_report_rx_missed(r));
	for (q = 0; q < r->n_rxq; q++)
		fprintf(f, "%s%.4f", q ? ", " : "", r->rxq[q].active_ns ?
			(double)r->rxq[q].busy_ns / (double)r->rxq[q].active_ns :
			0.0);
	fputs("], \"rx_classes\": [", f);
	for (c = 0; c < v->n_classes; c++) {
		const struct wr_report_class *k = &r->cls[c];
		uint64_t pk = final ? k->pkts : k->pkts - prev[c].pkts;
		uint64_t by = final ? k->bytes : k->bytes - prev[c].bytes;
		/* Received bytes exclude the FCS; wirerate's L2 counts it. */
		struct wr_rates rt = wr_rates_calc(pk, by + (uint64_t)WR_FCS_LEN *
						   pk, final ? v->elapsed_ns :
						   interval_ns);

		fprintf(f, "%s{\"name\": ", c ? ", " : "");
		wr_out_json_str(f, v->class_names[c]);
		fprintf(f, ", \"pkts\": %llu, \"bytes\": %llu, \"kpps\": %.3f"
			", \"mbps_l2\": %.3f, \"mbps_l1\": %.3f}",
			(unsigned long long)k->pkts, (unsigned long long)k->bytes,
			rt.kpps, rt.mbps_l2, rt.mbps_l1);
		prev[c].pkts = k->pkts;
		prev[c].bytes = k->bytes;
	}
	fputc(']', f);
}

static void
row(FILE *f, const struct wr_report_row *r, struct wr_counters *prev,
    uint64_t interval_ns, bool stream, bool final)
{
	struct wr_rates rt;

	if (final)
		rt = wr_rates_calc(r->total.tx_pkts, r->total.tx_bytes,
				   r->duration_ns);
	else
		rt = wr_rates_calc(r->total.tx_pkts - prev->tx_pkts,
				   r->total.tx_bytes - prev->tx_bytes,
				   interval_ns);
	fprintf(f, "{\"port\": %u, \"name\": ", r->port);
	wr_out_json_str(f, r->name);
	fprintf(f, ", \"tx_pkts\": %llu, \"tx_bytes\": %llu, \"tx_full\": %llu"
		", \"alloc_fail\": %llu, \"kpps\": %.3f, \"mbps_l2\": %.3f"
		", \"mbps_l1\": %.3f",
		(unsigned long long)r->total.tx_pkts,
		(unsigned long long)r->total.tx_bytes,
		(unsigned long long)r->total.tx_full,
		(unsigned long long)r->total.alloc_fail, rt.kpps, rt.mbps_l2,
		rt.mbps_l1);
	if (final)
		fprintf(f, ", \"duration_s\": %.9f",
			(double)r->duration_ns / 1e9);
	if (!stream && r->has_rx)
		fprintf(f, ", \"rx_pkts\": %llu, \"rx_foreign\": %llu"
			", \"rx_bad_sig\": %llu",
			(unsigned long long)r->rx_pkts,
			(unsigned long long)r->rx_foreign,
			(unsigned long long)r->rx_bad_sig);
	if (stream && r->has_rx) {
		fprintf(f, ", \"rx_pkts\": %llu, \"lost\": %llu"
			", \"reordered\": %llu, \"duplicated\": %llu"
			", \"latency_ns\": {",
			(unsigned long long)r->rx_pkts,
			(unsigned long long)r->lost,
			(unsigned long long)r->reordered,
			(unsigned long long)r->duplicated);
		wr_latency_json_write(f, &r->lat, WR_LAT_JSON_PLAIN);
		fputc('}', f);
	}
	*prev = r->total;
}

int
wr_jsonl_write(struct wr_jsonl *j, const struct wr_report_view *v,
	       uint64_t wall_ns, bool final)
{
	uint64_t interval_ns = v->elapsed_ns > j->prev_ns ?
		v->elapsed_ns - j->prev_ns : 0;
	unsigned int i, np, ns;

	np = v->n_ports < j->n_ports ? v->n_ports : j->n_ports;
	ns = v->n_streams < j->n_streams ? v->n_streams : j->n_streams;
	fprintf(j->f, "{\"t\": %llu.%06llu, \"elapsed_s\": %.6f"
		", \"interval_s\": %.6f, \"final\": %s, \"ports\": [",
		(unsigned long long)(wall_ns / 1000000000ull),
		(unsigned long long)(wall_ns % 1000000000ull / 1000),
		(double)v->elapsed_ns / 1e9, (double)interval_ns / 1e9,
		final ? "true" : "false");
	for (i = 0; i < np; i++) {
		if (i > 0)
			fputs(", ", j->f);
		row(j->f, &v->ports[i], &j->prev[i], interval_ns, false,
		    final);
		if (v->ports[i].has_rx)
			port_rx(j->f, v, &v->ports[i],
				&j->prev_cls[i * WR_RX_CLASSES_MAX],
				interval_ns, final);
		fputc('}', j->f);
	}
	fputs("], \"streams\": [", j->f);
	for (i = 0; i < ns; i++) {
		if (i > 0)
			fputs(", ", j->f);
		row(j->f, &v->streams[i], &j->prev[j->n_ports + i],
		    interval_ns, true, final);
		fputc('}', j->f);
	}
	fputs("]}\n", j->f);
	j->prev_ns = v->elapsed_ns;
	if (fflush(j->f) != 0 || ferror(j->f)) {
		if (j->err == 0)
			j->err = errno != 0 ? -errno : -EIO;
		return j->err;
	}
	return 0;
}

int
wr_jsonl_close(struct wr_jsonl *j)
{
	int rc = j->err;

	if (j->path != NULL) {
		/* A log that could not be written whole is removed. */
		int crc = wr_out_log_close(j->path, j->f, rc == 0);

		if (rc == 0)
			rc = crc;
	}
	j->f = NULL;
	free(j->path);
	j->path = NULL;
	free(j->prev);
	j->prev = NULL;
	free(j->prev_cls);
	j->prev_cls = NULL;
	return rc;
}

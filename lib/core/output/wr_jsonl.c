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

int
wr_jsonl_write(struct wr_jsonl *j, const struct wr_report_view *v,
	       uint64_t wall_ns, bool final)
{
	uint64_t interval_ns = v->elapsed_ns > j->prev_ns ?
		v->elapsed_ns - j->prev_ns : 0;
	struct wr_sink_file fs;
	struct wr_sink s;
	unsigned int i, np, ns;

	np = v->n_ports < j->n_ports ? v->n_ports : j->n_ports;
	ns = v->n_streams < j->n_streams ? v->n_streams : j->n_streams;
	fprintf(j->f, "{\"t\": %llu.%06llu, \"elapsed_s\": %.6f"
		", \"interval_s\": %.6f, \"final\": %s, \"ports\": [",
		(unsigned long long)(wall_ns / 1000000000ull),
		(unsigned long long)(wall_ns % 1000000000ull / 1000),
		(double)v->elapsed_ns / 1e9, (double)interval_ns / 1e9,
		final ? "true" : "false");
	/* Rows as the results JSON writes them (wr_report_row_emit()), the
	 * last line with its whole-run rates, the others with the interval's. */
	for (i = 0; i < np + ns; i++) {
		bool stream = i >= np;
		const struct wr_report_row *r = stream ?
			&v->streams[i - np] : &v->ports[i];
		struct wr_counters *prev = &j->prev[stream ?
			j->n_ports + (i - np) : i];
		struct wr_report_class *prev_cls = stream ? NULL :
			&j->prev_cls[i * WR_RX_CLASSES_MAX];
		const struct wr_report_span span = {
			.tx_base = prev, .cls_base = prev_cls,
			.ns = interval_ns,
		};
		unsigned int c;

		if (i == np)
			fputs("], \"streams\": [", j->f);
		else if (i > 0)
			fputs(", ", j->f);
		wr_sink_file_init(&fs, &s, j->f, false);
		wr_report_row_emit(&s, v, r, stream, final ? NULL : &span);
		*prev = r->total;
		for (c = 0; !stream && c < v->n_classes; c++) {
			prev_cls[c].pkts = r->cls[c].pkts;
			prev_cls[c].bytes = r->cls[c].bytes;
		}
	}
	if (ns == 0)
		fputs("], \"streams\": [", j->f);
	fputc(']', j->f);
	if (j->more != NULL && j->more(j->f, j->more_arg) != 0 && j->err == 0)
		j->err = -EIO;
	fputs("}\n", j->f);
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

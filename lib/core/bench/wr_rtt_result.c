/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rtt_result: sweep sizes, and the round-trip results as a table, CSV and JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_frame.h"
#include "wr_out.h"
#include "wr_parse.h"
#include "wr_rtt_result.h"
#include "wr_sig.h"
#include "wr_stream.h"

int
wr_rtt_sizes(uint32_t from, uint32_t to, uint32_t step, uint32_t hdr,
	     struct wr_rtt_size *out, unsigned int cap, unsigned int *n_out,
	     unsigned int *n_raised)
{
	uint64_t p;

	*n_out = 0;
	*n_raised = 0;
	if (step == 0 || from > to)
		return -EINVAL;
	if ((uint64_t)(to < WR_SIG_LEN ? WR_SIG_LEN : to) + hdr + WR_FCS_LEN >
	    WR_FRAME_MAX)
		return -EINVAL;
	for (p = from; p <= to; p += step) {
		struct wr_rtt_size s = { .asked = (uint32_t)p,
					 .payload = (uint32_t)p };

		if (s.payload < WR_SIG_LEN) {
			s.payload = WR_SIG_LEN;
			(*n_raised)++;
			/* Several sizes below the signature are one size. */
			if (*n_out > 0 && out[*n_out - 1].payload == s.payload)
				continue;
		}
		s.frame = s.payload + hdr + WR_FCS_LEN;
		if (s.frame < WR_FRAME_MIN)
			s.frame = WR_FRAME_MIN;
		if (*n_out == cap)
			return -E2BIG;
		out[(*n_out)++] = s;
	}
	return 0;
}

int
wr_rtt_parse_sizes(const char *s, uint32_t *from, uint32_t *to,
		   uint32_t *step, char *why, size_t why_len)
{
	char buf[64], *parts[3], *save = NULL, *tok;
	uint64_t v[3];
	unsigned int n = 0, i;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(why, why_len, "too long");
		return -EINVAL;
	}
	/* strtok_r would merge "50::10" into two fields: split by hand. */
	snprintf(buf, sizeof(buf), "%s", s);
	tok = buf;
	for (;;) {
		if (n == 3) {
			snprintf(why, why_len, "more than three fields");
			return -EINVAL;
		}
		parts[n++] = tok;
		save = strchr(tok, ':');
		if (save == NULL)
			break;
		*save = '\0';
		tok = save + 1;
	}
	if (n == 2) {
		snprintf(why, why_len, "FROM:TO needs a :STEP");
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (wr_parse_u64(parts[i], i == 2 ? 1 : 0, WR_FRAME_MAX, &v[i],
				 why, why_len) != 0)
			return -EINVAL;
	*from = (uint32_t)v[0];
	*to = n == 3 ? (uint32_t)v[1] : *from;
	*step = n == 3 ? (uint32_t)v[2] : 1;
	if (*from > *to) {
		snprintf(why, why_len, "FROM is above TO");
		return -EINVAL;
	}
	return 0;
}

static double
us(uint64_t ns)
{
	return (double)ns / 1e3;
}

void
wr_rtt_table_header(FILE *out)
{
	fprintf(out, "%8s %6s %10s %10s %10s %10s %10s %10s %8s\n",
		"payload", "frame", "round", "min", "avg", "p50", "p99", "max",
		"lost");
	fprintf(out, "%8s %6s %10s %10s %10s %10s %10s %10s %8s\n",
		"bytes", "bytes", "trips", "us", "us", "us", "us", "us", "");
	fflush(out);
}

void
wr_rtt_table_row(FILE *out, const struct wr_rtt_row *r)
{
	if (r->rtt.n == 0) {
		/* Every round trip lost: no time to show. */
		fprintf(out, "%8u %6u %10llu %10s %10s %10s %10s %10s %8llu\n",
			r->size.payload, r->size.frame, 0ull, "-", "-", "-",
			"-", "-", (unsigned long long)r->lost);
		fflush(out);
		return;
	}
	fprintf(out, "%8u %6u %10llu %10.2f %10.2f %10.2f %10.2f %10.2f %8llu\n",
		r->size.payload, r->size.frame,
		(unsigned long long)r->rtt.n, us(r->rtt.min), us(r->rtt.avg),
		us(r->rtt.p50), us(r->rtt.p99), us(r->rtt.max),
		(unsigned long long)r->lost);
	fflush(out);
}

/* One result's CSV columns after the payload: frame_bytes .. max_us
 * (without avg_us when @p avg is false: side by side puts it first). */
static void
csv_fields(FILE *out, const struct wr_rtt_row *r, bool avg)
{
	fprintf(out, "%u,%llu,%llu,%llu,%llu", r->size.frame,
		(unsigned long long)r->sent, (unsigned long long)r->rtt.n,
		(unsigned long long)r->lost, (unsigned long long)r->late);
	/* No round trip: empty time columns, not 0. */
	if (r->rtt.n == 0) {
		fputs(avg ? ",,,,,," : ",,,,,", out);
		return;
	}
	fprintf(out, ",%.3f", us(r->rtt.min));
	if (avg)
		fprintf(out, ",%.3f", us(r->rtt.avg));
	fprintf(out, ",%.3f,%.3f,%.3f,%.3f", us(r->rtt.p50), us(r->rtt.p90),
		us(r->rtt.p99), us(r->rtt.max));
}

static const char csv_cols[] = "frame_bytes,sent,round_trips,lost,late,"
	"min_us,avg_us,p50_us,p90_us,p99_us,max_us";
static const char csv_cols_no_avg[] = "frame_bytes,sent,round_trips,lost,"
	"late,min_us,p50_us,p90_us,p99_us,max_us";

int
wr_rtt_csv_write(FILE *out, const struct wr_rtt_row *rows, unsigned int n)
{
	unsigned int i;

	fprintf(out, "payload_bytes,%s\n", csv_cols);
	for (i = 0; i < n; i++) {
		fprintf(out, "%u,", rows[i].size.payload);
		csv_fields(out, &rows[i], true);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

/* One result's JSON members after the payload: "frame_bytes" ..
 * "jitter_ns". */
static void
json_fields(FILE *out, const struct wr_rtt_row *r)
{
	const struct wr_latency_summary *l = &r->rtt;

	fprintf(out, "\"frame_bytes\": %u, \"sent\": %llu, "
		"\"round_trips\": %llu, \"lost\": %llu, \"late\": %llu, "
		"\"foreign\": %llu, \"rtt_ns\": ", r->size.frame,
		(unsigned long long)r->sent, (unsigned long long)l->n,
		(unsigned long long)r->lost, (unsigned long long)r->late,
		(unsigned long long)r->foreign);
	/* No round trip: no times, not zeros. */
	if (l->n == 0) {
		fputs("null, \"jitter_ns\": null", out);
		return;
	}
	fputc('{', out);
	wr_latency_json_write(out, l, WR_LAT_JSON_PLAIN);
	fprintf(out, "}, \"jitter_ns\": %.1f", l->jitter_ns);
}

/* The JSON's header members (the one head writer's), up to the list of
 * sizes. */
static void
json_head(FILE *out, const char *schema, const struct wr_rtt_meta *m)
{
	const struct wr_out_head head = {
		.schema = schema,
		.wirerate_version = m->wirerate_version,
		.dpdk_version = m->dpdk_version,
		.stream_file = m->stream_file,
		.stream = m->stream_name,
		.config_file = m->config_file ? m->config_file : "",
		.started_at = m->started_at,
		.stop_reason = m->stop_reason,
		.tsc = m->has_tsc ? &m->tsc : NULL,
	};

	wr_out_json_head(out, &head);
	fputs(",\n  \"device\": ", out);
	wr_out_json_str(out, m->device);
	fprintf(out, ",\n  \"count\": %llu,\n  \"timeout_ns\": %llu",
		(unsigned long long)m->count,
		(unsigned long long)m->timeout_ns);
	fputs(",\n  \"stopped_in_payload\": ", out);
	if (m->stopped_in != 0)
		fprintf(out, "%u", m->stopped_in);
	else
		fputs("null", out);
	fputs(", \"not_measured_payloads\": [", out);
	for (unsigned int i = 0; i < m->n_not_measured; i++)
		fprintf(out, "%s%u", i ? ", " : "", m->not_measured[i].payload);
	fputc(']', out);
}

int
wr_rtt_json_write(FILE *out, const struct wr_rtt_meta *m,
		  const struct wr_rtt_row *rows, unsigned int n)
{
	unsigned int i;

	json_head(out, "wirerate-rtt/1", m);
	fputs(",\n  \"sizes\": [", out);
	for (i = 0; i < n; i++) {
		fprintf(out, "%s{\"payload_bytes\": %u, \"asked_bytes\": %u, ",
			i ? ",\n    " : "\n    ", rows[i].size.payload,
			rows[i].size.asked);
		json_fields(out, &rows[i]);
		fputc('}', out);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

void
wr_rtt_cmp_header(FILE *out, const char *const *names, unsigned int k)
{
	unsigned int j;

	/* The study's table: user data octets, then one average round
	 * trip per stream; the rest of each size after them. */
	fprintf(out, "%8s", "#octets");
	for (j = 0; j < k; j++)
		fprintf(out, " %9.9s (us)", names[j]);
	for (j = 0; j < k; j++)
		fprintf(out, " %8.8s p99 %8.8s lost %8.8s frame", names[j],
			names[j], names[j]);
	fputc('\n', out);
	fflush(out);
}

void
wr_rtt_cmp_row(FILE *out, const struct wr_rtt_row *rows, unsigned int k)
{
	unsigned int j;

	fprintf(out, "%8u", rows[0].size.payload);
	for (j = 0; j < k; j++) {
		if (rows[j].rtt.n == 0)
			fprintf(out, " %14s", "-");
		else
			fprintf(out, " %14.2f", us(rows[j].rtt.avg));
	}
	for (j = 0; j < k; j++) {
		if (rows[j].rtt.n == 0)
			fprintf(out, " %12s", "-");
		else
			fprintf(out, " %12.2f", us(rows[j].rtt.p99));
		fprintf(out, " %13llu %14u", (unsigned long long)rows[j].lost,
			rows[j].size.frame);
	}
	fputc('\n', out);
	fflush(out);
}

int
wr_rtt_cmp_csv_write(FILE *out, const char *const *names, unsigned int k,
		     const struct wr_rtt_row *rows, unsigned int n)
{
	const char *c, *e;
	unsigned int i, j;

	fputs("payload_bytes", out);
	for (j = 0; j < k; j++)
		fprintf(out, ",%s_avg_us", names[j]);
	for (j = 0; j < k; j++)
		for (c = csv_cols_no_avg; *c != '\0'; c = *e ? e + 1 : e) {
			e = strchr(c, ',');
			if (e == NULL)
				e = c + strlen(c);
			fprintf(out, ",%s_%.*s", names[j], (int)(e - c), c);
		}
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct wr_rtt_row *r = &rows[i * k];

		fprintf(out, "%u", r[0].size.payload);
		for (j = 0; j < k; j++) {
			if (r[j].rtt.n == 0)
				fputc(',', out);
			else
				fprintf(out, ",%.3f", us(r[j].rtt.avg));
		}
		for (j = 0; j < k; j++) {
			fputc(',', out);
			csv_fields(out, &r[j], false);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

int
wr_rtt_cmp_json_write(FILE *out, const struct wr_rtt_meta *m,
		      const char *const *names, unsigned int k,
		      const struct wr_rtt_row *rows, unsigned int n)
{
	unsigned int i, j;

	json_head(out, "wirerate-rtt-compare/1", m);
	fputs(",\n  \"streams\": [", out);
	for (j = 0; j < k; j++) {
		if (j)
			fputs(", ", out);
		wr_out_json_str(out, names[j]);
	}
	fputs("],\n  \"sizes\": [", out);
	for (i = 0; i < n; i++) {
		const struct wr_rtt_row *r = &rows[i * k];

		fprintf(out, "%s{\"payload_bytes\": %u, \"asked_bytes\": %u",
			i ? ",\n    " : "\n    ", r[0].size.payload,
			r[0].size.asked);
		for (j = 0; j < k; j++) {
			fputs(", ", out);
			wr_out_json_str(out, names[j]);
			fputs(": {", out);
			json_fields(out, &r[j]);
			fputc('}', out);
		}
		fputc('}', out);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

struct out_job {
	const struct wr_rtt_meta *m;
	const struct wr_rtt_row *rows;
	unsigned int n;
	bool json;
	const char *const *names;   /* side by side: k streams */
	unsigned int k;
};

static int
job_write(FILE *out, const void *arg)
{
	const struct out_job *j = arg;

	if (j->names != NULL)
		return j->json ? wr_rtt_cmp_json_write(out, j->m, j->names,
						       j->k, j->rows, j->n) :
			wr_rtt_cmp_csv_write(out, j->names, j->k, j->rows,
					     j->n);
	return j->json ? wr_rtt_json_write(out, j->m, j->rows, j->n) :
			 wr_rtt_csv_write(out, j->rows, j->n);
}

int
wr_rtt_cmp_csv(const char *path, const char *const *names, unsigned int k,
	       const struct wr_rtt_row *rows, unsigned int n)
{
	struct out_job j = { .rows = rows, .n = n, .names = names, .k = k };

	return wr_out_atomic(path, job_write, &j);
}

int
wr_rtt_cmp_json(const char *path, const struct wr_rtt_meta *m,
		const char *const *names, unsigned int k,
		const struct wr_rtt_row *rows, unsigned int n)
{
	struct out_job j = { .m = m, .rows = rows, .n = n, .json = true,
			     .names = names, .k = k };

	return wr_out_atomic(path, job_write, &j);
}

int
wr_rtt_csv(const char *path, const struct wr_rtt_row *rows, unsigned int n)
{
	struct out_job j = { .rows = rows, .n = n, .json = false };

	return wr_out_atomic(path, job_write, &j);
}

int
wr_rtt_json(const char *path, const struct wr_rtt_meta *m,
	    const struct wr_rtt_row *rows, unsigned int n)
{
	struct out_job j = { .m = m, .rows = rows, .n = n, .json = true };

	return wr_out_atomic(path, job_write, &j);
}

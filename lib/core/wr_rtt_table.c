/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rtt_table: sweep sizes, and the round-trip results as a table, CSV and JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_frame.h"
#include "wr_out.h"
#include "wr_parse.h"
#include "wr_rtt_table.h"
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

int
wr_rtt_csv_write(FILE *out, const struct wr_rtt_row *rows, unsigned int n)
{
	unsigned int i;

	fputs("payload_bytes,frame_bytes,sent,round_trips,lost,late,"
	      "min_us,avg_us,p50_us,p90_us,p99_us,max_us\n", out);
	for (i = 0; i < n; i++) {
		const struct wr_rtt_row *r = &rows[i];

		if (r->rtt.n == 0) {
			/* No round trip: empty time columns, not 0. */
			fprintf(out, "%u,%u,%llu,0,%llu,%llu,,,,,,\n",
				r->size.payload, r->size.frame,
				(unsigned long long)r->sent,
				(unsigned long long)r->lost,
				(unsigned long long)r->late);
			continue;
		}
		fprintf(out, "%u,%u,%llu,%llu,%llu,%llu,%.3f,%.3f,%.3f,%.3f,"
			"%.3f,%.3f\n", r->size.payload, r->size.frame,
			(unsigned long long)r->sent,
			(unsigned long long)r->rtt.n,
			(unsigned long long)r->lost,
			(unsigned long long)r->late, us(r->rtt.min),
			us(r->rtt.avg), us(r->rtt.p50), us(r->rtt.p90),
			us(r->rtt.p99), us(r->rtt.max));
	}
	return ferror(out) ? -EIO : 0;
}

int
wr_rtt_json_write(FILE *out, const struct wr_rtt_meta *m,
		  const struct wr_rtt_row *rows, unsigned int n)
{
	unsigned int i;

	const struct wr_out_head head = {
		.schema = "wirerate-rtt/1",
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
	fprintf(out, ",\n  \"count\": %llu,\n  \"timeout_ns\": %llu,\n"
		"  \"sizes\": [", (unsigned long long)m->count,
		(unsigned long long)m->timeout_ns);
	for (i = 0; i < n; i++) {
		const struct wr_rtt_row *r = &rows[i];
		const struct wr_latency_summary *l = &r->rtt;

		fprintf(out, "%s{\"payload_bytes\": %u, \"asked_bytes\": %u, "
			"\"frame_bytes\": %u, \"sent\": %llu, "
			"\"round_trips\": %llu, \"lost\": %llu, \"late\": %llu, "
			"\"foreign\": %llu, \"rtt_ns\": ",
			i ? ",\n    " : "\n    ", r->size.payload,
			r->size.asked, r->size.frame,
			(unsigned long long)r->sent, (unsigned long long)l->n,
			(unsigned long long)r->lost,
			(unsigned long long)r->late,
			(unsigned long long)r->foreign);
		/* No round trip: no times, not zeros. */
		if (l->n == 0) {
			fputs("null, \"jitter_ns\": null}", out);
			continue;
		}
		fputc('{', out);
		wr_latency_json_write(out, l, WR_LAT_JSON_PLAIN);
		fprintf(out, "}, \"jitter_ns\": %.1f}", l->jitter_ns);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

struct out_job {
	const struct wr_rtt_meta *m;
	const struct wr_rtt_row *rows;
	unsigned int n;
	bool json;
};

static int
job_write(FILE *out, const void *arg)
{
	const struct out_job *j = arg;

	return j->json ? wr_rtt_json_write(out, j->m, j->rows, j->n) :
			 wr_rtt_csv_write(out, j->rows, j->n);
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

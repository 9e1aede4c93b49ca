/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench: sweep and RFC 2544 results: option values, rows from counts, table, CSV and JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_bench.h"
#include "wr_out.h"
#include "wr_parse.h"
#include "wr_stats.h"
#include "wr_stream.h"

static int
why_set(char *why, size_t len, const char *text)
{
	if (why != NULL && len > 0)
		snprintf(why, len, "%s", text);
	return -EINVAL;
}

int
wr_bench_parse_sizes(const char *s, uint16_t *sizes, unsigned int cap,
		     unsigned int *n, char *why, size_t why_len)
{
	static const char what[] = "expected frame sizes 64..9018 separated "
				   "by commas, such as 64,128,1518, each once";
	char item[16];
	unsigned int k = 0, i;
	uint64_t v;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		if (len == 0 || len >= sizeof(item) || k == cap)
			return why_set(why, why_len, what);
		memcpy(item, s, len);
		item[len] = '\0';
		if (wr_parse_u64(item, WR_FRAME_MIN, WR_FRAME_MAX, &v, NULL,
				 0) != 0)
			return why_set(why, why_len, what);
		for (i = 0; i < k; i++)
			if (sizes[i] == v)
				return why_set(why, why_len, what);
		sizes[k++] = (uint16_t)v;
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	*n = k;
	return 0;
}

int
wr_bench_parse_ppm(const char *s, uint32_t *ppm, char *why, size_t why_len)
{
	static const char what[] = "expected a percentage 0..100 such as "
				   "0, 0.1 or 0.5% (at most 4 decimals)";
	uint64_t whole = 0, frac = 0, scale = 10000; /* 1 % = 10^4 ppm */
	const char *p = s;
	unsigned int digits = 0;

	/* Integers only, so 0.1 is exactly 1000 ppm. */
	for (; *p >= '0' && *p <= '9'; p++, digits++)
		if ((whole = whole * 10 + (uint64_t)(*p - '0')) > 100)
			return why_set(why, why_len, what);
	if (digits == 0)
		return why_set(why, why_len, what);
	if (*p == '.') {
		for (p++, digits = 0; *p >= '0' && *p <= '9'; p++, digits++) {
			if (digits == 4)
				return why_set(why, why_len, what);
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
		}
		if (digits == 0)
			return why_set(why, why_len, what);
	}
	if (*p == '%')
		p++;
	if (*p != '\0' || whole * 10000 + frac > 1000000)
		return why_set(why, why_len, what);
	*ppm = (uint32_t)(whole * 10000 + frac);
	return 0;
}

void
wr_sweep_row_calc(struct wr_sweep_row *r, uint16_t size, uint64_t tx_pkts,
		  uint64_t duration_ns, uint32_t link_mbps)
{
	struct wr_rates rt = wr_rates_calc(tx_pkts, (uint64_t)size * tx_pkts,
					   duration_ns);

	memset(r, 0, sizeof(*r));
	r->size = size;
	r->tx_pkts = tx_pkts;
	r->duration_ns = duration_ns;
	r->kpps = rt.kpps;
	r->mbps_l2 = rt.mbps_l2;
	r->mbps_l1 = rt.mbps_l1;
	r->link_mbps = link_mbps;
	r->line_pct = link_mbps ? rt.mbps_l1 / link_mbps * 100 : 0;
}

static void
pct_text(double pct, bool known, char *buf, size_t len)
{
	if (known)
		snprintf(buf, len, "%.2f", pct);
	else
		snprintf(buf, len, "n/a");
}

void
wr_sweep_print(FILE *out, const struct wr_sweep_row *rows, unsigned int n)
{
	unsigned int i;
	char pct[32];

	fprintf(out, "%10s %12s %12s %12s %10s %14s\n", "frame size",
		"Kpps", "Mbps L1", "Mbps L2", "% of line", "tx_pkts");
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];

		pct_text(r->line_pct, r->link_mbps != 0, pct, sizeof(pct));
		fprintf(out, "%10u %12.3f %12.3f %12.3f %10s %14llu%s\n",
			r->size, r->kpps, r->mbps_l1, r->mbps_l2, pct,
			(unsigned long long)r->tx_pkts,
			r->cut_short ? "  (cut short by a signal or a lost "
				       "link: not a full trial)" : "");
	}
	fprintf(out, "Mbps L1 = (frame size + 20) x Kpps x 8 / 1000; frame "
		"sizes include the FCS\n");
	fflush(out);
}

int
wr_sweep_csv_write(FILE *out, const struct wr_sweep_row *rows, unsigned int n)
{
	unsigned int i;

	fputs("frame_size,kpps,mbps_l1,mbps_l2,line_pct,tx_pkts,duration_s,"
	      "pacer_skipped,cut_short\n", out);
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];
		char pct[32] = "";

		if (r->link_mbps != 0)
			snprintf(pct, sizeof(pct), "%.4f", r->line_pct);
		fprintf(out, "%u,%.3f,%.3f,%.3f,%s,%llu,%.9f,%llu,%d\n",
			r->size, r->kpps, r->mbps_l1, r->mbps_l2, pct,
			(unsigned long long)r->tx_pkts,
			(double)r->duration_ns / 1e9,
			(unsigned long long)r->pacer_skipped, r->cut_short);
	}
	return ferror(out) ? -EIO : 0;
}

static void
json_key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ",\n  \"%s\": ", key);
	wr_out_json_str(out, val ? val : "");
}

static void
json_meta(FILE *out, const char *schema, const struct wr_bench_meta *m)
{
	fputs("{\n  \"schema\": ", out);
	wr_out_json_str(out, schema ? schema : "");
	json_key_str(out, "wirerate_version", m->wirerate_version);
	json_key_str(out, "dpdk_version", m->dpdk_version);
	json_key_str(out, "stream_file", m->stream_file);
	json_key_str(out, "stream_file_sha256", m->stream_sha256);
	json_key_str(out, "stream", m->stream);
	json_key_str(out, "config_file", m->config_file);
	json_key_str(out, "started_at", m->started_at);
	json_key_str(out, "stop_reason", m->stop_reason);
	json_key_str(out, "tx_device", m->tx_device);
	json_key_str(out, "tx_driver", m->tx_driver);
	fprintf(out, ",\n  \"link_speed_mbps\": %u", m->link_mbps);
}

int
wr_sweep_json_write(FILE *out, const struct wr_bench_meta *m,
		    const struct wr_sweep_row *rows, unsigned int n)
{
	unsigned int i;

	json_meta(out, "wirerate-sweep/1", m);
	fprintf(out, ",\n  \"duration_per_size_s\": %.9f,\n  \"rows\": [",
		(double)m->duration_ns / 1e9);
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];
		char pct[32] = "null";

		if (r->link_mbps != 0)
			snprintf(pct, sizeof(pct), "%.4f", r->line_pct);
		fprintf(out, "%s\n    {\"frame_size\": %u, \"tx_pkts\": %llu, "
			"\"duration_s\": %.9f, \"kpps\": %.3f, \"mbps_l1\": %.3f, "
			"\"mbps_l2\": %.3f, \"line_pct\": %s, "
			"\"pacer_skipped\": %llu, \"tx_full\": %llu, "
			"\"cut_short\": %s}",
			i ? "," : "", r->size, (unsigned long long)r->tx_pkts,
			(double)r->duration_ns / 1e9, r->kpps, r->mbps_l1,
			r->mbps_l2, pct, (unsigned long long)r->pacer_skipped,
			(unsigned long long)r->tx_full,
			r->cut_short ? "true" : "false");
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

bool
wr_bench_trial_valid(uint64_t sent, uint64_t pacer_skipped)
{
	unsigned __int128 due = (unsigned __int128)sent + pacer_skipped;

	return (unsigned __int128)pacer_skipped * 1000000 <=
	       due * WR_BENCH_SKIP_PPM;
}

/* Throughput of a row in pps, Mbps L1, Mbps L2 and % of the line. */
static void
row_rates(const struct wr_rfc2544_row *r, double *pps, double *l1,
	  double *l2, double *pct)
{
	*pps = (double)r->res.throughput_millipps / 1e3;
	*l1 = (double)r->res.l1_bps / 1e6;
	*l2 = (double)r->res.l2_bps / 1e6;
	*pct = r->link_mbps ? *l1 / r->link_mbps * 100 : 0;
}

void
wr_rfc2544_print(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, j;
	double pps, l1, l2, pct;
	char p[32];

	fprintf(out, "\nRFC 2544 throughput\n%10s %14s %12s %12s %10s %7s\n",
		"frame size", "pps", "Mbps L1", "Mbps L2", "% of line",
		"trials");
	for (i = 0; i < n; i++) {
		row_rates(&rows[i], &pps, &l1, &l2, &pct);
		pct_text(pct, rows[i].link_mbps != 0, p, sizeof(p));
		fprintf(out, "%10u %14.3f %12.3f %12.3f %10s %7u%s\n",
			rows[i].size, pps, l1, l2, p, rows[i].n_trials,
			rows[i].res.converged ? "" : "  (not converged)");
	}
	fprintf(out, "\ntrials\n%10s %5s %14s %14s %14s %12s %12s %6s\n",
		"frame size", "#", "rate pps", "sent", "received", "lost",
		"achieved pps", "result");
	for (i = 0; i < n; i++)
		for (j = 0; j < rows[i].n_trials; j++) {
			const struct wr_bench_trial *t = &rows[i].trials[j];

			fprintf(out, "%10u %5u %14.3f %14llu %14llu %12lld %12.0f %6s\n",
				rows[i].size, j + 1,
				(double)t->rate_millipps / 1e3,
				(unsigned long long)t->sent,
				(unsigned long long)t->received,
				(long long)(t->sent - t->received),
				t->duration_ns ? (double)t->sent * 1e9 /
				(double)t->duration_ns : 0.0,
				!t->counted ? "redo" : t->pass ? "pass" : "fail");
		}
	fflush(out);
}

int
wr_rfc2544_csv_write(FILE *out, const struct wr_rfc2544_row *rows,
		     unsigned int n)
{
	unsigned int i;
	double pps, l1, l2, pct;

	fputs("frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,trials,"
	      "converged\n", out);
	for (i = 0; i < n; i++) {
		char p[32] = "";

		row_rates(&rows[i], &pps, &l1, &l2, &pct);
		if (rows[i].link_mbps != 0)
			snprintf(p, sizeof(p), "%.4f", pct);
		fprintf(out, "%u,%.3f,%.6f,%.6f,%s,%u,%s\n", rows[i].size, pps,
			l1, l2, p, rows[i].n_trials,
			rows[i].res.converged ? "true" : "false");
	}
	return ferror(out) ? -EIO : 0;
}

int
wr_rfc2544_json_write(FILE *out, const struct wr_bench_meta *m,
		      const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, j;
	double pps, l1, l2, pct;

	json_meta(out, "wirerate-rfc2544/1", m);
	json_key_str(out, "rx_device", m->rx_device);
	fprintf(out, ",\n  \"trial_s\": %.9f, \"drain_s\": %.9f, "
		"\"loss_tolerance_pct\": %.4f, \"max_rate_pps\": %.3f,"
		"\n  \"results\": [", (double)m->duration_ns / 1e9,
		(double)m->drain_ns / 1e9, m->loss_ppm / 1e4,
		(double)m->max_millipps / 1e3);
	for (i = 0; i < n; i++) {
		const struct wr_rfc2544_row *r = &rows[i];
		char p[32] = "null";

		row_rates(r, &pps, &l1, &l2, &pct);
		if (r->link_mbps != 0)
			snprintf(p, sizeof(p), "%.4f", pct);
		fprintf(out, "%s\n    {\"frame_size\": %u, \"throughput_pps\": "
			"%.3f, \"mbps_l1\": %.6f, \"mbps_l2\": %.6f, "
			"\"line_pct\": %s, \"resolution_pps\": %.3f, "
			"\"converged\": %s, \"trials\": [", i ? "," : "",
			r->size, pps, l1, l2, p,
			(double)r->res.resolution_millipps / 1e3,
			r->res.converged ? "true" : "false");
		for (j = 0; j < r->n_trials; j++) {
			const struct wr_bench_trial *t = &r->trials[j];

			fprintf(out, "%s\n      {\"rate_pps\": %.3f, \"sent\": "
				"%llu, \"received\": %llu, \"lost\": %lld, "
				"\"duration_s\": %.9f, \"pacer_skipped\": %llu, "
				"\"rx_frames\": %llu, \"rx_nic_pkts\": %llu, "
				"\"rx_nic_missed\": %llu, \"valid\": %s, "
				"\"counted\": %s, \"pass\": %s}", j ? "," : "",
				(double)t->rate_millipps / 1e3,
				(unsigned long long)t->sent,
				(unsigned long long)t->received,
				(long long)(t->sent - t->received),
				(double)t->duration_ns / 1e9,
				(unsigned long long)t->pacer_skipped,
				(unsigned long long)t->rx_frames,
				(unsigned long long)t->rx_nic_pkts,
				(unsigned long long)t->rx_nic_missed,
				t->valid ? "true" : "false",
				t->counted ? "true" : "false",
				t->pass ? "true" : "false");
		}
		fputs("]}", out);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}


/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_result: what the benchmarks' results share (option values, metadata, plans and estimates) and the sweep's: rows from counts, table, CSV and JSON (RFC 2544's: wr_rfc2544_result.c). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_bench_result.h"
#include "wr_bench_result_priv.h"
#include "wr_out.h"
#include "wr_parse.h"
#include "wr_rate.h"
#include "wr_stats.h"
#include "wr_stream.h"

static int
why_set(char *why, size_t len, const char *text)
{
	if (why != NULL && len > 0)
		snprintf(why, len, "%s", text);
	return -EINVAL;
}

/* Copy the comma-separated item at *s into @p item and move *s past its
 * comma (NULL after the last item).  @return 0, or -EINVAL for an empty item
 * or one of item_len bytes or more. */
static int
list_next(const char **s, char *item, size_t item_len)
{
	const char *comma = strchr(*s, ',');
	size_t len = comma ? (size_t)(comma - *s) : strlen(*s);

	if (len == 0 || len >= item_len)
		return -EINVAL;
	memcpy(item, *s, len);
	item[len] = '\0';
	*s = comma ? comma + 1 : NULL;
	return 0;
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

	while (s != NULL) {
		if (k == cap || list_next(&s, item, sizeof(item)) != 0)
			return why_set(why, why_len, what);
		if (wr_parse_u64(item, WR_FRAME_MIN, WR_FRAME_MAX, &v, NULL,
				 0) != 0)
			return why_set(why, why_len, what);
		for (i = 0; i < k; i++)
			if (sizes[i] == v)
				return why_set(why, why_len, what);
		sizes[k++] = (uint16_t)v;
	}
	*n = k;
	return 0;
}

int
wr_bench_parse_pairs(const char *s, uint16_t (*pairs)[2], unsigned int cap,
		     unsigned int *n, char *why, size_t why_len)
{
	static const char what[] = "expected port pairs TX:RX separated by "
				   "commas, such as 0:1,2:3 (ports 0..31, "
				   "each pair once; 0:0 is a loopback)";
	unsigned int k = 0, i;
	char item[16], *colon;
	uint64_t a, b;

	while (s != NULL) {
		if (k == cap || list_next(&s, item, sizeof(item)) != 0)
			return why_set(why, why_len, what);
		colon = strchr(item, ':');
		if (colon == NULL)
			return why_set(why, why_len, what);
		*colon = '\0';
		if (wr_parse_u64(item, 0, 31, &a, NULL, 0) != 0 ||
		    wr_parse_u64(colon + 1, 0, 31, &b, NULL, 0) != 0)
			return why_set(why, why_len, what);
		for (i = 0; i < k; i++)
			if (pairs[i][0] == a && pairs[i][1] == b)
				return why_set(why, why_len, what);
		pairs[k][0] = (uint16_t)a;
		pairs[k][1] = (uint16_t)b;
		k++;
	}
	*n = k;
	return 0;
}

int
wr_bench_port_check(unsigned int port, unsigned int n_ports, char *why,
		    size_t why_len)
{
	if (n_ports == 0 || port < n_ports)
		return 0;
	if (why != NULL && why_len > 0)
		snprintf(why, why_len, "expected a port index 0..%u (there %s "
			 "%u port%s)", n_ports - 1, n_ports == 1 ? "is" : "are",
			 n_ports, n_ports == 1 ? "" : "s");
	return -ENODEV;
}

/* A rate spec's unit as written, and its value's scale to that unit. */
static const char *
rate_unit(enum wr_rate_unit u)
{
	static const char *const names[] = {
#define WR_X(e, name) [WR_RATE_##e] = name,
		WR_RATE_UNITS(WR_X)
#undef WR_X
	};

	return (unsigned int)u < WR_RATE__COUNT ? names[u] : "?";
}

static double
rate_scale(enum wr_rate_unit u)
{
	/* millipps; bits/s; millionths of the link, shown in percent */
	return u == WR_RATE_PPS ? 1e3 : u == WR_RATE_PERCENT ? 1e4 : 1;
}

int
wr_bench_rate_order(const struct wr_rate_spec *min,
		    const struct wr_rate_spec *max, const uint16_t *sizes,
		    unsigned int n, uint32_t link_mbps, char *why,
		    size_t why_len)
{
	unsigned int i;

	if (min->unit == WR_RATE_MAX || max->unit == WR_RATE_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		struct wr_size_avg avg = { .bytes = sizes[i], .frames = 1 };
		uint64_t lo, hi;

		if (min->unit == max->unit) {
			lo = min->value;
			hi = max->value;
		} else if (wr_rate_millipps(min, &avg, link_mbps, &lo) != 0 ||
			   wr_rate_millipps(max, &avg, link_mbps, &hi) != 0) {
			continue;
		}
		if (lo <= hi)
			continue;
		if (why != NULL && why_len > 0 && min->unit == max->unit)
			snprintf(why, why_len, "expected at most --max-rate "
				 "(%.4f %s), got %.4f %s", (double)hi /
				 rate_scale(max->unit), rate_unit(max->unit),
				 (double)lo / rate_scale(min->unit),
				 rate_unit(min->unit));
		else if (why != NULL && why_len > 0)
			snprintf(why, why_len, "expected at most --max-rate "
				 "(%.3f pps at %u bytes), got %.3f pps",
				 (double)hi / 1e3, sizes[i], (double)lo / 1e3);
		return -EINVAL;
	}
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
		  uint64_t duration_ns, uint32_t line_mbps,
		  const struct wr_txlimit_tx *tx)
{
	struct wr_rates rt = wr_rates_calc(tx_pkts, (uint64_t)size * tx_pkts,
					   duration_ns);
	/* The line within the resolution either side (the same 0.1 % as a
	 * search's default): above it, the port's speed is not the wire's. */
	double tol = WR_RFC2544_RESOLUTION_PPM / 1e4;

	memset(r, 0, sizeof(*r));
	r->size = size;
	r->tx_pkts = tx_pkts;
	r->duration_ns = duration_ns;
	r->kpps = rt.kpps;
	r->mbps_l2 = rt.mbps_l2;
	r->mbps_l1 = rt.mbps_l1;
	r->link_mbps = line_mbps;
	r->line_pct = line_mbps ? rt.mbps_l1 / line_mbps * 100 : 0;
	if (tx != NULL) {
		r->pacer_skipped = tx->pacer_skipped;
		r->tx_full = tx->tx_full;
		r->alloc_fail = tx->alloc_fail;
		r->usage = tx->usage;
	}
	/* A sweep's rates are the generator's own: say when the line or the
	 * port, not the TX lcore, held them. */
	if (line_mbps != 0 && r->line_pct >= 100 - tol &&
	    r->line_pct <= 100 + tol) {
		r->limited_by = "line";
		snprintf(r->limit_why, sizeof(r->limit_why), "%.2f %% of the "
			 "%u Mbps line", r->line_pct, line_mbps);
	} else if (tx != NULL && wr_txlimit_port(tx, r->limit_why,
							 sizeof(r->limit_why))) {
		r->limited_by = "port";
	} else {
		r->limited_by = "generator";
		snprintf(r->limit_why, sizeof(r->limit_why), "the TX lcore "
			 "sent as fast as it could%s", line_mbps == 0 ?
			 " (the port has no line rate)" : r->line_pct > 100 ?
			 " (above the port's reported speed: not the "
			 "wire's)" : "");
	}
}

/* A sweep's JSON up to its list: the metadata, the time per trial. */
static void
json_head(FILE *out, const char *schema, const struct wr_bench_meta *m,
	  const char *duration_key, const char *list_key)
{
	wr_bench_json_meta(out, schema, m);
	fprintf(out, ",\n  \"%s\": %.9f,\n  \"%s\": [", duration_key,
		(double)m->duration_ns / 1e9, list_key);
}

int
wr_sweep_stat_calc(struct wr_sweep_stat *st, const struct wr_sweep_row *rows,
		   const struct wr_sweep_echo *echo, uint32_t n,
		   int32_t payload_off)
{
	double *v[9];
	uint32_t i, k;
	int rc = 0;

	if (st == NULL || rows == NULL || n == 0 || n > WR_SWEEP_REPEATS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (rows[i].size != rows[0].size ||
		    (payload_off >= 0 && rows[i].size < payload_off + 4))
			return -EINVAL;
	for (k = 0; k < 9; k++) {
		v[k] = calloc(n, sizeof(double));
		if (v[k] == NULL)
			rc = -ENOMEM;
	}
	if (rc == 0) {
		/* Goodput: the bytes above the UDP/TCP header, per second
		 * (Mbps per Kpps: one frame's such bytes, in kbit). */
		double good = payload_off < 0 ? 0 : (double)wr_goodput_bytes(
			rows[0].size, 1, (uint32_t)payload_off) * 8 / 1000;

		memset(st, 0, sizeof(*st));
		st->size = rows[0].size;
		st->n = n;
		st->payload_off = payload_off;
		st->echo = echo != NULL;
		st->limited_by = rows[0].limited_by;
		for (i = 0; i < n; i++) {
			const struct wr_sweep_row *r = &rows[i];
			double secs = r->duration_ns / 1e9;

			v[0][i] = r->kpps;
			v[1][i] = r->mbps_l1;
			v[2][i] = r->mbps_l2;
			v[3][i] = r->kpps * good;
			st->tx_pkts += r->tx_pkts;
			/* The worst repeat's: the generator over the port
			 * over the line. */
			if (strcmp(r->limited_by, "generator") == 0 ||
			    (strcmp(r->limited_by, "port") == 0 &&
			     strcmp(st->limited_by, "line") == 0))
				st->limited_by = r->limited_by;
			if (echo == NULL)
				continue;
			v[4][i] = secs > 0 ? echo[i].rx_pkts / secs / 1e3 : 0;
			v[5][i] = v[4][i] * r->size * 8 / 1000;
			v[6][i] = v[4][i] * good;
			v[7][i] = r->tx_pkts ? (double)(r->tx_pkts > echo[i].rx_pkts ?
					 r->tx_pkts - echo[i].rx_pkts : 0) * 100 /
					 (double)r->tx_pkts : 0;
			st->rx_pkts += echo[i].rx_pkts;
			st->lost += r->tx_pkts > echo[i].rx_pkts ?
				    r->tx_pkts - echo[i].rx_pkts : 0;
			st->rx_nic_pkts += echo[i].rx_nic_pkts;
			v[8][i] = secs > 0 ? echo[i].rx_bytes / secs : 0;
			st->rx_bytes += echo[i].rx_bytes;
			st->rx_nic_bytes += echo[i].rx_nic_bytes;
		}
		st->kpps = wr_spread_of(v[0], n);
		st->mbps_l1 = wr_spread_of(v[1], n);
		st->mbps_l2 = wr_spread_of(v[2], n);
		st->goodput_mbps = wr_spread_of(v[3], n);
		if (echo != NULL) {
			st->rx_kpps = wr_spread_of(v[4], n);
			st->rx_mbps_l2 = wr_spread_of(v[5], n);
			st->rx_goodput_mbps = wr_spread_of(v[6], n);
			st->loss_pct = wr_spread_of(v[7], n);
			st->rx_bytes_ps = wr_spread_of(v[8], n);
		}
	}
	for (k = 0; k < 9; k++)
		free(v[k]);
	return rc;
}

int
wr_bench_frame_fits(uint16_t size, uint32_t mtu, uint32_t max_rx_pktlen,
		    uint32_t rx_room, char *why, size_t why_len)
{
	/* IEEE 802.3: 14 bytes of Ethernet header and 4 of FCS around the
	 * MTU's bytes; the FCS never reaches an mbuf. */
	uint32_t len = size - 4u;

	if (mtu != 0 && size > mtu + 18u) {
		snprintf(why, why_len, "a %u-byte frame carries %u bytes after "
			 "its Ethernet header, above the port's MTU %u", size,
			 size - 18u, mtu);
		return -EMSGSIZE;
	}
	if (max_rx_pktlen != 0 && len > max_rx_pktlen) {
		snprintf(why, why_len, "a %u-byte frame is longer than the "
			 "port receives (%u bytes without FCS)", size,
			 max_rx_pktlen);
		return -EMSGSIZE;
	}
	if (rx_room != 0 && len > rx_room) {
		snprintf(why, why_len, "a %u-byte frame (%u bytes without FCS) "
			 "does not fit the port's %u-byte buffers", size, len,
			 rx_room);
		return -EMSGSIZE;
	}
	return 0;
}

void
wr_sweep_stat_print(FILE *out, const struct wr_sweep_stat *st, unsigned int n)
{
	unsigned int i;

	fprintf(out, "%10s %7s  %32s  %32s  %32s\n", "frame size", "repeats",
		"Kpps min / median / max", "Mbps L1 min / median / max",
		"goodput Mbps min / median / max");
	for (i = 0; i < n; i++) {
		fprintf(out, "%10u %7u ", st[i].size, st[i].n);
		wr_spread_print(out, &st[i].kpps);
		wr_spread_print(out, &st[i].mbps_l1);
		if (st[i].payload_off >= 0)
			wr_spread_print(out, &st[i].goodput_mbps);
		else
			fprintf(out, " %32s", "- (no UDP/TCP header)");
		fputc('\n', out);
	}
	if (n > 0 && st[0].echo) {
		fprintf(out, "\nreturned\n%10s  %32s  %32s  %32s  %32s %12s "
			"%12s %14s\n", "frame size", "Kpps min / median / max",
			"Mbps L2 min / median / max", "bytes/s min / median / max",
			"loss % min / median / max", "sent", "returned",
			"bytes back");
		for (i = 0; i < n; i++) {
			fprintf(out, "%10u ", st[i].size);
			wr_spread_print(out, &st[i].rx_kpps);
			wr_spread_print(out, &st[i].rx_mbps_l2);
			fprintf(out, " %10.4g %10.4g %10.4g", st[i].rx_bytes_ps.min,
				st[i].rx_bytes_ps.median, st[i].rx_bytes_ps.max);
			wr_spread_print(out, &st[i].loss_pct);
			fprintf(out, " %12llu %12llu %14llu%s\n",
				(unsigned long long)st[i].tx_pkts,
				(unsigned long long)st[i].rx_pkts,
				(unsigned long long)st[i].rx_bytes,
				wr_sweep_stat_gen_limited(&st[i]) ?
				"  (nothing lost: the generator, not the "
				"reflector, was the limit)" : st[i].lost == 0 &&
				strcmp(st[i].limited_by, "port") == 0 ?
				"  (nothing lost: the port did not take frames "
				"faster, its ring full or its peer slow)" : "");
		}
	}
	fflush(out);
}

int
wr_sweep_stat_json_write(FILE *out, const struct wr_bench_meta *m,
			 const struct wr_sweep_stat *st, unsigned int n)
{
	unsigned int i;

	json_head(out, "wirerate-sweep-repeat/1", m, "duration_per_repeat_s",
		  "sizes");
	for (i = 0; i < n; i++) {
		bool good = st[i].payload_off >= 0;

		fprintf(out, "%s\n    {\"frame_size\": %u, \"repeats\": %u, "
			"\"payload_offset\": ", i ? "," : "", st[i].size,
			st[i].n);
		if (good)
			fprintf(out, "%d", (int)st[i].payload_off);
		else
			fputs("null", out);
		fprintf(out, ", \"limited_by\": \"%s\", \"tx_pkts\": %llu",
			st[i].limited_by, (unsigned long long)st[i].tx_pkts);
		wr_spread_json(out, "kpps", &st[i].kpps);
		wr_spread_json(out, "mbps_l1", &st[i].mbps_l1);
		wr_spread_json(out, "mbps_l2", &st[i].mbps_l2);
		if (good)
			wr_spread_json(out, "goodput_mbps", &st[i].goodput_mbps);
		else
			fputs(", \"goodput_mbps\": null", out);
		fputs(", \"returned\": ", out);
		if (!st[i].echo) {
			fputs("null}", out);
			continue;
		}
		fprintf(out, "{\"rx_pkts\": %llu, \"lost\": %llu, "
			"\"rx_nic_pkts\": %llu, \"rx_bytes\": %llu, "
			"\"rx_nic_bytes\": %llu", (unsigned long long)st[i].rx_pkts,
			(unsigned long long)st[i].lost,
			(unsigned long long)st[i].rx_nic_pkts,
			(unsigned long long)st[i].rx_bytes,
			(unsigned long long)st[i].rx_nic_bytes);
		wr_spread_json(out, "kpps", &st[i].rx_kpps);
		wr_spread_json(out, "mbps_l2", &st[i].rx_mbps_l2);
		if (good)
			wr_spread_json(out, "goodput_mbps",
				       &st[i].rx_goodput_mbps);
		else
			fputs(", \"goodput_mbps\": null", out);
		wr_spread_json(out, "loss_pct", &st[i].loss_pct);
		wr_spread_json(out, "bytes_per_s", &st[i].rx_bytes_ps);
		fputs("}}", out);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

void
wr_bench_pct_text(double pct, bool known, char *buf, size_t len)
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

	fprintf(out, "%10s %12s %12s %12s %10s %14s %10s\n", "frame size",
		"Kpps", "Mbps L1", "Mbps L2", "% of line", "tx_pkts",
		"limited by");
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];

		wr_bench_pct_text(r->line_pct, r->link_mbps != 0, pct, sizeof(pct));
		fprintf(out, "%10u %12.3f %12.3f %12.3f %10s %14llu %10s%s\n",
			r->size, r->kpps, r->mbps_l1, r->mbps_l2, pct,
			(unsigned long long)r->tx_pkts, r->limited_by,
			r->cut_short ? "  (cut short by a signal: not a full "
				       "trial)" : "");
	}
	for (i = 0; i < n; i++)
		if (rows[i].limit_why[0] != '\0')
			fprintf(out, "%10u: limited by %s: %s\n", rows[i].size,
				rows[i].limited_by, rows[i].limit_why);
	fprintf(out, "Mbps L1 = (frame size + 20) x Kpps x 8 / 1000; frame "
		"sizes include the FCS\n");
	fflush(out);
}

int
wr_sweep_csv_write(FILE *out, const struct wr_sweep_row *rows, unsigned int n)
{
	unsigned int i;

	fputs("frame_size,kpps,mbps_l1,mbps_l2,line_pct,tx_pkts,duration_s,"
	      "pacer_skipped,limited_by,cut_short,tx_full,alloc_fail\n", out);
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];
		char pct[32] = "";

		if (r->link_mbps != 0)
			snprintf(pct, sizeof(pct), "%.4f", r->line_pct);
		fprintf(out, "%u,%.3f,%.3f,%.3f,%s,%llu,%.9f,%llu,%s,%d,%llu,"
			"%llu\n", r->size, r->kpps, r->mbps_l1, r->mbps_l2, pct,
			(unsigned long long)r->tx_pkts,
			(double)r->duration_ns / 1e9,
			(unsigned long long)r->pacer_skipped, r->limited_by,
			r->cut_short, (unsigned long long)r->tx_full,
			(unsigned long long)r->alloc_fail);
	}
	return ferror(out) ? -EIO : 0;
}

/* A missing string of the metadata is written as "". */
void
wr_bench_json_key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ",\n  \"%s\": ", key);
	wr_out_json_str(out, val ? val : "");
}

void
wr_bench_json_meta(FILE *out, const char *schema, const struct wr_bench_meta *m)
{
	const struct wr_out_head head = {
		.schema = schema ? schema : "",
		.wirerate_version = m->wirerate_version ? m->wirerate_version : "",
		.dpdk_version = m->dpdk_version ? m->dpdk_version : "",
		.stream_file = m->stream_file ? m->stream_file : "",
		.stream_sha256 = m->stream_sha256,
		.stream = m->stream ? m->stream : "",
		.config_file = m->config_file ? m->config_file : "",
		.has_seed = true,
		.seed = m->seed,
		.started_at = m->started_at,
		.finished_at = m->finished_at,
		.stop_reason = m->stop_reason ? m->stop_reason : "",
		.tsc = m->has_tsc ? &m->tsc : NULL,
	};

	wr_out_json_head(out, &head);
	wr_bench_json_key_str(out, "tx_device", m->tx_device);
	wr_bench_json_key_str(out, "tx_driver", m->tx_driver);
	fprintf(out, ",\n  \"link_speed_mbps\": %u, \"link_speed_placeholder\": "
		"%s", m->link_mbps, m->link_placeholder ? "true" : "false");
	fputs(",\n  \"stopped_in_size\": ", out);
	if (m->stopped_in != 0)
		fprintf(out, "%u", m->stopped_in);
	else
		fputs("null", out);
	fputs(", \"not_measured_sizes\": [", out);
	for (unsigned int i = 0; i < m->n_not_measured; i++)
		fprintf(out, "%s%u", i ? ", " : "", m->not_measured[i]);
	fputc(']', out);
}

void
wr_bench_stop_print(FILE *out, const struct wr_bench_meta *m)
{
	unsigned int i;

	if (m->stop_reason == NULL || strcmp(m->stop_reason, "done") == 0)
		return;
	fprintf(out, "stopped: %s", strcmp(m->stop_reason, "link-down") == 0 ?
		"a port's link went down" : "a signal");
	if (m->stopped_in != 0)
		fprintf(out, " during the %u-byte trial", m->stopped_in);
	fprintf(out, " (%s)", m->stop_reason);
	for (i = 0; i < m->n_not_measured; i++)
		fprintf(out, "%s%u", i ? ", " : "; not measured: ",
			m->not_measured[i]);
	fprintf(out, "%s\n", m->n_not_measured ? " bytes" : "");
	fflush(out);
}

bool
wr_sweep_stat_gen_limited(const struct wr_sweep_stat *st)
{
	return st->echo && st->tx_pkts > 0 && st->lost == 0 &&
	       strcmp(st->limited_by, "generator") == 0;
}

/* The TX lcores' time as JSON members (no braces). */
void
wr_bench_json_usage(FILE *out, const struct wr_thread_usage *u)
{
	if (u->wall_ns == 0) {
		fputs("\"tx_lcore\": null", out);
		return;
	}
	fprintf(out, "\"tx_lcore\": {\"wall_s\": %.9f, \"user_s\": %.9f, "
		"\"sys_s\": %.9f, \"voluntary_switches\": %llu, "
		"\"involuntary_switches\": %llu}", u->wall_ns / 1e9,
		u->user_ns / 1e9, u->sys_ns / 1e9,
		(unsigned long long)u->nvcsw, (unsigned long long)u->nivcsw);
}

int
wr_sweep_json_write(FILE *out, const struct wr_bench_meta *m,
		    const struct wr_sweep_row *rows, unsigned int n)
{
	unsigned int i;

	json_head(out, "wirerate-sweep/1", m, "duration_per_size_s", "rows");
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];
		char pct[32] = "null";

		if (r->link_mbps != 0)
			snprintf(pct, sizeof(pct), "%.4f", r->line_pct);
		fprintf(out, "%s\n    {\"frame_size\": %u, \"tx_pkts\": %llu, "
			"\"duration_s\": %.9f, \"kpps\": %.3f, \"mbps_l1\": %.3f, "
			"\"mbps_l2\": %.3f, \"line_pct\": %s, "
			"\"pacer_skipped\": %llu, \"tx_full\": %llu, "
			"\"alloc_fail\": %llu, \"limited_by\": \"%s\", "
			"\"limit_detail\": ", i ? "," : "", r->size,
			(unsigned long long)r->tx_pkts,
			(double)r->duration_ns / 1e9, r->kpps, r->mbps_l1,
			r->mbps_l2, pct, (unsigned long long)r->pacer_skipped,
			(unsigned long long)r->tx_full,
			(unsigned long long)r->alloc_fail, r->limited_by);
		wr_out_json_str(out, r->limit_why);
		fputs(", ", out);
		wr_bench_json_usage(out, &r->usage);
		fprintf(out, ", \"cut_short\": %s}", r->cut_short ? "true" :
			"false");
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

const char *
wr_bench_trial_short_by(const struct wr_bench_trial *t, char *why,
			size_t why_len)
{
	if (why != NULL && why_len > 0)
		why[0] = '\0';
	if (t->valid && !t->short_offer)
		return NULL;
	return wr_txlimit_name(wr_txlimit_of(&t->tx, why, why_len));
}

int
wr_bench_parse_tests(const char *s, uint32_t *tests, char *why, size_t why_len)
{
	static const char what[] = "expected RFC 2544 tests separated by "
				   "commas: throughput, latency, loss, b2b or all";
	static const struct { const char *name; uint32_t bit; } names[] = {
		{ "throughput", WR_BENCH_TEST_THROUGHPUT },
		{ "loss", WR_BENCH_TEST_LOSS },
		{ "b2b", WR_BENCH_TEST_B2B },
		{ "latency", WR_BENCH_TEST_LATENCY },
		{ "all", WR_BENCH_TEST_THROUGHPUT | WR_BENCH_TEST_LOSS |
			 WR_BENCH_TEST_B2B | WR_BENCH_TEST_LATENCY },
	};
	uint32_t v = 0;
	unsigned int i;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == len &&
			    strncmp(names[i].name, s, len) == 0)
				break;
		if (i == sizeof(names) / sizeof(names[0]) ||
		    (v & names[i].bit) != 0)
			return why_set(why, why_len, what);
		v |= names[i].bit;
		if (comma == NULL)
			break;
		s = comma + 1;
	}
	*tests = v;
	return 0;
}

static uint32_t
log2_ceil(uint64_t v)
{
	uint32_t n = 0;

	while (n < 64 && (UINT64_C(1) << n) < v)
		n++;
	return n;
}

uint32_t
wr_bench_trials_estimate(const struct wr_bench_plan *p)
{
	uint32_t per = 0, phases = p->phases ? p->phases : 1;
	uint32_t step = p->loss_step_ppm ? p->loss_step_ppm : 100000;

	if (p->tests & WR_BENCH_TEST_THROUGHPUT)
		per += ((1 + log2_ceil(p->width_ratio)) + 2 * (phases - 1)) *
		       (p->pdr ? 2 : 1);
	if (p->tests & WR_BENCH_TEST_LATENCY)
		per += p->lat_trials;
	if (p->tests & WR_BENCH_TEST_LOSS)
		per += (1000000 + step - 1) / step;
	if (p->tests & WR_BENCH_TEST_B2B)
		per += p->b2b_repeats * (1 + log2_ceil(p->b2b_ratio));
	return per * p->n_sizes;
}

uint64_t
wr_bench_time_estimate_ns(const struct wr_bench_plan *p)
{
	uint32_t phases = p->phases ? p->phases : 1, k;
	uint32_t step = p->loss_step_ppm ? p->loss_step_ppm : 100000;
	uint64_t first = p->first_trial_ns ? p->first_trial_ns : p->trial_ns;
	uint64_t ratio = p->width_ratio ? p->width_ratio : 1;
	double per = 0, len, targets = p->pdr ? 2 : 1;

	if ((p->tests & WR_BENCH_TEST_THROUGHPUT) && p->mlr_trials != 0) {
		per += p->mlr_trials * ((double)(first + p->trial_ns) / 2 +
					(double)p->drain_ns);
	} else if (p->tests & WR_BENCH_TEST_THROUGHPUT) {
		/* The first phase bisects down to 2^(phases-1) resolutions. */
		uint64_t r0 = ratio >> (phases - 1);

		per += targets * (1 + log2_ceil(r0 ? r0 : 1)) *
		       (double)((phases > 1 ? first : p->trial_ns) + p->drain_ns);
		for (k = 1; k < phases; k++) {
			len = (double)first * pow((double)p->trial_ns /
				(double)(first ? first : 1),
				(double)k / (double)(phases - 1));
			per += targets * 3 * (len + (double)p->drain_ns);
		}
	}
	if (p->tests & WR_BENCH_TEST_LATENCY)
		per += p->lat_trials * (double)(p->lat_trial_ns + p->drain_ns);
	if (p->tests & WR_BENCH_TEST_LOSS)
		per += ((1000000 + step - 1) / step) *
		       (double)(p->trial_ns + p->drain_ns);
	if (p->tests & WR_BENCH_TEST_B2B)
		per += (double)p->b2b_repeats * (1 + log2_ceil(p->b2b_ratio)) *
		       (double)(p->b2b_trial_ns + p->drain_ns);
	return (uint64_t)(per * p->n_sizes + 0.5);
}

/* Whole seconds as "1h19m" or "3m05s". */
static void
secs_text(char *buf, size_t len, uint64_t s)
{
	if (s >= 3600)
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60));
	else
		snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
			 (unsigned long long)(s % 60));
}

void
wr_bench_duration_text(char *buf, size_t len, uint64_t ns)
{
	secs_text(buf, len, (ns + 500000000ull) / 1000000000ull);
}

void
wr_bench_progress_text(char *buf, size_t len, const char *test,
		       uint16_t size, uint32_t k, uint32_t n, double eta_s)
{
	char eta[32] = "ETA unknown", t[24];

	if (eta_s >= 0) {
		secs_text(t, sizeof(t), (uint64_t)(eta_s + 0.5));
		snprintf(eta, sizeof(eta), "ETA %s", t);
	}
	snprintf(buf, len, "%s %u B: trial %u of ~%u, %s", test, size, k,
		 n > k ? n : k, eta);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_result: sweep and RFC 2544 results: option values, rows from counts, table, CSV and JSON. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_bench_result.h"
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

static void json_meta(FILE *out, const char *schema,
		      const struct wr_bench_meta *m);

/* A sweep's JSON up to its list: the metadata, the time per trial. */
static void
json_head(FILE *out, const char *schema, const struct wr_bench_meta *m,
	  const char *duration_key, const char *list_key)
{
	json_meta(out, schema, m);
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

	fprintf(out, "%10s %12s %12s %12s %10s %14s %10s\n", "frame size",
		"Kpps", "Mbps L1", "Mbps L2", "% of line", "tx_pkts",
		"limited by");
	for (i = 0; i < n; i++) {
		const struct wr_sweep_row *r = &rows[i];

		pct_text(r->line_pct, r->link_mbps != 0, pct, sizeof(pct));
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
static void
json_key_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ",\n  \"%s\": ", key);
	wr_out_json_str(out, val ? val : "");
}

static void
json_meta(FILE *out, const char *schema, const struct wr_bench_meta *m)
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
	json_key_str(out, "tx_device", m->tx_device);
	json_key_str(out, "tx_driver", m->tx_driver);
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
static void
json_usage(FILE *out, const struct wr_thread_usage *u)
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
		json_usage(out, &r->usage);
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

bool
wr_rfc2544_row_gen_limited(const struct wr_rfc2544_row *r)
{
	/* A search a signal stopped is no result, limited or not. */
	return (r->has_throughput && !(r->cut != NULL &&
				       strcmp(r->cut, "throughput") == 0) &&
		(r->res.ndr.gen_limited ||
				      (r->res.has_pdr &&
				       r->res.pdr.gen_limited))) ||
	       (r->has_b2b && (r->b2b.gen_limited ||
			       (r->bidir && r->rev_b2b.gen_limited)));
}

/* The words every output uses for a generator-limited result. */
#define GEN_LIMIT_TEXT "the device lost nothing; the generator could not offer more"

/* A rate of a row in pps, Mbps L1, Mbps L2 and % of the line. */
static void
rate_figures(const struct wr_rfc2544_row *r, const struct wr_rfc2544_rate *x,
	     double *pps, double *l1, double *l2, double *pct)
{
	*pps = (double)x->millipps / 1e3;
	*l1 = (double)x->l1_bps / 1e6;
	*l2 = (double)x->l2_bps / 1e6;
	*pct = r->link_mbps ? *l1 / r->link_mbps * 100 : 0;
}

/* The trial that ended a target generator-limited: the last counted one
 * that passed it at a rate the generator did not offer; NULL if none. */
static const struct wr_bench_trial *
gen_trial(const struct wr_rfc2544_row *r, bool pdr)
{
	unsigned int j;

	for (j = r->n_trials; j-- > 0;) {
		const struct wr_bench_trial *t = &r->trials[j];

		if (t->counted && t->short_offer && (pdr ? t->pdr_pass : t->pass))
			return t;
	}
	return NULL;
}

uint64_t
wr_rfc2544_row_passed_millipps(const struct wr_rfc2544_row *r, bool pdr)
{
	uint64_t best = 0, v;
	unsigned int j;

	for (j = 0; j < r->n_trials; j++) {
		const struct wr_bench_trial *t = &r->trials[j];

		if (!t->counted || t->short_offer || !(pdr ? t->pdr_pass : t->pass))
			continue;
		v = t->offered_millipps < t->rate_millipps ? t->offered_millipps :
		    t->rate_millipps;
		if (v > best)
			best = v;
	}
	return best;
}

/* The throughput search of this row was stopped by a signal. */
static bool
search_cut(const struct wr_rfc2544_row *r)
{
	return r->cut != NULL && strcmp(r->cut, "throughput") == 0;
}

static void
print_rates(FILE *out, const char *title, const struct wr_rfc2544_row *rows,
	    unsigned int n, bool pdr)
{
	double pps, l1, l2, pct;
	unsigned int i;
	char p[32];

	fprintf(out, "\n%s\n%10s %14s %12s %12s %10s %7s\n", title,
		"frame size", "pps", "Mbps L1", "Mbps L2", "% of line",
		"trials");
	for (i = 0; i < n; i++) {
		const struct wr_rfc2544_rate *x = pdr ? &rows[i].res.pdr :
						  &rows[i].res.ndr;

		if (!rows[i].has_throughput)
			continue;
		if (i > 0 && (rows[i].tx_port != rows[i - 1].tx_port ||
			      rows[i].rx_port != rows[i - 1].rx_port))
			fprintf(out, "port %u -> port %u\n", rows[i].tx_port,
				rows[i].rx_port);
		else if (i == 0 && n > 1 &&
			 (rows[n - 1].tx_port != rows[0].tx_port ||
			  rows[n - 1].rx_port != rows[0].rx_port))
			fprintf(out, "port %u -> port %u\n", rows[0].tx_port,
				rows[0].rx_port);
		if (search_cut(&rows[i])) {
			uint64_t v = wr_rfc2544_row_passed_millipps(&rows[i],
								    pdr);

			if (v != 0)
				fprintf(out, "%10u >= %.3f pps: incomplete, stopped "
					"by a signal after %u trials (the highest "
					"rate passed so far)\n", rows[i].size,
					(double)v / 1e3, rows[i].n_trials);
			else
				fprintf(out, "%10u incomplete, stopped by a signal "
					"after %u trials: no rate passed yet\n",
					rows[i].size, rows[i].n_trials);
			continue;
		}
		if (x->gen_limited) {
			const struct wr_bench_trial *t = gen_trial(&rows[i], pdr);
			char why[160] = "";

			if (t != NULL)
				wr_bench_trial_short_by(t, why, sizeof(why));
			fprintf(out, "%10u >= %.3f pps: " GEN_LIMIT_TEXT
				"%s%s%s (%u trials)\n", rows[i].size,
				(double)x->gen_millipps / 1e3, why[0] ? " (" : "",
				why, why[0] ? ")" : "", rows[i].n_trials);
			continue;
		}
		rate_figures(&rows[i], x, &pps, &l1, &l2, &pct);
		pct_text(pct, rows[i].link_mbps != 0, p, sizeof(p));
		fprintf(out, "%10u %14.3f %12.3f %12.3f %10s %7u%s\n",
			rows[i].size, pps, l1, l2, p, rows[i].n_trials,
			rows[i].res.converged ? "" : "  (not converged)");
	}
}

static const char *
verdict(bool pass, const struct wr_bench_trial *t)
{
	if (!t->counted)
		return "redo";
	if (t->short_offer && pass)
		return "short";
	return pass ? "pass" : "fail";
}

static void
print_floss(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, j;

	fprintf(out, "\nRFC 2544 frame loss rate\n%10s %7s %14s %14s %14s "
		"%14s %10s\n", "frame size", "% rate", "rate pps",
		"offered pps", "sent", "received", "loss %");
	for (i = 0; i < n; i++) {
		const struct wr_floss *f = &rows[i].floss;

		if (!rows[i].has_floss)
			continue;
		for (j = 0; j < f->n_steps; j++) {
			const struct wr_floss_step *st = &f->steps[j];

			fprintf(out, "%10u %7.2f %14.3f %14.3f %14llu %14llu "
				"%10.4f", rows[i].size, st->pct_ppm / 1e4,
				(double)st->rate_millipps / 1e3,
				(double)st->offered_millipps / 1e3,
				(unsigned long long)st->sent,
				(unsigned long long)st->received, st->loss_pct);
			if (st->bidir)
				fprintf(out, "  reverse: sent %llu, received "
					"%llu, loss %.4f %%",
					(unsigned long long)st->rev_sent,
					(unsigned long long)st->rev_received,
					st->rev_loss_pct);
			fprintf(out, "%s\n", st->short_offer ? "  (short: the "
				"loss is at the rate offered)" : "");
		}
	}
}

/* One direction's back-to-back line. */
static void
print_b2b_line(FILE *out, const struct wr_rfc2544_row *row,
	       const struct wr_b2b *b2b, uint64_t offered_min, const char *dir)
{
	struct wr_b2b_result r;

	wr_b2b_result(b2b, &r);
	if (r.n > 0)
		fprintf(out, "%10u %8s %14s %14.3f %8u %12llu %14.3f %12llu",
			row->size, dir, row->b2b_rate_millipps ? "" : "max",
			(double)offered_min / 1e3, r.n,
			(unsigned long long)r.min, r.avg,
			(unsigned long long)r.max);
	else
		fprintf(out, "%10u %8s %14s %14.3f %8u %12s %14s %12s",
			row->size, dir, row->b2b_rate_millipps ? "" : "max",
			(double)offered_min / 1e3, r.n, "-", "-", "-");
	if (row->b2b_rate_millipps)
		fprintf(out, "  at %.3f pps",
			(double)row->b2b_rate_millipps / 1e3);
	if (r.n_at_max)
		fprintf(out, "  (%u repeats forwarded the whole first "
			"burst: at least that)", r.n_at_max);
	if (r.gen_limited) {
		char why[160];

		fprintf(out, "\n%10s %8s generator-limited: a burst of %llu "
			"frames not offered at %.3f pps was forwarded whole: "
			"no result from it on (%u of %u repeats measured)", "",
			"", (unsigned long long)r.gen_burst,
			(double)row->b2b_asked_millipps / 1e3, r.n,
			b2b->cfg.repeats);
		if (b2b == &row->b2b) {
			wr_txlimit_of(&row->b2b_gen_tx, why, sizeof(why));
			fprintf(out, "\n%10s %8s it went out at %.3f pps: %s",
				"", "", (double)row->b2b_gen_offered / 1e3, why);
		}
	}
	fputc('\n', out);
}

static void
print_b2b(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i;

	fprintf(out, "\nRFC 2544 back-to-back (frames in the longest lossless "
		"burst)\n%10s %8s %14s %14s %8s %12s %14s %12s\n", "frame size",
		"dir", "rate pps", "min offered", "repeats", "min", "avg", "max");
	for (i = 0; i < n; i++) {
		if (!rows[i].has_b2b)
			continue;
		print_b2b_line(out, &rows[i], &rows[i].b2b,
			       rows[i].b2b_offered_min, "tx->rx");
		if (rows[i].bidir)
			print_b2b_line(out, &rows[i], &rows[i].rev_b2b,
				       rows[i].rev_b2b_offered_min, "rx->tx");
	}
}

static void
print_lat_line(FILE *out, uint16_t size, const char *which,
	       const struct wr_latency_summary *l)
{
	fprintf(out, "%10u %7s %10llu %10.3f %10.3f %10.3f %10.3f %10.3f "
		"%10.3f %10.3f %10.3f\n", size, which, (unsigned long long)l->n,
		l->min / 1e3, l->avg / 1e3, l->max / 1e3, l->p50 / 1e3,
		l->p99 / 1e3, l->p999 / 1e3, l->p9999 / 1e3,
		l->jitter_ns / 1e3);
}

/* One direction's latency lines. */
static void
print_lat_dir(FILE *out, uint16_t size, const struct wr_bench_lat *l,
	      const char *dir)
{
	unsigned int j;
	char k[16];

	if (l->skipped != NULL) {
		fprintf(out, "%10u   %sno trial: %s\n", size, dir, l->skipped);
		return;
	}
	for (j = 0; j < l->n_trials; j++) {
		snprintf(k, sizeof(k), "%u%s", j + 1,
			 l->short_offer[j] ? "*" : "");
		print_lat_line(out, size, k, &l->trial[j]);
	}
	print_lat_line(out, size, "all", &l->overall);
	fprintf(out, "%10s %sat %s%.3f pps; jitter: RFC 3550's per trial, "
		"\"all\" the trials' mean (max %.3f us); *: the "
		"generator offered less than the rate\n", "", dir,
		l->rate_at_least ? "the generator's " : "",
		(double)l->rate_millipps / 1e3, l->jitter_max_ns / 1e3);
}

static void
print_lat(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i;

	fprintf(out, "\nRFC 2544 latency (us), every frame timed, at the "
		"throughput\n%10s %7s %10s %10s %10s %10s %10s %10s %10s %10s "
		"%10s\n", "frame size", "trial", "frames", "min", "avg", "max",
		"p50", "p99", "p99.9", "p99.99", "jitter");
	for (i = 0; i < n; i++) {
		if (!rows[i].has_lat)
			continue;
		print_lat_dir(out, rows[i].size, &rows[i].lat,
			      rows[i].bidir ? "tx->rx: " : "");
		if (rows[i].bidir)
			print_lat_dir(out, rows[i].size, &rows[i].rev_lat,
				      "rx->tx: ");
	}
}

/* A rate in pps, or null when there is none. */
static void
json_pps_or_null(FILE *out, bool has, uint64_t millipps)
{
	if (has)
		fprintf(out, "%.3f", (double)millipps / 1e3);
	else
		fputs("null", out);
}

/* MLRsearch's goals: each one's relevant bounds and conditional
 * throughput (RFC 9971 section 4.7), regular or not. */
static void
print_mlr(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, g;
	bool any = false;

	for (i = 0; i < n; i++)
		any |= rows[i].mlr;
	if (!any)
		return;
	fprintf(out, "\nMLRsearch goals (RFC 9971): loss ratio, exceed ratio, "
		"final trial s, duration sum s, width; relevant lower and upper "
		"bound pps, conditional throughput pps\n");
	for (i = 0; i < n; i++)
		for (g = 0; rows[i].mlr && g < rows[i].n_goals; g++) {
			const struct wr_mlr_goal *x = &rows[i].goals[g];
			const struct wr_mlr_result *r = &rows[i].mlr_res[g];
			char lo[32] = "-", hi[32] = "-";

			if (r->has_lower)
				snprintf(lo, sizeof(lo), "%.3f",
					 (double)r->lower / 1e3);
			if (r->has_upper)
				snprintf(hi, sizeof(hi), "%.3f",
					 (double)r->upper / 1e3);
			fprintf(out, "%10u %s %.4f %% %.1f %% %.3f %.3f %.4f %%: "
				"%s .. %s, %.3f%s\n", rows[i].size,
				g == 0 ? "NDR" : "PDR", x->loss_ppm / 1e4,
				x->exceed_ppm / 1e4, (double)x->final_ns / 1e9,
				(double)x->sum_ns / 1e9, x->width_ppm / 1e4, lo,
				hi, r->conditional_pps, r->regular ? "" :
				r->max_is_lower ? " (irregular: nothing up to "
				"the maximum failed)" : r->min_is_upper ?
				" (irregular: even the minimum failed)" :
				" (irregular: not narrowed to the width)");
		}
}

/* A row's MLRsearch goals and results, after its trials in the JSON. */
static void
json_mlr(FILE *out, const struct wr_rfc2544_row *r)
{
	unsigned int g;

	if (!r->mlr)
		return;
	fputs(", \"search\": \"mlrsearch\", \"mlr_goals\": [", out);
	for (g = 0; g < r->n_goals; g++) {
		const struct wr_mlr_goal *x = &r->goals[g];
		const struct wr_mlr_result *m = &r->mlr_res[g];

		fprintf(out, "%s{\"loss_ratio_pct\": %.4f, \"exceed_ratio_pct\": "
			"%.4f, \"final_trial_s\": %.9f, \"initial_trial_s\": "
			"%.9f, \"duration_sum_s\": %.9f, \"width_pct\": %.4f, "
			"\"regular\": %s, \"relevant_lower_pps\": ", g ? ", " : "",
			x->loss_ppm / 1e4, x->exceed_ppm / 1e4,
			(double)x->final_ns / 1e9, (double)x->initial_ns / 1e9,
			(double)x->sum_ns / 1e9, x->width_ppm / 1e4,
			m->regular ? "true" : "false");
		json_pps_or_null(out, m->has_lower, m->lower);
		fputs(", \"relevant_upper_pps\": ", out);
		json_pps_or_null(out, m->has_upper, m->upper);
		fprintf(out, ", \"conditional_throughput_pps\": %.3f, "
			"\"max_is_lower\": %s, \"min_is_upper\": %s, "
			"\"short_offer\": %s}", m->conditional_pps,
			m->max_is_lower ? "true" : "false",
			m->min_is_upper ? "true" : "false",
			m->short_offer ? "true" : "false");
	}
	fputc(']', out);
}

/* Rows whose tests a signal stopped: what their figures are. */
static void
print_cut(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rows[i].cut != NULL)
			fprintf(out, "incomplete: %u bytes (port %u -> port %u): a "
				"signal stopped its %s test; its figures are the "
				"trials measured before\n", rows[i].size,
				rows[i].tx_port, rows[i].rx_port, rows[i].cut);
}

void
wr_rfc2544_print(FILE *out, const struct wr_rfc2544_row *rows, unsigned int n)
{
	bool pdr = n > 0 && rows[0].res.has_pdr;
	bool tp = false, fl = false, bb = false, lt = false;
	unsigned int i, j;
	char title[96];

	for (i = 0; i < n; i++) {
		tp |= rows[i].has_throughput;
		fl |= rows[i].has_floss;
		bb |= rows[i].has_b2b;
		lt |= rows[i].has_lat;
	}
	if (lt)
		print_lat(out, rows, n);
	if (fl)
		print_floss(out, rows, n);
	if (bb)
		print_b2b(out, rows, n);
	if (!tp) {
		print_cut(out, rows, n);
		fflush(out);
		return;
	}
	print_rates(out, pdr ? "RFC 2544 throughput (NDR)" :
		    "RFC 2544 throughput", rows, n, false);
	if (pdr) {
		snprintf(title, sizeof(title), "PDR (loss at most %.4f %%)",
			 rows[0].res.pdr.loss_ppm / 1e4);
		print_rates(out, title, rows, n, true);
	}
	fprintf(out, "\ntrials\n%10s %5s %5s %9s %14s %14s %14s %12s %12s %6s%s "
		"%8s\n", "frame size", "#", "phase", "length s", "rate pps",
		"sent", "received", "lost", "offered pps", "result",
		pdr ? "    PDR" : "", "short by");
	for (i = 0; i < n; i++)
		for (j = 0; j < rows[i].n_trials; j++) {
			const struct wr_bench_trial *t = &rows[i].trials[j];

			fprintf(out, "%10u %5u %5u %9.3f %14.3f %14llu %14llu "
				"%12lld %12.0f %6s", rows[i].size, j + 1,
				t->phase + 1, (double)t->trial_ns / 1e9,
				(double)t->rate_millipps / 1e3,
				(unsigned long long)t->sent,
				(unsigned long long)t->received,
				(long long)(t->sent - t->received),
				(double)t->offered_millipps / 1e3,
				verdict(t->pass, t));
			if (pdr)
				fprintf(out, " %6s", verdict(t->pdr_pass, t));
			{
				const char *by = wr_bench_trial_short_by(t, NULL,
									 0);

				fprintf(out, " %8s", by ? by : "");
			}
			if (t->bidir)
				fprintf(out, "  reverse: sent %llu, received "
					"%llu, lost %lld",
					(unsigned long long)t->rev_sent,
					(unsigned long long)t->rev_received,
					(long long)(t->rev_sent - t->rev_received));
			fputc('\n', out);
		}
	print_mlr(out, rows, n);
	fprintf(out, "short: the generator offered less than the rate asked "
		"(by more than the resolution) and the device lost nothing: "
		"no figure for the device at that rate; short by: what held "
		"the generator (port: the TX port did not take frames faster; "
		"cpu: the TX lcore's CPU; pacer: the schedule)\n");
	print_cut(out, rows, n);
	fflush(out);
}

/* CSV columns of one rate: pps, Mbps L1, Mbps L2, % of line, limited_by,
 * at_least_pps; a generator-limited rate leaves the first four empty. */
static void
csv_rate(FILE *out, const struct wr_rfc2544_row *r,
	 const struct wr_rfc2544_rate *x)
{
	double pps, l1, l2, pct;
	char p[32] = "";

	if (search_cut(r)) {
		uint64_t v = wr_rfc2544_row_passed_millipps(r, x == &r->res.pdr);

		fputs(",,,,incomplete,", out);
		if (v != 0)
			fprintf(out, "%.3f", (double)v / 1e3);
		return;
	}
	if (x->gen_limited) {
		fprintf(out, ",,,,generator,%.3f", (double)x->gen_millipps / 1e3);
		return;
	}
	rate_figures(r, x, &pps, &l1, &l2, &pct);
	if (r->link_mbps != 0)
		snprintf(p, sizeof(p), "%.4f", pct);
	fprintf(out, "%.3f,%.6f,%.6f,%s,device,", pps, l1, l2, p);
}

int
wr_rfc2544_csv_write(FILE *out, const struct wr_rfc2544_row *rows,
		     unsigned int n)
{
	bool pdr = n > 0 && rows[0].res.has_pdr;
	unsigned int i;

	fputs("frame_size,throughput_pps,mbps_l1,mbps_l2,line_pct,limited_by,"
	      "at_least_pps,trials,converged", out);
	if (pdr)
		fputs(",pdr_pps,pdr_mbps_l1,pdr_mbps_l2,pdr_line_pct,"
		      "pdr_limited_by,pdr_at_least_pps,pdr_loss_pct", out);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		if (!rows[i].has_throughput)
			continue;
		fprintf(out, "%u,", rows[i].size);
		csv_rate(out, &rows[i], &rows[i].res.ndr);
		fprintf(out, ",%u,%s", rows[i].n_trials,
			rows[i].res.converged ? "true" : "false");
		if (pdr) {
			fputc(',', out);
			csv_rate(out, &rows[i], &rows[i].res.pdr);
			fprintf(out, ",%.4f", rows[i].res.pdr.loss_ppm / 1e4);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static void
json_str_or_null(FILE *out, const char *s)
{
	if (s != NULL)
		wr_out_json_str(out, s);
	else
		fputs("null", out);
}

/* A trial's TX evidence and what held it short, as JSON members. */
static void
json_trial_tx(FILE *out, const struct wr_bench_trial *t)
{
	char why[160];
	const char *by = wr_bench_trial_short_by(t, why, sizeof(why));

	fprintf(out, "\"tx_full\": %llu, \"alloc_fail\": %llu, ",
		(unsigned long long)t->tx.tx_full,
		(unsigned long long)t->tx.alloc_fail);
	json_usage(out, &t->tx.usage);
	fputs(", \"short_by\": ", out);
	json_str_or_null(out, by);
	fputs(", \"limit_detail\": ", out);
	json_str_or_null(out, by ? why : NULL);
}

/* JSON members of one rate (no braces). */
static void
json_rate(FILE *out, const struct wr_rfc2544_row *r,
	  const struct wr_rfc2544_rate *x, const char *pps_key)
{
	double pps, l1, l2, pct;
	char p[32] = "null";

	if (search_cut(r)) {
		uint64_t v = wr_rfc2544_row_passed_millipps(r, x == &r->res.pdr);

		fprintf(out, "\"%s\": null, \"mbps_l1\": null, \"mbps_l2\": "
			"null, \"line_pct\": null, \"limited_by\": "
			"\"incomplete\", \"at_least_pps\": ", pps_key);
		if (v != 0)
			fprintf(out, "%.3f", (double)v / 1e3);
		else
			fputs("null", out);
		fputs(", \"note\": \"stopped by a signal: the search had not "
		      "ended; at_least_pps is the highest rate passed so far\"",
		      out);
		return;
	}
	if (x->gen_limited) {
		const struct wr_bench_trial *t = gen_trial(r, x == &r->res.pdr);
		char why[160] = "";
		const char *by = t ? wr_bench_trial_short_by(t, why,
							      sizeof(why)) : NULL;

		fprintf(out, "\"%s\": null, \"mbps_l1\": null, \"mbps_l2\": "
			"null, \"line_pct\": null, \"limited_by\": "
			"\"generator\", \"at_least_pps\": %.3f, \"note\": \""
			GEN_LIMIT_TEXT "\", \"generator_limit\": ", pps_key,
			(double)x->gen_millipps / 1e3);
		json_str_or_null(out, by);
		fputs(", \"generator_limit_detail\": ", out);
		json_str_or_null(out, by ? why : NULL);
		return;
	}
	rate_figures(r, x, &pps, &l1, &l2, &pct);
	if (r->link_mbps != 0)
		snprintf(p, sizeof(p), "%.4f", pct);
	fprintf(out, "\"%s\": %.3f, \"mbps_l1\": %.6f, \"mbps_l2\": %.6f, "
		"\"line_pct\": %s, \"limited_by\": \"device\", "
		"\"at_least_pps\": null", pps_key, pps, l1, l2, p);
}

/* "frame_loss": {...} or null, and a comma. */
static void
json_floss(FILE *out, const struct wr_rfc2544_row *r)
{
	const struct wr_floss *f = &r->floss;
	uint32_t j;

	if (!r->has_floss) {
		fputs("\"frame_loss\": null, ", out);
		return;
	}
	fprintf(out, "\"frame_loss\": {\"max_rate_pps\": %.3f, \"step_pct\": "
		"%.4f, \"stopped_clean\": %s, \"steps\": [",
		(double)f->cfg.max_millipps / 1e3, f->cfg.step_ppm / 1e4,
		f->stopped_clean ? "true" : "false");
	for (j = 0; j < f->n_steps; j++) {
		const struct wr_floss_step *st = &f->steps[j];

		fprintf(out, "%s\n      {\"rate_pct\": %.4f, \"rate_pps\": %.3f, "
			"\"offered_pps\": %.3f, \"short_offer\": %s, "
			"\"sent\": %llu, \"received\": %llu, \"lost\": %llu, "
			"\"excess\": %llu, \"loss_pct\": %.6f, \"reverse\": ",
			j ? "," : "",
			st->pct_ppm / 1e4, (double)st->rate_millipps / 1e3,
			(double)st->offered_millipps / 1e3,
			st->short_offer ? "true" : "false",
			(unsigned long long)st->sent,
			(unsigned long long)st->received,
			(unsigned long long)st->lost,
			(unsigned long long)st->excess, st->loss_pct);
		if (st->bidir)
			fprintf(out, "{\"sent\": %llu, \"received\": %llu, "
				"\"lost\": %llu, \"loss_pct\": %.6f}}",
				(unsigned long long)st->rev_sent,
				(unsigned long long)st->rev_received,
				(unsigned long long)st->rev_lost, st->rev_loss_pct);
		else
			fputs("null}", out);
	}
	fputs("]}, ", out);
}

static void
json_lat_summary(FILE *out, const struct wr_latency_summary *l)
{
	fputc('{', out);
	wr_latency_json_write(out, l, WR_LAT_JSON_NS);
	fprintf(out, ", \"jitter_ns\": %.3f", l->jitter_ns);
}

/* "latency": {...} or null, and a comma. */
static void
json_lat(FILE *out, const char *key, bool has, const struct wr_bench_lat *l)
{
	uint32_t j;

	if (!has) {
		fprintf(out, "\"%s\": null, ", key);
		return;
	}
	fprintf(out, "\"%s\": {\"skipped\": ", key);
	if (l->skipped != NULL)
		wr_out_json_str(out, l->skipped);
	else
		fputs("null", out);
	fprintf(out, ", \"rate_pps\": %.3f, \"rate_at_least\": %s, "
		"\"trials\": [", (double)l->rate_millipps / 1e3,
		l->rate_at_least ? "true" : "false");
	for (j = 0; j < l->n_trials; j++) {
		fputs(j ? ",\n      " : "\n      ", out);
		json_lat_summary(out, &l->trial[j]);
		fprintf(out, ", \"sent\": %llu, \"lost\": %llu, "
			"\"offered_pps\": %.3f, \"short_offer\": %s}",
			(unsigned long long)l->sent[j],
			(unsigned long long)l->lost[j],
			(double)l->offered[j] / 1e3,
			l->short_offer[j] ? "true" : "false");
	}
	fputs("], \"overall\": ", out);
	if (l->n_trials > 0) {
		json_lat_summary(out, &l->overall);
		fprintf(out, ", \"jitter_max_ns\": %.3f}", l->jitter_max_ns);
	} else {
		fputs("null", out);
	}
	fputs("}, ", out);
}

/* "back_to_back": {...} or null, and a comma. */
static void
json_b2b(FILE *out, const char *key, bool has, const struct wr_rfc2544_row *r,
	 const struct wr_b2b *b2b, uint64_t offered_min)
{
	struct wr_b2b_result res;
	uint32_t j;

	if (!has) {
		fprintf(out, "\"%s\": null, ", key);
		return;
	}
	wr_b2b_result(b2b, &res);
	fprintf(out, "\"%s\": {\"rate_pps\": ", key);
	json_pps_or_null(out, r->b2b_rate_millipps != 0, r->b2b_rate_millipps);
	fputs(", \"asked_rate_pps\": ", out);
	json_pps_or_null(out, r->b2b_asked_millipps != 0,
			 r->b2b_asked_millipps);
	fprintf(out, ", \"min_offered_pps\": %.3f, \"first_burst\": %llu, "
		"\"resolution_frames\": %llu, \"repeats\": %u, \"bursts\": "
		"%llu, ", (double)offered_min / 1e3,
		(unsigned long long)b2b->cfg.max_frames,
		(unsigned long long)b2b->cfg.resolution_frames, res.n,
		(unsigned long long)r->b2b_bursts);
	if (res.n > 0)
		fprintf(out, "\"min\": %llu, \"avg\": %.3f, \"max\": %llu, ",
			(unsigned long long)res.min, res.avg,
			(unsigned long long)res.max);
	else
		fputs("\"min\": null, \"avg\": null, \"max\": null, ", out);
	fprintf(out, "\"generator_limited\": %s, \"generator_burst\": ",
		res.gen_limited ? "true" : "false");
	if (res.gen_limited) {
		char why[160] = "";
		bool fwd = b2b == &r->b2b;

		if (fwd)
			wr_txlimit_of(&r->b2b_gen_tx, why, sizeof(why));
		fprintf(out, "%llu, \"generator_offered_pps\": ",
			(unsigned long long)res.gen_burst);
		if (fwd)
			fprintf(out, "%.3f", (double)r->b2b_gen_offered / 1e3);
		else
			fputs("null", out);
		fputs(", \"generator_limit\": ", out);
		json_str_or_null(out, fwd ? wr_txlimit_name(
			wr_txlimit_of(&r->b2b_gen_tx, NULL, 0)) : NULL);
		fputs(", \"generator_limit_detail\": ", out);
		json_str_or_null(out, fwd ? why : NULL);
	} else {
		fputs("null, \"generator_offered_pps\": null, "
		      "\"generator_limit\": null, \"generator_limit_detail\": "
		      "null", out);
	}
	fprintf(out, ", \"at_first_burst\": %u, \"values\": [", res.n_at_max);
	for (j = 0; j < res.n; j++)
		fprintf(out, "%s%llu", j ? ", " : "",
			(unsigned long long)res.values[j]);
	fputs("], \"trials_per_repeat\": [", out);
	for (j = 0; j < res.n; j++)
		fprintf(out, "%s%u", j ? ", " : "", b2b->trials_per[j]);
	fputs("]}, ", out);
}

int
wr_rfc2544_json_write(FILE *out, const struct wr_bench_meta *m,
		      const struct wr_rfc2544_row *rows, unsigned int n)
{
	unsigned int i, j;

	json_meta(out, "wirerate-rfc2544/1", m);
	json_key_str(out, "rx_device", m->rx_device);
	fprintf(out, ",\n  \"trial_s\": %.9f, \"drain_s\": %.9f, "
		"\"loss_tolerance_pct\": %.4f, \"pdr_loss_tolerance_pct\": ",
		(double)m->duration_ns / 1e9, (double)m->drain_ns / 1e9,
		m->loss_ppm / 1e4);
	if (m->pdr_ppm != 0)
		fprintf(out, "%.4f", m->pdr_ppm / 1e4);
	else
		fputs("null", out);
	fprintf(out, ", \"phases\": %u, \"first_trial_s\": %.9f, "
		"\"max_rate_pps\": %.3f,\n  \"results\": [",
		m->phases ? m->phases : 1, (double)m->first_trial_ns / 1e9,
		(double)m->max_millipps / 1e3);
	for (i = 0; i < n; i++) {
		const struct wr_rfc2544_row *r = &rows[i];

		fprintf(out, "%s\n    {\"frame_size\": %u, \"tx_port\": %u, "
			"\"rx_port\": %u, \"incomplete\": ", i ? "," : "",
			r->size, r->tx_port, r->rx_port);
		json_str_or_null(out, r->cut);
		fputs(", ", out);
		json_floss(out, r);
		json_b2b(out, "back_to_back", r->has_b2b, r, &r->b2b,
			 r->b2b_offered_min);
		json_b2b(out, "back_to_back_reverse", r->has_b2b && r->bidir,
			 r, &r->rev_b2b, r->rev_b2b_offered_min);
		json_lat(out, "latency", r->has_lat, &r->lat);
		json_lat(out, "latency_reverse", r->has_lat && r->bidir,
			 &r->rev_lat);
		if (!r->has_throughput) {
			fputs("\"throughput_pps\": null, \"limited_by\": null, "
			      "\"pdr\": null, \"trials\": []}", out);
			continue;
		}
		json_rate(out, r, &r->res.ndr, "throughput_pps");
		fputs(", \"pdr\": ", out);
		if (r->res.has_pdr) {
			fprintf(out, "{\"loss_tolerance_pct\": %.4f, ",
				r->res.pdr.loss_ppm / 1e4);
			json_rate(out, r, &r->res.pdr, "pps");
			fputc('}', out);
		} else {
			fputs("null", out);
		}
		fprintf(out, ", \"resolution_pps\": %.3f, \"converged\": %s, "
			"\"trials\": [", (double)r->res.resolution_millipps / 1e3,
			r->res.converged ? "true" : "false");
		for (j = 0; j < r->n_trials; j++) {
			const struct wr_bench_trial *t = &r->trials[j];

			fprintf(out, "%s\n      {\"rate_pps\": %.3f, "
				"\"phase\": %u, \"trial_s\": %.9f, "
				"\"offered_pps\": %.3f, \"short_offer\": %s, "
				"\"sent\": "
				"%llu, \"received\": %llu, \"lost\": %lld, "
				"\"duration_s\": %.9f, \"pacer_skipped\": %llu, "
				"\"rx_frames\": %llu, \"rx_nic_pkts\": %llu, "
				"\"rx_nic_missed\": %llu, \"valid\": %s, "
				"\"counted\": %s, \"pass\": %s, "
				"\"pdr_pass\": %s, ", j ? "," : "",
				(double)t->rate_millipps / 1e3, t->phase,
				(double)t->trial_ns / 1e9,
				(double)t->offered_millipps / 1e3,
				t->short_offer ? "true" : "false",
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
				t->pass ? "true" : "false",
				r->res.has_pdr ? (t->pdr_pass ? "true" :
						  "false") : "null");
			json_trial_tx(out, t);
			fputs(", \"reverse\": ", out);
			if (t->bidir)
				fprintf(out, "{\"sent\": %llu, \"received\": "
					"%llu, \"lost\": %lld, \"offered_pps\": "
					"%.3f}}", (unsigned long long)t->rev_sent,
					(unsigned long long)t->rev_received,
					(long long)(t->rev_sent - t->rev_received),
					(double)t->rev_offered_millipps / 1e3);
			else
				fputs("null}", out);
		}
		fputc(']', out);
		json_mlr(out, r);
		fputc('}', out);
	}
	fputs("\n  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}


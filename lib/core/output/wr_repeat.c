/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_repeat: a run repeated N times: each repetition's counts, the spread of its rates, the peer's counts beside ours. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_out.h"
#include "wr_repeat.h"

static uint32_t
n_rows(const struct wr_rep_set *s)
{
	return s->n_ports + s->n_streams;
}

static const struct wr_rep_row *
row_at(const struct wr_rep_set *s, uint32_t k, uint32_t i)
{
	return &s->rows[(size_t)k * n_rows(s) + i];
}

int
wr_rep_init(struct wr_rep_set *s, const struct wr_report_view *v,
	    uint32_t cap, const char *const *peer_names, uint32_t n_peers)
{
	uint32_t i, n;

	memset(s, 0, sizeof(*s));
	if (cap == 0 || cap > WR_REPEAT_MAX || n_peers > WR_PEERS_MAX ||
	    v->n_ports > WR_PORTS_MAX)
		return -EINVAL;
	s->n_ports = v->n_ports;
	s->n_streams = v->n_streams;
	s->n_peers = n_peers;
	s->cap = cap;
	n = n_rows(s);
	s->names = calloc(n ? n : 1, sizeof(*s->names));
	s->rows = calloc((size_t)cap * (n ? n : 1), sizeof(*s->rows));
	s->peers = calloc((size_t)cap * (n_peers ? n_peers : 1),
			  sizeof(*s->peers));
	s->elapsed_ns = calloc(cap, sizeof(*s->elapsed_ns));
	s->reason = calloc(cap, sizeof(*s->reason));
	if (s->names == NULL || s->rows == NULL || s->peers == NULL ||
	    s->elapsed_ns == NULL || s->reason == NULL) {
		wr_rep_free(s);
		return -ENOMEM;
	}
	for (i = 0; i < v->n_ports; i++) {
		s->names[i].port = true;
		s->names[i].index = (uint16_t)i;
		snprintf(s->names[i].name, sizeof(s->names[i].name), "%s",
			 v->ports[i].name);
	}
	for (i = 0; i < v->n_streams; i++) {
		s->names[s->n_ports + i].index = v->streams[i].port;
		snprintf(s->names[s->n_ports + i].name,
			 sizeof(s->names[0].name), "%s", v->streams[i].name);
	}
	for (i = 0; i < n_peers; i++)
		snprintf(s->peer[i], sizeof(s->peer[i]), "%s", peer_names[i]);
	return 0;
}

void
wr_rep_free(struct wr_rep_set *s)
{
	free(s->names);
	free(s->rows);
	free(s->peers);
	free(s->elapsed_ns);
	free(s->reason);
	s->names = NULL;
	s->rows = NULL;
	s->peers = NULL;
	s->elapsed_ns = NULL;
	s->reason = NULL;
	s->n = s->cap = 0;
}

static void
row_from(struct wr_rep_row *r, const struct wr_report_row *v)
{
	memset(r, 0, sizeof(*r));
	r->tx_pkts = v->total.tx_pkts;
	r->tx_bytes = v->total.tx_bytes;
	r->duration_ns = v->duration_ns;
	r->measured = wr_report_rate_measured(v);
}

int
wr_rep_add(struct wr_rep_set *s, const struct wr_report_view *v,
	   const int32_t *payload_off, const struct wr_peer_counts *peer,
	   const char *reason)
{
	struct wr_rep_row *rows;
	bool port_good[WR_PORTS_MAX];
	uint32_t i;

	if (s->n == s->cap)
		return -ENOSPC;
	if (v->n_ports != s->n_ports || v->n_streams != s->n_streams)
		return -EINVAL;
	rows = &s->rows[(size_t)s->n * n_rows(s)];
	for (i = 0; i < s->n_ports; i++) {
		const struct wr_report_row *p = &v->ports[i];
		struct wr_rep_row *r = &rows[i];

		row_from(r, p);
		port_good[i] = true;
		r->has_rx = p->has_rx;
		r->rx_pkts = p->rx_pkts;
		r->has_nic = p->has_nic;
		if (p->has_nic) {
			/* The NIC counts since the ports started. */
			r->nic_opackets = p->nic_opackets - s->nic_base[i][0];
			r->nic_ipackets = p->nic_ipackets - s->nic_base[i][1];
			r->nic_imissed = p->nic_imissed - s->nic_base[i][2];
			s->nic_base[i][0] = p->nic_opackets;
			s->nic_base[i][1] = p->nic_ipackets;
			s->nic_base[i][2] = p->nic_imissed;
		}
	}
	for (i = 0; i < s->n_streams; i++) {
		const struct wr_report_row *st = &v->streams[i];
		struct wr_rep_row *r = &rows[s->n_ports + i];

		row_from(r, st);
		r->has_rx = st->has_rx;
		r->rx_pkts = st->rx_pkts;
		r->lost = st->lost;
		if (payload_off != NULL && payload_off[i] >= 0) {
			r->has_goodput = true;
			r->goodput_bytes = wr_goodput_bytes(st->total.tx_bytes,
							    st->total.tx_pkts,
							    (uint32_t)payload_off[i]);
			if (st->port < s->n_ports)
				rows[st->port].goodput_bytes += r->goodput_bytes;
		} else if (st->port < s->n_ports) {
			/* One stream without goodput: the port has none. */
			port_good[st->port] = false;
		}
	}
	for (i = 0; i < s->n_ports; i++)
		rows[i].has_goodput = port_good[i];
	if (peer != NULL)
		memcpy(&s->peers[(size_t)s->n * s->n_peers], peer,
		       s->n_peers * sizeof(*peer));
	s->elapsed_ns[s->n] = v->elapsed_ns;
	s->reason[s->n] = reason;
	s->n++;
	return 0;
}

static double
goodput_mbps(const struct wr_rep_row *r)
{
	return r->duration_ns ? (double)r->goodput_bytes * 8.0 * 1e3 /
	       (double)r->duration_ns : 0;
}

int
wr_rep_stat_calc(const struct wr_rep_set *s, uint32_t row,
		 struct wr_rep_stat *st)
{
	enum { KPPS, L2, L1, GOOD, DUR, N_FIG };
	double *v[N_FIG];
	uint32_t k, m = 0, f;
	int rc = 0;

	if (s->n == 0 || row >= n_rows(s))
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (f = 0; f < N_FIG; f++)
		if ((v[f] = calloc(s->n, sizeof(double))) == NULL)
			rc = -ENOMEM;
	st->has_goodput = true;
	st->has_rx = true;
	for (k = 0; k < s->n && rc == 0; k++) {
		const struct wr_rep_row *r = row_at(s, k, row);
		struct wr_rates rt = wr_rates_calc(r->tx_pkts, r->tx_bytes,
						   r->duration_ns);

		st->tx_pkts += r->tx_pkts;
		st->tx_bytes += r->tx_bytes;
		st->rx_pkts += r->rx_pkts;
		st->lost += r->lost;
		st->has_goodput &= r->has_goodput;
		st->has_rx &= r->has_rx;
		/* Only measured rates make a spread (a repetition that sent
		 * one frame has no rate). */
		if (!r->measured)
			continue;
		v[KPPS][m] = rt.kpps;
		v[L2][m] = rt.mbps_l2;
		v[L1][m] = rt.mbps_l1;
		v[GOOD][m] = goodput_mbps(r);
		v[DUR][m] = (double)r->duration_ns / 1e6;
		m++;
	}
	if (rc == 0 && m > 0) {
		st->n_measured = m;
		st->kpps = wr_spread_of(v[KPPS], m);
		st->mbps_l2 = wr_spread_of(v[L2], m);
		st->mbps_l1 = wr_spread_of(v[L1], m);
		st->goodput_mbps = wr_spread_of(v[GOOD], m);
		st->duration_ms = wr_spread_of(v[DUR], m);
	}
	for (f = 0; f < N_FIG; f++)
		free(v[f]);
	return rc;
}

int
wr_rep_peer_stat_calc(const struct wr_rep_set *s, uint32_t peer,
		      struct wr_rep_peer_stat *st)
{
	double *v[4];
	uint32_t k, f;
	int rc = 0;

	if (s->n == 0 || peer >= s->n_peers)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	for (f = 0; f < 4; f++)
		if ((v[f] = calloc(s->n, sizeof(double))) == NULL)
			rc = -ENOMEM;
	for (k = 0; k < s->n && rc == 0; k++) {
		const struct wr_peer_counts *c = &s->peers[(size_t)k * s->n_peers + peer];

		v[0][k] = (double)c->rx_pkts;
		v[1][k] = (double)c->rx_bytes;
		v[2][k] = (double)c->tx_pkts;
		v[3][k] = (double)c->tx_bytes;
		st->total.rx_pkts += c->rx_pkts;
		st->total.rx_bytes += c->rx_bytes;
		st->total.tx_pkts += c->tx_pkts;
		st->total.tx_bytes += c->tx_bytes;
		st->total.rx_missed += c->rx_missed;
		st->total.rx_errors += c->rx_errors;
		st->total.tx_errors += c->tx_errors;
	}
	if (rc == 0) {
		st->rx_pkts = wr_spread_of(v[0], s->n);
		st->rx_bytes = wr_spread_of(v[1], s->n);
		st->tx_pkts = wr_spread_of(v[2], s->n);
		st->tx_bytes = wr_spread_of(v[3], s->n);
	}
	for (f = 0; f < 4; f++)
		free(v[f]);
	return rc;
}

static void
label(char *buf, size_t len, const struct wr_rep_name *n)
{
	if (n->port)
		snprintf(buf, len, "port %u %s", n->index, n->name);
	else
		snprintf(buf, len, "stream %s", n->name);
}

/* What came back: a port received, a stream's frames returned or lost. */
static void
text_rx(FILE *out, const struct wr_rep_name *n, bool has_rx, uint64_t rx,
	uint64_t lost, const char *sep)
{
	if (has_rx && n->port)
		fprintf(out, "%sreceived %llu", sep, (unsigned long long)rx);
	else if (has_rx)
		fprintf(out, "%sreturned %llu, lost %llu", sep,
			(unsigned long long)rx, (unsigned long long)lost);
}

void
wr_rep_print(FILE *out, const struct wr_rep_set *s, uint32_t k)
{
	char name[WR_REPORT_NAME_MAX + 16];
	uint32_t i;

	if (k >= s->n)
		return;
	fprintf(out, "repeat %u of %u: %.6f s (%s)\n", k + 1, s->cap,
		(double)s->elapsed_ns[k] / 1e9, s->reason[k]);
	for (i = 0; i < n_rows(s); i++) {
		const struct wr_rep_row *r = row_at(s, k, i);
		const struct wr_rep_name *n = &s->names[i];
		struct wr_rates rt = wr_rates_calc(r->tx_pkts, r->tx_bytes,
						   r->duration_ns);

		label(name, sizeof(name), n);
		fprintf(out, "  %s: %llu frames %llu bytes in %.6f s", name,
			(unsigned long long)r->tx_pkts,
			(unsigned long long)r->tx_bytes,
			(double)r->duration_ns / 1e9);
		if (r->measured) {
			fprintf(out, ", %.3f Kpps, %.3f Mbps L2, %.3f Mbps L1",
				rt.kpps, rt.mbps_l2, rt.mbps_l1);
			if (r->has_goodput)
				fprintf(out, ", goodput %.3f Mbps",
					goodput_mbps(r));
		} else {
			fputs(", no rate (under 2 frames or 1 ms)", out);
		}
		text_rx(out, n, r->has_rx, r->rx_pkts, r->lost, "; ");
		fputc('\n', out);
	}
	for (i = 0; i < s->n_peers; i++) {
		const struct wr_peer_counts *c = &s->peers[(size_t)k * s->n_peers + i];

		fprintf(out, "  peer %s: rx %llu frames %llu bytes, tx %llu "
			"frames %llu bytes", s->peer[i],
			(unsigned long long)c->rx_pkts,
			(unsigned long long)c->rx_bytes,
			(unsigned long long)c->tx_pkts,
			(unsigned long long)c->tx_bytes);
		if (c->rx_missed || c->rx_errors || c->tx_errors)
			fprintf(out, ", rx missed %llu, rx errors %llu, tx "
				"errors %llu", (unsigned long long)c->rx_missed,
				(unsigned long long)c->rx_errors,
				(unsigned long long)c->tx_errors);
		fputc('\n', out);
	}
	fflush(out);
}

static void
spread_or_none(FILE *out, const struct wr_spread *sp, bool known)
{
	if (known)
		wr_spread_print(out, sp);
	else
		fprintf(out, " %10s %10s %10s", "-", "-", "-");
}

void
wr_rep_summary_print(FILE *out, const struct wr_rep_set *s)
{
	char name[WR_REPORT_NAME_MAX + 16];
	struct wr_rep_stat st;
	struct wr_rep_peer_stat ps;
	uint32_t i;

	fprintf(out, "\nsummary of %u repeat%s (min / median / max)\n", s->n,
		s->n == 1 ? "" : "s");
	fprintf(out, "%-28s %32s  %32s  %32s  %32s  %32s\n", "",
		"Kpps", "Mbps L2", "Mbps L1", "goodput Mbps", "ms");
	for (i = 0; i < n_rows(s); i++) {
		if (wr_rep_stat_calc(s, i, &st) != 0)
			continue;
		label(name, sizeof(name), &s->names[i]);
		fprintf(out, "%-28.28s", name);
		spread_or_none(out, &st.kpps, st.n_measured > 0);
		fputs("  ", out);
		spread_or_none(out, &st.mbps_l2, st.n_measured > 0);
		fputs("  ", out);
		spread_or_none(out, &st.mbps_l1, st.n_measured > 0);
		fputs("  ", out);
		spread_or_none(out, &st.goodput_mbps,
			       st.n_measured > 0 && st.has_goodput);
		fputs("  ", out);
		spread_or_none(out, &st.duration_ms, st.n_measured > 0);
		fputc('\n', out);
	}
	fputs("in all:\n", out);
	for (i = 0; i < n_rows(s); i++) {
		if (wr_rep_stat_calc(s, i, &st) != 0)
			continue;
		label(name, sizeof(name), &s->names[i]);
		fprintf(out, "  %s: sent %llu frames %llu bytes", name,
			(unsigned long long)st.tx_pkts,
			(unsigned long long)st.tx_bytes);
		text_rx(out, &s->names[i], st.has_rx, st.rx_pkts, st.lost, ", ");
		fputc('\n', out);
	}
	for (i = 0; i < s->n_peers; i++) {
		if (wr_rep_peer_stat_calc(s, i, &ps) != 0)
			continue;
		fprintf(out, "  peer %s: rx %llu frames %llu bytes, tx %llu "
			"frames %llu bytes; per repeat rx frames", s->peer[i],
			(unsigned long long)ps.total.rx_pkts,
			(unsigned long long)ps.total.rx_bytes,
			(unsigned long long)ps.total.tx_pkts,
			(unsigned long long)ps.total.tx_bytes);
		fprintf(out, " %.0f / %.0f / %.0f, tx frames %.0f / %.0f / %.0f\n",
			ps.rx_pkts.min, ps.rx_pkts.median, ps.rx_pkts.max,
			ps.tx_pkts.min, ps.tx_pkts.median, ps.tx_pkts.max);
	}
	fflush(out);
}

static void
json_name(FILE *out, const struct wr_rep_name *n)
{
	if (n->port) {
		fprintf(out, "{\"port\": %u, \"name\": ", n->index);
	} else {
		fputs("{\"stream\": ", out);
		wr_out_json_str(out, n->name);
		fprintf(out, ", \"port\": %u", n->index);
		return;
	}
	wr_out_json_str(out, n->name);
}

static void
json_counts(FILE *out, const struct wr_peer_counts *c)
{
	fprintf(out, "\"rx_pkts\": %llu, \"rx_bytes\": %llu, \"tx_pkts\": %llu, "
		"\"tx_bytes\": %llu, \"rx_missed\": %llu, \"rx_errors\": %llu, "
		"\"tx_errors\": %llu", (unsigned long long)c->rx_pkts,
		(unsigned long long)c->rx_bytes, (unsigned long long)c->tx_pkts,
		(unsigned long long)c->tx_bytes,
		(unsigned long long)c->rx_missed,
		(unsigned long long)c->rx_errors,
		(unsigned long long)c->tx_errors);
}

/* What came back: rx_pkts (and a stream's lost), null without RX. */
static void
json_rx(FILE *out, const struct wr_rep_name *n, bool has_rx, uint64_t rx,
	uint64_t lost)
{
	if (has_rx)
		fprintf(out, ", \"rx_pkts\": %llu", (unsigned long long)rx);
	else
		fputs(", \"rx_pkts\": null", out);
	if (!n->port && has_rx)
		fprintf(out, ", \"lost\": %llu", (unsigned long long)lost);
	else if (!n->port)
		fputs(", \"lost\": null", out);
}

static void
json_rep_row(FILE *out, const struct wr_rep_name *n, const struct wr_rep_row *r)
{
	struct wr_rates rt = wr_rates_calc(r->tx_pkts, r->tx_bytes,
					   r->duration_ns);

	json_name(out, n);
	fprintf(out, ", \"tx_pkts\": %llu, \"tx_bytes\": %llu, "
		"\"duration_s\": %.9f", (unsigned long long)r->tx_pkts,
		(unsigned long long)r->tx_bytes, (double)r->duration_ns / 1e9);
	if (r->measured)
		fprintf(out, ", \"kpps\": %.3f, \"mbps_l2\": %.3f, "
			"\"mbps_l1\": %.3f", rt.kpps, rt.mbps_l2, rt.mbps_l1);
	else
		fputs(", \"kpps\": null, \"mbps_l2\": null, \"mbps_l1\": null",
		      out);
	if (r->has_goodput)
		fprintf(out, ", \"goodput_bytes\": %llu",
			(unsigned long long)r->goodput_bytes);
	else
		fputs(", \"goodput_bytes\": null", out);
	if (r->has_goodput && r->measured)
		fprintf(out, ", \"goodput_mbps\": %.3f", goodput_mbps(r));
	else
		fputs(", \"goodput_mbps\": null", out);
	json_rx(out, n, r->has_rx, r->rx_pkts, r->lost);
	if (n->port && r->has_nic)
		fprintf(out, ", \"nic\": {\"opackets\": %llu, \"ipackets\": %llu, "
			"\"imissed\": %llu}", (unsigned long long)r->nic_opackets,
			(unsigned long long)r->nic_ipackets,
			(unsigned long long)r->nic_imissed);
	fputc('}', out);
}

static void
json_spread_or_null(FILE *out, const char *key, const struct wr_spread *sp,
		    bool known)
{
	if (known)
		wr_spread_json(out, key, sp);
	else
		fprintf(out, ", \"%s\": null", key);
}

static void
json_stat_row(FILE *out, const struct wr_rep_name *n, const struct wr_rep_stat *st)
{
	bool m = st->n_measured > 0;

	json_name(out, n);
	fprintf(out, ", \"measured\": %u, \"tx_pkts\": %llu, \"tx_bytes\": %llu",
		st->n_measured, (unsigned long long)st->tx_pkts,
		(unsigned long long)st->tx_bytes);
	json_rx(out, n, st->has_rx, st->rx_pkts, st->lost);
	json_spread_or_null(out, "kpps", &st->kpps, m);
	json_spread_or_null(out, "mbps_l2", &st->mbps_l2, m);
	json_spread_or_null(out, "mbps_l1", &st->mbps_l1, m);
	json_spread_or_null(out, "goodput_mbps", &st->goodput_mbps,
			    m && st->has_goodput);
	json_spread_or_null(out, "duration_ms", &st->duration_ms, m);
	fputc('}', out);
}

/* The rows of one kind (ports or streams) of repetition k (or, k ==
 * UINT32_MAX, of the summary) as a JSON array. */
static int
json_rows(FILE *out, const struct wr_rep_set *s, uint32_t k, bool ports,
	  const char *indent)
{
	uint32_t i, first = ports ? 0 : s->n_ports;
	uint32_t end = ports ? s->n_ports : n_rows(s);
	struct wr_rep_stat st;
	int rc;

	fputc('[', out);
	for (i = first; i < end; i++) {
		fprintf(out, "%s\n%s", i > first ? "," : "", indent);
		if (k != UINT32_MAX) {
			json_rep_row(out, &s->names[i], row_at(s, k, i));
			continue;
		}
		rc = wr_rep_stat_calc(s, i, &st);
		if (rc != 0)
			return rc;
		json_stat_row(out, &s->names[i], &st);
	}
	fputc(']', out);
	return 0;
}

int
wr_rep_json_write(FILE *out, const struct wr_rep_set *s)
{
	struct wr_rep_peer_stat ps;
	uint32_t k, i;
	int rc;

	fputs(",\n  \"repeats\": [", out);
	for (k = 0; k < s->n; k++) {
		fprintf(out, "%s\n    {\"repeat\": %u, \"duration_s\": %.9f, "
			"\"stop_reason\": ", k ? "," : "", k + 1,
			(double)s->elapsed_ns[k] / 1e9);
		wr_out_json_str(out, s->reason[k]);
		fputs(",\n     \"ports\": ", out);
		json_rows(out, s, k, true, "       ");
		fputs(",\n     \"streams\": ", out);
		json_rows(out, s, k, false, "       ");
		fputs(",\n     \"peers\": [", out);
		for (i = 0; i < s->n_peers; i++) {
			fprintf(out, "%s{\"peer\": ", i ? ", " : "");
			wr_out_json_str(out, s->peer[i]);
			fputs(", ", out);
			json_counts(out, &s->peers[(size_t)k * s->n_peers + i]);
			fputc('}', out);
		}
		fputs("]}", out);
	}
	fprintf(out, "\n  ],\n  \"summary\": {\"repeats\": %u, \"asked\": %u,"
		"\n    \"ports\": ", s->n, s->cap);
	if (s->n > 0) {
		rc = json_rows(out, s, UINT32_MAX, true, "      ");
		if (rc == 0) {
			fputs(",\n    \"streams\": ", out);
			rc = json_rows(out, s, UINT32_MAX, false, "      ");
		}
		if (rc != 0)
			return rc;
	} else {
		fputs("[],\n    \"streams\": []", out);
	}
	fputs(",\n    \"peers\": [", out);
	for (i = 0; i < s->n_peers && s->n > 0; i++) {
		rc = wr_rep_peer_stat_calc(s, i, &ps);
		if (rc != 0)
			return rc;
		fprintf(out, "%s\n      {\"peer\": ", i ? "," : "");
		wr_out_json_str(out, s->peer[i]);
		fputs(", \"total\": {", out);
		json_counts(out, &ps.total);
		fputc('}', out);
		wr_spread_json(out, "rx_pkts", &ps.rx_pkts);
		wr_spread_json(out, "rx_bytes", &ps.rx_bytes);
		wr_spread_json(out, "tx_pkts", &ps.tx_pkts);
		wr_spread_json(out, "tx_bytes", &ps.tx_bytes);
		fputc('}', out);
	}
	fputs("]}", out);
	return ferror(out) ? -EIO : 0;
}

int
wr_rep_json_more(FILE *out, const void *set)
{
	return set != NULL ? wr_rep_json_write(out, set) : 0;
}

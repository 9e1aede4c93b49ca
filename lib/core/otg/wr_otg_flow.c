/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_flow: one OTG flow as a wirerate stream: endpoints, headers, size, rate, duration, metrics, payload. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg_priv.h"
#include "wr_yaml.h"

/* wirerate's frame sizes, FCS included (doc/vary.md). */
#define SIZE_MIN 64
#define SIZE_MAX_ 9018

static const json_t *
member(const json_t *o, const char *key)
{
	return json_object_get(o, key);
}

static const char *
choice_of(const json_t *o, const char *dflt)
{
	const char *c = json_string_value(json_object_get(o, "choice"));

	return c != NULL ? c : dflt;
}

/* An unsigned integer member (a JSON number or a decimal string, as
 * snappi writes 64-bit ones), @p dflt when absent. */
static int
get_u64(const json_t *o, const char *key, uint64_t dflt, const char *path,
	uint64_t *out, struct wr_otg_err *err)
{
	const json_t *j = json_object_get(o, key);
	u128 v;

	if (j == NULL) {
		*out = dflt;
		return 0;
	}
	if (wr_otg_val_parse(WR_OTG_VK_INT, j, &v) != 0 || v > UINT64_MAX)
		return wr_otg_err_add(err, path, "%s: expected an unsigned "
				      "integer", key);
	*out = (uint64_t)v;
	return 0;
}

static int
get_num(const json_t *o, const char *key, double dflt, const char *path,
	double *out, struct wr_otg_err *err)
{
	const json_t *j = json_object_get(o, key);

	if (j == NULL) {
		*out = dflt;
		return 0;
	}
	if (!json_is_number(j) || json_number_value(j) < 0)
		return wr_otg_err_add(err, path, "%s: expected a number >= 0",
				      key);
	*out = json_number_value(j);
	return 0;
}

static int
set(json_t *o, const char *key, json_t *v)
{
	return v == NULL || json_object_set_new(o, key, v) != 0 ? -ENOMEM : 0;
}

static int
port_index(const struct wr_otg_plan *p, const char *name)
{
	unsigned int i;

	for (i = 0; p != NULL && i < p->n_ports; i++)
		if (strcmp(p->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---- size ---- */

static int
size_check(uint64_t v, const char *path, const char *key,
	   struct wr_otg_err *err)
{
	if (v >= SIZE_MIN && v <= SIZE_MAX_)
		return 0;
	return wr_otg_err_add(err, path, "%s: expected a frame size in %u..%u "
			      "(with its FCS), got %" PRIu64, key, SIZE_MIN,
			      SIZE_MAX_, v);
}

/* The model's predefined distributions; weights in hundredths. */
struct wpair {
	unsigned int size, weight;
};
static const struct {
	const char *name;
	struct wpair w[4];
} predef[] = {
	{ "imix", { { 64, 700 }, { 570, 400 }, { 1518, 100 }, { 0, 0 } } },
	{ "ipsec_imix", { { 90, 5867 }, { 92, 200 }, { 594, 2366 }, { 1418, 1567 } } },
	{ "ipv6_imix", { { 60, 5867 }, { 496, 200 }, { 594, 2366 }, { 1518, 1567 } } },
	{ "standard_imix", { { 58, 5867 }, { 62, 200 }, { 594, 2366 }, { 1518, 1567 } } },
	{ "tcp_imix", { { 90, 5867 }, { 92, 200 }, { 594, 2366 }, { 1518, 1567 } } },
};

static int
mix_add(json_t *mix, uint64_t size, uint64_t weight, const char *path,
	struct wr_otg_err *err)
{
	if (weight == 0)
		return 0; /* a size never sent */
	if (size_check(size, path, "size", err) != 0)
		return -EINVAL;
	return json_array_append_new(mix, json_pack("{s:I, s:I}", "size",
			(json_int_t)size, "weight", (json_int_t)weight)) != 0 ?
		-ENOMEM : 0;
}

/*
 * weight_pairs: the model draws sizes at random in these proportions;
 * wirerate's mix sends exactly these proportions in every cycle, spread
 * out (doc/vary.md).  Weights are floats in the model: kept to a
 * hundredth (the predefined ones have two decimals).
 */
static int
size_weights(const json_t *wp, const char *path, json_t *stream,
	     struct wr_otg_err *err)
{
	const char *c = choice_of(wp, "predefined");
	char p[WR_OTG_PATH_MAX];
	json_t *mix = json_array();
	size_t i, k;
	int rc = 0;

	if (mix == NULL)
		return -ENOMEM;
	if (strcmp(c, "predefined") == 0) {
		const char *name = json_string_value(member(wp, "predefined"));

		wr_otg_at(p, "%s.predefined", path);
		for (i = 0; i < sizeof(predef) / sizeof(predef[0]); i++)
			if (strcmp(predef[i].name, name != NULL ? name : "imix") == 0)
				break;
		if (i == sizeof(predef) / sizeof(predef[0]))
			rc = wr_otg_err_add(err, p, "unknown distribution");
		for (k = 0; rc == 0 && k < 4; k++)
			rc = mix_add(mix, predef[i].w[k].size,
				     predef[i].w[k].weight, p, err);
	} else {
		const json_t *cu = member(wp, "custom");

		for (k = 0; k < json_array_size(cu); k++) {
			const json_t *e = json_array_get(cu, k);
			uint64_t size = 0;
			double w = 0;

			wr_otg_at(p, "%s.custom[%zu]", path, k);
			if (get_u64(e, "size", 64, p, &size, err) != 0 ||
			    get_num(e, "weight", 1, p, &w, err) != 0) {
				rc = -EINVAL;
				continue;
			}
			if (w > 10000) {
				rc = wr_otg_err_add(err, p, "weight: expected "
						    "at most 10000");
				continue;
			}
			rc |= mix_add(mix, size, (uint64_t)llround(w * 100), p, err);
		}
	}
	if (rc == 0 && json_array_size(mix) == 0)
		rc = wr_otg_err_add(err, path, "expected at least one size "
				    "with a weight above 0");
	if (rc != 0) {
		json_decref(mix);
		return -EINVAL;
	}
	return set(stream, "size", json_pack("{s:o}", "mix", mix));
}

static int
flow_size(const json_t *sz, const char *path, json_t *stream,
	  struct wr_otg_flow *out, struct wr_otg_err *err)
{
	const char *c = choice_of(sz, "fixed");
	char p[WR_OTG_PATH_MAX];
	uint64_t a = 0, b = 0, step = 0;

	wr_otg_at(p, "%s.%s", path, c);
	if (strcmp(c, "fixed") == 0) {
		if (get_u64(sz, "fixed", 64, path, &a, err) != 0 ||
		    size_check(a, path, "fixed", err) != 0)
			return -EINVAL;
		out->size_fixed = (uint32_t)a;
		return set(stream, "size", json_integer((json_int_t)a));
	}
	if (strcmp(c, "increment") == 0) {
		const json_t *o = member(sz, "increment");

		if (get_u64(o, "start", 64, p, &a, err) != 0 ||
		    get_u64(o, "end", 1518, p, &b, err) != 0 ||
		    get_u64(o, "step", 1, p, &step, err) != 0 ||
		    size_check(a, p, "start", err) != 0 ||
		    size_check(b, p, "end", err) != 0)
			return -EINVAL;
		if (b < a || step == 0)
			return wr_otg_err_add(err, p, "expected start <= end "
					      "and a step >= 1");
		return set(stream, "size", json_pack("{s:{s:I, s:I, s:I}}",
				"inc", "from", (json_int_t)a, "to",
				(json_int_t)b, "step", (json_int_t)step));
	}
	if (strcmp(c, "random") == 0) {
		const json_t *o = member(sz, "random");

		if (get_u64(o, "min", 64, p, &a, err) != 0 ||
		    get_u64(o, "max", 1518, p, &b, err) != 0 ||
		    size_check(a, p, "min", err) != 0 ||
		    size_check(b, p, "max", err) != 0)
			return -EINVAL;
		if (b < a)
			return wr_otg_err_add(err, p, "expected min <= max");
		return set(stream, "size", json_pack("{s:{s:I, s:I}}", "random",
				"min", (json_int_t)a, "max", (json_int_t)b));
	}
	if (strcmp(c, "weight_pairs") == 0)
		return size_weights(member(sz, "weight_pairs"), p, stream, err);
	return wr_otg_err_add(err, path, "choice %s: unknown", c);
}

/* ---- rate ---- */

/*
 * bps, kbps, mbps and gbps count the line (L1: the frame, its preamble
 * and the inter-frame gap): the model's least bps, 672, is one 64-byte
 * frame a second with its 20 bytes of preamble and gap.  percentage is
 * of the port's line rate, L1 too (wirerate's "50%").
 */
/* A fixed size's frames closer together than the port's line allows (L1:
 * + 20 bytes of preamble, SFD and gap): the model's rate "above the line" is
 * a validation error, not a run that quietly sends less.  Unknown speed:
 * nothing to compare. */
static bool
above_line(double period_ns, uint32_t size, uint32_t line_mbps,
	   const char *path, const char *unit, struct wr_otg_err *err)
{
	double line_ns;
	char q[WR_OTG_PATH_MAX];

	if (size == 0 || line_mbps == 0)
		return false;
	line_ns = (size + 20) * 8 * 1000.0 / line_mbps;
	if (period_ns >= line_ns * (1 - 1e-9))
		return false;
	wr_otg_at(q, "%s.%s", path, unit);
	wr_otg_err_add(err, q, "above the line: %.0f frames/s of %u bytes, "
		       "the port's %u Mb/s carries at most %.0f", 1e9 / period_ns,
		       size, line_mbps, 1e9 / line_ns);
	return true;
}

static int
flow_rate(const json_t *r, const char *path, uint32_t size, uint32_t line_mbps,
	  json_t *stream, double *period_ns, struct wr_otg_err *err)
{
	static const char *const units[] = { "bps", "kbps", "mbps", "gbps" };
	static const char *const wr_units[] = { "bps", "Kbps", "Mbps", "Gbps" };
	const char *c = choice_of(r, "pps");
	char txt[64];
	uint64_t v = 0;
	size_t i;

	if (strcmp(c, "percentage") == 0) {
		double pct = 0;

		if (get_num(r, "percentage", 100, path, &pct, err) != 0)
			return -EINVAL;
		if (pct <= 0 || pct > 100)
			return wr_otg_err_add(err, path, "percentage: expected "
					      "a percentage above 0, at most 100");
		/* wirerate keeps millionths of the line: 4 decimals. */
		snprintf(txt, sizeof(txt), "%.4f%%", pct);
		if (size > 0 && line_mbps > 0)
			*period_ns = (size + 20) * 8 * 1000.0 /
				     (line_mbps * pct / 100);
		return set(stream, "rate", json_string(txt));
	}
	if (strcmp(c, "pps") == 0) {
		if (get_u64(r, "pps", 1000, path, &v, err) != 0)
			return -EINVAL;
		if (v == 0)
			return wr_otg_err_add(err, path, "pps: expected an "
					      "integer >= 1, got 0");
		snprintf(txt, sizeof(txt), "%" PRIu64 " pps", v);
		*period_ns = 1e9 / (double)v;
		/* A varying size: above the line at its smallest frames. */
		if (above_line(*period_ns, size > 0 ? size : SIZE_MIN, line_mbps,
			       path, c, err))
			return -EINVAL;
		return set(stream, "rate", json_string(txt));
	}
	for (i = 0; i < 4; i++)
		if (strcmp(c, units[i]) == 0)
			break;
	if (i == 4)
		return wr_otg_err_add(err, path, "choice %s: unknown", c);
	if (get_u64(r, c, 0, path, &v, err) != 0)
		return -EINVAL;
	if (v == 0)
		return wr_otg_err_add(err, path, "%s: expected an integer >= 1, "
				      "got 0", c);
	snprintf(txt, sizeof(txt), "%" PRIu64 " %s L1", v, wr_units[i]);
	if (size > 0)
		*period_ns = (size + 20) * 8 * 1e9 / ((double)v * pow(1000, i));
	/* Bits on the line whatever the sizes: any frame size tells. */
	if (above_line((((size > 0 ? size : SIZE_MIN) + 20) * 8 * 1e9) /
		       ((double)v * pow(1000, i)), size > 0 ? size : SIZE_MIN,
		       line_mbps, path, c, err))
		return -EINVAL;
	return set(stream, "rate", json_string(txt));
}

/* ---- duration ---- */

/* A delay or gap in bytes, ns or us, in ns at the port's line rate;
 * bytes beyond @p ifg_b (the inter-frame gap the period already holds). */
static int
time_ns(const json_t *o, const char *path, uint32_t line_mbps, double dflt_b,
	double ifg_b, uint64_t *ns, struct wr_otg_err *err)
{
	const char *c = choice_of(o, "bytes");
	double v = 0;

	if (get_num(o, c, strcmp(c, "bytes") == 0 ? dflt_b : 0, path, &v,
		    err) != 0)
		return -EINVAL;
	if (v > 1e12)
		return wr_otg_err_add(err, path, "%s: expected at most 1e12", c);
	if (strcmp(c, "nanoseconds") == 0)
		*ns = (uint64_t)llround(v);
	else if (strcmp(c, "microseconds") == 0)
		*ns = (uint64_t)llround(v * 1000);
	else if (v <= ifg_b)
		*ns = 0;
	else if (line_mbps == 0)
		return wr_otg_err_add(err, path, "bytes: the port's line rate "
				      "is not known here: give nanoseconds or "
				      "microseconds");
	else /* 8 bits a byte at line_mbps bits per microsecond */
		*ns = (uint64_t)llround((v - ifg_b) * 8000.0 / line_mbps);
	return 0;
}

static int
set_ns(json_t *stream, const char *key, uint64_t ns)
{
	char txt[40];

	snprintf(txt, sizeof(txt), "%" PRIu64 "ns", ns);
	return set(stream, key, json_string(txt));
}

/* The packets' minimum gap: wirerate paces at the rate; the standard
 * inter-frame gap (12 bytes, the model's default) is what every port
 * keeps anyway.  A larger one cannot be promised: refused. */
static int
gap_check(const json_t *o, const char *path, struct wr_otg_err *err)
{
	uint64_t gap = 0;

	if (get_u64(o, "gap", 12, path, &gap, err) != 0)
		return -EINVAL;
	if (gap != 12)
		return wr_otg_err_add(err, path, "gap: wirerate keeps the "
				      "standard inter-frame gap, 12 bytes, got %"
				      PRIu64, gap);
	return 0;
}

static int flow_burst(const json_t *o, const char *path, uint32_t line_mbps,
		      double period_ns, json_t *stream, struct wr_otg_flow *out,
		      struct wr_otg_err *err);

static int
flow_duration(const json_t *d, const char *path, uint32_t line_mbps,
	      double period_ns, json_t *stream, struct wr_otg_flow *out,
	      struct wr_otg_err *err)
{
	const char *c = choice_of(d, "continuous");
	const json_t *o = member(d, c);
	char p[WR_OTG_PATH_MAX], pd[WR_OTG_PATH_MAX];
	uint64_t v = 0, ns = 0;
	int rc;

	wr_otg_at(p, "%s.%s", path, c);
	wr_otg_at(pd, "%s.delay", p);
	rc = gap_check(o, p, err);
	if (strcmp(c, "burst") != 0 && member(o, "delay") != NULL)
		rc |= time_ns(member(o, "delay"), pd, line_mbps, 0, 0, &ns, err);
	if (rc == 0 && ns > 0)
		rc = set_ns(stream, "isg", ns);
	if (rc != 0)
		return -EINVAL;
	if (strcmp(c, "continuous") == 0)
		return 0;
	if (strcmp(c, "fixed_packets") == 0) {
		if (get_u64(o, "packets", 1, p, &v, err) != 0)
			return -EINVAL;
		if (v == 0)
			return wr_otg_err_add(err, p, "packets: expected an "
					      "integer >= 1, got 0");
		out->packets = v;
		return set(stream, "count", json_integer((json_int_t)v));
	}
	if (strcmp(c, "fixed_seconds") == 0) {
		double s = 0;

		if (get_num(o, "seconds", 1, p, &s, err) != 0)
			return -EINVAL;
		if (s <= 0 || s > 1e9)
			return wr_otg_err_add(err, p, "seconds: expected a "
					      "number above 0");
		return set_ns(stream, "duration", (uint64_t)llround(s * 1e9));
	}
	if (strcmp(c, "burst") == 0)
		return flow_burst(o, p, line_mbps, period_ns, stream, out, err);
	return wr_otg_err_add(err, path, "choice %s: unknown", c);
}

/*
 * burst: `packets` frames at the flow's rate, then the inter-burst gap
 * added to the period before the next burst, as wirerate's trains
 * ({frames, gap}: gap from a train's last frame's deadline to the next
 * train's first, so the period + the inter-burst gap); `bursts` of them
 * (0: for ever).  A gap in bytes counts the line time beyond the standard
 * 12-byte inter-frame gap, which every period already holds: the model's
 * default (12 bytes) adds nothing, and 0 runs the bursts together too.
 * A period that is not known (a bps or percentage rate of varying
 * sizes) with a gap is refused.
 */
static int
flow_burst(const json_t *o, const char *path, uint32_t line_mbps,
	   double period_ns, json_t *stream, struct wr_otg_flow *out,
	   struct wr_otg_err *err)
{
	char p[WR_OTG_PATH_MAX];
	uint64_t bursts = 0, packets = 0, ibg = 0;
	json_t *bj;

	wr_otg_at(p, "%s.inter_burst_gap", path);
	if (get_u64(o, "bursts", 0, path, &bursts, err) != 0 ||
	    get_u64(o, "packets", 1, path, &packets, err) != 0)
		return -EINVAL;
	if (packets == 0 || packets > 1000000)
		return wr_otg_err_add(err, path, "packets: expected an integer "
				      "in 1..1000000");
	if (member(o, "inter_burst_gap") != NULL &&
	    time_ns(member(o, "inter_burst_gap"), p, line_mbps, 12, 12, &ibg,
		    err) != 0)
		return -EINVAL;
	if (bursts > 0) {
		if (packets > UINT64_MAX / bursts)
			return wr_otg_err_add(err, path, "bursts x packets: "
					      "above 2^64");
		out->packets = bursts * packets;
		if (set(stream, "count", json_integer((json_int_t)out->packets)) != 0)
			return -ENOMEM;
	}
	if (ibg == 0)
		return 0;
	if (period_ns <= 0)
		return wr_otg_err_add(err, p, "the flow's frame period is not "
				      "known (a bit rate of varying sizes, or a "
				      "percentage of a port of unknown speed): "
				      "give a pps rate or a fixed size");
	bj = json_object();
	if (bj == NULL || set(bj, "frames", json_integer((json_int_t)packets)) != 0 ||
	    set_ns(bj, "gap", ibg + (uint64_t)llround(period_ns)) != 0) {
		json_decref(bj);
		return -ENOMEM;
	}
	return set(stream, "bursts", bj);
}

/* ---- metrics, payload, endpoints ---- */

static int
flow_metrics(const json_t *m, const char *path, json_t *stream,
	     struct wr_otg_flow *out, struct wr_otg_err *err)
{
	const json_t *lat = member(m, "latency");
	const json_t *ratio = member(m, "rx_tx_ratio");
	int rc = 0;

	if (json_is_true(member(member(m, "predefined_metric_tags"), "rx_name")))
		rc = wr_otg_err_add(err, path, "predefined_metric_tags.rx_name: "
				    "not supported: wirerate counts a flow's "
				    "frames over all its receive ports");
	if (ratio != NULL && (strcmp(choice_of(ratio, "value"), "value") != 0 ||
			      (member(ratio, "value") != NULL &&
			       json_number_value(member(ratio, "value")) != 1.0)))
		rc = wr_otg_err_add(err, path, "rx_tx_ratio: only 1 (every "
				    "frame sent is expected once)");
	if (rc != 0)
		return -EINVAL;

	out->metrics = json_is_true(member(m, "enable"));
	out->loss = json_is_true(member(m, "loss"));
	out->timestamps = json_is_true(member(m, "timestamps"));
	out->latency = json_is_true(member(lat, "enable"));
	out->cut_through = json_is_string(member(lat, "mode")) &&
		strcmp(json_string_value(member(lat, "mode")), "cut_through") == 0;
	/* Every metric of a flow comes from its signature (sequence
	 * numbers for loss, the TX time for latency and timestamps). */
	if (!out->metrics)
		return 0;
	return set(stream, "latency", json_true());
}

static int
flow_payload(const json_t *pl, const char *path, json_t *stream,
	     struct wr_otg_err *err)
{
	const char *c = choice_of(pl, "fixed");
	char p[WR_OTG_PATH_MAX];

	wr_otg_at(p, "%s.%s", path, c);
	if (strcmp(c, "increment_byte") == 0)
		return set(stream, "payload", json_string("inc"));
	if (strcmp(c, "fixed") == 0) {
		const json_t *f = member(pl, "fixed");
		const char *pat = json_string_value(member(f, "pattern"));
		size_t i, n;

		if (pat == NULL || strspn(pat, "0") == strlen(pat))
			return 0; /* zeros, repeated or not */
		if (json_is_false(member(f, "repeat")))
			return wr_otg_err_add(err, p, "repeat: false: wirerate "
					      "repeats a pattern to the end of "
					      "the frame");
		n = strlen(pat);
		for (i = 0; i < n; i++)
			if (!((pat[i] >= '0' && pat[i] <= '9') ||
			      (pat[i] >= 'a' && pat[i] <= 'f') ||
			      (pat[i] >= 'A' && pat[i] <= 'F')))
				break;
		if (i < n || n % 2 != 0)
			return wr_otg_err_add(err, p, "pattern: expected hex "
					      "bytes, got \"%s\"", pat);
		return set(stream, "payload", json_pack("{s:s}", "pattern", pat));
	}
	return wr_otg_err_add(err, p, "not supported: wirerate's payloads are "
			      "zeros, a repeated pattern or increment_byte");
}

/* The plan's device record (p->devices) an OTG name stands for: an
 * ethernet's name, or its IPv4 or IPv6 address's; *@p af 0, 4 or 6. */
static const json_t *
device_find(const struct wr_otg_plan *p, const char *name, int *af)
{
	size_t i;

	for (i = 0; name != NULL && i < json_array_size(p->devices); i++) {
		const json_t *d = json_array_get(p->devices, i);
		const char *dn = json_string_value(json_object_get(d, "name"));
		const char *n4 = json_string_value(json_object_get(
					json_object_get(d, "ipv4"), "name"));
		const char *n6 = json_string_value(json_object_get(
					json_object_get(d, "ipv6"), "name"));

		*af = 0;
		if (dn != NULL && strcmp(dn, name) == 0)
			return d;
		*af = 4;
		if (n4 != NULL && strcmp(n4, name) == 0)
			return d;
		*af = 6;
		if (n6 != NULL && strcmp(n6, name) == 0)
			return d;
	}
	return NULL;
}

/* The plan's device whose IPv@p af address is @p addr (the same text as
 * the config gives it), or NULL. */
static const json_t *
device_at(const struct wr_otg_plan *p, int af, const char *addr)
{
	enum wr_otg_vk k = af == 6 ? WR_OTG_VK_IP6 : WR_OTG_VK_IP4;
	const json_t *found = NULL;
	json_t *want = addr != NULL ? json_string(addr) : NULL;
	u128 x, y;
	size_t i;

	if (want == NULL || wr_otg_val_parse(k, want, &y) != 0) {
		json_decref(want);
		return NULL;
	}
	for (i = 0; found == NULL && i < json_array_size(p->devices); i++) {
		const json_t *d = json_array_get(p->devices, i);
		const json_t *a = json_object_get(json_object_get(d, af == 6 ?
						  "ipv6" : "ipv4"), "address");

		if (a != NULL && json_is_string(json_object_get(d, "mac")) &&
		    wr_otg_val_parse(k, a, &x) == 0 && x == y)
			found = d;
	}
	json_decref(want);
	return found;
}

/*
 * tx_rx device: the flow leaves the port of its transmit device; its
 * ethernet.dst auto is the next hop's MAC: an IPv4 (IPv6) endpoint's
 * gateway, resolved by ARP (ND) when the run starts (eth: {dst: arp} and
 * the stream's gateway:, doc/stack.md), or the gateway_mac the config
 * gives; an ethernet endpoint's, the receiving ethernet's own MAC.  One
 * transmit endpoint (one stream: one port, one next hop); received on
 * every receiving device's port.
 */
static int
flow_devices(const json_t *o, const char *path, const struct wr_otg_plan *p,
	     json_t *stream, struct wr_otg_flow *out,
	     struct wr_otg_hdr_ctx *ctx, uint32_t *line_mbps,
	     struct wr_otg_err *err)
{
	const json_t *tx = json_object_get(o, "tx_names");
	const json_t *rx = json_object_get(o, "rx_names");
	const json_t *d, *ip, *gwdev;
	char at[WR_OTG_PATH_MAX];
	size_t i;
	int af = 0, af_rx = 0, port, rc = 0;

	if (json_is_true(json_object_get(o, "bidirectional"))) {
		wr_otg_at(at, "%s.bidirectional", path);
		return wr_otg_err_add(err, at, "not supported: give the way "
				      "back a flow of its own");
	}
	if (json_array_size(tx) != 1) {
		wr_otg_at(at, "%s.tx_names", path);
		return wr_otg_err_add(err, at, "expected one transmit device "
				      "(a flow is one stream, from one port "
				      "to one next hop), got %zu",
				      json_array_size(tx));
	}
	wr_otg_at(at, "%s.tx_names[0]", path);
	d = device_find(p, json_string_value(json_array_get(tx, 0)), &af);
	if (d == NULL)
		return wr_otg_err_add(err, at, "no device ethernet, ipv4 or "
				      "ipv6 named \"%s\"",
				      json_string_value(json_array_get(tx, 0)));
	port = (int)json_integer_value(json_object_get(d, "port"));
	for (i = 0; i < json_array_size(rx); i++) {
		const json_t *r = device_find(p, json_string_value(
						json_array_get(rx, i)), &af_rx);

		wr_otg_at(at, "%s.rx_names[%zu]", path, i);
		if (r == NULL)
			rc = wr_otg_err_add(err, at, "no device ethernet, ipv4 "
					    "or ipv6 named \"%s\"",
					    json_string_value(json_array_get(rx, i)));
		else if (r == d)
			rc = wr_otg_err_add(err, at, "the transmit device "
					    "itself");
		else
			out->rx_ports |= 1ull << json_integer_value(
					json_object_get(r, "port"));
		if (r != NULL && i == 0 && af == 0 && json_array_size(rx) == 1)
			ctx->dst_mac = json_string_value(json_object_get(r, "mac"));
	}
	if (rc != 0)
		return -EINVAL;
	out->tx_port = (unsigned int)port;
	*line_mbps = p->ports[port].line_mbps;
	ip = json_object_get(d, af == 6 ? "ipv6" : "ipv4");
	if (af != 0 && json_string_value(json_object_get(ip, "gateway_mac")) != NULL) {
		ctx->dst_mac = json_string_value(json_object_get(ip, "gateway_mac"));
	} else if (af != 0 && (gwdev = device_at(p, af, json_string_value(
				json_object_get(ip, "gateway")))) != NULL) {
		/* The gateway is a device of this config (back to back):
		 * its MAC is known, and it answers with that one.  Asking
		 * from the port (eth dst arp) would teach it the port's
		 * MAC for the sender's address instead of the device's. */
		ctx->dst_mac = json_string_value(json_object_get(gwdev, "mac"));
	} else if (af != 0) {
		ctx->dst_resolve = af == 6 ? "nd" : "arp";
		if (set(stream, "gateway", json_string(json_string_value(
				json_object_get(ip, "gateway")))) != 0)
			return -ENOMEM;
	}
	return set(stream, "port", json_integer(port));
}

static int
flow_txrx(const json_t *txrx, const char *path, const struct wr_otg_plan *p,
	  json_t *stream, struct wr_otg_flow *out, struct wr_otg_hdr_ctx *ctx,
	  uint32_t *line_mbps, struct wr_otg_err *err)
{
	const char *c = choice_of(txrx, "port");
	const json_t *o = member(txrx, c);
	char q[WR_OTG_PATH_MAX], t[WR_OTG_PATH_MAX];
	const char *tx;
	size_t i;
	int rc = 0, k;

	wr_otg_at(q, "%s.%s", path, c);
	if (strcmp(c, "device") == 0)
		return flow_devices(o, q, p, stream, out, ctx, line_mbps, err);
	tx = json_string_value(member(o, "tx_name"));
	k = tx != NULL ? port_index(p, tx) : -1;
	if (k < 0) {
		/* The member's own path: what a script has to change. */
		wr_otg_at(t, "%s.tx_name", q);
		return wr_otg_err_add(err, t, "no port named \"%s\"",
				      tx != NULL ? tx : "");
	}
	out->tx_port = (unsigned int)k;
	*line_mbps = p->ports[k].line_mbps;
	for (i = 0; i < json_array_size(member(o, "rx_names")); i++) {
		const char *rx = json_string_value(json_array_get(member(o,
							"rx_names"), i));

		k = rx != NULL ? port_index(p, rx) : -1;
		if (k < 0) {
			wr_otg_at(t, "%s.rx_names[%zu]", q, i);
			rc = wr_otg_err_add(err, t, "no port named \"%s\"",
					    rx != NULL ? rx : "");
		} else
			out->rx_ports |= 1ull << k;
	}
	if (member(o, "rx_name") != NULL) {
		const char *rx = json_string_value(member(o, "rx_name"));

		k = rx != NULL ? port_index(p, rx) : -1;
		if (k < 0) {
			wr_otg_at(t, "%s.rx_name", q);
			rc = wr_otg_err_add(err, t, "no port named \"%s\"",
					    rx != NULL ? rx : "");
		} else
			out->rx_ports |= 1ull << k;
	}
	if (rc != 0)
		return -EINVAL;
	return set(stream, "port", json_integer((json_int_t)out->tx_port));
}

/*
 * The stream loaded as the plan's file will load it (the one loader of
 * every stream): what it refuses (a header that cannot carry the next, a
 * size too small for the headers, a varying field the layer keeps fixed)
 * is refused here, at the flow's path: its "streams[0].stack[k]" is the
 * flow's "packet[k]" (one layer per header).
 */
static int
stream_validate(const json_t *stream, const char *path, struct wr_otg_err *err)
{
	struct wr_stream_file file;
	struct wr_error e;
	json_t *doc;
	const char *rest;
	char *txt, where[WR_OTG_PATH_MAX];
	int rc;

	doc = json_pack("{s:i, s:[O]}", "version", 1, "streams", stream);
	txt = doc != NULL ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	if (txt == NULL)
		return -ENOMEM;
	memset(&file, 0, sizeof(file));
	wr_error_clear(&e);
	rc = wr_yaml_load_streams_buf("otg", txt, strlen(txt), &file, &e);
	free(txt);
	if (rc == 0) {
		wr_stream_file_free(&file);
		return 0;
	}
	if (rc == -ENOMEM)
		return rc;
	rest = strncmp(e.path, "streams[0]", 10) == 0 ? e.path + 10 : "";
	if (strncmp(rest, ".stack[", 7) == 0)
		wr_otg_at(where, "%s.packet[%s", path, rest + 7);
	else if (strncmp(rest, ".stack", 6) == 0)
		wr_otg_at(where, "%s.packet%s", path, rest + 6);
	else
		wr_otg_at(where, "%s%s", path, rest);
	return wr_otg_err_add(err, where, "%s", e.msg);
}

/* The stream's name: unique in the file (the flow's index), of the
 * characters a stream name takes (the OTG name says which flow). */
static void
stream_name(const char *otg, unsigned int index, char *out, size_t len)
{
	size_t n, i;

	n = (size_t)snprintf(out, len, "f%u-", index);
	for (i = 0; otg[i] != '\0' && n + 1 < len && n < 63; i++) {
		char ch = otg[i];

		out[n++] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			   (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
			   ch == '_' ? ch : '_';
	}
	out[n] = '\0';
}

int
wr_otg_flow_stream(const json_t *flow, const char *path, unsigned int index,
		   const struct wr_otg_plan *p, struct wr_otg_flow *out,
		   json_t **stream, struct wr_otg_err *err)
{
	struct wr_otg_hdr_ctx ctx = { NULL };
	char q[WR_OTG_PATH_MAX];
	const char *name = json_string_value(member(flow, "name"));
	uint32_t line_mbps = 0;
	double period_ns = 0;
	json_t *s, *stack;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	*stream = NULL;
	if (name == NULL)
		return wr_otg_err_add(err, path, "name: required");
	snprintf(out->name, sizeof(out->name), "%s", name);
	stream_name(name, index, out->stream, sizeof(out->stream));
	s = json_object();
	stack = json_array();
	if (s == NULL || stack == NULL || set(s, "name", json_string(out->stream)) != 0) {
		json_decref(s);
		json_decref(stack);
		return -ENOMEM;
	}
	wr_otg_at(q, "%s.tx_rx", path);
	rc |= flow_txrx(member(flow, "tx_rx"), q, p, s, out, &ctx, &line_mbps, err);
	wr_otg_at(q, "%s.packet", path);
	if (member(flow, "packet") == NULL) {
		/* The model's default: one ethernet header. */
		json_t *d = json_pack("[{s:s}]", "choice", "ethernet");

		rc |= wr_otg_hdr_stack(d, q, &ctx, stack, err);
		json_decref(d);
	} else {
		rc |= wr_otg_hdr_stack(member(flow, "packet"), q, &ctx, stack, err);
	}
	if (json_array_size(member(flow, "egress_packet")) > 0) {
		wr_otg_at(q, "%s.egress_packet", path);
		rc |= wr_otg_err_add(err, q, "not supported: wirerate counts a "
				     "flow as a whole (no egress tracking)");
	}
	wr_otg_at(q, "%s.size", path);
	rc |= flow_size(member(flow, "size"), q, s, out, err);
	wr_otg_at(q, "%s.rate", path);
	rc |= flow_rate(member(flow, "rate"), q, out->size_fixed, line_mbps, s,
			&period_ns, err);
	wr_otg_at(q, "%s.duration", path);
	rc |= flow_duration(member(flow, "duration"), q, line_mbps, period_ns,
			    s, out, err);
	wr_otg_at(q, "%s.metrics", path);
	rc |= flow_metrics(member(flow, "metrics"), q, s, out, err);
	wr_otg_at(q, "%s.payload", path);
	rc |= flow_payload(member(flow, "payload"), q, s, err);
	if (rc == 0)
		rc = set(s, "stack", json_incref(stack));
	json_decref(stack);
	if (rc == 0)
		rc = stream_validate(s, path, err);
	if (rc != 0) {
		json_decref(s);
		return rc == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	*stream = s;
	return 0;
}

/* ---- PATCH /config ---- */

static int
flow_by_name(const struct wr_otg_plan *p, const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < p->n_flows; i++)
		if (strcmp(p->flows[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* One flow of a Flows.Update: its new stream and config entry, built
 * aside (the plan is changed only when every flow of the update is
 * right).  Only the properties named are read. */
static int
update_one(const struct wr_otg_plan *p, unsigned int i, const json_t *nf,
	   const char *path, bool rate, bool size, json_t **stream,
	   json_t **cfg_flow, uint32_t *size_fixed, struct wr_otg_err *err)
{
	const json_t *old = json_array_get(json_object_get(p->config, "flows"), i);
	struct wr_otg_flow tmp = p->flows[i];
	char q[WR_OTG_PATH_MAX];
	double period_ns = 0;
	int rc = 0;

	*stream = json_deep_copy(json_array_get(p->streams, i));
	*cfg_flow = json_deep_copy(old);
	if (*stream == NULL || *cfg_flow == NULL)
		return -ENOMEM;
	if (size) {
		wr_otg_at(q, "%s.size", path);
		json_object_del(*stream, "size");
		tmp.size_fixed = 0;
		rc |= flow_size(member(nf, "size"), q, *stream, &tmp, err);
		if (member(nf, "size") != NULL)
			json_object_set_new(*cfg_flow, "size",
					    json_deep_copy(member(nf, "size")));
		else
			json_object_del(*cfg_flow, "size");
	}
	if (rate) {
		wr_otg_at(q, "%s.rate", path);
		rc |= flow_rate(member(nf, "rate"), q, tmp.size_fixed,
				p->ports[tmp.tx_port].line_mbps, *stream,
				&period_ns, err);
		if (member(nf, "rate") != NULL)
			json_object_set_new(*cfg_flow, "rate",
					    json_deep_copy(member(nf, "rate")));
		else
			json_object_del(*cfg_flow, "rate");
	}
	wr_otg_at(q, "%s", path);
	if (rc == 0)
		rc = stream_validate(*stream, q, err);
	*size_fixed = tmp.size_fixed;
	return rc;
}

/*
 * Config.Update (flows: property_names rate and/or size, each flow by
 * name): what the new values make of each named flow's stream.  A rate
 * or size of the model's own kinds; a bursts: train whose period came
 * from the old rate is left as it is (the engine's update changes the
 * rate, not a schedule).
 */
int
wr_otg_update(struct wr_otg_plan *p, const json_t *upd, bool *changed,
	      struct wr_otg_err *err)
{
	const json_t *fu = member(upd, "flows");
	const json_t *names = member(fu, "property_names");
	const json_t *flows = member(fu, "flows");
	size_t n = json_array_size(flows), j, k;
	json_t **streams, **cfgs, *cfg_flows;
	uint32_t *sizes;
	bool rate = false, size = false;
	char q[WR_OTG_PATH_MAX];
	int *idx, rc = 0;

	if (strcmp(choice_of(upd, "flows"), "flows") != 0)
		return wr_otg_err_add(err, "choice", "%s: not supported: wirerate "
				      "updates flows only", choice_of(upd, ""));
	for (k = 0; k < json_array_size(names); k++) {
		const char *nm = json_string_value(json_array_get(names, k));

		rate |= nm != NULL && strcmp(nm, "rate") == 0;
		size |= nm != NULL && strcmp(nm, "size") == 0;
	}
	if (!rate && !size)
		return wr_otg_err_add(err, "flows.property_names", "expected "
				      "rate and/or size");
	streams = calloc(n + 1, sizeof(*streams));
	cfgs = calloc(n + 1, sizeof(*cfgs));
	sizes = calloc(n + 1, sizeof(*sizes));
	idx = calloc(n + 1, sizeof(*idx));
	if (streams == NULL || cfgs == NULL || sizes == NULL || idx == NULL)
		rc = -ENOMEM;
	for (j = 0; rc != -ENOMEM && j < n; j++) {
		const json_t *nf = json_array_get(flows, j);

		wr_otg_at(q, "flows.flows[%zu]", j);
		idx[j] = flow_by_name(p, json_string_value(member(nf, "name")));
		if (idx[j] < 0) {
			rc = wr_otg_err_add(err, q, "name: no flow named \"%s\" "
					    "in the config", json_string_value(
						    member(nf, "name")) ?: "");
			continue;
		}
		for (k = 0; k < j; k++)
			if (idx[k] == idx[j])
				rc = wr_otg_err_add(err, q, "name: flow \"%s\" "
						    "twice", p->flows[idx[j]].name);
		if (update_one(p, (unsigned int)idx[j], nf, q, rate, size,
			       &streams[j], &cfgs[j], &sizes[j], err) != 0)
			rc = -EINVAL;
	}
	cfg_flows = json_object_get(p->config, "flows");
	for (j = 0; rc == 0 && j < p->n_flows; j++)
		changed[j] = false;
	for (j = 0; rc == 0 && j < n; j++) {
		unsigned int i = (unsigned int)idx[j];

		changed[i] = !json_equal(json_array_get(p->streams, i), streams[j]);
		json_array_set(p->streams, i, streams[j]);
		json_array_set(cfg_flows, i, cfgs[j]);
		p->flows[i].size_fixed = sizes[j];
	}
	for (j = 0; streams != NULL && cfgs != NULL && j < n; j++) {
		json_decref(streams[j]);
		json_decref(cfgs[j]);
	}
	free(streams);
	free(cfgs);
	free(sizes);
	free(idx);
	return rc;
}

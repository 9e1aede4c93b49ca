/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_describe: rendering a stream in words. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "wr_describe.h"

void
wr_describe_mac(uint64_t mac, char buf[18])
{
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
		 (unsigned int)(mac >> 40) & 0xff, (unsigned int)(mac >> 32) & 0xff,
		 (unsigned int)(mac >> 24) & 0xff, (unsigned int)(mac >> 16) & 0xff,
		 (unsigned int)(mac >> 8) & 0xff, (unsigned int)mac & 0xff);
}

void
wr_describe_ipv4(uint32_t ip, char buf[16])
{
	snprintf(buf, 16, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff,
		 (ip >> 8) & 0xff, ip & 0xff);
}

void
wr_describe_value(enum wr_field_id id, uint64_t v, char *buf, size_t len)
{
	char tmp[18];

	switch (id) {
	case WR_FIELD_ETH_SRC:
	case WR_FIELD_ETH_DST:
		wr_describe_mac(v, tmp);
		snprintf(buf, len, "%s", tmp);
		break;
	case WR_FIELD_IPV4_SRC:
	case WR_FIELD_IPV4_DST:
		wr_describe_ipv4((uint32_t)v, tmp);
		snprintf(buf, len, "%s", tmp);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	}
}

/* value / 10^scale with up to `scale` decimals, trailing zeros dropped. */
static void
fixed_point(uint64_t value, uint64_t unit, char *buf, size_t len)
{
	uint64_t whole = value / unit, frac = value % unit, u = unit;
	char fbuf[48];
	int digits = 0, n;

	while (u > 1) {
		u /= 10;
		digits++;
	}
	if (frac == 0) {
		snprintf(buf, len, "%" PRIu64, whole);
		return;
	}
	snprintf(fbuf, sizeof(fbuf), "%0*" PRIu64, digits & 31, frac);
	n = (int)strlen(fbuf);
	while (n > 0 && fbuf[n - 1] == '0')
		fbuf[--n] = '\0';
	snprintf(buf, len, "%" PRIu64 ".%s", whole, fbuf);
}

void
wr_describe_rate(const struct wr_rate_spec *r, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *name; } pps[] = {
		{ 1000000000000ull, "Mpps" }, { 1000000000ull, "Mpps" },
		{ 1000000ull, "kpps" }, { 1000ull, "pps" },
	};
	static const struct { uint64_t div; const char *name; } bps[] = {
		{ 1000000000ull, "Gbps" }, { 1000000ull, "Mbps" },
		{ 1000ull, "kbps" }, { 1ull, "bps" },
	};
	char num[48];
	unsigned int i;

	switch (r->unit) {
	case WR_RATE_PPS:
		/* value is milli-pps: Mpps = value / 1e9. */
		for (i = 1; i < 4; i++)
			if (r->value >= pps[i].div || i == 3)
				break;
		fixed_point(r->value, pps[i].div, num, sizeof(num));
		snprintf(buf, len, "%s %s", num, pps[i].name);
		break;
	case WR_RATE_BPS_L1:
	case WR_RATE_BPS_L2:
		for (i = 0; i < 3; i++)
			if (r->value >= bps[i].div)
				break;
		fixed_point(r->value, bps[i].div, num, sizeof(num));
		snprintf(buf, len, "%s %s %s", num, bps[i].name,
			 r->unit == WR_RATE_BPS_L1 ? "L1" : "L2");
		break;
	case WR_RATE_PERCENT:
		fixed_point(r->value, 10000, num, sizeof(num));
		snprintf(buf, len, "%s%% of line rate", num);
		break;
	case WR_RATE_MAX:
	default:
		snprintf(buf, len, "max");
		break;
	}
}

static int
describe_field(const struct wr_field_spec *fs, enum wr_field_id id,
	       char *buf, size_t len)
{
	char a[32], b[32];
	uint32_t i;
	int n = 0;

	switch (fs->mode) {
	case WR_VARY_INC:
	case WR_VARY_DEC:
		wr_describe_value(id, fs->from, a, sizeof(a));
		wr_describe_value(id, fs->to, b, sizeof(b));
		return snprintf(buf, len, "%s %s..%s step %" PRIu64
				" (%" PRIu64 " values)",
				wr_vary_mode_name(fs->mode), a, b, fs->step,
				wr_field_period(fs));
	case WR_VARY_RANDOM:
		wr_describe_value(id, fs->from, a, sizeof(a));
		wr_describe_value(id, fs->to, b, sizeof(b));
		return snprintf(buf, len, "random %s..%s", a, b);
	case WR_VARY_LIST:
		n = snprintf(buf, len, "list of %u:", fs->list_len);
		for (i = 0; i < fs->list_len && i < 8 && n > 0 &&
			    (size_t)n < len; i++) {
			wr_describe_value(id, fs->list[i], a, sizeof(a));
			n += snprintf(buf + n, len - (size_t)n, " %s", a);
		}
		if (fs->list_len > 8 && n > 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, " ...");
		return n;
	case WR_VARY_FIXED:
	default:
		wr_describe_value(id, fs->value, a, sizeof(a));
		return snprintf(buf, len, "%s", a);
	}
}

#define APPEND(...)                                                    \
	do {                                                           \
		if (n >= 0 && (size_t)n < len)                         \
			n += snprintf(buf + n, len - (size_t)n,        \
				      __VA_ARGS__);                    \
	} while (0)

int
wr_describe_stream(const struct wr_stream *s, const char *indent, char *buf,
		   size_t len)
{
	char rate[48], f[WR_FIELD__COUNT][160];
	unsigned int i, n_vary = 0;
	int n = 0;

	buf[0] = '\0';
	for (i = 0; i < WR_FIELD__COUNT; i++) {
		describe_field(&s->field[i], (enum wr_field_id)i, f[i],
			       sizeof(f[i]));
		n_vary += s->field[i].mode != WR_VARY_FIXED;
	}
	/* A ramp replaces the rate: its line below says how. */
	if (s->has_ramp)
		snprintf(rate, sizeof(rate), "ramped");
	else
		wr_describe_rate(&s->rate, rate, sizeof(rate));
	APPEND("%sstream %s: port %u, ", indent, s->name, s->port);
	if (s->size.min == s->size.max)
		APPEND("%u-byte frames", s->size.min);
	else
		APPEND("%u..%u-byte frames (%s)", s->size.min, s->size.max,
		       s->size.mode == WR_SIZE_MIX ? "mix" :
		       s->size.mode == WR_SIZE_INC ? "inc" : "random");
	if (s->count == 0)
		APPEND(", unlimited, rate %s, seed %" PRIu64 "\n", rate,
		       s->seed);
	else
		APPEND(", %" PRIu64 " frames, rate %s, seed %" PRIu64 "\n",
		       s->count, rate, s->seed);
	if (s->size.mode == WR_SIZE_MIX) {
		APPEND("%s  size mix:", indent);
		for (i = 0; i < s->size.n_mix; i++)
			APPEND(" %ux%u", s->size.mix[i].weight,
			       s->size.mix[i].size);
		APPEND("\n");
	}
	if (s->dst_arp && s->gateway != 0)
		APPEND("%s  eth %s -> (ARP for gateway %u.%u.%u.%u; %s until "
		       "resolved)", indent, f[WR_FIELD_ETH_SRC],
		       s->gateway >> 24, s->gateway >> 16 & 0xff,
		       s->gateway >> 8 & 0xff, s->gateway & 0xff,
		       f[WR_FIELD_ETH_DST]);
	else if (s->dst_arp)
		APPEND("%s  eth %s -> (ARP for ipv4.dst; %s until resolved)",
		       indent, f[WR_FIELD_ETH_SRC], f[WR_FIELD_ETH_DST]);
	else
		APPEND("%s  eth %s -> %s", indent, f[WR_FIELD_ETH_SRC],
		       f[WR_FIELD_ETH_DST]);
	if (s->vlan)
		APPEND(", vlan id %s pcp %s", f[WR_FIELD_VLAN_ID],
		       f[WR_FIELD_VLAN_PCP]);
	APPEND("\n%s  ipv4 %s -> %s, ttl %s, dscp %s, ecn %u, id %s%s\n",
	       indent, f[WR_FIELD_IPV4_SRC], f[WR_FIELD_IPV4_DST],
	       f[WR_FIELD_IPV4_TTL], f[WR_FIELD_IPV4_DSCP], s->ecn,
	       f[WR_FIELD_IPV4_ID], s->df ? ", DF" : "");
	APPEND("%s  udp %s -> %s\n", indent, f[WR_FIELD_UDP_SRC],
	       f[WR_FIELD_UDP_DST]);
	switch (s->payload.kind) {
	case WR_PAYLOAD_PATTERN:
		APPEND("%s  payload: pattern of %u bytes, repeated\n", indent,
		       s->payload.len);
		break;
	case WR_PAYLOAD_STRING:
		APPEND("%s  payload: string of %u bytes, then zeros\n", indent,
		       s->payload.len);
		break;
	case WR_PAYLOAD_INC:
		APPEND("%s  payload: incrementing bytes\n", indent);
		break;
	default:
		APPEND("%s  payload: zeros\n", indent);
		break;
	}
	if (s->latency && s->sig_short)
		APPEND("%s  loss-only signature after the UDP header (sequence, no TX time)\n",
		       indent);
	else if (s->latency)
		APPEND("%s  latency signature after the UDP header\n", indent);
	if (s->duration_ns != 0)
		APPEND("%s  ends after %.9g s\n", indent,
		       (double)s->duration_ns / 1e9);
	if (s->burst != 0)
		APPEND("%s  TX bursts of %u frames\n", indent, s->burst);
	if (s->train_frames != 0)
		APPEND("%s  trains of %u frames, %.9g us apart\n", indent,
		       s->train_frames, (double)s->train_gap_ns / 1e3);
	if (s->has_ramp) {
		char from[48], to[48], step[48];

		wr_describe_rate(&s->ramp.from, from, sizeof(from));
		wr_describe_rate(&s->ramp.to, to, sizeof(to));
		wr_describe_rate(&s->ramp.step, step, sizeof(step));
		APPEND("%s  %s ramp %s -> %s by %s every %.9g s, then %s "
		       "(replaces the rate)\n", indent,
		       wr_ramp_shape_name(s->ramp.shape), from, to, step,
		       (double)s->ramp.step_ns / 1e9,
		       wr_ramp_end_name(s->ramp.at_end));
	}
	if (s->has_next)
		APPEND("%s  then: %s\n", indent, wr_sched_next_name(s->next));
	if (n_vary > 0)
		APPEND("%s  varies (%s):\n", indent,
		       s->combine == WR_COMBINE_PRODUCT ? "product" : "together");
	for (i = 0; i < WR_FIELD__COUNT; i++)
		if (s->field[i].mode != WR_VARY_FIXED)
			APPEND("%s    %s %s\n", indent,
			       wr_field_name((enum wr_field_id)i), f[i]);
	return n;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_describe: rendering a stream in words. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "wr_describe.h"
#include "wr_dissect.h"
#include "wr_fe.h"
#include "wr_proto.h"
#include "wr_replay.h"
#include "wr_sig.h"

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

/* One formatter for every value shown: the decoder's (wr_dissect). */
void
wr_describe_val(unsigned int kind, __uint128_t v, char *buf, size_t len)
{
	wr_dissect_val(kind, v, buf, len);
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
describe_spec(const struct wr_field_spec *fs, unsigned int id, char *buf,
	      size_t len)
{
	char a[48], b[48];
	uint32_t i;
	int n = 0;

	switch (fs->mode) {
	case WR_VARY_INC:
	case WR_VARY_DEC:
		wr_describe_val(id, fs->from, a, sizeof(a));
		wr_describe_val(id, fs->to, b, sizeof(b));
		return snprintf(buf, len, "%s %s..%s step %" PRIu64
				" (%" PRIu64 " values)",
				wr_vary_mode_name(fs->mode), a, b, (uint64_t)fs->step,
				wr_field_period(fs));
	case WR_VARY_RANDOM:
		wr_describe_val(id, fs->from, a, sizeof(a));
		wr_describe_val(id, fs->to, b, sizeof(b));
		return snprintf(buf, len, "random %s..%s", a, b);
	case WR_VARY_LIST:
		n = snprintf(buf, len, "list of %u:", fs->list_len);
		for (i = 0; i < fs->list_len && i < 8 && n > 0 &&
			    (size_t)n < len; i++) {
			wr_describe_val(id, fs->list[i], a, sizeof(a));
			n += snprintf(buf + n, len - (size_t)n, " %s", a);
		}
		if (fs->list_len > 8 && n > 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, " ...");
		return n;
	case WR_VARY_FIXED:
	default:
		wr_describe_val(id, fs->value, a, sizeof(a));
		return snprintf(buf, len, "%s", a);
	}
}

#define APPEND(...)                                                    \
	do {                                                           \
		if (n >= 0 && (size_t)n < len)                         \
			n += snprintf(buf + n, len - (size_t)n,        \
				      __VA_ARGS__);                    \
	} while (0)

/* A stack stream layer by layer: every field, fixed or varying. */
static int
describe_stack(const struct wr_stream *s, const char *indent, char *buf,
	       size_t len, int n)
{
	struct wr_layout lo;
	char v[200];
	uint32_t i, j, off = 0, n_vary = 0;
	bool comma;

	for (i = 0; i < s->n_layers; i++) {
		const struct wr_layer *l = &s->layers[i];
		const struct wr_proto *p = l->proto;

		if (wr_proto_layout(l, &lo) != 0)
			lo.hlen = 0; /* the loader refused such a layer */
		APPEND("%s  %u: %s (%s, %u bytes at %u)", indent, i + 1, p->name,
		       p->title, lo.hlen, off);
		off += lo.hlen;
		comma = false;
		for (j = 0; j < p->n_fields; j++) {
			const struct wr_proto_field *pf = &p->fields[j];
			unsigned int kind = pf->kind;

			/* A field of an optional part this header has not. */
			if (lo.hlen != 0 && lo.off[j] == WR_OFF_NONE)
				continue;
			if (pf->role == WR_ROLE_NEXT_ETHERTYPE ||
			    pf->role == WR_ROLE_MY_ETHERTYPE)
				kind = WR_VAL_HEX;
			if (!l->set[j] && (pf->role == WR_ROLE_NEXT_ETHERTYPE ||
					   pf->role == WR_ROLE_NEXT_IPPROTO ||
					   pf->role == WR_ROLE_NEXT_UDP_PORT ||
					   pf->role == WR_ROLE_BOTTOM) &&
			    (i + 1 < s->n_layers || pf->role == WR_ROLE_BOTTOM)) {
				APPEND("%s %s auto", comma ? "," : "", pf->name);
				comma = true;
				continue;
			}
			/* A default the layout computes (SRv6's segments left). */
			if (!l->set[j] && lo.hlen != 0 && (lo.computed >> j & 1)) {
				APPEND("%s %s auto", comma ? "," : "", pf->name);
				comma = true;
				continue;
			}
			if (i == 0 && s->dst_arp && pf->role == WR_ROLE_LINK_DST) {
				char gw[48] = "";

				if (s->gateway6 != 0 || s->gateway != 0)
					wr_describe_val(s->dst_nd ? WR_VAL_IPV6 : WR_VAL_IPV4,
							s->dst_nd ? s->gateway6 : s->gateway,
							gw, sizeof(gw));
				APPEND("%s dst %s (resolved before sending%s%s)", comma ? "," : "",
				       s->dst_nd ? "nd" : "arp", gw[0] ? ", gateway " : "", gw);
				comma = true;
				continue;
			}
			describe_spec(&l->field[j], kind, v, sizeof(v));
			APPEND("%s %s %s", comma ? "," : "", pf->name, v);
			comma = true;
		}
		if (p->hlen == 0)
			APPEND(" %u bytes of hex", l->raw_len);
		if (l->n_opts > 0)
			APPEND("%s %u %s", comma ? "," : "", l->n_opts, p->opts->key);
		APPEND("\n");
		for (j = 0; j < p->n_fields; j++)
			n_vary += l->field[j].mode != WR_VARY_FIXED;
	}
	if (n_vary > 0)
		APPEND("%s  varying fields combine: %s\n", indent,
		       s->combine == WR_COMBINE_PRODUCT ? "product" : "together");
	for (i = 0; i < s->n_host_refs && s->host_dst != 0; i++)
		if (s->host_refs[i].kind >= WR_HREF_DST_MAC) {
			APPEND("%s  sends to the multicast groups hosts.%s join\n",
			       indent, s->host_refs[i].group);
			break;
		}
	for (i = 0; i < s->n_host_refs && s->host_src != 0; i++)
		if (s->host_refs[i].kind < WR_HREF_DST_MAC)
			break;
	if (s->host_src != 0 && i < s->n_host_refs) {
		APPEND("%s  sends from hosts.%s: %u host%s, frame k from host k mod %u",
		       indent, s->host_refs[i].group, s->hosts_from,
		       s->hosts_from == 1 ? "" : "s", s->hosts_from);
		if (s->hosts_skipped != 0)
			APPEND(", %u skipped (not up)", s->hosts_skipped);
		if (s->hosts_late && !s->hosts_filled)
			APPEND(" (their addresses are leased or autoconfigured "
			       "when the run brings them up: 0 until then)");
		APPEND("\n");
	}
	return n;
}

int
wr_describe_stream(const struct wr_stream *s, const char *indent, char *buf,
		   size_t len)
{
	char rate[48], v[160];
	unsigned int i;
	int n = 0;

	buf[0] = '\0';
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
		       s->replay != NULL ? "as given" :
		       s->fe != NULL ? "trimmed" :
		       s->size.mode == WR_SIZE_MIX ? "mix" :
		       s->size.mode == WR_SIZE_INC ? "inc" : "random");
	if (s->count == 0)
		APPEND(", unlimited, rate %s, seed %" PRIu64 "\n", rate,
		       s->seed);
	else
		APPEND(", %" PRIu64 " frames, rate %s, seed %" PRIu64 "\n",
		       s->count, rate, s->seed);
	if (s->replay != NULL) {
		const struct wr_replay_spec *r = s->replay;

		char loops[32];

		if (r->loops == 0)
			snprintf(loops, sizeof(loops), "loops for ever");
		else
			snprintf(loops, sizeof(loops), "%" PRIu64 " loop%s",
				 r->loops, r->loops == 1 ? "" : "s");
		APPEND("%s  replays %s: %u frames of %u..%u bytes (with FCS), "
		       "%s, timing %s", indent,
		       r->from_frame ? "the frame's bytes" : r->pcap, r->cap.n,
		       s->size.min, s->size.max, loops,
		       r->timing == WR_REPLAY_TIMING_CAPTURE ? "capture" : rate);
		if (r->timing == WR_REPLAY_TIMING_CAPTURE)
			APPEND(" x%g", (double)r->speedup_ppm /
			       WR_REPLAY_SPEEDUP_ONE);
		for (i = 0; i < WR_REWRITE__COUNT; i++)
			if (r->rewrite[i]) {
				const struct wr_rewrite_desc *d =
					wr_rewrite_desc((enum wr_rewrite_id)i);

				describe_spec(&r->field[i], d->kind, v, sizeof(v));
				APPEND(", rewrite %s %s", d->name, v);
			}
		APPEND("\n");
		return n;
	}
	if (s->fe != NULL) {
		n += wr_fe_describe(s->fe, indent, buf + n, len - (size_t)n);
		goto schedule;
	}
	if (s->size.mode == WR_SIZE_MIX) {
		APPEND("%s  size mix:", indent);
		for (i = 0; i < s->size.n_mix; i++)
			APPEND(" %ux%u", s->size.mix[i].weight,
			       s->size.mix[i].size);
		APPEND("\n");
	}
	if (s->n_layers > 0 && s->mac_port != 0)
		APPEND("%s  eth %s%s%s: the port's when a run starts (src_mac, "
		       "dst_mac of the profile; doc/trex.md)\n", indent,
		       s->mac_port & WR_MAC_PORT_SRC ? "src" : "",
		       s->mac_port == (WR_MAC_PORT_SRC | WR_MAC_PORT_DST) ? " and " : "",
		       s->mac_port & WR_MAC_PORT_DST ? "dst" : "");
	n = describe_stack(s, indent, buf, len, n);
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
		APPEND("%s  loss-only signature after the last layer's header (sequence, no TX time)\n",
		       indent);
	else if (s->latency &&
		 wr_sig_kind_for(0, (uint32_t)(s->size.min - WR_FCS_LEN),
				 wr_stream_hdr_len(s) +
				 (s->payload.kind == WR_PAYLOAD_STRING ?
				  s->payload.len : 0)) == WR_SIG_KIND_FULL)
		APPEND("%s  latency signature after the last layer's header (%u bytes: sequence, TX time)\n",
		       indent, WR_SIG_LEN);
	else if (s->latency)
		APPEND("%s  compact latency signature after the last layer's header (%u bytes: sequence, TX time, their low 48 bits; the full %u do not fit %u-byte frames)\n",
		       indent, WR_SIG_COMPACT_LEN, WR_SIG_LEN, s->size.min);
schedule:
	if (s->isg_ns != 0)
		APPEND("%s  first frame %.9g us after each start (isg)\n", indent,
		       (double)s->isg_ns / 1e3);
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
	return n;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_mld: emulated hosts' MLDv1 (RFC 2710) and MLDv2 (RFC 3810), the IPv6 family of wr_mcast. */
#include "wr_mld.h"

#include <errno.h>
#include <string.h>

#include "wr_csum.h"

#define MLD_QUERY 130
#define MLD_V1_REPORT 131
#define MLD_DONE 132
#define MLD_V2_REPORT 143
/* IPv6 header, then a hop-by-hop header of 8 bytes: next header, length
 * 0, router alert (RFC 2711: type 5, length 2, value 0 = MLD), PadN of 0. */
#define IP6_HDR 40
#define HBH_LEN 8
#define ICMP6 58

static __uint128_t
get128(const uint8_t *p)
{
	__uint128_t a = 0;

	for (int i = 0; i < 16; i++)
		a = (a << 8) | p[i];
	return a;
}

static void
put128(uint8_t *p, __uint128_t a)
{
	for (int i = 15; i >= 0; i--, a >>= 8)
		p[i] = (uint8_t)a;
}

/* The ICMPv6 pseudo-header's sum (RFC 8200 section 8.1). */
static uint64_t
pseudo_sum(__uint128_t src, __uint128_t dst, uint32_t len)
{
	uint8_t a[32];

	put128(a, src);
	put128(a + 16, dst);
	return (uint64_t)wr_csum_sum(a, sizeof(a)) + (len >> 16) +
	       (len & 0xffff) + ICMP6;
}

static bool
link_local(__uint128_t a)
{
	return (uint16_t)(a >> 112 & 0xffc0) == 0xfe80;
}

__uint128_t
wr_mld_solicited_node(__uint128_t addr)
{
	return ((__uint128_t)0xff020000u << 96) | ((__uint128_t)1 << 32) |
	       0xff000000u | (addr & 0xffffff);
}

int
wr_mld_parse(const uint8_t *msg, uint32_t len, __uint128_t src,
	     __uint128_t dst, uint8_t hop_limit, struct wr_mcast_query *q,
	     __uint128_t *group, enum wr_mcast_counter *bad)
{
	__uint128_t g;

	if (len < 24) {
		*bad = WR_MCAST_C_bad_short;
		return -EINVAL;
	}
	if (wr_csum_fold(pseudo_sum(src, dst, len) + wr_csum_sum(msg, len)) !=
	    0xffff) {
		*bad = WR_MCAST_C_bad_checksum;
		return -EINVAL;
	}
	if (msg[0] != MLD_QUERY && msg[0] != MLD_V1_REPORT &&
	    msg[0] != MLD_DONE && msg[0] != MLD_V2_REPORT)
		return WR_MCAST_MSG_OTHER;
	/* RFC 2710 section 3 and RFC 3810 section 5: hop limit 1, and a
	 * query from a link-local source (others are discarded). */
	if (hop_limit != 1) {
		*bad = WR_MCAST_C_bad_hop_limit;
		return -EINVAL;
	}
	g = get128(msg + 8);
	if (g && (uint8_t)(g >> 120) != 0xff) {
		*bad = WR_MCAST_C_bad_group;
		return -EINVAL;
	}
	if (msg[0] == MLD_V1_REPORT) {
		*group = g;
		return g ? WR_MCAST_MSG_REPORT : WR_MCAST_MSG_OTHER;
	}
	if (msg[0] != MLD_QUERY)
		return WR_MCAST_MSG_OTHER;
	if (!link_local(src)) {
		*bad = WR_MCAST_C_bad_source;
		return -EINVAL;
	}
	memset(q, 0, sizeof(*q));
	q->group = g;
	/* RFC 3810 section 8.1: 24 bytes is MLDv1, 28 or more MLDv2, any
	 * other length is ignored. */
	if (len == 24) {
		q->version = WR_MCAST_V2;
		q->max_resp_ms = (uint32_t)(msg[4] << 8 | msg[5]);
		return WR_MCAST_MSG_QUERY;
	}
	if (len < 28) {
		*bad = WR_MCAST_C_bad_length;
		return -EINVAL;
	}
	q->version = WR_MCAST_V3;
	q->max_resp_ms = wr_mcast_code16((uint16_t)(msg[4] << 8 | msg[5]));
	q->n_src = (uint16_t)(msg[26] << 8 | msg[27]);
	if (28u + 16u * q->n_src > len) {
		*bad = WR_MCAST_C_bad_short;
		return -EINVAL;
	}
	if (q->n_src && !g) {
		*bad = WR_MCAST_C_bad_group;
		return -EINVAL;
	}
	q->src = msg + 28;
	return WR_MCAST_MSG_QUERY;
}

static uint32_t
mld_old_msg(uint8_t *msg, enum wr_mcast_compat m, bool leave,
	    __uint128_t group)
{
	(void)m;
	memset(msg, 0, 8);
	msg[0] = leave ? MLD_DONE : MLD_V1_REPORT;
	put128(msg + 8, group);
	return 24;
}

/* The source of @p h's MLD messages: its link-local address once DAD is
 * through, :: before (RFC 3590 section 4). */
static __uint128_t
mld_src(const struct wr_host *host)
{
	for (uint32_t i = 0; i < host->n_ip6 && i < WR_HOST_IP6_MAX; i++) {
		const struct wr_host_ip6 *a = &host->ip6[i];

		if (link_local(a->addr) && (a->state == WR_IP6_PREFERRED ||
					    a->state == WR_IP6_DEPRECATED))
			return a->addr;
	}
	return 0;
}

static void
mld_send(struct wr_hosts *hs, uint32_t h, __uint128_t dst, uint8_t *msg,
	 uint32_t len)
{
	const struct wr_host *host = wr_hosts_cget(hs, h);
	__uint128_t src = mld_src(host);
	uint8_t frame[WR_HOST_FRAME_MAX];
	/* RFC 2464 section 7: 33:33 and the group's low 32 bits. */
	uint8_t mac[6] = {0x33, 0x33, (uint8_t)(dst >> 24), (uint8_t)(dst >> 16),
			  (uint8_t)(dst >> 8), (uint8_t)dst};
	uint32_t l2 = wr_hosts_l2(hs, h, frame, mac, 0x86dd);
	uint8_t *ip = frame + l2;
	uint16_t c;

	if (l2 + IP6_HDR + HBH_LEN + len > sizeof(frame))
		return;
	c = (uint16_t)~wr_csum_fold(pseudo_sum(src, dst, len) +
				    wr_csum_sum(msg, len));
	msg[2] = (uint8_t)(c >> 8);
	msg[3] = (uint8_t)c;
	memset(ip, 0, IP6_HDR + HBH_LEN);
	ip[0] = 0x60;
	ip[4] = (uint8_t)((HBH_LEN + len) >> 8);
	ip[5] = (uint8_t)(HBH_LEN + len);
	ip[6] = 0;              /* hop-by-hop */
	ip[7] = 1;              /* RFC 3810 section 5: hop limit 1 */
	put128(ip + 8, src);
	put128(ip + 24, dst);
	ip[40] = ICMP6;
	ip[41] = 0;
	ip[42] = 5;             /* router alert */
	ip[43] = 2;
	ip[44] = 0;
	ip[45] = 0;             /* MLD */
	ip[46] = 1;             /* PadN */
	ip[47] = 0;
	memcpy(ip + IP6_HDR + HBH_LEN, msg, len);
	wr_hosts_send(hs, frame, l2 + IP6_HDR + HBH_LEN + len);
}

/* The solicited-node groups of @p h's addresses (duplicates once). */
static uint32_t
mld_extra(const struct wr_hosts *hs, uint32_t h, __uint128_t *out)
{
	const struct wr_host *host = wr_hosts_cget(hs, h);
	uint32_t n = 0;

	for (uint32_t i = 0; i < host->n_ip6 && i < WR_HOST_IP6_MAX; i++) {
		const struct wr_host_ip6 *a = &host->ip6[i];
		__uint128_t g;
		uint32_t j;

		if (a->state == WR_IP6_NONE || a->state == WR_IP6_DUPLICATE)
			continue;
		g = wr_mld_solicited_node(a->addr);
		for (j = 0; j < n && out[j] != g; j++)
			;
		if (j == n && n < WR_MCAST_EXTRA_MAX)
			out[n++] = g;
	}
	return n;
}

static const struct wr_mcast_fam fam = {
	.id = WR_HOST_PROTO_mld,
	.alen = 16,
	.v3_type = MLD_V2_REPORT,
	/* ff02::16: all MLDv2-capable routers; ff02::2: all routers. */
	.v3_dst = ((__uint128_t)0xff02u << 112) | 0x16,
	.routers = ((__uint128_t)0xff02u << 112) | 2,
	.msg_max = 1500 - IP6_HDR - HBH_LEN,
	.old_msg = mld_old_msg,
	.send = mld_send,
	.extra = mld_extra,
};

static int
mld_parse_cfg(struct wr_ywalk *w, const struct wr_ynode *n,
	      const struct wr_host_group *g, void **cfg)
{
	(void)g;
	return wr_mcast_parse(w, n, true, cfg);
}

static bool
mld_wants(const struct wr_host_rx *rx)
{
	return rx->ip_version == 6 && rx->l4_proto == ICMP6 &&
	       (rx->icmp_type == MLD_QUERY || rx->icmp_type == MLD_V1_REPORT ||
		rx->icmp_type == MLD_DONE || rx->icmp_type == MLD_V2_REPORT);
}

static void
mld_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	struct wr_mcast_query q;
	enum wr_mcast_counter bad;
	__uint128_t group = 0;
	int rc;

	rc = wr_mld_parse(rx->frame + rx->l4_off, rx->l4_len, rx->src_ip,
			  rx->dst_ip, rx->hop_limit, &q, &group, &bad);
	if (rc < 0)
		wr_mcast_bad(&fam, hs, rx, bad);
	else if (rc == WR_MCAST_MSG_QUERY)
		wr_mcast_query(&fam, hs, rx, &q, now);
	else if (rc == WR_MCAST_MSG_REPORT)
		wr_mcast_heard(&fam, hs, rx, group, now);
}

static void
mld_start(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	wr_mcast_start(&fam, hs, h, now);
}

static void
mld_timer(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	wr_mcast_timer(&fam, hs, h, now);
}

static void
mld_stop(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	wr_mcast_stop(&fam, hs, h, now);
}

static const char *
mld_state(const struct wr_hosts *hs, uint32_t h)
{
	return wr_mcast_state(&fam, hs, h);
}

static void
mld_counters(const struct wr_hosts *hs,
	     void (*put)(void *ctx, const char *name, uint64_t v), void *ctx)
{
	wr_mcast_counters(&fam, hs, put, ctx);
}

const struct wr_host_proto wr_host_proto_mld = {
	.name = "mld",
	.parse = mld_parse_cfg,
	.state_size = sizeof(struct wr_mcast_host),
	.wants = mld_wants,
	.input = mld_input,
	.start = mld_start,
	.timer = mld_timer,
	.stop = mld_stop,
	.state = mld_state,
	.counters = mld_counters,
};

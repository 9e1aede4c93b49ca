/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_igmp: emulated hosts' IGMPv2 (RFC 2236) and IGMPv3 (RFC 3376), the IPv4 family of wr_mcast. */
#include "wr_igmp.h"

#include <errno.h>
#include <string.h>

#include "wr_csum.h"

#define IGMP_QUERY 0x11
#define IGMP_V1_REPORT 0x12
#define IGMP_V2_REPORT 0x16
#define IGMP_LEAVE 0x17
#define IGMP_V3_REPORT 0x22
/* IPv4 header with the router alert option (RFC 2113: type 148, length 4,
 * value 0: "every router examines the packet"). */
#define IP_HDR_RA 24
/* A v1 query has no max response time: 10 s (RFC 2236 section 4). */
#define V1_MAX_RESP_MS 10000

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

int
wr_igmp_parse(const uint8_t *msg, uint32_t len, struct wr_mcast_query *q,
	      __uint128_t *group, enum wr_mcast_counter *bad)
{
	uint32_t g;

	if (len < 8) {
		*bad = WR_MCAST_C_bad_short;
		return -EINVAL;
	}
	/* A correct message sums to 0xffff with its checksum. */
	if (wr_csum_sum(msg, len) != 0xffff) {
		*bad = WR_MCAST_C_bad_checksum;
		return -EINVAL;
	}
	g = rd32(msg + 4);
	if (g && (g >> 28) != 0xe) {
		*bad = WR_MCAST_C_bad_group;
		return -EINVAL;
	}
	switch (msg[0]) {
	case IGMP_V1_REPORT:
	case IGMP_V2_REPORT:
		*group = g;
		return g ? WR_MCAST_MSG_REPORT : WR_MCAST_MSG_OTHER;
	case IGMP_QUERY:
		break;
	default:
		return WR_MCAST_MSG_OTHER;
	}
	memset(q, 0, sizeof(*q));
	q->group = g;
	/* RFC 3376 section 7.1: the version is the length and the code. */
	if (len == 8) {
		q->version = msg[1] ? WR_MCAST_V2 : WR_MCAST_V1;
		q->max_resp_ms = msg[1] ? msg[1] * 100u : V1_MAX_RESP_MS;
		return WR_MCAST_MSG_QUERY;
	}
	if (len < 12) {
		*bad = WR_MCAST_C_bad_length;
		return -EINVAL;
	}
	q->version = WR_MCAST_V3;
	q->max_resp_ms = wr_mcast_code8(msg[1]) * 100u;
	q->n_src = (uint16_t)(msg[10] << 8 | msg[11]);
	if (12u + 4u * q->n_src > len) {
		*bad = WR_MCAST_C_bad_short;
		return -EINVAL;
	}
	/* Sources without a group is no query a host can answer (RFC 3376
	 * section 4.1.8: a general query has none). */
	if (q->n_src && !g) {
		*bad = WR_MCAST_C_bad_group;
		return -EINVAL;
	}
	q->src = msg + 12;
	return WR_MCAST_MSG_QUERY;
}

static uint32_t
igmp_old_msg(uint8_t *msg, enum wr_mcast_compat m, bool leave,
	     __uint128_t group)
{
	uint32_t g = (uint32_t)group;

	msg[0] = leave ? IGMP_LEAVE : m == WR_MCAST_V1 ? IGMP_V1_REPORT :
		 IGMP_V2_REPORT;
	msg[1] = 0;
	msg[2] = 0;
	msg[3] = 0;
	msg[4] = (uint8_t)(g >> 24);
	msg[5] = (uint8_t)(g >> 16);
	msg[6] = (uint8_t)(g >> 8);
	msg[7] = (uint8_t)g;
	return 8;
}

static void
igmp_send(struct wr_hosts *hs, uint32_t h, __uint128_t dst, uint8_t *msg,
	  uint32_t len)
{
	const struct wr_host *host = wr_hosts_cget(hs, h);
	uint32_t d = (uint32_t)dst;
	uint32_t src = host->ip4_state == WR_IP4_UP ? host->ip4 : 0;
	uint8_t frame[WR_HOST_FRAME_MAX];
	/* RFC 1112 section 6.4: 01:00:5e and the group's low 23 bits. */
	uint8_t mac[6] = {0x01, 0x00, 0x5e, (uint8_t)((d >> 16) & 0x7f),
			  (uint8_t)(d >> 8), (uint8_t)d};
	uint32_t l2 = wr_hosts_l2(hs, h, frame, mac, 0x0800);
	uint8_t *ip = frame + l2;
	uint16_t c;

	if (l2 + IP_HDR_RA + len > sizeof(frame))
		return;
	c = (uint16_t)~wr_csum_sum(msg, len);
	msg[2] = (uint8_t)(c >> 8);
	msg[3] = (uint8_t)c;
	ip[0] = 0x46;
	/* Internetwork control, as Linux sends IGMP (RFC 3376 section 4
	 * leaves it open). */
	ip[1] = 0xc0;
	ip[2] = (uint8_t)((IP_HDR_RA + len) >> 8);
	ip[3] = (uint8_t)(IP_HDR_RA + len);
	ip[4] = 0;
	ip[5] = 0;
	ip[6] = 0x40;           /* DF */
	ip[7] = 0;
	ip[8] = 1;              /* TTL 1: RFC 2236 section 2, RFC 3376 4 */
	ip[9] = 2;
	ip[10] = 0;
	ip[11] = 0;
	for (int i = 0; i < 4; i++) {
		ip[12 + i] = (uint8_t)(src >> (24 - 8 * i));
		ip[16 + i] = (uint8_t)(d >> (24 - 8 * i));
	}
	ip[20] = 0x94;
	ip[21] = 0x04;
	ip[22] = 0;
	ip[23] = 0;
	c = (uint16_t)~wr_csum_sum(ip, IP_HDR_RA);
	ip[10] = (uint8_t)(c >> 8);
	ip[11] = (uint8_t)c;
	memcpy(ip + IP_HDR_RA, msg, len);
	wr_hosts_send(hs, frame, l2 + IP_HDR_RA + len);
}

static const struct wr_mcast_fam fam = {
	.id = WR_HOST_PROTO_igmp,
	.alen = 4,
	.v3_type = IGMP_V3_REPORT,
	.v3_dst = 0xe0000016u,  /* 224.0.0.22: all IGMPv3 routers */
	.routers = 0xe0000002u, /* 224.0.0.2: all routers */
	.msg_max = 1500 - IP_HDR_RA,
	.old_msg = igmp_old_msg,
	.send = igmp_send,
};

static int
igmp_parse_cfg(struct wr_ywalk *w, const struct wr_ynode *n,
	       const struct wr_host_group *g, void **cfg)
{
	(void)g;
	return wr_mcast_parse(w, n, false, cfg);
}

static bool
igmp_wants(const struct wr_host_rx *rx)
{
	return rx->ip_version == 4 && rx->l4_proto == 2;
}

static void
igmp_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	struct wr_mcast_query q;
	enum wr_mcast_counter bad;
	__uint128_t group = 0;
	int rc;

	rc = wr_igmp_parse(rx->frame + rx->l4_off, rx->l4_len, &q, &group,
			   &bad);
	if (rc < 0)
		wr_mcast_bad(&fam, hs, rx, bad);
	else if (rc == WR_MCAST_MSG_QUERY)
		wr_mcast_query(&fam, hs, rx, &q, now);
	else if (rc == WR_MCAST_MSG_REPORT)
		wr_mcast_heard(&fam, hs, rx, group, now);
}

static void
igmp_start(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	wr_mcast_start(&fam, hs, h, now);
}

static void
igmp_timer(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	wr_mcast_timer(&fam, hs, h, now);
}

static void
igmp_stop(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	wr_mcast_stop(&fam, hs, h, now);
}

static const char *
igmp_state(const struct wr_hosts *hs, uint32_t h)
{
	return wr_mcast_state(&fam, hs, h);
}

static void
igmp_counters(const struct wr_hosts *hs,
	      void (*put)(void *ctx, const char *name, uint64_t v), void *ctx)
{
	wr_mcast_counters(&fam, hs, put, ctx);
}

const struct wr_host_proto wr_host_proto_igmp = {
	.name = "igmp",
	.parse = igmp_parse_cfg,
	.state_size = sizeof(struct wr_mcast_host),
	.wants = igmp_wants,
	.input = igmp_input,
	.start = igmp_start,
	.timer = igmp_timer,
	.stop = igmp_stop,
	.state = igmp_state,
	.counters = igmp_counters,
};

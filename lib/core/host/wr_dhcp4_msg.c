/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp4_msg: DHCPv4 messages parsed and built (RFC 2131, RFC 2132, RFC 3046), per-host texts expanded. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_dhcp4_msg.h"
#include "wr_host_spec.h"

/* BOOTP header offsets (RFC 2131 figure 1). */
#define B_OP 0
#define B_HTYPE 1
#define B_HLEN 2
#define B_HOPS 3
#define B_XID 4
#define B_SECS 8
#define B_FLAGS 10
#define B_CIADDR 12
#define B_YIADDR 16
#define B_SIADDR 20
#define B_GIADDR 24
#define B_CHADDR 28
#define B_COOKIE WR_DHCP4_HDR_LEN
#define B_OPTIONS (WR_DHCP4_HDR_LEN + 4)
#define BOOTREQUEST 1
#define BOOTREPLY 2
#define HTYPE_ETHER 1
#define FLAG_BROADCAST 0x8000
/* RFC 1542 section 2.1: a BOOTP message is at least 300 bytes (some
 * relays and servers drop shorter ones). */
#define BOOTP_MIN 300
/* RFC 1122 section 3.2.1.7 leaves the TTL to the host; 64 as Linux. */
#define IP_TTL 64
#define IPPROTO_UDP_ 17
#define UDP_HLEN 8
#define IP_HLEN 20

/* Options (RFC 2132). */
#define OPT_PAD 0
#define OPT_MASK 1
#define OPT_ROUTER 3
#define OPT_HOSTNAME 12
#define OPT_REQUESTED_IP 50
#define OPT_LEASE 51
#define OPT_MSG_TYPE 53
#define OPT_SERVER_ID 54
#define OPT_PRL 55
#define OPT_T1 58
#define OPT_T2 59
#define OPT_CLIENT_ID 61
#define OPT_RELAY_AGENT 82
#define OPT_END 255

static const char *const bad_names[WR_DHCP4_BAD__COUNT] = {
	[WR_DHCP4_OK] = "",
#define WR_X(e, s) [WR_DHCP4_BAD_##e] = s,
	WR_DHCP4_BADS(WR_X)
#undef WR_X
};

const char *
wr_dhcp4_bad_name(enum wr_dhcp4_bad b)
{
	return (unsigned int)b < WR_DHCP4_BAD__COUNT ? bad_names[b] : "";
}

/* ---- Parsing ---- */

/* One option's value into the message; @return false when its length is
 * wrong for its code (RFC 2132 fixes the length of each one read here). */
static bool
take_option(struct wr_dhcp4_msg *m, uint8_t code, const uint8_t *v,
	    uint8_t len, unsigned int *n_type)
{
	switch (code) {
	case OPT_MSG_TYPE:
		if (len != 1)
			return false;
		m->type = v[0];
		(*n_type)++;
		return true;
	case OPT_SERVER_ID:
		if (len != 4)
			return false;
		m->server_id = wr_get32(v);
		return true;
	case OPT_MASK:
		if (len != 4)
			return false;
		m->mask = wr_get32(v);
		m->has_mask = true;
		return true;
	case OPT_ROUTER:
		/* A list of addresses, the first preferred (RFC 2132 3.5). */
		if (len < 4 || len % 4 != 0)
			return false;
		m->router = wr_get32(v);
		return true;
	case OPT_LEASE:
	case OPT_T1:
	case OPT_T2:
		if (len != 4)
			return false;
		if (code == OPT_LEASE) {
			m->lease_s = wr_get32(v);
			m->has_lease = true;
		} else if (code == OPT_T1) {
			m->t1_s = wr_get32(v);
			m->has_t1 = true;
		} else {
			m->t2_s = wr_get32(v);
			m->has_t2 = true;
		}
		return true;
	default:
		return true;
	}
}

enum wr_dhcp4_bad
wr_dhcp4_parse(const uint8_t *udp, uint32_t len, uint32_t src_ip,
	       uint32_t dst_ip, struct wr_dhcp4_msg *m)
{
	const uint8_t *b, *o;
	uint32_t ulen, blen, i;
	unsigned int n_type = 0;
	uint64_t sum;

	if (len < UDP_HLEN)
		return WR_DHCP4_BAD_SHORT;
	ulen = wr_get16(udp + 4);
	if (ulen < UDP_HLEN || ulen > len)
		return WR_DHCP4_BAD_SHORT;
	/* RFC 768: 0 means the sender computed none; any other value is
	 * checked over the pseudo-header and the datagram, which then sum to
	 * 0xffff. */
	if (wr_get16(udp + 6) != 0) {
		sum = (src_ip >> 16) + (src_ip & 0xffff) + (dst_ip >> 16) +
		      (dst_ip & 0xffff) + IPPROTO_UDP_ + ulen +
		      wr_csum_sum(udp, ulen);
		if (wr_csum_fold(sum) != 0xffff)
			return WR_DHCP4_BAD_UDP_CSUM;
	}
	b = udp + UDP_HLEN;
	blen = ulen - UDP_HLEN;
	if (blen < B_OPTIONS)
		return WR_DHCP4_BAD_SHORT;
	if (b[B_OP] != BOOTREPLY)
		return WR_DHCP4_BAD_OP;
	if (b[B_HTYPE] != HTYPE_ETHER || b[B_HLEN] != 6)
		return WR_DHCP4_BAD_HTYPE;
	if (wr_get32(b + B_COOKIE) != WR_DHCP4_COOKIE)
		return WR_DHCP4_BAD_COOKIE;
	memset(m, 0, sizeof(*m));
	m->op = b[B_OP];
	m->xid = wr_get32(b + B_XID);
	m->secs = wr_get16(b + B_SECS);
	m->flags = wr_get16(b + B_FLAGS);
	m->ciaddr = wr_get32(b + B_CIADDR);
	m->yiaddr = wr_get32(b + B_YIADDR);
	m->siaddr = wr_get32(b + B_SIADDR);
	m->giaddr = wr_get32(b + B_GIADDR);
	memcpy(m->chaddr, b + B_CHADDR, 6);
	/* Options to the end option, or to the end of the datagram (RFC 2131
	 * section 4.1 asks for an end option, but nothing follows it that a
	 * client needs, and some servers stop at the last byte). */
	o = b + B_OPTIONS;
	blen -= B_OPTIONS;
	for (i = 0; i < blen;) {
		uint8_t code = o[i], olen;

		if (code == OPT_PAD) {
			i++;
			continue;
		}
		if (code == OPT_END)
			break;
		if (i + 2 > blen)
			return WR_DHCP4_BAD_OPTION_LEN;
		olen = o[i + 1];
		if (i + 2 + olen > blen)
			return WR_DHCP4_BAD_OPTION_LEN;
		if (!take_option(m, code, o + i + 2, olen, &n_type))
			return WR_DHCP4_BAD_OPTION_LEN;
		i += 2u + olen;
	}
	/* A BOOTP reply (no option 53) is not for a DHCP client; two message
	 * types make the message mean two things. */
	if (n_type != 1 || m->type < WR_DHCP4_DISCOVER ||
	    m->type > WR_DHCP4_INFORM)
		return WR_DHCP4_BAD_MSG_TYPE;
	return WR_DHCP4_OK;
}

/* ---- Building ---- */

static uint8_t *
put_opt(uint8_t *p, uint8_t code, const void *v, uint8_t len)
{
	p[0] = code;
	p[1] = len;
	memcpy(p + 2, v, len);
	return p + 2 + len;
}

static uint8_t *
put_opt32(uint8_t *p, uint8_t code, uint32_t v)
{
	uint8_t be[4];

	wr_put32(be, v);
	return put_opt(p, code, be, 4);
}

uint32_t
wr_dhcp4_build(uint8_t *buf, const struct wr_dhcp4_out *o)
{
	uint8_t *ip = buf, *udp = buf + IP_HLEN, *b = udp + UDP_HLEN, *p;
	uint32_t blen, ulen;
	uint64_t sum;

	memset(b, 0, B_OPTIONS);
	b[B_OP] = BOOTREQUEST;
	b[B_HTYPE] = HTYPE_ETHER;
	b[B_HLEN] = 6;
	wr_put32(b + B_XID, o->xid);
	wr_put16(b + B_SECS, o->secs);
	wr_put16(b + B_FLAGS, o->broadcast ? FLAG_BROADCAST : 0);
	wr_put32(b + B_CIADDR, o->ciaddr);
	memcpy(b + B_CHADDR, o->chaddr, 6);
	wr_put32(b + B_COOKIE, WR_DHCP4_COOKIE);
	p = b + B_OPTIONS;
	*p++ = OPT_MSG_TYPE;
	*p++ = 1;
	*p++ = o->type;
	if (o->client_id != NULL)
		p = put_opt(p, OPT_CLIENT_ID, o->client_id, o->client_id_len);
	if (o->requested_ip != 0)
		p = put_opt32(p, OPT_REQUESTED_IP, o->requested_ip);
	if (o->server_id != 0)
		p = put_opt32(p, OPT_SERVER_ID, o->server_id);
	if (o->hostname != NULL && o->hostname_len > 0)
		p = put_opt(p, OPT_HOSTNAME, o->hostname, o->hostname_len);
	if (o->n_prl > 0)
		p = put_opt(p, OPT_PRL, o->prl, o->n_prl);
	/* RFC 3046 section 2.1: the relay agent information comes last,
	 * before the end option. */
	if (o->opt82 != NULL)
		p = put_opt(p, OPT_RELAY_AGENT, o->opt82, o->opt82_len);
	*p++ = OPT_END;
	blen = (uint32_t)(p - b);
	if (blen < BOOTP_MIN) {
		memset(p, 0, BOOTP_MIN - blen);
		blen = BOOTP_MIN;
	}
	ulen = UDP_HLEN + blen;
	wr_put16(udp, WR_DHCP4_CLIENT_PORT);
	wr_put16(udp + 2, WR_DHCP4_SERVER_PORT);
	wr_put16(udp + 4, ulen);
	wr_put16(udp + 6, 0);
	sum = (o->src_ip >> 16) + (o->src_ip & 0xffff) + (o->dst_ip >> 16) +
	      (o->dst_ip & 0xffff) + IPPROTO_UDP_ + ulen +
	      wr_csum_sum(udp, ulen);
	wr_put16(udp + 6, wr_csum_udp(sum));
	ip[0] = 0x45;
	ip[1] = 0;
	wr_put16(ip + 2, IP_HLEN + ulen);
	wr_put16(ip + 4, 0);
	wr_put16(ip + 6, 0);
	ip[8] = IP_TTL;
	ip[9] = IPPROTO_UDP_;
	wr_put16(ip + 10, 0);
	wr_put32(ip + 12, o->src_ip);
	wr_put32(ip + 16, o->dst_ip);
	wr_put16(ip + 10, wr_csum_ipv4(wr_csum_sum(ip, IP_HLEN)));
	return IP_HLEN + ulen;
}

/* ---- Per-host texts ---- */

/* The placeholders, each with the most characters it expands to. */
enum tvar { V_INDEX, V_HOST, V_PORT, V_GROUP, V_MAC, V_MAC_HEX, V_VLAN,
	    V_INNER_VLAN, V__COUNT };
static const struct {
	const char *name;
	uint8_t max;
} tvars[V__COUNT] = {
	[V_INDEX] = { "index", 10 },            /* a uint32_t */
	[V_HOST] = { "host", 7 },               /* below WR_HOSTS_PORT_MAX */
	[V_PORT] = { "port", 5 },
	[V_GROUP] = { "group", WR_HOST_GROUP_NAME_MAX - 1 },
	[V_MAC] = { "mac", 17 },
	[V_MAC_HEX] = { "mac_hex", 12 },
	[V_VLAN] = { "vlan", 4 },
	[V_INNER_VLAN] = { "inner_vlan", 4 },
};

static int
expand_var(enum tvar k, const struct wr_dhcp4_vars *v, char *s, size_t cap)
{
	const uint8_t *m = v->mac;

	switch (k) {
	case V_INDEX:
		return snprintf(s, cap, "%u", v->index);
	case V_HOST:
		return snprintf(s, cap, "%u", v->host);
	case V_PORT:
		return snprintf(s, cap, "%u", v->port);
	case V_GROUP:
		return snprintf(s, cap, "%s", v->group ? v->group : "");
	case V_MAC:
		return snprintf(s, cap, "%02x:%02x:%02x:%02x:%02x:%02x",
				m[0], m[1], m[2], m[3], m[4], m[5]);
	case V_MAC_HEX:
		return snprintf(s, cap, "%02x%02x%02x%02x%02x%02x",
				m[0], m[1], m[2], m[3], m[4], m[5]);
	case V_VLAN:
		return snprintf(s, cap, "%u", v->vlan);
	case V_INNER_VLAN:
		return snprintf(s, cap, "%u", v->inner_vlan);
	default:
		return 0;
	}
}

/* The one walk of a template: with @p v, its expansion into @p out;
 * without, the longest one over every host.  @return the length, -EINVAL
 * (@p why says why), -ENOSPC. */
static int
walk(const char *t, const struct wr_dhcp4_vars *v, uint8_t *out, size_t cap,
     char *why, size_t why_len)
{
	char tmp[40];
	size_t n = 0, i, k;
	int len;

	for (i = 0; t[i] != '\0';) {
		const char *end;

		if ((t[i] == '{' && t[i + 1] == '{') ||
		    (t[i] == '}' && t[i + 1] == '}')) {
			if (v != NULL && n < cap)
				out[n] = (uint8_t)t[i];
			n++;
			i += 2;
			continue;
		}
		if (t[i] == '}') {
			if (why)
				snprintf(why, why_len, "a lone \"}\" at "
					 "character %zu (write \"}}\")", i + 1);
			return -EINVAL;
		}
		if (t[i] != '{') {
			if (v != NULL && n < cap)
				out[n] = (uint8_t)t[i];
			n++;
			i++;
			continue;
		}
		end = strchr(t + i, '}');
		for (k = 0; end != NULL && k < V__COUNT; k++)
			if (strlen(tvars[k].name) == (size_t)(end - t - i - 1) &&
			    memcmp(tvars[k].name, t + i + 1,
				   (size_t)(end - t - i - 1)) == 0)
				break;
		if (end == NULL || k == V__COUNT) {
			if (why)
				snprintf(why, why_len, "unknown placeholder at "
					 "character %zu; expected {index}, "
					 "{host}, {port}, {group}, {mac}, "
					 "{mac_hex}, {vlan}, {inner_vlan} (or "
					 "\"{{\" for a brace)", i + 1);
			return -EINVAL;
		}
		if (v == NULL) {
			len = tvars[k].max;
		} else {
			len = expand_var((enum tvar)k, v, tmp, sizeof(tmp));
			if (n + (size_t)len <= cap)
				memcpy(out + n, tmp, (size_t)len);
		}
		n += (size_t)len;
		i = (size_t)(end - t) + 1;
	}
	if (v != NULL && n > cap)
		return -ENOSPC;
	return (int)n;
}

int
wr_dhcp4_expand(const char *t, const struct wr_dhcp4_vars *v, uint8_t *out,
		size_t cap)
{
	return walk(t, v, out, cap, NULL, 0);
}

int
wr_dhcp4_expand_max(const char *t, char *why, size_t why_len)
{
	return walk(t, NULL, NULL, 0, why, why_len);
}

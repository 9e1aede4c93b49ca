/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp4: the DHCPv4 client state machine of emulated hosts (RFC 2131 sections 3.1, 4.1, 4.4). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_dhcp4.h"

#define ID WR_HOST_PROTO_dhcp4
#define NS_PER_MS 1000000ull
#define NS_PER_S 1000000000ull
/* RFC 2131 section 4.1: each wait randomized by +-1 s.  A wait shorter
 * than 4 s (a `timeout:` below RFC's) gets +-a quarter of itself, so
 * that the jitter never reverses the order of two waits. */
#define JITTER_MS 1000
/* RFC 2131 section 3.1 step 5: after a DECLINE, at least ten seconds
 * before the next DISCOVER. */
#define DECLINE_WAIT_MS 10000
/* RFC 2131 section 4.4.5: in RENEWING and REBINDING a REQUEST is resent
 * after half the time left to T2 or to the lease's end, at least 60 s. */
#define RENEW_MIN_MS 60000
/* RFC 2131 section 4.4.5's defaults: T1 0.5, T2 0.875 of the lease. */
#define T1_NUM 1
#define T1_DEN 2
#define T2_NUM 7
#define T2_DEN 8
/* Option 51's all-ones: infinite (RFC 2131 section 3.3). */
#define LEASE_INFINITE 0xffffffffu
#define IP4_BROADCAST 0xffffffffu
#define ETHERTYPE_IPV4 0x0800

/* Event counters, by name (the engine puts "dhcp4_" before each; per
 * state: state_<word>; per refused message: rx_bad_<reason>). */
#define DHCP4_COUNTERS(X)                                               \
	X(TX_DISCOVER, "tx_discover")                                   \
	X(TX_REQUEST, "tx_request")                                     \
	X(TX_DECLINE, "tx_decline")                                     \
	X(TX_RELEASE, "tx_release")                                     \
	X(RX_OFFER, "rx_offer")                                         \
	X(RX_ACK, "rx_ack")                                             \
	X(RX_NAK, "rx_nak")                                             \
	X(RX_UNEXPECTED, "rx_unexpected") /* valid, not for the state */ \
	X(RX_NOT_OURS, "rx_not_ours")   /* chaddr of no DHCP host here */ \
	X(LEASED, "leased")             /* ACKs in REQUESTING */        \
	X(RENEWED, "renewed")           /* ACKs in RENEWING */          \
	X(REBOUND, "rebound")           /* ACKs in REBINDING */         \
	X(TIMEOUT, "timeout")           /* exchanges never answered */  \
	X(NAK, "nak")                   /* NAKs taken */                \
	X(DECLINED, "declined")         /* ACKed addresses declined */  \
	X(EXPIRED, "expired")           /* leases run out */            \
	X(FAILED_TIMEOUT, "failed_timeout") /* hosts given up, why */   \
	X(FAILED_NAK, "failed_nak")                                     \
	X(FAILED_DECLINED, "failed_declined")

enum dhcp4_counter {
#define WR_X(e, s) C_##e,
	DHCP4_COUNTERS(WR_X)
#undef WR_X
	C__COUNT
};

static const char *const counter_names[C__COUNT] = {
#define WR_X(e, s) [C_##e] = s,
	DHCP4_COUNTERS(WR_X)
#undef WR_X
};

static const char *const state_names[WR_DHCP4_ST__COUNT] = {
#define WR_X(e, s) [WR_DHCP4_ST_##e] = s,
	WR_DHCP4_STATES(WR_X)
#undef WR_X
};

const char *
wr_dhcp4_state_name(enum wr_dhcp4_state s)
{
	return (unsigned int)s < WR_DHCP4_ST__COUNT ? state_names[s] : "";
}

/* The port's (struct wr_host_proto.data_size). */
struct dhcp4_port {
	uint64_t c[C__COUNT];
	uint64_t bad[WR_DHCP4_BAD__COUNT];
	uint64_t in_state[WR_DHCP4_ST__COUNT]; /* started hosts now in each */
};

/* Why an acquisition ended without a lease. */
enum end_reason { END_TIMEOUT, END_NAK, END_DECLINED };

/* A host's (struct wr_host_proto.state_size). */
struct dhcp4_host {
	uint8_t state;          /* enum wr_dhcp4_state */
	uint8_t counted;        /* in in_state[] (started) */
	uint8_t done;           /* wr_hosts_done() called */
	uint8_t tries;          /* messages sent in this exchange */
	uint8_t rounds;         /* acquisitions ended without a lease */
	uint8_t server_mac[6];  /* where the ACK came from: renewals go there */
	uint16_t secs;          /* the DISCOVER's, repeated in its REQUEST */
	uint32_t xid;
	uint32_t server_id;
	uint32_t addr;          /* offered, then leased */
	uint32_t t1_s, t2_s, lease_s;
	uint64_t acq_ns;        /* this acquisition or renewal began (secs) */
	uint64_t req_ns;        /* the exchange's first REQUEST: the lease's start */
	uint64_t lease_ns;      /* the current lease's start */
};

static struct dhcp4_port *
port_of(struct wr_hosts *hs)
{
	return wr_hosts_data(hs, ID);
}

static struct dhcp4_host *
host_of(struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_state(hs, h, ID);
}

static void
set_state(struct wr_hosts *hs, struct dhcp4_host *s, enum wr_dhcp4_state st)
{
	struct dhcp4_port *p = port_of(hs);

	if (s->counted)
		p->in_state[s->state]--;
	p->in_state[st]++;
	s->counted = 1;
	s->state = (uint8_t)st;
}

/* ---- Sending ---- */

static void
host_vars(struct wr_hosts *hs, uint32_t h, struct wr_dhcp4_vars *v)
{
	const struct wr_host *ho = wr_hosts_cget(hs, h);
	const struct wr_host_group *g = wr_hosts_group(hs, h);
	uint64_t mac = 0;
	int i;

	for (i = 0; i < 6; i++)
		mac = mac << 8 | ho->mac[i];
	memset(v, 0, sizeof(*v));
	/* Host k of a group has MAC mac + k * mac_step (wr_host_spec.h),
	 * modulo 2^48. */
	v->index = g->mac_step ? (uint32_t)(((mac - g->mac) & 0xffffffffffffull) /
					    g->mac_step) : 0;
	v->host = h;
	v->port = g->port;
	v->group = g->name;
	memcpy(v->mac, ho->mac, 6);
	if (ho->n_tags > 0)
		v->vlan = ho->tci[0] & 0xfff;
	if (ho->n_tags > 1)
		v->inner_vlan = ho->tci[1] & 0xfff;
}

/* The message @p type of @p h in its state, built and sent. */
static void
send_msg(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s, uint8_t type,
	 uint64_t now)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	const struct wr_dhcp4_cfg *cfg = wr_hosts_cfg(hs, h, ID);
	const struct wr_host *ho = wr_hosts_cget(hs, h);
	struct dhcp4_port *p = port_of(hs);
	uint8_t frame[WR_HOST_FRAME_MAX];
	uint8_t cid[255], hostname[255], o82[255];
	struct wr_dhcp4_out o;
	struct wr_dhcp4_vars v;
	const uint8_t *dst = bcast;
	uint64_t secs;
	uint32_t l2;
	int n;

	host_vars(hs, h, &v);
	memset(&o, 0, sizeof(o));
	o.type = type;
	o.xid = s->xid;
	secs = (now - s->acq_ns) / NS_PER_S;
	o.secs = (uint16_t)(secs > 0xffff ? 0xffff : secs);
	o.dst_ip = IP4_BROADCAST;
	o.chaddr = ho->mac;
	switch (type) {
	case WR_DHCP4_DISCOVER:
		s->secs = o.secs;
		break;
	case WR_DHCP4_REQUEST:
		if (s->state == WR_DHCP4_ST_REQUESTING) {
			/* RFC 2131 section 4.3.2: SELECTING's REQUEST names
			 * the server and the offered address, ciaddr 0. */
			o.secs = s->secs;
			o.requested_ip = s->addr;
			o.server_id = s->server_id;
		} else {
			/* RENEWING (unicast to the server) and REBINDING
			 * (broadcast): ciaddr is the address, no 50/54. */
			o.ciaddr = s->addr;
			o.src_ip = s->addr;
			if (s->state == WR_DHCP4_ST_RENEWING) {
				o.dst_ip = s->server_id;
				dst = s->server_mac;
			}
		}
		break;
	case WR_DHCP4_DECLINE:
		/* RFC 2131 section 4.4.1: ciaddr 0, the address in option 50. */
		o.requested_ip = s->addr;
		o.server_id = s->server_id;
		break;
	case WR_DHCP4_RELEASE:
		/* RFC 2131 section 4.4.6: unicast to the server. */
		o.ciaddr = s->addr;
		o.src_ip = s->addr;
		o.dst_ip = s->server_id;
		o.server_id = s->server_id;
		dst = s->server_mac;
		break;
	default:
		break;
	}
	/* The BROADCAST flag only while the host has no address to take a
	 * unicast reply on (RFC 2131 section 4.1). */
	o.broadcast = cfg->broadcast && o.ciaddr == 0;
	if (cfg->cid_mode == WR_DHCP4_CID_MAC) {
		cid[0] = 1; /* ARP's hardware type: Ethernet (RFC 2132 9.14) */
		memcpy(cid + 1, ho->mac, 6);
		o.client_id = cid;
		o.client_id_len = 7;
	} else if (cfg->cid_mode == WR_DHCP4_CID_TEXT) {
		cid[0] = 0;
		n = wr_dhcp4_expand(cfg->client_id, &v, cid + 1, 254);
		if (n >= 0) {
			o.client_id = cid;
			o.client_id_len = (uint8_t)(n + 1);
		}
	}
	/* Host name and parameters only where RFC 2131 table 5 has them. */
	if (type == WR_DHCP4_DISCOVER || type == WR_DHCP4_REQUEST) {
		if (cfg->hostname[0] != '\0') {
			n = wr_dhcp4_expand(cfg->hostname, &v, hostname, 255);
			if (n > 0) {
				o.hostname = (const char *)hostname;
				o.hostname_len = (uint8_t)n;
			}
		}
		o.prl = cfg->prl;
		o.n_prl = cfg->n_prl;
	}
	if (cfg->option82) {
		n = wr_dhcp4_opt82(cfg, &v, o82);
		if (n > 0) {
			o.opt82 = o82;
			o.opt82_len = (uint8_t)n;
		}
	}
	l2 = wr_hosts_l2(hs, h, frame, dst, ETHERTYPE_IPV4);
	l2 += wr_dhcp4_build(frame + l2, &o);
	wr_hosts_send(hs, frame, l2);
	if (type == WR_DHCP4_DISCOVER)
		p->c[C_TX_DISCOVER]++;
	else if (type == WR_DHCP4_REQUEST)
		p->c[C_TX_REQUEST]++;
	else if (type == WR_DHCP4_DECLINE)
		p->c[C_TX_DECLINE]++;
	else if (type == WR_DHCP4_RELEASE)
		p->c[C_TX_RELEASE]++;
}

/* The wait after message @p k (from 0) of an exchange: RFC 2131 section
 * 4.1's doubling, randomized. */
static uint64_t
wait_ns(struct wr_hosts *hs, const struct wr_dhcp4_cfg *cfg, unsigned int k)
{
	uint64_t ms = wr_dhcp4_backoff_ms(cfg, k);
	uint64_t j = ms / 4 < JITTER_MS ? ms / 4 : JITTER_MS;
	uint64_t r = wr_hosts_rand(hs) % (2 * j + 1);

	return (ms - j + r) * NS_PER_MS;
}

/* Send the exchange's next message and arm its retransmission. */
static void
transmit(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s, uint8_t type,
	 uint64_t now)
{
	const struct wr_dhcp4_cfg *cfg = wr_hosts_cfg(hs, h, ID);

	if (type == WR_DHCP4_REQUEST && s->tries == 0)
		s->req_ns = now;
	send_msg(hs, h, s, type, now);
	wr_hosts_timer(hs, h, ID, now + wait_ns(hs, cfg, s->tries));
	s->tries++;
}

static void
discover(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s, uint64_t now)
{
	s->xid = wr_hosts_rand(hs);
	s->acq_ns = now;
	s->tries = 0;
	s->server_id = 0;
	s->addr = 0;
	set_state(hs, s, WR_DHCP4_ST_SELECTING);
	transmit(hs, h, s, WR_DHCP4_DISCOVER, now);
}

static void
fail(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s,
     enum end_reason why)
{
	struct dhcp4_port *p = port_of(hs);

	p->c[why == END_TIMEOUT ? C_FAILED_TIMEOUT : why == END_NAK ?
	     C_FAILED_NAK : C_FAILED_DECLINED]++;
	set_state(hs, s, WR_DHCP4_ST_FAILED);
	wr_hosts_timer(hs, h, ID, 0);
	if (!s->done) {
		s->done = 1;
		wr_hosts_done(hs, h, ID, false);
	}
}

/* An acquisition ended without a lease: another one, unless the host has
 * had retries + 1 of them (RFC 2131 3.1 has a client try for ever; a
 * test needs to know when to stop counting on a host). */
static void
restart(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s,
	enum end_reason why, uint64_t now)
{
	const struct wr_dhcp4_cfg *cfg = wr_hosts_cfg(hs, h, ID);

	if (++s->rounds > cfg->retries) {
		fail(hs, h, s, why);
		return;
	}
	if (why == END_DECLINED) {
		set_state(hs, s, WR_DHCP4_ST_INIT);
		wr_hosts_timer(hs, h, ID, now + DECLINE_WAIT_MS * NS_PER_MS);
		return;
	}
	discover(hs, h, s, now);
}

/* Drop the address @p h holds (lease over, NAK, stop). */
static void
unbind(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	if (wr_hosts_cget(hs, h)->ip4 != 0)
		wr_hosts_set_ip4(hs, h, 0, 0, 0, now);
}

/* ---- Receiving ---- */

static bool
usable_addr(uint32_t a)
{
	/* Not 0/8, loopback, multicast or class E (RFC 1122 3.2.1.3). */
	return (a >> 24) != 0 && (a >> 24) != 127 && (a >> 28) < 14;
}

/* A contiguous mask's prefix length, or -1. */
static int
mask_prefix(uint32_t m)
{
	int n = __builtin_popcount(m);

	return m == (n ? ~0u << (32 - n) : 0) ? n : -1;
}

static void
on_offer(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s,
	 const struct wr_dhcp4_msg *m, const struct wr_host_rx *rx,
	 uint64_t now)
{
	struct dhcp4_port *p = port_of(hs);

	if (s->state != WR_DHCP4_ST_SELECTING) {
		/* A second server's offer, or one to a retransmission:
		 * the first was taken (RFC 2131 4.4.1 lets a client pick). */
		p->c[C_RX_UNEXPECTED]++;
		return;
	}
	if (m->server_id == 0) {
		p->bad[WR_DHCP4_BAD_MISSING]++;
		return;
	}
	if (!usable_addr(m->yiaddr)) {
		p->bad[WR_DHCP4_BAD_ADDRESS]++;
		return;
	}
	p->c[C_RX_OFFER]++;
	s->server_id = m->server_id;
	s->addr = m->yiaddr;
	memcpy(s->server_mac, rx->src_mac, 6);
	s->tries = 0;
	set_state(hs, s, WR_DHCP4_ST_REQUESTING);
	transmit(hs, h, s, WR_DHCP4_REQUEST, now);
}

/* The lease's T1 and T2 (RFC 2131 4.4.5): the server's when they are in
 * order, the defaults otherwise. */
static void
lease_times(struct dhcp4_host *s, const struct wr_dhcp4_msg *m)
{
	uint64_t l = m->lease_s;

	s->lease_s = m->lease_s;
	s->t1_s = (uint32_t)(l * T1_NUM / T1_DEN);
	s->t2_s = (uint32_t)(l * T2_NUM / T2_DEN);
	if (m->has_t1 && m->has_t2 && m->t1_s <= m->t2_s &&
	    m->t2_s <= m->lease_s) {
		s->t1_s = m->t1_s;
		s->t2_s = m->t2_s;
	} else if (m->has_t1 && !m->has_t2 && m->t1_s <= s->t2_s) {
		s->t1_s = m->t1_s;
	} else if (m->has_t2 && !m->has_t1 && m->t2_s <= m->lease_s &&
		   s->t1_s <= m->t2_s) {
		s->t2_s = m->t2_s;
	}
}

static void
on_ack(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s,
       const struct wr_dhcp4_msg *m, const struct wr_host_rx *rx,
       uint64_t now)
{
	struct dhcp4_port *p = port_of(hs);
	const struct wr_host *ho = wr_hosts_cget(hs, h);
	const struct wr_host_group *g = wr_hosts_group(hs, h);
	enum wr_dhcp4_state was = s->state;
	int prefix = g->v4.prefix;
	int64_t other;

	if (was != WR_DHCP4_ST_REQUESTING && was != WR_DHCP4_ST_RENEWING &&
	    was != WR_DHCP4_ST_REBINDING) {
		p->c[C_RX_UNEXPECTED]++;
		return;
	}
	/* RFC 2131 table 3: an ACK to a REQUEST carries the lease time. */
	if (!m->has_lease) {
		p->bad[WR_DHCP4_BAD_MISSING]++;
		return;
	}
	if (m->has_mask)
		prefix = mask_prefix(m->mask);
	if (!usable_addr(m->yiaddr) || prefix < 1 || prefix > 32) {
		p->bad[WR_DHCP4_BAD_ADDRESS]++;
		return;
	}
	if (was == WR_DHCP4_ST_REQUESTING && m->server_id != 0 &&
	    m->server_id != s->server_id) {
		p->c[C_RX_UNEXPECTED]++; /* another server's: not our REQUEST */
		return;
	}
	p->c[C_RX_ACK]++;
	/* RFC 2131 4.4.1: a client SHOULD check the address is not in use;
	 * one of this port's hosts holding it on the same link is. */
	other = wr_hosts_by_ip4(hs, rx, m->yiaddr);
	if (other >= 0 && (uint32_t)other != h) {
		p->c[C_DECLINED]++;
		s->addr = m->yiaddr;
		if (was != WR_DHCP4_ST_REQUESTING)
			unbind(hs, h, now);
		send_msg(hs, h, s, WR_DHCP4_DECLINE, now);
		restart(hs, h, s, END_DECLINED, now);
		return;
	}
	if (m->server_id != 0)
		s->server_id = m->server_id;
	memcpy(s->server_mac, rx->src_mac, 6);
	s->addr = m->yiaddr;
	lease_times(s, m);
	s->lease_ns = s->req_ns;
	if (ho->ip4 != m->yiaddr || ho->prefix4 != prefix ||
	    ho->gw4 != m->router)
		wr_hosts_set_ip4(hs, h, m->yiaddr, (uint8_t)prefix, m->router,
				 now);
	p->c[was == WR_DHCP4_ST_REQUESTING ? C_LEASED :
	     was == WR_DHCP4_ST_RENEWING ? C_RENEWED : C_REBOUND]++;
	s->rounds = 0;
	set_state(hs, s, WR_DHCP4_ST_BOUND);
	wr_hosts_timer(hs, h, ID, s->lease_s == LEASE_INFINITE ? 0 :
		       s->lease_ns + s->t1_s * NS_PER_S);
	if (!s->done) {
		s->done = 1;
		wr_hosts_done(hs, h, ID, true);
	}
}

static void
on_nak(struct wr_hosts *hs, uint32_t h, struct dhcp4_host *s,
       const struct wr_dhcp4_msg *m, uint64_t now)
{
	struct dhcp4_port *p = port_of(hs);
	enum wr_dhcp4_state was = s->state;

	if ((was != WR_DHCP4_ST_REQUESTING && was != WR_DHCP4_ST_RENEWING &&
	     was != WR_DHCP4_ST_REBINDING) ||
	    (was == WR_DHCP4_ST_REQUESTING && m->server_id != 0 &&
	     m->server_id != s->server_id)) {
		p->c[C_RX_UNEXPECTED]++;
		return;
	}
	p->c[C_RX_NAK]++;
	p->c[C_NAK]++;
	/* RFC 2131 4.4.5: a NAK ends the lease at once; the host starts
	 * over, a first acquisition (the lease it had was no failure). */
	if (was != WR_DHCP4_ST_REQUESTING) {
		unbind(hs, h, now);
		s->rounds = 0;
		discover(hs, h, s, now);
		return;
	}
	restart(hs, h, s, END_NAK, now);
}

static bool
dhcp4_wants(const struct wr_host_rx *rx)
{
	return rx->ip_version == 4 && rx->l4_proto == 17 &&
	       rx->sport == WR_DHCP4_SERVER_PORT &&
	       rx->dport == WR_DHCP4_CLIENT_PORT;
}

static void
dhcp4_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	struct dhcp4_port *p = port_of(hs);
	struct dhcp4_host *s;
	struct wr_dhcp4_msg m;
	enum wr_dhcp4_bad bad;
	int64_t h;

	bad = wr_dhcp4_parse(rx->frame + rx->l4_off, rx->l4_len,
			     (uint32_t)rx->src_ip, (uint32_t)rx->dst_ip, &m);
	if (bad != WR_DHCP4_OK) {
		p->bad[bad]++;
		return;
	}
	h = wr_hosts_by_mac(hs, m.chaddr);
	if (h < 0 || wr_hosts_cfg(hs, (uint32_t)h, ID) == NULL ||
	    !wr_hosts_same_link(hs, (uint32_t)h, rx)) {
		p->c[C_RX_NOT_OURS]++;
		return;
	}
	s = host_of(hs, (uint32_t)h);
	if (!s->counted || m.xid != s->xid) {
		p->bad[WR_DHCP4_BAD_XID]++;
		return;
	}
	switch (m.type) {
	case WR_DHCP4_OFFER:
		on_offer(hs, (uint32_t)h, s, &m, rx, now);
		break;
	case WR_DHCP4_ACK:
		on_ack(hs, (uint32_t)h, s, &m, rx, now);
		break;
	case WR_DHCP4_NAK:
		on_nak(hs, (uint32_t)h, s, &m, now);
		break;
	default:
		/* A client's own message types coming back (a loop). */
		p->c[C_RX_UNEXPECTED]++;
		break;
	}
}

/* ---- Time ---- */

static void
dhcp4_start(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct dhcp4_host *s = host_of(hs, h);

	/* No RFC 2131 4.4.1 1..10 s start delay: the group's bring-up rate
	 * spreads the hosts out already. */
	s->rounds = 0;
	s->done = 0;
	discover(hs, h, s, now);
}

/* RENEWING and REBINDING: the next REQUEST after half the time left to
 * @p until (T2, the lease's end), at least 60 s, never past it. */
static void
renew_next(struct wr_hosts *hs, uint32_t h, uint64_t now, uint64_t until)
{
	uint64_t half = until > now ? (until - now) / 2 : 0;
	uint64_t next = now + (half > RENEW_MIN_MS * NS_PER_MS ? half :
			       RENEW_MIN_MS * NS_PER_MS);

	wr_hosts_timer(hs, h, ID, next < until ? next : until);
}

static void
dhcp4_timer(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	const struct wr_dhcp4_cfg *cfg = wr_hosts_cfg(hs, h, ID);
	struct dhcp4_host *s = host_of(hs, h);
	struct dhcp4_port *p = port_of(hs);
	uint64_t t2 = s->lease_ns + s->t2_s * NS_PER_S;
	uint64_t end = s->lease_ns + s->lease_s * NS_PER_S;

	switch (s->state) {
	case WR_DHCP4_ST_INIT:
		discover(hs, h, s, now);
		break;
	case WR_DHCP4_ST_SELECTING:
	case WR_DHCP4_ST_REQUESTING:
		if (s->tries <= cfg->retries) {
			transmit(hs, h, s, s->state == WR_DHCP4_ST_SELECTING ?
				 WR_DHCP4_DISCOVER : WR_DHCP4_REQUEST, now);
			break;
		}
		p->c[C_TIMEOUT]++;
		/* No OFFER at all: no server; a REQUEST never answered:
		 * RFC 2131 3.1.5 starts over. */
		if (s->state == WR_DHCP4_ST_SELECTING)
			fail(hs, h, s, END_TIMEOUT);
		else
			restart(hs, h, s, END_TIMEOUT, now);
		break;
	case WR_DHCP4_ST_BOUND:
		/* T1: ask the server that gave the lease (4.4.5). */
		s->xid = wr_hosts_rand(hs);
		s->acq_ns = now;
		s->tries = 0;
		set_state(hs, s, WR_DHCP4_ST_RENEWING);
		s->req_ns = now;
		send_msg(hs, h, s, WR_DHCP4_REQUEST, now);
		s->tries++;
		renew_next(hs, h, now, t2);
		break;
	case WR_DHCP4_ST_RENEWING:
		if (now < t2) {
			send_msg(hs, h, s, WR_DHCP4_REQUEST, now);
			s->tries++;
			renew_next(hs, h, now, t2);
			break;
		}
		/* T2: ask any server (broadcast). */
		set_state(hs, s, WR_DHCP4_ST_REBINDING);
		s->req_ns = now;
		send_msg(hs, h, s, WR_DHCP4_REQUEST, now);
		s->tries++;
		renew_next(hs, h, now, end);
		break;
	case WR_DHCP4_ST_REBINDING:
		if (now < end) {
			send_msg(hs, h, s, WR_DHCP4_REQUEST, now);
			s->tries++;
			renew_next(hs, h, now, end);
			break;
		}
		/* The lease is over: the address goes (4.4.5), and the
		 * host starts again from INIT. */
		p->c[C_EXPIRED]++;
		unbind(hs, h, now);
		s->rounds = 0;
		discover(hs, h, s, now);
		break;
	default:
		break;
	}
}

static void
dhcp4_stop(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct dhcp4_host *s = host_of(hs, h);

	if (!s->counted)
		return;
	wr_hosts_timer(hs, h, ID, 0);
	switch (s->state) {
	case WR_DHCP4_ST_BOUND:
	case WR_DHCP4_ST_RENEWING:
	case WR_DHCP4_ST_REBINDING:
		/* RFC 2131 4.4.6: give the lease back. */
		send_msg(hs, h, s, WR_DHCP4_RELEASE, now);
		unbind(hs, h, now);
		set_state(hs, s, WR_DHCP4_ST_RELEASED);
		break;
	case WR_DHCP4_ST_FAILED:
	case WR_DHCP4_ST_RELEASED:
		break;
	default:
		/* Never bound: nothing to give back. */
		set_state(hs, s, WR_DHCP4_ST_RELEASED);
		break;
	}
}

/* ---- What the control plane reads ---- */

static const char *
dhcp4_state(const struct wr_hosts *hs, uint32_t h)
{
	const struct dhcp4_host *s = wr_hosts_cstate(hs, h, ID);

	return wr_dhcp4_state_name(s->state);
}

static void
dhcp4_counters(const struct wr_hosts *hs,
	       void (*put)(void *ctx, const char *name, uint64_t v), void *ctx)
{
	const struct dhcp4_port *p = wr_hosts_cdata(hs, ID);
	char name[48];
	unsigned int i;

	for (i = 0; i < C__COUNT; i++)
		put(ctx, counter_names[i], p->c[i]);
	for (i = 1; i < WR_DHCP4_BAD__COUNT; i++) {
		snprintf(name, sizeof(name), "rx_bad_%s",
			 wr_dhcp4_bad_name((enum wr_dhcp4_bad)i));
		put(ctx, name, p->bad[i]);
	}
	for (i = 0; i < WR_DHCP4_ST__COUNT; i++) {
		snprintf(name, sizeof(name), "state_%s",
			 wr_dhcp4_state_name((enum wr_dhcp4_state)i));
		put(ctx, name, p->in_state[i]);
	}
}

const struct wr_host_proto wr_host_proto_dhcp4 = {
	.name = "dhcp4",
	.parse = wr_dhcp4_cfg_parse,
	.state_size = sizeof(struct dhcp4_host),
	.data_size = sizeof(struct dhcp4_port),
	.wants = dhcp4_wants,
	.input = dhcp4_input,
	.start = dhcp4_start,
	.timer = dhcp4_timer,
	.stop = dhcp4_stop,
	.state = dhcp4_state,
	.counters = dhcp4_counters,
};

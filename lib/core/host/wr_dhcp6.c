/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp6: DHCPv6 client (RFC 8415): messages parsed and built, the per-host state machine, its config. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_dhcp6.h"
#include "wr_wire.h"
#include "wr_ytree.h"


/* Section 7.6's transmission parameters, in ms. */
#define SOL_MAX_DELAY_MS 1000
#define SOL_TIMEOUT_MS 1000
#define SOL_MAX_RT_MS 3600000
#define REQ_TIMEOUT_MS 1000
#define REQ_MAX_RT_MS 30000
#define REQ_MAX_RC 10
#define REN_TIMEOUT_MS 10000
#define REN_MAX_RT_MS 600000
#define REB_TIMEOUT_MS 10000
#define REB_MAX_RT_MS 600000
#define REL_TIMEOUT_MS 1000
#define REL_MAX_RC 4
/* The link-local address is still under DAD (RFC 4862 5.4: a tentative
 * address is not a source): look again this much later. */
#define WAIT_LL_MS 100

#define INFINITE 0xffffffffu
#define MS 1000000ull
#define SEC 1000000000ull
/* Room for our largest message: header, client and server IDs, ORO,
 * elapsed time, rapid commit, IA_NA with an IAADDR, IA_PD with an
 * IAPREFIX. */
#define MSG_MAX (4 + 4 + 130 + 4 + 130 + 4 + 4 + 6 + 4 + 16 + 28 + 16 + 29)

/* A host's place in section 18's exchanges. */
#define D6_STATES(X)                     \
	X(INIT, "init")                  \
	X(SOLICIT, "soliciting")         \
	X(REQUEST, "requesting")         \
	X(BOUND, "bound")                \
	X(RENEW, "renewing")             \
	X(REBIND, "rebinding")           \
	X(RELEASE, "releasing")          \
	X(RELEASED, "released")

enum d6_state {
#define X(e, s) D6_##e,
	D6_STATES(X)
#undef X
	D6__COUNT
};

static const char *const d6_state_names[] = {
#define X(e, s) s,
	D6_STATES(X)
#undef X
};

/* Events and failures, each a counter. */
#define D6_EVENTS(X)                                                     \
	X(SOLICIT_TX, "solicit_tx")                                      \
	X(REQUEST_TX, "request_tx")                                      \
	X(RENEW_TX, "renew_tx")                                          \
	X(REBIND_TX, "rebind_tx")                                        \
	X(RELEASE_TX, "release_tx")                                      \
	X(RETRANSMIT, "retransmit")                                      \
	X(ADVERTISE_RX, "advertise_rx")                                  \
	X(REPLY_RX, "reply_rx")                                          \
	X(ADVERTISE_IGNORED, "advertise_ignored") /* no lease in it */   \
	X(BOUND, "bound")               /* REQUEST or rapid commit */    \
	X(RENEWED, "renewed")                                            \
	X(REBOUND, "rebound")                                            \
	X(RELEASED, "released")         /* REPLY to RELEASE */           \
	X(PD_BOUND, "pd_bound")                                          \
	X(WAIT_LL, "wait_link_local")   /* link-local still tentative */ \
	X(FAIL_NO_ADVERTISE, "fail_no_advertise")                        \
	X(FAIL_NO_REPLY, "fail_no_reply")                                \
	X(FAIL_NO_ADDRS, "fail_no_addrs")                                \
	X(FAIL_NO_PREFIX, "fail_no_prefix")                              \
	X(FAIL_NO_BINDING, "fail_no_binding")                            \
	X(FAIL_STATUS, "fail_status")   /* another status code */        \
	X(FAIL_EXPIRED, "fail_expired") /* valid lifetime over */        \
	X(FAIL_NO_ROOM, "fail_no_room") /* no IPv6 slot left */          \
	X(SERVERS_FULL, "servers_full") /* a 33rd server on one port */

enum d6_event {
#define X(e, s) D6_EV_##e,
	D6_EVENTS(X)
#undef X
	D6_EV__COUNT
};

static const char *const d6_event_names[] = {
#define X(e, s) s,
	D6_EVENTS(X)
#undef X
};

static const char *const d6_bad_names[] = {
	"",
#define X(e, s) s,
	WR_DHCP6_BAD_LIST(X)
#undef X
};

/* Servers' DUIDs a port's hosts are bound to: a handful on a link, so
 * kept once here and named by index in each host's state (a host's state
 * is allocated for every host of the port: 130 bytes each would be most
 * of it). */
#define D6_SRV_MAX 32

struct d6_srv {
	uint8_t len;
	uint8_t duid[WR_DHCP6_DUID_MAX];
};

/* One port's counters and servers (the module's context in its struct
 * wr_hosts). */
struct d6_ctx {
	uint64_t ev[D6_EV__COUNT];
	uint64_t bad[WR_DHCP6_BAD__COUNT];
	uint32_t n_srv;
	struct d6_srv srv[D6_SRV_MAX];
};

/* One host's client (fields by size: 112 bytes). */
struct d6_host {
	__uint128_t na;         /* the address held (or, soliciting, offered) */
	__uint128_t pd;         /* the delegated prefix */
	uint64_t start_ns;      /* the exchange's first transmission */
	uint64_t next_tx_ns;
	uint64_t window_ns;     /* SOLICIT: ADVERTISEs collected until then */
	uint64_t lease_ns;      /* the REPLY that gave the lifetimes */
	uint32_t xid;           /* 24 bits */
	uint32_t rt_ms;
	uint32_t t1;
	uint32_t t2;
	uint32_t na_pref;
	uint32_t na_valid;
	uint32_t pd_pref;
	uint32_t pd_valid;
	uint16_t tries;         /* transmissions of this exchange */
	uint8_t state;          /* enum d6_state */
	uint8_t reported;       /* wr_hosts_done() called */
	uint8_t have_adv;       /* SOLICIT: an ADVERTISE kept */
	uint8_t adv_pref;
	uint8_t srv;            /* the chosen server: d6_ctx.srv[srv] */
	uint8_t has_na;
	uint8_t has_pd;
	uint8_t pd_len;
};
_Static_assert(sizeof(struct d6_host) <= 112,
	       "a DHCPv6 client's state is allocated for every host of a port");

/* ---- Messages ---- */

/* An option's header at @p p.  @return the bytes after it. */
static uint8_t *
opt(uint8_t *p, uint16_t code, uint16_t len)
{
	wr_put16(p, code);
	wr_put16(p + 2, len);
	return p + 4;
}

/* ---- The module ---- */

static struct d6_ctx *
ctx_of(struct wr_hosts *hs)
{
	return wr_hosts_data(hs, WR_HOST_PROTO_dhcp6);
}

static void
count(struct wr_hosts *hs, enum d6_event e)
{
	ctx_of(hs)->ev[e]++;
}

static struct d6_host *
st_of(struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_state(hs, h, WR_HOST_PROTO_dhcp6);
}

static const struct wr_dhcp6_cfg *
cfg_of(const struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_cfg(hs, h, WR_HOST_PROTO_dhcp6);
}

/* The IAID of both IAs: the MAC's last four bytes (stable across runs and
 * distinct per host, as a client's interface index would be). */
static uint32_t
iaid_of(const struct wr_host *hst)
{
	return (uint32_t)wr_get32(hst->mac + 2);
}

/* The host's link-local source: @return false while it is tentative. */
static bool
link_local(const struct wr_host *hst, __uint128_t *ll)
{
	uint8_t i;

	for (i = 0; i < hst->n_ip6; i++) {
		if (hst->ip6[i].origin != WR_IP6_LINK_LOCAL)
			continue;
		*ll = hst->ip6[i].addr;
		return hst->ip6[i].state == WR_IP6_PREFERRED ||
		       hst->ip6[i].state == WR_IP6_DEPRECATED;
	}
	return false;
}

static void
report(struct wr_hosts *hs, uint32_t h, struct d6_host *s, bool ok)
{
	if (s->reported)
		return;
	s->reported = 1;
	wr_hosts_done(hs, h, WR_HOST_PROTO_dhcp6, ok);
}

/* The message of @p s's state into @p m.  @return its length. */
static uint32_t
build(struct wr_hosts *hs, uint32_t h, struct d6_host *s, uint8_t *m,
      uint64_t now)
{
	const struct wr_dhcp6_cfg *c = cfg_of(hs, h);
	const struct wr_host *hst = wr_hosts_cget(hs, h);
	static const uint8_t type_of[D6__COUNT] = {
		[D6_SOLICIT] = WR_DHCP6_SOLICIT, [D6_REQUEST] = WR_DHCP6_REQUEST,
		[D6_RENEW] = WR_DHCP6_RENEW, [D6_REBIND] = WR_DHCP6_REBIND,
		[D6_RELEASE] = WR_DHCP6_RELEASE,
	};
	uint8_t t = type_of[s->state], *p = m + 4, *v;
	/* Hints in a SOLICIT carry no lifetimes; what a RENEW, REBIND or
	 * RELEASE names is what the host holds (section 18.2). */
	bool lifetimes = t != WR_DHCP6_SOLICIT && t != WR_DHCP6_REQUEST;
	uint64_t cs = (now - s->start_ns) / (10 * MS);

	m[0] = t;
	wr_put24(m + 1, s->xid);
	v = opt(p, WR_DHCP6_OPT_CLIENTID, 0);
	wr_put16(p + 2, wr_dhcp6_duid(v, c->duid_type, hst->mac));
	p = v + wr_get16(p + 2);
	if (t == WR_DHCP6_REQUEST || t == WR_DHCP6_RENEW ||
	    t == WR_DHCP6_RELEASE) {
		const struct d6_srv *sv = &ctx_of(hs)->srv[s->srv];

		v = opt(p, WR_DHCP6_OPT_SERVERID, sv->len);
		memcpy(v, sv->duid, sv->len);
		p = v + sv->len;
	}
	if (t != WR_DHCP6_RELEASE) {
		v = opt(p, WR_DHCP6_OPT_ORO, t == WR_DHCP6_SOLICIT ? 4 : 2);
		wr_put16(v, WR_DHCP6_OPT_DNS_SERVERS);
		/* Section 18.2.1: a SOLICIT asks for SOL_MAX_RT. */
		if (t == WR_DHCP6_SOLICIT)
			wr_put16(v + 2, WR_DHCP6_OPT_SOL_MAX_RT);
		p = v + (t == WR_DHCP6_SOLICIT ? 4 : 2);
	}
	/* Hundredths of a second since the exchange began, 0xffff at most
	 * (section 21.9). */
	v = opt(p, WR_DHCP6_OPT_ELAPSED_TIME, 2);
	wr_put16(v, s->tries == 0 ? 0 : (cs > 0xffff ? 0xffff : cs));
	p = v + 2;
	if (t == WR_DHCP6_SOLICIT && c->rapid_commit)
		p = opt(p, WR_DHCP6_OPT_RAPID_COMMIT, 0);
	if (c->ia_na && (t != WR_DHCP6_RELEASE || s->has_na)) {
		v = opt(p, WR_DHCP6_OPT_IA_NA, s->has_na ? 12 + 28 : 12);
		wr_put32(v, iaid_of(hst));
		memset(v + 4, 0, 8);    /* T1, T2: the server's to choose */
		p = v + 12;
		if (s->has_na) {
			v = opt(p, WR_DHCP6_OPT_IAADDR, 24);
			wr_put128(v, s->na);
			wr_put32(v + 16, lifetimes ? s->na_pref : 0);
			wr_put32(v + 20, lifetimes ? s->na_valid : 0);
			p = v + 24;
		}
	}
	if (c->ia_pd && (t != WR_DHCP6_RELEASE || s->has_pd)) {
		bool hint = s->has_pd || c->pd_len != 0;

		v = opt(p, WR_DHCP6_OPT_IA_PD, hint ? 12 + 29 : 12);
		wr_put32(v, iaid_of(hst));
		memset(v + 4, 0, 8);
		p = v + 12;
		if (hint) {
			v = opt(p, WR_DHCP6_OPT_IAPREFIX, 25);
			wr_put32(v, lifetimes ? s->pd_pref : 0);
			wr_put32(v + 4, lifetimes ? s->pd_valid : 0);
			v[8] = s->has_pd ? s->pd_len : c->pd_len;
			wr_put128(v + 9, s->has_pd ? s->pd : 0);
			p = v + 25;
		}
	}
	return (uint32_t)(p - m);
}

/* Send @p s's message: link-local -> ff02::1:2, UDP 546 -> 547. */
static void
transmit(struct wr_hosts *hs, uint32_t h, struct d6_host *s, uint64_t now)
{
	static const uint8_t mc_mac[6] = { 0x33, 0x33, 0, 1, 0, 2 };
	/* All_DHCP_Relay_Agents_and_Servers (section 7.1). */
	const __uint128_t dst = ((__uint128_t)0xff02000000000000ull << 64) |
				0x10002ull;
	static const enum d6_event tx_ev[D6__COUNT] = {
		[D6_SOLICIT] = D6_EV_SOLICIT_TX, [D6_REQUEST] = D6_EV_REQUEST_TX,
		[D6_RENEW] = D6_EV_RENEW_TX, [D6_REBIND] = D6_EV_REBIND_TX,
		[D6_RELEASE] = D6_EV_RELEASE_TX,
	};
	uint8_t f[WR_HOST_FRAME_MAX], *ip, *udp;
	__uint128_t src = 0;
	uint32_t l2, mlen;
	uint16_t ulen;
	uint64_t sum;

	link_local(wr_hosts_cget(hs, h), &src);
	l2 = wr_hosts_l2(hs, h, f, mc_mac, WR_ETHERTYPE_IPV6);
	ip = f + l2;
	udp = ip + WR_IPV6_HLEN;
	mlen = build(hs, h, s, udp + WR_UDP_HLEN, now);
	ulen = (uint16_t)(WR_UDP_HLEN + mlen);
	memset(ip, 0, WR_IPV6_HLEN);
	ip[0] = 0x60;
	wr_put16(ip + 4, ulen);
	ip[6] = WR_IPPROTO_UDP;
	ip[7] = 1;      /* link-scoped multicast: no router forwards it */
	wr_put128(ip + 8, src);
	wr_put128(ip + 24, dst);
	wr_put16(udp, WR_DHCP6_CLIENT_PORT);
	wr_put16(udp + 2, WR_DHCP6_SERVER_PORT);
	wr_put16(udp + 4, ulen);
	wr_put16(udp + 6, 0);
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + ulen + WR_IPPROTO_UDP +
	      wr_csum_sum(udp, ulen);
	wr_put16(udp + 6, wr_csum_udp(sum));
	if (s->tries > 0)
		count(hs, D6_EV_RETRANSMIT);
	count(hs, tx_ev[s->state]);
	s->tries++;
	wr_hosts_send(hs, f, l2 + WR_IPV6_HLEN + ulen);
}

/* Absolute time @p secs after the lease's REPLY (never, for infinity). */
static uint64_t
after_lease(const struct d6_host *s, uint32_t secs)
{
	return secs == INFINITE ? UINT64_MAX : s->lease_ns + secs * SEC;
}

/* When the binding's valid lifetime ends: the shortest held. */
static uint64_t
expiry(const struct d6_host *s)
{
	uint32_t v = INFINITE;

	if (s->has_na && s->na_valid < v)
		v = s->na_valid;
	if (s->has_pd && s->pd_valid < v)
		v = s->pd_valid;
	return after_lease(s, v);
}

/* Set the timer for what comes next in @p s's state. */
static void
arm(struct wr_hosts *hs, uint32_t h, struct d6_host *s)
{
	uint64_t when = s->next_tx_ns;

	switch (s->state) {
	case D6_SOLICIT:
		if (s->have_adv && s->window_ns < when)
			when = s->window_ns;
		break;
	case D6_BOUND:
		when = after_lease(s, s->t1);
		break;
	case D6_RENEW:
		if (after_lease(s, s->t2) < when)
			when = after_lease(s, s->t2);
		break;
	case D6_REBIND:
		if (expiry(s) < when)
			when = expiry(s);
		break;
	case D6_REQUEST:
	case D6_RELEASE:
		break;
	default:
		when = 0;
		break;
	}
	/* 0 cancels; a time past any run is as good as never. */
	wr_hosts_timer(hs, h, WR_HOST_PROTO_dhcp6,
		       when == UINT64_MAX ? 0 : when);
}

/* Begin an exchange of type @p state (a new transaction ID), first
 * message now (or as soon as the link-local address is usable). */
static void
begin(struct wr_hosts *hs, struct d6_host *s, uint8_t state, uint64_t now)
{
	s->state = state;
	s->xid = wr_hosts_rand(hs) & 0xffffff;
	s->tries = 0;
	s->rt_ms = 0;
	s->start_ns = now;
	s->next_tx_ns = now;
}

/* Transmit when due and set the next retransmission. */
static void
send_due(struct wr_hosts *hs, uint32_t h, struct d6_host *s, uint64_t now)
{
	static const uint32_t irt[D6__COUNT] = {
		[D6_SOLICIT] = SOL_TIMEOUT_MS, [D6_REQUEST] = REQ_TIMEOUT_MS,
		[D6_RENEW] = REN_TIMEOUT_MS, [D6_REBIND] = REB_TIMEOUT_MS,
		[D6_RELEASE] = REL_TIMEOUT_MS,
	};
	static const uint32_t mrt[D6__COUNT] = {
		[D6_SOLICIT] = SOL_MAX_RT_MS, [D6_REQUEST] = REQ_MAX_RT_MS,
		[D6_RENEW] = REN_MAX_RT_MS, [D6_REBIND] = REB_MAX_RT_MS,
	};
	__uint128_t ll;

	if (now < s->next_tx_ns)
		return;
	if (!link_local(wr_hosts_cget(hs, h), &ll)) {
		count(hs, D6_EV_WAIT_LL);
		s->next_tx_ns = now + WAIT_LL_MS * MS;
		if (s->tries == 0)
			s->start_ns = s->next_tx_ns;
		return;
	}
	transmit(hs, h, s, now);
	s->rt_ms = wr_dhcp6_next_rt(s->rt_ms, irt[s->state], mrt[s->state],
				    wr_hosts_rand(hs),
				    s->state == D6_SOLICIT);
	s->next_tx_ns = now + s->rt_ms * MS;
	if (s->state == D6_SOLICIT && s->tries == 1)
		s->window_ns = s->next_tx_ns;
}

static void
solicit(struct wr_hosts *hs, uint32_t h, struct d6_host *s, uint64_t now,
	uint64_t delay_ns)
{
	s->has_na = 0;
	s->has_pd = 0;
	s->have_adv = 0;
	begin(hs, s, D6_SOLICIT, now);
	s->next_tx_ns = now + delay_ns;
	s->start_ns = s->next_tx_ns;
	s->window_ns = UINT64_MAX;
	arm(hs, h, s);
}

static void
d6_start(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct d6_host *s = st_of(hs, h);

	memset(s, 0, sizeof(*s));
	/* Section 18.2.1: the first SOLICIT waits a random time in
	 * [0, SOL_MAX_DELAY], so hosts started together do not all ask
	 * at once. */
	solicit(hs, h, s, now,
		(uint64_t)(wr_hosts_rand(hs) % (SOL_MAX_DELAY_MS + 1)) * MS);
}

/* Drop what the host holds (its address off the host). */
static void
drop(struct wr_hosts *hs, uint32_t h, struct d6_host *s)
{
	if (s->has_na)
		wr_hosts_del_ip6(hs, h, s->na);
	s->has_na = 0;
	s->has_pd = 0;
}

static void
d6_timer(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct d6_host *s = st_of(hs, h);
	const struct wr_dhcp6_cfg *c = cfg_of(hs, h);

	switch (s->state) {
	case D6_SOLICIT:
		if (s->have_adv && now >= s->window_ns) {
			begin(hs, s, D6_REQUEST, now);
			break;
		}
		if (now >= s->next_tx_ns && s->tries >= c->retries &&
		    !s->reported) {
			count(hs, D6_EV_FAIL_NO_ADVERTISE);
			report(hs, h, s, false);
		}
		break;
	case D6_REQUEST:
		if (now >= s->next_tx_ns && s->tries >= REQ_MAX_RC) {
			/* Section 18.2.2: no REPLY; solicit again. */
			count(hs, D6_EV_FAIL_NO_REPLY);
			if (s->tries >= c->retries)
				report(hs, h, s, false);
			solicit(hs, h, s, now, 0);
			return;
		}
		break;
	case D6_BOUND:
		if (now >= after_lease(s, s->t1))
			begin(hs, s, D6_RENEW, now);
		break;
	case D6_RENEW:
		if (now >= after_lease(s, s->t2))
			begin(hs, s, D6_REBIND, now);
		break;
	case D6_REBIND:
		if (now >= expiry(s)) {
			/* Section 18.2.5: nobody rebound it; the
			 * addresses go and the client starts over. */
			count(hs, D6_EV_FAIL_EXPIRED);
			drop(hs, h, s);
			solicit(hs, h, s, now, 0);
			return;
		}
		break;
	case D6_RELEASE:
		if (now >= s->next_tx_ns && s->tries >= REL_MAX_RC) {
			s->state = D6_RELEASED;
			arm(hs, h, s);
			return;
		}
		break;
	default:
		return;
	}
	send_due(hs, h, s, now);
	arm(hs, h, s);
}

static void
d6_stop(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct d6_host *s = st_of(hs, h);

	if (s->state == D6_BOUND || s->state == D6_RENEW ||
	    s->state == D6_REBIND) {
		/* Section 18.2.7: RELEASE to the server that bound it;
		 * the addresses are not used from now on. */
		begin(hs, s, D6_RELEASE, now);
		send_due(hs, h, s, now);
		if (s->has_na)
			wr_hosts_del_ip6(hs, h, s->na);
		arm(hs, h, s);
		return;
	}
	if (s->state != D6_RELEASE)
		s->state = D6_RELEASED;
	arm(hs, h, s);
}

static bool
d6_wants(const struct wr_host_rx *rx)
{
	return rx->ip_version == 6 && rx->l4_proto == WR_IPPROTO_UDP &&
	       rx->sport == WR_DHCP6_SERVER_PORT &&
	       rx->dport == WR_DHCP6_CLIENT_PORT;
}

/* The host the client ID names, on the link the frame came on, or -1. */
static int64_t
host_of(struct wr_hosts *hs, const struct wr_host_rx *rx,
	const struct wr_dhcp6_msg *m)
{
	uint8_t duid[WR_DHCP6_DUID_MAX];
	const struct wr_dhcp6_cfg *c;
	const uint8_t *mac;
	int64_t h;

	/* DUID-LL (type 3) and DUID-LLT (type 1) of Ethernet end with the
	 * MAC; our hosts send nothing else. */
	if (m->client_id_len != 10 && m->client_id_len != 14)
		return -1;
	mac = m->client_id + m->client_id_len - 6;
	h = wr_hosts_by_mac(hs, mac);
	if (h < 0 || !wr_hosts_same_link(hs, (uint32_t)h, rx))
		return -1;
	c = cfg_of(hs, (uint32_t)h);
	if (c == NULL ||
	    wr_dhcp6_duid(duid, c->duid_type, mac) != m->client_id_len ||
	    memcmp(duid, m->client_id, m->client_id_len) != 0)
		return -1;
	return h;
}

/* Does @p m lease anything this host asked for? */
static bool
has_lease(const struct wr_dhcp6_cfg *c, const struct wr_dhcp6_msg *m)
{
	bool na = c->ia_na && m->na.present && m->na.has_lease &&
		  m->na.valid_s != 0 && !(m->na.has_status && m->na.status);
	bool pd = c->ia_pd && m->pd.present && m->pd.has_lease &&
		  m->pd.valid_s != 0 && !(m->pd.has_status && m->pd.status);

	return na || pd;
}

/* The index of @p m's server in the port's table (added when new), or
 * -1 when the table is full (counted). */
static int
server(struct wr_hosts *hs, const struct wr_dhcp6_msg *m)
{
	struct d6_ctx *x = ctx_of(hs);
	uint32_t i;

	for (i = 0; i < x->n_srv; i++)
		if (x->srv[i].len == m->server_id_len &&
		    memcmp(x->srv[i].duid, m->server_id, m->server_id_len) == 0)
			return (int)i;
	if (x->n_srv == D6_SRV_MAX) {
		x->ev[D6_EV_SERVERS_FULL]++;
		return -1;
	}
	x->srv[i].len = (uint8_t)m->server_id_len;
	memcpy(x->srv[i].duid, m->server_id, m->server_id_len);
	x->n_srv++;
	return (int)i;
}

static void
advertise(struct wr_hosts *hs, uint32_t h, struct d6_host *s,
	  const struct wr_dhcp6_msg *m, uint64_t now)
{
	const struct wr_dhcp6_cfg *c = cfg_of(hs, h);
	uint8_t pref = m->has_preference ? m->preference : 0;

	count(hs, D6_EV_ADVERTISE_RX);
	/* Section 18.2.9: an ADVERTISE without any address or prefix the
	 * client asked for is ignored. */
	if (!has_lease(c, m)) {
		count(hs, D6_EV_ADVERTISE_IGNORED);
		return;
	}
	if (!s->have_adv || pref > s->adv_pref) {
		int sv = server(hs, m);

		if (sv < 0)
			return;
		s->have_adv = 1;
		s->adv_pref = pref;
		s->srv = (uint8_t)sv;
		/* Its leases are the REQUEST's hints. */
		s->has_na = c->ia_na && m->na.has_lease;
		s->na = m->na.addr;
		s->has_pd = c->ia_pd && m->pd.has_lease;
		s->pd = m->pd.addr;
		s->pd_len = m->pd.plen;
	}
	/* Section 18.2.1: preference 255 is taken at once, and so is the
	 * first ADVERTISE after the first RT. */
	if (pref == 255 || now >= s->window_ns) {
		begin(hs, s, D6_REQUEST, now);
		send_due(hs, h, s, now);
	}
	arm(hs, h, s);
}

/* T1 and T2 from the IAs (section 21.4: 0 leaves them to the client:
 * 0.5 and 0.8 of the shortest preferred lifetime). */
static void
times(struct d6_host *s, const struct wr_dhcp6_ia *na,
      const struct wr_dhcp6_ia *pd)
{
	const struct wr_dhcp6_ia *ia = na->present && s->has_na ? na : pd;
	uint32_t pref = INFINITE;

	if (s->has_na && s->na_pref < pref)
		pref = s->na_pref;
	if (s->has_pd && s->pd_pref < pref)
		pref = s->pd_pref;
	s->t1 = ia->t1;
	s->t2 = ia->t2;
	if (s->t1 == 0 || (s->t2 != 0 && s->t1 > s->t2))
		s->t1 = pref == INFINITE ? INFINITE : pref / 2;
	if (s->t2 == 0 || s->t2 < s->t1)
		s->t2 = pref == INFINITE ? INFINITE :
			(uint32_t)((uint64_t)pref * 4 / 5);
	if (s->t2 < s->t1)
		s->t2 = s->t1;
}

/* The status that makes a REPLY a failure, as its event; or -1. */
static int
failure(const struct wr_dhcp6_cfg *c, const struct wr_dhcp6_msg *m)
{
	/* dnsmasq answers a REQUEST for an address it gave another client
	 * meanwhile with NoAddrsAvail at the top level. */
	if (m->has_status && m->status == WR_DHCP6_ST_NO_ADDRS)
		return D6_EV_FAIL_NO_ADDRS;
	if (m->has_status && m->status != 0)
		return D6_EV_FAIL_STATUS;
	if (c->ia_na && m->na.present && m->na.has_status) {
		if (m->na.status == WR_DHCP6_ST_NO_ADDRS)
			return D6_EV_FAIL_NO_ADDRS;
		if (m->na.status == WR_DHCP6_ST_NO_BINDING)
			return D6_EV_FAIL_NO_BINDING;
		if (m->na.status != 0)
			return D6_EV_FAIL_STATUS;
	}
	if (c->ia_pd && m->pd.present && m->pd.has_status) {
		if (m->pd.status == WR_DHCP6_ST_NO_PREFIX)
			return D6_EV_FAIL_NO_PREFIX;
		if (m->pd.status == WR_DHCP6_ST_NO_BINDING)
			return D6_EV_FAIL_NO_BINDING;
		if (m->pd.status != 0)
			return D6_EV_FAIL_STATUS;
	}
	if (!has_lease(c, m))
		return D6_EV_FAIL_NO_ADDRS;
	return -1;
}

static void
reply(struct wr_hosts *hs, uint32_t h, struct d6_host *s,
      const struct wr_dhcp6_msg *m, uint64_t now)
{
	const struct wr_dhcp6_cfg *c = cfg_of(hs, h);
	uint8_t was = s->state;
	bool na, pd;
	int fail, sv;

	count(hs, D6_EV_REPLY_RX);
	if (was == D6_RELEASE) {
		count(hs, D6_EV_RELEASED);
		s->state = D6_RELEASED;
		arm(hs, h, s);
		return;
	}
	fail = failure(c, m);
	if (fail >= 0) {
		count(hs, (enum d6_event)fail);
		if (was == D6_RENEW && fail != D6_EV_FAIL_NO_BINDING &&
		    fail != D6_EV_FAIL_NO_ADDRS && fail != D6_EV_FAIL_NO_PREFIX)
			return; /* section 18.2.10.1: keep renewing to T2 */
		/* No lease from this server: start over. */
		if (was == D6_SOLICIT || was == D6_REQUEST) {
			if (s->tries >= c->retries)
				report(hs, h, s, false);
		}
		drop(hs, h, s);
		solicit(hs, h, s, now, 0);
		return;
	}
	na = c->ia_na && m->na.has_lease && m->na.valid_s != 0;
	pd = c->ia_pd && m->pd.has_lease && m->pd.valid_s != 0;
	if (s->has_na && (!na || s->na != m->na.addr))
		wr_hosts_del_ip6(hs, h, s->na);
	s->has_na = na;
	s->has_pd = pd;
	if (na) {
		s->na = m->na.addr;
		s->na_pref = m->na.preferred_s;
		s->na_valid = m->na.valid_s;
		if (wr_hosts_add_ip6(hs, h, s->na, 128, WR_IP6_DHCP,
				     s->na_valid, s->na_pref, now) < 0) {
			count(hs, D6_EV_FAIL_NO_ROOM);
			s->has_na = 0;
		}
	}
	if (pd) {
		s->pd = m->pd.addr;
		s->pd_len = m->pd.plen;
		s->pd_pref = m->pd.preferred_s;
		s->pd_valid = m->pd.valid_s;
	}
	if (!s->has_na && !s->has_pd) {
		report(hs, h, s, false);
		solicit(hs, h, s, now, 0);
		return;
	}
	/* Section 18.2.10.1: a REPLY to a REQUEST or a RENEW comes from the
	 * server that will renew it. */
	sv = server(hs, m);
	if (sv >= 0)
		s->srv = (uint8_t)sv;
	s->lease_ns = now;
	times(s, &m->na, &m->pd);
	count(hs, was == D6_RENEW ? D6_EV_RENEWED :
		  was == D6_REBIND ? D6_EV_REBOUND : D6_EV_BOUND);
	if (pd && was != D6_RENEW && was != D6_REBIND)
		count(hs, D6_EV_PD_BOUND);
	s->state = D6_BOUND;
	report(hs, h, s, true);
	arm(hs, h, s);
}

/* The UDP checksum over the IPv6 pseudo-header verifies (RFC 8200 8.1:
 * zero is not "none" in IPv6). */
static bool
udp_ok(const struct wr_host_rx *rx, uint16_t ulen)
{
	const uint8_t *ip = rx->frame + rx->l3_off;
	const uint8_t *udp = rx->frame + rx->l4_off;
	uint64_t sum = (uint64_t)wr_csum_sum(ip + 8, 32) + ulen +
		       WR_IPPROTO_UDP + wr_csum_sum(udp, ulen);

	return wr_get16(udp + 6) != 0 && wr_csum_fold(sum) == 0xffff;
}

static void
d6_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	struct d6_ctx *x = ctx_of(hs);
	const uint8_t *udp = rx->frame + rx->l4_off;
	struct wr_dhcp6_msg m;
	enum wr_dhcp6_bad bad;
	struct d6_host *s;
	uint16_t ulen;
	int64_t h;

	if (rx->l4_len < WR_UDP_HLEN) {
		x->bad[WR_DHCP6_BAD_SHORT]++;
		return;
	}
	ulen = (uint16_t)wr_get16(udp + 4);
	if (ulen < WR_UDP_HLEN || ulen > rx->l4_len) {
		x->bad[WR_DHCP6_BAD_SHORT]++;
		return;
	}
	if (!udp_ok(rx, ulen)) {
		x->bad[WR_DHCP6_BAD_CSUM]++;
		return;
	}
	bad = wr_dhcp6_parse(udp + WR_UDP_HLEN, ulen - WR_UDP_HLEN, &m);
	if (bad != WR_DHCP6_OK) {
		x->bad[bad]++;
		return;
	}
	h = host_of(hs, rx, &m);
	if (h < 0) {
		x->bad[WR_DHCP6_BAD_NOT_OURS]++;
		return;
	}
	s = st_of(hs, (uint32_t)h);
	/* Section 16: a message of no transaction under way is dropped;
	 * an ADVERTISE answers only a SOLICIT; a REPLY answers a SOLICIT
	 * only with rapid commit (section 18.2.10). */
	if (m.xid != s->xid || s->tries == 0 || s->state == D6_INIT ||
	    s->state == D6_BOUND || s->state == D6_RELEASED ||
	    (m.type == WR_DHCP6_ADVERTISE && s->state != D6_SOLICIT) ||
	    (m.type == WR_DHCP6_REPLY && s->state == D6_SOLICIT &&
	     !(m.rapid_commit && cfg_of(hs, (uint32_t)h)->rapid_commit))) {
		x->bad[WR_DHCP6_BAD_XID]++;
		return;
	}
	if (m.type == WR_DHCP6_ADVERTISE)
		advertise(hs, (uint32_t)h, s, &m, now);
	else
		reply(hs, (uint32_t)h, s, &m, now);
}

static const char *
d6_state_word(const struct wr_hosts *hs, uint32_t h)
{
	const struct d6_host *s =
		wr_hosts_cstate(hs, h, WR_HOST_PROTO_dhcp6);

	/* The control plane keeps 15 characters of a word: the prefix
	 * itself is wr_dhcp6_lease()'s. */
	if (s->has_pd && (s->state == D6_BOUND || s->state == D6_RENEW ||
			  s->state == D6_REBIND))
		return s->state == D6_BOUND ? "bound pd" :
		       s->state == D6_RENEW ? "renewing pd" : "rebinding pd";
	return s->state < D6__COUNT ? d6_state_names[s->state] : "?";
}

int
wr_dhcp6_lease(const struct wr_hosts *hs, uint32_t h, struct wr_dhcp6_lease *l)
{
	const struct d6_host *s;

	memset(l, 0, sizeof(*l));
	if (h >= wr_hosts_n(hs) || cfg_of(hs, h) == NULL)
		return -ENOENT;
	s = wr_hosts_cstate(hs, h, WR_HOST_PROTO_dhcp6);
	if (s->state != D6_BOUND && s->state != D6_RENEW &&
	    s->state != D6_REBIND)
		return -ENOENT;
	l->has_addr = s->has_na;
	l->addr = s->na;
	l->addr_preferred_s = s->na_pref;
	l->addr_valid_s = s->na_valid;
	l->has_prefix = s->has_pd;
	l->prefix = s->pd;
	l->prefix_len = s->pd_len;
	l->prefix_preferred_s = s->pd_pref;
	l->prefix_valid_s = s->pd_valid;
	l->t1_s = s->t1;
	l->t2_s = s->t2;
	l->since_ns = s->lease_ns;
	return 0;
}

static void
d6_counters(const struct wr_hosts *hs,
	    void (*put)(void *ctx, const char *name, uint64_t v), void *ctx)
{
	const struct d6_ctx *x = wr_hosts_cdata(hs, WR_HOST_PROTO_dhcp6);

	wr_hosts_put_states(hs, WR_HOST_PROTO_dhcp6, offsetof(struct d6_host, state),
			    d6_state_names, D6__COUNT, put, ctx);
	wr_hosts_put_list("", d6_event_names, x->ev, 0, D6_EV__COUNT, put, ctx);
	wr_hosts_put_list("rx_", d6_bad_names, x->bad, 1, WR_DHCP6_BAD__COUNT, put, ctx);
}

/* ---- Config ---- */

static int
parse_pd(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_dhcp6_cfg *c)
{
	static const char *const keys[] = { "prefix_len", NULL };
	const struct wr_ynode *v;
	uint64_t len;
	int rc;

	if (n->type == WR_YNODE_SCALAR)
		return wr_ywalk_bool(w, n, &c->ia_pd);
	rc = wr_ywalk_keys(w, n, "true, false or a mapping {prefix_len}",
			   keys);
	if (rc != 0)
		return rc;
	c->ia_pd = true;
	v = wr_ynode_get(n, "prefix_len");
	if (v != NULL) {
		/* A delegated prefix is shorter than an address. */
		rc = WR_YWALK_KEY(w, "prefix_len",
				  wr_ywalk_u64(w, v, 1, 127, &len));
		if (rc != 0)
			return rc;
		c->pd_len = (uint8_t)len;
	}
	return 0;
}

static int
parse_map(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_dhcp6_cfg *c)
{
	static const char *const keys[] = {
		"ia_na", "ia_pd", "rapid_commit", "retries", "duid", NULL
	};
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	rc = wr_ywalk_keys(w, n,
			   "a mapping {ia_na, ia_pd, rapid_commit, retries, duid}",
			   keys);
	if (rc != 0)
		return rc;
	if ((v = wr_ynode_get(n, "ia_na")) != NULL &&
	    (rc = WR_YWALK_KEY(w, "ia_na", wr_ywalk_bool(w, v, &c->ia_na))))
		return rc;
	if ((v = wr_ynode_get(n, "ia_pd")) != NULL &&
	    (rc = WR_YWALK_KEY(w, "ia_pd", parse_pd(w, v, c))))
		return rc;
	if ((v = wr_ynode_get(n, "rapid_commit")) != NULL &&
	    (rc = WR_YWALK_KEY(w, "rapid_commit",
			       wr_ywalk_bool(w, v, &c->rapid_commit))))
		return rc;
	if ((v = wr_ynode_get(n, "retries")) != NULL) {
		rc = WR_YWALK_KEY(w, "retries",
				  wr_ywalk_u64(w, v, 1, 1000, &u));
		if (rc != 0)
			return rc;
		c->retries = (uint16_t)u;
	}
	if ((v = wr_ynode_get(n, "duid")) != NULL) {
		const char *t = wr_ynode_text(v);

		if (v->type != WR_YNODE_SCALAR ||
		    (strcmp(t, "ll") != 0 && strcmp(t, "llt") != 0))
			return WR_YWALK_KEY(w, "duid",
					    wr_ywalk_expected(w, v, "ll or llt"));
		c->duid_type = strcmp(t, "llt") == 0 ? 1 : 3;
	}
	if (!c->ia_na && !c->ia_pd)
		return wr_ywalk_fail(w, n,
				     "ia_na and ia_pd both off: nothing to lease");
	return 0;
}

static int
d6_parse(struct wr_ywalk *w, const struct wr_ynode *n,
	 const struct wr_host_group *g, void **cfg)
{
	struct wr_dhcp6_cfg *c = calloc(1, sizeof(*c));
	int rc = 0;

	(void)g;
	if (c == NULL)
		return -ENOMEM;
	c->ia_na = true;
	c->duid_type = 3;
	/* Four SOLICITs span 1 + 2 + 4 + 8 s (section 15's doubling):
	 * a server that has not answered in 15 s is not there. */
	c->retries = 4;
	if (n != NULL) {
		c->where.line = n->line;
		c->where.col = n->col;
		if (n->type == WR_YNODE_MAP)
			rc = parse_map(w, n, c);
		else if (n->type != WR_YNODE_SCALAR ||
			 strcmp(wr_ynode_text(n), "dhcp") != 0)
			rc = wr_ywalk_expected(w, n,
					       "dhcp or a mapping {ia_na, ia_pd, rapid_commit, retries, duid}");
	}
	if (rc != 0) {
		free(c);
		return rc;
	}
	*cfg = c;
	return 0;
}

const struct wr_host_proto wr_host_proto_dhcp6 = {
	.name = "dhcp6",
	.parse = d6_parse,
	.state_size = sizeof(struct d6_host),
	.data_size = sizeof(struct d6_ctx),
	.wants = d6_wants,
	.input = d6_input,
	.start = d6_start,
	.timer = d6_timer,
	.stop = d6_stop,
	.state = d6_state_word,
	.counters = d6_counters,
};

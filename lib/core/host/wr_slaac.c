/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_slaac: router solicitations sent, router advertisements validated and taken, addresses from their prefixes. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_slaac.h"
#include "wr_wire.h"
#include "wr_ytree.h"

/* RFC 4861 section 10: host constants. */
#define MAX_RTR_SOLICITATION_DELAY_MS 1000
#define RTR_SOLICITATION_INTERVAL_MS 4000
#define MAX_RTR_SOLICITATIONS 3
#define ND_HOP_LIMIT 255        /* RFC 4861 6.1.2: RAs never cross a router */
#define RA_HLEN 16              /* type .. retrans timer */
#define OPT_SLL 1
#define OPT_PIO 3
#define PIO_A 0x40
/* RFC 4862 5.5.3 (e): a valid lifetime is not cut below two hours by an
 * unauthenticated RA. */
#define TWO_HOURS_S 7200u
#define WAIT_LL_MS 100          /* link-local still tentative: look again */
/* Prefixes one host keeps (WR_HOST_IP6_MAX slots less the link-local). */
#define PFX_MAX 2

#define INFINITE 0xffffffffu
#define MS 1000000ull
#define SEC 1000000000ull

#define SL_STATES(X)                     \
	X(INIT, "init")                  \
	X(SOLICIT, "soliciting")         \
	X(WAITING, "no_router")          /* solicitations over, no RA */ \
	X(CONFIGURED, "configured")      \
	X(STOPPED, "stopped")

enum sl_state {
#define X(e, s) SL_##e,
	SL_STATES(X)
#undef X
	SL__COUNT
};

static const char *const sl_state_names[] = {
#define X(e, s) s,
	SL_STATES(X)
#undef X
};

#define SL_EVENTS(X)                                                     \
	X(RS_TX, "rs_tx")                                                \
	X(RA_RX, "ra_rx")               /* valid RAs */                  \
	X(RA_TAKEN, "ra_taken")         /* by a host (one RA, many) */   \
	X(ADDR_ADDED, "addr_added")                                      \
	X(ADDR_UPDATED, "addr_updated")                                  \
	X(TWO_HOUR_RULE, "two_hour_rule") /* valid lifetime held at 2 h */ \
	X(ADDR_EXPIRED, "addr_expired")                                  \
	X(PIO_IGNORED, "pio_ignored")   /* no A flag, not /64, ... */    \
	X(ROUTER_SET, "router_set")                                      \
	X(ROUTER_EXPIRED, "router_expired")                              \
	X(WAIT_LL, "wait_link_local")                                    \
	X(FAIL_NO_RA, "fail_no_ra")                                      \
	X(FAIL_NO_ROOM, "fail_no_room")

enum sl_event {
#define X(e, s) SL_EV_##e,
	SL_EVENTS(X)
#undef X
	SL_EV__COUNT
};

static const char *const sl_event_names[] = {
#define X(e, s) s,
	SL_EVENTS(X)
#undef X
};

static const char *const sl_bad_names[] = {
	"",
#define X(e, s) s,
	WR_SLAAC_BAD_LIST(X)
#undef X
};

struct sl_ctx {
	uint64_t ev[SL_EV__COUNT];
	uint64_t bad[WR_SLAAC_BAD__COUNT];
};

struct sl_pfx {
	__uint128_t addr;       /* 0: slot free */
	uint64_t valid_until_ns;
	uint64_t pref_until_ns;
	uint8_t deprecated;
};

struct sl_host {
	uint8_t state;          /* enum sl_state */
	uint8_t rs_sent;
	uint8_t flags;          /* the last RA's M and O */
	uint8_t reported;
	uint64_t next_rs_ns;    /* 0: none to send */
	uint64_t router_until_ns;
	__uint128_t router;
	struct sl_pfx pfx[PFX_MAX];
};

/* ---- Frames ---- */

__uint128_t
wr_slaac_addr(__uint128_t prefix, const uint8_t mac[6])
{
	/* RFC 4291 appendix A: the MAC split by ff:fe, the U/L bit
	 * inverted. */
	uint64_t iid = (uint64_t)(mac[0] ^ 0x02) << 56 |
		       (uint64_t)mac[1] << 48 | (uint64_t)mac[2] << 40 |
		       0xfffeull << 24 | (uint64_t)mac[3] << 16 |
		       (uint64_t)mac[4] << 8 | mac[5];

	return (prefix >> 64 << 64) | iid;
}

static uint64_t
icmp6_sum(const uint8_t *ip6, const uint8_t *icmp, uint32_t len)
{
	return (uint64_t)wr_csum_sum(ip6 + 8, 32) + len + WR_IPPROTO_ICMPV6 +
	       wr_csum_sum(icmp, len);
}

enum wr_slaac_bad
wr_slaac_parse(const uint8_t *ip6, const uint8_t *icmp, uint32_t icmp_len,
	       struct wr_slaac_ra *ra)
{
	__uint128_t src = wr_get128(ip6 + 8);
	uint32_t off = RA_HLEN;

	memset(ra, 0, sizeof(*ra));
	if (icmp_len < RA_HLEN)
		return WR_SLAAC_BAD_SHORT;
	if (ip6[7] != ND_HOP_LIMIT)
		return WR_SLAAC_BAD_HOP_LIMIT;
	if (wr_csum_fold(icmp6_sum(ip6, icmp, icmp_len)) != 0xffff)
		return WR_SLAAC_BAD_CSUM;
	if (icmp[1] != 0)
		return WR_SLAAC_BAD_CODE;
	/* fe80::/10 */
	if ((uint16_t)(src >> 112) >> 6 != 0xfe80 >> 6)
		return WR_SLAAC_BAD_SOURCE;
	ra->cur_hop_limit = icmp[4];
	ra->flags = icmp[5] & 0xc0;
	ra->router_lifetime_s = (uint16_t)wr_get16(icmp + 6);
	while (off < icmp_len) {
		const uint8_t *o = icmp + off;
		uint32_t olen;

		if (icmp_len - off < 2 || o[1] == 0)
			return WR_SLAAC_BAD_OPTION;
		olen = o[1] * 8u;
		if (olen > icmp_len - off)
			return WR_SLAAC_BAD_OPTION;
		if (o[0] == OPT_SLL && olen == 8) {
			ra->has_sll = true;
			memcpy(ra->sll, o + 2, 6);
		} else if (o[0] == OPT_PIO) {
			struct wr_slaac_pio *p = &ra->pio[ra->n_pio];

			if (olen != 32 || o[2] > 128)
				return WR_SLAAC_BAD_PIO;
			/* More prefixes than a host can hold are not
			 * read (RFC 4861 leaves the count open). */
			if (ra->n_pio < WR_SLAAC_PIO_MAX) {
				p->len = o[2];
				p->flags = o[3];
				p->valid_s = (uint32_t)wr_get32(o + 4);
				p->preferred_s = (uint32_t)wr_get32(o + 8);
				p->prefix = wr_get128(o + 16);
				ra->n_pio++;
			}
		}
		off += olen;
	}
	return WR_SLAAC_OK;
}

/* ---- The module ---- */

static struct sl_ctx *
ctx_of(struct wr_hosts *hs)
{
	return wr_hosts_data(hs, WR_HOST_PROTO_slaac);
}

static void
count(struct wr_hosts *hs, enum sl_event e)
{
	ctx_of(hs)->ev[e]++;
}

static struct sl_host *
st_of(struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_state(hs, h, WR_HOST_PROTO_slaac);
}

static const struct wr_slaac_cfg *
cfg_of(const struct wr_hosts *hs, uint32_t h)
{
	return wr_hosts_cfg(hs, h, WR_HOST_PROTO_slaac);
}

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
report(struct wr_hosts *hs, uint32_t h, struct sl_host *s, bool ok)
{
	if (s->reported)
		return;
	s->reported = 1;
	wr_hosts_done(hs, h, WR_HOST_PROTO_slaac, ok);
}

/* A Router Solicitation from the link-local address to all-routers
 * (ff02::2), with the source link-layer option (RFC 4861 4.1). */
static void
send_rs(struct wr_hosts *hs, uint32_t h, __uint128_t src)
{
	static const uint8_t mc_mac[6] = { 0x33, 0x33, 0, 0, 0, 2 };
	const __uint128_t dst = ((__uint128_t)0xff02000000000000ull << 64) | 2;
	const struct wr_host *hst = wr_hosts_cget(hs, h);
	uint8_t f[WR_HOST_FRAME_MAX], *ip, *m;
	const uint16_t plen = 8 + 8;
	uint32_t l2;

	l2 = wr_hosts_l2(hs, h, f, mc_mac, WR_ETHERTYPE_IPV6);
	ip = f + l2;
	memset(ip, 0, WR_IPV6_HLEN + plen);
	ip[0] = 0x60;
	wr_put16(ip + 4, plen);
	ip[6] = WR_IPPROTO_ICMPV6;
	ip[7] = ND_HOP_LIMIT;
	wr_put128(ip + 8, src);
	wr_put128(ip + 24, dst);
	m = ip + WR_IPV6_HLEN;
	m[0] = WR_ICMP6_RS;
	m[8] = OPT_SLL;
	m[9] = 1;
	memcpy(m + 10, hst->mac, 6);
	wr_put16(m + 2, (uint16_t)~wr_csum_fold(icmp6_sum(ip, m, plen)));
	count(hs, SL_EV_RS_TX);
	wr_hosts_send(hs, f, l2 + WR_IPV6_HLEN + plen);
}

/* The timer: the next RS, the router's or an address's lifetime. */
static void
arm(struct wr_hosts *hs, uint32_t h, struct sl_host *s)
{
	uint64_t when = UINT64_MAX;
	int i;

	if (s->state == SL_STOPPED) {
		wr_hosts_timer(hs, h, WR_HOST_PROTO_slaac, 0);
		return;
	}
	if (s->next_rs_ns != 0)
		when = s->next_rs_ns;
	if (s->router != 0 && s->router_until_ns < when)
		when = s->router_until_ns;
	for (i = 0; i < PFX_MAX; i++) {
		if (s->pfx[i].addr == 0)
			continue;
		if (s->pfx[i].valid_until_ns < when)
			when = s->pfx[i].valid_until_ns;
		if (!s->pfx[i].deprecated && s->pfx[i].pref_until_ns < when)
			when = s->pfx[i].pref_until_ns;
	}
	wr_hosts_timer(hs, h, WR_HOST_PROTO_slaac,
		       when == UINT64_MAX ? 0 : when);
}

/* RFC 4862 5.5.4: an address whose preferred lifetime ran out is
 * DEPRECATED (still answered for, not chosen as a source), and PREFERRED
 * again when an RA gives it a preferred lifetime.  The engine keeps
 * lifetimes as given and never moves this state itself; TENTATIVE and
 * DUPLICATE are DAD's and left alone. */
static void
preferred(struct wr_hosts *hs, uint32_t h, __uint128_t addr, bool yes)
{
	struct wr_host *hst = wr_hosts_get(hs, h);
	uint8_t i;

	for (i = 0; i < hst->n_ip6; i++) {
		struct wr_host_ip6 *a = &hst->ip6[i];

		if (a->addr != addr)
			continue;
		if (a->state == WR_IP6_PREFERRED && !yes)
			a->state = WR_IP6_DEPRECATED;
		else if (a->state == WR_IP6_DEPRECATED && yes)
			a->state = WR_IP6_PREFERRED;
	}
}

static uint64_t
until(uint64_t now, uint32_t secs)
{
	return secs == INFINITE ? UINT64_MAX : now + secs * SEC;
}

/* Seconds left to @p t from @p now (rounded up), INFINITE for never. */
static uint32_t
left(uint64_t t, uint64_t now)
{
	if (t == UINT64_MAX)
		return INFINITE;
	if (t <= now)
		return 0;
	return (uint32_t)((t - now + SEC - 1) / SEC);
}

static void
sl_start(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct sl_host *s = st_of(hs, h);
	const struct wr_slaac_cfg *c = cfg_of(hs, h);

	memset(s, 0, sizeof(*s));
	s->state = SL_SOLICIT;
	if (c->solicitations == 0) {
		s->state = SL_WAITING;
		arm(hs, h, s);
		return;
	}
	/* RFC 4861 6.3.7: a random delay in [0, MAX_RTR_SOLICITATION_DELAY]
	 * before the first RS. */
	s->next_rs_ns = now + 1 + (uint64_t)(wr_hosts_rand(hs) %
			(MAX_RTR_SOLICITATION_DELAY_MS + 1)) * MS;
	arm(hs, h, s);
}

static void
sl_timer(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct sl_host *s = st_of(hs, h);
	const struct wr_slaac_cfg *c = cfg_of(hs, h);
	struct wr_host *hst = wr_hosts_get(hs, h);
	__uint128_t ll;
	int i;

	if (s->next_rs_ns != 0 && now >= s->next_rs_ns) {
		if (s->rs_sent >= c->solicitations) {
			/* The last RS's interval is over: no router. */
			s->next_rs_ns = 0;
			if (s->state == SL_SOLICIT) {
				s->state = SL_WAITING;
				count(hs, SL_EV_FAIL_NO_RA);
				report(hs, h, s, false);
			}
		} else if (!link_local(hst, &ll)) {
			count(hs, SL_EV_WAIT_LL);
			s->next_rs_ns = now + WAIT_LL_MS * MS;
		} else {
			send_rs(hs, h, ll);
			s->rs_sent++;
			s->next_rs_ns = now + RTR_SOLICITATION_INTERVAL_MS * MS;
		}
	}
	if (s->router != 0 && now >= s->router_until_ns) {
		count(hs, SL_EV_ROUTER_EXPIRED);
		s->router = 0;
		wr_hosts_set_gw6(hs, h, 0, now);
	}
	for (i = 0; i < PFX_MAX; i++) {
		struct sl_pfx *p = &s->pfx[i];

		if (p->addr == 0)
			continue;
		if (now >= p->valid_until_ns) {
			count(hs, SL_EV_ADDR_EXPIRED);
			wr_hosts_del_ip6(hs, h, p->addr);
			memset(p, 0, sizeof(*p));
		} else if (!p->deprecated && now >= p->pref_until_ns) {
			/* RFC 4862 5.5.4: preferred lifetime over, the
			 * address is deprecated (kept, not preferred). */
			p->deprecated = 1;
			wr_hosts_add_ip6(hs, h, p->addr, 64, WR_IP6_SLAAC,
					 left(p->valid_until_ns, now), 0, now);
			preferred(hs, h, p->addr, false);
		}
	}
	arm(hs, h, s);
}

static void
sl_stop(struct wr_hosts *hs, uint32_t h, uint64_t now)
{
	struct sl_host *s = st_of(hs, h);

	(void)now;
	s->state = SL_STOPPED;
	s->next_rs_ns = 0;
	arm(hs, h, s);
}

static bool
sl_wants(const struct wr_host_rx *rx)
{
	return rx->ip_version == 6 && rx->l4_proto == WR_IPPROTO_ICMPV6 &&
	       rx->icmp_type == WR_ICMP6_RA;
}

/* RFC 4862 5.5.3 for one prefix option. */
static void
take_pio(struct wr_hosts *hs, uint32_t h, struct sl_host *s,
	 const struct wr_slaac_pio *p, uint64_t now)
{
	const struct wr_host *hst = wr_hosts_cget(hs, h);
	__uint128_t addr = wr_slaac_addr(p->prefix, hst->mac);
	struct sl_pfx *slot = NULL, *free_slot = NULL;
	uint32_t valid = p->valid_s, rem;
	int i;

	for (i = 0; i < PFX_MAX; i++) {
		if (s->pfx[i].addr == addr)
			slot = &s->pfx[i];
		else if (s->pfx[i].addr == 0 && free_slot == NULL)
			free_slot = &s->pfx[i];
	}
	if (slot == NULL) {
		/* (d): a new prefix with a zero valid lifetime is not
		 * taken. */
		if (valid == 0)
			return;
		if (free_slot == NULL ||
		    wr_hosts_add_ip6(hs, h, addr, 64, WR_IP6_SLAAC, valid,
				     p->preferred_s, now) < 0) {
			count(hs, SL_EV_FAIL_NO_ROOM);
			return;
		}
		free_slot->addr = addr;
		free_slot->valid_until_ns = until(now, valid);
		free_slot->pref_until_ns = until(now, p->preferred_s);
		free_slot->deprecated = p->preferred_s == 0;
		count(hs, SL_EV_ADDR_ADDED);
		s->state = SL_CONFIGURED;
		s->next_rs_ns = 0;
		report(hs, h, s, true);
		return;
	}
	/* (e): the preferred lifetime as advertised; the valid lifetime
	 * as advertised when above two hours or above what is left, else
	 * not below two hours. */
	rem = left(slot->valid_until_ns, now);
	if (!(valid > TWO_HOURS_S || valid > rem)) {
		count(hs, SL_EV_TWO_HOUR_RULE);
		valid = rem <= TWO_HOURS_S ? rem : TWO_HOURS_S;
	}
	slot->valid_until_ns = valid == rem ? slot->valid_until_ns :
			       until(now, valid);
	slot->pref_until_ns = until(now, p->preferred_s);
	slot->deprecated = p->preferred_s == 0;
	wr_hosts_add_ip6(hs, h, addr, 64, WR_IP6_SLAAC,
			 left(slot->valid_until_ns, now), p->preferred_s, now);
	preferred(hs, h, addr, p->preferred_s != 0);
	count(hs, SL_EV_ADDR_UPDATED);
}

static void
take_ra(struct wr_hosts *hs, uint32_t h, const struct wr_slaac_ra *ra,
	__uint128_t src, uint64_t now)
{
	struct sl_host *s = st_of(hs, h);
	uint8_t i;

	if (s->state == SL_INIT || s->state == SL_STOPPED)
		return;
	count(hs, SL_EV_RA_TAKEN);
	s->flags = ra->flags;
	/* RFC 4861 6.3.4: the router lifetime makes (or, 0, unmakes) the
	 * source the default router. */
	if (ra->router_lifetime_s != 0) {
		if (s->router != src) {
			count(hs, SL_EV_ROUTER_SET);
			wr_hosts_set_gw6(hs, h, src, now);
		}
		s->router = src;
		s->router_until_ns = now + ra->router_lifetime_s * SEC;
	} else if (s->router == src) {
		s->router = 0;
		wr_hosts_set_gw6(hs, h, 0, now);
	}
	for (i = 0; i < ra->n_pio; i++) {
		const struct wr_slaac_pio *p = &ra->pio[i];

		/* 5.5.3 (a) the A flag, (b) not link-local, (c) preferred
		 * within valid; an interface identifier of 64 bits makes a
		 * /64 the only length that forms an address. */
		if (!(p->flags & PIO_A) ||
		    (uint16_t)(p->prefix >> 112) >> 6 == 0xfe80 >> 6 ||
		    p->preferred_s > p->valid_s || p->len != 64) {
			count(hs, SL_EV_PIO_IGNORED);
			continue;
		}
		take_pio(hs, h, s, p, now);
	}
	arm(hs, h, s);
}

static void
sl_input(struct wr_hosts *hs, const struct wr_host_rx *rx, uint64_t now)
{
	struct sl_ctx *x = ctx_of(hs);
	const uint8_t *ip = rx->frame + rx->l3_off;
	struct wr_slaac_ra ra;
	enum wr_slaac_bad bad;
	__uint128_t src;
	uint32_t h, n;
	int64_t one;

	bad = wr_slaac_parse(ip, rx->frame + rx->l4_off, rx->l4_len, &ra);
	if (bad != WR_SLAAC_OK) {
		x->bad[bad]++;
		return;
	}
	count(hs, SL_EV_RA_RX);
	src = rx->src_ip;
	if (!(rx->dst_mac[0] & 1)) {
		one = wr_hosts_by_mac(hs, rx->dst_mac);
		if (one >= 0 && cfg_of(hs, (uint32_t)one) != NULL &&
		    wr_hosts_same_link(hs, (uint32_t)one, rx))
			take_ra(hs, (uint32_t)one, &ra, src, now);
		return;
	}
	/* A multicast RA is every SLAAC host's on its link.  RAs come
	 * every few minutes: a walk of the table is cheap beside them. */
	n = wr_hosts_n(hs);
	for (h = 0; h < n; h++)
		if (cfg_of(hs, h) != NULL && wr_hosts_same_link(hs, h, rx))
			take_ra(hs, h, &ra, src, now);
}

static const char *
sl_state_word(const struct wr_hosts *hs, uint32_t h)
{
	const struct sl_host *s =
		wr_hosts_cstate(hs, h, WR_HOST_PROTO_slaac);

	if (s->state == SL_CONFIGURED && (s->flags & 0xc0) == 0xc0)
		return "configured M O";
	if (s->state == SL_CONFIGURED && (s->flags & 0x80))
		return "configured M";
	if (s->state == SL_CONFIGURED && (s->flags & 0x40))
		return "configured O";
	return s->state < SL__COUNT ? sl_state_names[s->state] : "?";
}

static void
sl_counters(const struct wr_hosts *hs,
	    void (*put)(void *ctx, const char *name, uint64_t v), void *ctx)
{
	const struct sl_ctx *x = wr_hosts_cdata(hs, WR_HOST_PROTO_slaac);

	wr_hosts_put_states(hs, WR_HOST_PROTO_slaac, offsetof(struct sl_host, state),
			    sl_state_names, SL__COUNT, put, ctx);
	wr_hosts_put_list("", sl_event_names, x->ev, 0, SL_EV__COUNT, put, ctx);
	wr_hosts_put_list("rx_", sl_bad_names, x->bad, 1, WR_SLAAC_BAD__COUNT, put, ctx);
}

static int
sl_parse(struct wr_ywalk *w, const struct wr_ynode *n,
	 const struct wr_host_group *g, void **cfg)
{
	static const char *const keys[] = { "solicitations", NULL };
	struct wr_slaac_cfg *c = calloc(1, sizeof(*c));
	const struct wr_ynode *v;
	uint64_t u;
	int rc = 0;

	(void)g;
	if (c == NULL)
		return -ENOMEM;
	c->solicitations = MAX_RTR_SOLICITATIONS;
	if (n != NULL) {
		c->where.line = n->line;
		c->where.col = n->col;
		if (n->type == WR_YNODE_MAP) {
			rc = wr_ywalk_keys(w, n, "a mapping {solicitations}",
					   keys);
			v = wr_ynode_get(n, "solicitations");
			if (rc == 0 && v != NULL) {
				rc = WR_YWALK_KEY(w, "solicitations",
						  wr_ywalk_u64(w, v, 0, 10, &u));
				c->solicitations = (uint8_t)u;
			}
		} else if (n->type != WR_YNODE_SCALAR ||
			   strcmp(wr_ynode_text(n), "slaac") != 0) {
			rc = wr_ywalk_expected(w, n,
					       "slaac or a mapping {solicitations}");
		}
	}
	if (rc != 0) {
		free(c);
		return rc;
	}
	*cfg = c;
	return 0;
}

const struct wr_host_proto wr_host_proto_slaac = {
	.name = "slaac",
	.parse = sl_parse,
	.state_size = sizeof(struct sl_host),
	.data_size = sizeof(struct sl_ctx),
	.wants = sl_wants,
	.input = sl_input,
	.start = sl_start,
	.timer = sl_timer,
	.stop = sl_stop,
	.state = sl_state_word,
	.counters = sl_counters,
};

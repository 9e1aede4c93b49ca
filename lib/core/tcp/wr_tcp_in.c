/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_in: a received segment through RFC 9293 3.10.7's steps (RFC 5961's checks, RFC 7323's PAWS), into the connection and its program. */
#include <string.h>

#include "wr_tcp_priv.h"

/* The options both sides agreed, from the peer's SYN or SYN-ACK. */
static void
syn_opts(struct wr_tcp *t, struct wr_tcp_conn *c,
		const struct wr_tcp_seg *s)
{
	const struct wr_tcp_cls *cl = &t->cls[c->cls];
	const struct wr_tcp_opts *o = &cl->rt.spec->tcp;
	uint32_t mss = s->mss ? s->mss : (s->v6 ? 1220 : 536); /* RFC 9293 3.7.1 */
	bool sack;

	c->flags &= (uint16_t)~(WR_TC_TS | WR_TC_SACK | WR_TC_WS);
	if (s->has_ts && o->timestamps) {
		c->flags |= WR_TC_TS;
		c->ts_recent = s->tsval;
	}
	sack = s->sack_ok && o->sack;
	if (sack)
		c->flags |= WR_TC_SACK;
	if (s->ws != 0xff) {
		c->flags |= WR_TC_WS;
		c->snd_ws = s->ws;
		c->rcv_ws = o->wscale > 14 ? 14 : o->wscale;
	} else {
		c->snd_ws = c->rcv_ws = 0;
	}
	if (mss > cl->mss)
		mss = cl->mss;
	if (c->flags & WR_TC_TS)
		mss -= 12;      /* RFC 9293 3.7.1: options come out of the MSS */
	if (mss < 64)
		mss = 64;
	c->peer_mss = (uint16_t)mss;
	wr_tcp_cc_init(&c->cc, (uint16_t)mss, o->init_cwnd, sack, &cl->lim);
}

static void
accept_syn(struct wr_tcp *t, uint32_t local, int32_t k,
	   const struct wr_tcp_seg *s, uint32_t flen)
{
	uint32_t i = wr_tcp_conn_alloc(t);
	struct wr_tcp_conn *c;
	struct wr_tcp_counters *ct;

	if (i == WR_TCP_NIL) {
		WR_TCP_ADD(t->pc.syn_dropped, 1);
		wr_tcp_send_rst_to(t, local, s);
		return;
	}
	c = &t->conns[i];
	c->local = (uint16_t)local;
	wr_tcp_rip_set(c, s->src);
	c->lport = s->dport;
	c->rport = s->sport;
	c->cls = (uint8_t)k;
	c->flags = WR_TC_SERVER | (s->v6 ? WR_TC_V6 : 0);
	c->irs = s->seq;
	c->rcv_nxt = s->seq + 1;
	c->iss = wr_tcp_isn(t, c);
	c->snd_una = c->iss;
	c->snd_nxt = c->snd_max = c->iss + 1;
	c->snd_wnd = s->win;
	c->snd_wl1 = s->seq;
	c->state = WR_TCP_ST_SYN_RCVD;
	c->t0_us = wr_tcp_us(t->now);
	c->last_rx = t->tick;
	syn_opts(t, c, s);
	wr_tcp_conn_link(t, i);
	t->n_open++;
	ct = wr_tcp_ctr(t, c);
	WR_TCP_ADD(ct->attempted, 1);
	WR_TCP_ADD(ct->active, 1);
	WR_TCP_ADD(ct->rx_segs, 1);
	WR_TCP_ADD(ct->rx_frame_bytes, (flen < 60 ? 60 : flen) + 4);
	wr_tcp_send_ctl(t, c, WR_TH_SYN | WR_TH_ACK, c->iss);
	wr_tcp_rto_arm(t, c);
}

/* No connection has the segment's tuple (RFC 9293 3.10.7.1 and LISTEN). */
static void
no_conn(struct wr_tcp *t, uint32_t local, const struct wr_tcp_seg *s,
	uint32_t flen)
{
	if ((s->flags & (WR_TH_SYN | WR_TH_ACK | WR_TH_RST)) == WR_TH_SYN) {
		int32_t k = wr_tcp_listener(t, local, s->dport);

		if (k >= 0) {
			accept_syn(t, local, k, s, flen);
			return;
		}
	}
	WR_TCP_ADD(t->pc.rx_no_conn, 1);
	if (!(s->flags & WR_TH_RST))
		wr_tcp_send_rst_to(t, local, s);
}

static void
ack_now(struct wr_tcp *t, uint32_t i)
{
	t->conns[i].flags |= WR_TC_ACK_NOW;
	wr_tcp_txq_push(t, i);
}

/* SYN-SENT (RFC 9293 3.10.7.3). */
static void
syn_sent(struct wr_tcp *t, uint32_t i, const struct wr_tcp_seg *s)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);

	if ((s->flags & WR_TH_ACK) && s->ack != c->snd_max) {
		if (!(s->flags & WR_TH_RST))
			wr_tcp_send_rst_to(t, c->local, s);
		return;
	}
	if (s->flags & WR_TH_RST) {
		if (s->flags & WR_TH_ACK)
			wr_tcp_end(t, i, &ct->failed_refused, false);
		return;
	}
	if (!(s->flags & WR_TH_SYN) || !(s->flags & WR_TH_ACK))
		return;         /* simultaneous open: not ours to do */
	c->irs = s->seq;
	c->rcv_nxt = s->seq + 1;
	c->snd_una = s->ack;
	c->snd_wnd = s->win;    /* never scaled in a SYN (RFC 7323 2.2) */
	c->snd_wl1 = s->seq;
	c->snd_wl2 = s->ack;
	syn_opts(t, c, s);
	if (c->retries == 0)    /* Karn: a SYN sent once times the path */
		wr_tcp_cc_rtt(&c->cc, (uint32_t)(wr_tcp_since(t, c) >> 10),
			      &t->cls[c->cls].lim);
	else
		wr_tcp_cc_syn_lost(&c->cc);
	c->retries = 0;
	c->rto_at = 0;
	wr_latency_record(wr_tcp_hist_of(t, c, WR_TCP_HIST_HANDSHAKE),
			  wr_tcp_since(t, c));
	ack_now(t, i);
	wr_tcp_established(t, i);
}

/* RFC 9293 3.10.7.4 first: is any of the segment in the window? */
static bool
acceptable(const struct wr_tcp *t, const struct wr_tcp_conn *c,
	   const struct wr_tcp_seg *s)
{
	uint32_t w = t->cls[c->cls].rcv_win;
	uint32_t n = s->len + ((s->flags & WR_TH_SYN) ? 1 : 0) +
		     ((s->flags & WR_TH_FIN) ? 1 : 0);

	if (n == 0)
		return s->seq - c->rcv_nxt < w;
	return s->seq - c->rcv_nxt < w || s->seq + n - 1 - c->rcv_nxt < w;
}

static void
rx_deliver(struct wr_tcp *t, uint32_t i, const uint8_t *p, uint32_t n)
{
	struct wr_tcp_conn *c = &t->conns[i];
	const struct wr_tcp_cls *cl = &t->cls[c->cls];
	struct wr_tcp_app_out o;
	uint32_t off32 = c->rcv_nxt - c->irs - 1;
	uint64_t off = (uint64_t)c->rx_wraps << 32 | off32;

	if (!(c->flags & WR_TC_GOT_DATA)) {
		c->flags |= WR_TC_GOT_DATA;
		wr_latency_record(wr_tcp_hist_of(t, c, WR_TCP_HIST_TTFB),
				  wr_tcp_since(t, c));
	}
	WR_TCP_ADD(wr_tcp_ctr(t, c)->rx_bytes, n);
	c->rcv_nxt += n;
	if (c->rcv_nxt - c->irs - 1 < off32)
		c->rx_wraps++;
	memset(&o, 0, sizeof(o));
	wr_tcp_app_rx(cl->app[(c->flags & WR_TC_SERVER) ? 1 : 0], &c->app, p,
		      n, off, &o);
	wr_tcp_app_apply(t, i, &o);
}

/* Keep [l, r) as a received range (no bytes): sorted, merged, at most
 * WR_TCP_OOO_MAX; ooo_last: the range the segment fell in (RFC 2018 4:
 * SACKed first).  A segment that would make one range too many is
 * dropped (not SACKed: the peer sends it again), never a range kept:
 * every kept range has been SACKed, and a SACKed range dropped is
 * reneging (RFC 2018 8), which Linux recovers from only by a
 * retransmission timeout, its RTO doubled each time (a kernel sender
 * through 5 % loss stalled for seconds: test_tcp_netem). */
static void
ooo_add(struct wr_tcp_conn *c, uint32_t l, uint32_t r)
{
	struct wr_tcp_cc_range *o = c->ooo;
	unsigned int k, n = c->n_ooo;

	for (k = 0; k < n; k++) {
		if (wr_tcp_seq_lt(o[k].r, l))
			continue;
		if (wr_tcp_seq_lt(r, o[k].l))
			break;
		/* overlaps or touches o[k]: grow it, swallow the ones after */
		if (wr_tcp_seq_lt(l, o[k].l))
			o[k].l = l;
		if (wr_tcp_seq_lt(o[k].r, r))
			o[k].r = r;
		while (k + 1 < n && wr_tcp_seq_leq(o[k + 1].l, o[k].r)) {
			if (wr_tcp_seq_lt(o[k].r, o[k + 1].r))
				o[k].r = o[k + 1].r;
			memmove(&o[k + 1], &o[k + 2], (n - k - 2) * sizeof(*o));
			n--;
		}
		c->n_ooo = (uint8_t)n;
		c->ooo_last = (uint8_t)k;
		return;
	}
	if (n == WR_TCP_OOO_MAX)
		return;
	memmove(&o[k + 1], &o[k], (n - k) * sizeof(*o));
	o[k].l = l;
	o[k].r = r;
	c->n_ooo = (uint8_t)(n + 1);
	c->ooo_last = (uint8_t)k;
}

static void fin_in(struct wr_tcp *t, uint32_t i);

/* Payload (RFC 9293 3.10.7.4 seventh): in order to the program, out of
 * order as a range or dropped (the program reads bytes in order now). */
static void
data_in(struct wr_tcp *t, uint32_t i, const struct wr_tcp_seg *s)
{
	struct wr_tcp_conn *c = &t->conns[i];
	const struct wr_tcp_app *app =
		t->cls[c->cls].app[(c->flags & WR_TC_SERVER) ? 1 : 0];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);
	const uint8_t *p = s->payload;
	uint32_t n = s->len, seq = s->seq, d;
	uint64_t blind;
	bool filled = false;

	if (wr_tcp_seq_lt(seq, c->rcv_nxt)) {
		d = c->rcv_nxt - seq;
		if (d >= n) {
			WR_TCP_ADD(ct->dup_segs, 1);
			ack_now(t, i);
			return;
		}
		p += d;
		n -= d;
		seq = c->rcv_nxt;
	}
	if (seq != c->rcv_nxt) {
		WR_TCP_ADD(ct->ooo_segs, 1);
		/* kept as a range only where the program counts bytes
		 * without reading them (wr_tcp_app_blind) */
		blind = wr_tcp_app_blind(app, &c->app);
		if (blind > 0 && (blind == UINT64_MAX ||
				  (uint64_t)(seq + n - c->rcv_nxt) <= blind)) {
			ooo_add(c, seq, seq + n);
			/* a FIN ahead of a hole: taken when the hole fills
			 * (its range the highest, never dropped) */
			if ((s->flags & WR_TH_FIN) && c->n_ooo > 0 &&
			    c->ooo[c->n_ooo - 1].r == seq + n)
				c->flags |= WR_TC_OOO_FIN;
		}
		ack_now(t, i);
		return;
	}
	rx_deliver(t, i, p, n);
	while (c->state != WR_TCP_ST_FREE && c->n_ooo > 0 &&
	       wr_tcp_seq_leq(c->ooo[0].l, c->rcv_nxt)) {
		uint32_t r = c->ooo[0].r;

		memmove(&c->ooo[0], &c->ooo[1], (c->n_ooo - 1) * sizeof(c->ooo[0]));
		c->n_ooo--;
		if (c->ooo_last > 0)
			c->ooo_last--;
		filled = true;
		if (wr_tcp_seq_lt(c->rcv_nxt, r))
			rx_deliver(t, i, NULL, r - c->rcv_nxt);
	}
	if (c->state == WR_TCP_ST_FREE)
		return;
	if ((c->flags & WR_TC_OOO_FIN) && c->n_ooo == 0) {
		c->flags &= (uint16_t)~WR_TC_OOO_FIN;
		fin_in(t, i);
		return;
	}
	/* RFC 5681 4.2 / 9293 3.8.6.3: every second full segment, a filled
	 * hole at once, else within 40 ms. */
	if (filled || ++c->nacks >= 2) {
		ack_now(t, i);
	} else if (c->dack_at == 0) {
		c->dack_at = t->tick + wr_tcp_ticks(WR_TCP_DACK_NS);
		wr_tcp_timer_arm(t, i, c->dack_at);
	}
}

static void
fin_in(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_app_out o;

	c->rcv_nxt++;
	c->flags |= WR_TC_FIN_RCVD;
	ack_now(t, i);
	switch (c->state) {
	case WR_TCP_ST_SYN_RCVD:
	case WR_TCP_ST_ESTABLISHED:
		c->state = WR_TCP_ST_CLOSE_WAIT;
		break;
	case WR_TCP_ST_FIN_WAIT_1:
		c->state = WR_TCP_ST_CLOSING;
		break;
	case WR_TCP_ST_FIN_WAIT_2:
		wr_tcp_enter_tw(t, i);
		return;
	default:
		return;
	}
	memset(&o, 0, sizeof(o));
	wr_tcp_app_fin(t->cls[c->cls].app[(c->flags & WR_TC_SERVER) ? 1 : 0],
		       &c->app, &o);
	wr_tcp_app_apply(t, i, &o);
}

/* Our FIN was acknowledged. */
static void
fin_acked(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];

	switch (c->state) {
	case WR_TCP_ST_FIN_WAIT_1:
		c->state = WR_TCP_ST_FIN_WAIT_2;
		break;
	case WR_TCP_ST_CLOSING:
		wr_tcp_enter_tw(t, i);
		break;
	case WR_TCP_ST_LAST_ACK:
		wr_tcp_close_clean(t, i, false);
		break;
	default:
		break;
	}
}

static uint32_t
rtt_us(const struct wr_tcp *t, const struct wr_tcp_conn *c,
       const struct wr_tcp_seg *s, uint32_t ack)
{
	/* Timestamps (RFC 7323 4.1): a tick is 2^10 ns, taken as 1 µs. */
	if ((c->flags & WR_TC_TS) && s->has_ts && s->tsecr != 0)
		return wr_tcp_tsval(t->now) - s->tsecr;
	if ((c->flags & WR_TC_RTT) && wr_tcp_seq_lt(c->rtt_seq, ack))
		return (t->tick - c->rtt_tick) << (WR_TCP_TICK_SHIFT - 10);
	return UINT32_MAX;
}

/* The ACK field (RFC 9293 3.10.7.4 fifth).  @return false: drop the rest. */
static bool
ack_in(struct wr_tcp *t, uint32_t i, const struct wr_tcp_seg *s)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);
	uint32_t ack = s->ack, wnd = (uint32_t)s->win << c->snd_ws, r;
	bool dup, more;
	enum wr_tcp_cc_act act = WR_TCP_CC_NONE;

	if (wr_tcp_seq_lt(c->snd_max, ack)) {
		ack_now(t, i);
		return false;
	}
	if (wr_tcp_seq_lt(ack, c->snd_una)) {
		/* RFC 5961 5.2: older than a window (the peer's window
		 * standing for MAX.SND.WND, at least 64 KB): dropped with an
		 * ACK; else an old ACK, the rest of the segment counts */
		uint32_t w = c->snd_wnd > 65535 ? c->snd_wnd : 65535;

		if (c->snd_una - ack > w) {
			ack_now(t, i);
			return false;
		}
		return true;
	}
	dup = ack == c->snd_una && s->len == 0 && wnd == c->snd_wnd &&
	      !(s->flags & (WR_TH_SYN | WR_TH_FIN)) && c->snd_max != c->snd_una;
	if (dup)
		WR_TCP_ADD(ct->dup_acks, 1);
	if (ack != c->snd_una || dup || s->n_sack > 0)
		act = wr_tcp_cc_ack(&c->cc, ack, c->snd_una, c->snd_max,
				    (c->flags & WR_TC_SACK) ? s->sack : NULL,
				    (c->flags & WR_TC_SACK) ? s->n_sack : 0, dup);
	if (ack != c->snd_una) {
		r = rtt_us(t, c, s, ack);
		if (r != UINT32_MAX) {
			wr_tcp_cc_rtt(&c->cc, r, &t->cls[c->cls].lim);
			c->flags &= (uint16_t)~WR_TC_RTT;
		}
		/* the send stream's offset wrapped (not the SYN's ACK) */
		if (c->snd_una != c->iss &&
		    ack - c->iss - 1 < c->snd_una - c->iss - 1)
			c->tx_wraps++;
		c->snd_una = ack;
		if (wr_tcp_seq_lt(c->snd_nxt, ack))
			c->snd_nxt = ack;
		c->retries = 0;
		c->rto_at = 0;
		if (c->snd_una != c->snd_max)
			wr_tcp_rto_arm(t, c);
	}
	if (wr_tcp_seq_lt(c->snd_wl1, s->seq) ||
	    (c->snd_wl1 == s->seq && wr_tcp_seq_leq(c->snd_wl2, ack))) {
		c->snd_wnd = wnd;
		c->snd_wl1 = s->seq;
		c->snd_wl2 = ack;
		if (wnd > 0 && (c->flags & WR_TC_PERSIST)) {
			c->flags &= (uint16_t)~WR_TC_PERSIST;
			c->rto_at = 0;
		}
	}
	if (act == WR_TCP_CC_RETRANSMIT) {
		WR_TCP_ADD(ct->fast_rexmit, 1);
		wr_tcp_resend(t, i, c->snd_una);
	}
	if ((c->flags & WR_TC_FIN_SENT) && ack == c->snd_max) {
		fin_acked(t, i);
		if (c->state == WR_TCP_ST_FREE || c->state == WR_TCP_ST_TIME_WAIT)
			return false;
	}
	more = c->snd_nxt != c->snd_max || wr_tcp_unsent(c) ||
	       ((c->flags & WR_TC_FIN_PEND) && !(c->flags & WR_TC_FIN_SENT));
	if (more)
		wr_tcp_txq_push(t, i);
	return true;
}

/* A synchronized state (RFC 9293 3.10.7.4). */
static void
synced(struct wr_tcp *t, uint32_t i, const struct wr_tcp_seg *s)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);
	bool rst = s->flags & WR_TH_RST;

	if (c->state == WR_TCP_ST_SYN_RCVD && (s->flags & WR_TH_SYN) &&
	    !rst && s->seq == c->irs) {
		/* the SYN again: our SYN-ACK was lost */
		wr_tcp_send_ctl(t, c, WR_TH_SYN | WR_TH_ACK, c->iss);
		WR_TCP_ADD(ct->rexmit_segs, 1);
		return;
	}
	if ((c->flags & WR_TC_TS) && s->has_ts && !rst &&
	    wr_tcp_seq_lt(s->tsval, c->ts_recent)) {
		WR_TCP_ADD(ct->dup_segs, 1);  /* PAWS (RFC 7323 5.3) */
		ack_now(t, i);
		return;
	}
	if (!acceptable(t, c, s)) {
		if (!rst) {
			if (wr_tcp_seq_leq(s->seq + s->len, c->rcv_nxt))
				WR_TCP_ADD(ct->dup_segs, 1);
			ack_now(t, i);
		}
		return;
	}
	if (rst) {
		/* RFC 5961 3.2: exactly rcv_nxt resets, else a challenge ACK */
		if (s->seq == c->rcv_nxt)
			wr_tcp_end(t, i, c->state == WR_TCP_ST_SYN_RCVD ?
				   &ct->failed_refused : &ct->failed_reset, false);
		else
			ack_now(t, i);
		return;
	}
	if (s->flags & WR_TH_SYN) {
		ack_now(t, i);  /* RFC 5961 4.2 */
		return;
	}
	if (!(s->flags & WR_TH_ACK))
		return;
	if ((c->flags & WR_TC_TS) && s->has_ts &&
	    wr_tcp_seq_leq(s->seq, c->rcv_nxt))
		c->ts_recent = s->tsval;        /* RFC 7323 4.3 */
	if (c->state == WR_TCP_ST_SYN_RCVD) {
		if (!wr_tcp_seq_lt(c->snd_una, s->ack) ||
		    wr_tcp_seq_lt(c->snd_max, s->ack)) {
			wr_tcp_send_rst_to(t, c->local, s);
			return;
		}
		c->snd_wl1 = s->seq - 1;        /* take this segment's window */
		if (c->retries > 0)
			wr_tcp_cc_syn_lost(&c->cc);
		wr_latency_record(wr_tcp_hist_of(t, c, WR_TCP_HIST_HANDSHAKE),
				  wr_tcp_since(t, c));
		wr_tcp_established(t, i);
		if (c->state == WR_TCP_ST_FREE)
			return;
	}
	if (!ack_in(t, i, s) || c->state == WR_TCP_ST_FREE)
		return;
	if (s->len > 0 && (c->state == WR_TCP_ST_ESTABLISHED ||
			   c->state == WR_TCP_ST_FIN_WAIT_1 ||
			   c->state == WR_TCP_ST_FIN_WAIT_2)) {
		data_in(t, i, s);
		if (c->state == WR_TCP_ST_FREE)
			return;
	}
	if ((s->flags & WR_TH_FIN) && !(c->flags & WR_TC_FIN_RCVD) &&
	    s->seq + s->len == c->rcv_nxt)
		fin_in(t, i);
}

/* RFC 6191 / RFC 9293 3.10.7.4: a new SYN for a tuple in TIME_WAIT
 * opens a new connection when it cannot be taken for the old one's (its
 * sequence or timestamp is above what the old one ended with). */
static bool
tw_reuse(const struct wr_tcp_conn *c, const struct wr_tcp_seg *s)
{
	bool ts = (c->flags & WR_TC_TS) && s->has_ts;

	if ((s->flags & (WR_TH_SYN | WR_TH_ACK | WR_TH_RST)) != WR_TH_SYN)
		return false;
	/* as Linux's tcp_timewait_state_process(): not PAWS-old, and a
	 * sequence or a timestamp above the old connection's */
	if (ts && wr_tcp_seq_lt(s->tsval, c->ts_recent))
		return false;
	return wr_tcp_seq_lt(c->rcv_nxt, s->seq) ||
	       (ts && wr_tcp_seq_lt(c->ts_recent, s->tsval));
}

static void
conn_input(struct wr_tcp *t, uint32_t i, const struct wr_tcp_seg *s,
	   uint32_t flen)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);

	if (c->state == WR_TCP_ST_TIME_WAIT && tw_reuse(c, s)) {
		uint32_t local = c->local;

		wr_tcp_end(t, i, NULL, false);
		no_conn(t, local, s, flen);     /* counted there */
		return;
	}
	WR_TCP_ADD(ct->rx_segs, 1);
	WR_TCP_ADD(ct->rx_frame_bytes, (flen < 60 ? 60 : flen) + 4);
	c->last_rx = t->tick;
	switch (c->state) {
	case WR_TCP_ST_SYN_SENT:
		syn_sent(t, i, s);
		break;
	case WR_TCP_ST_TIME_WAIT:
		/* RFC 1337: an RST does not end TIME_WAIT; a FIN again is
		 * ACKed again and the wait starts over (RFC 9293 3.10.7.4). */
		if (s->flags & WR_TH_RST)
			break;
		if (s->flags & WR_TH_FIN) {
			c->rto_at = t->tick + t->cls[c->cls].tw_ticks;
			wr_tcp_timer_arm(t, i, c->rto_at);
		}
		ack_now(t, i);
		break;
	default:
		synced(t, i, s);
		break;
	}
}

/* The first steps of a frame: parsed, counted, its local found.
 * @return -1 when done with (the verdict in *@p ret), else the local. */
static int32_t
input_head(struct wr_tcp *t, const uint8_t *frame, uint32_t len,
	   struct wr_tcp_seg *s, int *ret)
{
	int32_t local;
	int rc;

	WR_TCP_ADD(t->pc.rx_frames, 1);
	rc = wr_tcp_parse(frame, len, s);
	*ret = rc == 1 ? 1 : 0;
	if (rc != 0) {
		if (rc == 1)
			WR_TCP_ADD(t->pc.rx_not_tcp, 1);
		else
			WR_TCP_ADD(t->pc.rx_bad, 1);
		return -1;
	}
	local = wr_tcp_local_find(t, s->dst, s->v6, s->vlan);
	if (local < 0) {
		WR_TCP_ADD(t->pc.rx_not_tcp, 1);
		*ret = 1;
	}
	return local;
}

static void
input_tail(struct wr_tcp *t, uint32_t local, const struct wr_tcp_seg *s,
	   uint32_t len)
{
	uint32_t i = wr_tcp_lookup(t, local, s->src, s->dport, s->sport);

	if (i == WR_TCP_NIL)
		no_conn(t, local, s, len);
	else
		conn_input(t, i, s, len);
}

int
wr_tcp_input(struct wr_tcp *t, const uint8_t *frame, uint32_t len,
	     uint64_t now)
{
	struct wr_tcp_seg s;
	int32_t local;
	int ret;

	t->now = now;
	t->tick = wr_tcp_ticks(now);
	local = input_head(t, frame, len, &s, &ret);
	if (local >= 0)
		input_tail(t, (uint32_t)local, &s, len);
	return ret;
}

/* Frames in bursts of 32: every frame parsed and its hash bucket
 * prefetched, then each bucket's first connection prefetched, then each
 * segment taken in order; the two cache misses of a lookup overlap
 * instead of following one another frame after frame. */
unsigned int
wr_tcp_input_burst(struct wr_tcp *t, const uint8_t *const *frames,
		   const uint32_t *lens, unsigned int n, uint64_t now,
		   uint8_t *ret)
{
	struct wr_tcp_seg s[32];
	int32_t local[32];
	uint32_t h[32];
	unsigned int back = 0;

	t->now = now;
	t->tick = wr_tcp_ticks(now);
	for (unsigned int b = 0; b < n; b += 32) {
		unsigned int m = n - b < 32 ? n - b : 32, k;
		int r;

		for (k = 0; k < m; k++) {
			local[k] = input_head(t, frames[b + k], lens[b + k],
					      &s[k], &r);
			ret[b + k] = (uint8_t)r;
			back += (unsigned int)r;
			if (local[k] < 0)
				continue;
			h[k] = wr_tcp_hash(t, (uint32_t)local[k], s[k].src,
					   s[k].dport, s[k].sport);
			__builtin_prefetch(&t->hash[h[k]]);
		}
		for (k = 0; k < m; k++)
			if (local[k] >= 0 && t->hash[h[k]] != WR_TCP_NIL)
				__builtin_prefetch(&t->conns[t->hash[h[k]]]);
		for (k = 0; k < m; k++)
			if (local[k] >= 0)
				input_tail(t, (uint32_t)local[k], &s[k],
					   lens[b + k]);
	}
	return back;
}

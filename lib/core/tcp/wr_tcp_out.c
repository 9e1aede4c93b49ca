/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_out: what the engine sends (segments from the templates, RSTs), the timer wheel, the send queue, opening at the classes' rates, and wr_tcp_poll. */
#include <string.h>

#include "wr_tcp_priv.h"

/* ---- the timer wheel ---- */

void
wr_tcp_rto_arm(struct wr_tcp *t, struct wr_tcp_conn *c)
{
	/* µs to 2^19 ns ticks: a multiply and a shift */
	c->rto_at = t->tick + (uint32_t)(((uint64_t)c->cc.rto_us * 1000) >>
					 WR_TCP_TICK_SHIFT) + 1;
	wr_tcp_timer_arm(t, (uint32_t)(c - t->conns), c->rto_at);
}

/* ---- the send queue ---- */

/* ---- segments ---- */

static bool
emit(struct wr_tcp *t, uint32_t local, __uint128_t dst, uint16_t sport,
     uint16_t dport, const struct wr_tcp_txseg *g, struct wr_tcp_counters *ct)
{
	const struct wr_tcp_tmpl *tp = &t->loc[local];
	uint8_t *buf = t->cfg.io.frame(t->cfg.io.ctx, (uint32_t)tp->l2_len +
				       tp->l3_len + 60 + g->len);
	uint16_t l3, l4;
	uint32_t n;

	if (buf == NULL) {
		WR_TCP_ADD(t->pc.tx_nobuf, 1);
		return false;
	}
	n = wr_tcp_build(buf, tp, dst, sport, dport, g, t->cfg.io.csum_offload,
			 &l3, &l4);
	t->cfg.io.send(t->cfg.io.ctx, n, l3, l4);
	if (ct != NULL) {
		WR_TCP_ADD(ct->tx_segs, 1);
		WR_TCP_ADD(ct->tx_frame_bytes, (n < 60 ? 60 : n) + 4);
	}
	return true;
}

static bool
send_seg(struct wr_tcp *t, struct wr_tcp_conn *c, uint8_t flags, uint32_t seq,
	 uint64_t off, uint32_t len)
{
	const struct wr_tcp_cls *cl = &t->cls[c->cls];
	const struct wr_tcp_opts *o = &cl->rt.spec->tcp;
	bool server = c->flags & WR_TC_SERVER;
	struct wr_tcp_txseg g;
	struct wr_tcp_cc_range sk[WR_TCP_OOO_MAX];
	uint32_t w;

	memset(&g, 0, sizeof(g));
	g.seq = seq;
	g.flags = flags;
	g.ack = (flags & WR_TH_ACK) ? c->rcv_nxt : 0;
	g.ws = 0xff;
	if (flags & WR_TH_SYN) {
		g.syn_opts = true;
		g.mss = (uint16_t)cl->mss;
		g.win = (uint16_t)(cl->rcv_win > 65535 ? 65535 : cl->rcv_win);
		if (!server || (c->flags & WR_TC_WS))
			g.ws = o->wscale > 14 ? 14 : o->wscale;
		g.sack_ok = server ? (c->flags & WR_TC_SACK) : o->sack;
		g.ts = server ? (c->flags & WR_TC_TS) : o->timestamps;
	} else {
		w = cl->rcv_win >> c->rcv_ws;
		g.win = (uint16_t)(w > 65535 ? 65535 : w);
		g.ts = c->flags & WR_TC_TS;
		if ((c->flags & WR_TC_SACK) && (flags & WR_TH_ACK) &&
		    c->n_ooo > 0) {
			/* RFC 2018 4: the block of the latest segment first,
			 * then the others */
			unsigned int k = c->ooo_last < c->n_ooo ? c->ooo_last : 0;

			sk[0] = c->ooo[k];
			for (unsigned int j = 0, m = 1; j < c->n_ooo; j++)
				if (j != k)
					sk[m++] = c->ooo[j];
			g.sack = sk;
			g.n_sack = c->n_ooo;
		}
	}
	g.tsval = wr_tcp_tsval(t->now);
	g.tsecr = (flags & WR_TH_ACK) ? c->ts_recent : 0;
	if (len > 0) {
		g.app = cl->app[server ? 1 : 0];
		g.off = off;
		g.len = len;
	}
	if (!emit(t, c->local, wr_tcp_rip(c), c->lport, c->rport, &g, wr_tcp_ctr(t, c)))
		return false;
	if (flags & WR_TH_ACK) {
		c->flags &= (uint16_t)~WR_TC_ACK_NOW;
		c->nacks = 0;
		c->dack_at = 0;
	}
	return true;
}

void
wr_tcp_send_ctl(struct wr_tcp *t, struct wr_tcp_conn *c, uint8_t flags,
		uint32_t seq)
{
	send_seg(t, c, flags, seq, 0, 0);
}

/* RFC 9293 3.10.7.1's reset for a segment of no connection, at most
 * WR_TCP_RST_PER_MS a millisecond (a SYN flood answers itself otherwise). */
void
wr_tcp_send_rst_to(struct wr_tcp *t, uint32_t local, const struct wr_tcp_seg *s)
{
	struct wr_tcp_txseg g;
	uint32_t ms = (uint32_t)(t->now >> 20);

	if (ms != t->rst_ms) {
		t->rst_ms = ms;
		t->rst_n = 0;
	}
	if (t->rst_n >= WR_TCP_RST_PER_MS) {
		WR_TCP_ADD(t->pc.rst_limited, 1);
		return;
	}
	memset(&g, 0, sizeof(g));
	g.ws = 0xff;
	if (s->flags & WR_TH_ACK) {
		g.seq = s->ack;
		g.flags = WR_TH_RST;
	} else {
		g.ack = s->seq + s->len + ((s->flags & WR_TH_SYN) ? 1 : 0) +
			((s->flags & WR_TH_FIN) ? 1 : 0);
		g.flags = WR_TH_RST | WR_TH_ACK;
	}
	if (emit(t, local, s->src, s->dport, s->sport, &g, NULL)) {
		t->rst_n++;
		WR_TCP_ADD(t->pc.rst_sent_no_conn, 1);
	}
}

/* Payload bytes of one segment from @p seq: at most an MSS, not past
 * what the program appended. */
static uint32_t
seg_len(const struct wr_tcp_conn *c, uint32_t seq, uint32_t room)
{
	uint64_t off = wr_tcp_tx_off(c, seq), left;
	uint32_t n = c->peer_mss;

	if (off >= c->send_end)
		return 0;
	left = c->send_end - off;
	if (left < n)
		n = (uint32_t)left;
	return n < room ? n : room;
}

/* Send @p len bytes at @p seq (at most to snd_max, counted a
 * retransmission where below it), the FIN where it ends the stream. */
static bool
send_data(struct wr_tcp *t, uint32_t i, uint32_t seq, uint32_t len)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);
	uint64_t off = wr_tcp_tx_off(c, seq);
	uint8_t fl = WR_TH_ACK;
	uint32_t end, old;

	if ((c->flags & WR_TC_FIN_PEND) && off + len == c->send_end)
		fl |= WR_TH_FIN | (len ? WR_TH_PSH : 0);
	else if (len > 0 && off + len == c->send_end)
		fl |= WR_TH_PSH;
	if (!send_seg(t, c, fl, seq, off, len))
		return false;
	end = seq + len + ((fl & WR_TH_FIN) ? 1 : 0);
	old = wr_tcp_seq_lt(c->snd_max, end) ? c->snd_max - seq : end - seq;
	if (old > 0) {
		WR_TCP_ADD(ct->rexmit_segs, 1);
		WR_TCP_ADD(ct->rexmit_bytes, old > len ? len : old);
		c->flags &= (uint16_t)~WR_TC_RTT;       /* Karn */
	}
	if (len > old)
		WR_TCP_ADD(ct->tx_bytes, len - old);
	if (!(c->flags & (WR_TC_RTT | WR_TC_TS)) && len > old) {
		c->flags |= WR_TC_RTT;
		c->rtt_seq = seq + old;
		c->rtt_tick = t->tick;
	}
	if (wr_tcp_seq_lt(c->snd_nxt, end))
		c->snd_nxt = end;
	if (wr_tcp_seq_lt(c->snd_max, end))
		c->snd_max = end;
	if ((fl & WR_TH_FIN) && !(c->flags & WR_TC_FIN_SENT)) {
		c->flags |= WR_TC_FIN_SENT;
		if (c->state == WR_TCP_ST_ESTABLISHED)
			c->state = WR_TCP_ST_FIN_WAIT_1;
		else if (c->state == WR_TCP_ST_CLOSE_WAIT)
			c->state = WR_TCP_ST_LAST_ACK;
	}
	if (c->rto_at == 0 || (c->flags & WR_TC_PERSIST)) {
		c->flags &= (uint16_t)~WR_TC_PERSIST;
		wr_tcp_rto_arm(t, c);
	}
	return true;
}

/* Fast retransmit: the segment at @p seq again. */
void
wr_tcp_resend(struct wr_tcp *t, uint32_t i, uint32_t seq)
{
	struct wr_tcp_conn *c = &t->conns[i];
	uint32_t n = seg_len(c, seq, c->snd_max - seq);

	if (n > 0 || (c->flags & WR_TC_FIN_SENT))
		send_data(t, i, seq, n);
}

/* What the windows allow, retransmissions first; then an ACK owed.  A
 * segment that found no buffer (tx_nobuf) leaves the connection queued:
 * the next poll tries again. */
void
wr_tcp_output(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	uint32_t seq, len, ok, n, budget = WR_TCP_TX_BURST;
	bool sent = false, blocked = false, rec;

	if (c->state < WR_TCP_ST_ESTABLISHED || c->state == WR_TCP_ST_TIME_WAIT ||
	    c->state == WR_TCP_ST_FIN_WAIT_2) {
		if ((c->flags & WR_TC_ACK_NOW) && c->state > WR_TCP_ST_SYN_RCVD &&
		    !send_seg(t, c, WR_TH_ACK, c->snd_nxt, 0, 0))
			wr_tcp_txq_push(t, i);
		return;
	}
	/* RFC 5681 4.1: sending again after more than an RTO with nothing
	 * in flight and nothing heard (a client's think time): the restart
	 * window */
	if (c->snd_una == c->snd_max &&
	    (uint32_t)(t->tick - c->last_rx) >
	    (uint32_t)(((uint64_t)c->cc.rto_us * 1000) >> WR_TCP_TICK_SHIFT))
		wr_tcp_cc_idle(&c->cc);
	rec = c->cc.flags & WR_TCP_CC_F_RECOVERY;
	while (budget > 0 && rec &&
	       wr_tcp_cc_next(&c->cc, c->snd_una, c->snd_max, &seq, &len)) {
		if (!send_data(t, i, seq, seg_len(c, seq, len))) {
			blocked = true;
			break;
		}
		sent = true;
		budget--;
	}
	while (budget > 0 && !blocked) {
		n = seg_len(c, c->snd_nxt, UINT32_MAX);
		ok = n == 0 ? 0 : wr_tcp_cc_send_ok(&c->cc, c->snd_una, c->snd_nxt,
						     c->snd_max, c->snd_wnd);
		if (ok == 0 && rec &&
		    wr_tcp_cc_next_idle(&c->cc, c->snd_una, c->snd_max, &seq,
					&len)) {
			/* RFC 6675 NextSeg() rule 3: no new data can go */
			n = seg_len(c, seq, len);
		} else if (n == 0) {
			if ((c->flags & WR_TC_FIN_PEND) &&
			    wr_tcp_tx_off(c, c->snd_nxt) == c->send_end &&
			    (!(c->flags & WR_TC_FIN_SENT) || c->snd_nxt != c->snd_max)) {
				if (send_data(t, i, c->snd_nxt, 0))
					sent = true;
				else
					blocked = true;
			}
			break;
		} else if (ok == 0) {
			if (c->snd_wnd == 0 && c->snd_una == c->snd_max &&
			    !(c->flags & WR_TC_PERSIST)) {
				/* RFC 9293 3.8.6.1: probe the closed window */
				c->flags |= WR_TC_PERSIST;
				WR_TCP_ADD(wr_tcp_ctr(t, c)->zero_window, 1);
				wr_tcp_rto_arm(t, c);
			}
			break;
		} else {
			seq = c->snd_nxt;
			/* RFC 9293 3.8.6.2.1, the sender's silly window
			 * avoidance: a window that opens less than a full
			 * segment while data is in flight waits for the ACKs
			 * that open it further; a runt after each burst (the
			 * peers' tests saw one of 1 byte) was sent before. */
			if (ok < n && ok < c->cc.mss && c->snd_nxt != c->snd_una)
				break;
			n = n < ok ? n : ok;
		}
		if (!send_data(t, i, seq, n)) {
			blocked = true;
			break;
		}
		sent = true;
		budget--;
	}
	if (!sent && !blocked && (c->flags & WR_TC_ACK_NOW) &&
	    !send_seg(t, c, WR_TH_ACK, c->snd_nxt, 0, 0))
		blocked = true;
	if (budget == 0 || blocked)
		wr_tcp_txq_push(t, i);
}

/* ---- ends ---- */

static void
open_gone(struct wr_tcp *t, struct wr_tcp_conn *c)
{
	WR_TCP_SUB(wr_tcp_ctr(t, c)->active, 1);
	t->n_open--;
	if (!(c->flags & WR_TC_SERVER))
		t->cls[c->cls].open_now--;
}

void
wr_tcp_end(struct wr_tcp *t, uint32_t i, uint64_t *reason, bool rst)
{
	struct wr_tcp_conn *c = &t->conns[i];

	if (c->state == WR_TCP_ST_FREE)
		return;
	if (rst && c->state != WR_TCP_ST_SYN_SENT)
		send_seg(t, c, WR_TH_RST | WR_TH_ACK, c->snd_nxt, 0, 0);
	if (reason != NULL)
		WR_TCP_ADD(*reason, 1);
	if (c->state != WR_TCP_ST_TIME_WAIT)
		open_gone(t, c);
	else
		WR_TCP_SUB(wr_tcp_ctr(t, c)->time_wait, 1);
	wr_tcp_conn_free(t, i);
}

/* Both FINs exchanged: counted closed, then TIME_WAIT or free. */
void
wr_tcp_close_clean(struct wr_tcp *t, uint32_t i, bool time_wait)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);

	WR_TCP_ADD(ct->closed, 1);
	wr_latency_record(wr_tcp_hist_of(t, c, WR_TCP_HIST_COMPLETE),
			  wr_tcp_since(t, c));
	open_gone(t, c);
	if (!time_wait) {
		wr_tcp_conn_free(t, i);
		return;
	}
	c->state = WR_TCP_ST_TIME_WAIT;
	WR_TCP_ADD(ct->time_wait, 1);
	c->dack_at = c->think_at = 0;
	c->flags &= (uint16_t)~WR_TC_PERSIST;
	c->rto_at = t->tick + t->cls[c->cls].tw_ticks;
	wr_tcp_timer_arm(t, i, c->rto_at);
}

void
wr_tcp_enter_tw(struct wr_tcp *t, uint32_t i)
{
	wr_tcp_close_clean(t, i, true);
}

void
wr_tcp_established(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_app_out o;

	c->state = WR_TCP_ST_ESTABLISHED;
	WR_TCP_ADD(wr_tcp_ctr(t, c)->established, 1);
	memset(&o, 0, sizeof(o));
	wr_tcp_app_start(t->cls[c->cls].app[(c->flags & WR_TC_SERVER) ? 1 : 0],
			 &c->app, &o);
	wr_tcp_app_apply(t, i, &o);
}

void
wr_tcp_app_apply(struct wr_tcp *t, uint32_t i, const struct wr_tcp_app_out *o)
{
	struct wr_tcp_conn *c = &t->conns[i];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);
	bool server = c->flags & WR_TC_SERVER;

	if (o->events & WR_TCP_EV_REQUEST)
		WR_TCP_ADD(ct->http_requests, o->requests ? o->requests : 1);
	if (o->events & WR_TCP_EV_RESPONSE) {
		WR_TCP_ADD(ct->http_responses, o->responses ? o->responses : 1);
		if (!server)
			WR_TCP_ADD(ct->http_status[o->status >= 100 &&
						   o->status < 600 ?
						   o->status / 100 : 0], 1);
	}
	if (o->events & WR_TCP_EV_DONE)
		c->flags |= WR_TC_DONE;
	if (o->close == WR_TCP_APP_RST || o->close == WR_TCP_APP_ERROR) {
		if (o->close == WR_TCP_APP_ERROR)
			WR_TCP_ADD(ct->app_errors, 1);
		wr_tcp_end(t, i, &ct->aborted, true);
		return;
	}
	/* UINT64_MAX: a send without end (until the run stops) */
	c->send_end = o->send > UINT64_MAX - c->send_end ? UINT64_MAX :
		      c->send_end + o->send;
	if (o->close == WR_TCP_APP_FIN)
		c->flags |= WR_TC_FIN_PEND;
	if (o->timer_ns > 0) {
		c->think_at = t->tick + wr_tcp_ticks(o->timer_ns) + 1;
		wr_tcp_timer_arm(t, i, c->think_at);
	}
	if (o->send > 0 || o->close == WR_TCP_APP_FIN)
		wr_tcp_txq_push(t, i);
}

/* ---- timers ---- */

void
wr_tcp_rto_fire(struct wr_tcp *t, uint32_t i)
{
	struct wr_tcp_conn *c = &t->conns[i];
	const struct wr_tcp_cls *cl = &t->cls[c->cls];
	struct wr_tcp_counters *ct = wr_tcp_ctr(t, c);
	bool syn = c->state <= WR_TCP_ST_SYN_RCVD;

	if (c->flags & WR_TC_PERSIST) {
		if (c->snd_wnd == 0) {
			/* a zero-window probe: an ACK below snd_una draws the
			 * peer's window (as Linux probes) */
			send_seg(t, c, WR_TH_ACK, c->snd_una - 1, 0, 0);
			wr_tcp_rto_arm(t, c);
		} else {
			c->flags &= (uint16_t)~WR_TC_PERSIST;
			wr_tcp_txq_push(t, i);
		}
		return;
	}
	if (c->snd_una == c->snd_max)
		return;
	if (++c->retries > (syn ? cl->rt.spec->tcp.syn_retries :
			    cl->rt.spec->tcp.retries)) {
		wr_tcp_end(t, i, &ct->failed_timeout, !syn);
		return;
	}
	WR_TCP_ADD(ct->rto, 1);
	wr_tcp_cc_timeout(&c->cc, c->snd_una, c->snd_max, &cl->lim);
	c->flags &= (uint16_t)~WR_TC_RTT;
	if (syn) {
		WR_TCP_ADD(ct->rexmit_segs, 1);
		send_seg(t, c, c->state == WR_TCP_ST_SYN_SENT ? WR_TH_SYN :
			 WR_TH_SYN | WR_TH_ACK, c->iss, 0, 0);
	} else {
		c->snd_nxt = c->snd_una;        /* go back (RFC 5681 3.1) */
		if (c->snd_wnd == 0)    /* nothing may go: draw the window */
			send_seg(t, c, WR_TH_ACK, c->snd_una - 1, 0, 0);
		else
			wr_tcp_output(t, i);
	}
	if (c->rto_at == 0 || wr_tcp_seq_leq(c->rto_at, t->tick))
		wr_tcp_rto_arm(t, c);
}

/* ---- opening ---- */

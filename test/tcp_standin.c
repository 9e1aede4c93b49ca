/* SPDX-License-Identifier: BSD-3-Clause */
/* A minimal stand-in for wr_tcp_app.c and wr_tcp_cc.c until h/app and h/cc land (deleted then). */
#include <string.h>

#include "wr_tcp_app.h"
#include "wr_tcp_cc.h"

int
wr_tcp_app_init(struct wr_tcp_app *a, const struct wr_tcp_class *c,
		enum wr_tcp_side side, const uint8_t *data, uint64_t data_len,
		const char *host, struct wr_error *err)
{
	(void)data; (void)data_len; (void)host; (void)err;
	memset(a, 0, sizeof(*a));
	a->spec = c;
	a->side = side;
	return 0;
}

void
wr_tcp_app_fini(struct wr_tcp_app *a)
{
	(void)a;
}

static void
advance(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	struct wr_tcp_app_out *o)
{
	const struct wr_tcp_class *c = a->spec;

	while (st->step < c->n_steps) {
		const struct wr_tcp_step *s = &c->steps[st->step];

		if (s->op == WR_TCP_OP_SEND && s->by == a->side) {
			o->send += s->bytes;
			st->step++;
		} else if (s->op == WR_TCP_OP_SEND) {
			st->left = s->bytes;
			return;
		} else if (s->op == WR_TCP_OP_THINK) {
			o->timer_ns = s->ns;
			return;
		} else if (s->by == a->side) {
			o->close = s->rst ? WR_TCP_APP_RST : WR_TCP_APP_FIN;
			o->events |= WR_TCP_EV_DONE;
			st->step++;
			return;
		} else {
			return;
		}
	}
}

void
wr_tcp_app_start(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		 struct wr_tcp_app_out *o)
{
	advance(a, st, o);
}

void
wr_tcp_app_rx(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	      const uint8_t *p, uint32_t len, uint64_t off,
	      struct wr_tcp_app_out *o)
{
	for (uint32_t i = 0; p != NULL && i < len; i++)
		if (p[i] != (uint8_t)((off + i) % WR_TCP_PATTERN_PERIOD)) {
			o->close = WR_TCP_APP_ERROR;
			return;
		}
	if (len >= st->left) {
		st->left = 0;
		st->step++;
		advance(a, st, o);
	} else {
		st->left -= len;
	}
}

void
wr_tcp_app_fin(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	       struct wr_tcp_app_out *o)
{
	if (st->step < a->spec->n_steps &&
	    a->spec->steps[st->step].op == WR_TCP_OP_CLOSE)
		o->events |= WR_TCP_EV_DONE;
	o->close = WR_TCP_APP_FIN;
}

void
wr_tcp_app_timer(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		 struct wr_tcp_app_out *o)
{
	st->step++;
	advance(a, st, o);
}

bool
wr_tcp_app_ordered(const struct wr_tcp_app *a, const struct wr_tcp_app_st *st)
{
	(void)a; (void)st;
	return false;
}

uint32_t
wr_tcp_app_fill(const struct wr_tcp_app *a, uint64_t off, uint8_t *buf,
		uint32_t len)
{
	uint32_t sum = 0;

	(void)a;
	for (uint32_t i = 0; i < len; i++) {
		buf[i] = (uint8_t)((off + i) % WR_TCP_PATTERN_PERIOD);
		sum += (i & 1) ? buf[i] : (uint32_t)buf[i] << 8;
	}
	return sum;
}

void
wr_tcp_cc_init(struct wr_tcp_cc *cc, uint16_t mss, uint32_t init_cwnd,
	       bool sack, const struct wr_tcp_cc_limits *lim)
{
	memset(cc, 0, sizeof(*cc));
	cc->mss = mss;
	cc->cwnd = (init_cwnd ? init_cwnd : 2) * mss;
	cc->ssthresh = UINT32_MAX;
	cc->rto_us = lim->rto_init_us;
	cc->flags = sack ? WR_TCP_CC_F_SACK : 0;
}

void
wr_tcp_cc_rtt(struct wr_tcp_cc *cc, uint32_t rtt_us,
	      const struct wr_tcp_cc_limits *lim)
{
	cc->srtt_us8 = rtt_us * 8;
	cc->rto_us = rtt_us * 3 < lim->rto_min_us ? lim->rto_min_us : rtt_us * 3;
	cc->backoff = 0;
}

enum wr_tcp_cc_act
wr_tcp_cc_ack(struct wr_tcp_cc *cc, uint32_t ack, uint32_t snd_una,
	      uint32_t snd_max, const struct wr_tcp_cc_range *sacks,
	      unsigned int n_sacks, bool dup)
{
	(void)sacks; (void)n_sacks;
	if (dup) {
		if (++cc->dupacks == 3 && !(cc->flags & WR_TCP_CC_F_RECOVERY)) {
			uint32_t fl = snd_max - snd_una;

			cc->ssthresh = fl / 2 > 2u * cc->mss ? fl / 2 : 2u * cc->mss;
			cc->cwnd = cc->ssthresh + 3u * cc->mss;
			cc->recover = snd_max;
			cc->flags |= WR_TCP_CC_F_RECOVERY;
			return WR_TCP_CC_RETRANSMIT;
		}
		return WR_TCP_CC_NONE;
	}
	if (wr_tcp_seq_lt(snd_una, ack)) {
		cc->dupacks = 0;
		if (cc->flags & WR_TCP_CC_F_RECOVERY) {
			if (wr_tcp_seq_leq(cc->recover, ack)) {
				cc->flags &= (uint8_t)~WR_TCP_CC_F_RECOVERY;
				cc->cwnd = cc->ssthresh;
			} else {
				return WR_TCP_CC_RETRANSMIT;
			}
		} else if (cc->cwnd < cc->ssthresh) {
			cc->cwnd += cc->mss;
		} else {
			cc->cwnd += (uint32_t)cc->mss * cc->mss / cc->cwnd + 1;
		}
	}
	return WR_TCP_CC_NONE;
}

uint32_t
wr_tcp_cc_send_ok(const struct wr_tcp_cc *cc, uint32_t snd_una,
		  uint32_t snd_nxt, uint32_t snd_max, uint32_t rwnd)
{
	uint32_t w = cc->cwnd < rwnd ? cc->cwnd : rwnd, fl = snd_nxt - snd_una;

	(void)snd_max;
	return w > fl ? w - fl : 0;
}

bool
wr_tcp_cc_next(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
	       uint32_t *seq, uint32_t *len)
{
	(void)cc; (void)snd_una; (void)snd_max; (void)seq; (void)len;
	return false;
}

void
wr_tcp_cc_timeout(struct wr_tcp_cc *cc, uint32_t snd_una, uint32_t snd_max,
		  const struct wr_tcp_cc_limits *lim)
{
	uint32_t fl = snd_max - snd_una;

	cc->ssthresh = fl / 2 > 2u * cc->mss ? fl / 2 : 2u * cc->mss;
	cc->cwnd = cc->mss;
	cc->flags &= (uint8_t)~WR_TCP_CC_F_RECOVERY;
	cc->dupacks = 0;
	cc->rto_us = cc->rto_us * 2 > lim->rto_max_us ? lim->rto_max_us :
		     cc->rto_us * 2;
}

bool
wr_tcp_cc_sacked(const struct wr_tcp_cc *cc, uint32_t seq, uint32_t len)
{
	(void)cc; (void)seq; (void)len;
	return false;
}

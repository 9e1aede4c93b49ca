/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_app_rx: a connection's program as bytes arrive (HTTP client and server, raw steps): what to send next, when to think, how to close. */
#include <string.h>

#include "wr_tcp_app.h"
#include "wr_tcp_http.h"

/* st->step of HTTP: the parser's phase in bits 0..4, the program's phase
 * in bits 5..7.  st->flags: the parser's.  st->parse, st->left: the
 * parser's.  st->count: messages done. */
#define PH_SHIFT 5
#define PH_MASK (7u << PH_SHIFT)
enum {
	PH_RUN = 0,     /* a message is being received */
	PH_THINK,       /* the client waits its think time */
	PH_WAIT_FIN,    /* done: the peer closes (its FIN ends it cleanly) */
	PH_CUT,         /* the peer closes before the program's end */
	PH_END,         /* closed: what comes in is ignored */
};

/* st->flags of raw programs (st->step: the step index; st->left: bytes
 * still to receive in it). */
#define RF_THINK    0x01u   /* a think timer runs */
#define RF_WAIT_FIN 0x02u   /* the other side's close is awaited */
#define RF_END      0x04u   /* the program closed */
#define RF_PEER_FIN 0x08u   /* the peer's FIN came */
#define RF_FOREVER  0x10u   /* this side sends until the close */
#define RF_RECV     0x20u   /* a receive step is waited on */

static void
out_clear(struct wr_tcp_app_out *o)
{
	memset(o, 0, sizeof(*o));
}

/* ------------------------------------------------------------------ */
/* HTTP: the parser's state in the connection's                       */

static inline void
pst_get(const struct wr_tcp_app_st *st, struct wr_tcp_http_st *p)
{
	p->phase = st->step & (uint8_t)~PH_MASK;
	p->flags = st->flags;
	p->parse = st->parse;
	p->left = st->left;
}

static inline void
pst_put(struct wr_tcp_app_st *st, const struct wr_tcp_http_st *p)
{
	st->step = (uint8_t)((st->step & PH_MASK) | p->phase);
	st->flags = p->flags;
	st->parse = p->parse;
	st->left = p->left;
}

static inline unsigned int
phase(const struct wr_tcp_app_st *st)
{
	return (st->step & PH_MASK) >> PH_SHIFT;
}

static inline void
set_phase(struct wr_tcp_app_st *st, unsigned int ph)
{
	st->step = (uint8_t)((st->step & ~PH_MASK) | (ph << PH_SHIFT));
}

static void
begin(const struct wr_tcp_app *a, struct wr_tcp_app_st *st)
{
	struct wr_tcp_http_st p;

	wr_tcp_http_begin(&p, a->side == WR_TCP_CLIENT, a->head);
	pst_put(st, &p);
}

/* The client's next request (its response's parser begins). */
static void
client_request(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	       struct wr_tcp_app_out *o)
{
	o->send += a->msg_len;
	o->events |= WR_TCP_EV_REQUEST;
	o->requests++;
	set_phase(st, PH_RUN);
	begin(a, st);
}

/* A response ended: the next request, a think, or the close. */
static void
client_response(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		const struct wr_tcp_http_res *r, bool peer_fin,
		struct wr_tcp_app_out *o)
{
	const struct wr_tcp_http *h = &a->spec->http;

	st->count++;
	o->events |= WR_TCP_EV_RESPONSE;
	o->responses++;
	o->status = r->status;
	if (st->count >= h->requests) {
		if (h->close_by_server && !peer_fin) {
			set_phase(st, PH_WAIT_FIN);
		} else {
			o->close = WR_TCP_APP_FIN;
			o->events |= WR_TCP_EV_DONE;
			set_phase(st, PH_END);
		}
	} else if (peer_fin) {
		o->close = WR_TCP_APP_FIN; /* the server ended it early */
		set_phase(st, PH_END);
	} else if (r->close) {
		set_phase(st, PH_CUT); /* its FIN follows: no next request */
	} else if (h->think_ns > 0) {
		o->timer_ns = h->think_ns;
		set_phase(st, PH_THINK);
	} else {
		client_request(a, st, o);
	}
}

/* A request ended: its response, and the close when it is the last. */
static bool
server_request(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	       const struct wr_tcp_http_res *r, struct wr_tcp_app_out *o)
{
	const struct wr_tcp_http *h = &a->spec->http;

	st->count++;
	o->events |= WR_TCP_EV_REQUEST | WR_TCP_EV_RESPONSE;
	o->requests++;
	o->responses++;
	o->send += a->msg_len;
	if (r->close || (h->close_by_server && st->count >= h->requests)) {
		o->close = WR_TCP_APP_FIN;
		o->events |= WR_TCP_EV_DONE;
		set_phase(st, PH_END);
		return false;
	}
	begin(a, st);
	return true;
}

/* Check body bytes against what wirerate's other side sends. */
static bool
body_check(const struct wr_tcp_app *a, const struct wr_tcp_http_st *p,
	   const uint8_t *b, uint32_t len)
{
	uint64_t x, n = wr_tcp_http_blind(p);

	if (!a->verify || b == NULL || n == 0)
		return true;
	x = wr_tcp_http_body_off(p, a->peer_body);
	if (x == UINT64_MAX)
		return true; /* not a body of the length we send */
	n = n < len ? n : len;
	return wr_tcp_app_match(a, x, b, n);
}

static void
http_rx(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	const uint8_t *b, uint32_t len, struct wr_tcp_app_out *o)
{
	struct wr_tcp_http_st p;
	struct wr_tcp_http_res r;

	while (len > 0) {
		unsigned int ph = phase(st);

		if (ph == PH_END)
			return; /* after our close: nothing more is read */
		if (ph != PH_RUN) {
			/* Bytes where no message is due (a think, after the
			 * last response): not HTTP as we asked it. */
			o->close = WR_TCP_APP_ERROR;
			set_phase(st, PH_END);
			return;
		}
		pst_get(st, &p);
		if (!body_check(a, &p, b, len)) {
			o->close = WR_TCP_APP_ERROR;
			set_phase(st, PH_END);
			return;
		}
		wr_tcp_http_feed(&p, b, len, &r);
		pst_put(st, &p);
		if (r.ev == WR_TCP_HTTP_BAD) {
			if (a->side == WR_TCP_CLIENT) {
				o->events |= WR_TCP_EV_RESPONSE;
				o->responses++;
				o->status = 0; /* unparsable */
			}
			o->close = WR_TCP_APP_ERROR;
			set_phase(st, PH_END);
			return;
		}
		if (b != NULL)
			b += r.used;
		len -= r.used;
		if (r.ev != WR_TCP_HTTP_DONE)
			continue; /* all taken, or a body begins */
		if (a->side == WR_TCP_CLIENT)
			client_response(a, st, &r, false, o);
		else if (!server_request(a, st, &r, o))
			return;
	}
}

static void
http_fin(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	 struct wr_tcp_app_out *o)
{
	struct wr_tcp_http_st p;
	struct wr_tcp_http_res r;

	switch (phase(st)) {
	case PH_END:
		return;
	case PH_WAIT_FIN:
		o->close = WR_TCP_APP_FIN;
		o->events |= WR_TCP_EV_DONE;
		set_phase(st, PH_END);
		return;
	case PH_THINK:
	case PH_CUT:
		o->close = WR_TCP_APP_FIN; /* closed before the program's end */
		set_phase(st, PH_END);
		return;
	default:
		break;
	}
	pst_get(st, &p);
	wr_tcp_http_eof(&p, &r);
	pst_put(st, &p);
	if (r.ev == WR_TCP_HTTP_DONE) {
		/* A body read to the close (HTTP/1.0 servers). */
		client_response(a, st, &r, true, o);
		return;
	}
	if (r.ev == WR_TCP_HTTP_BAD) {
		o->close = WR_TCP_APP_ERROR; /* a message cut short */
	} else {
		o->close = WR_TCP_APP_FIN;
		/* A server whose client closed between requests ran its
		 * program: it answers what it was asked. */
		if (a->side == WR_TCP_SERVER)
			o->events |= WR_TCP_EV_DONE;
	}
	set_phase(st, PH_END);
}

/* ------------------------------------------------------------------ */
/* Raw programs                                                       */

/* Who acts after step @p i: the side of the next send or close (the
 * client's implicit close at the end). */
static enum wr_tcp_side
next_actor(const struct wr_tcp_class *c, uint32_t i)
{
	for (i++; i < c->n_steps; i++)
		if (c->steps[i].op != WR_TCP_OP_THINK)
			return (enum wr_tcp_side)c->steps[i].by;
	return WR_TCP_CLIENT;
}

/* Run steps from st->step until one waits. */
static void
raw_run(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	struct wr_tcp_app_out *o)
{
	const struct wr_tcp_class *c = a->spec;

	while (!(st->flags & (RF_END | RF_THINK | RF_RECV | RF_WAIT_FIN))) {
		const struct wr_tcp_step *s;
		struct wr_tcp_step end = { .op = WR_TCP_OP_CLOSE,
					   .by = WR_TCP_CLIENT };

		/* A program without a close step ends with the client's
		 * FIN. */
		s = st->step < c->n_steps ? &c->steps[st->step] : &end;
		if (st->step > c->n_steps) {
			st->flags |= RF_END;
			return;
		}
		switch (s->op) {
		case WR_TCP_OP_SEND:
			if (s->by == a->side) {
				if (s->bytes == WR_TCP_UNTIL_CLOSE) {
					o->send = UINT64_MAX;
					st->flags |= RF_FOREVER | RF_END;
					return;
				}
				o->send += s->bytes;
			} else if (s->bytes > 0) {
				if (st->flags & RF_PEER_FIN) {
					o->close = WR_TCP_APP_FIN; /* cut short */
					st->flags |= RF_END;
					return;
				}
				st->left = s->bytes;
				st->flags |= RF_RECV;
				return; /* raw_rx() moves on when it is in */
			}
			break;
		case WR_TCP_OP_THINK:
			if (next_actor(c, st->step) == a->side && s->ns > 0 &&
			    !(st->flags & RF_PEER_FIN)) {
				o->timer_ns = s->ns;
				st->flags |= RF_THINK;
				st->step++; /* the timer goes on after it */
				return;
			}
			break;
		default:
			if (s->by == a->side) {
				o->close = s->rst ? WR_TCP_APP_RST : WR_TCP_APP_FIN;
				o->events |= WR_TCP_EV_DONE;
				st->flags |= RF_END;
				return;
			}
			if (st->flags & RF_PEER_FIN) {
				o->close = WR_TCP_APP_FIN;
				o->events |= WR_TCP_EV_DONE;
				st->flags |= RF_END;
				return;
			}
			st->flags |= RF_WAIT_FIN;
			return;
		}
		st->step++;
	}
}

static void
raw_rx(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
       const uint8_t *b, uint32_t len, struct wr_tcp_app_out *o)
{
	const struct wr_tcp_class *c = a->spec;

	while (len > 0) {
		const struct wr_tcp_step *s;
		uint64_t n;

		if (st->flags & RF_END)
			return;
		if (!(st->flags & RF_RECV)) {
			o->close = WR_TCP_APP_ERROR; /* more than the program says */
			st->flags |= RF_END;
			return;
		}
		s = &c->steps[st->step];
		n = st->left < len ? st->left : len;
		if (a->verify && b != NULL && s->bytes != WR_TCP_UNTIL_CLOSE &&
		    !wr_tcp_app_match(a, s->bytes - st->left, b, n)) {
			o->close = WR_TCP_APP_ERROR;
			st->flags |= RF_END;
			return;
		}
		if (s->bytes != WR_TCP_UNTIL_CLOSE)
			st->left -= n;
		if (b != NULL)
			b += n;
		len -= (uint32_t)n;
		if (st->left == 0) {
			st->flags &= (uint8_t)~RF_RECV;
			st->step++;
			raw_run(a, st, o);
		}
	}
}

static void
raw_fin(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	struct wr_tcp_app_out *o)
{
	const struct wr_tcp_class *c = a->spec;

	st->flags |= RF_PEER_FIN;
	if (st->flags & RF_FOREVER) {
		o->close = WR_TCP_APP_FIN; /* nobody reads what we send */
		st->flags &= (uint8_t)~RF_FOREVER;
		return;
	}
	if (st->flags & RF_END)
		return;
	if (st->flags & RF_WAIT_FIN) {
		o->close = WR_TCP_APP_FIN;
		o->events |= WR_TCP_EV_DONE;
		st->flags |= RF_END;
		return;
	}
	if ((st->flags & RF_RECV) &&
	    c->steps[st->step].bytes == WR_TCP_UNTIL_CLOSE) {
		/* "Until the other side closes": its FIN ends the step. */
		st->flags &= (uint8_t)~RF_RECV;
		st->left = 0;
		st->step++;
		raw_run(a, st, o);
		return;
	}
	/* Closed while we still waited for bytes, or thought. */
	o->close = WR_TCP_APP_FIN;
	st->flags |= RF_END;
}

/* ------------------------------------------------------------------ */
/* The engine's calls                                                 */

void
wr_tcp_app_start(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		 struct wr_tcp_app_out *o)
{
	out_clear(o);
	memset(st, 0, sizeof(*st));
	if (!a->spec->is_http) {
		raw_run(a, st, o);
		return;
	}
	begin(a, st);
	if (a->side == WR_TCP_CLIENT) {
		if (a->spec->http.requests == 0) {
			o->close = WR_TCP_APP_FIN;
			o->events |= WR_TCP_EV_DONE;
			set_phase(st, PH_END);
			return;
		}
		client_request(a, st, o);
	}
}

void
wr_tcp_app_rx(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	      const uint8_t *p, uint32_t len, uint64_t off,
	      struct wr_tcp_app_out *o)
{
	(void)off;
	out_clear(o);
	if (a->spec->is_http)
		http_rx(a, st, p, len, o);
	else
		raw_rx(a, st, p, len, o);
}

void
wr_tcp_app_fin(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
	       struct wr_tcp_app_out *o)
{
	out_clear(o);
	if (a->spec->is_http)
		http_fin(a, st, o);
	else
		raw_fin(a, st, o);
}

void
wr_tcp_app_timer(const struct wr_tcp_app *a, struct wr_tcp_app_st *st,
		 struct wr_tcp_app_out *o)
{
	out_clear(o);
	if (!a->spec->is_http) {
		if (!(st->flags & RF_THINK))
			return;
		st->flags &= (uint8_t)~RF_THINK;
		raw_run(a, st, o);
		return;
	}
	if (phase(st) == PH_THINK)
		client_request(a, st, o);
}

bool
wr_tcp_app_ordered(const struct wr_tcp_app *a, const struct wr_tcp_app_st *st)
{
	struct wr_tcp_http_st p;

	if (!a->spec->is_http || phase(st) == PH_END)
		return false;
	pst_get(st, &p);
	return wr_tcp_http_blind(&p) == 0;
}

uint64_t
wr_tcp_app_blind(const struct wr_tcp_app *a, const struct wr_tcp_app_st *st)
{
	struct wr_tcp_http_st p;

	if (!a->spec->is_http) {
		if (!(st->flags & RF_RECV) || (st->flags & RF_END))
			return 0;
		return a->spec->steps[st->step].bytes == WR_TCP_UNTIL_CLOSE ?
		       UINT64_MAX : st->left;
	}
	if (phase(st) != PH_RUN)
		return 0;
	pst_get(st, &p);
	return wr_tcp_http_blind(&p);
}

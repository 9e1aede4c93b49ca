/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_io: the output of `wirerate serve` (replies, errors, events), its sockets, its connections (reading, writing, fairness), and the web console's HTTP and WebSocket. */
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "wr_server_priv.h"

/* ---- output ---- */

size_t
wr_srv_queued(const struct conn *c)
{
	return c->wlen - c->woff;
}

void
wr_srv_set_ready(struct server *s, struct conn *c, bool ready)
{
	if (c->ready == ready)
		return;
	c->ready = ready;
	if (ready)
		s->n_ready++;
	else
		s->n_ready--;
}

/* What epoll watches: its requests unless held, room for its replies while
 * any are queued (a queue left by the write budget is written next turn). */
void
wr_srv_conn_watch(struct server *s, struct conn *c)
{
	struct epoll_event ev = { .data.ptr = c };

	ev.events = (c->held || c->parked || c->closing || c->in_otg ? 0 :
		     EPOLLIN) |
		    (wr_srv_queued(c) > 0 || c->tls_wwant ? EPOLLOUT : 0);
	if (c->fd < 0 || ev.events == c->ev_mask)
		return;
	c->ev_mask = ev.events;
	epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Write what is queued, up to this turn's TURN_WRITE; a held connection
 * whose queue fell to WQ_LOW is read again.  @return false when the
 * connection broke (and was closed). */
bool
wr_srv_conn_flush(struct server *s, struct conn *c)
{
	if (c->wturn != s->turn) {
		c->wturn = s->turn;
		c->wrote = 0;
	}
	if (c->tls_wwant) {
		/* The room its TLS read waited for: read again. */
		c->tls_wwant = false;
		wr_srv_set_ready(s, c, true);
	}
	while (wr_srv_queued(c) > 0 && c->wrote < TURN_WRITE) {
		size_t len = wr_srv_queued(c) < TURN_WRITE - c->wrote ? wr_srv_queued(c) :
			     TURN_WRITE - c->wrote;
		ssize_t n = wr_srv_io_send(c, c->wbuf + c->woff, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			wr_srv_conn_close(s, c);
			return false;
		}
		c->woff += (size_t)n;
		c->wrote += (size_t)n;
		c->wprog_ms = wr_srv_now_ms();
	}
	if (wr_srv_queued(c) == 0) {
		c->woff = c->wlen = 0;
		if (c->wcap > BUF_KEEP) {
			free(c->wbuf);
			c->wbuf = NULL;
			c->wcap = 0;
		}
	}
	if (c->held && wr_srv_queued(c) <= WQ_LOW) {
		c->held = false;
		wr_srv_set_ready(s, c, true); /* requests it sent meanwhile */
	}
	if (c->closing && wr_srv_queued(c) == 0) {
		wr_srv_web_linger(c);
		wr_srv_conn_close(s, c);
		return false;
	}
	wr_srv_conn_watch(s, c);
	return true;
}

/* Queue @p a then @p b (@p an and @p bn bytes) and try to send them.
 * @return false when the connection is closed: it broke, or it does not
 * read what it is sent. */
bool
wr_srv_conn_queue(struct server *s, struct conn *c, const void *a, size_t an,
		  const void *b, size_t bn)
{
	size_t n = an + bn, need;

	if (c->fd < 0)
		return false;
	if (wr_srv_queued(c) >= WQ_HIGH && wr_srv_queued(c) + n > WQ_MAX) {
		SRV_LOG(NOTICE, "connection %u closed: it does not read its "
			"replies (%zu bytes queued)\n", c->id, wr_srv_queued(c));
		wr_srv_conn_close(s, c);
		return false;
	}
	if (wr_srv_queued(c) == 0)
		c->wprog_ms = wr_srv_now_ms();
	/* Keep what is queued at the front once half the buffer is sent. */
	if (c->woff > 0 && c->woff >= wr_srv_queued(c)) {
		memmove(c->wbuf, c->wbuf + c->woff, wr_srv_queued(c));
		c->wlen -= c->woff;
		c->woff = 0;
	}
	need = c->wlen + n;
	if (need > c->wcap) {
		size_t cap = c->wcap ? c->wcap : BUF_MIN;
		char *nb;

		while (cap < need)
			cap *= 2;
		nb = realloc(c->wbuf, cap);
		if (nb == NULL) {
			wr_srv_conn_close(s, c);
			return false;
		}
		c->wbuf = nb;
		c->wcap = cap;
	}
	memcpy(c->wbuf + c->wlen, a, an);
	if (bn > 0)
		memcpy(c->wbuf + c->wlen + an, b, bn);
	c->wlen += n;
	return wr_srv_conn_flush(s, c);
}

/* Queue a line (taken over) and try to send it: as it is, or over the
 * console's WebSocket as one text message (without its newline).
 * @return false when the connection is closed (conn_queue()). */
bool
wr_srv_conn_send(struct server *s, struct conn *c, char *line)
{
	uint8_t hdr[10];
	size_t n, h;
	bool ok;

	/* wr_srv_call(): the reply goes back to the handler that called
	 * (the OTG side), whatever the method's way of sending it. */
	if (c->sinking) {
		free(c->sink);
		c->sink = line;
		return true;
	}
	if (c->fd < 0) {
		free(line);
		return false;
	}
	if (line == NULL)
		return true; /* out of memory: the client times out */
	n = strlen(line);
	if (c->proto != PROTO_WS) {
		ok = wr_srv_conn_queue(s, c, line, n, NULL, 0);
	} else {
		if (n > 0 && line[n - 1] == '\n')
			n--;
		h = wr_ws_head(hdr, WR_WS_TEXT, n);
		ok = wr_srv_conn_queue(s, c, hdr, h, line, n);
	}
	free(line);
	return ok;
}

bool
wr_srv_reply_error(struct server *s, struct conn *c, json_t *id, int code,
		   json_t *data, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

bool
wr_srv_reply_error(struct server *s, struct conn *c, json_t *id, int code,
		   json_t *data, const char *fmt, ...)
{
	struct wr_rpc_error err;
	va_list ap;

	if (c->quiet) {
		json_decref(data);
		return true;
	}
	memset(&err, 0, sizeof(err));
	err.code = code;
	va_start(ap, fmt);
	vsnprintf(err.message, sizeof(err.message), fmt, ap);
	va_end(ap);
	return wr_srv_conn_send(s, c, wr_rpc_reply_error(id, &err, data));
}

/* ---- events ---- */

void
wr_srv_event_push(struct server *s, const char *type, json_t *ev)
{
	struct conn *c;
	uint64_t slot;

	if (ev == NULL)
		ev = json_object();
	if (ev == NULL)
		return;
	s->ev_seq++;
	json_object_set_new(ev, "seq", json_integer((json_int_t)s->ev_seq));
	json_object_set_new(ev, "type", json_string(type));
	json_object_set_new(ev, "time", json_real(wr_srv_wall_s()));
	slot = s->ev_seq % EVENTS_MAX;
	json_decref(s->ev[slot]);
	s->ev[slot] = ev;
	for (c = s->conns; c != NULL; c = c->next)
		if (c->subscribed)
			wr_srv_conn_send(s, c, wr_rpc_notification("event",
								   json_incref(ev)));
}

/* ---- web ---- */

/* A request may be this long: a login line before the login (over TCP or
 * the console's WebSocket). */
static size_t
request_max(const struct conn *c)
{
	return c->tcp && !c->authed ? PREAUTH_REQUEST_MAX : WR_RPC_REQUEST_MAX;
}

/* Before closing a console connection: no more from us, and what the
 * client already sent is read and dropped (a close with unread bytes would
 * reset the connection, and the client might lose the refusal it was
 * sent, such as a 413 while it still sends its body). */
void
wr_srv_web_linger(struct conn *c)
{
	char sink[4096];
	unsigned int i;

	if (c->proto == PROTO_RPC || c->fd < 0)
		return;
	wr_srv_tls_close(c); /* its close_notify first */
	shutdown(c->fd, SHUT_WR);
	for (i = 0; i < 16 && recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT) > 0;
	     i++)
		;
}

/* A control frame (a pong, a close) of @p len bytes. */
static void
ws_control(struct server *s, struct conn *c, uint8_t op, const void *data,
	   size_t len)
{
	uint8_t hdr[10];
	size_t h = wr_ws_head(hdr, op, len);

	wr_srv_conn_queue(s, c, hdr, h, data, len);
}

/* Close the WebSocket with @p code once the close frame is written. */
static void
ws_close(struct server *s, struct conn *c, uint16_t code)
{
	uint8_t b[2] = { (uint8_t)(code >> 8), (uint8_t)code };

	if (c->closing || c->fd < 0)
		return;
	c->closing = true;
	ws_control(s, c, WR_WS_CLOSE, b, sizeof(b));
	if (c->fd >= 0)
		wr_srv_conn_watch(s, c);
}

/* The console's HTTP request at the front of the buffer: answered (an
 * asset, an error) and closed once written, or upgraded to the WebSocket.
 * @return the bytes of the head (0: more needed, -1: answered and closing,
 * or closed). */
static ssize_t
web_http(struct server *s, struct conn *c)
{
	struct wr_http_req req;
	ssize_t n;
	int status = 400;

	n = wr_http_parse(c->rbuf + c->roff, c->rlen - c->roff, &req, &status);
	if (n == 0)
		return 0;
	return wr_srv_web_answer(s, c, n, &req, status);
}

/* The console's answer, on its --http listener or on --otg's (whose token
 * and TLS it then takes). */
ssize_t
wr_srv_web_answer(struct server *s, struct conn *c, ssize_t n,
		  const struct wr_http_req *req_in, int status)
{
	bool no_token = (c->otg ? s->o->otg_token : s->o->http_token)[0] == '\0';
	/* With a token anyone may have the page and log in: the peer's uid
	 * (always looked up on --otg, for its OTG paths) does not matter. */
	struct wr_http_policy pol = {
		.loopback_hosts = no_token,
		.foreign = c->foreign && no_token,
		.peer_uid = c->peer_uid,
		.own_uid = (uint32_t)geteuid(),
		.https = c->ssl != NULL,
	};
	struct wr_http_answer ans;
	struct wr_http_req req = *req_in;
	char head[2048], body[256];
	ssize_t h;

	if (n < 0) {
		memset(&ans, 0, sizeof(ans));
		ans.action = WR_HTTP_ANSWER_ERROR;
		ans.status = status;
		snprintf(ans.why, sizeof(ans.why), "%s", status == 431 ?
			 "request head longer than 8 KiB or with more than 64 "
			 "headers" : status == 414 ? "request target too long" :
			 status == 505 ? "HTTP/1.1 only" : "malformed request");
	} else {
		wr_http_route(&req, &pol, &ans);
	}
	/* A console client past --max-clients: refused like a TCP one. */
	if (ans.action == WR_HTTP_ANSWER_UPGRADE && pol.loopback_hosts &&
	    s->n_conns >= s->o->max_clients) {
		ans.action = WR_HTTP_ANSWER_ERROR;
		ans.status = 503;
		snprintf(ans.why, sizeof(ans.why), "the server has its "
			 "--max-clients (%u) clients", s->o->max_clients);
	}
	h = wr_http_head(&ans, n > 0 && strcmp(req.method, "HEAD") == 0, head,
			 sizeof(head));
	if (h < 0) {
		wr_srv_conn_close(s, c);
		return -1;
	}
	if (ans.action == WR_HTTP_ANSWER_UPGRADE) {
		/* Now a client: without a token it has logged in (the
		 * loopback only); with one, auth.login within LOGIN_MS. */
		if (pol.loopback_hosts && !c->authed &&
		    !wr_srv_promote(s, c)) {
			wr_srv_conn_close(s, c);
			return -1;
		}
		wr_srv_conn_queue(s, c, head, (size_t)h, NULL, 0);
		c->proto = PROTO_WS;
		memset(&c->ws, 0, sizeof(c->ws));
		return n;
	}
	c->closing = true;
	if (n > 0 && strcmp(req.method, "HEAD") == 0)
		wr_srv_conn_queue(s, c, head, (size_t)h, NULL, 0);
	else if (ans.action == WR_HTTP_ANSWER_ASSET && ans.status == 200)
		wr_srv_conn_queue(s, c, head, (size_t)h, ans.asset->data,
				  ans.asset->len);
	else if (ans.action == WR_HTTP_ANSWER_ASSET)
		wr_srv_conn_queue(s, c, head, (size_t)h, NULL, 0); /* 304 */
	else
		wr_srv_conn_queue(s, c, head, (size_t)h, body,
				  wr_http_error_body(&ans, body, sizeof(body)));
	return -1;
}

/* The next request of a WebSocket client: pings answered, a close
 * returned, a malformed or oversized frame refused with its close code.
 * @return > 0 the bytes to drop after handling the message at *msg
 * (*msg_len bytes); 0 more needed; -1 closing. */
static ssize_t
ws_next(struct server *s, struct conn *c, char **msg, size_t *msg_len)
{
	struct wr_ws_event ev;

	for (;;) {
		enum wr_ws_kind k = wr_ws_next(&c->ws,
			(uint8_t *)c->rbuf + c->roff, c->rlen - c->roff,
			request_max(c), &ev);

		switch (k) {
		case WR_WS_EV_MORE:
			c->roff += ev.consumed;
			return 0;
		case WR_WS_EV_TEXT:
			*msg = (char *)ev.data;
			*msg_len = ev.len;
			return (ssize_t)ev.consumed;
		case WR_WS_EV_PING:
			ws_control(s, c, WR_WS_PONG, ev.data, ev.len);
			break;
		case WR_WS_EV_PONG:
			break;
		case WR_WS_EV_CLOSE:
			ws_close(s, c, WR_WS_CLOSE_NORMAL);
			return -1;
		case WR_WS_EV_ERROR:
			if (ev.code == WR_WS_CLOSE_TOO_BIG)
				SRV_LOG(NOTICE, "connection %u closed: a "
					"WebSocket message over %zu bytes\n",
					c->id, request_max(c));
			ws_close(s, c, ev.code);
			return -1;
		}
		if (c->fd < 0 || c->closing)
			return -1;
		c->roff += ev.consumed;
	}
}

/* ---- connections ---- */

/* Closed now; freed at the end of the turn (conn_reap()), so that a
 * pointer to it met later in the same turn (an epoll event, the list being
 * walked) still reads fd -1.  Idempotent. */
void
wr_srv_conn_close(struct server *s, struct conn *c)
{
	struct conn **pp;

	if (c->fd < 0)
		return;
	epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
	wr_srv_tls_close(c);
	close(c->fd);
	c->fd = -1;
	for (pp = &s->conns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	if (c->pslot >= 0) {
		s->pre[c->pslot] = NULL;
		s->n_preauth--;
	} else {
		s->n_conns--;
	}
	wr_srv_set_ready(s, c, false);
	wr_srv_conn_leave(s, c);
	c->waiting = false;
	/* Keeps c->next: a walk of the list standing on c goes on. */
	c->dead_next = s->dead;
	s->dead = c;
}

void
wr_srv_conn_reap(struct server *s)
{
	struct conn *keep = NULL;

	/* A turn inside a handler's wait for another server
	 * (wr_server_otg_remote.c): the outer turn's events may still point
	 * at any connection closed now, freed once the outermost turn ends. */
	if (s->otg_nest > 0)
		return;
	while (s->dead != NULL) {
		struct conn *c = s->dead;

		s->dead = c->dead_next;
		/* Closed in a turn its OTG request's handler ran: freed
		 * after the handler returns (a later reap). */
		if (c->in_otg) {
			c->dead_next = keep;
			keep = c;
			continue;
		}
		json_decref(c->wait_id);
		json_decref(c->stop_id);
		free(c->sink);
		free(c->rbuf);
		free(c->wbuf);
		free(c);
	}
	s->dead = keep;
}

/* The oldest TCP connection that has not logged in. */
static struct conn *
preauth_oldest(struct server *s)
{
	struct conn *o = NULL;
	unsigned int i;

	for (i = 0; i < PREAUTH_MAX; i++)
		if (s->pre[i] != NULL && (o == NULL || s->pre[i]->id < o->id))
			o = s->pre[i];
	return o;
}

static void
peer_name(struct conn *c, const struct sockaddr_storage *sa)
{
	const void *a = NULL;
	unsigned int port = 0;

	if (sa->ss_family == AF_INET) {
		a = &((const struct sockaddr_in *)sa)->sin_addr;
		port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	} else if (sa->ss_family == AF_INET6) {
		a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
		port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	}
	if (a == NULL || inet_ntop(sa->ss_family, a, c->addr,
				   sizeof(c->addr)) == NULL)
		snprintf(c->addr, sizeof(c->addr), "?");
	snprintf(c->peer, sizeof(c->peer), "%s:%u", c->addr, port);
}

/* The uid owning the TCP socket whose local end is @p peer and remote end
 * @p me (the client's end of a console connection), asked of the kernel by
 * its address (sock_diag, an exact lookup in its hash table: ss(8)'s
 * interface).  -1 when the kernel has no sock_diag for TCP or no such
 * socket.  /proc/net/tcp, the fallback, is the whole table: read whole for
 * every connection it cost 7 ms a connection with a few hundred sockets in
 * TIME_WAIT (tools/wr-bench-weblibs: 96 % of the loop's system time at
 * 150 connections a second), 20 µs this way. */
static int
peer_uid_diag(const struct sockaddr_in *peer, const struct sockaddr_in *me,
	      uint32_t *uid)
{
	struct {
		struct nlmsghdr nh;
		struct inet_diag_req_v2 r;
	} req = {
		.nh = { .nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST },
		.r = { .sdiag_family = AF_INET, .sdiag_protocol = IPPROTO_TCP,
		       .idiag_states = ~0u,
		       .id = { .idiag_sport = peer->sin_port,
			       .idiag_dport = me->sin_port,
			       .idiag_src = { peer->sin_addr.s_addr },
			       .idiag_dst = { me->sin_addr.s_addr },
			       .idiag_cookie = { INET_DIAG_NOCOOKIE,
						 INET_DIAG_NOCOOKIE } } },
	};
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	union {
		struct nlmsghdr nh;
		char b[1024];
	} ans;
	const struct inet_diag_msg *m;
	int rc = -1, nfd;
	ssize_t n;

	nfd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nfd < 0)
		return -1;
	if (sendto(nfd, &req, sizeof(req), 0, (struct sockaddr *)&nl,
		   sizeof(nl)) == (ssize_t)sizeof(req)) {
		do
			n = recv(nfd, &ans, sizeof(ans), 0);
		while (n < 0 && errno == EINTR);
		if (n >= (ssize_t)NLMSG_LENGTH(sizeof(*m)) &&
		    NLMSG_OK(&ans.nh, (size_t)n) &&
		    ans.nh.nlmsg_type == SOCK_DIAG_BY_FAMILY) {
			m = NLMSG_DATA(&ans.nh);
			if (m->id.idiag_sport == peer->sin_port &&
			    m->id.idiag_dport == me->sin_port &&
			    m->id.idiag_src[0] == peer->sin_addr.s_addr &&
			    m->id.idiag_dst[0] == me->sin_addr.s_addr) {
				*uid = m->idiag_uid;
				rc = 0;
			}
		}
	}
	close(nfd);
	return rc;
}

/* The uid owning the client's end of the console connection @p fd whose
 * peer is @p sa (IPv4; the console listens on IPv4 only): from the
 * kernel's socket table, UINT32_MAX when it is not found there. */
uint32_t
wr_srv_peer_uid(int fd, const struct sockaddr_storage *sa)
{
	const struct sockaddr_in *peer = (const struct sockaddr_in *)sa;
	struct sockaddr_in me;
	socklen_t ml = sizeof(me);
	size_t len = 0, cap = 64 << 10;
	char *buf = NULL, *nb;
	uint32_t uid = UINT32_MAX;
	ssize_t n;
	int tfd;

	if (sa->ss_family != AF_INET ||
	    getsockname(fd, (struct sockaddr *)&me, &ml) != 0)
		return UINT32_MAX;
	if (peer_uid_diag(peer, &me, &uid) == 0)
		return uid;
	tfd = open("/proc/net/tcp", O_RDONLY | O_CLOEXEC);
	if (tfd < 0)
		return UINT32_MAX;
	/* The whole table (a line per socket of this network namespace);
	 * 64 MiB is a million sockets, past which the peer is refused. */
	for (;;) {
		if (buf == NULL || len == cap) {
			if (buf != NULL)
				cap *= 2;
			nb = cap <= (64u << 20) ? realloc(buf, cap) : NULL;
			if (nb == NULL)
				break;
			buf = nb;
		}
		n = read(tfd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 && wr_http_peer_uid(buf, len,
					peer->sin_addr.s_addr, ntohs(peer->sin_port),
					me.sin_addr.s_addr, ntohs(me.sin_port),
					&uid) != 0)
				uid = UINT32_MAX;
			break;
		}
		len += (size_t)n;
	}
	close(tfd);
	free(buf);
	return uid;
}

/* Whether @p uid is a member of group @p gid (primary or supplementary), as
 * the Unix socket of --socket-group lets it in. */
bool
wr_srv_uid_in_group(uint32_t uid, int64_t gid)
{
	struct passwd pw, *res = NULL;
	gid_t groups[256];
	int n = (int)RTE_DIM(groups), i;
	char buf[4096];

	if (gid < 0 || uid == UINT32_MAX ||
	    getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) != 0 ||
	    res == NULL)
		return false;
	if (pw.pw_gid == (gid_t)gid)
		return true;
	if (getgrouplist(pw.pw_name, pw.pw_gid, groups, &n) < 0)
		return false;
	for (i = 0; i < n; i++)
		if (groups[i] == (gid_t)gid)
			return true;
	return false;
}

/* A Unix client is its uid (SO_PEERCRED, the kernel's word). */
static void
unix_principal(struct conn *c, int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0)
		snprintf(c->principal, sizeof(c->principal), "uid:%u",
			 (unsigned int)cr.uid);
}

/* Accept up to ACCEPT_TURN connections.  A Unix one counts against
 * --max-clients (past it: closed at once); a TCP one goes to the pre-login
 * pool, closing the oldest there when full, and has LOGIN_MS to log in. */
void
wr_srv_conn_accept(struct server *s, int lfd, bool tcp, enum conn_proto proto)
{
	unsigned int i;

	for (i = 0; i < ACCEPT_TURN; i++) {
		struct sockaddr_storage sa;
		socklen_t sl = sizeof(sa);
		struct epoll_event ev = { .events = EPOLLIN };
		int fd = accept4(lfd, (struct sockaddr *)&sa, &sl,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c;
		unsigned int slot;

		if (fd < 0)
			return;
		if (tcp && s->n_preauth >= PREAUTH_MAX &&
		    (c = preauth_oldest(s)) != NULL)
			wr_srv_conn_close(s, c);
		if ((!tcp && s->n_conns >= s->o->max_clients) ||
		    (c = calloc(1, sizeof(*c))) == NULL) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->tcp = tcp;
		c->proto = proto;
		c->id = ++s->next_id;
		c->pslot = -1;
		c->last_ms = wr_srv_now_ms();
		if (tcp) {
			int one = 1;

			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			peer_name(c, &sa);
			/* The console without a token is its server's user's,
			 * as the Unix socket is: others get 403 for all. */
			/* On --otg too, where the server's user needs no
			 * token (others: a token or a certificate). */
			if ((proto == PROTO_HTTP && s->o->http_token[0] == '\0') ||
			    proto == PROTO_OTG) {
				c->peer_uid = wr_srv_peer_uid(fd, &sa);
				c->foreign = c->peer_uid != (uint32_t)geteuid() &&
					     !wr_srv_uid_in_group(c->peer_uid,
							   s->o->socket_gid);
				if (!c->foreign)
					snprintf(c->principal,
						 sizeof(c->principal), "uid:%u",
						 c->peer_uid);
			}
			c->login_deadline_ms = c->last_ms + LOGIN_MS;
			c->otg = proto == PROTO_OTG;
			if (c->otg && !wr_srv_tls_conn(s, c)) {
				close(fd);
				free(c);
				continue;
			}
		} else {
			unix_principal(c, fd);
			if (!wr_srv_conn_own_session(s, c)) {
				close(fd);
				free(c);
				continue;
			}
		}
		ev.data.ptr = c;
		if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
			wr_srv_conn_leave(s, c);
			wr_srv_tls_close(c);
			close(fd);
			free(c);
			continue;
		}
		c->ev_mask = EPOLLIN;
		if (tcp) {
			for (slot = 0; slot < PREAUTH_MAX - 1 &&
			     s->pre[slot] != NULL; slot++)
				;
			s->pre[slot] = c;
			c->pslot = (int)slot;
			s->n_preauth++;
		} else {
			s->n_conns++;
		}
		c->next = s->conns;
		s->conns = c;
	}
}

/* The buffer a connection may fill: a request, a request head of the
 * console, or a WebSocket message with its frames' headers. */
static size_t
buf_max(const struct conn *c)
{
	return c->proto == PROTO_HTTP ? WR_HTTP_HEAD_MAX :
	       c->proto == PROTO_WS ? request_max(c) + WS_SLACK :
	       c->proto == PROTO_OTG ? WR_HTTP_HEAD_MAX + (c->authed ?
					WR_HTTP_BODY_MAX : 0) :
	       WR_RPC_REQUEST_MAX;
}

/* The next request in the connection's buffer, in its framing.  @return
 * > 0 the bytes to drop once the request at *msg (*len bytes; NULL: none,
 * the console's HTTP head) is handled; 0 more needed; -1 closing or
 * closed (answered). */
static ssize_t
next_request(struct server *s, struct conn *c, char **msg, size_t *len)
{
	ssize_t f;

	*msg = NULL;
	if (c->proto == PROTO_HTTP)
		return web_http(s, c);
	if (c->proto == PROTO_OTG)
		return s->otg_http(s, c);
	if (c->proto == PROTO_WS)
		return ws_next(s, c, msg, len);
	f = wr_rpc_frame(c->rbuf + c->roff, c->rlen - c->roff, request_max(c));
	if (f < 0) {
		/* Too long: refused without reading the rest. */
		wr_srv_reply_error(s, c, NULL, WR_RPC_E_REQUEST, NULL,
				   "request longer than %zu bytes: refused, "
				   "connection closed", request_max(c));
		wr_srv_conn_close(s, c);
		return -1;
	}
	*msg = c->rbuf + c->roff;
	*len = (size_t)f;
	return f;
}

/* Whether a request waits in the buffer (a WebSocket's bytes are only
 * looked at once: they are unmasked in place). */
static bool
request_waits(const struct conn *c)
{
	if (c->proto != PROTO_RPC)
		return c->rlen > c->roff;
	return wr_rpc_frame(c->rbuf + c->roff, c->rlen - c->roff,
			    request_max(c)) != 0;
}

/* One turn of a connection: answer up to TURN_REQS of its requests,
 * reading at most TURN_READ bytes; stop at WQ_HIGH bytes of unread
 * replies (held until it takes them).  Whole requests left over wait for
 * the next turn (ready); more bytes in the socket are epoll's to report. */
void
wr_srv_conn_serve(struct server *s, struct conn *c)
{
	unsigned int reqs = 0;
	size_t got = 0;

	if (c->fd < 0 || c->turn == s->turn || c->in_otg)
		return;
	wr_srv_set_ready(s, c, false); /* held: made ready again once unheld */
	if (c->held || c->parked)
		return;
	c->turn = s->turn;
	for (;;) {
		ssize_t f, n;
		char *msg;
		size_t len = 0;

		if (c->fd < 0 || c->closing || c->parked)
			return;
		if (wr_srv_queued(c) >= WQ_HIGH) {
			c->held = true;
			wr_srv_conn_watch(s, c);
			return;
		}
		if (reqs == TURN_REQS) {
			if (request_waits(c) || wr_srv_io_pending(c))
				wr_srv_set_ready(s, c, true);
			return;
		}
		f = next_request(s, c, &msg, &len);
		if (f < 0)
			return;
		if (f > 0) {
			if (msg != NULL) {
				reqs++;
				c->spoke = true;
				if (!s->handle_line(s, c, msg, len)) {
					wr_srv_conn_close(s, c);
					return;
				}
			}
			c->roff += (size_t)f;
			continue;
		}
		memmove(c->rbuf, c->rbuf + c->roff, c->rlen - c->roff);
		c->rlen -= c->roff;
		c->roff = 0;
		if (c->rlen == 0 && c->rcap > BUF_KEEP) {
			free(c->rbuf);
			c->rbuf = NULL;
			c->rcap = 0;
		}
		if (got >= TURN_READ) {
			/* Level-triggered: the rest next turn; what TLS
			 * decrypted already, epoll does not see. */
			if (wr_srv_io_pending(c))
				wr_srv_set_ready(s, c, true);
			return;
		}
		if (c->rlen == c->rcap && c->proto == PROTO_WS)
			c->rlen = wr_ws_compact(&c->ws, (uint8_t *)c->rbuf,
						c->rlen);
		if (c->rlen == c->rcap) {
			size_t cap = c->rcap ? 2 * c->rcap : BUF_MIN;
			char *nb;

			/* next_request() returned 0: the request is shorter
			 * than buf_max(), so it fits in that much. */
			if (cap > buf_max(c))
				cap = buf_max(c);
			if (cap <= c->rcap) {
				wr_srv_conn_close(s, c); /* cannot happen: a guard */
				return;
			}
			nb = realloc(c->rbuf, cap);
			if (nb == NULL) {
				wr_srv_conn_close(s, c);
				return;
			}
			c->rbuf = nb;
			c->rcap = cap;
		}
		n = wr_srv_io_recv(c, c->rbuf + c->rlen,
				   c->rcap - c->rlen < TURN_READ - got ?
				   c->rcap - c->rlen : TURN_READ - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (c->tls_wwant) /* its TLS must write first */
				wr_srv_conn_watch(s, c);
			return;
		}
		if (n <= 0) {
			wr_srv_conn_close(s, c);
			return;
		}
		c->rlen += (size_t)n;
		got += (size_t)n;
		c->last_ms = wr_srv_now_ms();
	}
}

/* ---- sockets ---- */

/* The Unix socket's path: room in sun_path, a directory that exists (the
 * default's is made), and nothing there but a socket no server answers on
 * (left by a server that died): that one is replaced, nothing else is. */
#define WR_SRV_SOCK_TMP_LEN 11

int
wr_srv_unix_path_check(const char *path, struct wr_error *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char dir[sizeof(a.sun_path)], *slash;
	struct stat st;
	int fd, rc;

	if (path[0] == '\0')
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--socket",
				    "expected a path (none: no Unix socket)");
	/* Room for the name it listens under before it is renamed
	 * (wr_srv_listen_unix(): ".PID", at most 11 characters). */
	if (strlen(path) + WR_SRV_SOCK_TMP_LEN >= sizeof(a.sun_path))
		return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0, "--socket",
				    "%.60s...: %zu characters, a Unix socket "
				    "path here has at most %zu", path,
				    strlen(path), sizeof(a.sun_path) - 1 -
				    WR_SRV_SOCK_TMP_LEN);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (strcmp(path, WR_SERVER_SOCK_DEFAULT) == 0)
		mkdir(dir, 0755); /* /run/wirerate; an existing one is fine */
	if (stat(dir, &st) != 0) {
		rc = -errno;
		return wr_error_set(err, rc, NULL, 0, 0, "--socket",
				    "%s: directory %s: %s", path, dir,
				    strerror(-rc));
	}
	if (!S_ISDIR(st.st_mode))
		return wr_error_set(err, -ENOTDIR, NULL, 0, 0, "--socket",
				    "%s: %s is %s, not a directory", path, dir,
				    wr_in_kind(st.st_mode));
	if (lstat(path, &st) != 0) {
		rc = -errno;
		if (rc == -ENOENT)
			return 0;
		return wr_error_set(err, rc, NULL, 0, 0, "--socket", "%s: %s",
				    path, strerror(-rc));
	}
	if (!S_ISSOCK(st.st_mode))
		return wr_error_set(err, -EEXIST, NULL, 0, 0, "--socket",
				    "%s exists and is %s: not replaced (give "
				    "another path, or remove it)", path,
				    wr_in_kind(st.st_mode));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		return wr_error_set(err, rc, NULL, 0, 0, "--socket",
				    "socket: %s", strerror(-rc));
	}
	rc = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 ? 0 : -errno;
	close(fd);
	if (rc == -ECONNREFUSED)
		return 0; /* nobody answers: left by a server that died */
	if (rc == 0 || rc == -EPROTOTYPE)
		return wr_error_set(err, -EADDRINUSE, NULL, 0, 0, "--socket",
				    "%s: a server already listens there: %s",
				    path, strerror(EADDRINUSE));
	return wr_error_set(err, rc, NULL, 0, 0, "--socket", "%s: %s", path,
			    strerror(-rc));
}

int
wr_srv_listen_unix(struct server *s, const char *path, struct wr_error *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char tmp[sizeof(a.sun_path)];
	mode_t old;
	int fd, rc, n;

	/* Checked before EAL (wr_server_check()); again now, as the path
	 * may have changed meanwhile. */
	rc = wr_srv_unix_path_check(path, err);
	if (rc != 0)
		return rc;
	/* Bound, given its mode and listening under a name of its own, then
	 * renamed to @p path: a client that sees the path can connect at
	 * once (a test connecting as soon as the file appeared was refused
	 * between bind() and listen() on a busy machine). */
	n = snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0, "--socket",
				    "%s: the path is too long for a Unix "
				    "socket", path);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", tmp);
	unlink(tmp); /* left by a server of this pid that died */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "socket: %s", strerror(errno));
	/* Created 0600 from the start: no window where others connect. */
	old = umask(077);
	rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	/* With --socket-group, its members too: the group first, then the
	 * mode, so that no moment lets others in. */
	if (rc == 0 && s->o->socket_gid >= 0 &&
	    (chown(tmp, (uid_t)-1, (gid_t)s->o->socket_gid) != 0 ||
	     chmod(tmp, 0660) != 0))
		rc = -1;
	if (rc != 0 || (s->o->socket_gid < 0 && chmod(tmp, 0600) != 0) ||
	    listen(fd, 128) != 0 || rename(tmp, path) != 0) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "cannot listen on %s: %s", path,
				    strerror(-rc));
	}
	snprintf(s->unix_path, sizeof(s->unix_path), "%s", path);
	s->ufd = fd;
	return 0;
}

/* A TCP listener on @p host:@p port (option @p opt); @p listen_now false
 * only tries the bind (before EAL) and closes it. */
int
wr_srv_open_tcp(const char *opt, const char *host, uint16_t port, bool listen_now,
		int *fd_out, struct wr_error *err)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd, one = 1, rc;

	if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, opt,
				    "expected an IPv4 address, got \"%s\"",
				    host);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    (listen_now && listen(fd, 128) != 0)) {
		rc = -errno;
		close(fd);
		return wr_error_set(err, rc, NULL, 0, 0, opt,
				    "cannot listen on %s:%u: %s", host, port,
				    strerror(-rc));
	}
	if (!listen_now) {
		close(fd);
		fd = -1;
	}
	*fd_out = fd;
	return 0;
}

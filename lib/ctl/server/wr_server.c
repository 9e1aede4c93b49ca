/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server: the epoll loop, its timers and options, output, events, sessions and ownership of `wirerate serve` (the methods: wr_server_methods.c; jobs and captures: wr_server_jobs.c; sockets, connections and the console: wr_server_io.c). */
#include "wr_server_priv.h"

RTE_LOG_REGISTER_SUFFIX(wr_server_logtype, server, NOTICE);

const char *const wr_srv_state_names[] = { "idle", "running", "done", "bench" };
const char *const wr_srv_job_state_names[] = { "queued", "running", "done",
						"failed", "cancelled" };
const char *const wr_srv_kind_names[] = { "sweep", "rfc2544", "rtt" };

uint64_t
wr_srv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

double
wr_srv_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

	ev.events = (c->held || c->parked || c->closing ? 0 : EPOLLIN) |
		    (wr_srv_queued(c) > 0 ? EPOLLOUT : 0);
	if (c->fd < 0 || ev.events == c->ev_mask)
		return;
	c->ev_mask = ev.events;
	epoll_ctl(s->ep, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Write what is queued, up to this turn's TURN_WRITE; a held connection
 * whose queue fell to WQ_LOW is read again.  @return false when the
 * connection broke (and was closed). */
static bool
conn_flush(struct server *s, struct conn *c)
{
	if (c->wturn != s->turn) {
		c->wturn = s->turn;
		c->wrote = 0;
	}
	while (wr_srv_queued(c) > 0 && c->wrote < TURN_WRITE) {
		size_t len = wr_srv_queued(c) < TURN_WRITE - c->wrote ? wr_srv_queued(c) :
			     TURN_WRITE - c->wrote;
		ssize_t n = send(c->fd, c->wbuf + c->woff, len,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

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
	return conn_flush(s, c);
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

/* ---- sessions ---- */

struct session *
wr_srv_session_find(struct server *s, const char *name)
{
	struct session *x;

	for (x = s->sessions; x != NULL; x = x->next)
		if (strcmp(x->name, name) == 0)
			return x;
	return NULL;
}

/* A new session with a fresh secret; NULL when out of memory or random
 * bytes.  It lives once a connection joins it. */
struct session *
wr_srv_session_new(struct server *s, const char *name, const char *principal)
{
	struct session *x = calloc(1, sizeof(*x));

	if (x == NULL)
		return NULL;
	if (wr_auth_secret_new(x->secret, sizeof(x->secret)) != 0) {
		free(x);
		return NULL;
	}
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->principal, sizeof(x->principal), "%s", principal);
	x->next = s->sessions;
	s->sessions = x;
	return x;
}

/* Forget a session no connection acts as and that owns nothing. */
static void
session_unref(struct server *s, struct session *x)
{
	struct session **pp;

	if (x->n_conns > 0 || x->n_ports > 0)
		return;
	for (pp = &s->sessions; *pp != NULL; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			break;
		}
	free(x);
}

void
wr_srv_port_set_owner(struct server *s, unsigned int p, struct session *x)
{
	struct session *old = s->owner[p];

	s->orphan_ms[p] = 0;
	if (old == x)
		return;
	s->owner[p] = x;
	if (x != NULL)
		x->n_ports++;
	if (old != NULL) {
		old->n_ports--;
		session_unref(s, old);
	}
}

/* The connection stops acting as its session.  The last connection of a
 * session that owns ports leaves them owned for owner_timeout (its client
 * may come back with the secret); then they are released. */
void
wr_srv_conn_leave(struct server *s, struct conn *c)
{
	struct session *x = c->sess;
	unsigned int p;

	if (x == NULL)
		return;
	c->sess = NULL;
	x->n_conns--;
	for (p = 0; x->n_conns == 0 && p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			s->orphan_ms[p] = wr_srv_now_ms() + s->owner_ms;
	session_unref(s, x);
}

void
wr_srv_conn_join(struct server *s, struct conn *c, struct session *x)
{
	unsigned int p;

	if (c->sess == x)
		return;
	x->n_conns++;
	wr_srv_conn_leave(s, c);
	c->sess = x;
	for (p = 0; p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			s->orphan_ms[p] = 0;
}

/* A connection's own session, "conn-ID" (client names never start so). */
bool
wr_srv_conn_own_session(struct server *s, struct conn *c)
{
	char name[SESSION_MAX];
	struct session *x;

	snprintf(name, sizeof(name), "conn-%u", c->id);
	x = wr_srv_session_new(s, name, c->principal);
	if (x == NULL)
		return false;
	wr_srv_conn_join(s, c, x);
	return true;
}

/* ---- ownership ---- */

/* The ports the selected streams send on (all loaded streams when none). */
uint64_t
wr_srv_ports_of(const struct server *s, const bool *sel)
{
	uint64_t m = 0;
	uint32_t i;

	if (!s->loaded)
		return 0;
	for (i = 0; i < s->f.n_streams; i++)
		if (sel == NULL || sel[i])
			m |= 1ull << s->f.streams[i].port;
	return m;
}

bool
wr_srv_owns(struct server *s, struct conn *c, json_t *id, uint64_t mask)
{
	unsigned int p;

	for (p = 0; p < s->e->n_ports; p++) {
		if (!(mask & (1ull << p)))
			continue;
		if (s->owner[p] == NULL) {
			wr_srv_reply_error(s, c, id, WR_RPC_E_OWNER, NULL,
				       "port %u is not acquired: call ports.acquire "
				       "first", p);
			return false;
		}
		if (s->owner[p] != c->sess) {
			wr_srv_reply_error(s, c, id, WR_RPC_E_OWNER,
				       json_pack("{s:i, s:s}", "port", p, "owner",
						 s->owner[p]->name),
				       "port %u is owned by session \"%s\": only it "
				       "changes the port's traffic (ports.acquire "
				       "with force: true takes it over)", p,
				       s->owner[p]->name);
			return false;
		}
	}
	return true;
}

/* ---- timers ---- */

static void
timers(struct server *s)
{
	uint64_t now = wr_srv_now_ms();
	struct conn *c, *next;
	unsigned int p;

	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		if (c->waiting && c->wait_deadline_ms != 0 &&
		    now >= c->wait_deadline_ms) {
			c->waiting = false;
			wr_srv_conn_send(s, c, wr_rpc_reply_result(c->wait_id,
				       json_pack("{s:s, s:b}", "state",
						 wr_srv_state_names[s->state], "timeout", 1)));
			json_decref(c->wait_id);
			c->wait_id = NULL;
			c->last_ms = now;
		}
		/* A client that never sent a whole request, or stopped in the
		 * middle of one, for the idle timeout: closed.  One that
		 * spoke and now waits between calls (a script sleeping through
		 * a trial) is left alone: max_clients bounds them.  A TCP
		 * client has LOGIN_MS to log in; one that takes none of its
		 * replies for the idle timeout is closed too. */
		if ((!c->spoke || c->rlen > c->roff) &&
		    now - c->last_ms >= s->idle_ms)
			wr_srv_conn_close(s, c);
		else if (c->tcp && !c->authed && now >= c->login_deadline_ms)
			wr_srv_conn_close(s, c);
		else if (wr_srv_queued(c) > 0 && now - c->wprog_ms >= s->idle_ms)
			wr_srv_conn_close(s, c);
	}
	for (p = 0; p < s->e->n_ports; p++)
		if (s->orphan_ms[p] != 0 && now >= s->orphan_ms[p]) {
			wr_srv_event_push(s, "owner_released", json_pack(
				       "{s:i, s:s}", "port", p, "session",
				       s->owner[p]->name));
			wr_srv_port_set_owner(s, p, NULL);
		}
	wr_srv_logins_summary(s, now);
	wr_srv_late_check(s);
	if (now >= s->next_link_ms) {
		s->next_link_ms = now + LINK_POLL_MS;
		for (p = 0; p < s->e->n_ports; p++) {
			struct rte_eth_link link;
			bool up;

			memset(&link, 0, sizeof(link));
			if (rte_eth_link_get_nowait(s->e->ports[p].port_id,
						    &link) != 0)
				continue;
			up = link.link_status == RTE_ETH_LINK_UP;
			if (up != s->link_up[p]) {
				s->link_up[p] = up;
				wr_srv_event_push(s, up ? "link_up" : "link_down",
						  json_pack("{s:i}", "port", p));
			}
		}
	}
}

/* ---- options ---- */

/* Room for every client: the soft descriptor limit (1,024 on many systems)
 * is raised to what --max-clients needs, or the default lowered to fit the
 * hard limit; an accept that fails for want of a descriptor would refuse
 * the Unix socket's clients too. */
static int
fd_limit(struct wr_server_opts *o, struct wr_error *err)
{
	struct rlimit rl;
	rlim_t need, room;
	bool dflt = o->max_clients == 0;

	if (dflt)
		o->max_clients = MAX_CLIENTS_DEFAULT;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 0;
	need = (rlim_t)o->max_clients + PREAUTH_MAX + FD_RESERVE;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
		room = rl.rlim_max > PREAUTH_MAX + FD_RESERVE + 16 ?
		       rl.rlim_max - PREAUTH_MAX - FD_RESERVE : 0;
		if (!dflt || room == 0)
			return wr_error_set(err, -EMFILE, NULL, 0, 0,
					    "--max-clients", "%u clients need "
					    "%llu file descriptors; the limit "
					    "is %llu (ulimit -Hn)%s",
					    o->max_clients,
					    (unsigned long long)need,
					    (unsigned long long)rl.rlim_max,
					    room ? ": give fewer" : "");
		o->max_clients = (unsigned int)room;
		need = rl.rlim_max;
	}
	rl.rlim_cur = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
		return wr_error_set(err, -errno, NULL, 0, 0, "--max-clients",
				    "cannot raise the descriptor limit to "
				    "%llu: %s", (unsigned long long)need,
				    strerror(errno));
	return 0;
}

/* Whether @p host (IPv4, checked) is in 127.0.0.0/8. */
static bool
loopback_addr(const char *host)
{
	struct in_addr a;

	return inet_pton(AF_INET, host, &a) == 1 &&
	       (ntohl(a.s_addr) >> 24) == 127;
}

/* The console's options: an address that binds, and a token unless it
 * listens on the loopback only (doc/web.md). */
static int
http_check(struct wr_server_opts *o, struct wr_error *err)
{
	int fd, rc;

	o->http_token[0] = '\0';
	if (o->http_host == NULL)
		return 0;
	if (o->tcp_host != NULL && o->tcp_port == o->http_port &&
	    strcmp(o->tcp_host, o->http_host) == 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--http",
				    "%s:%u is --listen's address too: give the "
				    "console a port of its own", o->http_host,
				    o->http_port);
	rc = wr_srv_open_tcp("--http", o->http_host, o->http_port, false, &fd, err);
	if (rc != 0)
		return rc;
	if (o->http_token_file != NULL) {
		rc = wr_auth_token_load(o->http_token_file, o->http_token,
					sizeof(o->http_token), err);
		if (rc != 0 && err != NULL) /* the same checks, its option */
			snprintf(err->path, sizeof(err->path),
				 "--http-token-file");
		return rc;
	}
	if (o->token_file != NULL) {
		if (o->token[0] == '\0')
			rc = wr_auth_token_load(o->token_file, o->token,
						sizeof(o->token), err);
		snprintf(o->http_token, sizeof(o->http_token), "%s", o->token);
		return rc;
	}
	if (!loopback_addr(o->http_host))
		return wr_error_set(err, -EPERM, NULL, 0, 0, "--http",
				    "%s is not a loopback address: the console "
				    "there needs a token (--http-token-file "
				    "FILE, or --token-file FILE)", o->http_host);
	return 0;
}

int
wr_server_check(struct wr_server_opts *o, struct wr_error *err)
{
	int fd, rc;

	rc = fd_limit(o, err);
	if (rc != 0)
		return rc;

	if (o->unix_path != NULL && o->unix_path[0] == '\0' &&
	    o->tcp_host == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--socket",
				    "none without --listen: the server would "
				    "listen nowhere");
	if (o->unix_path == NULL || o->unix_path[0] != '\0') {
		rc = wr_srv_unix_path_check(o->unix_path ? o->unix_path :
					    WR_SERVER_SOCK_DEFAULT, err);
		if (rc != 0)
			return rc;
	}
	if (o->tcp_host == NULL)
		return http_check(o, err);
	if (o->token_file == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--listen",
				    "TCP needs --token-file FILE (a secret "
				    "only its owner can read)");
	rc = wr_srv_open_tcp("--listen", o->tcp_host, o->tcp_port, false, &fd, err);
	if (rc == 0)
		rc = wr_auth_token_load(o->token_file, o->token,
					sizeof(o->token), err);
	if (rc == 0)
		rc = http_check(o, err);
	return rc;
}

/* ---- the loop ---- */

/* One turn: what epoll reports (within @p timeout_ms; none when requests
 * wait from the last turn), then the requests left over, the traffic's
 * end, the timers.  From the loop, or from a benchmark's wait. */
void
wr_srv_server_turn(struct server *s, int timeout_ms)
{
	struct epoll_event evs[64];
	struct conn *c, *next;
	int n, i;

	n = epoll_wait(s->ep, evs, RTE_DIM(evs), s->n_ready > 0 ? 0 :
		       timeout_ms);
	s->turn++;
	for (i = 0; i < n; i++) {
		c = evs[i].data.ptr;
		if (evs[i].data.ptr == &s->ufd) {
			wr_srv_conn_accept(s, s->ufd, false, PROTO_RPC);
			continue;
		}
		if (evs[i].data.ptr == &s->tfd) {
			wr_srv_conn_accept(s, s->tfd, true, PROTO_RPC);
			continue;
		}
		if (evs[i].data.ptr == &s->hfd) {
			wr_srv_conn_accept(s, s->hfd, true, PROTO_HTTP);
			continue;
		}
		if (c->fd < 0)
			continue;
		if ((evs[i].events & EPOLLOUT) && !conn_flush(s, c))
			continue;
		if (evs[i].events & (EPOLLERR | EPOLLHUP) && c->held)
			wr_srv_conn_close(s, c); /* it will never read them */
		else if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
			wr_srv_conn_serve(s, c);
	}
	for (c = s->conns; s->n_ready > 0 && c != NULL; c = next) {
		next = c->next;
		if (c->ready)
			wr_srv_conn_serve(s, c);
	}
	wr_srv_traffic_tick(s);
	timers(s);
	wr_srv_conn_reap(s);
}

static void
server_free(struct server *s)
{
	unsigned int i;

	while (s->conns != NULL)
		wr_srv_conn_close(s, s->conns);
	wr_srv_conn_reap(s);
	for (i = 0; i < WR_PORTS_MAX && i < s->e->n_ports; i++)
		wr_srv_port_set_owner(s, i, NULL);
	if (s->ufd >= 0) {
		close(s->ufd);
		unlink(s->unix_path);
	}
	if (s->tfd >= 0)
		close(s->tfd);
	if (s->hfd >= 0)
		close(s->hfd);
	if (s->ep >= 0)
		close(s->ep);
	for (i = 0; i < EVENTS_MAX; i++)
		json_decref(s->ev[i]);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	free(s->base_hist);
	free(s->source);
	for (i = 0; i < s->n_jobs; i++)
		wr_srv_job_free(s->jobs[i]);
	/* Before the engine: the session's port and pool go before EAL. */
	wr_rtt_ses_close(s->rtt_ses);
	free(s);
}

int
wr_server_run(struct wr_engine *e, const struct wr_server_opts *o,
	      const volatile int *stop, struct wr_error *err)
{
	struct server *s = calloc(1, sizeof(*s));
	struct epoll_event ev;
	unsigned int p;
	int rc = 0;

	if (s == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	s->e = e;
	wr_session_init(&s->sess, e, &(struct wr_session_opts){
		.telemetry = true });
	s->o = o;
	s->stop = stop;
	s->ufd = s->tfd = s->hfd = -1;
	s->idle_ms = o->idle_timeout_ms ? o->idle_timeout_ms : 60000;
	s->owner_ms = o->owner_timeout_ms ? o->owner_timeout_ms : 30000;
	wr_auth_limit_init(&s->logins);
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	if (s->ep < 0)
		rc = wr_error_set(err, -errno, NULL, 0, 0, NULL, "epoll: %s",
				  strerror(errno));
	if (rc == 0 && o->tcp_host != NULL) {
		if (strlen(o->token) < WR_AUTH_TOKEN_MIN)
			rc = wr_error_set(err, -EINVAL, NULL, 0, 0,
					  "--token-file", "no token: the "
					  "options were not checked "
					  "(wr_server_check())");
		else
			rc = wr_srv_open_tcp("--listen", o->tcp_host, o->tcp_port,
					     true, &s->tfd, err);
	}
	if (rc == 0 && o->http_host != NULL)
		rc = wr_srv_open_tcp("--http", o->http_host, o->http_port, true,
				     &s->hfd, err);
	if (rc == 0 && (o->unix_path == NULL || o->unix_path[0] != '\0'))
		rc = wr_srv_listen_unix(s, o->unix_path ? o->unix_path :
					WR_SERVER_SOCK_DEFAULT, err);
	if (rc == 0)
		rc = wr_srv_caps_dir(s, err);
	if (rc != 0) {
		server_free(s);
		return rc;
	}
	ev.events = EPOLLIN;
	if (s->ufd >= 0) {
		ev.data.ptr = &s->ufd;
		epoll_ctl(s->ep, EPOLL_CTL_ADD, s->ufd, &ev);
	}
	if (s->tfd >= 0) {
		ev.data.ptr = &s->tfd;
		epoll_ctl(s->ep, EPOLL_CTL_ADD, s->tfd, &ev);
	}
	if (s->hfd >= 0) {
		ev.data.ptr = &s->hfd;
		epoll_ctl(s->ep, EPOLL_CTL_ADD, s->hfd, &ev);
	}
	for (p = 0; p < e->n_ports; p++)
		s->link_up[p] = e->ports[p].link_up;
	SRV_LOG(NOTICE, "serving on %s%s%s%s\n",
		s->ufd >= 0 ? s->unix_path : "",
		s->ufd >= 0 && s->tfd >= 0 ? " and " : "",
		s->tfd >= 0 ? o->tcp_host : "", s->tfd >= 0 ? " (TCP)" : "");
	if (s->hfd >= 0)
		SRV_LOG(NOTICE, "web console at http://%s:%u/%s\n",
			o->http_host, o->http_port, o->http_token[0] ? " (its "
			"token to log in)" : "");
	while (!*stop) {
		wr_srv_server_turn(s, s->state == ST_RUNNING ? TICK_RUN_MS :
				   TICK_IDLE_MS);
		/* A queued benchmark runs from here: its turns serve the
		 * connections while its trials run. */
		if (s->job != NULL)
			wr_srv_job_run(s);
	}
	wr_srv_finish_now(s, "signal", true);
	wr_srv_unbuild(s);
	wr_srv_caps_forget(s);
	server_free(s);
	return 0;
}

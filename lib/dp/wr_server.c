/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server: the epoll loop, connections, ownership, events and the JSON-RPC methods of `wirerate serve`. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_version.h>

#include "wr_auth.h"
#include "wr_engine_priv.h"
#include "wr_in.h"
#include "wr_rpc.h"
#include "wr_server.h"
#include "wr_tsc.h"
#include "wr_yaml.h"

RTE_LOG_REGISTER_SUFFIX(wr_server_logtype, server, NOTICE);
#define SRV_LOG(level, ...) \
	rte_log(RTE_LOG_##level, wr_server_logtype, "wirerate: " __VA_ARGS__)

#define SESSION_MAX 64
/* Events kept for events.poll: a client polling once a second misses none
 * unless a thousand streams end in that second. */
#define EVENTS_MAX 1024
/* Fairness (issue 17: twelve clients that sent and never read stalled
 * everyone's server.info for 24.7 s).  Each turn of the loop serves every
 * connection with work at most TURN_REQS requests, TURN_READ bytes read and
 * TURN_WRITE bytes written, so a request of another client waits for at
 * most one such share of each busy connection.  A connection with WQ_HIGH
 * bytes of replies queued is not read until it has taken all but WQ_LOW of
 * them; one whose queue passes WQ_MAX (events for a subscriber that does
 * not read) or that takes nothing for the idle timeout is closed.  WQ_HIGH
 * holds a few hundred stats.get replies of a small run; a reply is always
 * queued below WQ_HIGH, whatever its size. */
#define TURN_REQS 8
#define TURN_READ (64u << 10)
#define TURN_WRITE (256u << 10)
#define WQ_HIGH (256u << 10)
#define WQ_LOW (64u << 10)
#define WQ_MAX (4u << 20)
/* Buffers start small and grow to what a connection uses; a large one is
 * given back once empty. */
#define BUF_MIN 4096u
#define BUF_KEEP (64u << 10)
/* Connections accepted per listener per turn (a flood of connects does not
 * hold the loop). */
#define ACCEPT_TURN 32
/* TCP connections that have not logged in (doc/api.md): a pool of their own
 * (a new one closes the oldest when full), LOGIN_MS to log in, requests of
 * at most PREAUTH_REQUEST_MAX bytes.  The Unix socket and logged-in clients
 * share --max-clients and never wait for this pool. */
#define PREAUTH_MAX 64
#define LOGIN_MS 3000
#define PREAUTH_REQUEST_MAX 4096
/* Descriptors beside the clients': EAL's, the PMDs', the listeners. */
#define FD_RESERVE 64
#define MAX_CLIENTS_DEFAULT 1024
/* epoll wait while traffic runs: stream ends, durations and wait replies
 * are seen within 5 ms; idle, link changes within 200 ms. */
#define TICK_RUN_MS 5
#define TICK_IDLE_MS 200
#define LINK_POLL_MS 200
/* start_at more than a day ahead is a mistake (a date in ms, not s). */
#define START_AT_MAX_S (24 * 3600.0)
#define DRAIN_DEFAULT_NS (200 * 1000 * 1000ull)
/* Captures a server keeps (running or done, until server.reset). */
#define SRV_CAPS_MAX 32
/* capture.fetch: bytes per call at most (a reply of 1.4 MB of base64). */
#define CAP_FETCH_MAX (1u << 20)

enum srv_state { ST_IDLE, ST_RUNNING, ST_DONE };
static const char *const state_names[] = { "idle", "running", "done" };

/* A session owns ports.  Its name is public (ports.info, events); acting as
 * it takes its secret, which only the connection that made it is given
 * (ports.acquire's result) and which its client presents to join it again.
 * It lives while a connection acts as it or it owns a port. */
struct session {
	struct session *next;
	char name[SESSION_MAX];
	char secret[WR_AUTH_SECRET_LEN + 1];
	unsigned int n_conns;        /* connections acting as it */
	unsigned int n_ports;        /* ports it owns */
};

struct conn {
	struct conn *next;
	struct conn *dead_next;      /* closed, to be freed (conn_reap()) */
	int fd;                      /* -1: closed, freed at the end of the turn */
	unsigned int id;
	bool tcp, authed, subscribed;
	bool spoke;                  /* sent a whole request */
	bool quiet;                  /* handling a notification: no reply, not even an error */
	struct session *sess;        /* NULL only for TCP before its login */
	char peer[WR_AUTH_ADDR_MAX + 8]; /* TCP: "ADDR:PORT", for the log */
	char addr[WR_AUTH_ADDR_MAX];     /* TCP: ADDR, the login limiter's key */
	int pslot;                   /* TCP before login: its slot in the pool */
	uint64_t login_deadline_ms;
	char *rbuf;
	size_t rlen, roff, rcap;     /* requests from roff to rlen */
	char *wbuf;
	size_t wlen, woff, wcap;     /* replies from woff to wlen */
	uint32_t ev_mask;            /* what epoll watches */
	bool held;                   /* not read: its replies are not taken */
	bool ready;                  /* whole requests left for a later turn */
	uint64_t turn;               /* the turn it was last served in */
	uint64_t wturn;              /* the turn wrote counts in */
	size_t wrote;                /* bytes written in that turn */
	uint64_t wprog_ms;           /* replies last moved (or the queue was empty) */
	uint64_t last_ms;
	json_t *wait_id;             /* traffic.wait pending (may be JSON null) */
	bool waiting;
	uint64_t wait_deadline_ms;   /* 0: no timeout */
};

struct server {
	struct wr_engine *e;
	const struct wr_server_opts *o;
	const volatile int *stop;
	int ep, ufd, tfd;
	char unix_path[108];
	struct conn *conns;
	struct conn *dead;           /* closed this turn, freed at its end */
	unsigned int n_conns;        /* Unix and logged-in TCP: --max-clients */
	unsigned int n_preauth;      /* TCP before login: PREAUTH_MAX */
	struct conn *pre[PREAUTH_MAX];
	unsigned int next_id, n_ready;
	uint64_t turn;
	uint64_t idle_ms, owner_ms;
	struct session *sessions;
	struct wr_auth_limit logins;
	/* Ports: owning session (NULL none), release deadline of a vanished owner. */
	struct session *owner[WR_PORTS_MAX];
	uint64_t orphan_ms[WR_PORTS_MAX];
	bool link_up[WR_PORTS_MAX];
	uint64_t next_link_ms;
	/* Streams: the loaded set, and whether the engine has it built. */
	bool loaded, built;
	struct wr_stream_file f;
	enum srv_state state;
	bool paused[WR_STREAMS_MAX];
	bool ended[WR_STREAMS_MAX];
	bool stopped_some;           /* a traffic.stop of some streams */
	bool duration;               /* started with a duration */
	uint64_t run_count[WR_STREAMS_MAX]; /* each stream's count in this run, 0: none */
	uint64_t deadline_tsc;       /* duration: UINT64_MAX none */
	uint64_t drain_ns;
	char started_at[40];
	const char *reason;
	/* CLOCK_REALTIME and TSC read together at start: TSC instants to wall time. */
	double ref_wall;
	uint64_t ref_tsc;
	/* stats.clear baselines, subtracted from what stats.get reports. */
	bool have_base;
	struct wr_report_row base_ports[WR_PORTS_MAX];
	struct wr_report_row base_streams[WR_STREAMS_MAX];
	uint64_t base_elapsed_ns;
	struct wr_latency *base_hist;  /* per stream, WR_STREAMS_MAX, when cleared */
	/* Events, by sequence number (seq % EVENTS_MAX). */
	json_t *ev[EVENTS_MAX];
	uint64_t ev_seq;             /* sequence of the last event, 0: none */
	/* Captures (capture.*, section "captures" below). */
	struct srv_cap {
		bool used;
		enum { CAP_ARMED, CAP_RUNNING, CAP_DONE } state;
		unsigned int port;
		enum wr_cap_dir dir;
		struct wr_filter filter;
		bool has_filter;
		struct wr_cap_limits lim;
		char file[WR_CAP_PATH_MAX];
		int engine_id;           /* while running */
		struct wr_cap_status st; /* when done */
	} caps[SRV_CAPS_MAX];
	char cap_dir[WR_CAP_PATH_MAX - 64]; /* room for /capture-N-K.pcapng */
	bool cap_dir_made;           /* a temporary directory of ours */
};

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static double
wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- output ---- */

static void conn_close(struct server *s, struct conn *c);

static size_t
queued(const struct conn *c)
{
	return c->wlen - c->woff;
}

static void
set_ready(struct server *s, struct conn *c, bool ready)
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
static void
conn_watch(struct server *s, struct conn *c)
{
	struct epoll_event ev = { .data.ptr = c };

	ev.events = (c->held ? 0 : EPOLLIN) | (queued(c) > 0 ? EPOLLOUT : 0);
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
	while (queued(c) > 0 && c->wrote < TURN_WRITE) {
		size_t len = queued(c) < TURN_WRITE - c->wrote ? queued(c) :
			     TURN_WRITE - c->wrote;
		ssize_t n = send(c->fd, c->wbuf + c->woff, len,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			conn_close(s, c);
			return false;
		}
		c->woff += (size_t)n;
		c->wrote += (size_t)n;
		c->wprog_ms = now_ms();
	}
	if (queued(c) == 0) {
		c->woff = c->wlen = 0;
		if (c->wcap > BUF_KEEP) {
			free(c->wbuf);
			c->wbuf = NULL;
			c->wcap = 0;
		}
	}
	if (c->held && queued(c) <= WQ_LOW) {
		c->held = false;
		set_ready(s, c, true); /* requests it sent meanwhile */
	}
	conn_watch(s, c);
	return true;
}

/* Queue a line (taken over) and try to send it.  @return false when the
 * connection is closed: it broke, or it does not read what it is sent. */
static bool
conn_send(struct server *s, struct conn *c, char *line)
{
	size_t n, need;

	if (c->fd < 0) {
		free(line);
		return false;
	}
	if (line == NULL)
		return true; /* out of memory: the client times out */
	n = strlen(line);
	if (queued(c) >= WQ_HIGH && queued(c) + n > WQ_MAX) {
		free(line);
		SRV_LOG(NOTICE, "connection %u closed: it does not read its "
			"replies (%zu bytes queued)\n", c->id, queued(c));
		conn_close(s, c);
		return false;
	}
	if (queued(c) == 0)
		c->wprog_ms = now_ms();
	/* Keep what is queued at the front once half the buffer is sent. */
	if (c->woff > 0 && c->woff >= queued(c)) {
		memmove(c->wbuf, c->wbuf + c->woff, queued(c));
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
			free(line);
			conn_close(s, c);
			return false;
		}
		c->wbuf = nb;
		c->wcap = cap;
	}
	memcpy(c->wbuf + c->wlen, line, n);
	c->wlen += n;
	free(line);
	return conn_flush(s, c);
}

static bool
reply_error(struct server *s, struct conn *c, json_t *id, int code,
	    json_t *data, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static bool
reply_error(struct server *s, struct conn *c, json_t *id, int code,
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
	return conn_send(s, c, wr_rpc_reply_error(id, &err, data));
}

/* ---- events ---- */

static void
event_push(struct server *s, const char *type, json_t *ev)
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
	json_object_set_new(ev, "time", json_real(wall_s()));
	slot = s->ev_seq % EVENTS_MAX;
	json_decref(s->ev[slot]);
	s->ev[slot] = ev;
	for (c = s->conns; c != NULL; c = c->next)
		if (c->subscribed)
			conn_send(s, c, wr_rpc_notification("event",
							    json_incref(ev)));
}

/* ---- sessions ---- */

static struct session *
session_find(struct server *s, const char *name)
{
	struct session *x;

	for (x = s->sessions; x != NULL; x = x->next)
		if (strcmp(x->name, name) == 0)
			return x;
	return NULL;
}

/* A new session with a fresh secret; NULL when out of memory or random
 * bytes.  It lives once a connection joins it. */
static struct session *
session_new(struct server *s, const char *name)
{
	struct session *x = calloc(1, sizeof(*x));

	if (x == NULL)
		return NULL;
	if (wr_auth_secret_new(x->secret, sizeof(x->secret)) != 0) {
		free(x);
		return NULL;
	}
	snprintf(x->name, sizeof(x->name), "%s", name);
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

static void
port_set_owner(struct server *s, unsigned int p, struct session *x)
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
static void
conn_leave(struct server *s, struct conn *c)
{
	struct session *x = c->sess;
	unsigned int p;

	if (x == NULL)
		return;
	c->sess = NULL;
	x->n_conns--;
	for (p = 0; x->n_conns == 0 && p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			s->orphan_ms[p] = now_ms() + s->owner_ms;
	session_unref(s, x);
}

static void
conn_join(struct server *s, struct conn *c, struct session *x)
{
	unsigned int p;

	if (c->sess == x)
		return;
	x->n_conns++;
	conn_leave(s, c);
	c->sess = x;
	for (p = 0; p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			s->orphan_ms[p] = 0;
}

/* A connection's own session, "conn-ID" (client names never start so). */
static bool
conn_own_session(struct server *s, struct conn *c)
{
	char name[SESSION_MAX];
	struct session *x;

	snprintf(name, sizeof(name), "conn-%u", c->id);
	x = session_new(s, name);
	if (x == NULL)
		return false;
	conn_join(s, c, x);
	return true;
}

/* ---- ownership ---- */

/* The ports the selected streams send on (all loaded streams when none). */
static uint64_t
ports_of(const struct server *s, const bool *sel)
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

static bool
owns(struct server *s, struct conn *c, json_t *id, uint64_t mask)
{
	unsigned int p;

	for (p = 0; p < s->e->n_ports; p++) {
		if (!(mask & (1ull << p)))
			continue;
		if (s->owner[p] == NULL) {
			reply_error(s, c, id, WR_RPC_E_OWNER, NULL,
				"port %u is not acquired: call ports.acquire "
				"first", p);
			return false;
		}
		if (s->owner[p] != c->sess) {
			reply_error(s, c, id, WR_RPC_E_OWNER,
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

/* ---- streams ---- */

/* Stream selection from a "streams" member: sel[i] for each named stream.
 * @return false (and replied) when a name is unknown. */
static bool
select_streams(struct server *s, struct conn *c, json_t *id,
	       const struct wr_rpc_req *req, bool *sel, bool *all)
{
	json_t *names = wr_rpc_get(req, "streams"), *v;
	size_t i;

	memset(sel, 0, sizeof(bool) * WR_STREAMS_MAX);
	*all = names == NULL;
	if (!s->loaded) {
		reply_error(s, c, id, WR_RPC_E_STATE, NULL,
			    "no streams loaded: streams.load first");
		return false;
	}
	if (names == NULL) {
		for (i = 0; i < s->f.n_streams; i++)
			sel[i] = true;
		return true;
	}
	json_array_foreach(names, i, v) {
		int k = wr_stream_file_find(&s->f, json_string_value(v));

		if (k < 0) {
			reply_error(s, c, id, WR_RPC_E_NOTFOUND,
				    json_pack("{s:s}", "stream",
					      json_string_value(v)),
				    "no stream named \"%.64s\"",
				    json_string_value(v));
			return false;
		}
		sel[k] = true;
	}
	return true;
}

/* Streams of a sequenced port run by their order, not one by one: a
 * selection that splits such a port is refused.  @return false (replied). */
static bool
whole_sequences(struct server *s, struct conn *c, json_t *id, const bool *sel)
{
	uint32_t i, j;

	for (i = 0; i < s->f.n_streams; i++) {
		uint16_t port = s->f.streams[i].port;

		if (!wr_stream_file_port_sequenced(&s->f, port))
			continue;
		for (j = 0; j < s->f.n_streams; j++)
			if (s->f.streams[j].port == port && sel[j] != sel[i]) {
				reply_error(s, c, id, WR_RPC_E_STATE, NULL,
					"the streams of port %u run as a "
					"sequence (next:): select all of them "
					"or none", port);
				return false;
			}
	}
	return true;
}

/* The engine gives the loaded streams' contexts back (results go too). */
/* Captures (their section below): armed, begun, ended with runs. */
static void caps_prepare(struct server *s);
static void caps_begin(struct server *s);
static void caps_end(struct server *s);
static void caps_forget(struct server *s);
static int caps_dir(struct server *s, struct wr_error *err);

static void
unbuild(struct server *s)
{
	if (!s->built)
		return;
	caps_end(s);
	wr_engine_unload(s->e);
	s->built = false;
	s->state = ST_IDLE;
	s->have_base = false;
}

static json_t *
yaml_error_data(const struct wr_error *err, char *line, size_t len)
{
	wr_error_format(err, line, len);
	return json_pack("{s:s, s:i, s:i, s:s, s:s}", "file", err->file,
			 "line", err->line, "col", err->col, "path", err->path,
			 "message", line);
}

/* Parse, then check against this server's ports and build every template
 * (as `wirerate run` does before EAL): what loads here also starts. */
static int
parse_streams(struct server *s, const char *name, const char *text,
	      struct wr_stream_file *f, struct wr_error *err)
{
	int rc;

	rc = wr_yaml_load_streams_buf(name, text, strlen(text), f, err);
	if (rc != 0)
		return rc;
	rc = wr_engine_check_streams(f, s->e->n_ports, "this server", NULL,
				     err);
	if (rc != 0)
		wr_stream_file_free(f);
	else
		wr_engine_port_macs(s->e, f);
	return rc;
}

/* ---- traffic ---- */

static void
finish(struct server *s, const char *reason)
{
	struct conn *c;

	if (s->state != ST_RUNNING)
		return;
	wr_engine_stop(s->e, s->drain_ns);
	/* A capture covers the run it started in: it ends with it. */
	caps_end(s);
	wr_engine_collect(s->e, true);
	s->state = ST_DONE;
	s->reason = reason;
	event_push(s, "traffic_done", json_pack("{s:s}", "reason", reason));
	for (c = s->conns; c != NULL; c = c->next) {
		if (!c->waiting)
			continue;
		c->waiting = false;
		conn_send(s, c, wr_rpc_reply_result(c->wait_id, json_pack(
			"{s:s, s:s, s:b}", "state", "done", "stop_reason",
			reason, "timeout", 0)));
		json_decref(c->wait_id);
		c->wait_id = NULL;
	}
}

/* Every stream that has a count sent all of it. */
static bool
counts_done(struct server *s)
{
	struct wr_report_view *v = wr_engine_collect(s->e, false);
	uint32_t i;
	bool any = false;

	for (i = 0; i < s->f.n_streams && i < v->n_streams; i++) {
		if (s->run_count[i] == 0)
			continue;
		any = true;
		if (v->streams[i].total.tx_pkts < s->run_count[i])
			return false;
	}
	return any;
}

static void
traffic_tick(struct server *s)
{
	uint32_t i;

	if (s->state != ST_RUNNING)
		return;
	for (i = 0; i < s->f.n_streams; i++)
		if (!s->ended[i] && wr_engine_stream_done(s->e, i)) {
			s->ended[i] = true;
			event_push(s, "stream_ended", json_pack("{s:s, s:i}",
				"stream", s->f.streams[i].name, "index", i));
		}
	if (wr_engine_tx_finished(s->e))
		finish(s, s->stopped_some ? "stopped" :
		       s->duration && !counts_done(s) ? "duration" : "count");
	else if (rte_rdtsc() >= s->deadline_tsc)
		finish(s, "duration");
}

/* ---- stats ---- */

static void
row_sub(struct wr_report_row *r, const struct wr_report_row *b)
{
	r->total.tx_pkts -= b->total.tx_pkts;
	r->total.tx_bytes -= b->total.tx_bytes;
	r->total.tx_full -= b->total.tx_full;
	r->total.alloc_fail -= b->total.alloc_fail;
	r->duration_ns = r->duration_ns > b->duration_ns ?
		r->duration_ns - b->duration_ns : 0;
	r->pacer_skipped -= b->pacer_skipped;
	r->rx_pkts -= b->rx_pkts;
	r->lost = r->lost > b->lost ? r->lost - b->lost : 0;
	r->reordered -= b->reordered;
	r->duplicated -= b->duplicated;
	r->rx_foreign -= b->rx_foreign;
	r->rx_bad_sig -= b->rx_bad_sig;
	r->rx_hw_stamped -= b->rx_hw_stamped;
	if (r->has_nic && b->has_nic) {
		r->nic_opackets -= b->nic_opackets;
		r->nic_obytes -= b->nic_obytes;
		r->nic_oerrors -= b->nic_oerrors;
		r->nic_ipackets -= b->nic_ipackets;
		r->nic_ibytes -= b->nic_ibytes;
		r->nic_imissed -= b->nic_imissed;
		r->nic_ierrors -= b->nic_ierrors;
	}
}

static struct wr_report_view *
snapshot(struct server *s)
{
	return s->state == ST_RUNNING ? wr_engine_collect(s->e, false) :
		&s->e->view;
}

/* Stream @p i's echo histogram since the start or the last stats.clear. */
static bool
stream_hist(struct server *s, uint32_t i, struct wr_latency *h)
{
	if (!wr_engine_stream_hist(s->e, i, h))
		return false;
	if (s->have_base && s->base_hist != NULL)
		wr_latency_sub(h, &s->base_hist[i]);
	return true;
}

static json_t *
histogram_json(struct server *s, uint32_t i)
{
	static struct wr_latency h; /* main lcore only; too large for the stack */
	json_t *a = json_array();
	unsigned int b;

	if (a == NULL || !stream_hist(s, i, &h))
		return a;
	for (b = 0; b < WR_LATENCY_BUCKETS; b++) {
		uint64_t lo, hi;

		if (h.counts[b] == 0 || wr_latency_bucket_bounds(b, &lo, &hi))
			continue;
		json_array_append_new(a, json_pack("[I, I, I]", (json_int_t)lo,
			(json_int_t)(hi > INT64_MAX ? INT64_MAX : hi),
			(json_int_t)h.counts[b]));
	}
	return a;
}

static json_t *
stats_json(struct server *s, bool hist)
{
	static struct wr_report_row ports[WR_PORTS_MAX], streams[WR_STREAMS_MAX];
	struct wr_report_view *v, view;
	struct wr_report_meta meta;
	json_error_t jerr;
	json_t *j, *a, *x;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *mf;

	if (!s->built)
		return json_pack("{s:s, s:s, s:[], s:[]}", "schema",
				 "wirerate-results/1", "state", "idle",
				 "ports", "streams");
	v = snapshot(s);
	view = *v;
	memcpy(ports, v->ports, v->n_ports * sizeof(*ports));
	memcpy(streams, v->streams, v->n_streams * sizeof(*streams));
	view.ports = ports;
	view.streams = streams;
	if (s->have_base) {
		for (i = 0; i < view.n_ports; i++)
			row_sub(&ports[i], &s->base_ports[i]);
		for (i = 0; i < view.n_streams; i++) {
			static struct wr_latency h; /* main lcore only */
			double jitter = streams[i].lat.jitter_ns;

			row_sub(&streams[i], &s->base_streams[i]);
			/* Latency since the clear from the histograms; the
			 * jitter estimate is a running one and keeps its
			 * history (doc/api.md). */
			if (streams[i].has_rx && stream_hist(s, (uint32_t)i, &h)) {
				wr_latency_summarize(&h, NULL, &streams[i].lat);
				streams[i].lat.jitter_ns = jitter;
			}
		}
		view.elapsed_ns = view.elapsed_ns > s->base_elapsed_ns ?
			view.elapsed_ns - s->base_elapsed_ns : 0;
	}
	wr_engine_meta(s->e, &s->f, s->o->cfg_path, s->started_at,
		       s->state == ST_RUNNING ? "running" : s->reason, &meta);
	mf = open_memstream(&buf, &len);
	if (mf == NULL)
		return NULL;
	wr_report_json_write(mf, &meta, &view);
	fclose(mf);
	j = json_loadb(buf, len, 0, &jerr);
	free(buf);
	if (j == NULL)
		return NULL;
	json_object_set_new(j, "state", json_string(state_names[s->state]));
	json_object_set_new(j, "time", json_real(wall_s()));
	json_object_set_new(j, "cleared", json_boolean(s->have_base));
	{
		/* When the first frame went out, in wall-clock time: what a
		 * start_at asked for, as precisely as the TSC and
		 * CLOCK_REALTIME agree (doc/api.md). */
		uint64_t t = wr_engine_first_tx_tsc(s->e);

		json_object_set_new(j, "tx_started_at", t == 0 ? json_null() :
			json_real(s->ref_wall + ((double)t - (double)s->ref_tsc) /
				  (double)wr_tsc_hz()));
	}
	a = json_object_get(j, "streams");
	json_array_foreach(a, i, x) {
		json_object_set_new(x, "paused", json_boolean(s->paused[i]));
		json_object_set_new(x, "ended", json_boolean(s->ended[i] ||
					s->state == ST_DONE));
		if (hist)
			json_object_set_new(x, "histogram",
					    histogram_json(s, (uint32_t)i));
	}
	return j;
}

/* ---- methods ---- */

struct call {
	struct server *s;
	struct conn *c;
	const struct wr_rpc_req *req;
	json_t *id;
};

static json_t *
port_json(struct server *s, unsigned int p)
{
	const struct wr_port *pt = &s->e->ports[p];
	struct rte_eth_link link;
	char mac[RTE_ETHER_ADDR_FMT_SIZE];
	bool up = false;

	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(pt->port_id, &link) == 0)
		up = link.link_status == RTE_ETH_LINK_UP;
	rte_ether_format_addr(mac, sizeof(mac), &pt->mac);
	return json_pack("{s:i, s:i, s:s, s:s, s:s, s:b, s:i, s:i, s:s?, s:b}",
		"index", p, "port_id", pt->port_id, "device", pt->device,
		"driver", pt->driver, "mac", mac, "link_up", up,
		"link_speed_mbps", (json_int_t)link.link_speed, "tx_lcores",
		s->e->port_n_lcores[p], "owner",
		s->owner[p] != NULL ? s->owner[p]->name : NULL,
		"owner_connected", s->owner[p] != NULL &&
		s->owner[p]->n_conns > 0);
}

/* The TSC's calibration (wr_tsc.h), as the results' "tsc" writes it. */
static json_t *
tsc_json(void)
{
	struct wr_tsc_cal c;
	char buf[256] = "";
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	if (f == NULL)
		return json_null();
	wr_tsc_get(&c);
	wr_tsc_cal_json(f, &c);
	fclose(f);
	return json_loads(buf, 0, NULL);
}

static json_t *
m_info(struct call *k)
{
	struct server *s = k->s;
	json_t *ports = json_array(), *names = json_array();
	unsigned int p;

	for (p = 0; p < s->e->n_ports; p++)
		json_array_append_new(ports, port_json(s, p));
	for (p = 0; s->loaded && p < s->f.n_streams; p++)
		json_array_append_new(names, json_string(s->f.streams[p].name));
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:s, s:I, "
		"s:o*}",
		"name", "wirerate", "version", WR_VERSION, "dpdk_version",
		rte_version(), "pid", (int)getpid(), "state",
		state_names[s->state], "session", k->c->sess->name, "ports", ports,
		"streams", names, "api", "wirerate-rpc/1", "last_event",
		(json_int_t)s->ev_seq, "tsc", tsc_json());
}

static json_t *
m_ports(struct call *k)
{
	json_t *a = json_array();
	unsigned int p;

	for (p = 0; p < k->s->e->n_ports; p++)
		json_array_append_new(a, port_json(k->s, p));
	return a;
}

/* The "ports" member as a mask (default: every port). */
static bool
port_mask(struct call *k, uint64_t *mask)
{
	json_t *a = wr_rpc_get(k->req, "ports"), *v;
	size_t i;

	*mask = 0;
	if (a == NULL) {
		*mask = k->s->e->n_ports >= 64 ? UINT64_MAX :
			(1ull << k->s->e->n_ports) - 1;
		return true;
	}
	json_array_foreach(a, i, v) {
		json_int_t p = json_integer_value(v);

		if (p >= (json_int_t)k->s->e->n_ports) {
			reply_error(k->s, k->c, k->id, WR_RPC_E_NOTFOUND,
				    json_pack("{s:I}", "port", p),
				    "port %lld does not exist: this server has "
				    "%u", (long long)p, k->s->e->n_ports);
			return false;
		}
		*mask |= 1ull << p;
	}
	return true;
}

static json_t *
owned_list(struct server *s, const struct session *x)
{
	json_t *a = json_array();
	unsigned int p;

	for (p = 0; p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			json_array_append_new(a, json_integer(p));
	return a;
}

/* The session a ports.acquire names: the caller's own, one that does not
 * exist yet (made, with a new secret), or another client's, which takes its
 * secret.  The caller then acts as it.  @return false (replied) when
 * refused. */
static bool
acquire_session(struct call *k, const char *name)
{
	struct server *s = k->s;
	struct session *x;

	if (strcmp(name, k->c->sess->name) == 0)
		return true;
	if (name[0] == '\0' || strlen(name) >= SESSION_MAX ||
	    strncmp(name, "conn-", 5) == 0) {
		reply_error(s, k->c, k->id, WR_RPC_E_PARAMS,
			    json_pack("{s:s, s:s}", "param", "session",
				      "expected", "1 to 63 characters, not "
				      "starting with conn-"),
			    "ports.acquire: session: expected 1 to 63 "
			    "characters, not starting with conn- (the "
			    "server's names for connections)");
		return false;
	}
	x = session_find(s, name);
	if (x != NULL && !wr_auth_equal(x->secret,
					wr_rpc_str(k->req, "secret"))) {
		reply_error(s, k->c, k->id, WR_RPC_E_OWNER,
			    json_pack("{s:s}", "session", name),
			    "session \"%s\" is another client's: acting as "
			    "it takes the secret its ports.acquire returned "
			    "(another name starts a session of your own)",
			    name);
		return false;
	}
	if (x == NULL)
		x = session_new(s, name);
	if (x == NULL) {
		reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
			    "out of memory");
		return false;
	}
	conn_join(s, k->c, x);
	return true;
}

static json_t *
m_acquire(struct call *k)
{
	struct server *s = k->s;
	const char *name = wr_rpc_str(k->req, "session");
	bool force = wr_rpc_bool(k->req, "force", false);
	json_t *taken, *res, *ev;
	struct session *me;
	uint64_t mask;
	unsigned int p;
	size_t i;

	if (!port_mask(k, &mask))
		return NULL;
	if (name != NULL && !acquire_session(k, name))
		return NULL;
	me = k->c->sess;
	for (p = 0; p < s->e->n_ports && !force; p++)
		if ((mask & (1ull << p)) && s->owner[p] != NULL &&
		    s->owner[p] != me) {
			reply_error(s, k->c, k->id, WR_RPC_E_OWNER,
				json_pack("{s:i, s:s}", "port", p, "owner",
					  s->owner[p]->name),
				"port %u is owned by session \"%s\" (force: "
				"true takes it over)", p, s->owner[p]->name);
			return NULL;
		}
	taken = json_array();
	for (p = 0; p < s->e->n_ports; p++) {
		if (!(mask & (1ull << p)))
			continue;
		if (s->owner[p] != NULL && s->owner[p] != me)
			json_array_append_new(taken, json_pack(
				"{s:i, s:s, s:s}", "port", p, "from",
				s->owner[p]->name, "to", me->name));
		port_set_owner(s, p, me);
	}
	/* The secret goes to the session's own connections only. */
	res = json_pack("{s:s, s:s, s:o}", "session", me->name, "secret",
			me->secret, "ports", owned_list(s, me));
	/* Events last: sending them may close a subscriber that does not
	 * read, this one too, and with it its session. */
	json_array_foreach(taken, i, ev)
		event_push(s, "owner_changed", json_incref(ev));
	json_decref(taken);
	return res;
}

static json_t *
m_release(struct call *k)
{
	struct server *s = k->s;
	struct session *me = k->c->sess;
	uint64_t mask;
	unsigned int p;

	if (!port_mask(k, &mask))
		return NULL;
	for (p = 0; p < s->e->n_ports; p++)
		if ((mask & (1ull << p)) && s->owner[p] == me)
			port_set_owner(s, p, NULL);
	return json_pack("{s:s, s:o}", "session", me->name, "ports",
			 owned_list(s, me));
}

static json_t *
streams_json(struct server *s)
{
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; s->loaded && i < s->f.n_streams; i++) {
		const struct wr_stream *st = &s->f.streams[i];
		uint64_t r = s->built ? wr_engine_stream_millipps(s->e, i) : 0;
		const char *state = s->state != ST_RUNNING ? "loaded" :
			s->ended[i] ? "ended" : s->paused[i] ? "paused" :
			"running";

		int64_t d = s->built ? wr_engine_stream_ctl_delay_ns(s->e, i) : -1;

		json_array_append_new(a, json_pack(
			"{s:s, s:i, s:i, s:I, s:s, s:o, s:o}", "name", st->name,
			"index", i, "port", st->port, "count",
			(json_int_t)st->count, "state", state, "rate_pps",
			!s->built || r == WR_RATE_UNPACED ? json_null() :
			json_real((double)r / 1000.0),
			/* publish to pick-up by the slowest lane, ns */
			"ctl_delay_ns", d < 0 ? json_null() : json_integer(d)));
	}
	return a;
}

static json_t *
m_load(struct call *k)
{
	struct server *s = k->s;
	struct wr_stream_file f;
	struct wr_error err;
	const char *name = wr_rpc_str(k->req, "name");
	char line[1024];
	uint64_t mask;
	uint32_t i;

	if (s->state == ST_RUNNING) {
		reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
			    "traffic is running: traffic.stop first");
		return NULL;
	}
	wr_error_clear(&err);
	memset(&f, 0, sizeof(f));
	if (parse_streams(s, name ? name : "<streams.load>",
			  wr_rpc_str(k->req, "yaml"), &f, &err) != 0) {
		json_t *data = yaml_error_data(&err, line, sizeof(line));

		reply_error(s, k->c, k->id, WR_RPC_E_STREAMS, data, "%s", line);
		return NULL;
	}
	mask = ports_of(s, NULL);
	for (i = 0; i < f.n_streams; i++)
		mask |= 1ull << f.streams[i].port;
	if (!owns(s, k->c, k->id, mask)) {
		wr_stream_file_free(&f);
		return NULL;
	}
	unbuild(s);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	s->f = f;
	s->loaded = true;
	return json_pack("{s:o}", "streams", streams_json(s));
}

static json_t *
m_remove(struct call *k)
{
	struct server *s = k->s;
	bool sel[WR_STREAMS_MAX], all;
	uint32_t i, n = 0;

	if (!s->loaded)
		return json_pack("{s:[]}", "streams");
	if (!select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !owns(s, k->c, k->id, ports_of(s, sel)))
		return NULL;
	if (s->state == ST_RUNNING) {
		reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
			    "traffic is running: traffic.stop first");
		return NULL;
	}
	unbuild(s);
	for (i = 0; i < s->f.n_streams; i++) {
		if (sel[i]) {
			wr_stream_free(&s->f.streams[i]);
			continue;
		}
		s->f.streams[n++] = s->f.streams[i];
	}
	s->f.n_streams = n;
	if (n == 0) {
		wr_stream_file_free(&s->f);
		s->loaded = false;
	}
	return json_pack("{s:o}", "streams", streams_json(s));
}

static json_t *
m_list(struct call *k)
{
	return json_pack("{s:s, s:o}", "state", state_names[k->s->state],
			 "streams", streams_json(k->s));
}

/* Launch time from a wall-clock instant: the TSC at that instant, read
 * against CLOCK_REALTIME now. */
static bool
start_tsc_of(struct call *k, double start_at, uint64_t *tsc)
{
	double ahead = start_at - wall_s();

	if (ahead < 0 || ahead > START_AT_MAX_S) {
		reply_error(k->s, k->c, k->id, WR_RPC_E_STATE,
			    json_pack("{s:f}", "ahead_s", ahead),
			    "start_at is %.3f s %s: expected an instant in "
			    "the next %.0f s (Unix time in seconds)",
			    fabs(ahead), ahead < 0 ? "in the past" : "ahead",
			    START_AT_MAX_S);
		return false;
	}
	/* The freshest calibration (wr_tsc.h): at DPDK's rounded figure a
	 * start 2 s ahead would be 3 ms late. */
	wr_tsc_refine();
	*tsc = rte_rdtsc() + wr_tsc_from_ns((uint64_t)(ahead * 1e9));
	return true;
}

static json_t *
m_start(struct call *k)
{
	struct server *s = k->s;
	struct wr_rate_spec spec;
	struct wr_error err;
	bool sel[WR_STREAMS_MAX], all, has_rate;
	struct wr_rate_spec rate_save[WR_STREAMS_MAX];
	uint64_t count_save[WR_STREAMS_MAX], dur_save[WR_STREAMS_MAX];
	uint64_t start_tsc = 0;
	double dur = wr_rpc_num(k->req, "duration", 0);
	time_t wall;
	struct tm tm;
	uint32_t i;
	int rc;

	if (!select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !owns(s, k->c, k->id, ports_of(s, sel)) ||
	    !whole_sequences(s, k->c, k->id, sel))
		return NULL;
	if (s->state == ST_RUNNING) {
		reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
			    "traffic is already running: traffic.stop first");
		return NULL;
	}
	has_rate = wr_rpc_rate(k->req, "rate", &spec) == 0;
	for (i = 0; has_rate && i < s->f.n_streams; i++)
		if (sel[i] && s->f.streams[i].has_ramp) {
			reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				    "stream \"%s\" has a ramp: its ramp sets "
				    "its rate", s->f.streams[i].name);
			return NULL;
		}
	if (wr_rpc_has(k->req, "start_at") &&
	    !start_tsc_of(k, wr_rpc_num(k->req, "start_at", 0), &start_tsc))
		return NULL;
	unbuild(s);
	/* Overrides for this start only: the loaded streams keep theirs. */
	for (i = 0; i < s->f.n_streams; i++) {
		rate_save[i] = s->f.streams[i].rate;
		count_save[i] = s->f.streams[i].count;
		dur_save[i] = s->f.streams[i].duration_ns;
		if (!sel[i])
			continue;
		if (has_rate)
			s->f.streams[i].rate = spec;
		if (wr_rpc_has(k->req, "count"))
			s->f.streams[i].count = wr_rpc_uint(k->req, "count", 0);
		/* The TX lcores end the streams at the duration themselves,
		 * on their TSC from their first frame: exact to a burst,
		 * whatever the main lcore is doing. */
		if (dur > 0)
			s->f.streams[i].duration_ns = (uint64_t)(dur * 1e9);
	}
	for (i = 0; i < s->f.n_streams; i++)
		s->run_count[i] = sel[i] ? s->f.streams[i].count : 0;
	caps_prepare(s);
	wr_error_clear(&err);
	rc = wr_engine_load(s->e, &s->f, false, &err);
	for (i = 0; i < s->f.n_streams; i++) {
		s->f.streams[i].rate = rate_save[i];
		s->f.streams[i].count = count_save[i];
		s->f.streams[i].duration_ns = dur_save[i];
	}
	if (rc != 0) {
		char line[1024];
		json_t *data = yaml_error_data(&err, line, sizeof(line));

		json_object_set_new(data, "errno", json_integer(-rc));
		reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, data, "%s", line);
		return NULL;
	}
	s->built = true;
	caps_begin(s);
	memset(s->paused, 0, sizeof(s->paused));
	memset(s->ended, 0, sizeof(s->ended));
	s->stopped_some = false;
	/* Streams not named never send: stopped before the lcores start
	 * (no stream_ended event for them: they never began). */
	for (i = 0; i < s->f.n_streams; i++)
		if (!sel[i]) {
			wr_engine_stream_ctl(s->e, i, WR_TX_CTL_STOP, 0);
			s->ended[i] = true;
		}
	s->drain_ns = wr_rpc_has(k->req, "drain") ?
		(uint64_t)(wr_rpc_num(k->req, "drain", 0) * 1e9) :
		DRAIN_DEFAULT_NS;
	if (start_tsc == 0)
		start_tsc = rte_rdtsc();
	/* A backstop only: the lcores end the streams at the duration. */
	s->deadline_tsc = dur > 0 ? start_tsc +
			  wr_tsc_from_ns((uint64_t)((dur + 1.0) * 1e9)) :
			  UINT64_MAX;
	s->duration = dur > 0;
	s->have_base = false;
	rc = wr_engine_start_at(s->e, start_tsc, &err);
	if (rc != 0) {
		unbuild(s);
		reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, NULL, "%s",
			    err.msg);
		return NULL;
	}
	{
		uint64_t now = rte_rdtsc();

		wall = time(NULL) + (start_tsc > now ? (time_t)(wr_tsc_to_ns(
			start_tsc - now) / 1000000000ull) : 0);
	}
	gmtime_r(&wall, &tm);
	strftime(s->started_at, sizeof(s->started_at), "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	s->ref_tsc = rte_rdtsc();
	s->ref_wall = wall_s();
	s->state = ST_RUNNING;
	s->reason = "running";
	event_push(s, "traffic_started", NULL);
	return json_pack("{s:s, s:o}", "state", "running", "streams",
			 streams_json(s));
}

static bool
need_running(struct call *k)
{
	if (k->s->state == ST_RUNNING)
		return true;
	reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
		    "no traffic running (state %s)", state_names[k->s->state]);
	return false;
}

/* stop, pause, resume: each selected stream gets the state; a stop of
 * every stream ends the run (drain, NIC counters) at once. */
static json_t *
m_ctl(struct call *k, enum wr_tx_ctl_state st)
{
	struct server *s = k->s;
	bool sel[WR_STREAMS_MAX], all;
	uint32_t i;

	if (!select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !owns(s, k->c, k->id, ports_of(s, sel)))
		return NULL;
	if (st == WR_TX_CTL_STOP && s->state != ST_RUNNING)
		return json_pack("{s:s}", "state", state_names[s->state]);
	if (!need_running(k))
		return NULL;
	if (st == WR_TX_CTL_STOP && all) {
		finish(s, "stopped");
		return json_pack("{s:s}", "state", state_names[s->state]);
	}
	for (i = 0; i < s->f.n_streams; i++)
		if (sel[i] && wr_stream_file_port_sequenced(&s->f,
						s->f.streams[i].port)) {
			reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				    "stream \"%s\" runs in a sequence: only "
				    "traffic.stop of everything applies",
				    s->f.streams[i].name);
			return NULL;
		}
	for (i = 0; i < s->f.n_streams; i++) {
		if (!sel[i] || s->ended[i])
			continue;
		wr_engine_stream_ctl(s->e, i, st, 0);
		s->paused[i] = st == WR_TX_CTL_PAUSE;
	}
	if (st == WR_TX_CTL_STOP)
		s->stopped_some = true;
	return json_pack("{s:s, s:o}", "state", state_names[s->state],
			 "streams", streams_json(s));
}

static json_t *
m_update(struct call *k)
{
	struct server *s = k->s;
	bool sel[WR_STREAMS_MAX], all, has_rate, has_mult;
	uint64_t target[WR_STREAMS_MAX];
	struct wr_rate_spec spec;
	double mult = wr_rpc_num(k->req, "multiplier", 0);
	uint32_t i;
	int rc;

	has_rate = wr_rpc_rate(k->req, "rate", &spec) == 0;
	has_mult = wr_rpc_has(k->req, "multiplier");
	if (has_rate == has_mult) {
		reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, json_pack(
			"{s:s, s:s}", "param", "rate", "expected",
			"exactly one of rate and multiplier"),
			"traffic.update: give exactly one of rate and "
			"multiplier");
		return NULL;
	}
	if (!select_streams(s, k->c, k->id, k->req, sel, &all) ||
	    !owns(s, k->c, k->id, ports_of(s, sel)) || !need_running(k))
		return NULL;
	/* Every new rate is computed and checked before any is published:
	 * an update applies to all the selected streams or to none. */
	for (i = 0; i < s->f.n_streams; i++) {
		uint64_t cur = wr_engine_stream_millipps(s->e, i);
		const struct wr_stream *st = &s->f.streams[i];

		if (!sel[i])
			continue;
		if (has_rate) {
			rc = wr_engine_stream_rate(s->e, i, &spec, &target[i]);
		} else if (cur == WR_RATE_UNPACED) {
			reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				    "stream \"%s\" sends at the maximum rate: "
				    "a multiplier needs a set rate; give rate",
				    st->name);
			return NULL;
		} else {
			double t = (double)cur * mult;

			rc = t >= 1 && t < (double)WR_RATE_UNPACED ? 0 : -ERANGE;
			target[i] = (uint64_t)(t + 0.5);
		}
		if (rc == 0 && (st->has_ramp || st->train_frames != 0 ||
				wr_stream_file_port_sequenced(&s->f, st->port)))
			rc = -ENOTSUP;
		if (rc != 0) {
			reply_error(s, k->c, k->id, rc == -ENOTSUP ?
				    WR_RPC_E_STATE : WR_RPC_E_PARAMS, NULL,
				    "stream \"%s\": %s", st->name,
				    rc == -ENOTSUP ? "its ramp, trains or "
				    "sequence set its rate" :
				    "the rate is out of range for this stream");
			return NULL;
		}
	}
	for (i = 0; i < s->f.n_streams; i++) {
		if (!sel[i] || s->ended[i])
			continue;
		rc = wr_engine_stream_ctl(s->e, i, s->paused[i] ?
					  WR_TX_CTL_PAUSE : WR_TX_CTL_RUN,
					  target[i]);
		if (rc != 0) {
			reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, json_pack(
				"{s:i}", "errno", -rc), "stream \"%s\": the "
				"pacer cannot keep this rate (%s)",
				s->f.streams[i].name, strerror(-rc));
			return NULL;
		}
	}
	event_push(s, "rate_updated", NULL);
	return json_pack("{s:s, s:o}", "state", state_names[s->state],
			 "streams", streams_json(s));
}

static json_t *
m_wait(struct call *k)
{
	double t = wr_rpc_num(k->req, "timeout", 0);

	if (k->s->state != ST_RUNNING)
		return json_pack("{s:s, s:s?, s:b}", "state",
				 state_names[k->s->state], "stop_reason",
				 k->s->state == ST_DONE ? k->s->reason : NULL,
				 "timeout", 0);
	if (k->c->quiet)
		return NULL; /* a notification: nobody to answer */
	if (k->c->waiting) {
		reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
			    "this connection already waits");
		return NULL;
	}
	k->c->waiting = true;
	k->c->wait_id = json_incref(k->id ? k->id : json_null());
	k->c->wait_deadline_ms = t > 0 ? now_ms() + (uint64_t)(t * 1000) : 0;
	return NULL; /* answered when traffic ends or the timeout passes */
}

static json_t *
m_clear(struct call *k)
{
	struct server *s = k->s;
	struct wr_report_view *v;
	unsigned int i;

	if (!owns(s, k->c, k->id, ports_of(s, NULL)))
		return NULL;
	if (s->built) {
		v = snapshot(s);
		memcpy(s->base_ports, v->ports, v->n_ports * sizeof(*v->ports));
		memcpy(s->base_streams, v->streams,
		       v->n_streams * sizeof(*v->streams));
		s->base_elapsed_ns = v->elapsed_ns;
		if (s->base_hist == NULL)
			s->base_hist = aligned_alloc(RTE_CACHE_LINE_SIZE,
					WR_STREAMS_MAX * sizeof(*s->base_hist));
		for (i = 0; s->base_hist != NULL && i < v->n_streams; i++)
			wr_engine_stream_hist(s->e, (uint32_t)i,
					      &s->base_hist[i]);
		s->have_base = true;
	}
	return json_pack("{s:b}", "cleared", s->built);
}

static json_t *
m_reset(struct call *k)
{
	struct server *s = k->s;

	if (!owns(s, k->c, k->id, ports_of(s, NULL)))
		return NULL;
	finish(s, "reset");
	unbuild(s);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	s->loaded = false;
	caps_forget(s);
	return json_pack("{s:s}", "state", state_names[s->state]);
}

static json_t *
m_poll(struct call *k)
{
	struct server *s = k->s;
	uint64_t since = wr_rpc_uint(k->req, "since", 0), q;
	json_t *a = json_array();

	if (s->ev_seq > EVENTS_MAX && since < s->ev_seq - EVENTS_MAX)
		since = s->ev_seq - EVENTS_MAX;
	for (q = since + 1; q <= s->ev_seq; q++)
		json_array_append(a, s->ev[q % EVENTS_MAX]);
	return json_pack("{s:o, s:I}", "events", a, "last",
			 (json_int_t)s->ev_seq);
}

/* ---- logins ---- */

/* A TCP connection that logged in leaves the pre-login pool for the
 * clients' (--max-clients) and gets a session of its own. */
static bool
promote(struct server *s, struct conn *c)
{
	if (s->n_conns >= s->o->max_clients)
		return false;
	if (!conn_own_session(s, c))
		return false;
	s->pre[c->pslot] = NULL;
	c->pslot = -1;
	s->n_preauth--;
	s->n_conns++;
	c->authed = true;
	return true;
}

/* auth.login.  Wrong tokens are limited per source address and over all
 * (wr_auth.h): while a limit holds, a login is refused without the token
 * being compared.  Failures are logged with the peer's address, the first
 * ones of a period a line each, the rest in a summary (timers()). */
static json_t *
m_login(struct call *k)
{
	struct server *s = k->s;
	struct conn *c = k->c;
	uint64_t now = now_ms(), wait;

	if (!c->tcp || c->authed)
		return json_pack("{s:b}", "authenticated", 1);
	wait = wr_auth_limit_wait_ms(&s->logins, c->addr, now);
	if (wait > 0) {
		if (wr_auth_limit_failed(&s->logins, c->addr, true, now))
			SRV_LOG(WARNING, "login from %s refused unchecked: "
				"too many failed logins (%.1f s to wait)\n",
				c->peer, (double)wait / 1000.0);
		reply_error(s, c, k->id, WR_RPC_E_AUTH,
			    json_pack("{s:f}", "retry_after_s",
				      (double)wait / 1000.0),
			    "too many failed logins: retry in %.1f s",
			    (double)wait / 1000.0);
		return NULL;
	}
	if (!wr_auth_equal(s->o->token, wr_rpc_str(k->req, "token"))) {
		if (wr_auth_limit_failed(&s->logins, c->addr, false, now))
			SRV_LOG(WARNING, "failed login from %s: wrong token\n",
				c->peer);
		reply_error(s, c, k->id, WR_RPC_E_AUTH, NULL, "wrong token");
		return NULL;
	}
	wr_auth_limit_passed(&s->logins, c->addr);
	if (!promote(s, c)) {
		reply_error(s, c, k->id, WR_RPC_E_STATE, NULL,
			    "the server has its --max-clients (%u) clients: "
			    "try again later", s->o->max_clients);
		return NULL;
	}
	return json_pack("{s:b}", "authenticated", 1);
}

static void
logins_summary(struct server *s, uint64_t now)
{
	struct wr_auth_summary sum;

	if (!wr_auth_limit_summary(&s->logins, now, &sum))
		return;
	SRV_LOG(WARNING, "%u failed login%s in the last %.1f s from %u "
		"address%s (%u refused unchecked by the rate limit), most "
		"from %s (%u)\n", sum.failed, sum.failed == 1 ? "" : "s",
		(double)sum.period_ms / 1000.0, sum.sources,
		sum.sources == 1 ? "" : "es", sum.refused, sum.top,
		sum.top_fails);
}

/* ---- dispatch ---- */

/* Dispatch one line.  @return false when the connection must close. */
/* ---- captures ----
 *
 * capture.start asks for a capture of a port (wr_cap.h): armed while no
 * traffic runs, started on the engine with the next traffic.start (from
 * its first frame), or at once during a run; it ends with capture.stop or
 * with its run.  Files go to the server's own capture directory (no
 * client names a path on the server), named capture-ID.pcapng, and are
 * read back with capture.fetch once the capture is done.
 */

static const char *
cap_dir_name(enum wr_cap_dir d)
{
	return d == WR_CAP_RX ? "rx" : d == WR_CAP_TX ? "tx" : "both";
}

/* The capture directory: --capture-dir, or a fresh private one. */
static int
caps_dir(struct server *s, struct wr_error *err)
{
	const char *tmp = getenv("TMPDIR");

	if (s->o->capture_dir != NULL) {
		if (strlen(s->o->capture_dir) >= sizeof(s->cap_dir))
			return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0,
					    "--capture-dir", "a directory name "
					    "shorter than %zu bytes",
					    sizeof(s->cap_dir));
		snprintf(s->cap_dir, sizeof(s->cap_dir), "%s", s->o->capture_dir);
		return 0;
	}
	snprintf(s->cap_dir, sizeof(s->cap_dir), "%s/wirerate-captures-XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(s->cap_dir) == NULL)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL, "cannot make "
				    "a capture directory %s: %s", s->cap_dir,
				    strerror(errno));
	s->cap_dir_made = true;
	return 0;
}

static json_t *
cap_json(const struct server *s, unsigned int id)
{
	static const char *const states[] = { "armed", "running", "done" };
	const struct srv_cap *c = &s->caps[id];
	struct wr_cap_status st = c->st;
	const char *base = strrchr(c->file, '/');

	if (c->state == CAP_RUNNING)
		wr_engine_capture_status(s->e, c->engine_id, &st);
	return json_pack("{s:i, s:s, s:i, s:s, s:s?, s:s, s:i, s:I, s:I, s:I, "
			 "s:I, s:I, s:b, s:s?}", "id", id, "state",
			 states[c->state], "port", c->port, "dir",
			 cap_dir_name(c->dir), "filter",
			 c->has_filter ? c->filter.expr : NULL, "file",
			 base ? base + 1 : c->file, "files",
			 c->lim.files > 1 ? c->lim.files : 1,
			 "seen", (json_int_t)st.seen,
			 "written", (json_int_t)st.written,
			 "bytes", (json_int_t)st.bytes,
			 "capture_dropped", (json_int_t)st.dropped,
			 "over_limit", (json_int_t)st.over_limit,
			 "full", st.full, "error",
			 st.error ? strerror(-st.error) : NULL);
}

/* Start capture @p id on the built engine; failure makes it done with
 * the error (and an event). */
static void
cap_run(struct server *s, unsigned int id)
{
	struct srv_cap *c = &s->caps[id];
	struct wr_engine_cap r = {
		.port = c->port, .dir = c->dir, .file = c->file,
		.filter = c->has_filter ? &c->filter : NULL, .lim = c->lim,
	};
	struct wr_error err;
	char line[1024];
	int rc;

	wr_error_clear(&err);
	rc = wr_engine_capture_start(s->e, &r, &err);
	if (rc >= 0) {
		c->engine_id = rc;
		c->state = CAP_RUNNING;
		return;
	}
	c->state = CAP_DONE;
	c->st.error = rc;
	wr_error_format(&err, line, sizeof(line));
	event_push(s, "capture_done", json_pack("{s:i, s:s}", "id", id,
						"error", line));
}

/* Before a build: the ports armed captures receive on are polled. */
static void
caps_prepare(struct server *s)
{
	unsigned int i;

	for (i = 0; i < s->e->n_ports; i++)
		wr_engine_set_rx(s->e, i, false);
	for (i = 0; i < SRV_CAPS_MAX; i++)
		if (s->caps[i].used && s->caps[i].state == CAP_ARMED &&
		    (s->caps[i].dir & WR_CAP_RX))
			wr_engine_set_rx(s->e, s->caps[i].port, true);
}

/* After a build, before the lcores start: the armed captures run. */
static void
caps_begin(struct server *s)
{
	unsigned int i;

	for (i = 0; i < SRV_CAPS_MAX; i++)
		if (s->caps[i].used && s->caps[i].state == CAP_ARMED)
			cap_run(s, i);
}

static void
cap_end(struct server *s, unsigned int id)
{
	struct srv_cap *c = &s->caps[id];

	if (c->state != CAP_RUNNING)
		return;
	memset(&c->st, 0, sizeof(c->st));
	c->st.error = wr_engine_capture_stop(s->e, c->engine_id, &c->st);
	c->state = CAP_DONE;
	event_push(s, "capture_done", cap_json(s, id));
}

/* The run ended (or the engine is rebuilt): its captures end with it. */
static void
caps_end(struct server *s)
{
	unsigned int i;

	for (i = 0; i < SRV_CAPS_MAX; i++)
		if (s->caps[i].used)
			cap_end(s, i);
}

/* server.reset and exit: every capture and its files go. */
static void
caps_forget(struct server *s)
{
	char path[WR_CAP_PATH_MAX + 16];
	unsigned int i, k;

	for (i = 0; i < SRV_CAPS_MAX; i++) {
		struct srv_cap *c = &s->caps[i];

		if (!c->used)
			continue;
		cap_end(s, i);
		for (k = 0; k < (c->lim.files > 1 ? c->lim.files : 1); k++)
			if (wr_cap_file_name(c->file, k, c->lim.files, path,
					     sizeof(path)) == 0)
				unlink(path);
		wr_filter_free(&c->filter);
		memset(c, 0, sizeof(*c));
	}
	if (*s->stop && s->cap_dir_made)
		rmdir(s->cap_dir);
}

static json_t *
m_cap_start(struct call *k)
{
	struct server *s = k->s;
	const char *dir = wr_rpc_str(k->req, "dir");
	const char *filter = wr_rpc_str(k->req, "filter");
	unsigned int port = (unsigned int)wr_rpc_uint(k->req, "port", 0), id;
	char why[WR_FILTER_EXPR_MAX + 256];
	struct srv_cap *c;

	if (port >= s->e->n_ports) {
		reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL, "capture."
			    "start: port %u does not exist: this server has "
			    "%u port%s", port, s->e->n_ports,
			    s->e->n_ports == 1 ? "" : "s");
		return NULL;
	}
	if (!owns(s, k->c, k->id, 1ull << port))
		return NULL;
	for (id = 0; id < SRV_CAPS_MAX && s->caps[id].used; id++)
		;
	if (id == SRV_CAPS_MAX) {
		reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, "%u captures "
			    "kept already: server.reset forgets them",
			    SRV_CAPS_MAX);
		return NULL;
	}
	c = &s->caps[id];
	memset(c, 0, sizeof(*c));
	c->port = port;
	c->dir = WR_CAP_RX;
	if (dir != NULL) {
		if (strcmp(dir, "tx") == 0)
			c->dir = WR_CAP_TX;
		else if (strcmp(dir, "both") == 0)
			c->dir = WR_CAP_BOTH;
		else if (strcmp(dir, "rx") != 0) {
			reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				    "capture.start: dir: expected rx, tx or "
				    "both");
			return NULL;
		}
	}
	if (filter != NULL) {
		if (wr_filter_compile(&c->filter, filter, why,
				      sizeof(why)) != 0) {
			reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				    "capture.start: filter: %s", why);
			return NULL;
		}
		c->has_filter = true;
	}
	c->lim.frames = wr_rpc_uint(k->req, "count", 0);
	c->lim.bytes = wr_rpc_uint(k->req, "size", 0);
	c->lim.duration_ns = (uint64_t)(wr_rpc_num(k->req, "duration", 0) *
					1e9);
	c->lim.snaplen = (uint32_t)RTE_MIN(wr_rpc_uint(k->req, "snaplen", 0),
					   (uint64_t)UINT32_MAX);
	c->lim.files = (uint32_t)RTE_MIN(wr_rpc_uint(k->req, "files", 0),
					 (uint64_t)UINT32_MAX);
	if (wr_cap_limits_check(&c->lim, why, sizeof(why)) != 0) {
		wr_filter_free(&c->filter);
		reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
			    "capture.start: %s", why);
		return NULL;
	}
	snprintf(c->file, sizeof(c->file), "%s/capture-%u.pcapng", s->cap_dir,
		 id);
	c->used = true;
	c->state = CAP_ARMED;
	if (s->state == ST_RUNNING) {
		cap_run(s, id);
		if (c->state == CAP_DONE) {
			json_t *r = cap_json(s, id);

			reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, r,
				    "capture.start: %s", strerror(-c->st.error));
			wr_filter_free(&c->filter);
			memset(c, 0, sizeof(*c));
			return NULL;
		}
	}
	return cap_json(s, id);
}

/* The capture a request names, or NULL (replied). */
static struct srv_cap *
cap_of(struct call *k, unsigned int *id)
{
	*id = (unsigned int)RTE_MIN(wr_rpc_uint(k->req, "id", 0),
				    (uint64_t)SRV_CAPS_MAX);
	if (*id < SRV_CAPS_MAX && k->s->caps[*id].used)
		return &k->s->caps[*id];
	reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
		    "no capture %llu", (unsigned long long)
		    wr_rpc_uint(k->req, "id", 0));
	return NULL;
}

static json_t *
m_cap_stop(struct call *k)
{
	struct srv_cap *c;
	unsigned int id;

	if ((c = cap_of(k, &id)) == NULL ||
	    !owns(k->s, k->c, k->id, 1ull << c->port))
		return NULL;
	if (c->state == CAP_ARMED)
		c->state = CAP_DONE; /* never ran: no file */
	cap_end(k->s, id);
	return cap_json(k->s, id);
}

static json_t *
m_cap_status(struct call *k)
{
	json_t *a;
	unsigned int id;

	if (wr_rpc_has(k->req, "id"))
		return cap_of(k, &id) != NULL ? cap_json(k->s, id) : NULL;
	a = json_array();
	for (id = 0; id < SRV_CAPS_MAX; id++)
		if (k->s->caps[id].used)
			json_array_append_new(a, cap_json(k->s, id));
	return json_pack("{s:o}", "captures", a);
}

static json_t *
m_cap_fetch(struct call *k)
{
	struct srv_cap *c;
	char path[WR_CAP_PATH_MAX + 16];
	uint64_t off = wr_rpc_uint(k->req, "offset", 0);
	uint64_t want = RTE_MIN(wr_rpc_uint(k->req, "length", CAP_FETCH_MAX),
				(uint64_t)CAP_FETCH_MAX);
	uint32_t parts, part = (uint32_t)RTE_MIN(wr_rpc_uint(k->req, "part",
								   0),
						 (uint64_t)UINT32_MAX);
	unsigned int id;
	struct stat sb;
	uint8_t *buf;
	ssize_t got;
	json_t *data;
	int fd;

	if ((c = cap_of(k, &id)) == NULL)
		return NULL;
	parts = c->lim.files > 1 ? c->lim.files : 1;
	if (c->state != CAP_DONE || c->st.written == 0) {
		reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
			    "capture %u has no file to fetch%s", id,
			    c->state != CAP_DONE ? " yet: capture.stop it, "
			    "or wait for its run to end" : "");
		return NULL;
	}
	if (part >= parts ||
	    wr_cap_file_name(c->file, part, c->lim.files, path,
			     sizeof(path)) != 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
			    "capture %u has no part %u (it wrote %u file%s)",
			    id, part, c->st.files, c->st.files == 1 ? "" : "s");
		return NULL;
	}
	buf = fstat(fd, &sb) == 0 ? malloc(want ? want : 1) : NULL;
	got = buf == NULL ? -1 : off >= (uint64_t)sb.st_size ? 0 :
		pread(fd, buf, want, (off_t)off);
	close(fd);
	if (got < 0) {
		free(buf);
		reply_error(k->s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
			    "capture %u: cannot read %s", id, path);
		return NULL;
	}
	data = wr_rpc_base64(buf, (size_t)got);
	free(buf);
	return json_pack("{s:i, s:i, s:i, s:I, s:I, s:I, s:b, s:o}", "id", id,
			 "part", part, "parts", parts, "offset", (json_int_t)off,
			 "length", (json_int_t)got, "size",
			 (json_int_t)sb.st_size, "eof",
			 off + (uint64_t)got >= (uint64_t)sb.st_size,
			 "data", data ? data : json_null());
}

static bool
handle_line(struct server *s, struct conn *c, const char *line, size_t len)
{
	struct wr_rpc_error err;
	struct wr_rpc_req req;
	struct call k;
	json_t *id = NULL, *res = NULL;
	bool ok = true, replied_err;

	if (wr_rpc_parse(line, len, &req, &id, &err) != 0) {
		ok = conn_send(s, c, wr_rpc_reply_error(id, &err, NULL));
		json_decref(id);
		return ok;
	}
	json_decref(id);
	k.s = s;
	k.c = c;
	k.req = &req;
	k.id = req.id;
	/* JSON-RPC 2.0: a notification gets no reply, not even an error. */
	c->quiet = req.id == NULL;
	if (c->tcp && !c->authed && req.method != WR_RPC_LOGIN) {
		ok = reply_error(s, c, req.id, WR_RPC_E_AUTH, NULL,
				 "TCP clients call auth.login with the "
				 "server's token first");
		c->quiet = false;
		wr_rpc_req_free(&req);
		return ok;
	}
	switch (req.method) {
	case WR_RPC_HELLO: res = m_info(&k); break;
	case WR_RPC_PORTS: res = m_ports(&k); break;
	case WR_RPC_ACQUIRE: res = m_acquire(&k); break;
	case WR_RPC_RELEASE: res = m_release(&k); break;
	case WR_RPC_LOAD: res = m_load(&k); break;
	case WR_RPC_REMOVE: res = m_remove(&k); break;
	case WR_RPC_LIST: res = m_list(&k); break;
	case WR_RPC_START: res = m_start(&k); break;
	case WR_RPC_STOP: res = m_ctl(&k, WR_TX_CTL_STOP); break;
	case WR_RPC_PAUSE: res = m_ctl(&k, WR_TX_CTL_PAUSE); break;
	case WR_RPC_RESUME: res = m_ctl(&k, WR_TX_CTL_RUN); break;
	case WR_RPC_UPDATE: res = m_update(&k); break;
	case WR_RPC_WAIT: res = m_wait(&k); break;
	case WR_RPC_STATS:
		res = stats_json(s, wr_rpc_bool(&req, "histogram", false));
		break;
	case WR_RPC_CLEAR: res = m_clear(&k); break;
	case WR_RPC_RESET: res = m_reset(&k); break;
	case WR_RPC_POLL: res = m_poll(&k); break;
	case WR_RPC_SUBSCRIBE:
		c->subscribed = true;
		res = json_pack("{s:b, s:I}", "subscribed", 1, "last",
				(json_int_t)s->ev_seq);
		break;
	case WR_RPC_UNSUBSCRIBE:
		c->subscribed = false;
		res = json_pack("{s:b}", "subscribed", 0);
		break;
	case WR_RPC_LOGIN:
		res = m_login(&k);
		if (res == NULL) {
			c->quiet = false;
			wr_rpc_req_free(&req);
			return false; /* a wrong token closes the connection */
		}
		break;
	case WR_RPC_CAP_START: res = m_cap_start(&k); break;
	case WR_RPC_CAP_STOP: res = m_cap_stop(&k); break;
	case WR_RPC_CAP_STATUS: res = m_cap_status(&k); break;
	case WR_RPC_CAP_FETCH: res = m_cap_fetch(&k); break;
	case WR_RPC_N_METHODS:
		break;
	}
	/* A method that returns NULL replied itself (an error) or defers. */
	replied_err = res == NULL;
	if (!replied_err && req.id != NULL)
		ok = conn_send(s, c, wr_rpc_reply_result(req.id, res));
	else
		json_decref(res);
	c->quiet = false;
	wr_rpc_req_free(&req);
	return ok;
}

/* ---- connections ---- */

/* Closed now; freed at the end of the turn (conn_reap()), so that a
 * pointer to it met later in the same turn (an epoll event, the list being
 * walked) still reads fd -1.  Idempotent. */
static void
conn_close(struct server *s, struct conn *c)
{
	struct conn **pp;

	if (c->fd < 0)
		return;
	epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
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
	set_ready(s, c, false);
	conn_leave(s, c);
	c->waiting = false;
	/* Keeps c->next: a walk of the list standing on c goes on. */
	c->dead_next = s->dead;
	s->dead = c;
}

static void
conn_reap(struct server *s)
{
	while (s->dead != NULL) {
		struct conn *c = s->dead;

		s->dead = c->dead_next;
		json_decref(c->wait_id);
		free(c->rbuf);
		free(c->wbuf);
		free(c);
	}
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

/* Accept up to ACCEPT_TURN connections.  A Unix one counts against
 * --max-clients (past it: closed at once); a TCP one goes to the pre-login
 * pool, closing the oldest there when full, and has LOGIN_MS to log in. */
static void
conn_accept(struct server *s, int lfd, bool tcp)
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
			conn_close(s, c);
		if ((!tcp && s->n_conns >= s->o->max_clients) ||
		    (c = calloc(1, sizeof(*c))) == NULL) {
			close(fd);
			continue;
		}
		c->fd = fd;
		c->tcp = tcp;
		c->id = ++s->next_id;
		c->pslot = -1;
		c->last_ms = now_ms();
		if (tcp) {
			int one = 1;

			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			peer_name(c, &sa);
			c->login_deadline_ms = c->last_ms + LOGIN_MS;
		} else if (!conn_own_session(s, c)) {
			close(fd);
			free(c);
			continue;
		}
		ev.data.ptr = c;
		if (epoll_ctl(s->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
			conn_leave(s, c);
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

/* A request may be this long: a login line before the login. */
static size_t
request_max(const struct conn *c)
{
	return c->tcp && !c->authed ? PREAUTH_REQUEST_MAX : WR_RPC_REQUEST_MAX;
}

/* One turn of a connection: answer up to TURN_REQS of its requests,
 * reading at most TURN_READ bytes; stop at WQ_HIGH bytes of unread
 * replies (held until it takes them).  Whole requests left over wait for
 * the next turn (ready); more bytes in the socket are epoll's to report. */
static void
conn_serve(struct server *s, struct conn *c)
{
	unsigned int reqs = 0;
	size_t got = 0;

	if (c->fd < 0 || c->turn == s->turn)
		return;
	set_ready(s, c, false); /* held: made ready again once unheld */
	if (c->held)
		return;
	c->turn = s->turn;
	for (;;) {
		ssize_t f, n;

		if (c->fd < 0)
			return;
		if (queued(c) >= WQ_HIGH) {
			c->held = true;
			conn_watch(s, c);
			return;
		}
		f = wr_rpc_frame(c->rbuf + c->roff, c->rlen - c->roff,
				 request_max(c));
		if (f > 0) {
			if (reqs == TURN_REQS) {
				set_ready(s, c, true);
				return;
			}
			reqs++;
			c->spoke = true;
			if (!handle_line(s, c, c->rbuf + c->roff, (size_t)f)) {
				conn_close(s, c);
				return;
			}
			c->roff += (size_t)f;
			continue;
		}
		if (f < 0) {
			/* Too long: refused without reading the rest. */
			reply_error(s, c, NULL, WR_RPC_E_REQUEST, NULL,
				    "request longer than %zu bytes: refused, "
				    "connection closed", request_max(c));
			conn_close(s, c);
			return;
		}
		memmove(c->rbuf, c->rbuf + c->roff, c->rlen - c->roff);
		c->rlen -= c->roff;
		c->roff = 0;
		if (c->rlen == 0 && c->rcap > BUF_KEEP) {
			free(c->rbuf);
			c->rbuf = NULL;
			c->rcap = 0;
		}
		if (got >= TURN_READ)
			return; /* level-triggered: the rest next turn */
		if (c->rlen == c->rcap) {
			size_t cap = c->rcap ? 2 * c->rcap : BUF_MIN;
			char *nb;

			/* frame() returned 0: the request is shorter than
			 * request_max(), so it fits in that much. */
			if (cap > WR_RPC_REQUEST_MAX)
				cap = WR_RPC_REQUEST_MAX;
			nb = realloc(c->rbuf, cap);
			if (nb == NULL) {
				conn_close(s, c);
				return;
			}
			c->rbuf = nb;
			c->rcap = cap;
		}
		n = read(c->fd, c->rbuf + c->rlen,
			 c->rcap - c->rlen < TURN_READ - got ?
			 c->rcap - c->rlen : TURN_READ - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			conn_close(s, c);
			return;
		}
		c->rlen += (size_t)n;
		got += (size_t)n;
		c->last_ms = now_ms();
	}
}

/* ---- timers ---- */

static void
timers(struct server *s)
{
	uint64_t now = now_ms();
	struct conn *c, *next;
	unsigned int p;

	for (c = s->conns; c != NULL; c = next) {
		next = c->next;
		if (c->waiting && c->wait_deadline_ms != 0 &&
		    now >= c->wait_deadline_ms) {
			c->waiting = false;
			conn_send(s, c, wr_rpc_reply_result(c->wait_id,
				json_pack("{s:s, s:b}", "state",
					  state_names[s->state], "timeout", 1)));
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
			conn_close(s, c);
		else if (c->tcp && !c->authed && now >= c->login_deadline_ms)
			conn_close(s, c);
		else if (queued(c) > 0 && now - c->wprog_ms >= s->idle_ms)
			conn_close(s, c);
	}
	for (p = 0; p < s->e->n_ports; p++)
		if (s->orphan_ms[p] != 0 && now >= s->orphan_ms[p]) {
			event_push(s, "owner_released", json_pack(
				"{s:i, s:s}", "port", p, "session",
				s->owner[p]->name));
			port_set_owner(s, p, NULL);
		}
	logins_summary(s, now);
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
				event_push(s, up ? "link_up" : "link_down",
					   json_pack("{s:i}", "port", p));
			}
		}
	}
}

/* ---- sockets ---- */

/* The Unix socket's path: room in sun_path, a directory that exists (the
 * default's is made), and nothing there but a socket no server answers on
 * (left by a server that died): that one is replaced, nothing else is. */
static int
unix_path_check(const char *path, struct wr_error *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char dir[sizeof(a.sun_path)], *slash;
	struct stat st;
	int fd, rc;

	if (path[0] == '\0')
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--socket",
				    "expected a path (none: no Unix socket)");
	if (strlen(path) >= sizeof(a.sun_path))
		return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0, "--socket",
				    "%.60s...: %zu characters, a Unix socket "
				    "path has at most %zu", path, strlen(path),
				    sizeof(a.sun_path) - 1);
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

static int
listen_unix(struct server *s, const char *path, struct wr_error *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	mode_t old;
	int fd, rc;

	/* Checked before EAL (wr_server_check()); again now, as the path
	 * may have changed meanwhile. */
	rc = unix_path_check(path, err);
	if (rc != 0)
		return rc;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	unlink(path); /* a socket nobody answers on, or nothing */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL,
				    "socket: %s", strerror(errno));
	/* Created 0600 from the start: no window where others connect. */
	old = umask(077);
	rc = bind(fd, (struct sockaddr *)&a, sizeof(a));
	umask(old);
	if (rc != 0 || chmod(path, 0600) != 0 || listen(fd, 128) != 0) {
		rc = -errno;
		close(fd);
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "cannot listen on %s: %s", path,
				    strerror(-rc));
	}
	snprintf(s->unix_path, sizeof(s->unix_path), "%s", path);
	s->ufd = fd;
	return 0;
}

/* A TCP listener on @p host:@p port; @p listen_now false only tries the
 * bind (before EAL) and closes it. */
static int
open_tcp(const char *host, uint16_t port, bool listen_now, int *fd_out,
	 struct wr_error *err)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd, one = 1, rc;

	if (inet_pton(AF_INET, host, &a.sin_addr) != 1)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--listen",
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
		return wr_error_set(err, rc, NULL, 0, 0, "--listen",
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
		rc = unix_path_check(o->unix_path ? o->unix_path :
				     WR_SERVER_SOCK_DEFAULT, err);
		if (rc != 0)
			return rc;
	}
	if (o->tcp_host == NULL)
		return 0;
	if (o->token_file == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--listen",
				    "TCP needs --token-file FILE (a secret "
				    "only its owner can read)");
	rc = open_tcp(o->tcp_host, o->tcp_port, false, &fd, err);
	if (rc != 0)
		return rc;
	return wr_auth_token_load(o->token_file, o->token, sizeof(o->token),
				  err);
}

/* ---- the loop ---- */

static void
server_free(struct server *s)
{
	unsigned int i;

	while (s->conns != NULL)
		conn_close(s, s->conns);
	conn_reap(s);
	for (i = 0; i < WR_PORTS_MAX && i < s->e->n_ports; i++)
		port_set_owner(s, i, NULL);
	if (s->ufd >= 0) {
		close(s->ufd);
		unlink(s->unix_path);
	}
	if (s->tfd >= 0)
		close(s->tfd);
	if (s->ep >= 0)
		close(s->ep);
	for (i = 0; i < EVENTS_MAX; i++)
		json_decref(s->ev[i]);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	free(s->base_hist);
	free(s);
}

int
wr_server_run(struct wr_engine *e, const struct wr_server_opts *o,
	      const volatile int *stop, struct wr_error *err)
{
	struct server *s = calloc(1, sizeof(*s));
	struct epoll_event ev, evs[64];
	struct conn *c, *next;
	unsigned int p;
	int rc = 0, n, i;

	if (s == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	s->e = e;
	s->o = o;
	s->stop = stop;
	s->ufd = s->tfd = -1;
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
			rc = open_tcp(o->tcp_host, o->tcp_port, true, &s->tfd,
				      err);
	}
	if (rc == 0 && (o->unix_path == NULL || o->unix_path[0] != '\0'))
		rc = listen_unix(s, o->unix_path ? o->unix_path :
				 WR_SERVER_SOCK_DEFAULT, err);
	if (rc == 0)
		rc = caps_dir(s, err);
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
	for (p = 0; p < e->n_ports; p++)
		s->link_up[p] = e->ports[p].link_up;
	SRV_LOG(NOTICE, "serving on %s%s%s%s\n",
		s->ufd >= 0 ? s->unix_path : "",
		s->ufd >= 0 && s->tfd >= 0 ? " and " : "",
		s->tfd >= 0 ? o->tcp_host : "", s->tfd >= 0 ? " (TCP)" : "");
	while (!*stop) {
		/* Requests left over from the last turn: no sleep. */
		n = epoll_wait(s->ep, evs, RTE_DIM(evs), s->n_ready > 0 ? 0 :
			       s->state == ST_RUNNING ? TICK_RUN_MS :
			       TICK_IDLE_MS);
		s->turn++;
		for (i = 0; i < n; i++) {
			c = evs[i].data.ptr;
			if (evs[i].data.ptr == &s->ufd) {
				conn_accept(s, s->ufd, false);
				continue;
			}
			if (evs[i].data.ptr == &s->tfd) {
				conn_accept(s, s->tfd, true);
				continue;
			}
			if (c->fd < 0)
				continue;
			if ((evs[i].events & EPOLLOUT) && !conn_flush(s, c))
				continue;
			if (evs[i].events & (EPOLLERR | EPOLLHUP) && c->held)
				conn_close(s, c); /* it will never read them */
			else if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				conn_serve(s, c);
		}
		for (c = s->conns; s->n_ready > 0 && c != NULL; c = next) {
			next = c->next;
			if (c->ready)
				conn_serve(s, c);
		}
		traffic_tick(s);
		timers(s);
		conn_reap(s);
	}
	finish(s, "signal");
	unbuild(s);
	caps_forget(s);
	server_free(s);
	return 0;
}

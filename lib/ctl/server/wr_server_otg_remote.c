/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_remote: the other servers an OTG config's locations name (HOST:PORT/INDEX): their JSON-RPC TCP API logged in with the remote token, calls that keep this server's loop turning, their clocks against ours. */
#include <netdb.h>
#include <poll.h>

#include "wr_server_priv.h"
#include "wr_server_otg_remote.h"

/* Clock samples taken at open (server.info round trips): the one with the
 * least delay is kept, as NTP's clock filter does.  On one machine over
 * veth in namespaces a round trip takes 60-150 us and 8 give a sample
 * within a few us of the least; more only costs the open. */
#define OFFSET_SAMPLES 8
/* A reply larger than this is a server gone wrong: capture.fetch's biggest
 * (CAP_FETCH_MAX of base64, 1.4 MB) and stats.get of 256 streams with
 * histograms fit many times. */
#define REPLY_MAX (64u << 20)
/* While a call waits, the remote's socket is polled this long between two
 * turns of our loop: our other clients wait at most that much longer, and
 * a reply is seen as soon as it comes (poll() wakes on it). */
#define POLL_SLICE_MS 1

struct otg_remote {
	struct otg_remote *next;     /* the server's pool (s->otg_remotes) */
	struct server *s;
	unsigned int refs;           /* configs using it (open - close) */
	int fd;                      /* -1: to connect again at next use */
	char host[256];
	uint16_t port;
	char name[300];              /* "HOST:PORT", for messages */
	/* The session our calls act as there, made at the first login and
	 * joined again with its secret after a reconnection, so the ports a
	 * config took stay ours across connections and configs. */
	char secret[WR_AUTH_SECRET_LEN + 1];
	char *rbuf;
	size_t rlen, rcap;
	uint64_t next_id;
	bool broken;                 /* a call failed mid-way: no more calls */
	unsigned int n_ports;        /* its ports (server.info at login) */
	uint16_t tx_lcores[WR_PORTS_MAX]; /* each one's TX lcores: its lanes */
	int64_t offset_ns;           /* its CLOCK_REALTIME minus ours */
	uint64_t delay_ns;           /* the round trip of that sample */
	/* The last call's request sent and reply's line in, CLOCK_REALTIME:
	 * around the wire alone (building and parsing are outside). */
	int64_t sent_ns, got_ns;
};

static int64_t
realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Wait until @p fd is ready for @p events or @p deadline_ms (monotonic)
 * passes, running our loop's turns meanwhile so every other client is
 * served.  Connections the turns close are not freed while a handler waits
 * here (s->otg_nest, wr_srv_conn_reap()): the handler's own connection and
 * the outer turn's list stay valid.
 * @return 0 ready; -ETIMEDOUT; -EINTR the server is stopping.
 */
static int
wait_fd(struct server *s, int fd, short events, uint64_t deadline_ms)
{
	struct pollfd pf = { .fd = fd, .events = events };
	int n, rc = 0;

	s->otg_nest++;
	for (;;) {
		uint64_t now = wr_srv_now_ms();

		n = poll(&pf, 1, now >= deadline_ms ? 0 : POLL_SLICE_MS);
		if (n > 0)
			break;
		if (n < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		if (now >= deadline_ms) {
			rc = -ETIMEDOUT;
			break;
		}
		if (s->stop != NULL && *s->stop) {
			rc = -EINTR;
			break;
		}
		if (s->loop_turn != NULL)
			s->loop_turn(s, 0);
	}
	s->otg_nest--;
	return rc;
}

static int
fail(struct wr_rpc_error *err, int rc, const struct otg_remote *r,
     const char *what)
{
	wr_rpc_error_set(err, WR_RPC_E_INTERNAL, "server %s: %s: %s", r->name,
			 what, rc == -ETIMEDOUT ? "no answer in time" :
			 strerror(-rc));
	return rc;
}

/* Write all of @p buf. */
static int
send_all(struct server *s, struct otg_remote *r, const char *buf, size_t len,
	 uint64_t deadline_ms)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = send(r->fd, buf + off, len - off, MSG_NOSIGNAL);

		if (n > 0) {
			off += (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)
			return -errno;
		n = wait_fd(s, r->fd, POLLOUT, deadline_ms);
		if (n != 0)
			return (int)n;
	}
	return 0;
}

/* The next whole line of the remote (its NUL in place of the newline) in
 * *@p line, valid until the next read; its length consumed by the caller
 * with consume(). */
static int
read_line(struct server *s, struct otg_remote *r, char **line, size_t *len,
	  uint64_t deadline_ms)
{
	for (;;) {
		char *nl = r->rlen ? memchr(r->rbuf, '\n', r->rlen) : NULL;
		ssize_t n;
		int rc;

		if (nl != NULL) {
			*nl = '\0';
			*line = r->rbuf;
			*len = (size_t)(nl - r->rbuf);
			return 0;
		}
		if (r->rlen == r->rcap) {
			size_t cap = r->rcap ? r->rcap * 2 : BUF_MIN;
			char *b;

			if (cap > REPLY_MAX)
				return -EMSGSIZE;
			b = realloc(r->rbuf, cap);
			if (b == NULL)
				return -ENOMEM;
			r->rbuf = b;
			r->rcap = cap;
		}
		n = recv(r->fd, r->rbuf + r->rlen, r->rcap - r->rlen, 0);
		if (n > 0) {
			r->rlen += (size_t)n;
			continue;
		}
		if (n == 0)
			return -ECONNRESET;
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		rc = wait_fd(s, r->fd, POLLIN, deadline_ms);
		if (rc != 0)
			return rc;
	}
}

static void
consume(struct otg_remote *r, size_t len)
{
	memmove(r->rbuf, r->rbuf + len + 1, r->rlen - len - 1);
	r->rlen -= len + 1;
}

/* The error member of a reply into @p err; its code is the remote's. */
static int
remote_error(const struct otg_remote *r, json_t *e, struct wr_rpc_error *err)
{
	json_t *data = json_object_get(e, "data");

	memset(err, 0, sizeof(*err));
	err->code = (int)json_integer_value(json_object_get(e, "code"));
	snprintf(err->message, sizeof(err->message), "server %s: %s", r->name,
		 json_string_value(json_object_get(e, "message")) ?
		 json_string_value(json_object_get(e, "message")) : "an error");
	if (json_is_object(data)) {
		const char *p = json_string_value(json_object_get(data, "param"));
		const char *x = json_string_value(json_object_get(data, "expected"));

		snprintf(err->param, sizeof(err->param), "%s", p ? p : "");
		snprintf(err->expected, sizeof(err->expected), "%s", x ? x : "");
	}
	return err->code == WR_RPC_E_NOTFOUND ? -ENOENT :
	       err->code == WR_RPC_E_OWNER || err->code == WR_RPC_E_AUTH ?
	       -EPERM : err->code == WR_RPC_E_STATE ? -EBUSY : -EINVAL;
}

static int
call_until(struct server *s, struct otg_remote *r, const char *method,
	   json_t *params, json_t **result, struct wr_rpc_error *err,
	   uint64_t deadline_ms)
{
	uint64_t id = ++r->next_id;
	json_t *req;
	char *text;
	size_t len;
	int rc;

	*result = NULL;
	if (r->broken) {
		json_decref(params);
		return fail(err, -ENOTCONN, r, method);
	}
	req = json_pack("{s:s, s:I, s:s, s:o}", "jsonrpc", "2.0", "id",
			(json_int_t)id, "method", method, "params",
			params != NULL ? params : json_object());
	text = req != NULL ? json_dumps(req, JSON_COMPACT) : NULL;
	json_decref(req);
	if (text == NULL)
		return fail(err, -ENOMEM, r, method);
	/* One request a line: the newline in the same send, so the server
	 * has the request whole at once. */
	len = strlen(text);
	text[len] = '\n'; /* over the NUL: the length is known */
	r->sent_ns = realtime_ns();
	rc = send_all(s, r, text, len + 1, deadline_ms);
	free(text);
	while (rc == 0) {
		json_t *rep, *e;
		char *line = NULL;

		len = 0;
		rc = read_line(s, r, &line, &len, deadline_ms);
		if (rc != 0)
			break;
		r->got_ns = realtime_ns();
		rep = json_loadb(line, len, 0, NULL);
		consume(r, len);
		/* Events (a notification has no id) are not ours: this
		 * connection never subscribes, but a server may say things. */
		if (rep == NULL || json_integer_value(json_object_get(rep, "id")) !=
		    (json_int_t)id) {
			json_decref(rep);
			if (rep == NULL) {
				rc = -EPROTO;
				break;
			}
			continue;
		}
		e = json_object_get(rep, "error");
		if (e != NULL) {
			rc = remote_error(r, e, err);
			json_decref(rep);
			return rc;
		}
		*result = json_incref(json_object_get(rep, "result"));
		json_decref(rep);
		return *result != NULL ? 0 : fail(err, -EPROTO, r, method);
	}
	/* The reply may still come: this connection cannot tell it from the
	 * next one's, so it is given up. */
	r->broken = true;
	return fail(err, rc, r, method);
}

/*
 * The remote's clock: server.info says its CLOCK_REALTIME when it answered
 * ("realtime_ns"); against the middle of our send and receive that is the
 * offset, off by at most half the round trip's asymmetry.  The least-delay
 * sample of OFFSET_SAMPLES bounds that best (queueing adds delay, and
 * delay is where the error comes from).
 */
static int
measure_offset(struct server *s, struct otg_remote *r,
	       struct wr_rpc_error *err, uint64_t deadline_ms)
{
	unsigned int k;
	bool any = false;

	for (k = 0; k < OFFSET_SAMPLES; k++) {
		json_t *res, *t;
		int64_t t0, t1;
		int rc;

		rc = call_until(s, r, "server.info", NULL, &res, err,
				deadline_ms);
		t0 = r->sent_ns;
		t1 = r->got_ns;
		if (rc != 0)
			return rc;
		r->n_ports = (unsigned int)json_array_size(json_object_get(res,
								      "ports"));
		for (unsigned int i = 0; i < r->n_ports && i < WR_PORTS_MAX; i++)
			r->tx_lcores[i] = (uint16_t)json_integer_value(
				json_object_get(json_array_get(json_object_get(res,
					"ports"), i), "tx_lcores"));
		t = json_object_get(res, "realtime_ns");
		if (!json_is_integer(t)) {
			json_decref(res);
			return fail(err, -EPROTO, r, "server.info has no "
				    "realtime_ns (an older wirerate)");
		}
		if (!any || (uint64_t)(t1 - t0) < r->delay_ns) {
			r->delay_ns = (uint64_t)(t1 - t0);
			r->offset_ns = json_integer_value(t) - (t0 + (t1 - t0) / 2);
			any = true;
		}
		json_decref(res);
	}
	return 0;
}

/* A TCP connection to r's host and port under way (non-blocking). */
static int
connect_start(struct otg_remote *r)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	char serv[8];
	int rc, one = 1;

	snprintf(serv, sizeof(serv), "%u", r->port);
	/* A name (a Kubernetes service, a lab's host) is resolved by the
	 * system's resolver, which may block: locations are usually
	 * addresses, and a name is asked once per connection. */
	rc = getaddrinfo(r->host, serv, &hints, &ai);
	if (rc != 0)
		return rc == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	r->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       0);
	if (r->fd < 0) {
		rc = -errno;
		freeaddrinfo(ai);
		return rc;
	}
	/* Requests are single lines answered at once: Nagle would hold the
	 * clock samples' requests behind the previous reply's ACK. */
	setsockopt(r->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	rc = connect(r->fd, ai->ai_addr, ai->ai_addrlen) == 0 ||
	     errno == EINPROGRESS ? 0 : -errno;
	freeaddrinfo(ai);
	return rc;
}

static void
disconnect(struct otg_remote *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->rlen = 0;
	r->broken = false;
}

/*
 * Connect, log in, act as our session there, measure the clock.  The
 * session: "otg-PID" (one controller process), joined with the secret the
 * remote gave at its first login; a session that no longer exists (its
 * ports released after the remote's --owner-timeout) is made anew.
 */
static int
connect_login(struct server *s, struct otg_remote *r, uint64_t deadline,
	      struct wr_rpc_error *err)
{
	const char *token = s->o->remote_token[0] != '\0' ?
			    s->o->remote_token : s->o->token;
	char sess[SESSION_MAX];
	socklen_t sl = sizeof(int);
	json_t *res, *p;
	int rc, so = 0;

	disconnect(r);
	if (token[0] == '\0') {
		wr_rpc_error_set(err, WR_RPC_E_AUTH, "server %s: no token to log "
				 "in with: start this server with "
				 "--remote-token-file (or --token-file)", r->name);
		return -EPERM;
	}
	rc = connect_start(r);
	if (rc == 0)
		rc = wait_fd(s, r->fd, POLLOUT, deadline);
	if (rc == 0 && getsockopt(r->fd, SOL_SOCKET, SO_ERROR, &so, &sl) == 0 &&
	    so != 0)
		rc = -so;
	if (rc != 0) {
		disconnect(r);
		return fail(err, rc, r, "cannot connect");
	}
	rc = call_until(s, r, "auth.login", json_pack("{s:s}", "token", token),
			&res, err, deadline);
	json_decref(res);
	snprintf(sess, sizeof(sess), "otg-%d", (int)getpid());
	p = json_pack("{s:[], s:s}", "ports", "session", sess);
	if (r->secret[0] != '\0')
		json_object_set_new(p, "secret", json_string(r->secret));
	if (rc == 0)
		rc = call_until(s, r, "ports.acquire", p, &res, err, deadline);
	else
		json_decref(p);
	if (rc == -EPERM && r->secret[0] != '\0') {
		/* Our old session is gone and a session of that name (not
		 * ours) exists: a name of our own again. */
		r->secret[0] = '\0';
		return connect_login(s, r, deadline, err);
	}
	if (rc == 0) {
		snprintf(r->secret, sizeof(r->secret), "%s", json_string_value(
			 json_object_get(res, "secret")) ?: "");
		json_decref(res);
		rc = measure_offset(s, r, err, deadline);
	}
	if (rc != 0) {
		disconnect(r);
		return rc;
	}
	SRV_LOG(NOTICE, "OTG: server %s: logged in as session %s, clock %+.3f us "
		"from ours (round trip %.3f us)\n", r->name, sess,
		(double)r->offset_ns / 1e3, (double)r->delay_ns / 1e3);
	return 0;
}

/* The remote closed our connection (its idle timeout, a restart) while
 * we did not use it: nothing of ours was under way, so it is opened again
 * before the next call, not failed. */
static bool
peer_gone(struct otg_remote *r)
{
	struct pollfd pf = { .fd = r->fd, .events = POLLIN };
	char c;

	if (r->fd < 0 || r->broken)
		return true;
	if (poll(&pf, 1, 0) <= 0)
		return false;
	return recv(r->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0 &&
	       errno != EAGAIN;
}

int
wr_srv_otg_remote_call(struct server *s, struct otg_remote *r,
		       const char *method, json_t *params, json_t **result,
		       struct wr_rpc_error *err, int timeout_ms)
{
	uint64_t deadline = wr_srv_now_ms() + (uint64_t)(timeout_ms > 0 ?
							 timeout_ms : 0);
	int rc;

	if (peer_gone(r)) {
		rc = connect_login(s, r, deadline, err);
		if (rc != 0) {
			json_decref(params);
			*result = NULL;
			return rc;
		}
	}
	return call_until(s, r, method, params, result, err, deadline);
}

int
wr_srv_otg_remote_open(struct server *s, const char *host, uint16_t port,
		       int timeout_ms, struct otg_remote **out,
		       struct wr_rpc_error *err)
{
	uint64_t deadline = wr_srv_now_ms() + (uint64_t)(timeout_ms > 0 ?
							 timeout_ms : 0);
	struct otg_remote *r;
	int rc;

	*out = NULL;
	for (r = s->otg_remotes; r != NULL; r = r->next)
		if (r->port == port && strcmp(r->host, host) == 0)
			break;
	if (r == NULL) {
		r = calloc(1, sizeof(*r));
		if (r == NULL) {
			wr_rpc_error_set(err, WR_RPC_E_INTERNAL, "out of memory");
			return -ENOMEM;
		}
		r->fd = -1;
		r->s = s;
		snprintf(r->host, sizeof(r->host), "%s", host);
		r->port = port;
		snprintf(r->name, sizeof(r->name), strchr(host, ':') ?
			 "[%s]:%u" : "%s:%u", host, port);
		r->next = s->otg_remotes;
		s->otg_remotes = r;
	}
	/* One connection per server, whatever number of configs use it: a
	 * config being set beside the one in force acts as the same
	 * session there, which owns the ports both name. */
	rc = peer_gone(r) ? connect_login(s, r, deadline, err) : 0;
	if (rc != 0)
		return rc;
	r->refs++;
	*out = r;
	return 0;
}

int64_t
wr_srv_otg_remote_offset_ns(const struct otg_remote *r)
{
	return r->offset_ns;
}

unsigned int
wr_srv_otg_remote_n_ports(const struct otg_remote *r)
{
	return r->n_ports;
}

uint64_t
wr_srv_otg_remote_delay_ns(const struct otg_remote *r)
{
	return r->delay_ns;
}

const char *
wr_srv_otg_remote_name(const struct otg_remote *r)
{
	return r->name;
}

void
wr_srv_otg_remote_close(struct otg_remote *r)
{
	/* Kept open in the pool: its session keeps the ports for the next
	 * config; wr_srv_otg_remotes_free() closes it at exit. */
	if (r != NULL && r->refs > 0)
		r->refs--;
}

void
wr_srv_otg_remotes_free(struct server *s)
{
	while (s->otg_remotes != NULL) {
		struct otg_remote *r = s->otg_remotes;

		s->otg_remotes = r->next;
		disconnect(r);
		free(r->rbuf);
		free(r);
	}
}

/* Plan port @p i's TX lcores, wherever it is: the lanes a stream there
 * has, sent or received. */
static unsigned int
lanes_of(const struct server *s, const int *const *maps,
	 struct otg_remote *const *rs, unsigned int n, unsigned int i,
	 unsigned int *k)
{
	for (*k = 0; *k < n; (*k)++) {
		int e = maps[*k][i];

		if (e < 0)
			continue;
		return rs[*k] == NULL ? s->e->port_n_lcores[e] :
		       (unsigned int)e < WR_PORTS_MAX ? rs[*k]->tx_lcores[e] : 0;
	}
	return 0;
}

int
wr_srv_otg_lanes_check(const struct server *s, const struct wr_otg_plan *p,
		       const int *const *maps, struct otg_remote *const *rs,
		       unsigned int n, struct wr_otg_err *err)
{
	unsigned int f, i;
	char path[32];
	int rc = 0;

	for (f = 0; f < p->n_flows; f++) {
		const struct wr_otg_flow *fl = &p->flows[f];
		unsigned int kt, kr, tx = lanes_of(s, maps, rs, n, fl->tx_port,
						   &kt);
		bool seen[WR_PORTS_MAX] = { false };

		if (!fl->metrics)
			continue; /* no signature: nothing counted by stream */
		/* The placeholder on each other server is on the first port
		 * there that receives the flow (wr_otg_plan_yaml_of()). */
		for (i = 0; i < p->n_ports && i < 64; i++) {
			unsigned int rx;

			if (!(fl->rx_ports >> i & 1))
				continue;
			rx = lanes_of(s, maps, rs, n, i, &kr);
			if (kr == kt || kr >= n || seen[kr])
				continue;
			seen[kr] = true;
			if (rx >= tx)
				continue;
			snprintf(path, sizeof(path), "flows[%u].tx_rx", f);
			rc = wr_otg_err_add(err, path, "port %s receives it on "
				"another server with %u TX lcores, fewer than its "
				"sending port %s has (%u): a receiver counts a "
				"signature's lane only below its port's lcores "
				"(give the receiving port as many tx_lcores in "
				"that server's profile)", p->ports[i].name, rx,
				p->ports[fl->tx_port].name, tx);
		}
	}
	return rc;
}

double
wr_srv_otg_remote_instant(const struct otg_remote *r, double ours)
{
	return r == NULL ? ours : ours + (double)r->offset_ns / 1e9;
}

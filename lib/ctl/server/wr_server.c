/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server: the epoll loop of `wirerate serve`, its timers and options: the top of the server's files, which it wires together (wr_server_priv.h says their order). */
#include "wr_server_priv.h"
#include "wr_server_otg.h"

RTE_LOG_REGISTER_SUFFIX(wr_server_logtype, server, NOTICE);

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

/* The --otg listener's options (doc/otg.md, "TLS and tokens"): an address
 * that binds and is no other listener's; its token (--otg-token-file,
 * else --token-file's), which any address but the loopback needs unless
 * client certificates may log in; the certificate, key and client CA,
 * loaded now; the remote servers' token (--remote-token-file, else ours). */
static int
otg_check(struct wr_server_opts *o, struct wr_error *err)
{
	int fd, rc;

	o->otg_token[0] = o->remote_token[0] = '\0';
	if (o->otg_host == NULL)
		return 0;
	if ((o->tcp_host != NULL && o->tcp_port == o->otg_port) ||
	    (o->http_host != NULL && o->http_port == o->otg_port))
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--otg",
				    "port %u is %s's too: give the OTG API a "
				    "port of its own", o->otg_port,
				    o->tcp_host != NULL &&
				    o->tcp_port == o->otg_port ? "--listen" :
				    "--http");
	rc = wr_srv_open_tcp("--otg", o->otg_host, o->otg_port, false, &fd, err);
	if (rc != 0)
		return rc;
	if (o->otg_token_file != NULL) {
		rc = wr_auth_token_load(o->otg_token_file, o->otg_token,
					sizeof(o->otg_token), err);
		if (rc != 0 && err != NULL)
			snprintf(err->path, sizeof(err->path),
				 "--otg-token-file");
	} else if (o->token_file != NULL) {
		if (o->token[0] == '\0')
			rc = wr_auth_token_load(o->token_file, o->token,
						sizeof(o->token), err);
		snprintf(o->otg_token, sizeof(o->otg_token), "%s", o->token);
	}
	if (rc != 0)
		return rc;
	if (o->otg_token[0] == '\0' && o->tls_client_ca == NULL &&
	    !loopback_addr(o->otg_host))
		return wr_error_set(err, -EPERM, NULL, 0, 0, "--otg",
				    "%s is not a loopback address: the OTG API "
				    "there needs a token (--otg-token-file "
				    "FILE) or client certificates "
				    "(--tls-client-ca FILE)", o->otg_host);
	if (o->remote_token_file != NULL) {
		rc = wr_auth_token_load(o->remote_token_file, o->remote_token,
					sizeof(o->remote_token), err);
		if (rc != 0 && err != NULL)
			snprintf(err->path, sizeof(err->path),
				 "--remote-token-file");
		if (rc != 0)
			return rc;
	} else {
		snprintf(o->remote_token, sizeof(o->remote_token), "%s",
			 o->otg_token[0] ? o->otg_token : o->token);
	}
	return o->otg_tls ? wr_srv_tls_check(o, err) : 0;
}

int
wr_server_check(struct wr_server_opts *o, struct wr_error *err)
{
	int fd, rc;

	rc = fd_limit(o, err);
	if (rc != 0)
		return rc;

	/* --otg alone is a server too (an OTG endpoint in a container). */
	if (o->unix_path != NULL && o->unix_path[0] == '\0' &&
	    o->tcp_host == NULL && o->otg_host == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, "--socket",
				    "none without --listen: the server would "
				    "listen nowhere");
	if (o->unix_path == NULL || o->unix_path[0] != '\0') {
		rc = wr_srv_unix_path_check(o->unix_path ? o->unix_path :
					    WR_SERVER_SOCK_DEFAULT, err);
		if (rc != 0)
			return rc;
	}
	if (o->tcp_host == NULL) {
		rc = http_check(o, err);
		return rc != 0 ? rc : otg_check(o, err);
	}
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
	if (rc == 0)
		rc = otg_check(o, err);
	return rc;
}

/* ---- the loop ---- */

/* One turn: what epoll reports (within @p timeout_ms; none when requests
 * wait from the last turn), then the requests left over, the traffic's
 * end, the timers.  From the loop, or from a benchmark's wait. */
static void
server_turn(struct server *s, int timeout_ms)
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
		if (evs[i].data.ptr == &s->ofd) {
			wr_srv_conn_accept(s, s->ofd, true, PROTO_OTG);
			continue;
		}
		if (c->fd < 0)
			continue;
		if ((evs[i].events & (EPOLLERR | EPOLLHUP)) && c->in_otg) {
			/* Its OTG request's handler still runs (and turns
			 * this loop): out of epoll, or every turn would see
			 * the hang-up again; its answer then fails and
			 * closes it. */
			epoll_ctl(s->ep, EPOLL_CTL_DEL, c->fd, NULL);
			continue;
		}
		if ((evs[i].events & EPOLLOUT) && !wr_srv_conn_flush(s, c))
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
	wr_srv_frames_tick(s);
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
	if (s->ofd >= 0)
		close(s->ofd);
	wr_srv_tls_free(s);
	if (s->ep >= 0)
		close(s->ep);
	for (i = 0; i < EVENTS_MAX; i++)
		json_decref(s->ev[i]);
	if (s->loaded)
		wr_stream_file_free(&s->f);
	free(s->base_hist);
	for (i = 0; i < WR_PORTS_MAX; i++)
		json_decref(s->base_hosts[i]);
	wr_tcp_read_base_free(&s->base_tcp);
	free(s->source);
	for (i = 0; i < s->n_jobs; i++)
		wr_srv_job_free(s->jobs[i]);
	wr_srv_otg_free(s);
	wr_srv_runs_free(s);
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
	s->handle_line = wr_srv_handle_line;
	s->loop_turn = server_turn;
	s->ufd = s->tfd = s->hfd = s->ofd = -1;
	s->otg_handle = wr_srv_otg_handle;
	s->otg_http = wr_srv_otg_http;
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
	if (rc == 0 && o->otg_host != NULL)
		rc = wr_srv_tls_open(s, err);
	if (rc == 0 && o->otg_host != NULL)
		rc = wr_srv_open_tcp("--otg", o->otg_host, o->otg_port, true,
				     &s->ofd, err);
	if (rc == 0 && (o->unix_path == NULL || o->unix_path[0] != '\0'))
		rc = wr_srv_listen_unix(s, o->unix_path ? o->unix_path :
					WR_SERVER_SOCK_DEFAULT, err);
	if (rc == 0)
		rc = wr_srv_caps_dir(s, err);
	if (rc == 0)
		rc = wr_srv_runs_open(s, err);
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
	if (s->ofd >= 0) {
		ev.data.ptr = &s->ofd;
		epoll_ctl(s->ep, EPOLL_CTL_ADD, s->ofd, &ev);
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
	if (s->ofd >= 0 && s->tls != NULL)
		SRV_LOG(NOTICE, "OTG API at https://%s:%u (%s certificate, "
			"SHA-256 fingerprint %s)%s\n", o->otg_host, o->otg_port,
			o->tls_cert ? o->tls_cert : "a self-signed", s->tls_fp,
			o->otg_token[0] ? " (its token off the loopback)" : "");
	else if (s->ofd >= 0)
		SRV_LOG(NOTICE, "OTG API at http://%s:%u%s\n", o->otg_host,
			o->otg_port, o->otg_token[0] ? " (its token off the "
			"loopback)" : "");
	while (!*stop) {
		server_turn(s, s->state == ST_RUNNING ? TICK_RUN_MS :
				   TICK_IDLE_MS);
		/* A queued benchmark runs from here: its turns serve the
		 * connections while its trials run. */
		if (s->job != NULL)
			wr_srv_job_run(s);
	}
	wr_srv_finish_now(s, "signal", true);
	wr_srv_unbuild(s);
	wr_srv_frames_free(s);
	wr_srv_caps_forget(s);
	server_free(s);
	return 0;
}

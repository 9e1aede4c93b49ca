/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_methods: the JSON-RPC methods of `wirerate serve` on ports, sessions, events and logins, and the dispatch of a request. */
#include "wr_server_priv.h"

/* ---- methods ---- */

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

/* The TSC's calibration (wr_clock_eal.h), as the results' "tsc" writes it. */
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
wr_srv_m_info(struct call *k)
{
	struct server *s = k->s;
	json_t *ports = json_array(), *names = json_array();
	json_t *methods = json_array();
	struct timespec now;
	unsigned int p;

	struct timespec t3;
	json_t *tsc;

	/* Another server's OTG handler takes our clock from this and its
	 * round trip (wr_server_otg_remote.c), as NTP does from a server's
	 * receive and transmit stamps: the middle of the two, so the time
	 * building the reply (tsc_json() reads a file) is on both sides. */
	clock_gettime(CLOCK_REALTIME, &now);
	for (p = 0; p < s->e->n_ports; p++)
		json_array_append_new(ports, port_json(s, p));
	for (p = 0; s->loaded && p < s->f.n_streams; p++)
		json_array_append_new(names, json_string(s->f.streams[p].name));
	for (p = 0; p < WR_RPC_N_METHODS; p++)
		json_array_append_new(methods,
				      json_string(wr_rpc_methods[p].name));
	tsc = tsc_json();
	clock_gettime(CLOCK_REALTIME, &t3);
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:s, s:I, "
			 "s:o, s:o*, s:I}",
		"name", "wirerate", "version", WR_VERSION, "dpdk_version",
		rte_version(), "pid", (int)getpid(), "state",
		wr_srv_state_names[s->state], "session", k->c->sess->name, "ports", ports,
		"streams", names, "api", "wirerate-rpc/1", "last_event",
		(json_int_t)s->ev_seq, "methods", methods, "tsc", tsc,
		"realtime_ns", ((json_int_t)now.tv_sec * 1000000000 + now.tv_nsec +
				(json_int_t)t3.tv_sec * 1000000000 + t3.tv_nsec) / 2);
}

static json_t *
wr_srv_m_ports(struct call *k)
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
			wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_NOTFOUND,
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

/* Whether @p x is a session the caller may resume or replace without its
 * secret or force: no connection acts as it any more (its client went: a
 * script that ended, a console closed) and it was made by the same user
 * (the same uid over the Unix socket, the same token over TCP).  A rerun
 * within the owner timeout then takes its ports back at once (issue 31:
 * "port 0 is owned by session ..." for 30 s). */
static bool
own_stale(const struct call *k, const struct session *x)
{
	return x != NULL && x->n_conns == 0 && x->principal[0] != '\0' &&
	       strcmp(x->principal, k->c->principal) == 0;
}

/* The session a ports.acquire names: the caller's own, one that does not
 * exist yet (made, with a new secret), or another client's, which takes its
 * secret (or none when it is the caller's own stale one: own_stale()).  The caller then acts as it.  @return false (replied) when
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
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS,
				   json_pack("{s:s, s:s}", "param", "session",
					     "expected", "1 to 63 characters, not "
					     "starting with conn-"),
				   "ports.acquire: session: expected 1 to 63 "
				   "characters, not starting with conn- (the "
				   "server's names for connections)");
		return false;
	}
	x = wr_srv_session_find(s, name);
	if (x != NULL && !own_stale(k, x) &&
	    !wr_auth_equal(x->secret, wr_rpc_str(k->req, "secret"))) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_OWNER,
				   json_pack("{s:s}", "session", name),
				   "session \"%s\" is another client's: acting as "
				   "it takes the secret its ports.acquire returned "
				   "(another name starts a session of your own)",
				   name);
		return false;
	}
	if (x == NULL)
		x = wr_srv_session_new(s, name, k->c->principal);
	if (x == NULL) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "out of memory");
		return false;
	}
	wr_srv_conn_join(s, k->c, x);
	return true;
}

static json_t *
wr_srv_m_acquire(struct call *k)
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
		    s->owner[p] != me && !own_stale(k, s->owner[p])) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_OWNER,
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
		wr_srv_port_set_owner(s, p, me);
	}
	/* The secret goes to the session's own connections only. */
	res = json_pack("{s:s, s:s, s:o}", "session", me->name, "secret",
			me->secret, "ports", owned_list(s, me));
	/* Events last: sending them may close a subscriber that does not
	 * read, this one too, and with it its session. */
	json_array_foreach(taken, i, ev)
		wr_srv_event_push(s, "owner_changed", json_incref(ev));
	json_decref(taken);
	return res;
}

static json_t *
wr_srv_m_release(struct call *k)
{
	struct server *s = k->s;
	struct session *me = k->c->sess;
	uint64_t mask;
	unsigned int p;

	if (!port_mask(k, &mask))
		return NULL;
	for (p = 0; p < s->e->n_ports; p++)
		if ((mask & (1ull << p)) && s->owner[p] == me)
			wr_srv_port_set_owner(s, p, NULL);
	return json_pack("{s:s, s:o}", "session", me->name, "ports",
			 owned_list(s, me));
}

static json_t *
wr_srv_m_poll(struct call *k)
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

static json_t *
wr_srv_m_subscribe(struct call *k)
{
	k->c->subscribed = true;
	return json_pack("{s:b, s:I}", "subscribed", 1, "last",
			 (json_int_t)k->s->ev_seq);
}

static json_t *
wr_srv_m_unsubscribe(struct call *k)
{
	k->c->subscribed = false;
	return json_pack("{s:b}", "subscribed", 0);
}

/* ---- logins ---- */

/* auth.login.  Wrong tokens are limited per source address and over all
 * (wr_auth.h): while a limit holds, a login is refused without the token
 * being compared.  Failures are logged with the peer's address, the first
 * ones of a period a line each, the rest in a summary (timers()). */
static json_t *
m_login(struct call *k)
{
	struct server *s = k->s;
	struct conn *c = k->c;
	uint64_t now = wr_srv_now_ms(), wait;

	if (!c->tcp || c->authed)
		return json_pack("{s:b}", "authenticated", 1);
	wait = wr_auth_limit_wait_ms(&s->logins, c->addr, now);
	if (wait > 0) {
		if (wr_auth_limit_failed(&s->logins, c->addr, true, now))
			SRV_LOG(WARNING, "login from %s refused unchecked: "
				"too many failed logins (%.1f s to wait)\n",
				c->peer, (double)wait / 1000.0);
		wr_srv_reply_error(s, c, k->id, WR_RPC_E_AUTH,
				   json_pack("{s:f}", "retry_after_s",
					     (double)wait / 1000.0),
				   "too many failed logins: retry in %.1f s",
				   (double)wait / 1000.0);
		return NULL;
	}
	/* The console's WebSocket: its listener's token (--otg's there). */
	if (!wr_auth_equal(c->proto != PROTO_WS ? s->o->token : c->otg ?
			   s->o->otg_token : s->o->http_token,
			   wr_rpc_str(k->req, "token"))) {
		if (wr_auth_limit_failed(&s->logins, c->addr, false, now))
			SRV_LOG(WARNING, "failed login from %s: wrong token\n",
				c->peer);
		wr_srv_reply_error(s, c, k->id, WR_RPC_E_AUTH, NULL, "wrong token");
		return NULL;
	}
	wr_auth_limit_passed(&s->logins, c->addr);
	/* Who it is from now on: whoever holds that token. */
	snprintf(c->principal, sizeof(c->principal), "%s",
		 c->proto == PROTO_WS && c->otg ? "otg-token" :
		 c->proto == PROTO_WS && strcmp(s->o->http_token,
						s->o->token) != 0 ?
		 "http-token" : "token");
	if (!wr_srv_promote(s, c)) {
		wr_srv_reply_error(s, c, k->id, WR_RPC_E_STATE, NULL,
				   "the server has its --max-clients (%u) clients: "
				   "try again later", s->o->max_clients);
		return NULL;
	}
	return json_pack("{s:b}", "authenticated", 1);
}

void
wr_srv_logins_summary(struct server *s, uint64_t now)
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

/* auth.login: a wrong token closes the connection (m_login() says so by
 * answering nothing). */
static json_t *
wr_srv_m_login(struct call *k)
{
	json_t *res = m_login(k);

	k->close = res == NULL;
	return res;
}

/* Each method's handler, indexed by enum wr_rpc_method and expanded from the
 * method list itself (WR_RPC_METHODS names wr_srv_m_<handler>): a method
 * added there without a handler here does not compile. */
typedef json_t *wr_srv_method_fn(struct call *k);
#define WR_SRV_HANDLER_(e, n, h, ...) [WR_RPC_##e] = wr_srv_m_##h,
static wr_srv_method_fn *const handlers[WR_RPC_N_METHODS] = {
	WR_RPC_METHODS(WR_SRV_HANDLER_)
};
#undef WR_SRV_HANDLER_

json_t *
wr_srv_method_run(struct call *k)
{
	return handlers[k->req->method](k);
}

/* Dispatch one line.  @return false when the connection must close. */
bool
wr_srv_handle_line(struct server *s, struct conn *c, const char *line, size_t len)
{
	struct wr_rpc_error err;
	struct wr_rpc_req req;
	struct call k;
	json_t *id = NULL, *res = NULL;
	bool ok = true, replied_err;

	if (wr_rpc_parse(line, len, &req, &id, &err) != 0) {
		ok = wr_srv_conn_send(s, c, wr_rpc_reply_error(id, &err, NULL));
		json_decref(id);
		return ok;
	}
	json_decref(id);
	k.s = s;
	k.c = c;
	k.req = &req;
	k.id = req.id;
	k.close = false;
	/* JSON-RPC 2.0: a notification gets no reply, not even an error. */
	c->quiet = req.id == NULL;
	if (c->tcp && !c->authed && req.method != WR_RPC_LOGIN) {
		ok = wr_srv_reply_error(s, c, req.id, WR_RPC_E_AUTH, NULL,
					"TCP clients call auth.login with the "
					"server's token first");
		c->quiet = false;
		wr_rpc_req_free(&req);
		return ok;
	}
	res = handlers[req.method](&k);
	if (k.close) {
		c->quiet = false;
		wr_rpc_req_free(&req);
		return false;
	}
	/* A method that returns NULL replied itself (an error) or defers. */
	replied_err = res == NULL;
	if (!replied_err && req.id != NULL)
		ok = wr_srv_conn_send(s, c, wr_rpc_reply_result(req.id, res));
	else
		json_decref(res);
	c->quiet = false;
	wr_rpc_req_free(&req);
	return ok;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_tcp: the JSON-RPC methods of `wirerate serve` on the stream file's stateful classes (tcp.list, tcp.stats, tcp.set), stats.get's "tcp", and when a run with them is over. */
#include "wr_server_priv.h"
#include "wr_tcp_read.h"

/* Rates above this are a mistake (connections a second: dperf's 4 M a
 * core times a hundred cores). */
#define TCP_RATE_MAX 1e9

static bool
tcp_built(const struct server *s)
{
	return s->built && wr_session_tcp_n(&s->sess) > 0;
}

json_t *
wr_srv_tcp_json(struct server *s, bool hist)
{
	if (!tcp_built(s))
		return NULL;
	return wr_tcp_read_json(&s->sess, s->e->n_ports, hist,
				s->have_base ? &s->base_tcp : NULL);
}

bool
wr_srv_tcp_running(struct server *s)
{
	return tcp_built(s) && !wr_session_tcp_done(&s->sess);
}

/* The loaded file has tcp: classes.  @return false (replied) if not. */
static bool
need_classes(struct call *k)
{
	struct server *s = k->s;

	if (s->loaded && s->f.tcp.n > 0)
		return true;
	wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, s->loaded ?
			   "the loaded stream file has no tcp: classes" :
			   "no streams loaded: streams.load a file with tcp: "
			   "classes first");
	return false;
}

/* Class @p name of the loaded file.  @return its index, or -1 (replied). */
static int
class_of(struct call *k, const char *name)
{
	int i = wr_tcp_specs_find(&k->s->f.tcp, name);

	if (i < 0)
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_NOTFOUND,
				   json_pack("{s:s}", "class", name),
				   "no tcp class named \"%.64s\"", name);
	return i;
}

static json_t *
end_json(const struct wr_tcp_end *e, bool client)
{
	json_t *o, *a;
	uint32_t i;

	if (!e->present && (client || e->n_addr == 0))
		return json_null();
	if (client)
		return json_pack("{s:s, s:i, s:[i, i]}", "hosts", e->hosts,
				 "port", e->port, "sport", e->sport_lo,
				 e->sport_hi);
	if (e->present)
		return json_pack("{s:s, s:i, s:i}", "hosts", e->hosts, "port",
				 e->port, "dport", e->dport);
	/* A real server: its addresses, as the stream file wrote them. */
	a = json_array();
	for (i = 0; i < e->n_addr; i++) {
		char buf[INET6_ADDRSTRLEN];
		__uint128_t v = e->addr[i];

		if (v >> 32 == 0) {
			struct in_addr x = { .s_addr = htonl((uint32_t)v) };

			inet_ntop(AF_INET, &x, buf, sizeof(buf));
		} else {
			struct in6_addr x;
			int b;

			for (b = 0; b < 16; b++)
				x.s6_addr[b] = (uint8_t)(v >> (8 * (15 - b)));
			inet_ntop(AF_INET6, &x, buf, sizeof(buf));
		}
		json_array_append_new(a, json_string(buf));
	}
	o = json_pack("{s:o, s:i}", "addr", a, "dport", e->dport);
	return o;
}

json_t *
wr_srv_m_tcp_list(struct call *k)
{
	struct server *s = k->s;
	json_t *a = json_array();
	uint32_t i;

	for (i = 0; s->loaded && i < s->f.tcp.n; i++) {
		const struct wr_tcp_class *c = &s->f.tcp.classes[i];
		json_t *o = json_pack("{s:s, s:o, s:o, s:i, s:f, s:f, s:I, s:I, "
				      "s:f, s:s}", "name", c->name,
				      "client", end_json(&c->client, true),
				      "server", end_json(&c->server, false),
				      "ip", c->ip,
				      "rate", (double)c->rate_milli / 1000.0,
				      "ramp", (double)c->ramp_ns / 1e9,
				      "concurrency", (json_int_t)c->concurrency,
				      "count", (json_int_t)c->count,
				      "duration", (double)c->duration_ns / 1e9,
				      "kind", c->is_http ? "http" : "program");
		int j = tcp_built(s) ? wr_session_tcp_find(&s->sess, c->name) : -1;

		/* While it runs (or ran): what tcp.set asked since. */
		if (o != NULL && j >= 0) {
			struct wr_tcp_class_stats *st = calloc(1, sizeof(*st));

			if (st != NULL && wr_session_tcp_class(&s->sess,
					(unsigned int)j, false, st) == 0) {
				json_object_set_new(o, "rate_now", json_real(
					(double)st->rate_milli / 1000.0));
				json_object_set_new(o, "concurrency_now",
					json_integer(st->concurrency));
				json_object_set_new(o, "stopped",
						    json_boolean(st->stopped));
			}
			free(st);
		}
		json_array_append_new(a, o);
	}
	return json_pack("{s:o}", "classes", a);
}

json_t *
wr_srv_m_tcp_stats(struct call *k)
{
	struct server *s = k->s;
	json_t *names = wr_rpc_get(k->req, "classes"), *v, *res, *a, *x;
	bool hist = wr_rpc_bool(k->req, "histogram", false);
	size_t i;

	if (!need_classes(k))
		return NULL;
	json_array_foreach(names, i, v)
		if (class_of(k, json_string_value(v)) < 0)
			return NULL;
	if (!tcp_built(s))
		return json_pack("{s:s, s:[], s:[]}", "state",
				 wr_srv_state_names[s->state], "classes",
				 "ports");
	res = wr_srv_tcp_json(s, hist);
	if (res == NULL) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "out of memory");
		return NULL;
	}
	json_object_set_new(res, "state",
			    json_string(wr_srv_state_names[s->state]));
	if (names == NULL)
		return res;
	/* Only the classes named, in the order of the file. */
	a = json_object_get(res, "classes");
	for (i = json_array_size(a); i-- > 0;) {
		bool want = false;
		size_t j;

		x = json_array_get(a, i);
		json_array_foreach(names, j, v)
			want = want || strcmp(json_string_value(v),
				json_string_value(json_object_get(x, "name"))) == 0;
		if (!want)
			json_array_remove(a, i);
	}
	return res;
}

static bool
params_error(struct call *k, const char *param, const char *expected,
	     const char *msg)
{
	return wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS,
				  json_pack("{s:s, s:s}", "param", param,
					    "expected", expected),
				  "tcp.set: %s", msg);
}

json_t *
wr_srv_m_tcp_set(struct call *k)
{
	struct server *s = k->s;
	const char *name = wr_rpc_str(k->req, "class");
	double rate = wr_rpc_num(k->req, "rate", 0);
	struct wr_tcp_ctl c;
	struct wr_error err;
	int i, j, rc;

	if (wr_srv_bench_busy(k) || !need_classes(k))
		return NULL;
	i = class_of(k, name);
	if (i < 0 || !wr_srv_owns(s, k->c, k->id, wr_srv_tcp_ports_of(s, i)))
		return NULL;
	memset(&c, 0, sizeof(c));
	c.set_rate = wr_rpc_has(k->req, "rate");
	c.set_concurrency = wr_rpc_has(k->req, "concurrency");
	c.pause = wr_rpc_bool(k->req, "pause", false);
	c.resume = wr_rpc_bool(k->req, "resume", false);
	if (!c.set_rate && !c.set_concurrency && !c.pause && !c.resume) {
		params_error(k, "rate", "one of rate, concurrency, pause: true, "
			     "resume: true", "nothing to change: give rate, "
			     "concurrency, pause: true or resume: true");
		return NULL;
	}
	if (c.pause && c.resume) {
		params_error(k, "pause", "pause or resume, not both",
			     "pause and resume at once");
		return NULL;
	}
	/* 0 is what the stream file's rate: 0 means: as fast as the
	 * concurrency allows. */
	if (c.set_rate && rate > TCP_RATE_MAX) {
		params_error(k, "rate", "connections a second, 0 (unpaced) to "
			     "1e9", "rate: at most 1e9 connections a second");
		return NULL;
	}
	c.rate_milli = (uint64_t)(rate * 1000.0 + 0.5);
	if (c.set_concurrency &&
	    (wr_rpc_uint(k->req, "concurrency", 0) == 0 ||
	     wr_rpc_uint(k->req, "concurrency", 0) > UINT32_MAX)) {
		params_error(k, "concurrency", "connections open at once, "
			     "at least 1", "concurrency: at least 1 "
			     "connection");
		return NULL;
	}
	c.concurrency = (uint32_t)wr_rpc_uint(k->req, "concurrency", 0);
	if (s->state != ST_RUNNING || !tcp_built(s)) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "no stateful run (state %s): traffic.start "
				   "first", wr_srv_state_names[s->state]);
		return NULL;
	}
	j = wr_session_tcp_find(&s->sess, name);
	if (j < 0) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_NOTFOUND,
				   json_pack("{s:s}", "class", name),
				   "tcp class \"%.64s\" does not run here", name);
		return NULL;
	}
	c.class_idx = (unsigned int)j;
	wr_error_clear(&err);
	rc = wr_session_tcp_ctl(&s->sess, (unsigned int)j, &c, &err);
	if (rc != 0) {
		wr_srv_reply_error(s, k->c, k->id, rc == -EINVAL ?
				   WR_RPC_E_PARAMS : rc == -ENOENT ?
				   WR_RPC_E_NOTFOUND : WR_RPC_E_ENGINE,
				   json_pack("{s:s, s:s, s:i}", "class", name,
					     "param", c.set_concurrency ?
					     "concurrency" : c.set_rate ? "rate" :
					     "class", "errno", -rc),
				   "tcp.set: class \"%s\": %s", name,
				   err.msg[0] != '\0' ? err.msg : strerror(-rc));
		return NULL;
	}
	wr_srv_event_push(s, "tcp_set", json_pack("{s:s}", "class", name));
	return json_pack("{s:s, s:o, s:o, s:b, s:b}", "class", name,
			 "rate", c.set_rate ? json_real(rate) : json_null(),
			 "concurrency", c.set_concurrency ?
			 json_integer(c.concurrency) : json_null(),
			 "pause", c.pause, "resume", c.resume);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_hosts: the JSON-RPC methods of `wirerate serve` on emulated hosts (hosts.list, hosts.counters), and the "hosts" of stats.get's port rows. */
#include "wr_server_priv.h"
#include "wr_hosts_read.h"

static struct wr_host_svc *
svc_of(const struct server *s, unsigned int port)
{
	return s->built && s->sess.hosts != NULL && port < WR_PORTS_MAX &&
	       s->sess.hosts_port[port] ? s->sess.hosts : NULL;
}

static const struct wr_host_specs *
specs_of(const struct server *s)
{
	return s->loaded ? &s->f.hosts : NULL;
}

static bool
reply_timeout(struct call *k, unsigned int port)
{
	return wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_ENGINE,
				  json_pack("{s:i, s:i}", "port", port, "errno",
					    ETIMEDOUT),
				  "the hosts' service of port %u did not answer "
				  "within %u ms", port, WR_HOST_SVC_READ_MS);
}

/* A port named by a request: one of the server's. */
static bool
port_ok(struct call *k, const char *param, json_int_t p)
{
	if (p >= 0 && p < (json_int_t)k->s->e->n_ports)
		return true;
	wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS,
			   json_pack("{s:s, s:s, s:I}", "param", param,
				     "expected", "a port of this server",
				     "port", (json_int_t)p),
			   "%s: port %lld does not exist: this server has %u "
			   "port%s", param, (long long)p, k->s->e->n_ports,
			   k->s->e->n_ports == 1 ? "" : "s");
	return false;
}

json_t *
wr_srv_m_hosts_list(struct call *k)
{
	struct server *s = k->s;
	unsigned int port = (unsigned int)wr_rpc_uint(k->req, "port", 0);
	const char *state = wr_rpc_str(k->req, "state");
	struct wr_hosts_query q = {
		.group = wr_rpc_str(k->req, "group"),
		.offset = wr_rpc_uint(k->req, "offset", 0),
		.limit = wr_rpc_uint(k->req, "limit", WR_HOSTS_VIEW_LIMIT_DEFAULT),
	};
	const struct wr_hosts_snap *v = NULL;
	struct wr_hosts_page pg;
	struct wr_hosts_read *h;
	struct wr_error err;
	json_t *res = NULL;
	uint32_t first, total = 0;
	int rc;

	if (!port_ok(k, "port", (json_int_t)wr_rpc_uint(k->req, "port", 0)))
		return NULL;
	if (state != NULL) {
		q.has_state = true;
		if (wr_host_view_state_parse(state, &q.state) != 0) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS,
					   json_pack("{s:s, s:s}", "param", "state",
						     "expected", "idle, pending, up "
						     "or failed"),
					   "state: expected idle, pending, up or "
					   "failed, got \"%.32s\"", state);
			return NULL;
		}
	}
	wr_error_clear(&err);
	rc = wr_hosts_view_begin(&pg, specs_of(s),
				 (uint16_t)port, &q, &err);
	if (rc != 0) {
		wr_srv_reply_error(s, k->c, k->id, rc == -ENOENT ?
				   WR_RPC_E_NOTFOUND : rc == -ENOMEM ?
				   WR_RPC_E_INTERNAL : WR_RPC_E_PARAMS,
				   json_pack("{s:s}", "param", err.path),
				   "hosts.list: %s", rc == -ENOMEM ?
				   "out of memory" : err.msg);
		return NULL;
	}
	h = wr_hosts_read_new();
	if (h == NULL) {
		wr_hosts_view_abort(&pg);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "out of memory");
		return NULL;
	}
	/* Unfiltered: the page's range alone; filtered: every host, in
	 * order (the page takes what matches at its offset). */
	first = wr_hosts_view_filtered(&pg) ? 0 :
		q.offset > UINT32_MAX ? UINT32_MAX : (uint32_t)q.offset;
	do {
		uint32_t want = wr_hosts_view_filtered(&pg) ?
			WR_HOSTS_READ_CHUNK : (uint32_t)q.limit;

		rc = wr_hosts_read(h, svc_of(s, port), specs_of(s), port, first,
				   want, false, &v);
		if (rc == 0)
			rc = wr_hosts_view_add(&pg, v);
		total = v->n_total;
		first += v->n;
	} while (rc == 0 && wr_hosts_view_filtered(&pg) && v->n > 0 &&
		 first < total);
	wr_hosts_read_free(h);
	if (rc == -ETIMEDOUT) {
		wr_hosts_view_abort(&pg);
		reply_timeout(k, port);
		return NULL;
	}
	if (rc != 0) {
		wr_hosts_view_abort(&pg);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "out of memory");
		return NULL;
	}
	rc = wr_hosts_view_end(&pg, total, &res, &err);
	if (rc != 0) {
		wr_srv_reply_error(s, k->c, k->id, rc == -ENOMEM ?
				   WR_RPC_E_INTERNAL : WR_RPC_E_PARAMS,
				   json_pack("{s:s, s:s}", "param", err.path,
					     "expected", "at most the hosts matched"),
				   "hosts.list: %s", rc == -ENOMEM ?
				   "out of memory" : err.msg);
		return NULL;
	}
	return res;
}

/* Port entry @p j (wr_hosts_view_counters()'s) since stats.clear: its
 * counters less the baseline, the gauges as they are.  The service's
 * counters are its thread's and never written from here. */
static void
hosts_sub(const struct server *s, json_t *j)
{
	json_int_t p = json_integer_value(json_object_get(j, "port"));
	json_t *c = json_object_get(j, "counters"), *v;
	const char *name;

	if (!s->have_base || p < 0 || p >= WR_PORTS_MAX ||
	    s->base_hosts[p] == NULL)
		return;
	json_object_foreach(c, name, v) {
		json_int_t x = json_integer_value(v), b;

		if (wr_hosts_counter_is_gauge(name))
			continue;
		b = json_integer_value(json_object_get(s->base_hosts[p], name));
		json_integer_set(v, x > b ? x - b : 0);
	}
}

int
wr_srv_hosts_base(struct server *s, json_t *base[WR_PORTS_MAX],
		  unsigned int *port)
{
	unsigned int p, q;
	json_t *j;
	int rc;

	for (p = 0; p < WR_PORTS_MAX; p++)
		base[p] = NULL;
	for (p = 0; p < s->e->n_ports && p < WR_PORTS_MAX; p++) {
		if (svc_of(s, p) == NULL)
			continue;
		j = wr_hosts_read_counters(svc_of(s, p), specs_of(s), p, &rc);
		if (j == NULL) {
			for (q = 0; q < p; q++) {
				json_decref(base[q]);
				base[q] = NULL;
			}
			*port = p;
			return rc;
		}
		base[p] = json_incref(json_object_get(j, "counters"));
		json_decref(j);
	}
	return 0;
}

json_t *
wr_srv_hosts_json(struct server *s)
{
	json_t *a, *j;
	size_t i;

	if (!s->built || s->sess.hosts == NULL)
		return NULL;
	a = wr_hosts_read_json(s->sess.hosts, specs_of(s), s->e->n_ports);
	json_array_foreach(a, i, j)
		hosts_sub(s, j);
	return a;
}

json_t *
wr_srv_m_hosts_counters(struct call *k)
{
	struct server *s = k->s;
	json_t *ports = wr_rpc_get(k->req, "ports"), *a, *v, *j;
	bool want[WR_PORTS_MAX] = { false };
	unsigned int p;
	size_t i;
	int rc;

	json_array_foreach(ports, i, v) {
		if (!port_ok(k, "ports", json_integer_value(v)))
			return NULL;
		want[json_integer_value(v)] = true;
	}
	a = json_array();
	for (p = 0; p < s->e->n_ports; p++) {
		/* Asked for: every port named; else those with hosts. */
		if (ports != NULL ? !want[p] : svc_of(s, p) == NULL)
			continue;
		j = wr_hosts_read_counters(svc_of(s, p), specs_of(s), p, &rc);
		if (j == NULL) {
			json_decref(a);
			if (rc == -ETIMEDOUT)
				reply_timeout(k, p);
			else
				wr_srv_reply_error(s, k->c, k->id,
						   WR_RPC_E_INTERNAL, NULL,
						   "out of memory");
			return NULL;
		}
		hosts_sub(s, j);
		json_array_append_new(a, j);
	}
	return json_pack("{s:o}", "ports", a);
}

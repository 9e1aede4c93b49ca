/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_hosts: the JSON-RPC methods of `wirerate serve` on emulated hosts (hosts.list, hosts.counters), and the "hosts" of stats.get's port rows. */
#include "wr_server_priv.h"
#include "wr_host_svc.h"
#include "wr_hosts_view.h"

/*
 * The hosts are the service's (wr_host_svc.h): the server reads copies,
 * a range of a port's table at a time, each read answered by one pass of
 * the service.  HOSTS_CHUNK hosts a read is about 1.2 MB copied in a
 * pass: at 1 M frames a second the service's ring (8 ms) does not fill
 * meanwhile.  A filtered page or the counts by state scan the whole table
 * so: 100,000 hosts are 49 reads.
 */
#define HOSTS_CHUNK 2048u
#define HOSTS_COUNTERS_MAX 256u

/* The buffers of a read, and the copy as wr_hosts_view reads it. */
struct hosts_read {
	struct wr_host_svc_req r;
	struct wr_host_svc_host *buf;
	struct wr_host *hosts;
	const char **states;
	struct wr_host_svc_counter ctrs[HOSTS_COUNTERS_MAX];
	struct wr_hosts_ctr vctrs[HOSTS_COUNTERS_MAX];
	struct wr_hosts_snap snap;
};

static struct wr_host_svc *
svc_of(const struct server *s, unsigned int port)
{
	return s->built && s->sess.hosts != NULL && port < WR_PORTS_MAX &&
	       s->sess.hosts_port[port] ? s->sess.hosts : NULL;
}

static struct hosts_read *
read_new(void)
{
	struct hosts_read *h = calloc(1, sizeof(*h));

	if (h == NULL)
		return NULL;
	h->buf = calloc(HOSTS_CHUNK, sizeof(*h->buf));
	h->hosts = calloc(HOSTS_CHUNK, sizeof(*h->hosts));
	h->states = calloc((size_t)HOSTS_CHUNK * (WR_HOST_PROTO__COUNT + 1),
			   sizeof(*h->states));
	if (h->buf == NULL || h->hosts == NULL || h->states == NULL) {
		free(h->buf);
		free(h->hosts);
		free(h->states);
		free(h);
		return NULL;
	}
	return h;
}

static void
read_free(struct hosts_read *h)
{
	if (h == NULL)
		return;
	free(h->buf);
	free(h->hosts);
	free(h->states);
	free(h);
}

/*
 * Copy hosts [first, first + max) of @p port (max 0: none) and, with
 * @p counters, its counters, into @p h->snap.  A port without hosts is an
 * empty copy.  @return 0, -ETIMEDOUT (the service did not answer).
 */
static int
read_hosts(struct server *s, unsigned int port, uint32_t first, uint32_t max,
	   bool counters, struct hosts_read *h)
{
	struct wr_host_svc *svc = svc_of(s, port);
	struct wr_hosts_snap *v = &h->snap;
	uint32_t i, m;
	int rc;

	memset(&h->r, 0, sizeof(h->r));
	memset(v, 0, sizeof(*v));
	v->port = (uint16_t)port;
	v->specs = s->loaded ? &s->f.hosts : NULL;
	v->first = first;
	v->hosts = h->hosts;
	v->states = h->states;
	v->ctrs = h->vctrs;
	if (svc == NULL)
		return 0;
	h->r.port = port;
	h->r.first = first;
	h->r.max_hosts = max < HOSTS_CHUNK ? max : HOSTS_CHUNK;
	h->r.hosts = h->r.max_hosts > 0 ? h->buf : NULL;
	h->r.max_counters = counters ? HOSTS_COUNTERS_MAX : 0;
	h->r.counters = counters ? h->ctrs : NULL;
	rc = wr_host_svc_read(svc, &h->r);
	if (rc == -ENOENT)
		return 0;
	if (rc != 0)
		return rc;
	v->now_ns = h->r.now_ns;
	v->n_total = h->r.n_total;
	v->n = h->r.n_hosts;
	for (i = 0; i < v->n; i++) {
		h->hosts[i] = h->buf[i].h;
		for (m = 0; m < WR_HOST_PROTO__COUNT; m++)
			h->states[(size_t)i * WR_HOST_PROTO__COUNT + m] =
				h->buf[i].proto_state[m];
	}
	v->n_ctrs = h->r.n_counters;
	for (i = 0; i < v->n_ctrs; i++) {
		snprintf(h->vctrs[i].name, sizeof(h->vctrs[i].name), "%s",
			 h->ctrs[i].name);
		h->vctrs[i].value = h->ctrs[i].value;
	}
	return 0;
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
	struct wr_hosts_page pg;
	struct hosts_read *h;
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
	rc = wr_hosts_view_begin(&pg, s->loaded ? &s->f.hosts : NULL,
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
	h = read_new();
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
		uint32_t want = wr_hosts_view_filtered(&pg) ? HOSTS_CHUNK :
			(uint32_t)q.limit;

		rc = read_hosts(s, port, first, want, false, h);
		if (rc == 0)
			rc = wr_hosts_view_add(&pg, &h->snap);
		total = h->snap.n_total;
		first += h->snap.n;
	} while (rc == 0 && wr_hosts_view_filtered(&pg) && h->snap.n > 0 &&
		 first < total);
	read_free(h);
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

/* Port @p port's hosts counted by state (every host read) and its
 * counters: hosts.counters' entry.  NULL with *rc set on failure. */
static json_t *
port_counters(struct server *s, unsigned int port, int *rc)
{
	uint32_t count[WR_HOST_VIEW__COUNT] = { 0 }, c[WR_HOST_VIEW__COUNT];
	struct hosts_read *h = read_new();
	struct wr_hosts_snap first;
	uint32_t at = 0, i;
	json_t *j;

	*rc = -ENOMEM;
	if (h == NULL)
		return NULL;
	/* The counters with the first chunk; the states of every chunk. */
	*rc = read_hosts(s, port, 0, HOSTS_CHUNK, true, h);
	first = h->snap;
	while (*rc == 0) {
		wr_hosts_view_count(&h->snap, c);
		for (i = 0; i < WR_HOST_VIEW__COUNT; i++)
			count[i] += c[i];
		at += h->snap.n;
		if (h->snap.n == 0 || at >= first.n_total)
			break;
		*rc = read_hosts(s, port, at, HOSTS_CHUNK, false, h);
	}
	if (*rc != 0) {
		read_free(h);
		return NULL;
	}
	/* wr_hosts_view_counters() counts the copy it is given: give it
	 * none and set the whole table's counts. */
	first.n = 0;
	first.ctrs = h->vctrs;
	j = wr_hosts_view_counters(&first);
	read_free(h);
	if (j == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < WR_HOST_VIEW__COUNT; i++)
		json_object_set_new(j, wr_host_view_state_names[i],
				    json_integer(count[i]));
	*rc = 0;
	return j;
}

bool
wr_srv_hosts_any(const struct server *s)
{
	return s->built && s->sess.hosts != NULL;
}

json_t *
wr_srv_hosts_port_json(struct server *s, unsigned int port)
{
	json_t *j;
	int rc;

	if (svc_of(s, port) == NULL)
		return NULL;
	j = port_counters(s, port, &rc);
	if (j != NULL)
		json_object_del(j, "port");
	return j;
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
		j = port_counters(s, p, &rc);
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
		json_array_append_new(a, j);
	}
	return json_pack("{s:o}", "ports", a);
}

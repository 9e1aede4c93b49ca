/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg: the OTG endpoints of `wirerate serve` (transport-free): a request routed; a config checked, planned and loaded on its servers with the JSON-RPC methods themselves (wr_server_otg_run.c). */
#include "wr_server_otg_priv.h"

static void
targets_close(struct srv_otg *o)
{
	unsigned int k;

	for (k = 0; k < o->n_targets; k++)
		if (o->t[k].r != NULL)
			wr_srv_otg_remote_close(o->t[k].r);
	o->n_targets = 0;
}

static void
otg_clear(struct srv_otg *o)
{
	targets_close(o);
	if (o->have_plan)
		wr_otg_plan_free(&o->plan);
	memset(&o->plan, 0, sizeof(o->plan));
	o->have_plan = false;
	free(o->tx);
	o->tx = NULL;
	free(o->fkept);
	o->fkept = NULL;
	memset(o->pkept, 0, sizeof(o->pkept));
}

void
wr_srv_otg_free(struct server *s)
{
	wr_srv_otg_remotes_free(s);
	if (s->otg == NULL)
		return;
	otg_clear(s->otg);
	free(s->otg);
	s->otg = NULL;
}

/* The Linux interface of an af_packet/AF_XDP port: its --vdev's iface=. */
static void
port_iface(const struct wr_engine *e, const char *device, char *out,
	   size_t len)
{
	unsigned int i, n = strlen(device);

	out[0] = '\0';
	for (i = 0; e->cfg != NULL && i < e->cfg->n_eal_args; i++) {
		const char *a = e->cfg->eal_args[i], *v;

		if (strncmp(a, "--vdev=", 7) == 0)
			a += 7;
		else if (strcmp(a, "--vdev") == 0 && i + 1 < e->cfg->n_eal_args)
			a = e->cfg->eal_args[++i];
		else
			continue;
		if (strncmp(a, device, n) != 0 || (a[n] != ',' && a[n] != '\0'))
			continue;
		v = strstr(a, ",iface=");
		if (v != NULL)
			snprintf(out, len, "%.*s", (int)strcspn(v + 7, ","), v + 7);
		return;
	}
}

/* What a config may ask of this server's ports (locations, layer1). */
static void
env_fill(struct server *s, struct wr_otg_env *env)
{
	unsigned int p;

	memset(env, 0, sizeof(*env));
	env->n_ports = s->e->n_ports;
	for (p = 0; p < s->e->n_ports; p++) {
		const struct wr_port *pt = &s->e->ports[p];
		struct wr_otg_port_env *x = &env->ports[p];
		struct rte_eth_dev_info info;
		struct rte_eth_link link;
		uint16_t mtu = 0;

		snprintf(x->device, sizeof(x->device), "%s", pt->device);
		port_iface(s->e, pt->device, x->iface, sizeof(x->iface));
		memcpy(x->mac, pt->mac.addr_bytes, 6);
		memset(&link, 0, sizeof(link));
		x->speed_mbps = rte_eth_link_get_nowait(pt->port_id, &link) == 0 &&
			link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
			link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN ?
			link.link_speed : pt->link_speed_mbps;
		if (rte_eth_dev_get_mtu(pt->port_id, &mtu) == 0)
			x->mtu = mtu;
		if (rte_eth_dev_info_get(pt->port_id, &info) == 0)
			x->mtu_max = info.max_mtu;
		x->promisc_ok = rte_eth_promiscuous_get(pt->port_id) >= 0;
		x->tx_ok = s->e->port_n_lcores[p] > 0;
		x->rx_ok = s->e->port_n_rx[p] > 0;
	}
	env->remote_ok = true;
}

/* The servers plan @p p runs on: this one (t[0]) and one per remote
 * HOST:PORT its locations name, each port mapped there. */
static int
targets_build(struct server *s, const struct wr_otg_plan *p, struct srv_otg *n,
	      struct wr_otg_err *e)
{
	unsigned int i, k;

	n->n_targets = 1;
	memset(&n->t[0], 0, sizeof(n->t[0]));
	snprintf(n->t[0].name, sizeof(n->t[0].name), "this server");
	for (i = 0; i < WR_PORTS_MAX; i++)
		n->t[0].map[i] = -1;
	for (i = 0; i < p->n_ports; i++) {
		const struct wr_otg_loc *l = &p->ports[i].loc;
		char name[280], path[32];
		struct wr_rpc_error err;

		if (!l->remote) {
			n->t[0].map[i] = (int)l->index;
			n->t[0].has_ports = true;
			continue;
		}
		snprintf(name, sizeof(name), strchr(l->host, ':') ? "[%s]:%u" :
			 "%s:%u", l->host, l->port);
		for (k = 1; k < n->n_targets; k++)
			if (strcmp(n->t[k].name, name) == 0)
				break;
		snprintf(path, sizeof(path), "ports[%u].location", i);
		if (k == n->n_targets) {
			struct otg_target *t = &n->t[k];
			unsigned int j;

			if (k == OTG_TARGETS_MAX)
				return wr_otg_err_add(e, path, "more than %u servers "
						      "in one config", OTG_TARGETS_MAX);
			memset(t, 0, sizeof(*t));
			for (j = 0; j < WR_PORTS_MAX; j++)
				t->map[j] = -1;
			snprintf(t->name, sizeof(t->name), "%s", name);
			memset(&err, 0, sizeof(err));
			if (wr_srv_otg_remote_open(s, l->host, l->port,
						   OTG_REMOTE_OPEN_MS, &t->r,
						   &err) != 0)
				return wr_otg_err_add(e, path, "%s: %s", name,
						      err.message);
			n->n_targets++;
		}
		if (l->index >= wr_srv_otg_remote_n_ports(n->t[k].r))
			return wr_otg_err_add(e, path, "%s has %u ports: no port "
					      "%u there", name,
					      wr_srv_otg_remote_n_ports(n->t[k].r),
					      l->index);
		n->t[k].map[i] = (int)l->index;
		n->t[k].has_ports = true;
	}
	/* multi: a flow's lanes counted where it arrives. */
	{
		const int *maps[OTG_TARGETS_MAX];
		struct otg_remote *rs[OTG_TARGETS_MAX];

		for (k = 0; k < n->n_targets; k++) {
			maps[k] = n->t[k].map;
			rs[k] = n->t[k].r;
		}
		return wr_srv_otg_lanes_check(s, p, maps, rs, n->n_targets, e);
	}
}

/* ---- POST /config ---- */

/* What each target had loaded, to put back when the new config fails. */
struct prev_load {
	bool loaded;                 /* the new config was loaded there */
	json_t *yaml;                /* its source before (NULL: nothing) */
};

static void
load_undo(struct server *s, struct conn *c, struct srv_otg *n,
	  struct prev_load *pv)
{
	struct wr_otg_err ignore;
	unsigned int k;
	json_t *res;

	wr_otg_err_init(&ignore);
	for (k = 0; k < n->n_targets; k++) {
		if (!pv[k].loaded)
			continue;
		if (pv[k].yaml != NULL)
			wr_srv_otg_tcall(s, c, &n->t[k], "streams.load", json_pack(
				"{s:O, s:s}", "yaml", pv[k].yaml, "name", "otg"),
				&res, &ignore);
		else
			wr_srv_otg_tcall(s, c, &n->t[k], "streams.remove", NULL,
					 &res, &ignore);
		json_decref(res);
	}
	wr_otg_err_free(&ignore);
}

/* Each port's layer1 (mtu, promiscuous) on this server; the plan checked
 * them against what the device allows.  A remote port's: refused (no
 * method sets them there). */
static int
layer1_apply(struct server *s, const struct srv_otg *n, struct wr_otg_err *e)
{
	unsigned int i;

	for (i = 0; i < n->plan.n_ports; i++) {
		const struct wr_otg_l1 *l = &n->plan.ports[i].l1;
		char path[32];
		uint16_t pid;
		int rc = 0;

		if (!l->set || (l->mtu == 0 && l->promisc < 0))
			continue;
		snprintf(path, sizeof(path), "ports[%u]", i);
		if (n->t[0].map[i] < 0)
			return wr_otg_err_add(e, path, "layer1 mtu/promiscuous on "
					      "another server: not applied there "
					      "(its API has no method for them)");
		pid = s->e->ports[n->t[0].map[i]].port_id;
		if (l->mtu != 0) {
			uint16_t now = 0;

			if (rte_eth_dev_get_mtu(pid, &now) != 0 || now != l->mtu)
				rc = rte_eth_dev_set_mtu(pid, (uint16_t)l->mtu);
			if (rc != 0)
				return wr_otg_err_add(e, path, "layer1.mtu %u: the "
						      "device refused it (%s)",
						      l->mtu, strerror(-rc));
		}
		if (l->promisc >= 0) {
			rc = l->promisc ? rte_eth_promiscuous_enable(pid) :
				rte_eth_promiscuous_disable(pid);
			if (rc != 0)
				return wr_otg_err_add(e, path, "layer1.promiscuous "
						      "%s: the device refused it (%s)",
						      l->promisc ? "true" : "false",
						      strerror(-rc));
		}
	}
	return 0;
}

/* The config onto its targets: their ports taken by the OTG session,
 * each one's stream file loaded; any failure puts back what was loaded. */
static int
config_load(struct server *s, struct conn *c, struct srv_otg *n,
	    struct wr_otg_err *e)
{
	struct prev_load pv[OTG_TARGETS_MAX];
	unsigned int k, i;
	json_t *res, *ports;
	int rc = 0;

	memset(pv, 0, sizeof(pv));
	for (k = 0; k < n->n_targets && rc == 0; k++) {
		if (!n->t[k].has_ports)
			continue;
		ports = json_array();
		for (i = 0; i < n->plan.n_ports; i++)
			if (n->t[k].map[i] >= 0)
				json_array_append_new(ports,
						      json_integer(n->t[k].map[i]));
		rc = wr_srv_otg_tcall(s, c, &n->t[k], "ports.acquire",
				      json_pack("{s:o}", "ports", ports), &res, e);
		json_decref(res);
	}
	for (k = 0; k < n->n_targets && rc == 0; k++) {
		char *yaml = NULL;

		if (!n->t[k].has_ports)
			continue;
		rc = wr_srv_otg_tcall(s, c, &n->t[k], "streams.list", json_pack(
				      "{s:b}", "source", 1), &res, e);
		if (rc != 0)
			break;
		pv[k].yaml = json_incref(json_object_get(json_object_get(res,
					 "source"), "yaml"));
		json_decref(res);
		rc = wr_srv_otg_yaml(n, k, &yaml);
		if (rc != 0) {
			wr_otg_err_add(e, NULL, "%s: the stream file: %s",
				       n->t[k].name, strerror(-rc));
			break;
		}
		rc = wr_srv_otg_tcall(s, c, &n->t[k], "streams.load", json_pack(
				      "{s:s, s:s}", "yaml", yaml, "name", "otg"),
				      &res, e);
		free(yaml);
		json_decref(res);
		pv[k].loaded = rc == 0;
	}
	if (rc == 0)
		rc = layer1_apply(s, n, e);
	if (rc != 0)
		load_undo(s, c, n, pv);
	for (k = 0; k < OTG_TARGETS_MAX; k++)
		json_decref(pv[k].yaml);
	return rc;
}

static void
config_set(struct server *s, struct conn *c, struct srv_otg *o,
	   const struct otg_req *rq, struct otg_resp *out)
{
	struct srv_otg *n;
	struct wr_otg_env env;
	struct wr_otg_err e;
	json_t *cfg, *res;
	unsigned int i;

	cfg = wr_srv_otg_body(rq, "Config", out);
	if (cfg == NULL)
		return;
	n = calloc(1, sizeof(*n));
	if (n == NULL) {
		json_decref(cfg);
		wr_srv_otg_fail1(out, 500, NULL, "out of memory");
		return;
	}
	for (i = 0; i < WR_PORTS_MAX; i++)
		n->cap_id[i] = -1;
	wr_otg_err_init(&e);
	env_fill(s, &env);
	if (wr_otg_plan_build(cfg, &env, &n->plan, &e) != 0) {
		json_decref(cfg);
		free(n);
		wr_srv_otg_fail(out, &e);
		return;
	}
	json_decref(cfg);
	n->have_plan = true;
	n->tx = calloc(n->plan.n_flows + 1, sizeof(*n->tx));
	n->fkept = calloc(n->plan.n_flows + 1, sizeof(*n->fkept));
	if (n->tx == NULL || n->fkept == NULL ||
	    targets_build(s, &n->plan, n, &e) != 0)
		goto fail;
	/* A config replaces the one in force: its traffic stops first
	 * (streams.load refuses while traffic runs). */
	if (o->have_plan && wr_srv_otg_stop_all(s, c, o, &e) != 0)
		goto fail;
	if (s->state == ST_RUNNING && n->t[0].has_ports) {
		if (wr_srv_otg_tcall(s, c, &n->t[0], "traffic.stop", NULL, &res,
				     &e) != 0)
			goto fail;
		json_decref(res);
	}
	if (config_load(s, c, n, &e) != 0)
		goto fail;
	/* This server had the old config's streams and has no port in the
	 * new one: they go. */
	if (o->have_plan && o->t[0].has_ports && !n->t[0].has_ports) {
		if (wr_srv_otg_tcall(s, c, &o->t[0], "streams.remove", NULL, &res,
				     &e) != 0)
			goto fail;
		json_decref(res);
	}
	otg_clear(o);
	*o = *n;
	free(n);
	wr_otg_err_free(&e);
	wr_srv_otg_ok(out, json_pack("{s:[]}", "warnings"));
	return;
fail:
	otg_clear(n);
	free(n);
	if (e.code == 400 && e.kind == WR_OTG_INTERNAL)
		e.code = 500;
	wr_srv_otg_fail(out, &e);
}

/* ---- the endpoints ---- */

static void
config_get(struct server *s, struct conn *c, struct srv_otg *o,
	   const struct otg_req *rq, struct otg_resp *out)
{
	(void)s;
	(void)c;
	(void)rq;
	wr_srv_otg_ok(out, o->have_plan && o->plan.config != NULL ?
		      json_deep_copy(o->plan.config) : json_object());
}

static void
version_get(struct server *s, struct conn *c, struct srv_otg *o,
	    const struct otg_req *rq, struct otg_resp *out)
{
	(void)s;
	(void)c;
	(void)o;
	(void)rq;
	wr_srv_otg_ok(out, json_pack("{s:s, s:s, s:s}", "api_spec_version",
				     WR_OTG_MODEL_VERSION, "sdk_version", "",
				     "app_version", WR_VERSION));
}

typedef void otg_fn(struct server *s, struct conn *c, struct srv_otg *o,
		    const struct otg_req *rq, struct otg_resp *out);

static const struct {
	const char *method, *path;
	otg_fn *fn;
} routes[] = {
	{ "POST", "/config", config_set },
	{ "GET", "/config", config_get },
	{ "PATCH", "/config", wr_srv_otg_patch },
	{ "POST", "/control/state", wr_srv_otg_state },
	{ "POST", "/control/action", wr_srv_otg_action },
	{ "POST", "/monitor/metrics", wr_srv_otg_metrics },
	{ "POST", "/monitor/states", wr_srv_otg_states },
	{ "POST", "/monitor/capture", wr_srv_otg_capture },
	{ "GET", "/capabilities/version", version_get },
};

/* The OTG client's session: every OTG request acts as it, whichever
 * connection carries it (snappi opens new ones at will), so the ports a
 * config took stay its own. */
static bool
otg_session(struct server *s, struct conn *c)
{
	struct session *x;

	if (c->sess != NULL && strcmp(c->sess->name, OTG_SESSION) == 0)
		return true;
	x = wr_srv_session_find(s, OTG_SESSION);
	if (x == NULL)
		x = wr_srv_session_new(s, OTG_SESSION, c->principal);
	if (x == NULL)
		return false;
	wr_srv_conn_join(s, c, x);
	return true;
}

void
wr_srv_otg_handle(struct server *s, struct conn *c, const struct otg_req *rq,
		  struct otg_resp *out)
{
	size_t n = strcspn(rq->path, "?");
	bool path_known = false;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (s->otg == NULL) {
		s->otg = calloc(1, sizeof(*s->otg));
		for (i = 0; s->otg != NULL && i < WR_PORTS_MAX; i++)
			s->otg->cap_id[i] = -1;
	}
	if (s->otg == NULL || !otg_session(s, c)) {
		wr_srv_otg_fail1(out, 500, NULL, "out of memory");
		return;
	}
	for (i = 0; i < RTE_DIM(routes); i++) {
		if (strlen(routes[i].path) != n ||
		    strncmp(routes[i].path, rq->path, n) != 0)
			continue;
		path_known = true;
		if (strcmp(routes[i].method, rq->method) == 0) {
			routes[i].fn(s, c, s->otg, rq, out);
			return;
		}
	}
	if (path_known)
		wr_srv_otg_fail1(out, 405, NULL, "%s %.*s: not a method of this "
				 "endpoint", rq->method, (int)n, rq->path);
	else
		wr_srv_otg_fail1(out, 404, NULL, "%.*s: no such OTG endpoint "
				 "(model %s)", (int)n, rq->path,
				 WR_OTG_MODEL_VERSION);
}

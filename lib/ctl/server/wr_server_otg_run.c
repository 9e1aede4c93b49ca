/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_run: what the OTG handlers run with: wr_srv_call() (a JSON-RPC method as a connection's session, its reply kept), the calls on a config's servers, OTG's answers and errors. */
#include "wr_server_otg_priv.h"

/* ---- running a method as a connection ---- */

/* The negative errno for a method's JSON-RPC error code. */
static int
rpc_errno(int code)
{
	switch (code) {
	case WR_RPC_E_OWNER:
	case WR_RPC_E_AUTH:
		return -EPERM;
	case WR_RPC_E_STATE:
		return -EBUSY;
	case WR_RPC_E_NOTFOUND:
		return -ENOENT;
	case WR_RPC_E_ENGINE:
		return -EIO;
	default:
		return -EINVAL;
	}
}

/* The error of a reply line the method sent (@p line, a JSON-RPC reply). */
static int
sink_error(const char *line, struct wr_rpc_error *err)
{
	json_t *r = line != NULL ? json_loads(line, 0, NULL) : NULL;
	json_t *e = json_object_get(r, "error");

	memset(err, 0, sizeof(*err));
	if (e == NULL) {
		json_decref(r);
		return wr_rpc_error_set(err, WR_RPC_E_INTERNAL, "the method "
					"answered nothing");
	}
	err->code = (int)json_integer_value(json_object_get(e, "code"));
	snprintf(err->message, sizeof(err->message), "%s",
		 json_string_value(json_object_get(e, "message")) ?
		 json_string_value(json_object_get(e, "message")) : "");
	json_decref(r);
	return rpc_errno(err->code);
}

int
wr_srv_call(struct server *s, struct conn *as, const char *method,
	    json_t *params, json_t **result, struct wr_rpc_error *err)
{
	bool sinking = as->sinking, quiet = as->quiet;
	char *prev = as->sink, *text;
	struct wr_rpc_req req;
	struct call k;
	json_t *rq, *id = NULL, *res;
	int rc = 0;

	*result = NULL;
	rq = json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", 1,
		       "method", method, "params", params != NULL ? params :
		       json_object());
	text = rq != NULL ? json_dumps(rq, JSON_COMPACT) : NULL;
	json_decref(rq);
	if (text == NULL)
		return wr_rpc_error_set(err, WR_RPC_E_INTERNAL, "out of memory"),
		       -ENOMEM;
	/* The method's own validation, as a client's line has it. */
	rc = wr_rpc_parse(text, strlen(text), &req, &id, err);
	free(text);
	json_decref(id);
	if (rc != 0)
		return rc;
	k.s = s;
	k.c = as;
	k.req = &req;
	k.id = req.id;
	k.close = false;
	as->sinking = true;
	as->sink = NULL;
	as->quiet = false;
	/* The transport authenticated the caller: no auth.login here. */
	res = wr_srv_method_run(&k);
	if (res == NULL && as->parked) {
		/* traffic.stop of everything answers once the drain is over;
		 * the caller waits for it here (the drain: DRAIN_DEFAULT_NS,
		 * 200 ms, unless traffic.start said otherwise). */
		as->parked = false;
		json_decref(as->stop_id);
		as->stop_id = NULL;
		wr_srv_finish_now(s, "stopped", true);
		if (as->fd >= 0)
			wr_srv_conn_watch(s, as);
		res = json_pack("{s:s}", "state", wr_srv_state_names[s->state]);
	}
	if (res != NULL)
		*result = res;
	else
		rc = sink_error(as->sink, err);
	free(as->sink);
	as->sink = prev;
	as->sinking = sinking;
	as->quiet = quiet;
	wr_rpc_req_free(&req);
	return rc;
}

/* ---- answers ---- */

void
wr_srv_otg_ok(struct otg_resp *out, json_t *j)
{
	out->status = 200;
	out->json = j != NULL ? j : json_object();
}

void
wr_srv_otg_fail(struct otg_resp *out, struct wr_otg_err *e)
{
	if (!wr_otg_err_any(e))
		wr_otg_err_add(e, NULL, "failed (no reason given)");
	json_decref(out->json);
	out->status = e->code;
	out->json = wr_otg_err_json(e);
	wr_otg_err_free(e);
}

void
wr_srv_otg_fail1(struct otg_resp *out, int code, const char *path,
		 const char *fmt, ...)
{
	struct wr_otg_err e;
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	wr_otg_err_init(&e);
	e.code = code;
	e.kind = code >= 500 ? WR_OTG_INTERNAL : WR_OTG_VALIDATION;
	wr_otg_err_add(&e, path, "%s", msg);
	wr_srv_otg_fail(out, &e);
}

json_t *
wr_srv_otg_body(const struct otg_req *rq, const char *schema,
		struct otg_resp *out)
{
	struct wr_otg_err e;
	json_error_t je;
	json_t *doc;

	/* snappi sends no body for an empty request object. */
	if (rq->body == NULL || rq->len == 0)
		doc = json_object();
	else
		doc = json_loadb(rq->body, rq->len, JSON_REJECT_DUPLICATES, &je);
	if (doc == NULL) {
		wr_srv_otg_fail1(out, 400, NULL, "the body is not JSON: line %d, "
				 "column %d: %s", je.line, je.column, je.text);
		return NULL;
	}
	if (!json_is_object(doc)) {
		json_decref(doc);
		wr_srv_otg_fail1(out, 400, NULL, "expected a %s object", schema);
		return NULL;
	}
	wr_otg_err_init(&e);
	if (wr_otg_check(doc, schema, &e) != 0) {
		json_decref(doc);
		wr_srv_otg_fail(out, &e);
		return NULL;
	}
	wr_otg_err_free(&e);
	return doc;
}

/* ---- targets: this server and the remote ones ---- */

int
wr_srv_otg_tcall(struct server *s, struct conn *c, const struct otg_target *t,
		 const char *method, json_t *params, json_t **res,
		 struct wr_otg_err *e)
{
	struct wr_rpc_error err;
	int rc;

	memset(&err, 0, sizeof(err));
	if (t->r == NULL)
		rc = wr_srv_call(s, c, method, params, res, &err);
	else
		rc = wr_srv_otg_remote_call(s, t->r, method, params, res, &err,
					    OTG_REMOTE_CALL_MS);
	if (rc == 0)
		return 0;
	/* Who refused and why, in the method's words. */
	e->code = err.code == WR_RPC_E_OWNER || err.code == WR_RPC_E_STATE ?
		  409 : err.code == WR_RPC_E_NOTFOUND ? 404 :
		  err.code == WR_RPC_E_ENGINE || err.code == WR_RPC_E_INTERNAL ||
		  err.code == 0 ? 500 : 400;
	e->kind = e->code >= 500 ? WR_OTG_INTERNAL : WR_OTG_VALIDATION;
	wr_otg_err_add(e, NULL, "%s: %s: %s", t->name, method, err.message);
	return rc;
}

int
wr_srv_otg_target_of(const struct srv_otg *o, unsigned int port)
{
	unsigned int k;

	for (k = 0; k < o->n_targets; k++)
		if (o->t[k].map[port] >= 0)
			return (int)k;
	return -1;
}

int
wr_srv_otg_yaml(const struct srv_otg *o, unsigned int k, char **yaml)
{
	const int *maps[OTG_TARGETS_MAX];
	unsigned int j;

	for (j = 0; j < o->n_targets; j++)
		maps[j] = o->t[j].map;
	return wr_otg_plan_yaml_of(&o->plan, maps, o->n_targets, k, yaml);
}

int
wr_srv_otg_port(const struct srv_otg *o, const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < o->plan.n_ports; i++)
		if (strcmp(o->plan.ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

int
wr_srv_otg_stop_all(struct server *s, struct conn *c, struct srv_otg *o,
		    struct wr_otg_err *e)
{
	unsigned int k, f;
	json_t *res;
	int rc = 0;

	for (k = 0; k < o->n_targets; k++) {
		struct wr_otg_err x;

		if (!o->t[k].has_ports)
			continue;
		/* multi: a server that has nothing to stop (restarted since:
		 * "no streams loaded") is stopped already, not an error. */
		wr_otg_err_init(&x);
		if (wr_srv_otg_tcall(s, c, &o->t[k], "traffic.stop", NULL, &res,
				     &x) != 0 && (o->t[k].r == NULL ||
						   x.code != 409)) {
			e->code = x.code;
			e->kind = x.kind;
			wr_otg_err_add(e, NULL, "%s", json_string_value(
				       json_array_get(x.errors, 0)));
			rc = -EIO;
		}
		wr_otg_err_free(&x);
		json_decref(res);
	}
	for (f = 0; o->tx != NULL && f < o->plan.n_flows; f++)
		o->tx[f] = OTG_TX_STOPPED;
	return rc;
}

/* The config's ports on this server are the OTG session's again: they
 * were released if every OTG connection closed for the owner timeout (a
 * script that slept); a port another session took meanwhile refuses (409,
 * its owner named).  Remote servers keep theirs (their pool's session). */
int
wr_srv_otg_own(struct server *s, struct conn *c, struct srv_otg *o,
	       struct wr_otg_err *e)
{
	json_t *ports = NULL, *res;
	unsigned int i;
	int rc;

	for (i = 0; i < o->plan.n_ports; i++) {
		int idx = o->t[0].map[i];

		if (idx < 0 || s->owner[idx] == c->sess)
			continue;
		if (ports == NULL)
			ports = json_array();
		json_array_append_new(ports, json_integer(idx));
	}
	if (ports == NULL)
		return 0;
	rc = wr_srv_otg_tcall(s, c, &o->t[0], "ports.acquire", json_pack(
			      "{s:o}", "ports", ports), &res, e);
	json_decref(res);
	return rc;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_ctl: the OTG endpoints that act on a config in force (control/state, control/action, PATCH /config) and read it (monitor/metrics, states), each through the JSON-RPC methods. */
#include "wr_server_otg_priv.h"


static const char *const tx_names[] = { "stopped", "started", "paused" };

static bool
need_config(const struct srv_otg *o, struct otg_resp *out)
{
	if (o->have_plan)
		return true;
	wr_srv_otg_fail1(out, 409, NULL, "no config: POST /config first");
	return false;
}

/* Names @p names (an array; empty or absent: every one) into @p sel over
 * @p n items named by @p name_of; unknown ones are 404 by @p path. */
static bool
select_names(const json_t *names, const char *path, unsigned int n,
	     const char *(*name_of)(const struct srv_otg *, unsigned int),
	     const struct srv_otg *o, bool *sel, struct wr_otg_err *e)
{
	json_t *v;
	size_t i;
	unsigned int j;
	bool ok = true;

	for (j = 0; j < n; j++)
		sel[j] = json_array_size(names) == 0;
	json_array_foreach(names, i, v) {
		for (j = 0; j < n; j++)
			if (strcmp(name_of(o, j), json_string_value(v)) == 0)
				break;
		if (j < n) {
			sel[j] = true;
			continue;
		}
		{
			char at[96];

			snprintf(at, sizeof(at), "%s[%zu]", path, i);
			e->code = 404;
			wr_otg_err_add(e, at, "no %s named \"%.128s\" in the config",
				       strstr(path, "flow") ? "flow" : "port",
				       json_string_value(v));
		}
		ok = false;
	}
	return ok;
}

static const char *
flow_name(const struct srv_otg *o, unsigned int i)
{
	return o->plan.flows[i].name;
}

static const char *
port_name(const struct srv_otg *o, unsigned int i)
{
	return o->plan.ports[i].name;
}

/* The streams of flows @p sel sent from target @p k (NULL: none). */
static json_t *
streams_of(const struct srv_otg *o, unsigned int k, const bool *sel)
{
	json_t *a = json_array();
	unsigned int f;

	for (f = 0; a != NULL && f < o->plan.n_flows; f++)
		if (sel[f] && wr_srv_otg_target_of(o, o->plan.flows[f].tx_port) ==
		    (int)k)
			json_array_append_new(a, json_string(o->plan.flows[f].stream));
	if (json_array_size(a) == 0) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* Whether target @p k runs traffic now. */
static bool
target_running(struct server *s, struct conn *c, const struct srv_otg *o,
	       unsigned int k)
{
	struct wr_otg_err ignore;
	json_t *res = NULL;
	bool run;

	if (o->t[k].r == NULL)
		return s->state == ST_RUNNING;
	wr_otg_err_init(&ignore);
	run = wr_srv_otg_tcall(s, c, &o->t[k], "streams.list", NULL, &res,
			       &ignore) == 0 &&
	      json_is_string(json_object_get(res, "state")) &&
	      strcmp(json_string_value(json_object_get(res, "state")),
		     "running") == 0;
	wr_otg_err_free(&ignore);
	json_decref(res);
	return run;
}

/* Whether the config runs on more than one server (multi): each loads
 * every flow (wr_srv_otg_yaml()) and receives while any sends. */
static bool
multi_targets(const struct srv_otg *o)
{
	unsigned int k, n = 0;

	for (k = 0; k < o->n_targets; k++)
		n += o->t[k].has_ports;
	return n > 1;
}

static uint64_t
u64_of(const json_t *o, const char *k)
{
	json_int_t v = json_integer_value(json_object_get(o, k));

	return v > 0 ? (uint64_t)v : 0;
}

/* Target @p k's run is over (stopped, its drain done): what it counted
 * is kept (o->fkept, o->pkept) before a start of the server's own begins
 * from zero again. */
static int
keep_counts(struct server *s, struct conn *c, struct srv_otg *o,
	    unsigned int k, struct wr_otg_err *e)
{
	json_t *docs[OTG_TARGETS_MAX] = { NULL }, *req, *res, *x;
	const int *maps[OTG_TARGETS_MAX];
	unsigned int j;
	size_t i;
	int rc = 0;

	for (j = 0; j < o->n_targets; j++)
		maps[j] = o->t[j].map;
	if (wr_srv_otg_tcall(s, c, &o->t[k], "stats.get", json_pack("{s:b}",
			     "histogram", 0), &docs[k], e) != 0)
		return -EIO;
	for (j = 0; j < 2 && rc == 0; j++) {
		req = json_pack("{s:s}", "choice", j == 0 ? "flow" : "port");
		res = wr_otg_metrics(&o->plan, req, docs, maps, o->n_targets, NULL,
				     e);
		json_decref(req);
		if (res == NULL) {
			rc = -EINVAL;
			break;
		}
		json_array_foreach(json_object_get(res, j == 0 ? "flow_metrics" :
						   "port_metrics"), i, x) {
			const char *name = json_string_value(json_object_get(x,
								     "name"));
			struct otg_kept *kp = NULL;
			unsigned int f;

			if (j == 0) {
				for (f = 0; f < o->plan.n_flows; f++)
					if (strcmp(o->plan.flows[f].name, name) == 0)
						kp = &o->fkept[f];
			} else if (wr_srv_otg_port(o, name) >= 0) {
				kp = &o->pkept[wr_srv_otg_port(o, name)];
			}
			if (kp == NULL)
				continue;
			kp->ftx += u64_of(x, "frames_tx");
			kp->frx += u64_of(x, "frames_rx");
			kp->btx += u64_of(x, "bytes_tx");
			kp->brx += u64_of(x, "bytes_rx");
		}
		json_decref(res);
	}
	json_decref(docs[k]);
	return rc;
}

/* What was kept, added to a metric @p x of the response. */
static void
add_kept(json_t *x, const struct otg_kept *kp, bool flow)
{
	static const char *const key[] = { "frames_tx", "frames_rx", "bytes_tx",
					   "bytes_rx" };
	const uint64_t add[] = { kp->ftx, kp->frx, kp->btx, kp->brx };
	unsigned int i;

	for (i = 0; i < 4; i++)
		if (add[i] != 0 && json_object_get(x, key[i]) != NULL)
			json_object_set_new(x, key[i], json_integer((json_int_t)(
				u64_of(x, key[i]) + add[i])));
	if (flow && json_object_get(x, "loss") != NULL && kp->ftx != 0) {
		uint64_t tx = u64_of(x, "frames_tx"), rx = u64_of(x, "frames_rx");

		json_object_set_new(x, "loss", json_real(tx == 0 || rx >= tx ? 0.0 :
				    (double)(tx - rx) * 100.0 / (double)tx));
	}
}

/*
 * flow_transmit start.  The engine starts a run's streams together and
 * cannot add one to a run under way: flows started while others run
 * restart that server's run with them all (the others' counts restart
 * too).  A start clears the flows' metrics, as the model says: a run's
 * counters start at zero.  Several servers start at one instant
 * (start_at, each in its own clock: multi's offsets).
 */
static int
flows_start(struct server *s, struct conn *c, struct srv_otg *o,
	    const bool *req, bool keep, struct wr_otg_err *e)
{
	bool run[WR_STREAMS_MAX], go[OTG_TARGETS_MAX] = { false };
	bool multi = multi_targets(o);
	unsigned int f, k, n_go = 0;
	double at = 0;
	json_t *res, *names;

	for (f = 0; f < o->plan.n_flows; f++)
		run[f] = req[f];
	for (k = 0; k < o->n_targets; k++) {
		/* multi: every server runs, those that only receive too (a
		 * server counts what arrives only while its lcores poll). */
		if (!o->t[k].has_ports ||
		    ((names = streams_of(o, k, req)) == NULL && !multi))
			continue;
		json_decref(names);
		go[k] = true;
		n_go++;
		if (!target_running(s, c, o, k)) {
			/* A fresh run: its ports count from zero. */
			for (f = 0; !keep && f < o->plan.n_ports; f++)
				if (o->t[k].map[f] >= 0)
					memset(&o->pkept[f], 0, sizeof(o->pkept[f]));
			continue;
		}
		for (f = 0; f < o->plan.n_flows; f++)
			if (o->tx[f] != OTG_TX_STOPPED &&
			    wr_srv_otg_target_of(o, o->plan.flows[f].tx_port) ==
			    (int)k)
				run[f] = true;
		/* The run restarts: what it counted is kept for the flows
		 * and ports that go on (once stopped: its final counts). */
		if (wr_srv_otg_tcall(s, c, &o->t[k], "traffic.stop", NULL, &res,
				     e) != 0)
			return -EIO;
		json_decref(res);
		if (keep_counts(s, c, o, k, e) != 0)
			return -EIO;
	}
	/* A start clears the started flows' metrics (unless the server
	 * restarts them itself: @p keep). */
	for (f = 0; !keep && f < o->plan.n_flows; f++)
		if (req[f])
			memset(&o->fkept[f], 0, sizeof(o->fkept[f]));
	if (n_go > 1)
		at = wr_srv_wall_s() + OTG_START_AHEAD_S;
	for (k = 0; k < o->n_targets; k++) {
		json_t *p;

		if (!go[k])
			continue;
		names = streams_of(o, k, run);
		p = json_pack("{s:o}", "streams", names != NULL ? names :
			      json_array());
		/* multi: a server whose own flows have sent goes on receiving
		 * the others' until the stop (traffic.start's hold). */
		if (multi)
			json_object_set_new(p, "hold", json_true());
		if (at != 0)
			json_object_set_new(p, "start_at", json_real(at +
				(o->t[k].r != NULL ?
				 (double)wr_srv_otg_remote_offset_ns(o->t[k].r) /
				 1e9 : 0)));
		if (wr_srv_otg_tcall(s, c, &o->t[k], "traffic.start", p, &res,
				     e) != 0)
			return -EIO;
		json_decref(res);
		for (f = 0; f < o->plan.n_flows; f++)
			if (run[f] && wr_srv_otg_target_of(o,
					o->plan.flows[f].tx_port) == (int)k)
				o->tx[f] = OTG_TX_STARTED;
	}
	return 0;
}

/* stop, pause, resume of flows @p req that are sent now. */
static int
flows_ctl(struct server *s, struct conn *c, struct srv_otg *o, const bool *req,
	  enum otg_tx to, struct wr_otg_err *e)
{
	bool act[WR_STREAMS_MAX];
	unsigned int f, k;
	json_t *res, *names;

	for (f = 0; f < o->plan.n_flows; f++)
		act[f] = req[f] && (to == OTG_TX_STOPPED ?
			 o->tx[f] != OTG_TX_STOPPED :
			 to == OTG_TX_PAUSED ? o->tx[f] == OTG_TX_STARTED :
			 o->tx[f] == OTG_TX_PAUSED);
	for (k = 0; k < o->n_targets; k++) {
		bool all = true;

		names = streams_of(o, k, act);
		if (names == NULL)
			continue;
		/* Every flow of the server stopped: its run ends (the drain,
		 * its final counts). */
		for (f = 0; f < o->plan.n_flows; f++)
			if (!act[f] && o->tx[f] != OTG_TX_STOPPED &&
			    wr_srv_otg_target_of(o, o->plan.flows[f].tx_port) ==
			    (int)k)
				all = false;
		if (to == OTG_TX_STOPPED && all) {
			json_decref(names);
			names = NULL;
		}
		if (wr_srv_otg_tcall(s, c, &o->t[k], to == OTG_TX_STOPPED ?
				     "traffic.stop" : to == OTG_TX_PAUSED ?
				     "traffic.pause" : "traffic.resume",
				     names != NULL ? json_pack("{s:o}", "streams",
				     names) : NULL, &res, e) != 0)
			return -EIO;
		json_decref(res);
	}
	for (f = 0; f < o->plan.n_flows; f++)
		if (act[f])
			o->tx[f] = to;
	/* multi: once no flow sends, the servers that held their runs to
	 * receive end them too (their drain, their final counts). */
	for (f = 0; f < o->plan.n_flows; f++)
		if (o->tx[f] != OTG_TX_STOPPED)
			return 0;
	for (k = 0; to == OTG_TX_STOPPED && multi_targets(o) &&
	     k < o->n_targets; k++) {
		if (!o->t[k].has_ports || !target_running(s, c, o, k))
			continue;
		if (wr_srv_otg_tcall(s, c, &o->t[k], "traffic.stop", NULL, &res,
				     e) != 0)
			return -EIO;
		json_decref(res);
	}
	return 0;
}

static int
state_traffic(struct server *s, struct conn *c, struct srv_otg *o,
	      const json_t *ft, struct wr_otg_err *e)
{
	const char *st = json_string_value(json_object_get(ft, "state"));
	bool sel[WR_STREAMS_MAX];

	if (o->plan.n_flows > WR_STREAMS_MAX)
		return wr_otg_err_add(e, "traffic.flow_transmit", "more flows "
				      "than %u", WR_STREAMS_MAX);
	if (!select_names(json_object_get(ft, "flow_names"),
			  "traffic.flow_transmit.flow_names", o->plan.n_flows,
			  flow_name, o, sel, e))
		return -ENOENT;
	if (st == NULL)
		return wr_otg_err_add(e, "traffic.flow_transmit.state",
				      "expected start, stop, pause or resume");
	if (strcmp(st, "start") == 0)
		return flows_start(s, c, o, sel, false, e);
	return flows_ctl(s, c, o, sel, strcmp(st, "stop") == 0 ? OTG_TX_STOPPED :
			 strcmp(st, "pause") == 0 ? OTG_TX_PAUSED : OTG_TX_STARTED,
			 e);
}

/* Port link up/down: this server's ports, where the device can
 * (rte_eth_dev_set_link_up/down); the port must be the OTG session's. */
static int
state_link(struct server *s, struct conn *c, struct srv_otg *o,
	   const json_t *lk, struct wr_otg_err *e)
{
	bool sel[WR_PORTS_MAX], up = strcmp(json_string_value(json_object_get(
					    lk, "state")) ?: "", "up") == 0;
	unsigned int i;
	int rc;

	if (!select_names(json_object_get(lk, "port_names"), "port.link.port_names",
			  o->plan.n_ports, port_name, o, sel, e))
		return -ENOENT;
	for (i = 0; i < o->plan.n_ports; i++) {
		char at[192];
		int idx = o->t[0].map[i];

		if (!sel[i])
			continue;
		snprintf(at, sizeof(at), "port.link (port \"%s\")",
			 o->plan.ports[i].name);
		if (idx < 0)
			return wr_otg_err_add(e, at, "on another server: its API "
					      "has no method for a link");
		if (s->owner[idx] != c->sess) {
			e->code = 409;
			return wr_otg_err_add(e, at, "port %d is not the OTG "
					      "session's (ports.info: its owner)", idx);
		}
		rc = up ? rte_eth_dev_set_link_up(s->e->ports[idx].port_id) :
			rte_eth_dev_set_link_down(s->e->ports[idx].port_id);
		if (rc != 0)
			return wr_otg_err_add(e, at, "the device (%s) cannot set "
					      "its link %s: %s",
					      s->e->ports[idx].driver,
					      up ? "up" : "down", strerror(-rc));
	}
	return 0;
}

/* Port capture start/stop: capture.start with the config's filter. */
static int
state_capture(struct server *s, struct conn *c, struct srv_otg *o,
	      const json_t *cp, struct wr_otg_err *e)
{
	bool sel[WR_PORTS_MAX], start = strcmp(json_string_value(
		json_object_get(cp, "state")) ?: "", "start") == 0;
	json_t *names = json_object_get(cp, "port_names"), *res, *p;
	unsigned int i;
	int k;

	if (!select_names(names, "port.capture.port_names", o->plan.n_ports,
			  port_name, o, sel, e))
		return -ENOENT;
	for (i = 0; i < o->plan.n_ports; i++) {
		const struct wr_otg_cap *cap = &o->plan.ports[i].cap;
		char at[192];

		if (!sel[i])
			continue;
		snprintf(at, sizeof(at), "port.capture (port \"%s\")",
			 o->plan.ports[i].name);
		/* All ports: those the config captures on. */
		if (!cap->set) {
			if (json_array_size(names) == 0)
				continue;
			return wr_otg_err_add(e, at, "no capture of the config "
					      "names this port");
		}
		k = wr_srv_otg_target_of(o, i);
		if (k < 0)
			continue;
		if (!start) {
			if (!o->cap_on[i])
				continue;
			if (wr_srv_otg_tcall(s, c, &o->t[k], "capture.stop",
					     json_pack("{s:i}", "id", o->cap_id[i]),
					     &res, e) != 0)
				return -EIO;
			json_decref(res);
			o->cap_on[i] = false;
			continue;
		}
		if (o->cap_on[i])
			continue;
		p = json_pack("{s:i, s:s}", "port", o->t[k].map[i], "dir", "rx");
		if (cap->filter[0] != '\0')
			json_object_set_new(p, "filter", json_string(cap->filter));
		if (cap->snaplen != 0)
			json_object_set_new(p, "snaplen", json_integer(cap->snaplen));
		if (wr_srv_otg_tcall(s, c, &o->t[k], "capture.start", p, &res,
				     e) != 0)
			return -EIO;
		o->cap_id[i] = (int)json_integer_value(json_object_get(res, "id"));
		o->cap_on[i] = true;
		json_decref(res);
	}
	return 0;
}

/* protocol all start: the devices (hosts:) come up with a start of no
 * stream (traffic.start's bring-up) and answer ARP/ND until the next
 * config; stop: what runs stops, the hosts keep answering (no method takes
 * them down alone): said in the warnings. */
static int
state_protocol(struct server *s, struct conn *c, struct srv_otg *o,
	       const json_t *pr, json_t *warnings, struct wr_otg_err *e)
{
	const char *ch = json_string_value(json_object_get(pr, "choice"));
	const char *st = json_string_value(json_object_get(json_object_get(pr,
						"all"), "state"));
	unsigned int k;
	json_t *res;

	if (ch == NULL || strcmp(ch, "all") != 0)
		return wr_otg_err_add(e, "protocol.choice", "expected all "
				      "(wirerate runs no %s), got \"%s\"",
				      ch ? ch : "?", ch ? ch : "");
	if (st != NULL && strcmp(st, "stop") == 0) {
		json_array_append_new(warnings, json_string(
			"protocol all stop: traffic stopped; the devices keep "
			"answering ARP/ND until the next config"));
		return wr_srv_otg_stop_all(s, c, o, e);
	}
	for (k = 0; k < o->n_targets; k++) {
		if (!o->t[k].has_ports || target_running(s, c, o, k))
			continue;
		if (wr_srv_otg_tcall(s, c, &o->t[k], "traffic.start", json_pack(
				     "{s:[]}", "streams"), &res, e) != 0)
			return -EIO;
		json_decref(res);
	}
	return 0;
}

void
wr_srv_otg_state(struct server *s, struct conn *c, struct srv_otg *o,
		 const struct otg_req *rq, struct otg_resp *out)
{
	json_t *doc, *warnings = json_array();
	struct wr_otg_err e;
	const char *ch;
	int rc;

	if (!need_config(o, out) ||
	    (doc = wr_srv_otg_body(rq, "Control.State", out)) == NULL) {
		json_decref(warnings);
		return;
	}
	wr_otg_err_init(&e);
	ch = json_string_value(json_object_get(doc, "choice"));
	if (wr_srv_otg_own(s, c, o, &e) != 0)
		rc = -EPERM;
	else if (strcmp(ch, "traffic") == 0)
		rc = state_traffic(s, c, o, json_object_get(json_object_get(doc,
				   "traffic"), "flow_transmit"), &e);
	else if (strcmp(ch, "port") == 0 &&
		 json_object_get(json_object_get(doc, "port"), "link") != NULL &&
		 strcmp(json_string_value(json_object_get(json_object_get(doc,
			"port"), "choice")) ?: "", "link") == 0)
		rc = state_link(s, c, o, json_object_get(json_object_get(doc,
				"port"), "link"), &e);
	else if (strcmp(ch, "port") == 0)
		rc = state_capture(s, c, o, json_object_get(json_object_get(doc,
				   "port"), "capture"), &e);
	else
		rc = state_protocol(s, c, o, json_object_get(doc, "protocol"),
				    warnings, &e);
	json_decref(doc);
	if (rc != 0) {
		json_decref(warnings);
		wr_srv_otg_fail(out, &e);
		return;
	}
	wr_otg_err_free(&e);
	wr_srv_otg_ok(out, json_pack("{s:o}", "warnings", warnings));
}

/* Control.Action: the model's actions are pings (protocol ipv4/ipv6) and
 * port actions; wirerate's hosts answer pings but send none: refused by
 * path.  (ARP/ND are resolved at each start: control/state protocol.) */
void
wr_srv_otg_action(struct server *s, struct conn *c, struct srv_otg *o,
		  const struct otg_req *rq, struct otg_resp *out)
{
	json_t *doc = wr_srv_otg_body(rq, "Control.Action", out);
	const char *ch, *sub;

	(void)s;
	(void)c;
	(void)o;
	if (doc == NULL)
		return;
	ch = json_string_value(json_object_get(doc, "choice"));
	sub = json_string_value(json_object_get(json_object_get(doc, ch),
						"choice"));
	{
		char at[96];

		snprintf(at, sizeof(at), "%s%s%s", ch ? ch : "choice",
			 sub ? "." : "", sub ? sub : "");
		wr_srv_otg_fail1(out, 400, at, "not supported: wirerate's devices "
				 "answer pings and ARP/ND (resolved at every "
				 "start) but send no pings");
	}
	json_decref(doc);
}

/* The transmit state of each flow: what the client asked, and stopped
 * once its stream ended (its count, its duration) on its server. */
static void
tx_refresh(struct srv_otg *o, json_t *const *docs)
{
	unsigned int f;

	for (f = 0; f < o->plan.n_flows; f++) {
		int k = wr_srv_otg_target_of(o, o->plan.flows[f].tx_port);
		json_t *a, *x;
		size_t i;

		if (o->tx[f] == OTG_TX_STOPPED || k < 0 || docs[k] == NULL)
			continue;
		a = json_object_get(docs[k], "streams");
		json_array_foreach(a, i, x)
			if (strcmp(json_string_value(json_object_get(x, "name")) ?:
				   "", o->plan.flows[f].stream) == 0 &&
			    json_is_true(json_object_get(x, "ended")))
				o->tx[f] = OTG_TX_STOPPED;
		if (json_array_size(a) == 0 || strcmp(json_string_value(
		    json_object_get(docs[k], "state")) ?: "", "running") != 0)
			o->tx[f] = OTG_TX_STOPPED;
	}
}

/* A capture ends with the run it covers (doc/api.md): started until its
 * server says it is done. */
static void
cap_refresh(struct server *s, struct conn *c, struct srv_otg *o)
{
	struct wr_otg_err ignore;
	unsigned int i;
	json_t *res;

	wr_otg_err_init(&ignore);
	for (i = 0; i < o->plan.n_ports; i++) {
		int k = wr_srv_otg_target_of(o, i);

		if (!o->cap_on[i] || k < 0 ||
		    wr_srv_otg_tcall(s, c, &o->t[k], "capture.status", json_pack(
				     "{s:i}", "id", o->cap_id[i]), &res,
				     &ignore) != 0)
			continue;
		if (strcmp(json_string_value(json_object_get(res, "state")) ?: "",
			   "done") == 0)
			o->cap_on[i] = false;
		json_decref(res);
	}
	wr_otg_err_free(&ignore);
}

void
wr_srv_otg_metrics(struct server *s, struct conn *c, struct srv_otg *o,
		   const struct otg_req *rq, struct otg_resp *out)
{
	json_t *docs[OTG_TARGETS_MAX] = { NULL }, *req, *res, *a, *x;
	const int *maps[OTG_TARGETS_MAX];
	const char *tx[WR_STREAMS_MAX];
	struct wr_otg_err e;
	unsigned int k, f;
	size_t i;

	if (!need_config(o, out) ||
	    (req = wr_srv_otg_body(rq, "Metrics.Request", out)) == NULL)
		return;
	wr_otg_err_init(&e);
	for (k = 0; k < o->n_targets; k++) {
		maps[k] = o->t[k].map;
		if (!o->t[k].has_ports)
			continue;
		if (wr_srv_otg_tcall(s, c, &o->t[k], "stats.get", json_pack(
				     "{s:b, s:b}", "histogram", 0, "counters", 0),
				     &docs[k], &e) != 0)
			goto fail;
	}
	/* This server's links, as ports.info reads them. */
	a = json_object_get(docs[0], "ports");
	json_array_foreach(a, i, x) {
		json_int_t p = json_integer_value(json_object_get(x, "port"));
		struct rte_eth_link link;

		memset(&link, 0, sizeof(link));
		if (p >= 0 && p < (json_int_t)s->e->n_ports &&
		    rte_eth_link_get_nowait(s->e->ports[p].port_id, &link) == 0)
			json_object_set_new(x, "link_up", json_boolean(
				link.link_status == RTE_ETH_LINK_UP));
	}
	tx_refresh(o, docs);
	cap_refresh(s, c, o);
	for (f = 0; f < o->plan.n_flows && f < WR_STREAMS_MAX; f++)
		tx[f] = tx_names[o->tx[f]];
	res = wr_otg_metrics(&o->plan, req, docs, maps, o->n_targets, tx, &e);
	if (res == NULL)
		goto fail;
	a = json_object_get(res, "flow_metrics");
	json_array_foreach(a, i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));

		for (f = 0; f < o->plan.n_flows; f++)
			if (strcmp(o->plan.flows[f].name, name) == 0)
				add_kept(x, &o->fkept[f], true);
	}
	/* Each port's capture, as control/state left it. */
	a = json_object_get(res, "port_metrics");
	json_array_foreach(a, i, x) {
		int p = wr_srv_otg_port(o, json_string_value(json_object_get(x,
								"name")));

		if (p >= 0)
			add_kept(x, &o->pkept[p], false);
		const json_t *cols = json_object_get(json_object_get(req, "port"),
						     "column_names");
		bool want = json_array_size(cols) == 0;
		size_t j;
		json_t *v;

		json_array_foreach(cols, j, v)
			want |= strcmp(json_string_value(v), "capture") == 0;
		if (p >= 0 && want)
			json_object_set_new(x, "capture", json_string(
				o->cap_on[p] ? "started" : "stopped"));
	}
	for (k = 0; k < o->n_targets; k++)
		json_decref(docs[k]);
	json_decref(req);
	wr_otg_err_free(&e);
	wr_srv_otg_ok(out, res);
	return;
fail:
	for (k = 0; k < o->n_targets; k++)
		json_decref(docs[k]);
	json_decref(req);
	wr_srv_otg_fail(out, &e);
}

/* States: each plan port's hosts (hosts.list) for wr_otg_states(). */
void
wr_srv_otg_states(struct server *s, struct conn *c, struct srv_otg *o,
		  const struct otg_req *rq, struct otg_resp *out)
{
	json_t *req, *hosts, *res;
	struct wr_otg_err e;
	unsigned int i;

	if (!need_config(o, out))
		return;
	if ((req = wr_srv_otg_body(rq, "States.Request", out)) == NULL)
		return;
	wr_otg_err_init(&e);
	hosts = json_array();
	for (i = 0; i < o->plan.n_ports; i++) {
		int k = wr_srv_otg_target_of(o, i);
		json_t *r = NULL;
		struct wr_otg_err ignore;

		/* A port with no hosts answers an error: null for it. */
		wr_otg_err_init(&ignore);
		if (k >= 0 && wr_srv_otg_tcall(s, c, &o->t[k], "hosts.list",
				json_pack("{s:i, s:i}", "port", o->t[k].map[i],
					  "limit", 1000), &r, &ignore) != 0)
			r = NULL;
		wr_otg_err_free(&ignore);
		json_array_append_new(hosts, r != NULL ? r : json_null());
	}
	res = wr_otg_states(&o->plan, req, hosts, &e);
	json_decref(hosts);
	json_decref(req);
	if (res == NULL) {
		wr_srv_otg_fail(out, &e);
		return;
	}
	wr_otg_err_free(&e);
	wr_srv_otg_ok(out, res);
}

/* ---- PATCH /config ---- */

/*
 * Flows' rate and size while traffic runs.  A rate reaches the lcores as
 * traffic.update (a published value, no restart).  A size is a frame
 * template the engine builds at a start: the server's stream file is
 * reloaded and, when it was running, its run restarted with the flows it
 * sent (their counts restart: said in the warnings).
 */
void
wr_srv_otg_patch(struct server *s, struct conn *c, struct srv_otg *o,
		 const struct otg_req *rq, struct otg_resp *out)
{
	bool changed[WR_STREAMS_MAX] = { false }, size, reload[OTG_TARGETS_MAX];
	json_t *upd, *names, *res, *warnings = json_array();
	struct wr_otg_err e;
	unsigned int f, k;

	if (!need_config(o, out) ||
	    (upd = wr_srv_otg_body(rq, "Config.Update", out)) == NULL) {
		json_decref(warnings);
		return;
	}
	wr_otg_err_init(&e);
	if (wr_srv_otg_own(s, c, o, &e) != 0 ||
	    wr_otg_update(&o->plan, upd, changed, &e) != 0)
		goto fail;
	names = json_object_get(json_object_get(upd, "flows"), "property_names");
	size = false;
	{
		size_t i;
		json_t *v;

		json_array_foreach(names, i, v)
			size |= strcmp(json_string_value(v), "size") == 0;
	}
	memset(reload, 0, sizeof(reload));
	for (f = 0; f < o->plan.n_flows; f++) {
		int t = wr_srv_otg_target_of(o, o->plan.flows[f].tx_port);
		json_t *st = json_array_get(o->plan.streams, f);

		if (!changed[f] || t < 0)
			continue;
		if (size || o->tx[f] == OTG_TX_STOPPED ||
		    !target_running(s, c, o, (unsigned int)t)) {
			reload[t] = true;
			continue;
		}
		if (wr_srv_otg_tcall(s, c, &o->t[t], "traffic.update", json_pack(
				     "{s:[s], s:O}", "streams", o->plan.flows[f].stream,
				     "rate", json_object_get(st, "rate")), &res,
				     &e) != 0)
			goto fail;
		json_decref(res);
	}
	for (k = 0; k < o->n_targets; k++) {
		bool was[WR_STREAMS_MAX], any = false;
		char *yaml = NULL;

		if (!reload[k])
			continue;
		for (f = 0; f < o->plan.n_flows; f++) {
			was[f] = o->tx[f] != OTG_TX_STOPPED &&
				 wr_srv_otg_target_of(o, o->plan.flows[f].tx_port) ==
				 (int)k;
			any |= was[f];
		}
		if (any) {
			if (wr_srv_otg_tcall(s, c, &o->t[k], "traffic.stop", NULL,
					     &res, &e) != 0)
				goto fail;
			json_decref(res);
			if (keep_counts(s, c, o, k, &e) != 0)
				goto fail;
			json_array_append_new(warnings, json_string(
				"a size changed while traffic ran: that server's "
				"run restarted with the new frames (the flows' "
				"counts go on)"));
		}
		if (wr_srv_otg_yaml(o, k, &yaml) != 0 ||
		    wr_srv_otg_tcall(s, c, &o->t[k], "streams.load", json_pack(
				     "{s:s, s:s}", "yaml", yaml, "name", "otg"), &res,
				     &e) != 0) {
			free(yaml);
			goto fail;
		}
		free(yaml);
		json_decref(res);
		if (!any)
			continue;
		for (f = 0; f < o->plan.n_flows; f++)
			if (was[f])
				o->tx[f] = OTG_TX_STOPPED;
		if (flows_start(s, c, o, was, true, &e) != 0)
			goto fail;
	}
	json_decref(upd);
	wr_otg_err_free(&e);
	wr_srv_otg_ok(out, json_pack("{s:o}", "warnings", warnings));
	return;
fail:
	json_decref(upd);
	json_decref(warnings);
	wr_srv_otg_fail(out, &e);
}

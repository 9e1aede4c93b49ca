/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_plan: a checked OTG Config into a plan: ports and their locations, layer1, the refusals of what wirerate lacks, then each flow through wr_otg_flow_stream(). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg_priv.h"

/* Config members a plan reads; any other one that holds something is
 * refused by its path (lags, lldp, events, options, stateful_flows,
 * egress_only_tracking): an empty list or object asks for nothing. */
static const char *const config_keys[] = {
	"ports", "layer1", "captures", "devices", "flows", NULL,
};
/* Layer1's: media, ieee_media_defaults, auto_negotiate, auto_negotiation
 * and flow_control are the PHY's and the MAC's, which DPDK's ethdev does
 * not set on the devices wirerate runs (af_packet, memif, AF_XDP) and
 * would set differently per NIC: refused rather than ignored. */
static const char *const layer1_keys[] = {
	"port_names", "name", "speed", "promiscuous", "mtu", NULL,
};

/* ---- locations ---- */

static int
parse_index(const char *t, unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (t[0] < '0' || t[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(t, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

/* HOST:PORT/INDEX, HOST a name or an IPv4 address, or an IPv6 one in
 * brackets ("[2001:db8::2]:18300/1"). */
static int
parse_remote(const char *text, struct wr_otg_loc *out, const char **why)
{
	const char *slash = strrchr(text, '/');
	const char *colon, *host = text;
	char port[8];
	size_t hlen;
	unsigned int u;

	*why = "expected HOST:PORT/INDEX (IPv6 hosts in brackets)";
	if (slash == NULL)
		return -EINVAL;
	if (text[0] == '[') {
		const char *close = memchr(text, ']', (size_t)(slash - text));

		if (close == NULL || close[1] != ':')
			return -EINVAL;
		host = text + 1;
		hlen = (size_t)(close - host);
		colon = close + 1;
	} else {
		colon = memchr(text, ':', (size_t)(slash - text));
		if (colon == NULL)
			return -EINVAL;
		hlen = (size_t)(colon - text);
	}
	if (hlen == 0 || hlen >= sizeof(out->host) ||
	    (size_t)(slash - colon - 1) >= sizeof(port) || slash == colon + 1)
		return -EINVAL;
	memcpy(port, colon + 1, (size_t)(slash - colon - 1));
	port[slash - colon - 1] = '\0';
	if (parse_index(port, 65535, &u) != 0 || u == 0) {
		*why = "expected HOST:PORT/INDEX with PORT 1..65535";
		return -EINVAL;
	}
	out->port = (uint16_t)u;
	if (parse_index(slash + 1, WR_PORTS_MAX - 1, &out->index) != 0) {
		*why = "expected HOST:PORT/INDEX with INDEX a port index";
		return -EINVAL;
	}
	memcpy(out->host, host, hlen);
	out->host[hlen] = '\0';
	out->remote = true;
	return 0;
}

int
wr_otg_location(const char *text, const struct wr_otg_env *env,
		struct wr_otg_loc *out, const char **why)
{
	unsigned int i;

	memset(out, 0, sizeof(*out));
	if (text == NULL || text[0] == '\0') {
		*why = "expected a location: a port index, a DPDK device name, a "
		       "port's Linux interface, or HOST:PORT/INDEX";
		return -EINVAL;
	}
	if (strspn(text, "0123456789") == strlen(text)) {
		if (parse_index(text, WR_PORTS_MAX - 1, &out->index) != 0 ||
		    out->index >= env->n_ports) {
			*why = "no port of this server has that index";
			return -ENOENT;
		}
		return 0;
	}
	for (i = 0; i < env->n_ports; i++) {
		if (strcmp(env->ports[i].device, text) == 0 ||
		    (env->ports[i].iface[0] != '\0' &&
		     strcmp(env->ports[i].iface, text) == 0)) {
			out->index = i;
			return 0;
		}
	}
	if (strchr(text, '/') != NULL && strchr(text, ':') != NULL) {
		if (!env->remote_ok) {
			*why = "a port of another server (HOST:PORT/INDEX) needs "
			       "this server's remote token (--remote-token-file)";
			return -EINVAL;
		}
		return parse_remote(text, out, why);
	}
	*why = "no port of this server has that DPDK device or Linux interface";
	return -ENOENT;
}

/* ---- ports and layer1 ---- */

static int
build_ports(const json_t *cfg, const struct wr_otg_env *env,
	    struct wr_otg_plan *p, json_t *names, struct wr_otg_err *err)
{
	const json_t *ports = json_object_get(cfg, "ports");
	size_t i, j, n = json_array_size(ports);
	int rc = 0;

	/* A flow's receiving ports are a 64-bit mask (struct wr_otg_flow). */
	if (n > 64)
		return wr_otg_err_add(err, "ports", "expected at most 64 ports, "
				      "got %zu", n);
	p->ports = calloc(n > 0 ? n : 1, sizeof(*p->ports));
	if (p->ports == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const json_t *o = json_array_get(ports, i);
		struct wr_otg_port *pp = &p->ports[p->n_ports];
		const char *name = wr_otg_str(o, "name"), *why = "";
		char path[WR_OTG_PATH_MAX], at[WR_OTG_PATH_MAX];

		wr_otg_at(path, "ports[%zu]", i);
		if (wr_otg_name_add(names, o, path, err) == -ENOMEM)
			return -ENOMEM;
		if (name == NULL || strlen(name) >= sizeof(pp->name)) {
			rc = wr_otg_err_add(err, path, "expected a name of 1 to %zu "
					    "bytes", sizeof(pp->name) - 1);
			continue;
		}
		wr_otg_at(at, "%s.location", path);
		if (wr_otg_location(wr_otg_str(o, "location"), env, &pp->loc,
				    &why) != 0) {
			rc = wr_otg_err_add(err, at, "%s, got \"%s\"", why,
					    wr_otg_str(o, "location") ?
					    wr_otg_str(o, "location") : "");
			continue;
		}
		for (j = 0; j < p->n_ports; j++) {
			const struct wr_otg_loc *b = &p->ports[j].loc;

			if (b->remote == pp->loc.remote && b->index == pp->loc.index &&
			    (!b->remote || (b->port == pp->loc.port &&
					    strcmp(b->host, pp->loc.host) == 0)))
				break;
		}
		if (j < p->n_ports) {
			rc = wr_otg_err_add(err, at, "the port \"%s\" is there "
					    "already", p->ports[j].name);
			continue;
		}
		snprintf(pp->name, sizeof(pp->name), "%s", name);
		pp->l1.promisc = -1;
		/* flows: the line a percentage rate and byte gaps count on
		 * (a remote port's is not known here). */
		pp->line_mbps = pp->loc.remote ? 0 :
			env->ports[pp->loc.index].speed_mbps;
		p->n_ports++;
	}
	return rc;
}

/* Layer1's speed enum in Mb/s; 0 half duplex (never a wirerate port). */
static int
speed_mbps(const char *s, uint32_t *mbps)
{
	static const struct { const char *name; uint32_t mbps; } t[] = {
		{ "speed_10_fd_mbps", 10 }, { "speed_10_hd_mbps", 0 },
		{ "speed_100_fd_mbps", 100 }, { "speed_100_hd_mbps", 0 },
		{ "speed_1_gbps", 1000 }, { "speed_10_gbps", 10000 },
		{ "speed_25_gbps", 25000 }, { "speed_40_gbps", 40000 },
		{ "speed_50_gbps", 50000 }, { "speed_100_gbps", 100000 },
		{ "speed_200_gbps", 200000 }, { "speed_400_gbps", 400000 },
		{ "speed_800_gbps", 800000 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].name, s) == 0) {
			*mbps = t[i].mbps;
			return 0;
		}
	return -EINVAL;
}

/* One layer1 setting on one port.  A remote port's device is the other
 * server's: it checks there, when the handlers apply the layer1. */
static int
layer1_port(const json_t *l1, const char *path, const struct wr_otg_env *env,
	    struct wr_otg_port *pp, struct wr_otg_err *err)
{
	const struct wr_otg_port_env *pe = pp->loc.remote ? NULL :
					   &env->ports[pp->loc.index];
	const char *speed = wr_otg_str(l1, "speed");
	const json_t *mtu = json_object_get(l1, "mtu");
	const json_t *pr = json_object_get(l1, "promiscuous");
	char at[WR_OTG_PATH_MAX];
	int rc = 0;

	if (speed != NULL) {
		uint32_t mbps = 0;

		wr_otg_at(at, "%s.speed", path);
		if (speed_mbps(speed, &mbps) != 0 || mbps == 0)
			rc = wr_otg_err_add(err, at, "half duplex is not a speed "
					    "wirerate's ports run, got %s", speed);
		else if (pe != NULL && pe->speed_mbps == 0)
			rc = wr_otg_err_add(err, at, "port \"%s\"'s device does "
					    "not report its speed, so %s cannot "
					    "be checked", pp->name, speed);
		else if (pe != NULL && pe->speed_mbps != mbps)
			rc = wr_otg_err_add(err, at, "port \"%s\" runs at %u Mb/s "
					    "and its speed is not set by wirerate, "
					    "got %s", pp->name, pe->speed_mbps,
					    speed);
		else
			/* A remote port's line is known from here on too. */
			pp->l1.speed_mbps = pp->line_mbps = mbps;
	}
	if (json_is_integer(mtu)) {
		json_int_t v = json_integer_value(mtu);

		wr_otg_at(at, "%s.mtu", path);
		if (pe != NULL && pe->mtu_max > 0 && v > pe->mtu_max)
			rc = wr_otg_err_add(err, at, "port \"%s\"'s device takes "
					    "an MTU up to %u, got %lld", pp->name,
					    pe->mtu_max, (long long)v);
		else if (pe != NULL && pe->mtu_max == 0 && pe->mtu == 0)
			rc = wr_otg_err_add(err, at, "port \"%s\"'s device does "
					    "not report its MTU, so %lld cannot be "
					    "checked", pp->name, (long long)v);
		else if (pe != NULL && pe->mtu_max == 0 && pe->mtu != v)
			rc = wr_otg_err_add(err, at, "port \"%s\"'s device cannot "
					    "change its MTU (%u), got %lld",
					    pp->name, pe->mtu, (long long)v);
		else
			pp->l1.mtu = (uint32_t)v;
	}
	if (json_is_boolean(pr)) {
		wr_otg_at(at, "%s.promiscuous", path);
		if (pe != NULL && !pe->promisc_ok)
			rc = wr_otg_err_add(err, at, "port \"%s\"'s device cannot "
					    "set promiscuous mode", pp->name);
		else
			pp->l1.promisc = json_is_true(pr) ? 1 : 0;
	}
	pp->l1.set = true;
	return rc;
}

static int
build_layer1(const json_t *cfg, const struct wr_otg_env *env,
	     struct wr_otg_plan *p, json_t *names, struct wr_otg_err *err)
{
	const json_t *l1s = json_object_get(cfg, "layer1");
	size_t i, j;
	int rc = 0;

	for (i = 0; i < json_array_size(l1s); i++) {
		const json_t *l1 = json_array_get(l1s, i);
		const json_t *pn = json_object_get(l1, "port_names");
		char path[WR_OTG_PATH_MAX];

		wr_otg_at(path, "layer1[%zu]", i);
		if (wr_otg_name_add(names, l1, path, err) == -ENOMEM)
			return -ENOMEM;
		if (wr_otg_refuse_others(l1, path, layer1_keys, err) != 0)
			rc = -EINVAL;
		for (j = 0; j < json_array_size(pn); j++) {
			char at[WR_OTG_PATH_MAX];
			int k;

			wr_otg_at(at, "%s.port_names[%zu]", path, j);
			k = wr_otg_port_ref(p, json_array_get(pn, j), at, err);
			if (k < 0) {
				rc = -EINVAL;
				continue;
			}
			if (p->ports[k].l1.set) {
				rc = wr_otg_err_add(err, at, "port \"%s\" has a "
						    "layer1 already",
						    p->ports[k].name);
				continue;
			}
			if (layer1_port(l1, path, env, &p->ports[k], err) != 0)
				rc = -EINVAL;
		}
	}
	return rc;
}

/* ---- flows ---- */

static int
flow_names(const json_t *cfg, json_t *names, struct wr_otg_err *err)
{
	const json_t *flows = json_object_get(cfg, "flows");
	size_t i;

	for (i = 0; i < json_array_size(flows); i++) {
		char path[WR_OTG_PATH_MAX];

		wr_otg_at(path, "flows[%zu]", i);
		if (wr_otg_name_add(names, json_array_get(flows, i), path,
				    err) == -ENOMEM)
			return -ENOMEM;
	}
	return 0;
}

static int
build_flows(const json_t *cfg, struct wr_otg_plan *p, struct wr_otg_err *err)
{
	const json_t *flows = json_object_get(cfg, "flows");
	size_t i, n = json_array_size(flows);
	int rc = 0;

	p->flows = calloc(n > 0 ? n : 1, sizeof(*p->flows));
	if (p->flows == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const json_t *f = json_array_get(flows, i);
		char path[WR_OTG_PATH_MAX];
		json_t *stream = NULL;
		int r;

		wr_otg_at(path, "flows[%zu]", i);
		r = wr_otg_flow_stream(f, path, (unsigned int)i, p,
				       &p->flows[i], &stream, err);
		/* flows[i] is flows[i] of the config, whatever came of it. */
		p->n_flows = (unsigned int)i + 1;
		if (r == -ENOMEM)
			return r;
		if (r != 0 || stream == NULL) {
			json_decref(stream);
			rc = r != 0 ? r : -EINVAL;
			continue;
		}
		if (json_array_append_new(p->streams, stream) != 0)
			return -ENOMEM;
	}
	return rc;
}

void
wr_otg_plan_free(struct wr_otg_plan *p)
{
	if (p == NULL)
		return;
	json_decref(p->config);
	json_decref(p->streams);
	json_decref(p->hosts);
	json_decref(p->devices);
	free(p->ports);
	free(p->flows);
	memset(p, 0, sizeof(*p));
}

int
wr_otg_plan_build(const json_t *cfg, const struct wr_otg_env *env,
		  struct wr_otg_plan *p, struct wr_otg_err *err)
{
	json_t *names = json_object();
	bool bad;
	int rc;

	memset(p, 0, sizeof(*p));
	p->config = json_deep_copy(cfg);
	p->streams = json_array();
	p->hosts = json_array();
	p->devices = json_array();
	if (names == NULL || p->config == NULL || p->streams == NULL ||
	    p->hosts == NULL || p->devices == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	if (!json_is_object(cfg)) {
		rc = wr_otg_err_add(err, "", "expected a Config object");
		goto out;
	}
	bad = wr_otg_refuse_others(cfg, "", config_keys, err) != 0;
	rc = build_ports(cfg, env, p, names, err);
	bad |= rc != 0;
	if (rc != -ENOMEM) {
		rc = build_layer1(cfg, env, p, names, err);
		bad |= rc != 0;
	}
	if (rc != -ENOMEM) {
		rc = wr_otg_plan_captures(cfg, p, names, err);
		bad |= rc != 0;
	}
	if (rc != -ENOMEM) {
		rc = wr_otg_plan_devices(cfg, env, p, names, err);
		bad |= rc != 0;
	}
	if (rc != -ENOMEM) {
		rc = flow_names(cfg, names, err);
		bad |= rc != 0;
	}
	/* A flow reads the ports and devices: with those wrong, its own
	 * errors would only repeat theirs. */
	if (rc != -ENOMEM && !bad && !wr_otg_err_any(err)) {
		rc = build_flows(cfg, p, err);
		bad |= rc != 0;
	}
	if (rc != -ENOMEM && (bad || wr_otg_err_any(err))) {
		rc = -EINVAL;
		/* Every refusal says why; one that did not is a config
		 * wr_otg_check() never passed (a required member missing). */
		if (!wr_otg_err_any(err))
			wr_otg_err_add(err, "", "expected a Config checked "
				       "against the model");
	}
out:
	json_decref(names);
	if (rc != 0)
		wr_otg_plan_free(p);
	return rc;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_plan_dev: an OTG config's devices as hosts: groups (doc/hosts.md), one host per ethernet, and their neighbours read back as States. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_otg_priv.h"
#include "wr_parse.h"

/* What a device may hold: its ethernets.  ipv4/ipv6 loopbacks, BGP,
 * IS-IS, OSPF, RSVP, VXLAN, MACsec, RoCEv2, BMP, a DHCP server: refused. */
static const char *const device_keys[] = { "name", "ethernets", NULL };
/* An ethernet's; dhcpv4_interfaces/dhcpv6_interfaces (the host engine has
 * DHCP clients, but not OTG's options for them yet): refused. */
static const char *const ethernet_keys[] = {
	"name", "connection", "mac", "mtu", "vlans", "ipv4_addresses",
	"ipv6_addresses", NULL,
};
static const char *const connection_keys[] = { "choice", "port_name", NULL };
static const char *const ip_keys[] = {
	"name", "address", "prefix", "gateway", "gateway_mac", NULL,
};
/* The TPIDs the host engine tags with (wr_yaml_hosts.c). */
static const struct { const char *otg; unsigned int tpid; } tpids[] = {
	{ "x8100", 0x8100 }, { "x88A8", 0x88a8 }, { "x9100", 0x9100 },
};

/* The hosts group's name: the ethernet's when the loader takes it (1..31
 * of [A-Za-z0-9_.-]), else "otg<k>", k the ethernet's place in the config;
 * names of that form are always replaced, so no two groups share one. */
static void
group_name(const char *name, unsigned int k, char *out, size_t cap)
{
	size_t i, len = strlen(name);
	bool ok = len > 0 && len < 32 && len < cap;

	for (i = 0; ok && i < len; i++) {
		char c = name[i];

		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		     (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
	}
	if (ok && strncmp(name, "otg", 3) == 0 &&
	    strspn(name + 3, "0123456789") == len - 3)
		ok = false;
	if (ok)
		snprintf(out, cap, "%s", name);
	else
		snprintf(out, cap, "otg%u", k);
}

static int
vlans(const json_t *eth, const char *path, json_t *group, json_t *dev,
      struct wr_otg_err *err)
{
	const json_t *vl = json_object_get(eth, "vlans");
	size_t i, n = json_array_size(vl);
	json_t *tags;
	int rc = 0;

	if (n == 0)
		return 0;
	if (n > 2) {
		char at[WR_OTG_PATH_MAX];

		wr_otg_at(at, "%s.vlans[2]", path);
		return wr_otg_err_add(err, at, "wirerate's hosts have at most 2 "
				      "VLAN tags");
	}
	tags = json_array();
	for (i = 0; i < n; i++) {
		const json_t *v = json_array_get(vl, i);
		json_int_t id = json_integer_value(json_object_get(v, "id"));
		json_int_t pcp = json_integer_value(json_object_get(v, "priority"));
		const char *tp = wr_otg_str(v, "tpid");
		char at[WR_OTG_PATH_MAX];
		unsigned int t;

		wr_otg_at(at, "%s.vlans[%zu]", path, i);
		for (t = 0; t < sizeof(tpids) / sizeof(tpids[0]); t++)
			if (tp != NULL && strcmp(tp, tpids[t].otg) == 0)
				break;
		if (t == sizeof(tpids) / sizeof(tpids[0])) {
			strncat(at, ".tpid", sizeof(at) - strlen(at) - 1);
			rc = wr_otg_err_add(err, at, "wirerate's hosts tag with "
					    "x8100, x88A8 or x9100, got %s",
					    tp != NULL ? tp : "none");
			continue;
		}
		/* 0 is priority-tagged only and 4095 reserved (802.1Q 9.6). */
		if (id < 1 || id > 4094) {
			strncat(at, ".id", sizeof(at) - strlen(at) - 1);
			rc = wr_otg_err_add(err, at, "expected a VLAN ID 1..4094 "
					    "for a host's tag, got %lld",
					    (long long)id);
			continue;
		}
		json_array_append_new(tags, json_pack("{s:I, s:I, s:I}", "id",
						      (json_int_t)id, "tpid",
						      (json_int_t)tpids[t].tpid,
						      "pcp", (json_int_t)pcp));
	}
	json_object_set(group, "vlan", tags);
	json_object_set_new(dev, "vlans", tags);
	return rc;
}

/* The one IPv4 or IPv6 address of an ethernet: the group's ipv4:/ipv6:
 * and the device's record for flows and states. */
static int
address(const json_t *eth, const char *path, bool v6, json_t *group,
	json_t *dev, struct wr_otg_err *err)
{
	const char *key = v6 ? "ipv6_addresses" : "ipv4_addresses";
	const json_t *as = json_object_get(eth, key);
	const json_t *a = json_array_get(as, 0), *gm;
	const char *addr, *gw, *gm_choice;
	char at[WR_OTG_PATH_MAX], why[WR_PARSE_WHY_MAX];
	json_int_t prefix;
	json_t *h, *rec;
	int rc = 0;

	if (json_array_size(as) == 0)
		return 0;
	wr_otg_at(at, "%s.%s[0]", path, key);
	if (json_array_size(as) > 1) {
		char at1[WR_OTG_PATH_MAX];

		wr_otg_at(at1, "%s.%s[1]", path, key);
		rc = wr_otg_err_add(err, at1, "a wirerate host has one %s "
				    "address: a second needs an ethernet of its "
				    "own", v6 ? "IPv6" : "IPv4");
	}
	if (wr_otg_refuse_others(a, at, ip_keys, err) != 0)
		rc = -EINVAL;
	addr = wr_otg_str(a, "address");
	gw = wr_otg_str(a, "gateway");
	prefix = json_integer_value(json_object_get(a, "prefix"));
	if (addr == NULL || gw == NULL)  /* wr_otg_check() requires both */
		return wr_otg_err_add(err, at, "expected an address and a "
				      "gateway");
	if (!v6) {
		uint32_t a4, g4;

		if (wr_parse_ipv4(addr, &a4, why, sizeof(why)) == 0 &&
		    wr_parse_ipv4(gw, &g4, why, sizeof(why)) == 0 &&
		    prefix >= 1 && prefix < 32 &&
		    ((a4 ^ g4) >> (32 - prefix)) != 0) {
			char atg[WR_OTG_PATH_MAX];

			wr_otg_at(atg, "%s.gateway", at);
			rc = wr_otg_err_add(err, atg, "expected a gateway in "
					    "%s/%lld, on the host's link, got %s",
					    addr, (long long)prefix, gw);
		}
	}
	gm = json_object_get(a, "gateway_mac");
	gm_choice = wr_otg_str(gm, "choice");
	rec = json_pack("{s:s, s:s, s:I, s:s}", "name",
			wr_otg_str(a, "name") ? wr_otg_str(a, "name") : "",
			"address", addr, "prefix", prefix, "gateway", gw);
	h = json_pack("{s:s, s:I}", "addr", addr, "prefix", prefix);
	if (gm_choice != NULL && strcmp(gm_choice, "value") == 0) {
		/* A gateway whose MAC is given is not asked: flows send to
		 * that MAC, and the host engine has no entry to fill. */
		json_object_set_new(rec, "gateway_mac",
				    json_string(wr_otg_str(gm, "value")));
	} else {
		json_object_set_new(h, "gateway", json_string(gw));
	}
	json_object_set_new(group, v6 ? "ipv6" : "ipv4", h);
	json_object_set_new(dev, v6 ? "ipv6" : "ipv4", rec);
	return rc;
}

static int
connection_port(const json_t *eth, const char *path,
		const struct wr_otg_plan *p, struct wr_otg_err *err)
{
	const json_t *c = json_object_get(eth, "connection");
	const char *choice = wr_otg_str(c, "choice");
	char at[WR_OTG_PATH_MAX];

	wr_otg_at(at, "%s.connection", path);
	if (c == NULL)
		return wr_otg_err_add(err, at, "expected {choice: port_name, "
				      "port_name: ...}: the port the ethernet is "
				      "on"), -1;
	if (choice != NULL && strcmp(choice, "port_name") != 0) {
		strncat(at, ".choice", sizeof(at) - strlen(at) - 1);
		return wr_otg_err_add(err, at, "wirerate connects ethernets to "
				      "ports only (port_name), got %s", choice), -1;
	}
	if (wr_otg_refuse_others(c, at, connection_keys, err) != 0)
		return -1;
	strncat(at, ".port_name", sizeof(at) - strlen(at) - 1);
	return wr_otg_port_ref(p, json_object_get(c, "port_name"), at, err);
}

static int
ethernet(const json_t *d, const json_t *eth, const char *path, unsigned int k,
	 const struct wr_otg_env *env, struct wr_otg_plan *p, json_t *names,
	 json_t *macs, struct wr_otg_err *err)
{
	const char *name = wr_otg_str(eth, "name"), *mac = wr_otg_str(eth, "mac");
	json_int_t mtu = json_integer_value(json_object_get(eth, "mtu"));
	char gname[32], at[WR_OTG_PATH_MAX], why[WR_PARSE_WHY_MAX];
	json_t *group, *dev;
	uint64_t mac48;
	int port, rc = 0;
	size_t i;

	if (wr_otg_name_add(names, eth, path, err) == -ENOMEM)
		return -ENOMEM;
	if (wr_otg_refuse_others(eth, path, ethernet_keys, err) != 0)
		rc = -EINVAL;
	for (i = 0; i < 2; i++) {
		const json_t *as = json_object_get(eth, i ? "ipv6_addresses" :
							   "ipv4_addresses");
		size_t j;

		for (j = 0; j < json_array_size(as); j++) {
			wr_otg_at(at, "%s.%s[%zu]", path,
				 i ? "ipv6_addresses" : "ipv4_addresses", j);
			if (wr_otg_name_add(names, json_array_get(as, j), at,
					    err) == -ENOMEM)
				return -ENOMEM;
		}
	}
	for (i = 0; i < json_array_size(json_object_get(eth, "vlans")); i++) {
		wr_otg_at(at, "%s.vlans[%zu]", path, i);
		if (wr_otg_name_add(names, json_array_get(json_object_get(eth,
				    "vlans"), i), at, err) == -ENOMEM)
			return -ENOMEM;
	}
	port = connection_port(eth, path, p, err);
	wr_otg_at(at, "%s.mac", path);
	/* The host engine answers for a unicast MAC of its own; OTG leaves
	 * choosing one to the implementation, wirerate to the config. */
	if (mac == NULL)
		return wr_otg_err_add(err, at, "expected the ethernet's MAC "
				      "(wirerate does not choose one)");
	if (wr_parse_mac(mac, &mac48, why, sizeof(why)) != 0 ||
	    (mac48 >> 40) & 1)
		return wr_otg_err_add(err, at, "expected a unicast MAC, got %s",
				      mac);
	/* A MAC is one host's (the hosts' loader refuses two groups with
	 * one, on any port): said here by path, not by the file's line. */
	{
		char key[24];
		const char *had;

		snprintf(key, sizeof(key), "%012llx",
			 (unsigned long long)(mac48 & 0xffffffffffffull));
		had = json_string_value(json_object_get(macs, key));
		if (had != NULL)
			return wr_otg_err_add(err, at, "%s is already the MAC of "
					      "%s (a MAC is one host's)", mac, had);
		if (json_object_set_new(macs, key, json_string(path)) != 0)
			return -ENOMEM;
	}
	if (port < 0)
		return -EINVAL;
	if (!p->ports[port].loc.remote) {
		const struct wr_otg_port_env *pe =
			&env->ports[p->ports[port].loc.index];
		uint32_t max = p->ports[port].l1.mtu ? p->ports[port].l1.mtu :
			       pe->mtu;

		wr_otg_at(at, "%s.mtu", path);
		if (max > 0 && mtu > max)
			rc = wr_otg_err_add(err, at, "port \"%s\" runs an MTU of "
					    "%u, got %lld", p->ports[port].name,
					    max, (long long)mtu);
	}
	group_name(name != NULL ? name : "", k, gname, sizeof(gname));
	group = json_pack("{s:s, s:i, s:i, s:s}", "name", gname, "port", port,
			  "count", 1, "mac", mac);
	dev = json_pack("{s:s, s:s, s:i, s:s, s:s, s:I}", "name",
			name != NULL ? name : "", "device",
			wr_otg_str(d, "name") ? wr_otg_str(d, "name") : "",
			"port", port, "group", gname, "mac", mac, "mtu", mtu);
	if (group == NULL || dev == NULL) {
		json_decref(group);
		json_decref(dev);
		return -ENOMEM;
	}
	if (vlans(eth, path, group, dev, err) != 0)
		rc = -EINVAL;
	if (address(eth, path, false, group, dev, err) != 0)
		rc = -EINVAL;
	if (address(eth, path, true, group, dev, err) != 0)
		rc = -EINVAL;
	json_array_append_new(p->hosts, group);
	json_array_append_new(p->devices, dev);
	return rc;
}

int
wr_otg_plan_devices(const json_t *cfg, const struct wr_otg_env *env,
		    struct wr_otg_plan *p, json_t *names,
		    struct wr_otg_err *err)
{
	const json_t *devs = json_object_get(cfg, "devices");
	json_t *macs = json_object();
	unsigned int k = 0;
	size_t i, j;
	int rc = 0, r = 0;

	if (macs == NULL)
		return -ENOMEM;
	for (i = 0; i < json_array_size(devs) && r != -ENOMEM; i++) {
		const json_t *d = json_array_get(devs, i);
		const json_t *eths = json_object_get(d, "ethernets");
		char path[WR_OTG_PATH_MAX];

		wr_otg_at(path, "devices[%zu]", i);
		if (wr_otg_name_add(names, d, path, err) == -ENOMEM) {
			r = -ENOMEM;
			break;
		}
		if (wr_otg_refuse_others(d, path, device_keys, err) != 0)
			rc = -EINVAL;
		for (j = 0; j < json_array_size(eths); j++, k++) {
			char at[WR_OTG_PATH_MAX];

			wr_otg_at(at, "%s.ethernets[%zu]", path, j);
			r = ethernet(d, json_array_get(eths, j), at, k, env, p,
				     names, macs, err);
			if (r == -ENOMEM)
				break;
			if (r != 0)
				rc = r;
		}
	}
	json_decref(macs);
	return r == -ENOMEM ? r : rc;
}

/* ---- states ---- */

/* The ethernet is asked for: no names asks for all. */
static bool
wanted(const json_t *names, const char *name)
{
	size_t i;

	if (json_array_size(names) == 0)
		return true;
	for (i = 0; i < json_array_size(names); i++)
		if (strcmp(json_string_value(json_array_get(names, i)) ?: "",
			   name) == 0)
			return true;
	return false;
}

/* The host of group @p group in a hosts.list result. */
static const json_t *
host_of(const json_t *list, const char *group)
{
	const json_t *hs = json_object_get(list, "hosts");
	size_t i;

	for (i = 0; i < json_array_size(hs); i++) {
		const json_t *h = json_array_get(hs, i);

		if (strcmp(wr_otg_str(h, "group") ?: "", group) == 0)
			return h;
	}
	return NULL;
}

/* One neighbour state: the gateway's, from the host's neighbour table (its
 * MAC once it answered), or the MAC the config gave. */
static int
neighbour(const json_t *dev, const json_t *host, bool v6, json_t *out)
{
	const json_t *rec = json_object_get(dev, v6 ? "ipv6" : "ipv4");
	const json_t *ns = json_object_get(host, "neighbours");
	const char *gw = wr_otg_str(rec, "gateway");
	const char *mac = wr_otg_str(rec, "gateway_mac");
	json_t *st;
	size_t i;

	if (rec == NULL || gw == NULL)
		return 0;
	for (i = 0; mac == NULL && i < json_array_size(ns); i++) {
		const json_t *n = json_array_get(ns, i);

		if (strcmp(wr_otg_str(n, "ip") ?: "", gw) == 0)
			mac = wr_otg_str(n, "mac");
	}
	st = json_pack("{s:s, s:s}", "ethernet_name", wr_otg_str(dev, "name"),
		       v6 ? "ipv6_address" : "ipv4_address", gw);
	if (st == NULL)
		return -ENOMEM;
	/* Not resolved yet: the model's link_layer_address is absent. */
	if (mac != NULL)
		json_object_set_new(st, "link_layer_address", json_string(mac));
	return json_array_append_new(out, st) == 0 ? 0 : -ENOMEM;
}

json_t *
wr_otg_states(const struct wr_otg_plan *p, const json_t *req,
	      const json_t *hosts, struct wr_otg_err *err)
{
	const char *choice = wr_otg_str(req, "choice");
	const json_t *ask;
	json_t *res, *out;
	bool v6;
	size_t i;

	if (choice == NULL)
		choice = "ipv4_neighbors";
	v6 = strcmp(choice, "ipv6_neighbors") == 0;
	if (!v6 && strcmp(choice, "ipv4_neighbors") != 0) {
		wr_otg_err_add(err, "choice", "wirerate's devices have IPv4 and "
			       "IPv6 neighbours only, got %s", choice);
		return NULL;
	}
	ask = json_object_get(json_object_get(req, choice), "ethernet_names");
	for (i = 0; i < json_array_size(ask); i++) {
		const char *n = json_string_value(json_array_get(ask, i));
		size_t j;

		for (j = 0; j < json_array_size(p->devices); j++)
			if (strcmp(wr_otg_str(json_array_get(p->devices, j),
					      "name") ?: "", n ?: "") == 0)
				break;
		if (j == json_array_size(p->devices)) {
			char at[WR_OTG_PATH_MAX];

			wr_otg_at(at, "%s.ethernet_names[%zu]",
				 choice, i);
			wr_otg_err_add(err, at, "no device ethernet is called "
				       "\"%s\"", n ?: "");
		}
	}
	if (wr_otg_err_any(err)) {
		err->code = 404;
		return NULL;
	}
	out = json_array();
	res = json_pack("{s:s, s:o}", "choice", choice, choice, out);
	if (res == NULL)
		return NULL;
	for (i = 0; i < json_array_size(p->devices); i++) {
		const json_t *d = json_array_get(p->devices, i);
		json_int_t port = json_integer_value(json_object_get(d, "port"));
		const json_t *host;

		if (!wanted(ask, wr_otg_str(d, "name") ?: ""))
			continue;
		host = host_of(json_array_get(hosts, (size_t)port),
			       wr_otg_str(d, "group") ?: "");
		if (neighbour(d, host, v6, out) != 0) {
			json_decref(res);
			return NULL;
		}
	}
	return res;
}

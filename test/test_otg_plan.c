/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the OTG plan: locations, ports, layer1, captures (their filters run by libpcap), devices as hosts: groups loaded back by the stream-file loader, every refusal by its JSON path, states. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "wr_filter.h"
#include "wr_otg_priv.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* Two ports as a server on an af_packet veth and a memif would have them. */
static struct wr_otg_env env = {
	.n_ports = 2,
	.ports = {
		{ .device = "net_af_packet0", .iface = "veth-a",
		  .mac = { 2, 0, 0, 0, 0, 0xa }, .speed_mbps = 10000,
		  .mtu = 1500, .mtu_max = 9000, .promisc_ok = true,
		  .tx_ok = true, .rx_ok = true },
		{ .device = "net_memif0", .mac = { 2, 0, 0, 0, 0, 0xb },
		  .mtu = 1500, .tx_ok = true, .rx_ok = true },
	},
};

#define PORTS \
	"\"ports\": [{\"name\": \"p1\", \"location\": \"veth-a\"}," \
	"            {\"name\": \"p2\", \"location\": \"net_memif0\"}]"

static json_t *
doc(const char *text)
{
	json_error_t je;
	json_t *j = json_loads(text, 0, &je);

	if (j == NULL)
		fprintf(stderr, "\nbad test JSON: %s at %d: %s\n", je.text,
			je.position, text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	return j;
}

/* A Config as the server plans it: checked against the model first
 * (defaults filled), which it must pass. */
static json_t *
config(const char *text)
{
	struct wr_otg_err err;
	json_t *j = doc(text);

	wr_otg_err_init(&err);
	if (wr_otg_check(j, "Config", &err) != 0) {
		char *s = json_dumps(err.errors, 0);

		fprintf(stderr, "\nthe check refused the test's config: %s\n", s);
		free(s);
		CU_FAIL_FATAL("a test config the model refuses");
	}
	wr_otg_err_free(&err);
	return j;
}

/* Build @p text; the errors must be exactly the NULL-terminated list
 * (none: the plan built). */
static int
build(const char *text, struct wr_otg_plan *p, ...)
{
	struct wr_otg_err err;
	json_t *cfg = config(text);
	const char *want;
	va_list ap;
	size_t i = 0;
	int rc;

	wr_otg_err_init(&err);
	rc = wr_otg_plan_build(cfg, &env, p, &err);
	va_start(ap, p);
	while ((want = va_arg(ap, const char *)) != NULL) {
		const char *got = json_string_value(json_array_get(err.errors, i));

		CU_ASSERT_STRING_EQUAL(got ? got : "(none)", want);
		if (got == NULL || strcmp(got, want) != 0)
			fprintf(stderr, "\nerror %zu: got  %s\n          want %s\n",
				i, got ? got : "(none)", want);
		i++;
	}
	va_end(ap);
	CU_ASSERT_EQUAL(json_array_size(err.errors), i);
	if (json_array_size(err.errors) > i)
		fprintf(stderr, "\nmore errors: %s\n",
			json_string_value(json_array_get(err.errors, i)));
	CU_ASSERT_EQUAL(rc, i == 0 ? 0 : -EINVAL);
	wr_otg_err_free(&err);
	json_decref(cfg);
	return rc;
}

static void
refused(const char *text, ...)
{
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *cfg = config(text);
	const char *want;
	va_list ap;
	size_t i = 0;

	wr_otg_err_init(&err);
	CU_ASSERT_EQUAL(wr_otg_plan_build(cfg, &env, &p, &err), -EINVAL);
	va_start(ap, text);
	while ((want = va_arg(ap, const char *)) != NULL) {
		const char *got = json_string_value(json_array_get(err.errors, i));

		CU_ASSERT_STRING_EQUAL(got ? got : "(none)", want);
		if (got == NULL || strcmp(got, want) != 0)
			fprintf(stderr, "\nerror %zu: got  %s\n          want %s\n",
				i, got ? got : "(none)", want);
		i++;
	}
	va_end(ap);
	CU_ASSERT_EQUAL(json_array_size(err.errors), i);
	for (; i < json_array_size(err.errors); i++)
		fprintf(stderr, "\nmore: %s\n",
			json_string_value(json_array_get(err.errors, i)));
	CU_ASSERT_PTR_NULL(p.ports);
	wr_otg_err_free(&err);
	json_decref(cfg);
}

static void
test_location(void)
{
	struct wr_otg_env e = env;
	struct wr_otg_loc l;
	const char *why = NULL;

	CU_ASSERT_EQUAL(wr_otg_location("1", &e, &l, &why), 0);
	CU_ASSERT_FALSE(l.remote);
	CU_ASSERT_EQUAL(l.index, 1);
	CU_ASSERT_EQUAL(wr_otg_location("veth-a", &e, &l, &why), 0);
	CU_ASSERT_EQUAL(l.index, 0);
	CU_ASSERT_EQUAL(wr_otg_location("net_memif0", &e, &l, &why), 0);
	CU_ASSERT_EQUAL(l.index, 1);
	CU_ASSERT_EQUAL(wr_otg_location("2", &e, &l, &why), -ENOENT);
	CU_ASSERT_STRING_EQUAL(why, "no port of this server has that index");
	CU_ASSERT_EQUAL(wr_otg_location("veth-z", &e, &l, &why), -ENOENT);
	CU_ASSERT_EQUAL(wr_otg_location("01x", &e, &l, &why), -ENOENT);
	CU_ASSERT_EQUAL(wr_otg_location("", &e, &l, &why), -EINVAL);
	/* Another server's port only with the remote token configured. */
	CU_ASSERT_EQUAL(wr_otg_location("10.0.0.2:18300/1", &e, &l, &why),
			-EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "--remote-token-file"));
	e.remote_ok = true;
	CU_ASSERT_EQUAL(wr_otg_location("10.0.0.2:18300/1", &e, &l, &why), 0);
	CU_ASSERT_TRUE(l.remote);
	CU_ASSERT_STRING_EQUAL(l.host, "10.0.0.2");
	CU_ASSERT_EQUAL(l.port, 18300);
	CU_ASSERT_EQUAL(l.index, 1);
	CU_ASSERT_EQUAL(wr_otg_location("[2001:db8::2]:8/0", &e, &l, &why), 0);
	CU_ASSERT_STRING_EQUAL(l.host, "2001:db8::2");
	CU_ASSERT_EQUAL(l.port, 8);
	CU_ASSERT_EQUAL(l.index, 0);
	CU_ASSERT_EQUAL(wr_otg_location("node-b.lab:18300/3", &e, &l, &why), 0);
	CU_ASSERT_STRING_EQUAL(l.host, "node-b.lab");
	CU_ASSERT_EQUAL(wr_otg_location("h:0/1", &e, &l, &why), -EINVAL);
	CU_ASSERT_EQUAL(wr_otg_location("h:70000/1", &e, &l, &why), -EINVAL);
	CU_ASSERT_EQUAL(wr_otg_location("h:80/x", &e, &l, &why), -EINVAL);
	CU_ASSERT_EQUAL(wr_otg_location(":80/1", &e, &l, &why), -EINVAL);
	CU_ASSERT_EQUAL(wr_otg_location("[::1:80/1", &e, &l, &why), -EINVAL);
}

static void
test_ports(void)
{
	struct wr_otg_plan p;

	CU_ASSERT_EQUAL_FATAL(build("{" PORTS "}", &p, NULL), 0);
	CU_ASSERT_EQUAL(p.n_ports, 2);
	CU_ASSERT_STRING_EQUAL(p.ports[0].name, "p1");
	CU_ASSERT_EQUAL(p.ports[0].loc.index, 0);
	CU_ASSERT_EQUAL(p.ports[1].loc.index, 1);
	CU_ASSERT_FALSE(p.ports[0].l1.set);
	CU_ASSERT_EQUAL(p.ports[0].l1.promisc, -1);
	CU_ASSERT_EQUAL(wr_otg_port_find(&p, "p2"), 1);
	CU_ASSERT_EQUAL(wr_otg_port_find(&p, "p3"), -1);
	CU_ASSERT_PTR_NOT_NULL(p.config);
	wr_otg_plan_free(&p);
	CU_ASSERT_PTR_NULL(p.ports);
	wr_otg_plan_free(&p);

	refused("{\"ports\": [{\"name\": \"p1\", \"location\": \"veth-z\"},"
		"{\"name\": \"p2\"}, {\"name\": \"p1\", \"location\": \"0\"},"
		"{\"name\": \"p4\", \"location\": \"veth-a\"},"
		"{\"name\": \"p5\", \"location\": \"9\"}]}",
		"ports[0].location: no port of this server has that DPDK device "
		"or Linux interface, got \"veth-z\"",
		"ports[1].location: expected a location: a port index, a DPDK "
		"device name, a port's Linux interface, or HOST:PORT/INDEX, got \"\"",
		"ports[2]: name \"p1\" is already the name of ports[0] (names are "
		"unique in a config)",
		"ports[3].location: the port \"p1\" is there already",
		"ports[4].location: no port of this server has that index, got \"9\"",
		NULL);
}

/* A port of another server: its device is checked there, when the
 * handlers apply the layer1 and load its stream file. */
static void
test_remote_port(void)
{
	struct wr_otg_plan p;
	int map[2] = { -1, 0 };
	char *yaml;

	env.remote_ok = true;
	CU_ASSERT_EQUAL_FATAL(build("{\"ports\": [{\"name\": \"p1\", \"location\": "
		"\"veth-a\"}, {\"name\": \"p2\", \"location\": \"10.0.0.2:18300/1\"}],"
		"\"layer1\": [{\"name\": \"l\", \"port_names\": [\"p2\"], \"speed\": "
		"\"speed_25_gbps\", \"mtu\": 9000}], \"devices\": [{\"name\": \"d\","
		"\"ethernets\": [{\"name\": \"e\", \"connection\": {\"choice\": "
		"\"port_name\", \"port_name\": \"p2\"}, \"mac\": \"02:00:00:00:00:02\","
		"\"mtu\": 9000}]}]}", &p, NULL), 0);
	env.remote_ok = false;
	CU_ASSERT_FALSE(p.ports[0].loc.remote);
	CU_ASSERT_TRUE(p.ports[1].loc.remote);
	CU_ASSERT_STRING_EQUAL(p.ports[1].loc.host, "10.0.0.2");
	CU_ASSERT_EQUAL(p.ports[1].loc.port, 18300);
	CU_ASSERT_EQUAL(p.ports[1].loc.index, 1);
	CU_ASSERT_EQUAL(p.ports[1].l1.speed_mbps, 25000);
	CU_ASSERT_EQUAL(p.ports[1].line_mbps, 25000);
	CU_ASSERT_EQUAL(p.ports[1].l1.mtu, 9000);
	/* The remote server's file: its device's host on its port 0. */
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, map, &yaml), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(yaml, "\"port\": 0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(yaml, "\"name\": \"e\""));
	free(yaml);
	wr_otg_plan_free(&p);
}

static void
test_refused_members(void)
{
	refused("{" PORTS ", \"lags\": [{\"name\": \"l\"}], \"lldp\": [],"
		"\"options\": {\"port_options\": {\"location_preemption\": true}},"
		"\"events\": {}, \"egress_only_tracking\": [{\"port_name\": \"p1\"}],"
		"\"stateful_flows\": {\"rocev2\": []}}",
		"egress_only_tracking: not supported by wirerate (refused, not "
		"ignored: doc/otg.md lists what is)",
		"lags: not supported by wirerate (refused, not ignored: "
		"doc/otg.md lists what is)",
		"options: not supported by wirerate (refused, not ignored: "
		"doc/otg.md lists what is)",
		"stateful_flows: not supported by wirerate (refused, not ignored: "
		"doc/otg.md lists what is)",
		NULL);
}

static void
test_layer1(void)
{
	struct wr_otg_plan p;

	CU_ASSERT_EQUAL_FATAL(build("{" PORTS ", \"layer1\": [{\"name\": \"l1\","
		"\"port_names\": [\"p1\"], \"speed\": \"speed_10_gbps\","
		"\"mtu\": 9000, \"promiscuous\": false}]}", &p, NULL), 0);
	CU_ASSERT_TRUE(p.ports[0].l1.set);
	CU_ASSERT_EQUAL(p.ports[0].l1.speed_mbps, 10000);
	CU_ASSERT_EQUAL(p.ports[0].line_mbps, 10000);
	CU_ASSERT_EQUAL(p.ports[1].line_mbps, 0);
	CU_ASSERT_EQUAL(p.ports[0].l1.mtu, 9000);
	CU_ASSERT_EQUAL(p.ports[0].l1.promisc, 0);
	CU_ASSERT_FALSE(p.ports[1].l1.set);
	CU_ASSERT_EQUAL(p.ports[1].l1.promisc, -1);
	wr_otg_plan_free(&p);

	refused("{" PORTS ", \"layer1\": [{\"name\": \"l1\","
		"\"port_names\": [\"p1\", \"p9\"], \"speed\": \"speed_25_gbps\","
		"\"mtu\": 9001, \"promiscuous\": true,"
		"\"auto_negotiation\": {\"rs_fec\": true}, \"media\": \"fiber\"},"
		"{\"name\": \"l2\", \"port_names\": [\"p2\", \"p1\"],"
		"\"speed\": \"speed_100_hd_mbps\", \"mtu\": 9000,"
		"\"promiscuous\": true}, {\"name\": \"l3\", \"port_names\": [\"p2\"]}]}",
		"layer1[0].auto_negotiation: not supported by wirerate (refused, "
		"not ignored: doc/otg.md lists what is)",
		"layer1[0].media: not supported by wirerate (refused, not ignored: "
		"doc/otg.md lists what is)",
		"layer1[0].speed: port \"p1\" runs at 10000 Mb/s and its speed is "
		"not set by wirerate, got speed_25_gbps",
		"layer1[0].mtu: port \"p1\"'s device takes an MTU up to 9000, got 9001",
		"layer1[0].port_names[1]: no port is called \"p9\" (ports[].name)",
		"layer1[1].speed: half duplex is not a speed wirerate's ports run, "
		"got speed_100_hd_mbps",
		"layer1[1].mtu: port \"p2\"'s device cannot change its MTU (1500), "
		"got 9000",
		"layer1[1].promiscuous: port \"p2\"'s device cannot set promiscuous "
		"mode",
		"layer1[1].port_names[1]: port \"p1\" has a layer1 already",
		"layer1[2].port_names[0]: port \"p2\" has a layer1 already",
		NULL);
	/* A speed a device does not report cannot be checked; the model's
	 * promiscuous (default true) on a device that cannot set it. */
	refused("{" PORTS ", \"layer1\": [{\"name\": \"l\", \"port_names\": "
		"[\"p2\"], \"speed\": \"speed_1_gbps\"}]}",
		"layer1[0].speed: port \"p2\"'s device does not report its speed, "
		"so speed_1_gbps cannot be checked",
		"layer1[0].promiscuous: port \"p2\"'s device cannot set "
		"promiscuous mode", NULL);
	/* Nor an MTU it does not report. */
	env.ports[0].mtu = 0;
	env.ports[0].mtu_max = 0;
	refused("{" PORTS ", \"layer1\": [{\"name\": \"l\", \"port_names\": "
		"[\"p1\"], \"mtu\": 1500}]}",
		"layer1[0].mtu: port \"p1\"'s device does not report its MTU, so "
		"1500 cannot be checked", NULL);
	env.ports[0].mtu = 1500;
	env.ports[0].mtu_max = 9000;
}

/* The capture of @p filters on p1, its expression; NULL when refused. */
static char *
cap_expr(const char *filters)
{
	char text[4096];
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *cfg;
	char *out = NULL;

	snprintf(text, sizeof(text), "{" PORTS ", \"captures\": [{\"name\": "
		 "\"c\", \"port_names\": [\"p1\"], \"format\": \"pcap\", "
		 "\"overwrite\": true, \"filters\": %s}]}", filters);
	cfg = config(text);
	wr_otg_err_init(&err);
	if (wr_otg_plan_build(cfg, &env, &p, &err) == 0) {
		CU_ASSERT_TRUE(p.ports[0].cap.set);
		out = strdup(p.ports[0].cap.filter);
		wr_otg_plan_free(&p);
	} else {
		fprintf(stderr, "\n%s\n", json_string_value(
			json_array_get(err.errors, 0)));
	}
	wr_otg_err_free(&err);
	json_decref(cfg);
	return out;
}

/* Whether @p expr keeps @p frame (libpcap's interpreter). */
static bool
keeps(const char *expr, const uint8_t *frame, size_t len)
{
	struct wr_filter f;
	char why[256];
	bool m;

	memset(&f, 0, sizeof(f));
	CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&f, expr, why, sizeof(why)), 0);
	m = wr_filter_match(&f, frame, (uint32_t)len, (uint32_t)len);
	wr_filter_free(&f);
	return m;
}

static void
test_capture_filters(void)
{
	/* 802.1Q tag 100 pcp 5, IPv4 10.1.2.3 -> 10.9.8.7, UDP. */
	static const uint8_t tagged[64] = {
		0x02, 0, 0, 0, 0, 0x0b, 0x02, 0, 0, 0, 0, 0x0a, 0x81, 0x00,
		0xa0, 0x64, 0x08, 0x00,
		0x45, 0, 0, 46, 0, 1, 0x40, 0, 64, 17, 0, 0,
		10, 1, 2, 3, 10, 9, 8, 7,
	};
	/* The same untagged. */
	static const uint8_t plain[60] = {
		0x02, 0, 0, 0, 0, 0x0b, 0x02, 0, 0, 0, 0, 0x0a, 0x08, 0x00,
		0x45, 0, 0, 46, 0, 1, 0x40, 0, 64, 17, 0, 0,
		10, 1, 2, 3, 10, 9, 8, 7,
	};
	char *e;

	/* No filters: every frame. */
	e = cap_expr("[]");
	CU_ASSERT_STRING_EQUAL(e, "");
	free(e);
	/* Ethernet source exactly, type IPv4. */
	e = cap_expr("[{\"choice\": \"ethernet\", \"ethernet\": {\"src\": "
		     "{\"value\": \"02000000000a\", \"mask\": \"00\", \"negate\": false},"
		     "\"ether_type\": {\"value\": \"0800\", \"mask\": \"00\","
		     "\"negate\": false}}}]");
	CU_ASSERT_STRING_EQUAL(e, "(ether[6:4] = 0x2000000 and ether[10:2] = 0xa)"
			       " and (ether[12:2] = 0x800)");
	CU_ASSERT_TRUE(keeps(e, plain, sizeof(plain)));
	CU_ASSERT_FALSE(keeps(e, tagged, sizeof(tagged)));
	free(e);
	/* Ethernet, then a VLAN (id 100, any priority), then IPv4 dst in
	 * 10.9.0.0/16 (mask bits 1: not compared). */
	e = cap_expr("[{\"choice\": \"ethernet\", \"ethernet\": {}},"
		     "{\"choice\": \"vlan\", \"vlan\": {\"id\": {\"value\": \"64\","
		     "\"mask\": \"000\", \"negate\": false}}},"
		     "{\"choice\": \"ipv4\", \"ipv4\": {\"dst\": {\"value\": "
		     "\"0a090000\", \"mask\": \"0000ffff\", \"negate\": false}}}]");
	CU_ASSERT_STRING_EQUAL(e, "(ether[14:2] & 0xfff = 0x64) and "
			       "(ether[34:4] & 0xffff0000 = 0xa090000)");
	CU_ASSERT_TRUE(keeps(e, tagged, sizeof(tagged)));
	CU_ASSERT_FALSE(keeps(e, plain, sizeof(plain)));
	free(e);
	/* IPv4 alone sits behind an Ethernet header; negate. */
	e = cap_expr("[{\"choice\": \"ipv4\", \"ipv4\": {\"src\": {\"value\": "
		     "\"0a010203\", \"mask\": \"00\", \"negate\": true},"
		     "\"protocol\": {\"value\": \"11\", \"mask\": \"00\", "
		     "\"negate\": false}}}]");
	CU_ASSERT_STRING_EQUAL(e, "(ether[23:1] = 0x11) and "
			       "not (ether[26:4] = 0xa010203)");
	CU_ASSERT_FALSE(keeps(e, plain, sizeof(plain)));
	free(e);
	/* Custom: bits from the end of the filter before (none: the frame's
	 * start): the VLAN's PCP (3 bits at bit 112). */
	e = cap_expr("[{\"choice\": \"custom\", \"custom\": {\"offset\": 112,"
		     "\"bit_length\": 3, \"value\": \"5\", \"mask\": \"0\","
		     "\"negate\": false}}]");
	CU_ASSERT_STRING_EQUAL(e, "(ether[14:1] & 0xe0 = 0xa0)");
	CU_ASSERT_TRUE(keeps(e, tagged, sizeof(tagged)));
	CU_ASSERT_FALSE(keeps(e, plain, sizeof(plain)));
	free(e);
	/* After an ethernet filter, offset 0 is the byte behind it. */
	e = cap_expr("[{\"choice\": \"ethernet\", \"ethernet\": {}},"
		     "{\"choice\": \"custom\", \"custom\": {\"offset\": 0,"
		     "\"bit_length\": 8, \"value\": \"45\", \"mask\": \"00\","
		     "\"negate\": false}}]");
	CU_ASSERT_STRING_EQUAL(e, "(ether[14:1] = 0x45)");
	CU_ASSERT_TRUE(keeps(e, plain, sizeof(plain)));
	CU_ASSERT_FALSE(keeps(e, tagged, sizeof(tagged)));
	free(e);
	/* IPv6 destination: 16 bytes in four loads. */
	e = cap_expr("[{\"choice\": \"ipv6\", \"ipv6\": {\"dst\": {\"value\": "
		     "\"20010db8000000000000000000000001\", \"mask\": \"00\","
		     "\"negate\": false}}}]");
	CU_ASSERT_STRING_EQUAL(e, "(ether[38:4] = 0x20010db8 and ether[42:4] = "
			       "0x0 and ether[46:4] = 0x0 and ether[50:4] = 0x1)");
	free(e);

	refused("{" PORTS ", \"captures\": [{\"name\": \"c\", \"port_names\": "
		"[\"p1\", \"p7\"], \"filters\": ["
		"{\"choice\": \"ethernet\", \"ethernet\": {\"pfc_queue\": {"
		"\"value\": \"1\", \"mask\": \"0\", \"negate\": false},"
		"\"ether_type\": {\"value\": \"10800\", \"mask\": \"00\", "
		"\"negate\": false}}},"
		"{\"choice\": \"vlan\", \"vlan\": {\"cfi\": {\"value\": \"0\", "
		"\"mask\": \"1\", \"negate\": true}, \"priority\": {\"value\": "
		"\"8\", \"mask\": \"0\", \"negate\": false}, \"id\": {\"value\": "
		"\"0fff\", \"mask\": \"1000\", \"negate\": false}}},"
		"{\"choice\": \"custom\", \"custom\": {\"offset\": 0, "
		"\"bit_length\": 200, \"value\": \"00\", \"mask\": \"00\","
		"\"negate\": false}}]},"
		"{\"name\": \"d\", \"port_names\": [\"p1\"]}]}",
		"captures[0].filters[0].ethernet.ether_type.value: expected hex of "
		"at most 16 bits",
		"captures[0].filters[0].ethernet.pfc_queue: not supported by "
		"wirerate (refused, not ignored: doc/otg.md lists what is)",
		"captures[0].filters[1].vlan.priority.value: expected hex of at most "
		"3 bits",
		"captures[0].filters[1].vlan.cfi: the mask leaves no bit to compare, "
		"so negate would keep no frame",
		"captures[0].filters[1].vlan.id.mask: expected hex of at most 12 bits",
		"captures[0].filters[2].custom.bit_length: expected 1 to 128 bits "
		"within the first 65535 bytes of a frame",
		"captures[0].port_names[1]: no port is called \"p7\" (ports[].name)",
		"captures[1].port_names[0]: port \"p1\" is in another capture already",
		NULL);
}

static void
test_capture_settings(void)
{
	struct wr_otg_plan p;

	CU_ASSERT_EQUAL_FATAL(build("{" PORTS ", \"captures\": [{\"name\": \"c\","
		"\"port_names\": [\"p2\"], \"packet_size\": 128, \"format\": "
		"\"pcapng\", \"overwrite\": false}]}", &p, NULL), 0);
	CU_ASSERT_FALSE(p.ports[0].cap.set);
	CU_ASSERT_TRUE(p.ports[1].cap.set);
	CU_ASSERT_EQUAL(p.ports[1].cap.snaplen, 128);
	CU_ASSERT_TRUE(p.ports[1].cap.pcapng);
	CU_ASSERT_FALSE(p.ports[1].cap.overwrite);
	CU_ASSERT_STRING_EQUAL(p.ports[1].cap.filter, "");
	wr_otg_plan_free(&p);
}

/* Two devices back to back, as snappi's b2b examples: one tagged with
 * IPv4 and IPv6, one with a gateway MAC given. */
#define DEVICES \
	"\"devices\": [{\"name\": \"d1\", \"ethernets\": [{\"name\": \"d1.eth\"," \
	"  \"connection\": {\"choice\": \"port_name\", \"port_name\": \"p1\"}," \
	"  \"mac\": \"02:00:00:00:01:01\", \"mtu\": 1500," \
	"  \"vlans\": [{\"name\": \"d1.vlan\", \"tpid\": \"x8100\", \"priority\": 3," \
	"              \"id\": 100}]," \
	"  \"ipv4_addresses\": [{\"name\": \"d1.ip4\", \"address\": \"10.0.0.1\"," \
	"     \"gateway\": \"10.0.0.2\", \"prefix\": 24," \
	"     \"gateway_mac\": {\"choice\": \"auto\", \"auto\": \"00:00:00:00:00:00\"}}]," \
	"  \"ipv6_addresses\": [{\"name\": \"d1.ip6\", \"address\": \"2001:db8::1\"," \
	"     \"gateway\": \"2001:db8::2\", \"prefix\": 64," \
	"     \"gateway_mac\": {\"choice\": \"auto\", \"auto\": \"00:00:00:00:00:00\"}}]}]}," \
	" {\"name\": \"d2\", \"ethernets\": [{\"name\": \"eth with spaces\"," \
	"  \"connection\": {\"choice\": \"port_name\", \"port_name\": \"p2\"}," \
	"  \"mac\": \"02:00:00:00:02:01\", \"mtu\": 1500," \
	"  \"ipv4_addresses\": [{\"name\": \"d2.ip4\", \"address\": \"10.0.0.2\"," \
	"     \"gateway\": \"10.0.0.1\", \"prefix\": 24," \
	"     \"gateway_mac\": {\"choice\": \"value\", \"value\": \"02:00:00:00:01:01\"}}]}]}]"

static void
test_devices(void)
{
	int map[2] = { 0, 1 };
	struct wr_stream_file f;
	struct wr_otg_plan p;
	struct wr_error e;
	const struct wr_host_group *g;
	const json_t *d;
	char *yaml;
	int i;

	CU_ASSERT_EQUAL_FATAL(build("{" PORTS ", " DEVICES "}", &p, NULL), 0);
	CU_ASSERT_EQUAL(json_array_size(p.hosts), 2);
	CU_ASSERT_EQUAL(json_array_size(p.devices), 2);
	d = json_array_get(p.devices, 0);
	CU_ASSERT_STRING_EQUAL(wr_otg_str(d, "name"), "d1.eth");
	CU_ASSERT_STRING_EQUAL(wr_otg_str(d, "device"), "d1");
	CU_ASSERT_STRING_EQUAL(wr_otg_str(d, "group"), "d1.eth");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(d, "port")), 0);
	CU_ASSERT_STRING_EQUAL(wr_otg_str(json_object_get(d, "ipv4"), "gateway"),
			       "10.0.0.2");
	CU_ASSERT_STRING_EQUAL(wr_otg_str(json_object_get(d, "ipv6"), "address"),
			       "2001:db8::1");
	d = json_array_get(p.devices, 1);
	/* Not a hosts group name: made one. */
	CU_ASSERT_STRING_EQUAL(wr_otg_str(d, "group"), "otg1");
	CU_ASSERT_STRING_EQUAL(wr_otg_str(json_object_get(d, "ipv4"),
					  "gateway_mac"), "02:00:00:00:01:01");

	/* The stream file loads, and its groups are the devices. */
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, map, &yaml), 0);
	if (wr_yaml_load_streams_buf("otg.yaml", yaml, strlen(yaml), &f, &e) != 0) {
		fprintf(stderr, "\n%s:%u:%u: %s: %s\n%s\n", e.file, e.line, e.col,
			e.path, e.msg, yaml);
		CU_FAIL_FATAL("the plan's stream file does not load");
	}
	CU_ASSERT_EQUAL_FATAL(f.hosts.n, 2);
	i = wr_host_specs_find(&f.hosts, "d1.eth");
	CU_ASSERT_EQUAL_FATAL(i, 0);
	g = &f.hosts.groups[i];
	CU_ASSERT_EQUAL(g->port, 0);
	CU_ASSERT_EQUAL(g->count, 1);
	CU_ASSERT_EQUAL(g->mac, 0x020000000101ull);
	CU_ASSERT_EQUAL(g->n_tags, 1);
	CU_ASSERT_EQUAL(g->vlan[0], 100);
	CU_ASSERT_EQUAL(g->tpid[0], 0x8100);
	CU_ASSERT_EQUAL(g->pcp[0], 3);
	CU_ASSERT_EQUAL(g->v4.mode, WR_HOST_ADDR_STATIC);
	CU_ASSERT_EQUAL(g->v4.addr, 0x0a000001u);
	CU_ASSERT_EQUAL(g->v4.prefix, 24);
	CU_ASSERT_TRUE(g->v4.has_gateway);
	CU_ASSERT_EQUAL(g->v4.gateway, 0x0a000002u);
	CU_ASSERT_EQUAL(g->v6.mode, WR_HOST_ADDR_STATIC);
	CU_ASSERT_EQUAL(g->v6.prefix, 64);
	CU_ASSERT_TRUE(g->v6.has_gateway);
	CU_ASSERT_TRUE(g->v6.addr == (((__uint128_t)0x20010db800000000ull << 64) | 1));
	g = &f.hosts.groups[wr_host_specs_find(&f.hosts, "otg1")];
	CU_ASSERT_EQUAL(g->port, 1);
	CU_ASSERT_EQUAL(g->n_tags, 0);
	/* Its gateway's MAC is given: nobody to ask. */
	CU_ASSERT_FALSE(g->v4.has_gateway);
	CU_ASSERT_EQUAL(g->v6.mode, WR_HOST_ADDR_NONE);
	wr_stream_file_free(&f);
	free(yaml);

	/* The server holding only p2, as its port 0. */
	map[0] = -1;
	map[1] = 0;
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, map, &yaml), 0);
	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("otg.yaml", yaml,
			      strlen(yaml), &f, &e), 0);
	CU_ASSERT_EQUAL(f.hosts.n, 1);
	CU_ASSERT_STRING_EQUAL(f.hosts.groups[0].name, "otg1");
	CU_ASSERT_EQUAL(f.hosts.groups[0].port, 0);
	wr_stream_file_free(&f);
	free(yaml);
	wr_otg_plan_free(&p);
}

static void
test_devices_refused(void)
{
	refused("{" PORTS ", \"devices\": [{\"name\": \"d1\","
		"\"bgp\": {\"router_id\": \"1.1.1.1\"}, \"ipv4_loopbacks\": [],"
		"\"ipv6_loopbacks\": [{\"name\": \"lo\", \"eth_name\": \"e1\"}], \"ethernets\": ["
		"{\"name\": \"e1\", \"connection\": {\"choice\": \"lag_name\","
		"  \"lag_name\": \"lag1\"}, \"mac\": \"02:00:00:00:00:01\", \"mtu\": 1500},"
		"{\"name\": \"e2\", \"connection\": {\"choice\": \"port_name\","
		"  \"port_name\": \"p1\"}, \"mac\": \"03:00:00:00:00:01\", \"mtu\": 1500},"
		"{\"name\": \"e3\", \"connection\": {\"choice\": \"port_name\","
		"  \"port_name\": \"p1\"}, \"mtu\": 1500},"
		"{\"name\": \"e4\", \"connection\": {\"choice\": \"port_name\","
		"  \"port_name\": \"p2\"}, \"mac\": \"02:00:00:00:00:04\", \"mtu\": 9000,"
		"  \"dhcpv4_interfaces\": [{\"name\": \"dh\"}],"
		"  \"vlans\": [{\"name\": \"v1\", \"tpid\": \"x9200\", \"priority\": 0,"
		"   \"id\": 5}, {\"name\": \"v2\", \"tpid\": \"x8100\", \"priority\": 0,"
		"   \"id\": 0}],"
		"  \"ipv4_addresses\": [{\"name\": \"a1\", \"address\": \"10.0.0.1\","
		"   \"gateway\": \"10.0.1.1\", \"prefix\": 24},"
		"   {\"name\": \"a2\", \"address\": \"10.0.0.3\", \"gateway\": "
		"   \"10.0.0.1\", \"prefix\": 24}]},"
		"{\"name\": \"e5\"}]}]}",
		"devices[0].bgp: not supported by wirerate (refused, not ignored: "
		"doc/otg.md lists what is)",
		"devices[0].ipv6_loopbacks: not supported by wirerate (refused, not "
		"ignored: doc/otg.md lists what is)",
		"devices[0].ethernets[0].connection.choice: wirerate connects "
		"ethernets to ports only (port_name), got lag_name",
		"devices[0].ethernets[1].mac: expected a unicast MAC, got "
		"03:00:00:00:00:01",
		"devices[0].ethernets[2].mac: expected the ethernet's MAC (wirerate "
		"does not choose one)",
		"devices[0].ethernets[3].dhcpv4_interfaces: not supported by "
		"wirerate (refused, not ignored: doc/otg.md lists what is)",
		"devices[0].ethernets[3].mtu: port \"p2\" runs an MTU of 1500, got 9000",
		"devices[0].ethernets[3].vlans[0].tpid: wirerate's hosts tag with "
		"x8100, x88A8 or x9100, got x9200",
		"devices[0].ethernets[3].vlans[1].id: expected a VLAN ID 1..4094 for "
		"a host's tag, got 0",
		"devices[0].ethernets[3].ipv4_addresses[1]: a wirerate host has one "
		"IPv4 address: a second needs an ethernet of its own",
		"devices[0].ethernets[3].ipv4_addresses[0].gateway: expected a "
		"gateway in 10.0.0.1/24, on the host's link, got 10.0.1.1",
		"devices[0].ethernets[4].connection: expected {choice: port_name, "
		"port_name: ...}: the port the ethernet is on",
		"devices[0].ethernets[4].mac: expected the ethernet's MAC (wirerate "
		"does not choose one)",
		NULL);
	/* A MAC is one host's, on any port. */
	refused("{" PORTS ", \"devices\": [{\"name\": \"d1\", \"ethernets\": ["
		"{\"name\": \"e1\", \"connection\": {\"choice\": \"port_name\","
		"  \"port_name\": \"p1\"}, \"mac\": \"02:00:00:00:00:01\"}]},"
		"{\"name\": \"d2\", \"ethernets\": [{\"name\": \"e2\", \"connection\": "
		"{\"choice\": \"port_name\", \"port_name\": \"p2\"}, \"mac\": "
		"\"02:00:00:00:00:01\"}]}]}",
		"devices[1].ethernets[0].mac: 02:00:00:00:00:01 is already the MAC "
		"of devices[0].ethernets[0] (a MAC is one host's)", NULL);
	/* Names are the config's, once. */
	refused("{" PORTS ", \"flows\": [{\"name\": \"p2\", "
		"\"tx_rx\": {\"choice\": \"port\", \"port\": {\"tx_name\": \"p1\","
		"\"rx_names\": [\"p2\"]}}}], \"devices\": [{"
		"\"name\": \"d1\", \"ethernets\": [{\"name\": \"d1\", \"connection\":"
		"{\"choice\": \"port_name\", \"port_name\": \"p1\"}, \"mac\": "
		"\"02:00:00:00:00:01\", \"mtu\": 1500}]}]}",
		"devices[0].ethernets[0]: name \"d1\" is already the name of "
		"devices[0] (names are unique in a config)",
		"flows[0]: name \"p2\" is already the name of ports[1] (names "
		"are unique in a config)",
		NULL);
}

/* What only an unchecked config has (a fuzzer's, a caller that skipped
 * wr_otg_check()) is refused too, never planned half. */
static void
test_unchecked(void)
{
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *cfg = doc("{" PORTS ", \"devices\": [{\"name\": \"d\", "
			  "\"ethernets\": [{\"name\": \"e\", \"connection\": {"
			  "\"choice\": \"port_name\", \"port_name\": \"p1\"}, "
			  "\"mac\": \"02:00:00:00:00:01\", \"ipv4_addresses\": "
			  "[{\"name\": \"a\"}]}]}]}");

	wr_otg_err_init(&err);
	CU_ASSERT_EQUAL(wr_otg_plan_build(cfg, &env, &p, &err), -EINVAL);
	CU_ASSERT_EQUAL(json_array_size(err.errors), 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "devices[0].ethernets[0].ipv4_addresses[0]: "
			       "expected an address and a gateway");
	wr_otg_err_free(&err);
	json_decref(cfg);
	wr_otg_err_init(&err);
	cfg = doc("[1]");
	CU_ASSERT_EQUAL(wr_otg_plan_build(cfg, &env, &p, &err), -EINVAL);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "expected a Config object");
	wr_otg_err_free(&err);
	json_decref(cfg);
}

static void
test_states(void)
{
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *hosts, *req, *res;
	char *s;

	CU_ASSERT_EQUAL_FATAL(build("{" PORTS ", " DEVICES "}", &p, NULL), 0);
	/* hosts.list of each plan port, as the server answers it. */
	hosts = doc("[{\"port\": 0, \"total\": 1, \"hosts\": [{\"index\": 0,"
		    "\"group\": \"d1.eth\", \"state\": \"up\", \"mac\": "
		    "\"02:00:00:00:01:01\", \"neighbours\": [{\"ip\": \"10.0.0.2\","
		    "\"state\": \"reachable\", \"mac\": \"02:00:00:00:02:01\"},"
		    "{\"ip\": \"2001:db8::2\", \"state\": \"incomplete\", "
		    "\"mac\": null}]}]},"
		    "{\"port\": 1, \"total\": 1, \"hosts\": [{\"index\": 0,"
		    "\"group\": \"otg1\", \"neighbours\": []}]}]");
	wr_otg_err_init(&err);
	req = doc("{\"choice\": \"ipv4_neighbors\", \"ipv4_neighbors\": {}}");
	res = wr_otg_states(&p, req, hosts, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	s = json_dumps(res, JSON_COMPACT);
	CU_ASSERT_STRING_EQUAL(s, "{\"choice\":\"ipv4_neighbors\",\"ipv4_neighbors\":"
		"[{\"ethernet_name\":\"d1.eth\",\"ipv4_address\":\"10.0.0.2\","
		"\"link_layer_address\":\"02:00:00:00:02:01\"},"
		"{\"ethernet_name\":\"eth with spaces\",\"ipv4_address\":\"10.0.0.1\","
		"\"link_layer_address\":\"02:00:00:00:01:01\"}]}");
	free(s);
	json_decref(res);
	json_decref(req);
	req = doc("{\"choice\": \"ipv6_neighbors\", \"ipv6_neighbors\": "
		  "{\"ethernet_names\": [\"d1.eth\"]}}");
	res = wr_otg_states(&p, req, hosts, &err);
	s = json_dumps(res, JSON_COMPACT);
	CU_ASSERT_STRING_EQUAL(s, "{\"choice\":\"ipv6_neighbors\",\"ipv6_neighbors\":"
		"[{\"ethernet_name\":\"d1.eth\",\"ipv6_address\":\"2001:db8::2\"}]}");
	free(s);
	json_decref(res);
	json_decref(req);
	CU_ASSERT_FALSE(wr_otg_err_any(&err));
	req = doc("{\"choice\": \"ipv4_neighbors\", \"ipv4_neighbors\": "
		  "{\"ethernet_names\": [\"nobody\"]}}");
	CU_ASSERT_PTR_NULL(wr_otg_states(&p, req, hosts, &err));
	CU_ASSERT_EQUAL(err.code, 404);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "ipv4_neighbors.ethernet_names[0]: no device "
			       "ethernet is called \"nobody\"");
	json_decref(req);
	wr_otg_err_free(&err);
	wr_otg_err_init(&err);
	req = doc("{\"choice\": \"bgp_prefixes\"}");
	CU_ASSERT_PTR_NULL(wr_otg_states(&p, req, hosts, &err));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "choice: wirerate's devices have IPv4 and IPv6 "
			       "neighbours only, got bgp_prefixes");
	json_decref(req);
	wr_otg_err_free(&err);
	json_decref(hosts);
	wr_otg_plan_free(&p);
}

/* A config as snappi 1.61.0 serialises it (test/fixtures/
 * otg_plan_snappi.json: snappi.api().config() with two ports, a layer1, a
 * pcapng capture of two filters and two devices, c.serialize()), checked,
 * planned, and its stream file loaded. */
static void
test_snappi_config(void)
{
	const int map[2] = { 0, 1 };
	struct wr_stream_file f;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	struct wr_error e;
	json_error_t je;
	json_t *cfg;
	char *yaml;
	int i;

	cfg = json_load_file(WR_FIXTURES "/otg_plan_snappi.json", 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	CU_ASSERT_EQUAL_FATAL(wr_otg_check(cfg, "Config", &err), 0);
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_build(cfg, &env, &p, &err), 0);
	CU_ASSERT_EQUAL(p.ports[0].l1.speed_mbps, 10000);
	CU_ASSERT_EQUAL(p.ports[0].l1.mtu, 1500);
	CU_ASSERT_EQUAL(p.ports[0].l1.promisc, 1);
	CU_ASSERT_TRUE(p.ports[0].cap.pcapng);
	CU_ASSERT_TRUE(p.ports[0].cap.overwrite);
	CU_ASSERT_STRING_EQUAL(p.ports[0].cap.filter, "(ether[6:4] = 0x2000000 and "
			       "ether[10:2] = 0x20a) and (ether[30:4] = 0xa000001)");
	CU_ASSERT_FALSE(p.ports[1].cap.set);
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, map, &yaml), 0);
	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("otg.yaml", yaml,
			      strlen(yaml), &f, &e), 0);
	CU_ASSERT_EQUAL(f.n_streams, 0);
	CU_ASSERT_EQUAL_FATAL(f.hosts.n, 2);
	i = wr_host_specs_find(&f.hosts, "d1.eth");
	CU_ASSERT_EQUAL_FATAL(i, 0);
	CU_ASSERT_EQUAL(f.hosts.groups[i].vlan[0], 200);
	CU_ASSERT_EQUAL(f.hosts.groups[i].tpid[0], 0x8100);
	/* gateway_mac absent: the check made it auto, so it is asked. */
	CU_ASSERT_TRUE(f.hosts.groups[i].v4.has_gateway);
	i = wr_host_specs_find(&f.hosts, "d2.eth");
	CU_ASSERT_EQUAL_FATAL(i, 1);
	CU_ASSERT_EQUAL(f.hosts.groups[i].port, 1);
	CU_ASSERT_EQUAL(f.hosts.groups[i].v4.mode, WR_HOST_ADDR_NONE);
	CU_ASSERT_TRUE(f.hosts.groups[i].v6.has_gateway);
	CU_ASSERT_TRUE(f.hosts.groups[i].v6.gateway ==
		       (((__uint128_t)0x20010db800000000ull << 64) | 1));
	wr_stream_file_free(&f);
	free(yaml);
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
	json_decref(cfg);
}

/* A flow each way between the ports: the stream file of each server
 * holds the streams sent from its ports. */
#define FLOW(NAME, TX, RX) \
	"{\"name\": \"" NAME "\", \"tx_rx\": {\"choice\": \"port\", \"port\": " \
	"{\"tx_name\": \"" TX "\", \"rx_names\": [\"" RX "\"]}}, \"packet\": [" \
	"{\"choice\": \"ethernet\", \"ethernet\": {\"dst\": {\"choice\": " \
	"\"value\", \"value\": \"02:00:00:00:00:0b\"}, \"src\": {\"choice\": " \
	"\"value\", \"value\": \"02:00:00:00:00:0a\"}}}, {\"choice\": \"ipv4\"}," \
	"{\"choice\": \"udp\"}], \"size\": {\"choice\": \"fixed\", \"fixed\": 128}," \
	"\"rate\": {\"choice\": \"pps\", \"pps\": \"1000\"}, \"duration\": {" \
	"\"choice\": \"fixed_packets\", \"fixed_packets\": {\"packets\": 100}}}"

/* Loads @p yaml; @return its streams (names in @p names, comma-joined). */
static unsigned int
load_names(const char *yaml, char *names, size_t cap)
{
	struct wr_stream_file f;
	struct wr_error e;
	unsigned int i, n;

	names[0] = '\0';
	if (wr_yaml_load_streams_buf("otg.yaml", yaml, strlen(yaml), &f, &e) != 0) {
		fprintf(stderr, "\n%s:%u:%u: %s: %s\n", e.file, e.line, e.col,
			e.path, e.msg);
		CU_FAIL("the plan's stream file does not load");
		return 0;
	}
	for (i = 0; i < f.n_streams; i++) {
		size_t l = strlen(names);

		snprintf(names + l, cap - l, "%s%s@%u", i ? "," : "",
			 f.streams[i].name, f.streams[i].port);
	}
	n = f.n_streams;
	wr_stream_file_free(&f);
	return n;
}

static void
test_flows_yaml(void)
{
	struct wr_otg_plan p;
	char names[512], *yaml;
	int map[2];

	CU_ASSERT_EQUAL_FATAL(build("{" PORTS ", \"flows\": [" FLOW("ab", "p1", "p2")
				    "," FLOW("ba", "p2", "p1") "]}", &p, NULL), 0);
	CU_ASSERT_EQUAL(p.n_flows, 2);
	CU_ASSERT_EQUAL(json_array_size(p.streams), 2);
	CU_ASSERT_STRING_EQUAL(p.flows[0].name, "ab");
	CU_ASSERT_EQUAL(p.flows[0].tx_port, 0);
	CU_ASSERT_EQUAL(p.flows[0].rx_ports, 2);
	CU_ASSERT_EQUAL(p.flows[1].tx_port, 1);
	CU_ASSERT_EQUAL(p.flows[1].rx_ports, 1);
	/* Both ports here, swapped: each stream on its engine port. */
	map[0] = 1;
	map[1] = 0;
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, map, &yaml), 0);
	CU_ASSERT_EQUAL(load_names(yaml, names, sizeof(names)), 2);
	free(yaml);
	{
		char want[512];

		snprintf(want, sizeof(want), "%s@1,%s@0", p.flows[0].stream,
			 p.flows[1].stream);
		CU_ASSERT_STRING_EQUAL(names, want);
	}
	/* A server holding p1 only: the flow it sends. */
	map[0] = 0;
	map[1] = -1;
	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml(&p, map, &yaml), 0);
	CU_ASSERT_EQUAL(load_names(yaml, names, sizeof(names)), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(names, "@0"));
	free(yaml);
	/* Nothing of the plan on a server: nothing to load. */
	map[0] = -1;
	CU_ASSERT_EQUAL(wr_otg_plan_yaml(&p, map, &yaml), -ENODATA);
	CU_ASSERT_PTR_NULL(yaml);
	wr_otg_plan_free(&p);
	/* Ports alone: no file either. */
	CU_ASSERT_EQUAL_FATAL(build("{" PORTS "}", &p, NULL), 0);
	map[0] = 0;
	map[1] = 1;
	CU_ASSERT_EQUAL(wr_otg_plan_yaml(&p, map, &yaml), -ENODATA);
	wr_otg_plan_free(&p);
	/* A flow's own refusal arrives by its path, the plan refused. */
	refused("{" PORTS ", \"flows\": [{\"name\": \"x\", \"tx_rx\": {"
		"\"choice\": \"port\", \"port\": {\"tx_name\": \"p9\"}}}]}",
		"flows[0].tx_rx.port.tx_name: no port named \"p9\"", NULL);
}

int
main(int argc, char **argv)
{
	static CU_TestInfo tests[] = {
		{ "location", test_location },
		{ "ports", test_ports },
		{ "remote_port", test_remote_port },
		{ "refused_members", test_refused_members },
		{ "layer1", test_layer1 },
		{ "capture_filters", test_capture_filters },
		{ "capture_settings", test_capture_settings },
		{ "devices", test_devices },
		{ "devices_refused", test_devices_refused },
		{ "unchecked", test_unchecked },
		{ "states", test_states },
		{ "snappi_config", test_snappi_config },
		{ "flows_yaml", test_flows_yaml },
		CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
		{ .pName = "otg_plan", .pTests = tests },
		CU_SUITE_INFO_NULL,
	};

	return wr_test_main(argc, argv, suites);
}

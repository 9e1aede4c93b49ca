/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_otg_check: OTG requests (as snappi 1.61.0 writes them) against the model's generated tables, every error's exact text, the defaults filled. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg.h"
#include "wr_test.h"

/* What snappi 1.61.0 serialised for a lab's config (ports, layer1, a
 * device, a flow from device to device with size increment, rate
 * percentage, continuous, latency metrics; "pps" it writes as a string). */
static const char SNAPPI_CONFIG[] =
	"{\"devices\":[{\"ethernets\":[{\"connection\":{\"choice\":\"port_name\","
	"\"port_name\":\"p1\"},\"ipv4_addresses\":[{\"address\":\"10.0.0.1\","
	"\"gateway\":\"10.0.0.2\",\"name\":\"d1.ip\",\"prefix\":24}],\"mac\":"
	"\"00:00:00:00:00:aa\",\"mtu\":1500,\"name\":\"d1.eth\"}],\"name\":"
	"\"d1\"}],\"flows\":[{\"duration\":{\"choice\":\"continuous\","
	"\"continuous\":{\"gap\":12}},\"metrics\":{\"enable\":true,\"latency\":"
	"{\"enable\":true,\"mode\":\"store_forward\"},\"loss\":false,"
	"\"timestamps\":false},\"name\":\"f1\",\"packet\":[{\"choice\":"
	"\"ethernet\",\"ethernet\":{}},{\"choice\":\"ipv4\",\"ipv4\":{\"src\":"
	"{\"choice\":\"increment\",\"increment\":{\"count\":10,\"start\":"
	"\"10.0.0.1\",\"step\":\"0.0.0.1\"}}}}],\"rate\":{\"choice\":"
	"\"percentage\",\"percentage\":50},\"size\":{\"choice\":\"increment\","
	"\"increment\":{\"end\":1500,\"start\":64,\"step\":1}},\"tx_rx\":"
	"{\"choice\":\"device\",\"device\":{\"bidirectional\":false,\"mode\":"
	"\"mesh\",\"rx_names\":[\"d1.ip\"],\"tx_names\":[\"d1.ip\"]}}},"
	"{\"name\":\"f2\",\"tx_rx\":{\"choice\":\"port\",\"port\":{\"tx_name\":"
	"\"p1\",\"rx_names\":[\"p2\"]}},\"rate\":{\"choice\":\"pps\",\"pps\":"
	"\"1000\"},\"duration\":{\"choice\":\"fixed_packets\",\"fixed_packets\":"
	"{\"gap\":12,\"packets\":100}},\"packet\":[{\"choice\":\"ethernet\","
	"\"ethernet\":{\"src\":{\"choice\":\"value\",\"value\":"
	"\"00:00:00:00:00:aa\"}}}]}],\"layer1\":[{\"mtu\":9000,\"name\":\"l1\","
	"\"port_names\":[\"p1\",\"p2\"],\"promiscuous\":true}],\"ports\":"
	"[{\"location\":\"veth-a\",\"name\":\"p1\"},{\"location\":\"veth-b\","
	"\"name\":\"p2\"}]}";

/* A flow every test below starts from: what the model requires. */
#define FLOW(...) "{\"flows\": [{\"name\": \"f\", \"tx_rx\": {\"port\": " \
	"{\"tx_name\": \"p\"}}" __VA_ARGS__ "}]}"

static json_t *doc;
static char errs[8192];
static int rc;

/* Check @p text against @p schema: rc, doc (checked, defaults in) and
 * errs (the errors, one a line) kept for the assertions. */
static const char *
check(const char *schema, const char *text)
{
	struct wr_otg_err e;
	json_error_t je;
	size_t i, n = 0;
	json_t *s;

	json_decref(doc);
	doc = json_loads(text, JSON_DECODE_ANY, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	wr_otg_err_init(&e);
	rc = wr_otg_check(doc, schema, &e);
	errs[0] = '\0';
	json_array_foreach(e.errors, i, s)
		n += (size_t)snprintf(errs + n, sizeof(errs) - n, "%s%s",
				      i > 0 ? "\n" : "", json_string_value(s));
	if (rc != -ENOENT)
		CU_ASSERT_EQUAL(rc, wr_otg_err_any(&e) ? -EINVAL : 0);
	wr_otg_err_free(&e);
	return errs;
}

/* The member at @p path ("flows[0].rate.pps") of the last checked doc. */
static json_t *
at(const char *path)
{
	char key[128];
	json_t *v = doc;

	while (*path != '\0' && v != NULL) {
		size_t k = strcspn(path, ".[");

		if (*path == '[') {
			v = json_array_get(v, strtoul(path + 1, NULL, 10));
			path = strchr(path, ']') + 1;
		} else {
			snprintf(key, sizeof(key), "%.*s", (int)k, path);
			v = json_object_get(v, key);
			path += k;
		}
		if (*path == '.')
			path++;
	}
	return v;
}

static const char *
str(const char *path)
{
	const char *s = json_string_value(at(path));

	return s != NULL ? s : "(none)";
}

/* The last checked doc's @p path as compact JSON with sorted keys. */
static const char *
dumped(const char *path)
{
	static char buf[4096];
	char *s = json_dumps(at(path), JSON_COMPACT | JSON_SORT_KEYS |
			     JSON_ENCODE_ANY);

	snprintf(buf, sizeof(buf), "%s", s != NULL ? s : "(none)");
	free(s);
	return buf;
}

static void
test_snappi(void)
{
	CU_ASSERT_STRING_EQUAL(check("Config", SNAPPI_CONFIG), "");
	CU_ASSERT_EQUAL(rc, 0);
	/* 64-bit integers written as strings become integers. */
	CU_ASSERT(json_is_integer(at("flows[1].rate.pps")));
	CU_ASSERT_EQUAL(json_integer_value(at("flows[1].rate.pps")), 1000);
	/* Defaults of present objects: the size a flow without one... */
	CU_ASSERT_STRING_EQUAL(dumped("flows[1].metrics"), "(none)");
	/* ...the ethernet's src pattern as given, its absent members not
	 * made (wr_otg_member_default() gives them). */
	CU_ASSERT_STRING_EQUAL(dumped("flows[1].packet[0].ethernet"),
			       "{\"src\":{\"choice\":\"value\",\"value\":"
			       "\"00:00:00:00:00:aa\"}}");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].metrics.latency"),
			       "{\"enable\":true,\"mode\":\"store_forward\"}");
	CU_ASSERT_STRING_EQUAL(dumped("devices[0].ethernets[0].ipv4_addresses"
				      "[0].gateway_mac"), "(none)");
	/* A checked document checks again, unchanged. */
	{
		char *once = json_dumps(doc, JSON_SORT_KEYS);

		CU_ASSERT_STRING_EQUAL(check("Config", once), "");
		free(once);
	}
	CU_ASSERT_STRING_EQUAL(check("Control.State",
		"{\"choice\":\"traffic\",\"traffic\":{\"choice\":"
		"\"flow_transmit\",\"flow_transmit\":{\"state\":\"start\"}}}"),
		"");
	CU_ASSERT_STRING_EQUAL(check("Metrics.Request",
		"{\"choice\":\"flow\",\"flow\":{\"flow_names\":[\"f1\"]}}"), "");
	CU_ASSERT_STRING_EQUAL(check("Config", "{}"), "");
	CU_ASSERT_STRING_EQUAL(dumped(""), "{}");
}

static void
test_defaults(void)
{
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{}, "
		"{\"ipv4\": {}}], \"rate\": {}, \"size\": {\"increment\": {}}, "
		"\"duration\": {}")), "");
	/* The default choice, and the chosen member made with its
	 * defaults; the other alternatives stay absent. */
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].rate"),
			       "{\"choice\":\"pps\",\"pps\":1000}");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].duration"),
			       "{\"choice\":\"continuous\",\"continuous\":"
			       "{\"gap\":12}}");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].packet[0]"),
			       "{\"choice\":\"ethernet\",\"ethernet\":{}}");
	/* The choice inferred from the one alternative given. */
	CU_ASSERT_STRING_EQUAL(str("flows[0].packet[1].choice"), "ipv4");
	CU_ASSERT_STRING_EQUAL(str("flows[0].tx_rx.choice"), "port");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].size"),
			       "{\"choice\":\"increment\",\"increment\":"
			       "{\"end\":1518,\"start\":64,\"step\":1}}");
	/* Array defaults. */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"ipv4\": "
		"{\"src\": {\"choice\": \"values\"}}}]")), "");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].packet[0].ipv4.src"),
			       "{\"choice\":\"values\",\"values\":"
			       "[\"0.0.0.0\"]}");
	/* Given values are kept, defaults fill only what is absent. */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"choice\": "
		"\"bps\", \"bps\": 1000}")), "");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].rate"),
			       "{\"bps\":1000,\"choice\":\"bps\"}");
	/* Control.State: choice is required, nothing defaults it. */
	CU_ASSERT_STRING_EQUAL(check("Control.State", "{}"),
			       "choice: required, missing");
	CU_ASSERT_STRING_EQUAL(check("Control.State", "{\"port\": {\"capture\":"
		" {\"state\": \"start\"}}}"), "");
	CU_ASSERT_STRING_EQUAL(dumped(""),
			       "{\"choice\":\"port\",\"port\":{\"capture\":"
			       "{\"state\":\"start\"},\"choice\":\"capture\"}}");
}

static void
test_default_api(void)
{
	json_t *v;
	char *s;

	v = wr_otg_default("Flow.Rate");
	s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	CU_ASSERT_STRING_EQUAL(s, "{\"choice\":\"pps\",\"pps\":1000}");
	free(s);
	json_decref(v);
	/* A header field absent from a flow. */
	v = wr_otg_member_default("Flow.Ipv4", "time_to_live");
	s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	CU_ASSERT_STRING_EQUAL(s, "{\"choice\":\"value\",\"value\":64}");
	free(s);
	json_decref(v);
	v = wr_otg_member_default("Pattern.Flow.Udp.DstPort", "value");
	CU_ASSERT(json_is_integer(v) && json_integer_value(v) == 0);
	json_decref(v);
	v = wr_otg_member_default("Flow.Ipv4", "dst");
	s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	CU_ASSERT_STRING_EQUAL(s, "{\"choice\":\"value\",\"value\":"
			       "\"0.0.0.0\"}");
	free(s);
	json_decref(v);
	CU_ASSERT_PTR_NULL(wr_otg_default("Flow.Nope"));
	CU_ASSERT_PTR_NULL(wr_otg_default(""));
	CU_ASSERT_PTR_NULL(wr_otg_default("Flow.Rate|Flow"));
	/* Not reachable from a request: not in the tables. */
	CU_ASSERT_PTR_NULL(wr_otg_default("Error"));
	CU_ASSERT_PTR_NULL(wr_otg_member_default("Flow.Ipv4", "nope"));
	/* A member without a default. */
	CU_ASSERT_PTR_NULL(wr_otg_member_default("Flow", "name"));
	CU_ASSERT_EQUAL(check("Flow.Nope", "{}")[0], '\0');
	CU_ASSERT_EQUAL(rc, -ENOENT);
}

static void
test_types(void)
{
	CU_ASSERT_STRING_EQUAL(check("Config", "[]"),
			       "expected an object, got an array");
	CU_ASSERT_STRING_EQUAL(check("Config", "{\"flows\": {}}"),
			       "flows: expected an array, got an object");
	CU_ASSERT_STRING_EQUAL(check("Config", "{\"ports\": [{\"name\": 7, "
		"\"location\": null}, \"p\"]}"),
		"ports[0].name: expected a string, got 7\n"
		"ports[0].location: expected a string, got null\n"
		"ports[1]: expected an object, got \"p\"");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"size\": {\"fixed\": "
		"64.5}, \"metrics\": {\"enable\": 1, \"loss\": \"true\"}")),
		"flows[0].size.fixed: expected an integer, got 64.5\n"
		"flows[0].metrics.enable: expected a boolean, got 1\n"
		"flows[0].metrics.loss: expected a boolean, got \"true\"");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"size\": {\"fixed\": "
		"64.0}, \"rate\": {\"percentage\": \"50\"}")),
		"flows[0].size.fixed: expected an integer, got 64.0\n"
		"flows[0].rate.percentage: expected a number, got \"50\"");
	/* 32-bit integers are numbers only; 64-bit ones also strings. */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"gbps\": "
		"\"5\"}")), "flows[0].rate.gbps: expected an integer, got \"5\"");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"pps\": "
		"\"123456789012\"}")), "");
	CU_ASSERT_EQUAL(json_integer_value(at("flows[0].rate.pps")),
			123456789012LL);
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"kbps\": "
		"9223372036854775807}")), "");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"pps\": "
		"\"0x10\"}}, {\"name\": \"g\", \"tx_rx\": {\"port\": {\"tx_name\": "
		"\"p\"}}, \"rate\": {\"pps\": \" 1\"}}, {\"name\": \"h\", "
		"\"tx_rx\": {\"port\": {\"tx_name\": \"p\"}}, \"rate\": {\"pps\": "
		"\"-1\"}}, {\"name\": \"i\", \"tx_rx\": {\"port\": {\"tx_name\": "
		"\"p\"}}, \"rate\": {\"pps\": \"\"}")),
		"flows[0].rate.pps: expected an integer (a JSON number or a "
		"decimal string), got \"0x10\"\n"
		"flows[1].rate.pps: expected an integer (a JSON number or a "
		"decimal string), got \" 1\"\n"
		"flows[2].rate.pps: expected an integer (a JSON number or a "
		"decimal string), got \"-1\"\n"
		"flows[3].rate.pps: expected an integer (a JSON number or a "
		"decimal string), got \"\"");
	/* Past what a JSON integer holds here (uint64 above 2^63 - 1). */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"pps\": "
		"\"9223372036854775808\"}")),
		"flows[0].rate.pps: expected an integer <= 9223372036854775807, "
		"got \"9223372036854775808\"");
}

static void
test_ranges(void)
{
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"pps\": "
		"0}, \"size\": {\"fixed\": -1}, \"duration\": {\"burst\": "
		"{\"packets\": 0}}")),
		"flows[0].rate.pps: expected an integer >= 1, got 0\n"
		"flows[0].size.fixed: expected an integer >= 0, got -1\n"
		"flows[0].duration.burst.packets: expected an integer >= 1, got 0");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"pps\": "
		"\"0\"}")), "flows[0].rate.pps: expected an integer >= 1, got 0");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"size\": {\"fixed\": "
		"4294967296}, \"rate\": {\"bps\": 671}")),
		"flows[0].size.fixed: expected an integer <= 4294967295, got "
		"4294967296\n"
		"flows[0].rate.bps: expected an integer >= 672, got 671");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"size\": {\"fixed\": "
		"4294967295}, \"rate\": {\"percentage\": 100}")), "");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": "
		"{\"percentage\": 100.5}")),
		"flows[0].rate.percentage: expected a number <= 100, got 100.5");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": "
		"{\"percentage\": -0.25}")),
		"flows[0].rate.percentage: expected a number >= 0, got -0.25");
	CU_ASSERT_STRING_EQUAL(check("Config", "{\"layer1\": [{\"name\": \"l\","
		" \"port_names\": [\"p\"], \"mtu\": 63}, {\"name\": \"m\", "
		"\"port_names\": [], \"mtu\": 14001}]}"),
		"layer1[0].mtu: expected an integer >= 64, got 63\n"
		"layer1[1].mtu: expected an integer <= 14000, got 14001");
	/* A pattern's field: ipv4 ttl is 8 bits. */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"ipv4\": "
		"{\"time_to_live\": {\"values\": [1, 255, 256]}}}]")),
		"flows[0].packet[0].ipv4.time_to_live.values[2]: expected an "
		"integer <= 255, got 256");
	/* Array lengths. */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": []")),
			       "flows[0].packet: expected at least 1 item, got 0");
	/* String lengths (characters, not bytes). */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"ipv4\": "
		"{\"options\": [{\"custom\": {\"length\": {}, \"type\": {}, "
		"\"value\": \"" "0123456789012345678901234567890123456789"
		"01234567890123456789012345678901234567\"}}]}}]")),
		"flows[0].packet[0].ipv4.options[0].custom.value: expected at "
		"most 76 characters, got \"012345678901234567890123456789012345"
		"67890123456...\" (78 characters)");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"payload\": {\"fixed\":"
		" {\"pattern\": \"a\"}}")),
		"flows[0].payload.fixed.pattern: expected at least 2 characters, "
		"got \"a\"");
	/* Characters are counted, not bytes; "got" is ASCII. */
	CU_ASSERT_STRING_EQUAL(check("Config", "{\"ports\": [{\"name\": "
		"\"p\", \"location\": \"\\u00e9\"}], \"captures\": [{\"name\":"
		" \"c\", \"port_names\": [\"p\"], \"filters\": [{\"custom\": "
		"{\"value\": \"\\u00e9\"}}]}]}"),
		"captures[0].filters[0].custom.value: expected hexadecimal digits,"
		" got \"\\u00E9\"");
}

static void
test_formats(void)
{
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"ethernet\":"
		" {\"src\": {\"value\": \"00:11:22:33:44:5\"}, \"dst\": {\"values\":"
		" [\"00:11:22:33:44:55\", \"00-11-22-33-44-55\", "
		"\"00:11:22:33:44:55:\"]}}}, {\"ipv4\": {\"src\": {\"value\": "
		"\"10.0.0.256\"}, \"dst\": {\"increment\": {\"start\": \"10.0.0.1\","
		" \"step\": \"1\"}}}}, {\"ipv6\": {\"src\": {\"value\": \"::1\"}, "
		"\"dst\": {\"value\": \"1::2::3\"}}}]")),
		"flows[0].packet[0].ethernet.src.value: expected a MAC address "
		"(xx:xx:xx:xx:xx:xx), got \"00:11:22:33:44:5\"\n"
		"flows[0].packet[0].ethernet.dst.values[1]: expected a MAC address"
		" (xx:xx:xx:xx:xx:xx), got \"00-11-22-33-44-55\"\n"
		"flows[0].packet[0].ethernet.dst.values[2]: expected a MAC address"
		" (xx:xx:xx:xx:xx:xx), got \"00:11:22:33:44:55:\"\n"
		"flows[0].packet[1].ipv4.src.value: expected an IPv4 address, got"
		" \"10.0.0.256\"\n"
		"flows[0].packet[1].ipv4.dst.increment.step: expected an IPv4 "
		"address, got \"1\"\n"
		"flows[0].packet[2].ipv6.dst.value: expected an IPv6 address, got"
		" \"1::2::3\"");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"custom\":"
		" {\"bytes\": \"0x00 11:22\"}}, {\"custom\": {\"bytes\": \"0x\"}},"
		" {\"custom\": {\"bytes\": \"00g\"}}]")),
		"flows[0].packet[1].custom.bytes: expected hexadecimal bytes "
		"(spaces and ':' allowed), got \"0x\"\n"
		"flows[0].packet[2].custom.bytes: expected hexadecimal bytes "
		"(spaces and ':' allowed), got \"00g\"");
	CU_ASSERT_STRING_EQUAL(check("Config", "{\"captures\": [{\"name\": "
		"\"c\", \"port_names\": [\"p\"], \"filters\": [{\"custom\": "
		"{\"value\": \"0x1F\", \"mask\": \"1f 00\"}}]}]}"),
		"captures[0].filters[0].custom.mask: expected hexadecimal digits,"
		" got \"1f 00\"");
	/* The defaults a capture's filter gets. */
	CU_ASSERT_STRING_EQUAL(dumped("captures[0]"),
			       "{\"filters\":[{\"choice\":\"custom\",\"custom\":"
			       "{\"bit_length\":8,\"mask\":\"1f 00\",\"negate\":"
			       "false,\"value\":\"0x1F\"}}],\"format\":"
			       "\"pcap\",\"name\":\"c\",\"overwrite\":true,"
			       "\"port_names\":[\"p\"]}");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"snmpv2c\":"
		" {\"data\": {\"get_request\": {\"variable_bindings\": "
		"[{\"object_identifier\": \"1.3.6.1\"}, {\"object_identifier\": "
		"\"1\"}, {\"object_identifier\": \"1..3\"}]}}}}]")),
		"flows[0].packet[0].snmpv2c.data.get_request.variable_bindings[1]"
		".object_identifier: expected an OID (dotted decimal), got \"1\"\n"
		"flows[0].packet[0].snmpv2c.data.get_request.variable_bindings[2]"
		".object_identifier: expected an OID (dotted decimal), got "
		"\"1..3\"");
}

static void
test_members(void)
{
	CU_ASSERT_STRING_EQUAL(check("Config", "{\"flow\": [], \"ports\": "
		"[{\"name\": \"p\", \"loc\": \"0\"}], \"flows\": [{\"tx_rx\": "
		"{\"choice\": \"port\", \"port\": {}}}]}"),
		"flow: unknown member\n"
		"ports[0].loc: unknown member\n"
		"flows[0].tx_rx.port.tx_name: required, missing\n"
		"flows[0].name: required, missing");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"choice\": "
		"\"ppm\"}")),
		"flows[0].rate.choice: expected one of pps, bps, kbps, mbps, "
		"gbps, percentage, got \"ppm\"");
	/* No default for a choice that was refused. */
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].rate"), "{\"choice\":\"ppm\"}");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"rate\": {\"pps\": 10,"
		" \"mbps\": 10}")),
		"flows[0].rate.choice: required, missing (2 of its alternatives "
		"are given)");
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"choice\":"
		" \"ipv4\", \"ipv4\": {\"src\": {\"choice\": \"random\", \"random\":"
		" {\"min\": \"1.2.3.4\", \"seed\": -1}}}}]")),
		"flows[0].packet[0].ipv4.src.random.seed: expected an integer >= 0,"
		" got -1");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].packet[0].ipv4.src.random"),
			       "{\"count\":1,\"max\":\"255.255.255.255\",\"min\":"
			       "\"1.2.3.4\",\"seed\":-1}");
	/* A request other than Config. */
	CU_ASSERT_STRING_EQUAL(check("Config.Update", "{\"flows\": "
		"{\"property_names\": [\"rate\", \"colour\"], \"flows\": "
		"[{\"name\": \"f\", \"tx_rx\": {\"port\": {\"tx_name\": \"p\"}}, "
		"\"rate\": {\"mbps\": \"5\"}}]}}"),
		"flows.property_names[1]: expected one of rate, size, got "
		"\"colour\"");
	CU_ASSERT_STRING_EQUAL(str("choice"), "flows");
	CU_ASSERT_EQUAL(json_integer_value(at("flows.flows[0].rate.mbps")), 5);
}

/* The other requests, as snappi 1.61.0 serialised them. */
static void
test_requests(void)
{
	static const char *const ok[][2] = {
		{ "States.Request", "{\"choice\":\"ipv4_neighbors\","
		  "\"ipv4_neighbors\":{\"ethernet_names\":[\"d1.eth\"]}}" },
		{ "Capture.Request", "{\"port_name\":\"p2\"}" },
		{ "Control.Action", "{\"choice\":\"protocol\",\"protocol\":"
		  "{\"choice\":\"ipv4\",\"ipv4\":{\"choice\":\"ping\","
		  "\"ping\":{\"requests\":[{\"dst_ip\":\"10.0.0.2\","
		  "\"src_name\":\"d1.ip\"}]}}}}" },
		{ "Control.State", "{\"choice\":\"port\",\"port\":{\"choice\":"
		  "\"link\",\"link\":{\"port_names\":[\"p1\"],\"state\":"
		  "\"down\"}}}" },
		{ "Control.State", "{\"choice\":\"protocol\",\"protocol\":"
		  "{\"all\":{\"state\":\"start\"},\"choice\":\"all\"}}" },
		{ "Control.State", "{\"choice\":\"traffic\",\"traffic\":"
		  "{\"choice\":\"flow_transmit\",\"flow_transmit\":"
		  "{\"flow_names\":[\"f1\"],\"state\":\"pause\"}}}" },
		{ "Metrics.Request", "{\"choice\":\"port\",\"port\":"
		  "{\"port_names\":[\"p1\"]}}" },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CU_ASSERT_STRING_EQUAL(check(ok[i][0], ok[i][1]), "");
		CU_ASSERT_EQUAL(rc, 0);
	}
	/* What a hand-written request forgets, by its path. */
	/* traffic made, its one choice (flow_transmit) made: what is
	 * missing is the state. */
	CU_ASSERT_STRING_EQUAL(check("Control.State", "{\"choice\": "
		"\"traffic\"}"), "traffic.flow_transmit.state: required, missing");
	CU_ASSERT_STRING_EQUAL(check("Control.State", "{\"traffic\": "
		"{\"flow_transmit\": {}}}"),
		"traffic.flow_transmit.state: required, missing");
	CU_ASSERT_STRING_EQUAL(check("Capture.Request", "{}"),
			       "port_name: required, missing");
	/* Given by the client, a required choice is not guessed, even of
	 * one value. */
	CU_ASSERT_STRING_EQUAL(check("Control.Action", "{\"protocol\": "
		"{\"ipv4\": {}}}"), "protocol.ipv4.choice: required, missing");
	/* snappi's ipv4 dst auto: {"choice": "auto"} alone; the auto object
	 * made, its required choice of one value (dhcp) set. */
	CU_ASSERT_STRING_EQUAL(check("Config", FLOW(", \"packet\": [{\"choice\":"
		" \"ipv4\", \"ipv4\": {\"dst\": {\"choice\": \"auto\"}}}]")), "");
	CU_ASSERT_STRING_EQUAL(dumped("flows[0].packet[0].ipv4.dst"),
			       "{\"auto\":{\"choice\":\"dhcp\"},\"choice\":"
			       "\"auto\"}");
	CU_ASSERT_STRING_EQUAL(check("Control.State", "{\"choice\": "
		"\"traffic\", \"traffic\": {\"flow_transmit\": {\"state\": "
		"\"begin\"}}}"),
		"traffic.flow_transmit.state: expected one of start, stop, "
		"pause, resume, got \"begin\"");
	CU_ASSERT_STRING_EQUAL(check("States.Request", "{}"), "");
	CU_ASSERT_STRING_EQUAL(dumped(""), "{\"choice\":\"ipv4_neighbors\","
			       "\"ipv4_neighbors\":{}}");
}

/* Every header of the model with every pattern field, and what the plan
 * refuses (lag, lldp, bgp, ...), as snappi 1.61.0 writes them
 * (test/fixtures/otg_check_snappi.py): seven configs that must check
 * clean, and check again unchanged. */
static void
test_headers(void)
{
	static const char *const modes[] = {
		"plain", "increment", "decrement", "random", "values", "auto",
		"others",
	};
	json_error_t je;
	json_t *all = json_load_file(WR_FIXTURES "/otg_check_snappi.json", 0,
				     &je);

	CU_ASSERT_PTR_NOT_NULL_FATAL(all);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		json_t *cfg = json_object_get(all, modes[i]);
		char *text = json_dumps(cfg, 0), *once;

		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		CU_ASSERT_STRING_EQUAL(check("Config", text), "");
		CU_ASSERT_EQUAL(json_array_size(at("flows")),
				strcmp(modes[i], "others") == 0 ? 1 : 24);
		once = json_dumps(doc, JSON_SORT_KEYS);
		CU_ASSERT_STRING_EQUAL(check("Config", once), "");
		free(text);
		text = json_dumps(doc, JSON_SORT_KEYS);
		CU_ASSERT_STRING_EQUAL(text, once);
		free(text);
		free(once);
	}
	/* The fixture holds what its names say (ipv4's src, dst). */
	json_decref(doc);
	doc = json_incref(json_object_get(all, "random"));
	CU_ASSERT_STRING_EQUAL(str("flows[4].name"), "f_ipv4");
	CU_ASSERT_STRING_EQUAL(str("flows[4].packet[0].ipv4.src.choice"),
			       "random");
	json_decref(doc);
	doc = json_incref(json_object_get(all, "auto"));
	CU_ASSERT_STRING_EQUAL(str("flows[4].packet[0].ipv4.dst.choice"),
			       "auto");
	json_decref(all);
}

static void
test_many(void)
{
	char *text = malloc(70 * 32 + 32);
	size_t n = 0;
	struct wr_otg_err e;
	json_t *d, *j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n += (size_t)sprintf(text, "{\"ports\": [");
	for (int i = 0; i < 70; i++)
		n += (size_t)sprintf(text + n, "%s{\"name\": %d}",
				     i > 0 ? ", " : "", i);
	sprintf(text + n, "]}");
	d = json_loads(text, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	wr_otg_err_init(&e);
	CU_ASSERT_EQUAL(wr_otg_check(d, "Config", &e), -EINVAL);
	j = wr_otg_err_json(&e);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "code")), 400);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "kind")),
			       "validation");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "errors")),
			WR_OTG_ERRORS_MAX + 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(
		json_object_get(j, "errors"), 63)),
		"ports[63].name: expected a string, got 63");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(
		json_object_get(j, "errors"), 64)), "... and 6 more");
	/* A second document past the cap still fails. */
	CU_ASSERT_EQUAL(wr_otg_check(d, "Config", &e), -EINVAL);
	json_decref(j);
	json_decref(d);
	wr_otg_err_free(&e);
	free(text);
}

static void
test_deep(void)
{
	/* Nesting the model does not have is refused at the first unknown
	 * member, never walked. */
	char text[4096];
	size_t n = 0;

	for (int i = 0; i < 100; i++)
		n += (size_t)sprintf(text + n, "{\"a\":");
	n += (size_t)sprintf(text + n, "1");
	for (int i = 0; i < 100; i++)
		text[n++] = '}';
	text[n] = '\0';
	CU_ASSERT_STRING_EQUAL(check("Config", text), "a: unknown member");
}

static int
suite_clean(void)
{
	json_decref(doc);
	doc = NULL;
	return 0;
}

static CU_TestInfo otg_check_tests[] = {
	{ "snappi", test_snappi },
	{ "defaults", test_defaults },
	{ "default_api", test_default_api },
	{ "types", test_types },
	{ "ranges", test_ranges },
	{ "formats", test_formats },
	{ "members", test_members },
	{ "requests", test_requests },
	{ "headers", test_headers },
	{ "many", test_many },
	{ "deep", test_deep },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "otg_check", .pCleanupFunc = suite_clean,
	  .pTests = otg_check_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

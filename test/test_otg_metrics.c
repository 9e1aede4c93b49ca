/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_otg_metrics: OTG port and flow metrics from stats.get documents a server wrote (test/fixtures/otg: 1,000 frames of 128 bytes at 1 kpps from memif port 0 to port 1, latency on). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg.h"
#include "wr_test.h"

static json_t *
fixture(const char *name)
{
	char path[512];
	json_error_t je;
	json_t *d;

	snprintf(path, sizeof(path), "%s/otg/%s", WR_FIXTURES, name);
	d = json_load_file(path, 0, &je);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	return d;
}

/* The plan of the config that made those streams: ports "p1" (memif 0)
 * and "p2" (memif 1), flow "f1" of 128 bytes p1 -> p2 as stream "f1". */
static void
plan_init(struct wr_otg_plan *p, struct wr_otg_port *ports,
	  struct wr_otg_flow *flow)
{
	memset(p, 0, sizeof(*p));
	memset(ports, 0, 2 * sizeof(*ports));
	memset(flow, 0, sizeof(*flow));
	snprintf(ports[0].name, sizeof(ports[0].name), "p1");
	snprintf(ports[1].name, sizeof(ports[1].name), "p2");
	snprintf(flow->name, sizeof(flow->name), "f1");
	snprintf(flow->stream, sizeof(flow->stream), "f1");
	flow->tx_port = 0;
	flow->rx_ports = 1u << 1;
	flow->metrics = flow->loss = flow->timestamps = flow->latency = true;
	flow->size_fixed = 128;
	flow->packets = 1000;
	p->n_ports = 2;
	p->ports = ports;
	p->n_flows = 1;
	p->flows = flow;
	p->config = json_loads("{\"ports\": [{\"name\": \"p1\", \"location\": "
			       "\"net_memif0\"}, {\"name\": \"p2\", \"location\": "
			       "\"1\"}]}", 0, NULL);
}

static json_t *
metrics(const struct wr_otg_plan *p, const char *req_text, json_t *doc,
	const char *state, struct wr_otg_err *err)
{
	static const int map[2] = { 0, 1 };
	const int *maps[1] = { map };
	const char *transmit[1] = { state };
	json_t *req = json_loads(req_text, 0, NULL), *res;

	CU_ASSERT_PTR_NOT_NULL_FATAL(req);
	res = wr_otg_metrics(p, req, &doc, maps, 1, transmit, err);
	json_decref(req);
	return res;
}

static json_int_t
ival(const json_t *o, const char *k)
{
	CU_ASSERT_TRUE(json_is_integer(json_object_get(o, k)));
	return json_integer_value(json_object_get(o, k));
}

static double
dval(const json_t *o, const char *k)
{
	CU_ASSERT_TRUE(json_is_number(json_object_get(o, k)));
	return json_number_value(json_object_get(o, k));
}

static void
test_flow_done(void)
{
	struct wr_otg_port ports[2];
	struct wr_otg_flow flow;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *doc = fixture("stats-done.json"), *res, *m, *x;

	plan_init(&p, ports, &flow);
	wr_otg_err_init(&err);
	res = metrics(&p, "{\"choice\": \"flow\", \"flow\": {}}", doc, "stopped",
		      &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "choice")),
			       "flow_metrics");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(res, "flow_metrics")), 1);
	m = json_array_get(json_object_get(res, "flow_metrics"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "name")), "f1");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "port_tx")), "p1");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "port_rx")), "p2");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "transmit")),
			       "stopped");
	CU_ASSERT_EQUAL(ival(m, "frames_tx"), 1000);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 1000);
	CU_ASSERT_EQUAL(ival(m, "bytes_tx"), 128000);
	CU_ASSERT_EQUAL(ival(m, "bytes_rx"), 128000);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "loss"), 0.0, 1e-12);
	/* Stopped: no rate. */
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "frames_tx_rate"), 0.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "frames_rx_rate"), 0.0, 1e-12);
	/* latency_ns {"n": 1000, "min": 290, "avg": 36465, "max": 156383} */
	x = json_object_get(m, "latency");
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "minimum_ns"), 290.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "maximum_ns"), 156383.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "average_ns"), 36465.0, 1e-9);
	/* tx_started_at 1795896277.2680097 s, the stream's 1.003576308 s. */
	x = json_object_get(m, "timestamps");
	/* Integers: snappi reads replies as YAML, where jansson's "1.79e18"
	 * (no exponent sign) is a string, not a float. */
	CU_ASSERT_TRUE(json_is_integer(json_object_get(x, "first_timestamp_ns")));
	CU_ASSERT_TRUE(json_is_integer(json_object_get(x, "last_timestamp_ns")));
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "first_timestamp_ns"),
			       1795896277.2680097e9, 1e3);
	/* (doubles near 1.8e18 ns are 256 ns apart) */
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "last_timestamp_ns") -
			       dval(x, "first_timestamp_ns"), 1003576308.0, 512.0);
	json_decref(res);

	/* cut_through: + 128 bytes at 100,000 Mb/s = 10.24 ns. */
	flow.cut_through = true;
	res = metrics(&p, "{\"choice\": \"flow\", \"flow\": {\"metric_names\": "
		      "[\"frames_rx\"]}}", doc, "stopped", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	m = json_array_get(json_object_get(res, "flow_metrics"), 0);
	x = json_object_get(m, "latency");
	/* metric_names keeps the columns named (and the names) only. */
	CU_ASSERT_PTR_NULL(x);
	CU_ASSERT_PTR_NULL(json_object_get(m, "frames_tx"));
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 1000);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "port_tx")), "p1");
	json_decref(res);
	res = metrics(&p, "{\"choice\": \"flow\", \"flow\": {}}", doc, "stopped",
		      &err);
	m = json_array_get(json_object_get(res, "flow_metrics"), 0);
	x = json_object_get(m, "latency");
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "minimum_ns"), 300.24, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "maximum_ns"), 156393.24, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dval(x, "average_ns"), 36475.24, 1e-9);
	json_decref(res);
	/* A size that varies has no one serialisation time: refused. */
	flow.size_fixed = 0;
	res = metrics(&p, "{\"choice\": \"flow\"}", doc, "stopped", &err);
	CU_ASSERT_PTR_NULL(res);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "flows[0]: metrics.latency.mode cut_through: the "
			       "serialisation time added to the store_forward "
			       "figures needs a fixed frame size and a known link "
			       "speed (the size varies): give size.fixed or "
			       "store_forward");
	wr_otg_err_free(&err);
	json_decref(p.config);
	json_decref(doc);
}

static void
test_flow_running(void)
{
	struct wr_otg_port ports[2];
	struct wr_otg_flow flow;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *doc = fixture("stats-running.json"), *res, *m;

	plan_init(&p, ports, &flow);
	/* A varying size: bytes back are frames back x the mean size sent. */
	flow.size_fixed = 0;
	flow.timestamps = false;
	wr_otg_err_init(&err);
	res = metrics(&p, "{\"choice\": \"flow\", \"flow\": {\"flow_names\": "
		      "[\"f1\"]}}", doc, "started", &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	m = json_array_get(json_object_get(res, "flow_metrics"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "transmit")),
			       "started");
	CU_ASSERT_EQUAL(ival(m, "frames_tx"), 501);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 501);
	CU_ASSERT_EQUAL(ival(m, "bytes_tx"), 64128);
	CU_ASSERT_EQUAL(ival(m, "bytes_rx"), 64128);
	/* "kpps": 1.001, "mbps_l2": 1.025, "mbps_l1": 1.185 */
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "frames_tx_rate"), 1001.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "tx_rate_mbps"), 1.025, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "tx_rate_bps"), 1025000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "tx_rate_bytes"), 128125.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "tx_l1_rate_bps"), 1185000.0, 1e-6);
	/* 501 frames back over the stream's 0.50055142 s. */
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "frames_rx_rate"), 501 / 0.50055142, 1e-6);
	CU_ASSERT_PTR_NULL(json_object_get(m, "timestamps"));
	CU_ASSERT_DOUBLE_EQUAL(dval(json_object_get(m, "latency"), "minimum_ns"),
			       351.0, 1e-9);
	json_decref(res);
	/* An unknown name: 404, by its path. */
	res = metrics(&p, "{\"choice\": \"flow\", \"flow\": {\"flow_names\": "
		      "[\"f1\", \"nope\"]}}", doc, "started", &err);
	CU_ASSERT_PTR_NULL(res);
	CU_ASSERT_EQUAL(err.code, 404);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "flow.flow_names[1]: no flow named \"nope\" in the "
			       "config");
	wr_otg_err_free(&err);
	wr_otg_err_init(&err);
	res = metrics(&p, "{\"choice\": \"bgpv4\"}", doc, "started", &err);
	CU_ASSERT_PTR_NULL(res);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "choice: expected port or flow (wirerate runs no "
			       "bgpv4), got \"bgpv4\"");
	wr_otg_err_free(&err);
	json_decref(p.config);
	json_decref(doc);
}

static void
test_ports(void)
{
	struct wr_otg_port ports[2];
	struct wr_otg_flow flow;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	json_t *doc = fixture("stats-done.json"), *res, *a, *m;

	plan_init(&p, ports, &flow);
	wr_otg_err_init(&err);
	res = metrics(&p, "{\"choice\": \"port\", \"port\": {}}", doc, "stopped",
		      &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(res, "choice")),
			       "port_metrics");
	a = json_object_get(res, "port_metrics");
	CU_ASSERT_EQUAL_FATAL(json_array_size(a), 2);
	m = json_array_get(a, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "name")), "p1");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "location")),
			       "net_memif0");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "transmit")),
			       "stopped");
	CU_ASSERT_EQUAL(ival(m, "frames_tx"), 1000);
	CU_ASSERT_EQUAL(ival(m, "bytes_tx"), 128000);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 0);
	CU_ASSERT_EQUAL(ival(m, "bytes_rx"), 0);
	m = json_array_get(a, 1);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(m, "name")), "p2");
	CU_ASSERT_EQUAL(ival(m, "frames_tx"), 0);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 1000);
	/* The device's 124,000 bytes + 4 (FCS) a frame: 128 a frame as sent. */
	CU_ASSERT_EQUAL(ival(m, "bytes_rx"), 128000);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "frames_rx_rate"), 0.0, 1e-12);
	json_decref(res);
	res = metrics(&p, "{\"choice\": \"port\", \"port\": {\"port_names\": "
		      "[\"p2\"], \"column_names\": [\"frames_rx\"]}}", doc,
		      "started", &err);
	a = json_object_get(res, "port_metrics");
	CU_ASSERT_EQUAL_FATAL(json_array_size(a), 1);
	m = json_array_get(a, 0);
	CU_ASSERT_EQUAL(json_object_size(m), 2);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 1000);
	json_decref(res);
	res = metrics(&p, "{\"choice\": \"port\", \"port\": {\"port_names\": "
		      "[\"p3\"]}}", doc, "started", &err);
	CU_ASSERT_PTR_NULL(res);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(err.errors, 0)),
			       "port.port_names[0]: no port named \"p3\" in the "
			       "config");
	wr_otg_err_free(&err);
	json_decref(p.config);
	json_decref(doc);
}

/* Two servers: the flow sent by server 0 (plan port 0 there) and received
 * on server 1 (plan port 1, its engine port 0), each with its own row of
 * the stream: tx from the sender, frames back from the receiver, and no
 * latency (the receiver's TSC is not the sender's). */
static void
test_two_servers(void)
{
	struct wr_otg_port ports[2];
	struct wr_otg_flow flow;
	struct wr_otg_plan p;
	struct wr_otg_err err;
	static const int map0[2] = { 0, -1 }, map1[2] = { -1, 0 };
	const int *maps[2] = { map0, map1 };
	const char *transmit[1] = { "stopped" };
	json_t *docs[2], *req, *res, *m;

	docs[0] = json_loads("{\"state\": \"done\", \"ports\": [{\"port\": 0, "
		"\"tx_pkts\": 900, \"tx_bytes\": 115200, \"rx_pkts\": 0, "
		"\"link_speed_mbps\": 10000}], \"streams\": [{\"name\": \"f1\", "
		"\"tx_pkts\": 900, \"tx_bytes\": 115200, \"rx_pkts\": 0}]}", 0, NULL);
	docs[1] = json_loads("{\"state\": \"done\", \"ports\": [{\"port\": 0, "
		"\"tx_pkts\": 0, \"rx_pkts\": 891, \"rx_bytes\": 110484}], "
		"\"streams\": [{\"name\": \"f1\", \"tx_pkts\": 0, \"rx_pkts\": 891, "
		"\"latency_ns\": {\"n\": 891, \"min\": 1000, \"avg\": 2000, "
		"\"max\": 5000}}]}", 0, NULL);
	plan_init(&p, ports, &flow);
	flow.timestamps = false;
	wr_otg_err_init(&err);
	req = json_loads("{\"choice\": \"flow\"}", 0, NULL);
	res = wr_otg_metrics(&p, req, docs, maps, 2, transmit, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	m = json_array_get(json_object_get(res, "flow_metrics"), 0);
	CU_ASSERT_EQUAL(ival(m, "frames_tx"), 900);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 891);
	CU_ASSERT_EQUAL(ival(m, "bytes_rx"), 891 * 128);
	CU_ASSERT_DOUBLE_EQUAL(dval(m, "loss"), 1.0, 1e-12);
	/* The receiver's latency row compares its TSC with the sender's,
	 * which may be another host's: not offered. */
	CU_ASSERT_PTR_NULL(json_object_get(m, "latency"));
	json_decref(res);
	json_decref(req);
	req = json_loads("{\"choice\": \"port\"}", 0, NULL);
	res = wr_otg_metrics(&p, req, docs, maps, 2, transmit, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(res);
	m = json_array_get(json_object_get(res, "port_metrics"), 1);
	CU_ASSERT_EQUAL(ival(m, "frames_rx"), 891);
	/* No device counters in that document: wirerate's rx_bytes + FCS. */
	CU_ASSERT_EQUAL(ival(m, "bytes_rx"), 110484 + 4 * 891);
	json_decref(res);
	json_decref(req);
	wr_otg_err_free(&err);
	json_decref(p.config);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

static CU_TestInfo otg_metrics_tests[] = {
	{ "flow_done", test_flow_done },
	{ "flow_running", test_flow_running },
	{ "ports", test_ports },
	{ "two_servers", test_two_servers },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "otg_metrics", .pTests = otg_metrics_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

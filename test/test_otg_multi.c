/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of a plan over several servers (wr_otg_plan_yaml_of): every server's stream file holds every flow at its index, the ones sent elsewhere as placeholders that receive, never send. */
#include <errno.h>
#include <stdlib.h>

#include "wr_otg.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* This server: one af_packet port; the config's other ports are two of
 * another server's. */
static const struct wr_otg_env env = {
	.n_ports = 1,
	.ports = {
		{ .device = "net_af_packet0", .iface = "veth-a",
		  .mac = { 2, 0, 0, 0, 0, 0xa }, .speed_mbps = 10000,
		  .mtu = 1500, .mtu_max = 9000, .tx_ok = true, .rx_ok = true },
	},
	.remote_ok = true,
};

#define FLOW(name, tx, rx, metrics, packets) \
	"{\"name\": \"" name "\", \"tx_rx\": {\"choice\": \"port\", \"port\": " \
	"{\"tx_name\": \"" tx "\", \"rx_names\": [\"" rx "\"]}}, " \
	"\"metrics\": {\"enable\": " metrics "}, " \
	"\"size\": {\"choice\": \"fixed\", \"fixed\": 128}, " \
	"\"rate\": {\"choice\": \"pps\", \"pps\": \"1000\"}, " \
	"\"duration\": {\"choice\": \"fixed_packets\", " \
	"\"fixed_packets\": {\"packets\": " packets "}}, " \
	"\"packet\": [{\"choice\": \"ethernet\", \"ethernet\": {" \
	"\"src\": {\"choice\": \"value\", \"value\": \"02:00:00:00:00:01\"}, " \
	"\"dst\": {\"choice\": \"value\", \"value\": \"02:00:00:00:00:02\"}}}, " \
	"{\"choice\": \"ipv4\", \"ipv4\": {}}, {\"choice\": \"udp\", \"udp\": {}}]}"

static const char config[] =
	"{\"ports\": [{\"name\": \"a0\", \"location\": \"veth-a\"},"
	"  {\"name\": \"b0\", \"location\": \"10.0.0.2:4500/0\"},"
	"  {\"name\": \"b1\", \"location\": \"10.0.0.2:4500/1\"}],"
	" \"flows\": [" FLOW("ab", "a0", "b0", "true", "1000") ", "
	FLOW("ba", "b0", "a0", "true", "700") ", "
	FLOW("bb", "b1", "b0", "false", "300") "]}";

static void
plan_of(struct wr_otg_plan *p)
{
	struct wr_otg_err err;
	json_t *cfg = json_loads(config, 0, NULL);
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(cfg);
	wr_otg_err_init(&err);
	rc = wr_otg_check(cfg, "Config", &err);
	if (rc == 0)
		rc = wr_otg_plan_build(cfg, &env, p, &err);
	if (rc != 0)
		fprintf(stderr, "\n%s\n", json_string_value(json_array_get(
			err.errors, 0)));
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	wr_otg_err_free(&err);
	json_decref(cfg);
}

/* Server @p k's file, loaded back by the stream-file loader. */
static void
load_of(const struct wr_otg_plan *p, const int *const *maps, unsigned int n,
	unsigned int k, struct wr_stream_file *f)
{
	struct wr_error e;
	char *yaml = NULL;

	CU_ASSERT_EQUAL_FATAL(wr_otg_plan_yaml_of(p, maps, n, k, &yaml), 0);
	memset(f, 0, sizeof(*f));
	if (wr_yaml_load_streams_buf("otg.yaml", yaml, strlen(yaml), f, &e) != 0)
		fprintf(stderr, "\n%s\n%s\n", e.msg, yaml);
	free(yaml);
	CU_ASSERT_EQUAL_FATAL(f->n_streams, 3);
}

/* Stream @p i of @p f: the flow's stream name, its port, count, latency. */
static void
expect(const struct wr_otg_plan *p, const struct wr_stream_file *f,
       unsigned int i, unsigned int port, uint64_t count, bool latency)
{
	CU_ASSERT_STRING_EQUAL(f->streams[i].name, p->flows[i].stream);
	CU_ASSERT_EQUAL(f->streams[i].port, port);
	CU_ASSERT_EQUAL(f->streams[i].count, count);
	CU_ASSERT_EQUAL(f->streams[i].latency, latency);
}

static void
test_two_servers(void)
{
	/* Plan ports a0, b0, b1: a0 here (engine port 0), b0 and b1 there
	 * (its ports 0 and 1). */
	static const int here[] = { 0, -1, -1 }, there[] = { -1, 0, 1 };
	const int *maps[] = { here, there };
	struct wr_otg_plan p;
	struct wr_stream_file f;

	plan_of(&p);
	CU_ASSERT_EQUAL_FATAL(p.n_flows, 3);
	/* Here: ab sent (1,000 frames, signed); ba a placeholder on a0,
	 * where it arrives (signed like ba, one frame should it ever be
	 * started); bb, received on b0 there, a placeholder on the first
	 * port here (unsigned, as bb: it counts nothing anyway). */
	load_of(&p, maps, 2, 0, &f);
	expect(&p, &f, 0, 0, 1000, true);
	expect(&p, &f, 1, 0, 1, true);
	expect(&p, &f, 2, 0, 1, false);
	wr_stream_file_free(&f);
	/* There: ab a placeholder on b0 (its engine port 0), where it
	 * arrives; ba and bb sent from ports 0 and 1. */
	load_of(&p, maps, 2, 1, &f);
	expect(&p, &f, 0, 0, 1, true);
	expect(&p, &f, 1, 0, 700, true);
	expect(&p, &f, 2, 1, 300, false);
	wr_stream_file_free(&f);
	wr_otg_plan_free(&p);
}

static void
test_one_server(void)
{
	/* Every port on one server: the file is wr_otg_plan_yaml()'s. */
	static const int all[] = { 0, 1, 2 };
	const int *maps[] = { all };
	struct wr_otg_plan p;
	char *a = NULL, *b = NULL;

	plan_of(&p);
	CU_ASSERT_EQUAL(wr_otg_plan_yaml_of(&p, maps, 1, 0, &a), 0);
	CU_ASSERT_EQUAL(wr_otg_plan_yaml(&p, all, &b), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_STRING_EQUAL(a, b);
	free(a);
	free(b);
	wr_otg_plan_free(&p);
}

int
main(int argc, char **argv)
{
	static CU_TestInfo tests[] = {
		{ "two_servers", test_two_servers },
		{ "one_server", test_one_server },
		CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
		{ .pName = "otg_multi", .pTests = tests },
		CU_SUITE_INFO_NULL,
	};

	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_report's counter table: the results text and the server's tree agree, stats.clear's subtraction, the table's rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "wr_report.h"
#include "wr_test.h"

static struct wr_report_row ports[2], streams[2];
static const char *const classes[] = { "arp", "other" };

/* A view with every kind of block: RX ports with classes and queues, a
 * NIC reading, a lost link, echoes, trains, a timed replay. */
static void
setup(struct wr_report_view *v, struct wr_report_meta *m)
{
	static char *const eal[] = { "--no-pci", "--in-memory" };
	static const struct wr_report_capture cap = {
		.port = 0, .dir = "rx", .file = "/tmp/c.pcapng", .files = 1,
		.seen = 5, .written = 5, .bytes = 320,
	};

	memset(ports, 0, sizeof(ports));
	memset(streams, 0, sizeof(streams));
	memset(v, 0, sizeof(*v));
	memset(m, 0, sizeof(*m));
	m->wirerate_version = "1.0";
	m->dpdk_version = "22.11.1";
	m->stream_file = "s \"quoted\".yaml";
	m->config_file = "";
	m->stop_reason = "duration";
	m->n_tx_lcores = 2;
	m->tx_lcores[0] = 1;
	m->tx_lcores[1] = 2;
	m->eal_args = eal;
	m->n_eal_args = 2;
	m->has_tsc = true;
	m->tsc.hz = 2400000000ull;
	m->tsc.eal_hz = 2400000000ull;
	m->captures = &cap;
	m->n_captures = 1;
	strcpy(ports[0].name, "net_null0");
	strcpy(ports[0].device, "net_null0");
	ports[0].total.tx_pkts = 3000;
	ports[0].total.tx_bytes = 192000;
	ports[0].duration_ns = 1500000000ull;
	ports[0].has_nic = true;
	ports[0].nic_opackets = 3000;
	ports[0].nic_imissed = 7;
	ports[0].nic_ibytes = 179400;
	ports[0].has_rx = true;
	ports[0].rx_pkts = 2990;
	ports[0].rx_foreign = 3;
	ports[0].n_rxq = 1;
	ports[0].rxq[0].rx_pkts = 2990;
	ports[0].rxq[0].polls = 1000;
	ports[0].rxq[0].busy_polls = 333;
	ports[0].rxq[0].busy_ns = 1;
	ports[0].rxq[0].active_ns = 3;
	ports[0].cls[1].pkts = 3;
	ports[0].cls[1].bytes = 180;
	strcpy(ports[1].name, "net_null1");
	ports[1].port = 1;
	ports[1].link_lost = true;
	ports[1].link_lost_ns = 250000000ull;
	strcpy(streams[0].name, "udp-64");
	streams[0].total = ports[0].total;
	streams[0].duration_ns = ports[0].duration_ns;
	streams[0].target_kpps = 2;
	streams[0].has_rx = true;
	streams[0].rx_pkts = 2987;
	streams[0].lost = 13;
	streams[0].lat.n = 2987;
	streams[0].lat.p99 = 12000;
	streams[0].lat.jitter_ns = 512.25;
	streams[0].train_frames = 4;
	streams[0].train_gaps.n = 10;
	strcpy(streams[1].name, "replayed");
	streams[1].port = 1;
	streams[1].total.tx_pkts = 1; /* one frame: rates null */
	streams[1].total.tx_bytes = 60;
	streams[1].has_replay = true;
	streams[1].replay_timed = true;
	streams[1].replay_speedup = 2.5;
	v->ports = ports;
	v->n_ports = 2;
	v->streams = streams;
	v->n_streams = 2;
	v->elapsed_ns = 1500000000ull;
	v->class_names = classes;
	v->n_classes = 2;
}

/* The server's stats.get tree is what the results file says, built
 * without the text (the file parsed must be the same document). */
static void
test_tree_is_the_text(void)
{
	struct wr_report_view v;
	struct wr_report_meta m;
	char *buf = NULL;
	size_t len = 0;
	json_error_t err;
	json_t *text, *tree, *s;
	FILE *f;

	setup(&v, &m);
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(wr_report_json_write(f, &m, &v), 0);
	fclose(f);
	text = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &err);
	if (text == NULL)
		fprintf(stderr, "%s: %s\n", err.text, buf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	tree = wr_report_tree(&m, &v);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tree);
	CU_ASSERT_TRUE(json_equal(text, tree));
	/* The blocks the writers used to disagree on, in both. */
	s = json_array_get(json_object_get(tree, "streams"), 0);
	CU_ASSERT_EQUAL(json_real_value(json_object_get(s, "jitter_ns")), 512.25);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(s, "tx_bytes_l1")),
			192000 + 20 * 3000);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(
		json_array_get(json_object_get(tree, "ports"), 0), "nic"),
		"imissed")), 7);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(
		json_array_get(json_object_get(tree, "ports"), 0), "nic"),
		"ibytes")), 179400);
	CU_ASSERT_TRUE(json_is_null(json_object_get(json_array_get(
		json_object_get(tree, "streams"), 1), "kpps")));
	/* The layout of a results file: a member a line, a row a line. */
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "{\n  \"schema\": \"wirerate-results/1\",\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"ports\": [\n    {\"name\": \"net_null0\""));
	CU_ASSERT_EQUAL(strcmp(buf + len - 3, "\n}\n"), 0);
	json_decref(text);
	json_decref(tree);
	free(buf);
}

/* stats.clear: every FIELD counter of the table, and nothing else. */
static void
test_row_sub(void)
{
	struct wr_report_row r, b;

	memset(&r, 0, sizeof(r));
	memset(&b, 0, sizeof(b));
	r.total.tx_pkts = 100;
	b.total.tx_pkts = 40;
	r.rx_bytes = 1000;
	b.rx_bytes = 600;
	r.lost = 3;
	b.lost = 5;       /* frames in flight arrived since: 0, not a wrap */
	r.has_nic = true;
	r.nic_opackets = 100;
	b.nic_opackets = 40;
	r.nic_ibytes = 6400;
	b.nic_ibytes = 2560;
	r.lat.jitter_ns = 9; /* a running estimate: kept */
	wr_ctr_row_sub(&r, &b);
	CU_ASSERT_EQUAL(r.total.tx_pkts, 60);
	CU_ASSERT_EQUAL(r.rx_bytes, 400);
	CU_ASSERT_EQUAL(r.lost, 0);
	CU_ASSERT_EQUAL(r.nic_opackets, 100); /* the baseline had no reading */
	CU_ASSERT_EQUAL(r.lat.jitter_ns, 9);
	b.has_nic = true;
	wr_ctr_row_sub(&r, &b);
	CU_ASSERT_EQUAL(r.nic_opackets, 60);
	CU_ASSERT_EQUAL(r.nic_ibytes, 3840);
}

/* Keys are unique within their group, a group's lines are together (its
 * object is opened once), and a FIELD counter is a uint64_t. */
static void
test_table(void)
{
	unsigned int i, k;

	CU_ASSERT_TRUE(wr_n_ctrs > 0);
	for (i = 0; i < wr_n_ctrs; i++) {
		const struct wr_ctr *c = &wr_ctrs[i];

		CU_ASSERT_TRUE(c->scope != 0);
		CU_ASSERT_TRUE(c->help[0] != '\0' && c->metric[0] != '\0');
		CU_ASSERT_TRUE(c->off == SIZE_MAX || c->type == WR_CTR_U64);
		for (k = 0; k < i; k++) {
			CU_ASSERT_FALSE(strcmp(wr_ctrs[k].key, c->key) == 0 &&
					strcmp(wr_ctrs[k].group, c->group) == 0);
			if (c->group[0] != '\0' && k + 1 < i)
				CU_ASSERT_FALSE(strcmp(wr_ctrs[k].group, c->group) == 0 &&
						strcmp(wr_ctrs[k + 1].group, c->group) != 0);
		}
	}
}

/* The exporter's description: one entry per line, in order. */
static void
test_describe(void)
{
	json_t *d = wr_ctr_describe();
	json_t *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(json_array_size(d), wr_n_ctrs);
	e = json_array_get(d, 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "key")),
			       "tx_pkts");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(e, "type")),
			       "counter");
	CU_ASSERT_EQUAL(json_array_size(json_object_get(e, "scope")), 2);
	json_decref(d);
}

/* The summary's counters lines: the table's counters, those not 0. */
static void
test_final_counters(void)
{
	struct wr_report_view v;
	struct wr_report_meta m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	setup(&v, &m);
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	wr_report_final(f, &m, &v);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncounters of port 0: tx_pkts 3000, "
				      "tx_bytes 192000, tx_bytes_l1 252000, "
				      "nic_opackets 3000, nic_ibytes 179400, "
				      "nic_imissed 7, rx_pkts 2990, "
				      "rx_foreign 3, rx_missed 7\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncounters of port 1: all 0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\ncounters of stream udp-64: tx_pkts "
				      "3000, tx_bytes 192000, tx_bytes_l1 252000, "
				      "rx_pkts 2987, lost 13, jitter_ns 512.250\n"));
	free(buf);
}

static CU_TestInfo report_tests[] = {
	{ "final_counters", test_final_counters },
	{ "tree_is_the_text", test_tree_is_the_text },
	{ "row_sub", test_row_sub },
	{ "table", test_table },
	{ "describe", test_describe },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "report", .pTests = report_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

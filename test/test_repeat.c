/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of run --repeat's maths: spreads, goodput, payload offsets, repetitions, peer specs and replies. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "wr_frame.h"
#include "wr_peer.h"
#include "wr_repeat.h"
#include "wr_stats.h"
#include "wr_test.h"
#include "wr_yaml.h"

static void
test_spread(void)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 10 }, one[] = { 7 };
	struct wr_spread s;

	s = wr_spread_of(odd, 3);
	CU_ASSERT_EQUAL(s.min, 1);
	CU_ASSERT_EQUAL(s.median, 3);
	CU_ASSERT_EQUAL(s.max, 5);
	/* Even count: the mean of the middle two. */
	s = wr_spread_of(even, 4);
	CU_ASSERT_EQUAL(s.min, 1);
	CU_ASSERT_DOUBLE_EQUAL(s.median, 3.5, 1e-12);
	CU_ASSERT_EQUAL(s.max, 10);
	s = wr_spread_of(one, 1);
	CU_ASSERT_EQUAL(s.min, 7);
	CU_ASSERT_EQUAL(s.median, 7);
	CU_ASSERT_EQUAL(s.max, 7);
	s = wr_spread_of(one, 0);
	CU_ASSERT_EQUAL(s.max, 0);
}

static void
test_goodput_bytes(void)
{
	/* Simple IMIX cycle over Ethernet/IPv4/UDP (payload 42 bytes in):
	 * each frame carries size - 4 - 42 bytes above UDP. */
	uint64_t bytes = 7 * 64 + 4 * 594 + 1518;
	uint64_t want = 7 * (64 - 46) + 4 * (594 - 46) + (1518 - 46);

	CU_ASSERT_EQUAL(wr_goodput_bytes(bytes, 12, 42), want);
	/* 64-byte frames of IPv6/TCP (74 bytes of headers) carry nothing. */
	CU_ASSERT_EQUAL(wr_goodput_bytes(64 * 10, 10, 74), 0);
	CU_ASSERT_EQUAL(wr_goodput_bytes(0, 0, 42), 0);
}

static struct wr_stream_file
load(const char *text)
{
	struct wr_stream_file f;
	struct wr_error err;

	memset(&f, 0, sizeof(f));
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_yaml_load_streams_buf("t.yaml", text, strlen(text),
						 &f, &err), 0);
	if (err.msg[0] != '\0')
		fprintf(stderr, "%s\n", err.msg);
	return f;
}

static int
payload_off_of(const struct wr_stream_file *f, uint32_t s)
{
	struct wr_frame_tmpl *t;
	struct wr_error err;
	int off;

	wr_error_clear(&err);
	if (wr_frame_tmpl_create(&f->streams[s], s, &t, &err) != 0)
		return -1000;
	off = wr_frame_tmpl_payload_off(t);
	wr_frame_tmpl_free(t);
	return off;
}

static void
test_payload_off(void)
{
	struct wr_stream_file f = load(
		"version: 1\n"
		"streams:\n"
		"  - {name: udp, size: imix}\n"
		"  - {name: tagged, size: 128, vlan: {id: 5}}\n"
		"  - {name: tcp6, size: 200, stack: [eth, ipv6, tcp]}\n"
		"  - {name: vxlan, size: 200, stack: [eth, ipv4, udp, vxlan, eth, ipv4, udp]}\n"
		"  - {name: raw, size: 64, stack: [eth]}\n"
		"  - {name: icmp, size: 64, stack: [eth, ipv4, icmp]}\n");

	CU_ASSERT_EQUAL_FATAL(f.n_streams, 6);
	CU_ASSERT_EQUAL(payload_off_of(&f, 0), 42);
	CU_ASSERT_EQUAL(payload_off_of(&f, 1), 46);
	CU_ASSERT_EQUAL(payload_off_of(&f, 2), 74);
	/* The inner UDP: 14 + 20 + 8 + 8 (VXLAN) + 14 + 20 + 8. */
	CU_ASSERT_EQUAL(payload_off_of(&f, 3), 92);
	CU_ASSERT_EQUAL(payload_off_of(&f, 4), -ENOENT);
	CU_ASSERT_EQUAL(payload_off_of(&f, 5), -ENOENT);
	wr_stream_file_free(&f);
}

static void
test_endless(void)
{
	struct wr_stream_file f;

	f = load("version: 1\nstreams:\n"
		 "  - {name: a, count: 10}\n"
		 "  - {name: b, duration: 2s}\n");
	CU_ASSERT_EQUAL(wr_stream_file_endless(&f), -1);
	wr_stream_file_free(&f);
	f = load("version: 1\nstreams:\n"
		 "  - {name: a, count: 10}\n"
		 "  - {name: b, rate: max}\n");
	CU_ASSERT_EQUAL(wr_stream_file_endless(&f), 1);
	wr_stream_file_free(&f);
	/* A sequence that starts over for ever, its streams bounded. */
	f = load("version: 1\nstreams:\n"
		 "  - {name: a, count: 10}\n"
		 "  - {name: b, count: 10, next: first}\n");
	CU_ASSERT_EQUAL(wr_stream_file_endless(&f), 0);
	wr_stream_file_free(&f);
	f = load("version: 1\nloops: 3\nstreams:\n"
		 "  - {name: a, count: 10}\n"
		 "  - {name: b, count: 10, next: first}\n");
	CU_ASSERT_EQUAL(wr_stream_file_endless(&f), -1);
	wr_stream_file_free(&f);
}

/* A view of one port and two streams, as wr_engine_collect() gives it. */
struct view {
	struct wr_report_row ports[1], streams[2];
	struct wr_report_view v;
};

static void
view_fill(struct view *w, uint64_t pkts, uint64_t ns, uint64_t nic_opackets)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->ports[0].name, sizeof(w->ports[0].name), "net_null0");
	snprintf(w->streams[0].name, sizeof(w->streams[0].name), "udp");
	snprintf(w->streams[1].name, sizeof(w->streams[1].name), "raw");
	w->streams[0].total.tx_pkts = pkts;
	w->streams[0].total.tx_bytes = pkts * 128;
	w->streams[0].duration_ns = ns;
	w->streams[0].has_rx = true;
	w->streams[0].rx_pkts = pkts - 1;
	w->streams[0].lost = 1;
	w->streams[1].total.tx_pkts = pkts;
	w->streams[1].total.tx_bytes = pkts * 64;
	w->streams[1].duration_ns = ns;
	w->ports[0].total.tx_pkts = 2 * pkts;
	w->ports[0].total.tx_bytes = pkts * 192;
	w->ports[0].duration_ns = ns;
	w->ports[0].has_nic = true;
	w->ports[0].nic_opackets = nic_opackets;
	w->v.ports = w->ports;
	w->v.n_ports = 1;
	w->v.streams = w->streams;
	w->v.n_streams = 2;
	w->v.elapsed_ns = ns;
}

static void
test_rep_set(void)
{
	static const uint64_t ns[3] = { 1000000000ull, 500000000ull, 2000000000ull };
	const char *peers[] = { "netdev:veth1" };
	int32_t off[2] = { 42, -1 };
	struct wr_peer_counts pc;
	struct wr_rep_set s;
	struct wr_rep_stat st;
	struct wr_rep_peer_stat ps;
	struct view w;
	uint32_t k;

	view_fill(&w, 1000, ns[0], 0);
	CU_ASSERT_EQUAL(wr_rep_init(&s, &w.v, 0, peers, 1), -EINVAL);
	CU_ASSERT_EQUAL_FATAL(wr_rep_init(&s, &w.v, 3, peers, 1), 0);
	CU_ASSERT_EQUAL(wr_rep_stat_calc(&s, 0, &st), -EINVAL);
	for (k = 0; k < 3; k++) {
		/* The NIC counts since the ports started: 2000 a repetition. */
		view_fill(&w, 1000, ns[k], 2000 * (k + 1));
		memset(&pc, 0, sizeof(pc));
		pc.rx_pkts = 1000 + k;
		pc.rx_bytes = (1000 + k) * 124;
		CU_ASSERT_EQUAL(wr_rep_add(&s, &w.v, off, &pc, "count"), 0);
	}
	CU_ASSERT_EQUAL(wr_rep_add(&s, &w.v, off, &pc, "count"), -ENOSPC);
	/* Port row: Kpps 1000 frames x2 over 1, 0.5, 2 s. */
	CU_ASSERT_EQUAL_FATAL(wr_rep_stat_calc(&s, 0, &st), 0);
	CU_ASSERT_EQUAL(st.n_measured, 3);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.min, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.median, 2.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.max, 4.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.duration_ms.median, 1000, 1e-6);
	/* One stream without goodput: none for its port. */
	CU_ASSERT_FALSE(st.has_goodput);
	CU_ASSERT_EQUAL(st.tx_pkts, 6000);
	CU_ASSERT_EQUAL(s.rows[0].nic_opackets, 2000);
	CU_ASSERT_EQUAL(s.rows[3].nic_opackets, 2000);
	CU_ASSERT_EQUAL(s.rows[6].nic_opackets, 2000);
	/* Stream udp: 128-byte frames, 82 bytes above UDP; L1 adds 20. */
	CU_ASSERT_EQUAL_FATAL(wr_rep_stat_calc(&s, 1, &st), 0);
	CU_ASSERT_TRUE(st.has_goodput);
	CU_ASSERT_DOUBLE_EQUAL(st.goodput_mbps.median, 1000 * 82 * 8 / 1e6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.goodput_mbps.max, 2 * 1000 * 82 * 8 / 1e6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.mbps_l2.median, 1000 * 128 * 8 / 1e6, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.mbps_l1.median, 1000 * 148 * 8 / 1e6, 1e-9);
	CU_ASSERT_TRUE(st.has_rx);
	CU_ASSERT_EQUAL(st.rx_pkts, 2997);
	CU_ASSERT_EQUAL(st.lost, 3);
	CU_ASSERT_EQUAL(s.rows[1].goodput_bytes, 82000);
	/* Stream raw: no goodput. */
	CU_ASSERT_EQUAL_FATAL(wr_rep_stat_calc(&s, 2, &st), 0);
	CU_ASSERT_FALSE(st.has_goodput);
	CU_ASSERT_FALSE(st.has_rx);
	CU_ASSERT_EQUAL(wr_rep_stat_calc(&s, 3, &st), -EINVAL);
	/* The peer. */
	CU_ASSERT_EQUAL_FATAL(wr_rep_peer_stat_calc(&s, 0, &ps), 0);
	CU_ASSERT_EQUAL(ps.total.rx_pkts, 3003);
	CU_ASSERT_EQUAL(ps.rx_pkts.min, 1000);
	CU_ASSERT_EQUAL(ps.rx_pkts.median, 1001);
	CU_ASSERT_EQUAL(ps.rx_pkts.max, 1002);
	CU_ASSERT_EQUAL(wr_rep_peer_stat_calc(&s, 1, &ps), -EINVAL);
	wr_rep_free(&s);
	wr_rep_free(&s);
}

static void
test_rep_unmeasured(void)
{
	/* A repetition that sent one frame has no rate: out of the spread. */
	int32_t off[2] = { 42, 42 };
	struct wr_rep_set s;
	struct wr_rep_stat st;
	struct view w;

	view_fill(&w, 1000, 1000000000ull, 0);
	CU_ASSERT_EQUAL_FATAL(wr_rep_init(&s, &w.v, 2, NULL, 0), 0);
	CU_ASSERT_EQUAL(wr_rep_add(&s, &w.v, off, NULL, "count"), 0);
	view_fill(&w, 1, 0, 0);
	CU_ASSERT_EQUAL(wr_rep_add(&s, &w.v, off, NULL, "count"), 0);
	CU_ASSERT_EQUAL_FATAL(wr_rep_stat_calc(&s, 1, &st), 0);
	CU_ASSERT_EQUAL(st.n_measured, 1);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.min, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(st.kpps.max, 1.0, 1e-9);
	CU_ASSERT_EQUAL(st.tx_pkts, 1001);
	wr_rep_free(&s);
}

static void
test_rep_json(void)
{
	const char *peers[] = { "telemetry:refl:0" };
	int32_t off[2] = { 42, -1 };
	struct wr_peer_counts pc = { .rx_pkts = 1000, .tx_pkts = 999 };
	struct wr_rep_set s;
	struct view w;
	char *buf = NULL, *doc;
	size_t len = 0;
	json_t *j, *sum;
	FILE *out;

	view_fill(&w, 1000, 1000000000ull, 2000);
	CU_ASSERT_EQUAL_FATAL(wr_rep_init(&s, &w.v, 2, peers, 1), 0);
	CU_ASSERT_EQUAL(wr_rep_add(&s, &w.v, off, &pc, "count"), 0);
	CU_ASSERT_EQUAL(wr_rep_add(&s, &w.v, off, &pc, "duration"), 0);
	out = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	fputs("{\"x\": 1", out);
	CU_ASSERT_EQUAL(wr_rep_json_write(out, &s), 0);
	fputs("}", out);
	fclose(out);
	doc = buf;
	j = json_loads(doc, JSON_REJECT_DUPLICATES, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "repeats")), 2);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
		json_array_get(json_object_get(j, "repeats"), 1), "stop_reason")),
		"duration");
	sum = json_object_get(j, "summary");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(sum, "repeats")), 2);
	CU_ASSERT_TRUE(json_is_null(json_object_get(json_array_get(
		json_object_get(sum, "streams"), 1), "goodput_mbps")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(
		json_array_get(json_object_get(sum, "peers"), 0), "total"),
		"rx_pkts")), 2000);
	json_decref(j);
	free(buf);
	wr_rep_free(&s);
}

static void
test_peer_specs(void)
{
	struct wr_peer p;
	char why[256];

	CU_ASSERT_EQUAL(wr_peer_parse(&p, "telemetry:refl:1", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(p.kind, WR_PEER_TELEMETRY);
	CU_ASSERT_STRING_EQUAL(p.path, "/var/run/dpdk/refl/dpdk_telemetry.v2");
	CU_ASSERT_EQUAL(p.port, 1);
	CU_ASSERT_EQUAL(p.fd, -1);
	CU_ASSERT_EQUAL(wr_peer_parse(&p, "telemetry:/run/x/sock.v2:65535", why,
				      sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(p.path, "/run/x/sock.v2");
	CU_ASSERT_EQUAL(p.port, 65535);
	CU_ASSERT_EQUAL(wr_peer_parse(&p, "netdev:wr1", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(p.kind, WR_PEER_NETDEV);
	CU_ASSERT_STRING_EQUAL(p.ifname, "wr1");
	CU_ASSERT_STRING_EQUAL(p.path, "");
	CU_ASSERT_EQUAL(wr_peer_parse(&p, "netdev:lab/wr1", why, sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(p.path, "/var/run/netns/lab");
	CU_ASSERT_EQUAL(wr_peer_parse(&p, "netdev:/proc/1/ns/net/eth0", why,
				      sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(p.path, "/proc/1/ns/net");
	CU_ASSERT_STRING_EQUAL(p.ifname, "eth0");
	static const char *const bad[] = {
		"", "telemetry", "telemetry:", "telemetry:x", "telemetry::0",
		"telemetry:x:-1", "telemetry:x:65536", "telemetry:x:1a",
		"netdev:", "netdev:a/", "netdev:/eth0", "netdev:a/b/eth0",
		"netdev:sixteen-chars-xx", "netdev:a:b", "pcap:x", "netdev",
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CU_ASSERT_EQUAL(wr_peer_parse(&p, bad[i], why, sizeof(why)), -EINVAL);
		CU_ASSERT_NOT_EQUAL(why[0], '\0');
	}
	/* Not open: reading says so. */
	struct wr_peer_counts c;

	CU_ASSERT_EQUAL(wr_peer_parse(&p, "netdev:lo", why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_peer_read(&p, &c), -EBADF);
	wr_peer_close(&p);
}

/* A netdev: namespace that is not a namespace file: refused at once (a
 * FIFO would have blocked the open for good), nothing left open. */
static void
test_peer_open_files(void)
{
	char dir[] = "/tmp/wrpeerXXXXXX", spec[96], why[256];
	struct wr_peer p;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(spec, sizeof(spec), "netdev:%s/fifo/lo", dir);
	snprintf(why, sizeof(why), "%s/fifo", dir);
	CU_ASSERT_EQUAL_FATAL(mkfifo(why, 0600), 0);
	CU_ASSERT_EQUAL_FATAL(wr_peer_parse(&p, spec, why, sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_peer_open(&p, why, sizeof(why)), -ENODEV);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a FIFO, not a regular file"));
	CU_ASSERT_EQUAL(p.fd, -1);
	CU_ASSERT_EQUAL_FATAL(wr_peer_parse(&p, "netdev:/dev/zero/lo", why,
					    sizeof(why)), 0);
	CU_ASSERT_EQUAL(wr_peer_open(&p, why, sizeof(why)), -ENODEV);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a character device"));
	snprintf(why, sizeof(why), "%s/fifo", dir);
	unlink(why);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
	/* Our own namespace by its file (entering one needs CAP_SYS_ADMIN). */
	if (geteuid() == 0) {
		CU_ASSERT_EQUAL_FATAL(wr_peer_parse(&p, "netdev:/proc/self/ns/net/lo",
						    why, sizeof(why)), 0);
		CU_ASSERT_EQUAL(wr_peer_open(&p, why, sizeof(why)), 0);
		wr_peer_close(&p);
	}
}

static void
test_peer_ethdev_stats(void)
{
	static const char ok[] = "{\"/ethdev/stats\": {\"ipackets\": 10, "
		"\"opackets\": 9, \"ibytes\": 640, \"obytes\": 576, \"imissed\": 1, "
		"\"ierrors\": 2, \"oerrors\": 3, \"rx_nombuf\": 0, "
		"\"q_ipackets\": [10, 0]}}";
	static const char *const bad[] = {
		"{\"/ethdev/stats\": null}",
		"{\"/ethdev/stats\": {\"ipackets\": 10}}",
		"{\"/ethdev/stats\": {\"ipackets\": -1, \"opackets\": 9, \"ibytes\": 1, "
		"\"obytes\": 1, \"imissed\": 1, \"ierrors\": 2, \"oerrors\": 3}}",
		"{\"/ethdev/stats\": {\"ipackets\": \"10\", \"opackets\": 9, \"ibytes\": 1, "
		"\"obytes\": 1, \"imissed\": 1, \"ierrors\": 2, \"oerrors\": 3}}",
		"{\"/ethdev/xstats\": {}}",
		"not json",
		"",
	};
	struct wr_peer_counts c;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(wr_peer_parse_ethdev_stats(ok, strlen(ok), &c), 0);
	CU_ASSERT_EQUAL(c.rx_pkts, 10);
	CU_ASSERT_EQUAL(c.tx_pkts, 9);
	CU_ASSERT_EQUAL(c.rx_bytes, 640);
	CU_ASSERT_EQUAL(c.tx_bytes, 576);
	CU_ASSERT_EQUAL(c.rx_missed, 1);
	CU_ASSERT_EQUAL(c.rx_errors, 2);
	CU_ASSERT_EQUAL(c.tx_errors, 3);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(wr_peer_parse_ethdev_stats(bad[i], strlen(bad[i]),
							   &c), -EPROTO);
}

static void
test_peer_proc_net_dev(void)
{
	static const char text[] =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
		"    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n"
		"  wr10: 18446744073709551615 7 0 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
		"   wr1:     364       4    1    2    0     0          0         0      266       3    5    0    0     0       0          0\n"
		"   bad: 1 2 3\n";
	struct wr_peer_counts c, d, e;

	CU_ASSERT_EQUAL_FATAL(wr_peer_parse_proc_net_dev(text, "wr1", &c), 0);
	CU_ASSERT_EQUAL(c.rx_bytes, 364);
	CU_ASSERT_EQUAL(c.rx_pkts, 4);
	CU_ASSERT_EQUAL(c.rx_errors, 1);
	CU_ASSERT_EQUAL(c.rx_missed, 2);
	CU_ASSERT_EQUAL(c.tx_bytes, 266);
	CU_ASSERT_EQUAL(c.tx_pkts, 3);
	CU_ASSERT_EQUAL(c.tx_errors, 5);
	/* A name that is a prefix of another is not confused with it. */
	CU_ASSERT_EQUAL_FATAL(wr_peer_parse_proc_net_dev(text, "wr10", &d), 0);
	CU_ASSERT_EQUAL(d.rx_bytes, UINT64_MAX);
	CU_ASSERT_EQUAL(wr_peer_parse_proc_net_dev(text, "wr", &e), -ENODEV);
	CU_ASSERT_EQUAL(wr_peer_parse_proc_net_dev(text, "bad", &e), -EPROTO);
	/* Deltas; a counter that went back (a reset) gives 0, not 2^64. */
	wr_peer_counts_delta(&c, &d, &e);
	CU_ASSERT_EQUAL(e.rx_pkts, 3);
	CU_ASSERT_EQUAL(e.tx_pkts, 0);
	CU_ASSERT_EQUAL(e.rx_bytes, UINT64_MAX - 364);
}

static CU_TestInfo repeat_tests[] = {
	{ "spread", test_spread },
	{ "goodput_bytes", test_goodput_bytes },
	{ "payload_off", test_payload_off },
	{ "endless", test_endless },
	{ "rep_set", test_rep_set },
	{ "rep_unmeasured", test_rep_unmeasured },
	{ "rep_json", test_rep_json },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo peer_tests[] = {
	{ "specs", test_peer_specs },
	{ "open_files", test_peer_open_files },
	{ "ethdev_stats", test_peer_ethdev_stats },
	{ "proc_net_dev", test_peer_proc_net_dev },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "repeat", .pTests = repeat_tests },
	{ .pName = "peer", .pTests = peer_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

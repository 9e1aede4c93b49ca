/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of a stream file's hosts: key (wr_yaml_hosts.c): the model it fills, and each refusal with its file:line:col, key and words. */
#include <errno.h>
#include <stdlib.h>

#include "wr_host.h"
#include "wr_yaml.h"
#include "wr_test.h"
#include "wr_test_fixture.h"

#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))
#define STREAMS "streams:\n  - name: x\n"

static int
load(const char *text, struct wr_stream_file *f, struct wr_error *e)
{
	return wr_yaml_load_streams_buf("h.yaml", text, strlen(text), f, e);
}

static void
test_model(void)
{
	static const char text[] =
		"version: 1\n"
		"hosts:\n"
		"  - name: clients\n"
		"    port: 1\n"
		"    count: 1000\n"
		"    mac: 02:10:00:00:00:01\n"
		"    mac_step: 2\n"
		"    vlan: [{id: 10, step: 1}, {id: 100, pcp: 5}]\n"
		"    ipv4: {addr: 10.0.0.10, step: 0.0.0.2, prefix: 16, gateway: 10.0.0.1}\n"
		"    ipv6: {addr: \"2001:db8::10\", gateway: \"fe80::1\"}\n"
		"    bringup: {rate: 500, outstanding: 64}\n"
		"  - name: servers\n"
		"    port: 1\n"
		"    count: 3\n"
		"    mac: 02:10:00:00:00:02\n"
		"    mac_step: 2\n"
		"    vlan: [7]\n"
		STREAMS;
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_host_group *g;
	int rc;

	rc = load(text, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(f.hosts.n, 2);
	g = &f.hosts.groups[0];
	CU_ASSERT_STRING_EQUAL(g->name, "clients");
	CU_ASSERT_EQUAL(g->where.line, 3);
	CU_ASSERT_EQUAL(g->where.col, 5);
	CU_ASSERT_EQUAL(g->port, 1);
	CU_ASSERT_EQUAL(g->count, 1000);
	CU_ASSERT_EQUAL(g->mac, 0x021000000001ull);
	CU_ASSERT_EQUAL(g->mac_step, 2);
	CU_ASSERT_EQUAL(g->n_tags, 2);
	CU_ASSERT_EQUAL(g->tpid[0], 0x88a8);
	CU_ASSERT_EQUAL(g->tpid[1], 0x8100);
	CU_ASSERT_EQUAL(g->vlan[0], 10);
	CU_ASSERT_EQUAL(g->vlan_step[0], 1);
	CU_ASSERT_EQUAL(g->vlan[1], 100);
	CU_ASSERT_EQUAL(g->pcp[1], 5);
	CU_ASSERT_EQUAL(g->v4.mode, WR_HOST_ADDR_STATIC);
	CU_ASSERT_TRUE(g->v4.addr == 0x0a00000a && g->v4.step == 2);
	CU_ASSERT_EQUAL(g->v4.prefix, 16);
	CU_ASSERT_TRUE(g->v4.has_gateway && g->v4.gateway == 0x0a000001);
	CU_ASSERT_EQUAL(g->v6.mode, WR_HOST_ADDR_STATIC);
	CU_ASSERT_TRUE(g->v6.addr == A6(0x20010db800000000ull, 0x10));
	CU_ASSERT_TRUE(g->v6.step == 1);
	CU_ASSERT_EQUAL(g->v6.prefix, 64);
	CU_ASSERT_TRUE(g->v6.gateway == A6(0xfe80000000000000ull, 1));
	CU_ASSERT_EQUAL(g->bringup_rate, 500);
	CU_ASSERT_EQUAL(g->outstanding, 64);
	g = &f.hosts.groups[1];
	CU_ASSERT_EQUAL(g->n_tags, 1);
	CU_ASSERT_EQUAL(g->tpid[0], 0x8100);
	CU_ASSERT_EQUAL(g->v4.mode, WR_HOST_ADDR_NONE);
	CU_ASSERT_EQUAL(wr_host_specs_find(&f.hosts, "servers"), 1);
	CU_ASSERT_EQUAL(wr_host_specs_find(&f.hosts, "nobody"), -1);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL(f.hosts.n, 0);
	CU_ASSERT_PTR_NULL(f.hosts.groups);
}

/* One refusal: the group's body (indented 4) in place of @p body. */
struct refusal {
	const char *body;
	unsigned int line;
	unsigned int col;
	const char *path;
	const char *words;
};

#define G(extra) "  - name: g\n    port: 0\n    count: 10\n    mac: 02:00:00:00:01:00\n" extra

static const struct refusal refusals[] = {
	{ "  - name: g\n    port: 0\n    count: 10\n", 3, 5, "hosts[0]", "mac" },
	{ G("    colour: red\n"), 7, 5, "hosts[0].colour", "unknown" },
	{ G("    dhcp4: {}\n"), 7, 5, "hosts[0].dhcp4", "unknown" },
	{ "  - name: \"a b\"\n    port: 0\n    count: 1\n    mac: 02:00:00:00:00:01\n",
	  3, 11, "hosts[0].name", "a name of 1 to 31" },
	{ "  - name: g\n    port: 0\n    count: 0\n    mac: 02:00:00:00:00:01\n",
	  5, 12, "hosts[0].count", "" },
	{ "  - name: g\n    port: 0\n    count: 1048577\n    mac: 02:00:00:00:00:01\n",
	  5, 12, "hosts[0].count", "" },
	{ "  - name: g\n    port: 70000\n    count: 1\n    mac: 02:00:00:00:00:01\n",
	  4, 11, "hosts[0].port", "" },
	{ "  - name: g\n    port: 0\n    count: 1\n    mac: 02:00:00:00:00\n",
	  6, 10, "hosts[0].mac", "" },
	{ "  - name: g\n    port: 0\n    count: 2\n    mac: 03:00:00:00:00:01\n",
	  6, 10, "hosts[0].mac", "unicast" },
	{ "  - name: g\n    port: 0\n    count: 2\n    mac: ff:ff:ff:ff:ff:ff\n",
	  6, 10, "hosts[0].mac", "run past" },
	{ G("    mac_step: 0\n"), 7, 15, "hosts[0].mac_step", "" },
	{ G("    vlan: 100\n"), 7, 11, "hosts[0].vlan", "a list of 1 or 2 tags" },
	{ G("    vlan: [1, 2, 3]\n"), 7, 11, "hosts[0].vlan", "a list of 1 or 2 tags" },
	{ G("    vlan: [4095]\n"), 7, 12, "hosts[0].vlan[0]", "" },
	{ G("    vlan: [{tpid: 0x8100}]\n"), 7, 12, "hosts[0].vlan[0]", "id" },
	{ G("    vlan: [{id: 5, tpid: 0x0800}]\n"), 7, 26, "hosts[0].vlan[0].tpid", "TPID" },
	{ G("    vlan: [{id: 5, pcp: 8}]\n"), 7, 25, "hosts[0].vlan[0].pcp", "" },
	{ G("    vlan: [{id: 4090, step: 1}]\n"), 7, 29, "hosts[0].vlan[0].step", "run past VLAN" },
	{ G("    ipv4: static\n"), 7, 11, "hosts[0].ipv4", "dhcp, or a mapping" },
	/* The dhcp4 module's own keys, refused through the loader. */
	{ G("    ipv4: {dhcp: {retries: 11}}\n"), 7, 28, "hosts[0].ipv4.dhcp.retries", "got \"11\"" },
	{ G("    ipv4: {dhcp: {nope: 1}}\n"), 7, 19, "hosts[0].ipv4.dhcp.nope", "unknown key" },
	{ G("    ipv4: {dhcp: sure}\n"), 7, 18, "hosts[0].ipv4.dhcp", "expected dhcp, or a mapping" },
	{ G("    ipv6: slaac\n"), 7, 11, "hosts[0].ipv6.slaac", "slaac module" },
	{ G("    ipv6: {dhcp: {}}\n"), 7, 18, "hosts[0].ipv6.dhcp", "dhcp6 module" },
	{ G("    ipv4: {prefix: 24}\n"), 7, 11, "hosts[0].ipv4", "addr" },
	{ G("    ipv4: {addr: 10.0.0.256}\n"), 7, 18, "hosts[0].ipv4.addr", "IPv4 address" },
	{ G("    ipv4: {addr: 10.0.0.1, prefix: 33}\n"), 7, 36, "hosts[0].ipv4.prefix", "" },
	{ G("    ipv4: {addr: 255.255.255.250}\n"), 7, 18, "hosts[0].ipv4.addr",
	  "run past the last IPv4" },
	{ G("    ipv4: {addr: 10.0.0.1, step: 64.0.0.0}\n"), 7, 34, "hosts[0].ipv4.step",
	  "run past" },
	{ G("    ipv4: {addr: 10.0.0.1, gateway: 10.0.1.1}\n"), 7, 37,
	  "hosts[0].ipv4.gateway", "on the hosts' link" },
	{ G("    ipv4: {addr: 10.0.0.1, mask: 24}\n"), 7, 28, "hosts[0].ipv4.mask", "unknown" },
	{ G("    ipv6: {addr: \"2001:db8::g\"}\n"), 7, 18, "hosts[0].ipv6.addr", "IPv6 address" },
	{ G("    ipv6: {addr: \"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe\"}\n"), 7, 18,
	  "hosts[0].ipv6.addr", "run past the last IPv6" },
	{ G("    bringup: {rate: fast}\n"), 7, 21, "hosts[0].bringup.rate", "" },
	{ G("    bringup: {burst: 3}\n"), 7, 15, "hosts[0].bringup.burst", "unknown" },
	{ G("  - name: g\n    port: 1\n    count: 1\n    mac: 02:00:00:00:02:00\n"),
	  7, 11, "hosts[1].name", "duplicate host group name \"g\" (first at line 3)" },
	{ G("  - name: h\n    port: 1\n    count: 1\n    mac: 02:00:00:00:01:09\n"),
	  10, 10, "hosts[1].mac", "MACs shared with hosts \"g\"" },
	{ G("  - name: h\n    port: 0\n    count: 1048570\n    mac: 02:00:01:00:00:00\n"),
	  9, 12, "hosts[1].count", "at most 1048576 a port" },
};

static void
test_refusals(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	char text[1024];
	size_t i;

	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		int rc;

		snprintf(text, sizeof(text), "version: 1\nhosts:\n%s" STREAMS, r->body);
		rc = load(text, &f, &e);
		if (rc != -EINVAL || e.line != r->line || e.col != r->col ||
		    strcmp(e.path, r->path) != 0 || strstr(e.msg, r->words) == NULL) {
			printf("\nrefusal %zu: rc %d ", i, rc);
			wr_test_print_error(&e);
		}
		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT_STRING_EQUAL(e.file, "h.yaml");
		CU_ASSERT_EQUAL(e.line, r->line);
		CU_ASSERT_EQUAL(e.col, r->col);
		CU_ASSERT_STRING_EQUAL(e.path, r->path);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, r->words));
	}
}

/* MAC ranges that interleave (even and odd) share nothing: accepted. */
static void
test_interleaved_macs(void)
{
	static const char text[] = "version: 1\nhosts:\n"
		"  - {name: even, port: 0, count: 100, mac: 02:00:00:00:00:00, mac_step: 2}\n"
		"  - {name: odd, port: 0, count: 100, mac: 02:00:00:00:00:01, mac_step: 2}\n"
		"  - {name: far, port: 0, count: 100, mac: 02:00:00:00:00:c8, mac_step: 3}\n"
		STREAMS;
	static const char clash[] = "version: 1\nhosts:\n"
		"  - {name: even, port: 0, count: 100, mac: 02:00:00:00:00:00, mac_step: 2}\n"
		"  - {name: three, port: 0, count: 100, mac: 02:00:00:00:00:c5, mac_step: 3}\n"
		STREAMS;
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL(load(text, &f, &e), 0);
	CU_ASSERT_EQUAL(f.hosts.n, 3);
	wr_stream_file_free(&f);
	/* Evens 0..198; 0xc5 (197) + 3k: 197 odd, then 200 past them. */
	CU_ASSERT_EQUAL(load(clash, &f, &e), 0);
	wr_stream_file_free(&f);
	/* 0xbf (191) + 3 = 194: an even one. */
	{
		static const char clash2[] = "version: 1\nhosts:\n"
			"  - {name: even, port: 0, count: 100, mac: 02:00:00:00:00:00, mac_step: 2}\n"
			"  - {name: three, port: 0, count: 100, mac: 02:00:00:00:00:bf, mac_step: 3}\n"
			STREAMS;

		CU_ASSERT_EQUAL(load(clash2, &f, &e), -EINVAL);
		CU_ASSERT_EQUAL(e.line, 4);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "MACs shared with hosts \"even\""));
	}
}

static CU_TestInfo yaml_tests[] = {
	{ "model", test_model },
	{ "refusals", test_refusals },
	{ "interleaved_macs", test_interleaved_macs },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "host_yaml", .pTests = yaml_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_hosts_view: a copy of a port's hosts as hosts.list pages, hosts.counters and the run's text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "wr_hosts_view.h"
#include "wr_test.h"

#define N_HOSTS 25
#define MS 1000000ull

static struct wr_host_group groups[3];
static struct wr_host_specs specs = { .groups = groups, .n = 3 };
static struct wr_host hosts[N_HOSTS];
/* Host-major module words (+ 1: a build without modules has none). */
#define N_PROTOS (WR_HOST_PROTO__COUNT + 0u)
static const char *states[N_HOSTS * (WR_HOST_PROTO__COUNT + 1)];
static const struct wr_hosts_ctr ctrs[] = {
	{ "arp_replies", 42 }, { "dad_ok", 0 }, { "dhcp4_discover", 5 },
	{ "dhcp4_fail_timeout", 5 },
};

/* Port 0: "clients", 20 static hosts on VLAN 100 behind 10.0.0.1 (host 3
 * not started yet, host 4 with its gateway unanswered), then "dhcp", 5
 * hosts whose DHCP gave up.  "other" is port 1's. */
static void
snap(struct wr_hosts_snap *s)
{
	uint32_t i;

	memset(groups, 0, sizeof(groups));
	memset(hosts, 0, sizeof(hosts));
	memset(states, 0, sizeof(states));
	snprintf(groups[0].name, sizeof(groups[0].name), "clients");
	groups[0].count = 20;
	groups[0].v4.mode = WR_HOST_ADDR_STATIC;
	groups[0].v6.mode = WR_HOST_ADDR_STATIC;
	snprintf(groups[1].name, sizeof(groups[1].name), "dhcp");
	groups[1].count = 5;
	groups[1].v4.mode = WR_HOST_ADDR_DHCP;
	snprintf(groups[2].name, sizeof(groups[2].name), "other");
	groups[2].port = 1;
	for (i = 0; i < N_HOSTS; i++) {
		struct wr_host *h = &hosts[i];

		h->mac[0] = 0x02;
		h->mac[4] = (uint8_t)(i >> 8);
		h->mac[5] = (uint8_t)(i + 1);
		h->started = 1;
		if (i < 20) {
			h->group = 0;
			h->n_tags = 1;
			h->tpid[0] = 0x8100;
			h->tci[0] = (5u << 13) | 100;
			h->ip4_state = WR_IP4_UP;
			h->ip4 = 0x0a00000a + i;
			h->prefix4 = 16;
			h->gw4 = 0x0a000001;
			h->gw4_n.ip = h->gw4;
			h->gw4_n.state = WR_NEIGH_REACHABLE;
			memcpy(h->gw4_n.mac, "\x02\xaa\x00\x00\x00\x01", 6);
			h->gw4_n.updated_ns = 1000 * MS;
			h->n_ip6 = 2;
			h->ip6[0].addr = ((__uint128_t)0xfe80ull << 112) | (i + 1);
			h->ip6[0].prefix = 64;
			h->ip6[0].state = WR_IP6_PREFERRED;
			h->ip6[0].origin = WR_IP6_LINK_LOCAL;
			h->ip6[1].addr = ((__uint128_t)0x20010db8ull << 96) |
					 (0x10 + i);
			h->ip6[1].prefix = 64;
			h->ip6[1].state = WR_IP6_PREFERRED;
			h->ip6[1].origin = WR_IP6_STATIC;
		} else {
			/* DHCP gave up: its bit failed (the first module's
			 * word, when the build has one). */
			h->group = 1;
			h->failed = 1;
			if (wr_host_view_proto_name(0) != NULL)
				states[i * N_PROTOS] = "failed";
		}
	}
	hosts[3].started = 0;
	/* The engine's bit (7) while a gateway is asked, DAD runs; failed
	 * with a duplicate. */
	hosts[4].gw4_n.state = WR_NEIGH_INCOMPLETE;
	hosts[4].gw4_n.probes = 2;
	hosts[4].gw4_n.updated_ns = 1400 * MS;
	hosts[4].pending = 0x80;
	hosts[5].ip6[1].state = WR_IP6_TENTATIVE;
	hosts[5].pending = 0x80;
	hosts[6].ip6[1].state = WR_IP6_DUPLICATE;
	hosts[6].failed = 0x80;
	memset(s, 0, sizeof(*s));
	s->port = 0;
	s->now_ns = 1500 * MS;
	s->specs = &specs;
	s->n_total = N_HOSTS;
	s->n = N_HOSTS;
	s->hosts = hosts;
	s->states = states;
	s->ctrs = ctrs;
	s->n_ctrs = sizeof(ctrs) / sizeof(ctrs[0]);
}

static void
test_states(void)
{
	struct wr_hosts_snap s;
	uint32_t count[WR_HOST_VIEW__COUNT];
	enum wr_host_view_state st;

	snap(&s);
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[0], &groups[0]), WR_HOST_VIEW_UP);
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[3], &groups[0]), WR_HOST_VIEW_IDLE);
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[4], &groups[0]), WR_HOST_VIEW_PENDING);
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[5], &groups[0]), WR_HOST_VIEW_PENDING);
	/* DAD over, the address tentative still: not up yet. */
	hosts[5].pending = 0;
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[5], &groups[0]), WR_HOST_VIEW_PENDING);
	hosts[5].pending = 0x80;
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[6], &groups[0]), WR_HOST_VIEW_FAILED);
	/* A duplicate is failed before the engine said so. */
	hosts[6].failed = 0;
	hosts[6].pending = 0x80;
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[6], &groups[0]), WR_HOST_VIEW_FAILED);
	hosts[6].failed = 0x80;
	hosts[6].pending = 0;
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[20], &groups[1]), WR_HOST_VIEW_FAILED);
	/* DHCP under way; done without a failure but with no address. */
	hosts[20].failed = 0;
	hosts[20].pending = 1;
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[20], &groups[1]), WR_HOST_VIEW_PENDING);
	hosts[20].pending = 0;
	CU_ASSERT_EQUAL(wr_host_view_state(&hosts[20], &groups[1]), WR_HOST_VIEW_FAILED);
	hosts[20].failed = 1;
	{
		/* DHCPv6 with only a delegated prefix (ia_na: false): its
		 * module done without a failure, no address but the
		 * link-local one: up; failed when the module gave up. */
		struct wr_host_group g6 = groups[1];
		struct wr_host h6 = hosts[0];

		g6.v4.mode = WR_HOST_ADDR_NONE;
		g6.v6.mode = WR_HOST_ADDR_DHCP;
		h6.n_ip6 = 1;
		h6.failed = 0;
		h6.pending = 0;
		CU_ASSERT_EQUAL(wr_host_view_state(&h6, &g6), WR_HOST_VIEW_UP);
		h6.failed = 1;
		CU_ASSERT_EQUAL(wr_host_view_state(&h6, &g6), WR_HOST_VIEW_FAILED);
		h6.failed = 0;
		h6.pending = 1;
		CU_ASSERT_EQUAL(wr_host_view_state(&h6, &g6), WR_HOST_VIEW_PENDING);
	}
	wr_hosts_view_count(&s, count);
	CU_ASSERT_EQUAL(count[WR_HOST_VIEW_UP], 16);
	CU_ASSERT_EQUAL(count[WR_HOST_VIEW_IDLE], 1);
	CU_ASSERT_EQUAL(count[WR_HOST_VIEW_PENDING], 2);
	CU_ASSERT_EQUAL(count[WR_HOST_VIEW_FAILED], 6);
	CU_ASSERT_EQUAL(wr_host_view_state_parse("failed", &st), 0);
	CU_ASSERT_EQUAL(st, WR_HOST_VIEW_FAILED);
	CU_ASSERT_EQUAL(wr_host_view_state_parse("bound", &st), -EINVAL);
}

static void
test_host(void)
{
	struct wr_hosts_snap s;
	json_t *j, *n;
	char *text;

	snap(&s);
	j = wr_hosts_view_host(&s, 4);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	CU_ASSERT_STRING_EQUAL(text,
		"{\"gateway6\":null,\"group\":\"clients\",\"index\":4,"
		"\"ipv4\":{\"address\":\"10.0.0.14\",\"gateway\":\"10.0.0.1\","
		"\"prefix\":16,\"state\":\"up\"},"
		"\"ipv6\":[{\"address\":\"fe80::5\",\"origin\":\"link-local\","
		"\"prefix\":64,\"state\":\"preferred\"},"
		"{\"address\":\"2001:db8::14\",\"origin\":\"static\","
		"\"prefix\":64,\"state\":\"preferred\"}],"
		"\"mac\":\"02:00:00:00:00:05\",\"modules\":{},"
		"\"neighbours\":[{\"age_ms\":100,\"ip\":\"10.0.0.1\","
		"\"mac\":null,\"probes\":2,\"state\":\"incomplete\"}],"
		"\"state\":\"pending\",\"vlans\":[{\"id\":100,\"pcp\":5,"
		"\"tpid\":33024}]}");
	free(text);
	json_decref(j);
	j = wr_hosts_view_host(&s, 0);
	n = json_array_get(json_object_get(j, "neighbours"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(n, "mac")),
			       "02:aa:00:00:00:01");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(n, "age_ms")), 500);
	json_decref(j);
	/* DHCP that gave up: no address, its module's word. */
	j = wr_hosts_view_host(&s, 22);
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	{
		char want[512], mods[64] = "";

		if (wr_host_view_proto_name(0) != NULL)
			snprintf(mods, sizeof(mods), "\"%s\":\"failed\"",
				 wr_host_view_proto_name(0));
		snprintf(want, sizeof(want),
			 "{\"gateway6\":null,\"group\":\"dhcp\",\"index\":22,"
			 "\"ipv4\":{\"address\":null,\"gateway\":null,"
			 "\"prefix\":0,\"state\":\"none\"},\"ipv6\":[],"
			 "\"mac\":\"02:00:00:00:00:17\",\"modules\":{%s},"
			 "\"neighbours\":[],\"state\":\"failed\",\"vlans\":[]}",
			 mods);
		CU_ASSERT_STRING_EQUAL(text, want);
	}
	free(text);
	json_decref(j);
}

static json_t *
list(const struct wr_hosts_snap *s, const char *group, const char *state,
     uint64_t offset, uint64_t limit, int want)
{
	struct wr_hosts_query q = { .group = group, .offset = offset,
				    .limit = limit };
	struct wr_error err;
	json_t *j = NULL;

	wr_error_clear(&err);
	if (state != NULL) {
		q.has_state = true;
		CU_ASSERT_EQUAL(wr_host_view_state_parse(state, &q.state), 0);
	}
	CU_ASSERT_EQUAL(wr_hosts_view_list(s, &q, &j, &err), want);
	return j;
}

static void
test_pages(void)
{
	struct wr_hosts_snap s;
	json_t *j, *h;
	uint64_t off = 0, seen = 0;

	snap(&s);
	/* Pages of 7 cover the port's 25 hosts once, in order. */
	do {
		size_t i;

		j = list(&s, NULL, NULL, off, 7, 0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(j);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "matched")), 25);
		CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "total")), 25);
		json_array_foreach(json_object_get(j, "hosts"), i, h)
			CU_ASSERT_EQUAL(json_integer_value(json_object_get(h,
				"index")), (json_int_t)seen++);
		h = json_object_get(j, "next_offset");
		off = json_is_null(h) ? UINT64_MAX : (uint64_t)json_integer_value(h);
		json_decref(j);
	} while (off != UINT64_MAX);
	CU_ASSERT_EQUAL(seen, 25);
	/* Filters: a group, a state, both. */
	j = list(&s, "dhcp", NULL, 0, 100, 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "hosts")), 5);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(
		json_object_get(j, "hosts"), 0), "index")), 20);
	json_decref(j);
	j = list(&s, NULL, "failed", 1, 100, 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "matched")), 6);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "hosts")), 5);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(
		json_object_get(j, "hosts"), 0), "index")), 20);
	CU_ASSERT(json_is_null(json_object_get(j, "next_offset")));
	json_decref(j);
	j = list(&s, "clients", "idle", 0, 100, 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "hosts")), 1);
	json_decref(j);
	/* The end is an empty page; past it, an error naming offset. */
	j = list(&s, "dhcp", NULL, 5, 100, 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(j, "hosts")), 0);
	json_decref(j);
	CU_ASSERT_PTR_NULL(list(&s, "dhcp", NULL, 6, 100, -ERANGE));
	CU_ASSERT_PTR_NULL(list(&s, NULL, NULL, 0, 0, -ERANGE));
	CU_ASSERT_PTR_NULL(list(&s, NULL, NULL, 0, WR_HOSTS_VIEW_LIMIT_MAX + 1,
				-ERANGE));
	/* A group of another port is not this port's. */
	CU_ASSERT_PTR_NULL(list(&s, "other", NULL, 0, 10, -ENOENT));
	CU_ASSERT_PTR_NULL(list(&s, "nope", NULL, 0, 10, -ENOENT));
}

static void
test_errors_name_param(void)
{
	struct wr_hosts_snap s;
	struct wr_hosts_query q = { .offset = 26, .limit = 10 };
	struct wr_error err;
	json_t *j;

	snap(&s);
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_hosts_view_list(&s, &q, &j, &err), -ERANGE);
	CU_ASSERT_STRING_EQUAL(err.path, "offset");
	CU_ASSERT_STRING_EQUAL(err.msg, "offset: expected at most 25 (the "
			       "hosts matched on port 0), got 26");
	q.offset = 0;
	q.group = "x";
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_hosts_view_list(&s, &q, &j, &err), -ENOENT);
	CU_ASSERT_STRING_EQUAL(err.path, "group");
}

/* A page gathered from copies of chunks (as the server reads the service)
 * is the page of the whole copy; unfiltered, the copy of its range alone. */
static void
test_chunks(void)
{
	struct wr_hosts_query q = { .limit = 4, .offset = 2, .has_state = true,
				    .state = WR_HOST_VIEW_UP };
	struct wr_hosts_snap s, c;
	struct wr_hosts_page pg;
	struct wr_error err;
	json_t *whole, *part;
	uint32_t at;

	snap(&s);
	wr_error_clear(&err);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_view_list(&s, &q, &whole, &err), 0);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_view_begin(&pg, &specs, 0, &q, &err), 0);
	CU_ASSERT(wr_hosts_view_filtered(&pg));
	for (at = 0; at < N_HOSTS; at += 3) {
		c = s;
		c.first = at;
		c.hosts = &hosts[at];
		c.states = &states[at * N_PROTOS];
		c.n = N_HOSTS - at < 3 ? N_HOSTS - at : 3;
		CU_ASSERT_EQUAL(wr_hosts_view_add(&pg, &c), 0);
	}
	CU_ASSERT_EQUAL_FATAL(wr_hosts_view_end(&pg, N_HOSTS, &part, &err), 0);
	CU_ASSERT(json_equal(whole, part));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(part, "matched")), 16);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(part, "next_offset")), 6);
	json_decref(whole);
	json_decref(part);
	/* Unfiltered: hosts 10..13 copied alone. */
	q = (struct wr_hosts_query){ .limit = 4, .offset = 10 };
	CU_ASSERT_EQUAL_FATAL(wr_hosts_view_list(&s, &q, &whole, &err), 0);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_view_begin(&pg, &specs, 0, &q, &err), 0);
	CU_ASSERT(!wr_hosts_view_filtered(&pg));
	c = s;
	c.first = 10;
	c.hosts = &hosts[10];
	c.states = &states[10 * N_PROTOS];
	c.n = 4;
	CU_ASSERT_EQUAL(wr_hosts_view_add(&pg, &c), 0);
	CU_ASSERT_EQUAL_FATAL(wr_hosts_view_end(&pg, N_HOSTS, &part, &err), 0);
	CU_ASSERT(json_equal(whole, part));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(part, "matched")), 25);
	json_decref(whole);
	json_decref(part);
}

static void
test_counters_text(void)
{
	struct wr_hosts_snap s;
	char *buf = NULL, *text;
	size_t len = 0;
	json_t *j;
	FILE *f;

	snap(&s);
	j = wr_hosts_view_counters(&s);
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	CU_ASSERT_STRING_EQUAL(text,
		"{\"counters\":{\"arp_replies\":42,\"dad_ok\":0,"
		"\"dhcp4_discover\":5,\"dhcp4_fail_timeout\":5},\"failed\":6,"
		"\"hosts\":25,\"idle\":1,\"pending\":2,\"port\":0,\"up\":16}");
	free(text);
	json_decref(j);
	f = open_memstream(&buf, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	wr_hosts_view_summary(f, &s);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf,
		"port 0: hosts: 16 up, 2 pending, 6 failed, 1 idle (of 25)\n"
		"port 0: hosts: arp_replies=42 dhcp4_discover=5 "
		"dhcp4_fail_timeout=5\n");
	free(buf);
	buf = NULL;
	s.n = 5;
	f = open_memstream(&buf, &len);
	wr_hosts_view_table(f, &s);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "port 0: 4       clients      pending "
		"02:00:00:00:00:05 100       10.0.0.14/16       2001:db8::14/64 "
		"         - incomplete 100ms"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "02:aa:00:00:00:01 reachable 500ms"));
	free(buf);
}

static CU_TestInfo view_tests[] = {
	{ "states", test_states },
	{ "host", test_host },
	{ "pages", test_pages },
	{ "errors_name_param", test_errors_name_param },
	{ "chunks", test_chunks },
	{ "counters_text", test_counters_text },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "hosts_view", .pTests = view_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of streams from hosts (`src: hosts.NAME`): the loader's refusals, the fields it fills, the session's fill after bring-up. */
#include "wr_stream_hosts.h"
#include "wr_test.h"
#include "wr_test_frame.h"
#include "wr_yaml.h"

static int
load(const char *text, struct wr_stream_file *f, struct wr_error *e)
{
	return wr_yaml_load_streams_buf("h.yaml", text, strlen(text), f, e);
}

#define HOSTS_1000 \
	"version: 1\n" \
	"hosts:\n" \
	"  - name: clients\n" \
	"    port: 0\n" \
	"    count: 1000\n" \
	"    mac: 02:10:00:00:00:01\n" \
	"    ipv4: {addr: 10.0.0.10, prefix: 16}\n" \
	"  - name: far\n" \
	"    port: 1\n" \
	"    count: 4\n" \
	"    mac: 02:20:00:00:00:01\n" \
	"    ipv4: {addr: 10.1.0.10, prefix: 16}\n"

/* A load that must fail at @p line:@p col with @p words in its message. */
static void
refused(const char *text, unsigned int line, unsigned int col,
	const char *words)
{
	struct wr_stream_file f;
	struct wr_error e;
	int rc = load(text, &f, &e);

	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.file, "h.yaml");
	CU_ASSERT_EQUAL(e.line, line);
	CU_ASSERT_EQUAL(e.col, col);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, words));
	if (rc != -EINVAL || e.line != line || e.col != col ||
	    strstr(e.msg, words) == NULL)
		fprintf(stderr, "\n%s:%u:%u: %s: %s (wanted %u:%u %s)\n", e.file,
			e.line, e.col, e.path, e.msg, line, col, words);
	if (rc == 0)
		wr_stream_file_free(&f);
}

static void
test_refusals(void)
{
	/* An unknown group, and the groups there are. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: hosts.nobody\n",
		15, 10, "no group of hosts is called \"nobody\" (groups: clients, far)");
	/* No hosts: at all. */
	refused("version: 1\nstreams:\n  - name: a\n    eth: {src: hosts.c}\n",
		4, 16, "the file declares none");
	/* A group on another port. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: hosts.far\n",
		15, 10, "group far is on port 1");
	/* A family the group has not. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    stack:\n      - eth\n"
		"      - ipv6: {src: hosts.clients}\n      - udp\n",
		17, 21, "group clients has no IPv6 address");
	/* A tag the group's hosts do not carry. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: hosts.clients\n"
		"    vlan: {id: hosts.clients}\n", 16, 16, "carry 0 VLAN tags");
	/* A tag given in its layer and by the stream's src: one place. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: hosts.clients\n"
		"    vlan: {id: 5}\n", 15, 10, "vlan.id is given in the layer too");
	/* A destination's group must join groups of the family. */
	refused(HOSTS_1000 "streams:\n  - name: a\n"
		"    ipv4: {dst: hosts.clients.groups}\n", 15, 17,
		"group clients joins no IPv4 groups (its igmp: is not given)");
	refused(HOSTS_1000 "streams:\n  - name: a\n    vlan: {id: hosts.clients}\n",
		15, 16, "carry 0 VLAN tags");
	/* The odometer would pair one host's MAC with another's address. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    vary: product\n"
		"    src: hosts.clients\n", 16, 10, "use vary: together");
	/* Fields hosts do not give. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    udp: {src: hosts.clients}\n",
		15, 16, "not udp.src here");
	refused(HOSTS_1000 "streams:\n  - name: a\n    stack:\n      - eth\n"
		"      - ipv4\n      - udp: {src: 4789}\n      - vxlan\n      - eth\n"
		"      - ipv4: {src: hosts.clients}\n      - udp\n",
		21, 21, "not ipv4.src here");
	/* A source is a group's hosts, a destination the groups they joined. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    ipv4: {dst: hosts.clients}\n",
		15, 17, "hosts.NAME.groups");
	refused(HOSTS_1000 "streams:\n  - name: a\n    eth: {src: hosts.clients.groups}\n",
		15, 16, "a source from hosts is hosts.NAME");
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: 02:00:00:00:00:09\n",
		15, 10, "expected hosts.NAME");
	/* Given twice. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: hosts.clients\n"
		"    eth: {src: 02:00:00:00:00:09}\n", 15, 10, "give it in one place");
	refused(HOSTS_1000 "streams:\n  - name: a\n    src: hosts.clients\n"
		"    eth: {src: port}\n", 15, 10, "give it in one place");
	/* One group gives a frame's sources. */
	refused(HOSTS_1000 "streams:\n  - name: a\n    port: 1\n"
		"    eth: {src: hosts.far}\n    ipv4: {src: hosts.clients}\n",
		17, 17, "from group far already (line 16)");
}

/* Frames 0..n-1 of @p s, from a template built once, @p first and
 * @p stride as a TX lcore of @p stride lcores has them. */
static void
frames(const struct wr_stream *s, uint64_t first, uint32_t stride,
       uint32_t n, uint8_t (*out)[128])
{
	struct wr_frame_tmpl *t = NULL;
	struct wr_frame_gen g;
	struct wr_error e;
	uint32_t k;

	CU_ASSERT_EQUAL_FATAL(wr_frame_tmpl_create(s, 0, &t, &e), 0);
	wr_frame_gen_init(&g, t, first, stride);
	for (k = 0; k < n; k++) {
		memcpy(out[k], wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
		wr_frame_gen_next(&g, out[k]);
	}
	wr_frame_tmpl_free(t);
}

static uint64_t
be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

/* 1,000 static hosts: frame k from host k mod 1000, MAC and IPv4 in
 * step, checksums right, the same bytes whatever the lcores. */
static void
test_static_v4(void)
{
	static uint8_t a[2100][128], b[1050][128];
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_stream *s;
	uint32_t k;

	CU_ASSERT_EQUAL_FATAL(load(HOSTS_1000 "streams:\n  - name: a\n"
				   "    ipv4: {src: hosts.clients, dst: 10.9.0.1}\n"
				   "    count: 5000\n", &f, &e), 0);
	s = &f.streams[0];
	CU_ASSERT_EQUAL(s->host_src, 1);
	CU_ASSERT_EQUAL(s->hosts_from, 1000);
	CU_ASSERT_FALSE(s->hosts_late);
	/* The template's own edits: INC ranges, MAC brought by the IP. */
	CU_ASSERT_EQUAL(wr_stream_field(s, "eth.src")->mode, WR_VARY_INC);
	CU_ASSERT_EQUAL(wr_stream_field(s, "ipv4.src")->mode, WR_VARY_INC);
	frames(s, 0, 1, 2100, a);
	for (k = 0; k < 2100; k++) {
		CU_ASSERT_EQUAL(be(a[k] + 6, 6), 0x021000000001ull + k % 1000);
		CU_ASSERT_EQUAL(be(a[k] + 26, 4), 0x0a00000aull + k % 1000);
		CU_ASSERT_EQUAL(be(a[k] + 30, 4), 0x0a090001ull);
		CU_ASSERT_EQUAL(ref_check(a[k], 60), 0);
	}
	/* Two TX lcores: the odd frames, byte for byte. */
	frames(s, 1, 2, 1050, b);
	for (k = 0; k < 1050; k++)
		CU_ASSERT_EQUAL(memcmp(b[k], a[2 * k + 1], 60), 0);
	wr_stream_file_free(&f);
}

/* QinQ hosts with a VLAN step, IPv6 static, a stack: every tag's ID, TPID
 * and PCP are the host's. */
static void
test_static_tags_v6(void)
{
	static uint8_t a[12][128];
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_stream *s;
	uint32_t k;

	CU_ASSERT_EQUAL_FATAL(load("version: 1\nhosts:\n  - name: q\n    port: 0\n"
		"    count: 6\n    mac: 02:30:00:00:00:10\n    mac_step: 16\n"
		"    vlan: [{id: 100, pcp: 3}, {id: 4089, step: 1}]\n"
		"    ipv6: {addr: 2001:db8::1:0, step: \"::100\"}\n"
		"streams:\n  - name: a\n    src: hosts.q\n    stack:\n"
		"      - eth\n      - vlan\n      - vlan\n"
		"      - ipv6: {dst: 2001:db8::99}\n      - udp\n    size: 128\n",
		&f, &e), 0);
	if (f.n_streams == 0) {
		fprintf(stderr, "\n%s:%u:%u: %s: %s\n", e.file, e.line, e.col,
			e.path, e.msg);
		return;
	}
	s = &f.streams[0];
	CU_ASSERT_EQUAL(s->layers[2].field[0].mode, WR_VARY_INC);
	frames(s, 0, 1, 12, a);
	for (k = 0; k < 12; k++) {
		CU_ASSERT_EQUAL(be(a[k] + 6, 6), 0x023000000010ull + 16 * (k % 6));
		CU_ASSERT_EQUAL(be(a[k] + 12, 2), 0x88a8);
		CU_ASSERT_EQUAL(be(a[k] + 14, 2), 3u << 13 | 100);
		CU_ASSERT_EQUAL(be(a[k] + 16, 2), 0x8100);
		CU_ASSERT_EQUAL(be(a[k] + 18, 2), 4089 + k % 6);
		CU_ASSERT_EQUAL(be(a[k] + 22 + 8, 8), 0x20010db800000000ull);
		CU_ASSERT_EQUAL(be(a[k] + 22 + 16, 8), 0x10000ull + 0x100 * (k % 6));
	}
	wr_stream_file_free(&f);
}

/* A DHCP group: the loader fills the MACs and leaves the IP for the
 * session; the fill takes the hosts that came up, in order, skips a
 * failed one and counts it. */
static void
test_late_fill(void)
{
	static uint8_t a[8][128];
	static struct wr_host h[6];
	struct wr_stream_file f;
	struct wr_error e;
	struct wr_stream *s;
	uint32_t k, want[3] = { 0, 2, 3 };

	CU_ASSERT_EQUAL_FATAL(load("version: 1\nhosts:\n  - name: stat\n    port: 0\n"
		"    count: 2\n    mac: 02:40:00:00:00:01\n"
		"    ipv4: {addr: 10.2.0.1}\n  - name: d\n    port: 0\n    count: 4\n"
		"    mac: 02:50:00:00:00:01\n    ipv4: dhcp\n"
		"streams:\n  - name: a\n    src: hosts.d\n"
		"    ipv4: {dst: 10.9.0.1}\n", &f, &e), 0);
	s = &f.streams[0];
	CU_ASSERT_TRUE(s->hosts_late);
	CU_ASSERT_EQUAL(s->hosts_from, 4);
	CU_ASSERT_EQUAL(wr_stream_field(s, "ipv4.src")->value, 0);
	CU_ASSERT_EQUAL(wr_stream_field(s, "eth.src")->mode, WR_VARY_INC);
	/* The port's table: two static hosts, then the DHCP group's four,
	 * its second one without a lease. */
	for (k = 0; k < 6; k++) {
		h[k].group = k < 2 ? 0 : 1;
		h[k].mac[0] = 0x02;
		h[k].mac[1] = k < 2 ? 0x40 : 0x50;
		h[k].mac[5] = (uint8_t)(k < 2 ? k + 1 : k - 1);
		h[k].ip4_state = k == 3 ? WR_IP4_NONE : WR_IP4_UP;
		h[k].ip4 = k == 3 ? 0 : 0x0a030000u + 100 + k;
	}
	CU_ASSERT_EQUAL_FATAL(wr_stream_hosts_fill(s, h, 6, sizeof(h[0]), &e), 0);
	CU_ASSERT_TRUE(s->hosts_filled);
	CU_ASSERT_TRUE(s->hosts_late);
	CU_ASSERT_EQUAL(s->hosts_from, 3);
	CU_ASSERT_EQUAL(s->hosts_skipped, 1);
	frames(s, 0, 1, 8, a);
	for (k = 0; k < 8; k++) {
		uint32_t host = want[k % 3];

		CU_ASSERT_EQUAL(be(a[k] + 6, 6), 0x025000000001ull + host);
		CU_ASSERT_EQUAL(be(a[k] + 26, 4), 0x0a030000u + 100 + 2 + host);
		CU_ASSERT_EQUAL(ref_check(a[k], 60), 0);
	}
	/* None up: the stream cannot send, and says why. */
	for (k = 0; k < 6; k++)
		h[k].ip4_state = WR_IP4_NONE;
	CU_ASSERT_EQUAL(wr_stream_hosts_fill(s, h, 6, sizeof(h[0]), &e), -EHOSTUNREACH);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "none of its 4 hosts came up"));
	wr_stream_file_free(&f);
}

/* A stream from one group to the groups another joins (on port 1,
 * behind a router): frame k to group k mod 4, its MAC by RFC 1112's
 * mapping; the source hosts in step beside it. */
static void
test_groups(void)
{
	static uint8_t a[8][128];
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_stream *s;
	uint32_t k, g[4] = { 0xef010101u, 0xef810101u, 0xe8010101u, 0xe8010201u };

	CU_ASSERT_EQUAL_FATAL(load("version: 1\nhosts:\n  - name: tx\n    port: 0\n"
		"    count: 3\n    mac: 02:60:00:00:00:01\n    ipv4: {addr: 10.5.0.1}\n"
		"  - name: rx\n    port: 1\n    count: 2\n    mac: 02:70:00:00:00:01\n"
		"    ipv4: {addr: 10.6.0.1}\n    igmp: {groups: ["
		"{group: 239.1.1.1, count: 2, step: 0.128.0.0}, "
		"{group: 232.1.1.1, count: 2, step: 0.0.1.0}]}\n"
		"streams:\n  - name: a\n    src: hosts.tx\n    dst: hosts.rx.groups\n",
		&f, &e), 0);
	s = &f.streams[0];
	CU_ASSERT_EQUAL(s->host_dst, 2);
	CU_ASSERT_EQUAL(s->host_src, 1);
	frames(s, 0, 1, 8, a);
	for (k = 0; k < 8; k++) {
		CU_ASSERT_EQUAL(be(a[k], 6), 0x01005e000000ull | (g[k % 4] & 0x7fffff));
		CU_ASSERT_EQUAL(be(a[k] + 6, 6), 0x026000000001ull + k % 3);
		CU_ASSERT_EQUAL(be(a[k] + 26, 4), 0x0a050001u + k % 3);
		CU_ASSERT_EQUAL(be(a[k] + 30, 4), g[k % 4]);
		CU_ASSERT_EQUAL(ref_check(a[k], 60), 0);
	}
	/* 239.1.1.1 and 239.129.1.1 share a MAC: RFC 1112 keeps 23 bits. */
	CU_ASSERT_EQUAL(be(a[0], 6), be(a[1], 6));
	wr_stream_file_free(&f);
	/* IPv6 groups from a group without mld:. */
	refused("version: 1\nhosts:\n  - name: rx\n    port: 0\n    count: 2\n"
		"    mac: 02:70:00:00:00:01\n    ipv4: {addr: 10.6.0.1}\n"
		"    igmp: {groups: [{group: 239.1.1.1}]}\nstreams:\n  - name: a\n"
		"    stack:\n      - eth\n      - ipv6: {dst: hosts.rx.groups}\n"
		"      - udp\n", 13, 21, "group rx joins no IPv6 groups (its mld: is not given)");
}

int
main(int argc, char **argv)
{
	static CU_TestInfo tests[] = {
		{ "refusals", test_refusals },
		{ "static_v4", test_static_v4 },
		{ "static_tags_v6", test_static_tags_v6 },
		{ "late_fill", test_late_fill },
		{ "groups", test_groups },
		CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
		{ .pName = "stream_hosts", .pTests = tests },
		CU_SUITE_INFO_NULL,
	};

	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of a stream file's tcp: key (wr_yaml_tcp.c): every key into the model, and each refusal with its file:line:col, key path and words. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wr_tcp_describe.h"
#include "wr_tcp_spec.h"
#include "wr_yaml.h"
#include "wr_test.h"
#include "wr_test_fixture.h"

#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))
#define MS 1000000ull
#define SEC 1000000000ull

/* Lines 1..8; a class's body starts at line 9. */
#define HOSTS \
	"version: 1\n" \
	"hosts:\n" \
	"  - {name: c, port: 0, count: 100, mac: 02:00:00:00:01:01, ipv4: {addr: 10.1.0.1, prefix: 16}}\n" \
	"  - {name: s, port: 1, count: 1, mac: 02:00:00:00:02:01, ipv4: {addr: 10.1.1.1, prefix: 16}}\n" \
	"  - {name: s6, port: 1, count: 2, mac: 02:00:00:00:03:01, ipv6: {addr: \"2001:db8::1\"}}\n" \
	"  - {name: far, port: 40, count: 1, mac: 02:00:00:00:04:01, ipv4: {addr: 10.9.0.1}}\n" \
	"  - {name: c0, port: 0, count: 10, mac: 02:00:00:00:05:01, ipv4: {addr: 10.1.0.50}}\n" \
	"tcp:\n"

static int
load_as(const char *name, const char *text, struct wr_stream_file *f,
	struct wr_error *e)
{
	return wr_yaml_load_streams_buf(name, text, strlen(text), f, e);
}

static int
load(const char *text, struct wr_stream_file *f, struct wr_error *e)
{
	return load_as("t.yaml", text, f, e);
}

/* Every key with a value other than its default. */
static void
test_model(void)
{
	static const char text[] = HOSTS
		"  - name: web\n"
		"    client: {hosts: c, sport: [2000, 3000]}\n"
		"    server: {hosts: s, port: 8080}\n"
		"    ip: 4\n"
		"    rate: 1.5k\n"
		"    ramp: 5s\n"
		"    concurrency: 5000\n"
		"    count: 1000000\n"
		"    http: {method: POST, path: /up/load, host: example.org, request_body: 1KB,\n"
		"           status: 201, body: 500MiB, requests: 3, think: 10ms, close: server}\n"
		"    data: pattern\n"
		"    tcp: {mss: 1400, wscale: 9, sack: false, timestamps: false, window: 1MiB,\n"
		"          init_cwnd: 4, rto_init: 2s, rto_min: 100ms, rto_max: 30s, syn_retries: 3,\n"
		"          retries: 6, time_wait: 0s, idle_timeout: 1m}\n";
	struct wr_stream_file f;
	const struct wr_tcp_class *c;
	struct wr_error e;
	int rc;

	rc = load(text, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	/* A tcp-only file: no stateless stream needed. */
	CU_ASSERT_EQUAL(f.n_streams, 0);
	CU_ASSERT_EQUAL_FATAL(f.tcp.n, 1);
	c = &f.tcp.classes[0];
	CU_ASSERT_STRING_EQUAL(c->name, "web");
	CU_ASSERT_EQUAL(c->where.line, 9);
	CU_ASSERT_EQUAL(c->where.col, 5);
	CU_ASSERT_TRUE(c->client.present);
	CU_ASSERT_STRING_EQUAL(c->client.hosts, "c");
	CU_ASSERT_EQUAL(c->client.group, 0);
	CU_ASSERT_EQUAL(c->client.port, 0);
	CU_ASSERT_EQUAL(c->client.sport_lo, 2000);
	CU_ASSERT_EQUAL(c->client.sport_hi, 3000);
	CU_ASSERT_EQUAL(c->client.where.line, 10);
	CU_ASSERT_EQUAL(c->client.where.col, 13);
	CU_ASSERT_TRUE(c->server.present);
	CU_ASSERT_STRING_EQUAL(c->server.hosts, "s");
	CU_ASSERT_EQUAL(c->server.group, 1);
	CU_ASSERT_EQUAL(c->server.port, 1);
	CU_ASSERT_EQUAL(c->server.dport, 8080);
	CU_ASSERT_EQUAL(c->server.n_addr, 0);
	CU_ASSERT_EQUAL(c->ip, 4);
	CU_ASSERT_EQUAL(c->rate_milli, 1500000);
	CU_ASSERT_EQUAL(c->ramp_ns, 5 * SEC);
	CU_ASSERT_EQUAL(c->concurrency, 5000);
	CU_ASSERT_EQUAL(c->count, 1000000);
	CU_ASSERT_EQUAL(c->duration_ns, 0);
	CU_ASSERT_TRUE(c->is_http);
	CU_ASSERT_STRING_EQUAL(c->http.method, "POST");
	CU_ASSERT_STRING_EQUAL(c->http.path, "/up/load");
	CU_ASSERT_STRING_EQUAL(c->http.host, "example.org");
	CU_ASSERT_EQUAL(c->http.request_body, 1000);
	CU_ASSERT_EQUAL(c->http.status, 201);
	CU_ASSERT_EQUAL(c->http.response_body, 500ull << 20);
	CU_ASSERT_EQUAL(c->http.requests, 3);
	CU_ASSERT_EQUAL(c->http.think_ns, 10 * MS);
	CU_ASSERT_TRUE(c->http.close_by_server);
	CU_ASSERT_EQUAL(c->n_steps, 0);
	CU_ASSERT_EQUAL(c->data, WR_TCP_DATA_PATTERN);
	CU_ASSERT_EQUAL(c->tcp.mss, 1400);
	CU_ASSERT_EQUAL(c->tcp.wscale, 9);
	CU_ASSERT_FALSE(c->tcp.sack);
	CU_ASSERT_FALSE(c->tcp.timestamps);
	CU_ASSERT_EQUAL(c->tcp.window, 1u << 20);
	CU_ASSERT_EQUAL(c->tcp.init_cwnd, 4);
	CU_ASSERT_EQUAL(c->tcp.rto_init_ns, 2 * SEC);
	CU_ASSERT_EQUAL(c->tcp.rto_min_ns, 100 * MS);
	CU_ASSERT_EQUAL(c->tcp.rto_max_ns, 30 * SEC);
	CU_ASSERT_EQUAL(c->tcp.syn_retries, 3);
	CU_ASSERT_EQUAL(c->tcp.retries, 6);
	CU_ASSERT_EQUAL(c->tcp.time_wait_ns, 0);
	CU_ASSERT_EQUAL(c->tcp.idle_timeout_ns, 60 * SEC);
	wr_stream_file_free(&f);
}

/* A class of nothing but its ends: every default of wr_tcp_spec.c. */
static void
test_defaults(void)
{
	static const char text[] = HOSTS
		"  - name: d\n"
		"    client: {hosts: c}\n"
		"    server: {hosts: s}\n"
		"streams:\n  - name: x\n";
	struct wr_stream_file f;
	struct wr_tcp_class d;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load(text, &f, &e), 0);
	CU_ASSERT_EQUAL(f.n_streams, 1);
	wr_tcp_class_defaults(&d);
	/* What the loader sets beyond the defaults. */
	strcpy(d.name, "d");
	d.where = f.tcp.classes[0].where;
	d.client = f.tcp.classes[0].client;
	d.server = f.tcp.classes[0].server;
	d.is_http = true;
	CU_ASSERT_EQUAL(memcmp(&d, &f.tcp.classes[0], sizeof(d)), 0);
	CU_ASSERT_EQUAL(d.client.sport_lo, 1024);
	CU_ASSERT_EQUAL(d.client.sport_hi, 65535);
	CU_ASSERT_EQUAL(d.server.dport, 80);
	CU_ASSERT_EQUAL(d.ip, 4);
	CU_ASSERT_EQUAL(d.concurrency, 1u << 20);
	CU_ASSERT_EQUAL(d.rate_milli, 0);
	CU_ASSERT_EQUAL(d.count, 0);
	CU_ASSERT_EQUAL(d.duration_ns, 0);
	CU_ASSERT_STRING_EQUAL(d.http.method, "GET");
	CU_ASSERT_EQUAL(d.http.response_body, 64);
	CU_ASSERT_EQUAL(d.tcp.mss, 1460);
	CU_ASSERT_EQUAL(d.tcp.window, 256 * 1024);
	wr_stream_file_free(&f);
}

/* A raw program in every step form; IPv6 by the hosts; a real server. */
static void
test_program(void)
{
	static const char text[] = HOSTS
		"  - name: raw\n"
		"    client: {hosts: c, sport: 5000}\n"
		"    server: {addr: [10.2.0.1, 10.2.0.2], port: 9}\n"
		"    duration: 30s\n"
		"    rate: 10000/s\n"
		"    program:\n"
		"      - send: 64\n"
		"      - recv: 1MB\n"
		"      - think: 250us\n"
		"      - close: {by: server, with: fin}\n"
		"      - send: 10\n"
		"      - close: rst\n"
		"  - name: six\n"
		"    server: {hosts: s6, port: 443}\n"
		"    program: [{recv: until_close}]\n"
		"  - name: one\n"
		"    client: {hosts: c0}\n"
		"    server: {addr: \"2001:db8:1::5\", port: 80}\n"
		"    ip: 6\n"
		"    rate: 2M\n";
	static const char text6[] = HOSTS
		"  - name: one\n"
		"    client: {hosts: s6}\n"
		"    server: {addr: \"2001:db8:1::5\"}\n"
		"    rate: 0.5\n";
	struct wr_stream_file f;
	const struct wr_tcp_class *c;
	struct wr_error e;
	int rc;

	rc = load(text, &f, &e);
	/* c0 has no IPv6 address: the third class is refused. */
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_EQUAL(e.line, 25);
	CU_ASSERT_STRING_EQUAL(e.path, "tcp[2].client.hosts");
	CU_ASSERT_STRING_EQUAL(e.msg, "hosts \"c0\" have no IPv6 address (the "
			       "class's ip: 6): expected a group with ipv6:");
	rc = load(text6, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	c = &f.tcp.classes[0];
	CU_ASSERT_EQUAL(c->ip, 6);
	CU_ASSERT_EQUAL(c->tcp.mss, 1440);
	CU_ASSERT_EQUAL(c->rate_milli, 500);
	CU_ASSERT_EQUAL(c->server.n_addr, 1);
	CU_ASSERT_TRUE(c->server.addr[0] == A6(0x20010db800010000ull, 5));
	CU_ASSERT_EQUAL(c->server.group, -1);
	CU_ASSERT_FALSE(c->server.present);
	wr_stream_file_free(&f);

	/* The first two classes alone. */
	{
		char *t = strdup(text);

		*strstr(t, "  - name: one") = '\0';
		rc = load(t, &f, &e);
		free(t);
	}
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL_FATAL(f.tcp.n, 2);
	c = &f.tcp.classes[0];
	CU_ASSERT_EQUAL(c->client.sport_lo, 5000);
	CU_ASSERT_EQUAL(c->client.sport_hi, 5000);
	CU_ASSERT_FALSE(c->server.present);
	CU_ASSERT_EQUAL(c->server.n_addr, 2);
	CU_ASSERT_TRUE(c->server.addr[0] == 0x0a020001);
	CU_ASSERT_TRUE(c->server.addr[1] == 0x0a020002);
	CU_ASSERT_EQUAL(c->server.dport, 9);
	CU_ASSERT_EQUAL(c->duration_ns, 30 * SEC);
	CU_ASSERT_EQUAL(c->rate_milli, 10000000);
	CU_ASSERT_FALSE(c->is_http);
	CU_ASSERT_EQUAL_FATAL(c->n_steps, 6);
	CU_ASSERT_TRUE(c->steps[0].op == WR_TCP_OP_SEND && c->steps[0].by == WR_TCP_CLIENT &&
		       c->steps[0].bytes == 64);
	CU_ASSERT_EQUAL(c->steps[0].where.line, 15);
	CU_ASSERT_EQUAL(c->steps[0].where.col, 9);
	CU_ASSERT_TRUE(c->steps[1].op == WR_TCP_OP_SEND && c->steps[1].by == WR_TCP_SERVER &&
		       c->steps[1].bytes == 1000000);
	CU_ASSERT_TRUE(c->steps[2].op == WR_TCP_OP_THINK && c->steps[2].ns == 250000);
	CU_ASSERT_TRUE(c->steps[3].op == WR_TCP_OP_CLOSE && c->steps[3].by == WR_TCP_SERVER &&
		       !c->steps[3].rst);
	/* After the server's FIN the client still sends: a half close. */
	CU_ASSERT_TRUE(c->steps[4].op == WR_TCP_OP_SEND && c->steps[4].by == WR_TCP_CLIENT &&
		       c->steps[4].bytes == 10);
	CU_ASSERT_TRUE(c->steps[5].op == WR_TCP_OP_CLOSE && c->steps[5].by == WR_TCP_CLIENT &&
		       c->steps[5].rst);
	c = &f.tcp.classes[1];
	CU_ASSERT_FALSE(c->client.present);
	CU_ASSERT_TRUE(c->server.present);
	CU_ASSERT_EQUAL(c->server.group, 2);
	CU_ASSERT_EQUAL(c->server.port, 1);
	CU_ASSERT_EQUAL(c->server.dport, 443);
	CU_ASSERT_EQUAL(c->ip, 6);
	CU_ASSERT_EQUAL(c->n_steps, 1);
	CU_ASSERT_TRUE(c->steps[0].by == WR_TCP_SERVER && c->steps[0].bytes == WR_TCP_UNTIL_CLOSE);
	CU_ASSERT_TRUE(wr_tcp_specs_on_port(&f.tcp, 1, WR_TCP_SERVER));
	CU_ASSERT_FALSE(wr_tcp_specs_on_port(&f.tcp, 1, WR_TCP_CLIENT));
	CU_ASSERT_TRUE(wr_tcp_specs_on_port(&f.tcp, 0, WR_TCP_CLIENT));
	CU_ASSERT_EQUAL(wr_tcp_specs_find(&f.tcp, "six"), 1);
	wr_stream_file_free(&f);
}

/* A client and a server group with one address range on one port: on
 * two VLANs they are two links, accepted; on one, refused. */
static void
test_overlap_vlans(void)
{
	static const char fmt[] = "version: 1\nhosts:\n"
		"  - {name: a, port: 0, count: 10, mac: 02:00:00:00:01:01, vlan: [10],\n"
		"     ipv4: {addr: 10.1.0.1}}\n"
		"  - {name: b, port: 0, count: 1, mac: 02:00:00:00:02:01, vlan: [%d],\n"
		"     ipv4: {addr: 10.1.0.5}}\n"
		"tcp:\n  - {name: x, client: {hosts: a}, server: {hosts: b}}\n";
	char text[1024];
	struct wr_stream_file f;
	struct wr_error e;

	snprintf(text, sizeof(text), fmt, 20);
	CU_ASSERT_EQUAL(load(text, &f, &e), 0);
	wr_stream_file_free(&f);
	snprintf(text, sizeof(text), fmt, 10);
	CU_ASSERT_EQUAL(load(text, &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "tcp[0].server.hosts");
	CU_ASSERT_EQUAL(e.line, 8);
	/* 10.1.0.1 + 2k never meets 10.1.0.6 alone (interleaved). */
	CU_ASSERT_EQUAL(load("version: 1\nhosts:\n"
		"  - {name: a, port: 0, count: 10, mac: 02:00:00:00:01:01,\n"
		"     ipv4: {addr: 10.1.0.1, step: 2}}\n"
		"  - {name: b, port: 0, count: 1, mac: 02:00:00:00:02:01,\n"
		"     ipv4: {addr: 10.1.0.6}}\n"
		"tcp:\n  - {name: x, client: {hosts: a}, server: {hosts: b}}\n",
		&f, &e), 0);
	wr_stream_file_free(&f);
}

/* data: {file:} from the stream file's folder, read and sized at load. */
static void
test_data_file(void)
{
	char dir[] = "/tmp/wr_tcp_yaml_XXXXXX", path[256], name[256];
	static const char body[] = HOSTS
		"  - name: f\n"
		"    client: {hosts: c}\n"
		"    server: {hosts: s}\n"
		"    data: {file: %s}\n";
	char text[2048];
	struct wr_stream_file f;
	struct wr_error e;
	FILE *fp;
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/blob.bin", dir);
	snprintf(name, sizeof(name), "%s/t.yaml", dir);
	fp = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fwrite("0123456789", 1, 10, fp);
	fclose(fp);
	snprintf(text, sizeof(text), body, "blob.bin");
	rc = load_as(name, text, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(f.tcp.classes[0].data, WR_TCP_DATA_FILE);
	CU_ASSERT_STRING_EQUAL(f.tcp.classes[0].data_file, path);
	CU_ASSERT_EQUAL(f.tcp.classes[0].data_size, 10);
	wr_stream_file_free(&f);
	/* Absent, or empty: refused at the key. */
	snprintf(text, sizeof(text), body, "nope.bin");
	CU_ASSERT_EQUAL(load_as(name, text, &f, &e), -EINVAL);
	CU_ASSERT_EQUAL(e.line, 12);
	CU_ASSERT_EQUAL(e.col, 18);
	CU_ASSERT_STRING_EQUAL(e.path, "tcp[0].data.file");
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nope.bin: "));
	fp = fopen(path, "w");
	fclose(fp);
	snprintf(text, sizeof(text), body, "blob.bin");
	CU_ASSERT_EQUAL(load_as(name, text, &f, &e), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "is empty: expected the bytes to send"));
	/* A server's client names no file. */
	CU_ASSERT_EQUAL(wr_yaml_load_streams_at(name, text, strlen(text),
		WR_YAML_PCAP_NONE, &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.msg, "this server reads no file a client names: "
			       "expected data: pattern");
	unlink(path);
	rmdir(dir);
}

/* One refusal: a class's body (indented 4, from line 9) in place of @p body. */
struct refusal {
	const char *body;
	unsigned int line;
	unsigned int col;
	const char *path;
	const char *msg;        /**< the whole message */
};

#define C(extra) "  - name: web\n    client: {hosts: c}\n    server: {hosts: s, port: 80}\n" extra
#define P(steps) C("    program: " steps "\n")

static const struct refusal refusals[] = {
	{ "  - client: {hosts: c}\n", 9, 5, "tcp[0]", "missing required key \"name\"" },
	{ C("    colour: red\n"), 12, 5, "tcp[0].colour",
	  "unknown key \"colour\"; expected one of: name, client, server, ip, rate, ramp, "
	  "concurrency, count, duration, http, program, data, tcp" },
	{ "  - name: \"a b\"\n    client: {hosts: c}\n", 9, 11, "tcp[0].name",
	  "expected a name of 1 to 31 letters, digits, '_', '.' or '-', got \"a b\"" },
	{ "  - name: x\n", 9, 5, "tcp[0]",
	  "expected client: (emulated clients), server: {hosts, port} (an emulated server), or both" },
	{ "  - name: x\n    server: {port: 80}\n", 10, 13, "tcp[0].server",
	  "expected hosts: (an emulated server) or addr: (a real one)" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {hosts: s, addr: 10.0.0.1}\n",
	  11, 30, "tcp[0].server.addr",
	  "a server is emulated on hosts: or a real one at addr:, not both" },
	{ "  - name: x\n    client: {hosts: nobody}\n", 10, 21, "tcp[0].client.hosts",
	  "expected the name of a group of hosts:, got \"nobody\"" },
	{ "  - name: x\n    client: {hosts: far}\n", 10, 21, "tcp[0].client.hosts",
	  "hosts \"far\" are on port 40: a run has ports 0..31" },
	{ "  - name: x\n    client: {sport: 80}\n", 10, 13, "tcp[0].client",
	  "missing required key \"hosts\"" },
	{ "  - name: x\n    client: {hosts: c, port: 80}\n", 10, 24, "tcp[0].client.port",
	  "unknown key \"port\"; expected one of: hosts, sport" },
	{ "  - name: x\n    client: {hosts: c, sport: [3000, 2000]}\n", 10, 31,
	  "tcp[0].client.sport", "expected a range [lo, hi] with lo <= hi, got [3000, 2000]" },
	{ "  - name: x\n    client: {hosts: c, sport: [0, 2000]}\n", 10, 32,
	  "tcp[0].client.sport", "expected an integer in 1..65535, got \"0\"" },
	{ "  - name: x\n    client: {hosts: c, sport: [1, 2, 3]}\n", 10, 31,
	  "tcp[0].client.sport", "expected a source port, or a range [lo, hi], got a sequence" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {hosts: s, port: 70000}\n",
	  11, 30, "tcp[0].server.port", "expected an integer in 1..65535, got \"70000\"" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {addr: 10.0.0.256}\n",
	  11, 20, "tcp[0].server.addr", "expected an IPv4 address (ip: 4), got \"10.0.0.256\"" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {addr: [10.0.0.1, \"::1\"]}\n",
	  11, 31, "tcp[0].server.addr[1]", "expected an IPv4 address (ip: 4), got \"::1\"" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {addr: []}\n",
	  11, 20, "tcp[0].server.addr", "expected 1..64 server addresses, got 0" },
	{ C("    ip: 5\n"), 12, 9, "tcp[0].ip", "expected 4 or 6, got \"5\"" },
	{ C("    ip: 6\n"), 10, 21, "tcp[0].client.hosts",
	  "hosts \"c\" have no IPv6 address (the class's ip: 6): expected a group with ipv6:" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {hosts: s6}\n    ip: 4\n",
	  11, 21, "tcp[0].server.hosts",
	  "hosts \"s6\" have no IPv4 address (the class's ip: 4): expected a group with ipv4:" },
	{ "  - name: x\n    client: {hosts: c}\n    server: {hosts: c0}\n", 11, 21,
	  "tcp[0].server.hosts", "server hosts \"c0\" share IPv4 addresses with client hosts "
	  "\"c\" on port 0: expected a client and a server of their own" },
	{ C("    rate: fast\n"), 12, 11, "tcp[0].rate",
	  "expected a rate in connections a second such as 10000, 10k or 1.5M (or max), got \"fast\"" },
	{ C("    rate: 0\n"), 12, 11, "tcp[0].rate",
	  "expected a rate in connections a second such as 10000, 10k or 1.5M (or max), got \"0\"" },
	{ C("    rate: 10 Mpps\n"), 12, 11, "tcp[0].rate",
	  "expected a rate in connections a second such as 10000, 10k or 1.5M (or max), got \"10 Mpps\"" },
	{ C("    ramp: 5s\n"), 12, 11, "tcp[0].ramp",
	  "a ramp reaches a rate: expected rate: (not max) with it" },
	{ C("    rate: 10\n    ramp: 0s\n"), 13, 11, "tcp[0].ramp",
	  "expected a duration of 1ns..3600s, got \"0s\"" },
	{ C("    concurrency: 0\n"), 12, 18, "tcp[0].concurrency",
	  "expected an integer in 1..4294967295, got \"0\"" },
	{ C("    count: 0\n"), 12, 12, "tcp[0].count",
	  "expected an integer in 1..18446744073709551615, got \"0\"" },
	{ C("    count: 10\n    duration: 5s\n"), 13, 15, "tcp[0].duration",
	  "count: and duration: both given: a class ends by one of them (or, with neither, "
	  "by the run's --duration)" },
	{ C("    duration: soon\n"), 12, 15, "tcp[0].duration",
	  "expected a duration such as \"5\", \"2.5\", \"5s\", \"500ms\" or \"1m\", got \"soon\"" },
	{ "  - name: x\n    server: {hosts: s}\n    rate: 100\n", 11, 11, "tcp[0].rate",
	  "a server alone opens no connections: rate: is for a class with client:" },
	{ "  - name: x\n    server: {hosts: s}\n    count: 100\n", 11, 12, "tcp[0].count",
	  "a server alone opens no connections: count: is for a class with client:" },
	{ C("    http: {}\n    program: [{send: 1}]\n"), 13, 14, "tcp[0].program",
	  "a class speaks http: or runs a program:, not both" },
	{ C("    http: {verb: GET}\n"), 12, 12, "tcp[0].http.verb",
	  "unknown key \"verb\"; expected one of: method, path, host, request_body, status, "
	  "body, requests, think, close" },
	{ C("    http: {method: get}\n"), 12, 20, "tcp[0].http.method",
	  "expected an HTTP method of 1 to 15 capitals (GET, POST, ...), got \"get\"" },
	{ C("    http: {path: index.html}\n"), 12, 18, "tcp[0].http.path",
	  "expected a path that starts with / (or *), got \"index.html\"" },
	{ C("    http: {path: \"/a b\"}\n"), 12, 18, "tcp[0].http.path",
	  "expected 1..255 visible ASCII characters (no spaces), got \"/a b\"" },
	{ C("    http: {status: 99}\n"), 12, 20, "tcp[0].http.status",
	  "expected an integer in 100..599, got \"99\"" },
	{ C("    http: {body: lots}\n"), 12, 18, "tcp[0].http.body",
	  "expected a size such as \"512 MiB\", \"10MB\" or \"4096\", got \"lots\"" },
	{ C("    http: {requests: 0}\n"), 12, 22, "tcp[0].http.requests",
	  "expected an integer in 1..4294967295, got \"0\"" },
	{ C("    http: {close: both}\n"), 12, 19, "tcp[0].http.close",
	  "expected client or server, got \"both\"" },
	{ C("    http: {think: 2h}\n"), 12, 19, "tcp[0].http.think",
	  "expected a duration of 0..3600s, got \"2h\"" },
	{ P("[]"), 12, 14, "tcp[0].program",
	  "expected a list of 1..32 steps (send, recv, think, close), got a sequence" },
	{ P("[{send: 1, recv: 2}]"), 12, 25, "tcp[0].program[0].recv",
	  "expected one key, got both \"send\" and \"recv\"" },
	{ P("[{shout: 1}]"), 12, 16, "tcp[0].program[0].shout",
	  "unknown key \"shout\"; expected one of: send, recv, think, close" },
	{ P("[{send: 0}]"), 12, 22, "tcp[0].program[0].send",
	  "expected a size of 1..281474976710656 bytes, got \"0\"" },
	{ P("[{recv: forever}]"), 12, 22, "tcp[0].program[0].recv",
	  "expected a size such as \"512 MiB\", \"10MB\" or \"4096\", got \"forever\"" },
	{ P("[{think: 1x}]"), 12, 23, "tcp[0].program[0].think",
	  "expected a duration such as \"5\", \"2.5\", \"5s\", \"500ms\" or \"1m\", got \"1x\"" },
	{ P("[{close: soft}]"), 12, 23, "tcp[0].program[0].close",
	  "expected fin, rst, or a mapping {by: client|server, with: fin|rst}, got \"soft\"" },
	{ P("[{close: {by: both}}]"), 12, 28, "tcp[0].program[0].close.by",
	  "expected client or server, got \"both\"" },
	{ P("[{close: {with: ack}}]"), 12, 30, "tcp[0].program[0].close.with",
	  "expected fin or rst, got \"ack\"" },
	{ P("[{close: rst}, {send: 1}]"), 12, 29, "tcp[0].program[1]",
	  "a program that no side can finish: steps[0] aborts the connection (rst), so "
	  "nothing can follow it" },
	{ P("[{send: until_close}, {recv: 1}]"), 12, 36, "tcp[0].program[1]",
	  "a program that no side can finish: steps[0]'s client sends until the connection "
	  "closes, so no step can follow it" },
	{ P("[{close: fin}, {send: 1}]"), 12, 29, "tcp[0].program[1]",
	  "the client closed its side at steps[0]: it can send nothing after" },
	{ P("[{close: {by: server}}, {close: {by: server}}]"), 12, 38, "tcp[0].program[1]",
	  "the server closed its side at steps[0]: it can not close again" },
	{ P("[{think: 1s}]"), 12, 14, "tcp[0].program",
	  "a program of think steps alone sends nothing: expected a send, recv or close step" },
	{ C("    count: 5\n    program: [{send: 1}, {recv: until_close}]\n"), 12, 12,
	  "tcp[0].count", "a program that no side can finish: the server sends until the close "
	  "and the emulated client never closes, so no connection ends and count: is never "
	  "reached: expected duration: instead" },
	{ C("    data: random\n"), 12, 11, "tcp[0].data",
	  "expected pattern or {file: PATH}, got \"random\"" },
	{ C("    data: {path: x}\n"), 12, 12, "tcp[0].data.path",
	  "unknown key \"path\"; expected one of: file" },
	{ C("    tcp: {mss: 87}\n"), 12, 16, "tcp[0].tcp.mss",
	  "expected an integer in 88..9000, got \"87\"" },
	{ C("    tcp: {mss: 9001}\n"), 12, 16, "tcp[0].tcp.mss",
	  "expected an integer in 88..9000, got \"9001\"" },
	{ C("    tcp: {wscale: 15}\n"), 12, 19, "tcp[0].tcp.wscale",
	  "expected an integer in 0..14, got \"15\"" },
	{ C("    tcp: {sack: yes}\n"), 12, 17, "tcp[0].tcp.sack",
	  "expected true or false, got \"yes\"" },
	{ C("    tcp: {window: 1MB, wscale: 2}\n"), 12, 19, "tcp[0].tcp.window",
	  "a window of 1000000 bytes needs a larger wscale: at most 262140 with wscale 2" },
	{ C("    tcp: {window: 1000}\n"), 12, 19, "tcp[0].tcp.window",
	  "a window of 1000 bytes is less than one segment (mss 1460)" },
	{ C("    tcp: {init_cwnd: 0}\n"), 12, 22, "tcp[0].tcp.init_cwnd",
	  "expected an integer in 1..1000, got \"0\"" },
	{ C("    tcp: {rto_min: 2s}\n"), 12, 20, "tcp[0].tcp.rto_min",
	  "expected rto_min <= rto_init <= rto_max, got 2000ms, 1000ms, 60000ms" },
	{ C("    tcp: {rto_init: 0s}\n"), 12, 21, "tcp[0].tcp.rto_init",
	  "expected a duration of 1ms..600s, got \"0s\"" },
	{ C("    tcp: {syn_retries: 21}\n"), 12, 24, "tcp[0].tcp.syn_retries",
	  "expected an integer in 0..20, got \"21\"" },
	{ C("    tcp: {retries: 0}\n"), 12, 20, "tcp[0].tcp.retries",
	  "expected an integer in 1..50, got \"0\"" },
	{ C("    tcp: {keepalive: 1}\n"), 12, 11, "tcp[0].tcp.keepalive",
	  "unknown key \"keepalive\"; expected one of: mss, wscale, sack, timestamps, window, "
	  "init_cwnd, rto_init, rto_min, rto_max, syn_retries, retries, time_wait, idle_timeout" },
	{ C("  - name: web\n    server: {hosts: s, port: 81}\n"),
	  12, 11, "tcp[1].name", "duplicate tcp class name \"web\" (first at line 9)" },
	{ C("  - name: web2\n    client: {hosts: c0}\n    server: {hosts: s, port: 80}\n"),
	  14, 13, "tcp[1].server", "class \"web\" (line 9) already serves port 80 on hosts "
	  "\"s\": expected another port or other hosts" },
};

static void
test_refusals(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	char text[2048];
	size_t i;

	CU_ASSERT(sizeof(refusals) / sizeof(refusals[0]) >= 40);
	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		int rc;

		snprintf(text, sizeof(text), HOSTS "%s", r->body);
		rc = load(text, &f, &e);
		if (rc != -EINVAL || e.line != r->line || e.col != r->col ||
		    strcmp(e.path, r->path) != 0 || strcmp(e.msg, r->msg) != 0) {
			printf("\nrefusal %zu: rc %d ", i, rc);
			wr_test_print_error(&e);
		}
		CU_ASSERT_EQUAL(rc, -EINVAL);
		CU_ASSERT_STRING_EQUAL(e.file, "t.yaml");
		CU_ASSERT_EQUAL(e.line, r->line);
		CU_ASSERT_EQUAL(e.col, r->col);
		CU_ASSERT_STRING_EQUAL(e.path, r->path);
		CU_ASSERT_STRING_EQUAL(e.msg, r->msg);
	}
}

/* The top level: a list, not too long; a file of neither streams nor tcp. */
static void
test_top(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL(load(HOSTS "  {}\n", &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "tcp");
	CU_ASSERT_STRING_EQUAL(e.msg, "expected a list of tcp classes, got a mapping");
	CU_ASSERT_EQUAL(load("version: 1\n", &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.msg, "missing required key \"streams\"");
}

#ifndef WR_STREAMS
#define WR_STREAMS "streams"
#endif

static int
load_shipped(const char *name, struct wr_stream_file *f, struct wr_error *e)
{
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/%s", WR_STREAMS, name);
	rc = wr_yaml_load_streams(path, f, e);
	if (rc != 0)
		wr_test_print_error(e);
	return rc;
}

/* The shipped tcp-*.yaml say what their comments say. */
static void
test_shipped(void)
{
	struct wr_stream_file f;
	const struct wr_tcp_class *c;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_shipped("tcp-transfer.yaml", &f, &e), 0);
	c = &f.tcp.classes[0];
	CU_ASSERT_EQUAL(f.n_streams, 0);
	CU_ASSERT_EQUAL(f.tcp.n, 1);
	CU_ASSERT_EQUAL(c->count, 1);
	CU_ASSERT_EQUAL_FATAL(c->n_steps, 2);
	/* Seed 002's file: dd bs=1k count=500k. */
	CU_ASSERT_EQUAL(c->steps[0].bytes, 524288000ull);
	CU_ASSERT_EQUAL(c->steps[0].by, WR_TCP_CLIENT);
	CU_ASSERT_TRUE(c->steps[1].op == WR_TCP_OP_CLOSE && !c->steps[1].rst);
	CU_ASSERT_TRUE(c->server.addr[0] == 0x0a000202 && c->server.dport == 1234);
	CU_ASSERT_EQUAL(c->client.sport_lo, 40000);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL_FATAL(load_shipped("tcp-http.yaml", &f, &e), 0);
	c = &f.tcp.classes[0];
	CU_ASSERT_TRUE(c->client.port == 0 && c->server.port == 1);
	CU_ASSERT_EQUAL(c->rate_milli, 10000000);
	CU_ASSERT_EQUAL(c->duration_ns, 30 * SEC);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL_FATAL(load_shipped("tcp-http-client.yaml", &f, &e), 0);
	c = &f.tcp.classes[0];
	CU_ASSERT_TRUE(!c->server.present && c->server.n_addr == 1);
	CU_ASSERT_EQUAL(c->http.requests, 2);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL_FATAL(load_shipped("tcp-server.yaml", &f, &e), 0);
	c = &f.tcp.classes[0];
	CU_ASSERT_TRUE(!c->client.present && c->server.present);
	CU_ASSERT_EQUAL(c->http.response_body, 1ull << 20);
	wr_stream_file_free(&f);
}

/* check's words and dump's heads for a shipped file and a raw program. */
static void
test_describe(void)
{
	static const char raw[] = HOSTS
		"  - name: raw\n"
		"    client: {hosts: c, sport: 5000}\n"
		"    server: {hosts: s, port: 9}\n"
		"    duration: 30s\n"
		"    program: [{send: 1MiB}, {recv: 3}, {think: 250us}, {close: {by: server}}]\n";
	static char buf[WR_TCP_DESCRIBE_MAX];
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_shipped("tcp-http.yaml", &f, &e), 0);
	wr_tcp_describe_class(&f.tcp.classes[0], &f.hosts, "", buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "tcp class web (line 26): HTTP/1.1 over IPv4\n"
		"  clients: hosts clients on port 0, 254 hosts, 10.10.0.1..10.10.0.254; "
		"source ports 1024..65535\n"
		"  server: hosts server on port 1, 1 host, 10.10.255.1; listens on TCP port 80\n"
		"  opens 10000 connections/s, reached linearly over 2 s, at most 10000 open at "
		"once, for 30 s\n"));
	CU_ASSERT_EQUAL_FATAL(wr_tcp_describe_wire(&f.tcp.classes[0], &f.hosts, "", buf,
						   sizeof(buf), &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  client SYN: from port 1024..65535 to "
		"10.10.255.1 port 80, window 65535 (a SYN's is never scaled, RFC 7323 2.2), "
		"options: MSS 1460, SACK permitted, timestamps, window scale 7\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "      GET /index.html HTTP/1.1\\r\\n\n"
				      "      Host: 10.10.255.1\\r\\n\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "      HTTP/1.1 200 OK\\r\\n\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "      Content-Length: 64\\r\\n\n"));
	wr_stream_file_free(&f);

	CU_ASSERT_EQUAL_FATAL(load(raw, &f, &e), 0);
	wr_tcp_describe_class(&f.tcp.classes[0], &f.hosts, "", buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  program, in order:\n"
		"    1. the client sends 1048576 B (1 MiB), the server takes them\n"
		"    2. the server sends 3 B, the client takes them\n"
		"    3. the side that acts next waits 250 us\n"
		"    4. the server closes its side (FIN)\n"
		"    then the client closes (FIN)\n"));
	CU_ASSERT_EQUAL_FATAL(wr_tcp_describe_wire(&f.tcp.classes[0], &f.hosts, "", buf,
						   sizeof(buf), &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  client's send 1: 1048576 B (1 MiB), first "
		"bytes: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"
		"  server's send 1: 3 B, first bytes: 00 01 02\n"));
	wr_stream_file_free(&f);
}

#ifndef WR_DOC
#define WR_DOC "doc"
#endif

/* doc/tcp.md's example loads as its Keys section says; a size with a
 * fraction is refused as it says. */
static void
test_doc_example(void)
{
	char *text, *start, *end;
	struct wr_stream_file f;
	struct wr_error e;
	size_t len;
	FILE *fp = fopen(WR_DOC "/tcp.md", "r");
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	text = calloc(1, 1 << 20);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	len = fread(text, 1, (1 << 20) - 1, fp);
	fclose(fp);
	CU_ASSERT(len > 0);
	start = strstr(text, "## Keys");
	CU_ASSERT_PTR_NOT_NULL_FATAL(start);
	start = strstr(start, "```yaml\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(start);
	start += 8;
	end = strstr(start, "```");
	CU_ASSERT_PTR_NOT_NULL_FATAL(end);
	*end = '\0';
	rc = load(start, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(f.tcp.n, 1);
	CU_ASSERT_EQUAL(f.tcp.classes[0].rate_milli, 10000000);
	CU_ASSERT_EQUAL(f.tcp.classes[0].ramp_ns, 5 * SEC);
	CU_ASSERT_EQUAL(f.tcp.classes[0].tcp.window, 262144);
	wr_stream_file_free(&f);
	free(text);
	CU_ASSERT_EQUAL(load(HOSTS "  - {name: x, client: {hosts: c}, server: {hosts: s},\n"
			     "     http: {body: 1.5 MB}}\n", &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "tcp[0].http.body");
	CU_ASSERT_EQUAL(load(HOSTS "  - {name: x, client: {hosts: c}, server: {hosts: s},\n"
			     "     http: {body: 1 KiB}}\n", &f, &e), 0);
	CU_ASSERT_EQUAL(f.tcp.classes[0].http.response_body, 1024);
	wr_stream_file_free(&f);
}

static CU_TestInfo yaml_tests[] = {
	{ "doc_example", test_doc_example },
	{ "describe", test_describe },
	{ "shipped", test_shipped },
	{ "model", test_model },
	{ "defaults", test_defaults },
	{ "program", test_program },
	{ "data_file", test_data_file },
	{ "overlap_vlans", test_overlap_vlans },
	{ "refusals", test_refusals },
	{ "top", test_top },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "tcp_yaml", .pTests = yaml_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

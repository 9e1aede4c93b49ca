/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the TCP programs (wr_tcp_app: HTTP client and server, raw steps, fill and its sums) and the HTTP parser (wr_tcp_http). */
#include <inttypes.h>
#include <stdlib.h>

#include "wr_csum.h"
#include "wr_tcp_app.h"
#include "wr_tcp_http.h"
#include "wr_test.h"

#ifndef WR_VERSION
#define WR_VERSION "dev"
#endif

static uint64_t
rnd(uint64_t *s)
{
	/* xorshift64*: reproducible offsets and lengths. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void
http_class(struct wr_tcp_class *c)
{
	wr_tcp_class_defaults(c);
	strcpy(c->name, "web");
	c->is_http = true;
	c->client.present = true;
	c->server.present = true;
	c->server.dport = 80;
}

/* ------------------------------------------------------------------ */
/* What the sides send                                                */

static void
test_request_bytes(void)
{
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	char want[512];
	uint8_t buf[1024];
	uint32_t copied = 0;
	uint64_t len;

	http_class(&c);
	c.http.requests = 3;
	c.server.dport = 8080;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "10.0.0.2", &err), 0);
	snprintf(want, sizeof(want),
		 "GET / HTTP/1.1\r\nHost: 10.0.0.2:8080\r\n"
		 "User-Agent: wirerate/%s\r\nAccept: */*\r\n"
		 "Connection: keep-alive\r\n\r\n", WR_VERSION);
	CU_ASSERT_EQUAL(a.hdr_len, strlen(want));
	CU_ASSERT_EQUAL(a.msg_len, strlen(want));
	CU_ASSERT(memcmp(a.hdr, want, a.hdr_len) == 0);
	/* The last request: Connection: close, the same length. */
	len = wr_tcp_app_message(&a, 2, buf, sizeof(buf), &copied);
	CU_ASSERT_EQUAL(len, strlen(want));
	CU_ASSERT_EQUAL(copied, strlen(want));
	snprintf(want, sizeof(want),
		 "GET / HTTP/1.1\r\nHost: 10.0.0.2:8080\r\n"
		 "User-Agent: wirerate/%s\r\nAccept: */*\r\n"
		 "Connection:      close\r\n\r\n", WR_VERSION);
	CU_ASSERT(memcmp(buf, want, copied) == 0);
	CU_ASSERT_EQUAL(wr_tcp_app_message(&a, 3, buf, sizeof(buf), &copied), 0);
	/* The stream: three requests back to back. */
	{
		uint8_t s[3 * 200];

		CU_ASSERT_FATAL(3 * a.msg_len <= sizeof(s));
		wr_tcp_app_fill(&a, 0, s, (uint32_t)(3 * a.msg_len));
		CU_ASSERT(memcmp(s, a.hdr, a.hdr_len) == 0);
		CU_ASSERT(memcmp(s + a.msg_len, a.hdr, a.hdr_len) == 0);
		CU_ASSERT(memcmp(s + 2 * a.msg_len, want, a.hdr_len) == 0);
	}
	wr_tcp_app_fini(&a);

	/* A POST with a body, IPv6 server on port 80, the class's method. */
	http_class(&c);
	strcpy(c.http.method, "POST");
	strcpy(c.http.path, "/up?x=1");
	c.http.request_body = 300;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "2001:db8::2", &err), 0);
	snprintf(want, sizeof(want),
		 "POST /up?x=1 HTTP/1.1\r\nHost: [2001:db8::2]\r\n"
		 "User-Agent: wirerate/%s\r\nAccept: */*\r\n"
		 "Content-Type: application/octet-stream\r\n"
		 "Content-Length: 300\r\n"
		 "Connection:      close\r\n\r\n", WR_VERSION);
	CU_ASSERT_EQUAL(a.hdr_len, strlen(want));
	CU_ASSERT(memcmp(a.hdr_last, want, a.hdr_len) == 0);
	CU_ASSERT_EQUAL(a.msg_len, strlen(want) + 300);
	{
		uint8_t s[1024];

		wr_tcp_app_fill(&a, 0, s, (uint32_t)a.msg_len);
		for (unsigned int i = 0; i < 300; i++)
			CU_ASSERT_EQUAL_FATAL(s[a.hdr_len + i], i % 251);
	}
	wr_tcp_app_fini(&a);

	/* The class's Host, as written. */
	http_class(&c);
	strcpy(c.http.host, "www.example.com");
	c.server.dport = 8080;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "10.0.0.2", &err), 0);
	CU_ASSERT(strstr((const char *)a.hdr, "\r\nHost: www.example.com\r\n") != NULL);
	wr_tcp_app_fini(&a);
}

static void
test_response_bytes(void)
{
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	char want[512];
	uint8_t s[2048];

	http_class(&c);
	c.http.response_body = 1000;
	c.http.requests = 2;
	c.http.close_by_server = true;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	snprintf(want, sizeof(want),
		 "HTTP/1.1 200 OK\r\nServer: wirerate/%s\r\n"
		 "Content-Type: application/octet-stream\r\n"
		 "Content-Length: 1000\r\n"
		 "Connection: keep-alive\r\n\r\n", WR_VERSION);
	CU_ASSERT_EQUAL(a.hdr_len, strlen(want));
	CU_ASSERT(memcmp(a.hdr, want, a.hdr_len) == 0);
	CU_ASSERT_EQUAL(a.msg_len, a.hdr_len + 1000);
	CU_ASSERT_EQUAL(a.last_msg, 1);
	wr_tcp_app_fill(&a, 0, s, (uint32_t)a.msg_len);
	for (unsigned int i = 0; i < 1000; i++)
		CU_ASSERT_EQUAL_FATAL(s[a.hdr_len + i], i % 251);
	/* The second response says close; each body starts the pattern
	 * again. */
	wr_tcp_app_fill(&a, a.msg_len, s, (uint32_t)a.msg_len);
	CU_ASSERT(memcmp(s, "HTTP/1.1 200 OK\r\n", 17) == 0);
	CU_ASSERT(strstr((const char *)a.hdr_last, "Connection:      close\r\n\r\n") != NULL);
	CU_ASSERT(memcmp(s, a.hdr_last, a.hdr_len) == 0);
	CU_ASSERT_EQUAL(s[a.hdr_len], 0);
	CU_ASSERT_EQUAL(s[a.hdr_len + 251], 0);
	CU_ASSERT_EQUAL(s[a.hdr_len + 252], 1);
	wr_tcp_app_fini(&a);

	/* 404 and a file's bytes; 204 has neither body nor Content-Length. */
	http_class(&c);
	c.http.status = 404;
	c.http.response_body = 10;
	c.data = WR_TCP_DATA_FILE;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER,
					      (const uint8_t *)"abc", 3, NULL, &err), 0);
	CU_ASSERT(memcmp(a.hdr, "HTTP/1.1 404 Not Found\r\n", 24) == 0);
	wr_tcp_app_fill(&a, 0, s, (uint32_t)a.msg_len);
	CU_ASSERT(memcmp(s + a.hdr_len, "abcabcabca", 10) == 0);
	wr_tcp_app_fini(&a);
	CU_ASSERT_EQUAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0, NULL,
					&err), -EINVAL); /* no file bytes */
	http_class(&c);
	c.http.status = 204;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	CU_ASSERT(strstr((const char *)a.hdr, "Content-Length") == NULL);
	CU_ASSERT_EQUAL(a.msg_len, a.hdr_len);
	wr_tcp_app_fini(&a);

	/* A head longer than the room is refused. */
	http_class(&c);
	memset(c.http.path, 'p', sizeof(c.http.path) - 1);
	memset(c.http.host, 'h', sizeof(c.http.host) - 1);
	c.http.path[0] = '/';
	{
		/* 255 + 127 bytes fit; make it not fit with a long method
		 * too?  The method is 15 at most: the head stays under
		 * 1024, so this class is accepted. */
		CU_ASSERT_EQUAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
						NULL, &err), 0);
		CU_ASSERT(a.hdr_len < WR_TCP_APP_HDR_MAX);
		wr_tcp_app_fini(&a);
	}
}

/* fill's sums against wr_csum_sum over what it wrote, for random
 * offsets and lengths (odd ones included) across message bounds. */
static void
check_sums(const struct wr_tcp_app *a, uint64_t span, uint64_t *seed)
{
	static uint8_t buf[3 * WR_TCP_APP_FILL_RUN];

	for (int i = 0; i < 3000; i++) {
		uint64_t off = rnd(seed) % span;
		uint32_t len = (uint32_t)(rnd(seed) % (i % 10 == 0 ? sizeof(buf) : 1600));
		uint32_t s = wr_tcp_app_fill(a, off, buf, len);

		CU_ASSERT_EQUAL_FATAL(s % 0xffff, wr_csum_sum(buf, len) % 0xffff);
		CU_ASSERT_FATAL(s < 0xffff);
	}
}

static void
test_fill_sums(void)
{
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint8_t file[1001];

	for (unsigned int i = 0; i < sizeof(file); i++)
		file[i] = (uint8_t)rnd(&seed);
	/* HTTP with a request body, pattern and file. */
	http_class(&c);
	c.http.requests = 50;
	c.http.request_body = 7777;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "10.0.0.2", &err), 0);
	check_sums(&a, 50 * a.msg_len, &seed);
	wr_tcp_app_fini(&a);
	c.data = WR_TCP_DATA_FILE;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, file,
					      sizeof(file), "10.0.0.2", &err), 0);
	check_sums(&a, 50 * a.msg_len, &seed);
	wr_tcp_app_fini(&a);
	/* A file larger than WR_TCP_APP_COPY_MAX, of odd length: used in
	 * place, summed by blocks; bodies wrap at its end. */
	{
		uint64_t big_len = 3 * WR_TCP_APP_COPY_MAX + 7;
		uint8_t *big = malloc(big_len), *got = malloc(100000);

		CU_ASSERT_FATAL(big != NULL && got != NULL);
		for (uint64_t i = 0; i < big_len; i++)
			big[i] = (uint8_t)rnd(&seed);
		http_class(&c);
		c.data = WR_TCP_DATA_FILE;
		c.http.response_body = 2 * big_len + 3;
		CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER,
						      big, big_len, NULL, &err), 0);
		CU_ASSERT_PTR_NULL(a.rep);
		CU_ASSERT_PTR_EQUAL(a.data, big);
		CU_ASSERT_EQUAL(a.sum_shift, 6);
		check_sums(&a, 3 * a.msg_len, &seed);
		/* Across the file's end: its last bytes, then its first. */
		wr_tcp_app_fill(&a, a.hdr_len + big_len - 50000, got, 100000);
		CU_ASSERT(memcmp(got, big + big_len - 50000, 50000) == 0);
		CU_ASSERT(memcmp(got + 50000, big, 50000) == 0);
		CU_ASSERT(wr_tcp_app_match(&a, big_len - 50000, got, 100000));
		got[70000] ^= 0x40;
		CU_ASSERT_FALSE(wr_tcp_app_match(&a, big_len - 50000, got, 100000));
		wr_tcp_app_fini(&a);
		free(big);
		free(got);
	}
	/* A server's large bodies. */
	http_class(&c);
	c.http.response_body = 1000003;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	check_sums(&a, 10 * a.msg_len, &seed);
	wr_tcp_app_fini(&a);
	/* Raw: sends of odd sizes by both sides. */
	wr_tcp_class_defaults(&c);
	c.n_steps = 5;
	c.steps[0] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND, .by = WR_TCP_CLIENT, .bytes = 1001 };
	c.steps[1] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND, .by = WR_TCP_SERVER, .bytes = 77 };
	c.steps[2] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND, .by = WR_TCP_CLIENT, .bytes = 3 };
	c.steps[3] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND, .by = WR_TCP_CLIENT, .bytes = 300001 };
	c.steps[4] = (struct wr_tcp_step){ .op = WR_TCP_OP_CLOSE, .by = WR_TCP_CLIENT };
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      NULL, &err), 0);
	CU_ASSERT_EQUAL(a.send_end[4], 1001 + 3 + 300001);
	check_sums(&a, 1001 + 3 + 300001 + 100, &seed);
	{
		uint8_t b[8];

		/* Each send restarts the pattern: 1000 % 251 = 247, then 0. */
		wr_tcp_app_fill(&a, 1000, b, 3);
		CU_ASSERT_EQUAL(b[0], 1000 % 251);
		CU_ASSERT_EQUAL(b[1], 0);
		CU_ASSERT_EQUAL(b[2], 1);
	}
	wr_tcp_app_fini(&a);
	c.data = WR_TCP_DATA_FILE;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, file, 1,
					      NULL, &err), 0);
	check_sums(&a, 1001 + 3 + 300001, &seed);
	wr_tcp_app_fini(&a);
}

/* ------------------------------------------------------------------ */
/* The client reading real servers' responses                         */

/* What feeding a client gave, summed over the calls. */
struct run {
	uint32_t requests;      /* requests sent (start included) */
	uint32_t responses;
	uint16_t status;        /* the last response's */
	uint8_t close;
	uint32_t done;
	uint64_t sent;
	uint64_t timer_ns;
};

static void
take(struct run *r, const struct wr_tcp_app_out *o)
{
	if (o->events & WR_TCP_EV_REQUEST)
		r->requests += o->requests;
	if (o->events & WR_TCP_EV_RESPONSE) {
		r->responses += o->responses;
		r->status = o->status;
	}
	if (o->events & WR_TCP_EV_DONE)
		r->done++;
	if (o->close != WR_TCP_APP_OPEN && r->close == WR_TCP_APP_OPEN)
		r->close = o->close;
	r->sent += o->send;
	if (o->timer_ns)
		r->timer_ns = o->timer_ns;
}

/* Feed @p msg to a fresh connection of @p a in pieces of @p step bytes
 * (0: at the split point @p split), then the FIN when @p fin. */
static struct run
feed(const struct wr_tcp_app *a, const char *msg, size_t len, size_t step,
     size_t split, bool fin)
{
	struct wr_tcp_app_st st;
	struct wr_tcp_app_out o;
	struct run r;
	size_t at = 0;

	memset(&r, 0, sizeof(r));
	wr_tcp_app_start(a, &st, &o);
	take(&r, &o);
	while (at < len) {
		size_t n = step ? step : (at < split ? split : len - at);

		if (n > len - at)
			n = len - at;
		wr_tcp_app_rx(a, &st, (const uint8_t *)msg + at, (uint32_t)n,
			      at, &o);
		take(&r, &o);
		at += n;
	}
	if (fin) {
		wr_tcp_app_fin(a, &st, &o);
		take(&r, &o);
	}
	return r;
}

static bool
same(const struct run *a, const struct run *b)
{
	return a->requests == b->requests && a->responses == b->responses &&
	       a->status == b->status && a->close == b->close &&
	       a->done == b->done && a->sent == b->sent &&
	       a->timer_ns == b->timer_ns;
}

/* Every split in two and byte by byte gives what the whole gives. */
static struct run
feed_all(const struct wr_tcp_app *a, const char *msg, size_t len, bool fin)
{
	struct run whole = feed(a, msg, len, 0, len, fin), r;

	for (size_t s = 1; s < len; s++) {
		r = feed(a, msg, len, 0, s, fin);
		CU_ASSERT_FATAL(same(&r, &whole));
	}
	r = feed(a, msg, len, 1, 0, fin);
	CU_ASSERT_FATAL(same(&r, &whole));
	return whole;
}

static const char nginx_head[] =
	"HTTP/1.1 200 OK\r\n"
	"Server: nginx/1.22.1\r\n"
	"Date: Sat, 28 Nov 2026 16:00:00 GMT\r\n"
	"Content-Type: text/html\r\n"
	"Content-Length: 615\r\n"
	"Last-Modified: Tue, 11 Apr 2023 01:45:34 GMT\r\n"
	"Connection: keep-alive\r\n"
	"ETag: \"6434bbbe-267\"\r\n"
	"Accept-Ranges: bytes\r\n"
	"\r\n";

static void
test_client_nginx(void)
{
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	char msg[4096];
	size_t hl = strlen(nginx_head), len;
	struct run r;

	http_class(&c);
	c.server.present = false;
	c.server.n_addr = 1;
	c.http.requests = 2;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "10.0.0.2", &err), 0);
	/* Two responses of 615 bytes: the second request goes after the
	 * first response, the client closes after the second. */
	memcpy(msg, nginx_head, hl);
	memset(msg + hl, 'x', 615);
	memcpy(msg + hl + 615, msg, hl + 615);
	len = 2 * (hl + 615);
	r = feed_all(&a, msg, len, false);
	CU_ASSERT_EQUAL(r.requests, 2);
	CU_ASSERT_EQUAL(r.responses, 2);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(r.done, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	CU_ASSERT_EQUAL(r.sent, 2 * a.msg_len);
	/* One byte short: no second response, no close. */
	r = feed(&a, msg, len - 1, 0, len - 1, false);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_OPEN);
	/* The server closing there: a response cut short. */
	r = feed(&a, msg, len - 1, 0, len - 1, true);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_ERROR);
	CU_ASSERT_EQUAL(r.done, 0);
	/* One byte more than asked for: not what was asked. */
	msg[len] = 'x';
	r = feed(&a, msg, len + 1, 0, len + 1, false);
	CU_ASSERT_EQUAL(r.responses, 2);
	CU_ASSERT_EQUAL(r.done, 1); /* the program ended before it */
	wr_tcp_app_fini(&a);
}

static void
test_client_python(void)
{
	/* python3 -m http.server (BaseHTTPRequestHandler, HTTP/1.0): a
	 * response with Content-Length, the server's FIN after it; and one
	 * without, the body running to the close. */
	static const char with_len[] =
		"HTTP/1.0 200 OK\r\n"
		"Server: SimpleHTTP/0.6 Python/3.11.2\r\n"
		"Date: Sat, 28 Nov 2026 16:00:00 GMT\r\n"
		"Content-type: text/html; charset=utf-8\r\n"
		"Content-Length: 12\r\n"
		"\r\n"
		"hello world\n";
	static const char to_close[] =
		"HTTP/1.0 200 OK\r\n"
		"Server: BaseHTTP/0.6 Python/3.11.2\r\n"
		"Date: Sat, 28 Nov 2026 16:00:00 GMT\r\n"
		"Content-Type: text/plain\r\n"
		"\r\n"
		"body without a length\n";
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	struct run r;

	http_class(&c);
	c.server.present = false;
	c.http.requests = 1;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "10.0.0.2", &err), 0);
	r = feed_all(&a, with_len, strlen(with_len), true);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(r.done, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	r = feed_all(&a, to_close, strlen(to_close), true);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(r.done, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	/* Without the FIN the body goes on: nothing ends. */
	r = feed(&a, to_close, strlen(to_close), 0, 0, false);
	CU_ASSERT_EQUAL(r.responses, 0);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_OPEN);
	wr_tcp_app_fini(&a);

	/* Three requests asked, an HTTP/1.0 server closes after the first:
	 * the program ends early (the close path, not a hang, not done). */
	c.http.requests = 3;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "10.0.0.2", &err), 0);
	r = feed_all(&a, with_len, strlen(with_len), true);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.done, 0);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	r = feed_all(&a, to_close, strlen(to_close), true);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.done, 0);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	wr_tcp_app_fini(&a);
}

static void
test_client_chunked(void)
{
	/* RFC 9112 7.1's framing: extensions, a trailer, mixed-case
	 * names, a size in upper-case hex. */
	static const char chunked[] =
		"HTTP/1.1 200 OK\r\n"
		"transfer-ENCODING: gzip, Chunked\r\n"
		"Trailer: Expires\r\n"
		"\r\n"
		"4;name=value\r\nWiki\r\n"
		"5 ; ext=\"q\"\r\npedia\r\n"
		"E\r\n in\r\n\r\nchunks.\r\n"
		"0\r\n"
		"Expires: Wed, 21 Oct 2015 07:28:00 GMT\r\n"
		"\r\n";
	/* A 100 Continue before the final response (RFC 9110 15.2.1) and
	 * a 103 Early Hints with a field. */
	static const char interim[] =
		"HTTP/1.1 100 Continue\r\n\r\n"
		"HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"
		"HTTP/1.1 201 Created\r\ncontent-length: 3\r\n\r\nabc";
	/* Bare LFs, a 204 without a body, Connection: close. */
	static const char bare[] =
		"HTTP/1.1 204 No Content\nConnection: Close\n\n";
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	struct run r;

	http_class(&c);
	c.server.present = false;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "h", &err), 0);
	r = feed_all(&a, chunked, strlen(chunked), false);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(r.done, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	/* The last chunk missing: nothing ends. */
	r = feed(&a, chunked, strlen(chunked) - 2, 0, 0, false);
	CU_ASSERT_EQUAL(r.responses, 0);
	r = feed_all(&a, interim, strlen(interim), false);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.status, 201);
	CU_ASSERT_EQUAL(r.done, 1);
	r = feed_all(&a, bare, strlen(bare), false);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.status, 204);
	CU_ASSERT_EQUAL(r.done, 1);
	wr_tcp_app_fini(&a);

	/* Think time between responses; the server's close said in a
	 * response ends the program early. */
	c.http.requests = 2;
	c.http.think_ns = 5000000;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "h", &err), 0);
	r = feed_all(&a, interim, strlen(interim), false);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.timer_ns, 5000000);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_OPEN);
	{
		struct wr_tcp_app_st st;
		struct wr_tcp_app_out o;

		wr_tcp_app_start(&a, &st, &o);
		CU_ASSERT(wr_tcp_app_ordered(&a, &st));
		wr_tcp_app_rx(&a, &st, (const uint8_t *)interim,
			      (uint32_t)strlen(interim), 0, &o);
		CU_ASSERT_EQUAL(o.timer_ns, 5000000);
		CU_ASSERT_EQUAL(o.send, 0);
		wr_tcp_app_timer(&a, &st, &o);
		CU_ASSERT_EQUAL(o.send, a.msg_len);
		CU_ASSERT_EQUAL(o.events, WR_TCP_EV_REQUEST);
		wr_tcp_app_rx(&a, &st, (const uint8_t *)bare,
			      (uint32_t)strlen(bare), 0, &o);
		CU_ASSERT_EQUAL(o.events, WR_TCP_EV_RESPONSE | WR_TCP_EV_DONE);
		CU_ASSERT_EQUAL(o.close, WR_TCP_APP_FIN);
	}
	r = feed_all(&a, bare, strlen(bare), true);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.done, 0);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	wr_tcp_app_fini(&a);
}

static void
test_client_bad(void)
{
	static const char *const bad[] = {
		"HTTP/2 200 OK\r\n\r\n",
		"HTTP/1.1 20 OK\r\n\r\n",
		"HTTP/1.1 2000 OK\r\n\r\n",
		"HTTP/1.1 700 What\r\n\r\n",
		"SSH-2.0-OpenSSH_9.2\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
		"HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n",
	};
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	struct run r;

	http_class(&c);
	c.server.present = false;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_CLIENT, NULL, 0,
					      "h", &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = feed_all(&a, bad[i], strlen(bad[i]), false);
		CU_ASSERT_EQUAL(r.close, WR_TCP_APP_ERROR);
		CU_ASSERT_EQUAL(r.responses, 1); /* counted unparsable */
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_EQUAL(r.done, 0);
	}
	wr_tcp_app_fini(&a);
}

/* ------------------------------------------------------------------ */
/* The server reading real clients' requests                          */

static void
test_server_requests(void)
{
	/* curl 7.88 and wget 1.21 as they send them. */
	static const char curl[] =
		"GET /index.html HTTP/1.1\r\n"
		"Host: 10.9.0.2\r\n"
		"User-Agent: curl/7.88.1\r\n"
		"Accept: */*\r\n"
		"\r\n";
	static const char wget[] =
		"GET / HTTP/1.1\r\n"
		"Host: 10.9.0.2\r\n"
		"User-Agent: Wget/1.21.3\r\n"
		"Accept: */*\r\n"
		"Accept-Encoding: identity\r\n"
		"Connection: Keep-Alive\r\n"
		"\r\n";
	static const char post[] =
		"POST /up HTTP/1.1\r\n"
		"Host: 10.9.0.2\r\n"
		"Content-Length: 5\r\n"
		"\r\n"
		"hello"
		"GET /two HTTP/1.1\r\nHost: x\r\n\r\n"
		"GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	static const char http10[] = "GET / HTTP/1.0\r\n\r\n";
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	struct run r;

	http_class(&c);
	c.client.present = false;
	c.http.response_body = 100;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	r = feed_all(&a, curl, strlen(curl), true);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.responses, 1);
	CU_ASSERT_EQUAL(r.sent, a.msg_len);
	CU_ASSERT_EQUAL(r.done, 1); /* the client's FIN after it */
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	r = feed_all(&a, wget, strlen(wget), false);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_OPEN);
	/* Pipelined: three responses, the close asked by the last. */
	r = feed_all(&a, post, strlen(post), false);
	CU_ASSERT_EQUAL(r.requests, 3);
	CU_ASSERT_EQUAL(r.responses, 3);
	CU_ASSERT_EQUAL(r.sent, 3 * a.msg_len);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	CU_ASSERT_EQUAL(r.done, 1);
	/* HTTP/1.0 without keep-alive: answered, then closed. */
	r = feed_all(&a, http10, strlen(http10), false);
	CU_ASSERT_EQUAL(r.requests, 1);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	/* Not HTTP: an error, nothing answered. */
	r = feed_all(&a, "\x16\x03\x01\x02\x00\x01", 6, false);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_ERROR);
	CU_ASSERT_EQUAL(r.sent, 0);
	/* A request cut by the client's FIN. */
	r = feed(&a, curl, 10, 0, 0, true);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_ERROR);
	wr_tcp_app_fini(&a);

	/* close_by_server after two: the third pipelined one is not
	 * answered. */
	c.http.requests = 2;
	c.http.close_by_server = true;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	r = feed_all(&a, post, strlen(post), false);
	CU_ASSERT_EQUAL(r.requests, 2);
	CU_ASSERT_EQUAL(r.sent, 2 * a.msg_len);
	CU_ASSERT_EQUAL(r.close, WR_TCP_APP_FIN);
	CU_ASSERT_EQUAL(r.done, 1);
	wr_tcp_app_fini(&a);
}

/* ------------------------------------------------------------------ */
/* Both sides stepping each other, without TCP                        */

struct end {
	struct wr_tcp_app a;
	struct wr_tcp_app_st st;
	struct run r;
	uint64_t stream;        /* bytes appended */
	uint64_t taken;         /* of the peer's, delivered */
	bool fin, fin_seen, rst, timer;
	uint32_t errors;
};

static void
apply(struct end *e, const struct wr_tcp_app_out *o)
{
	take(&e->r, o);
	if (o->send == UINT64_MAX)
		e->stream = UINT64_MAX;
	else if (e->stream != UINT64_MAX)
		e->stream += o->send;
	if (o->timer_ns)
		e->timer = true;
	if (o->close == WR_TCP_APP_FIN)
		e->fin = true;
	if (o->close == WR_TCP_APP_RST || o->close == WR_TCP_APP_ERROR)
		e->rst = true;
	if (o->close == WR_TCP_APP_ERROR)
		e->errors++;
}

/* One move of @p e: bytes from @p peer (pieces of random sizes, some
 * given blind), its FIN, or @p e's timer.  @return false: nothing to do. */
static bool
step(struct end *e, struct end *peer, uint64_t *seed, bool blind)
{
	static uint8_t buf[70000];
	struct wr_tcp_app_out o;
	uint64_t avail;

	if (e->rst || peer->rst)
		return false;
	avail = peer->stream - e->taken;
	if (avail > 0) {
		uint64_t n = 1 + rnd(seed) % (avail < sizeof(buf) ? avail : sizeof(buf));

		if (rnd(seed) % 4 == 0 && n > 3)
			n = 1 + rnd(seed) % 3; /* small pieces too */
		if (blind && wr_tcp_app_blind(&e->a, &e->st) >= n &&
		    rnd(seed) % 2 == 0) {
			CU_ASSERT(!wr_tcp_app_ordered(&e->a, &e->st));
			wr_tcp_app_rx(&e->a, &e->st, NULL, (uint32_t)n, e->taken, &o);
		} else {
			wr_tcp_app_fill(&peer->a, e->taken, buf, (uint32_t)n);
			wr_tcp_app_rx(&e->a, &e->st, buf, (uint32_t)n, e->taken, &o);
		}
		e->taken += n;
		apply(e, &o);
		return true;
	}
	if (peer->fin && !e->fin_seen) {
		e->fin_seen = true;
		wr_tcp_app_fin(&e->a, &e->st, &o);
		apply(e, &o);
		return true;
	}
	if (e->timer) {
		e->timer = false;
		wr_tcp_app_timer(&e->a, &e->st, &o);
		apply(e, &o);
		return true;
	}
	return false;
}

/* A connection of class @p c between wirerate's two sides. */
static void
pair(const struct wr_tcp_class *c, struct end *cl, struct end *sv,
     uint64_t seed, bool blind)
{
	struct wr_error err = { 0 };
	struct wr_tcp_app_out o;
	int moves = 0;

	memset(cl, 0, sizeof(*cl));
	memset(sv, 0, sizeof(*sv));
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&cl->a, c, WR_TCP_CLIENT, NULL,
					      0, "10.0.0.2", &err), 0);
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&sv->a, c, WR_TCP_SERVER, NULL,
					      0, NULL, &err), 0);
	wr_tcp_app_start(&sv->a, &sv->st, &o);
	apply(sv, &o);
	wr_tcp_app_start(&cl->a, &cl->st, &o);
	apply(cl, &o);
	for (;;) {
		bool first = rnd(&seed) % 2;
		struct end *x = first ? cl : sv, *y = first ? sv : cl;

		if (!step(x, y, &seed, blind) && !step(y, x, &seed, blind))
			break;
		CU_ASSERT_FATAL(++moves < 1000000);
	}
	wr_tcp_app_fini(&cl->a);
	wr_tcp_app_fini(&sv->a);
}

static void
test_pair_http(void)
{
	struct wr_tcp_class c;
	struct end cl, sv;

	for (uint64_t seed = 1; seed < 40; seed++) {
		http_class(&c);
		c.http.requests = 1 + (uint32_t)(seed % 5);
		c.http.request_body = seed % 3 == 0 ? 100000 + seed : 0;
		c.http.response_body = seed * 9973;
		c.http.think_ns = seed % 2 ? 1000 : 0;
		c.http.close_by_server = seed % 4 == 1;
		pair(&c, &cl, &sv, seed, seed % 3 != 1);
		CU_ASSERT_EQUAL(cl.errors + sv.errors, 0);
		CU_ASSERT_EQUAL(cl.r.requests, c.http.requests);
		CU_ASSERT_EQUAL(cl.r.responses, c.http.requests);
		CU_ASSERT_EQUAL(cl.r.status, 200);
		CU_ASSERT_EQUAL(sv.r.requests, c.http.requests);
		CU_ASSERT_EQUAL(sv.r.responses, c.http.requests);
		CU_ASSERT_EQUAL(cl.r.done, 1);
		CU_ASSERT_EQUAL(sv.r.done, 1);
		CU_ASSERT(cl.fin && sv.fin);
		CU_ASSERT_EQUAL(cl.taken, sv.stream);
		CU_ASSERT_EQUAL(sv.taken, cl.stream);
	}
}

static void
raw_class(struct wr_tcp_class *c)
{
	wr_tcp_class_defaults(c);
	strcpy(c->name, "raw");
	c->client.present = true;
	c->server.present = true;
}

static void
add(struct wr_tcp_class *c, uint8_t op, uint8_t by, uint64_t bytes,
    uint64_t ns, bool rst)
{
	c->steps[c->n_steps++] = (struct wr_tcp_step){
		.op = op, .by = by, .bytes = bytes, .ns = ns, .rst = rst };
}

static void
test_pair_raw(void)
{
	struct wr_tcp_class c;
	struct end cl, sv;

	/* send, recv, think by the client, send, the server's FIN. */
	for (uint64_t seed = 1; seed < 20; seed++) {
		raw_class(&c);
		add(&c, WR_TCP_OP_SEND, WR_TCP_CLIENT, 1000 * seed + 1, 0, false);
		add(&c, WR_TCP_OP_SEND, WR_TCP_SERVER, 70001 * seed, 0, false);
		add(&c, WR_TCP_OP_THINK, 0, 0, 1000000, false);
		add(&c, WR_TCP_OP_SEND, WR_TCP_CLIENT, 10, 0, false);
		add(&c, WR_TCP_OP_SEND, WR_TCP_CLIENT, 20, 0, false);
		add(&c, WR_TCP_OP_CLOSE, WR_TCP_SERVER, 0, 0, seed % 2 == 0);
		pair(&c, &cl, &sv, seed, seed % 2 == 1);
		CU_ASSERT_EQUAL(cl.errors + sv.errors, 0);
		CU_ASSERT_EQUAL(sv.r.done, 1);
		CU_ASSERT_EQUAL(cl.stream, 1000 * seed + 1 + 30);
		CU_ASSERT_EQUAL(sv.stream, 70001 * seed);
		CU_ASSERT_EQUAL(cl.r.timer_ns, 1000000);
		if (seed % 2 == 0) {
			CU_ASSERT(sv.rst); /* close: rst */
			CU_ASSERT_EQUAL(sv.r.close, WR_TCP_APP_RST);
			CU_ASSERT_EQUAL(cl.r.done, 0);
		} else {
			CU_ASSERT(sv.fin && cl.fin);
			CU_ASSERT_EQUAL(cl.r.done, 1);
			CU_ASSERT_EQUAL(cl.taken, sv.stream);
		}
	}
	/* No close step: the client closes with FIN at the end. */
	raw_class(&c);
	add(&c, WR_TCP_OP_SEND, WR_TCP_SERVER, 5, 0, false);
	pair(&c, &cl, &sv, 7, false);
	CU_ASSERT(cl.fin && sv.fin);
	CU_ASSERT_EQUAL(cl.r.done + sv.r.done, 2);
	CU_ASSERT_EQUAL(cl.errors + sv.errors, 0);
	/* The server's send until the close is read until the close. */
	raw_class(&c);
	add(&c, WR_TCP_OP_SEND, WR_TCP_CLIENT, 100, 0, false);
	add(&c, WR_TCP_OP_SEND, WR_TCP_SERVER, 5000, 0, false);
	add(&c, WR_TCP_OP_CLOSE, WR_TCP_SERVER, 0, 0, false);
	pair(&c, &cl, &sv, 9, true);
	CU_ASSERT_EQUAL(cl.r.done + sv.r.done, 2);
}

static void
test_raw_mismatch(void)
{
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_tcp_app_st st;
	struct wr_tcp_app_out o;
	struct wr_error err = { 0 };
	uint8_t b[600];

	raw_class(&c);
	add(&c, WR_TCP_OP_SEND, WR_TCP_CLIENT, 600, 0, false);
	add(&c, WR_TCP_OP_CLOSE, WR_TCP_CLIENT, 0, 0, false);
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	for (unsigned int i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(i % 251);
	wr_tcp_app_start(&a, &st, &o);
	CU_ASSERT_EQUAL(o.send, 0);
	CU_ASSERT_FALSE(wr_tcp_app_ordered(&a, &st));
	CU_ASSERT_EQUAL(wr_tcp_app_blind(&a, &st), 600);
	wr_tcp_app_rx(&a, &st, b, 300, 0, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_OPEN);
	b[400] ^= 1;
	wr_tcp_app_rx(&a, &st, b + 300, 300, 300, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_ERROR);
	/* More bytes than the program has: an error too. */
	b[400] ^= 1;
	wr_tcp_app_start(&a, &st, &o);
	wr_tcp_app_rx(&a, &st, b, 600, 0, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_OPEN);
	wr_tcp_app_rx(&a, &st, b, 1, 600, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_ERROR);
	/* The client closing early: the server's close path. */
	wr_tcp_app_start(&a, &st, &o);
	wr_tcp_app_rx(&a, &st, b, 100, 0, &o);
	wr_tcp_app_fin(&a, &st, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_FIN);
	CU_ASSERT_EQUAL(o.events & WR_TCP_EV_DONE, 0);
	wr_tcp_app_fini(&a);
	/* Against a real peer (one side emulated) nothing is checked. */
	c.client.present = false;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&a, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	memset(b, 'z', sizeof(b));
	wr_tcp_app_start(&a, &st, &o);
	wr_tcp_app_rx(&a, &st, b, 600, 0, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_OPEN);
	wr_tcp_app_fin(&a, &st, &o);
	CU_ASSERT_EQUAL(o.close, WR_TCP_APP_FIN);
	CU_ASSERT_EQUAL(o.events, WR_TCP_EV_DONE);
	wr_tcp_app_fini(&a);
}

/* A response body from wirerate's own server is checked byte by byte;
 * dump's view of a raw program. */
static void
test_http_mismatch(void)
{
	struct wr_tcp_class c;
	struct wr_tcp_app cl, sv;
	struct wr_tcp_app_st st;
	struct wr_tcp_app_out o;
	struct wr_error err = { 0 };
	uint8_t b[4096];
	uint32_t n;

	http_class(&c);
	c.http.response_body = 3000;
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&cl, &c, WR_TCP_CLIENT, NULL, 0,
					      "h", &err), 0);
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&sv, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	n = (uint32_t)sv.msg_len;
	wr_tcp_app_fill(&sv, 0, b, n);
	for (int bad = 0; bad < 2; bad++) {
		b[sv.hdr_len + 2500] ^= (uint8_t)bad;
		wr_tcp_app_start(&cl, &st, &o);
		wr_tcp_app_rx(&cl, &st, b, sv.hdr_len + 10, 0, &o);
		/* In the body: counted, not read; the rest may come blind. */
		CU_ASSERT_FALSE(wr_tcp_app_ordered(&cl, &st));
		CU_ASSERT_EQUAL(wr_tcp_app_blind(&cl, &st), 2990);
		wr_tcp_app_rx(&cl, &st, b + sv.hdr_len + 10,
			      n - sv.hdr_len - 10, sv.hdr_len + 10, &o);
		CU_ASSERT_EQUAL(o.close, bad ? WR_TCP_APP_ERROR : WR_TCP_APP_FIN);
		CU_ASSERT_EQUAL(o.events, bad ? 0 : WR_TCP_EV_RESPONSE | WR_TCP_EV_DONE);
		b[sv.hdr_len + 2500] ^= (uint8_t)bad;
	}
	wr_tcp_app_fini(&cl);
	wr_tcp_app_fini(&sv);

	/* dump: the server's sends of a raw program, their first bytes. */
	raw_class(&c);
	add(&c, WR_TCP_OP_SEND, WR_TCP_CLIENT, 10, 0, false);
	add(&c, WR_TCP_OP_SEND, WR_TCP_SERVER, 300, 0, false);
	add(&c, WR_TCP_OP_SEND, WR_TCP_SERVER, 5, 0, false);
	CU_ASSERT_EQUAL_FATAL(wr_tcp_app_init(&sv, &c, WR_TCP_SERVER, NULL, 0,
					      NULL, &err), 0);
	CU_ASSERT_EQUAL(wr_tcp_app_message(&sv, 0, b, 16, &n), 300);
	CU_ASSERT_EQUAL(n, 16);
	CU_ASSERT_EQUAL(b[15], 15);
	CU_ASSERT_EQUAL(wr_tcp_app_message(&sv, 1, b, 16, &n), 5);
	CU_ASSERT_EQUAL(n, 5);
	CU_ASSERT_EQUAL(b[0], 0);
	CU_ASSERT_EQUAL(b[4], 4);
	CU_ASSERT_EQUAL(wr_tcp_app_message(&sv, 2, b, 16, &n), 0);
	CU_ASSERT_EQUAL(n, 0);
	wr_tcp_app_fini(&sv);
}

static void
test_state_size(void)
{
	/* The engine's per-connection budget (HELPERS.md: 256 B a side). */
	CU_ASSERT_EQUAL(sizeof(struct wr_tcp_app_st), 16);
	CU_ASSERT_EQUAL(sizeof(struct wr_tcp_http_st), 16);
}

static CU_TestInfo tests[] = {
	{ "request_bytes", test_request_bytes },
	{ "response_bytes", test_response_bytes },
	{ "fill_sums", test_fill_sums },
	{ "client_nginx", test_client_nginx },
	{ "client_python", test_client_python },
	{ "client_chunked", test_client_chunked },
	{ "client_bad", test_client_bad },
	{ "server_requests", test_server_requests },
	{ "pair_http", test_pair_http },
	{ "pair_raw", test_pair_raw },
	{ "raw_mismatch", test_raw_mismatch },
	{ "http_mismatch", test_http_mismatch },
	{ "state_size", test_state_size },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "tcp_app", .pTests = tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

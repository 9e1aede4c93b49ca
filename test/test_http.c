/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the web console's wire formats (wr_http): request heads, routes, WebSocket frames. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_http.h"
#include "wr_test.h"

static ssize_t
parse(const char *text, struct wr_http_req *req, int *status)
{
	*status = 0;
	return wr_http_parse(text, strlen(text), req, status);
}

static void
test_parse(void)
{
	struct wr_http_req req;
	char *big;
	int st;
	const char *get = "GET /app.js?v=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
			  "Origin: http://127.0.0.1:8080\r\n"
			  "Connection: keep-alive, Upgrade\r\n"
			  "Upgrade: websocket\r\n\r\nnext";

	CU_ASSERT_EQUAL(parse(get, &req, &st), (ssize_t)strlen(get) - 4);
	CU_ASSERT_STRING_EQUAL(req.method, "GET");
	CU_ASSERT_STRING_EQUAL(req.path, "/app.js");
	CU_ASSERT_STRING_EQUAL(req.host, "127.0.0.1:8080");
	CU_ASSERT(req.has_origin && req.conn_upgrade && req.upgrade_ws);
	CU_ASSERT(!req.has_body && !req.http10);
	CU_ASSERT_EQUAL(req.ws_version, -1);
	/* Incomplete: more bytes needed. */
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHost: a\r\n", &req, &st), 0);
	/* Bare LF line ends are accepted (RFC 9112 2.2). */
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.0\n\n", &req, &st), 16);
	CU_ASSERT(req.http10);
	/* Malformed: each with its status. */
	CU_ASSERT_EQUAL(parse("get / HTTP/1.1\r\n\r\n", &req, &st), -EBADMSG);
	CU_ASSERT_EQUAL(st, 400);
	CU_ASSERT_EQUAL(parse("GET  / HTTP/1.1\r\n\r\n", &req, &st), -EBADMSG);
	CU_ASSERT_EQUAL(parse("GET http://x/ HTTP/1.1\r\n\r\n", &req, &st),
			-EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/2.0\r\n\r\n", &req, &st),
			-EPROTONOSUPPORT);
	CU_ASSERT_EQUAL(st, 505);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHost: a\r\n b\r\n\r\n", &req,
			      &st), -EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
			      &req, &st), -EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHo st: a\r\n\r\n", &req, &st),
			-EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nHost: a b\r\n\r\n", &req, &st),
			-EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nX: a\x01\r\n\r\n", &req, &st),
			-EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nContent-Length: 5\r\n"
			      "Content-Length: 6\r\n\r\n", &req, &st), -EBADMSG);
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
			      &req, &st), -EBADMSG);
	/* A body is noticed (and refused by the route). */
	CU_ASSERT(parse("POST / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n",
			&req, &st) > 0 && req.has_body);
	CU_ASSERT(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
			&req, &st) > 0 && req.has_body);
	/* Limits: a head past 8 KiB, a long target, too many headers. */
	big = malloc(WR_HTTP_HEAD_MAX + 64);
	CU_ASSERT_FATAL(big != NULL);
	memset(big, 'a', WR_HTTP_HEAD_MAX + 63);
	memcpy(big, "GET /", 5);
	big[WR_HTTP_HEAD_MAX + 63] = '\0';
	CU_ASSERT_EQUAL(parse(big, &req, &st), -EMSGSIZE);
	CU_ASSERT_EQUAL(st, 431);
	snprintf(big + 1500, 30, " HTTP/1.1\r\n\r\n");
	CU_ASSERT_EQUAL(parse(big, &req, &st), -EMSGSIZE);
	CU_ASSERT_EQUAL(st, 414);
	strcpy(big, "GET / HTTP/1.1\r\n");
	for (st = 0; st <= WR_HTTP_HEADERS_MAX; st++)
		strcat(big, "X: y\r\n");
	strcat(big, "\r\n");
	CU_ASSERT_EQUAL(parse(big, &req, &st), -EMSGSIZE);
	CU_ASSERT_EQUAL(st, 431);
	free(big);
}

static void
route(const char *text, bool loopback, struct wr_http_answer *ans)
{
	struct wr_http_policy pol = { .loopback_hosts = loopback };
	struct wr_http_req req;
	int st;

	CU_ASSERT_FATAL(parse(text, &req, &st) > 0);
	wr_http_route(&req, &pol, ans);
}

static void
test_route(void)
{
	struct wr_http_answer ans;
	char head[2048], body[256], req[512];

	route("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.action, WR_HTTP_ANSWER_ASSET);
	CU_ASSERT_EQUAL(ans.status, 200);
	CU_ASSERT_STRING_EQUAL(ans.asset->path, "/index.html");
	CU_ASSERT(wr_http_head(&ans, false, head, sizeof(head)) > 0);
	snprintf(body, sizeof(body), "Content-Length: %zu\r\n", ans.asset->len);
	CU_ASSERT(strstr(head, body) != NULL);
	CU_ASSERT(strstr(head, "Content-Security-Policy: default-src 'self'") !=
		  NULL);
	/* The same bytes again: 304. */
	snprintf(req, sizeof(req), "GET /index.html HTTP/1.1\r\nHost: "
		 "localhost:9\r\nIf-None-Match: %s\r\n\r\n", ans.asset->etag);
	route(req, true, &ans);
	CU_ASSERT_EQUAL(ans.status, 304);
	/* Every loopback name, any port (an ssh tunnel's own). */
	route("GET /style.css HTTP/1.1\r\nHost: [::1]:1\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 200);
	route("GET /app.js HTTP/1.1\r\nHost: 127.9.8.7\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 200);
	/* A rebound name, another address, no Host at all: refused. */
	route("GET / HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route("GET / HTTP/1.1\r\nHost: 127.0.0.1.evil.example\r\n\r\n", true,
	      &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route("GET / HTTP/1.1\r\nHost: 10.0.0.1:8080\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route("GET / HTTP/1.0\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route("GET / HTTP/1.1\r\n\r\n", false, &ans);
	CU_ASSERT_EQUAL(ans.status, 400);
	/* With a token any Host name serves. */
	route("GET / HTTP/1.1\r\nHost: lab-gen:8080\r\n\r\n", false, &ans);
	CU_ASSERT_EQUAL(ans.status, 200);
	/* Paths outside the assets: nothing but the table is served. */
	route("GET /../../etc/passwd HTTP/1.1\r\nHost: localhost\r\n\r\n", true,
	      &ans);
	CU_ASSERT_EQUAL(ans.status, 404);
	route("GET /%2e%2e/meson.build HTTP/1.1\r\nHost: localhost\r\n\r\n",
	      true, &ans);
	CU_ASSERT_EQUAL(ans.status, 404);
	route("GET /web/app.js HTTP/1.1\r\nHost: localhost\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 404);
	route("GET /embed.py HTTP/1.1\r\nHost: localhost\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 404);
	/* Bodies and other methods. */
	route("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1000000000"
	      "\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 413);
	route("PUT /x HTTP/1.1\r\nHost: localhost\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 405);
	CU_ASSERT(wr_http_head(&ans, false, head, sizeof(head)) > 0);
	CU_ASSERT(strstr(head, "Allow: GET, HEAD\r\n") != NULL);
	CU_ASSERT(wr_http_error_body(&ans, body, sizeof(body)) > 0);
	snprintf(req, sizeof(req), "Content-Length: %zu\r\n", strlen(body));
	CU_ASSERT(strstr(head, req) != NULL);
}

#define WS_REQ(origin, version, key) \
	"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\n" \
	"Connection: Upgrade\r\n" origin "Sec-WebSocket-Version: " version \
	"\r\nSec-WebSocket-Key: " key "\r\n\r\n"

static void
test_upgrade(void)
{
	struct wr_http_answer ans;
	char head[512], acc[32];

	/* RFC 6455 section 1.3's example. */
	CU_ASSERT_EQUAL(wr_http_ws_accept("dGhlIHNhbXBsZSBub25jZQ==", acc), 0);
	CU_ASSERT_STRING_EQUAL(acc, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
	CU_ASSERT_EQUAL(wr_http_ws_accept("dGhlIHNhbXBsZSBub25jZQ", acc), -EINVAL);
	CU_ASSERT_EQUAL(wr_http_ws_accept("", acc), -EINVAL);
	route(WS_REQ("Origin: http://127.0.0.1:8080\r\n", "13",
		     "dGhlIHNhbXBsZSBub25jZQ=="), true, &ans);
	CU_ASSERT_EQUAL(ans.action, WR_HTTP_ANSWER_UPGRADE);
	CU_ASSERT(wr_http_head(&ans, false, head, sizeof(head)) > 0);
	CU_ASSERT(strstr(head, "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+"
			 "xOo=\r\n") != NULL);
	/* Another site's page, or no Origin: refused. */
	route(WS_REQ("Origin: http://evil.example\r\n", "13",
		     "dGhlIHNhbXBsZSBub25jZQ=="), true, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route(WS_REQ("Origin: http://127.0.0.1:8081\r\n", "13",
		     "dGhlIHNhbXBsZSBub25jZQ=="), true, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route(WS_REQ("", "13", "dGhlIHNhbXBsZSBub25jZQ=="), true, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	route(WS_REQ("Origin: http://127.0.0.1:8080\r\n", "8",
		     "dGhlIHNhbXBsZSBub25jZQ=="), true, &ans);
	CU_ASSERT_EQUAL(ans.status, 426);
	CU_ASSERT(wr_http_head(&ans, false, head, sizeof(head)) > 0);
	CU_ASSERT(strstr(head, "Sec-WebSocket-Version: 13\r\n") != NULL);
	route(WS_REQ("Origin: http://127.0.0.1:8080\r\n", "13", "short"), true,
	      &ans);
	CU_ASSERT_EQUAL(ans.status, 400);
	route("GET /ws HTTP/1.1\r\nHost: localhost\r\n\r\n", true, &ans);
	CU_ASSERT_EQUAL(ans.status, 426);
}

/* A masked client frame of @p op with @p payload into @p out. */
static size_t
frame(uint8_t *out, bool fin, uint8_t op, const char *payload, size_t n)
{
	static const uint8_t mask[4] = { 0x37, 0xfa, 0x21, 0x3d };
	size_t h = wr_ws_head(out, op, n), i;

	if (!fin)
		out[0] &= 0x7f;
	out[1] |= 0x80;
	memcpy(out + h, mask, 4);
	for (i = 0; i < n; i++)
		out[h + 4 + i] = (uint8_t)payload[i] ^ mask[i & 3];
	return h + 4 + n;
}

static void
test_ws(void)
{
	/* RFC 6455 section 5.7: a masked "Hello". */
	uint8_t hello[] = { 0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f,
			    0x4d, 0x51, 0x58 };
	struct wr_ws_rx st;
	struct wr_ws_event ev;
	uint8_t buf[200000], hdr[10];
	size_t n, m;
	char *big;

	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(wr_ws_next(&st, hello, 5, 100, &ev), WR_WS_EV_MORE);
	CU_ASSERT_EQUAL(wr_ws_next(&st, hello, sizeof(hello), 100, &ev),
			WR_WS_EV_TEXT);
	CU_ASSERT_EQUAL(ev.len, 5);
	CU_ASSERT(memcmp(ev.data, "Hello", 5) == 0);
	CU_ASSERT_EQUAL(ev.consumed, sizeof(hello));
	/* Fragments with a ping between them: one message, joined in place;
	 * the ping answered on the way. */
	memset(&st, 0, sizeof(st));
	n = frame(buf, false, WR_WS_TEXT, "{\"jsonrpc\":", 11);
	n += frame(buf + n, true, WR_WS_PING, "hi", 2);
	n += frame(buf + n, true, 0x0, "\"2.0\"}", 6);
	n += frame(buf + n, true, WR_WS_TEXT, "x", 1);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_PING);
	CU_ASSERT(ev.len == 2 && memcmp(ev.data, "hi", 2) == 0);
	CU_ASSERT_EQUAL(ev.consumed, 0); /* a message is pending */
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_TEXT);
	CU_ASSERT(ev.len == 17 && memcmp(ev.data, "{\"jsonrpc\":\"2.0\"}", 17) ==
		  0);
	m = ev.consumed;
	memmove(buf, buf + m, n - m);
	n -= m;
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_TEXT);
	CU_ASSERT(ev.len == 1 && ev.data[0] == 'x' && ev.consumed == n);
	/* A message split over reads, compacted when the buffer is full. */
	memset(&st, 0, sizeof(st));
	n = frame(buf, false, WR_WS_TEXT, "abc", 3);
	m = frame(buf + n, true, 0x0, "def", 3);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n + 2, 100, &ev), WR_WS_EV_MORE);
	CU_ASSERT_EQUAL(wr_ws_compact(&st, buf, n + 2), 3 + 2);
	memmove(buf + 3, buf + n, m);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, 3 + m, 100, &ev), WR_WS_EV_TEXT);
	CU_ASSERT(ev.len == 6 && memcmp(ev.data, "abcdef", 6) == 0);
	/* Close with its code. */
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, WR_WS_CLOSE, "\x03\xe8", 2);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_CLOSE);
	CU_ASSERT_EQUAL(ev.code, 1000);
	/* Protocol errors. */
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, WR_WS_TEXT, "a", 1);
	buf[1] &= 0x7f; /* unmasked */
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_ERROR);
	CU_ASSERT_EQUAL(ev.code, WR_WS_CLOSE_PROTOCOL);
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, 0x2, "a", 1);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_ERROR);
	CU_ASSERT_EQUAL(ev.code, WR_WS_CLOSE_UNSUPPORTED);
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, 0x0, "a", 1);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_ERROR);
	memset(&st, 0, sizeof(st));
	n = frame(buf, false, WR_WS_PING, "a", 1);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_ERROR);
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, WR_WS_TEXT, "a", 1);
	buf[0] |= 0x40; /* RSV1 without an extension */
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_ERROR);
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, 0x3, "a", 1);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100, &ev), WR_WS_EV_ERROR);
	/* Too big: refused from the 10-byte header alone. */
	memset(&st, 0, sizeof(st));
	big = calloc(1, 70000);
	CU_ASSERT_FATAL(big != NULL);
	n = frame(buf, true, WR_WS_TEXT, big, 70000);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, 10, 65536, &ev), WR_WS_EV_ERROR);
	CU_ASSERT_EQUAL(ev.code, WR_WS_CLOSE_TOO_BIG);
	memset(&st, 0, sizeof(st));
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 70000, &ev), WR_WS_EV_TEXT);
	CU_ASSERT_EQUAL(ev.len, 70000);
	/* Fragments adding up past the limit. */
	memset(&st, 0, sizeof(st));
	n = frame(buf, false, WR_WS_TEXT, big, 60000);
	n += frame(buf + n, true, 0x0, big, 60000);
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, n, 100000, &ev), WR_WS_EV_ERROR);
	CU_ASSERT_EQUAL(ev.code, WR_WS_CLOSE_TOO_BIG);
	free(big);
	/* Non-minimal lengths are refused. */
	memset(&st, 0, sizeof(st));
	n = frame(buf, true, WR_WS_TEXT, "a", 1);
	buf[0] = 0x81;
	buf[1] = 0x80 | 126;
	buf[2] = 0;
	buf[3] = 5;
	CU_ASSERT_EQUAL(wr_ws_next(&st, buf, 20, 100, &ev), WR_WS_EV_ERROR);
	/* Server headers. */
	CU_ASSERT_EQUAL(wr_ws_head(hdr, WR_WS_TEXT, 125), 2);
	CU_ASSERT(hdr[0] == 0x81 && hdr[1] == 125);
	CU_ASSERT_EQUAL(wr_ws_head(hdr, WR_WS_TEXT, 126), 4);
	CU_ASSERT(hdr[1] == 126 && hdr[2] == 0 && hdr[3] == 126);
	CU_ASSERT_EQUAL(wr_ws_head(hdr, WR_WS_CLOSE, 65536), 10);
	CU_ASSERT(hdr[0] == 0x88 && hdr[1] == 127 && hdr[7] == 1 && hdr[9] == 0);
}

static void
test_assets(void)
{
	size_t i;

	/* Every asset has a type and an ETag; the page's entry exists. */
	CU_ASSERT(wr_web_n_assets >= 4);
	for (i = 0; i < wr_web_n_assets; i++) {
		CU_ASSERT(wr_web_assets[i].path[0] == '/');
		CU_ASSERT(strlen(wr_web_assets[i].type) > 0);
		CU_ASSERT(wr_web_assets[i].etag[0] == '"');
	}
	CU_ASSERT_PTR_NOT_NULL(wr_http_asset("/"));
	CU_ASSERT_PTR_EQUAL(wr_http_asset("/"), wr_http_asset("/index.html"));
	CU_ASSERT_PTR_NULL(wr_http_asset("/nope.js"));
}

/* The connection's two sockets in /proc/net/tcp's text (its header, a
 * listener, the server's end, the client's end with uid 65534): the
 * client's end names the owner.  127.0.0.1 is 0x0100007F in memory on a
 * little-endian machine, as the kernel prints it. */
static void
test_peer_uid(void)
{
	static const char tab[] =
		"  sl  local_address rem_address   st tx_queue rx_queue tr "
		"tm->when retrnsmt   uid  timeout inode\n"
		"   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 "
		"00:00000000 00000000     0        0 1151 1 0 100 0 0 10 0\n"
		"   1: 0100007F:1F90 0100007F:D431 01 00000000:00000000 "
		"00:00000000 00000000     0        0 2222 1 0 20 4 30 10 -1\n"
		"  12: 0100007F:D431 0100007F:1F90 01 00000000:00000000 "
		"00:00000000 00000000 65534        0 3333 1 0 20 4 30 10 -1\n";
	uint32_t lo = 0, uid = 1;
	uint8_t *b = (uint8_t *)&lo;

	b[0] = 127;
	b[3] = 1;
	if (lo != 0x0100007F) /* a big-endian machine prints it 7F000001 */
		return;
	CU_ASSERT_EQUAL(wr_http_peer_uid(tab, strlen(tab), lo, 0xD431, lo,
					 0x1F90, &uid), 0);
	CU_ASSERT_EQUAL(uid, 65534);
	/* The server's own end: its uid, 0. */
	CU_ASSERT_EQUAL(wr_http_peer_uid(tab, strlen(tab), lo, 0x1F90, lo,
					 0xD431, &uid), 0);
	CU_ASSERT_EQUAL(uid, 0);
	/* Another port, another address: not found. */
	CU_ASSERT_EQUAL(wr_http_peer_uid(tab, strlen(tab), lo, 0xD432, lo,
					 0x1F90, &uid), -ENOENT);
	CU_ASSERT_EQUAL(wr_http_peer_uid(tab, strlen(tab), lo + 1, 0xD431, lo,
					 0x1F90, &uid), -ENOENT);
	/* Not the table; a line cut before its uid. */
	CU_ASSERT_EQUAL(wr_http_peer_uid("hello\n", 6, lo, 1, lo, 2, &uid),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_http_peer_uid(tab, 200, lo, 0xD431, lo, 0x1F90,
					 &uid), -ENOENT);
	{
		char cut[400];
		size_t n = strlen(tab) - 60;

		memcpy(cut, tab, n);
		CU_ASSERT_EQUAL(wr_http_peer_uid(cut, n, lo, 0xD431, lo,
						 0x1F90, &uid), -EINVAL);
	}
}

/* A foreign peer gets 403 for the page and the WebSocket alike. */
static void
test_foreign(void)
{
	struct wr_http_policy pol = { .loopback_hosts = true, .foreign = true,
				      .peer_uid = 65534, .own_uid = 0 };
	struct wr_http_answer ans;
	struct wr_http_req req;
	int st;

	CU_ASSERT_FATAL(parse("GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n",
			      &req, &st) > 0);
	wr_http_route(&req, &pol, &ans);
	CU_ASSERT_EQUAL(ans.status, 403);
	CU_ASSERT_STRING_EQUAL(ans.why, "this console is its server's user's "
			       "(uid 0) only, not uid 65534's: with a token "
			       "(--http-token-file) anyone with it may log in");
	pol.foreign = false;
	wr_http_route(&req, &pol, &ans);
	CU_ASSERT_EQUAL(ans.status, 200);
}

/* Bodies of the OTG listener: Content-Length, chunked (decoded in place),
 * limits, the next request left where it is. */
static ssize_t
body(const char *head_body, struct wr_http_req *req, char *buf, size_t cap,
     size_t max, size_t *blen, int *st)
{
	ssize_t h;
	size_t n;

	*st = 0;
	h = wr_http_parse(head_body, strlen(head_body), req, st);
	if (h <= 0)
		return -1000;
	n = strlen(head_body) - (size_t)h;
	CU_ASSERT_FATAL(n < cap);
	memcpy(buf, head_body + h, n + 1);
	return wr_http_body(buf, n, req, max, blen, st);
}

static void
test_body(void)
{
	struct wr_http_req req;
	char buf[512];
	size_t blen = 99;
	int st;

	/* Content-Length: the bytes as they are, the next request after. */
	CU_ASSERT_EQUAL(body("POST /config HTTP/1.1\r\nHost: a\r\n"
			     "Content-Length: 7\r\n\r\n{\"a\":1}GET /",
			     &req, buf, sizeof(buf), 100, &blen, &st), 7);
	CU_ASSERT_EQUAL(blen, 7);
	CU_ASSERT_EQUAL(memcmp(buf, "{\"a\":1}GET /", 12), 0);
	CU_ASSERT(req.has_body && !req.chunked);
	CU_ASSERT_EQUAL(req.content_length, 7);
	/* Not all there yet. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n"
			     "12345", &req, buf, sizeof(buf), 100, &blen, &st),
			-EAGAIN);
	/* Over the limit: known from the head, before any byte of it. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n",
			     &req, buf, sizeof(buf), 100, &blen, &st), -EMSGSIZE);
	CU_ASSERT_EQUAL(st, 413);
	/* No length, no coding: no body (a GET), 0 bytes. */
	CU_ASSERT_EQUAL(body("GET / HTTP/1.1\r\n\r\nGET /x", &req, buf,
			     sizeof(buf), 100, &blen, &st), 0);
	CU_ASSERT_EQUAL(blen, 0);
	/* Chunked: two chunks (one with an extension, upper-case hex), a
	 * trailer, then the next request; the data moved together. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked"
			     "\r\n\r\n3;x=y\r\nabc\r\nA\r\n0123456789\r\n"
			     "0\r\nX-T: 1\r\n\r\nNEXT", &req, buf,
			     sizeof(buf), 100, &blen, &st),
			(ssize_t)strlen("3;x=y\r\nabc\r\nA\r\n0123456789\r\n"
					"0\r\nX-T: 1\r\n\r\n"));
	CU_ASSERT_EQUAL(blen, 13);
	CU_ASSERT_EQUAL(memcmp(buf, "abc0123456789", 13), 0);
	CU_ASSERT(req.chunked && req.has_body);
	/* Bare LFs, no trailer. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\nTransfer-Encoding: chunked\n\n"
			     "2\nhi\n0\n\n", &req, buf, sizeof(buf), 100,
			     &blen, &st), (ssize_t)strlen("2\nhi\n0\n\n"));
	CU_ASSERT_EQUAL(blen, 2);
	CU_ASSERT_EQUAL(memcmp(buf, "hi", 2), 0);
	/* Incomplete at each place: the size line, the data, its CRLF, the
	 * last chunk, the trailers' end; nothing moved meanwhile. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n3", &req, buf, sizeof(buf), 100, &blen,
			     &st), -EAGAIN);
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n3\r\nab", &req, buf, sizeof(buf), 100,
			     &blen, &st), -EAGAIN);
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n3\r\nabc\r", &req, buf, sizeof(buf),
			     100, &blen, &st), -EAGAIN);
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n3\r\nabc\r\n0\r\n", &req, buf,
			     sizeof(buf), 100, &blen, &st), -EAGAIN);
	CU_ASSERT_EQUAL(memcmp(buf, "3\r\nabc", 6), 0);
	/* Malformed: no digits, junk after the size, data not followed by
	 * CRLF. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\nzz\r\n", &req, buf, sizeof(buf), 100,
			     &blen, &st), -EBADMSG);
	CU_ASSERT_EQUAL(st, 400);
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n3 x\r\nabc\r\n0\r\n\r\n", &req, buf,
			     sizeof(buf), 100, &blen, &st), -EBADMSG);
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n3\r\nabcd\r\n0\r\n\r\n", &req, buf,
			     sizeof(buf), 100, &blen, &st), -EBADMSG);
	/* Chunks adding up past the limit: 413 from the size line. */
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\n40\r\n", &req, buf, sizeof(buf), 63,
			     &blen, &st), -EMSGSIZE);
	CU_ASSERT_EQUAL(st, 413);
	CU_ASSERT_EQUAL(body("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			     "\r\n\r\nffffffffffffffff\r\n", &req, buf,
			     sizeof(buf), 100, &blen, &st), -EMSGSIZE);
	/* The head: both framings (smuggling), another coding (501), two
	 * codings, an expectation other than 100-continue (417). */
	CU_ASSERT_EQUAL(parse("POST / HTTP/1.1\r\nContent-Length: 3\r\n"
			      "Transfer-Encoding: chunked\r\n\r\n", &req, &st),
			-EBADMSG);
	CU_ASSERT_EQUAL(st, 400);
	CU_ASSERT_EQUAL(parse("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, "
			      "chunked\r\n\r\n", &req, &st), -EBADMSG);
	CU_ASSERT_EQUAL(st, 501);
	CU_ASSERT_EQUAL(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked"
			      "\r\nTransfer-Encoding: chunked\r\n\r\n", &req,
			      &st), -EBADMSG);
	CU_ASSERT_EQUAL(st, 400);
	CU_ASSERT_EQUAL(parse("POST / HTTP/1.1\r\nExpect: 200-ok\r\n\r\n",
			      &req, &st), -EBADMSG);
	CU_ASSERT_EQUAL(st, 417);
	CU_ASSERT(parse("POST / HTTP/1.1\r\nExpect: 100-Continue\r\n\r\n",
			&req, &st) > 0 && req.expect_continue);
}

static void
test_keep_alive_auth(void)
{
	struct wr_http_req req;
	char tok[64], head[512];
	int st;

	CU_ASSERT(parse("GET / HTTP/1.1\r\n\r\n", &req, &st) > 0);
	CU_ASSERT(wr_http_keep_alive(&req));
	CU_ASSERT(parse("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n", &req,
			&st) > 0);
	CU_ASSERT(!wr_http_keep_alive(&req));
	CU_ASSERT(parse("GET / HTTP/1.0\r\n\r\n", &req, &st) > 0);
	CU_ASSERT(!wr_http_keep_alive(&req));
	CU_ASSERT(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
			&req, &st) > 0);
	CU_ASSERT(wr_http_keep_alive(&req));
	/* Authorization: kept whole; one only. */
	CU_ASSERT(parse("GET / HTTP/1.1\r\nAuthorization: Bearer  abc\r\n"
			"\r\n", &req, &st) > 0);
	CU_ASSERT(req.has_auth);
	CU_ASSERT_STRING_EQUAL(req.authorization, "Bearer  abc");
	CU_ASSERT_EQUAL(wr_http_auth_token(req.authorization, tok, sizeof(tok)),
			0);
	CU_ASSERT_STRING_EQUAL(tok, "abc");
	CU_ASSERT_EQUAL(parse("GET / HTTP/1.1\r\nAuthorization: a\r\n"
			      "Authorization: b\r\n\r\n", &req, &st), -EBADMSG);
	/* Bearer, and Basic's password: base64 of "otg:s3cret-token-0123"
	 * (python3 -c 'import base64; print(base64.b64encode(...))'). */
	CU_ASSERT_EQUAL(wr_http_auth_token("Bearer abc", tok, sizeof(tok)), 0);
	CU_ASSERT_STRING_EQUAL(tok, "abc");
	CU_ASSERT_EQUAL(wr_http_auth_token("basic b3RnOnMzY3JldC10b2tlbi0wMTIz",
					   tok, sizeof(tok)), 0);
	CU_ASSERT_STRING_EQUAL(tok, "s3cret-token-0123");
	/* "u:ab" (one '=' of padding), ":a:b" (a colon in the password). */
	CU_ASSERT_EQUAL(wr_http_auth_token("Basic dTphYg==", tok, sizeof(tok)),
			0);
	CU_ASSERT_STRING_EQUAL(tok, "ab");
	CU_ASSERT_EQUAL(wr_http_auth_token("Basic OmE6Yg==", tok, sizeof(tok)),
			0);
	CU_ASSERT_STRING_EQUAL(tok, "a:b");
	CU_ASSERT_EQUAL(wr_http_auth_token("", tok, sizeof(tok)), -ENOENT);
	CU_ASSERT_EQUAL(wr_http_auth_token("Digest x", tok, sizeof(tok)),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_http_auth_token("Basic dTphYg=", tok, sizeof(tok)),
			-EINVAL);
	/* "user" (no colon), "u:" (empty password). */
	CU_ASSERT_EQUAL(wr_http_auth_token("Basic dXNlcg==", tok, sizeof(tok)),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_http_auth_token("Basic dTo=", tok, sizeof(tok)),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_http_auth_token("Bearer a b", tok, sizeof(tok)),
			-EINVAL);
	CU_ASSERT_EQUAL(wr_http_auth_token("Bearer abcd", tok, 4), -EINVAL);
	/* A response head with its length and the connection's fate. */
	CU_ASSERT_EQUAL(wr_http_resp_head(401, "application/json", 12, false,
					  "WWW-Authenticate: Bearer\r\n", head,
					  sizeof(head)),
			(ssize_t)strlen(head));
	CU_ASSERT_STRING_EQUAL(head, "HTTP/1.1 401 Unauthorized\r\n"
			       "Content-Type: application/json\r\n"
			       "Content-Length: 12\r\n"
			       "Cache-Control: no-store\r\n"
			       "X-Content-Type-Options: nosniff\r\n"
			       "WWW-Authenticate: Bearer\r\n"
			       "Connection: close\r\n\r\n");
	CU_ASSERT_EQUAL(wr_http_resp_head(200, NULL, 0, true, NULL, head, 20),
			-ENOSPC);
}

static CU_TestInfo http_tests[] = {
	{ "peer_uid", test_peer_uid },
	{ "foreign", test_foreign },
	{ "parse", test_parse },
	{ "route", test_route },
	{ "upgrade", test_upgrade },
	{ "ws", test_ws },
	{ "assets", test_assets },
	{ "body", test_body },
	{ "keep_alive_auth", test_keep_alive_auth },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "http", .pTests = http_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

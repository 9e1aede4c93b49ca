/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the web console's request heads, routes and WebSocket frames (wr_http) on arbitrary bytes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_http.h"

/* What follows a head as its body (the OTG listener's framing), whole and
 * then cut short: a framed body is within what was received and within the
 * limit; the same bytes cut short never make a different body; a token
 * taken from Authorization fits its buffer. */
static void
body(const char *rest, size_t len, const struct wr_http_req *req)
{
	char *a = malloc(len + 1), *b = malloc(len + 1), tok[64];
	size_t alen = 0, blen = 0, cut;
	ssize_t fa, fb;
	int st = 0;

	if (a == NULL || b == NULL)
		goto out;
	memcpy(a, rest, len);
	fa = wr_http_body(a, len, req, 4096, &alen, &st);
	if (fa >= 0 && ((size_t)fa > len || alen > (size_t)fa || alen > 4096))
		abort();
	if (fa < 0 && fa != -EAGAIN && (st < 400 || st > 599))
		abort();
	cut = len / 2;
	memcpy(b, rest, cut);
	fb = wr_http_body(b, cut, req, 4096, &blen, &st);
	if (fa >= 0 && fb >= 0 && (fa != fb || alen != blen ||
				   memcmp(a, b, alen) != 0))
		abort();
	if (wr_http_auth_token(req->authorization, tok, sizeof(tok)) == 0 &&
	    strlen(tok) >= sizeof(tok))
		abort();
out:
	free(a);
	free(b);
}

/* The bytes as a request head: whatever parses routes to an answer whose
 * head fits and whose length is what was parsed. */
static void
head(const char *buf, size_t size)
{
	struct wr_http_policy pols[2] = { { .loopback_hosts = true },
					  { .loopback_hosts = false } };
	struct wr_http_answer ans;
	struct wr_http_req req;
	char out[4096];
	ssize_t n;
	int status = 0;
	unsigned int i;

	n = wr_http_parse(buf, size, &req, &status);
	if (n < 0) {
		if (status < 400 || status > 599)
			abort();
		return;
	}
	if (n == 0)
		return;
	if ((size_t)n > size || (size_t)n > WR_HTTP_HEAD_MAX ||
	    req.path[0] != '/' || strchr(req.host, '\r') != NULL)
		abort();
	body(buf + n, size - (size_t)n, &req);
	for (i = 0; i < 2; i++) {
		wr_http_route(&req, &pols[i], &ans);
		if (ans.action == WR_HTTP_ANSWER_ASSET && ans.asset == NULL)
			abort();
		if (wr_http_head(&ans, false, out, sizeof(out)) <= 0)
			abort();
		/* One response head: nothing from the request splits it. */
		if (strstr(out, "\r\n\r\n") + 4 != out + strlen(out))
			abort();
	}
}

/* The bytes as what a WebSocket client sent, fed in pieces of sizes the
 * first byte picks, the way the server reads them. */
static void
frames(const uint8_t *data, size_t size)
{
	struct wr_ws_rx st;
	struct wr_ws_event ev;
	uint8_t *buf;
	size_t cap = 512, len = 0, fed = 0, step;

	if (size == 0)
		return;
	step = (size_t)(data[0] % 64) + 1;
	buf = malloc(cap);
	if (buf == NULL)
		return;
	memset(&st, 0, sizeof(st));
	while (fed < size || len > 0) {
		enum wr_ws_kind k = wr_ws_next(&st, buf, len, 300, &ev);

		if (ev.consumed > len || (k == WR_WS_EV_TEXT && ev.len > 300))
			abort();
		if (k == WR_WS_EV_ERROR || k == WR_WS_EV_CLOSE)
			break;
		if (k == WR_WS_EV_TEXT && ev.len > 0 &&
		    (ev.data != buf || ev.data[ev.len - 1] != buf[ev.len - 1]))
			abort();
		memmove(buf, buf + ev.consumed, len - ev.consumed);
		len -= ev.consumed;
		if (k != WR_WS_EV_MORE)
			continue;
		if (fed == size)
			break;
		if (len == cap)
			len = wr_ws_compact(&st, buf, len);
		if (len == cap)
			break; /* the server closes: a frame larger than its buffer */
		{
			size_t n = size - fed < step ? size - fed : step;

			if (n > cap - len)
				n = cap - len;
			memcpy(buf + len, data + fed, n);
			len += n;
			fed += n;
		}
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	head((const char *)data, size);
	frames(data, size);
	return 0;
}

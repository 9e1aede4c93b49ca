/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_http: HTTP/1.1 request heads, the console's routes and WebSocket frames, parsed strictly and without I/O. */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "wr_http.h"

/* RFC 6455 section 1.3: appended to the client's key before hashing. */
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

const struct wr_web_asset *
wr_http_asset(const char *path)
{
	size_t i;

	if (strcmp(path, "/") == 0)
		path = "/index.html";
	for (i = 0; i < wr_web_n_assets; i++)
		if (strcmp(wr_web_assets[i].path, path) == 0)
			return &wr_web_assets[i];
	return NULL;
}

/* ---- request heads ---- */

static int
fail(int *status, int code, int rc)
{
	if (status != NULL)
		*status = code;
	return rc;
}

/* RFC 9110 token characters. */
static bool
is_tchar(int c)
{
	return isalnum(c) || (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* A comma-separated header value lists @p word (case-insensitive). */
static bool
lists(const char *v, const char *word)
{
	size_t n = strlen(word);

	while (*v != '\0') {
		while (*v == ' ' || *v == '\t' || *v == ',')
			v++;
		if (strncasecmp(v, word, n) == 0 &&
		    (v[n] == '\0' || v[n] == ',' || v[n] == ' ' || v[n] == '\t'))
			return true;
		while (*v != '\0' && *v != ',')
			v++;
	}
	return false;
}

/* Copy a header value into a field; too long: the head is too large. */
static int
take(char *dst, size_t cap, const char *v, size_t n, int *status)
{
	if (n >= cap)
		return fail(status, 431, -EMSGSIZE);
	memcpy(dst, v, n);
	dst[n] = '\0';
	return 0;
}

/* Host is reg-name / IPv4 / [IPv6] and an optional port: characters that
 * cannot end a header or change the CSP line it is written into. */
static bool
host_syntax_ok(const char *h)
{
	if (*h == '\0')
		return false;
	for (; *h != '\0'; h++)
		if (!isalnum((unsigned char)*h) && strchr(".-_:[]", *h) == NULL)
			return false;
	return true;
}

static int
header(struct wr_http_req *req, const char *name, size_t nlen, const char *v,
       size_t vlen, bool *seen_len, unsigned long long *clen, int *status)
{
	char num[24];
	char *end;

#define IS(s) (nlen == sizeof(s) - 1 && strncasecmp(name, s, nlen) == 0)
	if (IS("host")) {
		if (req->has_host)
			return fail(status, 400, -EBADMSG);
		req->has_host = true;
		if (take(req->host, sizeof(req->host), v, vlen, status) != 0)
			return -EMSGSIZE;
		if (!host_syntax_ok(req->host))
			return fail(status, 400, -EBADMSG);
	} else if (IS("origin")) {
		if (req->has_origin)
			return fail(status, 400, -EBADMSG);
		req->has_origin = true;
		return take(req->origin, sizeof(req->origin), v, vlen, status);
	} else if (IS("upgrade")) {
		char tmp[128];

		if (take(tmp, sizeof(tmp), v, vlen, status) != 0)
			return -EMSGSIZE;
		req->upgrade_ws = req->upgrade_ws || lists(tmp, "websocket");
	} else if (IS("connection")) {
		char tmp[256];

		if (take(tmp, sizeof(tmp), v, vlen, status) != 0)
			return -EMSGSIZE;
		req->conn_upgrade = req->conn_upgrade || lists(tmp, "upgrade");
		req->conn_close = req->conn_close || lists(tmp, "close");
		req->conn_keep_alive = req->conn_keep_alive ||
				       lists(tmp, "keep-alive");
	} else if (IS("sec-websocket-key")) {
		return take(req->ws_key, sizeof(req->ws_key), v, vlen, status);
	} else if (IS("sec-websocket-version")) {
		if (take(num, sizeof(num), v, vlen, status) != 0)
			return -EMSGSIZE;
		req->ws_version = isdigit((unsigned char)num[0]) &&
			strlen(num) <= 3 ? atoi(num) : 0;
	} else if (IS("if-none-match")) {
		if (vlen < sizeof(req->if_none_match))
			take(req->if_none_match, sizeof(req->if_none_match), v,
			     vlen, status);
	} else if (IS("content-length")) {
		unsigned long long n;

		if (vlen == 0 || vlen > 19 ||
		    take(num, sizeof(num), v, vlen, status) != 0)
			return fail(status, 400, -EBADMSG);
		for (end = num; *end != '\0'; end++)
			if (!isdigit((unsigned char)*end))
				return fail(status, 400, -EBADMSG);
		n = strtoull(num, NULL, 10);
		/* Two different lengths: a smuggling attempt (RFC 9112 6.3). */
		if (*seen_len && n != *clen)
			return fail(status, 400, -EBADMSG);
		*seen_len = true;
		*clen = n;
		req->content_length = n;
		if (n > 0)
			req->has_body = true;
	} else if (IS("transfer-encoding")) {
		char tmp[128];

		/* chunked alone: another coding would be a body we cannot
		 * frame (RFC 9112 6.1: 501), two of them a smuggling attempt. */
		if (req->chunked)
			return fail(status, 400, -EBADMSG);
		if (take(tmp, sizeof(tmp), v, vlen, status) != 0)
			return -EMSGSIZE;
		if (strcasecmp(tmp, "chunked") != 0)
			return fail(status, 501, -EBADMSG);
		req->has_body = true;
		req->chunked = true;
	} else if (IS("expect")) {
		char tmp[64];

		if (take(tmp, sizeof(tmp), v, vlen, status) != 0)
			return fail(status, 417, -EBADMSG);
		if (strcasecmp(tmp, "100-continue") != 0)
			return fail(status, 417, -EBADMSG);
		req->expect_continue = true;
	} else if (IS("authorization")) {
		if (req->has_auth)
			return fail(status, 400, -EBADMSG);
		req->has_auth = true;
		return take(req->authorization, sizeof(req->authorization), v,
			    vlen, status);
	}
#undef IS
	return 0;
}

ssize_t
wr_http_parse(const char *buf, size_t len, struct wr_http_req *req,
	      int *status)
{
	size_t scan = len < WR_HTTP_HEAD_MAX ? len : WR_HTTP_HEAD_MAX;
	size_t head = 0, i, line_no = 0, n_headers = 0;
	unsigned long long clen = 0;
	bool seen_len = false;
	const char *p, *eol;

	memset(req, 0, sizeof(*req));
	req->ws_version = -1;
	/* The end of the head: an empty line (CRLF, or a bare LF, which
	 * RFC 9112 section 2.2 lets a recipient accept). */
	for (i = 0; i < scan; i++) {
		if (buf[i] != '\n')
			continue;
		if (i >= 1 && buf[i - 1] == '\n') {
			head = i + 1;
			break;
		}
		if (i >= 2 && buf[i - 1] == '\r' && buf[i - 2] == '\n') {
			head = i + 1;
			break;
		}
	}
	if (head == 0)
		return len >= WR_HTTP_HEAD_MAX ? fail(status, 431, -EMSGSIZE) : 0;
	for (p = buf; p < buf + head; p = eol + 1, line_no++) {
		const char *end, *colon, *v;
		size_t n;

		eol = memchr(p, '\n', (size_t)(buf + head - p));
		end = eol;
		if (end > p && end[-1] == '\r')
			end--;
		n = (size_t)(end - p);
		for (i = 0; i < n; i++)
			if (((unsigned char)p[i] < 0x20 && p[i] != '\t') ||
			    p[i] == 0x7f)
				return fail(status, 400, -EBADMSG);
		if (line_no == 0) {
			const char *sp1 = memchr(p, ' ', n), *sp2, *q;
			size_t tlen;

			if (sp1 == NULL || sp1 == p ||
			    (size_t)(sp1 - p) >= sizeof(req->method))
				return fail(status, 400, -EBADMSG);
			for (q = p; q < sp1; q++)
				if (!isupper((unsigned char)*q))
					return fail(status, 400, -EBADMSG);
			memcpy(req->method, p, (size_t)(sp1 - p));
			sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1));
			if (sp2 == NULL || sp2 == sp1 + 1 || sp1[1] != '/')
				return fail(status, 400, -EBADMSG);
			q = memchr(sp1 + 1, '?', (size_t)(sp2 - sp1 - 1));
			tlen = (size_t)((q ? q : sp2) - sp1 - 1);
			if (tlen >= sizeof(req->path))
				return fail(status, 414, -EMSGSIZE);
			memcpy(req->path, sp1 + 1, tlen);
			req->path[tlen] = '\0';
			if ((size_t)(end - sp2 - 1) != 8 ||
			    strncmp(sp2 + 1, "HTTP/", 5) != 0)
				return fail(status, 400, -EBADMSG);
			if (strncmp(sp2 + 1, "HTTP/1.1", 8) == 0)
				continue;
			if (strncmp(sp2 + 1, "HTTP/1.0", 8) == 0) {
				req->http10 = true;
				continue;
			}
			return fail(status, 505, -EPROTONOSUPPORT);
		}
		if (n == 0)
			break; /* the blank line */
		/* No line folding (RFC 9112 5.2: obsolete, refuse it). */
		if (p[0] == ' ' || p[0] == '\t')
			return fail(status, 400, -EBADMSG);
		if (++n_headers > WR_HTTP_HEADERS_MAX)
			return fail(status, 431, -EMSGSIZE);
		colon = memchr(p, ':', n);
		if (colon == NULL || colon == p)
			return fail(status, 400, -EBADMSG);
		for (v = p; v < colon; v++)
			if (!is_tchar((unsigned char)*v))
				return fail(status, 400, -EBADMSG);
		v = colon + 1;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (header(req, p, (size_t)(colon - p), v, (size_t)(end - v),
			   &seen_len, &clen, status) != 0)
			return status != NULL && *status == 431 ? -EMSGSIZE :
			       -EBADMSG;
	}
	/* Both: which one frames the body is where smuggling lives (RFC
	 * 9112 6.3: a server may refuse it; we do). */
	if (seen_len && req->chunked)
		return fail(status, 400, -EBADMSG);
	return (ssize_t)head;
}

/* ---- routes ---- */

/* Host names the loopback: a site's name rebound to 127.0.0.1 does not. */
static bool
host_loopback(const char *host)
{
	char name[256];
	const char *colon;
	size_t n;
	unsigned int a, b, c, d;
	char tail;

	if (strncmp(host, "[::1]", 5) == 0)
		return host[5] == '\0' || host[5] == ':';
	colon = strchr(host, ':');
	n = colon ? (size_t)(colon - host) : strlen(host);
	if (n >= sizeof(name))
		return false;
	memcpy(name, host, n);
	name[n] = '\0';
	if (strcasecmp(name, "localhost") == 0)
		return true;
	return sscanf(name, "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) == 4 &&
	       a == 127 && b < 256 && c < 256 && d < 256;
}

static void
answer_error(struct wr_http_answer *ans, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
answer_error(struct wr_http_answer *ans, int status, const char *fmt, ...)
{
	va_list ap;

	ans->action = WR_HTTP_ANSWER_ERROR;
	ans->status = status;
	va_start(ap, fmt);
	vsnprintf(ans->why, sizeof(ans->why), fmt, ap);
	va_end(ap);
}

void
wr_http_route(const struct wr_http_req *req, const struct wr_http_policy *pol,
	      struct wr_http_answer *ans)
{
	char want[300];

	memset(ans, 0, sizeof(*ans));
	if (pol->foreign) {
		/* Not even the page: the console is the server's user's, as
		 * its Unix socket is (0600 in a 0700 directory). */
		if (pol->peer_uid == UINT32_MAX)
			answer_error(ans, 403, "this console is its server's "
				     "user's (uid %u) only, and this "
				     "connection's owner could not be told: "
				     "with a token (--http-token-file) anyone "
				     "with it may log in", pol->own_uid);
		else
			answer_error(ans, 403, "this console is its server's "
				     "user's (uid %u) only, not uid %u's: with "
				     "a token (--http-token-file) anyone with "
				     "it may log in", pol->own_uid,
				     pol->peer_uid);
		return;
	}
	if (!req->has_host && !req->http10) {
		answer_error(ans, 400, "an HTTP/1.1 request needs a Host header");
		return;
	}
	if (pol->loopback_hosts && (!req->has_host || !host_loopback(req->host))) {
		answer_error(ans, 403, "this console answers on the loopback "
			     "only: open it as http://127.0.0.1:PORT/ (Host "
			     "\"%.64s\" refused)", req->host);
		return;
	}
	if (req->has_body) {
		answer_error(ans, 413, "request bodies are refused: the "
			     "console sends everything over its WebSocket");
		return;
	}
	if (strcmp(req->method, "GET") != 0 && strcmp(req->method, "HEAD") != 0) {
		answer_error(ans, 405, "%s: only GET and HEAD", req->method);
		return;
	}
	if (strcmp(req->path, WR_HTTP_WS_PATH) == 0) {
		if (!req->upgrade_ws || !req->conn_upgrade) {
			answer_error(ans, 426, "%s is the console's WebSocket",
				     WR_HTTP_WS_PATH);
			return;
		}
		snprintf(want, sizeof(want), "%s://%s",
			 pol->https ? "https" : "http", req->host);
		if (!req->has_origin || !req->has_host ||
		    strcasecmp(req->origin, want) != 0) {
			answer_error(ans, 403, "the WebSocket takes pages of "
				     "this server only (Origin \"%.64s\" is "
				     "not %.64s)", req->origin, want);
			return;
		}
		if (req->ws_version != 13) {
			answer_error(ans, 426, "WebSocket version 13 only");
			return;
		}
		if (wr_http_ws_accept(req->ws_key, ans->accept) != 0) {
			answer_error(ans, 400, "Sec-WebSocket-Key: expected "
				     "16 bytes in base64");
			return;
		}
		ans->action = WR_HTTP_ANSWER_UPGRADE;
		ans->status = 101;
		return;
	}
	ans->asset = wr_http_asset(req->path);
	if (ans->asset == NULL) {
		answer_error(ans, 404, "%.64s: not a file of the console",
			     req->path);
		return;
	}
	ans->action = WR_HTTP_ANSWER_ASSET;
	ans->status = strcmp(req->if_none_match, ans->asset->etag) == 0 ?
		      304 : 200;
}

const char *
wr_http_reason(int status)
{
	switch (status) {
	case 100: return "Continue";
	case 101: return "Switching Protocols";
	case 200: return "OK";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 413: return "Content Too Large";
	case 414: return "URI Too Long";
	case 417: return "Expectation Failed";
	case 426: return "Upgrade Required";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	case 505: return "HTTP Version Not Supported";
	default: return "Error";
	}
}

size_t
wr_http_error_body(const struct wr_http_answer *ans, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%d %s: %s\n", ans->status,
			 wr_http_reason(ans->status), ans->why);

	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

ssize_t
wr_http_head(const struct wr_http_answer *ans, bool head_only, char *buf,
	     size_t len)
{
	/* The page loads only its own files and talks only to its own
	 * server; nothing inline, nothing framed. */
	static const char security[] =
		"X-Content-Type-Options: nosniff\r\n"
		"Referrer-Policy: no-referrer\r\n"
		"X-Frame-Options: DENY\r\n"
		"Cross-Origin-Resource-Policy: same-origin\r\n"
		"Content-Security-Policy: default-src 'self'; "
		"connect-src 'self'; img-src 'self' data: blob:; "
		"object-src 'none'; base-uri 'none'; form-action 'none'; "
		"frame-ancestors 'none'\r\n";
	char body[256];
	int n;

	(void)head_only;
	switch (ans->action) {
	case WR_HTTP_ANSWER_UPGRADE:
		n = snprintf(buf, len, "HTTP/1.1 101 Switching Protocols\r\n"
			     "Upgrade: websocket\r\nConnection: Upgrade\r\n"
			     "Sec-WebSocket-Accept: %s\r\n\r\n", ans->accept);
		break;
	case WR_HTTP_ANSWER_ASSET:
		n = snprintf(buf, len, "HTTP/1.1 %d %s\r\n"
			     "Content-Type: %s\r\nContent-Length: %zu\r\n"
			     "ETag: %s\r\nCache-Control: no-cache\r\n%s"
			     "Connection: close\r\n\r\n", ans->status,
			     wr_http_reason(ans->status), ans->asset->type,
			     ans->status == 304 ? 0 : ans->asset->len,
			     ans->asset->etag, security);
		break;
	default:
		n = snprintf(buf, len, "HTTP/1.1 %d %s\r\n"
			     "Content-Type: text/plain; charset=utf-8\r\n"
			     "Content-Length: %zu\r\n%s%s%s"
			     "Connection: close\r\n\r\n", ans->status,
			     wr_http_reason(ans->status),
			     wr_http_error_body(ans, body, sizeof(body)),
			     ans->status == 405 ? "Allow: GET, HEAD\r\n" : "",
			     ans->status == 426 ?
			     "Sec-WebSocket-Version: 13\r\n" : "", security);
		break;
	}
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	return n;
}

int
wr_http_ws_accept(const char *key, char out[32])
{
	unsigned char raw[32], md[EVP_MAX_MD_SIZE];
	char in[64 + sizeof(WS_GUID)];
	unsigned int mdlen = 0;
	size_t klen = strlen(key);
	int n;

	/* 16 bytes in base64: 24 characters ending "==". */
	if (klen != 24 || key[22] != '=' || key[23] != '=')
		return -EINVAL;
	n = EVP_DecodeBlock(raw, (const unsigned char *)key, 24);
	if (n != 18) /* 24 characters decode to 18 bytes, 2 of padding */
		return -EINVAL;
	snprintf(in, sizeof(in), "%s%s", key, WS_GUID);
	if (EVP_Digest(in, strlen(in), md, &mdlen, EVP_sha1(), NULL) != 1 ||
	    mdlen != 20)
		return -EIO;
	/* 20 bytes: 28 characters of base64 and a NUL. */
	EVP_EncodeBlock((unsigned char *)out, md, 20);
	return 0;
}

/* ---- request bodies (the OTG listener) ---- */

/* The end of the line starting at @p p (before @p end): its '\n', or NULL. */
static const char *
line_end(const char *p, const char *end)
{
	return memchr(p, '\n', (size_t)(end - p));
}

/* Chunked (RFC 9112 7.1): checked whole before anything moves, then (once
 * complete) its data moved together to the buffer's start. */
static ssize_t
body_chunked(char *buf, size_t len, size_t max, size_t *body_len, int *status)
{
	const char *end = buf + len;
	size_t pos = 0, out = 0, pass;

	for (pass = 0; pass < 2; pass++) {
		pos = out = 0;
		for (;;) {
			const char *p = buf + pos, *eol = line_end(p, end), *q;
			unsigned long long size = 0;
			size_t digits = 0;

			if (eol == NULL)
				return len >= max || len - pos > 1024 ?
				       fail(status, len >= max ? 413 : 400,
					    len >= max ? -EMSGSIZE :
					    -EBADMSG) : -EAGAIN;
			for (q = p; q < eol && isxdigit((unsigned char)*q); q++) {
				if (++digits > 15)
					return fail(status, 413, -EMSGSIZE);
				size = size * 16 + (unsigned long long)
				       (isdigit((unsigned char)*q) ? *q - '0' :
					tolower((unsigned char)*q) - 'a' + 10);
			}
			/* Extensions (";name=value") are read and dropped. */
			if (digits == 0 || (q < eol && *q != ';' && *q != '\r') ||
			    (*q == '\r' && q + 1 != eol))
				return fail(status, 400, -EBADMSG);
			if (out + size > max)
				return fail(status, 413, -EMSGSIZE);
			pos = (size_t)(eol + 1 - buf);
			if (size == 0)
				break;
			if (len - pos < size + 1)
				return len >= max ? fail(status, 413, -EMSGSIZE) :
				       -EAGAIN;
			if (pass == 1)
				memmove(buf + out, buf + pos, size);
			out += size;
			pos += size;
			if (buf[pos] == '\r') {
				if (len - pos < 2)
					return -EAGAIN;
				pos++;
			}
			if (buf[pos] != '\n')
				return fail(status, 400, -EBADMSG);
			pos++;
		}
		/* Trailer fields up to an empty line: dropped. */
		for (;;) {
			const char *p = buf + pos, *eol = line_end(p, end);

			if (eol == NULL)
				return len >= max || len - pos > WR_HTTP_HEAD_MAX ?
				       fail(status, 400, -EBADMSG) : -EAGAIN;
			pos = (size_t)(eol + 1 - buf);
			if (eol == p || (eol == p + 1 && *p == '\r'))
				break;
		}
	}
	*body_len = out;
	return (ssize_t)pos;
}

ssize_t
wr_http_body(char *buf, size_t len, const struct wr_http_req *req, size_t max,
	     size_t *body_len, int *status)
{
	*body_len = 0;
	if (req->chunked)
		return body_chunked(buf, len, max, body_len, status);
	if (req->content_length > max)
		return fail(status, 413, -EMSGSIZE);
	if (len < req->content_length)
		return -EAGAIN;
	*body_len = (size_t)req->content_length;
	return (ssize_t)req->content_length;
}

bool
wr_http_keep_alive(const struct wr_http_req *req)
{
	return req->http10 ? req->conn_keep_alive && !req->conn_close :
	       !req->conn_close;
}

/* The token's bytes: printable ASCII, as a token file's (wr_auth.h). */
static int
token_copy(const char *v, size_t n, char *tok, size_t len)
{
	size_t i;

	if (n == 0 || n >= len)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x21 || (unsigned char)v[i] > 0x7e)
			return -EINVAL;
	memcpy(tok, v, n);
	tok[n] = '\0';
	return 0;
}

int
wr_http_auth_token(const char *authz, char *tok, size_t len)
{
	unsigned char raw[400];
	const char *v, *colon;
	size_t n, pad = 0;
	int dec;

	if (authz == NULL || authz[0] == '\0')
		return -ENOENT;
	if (strncasecmp(authz, "Bearer ", 7) == 0) {
		for (v = authz + 7; *v == ' '; v++)
			;
		return token_copy(v, strlen(v), tok, len);
	}
	if (strncasecmp(authz, "Basic ", 6) != 0)
		return -EINVAL;
	for (v = authz + 6; *v == ' '; v++)
		;
	n = strlen(v);
	/* EVP_DecodeBlock() takes whole quanta and counts padding as
	 * bytes: only those, and the padding taken off after. */
	if (n == 0 || n % 4 != 0 || n / 4 * 3 > sizeof(raw) - 1)
		return -EINVAL;
	if (v[n - 1] == '=')
		pad = v[n - 2] == '=' ? 2 : 1;
	dec = EVP_DecodeBlock(raw, (const unsigned char *)v, (int)n);
	if (dec < 0 || (size_t)dec < pad)
		return -EINVAL;
	dec -= (int)pad;
	raw[dec] = '\0';
	if (memchr(raw, '\0', (size_t)dec) != NULL)
		return -EINVAL;
	colon = strchr((const char *)raw, ':');
	if (colon == NULL)
		return -EINVAL;
	return token_copy(colon + 1, strlen(colon + 1), tok, len);
}

ssize_t
wr_http_resp_head(int status, const char *ctype, size_t body_len,
		  bool keep_alive, const char *extra, char *buf, size_t len)
{
	int n = snprintf(buf, len, "HTTP/1.1 %d %s\r\n%s%s%s"
			 "Content-Length: %zu\r\n"
			 "Cache-Control: no-store\r\n"
			 "X-Content-Type-Options: nosniff\r\n%s"
			 "Connection: %s\r\n\r\n", status, wr_http_reason(status),
			 ctype ? "Content-Type: " : "", ctype ? ctype : "",
			 ctype ? "\r\n" : "", body_len, extra ? extra : "",
			 keep_alive ? "keep-alive" : "close");

	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	return n;
}

/* ---- WebSocket frames ---- */

static enum wr_ws_kind
ws_event(struct wr_ws_rx *st, struct wr_ws_event *ev, enum wr_ws_kind kind)
{
	ev->kind = kind;
	/* Nothing of a message pending: what was parsed may be dropped. */
	if (!st->in_msg && kind != WR_WS_EV_ERROR) {
		ev->consumed = st->pos;
		st->pos = 0;
	}
	return kind;
}

static enum wr_ws_kind
ws_error(struct wr_ws_event *ev, uint16_t code)
{
	ev->kind = WR_WS_EV_ERROR;
	ev->code = code;
	return WR_WS_EV_ERROR;
}

enum wr_ws_kind
wr_ws_next(struct wr_ws_rx *st, uint8_t *buf, size_t len, size_t max_msg,
	   struct wr_ws_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	for (;;) {
		uint8_t *f = buf + st->pos;
		size_t avail = len > st->pos ? len - st->pos : 0, hlen = 2, i;
		uint64_t plen;
		uint8_t op, *mask, *pay;
		bool fin;

		if (avail < 2)
			return ws_event(st, ev, WR_WS_EV_MORE);
		fin = f[0] & 0x80;
		op = f[0] & 0x0f;
		/* No extension was negotiated: reserved bits stay 0; a
		 * client masks every frame (RFC 6455 5.1, 5.2). */
		if ((f[0] & 0x70) != 0 || !(f[1] & 0x80))
			return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
		plen = f[1] & 0x7f;
		if (plen == 126) {
			if (avail < 4)
				return ws_event(st, ev, WR_WS_EV_MORE);
			plen = (uint64_t)f[2] << 8 | f[3];
			hlen = 4;
			if (plen < 126)
				return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
		} else if (plen == 127) {
			if (avail < 10)
				return ws_event(st, ev, WR_WS_EV_MORE);
			plen = 0;
			for (i = 0; i < 8; i++)
				plen = plen << 8 | f[2 + i];
			hlen = 10;
			if (plen < 65536 || (plen >> 63) != 0)
				return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
		}
		if (op >= 0x8) {
			/* Control frames: whole and short (5.5). */
			if (!fin || plen > 125)
				return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
		} else if (op == 0x2) {
			return ws_error(ev, WR_WS_CLOSE_UNSUPPORTED);
		} else if (op != 0x0 && op != WR_WS_TEXT) {
			return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
		} else if ((op == 0x0) != st->in_msg) {
			/* A continuation without a message, or a new message
			 * before the last one ended. */
			return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
		} else if (plen > max_msg - st->msg_len) {
			/* Refused from its header: the payload is never
			 * read into memory. */
			return ws_error(ev, WR_WS_CLOSE_TOO_BIG);
		}
		if (avail < hlen + 4 + plen)
			return ws_event(st, ev, WR_WS_EV_MORE);
		mask = f + hlen;
		pay = mask + 4;
		for (i = 0; i < plen; i++)
			pay[i] ^= mask[i & 3];
		st->pos += hlen + 4 + (size_t)plen;
		if (op >= 0x8) {
			ev->data = pay;
			ev->len = (size_t)plen;
			if (op == WR_WS_PING)
				return ws_event(st, ev, WR_WS_EV_PING);
			if (op == WR_WS_PONG)
				return ws_event(st, ev, WR_WS_EV_PONG);
			if (op != WR_WS_CLOSE)
				return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
			if (plen == 1)
				return ws_error(ev, WR_WS_CLOSE_PROTOCOL);
			ev->code = plen >= 2 ? (uint16_t)(pay[0] << 8 | pay[1]) :
				   1005;
			return ws_event(st, ev, WR_WS_EV_CLOSE);
		}
		/* Data: its payload joins the message at the front. */
		memmove(buf + st->msg_len, pay, (size_t)plen);
		st->msg_len += (size_t)plen;
		st->in_msg = true;
		if (!fin)
			continue;
		ev->data = buf;
		ev->len = st->msg_len;
		st->in_msg = false;
		st->msg_len = 0;
		return ws_event(st, ev, WR_WS_EV_TEXT);
	}
}

size_t
wr_ws_compact(struct wr_ws_rx *st, uint8_t *buf, size_t len)
{
	size_t gap = st->pos - st->msg_len;

	if (gap == 0 || len < st->pos)
		return len;
	memmove(buf + st->msg_len, buf + st->pos, len - st->pos);
	st->pos = st->msg_len;
	return len - gap;
}

size_t
wr_ws_head(uint8_t hdr[10], uint8_t opcode, uint64_t len)
{
	unsigned int i;

	hdr[0] = 0x80 | (opcode & 0x0f);
	if (len < 126) {
		hdr[1] = (uint8_t)len;
		return 2;
	}
	if (len < 65536) {
		hdr[1] = 126;
		hdr[2] = (uint8_t)(len >> 8);
		hdr[3] = (uint8_t)len;
		return 4;
	}
	hdr[1] = 127;
	for (i = 0; i < 8; i++)
		hdr[2 + i] = (uint8_t)(len >> (56 - 8 * i));
	return 10;
}

/* One hex field of /proc/net/tcp up to @p stop; @return its end or NULL. */
static const char *
hex_field(const char *p, const char *end, char stop, uint64_t max,
	  uint64_t *v)
{
	const char *b = p;

	*v = 0;
	for (; p < end && *p != stop; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'A' && *p <= 'F' ? *p - 'A' + 10 :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0 || *v > max >> 4)
			return NULL;
		*v = *v << 4 | (uint64_t)d;
	}
	return p > b && p < end ? p : NULL;
}

/* "ADDR:PORT" (8 and 4 hex digits, as net/ipv4/tcp_ipv4.c prints them)
 * followed by a space. */
static const char *
endpoint(const char *p, const char *end, uint32_t *addr, uint16_t *port)
{
	uint64_t a, pt;

	p = hex_field(p, end, ':', UINT32_MAX, &a);
	if (p == NULL)
		return NULL;
	p = hex_field(p + 1, end, ' ', UINT16_MAX, &pt);
	if (p == NULL)
		return NULL;
	*addr = (uint32_t)a;
	*port = (uint16_t)pt;
	return p;
}

static const char *
skip_spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

int
wr_http_peer_uid(const char *table, size_t len, uint32_t peer_addr,
		 uint16_t peer_port, uint32_t local_addr, uint16_t local_port,
		 uint32_t *uid)
{
	const char *end = table + len, *p = table, *nl;
	bool header = true;

	for (; p < end; p = nl + 1) {
		uint32_t la, ra;
		uint16_t lp, rp;
		const char *q;
		unsigned int f;
		uint64_t u;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		if (header) { /* "  sl  local_address rem_address ..." */
			header = false;
			q = p;
			while (q + 13 <= nl && memcmp(q, "local_address", 13) != 0)
				q++;
			if (q + 13 > nl)
				return -EINVAL;
			continue;
		}
		/* "   N: LOCAL REMOTE ST TX:RX TR:WHEN RETR UID ..." */
		q = memchr(p, ':', (size_t)(nl - p));
		if (q == NULL)
			continue;
		q = skip_spaces(q + 1, nl);
		q = endpoint(q, nl, &la, &lp);
		if (q == NULL)
			continue;
		q = endpoint(skip_spaces(q, nl), nl, &ra, &rp);
		if (q == NULL || la != peer_addr || lp != peer_port ||
		    ra != local_addr || rp != local_port)
			continue;
		/* st, tx_queue:rx_queue, tr:tm->when, retrnsmt: then uid. */
		for (f = 0; f < 4 && q != NULL && q < nl; f++) {
			q = skip_spaces(q, nl);
			while (q < nl && *q != ' ')
				q++;
		}
		q = skip_spaces(q, nl);
		u = 0;
		if (q >= nl || *q < '0' || *q > '9')
			return -EINVAL;
		for (; q < nl && *q >= '0' && *q <= '9'; q++) {
			u = u * 10 + (uint64_t)(*q - '0');
			if (u > UINT32_MAX)
				return -EINVAL;
		}
		*uid = (uint32_t)u;
		return 0;
	}
	return header ? -EINVAL : -ENOENT;
}

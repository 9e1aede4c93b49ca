/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_app: what a connection says (HTTP/1.1 client and server, raw programs): bytes by stream offset with their checksum sums, and what is received, in 16 bytes of state. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_csum.h"
#include "wr_tcp_app.h"

#ifndef WR_VERSION
#define WR_VERSION "dev"
#endif

/* ------------------------------------------------------------------ */
/* Data and sums                                                      */

/* Prefix sums of @p n bytes: sum[i] is the ones-complement sum (mod
 * 0xffff) of b[0 .. i), even bytes weighed as high bytes (RFC 1071). */
static void
prefix_sums(const uint8_t *b, uint64_t n, uint32_t *sum)
{
	uint64_t s = 0;

	sum[0] = 0;
	for (uint64_t i = 0; i < n; i++) {
		s += (i & 1) ? b[i] : (uint64_t)b[i] << 8;
		if (s >= 0xffff)
			s -= 0xffff;
		sum[i + 1] = (uint32_t)s;
	}
}

/* The difference of two prefix sums (each at most 0xffff), placed at an
 * offset of parity @p bpos in what is summed when the range starts at
 * @p r: an odd shift swaps the bytes of every word, a multiplication by
 * 2^8 modulo 0xffff (wr_csum_odd), folded once (below 2^17). */
static inline uint32_t
diff_sum(uint32_t hi, uint32_t lo, uint64_t r, uint64_t bpos)
{
	uint32_t d = hi >= lo ? hi - lo : hi + 0xffff - lo;

	if ((r ^ bpos) & 1) {
		d = (uint32_t)wr_csum_odd(d);
		d = (d & 0xffff) + (d >> 16);
	}
	return d;
}

/* The prefix sum of the data's first @p x bytes (at most 0xffff): from
 * the table, and the bytes of a partial 64-byte block (it starts at an
 * even offset, so wr_csum_sum weighs them as the table does). */
static inline uint32_t
prefix_at(const struct wr_tcp_app *a, uint64_t x)
{
	uint64_t j, base;
	uint32_t s;

	if (a->sum_shift == 0)
		return a->sum[x];
	j = x >> a->sum_shift;
	base = j << a->sum_shift;
	s = a->sum[j];
	if (x > base) {
		s += wr_csum_sum(a->data + base, (uint32_t)(x - base));
		s = (s & 0xffff) + (s >> 16);
	}
	return s;
}

/* Data bytes x .. x + n of a message into @p dst (at parity @p bpos of
 * the segment); @return their sum. */
static uint64_t
data_copy(const struct wr_tcp_app *a, uint64_t x, uint8_t *dst, uint64_t n,
	  uint64_t bpos)
{
	uint64_t acc = 0;

	while (n > 0) {
		uint64_t r = x < a->period ? x : x % a->period;
		uint64_t c = n < a->data_len - r ? n : a->data_len - r;

		memcpy(dst, a->data + r, c);
		acc += diff_sum(prefix_at(a, r + c), prefix_at(a, r), r, bpos);
		dst += c;
		x += c;
		bpos += c;
		n -= c;
	}
	return acc;
}

bool
wr_tcp_app_match(const struct wr_tcp_app *a, uint64_t x, const uint8_t *p,
		 uint64_t n)
{
	while (n > 0) {
		uint64_t r = x < a->period ? x : x % a->period;
		uint64_t c = n < a->data_len - r ? n : a->data_len - r;

		if (memcmp(p, a->data + r, c) != 0)
			return false;
		p += c;
		x += c;
		n -= c;
	}
	return true;
}

static int
data_init(struct wr_tcp_app *a, const uint8_t *data, uint64_t data_len,
	  struct wr_error *err)
{
	bool file = a->spec->data == WR_TCP_DATA_FILE;
	uint64_t i, n_sum;

	if (file && (data == NULL || data_len == 0))
		return wr_error_set(err, -EINVAL, NULL, a->spec->where.line,
				    a->spec->where.col, "data",
				    "class %s: its data file is empty",
				    a->spec->name);
	a->period = file ? data_len : WR_TCP_PATTERN_PERIOD;
	if (file && data_len > WR_TCP_APP_COPY_MAX) {
		/* A large file (seed 002's is 500 MiB): its bytes where
		 * the caller keeps them, sums by 64-byte blocks. */
		a->data = data;
		a->data_len = data_len;
		a->sum_shift = 6;
	} else {
		a->rep_len = a->period + WR_TCP_APP_FILL_RUN;
		a->rep = malloc(a->rep_len);
		if (a->rep == NULL)
			return -ENOMEM;
		for (i = 0; i < a->rep_len; i++) {
			uint64_t j = i % a->period;

			/* doc/tcp.md: byte i of a message's data is i % 251. */
			a->rep[i] = file ? data[j] : (uint8_t)j;
		}
		a->data = a->rep;
		a->data_len = a->rep_len;
	}
	n_sum = (a->data_len >> a->sum_shift) + 1;
	a->sum = malloc(n_sum * sizeof(*a->sum));
	if (a->sum == NULL)
		return -ENOMEM;
	if (a->sum_shift == 0) {
		prefix_sums(a->data, a->data_len, a->sum);
	} else {
		uint64_t s = 0, blk = 1ull << a->sum_shift;

		a->sum[0] = 0;
		for (i = 1; i < n_sum; i++) {
			s += wr_csum_sum(a->data + (i - 1) * blk, (uint32_t)blk);
			s = s >= 0xffff ? s - 0xffff : s;
			a->sum[i] = (uint32_t)s;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* What a side sends: HTTP heads                                      */

static const struct {
	uint16_t code;
	const char *reason;
} reasons[] = {
	{ 100, "Continue" }, { 101, "Switching Protocols" },
	{ 200, "OK" }, { 201, "Created" }, { 202, "Accepted" },
	{ 204, "No Content" }, { 206, "Partial Content" },
	{ 301, "Moved Permanently" }, { 302, "Found" }, { 303, "See Other" },
	{ 304, "Not Modified" }, { 307, "Temporary Redirect" },
	{ 308, "Permanent Redirect" }, { 400, "Bad Request" },
	{ 401, "Unauthorized" }, { 403, "Forbidden" }, { 404, "Not Found" },
	{ 405, "Method Not Allowed" }, { 408, "Request Timeout" },
	{ 409, "Conflict" }, { 410, "Gone" }, { 413, "Content Too Large" },
	{ 429, "Too Many Requests" }, { 500, "Internal Server Error" },
	{ 501, "Not Implemented" }, { 502, "Bad Gateway" },
	{ 503, "Service Unavailable" }, { 504, "Gateway Timeout" },
};

static const char *
reason_of(uint16_t code)
{
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].code == code)
			return reasons[i].reason;
	return "Status"; /* RFC 9112 4: clients ignore the phrase */
}

/* A status whose response has no body (RFC 9110 15.3.5, 15.4.5). */
static bool
bodiless(uint16_t status)
{
	return status < 200 || status == 204 || status == 304;
}

/* The Host header's value: the class's, or the server's address with
 * its port when not 80, an IPv6 address in brackets (RFC 9110 7.2). */
static void
host_value(const struct wr_tcp_class *c, const char *host, char *out,
	   size_t cap)
{
	const char *h = c->http.host[0] != '\0' ? c->http.host :
			host != NULL ? host : "";
	bool v6 = strchr(h, ':') != NULL && h[0] != '[';

	if (c->http.host[0] != '\0' || c->server.dport == 80)
		snprintf(out, cap, v6 ? "[%s]" : "%s", h);
	else
		snprintf(out, cap, v6 ? "[%s]:%u" : "%s:%u", h,
			 (unsigned int)c->server.dport);
}

/* Write one header block (@p last: Connection: close) into @p out;
 * @return its length, or -1 when longer than the room. */
static int
http_head(const struct wr_tcp_app *a, const char *host, bool last,
	  uint8_t *out)
{
	const struct wr_tcp_http *h = &a->spec->http;
	/* "close" padded to keep-alive's length by blanks before it (OWS,
	 * RFC 9112 5.1), so every message has the same length. */
	const char *conn = last ? "Connection:      close" :
			   "Connection: keep-alive";
	char hv[WR_TCP_HOSTNAME_MAX + 64], cl[128] = "";
	int n;

	if (a->side == WR_TCP_CLIENT) {
		host_value(a->spec, host, hv, sizeof(hv));
		if (h->request_body > 0)
			snprintf(cl, sizeof(cl),
				 "Content-Type: application/octet-stream\r\n"
				 "Content-Length: %" PRIu64 "\r\n",
				 h->request_body);
		n = snprintf((char *)out, WR_TCP_APP_HDR_MAX,
			     "%s %s HTTP/1.1\r\nHost: %s\r\n"
			     "User-Agent: wirerate/%s\r\nAccept: */*\r\n"
			     "%s%s\r\n\r\n",
			     h->method, h->path, hv, WR_VERSION, cl, conn);
	} else {
		if (!bodiless(h->status))
			snprintf(cl, sizeof(cl),
				 "Content-Type: application/octet-stream\r\n"
				 "Content-Length: %" PRIu64 "\r\n",
				 h->response_body);
		n = snprintf((char *)out, WR_TCP_APP_HDR_MAX,
			     "HTTP/1.1 %u %s\r\nServer: wirerate/%s\r\n"
			     "%s%s\r\n\r\n",
			     (unsigned int)h->status, reason_of(h->status),
			     WR_VERSION, cl, conn);
	}
	return n < 0 || n >= WR_TCP_APP_HDR_MAX ? -1 : n;
}

static int
http_init(struct wr_tcp_app *a, const char *host, struct wr_error *err)
{
	const struct wr_tcp_http *h = &a->spec->http;
	int n = http_head(a, host, false, a->hdr);
	int m = http_head(a, host, true, a->hdr_last);

	if (n < 0 || m != n) {
		return wr_error_set(err, -EINVAL, NULL, a->spec->where.line,
				    a->spec->where.col, "http",
				    "class %s: the HTTP %s head is longer "
				    "than %d bytes", a->spec->name,
				    a->side == WR_TCP_CLIENT ? "request" :
				    "response", WR_TCP_APP_HDR_MAX);
	}
	a->hdr_len = (uint32_t)n;
	prefix_sums(a->hdr, a->hdr_len, a->hdr_sum[0]);
	prefix_sums(a->hdr_last, a->hdr_len, a->hdr_sum[1]);
	a->head = strcmp(h->method, "HEAD") == 0;
	if (a->side == WR_TCP_CLIENT) {
		a->body_len = h->request_body;
		a->peer_body = bodiless(h->status) || a->head ? 0 : h->response_body;
		a->n_msgs = h->requests;
		/* The last request says the client is done, whoever sends
		 * the first FIN (RFC 9112 9.6). */
		a->last_msg = h->requests > 0 ? h->requests - 1 : UINT64_MAX;
	} else {
		a->body_len = bodiless(h->status) ? 0 : h->response_body;
		a->peer_body = h->request_body;
		a->n_msgs = UINT64_MAX; /* a real client may ask more */
		a->last_msg = h->close_by_server && h->requests > 0 ?
			      h->requests - 1 : UINT64_MAX;
	}
	a->msg_len = a->hdr_len + a->body_len;
	return 0;
}

/* ------------------------------------------------------------------ */
/* What a side sends: raw programs                                    */

static void
raw_init(struct wr_tcp_app *a)
{
	const struct wr_tcp_class *c = a->spec;
	uint64_t end = 0;

	for (uint32_t i = 0; i < c->n_steps && i < WR_TCP_STEPS_MAX; i++) {
		const struct wr_tcp_step *s = &c->steps[i];

		if (s->op == WR_TCP_OP_SEND && s->by == a->side) {
			if (s->bytes == WR_TCP_UNTIL_CLOSE ||
			    end == UINT64_MAX)
				end = UINT64_MAX;
			else if (s->bytes > UINT64_MAX - 1 - end)
				end = UINT64_MAX;
			else
				end += s->bytes;
		}
		a->send_end[i] = end;
	}
	a->n_msgs = 0;
	for (uint32_t i = 0; i < c->n_steps; i++)
		if (c->steps[i].op == WR_TCP_OP_SEND && c->steps[i].by == a->side)
			a->n_msgs++;
	a->last_msg = UINT64_MAX;
}

int
wr_tcp_app_init(struct wr_tcp_app *a, const struct wr_tcp_class *c,
		enum wr_tcp_side side, const uint8_t *data, uint64_t data_len,
		const char *host, struct wr_error *err)
{
	int rc;

	memset(a, 0, sizeof(*a));
	a->spec = c;
	a->side = side;
	if (!c->is_http && c->n_steps > WR_TCP_STEPS_MAX) {
		return wr_error_set(err, -EINVAL, NULL, c->where.line,
				    c->where.col, "program",
				    "class %s: more than %d steps", c->name,
				    WR_TCP_STEPS_MAX);
	}
	/* Both sides wirerate's own: what arrives can be checked against
	 * what the other side's fill writes. */
	a->verify = c->client.present && c->server.present &&
		    c->server.n_addr == 0;
	rc = data_init(a, data, data_len, err);
	if (rc == 0)
		rc = c->is_http ? http_init(a, host, err) : (raw_init(a), 0);
	if (rc != 0) {
		if (rc == -ENOMEM)
			wr_error_set(err, rc, NULL, c->where.line,
				     c->where.col, "data",
				     "class %s: no memory for its data", c->name);
		wr_tcp_app_fini(a);
	}
	return rc;
}

void
wr_tcp_app_fini(struct wr_tcp_app *a)
{
	if (a == NULL)
		return;
	free(a->rep);
	free(a->sum);
	a->rep = NULL;
	a->sum = NULL;
	a->data = NULL;
}

/* ------------------------------------------------------------------ */
/* fill                                                               */

static uint64_t
fill_http(const struct wr_tcp_app *a, uint64_t off, uint8_t *buf,
	  uint32_t len)
{
	uint64_t acc = 0, bpos = 0;

	while (bpos < len) {
		/* Most segments lie in the first message (a short
		 * exchange): no division for them. */
		uint64_t k = off < a->msg_len ? 0 : off / a->msg_len;
		uint64_t m = off - k * a->msg_len;
		uint64_t n, want = len - bpos;

		if (k >= a->n_msgs) {
			memset(buf + bpos, 0, want);
			break;
		}
		if (m < a->hdr_len) {
			bool last = k == a->last_msg;

			n = a->hdr_len - m < want ? a->hdr_len - m : want;
			memcpy(buf + bpos, (last ? a->hdr_last : a->hdr) + m, n);
			acc += diff_sum(a->hdr_sum[last][m + n],
					a->hdr_sum[last][m], m, bpos);
		} else {
			n = a->msg_len - m < want ? a->msg_len - m : want;
			acc += data_copy(a, m - a->hdr_len, buf + bpos, n, bpos);
		}
		bpos += n;
		off += n;
	}
	return acc;
}

/* The step whose send holds stream offset @p off (send_end[] grows). */
static uint32_t
raw_step_at(const struct wr_tcp_app *a, uint64_t off)
{
	uint32_t lo = 0, hi = a->spec->n_steps;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (a->send_end[mid] > off)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static uint64_t
fill_raw(const struct wr_tcp_app *a, uint64_t off, uint8_t *buf, uint32_t len)
{
	uint64_t acc = 0, bpos = 0;

	while (bpos < len) {
		uint32_t i = raw_step_at(a, off);
		uint64_t start, n, want = len - bpos;

		if (i >= a->spec->n_steps) {
			memset(buf + bpos, 0, want);
			break;
		}
		start = i == 0 ? 0 : a->send_end[i - 1];
		n = a->send_end[i] - off < want ? a->send_end[i] - off : want;
		/* Each send's data begins at the data's first byte. */
		acc += data_copy(a, off - start, buf + bpos, n, bpos);
		bpos += n;
		off += n;
	}
	return acc;
}

uint32_t
wr_tcp_app_fill(const struct wr_tcp_app *a, uint64_t off, uint8_t *buf,
		uint32_t len)
{
	uint64_t acc = a->spec->is_http ? fill_http(a, off, buf, len) :
			fill_raw(a, off, buf, len);
	uint16_t f = wr_csum_fold(acc);

	return f == 0xffff ? 0 : f; /* congruent modulo 0xffff */
}

uint64_t
wr_tcp_app_message(const struct wr_tcp_app *a, uint32_t k, uint8_t *buf,
		   uint32_t cap, uint32_t *copied)
{
	uint32_t n = 0;
	uint64_t len = 0;

	if (a->spec->is_http) {
		if (k < a->n_msgs && (a->n_msgs != UINT64_MAX ||
				      k < a->spec->http.requests)) {
			const uint8_t *h = k == a->last_msg ? a->hdr_last : a->hdr;

			n = a->hdr_len < cap ? a->hdr_len : cap;
			memcpy(buf, h, n);
			len = a->msg_len;
		}
	} else {
		uint32_t seen = 0;

		for (uint32_t i = 0; i < a->spec->n_steps; i++) {
			const struct wr_tcp_step *s = &a->spec->steps[i];
			uint64_t start = i == 0 ? 0 : a->send_end[i - 1];

			if (s->op != WR_TCP_OP_SEND || s->by != a->side)
				continue;
			if (seen++ != k)
				continue;
			len = s->bytes;
			n = (uint32_t)(len < cap ? len : cap);
			if (start != UINT64_MAX)
				fill_raw(a, start, buf, n);
			else
				n = 0;
			break;
		}
	}
	if (copied != NULL)
		*copied = n;
	return len;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_describe: a tcp: class in words (`wirerate check`) and what each of its sides sends (`wirerate dump`). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>

#include "wr_describe.h"
#include "wr_tcp_app.h"
#include "wr_tcp_describe.h"

#define MS UINT64_C(1000000)
#define SEC UINT64_C(1000000000)
/* A raw send's first bytes shown. */
#define SHOW_BYTES 16

/* An output buffer filled line by line, as snprintf counts. */
struct out {
	char *buf;
	size_t len;
	size_t n;
};

static void __attribute__((format(printf, 2, 3)))
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int m;

	va_start(ap, fmt);
	m = vsnprintf(o->n < o->len ? o->buf + o->n : NULL,
		      o->n < o->len ? o->len - o->n : 0, fmt, ap);
	va_end(ap);
	if (m > 0)
		o->n += (size_t)m;
}

static const char *
side_name(unsigned int side)
{
	return side == WR_TCP_CLIENT ? "client" : "server";
}

/* "1 s", "200 ms", "250 us", "7 ns": the largest unit that is exact. */
static const char *
fmt_ns(uint64_t ns, char *b, size_t len)
{
	if (ns != 0 && ns % SEC == 0)
		snprintf(b, len, "%" PRIu64 " s", ns / SEC);
	else if (ns != 0 && ns % MS == 0)
		snprintf(b, len, "%" PRIu64 " ms", ns / MS);
	else if (ns != 0 && ns % 1000 == 0)
		snprintf(b, len, "%" PRIu64 " us", ns / 1000);
	else
		snprintf(b, len, "%" PRIu64 " ns", ns);
	return b;
}

/* "64 B", "524288000 B (500 MiB)", "1000000 B (1 MB)". */
static const char *
fmt_bytes(uint64_t v, char *b, size_t len)
{
	static const char *const bin[] = { "KiB", "MiB", "GiB", "TiB" };
	static const char *const dec[] = { "KB", "MB", "GB", "TB" };
	int i;

	for (i = 3; i >= 0; i--) {
		uint64_t p2 = UINT64_C(1) << (10 * (i + 1)), p10 = 1;
		int k;

		for (k = 0; k <= i; k++)
			p10 *= 1000;
		if (v >= p2 && v % p2 == 0) {
			snprintf(b, len, "%" PRIu64 " B (%" PRIu64 " %s)", v,
				 v / p2, bin[i]);
			return b;
		}
		if (v >= p10 && v % p10 == 0) {
			snprintf(b, len, "%" PRIu64 " B (%" PRIu64 " %s)", v,
				 v / p10, dec[i]);
			return b;
		}
	}
	snprintf(b, len, "%" PRIu64 " B", v);
	return b;
}

static void
fmt_addr(uint8_t ip, __uint128_t a, char *b, size_t len)
{
	uint8_t bytes[16];
	int i;

	if (ip == 4) {
		char t[16];

		wr_describe_ipv4((uint32_t)a, t);
		snprintf(b, len, "%s", t);
		return;
	}
	for (i = 15; i >= 0; i--) {
		bytes[i] = (uint8_t)a;
		a >>= 8;
	}
	if (inet_ntop(AF_INET6, bytes, b, (socklen_t)len) == NULL)
		snprintf(b, len, "?");
}

/* A group's addresses of family @p ip in words. */
static void
group_addrs(const struct wr_host_group *g, uint8_t ip, char *b, size_t len)
{
	const struct wr_host_addr_spec *a = ip == 6 ? &g->v6 : &g->v4;
	char first[48], last[48];

	if (a->mode == WR_HOST_ADDR_DHCP) {
		snprintf(b, len, "addresses by DHCP%s", ip == 6 ? "v6" : "");
		return;
	}
	if (a->mode == WR_HOST_ADDR_SLAAC) {
		snprintf(b, len, "addresses by SLAAC");
		return;
	}
	fmt_addr(ip, a->addr, first, sizeof(first));
	if (g->count == 1) {
		snprintf(b, len, "%s", first);
		return;
	}
	fmt_addr(ip, a->addr + a->step * (g->count - 1), last, sizeof(last));
	if (a->step == 1)
		snprintf(b, len, "%s..%s", first, last);
	else
		snprintf(b, len, "%s..%s, %" PRIu64 " apart", first, last,
			 (uint64_t)a->step);
}

static void
describe_ends(struct out *o, const struct wr_tcp_class *c,
	      const struct wr_host_specs *h, const char *in)
{
	char a[160];
	uint32_t i;

	if (c->client.present) {
		const struct wr_host_group *g = &h->groups[c->client.group];

		group_addrs(g, c->ip, a, sizeof(a));
		put(o, "%s  clients: hosts %s on port %u, %u host%s, %s; source "
		    "ports %u..%u\n", in, g->name, g->port, g->count,
		    g->count == 1 ? "" : "s", a, c->client.sport_lo,
		    c->client.sport_hi);
	} else {
		put(o, "%s  clients: real ones (none emulated): the server "
		    "answers whoever connects\n", in);
	}
	if (c->server.present) {
		const struct wr_host_group *g = &h->groups[c->server.group];

		group_addrs(g, c->ip, a, sizeof(a));
		put(o, "%s  server: hosts %s on port %u, %u host%s, %s; listens "
		    "on TCP port %u\n", in, g->name, g->port, g->count,
		    g->count == 1 ? "" : "s", a, c->server.dport);
		return;
	}
	put(o, "%s  server: a real one at ", in);
	for (i = 0; i < c->server.n_addr; i++) {
		fmt_addr(c->ip, c->server.addr[i], a, sizeof(a));
		put(o, "%s%s", i ? ", " : "", a);
	}
	put(o, " TCP port %u%s\n", c->server.dport, c->server.n_addr > 1 ?
	    " (the clients take them in turn)" : "");
}

static void
describe_opening(struct out *o, const struct wr_tcp_class *c, const char *in)
{
	char t[32];

	if (!c->client.present) {
		put(o, "%s  accepts at most %" PRIu32 " connections open at "
		    "once; runs until the run ends\n", in, c->concurrency);
		return;
	}
	put(o, "%s  opens ", in);
	if (c->rate_milli == 0)
		put(o, "connections as fast as the concurrency allows");
	else if (c->rate_milli % 1000 == 0)
		put(o, "%" PRIu64 " connections/s", c->rate_milli / 1000);
	else
		put(o, "%" PRIu64 ".%03" PRIu64 " connections/s",
		    c->rate_milli / 1000, c->rate_milli % 1000);
	if (c->ramp_ns != 0)
		put(o, ", reached linearly over %s", fmt_ns(c->ramp_ns, t,
							    sizeof(t)));
	put(o, ", at most %" PRIu32 " open at once, ", c->concurrency);
	if (c->count != 0)
		put(o, "%" PRIu64 " connection%s in all\n", c->count,
		    c->count == 1 ? "" : "s");
	else if (c->duration_ns != 0)
		put(o, "for %s\n", fmt_ns(c->duration_ns, t, sizeof(t)));
	else
		put(o, "until the run ends (its --duration, or a stop)\n");
}

static void
describe_http(struct out *o, const struct wr_tcp_class *c, const char *in)
{
	const struct wr_tcp_http *hp = &c->http;
	char t[32], b[64];

	if (!c->client.present) {
		put(o, "%s  each request (any method and path) answered %u with "
		    "a %s body, keep-alive; %s\n", in, hp->status,
		    fmt_bytes(hp->response_body, b, sizeof(b)),
		    hp->close_by_server ? "the server closes after its "
		    "response (Connection: close)" : "the client closes");
		return;
	}
	put(o, "%s  each connection: %" PRIu32 " request%s %s %s (Host: %s)",
	    in, hp->requests, hp->requests == 1 ? "" : "s", hp->method,
	    hp->path, hp->host[0] ? hp->host : "the server's address");
	if (hp->request_body != 0)
		put(o, " with a %s body", fmt_bytes(hp->request_body, b,
						    sizeof(b)));
	if (c->server.present)
		put(o, "; the server answers %u with a %s body", hp->status,
		    fmt_bytes(hp->response_body, b, sizeof(b)));
	else
		put(o, "; the real server's responses are read whatever their "
		    "length (Content-Length, chunked, or to the close) and "
		    "counted by status");
	if (hp->requests > 1 && hp->think_ns == 0)
		put(o, "; keep-alive, each request sent when the response "
		    "before it is whole");
	else if (hp->requests > 1)
		put(o, "; keep-alive, %s between a response and the next "
		    "request", fmt_ns(hp->think_ns, t, sizeof(t)));
	put(o, "; then the %s closes (FIN)\n", hp->close_by_server ?
	    "server" : "client");
}

static void
describe_program(struct out *o, const struct wr_tcp_class *c, const char *in)
{
	bool closed[2] = { false, false }, rst = false;
	char t[64];
	uint32_t i;

	put(o, "%s  program, in order:\n", in);
	for (i = 0; i < c->n_steps; i++) {
		const struct wr_tcp_step *s = &c->steps[i];

		put(o, "%s    %u. ", in, i + 1);
		if (s->op == WR_TCP_OP_SEND && s->bytes == WR_TCP_UNTIL_CLOSE)
			put(o, "the %s sends until the %s closes (or the run "
			    "ends)\n", side_name(s->by), side_name(!s->by));
		else if (s->op == WR_TCP_OP_SEND)
			put(o, "the %s sends %s, the %s takes them\n",
			    side_name(s->by), fmt_bytes(s->bytes, t, sizeof(t)),
			    side_name(!s->by));
		else if (s->op == WR_TCP_OP_THINK)
			put(o, "the side that acts next waits %s\n",
			    fmt_ns(s->ns, t, sizeof(t)));
		else
			put(o, "the %s %s\n", side_name(s->by), s->rst ?
			    "aborts (RST)" : "closes its side (FIN)");
		if (s->op == WR_TCP_OP_CLOSE) {
			closed[s->by] = true;
			rst = rst || s->rst;
		}
	}
	if (!rst && !closed[WR_TCP_CLIENT])
		put(o, "%s    then the client closes (FIN)\n", in);
}

static void
describe_opts(struct out *o, const struct wr_tcp_class *c, const char *in)
{
	const struct wr_tcp_opts *p = &c->tcp;
	char a[32], b[32], d[32], e[32], f[32], w[64];

	put(o, "%s  tcp: MSS %u, window scale %u, SACK %s, timestamps %s, "
	    "receive window %s, initial window %" PRIu32 " segments\n", in,
	    p->mss, p->wscale, p->sack ? "on" : "off",
	    p->timestamps ? "on" : "off", fmt_bytes(p->window, w, sizeof(w)),
	    p->init_cwnd);
	put(o, "%s  timers: RTO %s at first, %s..%s; %" PRIu32 " SYN retries, "
	    "%" PRIu32 " retries of a segment; TIME_WAIT %s; idle timeout %s\n",
	    in, fmt_ns(p->rto_init_ns, a, sizeof(a)),
	    fmt_ns(p->rto_min_ns, b, sizeof(b)),
	    fmt_ns(p->rto_max_ns, d, sizeof(d)), p->syn_retries, p->retries,
	    p->time_wait_ns ? fmt_ns(p->time_wait_ns, e, sizeof(e)) : "none",
	    fmt_ns(p->idle_timeout_ns, f, sizeof(f)));
}

int
wr_tcp_describe_class(const struct wr_tcp_class *c,
		      const struct wr_host_specs *h, const char *indent,
		      char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	char b[64];

	if (len > 0)
		buf[0] = '\0';
	put(&o, "%stcp class %s (line %u): %s over IPv%u\n", indent, c->name,
	    c->where.line, c->is_http ? "HTTP/1.1" : "a raw program", c->ip);
	describe_ends(&o, c, h, indent);
	describe_opening(&o, c, indent);
	if (c->is_http)
		describe_http(&o, c, indent);
	else
		describe_program(&o, c, indent);
	if (c->data == WR_TCP_DATA_FILE)
		put(&o, "%s  data: the bytes of %s, %s, repeated\n", indent,
		    c->data_file, fmt_bytes(c->data_size, b, sizeof(b)));
	else
		put(&o, "%s  data: the pattern (byte i of a message is i %% "
		    "%u)\n", indent, WR_TCP_PATTERN_PERIOD);
	describe_opts(&o, c, indent);
	return (int)o.n;
}

/* ---- What goes on the wire ---- */

/* The server's address as the client sends it (the Host header's). */
static void
server_text(const struct wr_tcp_class *c, const struct wr_host_specs *h,
	    char *b, size_t len)
{
	const struct wr_host_addr_spec *a = NULL;
	char t[48];

	if (c->server.present) {
		a = c->ip == 6 ? &h->groups[c->server.group].v6 :
		    &h->groups[c->server.group].v4;
		if (a->mode != WR_HOST_ADDR_STATIC) {
			snprintf(b, len, "%s", c->server.hosts);
			return;
		}
	}
	fmt_addr(c->ip, a ? a->addr : c->server.addr[0], t, sizeof(t));
	snprintf(b, len, c->ip == 6 ? "[%s]" : "%s", t);
}

static void
describe_syn(struct out *o, const struct wr_tcp_class *c, const char *srv,
	     const char *in)
{
	const struct wr_tcp_opts *p = &c->tcp;
	uint32_t win = p->window > 65535 ? 65535 : p->window;

	if (c->client.present)
		put(o, "%s  client SYN: from port %u..%u to %s port %u, window "
		    "%u (a SYN's is never scaled, RFC 7323 2.2), options: MSS "
		    "%u%s%s, window scale %u\n", in, c->client.sport_lo,
		    c->client.sport_hi, srv, c->server.dport, win, p->mss,
		    p->sack ? ", SACK permitted" : "",
		    p->timestamps ? ", timestamps" : "", p->wscale);
	if (c->server.present)
		put(o, "%s  server SYN-ACK: from %s port %u, window %u, "
		    "options: MSS %u; SACK permitted, timestamps and window "
		    "scale %u each only when the SYN offered it (RFC 2018, "
		    "7323)\n", in, srv, c->server.dport, win, p->mss,
		    p->wscale);
}

/* An HTTP header block as text lines, CR LF shown. */
static void
put_head(struct out *o, const uint8_t *p, uint32_t n, const char *in)
{
	uint32_t i, s = 0, e;

	for (i = 0; i < n; i++) {
		if (p[i] != '\n')
			continue;
		e = i > s && p[i - 1] == '\r' ? i - 1 : i;
		put(o, "%s      %.*s%s\n", in, (int)(e - s), (const char *)p + s,
		    e < i ? "\\r\\n" : "\\n");
		s = i + 1;
	}
	if (s < n)
		put(o, "%s      %.*s\n", in, (int)(n - s), (const char *)p + s);
}

static void
describe_http_msg(struct out *o, const struct wr_tcp_app *a, uint64_t k,
		  const char *in)
{
	uint8_t buf[WR_TCP_APP_HDR_MAX];
	uint32_t n;
	uint64_t len;
	char b[64];

	len = wr_tcp_app_message(a, (uint32_t)k, buf, sizeof(buf), &n);
	if (len == 0)
		return;
	put(o, "%s  %s's %s %" PRIu64 ": %" PRIu32 " B of header, %s in all%s\n",
	    in, side_name(a->side), a->side == WR_TCP_CLIENT ? "request" :
	    "response", k + 1, a->hdr_len, fmt_bytes(len, b, sizeof(b)),
	    k != 0 && k == a->last_msg ? " (the last)" : "");
	put_head(o, buf, n, in);
}

/* Side @p a's messages; @p c the class as written (its data). */
static void
describe_side(struct out *o, const struct wr_tcp_app *a,
	      const struct wr_tcp_class *c, const char *in)
{
	uint8_t buf[WR_TCP_APP_HDR_MAX];
	char b[64];
	uint32_t k, n, i;
	uint64_t len;

	if (c->is_http) {
		/* The first message and, when it differs, the last. */
		describe_http_msg(o, a, 0, in);
		if (a->last_msg != UINT64_MAX && a->last_msg != 0 &&
		    a->last_msg <= UINT32_MAX)
			describe_http_msg(o, a, a->last_msg, in);
		return;
	}
	for (k = 0; (len = wr_tcp_app_message(a, k, buf, sizeof(buf), &n)) != 0;
	     k++) {
		put(o, "%s  %s's send %u: %s", in, side_name(a->side), k + 1,
		    len == WR_TCP_UNTIL_CLOSE ? "until the close" :
		    fmt_bytes(len, b, sizeof(b)));
		if (c->data == WR_TCP_DATA_FILE) {
			put(o, ", from %s\n", c->data_file);
			continue;
		}
		put(o, ", first bytes:");
		for (i = 0; i < n && i < SHOW_BYTES; i++)
			put(o, " %02x", buf[i]);
		put(o, "\n");
	}
}

int
wr_tcp_describe_wire(const struct wr_tcp_class *c,
		     const struct wr_host_specs *h, const char *indent,
		     char *buf, size_t len, struct wr_error *err)
{
	struct out o = { buf, len, 0 };
	struct wr_tcp_class pc = *c;
	struct wr_tcp_app a;
	char srv[64];
	int side, rc;

	if (len > 0)
		buf[0] = '\0';
	/* The heads do not depend on the data; a file's bytes are named,
	 * not read. */
	pc.data = WR_TCP_DATA_PATTERN;
	server_text(c, h, srv, sizeof(srv));
	put(&o, "%stcp class %s: what each side sends\n", indent, c->name);
	describe_syn(&o, c, srv, indent);
	for (side = WR_TCP_CLIENT; side <= WR_TCP_SERVER; side++) {
		/* A real peer's bytes are its own. */
		if (!(side == WR_TCP_CLIENT ? c->client : c->server).present)
			continue;
		rc = wr_tcp_app_init(&a, &pc, (enum wr_tcp_side)side, NULL, 0,
				     srv, err);
		if (rc != 0)
			return rc;
		describe_side(&o, &a, c, indent);
		wr_tcp_app_fini(&a);
	}
	return 0;
}

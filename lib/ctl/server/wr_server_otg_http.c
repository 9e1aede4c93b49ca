/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_http: the --otg listener's HTTP/1.1 requests (bodies, keep-alive): who may (the loopback peer of the server's user, a token, a client certificate), OTG paths to the OTG handler, every other path to the web console's routes. */
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "wr_server_priv.h"
#include "wr_server_otg.h"

/* The model's paths (openapi.yaml's): the rest is the console's. */
static bool
otg_path(const char *p)
{
	static const char *const pre[] = { "/config", "/control/",
					   "/monitor/", "/capabilities/",
					   "/results/" };
	size_t i, n;

	for (i = 0; i < RTE_DIM(pre); i++) {
		n = strlen(pre[i]);
		if (strncmp(p, pre[i], n) == 0 &&
		    (pre[i][n - 1] == '/' || p[n] == '\0' || p[n] == '/'))
			return true;
	}
	return false;
}

/* Answer @p status with OTG's Error ({code, errors}) and @p extra headers;
 * the connection closes once it is written (its request's rest unread).
 * @return -1 (next_request()'s "answered and closing"). */
static ssize_t
otg_refuse(struct server *s, struct conn *c, int status, const char *extra,
	   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static ssize_t
otg_refuse(struct server *s, struct conn *c, int status, const char *extra,
	   const char *fmt, ...)
{
	char why[256], head[1024], *body;
	json_t *j;
	va_list ap;
	ssize_t h;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	j = json_pack("{s:i, s:s, s:[s]}", "code", status, "kind",
		      status >= 500 ? "internal" : "validation", "errors", why);
	body = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	h = wr_http_resp_head(status, "application/json", body ? strlen(body) : 0,
			      false, extra, head, sizeof(head));
	c->closing = true;
	if (h > 0)
		wr_srv_conn_queue(s, c, head, (size_t)h, body,
				  body ? strlen(body) : 0);
	free(body);
	if (c->fd >= 0)
		wr_srv_conn_watch(s, c);
	return -1;
}

/* Whether the request may be served: the loopback peer of the server's
 * user (as the console's rule: the kernel's socket table) needs nothing;
 * any other, a client certificate --tls-client-ca signed, or the token
 * (Bearer, or Basic's password), compared only while wr_auth's limits let
 * its address try.  Once one passes, its connection is a logged-in client
 * (a session of its own).  @return 0; else answered (401, 503): -1. */
static ssize_t
otg_who(struct server *s, struct conn *c, const struct wr_http_req *req)
{
	static const char challenge[] =
		"WWW-Authenticate: Bearer realm=\"wirerate\", "
		"Basic realm=\"wirerate\"\r\n";
	char tok[WR_AUTH_TOKEN_MAX + 1], extra[256];
	uint64_t now = wr_srv_now_ms(), wait;
	X509 *peer = NULL;
	int rc;

	if (c->authed)
		return 0;
	if (!c->foreign) {
		/* principal "uid:N", set at accept */
	} else if (c->ssl != NULL && s->o->tls_client_ca != NULL &&
		   (peer = SSL_get1_peer_certificate(c->ssl)) != NULL &&
		   SSL_get_verify_result(c->ssl) == X509_V_OK) {
		char cn[PRINCIPAL_MAX - 5] = "";

		X509_NAME_get_text_by_NID(X509_get_subject_name(peer),
					  NID_commonName, cn, sizeof(cn));
		snprintf(c->principal, sizeof(c->principal), "cert:%s", cn);
	} else if (s->o->otg_token[0] == '\0') {
		X509_free(peer);
		return otg_refuse(s, c, 401, NULL, "this OTG API is its "
				  "server's user's only (uid %u)%s: no token "
				  "was given (--otg-token-file)",
				  (unsigned int)geteuid(),
				  s->o->tls_client_ca ? ", or a client "
				  "certificate's its CA signed" : "");
	} else {
		wait = wr_auth_limit_wait_ms(&s->logins, c->addr, now);
		if (wait > 0) {
			if (wr_auth_limit_failed(&s->logins, c->addr, true, now))
				SRV_LOG(WARNING, "OTG request from %s refused "
					"unchecked: too many failed logins "
					"(%.1f s to wait)\n", c->peer,
					(double)wait / 1000.0);
			snprintf(extra, sizeof(extra), "%sRetry-After: %llu\r\n",
				 challenge,
				 (unsigned long long)(wait + 999) / 1000);
			return otg_refuse(s, c, 401, extra, "too many failed "
					  "logins: retry in %.1f s",
					  (double)wait / 1000.0);
		}
		rc = wr_http_auth_token(req->authorization, tok, sizeof(tok));
		if (rc == -ENOENT)
			return otg_refuse(s, c, 401, challenge, "a token is "
					  "needed: Authorization: Bearer "
					  "TOKEN, or https://otg:TOKEN@HOST:"
					  "PORT for snappi");
		if (rc != 0 || !wr_auth_equal(s->o->otg_token, tok)) {
			if (wr_auth_limit_failed(&s->logins, c->addr, false,
						 now))
				SRV_LOG(WARNING, "failed OTG login from %s: "
					"wrong token\n", c->peer);
			return otg_refuse(s, c, 401, challenge, "wrong token");
		}
		wr_auth_limit_passed(&s->logins, c->addr);
		snprintf(c->principal, sizeof(c->principal), "otg-token");
	}
	X509_free(peer);
	if (!wr_srv_promote(s, c))
		return otg_refuse(s, c, 503, "Retry-After: 1\r\n", "the server "
				  "has its --max-clients (%u) clients: try "
				  "again later", s->o->max_clients);
	return 0;
}

/* The handler's answer, as JSON or bytes, kept alive unless the request
 * or the answer says otherwise. */
static void
otg_answer(struct server *s, struct conn *c, struct otg_resp *r, bool keep)
{
	char head[512], *body = NULL;
	const char *ctype = "application/json";
	size_t len = 0;
	ssize_t h;

	if (r->raw != NULL) {
		ctype = "application/octet-stream";
		len = r->raw_len;
	} else if (r->json != NULL) {
		body = json_dumps(r->json, JSON_COMPACT | JSON_ENCODE_ANY);
		len = body ? strlen(body) : 0;
		if (body == NULL)
			r->status = 500;
	} else {
		ctype = NULL;
	}
	if (r->status < 100 || r->status > 599)
		r->status = 500;
	h = wr_http_resp_head(r->status, ctype, len, keep, NULL, head,
			      sizeof(head));
	if (!keep)
		c->closing = true;
	if (h > 0)
		wr_srv_conn_queue(s, c, head, (size_t)h,
				  r->raw ? (const void *)r->raw : body, len);
	free(body);
	free(r->raw);
	json_decref(r->json);
	if (c->fd >= 0)
		wr_srv_conn_watch(s, c);
}

ssize_t
wr_srv_otg_http(struct server *s, struct conn *c)
{
	char *b = c->rbuf + c->roff;
	size_t avail = c->rlen - c->roff, blen = 0;
	struct wr_http_req req;
	struct otg_resp resp;
	struct otg_req rq;
	int status = 400;
	ssize_t h, f;

	h = wr_http_parse(b, avail, &req, &status);
	if (h == 0)
		return 0;
	if (h < 0)
		return otg_refuse(s, c, status, NULL, "%s", status == 431 ?
				  "request head longer than 8 KiB or with more "
				  "than 64 headers" : status == 414 ?
				  "request target too long" : status == 505 ?
				  "HTTP/1.1 only" : status == 501 ?
				  "Transfer-Encoding: chunked only" :
				  status == 417 ? "Expect: 100-continue only" :
				  "malformed request");
	if (!otg_path(req.path))
		return wr_srv_web_answer(s, c, h, &req, status);
	if (!req.has_host && !req.http10)
		return otg_refuse(s, c, 400, NULL, "an HTTP/1.1 request needs "
				  "a Host header");
	if (otg_who(s, c, &req) != 0)
		return -1;
	f = wr_http_body(b + h, avail - (size_t)h, &req, WR_HTTP_BODY_MAX,
			 &blen, &status);
	if (f == -EAGAIN) {
		/* curl asks before a large body: it may come. */
		if (req.expect_continue && !c->continued) {
			static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";

			c->continued = true;
			wr_srv_conn_queue(s, c, cont, sizeof(cont) - 1, NULL, 0);
		}
		return 0;
	}
	if (f < 0)
		return otg_refuse(s, c, status, NULL, "%s", status == 413 ?
				  "request body longer than 32 MiB" :
				  "malformed chunked body");
	c->continued = false;
	/* The body is not NUL-terminated: the next request may follow. */
	rq.method = req.method;
	rq.path = req.path;
	rq.body = blen ? b + h : NULL;
	rq.len = blen;
	memset(&resp, 0, sizeof(resp));
	/* The handler may turn the loop (it waits for the lcores, or for
	 * another server): this connection is not read nor freed meanwhile. */
	c->in_otg = true;
	wr_srv_conn_watch(s, c);
	s->otg_handle(s, c, &rq, &resp);
	c->in_otg = false;
	if (c->fd < 0) {
		free(resp.raw);
		json_decref(resp.json);
		return -1;
	}
	/* Served once: left open between requests, as a JSON-RPC client
	 * that spoke is (snappi keeps its connection in a pool; the OTG
	 * session's ports do not wait on it). */
	c->spoke = true;
	otg_answer(s, c, &resp, wr_http_keep_alive(&req));
	if (c->fd < 0 || c->closing)
		return -1;
	return h + f;
}

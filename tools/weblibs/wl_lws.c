/* SPDX-License-Identifier: BSD-3-Clause */
/* libwebsockets (Debian's libwebsockets-dev 4.1, OpenSSL) serving the page for "/" and a
 * WebSocket echo at /ws, plain and TLS (two vhosts, one service loop: lws_service()'s own
 * poll; Debian's build has no external-poll option, only its libuv and glib event-loop
 * plugins): measured by tools/wr-bench-weblibs.
 *   cc -O2 -o wl_lws wl_lws.c -lwebsockets */
#include <libwebsockets.h>
#include <signal.h>

#include "weblibs.h"

static struct wl_args a;
static volatile sig_atomic_t stop;

struct pss {
	unsigned char *msg;  /* LWS_PRE bytes, then the message to echo */
	size_t len, cap;
	size_t sent;         /* of the page, for HTTP */
	int ready;
};

static int
cb(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct pss *p = user;
	unsigned char head[LWS_PRE + 512], *s, *end;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		if (strcmp(in, "/") != 0)
			return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL) ? -1 :
				lws_http_transaction_completed(wsi);
		s = head + LWS_PRE;
		end = head + sizeof(head) - 1;
		if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, "text/html; charset=utf-8",
						a.len, &s, end) ||
		    lws_finalize_write_http_header(wsi, head + LWS_PRE, &s, end))
			return 1;
		p->sent = 0;
		lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_HTTP_WRITEABLE: {
		/* The body in pieces as the socket takes them (lws asks for that: a
		 * large lws_write() is buffered whole). */
		static unsigned char buf[LWS_PRE + 16384];
		size_t n = a.len - p->sent;

		if (n > 16384)
			n = 16384;
		memcpy(buf + LWS_PRE, a.body + p->sent, n);
		p->sent += n;
		if (lws_write(wsi, buf + LWS_PRE, n, p->sent == a.len ? LWS_WRITE_HTTP_FINAL :
			      LWS_WRITE_HTTP) != (int)n)
			return 1;
		if (p->sent < a.len) {
			lws_callback_on_writable(wsi);
			return 0;
		}
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	case LWS_CALLBACK_RECEIVE:
		if (lws_is_first_fragment(wsi))
			p->len = 0;
		if (LWS_PRE + p->len + len > p->cap) {
			p->cap = LWS_PRE + p->len + len;
			p->msg = realloc(p->msg, p->cap);
			if (p->msg == NULL)
				return -1;
		}
		memcpy(p->msg + LWS_PRE + p->len, in, len);
		p->len += len;
		if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
			p->ready = 1;
			lws_callback_on_writable(wsi);
		}
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		if (!p->ready)
			return 0;
		p->ready = 0;
		return lws_write(wsi, p->msg + LWS_PRE, p->len, LWS_WRITE_TEXT) < (int)p->len ? -1 : 0;
	case LWS_CALLBACK_CLOSED:
		free(p->msg);
		p->msg = NULL;
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static const struct lws_protocols protocols[] = {
	{ "echo", cb, sizeof(struct pss), 65536, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 }
};

static void
on_sig(int sig)
{
	(void)sig;
	stop = 1;
}

int
main(int argc, char **argv)
{
	struct lws_context_creation_info info;
	struct lws_context *ctx;
	int k;

	wl_args(argc, argv, &a);
	lws_set_log_level(LLL_ERR, NULL);
	memset(&info, 0, sizeof(info));
	info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS |
		       LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	ctx = lws_create_context(&info);
	if (ctx == NULL)
		return 1;
	for (k = 0; k < 2; k++) {
		memset(&info, 0, sizeof(info));
		info.port = k ? a.tls_port : a.port;
		info.iface = "127.0.0.1";
		info.protocols = protocols;
		info.vhost_name = k ? "tls" : "plain";
		if (k) {
			info.options = LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
			info.ssl_cert_filepath = a.cert;
			info.ssl_private_key_filepath = a.key;
		}
		if (lws_create_vhost(ctx, &info) == NULL) {
			fprintf(stderr, "wl_lws: vhost on port %d failed\n", info.port);
			return 1;
		}
	}
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	printf("ready\n");
	fflush(stdout);
	while (!stop && lws_service(ctx, 0) >= 0)
		;
	lws_context_destroy(ctx);
	return 0;
}

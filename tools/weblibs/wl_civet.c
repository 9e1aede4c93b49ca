/* SPDX-License-Identifier: BSD-3-Clause */
/* civetweb (Debian's libcivetweb-dev) serving the page for "/" and a WebSocket echo at /ws,
 * plain and TLS (civetweb's OpenSSL): measured by tools/wr-bench-weblibs.
 *   cc -O2 -o wl_civet wl_civet.c -lcivetweb */
#include <civetweb.h>
#include <signal.h>
#include <unistd.h>

#include "weblibs.h"

static struct wl_args a;

static int
page(struct mg_connection *c, void *u)
{
	(void)u;
	mg_printf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
		  "Content-Length: %zu\r\nConnection: keep-alive\r\n\r\n", a.len);
	mg_write(c, a.body, a.len);
	return 200;
}

static int
ws_data(struct mg_connection *c, int bits, char *data, size_t len, void *u)
{
	(void)u;
	if ((bits & 0x0f) == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE)
		return 0;
	if ((bits & 0x0f) == MG_WEBSOCKET_OPCODE_TEXT)
		mg_websocket_write(c, MG_WEBSOCKET_OPCODE_TEXT, data, len);
	return 1;
}

int
main(int argc, char **argv)
{
	char ports[64], pem[4096];
	const char *opts[20];
	struct mg_context *ctx;
	sigset_t set;
	int n = 0, sig;

	wl_args(argc, argv, &a);
	/* civetweb takes one PEM file holding the key and the certificate. */
	snprintf(pem, sizeof(pem), "%s", a.cert);
	snprintf(ports, sizeof(ports), "127.0.0.1:%d,127.0.0.1:%ds", a.port, a.tls_port);
	/* Blocked before civetweb's threads start, so that only sigwait() takes them. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	mg_init_library(MG_FEATURES_TLS);
	opts[n++] = "listening_ports";
	opts[n++] = ports;
	opts[n++] = "ssl_certificate";
	opts[n++] = pem;
	opts[n++] = "tcp_nodelay"; /* as the others: without it a round trip waits ~40 ms */
	opts[n++] = "1";
	opts[n++] = "enable_keep_alive";
	opts[n++] = "yes";
	opts[n++] = NULL;
	ctx = mg_start(NULL, NULL, opts);
	if (ctx == NULL) {
		fprintf(stderr, "wl_civet: mg_start failed (TLS feature: %u)\n",
			mg_check_feature(MG_FEATURES_TLS));
		return 1;
	}
	mg_set_request_handler(ctx, "/$", page, NULL);
	mg_set_websocket_handler(ctx, "/ws", NULL, NULL, ws_data, NULL, NULL);
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
	mg_stop(ctx);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* libmicrohttpd (Debian's libmicrohttpd-dev, GnuTLS) serving the page for "/" and a
 * WebSocket echo at /ws, plain and TLS: measured by tools/wr-bench-weblibs.  Each daemon
 * is one thread polling with epoll (MHD_USE_EPOLL_INTERNAL_THREAD), the closest to
 * wirerate's one loop.  libmicrohttpd has no WebSocket (its libmicrohttpd_ws is
 * experimental and not in Debian): after the upgrade the socket is the application's,
 * so the frames are read and written here by hand, as wr_http.c's wr_ws_next() does.
 *   cc -O2 -o wl_mhd wl_mhd.c -lmicrohttpd -lgnutls -lpthread */
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

#include "weblibs.h"

static struct wl_args a;
static const char GUID[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

struct up {
	struct MHD_UpgradeResponseHandle *h;
	MHD_socket fd;
};

static int
full(MHD_socket fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = recv(fd, (char *)buf + got, n - got, 0);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* One connection's echo: a thread, since the socket left libmicrohttpd's loop. */
static void *
echo(void *arg)
{
	struct up *u = arg;
	unsigned char h[14], mask[4], *p = NULL;
	uint64_t n;
	size_t cap = 0, hl, i;

	for (;;) {
		if (full(u->fd, h, 2) != 0)
			break;
		n = h[1] & 0x7f;
		if (n == 126) {
			if (full(u->fd, h + 2, 2) != 0)
				break;
			n = (uint64_t)h[2] << 8 | h[3];
		} else if (n == 127) {
			if (full(u->fd, h + 2, 8) != 0)
				break;
			n = 0;
			for (i = 0; i < 8; i++)
				n = n << 8 | h[2 + i];
		}
		if (!(h[1] & 0x80) || full(u->fd, mask, 4) != 0 || n > (1u << 24))
			break;
		if (n > cap) {
			free(p);
			cap = n;
			p = malloc(cap);
			if (p == NULL)
				break;
		}
		if (full(u->fd, p, n) != 0)
			break;
		for (i = 0; i < n; i++)
			p[i] ^= mask[i & 3];
		if ((h[0] & 0x0f) == 0x8)
			break;
		if ((h[0] & 0x0f) != 0x1)
			continue;
		h[0] = 0x81;
		if (n < 126) {
			h[1] = (unsigned char)n;
			hl = 2;
		} else if (n < 65536) {
			h[1] = 126;
			h[2] = (unsigned char)(n >> 8);
			h[3] = (unsigned char)n;
			hl = 4;
		} else {
			h[1] = 127;
			for (i = 0; i < 8; i++)
				h[2 + i] = (unsigned char)(n >> (56 - 8 * i));
			hl = 10;
		}
		if (send(u->fd, h, hl, MSG_MORE | MSG_NOSIGNAL) < 0 ||
		    send(u->fd, p, n, MSG_NOSIGNAL) < 0)
			break;
	}
	free(p);
	MHD_upgrade_action(u->h, MHD_UPGRADE_ACTION_CLOSE);
	free(u);
	return NULL;
}

static void
upgraded(void *cls, struct MHD_Connection *c, void *req_cls, const char *extra,
	 size_t extra_in_size, MHD_socket fd, struct MHD_UpgradeResponseHandle *h)
{
	struct up *u = malloc(sizeof(*u));
	pthread_t t;

	(void)cls;
	(void)c;
	(void)req_cls;
	(void)extra;
	(void)extra_in_size; /* the client waits for the 101 before its first frame */
	u->h = h;
	u->fd = fd;
	/* libmicrohttpd hands the socket over non-blocking; this thread blocks on it. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	pthread_create(&t, NULL, echo, u);
	pthread_detach(t);
}

static enum MHD_Result
handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
	const char *version, const char *upload, size_t *upload_size, void **req_cls)
{
	struct MHD_Response *r;
	enum MHD_Result rc;

	(void)cls;
	(void)version;
	(void)upload;
	(void)upload_size;
	(void)req_cls;
	if (strcmp(method, "GET") != 0)
		return MHD_NO;
	if (strcmp(url, "/ws") == 0) {
		const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							      "Sec-WebSocket-Key");
		unsigned char sha[20];
		char in[128];
		gnutls_datum_t d, b64;

		if (key == NULL || strlen(key) > 64)
			return MHD_NO;
		snprintf(in, sizeof(in), "%s%s", key, GUID);
		gnutls_hash_fast(GNUTLS_DIG_SHA1, in, strlen(in), sha);
		d.data = sha;
		d.size = sizeof(sha);
		if (gnutls_base64_encode2(&d, &b64) != 0)
			return MHD_NO;
		snprintf(in, sizeof(in), "%.*s", (int)b64.size, (char *)b64.data);
		gnutls_free(b64.data);
		r = MHD_create_response_for_upgrade(upgraded, NULL);
		MHD_add_response_header(r, MHD_HTTP_HEADER_UPGRADE, "websocket");
		MHD_add_response_header(r, "Sec-WebSocket-Accept", in);
		rc = MHD_queue_response(c, MHD_HTTP_SWITCHING_PROTOCOLS, r);
		MHD_destroy_response(r);
		return rc;
	}
	if (strcmp(url, "/") != 0)
		return MHD_NO;
	r = MHD_create_response_from_buffer(a.len, a.body, MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/html; charset=utf-8");
	rc = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return rc;
}

int
main(int argc, char **argv)
{
	struct MHD_Daemon *d, *t;
	char *cert, *key;
	sigset_t set;
	int sig;

	wl_args(argc, argv, &a);
	cert = wl_slurp(a.cert);
	key = wl_slurp(a.key);
	if (cert == NULL || key == NULL) {
		fprintf(stderr, "wl_mhd: cannot read %s or %s\n", a.cert, a.key);
		return 2;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	d = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_UPGRADE,
			     (uint16_t)a.port, NULL, NULL, handler, NULL, MHD_OPTION_END);
	t = MHD_start_daemon(MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_UPGRADE | MHD_USE_TLS,
			     (uint16_t)a.tls_port, NULL, NULL, handler, NULL,
			     MHD_OPTION_HTTPS_MEM_CERT, cert, MHD_OPTION_HTTPS_MEM_KEY, key,
			     MHD_OPTION_END);
	if (d == NULL || t == NULL) {
		fprintf(stderr, "wl_mhd: MHD_start_daemon failed\n");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	sigwait(&set, &sig);
	MHD_stop_daemon(t);
	MHD_stop_daemon(d);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* tcp_app_sock: one HTTP class's client or server program (wr_tcp_app) over kernel TCP sockets, so that real peers (curl, wget, nginx, python's http.server) talk to its bytes without the engine or EAL. */
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "wr_tcp_app.h"

/*
 * tcp_app_sock client PORT [key=value...]     one connection to 127.0.0.1
 * tcp_app_sock server PORT CONNS [key=value...] CONNS connections, one by
 *                                              one (PORT 0: the port
 *                                              chosen is printed first)
 * keys: method path host requests request_body response_body status
 * close_by_server think_ns file (the data file).  One JSON line per
 * connection: what the program reported.
 */

struct conn_result {
	uint32_t requests, responses, done, status_last;
	uint32_t status[6];
	uint64_t sent, received;
	const char *close;
};

static const char *
close_name(uint8_t c)
{
	static const char *const n[] = { "open", "fin", "rst", "error" };

	return c < 4 ? n[c] : "?";
}

static int
write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Run the program on a connected socket until both sides closed. */
static void
run_conn(const struct wr_tcp_app *a, int fd, struct conn_result *r)
{
	static uint8_t buf[65536];
	struct wr_tcp_app_st st;
	struct wr_tcp_app_out o;
	uint64_t sent = 0, end = 0, timer = 0;
	bool fin_sent = false, eof = false, want_fin = false;
	struct timeval tv = { .tv_sec = 10 };

	memset(r, 0, sizeof(*r));
	r->close = "open";
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	wr_tcp_app_start(a, &st, &o);
	for (;;) {
		/* What the last call asked. */
		if (o.events & WR_TCP_EV_REQUEST)
			r->requests += o.requests;
		if (o.events & WR_TCP_EV_RESPONSE) {
			r->responses += o.responses;
			r->status_last = o.status;
			r->status[o.status / 100 < 6 ? o.status / 100 : 0]++;
		}
		if (o.events & WR_TCP_EV_DONE)
			r->done++;
		end += o.send;
		if (o.timer_ns)
			timer = o.timer_ns;
		if (o.close != WR_TCP_APP_OPEN && strcmp(r->close, "open") == 0)
			r->close = close_name(o.close);
		if (o.close == WR_TCP_APP_RST || o.close == WR_TCP_APP_ERROR) {
			struct linger l = { .l_onoff = 1, .l_linger = 0 };

			setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
			break; /* close() sends the RST */
		}
		if (o.close == WR_TCP_APP_FIN)
			want_fin = true;
		memset(&o, 0, sizeof(o));
		while (sent < end) {
			uint32_t n = end - sent < sizeof(buf) ? (uint32_t)(end - sent) :
				     (uint32_t)sizeof(buf);

			wr_tcp_app_fill(a, sent, buf, n);
			if (write_all(fd, buf, n) != 0)
				goto out;
			sent += n;
		}
		if (want_fin && !fin_sent) {
			shutdown(fd, SHUT_WR);
			fin_sent = true;
		}
		if (timer) {
			struct timespec ts = { .tv_sec = (time_t)(timer / 1000000000u),
					       .tv_nsec = (long)(timer % 1000000000u) };

			timer = 0;
			nanosleep(&ts, NULL);
			wr_tcp_app_timer(a, &st, &o);
			continue;
		}
		if (eof)
			break;
		{
			ssize_t n = read(fd, buf, sizeof(buf));

			if (n < 0) {
				r->close = "timeout";
				break;
			}
			if (n == 0) {
				eof = true;
				wr_tcp_app_fin(a, &st, &o);
				continue;
			}
			wr_tcp_app_rx(a, &st, buf, (uint32_t)n, r->received, &o);
			r->received += (uint64_t)n;
		}
	}
out:
	r->sent = sent;
	close(fd);
}

static void
print_result(const struct conn_result *r)
{
	printf("{\"requests\": %u, \"responses\": %u, \"done\": %u, "
	       "\"status\": %u, \"status_classes\": [%u, %u, %u, %u, %u, %u], "
	       "\"sent\": %" PRIu64 ", \"received\": %" PRIu64 ", "
	       "\"close\": \"%s\"}\n", r->requests, r->responses, r->done,
	       r->status_last, r->status[0], r->status[1], r->status[2],
	       r->status[3], r->status[4], r->status[5], r->sent, r->received,
	       r->close);
	fflush(stdout);
}

static uint8_t *
read_file(const char *path, uint64_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;
	uint8_t *b;

	if (f == NULL || fstat(fileno(f), &sb) != 0)
		return NULL;
	b = malloc((size_t)sb.st_size + 1);
	if (b == NULL || fread(b, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
		fclose(f);
		free(b);
		return NULL;
	}
	fclose(f);
	*len = (uint64_t)sb.st_size;
	return b;
}

static int
set_key(struct wr_tcp_class *c, const char *kv, const char **file)
{
	const char *v = strchr(kv, '=');
	size_t k;

	if (v == NULL)
		return -1;
	k = (size_t)(v - kv);
	v++;
#define KEY(name) (k == strlen(name) && strncmp(kv, name, k) == 0)
	if (KEY("method"))
		snprintf(c->http.method, sizeof(c->http.method), "%s", v);
	else if (KEY("path"))
		snprintf(c->http.path, sizeof(c->http.path), "%s", v);
	else if (KEY("host"))
		snprintf(c->http.host, sizeof(c->http.host), "%s", v);
	else if (KEY("requests"))
		c->http.requests = (uint32_t)strtoul(v, NULL, 10);
	else if (KEY("request_body"))
		c->http.request_body = strtoull(v, NULL, 10);
	else if (KEY("response_body"))
		c->http.response_body = strtoull(v, NULL, 10);
	else if (KEY("status"))
		c->http.status = (uint16_t)strtoul(v, NULL, 10);
	else if (KEY("close_by_server"))
		c->http.close_by_server = strcmp(v, "1") == 0;
	else if (KEY("think_ns"))
		c->http.think_ns = strtoull(v, NULL, 10);
	else if (KEY("file"))
		*file = v;
	else
		return -1;
#undef KEY
	return 0;
}

int
main(int argc, char **argv)
{
	struct wr_tcp_class c;
	struct wr_tcp_app a;
	struct wr_error err = { 0 };
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *file = NULL;
	uint8_t *data = NULL;
	uint64_t data_len = 0;
	bool server;
	int first, conns = 1, fd, i;

	if (argc < 3 || (strcmp(argv[1], "client") != 0 &&
			 strcmp(argv[1], "server") != 0)) {
		fprintf(stderr, "usage: tcp_app_sock client|server PORT [CONNS] [key=value...]\n");
		return 2;
	}
	server = strcmp(argv[1], "server") == 0;
	sa.sin_port = htons((uint16_t)atoi(argv[2]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	first = 3;
	if (server && argc > 3) {
		conns = atoi(argv[3]);
		first = 4;
	}
	wr_tcp_class_defaults(&c);
	strcpy(c.name, "sock");
	c.is_http = true;
	c.client.present = !server;
	c.server.present = server;
	c.server.dport = ntohs(sa.sin_port);
	for (i = first; i < argc; i++)
		if (set_key(&c, argv[i], &file) != 0) {
			fprintf(stderr, "tcp_app_sock: bad key %s\n", argv[i]);
			return 2;
		}
	if (file != NULL) {
		data = read_file(file, &data_len);
		if (data == NULL) {
			perror(file);
			return 2;
		}
		c.data = WR_TCP_DATA_FILE;
	}
	if (wr_tcp_app_init(&a, &c, server ? WR_TCP_SERVER : WR_TCP_CLIENT,
			    data, data_len, "127.0.0.1", &err) != 0) {
		fprintf(stderr, "tcp_app_sock: %s\n", err.msg);
		return 1;
	}
	if (!server) {
		struct conn_result r;

		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
			perror("connect");
			return 1;
		}
		run_conn(&a, fd, &r);
		print_result(&r);
	} else {
		socklen_t sl = sizeof(sa);
		int one = 1, lfd = socket(AF_INET, SOCK_STREAM, 0);

		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
		    listen(lfd, 16) != 0 ||
		    getsockname(lfd, (struct sockaddr *)&sa, &sl) != 0) {
			perror("listen");
			return 1;
		}
		printf("%u\n", (unsigned int)ntohs(sa.sin_port));
		fflush(stdout);
		for (i = 0; i < conns; i++) {
			struct conn_result r;

			fd = accept(lfd, NULL, NULL);
			if (fd < 0)
				break;
			run_conn(&a, fd, &r);
			print_result(&r);
		}
		close(lfd);
	}
	wr_tcp_app_fini(&a);
	free(data);
	return 0;
}

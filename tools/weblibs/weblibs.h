/* SPDX-License-Identifier: BSD-3-Clause */
/* What the three library servers of tools/wr-bench-weblibs share: the page's bytes read
 * from a file (the bytes wirerate's own server sends for "/"), the arguments. Never part of
 * wirerate: these programs exist only to be measured against it. */
#ifndef WEBLIBS_H
#define WEBLIBS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wl_args {
	int port;            /* plain HTTP and WebSocket */
	int tls_port;        /* the same over TLS; 0: none */
	const char *page;    /* a file: the bytes served for "/" */
	const char *cert;    /* PEM certificate and */
	const char *key;     /* its key, for tls_port */
	unsigned char *body; /* the page's bytes */
	size_t len;
};

/* usage: PROG PORT TLS_PORT PAGE CERT KEY; one line and exit 2 on anything else. */
static inline void
wl_args(int argc, char **argv, struct wl_args *a)
{
	FILE *f;
	long n;

	if (argc != 6) {
		fprintf(stderr, "usage: %s PORT TLS_PORT PAGE CERT KEY\n", argv[0]);
		exit(2);
	}
	a->port = atoi(argv[1]);
	a->tls_port = atoi(argv[2]);
	a->page = argv[3];
	a->cert = argv[4];
	a->key = argv[5];
	f = fopen(a->page, "rb");
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "%s: %s: cannot read the page\n", argv[0], a->page);
		exit(2);
	}
	a->len = (size_t)n;
	a->body = malloc(a->len);
	if (a->body == NULL || fread(a->body, 1, a->len, f) != a->len) {
		fprintf(stderr, "%s: %s: short read\n", argv[0], a->page);
		exit(2);
	}
	fclose(f);
}

/* A whole file's text (the PEM files libmicrohttpd takes from memory). */
static inline char *
wl_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0)
		return NULL;
	s = calloc(1, (size_t)n + 1);
	if (s != NULL && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

#endif

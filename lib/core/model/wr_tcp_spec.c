/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_spec: the stateful classes' defaults, lookups and freeing. */
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_spec.h"

void
wr_tcp_class_defaults(struct wr_tcp_class *c)
{
	memset(c, 0, sizeof(*c));
	c->client.group = -1;
	c->server.group = -1;
	c->client.sport_lo = 1024;
	c->client.sport_hi = 65535;
	c->server.dport = 80;
	c->ip = 4;
	c->concurrency = 1u << 20;
	strcpy(c->http.method, "GET");
	strcpy(c->http.path, "/");
	c->http.status = 200;
	c->http.response_body = 64;
	c->http.requests = 1;
	c->data = WR_TCP_DATA_PATTERN;
	c->tcp.mss = 1460;
	c->tcp.wscale = 7;
	c->tcp.sack = true;
	c->tcp.timestamps = true;
	c->tcp.window = 256 * 1024;
	c->tcp.init_cwnd = 10;
	c->tcp.rto_init_ns = 1000000000ull;
	c->tcp.rto_min_ns = 200000000ull;
	c->tcp.rto_max_ns = 60000000000ull;
	c->tcp.syn_retries = 5;
	c->tcp.retries = 8;
	c->tcp.time_wait_ns = 1000000000ull;
	c->tcp.idle_timeout_ns = 30000000000ull;
}

int
wr_tcp_specs_find(const struct wr_tcp_specs *s, const char *name)
{
	for (uint32_t i = 0; s != NULL && i < s->n; i++)
		if (strcmp(s->classes[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool
wr_tcp_specs_on_port(const struct wr_tcp_specs *s, uint16_t port,
		     enum wr_tcp_side side)
{
	for (uint32_t i = 0; s != NULL && i < s->n; i++) {
		const struct wr_tcp_end *e = side == WR_TCP_CLIENT ?
			&s->classes[i].client : &s->classes[i].server;
		if (e->present && e->group >= 0 && e->port == port)
			return true;
	}
	return false;
}

void
wr_tcp_specs_free(struct wr_tcp_specs *s)
{
	if (s == NULL)
		return;
	free(s->classes);
	s->classes = NULL;
	s->n = 0;
}

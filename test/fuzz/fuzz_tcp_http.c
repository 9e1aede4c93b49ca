/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the TCP programs' HTTP parsers (wr_tcp_http through wr_tcp_app's client and server) on arbitrary bytes, whole and in pieces. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_app.h"

/* What a connection ended with, summed over the calls. */
struct sum {
	uint64_t sent;
	uint32_t requests, responses, events;
	uint16_t status;
	uint8_t close;
};

static void
take(struct sum *s, const struct wr_tcp_app_out *o)
{
	s->sent += o->send;
	s->requests += o->requests;
	s->responses += o->responses;
	s->events |= o->events;
	if (o->events & WR_TCP_EV_RESPONSE)
		s->status = o->status;
	if (o->close != WR_TCP_APP_OPEN && s->close == WR_TCP_APP_OPEN)
		s->close = o->close;
	if (o->status > 599)
		abort();
}

/* The bytes in pieces of @p step (0: whole), blind where allowed, then
 * the peer's FIN. */
static struct sum
run(const struct wr_tcp_app *a, const uint8_t *d, size_t size, size_t step)
{
	struct wr_tcp_app_st st;
	struct wr_tcp_app_out o;
	struct sum s;
	size_t at = 0;

	memset(&s, 0, sizeof(s));
	wr_tcp_app_start(a, &st, &o);
	take(&s, &o);
	while (at < size) {
		size_t n = step ? step : size - at;
		uint64_t blind = wr_tcp_app_blind(a, &st);

		if (n > size - at)
			n = size - at;
		if (wr_tcp_app_ordered(a, &st) && blind != 0)
			abort();
		wr_tcp_app_rx(a, &st, blind >= n && step == 3 ? NULL : d + at,
			      (uint32_t)n, at, &o);
		take(&s, &o);
		at += n;
	}
	wr_tcp_app_fin(a, &st, &o);
	take(&s, &o);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wr_tcp_class c;
	static struct wr_tcp_app apps[2];
	static bool ready;
	struct wr_error err = { 0 };

	if (!ready) {
		wr_tcp_class_defaults(&c);
		strcpy(c.name, "fuzz");
		c.is_http = true;
		c.client.present = true;
		c.http.requests = 3;
		if (wr_tcp_app_init(&apps[0], &c, WR_TCP_CLIENT, NULL, 0, "h", &err) != 0 ||
		    wr_tcp_app_init(&apps[1], &c, WR_TCP_SERVER, NULL, 0, NULL, &err) != 0)
			abort();
		ready = true;
	}
	for (int i = 0; i < 2; i++) {
		struct sum whole = run(&apps[i], data, size, 0);
		struct sum one = run(&apps[i], data, size, 1);
		struct sum three = run(&apps[i], data, size, 3);

		/* Any split gives what the whole gives (blind pieces too). */
		if (memcmp(&whole, &one, sizeof(whole)) != 0 ||
		    memcmp(&whole, &three, sizeof(whole)) != 0)
			abort();
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_session_tcp: a session's TCP classes as the control plane reads and changes them (counters, histograms, rate, concurrency, done). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "wr_engine_priv.h"
#include "wr_session.h"
#include "wr_session_tcp.h"
#include "wr_tcp_classes.h"

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- what the control plane reads and changes ---- */

unsigned int
wr_session_tcp_n(const struct wr_session *s)
{
	return s->tcp != NULL ? s->tcp->n : 0;
}

int
wr_session_tcp_find(const struct wr_session *s, const char *name)
{
	return s->tcp != NULL ? wr_tcp_specs_find(&s->tcp->f->tcp, name) : -1;
}

/* Class @p k's index among port @p port's, or -1. */
static int
port_idx(const struct wr_tcp_classes *st, unsigned int port, uint32_t k)
{
	unsigned int j;

	for (j = 0; j < st->n_rt[port]; j++)
		if (st->rt_idx[port][j] == k)
			return (int)j;
	return -1;
}

int
wr_session_tcp_class(const struct wr_session *s, unsigned int i,
		     bool want_hist, struct wr_tcp_class_stats *out)
{
	const struct wr_tcp_classes *st = s->tcp;
	const struct wr_engine *e = s->e;
	unsigned int p, q, side, h;
	bool done = true, any = false;

	if (st == NULL || i >= st->n)
		return -ENOENT;
	memset(out, 0, offsetof(struct wr_tcp_class_stats, hist));
	snprintf(out->name, sizeof(out->name), "%s",
		 st->f->tcp.classes[i].name);
	if (want_hist)
		for (side = 0; side < 2; side++)
			for (h = 0; h < WR_TCP_HIST__COUNT; h++)
				wr_latency_init(&out->hist[side][h]);
	for (p = 0; p < e->n_ports; p++) {
		int j = port_idx(st, p, i);

		if (j < 0)
			continue;
		for (q = 0; q < e->n_tcp_lanes[p]; q++) {
			const struct wr_tcp_lane *l = e->tcp_lane[p][q];

			if (l == NULL || l->t == NULL)
				continue;
			for (side = 0; side < 2; side++) {
				struct wr_tcp_counters c;
				const struct wr_tcp_class_rt *rt =
					&st->rt[p][j];

				if (side == WR_TCP_CLIENT ? rt->n_clients == 0 :
				    rt->n_listen == 0)
					continue;
				out->has[side] = true;
				wr_tcp_counters(l->t, (unsigned int)j,
						(enum wr_tcp_side)side, &c);
				wr_tcp_counters_add(&out->c[side], &c);
				for (h = 0; want_hist &&
					    h < WR_TCP_HIST__COUNT; h++)
					wr_tcp_hist(l->t, (unsigned int)j,
						    (enum wr_tcp_side)side,
						    (enum wr_tcp_hist_id)h,
						    &out->hist[side][h]);
			}
			if (st->rt[p][j].n_clients > 0) {
				any = true;
				done &= __atomic_load_n(&l->done,
							__ATOMIC_ACQUIRE) != 0;
			}
		}
	}
	out->stopped = (any && done) || wr_engine_stopping(e);
	out->rate_milli = st->cls[i].rate_milli;
	out->concurrency = st->cls[i].concurrency;
	return 0;
}

void
wr_session_tcp_port(const struct wr_session *s, unsigned int port,
		    struct wr_tcp_port_counters *out)
{
	const struct wr_engine *e = s->e;
	unsigned int q;

	memset(out, 0, sizeof(*out));
	if (s->tcp == NULL || port >= e->n_ports)
		return;
	for (q = 0; q < e->n_tcp_lanes[port]; q++) {
		const struct wr_tcp_lane *l = e->tcp_lane[port][q];
		struct wr_tcp_port_counters c;
		uint64_t *a = (uint64_t *)out;
		const uint64_t *b = (const uint64_t *)&c;
		size_t w;

		if (l == NULL || l->t == NULL)
			continue;
		wr_tcp_port_counters(l->t, &c);
		/* Every member is a uint64_t counter: summed word by word. */
		for (w = 0; w < sizeof(c) / sizeof(uint64_t); w++)
			a[w] += b[w];
	}
}

int
wr_session_tcp_ctl(struct wr_session *s, unsigned int i,
		   const struct wr_tcp_ctl *c, struct wr_error *err)
{
	struct wr_tcp_classes *st = s->tcp;
	struct wr_engine *e = s->e;
	unsigned int p, q, n = 0;
	int rc;

	if (st == NULL || i >= st->n)
		return -ENOENT;
	for (p = 0; p < e->n_ports; p++) {
		int j = port_idx(st, p, i);
		struct wr_tcp_ctl lc;

		if (j < 0 || st->rt[p][j].n_clients == 0)
			continue;
		lc = *c;
		lc.class_idx = (unsigned int)j;
		for (q = 0; q < e->n_tcp_lanes[p]; q++) {
			/* The lcore takes one request at a time. */
			unsigned int tries = 0;

			while ((rc = wr_tcp_ctl(e->tcp_lane[p][q]->t, &lc)) ==
			       -EBUSY && tries++ < 1000)
				sleep_ms(1);
			if (rc != 0)
				return wr_error_set(err, rc, NULL, 0, 0, NULL,
					"tcp[%u] (%s): %s", i,
					st->f->tcp.classes[i].name,
					rc == -EINVAL ? "a concurrency above "
					"what the run sized its tables for" :
					strerror(-rc));
			n++;
		}
	}
	if (n == 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
			"tcp[%u] (%s): no clients of it run here", i,
			st->f->tcp.classes[i].name);
	if (c->set_rate)
		st->cls[i].rate_milli = c->rate_milli;
	if (c->set_concurrency)
		st->cls[i].concurrency = c->concurrency;
	if (c->pause)
		st->cls[i].paused = true;
	if (c->resume)
		st->cls[i].paused = false;
	return 0;
}

bool
wr_session_tcp_done(const struct wr_session *s)
{
	const struct wr_engine *e = s->e;
	unsigned int p, q;
	bool any = false;

	if (s->tcp == NULL)
		return false;
	for (p = 0; p < e->n_ports; p++)
		for (q = 0; q < e->n_tcp_lanes[p]; q++) {
			const struct wr_tcp_lane *l = e->tcp_lane[p][q];

			if (!l->has_clients)
				continue;
			any = true;
			if (!__atomic_load_n(&l->done, __ATOMIC_ACQUIRE))
				return false;
		}
	return any;
}

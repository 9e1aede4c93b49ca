/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_read: a session's stateful classes read through wr_session_tcp and shown by wr_tcp_view, for the server (stats.get, tcp.*) and `wirerate run` (its lines, summary, --json, --stats-jsonl). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_read.h"

/* The class with its histograms is about 6 * 16 KB: on the heap. */
static struct wr_tcp_class_stats *
class_read(const struct wr_session *s, unsigned int i, bool hist, int *rc)
{
	struct wr_tcp_class_stats *st = calloc(1, sizeof(*st));

	if (st == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	*rc = wr_session_tcp_class(s, i, hist, st);
	if (*rc != 0) {
		free(st);
		return NULL;
	}
	return st;
}

static void
view_of(const struct wr_tcp_class_stats *st, bool hist,
	struct wr_tcp_view_class *v)
{
	memset(v, 0, sizeof(*v));
	v->name = st->name;
	v->has[0] = st->has[0];
	v->has[1] = st->has[1];
	v->c = st->c;
	v->hist = hist ? st->hist : NULL;
	v->stopped = st->stopped;
	v->rate_milli = st->rate_milli;
	v->concurrency = st->concurrency;
}

/* What @p st holds since @p base's class of the same index (the session
 * is the same: the server drops its baseline with the session). */
static void
class_sub(struct wr_tcp_class_stats *st, unsigned int i, bool hist,
	  const struct wr_tcp_read_base *base)
{
	const struct wr_tcp_class_stats *b;
	unsigned int side, h;

	if (base == NULL || i >= base->n)
		return;
	b = &base->cls[i];
	for (side = 0; side < 2; side++) {
		wr_tcp_counters_sub(&st->c[side], &b->c[side]);
		for (h = 0; hist && h < WR_TCP_HIST__COUNT; h++)
			wr_latency_sub(&st->hist[side][h], &b->hist[side][h]);
	}
}

void
wr_tcp_read_base_free(struct wr_tcp_read_base *b)
{
	free(b->cls);
	memset(b, 0, sizeof(*b));
}

int
wr_tcp_read_base_take(const struct wr_session *s, unsigned int n_ports,
		      struct wr_tcp_read_base *b)
{
	unsigned int n = wr_session_tcp_n(s), i;

	wr_tcp_read_base_free(b);
	if (n == 0)
		return 0;
	b->cls = calloc(n, sizeof(*b->cls));
	if (b->cls == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (wr_session_tcp_class(s, i, true, &b->cls[i]) != 0)
			memset(&b->cls[i], 0, sizeof(b->cls[i]));
	b->n = n;
	for (i = 0; i < n_ports && i < WR_PORTS_MAX; i++)
		wr_session_tcp_port(s, i, &b->ports[i]);
	return 0;
}

json_t *
wr_tcp_read_class_json(const struct wr_session *s, unsigned int i, bool hist,
		       const struct wr_tcp_read_base *base, int *rc)
{
	struct wr_tcp_class_stats *st = class_read(s, i, hist, rc);
	struct wr_tcp_view_class v;
	json_t *j;

	if (st == NULL)
		return NULL;
	class_sub(st, i, hist, base);
	view_of(st, hist, &v);
	j = wr_tcp_view_class_json(&v);
	free(st);
	*rc = j == NULL ? -ENOMEM : 0;
	return j;
}

static bool
port_any(const struct wr_tcp_port_counters *p)
{
	static const struct wr_tcp_port_counters zero;

	return memcmp(p, &zero, sizeof(zero)) != 0;
}

json_t *
wr_tcp_read_json(const struct wr_session *s, unsigned int n_ports, bool hist,
		 const struct wr_tcp_read_base *base)
{
	unsigned int n = wr_session_tcp_n(s), i;
	json_t *classes, *ports, *j;
	int rc;

	if (n == 0)
		return NULL;
	classes = json_array();
	ports = json_array();
	if (classes == NULL || ports == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		j = wr_tcp_read_class_json(s, i, hist, base, &rc);
		if (j == NULL)
			goto fail;
		json_array_append_new(classes, j);
	}
	for (i = 0; i < n_ports; i++) {
		struct wr_tcp_port_counters p;

		memset(&p, 0, sizeof(p));
		wr_session_tcp_port(s, i, &p);
		/* A port without an engine reads zero (no mem_bytes). */
		if (!port_any(&p))
			continue;
		if (base != NULL && i < WR_PORTS_MAX)
			wr_tcp_port_counters_sub(&p, &base->ports[i]);
		j = wr_tcp_view_port_json(i, &p);
		if (j == NULL)
			goto fail;
		json_array_append_new(ports, j);
	}
	j = json_pack("{s:o, s:o}", "classes", classes, "ports", ports);
	return j;
fail:
	json_decref(classes);
	json_decref(ports);
	return NULL;
}

unsigned int
wr_tcp_read_lines(const struct wr_session *s, struct wr_tcp_lines *l,
		  uint64_t interval_ns, const char *prefix, FILE *out)
{
	unsigned int n = wr_session_tcp_n(s), i, side, lines = 0;
	/* Control thread only; too large for its stack. */
	static struct wr_tcp_class_stats st;

	for (i = 0; i < n && i < WR_TCP_CLASSES_MAX; i++) {
		if (wr_session_tcp_class(s, i, false, &st) != 0)
			continue;
		for (side = 0; side < 2; side++) {
			struct wr_tcp_view_rate r;
			char buf[512];

			if (!st.has[side])
				continue;
			wr_tcp_view_rates(&l->prev[i][side], &st.c[side],
					  interval_ns, &r);
			l->prev[i][side] = st.c[side];
			wr_tcp_view_line(buf, sizeof(buf), st.name,
					 (enum wr_tcp_side)side, &st.c[side], &r);
			fprintf(out, "%s%s\n", prefix, buf);
			lines++;
		}
	}
	return lines;
}

static void
put_port(void *ctx, const char *name, uint64_t v)
{
	if (v != 0)
		fprintf(ctx, " %s=%llu", name, (unsigned long long)v);
}

int
wr_tcp_read_summary(const struct wr_session *s, unsigned int n_ports,
		    uint64_t elapsed_ns, FILE *out)
{
	unsigned int n = wr_session_tcp_n(s), i;
	struct wr_tcp_view_class v;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++) {
		struct wr_tcp_class_stats *st = class_read(s, i, true, &rc);

		if (st == NULL)
			return rc == -ENOENT ? 0 : rc;
		view_of(st, true, &v);
		rc = wr_tcp_view_summary(out, &v, elapsed_ns, false);
		free(st);
	}
	for (i = 0; i < n_ports && rc == 0 && n > 0; i++) {
		struct wr_tcp_port_counters p;
		memset(&p, 0, sizeof(p));
		wr_session_tcp_port(s, i, &p);
		if (!port_any(&p))
			continue;
		fprintf(out, "port %u: tcp engine:", i);
		wr_tcp_view_port_each(&p, put_port, out);
		fputc('\n', out);
	}
	return rc != 0 ? rc : ferror(out) ? -EIO : 0;
}

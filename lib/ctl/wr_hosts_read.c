/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_hosts_read: a port's emulated hosts copied from their service, a chunk at a time. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_hosts_read.h"

struct wr_hosts_read {
	struct wr_host_svc_req r;
	struct wr_host_svc_host *buf;
	struct wr_host *hosts;
	const char **states;
	struct wr_host_svc_counter ctrs[WR_HOSTS_READ_COUNTERS_MAX];
	struct wr_hosts_ctr vctrs[WR_HOSTS_READ_COUNTERS_MAX];
	struct wr_hosts_snap snap;
};

struct wr_hosts_read *
wr_hosts_read_new(void)
{
	struct wr_hosts_read *h = calloc(1, sizeof(*h));

	if (h == NULL)
		return NULL;
	h->buf = calloc(WR_HOSTS_READ_CHUNK, sizeof(*h->buf));
	h->hosts = calloc(WR_HOSTS_READ_CHUNK, sizeof(*h->hosts));
	h->states = calloc((size_t)WR_HOSTS_READ_CHUNK *
			   (WR_HOST_PROTO__COUNT + 1), sizeof(*h->states));
	if (h->buf == NULL || h->hosts == NULL || h->states == NULL) {
		wr_hosts_read_free(h);
		return NULL;
	}
	return h;
}

void
wr_hosts_read_free(struct wr_hosts_read *h)
{
	if (h == NULL)
		return;
	free(h->buf);
	free(h->hosts);
	free(h->states);
	free(h);
}

int
wr_hosts_read(struct wr_hosts_read *h, struct wr_host_svc *svc,
	      const struct wr_host_specs *specs, unsigned int port,
	      uint32_t first, uint32_t max, bool counters,
	      const struct wr_hosts_snap **snap)
{
	struct wr_hosts_snap *v = &h->snap;
	uint32_t i, m;
	int rc;

	*snap = v;
	memset(&h->r, 0, sizeof(h->r));
	memset(v, 0, sizeof(*v));
	v->port = (uint16_t)port;
	v->specs = specs;
	v->first = first;
	v->hosts = h->hosts;
	v->states = h->states;
	v->ctrs = h->vctrs;
	if (svc == NULL)
		return 0;
	h->r.port = port;
	h->r.first = first;
	h->r.max_hosts = max < WR_HOSTS_READ_CHUNK ? max : WR_HOSTS_READ_CHUNK;
	h->r.hosts = h->r.max_hosts > 0 ? h->buf : NULL;
	h->r.max_counters = counters ? WR_HOSTS_READ_COUNTERS_MAX : 0;
	h->r.counters = counters ? h->ctrs : NULL;
	rc = wr_host_svc_read(svc, &h->r);
	if (rc == -ENOENT)
		return 0;
	if (rc != 0)
		return rc;
	v->now_ns = h->r.now_ns;
	v->n_total = h->r.n_total;
	v->n = h->r.n_hosts;
	for (i = 0; i < v->n; i++) {
		h->hosts[i] = h->buf[i].h;
		for (m = 0; wr_host_view_proto_name(m) != NULL; m++)
			h->states[(size_t)i * WR_HOST_PROTO__COUNT + m] =
				h->buf[i].proto_state[m];
	}
	v->n_ctrs = h->r.n_counters;
	for (i = 0; i < v->n_ctrs; i++) {
		snprintf(h->vctrs[i].name, sizeof(h->vctrs[i].name), "%s",
			 h->ctrs[i].name);
		h->vctrs[i].value = h->ctrs[i].value;
	}
	return 0;
}

json_t *
wr_hosts_read_counters(struct wr_host_svc *svc,
		       const struct wr_host_specs *specs, unsigned int port,
		       int *rc)
{
	uint32_t count[WR_HOST_VIEW__COUNT] = { 0 }, c[WR_HOST_VIEW__COUNT];
	struct wr_hosts_read *h = wr_hosts_read_new();
	const struct wr_hosts_snap *v;
	struct wr_hosts_snap whole;
	uint32_t at = 0, i;
	json_t *j;

	*rc = -ENOMEM;
	if (h == NULL)
		return NULL;
	/* The counters with the first chunk; the states of every chunk. */
	*rc = wr_hosts_read(h, svc, specs, port, 0, WR_HOSTS_READ_CHUNK, true,
			    &v);
	whole = *v;
	while (*rc == 0) {
		wr_hosts_view_count(v, c);
		for (i = 0; i < WR_HOST_VIEW__COUNT; i++)
			count[i] += c[i];
		at += v->n;
		if (v->n == 0 || at >= whole.n_total)
			break;
		*rc = wr_hosts_read(h, svc, specs, port, at, WR_HOSTS_READ_CHUNK,
				    false, &v);
	}
	if (*rc != 0) {
		wr_hosts_read_free(h);
		return NULL;
	}
	/* wr_hosts_view_counters() counts the copy it is given: give it
	 * none (its counters kept: the reads after the first asked none)
	 * and set the whole table's counts. */
	whole.n = 0;
	j = wr_hosts_view_counters(&whole);
	wr_hosts_read_free(h);
	if (j == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < WR_HOST_VIEW__COUNT; i++)
		json_object_set_new(j, wr_host_view_state_names[i],
				    json_integer(count[i]));
	*rc = 0;
	return j;
}

json_t *
wr_hosts_read_json(struct wr_host_svc *svc, const struct wr_host_specs *specs,
		   unsigned int n_ports)
{
	json_t *a = json_array(), *j;
	unsigned int p;
	int rc;

	for (p = 0; a != NULL && svc != NULL && p < n_ports; p++) {
		j = wr_hosts_read_counters(svc, specs, p, &rc);
		if (j != NULL && json_integer_value(json_object_get(j, "hosts")) > 0)
			json_array_append(a, j);
		json_decref(j);
	}
	return a;
}

int
wr_hosts_read_print(struct wr_host_svc *svc, const struct wr_host_specs *specs,
		    unsigned int n_ports, bool table, FILE *out)
{
	struct wr_hosts_read *h = wr_hosts_read_new();
	const struct wr_hosts_snap *v;
	unsigned int p;
	uint32_t at;
	int rc = 0;

	if (h == NULL)
		return -ENOMEM;
	for (p = 0; svc != NULL && p < n_ports; p++) {
		uint32_t count[WR_HOST_VIEW__COUNT] = { 0 }, c[WR_HOST_VIEW__COUNT];
		struct wr_hosts_snap whole;
		unsigned int i;

		rc = wr_hosts_read(h, svc, specs, p, 0, WR_HOSTS_READ_CHUNK,
				   true, &v);
		if (rc != 0)
			break;
		if (v->n_total == 0)
			continue;
		whole = *v;
		/* The table as it is read, then the summary of the whole. */
		for (at = 0; rc == 0; ) {
			if (table)
				wr_hosts_view_table(out, v);
			wr_hosts_view_count(v, c);
			for (i = 0; i < WR_HOST_VIEW__COUNT; i++)
				count[i] += c[i];
			at += v->n;
			if (v->n == 0 || at >= whole.n_total)
				break;
			rc = wr_hosts_read(h, svc, specs, p, at,
					   WR_HOSTS_READ_CHUNK, false, &v);
		}
		if (rc != 0)
			break;
		whole.n = 0;
		wr_hosts_view_summary_counts(out, &whole, count);
	}
	if (rc == -ETIMEDOUT)
		fprintf(out, "port %u: hosts: their service did not answer within "
			"%u ms\n", p, WR_HOST_SVC_READ_MS);
	wr_hosts_read_free(h);
	return rc;
}

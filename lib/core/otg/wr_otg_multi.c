/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_multi: the stream file of one server when a plan spans several: every flow's stream in the plan's order, so a signature's stream index means one flow on every server. */
#include <errno.h>
#include <string.h>

#include "wr_otg_priv.h"

/*
 * Why every server of a plan loads every flow's stream: a frame's
 * signature names its stream by its index in the sender's file (wr_sig.h),
 * and the receiver counts it on the stream of that index in its own file
 * (wr_rx.c: a signature whose index it has no stream for, or a stream
 * without latency, is rx_bad_sig).  So the receiving server must hold, at
 * the same index, a stream with the same latency kind and at least the
 * sender's lanes: that is what a placeholder is.  It never sends
 * (traffic.start names only the streams sent there) and keeps the flow's
 * name, so stats.get rows of one flow have one name on every server and
 * the flow's frames_rx is their sum (wr_otg_metrics()).
 */

/* The server (index into @p maps) that holds plan port @p port, or -1. */
static int
server_of(const int *const *maps, unsigned int n, unsigned int port)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (maps[k] != NULL && maps[k][port] >= 0)
			return (int)k;
	return -1;
}

/* A port of server @p map for the placeholder of @p name: the first port
 * there that receives the flow (RX counts on the port that polls it, any
 * stream's port would do, but this one is certainly polled), else its
 * first port; -1 when the server has none of the plan's. */
static int
placeholder_port(const struct wr_otg_plan *p, const int *map, const char *name)
{
	unsigned int f, i;

	for (f = 0; f < p->n_flows; f++)
		if (strcmp(p->flows[f].stream, name) == 0)
			for (i = 0; i < p->n_ports && i < 64; i++)
				if ((p->flows[f].rx_ports >> i & 1) && map[i] >= 0)
					return (int)i;
	for (i = 0; i < p->n_ports; i++)
		if (map[i] >= 0)
			return (int)i;
	return -1;
}

int
wr_otg_plan_yaml_of(const struct wr_otg_plan *p, const int *const *maps,
		       unsigned int n, unsigned int k, char **yaml)
{
	struct wr_otg_plan q = *p;
	json_t *streams = json_array(), *st;
	size_t i;
	int rc = 0;

	*yaml = NULL;
	if (streams == NULL)
		return -ENOMEM;
	json_array_foreach(p->streams, i, st) {
		json_int_t tx = json_integer_value(json_object_get(st, "port"));
		const char *name = json_string_value(json_object_get(st, "name"));
		json_t *lat = json_object_get(st, "latency"), *ph;
		int port;

		if (tx >= 0 && (unsigned int)tx < p->n_ports &&
		    server_of(maps, n, (unsigned int)tx) == (int)k) {
			if (json_array_append(streams, st) != 0)
				rc = -ENOMEM;
			continue;
		}
		port = name != NULL ? placeholder_port(p, maps[k], name) : -1;
		if (port < 0)
			continue; /* no port here: nothing of the plan runs here */
		/* One frame at most, should it ever be started by hand. */
		ph = json_pack("{s:s, s:i, s:i, s:O*}", "name", name, "port",
			       port, "count", 1, "latency", lat);
		if (ph == NULL || json_array_append_new(streams, ph) != 0)
			rc = -ENOMEM;
	}
	q.streams = streams;
	if (rc == 0)
		rc = wr_otg_plan_yaml(&q, maps[k], yaml);
	json_decref(streams);
	return rc;
}


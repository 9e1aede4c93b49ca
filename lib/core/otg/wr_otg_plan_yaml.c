/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_plan_yaml: the stream file one server of a plan loads (streams.load): its ports' streams and hosts, in wirerate's own schema. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg_priv.h"

/* Copies of the items of @p items whose plan "port" is on this server,
 * "port" made the engine's index. */
static int
on_server(const json_t *items, const int *port_map, unsigned int n_ports,
	  json_t *out)
{
	size_t i;

	for (i = 0; i < json_array_size(items); i++) {
		const json_t *it = json_array_get(items, i);
		json_int_t k = json_integer_value(json_object_get(it, "port"));
		json_t *c;

		if (k < 0 || (json_int_t)n_ports <= k || port_map[k] < 0)
			continue;
		c = json_deep_copy(it);
		if (c == NULL || json_object_set_new(c, "port",
				json_integer(port_map[k])) != 0 ||
		    json_array_append_new(out, c) != 0)
			return -ENOMEM;
	}
	return 0;
}

int
wr_otg_plan_yaml(const struct wr_otg_plan *p, const int *port_map,
		 char **yaml)
{
	static const char head[] = "# An OTG config as wirerate runs it on "
				   "this server (wr_otg_plan_yaml).\n";
	json_t *doc, *streams = json_array(), *hosts = json_array();
	char *body;
	size_t hl = sizeof(head) - 1, bl;
	int rc;

	*yaml = NULL;
	doc = json_pack("{s:i}", "version", 1);
	if (doc == NULL || streams == NULL || hosts == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	rc = on_server(p->hosts, port_map, p->n_ports, hosts);
	if (rc == 0)
		rc = on_server(p->streams, port_map, p->n_ports, streams);
	if (rc != 0)
		goto out;
	if (json_array_size(hosts) == 0 && json_array_size(streams) == 0) {
		rc = -ENODATA;
		goto out;
	}
	/* JSON is YAML (flow style, 1.2): one writer, jansson's, whose
	 * escaping libyaml reads back exactly; indented so a person can read
	 * what the server runs. */
	if (json_array_size(hosts) > 0)
		json_object_set(doc, "hosts", hosts);
	/* A server with hosts and no stream loads them alone. */
	if (json_array_size(streams) > 0)
		json_object_set(doc, "streams", streams);
	body = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (body == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	bl = strlen(body);
	*yaml = malloc(hl + bl + 2);
	if (*yaml == NULL) {
		free(body);
		rc = -ENOMEM;
		goto out;
	}
	memcpy(*yaml, head, hl);
	memcpy(*yaml + hl, body, bl);
	memcpy(*yaml + hl + bl, "\n", 2);
	free(body);
out:
	json_decref(doc);
	json_decref(streams);
	json_decref(hosts);
	return rc;
}

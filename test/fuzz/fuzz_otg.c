/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: an OTG request body (JSON) through wr_otg_check() against each request schema, then a Config through the plan to the stream file the server would load, loaded back. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_error.h"
#include "wr_otg.h"
#include "wr_stream.h"
#include "wr_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The server the plan is built for: an af_packet port on a veth and a
 * memif port (what the integration tests run), fixed so that a crash
 * reproduces. */
static const struct wr_otg_env env = {
	.n_ports = 2,
	.ports = {
		{ .device = "net_af_packet0", .iface = "veth-a",
		  .mac = { 2, 0, 0, 0, 0, 0xa }, .speed_mbps = 10000,
		  .mtu = 1500, .mtu_max = 9000, .promisc_ok = true,
		  .tx_ok = true, .rx_ok = true },
		{ .device = "net_memif0", .mac = { 2, 0, 0, 0, 0, 0xb },
		  .mtu = 1500, .tx_ok = true, .rx_ok = true },
	},
};

/* The other request bodies: checked only (their handlers need a server). */
static const char *const others[] = {
	"Config.Update", "Control.State", "Control.Action", "Metrics.Request",
	"States.Request", "Capture.Request",
};

/* An error reply must be a document, every error a string. */
static void
reply(const struct wr_otg_err *err)
{
	json_t *j = wr_otg_err_json(err);
	const json_t *e;
	size_t i;

	if (j == NULL)
		abort();
	json_array_foreach(json_object_get(j, "errors"), i, e)
		if (!json_is_string(e))
			abort();
	json_decref(j);
}

static void
run_plan(const json_t *cfg)
{
	struct wr_otg_plan p;
	struct wr_otg_err err;
	struct wr_stream_file f;
	struct wr_error yerr;
	int map[WR_PORTS_MAX];
	char *yaml = NULL;

	memset(&p, 0, sizeof(p));
	wr_otg_err_init(&err);
	if (wr_otg_plan_build(cfg, &env, &p, &err) != 0) {
		if (!wr_otg_err_any(&err))
			abort(); /* a refusal must say why */
		reply(&err);
		goto out;
	}
	for (unsigned int i = 0; i < p.n_ports && i < WR_PORTS_MAX; i++)
		map[i] = p.ports[i].loc.remote ? -1 : (int)p.ports[i].loc.index;
	if (p.n_ports > WR_PORTS_MAX || wr_otg_plan_yaml(&p, map, &yaml) != 0)
		goto out;
	/* What the plan writes, the loader reads: the same stream file a
	 * user could have written. */
	if (wr_yaml_load_streams_buf("otg.yaml", yaml, strlen(yaml), &f,
				     &yerr) == 0)
		wr_stream_file_free(&f);
out:
	free(yaml);
	wr_otg_plan_free(&p);
	wr_otg_err_free(&err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_otg_err err;
	json_t *doc, *copy;
	size_t i;
	int rc;

	/* As the server reads a body: duplicate keys refused. */
	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			 NULL);
	if (doc == NULL)
		return 0;
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		copy = json_deep_copy(doc);
		wr_otg_err_init(&err);
		if (copy != NULL && wr_otg_check(copy, others[i], &err) != 0)
			reply(&err);
		wr_otg_err_free(&err);
		json_decref(copy);
	}
	wr_otg_err_init(&err);
	rc = wr_otg_check(doc, "Config", &err);
	if (rc == 0) {
		/* Checked once, a document checks again unchanged: the
		 * defaults filled are what the model accepts. */
		copy = json_deep_copy(doc);
		if (copy == NULL || wr_otg_check(copy, "Config", &err) != 0 ||
		    !json_equal(copy, doc))
			abort();
		json_decref(copy);
		run_plan(doc);
	} else {
		if (rc != -EINVAL || !wr_otg_err_any(&err))
			abort();
		reply(&err);
	}
	wr_otg_err_free(&err);
	json_decref(doc);
	return 0;
}

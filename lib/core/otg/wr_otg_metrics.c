/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_metrics: OTG's Metrics.Response (port and flow metrics) written from the servers' stats.get documents. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wr_otg.h"

/*
 * What each OTG metric is made of (doc/otg.md, "Endpoints"):
 *
 *   frames_tx, bytes_tx     the stream's (port's) tx_pkts, tx_bytes: frames
 *                           with their FCS, as OTG's sizes count them
 *   frames_rx               a flow: its signature frames back (rx_pkts of
 *                           the stream of that name, summed over the servers:
 *                           a flow received on another server is counted
 *                           there); a port: every frame it received
 *   bytes_rx                a flow of one size: frames_rx x that size; of
 *                           varying sizes: frames_rx x its mean size sent
 *                           (bytes_tx / frames_tx), the receive side counts
 *                           no bytes per stream; a port: the device's ibytes
 *                           + 4 a frame (its FCS), else wirerate's rx_bytes
 *                           (signature frames) + 4 a frame
 *   *_rate                  while it sends: the mean over its run so far
 *                           (the row's kpps, mbps_l2, and rx over the same
 *                           duration); 0 once stopped
 *   tx_l1_rate_bps          the L2 rate + 20 bytes a frame (preamble, SFD,
 *                           inter-frame gap: IEEE 802.3), the row's mbps_l1
 *   loss                    (frames_tx - frames_rx) / frames_tx in percent
 *                           (frames in flight count while running)
 *   timestamps              first: when the device took the run's first
 *                           frame (tx_started_at: the flows of a server
 *                           start together); last: first + the stream's
 *                           duration_s; wall-clock ns
 *   latency                 the echo histogram's min/max/avg (wirerate
 *                           stamps TX as the frame is handed to the device
 *                           and RX once it is in: store_forward);
 *                           cut_through adds the frame's serialisation time
 *                           at the TX port's speed (8 x size / speed), so it
 *                           needs a fixed size and a known speed: else
 *                           refused by the flow's path
 */

#define FCS_LEN 4
#define L1_OVERHEAD 20 /* IEEE 802.3: preamble 7, SFD 1, inter-frame gap 12 */

static double
num(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : 0.0;
}

static uint64_t
u64(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ?
		(uint64_t)json_integer_value(v) : 0;
}

static bool
str_is(const json_t *v, const char *s)
{
	return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

static json_t *
row_named(const json_t *doc, const char *list, const char *name)
{
	json_t *a = json_object_get(doc, list), *x;
	size_t i;

	json_array_foreach(a, i, x) {
		const char *n = json_string_value(json_object_get(x, "name"));

		if (n != NULL && strcmp(n, name) == 0)
			return x;
	}
	return NULL;
}

static json_t *
port_row(const json_t *doc, int index)
{
	json_t *a = json_object_get(doc, "ports"), *x;
	size_t i;

	json_array_foreach(a, i, x)
		if (json_integer_value(json_object_get(x, "port")) == index)
			return x;
	return NULL;
}

/* Whether @p name is among @p names (absent or empty: all). */
static bool
named(const json_t *names, const char *name)
{
	json_t *v;
	size_t i;

	if (json_array_size(names) == 0)
		return true;
	json_array_foreach(names, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
			return true;
	return false;
}

/* Keep only @p keep's members (and those of @p always) in @p o. */
static void
columns(json_t *o, const json_t *keep, const char *const *always)
{
	const char *k;
	json_t *v, *drop = json_array();
	void *tmp;
	size_t i;

	if (json_array_size(keep) == 0 || drop == NULL) {
		json_decref(drop);
		return;
	}
	json_object_foreach_safe(o, tmp, k, v) {
		bool stay = named(keep, k);

		for (i = 0; !stay && always[i] != NULL; i++)
			stay = strcmp(always[i], k) == 0;
		if (!stay)
			json_array_append_new(drop, json_string(k));
	}
	json_array_foreach(drop, i, v)
		json_object_del(o, json_string_value(v));
	json_decref(drop);
}

/* Every requested name must be one of the config's. */
static bool
names_known(const json_t *names, const char *path, struct wr_otg_err *err,
	    bool (*known)(const struct wr_otg_plan *, const char *),
	    const struct wr_otg_plan *p)
{
	json_t *v;
	size_t i;
	bool ok = true;

	json_array_foreach(names, i, v) {
		char at[96];

		if (known(p, json_string_value(v)))
			continue;
		snprintf(at, sizeof(at), "%s[%zu]", path, i);
		err->code = 404;
		wr_otg_err_add(err, at, "no %s named \"%.128s\" in the config",
			       strstr(path, "port") ? "port" : "flow",
			       json_string_value(v));
		ok = false;
	}
	return ok;
}

static bool
port_known(const struct wr_otg_plan *p, const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < p->n_ports; i++)
		if (strcmp(p->ports[i].name, name) == 0)
			return true;
	return false;
}

static bool
flow_known(const struct wr_otg_plan *p, const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < p->n_flows; i++)
		if (strcmp(p->flows[i].name, name) == 0)
			return true;
	return false;
}

/* The server holding plan port @p port, and its engine index there. */
static int
where(unsigned int port, const int *const *maps, unsigned int n, int *index)
{
	unsigned int k;

	for (k = 0; k < n; k++)
		if (maps[k] != NULL && maps[k][port] >= 0) {
			*index = maps[k][port];
			return (int)k;
		}
	return -1;
}

static const char *
location_of(const json_t *cfg, unsigned int i)
{
	json_t *p = json_array_get(json_object_get(cfg, "ports"), i);

	return json_string_value(json_object_get(p, "location"));
}

static json_t *
port_metric(const struct wr_otg_plan *p, unsigned int i, json_t *const *stats,
	    const int *const *maps, unsigned int n, const char *const *transmit)
{
	const char *loc = location_of(p->config, i);
	json_t *m = json_pack("{s:s}", "name", p->ports[i].name), *row = NULL,
	       *nic;
	bool sending = false, running;
	uint64_t rx_frames, rx_bytes;
	double dur;
	unsigned int f;
	int idx = -1, k = where(i, maps, n, &idx);

	if (m == NULL)
		return NULL;
	if (loc != NULL)
		json_object_set_new(m, "location", json_string(loc));
	for (f = 0; f < p->n_flows; f++)
		if (p->flows[f].tx_port == i && transmit != NULL &&
		    transmit[f] != NULL && strcmp(transmit[f], "started") == 0)
			sending = true;
	json_object_set_new(m, "transmit", json_string(sending ? "started" :
						       "stopped"));
	if (k >= 0)
		row = port_row(stats[k], idx);
	if (row == NULL)
		return m; /* not built there yet: no counters to give */
	running = str_is(json_object_get(stats[k], "state"), "running");
	if (json_is_boolean(json_object_get(row, "link_up")))
		json_object_set_new(m, "link", json_string(json_is_true(
			json_object_get(row, "link_up")) ? "up" : "down"));
	nic = json_object_get(row, "nic");
	rx_frames = u64(row, "rx_pkts");
	rx_bytes = nic != NULL ? u64(nic, "ibytes") + FCS_LEN * u64(nic, "ipackets") :
		   u64(row, "rx_bytes") + FCS_LEN * rx_frames;
	dur = num(stats[k], "duration_s");
	json_object_set_new(m, "frames_tx", json_integer((json_int_t)u64(row, "tx_pkts")));
	json_object_set_new(m, "frames_rx", json_integer((json_int_t)rx_frames));
	json_object_set_new(m, "bytes_tx", json_integer((json_int_t)u64(row, "tx_bytes")));
	json_object_set_new(m, "bytes_rx", json_integer((json_int_t)rx_bytes));
	json_object_set_new(m, "frames_tx_rate", json_real(running ?
				num(row, "kpps") * 1e3 : 0));
	json_object_set_new(m, "bytes_tx_rate", json_real(running ?
				num(row, "mbps_l2") * 1e6 / 8 : 0));
	json_object_set_new(m, "frames_rx_rate", json_real(running && dur > 0 ?
				(double)rx_frames / dur : 0));
	json_object_set_new(m, "bytes_rx_rate", json_real(running && dur > 0 ?
				(double)rx_bytes / dur : 0));
	return m;
}

/* Flow @p f's row on each server, summed: tx from its sender, rx from
 * wherever it was received, latency where it was received by its sender's
 * own server. */
struct flow_sum {
	const json_t *tx;            /* the sender's stream row */
	const json_t *doc;           /* the sender's document */
	uint64_t rx;
	uint64_t lat_n, lat_min, lat_max;
	double lat_sum;
	uint32_t speed_mbps;         /* the TX port's link */
};

static void
flow_gather(const struct wr_otg_plan *p, unsigned int f, json_t *const *stats,
	    const int *const *maps, unsigned int n, struct flow_sum *fs)
{
	const struct wr_otg_flow *fl = &p->flows[f];
	unsigned int k;
	int idx = -1, tk = where(fl->tx_port, maps, n, &idx);

	memset(fs, 0, sizeof(*fs));
	for (k = 0; k < n; k++) {
		const json_t *row = row_named(stats[k], "streams", fl->stream);
		const json_t *lat;
		uint64_t ln;

		if (row == NULL)
			continue;
		if ((int)k == tk) {
			const json_t *pr = port_row(stats[k], idx);

			fs->tx = row;
			fs->doc = stats[k];
			fs->speed_mbps = (uint32_t)u64(pr, "link_speed_mbps");
		}
		fs->rx += u64(row, "rx_pkts");
		/* Latency is a receive TSC minus a transmit TSC: one counter
		 * only on the sender's own server.  Another server may be on
		 * another host, whose TSC is unrelated: a figure from there
		 * would be one nobody measured, so it is not offered. */
		if ((int)k != tk)
			continue;
		lat = json_object_get(row, "latency_ns");
		ln = u64(lat, "n");
		if (ln == 0)
			continue;
		if (fs->lat_n == 0 || u64(lat, "min") < fs->lat_min)
			fs->lat_min = u64(lat, "min");
		if (u64(lat, "max") > fs->lat_max)
			fs->lat_max = u64(lat, "max");
		fs->lat_sum += num(lat, "avg") * (double)ln;
		fs->lat_n += ln;
	}
}

static json_t *
flow_metric(const struct wr_otg_plan *p, unsigned int f, json_t *const *stats,
	    const int *const *maps, unsigned int n, const char *const *transmit,
	    struct wr_otg_err *err)
{
	const struct wr_otg_flow *fl = &p->flows[f];
	struct flow_sum fs;
	json_t *m;
	uint64_t tx, txb, rxb;
	double dur, ser_ns = 0;
	const char *state = transmit != NULL && transmit[f] != NULL ?
		transmit[f] : "stopped";
	bool sending = strcmp(state, "started") == 0;
	unsigned int r;

	flow_gather(p, f, stats, maps, n, &fs);
	m = json_pack("{s:s, s:s, s:s}", "name", fl->name, "port_tx",
		      p->ports[fl->tx_port].name, "transmit", state);
	if (m == NULL)
		return NULL;
	for (r = 0; r < p->n_ports && r < 64; r++)
		if (fl->rx_ports & (1ull << r)) {
			json_object_set_new(m, "port_rx",
					    json_string(p->ports[r].name));
			break;
		}
	tx = u64(fs.tx, "tx_pkts");
	txb = u64(fs.tx, "tx_bytes");
	rxb = fl->size_fixed != 0 ? fs.rx * fl->size_fixed :
	      tx != 0 ? (uint64_t)((double)fs.rx * (double)txb / (double)tx + 0.5) : 0;
	dur = num(fs.tx, "duration_s");
	json_object_set_new(m, "frames_tx", json_integer((json_int_t)tx));
	json_object_set_new(m, "bytes_tx", json_integer((json_int_t)txb));
	json_object_set_new(m, "frames_rx", json_integer((json_int_t)fs.rx));
	json_object_set_new(m, "bytes_rx", json_integer((json_int_t)rxb));
	json_object_set_new(m, "frames_tx_rate", json_real(sending ?
				num(fs.tx, "kpps") * 1e3 : 0));
	json_object_set_new(m, "frames_rx_rate", json_real(sending && dur > 0 ?
				(double)fs.rx / dur : 0));
	json_object_set_new(m, "tx_rate_bytes", json_real(sending ?
				num(fs.tx, "mbps_l2") * 1e6 / 8 : 0));
	json_object_set_new(m, "tx_rate_bps", json_real(sending ?
				num(fs.tx, "mbps_l2") * 1e6 : 0));
	json_object_set_new(m, "tx_rate_kbps", json_real(sending ?
				num(fs.tx, "mbps_l2") * 1e3 : 0));
	json_object_set_new(m, "tx_rate_mbps", json_real(sending ?
				num(fs.tx, "mbps_l2") : 0));
	json_object_set_new(m, "tx_l1_rate_bps", json_real(sending ?
				num(fs.tx, "mbps_l1") * 1e6 : 0));
	{
		double rx_bps = sending && dur > 0 ? (double)rxb * 8 / dur : 0;

		json_object_set_new(m, "rx_rate_bytes", json_real(rx_bps / 8));
		json_object_set_new(m, "rx_rate_bps", json_real(rx_bps));
		json_object_set_new(m, "rx_rate_kbps", json_real(rx_bps / 1e3));
		json_object_set_new(m, "rx_rate_mbps", json_real(rx_bps / 1e6));
		json_object_set_new(m, "rx_l1_rate_bps", json_real(sending && dur > 0 ?
			rx_bps + (double)fs.rx * L1_OVERHEAD * 8 / dur : 0));
	}
	if (fl->loss || fl->metrics)
		json_object_set_new(m, "loss", json_real(tx == 0 || fs.rx >= tx ?
			0.0 : (double)(tx - fs.rx) * 100.0 / (double)tx));
	if (fl->timestamps && fs.doc != NULL &&
	    json_is_number(json_object_get(fs.doc, "tx_started_at"))) {
		double first = num(fs.doc, "tx_started_at") * 1e9;

		/* Whole ns as JSON integers: jansson writes a double of 1e18
		 * as "1.79...e18" (no '+'), which YAML 1.1 (PyYAML's
		 * safe_load: snappi's response parser) reads as a string, and
		 * snappi then refuses the whole Metrics.Response. */
		json_object_set_new(m, "timestamps", json_pack("{s:I, s:I}",
			"first_timestamp_ns", (json_int_t)llround(first),
			"last_timestamp_ns", (json_int_t)llround(first + dur * 1e9)));
	}
	if (fl->latency) {
		char path[32];

		if (fl->cut_through && (fl->size_fixed == 0 || fs.speed_mbps == 0)) {
			snprintf(path, sizeof(path), "flows[%u]", f);
			wr_otg_err_add(err, path, "metrics.latency.mode cut_through: "
				       "the serialisation time added to the "
				       "store_forward figures needs a fixed frame "
				       "size and a known link speed (%s): give "
				       "size.fixed or store_forward",
				       fl->size_fixed == 0 ? "the size varies" :
				       "the TX port's speed is unknown");
			json_decref(m);
			return NULL;
		}
		if (fl->cut_through)
			ser_ns = (double)fl->size_fixed * 8.0 * 1e3 /
				 (double)fs.speed_mbps;
		if (fs.lat_n > 0)
			json_object_set_new(m, "latency", json_pack(
				"{s:f, s:f, s:f}", "minimum_ns",
				(double)fs.lat_min + ser_ns, "maximum_ns",
				(double)fs.lat_max + ser_ns, "average_ns",
				fs.lat_sum / (double)fs.lat_n + ser_ns));
	}
	return m;
}

json_t *
wr_otg_metrics(const struct wr_otg_plan *p, const json_t *req,
	       json_t *const *stats, const int *const *port_maps,
	       unsigned int n_servers, const char *const *transmit,
	       struct wr_otg_err *err)
{
	const char *choice = json_string_value(json_object_get(req, "choice"));
	static const char *const port_always[] = { "name", NULL };
	static const char *const flow_always[] = { "name", "port_tx", "port_rx",
						   NULL };
	json_t *sub, *names, *cols, *a, *m;
	unsigned int i;

	if (choice == NULL)
		choice = "port";
	if (strcmp(choice, "port") != 0 && strcmp(choice, "flow") != 0) {
		wr_otg_err_add(err, "choice", "expected port or flow (wirerate "
			       "runs no %s), got \"%s\"", choice, choice);
		return NULL;
	}
	sub = json_object_get(req, choice);
	names = json_object_get(sub, strcmp(choice, "port") == 0 ?
				"port_names" : "flow_names");
	cols = json_object_get(sub, strcmp(choice, "port") == 0 ?
			       "column_names" : "metric_names");
	if (!names_known(names, strcmp(choice, "port") == 0 ?
			 "port.port_names" : "flow.flow_names", err,
			 strcmp(choice, "port") == 0 ? port_known : flow_known, p))
		return NULL;
	a = json_array();
	if (a == NULL)
		return NULL;
	if (strcmp(choice, "port") == 0) {
		for (i = 0; i < p->n_ports; i++) {
			if (!named(names, p->ports[i].name))
				continue;
			m = port_metric(p, i, stats, port_maps, n_servers,
					transmit);
			columns(m, cols, port_always);
			json_array_append_new(a, m);
		}
		return json_pack("{s:s, s:o}", "choice", "port_metrics",
				 "port_metrics", a);
	}
	for (i = 0; i < p->n_flows; i++) {
		if (!named(names, p->flows[i].name))
			continue;
		m = flow_metric(p, i, stats, port_maps, n_servers, transmit, err);
		if (m == NULL) {
			json_decref(a);
			return NULL;
		}
		columns(m, cols, flow_always);
		json_array_append_new(a, m);
	}
	return json_pack("{s:s, s:o}", "choice", "flow_metrics", "flow_metrics", a);
}

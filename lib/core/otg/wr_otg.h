/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg: the Open Traffic Generator model (v1.61.0) read into wirerate's: its checks, its errors, a config turned into a plan of stream files, and metrics and states written back as the model says. */
#ifndef WR_OTG_H
#define WR_OTG_H

/**
 * @file
 * OTG (github.com/open-traffic-generator/models, artifacts/openapi.yaml
 * v1.61.0) is what snappi, gosnappi and ondatra scripts send.  Everything
 * here is without EAL (unit-tested, fuzzed: test/fuzz/fuzz_otg.c); the
 * server (lib/ctl/server/wr_server_otg*.c) only moves these documents
 * over HTTP(S) and runs the plan with the JSON-RPC methods it already has,
 * on itself and on the other servers a config names: one way to load,
 * start, stop and read traffic, whoever asks.
 *
 *     wr_otg_check()      a request body against the model: every member
 *                         known, of its type, enum, format (mac, ipv4,
 *                         ipv6, hex), range and length; required members
 *                         present; 64-bit integers as JSON numbers or
 *                         strings (snappi writes them as strings); the
 *                         model's defaults filled in, so what follows reads
 *                         one shape.  Driven by tables generated from the
 *                         model (wr_otg_schema.c, devtools/otg-schema-gen).
 *     wr_otg_plan_build() a checked Config into a plan: ports and where
 *                         they are, layer1, captures, devices (as hosts:
 *                         groups), flows (as streams, one or more each);
 *                         what the model has and wirerate does not is
 *                         refused by path (doc/otg.md's table), never
 *                         dropped.
 *     wr_otg_plan_yaml()  the stream file one server runs: the plan's
 *                         streams and hosts on that server's ports, in
 *                         wirerate's own schema (doc/stack.md, doc/hosts.md),
 *                         loaded by the stream-file loader like any other
 *                         (streams.load), so an OTG config and a stream file
 *                         make the same frames.
 *     wr_otg_plan_yaml_of() the same for one of several servers a plan
 *                         spans: every flow at its index, the ones sent
 *                         elsewhere as placeholders (wr_otg_multi.c), so
 *                         signatures name one flow on every server.
 *     wr_otg_update()     a Config.Update (PATCH /config: flows' rate and
 *                         size) against a plan: what changes, per stream.
 *     wr_otg_metrics()    a Metrics.Request answered from stats.get
 *                         documents (one per server of the plan).
 *     wr_otg_states()     a States.Request answered from hosts.list
 *                         results.
 *
 * Errors are OTG's Error: {code, kind, errors[]}, each string
 * "<json path>: <what was expected>, got <what>" ("flows[2].packet[1].ipv4.
 * src.increment.count: expected an integer >= 1, got 0"), every problem of
 * a request listed (up to WR_OTG_ERRORS_MAX), not just the first.
 *
 * Threads: reentrant; jansson values are not shared between threads.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "wr_config.h"

/** The model version implemented (GET /capabilities/version's api_spec_version). */
#define WR_OTG_MODEL_VERSION "1.61.0"
/** Errors listed in one reply at most (then "... and N more"). */
#define WR_OTG_ERRORS_MAX 64

/* ---- errors ---- */

enum wr_otg_kind { WR_OTG_VALIDATION, WR_OTG_INTERNAL };

struct wr_otg_err {
	int code;                    /**< HTTP status: 400 validation, 409 not
				      *   now (state), 404 unknown name, 500 */
	enum wr_otg_kind kind;
	json_t *errors;              /**< array of strings (owned) */
	unsigned int n_more;         /**< past WR_OTG_ERRORS_MAX, counted */
};

/** Empty, code 400, kind validation. */
void wr_otg_err_init(struct wr_otg_err *e);
void wr_otg_err_free(struct wr_otg_err *e);
/** Add "<path>: <message>".  @return -EINVAL (or -ENOMEM). */
int wr_otg_err_add(struct wr_otg_err *e, const char *path, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));
/** Whether any error was added. */
bool wr_otg_err_any(const struct wr_otg_err *e);
/** The Error document {code, kind, errors} (new reference). */
json_t *wr_otg_err_json(const struct wr_otg_err *e);

/* ---- the model's schemas ---- */

/**
 * Check @p doc (modified in place: defaults filled, 64-bit strings made
 * integers) against the model's schema @p schema ("Config",
 * "Config.Update", "Control.State", "Control.Action", "Metrics.Request",
 * "States.Request", "Capture.Request").  Member paths in errors start at
 * the document's root ("flows[0].rate.pps").
 * @return 0; -EINVAL with @p err filled (every problem); -ENOENT @p schema
 *         unknown.
 */
int wr_otg_check(json_t *doc, const char *schema, struct wr_otg_err *err);

/**
 * A new object of the model's schema @p schema (any schema name of the
 * model reachable from the requests above: "Flow", "Flow.Rate",
 * "Pattern.Flow.Ipv4.Src", ...) holding its defaults, as wr_otg_check()
 * fills them (the default choice made, its member too); required members
 * without a default are absent.
 * @return a new reference; NULL @p schema unknown (or no memory).
 */
json_t *wr_otg_default(const char *schema);

/**
 * The default of member @p member of schema @p schema: its scalar or array
 * default, or for an object member a new object of its schema with its
 * defaults (a header field absent from a flow:
 * wr_otg_member_default("Flow.Ipv4", "time_to_live") is
 * {"choice": "value", "value": 64}).
 * @return a new reference; NULL: no such member, or it has no default.
 */
json_t *wr_otg_member_default(const char *schema, const char *member);

/* ---- where ports are ---- */

/** One port of the server that builds the plan, for locations and layer1. */
struct wr_otg_port_env {
	char device[128];            /**< DPDK device name (net_memif0, 0000:3b:00.0): wr_port's size */
	char iface[32];              /**< Linux interface of an af_packet/AF_XDP port, "" none */
	uint8_t mac[6];
	uint32_t speed_mbps;         /**< the link's, 0 unknown */
	uint32_t mtu, mtu_max;       /**< now and the most the device takes */
	bool promisc_ok;             /**< the device can set promiscuous mode */
	bool tx_ok, rx_ok;           /**< has TX lcores / RX lcores */
};

struct wr_otg_env {
	unsigned int n_ports;
	struct wr_otg_port_env ports[WR_PORTS_MAX];
	bool remote_ok;              /**< locations HOST:PORT/INDEX accepted */
};

/** Where a config's port is: this server's port @c index, or port
 * @c index of the server at @c host:@c port (its JSON-RPC TCP API). */
struct wr_otg_loc {
	bool remote;
	char host[256];
	uint16_t port;
	unsigned int index;
};

/**
 * Read a port's location: a port index ("0"), a DPDK device name
 * ("net_memif0"), a Linux interface of a port ("veth-a"), or
 * "HOST:PORT/INDEX" (IPv6 hosts in brackets) when @p env->remote_ok.
 * @return 0; -EINVAL / -ENOENT with @p why (static text) filled.
 */
int wr_otg_location(const char *text, const struct wr_otg_env *env,
		    struct wr_otg_loc *out, const char **why);

/* ---- the plan ---- */

/** A flow of the config as wirerate runs it. */
struct wr_otg_flow {
	char name[128];              /**< the OTG name */
	char stream[64];             /**< its stream's name in the stream file */
	unsigned int tx_port;        /**< plan port index (p->ports[]) */
	uint64_t rx_ports;           /**< plan ports it is received on (mask) */
	bool metrics, loss, timestamps, latency;
	bool cut_through;            /**< latency.mode cut_through */
	uint32_t size_fixed;         /**< frame size with FCS; 0: varies */
	uint64_t packets;            /**< fixed_packets/burst total; 0: none */
};

struct wr_otg_l1 {
	bool set;                    /**< a layer1 names this port */
	uint32_t speed_mbps;         /**< 0: as it is */
	uint32_t mtu;                /**< 0: as it is */
	int promisc;                 /**< -1 unset, 0 off, 1 on */
};

struct wr_otg_cap {
	bool set;
	char filter[512];            /**< the filters as a wirerate filter expression ("" all) */
	uint32_t snaplen;            /**< 0: whole frames */
	bool pcapng;
	bool overwrite;
};

struct wr_otg_port {
	char name[128];
	struct wr_otg_loc loc;
	struct wr_otg_l1 l1;
	struct wr_otg_cap cap;
	/* flows: */
	uint32_t line_mbps;          /**< the port's line rate (layer1's speed,
				      *   else the device's), 0 unknown: gaps
				      *   and delays in bytes need it */
};

struct wr_otg_plan {
	json_t *config;              /**< the checked Config, as set (GET /config) */
	unsigned int n_ports;
	struct wr_otg_port *ports;
	unsigned int n_flows;
	struct wr_otg_flow *flows;
	json_t *streams;             /**< array: one wirerate stream mapping per
				      *   flow (same order), "port" a plan port index */
	json_t *hosts;               /**< array: hosts: groups of the devices,
				      *   "port" a plan port index */
	json_t *devices;             /**< array, one per device ethernet in
				      *   config order: {"name": the ethernet's,
				      *   "device": its device's, "port": plan
				      *   port index, "group": its hosts group
				      *   (hosts.NAME in a stream), "mac", "mtu",
				      *   "vlans": [{id, tpid, pcp}] outer first
				      *   (absent: untagged), "ipv4"/"ipv6":
				      *   {name, address, prefix, gateway,
				      *   gateway_mac (only when the config gives
				      *   it: then not resolved)} (absent: none)}:
				      *   for states and flows' tx_rx */
};

/**
 * Turn @p cfg (checked by wr_otg_check(cfg, "Config")) into @p p.
 * @return 0; -EINVAL with @p err (every problem, with its path): names
 *         unique and known, locations that exist, layer1 the device cannot
 *         do, a rate above the line, what wirerate does not have.
 */
int wr_otg_plan_build(const json_t *cfg, const struct wr_otg_env *env,
		      struct wr_otg_plan *p, struct wr_otg_err *err);

void wr_otg_plan_free(struct wr_otg_plan *p);

/**
 * The stream file (YAML text, malloc'd) for the server holding the plan's
 * ports where @p port_map[i] >= 0 (the engine port index of plan port i on
 * that server; -1: elsewhere): the streams of flows sent from those ports,
 * the hosts of devices on them.
 * @return 0; -ENODATA (*@p yaml NULL) when that server has neither (its
 *         ports only receive, or the config has no flow and no device
 *         there: nothing to load, what it ran before is the caller's to
 *         unload); -ENOMEM.
 */
int wr_otg_plan_yaml(const struct wr_otg_plan *p, const int *port_map,
		     char **yaml);

/**
 * The stream file server @p k of a plan loads, when the plan spans the
 * @p n servers whose ports @p maps give (maps[k][i]: plan port i's engine
 * port on server k, -1 elsewhere; as wr_otg_metrics()'s): every flow's
 * stream, in the plan's order, so a signature's stream index means one
 * flow on every server; the flows sent elsewhere as placeholders (the
 * flow's name and latency, on the port that receives it here), which
 * count what they receive and which traffic.start never names.  One
 * server alone: wr_otg_plan_yaml()'s file.
 * @return 0; -ENOMEM.
 */
int wr_otg_plan_yaml_of(const struct wr_otg_plan *p, const int *const *maps,
			unsigned int n, unsigned int k, char **yaml);

/**
 * Apply Config.Update @p upd (checked) to @p p: each named flow's new rate
 * and/or size.  On success @p p's config and streams hold the new values and
 * @p changed[i] is true for each flow i that changed.
 * @return 0; -EINVAL with @p err (an unknown flow, a size or rate refused);
 *         @p p unchanged then.
 */
int wr_otg_update(struct wr_otg_plan *p, const json_t *upd, bool *changed,
		  struct wr_otg_err *err);

/* ---- metrics and states ---- */

/**
 * A Metrics.Response for @p req (checked "Metrics.Request"): port and flow
 * metrics from @p stats[k], the stats.get document ({"histogram": true,
 * "counters": false}) of server k of the plan (k = 0 this one), whose ports
 * are mapped by @p port_maps[k] (as wr_otg_plan_yaml()'s).  @p transmit is
 * each flow's state ("started", "stopped", "paused").
 * @return the response (new reference); NULL with @p err (an unknown name,
 *         a choice not implemented).
 */
json_t *wr_otg_metrics(const struct wr_otg_plan *p, const json_t *req,
		       json_t *const *stats, const int *const *port_maps,
		       unsigned int n_servers, const char *const *transmit,
		       struct wr_otg_err *err);

/**
 * A States.Response for @p req (checked "States.Request": ipv4_neighbors,
 * ipv6_neighbors) from @p hosts: an array whose item i is the hosts.list
 * result (its "hosts" page holding the device's group) of plan port i, or
 * null.  A device's gateway is listed with the MAC its host learned (or the
 * config's gateway_mac), without link_layer_address while unresolved.
 * @return the response (new reference); NULL with @p err.
 */
json_t *wr_otg_states(const struct wr_otg_plan *p, const json_t *req,
		      const json_t *hosts, struct wr_otg_err *err);

#endif /* WR_OTG_H */

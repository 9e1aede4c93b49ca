/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_priv: what the OTG handlers' files share: the config in force, the servers it runs on, its flows' and captures' states. */
#ifndef WR_SERVER_OTG_PRIV_H
#define WR_SERVER_OTG_PRIV_H

#include "wr_server_priv.h"
#include "wr_server_otg.h"

/* Servers one config spans at most (this one and the remote ones). */
#define OTG_TARGETS_MAX 16
/* The session every OTG client acts as: one OTG controller per server, as
 * ixia-c's; the transport decided who may (loopback, token, certificate). */
#define OTG_SESSION "otg"
/* A remote server: to connect and log in, a call's answer. */
#define OTG_REMOTE_OPEN_MS 3000
#define OTG_REMOTE_CALL_MS 10000
/* Several servers start at one instant this far ahead of now: a remote
 * call's round trip on a LAN and the TX lcores' launch fit. */
#define OTG_START_AHEAD_S 0.5

/* A server the config runs on. */
struct otg_target {
	struct otg_remote *r;        /* NULL: this server */
	char name[280];              /* "this server", "HOST:PORT" */
	int map[WR_PORTS_MAX];       /* plan port -> its port there, -1 */
	bool has_ports;
};

enum otg_tx { OTG_TX_STOPPED, OTG_TX_STARTED, OTG_TX_PAUSED };

struct srv_otg {
	struct wr_otg_plan plan;
	bool have_plan;
	unsigned int n_targets;
	struct otg_target t[OTG_TARGETS_MAX];
	enum otg_tx *tx;             /* per flow: what the client asked */
	int cap_id[WR_PORTS_MAX];    /* per plan port: its capture there, -1 */
	bool cap_on[WR_PORTS_MAX];
	/* Counts of runs a server restarted on its own (a flow started while
	 * others ran, a size PATCHed): added to what its run counts now, so
	 * a flow's metrics go on from where they were.  A flow's start
	 * clears its own (the model's "clears that flow's metrics"). */
	struct otg_kept { uint64_t ftx, frx, btx, brx; } *fkept,
		pkept[WR_PORTS_MAX];
};

/* wr_server_otg_run.c */
/** Call @p method on target @p t (this server as @p c's session, or a
 * remote one).  @return 0 with *@p res; a negative errno with @p e filled
 * (the target's name, the method, its error). */
int wr_srv_otg_tcall(struct server *s, struct conn *c,
		     const struct otg_target *t, const char *method,
		     json_t *params, json_t **res, struct wr_otg_err *e);
/** The target holding plan port @p port (its index in o->t), or -1. */
int wr_srv_otg_target_of(const struct srv_otg *o, unsigned int port);
/** traffic.stop everywhere, waited for (the drain); flows all stopped. */
int wr_srv_otg_stop_all(struct server *s, struct conn *c, struct srv_otg *o,
			struct wr_otg_err *e);
/** The answer's JSON (stolen), status 200. */
void wr_srv_otg_ok(struct otg_resp *out, json_t *j);
/** @p e as the answer (freed). */
void wr_srv_otg_fail(struct otg_resp *out, struct wr_otg_err *e);
/** A one-problem answer. */
void wr_srv_otg_fail1(struct otg_resp *out, int code, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** The body as JSON checked against @p schema; NULL: answered. */
json_t *wr_srv_otg_body(const struct otg_req *rq, const char *schema,
			struct otg_resp *out);
/** The stream file target @p k loads (multi: every flow's stream, those
 * sent elsewhere as placeholders, wr_otg_plan_yaml_of()). */
int wr_srv_otg_yaml(const struct srv_otg *o, unsigned int k, char **yaml);
/** This server's ports of the config taken again by the OTG session where
 * it lost them (ports.acquire).  @return 0; a negative errno with @p e. */
int wr_srv_otg_own(struct server *s, struct conn *c, struct srv_otg *o,
		   struct wr_otg_err *e);
/** The plan port named @p name, or -1. */
int wr_srv_otg_port(const struct srv_otg *o, const char *name);

/* wr_server_otg_ctl.c */
void wr_srv_otg_state(struct server *s, struct conn *c, struct srv_otg *o,
		      const struct otg_req *rq, struct otg_resp *out);
void wr_srv_otg_action(struct server *s, struct conn *c, struct srv_otg *o,
		       const struct otg_req *rq, struct otg_resp *out);
void wr_srv_otg_metrics(struct server *s, struct conn *c, struct srv_otg *o,
			const struct otg_req *rq, struct otg_resp *out);
void wr_srv_otg_states(struct server *s, struct conn *c, struct srv_otg *o,
		       const struct otg_req *rq, struct otg_resp *out);
void wr_srv_otg_patch(struct server *s, struct conn *c, struct srv_otg *o,
		      const struct otg_req *rq, struct otg_resp *out);

/* wr_server_otg_cap.c */
void wr_srv_otg_capture(struct server *s, struct conn *c, struct srv_otg *o,
			const struct otg_req *rq, struct otg_resp *out);

#endif /* WR_SERVER_OTG_PRIV_H */

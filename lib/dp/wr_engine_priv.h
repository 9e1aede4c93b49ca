/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_engine_priv: the engine's state, read by lib/dp's engine files and by the control plane above (lib/ctl: the server, telemetry); app/ sees struct wr_engine as opaque. */
#ifndef WR_ENGINE_PRIV_H
#define WR_ENGINE_PRIV_H

#include <signal.h>
#include <stdbool.h>

#include <rte_log.h>

#include "wr_bpf.h"
#include "wr_capture_port.h"
#include "wr_eal.h"
#include "wr_engine.h"
#include "wr_tcp_lcore.h"

struct wr_host_svc;

struct wr_engine {
	const struct wr_config *cfg;
	char cfg_path[WR_ERROR_FILE_MAX];
	struct wr_eal eal;          /* its arguments, start-up lines, state */
	/* Wall clock and TSC read together once: every capture's time base. */
	uint64_t wall0_ns, tsc0;
	/* Ports and their TX lcores, in queue order. */
	struct wr_port ports[WR_PORTS_MAX];
	unsigned int n_ports;
	/* Ports with hardware RX timestamps: their clock's map onto the TSC,
	 * refitted by wr_engine_collect() from the last pair read. */
	struct wr_clock_pub clock[WR_PORTS_MAX];
	struct wr_clock_pair clock_last[WR_PORTS_MAX];
	unsigned int port_lcores[WR_PORTS_MAX][WR_PORT_LCORES_MAX];
	unsigned int port_n_lcores[WR_PORTS_MAX];
	/* Worker lcore contexts, by lcore id, and the ids in use. */
	struct wr_lcore_ctx *lctx[RTE_MAX_LCORE];
	unsigned int lcores[RTE_MAX_LCORE];
	unsigned int n_lcores;
	bool launched;
	/* Streams may ask a port for more than its line rate (a warning);
	 * false: wr_engine_load() refuses it (-EINVAL). */
	bool oversubscribe;
	/* Ports that went away (link lost, device removed), by port index:
	 * set once by port_leave() (main lcore or EAL's interrupt thread),
	 * read by the lcores at every turn (struct wr_lcore_ctx). */
	uint32_t port_gone[WR_PORTS_MAX];
	uint64_t epoch;
	rte_spinlock_t guard;       /* launched/lcore set vs port_leave() */
	struct wr_port_loss {
		uint64_t tsc;           /* when it was seen to go */
		uint64_t tx_pkts;       /* frames wirerate had sent on it */
		bool has_nic;
		struct rte_eth_stats nic; /* the port's last counters */
		bool left;              /* every lcore acknowledged in time */
	} loss[WR_PORTS_MAX];
	unsigned int n_lost;
	/* One lcore launched outside the engine (rtt): its ack and done. */
	const uint64_t *ext_ack;
	const uint32_t *ext_done;
	uint64_t leave_timeouts;    /* handshakes that ran out of time */
	struct rte_eth_stats nic_last[WR_PORTS_MAX]; /* every collect */
	bool nic_last_ok[WR_PORTS_MAX];
	uint32_t stop;              /* stop sending */
	uint32_t stop_rx;           /* stop receiving */
	uint32_t aborted;           /* a signal: no drain wait */
	/* The loaded stream file (not owned) and what was built from it. */
	const struct wr_stream_file *f;
	struct wr_frame_tmpl *tmpl[WR_STREAMS_MAX];
	bool tmpl_lent[WR_STREAMS_MAX]; /* tmpl[s] is a wr_prepared's */
	const struct wr_prepared *prep; /* during wr_engine_load() */
	struct wr_tx_stream *ts[WR_STREAMS_MAX][WR_PORT_LCORES_MAX];
	unsigned int n_ts[WR_STREAMS_MAX];
	uint64_t target_millipps[WR_STREAMS_MAX]; /* WR_RATE_UNPACED: max */
	uint64_t ctl_pub_tsc[WR_STREAMS_MAX]; /* last wr_engine_stream_ctl() */
	/* RX queues by port: queue q is polled by port_rx_lcores[i][q]. */
	struct wr_rxq *rxq[WR_PORTS_MAX][WR_PORT_LCORES_MAX];
	unsigned int n_rxq[WR_PORTS_MAX];
	unsigned int port_rx_lcores[WR_PORTS_MAX][WR_PORT_LCORES_MAX];
	unsigned int port_n_rx[WR_PORTS_MAX]; /* RX queues configured */
	bool rx_want[WR_PORTS_MAX];  /* polled whatever the streams (captures) */
	uint64_t rx_end_tsc;         /* when the RX lcores were told to stop */
	/* rx_classes (profile's, then the stream file's) as eBPF. */
	struct wr_bpf *class_bpf;
	/** All of class_bpf as one program (wr_filter_merge()); bpf NULL:
	 * the RX lcores run them one by one. */
	struct wr_bpf class_all;
	const char *class_names[WR_RX_CLASSES_MAX];
	unsigned int n_classes;
	/* Ports the stream file's TCP classes stand on (wr_tcp_spec.h) and
	 * their lanes (wr_tcp_lcore.h: lane q is RX and TX queue q, on the
	 * lcore polling RX queue q), made by wr_engine_load(); their
	 * engines are created by the session (wr_session_tcp.c). */
	bool tcp_port[WR_PORTS_MAX];
	struct wr_tcp_lane *tcp_lane[WR_PORTS_MAX][WR_PORT_LCORES_MAX];
	unsigned int n_tcp_lanes[WR_PORTS_MAX];
	/* The session's hosts' service (wr_host_svc.h), NULL: none; set and
	 * cleared by the session, read by telemetry (the responders'
	 * counters). */
	struct wr_host_svc *hosts;
	/* Captures running on this engine (wr_engine_capture_start()). */
	struct wr_cap *caps[WR_CAPTURES_MAX];
	unsigned int cap_port[WR_CAPTURES_MAX];
	bool any_rx;
	struct wr_latency *scratch; /* histogram snapshots */
	/* Each latency stream's echo histogram as of the last
	 * wr_engine_collect(), read in the same pass as its row's counters:
	 * a stats.clear baseline and a later stats.get then pair a row with
	 * the histogram of the same instant (wr_engine_stream_hist()). */
	struct wr_latency *view_hist[WR_STREAMS_MAX];
	/* Report rows, refreshed by wr_engine_collect(). */
	struct wr_report_row port_rows[WR_PORTS_MAX];
	struct wr_report_row *stream_rows;
	struct wr_report_view view;
};

/* The engine's log lines (wr_engine.c registers the type). */
extern int wr_engine_logtype;
#define WR_LOG(level, ...) \
	rte_log(RTE_LOG_##level, wr_engine_logtype, "wirerate: " __VA_ARGS__)

/*
 * Shared between the engine's files; each is documented where it is
 * defined.  The files call one another one way only, top to bottom:
 * wr_engine.c (open, close) > wr_engine_run.c (launch, stop, counters) >
 * wr_engine_load.c (streams onto ports) > wr_engine_ports.c (ports,
 * lcores, links, clocks, captures) > wr_port.c > wr_eal.c; a lower file
 * never calls a higher one.
 */
/* wr_engine.c */
extern volatile sig_atomic_t wr_eng_open_cancelled;
/* wr_engine_ports.c */
int wr_eng_ports_resolve(struct wr_engine *e, struct wr_error *err);
int wr_eng_lcores_assign(struct wr_engine *e, struct wr_error *err);
int wr_eng_rx_lcores_assign(struct wr_engine *e, struct wr_error *err);
int wr_eng_ports_open(struct wr_engine *e, struct wr_error *err);
void wr_eng_clocks_refit(struct wr_engine *e);
void wr_eng_guard_start(struct wr_engine *e);
void wr_eng_guard_stop(struct wr_engine *e);
void wr_eng_rx_hints(const struct wr_engine *e, struct wr_pkt_hints *h);
/* wr_engine_load.c */
void wr_eng_set_launched(struct wr_engine *e, bool on);
void wr_eng_wait_lcores(struct wr_engine *e);

#endif /* WR_ENGINE_PRIV_H */

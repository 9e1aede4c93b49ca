/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_engine: EAL, ports, lcores and streams put together for runs, trials and sweeps. */
#ifndef WR_ENGINE_H
#define WR_ENGINE_H

/**
 * @file
 * The engine is what every traffic-sending subcommand shares:
 *
 *     wr_engine_open()     EAL, the profile's ports (or every probed port),
 *                          TX lcores per port, ports configured, started,
 *                          links up;
 *     wr_engine_load()     a stream file: templates, per-(lcore, stream)
 *                          contexts with their prefilled mempools, RX queues
 *                          when any stream carries a signature (or the
 *                          profile asks for RX), rates from link speeds;
 *     wr_engine_start()    the worker lcores send (and receive);
 *     wr_engine_collect()  counters summed into report rows (any time);
 *     wr_engine_stop()     stop sending, wait the drain time for echoes,
 *                          stop receiving, read the NICs' counters;
 *     wr_engine_unload()   free the streams' contexts (ports stay up, so a
 *                          sweep or an RFC 2544 search loads again);
 *     wr_engine_close()    ports closed, rte_eal_cleanup().
 *
 * Lcore model: the main lcore (the caller's thread) never sends; it sleeps
 * between reports.  Port i is sent on by its TX lcores, one TX queue each;
 * lcore j of k sends frames j, j+k, ... of every stream of the port (lane j).
 *
 * Errors: functions return 0 or a negative errno and fill struct wr_error
 * with one line for the user; -EINVAL, -ENODEV and -ENOTSUP mean bad input
 * (a port or lcore that does not exist), anything else a run-time failure.
 * Warnings (a lcore on another NUMA node than its port, a port asked for
 * more than its link carries) go to the "wirerate" log type.
 *
 * Threads: every function on the main lcore only, except
 * wr_engine_request_stop(), which is async-signal-safe.
 *
 * Ports that go away.  A port whose link goes down during a run (a memif
 * peer that exits or is killed, a cable pulled, a device removed) is left:
 * its gone flag is set, and whoever set it waits (bounded) until every
 * running lcore has passed a quiescent point, after which no lcore calls
 * that port's burst functions again (an RCU grace period, as in DPDK's
 * lib/rcu, kept to one epoch counter).  Its streams end; the report says
 * when, how many frames had been sent, and keeps the port's last counters
 * read before it went.  Three paths lead there: the ethdev LSC and RMV
 * events (EAL's interrupt thread), wr_engine_links_check() (the main
 * lcore), and, for PMDs that tear their shared memory down in the
 * interrupt thread without raising any event (memif in DPDK 22.11 unmaps
 * the peer's regions in memif_disconnect()), the unmap itself: see
 * munmap() in wr_engine.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_spinlock.h>

#include "wr_capture_port.h"
#include "wr_clock.h"
#include "wr_config.h"
#include "wr_error.h"
#include "wr_frame.h"
#include "wr_port.h"
#include "wr_report.h"
#include "wr_rx.h"
#include "wr_stream.h"
#include "wr_tx.h"

/* Opaque to app/ (its definition: wr_engine_priv.h, for lib/dp and
 * lib/ctl); the app reads what it needs through the accessors below. */
struct wr_engine;

/** The templates of a stream file's checks, kept for its load
 * (wr_engine_prepare()); NULL where none is kept (a replay stream). */
struct wr_prepared {
	struct wr_frame_tmpl *tmpl[WR_STREAMS_MAX];
};

/** @return how many ports engine @p e drives. */
unsigned int wr_engine_n_ports(const struct wr_engine *e);

/** @return port @p i (< wr_engine_n_ports()) of @p e, the ports being
 * consecutive (wr_engine_port(e, 0) is the array). */
struct wr_port *wr_engine_port(struct wr_engine *e, unsigned int i);

/**
 * The MACs of @p f's streams whose eth says `port` (doc/trex.md): the
 * profile's src_mac (else the port's own MAC) and dst_mac (else
 * wirerate's default destination, left as loaded).  Before wr_engine_load,
 * on the main lcore.
 */
void wr_engine_port_macs(struct wr_engine *e, struct wr_stream_file *f);

/** @return port @p i's RX queue @p q, NULL when there is none (the port
 * is not polled, or has fewer queues). */
const struct wr_rxq *wr_engine_rxq(const struct wr_engine *e, unsigned int i,
				   unsigned int q);

/** @return the TSC now (rte_rdtsc()). */
uint64_t wr_engine_tsc_now(void);

/** @return the calibrated TSC frequency now, in Hz (wr_clock_eal.h). */
uint64_t wr_engine_tsc_hz(const struct wr_engine *e);

/** @return true once sending was asked to stop (wr_engine_request_stop(),
 * every stream done, or every port gone). */
bool wr_engine_stopping(const struct wr_engine *e);

/** @return true when a stop skipped the drain (a second signal). */
bool wr_engine_aborted(const struct wr_engine *e);

/** @return true when some port receives (latency streams, or RX asked). */
bool wr_engine_any_rx(const struct wr_engine *e);

/** @return the last report view wr_engine_collect() filled. */
const struct wr_report_view *wr_engine_view(const struct wr_engine *e);

/** @return the stream file wr_engine_load() was given, NULL before. */
const struct wr_stream_file *wr_engine_file(const struct wr_engine *e);

/** @return the profile wr_engine_open() was given. */
const struct wr_config *wr_engine_config(const struct wr_engine *e);

/** Let streams ask more than their port's line rate (run
 * --oversubscribe); before wr_engine_load(). */
void wr_engine_set_oversubscribe(struct wr_engine *e, bool on);

/**
 * Start EAL with "wirerate", the profile's `eal:` arguments, then
 * @p n_extra user arguments; set up the ports.  @p cfg must outlive the
 * engine.  On failure everything done so far is undone.
 * @param out set to the engine (free it with wr_engine_close()).
 * @param cfg_path the profile's file name, for error lines (may be NULL).
 * @param extra @p n_extra EAL arguments given after "--".
 * @return 0; -EINVAL (EAL refused its arguments, a profile port or lcore
 *         that does not exist or clashes), -ENODEV (no port to use),
 *         -EIO (EAL failed otherwise), -ENOMEM, -ECANCELED (a signal while
 *         links came up), -ETIMEDOUT (a link stayed down), or what
 *         wr_port_setup()/wr_port_start() returned; @p err filled.
 */
int wr_engine_open(struct wr_engine **out, const struct wr_config *cfg,
		   const char *cfg_path, char **extra, int n_extra,
		   struct wr_error *err);

/**
 * Build everything the streams of @p f need (@p f must stay valid and
 * unchanged until wr_engine_unload()).  Counts are the streams' own.
 * @p p: templates wr_engine_prepare() built for @p f and kept, used in
 * place of new ones (lent: they must outlive the load); NULL, or a NULL
 * entry: built here.
 * @p rx forces RX polling on every port even without latency streams.
 * @return 0; -EINVAL (a stream the ports cannot send: a rate, a size, a
 *         capture or a port the engine lacks), -ENODEV (a port gone),
 *         -ENOMEM (mempools, contexts), or what building a template
 *         returned; @p err filled.  On failure wr_engine_unload() undoes
 *         what was built.
 */
int wr_engine_load(struct wr_engine *e, const struct wr_stream_file *f,
		   const struct wr_prepared *p, bool rx, struct wr_error *err);

/** @return the DPDK version string (rte_version()), for reports. */
const char *wr_engine_dpdk_version(void);

/** Drop EAL's start-up log lines (--quiet); its errors still make the one line. */
void wr_engine_quiet(bool quiet);

/**
 * A signal came: a wr_engine_open() waiting for links returns -ECANCELED
 * (async-signal-safe; for the rest of the process).
 */
void wr_engine_cancel(void);

/**
 * Launch the worker lcores: wr_engine_start_at() at once.
 * @return 0 or rte_eal_remote_launch()'s negative errno (-EBUSY), @p err
 *         filled; no lcore is left running then.
 */
int wr_engine_start(struct wr_engine *e, struct wr_error *err);

/** True once every lcore stopped sending (all counts done, or stopped). */
bool wr_engine_tx_finished(const struct wr_engine *e);

/** Ask the lcores to stop sending (async-signal-safe). @p abort skips the drain. */
void wr_engine_request_stop(struct wr_engine *e, bool abort);

/**
 * Stop sending, wait until every lcore stopped, keep receiving for
 * @p drain_ns (cut short by wr_engine_request_stop(e, true)), stop, wait for
 * the lcores, let the NICs' rings empty and read their counters into the
 * port rows.
 */
void wr_engine_stop(struct wr_engine *e, uint64_t drain_ns);

/** A device's own counters (rte_eth_stats, as wr_port_stats() gives them)
 * into a report row's nic_* fields, has_nic set: the one copy every reader
 * of them (the run's end, stats.clear, telemetry) makes. */
void wr_engine_nic_row(struct wr_report_row *row, const struct rte_eth_stats *st);

/** After wr_engine_stop(): wr_port_tx_files_check() of every port.
 * @return 0 or -EIO with @p err (the first file short). */
int wr_engine_tx_files_check(struct wr_engine *e, struct wr_error *err);

/**
 * Sum the lcores' counters into e->view (ports and streams), with
 * durations measured from the first lcore's start.  While running,
 * @p final is false: durations run to now.
 * @return &e->view.
 */
struct wr_report_view *wr_engine_collect(struct wr_engine *e, bool final);

/**
 * Poll every port's link (main lcore, between reports); a port found down
 * is left as if its device had said so (see wr_engine_open()).
 * @return how many ports went away since wr_engine_open().
 */
unsigned int wr_engine_links_check(struct wr_engine *e);

/**
 * An lcore the caller launched on the engine's ports itself (rtt) takes
 * part in the port handshake: it copies wr_engine's epoch into *@p ack at
 * its quiescent points and sets *@p done when it returns (see wr_engine.h
 * on ports that go away).  NULLs end it.  Main lcore.
 */
void wr_engine_watch(struct wr_engine *e, const uint64_t *ack,
		     const uint32_t *done);

/** Free what wr_engine_load() built.  Safe when nothing is loaded. */
void wr_engine_unload(struct wr_engine *e);

/** Stop lcores if running, unload, close ports, wr_eal_cleanup().
 * NULL-safe. */
void wr_engine_close(struct wr_engine *e);

/*
 * Live control (a server's methods).  Main lcore only, while the lcores run
 * or before they are launched; the lcores pick the values up at their next
 * turn of the stream (wr_tx_stream_ctl()), no lock on their side.
 */

/**
 * The packet rate stream @p s of the loaded file would send at @p spec, on
 * its port's link (percentages need the link speed).
 * @return 0 with *millipps (WR_RATE_UNPACED for "max"); -EINVAL (out of
 *         range, a percentage without a link speed), -ENOENT (no stream s).
 */
int wr_engine_stream_rate(const struct wr_engine *e, uint32_t s,
			  const struct wr_rate_spec *spec, uint64_t *millipps);

/**
 * Publish a state (run, pause, stop) and a total rate to every lane of
 * stream @p s; the rate is shared out as at load (wr_rate_split()).
 * @param millipps  the stream's new total rate, WR_RATE_UNPACED for the
 *                  maximum, or 0 to keep the current one
 * @return 0; -ENOENT (no stream s), -ENOTSUP (a ramp, trains or a
 *         sequenced port: their schedule owns the rate), -ERANGE/-EINVAL (a
 *         rate the pacer cannot keep).  Nothing is published on error.
 */
int wr_engine_stream_ctl(struct wr_engine *e, uint32_t s,
			 enum wr_tx_ctl_state state, uint64_t millipps);

/**
 * How long the lcores took to pick up the last wr_engine_stream_ctl() of
 * stream @p s: the slowest lane, in ns.  @return -1 while a lane has not
 * applied it yet (or no change was published).
 */
int64_t wr_engine_stream_ctl_delay_ns(const struct wr_engine *e, uint32_t s);

/** Stream @p s's current total rate (WR_RATE_UNPACED: max, or a ramp's). */
uint64_t wr_engine_stream_millipps(const struct wr_engine *e, uint32_t s);

/** True once every lane of stream @p s ended its (last) activation. */
bool wr_engine_stream_done(const struct wr_engine *e, uint32_t s);

/**
 * Stream @p s's echo latency histogram, merged over every polled port, as
 * of the last wr_engine_collect() (it was read together with the row's
 * counters there, so the two describe one instant), into @p out.
 * @return false when the stream has none.
 */
bool wr_engine_stream_hist(const struct wr_engine *e, uint32_t s,
			   struct wr_latency *out);

/** wr_engine_stream_seq()'s port: all of them. */
#define WR_ENGINE_ALL_PORTS UINT32_MAX

/**
 * Stream @p s's echoes over the RX queues of @p port (or every polled
 * port: WR_ENGINE_ALL_PORTS) (wr_rx.h: the queues' trackers summed):
 * received, distinct, reordered, duplicated in
 * @p out (lost is left 0: the caller has the sent count); the latency
 * histograms merged into @p hist and the first port's queues' jitter
 * into @p jit (either may be NULL).  Any thread (counters are read with
 * atomic loads).
 */
void wr_engine_stream_seq(const struct wr_engine *e, uint32_t s,
			  unsigned int port, struct wr_seq_result *out,
			  struct wr_latency *hist,
			  struct wr_latency_jitter *jit);

/** Port @p i's frames received, without a signature, with an unknown
 * one, summed over its RX queues (any thread). */
void wr_engine_port_rx(const struct wr_engine *e, unsigned int i,
		       uint64_t *rx_pkts, uint64_t *rx_foreign,
		       uint64_t *rx_bad_sig);

/** TSC at which the first lcore started sending (its schedule's origin:
 * a start_at's instant itself, however late the lcore got there), 0 before. */
uint64_t wr_engine_first_tx_tsc(const struct wr_engine *e);

/** TSC right after the device first took a frame of this start (the first
 * rte_eth_tx_burst() that returned non-zero, on any lcore), 0 before. */
uint64_t wr_engine_first_burst_tsc(const struct wr_engine *e);

/** With several lcores, they start at least this long after launch. */
#define WR_ENGINE_START_MS 2

/**
 * Launch the worker lcores now; they spin until the TSC reaches
 * @p start_tsc (0: at once) and only then send, so the instant does not
 * depend on how long launching takes.  Several lcores always start at
 * one instant, at least WR_ENGINE_START_MS from now, and anchor their
 * schedules on it.
 * @return 0 or rte_eal_remote_launch()'s negative errno (-EBUSY), @p err
 *         filled; no lcore is left running then.
 */
int wr_engine_start_at(struct wr_engine *e, uint64_t start_tsc,
		       struct wr_error *err);

/**
 * Build stream @p s's frame template (no EAL needed): wr_frame_tmpl_create()
 * with an error that names the stream file and, when the builder gave none,
 * the stream's line and column.  @return 0 or its negative errno.
 */
int wr_engine_tmpl_create(const struct wr_stream_file *f, uint32_t s,
			  struct wr_frame_tmpl **t, struct wr_error *err);

/**
 * Check, before anything is sent, that every stream of @p f can be: its
 * port exists, its template builds (wr_engine_tmpl_create()) and its first
 * frames carry a unicast source MAC (IEEE 802.3 clause 3.2.3).  The one
 * check `run`, `sweep`, `rfc2544`, `rtt`, `check` and the server's
 * streams.load share.  No EAL needed.
 * @param f        the loaded stream file
 * @param n_ports  ports the streams may use; 0: not known yet (no check)
 * @param ports_of what has those ports, for the error line ("the profile
 *                 config/x.yaml", "this server")
 * @param max_frame set, when not NULL, to the largest frame any stream
 *                 sends (bytes, FCS included), for wr_config.max_frame
 * @param err      filled on failure with the file, line, column and key
 * @return 0, -EINVAL (a port that does not exist, a group source MAC, a
 *         stream the frame builder refuses), -ENOMEM.
 */
int wr_engine_check_streams(const struct wr_stream_file *f,
			    unsigned int n_ports, const char *ports_of,
			    uint32_t *max_frame, struct wr_error *err);

/**
 * wr_engine_check_streams(), keeping in @p p the templates it built, for
 * wr_engine_load(): a stream's template is built once.  On failure @p p
 * holds none.  Free them with wr_engine_prepared_free() once no engine
 * holds them (after wr_engine_unload() or wr_engine_close()).
 */
int wr_engine_prepare(const struct wr_stream_file *f, unsigned int n_ports,
		      const char *ports_of, uint32_t *max_frame,
		      struct wr_prepared *p, struct wr_error *err);

/** Free the templates of @p p (NULL-safe entries). */
void wr_engine_prepared_free(struct wr_prepared *p);

/**
 * The results' metadata of a run of @p f (the JSON's header): versions,
 * file, digest, seed, lcores, EAL arguments.  Strings point into @p f,
 * @p cfg_path and @p e; @p started_at is copied.
 */
void wr_engine_meta(const struct wr_engine *e, const struct wr_stream_file *f,
		    const char *cfg_path, const char *started_at,
		    const char *reason, struct wr_report_meta *m);

/**
 * Poll port @p port's RX at the next wr_engine_load() even without
 * latency streams (a capture of what it receives), or no longer (@p on
 * false).  Main lcore.
 */
void wr_engine_set_rx(struct wr_engine *e, unsigned int port, bool on);

/** A capture to start (wr_engine_capture_start()). */
struct wr_engine_cap {
	unsigned int port;          /**< index in the engine's ports */
	enum wr_cap_dir dir;
	const char *file;
	const struct wr_filter *filter; /**< NULL: every frame */
	struct wr_cap_limits lim;
};

/**
 * Start capturing (wr_capture_port.h) on a loaded engine, before or while the
 * lcores run.  @return the capture's id (>= 0); -EINVAL (a port that does
 * not exist or is not polled for RX, bad limits, a filter DPDK refuses),
 * -ENOTSUP (TX of a port with MBUF_FAST_FREE), -EBUSY (WR_CAPTURES_MAX
 * running), -ENOMEM, or the file's negative errno; @p err filled.
 */
int wr_engine_capture_start(struct wr_engine *e, const struct wr_engine_cap *r,
			    struct wr_error *err);

/** Status of capture @p id.  @return 0 or -ENOENT. */
int wr_engine_capture_status(const struct wr_engine *e, int id,
			     struct wr_cap_status *st);

/**
 * Stop capture @p id: withdraw it from the lcores, wait for them, write
 * the rest and close its file.  @p st (may be NULL) gets its final status.
 * @return 0, -ENOENT, or the error that ended the capture.
 */
int wr_engine_capture_stop(struct wr_engine *e, int id,
			   struct wr_cap_status *st);

/** Stop every capture (wr_engine_unload() does). */
void wr_engine_capture_stop_all(struct wr_engine *e);

/** TSC ticks to nanoseconds. */
uint64_t wr_engine_tsc_to_ns(const struct wr_engine *e, uint64_t tsc);

/** Sleep @p ns (a signal cuts it short). */
void wr_engine_sleep_ns(uint64_t ns);

#endif /* WR_ENGINE_H */

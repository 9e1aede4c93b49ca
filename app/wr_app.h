/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_app: what the wirerate command's subcommands share. */
#ifndef WR_APP_H
#define WR_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "wr_bench_result.h"
#include "wr_bench_opts.h"
#include "wr_config.h"
#include "wr_error.h"
#include "wr_filter.h"
#include "wr_jsonl.h"
#include "wr_capture.h"
#include "wr_peer.h"
#include "wr_session.h"
#include "wr_tcp_read.h"
#include "wr_stream.h"

/* Elements of an array (app/ uses no DPDK macro). */
#define WR_DIM(a) (sizeof(a) / sizeof((a)[0]))

/* Exit codes: 0 success, 1 a run-time failure (EAL, memory, link), 2 bad
 * input (options, stream file, profile, a port that does not exist), 3 a
 * benchmark finished but the generator, not the device, limited at least
 * one result (the outputs say "at least" instead of a figure). */
#define WR_EXIT_OK 0
#define WR_EXIT_FAIL 1
#define WR_EXIT_USAGE 2
#define WR_EXIT_GEN_LIMIT 3
/* Internal, never an exit status: a signal stopped the command before it
 * sent anything (it said so); main() exits 0. */
#define WR_EXIT_STOPPED 100

/* Echoes still in flight after the last frame: 200 ms covers a kernel or a
 * switch path (tens of microseconds) with a wide margin and a DUT's buffers
 * (a 16 MB buffer drains in 13 ms at 10 Gbps). */
#define WR_DRAIN_DEFAULT_NS (200 * 1000 * 1000ull)

/* The converter's options beside a TRex profile (app/trex.c). */
#define WR_TREX_ARGS_MAX 64
struct wr_trex_opts {
	const char *argv[WR_TREX_ARGS_MAX];
	unsigned int n;
	const char *first;  /**< the first one's name, for an error */
};

struct wr_opts {
	const char *cmd;
	const char *stream_file;
	const char *config_file;    /**< NULL: the default profile */
	const char *json_file;
	const char *pcap_file;
	const char *stream_name;    /**< dump: one stream */
	uint64_t duration_ns;       /**< 0: none */
	uint64_t drain_ns;          /**< how long echoes are waited for after TX */
	bool drain_set;
	uint64_t count;             /**< 0: as the file says */
	bool count_set;
	uint64_t seed;
	bool seed_set;
	bool quiet;                 /**< no live lines */
	uint32_t burst;             /**< --burst: every stream's TX burst */
	bool burst_set;
	uint32_t repeats;           /**< sweep, run --repeat: 0 = once */
	/* sweep, rfc2544 and rtt: their files, and their options as the
	 * benchmark library takes them (wr_bench_opts.h; the ones run shares
	 * above are copied in when a benchmark starts) */
	const char *csv_file;
	const char *report_file;    /**< --report: HTML (tools/wr-report) */
	struct wr_bench_opts bench;
	int n_eal;                  /**< arguments after "--" */
	char **eal;
	bool arp;                   /**< run --arp: every port answers ARP/ICMP */
	uint64_t hosts_wait_ms;     /**< run --hosts-wait MS */
	bool hosts_wait_set;
	uint64_t host_lcore;        /**< run --host-lcore N */
	bool host_lcore_set;
	const char *stats_jsonl;    /**< run --stats-jsonl FILE */
	bool link_down_continue;    /**< --on-link-down continue */
	bool oversubscribe;         /**< run --oversubscribe: rates above the line rate */
	bool hosts_table;           /**< run --hosts: every host at the end */
	const char *peers[WR_PEERS_MAX]; /**< run --peer SPEC (wr_peer.h) */
	unsigned int n_peers;
	/* run --capture PORT[:rx|tx|both]=FILE, each with the --capture-*
	 * options that follow it (wr_capture_port.h) */
	struct wr_app_capture {
		struct wr_capspec spec;
		struct wr_filter filter; /**< compiled when given */
		bool has_filter;
		struct wr_cap_limits lim;
	} captures[WR_CAPTURES_MAX];
	unsigned int n_captures;
	const char *rtt_streams;    /**< rtt --stream A,B: side by side */
	const struct wr_trex_opts *trex; /**< -t, -m, ... with a TRex profile */
};

/** Parse one sweep/rfc2544/rtt option (bench.c); prints the error. @return 0 or -EINVAL. */
int wr_app_bench_opt(struct wr_opts *o, int opt, const char *arg);

/**
 * SIGINT, SIGTERM and SIGHUP call @p handler (no SA_RESTART: a sleep or a wait is cut
 * short).  Commands install it before anything starts, so that a signal at
 * any point ends them cleanly; a signal that came earlier (recorded since
 * wr_app_signals_early()) is handed to @p handler now.
 */
void wr_app_signals(void (*handler)(int));

/**
 * First thing in main(): SIGINT, SIGTERM and SIGHUP, blocked since before the
 * libraries' constructors ran (main.c), are recorded from now on until a
 * command takes them (wr_app_signals()) or leaves them to their default
 * (wr_app_signals_default()), and unblocked.
 */
void wr_app_signals_early(void);

/** A command that handles no signal: the default action again, for a
 * signal already recorded too (it ends the process as it would have). */
void wr_app_signals_default(void);

/** Print @p err as the one error line, prefixed "wirerate: ". */
void wr_app_print_error(const struct wr_error *err);

int wr_cmd_run(const struct wr_opts *o);

/*
 * TRex profiles (app/trex.c): `wirerate import-trex`, and a profile
 * (PROFILE.py) wherever a stream file goes, converted on the fly by the
 * Python package (python3 -m wirerate.trex).
 */
bool wr_trex_is_profile(const char *path);
/** One of the converter's options (-t, -m, --src-mac, --dst-mac,
 * --fix-checksums) given beside a profile, kept for it.  @return an exit
 * code. */
int wr_trex_add_opt(struct wr_trex_opts *t, const struct wr_cli_opt *opt,
		    const char *val);
/** The converter's options are for a TRex profile only: refused beside
 * another @p stream_file.  @return an exit code. */
int wr_trex_check_opts(const struct wr_trex_opts *t, const char *stream_file);
/** Convert @p profile: its stream-file text in *@p text (malloc'd).  The
 * converter prints its own one-line error.  @return an exit code. */
int wr_trex_convert(const char *profile, const struct wr_trex_opts *t,
		    char **text, size_t *len);
/** `wirerate import-trex`: python3 -m wirerate.trex with its arguments. */
int wr_cmd_import_trex(const struct wr_cli_cmd *cmd, int argc, char **argv);
int wr_cmd_sweep(const struct wr_opts *o);
int wr_cmd_rtt(const struct wr_opts *o);

/*
 * The one way to load a profile and the one way to load a stream file
 * (common.c).  Each prints its one error line and returns an exit code.
 */

/**
 * Load the profile: @p config_file, else the default one (unless the EAL
 * options @p eal (@p n_eal of them) choose devices or lcores: then none).
 * @param cfg initialised here; freed by the caller with wr_config_free().
 * @param cfg_path set to the file loaded, NULL when there is no profile.
 * @return WR_EXIT_OK or WR_EXIT_USAGE (the error printed).
 */
int wr_app_profile(const char *config_file, char **eal, int n_eal,
		   struct wr_config *cfg, const char **cfg_path);

/** wr_app_profile() with --config and the EAL options of @p o. */
int wr_app_load_profile(const struct wr_opts *o, struct wr_config *cfg,
			const char **cfg_path);

/**
 * Read the stream file of @p o (required) and apply --seed, --count and
 * --burst to it.  Templates are not built (see wr_app_build_streams()).
 * @return WR_EXIT_OK or WR_EXIT_USAGE (the error printed).
 */
int wr_app_read_streams(const struct wr_opts *o, struct wr_stream_file *f);

/**
 * Build every stream's template, before EAL starts, to find what only
 * building reveals (a frame too small, a group source MAC); with @p cfg,
 * also refuse a stream on a port the profile @p cfg_path lacks, and raise
 * cfg->max_frame to the largest frame (the ports' MTU and RX buffers).
 * @p keep, when not NULL, keeps the templates for the load
 * (wr_engine_prepare()).
 * @return WR_EXIT_OK or WR_EXIT_USAGE (the error printed).
 */
struct wr_prepared;
int wr_app_build_streams(const struct wr_stream_file *f,
			 struct wr_config *cfg, const char *cfg_path,
			 struct wr_prepared *keep);

/**
 * wr_app_read_streams() then wr_app_build_streams() without a profile;
 * @p f is freed when building fails.  @return an exit code.
 */
int wr_app_load_streams(const struct wr_opts *o, struct wr_stream_file *f);
int wr_cmd_rfc2544(const struct wr_opts *o);

/*
 * Commands that parse their own arguments (argv[1] names @p cmd) with
 * wr_cli_parse() and @p cmd's table.
 */
/** `wirerate serve`. */
int wr_cmd_serve(const struct wr_cli_cmd *cmd, int argc, char **argv);

/** `wirerate console`: runs wr_app_python() -m wirerate with the checkout's package. */
int wr_cmd_console(const struct wr_cli_cmd *cmd, int argc, char **argv);

/** `wirerate ports`. */
int wr_cmd_ports(const struct wr_cli_cmd *cmd, int argc, char **argv);

/** Where the program's own files of one kind are (wr_app_place()). */
enum wr_app_place {
	WR_APP_PROFILES, /**< the shipped profiles (config/) */
	WR_APP_PYTHON,   /**< the directory holding the Python package wirerate */
	WR_APP_TOOLS,    /**< the helpers a subcommand runs (wr-report) */
};

/**
 * The Python every subcommand runs: $WIRERATE_PYTHON, else
 * /usr/bin/python3 (Debian's, with python3-scapy), else python3 on PATH.
 * Puts the package's directory (WR_APP_PYTHON) first on $PYTHONPATH.
 * @return the interpreter, for execvp().
 */
const char *wr_app_python(void);

/**
 * The directory of @p what written to @p buf: the source tree's for the
 * build tree's binary, else relative to the installed binary.
 * @return @p buf, or NULL when it does not fit.
 */
const char *wr_app_place(enum wr_app_place what, char *buf, size_t len);

/**
 * The profile named @p name (a file name without '/', ".yaml" optional)
 * on the search path: $WIRERATE_CONFIG_PATH (colon-separated), else
 * SYSCONFDIR/wirerate (/etc/wirerate), then the shipped profiles.
 * @return @p buf holding its path, or NULL when there is none.
 */
const char *wr_app_find_profile(const char *name, char *buf, size_t len);

/**
 * Where a benchmark's results' JSON goes: --json, else with --report beside
 * the report (OUT.html.json, in @p buf), else NULL.  Prints; @return 0 or
 * WR_EXIT_USAGE (the path too long).
 */
int wr_app_bench_json_path(const struct wr_opts *o, char *buf, size_t len,
			   const char **json);

/**
 * Every file the command of @p o reads and writes, checked before anything
 * starts (wr_out_check_files()): its outputs (--json, --csv, --stats-jsonl,
 * --pcap, --report and the report's JSON, net_pcap's tx_pcap= in the EAL
 * options of @p o and of the profile @p cfg) are each a regular file's
 * path that can be written, and none is an input (the stream file, the
 * profile @p cfg_path or --config, @p f's captures, rx_pcap=) or another
 * output.  Called once the options are parsed (@p f and @p cfg NULL), and
 * again once the stream file and the profile are loaded.
 * @return WR_EXIT_OK, or WR_EXIT_USAGE with the one line printed.
 */
int wr_app_check_files(const struct wr_opts *o,
		       const struct wr_stream_file *f,
		       const struct wr_config *cfg, const char *cfg_path);

/*
 * run's extras around the engine session (run_hooks.c): the session's
 * options from the command line (--arp, --capture) and its load
 * (wr_session.h: next hops, offloads, responders, telemetry, captures);
 * the statistics log; a line per interval; NIC drop counters and the
 * responders' counts in the summary; everything undone by close (before
 * wr_engine_close()).  Functions return 0 or a negative errno with err.
 */
struct wr_report_view;
struct wr_report_capture;
struct wr_run_ext {
	struct wr_session sess;
	/* --capture as the session starts them, and their final statuses. */
	struct wr_engine_cap cap[WR_CAPTURES_MAX];
	struct wr_report_capture *caps; /**< sess.n_caps, after the run */
	struct wr_jsonl jsonl;
	bool jsonl_open;
	bool jsonl_failed;
	bool hosts_table;            /**< run --hosts */
	struct wr_tcp_lines tcp_lines; /**< the tcp: classes' last interval */
};

/** Load @p f onto @p e through the session, with the templates @p prep
 * kept from its check, then open --stats-jsonl. */
int wr_run_ext_load(struct wr_run_ext *x, const struct wr_opts *o,
		    struct wr_engine *e, struct wr_stream_file *f,
		    struct wr_prepared *prep, struct wr_error *err);
void wr_run_ext_interval(struct wr_run_ext *x, const struct wr_report_view *v,
			 bool final);
/** After wr_engine_stop(): stop the captures, keep their statuses. */
void wr_run_ext_stopped(struct wr_run_ext *x, const struct wr_opts *o,
			struct wr_engine *e);
void wr_run_ext_summary(struct wr_run_ext *x, struct wr_engine *e, FILE *out);
/** The results JSON's "hosts" (each port's hosts by state and counters,
 * as stats.get's), written after the document's other members as a
 * json_more hook does; @p arg: the struct wr_run_ext. */
int wr_run_ext_hosts_json(FILE *out, const void *arg);
/** The same in a --stats-jsonl line (its struct wr_jsonl's more). */
int wr_run_ext_hosts_jsonl(FILE *out, const void *arg);
/** @return 0, or the negative errno of a --stats-jsonl log that could not
 * be written whole (removed: the run's exit status is then 1). */
int wr_run_ext_close(struct wr_run_ext *x, struct wr_engine *e);

/*
 * run's lines for the stream file's tcp: classes (run_tcp.c): a live line
 * per class and side after the ports' and streams' (@return how many, for
 * the terminal's redraw), the summary's counters and histograms, and the
 * results' "tcp" (stats.get's) after @p sep, with the histograms' summaries
 * when @p hist (the results; not each --stats-jsonl line).
 */
unsigned int wr_run_tcp_lines(struct wr_run_ext *x,
			      const struct wr_report_view *v, bool tty,
			      FILE *out);
void wr_run_tcp_summary(struct wr_run_ext *x, struct wr_engine *e, FILE *out);
int wr_run_tcp_json(FILE *out, const struct wr_run_ext *x, const char *sep,
		    bool hist);

#endif /* WR_APP_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_app: what the wirerate command's subcommands share. */
#ifndef WR_APP_H
#define WR_APP_H

#include <stdbool.h>
#include <stdint.h>

#include "wr_config.h"
#include "wr_error.h"
#include "wr_stream.h"

/* Exit codes: 0 success, 1 a run-time failure (EAL, memory, link), 2 bad
 * input (options, stream file, profile, a port that does not exist). */
#define WR_EXIT_OK 0
#define WR_EXIT_FAIL 1
#define WR_EXIT_USAGE 2

/* Echoes still in flight after the last frame: 200 ms covers a kernel or a
 * switch path (tens of microseconds) with a wide margin and a DUT's buffers
 * (a 16 MB buffer drains in 13 ms at 10 Gbps). */
#define WR_DRAIN_DEFAULT_NS (200 * 1000 * 1000ull)

struct wr_opts {
	const char *cmd;
	const char *stream_file;
	const char *config_file;    /**< NULL: the default profile */
	const char *json_file;
	const char *pcap_file;
	const char *stream_name;    /**< dump: one stream */
	uint64_t duration_ns;       /**< 0: none */
	uint64_t drain_ns;          /**< how long echoes are waited for after TX */
	uint64_t count;             /**< 0: as the file says */
	bool count_set;
	uint64_t seed;
	bool seed_set;
	bool quiet;                 /**< no live lines */
	uint32_t sizes_from;        /**< rtt: UDP payload sizes FROM:TO:STEP */
	uint32_t sizes_to;
	uint32_t sizes_step;
	uint64_t timeout_ns;        /**< rtt: per round trip */
	const char *csv_file;       /**< rtt: results as CSV */
	int n_eal;                  /**< arguments after "--" */
	char **eal;
};

/** Print @p err as the one error line, prefixed "wirerate: ". */
void wr_app_print_error(const struct wr_error *err);

/**
 * Load the profile: --config, else the default one (unless the EAL options
 * choose devices or lcores: then none).  Prints the error.
 * @return an exit code; *cfg_path is NULL when there is no profile.
 */
int wr_app_load_profile(const struct wr_opts *o, struct wr_config *cfg,
			const char **cfg_path);

/**
 * Load the stream file, apply --seed and --count, build every template to
 * find what only building reveals.  Prints the error.  @return an exit code.
 */
int wr_app_load_streams(const struct wr_opts *o, struct wr_stream_file *f);

int wr_cmd_run(const struct wr_opts *o);
int wr_cmd_rtt(const struct wr_opts *o);

#endif /* WR_APP_H */

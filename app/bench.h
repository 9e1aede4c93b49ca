/* SPDX-License-Identifier: BSD-3-Clause */
/* bench: what wirerate sweep, rfc2544 and rtt share on the command line: their options, their log on a terminal or a pipe, their files. */
#ifndef WR_APP_BENCH_H
#define WR_APP_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "wr_app.h"
#include "wr_bench.h"

/**
 * Where the results' JSON goes: --json, else with --report beside the
 * report (OUT.html.json, in @p buf), else NULL.  Prints; @return 0 or
 * WR_EXIT_USAGE (the path too long).
 */
int wr_bench_json_path(const struct wr_opts *o, char *buf, size_t len,
		       const char **json);

#endif /* WR_APP_BENCH_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_result_priv: the writers the sweep's results (wr_bench_result.c) and RFC 2544's (wr_rfc2544_result.c) share. */
#ifndef WR_BENCH_RESULT_PRIV_H
#define WR_BENCH_RESULT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "wr_bench_result.h"

/** The results' metadata as JSON: the opening brace and the members, no
 * comma after the last. */
void wr_bench_json_meta(FILE *out, const char *schema,
			const struct wr_bench_meta *m);
/** ",\n  \"KEY\": \"VAL\"" (a missing @p val written as ""). */
void wr_bench_json_key_str(FILE *out, const char *key, const char *val);
/** The TX lcores' time as JSON members (no braces). */
void wr_bench_json_usage(FILE *out, const struct wr_thread_usage *u);
/** A percentage with two decimals, or "n/a" when not @p known. */
void wr_bench_pct_text(double pct, bool known, char *buf, size_t len);

#endif /* WR_BENCH_RESULT_PRIV_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_priv: what lib/core/otg's files share (internal). */
#ifndef WR_OTG_PRIV_H
#define WR_OTG_PRIV_H

#include "wr_otg.h"

/**
 * One flow of a Config (wr_otg_check()ed: defaults filled) as a wirerate
 * stream: @p flow is flows[@p index] (@p path "flows[3]"), @p p the plan so
 * far (ports and devices built, flows[] before this one filled).  Headers
 * and their patterns, size, rate, duration, metrics and tx_rx become the
 * stream mapping *@p stream (wirerate's schema, doc/stack.md and
 * doc/vary.md; "port" the plan port index) and @p out.
 * @return 0; -EINVAL with @p err (every problem of the flow, by path).
 */
int wr_otg_flow_stream(const json_t *flow, const char *path, unsigned int index,
		       const struct wr_otg_plan *p, struct wr_otg_flow *out,
		       json_t **stream, struct wr_otg_err *err);

/** The index of the plan's port named @p name, or -1. */
int wr_otg_port_find(const struct wr_otg_plan *p, const char *name);

#endif /* WR_OTG_PRIV_H */

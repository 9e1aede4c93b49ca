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

/* ---- the plan's (helper 'plan'): wr_otg_plan*.c ---- */

/** Longest JSON path an error names. */
#define WR_OTG_PATH_MAX 256

/** A JSON path into @p out (WR_OTG_PATH_MAX bytes). */
void wr_otg_at(char *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** A string member of @p obj, or NULL. */
const char *wr_otg_str(const json_t *obj, const char *key);
/** Whether @p key is one of @p keys (NULL-terminated). */
bool wr_otg_key_in(const char *key, const char *const *keys);
/** Each member of @p obj not in @p keys that holds something (a value, a
 * non-empty list or object) refused by its path.  @return 0 or -EINVAL. */
int wr_otg_refuse_others(const json_t *obj, const char *path,
			 const char *const *keys, struct wr_otg_err *err);
/** @p obj's name into @p names (name -> path), refused when taken. */
int wr_otg_name_add(json_t *names, const json_t *obj, const char *path,
		    struct wr_otg_err *err);
/** The plan port named by the string @p name, or -1 with an error at @p path. */
int wr_otg_port_ref(const struct wr_otg_plan *p, const json_t *name,
		    const char *path, struct wr_otg_err *err);
/** Captures (wr_otg_plan_cap.c) and devices (wr_otg_plan_dev.c) into @p p. */
int wr_otg_plan_captures(const json_t *cfg, struct wr_otg_plan *p,
			 json_t *names, struct wr_otg_err *err);
int wr_otg_plan_devices(const json_t *cfg, const struct wr_otg_env *env,
			struct wr_otg_plan *p, json_t *names,
			struct wr_otg_err *err);
/** A capture's filters as one wirerate filter expression (wr_filter.h;
 * "" when every frame is kept), checked by libpcap.  @return 0 or -EINVAL
 * with @p err at @p path's members. */
int wr_otg_capture_filter(const json_t *filters, const char *path, char *expr,
			  size_t cap, struct wr_otg_err *err);

#endif /* WR_OTG_PRIV_H */

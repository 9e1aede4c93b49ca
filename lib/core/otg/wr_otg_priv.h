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

/* ---- flows: headers and their field patterns (wr_otg_hdr.c, wr_otg_pat.c) ---- */

typedef unsigned __int128 u128;

/** How a field's values are written (the model's formats). */
enum wr_otg_vk { WR_OTG_VK_INT, WR_OTG_VK_MAC, WR_OTG_VK_IP4, WR_OTG_VK_IP6 };

/** One field of an OTG header and the wirerate layer key it becomes. */
struct wr_otg_fdesc {
	const char *otg;             /**< the OTG member ("src_port") */
	const char *wr;              /**< the layer's key ("src"); NULL none */
	enum wr_otg_vk kind;
	uint8_t bits;
	uint8_t how;                 /**< WR_OTG_F_* (wr_otg_hdr.c) */
	const char *dval;            /**< the model's default value; NULL auto */
	uint64_t fixed;              /**< WR_OTG_F_FIXED: what wirerate writes */
};

enum wr_otg_seq_mode {
	WR_OTG_SEQ_FIXED, WR_OTG_SEQ_LIST, WR_OTG_SEQ_INC, WR_OTG_SEQ_DEC,
	WR_OTG_SEQ_RANDOM, WR_OTG_SEQ_AUTO,
};

/** A pattern read: its values in order (RANDOM: min v, max to). */
struct wr_otg_seq {
	enum wr_otg_seq_mode mode;
	u128 v, to, step;
	u128 *list;
	size_t n;
	bool has_auto;               /**< AUTO: the model's auto value is in v */
	bool auto_obj;               /**< AUTO: auto is an object (dhcp) */
	bool csum_custom, csum_bad;  /**< checksum patterns */
};

int wr_otg_val_parse(enum wr_otg_vk kind, const json_t *j, u128 *out);
json_t *wr_otg_val_json(enum wr_otg_vk kind, u128 v);
/** Read pattern @p pat (NULL: absent, the model's default) of field @p f. */
int wr_otg_seq_read(const struct wr_otg_fdesc *f, const json_t *pat,
		    const char *path, struct wr_otg_seq *s,
		    struct wr_otg_err *err);
void wr_otg_seq_free(struct wr_otg_seq *s);
/** Values in one period of @p s (1 for FIXED, AUTO, RANDOM). */
uint64_t wr_otg_seq_len(const struct wr_otg_seq *s);
/** Value k of @p s (not RANDOM). */
u128 wr_otg_seq_at(const struct wr_otg_seq *s, uint64_t k);
/** @p s in wirerate's vary grammar (new reference; NULL: no memory). */
json_t *wr_otg_seq_json(const struct wr_otg_seq *s, enum wr_otg_vk kind);

/** What a flow's headers need from its endpoints. */
struct wr_otg_hdr_ctx {
	const char *dst_resolve;     /**< ethernet.dst auto: "arp"/"nd" (a
				      *   device's gateway), NULL: dst_mac */
	const char *dst_mac;         /**< ethernet.dst auto: this MAC (a
				      *   gateway_mac given, the receiving
				      *   ethernet's); NULL: the model's auto
				      *   value */
};

/**
 * The flow's packet[] (@p path "flows[0].packet") as a `stack:` list
 * appended to @p stack, one layer per header (doc/stack.md).
 * @return 0; -EINVAL with @p err (every problem, by path).
 */
int wr_otg_hdr_stack(const json_t *packet, const char *path,
		     const struct wr_otg_hdr_ctx *ctx, json_t *stack,
		     struct wr_otg_err *err);

/** Why wirerate refuses OTG header @p name ("no LACP layer"), NULL when
 * it takes it (doc/otg.md's table can be checked against this). */
const char *wr_otg_hdr_refused(const char *name);
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

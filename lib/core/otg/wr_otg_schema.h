/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_schema: the shape of the tables devtools/otg-schema-gen writes from the OTG model (wr_otg_schema.c), read by wr_otg_check.c only. */
#ifndef WR_OTG_SCHEMA_H
#define WR_OTG_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

/** What a member holds (an array's: its items'). */
enum wr_otg_type {
	WR_OTG_OBJ = 1,
	WR_OTG_STR,
	WR_OTG_INT,
	WR_OTG_NUM,
	WR_OTG_BOOL,
};

/** The model's "format": strings' syntax, integers' width. */
enum wr_otg_fmt {
	WR_OTG_F_NONE = 0,
	WR_OTG_F_MAC,
	WR_OTG_F_IPV4,
	WR_OTG_F_IPV6,
	WR_OTG_F_HEX,
	WR_OTG_F_HEXBYTES,           /**< Flow.Custom.bytes' pattern: hex, ':' and ' ' */
	WR_OTG_F_OID,
	WR_OTG_F_U32,
	WR_OTG_F_U64,
	WR_OTG_F_I32,
	WR_OTG_F_I64,
	WR_OTG_F_FLT,
	WR_OTG_F_DBL,
};

enum {
	WR_OTG_ARRAY = 1 << 0,       /**< an array of what the rest says */
	WR_OTG_REQ = 1 << 1,         /**< required */
	WR_OTG_LO = 1 << 2,          /**< lo is the model's minimum */
	WR_OTG_HI = 1 << 3,          /**< hi is the model's maximum */
	WR_OTG_CHOICE = 1 << 4,      /**< the schema's "choice" */
	WR_OTG_ALT = 1 << 5,         /**< a member "choice" can name */
};

/**
 * One entry of wr_otg_props[]: a schema's head (name NULL) followed by its
 * n members.
 */
struct wr_otg_prop {
	const char *name;            /**< NULL: a schema's head */
	const char *def;             /**< head: "|Name|Name|" (the model's names
				      *   for this table); member: its default
				      *   (strings as they are, numbers and
				      *   booleans as JSON, arrays as JSON), NULL
				      *   none */
	const char *const *en;       /**< enum (NULL-terminated), NULL any */
	long long lo, hi;            /**< range (flags LO, HI) */
	uint32_t len_lo, len_hi;     /**< string length, 0: unbounded */
	uint16_t items_lo, items_hi; /**< array length, 0: unbounded */
	uint16_t ref;                /**< OBJ: the head of its schema */
	uint16_t n;                  /**< head: its members */
	uint8_t type;                /**< enum wr_otg_type */
	uint8_t fmt;                 /**< enum wr_otg_fmt */
	uint8_t flags;
};

extern const struct wr_otg_prop wr_otg_props[];
extern const unsigned int wr_otg_props_n;

#endif /* WR_OTG_SCHEMA_H */

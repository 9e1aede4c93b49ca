/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_field: a header field's value on each frame, as the registry's layers hold it (the data; wr_vary.h the grammar and the maths). */
#ifndef WR_FIELD_H
#define WR_FIELD_H

/**
 * @file
 * The data of one field of a layer (struct wr_layer, wr_proto.h): how its
 * value is written (enum wr_val_kind, each registered field's kind) and
 * what it takes on each frame (struct wr_field_spec).  Here, in wire/, so
 * that the registry and its protocol modules, which read a layer's specs,
 * need nothing above them; the stream file's grammar for it and the value
 * of frame k are wr_vary.h's (model/).
 *
 * Pure data; any thread.
 */

#include <stdint.h>

/** How a field's value is written in a stream file. */
enum wr_val_kind {
	WR_VAL_INT,  /**< an integer (decimal or 0x hex) */
	WR_VAL_MAC,  /**< 02:00:00:00:00:01 */
	WR_VAL_IPV4, /**< 198.18.0.1 */
	WR_VAL_IPV6, /**< 2001:db8::1 */
	WR_VAL_HEX,  /**< an integer shown as 0x88b5 (EtherTypes) */
};

#define WR_VARY_MODES(X)        \
	X(FIXED, "fixed")       \
	X(INC, "inc")           \
	X(DEC, "dec")           \
	X(RANDOM, "random")     \
	X(LIST, "list")

enum wr_vary_mode {
#define WR_X(e, name) WR_VARY_##e,
	WR_VARY_MODES(WR_X)
#undef WR_X
	WR_VARY__COUNT
};

/**
 * One header field.  Values are host-order integers up to 128 bits (a MAC
 * is its 48 bits, most significant byte first on the wire; an IPv4 address
 * its 32 bits, an IPv6 address its 128).
 *
 * - FIXED:  value.
 * - INC:    from, from+step, ... up to and including to, then back to from.
 *           Requires from <= to and step >= 1.  Period = (to-from)/step + 1.
 * - DEC:    from, from-step, ... down to and including to, then back to from.
 *           Requires from >= to and step >= 1.
 * - RANDOM: uniform in [from, to] (from <= to) from the stream's seeded
 *           generator; each field draws from its own sub-sequence.  A
 *           range of more than 2^64 values must be a prefix (2001:db8::/48:
 *           to - from + 1 a power of two, from aligned to it).
 * - LIST:   list[0], list[1], ... list[n-1], list[0], ...
 *
 * For every mode but FIXED, `value` is the value of packet 0 (the template).
 */
struct wr_field_spec {
	enum wr_vary_mode mode;
	__uint128_t value;
	__uint128_t from;
	__uint128_t to;
	__uint128_t step;
	__uint128_t *list; /**< owned, list_len entries (LIST only) */
	uint32_t list_len;
};

#endif /* WR_FIELD_H */

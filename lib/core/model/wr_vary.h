/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_vary: how a header field varies per packet: the model, its values at any packet index, and its grammar. */
#ifndef WR_VARY_H
#define WR_VARY_H

/**
 * @file
 * A header field takes one value on every frame (FIXED) or a value that is
 * a pure function of the frame's index: stepped (INC, DEC), drawn from the
 * stream's seeded counter-based generator (RANDOM, wr_rng.h) or read from a
 * list (LIST).  One struct wr_field_spec describes a field of a generated
 * stream's layer (wr_stream.h), a capture rewrite (wr_replay_pcap.h) and a
 * replayed frame's field (wr_replay.h); this file is the one grammar that
 * writes it in a stream file (doc/vary.md):
 *
 *     src: 10.0.0.1                                   fixed
 *     src: {inc: {from: 10.0.0.1, to: 10.0.0.254, step: 1}}   step default 1
 *     src: {dec: {from: 10.0.0.254, to: 10.0.0.1}}
 *     src: {random: {min: 1024, max: 65535}}
 *     src: {random: {prefix: 10.1.0.0/16}}           addresses only
 *     src: {list: [80, 443, 8080]}                    1..65536 values
 *
 * with values in the field's own syntax (enum wr_val_kind: a MAC, a dotted
 * quad, an IPv6 address, an integer) and at most its width.
 *
 * Pure data and pure functions; any thread.
 */

#include <stdint.h>

struct wr_ynode;
struct wr_ywalk;

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

/** The YAML name of vary mode @p m (NULL if unknown). */
const char *wr_vary_mode_name(enum wr_vary_mode m);

/** Most values of a {list: [...]} (one field's table stays at 1 MiB). */
#define WR_VARY_LIST_MAX 65536

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

/**
 * How several varying fields of a stream combine.
 * - TOGETHER: every field advances on every packet (field f takes its k-th
 *   value on packet k, each with its own period): N flows where N is the
 *   least common multiple of the periods.
 * - PRODUCT: an odometer; the first varying field (outermost layer first,
 *   in its protocol's field order) advances on every packet, the next when
 *   the first wraps, and so on: every combination once per cycle (period =
 *   product of periods).
 *   RANDOM fields draw a fresh value on every packet in both modes.
 */
enum wr_combine { WR_COMBINE_TOGETHER, WR_COMBINE_PRODUCT };

/**
 * Period of a varying field: the number of packets after which its value
 * sequence repeats (1 for FIXED, 0 for RANDOM: no period).
 */
uint64_t wr_field_period(const struct wr_field_spec *fs);

/**
 * Value number @p k of field @p fs when every field moves on every packet
 * (`vary: together`, doc/vary.md): INC/DEC from + or - (k mod period) *
 * step, LIST list[k mod n], RANDOM draw k of the sub-sequence @p key
 * (wr_rng.h) mapped to [from, to] as the frame builder maps it (a range of
 * more than 2^64 values, a prefix, takes its high bits from the draw and
 * its low 64 from the draw's mix), FIXED value.  The one rule behind
 * generated frames' packet 0 (wr_frame) and replay rewrites (wr_capture).
 */
__uint128_t wr_field_value_at(const struct wr_field_spec *fs, uint64_t key,
			      uint64_t k);

/** Least common multiple of two periods (both >= 1), saturating at UINT64_MAX. */
uint64_t wr_period_lcm(uint64_t a, uint64_t b);

/** A FIXED spec of value @p v in @p fs (whatever it held is not freed). */
void wr_field_fixed(struct wr_field_spec *fs, __uint128_t v);

/**
 * @p dst becomes a copy of @p src, its list duplicated (whatever @p dst
 * held is not freed).  @return 0, -ENOMEM (dst is then FIXED).
 */
int wr_field_copy(struct wr_field_spec *dst, const struct wr_field_spec *src);

/** Free what @p fs owns; it stays a valid FIXED spec of its value. */
void wr_field_free(struct wr_field_spec *fs);

/**
 * Read a field's value or vary mapping at node @p n (the grammar above):
 * values of kind @p kind (enum wr_val_kind), integers at most @p bits
 * wide (addresses by their syntax).  On an error @p w's error names the
 * node, the path and what was expected.
 * @return 0; -EINVAL; -ENOMEM.
 */
int wr_vary_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		  unsigned int kind, unsigned int bits,
		  struct wr_field_spec *fs);

#endif /* WR_VARY_H */

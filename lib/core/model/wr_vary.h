/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_vary: how a header field varies per packet: the model, its values at any packet index, and its grammar. */
#ifndef WR_VARY_H
#define WR_VARY_H

/**
 * @file
 * A header field takes one value on every frame (FIXED) or a value that is
 * a pure function of the frame's index: stepped (INC, DEC), drawn from the
 * stream's seeded counter-based generator (RANDOM, wr_rng.h) or read from a
 * list (LIST).  One struct wr_field_spec (wr_field.h) describes a field of
 * a generated stream's layer (wr_stream.h), a capture rewrite (wr_replay_pcap.h) and a
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

#include "wr_field.h"

struct wr_ynode;
struct wr_ywalk;

/** The YAML name of vary mode @p m (NULL if unknown). */
const char *wr_vary_mode_name(enum wr_vary_mode m);

/** Most values of a {list: [...]} (one field's table stays at 1 MiB). */
#define WR_VARY_LIST_MAX 65536

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

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_fe: TRex's field engine on a frame given as bytes: variables, writes, fixed checksums, trimmed sizes. */
#ifndef WR_FE_H
#define WR_FE_H

/**
 * @file
 * A `frame:` stream with `vars:` (doc/trex.md) sends its bytes with the
 * values of TRex-style variables written into them, frame after frame, the
 * way TRex's stateless field engine does on one core:
 *
 * - variables (struct wr_fe_var): INC / DEC over [min, max] by step from
 *   init, wrapping modulo the range (TRex's inc_mod); the same over a value
 *   list; RANDOM from TRex's generator (an LCG shared by the stream's random
 *   variables, each taking its draws in program order); REPEAT, a random
 *   variable restarting its own generator every `limit` values; a tuple
 *   generator's address and port (the port moves when the address wraps,
 *   both restart every `flows` frames); `next_var` chains (a variable moves
 *   only when the one before it wraps);
 * - writes (struct wr_fe_write): a variable plus `add` at an offset, as
 *   many bytes as the variable (big- or little-endian), or masked: 1, 2 or
 *   4 bytes, (var + add) shifted, stored under a mask;
 * - checksums: only those the stream lists (TRex fixes only what the
 *   profile asks), or all the frame holds;
 * - `trim`: the frame is cut to a variable's value (bytes without FCS);
 * - `cache`: frame k is frame k mod cache (TRex's cache_size).
 *
 * Frame k is a pure function of (stream, seed, k), as for every stream: a
 * lane of K TX lcores starts at its index and strides by K.  The values of
 * frame k are what TRex's engine gives its k-th packet on one core.
 *
 * The template (struct wr_fe_tmpl) is the frame with its constant bytes in
 * place and one flat table of writes and checksums; per frame only the
 * written bytes and the checksums are stored (checksums completed from
 * precomputed sums of the constant bytes, as wr_frame does).
 *
 * Model, grammar and values: pure; the template is read-only once built;
 * each lcore owns its cursor.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"

struct wr_stream;
struct wr_ynode;
struct wr_ywalk;

#define WR_FE_VARS_MAX 32     /**< variables of a stream (a tuple counts 2) */
#define WR_FE_WRITES_MAX 32   /**< writes of a stream */
#define WR_FE_CSUMS_MAX 8     /**< checksums fixed per frame */
#define WR_FE_NAME_MAX 32
#define WR_FE_LIST_MAX 65535  /**< TRex's value_list limit */
#define WR_FE_CACHE_MAX 10000 /**< TRex's cache_size limit */
#define WR_FE_FRAME_MIN 14    /**< bytes of a frame (an Ethernet header) */
#define WR_FE_TRIM_MIN 14     /**< smallest trimmed length (the NIC pads to 60) */

#define WR_FE_KINDS(X)            \
	X(INC, "inc")             \
	X(DEC, "dec")             \
	X(RANDOM, "random")       \
	X(REPEAT, "repeat")       \
	X(TUPLE_IP, "tuple ip")   \
	X(TUPLE_PORT, "tuple port")

enum wr_fe_kind {
#define WR_X(e, name) WR_FE_##e,
	WR_FE_KINDS(WR_X)
#undef WR_X
};

/**
 * One variable.  INC/DEC: value = min + ((init - min) + n*step) mod R (INC)
 * or max - ((max - init) + n*step) mod R (DEC) after n moves, R = max - min
 * + 1, step taken mod R; with a list, the list's entry at index n*step mod
 * len (INC, from 0) or len - 1 - that (DEC).  RANDOM: min + r mod R with r
 * of 15 bits (1 and 2 bytes), 31 (4 bytes: two draws, the first the high
 * half) or 62 (8 bytes: four), or list[r15 mod len]; all random variables
 * of a stream share one LCG seeded seed * 514229, drawing in program
 * order.  REPEAT: the same mapping from its own LCG, started at `seed` and
 * restarted every `limit` values.  TUPLE_IP / TUPLE_PORT: with f = k mod
 * flows (k when flows is 0), ip_min + f mod R_ip and port_min + (f div
 * R_ip) mod R_port.
 */
struct wr_fe_var {
	char name[WR_FE_NAME_MAX];
	uint8_t kind;      /**< enum wr_fe_kind */
	uint8_t size;      /**< 1, 2, 4 or 8 bytes */
	uint64_t min, max; /**< INC, DEC, RANDOM, REPEAT; tuple: ip or port range */
	uint64_t step;     /**< INC, DEC: already reduced mod the range */
	uint64_t init;     /**< INC, DEC: the first value */
	uint64_t *list;    /**< owned: INC, DEC, RANDOM over a list */
	uint32_t n_list;
	uint32_t seed;     /**< REPEAT: the generator's first state */
	uint64_t limit;    /**< REPEAT: values before a restart */
	uint64_t flows;    /**< TUPLE: frames before a restart, 0 = none */
	uint64_t ip_range; /**< TUPLE_PORT: the address range it waits for */
	int8_t next;       /**< index of its next_var, -1 */
	int8_t prev;       /**< index of the variable whose wraps move it, -1 */
	uint16_t draw_off; /**< RANDOM: its first draw within a frame's */
	uint8_t draws;     /**< RANDOM, REPEAT: LCG draws per value */
};

/** One write of a variable into the frame. */
struct wr_fe_write {
	uint16_t off;
	uint8_t width;     /**< bytes written (the variable's size, or 1/2/4 masked) */
	uint8_t var;
	bool masked;
	bool little;       /**< the bytes in little-endian order (unmasked only) */
	int8_t shift;      /**< masked: > 0 left, < 0 right, on 32 bits */
	uint32_t mask;     /**< masked: the bits written */
	int64_t add;       /**< added to the variable before writing */
};

/** A checksum fixed on every frame: the header at `off`, its IP header at
 * `ip` (the pseudo-header of UDP, TCP, ICMPv6). */
struct wr_fe_fix {
	uint8_t kind;      /**< its protocol: wr_pkt_csum_kind(kind) */
	uint16_t off;
	uint16_t ip;
};

/** MACs of the Ethernet header: kept, given, or the port's (doc/trex.md). */
enum wr_fe_mac { WR_FE_MAC_KEEP, WR_FE_MAC_VALUE, WR_FE_MAC_PORT };

/** What a stream file says about a frame: stream with vars: (owned by its
 * wr_stream). */
struct wr_fe_spec {
	uint8_t *frame;    /**< owned, the frame without FCS */
	uint16_t len;
	uint8_t mac_mode[2];  /**< [0] src, [1] dst: enum wr_fe_mac */
	uint64_t mac[2];      /**< WR_FE_MAC_VALUE (or resolved PORT) */
	struct wr_fe_var var[WR_FE_VARS_MAX];
	uint32_t n_var;
	struct wr_fe_write wr[WR_FE_WRITES_MAX];
	uint32_t n_wr;
	bool csum_all;     /**< every checksum the frame holds (no checksums: key) */
	struct wr_fe_fix fix[WR_FE_CSUMS_MAX];
	uint32_t n_fix;
	int8_t trim;       /**< the variable giving the frame length, -1: none */
	uint16_t trim_min, trim_max;
	uint32_t cache;    /**< 0: none */
	uint16_t n_draws;  /**< LCG draws of the random variables per frame */
};

/** The stream keys wr_fe_yaml_parse() reads besides frame:. */
#define WR_FE_KEYS "vars", "checksums", "trim", "cache"

/** True when stream mapping @p n is a frame: stream for the field engine
 * (it has one of WR_FE_KEYS). */
bool wr_fe_yaml_wants(const struct wr_ynode *n);

/**
 * Read frame:, eth:, vars:, fields:, checksums:, trim:, cache: of stream
 * mapping @p n into a new s->fe (and s->size: the frame's sizes).
 * @return 0, -EINVAL (error filled: file:line:col, key path, expected),
 *         -ENOMEM.
 */
int wr_fe_yaml_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		     struct wr_stream *s);

/** Free what @p fe owns and @p fe itself.  NULL-safe. */
void wr_fe_spec_free(struct wr_fe_spec *fe);

/**
 * Value of variable @p v of @p fe on frame @p k (k already reduced mod the
 * cache) with the stream's @p seed: the rule above, from scratch (a few
 * divisions, an LCG jump of log k steps).  The reference the cursor and the
 * tests hold the fast paths to.
 */
uint64_t wr_fe_value_at(const struct wr_fe_spec *fe, uint32_t v, uint64_t k,
			uint64_t seed);

/**
 * The length (bytes without FCS) of frame @p k (reduced mod the cache):
 * the trim variable's value, or the frame's length.
 */
uint16_t wr_fe_len_at(const struct wr_fe_spec *fe, uint64_t k, uint64_t seed);

/**
 * What `wirerate check` prints of @p fe: the frame, its MACs, each
 * variable, write and checksum, trim and cache, one line each, prefixed
 * @p indent.  @return the characters written (at most @p len - 1).
 */
int wr_fe_describe(const struct wr_fe_spec *fe, const char *indent, char *buf,
		   size_t len);

/** Write the resolved MACs (mac_mode, mac) into the frame's bytes. */
void wr_fe_apply_macs(struct wr_fe_spec *fe);

/* ---- the generator (a template source: wr_frame_src_fe, wr_frame_src.h) ---- */

struct wr_fe_tmpl;

/** A lane's cursor: private to wr_fe_tmpl.c, public to be embedded in
 * struct wr_frame_gen (no allocation, no pointer chase per frame). */
struct wr_fe_cursor {
	const struct wr_fe_tmpl *t;
	uint64_t index;   /**< the stream's frame index of the next frame */
	uint64_t k;       /**< index mod cache */
	uint32_t stride;
	uint64_t pos[WR_FE_VARS_MAX];   /**< per variable: offset, list index, flow */
	uint32_t lcg[WR_FE_VARS_MAX];   /**< RANDOM, REPEAT: state before its draws */
	uint64_t adv[WR_FE_VARS_MAX];   /**< per variable: the stride's move */
	uint32_t lcg_a[WR_FE_VARS_MAX], lcg_c[WR_FE_VARS_MAX]; /**< the stride's jump */
};

#endif /* WR_FE_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream: the stream model, what a stream file describes, free of YAML and of DPDK. */
#ifndef WR_STREAM_H
#define WR_STREAM_H

/**
 * @file
 * A stream file holds one or more named streams.  Each stream describes one
 * frame, a stack of protocol layers (struct wr_layer, wr_proto.h) or the
 * shorthand Ethernet / [802.1Q] / IPv4 / UDP (field[], vlan, ecn, df) that
 * stands for such a stack, then a payload; how its header fields vary per
 * packet, its frame size (fixed, stepped, random or a weighted mix), how
 * many frames to send and at what rate.
 *
 * Frame sizes are Ethernet frame sizes *including* the 4-byte FCS, as in
 * RFC 2544 and Ostinato: 64..9018.  The bytes we hand to the NIC are
 * size - 4 (the NIC appends the FCS).
 *
 * Every frame is a pure function of (stream, seed, packet index): the index
 * is the frame's position in the stream's own sequence, 0-based.  That is
 * what makes a run reproducible with any number of TX lcores (see wr_frame.h).
 *
 * The structures are filled by wr_yaml (the loader), read by wr_frame (the
 * template builder) and the data path.  They are plain data; free a file with
 * wr_stream_file_free().  Not thread-safe to modify; read-only once loaded.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_filter.h"
#include "wr_sched.h"

#define WR_FCS_LEN 4
/** IEEE 802.3: preamble 7 + SFD 1 + minimum inter-frame gap 12 bytes. */
#define WR_L1_OVERHEAD 20
#define WR_FRAME_MIN 64   /**< smallest Ethernet frame, FCS included */
#define WR_FRAME_MAX 9018 /**< jumbo frame as in RFC 2544 / Ostinato, FCS included */
#define WR_STREAM_NAME_MAX 64
#define WR_STREAMS_MAX 256
#define WR_FILE_VERSION 1 /**< the only `version:` this build reads */

/*
 * Header fields a stream may vary.  X(enum suffix, YAML key, width in bits).
 * One list gives the loader's key names, the report's names and the frame
 * builder's widths.
 */
#define WR_FIELDS(X)                        \
	X(ETH_SRC, "eth.src", 48)           \
	X(ETH_DST, "eth.dst", 48)           \
	X(VLAN_ID, "vlan.id", 12)           \
	X(VLAN_PCP, "vlan.pcp", 3)          \
	X(IPV4_SRC, "ipv4.src", 32)         \
	X(IPV4_DST, "ipv4.dst", 32)         \
	X(IPV4_ID, "ipv4.id", 16)           \
	X(IPV4_TTL, "ipv4.ttl", 8)          \
	X(IPV4_DSCP, "ipv4.dscp", 6)        \
	X(UDP_SRC, "udp.src", 16)           \
	X(UDP_DST, "udp.dst", 16)

enum wr_field_id {
#define WR_X(e, name, bits) WR_FIELD_##e,
	WR_FIELDS(WR_X)
#undef WR_X
	WR_FIELD__COUNT
};

/** YAML/report name of a field ("ipv4.src"), NULL if out of range. */
const char *wr_field_name(enum wr_field_id id);
/** Width of a field in bits (48 for MACs, 12 for vlan.id, ...). */
unsigned int wr_field_bits(enum wr_field_id id);

struct wr_proto_field;
/**
 * The protocol module's description of a shorthand field (its default,
 * how it is written): the one source of both forms' defaults.  NULL if
 * out of range.
 */
const struct wr_proto_field *wr_field_proto(enum wr_field_id id);

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
 * How several varying fields combine.
 * - TOGETHER: every field advances on every packet (field f takes its k-th
 *   value on packet k, each with its own period): N flows where N is the
 *   least common multiple of the periods.
 * - PRODUCT: an odometer; the first varying field in WR_FIELDS order
 *   advances on every packet, the next when the first wraps, and so on:
 *   every combination once per cycle (period = product of periods).
 *   RANDOM fields draw a fresh value on every packet in both modes.
 */
enum wr_combine { WR_COMBINE_TOGETHER, WR_COMBINE_PRODUCT };

#define WR_SIZE_MODES(X)        \
	X(FIXED, "fixed")       \
	X(INC, "inc")           \
	X(RANDOM, "random")     \
	X(MIX, "mix")

enum wr_size_mode {
#define WR_X(e, name) WR_SIZE_##e,
	WR_SIZE_MODES(WR_X)
#undef WR_X
	WR_SIZE__COUNT
};

struct wr_size_weight {
	uint16_t size;   /**< frame size incl. FCS */
	uint32_t weight; /**< >= 1 */
};

/**
 * Frame size incl. FCS.
 * - FIXED:  fixed.
 * - INC:    from, from+step, ... <= to, then back to from (step >= 1).
 * - RANDOM: uniform in [from, to] from the seeded generator.
 * - MIX:    a weighted cycle, e.g. simple IMIX 64:7, 594:4, 1518:1.  A cycle
 *           of sum(weights) frames holds each size exactly `weight` times,
 *           spread smoothly (see wr_frame.h for the order).
 * min/max are filled by the loader for every mode (the smallest and largest
 * size the stream can send).
 */
struct wr_size_spec {
	enum wr_size_mode mode;
	uint16_t fixed;
	uint16_t from;
	uint16_t to;
	uint16_t step;
	struct wr_size_weight *mix; /**< owned, n_mix entries (MIX only) */
	uint32_t n_mix;
	uint16_t min;
	uint16_t max;
};

#define WR_PAYLOAD_KINDS(X)             \
	X(ZEROS, "zeros")               \
	X(PATTERN, "pattern")           \
	X(STRING, "string")             \
	X(INC, "inc")

enum wr_payload_kind {
#define WR_X(e, name) WR_PAYLOAD_##e,
	WR_PAYLOAD_KINDS(WR_X)
#undef WR_X
	WR_PAYLOAD__COUNT
};

/**
 * Payload bytes after the UDP header (after the latency signature, if any).
 * Byte k of the payload is a pure function of k, so every frame size of a
 * stream carries a prefix of the same byte sequence:
 * - ZEROS:   0.
 * - PATTERN: bytes[k % len] (a hex pattern such as "deadbeef", repeated).
 * - STRING:  bytes[k] for k < len, then 0.  The loader rejects a string that
 *            does not fit the smallest frame of the stream.
 * - INC:     k & 0xff.
 */
struct wr_payload_spec {
	enum wr_payload_kind kind;
	uint8_t *bytes; /**< owned (PATTERN, STRING) */
	uint32_t len;
};

#define WR_RATE_UNITS(X)                \
	X(MAX, "max")                   \
	X(PPS, "pps")                   \
	X(BPS_L1, "bps L1")             \
	X(BPS_L2, "bps L2")             \
	X(PERCENT, "%")

enum wr_rate_unit {
#define WR_X(e, name) WR_RATE_##e,
	WR_RATE_UNITS(WR_X)
#undef WR_X
	WR_RATE__COUNT
};

/**
 * A stream's rate.  MAX: as fast as the port takes frames.
 * PPS: value is in milli-packets per second ("1.2 Mpps" -> 1200000000).
 * BPS_L1 / BPS_L2: value in bits per second.
 * PERCENT: value in millionths of the port's link speed at L1
 *          ("50%" -> 500000).
 */
struct wr_rate_spec {
	enum wr_rate_unit unit;
	uint64_t value;
};

/**
 * A rate ramp as written (`ramp:`): rates are converted to packet rates
 * once the port's link speed is known, then run by struct wr_ramp
 * (wr_sched.h).  A ramp replaces the stream's `rate:`.
 */
struct wr_ramp_spec {
	enum wr_ramp_shape shape;
	enum wr_ramp_end at_end;
	struct wr_rate_spec from;  /**< never WR_RATE_MAX */
	struct wr_rate_spec to;
	struct wr_rate_spec step;
	uint64_t step_ns;          /**< >= 1 */
};

/** Where a stream's mapping starts in its file, for errors found later. */
struct wr_mark {
	unsigned int line; /**< 1-based */
	unsigned int col;  /**< 1-based */
};

struct wr_replay_spec; /* wr_replay.h */
#define WR_LAYERS_MAX 16
#define WR_RAW_MAX 256 /**< bytes of one raw layer */

/**
 * One layer of a frame stack (wr_proto.h): the protocol, where the file
 * wrote it, and one spec per field of the protocol (proto->n_fields,
 * owned; set[i] says the file gave field i, else it holds the default).
 */
struct wr_layer {
	const struct wr_proto *proto;
	struct wr_mark mark;
	struct wr_field_spec *field;
	bool *set;
	uint8_t *raw;      /**< raw layer: its bytes (owned) */
	uint16_t raw_len;
};

struct wr_stream {
	char name[WR_STREAM_NAME_MAX];
	struct wr_mark mark;
	uint16_t port;      /**< index into the run's port list (config) */
	uint64_t count;     /**< frames to send; 0 = unlimited */
	struct wr_rate_spec rate;
	uint64_t seed;      /**< effective seed: stream's, else the file's */
	bool seed_set;      /**< the stream itself said `seed:` */
	bool vlan;          /**< an 802.1Q tag is present */
	uint8_t ecn;        /**< IPv4 ECN, 0..3 (fixed) */
	bool df;            /**< IPv4 don't-fragment bit (fixed) */
	bool latency;       /**< carry a wr_sig after the UDP header (issue 4) */
	bool sig_short;     /**< `latency: loss`: the 16-byte loss-only signature */
	/**
	 * `eth: {dst: arp}`: the run resolves eth.dst by ARP before sending
	 * (doc/arp.md) and writes it into field[WR_FIELD_ETH_DST] as FIXED;
	 * until then that field holds the default.
	 */
	bool dst_arp;
	/** With dst_arp, a stack stream's `eth: {dst: nd}`: the next hop is
	 * its IPv6 dst, resolved by Neighbor Solicitation (wr_nd.h). */
	bool dst_nd;
	uint32_t gateway;   /**< `ipv4.gateway` (or a stack's `gateway:`): the next hop dst_arp resolves; 0: ipv4.dst */
	__uint128_t gateway6; /**< a stack's `gateway:` with dst: nd; 0: ipv6.dst */
	enum wr_combine combine;
	struct wr_field_spec field[WR_FIELD__COUNT];
	/**
	 * `stack:` streams: the layers, outermost first; field[], vlan, ecn
	 * and df are then unused.  0 for the shorthand (eth/vlan/ipv4/udp
	 * keys), which wr_stream_legacy_stack() turns into the same stack.
	 */
	struct wr_layer *layers; /**< owned */
	uint32_t n_layers;
	struct wr_size_spec size;
	struct wr_payload_spec payload;
	/* Schedules (wr_sched.h): all optional, all 0/false when absent. */
	uint64_t duration_ns;   /**< an activation ends after this long; 0 = no limit */
	uint32_t burst;         /**< frames per TX burst; 0 = the profile's */
	uint32_t train_frames;  /**< `bursts:` frames per train; 0 = continuous */
	uint64_t train_gap_ns;  /**< `bursts:` gap between trains (> 0 with trains) */
	bool has_next;          /**< the stream said `next:` */
	enum wr_sched_next next; /**< what follows it in its port's sequence */
	bool has_ramp;
	struct wr_ramp_spec ramp;
	/** `pcap:` or `frame:` (wr_replay.h): the frames are these, not
	 * generated; owned; NULL for a generated stream. */
	struct wr_replay_spec *replay;
};

struct wr_stream_file {
	char path[WR_ERROR_FILE_MAX];
	unsigned int version;
	uint64_t seed;      /**< file-level seed (default 1) */
	bool seed_set;
	struct wr_stream *streams; /**< owned, n_streams entries */
	uint32_t n_streams;
	uint8_t sha256[32]; /**< digest of the file's bytes as read */
	uint64_t loops;     /**< passes of a sequence (`next: first`); 0 = for ever */
	/** rx_classes: counted after the profile's (wr_filter.h). */
	struct wr_rx_classes classes;
};

/**
 * True when the streams of @p port run one after another (a sequence, as
 * Ostinato's): some stream of that port says `next:`.  The others default
 * to `next: next`.  Otherwise the port's streams all run together.
 */
bool wr_stream_file_port_sequenced(const struct wr_stream_file *f,
				   uint16_t port);

/**
 * Whether every stream of @p f ends by itself: its count, its duration,
 * its capture's passes (`loops:`) or a ramp with `at_end: stop`; on a
 * sequenced port, also the sequence (a `next: first` needs the file's
 * `loops:`).
 * @return -1 when all do, else the index of the first that never ends.
 */
int wr_stream_file_endless(const struct wr_stream_file *f);

/** Free what a wr_stream_file owns (not the struct itself).  NULL-safe. */
void wr_stream_file_free(struct wr_stream_file *f);

/**
 * The stack of a shorthand stream: eth / [vlan] / ipv4 / udp with its
 * field[] values.  @p out must hold 4 layers; free with
 * wr_stream_layers_free(out, n).  @return the number of layers, -ENOMEM.
 */
int wr_stream_legacy_stack(const struct wr_stream *s, struct wr_layer *out);

/**
 * Fill @p l as a layer of @p p with every field at its default.
 * @return 0, -ENOMEM.
 */
int wr_layer_init(struct wr_layer *l, const struct wr_proto *p);

/**
 * Header bytes of a stream's frames before the payload (or signature):
 * the sum of its layers' lengths (42 for Ethernet/IPv4/UDP, 46 tagged).
 */
uint32_t wr_stream_hdr_len(const struct wr_stream *s);

/** Bytes of the Ethernet header and the VLAN tags right after it. */
uint32_t wr_stream_l2_len(const struct wr_stream *s);

/** Free what @p n layers own (not the array).  NULL-safe. */
void wr_stream_layers_free(struct wr_layer *l, uint32_t n);

/** Free what a stream owns.  NULL-safe. */
void wr_stream_free(struct wr_stream *s);

/**
 * Find a stream by name.  @return its index, or -ENOENT.
 */
int wr_stream_file_find(const struct wr_stream_file *f, const char *name);

/**
 * Override the seed of the file and of every stream, including streams that
 * set their own (command line `--seed`: the user asked for this seed).
 */
void wr_stream_file_set_seed(struct wr_stream_file *f, uint64_t seed);

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
struct wr_proto;

#endif /* WR_STREAM_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream: the stream model, what a stream file describes, free of YAML and of DPDK. */
#ifndef WR_STREAM_H
#define WR_STREAM_H

/**
 * @file
 * A stream file holds one or more named streams.  Each stream describes one
 * frame, a stack of protocol layers (struct wr_layer, wr_proto.h), then a
 * payload; how its header fields vary per packet, its frame size (fixed,
 * stepped, random or a weighted mix), how many frames to send and at what
 * rate.  A stream file writes the stack as `stack:` or as the shorthand
 * keys eth:, vlan:, ipv4:, udp:, which the loader turns into the stack they
 * stand for (wr_stream_shorthand): there is one model.
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
 * The functions that reach a stream's frame source (free, set_mac, seeds,
 * endless: the field engine's and the replay's specs) are declared here
 * and defined above those sources, in frame/wr_stream_src.c.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_filter.h"
#include "wr_host_spec.h"
#include "wr_tcp_spec.h"
#include "wr_parse.h"
#include "wr_proto.h"
#include "wr_sched.h"
#include "wr_vary.h"
#include "wr_wire.h"

#define WR_STREAM_NAME_MAX 64
#define WR_STREAMS_MAX 256
#define WR_FILE_VERSION 1 /**< the only `version:` this build reads */

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

/** Which address of a stream a host reference gives (doc/hosts.md). */
enum wr_host_ref_kind {
	WR_HREF_SRC_MAC,   /**< eth.src: host k's MAC */
	WR_HREF_SRC_IP,    /**< ipv4.src / ipv6.src: its IPv4, its first global IPv6 */
	WR_HREF_VLAN,      /**< vlan.id of the stream's tag @c tag: the host's */
	WR_HREF_DST_MAC,   /**< eth.dst: the groups' multicast MACs (RFC 1112, 2464) */
	WR_HREF_DST_IP,    /**< ipv4.dst / ipv6.dst: the groups the hosts joined */
};

/**
 * A header field a stream takes from a group of hosts (`src: hosts.NAME`,
 * `dst: hosts.NAME.groups`), as the file wrote it: the loader reads it
 * with the stream and checks it against the file's `hosts:` once both
 * are read (lib/core/load/wr_stream_hosts.h), where it was written kept
 * for that error.
 */
struct wr_host_ref {
	char group[WR_HOST_GROUP_NAME_MAX];
	uint8_t kind;           /**< enum wr_host_ref_kind */
	uint8_t layer;          /**< index into the stream's layers */
	uint8_t field;          /**< index into that layer's fields */
	uint8_t tag;            /**< VLAN: 0 the outer tag, 1 the inner */
	bool v6;                /**< SRC_IP/DST_IP: an IPv6 layer's */
	bool implied;           /**< filled because another field named the group */
	struct wr_mark mark;
	char path[WR_ERROR_PATH_MAX];
};

struct wr_replay_spec; /* wr_replay.h */
struct wr_fe_spec;     /* wr_fe.h */
struct wr_stream {
	char name[WR_STREAM_NAME_MAX];
	struct wr_mark mark;
	uint16_t port;      /**< index into the run's port list (config) */
	uint64_t count;     /**< frames to send; 0 = unlimited */
	struct wr_rate_spec rate;
	uint64_t seed;      /**< effective seed: stream's, else the file's */
	bool seed_set;      /**< the stream itself said `seed:` */
	bool latency;       /**< carry a wr_sig after the UDP header (issue 4) */
	bool sig_short;     /**< `latency: loss`: the 16-byte loss-only signature */
	/**
	 * `eth: {dst: arp}`: the run resolves eth.dst by ARP before sending
	 * (doc/arp.md) and writes it into the first layer's eth.dst as FIXED;
	 * until then that field holds the default.
	 */
	bool dst_arp;
	/** With dst_arp, a stack stream's `eth: {dst: nd}`: the next hop is
	 * its IPv6 dst, resolved by Neighbor Solicitation (wr_nd.h). */
	bool dst_nd;
	/**
	 * `eth: {src: port}` / `{dst: port}` (WR_MAC_PORT_SRC, _DST bits): the
	 * MAC comes from the stream's port when a run starts (the profile's
	 * src_mac/dst_mac, else the port's own MAC as source), as TRex takes
	 * it from its port configuration; until then wirerate's defaults.
	 */
	uint8_t mac_port;
	uint32_t gateway;   /**< `ipv4.gateway` (or a stack's `gateway:`): the next hop dst_arp resolves; 0: ipv4.dst */
	__uint128_t gateway6; /**< a stack's `gateway:` with dst: nd; 0: ipv6.dst */
	enum wr_combine combine;
	/** The layers, outermost first; none for a replayed stream. */
	struct wr_layer *layers; /**< owned */
	uint32_t n_layers;
	struct wr_size_spec size;
	struct wr_payload_spec payload;
	/* Schedules (wr_sched.h): all optional, all 0/false when absent. */
	uint64_t duration_ns;   /**< an activation ends after this long; 0 = no limit */
	uint64_t isg_ns;        /**< `isg:` from an activation to its first frame (TRex's inter-stream gap); 0 = none */
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
	/** `frame:` with TRex's field engine (`vars:`, `checksums:`, `trim:`,
	 * `cache:`; wr_fe.h): generated from the frame's bytes per packet;
	 * owned; NULL otherwise. */
	struct wr_fe_spec *fe;
	/** Fields from hosts (`src: hosts.NAME`, doc/hosts.md); owned. */
	struct wr_host_ref *host_refs;
	uint32_t n_host_refs;
	/** The group the stream sends from: 1 + its index in the file's
	 * hosts' groups, 0: none (a stream built in code is zeroed).  Set
	 * by the loader. */
	uint32_t host_src;
	/** The group whose joined multicast groups it sends to, as host_src. */
	uint32_t host_dst;
	/** Some field takes addresses hosts have only once up (DHCP,
	 * SLAAC): the session fills it after every bring-up
	 * (wr_stream_hosts_fill), hosts_filled then. */
	bool hosts_late;
	bool hosts_filled;
	/** Hosts it sends from: the group's count for static addresses,
	 * those that came up once filled; and those skipped (failed). */
	uint32_t hosts_from;
	uint32_t hosts_skipped;
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
	/** hosts: the emulated hosts of every port (doc/hosts.md). */
	struct wr_host_specs hosts;
	/** tcp: the stateful classes (doc/tcp.md). */
	struct wr_tcp_specs tcp;
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
 * Give @p s (without layers) the stack the shorthand keys stand for:
 * eth / [vlan when @p vlan] / ipv4 / udp, every field at its module's
 * default (02:00:00:00:00:01 -> 02:00:00:00:00:02, 198.18.0.1 ->
 * 198.19.0.1, TTL 64, DF, UDP 1024 -> 1024), each layer's key its
 * protocol's name.  @return 0, -ENOMEM.
 */
int wr_stream_shorthand(struct wr_stream *s, bool vlan);

/**
 * Field @p key ("ipv4.src": protocol.field) of the first layer of that
 * protocol in @p s's stack: what the shorthand key of that name sets.
 * @return it, or NULL when the stack has no such layer or field.
 */
struct wr_field_spec *wr_stream_field(const struct wr_stream *s,
				      const char *key);

/**
 * The address field of role @p role (WR_ROLE_SRC_ADDR, WR_ROLE_DST_ADDR)
 * of the outermost IP layer of @p s whose addresses are of kind @p kind
 * (WR_VAL_IPV4, WR_VAL_IPV6): the one on the port's own link (inner
 * layers of a tunnel belong to another).  @return it, or NULL.
 */
struct wr_field_spec *wr_stream_addr(const struct wr_stream *s,
				     unsigned int kind, unsigned int role);

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

/**
 * The header length of layer @p l: its protocol's, a raw layer's bytes, or
 * what its options make it (wr_proto_layout).  @return it, or 0 when the
 * layer cannot be laid out (the frame compiler says why).
 */
uint32_t wr_layer_hlen(const struct wr_layer *l);

#define WR_MAC_PORT_SRC 1
#define WR_MAC_PORT_DST 2

/**
 * Write @p mac (48 bits, first byte most significant) as the fixed source
 * (@p dst false) or destination MAC of @p s: its stack's first eth layer
 * or its frame's bytes (wr_fe).  A replayed stream's frames are its
 * capture's: nothing is written.
 */
void wr_stream_set_mac(struct wr_stream *s, bool dst, uint64_t mac);

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

struct wr_proto;

#endif /* WR_STREAM_H */

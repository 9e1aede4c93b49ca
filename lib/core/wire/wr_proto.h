/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_proto: one protocol layer of a frame stack, described as data (one module per protocol). */
#ifndef WR_PROTO_H
#define WR_PROTO_H

/**
 * @file
 * A frame is a stack of layers, outermost first (eth, vlan, ipv4, udp).
 * Each protocol is one module, lib/core/wire/proto/wr_proto_<name>.c, that
 * defines a `const struct wr_proto` and nothing else: its header length, its
 * fields (the YAML keys, with defaults, widths up to 128 bits and where they
 * sit), what the layer below must say to carry it (an EtherType, an IP
 * protocol number, a UDP port), which of its fields says that about the
 * layer above, its length field and its checksum rule.  wr_frame compiles a
 * stack, once, into the flat per-packet edit table the TX loop runs; nothing
 * per packet asks which protocol it looks at.  What other code needs to
 * know of a protocol is a flag or a field role here (a link header, a tag,
 * an IP layer, which offload, which checksum, which field is a source
 * address), never its name.  Adding a protocol is one module plus one line
 * in proto/wr_protos.def, the registry that wr_proto.c's table and the
 * build both read.
 *
 * Read-only data: any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wr_field.h"

#define WR_PROTO_FIELDS_MAX 16 /**< fields of one protocol */
/** Most bytes of one layer's header (options, segments, extensions). */
#define WR_HDR_MAX 512
/** wr_layout.off of a field the header does not have (an optional part
 * that is absent). */
#define WR_OFF_NONE 0xffff

struct wr_layer;


/** What a field means to the layers around it (wr_proto_field.role). */
enum wr_field_role {
	WR_ROLE_PLAIN,
	/** Says which protocol the layer above is: EtherType (eth.type,
	 * vlan.type, gre.proto), IP protocol (ipv4.proto, ipv6.next).
	 * Default: what the layer above needs (wr_proto.ethertype/ipproto). */
	WR_ROLE_NEXT_ETHERTYPE,
	WR_ROLE_NEXT_IPPROTO,
	/** udp.dst: default the layer above's UDP port (vxlan: 4789). */
	WR_ROLE_NEXT_UDP_PORT,
	/** An IP source address: in the pseudo-header of the L4 layer above;
	 * the first layer's of a family is what a port answers ARP/ND for. */
	WR_ROLE_SRC_ADDR,
	/** An IP destination address: in the pseudo-header of the L4 layer
	 * above; the first layer's of a family is the next hop `arp`/`nd`
	 * resolve. */
	WR_ROLE_DST_ADDR,
	/** vlan.tpid: this layer's own EtherType towards the layer below. */
	WR_ROLE_MY_ETHERTYPE,
	/** mpls.s: 1 on the last label of a stack, 0 otherwise. */
	WR_ROLE_BOTTOM,
	/** eth.dst of the first layer: the next hop's MAC, which the word
	 * arp (or nd) resolves before sending. */
	WR_ROLE_LINK_DST,
	/** eth.src of the first layer: the port's own MAC when the file says
	 * port (wr_stream_set_mac). */
	WR_ROLE_LINK_SRC,
};

/** Which checksum a NIC computes for a layer (wr_frame_offload). */
enum wr_offload {
	WR_OL_NONE,
	WR_OL_IPV4,  /**< an IPv4 header checksum, pseudo-header for L4 */
	WR_OL_IPV6,  /**< pseudo-header for L4 */
	WR_OL_UDP,
	WR_OL_TCP,
};

/**
 * One field of a header: @c bits wide, in a big-endian span of @c span
 * bytes at byte @c off of the header, shifted left by @c shift bits in that
 * span (vlan.pcp: off 0 of the TCI byte, span 1, bits 3, shift 5).  Other
 * bits of the span belong to other fields or are constant.
 */
struct wr_proto_field {
	const char *name;
	uint16_t off;
	uint8_t span;   /**< 1..16 bytes */
	uint8_t bits;   /**< 1..128 */
	uint8_t shift;  /**< only when span <= 8 */
	uint8_t kind;   /**< enum wr_val_kind */
	uint8_t role;   /**< enum wr_field_role */
	/**
	 * Tag of the field's random sub-sequence when the layer is the first
	 * of its protocol in the stack, + 1: the id the field had in the
	 * first, fixed frame model (eth.src 0, eth.dst 1, vlan.id 2, vlan.pcp
	 * 3, ipv4.src 4, ipv4.dst 5, ipv4.id 6, ipv4.ttl 7, ipv4.dscp 8,
	 * udp.src 9, udp.dst 10), so that streams written before layers draw
	 * the same values; 0 for fields it did not have.
	 */
	uint8_t legacy_tag;
	uint64_t def_hi;  /**< default, high 64 bits (IPv6 addresses) */
	uint64_t def;     /**< default, low 64 bits */
	const char *doc;  /**< one line for `check` and the README table */
};

/** Checksum rule of a layer. */
enum wr_csum_rule {
	WR_CSUM_NONE,
	WR_CSUM_HEADER,  /**< the header only (IPv4) */
	WR_CSUM_PSEUDO,  /**< pseudo-header of the IP layer below + header +
			      everything after it (UDP, TCP, ICMPv6) */
	WR_CSUM_PLAIN,   /**< header + everything after it (ICMPv4) */
	/** CRC32c over the header and everything after it, the field zero
	 * (SCTP, RFC 9260 section 6.8), 4 bytes, little-endian. */
	WR_CSUM_CRC32C,
};

/**
 * A layer as one frame has it (wr_proto.layout): how long its header is,
 * where each field sits in it, its checksum, and every byte that is not a
 * field (version nibbles, flags, lengths of its options, the options).
 */
struct wr_layout {
	uint16_t hlen;
	uint16_t off[WR_PROTO_FIELDS_MAX]; /**< of field j; WR_OFF_NONE: absent */
	uint8_t csum;                      /**< enum wr_csum_rule */
	uint16_t csum_off;
	/** Where in the header the address an L4 checksum above takes as
	 * its destination sits (an SRv6 segment list's last segment, RFC
	 * 8200 section 8.1); 0: the IP layer's own destination. */
	uint16_t final_dst;
	/** Fields the hook wrote a default of its own for (bit j: a default
	 * that follows the options, SRv6's segments left): the module's
	 * default is not written over it, a value the file gave is. */
	uint32_t computed;
	uint8_t bytes[WR_HDR_MAX];
	char why[160];                     /**< what is wrong, on -EINVAL */
};

/**
 * The items a layer takes from the stream file under @c key (a list): each
 * a mapping of the named values @c fields (name, kind, bits, default; off
 * and span unused) and, when @c data_max, `data: "hex"`; or, when
 * @c bare, fields[0]'s value alone (a segment's address).
 */
struct wr_proto_opts {
	const char *key;
	const struct wr_proto_field *fields;
	uint8_t n_fields;
	uint16_t data_max;
	bool bare;
	uint16_t max;       /**< items */
	const char *doc;    /**< for `check` and doc/stack.md */
};

/** The bit of rank @p r (1..5) in wr_proto.ext_ranks. */
#define WR_EXT_RANK(r) ((uint8_t)(1u << (r)))

/** What a layer may carry above it. */
enum wr_carry {
	WR_CARRY_NOTHING,   /**< payload only (L4, raw) */
	WR_CARRY_ETHERTYPE, /**< eth, vlan, gre: by EtherType */
	WR_CARRY_IPPROTO,   /**< ipv4, ipv6: by IP protocol number */
	WR_CARRY_UDP_PORT,  /**< udp: vxlan by destination port */
	WR_CARRY_ETH,       /**< vxlan: a whole inner Ethernet frame */
	WR_CARRY_MPLS,      /**< mpls: more labels or IPv4/IPv6 */
	WR_CARRY_IP,        /**< IPv4 or IPv6, told by the version nibble */
	WR_CARRY_CHUNK,     /**< sctp: a chunk, by its type */
};

/**
 * What a received header says of the layer after it (wr_proto.rx): the
 * kind of name (enum wr_carry: an EtherType, an IP protocol number, a UDP
 * port, a link header, an IP version; WR_CARRY_NOTHING: payload follows)
 * and the name.
 */
struct wr_rx_next {
	uint8_t carry;
	uint32_t value;
	/** What follows is one fragment of a datagram (an IPv4 fragment,
	 * an IPv6 fragment header's payload, not atomic): a header in it
	 * may be read, but a checksum over the datagram above it covers
	 * bytes this frame does not hold.  Set by the rx hook of a layer
	 * that fragments (true or false), left alone by the others: a
	 * caller that reads it clears it first (wr_pkt_csums; the RX
	 * loop's walk, wr_pkt_parse, does not read it). */
	bool frag;
};

/**
 * How long a received header is, as data (wr_proto.rx_hlen), for readers
 * that cannot run the rx hook (the Python TRex converter, through
 * wr_proto_json): @c base bytes, plus @c unit bytes times the count in
 * byte @c off: (h[off] & mask) >> shift, or, with @c bits, the number of
 * bits of @c mask set there (GRE's C, K and S flags each add a word).
 * unit 0: the header is hlen bytes.  @c chain: the rx hook's length is
 * no such rule (GTP-U's chain of extension headers): a reader without the
 * hook stops there.  With @c frag_mask, what follows is one fragment of a
 * datagram (wr_rx_next.frag) when the 16-bit word at @c frag_off has any
 * of its bits set.  test_proto checks every module's against its rx.
 */
struct wr_rx_hlen {
	uint8_t off;
	uint8_t mask;
	uint8_t shift;
	uint8_t unit;
	uint8_t base;
	bool bits;
	bool chain;
	uint8_t frag_off;
	uint16_t frag_mask;
};

struct wr_proto {
	const char *name;         /**< the YAML key: "ipv4" */
	const char *title;        /**< for `check`: "IPv4" */
	uint16_t hlen;            /**< header bytes; 0 for raw (its own bytes) */
	const struct wr_proto_field *fields;
	uint8_t n_fields;
	/** Bytes every header has, written before the fields (version
	 * nibbles, data offsets, ICMP types): hlen bytes, or NULL. */
	const uint8_t *fixed;
	uint8_t carry;            /**< enum wr_carry */
	/** What the layer below must say to carry this one; 0: cannot. */
	uint16_t ethertype;
	uint8_t ipproto;
	/** Its IP protocol number is 0 (IPv6 hop-by-hop options), which
	 * ipproto cannot say. */
	bool ipproto_zero;
	uint16_t udp_port;
	bool over_mpls;           /**< may sit on an MPLS label (IP, mpls) */
	/** A link header (Ethernet): a frame's first layer, and what a
	 * layer that carries a whole frame (vxlan) carries. */
	bool link;
	/** A tag (802.1Q, 802.1ad): with the link header before it, the L2
	 * header a NIC's l2_len counts and the one ARP/ND questions carry. */
	bool tag;
	bool l3;                  /**< an IP layer: gives L4 its pseudo-header */
	/** What follows it is the application's data: goodput counts the
	 * bytes after the innermost such header (UDP, TCP). */
	bool goodput;
	uint8_t offload;          /**< enum wr_offload */
	/** A UDP layer under it sends checksum 0 (RFC 7348 section 5),
	 * unless the IP layer under that UDP says l4_csum_required. */
	bool zero_udp_csum_below;
	/** L4 checksums over it may not be 0 (IPv6: RFC 8200 section 8.1). */
	bool l4_csum_required;
	uint8_t csum;             /**< enum wr_csum_rule */
	uint8_t csum_off;
	/**
	 * Length field: -1 none; else a 16-bit field at this offset holding
	 * the bytes from byte len_base of the header (0: its start; 40:
	 * IPv6's payload length; 8: GTP-U's) to the end of the frame.
	 */
	int8_t len_off;
	uint8_t len_base;
	/** The pseudo-header carries the L4 length (UDP, TCP, ICMPv6). */
	bool pseudo_len;
	/** A checksum that computes to 0 is sent as 0xffff (RFC 768). */
	bool csum_ffff;
	/** An IP layer's version (4, 6): what a version nibble names. */
	uint8_t ip_version;
	/** An SCTP chunk (of type chunk_type): what sctp carries. */
	bool chunk;
	uint8_t chunk_type;
	/** Nothing may follow it, no payload nor signature: the frame ends
	 * with it (an SCTP INIT chunk, whose length is its own). */
	bool no_payload;
	/** Other EtherTypes that announce it on receive (a tag: 802.1ad's
	 * 0x88a8 and the older 0x9100 besides 0x8100); 0: none. */
	uint16_t rx_ethertypes[2];
	/**
	 * Receive (optional): the header at @p h, @p len bytes before the
	 * frame's end, is this protocol's.  @return its length, with what it
	 * says of the next layer in @p next; 0 when the bytes are not such a
	 * header after all (a datagram to port 4789 that is no VXLAN): what
	 * follows is payload; -EINVAL when the frame ends inside it.  NULL:
	 * hlen bytes, the next layer named by the field of the NEXT_* role
	 * that matches carry (wr_proto_rx).
	 */
	int (*rx)(const uint8_t *h, uint32_t len, struct wr_rx_next *next);
	/** The length rx finds, as data, for a header whose length its
	 * bytes say (struct wr_rx_hlen); unit 0: hlen. */
	struct wr_rx_hlen rx_hlen;
	/**
	 * Receive (optional): where the checksum of the received header at
	 * @p h (@p len bytes to the frame's end) is, for a protocol whose
	 * header has one or not by its flags (GRE's C bit).  @return the
	 * rule (enum wr_csum_rule) with its offset in @p off, WR_CSUM_NONE
	 * when this header carries none.  NULL: csum and csum_off.
	 */
	uint8_t (*rx_csum)(const uint8_t *h, uint32_t len, uint16_t *off);
	/**
	 * An IPv6 extension header (or the like) between an IP layer of
	 * version ext_of and the L4 header: the L4 pseudo-header's addresses
	 * are the IP layer's, its protocol the one this header names.  Its
	 * allowed places in a chain of them (RFC 8200 section 4.1), one bit
	 * a rank 1..5 (hop-by-hop, destination options, routing, fragment,
	 * destination options again): the ranks along a chain increase.
	 */
	uint8_t ext_of;
	uint8_t ext_ranks;        /**< WR_EXT_RANK(r) bits */
	/** The list of items it takes from the stream file (options), or NULL. */
	const struct wr_proto_opts *opts;
	/**
	 * Lay out one layer (optional): @p lo arrives as the generic layout
	 * (hlen, fields at their offsets, the fixed bytes, the checksum
	 * rule) and the hook adds what depends on the layer's fields and
	 * options: optional parts (their flags, where the fields after them
	 * move), options encoded, lengths that count them.  @return 0, or
	 * -EINVAL with @p lo->why (a field that decides the length varies).
	 */
	int (*layout)(const struct wr_layer *l, struct wr_layout *lo);
};

/** Where a stream's mapping starts in its file, for errors found later. */
struct wr_mark {
	unsigned int line; /**< 1-based */
	unsigned int col;  /**< 1-based */
};

#define WR_LAYERS_MAX 16
#define WR_RAW_MAX 256 /**< bytes of one raw layer */

#define WR_LAYER_KEY_MAX 32
#define WR_OPT_FIELDS_MAX 4   /**< named values of one option item */
#define WR_OPTS_MAX 64        /**< option items of one layer */
#define WR_OPT_DATA_MAX 252   /**< bytes of one item's data */

/**
 * One item of a layer's option list (wr_proto_opts: an IPv4 or IPv6
 * option, a Geneve option, an SRv6 segment, a GTP-U extension header), as
 * the file wrote it: its named values in the descriptor's order (set[i]:
 * given, else the descriptor's default) and its data bytes.  The module
 * encodes the items into its header (wr_proto.layout).
 */
struct wr_opt {
	__uint128_t v[WR_OPT_FIELDS_MAX];
	bool set[WR_OPT_FIELDS_MAX];
	uint8_t *data;     /**< owned, data_len bytes; NULL: none */
	uint16_t data_len;
};

/** Copy an option item's data bytes to dst (an item without data has
 * data NULL, and memcpy from NULL is undefined even for 0 bytes). */
static inline void
wr_opt_put_data(uint8_t *dst, const struct wr_opt *o)
{
	if (o->data_len != 0)
		memcpy(dst, o->data, o->data_len);
}

/**
 * One layer of a frame stack (wr_proto.h): the protocol, where the file
 * wrote it (its line and its key path under the stream: "ipv4" for a
 * shorthand key, "stack[2].ipv4"), and one spec per field of the protocol
 * (proto->n_fields, owned; set[i] says the file gave field i, else it holds
 * the default), and its option items when the protocol takes some.
 */
struct wr_layer {
	const struct wr_proto *proto;
	struct wr_mark mark;
	char key[WR_LAYER_KEY_MAX];
	struct wr_field_spec *field;
	bool *set;
	uint8_t *raw;      /**< raw layer: its bytes (owned) */
	uint16_t raw_len;
	struct wr_opt *opts; /**< owned, n_opts items */
	uint16_t n_opts;
};

/** The registered protocols, in wr_proto.c's table order. */
extern const struct wr_proto *const wr_protos[];
extern const unsigned int wr_n_protos;

/** A protocol by YAML name, NULL if unknown. */
const struct wr_proto *wr_proto_find(const char *name);

/** A field of @p p by name: its index, or -ENOENT. */
int wr_proto_field_find(const struct wr_proto *p, const char *name);

/**
 * The random sub-sequence tag a generated stream's field @p key
 * ("eth.src": protocol.field) draws with in the first layer of its
 * protocol (wr_proto_field.legacy_tag - 1).  @return it, or -ENOENT for a
 * field that has none.
 */
int wr_proto_rng_tag(const char *key);

/** The first field of @p p with role @p role (enum wr_field_role): its
 * index, or -ENOENT. */
int wr_proto_field_role(const struct wr_proto *p, unsigned int role);

/** A comma-separated list of the registered names, for error messages. */
const char *wr_proto_names(void);

/**
 * Whether @p below carries @p above (wr_proto.carry against what @p above
 * says the layer below must say).  @return NULL when it may; else what
 * @p below carries, in words with the registered layers that fit, written
 * into @p buf (@p len bytes): "a layer with an EtherType (vlan, mpls, ...)".
 */
const char *wr_proto_carry_error(const struct wr_proto *below,
				 const struct wr_proto *above, char *buf,
				 size_t len);

/**
 * The layout of layer @p l (struct wr_layout): the generic one, then the
 * module's hook.  @return 0, or -EINVAL with @p lo->why.
 */
int wr_proto_layout(const struct wr_layer *l, struct wr_layout *lo);

/**
 * Receive: the header of protocol @p p at @p h (@p len bytes to the
 * frame's end), through its rx hook or the generic rule.  @return as
 * wr_proto.rx.
 */
int wr_proto_rx(const struct wr_proto *p, const uint8_t *h, uint32_t len,
		struct wr_rx_next *next);

/**
 * The checksum a received header of protocol @p p at @p h (@p len bytes
 * to the frame's end) carries: its rule (enum wr_csum_rule, WR_CSUM_NONE:
 * none) and its offset in the header in @p off, through the rx_csum hook
 * or csum and csum_off.
 */
uint8_t wr_proto_rx_csum(const struct wr_proto *p, const uint8_t *h,
			 uint32_t len, uint16_t *off);

/**
 * The registered protocol a received header's @p next names (the first in
 * registry order), or NULL when none does (a raw layer, an unknown
 * EtherType or protocol, a UDP port of no tunnel).
 */
const struct wr_proto *wr_proto_rx_next(const struct wr_rx_next *next);

/**
 * The registry as JSON (every protocol in registry order: its names, what
 * announces it, its checksum, length field and fields with their roles)
 * into @p buf (@p len bytes, NUL-terminated when it fits): the table the
 * Python TRex converter reads (python/wirerate/trex/registry.json, which
 * test_proto checks against this).  @return the bytes it needs, without
 * the NUL (snprintf's rule).
 */
size_t wr_proto_json(char *buf, size_t len);

/**
 * The length of the received header of @p p at @p h (@p len bytes to the
 * frame's end) by its rx_hlen, or hlen; 0 when the frame ends first or
 * the module's header length is not data (a chain of extension headers:
 * GTP-U's).
 */
uint32_t wr_proto_rx_hlen(const struct wr_proto *p, const uint8_t *h, uint32_t len);

/** The registry's first link protocol (Ethernet): where a frame starts. */
const struct wr_proto *wr_proto_link(void);

/**
 * The registered layers that may start a frame (wr_proto.link), as "eth"
 * or "a or b", into @p buf.  @return buf.
 */
const char *wr_proto_link_names(char *buf, size_t len);

#endif /* WR_PROTO_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_frame_priv: what the layer stack's files share (wr_frame_layers.c, wr_frame_compile.c, wr_frame_gen.c, wr_frame.c): the template and its edit table. */
#ifndef WR_FRAME_PRIV_H
#define WR_FRAME_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "wr_bytes.h"
#include "wr_replay_pcap.h"
#include "wr_csum.h"
#include "wr_fe.h"
#include "wr_frame.h"
#include "wr_pkt.h"
#include "wr_proto.h"
#include "wr_rng.h"
#include "wr_sig.h"

/*
 * Largest MIX cycle we tabulate (entries of 2 bytes: 2 MiB).  Weights are
 * first divided by their GCD, which leaves the smooth WRR order unchanged
 * (every "current" value scales by the GCD, so every comparison is the
 * same), so only weights with a huge reduced sum, e.g. 1000003:1, hit it.
 */
#define WR_SIZE_CYCLE_MAX (1u << 20)
/* Checksums rewritten per packet: outer IPv4 + outer UDP (VXLAN over
 * IPv6) + inner IPv4 + inner L4 is the deepest registered stack. */
#define WR_CSUMS_MAX 4
#define WR_LENS_MAX (2 * WR_LAYERS_MAX)
/* Checksums one field is in: its IP header, its L4 (pseudo-header), and an
 * outer UDP's that covers the whole inner frame (VXLAN over IPv6). */
#define WR_ACC_MAX 3
/* A multiple of 0xffff (0xffff * 0x100010001): zero to a one's-complement
 * sum, and above every sum taken away from it. */
#define CS_ZERO 0xffffffffffffull
/* Random sub-sequence tags of fields the fixed frame model did not have:
 * above the legacy ids (0..10) and WR_RNG_TAG_SIZE. */
#define WR_RNG_TAG_LAYER 0x200u

/* How a varying slot computes its value from its position. */
enum wr_vf_kind {
	WR_VF_ARITH,       /* INC/DEC: base + pos * delta (mod 2^64) */
	WR_VF_LIST,        /* list[pos] */
	WR_VF_RANDOM,      /* base + uniform [0, range) at the packet index */
	WR_VF_RANDOM_FULL, /* base + a whole 64-bit draw (a /64 prefix) */
	WR_VF_WIDE,        /* 128-bit values: see wkind */
};

/*
 * One varying field, compiled: where it goes and which running checksums
 * it is in.  The value v is stored as (v << shift), written as `width`
 * big-endian bytes keeping the bits in `keep` of what is there (fields
 * that share bytes: the VLAN TCI, DSCP/ECN, the IPv6 flow label), and
 * added to checksum accumulator acc[j] shifted by csh[j] (8 when the field
 * ends at an odd offset of that checksum's region: RFC 1071 byte swap).
 */
struct wr_vf {
	uint8_t kind;
	uint8_t wkind;   /* WIDE: WR_VF_ARITH, _LIST or _RANDOM */
	uint8_t width;   /* 1, 2, 3, 4, 6, 8 or 16 bytes */
	uint8_t shift;
	uint8_t n_acc;
	uint8_t acc[WR_ACC_MAX];
	uint8_t csh[WR_ACC_MAX];
	uint16_t off;
	uint64_t keep;
	uint64_t base;
	uint64_t delta;  /* ARITH: step (two's complement for DEC) */
	uint64_t period; /* ARITH, LIST: number of values */
	uint64_t range;  /* RANDOM: to - from + 1 */
	uint64_t thresh; /* RANDOM: Lemire threshold of range */
	uint64_t key;    /* RANDOM: sub-sequence key */
	uint64_t *list;  /* LIST: owned */
	__uint128_t wbase, wdelta;
	__uint128_t *wlist;  /* WIDE LIST: owned */
	uint64_t whi_mask;   /* WIDE RANDOM: random bits of the high half */
};

/* A checksum rewritten per packet, innermost first. */
struct wr_cs {
	uint16_t off;      /* of the checksum field */
	/* Inner checksums (earlier in cs[]) inside its region: their final
	 * values are added, shifted by nest_sh, before it is folded. */
	uint8_t n_nest;
	uint8_t nest[WR_CSUMS_MAX];
	uint8_t nest_sh[WR_CSUMS_MAX];
	bool ffff;         /* 0 is sent as 0xffff (UDP) */
	bool wide;         /* sums may pass 2^48: fold all 64 bits */
	/* Fields of an inner pseudo-header it takes away (see cancel_l4):
	 * they are summed in accumulator WR_CSUMS_MAX + its index, and the
	 * fold adds CS_ZERO minus that. */
	bool neg;
	/* A CRC32c (SCTP) over [start, end of frame), computed whole from the
	 * frame's bytes once everything under it is written; as an inner
	 * checksum it adds the one's-complement sum of its 4 bytes. */
	bool crc;
	uint16_t start;
	/* Of a fixed size whose bytes from crc_split on never change (the
	 * payload): the register over those is the register before them
	 * shifted (crc_shift) xor crc_tail, so only the bytes before are
	 * run per frame.  0: the whole region is. */
	uint16_t crc_split;
	uint32_t crc_tail;
	struct wr_crc32c_shift *crc_shift; /* owned */
	bool payload;      /* the region runs to the end of the frame */
	uint8_t pay_sh;    /* the payload starts at an odd offset of it: 8 */
	uint64_t cconst;   /* sum of everything in it that never changes */
};

/* A length that follows the frame size: len - sub, written at off (if
 * write) and added to accumulators acc[] shifted by csh[]. */
struct wr_le {
	uint16_t off;
	uint16_t sub;
	bool write;
	uint8_t n_acc;
	uint8_t acc[WR_ACC_MAX];
	uint8_t csh[WR_ACC_MAX];
};

enum wr_size_kind {
	WR_SZ_FIXED,
	WR_SZ_TABLE,  /* INC and MIX: a precomputed cycle */
	WR_SZ_RANDOM,
};

/*
 * A template: the head every source fills (wr_frame_src.h), then the layer
 * stack's compiled table, which another source leaves zero (it keeps its
 * own state in src.priv).
 */
struct wr_frame_tmpl {
	struct wr_frame_src src;
	uint8_t *bytes;      /* packet 0 at max size, FCS excluded (src.bytes) */
	uint16_t max_len;
	uint16_t fixed_len;  /* frame length when sizes are FIXED */
	uint16_t sig_off;    /* 0 when no signature */
	uint8_t sig_kind;    /* WR_SIG_KIND_*: which signature (wr_sig.h) */
	uint16_t pay_off;    /* first payload byte (the signature's, if any) */
	bool product;
	bool is_static;
	uint32_t stream_id;
	uint32_t n_vary;
	uint32_t n_seq;
	uint32_t n_cs;
	uint32_t n_le;
	struct wr_cs cs[WR_CSUMS_MAX];
	struct wr_le le[WR_LENS_MAX];
	/* Checksums the signature is in (indices into cs[]), with parity. */
	uint32_t n_sig_cs;
	uint8_t sig_cs[WR_CSUMS_MAX];
	uint8_t sig_sh[WR_CSUMS_MAX];
	struct wr_frame_offload offload;
	/* The stack, for `check` and the parser's tests. */
	uint32_t n_layers;
	const struct wr_proto *proto[WR_LAYERS_MAX];
	uint16_t layer_off[WR_LAYERS_MAX];
	uint16_t layer_len[WR_LAYERS_MAX];
	/* Sizes. */
	uint8_t size_kind;
	uint16_t size_from;        /* RANDOM */
	uint64_t size_range;       /* RANDOM */
	uint64_t size_thresh;      /* RANDOM */
	uint64_t size_key;         /* RANDOM */
	uint16_t *size_tab;        /* TABLE: sizes incl. FCS */
	uint64_t size_cycle;       /* TABLE: entries */
	/*
	 * psum[n]: one's-complement sum of the first n payload bytes, for every
	 * n up to the largest payload (variable sizes only).
	 */
	uint16_t *psum;
	struct wr_vf vf[WR_FRAME_VARY_MAX];
};

/* The template a source's head belongs to (its first member). */
static inline struct wr_frame_tmpl *
tmpl_of(const struct wr_frame_src *src)
{
	/* The head is the template's first member. */
	return (struct wr_frame_tmpl *)(uintptr_t)src;
}

/* SCTP carries its CRC32c little-endian (RFC 9260 appendix A; Linux's
 * sctp_compute_cksum). */
static inline void
crc_put(uint8_t *p, uint32_t crc)
{
	p[0] = (uint8_t)crc;
	p[1] = (uint8_t)(crc >> 8);
	p[2] = (uint8_t)(crc >> 16);
	p[3] = (uint8_t)(crc >> 24);
}

/* What the compiler knows of one layer. */
struct lay {
	const struct wr_proto *p;
	const struct wr_layer *l;
	uint16_t off;
	uint16_t hlen;
	struct wr_layout lo;   /* this frame's header of it (wr_proto_layout) */
	struct wr_field_spec eff[WR_PROTO_FIELDS_MAX]; /* with defaults resolved */
	char key[48];   /* "ipv4" (a shorthand key) or "stack[2].ipv4" */
	bool first;     /* the first layer of its protocol */
};

/* wr_frame_layers.c: the stack's layout, sizes and packet 0's bytes */
int wr_frame_build_sizes(struct wr_frame_tmpl *t, const struct wr_stream *s,
			 uint16_t *min, uint16_t *max, struct wr_error *err);
uint8_t wr_frame_payload_byte(const struct wr_payload_spec *ps, uint32_t k);
__uint128_t wr_frame_bits_max(unsigned int bits);
int wr_frame_lay_fail(struct wr_error *err, const struct lay *y, const char *field,
		      const char *fmt, const char *a, const char *b);
int wr_frame_check_field(const struct wr_field_spec *fs, const struct wr_proto_field *pf,
			 const struct lay *y, struct wr_error *err);
bool wr_frame_field_varies(const struct wr_field_spec *fs);
uint64_t wr_frame_field_key(const struct wr_stream *s, const struct lay *y, unsigned int li,
			    unsigned int fi);
int wr_frame_stack_layout(struct lay *ly, uint32_t n, const struct wr_stream *s,
			  uint16_t *hdr_len, struct wr_error *err);
void wr_frame_write_layers(const struct lay *ly, uint32_t n, const struct wr_stream *s,
			   uint8_t *b);
bool wr_frame_in_pseudo(const struct lay *ly, uint32_t c, uint32_t li, unsigned int j);
uint64_t wr_frame_pseudo_sum(const struct lay *ly, uint32_t i, const uint8_t *b);
uint64_t wr_frame_region_sum(const struct lay *ly, uint32_t i, const uint8_t *b, uint16_t end,
			     uint16_t l4len);
bool wr_frame_csum_off(const struct lay *ly, uint32_t n, uint32_t i);
bool wr_frame_covers(const struct lay *ly, uint32_t i, uint16_t off, uint16_t w,
		     uint8_t *csh);

/* wr_frame_compile.c: the varying fields, lengths and checksums compiled; the stack source's build */
bool wr_frame_stack_wants(const struct wr_stream *s);
int wr_frame_stack_build(struct wr_frame_src *src, const struct wr_stream *s,
			 struct wr_error *err);
void wr_frame_stack_free(struct wr_frame_src *src);

#endif /* WR_FRAME_PRIV_H */

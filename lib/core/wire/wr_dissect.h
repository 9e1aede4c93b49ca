/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dissect: a frame decoded into layers and fields with the bytes each occupies (the page's tree and hex, captures read). */
#ifndef WR_DISSECT_H
#define WR_DISSECT_H

/**
 * @file
 * One decoder for every view of a frame: a captured one (its stack found by
 * the registry's walk, wr_pkt_parse) or one the frame builder wrote (its
 * stack the stream's own layers, each laid out by its module: options,
 * optional parts and raw bytes where the builder put them).  Nothing here
 * names a protocol: the layers and their fields are the registry's
 * (wr_proto.fields, with the length and checksum a module declares), so a
 * new protocol module is decoded as soon as it is registered.
 *
 * Each field says the bytes it occupies (off, len: what a hex view
 * highlights), its first bit in the first of them (MSB = 0) and its width,
 * and its value as a stream file writes it (wr_dissect_val).  What follows
 * the last header is the payload, with wirerate's signature decoded when
 * it is there.
 *
 * Pure functions of the bytes; any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "wr_pkt.h"
#include "wr_proto.h"
#include "wr_sig.h"

/** Most layers of one decode: the walk's, a raw layer's, the payload. */
#define WR_DISSECT_LAYERS_MAX (WR_PKT_LAYERS_MAX + 4)
/** Most fields of one decode (16 layers of up to 16 fields and 3 more). */
#define WR_DISSECT_FIELDS_MAX 320
/** Room for a value: an IPv6 address's text, or a few bytes of hex. */
#define WR_DISSECT_VAL_MAX 96
/** Room for the one-line summary. */
#define WR_DISSECT_SUMMARY_MAX 192

struct wr_dissect_field {
	char key[48];       /**< "ipv4.src": protocol.field */
	const char *name;   /**< "src" */
	uint16_t off;       /**< first byte in the frame */
	uint16_t len;       /**< bytes it occupies */
	uint8_t bit;        /**< its first bit in byte off, MSB = 0 */
	uint16_t bits;      /**< its width */
	char value[WR_DISSECT_VAL_MAX];
};

struct wr_dissect_layer {
	const struct wr_proto *proto; /**< NULL: the payload */
	const char *name;             /**< "ipv4", "payload" */
	const char *title;            /**< "IPv4", "Payload" */
	uint16_t off;
	uint16_t len;
	bool truncated;               /**< the frame ends inside it */
	uint16_t field0;              /**< its fields: field[field0..+n_fields) */
	uint16_t n_fields;
};

struct wr_dissect {
	uint32_t len;       /**< the frame's bytes */
	uint32_t n_layers;
	struct wr_dissect_layer layer[WR_DISSECT_LAYERS_MAX];
	uint32_t n_fields;
	struct wr_dissect_field field[WR_DISSECT_FIELDS_MAX];
	/** The innermost registered protocol (NULL: not even a link header). */
	const struct wr_proto *top;
	bool truncated;     /**< the frame ends inside a header it announces */
	/** wirerate's signature right after the last header. */
	bool has_sig;
	int sig_kind;       /**< WR_SIG_KIND_* */
	struct wr_sig sig;
	char summary[WR_DISSECT_SUMMARY_MAX];
};

/**
 * A value of kind @p kind (enum wr_val_kind) as a stream file writes it:
 * MAC, dotted quad, IPv6 text, 0x hex (4 digits at least) or decimal, into
 * @p buf (@p len bytes).  wr_describe_val is this.
 */
void wr_dissect_val(unsigned int kind, __uint128_t v, char *buf, size_t len);

/**
 * Decode a received frame (@p frame, @p len bytes, FCS excluded) by the
 * registry's walk; @p hints (may be NULL) give a raw layer's length.
 * @return 0 (a frame that ends inside a header is decoded up to it, with
 *         d->truncated), -EINVAL for NULL arguments.
 */
int wr_dissect_frame(const uint8_t *frame, uint32_t len,
		     const struct wr_pkt_hints *hints, struct wr_dissect *d);

/**
 * Decode a frame the frame builder wrote from the stack @p layers
 * (@p n_layers, outermost first: a stream's wr_stream.layers): each layer
 * where the builder put it, its fields where its module's layout put
 * them (options, optional parts), raw layers as their bytes.
 * @return 0, or -EINVAL when a layer cannot be laid out or the frame is
 *         shorter than the stack (then decode it with wr_dissect_frame).
 */
int wr_dissect_built(const uint8_t *frame, uint32_t len,
		     const struct wr_layer *layers, uint32_t n_layers,
		     struct wr_dissect *d);

/**
 * The decode as the JSON every view renders (doc/api.md, "Frames"):
 * {"len", "hex", "layers": [{"proto", "title", "off", "len", "fields":
 * [{"key", "name", "off", "len", "bit", "bits", "value"}]}], "summary",
 * "top", and "stream": {"index", "name", "seq"} when the frame carries the
 * signature (name: @p stream_name, JSON null when NULL)}.
 * @return a new reference, NULL when out of memory.
 */
json_t *wr_dissect_json(const struct wr_dissect *d, const uint8_t *frame,
			const char *stream_name);

#endif /* WR_DISSECT_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_dissect: libFuzzer target for the frame decoder (wr_dissect) and its JSON, on any bytes a capture may hold. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_dissect.h"

/*
 * Any bytes as a received frame (capture.read and capture.frame decode
 * whatever a file holds): the decode returns 0, every layer lies inside
 * the frame and every field inside its layer, the layers follow each
 * other, and the JSON renders them with the frame's hex.  The first byte,
 * when odd, gives the walk a raw-layer hint (the next three bytes: its
 * length and the EtherType naming it), as a receiver of a raw stream has.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wr_dissect d;
	struct wr_pkt_hints h = { 0 };
	uint32_t i, k, end = 0;
	json_t *j;

	if (size > WR_DISSECT_FIELDS_MAX * 64)
		return 0;
	if (size >= 4 && (data[0] & 1)) {
		h.n = 1;
		h.raw[0].carry = WR_CARRY_ETHERTYPE;
		h.raw[0].value = (uint32_t)(data[2] << 8 | data[3]);
		h.raw[0].len = data[1];
		data += 4;
		size -= 4;
	}
	if (wr_dissect_frame(size ? data : NULL, (uint32_t)size, &h, &d) != 0)
		abort();
	if (d.len != size || d.n_fields > WR_DISSECT_FIELDS_MAX ||
	    d.n_layers > WR_DISSECT_LAYERS_MAX)
		abort();
	for (i = 0; i < d.n_layers; i++) {
		const struct wr_dissect_layer *y = &d.layer[i];

		if (y->off < end || (uint32_t)y->off + y->len > size ||
		    (uint32_t)y->field0 + y->n_fields > d.n_fields)
			abort();
		end = (uint32_t)y->off + y->len;
		for (k = y->field0; k < (uint32_t)y->field0 + y->n_fields; k++)
			if (d.field[k].off < y->off ||
			    (uint32_t)d.field[k].off + d.field[k].len > end ||
			    d.field[k].bit > 7 || d.field[k].len == 0 ||
			    memchr(d.field[k].value, '\0', sizeof(d.field[k].value)) == NULL)
				abort();
	}
	if (memchr(d.summary, '\0', sizeof(d.summary)) == NULL)
		abort();
	j = wr_dissect_json(&d, data, "s");
	if (j == NULL || json_string_length(json_object_get(j, "hex")) != 2 * size ||
	    json_array_size(json_object_get(j, "layers")) != d.n_layers)
		abort();
	json_decref(j);
	return 0;
}

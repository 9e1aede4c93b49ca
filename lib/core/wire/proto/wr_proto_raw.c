/* SPDX-License-Identifier: BSD-3-Clause */
/* raw: header bytes given in hex, for whatever the registered protocols lack. */
#include "wr_proto.h"

/* No fields: the layer's bytes come from the stream file (wr_layer.raw);
 * the layer below must be told its type explicitly. */
const struct wr_proto wr_proto_raw = {
	.name = "raw", .title = "raw bytes", .hlen = 0,
	.carry = WR_CARRY_NOTHING, .len_off = -1,
};

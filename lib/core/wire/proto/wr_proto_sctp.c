/* SPDX-License-Identifier: BSD-3-Clause */
/* SCTP (RFC 9260): the common header with its CRC32c, and a DATA or an INIT chunk after it. */
#include <errno.h>

#include "wr_proto.h"
#include "wr_wire.h"

#define SCTP_HLEN 12
#define CHUNK_DATA 0
#define CHUNK_INIT 1
#define DATA_HLEN 16
#define INIT_HLEN 20

static const struct wr_proto_field fields[] = {
	{ .name = "src", .off = 0, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 1024, .doc = "source port" },
	{ .name = "dst", .off = 2, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 1024, .doc = "destination port" },
	/* RFC 9260 section 8.5.1: a packet with an INIT chunk has tag 0. */
	{ .name = "vtag", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "verification tag (0 with INIT)" },
};

/* The first chunk's type names it. */
static int
rx(const uint8_t *h, uint32_t len, struct wr_rx_next *next)
{
	if (len < SCTP_HLEN + 4)
		return -EINVAL;
	next->carry = WR_CARRY_CHUNK;
	next->value = h[SCTP_HLEN];
	return SCTP_HLEN;
}

/* CRC32c over the common header and every chunk, the field zero,
 * carried little-endian (RFC 9260 section 6.8, appendix A). */
const struct wr_proto wr_proto_sctp = {
	.name = "sctp", .title = "SCTP", .hlen = SCTP_HLEN,
	.fields = fields, .n_fields = sizeof(fields) / sizeof(fields[0]),
	.carry = WR_CARRY_CHUNK, .ipproto = WR_IPPROTO_SCTP,
	.csum = WR_CSUM_CRC32C, .csum_off = 8, .len_off = -1, .rx = rx,
};

/* DATA: type 0, flags B and E (one unfragmented message), its length
 * counting the user data to the end of the frame (wr_frame writes it). */
static const uint8_t data_fixed[DATA_HLEN] = { CHUNK_DATA, 0x03 };

static const struct wr_proto_field data_fields[] = {
	{ .name = "flags", .off = 1, .span = 1, .bits = 8, .kind = WR_VAL_INT,
	  .def = 0x03, .doc = "flags (U 4, B 2, E 1; default B|E: a whole message)" },
	{ .name = "tsn", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 1, .doc = "transmission sequence number" },
	{ .name = "stream", .off = 8, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "stream identifier" },
	{ .name = "ssn", .off = 10, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .doc = "stream sequence number" },
	{ .name = "ppid", .off = 12, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .doc = "payload protocol identifier" },
};

const struct wr_proto wr_proto_sctp_data = {
	.name = "sctp_data", .title = "SCTP DATA chunk", .hlen = DATA_HLEN,
	.fixed = data_fixed,
	.fields = data_fields, .n_fields = sizeof(data_fields) / sizeof(data_fields[0]),
	.carry = WR_CARRY_NOTHING, .chunk = true, .chunk_type = CHUNK_DATA,
	.goodput = true, .len_off = 2,
};

/* INIT: type 0x01, its length 20 (no optional parameters). */
static const uint8_t init_fixed[INIT_HLEN] = { CHUNK_INIT, 0, 0, INIT_HLEN };

static const struct wr_proto_field init_fields[] = {
	{ .name = "tag", .off = 4, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 1, .doc = "initiate tag (not 0)" },
	{ .name = "a_rwnd", .off = 8, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 65536, .doc = "advertised receiver window credit" },
	{ .name = "os", .off = 12, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 10, .doc = "number of outbound streams" },
	{ .name = "mis", .off = 14, .span = 2, .bits = 16, .kind = WR_VAL_INT,
	  .def = 10, .doc = "number of inbound streams" },
	{ .name = "tsn", .off = 16, .span = 4, .bits = 32, .kind = WR_VAL_INT,
	  .def = 1, .doc = "initial TSN" },
};

const struct wr_proto wr_proto_sctp_init = {
	.name = "sctp_init", .title = "SCTP INIT chunk", .hlen = INIT_HLEN,
	.fixed = init_fixed,
	.fields = init_fields, .n_fields = sizeof(init_fields) / sizeof(init_fields[0]),
	.carry = WR_CARRY_NOTHING, .chunk = true, .chunk_type = CHUNK_INIT,
	.no_payload = true, .len_off = -1,
};

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_proto_echo: the field table ICMPv4 and ICMPv6 echo share (RFC 792, RFC 4443). */
#ifndef WR_PROTO_ECHO_H
#define WR_PROTO_ECHO_H

#include "wr_proto.h"

/* type, code, checksum (2..3), identifier, sequence number: the same
 * layout in both families; only the echo request's type differs. */
#define WR_PROTO_ECHO_FIELDS(TYPE, TYPE_DOC)                                  \
	{ .name = "type", .off = 0, .span = 1, .bits = 8, .kind = WR_VAL_INT, \
	  .def = (TYPE), .doc = TYPE_DOC },                                   \
	{ .name = "code", .off = 1, .span = 1, .bits = 8, .kind = WR_VAL_INT, \
	  .doc = "code" },                                                    \
	{ .name = "id", .off = 4, .span = 2, .bits = 16, .kind = WR_VAL_INT,  \
	  .def = 1, .doc = "identifier" },                                    \
	{ .name = "seq", .off = 6, .span = 2, .bits = 16, .kind = WR_VAL_INT, \
	  .doc = "sequence number" }

#endif /* WR_PROTO_ECHO_H */

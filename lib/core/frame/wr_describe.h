/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_describe: a stream in words, for `wirerate check` and the run header. */
#ifndef WR_DESCRIBE_H
#define WR_DESCRIBE_H

#include <stddef.h>
#include <stdint.h>

#include "wr_stream.h"

/** Room for one stream's description (wr_describe_stream()). */
#define WR_DESCRIBE_MAX 8192

/** "02:00:00:00:00:01" into @p buf (18 bytes). */
void wr_describe_mac(uint64_t mac, char buf[18]);

/** "198.18.0.1" into @p buf (16 bytes). */
void wr_describe_ipv4(uint32_t ip, char buf[16]);

/** A value of kind @p kind (enum wr_val_kind, or WR_VAL_HEX) as a stream
 * file writes it: MAC, dotted quad, IPv6 text, 0x hex or decimal. */
void wr_describe_val(unsigned int kind, __uint128_t v, char *buf, size_t len);

/** "250 kpps", "10 Gbps L1", "50 %", "max" into @p buf. */
void wr_describe_rate(const struct wr_rate_spec *r, char *buf, size_t len);

/**
 * Several lines describing what @p s sends: port, sizes, count and rate,
 * headers, each varying field with its mode and range, the payload.
 * Every line starts with @p indent.  @return as snprintf.
 */
int wr_describe_stream(const struct wr_stream *s, const char *indent,
		       char *buf, size_t len);

#endif /* WR_DESCRIBE_H */

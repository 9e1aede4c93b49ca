/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_parse: value parsers shared by the loaders and the command line. */
#ifndef WR_PARSE_H
#define WR_PARSE_H

/**
 * @file
 * Pure functions that turn one user-typed string into one value: a MAC
 * address, an IPv4 address, a bounded unsigned integer, a boolean, a rate, a
 * duration, a hex byte pattern.  Every one of them:
 *
 * - takes the whole string: leading or trailing garbage is an error, and so
 *   is a sign, an exponent or an overflow;
 * - computes with integers only, so "1.2 Mpps" is exactly 1200000000
 *   milli-pps and a stream file means the same thing on every machine;
 * - returns 0, or -EINVAL and writes a short text saying what was expected
 *   ("expected an IPv4 address such as 198.18.0.1") into @p why (which may be
 *   NULL; it is always NUL-terminated when @p why_len > 0).  The caller adds
 *   where the value came from and what it was: the YAML loader appends
 *   `, got "..."`, the command line names the option.
 *
 * Output parameters are written only on success.
 *
 * Thread-safety: reentrant; no global state, no locale dependence.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/** Large enough for every text the parsers write into @p why. */
#define WR_PARSE_WHY_MAX 192

/**
 * Parse a MAC address written as six colon-separated pairs of hex digits,
 * "02:00:00:00:00:01" (either case).
 * @param s    the text
 * @param out  the 48-bit address, first byte on the wire most significant
 * @return 0 or -EINVAL
 */
int wr_parse_mac(const char *s, uint64_t *out, char *why, size_t why_len);

/**
 * Parse an IPv4 address in dotted-quad form, "198.18.0.1".  Each part is a
 * decimal 0..255 without leading zeros: inet_aton() would read "010" as
 * octal 8, which no network engineer means.
 * @param out  the address in host byte order (198.18.0.1 -> 0xc6120001)
 * @return 0 or -EINVAL
 */
int wr_parse_ipv4(const char *s, uint32_t *out, char *why, size_t why_len);

/**
 * Parse an IPv6 address in any RFC 4291 text form, "2001:db8::1" (through
 * inet_pton, which rejects zone ids and prefixes).
 * @param out  the 128 address bits, first byte on the wire most significant
 * @return 0 or -EINVAL
 */
int wr_parse_ipv6(const char *s, __uint128_t *out, char *why, size_t why_len);

/**
 * Parse an unsigned integer in [@p min, @p max]: decimal, or hexadecimal with
 * a 0x prefix.  No sign, no spaces, no octal (a leading zero is decimal).
 * @return 0 or -EINVAL (also for overflow and out-of-range)
 */
int wr_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		 char *why, size_t why_len);

/**
 * Parse a boolean: "true" or "false" (also "True", "TRUE", ...), as YAML 1.2.
 * "yes"/"no"/"on"/"off" are refused: YAML 1.1 read them as booleans, YAML
 * 1.2 as strings, and a file should not mean two things.
 * @return 0 or -EINVAL
 */
int wr_parse_bool(const char *s, bool *out, char *why, size_t why_len);

/**
 * Parse a rate (units are case-insensitive, the space before a unit is
 * optional):
 * - "max"                            -> WR_RATE_MAX, value 0;
 * - "<n> pps|kpps|Mpps|Gpps"         -> WR_RATE_PPS in milli-pps
 *                                       ("1.2 Mpps" -> 1200000000);
 * - "<n> bps|kbps|Mbps|Gbps|Tbps L1" -> WR_RATE_BPS_L1 in bits/s,
 *   "<n> ... L2"                     -> WR_RATE_BPS_L2 ("10 Gbps L1" ->
 *                                       10000000000).  The layer is required:
 *                                       L1 counts preamble and inter-frame
 *                                       gap (20 bytes a frame), L2 does not,
 *                                       and guessing would be off by up to 31%
 *                                       at 64 bytes;
 * - "<n>%" or "<n> %"                -> WR_RATE_PERCENT in millionths of the
 *                                       link speed, at most 100% ("50%" ->
 *                                       500000).
 * <n> is decimal digits with an optional fraction.  The fraction must be
 * exact in the storage unit ("1.5 bps L1" is refused, not rounded).  Zero is
 * refused: a stream that sends nothing is a mistake, say `count:` instead.
 * @return 0 or -EINVAL
 */
int wr_parse_rate(const char *s, struct wr_rate_spec *out, char *why,
		  size_t why_len);

/**
 * Parse a duration: a decimal number with an optional fraction and an
 * optional unit ns, us, ms, s (the default), m or h: "5", "2.5", "5s",
 * "500ms", "1m".  The result must be a whole number of nanoseconds.  Zero is
 * accepted (the caller decides what it means).
 * @param out_ns  the duration in nanoseconds
 * @return 0 or -EINVAL
 */
int wr_parse_duration_ns(const char *s, uint64_t *out_ns, char *why,
			 size_t why_len);

/**
 * Parse a size in bytes: a positive integer with an optional unit B, KiB,
 * MiB, GiB (powers of 1024) or KB, MB, GB (of 1000), a space allowed
 * before it: "4096", "512 MiB", "10MB".
 * @return 0 or -EINVAL (also 0 and overflow)
 */
int wr_parse_bytes(const char *s, uint64_t *out, char *why, size_t why_len);

/**
 * Parse a hex byte pattern: "deadbeef", "de ad be ef", "0xdeadbeef".  An
 * optional 0x prefix, then pairs of hex digits; spaces are allowed between
 * bytes only.  At least one byte.
 * @param buf      where the bytes go
 * @param cap      size of @p buf; a pattern needs at most strlen(s) / 2 bytes
 * @param out_len  number of bytes written
 * @return 0 or -EINVAL (also when the pattern has more than @p cap bytes)
 */
int wr_parse_hex(const char *s, uint8_t *buf, size_t cap, size_t *out_len,
		 char *why, size_t why_len);

#endif /* WR_PARSE_H */

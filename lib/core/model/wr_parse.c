/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_parse: exact integer-only parsers for addresses, integers, rates, durations, hex. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_parse.h"

static int __attribute__((format(printf, 3, 4)))
fail(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && why_len > 0) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Our own classifiers: <ctype.h> depends on the locale and is undefined for
 * negative chars. */
static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int
hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char
lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Case-insensitive comparison of [s, s+n) with the lower-case word w. */
static int
word_is(const char *s, size_t n, const char *w)
{
	size_t i;

	if (strlen(w) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (lower(s[i]) != w[i])
			return 0;
	return 1;
}

int
wr_parse_mac(const char *s, uint64_t *out, char *why, size_t why_len)
{
	static const char expect[] =
		"expected a MAC address such as 02:00:00:00:00:01";
	uint64_t v = 0;
	int i, hi, lo;

	/* Exactly "hh:hh:hh:hh:hh:hh": 6 pairs, 5 colons, 17 characters. */
	if (s == NULL || strlen(s) != 17)
		return fail(why, why_len, "%s", expect);
	for (i = 0; i < 6; i++) {
		const char *p = s + 3 * i;

		hi = hex_val(p[0]);
		lo = hex_val(p[1]);
		if (hi < 0 || lo < 0 || (i < 5 && p[2] != ':'))
			return fail(why, why_len, "%s", expect);
		v = (v << 8) | (uint64_t)(hi << 4 | lo);
	}
	*out = v;
	return 0;
}

int
wr_parse_ipv4(const char *s, uint32_t *out, char *why, size_t why_len)
{
	static const char expect[] =
		"expected an IPv4 address such as 198.18.0.1";
	const char *p = s;
	uint32_t v = 0;
	int part;

	if (s == NULL)
		return fail(why, why_len, "%s", expect);
	for (part = 0; part < 4; part++) {
		unsigned int octet = 0, digits = 0;

		if (part > 0) {
			if (*p != '.')
				return fail(why, why_len, "%s", expect);
			p++;
		}
		if (p[0] == '0' && is_digit(p[1]))
			return fail(why, why_len, "%s (no leading zeros: "
				    "they read as octal elsewhere)", expect);
		while (is_digit(*p) && digits < 4) {
			octet = octet * 10 + (unsigned int)(*p - '0');
			p++;
			digits++;
		}
		if (digits == 0 || octet > 255)
			return fail(why, why_len, "%s", expect);
		v = (v << 8) | octet;
	}
	if (*p != '\0')
		return fail(why, why_len, "%s", expect);
	*out = v;
	return 0;
}

int
wr_parse_ipv6(const char *s, __uint128_t *out, char *why, size_t why_len)
{
	struct in6_addr a;
	__uint128_t v = 0;
	int i;

	if (s == NULL || inet_pton(AF_INET6, s, &a) != 1)
		return fail(why, why_len, "expected an IPv6 address such as 2001:db8::1");
	for (i = 0; i < 16; i++)
		v = v << 8 | a.s6_addr[i];
	*out = v;
	return 0;
}

static int
range_fail(char *why, size_t why_len, uint64_t min, uint64_t max)
{
	if (min == 0 && max == UINT64_MAX)
		return fail(why, why_len, "expected an unsigned 64-bit integer");
	return fail(why, why_len, "expected an integer in %" PRIu64 "..%" PRIu64,
		    min, max);
}

int
wr_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	     char *why, size_t why_len)
{
	const char *digits = s;
	char *end = NULL;
	unsigned long long v;
	int base = 10;

	if (s == NULL)
		return range_fail(why, why_len, min, max);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		digits = s + 2;
		if (hex_val(*digits) < 0)
			return range_fail(why, why_len, min, max);
	} else if (!is_digit(*digits)) {
		/* strtoull would skip spaces and accept a sign ("-1" wraps
		 * to 2^64-1): refuse both before it sees them. */
		return range_fail(why, why_len, min, max);
	}
	errno = 0;
	v = strtoull(digits, &end, base);
	if (errno != 0 || end == digits || *end != '\0' || v < min || v > max)
		return range_fail(why, why_len, min, max);
	*out = v;
	return 0;
}

int
wr_parse_bool(const char *s, bool *out, char *why, size_t why_len)
{
	size_t n = s != NULL ? strlen(s) : 0;

	/* YAML 1.2 core schema spellings only. */
	if (n > 0 && (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 ||
		      strcmp(s, "TRUE") == 0)) {
		*out = true;
		return 0;
	}
	if (n > 0 && (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 ||
		      strcmp(s, "FALSE") == 0)) {
		*out = false;
		return 0;
	}
	return fail(why, why_len, "expected true or false");
}

/*
 * A decimal number "12.50" read as mantissa 125 and 1 decimal, exactly
 * (trailing zeros of the fraction dropped so "1.000000000000000000000" is
 * still 1).  Returns the end of the number, or NULL when there is no number
 * or the mantissa does not fit 64 bits.
 */
struct wr_decimal {
	uint64_t mant;
	unsigned int decimals;
};

static const char *
parse_decimal(const char *p, struct wr_decimal *d)
{
	const char *frac = NULL, *frac_end, *q;
	uint64_t m = 0;
	unsigned int n = 0;

	if (!is_digit(*p))
		return NULL;
	for (q = p; is_digit(*q); q++) {
		if (m > (UINT64_MAX - (uint64_t)(*q - '0')) / 10)
			return NULL;
		m = m * 10 + (uint64_t)(*q - '0');
	}
	if (*q == '.') {
		frac = ++q;
		if (!is_digit(*q))
			return NULL; /* "5." is a typo, not 5 */
		while (is_digit(*q))
			q++;
		frac_end = q;
		while (frac_end > frac && frac_end[-1] == '0')
			frac_end--;
		for (; frac < frac_end; frac++, n++) {
			if (m > (UINT64_MAX - (uint64_t)(*frac - '0')) / 10)
				return NULL;
			m = m * 10 + (uint64_t)(*frac - '0');
		}
	}
	d->mant = m;
	d->decimals = n;
	return q;
}

/*
 * d * mult as an exact integer.  Returns 0, -ERANGE when it is not a whole
 * number, -EOVERFLOW when it does not fit 64 bits.
 */
static int
decimal_scale(const struct wr_decimal *d, uint64_t mult, uint64_t *out)
{
	unsigned __int128 v = (unsigned __int128)d->mant * mult, p10 = 1;
	unsigned int i;

	/* mult <= 3.6e12 (an hour in ns): 10^19 of fraction can never be
	 * exact and would overflow the divisor's usefulness anyway. */
	if (d->decimals > 19)
		return -ERANGE;
	for (i = 0; i < d->decimals; i++)
		p10 *= 10;
	if (v % p10 != 0)
		return -ERANGE;
	v /= p10;
	if (v > UINT64_MAX)
		return -EOVERFLOW;
	*out = (uint64_t)v;
	return 0;
}

/* Trimmed view of s: leading and trailing blanks are not part of a value. */
static void
trim(const char *s, const char **b, const char **e)
{
	const char *end = s + strlen(s);

	while (is_space(*s))
		s++;
	while (end > s && is_space(end[-1]))
		end--;
	*b = s;
	*e = end;
}

struct wr_rate_unit_def {
	const char *name;          /* lower case */
	enum wr_rate_unit unit;
	uint64_t mult;             /* storage units per one of this unit */
	const char *resolution;    /* for "not exact" errors */
};

/* Storage units are those of struct wr_rate_spec: milli-pps, bits/s,
 * millionths of the link speed (1% = 10^4 millionths). */
static const struct wr_rate_unit_def rate_units[] = {
	{ "pps", WR_RATE_PPS, 1000ull, "milli-pps" },
	{ "kpps", WR_RATE_PPS, 1000000ull, "milli-pps" },
	{ "mpps", WR_RATE_PPS, 1000000000ull, "milli-pps" },
	{ "gpps", WR_RATE_PPS, 1000000000000ull, "milli-pps" },
	{ "bps", WR_RATE_BPS_L1, 1ull, "bits/s" },
	{ "kbps", WR_RATE_BPS_L1, 1000ull, "bits/s" },
	{ "mbps", WR_RATE_BPS_L1, 1000000ull, "bits/s" },
	{ "gbps", WR_RATE_BPS_L1, 1000000000ull, "bits/s" },
	{ "tbps", WR_RATE_BPS_L1, 1000000000000ull, "bits/s" },
	{ "%", WR_RATE_PERCENT, 10000ull, "millionths of the link speed" },
};

#define RATE_EXPECT \
	"expected a rate such as \"max\", \"250 kpps\", \"1.2 Mpps\", " \
	"\"10 Gbps L1\" or \"50%\""

/* 100% in millionths of the link speed. */
#define RATE_PERCENT_MAX 1000000ull

int
wr_parse_rate(const char *s, struct wr_rate_spec *out, char *why,
	      size_t why_len)
{
	const struct wr_rate_unit_def *u = NULL;
	const char *b, *e, *p, *w;
	struct wr_decimal d;
	enum wr_rate_unit unit;
	uint64_t v;
	size_t i;
	int rc;

	if (s == NULL)
		return fail(why, why_len, "%s", RATE_EXPECT);
	trim(s, &b, &e);
	if (word_is(b, (size_t)(e - b), "max")) {
		out->unit = WR_RATE_MAX;
		out->value = 0;
		return 0;
	}
	p = parse_decimal(b, &d);
	if (p == NULL || p > e)
		return fail(why, why_len, "%s", RATE_EXPECT);
	while (p < e && is_space(*p))
		p++;
	if (p < e && *p == '%') {
		w = p + 1;
	} else {
		w = p;
		while (w < e && !is_space(*w))
			w++;
	}
	for (i = 0; i < sizeof(rate_units) / sizeof(rate_units[0]); i++)
		if (word_is(p, (size_t)(w - p), rate_units[i].name))
			u = &rate_units[i];
	if (u == NULL)
		return fail(why, why_len, "%s", RATE_EXPECT);
	unit = u->unit;
	p = w;
	while (p < e && is_space(*p))
		p++;
	if (unit == WR_RATE_BPS_L1) {
		if (e - p == 2 && word_is(p, 2, "l1")) {
			unit = WR_RATE_BPS_L1;
		} else if (e - p == 2 && word_is(p, 2, "l2")) {
			unit = WR_RATE_BPS_L2;
		} else {
			return fail(why, why_len,
				    "expected L1 or L2 after a bit rate: "
				    "\"10 Gbps L1\" counts preamble and "
				    "inter-frame gap, \"10 Gbps L2\" only "
				    "the frame");
		}
		p = e;
	}
	if (p != e)
		return fail(why, why_len, "%s", RATE_EXPECT);
	rc = decimal_scale(&d, u->mult, &v);
	if (rc == -ERANGE)
		return fail(why, why_len,
			    "expected a rate that is a whole number of %s",
			    u->resolution);
	if (rc != 0)
		return fail(why, why_len, "expected a rate below 2^64 %s",
			    u->resolution);
	if (v == 0)
		return fail(why, why_len, "expected a positive rate "
			    "(to send nothing, leave the stream out)");
	if (unit == WR_RATE_PERCENT && v > RATE_PERCENT_MAX)
		return fail(why, why_len, "expected at most 100%% of the "
			    "link speed");
	out->unit = unit;
	out->value = v;
	return 0;
}

#define NS_PER_S 1000000000ull

static const struct {
	const char *name;
	uint64_t ns;
} duration_units[] = {
	{ "", NS_PER_S }, /* a bare number is seconds */
	{ "ns", 1ull },
	{ "us", 1000ull },
	{ "ms", 1000000ull },
	{ "s", NS_PER_S },
	{ "m", 60 * NS_PER_S },
	{ "h", 3600 * NS_PER_S },
};

#define DURATION_EXPECT \
	"expected a duration such as \"5\", \"2.5\", \"5s\", \"500ms\" or \"1m\""

int
wr_parse_bytes(const char *s, uint64_t *out, char *why, size_t why_len)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "", 1 }, { "B", 1 }, { "KiB", 1ull << 10 },
		{ "MiB", 1ull << 20 }, { "GiB", 1ull << 30 },
		{ "KB", 1000 }, { "MB", 1000000 }, { "GB", 1000000000 },
	};
	unsigned long long v;
	char *end;
	size_t i;

	if (s == NULL || s[0] < '0' || s[0] > '9')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	while (*end == ' ')
		end++;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0)
			break;
	if (errno != 0 || i == sizeof(units) / sizeof(units[0]) || v == 0 ||
	    v > UINT64_MAX / units[i].mul)
		goto bad;
	*out = v * units[i].mul;
	return 0;
bad:
	if (why != NULL)
		snprintf(why, why_len, "expected a size such as \"512 MiB\", "
			 "\"10MB\" or \"4096\"");
	return -EINVAL;
}

int
wr_parse_duration_ns(const char *s, uint64_t *out_ns, char *why,
		     size_t why_len)
{
	const char *b, *e, *p;
	struct wr_decimal d;
	uint64_t v;
	size_t i;
	int rc;

	if (s == NULL)
		return fail(why, why_len, "%s", DURATION_EXPECT);
	trim(s, &b, &e);
	p = parse_decimal(b, &d);
	if (p == NULL || p > e)
		return fail(why, why_len, "%s", DURATION_EXPECT);
	while (p < e && is_space(*p))
		p++;
	for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]);
	     i++) {
		if (!word_is(p, (size_t)(e - p), duration_units[i].name))
			continue;
		rc = decimal_scale(&d, duration_units[i].ns, &v);
		if (rc == -ERANGE)
			return fail(why, why_len, "expected a duration that "
				    "is a whole number of nanoseconds");
		if (rc != 0)
			return fail(why, why_len, "expected a duration "
				    "shorter than 2^64 ns (584 years)");
		*out_ns = v;
		return 0;
	}
	return fail(why, why_len, "%s", DURATION_EXPECT);
}

#define HEX_EXPECT "expected hex bytes such as \"deadbeef\" or \"de ad be ef\""

int
wr_parse_hex(const char *s, uint8_t *buf, size_t cap, size_t *out_len,
	     char *why, size_t why_len)
{
	const char *p = s;
	size_t n = 0;
	int hi, lo;

	if (s == NULL)
		return fail(why, why_len, "%s", HEX_EXPECT);
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	/* First pass validates and counts, so nothing is written on error. */
	while (*p != '\0') {
		hi = hex_val(p[0]);
		if (hi < 0)
			return fail(why, why_len, "%s", HEX_EXPECT);
		lo = hex_val(p[1]);
		if (lo < 0)
			return fail(why, why_len, "%s",
				    p[1] == '\0' || is_space(p[1]) ?
				    "expected two hex digits per byte" :
				    HEX_EXPECT);
		p += 2;
		n++;
		if (is_space(*p)) {
			while (is_space(*p))
				p++;
			if (*p == '\0')
				return fail(why, why_len, "%s", HEX_EXPECT);
		}
	}
	if (n == 0)
		return fail(why, why_len, "%s", HEX_EXPECT);
	if (n > cap)
		return fail(why, why_len, "expected at most %zu bytes", cap);
	p = s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (n = 0; *p != '\0'; n++) {
		while (is_space(*p))
			p++;
		buf[n] = (uint8_t)(hex_val(p[0]) << 4 | hex_val(p[1]));
		p += 2;
	}
	*out_len = n;
	return 0;
}

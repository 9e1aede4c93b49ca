/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_plan_cap: an OTG config's captures: which ports, how much of each frame, pcap or pcapng, and the filters as one wr_filter expression. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wr_filter.h"
#include "wr_otg_priv.h"

/* The widest field a filter compares: an IPv6 address. */
#define FIELD_BYTES_MAX 16
/* Frame bytes a filter may reach: past 64 KiB no frame has any. */
#define FRAME_MAX 65535

/* A field of a header a filter names: its place in bits from the start of
 * that header, its width.  The places are the headers' own (IEEE 802.3,
 * 802.1Q, RFC 791, RFC 8200); OTG names only the field. */
struct field {
	const char *name;
	unsigned int bit, bits;
};

static const struct field eth_fields[] = {
	{ "dst", 0, 48 }, { "src", 48, 48 }, { "ether_type", 96, 16 },
	{ NULL, 0, 0 },
};
/* The 802.1Q tag as OTG's vlan header has it: the TCI, then the type of
 * what follows (the tag's own TPID is the ethernet's ether_type). */
static const struct field vlan_fields[] = {
	{ "priority", 0, 3 }, { "cfi", 3, 1 }, { "id", 4, 12 },
	{ "protocol", 16, 16 }, { NULL, 0, 0 },
};
static const struct field ipv4_fields[] = {
	{ "version", 0, 4 }, { "header_length", 4, 4 }, { "priority", 8, 8 },
	{ "total_length", 16, 16 }, { "identification", 32, 16 },
	{ "reserved", 48, 1 }, { "dont_fragment", 49, 1 },
	{ "more_fragments", 50, 1 }, { "fragment_offset", 51, 13 },
	{ "time_to_live", 64, 8 }, { "protocol", 72, 8 },
	{ "header_checksum", 80, 16 }, { "src", 96, 32 }, { "dst", 128, 32 },
	{ NULL, 0, 0 },
};
static const struct field ipv6_fields[] = {
	{ "version", 0, 4 }, { "traffic_class", 4, 8 }, { "flow_label", 12, 20 },
	{ "payload_length", 32, 16 }, { "next_header", 48, 8 },
	{ "hop_limit", 56, 8 }, { "src", 64, 128 }, { "dst", 192, 128 },
	{ NULL, 0, 0 },
};

/* Each filter choice: its fields and its header's length in bytes. */
static const struct {
	const char *choice;
	const struct field *fields;
	unsigned int len;
} headers[] = {
	{ "ethernet", eth_fields, 14 },
	{ "vlan", vlan_fields, 4 },
	{ "ipv4", ipv4_fields, 20 },
	{ "ipv6", ipv6_fields, 40 },
};

/* The names of @p fields, NULL-terminated, in @p keys (16 at most). */
static const char *const *
names_of(const struct field *fields, const char **keys)
{
	unsigned int i;

	for (i = 0; fields[i].name != NULL && i < 15; i++)
		keys[i] = fields[i].name;
	keys[i] = NULL;
	return keys;
}

struct expr {
	char *s;
	size_t cap, len;
	bool full;
};

static void
put(struct expr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
put(struct expr *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(e->s + e->len, e->cap - e->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= e->cap - e->len) {
		e->full = true;
		e->s[e->len] = '\0';
		return;
	}
	e->len += (size_t)n;
}

/* Hex text (OTG's "hex" format: digits, an optional 0x) as a number of
 * @p bits bits, big-endian in @p out (ceil(bits / 8) bytes, right-aligned).
 * @return 0; -EINVAL when it does not fit. */
static int
hex_bits(const char *t, unsigned int bits, uint8_t *out)
{
	size_t n, i, nbytes = (bits + 7) / 8;

	memset(out, 0, nbytes);
	if (t == NULL)
		return 0;
	if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
		t += 2;
	n = strlen(t);
	for (i = 0; i < n; i++) {
		char c = t[n - 1 - i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return -EINVAL;
		if (d == 0)
			continue;
		/* Nibble i is bits 4i..4i+3 from the right: past the
		 * field's width it must be 0. */
		if (4 * i >= bits || (4 * i + 4 > bits && d >> (bits - 4 * i) != 0))
			return -EINVAL;
		out[nbytes - 1 - i / 2] |= (uint8_t)(d << (4 * (i % 2)));
	}
	return 0;
}

/* Bit j (0 the most significant) of a @p bits-bit number held as above. */
static unsigned int
bit_of(const uint8_t *num, unsigned int bits, unsigned int j)
{
	unsigned int from_right = bits - 1 - j;
	size_t nbytes = (bits + 7) / 8;

	return (num[nbytes - 1 - from_right / 8] >> (from_right % 8)) & 1u;
}

static int field_terms(const json_t *f, const char *path, unsigned int bit,
		       unsigned int bits, struct expr *e, struct wr_otg_err *err);

/* One field: frame bits [bit, bit + bits) compared with value where the
 * mask's bit is 0.  OTG does not say which way its mask goes; with the
 * default mask ("00") a value alone must mean "these bits exactly", so a
 * mask bit 1 is a bit that does not matter (as IxNetwork's filters). */
static int
field_expr(const json_t *f, const char *path, unsigned int bit,
	   unsigned int bits, struct expr *e, struct wr_otg_err *err)
{
	char buf[WR_FILTER_EXPR_MAX];
	struct expr fe = { .s = buf, .cap = sizeof(buf) };
	int r = field_terms(f, path, bit, bits, &fe, err);

	if (r > 0) {
		put(e, "%s%s", e->len > 0 ? " and " : "", buf);
		if (fe.full)
			e->full = true;
	}
	return r;
}

static int
field_terms(const json_t *f, const char *path, unsigned int bit,
	    unsigned int bits, struct expr *e, struct wr_otg_err *err)
{
	uint8_t val[FIELD_BYTES_MAX + 8], mask[FIELD_BYTES_MAX + 8];
	uint8_t cmp_m[FIELD_BYTES_MAX + 2] = { 0 }, cmp_v[FIELD_BYTES_MAX + 2] = { 0 };
	unsigned int first = bit / 8, last = (bit + bits - 1) / 8, j, k;
	bool negate = json_is_true(json_object_get(f, "negate")), any = false;
	char at[WR_OTG_PATH_MAX];
	const char *sep = "";

	if (bits > 8 * FIELD_BYTES_MAX || bits == 0 ||
	    bit + bits > 8u * FRAME_MAX) {
		wr_otg_at(at, "%s.bit_length", path);
		return wr_otg_err_add(err, at, "expected 1 to %u bits within the "
				      "first %u bytes of a frame",
				      8 * FIELD_BYTES_MAX, FRAME_MAX);
	}
	wr_otg_at(at, "%s.value", path);
	if (hex_bits(wr_otg_str(f, "value"), bits, val) != 0)
		return wr_otg_err_add(err, at, "expected hex of at most %u bits",
				      bits);
	wr_otg_at(at, "%s.mask", path);
	if (hex_bits(wr_otg_str(f, "mask"), bits, mask) != 0)
		return wr_otg_err_add(err, at, "expected hex of at most %u bits",
				      bits);
	for (j = 0; j < bits; j++) {
		unsigned int a = bit + j, b = a / 8 - first, s = 7 - a % 8;

		if (bit_of(mask, bits, j))
			continue;
		cmp_m[b] |= (uint8_t)(1u << s);
		cmp_v[b] |= (uint8_t)(bit_of(val, bits, j) << s);
		any = true;
	}
	if (!any) {
		if (!negate)
			return 0;
		return wr_otg_err_add(err, path, "the mask leaves no bit to "
				      "compare, so negate would keep no frame");
	}
	put(e, "%s(", negate ? "not " : "");
	/* tcpdump loads 1, 2 or 4 bytes at a time: ether[OFF:N]. */
	for (k = first; k <= last;) {
		unsigned int n = last - k + 1 >= 4 ? 4 : last - k + 1 >= 2 ? 2 : 1;
		uint32_t m = 0, v = 0;

		if (cmp_m[k - first] == 0) {
			k++;
			continue;
		}
		for (j = 0; j < n; j++) {
			m = m << 8 | cmp_m[k - first + j];
			v = v << 8 | cmp_v[k - first + j];
		}
		if (m == (n == 4 ? 0xffffffffu : (1u << (8 * n)) - 1))
			put(e, "%sether[%u:%u] = 0x%x", sep, k, n, v);
		else
			put(e, "%sether[%u:%u] & 0x%x = 0x%x", sep, k, n, m, v);
		sep = " and ";
		k += n;
	}
	put(e, ")");
	return 1;
}

/* One filter at frame byte @p *at (the end of the filter before it, or 0),
 * which it moves past its header.  @return 0, -EINVAL; @p *terms counts
 * what it added. */
static int
filter_expr(const json_t *flt, const char *path, unsigned int *at,
	    struct expr *e, unsigned int *terms, struct wr_otg_err *err)
{
	const char *choice = wr_otg_str(flt, "choice");
	const json_t *body = json_object_get(flt, choice ? choice : "");
	char fp[WR_OTG_PATH_MAX];
	unsigned int h, base;
	const char *keys[16];
	const struct field *f;
	json_t *v;
	int rc = 0, r;

	if (choice == NULL)
		return wr_otg_err_add(err, path, "expected a choice");
	wr_otg_at(fp, "%s.%s", path, choice);
	if (strcmp(choice, "custom") == 0) {
		const json_t *o = json_object_get(body, "offset");
		const json_t *bl = json_object_get(body, "bit_length");
		json_int_t off = json_is_integer(o) ? json_integer_value(o) : 0;
		json_int_t bits = json_is_integer(bl) ? json_integer_value(bl) : 8;

		/* The model: "Offset from last filter in the list. If no
		 * filters are present it is offset from position 0." */
		if (off < 0 || off > 8 * FRAME_MAX || bits < 0)
			return wr_otg_err_add(err, fp, "expected an offset within "
					      "the first %u bytes", FRAME_MAX);
		r = field_expr(body, fp, (unsigned int)(8 * *at + off),
			       (unsigned int)bits, e, err);
		if (r < 0)
			return r;
		*terms += (unsigned int)r;
		*at += (unsigned int)((off + bits + 7) / 8);
		return 0;
	}
	for (h = 0; h < sizeof(headers) / sizeof(headers[0]); h++)
		if (strcmp(headers[h].choice, choice) == 0)
			break;
	if (h == sizeof(headers) / sizeof(headers[0]))
		return wr_otg_err_add(err, fp, "not a capture filter wirerate has");
	/* A first filter above Ethernet is behind an Ethernet header. */
	base = *at == 0 && h > 0 ? 14 : *at;
	/* The header's fields in their order on the wire (the object's own
	 * order is its hash table's); then the members that are no field. */
	for (f = headers[h].fields; f->name != NULL; f++) {
		char at2[WR_OTG_PATH_MAX];

		v = json_object_get(body, f->name);
		if (v == NULL)
			continue;
		wr_otg_at(at2, "%s.%s", fp, f->name);
		r = field_expr(v, at2, 8 * base + f->bit, f->bits, e, err);
		if (r < 0) {
			rc = r;
			continue;
		}
		*terms += (unsigned int)r;
	}
	/* pfc_queue: a PFC frame's, not a field of the Ethernet header a
	 * filter can place. */
	if (wr_otg_refuse_others(body, fp, names_of(headers[h].fields, keys),
				 err) != 0)
		rc = -EINVAL;
	*at = base + headers[h].len;
	return rc;
}

int
wr_otg_capture_filter(const json_t *filters, const char *path, char *out,
		      size_t cap, struct wr_otg_err *err)
{
	struct expr e = { .s = out, .cap = cap };
	unsigned int at = 0, terms = 0;
	char why[256];
	struct wr_filter f;
	size_t i;
	int rc = 0;

	out[0] = '\0';
	for (i = 0; i < json_array_size(filters); i++) {
		char fp[WR_OTG_PATH_MAX];

		wr_otg_at(fp, "%s.filters[%zu]", path, i);
		if (filter_expr(json_array_get(filters, i), fp, &at, &e, &terms,
				err) != 0)
			rc = -EINVAL;
	}
	if (rc != 0)
		return rc;
	if (e.full) {
		char fp[WR_OTG_PATH_MAX];

		wr_otg_at(fp, "%s.filters", path);
		out[0] = '\0';
		return wr_otg_err_add(err, fp, "these filters compare more bytes "
				      "than a capture filter of %zu characters "
				      "holds", cap - 1);
	}
	if (out[0] == '\0')
		return 0;
	memset(&f, 0, sizeof(f));
	if (wr_filter_compile(&f, out, why, sizeof(why)) != 0) {
		char fp[WR_OTG_PATH_MAX];

		wr_otg_at(fp, "%s.filters", path);
		rc = wr_otg_err_add(err, fp, "as \"%s\": %s", out, why);
		out[0] = '\0';
	}
	wr_filter_free(&f);
	return rc;
}

int
wr_otg_plan_captures(const json_t *cfg, struct wr_otg_plan *p, json_t *names,
		     struct wr_otg_err *err)
{
	const json_t *caps = json_object_get(cfg, "captures");
	size_t i, j;
	int rc = 0;

	for (i = 0; i < json_array_size(caps); i++) {
		const json_t *c = json_array_get(caps, i);
		const json_t *pn = json_object_get(c, "port_names");
		const json_t *ps = json_object_get(c, "packet_size");
		const char *fmt = wr_otg_str(c, "format");
		struct wr_otg_cap one = { .set = true };
		char path[WR_OTG_PATH_MAX];

		wr_otg_at(path, "captures[%zu]", i);
		if (wr_otg_name_add(names, c, path, err) == -ENOMEM)
			return -ENOMEM;
		if (wr_otg_capture_filter(json_object_get(c, "filters"), path,
					  one.filter, sizeof(one.filter),
					  err) != 0)
			rc = -EINVAL;
		one.snaplen = json_is_integer(ps) ?
			      (uint32_t)json_integer_value(ps) : 0;
		one.pcapng = fmt != NULL && strcmp(fmt, "pcapng") == 0;
		one.overwrite = !json_is_false(json_object_get(c, "overwrite"));
		for (j = 0; j < json_array_size(pn); j++) {
			char at[WR_OTG_PATH_MAX];
			int k;

			wr_otg_at(at, "%s.port_names[%zu]", path, j);
			k = wr_otg_port_ref(p, json_array_get(pn, j), at, err);
			if (k < 0) {
				rc = -EINVAL;
				continue;
			}
			/* The model: "Port_names cannot be duplicated
			 * between capture objects." */
			if (p->ports[k].cap.set) {
				rc = wr_otg_err_add(err, at, "port \"%s\" is in "
						    "another capture already",
						    p->ports[k].name);
				continue;
			}
			p->ports[k].cap = one;
		}
	}
	return rc;
}

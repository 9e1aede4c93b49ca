/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dissect: a frame into the registry's layers and fields, each with the bytes it occupies. */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_dissect.h"

void
wr_dissect_val(unsigned int kind, __uint128_t v, char *buf, size_t len)
{
	char tmp[INET6_ADDRSTRLEN];
	uint8_t a[16];
	int i;

	switch (kind) {
	case WR_VAL_MAC:
		snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x",
			 (unsigned int)(v >> 40) & 0xff, (unsigned int)(v >> 32) & 0xff,
			 (unsigned int)(v >> 24) & 0xff, (unsigned int)(v >> 16) & 0xff,
			 (unsigned int)(v >> 8) & 0xff, (unsigned int)v & 0xff);
		break;
	case WR_VAL_IPV4:
		snprintf(buf, len, "%u.%u.%u.%u", (unsigned int)(v >> 24) & 0xff,
			 (unsigned int)(v >> 16) & 0xff, (unsigned int)(v >> 8) & 0xff,
			 (unsigned int)v & 0xff);
		break;
	case WR_VAL_IPV6:
		for (i = 15; i >= 0; i--, v >>= 8)
			a[i] = (uint8_t)v;
		if (inet_ntop(AF_INET6, a, tmp, sizeof(tmp)) == NULL)
			tmp[0] = '\0';
		snprintf(buf, len, "%s", tmp);
		break;
	case WR_VAL_HEX:
		snprintf(buf, len, "0x%04" PRIx64, (uint64_t)v);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
		break;
	}
}

/* n bytes as lowercase hex, cut with "..." where buf ends. */
static void
hex_val(const uint8_t *p, uint32_t n, char *buf, size_t len)
{
	uint32_t i, max = (uint32_t)(len - 4) / 2;

	for (i = 0; i < n && i < max; i++)
		snprintf(buf + 2 * i, 3, "%02x", p[i]);
	buf[2 * i] = '\0';
	if (i < n)
		snprintf(buf + 2 * i, 4, "...");
}

static struct wr_dissect_field *
new_field(struct wr_dissect *d, const struct wr_dissect_layer *y, const char *name)
{
	struct wr_dissect_field *f;

	if (d->n_fields == WR_DISSECT_FIELDS_MAX)
		return NULL;
	f = &d->field[d->n_fields++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	snprintf(f->key, sizeof(f->key), "%s.%s", y->name, name);
	return f;
}

/*
 * Registry field @p pf of the layer at @p y, @p at bytes into its header
 * (its layout's offset): the bytes its bits fall in (a big-endian span of
 * pf->span bytes, the value pf->bits wide pf->shift bits up), and the
 * value they hold.  Fields past @p hend (the header's end) are left out.
 */
static void
reg_field(struct wr_dissect *d, struct wr_dissect_layer *y, const uint8_t *frame,
	  const struct wr_proto_field *pf, uint32_t at, uint32_t hend)
{
	uint32_t start = pf->span * 8u - pf->shift - pf->bits, i;
	uint32_t abs = y->off + at;
	struct wr_dissect_field *f;
	__uint128_t v = 0;

	if (pf->span == 0 || pf->span > 16 || abs + pf->span > hend)
		return;
	for (i = 0; i < pf->span; i++)
		v = v << 8 | frame[abs + i];
	v >>= pf->shift;
	if (pf->bits < 128)
		v &= ((__uint128_t)1 << pf->bits) - 1;
	f = new_field(d, y, pf->name);
	if (f == NULL)
		return;
	f->off = (uint16_t)(abs + start / 8);
	f->len = (uint16_t)((start + pf->bits - 1) / 8 - start / 8 + 1);
	f->bit = (uint8_t)(start % 8);
	f->bits = pf->bits;
	/* EtherTypes in hex, as wr_describe and the stream files write them. */
	wr_dissect_val(pf->role == WR_ROLE_NEXT_ETHERTYPE ||
		       pf->role == WR_ROLE_MY_ETHERTYPE ? WR_VAL_HEX : pf->kind,
		       v, f->value, sizeof(f->value));
}

/* Whether bytes [off, off+len) of the frame are a field's already. */
static bool
covered(const struct wr_dissect *d, const struct wr_dissect_layer *y,
	uint32_t off, uint32_t len)
{
	uint32_t i;

	for (i = y->field0; i < d->n_fields; i++)
		if (d->field[i].off < off + len && off < d->field[i].off + d->field[i].len)
			return true;
	return false;
}

/* A layer's fields in the order of their bits on the wire (a tree reads
 * as the header does), the registry's order among equals. */
static void
sort_fields(struct wr_dissect *d, const struct wr_dissect_layer *y)
{
	struct wr_dissect_field t;
	uint32_t i, j;

	for (i = (uint32_t)y->field0 + 1; i < (uint32_t)y->field0 + y->n_fields; i++) {
		t = d->field[i];
		for (j = i; j > y->field0 && (d->field[j - 1].off > t.off ||
		     (d->field[j - 1].off == t.off && d->field[j - 1].bit > t.bit)); j--)
			d->field[j] = d->field[j - 1];
		d->field[j] = t;
	}
}

/* A whole-byte field no registry field holds: the module's length field,
 * its checksum, its options (@p hex: shown as bytes). */
static void
byte_field(struct wr_dissect *d, struct wr_dissect_layer *y, const uint8_t *frame,
	   const char *name, uint32_t at, uint32_t n, uint32_t hend, bool hex)
{
	uint32_t abs = y->off + at, i;
	struct wr_dissect_field *f;
	uint64_t v = 0;

	if (n == 0 || abs + n > hend || covered(d, y, abs, n))
		return;
	f = new_field(d, y, name);
	if (f == NULL)
		return;
	f->off = (uint16_t)abs;
	f->len = (uint16_t)n;
	f->bits = (uint16_t)(n * 8);
	if (hex || n > 8) {
		hex_val(frame + abs, n, f->value, sizeof(f->value));
		return;
	}
	for (i = 0; i < n; i++)
		v = v << 8 | frame[abs + i];
	if (strcmp(name, "checksum") == 0)
		snprintf(f->value, sizeof(f->value), "0x%0*" PRIx64, (int)n * 2, v);
	else
		snprintf(f->value, sizeof(f->value), "%" PRIu64, v);
}

/* The registry's layer of bytes nothing names (raw): what a hint's
 * length covers. */
static const struct wr_proto *
raw_proto(void)
{
	unsigned int i;

	for (i = 0; i < wr_n_protos; i++)
		if (wr_protos[i]->hlen == 0)
			return wr_protos[i];
	return NULL;
}

static struct wr_dissect_layer *
new_layer(struct wr_dissect *d, const struct wr_proto *p, uint32_t off, uint32_t len)
{
	struct wr_dissect_layer *y;

	if (d->n_layers == WR_DISSECT_LAYERS_MAX)
		return NULL;
	y = &d->layer[d->n_layers++];
	memset(y, 0, sizeof(*y));
	y->proto = p;
	y->name = p != NULL ? p->name : "payload";
	y->title = p != NULL ? p->title : "Payload";
	y->off = (uint16_t)off;
	y->len = (uint16_t)len;
	y->field0 = (uint16_t)d->n_fields;
	return y;
}

/*
 * The fields of one layer: the registry's at @p offs (its layout's; NULL:
 * the module's own offsets), the checksum (rule @p csum at @p csum_off),
 * the length field, and the bytes past the fixed header when the module
 * takes options.  A tag's own TPID is the layer below's EtherType field
 * and is shown there.
 */
static void
layer_fields(struct wr_dissect *d, struct wr_dissect_layer *y, const uint8_t *frame,
	     const uint16_t *offs, uint8_t csum, uint16_t csum_off)
{
	const struct wr_proto *p = y->proto;
	uint32_t hend = (uint32_t)y->off + y->len, j;

	if (p->hlen == 0) {
		byte_field(d, y, frame, "data", 0, y->len, hend, true);
		goto done;
	}
	for (j = 0; j < p->n_fields && j < WR_PROTO_FIELDS_MAX; j++) {
		uint16_t at = offs != NULL ? offs[j] : p->fields[j].off;

		if (at == WR_OFF_NONE || p->fields[j].role == WR_ROLE_MY_ETHERTYPE)
			continue;
		reg_field(d, y, frame, &p->fields[j], at, hend);
	}
	if (p->len_off >= 0)
		byte_field(d, y, frame, "length", (uint32_t)p->len_off, 2, hend, false);
	if (csum != WR_CSUM_NONE)
		byte_field(d, y, frame, "checksum", csum_off,
			   csum == WR_CSUM_CRC32C ? 4 : 2, hend, false);
	if (p->opts != NULL && y->len > p->hlen)
		byte_field(d, y, frame, p->opts->key, p->hlen, y->len - p->hlen, hend, true);
done:
	y->n_fields = (uint16_t)(d->n_fields - y->field0);
	sort_fields(d, y);
}

/* The signature's parts as fields of the payload layer. */
static void
sig_fields(struct wr_dissect *d, struct wr_dissect_layer *y)
{
	static const struct { const char *name; uint8_t off[3], len[3]; } part[] = {
		/* offsets and widths in the full, short and compact layouts
		 * (wr_sig.h); width 0: that layout has no such part */
		{ "magic", { 0, 0, 0 }, { 4, 4, 4 } },
		{ "stream", { 4, 4, 4 }, { 2, 2, 1 } },
		{ "lane", { 6, 6, 5 }, { 2, 2, 1 } },
		{ "seq", { 8, 8, 6 }, { 8, 8, 6 } },
		{ "tx_tsc", { 16, 0, 12 }, { 8, 0, 6 } },
	};
	const uint64_t vals[] = { 0, WR_SIG_STREAM(d->sig.stream_id),
				  WR_SIG_LANE(d->sig.stream_id), d->sig.seq, d->sig.tx_tsc };
	struct wr_dissect_field *f;
	unsigned int i, k = (unsigned int)d->sig_kind;

	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (part[i].len[k] == 0 || (f = new_field(d, y, part[i].name)) == NULL)
			continue;
		snprintf(f->key, sizeof(f->key), "sig.%s", part[i].name);
		f->off = (uint16_t)(y->off + part[i].off[k]);
		f->len = part[i].len[k];
		f->bits = (uint16_t)(f->len * 8);
		if (i == 0)
			snprintf(f->value, sizeof(f->value), "0x%08" PRIx32,
				 (uint32_t)(d->sig_kind == WR_SIG_KIND_FULL ? WR_SIG_MAGIC :
					    d->sig_kind == WR_SIG_KIND_SHORT ?
					    WR_SIG_SHORT_MAGIC : WR_SIG_COMPACT_MAGIC));
		else
			snprintf(f->value, sizeof(f->value), "%" PRIu64, vals[i]);
	}
}

/* What follows the last header: the payload, wirerate's signature first
 * when it is there (where wr_frame puts it). */
static void
payload(struct wr_dissect *d, const uint8_t *frame, uint32_t off)
{
	struct wr_dissect_layer *y;
	int kind;

	if (off >= d->len || (y = new_layer(d, NULL, off, d->len - off)) == NULL)
		return;
	if (d->len - off >= WR_SIG_SHORT_LEN &&
	    (kind = wr_sig_decode_any(frame + off, d->len - off, &d->sig)) >= 0) {
		d->has_sig = true;
		d->sig_kind = kind;
		sig_fields(d, y);
	}
	y->n_fields = (uint16_t)(d->n_fields - y->field0);
}

static const struct wr_dissect_field *
role_field(const struct wr_dissect *d, const struct wr_dissect_layer *y,
	   unsigned int role)
{
	int j = wr_proto_field_role(y->proto, role);
	uint32_t i;

	for (i = y->field0; j >= 0 && i < (uint32_t)y->field0 + y->n_fields; i++)
		if (d->field[i].name == y->proto->fields[j].name)
			return &d->field[i];
	return NULL;
}

static const struct wr_dissect_field *
named_field(const struct wr_dissect *d, const struct wr_dissect_layer *y,
	    const char *name)
{
	uint32_t i;

	for (i = y->field0; i < (uint32_t)y->field0 + y->n_fields; i++)
		if (strcmp(d->field[i].name, name) == 0)
			return &d->field[i];
	return NULL;
}

/*
 * "10.0.0.1 → 10.1.0.1 UDP 1024 → 4789 len 18": the innermost layer
 * with addresses (else the link header's), the innermost protocol's title
 * with its ports when it has some (src and dst numbers), what it names
 * next when that is nothing registered, and the payload's length (the
 * signature is the JSON's "stream").
 */
static void
summarize(struct wr_dissect *d)
{
	const struct wr_dissect_field *a = NULL, *b = NULL, *f;
	const struct wr_dissect_layer *y, *top = NULL;
	size_t n = 0, cap = sizeof(d->summary);
	uint32_t i, pay = 0;

#define PUT(...) (n += n < cap ? (size_t)snprintf(d->summary + n, cap - n, __VA_ARGS__) : 0)
	for (i = 0; i < d->n_layers; i++) {
		y = &d->layer[i];
		if (y->proto == NULL) {
			pay = y->len;
			continue;
		}
		if (y->proto == d->top)
			top = y;
		f = role_field(d, y, WR_ROLE_SRC_ADDR);
		if (f != NULL && role_field(d, y, WR_ROLE_DST_ADDR) != NULL) {
			a = f;
			b = role_field(d, y, WR_ROLE_DST_ADDR);
		} else if (a == NULL && y->proto->link) {
			a = named_field(d, y, "src");
			b = named_field(d, y, "dst");
		}
	}
	d->summary[0] = '\0';
	if (a != NULL && b != NULL)
		PUT("%s \u2192 %s ", a->value, b->value);
	if (top == NULL) {
		PUT("%u bytes", d->len);
		return;
	}
	PUT("%s", top->proto->title);
	a = named_field(d, top, "src");
	b = named_field(d, top, "dst");
	if (a != NULL && b != NULL && !top->proto->link)
		PUT(" %s \u2192 %s", a->value, b->value);
	if ((f = role_field(d, top, WR_ROLE_NEXT_ETHERTYPE)) != NULL)
		PUT(" type %s", f->value);
	else if ((f = role_field(d, top, WR_ROLE_NEXT_IPPROTO)) != NULL)
		PUT(" proto %s", f->value);
	PUT(" len %u", pay);
	if (d->truncated)
		PUT(" [truncated]");
#undef PUT
}

static void
reset(struct wr_dissect *d, uint32_t len)
{
	d->len = len;
	d->n_layers = 0;
	d->n_fields = 0;
	d->top = NULL;
	d->truncated = false;
	d->has_sig = false;
	d->sig_kind = -1;
	memset(&d->sig, 0, sizeof(d->sig));
	d->summary[0] = '\0';
}

/*
 * Where a received header's fields are when its module lays out optional
 * parts (GRE's checksum, key and sequence number): the module's own layout
 * of each choice of its optional fields (those past its fixed header),
 * with the fixed header's fields as received; the one whose length is the
 * received header's and whose every bit that no field holds (flags,
 * version) is the received one.  @return true with @p lo, false when none
 * fits (the module's offsets are used).
 */
static bool
rx_layout(const struct wr_proto *p, const uint8_t *h, uint32_t hl, struct wr_layout *lo)
{
	struct wr_field_spec fs[WR_PROTO_FIELDS_MAX];
	bool set[WR_PROTO_FIELDS_MAX];
	struct wr_layer l = { .proto = p, .field = fs, .set = set };
	uint8_t used[WR_HDR_MAX];
	unsigned int j, opt[WR_PROTO_FIELDS_MAX], n_opt = 0, b;
	uint32_t subset, i;

	if (p->layout == NULL || p->opts != NULL || p->hlen == 0 || hl > WR_HDR_MAX)
		return false;
	memset(fs, 0, sizeof(fs));
	for (j = 0; j < p->n_fields && j < WR_PROTO_FIELDS_MAX; j++) {
		const struct wr_proto_field *pf = &p->fields[j];

		set[j] = false;
		if (pf->off + pf->span > p->hlen) {
			opt[n_opt++] = j;
			continue;
		}
		for (i = 0; i < pf->span && pf->span <= 16; i++)
			fs[j].value = fs[j].value << 8 | h[pf->off + i];
		fs[j].value >>= pf->shift;
		if (pf->bits < 128)
			fs[j].value &= ((__uint128_t)1 << pf->bits) - 1;
		set[j] = true;
	}
	for (subset = 0; n_opt <= 8 && subset < (1u << n_opt); subset++) {
		for (b = 0; b < n_opt; b++)
			set[opt[b]] = (subset >> b) & 1;
		if (wr_proto_layout(&l, lo) != 0 || lo->hlen != hl)
			continue;
		/* The bits no field holds, nor the checksum or length. */
		memset(used, 0, lo->hlen);
		for (j = 0; j < p->n_fields && j < WR_PROTO_FIELDS_MAX; j++) {
			const struct wr_proto_field *pf = &p->fields[j];
			unsigned int start = pf->span * 8u - pf->shift - pf->bits, k;

			if (lo->off[j] == WR_OFF_NONE)
				continue;
			for (k = start; k < start + pf->bits && lo->off[j] + k / 8 < lo->hlen; k++)
				used[lo->off[j] + k / 8] |= (uint8_t)(0x80 >> (k % 8));
		}
		if (lo->csum != WR_CSUM_NONE)
			for (i = 0; i < (lo->csum == WR_CSUM_CRC32C ? 4u : 2u) &&
			     lo->csum_off + i < lo->hlen; i++)
				used[lo->csum_off + i] = 0xff;
		for (i = 0; i < lo->hlen; i++)
			if ((lo->bytes[i] ^ h[i]) & ~used[i])
				break;
		if (i == lo->hlen)
			return true;
	}
	return false;
}

int
wr_dissect_frame(const uint8_t *frame, uint32_t len,
		 const struct wr_pkt_hints *hints, struct wr_dissect *d)
{
	struct wr_dissect_layer *y;
	struct wr_rx_next next;
	struct wr_layout lo[1];
	struct wr_pkt pkt;
	uint32_t i, end = 0, off;
	uint16_t coff;
	uint8_t rule;
	int hl, rc;

	if (d == NULL || (frame == NULL && len != 0))
		return -EINVAL;
	reset(d, len);
	if (len == 0) {
		summarize(d);
		return 0;
	}
	/* The one walk (wr_pkt); each layer's header again for its length. */
	rc = wr_pkt_parse(frame, len, hints, &pkt);
	for (i = 0; i < pkt.n; i++) {
		off = pkt.off[i];
		if (off > end && new_layer(d, raw_proto(), end, off - end) != NULL)
			layer_fields(d, &d->layer[d->n_layers - 1], frame, NULL, WR_CSUM_NONE, 0);
		hl = wr_proto_rx(pkt.proto[i], frame + off, len - off, &next);
		if (hl <= 0 || (y = new_layer(d, pkt.proto[i], off, (uint32_t)hl)) == NULL)
			break;
		rule = wr_proto_rx_csum(pkt.proto[i], frame + off, (uint32_t)hl, &coff);
		if (rx_layout(pkt.proto[i], frame + off, (uint32_t)hl, lo))
			layer_fields(d, y, frame, lo->off, rule, coff);
		else
			layer_fields(d, y, frame, NULL, rule, coff);
		d->top = pkt.proto[i];
		end = off + (uint32_t)hl;
	}
	if (pkt.pay_off > end && rc == 0 &&
	    new_layer(d, raw_proto(), end, pkt.pay_off - end) != NULL) {
		layer_fields(d, &d->layer[d->n_layers - 1], frame, NULL, WR_CSUM_NONE, 0);
		end = pkt.pay_off;
	}
	if (rc < 0 && len > 0) {
		const struct wr_proto *p = NULL;

		/* The header the last one announced, cut short: its bytes,
		 * with the fields they hold. */
		if (pkt.n == 0)
			p = wr_proto_link();
		else if (wr_proto_rx(pkt.proto[pkt.n - 1], frame + pkt.off[pkt.n - 1],
				     len - pkt.off[pkt.n - 1], &next) > 0)
			p = wr_proto_rx_next(&next);
		d->truncated = true;
		if (p != NULL && end < len && (y = new_layer(d, p, end, len - end)) != NULL) {
			y->truncated = true;
			layer_fields(d, y, frame, NULL, WR_CSUM_NONE, 0);
			end = len;
		}
	}
	payload(d, frame, end);
	summarize(d);
	return 0;
}

int
wr_dissect_built(const uint8_t *frame, uint32_t len,
		 const struct wr_layer *layers, uint32_t n_layers,
		 struct wr_dissect *d)
{
	struct wr_dissect_layer *y;
	struct wr_layout lo;
	uint32_t i, off = 0;

	if (d == NULL || layers == NULL || (frame == NULL && len != 0))
		return -EINVAL;
	reset(d, len);
	for (i = 0; i < n_layers; i++) {
		if (wr_proto_layout(&layers[i], &lo) < 0 || off + lo.hlen > len)
			return -EINVAL;
		y = new_layer(d, layers[i].proto, off, lo.hlen);
		if (y == NULL)
			return -EINVAL;
		layer_fields(d, y, frame, lo.off, lo.csum, lo.csum_off);
		if (layers[i].proto->hlen != 0)
			d->top = layers[i].proto;
		off += lo.hlen;
	}
	payload(d, frame, off);
	summarize(d);
	return 0;
}

json_t *
wr_dissect_json(const struct wr_dissect *d, const uint8_t *frame,
		const char *stream_name)
{
	json_t *o = json_object(), *ls = json_array(), *l, *fs, *f, *s;
	const struct wr_dissect_layer *y;
	const struct wr_dissect_field *x;
	char *hex = malloc((size_t)d->len * 2 + 1);
	uint32_t i, k;

	if (o == NULL || ls == NULL || hex == NULL) {
		json_decref(o);
		json_decref(ls);
		free(hex);
		return NULL;
	}
	for (i = 0; i < d->len; i++)
		snprintf(hex + 2 * i, 3, "%02x", frame[i]);
	hex[2 * d->len] = '\0';
	json_object_set_new(o, "len", json_integer(d->len));
	json_object_set_new(o, "hex", json_string(hex));
	free(hex);
	for (i = 0; i < d->n_layers; i++) {
		y = &d->layer[i];
		fs = json_array();
		for (k = y->field0; k < (uint32_t)y->field0 + y->n_fields; k++) {
			x = &d->field[k];
			f = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:s}", "key", x->key,
				      "name", x->name, "off", (json_int_t)x->off,
				      "len", (json_int_t)x->len, "bit", (json_int_t)x->bit,
				      "bits", (json_int_t)x->bits, "value", x->value);
			json_array_append_new(fs, f);
		}
		l = json_pack("{s:s, s:s, s:i, s:i, s:o}", "proto", y->name, "title", y->title,
			      "off", (json_int_t)y->off, "len", (json_int_t)y->len, "fields", fs);
		if (l != NULL && y->truncated)
			json_object_set_new(l, "truncated", json_true());
		json_array_append_new(ls, l);
	}
	json_object_set_new(o, "layers", ls);
	json_object_set_new(o, "summary", json_string(d->summary));
	json_object_set_new(o, "top", d->top != NULL ? json_string(d->top->name) : json_null());
	if (d->truncated)
		json_object_set_new(o, "truncated", json_true());
	if (d->has_sig) {
		s = json_pack("{s:i, s:o, s:I, s:i}", "index",
			      (json_int_t)WR_SIG_STREAM(d->sig.stream_id), "name",
			      stream_name != NULL ? json_string(stream_name) : json_null(),
			      "seq", (json_int_t)d->sig.seq,
			      "lane", (json_int_t)WR_SIG_LANE(d->sig.stream_id));
		json_object_set_new(o, "stream", s);
	}
	return o;
}

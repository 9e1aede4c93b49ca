/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml_size: a stream's frame sizes, payload and signature, and whether its smallest frame holds them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame.h"
#include "wr_sig.h"
#include "wr_stream.h"
#include "wr_yaml_priv.h"
#include "wr_ytree.h"

/* The largest payload: a 9018-byte frame less FCS, Ethernet, IPv4, UDP. */
#define PAYLOAD_MAX ((unsigned int)(WR_FRAME_MAX - WR_FCS_LEN - \
	WR_ETH_HLEN - WR_IPV4_HLEN - WR_UDP_HLEN))
/* Entries of a size mix, and the most frames one mix cycle may hold (the
 * frame builder lays out a whole cycle). */
#define MIX_MAX 1024
#define MIX_WEIGHT_SUM_MAX 1000000

static const char *const size_inc_keys[] = { "from", "to", "step", NULL };
static const char *const size_random_keys[] = { "min", "max", NULL };
static const char *const size_keys[] = { "inc", "random", "mix", NULL };
static const char *const mix_keys[] = { "size", "weight", NULL };
static const char *const payload_keys[] = { "pattern", "string", NULL };

/* Simple IMIX (the 7:4:1 mix of 64, 594 and 1518-byte frames, as Spirent,
 * Ixia and Ostinato define it). */
static const struct wr_size_weight simple_imix[] = {
	{ .size = 64, .weight = 7 },
	{ .size = 594, .weight = 4 },
	{ .size = 1518, .weight = 1 },
};

static int
frame_size(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *out)
{
	return wr_ywalk_u64(w, n, WR_FRAME_MIN, WR_FRAME_MAX, out);
}

static int
size_mix(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_size_spec *sz)
{
	const struct wr_ynode *e, *size, *weight;
	struct wr_size_weight *mix;
	uint64_t v, sum = 0;
	size_t i, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ)
		return wr_ywalk_expected(w, n, "a list [{size, weight}, ...]");
	if (n->n_kids == 0 || n->n_kids > MIX_MAX)
		return wr_ywalk_fail(w, n, "expected a list of 1 to %u "
				     "{size, weight} entries, got %zu", MIX_MAX,
				     n->n_kids);
	mix = calloc(n->n_kids, sizeof(*mix));
	if (mix == NULL)
		return -ENOMEM;
	sz->min = WR_FRAME_MAX;
	sz->max = WR_FRAME_MIN;
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		e = n->kids[i];
		old = wr_ywalk_push_index(w, i);
		rc = wr_ywalk_keys(w, e, "a mapping {size, weight}", mix_keys);
		size = wr_ynode_get(e, "size");
		weight = wr_ynode_get(e, "weight");
		if (rc == 0 && size == NULL)
			rc = wr_ywalk_missing(w, e, "size");
		if (rc == 0 && weight == NULL)
			rc = wr_ywalk_missing(w, e, "weight");
		if (rc == 0)
			rc = WR_YWALK_KEY(w, "size", frame_size(w, size, &v));
		if (rc == 0) {
			mix[i].size = (uint16_t)v;
			if (v < sz->min)
				sz->min = (uint16_t)v;
			if (v > sz->max)
				sz->max = (uint16_t)v;
			rc = WR_YWALK_KEY(w, "weight",
				      wr_ywalk_u64(w, weight, 1,
						   MIX_WEIGHT_SUM_MAX, &v));
		}
		if (rc == 0) {
			mix[i].weight = (uint32_t)v;
			sum += v;
			if (sum > MIX_WEIGHT_SUM_MAX)
				rc = WR_YWALK_KEY(w, "weight", wr_ywalk_fail(w, weight,
					"expected weights that sum to at most %u, "
					"got a sum of %" PRIu64 " here",
					MIX_WEIGHT_SUM_MAX, sum));
		}
		wr_ywalk_pop(w, old);
	}
	if (rc != 0) {
		free(mix);
		return rc;
	}
	sz->mode = WR_SIZE_MIX;
	sz->mix = mix;
	sz->n_mix = (uint32_t)n->n_kids;
	return 0;
}

#define SIZE_EXPECT \
	"a frame size in 64..9018 (FCS included), imix, {inc: ...}, " \
	"{random: ...} or {mix: [...]}"

int
wr_yaml_size(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_size_spec *sz)
{
	const struct wr_ynode *body = NULL, *a, *b, *step;
	uint64_t from, to, st = 1;
	char what[64];
	int mode, rc;

	if (n->type == WR_YNODE_SCALAR) {
		if (strcmp(wr_ynode_text(n), "imix") == 0) {
			sz->mix = malloc(sizeof(simple_imix));
			if (sz->mix == NULL)
				return -ENOMEM;
			memcpy(sz->mix, simple_imix, sizeof(simple_imix));
			sz->n_mix = sizeof(simple_imix) / sizeof(simple_imix[0]);
			sz->mode = WR_SIZE_MIX;
			sz->min = 64;
			sz->max = 1518;
			return 0;
		}
		if (wr_parse_u64(wr_ynode_text(n), WR_FRAME_MIN, WR_FRAME_MAX,
				 &from, NULL, 0) != 0)
			return wr_ywalk_expected(w, n, SIZE_EXPECT);
		sz->mode = WR_SIZE_FIXED;
		sz->fixed = sz->min = sz->max = (uint16_t)from;
		return 0;
	}
	mode = wr_ywalk_one_key(w, n, SIZE_EXPECT, size_keys, &body);
	if (mode < 0)
		return mode;
	if (mode == 2)
		return WR_YWALK_KEY(w, "mix", size_mix(w, body, sz));

	/* inc {from, to, step} and random {min, max} share the checks. */
	{
		size_t old = wr_ywalk_push_key(w, size_keys[mode]);
		const char *ka = mode == 0 ? "from" : "min";
		const char *kb = mode == 0 ? "to" : "max";

		rc = wr_ywalk_keys(w, body, mode == 0 ?
				   "a mapping {from, to, step}" :
				   "a mapping {min, max}",
				   mode == 0 ? size_inc_keys : size_random_keys);
		a = wr_ynode_get(body, ka);
		b = wr_ynode_get(body, kb);
		step = mode == 0 ? wr_ynode_get(body, "step") : NULL;
		if (rc == 0 && a == NULL)
			rc = wr_ywalk_missing(w, body, ka);
		if (rc == 0 && b == NULL)
			rc = wr_ywalk_missing(w, body, kb);
		if (rc == 0)
			rc = WR_YWALK_KEY(w, ka, frame_size(w, a, &from));
		if (rc == 0)
			rc = WR_YWALK_KEY(w, kb, frame_size(w, b, &to));
		if (rc == 0 && step != NULL)
			rc = WR_YWALK_KEY(w, "step", wr_ywalk_u64(w, step, 1,
						WR_FRAME_MAX, &st));
		if (rc == 0 && to < from) {
			snprintf(what, sizeof(what), "a size >= %s (%s)", ka,
				 a->str);
			rc = WR_YWALK_KEY(w, kb, wr_ywalk_expected(w, b, what));
		}
		wr_ywalk_pop(w, old);
		if (rc != 0)
			return rc;
	}
	sz->mode = mode == 0 ? WR_SIZE_INC : WR_SIZE_RANDOM;
	sz->from = (uint16_t)from;
	sz->to = (uint16_t)to;
	sz->step = (uint16_t)st;
	sz->min = (uint16_t)from;
	/* inc stops at the last step that does not pass `to`. */
	sz->max = (uint16_t)(mode == 0 ? from + (to - from) / st * st : to);
	return 0;
}

#define PAYLOAD_EXPECT \
	"zeros, inc, {pattern: \"deadbeef\"} or {string: \"text\"}"

int
wr_yaml_payload(struct wr_ywalk *w, const struct wr_ynode *n,
		struct wr_payload_spec *p)
{
	char why[WR_PARSE_WHY_MAX];
	const struct wr_ynode *body = NULL;
	uint8_t *bytes;
	size_t len;
	int kind, rc;

	if (n->type == WR_YNODE_SCALAR) {
		if (strcmp(wr_ynode_text(n), "zeros") == 0)
			p->kind = WR_PAYLOAD_ZEROS;
		else if (strcmp(wr_ynode_text(n), "inc") == 0)
			p->kind = WR_PAYLOAD_INC;
		else
			return wr_ywalk_expected(w, n, PAYLOAD_EXPECT);
		return 0;
	}
	kind = wr_ywalk_one_key(w, n, PAYLOAD_EXPECT, payload_keys, &body);
	if (kind < 0)
		return kind;
	if (kind == 0) {
		/* Hex is two characters a byte at least: len / 2 bytes. */
		len = body->type == WR_YNODE_SCALAR ? body->len / 2 + 1 : 1;
		bytes = malloc(len);
		if (bytes == NULL)
			return -ENOMEM;
		rc = wr_parse_hex(wr_ynode_text(body), bytes, PAYLOAD_MAX < len ?
				  PAYLOAD_MAX : len, &len, why, sizeof(why));
		if (rc != 0) {
			free(bytes);
			return WR_YWALK_KEY(w, "pattern", wr_ywalk_why(w, body, why));
		}
		p->kind = WR_PAYLOAD_PATTERN;
	} else {
		if (body->type != WR_YNODE_SCALAR || body->len == 0)
			return WR_YWALK_KEY(w, "string", wr_ywalk_expected(w, body,
					"a non-empty string"));
		if (body->len > PAYLOAD_MAX)
			return WR_YWALK_KEY(w, "string", wr_ywalk_fail(w, body,
				"expected a string of at most %u bytes (a %u-byte "
				"frame less Ethernet, IPv4, UDP and FCS), got "
				"%zu bytes", PAYLOAD_MAX, WR_FRAME_MAX,
				body->len));
		len = body->len;
		/* Bytes as written, "\0" escapes included: len, not strlen. */
		bytes = malloc(len);
		if (bytes == NULL)
			return -ENOMEM;
		memcpy(bytes, body->str, len);
		p->kind = WR_PAYLOAD_STRING;
	}
	p->bytes = bytes;
	p->len = (uint32_t)len;
	return 0;
}

/* latency: true (a timestamp signature, 24 bytes or the 18-byte compact one
 * where 24 do not fit: loss and latency), false, or loss (the 16-byte
 * loss-only signature). */
int
wr_yaml_latency(struct wr_ywalk *w, const struct wr_ynode *v,
		struct wr_stream *s)
{
	if (strcmp(wr_ynode_text(v), "loss") == 0) {
		s->latency = true;
		s->sig_short = true;
		return 0;
	}
	if (wr_parse_bool(wr_ynode_text(v), &s->latency, NULL, 0) == 0)
		return 0;
	return wr_ywalk_expected(w, v, "true, false or loss");
}

/* The smallest frame must hold every header, the signature and a string
 * payload (wr_stream.h: the string is not cut to fit). */
int
wr_yaml_check_fit(struct wr_ywalk *w, const struct wr_ynode *stream,
		  struct wr_stream *s)
{
	const struct wr_ynode *size = wr_ynode_get(stream, "size");
	char parts[320], head[64];
	unsigned int need, used, i;
	uint32_t sig;
	size_t k;

	used = wr_stream_hdr_len(s) +
	       (s->payload.kind == WR_PAYLOAD_STRING ? s->payload.len : 0);
	/* Without size: the smallest frame that holds it, with the full
	 * signature (as before the compact one: the size a file without
	 * `size` got does not change). */
	if (size == NULL) {
		sig = !s->latency ? 0 : s->sig_short ? WR_SIG_SHORT_LEN :
			WR_SIG_LEN;
		need = used + sig + WR_FCS_LEN;
		if (s->size.min < need)
			s->size.fixed = s->size.min = s->size.max =
				(uint16_t)need;
		return 0;
	}
	/* A given size needs room for the smallest signature that serves:
	 * the compact one where the full one does not fit (wr_sig.h). */
	sig = !s->latency ? 0 : s->sig_short ? WR_SIG_SHORT_LEN :
		WR_SIG_COMPACT_LEN;
	need = used + sig + WR_FCS_LEN;
	if (s->size.min >= need)
		return 0;
	for (k = 0, i = 0; i < s->n_layers && k < sizeof(parts); i++)
		k += (size_t)snprintf(parts + k, sizeof(parts) - k, "%s%s %u",
				      i ? " + " : "", s->layers[i].proto->name,
				      wr_layer_hlen(&s->layers[i]));
	if (s->latency)
		k += (size_t)snprintf(parts + k, sizeof(parts) - k,
				      " + %s signature %u",
				      s->sig_short ? "loss" : "latency", sig);
	if (s->payload.kind == WR_PAYLOAD_STRING)
		k += (size_t)snprintf(parts + k, sizeof(parts) - k,
				      " + string payload %u", s->payload.len);
	snprintf(parts + k, sizeof(parts) - k, " + FCS %u", WR_FCS_LEN);
	if (s->size.mode == WR_SIZE_FIXED)
		snprintf(head, sizeof(head), "%u bytes", s->size.min);
	else
		snprintf(head, sizeof(head), "the smallest frame, %u bytes,",
			 s->size.min);
	return WR_YWALK_KEY(w, "size", wr_ywalk_fail(w, size,
			"%s cannot hold %s: need at least %u", head, parts,
			need));
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_test_frame: stream builders and an independent frame checker for the frame tests. */
#ifndef WR_TEST_FRAME_H
#define WR_TEST_FRAME_H

/*
 * The checker below shares no code with lib/core: it sums byte by byte with
 * an explicit end-around carry after each word, exactly as RFC 1071 section
 * 4.1 describes, and parses the frame from its bytes.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_frame.h"
#include "wr_proto.h"

/* RFC 1071 one's-complement sum, one word at a time. */
static inline uint16_t
ref_sum(const uint8_t *b, size_t len, uint32_t start)
{
	uint32_t sum = start;
	size_t i;

	for (i = 0; i < len; i += 2) {
		uint32_t w = (uint32_t)b[i] << 8;

		if (i + 1 < len)
			w |= b[i + 1];
		sum += w;
		if (sum > 0xffff)
			sum -= 0xffff; /* end-around carry */
	}
	return (uint16_t)sum;
}

/* CRC32c bit by bit, straight from the definition (RFC 3309 section 3),
 * independent of wr_csum's tables and SSE 4.2. */
static inline uint32_t
ref_crc32c(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffffu;
	int k;

	while (len-- > 0) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return ~crc;
}

#define REF_BAD_ETHERTYPE 1
#define REF_BAD_IPLEN 2
#define REF_BAD_IPCSUM 4
#define REF_BAD_UDPLEN 8
#define REF_BAD_UDPCSUM 16

/* Layer-2 header length of a frame, or 0 when it is not IPv4. */
static inline unsigned int
ref_l2(const uint8_t *f)
{
	unsigned int et = (unsigned int)(f[12] << 8 | f[13]);

	if (et == 0x8100)
		return (f[16] << 8 | f[17]) == 0x0800 ? 18 : 0;
	return et == 0x0800 ? 14 : 0;
}

/*
 * Check the lengths and both checksums of a frame of @p len bytes (FCS
 * excluded) by full recomputation.  @return 0 or REF_BAD_* bits.
 */
static inline int
ref_check(const uint8_t *f, unsigned int len)
{
	uint8_t ip[60], *seg, ph[12];
	unsigned int l2 = ref_l2(f), iplen, ulen, ihl;
	uint16_t stored, c;
	uint32_t sum;
	int bad = 0;

	if (l2 == 0)
		return REF_BAD_ETHERTYPE;
	/* IHL words of header: options (RFC 791) included. */
	ihl = (f[l2] & 0xf) * 4u;
	if (f[l2] >> 4 != 4 || ihl < 20)
		return REF_BAD_IPLEN;
	memcpy(ip, f + l2, ihl);
	iplen = (unsigned int)(ip[2] << 8 | ip[3]);
	if (iplen != len - l2)
		bad |= REF_BAD_IPLEN;
	stored = (uint16_t)(ip[10] << 8 | ip[11]);
	ip[10] = ip[11] = 0;
	c = (uint16_t)~ref_sum(ip, ihl, 0);
	if (c != stored)
		bad |= REF_BAD_IPCSUM;
	ulen = (unsigned int)(f[l2 + ihl + 4] << 8 | f[l2 + ihl + 5]);
	if (ulen != len - l2 - ihl)
		return bad | REF_BAD_UDPLEN;
	seg = malloc(ulen);
	memcpy(seg, f + l2 + ihl, ulen);
	stored = (uint16_t)(seg[6] << 8 | seg[7]);
	seg[6] = seg[7] = 0;
	memcpy(ph, ip + 12, 8);
	ph[8] = 0;
	ph[9] = 17;
	ph[10] = (uint8_t)(ulen >> 8);
	ph[11] = (uint8_t)ulen;
	sum = ref_sum(ph, 12, 0);
	c = (uint16_t)~ref_sum(seg, ulen, sum);
	if (c == 0)
		c = 0xffff; /* RFC 768 */
	if (c != stored)
		bad |= REF_BAD_UDPCSUM;
	free(seg);
	return bad;
}

/* The shorthand's fields (eth, vlan, ipv4, udp keys), for tests: their
 * keys as wr_stream_field() takes them and their widths. */
enum ref_id {
	REF_ETH_SRC, REF_ETH_DST, REF_VLAN_ID, REF_VLAN_PCP, REF_IPV4_SRC,
	REF_IPV4_DST, REF_IPV4_ID, REF_IPV4_TTL, REF_IPV4_DSCP, REF_UDP_SRC,
	REF_UDP_DST, REF__COUNT
};

static const char *const ref_key[REF__COUNT] = {
	"eth.src", "eth.dst", "vlan.id", "vlan.pcp", "ipv4.src", "ipv4.dst",
	"ipv4.id", "ipv4.ttl", "ipv4.dscp", "udp.src", "udp.dst",
};

static const unsigned int ref_bits[REF__COUNT] = {
	48, 48, 12, 3, 32, 32, 16, 8, 6, 16, 16,
};

/* The spec of a shorthand field of @p s (NULL: vlan.* of an untagged one). */
static inline struct wr_field_spec *
ref_spec(struct wr_stream *s, enum ref_id id)
{
	return wr_stream_field(s, ref_key[id]);
}

/* A field of the stream's stack by its key ("ipv4.ecn"). */
#define REF_KEY(s, key) (*wr_stream_field((s), (key)))
#define REF(s, id) (*ref_spec((s), (id)))

/* Give a shorthand stream its 802.1Q tag (VID 0, PCP 0), keeping every
 * other field as it is. */
static inline void
ref_vlan(struct wr_stream *s)
{
	struct wr_layer *l;

	if (wr_stream_field(s, "vlan.id") != NULL)
		return;
	l = realloc(s->layers, (s->n_layers + 1) * sizeof(*l));
	if (l == NULL)
		abort();
	memmove(&l[2], &l[1], (s->n_layers - 1) * sizeof(*l));
	if (wr_layer_init(&l[1], wr_proto_find("vlan")) != 0)
		abort();
	strcpy(l[1].key, "vlan");
	s->layers = l;
	s->n_layers++;
}

/* A plain stream: 00:aa:bb:cc:dd:ee -> 00:11:22:33:44:55, 192.168.0.1 ->
 * 192.168.0.2, TTL 64, DF, UDP 1024 -> 1025, 64 bytes, zero payload: the
 * shorthand's stack, as a stream file without stack: gets it.  Free it with
 * ref_free() (or wr_stream_free() when the stream owns its payload). */
static inline void
ref_stream(struct wr_stream *s)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->name, "test");
	s->seed = 1;
	if (wr_stream_shorthand(s, false) != 0)
		abort();
	REF(s, REF_ETH_DST).value = 0x001122334455ull;
	REF(s, REF_ETH_SRC).value = 0x00aabbccddeeull;
	REF(s, REF_IPV4_SRC).value = 0xc0a80001;
	REF(s, REF_IPV4_DST).value = 0xc0a80002;
	REF(s, REF_IPV4_TTL).value = 64;
	REF(s, REF_UDP_SRC).value = 1024;
	REF(s, REF_UDP_DST).value = 1025;
	s->size.mode = WR_SIZE_FIXED;
	s->size.fixed = 64;
	s->payload.kind = WR_PAYLOAD_ZEROS;
}

/* Free what ref_stream() and ref_vlan() allocated (the stack and its
 * lists), not a payload the test owns. */
static inline void
ref_free(struct wr_stream *s)
{
	wr_stream_layers_free(s->layers, s->n_layers);
	free(s->layers);
	s->layers = NULL;
	s->n_layers = 0;
}

static inline void
ref_inc(struct wr_stream *s, enum ref_id id, uint64_t from, uint64_t to,
	uint64_t step)
{
	struct wr_field_spec *f = ref_spec(s, id);

	f->mode = from <= to ? WR_VARY_INC : WR_VARY_DEC;
	f->from = from;
	f->to = to;
	f->step = step;
	f->value = from;
}

static inline void
ref_random(struct wr_stream *s, enum ref_id id, uint64_t from, uint64_t to)
{
	struct wr_field_spec *f = ref_spec(s, id);

	f->mode = WR_VARY_RANDOM;
	f->from = from;
	f->to = to;
}

/* LIST mode; the stream owns the copy (freed by wr_stream_free). */
static inline void
ref_list(struct wr_stream *s, enum ref_id id, const uint64_t *v,
	 uint32_t n)
{
	struct wr_field_spec *f = ref_spec(s, id);

	uint32_t i;

	f->mode = WR_VARY_LIST;
	f->list = malloc(n * sizeof(*f->list));
	for (i = 0; i < n; i++)
		f->list[i] = v[i];
	f->list_len = n;
	f->value = v[0];
}

/* Read a field's value back from frame bytes (independent of wr_frame.c). */
static inline uint64_t
ref_field(const uint8_t *f, enum ref_id id)
{
	unsigned int l2 = ref_l2(f), ip = l2, udp = l2 + (f[l2] & 0xf) * 4u, i;
	uint64_t v = 0;

	switch (id) {
	case REF_ETH_DST:
	case REF_ETH_SRC:
		for (i = 0; i < 6; i++)
			v = v << 8 | f[(id == REF_ETH_SRC ? 6 : 0) + i];
		return v;
	case REF_VLAN_ID:
		return (uint64_t)((f[14] & 0x0f) << 8 | f[15]);
	case REF_VLAN_PCP:
		return f[14] >> 5;
	case REF_IPV4_SRC:
	case REF_IPV4_DST:
		for (i = 0; i < 4; i++)
			v = v << 8 | f[ip + (id == REF_IPV4_SRC ? 12 : 16) + i];
		return v;
	case REF_IPV4_ID:
		return (uint64_t)(f[ip + 4] << 8 | f[ip + 5]);
	case REF_IPV4_TTL:
		return f[ip + 8];
	case REF_IPV4_DSCP:
		return f[ip + 1] >> 2;
	case REF_UDP_SRC:
		return (uint64_t)(f[udp] << 8 | f[udp + 1]);
	case REF_UDP_DST:
		return (uint64_t)(f[udp + 2] << 8 | f[udp + 3]);
	default:
		return 0;
	}
}

/* Deterministic test randomness (xorshift64*), independent of wr_rng.h. */
static inline uint64_t
ref_rand(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 0x2545f4914f6cdd1dull;
}

#endif /* WR_TEST_FRAME_H */

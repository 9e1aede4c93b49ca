/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_capture: pcap/pcapng captures read with libpcap, checked record by record. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <pcap/pcap.h>

#include "wr_capture.h"
#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_in.h"
#include "wr_pkt.h"
#include "wr_proto.h"
#include "wr_rng.h"

/* The checksum's offset in each L4 header (RFC 768, 793, 792, 4443). */
#define UDP_CSUM_OFF 6
#define TCP_CSUM_OFF 16
#define ICMP_CSUM_OFF 2
/* Reads of the file for its digest. */
#define READ_CHUNK (1u << 20)

void
wr_capture_free(struct wr_capture *c)
{
	if (c == NULL)
		return;
	free(c->data);
	free(c->off);
	free(c->len);
	free(c->ts_ns);
	memset(c, 0, sizeof(*c));
}

/* Room for one more frame of @p len bytes; arrays grow by doubling. */
static int
grow(struct wr_capture *c, uint32_t *cap_n, uint64_t *cap_data, uint32_t len)
{
	if (c->n == *cap_n) {
		uint32_t nn = *cap_n ? *cap_n * 2 : 1024;
		uint64_t *off = realloc(c->off, nn * sizeof(*off));
		uint64_t *ts = off ? realloc(c->ts_ns, nn * sizeof(*ts)) : NULL;
		uint16_t *l;

		if (off != NULL)
			c->off = off;
		if (ts != NULL)
			c->ts_ns = ts;
		l = ts ? realloc(c->len, nn * sizeof(*l)) : NULL;
		if (l == NULL)
			return -ENOMEM;
		c->len = l;
		*cap_n = nn;
	}
	if (c->bytes + len > *cap_data) {
		uint64_t nd = *cap_data ? *cap_data * 2 : 1u << 20;
		uint8_t *d;

		while (nd < c->bytes + len)
			nd *= 2;
		d = realloc(c->data, nd);
		if (d == NULL)
			return -ENOMEM;
		c->data = d;
		*cap_data = nd;
	}
	return 0;
}

/* Every record of @p p into @p c, checked; no further than @p max bytes
 * into the file (one that grows after its digest was taken). */
static int
read_records(pcap_t *p, const char *name, uint64_t max, struct wr_capture *c,
	     struct wr_error *err)
{
	struct pcap_pkthdr *h;
	const u_char *bytes;
	uint32_t cap_n = 0, rec = 0;
	uint64_t cap_data = 0, prev = 0;
	int dlt = pcap_datalink(p), rc;

	if (dlt != DLT_EN10MB) {
		const char *dn = pcap_datalink_val_to_name(dlt);

		return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				    "record 1: link type %s (%d): only Ethernet "
				    "(EN10MB) captures can be sent",
				    dn ? dn : "unknown", dlt);
	}
	c->min_len = UINT16_MAX;
	for (;;) {
		uint64_t ts;

		rc = pcap_next_ex(p, &h, &bytes);
		if (rc == PCAP_ERROR_BREAK)
			break;
		rec++;
		if (rc != 1)
			return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
					    "record %u: cannot be read: %s", rec,
					    pcap_geterr(p));
		if ((uint64_t)ftello(pcap_file(p)) > max)
			return wr_error_set(err, -EFBIG, name, 0, 0, NULL,
					    "cannot read the capture: it grew "
					    "over the limit while read");
		if (h->caplen < h->len)
			return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				"record %u: truncated: %u of its %u bytes were "
				"captured (snapshot length %d); a cut frame "
				"cannot be sent as it was", rec, h->caplen,
				h->len, pcap_snapshot(p));
		if (h->len < WR_CAPTURE_FRAME_MIN)
			return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				"record %u: %u bytes is shorter than an "
				"Ethernet header (%u)", rec, h->len,
				WR_CAPTURE_FRAME_MIN);
		if (h->len > WR_CAPTURE_FRAME_MAX)
			return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				"record %u: a frame of %u bytes (%u with FCS) "
				"is larger than the largest wirerate sends "
				"(%u with FCS)", rec, h->len,
				h->len + WR_FCS_LEN, WR_FRAME_MAX);
		rc = grow(c, &cap_n, &cap_data, h->caplen);
		if (rc != 0)
			return wr_error_set(err, rc, name, 0, 0, NULL,
					    "record %u: out of memory", rec);
		ts = (uint64_t)h->ts.tv_sec * 1000000000ull +
			(uint64_t)h->ts.tv_usec;
		if (c->n > 0 && ts < prev) {
			ts = prev;
			c->reordered++;
		}
		prev = ts;
		c->off[c->n] = c->bytes;
		c->len[c->n] = (uint16_t)h->caplen;
		c->ts_ns[c->n] = ts;
		memcpy(c->data + c->bytes, bytes, h->caplen);
		c->bytes += h->caplen;
		if (h->caplen < c->min_len)
			c->min_len = (uint16_t)h->caplen;
		if (h->caplen > c->max_len) {
			c->max_len = (uint16_t)h->caplen;
			c->max_rec = rec;
		}
		c->n++;
	}
	if (c->n == 0)
		return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				    "record 1: the capture holds no frame");
	return 0;
}

/* Load from an open FILE (pcap takes it and closes it). */
static int
load_fp(const char *name, FILE *fp, uint64_t max, struct wr_capture *c,
	struct wr_error *err)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p;
	int rc;

	p = pcap_fopen_offline_with_tstamp_precision(fp,
		PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (p == NULL) {
		fclose(fp);
		return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				    "record 0: not a pcap or pcapng capture (%s)",
				    errbuf);
	}
	rc = read_records(p, name, max, c, err);
	pcap_close(p);
	return rc;
}

int
wr_capture_load_buf(const char *name, const uint8_t *buf, size_t len,
		    struct wr_capture *c, struct wr_error *err)
{
	FILE *fp;
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", name);
	if (len == 0)
		return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				    "record 0: an empty file is not a capture");
	if (EVP_Digest(buf, len, c->sha256, NULL, EVP_sha256(), NULL) != 1)
		return wr_error_set(err, -EIO, name, 0, 0, NULL,
				    "sha256 of the capture failed");
	fp = fmemopen((void *)(uintptr_t)buf, len, "rb");
	if (fp == NULL)
		return wr_error_set(err, -ENOMEM, name, 0, 0, NULL,
				    "out of memory");
	rc = load_fp(name, fp, len, c, err);
	if (rc != 0)
		wr_capture_free(c);
	return rc;
}

/* sha256 of the file's bytes, read in chunks (a capture may be large), up
 * to @p max bytes: -EFBIG past it (a file that grows while read). */
static int
digest_file(FILE *fp, uint64_t max, uint8_t out[32], uint64_t *size)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t *chunk = malloc(READ_CHUNK);
	size_t got;
	int rc = -EIO;

	*size = 0;
	if (ctx == NULL || chunk == NULL ||
	    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
		goto out;
	while ((got = fread(chunk, 1, READ_CHUNK, fp)) > 0) {
		if (EVP_DigestUpdate(ctx, chunk, got) != 1)
			goto out;
		*size += got;
		if (*size > max) {
			rc = -EFBIG;
			goto out;
		}
	}
	if (!ferror(fp) && EVP_DigestFinal_ex(ctx, out, NULL) == 1)
		rc = 0;
out:
	free(chunk);
	EVP_MD_CTX_free(ctx);
	return rc;
}

/* Whether @p fp starts as libpcap's reader expects: a pcap file (either
 * byte order; micro-, nanosecond or Kuznetzov's) or a pcapng section
 * header block; rewound.  An empty file passes, for its own error. */
static bool
capture_magic(FILE *fp)
{
	static const uint32_t magic[] = { 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d,
					  0x4d3cb2a1, 0xa1b2cd34, 0x34cdb2a1,
					  0x0a0d0d0a };
	uint8_t b[4];
	uint32_t m;
	size_t n = fread(b, 1, sizeof(b), fp), i;

	rewind(fp);
	if (n == 0)
		return true;
	if (n < sizeof(b))
		return false;
	m = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 |
	    b[3];
	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if (m == magic[i])
			return true;
	return false;
}

int
wr_capture_load(const char *path, uint64_t max, struct wr_capture *c,
		struct wr_error *err)
{
	char why[128];
	uint64_t size;
	FILE *fp;
	int fd, rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
	fd = wr_in_open(path, max, 0, why, sizeof(why));
	if (fd < 0)
		return wr_error_set(err, fd, path, 0, 0, NULL,
				    "cannot read the capture: %s", why);
	fp = fdopen(fd, "rb");
	if (fp == NULL) {
		rc = -errno;
		close(fd);
		return wr_error_set(err, rc, path, 0, 0, NULL,
				    "cannot read the capture: %s",
				    strerror(-rc));
	}
	/* Not a capture: said at once, not after a digest of all of it. */
	if (!capture_magic(fp)) {
		fclose(fp);
		return wr_error_set(err, -EINVAL, path, 0, 0, NULL,
				    "record 0: not a pcap or pcapng capture");
	}
	rc = digest_file(fp, max, c->sha256, &size);
	if (rc != 0) {
		fclose(fp);
		return wr_error_set(err, rc, path, 0, 0, NULL,
				    "cannot read the capture%s",
				    rc == -EFBIG ? ": it grew over the limit "
				    "while read" : "");
	}
	if (size == 0) {
		fclose(fp);
		return wr_error_set(err, -EINVAL, path, 0, 0, NULL,
				    "record 0: an empty file is not a capture");
	}
	rewind(fp);
	rc = load_fp(path, fp, max, c, err);
	if (rc != 0)
		wr_capture_free(c);
	return rc;
}

int
wr_capture_from_frame(const char *name, const uint8_t *bytes, uint16_t len,
		      uint32_t n, struct wr_capture *c, struct wr_error *err)
{
	uint32_t k;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", name);
	if (len < WR_CAPTURE_FRAME_MIN || len > WR_CAPTURE_FRAME_MAX || n == 0)
		return wr_error_set(err, -EINVAL, name, 0, 0, NULL,
				    "a frame of %u bytes: expected %u to %u "
				    "bytes (without FCS)", len,
				    WR_CAPTURE_FRAME_MIN, WR_CAPTURE_FRAME_MAX);
	c->data = malloc((size_t)len * n);
	c->off = calloc(n, sizeof(*c->off));
	c->len = calloc(n, sizeof(*c->len));
	c->ts_ns = calloc(n, sizeof(*c->ts_ns));
	if (c->data == NULL || c->off == NULL || c->len == NULL ||
	    c->ts_ns == NULL) {
		wr_capture_free(c);
		return wr_error_set(err, -ENOMEM, name, 0, 0, NULL,
				    "out of memory for %u frames", n);
	}
	for (k = 0; k < n; k++) {
		c->off[k] = (uint64_t)k * len;
		c->len[k] = len;
		memcpy(c->data + c->off[k], bytes, len);
	}
	c->n = n;
	c->min_len = c->max_len = len;
	c->max_rec = 1;
	c->bytes = (uint64_t)len * n;
	EVP_Digest(bytes, len, c->sha256, NULL, EVP_sha256(), NULL);
	return 0;
}

/* ---- edits ---- */

static const struct wr_rewrite_desc rewrites[] = {
#define WR_X(e, n, k, b, t) [WR_REWRITE_##e] = { n, k, b, t },
	WR_REWRITES(WR_X)
#undef WR_X
};

const struct wr_rewrite_desc *
wr_rewrite_desc(enum wr_rewrite_id id)
{
	return (unsigned int)id < WR_REWRITE__COUNT ? &rewrites[id] : NULL;
}

/* Offset of the L3 header after the Ethernet header and its VLAN tags
 * (the shared parser's walk), and its EtherType; 0 for a frame cut in them. */
static uint16_t
l3_of(const uint8_t *b, uint16_t len, uint16_t *type)
{
	struct wr_pkt pk;

	if (wr_pkt_parse_l2(b, len, &pk) != 0)
		return 0;
	*type = pk.ethertype;
	return pk.l2_len;
}

int64_t
wr_capture_over_mtu(const struct wr_capture *c, uint16_t mtu)
{
	uint32_t k;

	for (k = 0; k < c->n; k++) {
		uint16_t type, len = c->len[k];
		uint16_t l3 = l3_of(wr_capture_frame(c, k), len, &type);

		if (l3 == 0)
			l3 = WR_ETH_HLEN;
		if ((uint32_t)len - l3 > mtu)
			return k;
	}
	return -1;
}

/* Sum of the IPv4 pseudo-header for an L4 segment of @p l4len bytes. */
static uint64_t
pseudo4(const uint8_t *ip, uint8_t proto, uint32_t l4len)
{
	return (uint64_t)wr_csum_sum(ip + 12, 8) + proto + l4len;
}

static uint64_t
pseudo6(const uint8_t *ip, uint8_t proto, uint32_t l4len)
{
	return (uint64_t)wr_csum_sum(ip + 8, 32) + proto + l4len;
}

/* The checksum at @p csum_off of the L4 segment @p l4 (@p l4len bytes)
 * whose pseudo-header sums to @p ph (0: none, ICMP). */
static void
fix_l4(uint8_t *l4, uint32_t l4len, uint16_t csum_off, uint64_t ph, bool udp)
{
	uint16_t c;

	if (l4len < (uint32_t)csum_off + 2)
		return;
	wr_put16(l4 + csum_off, 0);
	c = (uint16_t)~wr_csum_fold(ph + wr_csum_sum(l4, l4len));
	if (udp && c == 0) /* RFC 768: a computed 0 is sent as all ones */
		c = 0xffff;
	wr_put16(l4 + csum_off, c);
}

static void
fix_ipv4(uint8_t *ip, uint32_t avail, bool l4_too)
{
	uint32_t ihl, tot;
	uint8_t proto;
	uint8_t *l4;

	if (avail < 20 || (ip[0] >> 4) != 4)
		return;
	ihl = (uint32_t)(ip[0] & 0x0f) * 4;
	tot = wr_get16(ip + 2);
	if (ihl < 20 || ihl > avail)
		return;
	wr_put16(ip + 10, 0);
	wr_put16(ip + 10, (uint16_t)~wr_csum_fold(wr_csum_sum(ip, ihl)));
	/* A fragment's L4 header and checksum cover bytes we do not hold
	 * (later fragments): only whole datagrams. */
	if (!l4_too || tot < ihl || tot > avail || (wr_get16(ip + 6) & 0x3fff) != 0)
		return;
	proto = ip[9];
	l4 = ip + ihl;
	switch (proto) {
	case WR_IPPROTO_UDP:
		/* IPv4 UDP may go without a checksum (0): kept so. */
		if (tot - ihl >= 8 && wr_get16(l4 + UDP_CSUM_OFF) != 0)
			fix_l4(l4, tot - ihl, UDP_CSUM_OFF,
			       pseudo4(ip, proto, tot - ihl), true);
		break;
	case WR_IPPROTO_TCP:
		fix_l4(l4, tot - ihl, TCP_CSUM_OFF, pseudo4(ip, proto, tot - ihl),
		       false);
		break;
	case WR_IPPROTO_ICMP:
		fix_l4(l4, tot - ihl, ICMP_CSUM_OFF, 0, false);
		break;
	default:
		break;
	}
}

/* IPv6 extension headers the L4 checksum is found behind (RFC 8200 4.1);
 * a fragment header ends the walk: its checksum covers later fragments. */
#define IP6_EXT_HOPOPTS 0
#define IP6_EXT_ROUTING 43
#define IP6_EXT_DSTOPTS 60

static void
fix_ipv6(uint8_t *ip, uint32_t avail)
{
	uint32_t plen, off = WR_IPV6_HLEN;
	uint8_t nh;

	if (avail < WR_IPV6_HLEN || (ip[0] >> 4) != 6)
		return;
	plen = wr_get16(ip + 4);
	if (plen > avail - WR_IPV6_HLEN)
		return;
	nh = ip[6];
	while (nh == IP6_EXT_HOPOPTS || nh == IP6_EXT_ROUTING || nh == IP6_EXT_DSTOPTS) {
		uint32_t hl;

		if (off + 8 > WR_IPV6_HLEN + plen)
			return;
		hl = ((uint32_t)ip[off + 1] + 1) * 8;
		nh = ip[off];
		off += hl;
		if (off > WR_IPV6_HLEN + plen)
			return;
	}
	/* The pseudo-header's length is the upper-layer packet's. */
	plen -= off - WR_IPV6_HLEN;
	switch (nh) {
	case WR_IPPROTO_UDP:
		fix_l4(ip + off, plen, UDP_CSUM_OFF, pseudo6(ip, nh, plen), true);
		break;
	case WR_IPPROTO_TCP:
		fix_l4(ip + off, plen, TCP_CSUM_OFF, pseudo6(ip, nh, plen), false);
		break;
	case WR_IPPROTO_ICMPV6:
		fix_l4(ip + off, plen, ICMP_CSUM_OFF, pseudo6(ip, nh, plen), false);
		break;
	default:
		break;
	}
}

void
wr_capture_fix_csum(uint8_t *buf, uint16_t len)
{
	uint16_t type = 0, l3 = l3_of(buf, len, &type);

	if (l3 == 0)
		return;
	if (type == WR_ETHERTYPE_IPV4)
		fix_ipv4(buf + l3, (uint32_t)len - l3, true);
	else if (type == WR_ETHERTYPE_IPV6)
		fix_ipv6(buf + l3, (uint32_t)len - l3);
}

/* The random sub-sequence key of each rewrite. */
static void
rewrite_keys(uint64_t seed, uint64_t *key)
{
	unsigned int i;

	for (i = 0; i < WR_REWRITE__COUNT; i++)
		key[i] = wr_rng_key(seed, rewrites[i].tag != WR_CAPTURE_TAG_MODULE ?
				    rewrites[i].tag :
				    (uint64_t)wr_proto_rng_tag(rewrites[i].name));
}

/* Value k of rewrite @p id. */
static __uint128_t
rewrite_value(const struct wr_field_spec *fs, enum wr_rewrite_id id,
	      const uint64_t *key, uint64_t k)
{
	return wr_field_value_at(&fs[id], key[id], k);
}

/* An IP header's source (rewrite @p src at @p off) and destination (the
 * next rewrite id, right after it): both versions lay them out so. */
static void
put_addrs(uint8_t *ip, const bool *set, const struct wr_field_spec *fs,
	  const uint64_t *key, uint64_t k, enum wr_rewrite_id src, unsigned int off)
{
	unsigned int width = rewrites[src].bits / 8;

	if (set[src])
		wr_put_be(ip + off, rewrite_value(fs, src, key, k), width);
	if (set[src + 1])
		wr_put_be(ip + off + width, rewrite_value(fs,
			(enum wr_rewrite_id)(src + 1), key, k), width);
}

uint32_t
wr_capture_rewrite(struct wr_capture *c, const bool *set,
		   const struct wr_field_spec *fs, uint64_t seed)
{
	bool v4 = set[WR_REWRITE_IPV4_SRC] || set[WR_REWRITE_IPV4_DST];
	bool v6 = set[WR_REWRITE_IPV6_SRC] || set[WR_REWRITE_IPV6_DST];
	uint64_t key[WR_REWRITE__COUNT];
	uint32_t k, n_ip = 0;

	rewrite_keys(seed, key);

	for (k = 0; k < c->n; k++) {
		uint8_t *b = wr_capture_frame(c, k);
		uint16_t len = c->len[k], type = 0, l3;
		uint8_t *ip;

		if (set[WR_REWRITE_ETH_DST])
			wr_put_be(b, rewrite_value(fs, WR_REWRITE_ETH_DST,
							   key, k), 6);
		if (set[WR_REWRITE_ETH_SRC])
			wr_put_be(b + 6, rewrite_value(fs,
				WR_REWRITE_ETH_SRC, key, k), 6);
		if (!v4 && !v6)
			continue;
		l3 = l3_of(b, len, &type);
		ip = b + l3;
		if (l3 != 0 && v4 && type == WR_ETHERTYPE_IPV4 && len >= l3 + 20 &&
		    (ip[0] >> 4) == 4) {
			put_addrs(ip, set, fs, key, k, WR_REWRITE_IPV4_SRC, 12);
			/* ICMP's checksum does not cover the addresses. */
			fix_ipv4(ip, (uint32_t)len - l3, ip[9] != WR_IPPROTO_ICMP);
			n_ip++;
		} else if (l3 != 0 && v6 && type == WR_ETHERTYPE_IPV6 &&
			   len >= l3 + WR_IPV6_HLEN && (ip[0] >> 4) == 6) {
			put_addrs(ip, set, fs, key, k, WR_REWRITE_IPV6_SRC, 8);
			fix_ipv6(ip, (uint32_t)len - l3);
			n_ip++;
		}
	}
	return n_ip;
}

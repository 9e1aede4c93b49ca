/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_pcap: pcap/pcapng captures read with libpcap, checked record by record. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <pcap/pcap.h>

#include "wr_replay_pcap.h"
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
	int fd;

	memset(c, 0, sizeof(*c));
	fd = wr_in_open(path, max, 0, why, sizeof(why));
	if (fd < 0)
		return wr_error_set(err, fd, path, 0, 0, NULL,
				    "cannot read the capture: %s", why);
	return wr_capture_load_fd(path, fd, max, c, err);
}

int
wr_capture_load_fd(const char *path, int fd, uint64_t max,
		   struct wr_capture *c, struct wr_error *err)
{
	uint64_t size;
	FILE *fp;
	int rc;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", path);
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

/* The L4 checksum of a header of protocol @p proto at @p l4 (its IP
 * datagram ends at @p end); 0 kinds it has none we compute. */
static int
l4_region(uint8_t proto, bool ip6, uint16_t ip, uint32_t l4, uint32_t end,
	  struct wr_csum_region *r)
{
	static const struct { uint8_t proto; uint8_t kind; uint8_t off; bool v6; } l4s[] = {
		{ WR_IPPROTO_UDP, WR_CSUM_UDP, UDP_CSUM_OFF, false },
		{ WR_IPPROTO_TCP, WR_CSUM_TCP, TCP_CSUM_OFF, false },
		{ WR_IPPROTO_ICMP, WR_CSUM_ICMP, ICMP_CSUM_OFF, false },
		{ WR_IPPROTO_ICMPV6, WR_CSUM_ICMP6, ICMP_CSUM_OFF, true },
	};
	unsigned int i;

	for (i = 0; i < sizeof(l4s) / sizeof(l4s[0]); i++) {
		if (l4s[i].proto != proto || (l4s[i].v6 && !ip6) ||
		    (proto == WR_IPPROTO_ICMP && ip6))
			continue;
		if (end < l4 + l4s[i].off + 2u)
			return -EINVAL;
		r->kind = l4s[i].kind;
		r->ip6 = ip6;
		r->ip = ip;
		r->start = (uint16_t)l4;
		r->end = (uint16_t)end;
		r->csum = (uint16_t)(l4 + l4s[i].off);
		return 0;
	}
	return -ENOENT;
}

int
wr_capture_csum_at(const uint8_t *buf, uint16_t len, unsigned int kind,
		   uint16_t off, uint16_t ip, struct wr_csum_region *r)
{
	const uint8_t *h = buf + ip;
	uint32_t ihl, end;
	bool ip6;

	if ((uint32_t)ip + 20 > len)
		return -EINVAL;
	ip6 = (h[0] >> 4) == 6;
	if (!ip6 && (h[0] >> 4) != 4)
		return -EINVAL;
	if (ip6 && (uint32_t)ip + WR_IPV6_HLEN > len)
		return -EINVAL;
	ihl = ip6 ? WR_IPV6_HLEN : (uint32_t)(h[0] & 0x0f) * 4;
	if (ihl < 20 || ip + ihl > len)
		return -EINVAL;
	if (kind == WR_CSUM_IPV4) {
		if (ip6 || off != ip)
			return -EINVAL;
		r->kind = WR_CSUM_IPV4;
		r->ip6 = false;
		r->ip = r->start = ip;
		r->end = (uint16_t)(ip + ihl);
		r->csum = (uint16_t)(ip + 10);
		return 0;
	}
	/* The datagram as its header says, within the frame. */
	end = ip + (ip6 ? WR_IPV6_HLEN + (uint32_t)wr_get16(h + 4) : wr_get16(h + 2));
	if (end > len)
		end = len;
	if (off < ip + ihl || off >= end)
		return -EINVAL;
	/* The IP header must say so (right after an IPv6 header: its next
	 * header; behind extension headers, the caller's word). */
	{
		static const uint8_t protos[] = {
			[WR_CSUM_UDP] = WR_IPPROTO_UDP, [WR_CSUM_TCP] = WR_IPPROTO_TCP,
			[WR_CSUM_ICMP] = WR_IPPROTO_ICMP, [WR_CSUM_ICMP6] = WR_IPPROTO_ICMPV6,
		};

		if (kind < WR_CSUM__COUNT && kind != WR_CSUM_IPV4 &&
		    (!ip6 || off == ip + WR_IPV6_HLEN) &&
		    h[ip6 ? 6 : 9] != protos[kind])
			return -ENOENT;
	}
	switch (kind) {
	case WR_CSUM_UDP:
		return l4_region(WR_IPPROTO_UDP, ip6, ip, off, end, r);
	case WR_CSUM_TCP:
		return l4_region(WR_IPPROTO_TCP, ip6, ip, off, end, r);
	case WR_CSUM_ICMP:
		return ip6 ? -EINVAL : l4_region(WR_IPPROTO_ICMP, false, ip, off,
						  end, r);
	case WR_CSUM_ICMP6:
		return ip6 ? l4_region(WR_IPPROTO_ICMPV6, true, ip, off, end, r)
			   : -EINVAL;
	default:
		return -EINVAL;
	}
}

/* IPv6 extension headers the L4 checksum is found behind (RFC 8200 4.1);
 * a fragment header ends the walk: its checksum covers later fragments. */
#define IP6_EXT_HOPOPTS 0
#define IP6_EXT_ROUTING 43
#define IP6_EXT_DSTOPTS 60

unsigned int
wr_capture_csums(const uint8_t *buf, uint16_t len, struct wr_csum_region *out)
{
	uint16_t type = 0, l3 = l3_of(buf, len, &type);
	const uint8_t *ip = buf + l3;
	uint32_t ihl, tot, off, end;
	unsigned int n = 0;
	uint8_t nh;

	if (l3 == 0)
		return 0;
	if (type == WR_ETHERTYPE_IPV4) {
		if (wr_capture_csum_at(buf, len, WR_CSUM_IPV4, l3, l3, &out[0]) != 0)
			return 0;
		n = 1;
		ihl = out[0].end - l3;
		tot = wr_get16(ip + 2);
		/* A fragment's L4 header and checksum cover bytes we do not
		 * hold (later fragments): only whole datagrams. */
		if (tot < ihl || l3 + tot > len || (wr_get16(ip + 6) & 0x3fff) != 0)
			return n;
		if (l4_region(ip[9], false, l3, l3 + ihl, l3 + tot, &out[n]) == 0 &&
		    /* IPv4 UDP may go without a checksum (0): kept so. */
		    !(out[n].kind == WR_CSUM_UDP && wr_get16(buf + out[n].csum) == 0))
			n++;
		return n;
	}
	if (type != WR_ETHERTYPE_IPV6 || (uint32_t)l3 + WR_IPV6_HLEN > len ||
	    (ip[0] >> 4) != 6)
		return 0;
	end = (uint32_t)l3 + WR_IPV6_HLEN + wr_get16(ip + 4);
	if (end > len)
		return 0;
	off = l3 + WR_IPV6_HLEN;
	nh = ip[6];
	while (nh == IP6_EXT_HOPOPTS || nh == IP6_EXT_ROUTING || nh == IP6_EXT_DSTOPTS) {
		if (off + 8 > end)
			return 0;
		nh = buf[off];
		off += ((uint32_t)buf[off + 1] + 1) * 8;
		if (off > end)
			return 0;
	}
	return l4_region(nh, true, l3, off, end, &out[0]) == 0 ? 1 : 0;
}

uint64_t
wr_capture_pseudo_sum(const uint8_t *buf, const struct wr_csum_region *r)
{
	const uint8_t *ip = buf + r->ip;

	if (r->kind == WR_CSUM_IPV4 || r->kind == WR_CSUM_ICMP)
		return 0;
	/* The pseudo-header's length is the upper-layer packet's. */
	return (uint64_t)(r->ip6 ? wr_csum_sum(ip + 8, 32) : wr_csum_sum(ip + 12, 8)) +
	       (r->kind == WR_CSUM_UDP ? WR_IPPROTO_UDP :
		r->kind == WR_CSUM_TCP ? WR_IPPROTO_TCP : WR_IPPROTO_ICMPV6) +
	       (uint64_t)(r->end - r->start);
}

void
wr_capture_csum_fix(uint8_t *buf, const struct wr_csum_region *r)
{
	uint16_t c;

	wr_put16(buf + r->csum, 0);
	c = (uint16_t)~wr_csum_fold(wr_capture_pseudo_sum(buf, r) +
				    wr_csum_sum(buf + r->start,
						(uint32_t)(r->end - r->start)));
	if (r->kind == WR_CSUM_UDP && c == 0) /* RFC 768: a computed 0 is sent as all ones */
		c = 0xffff;
	wr_put16(buf + r->csum, c);
}

void
wr_capture_fix_csum(uint8_t *buf, uint16_t len)
{
	struct wr_csum_region r[2];
	unsigned int i, n = wr_capture_csums(buf, len, r);

	for (i = 0; i < n; i++)
		wr_capture_csum_fix(buf, &r[i]);
}

/* The outer IP header's checksums after its addresses changed; ICMP's
 * does not cover them (no pseudo-header) and is left alone. */
static void
fix_outer(uint8_t *buf, uint16_t len, bool skip_icmp)
{
	struct wr_csum_region r[2];
	unsigned int i, n = wr_capture_csums(buf, len, r);

	for (i = 0; i < n; i++)
		if (!(skip_icmp && r[i].kind == WR_CSUM_ICMP))
			wr_capture_csum_fix(buf, &r[i]);
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
			fix_outer(b, len, true);
			n_ip++;
		} else if (l3 != 0 && v6 && type == WR_ETHERTYPE_IPV6 &&
			   len >= l3 + WR_IPV6_HLEN && (ip[0] >> 4) == 6) {
			put_addrs(ip, set, fs, key, k, WR_REWRITE_IPV6_SRC, 8);
			fix_outer(b, len, true);
			n_ip++;
		}
	}
	return n_ip;
}

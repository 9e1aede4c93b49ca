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
#include "wr_pkt_csum.h"
#include "wr_proto.h"
#include "wr_rng.h"

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

/* Where rewrite @p id writes: its protocol's module and field (the key
 * names both, "ipv4.src"); false for a key the registry does not hold. */
static bool
rewrite_field(enum wr_rewrite_id id, const struct wr_proto **p,
	      const struct wr_proto_field **f)
{
	const char *key = rewrites[id].name, *dot = strchr(key, '.');
	char name[WR_LAYER_KEY_MAX];
	int j;

	if (dot == NULL || (size_t)(dot - key) >= sizeof(name))
		return false;
	memcpy(name, key, (size_t)(dot - key));
	name[dot - key] = '\0';
	*p = wr_proto_find(name);
	j = *p != NULL ? wr_proto_field_find(*p, dot + 1) : -ENOENT;
	if (j < 0 || (*p)->fields[j].bits != rewrites[id].bits ||
	    (*p)->fields[j].bits != 8u * (*p)->fields[j].span)
		return false;
	*f = &(*p)->fields[j];
	return true;
}

/* The checksums over the IP header at @p ip after its addresses changed:
 * its own and those whose pseudo-header it gives; one without a
 * pseudo-header (ICMPv4's, GRE's, SCTP's) does not cover them and keeps
 * its bytes, as do those of the headers inside a tunnel. */
static void
fix_ip(uint8_t *b, uint16_t len, uint16_t ip)
{
	struct wr_csum_region r[WR_PKT_CSUMS_MAX];
	unsigned int n = wr_pkt_csums(b, len, WR_PKT_CSUM_RULE(WR_CSUM_HEADER) |
				      WR_PKT_CSUM_RULE(WR_CSUM_PSEUDO), r,
				      WR_PKT_CSUMS_MAX);

	while (n-- > 0)
		if (r[n].ip == ip)
			wr_pkt_csum_fix(b, &r[n]);
}

uint32_t
wr_capture_rewrite(struct wr_capture *c, const bool *set,
		   const struct wr_field_spec *fs, uint64_t seed)
{
	const struct wr_proto_field *f[WR_REWRITE__COUNT];
	const struct wr_proto *p[WR_REWRITE__COUNT];
	bool on[WR_REWRITE__COUNT];
	uint64_t key[WR_REWRITE__COUNT];
	uint32_t k, n_ip = 0;
	unsigned int id;

	rewrite_keys(seed, key);
	for (id = 0; id < WR_REWRITE__COUNT; id++)
		on[id] = set[id] && rewrite_field((enum wr_rewrite_id)id, &p[id], &f[id]);

	for (k = 0; k < c->n; k++) {
		uint8_t *b = wr_capture_frame(c, k);
		uint16_t len = c->len[k];
		struct wr_pkt pk;
		unsigned int i;
		int ip = -1;

		(void)wr_pkt_parse(b, len, NULL, &pk);
		for (id = 0; id < WR_REWRITE__COUNT; id++) {
			/* The link header's fields, and the IP header's right
			 * after it and its tags (not one inside a tunnel). */
			for (i = 0; on[id] && i < pk.n; i++)
				if (pk.proto[i] == p[id] &&
				    (pk.proto[i]->link ? i == 0 : pk.off[i] == pk.l2_len))
					break;
			if (!on[id] || i == pk.n)
				continue;
			wr_put_be(b + pk.off[i] + f[id]->off, rewrite_value(fs,
				  (enum wr_rewrite_id)id, key, k), f[id]->span);
			if (pk.proto[i]->l3)
				ip = pk.off[i];
		}
		if (ip >= 0) {
			fix_ip(b, len, (uint16_t)ip);
			n_ip++;
		}
	}
	return n_ip;
}

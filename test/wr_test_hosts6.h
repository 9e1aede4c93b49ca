/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_test_hosts6: a host engine on a test clock, what it sends kept, and IPv6 frames a scripted peer sends (test_dhcp6, test_slaac). */
#ifndef WR_TEST_HOSTS6_H
#define WR_TEST_HOSTS6_H

#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_host.h"
#include "wr_test.h"
#include "wr_wire.h"

#define T6_MS 1000000ull
#define T6_S 1000000000ull
#define T6_FRAMES_MAX 65536
#define A6(hi, lo) (((__uint128_t)(hi) << 64) | (lo))

/* One run: the engine, the clock, the frames it sent (and, when the
 * environment names a file, every one of them in a pcap for a decoder we
 * did not write: test/frames/test_hosts6_scapy.py). */
struct t6 {
	struct wr_hosts *hs;
	struct wr_host_specs specs;
	uint64_t now;
	uint32_t n;             /* frames sent so far */
	uint32_t seen;          /* t6_next() read up to here */
	uint8_t *f[T6_FRAMES_MAX];
	uint32_t len[T6_FRAMES_MAX];
	uint64_t at[T6_FRAMES_MAX];
	pcap_t *pd;
	pcap_dumper_t *dump;
};

static int
t6_send(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct t6 *t = ctx;

	if (t->n == T6_FRAMES_MAX)
		return -ENOBUFS;
	t->f[t->n] = malloc(len);
	memcpy(t->f[t->n], frame, len);
	t->len[t->n] = len;
	t->at[t->n] = t->now;
	if (t->dump != NULL) {
		struct pcap_pkthdr ph = {
			.ts = { .tv_sec = (time_t)(t->now / T6_S),
				.tv_usec = (suseconds_t)(t->now % T6_S / 1000) },
			.caplen = len, .len = len,
		};

		pcap_dump((u_char *)t->dump, &ph, frame);
	}
	t->n++;
	return 0;
}

/* @p count hosts from MAC 02:00:00:00:01:00, one group on port 0 whose
 * IPv6 is @p mode, the module @p id configured with @p cfg (owned now). */
static struct t6 *
t6_new(uint32_t count, enum wr_host_addr_mode mode, enum wr_host_proto_id id,
       void *cfg)
{
	struct t6 *t = calloc(1, sizeof(*t));
	struct wr_host_group *g = calloc(1, sizeof(*g));
	const char *pcap_path = getenv("WR_HOSTS6_PCAP");
	struct wr_error err;

	strcpy(g->name, "clients");
	g->count = count;
	g->mac = 0x020000000100ull;
	g->mac_step = 1;
	g->v6.mode = mode;
	g->v6.prefix = 64;
	g->proto_cfg[id] = cfg;
	t->specs.groups = g;
	t->specs.n = 1;
	t->now = 1 * T6_S;
	if (pcap_path != NULL) {
		t->pd = pcap_open_dead(DLT_EN10MB, 65535);
		t->dump = pcap_dump_open_append(t->pd, pcap_path);
	}
	CU_ASSERT_EQUAL_FATAL(wr_hosts_create(&t->hs, &t->specs, 0, 42, t6_send,
					      t, &err), 0);
	return t;
}

static void
t6_free(struct t6 *t)
{
	uint32_t i;

	wr_hosts_free(t->hs);
	wr_host_specs_free(&t->specs);
	for (i = 0; i < t->n; i++)
		free(t->f[i]);
	if (t->dump != NULL) {
		pcap_dump_close(t->dump);
		pcap_close(t->pd);
	}
	free(t);
}

/* Let time run to @p until, every timer taken when due. */
static void
t6_run(struct t6 *t, uint64_t until)
{
	while (t->now < until) {
		uint64_t next = wr_hosts_tick(t->hs, t->now);

		if (next <= t->now)
			next = t->now + T6_MS;
		t->now = next < until ? next : until;
	}
	wr_hosts_tick(t->hs, t->now);
}

/* The frame at @p i's IPv6 header past its link header, or NULL. */
static const uint8_t *
t6_ip6(const struct t6 *t, uint32_t i)
{
	const uint8_t *f = t->f[i];
	uint32_t off = 12;

	while (off + 2 <= t->len[i] &&
	       (wr_get16(f + off) == 0x8100 || wr_get16(f + off) == 0x88a8))
		off += 4;
	if (off + 2 + WR_IPV6_HLEN > t->len[i] || wr_get16(f + off) != 0x86dd)
		return NULL;
	return f + off + 2;
}

/* The next frame sent (after the last one read) that is UDP to port
 * @p dport (or, @p dport 0, ICMPv6 of type @p icmp); its IPv6 header, or
 * NULL when there is none. */
static const uint8_t *
t6_next(struct t6 *t, uint16_t dport, uint8_t icmp, uint32_t *idx)
{
	for (; t->seen < t->n; t->seen++) {
		const uint8_t *ip = t6_ip6(t, t->seen);

		if (ip == NULL)
			continue;
		if (dport != 0 && ip[6] == WR_IPPROTO_UDP &&
		    wr_get16(ip + 40 + 2) == dport)
			break;
		if (dport == 0 && ip[6] == WR_IPPROTO_ICMPV6 && ip[40] == icmp)
			break;
	}
	if (t->seen == t->n)
		return NULL;
	*idx = t->seen++;
	return t6_ip6(t, *idx);
}

/* The upper-layer checksum of the IPv6 packet at @p ip verifies. */
static int
t6_l4_ok(const uint8_t *ip)
{
	uint16_t plen = (uint16_t)wr_get16(ip + 4);
	uint64_t sum = (uint64_t)wr_csum_sum(ip + 8, 32) + plen + ip[6] +
		       wr_csum_sum(ip + 40, plen);

	return wr_csum_fold(sum) == 0xffff;
}

/* A frame from @p smac to @p dmac, IPv6 @p src -> @p dst, next header
 * @p nh, hop limit @p hops, payload @p pl (@p plen bytes); the UDP or
 * ICMPv6 checksum at @p csum_off of the payload filled.  @return length. */
static uint32_t
t6_frame(uint8_t *f, const uint8_t dmac[6], const uint8_t smac[6],
	 __uint128_t src, __uint128_t dst, uint8_t nh, uint8_t hops,
	 const uint8_t *pl, uint16_t plen, uint32_t csum_off)
{
	uint8_t *ip = f + 14;
	uint64_t sum;

	memcpy(f, dmac, 6);
	memcpy(f + 6, smac, 6);
	wr_put16(f + 12, 0x86dd);
	memset(ip, 0, 40);
	ip[0] = 0x60;
	wr_put16(ip + 4, plen);
	ip[6] = nh;
	ip[7] = hops;
	wr_put128(ip + 8, src);
	wr_put128(ip + 24, dst);
	memcpy(ip + 40, pl, plen);
	wr_put16(ip + 40 + csum_off, 0);
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + plen + nh +
	      wr_csum_sum(ip + 40, plen);
	wr_put16(ip + 40 + csum_off, (uint16_t)~wr_csum_fold(sum));
	return 14u + 40u + plen;
}

/* Host @p h's counter @p name of module/engine counters. */
struct t6_find {
	const char *name;
	uint64_t v;
	int found;
};

static void
t6_put(void *ctx, const char *name, uint64_t v)
{
	struct t6_find *q = ctx;

	if (strcmp(name, q->name) == 0) {
		q->v = v;
		q->found = 1;
	}
}

/* The module's counter @p name (as its counters() puts it), or ~0. */
static uint64_t
t6_counter(const struct t6 *t, enum wr_host_proto_id id, const char *name)
{
	struct t6_find q = { .name = name };

	wr_host_protos[id]->counters(t->hs, t6_put, &q);
	return q.found ? q.v : ~0ull;
}

/* The slot of @p h's IPv6 address @p a, or -1. */
static int
t6_has_ip6(const struct t6 *t, uint32_t h, __uint128_t a)
{
	const struct wr_host *hst = wr_hosts_cget(t->hs, h);
	int i;

	for (i = 0; i < hst->n_ip6; i++)
		if (hst->ip6[i].addr == a)
			return i;
	return -1;
}

#endif /* WR_TEST_HOSTS6_H */

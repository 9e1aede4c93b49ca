/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wr_bpf: a filter run as DPDK loads it (the mbuf program, and the direct
 * program on the frame's bytes where there is one) returns, on every
 * frame, what libpcap's own interpreter returns (pcap_offline_filter).
 * EAL without hugepages: rte_bpf_convert() allocates from DPDK's heap.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>
#include <pcap/pcap.h>
#include <rte_mbuf.h>

#include "wr_bpf.h"
#include "wr_filter.h"
#include "wr_test_eal.h"

static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* A frame of one of a few kinds (IPv4 UDP/TCP/ICMP/OSPF with header
 * lengths up to 60 bytes, ARP, 802.1Q, IPv6 TCP/UDP), some bytes of its
 * first 96 then changed at random. */
static uint32_t
make_frame(uint8_t *f, uint32_t *seed)
{
	static const uint8_t protos[] = { 17, 6, 1, 89, 17, 6 };
	unsigned int kind = lcg(seed) % 7, ihl = 5, k;
	uint32_t len;

	memset(f, 0, 256);
	f[0] = 2; f[6] = 2; f[11] = 1;
	f[12] = 0x08;
	f[14] = 0x45;
	f[22] = 64;
	f[23] = protos[lcg(seed) % sizeof(protos)];
	f[26] = 10; f[29] = 1;
	f[30] = lcg(seed) % 2 ? 10 : 192; f[31] = 168; f[33] = 1;
	if (kind == 1) {
		/* Options: the ports move past 60 bytes for ihl > 10. */
		ihl = 5 + lcg(seed) % 11;
		f[14] = (uint8_t)(0x40 | ihl);
	} else if (kind == 2) {
		memset(f, 0xff, 6);
		f[13] = 0x06;                        /* ARP */
	} else if (kind == 3) {
		memmove(f + 16, f + 12, 100);
		f[12] = 0x81;                        /* 802.1Q */
		f[13] = 0x00;
		f[15] = 10;
	} else if (kind == 4) {
		f[12] = 0x86;                        /* IPv6 */
		f[13] = 0xdd;
		f[14] = 0x60;
		f[20] = lcg(seed) % 2 ? 6 : 17;
		f[53] = 1;
	}
	if (kind != 2 && kind != 3 && kind != 4) {
		uint8_t *l4 = f + 14 + 4 * ihl;

		f[16] = 0;
		f[17] = (uint8_t)(4 * ihl + 26);
		l4[0] = 0x13; l4[1] = 0x88;              /* 5000 */
		l4[2] = (uint8_t)(lcg(seed) % 2 ? 0x13 : 0x00);
		l4[3] = (uint8_t)(lcg(seed) % 2 ? 0x88 : 80);
		l4[13] = (uint8_t)lcg(seed);             /* TCP flags */
		if (f[23] == 1)                      /* unreachable or echo reply */
			l4[0] = lcg(seed) % 2 ? 3 : 0;
	}
	for (k = lcg(seed) % 4; k > 0; k--)
		f[lcg(seed) % 96] = (uint8_t)lcg(seed);
	len = (uint32_t[]){ 60, 64, 80, 128, 256 }[lcg(seed) % 5];
	/* One in five shorter than the shortest Ethernet frame. */
	return lcg(seed) % 5 ? len : lcg(seed) % 60;
}

/* Every frame: wr_bpf_exec() and the mbuf program alone against libpcap;
 * where the direct program applies, it alone too.  @return how many
 * frames the direct program answered. */
static unsigned int
check(const char *name, const struct wr_filter *f, const struct wr_bpf *b,
      unsigned int frames, uint32_t seed)
{
	static uint8_t buf[RTE_PKTMBUF_HEADROOM + 256];
	struct rte_mbuf m;
	struct pcap_pkthdr h;
	unsigned int i, direct = 0, bad = 0;

	for (i = 0; i < frames; i++) {
		uint8_t *p = buf + RTE_PKTMBUF_HEADROOM;
		uint32_t len = make_frame(p, &seed), want;
		uint64_t got;

		memset(&h, 0, sizeof(h));
		h.caplen = h.len = len;
		want = pcap_offline_filter(&f->bpf, &h, p);
		/* A one-segment mbuf of the frame, as a PMD gives it. */
		memset(&m, 0, sizeof(m));
		m.buf_addr = buf;
		m.buf_len = sizeof(buf);
		m.data_off = RTE_PKTMBUF_HEADROOM;
		m.data_len = (uint16_t)len;
		m.pkt_len = len;
		m.nb_segs = 1;
		got = wr_bpf_exec(b, &m);
		if (got != want && bad++ < 5)
			fprintf(stderr, "%s: frame %u (%u bytes): %llu, libpcap "
				"%u\n", name, i, len, (unsigned long long)got,
				want);
		/* The mbuf program alone, on every frame. */
		got = b->jit != NULL ? b->jit(&m) : rte_bpf_exec(b->bpf, &m);
		if (got != want && bad++ < 5)
			fprintf(stderr, "%s: frame %u (%u bytes) mbuf: %llu, "
				"libpcap %u\n", name, i, len,
				(unsigned long long)got, want);
		if (b->direct != NULL && len >= b->direct_len) {
			got = b->direct(p);
			if (got != WR_BPF_FALLBACK) {
				direct++;
				if (got != want && bad++ < 5)
					fprintf(stderr, "%s: frame %u direct: "
						"%llu, libpcap %u\n", name, i,
						(unsigned long long)got, want);
			}
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	return direct;
}

/* Each of @p exprs compiled, loaded and checked on @p frames frames (seeds
 * from @p seed on); @p direct: 1 it must have a direct program and run it
 * on most frames, 0 it must not have one, -1 either. */
static void
each_expr(const char *const *exprs, unsigned int n, unsigned int frames,
	  uint32_t seed, int direct)
{
	struct wr_filter f;
	struct wr_bpf b;
	struct wr_error err;
	char why[256];
	unsigned int i, ran;

	for (i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&f, exprs[i], why,
							sizeof(why)), 0);
		CU_ASSERT_EQUAL_FATAL(wr_bpf_load(&b, &f, "t", &err), 0);
		if (direct >= 0)
			CU_ASSERT_EQUAL(b.direct != NULL, direct == 1);
		if (direct == 1 && b.direct == NULL)
			fprintf(stderr, "%s: no direct program\n", exprs[i]);
		ran = check(exprs[i], &f, &b, frames, seed + i);
		/* Most frames are 60 bytes or more (a filter reading
		 * further takes longer frames only). */
		if (direct == 1)
			CU_ASSERT(b.direct == NULL || b.direct_len > 60 ||
				  ran > frames / 2);
		wr_bpf_free(&b);
		wr_filter_free(&f);
	}
}

/* Expressions libpcap compiles into every kind of instruction the direct
 * program translates: absolute and indirect loads of each size, scratch
 * words, arithmetic with constants and with X (a division by a byte that
 * may be 0), constants above 2^31, and jumps of every kind. */
static const char *const direct_exprs[] = {
	"arp",
	"ip proto 89",
	"udp dst port 5000",
	"tcp port 80",
	"icmp[icmptype] == icmp-unreach",
	"ip6 and tcp",
	"vlan and udp",
	"vlan 10 and udp dst port 5000",
	"ip6 and udp port 5000",
	"host 10.0.0.1 or net 192.168.0.0/16",
	"ether[0] & 1 = 1",
	"ip[6:2] & 0x1fff = 0",
	"ip[4:4] = 0xffffffff or ip[12:4] > 0x80000000",
	"udp[2:2] / 2 = 2500",
	"(ip[0] & 0xf) % 3 = 1",
	"udp[0:2] ^ 0x1388 = 0",
	"ip[2] / ip[3] = 1",
	"ip[2] % ip[8] = 1",
	"tcp[tcpflags] & (tcp-syn|tcp-ack) != 0",
	"tcp and (((ip[2:2] - ((ip[0]&0xf)<<2)) - ((tcp[12]&0xf0)>>2)) != 0)",
	"ether dst ff:ff:ff:ff:ff:ff and not ip",
	/* Scratch words: five, all in the direct program's registers; six
	 * and seven, on its stack (wr_bpf.c). */
	"ip[1]*(ip[2]+(ip[3]*(ip[4]+(ip[5]*ip[6])))) > 3000",
	"ip[1]*(ip[2]+(ip[3]*(ip[4]+(ip[5]*(ip[6]+ip[7]))))) > 3000",
	"(ip[1]+ip[2])*(ip[3]+ip[4]) > (ip[5]+ip[6])*(ip[7]+ip[8])",
	/* At the boundary on most frames (TTL 64, total length 46). */
	"ip[8] > 64", "ip[8] >= 64", "ip[8] < 64", "ip[8] <= 64",
	"ip[2:2] > 46 and ip[2:2] <= 60", "ip[2:2] >= 46 and ip[2:2] < 60",
	"ip[8] != 64 and ip[8] > 0",
	/* Many paths: DPDK's verifier took 8 s on it until the scratch
	 * registers were made 0 where paths meet (wr_bpf.c). */
	"vlan and port!2 and !vlan and !vlan and port!!6 and !vlan and "
	"port!6 and !vlan and port!!6 and !vlan and port!6 and !vlan 6 and "
	"!vlan 5 and port!5 and 65 and port 0",
};

static void
test_direct(void)
{
	each_expr(direct_exprs, RTE_DIM(direct_exprs), 20000, 1000, 1);
}

/* Shifts by a loaded count, 0 to 69: libpcap makes A 0 from 32 on, where
 * x86 shifts by the count's low 5 bits. */
static void
test_shift_by_x(void)
{
	static const char *const exprs[] = {
		"ether[0] << ether[1] = 0", "ether[0] >> ether[1] = 0",
		"ether[2:4] << ether[1] = 0x80000000",
		"ether[2:4] >> ether[1] != 0",
	};
	static uint8_t buf[RTE_PKTMBUF_HEADROOM + 64];
	uint8_t *p = buf + RTE_PKTMBUF_HEADROOM;
	struct pcap_pkthdr h;
	struct rte_mbuf m;
	struct wr_filter f;
	struct wr_bpf b;
	struct wr_error err;
	char why[256];
	unsigned int i, s, bad = 0;

	for (i = 0; i < RTE_DIM(exprs); i++) {
		CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&f, exprs[i], why,
							sizeof(why)), 0);
		CU_ASSERT_EQUAL_FATAL(wr_bpf_load(&b, &f, "t", &err), 0);
		CU_ASSERT_PTR_NOT_NULL(b.direct);
		for (s = 0; s < 70; s++) {
			uint32_t want;

			memset(p, 0, 64);
			p[0] = 0x81;
			p[1] = (uint8_t)s;
			p[2] = 0x80;
			p[5] = 1;
			memset(&h, 0, sizeof(h));
			h.caplen = h.len = 64;
			want = pcap_offline_filter(&f.bpf, &h, p);
			memset(&m, 0, sizeof(m));
			m.buf_addr = buf;
			m.buf_len = sizeof(buf);
			m.data_off = RTE_PKTMBUF_HEADROOM;
			m.data_len = 64;
			m.pkt_len = 64;
			m.nb_segs = 1;
			if ((b.jit != NULL ? b.jit(&m) : rte_bpf_exec(b.bpf, &m)) !=
			    want ||
			    (b.direct != NULL && b.direct(p) != want)) {
				if (bad++ < 5)
					fprintf(stderr, "%s: shift %u\n",
						exprs[i], s);
			}
		}
		wr_bpf_free(&b);
		wr_filter_free(&f);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* Indexes that wrap below 0 for some frames (OSPF's protocol 89): the mbuf
 * program answers 0 as libpcap does, where DPDK's load passed an offset
 * near 2^32 to rte_pktmbuf_read() and it read a NULL segment. */
static void
test_wrapping_index(void)
{
	static const char *const exprs[] = {
		"ip[3 - ip[42 - ip[9]]] > 3", "ether[ip[9] - 20] = 0",
	};
	each_expr(exprs, RTE_DIM(exprs), 20000, 31, -1);
}

/* What has no direct program still answers, through the mbuf program. */
static void
test_no_direct(void)
{
	static const char *const exprs[] = {
		"len >= 100",               /* the frame's length */
		"ether[9000] = 1",          /* beyond any direct_len */
	};
	each_expr(exprs, RTE_DIM(exprs), 5000, 7, 0);
}

/* The rx_classes program (wr_filter_merge()): the class, as libpcap's
 * interpreter returns it for the merged program. */
static void
test_merged(void)
{
	static const char *const exprs[] = {
		"arp", "ip proto 89", "udp dst port 5000",
		"icmp[icmptype] == icmp-unreach", "vlan and udp", "ip6 and tcp",
		"tcp[tcpflags] & tcp-syn != 0", "ip",
	};
	static const char *const kr[] = {
		"icmp[icmptype] == icmp-unreach",
		"icmp[icmptype] == icmp-echoreply", "ip", "arp",
	};
	struct wr_filter fl[RTE_DIM(exprs)], all;
	const struct wr_filter *fs[RTE_DIM(exprs)];
	struct wr_bpf b;
	struct wr_error err;
	char why[256];
	unsigned int c;

	for (c = 0; c < RTE_DIM(exprs); c++) {
		CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&fl[c], exprs[c], why,
							sizeof(why)), 0);
		fs[c] = &fl[c];
	}
	/* The benchmark's three classes, then all eight. */
	CU_ASSERT_EQUAL_FATAL(wr_filter_merge(fs, 3, &all), 0);
	CU_ASSERT_EQUAL_FATAL(wr_bpf_load(&b, &all, "classes", &err), 0);
	CU_ASSERT_PTR_NOT_NULL(b.direct);
	CU_ASSERT(check("3 classes", &all, &b, 20000, 5) > 10000);
	wr_bpf_free(&b);
	wr_filter_free(&all);
	CU_ASSERT_EQUAL_FATAL(wr_filter_merge(fs, RTE_DIM(exprs), &all), 0);
	CU_ASSERT_EQUAL_FATAL(wr_bpf_load(&b, &all, "classes", &err), 0);
	CU_ASSERT_PTR_NOT_NULL(b.direct);
	CU_ASSERT(check("8 classes", &all, &b, 20000, 6) > 10000);
	wr_bpf_free(&b);
	wr_filter_free(&all);
	/* test_rx.py's classes: with one EXIT a return, DPDK's JIT sized
	 * the jump of an echo reply's class back to the epilogue wrong and
	 * ran past its code (wr_bpf.c, BPF_RET). */
	for (c = 0; c < 4; c++)
		wr_filter_free(&fl[c]);
	for (c = 0; c < 4; c++)
		CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&fl[c], kr[c], why,
							sizeof(why)), 0);
	CU_ASSERT_EQUAL_FATAL(wr_filter_merge(fs, 4, &all), 0);
	CU_ASSERT_EQUAL_FATAL(wr_bpf_load(&b, &all, "classes", &err), 0);
	CU_ASSERT(check("test_rx classes", &all, &b, 20000, 7) > 10000);
	wr_bpf_free(&b);
	wr_filter_free(&all);
	for (c = 0; c < RTE_DIM(exprs); c++)
		wr_filter_free(&fl[c]);
}

static CU_TestInfo bpf_tests[] = {
	{ "direct", test_direct },
	{ "shift_by_x", test_shift_by_x },
	{ "wrapping_index", test_wrapping_index },
	{ "no_direct", test_no_direct },
	{ "merged", test_merged },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ "bpf", NULL, NULL, NULL, NULL, bpf_tests },
	CU_SUITE_INFO_NULL,
};

int
main(void)
{
	return wr_test_eal_main("test_bpf", NULL, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_filter: tcpdump expressions through libpcap, rx_classes: in profiles and stream files. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_config.h"
#include "wr_filter.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* A 60-byte Ethernet/IPv4/UDP frame to @p dport, and an ARP request. */
static void
udp_frame(uint8_t *f, uint16_t dport)
{
	memset(f, 0, 60);
	f[12] = 0x08;                       /* IPv4 */
	f[14] = 0x45;
	f[16] = 0;
	f[17] = 46;                         /* total length */
	f[22] = 64;
	f[23] = 17;                         /* UDP */
	f[26] = 198; f[27] = 18; f[28] = 0; f[29] = 1;
	f[30] = 198; f[31] = 19; f[32] = 0; f[33] = 1;
	f[34] = 0x04; f[35] = 0x00;         /* sport 1024 */
	f[36] = (uint8_t)(dport >> 8);
	f[37] = (uint8_t)dport;
	f[39] = 26;                         /* UDP length */
}

static void
arp_frame(uint8_t *f)
{
	memset(f, 0, 60);
	memset(f, 0xff, 6);
	f[12] = 0x08;
	f[13] = 0x06;
}

static void
test_compile_and_match(void)
{
	struct wr_filter f;
	uint8_t u5000[60], u6000[60], arp[60];
	char why[256];

	udp_frame(u5000, 5000);
	udp_frame(u6000, 6000);
	arp_frame(arp);
	CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&f, "udp dst port 5000", why,
						sizeof(why)), 0);
	CU_ASSERT_TRUE(wr_filter_match(&f, u5000, 60, 60));
	CU_ASSERT_FALSE(wr_filter_match(&f, u6000, 60, 60));
	CU_ASSERT_FALSE(wr_filter_match(&f, arp, 60, 60));
	/* Cut before the port: libpcap's program refuses it. */
	CU_ASSERT_FALSE(wr_filter_match(&f, u5000, 36, 60));
	CU_ASSERT_STRING_EQUAL(f.expr, "udp dst port 5000");
	wr_filter_free(&f);
	wr_filter_free(&f); /* twice is harmless */
	CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&f, "arp or (ip and not udp)",
						why, sizeof(why)), 0);
	CU_ASSERT_TRUE(wr_filter_match(&f, arp, 60, 60));
	CU_ASSERT_FALSE(wr_filter_match(&f, u5000, 60, 60));
	wr_filter_free(&f);
}

static void
test_compile_errors(void)
{
	static const struct {
		const char *expr, *why;
	} bad[] = {
		{ "", "1 to 1023 characters" },
		{ "udp and", "libpcap cannot compile \"udp and\": can't parse filter expression: syntax error" },
		{ "port 70000", "libpcap cannot compile" },
		{ "ip host nosuch.invalid", "libpcap cannot compile" },
		{ "ether proto \\frobnicate", "libpcap cannot compile" },
		/* libpcap compiles a loop, DPDK's verifier refuses it: found
		 * here, so that check refuses it as run does. */
		{ "ip6 protochain 6", "DPDK's eBPF cannot take \"ip6 protochain "
		  "6\" (a loop: instruction 18 jumps back to 4; DPDK's verifier "
		  "takes no loops)" },
		{ "ip protochain 17", "(a loop: instruction" },
	};
	char longx[WR_FILTER_EXPR_MAX + 8];
	struct wr_filter f;
	char why[WR_FILTER_EXPR_MAX + 256];
	unsigned int i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CU_ASSERT_EQUAL(wr_filter_compile(&f, bad[i].expr, why,
						  sizeof(why)), -EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, bad[i].why));
		if (strstr(why, bad[i].why) == NULL)
			fprintf(stderr, "%s: %s\n", bad[i].expr, why);
		CU_ASSERT_FALSE(f.compiled);
	}
	memset(longx, 'a', sizeof(longx) - 1);
	longx[sizeof(longx) - 1] = '\0';
	CU_ASSERT_EQUAL(wr_filter_compile(&f, longx, why, sizeof(why)), -EINVAL);
}

/* Programs libpcap does not make but a merged or hand-made one could:
 * each refused with the instruction named. */
static void
test_bpf_ok(void)
{
	static const struct {
		struct bpf_insn insn[3];
		unsigned int n;
		const char *why;
	} cases[] = {
		{ { BPF_STMT(BPF_RET | BPF_K, 1) }, 1, NULL },
		{ { BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1, 2, 0),
		    BPF_STMT(BPF_RET | BPF_K, 0) }, 2,
		  "instruction 0 jumps past the program's end" },
		{ { BPF_STMT(BPF_JMP | BPF_JA, 0xffffffffu),
		    BPF_STMT(BPF_RET | BPF_K, 0) }, 2,
		  "a loop: instruction 0 jumps back to 0" },
		{ { BPF_STMT(BPF_ALU | BPF_DIV | BPF_K, 0),
		    BPF_STMT(BPF_RET | BPF_K, 0) }, 2,
		  "instruction 0 (code 0x0034, k 0) has no translation" },
		{ { BPF_STMT(BPF_LD | BPF_W | BPF_MEM, BPF_MEMWORDS),
		    BPF_STMT(BPF_RET | BPF_K, 0) }, 2,
		  "instruction 0 (code 0x0060, k 16) has no translation" },
		{ { BPF_STMT(BPF_MISC | 0x10, 0),
		    BPF_STMT(BPF_RET | BPF_K, 0) }, 2, "has no translation" },
	};
	char why[160];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bpf_program p = { cases[i].n,
					 (struct bpf_insn *)cases[i].insn };

		why[0] = '\0';
		CU_ASSERT_EQUAL(wr_filter_bpf_ok(&p, why, sizeof(why)),
				cases[i].why == NULL);
		if (cases[i].why != NULL) {
			CU_ASSERT_PTR_NOT_NULL(strstr(why, cases[i].why));
			if (strstr(why, cases[i].why) == NULL)
				fprintf(stderr, "case %u: %s\n", i, why);
		}
	}
}

static int
load_text(const char *text, struct wr_config *cfg, struct wr_error *e)
{
	return wr_config_load_buf("p.yaml", text, strlen(text), cfg, e);
}

static void
test_classes_in_profile(void)
{
	struct wr_config cfg;
	struct wr_error e;
	uint8_t u5000[60], arp[60], u6000[60];

	udp_frame(u5000, 5000);
	udp_frame(u6000, 6000);
	arp_frame(arp);
	CU_ASSERT_EQUAL_FATAL(load_text("version: 1\nrx_classes:\n"
		"  - {name: arp, filter: arp}\n"
		"  - {name: p5000, filter: \"udp port 5000\"}\n"
		"  - {name: any-udp, filter: udp}\n", &cfg, &e), 0);
	CU_ASSERT_EQUAL(cfg.classes.n, 3);
	CU_ASSERT_STRING_EQUAL(cfg.classes.c[1].name, "p5000");
	CU_ASSERT_EQUAL(cfg.classes.c[1].line, 4);
	/* The first class that matches, in file order. */
	CU_ASSERT_EQUAL(wr_rx_classes_match(&cfg.classes, arp, 60, 60), 0);
	CU_ASSERT_EQUAL(wr_rx_classes_match(&cfg.classes, u5000, 60, 60), 1);
	CU_ASSERT_EQUAL(wr_rx_classes_match(&cfg.classes, u6000, 60, 60), 2);
	arp[13] = 0x35;  /* RARP: no class */
	CU_ASSERT_EQUAL(wr_rx_classes_match(&cfg.classes, arp, 60, 60), -1);
	wr_config_free(&cfg);
	CU_ASSERT_EQUAL(cfg.classes.n, 0);
}

static void
test_class_errors(void)
{
	static const struct {
		const char *text, *path, *msg;
		unsigned int line;
	} bad[] = {
		{ "version: 1\nrx_classes: arp\n", "rx_classes",
		  "expected a list of classes {name, filter}", 2 },
		{ "version: 1\nrx_classes: [{name: a}]\n", "rx_classes[0]",
		  "missing required key \"filter\"", 2 },
		{ "version: 1\nrx_classes: [{filter: arp}]\n", "rx_classes[0]",
		  "missing required key \"name\"", 2 },
		{ "version: 1\nrx_classes: [{name: a b, filter: arp}]\n",
		  "rx_classes[0].name", "expected a class name", 2 },
		{ "version: 1\nrx_classes: [{name: foreign, filter: arp}]\n",
		  "rx_classes[0].name", "not \"foreign\"", 2 },
		{ "version: 1\nrx_classes:\n  - {name: a, filter: arp}\n"
		  "  - {name: a, filter: udp}\n", "rx_classes[1].name",
		  "duplicate class \"a\" (first at line 3)", 4 },
		{ "version: 1\nrx_classes: [{name: a, filter: \"tcp port\"}]\n",
		  "rx_classes[0].filter",
		  "libpcap cannot compile \"tcp port\"", 2 },
		{ "version: 1\nrx_classes: [{name: a, filter: {x: 1}}]\n",
		  "rx_classes[0].filter", "expected a tcpdump filter", 2 },
		{ "version: 1\nrx_classes: [{name: a, filter: arp, x: 1}]\n",
		  "rx_classes[0].x", "unknown key \"x\"", 2 },
	};
	char many[2048];
	struct wr_config cfg;
	struct wr_error e;
	unsigned int i;
	size_t n;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(load_text(bad[i].text, &cfg, &e), -EINVAL);
		CU_ASSERT_STRING_EQUAL(e.path, bad[i].path);
		CU_ASSERT_EQUAL(e.line, bad[i].line);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i].msg));
		if (strstr(e.msg, bad[i].msg) == NULL ||
		    strcmp(e.path, bad[i].path) != 0)
			fprintf(stderr, "case %u: %s: %s\n", i, e.path, e.msg);
		CU_ASSERT_EQUAL(cfg.classes.n, 0);
	}
	n = (size_t)snprintf(many, sizeof(many), "version: 1\nrx_classes:\n");
	for (i = 0; i <= WR_RX_CLASSES_MAX; i++)
		n += (size_t)snprintf(many + n, sizeof(many) - n,
				      "  - {name: c%u, filter: arp}\n", i);
	CU_ASSERT_EQUAL(load_text(many, &cfg, &e), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "at most 16 classes"));
}

/* A stream file's classes come after the profile's; a name in both is
 * refused, naming both places. */
static void
test_classes_profile_and_streams(void)
{
	static const char sf[] = "version: 1\nrx_classes:\n"
		"  - {name: icmp, filter: icmp}\n"
		"streams:\n  - {name: s, size: 64}\n";
	struct wr_stream_file f;
	struct wr_config cfg;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("s.yaml", sf,
						       strlen(sf), &f, &e), 0);
	CU_ASSERT_EQUAL(f.classes.n, 1);
	CU_ASSERT_EQUAL_FATAL(load_text("version: 1\nrx_classes: [{name: arp, "
					"filter: arp}]\n", &cfg, &e), 0);
	CU_ASSERT_EQUAL(wr_rx_classes_check_pair(&cfg.classes, &f.classes, &e),
			0);
	wr_config_free(&cfg);
	CU_ASSERT_EQUAL_FATAL(load_text("version: 1\nrx_classes: [{name: icmp, "
					"filter: icmp6}]\n", &cfg, &e), 0);
	CU_ASSERT_EQUAL(wr_rx_classes_check_pair(&cfg.classes, &f.classes, &e),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(e.file, "s.yaml");
	CU_ASSERT_EQUAL(e.line, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "class \"icmp\" is also defined "
				      "in p.yaml:2"));
	wr_config_free(&cfg);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL(f.classes.n, 0);
}

/* The classes' filters, overlapping, with indirect loads, scratch words,
 * the frame's length and a "ret a" (no expression of libpcap's gives one:
 * written by hand) among them. */
static const char *const merge_exprs[] = {
	"icmp[icmptype] == icmp-unreach",
	NULL, /* ldb [60]; and #1; ret a */
	"tcp and (((ip[2:2] - ((ip[0]&0xf)<<2)) - ((tcp[12]&0xf0)>>2)) != 0)",
	"udp dst port 5000",
	"vlan and udp",
	"ip6 and tcp",
	"udp",
	"ip",
	"arp",
	"len >= 100",
};
#define N_MERGE (sizeof(merge_exprs) / sizeof(merge_exprs[0]))

static uint32_t
lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* One of a few frames (UDP, ARP, ICMP unreachable, TCP with payload,
 * 802.1Q UDP, IPv6 TCP), some of its first 80 bytes then changed. */
static void
merge_frame(uint8_t *f, uint32_t *seed)
{
	unsigned int k, kind = lcg(seed) % 6;

	udp_frame(f, lcg(seed) % 2 ? 5000 : 6000);
	memset(f + 60, 0, 196);
	if (kind == 1)
		arp_frame(f);
	else if (kind == 2) {
		f[23] = 1;                  /* ICMP */
		f[34] = 3;                  /* destination unreachable */
	} else if (kind == 3) {
		f[23] = 6;                  /* TCP, 20-byte header, payload */
		f[17] = 80;
		f[46] = 0x50;
	} else if (kind == 4) {
		memmove(f + 16, f + 12, 60);
		f[12] = 0x81;               /* 802.1Q */
		f[13] = 0x00;
	} else if (kind == 5) {
		f[12] = 0x86;               /* IPv6, next header TCP */
		f[13] = 0xdd;
		f[14] = 0x60;
		f[20] = 6;
	}
	for (k = lcg(seed) % 4; k > 0; k--)
		f[12 + lcg(seed) % 68] = (uint8_t)lcg(seed);
}

/* The merged program returns 1 + the first class libpcap's interpreter
 * finds, one filter after the other, or n + 1 for none; 0 (stopped on a
 * load beyond the frame) only where a frame is short. */
static void
test_merge(void)
{
	static const struct bpf_insn ret_a[] = {
		{ BPF_LD | BPF_B | BPF_ABS, 0, 0, 60 },
		{ BPF_ALU | BPF_AND | BPF_K, 0, 0, 1 },
		{ BPF_RET | BPF_A, 0, 0, 0 },
	};
	struct wr_filter fl[N_MERGE], all;
	const struct wr_filter *fs[N_MERGE];
	struct pcap_pkthdr h;
	uint8_t frame[256];
	uint32_t seed = 18, r, caplen, len;
	unsigned int i, c, stopped = 0, seen[N_MERGE + 1] = { 0 };
	int want;
	char why[256];

	for (c = 0; c < N_MERGE; c++) {
		if (merge_exprs[c] != NULL) {
			CU_ASSERT_EQUAL_FATAL(wr_filter_compile(&fl[c],
				merge_exprs[c], why, sizeof(why)), 0);
		} else {
			memset(&fl[c], 0, sizeof(fl[c]));
			fl[c].bpf.bf_len = 3;
			fl[c].bpf.bf_insns = (struct bpf_insn *)ret_a;
		}
		fs[c] = &fl[c];
	}
	CU_ASSERT_EQUAL(wr_filter_merge(fs, 0, &all), -EINVAL);
	fl[1].compiled = true;
	CU_ASSERT_EQUAL_FATAL(wr_filter_merge(fs, N_MERGE, &all), 0);
	/* Loads several programs make loaded once, first: the EtherType
	 * and the IPv4 protocol among them, not "ldb [60]" (one program's,
	 * and beyond the 60 bytes every frame has). */
	for (i = 0, c = 0; all.bpf.bf_insns[i + 1].code == BPF_ST; i += 2) {
		const struct bpf_insn *in = &all.bpf.bf_insns[i];

		c += (in->code == (BPF_LD | BPF_H | BPF_ABS) && in->k == 12) +
		     (in->code == (BPF_LD | BPF_B | BPF_ABS) && in->k == 23);
		CU_ASSERT(in->k < 60);
	}
	CU_ASSERT_EQUAL(c, 2);
	for (i = 0; i < 20000; i++) {
		merge_frame(frame, &seed);
		len = (uint32_t[]){ 64, 128, 256 }[lcg(&seed) % 3];
		/* One frame in four cut short (a capture's snap length). */
		caplen = lcg(&seed) % 4 ? len : lcg(&seed) % 100;
		want = -1;
		for (c = 0; c < N_MERGE && want < 0; c++)
			if (wr_filter_match(&fl[c], frame, caplen, len))
				want = (int)c;
		memset(&h, 0, sizeof(h));
		h.caplen = caplen;
		h.len = len;
		r = pcap_offline_filter(&all.bpf, &h, frame);
		/* Every load of these filters is in the first 128 bytes. */
		if (r == 0 && caplen < 128) {
			stopped++;
			continue;
		}
		CU_ASSERT_EQUAL(r, want < 0 ? N_MERGE + 1 : (uint32_t)want + 1);
		if (r != (want < 0 ? N_MERGE + 1 : (uint32_t)want + 1))
			fprintf(stderr, "frame %u: merged %u, one by one %d\n",
				i, r, want);
		seen[want < 0 ? N_MERGE : (unsigned int)want]++;
	}
	/* Every class, and none, was the answer for some frames; some were
	 * cut where a load stopped the merged program. */
	for (c = 0; c <= N_MERGE; c++) {
		CU_ASSERT(seen[c] > 0);
		if (seen[c] == 0)
			fprintf(stderr, "no frame in class %u\n", c);
	}
	CU_ASSERT(stopped > 0);
	wr_filter_free(&all);
	fl[1].compiled = false; /* not libpcap's: not freed */
	for (c = 0; c < N_MERGE; c++)
		wr_filter_free(&fl[c]);
}

static CU_TestInfo filter_tests[] = {
	{ "compile_and_match", test_compile_and_match },
	{ "compile_errors", test_compile_errors },
	{ "bpf_ok", test_bpf_ok },
	{ "classes_in_profile", test_classes_in_profile },
	{ "class_errors", test_class_errors },
	{ "classes_profile_and_streams", test_classes_profile_and_streams },
	{ "merge", test_merge },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "filter", .pTests = filter_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

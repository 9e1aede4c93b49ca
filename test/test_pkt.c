/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_pkt, the shared header-stack parser, against every shipped stack and golden frames. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_frame.h"
#include "wr_pkt.h"
#include "wr_proto.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* Every stack a shipped stream file builds, with a signature: the parser
 * finds the signature exactly where wr_frame put it. */
static void
test_every_shipped_stack(void)
{
	DIR *dir = opendir(WR_STREAMS);
	struct dirent *d;
	unsigned int n_checked = 0;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	while ((d = readdir(dir)) != NULL) {
		struct wr_stream_file f;
		struct wr_error e;
		char path[512];
		uint32_t i, j;

		if (strstr(d->d_name, ".yaml") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", WR_STREAMS, d->d_name);
		CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams(path, &f, &e), 0);
		for (i = 0; i < f.n_streams; i++) {
			struct wr_stream *s = &f.streams[i];
			struct wr_frame_tmpl *t;
			struct wr_pkt k;
			bool raw = s->replay != NULL; /* no template */

			for (j = 0; j < s->n_layers; j++)
				raw |= s->layers[j].proto->hlen == 0;
			if (raw)
				continue; /* a raw layer: not parsed (wr_pkt.h) */
			s->latency = true;
			s->sig_short = false;
			/* Room for the signature in every stack. */
			s->size.mode = WR_SIZE_FIXED;
			s->size.fixed = 300;
			if (wr_frame_tmpl_create(s, i, &t, &e) != 0) {
				fprintf(stderr, "%s %s: %s\n", d->d_name, s->name, e.msg);
				CU_FAIL("template");
				continue;
			}
			CU_ASSERT_EQUAL(wr_pkt_parse(wr_frame_tmpl_bytes(t),
						     wr_frame_tmpl_max_len(t), &k), 0);
			CU_ASSERT_EQUAL(k.pay_off, wr_frame_tmpl_sig_off(t));
			if (k.pay_off != wr_frame_tmpl_sig_off(t))
				fprintf(stderr, "%s %s: parser %u, frame %u\n", d->d_name,
					s->name, k.pay_off, wr_frame_tmpl_sig_off(t));
			n_checked++;
			wr_frame_tmpl_free(t);
		}
		wr_stream_file_free(&f);
	}
	closedir(dir);
	CU_ASSERT(n_checked >= 20);
}

/* Golden frames the generator never builds. */
static void
test_golden(void)
{
	uint8_t f[200];
	struct wr_pkt k;

	/* QinQ with the pre-standard 0x9100 TPID, then IPv4 with options
	 * (IHL 6) / TCP with options (data offset 8). */
	memset(f, 0, sizeof(f));
	f[12] = 0x91; f[13] = 0x00; f[14] = 0x00; f[15] = 0x64;
	f[16] = 0x81; f[17] = 0x00; f[18] = 0x20; f[19] = 0x0a;
	f[20] = 0x08; f[21] = 0x00;
	f[22] = 0x46; f[22 + 9] = 6;
	f[46 + 12] = 0x80;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), &k), 0);
	CU_ASSERT_EQUAL(k.l2_len, 22);
	CU_ASSERT_EQUAL(k.vlan_tci, 0x64);
	CU_ASSERT_EQUAL(k.l3_off, 22);
	CU_ASSERT_EQUAL(k.l4_off, 46);
	CU_ASSERT_EQUAL(k.l4_proto, WR_IPPROTO_TCP);
	CU_ASSERT_EQUAL(k.pay_off, 46 + 32);
	/* The same, a non-first fragment: no L4 header. */
	f[22 + 7] = 0x10;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), &k), 0);
	CU_ASSERT_EQUAL(k.l4_proto, 0);
	CU_ASSERT_EQUAL(k.l3_off, 22);
	/* GRE with checksum, key and sequence number (16 bytes) over IPv4,
	 * carrying IPv6 / ICMPv6. */
	memset(f, 0, sizeof(f));
	f[12] = 0x08; f[13] = 0x00;
	f[14] = 0x45; f[14 + 9] = WR_IPPROTO_GRE;
	f[34] = 0xb0; f[36] = 0x86; f[37] = 0xdd;
	f[50] = 0x60; f[50 + 6] = WR_IPPROTO_ICMPV6;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), &k), 0);
	CU_ASSERT_EQUAL(k.l3_off, 50);
	CU_ASSERT_EQUAL(k.l3_type, WR_ETHERTYPE_IPV6);
	CU_ASSERT_EQUAL(k.l4_off, 90);
	CU_ASSERT_EQUAL(k.pay_off, 98);
	/* Truncated in the IPv6 header: an error, what was found kept. */
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 70, &k), -EINVAL);
	CU_ASSERT_EQUAL(k.l2_len, 14);
	/* Raw L2: the payload right after Ethernet. */
	f[12] = 0x88; f[13] = 0xb5;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 60, &k), 0);
	CU_ASSERT_EQUAL(k.pay_off, 14);
	CU_ASSERT_EQUAL(k.l3_type, 0);
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 13, &k), -EINVAL);
}

static CU_TestInfo pkt_tests[] = {
	{ "every_shipped_stack", test_every_shipped_stack },
	{ "golden", test_golden },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "pkt", .pTests = pkt_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

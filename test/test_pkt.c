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
			const struct wr_proto *proto[WR_LAYERS_MAX];
			uint16_t off[WR_LAYERS_MAX];
			struct wr_pkt_hints h = { 0 };
			struct wr_frame_tmpl *t;
			struct wr_pkt k;
			uint32_t n;

			if (s->replay != NULL)
				continue; /* a capture's frames: no template */
			/* A layer that ends the frame takes no signature. */
			if (s->layers[s->n_layers - 1].proto->no_payload)
				continue;
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
			/* A raw layer is found by its hint, as RX is given. */
			if (wr_frame_tmpl_rx_hint(t, &h.raw[0]) == 0)
				h.n = 1;
			CU_ASSERT_EQUAL(wr_pkt_parse(wr_frame_tmpl_bytes(t),
						     wr_frame_tmpl_max_len(t), &h, &k), 0);
			CU_ASSERT_EQUAL(k.pay_off, wr_frame_tmpl_sig_off(t));
			if (k.pay_off != wr_frame_tmpl_sig_off(t))
				fprintf(stderr, "%s %s: parser %u, frame %u\n", d->d_name,
					s->name, k.pay_off, wr_frame_tmpl_sig_off(t));
			/* Every layer recognised, as the module it was built
			 * from (or the one that receives every variant of its
			 * header: gre for gre_key), where it was built (but a
			 * raw one). */
			n = wr_frame_tmpl_layers(t, proto, off);
			CU_ASSERT_EQUAL(k.n, n - h.n);
			for (j = 0; j < k.n && j < n; j++) {
				CU_ASSERT_TRUE(k.proto[j] == proto[j] ||
					       (k.proto[j]->rx != NULL &&
						k.proto[j]->rx == proto[j]->rx));
				if (k.proto[j] != proto[j])
					fprintf(stderr, "%s %s: %s for %s\n", d->d_name, s->name,
						k.proto[j]->name, proto[j]->name);
				CU_ASSERT_EQUAL(k.off[j], off[j]);
			}
			n_checked++;
			wr_frame_tmpl_free(t);
		}
		wr_stream_file_free(&f);
	}
	closedir(dir);
	CU_ASSERT(n_checked >= 20);
}

/* The names of the layers @p k recognised, "eth vlan ipv4", for asserts. */
static const char *
names(const struct wr_pkt *k, char *buf, size_t len)
{
	size_t at = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < k->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "",
				       k->proto[i]->name);
	return buf;
}

/* Golden frames the generator never builds. */
static void
test_golden(void)
{
	struct wr_pkt_hints h = { .n = 1, .raw = { { WR_CARRY_ETHERTYPE, 0x88b6, 16 } } };
	uint8_t f[200];
	struct wr_pkt k;
	char b[128];

	/* QinQ with the pre-standard 0x9100 TPID, then IPv4 with options
	 * (IHL 6) / TCP with options (data offset 8). */
	memset(f, 0, sizeof(f));
	f[12] = 0x91; f[13] = 0x00; f[14] = 0x00; f[15] = 0x64;
	f[16] = 0x81; f[17] = 0x00; f[18] = 0x20; f[19] = 0x0a;
	f[20] = 0x08; f[21] = 0x00;
	f[22] = 0x46; f[22 + 9] = 6;
	f[46 + 12] = 0x80;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), NULL, &k), 0);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth vlan vlan ipv4 tcp");
	CU_ASSERT_EQUAL(k.l2_len, 22);
	CU_ASSERT_EQUAL(k.n_tags, 2);
	CU_ASSERT_EQUAL(k.ethertype, WR_ETHERTYPE_IPV4);
	CU_ASSERT_EQUAL(k.off[3], 22);
	CU_ASSERT_EQUAL(k.off[4], 46);
	CU_ASSERT_EQUAL(k.pay_off, 46 + 32);
	/* The L2 header alone (ARP, ND): the same tags, nothing after. */
	CU_ASSERT_EQUAL(wr_pkt_parse_l2(f, sizeof(f), &k), 0);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth vlan vlan");
	CU_ASSERT_EQUAL(k.l2_len, 22);
	/* The same, a non-first fragment: no L4 header. */
	f[22 + 7] = 0x10;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), NULL, &k), 0);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth vlan vlan ipv4");
	CU_ASSERT_EQUAL(k.pay_off, 46);
	/* GRE with checksum, key and sequence number (16 bytes) over IPv4,
	 * carrying IPv6 / ICMPv6. */
	memset(f, 0, sizeof(f));
	f[12] = 0x08; f[13] = 0x00;
	f[14] = 0x45; f[14 + 9] = WR_IPPROTO_GRE;
	f[34] = 0xb0; f[36] = 0x86; f[37] = 0xdd;
	f[50] = 0x60; f[50 + 6] = WR_IPPROTO_ICMPV6;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), NULL, &k), 0);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth ipv4 gre ipv6 icmp6");
	CU_ASSERT_EQUAL(k.off[3], 50);
	CU_ASSERT_EQUAL(k.off[4], 90);
	CU_ASSERT_EQUAL(k.pay_off, 98);
	/* Truncated in the IPv6 header: an error, what was found kept. */
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 70, NULL, &k), -EINVAL);
	CU_ASSERT_EQUAL(k.l2_len, 14);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth ipv4 gre");
	/* UDP to port 4789 that is no VXLAN (no I flag): payload after UDP. */
	memset(f, 0, sizeof(f));
	f[12] = 0x08; f[13] = 0x00;
	f[14] = 0x45; f[14 + 9] = WR_IPPROTO_UDP;
	f[36] = 0x12; f[37] = 0xb5;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), NULL, &k), 0);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth ipv4 udp");
	CU_ASSERT_EQUAL(k.pay_off, 42);
	f[42] = 0x08;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, sizeof(f), NULL, &k), 0);
	CU_ASSERT_STRING_EQUAL(names(&k, b, sizeof(b)), "eth ipv4 udp vxlan eth");
	CU_ASSERT_EQUAL(k.pay_off, 64);
	/* Raw L2: the payload right after Ethernet, or after a raw header
	 * of 16 bytes the hints know. */
	f[12] = 0x88; f[13] = 0xb5;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 60, NULL, &k), 0);
	CU_ASSERT_EQUAL(k.pay_off, 14);
	CU_ASSERT_EQUAL(k.n, 1);
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 13, NULL, &k), -EINVAL);
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 60, &h, &k), 0);
	CU_ASSERT_EQUAL(k.pay_off, 14);
	f[13] = 0xb6;
	CU_ASSERT_EQUAL(wr_pkt_parse(f, 60, &h, &k), 0);
	CU_ASSERT_EQUAL(k.pay_off, 30);
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

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_pcapng: capture options, and the blocks wirerate writes read back by libpcap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "wr_capture.h"
#include "wr_test.h"

static void
test_capspec(void)
{
	static const struct {
		const char *arg;
		int rc;
		uint16_t port;
		enum wr_cap_dir dir;
		const char *file;
	} cases[] = {
		{ "0=rx.pcapng", 0, 0, WR_CAP_RX, "rx.pcapng" },
		{ "1:tx=/tmp/a b.pcapng", 0, 1, WR_CAP_TX, "/tmp/a b.pcapng" },
		{ "3:both=x=y", 0, 3, WR_CAP_BOTH, "x=y" },
		{ "2:rx=f", 0, 2, WR_CAP_RX, "f" },
		{ "=f", -EINVAL, 0, 0, NULL },
		{ "0=", -EINVAL, 0, 0, NULL },
		{ "0", -EINVAL, 0, 0, NULL },
		{ "0:up=f", -EINVAL, 0, 0, NULL },
		{ "0:=f", -EINVAL, 0, 0, NULL },
		{ "x=f", -EINVAL, 0, 0, NULL },
		{ "-1=f", -EINVAL, 0, 0, NULL },
		{ "65536=f", -EINVAL, 0, 0, NULL },
		{ ":rx=f", -EINVAL, 0, 0, NULL },
	};
	struct wr_capspec s;
	char why[256];
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		CU_ASSERT_EQUAL(wr_capspec_parse(cases[i].arg, &s, why,
						 sizeof(why)), cases[i].rc);
		if (cases[i].rc != 0) {
			CU_ASSERT_PTR_NOT_NULL(strstr(why, "PORT[:rx|tx|both]=FILE"));
			continue;
		}
		CU_ASSERT_EQUAL(s.port, cases[i].port);
		CU_ASSERT_EQUAL(s.dir, cases[i].dir);
		CU_ASSERT_STRING_EQUAL(s.file, cases[i].file);
	}
}

static void
test_limits_and_names(void)
{
	struct wr_cap_limits l = { 0 };
	char why[256], name[64];

	CU_ASSERT_EQUAL(wr_cap_limits_check(&l, why, sizeof(why)), 0);
	l.files = 4;
	CU_ASSERT_EQUAL(wr_cap_limits_check(&l, why, sizeof(why)), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a limit per file"));
	l.duration_ns = 1000000000;
	CU_ASSERT_EQUAL(wr_cap_limits_check(&l, why, sizeof(why)), 0);
	l.files = WR_CAP_FILES_MAX + 1;
	CU_ASSERT_EQUAL(wr_cap_limits_check(&l, why, sizeof(why)), -EINVAL);
	l.files = 0;
	l.snaplen = 65536;
	CU_ASSERT_EQUAL(wr_cap_limits_check(&l, why, sizeof(why)), -EINVAL);

	CU_ASSERT_EQUAL(wr_cap_file_name("x.pcapng", 0, 1, name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, "x.pcapng");
	CU_ASSERT_EQUAL(wr_cap_file_name("d/x.pcapng", 3, 4, name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, "d/x-3.pcapng");
	CU_ASSERT_EQUAL(wr_cap_file_name("d.v/x", 2, 4, name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, "d.v/x-2");
	CU_ASSERT_EQUAL(wr_cap_file_name(".hidden", 1, 2, name, sizeof(name)), 0);
	CU_ASSERT_STRING_EQUAL(name, ".hidden-1");
	CU_ASSERT_EQUAL(wr_cap_file_name("x.pcapng", 1, 2, name, 8),
			-ENAMETOOLONG);
}

/* An EPB as rte_pcapng_copy() lays it out: header, frame padded, the
 * flags and queue options, the trailing length (no opt_endofopt). */
static uint32_t
epb_like_dpdk(uint8_t *b, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	uint32_t pad = (len + 3) & ~3u, off, v;

	memset(b, 0, 28 + pad + 24);
	v = 6;
	memcpy(b, &v, 4);
	v = 0;
	memcpy(b + 8, &v, 4);
	memcpy(b + 20, &len, 4);
	memcpy(b + 24, &len, 4);
	memcpy(b + 28, frame, len);
	off = 28 + pad;
	b[off] = 2; b[off + 2] = 4; b[off + 4] = 1;      /* flags: inbound */
	off += 8;
	b[off] = 6; b[off + 2] = 4;                      /* queue 0 */
	off += 8;
	v = off + 4;
	memcpy(b + 4, &v, 4);
	memcpy(b + off, &v, 4);
	CU_ASSERT_EQUAL(wr_pcapng_epb_set_ts(b, v, ts), 0);
	return v;
}

/* Blocks of ours and an EPB with a comment, read back by libpcap: the
 * reference reader of the format, not ours. */
static void
test_blocks_read_by_libpcap(void)
{
	char path[] = "/tmp/wr_pcapngXXXXXX", errbuf[PCAP_ERRBUF_SIZE];
	uint8_t buf[4096], frame[61];
	const uint64_t ts = 1795392000123456789ull;
	struct pcap_pkthdr *h;
	const u_char *data;
	size_t n = 0, len;
	uint32_t elen, clen;
	pcap_t *p;
	FILE *f;
	int fd, i;

	for (i = 0; i < (int)sizeof(frame); i++)
		frame[i] = (uint8_t)i;
	fd = mkstemp(path);
	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	len = wr_pcapng_shb(buf, sizeof(buf), "x86_64", "Linux", "wirerate",
			    "a test");
	CU_ASSERT_FATAL(len > 0 && len % 4 == 0);
	n += fwrite(buf, 1, len, f);
	len = wr_pcapng_idb(buf, sizeof(buf), "net_null0", "wirerate port 0",
			    0);
	CU_ASSERT_FATAL(len > 0 && len % 4 == 0);
	n += fwrite(buf, 1, len, f);
	elen = epb_like_dpdk(buf, frame, sizeof(frame), ts);
	CU_ASSERT_EQUAL(wr_pcapng_epb_ts(buf), ts);
	clen = wr_pcapng_epb_comment(buf, elen, sizeof(buf),
				     "stream udp-64 lane 0 seq 7");
	/* 4 bytes of option header and 26 of text padded to 28. */
	CU_ASSERT_EQUAL(clen, elen + 32);
	CU_ASSERT_PTR_NOT_NULL(memmem(buf, clen, "stream udp-64 lane 0 seq 7",
				      26));
	/* No room: nothing changes. */
	CU_ASSERT_EQUAL(wr_pcapng_epb_comment(buf, clen, clen + 8, "xxxxxxxx"),
			0);
	n += fwrite(buf, 1, clen, f);
	len = wr_pcapng_isb(buf, sizeof(buf), 0, ts + 1000, ts, ts + 1000, 1,
			    5, "capture dropped 5 frames");
	CU_ASSERT_FATAL(len > 0);
	n += fwrite(buf, 1, len, f);
	CU_ASSERT_EQUAL(fclose(f), 0);
	(void)n;

	p = pcap_open_offline_with_tstamp_precision(path,
			PCAP_TSTAMP_PRECISION_NANO, errbuf);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(pcap_datalink(p), DLT_EN10MB);
	CU_ASSERT_EQUAL(pcap_next_ex(p, &h, &data), 1);
	CU_ASSERT_EQUAL(h->caplen, sizeof(frame));
	CU_ASSERT_EQUAL(h->len, sizeof(frame));
	CU_ASSERT_EQUAL(memcmp(data, frame, sizeof(frame)), 0);
	CU_ASSERT_EQUAL((uint64_t)h->ts.tv_sec, ts / 1000000000ull);
	CU_ASSERT_EQUAL((uint64_t)h->ts.tv_usec, ts % 1000000000ull);
	CU_ASSERT_EQUAL(pcap_next_ex(p, &h, &data), -2);  /* the end */
	pcap_close(p);
	unlink(path);

	/* Not an EPB: refused. */
	memset(buf, 0, 64);
	CU_ASSERT_EQUAL(wr_pcapng_epb_set_ts(buf, 64, 1), -EINVAL);
	CU_ASSERT_EQUAL(wr_pcapng_epb_comment(buf, 64, 128, "x"), 0);
	/* Blocks that do not fit: 0. */
	CU_ASSERT_EQUAL(wr_pcapng_shb(buf, 20, NULL, NULL, NULL, NULL), 0);
	CU_ASSERT_EQUAL(wr_pcapng_idb(buf, 24, "a very long name", NULL, 0), 0);
}

static CU_TestInfo pcapng_tests[] = {
	{ "capspec", test_capspec },
	{ "limits_and_names", test_limits_and_names },
	{ "blocks_read_by_libpcap", test_blocks_read_by_libpcap },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "pcapng", .pTests = pcapng_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: what captures and rx_classes take from outside: a
 * tcpdump filter expression (compiled by libpcap, then run on a frame), a
 * --capture PORT[:dir]=FILE spec, an rx_classes: list in a profile, and a
 * stream comment added to an Enhanced Packet Block. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_config.h"
#include "wr_filter.h"
#include "wr_capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The classes as one program (wr_filter_merge()) on the input's bytes as a
 * frame: the first class one filter after the other, or 0 where a load
 * beyond the frame stopped it (then the data path runs them one by one). */
static void
merge_check(const struct wr_rx_classes *cs, const uint8_t *frame, size_t size)
{
	const struct wr_filter *fs[WR_RX_CLASSES_MAX];
	struct wr_filter all;
	struct pcap_pkthdr h;
	unsigned int c, r;
	int want;

	if (cs->n == 0)
		return;
	for (c = 0; c < cs->n; c++)
		fs[c] = &cs->c[c].filter;
	if (wr_filter_merge(fs, cs->n, &all) != 0)
		return;
	memset(&h, 0, sizeof(h));
	h.caplen = h.len = (uint32_t)size;
	r = pcap_offline_filter(&all.bpf, &h, frame);
	want = wr_rx_classes_match(cs, frame, (uint32_t)size, (uint32_t)size);
	if (r != 0 && r != (want < 0 ? cs->n + 1 : (unsigned int)want + 1))
		abort();
	wr_filter_free(&all);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_capspec spec;
	struct wr_filter f;
	struct wr_config cfg;
	struct wr_error err;
	uint8_t epb[512];
	char why[WR_FILTER_EXPR_MAX + 256], *s, *yaml;
	size_t n;

	s = malloc(size + 1);
	yaml = malloc(size + 64);
	if (s == NULL || yaml == NULL)
		goto out;
	memcpy(s, data, size);
	s[size] = '\0';
	if (wr_filter_compile(&f, s, why, sizeof(why)) == 0) {
		/* The program runs on the input's own bytes as a frame. */
		(void)wr_filter_match(&f, data, (uint32_t)size,
				      (uint32_t)size);
		wr_filter_free(&f);
	}
	(void)wr_capspec_parse(s, &spec, why, sizeof(why));
	n = (size_t)snprintf(yaml, size + 64, "version: 1\nrx_classes: %s\n", s);
	if (wr_config_load_buf("fuzz.yaml", yaml, n < size + 64 ? n : size + 63,
			       &cfg, &err) == 0) {
		merge_check(&cfg.classes, data, size);
		wr_config_free(&cfg);
	}
	/* A 64-byte frame's EPB, then the input as its comment. */
	memset(epb, 0, sizeof(epb));
	{
		uint32_t hdr[7] = { 6, 28 + 64 + 4, 0, 0, 0, 64, 64 };
		uint32_t len = 28 + 64 + 4;

		memcpy(epb, hdr, sizeof(hdr));
		memcpy(epb + len - 4, &len, 4);
		(void)wr_pcapng_epb_comment(epb, len, sizeof(epb), s);
	}
out:
	free(s);
	free(yaml);
	return 0;
}

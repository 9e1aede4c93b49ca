/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: a filter expression as the data path runs it.  The
 * input is an expression, a newline, then a frame's bytes (no newline: the
 * input is both).  What libpcap compiles is translated and JIT-compiled
 * (wr_bpf_load(): the mbuf program and, where there is one, the direct
 * program) and both run on the frame; any answer other than libpcap's own
 * interpreter's aborts.  No EAL: rte_bpf_load() needs none. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "wr_bpf.h"
#include "wr_filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[RTE_PKTMBUF_HEADROOM + 2048];
	const uint8_t *nl = memchr(data, '\n', size);
	size_t elen = nl != NULL ? (size_t)(nl - data) : size;
	const uint8_t *frame = nl != NULL ? nl + 1 : data;
	size_t flen = nl != NULL ? size - elen - 1 : size;
	struct pcap_pkthdr h;
	struct rte_mbuf m;
	struct wr_filter f;
	struct wr_bpf b;
	struct wr_error err;
	char expr[WR_FILTER_EXPR_MAX], why[256];
	uint64_t want, got;

	if (elen >= sizeof(expr) || flen > sizeof(buf) - RTE_PKTMBUF_HEADROOM)
		return 0;
	memcpy(expr, data, elen);
	expr[elen] = '\0';
	if (wr_filter_compile(&f, expr, why, sizeof(why)) != 0)
		return 0;
	/* DPDK's verifier walks a program's paths: its time grows fast with
	 * chains of "vlan" and "port" (575 instructions: 0.7 s, as long as
	 * for DPDK's own converter's program).  Longer ones would only time
	 * the verifier out. */
	if (f.bpf.bf_len > 400) {
		wr_filter_free(&f);
		return 0;
	}
	/* A program DPDK's verifier refuses is an error line at start, not
	 * a wrong answer: nothing to compare. */
	if (wr_bpf_load(&b, &f, "fuzz", &err) != 0) {
		wr_filter_free(&f);
		return 0;
	}
	memcpy(buf + RTE_PKTMBUF_HEADROOM, frame, flen);
	memset(&h, 0, sizeof(h));
	h.caplen = h.len = (uint32_t)flen;
	want = pcap_offline_filter(&f.bpf, &h, buf + RTE_PKTMBUF_HEADROOM);
	memset(&m, 0, sizeof(m));
	m.buf_addr = buf;
	m.buf_len = (uint16_t)sizeof(buf);
	m.data_off = RTE_PKTMBUF_HEADROOM;
	m.data_len = (uint16_t)flen;
	m.pkt_len = (uint32_t)flen;
	m.nb_segs = 1;
	got = b.jit != NULL ? b.jit(&m) : rte_bpf_exec(b.bpf, &m);
	if (got != want)
		abort();
	if (wr_bpf_exec(&b, &m) != want)
		abort();
	if (b.direct != NULL && flen >= b.direct_len) {
		got = b.direct(buf + RTE_PKTMBUF_HEADROOM);
		if (got != WR_BPF_FALLBACK && got != want)
			abort();
	}
	wr_bpf_free(&b);
	wr_filter_free(&f);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bpf: a libpcap-compiled filter as DPDK eBPF, JIT-compiled where DPDK can. */
#ifndef WR_BPF_H
#define WR_BPF_H

/**
 * @file
 * A capture filter or an rx_classes class as the data path runs it: the
 * classic BPF program libpcap compiled (wr_filter.h) is translated to eBPF
 * here (wr_bpf.c), loaded and verified (rte_bpf_load()), and its
 * JIT-compiled function used when DPDK has one for the CPU (x86-64,
 * arm64), else its interpreter.  Two programs: one takes the mbuf
 * (RTE_BPF_ARG_PTR_MBUF; loads beyond the first segment go through
 * rte_pktmbuf_read()), the other, where the filter allows it, the frame's
 * bytes with plain loads, for frames whose first segment is long enough;
 * the first answers what the second cannot.  Both return what libpcap's
 * interpreter returns (test_bpf).
 *
 * Threads: load and free on the main lcore; wr_bpf_run() on any lcore,
 * concurrently (the programs have no state).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_bpf.h>
#include <rte_mbuf.h>

#include "wr_error.h"
#include "wr_filter.h"

struct wr_bpf {
	struct rte_bpf *bpf;
	uint64_t (*jit)(void *);   /**< NULL: run by the interpreter */
	/** The same filter on the frame's bytes (wr_bpf.c), JIT-compiled;
	 * NULL: none.  Run on frames whose first segment holds direct_len
	 * bytes. */
	uint64_t (*direct)(const void *);
	uint32_t direct_len;
	struct rte_bpf *direct_bpf;
};

/** What a direct program returns when a load went past direct_len: the
 * mbuf program answers instead (classic BPF returns 32 bits). */
#define WR_BPF_FALLBACK (UINT64_C(1) << 32)

/**
 * Translate and load @p f (compiled by wr_filter_compile()).
 * @param what names the filter in the error ("--capture-filter", "class
 *             arp")
 * @return 0; -EINVAL (DPDK refused the program: @p err says so); -ENOMEM.
 */
int wr_bpf_load(struct wr_bpf *b, const struct wr_filter *f, const char *what,
		struct wr_error *err);

/** Free what wr_bpf_load() made.  NULL-safe, idempotent. */
void wr_bpf_free(struct wr_bpf *b);

/** @return what the program returns for @p m. */
static inline uint64_t
wr_bpf_exec(const struct wr_bpf *b, struct rte_mbuf *m)
{
	if (b->direct != NULL && rte_pktmbuf_data_len(m) >= b->direct_len) {
		uint64_t r = b->direct(rte_pktmbuf_mtod(m, const void *));

		if (likely(r != WR_BPF_FALLBACK))
			return r;
	}
	return b->jit != NULL ? b->jit(m) : rte_bpf_exec(b->bpf, m);
}

/** @return true when the filter takes @p m. */
static inline bool
wr_bpf_run(const struct wr_bpf *b, struct rte_mbuf *m)
{
	return wr_bpf_exec(b, m) != 0;
}

#endif /* WR_BPF_H */

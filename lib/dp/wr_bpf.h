/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bpf: a libpcap-compiled filter as DPDK eBPF, JIT-compiled where DPDK can. */
#ifndef WR_BPF_H
#define WR_BPF_H

/**
 * @file
 * What dpdk-dumpcap does with a capture filter: the classic BPF program
 * libpcap compiled (wr_filter.h) is converted to eBPF (rte_bpf_convert()),
 * loaded and verified (rte_bpf_load()), and its JIT-compiled function used
 * when DPDK has one for the CPU (x86-64, arm64), else its interpreter.  The
 * program takes the mbuf itself (RTE_BPF_ARG_PTR_MBUF): loads beyond the
 * first segment go through rte_pktmbuf_read().
 *
 * Threads: load and free on the main lcore; wr_bpf_run() on any lcore,
 * concurrently (the program has no state).
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
};

/**
 * Convert and load @p f (compiled by wr_filter_compile()).  Needs EAL.
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
	return b->jit != NULL ? b->jit(m) : rte_bpf_exec(b->bpf, m);
}

/** @return true when the filter takes @p m. */
static inline bool
wr_bpf_run(const struct wr_bpf *b, struct rte_mbuf *m)
{
	return wr_bpf_exec(b, m) != 0;
}

#endif /* WR_BPF_H */

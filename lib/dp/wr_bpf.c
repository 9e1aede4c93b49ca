/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bpf: rte_bpf_convert + rte_bpf_load + JIT, as dpdk-dumpcap. */
/* rte_bpf_convert() is experimental in DPDK 22.11; it is the converter
 * dpdk-dumpcap itself uses. */
#define ALLOW_EXPERIMENTAL_API

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <bpf_def.h>

#include "wr_bpf.h"

/* eBPF register the converted programs keep classic BPF's X in (DPDK's
 * lib/bpf/bpf_convert.c: BPF_REG_X). */
#define WR_BPF_REG_X 7

/*
 * DPDK 22.11's rte_bpf_convert() copies a classic indirect load
 * ("ldb [x + 14]": how libpcap reaches anything behind the IPv4 header,
 * icmp[icmptype], a port after options) with its source register left 0,
 * so the eBPF load is relative to A, not X: such filters then disagree
 * with libpcap (measured: "icmp[icmptype] == icmp-unreach" matched no
 * ICMP unreachable).  Classic BPF has no other indirect load than one
 * relative to X, so every one is pointed at X again.
 */
static void
fix_indirect_loads(struct rte_bpf_prm *prm)
{
	struct ebpf_insn *ins = (struct ebpf_insn *)(uintptr_t)prm->ins;
	uint32_t i;

	for (i = 0; i < prm->nb_ins; i++)
		if (BPF_CLASS(ins[i].code) == BPF_LD &&
		    BPF_MODE(ins[i].code) == BPF_IND)
			ins[i].src_reg = WR_BPF_REG_X;
}

int
wr_bpf_load(struct wr_bpf *b, const struct wr_filter *f, const char *what,
	    struct wr_error *err)
{
	struct rte_bpf_prm *prm;
	struct rte_bpf_jit jit;

	memset(b, 0, sizeof(*b));
	if (!f->compiled)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "%s: no compiled filter", what);
	prm = rte_bpf_convert(&f->bpf);
	if (prm == NULL)
		return wr_error_set(err, rte_errno == ENOMEM ? -ENOMEM :
				    -EINVAL, NULL, 0, 0, NULL, "%s: DPDK cannot "
				    "convert \"%s\" to eBPF: %s", what, f->expr,
				    rte_strerror(rte_errno));
	fix_indirect_loads(prm);
	b->bpf = rte_bpf_load(prm);
	rte_free(prm);
	if (b->bpf == NULL)
		return wr_error_set(err, rte_errno == ENOMEM ? -ENOMEM :
				    -EINVAL, NULL, 0, 0, NULL, "%s: DPDK's eBPF "
				    "verifier refuses \"%s\": %s", what, f->expr,
				    rte_strerror(rte_errno));
	if (rte_bpf_get_jit(b->bpf, &jit) == 0)
		b->jit = jit.func;
	return 0;
}

void
wr_bpf_free(struct wr_bpf *b)
{
	if (b == NULL || b->bpf == NULL)
		return;
	rte_bpf_destroy(b->bpf);
	b->bpf = NULL;
	b->jit = NULL;
}

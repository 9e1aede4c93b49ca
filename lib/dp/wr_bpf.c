/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bpf: rte_bpf_convert + rte_bpf_load + JIT, as dpdk-dumpcap. */
/* rte_bpf_convert() is experimental in DPDK 22.11; it is the converter
 * dpdk-dumpcap itself uses. */
#define ALLOW_EXPERIMENTAL_API

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "wr_bpf.h"

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

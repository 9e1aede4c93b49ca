/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_offload: the TX offload decision and the TX-drop counter names. */
#include <string.h>

#include "wr_offload.h"

struct wr_offload_use
wr_offload_choose(const struct wr_offload_caps *caps, unsigned int n_streams,
		  bool responder)
{
	struct wr_offload_use u;

	u.cksum = caps->ipv4_cksum && caps->udp_cksum;
	u.fast_free = caps->fast_free && n_streams == 1 && !responder;
	return u;
}

static bool
has_word(const char *name, const char *const *words)
{
	for (; *words != NULL; words++)
		if (strstr(name, *words) != NULL)
			return true;
	return false;
}

bool
wr_xstat_is_tx_drop(const char *name)
{
	/* The TX side as PMDs name it: "tx_*" or "*_tx_*" (ixgbe, i40e,
	 * ice, mlx5, virtio), "out_*" (some Broadcom and Marvell PMDs). */
	static const char *const tx[] = { "_tx_", "_tx", NULL };
	static const char *const bad[] = { "drop", "err", "discard", "fail",
					   "underrun", "abort", "collision",
					   "timeout", NULL };

	if (name == NULL || strncmp(name, "rx", 2) == 0)
		return false;
	if (strncmp(name, "tx", 2) != 0 && strncmp(name, "out_", 4) != 0 &&
	    !has_word(name, tx))
		return false;
	return has_word(name, bad);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_test_eal: the data path's unit tests under EAL without hugepages,
 * devices or shared files, run by wr_test_main(). */
#ifndef WR_TEST_EAL_H
#define WR_TEST_EAL_H

#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>

#include "wr_test.h"

/**
 * Start EAL for test @p name (with @p vdev, a --vdev argument, or NULL),
 * run @p suites, and leave nothing behind: EAL makes its runtime directory
 * even with --no-shconf (and, with telemetry, a socket in it, removed only
 * at exit).  @return what main() returns.
 */
static inline int
wr_test_eal_main(const char *name, const char *vdev, CU_SuiteInfo *suites)
{
	char prefix[PATH_MAX], arg0[64], dev[128];
	char *eal[] = { arg0, "--no-huge", "-m", "64", "--no-pci",
			"--no-telemetry", "--no-shconf", "--log-level=error",
			prefix, dev };
	int rc;

	snprintf(arg0, sizeof(arg0), "%s", name);
	snprintf(prefix, sizeof(prefix), "--file-prefix=%s_%d", name,
		 (int)getpid());
	snprintf(dev, sizeof(dev), "--vdev=%s", vdev != NULL ? vdev : "");
	if (rte_eal_init((int)RTE_DIM(eal) - (vdev == NULL), eal) < 0) {
		fprintf(stderr, "%s: EAL did not start\n", name);
		return 1;
	}
	rc = wr_test_main(1, eal, suites);
	snprintf(prefix, sizeof(prefix), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	rmdir(prefix);
	return rc;
}

#endif /* WR_TEST_EAL_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_eal: the one EAL starter and its cleanup, for the engine and `wirerate ports`. */
#ifndef WR_EAL_H
#define WR_EAL_H

/**
 * @file
 * EAL starts with "wirerate", --log-level=notice, the profile's `eal:`
 * items, the user's arguments after "--", the run's own file prefix and
 * memif socket directory (wr_runtime.h), and ordinary memory when no
 * hugepage is free.  Its start-up lines are kept aside: a failure becomes
 * one line naming the profile item EAL refused (file:line:col); on
 * success they are passed to stderr by wr_eal_log_pass() (unless
 * wr_eal_quiet()).  wr_eal_cleanup() removes what EAL leaves on disk.
 * Main thread only, once per process (EAL cannot start twice).
 */

#include <stdbool.h>

#include "wr_config.h"
#include "wr_error.h"

/** A started EAL: its arguments (for reports) and start-up lines. */
struct wr_eal {
	const struct wr_config *cfg;
	const char *cfg_path;        /**< "" when none */
	char *argv[WR_EAL_ARGS_MAX * 2 + 8];
	int argc;
	bool up;                     /**< rte_eal_init() succeeded */
	char *log;                   /**< start-up lines, until passed on */
};

/**
 * Start EAL for profile @p cfg (file @p cfg_path, may be NULL) and the
 * @p n_extra arguments @p extra.  @p cfg must outlive @p e.
 * @return 0; -EINVAL (EAL refused an argument, or one is not an option:
 *         @p e->up may then be true, and wr_eal_cleanup() is owed), -EIO
 *         (EAL failed otherwise), or wr_runtime_apply()'s error; @p err
 *         filled.
 */
int wr_eal_start(struct wr_eal *e, const struct wr_config *cfg,
		 const char *cfg_path, char **extra, int n_extra,
		 struct wr_error *err);

/** Pass EAL's start-up lines of @p e to stderr when @p pass (and not
 * quiet), then free them. */
void wr_eal_log_pass(struct wr_eal *e, bool pass);

/** Drop EAL's start-up lines (--quiet); its errors still make the one line. */
void wr_eal_quiet(bool quiet);

/** rte_eal_cleanup(), then remove what EAL left on disk in this run. */
void wr_eal_cleanup(void);

/** After a failed rte_eal_init(): remove the runtime directory it made. */
void wr_eal_abandon(void);

#endif /* WR_EAL_H */

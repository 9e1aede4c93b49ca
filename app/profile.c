/* SPDX-License-Identifier: BSD-3-Clause */
/* The profile a subcommand runs with: --config, the default one, or none when EAL options choose the ports. */
#include <stdio.h>
#include <string.h>

#include "wr_app.h"
#include "wr_config.h"

/* Where the default profile is looked for, in order (set by meson). */
#ifndef WR_CONFIG_DIRS
#define WR_CONFIG_DIRS "config"
#endif
#define WR_DEFAULT_PROFILE "default.yaml"

int
wr_app_load_profile(const struct wr_opts *o, struct wr_config *cfg,
		    const char **cfg_path)
{
	static char default_path[1024];
	struct wr_error err;

	wr_error_clear(&err);
	wr_config_init(cfg);
	*cfg_path = o->config_file;
	/* EAL options naming devices or lcores replace the default
	 * profile (as in any DPDK application); others are added to it. */
	if (*cfg_path == NULL &&
	    !wr_config_eal_replaces_profile(o->eal, o->n_eal)) {
		*cfg_path = wr_app_default_profile(default_path,
						    sizeof(default_path));
		if (*cfg_path == NULL) {
			fprintf(stderr, "wirerate: no --config given and no %s "
				"found in %s\n", WR_DEFAULT_PROFILE,
				WR_CONFIG_DIRS);
			return WR_EXIT_USAGE;
		}
	}
	if (*cfg_path != NULL && wr_config_load(*cfg_path, cfg, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	return WR_EXIT_OK;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The profile a subcommand runs with: --config, or the default one, or none when EAL options choose the ports. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "wr_app.h"
#include "wr_config.h"

/* Where the default profile is looked for, in order (set by meson). */
#ifndef WR_CONFIG_DIRS
#define WR_CONFIG_DIRS "config"
#endif
#define WR_DEFAULT_PROFILE "default.yaml"

static const char *
find_default_profile(char *buf, size_t len)
{
	char dirs[1024], *save = NULL, *d;

	snprintf(dirs, sizeof(dirs), "%s", WR_CONFIG_DIRS);
	for (d = strtok_r(dirs, ":", &save); d != NULL;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", d, WR_DEFAULT_PROFILE);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

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
		*cfg_path = find_default_profile(default_path,
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

/* SPDX-License-Identifier: BSD-3-Clause */
/* Where the program's own files are (profiles, the Python package, tools) and the one Python it runs; calls nothing else of app/. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_app.h"

/* Where the program's own files are (set by meson): the source tree's when
 * this is the build tree's binary (WR_BUILD_EXE), else relative to the
 * installed program's directory (libexecdir/wirerate, where the launcher
 * in bindir runs it from: launch.c), so that a package's prefix and a
 * DESTDIR staging work alike and an installed binary never reads a source
 * tree. */
#ifndef WR_BUILD_EXE
#define WR_BUILD_EXE ""
#define WR_TREE_PROFILES "config"
#define WR_TREE_PYTHON "python"
#define WR_TREE_TOOLS "tools"
#define WR_INST_PROFILES "../../share/wirerate/config"
#define WR_INST_PYTHON "../../lib/python3/dist-packages"
#define WR_INST_TOOLS "."
#endif

const char *
wr_app_place(enum wr_app_place what, char *buf, size_t len)
{
	static const char *const tree[] = {
		[WR_APP_PROFILES] = WR_TREE_PROFILES,
		[WR_APP_PYTHON] = WR_TREE_PYTHON,
		[WR_APP_TOOLS] = WR_TREE_TOOLS,
	};
	static const char *const inst[] = {
		[WR_APP_PROFILES] = WR_INST_PROFILES,
		[WR_APP_PYTHON] = WR_INST_PYTHON,
		[WR_APP_TOOLS] = WR_INST_TOOLS,
	};
	char exe[PATH_MAX], built[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int k;

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	if (realpath(WR_BUILD_EXE, built) != NULL && strcmp(built, exe) == 0)
		k = snprintf(buf, len, "%s", tree[what]);
	else {
		slash = strrchr(exe, '/');
		*slash = '\0';
		k = snprintf(buf, len, "%s/%s", exe, inst[what]);
	}
	return k < 0 || (size_t)k >= len ? NULL : buf;
}

/* One interpreter for every subcommand that runs Python (console,
 * import-trex, a TRex profile given to run/check/dump/sweep/rfc2544/rtt):
 * python3 on PATH may be another install (a pyenv without Scapy), and the
 * console's `add` and the profiles need the Scapy Debian installs for
 * /usr/bin/python3. */
const char *
wr_app_python(void)
{
	const char *p = getenv("WIRERATE_PYTHON");
	const char *old = getenv("PYTHONPATH");
	static char path[4096];
	char pkg[2048];

	if (wr_app_place(WR_APP_PYTHON, pkg, sizeof(pkg)) == NULL)
		pkg[0] = '\0';
	snprintf(path, sizeof(path), "%s%s%s", pkg,
		 old && *old ? ":" : "", old && *old ? old : "");
	setenv("PYTHONPATH", path, 1);
	if (p != NULL && *p != '\0')
		return p;
	return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" :
	       "python3";
}

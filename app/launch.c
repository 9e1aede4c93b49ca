/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate: the command users run, a static launcher that blocks the stop signals and execs the program (wirerate-main). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stop_signals.h"

/*
 * Why a launcher: the dynamic loader maps and relocates wirerate-main's
 * libraries (DPDK's, libcrypto, libpcap: 33 objects, 29,000 relocations)
 * for 1-3 ms after exec, before any code of the program runs; a SIGTERM,
 * SIGINT or SIGHUP then meets the default action (measured: 20 of 20 runs
 * signalled 0.5-3 ms after exec died of it, without a summary).  This
 * program is static, so none of its start is the loader's: it blocks the
 * three before anything else, and a blocked signal stays pending through
 * execve().  wirerate-main keeps them blocked until its main() records
 * them (main.c), so a run stopped before it started ends as after Ctrl-C.
 *
 * Where the program is (set by meson): beside this launcher in the build
 * tree (WR_BUILD_LAUNCHER), else relative to the installed launcher's
 * directory, as the program finds its own files (common.c).
 */
#ifndef WR_BUILD_LAUNCHER
#define WR_BUILD_LAUNCHER ""
#define WR_TREE_MAIN "wirerate-main"
#define WR_INST_MAIN "../libexec/wirerate/wirerate-main"
#endif


int
main(int argc, char **argv)
{
	char exe[PATH_MAX], built[PATH_MAX], prog[PATH_MAX + 64], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool tree;
	int k;

	(void)argc;
	if (n <= 0) {
		fprintf(stderr, "wirerate: cannot find where it is installed "
			"(/proc/self/exe): %s\n", strerror(errno));
		return 1;
	}
	exe[n] = '\0';
	/* The build tree's launcher runs the build tree's program. */
	tree = realpath(WR_BUILD_LAUNCHER, built) != NULL &&
	       strcmp(built, exe) == 0;
	slash = strrchr(exe, '/');
	*slash = '\0';
	k = snprintf(prog, sizeof(prog), "%s/%s", exe,
		     tree ? WR_TREE_MAIN : WR_INST_MAIN);
	if (k < 0 || (size_t)k >= sizeof(prog)) {
		fprintf(stderr, "wirerate: %s: path too long\n", exe);
		return 1;
	}
	/* argv[0] as the user wrote it: messages and usage name it. */
	execv(prog, argv);
	fprintf(stderr, "wirerate: cannot run %s: %s\n", prog,
		strerror(errno));
	return 1;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* The stop signals blocked before any other code runs: shared by the launcher and the program. */
#ifndef WR_STOP_SIGNALS_H
#define WR_STOP_SIGNALS_H

#include <signal.h>

/*
 * SIGINT, SIGTERM and SIGHUP blocked from .preinit_array: the first code of
 * a program that runs (a static one's very first; a dynamic one's once the
 * loader has relocated every library, before any constructor).  A blocked
 * signal stays pending through execve(), so the launcher's block carries
 * into wirerate-main, whose main() records them (wr_app_signals_early()).
 * Each program that includes this gets its own entry, by design.
 */
static void
wr_block_stop_signals(int argc, char **argv, char **envp)
{
	sigset_t stops;

	(void)argc;
	(void)argv;
	(void)envp;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, NULL);
}

__attribute__((section(".preinit_array"), used))
static void (*const wr_preinit[])(int, char **, char **) = {
	wr_block_stop_signals,
};

#endif

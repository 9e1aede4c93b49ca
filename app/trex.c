/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate import-trex, and a TRex profile wherever a stream file goes: converted by the Python package (python/wirerate/trex). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wr_app.h"

/* The converter's options a command line may carry beside a profile (TRex's
 * console -t and -m, and the MAC choices), as python3 -m wirerate.trex
 * takes them. */
static const struct {
	int code;
	const char *flag;
} trex_opts[] = {
	{ WR_CLI_CODE_TUNABLE, "--tunable" },
	{ WR_CLI_CODE_MULT, "--mult" },
	{ WR_CLI_CODE_SRC_MAC, "--src-mac" },
	{ WR_CLI_CODE_DST_MAC, "--dst-mac" },
	{ WR_CLI_CODE_FIX_CSUM, "--fix-checksums" },
};

bool
wr_trex_is_profile(const char *path)
{
	size_t n = path != NULL ? strlen(path) : 0;

	return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

int
wr_trex_add_opt(struct wr_trex_opts *t, const struct wr_cli_opt *opt,
		const char *val)
{
	unsigned int k;

	for (k = 0; k < WR_DIM(trex_opts); k++)
		if (trex_opts[k].code == opt->code)
			break;
	if (k == WR_DIM(trex_opts) || t->n + 2 > WR_TREX_ARGS_MAX) {
		fprintf(stderr, "wirerate: --%s: too many TRex profile "
			"options\n", opt->name);
		return WR_EXIT_USAGE;
	}
	if (t->n == 0)
		t->first = opt->name;
	t->argv[t->n++] = trex_opts[k].flag;
	if (val != NULL)
		t->argv[t->n++] = val;
	return WR_EXIT_OK;
}

int
wr_trex_check_opts(const struct wr_trex_opts *t, const char *stream_file)
{
	if (t->n == 0 || stream_file == NULL || wr_trex_is_profile(stream_file))
		return WR_EXIT_OK;
	fprintf(stderr, "wirerate: --%s: applies to a TRex profile "
		"(PROFILE.py), not to \"%s\"\n", t->first, stream_file);
	return WR_EXIT_USAGE;
}

int
wr_cmd_import_trex(const struct wr_cli_cmd *cmd, int argc, char **argv)
{
	struct wr_cli_rest rest;
	char **args;
	const char *py;
	int i, rc;

	/* The table's options only (the converter's parser says what their
	 * values mean); then they go to it as they were written. */
	rc = wr_cli_parse(cmd, argc, argv, NULL, NULL, NULL, &rest);
	if (rc != WR_EXIT_OK || rest.help)
		return rc;
	py = wr_app_python();
	args = calloc((size_t)argc + 4, sizeof(*args));
	if (args == NULL)
		return WR_EXIT_FAIL;
	args[0] = (char *)py;
	args[1] = (char *)"-m";
	args[2] = (char *)"wirerate.trex";
	for (i = 2; i < argc; i++)
		args[i + 1] = argv[i];
	execvp(args[0], args);
	fprintf(stderr, "wirerate: import-trex: cannot run %s: %s\n", py,
		strerror(errno));
	free(args);
	return WR_EXIT_FAIL;
}

int
wr_trex_convert(const char *profile, const struct wr_trex_opts *t, char **text,
		size_t *len)
{
	const char *args[WR_TREX_ARGS_MAX + 8];
	const char *py = wr_app_python();
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int fd[2], status = 0;
	unsigned int i, a = 0;
	ssize_t r;
	pid_t pid;

	if (buf == NULL || pipe(fd) != 0) {
		free(buf);
		fprintf(stderr, "wirerate: %s: cannot convert: %s\n", profile,
			strerror(errno));
		return WR_EXIT_FAIL;
	}
	args[a++] = py;
	args[a++] = "-m";
	args[a++] = "wirerate.trex";
	args[a++] = profile;
	for (i = 0; i < t->n; i++)
		args[a++] = t->argv[i];
	args[a] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(args[0], (char *const *)args);
		fprintf(stderr, "wirerate: %s: cannot run %s to convert it: %s\n",
			profile, py, strerror(errno));
		_exit(WR_EXIT_FAIL);
	}
	close(fd[1]);
	while (pid > 0 && (r = read(fd[0], buf + n, cap - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)r;
		if (n == cap) {
			char *b = realloc(buf, cap * 2);

			if (b == NULL)
				break;
			buf = b;
			cap *= 2;
		}
	}
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		free(buf);
		fprintf(stderr, "wirerate: %s: cannot convert: %s\n", profile,
			strerror(errno));
		return WR_EXIT_FAIL;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* The converter said why, in one line. */
		free(buf);
		return WIFEXITED(status) && WEXITSTATUS(status) == WR_EXIT_USAGE ?
		       WR_EXIT_USAGE : WR_EXIT_FAIL;
	}
	*text = buf;
	*len = n;
	return WR_EXIT_OK;
}

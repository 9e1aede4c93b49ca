/* SPDX-License-Identifier: BSD-3-Clause */
/* wr-cli-dump: the option table (cli.c) as JSON, for the man pages and completion (doc/man). */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "cli.h"

static const char *const kinds[] = {
	[WR_CLI_FLAG] = "flag",
	[WR_CLI_VALUE] = "value",
	[WR_CLI_CHOICE] = "choice",
	[WR_CLI_FILE_IN] = "file-in",
	[WR_CLI_FILE_OUT] = "file-out",
	[WR_CLI_PROFILE] = "profile",
	[WR_CLI_SOCKET] = "socket",
};

static const char *const positions[] = {
	[WR_CLI_POS_NONE] = "none",
	[WR_CLI_POS_STREAMS] = "streams",
	[WR_CLI_POS_DEVICES] = "devices",
	[WR_CLI_POS_TREX] = "trex",
};

static json_t *
str_or_null(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

int
main(void)
{
	const struct wr_cli_cmd *c;
	const struct wr_cli_use *u;
	json_t *root = json_object(), *cmds = json_array();

	for (c = wr_cli_cmds; c->name != NULL; c++) {
		json_t *opts = json_array();

		for (u = c->opts; u->opt != NULL; u++) {
			char sh[2] = { u->opt->short_name, '\0' };

			json_array_append_new(opts, json_pack(
				"{s:s, s:o, s:s, s:o, s:o, s:b, s:s}",
				"name", u->opt->name,
				"short", sh[0] != '\0' ? json_string(sh) :
					json_null(),
				"kind", kinds[u->opt->kind],
				"metavar", str_or_null(u->opt->metavar),
				"choices", str_or_null(u->opt->choices),
				"repeat", u->opt->repeat,
				"help", u->help != NULL ? u->help :
					u->opt->help));
		}
		json_array_append_new(cmds, json_pack(
			"{s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:s, s:o, s:o}",
			"name", c->name, "summary", c->summary,
			"synopsis", c->synopsis, "description", c->description,
			"positional", positions[c->pos], "eal", c->eal,
			"options", opts, "examples", c->examples,
			"exit_status", str_or_null(c->exit_status),
			"see_also", str_or_null(c->see_also)));
	}
	json_object_set_new(root, "about", json_string(wr_cli_about));
	json_object_set_new(root, "exit_status",
			    json_string(wr_cli_exit_status));
	json_object_set_new(root, "environment",
			    json_string(wr_cli_environment));
	json_object_set_new(root, "version", json_string(WR_VERSION));
	json_object_set_new(root, "commands", cmds);
	if (json_dumpf(root, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0)
		return 1;
	putchar('\n');
	json_decref(root);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* cli_parse: a subcommand's arguments read by the option table (cli.c), and its --help written from it. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "wr_app.h"

/* Options one subcommand lists at most (a second given is counted). */
#define WR_CLI_OPTS_MAX 128

/* The option of @p cmd named @p name (@p n characters of it), or NULL. */
static const struct wr_cli_use *
find_long(const struct wr_cli_cmd *cmd, const char *name, size_t n)
{
	const struct wr_cli_use *u;

	for (u = cmd->opts; u->opt != NULL; u++)
		if (strlen(u->opt->name) == n &&
		    strncmp(u->opt->name, name, n) == 0)
			return u;
	return NULL;
}

static const struct wr_cli_use *
find_short(const struct wr_cli_cmd *cmd, char c)
{
	const struct wr_cli_use *u;

	for (u = cmd->opts; u->opt != NULL; u++)
		if (u->opt->short_name != '\0' && u->opt->short_name == c)
			return u;
	return NULL;
}

/* Whether @p arg ("--config", "--config=P", "-t") is an option of any
 * subcommand, or --help. */
static bool
is_option(const char *arg)
{
	const struct wr_cli_cmd *c;
	size_t n;

	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
		return true;
	for (c = wr_cli_cmds; c->name != NULL; c++) {
		if (strncmp(arg, "--", 2) == 0) {
			n = strcspn(arg + 2, "=");
			if (n > 0 && find_long(c, arg + 2, n) != NULL)
				return true;
		} else if (arg[0] == '-' && arg[1] != '\0' && arg[2] == '\0' &&
			   find_short(c, arg[1]) != NULL) {
			return true;
		}
	}
	return false;
}

/* @p value is one of @p choices (space-separated words). */
static bool
is_choice(const char *choices, const char *value)
{
	size_t n = strlen(value);
	const char *p = choices;

	while (*p != '\0') {
		size_t w = strcspn(p, " ");

		if (w == n && strncmp(p, value, n) == 0)
			return true;
		p += w;
		p += strspn(p, " ");
	}
	return false;
}

/* "a, b or c" from "a b c". */
static void
print_choices(FILE *out, const char *choices)
{
	const char *p = choices;

	while (*p != '\0') {
		size_t w = strcspn(p, " ");
		const char *next = p + w + strspn(p + w, " ");

		fprintf(out, "%.*s", (int)w, p);
		if (*next != '\0')
			fputs(strchr(next, ' ') != NULL ? ", " : " or ", out);
		p = next;
	}
}

/* One option of @p cmd at argv[*i]: its value taken (argv[*i + 1] when it
 * is not within the word), checked, handed to @p on_opt. */
static int
take_option(const struct wr_cli_cmd *cmd, int n_args, char **argv, int *i,
	    unsigned char *seen, wr_cli_opt_fn *on_opt, void *ctx)
{
	const char *arg = argv[*i], *val = NULL;
	const struct wr_cli_use *u;
	const struct wr_cli_opt *o;
	char shown[64];
	size_t n;

	if (arg[1] == '-') {
		n = strcspn(arg + 2, "=");
		u = find_long(cmd, arg + 2, n);
		if (arg[2 + n] == '=')
			val = arg + 3 + n;
		snprintf(shown, sizeof(shown), "--%.*s", (int)n, arg + 2);
	} else {
		u = find_short(cmd, arg[1]);
		if (u != NULL && arg[2] != '\0') {
			if (u->opt->kind == WR_CLI_FLAG)
				u = NULL; /* no bundled flags */
			else
				val = arg + 2;
		}
		snprintf(shown, sizeof(shown), "%.2s", arg);
	}
	if (u == NULL) {
		/* Another subcommand's, or no one's. */
		if (is_option(strncmp(arg, "--", 2) == 0 ? shown : arg))
			fprintf(stderr, "wirerate: %s does not apply to %s "
				"(wirerate %s --help)\n", shown, cmd->name,
				cmd->name);
		else
			fprintf(stderr, "wirerate: %s: unknown option \"%s\" "
				"(wirerate %s --help)\n", cmd->name, arg,
				cmd->name);
		return WR_EXIT_USAGE;
	}
	o = u->opt;
	if (!o->repeat && u - cmd->opts < WR_CLI_OPTS_MAX &&
	    seen[u - cmd->opts]++ > 0) {
		fprintf(stderr, "wirerate: %s: %s given twice (it takes one)\n",
			cmd->name, shown);
		return WR_EXIT_USAGE;
	}
	if (o->kind == WR_CLI_FLAG) {
		if (val != NULL) {
			fprintf(stderr, "wirerate: %s: %s takes no value, got "
				"\"%s\"\n", cmd->name, shown, val);
			return WR_EXIT_USAGE;
		}
	} else if (val == NULL) {
		if (*i + 1 >= n_args) {
			fprintf(stderr, "wirerate: %s: %s needs a value "
				"(wirerate %s --help)\n", cmd->name, shown,
				cmd->name);
			return WR_EXIT_USAGE;
		}
		val = argv[++*i];
		/* "--json --config P": --json would take "--config" for
		 * its value, and P be blamed for what is missing. */
		if (is_option(val)) {
			fprintf(stderr, "wirerate: %s: %s needs a value (\"%s\" "
				"is an option; a file of that name: ./%s)\n",
				cmd->name, shown, val, val);
			return WR_EXIT_USAGE;
		}
	}
	if (o->kind == WR_CLI_CHOICE && !is_choice(o->choices, val)) {
		fprintf(stderr, "wirerate: --%s: expected ", o->name);
		print_choices(stderr, o->choices);
		fprintf(stderr, ", got \"%s\"\n", val);
		return WR_EXIT_USAGE;
	}
	return on_opt != NULL ? on_opt(ctx, o, val) : WR_EXIT_OK;
}

int
wr_cli_parse(const struct wr_cli_cmd *cmd, int argc, char **argv,
	     wr_cli_opt_fn *on_opt, wr_cli_arg_fn *on_arg, void *ctx,
	     struct wr_cli_rest *rest)
{
	unsigned char seen[WR_CLI_OPTS_MAX] = { 0 };
	int i, rc, n_args = argc, n_pos = 0;
	int max_pos = cmd->pos == WR_CLI_POS_NONE ? 0 :
		      cmd->pos == WR_CLI_POS_DEVICES ? argc : 1;

	memset(rest, 0, sizeof(*rest));
	for (i = 2; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			if (!cmd->eal) {
				fprintf(stderr, "wirerate: %s takes no EAL "
					"options\n", cmd->name);
				return WR_EXIT_USAGE;
			}
			rest->eal = argv + i + 1;
			rest->n_eal = argc - i - 1;
			n_args = i;
			break;
		}
	for (i = 2; i < n_args; i++) {
		const char *arg = argv[i];

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			wr_cli_help(cmd, stdout);
			rest->help = true;
			return WR_EXIT_OK;
		}
		if (arg[0] == '-' && arg[1] != '\0') {
			rc = take_option(cmd, n_args, argv, &i, seen, on_opt,
					 ctx);
			if (rc != WR_EXIT_OK)
				return rc;
			continue;
		}
		if (n_pos == max_pos) {
			fprintf(stderr, "wirerate: %s: unexpected argument "
				"\"%s\"%s\n", cmd->name, arg, cmd->eal ?
				" (EAL options go after --)" : "");
			return WR_EXIT_USAGE;
		}
		n_pos++;
		if (on_arg != NULL && (rc = on_arg(ctx, arg)) != WR_EXIT_OK)
			return rc;
	}
	return WR_EXIT_OK;
}

/* @p text's words at @p indent, lines up to @p width, backquotes left out;
 * "\n\n" starts a paragraph, "\n" a line. */
static void
wrap(FILE *out, const char *text, int indent, int width)
{
	int col = 0;

	while (*text != '\0') {
		size_t w = strcspn(text, " \n"), k, len = 0;

		for (k = 0; k < w; k++)
			len += text[k] != '`';
		if (w > 0) {
			if (col > 0 && col + 1 + (int)len > width) {
				fputc('\n', out);
				col = 0;
			}
			if (col == 0)
				col = fprintf(out, "%*s", indent, "");
			else
				col += fprintf(out, " ");
			for (k = 0; k < w; k++)
				if (text[k] != '`')
					fputc(text[k], out);
			col += (int)len;
		}
		text += w;
		if (*text == '\n') {
			fputc('\n', out);
			if (text[1] == '\n') {
				fputc('\n', out);
				text++;
			}
			col = 0;
		}
		if (*text != '\0')
			text++;
	}
	if (col > 0)
		fputc('\n', out);
}

void
wr_cli_help(const struct wr_cli_cmd *cmd, FILE *out)
{
	const struct wr_cli_use *u;

	fprintf(out, "usage: wirerate %s%s%s\n\n", cmd->name,
		*cmd->synopsis != '\0' ? " " : "", cmd->synopsis);
	wrap(out, cmd->description, 2, 79);
	if (cmd->eal)
		wrap(out, "\nEAL options (DPDK's) go after `--`, added to the "
		     "profile's `eal:` list.", 2, 79);
	fprintf(out, "\noptions:\n");
	for (u = cmd->opts; u->opt != NULL; u++) {
		const struct wr_cli_opt *o = u->opt;

		fprintf(out, "  ");
		if (o->short_name != '\0')
			fprintf(out, "-%c, ", o->short_name);
		fprintf(out, "--%s", o->name);
		if (o->metavar != NULL)
			fprintf(out, " %s", o->metavar);
		fputs(o->repeat ? " (repeatable)\n" : "\n", out);
		wrap(out, u->help != NULL ? u->help : o->help, 8, 79);
	}
	fprintf(out, "  -h, --help\n        Print this help and leave.\n\n"
		"exit status:\n");
	wrap(out, cmd->exit_status != NULL ? cmd->exit_status :
	     wr_cli_exit_status, 2, 79);
}

void
wr_cli_usage(FILE *out)
{
	const struct wr_cli_cmd *c;

	fprintf(out, "usage: wirerate COMMAND [ARGUMENTS]\n\n");
	for (c = wr_cli_cmds; c->name != NULL; c++) {
		fprintf(out, "  wirerate %s%s%s\n", c->name,
			*c->synopsis != '\0' ? " " : "", c->synopsis);
		wrap(out, c->summary, 6, 79);
	}
	fprintf(out, "\n  wirerate COMMAND --help: its options (man "
		"wirerate-COMMAND: the same, with examples)\n\n");
	wrap(out, wr_cli_about, 0, 79);
	fprintf(out, "\nexit status:\n");
	wrap(out, wr_cli_exit_status, 2, 79);
}

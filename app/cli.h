/* SPDX-License-Identifier: BSD-3-Clause */
/* cli: the wirerate command's subcommands and options as one table (help, man pages, completion). */
#ifndef WR_CLI_H
#define WR_CLI_H

/**
 * @file
 * Every subcommand and every option it takes, with the words a user reads
 * about them: the one source of wirerate(1) and wirerate-SUBCOMMAND(1)
 * (doc/man, generated through wr-cli-dump at build time), of the bash and
 * zsh completion, and of the parser (which a test holds to this table).
 * Text is plain: `code` in backquotes, *emphasis* in asterisks; paragraphs
 * are separated by an empty line ("\n\n").
 */

#include <stdbool.h>

/** What an option's value is, for completion and the pages. */
enum wr_cli_kind {
	WR_CLI_FLAG,      /**< no value */
	WR_CLI_VALUE,     /**< a number, duration, rate, name: no completion */
	WR_CLI_CHOICE,    /**< one of wr_cli_opt.choices */
	WR_CLI_FILE_IN,   /**< a file read */
	WR_CLI_FILE_OUT,  /**< a file written */
	WR_CLI_PROFILE,   /**< a profile: a file or a name on the search path */
	WR_CLI_SOCKET,    /**< a Unix socket path */
};

/** An option as every subcommand taking it knows it. */
struct wr_cli_opt {
	const char *name;     /**< the long name without "--" */
	int code;             /**< getopt's code (app/main.c) */
	enum wr_cli_kind kind;
	const char *metavar;  /**< the value's name ("S", "FILE"), NULL for a flag */
	const char *choices;  /**< WR_CLI_CHOICE: the words, space-separated */
	const char *help;     /**< what it does; may be replaced per subcommand */
};

/** An option of one subcommand: the shared one, its words there if they differ. */
struct wr_cli_use {
	const struct wr_cli_opt *opt;
	const char *help;     /**< NULL: opt->help */
};

/** What a positional argument is. */
enum wr_cli_pos {
	WR_CLI_POS_NONE,
	WR_CLI_POS_STREAMS,   /**< one stream file */
	WR_CLI_POS_DEVICES,   /**< port names (ports) */
	WR_CLI_POS_WORDS,     /**< console commands */
};

struct wr_cli_cmd {
	const char *name;
	const char *summary;      /**< one line, lower case, no full stop */
	const char *synopsis;     /**< the arguments after "wirerate NAME" */
	const char *description;  /**< paragraphs */
	enum wr_cli_pos pos;
	bool eal;                 /**< starts EAL: takes EAL options after -- */
	const struct wr_cli_use *opts;  /**< ending with { NULL, NULL } */
	const char *examples;     /**< shell lines, "# comment" lines allowed */
	const char *exit_status;  /**< NULL: the common one (wr_cli_exit_status) */
	const char *see_also;     /**< documents, space-separated */
};

/** The subcommands, in the order wirerate --help lists them; NULL-terminated by name. */
extern const struct wr_cli_cmd wr_cli_cmds[];

/** The program's description, for wirerate(1). */
extern const char *const wr_cli_about;

/** The exit status every subcommand shares. */
extern const char *const wr_cli_exit_status;

/** The environment variables wirerate reads, "NAME\tmeaning" lines. */
extern const char *const wr_cli_environment;

/** The subcommand named @p name, or NULL. */
const struct wr_cli_cmd *wr_cli_find(const char *name);

#endif /* WR_CLI_H */

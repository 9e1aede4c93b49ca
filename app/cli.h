/* SPDX-License-Identifier: BSD-3-Clause */
/* cli: the wirerate command's subcommands and options as one table (help, man pages, completion). */
#ifndef WR_CLI_H
#define WR_CLI_H

/**
 * @file
 * Every subcommand and every option it takes, with the words a user reads
 * about them: the one source of wirerate(1) and wirerate-SUBCOMMAND(1)
 * (doc/man, generated through wr-cli-dump at build time), of the bash and
 * zsh completion, of --help, and of the parser (cli_parse.c): a
 * subcommand takes exactly the options its list here names.
 * Text is plain: `code` in backquotes, *emphasis* in asterisks; paragraphs
 * are separated by an empty line ("\n\n").
 */

#include <stdbool.h>
#include <stdio.h>

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

/**
 * An option as every subcommand taking it knows it.  The parser
 * (wr_cli_parse(), cli_parse.c) takes exactly the options a subcommand's
 * table lists, as `--name VALUE`, `--name=VALUE`, and with a short name
 * `-x VALUE` or `-xVALUE`; it hands each one with its value to the
 * subcommand, which switches on @c code.
 */
struct wr_cli_opt {
	const char *name;     /**< the long name without "--" */
	int code;             /**< the subcommand's code for it: a character,
			       *   or WR_CLI_CODE_* beyond them; unique among
			       *   the options of one handler */
	enum wr_cli_kind kind;
	const char *metavar;  /**< the value's name ("S", "FILE"), NULL for a flag */
	const char *choices;  /**< WR_CLI_CHOICE: the words, space-separated
			       *   (the parser refuses any other value) */
	const char *help;     /**< what it does; may be replaced per subcommand */
	char short_name;      /**< its one-letter form ('t' for -t), 0: none */
	bool repeat;          /**< may be given more than once (else the
			       *   parser refuses a second one) */
};

/** Codes of options that have no character of their own. */
enum {
	WR_CLI_CODE_TUNABLE = 256, /**< TRex's -t */
	WR_CLI_CODE_MULT,          /**< TRex's -m */
	WR_CLI_CODE_SRC_MAC,
	WR_CLI_CODE_DST_MAC,
	WR_CLI_CODE_FIX_CSUM,
	WR_CLI_CODE_HOSTS_WAIT,    /**< run --hosts-wait */
	WR_CLI_CODE_HOST_LCORE,    /**< run --host-lcore */
	WR_CLI_CODE_RUNS_DIR,      /**< serve --runs-dir */
	WR_CLI_CODE_RUNS_MAX,      /**< serve --runs-max */
};

/** An option of one subcommand: the shared one, its words there if they differ. */
struct wr_cli_use {
	const struct wr_cli_opt *opt;
	const char *help;     /**< NULL: opt->help */
};

/** What a positional argument is. */
enum wr_cli_pos {
	WR_CLI_POS_NONE,
	WR_CLI_POS_STREAMS,   /**< one stream file (or a TRex profile) */
	WR_CLI_POS_DEVICES,   /**< port names (ports) */
	WR_CLI_POS_TREX,      /**< one TRex profile (PROFILE.py) */
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

/*
 * The parser (cli_parse.c): a subcommand's arguments read by its table.
 */

/**
 * One option of the command line, in the order given, @p val NULL for a
 * flag.  The handler checks what the value means (a duration, a port),
 * prints its own one line when it is wrong and returns an exit status
 * (0 to go on).
 */
typedef int wr_cli_opt_fn(void *ctx, const struct wr_cli_opt *opt,
			  const char *val);

/** A positional argument (the stream file, a device name). */
typedef int wr_cli_arg_fn(void *ctx, const char *arg);

/** What wr_cli_parse() found besides the options. */
struct wr_cli_rest {
	char **eal;   /**< the arguments after "--" (an EAL command's) */
	int n_eal;
	bool help;    /**< --help: printed; the command ends with 0 */
};

/**
 * Parse argv[2..argc) (argv[1] names @p cmd) by @p cmd's table: every
 * option is one it lists (else "unknown option" or "does not apply to"),
 * each with a value when it takes one (a choice among its choices), once
 * unless it repeats; positional arguments as many as @p cmd takes; "--"
 * ends the options of a command that starts EAL.  @p on_opt and @p on_arg
 * may be NULL (the command looks at argv itself afterwards).
 * @return 0, or the exit status (2: the one line printed; or the
 * handler's).
 */
int wr_cli_parse(const struct wr_cli_cmd *cmd, int argc, char **argv,
		 wr_cli_opt_fn *on_opt, wr_cli_arg_fn *on_arg, void *ctx,
		 struct wr_cli_rest *rest);

/** `wirerate CMD --help`, from the table. */
void wr_cli_help(const struct wr_cli_cmd *cmd, FILE *out);

/** `wirerate --help`, from the table. */
void wr_cli_usage(FILE *out);

#endif /* WR_CLI_H */

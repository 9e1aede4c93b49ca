/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate: command-line entry point; the options of the commands that read a stream file, and the dispatch table. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_app.h"
#include "wr_describe.h"
#include "wr_frame.h"
#include "wr_parse.h"
#include "wr_capture.h"
#include "wr_report.h"
#include "wr_rtt_result.h"
#include "wr_yaml.h"
#include "stop_signals.h"

/*
 * A SIGTERM or Ctrl-C in the first milliseconds must end a run with its
 * summary and JSON like any other (issue 17: 2 of 60 died without).  Before
 * main() the libraries' constructors run for about 5 ms (DPDK's, libnuma's,
 * OpenSSL's; more on a loaded machine), under the default action, which
 * kills.  So the three (SIGHUP too: a dropped SSH session) are blocked
 * from .preinit_array (stop_signals.h), which the dynamic
 * loader runs once every library is relocated and before any constructor,
 * and main() installs the handler that records them before it unblocks
 * them (wr_app_signals_early()).  What is left is the loader's own work
 * (mapping and relocating, ~0.4 ms): no code of a program runs earlier.
 */

static int
opt_error(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "wirerate: %s: expected %s, got \"%s\"\n", opt, why,
		val);
	return WR_EXIT_USAGE;
}

/* One of the options that follow a --capture (--capture-filter, ...). */
static int
capture_opt(struct wr_app_capture *k, int c, const char *arg)
{
	char why[WR_FILTER_EXPR_MAX + 256];
	uint64_t v;

	switch (c) {
	case 'f':
		if (k->has_filter) {
			fprintf(stderr, "wirerate: --capture-filter: given twice "
				"for --capture %s\n", k->spec.file);
			return WR_EXIT_USAGE;
		}
		if (wr_filter_compile(&k->filter, arg, why, sizeof(why)) != 0) {
			fprintf(stderr, "wirerate: --capture-filter: %s\n", why);
			return WR_EXIT_USAGE;
		}
		k->has_filter = true;
		return WR_EXIT_OK;
	case 'g':
		if (wr_parse_u64(arg, 1, UINT64_MAX, &k->lim.frames, why,
				 sizeof(why)) != 0)
			return opt_error("--capture-count", arg,
					 "a frame count of 1 or more");
		return WR_EXIT_OK;
	case 'i':
		if (wr_parse_bytes(arg, &k->lim.bytes, why, sizeof(why)) != 0)
			return opt_error("--capture-size", arg, "a size such as "
					 "512 MiB, 10MB or 4096");
		return WR_EXIT_OK;
	case 'u':
		if (wr_parse_duration_ns(arg, &k->lim.duration_ns, why,
					 sizeof(why)) != 0 ||
		    k->lim.duration_ns == 0)
			return opt_error("--capture-duration", arg, "a positive "
					 "duration such as 10, 500ms or 1m");
		return WR_EXIT_OK;
	case 'v':
		if (wr_parse_u64(arg, 1, 65535, &v, why, sizeof(why)) != 0)
			return opt_error("--snaplen", arg,
					 "a byte count in 1..65535");
		k->lim.snaplen = (uint32_t)v;
		return WR_EXIT_OK;
	default: /* 'w' */
		if (wr_parse_u64(arg, 1, WR_CAP_FILES_MAX, &v, why,
				 sizeof(why)) != 0)
			return opt_error("--capture-files", arg,
					 "a file count in 1..1000");
		k->lim.files = (uint32_t)v;
		return WR_EXIT_OK;
	}
}

/*
 * The options of the commands that read a stream file (run, sweep, rfc2544,
 * rtt, check, dump) into one struct wr_opts: wr_cli_parse() hands over
 * only what the command's table (cli.c) lists, with its value.
 */
struct streams_args {
	struct wr_opts *o;
	struct wr_trex_opts *trex;
};

static int
streams_opt(void *ctx, const struct wr_cli_opt *opt, const char *val)
{
	struct streams_args *a = ctx;
	struct wr_opts *o = a->o;
	char why[320];

	switch (opt->code) {
	case 'c':
		o->config_file = val;
		break;
	case 'd':
		if (wr_parse_duration_ns(val, &o->duration_ns, why,
					 sizeof(why)) != 0 ||
		    o->duration_ns == 0)
			return opt_error("--duration", val,
					 "a positive duration such as 5, 2.5, 500ms or 1m");
		break;
	case 'D':
		if (wr_parse_duration_ns(val, &o->drain_ns, why,
					 sizeof(why)) != 0)
			return opt_error("--drain", val,
					 "a duration such as 0.2, 200ms or 2s");
		o->drain_set = true;
		break;
	case 'n':
		if (wr_parse_u64(val, 1, UINT64_MAX, &o->count, why,
				 sizeof(why)) != 0)
			return opt_error("--count", val,
					 "a frame count of 1 or more");
		o->count_set = true;
		break;
	case 's':
		if (wr_parse_u64(val, 0, UINT64_MAX, &o->seed, why,
				 sizeof(why)) != 0)
			return opt_error("--seed", val,
					 "an unsigned 64-bit integer");
		o->seed_set = true;
		break;
	case 'j':
		o->json_file = val;
		break;
	case 'p':
		o->pcap_file = val;
		break;
	case 'S':
		o->stream_name = val;
		break;
	case 'q':
		o->quiet = true;
		break;
	case 'A':
		o->arp = true;
		break;
	case 'L':
		o->stats_jsonl = val;
		break;
	case 'o':
		o->oversubscribe = true;
		break;
	case 'e': {
		struct wr_peer p;

		if (o->n_peers == WR_PEERS_MAX) {
			fprintf(stderr, "wirerate: --peer: at most %u "
				"peers\n", WR_PEERS_MAX);
			return WR_EXIT_USAGE;
		}
		/* The syntax now; the peer itself after EAL. */
		if (wr_peer_parse(&p, val, why, sizeof(why)) != 0) {
			fprintf(stderr, "wirerate: --peer: %s, got "
				"\"%s\"\n", why, val);
			return WR_EXIT_USAGE;
		}
		o->peers[o->n_peers++] = val;
		break;
	}
	case 'a':
		if (o->n_captures == WR_CAPTURES_MAX) {
			fprintf(stderr, "wirerate: --capture: at most %u "
				"captures\n", WR_CAPTURES_MAX);
			return WR_EXIT_USAGE;
		}
		if (wr_capspec_parse(val, &o->captures[o->n_captures].spec,
				     why, sizeof(why)) != 0)
			return opt_error("--capture", val, why + 9);
		o->n_captures++;
		break;
	case 'f':
	case 'g':
	case 'i':
	case 'u':
	case 'v':
	case 'w':
		/* Options of the --capture before them. */
		if (o->n_captures == 0) {
			fprintf(stderr, "wirerate: --%s applies to the "
				"--capture PORT=FILE before it: give that "
				"first\n", opt->name);
			return WR_EXIT_USAGE;
		}
		return capture_opt(&o->captures[o->n_captures - 1],
				   opt->code, val);
	case 'k':
		/* stop or continue: the table's choices */
		o->link_down_continue = strcmp(val, "continue") == 0;
		break;
	case 'O':
	case 'z':
	case 'b':
	case 'C':
	case 't':
	case 'r':
	case 'T':
	case 'R':
	case 'l':
	case 'P':
	case 'H':
	case 'F':
	case 'E':
	case 'G':
	case 'B':
	case 'K':
	case 'W':
	case 'U':
	case 'V':
	case 'Y':
	case 'Q':
	case 'X':
	case 'Z':
	case 'M':
	case 'm':
	case 'y':
	case 'x':
	case 'J':
		if (wr_app_bench_opt(o, opt->code, val) != 0)
			return WR_EXIT_USAGE;
		break;
	case WR_CLI_CODE_TUNABLE:
	case WR_CLI_CODE_MULT:
	case WR_CLI_CODE_SRC_MAC:
	case WR_CLI_CODE_DST_MAC:
	case WR_CLI_CODE_FIX_CSUM:
		return wr_trex_add_opt(a->trex, opt, val);
	default:
		/* An option in the table that this switch forgot. */
		fprintf(stderr, "wirerate: %s: --%s is not handled\n", o->cmd,
			opt->name);
		return WR_EXIT_FAIL;
	}
	return WR_EXIT_OK;
}

static int
streams_arg(void *ctx, const char *arg)
{
	struct streams_args *a = ctx;

	a->o->stream_file = arg;
	return WR_EXIT_OK;
}

/* The options of a command that reads a stream file, into @p o. */
static int
parse_opts(const struct wr_cli_cmd *cmd, int argc, char **argv,
	   struct wr_opts *o, struct wr_trex_opts *trex, bool *help)
{
	struct streams_args a = { o, trex };
	struct wr_cli_rest rest;
	char why[320];
	unsigned int i;
	int rc;

	memset(o, 0, sizeof(*o));
	memset(trex, 0, sizeof(*trex));
	o->cmd = cmd->name;
	o->drain_ns = WR_DRAIN_DEFAULT_NS;
	o->trex = trex;
	rc = wr_cli_parse(cmd, argc, argv, streams_opt, streams_arg, &a,
			  &rest);
	*help = rest.help;
	if (rc != WR_EXIT_OK || rest.help)
		return rc;
	o->eal = rest.eal;
	o->n_eal = rest.n_eal;
	rc = wr_trex_check_opts(trex, o->stream_file);
	if (rc != WR_EXIT_OK)
		return rc;
	for (i = 0; i < o->n_captures; i++)
		if (wr_cap_limits_check(&o->captures[i].lim, why,
					sizeof(why)) != 0) {
			fprintf(stderr, "wirerate: --capture %s: %s\n",
				o->captures[i].spec.file, why);
			return WR_EXIT_USAGE;
		}
	if (o->n_captures > 0 && o->repeats > 0) {
		fprintf(stderr, "wirerate: --capture: not with --repeat (each "
			"repetition reloads the streams); capture one run\n");
		return WR_EXIT_USAGE;
	}
	/* Every file the command will write, checked before anything starts:
	 * a result that cannot be written is found before any traffic. */
	return wr_app_check_files(o, NULL, NULL, NULL);
}

static int
cmd_check(const struct wr_opts *o)
{
	struct wr_stream_file f;
	char hex[65], buf[8192];
	uint32_t i;
	int rc;

	memset(&f, 0, sizeof(f));
	rc = wr_app_load_streams(o, &f);
	if (rc != WR_EXIT_OK)
		return rc;
	wr_report_hex(f.sha256, hex);
	printf("%s: version %u, %u stream%s, seed %llu, sha256 %s\n", f.path,
	       f.version, f.n_streams, f.n_streams == 1 ? "" : "s",
	       (unsigned long long)f.seed, hex);
	for (i = 0; i < WR_PORTS_MAX; i++)
		if (wr_stream_file_port_sequenced(&f, (uint16_t)i)) {
			if (f.loops == 0)
				printf("sequence (next:) on port %u: loops: "
				       "for ever\n", i);
			else
				printf("sequence (next:) on port %u: loops: "
				       "%llu\n", i, (unsigned long long)f.loops);
		}
	for (i = 0; i < f.n_streams; i++) {
		wr_describe_stream(&f.streams[i], "", buf, sizeof(buf));
		fputs(buf, stdout);
	}
	wr_stream_file_free(&f);
	return WR_EXIT_OK;
}

static int
cmd_dump(const struct wr_opts *o)
{
	struct wr_stream_file f;
	struct wr_error err;
	int idx = -1, rc;

	if (!o->count_set || o->pcap_file == NULL) {
		fprintf(stderr, "wirerate: dump needs --count N and --pcap FILE\n");
		return WR_EXIT_USAGE;
	}
	memset(&f, 0, sizeof(f));
	/* --count is the number of frames to dump, not the stream's count. */
	{
		struct wr_opts lo = *o;

		lo.count_set = false;
		rc = wr_app_load_streams(&lo, &f);
	}
	if (rc != WR_EXIT_OK)
		return rc;
	/* The captures it replays are inputs too. */
	rc = wr_app_check_files(o, &f, NULL, NULL);
	if (rc != WR_EXIT_OK) {
		wr_stream_file_free(&f);
		return rc;
	}
	if (o->stream_name != NULL) {
		idx = wr_stream_file_find(&f, o->stream_name);
		if (idx < 0) {
			fprintf(stderr, "wirerate: --stream: no stream named \"%s\" in %s\n",
				o->stream_name, f.path);
			wr_stream_file_free(&f);
			return WR_EXIT_USAGE;
		}
	}
	wr_error_clear(&err);
	rc = wr_frame_dump_pcap(&f, idx, o->count, o->pcap_file, &err);
	wr_stream_file_free(&f);
	if (rc != 0) {
		if (err.msg[0] == '\0')
			wr_error_set(&err, rc, o->pcap_file, 0, 0, NULL,
				     "cannot write: %s", strerror(-rc));
		wr_app_print_error(&err);
		return rc == -EINVAL ? WR_EXIT_USAGE : WR_EXIT_FAIL;
	}
	return WR_EXIT_OK;
}

static int
cmd_version(const struct wr_opts *o)
{
	(void)o;
	printf("wirerate %s\n", WR_VERSION);
	return WR_EXIT_OK;
}

static int
bench_exit(int rc)
{
	/* Stopped by a signal before it sent anything: it said so. */
	return rc == WR_EXIT_STOPPED ? WR_EXIT_OK : rc;
}

static int
cmd_sweep(const struct wr_opts *o)
{
	return bench_exit(wr_cmd_sweep(o));
}

static int
cmd_rfc2544(const struct wr_opts *o)
{
	return bench_exit(wr_cmd_rfc2544(o));
}

static int
cmd_rtt(const struct wr_opts *o)
{
	return bench_exit(wr_cmd_rtt(o));
}

/*
 * The subcommands: each one in the option table (cli.c), which its
 * arguments are parsed by.  Those that read a stream file get them in a
 * struct wr_opts (parse_opts()); the others parse their own with
 * wr_cli_parse().
 */
static const struct wr_app_cmd {
	const char *name;
	int (*with_opts)(const struct wr_opts *o);
	int (*with_args)(const struct wr_cli_cmd *cmd, int argc, char **argv);
	bool signals;  /* takes SIGINT, SIGTERM and SIGHUP (wr_app_signals()); the
			* others keep their default action */
} wr_app_cmds[] = {
	{ "run", wr_cmd_run, NULL, true },
	{ "sweep", cmd_sweep, NULL, true },
	{ "rfc2544", cmd_rfc2544, NULL, true },
	{ "rtt", cmd_rtt, NULL, true },
	{ "check", cmd_check, NULL, false },
	{ "dump", cmd_dump, NULL, false },
	{ "ports", NULL, wr_cmd_ports, false },
	{ "serve", NULL, wr_cmd_serve, true },
	{ "console", NULL, wr_cmd_console, false },
	{ "import-trex", NULL, wr_cmd_import_trex, false },
	{ "version", cmd_version, NULL, false },
};

int
main(int argc, char **argv)
{
	const struct wr_app_cmd *a = NULL;
	const struct wr_cli_cmd *cmd;
	struct wr_trex_opts trex;
	struct wr_opts o;
	unsigned int i;
	bool help;
	int rc;

	wr_app_signals_early();
	if (argc < 2 || strcmp(argv[1], "--") == 0) {
		fprintf(stderr, "wirerate: expected a command: run, sweep, "
			"rfc2544, rtt, check, dump, ports, serve, console, "
			"import-trex or version (wirerate --help)\n");
		return WR_EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		wr_cli_usage(stdout);
		return WR_EXIT_OK;
	}
	cmd = wr_cli_find(strcmp(argv[1], "--version") == 0 ? "version" :
			  argv[1]);
	for (i = 0; cmd != NULL && i < WR_DIM(wr_app_cmds); i++)
		if (strcmp(wr_app_cmds[i].name, cmd->name) == 0)
			a = &wr_app_cmds[i];
	if (a == NULL) {
		fprintf(stderr, "wirerate: unknown command \"%s\" (wirerate "
			"--help lists them)\n", argv[1]);
		return WR_EXIT_USAGE;
	}
	if (!a->signals)
		wr_app_signals_default();
	if (a->with_args != NULL)
		return a->with_args(cmd, argc, argv);
	rc = parse_opts(cmd, argc, argv, &o, &trex, &help);
	if (rc != WR_EXIT_OK || help)
		return rc;
	return a->with_opts(&o);
}

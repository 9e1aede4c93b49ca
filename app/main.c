/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate: command-line entry point; the options of the commands that read a stream file, and the dispatch table. */
#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_app.h"
#include "wr_describe.h"
#include "wr_tcp_describe.h"
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

/*
 * One line per option code: its parser, the field of struct wr_opts it
 * sets, its "given" flag, and for a number the least value and what the
 * user is told.  Which commands take an option is cli.c's table; this one
 * says what each does.
 */
struct streams_optdef {
	int code;                    /* struct wr_cli_opt's */
	int (*parse)(struct streams_args *a, const struct wr_cli_opt *opt,
		     const struct streams_optdef *d, const char *val);
	size_t off;                  /* the field */
	ptrdiff_t set;               /* its "given" flag; -1: none */
	uint64_t lo;
	const char *why;
};

static void *
opt_field(const struct streams_args *a, const struct streams_optdef *d)
{
	return (char *)a->o + d->off;
}

static void
opt_given(const struct streams_args *a, const struct streams_optdef *d)
{
	if (d->set >= 0)
		*(bool *)((char *)a->o + d->set) = true;
}

static int
opt_bad(const struct wr_cli_opt *opt, const char *val, const char *why)
{
	char name[64];

	snprintf(name, sizeof(name), "--%s", opt->name);
	return opt_error(name, val, why);
}

static int
p_str(struct streams_args *a, const struct wr_cli_opt *opt,
      const struct streams_optdef *d, const char *val)
{
	(void)opt;
	*(const char **)opt_field(a, d) = val;
	return WR_EXIT_OK;
}

static int
p_flag(struct streams_args *a, const struct wr_cli_opt *opt,
       const struct streams_optdef *d, const char *val)
{
	(void)opt;
	(void)val;
	*(bool *)opt_field(a, d) = true;
	return WR_EXIT_OK;
}

/* A duration of at least lo ns. */
static int
p_duration(struct streams_args *a, const struct wr_cli_opt *opt,
	   const struct streams_optdef *d, const char *val)
{
	char why[320];
	uint64_t ns;

	if (wr_parse_duration_ns(val, &ns, why, sizeof(why)) != 0 || ns < d->lo)
		return opt_bad(opt, val, d->why);
	*(uint64_t *)opt_field(a, d) = ns;
	opt_given(a, d);
	return WR_EXIT_OK;
}

static int
p_u64(struct streams_args *a, const struct wr_cli_opt *opt,
      const struct streams_optdef *d, const char *val)
{
	char why[320];
	uint64_t v;

	if (wr_parse_u64(val, d->lo, UINT64_MAX, &v, why, sizeof(why)) != 0)
		return opt_bad(opt, val, d->why);
	*(uint64_t *)opt_field(a, d) = v;
	opt_given(a, d);
	return WR_EXIT_OK;
}

static int
p_peer(struct streams_args *a, const struct wr_cli_opt *opt,
       const struct streams_optdef *d, const char *val)
{
	struct wr_opts *o = a->o;
	char why[320];
	struct wr_peer p;

	(void)opt;
	(void)d;
	if (o->n_peers == WR_PEERS_MAX) {
		fprintf(stderr, "wirerate: --peer: at most %u peers\n",
			WR_PEERS_MAX);
		return WR_EXIT_USAGE;
	}
	/* The syntax now; the peer itself after EAL. */
	if (wr_peer_parse(&p, val, why, sizeof(why)) != 0) {
		fprintf(stderr, "wirerate: --peer: %s, got \"%s\"\n", why, val);
		return WR_EXIT_USAGE;
	}
	o->peers[o->n_peers++] = val;
	return WR_EXIT_OK;
}

static int
p_capture(struct streams_args *a, const struct wr_cli_opt *opt,
	  const struct streams_optdef *d, const char *val)
{
	struct wr_opts *o = a->o;
	char why[320];

	(void)opt;
	(void)d;
	if (o->n_captures == WR_CAPTURES_MAX) {
		fprintf(stderr, "wirerate: --capture: at most %u captures\n",
			WR_CAPTURES_MAX);
		return WR_EXIT_USAGE;
	}
	if (wr_capspec_parse(val, &o->captures[o->n_captures].spec, why,
			     sizeof(why)) != 0)
		return opt_error("--capture", val, why + 9);
	o->n_captures++;
	return WR_EXIT_OK;
}

/* Options of the --capture before them. */
static int
p_capture_opt(struct streams_args *a, const struct wr_cli_opt *opt,
	      const struct streams_optdef *d, const char *val)
{
	struct wr_opts *o = a->o;

	(void)d;
	if (o->n_captures == 0) {
		fprintf(stderr, "wirerate: --%s applies to the --capture "
			"PORT=FILE before it: give that first\n", opt->name);
		return WR_EXIT_USAGE;
	}
	return capture_opt(&o->captures[o->n_captures - 1], opt->code, val);
}

/* stop or continue: the table's choices */
static int
p_link_down(struct streams_args *a, const struct wr_cli_opt *opt,
	    const struct streams_optdef *d, const char *val)
{
	(void)opt;
	(void)d;
	a->o->link_down_continue = strcmp(val, "continue") == 0;
	return WR_EXIT_OK;
}

static int
p_bench(struct streams_args *a, const struct wr_cli_opt *opt,
	const struct streams_optdef *d, const char *val)
{
	(void)d;
	if (wr_app_bench_opt(a->o, opt->code, val) != 0)
		return WR_EXIT_USAGE;
	return WR_EXIT_OK;
}

static int
p_trex(struct streams_args *a, const struct wr_cli_opt *opt,
       const struct streams_optdef *d, const char *val)
{
	(void)d;
	return wr_trex_add_opt(a->trex, opt, val);
}

#define F(f) offsetof(struct wr_opts, f)
#define SET(f) (ptrdiff_t)offsetof(struct wr_opts, f)
#define BENCH(c) { c, p_bench, 0, -1, 0, NULL }
#define TREX(c) { c, p_trex, 0, -1, 0, NULL }
#define CAPOPT(c) { c, p_capture_opt, 0, -1, 0, NULL }

static const struct streams_optdef streams_opts[] = {
	{ 'c', p_str, F(config_file), -1, 0, NULL },
	{ 'd', p_duration, F(duration_ns), -1, 1,
	  "a positive duration such as 5, 2.5, 500ms or 1m" },
	{ 'D', p_duration, F(drain_ns), SET(drain_set), 0,
	  "a duration such as 0.2, 200ms or 2s" },
	{ 'n', p_u64, F(count), SET(count_set), 1, "a frame count of 1 or more" },
	{ 's', p_u64, F(seed), SET(seed_set), 0, "an unsigned 64-bit integer" },
	{ 'j', p_str, F(json_file), -1, 0, NULL },
	{ 'p', p_str, F(pcap_file), -1, 0, NULL },
	{ 'S', p_str, F(stream_name), -1, 0, NULL },
	{ 'q', p_flag, F(quiet), -1, 0, NULL },
	{ 'A', p_flag, F(arp), -1, 0, NULL },
	{ WR_CLI_CODE_HOSTS_WAIT, p_u64, F(hosts_wait_ms), SET(hosts_wait_set),
	  0, "milliseconds, 0 to 4294967295" },
	{ WR_CLI_CODE_HOST_LCORE, p_u64, F(host_lcore), SET(host_lcore_set),
	  0, "an lcore id" },
	{ 'L', p_str, F(stats_jsonl), -1, 0, NULL },
	{ 'o', p_flag, F(oversubscribe), -1, 0, NULL },
	{ 'I', p_flag, F(hosts_table), -1, 0, NULL },
	{ 'e', p_peer, 0, -1, 0, NULL },
	{ 'a', p_capture, 0, -1, 0, NULL },
	CAPOPT('f'), CAPOPT('g'), CAPOPT('i'), CAPOPT('u'), CAPOPT('v'),
	CAPOPT('w'),
	{ 'k', p_link_down, 0, -1, 0, NULL },
	BENCH('O'), BENCH('z'), BENCH('b'), BENCH('C'), BENCH('t'), BENCH('r'),
	BENCH('T'), BENCH('R'), BENCH('l'), BENCH('P'), BENCH('H'), BENCH('F'),
	BENCH('E'), BENCH('G'), BENCH('B'), BENCH('K'), BENCH('W'), BENCH('U'),
	BENCH('V'), BENCH('Y'), BENCH('Q'), BENCH('X'), BENCH('Z'), BENCH('M'),
	BENCH('m'), BENCH('y'), BENCH('x'), BENCH('J'),
	TREX(WR_CLI_CODE_TUNABLE), TREX(WR_CLI_CODE_MULT),
	TREX(WR_CLI_CODE_SRC_MAC), TREX(WR_CLI_CODE_DST_MAC),
	TREX(WR_CLI_CODE_FIX_CSUM),
};

#undef CAPOPT
#undef TREX
#undef BENCH
#undef SET
#undef F

static int
streams_opt(void *ctx, const struct wr_cli_opt *opt, const char *val)
{
	struct streams_args *a = ctx;

	for (size_t i = 0; i < WR_DIM(streams_opts); i++)
		if (streams_opts[i].code == opt->code)
			return streams_opts[i].parse(a, opt, &streams_opts[i],
						     val);
	/* An option in cli.c's table that this one forgot. */
	fprintf(stderr, "wirerate: %s: --%s is not handled\n", a->o->cmd,
		opt->name);
	return WR_EXIT_FAIL;
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

/* Each tcp class in words (check), or what each of its sides sends
 * (dump); @return 0 or an exit status (the error printed). */
static int
wr_app_print_tcp(const struct wr_stream_file *f, bool wire)
{
	static char buf[WR_TCP_DESCRIBE_MAX];
	struct wr_error err;
	uint32_t i;

	for (i = 0; i < f->tcp.n; i++) {
		wr_error_clear(&err);
		if (!wire)
			wr_tcp_describe_class(&f->tcp.classes[i], &f->hosts, "",
					      buf, sizeof(buf));
		else if (wr_tcp_describe_wire(&f->tcp.classes[i], &f->hosts, "",
					      buf, sizeof(buf), &err) != 0) {
			if (err.file[0] == '\0')
				snprintf(err.file, sizeof(err.file), "%s", f->path);
			wr_app_print_error(&err);
			return WR_EXIT_USAGE;
		}
		fputs(buf, stdout);
	}
	return WR_EXIT_OK;
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
	if (f.tcp.n > 0)
		printf("%u tcp class%s, on %u host group%s\n", f.tcp.n,
		       f.tcp.n == 1 ? "" : "es", f.hosts.n,
		       f.hosts.n == 1 ? "" : "s");
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
	wr_app_print_tcp(&f, false);
	wr_stream_file_free(&f);
	return WR_EXIT_OK;
}

static int
cmd_dump(const struct wr_opts *o)
{
	struct wr_stream_file f;
	struct wr_error err;
	int idx = -1, rc;

	/* Without either, tcp classes are shown alone (what each side
	 * sends); stateless streams need both. */
	if (o->count_set != (o->pcap_file != NULL)) {
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
	if (o->pcap_file == NULL && f.tcp.n == 0) {
		fprintf(stderr, "wirerate: dump needs --count N and --pcap FILE\n");
		rc = WR_EXIT_USAGE;
	} else if (o->pcap_file != NULL && f.n_streams == 0) {
		/* The engine builds a connection's segments as it runs. */
		fprintf(stderr, "wirerate: dump: --pcap writes stateless "
			"streams' frames, and %s has none; a tcp class's "
			"frames: run it with --capture\n", f.path);
		rc = WR_EXIT_USAGE;
	} else {
		rc = wr_app_print_tcp(&f, true);
	}
	if (rc != WR_EXIT_OK || o->pcap_file == NULL) {
		wr_stream_file_free(&f);
		return rc;
	}
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

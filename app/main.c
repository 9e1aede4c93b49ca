/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate: command-line entry point; parses options and dispatches subcommands. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_app.h"
#include "wr_describe.h"
#include "wr_frame.h"
#include "wr_parse.h"
#include "wr_report.h"
#include "wr_rtt_table.h"
#include "wr_yaml.h"

/*
 * A SIGTERM or Ctrl-C in the first milliseconds must end a run with its
 * summary and JSON like any other (issue 17: 2 of 60 died without).  Before
 * main() the libraries' constructors run for about 5 ms (DPDK's, libnuma's,
 * OpenSSL's; more on a loaded machine), under the default action, which
 * kills.  So the two are blocked from .preinit_array, which the dynamic
 * loader runs once every library is relocated and before any constructor,
 * and main() installs the handler that records them before it unblocks
 * them (wr_app_signals_early()).  What is left is the loader's own work
 * (mapping and relocating, ~0.4 ms): no code of a program runs earlier.
 */
static void
block_stop_signals(int argc, char **argv, char **envp)
{
	sigset_t stops;

	(void)argc;
	(void)argv;
	(void)envp;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, NULL);
}

__attribute__((section(".preinit_array"), used))
static void (*const wr_preinit[])(int, char **, char **) = {
	block_stop_signals,
};

static void
usage(FILE *out)
{
	fprintf(out,
"usage: wirerate run STREAMFILE [--config PROFILE] [--duration S] [--count N]\n"
"                    [--seed N] [--drain S] [--json FILE] [--stats-jsonl FILE]\n"
"                    [--arp] [--quiet] [--repeat N [--peer SPEC]...]\n"
"                    [-- EAL options]\n"
"       wirerate sweep STREAMFILE [--stream NAME] [--sizes 64,128,...]\n"
"                    [--duration S] [--repeat N] [--rx-port N] [--csv FILE]\n"
"                    [--json FILE] [--report OUT.html] [--config PROFILE]\n"
"       wirerate rfc2544 STREAMFILE --tx-port N --rx-port N | --pairs A:B,C:D\n"
"                    [--stream NAME]\n"
"                    [--sizes ...] [--trial S] [--resolution PCT%%|RATE]\n"
"                    [--loss-tolerance PCT] [--pdr PCT] [--phases N]\n"
"                    [--first-trial S] [--max-rate RATE] [--min-rate RATE]\n"
"                    [--tests throughput,latency,loss,b2b|all] [--loss-step PCT]\n"
"                    [--latency-trials N] [--latency-trial S]\n"
"                    [--reverse-stream NAME] [--report OUT.html]\n"
"                    [--b2b-repeats N] [--b2b-trial S] [--b2b-resolution N]\n"
"                    [--drain S] [--csv FILE] [--json FILE] [--config PROFILE]\n"
"       wirerate rtt STREAMFILE [--stream NAME] [--sizes FROM:TO:STEP] [--count N]\n"
"                    [--timeout S] [--csv FILE] [--json FILE] [--config PROFILE]\n"
"       wirerate check STREAMFILE [--seed N]\n"
"       wirerate dump STREAMFILE --count N --pcap OUT.pcap [--stream NAME] [--seed N]\n"
"       wirerate ports [--json] [--config PROFILE] [DEVICE...] [-- EAL options]\n"
"       wirerate serve [--config PROFILE] [--socket PATH] [--listen ADDR:PORT\n"
"                    --token-file FILE] [-- EAL options]   (serve --help)\n"
"       wirerate console [--socket PATH]\n"
"       wirerate import-trex PROFILE.py [-t TUNABLE]... [-o FILE] [-m MULT]\n"
"                    [--src-mac MAC|port] [--dst-mac MAC|port] [--fix-checksums]\n"
"       wirerate version | --version\n"
"\n"
"  run     send the streams of STREAMFILE on the profile's ports, print Kpps and\n"
"          Mbps (L2 and L1) every second and a final summary\n"
"  sweep   send one stream (the first, or --stream) at the maximum rate for\n"
"          each frame size (default 64,128,256,512,1024,1280,1518) for\n"
"          --duration each (default 2 s); print Kpps, Mbps L1/L2, %% of line;\n"
"          --repeat N runs each size N times: min/median/max of Kpps, Mbps\n"
"          and goodput; --rx-port N counts what a reflector returns there\n"
"          (returned Kpps, Mbps, loss per size); --report writes one\n"
"          self-contained HTML report (tools/wr-report) beside the JSON\n"
"  rfc2544 RFC 2544 throughput: per frame size, a binary search for the\n"
"          highest rate at which every frame (with a loss-only signature)\n"
"          sent on --tx-port comes back on --rx-port; trials of --trial S\n"
"          (default 60 s, RFC 2544's minimum), resolution default 0.1%% of\n"
"          the line rate; sizes default 64,128,256,512,1024,1280,1518;\n"
"          --pdr PCT adds the partial drop rate to the same search, which\n"
"          then runs --phases (default 3) of shorter trials first, from\n"
"          --first-trial (default 1 s) up to --trial (doc/rates.md);\n"
"          --tests adds RFC 2544's latency (at each size's throughput,\n"
"          --latency-trials of --latency-trial, default 20 of 120 s, every\n"
"          frame timed), frame loss rate (steps of --loss-step,\n"
"          default 10 %%, down from the maximum until two lossless trials)\n"
"          and back-to-back (longest lossless burst, first burst\n"
"          --b2b-trial of the rate, default 2 s, --b2b-repeats times,\n"
"          default 50); --reverse-stream NAME also sends that stream from\n"
"          --rx-port to --tx-port in every trial of every test (both\n"
"          directions at once, each one's loss, latency and back-to-back\n"
"          apart); --report\n"
"          writes one self-contained HTML report (tools/wr-report) beside\n"
"          the JSON (--json, else OUT.html.json)\n"
"  rtt     round trips one frame at a time (doc/echo.md): per UDP payload size\n"
"          (default 50:1500:50, the 24-byte signature included), --count round\n"
"          trips (default 100000) of the stream's frame, each waited for up to\n"
"          --timeout (default 0.1 s); min/avg/p50/p99/max RTT and lost per size\n"
"  check   validate STREAMFILE and print what each stream sends (no EAL)\n"
"  ports   list the DPDK ports EAL finds: driver, MAC, link, NUMA node,\n"
"          queues and the offloads wirerate uses (doc/ports.md)\n"
"  serve   EAL and ports up once; a JSON-RPC 2.0 control API for scripts\n"
"          (doc/api.md), the Python client and the console\n"
"  console interactive console on a running server (python3 -m wirerate)\n"
"  dump    write the first N frames of each stream (or of --stream) to a pcap\n"
"          file, with the data path's frame code (no EAL, no hugepages)\n"
"  import-trex  write a TRex stateless profile as a stream file (doc/trex.md);\n"
"          run, check, dump, sweep, rfc2544 and rtt also take PROFILE.py in\n"
"          place of STREAMFILE, with TRex's -t TUNABLE and -m MULT\n"
"\n"
"  --config PROFILE  port/lcore profile (default: config/default.yaml, one net_null\n"
"                    virtual device); EAL options after -- are added to the\n"
"                    profile's; without --config, options choosing devices or\n"
"                    lcores (-a, -b, --vdev, --no-pci, -l, -c, --lcores) replace\n"
"                    the default profile\n"
"  --duration S      stop after S seconds (5, 2.5, 500ms, 1m)\n"
"  --count N         frames per stream, overriding the file's count\n"
"  --seed N          seed for random fields and sizes, overriding the file's\n"
"  --drain S         after the last frame, how long echoes are still waited for\n"
"                    before loss is counted (default 0.2 s)\n"
"  --json FILE       write the final results as JSON (schema in README.md)\n"
"  --stats-jsonl FILE  append one JSON line per stats interval (doc/ports.md)\n"
"  --arp             every port answers ARP and ICMP echo for its streams'\n"
"                    source addresses (doc/arp.md)\n"
"  --quiet           no live lines, only the summary\n"
"  --oversubscribe   send streams that ask a port for more than its line\n"
"                    rate (refused otherwise)\n"
"  --on-link-down stop|continue  when a port's link goes (a peer leaves):\n"
"                    end the run (default) or go on with the other ports;\n"
"                    either way the summary says when and what was sent\n"
"  --burst N         frames per TX burst (1..512) for every stream, replacing\n"
"                    the profile's and the streams' (1: every frame spaced)\n""  --repeat N        run: send the streams N times (1..1000; each must end by\n"
"                    its count or duration, or give --count or --duration),\n"
"                    the ports staying up, the same frames each time: a line\n"
"                    per repetition, then min / median / max of Kpps, Mbps\n"
"                    L2/L1, goodput (bytes above UDP/TCP) and time\n"
"  --peer SPEC       with --repeat: the peer's own RX/TX counts per\n"
"                    repetition, beside ours: telemetry:SOCKET|PREFIX:PORT\n"
"                    (a DPDK process) or netdev:[NETNS/]IFNAME (a Linux\n"
"                    interface); up to 8 (doc/repeat.md)\n"
"\n"
"exit status: 0 success, 1 run-time failure, 2 bad input, 3 (sweep,\n"
"rfc2544) the generator, not the device, limited a result\n");
}

static int
opt_error(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "wirerate: %s: expected %s, got \"%s\"\n", opt, why,
		val);
	return WR_EXIT_USAGE;
}

/*
 * The subcommands and the options each one takes (getopt's short codes,
 * see long_opts): an option that means nothing for a subcommand is an
 * error, not silently ignored.  eal: whether it starts EAL (its output
 * files are checked before).
 */
static const struct wr_cmd_opts {
	const char *name;
	const char *opts;
	bool eal;
} wr_cmds[] = {
	{ "run", "cdDnsjqAbLkoXe", true },
	{ "sweep", "cSzdCjqbsrXQ", true },
	{ "rfc2544", "cSzTRlMmDCjqtrbsPHFEGBKWUVYQZ", true },
	{ "rtt", "cSznOCj", true },
	{ "check", "sn", false },
	{ "dump", "npsS", false },
	{ "version", "", false },
	{ "help", "", false },
};

static const struct wr_cmd_opts *
cmd_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(wr_cmds) / sizeof(wr_cmds[0]); i++)
		if (strcmp(wr_cmds[i].name, name) == 0)
			return &wr_cmds[i];
	return NULL;
}

/* True when @p arg is one of @p opts' long options ("--config",
 * "--config=x"). */
static bool
is_long_opt(const struct option *opts, const char *arg)
{
	size_t n;

	if (strncmp(arg, "--", 2) != 0)
		return false;
	arg += 2;
	n = strcspn(arg, "=");
	for (; opts->name != NULL; opts++)
		if (strlen(opts->name) == n && strncmp(opts->name, arg, n) == 0)
			return true;
	return false;
}

static int
parse_opts(int argc, char **argv, struct wr_opts *o)
{
	static const struct option long_opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "duration", required_argument, NULL, 'd' },
		{ "drain", required_argument, NULL, 'D' },
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "json", required_argument, NULL, 'j' },
		{ "pcap", required_argument, NULL, 'p' },
		{ "stream", required_argument, NULL, 'S' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "burst", required_argument, NULL, 'b' },
		{ "sizes", required_argument, NULL, 'z' },
		{ "timeout", required_argument, NULL, 'O' },
		{ "csv", required_argument, NULL, 'C' },
		{ "tx-port", required_argument, NULL, 't' },
		{ "rx-port", required_argument, NULL, 'r' },
		{ "trial", required_argument, NULL, 'T' },
		{ "resolution", required_argument, NULL, 'R' },
		{ "loss-tolerance", required_argument, NULL, 'l' },
		{ "pdr", required_argument, NULL, 'P' },
		{ "phases", required_argument, NULL, 'H' },
		{ "first-trial", required_argument, NULL, 'F' },
		{ "tests", required_argument, NULL, 'E' },
		{ "loss-step", required_argument, NULL, 'G' },
		{ "b2b-repeats", required_argument, NULL, 'B' },
		{ "b2b-trial", required_argument, NULL, 'K' },
		{ "b2b-resolution", required_argument, NULL, 'W' },
		{ "latency-trials", required_argument, NULL, 'U' },
		{ "latency-trial", required_argument, NULL, 'V' },
		{ "reverse-stream", required_argument, NULL, 'Y' },
		{ "report", required_argument, NULL, 'Q' },
		{ "repeat", required_argument, NULL, 'X' },
		{ "peer", required_argument, NULL, 'e' },
		{ "pairs", required_argument, NULL, 'Z' },
		{ "max-rate", required_argument, NULL, 'M' },
		{ "min-rate", required_argument, NULL, 'm' },
		{ "arp", no_argument, NULL, 'A' },
		{ "stats-jsonl", required_argument, NULL, 'L' },
		{ "on-link-down", required_argument, NULL, 'k' },
		{ "oversubscribe", no_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct wr_cmd_opts *cmd;
	char why[320];
	int i, c, app_argc = argc;

	/* Everything after "--" belongs to EAL, untouched. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			app_argc = i;
			o->eal = argv + i + 1;
			o->n_eal = argc - i - 1;
			break;
		}
	}
	if (app_argc < 2) {
		fprintf(stderr, "wirerate: expected a command: run, sweep, "
			"rfc2544, rtt, check, dump, ports, serve, console or "
			"version (wirerate --help)\n");
		return WR_EXIT_USAGE;
	}
	o->cmd = argv[1];
	if (strcmp(o->cmd, "--help") == 0 || strcmp(o->cmd, "-h") == 0)
		o->cmd = "help";
	if (strcmp(o->cmd, "--version") == 0)
		o->cmd = "version";
	cmd = cmd_find(o->cmd);
	if (cmd == NULL) {
		fprintf(stderr, "wirerate: unknown command \"%s\" (wirerate "
			"--help lists them)\n", o->cmd);
		return WR_EXIT_USAGE;
	}
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(app_argc, argv, "+:h", long_opts, NULL)) != -1 ||
	       optind < app_argc) {
		if (c == -1) {
			/* A positional argument among the options. */
			if (o->stream_file != NULL) {
				fprintf(stderr,
					"wirerate: unexpected argument \"%s\" "
					"(EAL options go after --)\n",
					argv[optind]);
				return WR_EXIT_USAGE;
			}
			o->stream_file = argv[optind++];
			continue;
		}
		/* "--json --config P": --json took "--config" for its
		 * value, and P would be blamed for what is missing. */
		if (optarg != NULL && optarg == argv[optind - 1] &&
		    is_long_opt(long_opts, optarg)) {
			fprintf(stderr, "wirerate: %s needs a value (\"%s\" is "
				"an option; a file of that name: ./%s)\n",
				argv[optind - 2], optarg, optarg);
			return WR_EXIT_USAGE;
		}
		if (c != 'h' && c != ':' && c != '?' &&
		    strchr(cmd->opts, c) == NULL) {
			fprintf(stderr, "wirerate: %s does not apply to %s "
				"(wirerate --help)\n", argv[optind - 1 -
				(optarg != NULL && optarg == argv[optind - 1])],
				o->cmd);
			return WR_EXIT_USAGE;
		}
		switch (c) {
		case 'c':
			o->config_file = optarg;
			break;
		case 'd':
			if (wr_parse_duration_ns(optarg, &o->duration_ns, why,
						 sizeof(why)) != 0 ||
			    o->duration_ns == 0)
				return opt_error("--duration", optarg,
						 "a positive duration such as 5, 2.5, 500ms or 1m");
			break;
		case 'D':
			if (wr_parse_duration_ns(optarg, &o->drain_ns, why,
						 sizeof(why)) != 0)
				return opt_error("--drain", optarg,
						 "a duration such as 0.2, 200ms or 2s");
			o->drain_set = true;
			break;
		case 'n':
			if (wr_parse_u64(optarg, 1, UINT64_MAX, &o->count, why,
					 sizeof(why)) != 0)
				return opt_error("--count", optarg,
						 "a frame count of 1 or more");
			o->count_set = true;
			break;
		case 's':
			if (wr_parse_u64(optarg, 0, UINT64_MAX, &o->seed, why,
					 sizeof(why)) != 0)
				return opt_error("--seed", optarg,
						 "an unsigned 64-bit integer");
			o->seed_set = true;
			break;
		case 'j':
			o->json_file = optarg;
			break;
		case 'p':
			o->pcap_file = optarg;
			break;
		case 'S':
			o->stream_name = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'A':
			o->arp = true;
			break;
		case 'L':
			o->stats_jsonl = optarg;
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
			if (wr_peer_parse(&p, optarg, why, sizeof(why)) != 0) {
				fprintf(stderr, "wirerate: --peer: %s, got "
					"\"%s\"\n", why, optarg);
				return WR_EXIT_USAGE;
			}
			o->peers[o->n_peers++] = optarg;
			break;
		}
		case 'k':
			if (strcmp(optarg, "stop") == 0)
				o->link_down_continue = false;
			else if (strcmp(optarg, "continue") == 0)
				o->link_down_continue = true;
			else
				return opt_error("--on-link-down", optarg,
						 "stop or continue");
			break;
		case 'O':
			if (wr_parse_duration_ns(optarg, &o->timeout_ns, why,
						 sizeof(why)) != 0 ||
			    o->timeout_ns == 0)
				return opt_error("--timeout", optarg,
						 "a positive duration such as 0.1, 100ms or 2s");
			break;
		case 'z':
			/* rtt sweeps UDP payload sizes by a step, as the
			 * raw-Ethernet vs UDP study did; sweep and rfc2544
			 * take a list of frame sizes. */
			if (strcmp(o->cmd, "rtt") == 0) {
				if (wr_rtt_parse_sizes(optarg, &o->rtt_from,
						       &o->rtt_to, &o->rtt_step,
						       why, sizeof(why)) != 0)
					return opt_error("--sizes", optarg,
							 "UDP payload sizes FROM:TO:STEP or SIZE, such as 50:1500:50");
				break;
			}
			/* fall through */
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
			if (wr_app_bench_opt(o, c, optarg) != 0)
				return WR_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			exit(WR_EXIT_OK);
		case ':':
			fprintf(stderr, "wirerate: %s needs a value\n",
				argv[optind - 1]);
			return WR_EXIT_USAGE;
		default:
			fprintf(stderr, "wirerate: unknown option \"%s\" "
				"(EAL options go after --)\n",
				argv[optind - 1]);
			return WR_EXIT_USAGE;
		}
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

int
main(int argc, char **argv)
{
	struct wr_trex_opts trex;
	struct wr_opts o;
	int rc;

	wr_app_signals_early();
	/* ports has options of its own (--json without a file).  It and the
	 * console (python) keep the default action of a signal. */
	if (argc >= 2 && strcmp(argv[1], "serve") == 0)
		return wr_cmd_serve(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "ports") == 0) {
		wr_app_signals_default();
		return wr_cmd_ports(argc, argv);
	}
	if (argc >= 2 && strcmp(argv[1], "console") == 0) {
		wr_app_signals_default();
		return wr_cmd_console(argc, argv);
	}
	if (argc >= 2 && strcmp(argv[1], "import-trex") == 0) {
		wr_app_signals_default();
		return wr_cmd_import_trex(argc, argv);
	}
	memset(&o, 0, sizeof(o));
	o.drain_ns = WR_DRAIN_DEFAULT_NS;
	rc = wr_trex_take_opts(&argc, argv, &trex);
	if (rc != WR_EXIT_OK)
		return rc;
	o.trex = &trex;
	rc = parse_opts(argc, argv, &o);
	if (rc != WR_EXIT_OK)
		return rc;
	if (strcmp(o.cmd, "run") == 0)
		return wr_cmd_run(&o);
	if (strcmp(o.cmd, "sweep") == 0)
		rc = wr_cmd_sweep(&o);
	else if (strcmp(o.cmd, "rtt") == 0)
		rc = wr_cmd_rtt(&o);
	else if (strcmp(o.cmd, "rfc2544") == 0)
		rc = wr_cmd_rfc2544(&o);
	if (rc == WR_EXIT_STOPPED)
		return WR_EXIT_OK;
	if (cmd_find(o.cmd)->eal)
		return rc;
	wr_app_signals_default();
	if (o.n_eal > 0) {
		fprintf(stderr, "wirerate: %s takes no EAL options\n", o.cmd);
		return WR_EXIT_USAGE;
	}
	if (strcmp(o.cmd, "check") == 0)
		return cmd_check(&o);
	if (strcmp(o.cmd, "dump") == 0)
		return cmd_dump(&o);
	if (strcmp(o.cmd, "version") == 0) {
		printf("wirerate %s\n", WR_VERSION);
		return WR_EXIT_OK;
	}
	if (strcmp(o.cmd, "help") == 0 || strcmp(o.cmd, "--help") == 0 ||
	    strcmp(o.cmd, "-h") == 0) {
		usage(stdout);
		return WR_EXIT_OK;
	}
	/* cmd_find() knows no other. */
	return WR_EXIT_USAGE;
}

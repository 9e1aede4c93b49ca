/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate serve / console: EAL and ports up once, then the control server (lib/dp/wr_server); the Python console. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_app.h"
#include "wr_engine.h"
#include "wr_parse.h"
#include "wr_runtime.h"
#include "wr_server.h"

static volatile int wr_serve_stop;

static void
on_signal(int sig)
{
	(void)sig;
	wr_serve_stop = 1;
}

static void
usage(FILE *out)
{
	fprintf(out,
"usage: wirerate serve [--config PROFILE] [--socket PATH|none]\n"
"                      [--listen [ADDR:]PORT --token-file FILE]\n"
"                      [--idle-timeout S] [--owner-timeout S]\n"
"                      [--max-clients N] [-- EAL options]\n"
"  Starts EAL and the profile's ports once and serves the JSON-RPC 2.0 API\n"
"  (doc/api.md) on a Unix socket (default RUNTIME/" WR_RUNTIME_SERVER_SOCK ",\n"
"  mode 0600; RUNTIME is $" WR_RUNTIME_ENV " when set, else /run/wirerate\n"
"  for root, $XDG_RUNTIME_DIR/wirerate or /tmp/wirerate-UID for others,\n"
"  made mode 0700) and, with --listen, on TCP (127.0.0.1 unless an address is\n"
"  given: use another only on a trusted network) to clients that log in with\n"
"  the token in FILE (mode 0600) within 3 s (wrong tokens are rate-limited\n"
"  and logged).  An existing PATH is replaced only when it is a socket no\n"
"  server answers on.\n"
"  --idle-timeout   close a connection silent this long (default 60 s)\n"
"  --owner-timeout  release a vanished owner's ports after this (default\n"
"                   30 s); its traffic keeps running\n"
"  --max-clients    Unix and logged-in TCP clients at once (default 1024)\n"
"       wirerate console [ARGS]   the interactive console (python3 -m wirerate)\n");
}

static int
opt_seconds_ms(const char *opt, const char *val, uint32_t *ms)
{
	char why[128];
	uint64_t ns;

	if (wr_parse_duration_ns(val, &ns, why, sizeof(why)) != 0 ||
	    ns < 1000000ull || ns / 1000000ull > UINT32_MAX) {
		fprintf(stderr, "wirerate: %s: expected a duration of 1 ms or "
			"more (\"30\", \"500ms\"), got \"%s\"\n", opt, val);
		return -EINVAL;
	}
	*ms = (uint32_t)(ns / 1000000ull);
	return 0;
}

int
wr_cmd_serve(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "socket", required_argument, NULL, 's' },
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, 't' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "owner-timeout", required_argument, NULL, 'o' },
		{ "max-clients", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct wr_server_opts so;
	struct wr_opts o;
	struct wr_config cfg;
	struct wr_engine *e = NULL;
	struct wr_error err;
	char host[64], dir[WR_RUNTIME_PATH_MAX], sock[WR_RUNTIME_PATH_MAX + 16];
	int n_args, opt, rc, i;
	unsigned long v;
	char *end;

	memset(&so, 0, sizeof(so));
	memset(&o, 0, sizeof(o));
	/* getopt sees "serve OPTIONS" (argv + 1), up to a "--". */
	argv++;
	argc--;
	n_args = argc;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			o.eal = argv + i + 1;
			o.n_eal = argc - i - 1;
			n_args = i;
			break;
		}
	optind = 1;
	opterr = 0; /* one line of ours, not getopt's and the usage */
	while ((opt = getopt_long(n_args, argv, ":h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			o.config_file = optarg;
			break;
		case 's':
			if (optarg[0] == '\0') {
				fprintf(stderr, "wirerate: --socket: expected "
					"a path, or none for no Unix socket\n");
				return WR_EXIT_USAGE;
			}
			so.unix_path = strcmp(optarg, "none") == 0 ? "" : optarg;
			break;
		case 'l': {
			/* PORT alone binds 127.0.0.1: another address is
			 * a choice the user writes out. */
			const char *colon = strrchr(optarg, ':');
			const char *num = colon ? colon + 1 : optarg;

			v = strtoul(num, &end, 10);
			if ((colon != NULL && colon == optarg) || *num == '\0' ||
			    *end != '\0' || v == 0 || v > 65535 ||
			    (colon != NULL &&
			     (size_t)(colon - optarg) >= sizeof(host))) {
				fprintf(stderr, "wirerate: --listen: expected "
					"[ADDR:]PORT such as 4500 or "
					"127.0.0.1:4500, got \"%s\"\n", optarg);
				return WR_EXIT_USAGE;
			}
			if (colon == NULL) {
				snprintf(host, sizeof(host), "127.0.0.1");
			} else {
				memcpy(host, optarg, (size_t)(colon - optarg));
				host[colon - optarg] = '\0';
			}
			so.tcp_host = host;
			so.tcp_port = (uint16_t)v;
			break;
		}
		case 't':
			so.token_file = optarg;
			break;
		case 'i':
			if (opt_seconds_ms("--idle-timeout", optarg,
					   &so.idle_timeout_ms) != 0)
				return WR_EXIT_USAGE;
			break;
		case 'o':
			if (opt_seconds_ms("--owner-timeout", optarg,
					   &so.owner_timeout_ms) != 0)
				return WR_EXIT_USAGE;
			break;
		case 'm':
			v = strtoul(optarg, &end, 10);
			if (*end != '\0' || v == 0 || v > 65536) {
				fprintf(stderr, "wirerate: --max-clients: "
					"expected 1..65536, got \"%s\"\n", optarg);
				return WR_EXIT_USAGE;
			}
			so.max_clients = (unsigned int)v;
			break;
		case 'h':
			usage(stdout);
			return WR_EXIT_OK;
		case ':':
			fprintf(stderr, "wirerate: serve: %s needs a value "
				"(wirerate serve --help)\n", argv[optind - 1]);
			return WR_EXIT_USAGE;
		default:
			fprintf(stderr, "wirerate: serve: unknown option "
				"\"%s\" (wirerate serve --help)\n",
				argv[optind - 1]);
			return WR_EXIT_USAGE;
		}
	}
	if (optind < n_args) {
		fprintf(stderr, "wirerate: serve: unexpected argument \"%s\"\n",
			argv[optind]);
		return WR_EXIT_USAGE;
	}
	if (so.tcp_host != NULL && so.token_file == NULL) {
		fprintf(stderr, "wirerate: --listen needs --token-file FILE (a "
			"secret readable by its owner only)\n");
		return WR_EXIT_USAGE;
	}
	wr_error_clear(&err);
	if (so.unix_path == NULL) {
		/* The user's own directory: a server of another user (or
		 * the service) keeps its own socket. */
		if (wr_runtime_dir(dir, sizeof(dir)) != 0 ||
		    wr_runtime_dir_make(dir, &err) != 0) {
			if (err.msg[0] == '\0')
				wr_error_set(&err, -EINVAL, NULL, 0, 0, NULL,
					     "$%s is too long", WR_RUNTIME_ENV);
			wr_app_print_error(&err);
			return WR_EXIT_USAGE;
		}
		snprintf(sock, sizeof(sock), "%s/%s", dir,
			 WR_RUNTIME_SERVER_SOCK);
		so.unix_path = sock;
	}
	/* The sockets and the token file before EAL: a bad one starts
	 * nothing. */
	wr_error_clear(&err);
	if (wr_server_check(&so, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	rc = wr_app_load_profile(&o, &cfg, &so.cfg_path);
	if (rc != WR_EXIT_OK)
		return rc;

	wr_app_signals(on_signal);
	signal(SIGPIPE, SIG_IGN);

	wr_error_clear(&err);
	rc = wr_engine_open(&e, &cfg, so.cfg_path, o.eal, o.n_eal, &err);
	if (rc == 0)
		rc = wr_server_run(e, &so, &wr_serve_stop, &err);
	if (rc != 0) {
		wr_app_print_error(&err);
		rc = rc == -EINVAL || rc == -ENODEV || rc == -EPERM ||
		     rc == -EADDRINUSE ? WR_EXIT_USAGE : WR_EXIT_FAIL;
	}
	wr_engine_close(e);
	wr_config_free(&cfg);
	return rc == 0 ? WR_EXIT_OK : rc;
}

int
wr_cmd_console(int argc, char **argv)
{
	const char *old = getenv("PYTHONPATH");
	char path[4096], dir[2048];
	char **args = calloc((size_t)argc + 3, sizeof(*args));
	int i;

	if (args == NULL)
		return WR_EXIT_FAIL;
	/* The package installed with this binary (or the checkout's). */
	if (wr_app_place(WR_APP_PYTHON, dir, sizeof(dir)) == NULL)
		dir[0] = '\0';
	snprintf(path, sizeof(path), "%s%s%s", dir,
		 old && *old ? ":" : "", old && *old ? old : "");
	setenv("PYTHONPATH", path, 1);
	args[0] = (char *)"python3";
	args[1] = (char *)"-m";
	args[2] = (char *)"wirerate";
	for (i = 2; i < argc; i++)
		args[i + 1] = argv[i];
	execvp(args[0], args);
	fprintf(stderr, "wirerate: console: cannot run python3: %s\n",
		strerror(errno));
	free(args);
	return WR_EXIT_FAIL;
}

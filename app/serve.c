/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate serve / console: EAL and ports up once, then the control server (lib/ctl/server/wr_server); the Python console. */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_app.h"
#include "wr_engine.h"
#include "wr_parse.h"
#include "wr_runs.h"
#include "wr_runtime.h"
#include "wr_server.h"

static volatile int wr_serve_stop;

static void
on_signal(int sig)
{
	(void)sig;
	wr_serve_stop = 1;
}

/* [ADDR:]PORT of --listen and --http: PORT alone binds 127.0.0.1 (another
 * address is a choice the user writes out). */
static int
opt_addr(const char *opt, const char *arg, char *host, size_t host_len,
	 uint16_t *port)
{
	const char *colon = strrchr(arg, ':');
	const char *num = colon ? colon + 1 : arg;
	unsigned long v;
	char *end;

	v = strtoul(num, &end, 10);
	if ((colon != NULL && colon == arg) || *num == '\0' || *end != '\0' ||
	    v == 0 || v > 65535 ||
	    (colon != NULL && (size_t)(colon - arg) >= host_len)) {
		fprintf(stderr, "wirerate: %s: expected [ADDR:]PORT such as "
			"4500 or 127.0.0.1:4500, got \"%s\"\n", opt, arg);
		return -EINVAL;
	}
	if (colon == NULL) {
		snprintf(host, host_len, "127.0.0.1");
	} else {
		memcpy(host, arg, (size_t)(colon - arg));
		host[colon - arg] = '\0';
	}
	*port = (uint16_t)v;
	return 0;
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

/* What serve's options fill in. */
struct serve_args {
	struct wr_server_opts so;
	struct wr_opts o;
	char host[64], http_host[64];
	char otg_host[64];
};

/* --otg [https://|http://][ADDR:]PORT: https:// unless http:// is written. */
static int
opt_otg(const char *arg, struct serve_args *a)
{
	struct wr_server_opts *so = &a->so;

	so->otg_tls = true;
	if (strncmp(arg, "https://", 8) == 0) {
		arg += 8;
	} else if (strncmp(arg, "http://", 7) == 0) {
		arg += 7;
		so->otg_tls = false;
	} else if (strstr(arg, "://") != NULL) {
		fprintf(stderr, "wirerate: --otg: https:// or http:// only, got "
			"\"%s\"\n", arg);
		return -EINVAL;
	}
	/* ixia-c's defaults for what is left out: 127.0.0.1, port 8443
	 * ("https://", "https://0.0.0.0"); a number alone is a port. */
	if (*arg == '\0') {
		snprintf(a->otg_host, sizeof(a->otg_host), "127.0.0.1");
		so->otg_port = 8443;
	} else if (strchr(arg, ':') == NULL && strchr(arg, '.') != NULL) {
		if (strlen(arg) >= sizeof(a->otg_host)) {
			fprintf(stderr, "wirerate: --otg: \"%s\": address too "
				"long\n", arg);
			return -EINVAL;
		}
		snprintf(a->otg_host, sizeof(a->otg_host), "%s", arg);
		so->otg_port = 8443;
	} else if (opt_addr("--otg", arg, a->otg_host, sizeof(a->otg_host),
			    &so->otg_port) != 0) {
		return -EINVAL;
	}
	so->otg_host = a->otg_host;
	return 0;
}

static int
serve_opt(void *ctx, const struct wr_cli_opt *opt, const char *val)
{
	struct serve_args *a = ctx;
	struct wr_server_opts *so = &a->so;
	unsigned long v;
	char *end;

	switch (opt->code) {
	case 'c':
		a->o.config_file = val;
		break;
	case 's':
		if (val[0] == '\0') {
			fprintf(stderr, "wirerate: --socket: expected "
				"a path, or none for no Unix socket\n");
			return WR_EXIT_USAGE;
		}
		so->unix_path = strcmp(val, "none") == 0 ? "" : val;
		break;
	case 'l':
		if (opt_addr("--listen", val, a->host, sizeof(a->host),
			     &so->tcp_port) != 0)
			return WR_EXIT_USAGE;
		so->tcp_host = a->host;
		break;
	case 'w':
		if (opt_addr("--http", val, a->http_host, sizeof(a->http_host),
			     &so->http_port) != 0)
			return WR_EXIT_USAGE;
		so->http_host = a->http_host;
		break;
	case 'W':
		so->http_token_file = val;
		break;
	case 't':
		so->token_file = val;
		break;
	case 'g':
		if (opt_otg(val, a) != 0)
			return WR_EXIT_USAGE;
		break;
	case 'T':
		so->tls_cert = val;
		break;
	case 'K':
		so->tls_key = val;
		break;
	case 'A':
		so->tls_client_ca = val;
		break;
	case 'N':
		so->otg_token_file = val;
		break;
	case 'R':
		so->remote_token_file = val;
		break;
	case 'i':
		if (opt_seconds_ms("--idle-timeout", val,
				   &so->idle_timeout_ms) != 0)
			return WR_EXIT_USAGE;
		break;
	case 'o':
		if (opt_seconds_ms("--owner-timeout", val,
				   &so->owner_timeout_ms) != 0)
			return WR_EXIT_USAGE;
		break;
	case 'm':
		v = strtoul(val, &end, 10);
		if (*end != '\0' || v == 0 || v > 65536) {
			fprintf(stderr, "wirerate: --max-clients: "
				"expected 1..65536, got \"%s\"\n", val);
			return WR_EXIT_USAGE;
		}
		so->max_clients = (unsigned int)v;
		break;
	case 'C': {
		struct stat sb;

		/* Checked now: a directory that is not one is bad input,
		 * found before EAL starts. */
		if (stat(val, &sb) != 0 || !S_ISDIR(sb.st_mode) ||
		    access(val, W_OK) != 0) {
			fprintf(stderr, "wirerate: --capture-dir %s: expected "
				"a directory wirerate can write to\n", val);
			return WR_EXIT_USAGE;
		}
		so->capture_dir = val;
		break;
	}
	case 'G': {
		struct group *g = getgrnam(val);

		if (g == NULL) {
			fprintf(stderr, "wirerate: --socket-group: no group "
				"\"%s\" (getent group %s)\n", val, val);
			return WR_EXIT_USAGE;
		}
		so->socket_gid = (int64_t)g->gr_gid;
		break;
	}
	case WR_CLI_CODE_RUNS_DIR: {
		struct wr_error err;

		/* Checked now (made if missing): a bad one starts nothing. */
		wr_error_clear(&err);
		if (wr_runs_dir_check(val, &err) != 0) {
			fprintf(stderr, "wirerate: --runs-dir %s\n", err.msg);
			return WR_EXIT_USAGE;
		}
		so->runs_dir = val;
		break;
	}
	case WR_CLI_CODE_RUNS_MAX:
		errno = 0;
		v = strtoul(val, &end, 10);
		if (errno != 0 || end == val || *end != '\0' || v == 0 ||
		    v > WR_RUNS_MAX_LIMIT || val[0] == '-') {
			fprintf(stderr, "wirerate: --runs-max: expected 1..%u "
				"runs, got \"%s\"\n", WR_RUNS_MAX_LIMIT, val);
			return WR_EXIT_USAGE;
		}
		so->runs_max = (unsigned int)v;
		break;
	case 'P':
		/* Opened now (before EAL) and kept: pcap: names resolve
		 * inside this directory, whatever becomes of its path. */
		so->pcap_dirfd = open(val, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (so->pcap_dirfd < 0) {
			fprintf(stderr, "wirerate: --pcap-dir %s: expected a "
				"directory wirerate can read: %s\n", val,
				strerror(errno));
			return WR_EXIT_USAGE;
		}
		break;
	default:
		fprintf(stderr, "wirerate: serve: --%s is not handled\n",
			opt->name);
		return WR_EXIT_FAIL;
	}
	return WR_EXIT_OK;
}

int
wr_cmd_serve(const struct wr_cli_cmd *cmd, int argc, char **argv)
{
	struct serve_args a;
	struct wr_server_opts so;
	struct wr_opts o;
	struct wr_cli_rest rest;
	struct wr_config cfg;
	struct wr_engine *e = NULL;
	struct wr_error err;
	char dir[WR_RUNTIME_PATH_MAX], sock[WR_RUNTIME_PATH_MAX + 16];
	int rc;

	memset(&a, 0, sizeof(a));
	a.so.pcap_dirfd = -1;
	a.so.socket_gid = -1;
	rc = wr_cli_parse(cmd, argc, argv, serve_opt, NULL, &a, &rest);
	if (rc != WR_EXIT_OK || rest.help)
		return rc;
	so = a.so;
	o = a.o;
	o.eal = rest.eal;
	o.n_eal = rest.n_eal;
	if (so.http_token_file != NULL && so.http_host == NULL) {
		fprintf(stderr, "wirerate: --http-token-file is the web "
			"console's token: it needs --http [ADDR:]PORT\n");
		return WR_EXIT_USAGE;
	}
	/* A token nothing would ask for is a mistake (a --listen left out),
	 * not a setting: the console's own is --http-token-file. */
	if (so.token_file != NULL && so.tcp_host == NULL) {
		fprintf(stderr, "wirerate: --token-file is the TCP API's token: "
			"it needs --listen [ADDR:]PORT (the web console's own "
			"is --http-token-file)\n");
		return WR_EXIT_USAGE;
	}
	if (so.tcp_host != NULL && so.token_file == NULL) {
		fprintf(stderr, "wirerate: --listen needs --token-file FILE (a "
			"secret readable by its owner only)\n");
		return WR_EXIT_USAGE;
	}
	/* The OTG API's options: each one's line, before EAL. */
	if (so.otg_host == NULL &&
	    (so.tls_cert || so.tls_key || so.tls_client_ca ||
	     so.otg_token_file || so.remote_token_file)) {
		fprintf(stderr, "wirerate: --%s is the OTG API's: it needs --otg "
			"[https://|http://][ADDR:]PORT\n", so.tls_cert ?
			"tls-cert" : so.tls_key ? "tls-key" : so.tls_client_ca ?
			"tls-client-ca" : so.otg_token_file ? "otg-token-file" :
			"remote-token-file");
		return WR_EXIT_USAGE;
	}
	if ((so.tls_cert != NULL) != (so.tls_key != NULL)) {
		fprintf(stderr, "wirerate: --%s needs --%s too (a certificate "
			"and its key)\n", so.tls_cert ? "tls-cert" : "tls-key",
			so.tls_cert ? "tls-key" : "tls-cert");
		return WR_EXIT_USAGE;
	}
	if (so.otg_host != NULL && !so.otg_tls &&
	    (so.tls_cert || so.tls_client_ca)) {
		fprintf(stderr, "wirerate: --%s is for https://: --otg is "
			"http://%s:%u\n", so.tls_cert ? "tls-cert" :
			"tls-client-ca", so.otg_host, so.otg_port);
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
	if (so.runs_dir == NULL) {
		/* The default place, made and checked as --runs-dir's. */
		static char runs[WR_RUNS_PATH_MAX];

		wr_error_clear(&err);
		if (wr_runs_default_dir(geteuid(), getenv("XDG_STATE_HOME"),
					getenv("HOME"), runs, sizeof(runs)) != 0 ||
		    wr_runs_dir_check(runs, &err) != 0) {
			fprintf(stderr, "wirerate: the runs' default directory: "
				"%s: give --runs-dir DIR\n", err.msg[0] ? err.msg :
				"no $HOME, no $XDG_STATE_HOME");
			return WR_EXIT_USAGE;
		}
		so.runs_dir = runs;
	}
	/* The sockets and the token file before EAL: a bad one starts
	 * nothing. */
	wr_error_clear(&err);
	if (wr_server_check(&so, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	{
		/* bench.result's HTML: tools/wr-report, where this binary's
		 * helpers are (the tree's, or the installed ones). */
		static char tools[4096];

		so.tools_dir = wr_app_place(WR_APP_TOOLS, tools, sizeof(tools));
	}
	rc = wr_app_load_profile(&o, &cfg, &so.cfg_path);
	if (rc != WR_EXIT_OK)
		return rc;
	/* net_pcap's files in the profile, as run checks them. */
	rc = wr_app_check_files(&o, NULL, &cfg, so.cfg_path);
	if (rc != WR_EXIT_OK) {
		wr_config_free(&cfg);
		return rc;
	}

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
wr_cmd_console(const struct wr_cli_cmd *cmd, int argc, char **argv)
{
	const char *py;
	struct wr_cli_rest rest;
	char **args;
	int i, rc;

	/* The table's options only; then they go to the console as they
	 * were written. */
	rc = wr_cli_parse(cmd, argc, argv, NULL, NULL, NULL, &rest);
	if (rc != WR_EXIT_OK || rest.help)
		return rc;
	args = calloc((size_t)argc + 3, sizeof(*args));
	if (args == NULL)
		return WR_EXIT_FAIL;
	py = wr_app_python();
	args[0] = (char *)py;
	args[1] = (char *)"-m";
	args[2] = (char *)"wirerate";
	for (i = 2; i < argc; i++)
		args[i + 1] = argv[i];
	execvp(args[0], args);
	fprintf(stderr, "wirerate: console: cannot run %s: %s\n", py,
		strerror(errno));
	free(args);
	return WR_EXIT_FAIL;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the subcommands share: the one error line, the one way to load a
 * profile (--config, the default one, or none when EAL options choose the
 * ports) and the one way to load a stream file.  main.c only parses and
 * dispatches; nothing here calls back into it.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_app.h"
#include "wr_config.h"
#include "wr_engine.h"
#include "wr_frame.h"
#include "wr_out.h"
#include "wr_replay.h"
#include "wr_runtime.h"
#include "wr_yaml.h"

/* The system's profiles (set by meson beside places.c's directories). */
#ifndef WR_SYSCONF_PROFILES
#define WR_SYSCONF_PROFILES "/etc/wirerate"
#endif
#define WR_DEFAULT_PROFILE "default"
/* Profiles are looked up here, then in the shipped ones. */
#define WR_CONFIG_PATH_ENV "WIRERATE_CONFIG_PATH"

/* The profile search path: $WIRERATE_CONFIG_PATH, else the system's
 * directory, then the shipped profiles. */
static const char *
profile_path(char *buf, size_t len)
{
	const char *env = getenv(WR_CONFIG_PATH_ENV);
	char shipped[PATH_MAX];

	if (wr_app_place(WR_APP_PROFILES, shipped, sizeof(shipped)) == NULL)
		shipped[0] = '\0';
	snprintf(buf, len, "%s%s%s", env != NULL && env[0] != '\0' ? env :
		 WR_SYSCONF_PROFILES, shipped[0] ? ":" : "", shipped);
	return buf;
}

const char *
wr_app_find_profile(const char *name, char *buf, size_t len)
{
	char search[PATH_MAX * 2];

	profile_path(search, sizeof(search));
	return wr_runtime_find_profile(search, name, buf, len) == 0 ? buf :
	       NULL;
}

void
wr_app_print_error(const struct wr_error *err)
{
	char line[1024];

	wr_error_format(err, line, sizeof(line));
	fprintf(stderr, "wirerate: %s\n", line);
}

int
wr_app_profile(const char *config_file, char **eal, int n_eal,
	       struct wr_config *cfg, const char **cfg_path)
{
	static char found[PATH_MAX];
	char search[PATH_MAX * 2];
	struct wr_error err;

	wr_error_clear(&err);
	wr_config_init(cfg);
	*cfg_path = config_file;
	/* EAL options naming devices or lcores replace the default
	 * profile (as in any DPDK application); others are added to it. */
	if (*cfg_path == NULL && !wr_config_eal_replaces_profile(eal, n_eal)) {
		*cfg_path = wr_app_find_profile(WR_DEFAULT_PROFILE, found,
						sizeof(found));
		if (*cfg_path == NULL) {
			fprintf(stderr, "wirerate: no --config given and no "
				"%s.yaml found in %s\n", WR_DEFAULT_PROFILE,
				profile_path(search, sizeof(search)));
			return WR_EXIT_USAGE;
		}
	} else if (*cfg_path != NULL && access(*cfg_path, F_OK) != 0 &&
		   strchr(*cfg_path, '/') == NULL) {
		/* A name, not a file here: a profile on the search path. */
		if (wr_app_find_profile(*cfg_path, found, sizeof(found)) ==
		    NULL) {
			fprintf(stderr, "wirerate: --config %s: no such file, "
				"and no profile of that name in %s\n",
				*cfg_path, profile_path(search,
							sizeof(search)));
			return WR_EXIT_USAGE;
		}
		*cfg_path = found;
	}
	if (*cfg_path != NULL && wr_config_load(*cfg_path, cfg, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	return WR_EXIT_OK;
}

int
wr_app_load_profile(const struct wr_opts *o, struct wr_config *cfg,
		    const char **cfg_path)
{
	return wr_app_profile(o->config_file, o->eal, o->n_eal, cfg, cfg_path);
}

int
wr_app_read_streams(const struct wr_opts *o, struct wr_stream_file *f)
{
	struct wr_error err;
	uint32_t i;

	if (o->stream_file == NULL) {
		fprintf(stderr, "wirerate: %s: a stream file is required\n",
			o->cmd);
		return WR_EXIT_USAGE;
	}
	wr_error_clear(&err);
	if (wr_trex_is_profile(o->stream_file)) {
		static const struct wr_trex_opts none;
		char *text = NULL;
		size_t len = 0;
		int rc = wr_trex_convert(o->stream_file, o->trex ? o->trex : &none,
					 &text, &len);

		if (rc != WR_EXIT_OK)
			return rc;
		char name[WR_ERROR_FILE_MAX];

		/* Errors and results name the profile, their lines those of
		 * what `wirerate import-trex PROFILE` writes. */
		snprintf(name, sizeof(name), "%s (import-trex)", o->stream_file);
		rc = wr_yaml_load_streams_buf(name, text, len, f, &err);
		free(text);
		if (rc != 0) {
			wr_app_print_error(&err);
			return WR_EXIT_USAGE;
		}
		/* Results name the profile itself. */
		snprintf(f->path, sizeof(f->path), "%s", o->stream_file);
	} else if (wr_yaml_load_streams(o->stream_file, f, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	if (o->seed_set)
		wr_stream_file_set_seed(f, o->seed);
	for (i = 0; i < f->n_streams; i++) {
		if (o->count_set)
			f->streams[i].count = o->count;
		if (o->burst_set)
			f->streams[i].burst = o->burst;
	}
	return WR_EXIT_OK;
}

int
wr_app_build_streams(const struct wr_stream_file *f, struct wr_config *cfg,
		     const char *cfg_path, struct wr_prepared *keep)
{
	struct wr_error err;
	char owner[WR_ERROR_FILE_MAX + 16];
	uint32_t largest;

	wr_error_clear(&err);
	snprintf(owner, sizeof(owner), "the profile %s",
		 cfg_path != NULL ? cfg_path : "");
	if (wr_engine_prepare(f, cfg != NULL ? cfg->n_ports : 0, owner,
			      &largest, keep, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	if (cfg != NULL && largest > cfg->max_frame)
		cfg->max_frame = largest;
	/* The profile's rx_classes and the stream file's count together. */
	if (cfg != NULL &&
	    wr_rx_classes_check_pair(&cfg->classes, &f->classes, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	return WR_EXIT_OK;
}

int
wr_app_load_streams(const struct wr_opts *o, struct wr_stream_file *f)
{
	int rc = wr_app_read_streams(o, f);

	if (rc == WR_EXIT_OK) {
		rc = wr_app_build_streams(f, NULL, NULL, NULL);
		if (rc != WR_EXIT_OK)
			wr_stream_file_free(f);
	}
	return rc;
}

/* The first stop signal that came before a command took them (its
 * number), 0: none. */
static volatile sig_atomic_t wr_early_signal;

static void
on_early_signal(int sig)
{
	if (wr_early_signal == 0)
		wr_early_signal = sig;
}

/* The stop signals: Ctrl-C, SIGTERM and SIGHUP (the terminal or an SSH
 * session gone) end a run alike, with its summary and JSON. */
static const int wr_stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Every stop signal to @p handler (a function or SIG_DFL), with them
 * blocked meanwhile; @return the signal recorded before, 0: none. */
static int
signals_swap(void (*handler)(int))
{
	struct sigaction sa;
	sigset_t stops, old;
	unsigned int i;
	int early;

	sigemptyset(&stops);
	for (i = 0; i < WR_DIM(wr_stop_signals); i++)
		sigaddset(&stops, wr_stop_signals[i]);
	sigprocmask(SIG_BLOCK, &stops, &old);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < WR_DIM(wr_stop_signals); i++)
		sigaction(wr_stop_signals[i], &sa, NULL);
	early = wr_early_signal;
	wr_early_signal = 0;
	sigprocmask(SIG_UNBLOCK, &stops, NULL);
	return early;
}

void
wr_app_signals_early(void)
{
	signals_swap(on_early_signal);
}

void
wr_app_signals(void (*handler)(int))
{
	int early = signals_swap(handler);

	if (early != 0)
		handler(early);
}

void
wr_app_signals_default(void)
{
	int early = signals_swap(SIG_DFL);

	if (early != 0)
		raise(early);
}

int
wr_app_bench_json_path(const struct wr_opts *o, char *buf, size_t len,
		       const char **json)
{
	*json = o->json_file;
	if (o->report_file == NULL || *json != NULL)
		return WR_EXIT_OK;
	if (snprintf(buf, len, "%s.json", o->report_file) >= (int)len) {
		fprintf(stderr, "wirerate: --report: the path is too long\n");
		return WR_EXIT_USAGE;
	}
	*json = buf;
	return WR_EXIT_OK;
}

int
wr_app_check_files(const struct wr_opts *o, const struct wr_stream_file *f,
		   const struct wr_config *cfg, const char *cfg_path)
{
	char report_json[1100], why[WR_ERROR_FILE_MAX * 2 + 160];
	char *paths[2] = { NULL, NULL };
	const char *json = o->json_file;
	struct wr_peer peers[WR_PEERS_MAX];
	struct wr_out_file *files;
	char *cap_names;
	unsigned int n = 0, cap, n_pcap = 0, i, k;
	int rc;

	if (o->report_file != NULL &&
	    wr_app_bench_json_path(o, report_json, sizeof(report_json), &json) !=
	    WR_EXIT_OK)
		return WR_EXIT_USAGE;
	wr_out_pcap_devargs(o->eal, o->n_eal, NULL, 0, &n_pcap, NULL);
	if (cfg != NULL)
		wr_out_pcap_devargs(cfg->eal_args, (int)cfg->n_eal_args, NULL,
				    0, &n_pcap, NULL);
	cap = 8 + o->n_peers + (f != NULL ? f->n_streams : 0) + n_pcap;
	for (i = 0; i < o->n_captures; i++)
		cap += o->captures[i].lim.files > 1 ?
			o->captures[i].lim.files : 1;
	files = calloc(cap, sizeof(*files));
	cap_names = calloc(cap, WR_CAP_PATH_MAX + 16);
	if (files == NULL || cap_names == NULL) {
		free(files);
		free(cap_names);
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	/* Outputs first: the error names the first one at fault. */
	files[n++] = (struct wr_out_file){ "--json", o->json_file, WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "--csv", o->csv_file, WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "--stats-jsonl", o->stats_jsonl, WR_OUT_LOG };
	files[n++] = (struct wr_out_file){ "--pcap", o->pcap_file, WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "--report", o->report_file, WR_OUT_REPLACE };
	/* Captures: each file of a ring too (FILE-0.pcapng, ...). */
	for (i = 0, k = 0; i < o->n_captures; i++) {
		const struct wr_app_capture *c = &o->captures[i];
		uint32_t j, nf = c->lim.files > 1 ? c->lim.files : 1;

		for (j = 0; j < nf; j++, k++) {
			char *name = cap_names + (size_t)k * (WR_CAP_PATH_MAX + 16);

			if (wr_cap_file_name(c->spec.file, j, c->lim.files, name,
					     WR_CAP_PATH_MAX + 16) != 0)
				snprintf(name, WR_CAP_PATH_MAX + 16, "%s",
					 c->spec.file);
			files[n++] = (struct wr_out_file){ "--capture", name,
							   WR_OUT_REPLACE };
		}
	}
	if (json != o->json_file)
		files[n++] = (struct wr_out_file){ "--report's JSON", json,
						   WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "the stream file", o->stream_file,
					   WR_OUT_INPUT };
	files[n++] = (struct wr_out_file){ "the profile", cfg_path != NULL ?
					   cfg_path : o->config_file,
					   WR_OUT_INPUT };
	for (i = 0; f != NULL && i < f->n_streams; i++) {
		const struct wr_replay_spec *r = f->streams[i].replay;

		if (r != NULL && !r->from_frame)
			files[n++] = (struct wr_out_file){ "the capture",
							   r->pcap,
							   WR_OUT_INPUT };
	}
	/* A netdev: peer's namespace file (the spec was parsed already). */
	for (i = 0; i < o->n_peers; i++)
		if (wr_peer_parse(&peers[i], o->peers[i], why, sizeof(why)) ==
		    0 && peers[i].kind == WR_PEER_NETDEV &&
		    peers[i].path[0] != '\0')
			files[n++] = (struct wr_out_file){ "--peer",
							   peers[i].path,
							   WR_OUT_INPUT };
	rc = wr_out_pcap_devargs(o->eal, o->n_eal, files, cap, &n, &paths[0]);
	if (rc == 0 && cfg != NULL)
		rc = wr_out_pcap_devargs(cfg->eal_args, (int)cfg->n_eal_args,
					 files, cap, &n, &paths[1]);
	if (rc == 0) {
		rc = wr_out_check_files(files, n, why, sizeof(why));
		if (rc != 0)
			fprintf(stderr, "wirerate: %s\n", why);
	} else {
		fprintf(stderr, "wirerate: out of memory\n");
	}
	free(paths[0]);
	free(paths[1]);
	free(files);
	free(cap_names);
	return rc == 0 ? WR_EXIT_OK : rc == -ENOMEM ? WR_EXIT_FAIL :
	       WR_EXIT_USAGE;
}

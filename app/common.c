/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the subcommands share: the one error line, the one way to load a
 * profile (--config, the default one, or none when EAL options choose the
 * ports) and the one way to load a stream file.  main.c only parses and
 * dispatches; nothing here calls back into it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "wr_app.h"
#include "wr_config.h"
#include "wr_engine.h"
#include "wr_frame.h"
#include "wr_out.h"
#include "wr_replay.h"
#include "wr_yaml.h"

/* Where the default profile is looked for, in order (set by meson). */
#ifndef WR_CONFIG_DIRS
#define WR_CONFIG_DIRS "config"
#endif
#define WR_DEFAULT_PROFILE "default.yaml"

void
wr_app_print_error(const struct wr_error *err)
{
	char line[1024];

	wr_error_format(err, line, sizeof(line));
	fprintf(stderr, "wirerate: %s\n", line);
}

const char *
wr_app_default_profile(char *buf, size_t len)
{
	char dirs[1024], *save = NULL, *d;

	if (buf == NULL || len == 0)
		return NULL;
	snprintf(dirs, sizeof(dirs), "%s", WR_CONFIG_DIRS);
	for (d = strtok_r(dirs, ":", &save); d != NULL;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", d, WR_DEFAULT_PROFILE);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}

int
wr_app_profile(const char *config_file, char **eal, int n_eal,
	       struct wr_config *cfg, const char **cfg_path)
{
	static char default_path[1024];
	struct wr_error err;

	wr_error_clear(&err);
	wr_config_init(cfg);
	*cfg_path = config_file;
	/* EAL options naming devices or lcores replace the default
	 * profile (as in any DPDK application); others are added to it. */
	if (*cfg_path == NULL && !wr_config_eal_replaces_profile(eal, n_eal)) {
		*cfg_path = wr_app_default_profile(default_path,
						    sizeof(default_path));
		if (*cfg_path == NULL) {
			fprintf(stderr, "wirerate: no --config given and no %s "
				"found in %s\n", WR_DEFAULT_PROFILE,
				WR_CONFIG_DIRS);
			return WR_EXIT_USAGE;
		}
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
	if (wr_yaml_load_streams(o->stream_file, f, &err) != 0) {
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
		     const char *cfg_path)
{
	struct wr_error err;
	char owner[WR_ERROR_FILE_MAX + 16];
	uint32_t largest;

	wr_error_clear(&err);
	snprintf(owner, sizeof(owner), "the profile %s",
		 cfg_path != NULL ? cfg_path : "");
	if (wr_engine_check_streams(f, cfg != NULL ? cfg->n_ports : 0, owner,
				    &largest, &err) != 0) {
		wr_app_print_error(&err);
		return WR_EXIT_USAGE;
	}
	if (cfg != NULL && largest > cfg->max_frame)
		cfg->max_frame = largest;
	return WR_EXIT_OK;
}

int
wr_app_load_streams(const struct wr_opts *o, struct wr_stream_file *f)
{
	int rc = wr_app_read_streams(o, f);

	if (rc == WR_EXIT_OK) {
		rc = wr_app_build_streams(f, NULL, NULL);
		if (rc != WR_EXIT_OK)
			wr_stream_file_free(f);
	}
	return rc;
}

void
wr_app_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
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
	unsigned int n = 0, cap, n_pcap = 0, i;
	int rc;

	if (o->report_file != NULL &&
	    wr_bench_json_path(o, report_json, sizeof(report_json), &json) !=
	    WR_EXIT_OK)
		return WR_EXIT_USAGE;
	wr_out_pcap_devargs(o->eal, o->n_eal, NULL, 0, &n_pcap, NULL);
	if (cfg != NULL)
		wr_out_pcap_devargs(cfg->eal_args, (int)cfg->n_eal_args, NULL,
				    0, &n_pcap, NULL);
	cap = 8 + o->n_peers + (f != NULL ? f->n_streams : 0) + n_pcap;
	files = calloc(cap, sizeof(*files));
	if (files == NULL) {
		fprintf(stderr, "wirerate: out of memory\n");
		return WR_EXIT_FAIL;
	}
	/* Outputs first: the error names the first one at fault. */
	files[n++] = (struct wr_out_file){ "--json", o->json_file, WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "--csv", o->csv_file, WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "--stats-jsonl", o->stats_jsonl, WR_OUT_LOG };
	files[n++] = (struct wr_out_file){ "--pcap", o->pcap_file, WR_OUT_REPLACE };
	files[n++] = (struct wr_out_file){ "--report", o->report_file, WR_OUT_REPLACE };
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
	return rc == 0 ? WR_EXIT_OK : rc == -ENOMEM ? WR_EXIT_FAIL :
	       WR_EXIT_USAGE;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the subcommands share: the one error line, the one way to load a
 * profile (--config, the default one, or none when EAL options choose the
 * ports) and the one way to load a stream file.  main.c only parses and
 * dispatches; nothing here calls back into it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_app.h"
#include "wr_config.h"
#include "wr_engine.h"
#include "wr_frame.h"
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

/* Frames of a stream looked at for a group source MAC: a fixed or
 * listed address shows in the first ones; a random one in 1 of 2. */
#define WR_SRC_MAC_FRAMES 256

int
wr_app_check_src_mac(const struct wr_stream_file *f, uint32_t i,
		     const struct wr_frame_tmpl *t, struct wr_error *err)
{
	const struct wr_stream *s = &f->streams[i];
	uint8_t *buf = malloc(wr_frame_tmpl_max_len(t));
	struct wr_frame_gen g;
	uint64_t k, n = s->count != 0 && s->count < WR_SRC_MAC_FRAMES ?
		s->count : WR_SRC_MAC_FRAMES;
	int rc = 0;

	if (buf == NULL)
		return -ENOMEM;
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < n; k++) {
		wr_frame_gen_next(&g, buf);
		/* IEEE 802.3 clause 3.2.3: the I/G bit of a source address is
		 * always 0; a switch floods or drops such a frame. */
		if (buf[6] & 1) {
			rc = wr_error_set(err, -EINVAL, f->path, s->mark.line,
				s->mark.col, NULL, "streams[%u].eth.src: "
				"frame %llu's source MAC %02x:%02x:%02x:%02x:"
				"%02x:%02x is %s: a source address must be "
				"unicast", i, (unsigned long long)k, buf[6],
				buf[7], buf[8], buf[9], buf[10], buf[11],
				memcmp(buf + 6, "\xff\xff\xff\xff\xff\xff",
				       6) == 0 ? "broadcast" : "multicast");
			break;
		}
	}
	free(buf);
	return rc;
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
wr_app_build_streams(const struct wr_stream_file *f,
		     const struct wr_config *cfg, const char *cfg_path)
{
	struct wr_error err;
	uint32_t i;
	int rc;

	wr_error_clear(&err);
	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];
		struct wr_frame_tmpl *t;

		if (cfg != NULL && cfg->n_ports > 0 && s->port >= cfg->n_ports) {
			wr_error_set(&err, -EINVAL, f->path, s->mark.line,
				     s->mark.col, NULL,
				     "streams[%u].port: port %u does not exist: "
				     "the profile %s has %u port%s (0..%u)",
				     i, s->port, cfg_path, cfg->n_ports,
				     cfg->n_ports == 1 ? "" : "s",
				     cfg->n_ports - 1);
			wr_app_print_error(&err);
			return WR_EXIT_USAGE;
		}
		rc = wr_engine_tmpl_create(f, i, &t, &err);
		if (rc == 0) {
			rc = wr_app_check_src_mac(f, i, t, &err);
			wr_frame_tmpl_free(t);
		}
		if (rc != 0) {
			wr_app_print_error(&err);
			return WR_EXIT_USAGE;
		}
	}
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

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream_src: the stream model's functions that reach a stream's frame source (the field engine's or the replay's spec): free it, write its MACs, seed it, count its passes. */
#include <stdlib.h>

#include "wr_fe.h"
#include "wr_proto.h"
#include "wr_replay.h"
#include "wr_stream.h"

/*
 * Declared in wr_stream.h with the rest of the model; defined here, above
 * the frame sources they call, so that model/ includes nothing of frame/
 * (wr-check-layout): a stream holds its source's spec as a pointer the
 * model never looks into.
 */

void
wr_stream_set_mac(struct wr_stream *s, bool dst, uint64_t mac)
{
	struct wr_field_spec *fs;
	int j;

	if (s->fe != NULL) {
		s->fe->mac_mode[dst] = WR_FE_MAC_VALUE;
		s->fe->mac[dst] = mac;
		wr_fe_apply_macs(s->fe);
		return;
	}
	if (s->replay != NULL || s->n_layers == 0)
		return;
	j = wr_proto_field_role(s->layers[0].proto,
				dst ? WR_ROLE_LINK_DST : WR_ROLE_LINK_SRC);
	if (j < 0)
		return;
	fs = &s->layers[0].field[j];
	wr_field_free(fs);
	wr_field_fixed(fs, mac);
}

void
wr_stream_free(struct wr_stream *s)
{
	if (s == NULL)
		return;
	wr_stream_layers_free(s->layers, s->n_layers);
	free(s->layers);
	s->layers = NULL;
	s->n_layers = 0;
	free(s->size.mix);
	s->size.mix = NULL;
	s->size.n_mix = 0;
	free(s->payload.bytes);
	s->payload.bytes = NULL;
	s->payload.len = 0;
	wr_replay_spec_free(s->replay);
	s->replay = NULL;
	wr_fe_spec_free(s->fe);
	s->fe = NULL;
	free(s->host_refs);
	s->host_refs = NULL;
	s->n_host_refs = 0;
}

void
wr_stream_file_free(struct wr_stream_file *f)
{
	uint32_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n_streams; i++)
		wr_stream_free(&f->streams[i]);
	free(f->streams);
	f->streams = NULL;
	f->n_streams = 0;
	wr_rx_classes_free(&f->classes);
	wr_host_specs_free(&f->hosts);
	wr_tcp_specs_free(&f->tcp);
}

void
wr_stream_file_set_seed(struct wr_stream_file *f, uint64_t seed)
{
	uint32_t i;

	f->seed = seed;
	f->seed_set = true;
	for (i = 0; i < f->n_streams; i++) {
		f->streams[i].seed = seed;
		/* Replayed frames were drawn at load: drawn again. */
		if (f->streams[i].replay != NULL)
			wr_replay_spec_seed(f->streams[i].replay, seed);
	}
}

/* A stream's own activation ends: by its count, its duration, its
 * capture's passes or a ramp that stops. */
static bool
activation_ends(const struct wr_stream *s)
{
	return s->count != 0 || s->duration_ns != 0 ||
	       (s->replay != NULL && s->replay->loops != 0) ||
	       (s->has_ramp && s->ramp.at_end == WR_RAMP_END_STOP);
}

int
wr_stream_file_endless(const struct wr_stream_file *f)
{
	uint32_t i, j;

	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];

		if (!activation_ends(s))
			return (int)i;
		if (f->loops != 0 || !wr_stream_file_port_sequenced(f, s->port))
			continue;
		/* A sequence that starts over for ever never ends. */
		for (j = 0; j < f->n_streams; j++)
			if (f->streams[j].port == s->port &&
			    f->streams[j].has_next &&
			    f->streams[j].next == WR_SCHED_NEXT_FIRST)
				return (int)i;
	}
	return -1;
}

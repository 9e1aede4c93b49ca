/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream: names, periods and ownership of the stream model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_fe.h"
#include "wr_proto.h"
#include "wr_replay.h"
#include "wr_stream.h"

int
wr_layer_init(struct wr_layer *l, const struct wr_proto *p)
{
	unsigned int i;

	memset(l, 0, sizeof(*l));
	l->proto = p;
	if (p->n_fields == 0)
		return 0;
	l->field = calloc(p->n_fields, sizeof(*l->field));
	l->set = calloc(p->n_fields, sizeof(*l->set));
	if (l->field == NULL || l->set == NULL) {
		free(l->field);
		free(l->set);
		l->field = NULL;
		l->set = NULL;
		return -ENOMEM;
	}
	for (i = 0; i < p->n_fields; i++) {
		l->field[i].mode = WR_VARY_FIXED;
		l->field[i].value = (__uint128_t)p->fields[i].def_hi << 64 |
				    p->fields[i].def;
	}
	return 0;
}

void
wr_stream_layers_free(struct wr_layer *l, uint32_t n)
{
	uint32_t i, j;

	if (l == NULL)
		return;
	for (i = 0; i < n; i++) {
		for (j = 0; l[i].field != NULL && j < l[i].proto->n_fields; j++)
			wr_field_free(&l[i].field[j]);
		free(l[i].field);
		free(l[i].set);
		free(l[i].raw);
		for (j = 0; j < l[i].n_opts; j++)
			free(l[i].opts[j].data);
		free(l[i].opts);
		memset(&l[i], 0, sizeof(l[i]));
	}
}

int
wr_stream_shorthand(struct wr_stream *s, bool vlan)
{
	static const char *const names[] = { "eth", "vlan", "ipv4", "udp" };
	unsigned int i, n = 0;
	int rc;

	s->layers = calloc(4, sizeof(*s->layers));
	if (s->layers == NULL)
		return -ENOMEM;
	for (i = 0; i < 4; i++) {
		struct wr_layer *l = &s->layers[n];

		if (i == 1 && !vlan)
			continue;
		rc = wr_layer_init(l, wr_proto_find(names[i]));
		if (rc < 0) {
			wr_stream_layers_free(s->layers, n);
			free(s->layers);
			s->layers = NULL;
			return rc;
		}
		l->mark = s->mark;
		snprintf(l->key, sizeof(l->key), "%s", names[i]);
		n++;
	}
	s->n_layers = n;
	return 0;
}

struct wr_field_spec *
wr_stream_field(const struct wr_stream *s, const char *key)
{
	const char *dot = strchr(key, '.');
	uint32_t i;
	int j;

	if (dot == NULL)
		return NULL;
	for (i = 0; i < s->n_layers; i++) {
		const struct wr_proto *p = s->layers[i].proto;

		if (strncmp(p->name, key, (size_t)(dot - key)) != 0 ||
		    p->name[dot - key] != '\0')
			continue;
		j = wr_proto_field_find(p, dot + 1);
		return j < 0 ? NULL : &s->layers[i].field[j];
	}
	return NULL;
}

struct wr_field_spec *
wr_stream_addr(const struct wr_stream *s, unsigned int kind, unsigned int role)
{
	uint32_t i;
	int j;

	for (i = 0; i < s->n_layers; i++) {
		const struct wr_proto *p = s->layers[i].proto;

		j = p->l3 ? wr_proto_field_role(p, role) : -ENOENT;
		if (j >= 0 && p->fields[j].kind == kind)
			return &s->layers[i].field[j];
	}
	return NULL;
}

uint32_t
wr_layer_hlen(const struct wr_layer *l)
{
	struct wr_layout lo;

	return wr_proto_layout(l, &lo) == 0 ? lo.hlen : 0;
}

uint32_t
wr_stream_hdr_len(const struct wr_stream *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->n_layers; i++)
		n += wr_layer_hlen(&s->layers[i]);
	return n;
}

uint32_t
wr_stream_l2_len(const struct wr_stream *s)
{
	uint32_t i, n = 0;

	for (i = 0; i < s->n_layers && (i == 0 || s->layers[i].proto->tag); i++)
		n += wr_layer_hlen(&s->layers[i]);
	return n;
}

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
}

int
wr_stream_file_find(const struct wr_stream_file *f, const char *name)
{
	uint32_t i;

	for (i = 0; i < f->n_streams; i++)
		if (strcmp(f->streams[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
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

bool
wr_stream_file_port_sequenced(const struct wr_stream_file *f, uint16_t port)
{
	uint32_t i;

	for (i = 0; i < f->n_streams; i++)
		if (f->streams[i].port == port && f->streams[i].has_next)
			return true;
	return false;
}

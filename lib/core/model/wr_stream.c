/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream: names, periods and layers of the stream model (what reaches a stream's frame source: frame/wr_stream_src.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_proto.h"
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

int
wr_stream_file_find(const struct wr_stream_file *f, const char *name)
{
	uint32_t i;

	for (i = 0; i < f->n_streams; i++)
		if (strcmp(f->streams[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
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

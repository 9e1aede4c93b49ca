/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream: names, periods and ownership of the stream model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_fe.h"
#include "wr_proto.h"
#include "wr_replay.h"
#include "wr_stream.h"

static const char *const field_names[] = {
#define WR_X(e, name, bits) [WR_FIELD_##e] = name,
	WR_FIELDS(WR_X)
#undef WR_X
};

static const unsigned int field_bits[] = {
#define WR_X(e, name, bits) [WR_FIELD_##e] = bits,
	WR_FIELDS(WR_X)
#undef WR_X
};

const char *
wr_field_name(enum wr_field_id id)
{
	if ((unsigned int)id >= WR_FIELD__COUNT)
		return NULL;
	return field_names[id];
}

unsigned int
wr_field_bits(enum wr_field_id id)
{
	if ((unsigned int)id >= WR_FIELD__COUNT)
		return 0;
	return field_bits[id];
}

const struct wr_proto_field *
wr_field_proto(enum wr_field_id id)
{
	unsigned int i, j;

	for (i = 0; i < wr_n_protos; i++)
		for (j = 0; j < wr_protos[i]->n_fields; j++)
			if (wr_protos[i]->fields[j].legacy_tag == (unsigned int)id + 1)
				return &wr_protos[i]->fields[j];
	return NULL;
}

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
			free(l[i].field[j].list);
		free(l[i].field);
		free(l[i].set);
		free(l[i].raw);
		memset(&l[i], 0, sizeof(l[i]));
	}
}

/* Copy a shorthand field into a layer's field @p name (lists deep-copied). */
static int
legacy_field(struct wr_layer *l, const char *name,
	     const struct wr_field_spec *fs)
{
	int i = wr_proto_field_find(l->proto, name);

	if (i < 0)
		return i;
	l->set[i] = true;
	return wr_field_copy(&l->field[i], fs);
}

static int
legacy_fixed(struct wr_layer *l, const char *name, uint64_t v)
{
	struct wr_field_spec fs = { .mode = WR_VARY_FIXED, .value = v };

	return legacy_field(l, name, &fs);
}

int
wr_stream_legacy_stack(const struct wr_stream *s, struct wr_layer *out)
{
	static const struct { uint8_t layer; const char *name; } map[] = {
		[WR_FIELD_ETH_SRC] = { 0, "src" },
		[WR_FIELD_ETH_DST] = { 0, "dst" },
		[WR_FIELD_VLAN_ID] = { 1, "id" },
		[WR_FIELD_VLAN_PCP] = { 1, "pcp" },
		[WR_FIELD_IPV4_SRC] = { 2, "src" },
		[WR_FIELD_IPV4_DST] = { 2, "dst" },
		[WR_FIELD_IPV4_ID] = { 2, "id" },
		[WR_FIELD_IPV4_TTL] = { 2, "ttl" },
		[WR_FIELD_IPV4_DSCP] = { 2, "dscp" },
		[WR_FIELD_UDP_SRC] = { 3, "src" },
		[WR_FIELD_UDP_DST] = { 3, "dst" },
	};
	static const char *const names[] = { "eth", "vlan", "ipv4", "udp" };
	struct wr_layer *at[4] = { NULL, NULL, NULL, NULL };
	unsigned int i, n = 0;
	int rc = 0;

	for (i = 0; i < 4; i++) {
		if (i == 1 && !s->vlan)
			continue;
		rc = wr_layer_init(&out[n], wr_proto_find(names[i]));
		if (rc < 0)
			goto fail;
		out[n].mark = s->mark;
		at[i] = &out[n++];
	}
	for (i = 0; i < WR_FIELD__COUNT && rc == 0; i++)
		if (at[map[i].layer] != NULL)
			rc = legacy_field(at[map[i].layer], map[i].name,
					  &s->field[i]);
	if (rc == 0)
		rc = legacy_fixed(at[2], "ecn", s->ecn);
	if (rc == 0)
		rc = legacy_fixed(at[2], "df", s->df);
	if (rc == 0)
		return (int)n;
fail:
	wr_stream_layers_free(out, n);
	return rc;
}

/* The shorthand's Ethernet, 802.1Q, IPv4 and UDP header lengths. */
#define ETH_HLEN 14
#define TAG_HLEN 4
#define SHORTHAND_L3L4 (20 + 8)

uint32_t
wr_stream_hdr_len(const struct wr_stream *s)
{
	uint32_t i, n = 0;

	if (s->n_layers == 0)
		return ETH_HLEN + (s->vlan ? TAG_HLEN : 0) + SHORTHAND_L3L4;
	for (i = 0; i < s->n_layers; i++)
		n += s->layers[i].proto->hlen != 0 ? s->layers[i].proto->hlen :
		     s->layers[i].raw_len;
	return n;
}

uint32_t
wr_stream_l2_len(const struct wr_stream *s)
{
	uint32_t i, n = ETH_HLEN;

	if (s->n_layers == 0)
		return ETH_HLEN + (s->vlan ? TAG_HLEN : 0);
	for (i = 1; i < s->n_layers && strcmp(s->layers[i].proto->name, "vlan") == 0; i++)
		n += s->layers[i].proto->hlen;
	return n;
}

void
wr_stream_set_mac(struct wr_stream *s, bool dst, uint64_t mac)
{
	struct wr_field_spec *fs = &s->field[dst ? WR_FIELD_ETH_DST : WR_FIELD_ETH_SRC];

	if (s->fe != NULL) {
		s->fe->mac_mode[dst] = WR_FE_MAC_VALUE;
		s->fe->mac[dst] = mac;
		wr_fe_apply_macs(s->fe);
		return;
	}
	if (s->replay != NULL)
		return;
	if (s->n_layers > 0) {
		int j = wr_proto_field_find(s->layers[0].proto, dst ? "dst" : "src");

		if (j < 0)
			return;
		fs = &s->layers[0].field[j];
	}
	wr_field_free(fs);
	wr_field_fixed(fs, mac);
}

void
wr_stream_free(struct wr_stream *s)
{
	unsigned int i;

	if (s == NULL)
		return;
	wr_stream_layers_free(s->layers, s->n_layers);
	free(s->layers);
	s->layers = NULL;
	s->n_layers = 0;
	for (i = 0; i < WR_FIELD__COUNT; i++) {
		free(s->field[i].list);
		s->field[i].list = NULL;
		s->field[i].list_len = 0;
	}
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

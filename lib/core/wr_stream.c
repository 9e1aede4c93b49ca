/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream: names, periods and ownership of the stream model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

static const char *const vary_names[] = {
#define WR_X(e, name) [WR_VARY_##e] = name,
	WR_VARY_MODES(WR_X)
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

const char *
wr_vary_mode_name(enum wr_vary_mode m)
{
	if ((unsigned int)m >= WR_VARY__COUNT)
		return NULL;
	return vary_names[m];
}

uint64_t
wr_field_period(const struct wr_field_spec *fs)
{
	switch (fs->mode) {
	case WR_VARY_INC:
		return (fs->to - fs->from) / fs->step + 1;
	case WR_VARY_DEC:
		return (fs->from - fs->to) / fs->step + 1;
	case WR_VARY_LIST:
		return fs->list_len;
	case WR_VARY_RANDOM:
		return 0;
	case WR_VARY_FIXED:
	default:
		return 1;
	}
}

uint64_t
wr_period_lcm(uint64_t a, uint64_t b)
{
	uint64_t x = a, y = b;
	unsigned __int128 l;

	while (y != 0) {
		uint64_t t = x % y;

		x = y;
		y = t;
	}
	l = (unsigned __int128)(a / x) * b;
	return l > UINT64_MAX ? UINT64_MAX : (uint64_t)l;
}

void
wr_stream_free(struct wr_stream *s)
{
	unsigned int i;

	if (s == NULL)
		return;
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
	for (i = 0; i < f->n_streams; i++)
		f->streams[i].seed = seed;
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

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_frames: frames decoded for the page: a stream's frame N (streams.frame) and captures read record by record (capture.open/read/frame). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_dissect.h"
#include "wr_frame.h"
#include "wr_replay_pcap.h"
#include "wr_server_priv.h"

/* The stream a request's "stream" names in @p f: a name or an index.
 * @return its index, or -1 (replied). */
static int
stream_of(struct call *k, const struct wr_stream_file *f)
{
	json_t *v = wr_rpc_get(k->req, "stream");
	int i = -1;

	if (json_is_string(v))
		i = wr_stream_file_find(f, json_string_value(v));
	else if (json_is_integer(v) && json_integer_value(v) >= 0 &&
		 json_integer_value(v) < (json_int_t)f->n_streams)
		i = (int)json_integer_value(v);
	if (i < 0) {
		char what[128];

		if (json_is_string(v))
			snprintf(what, sizeof(what), "\"%s\"", json_string_value(v));
		else
			snprintf(what, sizeof(what), "%" JSON_INTEGER_FORMAT,
				 json_integer_value(v));
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_NOTFOUND, NULL,
				   "streams.frame: stream: no stream %s in %s (it has %u)",
				   what, f->path, f->n_streams);
	}
	return i;
}

/* The name of the stream a signature names, NULL when the loaded file
 * has none of that index. */
static const char *
sig_stream_name(const struct wr_stream_file *f, const struct wr_dissect *d)
{
	uint32_t i = WR_SIG_STREAM(d->sig.stream_id);

	return d->has_sig && f != NULL && i < f->n_streams ? f->streams[i].name : NULL;
}

/*
 * Frame @p n of stream @p idx of @p f, as `wirerate dump` writes it
 * (wr_dump.c: the template, the cursor at n, the signature of a run
 * without refused bursts: seq n, no TSC), decoded by the stream's own
 * layers.  @return the JSON, or NULL (replied).
 */
static json_t *
frame_json(struct call *k, const struct wr_stream_file *f, int idx, uint64_t n,
	   const uint64_t *seed)
{
	struct wr_stream st = f->streams[idx];
	struct wr_frame_tmpl *t = NULL;
	struct wr_dissect *d = malloc(sizeof(*d));
	uint8_t *buf = malloc(WR_FRAME_MAX);
	struct wr_pkt_hints hints = { 0 };
	struct wr_pkt_raw raw;
	struct wr_frame_gen g;
	struct wr_error err;
	json_t *res = NULL;
	char line[1024];
	uint32_t len;
	int rc;

	if (d == NULL || buf == NULL) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_INTERNAL, NULL,
				   "streams.frame: out of memory");
		goto out;
	}
	if (seed != NULL)
		st.seed = *seed;
	wr_error_clear(&err);
	if (st.replay != NULL) {
		const struct wr_capture *c = &st.replay->cap;

		len = c->len[n % c->n];
		memcpy(buf, wr_capture_frame(c, (uint32_t)(n % c->n)), len);
	} else {
		rc = wr_frame_tmpl_create(&st, (uint32_t)idx, &t, &err);
		if (rc < 0) {
			wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STREAMS,
					   wr_srv_yaml_error_data(&err, line, sizeof(line)),
					   "%s", line);
			goto out;
		}
		memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
		wr_frame_gen_init(&g, t, n, 1);
		len = wr_frame_gen_next(&g, buf);
		if (st.latency)
			wr_frame_sig_write(t, buf, (uint16_t)len, (uint32_t)idx, n, 0);
		if (wr_frame_tmpl_rx_hint(t, &raw) == 0)
			wr_pkt_hints_add(&hints, &raw);
	}
	/* The builder's own layers where it built the frame from a stack;
	 * replayed and field-engine frames are read as received ones. */
	if (st.replay != NULL || st.n_layers == 0 ||
	    wr_dissect_built(buf, len, st.layers, st.n_layers, d) != 0)
		wr_dissect_frame(buf, len, &hints, d);
	res = wr_dissect_json(d, buf, sig_stream_name(f, d));
	if (res != NULL) {
		json_object_set_new(res, "frame", json_integer((json_int_t)n));
		json_object_set_new(res, "stream_name", json_string(st.name));
	}
out:
	wr_frame_tmpl_free(t);
	free(buf);
	free(d);
	return res;
}

/* streams.frame: frame N of a stream, from the editor's text or the
 * loaded streams, decoded. */
json_t *
wr_srv_m_frame(struct call *k)
{
	struct server *s = k->s;
	const char *yaml = wr_rpc_str(k->req, "yaml");
	const char *name = wr_rpc_str(k->req, "name");
	uint64_t n = wr_rpc_uint(k->req, "frame", 0);
	uint64_t seed = wr_rpc_uint(k->req, "seed", 0);
	struct wr_stream_file tmp;
	const struct wr_stream_file *f = &s->f;
	struct wr_error err;
	char line[1024];
	json_t *res;
	int idx;

	if (yaml != NULL) {
		memset(&tmp, 0, sizeof(tmp));
		wr_error_clear(&err);
		if (wr_srv_parse_streams(s, name ? name : "<streams.frame>", yaml,
					 &tmp, &err) != 0) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STREAMS,
					   wr_srv_yaml_error_data(&err, line, sizeof(line)),
					   "%s", line);
			return NULL;
		}
		f = &tmp;
	} else if (!s->loaded) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "streams.frame: no streams loaded: give yaml, or "
				   "streams.load first");
		return NULL;
	}
	idx = stream_of(k, f);
	res = idx < 0 ? NULL : frame_json(k, f, idx, n,
					  wr_rpc_has(k->req, "seed") ? &seed : NULL);
	if (f == &tmp)
		wr_stream_file_free(&tmp);
	return res;
}

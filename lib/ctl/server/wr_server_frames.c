/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_frames: frames decoded for the page: a stream's frame N (streams.frame) and captures read record by record (capture.open/read/frame). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <pcap/pcap.h>

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
			/* The signature as wr_dump writes it (lane 0 of the
			 * stream), so the frame is dump's byte for byte. */
			wr_frame_sig_write(t, buf, (uint16_t)len,
					   WR_SIG_ID((uint32_t)idx, 0), n, 0);
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
		if (d->has_sig)
			json_object_set_new(res, "stream", json_pack("{s:i, s:s, s:I, s:i}",
					    "index", idx, "name", st.name, "seq",
					    (json_int_t)n, "lane", 0));
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

/* ---- captures read (capture.open, capture.read, capture.frame) ---- */

static struct conn *conn_of(const struct server *s, unsigned int id);

/* Most bytes of one uploaded file: 64 MiB, a capture a page reads a page
 * of frames at a time (and 64 such files fit in a small /tmp). */
#define UPLOAD_MAX (64ull << 20)
/* A part's file bytes: its base64 must fit in one request
 * (WR_RPC_REQUEST_MAX, 1 MiB) with the method's other words. */
#define UPLOAD_PART_MAX (700u << 10)
#define READ_COUNT_DEFAULT 200
#define READ_COUNT_MAX 1000

/* The capture a request's "id" names, done (a file to read), or NULL
 * (replied). */
static struct srv_cap *
cap_done(struct call *k, const char *method)
{
	uint64_t id = wr_rpc_uint(k->req, "id", 0);
	struct srv_cap *c = id < SRV_CAPS_MAX ? &k->s->caps[id] : NULL;

	if (c == NULL || !c->used || c->uploading) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_NOTFOUND, NULL,
				   "%s: no capture %" PRIu64, method, id);
		return NULL;
	}
	if (c->state != CAP_DONE) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "%s: capture %" PRIu64 " is %s: capture.stop it, or "
				   "wait for its run to end", method, id,
				   c->state == CAP_ARMED ? "armed" : "running");
		return NULL;
	}
	return c;
}

/* The upload @p name of this connection under way, or NULL. */
static struct srv_cap *
upload_of(struct call *k, const char *name, unsigned int *id)
{
	for (*id = 0; *id < SRV_CAPS_MAX; (*id)++) {
		struct srv_cap *c = &k->s->caps[*id];

		if (c->used && c->uploading && c->up_conn == k->c->id &&
		    strcmp(c->up_name, name) == 0)
			return c;
	}
	return NULL;
}

/* Forget upload @p c, its file with it. */
static void
upload_drop(struct srv_cap *c)
{
	unlink(c->file);
	wr_srv_cap_index_free(c);
	memset(c, 0, sizeof(*c));
}

/* Part @p data of @p c's file appended; the file checked at @p eof.
 * @return 0 or -1 (replied). */
static int
upload_part(struct call *k, struct srv_cap *c, unsigned int id, const char *b64, bool eof)
{
	size_t n64 = strlen(b64);
	unsigned char *buf = malloc(n64 / 4 * 3 + 3);
	char why[PCAP_ERRBUF_SIZE + 128];
	uint64_t recs = 0;
	int len = 0, fd;

	if (n64 % 4 != 0 || buf == NULL ||
	    (len = EVP_DecodeBlock(buf, (const unsigned char *)b64, (int)n64)) < 0) {
		free(buf);
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.open: %s: part %u: data: expected base64 (RFC 4648)",
				   c->up_name, c->up_part);
		return -1;
	}
	/* EVP_DecodeBlock counts the padding's bytes as data. */
	len -= (n64 >= 1 && b64[n64 - 1] == '=') + (n64 >= 2 && b64[n64 - 2] == '=');
	if ((uint64_t)len > UPLOAD_PART_MAX || c->st.bytes + (uint64_t)len > UPLOAD_MAX) {
		free(buf);
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.open: %s: part %u: over %s (parts of at most %u "
				   "bytes, files of at most %llu MiB)", c->up_name, c->up_part,
				   (uint64_t)len > UPLOAD_PART_MAX ? "a part's size" : "a file's size",
				   UPLOAD_PART_MAX, (unsigned long long)(UPLOAD_MAX >> 20));
		return -1;
	}
	fd = open(c->file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || write(fd, buf, (size_t)len) != len) {
		if (fd >= 0)
			close(fd);
		free(buf);
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
				   "capture.open: %s: cannot write %s: %s", c->up_name,
				   c->file, strerror(errno));
		return -1;
	}
	close(fd);
	free(buf);
	c->st.bytes += (uint64_t)len;
	c->up_part++;
	if (!eof)
		return 0;
	c->state = CAP_DONE;
	c->uploading = false;
	/* libpcap reads every record once: a bad file is said now, and
	 * the index is made. */
	if (wr_srv_cap_index(c, why, sizeof(why)) == 0)
		recs = c->idx->n;
	if (c->idx == NULL || recs == 0) {
		if (recs == 0 && why[0] == '\0')
			snprintf(why, sizeof(why), "no record");
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.open: %s: %s", c->up_name, why);
		return -1;
	}
	c->st.seen = c->st.written = recs;
	c->st.files = 1;
	(void)id;
	return 0;
}

/* A new upload's slot and its file (upload-ID.pcap or .pcapng, by the
 * first bytes' magic; O_EXCL, as capture files are).  @return it, or NULL
 * (replied). */
static struct srv_cap *
upload_new(struct call *k, const char *name, const char *b64, unsigned int *id)
{
	struct server *s = k->s;
	struct srv_cap *c;
	unsigned int t;
	int fd = -1;

	/* Uploads their clients left half-way hold no slot. */
	for (*id = 0; *id < SRV_CAPS_MAX; (*id)++)
		if (s->caps[*id].used && s->caps[*id].uploading &&
		    conn_of(s, s->caps[*id].up_conn) == NULL)
			upload_drop(&s->caps[*id]);
	for (*id = 0; *id < SRV_CAPS_MAX && s->caps[*id].used; (*id)++)
		;
	if (*id == SRV_CAPS_MAX) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, "capture.open: "
				   "%u captures kept already: server.reset forgets them",
				   SRV_CAPS_MAX);
		return NULL;
	}
	c = &s->caps[*id];
	memset(c, 0, sizeof(*c));
	for (t = 0; t < 100 && fd < 0; t++) {
		/* "Cg0NCg" is base64 of pcapng's block type 0x0a0d0d0a. */
		const char *ext = strncmp(b64, "Cg0NCg", 6) == 0 ? "pcapng" : "pcap";

		if (t == 0)
			snprintf(c->file, sizeof(c->file), "%s/upload-%u.%s", s->cap_dir, *id, ext);
		else
			snprintf(c->file, sizeof(c->file), "%s/upload-%u.%u.%s", s->cap_dir,
				 *id, t, ext);
		fd = open(c->file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
				   "capture.open: no file name free in %s: %s", s->cap_dir,
				   strerror(errno));
		memset(c, 0, sizeof(*c));
		return NULL;
	}
	close(fd);
	c->used = true;
	/* Done from the start, so that no run arms it; uploading until its
	 * last part: not listed as readable meanwhile. */
	c->state = CAP_DONE;
	c->uploading = true;
	c->up_conn = k->c->id;
	snprintf(c->up_name, sizeof(c->up_name), "%s", name);
	return c;
}

/* capture.open: a pcap or pcapng file the page sends, in parts, becomes a
 * capture of capture.status's list. */
json_t *
wr_srv_m_cap_open(struct call *k)
{
	const char *name = wr_rpc_str(k->req, "name");
	const char *data = wr_rpc_str(k->req, "data");
	uint64_t part = wr_rpc_uint(k->req, "part", 0);
	bool eof = wr_rpc_bool(k->req, "eof", true);
	struct srv_cap *c;
	unsigned int id;

	if (name[0] == '\0' || strlen(name) >= sizeof(c->up_name) || strchr(name, '\n')) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.open: name: expected a file name of 1 to %zu "
				   "bytes on one line", sizeof(c->up_name) - 1);
		return NULL;
	}
	c = upload_of(k, name, &id);
	if (part == 0) {
		if (c != NULL)
			upload_drop(c); /* started again */
		c = upload_new(k, name, data, &id);
		if (c == NULL)
			return NULL;
	} else if (c == NULL || c->up_part != part) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.open: %s: part %" PRIu64 ": expected part %u%s",
				   name, part, c != NULL ? c->up_part : 0,
				   c != NULL ? "" : " (no upload of that name under way)");
		return NULL;
	}
	if (upload_part(k, c, id, data, eof) != 0) {
		upload_drop(c);
		return NULL;
	}
	return json_pack("{s:i, s:i, s:b, s:I, s:I}", "id", id, "part", (int)part, "eof", eof,
			 "bytes", (json_int_t)c->st.bytes, "frames", (json_int_t)c->st.written);
}

/* The loaded streams' raw layers, which nothing on the wire names: a
 * capture's frames are walked past them as the RX path walks its echoes
 * (wr_eng_rx_hints()), so that the signature after them is found.  Made
 * at the first read after a load (a capture may be read with no run). */
static const struct wr_pkt_hints *
cap_hints(struct server *s)
{
	uint32_t i;

	if (!s->loaded)
		return NULL;
	if (s->cap_hints_ok)
		return &s->cap_hints;
	memset(&s->cap_hints, 0, sizeof(s->cap_hints));
	for (i = 0; i < s->f.n_streams; i++) {
		const struct wr_stream *st = &s->f.streams[i];
		struct wr_frame_tmpl *t = NULL;
		struct wr_pkt_raw raw;
		struct wr_error err;

		if (st->replay != NULL || st->n_layers == 0)
			continue;
		wr_error_clear(&err);
		if (wr_frame_tmpl_create(st, i, &t, &err) >= 0 &&
		    wr_frame_tmpl_rx_hint(t, &raw) == 0)
			(void)wr_pkt_hints_add(&s->cap_hints, &raw); /* past 8: not found */
		wr_frame_tmpl_free(t);
	}
	s->cap_hints_ok = true;
	return &s->cap_hints;
}

/*
 * A capture's frame decoded into d[0] or d[1] (which is returned): by the
 * walk, past the loaded streams' raw layers; a frame carrying the
 * signature of a loaded stream built from a stack is then decoded by that
 * stream's layers, as streams.frame decodes it (options, raw bytes where
 * the builder put them), when they put the same signature where the walk
 * found it: a frame changed on its way (a tag taken off) stays the walk's.
 */
static const struct wr_dissect *
cap_dissect(struct server *s, const uint8_t *frame, uint32_t len,
	    struct wr_dissect *d[2])
{
	const struct wr_stream *st;
	uint32_t i;

	wr_dissect_frame(frame, len, cap_hints(s), d[0]);
	if (!d[0]->has_sig || !s->loaded)
		return d[0];
	i = WR_SIG_STREAM(d[0]->sig.stream_id);
	if (i >= s->f.n_streams)
		return d[0];
	st = &s->f.streams[i];
	if (st->replay != NULL || st->n_layers == 0 ||
	    wr_dissect_built(frame, len, st->layers, st->n_layers, d[1]) != 0 ||
	    !d[1]->has_sig || d[1]->sig.stream_id != d[0]->sig.stream_id ||
	    d[1]->sig.seq != d[0]->sig.seq)
		return d[0];
	return d[1];
}

/* One line of capture.read's page for record @p r. */
static json_t *
read_line(struct server *s, const struct rec *r, struct wr_dissect *dd[2])
{
	const struct wr_dissect *d = cap_dissect(s, r->data, r->h->caplen, dd);
	const char *sn = sig_stream_name(s->loaded ? &s->f : NULL, d);

	return json_pack("{s:I, s:f, s:I, s:I, s:o, s:s, s:o}", "n", (json_int_t)r->n,
			 "t", r->t, "len", (json_int_t)r->h->len, "caplen",
			 (json_int_t)r->h->caplen, "stream",
			 sn != NULL ? json_string(sn) : json_null(), "summary",
			 d->summary, "top",
			 d->top != NULL ? json_string(d->top->name) : json_null());
}

/* capture.read: a page of a capture's records (those a filter takes),
 * each in one line.  The capture's index (made at its first read) gives
 * the totals and each record's place, a filter's matches are kept: a
 * page reads its own records, whatever the capture's size. */
json_t *
wr_srv_m_cap_read(struct call *k)
{
	const char *expr = wr_rpc_str(k->req, "filter");
	uint64_t first = wr_rpc_uint(k->req, "first", 0);
	uint64_t count = wr_rpc_uint(k->req, "count", READ_COUNT_DEFAULT);
	char why[WR_FILTER_EXPR_MAX + PCAP_ERRBUF_SIZE + 64] = "";
	struct cap_reader rd = { 0 };
	const struct cap_match *m = NULL;
	struct wr_dissect *d[2] = { NULL, NULL };
	uint64_t matched, i, n;
	struct wr_filter flt;
	struct srv_cap *c;
	json_t *res = NULL, *frames = NULL, *line;
	int rc;

	if ((c = cap_done(k, "capture.read")) == NULL)
		return NULL;
	if (count > READ_COUNT_MAX) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.read: count: at most %u frames a call, got %" PRIu64,
				   READ_COUNT_MAX, count);
		return NULL;
	}
	memset(&flt, 0, sizeof(flt));
	if (expr != NULL && expr[0] != '\0' &&
	    wr_filter_compile(&flt, expr, why, sizeof(why)) != 0) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.read: filter: %s", why);
		return NULL;
	}
	frames = json_array();
	d[0] = malloc(sizeof(*d[0]));
	d[1] = malloc(sizeof(*d[1]));
	rc = frames == NULL || d[0] == NULL || d[1] == NULL ? -ENOMEM :
		wr_srv_cap_index(c, why, sizeof(why));
	if (rc == 0 && expr != NULL && expr[0] != '\0')
		m = wr_srv_cap_matches(c, &flt, expr, why, sizeof(why), &rc);
	rd.c = c;
	matched = m != NULL ? m->n : rc == 0 ? c->idx->n : 0;
	for (i = first; rc == 0 && i < matched && i - first < count; i++) {
		n = m != NULL ? m->rec[i] : i + 1;
		rc = wr_srv_cap_reader_get(&rd, n, why, sizeof(why));
		if (rc == 0) {
			line = read_line(k->s, &rd.r, d);
			rc = line == NULL || json_array_append_new(frames, line) != 0 ?
				-ENOMEM : 0;
		}
	}
	wr_srv_cap_reader_close(&rd);
	if (rc != 0) {
		wr_srv_reply_error(k->s, k->c, k->id, rc == -ENOMEM ? WR_RPC_E_INTERNAL :
				   WR_RPC_E_ENGINE, NULL, "capture.read: %s",
				   rc == -ENOMEM ? "out of memory" : why);
		json_decref(frames);
		goto out;
	}
	res = json_pack("{s:I, s:I, s:I, s:o}", "total", (json_int_t)c->idx->n,
			"matched", (json_int_t)matched, "first", (json_int_t)first,
			"frames", frames);
out:
	free(d[0]);
	free(d[1]);
	wr_filter_free(&flt);
	return res;
}

struct find_ctx {
	uint64_t want;
	bool found;
	uint64_t n;
	double t;
	uint32_t len, caplen;
	uint8_t *bytes;
};

static int
find_rec(void *arg, const struct rec *r)
{
	struct find_ctx *x = arg;

	if (r->n != x->want)
		return 0;
	x->bytes = malloc(r->h->caplen ? r->h->caplen : 1);
	if (x->bytes == NULL)
		return -ENOMEM;
	memcpy(x->bytes, r->data, r->h->caplen);
	x->found = true;
	x->n = r->n;
	x->t = r->t;
	x->len = r->h->len;
	x->caplen = r->h->caplen;
	return 1;
}

/* ---- tshark's decode, beside ours (capture.frame's tshark) ---- */

/* tshark runs as a child the loop does not wait on: its JSON goes to a
 * file, and each turn of the loop looks (waitpid WNOHANG) whether it is
 * done; a few at once, each at most TSHARK_MS (Debian's tshark starts in
 * about a second: its dissectors' tables). */
#define TSHARK_MAX 4
#define TSHARK_MS 20000
#define TSHARK_OUT_MAX (8u << 20)

struct srv_frames {
	struct tshark_job {
		pid_t pid;               /* 0: free */
		unsigned int conn_id;    /* who asked: its connection's id (never
					  * reused, unlike its address) */
		json_t *id;
		json_t *res;             /* our decode, tshark's added when done */
		uint64_t deadline_ms;
		char in[WR_CAP_PATH_MAX + 32], out[WR_CAP_PATH_MAX + 32];
	} job[TSHARK_MAX];
	unsigned int seq;
};

/* tshark's path in PATH, or NULL. */
static const char *
tshark_path(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	const char *p, *e;

	for (p = path != NULL ? path : "/usr/bin:/bin"; *p != '\0'; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (e == NULL)
			e = p + strlen(p);
		if (e == p)
			continue;
		snprintf(buf, len, "%.*s/tshark", (int)(e - p), p);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

/* One frame as a pcap file of its own at @p path. */
static int
write_one(const char *path, const struct find_ctx *x)
{
	pcap_t *p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, 262144,
							  PCAP_TSTAMP_PRECISION_MICRO);
	struct pcap_pkthdr h = { .caplen = x->caplen, .len = x->len };
	pcap_dumper_t *d;
	int fd, rc = 0;
	FILE *fp;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (p == NULL || fp == NULL) {
		if (fp == NULL && fd >= 0)
			close(fd);
		if (p != NULL)
			pcap_close(p);
		return -EIO;
	}
	d = pcap_dump_fopen(p, fp);
	if (d == NULL) {
		fclose(fp);
		pcap_close(p);
		return -EIO;
	}
	pcap_dump((u_char *)d, &h, x->bytes);
	if (pcap_dump_flush(d) != 0)
		rc = -EIO;
	pcap_dump_close(d);
	pcap_close(p);
	return rc;
}

/* Start tshark on the frame; the reply waits for it.  @return 0, or -1
 * (replied). */
static int
tshark_start(struct call *k, const struct find_ctx *x, json_t *res)
{
	struct server *s = k->s;
	char tpath[4096];
	struct tshark_job *j = NULL;
	posix_spawn_file_actions_t fa;
	unsigned int i;
	int rc;

	if (tshark_path(tpath, sizeof(tpath)) == NULL) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "capture.frame: tshark is not installed on this server "
				   "(Debian: apt-get install tshark)");
		return -1;
	}
	if (s->frames == NULL && (s->frames = calloc(1, sizeof(*s->frames))) == NULL)
		return -1;
	for (i = 0; i < TSHARK_MAX && j == NULL; i++)
		if (s->frames->job[i].pid == 0)
			j = &s->frames->job[i];
	if (j == NULL) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "capture.frame: %u tshark decodes under way already: "
				   "ask again when one has answered", TSHARK_MAX);
		return -1;
	}
	i = s->frames->seq++;
	snprintf(j->in, sizeof(j->in), "%s/tshark-%d-%u.pcap", s->cap_dir, (int)getpid(), i);
	snprintf(j->out, sizeof(j->out), "%s/tshark-%d-%u.json", s->cap_dir, (int)getpid(), i);
	if (write_one(j->in, x) != 0) {
		unlink(j->in);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
				   "capture.frame: cannot write %s", j->in);
		return -1;
	}
	{
		char *const argv[] = { "tshark", "-n", "-r", j->in, "-T", "json", "-x", NULL };

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, j->out,
						 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
		rc = posix_spawn(&j->pid, tpath, &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (rc != 0) {
		j->pid = 0;
		unlink(j->in);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
				   "capture.frame: cannot run %s: %s", tpath, strerror(rc));
		return -1;
	}
	j->conn_id = k->c->id;
	j->id = json_incref(k->id != NULL ? k->id : json_null());
	j->res = res;
	j->deadline_ms = wr_srv_now_ms() + TSHARK_MS;
	return 0;
}

/* Whether @p c is still a connection of the server's. */
/* The open connection of id @p id, or NULL: a pending answer finds its
 * client by the id, as a closed connection's memory may be a new one's. */
static struct conn *
conn_of(const struct server *s, unsigned int id)
{
	struct conn *x;

	for (x = s->conns; x != NULL; x = x->next)
		if (x->id == id && x->fd >= 0)
			return x;
	return NULL;
}

/* tshark's output: its one packet's object (-T json writes an array). */
static json_t *
tshark_read(const char *path, char *why, size_t why_len)
{
	json_error_t e;
	json_t *a;

	a = json_load_file(path, JSON_DISABLE_EOF_CHECK, &e);
	if (a == NULL) {
		snprintf(why, why_len, "tshark's output: %s", e.text);
		return NULL;
	}
	if (json_is_array(a) && json_array_size(a) == 1) {
		json_t *o = json_incref(json_array_get(a, 0));

		json_decref(a);
		return o;
	}
	json_decref(a);
	snprintf(why, why_len, "tshark's output: not one packet");
	return NULL;
}

/* Each turn of the loop: the tshark children that are done (or late)
 * answer their callers. */
void
wr_srv_frames_tick(struct server *s)
{
	uint64_t now = wr_srv_now_ms();
	char why[256];
	struct stat sb;
	unsigned int i;
	int status;

	for (i = 0; s->frames != NULL && i < TSHARK_MAX; i++) {
		struct tshark_job *j = &s->frames->job[i];
		struct conn *c;
		json_t *t = NULL;
		pid_t r;

		if (j->pid == 0)
			continue;
		r = waitpid(j->pid, &status, WNOHANG);
		if (r == 0 && now < j->deadline_ms)
			continue;
		why[0] = '\0';
		if (r == 0) {
			kill(j->pid, SIGKILL);
			waitpid(j->pid, &status, 0);
			snprintf(why, sizeof(why), "tshark took more than %u s", TSHARK_MS / 1000);
		} else if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			snprintf(why, sizeof(why), "tshark failed (status %d)",
				 r < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		} else if (stat(j->out, &sb) != 0 || (uint64_t)sb.st_size > TSHARK_OUT_MAX) {
			snprintf(why, sizeof(why), "tshark's output is missing or too large");
		} else {
			t = tshark_read(j->out, why, sizeof(why));
		}
		if ((c = conn_of(s, j->conn_id)) != NULL) {
			if (t != NULL) {
				json_object_set_new(j->res, "tshark", t);
				wr_srv_conn_send(s, c, wr_rpc_reply_result(j->id, j->res));
			} else {
				json_decref(j->res);
				wr_srv_reply_error(s, c, j->id, WR_RPC_E_ENGINE, NULL,
						   "capture.frame: %s", why);
			}
		} else {
			json_decref(t);
			json_decref(j->res);
		}
		json_decref(j->id);
		unlink(j->in);
		unlink(j->out);
		memset(j, 0, sizeof(*j));
	}
}

/* capture.frame: record n of a capture decoded, and tshark's decode of it
 * when asked. */
json_t *
wr_srv_m_cap_frame(struct call *k)
{
	struct find_ctx x = { .want = wr_rpc_uint(k->req, "n", 0) };
	char why[PCAP_ERRBUF_SIZE + 128] = "";
	struct wr_dissect *d[2] = { NULL, NULL };
	const struct wr_dissect *dd;
	struct srv_cap *c;
	json_t *res = NULL;
	int rc;

	if ((c = cap_done(k, "capture.frame")) == NULL)
		return NULL;
	rc = wr_srv_cap_index(c, why, sizeof(why));
	if (rc == 0) {
		struct cap_reader rd = { .c = c };

		rc = wr_srv_cap_reader_get(&rd, x.want, why, sizeof(why));
		if (rc == 0)
			rc = find_rec(&x, &rd.r) < 0 ? -ENOMEM : 0;
		wr_srv_cap_reader_close(&rd);
		if (rc == -ENOENT)
			rc = 0;  /* not found */
		else if (rc == -ENOMEM)
			snprintf(why, sizeof(why), "out of memory");
	}
	if (rc < 0 || !x.found) {
		wr_srv_reply_error(k->s, k->c, k->id, rc < 0 ? WR_RPC_E_ENGINE : WR_RPC_E_NOTFOUND,
				   NULL, "capture.frame: %s%s", rc < 0 ? why : "n: no record ",
				   rc < 0 ? "" : "of that number (records are numbered from 1)");
		goto out;
	}
	d[0] = malloc(sizeof(*d[0]));
	d[1] = malloc(sizeof(*d[1]));
	if (d[0] == NULL || d[1] == NULL)
		goto out;
	dd = cap_dissect(k->s, x.bytes, x.caplen, d);
	res = wr_dissect_json(dd, x.bytes, sig_stream_name(k->s->loaded ? &k->s->f : NULL, dd));
	if (res == NULL)
		goto out;
	json_object_set_new(res, "n", json_integer((json_int_t)x.n));
	json_object_set_new(res, "t", json_real(x.t));
	json_object_set_new(res, "wire_len", json_integer(x.len));
	if (wr_rpc_bool(k->req, "tshark", false)) {
		if (tshark_start(k, &x, res) != 0)
			json_decref(res);
		res = NULL; /* answered when tshark is done */
	}
out:
	free(d[0]);
	free(d[1]);
	free(x.bytes);
	return res;
}

/* The server ends: tshark children still running go with it. */
void
wr_srv_frames_free(struct server *s)
{
	unsigned int i;
	int status;

	for (i = 0; s->frames != NULL && i < TSHARK_MAX; i++) {
		struct tshark_job *j = &s->frames->job[i];

		if (j->pid == 0)
			continue;
		kill(j->pid, SIGKILL);
		waitpid(j->pid, &status, 0);
		json_decref(j->id);
		json_decref(j->res);
		unlink(j->in);
		unlink(j->out);
	}
	free(s->frames);
	s->frames = NULL;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_replay_yaml: pcap:, frame:, loops:, timing:, speedup:, rewrite:, memory: of a stream. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wr_replay_pcap.h"
#include "wr_in.h"
#include "wr_parse.h"
#include "wr_proto.h"
#include "wr_replay.h"
#include "wr_replay_yaml.h"
#include "wr_rng.h"
#include "wr_vary.h"

/* Keys of the generator a replayed stream does not use: its frames are
 * the capture's (or the given bytes). */
static const char *const generated_only[] = {
	"size", "payload", "eth", "vlan", "ipv4", "udp", "vary", "ramp",
	"bursts", "stack", "gateway", NULL
};
static const char *const replay_only[] = { WR_REPLAY_KEYS, NULL };
static const char *const field_keys[] = { "offset", "width", "value", NULL };
/* The hugepage memory a laid-out frame of @p len bytes takes at least:
 * a slot aligned to the 64-byte cache line (wr_replay_tx.c). */
#define FRAME_SLOT(len) (((uint64_t)(len) + 63) & ~(uint64_t)63)
/* The largest speedup: a 1 s gap becomes 1 us. */
#define SPEEDUP_MAX 1e6

/* `memory: 512 MiB`: bytes with an optional unit. */
static int
parse_bytes(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *out)
{
	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_bytes(wr_ynode_text(n), out, NULL, 0) != 0)
		return wr_ywalk_expected(w, n, "a size such as \"512 MiB\" or "
					 "\"2 GiB\"");
	return 0;
}

static int
parse_speedup(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *ppm)
{
	const char *text = wr_ynode_text(n);
	char *end;
	double v;

	if (n->type != WR_YNODE_SCALAR || text == NULL || text[0] == '\0')
		return wr_ywalk_expected(w, n, "a number > 0 such as 2 or 0.5");
	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || *end != '\0' || !(v > 0) || v > SPEEDUP_MAX ||
	    llround(v * 1e6) < 1)
		return wr_ywalk_expected(w, n, "a number > 0 (at most 1000000) "
					 "such as 2 or 0.5");
	*ppm = (uint64_t)llround(v * 1e6);
	return 0;
}

static int
parse_timing(struct wr_ywalk *w, const struct wr_ynode *n,
	     struct wr_replay_spec *r, struct wr_stream *s)
{
	char why[WR_PARSE_WHY_MAX];
	const char *text = wr_ynode_text(n);

	if (n->type == WR_YNODE_SCALAR && text != NULL &&
	    strcmp(text, "capture") == 0) {
		r->timing = WR_REPLAY_TIMING_CAPTURE;
		return 0;
	}
	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_rate(text, &s->rate, why, sizeof(why)) != 0)
		return wr_ywalk_expected(w, n, "capture, or a rate such as "
					 "max, \"2 Mpps\", \"10 Gbps L1\", "
					 "\"50%\"");
	r->timing = WR_REPLAY_TIMING_RATE;
	return 0;
}

/* A random range of more than 2^64 values is drawn as a prefix (the rule
 * of generated streams, wr_field_value_at): any other is refused. */
static int
check_wide(struct wr_ywalk *w, const struct wr_ynode *n,
	   const struct wr_field_spec *fs)
{
	__uint128_t r = fs->to - fs->from + 1;

	if (fs->mode != WR_VARY_RANDOM || (fs->to - fs->from) >> 64 == 0 ||
	    r == 0 || ((r & (r - 1)) == 0 && (fs->from & (r - 1)) == 0))
		return 0;
	return wr_ywalk_fail(w, n, "a random range of more than 2^64 values "
			     "must be a prefix such as {prefix: 2001:db8::/48}");
}

static int
parse_rewrite(struct wr_ywalk *w, const struct wr_ynode *n,
	      struct wr_replay_spec *r)
{
	const char *keys[WR_REWRITE__COUNT + 1];
	const struct wr_rewrite_desc *d;
	const struct wr_ynode *v;
	size_t i;
	int rc;

	for (i = 0; i < WR_REWRITE__COUNT; i++)
		keys[i] = wr_rewrite_desc((enum wr_rewrite_id)i)->name;
	keys[i] = NULL;
	rc = wr_ywalk_keys(w, n, "a mapping of fields {eth.src, eth.dst, "
			   "ipv4.src, ipv4.dst, ipv6.src, ipv6.dst}", keys);
	for (i = 0; rc == 0 && i < WR_REWRITE__COUNT; i++) {
		d = wr_rewrite_desc((enum wr_rewrite_id)i);
		v = wr_ynode_get(n, d->name);
		if (v == NULL)
			continue;
		rc = WR_YWALK_KEY(w, d->name, wr_vary_parse(w, v, d->kind,
						d->bits, &r->field[i]));
		if (rc == 0)
			rc = WR_YWALK_KEY(w, d->name, check_wide(w, v,
								 &r->field[i]));
		r->rewrite[i] = rc == 0;
	}
	return rc;
}

/* A field of a frame: stream takes the syntax of what its width holds: an
 * IPv6 address (16 bytes), a MAC (6), an IPv4 address (4), else an integer
 * of that many bytes. */
static unsigned int
width_kind(uint64_t width)
{
	switch (width) {
	case 16:
		return WR_VAL_IPV6;
	case 6:
		return WR_VAL_MAC;
	case 4:
		return WR_VAL_IPV4;
	default:
		return WR_VAL_INT;
	}
}

static int
parse_frame_field(struct wr_ywalk *w, const struct wr_ynode *n,
		  uint16_t frame_len, struct wr_replay_field *f)
{
	const struct wr_ynode *off = wr_ynode_get(n, "offset");
	const struct wr_ynode *wid = wr_ynode_get(n, "width");
	const struct wr_ynode *val = wr_ynode_get(n, "value");
	uint64_t o, wd;
	int rc;

	rc = wr_ywalk_keys(w, n, "a mapping {offset, width, value}",
			   field_keys);
	if (rc != 0)
		return rc;
	if (off == NULL)
		return wr_ywalk_missing(w, n, "offset");
	if (wid == NULL)
		return wr_ywalk_missing(w, n, "width");
	if (val == NULL)
		return wr_ywalk_missing(w, n, "value");
	rc = WR_YWALK_KEY(w, "width", wr_ywalk_u64(w, wid, 1, 16, &wd));
	if (rc == 0 && wd > 8 && wd != 16)
		rc = WR_YWALK_KEY(w, "width", wr_ywalk_expected(w, wid,
			"1 to 8 (an integer of that many bytes; 4 an IPv4 "
			"address, 6 a MAC) or 16 (an IPv6 address)"));
	if (rc == 0 && wd > frame_len)
		rc = WR_YWALK_KEY(w, "width", wr_ywalk_fail(w, wid, "a field "
			"of %u bytes does not fit the frame's %u",
			(unsigned int)wd, frame_len));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "offset", wr_ywalk_u64(w, off, 0,
			frame_len - wd, &o));
	if (rc != 0)
		return rc;
	f->offset = (uint16_t)o;
	f->width = (uint8_t)wd;
	rc = WR_YWALK_KEY(w, "value", wr_vary_parse(w, val,
		width_kind(wd), (unsigned int)wd * 8, &f->spec));
	if (rc == 0)
		rc = WR_YWALK_KEY(w, "value", check_wide(w, val, &f->spec));
	return rc;
}

/* frame: "hex" with fields: the frames of one period of its fields (each
 * moves on every frame, as `vary: together`), checksums recomputed. */
static int
parse_frame(struct wr_ywalk *w, const struct wr_ynode *n,
	    struct wr_replay_spec *r, const struct wr_stream *s)
{
	const struct wr_ynode *hex = wr_ynode_get(n, "frame");
	const struct wr_ynode *fl = wr_ynode_get(n, "fields");
	char why[WR_PARSE_WHY_MAX];
	uint8_t *bytes;
	size_t len = 0, i;
	uint64_t frames = 1;
	bool random = false;
	int rc = 0;

	bytes = malloc(WR_CAPTURE_FRAME_MAX);
	if (bytes == NULL)
		return -ENOMEM;
	if (hex->type != WR_YNODE_SCALAR ||
	    wr_parse_hex(wr_ynode_text(hex), bytes, WR_CAPTURE_FRAME_MAX, &len,
			 why, sizeof(why)) != 0 || len < WR_CAPTURE_FRAME_MIN)
		rc = WR_YWALK_KEY(w, "frame", wr_ywalk_expected(w, hex,
			"the frame's bytes in hex (14 to 9014 of them, without "
			"FCS), e.g. bytes(pkt).hex() from Scapy"));
	if (rc == 0 && fl != NULL) {
		size_t old = wr_ywalk_push_key(w, "fields");

		if (fl->type != WR_YNODE_SEQ || fl->n_kids == 0 ||
		    fl->n_kids > WR_REPLAY_FIELDS_MAX)
			rc = wr_ywalk_expected(w, fl, "a list of 1 to 16 "
					       "{offset, width, value}");
		for (i = 0; rc == 0 && i < fl->n_kids; i++) {
			size_t oi = wr_ywalk_push_index(w, i);
			struct wr_replay_field *f = &r->frame_field[i];
			uint64_t p;

			rc = parse_frame_field(w, fl->kids[i], (uint16_t)len, f);
			r->n_frame_fields = (unsigned int)i + 1;
			p = rc == 0 ? wr_field_period(&f->spec) : 1;
			if (p == 0)
				random = true;
			else if (rc == 0)
				frames = wr_period_lcm(frames, p);
			if (rc == 0 && frames > WR_REPLAY_FRAMES_MAX)
				rc = wr_ywalk_fail(w, fl->kids[i], "the fields "
					"repeat every %llu frames or more: at "
					"most %u frames are laid out",
					(unsigned long long)frames,
					WR_REPLAY_FRAMES_MAX);
			wr_ywalk_pop(w, oi);
		}
		wr_ywalk_pop(w, old);
	}
	/* A random field has no period: the frames of `count` are laid out. */
	if (rc == 0 && random) {
		if (s->count == 0 || s->count > WR_REPLAY_FRAMES_MAX)
			rc = WR_YWALK_KEY(w, "fields", wr_ywalk_fail(w, fl,
				"a random field is drawn for each frame: give "
				"count: (1 to %u frames; loops: repeat them)",
				WR_REPLAY_FRAMES_MAX));
		else if (s->count > frames)
			frames = frames * ((s->count + frames - 1) / frames);
	}
	/* The budget before anything is laid out: each frame takes at least
	 * a 64-byte-aligned slot of hugepage memory (wr_replay_tx.c), and
	 * as much ordinary memory here. */
	if (rc == 0 && frames * FRAME_SLOT(len) > r->memory_bytes)
		rc = WR_YWALK_KEY(w, "fields", wr_ywalk_fail(w, fl,
			"%llu frames of %zu bytes take at least %.1f MiB, over "
			"the stream's memory: budget of %.1f MiB: raise memory: "
			"or vary fewer values", (unsigned long long)frames, len,
			(double)(frames * FRAME_SLOT(len)) / (1 << 20),
			(double)r->memory_bytes / (1 << 20)));
	if (rc == 0)
		rc = wr_capture_from_frame("frame", bytes, (uint16_t)len,
					   (uint32_t)frames, &r->cap, w->err);
	free(bytes);
	r->from_frame = true;
	return rc;
}

/* The capture path: as written if absolute, else from the stream file's
 * directory (a stream file and its captures travel together). */
static void
resolve(const char *file, const char *path, char *out, size_t len)
{
	const char *slash = strrchr(file, '/');

	if (path[0] == '/' || slash == NULL)
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - file), file, path);
}

static int
parse_pcap(struct wr_ywalk *w, const struct wr_ynode *v,
	   struct wr_replay_spec *r)
{
	size_t old;
	int rc;

	if (v->type != WR_YNODE_SCALAR || v->len == 0)
		return WR_YWALK_KEY(w, "pcap", wr_ywalk_expected(w, v,
				    "the path of a pcap or pcapng file"));
	if (w->pcap_dir != WR_YAML_PCAP_ANY) {
		/* A client's text (the server): a capture of the operator's
		 * directory or nothing, and one answer for every name that is
		 * not one there, so that none tells what exists. */
		char why[128];
		int fd = w->pcap_dir < 0 ? -EPERM :
			 wr_in_open_beneath(w->pcap_dir, v->str,
					    r->memory_bytes, why, sizeof(why));

		snprintf(r->pcap, sizeof(r->pcap), "%s", v->str);
		if (fd == -EFBIG)
			return WR_YWALK_KEY(w, "pcap", wr_ywalk_fail(w, v,
				"%s: %s (the stream's memory: budget; raise "
				"memory:)", r->pcap, why));
		if (fd < 0)
			return WR_YWALK_KEY(w, "pcap", wr_ywalk_fail(w, v,
				"%s", w->pcap_dir < 0 ? "this server replays "
				"no capture a client names (its operator "
				"offers some with serve --pcap-dir DIR); "
				"frame: sends bytes given here" : "no such "
				"capture among the server's --pcap-dir: "
				"expected the relative name of a file there "
				"(no .., no links)"));
		rc = wr_capture_load_fd(r->pcap, fd, r->memory_bytes, &r->cap,
					w->err);
	} else {
		resolve(w->file, v->str, r->pcap, sizeof(r->pcap));
		/* Read no more than the budget: a larger file's frames
		 * could not fit it (wr_in.h). */
		rc = wr_capture_load(r->pcap, r->memory_bytes, &r->cap,
				     w->err);
	}
	if (rc == 0 || w->err == NULL)
		return rc;
	old = wr_ywalk_push_key(w, "pcap");
	if (rc == -EINVAL || rc == -ENOMEM) {
		/* A bad record: the capture's name and the record number. */
		snprintf(w->err->path, sizeof(w->err->path), "%s", w->path);
	} else {
		/* The file itself (missing, not a regular file, too large):
		 * where the stream file names it. */
		char msg[WR_ERROR_MSG_MAX];

		snprintf(msg, sizeof(msg), "%s", w->err->msg);
		rc = wr_ywalk_fail(w, v, "%s: %s%s", r->pcap, msg,
				   rc == -EFBIG ? " (the stream's memory: "
				   "budget; raise memory:)" : "");
	}
	wr_ywalk_pop(w, old);
	return rc;
}

/* Keys a replayed stream refuses, and the one it refuses in a way. */
static int
refuse_generated(struct wr_ywalk *w, const struct wr_ynode *n,
		 const struct wr_stream *s)
{
	const struct wr_ynode *v;
	size_t i;

	if (s->latency)
		return WR_YWALK_KEY(w, "latency", wr_ywalk_fail(w,
			wr_ynode_get(n, "latency"), "a replayed stream sends "
			"its frames byte for byte: a latency signature would "
			"overwrite captured bytes (use a generated stream "
			"beside it for latency)"));
	for (i = 0; generated_only[i] != NULL; i++) {
		v = wr_ynode_get(n, generated_only[i]);
		if (v != NULL)
			return WR_YWALK_KEY(w, generated_only[i], wr_ywalk_fail(w,
				v, "%s does not apply to a replayed stream: "
				"its frames are the %s's bytes (rewrite: "
				"changes addresses)", generated_only[i],
				wr_ynode_get(n, "pcap") ? "capture" : "frame"));
	}
	return 0;
}

int
wr_replay_yaml_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		     struct wr_stream *s)
{
	const struct wr_ynode *pcap = wr_ynode_get(n, "pcap");
	const struct wr_ynode *frame = wr_ynode_get(n, "frame");
	const struct wr_ynode *v;
	struct wr_replay_spec *r;
	size_t i;
	int rc;

	if (pcap == NULL && frame == NULL) {
		for (i = 0; replay_only[i] != NULL; i++)
			if ((v = wr_ynode_get(n, replay_only[i])) != NULL)
				return WR_YWALK_KEY(w, replay_only[i],
					wr_ywalk_fail(w, v, "%s applies to a "
					"replayed stream: give pcap: (a "
					"capture) or frame: (bytes)",
					replay_only[i]));
		return 0;
	}
	if (pcap != NULL && frame != NULL)
		return WR_YWALK_KEY(w, "frame", wr_ywalk_fail(w, frame,
			"give either pcap: or frame:, not both"));
	if (frame == NULL && (v = wr_ynode_get(n, "fields")) != NULL)
		return WR_YWALK_KEY(w, "fields", wr_ywalk_fail(w, v,
			"fields: vary bytes of a frame: stream; a capture's "
			"frames take rewrite:"));
	if (frame != NULL && (v = wr_ynode_get(n, "rewrite")) != NULL)
		return WR_YWALK_KEY(w, "rewrite", wr_ywalk_fail(w, v,
			"rewrite: applies to a capture; vary a frame:'s bytes "
			"with fields:"));
	rc = refuse_generated(w, n, s);
	if (rc != 0)
		return rc;
	if ((v = wr_ynode_get(n, "timing")) != NULL &&
	    wr_ynode_get(n, "rate") != NULL)
		return WR_YWALK_KEY(w, "timing", wr_ywalk_fail(w, v,
			"timing sets the rate: give either rate or timing, "
			"not both"));
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	s->replay = r;
	r->loops = 1;
	r->timing = WR_REPLAY_TIMING_RATE;
	r->speedup_ppm = WR_REPLAY_SPEEDUP_ONE;
	r->memory_bytes = WR_REPLAY_MEMORY_DEFAULT;
	for (i = 0; i < WR_REWRITE__COUNT; i++)
		r->field[i].mode = WR_VARY_FIXED;
	rc = 0;
	if ((v = wr_ynode_get(n, "loops")) != NULL)
		rc = WR_YWALK_KEY(w, "loops", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						       &r->loops));
	if (rc == 0 && (v = wr_ynode_get(n, "timing")) != NULL)
		rc = WR_YWALK_KEY(w, "timing", parse_timing(w, v, r, s));
	if (rc == 0 && (v = wr_ynode_get(n, "speedup")) != NULL) {
		rc = WR_YWALK_KEY(w, "speedup", parse_speedup(w, v,
							      &r->speedup_ppm));
		if (rc == 0 && r->timing != WR_REPLAY_TIMING_CAPTURE)
			rc = WR_YWALK_KEY(w, "speedup", wr_ywalk_fail(w, v,
				"speedup divides the capture's gaps: it needs "
				"timing: capture"));
	}
	if (rc == 0 && (v = wr_ynode_get(n, "memory")) != NULL)
		rc = WR_YWALK_KEY(w, "memory", parse_bytes(w, v,
							   &r->memory_bytes));
	if (rc == 0 && (v = wr_ynode_get(n, "rewrite")) != NULL)
		rc = WR_YWALK_KEY(w, "rewrite", parse_rewrite(w, v, r));
	if (rc != 0)
		return rc;
	/* A frame: stream's laid-out frames are one period of its fields:
	 * it runs until count or duration, as a generated stream does. */
	if (frame != NULL && wr_ynode_get(n, "loops") == NULL)
		r->loops = 0;
	rc = pcap != NULL ? parse_pcap(w, pcap, r) : parse_frame(w, n, r, s);
	if (rc != 0)
		return rc;
	wr_replay_spec_seed(r, s->seed);
	if (r->timing == WR_REPLAY_TIMING_CAPTURE &&
	    wr_replay_pass_ns(&r->cap, r->speedup_ppm) == 0)
		return WR_YWALK_KEY(w, "timing", wr_ywalk_fail(w,
			wr_ynode_get(n, "timing"), "timing: capture needs "
			"frames at two different times; %s",
			r->cap.n < 2 ? "this capture holds one frame" :
			"all this capture's frames have one time"));
	/* The sizes the report and the rates see, FCS included. */
	s->size.mode = WR_SIZE_FIXED;
	s->size.min = (uint16_t)wr_capture_wire_len(r->cap.min_len);
	s->size.max = (uint16_t)wr_capture_wire_len(r->cap.max_len);
	s->size.fixed = s->size.max;
	return 0;
}

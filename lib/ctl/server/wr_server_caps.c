/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_caps: the captures of `wirerate serve` (capture.*): armed, started with a run, ended, their files. */
#include "wr_server_priv.h"

/* ---- captures ----
 *
 * capture.start asks for a capture of a port (wr_capture_port.h): armed while no
 * traffic runs, started on the engine with the next traffic.start (from
 * its first frame), or at once during a run; it ends with capture.stop or
 * with its run.  Files go to the server's own capture directory (no
 * client names a path on the server), named capture-ID.pcapng, and are
 * read back with capture.fetch once the capture is done.
 */

static const char *
cap_dir_name(enum wr_cap_dir d)
{
	return d == WR_CAP_RX ? "rx" : d == WR_CAP_TX ? "tx" : "both";
}

/* The capture directory: --capture-dir, or a fresh private one. */
int
wr_srv_caps_dir(struct server *s, struct wr_error *err)
{
	const char *tmp = getenv("TMPDIR");

	if (s->o->capture_dir != NULL) {
		if (strlen(s->o->capture_dir) >= sizeof(s->cap_dir))
			return wr_error_set(err, -ENAMETOOLONG, NULL, 0, 0,
					    "--capture-dir", "a directory name "
					    "shorter than %zu bytes",
					    sizeof(s->cap_dir));
		snprintf(s->cap_dir, sizeof(s->cap_dir), "%s", s->o->capture_dir);
		return 0;
	}
	snprintf(s->cap_dir, sizeof(s->cap_dir), "%s/wirerate-captures-XXXXXX",
		 tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
	if (mkdtemp(s->cap_dir) == NULL)
		return wr_error_set(err, -errno, NULL, 0, 0, NULL, "cannot make "
				    "a capture directory %s: %s", s->cap_dir,
				    strerror(errno));
	s->cap_dir_made = true;
	return 0;
}

static json_t *
cap_json(const struct server *s, unsigned int id)
{
	static const char *const states[] = { "armed", "running", "done" };
	const struct srv_cap *c = &s->caps[id];
	struct wr_cap_status st = c->st;
	const char *base = strrchr(c->file, '/');
	json_t *o;

	if (c->state == CAP_RUNNING)
		wr_engine_capture_status(s->e, c->engine_id, &st);
	o = json_pack("{s:i, s:s, s:i, s:s, s:s?, s:s, s:i, s:I, s:I, s:I, "
			 "s:I, s:I, s:b, s:s?}", "id", id, "state",
			 states[c->state], "port", c->port, "dir",
			 cap_dir_name(c->dir), "filter",
			 c->has_filter ? c->filter.expr : NULL, "file",
			 base ? base + 1 : c->file, "files",
			 c->lim.files > 1 ? c->lim.files : 1,
			 "seen", (json_int_t)st.seen,
			 "written", (json_int_t)st.written,
			 "bytes", (json_int_t)st.bytes,
			 "capture_dropped", (json_int_t)st.dropped,
			 "over_limit", (json_int_t)st.over_limit,
			 "full", st.full, "error",
			 st.error ? strerror(-st.error) : NULL);
	/* capture.open's (wr_server_frames.c): a file a client sent. */
	if (o != NULL)
		json_object_set_new(o, "source", json_string(c->up_name[0] ? "upload" : "port"));
	if (o != NULL && c->up_name[0]) {
		json_object_set_new(o, "name", json_string(c->up_name));
		json_object_set_new(o, "port", json_null());
		if (c->uploading)
			json_object_set_new(o, "state", json_string("uploading"));
	}
	return o;
}

/* Start capture @p id on the built engine; failure makes it done with
 * the error (and an event). */
static void
cap_run(struct server *s, unsigned int id)
{
	struct srv_cap *c = &s->caps[id];
	struct wr_engine_cap r = {
		.port = c->port, .dir = c->dir, .file = c->file,
		.filter = c->has_filter ? &c->filter : NULL, .lim = c->lim,
	};
	struct wr_error err;
	char line[1024];
	int rc;

	wr_error_clear(&err);
	rc = wr_engine_capture_start(s->e, &r, &err);
	if (rc >= 0) {
		c->engine_id = rc;
		c->state = CAP_RUNNING;
		return;
	}
	c->state = CAP_DONE;
	c->st.error = rc;
	wr_error_format(&err, line, sizeof(line));
	wr_srv_event_push(s, "capture_done", json_pack("{s:i, s:s}", "id", id,
						       "error", line));
}

/* Before a build: the ports armed captures receive on are polled. */
void
wr_srv_caps_prepare(struct server *s)
{
	unsigned int i;

	for (i = 0; i < s->e->n_ports; i++)
		wr_engine_set_rx(s->e, i, false);
	for (i = 0; i < SRV_CAPS_MAX; i++)
		if (s->caps[i].used && s->caps[i].state == CAP_ARMED &&
		    (s->caps[i].dir & WR_CAP_RX))
			wr_engine_set_rx(s->e, s->caps[i].port, true);
}

/* After a build, before the lcores start: the armed captures run. */
void
wr_srv_caps_begin(struct server *s)
{
	unsigned int i;

	for (i = 0; i < SRV_CAPS_MAX; i++)
		if (s->caps[i].used && s->caps[i].state == CAP_ARMED)
			cap_run(s, i);
}

static void
cap_end(struct server *s, unsigned int id)
{
	struct srv_cap *c = &s->caps[id];

	if (c->state != CAP_RUNNING)
		return;
	memset(&c->st, 0, sizeof(c->st));
	c->st.error = wr_engine_capture_stop(s->e, c->engine_id, &c->st);
	c->state = CAP_DONE;
	wr_srv_event_push(s, "capture_done", cap_json(s, id));
}

/* The run ended (or the engine is rebuilt): its captures end with it. */
void
wr_srv_caps_end(struct server *s)
{
	unsigned int i;

	for (i = 0; i < SRV_CAPS_MAX; i++)
		if (s->caps[i].used)
			cap_end(s, i);
}

/* Remove the first @p n files of capture @p c: each one created by
 * cap_reserve() (or what the capture renamed over it), never another's. */
static void
cap_unlink(const struct srv_cap *c, uint32_t n)
{
	char path[WR_CAP_PATH_MAX + 16];
	uint32_t k;

	for (k = 0; k < n; k++)
		if (wr_cap_file_name(c->file, k, c->lim.files, path,
				     sizeof(path)) == 0)
			unlink(path);
}

/*
 * Name capture @p id's files and create each one (O_EXCL), empty, before
 * the capture writes it: an operator's --capture-dir may hold files of
 * its own (a capture-0.pcapng of an earlier server), and a name already
 * taken is neither written over nor removed at exit.  capture-ID.pcapng,
 * else capture-ID.1.pcapng, capture-ID.2.pcapng, ...
 * @return 0, or a negative errno (-EEXIST: no free name).
 */
static int
cap_reserve(const struct server *s, struct srv_cap *c, unsigned int id)
{
	char path[WR_CAP_PATH_MAX + 16];
	uint32_t k, n = c->lim.files > 1 ? c->lim.files : 1;
	unsigned int t;
	int fd, rc = -EEXIST;

	for (t = 0; t < 100 && rc == -EEXIST; t++) {
		if (t == 0)
			snprintf(c->file, sizeof(c->file), "%s/capture-%u.pcapng",
				 s->cap_dir, id);
		else
			snprintf(c->file, sizeof(c->file),
				 "%s/capture-%u.%u.pcapng", s->cap_dir, id, t);
		for (k = 0, rc = 0; k < n && rc == 0; ) {
			if (wr_cap_file_name(c->file, k, c->lim.files, path,
					     sizeof(path)) != 0)
				return -ENAMETOOLONG;
			fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				  O_CLOEXEC, 0600);
			if (fd < 0) {
				rc = -errno;
			} else {
				close(fd);
				k++;
			}
		}
		if (rc != 0)
			cap_unlink(c, k);
	}
	return rc;
}

/* server.reset and exit: every capture and its files go. */
void
wr_srv_caps_forget(struct server *s)
{
	unsigned int i;

	for (i = 0; i < SRV_CAPS_MAX; i++) {
		struct srv_cap *c = &s->caps[i];

		if (!c->used)
			continue;
		cap_end(s, i);
		cap_unlink(c, c->lim.files > 1 ? c->lim.files : 1);
		wr_filter_free(&c->filter);
		wr_srv_cap_index_free(c);
		memset(c, 0, sizeof(*c));
	}
	if (*s->stop && s->cap_dir_made)
		rmdir(s->cap_dir);
}

json_t *
wr_srv_m_cap_start(struct call *k)
{
	struct server *s = k->s;
	const char *dir = wr_rpc_str(k->req, "dir");
	const char *filter = wr_rpc_str(k->req, "filter");
	unsigned int port = (unsigned int)wr_rpc_uint(k->req, "port", 0), id;
	char why[WR_FILTER_EXPR_MAX + 256];
	struct srv_cap *c;
	int rc;

	/* A benchmark's trials load and start the engine themselves. */
	if (wr_srv_bench_busy(k))
		return NULL;
	if (port >= s->e->n_ports) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL, "capture."
				   "start: port %u does not exist: this server has "
				   "%u port%s", port, s->e->n_ports,
				   s->e->n_ports == 1 ? "" : "s");
		return NULL;
	}
	if (!wr_srv_owns(s, k->c, k->id, 1ull << port))
		return NULL;
	for (id = 0; id < SRV_CAPS_MAX && s->caps[id].used; id++)
		;
	if (id == SRV_CAPS_MAX) {
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_STATE, NULL, "%u captures "
				   "kept already: server.reset forgets them",
				   SRV_CAPS_MAX);
		return NULL;
	}
	c = &s->caps[id];
	memset(c, 0, sizeof(*c));
	c->port = port;
	c->dir = WR_CAP_RX;
	if (dir != NULL) {
		if (strcmp(dir, "tx") == 0)
			c->dir = WR_CAP_TX;
		else if (strcmp(dir, "both") == 0)
			c->dir = WR_CAP_BOTH;
		else if (strcmp(dir, "rx") != 0) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
					   "capture.start: dir: expected rx, tx or "
					   "both");
			return NULL;
		}
	}
	if (filter != NULL) {
		if (wr_filter_compile(&c->filter, filter, why,
				      sizeof(why)) != 0) {
			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
					   "capture.start: filter: %s", why);
			return NULL;
		}
		c->has_filter = true;
	}
	c->lim.frames = wr_rpc_uint(k->req, "count", 0);
	c->lim.bytes = wr_rpc_uint(k->req, "size", 0);
	c->lim.duration_ns = (uint64_t)(wr_rpc_num(k->req, "duration", 0) *
					1e9);
	c->lim.snaplen = (uint32_t)RTE_MIN(wr_rpc_uint(k->req, "snaplen", 0),
					   (uint64_t)UINT32_MAX);
	c->lim.files = (uint32_t)RTE_MIN(wr_rpc_uint(k->req, "files", 0),
					 (uint64_t)UINT32_MAX);
	if (wr_cap_limits_check(&c->lim, why, sizeof(why)) != 0) {
		wr_filter_free(&c->filter);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture.start: %s", why);
		return NULL;
	}
	rc = cap_reserve(s, c, id);
	if (rc != 0) {
		wr_filter_free(&c->filter);
		wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
				   "capture.start: no file name free in %s: %s",
				   s->cap_dir, strerror(-rc));
		return NULL;
	}
	c->used = true;
	c->state = CAP_ARMED;
	if (s->state == ST_RUNNING) {
		cap_run(s, id);
		if (c->state == CAP_DONE) {
			json_t *r = cap_json(s, id);

			wr_srv_reply_error(s, k->c, k->id, WR_RPC_E_ENGINE, r,
					   "capture.start: %s", strerror(-c->st.error));
			cap_unlink(c, c->lim.files > 1 ? c->lim.files : 1);
			wr_filter_free(&c->filter);
			memset(c, 0, sizeof(*c));
			return NULL;
		}
	}
	return cap_json(s, id);
}

/* The capture a request names, or NULL (replied). */
static struct srv_cap *
cap_of(struct call *k, unsigned int *id)
{
	*id = (unsigned int)RTE_MIN(wr_rpc_uint(k->req, "id", 0),
				    (uint64_t)SRV_CAPS_MAX);
	if (*id < SRV_CAPS_MAX && k->s->caps[*id].used)
		return &k->s->caps[*id];
	wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
			   "no capture %llu", (unsigned long long)
			   wr_rpc_uint(k->req, "id", 0));
	return NULL;
}

json_t *
wr_srv_m_cap_stop(struct call *k)
{
	struct srv_cap *c;
	unsigned int id;

	if ((c = cap_of(k, &id)) == NULL ||
	    !wr_srv_owns(k->s, k->c, k->id, 1ull << c->port))
		return NULL;
	if (c->state == CAP_ARMED)
		c->state = CAP_DONE; /* never ran: no file */
	cap_end(k->s, id);
	return cap_json(k->s, id);
}

json_t *
wr_srv_m_cap_status(struct call *k)
{
	json_t *a;
	unsigned int id;

	if (wr_rpc_has(k->req, "id"))
		return cap_of(k, &id) != NULL ? cap_json(k->s, id) : NULL;
	a = json_array();
	for (id = 0; id < SRV_CAPS_MAX; id++)
		if (k->s->caps[id].used)
			json_array_append_new(a, cap_json(k->s, id));
	return json_pack("{s:o}", "captures", a);
}

json_t *
wr_srv_m_cap_fetch(struct call *k)
{
	struct srv_cap *c;
	char path[WR_CAP_PATH_MAX + 16];
	uint64_t off = wr_rpc_uint(k->req, "offset", 0);
	uint64_t want = RTE_MIN(wr_rpc_uint(k->req, "length", CAP_FETCH_MAX),
				(uint64_t)CAP_FETCH_MAX);
	uint32_t parts, part = (uint32_t)RTE_MIN(wr_rpc_uint(k->req, "part",
								   0),
						 (uint64_t)UINT32_MAX);
	unsigned int id;
	struct stat sb;
	uint8_t *buf;
	ssize_t got;
	json_t *data;
	int fd;

	if ((c = cap_of(k, &id)) == NULL)
		return NULL;
	parts = c->lim.files > 1 ? c->lim.files : 1;
	if (c->state != CAP_DONE || c->st.written == 0) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, NULL,
				   "capture %u has no file to fetch%s", id,
				   c->state != CAP_DONE ? " yet: capture.stop it, "
				   "or wait for its run to end" : "");
		return NULL;
	}
	if (part >= parts ||
	    wr_cap_file_name(c->file, part, c->lim.files, path,
			     sizeof(path)) != 0 ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture %u has no part %u (it wrote %u file%s)",
				   id, part, c->st.files, c->st.files == 1 ? "" : "s");
		return NULL;
	}
	/* Empty: a name cap_reserve() holds that the capture never wrote. */
	if (fstat(fd, &sb) == 0 && sb.st_size == 0) {
		close(fd);
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_PARAMS, NULL,
				   "capture %u has no part %u (it wrote %u file%s)",
				   id, part, c->st.files, c->st.files == 1 ? "" : "s");
		return NULL;
	}
	buf = fstat(fd, &sb) == 0 ? malloc(want ? want : 1) : NULL;
	got = buf == NULL ? -1 : off >= (uint64_t)sb.st_size ? 0 :
		pread(fd, buf, want, (off_t)off);
	close(fd);
	if (got < 0) {
		free(buf);
		wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_ENGINE, NULL,
				   "capture %u: cannot read %s", id, path);
		return NULL;
	}
	data = wr_rpc_base64(buf, (size_t)got);
	free(buf);
	return json_pack("{s:i, s:i, s:i, s:I, s:I, s:I, s:b, s:o}", "id", id,
			 "part", part, "parts", parts, "offset", (json_int_t)off,
			 "length", (json_int_t)got, "size",
			 (json_int_t)sb.st_size, "eof",
			 off + (uint64_t)got >= (uint64_t)sb.st_size,
			 "data", data ? data : json_null());
}

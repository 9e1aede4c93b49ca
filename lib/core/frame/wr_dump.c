/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dump: write a stream's frames to a pcap file through libpcap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "wr_replay.h"
#include "wr_sig.h"
#include "wr_frame.h"
#include "wr_out.h"

/* Snapshot length of the dump: above WR_FRAME_MAX, the usual 65535. */
#define WR_DUMP_SNAPLEN 65535
#define US_PER_S 1000000u

/* Write frames 0..count-1 of one stream; *n numbers the records. */
static int
dump_stream(pcap_dumper_t *d, const struct wr_stream *s, uint32_t stream_id,
	    uint64_t count, uint64_t *n, uint8_t *buf, struct wr_error *err)
{
	struct wr_frame_tmpl *t;
	struct wr_frame_gen g;
	struct pcap_pkthdr h;
	uint64_t k;
	int rc;

	/* A replayed stream: its frames in the order one lane sends them,
	 * pass after pass (loops). */
	if (s->replay != NULL) {
		const struct wr_capture *c = &s->replay->cap;

		for (k = 0; k < count && (s->replay->loops == 0 ||
		     k / c->n < s->replay->loops); k++, (*n)++) {
			memset(&h, 0, sizeof(h));
			h.ts.tv_sec = (time_t)(*n / US_PER_S);
			h.ts.tv_usec = (suseconds_t)(*n % US_PER_S);
			h.caplen = h.len = c->len[k % c->n];
			pcap_dump((u_char *)d, &h,
				  wr_capture_frame(c, (uint32_t)(k % c->n)));
		}
		return 0;
	}
	rc = wr_frame_tmpl_create(s, stream_id, &t, err);
	if (rc < 0)
		return rc;
	memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
	wr_frame_gen_init(&g, t, 0, 1);
	for (k = 0; k < count; k++, (*n)++) {
		uint16_t len = wr_frame_gen_next(&g, buf);

		/* The signature lane 0 of a run would carry (the stream's
		 * index and lane 0, as wr_tx writes WR_SIG_ID), with seq =
		 * index (a run without refused bursts) and no TSC:
		 * runtime-only. */
		if (s->latency)
			wr_frame_sig_write(t, buf, len, WR_SIG_ID(stream_id, 0),
					   k, 0);
		/* Synthetic timestamps, one microsecond apart: the file is a
		 * function of the stream alone, so two dumps compare equal. */
		memset(&h, 0, sizeof(h));
		h.ts.tv_sec = (time_t)(*n / US_PER_S);
		h.ts.tv_usec = (suseconds_t)(*n % US_PER_S);
		h.caplen = len;
		h.len = len;
		pcap_dump((u_char *)d, &h, buf);
	}
	wr_frame_tmpl_free(t);
	return 0;
}

struct dump_job {
	const struct wr_stream_file *f;
	uint32_t first, last;
	uint64_t count;
	const char *path;
	uint8_t *buf;
	struct wr_error *err;
};

/* The capture through libpcap's dumper, into wr_out_atomic()'s stream.
 * The dumper closes the stream it is given, so it gets its own (a dup of
 * the descriptor: the same file, the same offset); wr_out_atomic() syncs
 * and renames the file once this returns 0. */
static int
dump_job(FILE *out, const void *arg)
{
	const struct dump_job *j = arg;
	pcap_dumper_t *d = NULL;
	pcap_t *p = NULL;
	uint64_t n = 0;
	uint32_t i;
	FILE *fp;
	int fd, rc = 0;

	fd = dup(fileno(out));
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (fp == NULL) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	p = pcap_open_dead(DLT_EN10MB, WR_DUMP_SNAPLEN);
	d = p != NULL ? pcap_dump_fopen(p, fp) : NULL;
	if (d == NULL) {
		rc = wr_error_set(j->err, -EIO, j->path, 0, 0, NULL,
				  "libpcap: %s", p != NULL ? pcap_geterr(p) :
				  "pcap_open_dead failed");
		fclose(fp);
		goto out;
	}
	for (i = j->first; i < j->last && rc == 0; i++)
		rc = dump_stream(d, &j->f->streams[i], i, j->count, &n, j->buf,
				 j->err);
	/* pcap_dump() cannot report errors; the flush and the stream's
	 * error flag do. */
	if (rc == 0 && (pcap_dump_flush(d) != 0 || ferror(fp)))
		rc = errno != 0 ? -errno : -EIO;
	pcap_dump_close(d);
out:
	if (p != NULL)
		pcap_close(p);
	return rc;
}

int
wr_frame_dump_pcap(const struct wr_stream_file *f, int stream_index,
		   uint64_t count, const char *path, struct wr_error *err)
{
	struct dump_job j = { .f = f, .count = count, .path = path,
			      .err = err };
	int rc;

	if (f == NULL || path == NULL || path[0] == '\0')
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "no stream file or output path");
	if (stream_index >= 0 && (uint32_t)stream_index >= f->n_streams)
		return wr_error_set(err, -EINVAL, f->path, 0, 0, NULL,
				    "stream %d does not exist (the file has %u)",
				    stream_index, f->n_streams);
	j.first = stream_index < 0 ? 0 : (uint32_t)stream_index;
	j.last = stream_index < 0 ? f->n_streams : j.first + 1;
	j.buf = malloc(WR_FRAME_MAX);
	if (j.buf == NULL)
		return -ENOMEM;
	wr_error_clear(err);
	rc = wr_out_atomic(path, dump_job, &j);
	free(j.buf);
	/* A stream that cannot be built said why; anything else is the
	 * file's (no such directory, a full disk, not a regular file). */
	if (rc == 0 || rc == -EINVAL || rc == -ENOMEM)
		return rc;
	if (err != NULL && err->msg[0] != '\0')
		return -EIO;
	return wr_error_set(err, -EIO, path, 0, 0, NULL, "cannot write: %s",
			    rc == -ENODEV || rc == -EISDIR ?
			    "not a regular file" : strerror(-rc));
}

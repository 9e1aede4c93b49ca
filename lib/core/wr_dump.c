/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dump: write a stream's frames to a pcap file through libpcap. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "wr_replay.h"
#include "wr_frame.h"

/* Snapshot length of the dump: above WR_FRAME_MAX, the usual 65535. */
#define WR_DUMP_SNAPLEN 65535
#define US_PER_S 1000000u

static int
io_fail(struct wr_error *err, const char *path, const char *what, int e)
{
	return wr_error_set(err, -EIO, path, 0, 0, NULL, "%s: %s", what,
			    strerror(e));
}

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

		/* The signature a run would carry, with seq = index (a run
		 * without refused bursts) and no TSC: runtime-only. */
		if (s->latency)
			wr_frame_sig_write(t, buf, len, stream_id, k, 0);
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

int
wr_frame_dump_pcap(const struct wr_stream_file *f, int stream_index,
		   uint64_t count, const char *path, struct wr_error *err)
{
	uint32_t first, last, i;
	pcap_dumper_t *d = NULL;
	pcap_t *p = NULL;
	uint8_t *buf = NULL;
	FILE *fp = NULL;
	char *tmp = NULL;
	uint64_t n = 0;
	int fd = -1, rc, e;

	if (f == NULL || path == NULL || path[0] == '\0')
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "no stream file or output path");
	if (stream_index >= 0 && (uint32_t)stream_index >= f->n_streams)
		return wr_error_set(err, -EINVAL, f->path, 0, 0, NULL,
				    "stream %d does not exist (the file has %u)",
				    stream_index, f->n_streams);
	first = stream_index < 0 ? 0 : (uint32_t)stream_index;
	last = stream_index < 0 ? f->n_streams : first + 1;

	buf = malloc(WR_FRAME_MAX);
	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0)
		tmp = NULL;
	if (buf == NULL || tmp == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	/* O_EXCL: never write through someone else's file or link; 0666 so
	 * the umask decides the final mode, as for any created file. */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		rc = io_fail(err, path, "cannot create the output", errno);
		goto out;
	}
	fp = fdopen(fd, "wb");
	if (fp == NULL) {
		rc = io_fail(err, path, "fdopen", errno);
		close(fd);
		goto unlink;
	}
	p = pcap_open_dead(DLT_EN10MB, WR_DUMP_SNAPLEN);
	d = p != NULL ? pcap_dump_fopen(p, fp) : NULL;
	if (d == NULL) {
		rc = wr_error_set(err, -EIO, path, 0, 0, NULL, "libpcap: %s",
				  p != NULL ? pcap_geterr(p) : "pcap_open_dead failed");
		fclose(fp);
		goto unlink;
	}
	for (i = first; i < last; i++) {
		rc = dump_stream(d, &f->streams[i], i, count, &n, buf, err);
		if (rc < 0) {
			pcap_dump_close(d);
			goto unlink;
		}
	}
	/* pcap_dump() cannot report errors; the stream's error flag and the
	 * flush do, and fsync makes the rename below publish a whole file. */
	if (pcap_dump_flush(d) != 0 || ferror(fp) || fsync(fd) != 0) {
		e = errno != 0 ? errno : EIO;
		pcap_dump_close(d);
		rc = io_fail(err, path, "write", e);
		goto unlink;
	}
	pcap_dump_close(d);
	if (rename(tmp, path) != 0) {
		rc = io_fail(err, path, "rename", errno);
		goto unlink;
	}
	rc = 0;
	goto out;
unlink:
	unlink(tmp);
out:
	if (p != NULL)
		pcap_close(p);
	free(tmp);
	free(buf);
	return rc;
}

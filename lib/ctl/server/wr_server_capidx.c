/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_capidx: a capture's records read by number (capture.read, capture.frame): the walk of its files, its index and the filters' matches kept. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcap/pcap.h>

#include "wr_server_priv.h"


/* File @p k of capture @p c opened for reading, or NULL with why (a name
 * the ring never wrote: NULL and why empty). */
static pcap_t *
cap_file_open(const struct srv_cap *c, uint32_t k, char *why, size_t why_len)
{
	char path[WR_CAP_PATH_MAX + 16], errbuf[PCAP_ERRBUF_SIZE];
	struct stat sb;
	pcap_t *p;

	why[0] = '\0';
	if (wr_cap_file_name(c->file, k, c->lim.files, path, sizeof(path)) != 0 ||
	    stat(path, &sb) != 0 || sb.st_size == 0)
		return NULL;
	p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (p == NULL) {
		snprintf(why, why_len, "%s", errbuf);
		return NULL;
	}
	if (pcap_datalink(p) != DLT_EN10MB) {
		snprintf(why, why_len, "link type %s, expected Ethernet (EN10MB)",
			 pcap_datalink_val_to_name(pcap_datalink(p)) ?: "unknown");
		pcap_close(p);
		return NULL;
	}
	return p;
}

/*
 * Every record of capture @p c (each file of its ring in turn) through
 * @p fn until it returns non-zero.  @return 0 (or fn's value), or -EINVAL
 * with what libpcap said and the record's number in @p why.
 */
int
wr_srv_cap_walk(const struct srv_cap *c, rec_fn *fn, void *arg, char *why, size_t why_len)
{
	uint32_t k, parts = c->lim.files > 1 ? c->lim.files : 1;
	const struct pcap_pkthdr *h;
	struct timespec t0 = { 0, 0 };
	struct rec r = { 0 };
	const u_char *data;
	pcap_t *p;
	int rc = 0, got;

	for (k = 0; k < parts && rc == 0; k++) {
		p = cap_file_open(c, k, why, why_len);
		if (p == NULL) {
			if (why[0] == '\0')
				continue; /* a name reserved that the ring never wrote */
			return -EINVAL;
		}
		while (rc == 0 && (got = pcap_next_ex(p, (struct pcap_pkthdr **)&h, &data)) == 1) {
			r.n++;
			if (r.n == 1) {
				t0.tv_sec = h->ts.tv_sec;
				t0.tv_nsec = h->ts.tv_usec; /* ns: nanosecond precision asked */
			}
			r.h = h;
			r.data = data;
			r.t = (double)(h->ts.tv_sec - t0.tv_sec) +
			      (double)((long)h->ts.tv_usec - t0.tv_nsec) / 1e9;
			rc = fn(arg, &r);
		}
		if (rc == 0 && got == PCAP_ERROR) {
			snprintf(why, why_len, "record %" PRIu64 ": %s", r.n + 1, pcap_geterr(p));
			rc = -EINVAL;
		}
		pcap_close(p);
	}
	return rc;
}

/* ---- a capture's index: a page costs its own records ---- */

void
wr_srv_cap_index_free(struct srv_cap *c)
{
	struct cap_index *x = c->idx;
	unsigned int i;

	if (x == NULL)
		return;
	for (i = 0; i < IDX_FILTERS; i++) {
		free(x->match[i].expr);
		free(x->match[i].rec);
	}
	free(x->mark);
	free(x);
	c->idx = NULL;
}

static int
mark_add(struct cap_index *x, uint64_t rec, uint32_t file, uint64_t off)
{
	if (x->n_marks == x->cap_marks) {
		uint64_t n = x->cap_marks ? 2 * x->cap_marks : 1024;
		struct cap_mark *m = realloc(x->mark, n * sizeof(*m));

		if (m == NULL)
			return -ENOMEM;
		x->mark = m;
		x->cap_marks = n;
	}
	x->mark[x->n_marks++] = (struct cap_mark){ .rec = rec, .off = off, .file = file };
	return 0;
}

/*
 * Capture @p c's index: one pass over every record (libpcap reads them
 * all, so a bad record is said here as wr_srv_cap_walk() says it), each mark
 * where libpcap's FILE stood before the record: pcap and pcapng readers
 * read a record's block from where the FILE is, nothing ahead.
 * @return 0, -EINVAL (why), -ENOMEM.
 */
int
wr_srv_cap_index(struct srv_cap *c, char *why, size_t why_len)
{
	uint32_t k, parts = c->lim.files > 1 ? c->lim.files : 1, in_file;
	const struct pcap_pkthdr *h;
	struct cap_index *x;
	const u_char *data;
	long off;
	pcap_t *p;
	int got, rc = 0;

	if (c->idx != NULL)
		return 0;
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return -ENOMEM;
	for (k = 0; k < parts && rc == 0; k++) {
		p = cap_file_open(c, k, why, why_len);
		if (p == NULL) {
			if (why[0] == '\0')
				continue;
			rc = -EINVAL;
			break;
		}
		in_file = 0;
		for (;;) {
			off = ftell(pcap_file(p));
			got = pcap_next_ex(p, (struct pcap_pkthdr **)&h, &data);
			if (got != 1)
				break;
			x->n++;
			if (x->n == 1) {
				x->t0_s = h->ts.tv_sec;
				x->t0_ns = h->ts.tv_usec; /* ns: nanosecond precision asked */
			}
			if (in_file++ % IDX_STEP == 0 &&
			    (off < 0 || (rc = mark_add(x, x->n, k, (uint64_t)off)) != 0)) {
				if (rc == 0) {
					snprintf(why, why_len, "record %" PRIu64 ": %s",
						 x->n, strerror(errno));
					rc = -EINVAL;
				}
				break;
			}
		}
		if (rc == 0 && got == PCAP_ERROR) {
			snprintf(why, why_len, "record %" PRIu64 ": %s", x->n + 1,
				 pcap_geterr(p));
			rc = -EINVAL;
		}
		pcap_close(p);
	}
	if (rc != 0) {
		free(x->mark);
		free(x);
		return rc;
	}
	c->idx = x;
	return 0;
}


void
wr_srv_cap_reader_close(struct cap_reader *rd)
{
	if (rd->p != NULL)
		pcap_close(rd->p);
	rd->p = NULL;
}

/* The last mark at or before record @p n (1 <= n <= records). */
static const struct cap_mark *
mark_of(const struct cap_index *x, uint64_t n)
{
	uint64_t lo = 0, hi = x->n_marks;

	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (x->mark[mid].rec <= n)
			lo = mid;
		else
			hi = mid;
	}
	return &x->mark[lo];
}

/* Record @p n (1-based) into rd->r (valid until the next read).
 * @return 0, -ENOENT (no such record), -EINVAL (why). */
int
wr_srv_cap_reader_get(struct cap_reader *rd, uint64_t n, char *why, size_t why_len)
{
	const struct cap_index *x = rd->c->idx;
	const struct pcap_pkthdr *h;
	const struct cap_mark *m;
	const u_char *data;
	int got;

	if (n == 0 || n > x->n || x->n_marks == 0)
		return -ENOENT;
	m = mark_of(x, n);
	if (rd->p == NULL || rd->file != m->file || rd->next > n || rd->next < m->rec) {
		wr_srv_cap_reader_close(rd);
		rd->p = cap_file_open(rd->c, m->file, why, why_len);
		if (rd->p == NULL ||
		    fseek(pcap_file(rd->p), (long)m->off, SEEK_SET) != 0) {
			if (why[0] == '\0')
				snprintf(why, why_len, "record %" PRIu64 ": the file "
					 "changed since it was read", n);
			wr_srv_cap_reader_close(rd);
			return -EINVAL;
		}
		rd->file = m->file;
		rd->next = m->rec;
	}
	for (;;) {
		got = pcap_next_ex(rd->p, (struct pcap_pkthdr **)&h, &data);
		if (got != 1) {
			snprintf(why, why_len, "record %" PRIu64 ": %s", rd->next,
				 got == PCAP_ERROR ? pcap_geterr(rd->p) :
				 "the file changed since it was read");
			wr_srv_cap_reader_close(rd);
			return -EINVAL;
		}
		if (rd->next++ == n)
			break;
	}
	rd->r.n = n;
	rd->r.h = h;
	rd->r.data = data;
	rd->r.t = (double)(h->ts.tv_sec - x->t0_s) +
		  (double)((long)h->ts.tv_usec - x->t0_ns) / 1e9;
	return 0;
}

struct match_ctx {
	struct wr_filter *flt;
	struct cap_match *m;
	uint64_t cap;
};

static int
match_rec(void *arg, const struct rec *r)
{
	struct match_ctx *x = arg;

	if (!wr_filter_match(x->flt, r->data, r->h->caplen, r->h->len))
		return 0;
	if (x->m->n == x->cap) {
		uint64_t n = x->cap ? 2 * x->cap : 1024;
		uint64_t *a = realloc(x->m->rec, n * sizeof(*a));

		if (a == NULL)
			return -ENOMEM;
		x->m->rec = a;
		x->cap = n;
	}
	x->m->rec[x->m->n++] = r->n;
	return 0;
}

/* The records filter @p flt takes in capture @p c: kept by its text, so
 * the next page of the same filter costs its own records.  @return them,
 * or NULL (rc: -EINVAL with why, -ENOMEM). */
const struct cap_match *
wr_srv_cap_matches(struct srv_cap *c, struct wr_filter *flt, const char *expr,
	    char *why, size_t why_len, int *rc)
{
	struct cap_index *x = c->idx;
	struct match_ctx mc = { .flt = flt };
	struct cap_match *m = &x->match[0];
	unsigned int i;

	for (i = 0; i < IDX_FILTERS; i++) {
		if (x->match[i].expr != NULL && strcmp(x->match[i].expr, expr) == 0) {
			x->match[i].used = ++x->clock;
			return &x->match[i];
		}
		if (x->match[i].expr == NULL || (m->expr != NULL &&
						 x->match[i].used < m->used))
			m = &x->match[i];
	}
	free(m->expr);
	free(m->rec);
	memset(m, 0, sizeof(*m));
	mc.m = m;
	*rc = wr_srv_cap_walk(c, match_rec, &mc, why, why_len);
	if (*rc == 0 && (m->expr = strdup(expr)) == NULL)
		*rc = -ENOMEM;
	if (*rc != 0) {
		free(m->rec);
		free(m->expr);
		memset(m, 0, sizeof(*m));
		return NULL;
	}
	m->used = ++x->clock;
	return m;
}

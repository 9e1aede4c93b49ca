/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_dump: a tcp class's first frames as the engines send them (wirerate's client and server back to back, a clock of their own), for `wirerate dump --pcap`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include "wr_in.h"
#include "wr_out.h"
#include "wr_tcp.h"
#include "wr_tcp_describe.h"

/* Frames in flight between the two engines at once (a window's worth). */
#define PIPE_SLOTS 512
/* A frame crosses the wire in this long (the timestamps' order). */
#define HOP_NS 10000
/* Polls at most: a class whose connection never ends still stops. */
#define ROUNDS_MAX 1000000

/* What one engine sent and the other has not taken yet. */
struct pipe {
	uint8_t (*buf)[WR_TCP_FRAME_MAX];
	uint32_t len[PIPE_SLOTS];
	uint32_t n;
	uint32_t lent;          /* the slot frame() lent, or PIPE_SLOTS */
};

static uint8_t *
pipe_frame(void *ctx, uint32_t room)
{
	struct pipe *p = ctx;

	if (p->n == PIPE_SLOTS || room > WR_TCP_FRAME_MAX)
		return NULL;
	p->lent = p->n;
	return p->buf[p->n];
}

static void
pipe_send(void *ctx, uint32_t len, uint16_t l3_off, uint16_t l4_off)
{
	struct pipe *p = ctx;

	(void)l3_off;
	(void)l4_off;
	if (p->lent != p->n)
		return;
	p->len[p->n++] = len;
	p->lent = PIPE_SLOTS;
}

struct job {
	const struct wr_tcp_class *c;
	const struct wr_host_specs *h;
	uint64_t count;
	const char *path;
	struct wr_error *err;
	const uint8_t *data;
	uint64_t data_len;
};

/* Host 0 of the group of end @p e: its MAC, tags and first address; its
 * frames go to @p peer_mac (back to back: the other end's host). */
static void
local_of(const struct wr_host_group *g, uint8_t ip, uint64_t peer_mac,
	 struct wr_tcp_local *l)
{
	int i;

	memset(l, 0, sizeof(*l));
	l->ip = ip == 6 ? g->v6.addr : g->v4.addr;
	for (i = 0; i < 6; i++) {
		l->mac[i] = (uint8_t)(g->mac >> (40 - 8 * i));
		l->nh_mac[i] = (uint8_t)(peer_mac >> (40 - 8 * i));
	}
	l->n_tags = g->n_tags;
	for (i = 0; i < g->n_tags; i++) {
		l->tpid[i] = g->tpid[i];
		l->tci[i] = (uint16_t)(g->pcp[i] << 13 | g->vlan[i]);
	}
}

/* Each frame @p from sent: into the capture, then to engine @p to. */
static uint64_t
deliver(pcap_dumper_t *d, struct pipe *from, struct wr_tcp *to, uint64_t *now,
	uint64_t written, uint64_t count)
{
	struct pcap_pkthdr hd;
	uint32_t i;

	for (i = 0; i < from->n; i++) {
		*now += HOP_NS;
		if (written < count) {
			memset(&hd, 0, sizeof(hd));
			hd.ts.tv_sec = (time_t)(*now / 1000000000u);
			hd.ts.tv_usec = (suseconds_t)(*now % 1000000000u / 1000);
			hd.caplen = hd.len = from->len[i];
			pcap_dump((u_char *)d, &hd, from->buf[i]);
			written++;
		}
		wr_tcp_input(to, from->buf[i], from->len[i], *now);
	}
	from->n = 0;
	return written;
}

/* The two engines, one connection, until @p count frames or its end. */
static int
run(const struct job *j, pcap_dumper_t *d, struct pipe *pc, struct pipe *ps)
{
	const struct wr_tcp_class *c = j->c;
	const struct wr_host_group *cg = &j->h->groups[c->client.group];
	const struct wr_host_group *sg = &j->h->groups[c->server.group];
	struct wr_tcp_class one = *c;
	struct wr_tcp_class_rt rc = { 0 }, rs = { 0 };
	struct wr_tcp_cfg cfg = { .n_lanes = 1, .n_classes = 1, .max_conns = 4,
				  .seed = 1 };
	struct wr_tcp_local cl, sl;
	struct wr_tcp *tc = NULL, *ts = NULL;
	uint64_t now = 0, written = 0, sent = 0, due, next;
	unsigned int idle = 0;
	uint32_t round = 0;
	int rcode;

	/* One connection, opened at once. */
	one.count = 1;
	one.duration_ns = 0;
	one.concurrency = 1;
	one.rate_milli = 0;
	one.ramp_ns = 0;
	local_of(cg, c->ip, sg->mac, &cl);
	local_of(sg, c->ip, cg->mac, &sl);
	rc.spec = rs.spec = &one;
	rc.clients = &cl;
	rc.n_clients = 1;
	rc.servers = &sl.ip;
	rc.n_servers = 1;
	rs.listen = &sl;
	rs.n_listen = 1;
	rc.data = rs.data = j->data;
	rc.data_len = rs.data_len = j->data_len;
	cfg.classes = &rc;
	cfg.port = cg->port;
	cfg.io = (struct wr_tcp_io){ .ctx = pc, .frame = pipe_frame,
				     .send = pipe_send };
	rcode = wr_tcp_create(&tc, &cfg, j->err);
	cfg.classes = &rs;
	cfg.port = sg->port;
	cfg.io.ctx = ps;
	if (rcode == 0)
		rcode = wr_tcp_create(&ts, &cfg, j->err);
	if (rcode != 0)
		goto out;
	wr_tcp_start(ts, now);
	wr_tcp_start(tc, now);
	for (round = 0; round < ROUNDS_MAX && written < j->count; round++) {
		due = wr_tcp_poll(tc, now);
		written = deliver(d, pc, ts, &now, written, j->count);
		next = wr_tcp_poll(ts, now);
		due = next < due ? next : due;
		written = deliver(d, ps, tc, &now, written, j->count);
		if (sent != written || pc->n != 0 || ps->n != 0) {
			sent = written;
			idle = 0;
			continue;
		}
		/* The client is done and rounds go by with nothing sent: the
		 * server's FIN came, or its timers send nothing more. */
		if (wr_tcp_done(tc) && ++idle >= 3)
			break;
		/* Nothing on the wire: a timer is next (think, delayed ACK). */
		if (due > now && due != UINT64_MAX)
			now = due;
	}
out:
	wr_tcp_free(tc);
	wr_tcp_free(ts);
	return rcode;
}

static int
dump_job(FILE *out, const void *arg)
{
	const struct job *j = arg;
	struct pipe pc = { .lent = PIPE_SLOTS }, ps = { .lent = PIPE_SLOTS };
	pcap_dumper_t *d = NULL;
	pcap_t *p = NULL;
	FILE *fp;
	int fd, rc;

	fd = dup(fileno(out));
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (fp == NULL) {
		rc = -errno;
		if (fd >= 0)
			close(fd);
		return rc;
	}
	p = pcap_open_dead(DLT_EN10MB, WR_TCP_FRAME_MAX);
	d = p != NULL ? pcap_dump_fopen(p, fp) : NULL;
	pc.buf = malloc(PIPE_SLOTS * sizeof(*pc.buf));
	ps.buf = malloc(PIPE_SLOTS * sizeof(*ps.buf));
	if (d == NULL) {
		rc = wr_error_set(j->err, -EIO, j->path, 0, 0, NULL, "libpcap: %s",
				  p != NULL ? pcap_geterr(p) : "pcap_open_dead failed");
		fclose(fp);
	} else if (pc.buf == NULL || ps.buf == NULL) {
		rc = -ENOMEM;
	} else {
		rc = run(j, d, &pc, &ps);
	}
	if (d != NULL) {
		if (rc == 0 && (pcap_dump_flush(d) != 0 || ferror(fp)))
			rc = -EIO;
		pcap_dump_close(d);
	}
	if (p != NULL)
		pcap_close(p);
	free(pc.buf);
	free(ps.buf);
	return rc;
}

int
wr_tcp_dump_pcap(const struct wr_tcp_class *c, const struct wr_host_specs *h,
		 uint64_t count, const char *path, struct wr_error *err)
{
	struct job j = { .c = c, .h = h, .count = count, .path = path,
			 .err = err };
	const struct wr_host_addr_spec *a, *b;
	char *data = NULL, why[128];
	size_t len = 0;
	int rc;

	if (!c->client.present || !c->server.present)
		return wr_error_set(err, -ENOTSUP, NULL, c->where.line,
			c->where.col, NULL, "class %s: --pcap shows a connection "
			"between wirerate's own client and server, and this "
			"class has a real %s", c->name, c->client.present ?
			"server" : "client");
	a = c->ip == 6 ? &h->groups[c->client.group].v6 :
	    &h->groups[c->client.group].v4;
	b = c->ip == 6 ? &h->groups[c->server.group].v6 :
	    &h->groups[c->server.group].v4;
	if (a->mode != WR_HOST_ADDR_STATIC || b->mode != WR_HOST_ADDR_STATIC)
		return wr_error_set(err, -ENOTSUP, NULL, c->where.line,
			c->where.col, NULL, "class %s: --pcap needs static "
			"addresses on both ends (DHCP and SLAAC ones are known "
			"at run time only)", c->name);
	if (c->data == WR_TCP_DATA_FILE) {
		rc = wr_in_read(c->data_file, c->data_size, &data, &len, why,
				sizeof(why));
		if (rc != 0)
			return wr_error_set(err, rc, c->data_file, 0, 0, NULL,
					    "%s", why);
		j.data = (const uint8_t *)data;
		j.data_len = len;
	}
	wr_error_clear(err);
	rc = wr_out_atomic(path, dump_job, &j);
	free(data);
	if (rc == 0 || (err != NULL && err->msg[0] != '\0'))
		return rc;
	return wr_error_set(err, rc, path, 0, 0, NULL, "cannot write: %s",
			    strerror(-rc));
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_test_mcast: what test_igmp and test_mld share: a port of hosts with a clock of the test's, the frames they send, a pcap for scapy. */
#ifndef WR_TEST_MCAST_H
#define WR_TEST_MCAST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_csum.h"
#include "wr_host.h"
#include "wr_mcast.h"
#include "wr_test.h"
#include "wr_ytree.h"

#define MS 1000000ull
#define SENT_MAX 512

struct sent {
	uint64_t at;            /* the test's clock when it was sent */
	uint32_t len;
	uint8_t f[WR_HOST_FRAME_MAX];
};

static struct sent sent[SENT_MAX];
static uint32_t n_sent;
static uint64_t clk;            /* the injected clock, ns */

static int
capture(void *ctx, const uint8_t *frame, uint32_t len)
{
	(void)ctx;
	if (n_sent < SENT_MAX) {
		sent[n_sent].at = clk;
		sent[n_sent].len = len;
		memcpy(sent[n_sent].f, frame, len);
		n_sent++;
	}
	return 0;
}

/* Parse `KEY: {...}` (the module's key as a stream file writes it) with
 * the module's parser; @p line gets "file:line:col: path: msg" on error. */
static int
parse_key(const struct wr_host_proto *p, const char *yaml, void **cfg,
	  char *line, size_t cap)
{
	struct wr_ynode *root = NULL;
	struct wr_error err;
	struct wr_ywalk w;
	int rc;

	wr_error_clear(&err);
	line[0] = 0;
	rc = wr_ytree_parse("h.yaml", yaml, strlen(yaml), &root, &err);
	if (rc == 0) {
		size_t old;

		wr_ywalk_init(&w, "h.yaml", &err);
		old = wr_ywalk_push_key(&w, p->name);
		rc = p->parse(&w, wr_ynode_get(root, p->name), NULL, cfg);
		wr_ywalk_pop(&w, old);
	}
	if (rc)
		wr_error_format(&err, line, cap);
	wr_ytree_free(root);
	return rc;
}

/* A port of @p count hosts, MACs 02:00:00:00:01:00 + k, IPv4
 * 10.0.0.10 + k/24 and IPv6 2001:db8::10 + k/64 (static), the module's
 * config @p cfg (owned by the specs after). */
static struct wr_host_specs specs;

static struct wr_hosts *
port_of(uint32_t count, enum wr_host_proto_id id, void *cfg)
{
	struct wr_host_group *g = calloc(1, sizeof(*g));
	struct wr_hosts *hs = NULL;
	struct wr_error err;

	wr_host_specs_free(&specs);
	memset(&specs, 0, sizeof(specs));
	strcpy(g->name, "rx");
	g->count = count;
	g->mac = 0x020000000100ull;
	g->mac_step = 1;
	g->v4.mode = WR_HOST_ADDR_STATIC;
	g->v4.addr = 0x0a00000a;
	g->v4.step = 1;
	g->v4.prefix = 24;
	g->v6.mode = WR_HOST_ADDR_STATIC;
	g->v6.addr = ((__uint128_t)0x20010db800000000ull << 64) | 0x10;
	g->v6.step = 1;
	g->v6.prefix = 64;
	g->proto_cfg[id] = cfg;
	specs.groups = g;
	specs.n = 1;
	n_sent = 0;
	clk = 1000 * MS;
	if (wr_hosts_create(&hs, &specs, 0, 7, capture, NULL, &err) != 0)
		return NULL;
	return hs;
}

/* Run the clock to @p until in 1 ms steps (the wheel's resolution). */
static void
run_to(struct wr_hosts *hs, uint64_t until)
{
	while (clk < until) {
		clk += MS;
		wr_hosts_tick(hs, clk);
	}
}

static void
inject(struct wr_hosts *hs, const uint8_t *f, uint32_t len)
{
	wr_hosts_input(hs, f, len, clk);
}

/* The frames sent since @p from (index) whose EtherType is @p type and
 * whose IP protocol / next header is @p l4 (ICMPv6 behind a hop-by-hop
 * header for MLD), into @p idx.  @return how many. */
static uint32_t
sent_of(uint32_t from, uint16_t type, uint8_t l4, uint32_t *idx, uint32_t cap)
{
	uint32_t n = 0;

	for (uint32_t i = from; i < n_sent; i++) {
		const uint8_t *f = sent[i].f;

		if ((f[12] << 8 | f[13]) != type)
			continue;
		if (type == 0x0800 && f[14 + 9] != l4)
			continue;
		if (type == 0x86dd && !(f[14 + 6] == 0 && f[14 + 40] == l4))
			continue;
		if (n < cap)
			idx[n] = i;
		n++;
	}
	return n;
}

/* A counter of the module by name. */
struct ctr_find {
	const char *name;
	uint64_t v;
	int found;
};

static void
ctr_put(void *ctx, const char *name, uint64_t v)
{
	struct ctr_find *c = ctx;
	size_t ln = strlen(name), lw = strlen(c->name);

	/* The engine may prefix the module's name ("igmp.reports_sent"). */
	if (ln >= lw && !strcmp(name + ln - lw, c->name) &&
	    (ln == lw || name[ln - lw - 1] == '.' || name[ln - lw - 1] == '_')) {
		c->v = v;
		c->found = 1;
	}
}

static uint64_t
ctr(const struct wr_hosts *hs, const struct wr_host_proto *p, const char *name)
{
	struct ctr_find c = {.name = name};

	p->counters(hs, ctr_put, &c);
	CU_ASSERT_TRUE(c.found);
	return c.v;
}

/* Write frames @p idx to a pcap file for an independent decoder. */
static int
write_pcap(const char *path, const uint32_t *idx, uint32_t n)
{
	FILE *fp = fopen(path, "wb");
	uint32_t gh[6] = {0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1};

	if (!fp)
		return -1;
	fwrite(gh, sizeof(gh), 1, fp);
	for (uint32_t i = 0; i < n; i++) {
		const struct sent *s = &sent[idx[i]];
		uint32_t rh[4] = {(uint32_t)(s->at / 1000000000ull),
				  (uint32_t)(s->at / 1000 % 1000000), s->len,
				  s->len};

		fwrite(rh, sizeof(rh), 1, fp);
		fwrite(s->f, s->len, 1, fp);
	}
	return fclose(fp);
}

/* Run /usr/bin/python3 (Debian's, with scapy) on @p script with @p pcap
 * as its argument; its output into @p out.  @return its exit status, or
 * -1 when scapy is not installed (the caller says so and skips). */
static int
scapy_run(const char *script, const char *pcap, char *out, size_t cap)
{
	char cmd[4096];
	FILE *p;
	size_t n;

	if (system("/usr/bin/python3 -c 'import scapy' 2>/dev/null") != 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -c '%s' %s 2>&1", script,
		 pcap);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, cap - 1, p);
	out[n] = 0;
	return pclose(p);
}

#endif /* WR_TEST_MCAST_H */

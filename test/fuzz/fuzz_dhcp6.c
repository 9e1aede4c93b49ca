/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: a DHCPv6 server's message as the client reads it: the
 * parser alone, and the same bytes in a checksum-valid frame to a host
 * whose transaction ID they carry (so the state machine is reached). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_dhcp6.h"
#include "wr_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wr_hosts *hs;
static struct wr_host_specs specs;
static uint64_t now = 1000000000ull;
static uint8_t last_xid[3];
static uint8_t last_src[16];

/* Keep the transaction ID and source of the last DHCPv6 message sent. */
static int
sent(void *ctx, const uint8_t *f, uint32_t len)
{
	(void)ctx;
	if (len >= 14 + 40 + 8 + 4 && wr_get16(f + 12) == 0x86dd &&
	    f[14 + 6] == WR_IPPROTO_UDP && wr_get16(f + 14 + 42) == 547) {
		memcpy(last_xid, f + 14 + 48 + 1, 3);
		memcpy(last_src, f + 14 + 8, 16);
	}
	return 0;
}

static void
setup(void)
{
	struct wr_dhcp6_cfg *c = calloc(1, sizeof(*c));
	struct wr_host_group *g = calloc(1, sizeof(*g));
	struct wr_error err;

	c->ia_na = true;
	c->ia_pd = true;
	c->rapid_commit = true;
	c->retries = 4;
	c->duid_type = 3;
	g->count = 4;
	g->mac = 0x020000000100ull;
	g->mac_step = 1;
	g->v6.mode = WR_HOST_ADDR_DHCP;
	g->v6.prefix = 64;
	g->proto_cfg[WR_HOST_PROTO_dhcp6] = c;
	specs.groups = g;
	specs.n = 1;
	if (wr_hosts_create(&hs, &specs, 0, 1, sent, NULL, &err) != 0)
		abort();
	wr_hosts_start(hs, now);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 1, 0 };
	struct wr_dhcp6_msg m;
	uint8_t f[14 + 40 + 8 + 1500], *ip = f + 14, *u = ip + 40;
	uint16_t ulen;
	uint64_t sum;

	(void)wr_dhcp6_parse(data, (uint32_t)size, &m);
	if (hs == NULL)
		setup();
	/* Time goes on 50 ms an input: hosts solicit, retransmit, renew. */
	now += 50000000ull;
	wr_hosts_tick(hs, now);
	if (size > 1500 - 8)
		return 0;
	memcpy(f, mac, 6);
	memcpy(f + 6, "\x0a\x00\x00\x00\x00\x01", 6);
	wr_put16(f + 12, 0x86dd);
	memset(ip, 0, 40);
	ip[0] = 0x60;
	ulen = (uint16_t)(8 + size);
	wr_put16(ip + 4, ulen);
	ip[6] = WR_IPPROTO_UDP;
	ip[7] = 64;
	wr_put128(ip + 8, ((__uint128_t)0xfe80000000000000ull << 64) | 1);
	memcpy(ip + 24, last_src, 16);
	wr_put16(u, 547);
	wr_put16(u + 2, 546);
	wr_put16(u + 4, ulen);
	wr_put16(u + 6, 0);
	memcpy(u + 8, data, size);
	if (size >= 4)
		memcpy(u + 9, last_xid, 3);
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + ulen + WR_IPPROTO_UDP +
	      wr_csum_sum(u, ulen);
	wr_put16(u + 6, wr_csum_udp(sum));
	wr_hosts_input(hs, f, 14 + 40 + ulen, now);
	return 0;
}

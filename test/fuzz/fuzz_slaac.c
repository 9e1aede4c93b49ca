/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: a Router Advertisement as SLAAC hosts read it: the
 * parser over the bytes as they come (checksum and all), and the same
 * ICMPv6 body in a checksum-valid RA frame to the hosts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_bytes.h"
#include "wr_csum.h"
#include "wr_slaac.h"
#include "wr_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct wr_hosts *hs;
static struct wr_host_specs specs;
static uint64_t now = 1000000000ull;

static int
sent(void *ctx, const uint8_t *f, uint32_t len)
{
	(void)ctx;
	(void)f;
	(void)len;
	return 0;
}

static void
setup(void)
{
	struct wr_slaac_cfg *c = calloc(1, sizeof(*c));
	struct wr_host_group *g = calloc(1, sizeof(*g));
	struct wr_error err;

	c->solicitations = 3;
	g->count = 4;
	g->mac = 0x020000000100ull;
	g->mac_step = 1;
	g->v6.mode = WR_HOST_ADDR_SLAAC;
	g->v6.prefix = 64;
	g->proto_cfg[WR_HOST_PROTO_slaac] = c;
	specs.groups = g;
	specs.n = 1;
	if (wr_hosts_create(&hs, &specs, 0, 1, sent, NULL, &err) != 0)
		abort();
	wr_hosts_start(hs, now);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t f[14 + 40 + 1500], *ip = f + 14, *m = ip + 40;
	struct wr_slaac_ra ra;
	uint64_t sum;

	if (size >= 40)
		(void)wr_slaac_parse(data, data + 40, (uint32_t)(size - 40), &ra);
	if (hs == NULL)
		setup();
	/* A second an input: lifetimes run out, routers expire. */
	now += 1000000000ull;
	wr_hosts_tick(hs, now);
	if (size < 4 || size > 1500)
		return 0;
	memcpy(f, "\x33\x33\x00\x00\x00\x01\x0a\x00\x00\x00\x00\x01", 12);
	wr_put16(f + 12, 0x86dd);
	memset(ip, 0, 40);
	ip[0] = 0x60;
	wr_put16(ip + 4, (uint16_t)size);
	ip[6] = WR_IPPROTO_ICMPV6;
	ip[7] = 255;
	wr_put128(ip + 8, ((__uint128_t)0xfe80000000000000ull << 64) | 1);
	wr_put128(ip + 24, ((__uint128_t)0xff02000000000000ull << 64) | 1);
	memcpy(m, data, size);
	m[0] = WR_ICMP6_RA;
	m[1] = 0;
	wr_put16(m + 2, 0);
	sum = (uint64_t)wr_csum_sum(ip + 8, 32) + size + WR_IPPROTO_ICMPV6 +
	      wr_csum_sum(m, (uint32_t)size);
	wr_put16(m + 2, (uint16_t)~wr_csum_fold(sum));
	wr_hosts_input(hs, f, 14 + 40 + (uint32_t)size, now);
	return 0;
}

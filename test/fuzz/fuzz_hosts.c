/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: frames from the wire into the host engine (wr_hosts_input): its parser, ARP/ND/echo, DAD and gateways' learning, and every module of the registry that wants them. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wr_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define S 1000000000ull

static int
drop(void *ctx, const uint8_t *frame, uint32_t len)
{
	(void)ctx;
	/* Touch every byte sent: ASan sees a frame built past its end. */
	volatile uint8_t x = 0;

	for (uint32_t i = 0; i < len; i++)
		x ^= frame[i];
	return 0;
}

/* Two groups on port 0: tagged (VLAN 100) with IPv4 and IPv6 and their
 * gateways, untagged with IPv4 only; the seeds (test/fuzz/seeds/
 * fuzz_hosts) speak to them. */
static void
groups(struct wr_host_group g[2])
{
	memset(g, 0, 2 * sizeof(*g));
	strcpy(g[0].name, "tagged");
	g[0].count = 4;
	g[0].mac = 0x021000000001ull;
	g[0].mac_step = 1;
	g[0].n_tags = 1;
	g[0].tpid[0] = 0x8100;
	g[0].vlan[0] = 100;
	g[0].v4.mode = WR_HOST_ADDR_STATIC;
	g[0].v4.addr = 0x0a00000a;
	g[0].v4.step = 1;
	g[0].v4.prefix = 24;
	g[0].v4.has_gateway = true;
	g[0].v4.gateway = 0x0a000001;
	g[0].v6.mode = WR_HOST_ADDR_STATIC;
	g[0].v6.addr = ((__uint128_t)0x20010db800000000ull << 64) | 0x10;
	g[0].v6.step = 1;
	g[0].v6.prefix = 64;
	g[0].v6.has_gateway = true;
	g[0].v6.gateway = ((__uint128_t)0x20010db800000000ull << 64) | 1;
	strcpy(g[1].name, "plain");
	g[1].count = 2;
	g[1].mac = 0x022000000001ull;
	g[1].mac_step = 1;
	g[1].v4 = g[0].v4;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_host_group g[2];
	struct wr_host_specs sp = { g, 2 };
	struct wr_hosts *hs;
	struct wr_error err;

	groups(g);
	if (wr_hosts_create(&hs, &sp, 0, 1, drop, NULL, &err) != 0)
		return 0;
	wr_hosts_start(hs, S);
	/* While the addresses are tentative and the gateways asked, then
	 * once they are preferred: each path of the engine sees the frame. */
	wr_hosts_input(hs, data, (uint32_t)size, S + 1);
	wr_hosts_tick(hs, 2 * S + 1);
	wr_hosts_input(hs, data, (uint32_t)size, 2 * S + 2);
	wr_hosts_tick(hs, 40 * S);
	wr_hosts_stop(hs, 41 * S);
	wr_hosts_free(hs);
	return 0;
}

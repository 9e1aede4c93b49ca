/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: DHCPv4 replies from the wire: the parser alone (wr_dhcp4_parse, from the UDP header on), then whole frames into four hosts leasing (wr_hosts_input). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_dhcp4.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
drop(void *ctx, const uint8_t *frame, uint32_t len)
{
	(void)ctx;
	(void)frame;
	(void)len;
	return 0;
}

static void
count(void *ctx, const char *name, uint64_t v)
{
	(void)name;
	*(uint64_t *)ctx += v;
}

/* Four hosts from 02:10:00:00:00:01 on VLAN 100, each in SELECTING with
 * the xid a fixed seed gives (the fuzzer learns it from the compares),
 * then every frame of the input in turn, 1 s apart: OFFERs lead to
 * REQUESTs, ACKs to addresses, NAKs back; a frame is the input cut at
 * each 0xff 0xfe 0xfd 0xfc marker. */
static void
through_hosts(const uint8_t *data, size_t size)
{
	static const uint8_t mark[4] = { 0xff, 0xfe, 0xfd, 0xfc };
	struct wr_host_specs specs;
	struct wr_host_group g;
	struct wr_dhcp4_cfg *c;
	struct wr_hosts *hs;
	struct wr_error err;
	uint64_t now = 0, sum = 0;
	size_t i = 0, j;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return;
	c->retries = 2;
	c->timeout_ms = 1000;
	c->option82 = true;
	strcpy(c->circuit_id, "{group}/{vlan}/{index}");
	memset(&g, 0, sizeof(g));
	strcpy(g.name, "fuzz");
	g.count = 4;
	g.mac = 0x021000000001ull;
	g.mac_step = 1;
	g.n_tags = 1;
	g.tpid[0] = 0x8100;
	g.vlan[0] = 100;
	g.v4.mode = WR_HOST_ADDR_DHCP;
	g.v4.prefix = 24;
	g.proto_cfg[WR_HOST_PROTO_dhcp4] = c;
	specs.groups = &g;
	specs.n = 1;
	if (wr_hosts_create(&hs, &specs, 0, 1, drop, NULL, &err) != 0) {
		free(c);
		return;
	}
	wr_hosts_start(hs, now);
	while (i < size) {
		for (j = i; j + 4 <= size && memcmp(data + j, mark, 4) != 0; j++)
			;
		if (j + 4 > size)
			j = size;
		wr_hosts_input(hs, data + i, (uint32_t)(j - i), now);
		now += 1000000000ull;
		(void)wr_hosts_tick(hs, now);
		i = j + 4;
	}
	wr_hosts_counters(hs, count, &sum);
	wr_hosts_stop(hs, now);
	wr_hosts_free(hs);
	free(c);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_dhcp4_msg m;

	if (size > 65535)
		return 0;
	/* The addresses of the pseudo-header as the first 8 bytes would
	 * be, then the datagram: both the checksum's paths are reached. */
	if (size >= 8)
		(void)wr_dhcp4_parse(data + 8, (uint32_t)(size - 8),
				     (uint32_t)data[0] << 24 | data[1] << 16 |
				     data[2] << 8 | data[3],
				     (uint32_t)data[4] << 24 | data[5] << 16 |
				     data[6] << 8 | data[7], &m);
	(void)wr_dhcp4_parse(data, (uint32_t)size, 0, 0xffffffffu, &m);
	through_hosts(data, size);
	return 0;
}

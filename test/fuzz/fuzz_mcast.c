/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: IGMP and MLD messages from the wire (wr_igmp_parse, wr_mld_parse, and whole frames into hosts that answer them) and the igmp:/mld: keys (wr_mcast_parse). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_error.h"
#include "wr_host.h"
#include "wr_igmp.h"
#include "wr_mld.h"
#include "wr_ytree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
drop(void *ctx, const uint8_t *frame, uint32_t len)
{
	(void)ctx;
	(void)frame;
	(void)len;
	return 0;
}

/* Four hosts with IGMP and MLD (v3/MLDv2, or @p old: v2/MLDv1), started;
 * the frame in, the clock run 30 s (every answer and repeat sent), the
 * hosts stopped (leaves). */
static void
engine(const uint8_t *frame, size_t len, bool old)
{
	static const char *const yaml[2][2] = {
		{ "{groups: [{group: 239.1.1.1, count: 3}, {group: 232.1.1.1, "
		  "sources: [10.0.0.1, 10.0.0.2]}]}",
		  "{groups: [{group: 'ff3e::1', count: 2}, {group: 'ff3e::8000:1', "
		  "sources: ['fe80::1', '2001:db8::1'], mode: exclude}]}" },
		{ "{version: 2, groups: [{group: 239.1.1.1, count: 3}]}",
		  "{version: 1, per_host: one, groups: [{group: 'ff3e::1', count: 3}]}" },
	};
	static struct wr_host_specs specs[2];
	static struct wr_host_group grp[2];
	struct wr_hosts *hs = NULL;
	struct wr_error err;
	uint64_t t = 1000000000ull;
	int k = old;

	if (specs[k].n == 0) {
		for (int m = 0; m < 2; m++) {
			struct wr_ynode *root = NULL;
			struct wr_ywalk w;

			if (wr_ytree_parse("f", yaml[k][m], strlen(yaml[k][m]),
					   &root, &err) != 0)
				return;
			wr_ywalk_init(&w, "f", &err);
			if (wr_mcast_parse(&w, root, m == 1,
				&grp[k].proto_cfg[m ? WR_HOST_PROTO_mld :
						  WR_HOST_PROTO_igmp]) != 0)
				abort();
			wr_ytree_free(root);
		}
		grp[k].count = 4;
		grp[k].mac = 0x020000000100ull;
		grp[k].mac_step = 1;
		grp[k].v4.mode = WR_HOST_ADDR_STATIC;
		grp[k].v4.addr = 0x0a00000a;
		grp[k].v4.step = 1;
		grp[k].v4.prefix = 24;
		grp[k].v6.mode = WR_HOST_ADDR_STATIC;
		grp[k].v6.addr = ((__uint128_t)0x20010db8u << 96) | 0x10;
		grp[k].v6.step = 1;
		grp[k].v6.prefix = 64;
		specs[k].groups = &grp[k];
		specs[k].n = 1;
	}
	if (wr_hosts_create(&hs, &specs[k], 0, 1, drop, NULL, &err) != 0)
		return;
	wr_hosts_start(hs, t);
	for (; t < 3000000000ull; t += 100000000ull)
		wr_hosts_tick(hs, t);
	wr_hosts_input(hs, frame, (uint32_t)len, t);
	for (; t < 33000000000ull; t += 100000000ull)
		wr_hosts_tick(hs, t);
	wr_hosts_stop(hs, t);
	wr_hosts_free(hs);
}

/* The first byte picks the parser: 0 IGMP, 1 MLD (then 16 bytes of
 * source, 16 of destination, 1 of hop limit), 2 `igmp:` YAML, 3 `mld:`,
 * 4 and 5 a frame into hosts with both (v3/MLDv2, v2/MLDv1). */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_mcast_query q;
	enum wr_mcast_counter bad;
	__uint128_t g = 0, src = 0, dst = 0;
	uint8_t *msg;

	if (size < 1)
		return 0;
	if ((data[0] & 7) >= 4) {
		msg = malloc(size - 1 ? size - 1 : 1);
		if (!msg)
			return 0;
		memcpy(msg, data + 1, size - 1);
		engine(msg, size - 1, data[0] & 1);
		free(msg);
		return 0;
	}
	switch (data[0] & 3) {
	case 0:
		/* A copy of exactly its length: ASan sees a read past it. */
		msg = malloc(size - 1 ? size - 1 : 1);
		if (!msg)
			return 0;
		memcpy(msg, data + 1, size - 1);
		if (wr_igmp_parse(msg, (uint32_t)(size - 1), &q, &g, &bad) ==
		    WR_MCAST_MSG_QUERY)
			for (uint16_t i = 0; i < q.n_src; i++)
				g += q.src[4 * i + 3];
		free(msg);
		return 0;
	case 1:
		if (size < 34)
			return 0;
		for (int i = 0; i < 16; i++) {
			src = src << 8 | data[1 + i];
			dst = dst << 8 | data[17 + i];
		}
		msg = malloc(size - 34 ? size - 34 : 1);
		if (!msg)
			return 0;
		memcpy(msg, data + 34, size - 34);
		if (wr_mld_parse(msg, (uint32_t)(size - 34), src, dst, data[33],
				 &q, &g, &bad) == WR_MCAST_MSG_QUERY)
			for (uint16_t i = 0; i < q.n_src; i++)
				g += q.src[16 * i + 15];
		free(msg);
		return 0;
	default: {
		struct wr_ynode *root = NULL;
		struct wr_error err;
		struct wr_ywalk w;
		void *cfg = NULL;
		char line[1024];

		if (wr_ytree_parse("fuzz.yaml", (const char *)data + 1,
				   size - 1, &root, &err) != 0 || !root)
			return 0;
		wr_ywalk_init(&w, "fuzz.yaml", &err);
		if (wr_mcast_parse(&w, root, (data[0] & 3) == 3, &cfg) != 0)
			wr_error_format(&err, line, sizeof(line));
		free(cfg);
		wr_ytree_free(root);
		return 0;
	}
	}
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: IGMP and MLD messages from the wire (wr_igmp_parse, wr_mld_parse) and the igmp:/mld: keys (wr_mcast_parse). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_error.h"
#include "wr_igmp.h"
#include "wr_mld.h"
#include "wr_ytree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first byte picks the parser: 0 IGMP, 1 MLD (then 16 bytes of
 * source, 16 of destination, 1 of hop limit), 2 `igmp:` YAML, 3 `mld:`. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_mcast_query q;
	enum wr_mcast_counter bad;
	__uint128_t g = 0, src = 0, dst = 0;
	uint8_t *msg;

	if (size < 1)
		return 0;
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

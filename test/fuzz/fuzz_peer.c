/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: what --peer reads from outside: the spec itself, a
 * telemetry reply to /ethdev/stats and /proc/net/dev's text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_peer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_peer_counts c;
	struct wr_peer p;
	char why[WR_PEER_SPEC_MAX + 160];
	char *s = malloc(size + 1);

	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	/* The same bytes as each input: a spec, a reply (not terminated: the
	 * parser gets a length), the kernel's table for two interfaces. */
	if (wr_peer_parse(&p, s, why, sizeof(why)) == 0)
		wr_peer_close(&p);
	(void)wr_peer_parse_ethdev_stats((const char *)data, size, &c);
	(void)wr_peer_parse_proc_net_dev(s, "eth0", &c);
	(void)wr_peer_parse_proc_net_dev(s, "veth-wr1", &c);
	free(s);
	return 0;
}

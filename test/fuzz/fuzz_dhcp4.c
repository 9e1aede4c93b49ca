/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: a DHCPv4 reply from the wire (wr_dhcp4_parse), from its UDP header on. */
#include <stddef.h>
#include <stdint.h>

#include "wr_dhcp4_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	return 0;
}

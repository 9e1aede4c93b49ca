/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the port/lcore profile loader. */
#include <stddef.h>
#include <stdint.h>

#include "wr_config.h"
#include "wr_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_config cfg;
	struct wr_error err;
	char line[1024];

	if (wr_config_load_buf("fuzz.yaml", (const char *)data, size, &cfg,
			       &err) != 0) {
		wr_error_format(&err, line, sizeof(line));
		return 0;
	}
	wr_config_free(&cfg);
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the stream-file loader, then every stream's frame template and every tcp class's description. */
#include <stddef.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_frame.h"
#include "wr_stream.h"
#include "wr_tcp_describe.h"
#include "wr_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wr_stream_file f;
	struct wr_frame_tmpl *t;
	struct wr_error err;
	char line[1024];
	uint32_t i;

	if (wr_yaml_load_streams_buf("fuzz.yaml", (const char *)data, size,
				     &f, &err) != 0) {
		/* The one line a user would see must be formattable. */
		wr_error_format(&err, line, sizeof(line));
		return 0;
	}
	/* What only building reveals (wirerate check does the same). */
	for (i = 0; i < f.n_streams; i++) {
		wr_error_clear(&err);
		if (wr_frame_tmpl_create(&f.streams[i], i, &t, &err) == 0)
			wr_frame_tmpl_free(t);
		else
			wr_error_format(&err, line, sizeof(line));
	}
	/* The tcp classes as check and dump say them. */
	for (i = 0; i < f.tcp.n; i++) {
		static char buf[WR_TCP_DESCRIBE_MAX];

		wr_tcp_describe_class(&f.tcp.classes[i], &f.hosts, "", buf,
				      sizeof(buf));
		wr_error_clear(&err);
		if (wr_tcp_describe_wire(&f.tcp.classes[i], &f.hosts, "", buf,
					 sizeof(buf), &err) != 0)
			wr_error_format(&err, line, sizeof(line));
	}
	wr_stream_file_free(&f);
	return 0;
}

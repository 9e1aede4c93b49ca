/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the server's request layer (wr_rpc) on arbitrary bytes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_rpc.h"

/*
 * What a client can send is split into requests by wr_rpc_frame() and each
 * parsed by wr_rpc_parse(); every accessor the server uses is called on what
 * parsed, and every reply is rendered, as the server would.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	size_t off = 0;

	while (off < size) {
		struct wr_rpc_error err;
		struct wr_rpc_req req;
		struct wr_rate_spec rs;
		json_t *id = NULL;
		ssize_t n = wr_rpc_frame(buf + off, size - off, 4096);
		char *line;
		unsigned int i;

		if (n < 0)
			break;
		if (n == 0)
			n = (ssize_t)(size - off); /* the tail, as a last request */
		if (wr_rpc_parse(buf + off, (size_t)n, &req, &id, &err) == 0) {
			const struct wr_rpc_method_info *m =
				&wr_rpc_methods[req.method];

			for (i = 0; i < WR_RPC_PARAMS_MAX && m->params[i].name; i++) {
				(void)wr_rpc_str(&req, m->params[i].name);
				(void)wr_rpc_uint(&req, m->params[i].name, 0);
				(void)wr_rpc_num(&req, m->params[i].name, 0);
				(void)wr_rpc_bool(&req, m->params[i].name, false);
				if (m->params[i].types & WR_RPC_T_RATE &&
				    wr_rpc_rate(&req, m->params[i].name, &rs) == -EINVAL)
					abort(); /* validated, so it must parse */
			}
			line = wr_rpc_reply_result(req.id, json_incref(req.params));
			free(line);
			wr_rpc_req_free(&req);
		} else {
			line = wr_rpc_reply_error(id, &err, NULL);
			free(line);
		}
		json_decref(id);
		off += (size_t)n;
	}
	return 0;
}

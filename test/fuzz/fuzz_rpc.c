/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the server's request layer (wr_rpc) and what it trusts (wr_auth) on arbitrary bytes. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_auth.h"
#include "wr_bench_opts.h"
#include "wr_rpc.h"

/* A session's secret, as the server holds one. */
static const char secret[] = "00112233445566778899aabbccddeeff";

/* The bytes as a token file's content: what parses is a token the server
 * would compare with. */
static void
token(const char *buf, size_t size)
{
	char tok[WR_AUTH_TOKEN_MAX + 1];
	const char *why = NULL;
	size_t i, n;

	if (wr_auth_token_parse(buf, size, tok, sizeof(tok), &why) != 0) {
		if (why == NULL)
			abort();
		return;
	}
	n = strlen(tok);
	if (n < WR_AUTH_TOKEN_MIN || n > WR_AUTH_TOKEN_MAX ||
	    memcmp(tok, buf, n) != 0 || !wr_auth_equal(tok, tok))
		abort();
	for (i = 0; i < n; i++)
		if (tok[i] <= ' ' || tok[i] > '~')
			abort();
}

/* The bytes as a sequence of logins, the way the server drives the
 * limiter: one per byte (its address, refused or a wrong token, time
 * passing); whatever the sequence, nobody waits longer than the longest
 * backoff and the summaries add up. */
static void
logins(const uint8_t *data, size_t size)
{
	static struct wr_auth_limit l;
	struct wr_auth_summary sum;
	uint64_t now = 1, wait;
	uint32_t n = 0;
	char addr[32];
	size_t i;

	wr_auth_limit_init(&l);
	for (i = 0; i < size; i++) {
		snprintf(addr, sizeof(addr), "10.0.%u.%u", data[i] >> 7,
			 data[i] & 15);
		now += (uint64_t)((data[i] >> 4) & 7) * 700;
		wait = wr_auth_limit_wait_ms(&l, addr, now);
		if (wait > WR_AUTH_BACKOFF_MAX_MS)
			abort();
		wr_auth_limit_failed(&l, addr, wait > 0, now);
		n++;
		if (wr_auth_limit_summary(&l, now, &sum)) {
			if (sum.failed != n || sum.refused > sum.failed ||
			    sum.top_fails > sum.failed || sum.sources == 0 ||
			    sum.sources > sum.failed)
				abort();
		}
		if (l.period_start_ms == 0)
			n = 0;
	}
}

/*
 * What a client can send is split into requests by wr_rpc_frame() and each
 * parsed by wr_rpc_parse(); every accessor the server uses is called on what
 * parsed, a secret compared as ports.acquire compares it, and every reply is
 * rendered, as the server would.  The same bytes are a token file and a
 * sequence of logins for wr_auth.
 */
/* The bytes as bench.start's options: NAME=VALUE lines through the
 * command line's parser, for each benchmark; what it takes stays in
 * range. */
static void
bench_options(const char *buf, size_t size)
{
	struct wr_bench_opts o;
	struct wr_error err;
	char line[256];
	size_t off = 0;
	int kind;

	for (kind = WR_BENCH_SWEEP; kind <= WR_BENCH_RTT; kind++) {
		memset(&o, 0, sizeof(o));
		for (off = 0; off < size;) {
			const char *nl = memchr(buf + off, '\n', size - off);
			size_t n = nl ? (size_t)(nl - buf - off) : size - off;
			char *eq;

			snprintf(line, sizeof(line), "%.*s", (int)(n < 255 ? n : 255),
				 buf + off);
			off += n + 1;
			eq = strchr(line, '=');
			if (eq == NULL)
				continue;
			*eq = '\0';
			if (wr_bench_opt(&o, (enum wr_bench_kind)kind, line, eq + 1,
					 &err) == -EINVAL && err.path[0] != '-')
				abort(); /* every error names its option */
		}
		if (o.n_sizes > WR_BENCH_SIZES_MAX || o.n_pairs > WR_BENCH_PAIRS_MAX ||
		    o.tx_port >= 32 || o.rx_port >= 32 ||
		    o.exceed_ppm >= 1000000 || (o.burst_set && o.burst == 0))
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	size_t off = 0;

	token(buf, size);
	logins(data, size);
	bench_options(buf, size);

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
			if (wr_auth_equal(secret, wr_rpc_str(&req, "secret")) !=
			    (wr_rpc_str(&req, "secret") != NULL &&
			     strcmp(wr_rpc_str(&req, "secret"), secret) == 0))
				abort();
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

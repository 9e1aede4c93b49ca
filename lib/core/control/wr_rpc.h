/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rpc: JSON-RPC 2.0 requests of the wirerate server: framing, parsing, validation, replies. */
#ifndef WR_RPC_H
#define WR_RPC_H

/**
 * @file
 * The server (lib/ctl/server/wr_server*.c) speaks JSON-RPC 2.0 over a stream socket,
 * one request per line (newline-delimited JSON; doc/api.md).  Everything that
 * can be wrong in what a client sends is found here, without EAL, so it is
 * unit-tested and fuzzed (test/fuzz/fuzz_rpc.c):
 *
 *     wr_rpc_frame()      where the next request ends in a receive buffer,
 *                         and whether it is already too long;
 *     wr_rpc_parse()      one request: valid JSON, "jsonrpc": "2.0", a
 *                         known method, params an object whose members are
 *                         the method's, each of the right type (rates
 *                         parsed as stream files parse them);
 *     wr_rpc_reply_*()    a response line.
 *
 * Methods are one X-macro list (WR_RPC_METHODS) with their parameters: the
 * names a client sends and the table validation reads are one list.
 *
 * Errors follow JSON-RPC 2.0: -32700 parse error, -32600 invalid request,
 * -32601 unknown method, -32602 invalid params (data: {"param", "expected"}),
 * and the server's own codes below -32000 (WR_RPC_E_*).
 *
 * Thread-safety: reentrant; jansson values are not shared between threads.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "wr_stream.h"

/** Largest request accepted, newline included (a stream file of 100s of streams fits). */
#define WR_RPC_REQUEST_MAX (1024 * 1024)

/* JSON-RPC 2.0 error codes. */
#define WR_RPC_E_PARSE (-32700)
#define WR_RPC_E_REQUEST (-32600)
#define WR_RPC_E_METHOD (-32601)
#define WR_RPC_E_PARAMS (-32602)
#define WR_RPC_E_INTERNAL (-32603)
/* The server's (implementation-defined range -32000..-32099). */
#define WR_RPC_E_STREAMS (-32000)   /**< the YAML text: data has file, line, col, path */
#define WR_RPC_E_OWNER (-32001)     /**< ports owned by another session */
#define WR_RPC_E_STATE (-32002)     /**< not now: nothing loaded, already running, ... */
#define WR_RPC_E_NOTFOUND (-32003)  /**< a stream or port that does not exist */
#define WR_RPC_E_ENGINE (-32004)    /**< the data path refused (data: errno) */
#define WR_RPC_E_AUTH (-32005)      /**< TCP: auth.login first */

/** Parameter types (a mask: "rate" may be a string or a number). */
enum wr_rpc_type {
	WR_RPC_T_STR = 1 << 0,
	WR_RPC_T_UINT = 1 << 1,      /**< an integer >= 0 */
	WR_RPC_T_NUM = 1 << 2,       /**< a finite number >= 0 */
	WR_RPC_T_BOOL = 1 << 3,
	WR_RPC_T_STRS = 1 << 4,      /**< an array of strings */
	WR_RPC_T_UINTS = 1 << 5,     /**< an array of integers >= 0 */
	WR_RPC_T_RATE = 1 << 6,      /**< "10 Mpps", "50%", "max" or pps as a number > 0 */
	WR_RPC_T_POS = 1 << 7,       /**< a finite number > 0 */
	WR_RPC_T_OBJ = 1 << 8,       /**< an object (its members checked by the method) */
};

struct wr_rpc_param {
	const char *name;
	unsigned int types;          /**< enum wr_rpc_type mask */
	bool required;
};

#define WR_RPC_PARAMS_MAX 8

/*
 * X(enum suffix, method name, handler, needs ownership, parameters...): one
 * line per method.  "Handler" names the server's function for it
 * (wr_srv_m_<handler>, lib/ctl/server): the server's dispatch table is
 * expanded from this list, so a method without a handler does not compile,
 * while this library, below the server, holds no pointer to it.  "Needs
 * ownership" methods change what the ports send: the caller's session must
 * own the ports (ports.acquire).
 */
#define WR_RPC_P(n, t, r) { n, t, r }
#define WR_RPC_METHODS(X) \
	X(HELLO, "server.info", info, false) \
	X(PORTS, "ports.info", ports, false) \
	X(ACQUIRE, "ports.acquire", acquire, false, \
	  WR_RPC_P("ports", WR_RPC_T_UINTS, false), \
	  WR_RPC_P("force", WR_RPC_T_BOOL, false), \
	  WR_RPC_P("session", WR_RPC_T_STR, false), \
	  WR_RPC_P("secret", WR_RPC_T_STR, false)) \
	X(RELEASE, "ports.release", release, false, \
	  WR_RPC_P("ports", WR_RPC_T_UINTS, false)) \
	X(LOAD, "streams.load", load, true, \
	  WR_RPC_P("yaml", WR_RPC_T_STR, true), \
	  WR_RPC_P("name", WR_RPC_T_STR, false)) \
	X(REMOVE, "streams.remove", remove, true, \
	  WR_RPC_P("streams", WR_RPC_T_STRS, false)) \
	X(LIST, "streams.list", list, false, \
	  WR_RPC_P("source", WR_RPC_T_BOOL, false)) \
	X(CHECK, "streams.check", check, false, \
	  WR_RPC_P("yaml", WR_RPC_T_STR, true), \
	  WR_RPC_P("name", WR_RPC_T_STR, false)) \
	X(PROTOCOLS, "protocols.list", protocols, false) \
	X(PARSE, "streams.parse", parse, false, \
	  WR_RPC_P("yaml", WR_RPC_T_STR, true), \
	  WR_RPC_P("name", WR_RPC_T_STR, false)) \
	X(START, "traffic.start", start, true, \
	  WR_RPC_P("streams", WR_RPC_T_STRS, false), \
	  WR_RPC_P("rate", WR_RPC_T_RATE, false), \
	  WR_RPC_P("count", WR_RPC_T_UINT, false), \
	  WR_RPC_P("duration", WR_RPC_T_POS, false), \
	  WR_RPC_P("start_at", WR_RPC_T_POS, false), \
	  WR_RPC_P("drain", WR_RPC_T_NUM, false), \
	  WR_RPC_P("seed", WR_RPC_T_UINT, false), \
	  WR_RPC_P("hold", WR_RPC_T_BOOL, false)) \
	X(STOP, "traffic.stop", stop, true, \
	  WR_RPC_P("streams", WR_RPC_T_STRS, false)) \
	X(PAUSE, "traffic.pause", pause, true, \
	  WR_RPC_P("streams", WR_RPC_T_STRS, false)) \
	X(RESUME, "traffic.resume", resume, true, \
	  WR_RPC_P("streams", WR_RPC_T_STRS, false)) \
	X(UPDATE, "traffic.update", update, true, \
	  WR_RPC_P("streams", WR_RPC_T_STRS, false), \
	  WR_RPC_P("rate", WR_RPC_T_RATE, false), \
	  WR_RPC_P("multiplier", WR_RPC_T_POS, false)) \
	X(WAIT, "traffic.wait", wait, false, \
	  WR_RPC_P("timeout", WR_RPC_T_NUM, false)) \
	X(STATS, "stats.get", stats, false, \
	  WR_RPC_P("histogram", WR_RPC_T_BOOL, false), \
	  WR_RPC_P("counters", WR_RPC_T_BOOL, false)) \
	X(CLEAR, "stats.clear", clear, true) \
	X(RESET, "server.reset", reset, true) \
	X(POLL, "events.poll", poll, false, \
	  WR_RPC_P("since", WR_RPC_T_UINT, false)) \
	X(SUBSCRIBE, "events.subscribe", subscribe, false) \
	X(UNSUBSCRIBE, "events.unsubscribe", unsubscribe, false) \
	X(LOGIN, "auth.login", login, false, \
	  WR_RPC_P("token", WR_RPC_T_STR, true)) \
	X(BENCH_START, "bench.start", bench_start, true, \
	  WR_RPC_P("kind", WR_RPC_T_STR, true), \
	  WR_RPC_P("options", WR_RPC_T_OBJ, false), \
	  WR_RPC_P("yaml", WR_RPC_T_STR, false), \
	  WR_RPC_P("name", WR_RPC_T_STR, false)) \
	X(BENCH_STATUS, "bench.status", bench_status, false, \
	  WR_RPC_P("job", WR_RPC_T_UINT, false)) \
	X(BENCH_CANCEL, "bench.cancel", bench_cancel, true, \
	  WR_RPC_P("job", WR_RPC_T_UINT, false)) \
	X(BENCH_RESULT, "bench.result", bench_result, false, \
	  WR_RPC_P("job", WR_RPC_T_UINT, false), \
	  WR_RPC_P("format", WR_RPC_T_STR, false)) \
	X(BENCH_LIST, "bench.list", bench_list, false) \
	X(RUNS_LIST, "runs.list", runs_list, false, \
	  WR_RPC_P("kind", WR_RPC_T_STR, false), \
	  WR_RPC_P("limit", WR_RPC_T_UINT, false)) \
	X(RUNS_GET, "runs.get", runs_get, false, \
	  WR_RPC_P("id", WR_RPC_T_UINT, true)) \
	X(RUNS_DELETE, "runs.delete", runs_delete, true, \
	  WR_RPC_P("ids", WR_RPC_T_UINTS, true)) \
	X(CAP_START, "capture.start", cap_start, true, \
	  WR_RPC_P("port", WR_RPC_T_UINT, true), \
	  WR_RPC_P("dir", WR_RPC_T_STR, false), \
	  WR_RPC_P("filter", WR_RPC_T_STR, false), \
	  WR_RPC_P("count", WR_RPC_T_UINT, false), \
	  WR_RPC_P("size", WR_RPC_T_UINT, false), \
	  WR_RPC_P("duration", WR_RPC_T_POS, false), \
	  WR_RPC_P("snaplen", WR_RPC_T_UINT, false), \
	  WR_RPC_P("files", WR_RPC_T_UINT, false)) \
	X(CAP_STOP, "capture.stop", cap_stop, true, \
	  WR_RPC_P("id", WR_RPC_T_UINT, true)) \
	X(CAP_STATUS, "capture.status", cap_status, false, \
	  WR_RPC_P("id", WR_RPC_T_UINT, false)) \
	X(CAP_FETCH, "capture.fetch", cap_fetch, false, \
	  WR_RPC_P("id", WR_RPC_T_UINT, true), \
	  WR_RPC_P("part", WR_RPC_T_UINT, false), \
	  WR_RPC_P("offset", WR_RPC_T_UINT, false), \
	  WR_RPC_P("length", WR_RPC_T_UINT, false)) \
	X(FRAME, "streams.frame", frame, false, \
	  WR_RPC_P("yaml", WR_RPC_T_STR, false), \
	  WR_RPC_P("name", WR_RPC_T_STR, false), \
	  WR_RPC_P("stream", WR_RPC_T_STR | WR_RPC_T_UINT, true), \
	  WR_RPC_P("frame", WR_RPC_T_UINT, false), \
	  WR_RPC_P("seed", WR_RPC_T_UINT, false)) \
	X(CAP_OPEN, "capture.open", cap_open, false, \
	  WR_RPC_P("name", WR_RPC_T_STR, true), \
	  WR_RPC_P("data", WR_RPC_T_STR, true), \
	  WR_RPC_P("part", WR_RPC_T_UINT, false), \
	  WR_RPC_P("eof", WR_RPC_T_BOOL, false)) \
	X(CAP_READ, "capture.read", cap_read, false, \
	  WR_RPC_P("id", WR_RPC_T_UINT, true), \
	  WR_RPC_P("filter", WR_RPC_T_STR, false), \
	  WR_RPC_P("first", WR_RPC_T_UINT, false), \
	  WR_RPC_P("count", WR_RPC_T_UINT, false)) \
	X(CAP_FRAME, "capture.frame", cap_frame, false, \
	  WR_RPC_P("id", WR_RPC_T_UINT, true), \
	  WR_RPC_P("n", WR_RPC_T_UINT, true), \
	  WR_RPC_P("tshark", WR_RPC_T_BOOL, false)) \
	X(HOSTS_LIST, "hosts.list", hosts_list, false, \
	  WR_RPC_P("port", WR_RPC_T_UINT, true), \
	  WR_RPC_P("group", WR_RPC_T_STR, false), \
	  WR_RPC_P("state", WR_RPC_T_STR, false), \
	  WR_RPC_P("offset", WR_RPC_T_UINT, false), \
	  WR_RPC_P("limit", WR_RPC_T_UINT, false)) \
	X(HOSTS_COUNTERS, "hosts.counters", hosts_counters, false, \
	  WR_RPC_P("ports", WR_RPC_T_UINTS, false)) \
	X(TCP_LIST, "tcp.list", tcp_list, false) \
	X(TCP_STATS, "tcp.stats", tcp_stats, false, \
	  WR_RPC_P("classes", WR_RPC_T_STRS, false), \
	  WR_RPC_P("histogram", WR_RPC_T_BOOL, false)) \
	X(TCP_SET, "tcp.set", tcp_set, true, \
	  WR_RPC_P("class", WR_RPC_T_STR, true), \
	  WR_RPC_P("rate", WR_RPC_T_NUM, false), \
	  WR_RPC_P("concurrency", WR_RPC_T_UINT, false), \
	  WR_RPC_P("pause", WR_RPC_T_BOOL, false), \
	  WR_RPC_P("resume", WR_RPC_T_BOOL, false))

#define WR_RPC_ENUM_(e, ...) WR_RPC_##e,
enum wr_rpc_method {
	WR_RPC_METHODS(WR_RPC_ENUM_)
	WR_RPC_N_METHODS
};
#undef WR_RPC_ENUM_

struct wr_rpc_method_info {
	const char *name;
	bool owner;                  /**< needs the ports' ownership */
	struct wr_rpc_param params[WR_RPC_PARAMS_MAX];
};

/** The method table, indexed by enum wr_rpc_method. */
extern const struct wr_rpc_method_info wr_rpc_methods[WR_RPC_N_METHODS];

/** A parsed, validated request.  Free with wr_rpc_req_free(). */
struct wr_rpc_req {
	json_t *root;                /**< the whole request (owned) */
	json_t *id;                  /**< borrowed from root; NULL: a notification */
	enum wr_rpc_method method;
	json_t *params;              /**< an object (borrowed or owned empty) */
	bool own_params;
};

/** An error for the reply: code, message, and what -32602 data says. */
struct wr_rpc_error {
	int code;
	/* Room for a stream file's whole error line (1024 bytes in the
	 * server) or a parameter's words with the parser's reason
	 * (WR_PARSE_WHY_MAX): 192 cut traffic.update's mid-string. */
	char message[1280];
	char param[64];              /**< -32602: the offending member, "" if none */
	char expected[128];          /**< -32602: what it must be */
};

/**
 * The next request in @p buf: its length including the newline.
 * @return > 0 a complete line; 0 more bytes needed; -EMSGSIZE the line is
 *         (or will be) longer than @p max: the connection should be closed
 *         without buffering more.
 */
ssize_t wr_rpc_frame(const char *buf, size_t len, size_t max);

/**
 * Parse and validate one request (the newline, if any, is ignored).
 * @return 0 with @p req filled; a negative errno with @p err filled
 *         (-EBADMSG bad JSON, -EPROTO not a JSON-RPC 2.0 request,
 *         -ENOENT unknown method, -EINVAL invalid params).  When the
 *         request had a usable id, *id_out holds a new reference to it for
 *         the error reply (else NULL).
 */
int wr_rpc_parse(const char *buf, size_t len, struct wr_rpc_req *req,
		 json_t **id_out, struct wr_rpc_error *err);

/** Free what a request owns.  NULL-safe. */
void wr_rpc_req_free(struct wr_rpc_req *req);

/** Fill @p err and return @p code (negative errno of the caller's choice). */
int wr_rpc_error_set(struct wr_rpc_error *err, int rpc_code, const char *fmt,
		     ...) __attribute__((format(printf, 3, 4)));

/** Member @p name of a validated request @p req: its value, or NULL /
 * @p dflt when absent; wr_rpc_has() says whether it is there, wr_rpc_get()
 * returns it as JSON (NULL when absent, borrowed from @p req). */
const char *wr_rpc_str(const struct wr_rpc_req *req, const char *name);
bool wr_rpc_bool(const struct wr_rpc_req *req, const char *name, bool dflt);
uint64_t wr_rpc_uint(const struct wr_rpc_req *req, const char *name,
		     uint64_t dflt);
double wr_rpc_num(const struct wr_rpc_req *req, const char *name, double dflt);
bool wr_rpc_has(const struct wr_rpc_req *req, const char *name);
json_t *wr_rpc_get(const struct wr_rpc_req *req, const char *name);

/**
 * A validated rate member as a rate spec ("max" gives WR_RATE_MAX; a number
 * is packets per second).  @return 0, -ENOENT when absent.
 */
int wr_rpc_rate(const struct wr_rpc_req *req, const char *name,
		struct wr_rate_spec *out);

/**
 * A response line ("...}\n"), malloc'd, or NULL when out of memory.
 * @p result is stolen.  @p id NULL: JSON null.
 */
char *wr_rpc_reply_result(json_t *id, json_t *result);

/** An error response line; @p data (stolen, may be NULL) is added to the
 *  -32602 data built from @p err. */
char *wr_rpc_reply_error(json_t *id, const struct wr_rpc_error *err,
			 json_t *data);

/**
 * @p len bytes at @p data as a base64 JSON string (RFC 4648, OpenSSL's
 * encoder): how capture.fetch carries a file's bytes.  NULL when out of
 * memory.
 */
json_t *wr_rpc_base64(const uint8_t *data, size_t len);

/** A notification line {"jsonrpc": "2.0", "method": ..., "params": ...}; @p params stolen. */
char *wr_rpc_notification(const char *method, json_t *params);

#endif /* WR_RPC_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the server's request layer (wr_rpc): framing, parsing, validation, replies. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_parse.h"
#include "wr_rpc.h"
#include "wr_test.h"

/* Parse @p text; return the rc, the error in @p err, the request freed. */
static int
parse(const char *text, struct wr_rpc_error *err, enum wr_rpc_method *m)
{
	struct wr_rpc_req req;
	json_t *id = NULL;
	int rc;

	memset(err, 0, sizeof(*err));
	rc = wr_rpc_parse(text, strlen(text), &req, &id, err);
	if (rc == 0 && m != NULL)
		*m = req.method;
	wr_rpc_req_free(&req);
	json_decref(id);
	return rc;
}

static void
test_frame(void)
{
	char big[64];

	CU_ASSERT_EQUAL(wr_rpc_frame("{}\n{}", 5, 100), 3);
	CU_ASSERT_EQUAL(wr_rpc_frame("{\"a\":", 5, 100), 0);
	memset(big, 'x', sizeof(big));
	/* No newline in max bytes: refused before more is buffered. */
	CU_ASSERT_EQUAL(wr_rpc_frame(big, sizeof(big), 16), -EMSGSIZE);
	CU_ASSERT_EQUAL(wr_rpc_frame(big, 15, 16), 0);
	big[15] = '\n';
	CU_ASSERT_EQUAL(wr_rpc_frame(big, sizeof(big), 16), 16);
	big[15] = 'x';
	big[16] = '\n'; /* the newline just past max: still too long */
	CU_ASSERT_EQUAL(wr_rpc_frame(big, sizeof(big), 16), -EMSGSIZE);
}

static void
test_valid(void)
{
	struct wr_rpc_error err;
	enum wr_rpc_method m;
	struct wr_rpc_req req;
	struct wr_rate_spec rs;
	json_t *id;
	const char *t = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"traffic.start\","
		"\"params\":{\"rate\":\"2 Mpps\",\"duration\":1.5,\"count\":10,"
		"\"streams\":[\"a\",\"b\"]}}\n";

	CU_ASSERT_EQUAL_FATAL(wr_rpc_parse(t, strlen(t), &req, &id, &err), 0);
	CU_ASSERT_EQUAL(req.method, WR_RPC_START);
	CU_ASSERT_EQUAL(json_integer_value(req.id), 7);
	CU_ASSERT_EQUAL(wr_rpc_uint(&req, "count", 0), 10);
	CU_ASSERT_DOUBLE_EQUAL(wr_rpc_num(&req, "duration", 0), 1.5, 1e-12);
	CU_ASSERT_EQUAL(wr_rpc_rate(&req, "rate", &rs), 0);
	CU_ASSERT_EQUAL(rs.unit, WR_RATE_PPS);
	CU_ASSERT_EQUAL(rs.value, 2000000000ull);
	CU_ASSERT_EQUAL(wr_rpc_rate(&req, "nope", &rs), -ENOENT);
	CU_ASSERT_FALSE(wr_rpc_has(&req, "start_at"));
	wr_rpc_req_free(&req);
	json_decref(id);

	/* Numbers are pps; no params at all is an empty object. */
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.update\","
			      "\"params\":{\"rate\":1000000}}", &err, &m), 0);
	CU_ASSERT_EQUAL(m, WR_RPC_UPDATE);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":"
			      "\"server.info\"}", &err, &m), 0);
	CU_ASSERT_EQUAL(m, WR_RPC_HELLO);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"traffic.update\",\"params\":{\"rate\":\"max\"}}",
			      &err, &m), 0);
}

static void
test_invalid(void)
{
	struct wr_rpc_error err;

	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",", &err, NULL), -EBADMSG);
	CU_ASSERT_EQUAL(err.code, WR_RPC_E_PARSE);
	CU_ASSERT_EQUAL(parse("", &err, NULL), -EBADMSG);
	CU_ASSERT_EQUAL(parse("[1,2]", &err, NULL), -EPROTO);
	CU_ASSERT_EQUAL(err.code, WR_RPC_E_REQUEST);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"1.0\",\"method\":\"x\"}", &err,
			      NULL), -EPROTO);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":3}", &err, NULL),
			-EPROTO);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":"
			      "\"server.info\"}", &err, NULL), -EPROTO);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"server.info\","
			      "\"extra\":1}", &err, NULL), -EPROTO);
	/* Duplicate members are refused, as in stream files. */
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"server.info\","
			      "\"method\":\"server.reset\"}", &err, NULL),
			-EBADMSG);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"rm -rf\"}",
			      &err, NULL), -ENOENT);
	CU_ASSERT_EQUAL(err.code, WR_RPC_E_METHOD);
}

static void
test_params(void)
{
	struct wr_rpc_error err;

	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.start\","
			      "\"params\":[1]}", &err, NULL), -EINVAL);
	CU_ASSERT_EQUAL(err.code, WR_RPC_E_PARAMS);
	CU_ASSERT_STRING_EQUAL(err.param, "params");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.start\","
			      "\"params\":{\"rate\":\"fast\"}}", &err, NULL),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "rate");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.start\","
			      "\"params\":{\"rate\":0}}", &err, NULL), -EINVAL);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.start\","
			      "\"params\":{\"count\":-1}}", &err, NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "count");
	CU_ASSERT_STRING_EQUAL(err.expected, "an integer >= 0");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.start\","
			      "\"params\":{\"count\":1.5}}", &err, NULL), -EINVAL);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.start\","
			      "\"params\":{\"duration\":0}}", &err, NULL), -EINVAL);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.stop\","
			      "\"params\":{\"streams\":[\"a\",2]}}", &err, NULL),
			-EINVAL);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"ports.acquire\","
			      "\"params\":{\"ports\":[0,-1]}}", &err, NULL),
			-EINVAL);
	/* A session's secret is a string, given with its name. */
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"ports.acquire\","
			      "\"params\":{\"ports\":[],\"session\":\"a\","
			      "\"secret\":\"00ff\"}}", &err, NULL), 0);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"ports.acquire\","
			      "\"params\":{\"session\":\"a\",\"secret\":1}}",
			      &err, NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "secret");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.stop\","
			      "\"params\":{\"stream\":[\"a\"]}}", &err, NULL),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err.expected, "no such parameter");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"streams.load\"}",
			      &err, NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "yaml");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"streams.load\","
			      "\"params\":{\"yaml\":true}}", &err, NULL), -EINVAL);
}

/* The whole message, however long the parser's words: issue 31 saw
 * traffic.update's cut at 191 bytes ("... \"10 Gbps L1\" or \""). */
static void
test_message_whole(void)
{
	struct wr_rpc_error err;
	struct wr_rate_spec rs;
	char why[WR_PARSE_WHY_MAX], want[1024];

	CU_ASSERT_NOT_EQUAL(wr_parse_rate("fast", &rs, why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "traffic.update: rate: expected a rate "
		 "such as \"10 Mpps\", \"1 Gbps\", \"50%%\", \"max\" or packets "
		 "per second as a number > 0: %s", why);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"method\":\"traffic.update\","
			      "\"params\":{\"rate\":\"fast\"}}", &err, NULL),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err.message, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "\"10 Gbps L1\" or \"50%\""));
}

static void
test_replies(void)
{
	struct wr_rpc_error err;
	json_t *id = json_integer(3), *v;
	char *line;

	line = wr_rpc_reply_result(id, json_pack("{s:i}", "a", 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_STRING_EQUAL(line, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"a\":1}}\n");
	free(line);
	wr_rpc_error_set(&err, WR_RPC_E_PARAMS, "bad");
	snprintf(err.param, sizeof(err.param), "rate");
	snprintf(err.expected, sizeof(err.expected), "a rate");
	line = wr_rpc_reply_error(NULL, &err, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	v = json_loads(line, 0, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(v);
	CU_ASSERT_TRUE(json_is_null(json_object_get(v, "id")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(
		json_object_get(v, "error"), "code")), -32602);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_object_get(
		json_object_get(v, "error"), "data"), "param")), "rate");
	json_decref(v);
	free(line);
	line = wr_rpc_notification("event", json_pack("{s:s}", "type", "ended"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NULL(strstr(line, "\"id\""));
	free(line);
	json_decref(id);
}

/* Every method in the table has a name and well-formed parameters, and
 * parses with no params unless one is required. */
static void
test_table(void)
{
	struct wr_rpc_error err;
	char text[256];
	unsigned int i, j;

	for (i = 0; i < WR_RPC_N_METHODS; i++) {
		bool required = false;

		CU_ASSERT_PTR_NOT_NULL_FATAL(wr_rpc_methods[i].name);
		for (j = 0; j < WR_RPC_PARAMS_MAX && wr_rpc_methods[i].params[j].name; j++)
			required |= wr_rpc_methods[i].params[j].required;
		snprintf(text, sizeof(text), "{\"jsonrpc\":\"2.0\",\"id\":1,"
			 "\"method\":\"%s\"}", wr_rpc_methods[i].name);
		CU_ASSERT_EQUAL(parse(text, &err, NULL), required ? -EINVAL : 0);
	}
}

/* tcp.set: a class by name, a rate >= 0 (connections a second, a number),
 * a whole concurrency; tcp.stats: class names.  What the server checks
 * beyond (the class exists, ranges, ownership) is test_tcp_api's. */
static void
test_tcp(void)
{
	struct wr_rpc_error err;
	enum wr_rpc_method m;

	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"tcp.set\",\"params\":{\"class\":\"web\","
			      "\"rate\":2500.5,\"concurrency\":10,\"pause\":false}}",
			      &err, &m), 0);
	CU_ASSERT_EQUAL(m, WR_RPC_TCP_SET);
	CU_ASSERT(wr_rpc_methods[WR_RPC_TCP_SET].owner);
	CU_ASSERT_FALSE(wr_rpc_methods[WR_RPC_TCP_STATS].owner);
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"tcp.set\",\"params\":{\"rate\":1}}", &err, NULL),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "class");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"tcp.set\",\"params\":{\"class\":\"web\","
			      "\"rate\":-1}}", &err, NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "rate");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"tcp.set\",\"params\":{\"class\":\"web\","
			      "\"concurrency\":1.5}}", &err, NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "concurrency");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"tcp.stats\",\"params\":{\"classes\":[1]}}",
			      &err, NULL), -EINVAL);
	CU_ASSERT_STRING_EQUAL(err.param, "classes");
	CU_ASSERT_EQUAL(parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
			      "\"tcp.list\"}", &err, &m), 0);
	CU_ASSERT_EQUAL(m, WR_RPC_TCP_LIST);
}

static CU_TestInfo rpc_tests[] = {
	{ "frame", test_frame },
	{ "valid", test_valid },
	{ "invalid", test_invalid },
	{ "params", test_params },
	{ "message_whole", test_message_whole },
	{ "replies", test_replies },
	{ "table", test_table },
	{ "tcp", test_tcp },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "rpc", .pTests = rpc_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

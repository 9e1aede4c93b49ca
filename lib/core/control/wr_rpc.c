/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rpc: JSON-RPC 2.0 request framing, parsing and validation with jansson; replies. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "wr_parse.h"
#include "wr_rpc.h"

#define WR_RPC_INFO_(e, n, h, o, ...) \
	[WR_RPC_##e] = { .name = n, .owner = o, .params = { __VA_ARGS__ } },
const struct wr_rpc_method_info wr_rpc_methods[WR_RPC_N_METHODS] = {
	WR_RPC_METHODS(WR_RPC_INFO_)
};
#undef WR_RPC_INFO_

int
wr_rpc_error_set(struct wr_rpc_error *err, int rpc_code, const char *fmt, ...)
{
	va_list ap;

	err->code = rpc_code;
	err->param[0] = '\0';
	err->expected[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return rpc_code;
}

ssize_t
wr_rpc_frame(const char *buf, size_t len, size_t max)
{
	const char *nl = memchr(buf, '\n', len < max ? len : max);

	if (nl != NULL)
		return nl - buf + 1;
	/* No newline within max bytes: whatever follows, the request is too
	 * long, so it is refused now rather than buffered. */
	return len >= max ? -EMSGSIZE : 0;
}

static const char *
type_words(unsigned int types)
{
	if (types & WR_RPC_T_RATE)
		return "a rate such as \"10 Mpps\", \"1 Gbps\", \"50%\", \"max\" "
		       "or packets per second as a number > 0";
	if (types & WR_RPC_T_STR)
		return "a string";
	if (types & WR_RPC_T_UINT)
		return "an integer >= 0";
	if (types & WR_RPC_T_POS)
		return "a number > 0";
	if (types & WR_RPC_T_NUM)
		return "a number >= 0";
	if (types & WR_RPC_T_BOOL)
		return "true or false";
	if (types & WR_RPC_T_STRS)
		return "an array of strings";
	if (types & WR_RPC_T_UINTS)
		return "an array of integers >= 0";
	if (types & WR_RPC_T_OBJ)
		return "an object";
	return "nothing";
}

static bool
is_uint(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

static bool
is_num(const json_t *v, bool positive)
{
	double d;

	if (!json_is_number(v))
		return false;
	d = json_number_value(v);
	return isfinite(d) && (positive ? d > 0 : d >= 0);
}

static bool
array_of(const json_t *v, bool (*ok)(const json_t *))
{
	size_t i;
	json_t *x;

	if (!json_is_array(v))
		return false;
	json_array_foreach(v, i, x)
		if (!ok(x))
			return false;
	return true;
}

static bool
is_str(const json_t *v)
{
	return json_is_string(v);
}

static bool
type_ok(const json_t *v, unsigned int types, char *why, size_t why_len)
{
	if ((types & WR_RPC_T_STR) && json_is_string(v))
		return true;
	if ((types & WR_RPC_T_UINT) && is_uint(v))
		return true;
	if ((types & WR_RPC_T_NUM) && is_num(v, false))
		return true;
	if ((types & WR_RPC_T_POS) && is_num(v, true))
		return true;
	if ((types & WR_RPC_T_BOOL) && json_is_boolean(v))
		return true;
	if ((types & WR_RPC_T_STRS) && array_of(v, is_str))
		return true;
	if ((types & WR_RPC_T_UINTS) && array_of(v, is_uint))
		return true;
	if ((types & WR_RPC_T_OBJ) && json_is_object(v))
		return true;
	if (types & WR_RPC_T_RATE) {
		struct wr_rate_spec spec;

		if (is_num(v, true))
			return json_number_value(v) <= (double)UINT64_MAX / 1000;
		if (json_is_string(v)) {
			if (strcmp(json_string_value(v), "max") == 0)
				return true;
			return wr_parse_rate(json_string_value(v), &spec, why,
					     why_len) == 0;
		}
	}
	return false;
}

static int
params_check(const struct wr_rpc_method_info *m, json_t *params,
	     struct wr_rpc_error *err)
{
	const char *key;
	json_t *v;
	unsigned int i;

	json_object_foreach(params, key, v) {
		const struct wr_rpc_param *p = NULL;
		char why[WR_PARSE_WHY_MAX] = "";

		for (i = 0; i < WR_RPC_PARAMS_MAX && m->params[i].name; i++)
			if (strcmp(m->params[i].name, key) == 0)
				p = &m->params[i];
		if (p == NULL) {
			wr_rpc_error_set(err, WR_RPC_E_PARAMS,
					 "%s: unknown parameter \"%.64s\"",
					 m->name, key);
			snprintf(err->param, sizeof(err->param), "%s", key);
			snprintf(err->expected, sizeof(err->expected),
				 "no such parameter");
			return -EINVAL;
		}
		if (!type_ok(v, p->types, why, sizeof(why))) {
			wr_rpc_error_set(err, WR_RPC_E_PARAMS,
					 "%s: %s: expected %s%s%s", m->name,
					 p->name, type_words(p->types),
					 why[0] ? ": " : "", why);
			snprintf(err->param, sizeof(err->param), "%s", p->name);
			snprintf(err->expected, sizeof(err->expected), "%s",
				 type_words(p->types));
			return -EINVAL;
		}
	}
	for (i = 0; i < WR_RPC_PARAMS_MAX && m->params[i].name; i++)
		if (m->params[i].required &&
		    json_object_get(params, m->params[i].name) == NULL) {
			wr_rpc_error_set(err, WR_RPC_E_PARAMS,
					 "%s: missing parameter \"%s\" (%s)",
					 m->name, m->params[i].name,
					 type_words(m->params[i].types));
			snprintf(err->param, sizeof(err->param), "%s",
				 m->params[i].name);
			snprintf(err->expected, sizeof(err->expected), "%s",
				 type_words(m->params[i].types));
			return -EINVAL;
		}
	return 0;
}

int
wr_rpc_parse(const char *buf, size_t len, struct wr_rpc_req *req,
	     json_t **id_out, struct wr_rpc_error *err)
{
	json_error_t jerr;
	json_t *root, *v, *id;
	const char *method;
	unsigned int i;
	int rc;

	memset(req, 0, sizeof(*req));
	*id_out = NULL;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	/* JSON_REJECT_DUPLICATES: a request is parsed as strictly as a stream
	 * file, and a duplicated member would make one of two values win. */
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		wr_rpc_error_set(err, WR_RPC_E_PARSE,
				 "parse error at column %d: %s", jerr.column,
				 jerr.text);
		return -EBADMSG;
	}
	if (!json_is_object(root)) {
		wr_rpc_error_set(err, WR_RPC_E_REQUEST,
				 "a request is a JSON object (batches are not "
				 "supported)");
		rc = -EPROTO;
		goto fail;
	}
	id = json_object_get(root, "id");
	if (id != NULL && !json_is_string(id) && !json_is_integer(id) &&
	    !json_is_null(id)) {
		wr_rpc_error_set(err, WR_RPC_E_REQUEST,
				 "id: expected a string, an integer or null");
		rc = -EPROTO;
		goto fail;
	}
	if (id != NULL)
		*id_out = json_incref(id);
	v = json_object_get(root, "jsonrpc");
	if (!json_is_string(v) || strcmp(json_string_value(v), "2.0") != 0) {
		wr_rpc_error_set(err, WR_RPC_E_REQUEST,
				 "jsonrpc: expected \"2.0\"");
		rc = -EPROTO;
		goto fail;
	}
	json_object_foreach(root, method, v)
		if (strcmp(method, "jsonrpc") != 0 && strcmp(method, "id") != 0 &&
		    strcmp(method, "method") != 0 &&
		    strcmp(method, "params") != 0) {
			wr_rpc_error_set(err, WR_RPC_E_REQUEST,
					 "unknown member \"%.64s\" (a request "
					 "has jsonrpc, method, params, id)",
					 method);
			rc = -EPROTO;
			goto fail;
		}
	v = json_object_get(root, "method");
	if (!json_is_string(v)) {
		wr_rpc_error_set(err, WR_RPC_E_REQUEST,
				 "method: expected a string");
		rc = -EPROTO;
		goto fail;
	}
	method = json_string_value(v);
	for (i = 0; i < WR_RPC_N_METHODS; i++)
		if (strcmp(wr_rpc_methods[i].name, method) == 0)
			break;
	if (i == WR_RPC_N_METHODS) {
		wr_rpc_error_set(err, WR_RPC_E_METHOD,
				 "unknown method \"%.64s\" (doc/api.md lists "
				 "them; server.info too)", method);
		rc = -ENOENT;
		goto fail;
	}
	req->method = (enum wr_rpc_method)i;
	v = json_object_get(root, "params");
	if (v == NULL) {
		req->params = json_object();
		if (req->params == NULL) {
			wr_rpc_error_set(err, WR_RPC_E_INTERNAL,
					 "out of memory");
			rc = -ENOMEM;
			goto fail;
		}
		req->own_params = true;
	} else if (!json_is_object(v)) {
		wr_rpc_error_set(err, WR_RPC_E_PARAMS,
				 "%s: params: expected an object of named "
				 "parameters", method);
		snprintf(err->param, sizeof(err->param), "params");
		snprintf(err->expected, sizeof(err->expected), "an object");
		rc = -EINVAL;
		goto fail;
	} else {
		req->params = v;
	}
	rc = params_check(&wr_rpc_methods[i], req->params, err);
	if (rc != 0)
		goto fail;
	req->root = root;
	req->id = id;
	return 0;
fail:
	if (req->own_params)
		json_decref(req->params);
	memset(req, 0, sizeof(*req));
	json_decref(root);
	return rc;
}

void
wr_rpc_req_free(struct wr_rpc_req *req)
{
	if (req == NULL)
		return;
	if (req->own_params)
		json_decref(req->params);
	json_decref(req->root);
	memset(req, 0, sizeof(*req));
}

json_t *
wr_rpc_get(const struct wr_rpc_req *req, const char *name)
{
	return json_object_get(req->params, name);
}

bool
wr_rpc_has(const struct wr_rpc_req *req, const char *name)
{
	return wr_rpc_get(req, name) != NULL;
}

const char *
wr_rpc_str(const struct wr_rpc_req *req, const char *name)
{
	return json_string_value(wr_rpc_get(req, name));
}

bool
wr_rpc_bool(const struct wr_rpc_req *req, const char *name, bool dflt)
{
	json_t *v = wr_rpc_get(req, name);

	return json_is_boolean(v) ? json_is_true(v) : dflt;
}

uint64_t
wr_rpc_uint(const struct wr_rpc_req *req, const char *name, uint64_t dflt)
{
	json_t *v = wr_rpc_get(req, name);

	return is_uint(v) ? (uint64_t)json_integer_value(v) : dflt;
}

double
wr_rpc_num(const struct wr_rpc_req *req, const char *name, double dflt)
{
	json_t *v = wr_rpc_get(req, name);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

int
wr_rpc_rate(const struct wr_rpc_req *req, const char *name,
	    struct wr_rate_spec *out)
{
	json_t *v = wr_rpc_get(req, name);
	char why[128];

	if (v == NULL)
		return -ENOENT;
	if (json_is_number(v)) {
		/* pps, stored in millipps; validated to fit. */
		out->unit = WR_RATE_PPS;
		out->value = (uint64_t)(json_number_value(v) * 1000.0 + 0.5);
		return out->value > 0 ? 0 : -EINVAL;
	}
	if (strcmp(json_string_value(v), "max") == 0) {
		out->unit = WR_RATE_MAX;
		out->value = 0;
		return 0;
	}
	return wr_parse_rate(json_string_value(v), out, why, sizeof(why));
}

/* Dump @p msg compactly with a newline; steals @p msg. */
static char *
dump_line(json_t *msg)
{
	char *s, *line;
	size_t n;

	if (msg == NULL)
		return NULL;
	s = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (s == NULL)
		return NULL;
	n = strlen(s);
	line = realloc(s, n + 2);
	if (line == NULL) {
		free(s);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	return line;
}

char *
wr_rpc_reply_result(json_t *id, json_t *result)
{
	return dump_line(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id",
				   id ? id : json_null(), "result",
				   result ? result : json_null()));
}

char *
wr_rpc_reply_error(json_t *id, const struct wr_rpc_error *err, json_t *data)
{
	json_t *e = json_pack("{s:i, s:s}", "code", err->code, "message",
			      err->message);

	if (e == NULL) {
		json_decref(data);
		return NULL;
	}
	if (err->param[0] != '\0') {
		if (data == NULL)
			data = json_object();
		json_object_set_new(data, "param", json_string(err->param));
		json_object_set_new(data, "expected",
				    json_string(err->expected));
	}
	if (data != NULL)
		json_object_set_new(e, "data", data);
	return dump_line(json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id",
				   id ? id : json_null(), "error", e));
}

char *
wr_rpc_notification(const char *method, json_t *params)
{
	return dump_line(json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0",
				   "method", method, "params",
				   params ? params : json_object()));
}

json_t *
wr_rpc_base64(const uint8_t *data, size_t len)
{
	size_t cap = (len + 2) / 3 * 4 + 1;
	unsigned char *out;
	json_t *j;
	int n;

	if (len > INT_MAX)
		return NULL;
	out = malloc(cap);
	if (out == NULL)
		return NULL;
	n = EVP_EncodeBlock(out, data, (int)len);
	j = n < 0 ? NULL : json_stringn((const char *)out, (size_t)n);
	free(out);
	return j;
}

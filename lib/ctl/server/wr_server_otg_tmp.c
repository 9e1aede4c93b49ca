/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_tmp: TEMPORARY (branch h/tls only, removed when h/handlers is merged): a stand-in for wr_srv_otg_handle() so the transport is tested alone. */
#include "wr_server_priv.h"
#include "wr_server_otg.h"

void
wr_srv_otg_handle(struct server *s, struct conn *c, const struct otg_req *rq,
		  struct otg_resp *out)
{
	json_error_t je;
	json_t *j;

	(void)s;
	(void)c;
	if (strcmp(rq->path, "/capabilities/version") == 0) {
		out->status = 200;
		out->json = json_pack("{s:s, s:s, s:s}", "api_spec_version",
				      WR_OTG_MODEL_VERSION, "sdk_version", "",
				      "app_version", "");
		return;
	}
	j = json_loadb(rq->body ? rq->body : "", rq->len, 0, &je);
	out->status = j ? 200 : 400;
	out->json = j ? json_pack("{s:I}", "len", (json_int_t)rq->len) :
		    json_pack("{s:i, s:s, s:[s]}", "code", 400, "kind",
			      "validation", "errors", je.text);
	json_decref(j);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_err: OTG's Error document, every problem of a request with its JSON path. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "wr_otg.h"

void
wr_otg_err_init(struct wr_otg_err *e)
{
	e->code = 400;
	e->kind = WR_OTG_VALIDATION;
	e->errors = json_array();
	e->n_more = 0;
}

void
wr_otg_err_free(struct wr_otg_err *e)
{
	json_decref(e->errors);
	e->errors = NULL;
	e->n_more = 0;
}

int
wr_otg_err_add(struct wr_otg_err *e, const char *path, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	int n;

	if (e->errors == NULL)
		e->errors = json_array();
	if (e->errors == NULL)
		return -ENOMEM;
	/* A request with a thousand bad flows gets a readable reply: the
	 * first WR_OTG_ERRORS_MAX, then how many more. */
	if (json_array_size(e->errors) >= WR_OTG_ERRORS_MAX) {
		e->n_more++;
		return -EINVAL;
	}
	n = path != NULL && path[0] != '\0' ?
		snprintf(msg, sizeof(msg), "%s: ", path) : 0;
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	if (json_array_append_new(e->errors, json_string(msg)) != 0)
		return -ENOMEM;
	return -EINVAL;
}

bool
wr_otg_err_any(const struct wr_otg_err *e)
{
	return e->n_more > 0 ||
	       (e->errors != NULL && json_array_size(e->errors) > 0);
}

json_t *
wr_otg_err_json(const struct wr_otg_err *e)
{
	json_t *a = e->errors != NULL ? json_deep_copy(e->errors) : json_array();

	if (a != NULL && e->n_more > 0) {
		char more[64];

		snprintf(more, sizeof(more), "... and %u more", e->n_more);
		json_array_append_new(a, json_string(more));
	}
	return json_pack("{s:i, s:s, s:o}", "code", e->code, "kind",
			 e->kind == WR_OTG_VALIDATION ? "validation" :
			 "internal", "errors", a != NULL ? a : json_array());
}

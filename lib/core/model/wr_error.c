/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_error: filling and rendering the one-line user-facing error. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wr_error.h"

void
wr_error_clear(struct wr_error *err)
{
	if (err != NULL)
		memset(err, 0, sizeof(*err));
}

int
wr_error_set(struct wr_error *err, int code, const char *file,
	     unsigned int line, unsigned int col, const char *path,
	     const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return code;
	memset(err, 0, sizeof(*err));
	if (file != NULL)
		snprintf(err->file, sizeof(err->file), "%s", file);
	if (path != NULL)
		snprintf(err->path, sizeof(err->path), "%s", path);
	err->line = line;
	err->col = col;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int
wr_error_format(const struct wr_error *err, char *buf, size_t len)
{
	char where[WR_ERROR_FILE_MAX + 32] = "";
	int n = 0;

	if (err->file[0] != '\0' && err->line > 0)
		snprintf(where, sizeof(where), "%s:%u:%u: ", err->file,
			 err->line, err->col);
	else if (err->file[0] != '\0')
		snprintf(where, sizeof(where), "%s: ", err->file);
	if (err->path[0] != '\0')
		n = snprintf(buf, len, "%s%s: %s", where, err->path, err->msg);
	else
		n = snprintf(buf, len, "%s%s", where, err->msg);
	return n;
}

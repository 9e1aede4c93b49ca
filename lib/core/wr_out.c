/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_out: atomic result files and JSON strings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_out.h"

int
wr_out_atomic(const char *path, int (*fn)(FILE *out, const void *arg),
	      const void *arg)
{
	char tmp[4096];
	FILE *f;
	int fd, rc;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (f == NULL) {
		rc = -errno;
		close(fd);
		unlink(tmp);
		return rc;
	}
	rc = fn(f, arg);
	if (fflush(f) != 0 && rc == 0)
		rc = -errno;
	if (fsync(fileno(f)) != 0 && rc == 0)
		rc = -errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	/* mkstemp makes the file 0600; results are not secret. */
	if (rc == 0 && chmod(tmp, 0644) != 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc != 0)
		unlink(tmp);
	return rc;
}

void
wr_out_json_str(FILE *out, const char *s)
{
	if (s == NULL) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_out: atomic result files and JSON strings. */
#include <errno.h>
#include <stdint.h>
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

int
wr_out_check(const char *path)
{
	char tmp[4096];
	struct stat st;
	int fd;

	if (path == NULL || path[0] == '\0')
		return -ENOENT;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (access(path, W_OK) != 0)
			return -errno;
	}
	/* What wr_out_atomic() will do: a temporary file beside it. */
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(tmp);
	return 0;
}

/* Length of the well-formed UTF-8 sequence at @p s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), 0 if it is not one. */
static unsigned int
utf8_len(const unsigned char *s)
{
	unsigned int n, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void
wr_out_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned int n;

	if (s == NULL) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	while (*p != '\0') {
		if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p++);
			continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		n = utf8_len(p);
		if (n == 0) {
			/* Not UTF-8 (a file name in another encoding): the
			 * byte as U+00XX keeps the output valid and the byte
			 * recoverable. */
			fprintf(out, "\\u%04x", *p++);
			continue;
		}
		/* U+2028 and U+2029 are valid in JSON but end lines for
		 * JavaScript and some line-based readers. */
		if (n == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			fprintf(out, "\\u%04x", 0x2000 | (p[2] - 0x80));
			p += 3;
			continue;
		}
		fwrite(p, 1, n, out);
		p += n;
	}
	fputc('"', out);
}

/* ",\n  "key": "value"", unless @p val is NULL. */
static void
head_str(FILE *out, const char *key, const char *val)
{
	if (val == NULL)
		return;
	fprintf(out, ",\n  \"%s\": ", key);
	wr_out_json_str(out, val);
}

void
wr_out_json_head(FILE *out, const struct wr_out_head *h)
{
	fputs("{\n  \"schema\": ", out);
	wr_out_json_str(out, h->schema);
	head_str(out, "wirerate_version", h->wirerate_version);
	head_str(out, "dpdk_version", h->dpdk_version);
	head_str(out, "stream_file", h->stream_file);
	head_str(out, "stream_file_sha256", h->stream_sha256);
	head_str(out, "stream", h->stream);
	head_str(out, "config_file", h->config_file);
	if (h->has_seed)
		fprintf(out, ",\n  \"seed\": %llu", (unsigned long long)h->seed);
	head_str(out, "started_at", h->started_at);
	head_str(out, "finished_at", h->finished_at);
	head_str(out, "stop_reason", h->stop_reason);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_error: one user-facing error, located in a file, for the loaders and builders. */
#ifndef WR_ERROR_H
#define WR_ERROR_H

/**
 * @file
 * Every library call that can fail because of user input fills a struct
 * wr_error and returns a negative errno.  The app prints it as one line:
 *
 *     streams/x.yaml:12:9: streams[2].rate: expected a rate such as "10 Mpps", got "0"
 *
 * line and col are 1-based (libyaml marks are 0-based: add one).  A zero line
 * means "no position" (e.g. a file that cannot be opened) and is not printed.
 * Any thread may use its own struct wr_error.
 */

#include <stddef.h>

#define WR_ERROR_FILE_MAX 256
#define WR_ERROR_PATH_MAX 128
#define WR_ERROR_MSG_MAX 320

struct wr_error {
	char file[WR_ERROR_FILE_MAX]; /**< file the error is in, "" if none */
	unsigned int line;            /**< 1-based line, 0 if unknown */
	unsigned int col;             /**< 1-based column, 0 if unknown */
	char path[WR_ERROR_PATH_MAX]; /**< key path, e.g. "streams[2].rate", "" if none */
	char msg[WR_ERROR_MSG_MAX];   /**< what was expected and what was found */
};

/** Clear an error (no error). */
void wr_error_clear(struct wr_error *err);

/**
 * Fill @p err (may be NULL: then nothing happens) and return @p code, so a
 * caller can write `return wr_error_set(err, -EINVAL, file, line, col, path, "...")`.
 * @p file and @p path may be NULL.  msg is printf-style.
 */
int wr_error_set(struct wr_error *err, int code, const char *file,
		 unsigned int line, unsigned int col, const char *path,
		 const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/**
 * Render "file:line:col: path: msg" into @p buf (parts that are empty are
 * left out).  @return the number of characters written, as snprintf.
 */
int wr_error_format(const struct wr_error *err, char *buf, size_t len);

#endif /* WR_ERROR_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_test_fixture: what the loader tests share: invalid fixtures and their expected errors. */
#ifndef WR_TEST_FIXTURE_H
#define WR_TEST_FIXTURE_H

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "wr_error.h"

/** One invalid fixture and the error it must give. */
struct wr_bad_case {
	const char *file;
	unsigned int line;
	unsigned int col;
	const char *path;
	const char *msg; /**< a fragment of the message */
};

static inline void
wr_test_print_error(const struct wr_error *e)
{
	char buf[1024];

	wr_error_format(e, buf, sizeof(buf));
	fprintf(stderr, "\n    %s\n", buf);
}

static inline bool
wr_test_is_yaml(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

/**
 * Assert that loading @p path (the fixture of @p c) gave @p rc and @p e as
 * the case says: -EINVAL, the file, line, column, key path and message.
 */
static inline void
wr_test_check_error(const struct wr_bad_case *c, const char *path, int rc,
		    const struct wr_error *e)
{
	if (rc != -EINVAL || e->line != c->line || e->col != c->col ||
	    strcmp(e->path, c->path) != 0 || strstr(e->msg, c->msg) == NULL) {
		fprintf(stderr, "\n    %s: rc %d", c->file, rc);
		wr_test_print_error(e);
	}
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(e->file, path);
	CU_ASSERT_EQUAL(e->line, c->line);
	CU_ASSERT_EQUAL(e->col, c->col);
	CU_ASSERT_STRING_EQUAL(e->path, c->path);
	CU_ASSERT_PTR_NOT_NULL(strstr(e->msg, c->msg));
}

/**
 * Every YAML fixture in @p dir whose name starts with @p prefix, and not
 * with @p exclude (NULL: none), is in @p cases: none is forgotten.
 */
static inline void
wr_test_every_fixture_listed(const char *dir_path, const char *prefix,
			     const char *exclude,
			     const struct wr_bad_case *cases, size_t n)
{
	struct dirent *d;
	DIR *dir = opendir(dir_path);
	size_t i;
	bool found;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	while ((d = readdir(dir)) != NULL) {
		if (!wr_test_is_yaml(d->d_name) ||
		    strncmp(d->d_name, prefix, strlen(prefix)) != 0 ||
		    (exclude != NULL &&
		     strncmp(d->d_name, exclude, strlen(exclude)) == 0))
			continue;
		found = false;
		for (i = 0; i < n; i++)
			if (strcmp(cases[i].file, d->d_name) == 0)
				found = true;
		if (!found)
			fprintf(stderr, "\n    fixture %s has no test", d->d_name);
		CU_ASSERT_TRUE(found);
	}
	closedir(dir);
}

#endif /* WR_TEST_FIXTURE_H */

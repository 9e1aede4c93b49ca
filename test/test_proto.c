/* SPDX-License-Identifier: BSD-3-Clause */
/* test_proto: the registry of protocol modules against its documentation. */
#include <stdlib.h>

#include "wr_proto.h"
#include "wr_test.h"

#ifndef WR_DOC
#define WR_DOC "doc"
#endif

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = calloc(1, (size_t)len + 1)) != NULL &&
	    fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The text of the "#### " section whose heading names `@p name`, up to the
 * next heading ("#" at a line's start), in @p out; false when there is none. */
static bool
section(const char *doc, const char *name, char *out, size_t len)
{
	char tick[64];
	const char *h, *eol, *end;

	snprintf(tick, sizeof(tick), "`%s`", name);
	for (h = strstr(doc, "\n#### "); h != NULL; h = strstr(h + 1, "\n#### ")) {
		eol = strchr(h + 1, '\n');
		if (eol == NULL)
			return false;
		/* The heading's own line. */
		if (strstr(h, tick) == NULL || strstr(h, tick) > eol)
			continue;
		end = strstr(eol, "\n#");
		if (end == NULL)
			end = doc + strlen(doc);
		snprintf(out, len, "%.*s", (int)(end - h), h);
		return true;
	}
	return false;
}

/* Each registered module has its section in doc/stack.md naming every key
 * it takes (its fields and option lists), and a row in the table of what
 * each layer carries. */
static void
test_doc_names_every_module(void)
{
	char *doc = slurp(WR_DOC "/stack.md");
	static char sec[16384];
	char key[80], row[80];
	unsigned int i, j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_TRUE(wr_n_protos >= 20);
	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];
		bool found = section(doc, p->name, sec, sizeof(sec));

		if (!found)
			fprintf(stderr, "doc/stack.md: no section for %s\n", p->name);
		CU_ASSERT_TRUE(found);
		if (!found)
			continue;
		for (j = 0; j < p->n_fields; j++) {
			snprintf(key, sizeof(key), "`%s`", p->fields[j].name);
			if (strstr(sec, key) == NULL)
				fprintf(stderr, "doc/stack.md: %s has no %s\n", p->name, key);
			CU_ASSERT_PTR_NOT_NULL(strstr(sec, key));
		}
		if (p->opts != NULL) {
			snprintf(key, sizeof(key), "`%s`", p->opts->key);
			CU_ASSERT_PTR_NOT_NULL(strstr(sec, key));
		}
		/* "| `name`" or ", `name`" in the carries table. */
		snprintf(row, sizeof(row), "| `%s`", p->name);
		snprintf(key, sizeof(key), ", `%s` |", p->name);
		if (strstr(doc, row) == NULL && strstr(doc, key) == NULL)
			fprintf(stderr, "doc/stack.md: no row for %s\n", p->name);
		CU_ASSERT_TRUE(strstr(doc, row) != NULL || strstr(doc, key) != NULL);
	}
	free(doc);
}

int
main(int argc, char **argv)
{
	static CU_TestInfo tests[] = {
		{ "doc_names_every_module", test_doc_names_every_module },
		CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
		{ "proto", NULL, NULL, NULL, NULL, tests },
		CU_SUITE_INFO_NULL,
	};

	return wr_test_main(argc, argv, suites);
}

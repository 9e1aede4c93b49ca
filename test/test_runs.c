/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_runs: the runs a server keeps: ids across a reopen, the bound, atomic files, bad files, the default directory. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_runs.h"
#include "wr_test.h"

static char dir[64];

static void
fresh_dir(void)
{
	char cmd[128];

	if (dir[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
	snprintf(dir, sizeof(dir), "/tmp/wr-test-runs-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

/* A trial's entry and document, as the server writes them. */
static uint64_t
put(struct wr_runs *r, const char *kind, const char *name, int samples)
{
	json_t *e = json_pack("{s:s, s:s, s:s}", "kind", kind, "name", name,
			      "stream_sha256", "ab12");
	json_t *d = json_pack("{s:s, s:s, s:[]}", "kind", kind, "name", name,
			      "samples");
	struct wr_error err;
	uint64_t id = 0;
	int i;

	for (i = 0; i < samples; i++)
		json_array_append_new(json_object_get(d, "samples"), json_pack(
			"{s:i, s:s}", "t", i + 1, "text", "two\nlines"));
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_runs_put(r, e, d, &id, &err), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(e, "id")),
			(json_int_t)id);
	json_decref(e);
	json_decref(d);
	return id;
}

static unsigned int
files_in(const char *d, const char *prefix)
{
	DIR *dd = opendir(d);
	struct dirent *de;
	unsigned int n = 0;

	if (dd == NULL)
		return 0;
	while ((de = readdir(dd)) != NULL)
		if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(dd);
	return n;
}

static void
write_file(const char *name, const char *text)
{
	char p[128];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void
test_store(void)
{
	struct wr_runs r;
	struct wr_error err;
	json_t *l, *d = NULL;
	uint64_t a, b, c;

	fresh_dir();
	wr_error_clear(&err);
	CU_ASSERT_EQUAL_FATAL(wr_runs_open(&r, dir, 10, &err), 0);
	a = put(&r, "trial", "one", 3);
	b = put(&r, "sweep", "two", 0);
	c = put(&r, "trial", "three", 1);
	CU_ASSERT_EQUAL(a, 1);
	CU_ASSERT_EQUAL(b, 2);
	CU_ASSERT_EQUAL(c, 3);
	/* Newest first; by kind; a limit. */
	l = wr_runs_list(&r, NULL, 0);
	CU_ASSERT_EQUAL(json_array_size(l), 3);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(l, 0),
			"id")), 3);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
			json_array_get(l, 2), "name")), "one");
	/* The entry only: no samples in the list. */
	CU_ASSERT_PTR_NULL(json_object_get(json_array_get(l, 0), "samples"));
	json_decref(l);
	l = wr_runs_list(&r, "trial", 1);
	CU_ASSERT_EQUAL(json_array_size(l), 1);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(l, 0),
			"id")), 3);
	json_decref(l);
	CU_ASSERT_EQUAL(wr_runs_get(&r, a, &d, &err), 0);
	CU_ASSERT_EQUAL(json_array_size(json_object_get(d, "samples")), 3);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(
		json_object_get(d, "samples"), 2), "text")), "two\nlines");
	json_decref(d);
	CU_ASSERT_EQUAL(wr_runs_get(&r, 99, &d, &err), -ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no run 99"));
	/* Delete; then a reopen lists what is left and goes on from the
	 * highest id, even when the highest was deleted before. */
	CU_ASSERT_EQUAL(wr_runs_delete(&r, b, &err), 0);
	CU_ASSERT_EQUAL(wr_runs_delete(&r, b, &err), -ENOENT);
	CU_ASSERT_EQUAL(wr_runs_delete(&r, c, &err), 0);
	wr_runs_close(&r);
	CU_ASSERT_EQUAL_FATAL(wr_runs_open(&r, dir, 10, &err), 0);
	l = wr_runs_list(&r, NULL, 0);
	CU_ASSERT_EQUAL(json_array_size(l), 1);
	json_decref(l);
	CU_ASSERT_EQUAL(put(&r, "rtt", "four", 0), 2);
	wr_runs_close(&r);
	wr_runs_close(&r); /* twice: harmless */
}

static void
test_bound(void)
{
	struct wr_runs r;
	struct wr_error err;
	json_t *l;
	int i;

	fresh_dir();
	CU_ASSERT_EQUAL_FATAL(wr_runs_open(&r, dir, 3, &err), 0);
	for (i = 0; i < 5; i++)
		put(&r, "trial", "x", 1);
	l = wr_runs_list(&r, NULL, 0);
	CU_ASSERT_EQUAL(json_array_size(l), 3);
	/* The oldest went: 3, 4, 5 left, files and all. */
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_array_get(l, 2),
			"id")), 3);
	json_decref(l);
	CU_ASSERT_EQUAL(files_in(dir, "run-"), 3);
	wr_runs_close(&r);
	/* A smaller bound at the next open prunes at once. */
	CU_ASSERT_EQUAL_FATAL(wr_runs_open(&r, dir, 1, &err), 0);
	CU_ASSERT_EQUAL(r.n, 1);
	CU_ASSERT_EQUAL(r.ents[0].id, 5);
	CU_ASSERT_EQUAL(files_in(dir, "run-"), 1);
	wr_runs_close(&r);
}

static void
test_atomic(void)
{
	struct wr_runs r;
	struct wr_error err;
	char p[128];
	struct stat sb;
	FILE *f;
	char line[256];

	fresh_dir();
	/* A crash's temporary is removed, never listed. */
	write_file(".run-7.json.tmp", "{\"id\": 7, \"kind\": \"tri");
	CU_ASSERT_EQUAL_FATAL(wr_runs_open(&r, dir, 0, &err), 0);
	CU_ASSERT_EQUAL(r.max, WR_RUNS_MAX_DEFAULT);
	CU_ASSERT_EQUAL(r.n, 0);
	CU_ASSERT_EQUAL(files_in(dir, ".run-"), 0);
	CU_ASSERT_EQUAL(put(&r, "trial", "a", 2), 1);
	/* No temporary left; the file is its two lines, the entry first. */
	CU_ASSERT_EQUAL(files_in(dir, ".run-"), 0);
	snprintf(p, sizeof(p), "%s/run-1.json", dir);
	CU_ASSERT_EQUAL(stat(p, &sb), 0);
	CU_ASSERT_EQUAL(sb.st_mode & 0777, 0640);
	f = fopen(p, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_STRING_EQUAL(line, "{\"kind\":\"trial\",\"name\":\"a\","
			       "\"stream_sha256\":\"ab12\",\"id\":1}\n");
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof(line), f));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "\"samples\":[{\"t\":1,"));
	CU_ASSERT_PTR_NULL(fgets(line, sizeof(line), f));
	fclose(f);
	wr_runs_close(&r);
	/* A directory it cannot write into: refused (root writes anywhere). */
	if (geteuid() != 0) {
		CU_ASSERT_EQUAL(chmod(dir, 0500), 0);
		CU_ASSERT_EQUAL(wr_runs_open(&r, dir, 0, &err), -EACCES);
		CU_ASSERT_EQUAL(chmod(dir, 0700), 0);
	}
}

static void
test_bad(void)
{
	struct wr_runs r;
	struct wr_error err;
	json_t *d = NULL;
	char p[128];

	fresh_dir();
	write_file("run-1.json", "{\"id\": 1, \"kind\": \"trial\"}\n{\"id\": 1}\n");
	write_file("run-2.json", "not json\n");
	write_file("run-3.json", "{\"id\": 4, \"kind\": \"trial\"}\n{}\n");
	write_file("run-4.json", "{\"id\": 4, \"kind\": \"trial\"}\n{\"id\": tru\n");
	write_file("run-05.json", "{\"id\": 5}\n{\"id\": 5}\n");  /* not a name of ours */
	write_file("notes.txt", "hello\n");
	CU_ASSERT_EQUAL_FATAL(wr_runs_open(&r, dir, 0, &err), 0);
	/* 1 and 4 listed (4's second line is found bad when read), 2 and 3
	 * not runs; the next id after the highest name. */
	CU_ASSERT_EQUAL(r.n, 2);
	CU_ASSERT_EQUAL(r.n_bad, 2);
	CU_ASSERT_EQUAL(r.next_id, 5);
	CU_ASSERT_EQUAL(wr_runs_get(&r, 1, &d, &err), 0);
	json_decref(d);
	CU_ASSERT_EQUAL(wr_runs_get(&r, 4, &d, &err), -EBADMSG);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.file, "run-4.json"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a run"));
	CU_ASSERT_EQUAL(wr_runs_get(&r, 2, &d, &err), -ENOENT);
	wr_runs_close(&r);
	/* A file where the directory should be: one error naming it. */
	snprintf(p, sizeof(p), "%s/notes.txt", dir);
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_runs_open(&r, p, 0, &err), -ENOTDIR);
	CU_ASSERT_STRING_EQUAL(err.path, "--runs-dir");
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "expected a directory"));
	/* A missing one is made, parents and all. */
	snprintf(p, sizeof(p), "%s/a/b/runs", dir);
	CU_ASSERT_EQUAL(wr_runs_dir_check(p, &err), 0);
	CU_ASSERT_EQUAL(wr_runs_open(&r, p, 0, &err), 0);
	wr_runs_close(&r);
}

static void
test_default_dir(void)
{
	char b[256];

	CU_ASSERT_EQUAL(wr_runs_default_dir(0, "/x", "/root", b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/var/lib/wirerate/runs");
	CU_ASSERT_EQUAL(wr_runs_default_dir(1000, "/s", "/home/u", b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/s/wirerate/runs");
	CU_ASSERT_EQUAL(wr_runs_default_dir(1000, NULL, "/home/u", b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/home/u/.local/state/wirerate/runs");
	/* A relative XDG_STATE_HOME is ignored, as the spec says. */
	CU_ASSERT_EQUAL(wr_runs_default_dir(1000, "rel", "/home/u", b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/home/u/.local/state/wirerate/runs");
	CU_ASSERT_EQUAL(wr_runs_default_dir(1000, NULL, NULL, b, sizeof(b)), -ENOENT);
	CU_ASSERT_EQUAL(wr_runs_default_dir(1000, NULL, "/home/u", b, 8),
			-ENAMETOOLONG);
}

static void
cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

static CU_TestInfo runs_tests[] = {
	{ "store, list, get, delete, reopen", test_store },
	{ "the bound prunes the oldest", test_bound },
	{ "atomic writes, stale temporaries", test_atomic },
	{ "bad files and directories", test_bad },
	{ "the default directory", test_default_dir },
	{ "cleanup", cleanup },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "runs", .pTests = runs_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

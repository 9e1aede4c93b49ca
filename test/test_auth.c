/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_auth: the token file, session secrets, the failed-login limiter on a fake clock. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "wr_auth.h"
#include "wr_test.h"

static int
parse(const char *text, char *tok)
{
	const char *why = NULL;
	int rc = wr_auth_token_parse(text, strlen(text), tok,
				     WR_AUTH_TOKEN_MAX + 1, &why);

	CU_ASSERT(rc == 0 || why != NULL);
	return rc;
}

static void
test_token_parse(void)
{
	char tok[WR_AUTH_TOKEN_MAX + 1], big[400];

	CU_ASSERT_EQUAL(parse("0123456789abcdef\n", tok), 0);
	CU_ASSERT_STRING_EQUAL(tok, "0123456789abcdef");
	CU_ASSERT_EQUAL(parse("0123456789abcdef\r\nsecond line", tok), 0);
	CU_ASSERT_STRING_EQUAL(tok, "0123456789abcdef");
	CU_ASSERT_EQUAL(parse("0123456789abcdef", tok), 0);
	CU_ASSERT_EQUAL(parse("0123456789abcde\n", tok), -EINVAL);
	CU_ASSERT_EQUAL(parse("", tok), -EINVAL);
	CU_ASSERT_EQUAL(parse("0123456789 abcdef\n", tok), -EINVAL);
	CU_ASSERT_EQUAL(parse(" 0123456789abcdef\n", tok), -EINVAL);
	CU_ASSERT_EQUAL(parse("0123456789abcdef\x01\n", tok), -EINVAL);
	CU_ASSERT_EQUAL(parse("0123456789abcdef\xc3\xa9\n", tok), -EINVAL);
	memset(big, 'x', sizeof(big));
	big[255] = '\0';
	CU_ASSERT_EQUAL(parse(big, tok), 0);
	big[255] = 'x';
	big[256] = '\0';
	CU_ASSERT_EQUAL(parse(big, tok), -EINVAL);
	/* A NUL inside the line is a control character, not an end. */
	CU_ASSERT_EQUAL(wr_auth_token_parse("0123456789\0abcdef\n", 18, tok,
					    sizeof(tok), &(const char *){ 0 }),
			-EINVAL);
}

static char dir[] = "/tmp/wr-test-auth-XXXXXX";

static const char *
file(const char *name, const char *text, mode_t mode)
{
	static char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	unlink(p);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	chmod(p, mode);
	return p;
}

static int
load(const char *path, struct wr_error *err)
{
	char tok[WR_AUTH_TOKEN_MAX + 1];

	wr_error_clear(err);
	return wr_auth_token_load(path, tok, sizeof(tok), err);
}

static void
test_token_load(void)
{
	char p[300], big[WR_AUTH_TOKEN_FILE_MAX + 2];
	struct wr_error err;
	char tok[WR_AUTH_TOKEN_MAX + 1];

	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	CU_ASSERT_EQUAL(wr_auth_token_load(file("ok", "0123456789abcdef0123\n",
						0600), tok, sizeof(tok), &err), 0);
	CU_ASSERT_STRING_EQUAL(tok, "0123456789abcdef0123");
	CU_ASSERT_EQUAL(load(file("g", "0123456789abcdef0123\n", 0640), &err),
			-EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "mode 0640"));
	CU_ASSERT_STRING_EQUAL(err.path, "--token-file");
	CU_ASSERT_EQUAL(load(file("w", "0123456789abcdef0123\n", 0602), &err),
			-EPERM);
	CU_ASSERT_EQUAL(load(file("short", "short\n", 0600), &err), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "at least 16"));
	memset(big, 'a', sizeof(big));
	big[sizeof(big) - 1] = '\0';
	CU_ASSERT_EQUAL(load(file("big", big, 0600), &err), -EFBIG);
	snprintf(p, sizeof(p), "%s/none", dir);
	CU_ASSERT_EQUAL(load(p, &err), -ENOENT);
	CU_ASSERT_EQUAL(load(dir, &err), -EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "a directory"));
	/* A FIFO is refused at once, not waited on for a writer. */
	snprintf(p, sizeof(p), "%s/fifo", dir);
	CU_ASSERT_FATAL(mkfifo(p, 0600) == 0);
	CU_ASSERT_EQUAL(load(p, &err), -EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "a FIFO"));
	unlink(p);
	CU_ASSERT_EQUAL(load("/dev/zero", &err), -EPERM);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "character device"));
	snprintf(p, sizeof(p), "%s/link", dir);
	CU_ASSERT_FATAL(symlink(file("ok", "0123456789abcdef0123\n", 0600),
				p) == 0);
	CU_ASSERT_EQUAL(load(p, &err), -ELOOP);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "symbolic link"));
	unlink(p);
	unlink(file("ok", "", 0600));
	unlink(file("g", "", 0600));
	unlink(file("w", "", 0600));
	unlink(file("short", "", 0600));
	unlink(file("big", "", 0600));
	rmdir(dir);
}

static void
test_secret(void)
{
	char a[WR_AUTH_SECRET_LEN + 1], b[WR_AUTH_SECRET_LEN + 1];
	size_t i;

	CU_ASSERT_EQUAL(wr_auth_secret_new(a, sizeof(a)), 0);
	CU_ASSERT_EQUAL(wr_auth_secret_new(b, sizeof(b)), 0);
	CU_ASSERT_EQUAL(strlen(a), WR_AUTH_SECRET_LEN);
	for (i = 0; i < WR_AUTH_SECRET_LEN; i++)
		CU_ASSERT(strchr("0123456789abcdef", a[i]) != NULL);
	CU_ASSERT(strcmp(a, b) != 0);
	CU_ASSERT_EQUAL(wr_auth_secret_new(a, WR_AUTH_SECRET_LEN), -ENOSPC);
	CU_ASSERT(wr_auth_equal(b, b));
	CU_ASSERT(!wr_auth_equal(b, NULL));
	CU_ASSERT(!wr_auth_equal(b, ""));
	CU_ASSERT(!wr_auth_equal("", ""));
	memcpy(a, b, sizeof(a));
	a[WR_AUTH_SECRET_LEN - 1] ^= 1;
	CU_ASSERT(!wr_auth_equal(b, a));
	a[WR_AUTH_SECRET_LEN - 1] ^= 1;
	a[WR_AUTH_SECRET_LEN - 1] = '\0';
	CU_ASSERT(!wr_auth_equal(b, a)); /* a prefix */
	CU_ASSERT(!wr_auth_equal("abc", "abcd"));
}

static void
test_backoff(void)
{
	static struct wr_auth_limit l;
	uint64_t t = 1000;
	unsigned int i;

	wr_auth_limit_init(&l);
	/* A mistyped token or three: no delay. */
	for (i = 0; i < WR_AUTH_FREE_FAILS; i++) {
		CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t), 0);
		wr_auth_limit_failed(&l, "10.0.0.1", false, t);
	}
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t), 0);
	/* Then 1 s, 2 s, 4 s, ... for that address only. */
	wr_auth_limit_failed(&l, "10.0.0.1", false, t);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t), 1000);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t + 400), 600);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.2", t), 0);
	/* Refused attempts neither test a guess nor lengthen the lockout. */
	wr_auth_limit_failed(&l, "10.0.0.1", true, t + 500);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t + 500), 500);
	t += 1000;
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t), 0);
	wr_auth_limit_failed(&l, "10.0.0.1", false, t);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t), 2000);
	t += 2000;
	wr_auth_limit_failed(&l, "10.0.0.1", false, t);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t), 4000);
	/* Capped. */
	for (i = 0; i < 40; i++)
		wr_auth_limit_failed(&l, "10.0.0.1", false, t);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t),
			WR_AUTH_BACKOFF_MAX_MS);
	/* The right token forgets the failures. */
	wr_auth_limit_init(&l);
	for (i = 0; i < 6; i++)
		wr_auth_limit_failed(&l, "10.0.0.1", false, t);
	CU_ASSERT(wr_auth_limit_wait_ms(&l, "10.0.0.1", t) > 0);
	wr_auth_limit_passed(&l, "10.0.0.1");
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t + 1), 0);
	wr_auth_limit_failed(&l, "10.0.0.1", false, t + 1);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.1", t + 1), 0);
	/* So does a quarter of an hour of quiet. */
	wr_auth_limit_init(&l);
	for (i = 0; i < 6; i++)
		wr_auth_limit_failed(&l, "10.0.0.3", false, 1000);
	CU_ASSERT(wr_auth_limit_wait_ms(&l, "10.0.0.3", 1000) > 0);
	wr_auth_limit_failed(&l, "10.0.0.3", false, 1000 + WR_AUTH_FORGET_MS);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.0.0.3",
					      1000 + WR_AUTH_FORGET_MS), 0);
}

static void
test_global(void)
{
	static struct wr_auth_limit l;
	char a[32];
	unsigned int i;
	uint64_t t = 5000;

	/* Guesses from many addresses, each under its own limit: the global
	 * budget lets WR_AUTH_GLOBAL_BURST through, then one a second. */
	wr_auth_limit_init(&l);
	for (i = 0; i < WR_AUTH_GLOBAL_BURST; i++) {
		snprintf(a, sizeof(a), "10.1.%u.%u", i / 256, i % 256);
		CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, a, t), 0);
		wr_auth_limit_failed(&l, a, false, t);
	}
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.2.0.1", t), 1000);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.2.0.1", t + 1000), 0);
	wr_auth_limit_failed(&l, "10.2.0.1", false, t + 1000);
	CU_ASSERT_EQUAL(wr_auth_limit_wait_ms(&l, "10.2.0.2", t + 1000), 1000);
	/* More addresses than the table holds: the quietest is forgotten. */
	for (i = 0; i < WR_AUTH_SOURCES + 10; i++) {
		snprintf(a, sizeof(a), "10.3.%u.%u", i / 256, i % 256);
		wr_auth_limit_failed(&l, a, true, t + 2000 + i);
	}
	CU_ASSERT_EQUAL(l.n_src, WR_AUTH_SOURCES);
}

static void
test_log(void)
{
	static struct wr_auth_limit l;
	struct wr_auth_summary sum;
	char a[32];
	unsigned int i, lines = 0;

	wr_auth_limit_init(&l);
	CU_ASSERT(!wr_auth_limit_summary(&l, 100000, &sum));
	/* One address flooding: its first failure on a line, the rest in
	 * the summary once the period has passed. */
	for (i = 0; i < 1000; i++)
		lines += wr_auth_limit_failed(&l, "127.0.0.1", i >= 10, 1000 + i);
	CU_ASSERT_EQUAL(lines, 1);
	CU_ASSERT(!wr_auth_limit_summary(&l, 1000 + WR_AUTH_LOG_PERIOD_MS - 1,
					 &sum));
	CU_ASSERT(wr_auth_limit_summary(&l, 1000 + WR_AUTH_LOG_PERIOD_MS, &sum));
	CU_ASSERT_EQUAL(sum.failed, 1000);
	CU_ASSERT_EQUAL(sum.refused, 990);
	CU_ASSERT_EQUAL(sum.sources, 1);
	CU_ASSERT_STRING_EQUAL(sum.top, "127.0.0.1");
	CU_ASSERT_EQUAL(sum.top_fails, 1000);
	CU_ASSERT_EQUAL(sum.period_ms, WR_AUTH_LOG_PERIOD_MS);
	/* Nothing since: no summary. */
	CU_ASSERT(!wr_auth_limit_summary(&l, 100000, &sum));
	/* Next period, many addresses: WR_AUTH_LOG_LINES lines at most. */
	lines = 0;
	for (i = 0; i < 100; i++) {
		snprintf(a, sizeof(a), "10.0.0.%u", i);
		lines += wr_auth_limit_failed(&l, a, true, 200000);
	}
	lines += wr_auth_limit_failed(&l, "10.0.0.7", true, 200001);
	CU_ASSERT_EQUAL(lines, WR_AUTH_LOG_LINES);
	CU_ASSERT(wr_auth_limit_summary(&l, 300000, &sum));
	CU_ASSERT_EQUAL(sum.sources, 100);
	CU_ASSERT_STRING_EQUAL(sum.top, "10.0.0.7");
	CU_ASSERT_EQUAL(sum.top_fails, 2);
	/* A period whose failures were each on a line needs no summary. */
	CU_ASSERT(wr_auth_limit_failed(&l, "10.9.9.9", false, 400000));
	CU_ASSERT(!wr_auth_limit_summary(&l, 500000, &sum));
}

static CU_TestInfo auth_tests[] = {
	{ "token_parse", test_token_parse },
	{ "token_load", test_token_load },
	{ "secret", test_secret },
	{ "backoff", test_backoff },
	{ "global", test_global },
	{ "log", test_log },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "auth", .pTests = auth_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

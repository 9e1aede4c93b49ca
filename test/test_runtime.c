/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_runtime: the runtime directory's rule, EAL defaults, private memif sockets. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "wr_runtime.h"
#include "wr_test.h"

static void
test_dir_rule(void)
{
	char b[128];

	CU_ASSERT_EQUAL(wr_runtime_dir_of(1000, "/srv/wr", "/run/user/1000",
					  b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/srv/wr");
	CU_ASSERT_EQUAL(wr_runtime_dir_of(0, "", "/run/user/0", b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/run/wirerate");
	CU_ASSERT_EQUAL(wr_runtime_dir_of(1000, NULL, "/run/user/1000", b,
					  sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/run/user/1000/wirerate");
	CU_ASSERT_EQUAL(wr_runtime_dir_of(1000, NULL, "", b, sizeof(b)), 0);
	CU_ASSERT_STRING_EQUAL(b, "/tmp/wirerate-1000");
	CU_ASSERT_EQUAL(wr_runtime_dir_of(1000, NULL, NULL, b, 8), -ENAMETOOLONG);
}

static void
test_prefix(void)
{
	char b[64], want[64];

	wr_runtime_prefix(b, sizeof(b));
	snprintf(want, sizeof(want), "wirerate-%u-%ld", (unsigned int)geteuid(),
		 (long)getpid());
	CU_ASSERT_STRING_EQUAL(b, want);
}

/* wr_runtime_eal() on @p in; the result joined by spaces into @p buf. */
static int
eal(char **in, int n, char *buf, size_t len, struct wr_runtime_socks *socks)
{
	static char store[2048];
	struct wr_error err;
	char *out[32];
	int k, i;

	wr_error_clear(&err);
	k = wr_runtime_eal(in, n, "wirerate-7-42", "/run/u", out, 32, store,
			   sizeof(store), socks, &err);
	buf[0] = '\0';
	for (i = 0; i < k; i++) {
		strncat(buf, out[i], len - strlen(buf) - 1);
		if (i + 1 < k)
			strncat(buf, " ", len - strlen(buf) - 1);
	}
	return k;
}

static void
test_eal_defaults(void)
{
	struct wr_runtime_socks s;
	char b[1024];
	char *plain[] = { "wirerate", "--no-pci", "--vdev=net_null0" };
	char *own[] = { "wirerate", "--file-prefix", "mine", "--vdev=net_null0" };
	char *own_eq[] = { "wirerate", "--file-prefix=mine" };
	char *memif[] = { "wirerate", "--vdev=net_memif0,role=server,rsize=14",
			  "--vdev", "net_memif1,socket=/tmp/x/m.sock" };
	char *abstract[] = { "--vdev=net_memif0,socket=/a.sock,socket-abstract=yes" };
	char *client[] = { "--vdev=net_memif0,role=client,socket=/peer.sock",
			   "--vdev=net_memif1,role=client" };

	CU_ASSERT_EQUAL(eal(plain, 3, b, sizeof(b), &s), 4);
	CU_ASSERT_STRING_EQUAL(b, "wirerate --no-pci --vdev=net_null0 "
			       "--file-prefix=wirerate-7-42");
	CU_ASSERT_EQUAL(s.n, 0);
	/* A prefix of the user's stays, in either spelling. */
	CU_ASSERT_EQUAL(eal(own, 4, b, sizeof(b), &s), 4);
	CU_ASSERT_STRING_EQUAL(b, "wirerate --file-prefix mine --vdev=net_null0");
	CU_ASSERT_EQUAL(eal(own_eq, 2, b, sizeof(b), &s), 2);
	/* memif servers: path sockets, the runtime directory's by default. */
	CU_ASSERT_EQUAL(eal(memif, 4, b, sizeof(b), &s), 5);
	CU_ASSERT_STRING_EQUAL(b, "wirerate "
		"--vdev=net_memif0,role=server,rsize=14,socket-abstract=no,"
		"socket=/run/u/memif.sock --vdev "
		"net_memif1,socket=/tmp/x/m.sock,socket-abstract=no "
		"--file-prefix=wirerate-7-42");
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_STRING_EQUAL(s.path[0], "/run/u/memif.sock");
	CU_ASSERT_STRING_EQUAL(s.path[1], "/tmp/x/m.sock");
	/* The profile asked for an abstract socket: it keeps it. */
	CU_ASSERT_EQUAL(eal(abstract, 1, b, sizeof(b), &s), 2);
	CU_ASSERT_STRING_EQUAL(b, "--vdev=net_memif0,socket=/a.sock,"
			       "socket-abstract=yes --file-prefix=wirerate-7-42");
	CU_ASSERT_EQUAL(s.n, 0);
	/* A client joins a peer's socket as given; without socket= it joins
	 * ours (a server of this user's), which it does not create. */
	CU_ASSERT_EQUAL(eal(client, 2, b, sizeof(b), &s), 3);
	CU_ASSERT_STRING_EQUAL(b, "--vdev=net_memif0,role=client,socket=/peer.sock "
		"--vdev=net_memif1,role=client,socket-abstract=no,"
		"socket=/run/u/memif.sock --file-prefix=wirerate-7-42");
	CU_ASSERT_EQUAL(s.n, 0);
}

static void
test_eal_limits(void)
{
	struct wr_runtime_socks s;
	struct wr_error err;
	char long_sock[160], store[64], *out[2];
	char *in[] = { long_sock };
	char *two[] = { "a", "b" };

	snprintf(long_sock, sizeof(long_sock), "--vdev=net_memif0,socket=/%0120d", 0);
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(wr_runtime_eal(in, 1, "p", "/run/u", out, 2, store,
				       sizeof(store), &s, &err), -ENAMETOOLONG);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "longer than 107 bytes"));
	/* No room for the prefix. */
	CU_ASSERT_EQUAL(wr_runtime_eal(two, 2, "p", "/run/u", out, 2, store,
				       sizeof(store), &s, &err), -ENOSPC);
}

/* The file prefix: each spelling EAL takes is found and checked, the last
 * one is the run's (issue 31: "../../x" made the clean-up empty /x). */
static void
test_eal_prefix(void)
{
	struct wr_runtime_socks s;
	struct wr_error err;
	char store[512], *out[8], why[256];
	const char *v;
	int at;
	char *forms[] = { "--file-prefix=a", "--file-prefix", "b", "--fi=c",
			  "--file-pre", "d", "--f=e", "--file-prefixx=f",
			  "--file-prefix" };
	char *last[] = { "--file-prefix=one", "--file-prefix", "two" };
	static const struct {
		const char *arg, *why;
	} bad[] = {
		{ "--file-prefix=../../../tmp/x", "expected a name without "
		  "\"/\" or \"..\" (EAL's runtime directory is RUN/dpdk/PREFIX, "
		  "emptied at exit), got \"../../../tmp/x\"" },
		{ "--file-prefix=..", "got \"..\"" },
		{ "--file-prefix=a/b", "got \"a/b\"" },
		{ "--file-prefix=a..b", "without" },
		{ "--file-prefix=", "expected a name (" },
		{ "--file-prefix=.", "expected a name (" },
		{ "--fil=/", "got \"/\"" },
	};
	unsigned int i;

	CU_ASSERT_EQUAL(wr_runtime_prefix_opt(forms, 9, 0, &at, &v), 0);
	CU_ASSERT_EQUAL(at, 0);
	CU_ASSERT_STRING_EQUAL(v, "a");
	CU_ASSERT_EQUAL(wr_runtime_prefix_opt(forms, 9, 1, &at, &v), 1);
	CU_ASSERT_EQUAL(at, 2);
	CU_ASSERT_STRING_EQUAL(v, "b");
	CU_ASSERT_EQUAL(wr_runtime_prefix_opt(forms, 9, 2, &at, &v), 3);
	CU_ASSERT_STRING_EQUAL(v, "c");
	CU_ASSERT_EQUAL(wr_runtime_prefix_opt(forms, 9, 4, &at, &v), 4);
	CU_ASSERT_STRING_EQUAL(v, "d");
	/* "--f" is ambiguous to getopt, "--file-prefixx" another option. */
	CU_ASSERT_EQUAL(wr_runtime_prefix_opt(forms, 9, 5, &at, &v), 8);
	CU_ASSERT_EQUAL(at, 9);
	CU_ASSERT_PTR_NULL(v);
	CU_ASSERT_EQUAL(wr_runtime_prefix_opt(forms, 8, 5, &at, &v), -1);

	CU_ASSERT_EQUAL(wr_runtime_prefix_check("wirerate-0-1", why,
						sizeof(why)), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *in[] = { (char *)bad[i].arg };

		wr_error_clear(&err);
		CU_ASSERT_EQUAL(wr_runtime_eal(in, 1, "p", "/run/u", out, 8,
					       store, sizeof(store), &s, &err),
				-EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, bad[i].why));
		if (strstr(err.msg, bad[i].why) == NULL)
			fprintf(stderr, "%s: %s\n", bad[i].arg, err.msg);
	}
	/* EAL takes the last: its directory is the one noted. */
	CU_ASSERT_EQUAL(wr_runtime_eal(last, 3, "p", "/run/u", out, 8, store,
				       sizeof(store), &s, &err), 3);
	CU_ASSERT_STRING_EQUAL(s.prefix, "two");
	CU_ASSERT_EQUAL(wr_runtime_eal(last, 0, "p", "/run/u", out, 8, store,
				       sizeof(store), &s, &err), 1);
	CU_ASSERT_STRING_EQUAL(s.prefix, "p");
	CU_ASSERT_EQUAL(wr_runtime_eal_dir_of(0, "/run/user/0", "x", why,
					      sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "/var/run/dpdk/x");
	CU_ASSERT_EQUAL(wr_runtime_eal_dir_of(1000, "/run/user/1000", "x", why,
					      sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "/run/user/1000/dpdk/x");
	CU_ASSERT_EQUAL(wr_runtime_eal_dir_of(1000, NULL, "x", why,
					      sizeof(why)), 0);
	CU_ASSERT_STRING_EQUAL(why, "/tmp/dpdk/x");
}

static void
put(const char *dir, const char *name)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%.200s/%.200s", dir, name);
	f = fopen(p, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(name, f);
	fclose(f);
}

static bool
there(const char *dir, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%.200s/%.200s", dir, name);
	return access(p, F_OK) == 0;
}

/* The clean-up removes what EAL made since the note, nothing else. */
static void
test_note_clean(void)
{
	char base[] = "/tmp/wr-note-XXXXXX", dir[256];
	struct wr_runtime_note n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(base));
	snprintf(dir, sizeof(dir), "%s/p", base);
	/* A directory that was there: its files stay, and it stays; EAL's
	 * new files go, and one it replaced (a new inode) too. */
	CU_ASSERT_EQUAL(mkdir(dir, 0700), 0);
	put(dir, "keep.txt");
	put(dir, "hugepage_info");
	put(dir, "mp_socket");
	CU_ASSERT_EQUAL(wr_runtime_note_take(&n, dir), 0);
	CU_ASSERT_TRUE(n.noted && n.existed);
	put(dir, "config");
	put(dir, "fbarray_memzone");
	put(dir, "dpdk_telemetry.v2");
	put(dir, "late.txt");
	{
		char a[512], b[512];

		snprintf(a, sizeof(a), "%s/mp_socket", dir);
		snprintf(b, sizeof(b), "%s/mp_socket.new", dir);
		rename(a, b);
		put(dir, "mp_socket");
		unlink(b);
	}
	wr_runtime_note_clean(&n);
	wr_runtime_note_free(&n);
	CU_ASSERT_TRUE(there(dir, "keep.txt"));
	CU_ASSERT_TRUE(there(dir, "late.txt"));
	CU_ASSERT_TRUE(there(dir, "hugepage_info"));
	CU_ASSERT_FALSE(there(dir, "mp_socket"));
	CU_ASSERT_FALSE(there(dir, "config"));
	CU_ASSERT_FALSE(there(dir, "fbarray_memzone"));
	CU_ASSERT_FALSE(there(dir, "dpdk_telemetry.v2"));
	CU_ASSERT_TRUE(there(base, "p"));
	snprintf(dir, sizeof(dir), "%s/p/keep.txt", base);
	unlink(dir);
	snprintf(dir, sizeof(dir), "%s/p/late.txt", base);
	unlink(dir);
	snprintf(dir, sizeof(dir), "%s/p/hugepage_info", base);
	unlink(dir);
	snprintf(dir, sizeof(dir), "%s/p", base);
	CU_ASSERT_EQUAL(rmdir(dir), 0);
	/* A directory EAL made: emptied of EAL's files and removed; with a
	 * file of someone else's in it, kept with that file. */
	CU_ASSERT_EQUAL(wr_runtime_note_take(&n, dir), 0);
	CU_ASSERT_TRUE(n.noted && !n.existed);
	CU_ASSERT_EQUAL(mkdir(dir, 0700), 0);
	put(dir, "config");
	put(dir, "hugepage_info");
	wr_runtime_note_clean(&n);
	CU_ASSERT_FALSE(there(base, "p"));
	CU_ASSERT_EQUAL(mkdir(dir, 0700), 0);
	put(dir, "config");
	put(dir, "other");
	wr_runtime_note_clean(&n);
	wr_runtime_note_free(&n);
	CU_ASSERT_TRUE(there(dir, "other"));
	CU_ASSERT_FALSE(there(dir, "config"));
	/* A note never taken removes nothing. */
	memset(&n, 0, sizeof(n));
	wr_runtime_note_clean(&n);
	CU_ASSERT_TRUE(there(dir, "other"));
	snprintf(dir, sizeof(dir), "%s/p/other", base);
	unlink(dir);
	snprintf(dir, sizeof(dir), "%s/p", base);
	rmdir(dir);
	CU_ASSERT_EQUAL(rmdir(base), 0);
}

static char tmpl[] = "/tmp/wr-runtime-XXXXXX";

static void
test_dir_make(void)
{
	struct wr_error err;
	char d[128], f[160];
	struct stat st;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(tmpl));
	snprintf(d, sizeof(d), "%s/run", tmpl);
	wr_error_clear(&err);
	/* Created 0700 whatever the umask. */
	umask(0);
	CU_ASSERT_EQUAL(wr_runtime_dir_make(d, &err), 0);
	umask(022);
	CU_ASSERT_EQUAL_FATAL(stat(d, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	/* An existing one of ours is narrowed. */
	CU_ASSERT_EQUAL(chmod(d, 0755), 0);
	CU_ASSERT_EQUAL(wr_runtime_dir_make(d, &err), 0);
	CU_ASSERT_EQUAL(stat(d, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	/* A symbolic link or a file is not our directory. */
	snprintf(f, sizeof(f), "%s/link", tmpl);
	CU_ASSERT_EQUAL(symlink(d, f), 0);
	CU_ASSERT_EQUAL(wr_runtime_dir_make(f, &err), -ENOTDIR);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not a directory"));
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, WR_RUNTIME_ENV));
	/* Another user's: not ours to use (only root can make one here). */
	if (geteuid() == 0) {
		snprintf(f, sizeof(f), "%s/theirs", tmpl);
		CU_ASSERT_EQUAL(mkdir(f, 0700), 0);
		CU_ASSERT_EQUAL(chown(f, 65534, 65534), 0);
		CU_ASSERT_EQUAL(wr_runtime_dir_make(f, &err), -EPERM);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "belongs to uid 65534"));
		CU_ASSERT_EQUAL(rmdir(f), 0);
	}
	/* A parent that does not exist. */
	snprintf(f, sizeof(f), "%s/no/such", tmpl);
	CU_ASSERT_EQUAL(wr_runtime_dir_make(f, &err), -ENOENT);
	snprintf(f, sizeof(f), "%s/link", tmpl);
	unlink(f);
}

/* A SOCK_SEQPACKET socket bound at @p path, listening or not. */
static int
bound(const char *path, bool listening)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	if (strlen(path) >= sizeof(a.sun_path)) {
		close(fd);
		return -1;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 ||
	    (listening && listen(fd, 1) != 0)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void
test_memif_prepare(void)
{
	struct wr_error err;
	char d[128], sock[160], other[160];
	struct stat st;
	FILE *f;
	int fd;

	snprintf(d, sizeof(d), "%s/run", tmpl);
	snprintf(sock, sizeof(sock), "%s/memif.sock", d);
	wr_error_clear(&err);
	CU_ASSERT_EQUAL(chmod(d, 0777), 0);
	/* Nothing there: the runtime directory is made private. */
	CU_ASSERT_EQUAL(wr_runtime_memif_prepare(sock, d, &err), 0);
	CU_ASSERT_EQUAL(stat(d, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0700);
	/* A live server there: refused, left alone. */
	fd = bound(sock, true);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(wr_runtime_memif_prepare(sock, d, &err), -EADDRINUSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "another process listens"));
	CU_ASSERT_EQUAL(access(sock, F_OK), 0);
	/* Its process gone (the socket file stays, as after a kill): removed. */
	close(fd);
	CU_ASSERT_EQUAL(access(sock, F_OK), 0);
	CU_ASSERT_EQUAL(wr_runtime_memif_prepare(sock, d, &err), 0);
	CU_ASSERT_NOT_EQUAL(access(sock, F_OK), 0);
	/* A file that is not a socket is never removed. */
	f = fopen(sock, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	CU_ASSERT_EQUAL(wr_runtime_memif_prepare(sock, d, &err), -EEXIST);
	CU_ASSERT_EQUAL(access(sock, F_OK), 0);
	unlink(sock);
	/* Another directory: created 0700 when missing, not changed when not. */
	snprintf(other, sizeof(other), "%s/peer/m.sock", tmpl);
	CU_ASSERT_EQUAL(wr_runtime_memif_prepare(other, d, &err), 0);
	snprintf(other, sizeof(other), "%s/peer", tmpl);
	CU_ASSERT_EQUAL(stat(other, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0700 & ~(mode_t)022);
	CU_ASSERT_EQUAL(chmod(other, 0755), 0);
	snprintf(other, sizeof(other), "%s/peer/m.sock", tmpl);
	CU_ASSERT_EQUAL(wr_runtime_memif_prepare(other, d, &err), 0);
	snprintf(other, sizeof(other), "%s/peer", tmpl);
	CU_ASSERT_EQUAL(stat(other, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0755);
	rmdir(other);
	rmdir(d);
	rmdir(tmpl);
}

static void
test_find_profile(void)
{
	char d1[] = "/tmp/wr-prof1-XXXXXX", d2[] = "/tmp/wr-prof2-XXXXXX";
	char search[128], f[160], buf[160];
	FILE *fp;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(d1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(d2));
	snprintf(search, sizeof(search), "%s::%s", d1, d2);
	snprintf(f, sizeof(f), "%s/two.yaml", d2);
	fp = fopen(f, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fclose(fp);
	/* NAME.yaml in the second directory (an empty entry skipped). */
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "two", buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, f);
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "two.yaml", buf,
						sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, f);
	/* The first directory wins. */
	snprintf(f, sizeof(f), "%s/two.yaml", d1);
	fp = fopen(f, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	fclose(fp);
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "two", buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, f);
	unlink(f);
	/* Not there, a path, nothing: not looked up. */
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "three", buf, sizeof(buf)),
			-ENOENT);
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "x/two", buf, sizeof(buf)),
			-ENOENT);
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "", buf, sizeof(buf)),
			-ENOENT);
	CU_ASSERT_EQUAL(wr_runtime_find_profile(search, "two", buf, 8),
			-ENAMETOOLONG);
	snprintf(f, sizeof(f), "%s/two.yaml", d2);
	unlink(f);
	rmdir(d1);
	rmdir(d2);
}

static CU_TestInfo runtime_tests[] = {
	{ "find_profile", test_find_profile },
	{ "dir_rule", test_dir_rule },
	{ "prefix", test_prefix },
	{ "eal_defaults", test_eal_defaults },
	{ "eal_limits", test_eal_limits },
	{ "eal_prefix", test_eal_prefix },
	{ "note_clean", test_note_clean },
	{ "dir_make", test_dir_make },
	{ "memif_prepare", test_memif_prepare },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "runtime", .pTests = runtime_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

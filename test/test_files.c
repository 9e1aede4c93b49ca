/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_in and wr_out: inputs are regular files read within a bound; outputs never replace a device, an input or each other, honour the umask and leave nothing on a full disk. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "wr_frame.h"
#include "wr_in.h"
#include "wr_jsonl.h"
#include "wr_out.h"
#include "wr_test.h"
#include "wr_yaml.h"

#define WR_DIM_T(a) (sizeof(a) / sizeof((a)[0]))

static char dir[32];

static const char *
at(const char *name)
{
	static char buf[16][256];
	static unsigned int k;

	k = (k + 1) % 16; /* enough for one table of files */
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void
put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static unsigned int
entries(const char *d)
{
	struct dirent *e;
	unsigned int n = 0;
	DIR *h = opendir(d);

	if (h == NULL)
		return 0;
	while ((e = readdir(h)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(h);
	return n;
}

/* A test that would block on a FIFO fails instead of hanging. */
static void
on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "test_files: blocked on a file\n";

	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

static int
init(void)
{
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	alarm(60);
	snprintf(dir, sizeof(dir), "/tmp/wrfilesXXXXXX");
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int
clean(void)
{
	char cmd[64];

	alarm(0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* ---- inputs ---- */

static void
in_refused(const char *path, int want, const char *needle)
{
	char why[128] = "", *buf = (char *)1;
	size_t len = 7;

	CU_ASSERT_EQUAL(wr_in_open(path, 1 << 20, 0, why, sizeof(why)), want);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, needle));
	if (strstr(why, needle) == NULL)
		fprintf(stderr, "%s: \"%s\"\n", path, why);
	CU_ASSERT_EQUAL(wr_in_read(path, 1 << 20, &buf, &len, why,
				   sizeof(why)), want);
	CU_ASSERT_PTR_NULL(buf);
	CU_ASSERT_EQUAL(len, 0);
}

static void
test_in_kinds(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char why[128], *buf;
	size_t len;
	int fd, w, s;

	put("ok.yaml", "version: 1\n");
	CU_ASSERT_EQUAL(wr_in_read(at("ok.yaml"), 100, &buf, &len, why,
				   sizeof(why)), 0);
	CU_ASSERT_EQUAL(len, 11);
	CU_ASSERT_STRING_EQUAL(buf, "version: 1\n");
	free(buf);
	/* Exactly the maximum is allowed, one byte more is not. */
	CU_ASSERT_EQUAL(wr_in_read(at("ok.yaml"), 11, &buf, &len, why,
				   sizeof(why)), 0);
	free(buf);
	CU_ASSERT_EQUAL(wr_in_read(at("ok.yaml"), 10, &buf, &len, why,
				   sizeof(why)), -EFBIG);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "11 bytes, over the 10 bytes"));
	CU_ASSERT_EQUAL(wr_in_open(at("ok.yaml"), 10, 0, why, sizeof(why)),
			-EFBIG);
	/* A link to a regular file is read, unless refused by the caller. */
	CU_ASSERT_EQUAL_FATAL(symlink(at("ok.yaml"), at("link.yaml")), 0);
	fd = wr_in_open(at("link.yaml"), 100, 0, why, sizeof(why));
	CU_ASSERT_TRUE(fd >= 0);
	if (fd >= 0)
		close(fd);
	CU_ASSERT_EQUAL(wr_in_open(at("link.yaml"), 100, WR_IN_NOFOLLOW, why,
				   sizeof(why)), -ELOOP);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "a symbolic link"));

	in_refused(at("missing.yaml"), -ENOENT, "No such file");
	in_refused(dir, -EISDIR, "a directory, not a regular file");
	in_refused("/dev/zero", -ENODEV, "a character device, not a regular file");
	in_refused("/dev/null", -ENODEV, "a character device");
	/* A FIFO with no writer: the open would block without O_NONBLOCK. */
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("fifo"), 0600), 0);
	in_refused(at("fifo"), -ENODEV, "a FIFO, not a regular file");
	/* With a writer that never writes nor closes: a read would block. */
	w = open(at("fifo"), O_RDWR);
	CU_ASSERT_TRUE_FATAL(w >= 0);
	in_refused(at("fifo"), -ENODEV, "a FIFO");
	close(w);
	/* A link to a FIFO is the FIFO. */
	CU_ASSERT_EQUAL_FATAL(symlink(at("fifo"), at("fifolink")), 0);
	in_refused(at("fifolink"), -ENODEV, "a FIFO");
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", at("sock"));
	CU_ASSERT_EQUAL_FATAL(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	in_refused(at("sock"), -ENODEV, "a socket, not a regular file");
	close(s);
	CU_ASSERT_EQUAL(wr_in_kind(S_IFSOCK), (const char *)wr_in_kind(S_IFSOCK));
	CU_ASSERT_STRING_EQUAL(wr_in_kind(S_IFSOCK | 0600), "a socket");
	CU_ASSERT_STRING_EQUAL(wr_in_kind(S_IFBLK), "a block device");
}

/* ---- outputs ---- */

static int
hello(FILE *f, const void *arg)
{
	fputs(arg, f);
	return 0;
}

/* Writes until the disk is full (or 8 MiB). */
static int
lots(FILE *f, const void *arg)
{
	static char block[65536];
	unsigned int i;

	(void)arg;
	memset(block, 'x', sizeof(block));
	for (i = 0; i < 128; i++)
		if (fwrite(block, 1, sizeof(block), f) != sizeof(block))
			return -errno;
	return 0;
}

static void
test_out_umask(void)
{
	struct stat st;
	mode_t old = umask(077);

	CU_ASSERT_EQUAL(wr_out_atomic(at("secret.json"), hello, "{}"), 0);
	CU_ASSERT_EQUAL(stat(at("secret.json"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	umask(022);
	CU_ASSERT_EQUAL(wr_out_atomic(at("open.json"), hello, "{}"), 0);
	CU_ASSERT_EQUAL(stat(at("open.json"), &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0644);
	umask(old);
	unlink(at("secret.json"));
	unlink(at("open.json"));
}

/* Each kind of special file: refused by the check and by the writer
 * itself, and afterwards still what it was (type, inode), nothing left. */
static void
test_out_special(void)
{
	struct stat before, after;
	unsigned int n;
	const char *paths[4];
	unsigned int k, np = 0;
	int s;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(mkfifo(at("out.fifo"), 0600), 0);
	paths[np++] = at("out.fifo");
	CU_ASSERT_EQUAL_FATAL(mkdir(at("out.dir"), 0700), 0);
	paths[np++] = at("out.dir");
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", at("out.sock"));
	CU_ASSERT_EQUAL_FATAL(bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
	paths[np++] = at("out.sock");
	/* A copy of /dev/null: if anything replaced it, it is ours. */
	if (mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0)
		paths[np++] = at("null");
	n = entries(dir);
	for (k = 0; k < np; k++) {
		CU_ASSERT_EQUAL_FATAL(lstat(paths[k], &before), 0);
		CU_ASSERT_EQUAL(wr_out_check(paths[k]), S_ISDIR(before.st_mode) ?
				-EISDIR : -ENODEV);
		CU_ASSERT_EQUAL(wr_out_atomic(paths[k], hello, "x"),
				S_ISDIR(before.st_mode) ? -EISDIR : -ENODEV);
		f = (FILE *)1;
		CU_ASSERT_NOT_EQUAL(wr_out_log_open(paths[k], &f), 0);
		CU_ASSERT_EQUAL(lstat(paths[k], &after), 0);
		CU_ASSERT_EQUAL(after.st_mode, before.st_mode);
		CU_ASSERT_EQUAL(after.st_ino, before.st_ino);
		CU_ASSERT_EQUAL(after.st_rdev, before.st_rdev);
		CU_ASSERT_EQUAL(entries(dir), n);
	}
	close(s);
	CU_ASSERT_EQUAL(entries(at("out.dir")), 0);
}

static void
test_out_log(void)
{
	FILE *f = NULL;
	struct stat st;

	put("old.jsonl", "an old log, longer than the new one\n");
	CU_ASSERT_EQUAL_FATAL(wr_out_log_open(at("old.jsonl"), &f), 0);
	fputs("{}\n", f);
	CU_ASSERT_EQUAL(wr_out_log_close(at("old.jsonl"), f, true), 0);
	CU_ASSERT_EQUAL(stat(at("old.jsonl"), &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 3);
	CU_ASSERT_EQUAL_FATAL(wr_out_log_open(at("old.jsonl"), &f), 0);
	CU_ASSERT_EQUAL(wr_out_log_close(at("old.jsonl"), f, false), 0);
	CU_ASSERT_EQUAL(access(at("old.jsonl"), F_OK), -1);
}

static void
expect_files(const struct wr_out_file *fs, unsigned int n, int want,
	     const char *needle)
{
	char why[512] = "";

	int rc = wr_out_check_files(fs, n, why, sizeof(why));

	CU_ASSERT_EQUAL(rc, want);
	if (rc != want)
		fprintf(stderr, "rc %d: \"%s\"\n", rc, why);
	if (needle != NULL) {
		CU_ASSERT_PTR_NOT_NULL(strstr(why, needle));
		if (strstr(why, needle) == NULL)
			fprintf(stderr, "got \"%s\"\n", why);
	}
}

static void
test_out_files(void)
{
	char rel[300], cwd[256];

	put("s.yaml", "streams\n");
	put("p.yaml", "profile\n");
	CU_ASSERT_EQUAL_FATAL(link(at("s.yaml"), at("hard.yaml")), 0);
	CU_ASSERT_EQUAL_FATAL(symlink(at("p.yaml"), at("soft.yaml")), 0);
	CU_ASSERT_EQUAL_FATAL(mkfifo(at("o.fifo"), 0600), 0);
	{
		/* The outputs differ, the inputs are only read. */
		const struct wr_out_file ok[] = {
			{ "--json", at("r.json"), WR_OUT_REPLACE },
			{ "--csv", at("r.csv"), WR_OUT_REPLACE },
			{ "--stats-jsonl", at("r.jsonl"), WR_OUT_LOG },
			{ "--unused", NULL, WR_OUT_REPLACE },
			{ "the stream file", at("s.yaml"), WR_OUT_INPUT },
			{ "the profile", at("p.yaml"), WR_OUT_INPUT },
			{ "the capture", at("missing.pcap"), WR_OUT_INPUT },
			{ "tx_pcap", at("t0.pcap"), WR_OUT_FOREIGN },
			{ "tx_pcap", at("t1.pcap"), WR_OUT_FOREIGN },
		};
		expect_files(ok, WR_DIM_T(ok), 0, NULL);
	}
	{
		/* net_pcap's tx_pcap as any output (issue 31): a FIFO hung
		 * EAL's start, a device took the frames. */
		const struct wr_out_file f[] = {
			{ "net_pcap's tx_pcap", "/dev/full", WR_OUT_FOREIGN },
		};
		const struct wr_out_file g[] = {
			{ "net_pcap's tx_pcap", at("o.fifo"), WR_OUT_FOREIGN },
		};
		const struct wr_out_file h[] = {
			{ "net_pcap's tx_pcap", dir, WR_OUT_FOREIGN },
		};
		expect_files(f, 1, -ENODEV, "net_pcap's tx_pcap /dev/full: "
			     "cannot write there: a character device, not a "
			     "regular file");
		expect_files(g, 1, -ENODEV, "a FIFO, not a regular file");
		expect_files(h, 1, -EISDIR, "a directory, not a regular file");
	}
	{
		const struct wr_out_file f[] = {
			{ "--pcap", at("s.yaml"), WR_OUT_REPLACE },
			{ "the stream file", at("s.yaml"), WR_OUT_INPUT },
		};
		expect_files(f, 2, -EEXIST, "the same file as the stream file");
	}
	{
		/* Another name of the same inode: a hard link, a symlink. */
		const struct wr_out_file f[] = {
			{ "--json", at("hard.yaml"), WR_OUT_REPLACE },
			{ "the stream file", at("s.yaml"), WR_OUT_INPUT },
		};
		const struct wr_out_file g[] = {
			{ "the profile", at("p.yaml"), WR_OUT_INPUT },
			{ "--stats-jsonl", at("soft.yaml"), WR_OUT_LOG },
		};
		expect_files(f, 2, -EEXIST, "--json");
		expect_files(g, 2, -EEXIST, "an output never overwrites an input");
	}
	{
		/* Two spellings of a file that does not exist yet. */
		snprintf(rel, sizeof(rel), "%s/../%s/o", dir, strrchr(dir, '/') + 1);
		const struct wr_out_file f[] = {
			{ "--json", at("o"), WR_OUT_REPLACE },
			{ "--csv", rel, WR_OUT_REPLACE },
		};
		expect_files(f, 2, -EEXIST, "each output needs a path of its own");
		CU_ASSERT_EQUAL(access(at("o"), F_OK), -1);
	}
	{
		/* Relative to the working directory as well. */
		CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof(cwd)));
		CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
		const struct wr_out_file f[] = {
			{ "--report's JSON", "r.html.json", WR_OUT_REPLACE },
			{ "--json", at("r.html.json"), WR_OUT_REPLACE },
		};
		expect_files(f, 2, -EEXIST, "--json");
		const struct wr_out_file g[] = {
			{ "tx_pcap", "./p.yaml", WR_OUT_FOREIGN },
			{ "the profile", at("p.yaml"), WR_OUT_INPUT },
		};
		const struct wr_out_file h[] = {
			{ "tx_pcap", "x.pcap", WR_OUT_FOREIGN },
			{ "tx_pcap", "./x.pcap", WR_OUT_FOREIGN },
		};
		expect_files(g, 2, -EEXIST, "tx_pcap ./p.yaml: the same file as the profile");
		expect_files(h, 2, -EEXIST, "tx_pcap ./x.pcap: the same file as tx_pcap x.pcap");
		CU_ASSERT_EQUAL(chdir(cwd), 0);
	}
	{
		const struct wr_out_file f[] = {
			{ "--json", "/dev/null", WR_OUT_REPLACE },
		};
		const struct wr_out_file g[] = {
			{ "--stats-jsonl", at("o.fifo"), WR_OUT_LOG },
		};
		const struct wr_out_file h[] = {
			{ "--csv", at("nodir/x.csv"), WR_OUT_REPLACE },
		};
		expect_files(f, 1, -ENODEV, "--json /dev/null: cannot write there: "
			     "a character device, not a regular file");
		expect_files(g, 1, -ENODEV, "a FIFO, not a regular file");
		expect_files(h, 1, -ENOENT, "No such file or directory");
	}
}

/* net_pcap's files among EAL arguments, as a profile or the command line
 * gives them. */
static void
test_out_pcap_devargs(void)
{
	char *const args[] = {
		"--no-pci", "--vdev=net_pcap0,rx_pcap=in.pcap,tx_pcap=out.pcap",
		"--vdev", "net_pcap1,tx_pcap=/dev/null,tx_pcap=q1.pcap",
		"--vdev=net_null0,my_tx_pcap=no", "tx_pcap=first",
	};
	struct wr_out_file files[8] = { { "--json", "r.json", WR_OUT_REPLACE } };
	unsigned int n = 0;
	char *paths = (char *)1;

	CU_ASSERT_EQUAL(wr_out_pcap_devargs(args, 6, NULL, 0, &n, NULL), 0);
	CU_ASSERT_EQUAL(n, 5);
	n = 1;
	CU_ASSERT_EQUAL_FATAL(wr_out_pcap_devargs(args, 6, files, 8, &n,
						  &paths), 0);
	CU_ASSERT_EQUAL_FATAL(n, 6);
	CU_ASSERT_STRING_EQUAL(files[0].path, "r.json");
	/* Per argument, tx_pcap= before rx_pcap=. */
	CU_ASSERT_STRING_EQUAL(files[1].path, "out.pcap");
	CU_ASSERT_EQUAL(files[1].use, WR_OUT_FOREIGN);
	CU_ASSERT_STRING_EQUAL(files[1].what, "net_pcap's tx_pcap");
	CU_ASSERT_STRING_EQUAL(files[2].path, "in.pcap");
	CU_ASSERT_EQUAL(files[2].use, WR_OUT_INPUT);
	CU_ASSERT_STRING_EQUAL(files[3].path, "/dev/null");
	CU_ASSERT_STRING_EQUAL(files[4].path, "q1.pcap");
	CU_ASSERT_STRING_EQUAL(files[5].path, "first");
	free(paths);
	n = 0;
	CU_ASSERT_EQUAL(wr_out_pcap_devargs(args, 6, files, 3, &n, &paths),
			-E2BIG);
	n = 0;
	CU_ASSERT_EQUAL(wr_out_pcap_devargs(args, 1, files, 8, &n, &paths), 0);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(paths);
}

/* A disk that fills: a 64 KiB tmpfs of our own.  Every writer fails with
 * ENOSPC and leaves nothing (not even its temporary); an old file stays. */
static void
test_out_full_disk(void)
{
	const char *mnt = at("full");
	struct wr_report_row port, st;
	struct wr_report_view v;
	struct wr_stream_file f;
	struct wr_error err;
	struct wr_jsonl j;
	char path[300];
	unsigned int i;
	int rc = 0;

	if (geteuid() != 0) {
		fprintf(stderr, "full_disk: needs root to mount a tmpfs: not run\n");
		return;
	}
	CU_ASSERT_EQUAL_FATAL(mkdir(mnt, 0755), 0);
	CU_ASSERT_EQUAL_FATAL(mount("wrfull", mnt, "tmpfs", MS_NOSUID | MS_NODEV,
				    "size=64k"), 0);
	snprintf(path, sizeof(path), "%s/r.json", mnt);
	CU_ASSERT_EQUAL(wr_out_atomic(path, hello, "old"), 0);
	CU_ASSERT_EQUAL(wr_out_atomic(path, lots, NULL), -ENOSPC);
	CU_ASSERT_EQUAL(entries(mnt), 1);
	CU_ASSERT_EQUAL(wr_out_atomic(path, hello, "new"), 0);
	unlink(path);

	/* The live log: lines until the disk is full, then removed. */
	snprintf(path, sizeof(path), "%s/l.jsonl", mnt);
	memset(&port, 0, sizeof(port));
	memset(&st, 0, sizeof(st));
	memset(&v, 0, sizeof(v));
	v.ports = &port;
	v.n_ports = 1;
	v.streams = &st;
	v.n_streams = 1;
	CU_ASSERT_EQUAL_FATAL(wr_jsonl_open(&j, path, 1, 1), 0);
	for (i = 0; i < 100000 && rc == 0; i++) {
		v.elapsed_ns += 1000000000ull;
		rc = wr_jsonl_write(&j, &v, 0, false);
	}
	CU_ASSERT_EQUAL(rc, -ENOSPC);
	CU_ASSERT_EQUAL(wr_jsonl_close(&j), -ENOSPC);
	CU_ASSERT_EQUAL(entries(mnt), 0);

	/* dump --pcap: 10000 frames of 1518 bytes do not fit. */
	{
		static const char text[] = "version: 1\nstreams:\n"
					   "  - name: s\n    size: 1518\n";

		CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_buf("s.yaml", text,
			strlen(text), &f, &err), 0);
	}
	snprintf(path, sizeof(path), "%s/d.pcap", mnt);
	CU_ASSERT_EQUAL(wr_frame_dump_pcap(&f, 0, 10000, path, &err), -EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "No space left on device"));
	CU_ASSERT_EQUAL(entries(mnt), 0);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL(umount2(mnt, MNT_DETACH), 0);
	rmdir(mnt);
}

/* wr_in_open_beneath(): inside the directory by a relative name, never out
 * of it (the server's --pcap-dir). */
static void
test_in_beneath(void)
{
	char why[128], sub[256];
	int d, fd;

	snprintf(sub, sizeof(sub), "%s", at("pd"));
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
	CU_ASSERT_EQUAL(mkdir(at("pd/in"), 0700), 0);
	put("pd/in/a.pcap", "capture\n");
	put("outside", "secret\n");
	CU_ASSERT_EQUAL(symlink(at("outside"), at("pd/link")), 0);
	CU_ASSERT_EQUAL(symlink(dir, at("pd/up")), 0);
	d = open(sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CU_ASSERT_FATAL(d >= 0);
	fd = wr_in_open_beneath(d, "in/a.pcap", 100, why, sizeof(why));
	CU_ASSERT(fd >= 0);
	if (fd >= 0)
		close(fd);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "../outside", 100, why,
					   sizeof(why)), -EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, at("outside"), 100, why,
					   sizeof(why)), -EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "link", 100, why, sizeof(why)),
			-EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "up/outside", 100, why,
					   sizeof(why)), -EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "in/../in/a.pcap", 100, why,
					   sizeof(why)), -EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "in//a.pcap", 100, why,
					   sizeof(why)), -EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "", 100, why, sizeof(why)),
			-EPERM);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "in/missing", 100, why,
					   sizeof(why)), -ENOENT);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "in", 100, why, sizeof(why)),
			-EISDIR);
	CU_ASSERT_EQUAL(wr_in_open_beneath(d, "in/a.pcap", 4, why,
					   sizeof(why)), -EFBIG);
	close(d);
}

static CU_TestInfo in_tests[] = {
	{ "kinds", test_in_kinds },
	{ "beneath", test_in_beneath },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo out_tests[] = {
	{ "umask", test_out_umask },
	{ "special", test_out_special },
	{ "log", test_out_log },
	{ "files", test_out_files },
	{ "pcap_devargs", test_out_pcap_devargs },
	{ "full_disk", test_out_full_disk },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "in", .pInitFunc = init, .pCleanupFunc = clean,
	  .pTests = in_tests },
	{ .pName = "out", .pInitFunc = init, .pCleanupFunc = clean,
	  .pTests = out_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

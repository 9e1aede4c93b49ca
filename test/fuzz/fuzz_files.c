/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_files: libFuzzer target that opens files of every kind the way the loaders do, and writes over them the way the outputs do. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "wr_auth.h"
#include "wr_replay_pcap.h"
#include "wr_config.h"
#include "wr_in.h"
#include "wr_out.h"
#include "wr_peer.h"
#include "wr_yaml.h"

/*
 * The input's first bytes choose two files, A and B, each of one kind
 * (below), and a budget; the rest is the bytes of the regular ones.  A is
 * given to every loader by name (stream file, profile, capture, token
 * file, --peer namespace, wr_in_read) and to every output check and writer
 * (wr_out_check, wr_out_check_files, wr_out_atomic, the live log); B is the
 * capture a stream file names with pcap:.
 *
 * Promises checked: no call blocks or runs long (each is timed, and an
 * alarm ends a call stuck in the kernel); a file that is not a regular one
 * (or too large) is refused by every loader with a message, and with the
 * pcap: key's line for B; no output is written over A unless A is a
 * regular file, and a refused A is afterwards what it was (type, inode,
 * device numbers, bytes); nothing is left beside it.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum kind {
	K_REGULAR,
	K_FIFO,          /* no writer: a blocking open would wait for ever */
	K_FIFO_WRITER,   /* a writer that never closes: a read would wait */
	K_ZERO,          /* a link to /dev/zero: never ends */
	K_NULL,          /* a link to /dev/null: a device outputs must not replace */
	K_DIR,
	K_LINK,          /* a link to a regular file */
	K_HUGE,          /* a sparse regular file over every maximum */
	K_SOCKET,
	K_MISSING,
	K_DANGLING,
	K_LOOP,          /* a link to itself */
	K__COUNT,
};

/* The longest any one call may take: reading a few KB, or refusing. */
#define CALL_NS 2000000000ull

static char dir[64];
static int writer_fd = -1, sock_fd = -1;

static void
remove_dir(void)
{
	rmdir(dir);
}

static void
on_alarm(int sig)
{
	(void)sig;
	__builtin_trap();  /* a call blocked: the bug this target hunts */
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define TIMED(expr) do {                                  \
		uint64_t t0_ = now_ns();                  \
		alarm(5);                                 \
		expr;                                     \
		alarm(0);                                 \
		if (now_ns() - t0_ > CALL_NS)             \
			__builtin_trap();                 \
	} while (0)

static const char *
at(char *buf, const char *name)
{
	snprintf(buf, 128, "%s/%s", dir, name);
	return buf;
}

static void
put(const char *path, const uint8_t *b, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		__builtin_trap();
	if (n > 0 && write(fd, b, n) != (ssize_t)n)
		__builtin_trap();
	close(fd);
}

/* Make @p name a file of kind @p k; regular ones hold @p b. */
static void
make(const char *name, enum kind k, const uint8_t *b, size_t n, uint64_t huge)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char p[128], q[128];
	int fd;

	at(p, name);
	switch (k) {
	case K_REGULAR:
		put(p, b, n);
		break;
	case K_FIFO:
	case K_FIFO_WRITER:
		if (mkfifo(p, 0600) != 0)
			__builtin_trap();
		if (k == K_FIFO_WRITER) {
			writer_fd = open(p, O_RDWR | O_NONBLOCK | O_CLOEXEC);
			/* Some bytes waiting, the end never coming. */
			if (writer_fd < 0 || (n > 0 && write(writer_fd, b,
					      n < 4096 ? n : 4096) < 0))
				__builtin_trap();
		}
		break;
	case K_ZERO:
		if (symlink("/dev/zero", p) != 0)
			__builtin_trap();
		break;
	case K_NULL:
		if (symlink("/dev/null", p) != 0)
			__builtin_trap();
		break;
	case K_DIR:
		if (mkdir(p, 0700) != 0)
			__builtin_trap();
		break;
	case K_LINK: {
		char t[64];

		snprintf(t, sizeof(t), "%s.target", name);
		put(at(q, t), b, n);
		if (symlink(t, p) != 0)
			__builtin_trap();
		break;
	}
	case K_HUGE:
		fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || ftruncate(fd, (off_t)huge) != 0)
			__builtin_trap();
		close(fd);
		break;
	case K_SOCKET:
		sock_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p);
		if (sock_fd < 0 ||
		    bind(sock_fd, (struct sockaddr *)&sa, sizeof(sa)) != 0)
			__builtin_trap();
		break;
	case K_MISSING:
		break;
	case K_DANGLING:
		if (symlink("nowhere", p) != 0)
			__builtin_trap();
		break;
	case K_LOOP:
		if (symlink(name, p) != 0)
			__builtin_trap();
		break;
	default:
		__builtin_trap();
	}
}

static bool
readable(enum kind k)
{
	return k == K_REGULAR || k == K_LINK;
}

struct look {
	int rc;
	struct stat st;
	uint8_t *bytes;
	size_t n;
};

/* What @p path is now, without following it. */
static void
look(const char *path, struct look *l)
{
	char *b = NULL;
	size_t n = 0;
	struct stat st;

	memset(l, 0, sizeof(*l));
	l->rc = lstat(path, &l->st);
	if (l->rc == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size < (1 << 20)) {
		FILE *f = fopen(path, "rb");

		if (f != NULL) {
			b = malloc((size_t)st.st_size + 1);
			if (b != NULL)
				n = fread(b, 1, (size_t)st.st_size, f);
			fclose(f);
		}
	}
	l->bytes = (uint8_t *)b;
	l->n = n;
}

static void
same(const struct look *a, const struct look *b)
{
	if (a->rc != b->rc || (a->rc == 0 &&
	    (a->st.st_mode != b->st.st_mode || a->st.st_ino != b->st.st_ino ||
	     a->st.st_rdev != b->st.st_rdev || a->n != b->n ||
	     (a->n > 0 && memcmp(a->bytes, b->bytes, a->n) != 0))))
		__builtin_trap();
}

static int
small_writer(FILE *f, const void *arg)
{
	(void)arg;
	fputs("{\"fuzz\": 1}\n", f);
	return 0;
}

static unsigned int
entries(void)
{
	struct dirent *e;
	unsigned int n = 0;
	DIR *d = opendir(dir);

	if (d == NULL)
		__builtin_trap();
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The loaders on A: none may accept what is not a regular file. */
static void
loaders(const char *a, enum kind k, uint64_t max)
{
	struct wr_stream_file f;
	struct wr_capture c;
	struct wr_config cfg;
	struct wr_error err;
	struct wr_peer peer;
	char why[256], spec[200], tok[WR_AUTH_TOKEN_MAX + 1], *buf;
	size_t len;
	int rc;

	wr_error_clear(&err);
	TIMED(rc = wr_yaml_load_streams(a, &f, &err));
	if (rc == 0)
		wr_stream_file_free(&f);
	else if (err.msg[0] == '\0')
		__builtin_trap();
	if (rc == 0 && !readable(k))
		__builtin_trap();
	TIMED(rc = wr_config_load(a, &cfg, &err));
	if (rc == 0)
		wr_config_free(&cfg);
	if (rc == 0 && !readable(k))
		__builtin_trap();
	TIMED(rc = wr_capture_load(a, max, &c, &err));
	if (rc == 0)
		wr_capture_free(&c);
	else if (c.n != 0 || c.data != NULL || err.msg[0] == '\0')
		__builtin_trap();
	if (rc == 0 && !readable(k))
		__builtin_trap();
	TIMED(rc = wr_in_read(a, max, &buf, &len, why, sizeof(why)));
	if (rc == 0) {
		if (!readable(k) || len > max || buf[len] != '\0')
			__builtin_trap();
		free(buf);
	} else if (why[0] == '\0' || buf != NULL) {
		__builtin_trap();
	}
	/* The server's token file: no link either. */
	TIMED(rc = wr_auth_token_load(a, tok, sizeof(tok), &err));
	if (rc == 0 && k != K_REGULAR)
		__builtin_trap();
	if (rc != 0 && err.msg[0] == '\0')
		__builtin_trap();
	/* A --peer netdev: namespace: none of these is one. */
	snprintf(spec, sizeof(spec), "netdev:%s/lo", a);
	if (wr_peer_parse(&peer, spec, why, sizeof(why)) == 0) {
		TIMED(rc = wr_peer_open(&peer, why, sizeof(why)));
		if (rc == 0)
			__builtin_trap();
		wr_peer_close(&peer);
	}
}

/* The outputs on A: only a regular file (or nothing) may be written. */
static void
outputs(const char *a, enum kind k, const char *in)
{
	const struct wr_out_file files[] = {
		{ "--json", a, WR_OUT_REPLACE },
		{ "the stream file", in, WR_OUT_INPUT },
	};
	/* A dangling link or a loop is replaced as a missing file is. */
	bool writable = k == K_REGULAR || k == K_LINK || k == K_HUGE ||
			k == K_MISSING || k == K_DANGLING || k == K_LOOP;
	struct look before, after;
	unsigned int n0;
	char why[512];
	FILE *f;
	int rc;

	look(a, &before);
	n0 = entries();
	TIMED(rc = wr_out_check(a));
	if (rc == 0 && !writable)
		__builtin_trap();
	TIMED(rc = wr_out_check_files(files, 2, why, sizeof(why)));
	if (rc == 0 && !writable)
		__builtin_trap();
	if (!writable) {
		/* Refused: written nowhere, changed in nothing. */
		TIMED(rc = wr_out_atomic(a, small_writer, NULL));
		if (rc == 0)
			__builtin_trap();
		f = NULL;
		TIMED(rc = wr_out_log_open(a, &f));
		if (rc == 0)
			__builtin_trap();
		look(a, &after);
		same(&before, &after);
		free(after.bytes);
		if (entries() != n0)
			__builtin_trap();
	}
	free(before.bytes);
}

/* A stream file naming B: B's faults are at the pcap: key, line 5. */
static void
named(const char *b, enum kind k, uint64_t max)
{
	struct wr_stream_file f;
	struct wr_error err;
	char s[128], text[400];
	int rc, n;

	n = snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: r\n"
		     "    memory: %llu\n    pcap: %s\n", (unsigned long long)max,
		     b);
	put(at(s, "s.yaml"), (const uint8_t *)text, (size_t)n);
	TIMED(rc = wr_yaml_load_streams(s, &f, &err));
	if (rc == 0) {
		if (!readable(k))
			__builtin_trap();
		wr_stream_file_free(&f);
		return;
	}
	if (!readable(k) && (err.line != 5 ||
	    strcmp(err.path, "streams[0].pcap") != 0))
		__builtin_trap();
	unlink(s);
}

static void
clean(void)
{
	struct dirent *e;
	char p[128];
	DIR *d;

	if (writer_fd >= 0)
		close(writer_fd);
	if (sock_fd >= 0)
		close(sock_fd);
	writer_fd = sock_fd = -1;
	d = opendir(dir);
	if (d == NULL)
		__builtin_trap();
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		at(p, e->d_name);
		if (unlink(p) != 0 && rmdir(p) != 0)
			__builtin_trap();
	}
	closedir(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum kind ka, kb;
	uint64_t max;
	char a[128], b[128];
	size_t half;

	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "/tmp/wrfuzzfilesXXXXXX");
		if (mkdtemp(dir) == NULL)
			__builtin_trap();
		atexit(remove_dir);
		signal(SIGALRM, on_alarm);
		signal(SIGPIPE, SIG_IGN);
	}
	if (size < 3)
		return 0;
	ka = (enum kind)(data[0] % K__COUNT);
	kb = (enum kind)(data[1] % K__COUNT);
	/* A budget from 64 bytes to 64 MiB: both sides of small files. */
	max = 64ull << (data[2] % 21);
	data += 3;
	size -= 3;
	half = size / 2;
	/* A's huge file is over the YAML maximum (and so over max); B's
	 * over the stream's budget. */
	make("a", ka, data, half, WR_IN_YAML_MAX + 1);
	make("b", kb, data + half, size - half, max + 1);
	at(a, "a");
	at(b, "b");
	loaders(a, ka, max);
	outputs(a, ka, b);
	named(b, kb, max);
	clean();
	return 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_in: opening and reading input files: regular files only, bounded. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wr_in.h"

const char *
wr_in_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "not a regular file";
	}
}

/* "12.5 MiB", "300 bytes": sizes in errors. */
static void
size_text(uint64_t n, char *buf, size_t len)
{
	if (n < 1024)
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
	else if (n < (1ull << 20))
		snprintf(buf, len, "%.1f KiB", (double)n / 1024);
	else
		snprintf(buf, len, "%.1f MiB", (double)n / (1 << 20));
}

/* @p more: the file grew while read, @p size is where reading stopped. */
static int
too_big(uint64_t size, uint64_t max, bool more, char *why, size_t why_len)
{
	char a[32], b[32];

	size_text(size, a, sizeof(a));
	size_text(max, b, sizeof(b));
	snprintf(why, why_len, "%s%s, over the %s such a file may be",
		 more ? "more than " : "", a, b);
	return -EFBIG;
}

/* @p fd if it is a regular file of at most @p max bytes; else closed, with
 * why, and a negative errno. */
static int
regular_fd(int fd, uint64_t max, char *why, size_t why_len)
{
	struct stat st;
	int e;

	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		snprintf(why, why_len, "%s", strerror(e));
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, why_len, "%s, not a regular file",
			 wr_in_kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return too_big((uint64_t)st.st_size, max, false, why,
			       why_len);
	}
	return fd;
}

int
wr_in_open(const char *path, uint64_t max, unsigned int flags, char *why,
	   size_t why_len)
{
	struct stat st;
	int fd, e;

	/* O_NONBLOCK: a FIFO opens at once instead of waiting for a
	 * writer; it is refused just below, before any read. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY |
		  ((flags & WR_IN_NOFOLLOW) ? O_NOFOLLOW : 0));
	if (fd < 0) {
		e = errno;
		/* ENXIO: a socket (or a device with no driver). */
		if (e == ENXIO && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			snprintf(why, why_len, "%s, not a regular file",
				 wr_in_kind(st.st_mode));
			return -ENODEV;
		}
		if (e == ELOOP && (flags & WR_IN_NOFOLLOW))
			snprintf(why, why_len, "a symbolic link, not a "
				 "regular file");
		else
			snprintf(why, why_len, "%s", strerror(e));
		return -e;
	}
	return regular_fd(fd, max, why, why_len);
}

int
wr_in_open_beneath(int dirfd, const char *name, uint64_t max, char *why,
		   size_t why_len)
{
	char comp[WR_IN_BENEATH_MAX + 1];
	const char *p = name, *slash;
	int fd = dirfd, next, e;
	size_t n;

	if (strlen(name) > WR_IN_BENEATH_MAX || name[0] == '\0' ||
	    name[0] == '/') {
		snprintf(why, why_len, "not a relative name");
		return -EPERM;
	}
	for (;;) {
		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (n == 0 || strcmp(comp, ".") == 0 ||
		    strcmp(comp, "..") == 0) {
			if (fd != dirfd)
				close(fd);
			snprintf(why, why_len, "an empty, . or .. component");
			return -EPERM;
		}
		/* A directory on the way, or the file (which wr_in_open()'s
		 * checks then take as it does a path). */
		next = openat(fd, comp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
			      O_NOCTTY | O_NONBLOCK |
			      (slash ? O_DIRECTORY : 0));
		e = errno;
		if (fd != dirfd)
			close(fd);
		if (next < 0) {
			snprintf(why, why_len, "%s", e == ELOOP ?
				 "a symbolic link on the way" : strerror(e));
			return e == ELOOP || (slash && e == ENOTDIR) ?
			       -EPERM : -e;
		}
		fd = next;
		if (slash == NULL)
			break;
		p = slash + 1;
	}
	return regular_fd(fd, max, why, why_len);
}

int
wr_in_read(const char *path, uint64_t max, char **buf, size_t *len,
	   char *why, size_t why_len)
{
	struct stat st;
	size_t cap, n = 0;
	char *b, *nb;
	ssize_t r;
	int fd, rc = 0;

	*buf = NULL;
	*len = 0;
	fd = wr_in_open(path, max, 0, why, why_len);
	if (fd < 0)
		return fd;
	/* The size is where to start; a file that grows is read on, up to
	 * max and one byte more to see that it went over. */
	cap = fstat(fd, &st) == 0 && (uint64_t)st.st_size < max ?
	      (size_t)st.st_size + 2 : 4096;
	b = malloc(cap);
	if (b == NULL) {
		rc = -ENOMEM;
		snprintf(why, why_len, "out of memory");
		goto out;
	}
	for (;;) {
		if (n + 1 >= cap) {
			nb = realloc(b, cap * 2);
			if (nb == NULL) {
				rc = -ENOMEM;
				snprintf(why, why_len, "out of memory");
				goto out;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			snprintf(why, why_len, "%s", strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			rc = too_big(max, max, true, why, why_len);
			goto out;
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	b = NULL;
out:
	free(b);
	close(fd);
	return rc;
}

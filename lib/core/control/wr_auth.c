/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_auth: the token file, session secrets, constant-time comparison, the failed-login limiter. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wr_auth.h"
#include "wr_in.h"

/* ---- the token file ---- */

int
wr_auth_token_parse(const char *buf, size_t len, char *tok, size_t tok_len,
		    const char **why)
{
	const char *nl = memchr(buf, '\n', len);
	size_t n = nl != NULL ? (size_t)(nl - buf) : len, i;

	if (n > 0 && buf[n - 1] == '\r')
		n--;
	if (n < WR_AUTH_TOKEN_MIN) {
		*why = "the token must be at least 16 characters";
		return -EINVAL;
	}
	if (n > WR_AUTH_TOKEN_MAX || n >= tok_len) {
		*why = "the token must be at most 255 characters";
		return -EINVAL;
	}
	/* Printable, no blanks: the Python client strips the line it reads,
	 * so a token with spaces at an end could never match. */
	for (i = 0; i < n; i++)
		if (buf[i] <= ' ' || buf[i] > '~') {
			*why = "the token must be printable ASCII without "
			       "spaces or control characters";
			return -EINVAL;
		}
	memcpy(tok, buf, n);
	tok[n] = '\0';
	return 0;
}

int
wr_auth_token_load(const char *path, char *tok, size_t tok_len,
		   struct wr_error *err)
{
	char buf[WR_AUTH_TOKEN_FILE_MAX + 1], kwhy[128];
	const char *why = NULL;
	struct stat st;
	size_t got = 0;
	ssize_t n;
	int fd, rc;

	/* A regular file of at most WR_AUTH_TOKEN_FILE_MAX bytes, opened so
	 * that a FIFO cannot block (wr_in.h); O_NOFOLLOW: the file itself,
	 * not where a link points today. */
	fd = wr_in_open(path, WR_AUTH_TOKEN_FILE_MAX, WR_IN_NOFOLLOW, kwhy,
			sizeof(kwhy));
	if (fd < 0) {
		rc = fd == -ENODEV || fd == -EISDIR ? -EPERM : fd;
		return wr_error_set(err, rc, NULL, 0, 0, "--token-file",
				    "%s: %s%s", path, kwhy, fd == -ELOOP ?
				    ": give the file itself" : fd == -EFBIG ?
				    ": expected one line of at most 255 "
				    "characters" : "");
	}
	if (fstat(fd, &st) != 0) {
		rc = -errno;
		close(fd);
		return wr_error_set(err, rc, NULL, 0, 0, "--token-file",
				    "%s: %s", path, strerror(-rc));
	}
	if (st.st_uid != geteuid()) {
		close(fd);
		return wr_error_set(err, -EPERM, NULL, 0, 0, "--token-file",
				    "%s: owned by uid %u, not by this user (uid "
				    "%u)", path, (unsigned int)st.st_uid,
				    (unsigned int)geteuid());
	}
	if ((st.st_mode & 077) != 0) {
		close(fd);
		return wr_error_set(err, -EPERM, NULL, 0, 0, "--token-file",
				    "%s: mode %04o: the token file must be "
				    "readable by no one else (chmod 600)", path,
				    (unsigned int)(st.st_mode & 07777));
	}
	/* Bounded whatever the file does meanwhile (it may grow). */
	while (got < sizeof(buf)) {
		n = read(fd, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got > WR_AUTH_TOKEN_FILE_MAX)
		return wr_error_set(err, -EFBIG, NULL, 0, 0, "--token-file",
				    "%s: grew past %u bytes while read", path,
				    WR_AUTH_TOKEN_FILE_MAX);
	rc = wr_auth_token_parse(buf, got, tok, tok_len, &why);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, "--token-file",
				    "%s: %s", path, why);
	return 0;
}

/* ---- secrets ---- */

int
wr_auth_secret_new(char *out, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[WR_AUTH_SECRET_LEN / 2];
	size_t got = 0, i;
	ssize_t n;

	if (len < WR_AUTH_SECRET_LEN + 1)
		return -ENOSPC;
	while (got < sizeof(b)) {
		n = getrandom(b + got, sizeof(b) - got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	for (i = 0; i < sizeof(b); i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 15];
	}
	out[WR_AUTH_SECRET_LEN] = '\0';
	return 0;
}

bool
wr_auth_equal(const char *secret, const char *given)
{
	size_t n = strlen(secret), m, i;
	unsigned char d;

	if (given == NULL)
		return false;
	m = strlen(given);
	d = n != m;
	for (i = 0; i < n; i++)
		d |= (unsigned char)(secret[i] ^ (i < m ? given[i] : 0));
	return d == 0 && n > 0;
}

/* ---- failed logins ---- */

void
wr_auth_limit_init(struct wr_auth_limit *l)
{
	memset(l, 0, sizeof(*l));
	l->period = 1;
}

static struct wr_auth_source *
source_find(const struct wr_auth_limit *l, const char *addr)
{
	unsigned int i;

	for (i = 0; i < l->n_src; i++)
		if (strcmp(l->src[i].addr, addr) == 0)
			return (struct wr_auth_source *)&l->src[i];
	return NULL;
}

/* The address's entry, made when new; a full table forgets the address
 * quiet the longest (the global budget still bounds the guesses of
 * whoever flushes it with many addresses). */
static struct wr_auth_source *
source_get(struct wr_auth_limit *l, const char *addr)
{
	struct wr_auth_source *s = source_find(l, addr);
	unsigned int i, old = 0;

	if (s != NULL)
		return s;
	if (l->n_src < WR_AUTH_SOURCES) {
		s = &l->src[l->n_src++];
	} else {
		for (i = 1; i < l->n_src; i++)
			if (l->src[i].last_ms < l->src[old].last_ms)
				old = i;
		s = &l->src[old];
	}
	memset(s, 0, sizeof(*s));
	snprintf(s->addr, sizeof(s->addr), "%s", addr);
	return s;
}

/* GCRA: a failure conforms while the theoretical arrival time is at most
 * (burst - 1) intervals ahead of now. */
#define GLOBAL_TAU_MS ((uint64_t)(WR_AUTH_GLOBAL_BURST - 1) * WR_AUTH_GLOBAL_MS)

uint64_t
wr_auth_limit_wait_ms(const struct wr_auth_limit *l, const char *addr,
		      uint64_t now_ms)
{
	const struct wr_auth_source *s = source_find(l, addr);
	uint64_t w = 0, g = 0;

	if (s != NULL && s->until_ms > now_ms)
		w = s->until_ms - now_ms;
	if (l->global_tat_ms > now_ms + GLOBAL_TAU_MS)
		g = l->global_tat_ms - now_ms - GLOBAL_TAU_MS;
	return w > g ? w : g;
}

bool
wr_auth_limit_failed(struct wr_auth_limit *l, const char *addr, bool refused,
		     uint64_t now_ms)
{
	struct wr_auth_source *s = source_get(l, addr);

	if (s->last_ms != 0 && now_ms - s->last_ms >= WR_AUTH_FORGET_MS) {
		s->fails = 0;
		s->until_ms = 0;
	}
	if (!refused) {
		if (s->fails < UINT32_MAX)
			s->fails++;
		if (s->fails > WR_AUTH_FREE_FAILS) {
			uint32_t k = s->fails - WR_AUTH_FREE_FAILS - 1;
			uint64_t b = k >= 20 ? WR_AUTH_BACKOFF_MAX_MS :
				(uint64_t)WR_AUTH_BACKOFF_MS << k;

			s->until_ms = now_ms + (b < WR_AUTH_BACKOFF_MAX_MS ?
						b : WR_AUTH_BACKOFF_MAX_MS);
		}
		l->global_tat_ms = (l->global_tat_ms > now_ms ?
				    l->global_tat_ms : now_ms) +
				   WR_AUTH_GLOBAL_MS;
	}
	s->last_ms = now_ms;
	/* The log: counted for the period's summary; the first failure of
	 * each address in a period, up to WR_AUTH_LOG_LINES, on a line. */
	if (l->period_start_ms == 0)
		l->period_start_ms = now_ms ? now_ms : 1;
	l->failed++;
	if (refused)
		l->refused++;
	if (s->period != l->period) {
		s->period = l->period;
		s->period_fails = 0;
		l->sources++;
	}
	s->period_fails++;
	if (s->period_fails == 1 && l->lines < WR_AUTH_LOG_LINES) {
		l->lines++;
		return true;
	}
	return false;
}

void
wr_auth_limit_passed(struct wr_auth_limit *l, const char *addr)
{
	struct wr_auth_source *s = source_find(l, addr);

	if (s != NULL) {
		s->fails = 0;
		s->until_ms = 0;
	}
}

bool
wr_auth_limit_summary(struct wr_auth_limit *l, uint64_t now_ms,
		      struct wr_auth_summary *out)
{
	bool more;
	unsigned int i;

	if (l->period_start_ms == 0 ||
	    now_ms - l->period_start_ms < WR_AUTH_LOG_PERIOD_MS)
		return false;
	more = l->failed > l->lines;
	memset(out, 0, sizeof(*out));
	out->period_ms = now_ms - l->period_start_ms;
	out->failed = l->failed;
	out->refused = l->refused;
	out->sources = l->sources;
	for (i = 0; i < l->n_src; i++)
		if (l->src[i].period == l->period &&
		    l->src[i].period_fails > out->top_fails) {
			out->top_fails = l->src[i].period_fails;
			snprintf(out->top, sizeof(out->top), "%s",
				 l->src[i].addr);
		}
	l->period++;
	l->period_start_ms = 0;
	l->failed = l->refused = l->sources = l->lines = 0;
	return more;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_peer: the counters of the device at the other end of a link: a DPDK process's telemetry or a Linux interface. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "wr_in.h"
#include "wr_parse.h"
#include "wr_peer.h"

/* DPDK 22.11's telemetry replies are at most max_output_len bytes (16 KiB
 * in lib/telemetry); a hello bigger than this is not DPDK's. */
#define WR_PEER_TELEMETRY_BUF_MIN 16384
#define WR_PEER_TELEMETRY_BUF_MAX (1024 * 1024)
/* Where EAL puts a root process's runtime files (EAL's
 * eal_get_runtime_dir(): /var/run/dpdk/PREFIX). */
#define WR_PEER_DPDK_RUNDIR "/var/run/dpdk"
#define WR_PEER_NETNS_DIR "/var/run/netns"

static int
why_set(char *why, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int
why_set(char *why, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return rc;
}

static int
parse_telemetry(struct wr_peer *p, const char *arg, char *why, size_t why_len)
{
	const char *colon = strrchr(arg, ':');
	char prefix[WR_PEER_SPEC_MAX];
	uint64_t port;
	size_t n;

	if (colon == NULL || colon == arg ||
	    wr_parse_u64(colon + 1, 0, UINT16_MAX, &port, NULL, 0) != 0)
		return why_set(why, why_len, -EINVAL, "expected "
			       "telemetry:SOCKET:PORT (a telemetry v2 socket "
			       "path or an EAL file prefix, then the peer's "
			       "port number 0..65535)");
	n = (size_t)(colon - arg);
	if (memchr(arg, '/', n) == NULL) {
		/* A bare file prefix, as dpdk-telemetry.py -f takes. */
		memcpy(prefix, arg, n);
		prefix[n] = '\0';
		if (snprintf(p->path, sizeof(p->path), "%s/%s/dpdk_telemetry.v2",
			     WR_PEER_DPDK_RUNDIR, prefix) >= (int)sizeof(p->path))
			return why_set(why, why_len, -EINVAL, "the file prefix is "
				       "too long");
	} else {
		if (n >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return why_set(why, why_len, -EINVAL, "the socket path is "
				       "longer than a unix socket address takes "
				       "(%zu bytes)",
				       sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		memcpy(p->path, arg, n);
		p->path[n] = '\0';
	}
	p->port = (uint16_t)port;
	p->kind = WR_PEER_TELEMETRY;
	return 0;
}

static int
parse_netdev(struct wr_peer *p, const char *arg, char *why, size_t why_len)
{
	const char *slash = strrchr(arg, '/');
	const char *ifname = slash ? slash + 1 : arg;
	size_t n;

	if (*ifname == '\0' || strlen(ifname) >= sizeof(p->ifname) ||
	    strpbrk(ifname, ": \t") != NULL || (slash != NULL && slash == arg))
		return why_set(why, why_len, -EINVAL, "expected "
			       "netdev:[NETNS/]IFNAME (an interface name of at "
			       "most 15 characters, optionally after a network "
			       "namespace name or path)");
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	p->path[0] = '\0';
	if (slash != NULL) {
		n = (size_t)(slash - arg);
		if (arg[0] == '/') {
			/* A namespace file such as /proc/PID/ns/net. */
			if (n >= sizeof(p->path))
				return why_set(why, why_len, -EINVAL,
					       "the namespace path is too long");
			memcpy(p->path, arg, n);
			p->path[n] = '\0';
		} else if (memchr(arg, '/', n) != NULL ||
			   snprintf(p->path, sizeof(p->path), "%s/%.*s",
				    WR_PEER_NETNS_DIR, (int)n, arg) >=
			   (int)sizeof(p->path)) {
			return why_set(why, why_len, -EINVAL, "expected "
				       "netdev:[NETNS/]IFNAME: NETNS is a name "
				       "from `ip netns list` or an absolute path");
		}
	}
	p->kind = WR_PEER_NETDEV;
	return 0;
}

int
wr_peer_parse(struct wr_peer *p, const char *spec, char *why, size_t why_len)
{
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	if (strlen(spec) >= sizeof(p->spec))
		return why_set(why, why_len, -EINVAL, "too long");
	snprintf(p->spec, sizeof(p->spec), "%s", spec);
	if (strncmp(spec, "telemetry:", 10) == 0)
		return parse_telemetry(p, spec + 10, why, why_len);
	if (strncmp(spec, "netdev:", 7) == 0)
		return parse_netdev(p, spec + 7, why, why_len);
	return why_set(why, why_len, -EINVAL, "expected telemetry:SOCKET:PORT "
		       "(a DPDK process) or netdev:[NETNS/]IFNAME (a Linux "
		       "interface)");
}

/* One counter of an ethdev stats object: present, an integer, >= 0. */
static int
counter(json_t *o, const char *key, uint64_t *v)
{
	json_t *x = json_object_get(o, key);

	if (!json_is_integer(x) || json_integer_value(x) < 0)
		return -EPROTO;
	*v = (uint64_t)json_integer_value(x);
	return 0;
}

int
wr_peer_parse_ethdev_stats(const char *json, size_t len,
			   struct wr_peer_counts *c)
{
	json_t *root, *st;
	int rc = -EPROTO;

	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);
	if (root == NULL)
		return -EPROTO;
	st = json_object_get(root, "/ethdev/stats");
	memset(c, 0, sizeof(*c));
	if (json_is_object(st) &&
	    counter(st, "ipackets", &c->rx_pkts) == 0 &&
	    counter(st, "ibytes", &c->rx_bytes) == 0 &&
	    counter(st, "opackets", &c->tx_pkts) == 0 &&
	    counter(st, "obytes", &c->tx_bytes) == 0 &&
	    counter(st, "imissed", &c->rx_missed) == 0 &&
	    counter(st, "ierrors", &c->rx_errors) == 0 &&
	    counter(st, "oerrors", &c->tx_errors) == 0)
		rc = 0;
	json_decref(root);
	return rc;
}

int
wr_peer_parse_proc_net_dev(const char *text, const char *ifname,
			   struct wr_peer_counts *c)
{
	size_t n = strlen(ifname);
	const char *line = text;
	unsigned long long v[16];
	char *end;
	int k;

	/* "  IFNAME: rx bytes packets errs drop fifo frame compressed
	 * multicast, tx bytes packets errs drop fifo colls carrier
	 * compressed" (net/core/net-procfs.c). */
	for (; line != NULL && *line != '\0';
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *s = line;

		while (*s == ' ')
			s++;
		if (strncmp(s, ifname, n) != 0 || s[n] != ':')
			continue;
		s += n + 1;
		for (k = 0; k < 16; k++) {
			while (*s == ' ')
				s++;
			if (*s < '0' || *s > '9')
				return -EPROTO;
			errno = 0;
			v[k] = strtoull(s, &end, 10);
			if (errno != 0)
				return -EPROTO;
			s = end;
		}
		memset(c, 0, sizeof(*c));
		c->rx_bytes = v[0];
		c->rx_pkts = v[1];
		c->rx_errors = v[2];
		c->rx_missed = v[3];
		c->tx_bytes = v[8];
		c->tx_pkts = v[9];
		c->tx_errors = v[10];
		return 0;
	}
	return -ENODEV;
}

/* One telemetry reply into p->buf, NUL-terminated.  @return its length
 * or a negative errno. */
static int
telemetry_recv(struct wr_peer *p)
{
	ssize_t n = recv(p->fd, p->buf, p->buf_len - 1, 0);

	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? -ETIMEDOUT :
		       -errno;
	if (n == 0)
		return -ECONNRESET;
	p->buf[n] = '\0';
	return (int)n;
}

static int
telemetry_read(struct wr_peer *p, struct wr_peer_counts *c)
{
	char cmd[32];
	int n, len;

	len = snprintf(cmd, sizeof(cmd), "/ethdev/stats,%u", p->port);
	if (send(p->fd, cmd, (size_t)len, MSG_NOSIGNAL) != len)
		return errno ? -errno : -EIO;
	n = telemetry_recv(p);
	if (n < 0)
		return n;
	return wr_peer_parse_ethdev_stats(p->buf, (size_t)n, c);
}

static int
telemetry_open(struct wr_peer *p, char *why, size_t why_len)
{
	struct timeval tv = { WR_PEER_TIMEOUT_MS / 1000,
			      (WR_PEER_TIMEOUT_MS % 1000) * 1000 };
	struct sockaddr_un sa;
	json_t *hello, *max;
	int n, rc;

	p->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (p->fd < 0)
		return why_set(why, why_len, -errno, "socket: %s",
			       strerror(errno));
	setsockopt(p->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(p->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(p->path) >= sizeof(sa.sun_path))
		return why_set(why, why_len, -ENAMETOOLONG, "%s: longer than a "
			       "unix socket address takes", p->path);
	memcpy(sa.sun_path, p->path, strlen(p->path) + 1);
	if (connect(p->fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		rc = -errno;
		return why_set(why, why_len, rc, "cannot connect to %s: %s%s",
			       p->path, strerror(-rc), rc == -EPROTOTYPE ?
			       " (not a telemetry v2 socket)" : "");
	}
	p->buf_len = WR_PEER_TELEMETRY_BUF_MIN;
	p->buf = malloc(p->buf_len);
	if (p->buf == NULL)
		return why_set(why, why_len, -ENOMEM, "out of memory");
	/* The hello: {"version": .., "pid": .., "max_output_len": N}. */
	n = telemetry_recv(p);
	if (n < 0)
		return why_set(why, why_len, n, "%s sent no hello: %s", p->path,
			       strerror(-n));
	hello = json_loadb(p->buf, (size_t)n, 0, NULL);
	max = json_object_get(hello, "max_output_len");
	rc = json_is_string(json_object_get(hello, "version")) &&
	     json_is_integer(max) && json_integer_value(max) > 0 &&
	     json_integer_value(max) <= WR_PEER_TELEMETRY_BUF_MAX ? 0 : -EPROTO;
	if (rc == 0 && (size_t)json_integer_value(max) >= p->buf_len) {
		char *b = realloc(p->buf, (size_t)json_integer_value(max) + 1);

		if (b == NULL)
			rc = -ENOMEM;
		else {
			p->buf = b;
			p->buf_len = (size_t)json_integer_value(max) + 1;
		}
	}
	json_decref(hello);
	if (rc != 0)
		return why_set(why, why_len, rc, "%s: %s", p->path, rc == -ENOMEM ?
			       "out of memory" : "not a DPDK telemetry v2 "
			       "socket (its hello lacks version and "
			       "max_output_len)");
	return 0;
}

static int
netdev_open(struct wr_peer *p, char *why, size_t why_len)
{
	int self = -1, ns = -1, rc = 0;

	if (p->path[0] != '\0') {
		char nwhy[128];

		self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
		if (self < 0) {
			rc = why_set(why, why_len, -errno, "our network "
				     "namespace: %s", strerror(errno));
			goto out;
		}
		/* A namespace file is an empty regular file (nsfs); a FIFO
		 * given instead must not block the open (wr_in.h). */
		ns = wr_in_open(p->path, 0, 0, nwhy, sizeof(nwhy));
		if (ns < 0) {
			rc = why_set(why, why_len, ns, "network namespace "
				     "%s: %s", p->path, nwhy);
			ns = -1;
			goto out;
		}
		if (setns(ns, CLONE_NEWNET) != 0) {
			rc = -errno;
			why_set(why, why_len, rc, "cannot enter network "
				"namespace %s: %s", p->path, strerror(-rc));
			goto out;
		}
	}
	/* Opened from inside the namespace, the file keeps showing that
	 * namespace's interfaces after this thread leaves it. */
	p->fd = open("/proc/thread-self/net/dev", O_RDONLY | O_CLOEXEC);
	if (p->fd < 0)
		rc = why_set(why, why_len, -errno, "/proc/thread-self/net/dev: %s",
			     strerror(errno));
	if (self >= 0 && setns(self, CLONE_NEWNET) != 0 && rc == 0) {
		/* Never go on in the peer's namespace. */
		rc = why_set(why, why_len, -errno, "cannot return to our "
			     "network namespace: %s", strerror(errno));
	}
out:
	if (self >= 0)
		close(self);
	if (ns >= 0)
		close(ns);
	return rc;
}

static int
netdev_read(struct wr_peer *p, struct wr_peer_counts *c)
{
	size_t len = 0;
	ssize_t n;

	/* The whole file at once (its text is regenerated on each read from
	 * offset 0); grown until it fits. */
	for (;;) {
		if (p->buf_len - len < 2) {
			size_t nl = p->buf_len ? p->buf_len * 2 : 8192;
			char *b = realloc(p->buf, nl);

			if (b == NULL)
				return -ENOMEM;
			p->buf = b;
			p->buf_len = nl;
		}
		n = pread(p->fd, p->buf + len, p->buf_len - len - 1, (off_t)len);
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	p->buf[len] = '\0';
	return wr_peer_parse_proc_net_dev(p->buf, p->ifname, c);
}

int
wr_peer_read(struct wr_peer *p, struct wr_peer_counts *c)
{
	if (p->fd < 0)
		return -EBADF;
	return p->kind == WR_PEER_TELEMETRY ? telemetry_read(p, c) :
	       netdev_read(p, c);
}

int
wr_peer_open(struct wr_peer *p, char *why, size_t why_len)
{
	struct wr_peer_counts c;
	int rc;

	rc = p->kind == WR_PEER_TELEMETRY ? telemetry_open(p, why, why_len) :
	     netdev_open(p, why, why_len);
	if (rc == 0) {
		rc = wr_peer_read(p, &c);
		if (rc == -ENODEV)
			why_set(why, why_len, rc, "no interface %s in %s",
				p->ifname, p->path[0] ? p->path :
				"our network namespace");
		else if (rc == -EPROTO && p->kind == WR_PEER_TELEMETRY)
			why_set(why, why_len, rc, "%s: /ethdev/stats,%u gave no "
				"port counters (no port %u there?)", p->path,
				p->port, p->port);
		else if (rc != 0)
			why_set(why, why_len, rc, "cannot read the counters: %s",
				strerror(-rc));
	}
	if (rc != 0)
		wr_peer_close(p);
	return rc;
}

void
wr_peer_close(struct wr_peer *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	free(p->buf);
	p->buf = NULL;
	p->buf_len = 0;
}

static uint64_t
diff(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0;
}

void
wr_peer_counts_delta(const struct wr_peer_counts *a,
		     const struct wr_peer_counts *b, struct wr_peer_counts *out)
{
	out->rx_pkts = diff(a->rx_pkts, b->rx_pkts);
	out->rx_bytes = diff(a->rx_bytes, b->rx_bytes);
	out->tx_pkts = diff(a->tx_pkts, b->tx_pkts);
	out->tx_bytes = diff(a->tx_bytes, b->tx_bytes);
	out->rx_missed = diff(a->rx_missed, b->rx_missed);
	out->rx_errors = diff(a->rx_errors, b->rx_errors);
	out->tx_errors = diff(a->tx_errors, b->tx_errors);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_classes: a stream file's TCP classes put on a loaded engine (locals from the hosts' tables, next hops resolved, programs compiled, data read, one engine a lane). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wr_engine_priv.h"
#include "wr_tcp_classes.h"

/* How long the on-link peers get to answer: the host engine asks three
 * times a second apart (RFC 4861's MAX_MULTICAST_SOLICIT), then says
 * FAILED; the margin is for the service's passes. */
#define PEERS_WAIT_MS 4000
#define PEERS_POLL_MS 10
/* The largest table any lane is sized for (wr_tcp_create()'s bound). */
#define CONNS_MAX (1u << 28)

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Every host of port @p port, copied by the service. */
static int
read_hosts(struct wr_tcp_classes *st, unsigned int port,
	   struct wr_error *err)
{
	struct wr_host_svc_req r;
	int rc;

	if (st->hosts[port] != NULL)
		return 0;
	memset(&r, 0, sizeof(r));
	r.port = port;
	rc = wr_host_svc_read(st->svc, &r);
	if (rc == 0 && r.n_total > 0) {
		st->hosts[port] = calloc(r.n_total, sizeof(*st->hosts[port]));
		if (st->hosts[port] == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		r.hosts = st->hosts[port];
		r.max_hosts = r.n_total;
		rc = wr_host_svc_read(st->svc, &r);
		st->n_hosts[port] = r.n_hosts;
	}
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
			"port %u: the hosts' service did not hand over its "
			"hosts: %s", port, strerror(-rc));
	return 0;
}

static void
ip_text(__uint128_t ip, bool v6, char *buf, size_t len)
{
	uint8_t b[16];
	unsigned int i;

	if (!v6) {
		uint32_t a = htonl((uint32_t)ip);

		inet_ntop(AF_INET, &a, buf, (socklen_t)len);
		return;
	}
	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(ip >> (8 * (15 - i)));
	inet_ntop(AF_INET6, b, buf, (socklen_t)len);
}

/* Host @p x's address of family @p v6 (IPv6: a global one, preferred),
 * its prefix in @p prefix.  @return false when it has none up. */
static bool
host_addr(const struct wr_host *x, bool v6, __uint128_t *ip, uint8_t *prefix)
{
	uint8_t i;

	if (!v6) {
		if (x->ip4_state != WR_IP4_UP || x->ip4 == 0)
			return false;
		*ip = x->ip4;
		*prefix = x->prefix4;
		return true;
	}
	for (i = 0; i < x->n_ip6; i++)
		if (x->ip6[i].origin != WR_IP6_LINK_LOCAL &&
		    (x->ip6[i].state == WR_IP6_PREFERRED ||
		     x->ip6[i].state == WR_IP6_DEPRECATED)) {
			*ip = x->ip6[i].addr;
			*prefix = x->ip6[i].prefix;
			return true;
		}
	return false;
}

static bool
same_prefix(__uint128_t a, __uint128_t b, uint8_t prefix, bool v6)
{
	unsigned int bits = v6 ? 128 : 32;
	__uint128_t mask;

	if (prefix == 0)
		return true;
	if (prefix >= bits)
		return a == b;
	mask = ~(__uint128_t)0 << (bits - prefix);
	if (!v6)
		mask &= 0xffffffffu;
	return (a & mask) == (b & mask);
}

static bool
neigh_known(const struct wr_host_neigh *n)
{
	return n->state == WR_NEIGH_REACHABLE || n->state == WR_NEIGH_STALE;
}

/* The locals of hosts group @p g on @p port with an address of family
 * @p v6 (hosts without one, a DHCP that failed, are left out). */
static int
locals_of(struct wr_tcp_classes *st, unsigned int port, int32_t g, bool v6,
	  struct wr_tcp_local **out, uint32_t *n_out, struct wr_error *err)
{
	struct wr_tcp_local *l;
	uint32_t h, n = 0;

	l = calloc(st->n_hosts[port] ? st->n_hosts[port] : 1, sizeof(*l));
	if (l == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	for (h = 0; h < st->n_hosts[port]; h++) {
		const struct wr_host *x = &st->hosts[port][h].h;
		uint8_t prefix;
		__uint128_t ip;

		if ((int32_t)x->group != g || !host_addr(x, v6, &ip, &prefix))
			continue;
		l[n].ip = ip;
		memcpy(l[n].mac, x->mac, 6);
		l[n].n_tags = x->n_tags;
		memcpy(l[n].tpid, x->tpid, sizeof(l[n].tpid));
		memcpy(l[n].tci, x->tci, sizeof(l[n].tci));
		n++;
	}
	*out = l;
	*n_out = n;
	return 0;
}

/* The host of @p port's table behind local @p ip (its prefix, gateway). */
static const struct wr_host *
host_of(const struct wr_tcp_classes *st, unsigned int port, __uint128_t ip,
	bool v6, uint32_t *index)
{
	uint32_t h;

	for (h = 0; h < st->n_hosts[port]; h++) {
		const struct wr_host *x = &st->hosts[port][h].h;
		uint8_t prefix;
		__uint128_t a;

		if (host_addr(x, v6, &a, &prefix) && a == ip) {
			*index = st->hosts[port][h].index;
			return x;
		}
	}
	return NULL;
}

/* Each class's locals and servers, from the tables copied. */
static int
class_addrs(struct wr_tcp_classes *st, uint32_t k,
	    struct wr_error *err)
{
	const struct wr_stream_file *f = st->f;
	const struct wr_tcp_class *c = &f->tcp.classes[k];
	struct wr_tcp_classes_one *sc = &st->cls[k];
	bool v6 = c->ip == 6;
	int rc;

	if (c->server.present && c->server.group >= 0) {
		rc = read_hosts(st, c->server.port, err);
		if (rc == 0)
			rc = locals_of(st, c->server.port, c->server.group, v6,
				       &sc->listen, &sc->n_listen, err);
		if (rc != 0)
			return rc;
		if (sc->n_listen == 0)
			return wr_error_set(err, -EHOSTUNREACH, f->path,
				c->server.where.line, c->server.where.col, NULL,
				"tcp[%u] (%s).server: no host of group %s came "
				"up with an IPv%u address", k, c->name,
				c->server.hosts, v6 ? 6 : 4);
	}
	if (!c->client.present)
		return 0;
	rc = read_hosts(st, c->client.port, err);
	if (rc == 0)
		rc = locals_of(st, c->client.port, c->client.group, v6,
			       &sc->clients, &sc->n_clients, err);
	if (rc != 0)
		return rc;
	if (sc->n_clients == 0)
		return wr_error_set(err, -EHOSTUNREACH, f->path,
			c->client.where.line, c->client.where.col, NULL,
			"tcp[%u] (%s).client: no host of group %s came up "
			"with an IPv%u address", k, c->name, c->client.hosts,
			v6 ? 6 : 4);
	if (c->server.group < 0) {
		sc->servers = calloc(c->server.n_addr ? c->server.n_addr : 1,
				     sizeof(*sc->servers));
		if (sc->servers == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		memcpy(sc->servers, c->server.addr,
		       c->server.n_addr * sizeof(*sc->servers));
		sc->n_servers = c->server.n_addr;
	} else {
		uint32_t i;

		sc->servers = calloc(sc->n_listen ? sc->n_listen : 1,
				     sizeof(*sc->servers));
		if (sc->servers == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		for (i = 0; i < sc->n_listen; i++)
			sc->servers[i] = sc->listen[i].ip;
		sc->n_servers = sc->n_listen;
	}
	if (sc->n_servers == 0)
		return wr_error_set(err, -EINVAL, f->path, c->server.where.line,
			c->server.where.col, NULL, "tcp[%u] (%s).server: no "
			"address to connect to", k, c->name);
	return 0;
}

/* A peer entry for (the host asking, @p ip) on @p port, once. */
static int
peer_add(struct wr_tcp_classes *st, unsigned int port, uint32_t host,
	 __uint128_t ip, bool v6, struct wr_error *err)
{
	struct wr_host_peer *p;
	uint32_t i, n = st->n_peers[port];

	for (i = 0; i < n; i++)
		if (st->peers[port][i].n.ip == ip && st->peers[port][i].n.v6 == v6)
			return 0;
	p = realloc(st->peers[port], (n + 1) * sizeof(*p));
	if (p == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	memset(&p[n], 0, sizeof(p[n]));
	p[n].host = host;
	p[n].n.ip = ip;
	p[n].n.v6 = v6;
	st->peers[port] = p;
	st->n_peers[port] = n + 1;
	return 0;
}

static const struct wr_host_peer *
peer_find(const struct wr_tcp_classes *st, unsigned int port, __uint128_t ip,
	  bool v6)
{
	uint32_t i;

	for (i = 0; i < st->n_peers[port]; i++)
		if (st->peers[port][i].n.ip == ip &&
		    st->peers[port][i].n.v6 == v6)
			return &st->peers[port][i];
	return NULL;
}

/* The clients' on-link servers, to be resolved by their hosts. */
static int
peers_want(struct wr_tcp_classes *st, struct wr_error *err)
{
	const struct wr_stream_file *f = st->f;
	uint32_t k, i;
	int rc;

	for (k = 0; k < f->tcp.n; k++) {
		const struct wr_tcp_class *c = &f->tcp.classes[k];
		const struct wr_tcp_classes_one *sc = &st->cls[k];
		bool v6 = c->ip == 6;
		uint32_t host;
		const struct wr_host *x;
		uint8_t prefix;
		__uint128_t ip;

		if (!c->client.present)
			continue;
		x = host_of(st, c->client.port, sc->clients[0].ip, v6, &host);
		if (x == NULL || !host_addr(x, v6, &ip, &prefix))
			continue;
		for (i = 0; i < sc->n_servers; i++) {
			if (!same_prefix(ip, sc->servers[i], prefix, v6))
				continue;
			rc = peer_add(st, c->client.port, host, sc->servers[i],
				      v6, err);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

/* Hand the peers to their ports' hosts and wait for their answers. */
static int
peers_resolve(struct wr_tcp_classes *st,
	      struct wr_error *err)
{
	struct wr_host_svc_req r;
	unsigned int i, waited;
	int rc;

	for (i = 0; i < WR_PORTS_MAX; i++) {
		if (st->n_peers[i] == 0)
			continue;
		for (waited = 0;; waited += PEERS_POLL_MS) {
			memset(&r, 0, sizeof(r));
			r.port = i;
			r.peers = st->peers[i];
			r.n_peers = st->n_peers[i];
			rc = wr_host_svc_read(st->svc, &r);
			if (rc != 0)
				return wr_error_set(err, rc, NULL, 0, 0, NULL,
					"port %u: the hosts' service did not "
					"answer: %s", i, strerror(-rc));
			if (r.peers_pending == 0 || waited >= PEERS_WAIT_MS)
				break;
			sleep_ms(PEERS_POLL_MS);
		}
	}
	return 0;
}

/* Each client local's next hop toward its class's servers: the on-link
 * server's MAC, else its gateway's.  One next hop a local: every server
 * of a class must be reached the same way. */
static int
nexthops(struct wr_tcp_classes *st, uint32_t k, struct wr_error *err)
{
	const struct wr_tcp_class *c = &st->f->tcp.classes[k];
	struct wr_tcp_classes_one *sc = &st->cls[k];
	bool v6 = c->ip == 6;
	char a[64], b[64];
	uint32_t i, j, host;

	for (i = 0; i < sc->n_clients; i++) {
		struct wr_tcp_local *l = &sc->clients[i];
		const struct wr_host *x = host_of(st, c->client.port, l->ip,
						  v6, &host);
		const struct wr_host_neigh *gw = v6 ? &x->gw6_n : &x->gw4_n;
		const uint8_t *mac = NULL;
		uint8_t prefix = 0;
		__uint128_t ip = 0;

		(void)host_addr(x, v6, &ip, &prefix);
		for (j = 0; j < sc->n_servers; j++) {
			const uint8_t *m;

			if (same_prefix(ip, sc->servers[j], prefix, v6)) {
				const struct wr_host_peer *p = peer_find(st,
					c->client.port, sc->servers[j], v6);

				ip_text(sc->servers[j], v6, a, sizeof(a));
				if (p == NULL || !neigh_known(&p->n))
					return wr_error_set(err, -EHOSTUNREACH,
						st->f->path, c->server.where.line,
						c->server.where.col, NULL,
						"tcp[%u] (%s): server %s, on the "
						"link of hosts group %s, did not "
						"answer %s (3 requests, a second "
						"apart)", k, c->name, a,
						c->client.hosts,
						v6 ? "neighbour solicitations" :
						"ARP");
				m = p->n.mac;
			} else {
				ip_text(ip, v6, a, sizeof(a));
				ip_text(sc->servers[j], v6, b, sizeof(b));
				if ((v6 ? x->gw6 == 0 : x->gw4 == 0))
					return wr_error_set(err, -EHOSTUNREACH,
						st->f->path, c->client.where.line,
						c->client.where.col, NULL,
						"tcp[%u] (%s): server %s is off "
						"the link of client %s (hosts "
						"group %s), which has no gateway",
						k, c->name, b, a, c->client.hosts);
				if (!neigh_known(gw))
					return wr_error_set(err, -EHOSTUNREACH,
						st->f->path, c->client.where.line,
						c->client.where.col, NULL,
						"tcp[%u] (%s): the gateway of "
						"client %s (hosts group %s) did "
						"not answer", k, c->name, a,
						c->client.hosts);
				m = gw->mac;
			}
			if (mac != NULL && memcmp(mac, m, 6) != 0)
				return wr_error_set(err, -EINVAL, st->f->path,
					c->server.where.line, c->server.where.col,
					NULL, "tcp[%u] (%s): its servers are "
					"reached through different next hops "
					"from client %s: one class's servers "
					"share one (a gateway, or one on-link "
					"MAC)", k, c->name, a);
			mac = m;
		}
		memcpy(l->nh_mac, mac, 6);
	}
	return 0;
}

/* `data: {file:}` read once, shared by every lane. */
static int
data_read(struct wr_tcp_classes *st, uint32_t k, struct wr_error *err)
{
	const struct wr_tcp_class *c = &st->f->tcp.classes[k];
	struct wr_tcp_classes_one *sc = &st->cls[k];
	char path[WR_TCP_FILE_MAX * 2];
	const char *slash = strrchr(st->f->path, '/');
	FILE *fp;
	long len;

	if (c->data != WR_TCP_DATA_FILE)
		return 0;
	if (c->data_file[0] == '/' || slash == NULL)
		snprintf(path, sizeof(path), "%s", c->data_file);
	else
		snprintf(path, sizeof(path), "%.*s/%s",
			 (int)(slash - st->f->path), st->f->path, c->data_file);
	fp = fopen(path, "rb");
	if (fp == NULL)
		return wr_error_set(err, -errno, st->f->path, c->where.line,
			c->where.col, NULL, "tcp[%u] (%s).data: %s: %s", k,
			c->name, path, strerror(errno));
	if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0) {
		fclose(fp);
		return wr_error_set(err, -EIO, st->f->path, c->where.line,
			c->where.col, NULL, "tcp[%u] (%s).data: %s: cannot "
			"read it", k, c->name, path);
	}
	sc->data = malloc(len ? (size_t)len : 1);
	if (sc->data == NULL ||
	    fread(sc->data, 1, (size_t)len, fp) != (size_t)len) {
		fclose(fp);
		return wr_error_set(err, sc->data ? -EIO : -ENOMEM,
			st->f->path, c->where.line, c->where.col, NULL,
			"tcp[%u] (%s).data: %s: cannot read it", k, c->name,
			path);
	}
	fclose(fp);
	sc->data_len = (uint64_t)len;
	return 0;
}

/* Each side's program, compiled once (the Host header: the first
 * server's address, and its port when not 80). */
static int
apps_init(struct wr_tcp_classes *st, uint32_t k, struct wr_error *err)
{
	const struct wr_tcp_class *c = &st->f->tcp.classes[k];
	struct wr_tcp_classes_one *sc = &st->cls[k];
	char host[80] = "", ip[64];
	int side, rc;

	if (sc->n_servers > 0 || sc->n_listen > 0) {
		ip_text(sc->n_servers > 0 ? sc->servers[0] : sc->listen[0].ip,
			c->ip == 6, ip, sizeof(ip));
		if (c->ip == 6)
			snprintf(host, sizeof(host), "[%s]", ip);
		else
			snprintf(host, sizeof(host), "%s", ip);
		if (c->server.dport != 80)
			snprintf(host + strlen(host), sizeof(host) - strlen(host),
				 ":%u", c->server.dport);
	}
	for (side = 0; side < 2; side++) {
		const struct wr_tcp_end *end = side == WR_TCP_CLIENT ?
			&c->client : &c->server;

		if (!end->present || (side == WR_TCP_SERVER && end->group < 0))
			continue;
		rc = wr_tcp_app_init(&sc->app[side], c,
				     (enum wr_tcp_side)side, sc->data,
				     sc->data_len, host, err);
		if (rc != 0)
			return rc;
		sc->has_app[side] = true;
	}
	return 0;
}

/* Port @p port's classes (those with a side there), as its lanes take
 * them. */
static int
port_classes(struct wr_tcp_classes *st, unsigned int port, struct wr_error *err)
{
	const struct wr_stream_file *f = st->f;
	uint32_t k, n = 0;

	st->rt[port] = calloc(f->tcp.n, sizeof(*st->rt[port]));
	st->rt_idx[port] = calloc(f->tcp.n, sizeof(*st->rt_idx[port]));
	if (st->rt[port] == NULL || st->rt_idx[port] == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	for (k = 0; k < f->tcp.n; k++) {
		const struct wr_tcp_class *c = &f->tcp.classes[k];
		struct wr_tcp_classes_one *sc = &st->cls[k];
		struct wr_tcp_class_rt *rt = &st->rt[port][n];
		bool cl = c->client.present && c->client.group >= 0 &&
			  c->client.port == port;
		bool sv = c->server.present && c->server.group >= 0 &&
			  c->server.port == port;

		if (!cl && !sv)
			continue;
		rt->spec = c;
		if (cl) {
			rt->clients = sc->clients;
			rt->n_clients = sc->n_clients;
			rt->servers = sc->servers;
			rt->n_servers = sc->n_servers;
			rt->app[WR_TCP_CLIENT] = &sc->app[WR_TCP_CLIENT];
		}
		if (sv) {
			rt->listen = sc->listen;
			rt->n_listen = sc->n_listen;
			rt->app[WR_TCP_SERVER] = &sc->app[WR_TCP_SERVER];
		}
		rt->data = sc->data;
		rt->data_len = sc->data_len;
		st->rt_idx[port][n++] = k;
	}
	st->n_rt[port] = n;
	return 0;
}

/* A lane's table: its share of the clients' concurrency, and the
 * servers' (the clients' concurrency when they run here too, else the
 * class's cap: real clients). */
static uint32_t
lane_conns(const struct wr_tcp_classes *st, unsigned int port,
	   unsigned int n_lanes)
{
	uint64_t sum = 0;
	unsigned int j;

	for (j = 0; j < st->n_rt[port]; j++) {
		const struct wr_tcp_class_rt *rt = &st->rt[port][j];
		uint64_t c = rt->spec->concurrency ? rt->spec->concurrency : 1;

		if (rt->n_clients > 0)
			sum += (c + n_lanes - 1) / n_lanes;
		if (rt->n_listen > 0)
			sum += (c + n_lanes - 1) / n_lanes;
	}
	return sum > CONNS_MAX ? CONNS_MAX : sum ? (uint32_t)sum : 1;
}

/* Whether port @p port has listen locals: their next hop is not known
 * before a client speaks (real clients, on the link or behind a router;
 * emulated ones with MACs of their own), so their lanes learn each peer's
 * MAC from its frames (wr_tcp_lcore.h), and the locals say none. */
static bool
learns(const struct wr_tcp_classes *st, unsigned int port)
{
	static const uint8_t zero[6];
	unsigned int j;
	uint32_t k;

	for (j = 0; j < st->n_rt[port]; j++)
		for (k = 0; k < st->rt[port][j].n_listen; k++)
			if (memcmp(st->rt[port][j].listen[k].nh_mac, zero,
				   6) == 0)
				return true;
	return false;
}

/* One engine a lane of each TCP port. */
static int
engines_create(struct wr_tcp_classes *st,
	       struct wr_error *err)
{
	struct wr_engine *e = st->e;
	unsigned int i, q;
	int rc;

	for (i = 0; i < e->n_ports; i++) {
		if (!e->tcp_port[i])
			continue;
		rc = port_classes(st, i, err);
		if (rc != 0)
			return rc;
		for (q = 0; q < e->n_tcp_lanes[i]; q++) {
			struct wr_tcp_lane *l = e->tcp_lane[i][q];
			struct wr_tcp_cfg cfg;

			memset(&cfg, 0, sizeof(cfg));
			cfg.port = (uint16_t)i;
			cfg.lane = q;
			cfg.n_lanes = e->n_tcp_lanes[i];
			cfg.classes = st->rt[i];
			cfg.n_classes = st->n_rt[i];
			cfg.max_conns = lane_conns(st, i, cfg.n_lanes);
			cfg.seed = st->f->seed ^ ((uint64_t)i << 32 | q);
			if (learns(st, i) &&
			    wr_tcp_lane_learn(l, e->ports[i].socket_id) != 0)
				return wr_error_set(err, -ENOMEM, NULL, 0, 0,
						    NULL, "out of memory");
			wr_tcp_lane_io(l, &cfg.io);
			rc = wr_tcp_create(&l->t, &cfg, err);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}

void
wr_tcp_classes_free(struct wr_tcp_classes *st)
{
	uint32_t k;
	unsigned int i;

	if (st == NULL)
		return;
	for (k = 0; st->cls != NULL && k < st->n; k++) {
		struct wr_tcp_classes_one *sc = &st->cls[k];

		if (sc->has_app[0])
			wr_tcp_app_fini(&sc->app[0]);
		if (sc->has_app[1])
			wr_tcp_app_fini(&sc->app[1]);
		free(sc->data);
		free(sc->clients);
		free(sc->servers);
		free(sc->listen);
	}
	free(st->cls);
	for (i = 0; i < WR_PORTS_MAX; i++) {
		free(st->rt[i]);
		free(st->rt_idx[i]);
		free(st->peers[i]);
		free(st->hosts[i]);
	}
	free(st);
}

int
wr_tcp_classes_load(struct wr_tcp_classes **out, struct wr_engine *e,
		    struct wr_host_svc *hosts, const struct wr_stream_file *f,
		    struct wr_error *err)
{
	struct wr_tcp_classes *st;
	uint32_t k;
	int rc = 0;

	*out = NULL;
	if (f->tcp.n == 0)
		return 0;
	if (hosts == NULL)
		return wr_error_set(err, -EINVAL, f->path, 0, 0, NULL,
				    "tcp: its classes stand on hosts, and "
				    "the stream file has none");
	st = calloc(1, sizeof(*st));
	if (st == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	*out = st;
	st->e = e;
	st->svc = hosts;
	st->f = f;
	st->n = f->tcp.n;
	st->cls = calloc(f->tcp.n, sizeof(*st->cls));
	if (st->cls == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	for (k = 0; rc == 0 && k < f->tcp.n; k++) {
		st->cls[k].rate_milli = f->tcp.classes[k].rate_milli;
		st->cls[k].concurrency = f->tcp.classes[k].concurrency;
		rc = class_addrs(st, k, err);
	}
	if (rc == 0)
		rc = peers_want(st, err);
	if (rc == 0)
		rc = peers_resolve(st, err);
	for (k = 0; rc == 0 && k < f->tcp.n; k++) {
		if (f->tcp.classes[k].client.present)
			rc = nexthops(st, k, err);
		if (rc == 0)
			rc = data_read(st, k, err);
		if (rc == 0)
			rc = apps_init(st, k, err);
	}
	if (rc == 0)
		rc = engines_create(st, err);
	return rc;
}

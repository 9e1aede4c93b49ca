/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host: a port's emulated hosts: created from the specs, the registry of protocol modules, bring-up, frames in, counters (the top of the engine: it calls the others). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_arp.h"
#include "wr_bytes.h"
#include "wr_host_priv.h"

#define WR_HOST_PROTO(name) extern const struct wr_host_proto wr_host_proto_##name;
#include "wr_host_protos.def"
#undef WR_HOST_PROTO

const struct wr_host_proto *const wr_host_protos[WR_HOST_PROTO__COUNT + 1] = {
#define WR_HOST_PROTO(name) [WR_HOST_PROTO_##name] = &wr_host_proto_##name,
#include "wr_host_protos.def"
#undef WR_HOST_PROTO
	[WR_HOST_PROTO__COUNT] = NULL,
};

#define NS_PER_S 1000000000ull

const struct wr_host_proto *
wr_host_proto_find(const char *name, int *id)
{
	int i;

	for (i = 0; i < WR_HOST_PROTO__COUNT; i++) {
		if (strcmp(wr_host_protos[i]->name, name) == 0) {
			if (id != NULL)
				*id = i;
			return wr_host_protos[i];
		}
	}
	return NULL;
}

/* ---- Create and free ---- */

static void
host_init(struct wr_host *x, const struct wr_host_group *g, uint32_t spec,
	  uint32_t k)
{
	uint8_t i;

	wr_mac_to_bytes(g->mac + (uint64_t)k * g->mac_step, x->mac);
	x->n_tags = g->n_tags;
	for (i = 0; i < g->n_tags; i++) {
		x->tpid[i] = g->tpid[i];
		x->tci[i] = (uint16_t)((uint16_t)g->pcp[i] << 13 |
			    ((g->vlan[i] + (uint64_t)k * g->vlan_step[i]) & 0xfff));
	}
	x->group = spec;
}

static int
create_hosts(struct wr_hosts *hs, struct wr_error *err)
{
	const struct wr_host_specs *sp = hs->specs;
	uint32_t gi, k, h = 0, n6 = 0, n4 = 0;
	int id, rc;

	for (gi = 0; gi < hs->n_grp; gi++) {
		const struct wr_host_group *g = &sp->groups[hs->grp[gi].spec];

		n4 += g->v4.mode != WR_HOST_ADDR_NONE ? g->count : 0;
		n6 += g->v6.mode != WR_HOST_ADDR_NONE ? g->count : 0;
	}
	hs->h = calloc(hs->n ? hs->n : 1, sizeof(*hs->h));
	if (hs->h == NULL || wr_hosts_hash_init(&hs->by_mac, 2ull * hs->n) != 0 ||
	    wr_hosts_hash_init(&hs->by_ip4, 2ull * n4) != 0 ||
	    wr_hosts_hash_init(&hs->by_ip6, 3ull * WR_HOST_IP6_MAX * n6 / 2) != 0)
		return -ENOMEM;
	for (gi = 0; gi < hs->n_grp; gi++) {
		const struct wr_host_group *g = &sp->groups[hs->grp[gi].spec];

		for (k = 0; k < g->count; k++, h++) {
			int64_t o;

			host_init(&hs->h[h], g, hs->grp[gi].spec, k);
			o = wr_hosts_by_mac(hs, hs->h[h].mac);
			if (o >= 0)
				return wr_error_set(err, -EINVAL, NULL, g->where.line,
					g->where.col, NULL, "hosts %s and %s have one "
					"MAC, %02x:%02x:%02x:%02x:%02x:%02x",
					sp->groups[hs->h[o].group].name, g->name,
					hs->h[h].mac[0], hs->h[h].mac[1], hs->h[h].mac[2],
					hs->h[h].mac[3], hs->h[h].mac[4], hs->h[h].mac[5]);
			rc = wr_hosts_hash_add(hs, &hs->by_mac, h);
			if (rc != 0)
				return rc;
		}
	}
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++) {
		size_t sz = wr_host_protos[id]->state_size;

		/* Only for a module some group of this port names. */
		for (gi = 0; gi < hs->n_grp; gi++)
			if (sp->groups[hs->grp[gi].spec].proto_cfg[id] != NULL)
				break;
		if (sz == 0 || gi == hs->n_grp)
			continue;
		hs->mstate[id] = calloc(hs->n ? hs->n : 1, sz);
		if (hs->mstate[id] == NULL)
			return -ENOMEM;
	}
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++) {
		if (wr_host_protos[id]->data_size == 0)
			continue;
		hs->mdata[id] = calloc(1, wr_host_protos[id]->data_size);
		if (hs->mdata[id] == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* The groups of port @p port, and the modules they name. */
static int
find_groups(struct wr_hosts *hs, struct wr_error *err)
{
	const struct wr_host_specs *sp = hs->specs;
	uint64_t n = 0;
	uint32_t i, j = 0;
	int id;

	hs->grp = calloc(sp->n ? sp->n : 1, sizeof(*hs->grp));
	if (hs->grp == NULL)
		return -ENOMEM;
	for (i = 0; i < sp->n; i++) {
		const struct wr_host_group *g = &sp->groups[i];

		if (g->port != hs->port)
			continue;
		hs->grp[j].spec = i;
		hs->grp[j].first = (uint32_t)n;
		hs->grp[j].count = g->count;
		for (id = 0; id < WR_HOST_PROTO__COUNT; id++)
			if (g->proto_cfg[id] != NULL && wr_host_protos[id]->start)
				hs->grp[j].mods |= (uint8_t)(1u << id);
		n += g->count;
		j++;
	}
	hs->n_grp = j;
	if (n > WR_HOSTS_PORT_MAX)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "port %u has "
				    "%llu hosts: at most %u a port", hs->port,
				    (unsigned long long)n, WR_HOSTS_PORT_MAX);
	hs->n = (uint32_t)n;
	return 0;
}

/* Timer kinds: the engine's, then each module with a timer named here. */
static void
timer_kinds(struct wr_hosts *hs)
{
	uint32_t i, kinds = 1;
	int id;

	hs->tmod[WR_HOST_TK_ENGINE] = -1;
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++) {
		hs->tkind[id] = -1;
		if (wr_host_protos[id]->timer == NULL)
			continue;
		for (i = 0; i < hs->n_grp; i++)
			if (hs->specs->groups[hs->grp[i].spec].proto_cfg[id])
				break;
		if (i == hs->n_grp)
			continue;
		hs->tkind[id] = (int8_t)kinds;
		hs->tmod[kinds++] = (int8_t)id;
	}
	hs->wheel.n_kinds = kinds;
}

int
wr_hosts_create(struct wr_hosts **out, const struct wr_host_specs *specs,
		uint16_t port, uint64_t seed, wr_hosts_send_fn send,
		void *send_ctx, struct wr_error *err)
{
	struct wr_hosts *hs = calloc(1, sizeof(*hs));
	int rc;

	*out = NULL;
	if (hs == NULL)
		return -ENOMEM;
	hs->specs = specs;
	hs->port = port;
	hs->send = send;
	hs->send_ctx = send_ctx;
	hs->rng = wr_hosts_mix64(seed ^ ((uint64_t)port << 48)) | 1;
	rc = find_groups(hs, err);
	if (rc == 0)
		rc = create_hosts(hs, err);
	if (rc == 0) {
		timer_kinds(hs);
		rc = wr_host_wheel_init(&hs->wheel, hs->n, hs->wheel.n_kinds);
	}
	if (rc != 0) {
		if (rc == -ENOMEM)
			wr_error_set(err, rc, NULL, 0, 0, NULL, "out of memory "
				     "for %u hosts", hs->n);
		wr_hosts_free(hs);
		return rc;
	}
	*out = hs;
	return 0;
}

size_t
wr_hosts_mem(const struct wr_hosts *hs)
{
	size_t b = sizeof(*hs) + hs->n_grp * sizeof(*hs->grp) +
		   (size_t)hs->n * sizeof(*hs->h) +
		   ((size_t)hs->by_mac.mask + 1 + hs->by_ip4.mask + 1 +
		    hs->by_ip6.mask + 1) * sizeof(uint32_t) +
		   (size_t)hs->n * hs->wheel.n_kinds * sizeof(*hs->wheel.node) +
		   WR_HOST_WHEEL_SLOTS * sizeof(*hs->wheel.slot);
	int id;

	for (id = 0; id < WR_HOST_PROTO__COUNT; id++) {
		if (hs->mstate[id] != NULL)
			b += (size_t)hs->n * wr_host_protos[id]->state_size;
		if (hs->mdata[id] != NULL)
			b += wr_host_protos[id]->data_size;
	}
	return b;
}

void
wr_hosts_free(struct wr_hosts *hs)
{
	int id;

	if (hs == NULL)
		return;
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++)
		free(hs->mstate[id]);
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++)
		free(hs->mdata[id]);
	wr_host_wheel_free(&hs->wheel);
	free(hs->by_mac.e);
	free(hs->by_ip4.e);
	free(hs->by_ip6.e);
	free(hs->grp);
	free(hs->h);
	free(hs);
}

static void
fire(struct wr_hosts *hs, uint32_t id, uint64_t now)
{
	uint32_t h = id / hs->wheel.n_kinds, kind = id % hs->wheel.n_kinds;
	int mod;

	if (kind == WR_HOST_TK_ENGINE) {
		/* Stopped hosts ask and announce nothing more; modules' timers
		 * still run (a release retransmitted). */
		if (!hs->stopped)
			wr_hosts_engine_timer(hs, h, now);
		return;
	}
	mod = hs->tmod[kind];
	wr_host_protos[mod]->timer(hs, h, now);
}

/* ---- Bring-up ---- */

static void
start_host(struct wr_hosts *hs, struct wr_host_grp *g, uint32_t h,
	   uint64_t now)
{
	struct wr_host *x = &hs->h[h];
	int id;

	x->started = 1;
	x->pending = g->mods | WR_HOST_PENDING_ENGINE;
	g->outstanding++;
	hs->n_pending++;
	hs->n_started++;
	hs->c.hosts_started++;
	/* The engine's bit stays until every part began: a host without a
	 * gateway is not up before its link-local address's DAD. */
	hs->starting = true;
	wr_hosts_engine_start(hs, h, now);
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++)
		if (g->mods & (1u << id))
			wr_host_protos[id]->start(hs, h, now);
	hs->starting = false;
	wr_hosts_engine_check(hs, h);
}

/* Start what group @p g may start by @p now: starts spaced 1/rate apart
 * (the k-th at t_ref + k/rate, exact over any number), at most
 * `outstanding` pending at once.  A start the cap held back goes at the
 * first tick with room, and the spacing counts from there: no burst
 * catches up on the time the cap took.  @return the next start's time. */
static uint64_t
bring_up(struct wr_hosts *hs, struct wr_host_grp *g, uint64_t now,
	 uint32_t *budget)
{
	const struct wr_host_group *sp = &hs->specs->groups[g->spec];
	uint64_t rate = sp->bringup_rate, due;

	while (g->started < g->count) {
		if (*budget == 0)
			return now;     /* more at the next tick, at once */
		if (sp->outstanding != 0 && g->outstanding >= sp->outstanding) {
			g->blocked = true;
			return UINT64_MAX;
		}
		due = rate == 0 ? 0 : g->t_ref + (g->k * NS_PER_S + rate - 1) / rate;
		if (g->blocked && due < now) {
			g->t_ref = now;
			g->k = 0;
			due = now;
		}
		g->blocked = false;
		if (now < due)
			return due;
		g->k++;
		(*budget)--;
		start_host(hs, g, g->first + g->started++, now);
	}
	return UINT64_MAX;
}

void
wr_hosts_start(struct wr_hosts *hs, uint64_t now)
{
	uint32_t i;

	if (hs->started)
		return;
	hs->started = true;
	if (!hs->wheel.based) {
		hs->wheel.based = true;
		hs->wheel.base_ns = now;
	}
	for (i = 0; i < hs->n_grp; i++)
		hs->grp[i].t_ref = now;
	(void)wr_hosts_tick(hs, now);
}

uint64_t
wr_hosts_tick(struct wr_hosts *hs, uint64_t now)
{
	/* Starts a tick: a host's start costs a few microseconds and its
	 * frames; 1,048,576 at once held the service 3 s (measured), with
	 * the RX ring unread meanwhile.  1024 keep a tick near 3 ms. */
	uint32_t i, budget = WR_HOST_START_BURST;
	uint64_t next, t;

	if (!hs->wheel.based) {
		hs->wheel.based = true;
		hs->wheel.base_ns = now;
	}
	next = wr_host_wheel_run(&hs->wheel, now, hs, fire);
	if (!hs->started || hs->stopped)
		return next;
	t = wr_hosts_peers_step(hs, now);
	if (t < next)
		next = t;
	for (i = 0; i < hs->n_grp; i++) {
		t = bring_up(hs, &hs->grp[i], now, &budget);
		if (t < next)
			next = t;
	}
	return next;
}

bool
wr_hosts_up(const struct wr_hosts *hs)
{
	return hs->started && hs->n_started == hs->n && hs->n_pending == 0;
}

void
wr_hosts_stop(struct wr_hosts *hs, uint64_t now)
{
	uint32_t h;
	int id;

	if (hs->stopped)
		return;
	for (h = 0; h < hs->n; h++) {
		const struct wr_host_group *g = wr_hosts_group(hs, h);

		if (!hs->h[h].started)
			continue;
		for (id = 0; id < WR_HOST_PROTO__COUNT; id++)
			if (g->proto_cfg[id] != NULL && wr_host_protos[id]->stop)
				wr_host_protos[id]->stop(hs, h, now);
	}
	hs->stopped = true;
}

void
wr_hosts_input(struct wr_hosts *hs, const uint8_t *frame, uint32_t len,
	       uint64_t now)
{
	struct wr_host_rx rx;
	int id;

	hs->c.rx_frames++;
	if (hs->stopped || wr_hosts_parse(hs, frame, len, &rx) != 0)
		return;
	if (wr_hosts_neigh_input(hs, &rx, now))
		return;
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++) {
		const struct wr_host_proto *p = wr_host_protos[id];

		if (p->wants != NULL && p->input != NULL && p->wants(&rx)) {
			p->input(hs, &rx, now);
			return;
		}
	}
	hs->c.rx_ignored++;
}

/* ---- Counters ---- */

struct prefixed {
	void (*put)(void *ctx, const char *name, uint64_t v);
	void *ctx;
	const char *prefix;
};

static void
put_prefixed(void *ctx, const char *name, uint64_t v)
{
	const struct prefixed *p = ctx;
	char full[96];

	snprintf(full, sizeof(full), "%s_%s", p->prefix, name);
	p->put(p->ctx, full, v);
}

/* How many hosts are in each state (a scan: the control plane asks
 * seldom, and no counter is kept in step with every change). */
static void
state_counts(const struct wr_hosts *hs,
	     void (*put)(void *ctx, const char *name, uint64_t v), void *ctx)
{
	static const char *const neigh[] = { "none", "incomplete", "reachable",
					     "stale", "failed" };
	uint64_t gw4[5] = { 0 }, gw6[5] = { 0 }, ip6[5] = { 0 };
	char name[48];
	uint32_t h, s;

	for (h = 0; h < hs->n; h++) {
		const struct wr_host *x = &hs->h[h];

		gw4[x->gw4_n.state % 5] += x->gw4 != 0;
		gw6[x->gw6_n.state % 5] += x->gw6 != 0;
		for (s = 0; s < x->n_ip6; s++)
			ip6[x->ip6[s].state % 5]++;
	}
	for (s = 1; s < 5; s++) {
		snprintf(name, sizeof(name), "gw4_%s", neigh[s]);
		put(ctx, name, gw4[s]);
		snprintf(name, sizeof(name), "gw6_%s", neigh[s]);
		put(ctx, name, gw6[s]);
	}
	put(ctx, "ip6_tentative", ip6[WR_IP6_TENTATIVE]);
	put(ctx, "ip6_preferred", ip6[WR_IP6_PREFERRED]);
	put(ctx, "ip6_deprecated", ip6[WR_IP6_DEPRECATED]);
	put(ctx, "ip6_duplicate", ip6[WR_IP6_DUPLICATE]);
}

void
wr_hosts_counters(const struct wr_hosts *hs,
		  void (*put)(void *ctx, const char *name, uint64_t v),
		  void *ctx)
{
	int id;

	put(ctx, "hosts", hs->n);
	put(ctx, "hosts_pending", hs->n_pending);
	put(ctx, "mem_bytes", wr_hosts_mem(hs));
#define WR_X(n) put(ctx, #n, hs->c.n);
	WR_HOST_COUNTERS(WR_X)
#undef WR_X
	state_counts(hs, put, ctx);
	for (id = 0; id < WR_HOST_PROTO__COUNT; id++) {
		struct prefixed p = { put, ctx, wr_host_protos[id]->name };

		if (wr_host_protos[id]->counters != NULL)
			wr_host_protos[id]->counters(hs, put_prefixed, &p);
	}
}

bool
wr_hosts_counter_is_gauge(const char *name)
{
	static const char *const gauges[] = { "hosts", "hosts_pending",
					      "mem_bytes" };
	static const char *const prefixes[] = { "gw4_", "gw6_", "ip6_" };
	size_t i;

	for (i = 0; i < sizeof(gauges) / sizeof(gauges[0]); i++)
		if (strcmp(name, gauges[i]) == 0)
			return true;
	/* state_counts() above */
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	/* wr_hosts_put_states() and DHCPv4's own, behind a module's name */
	return strstr(name, "_state_") != NULL;
}

void
wr_hosts_put_states(const struct wr_hosts *hs, enum wr_host_proto_id id,
		    size_t state_off, const char *const *names, unsigned int n,
		    void (*put)(void *ctx, const char *name, uint64_t v),
		    void *ctx)
{
	uint64_t count[64] = { 0 };
	char name[64];
	unsigned int i;
	uint32_t h;

	if (n > (sizeof(count) / sizeof(count[0])))
		n = (sizeof(count) / sizeof(count[0]));
	for (h = 0; h < hs->n; h++) {
		const uint8_t *st;

		if (wr_hosts_cfg(hs, h, id) == NULL)
			continue;
		st = (const uint8_t *)wr_hosts_cstate(hs, h, id) + state_off;
		if (*st < n)
			count[*st]++;
	}
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "state_%s", names[i]);
		put(ctx, name, count[i]);
	}
}

void
wr_hosts_put_list(const char *prefix, const char *const *names,
		  const uint64_t *v, unsigned int first, unsigned int n,
		  void (*put)(void *ctx, const char *name, uint64_t v),
		  void *ctx)
{
	char name[64];
	unsigned int i;

	for (i = first; i < n; i++) {
		snprintf(name, sizeof(name), "%s%s", prefix, names[i]);
		put(ctx, name, v[i]);
	}
}

const char *
wr_hosts_proto_state(const struct wr_hosts *hs, uint32_t h,
		     enum wr_host_proto_id id)
{
	if (wr_hosts_cfg(hs, h, id) == NULL || wr_host_protos[id]->state == NULL)
		return "";
	return wr_host_protos[id]->state(hs, h);
}

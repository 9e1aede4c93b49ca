/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_owner: what a method of `wirerate serve` checks before it changes the ports' traffic: the caller's session owns them, no benchmark job holds them. */
#include "wr_server_priv.h"

/* ---- ownership ---- */

/* The ports the selected streams send on (all loaded streams when none). */
uint64_t
wr_srv_ports_of(const struct server *s, const bool *sel)
{
	uint64_t m = 0;
	uint32_t i;

	if (!s->loaded)
		return 0;
	for (i = 0; i < s->f.n_streams; i++)
		if (sel == NULL || sel[i])
			m |= 1ull << s->f.streams[i].port;
	return m;
}

bool
wr_srv_owns(struct server *s, struct conn *c, json_t *id, uint64_t mask)
{
	unsigned int p;

	for (p = 0; p < s->e->n_ports; p++) {
		if (!(mask & (1ull << p)))
			continue;
		if (s->owner[p] == NULL) {
			wr_srv_reply_error(s, c, id, WR_RPC_E_OWNER, NULL,
				       "port %u is not acquired: call ports.acquire "
				       "first", p);
			return false;
		}
		if (s->owner[p] != c->sess) {
			wr_srv_reply_error(s, c, id, WR_RPC_E_OWNER,
				       json_pack("{s:i, s:s}", "port", p, "owner",
						 s->owner[p]->name),
				       "port %u is owned by session \"%s\": only it "
				       "changes the port's traffic (ports.acquire "
				       "with force: true takes it over)", p,
				       s->owner[p]->name);
			return false;
		}
	}
	return true;
}

/* A benchmark job has the engine: traffic and streams wait for it.
 * @return true (and replied) when one runs. */
bool
wr_srv_bench_busy(struct call *k)
{
	if (k->s->state != ST_BENCH)
		return false;
	wr_srv_reply_error(k->s, k->c, k->id, WR_RPC_E_STATE, json_pack("{s:i}",
			   "job", k->s->job ? k->s->job->id : 0), "benchmark job %u "
			   "has the ports: bench.cancel it, or wait for it",
			   k->s->job ? k->s->job->id : 0);
	return true;
}

/* The ports of the loaded file's tcp: class @p cls (< 0: every class):
 * its clients' and its emulated servers' (a real server is not ours). */
uint64_t
wr_srv_tcp_ports_of(const struct server *s, int cls)
{
	uint64_t m = 0;
	uint32_t i;

	if (!s->loaded)
		return 0;
	for (i = 0; i < s->f.tcp.n; i++) {
		const struct wr_tcp_class *c = &s->f.tcp.classes[i];

		if (cls >= 0 && (uint32_t)cls != i)
			continue;
		if (c->client.present)
			m |= 1ull << c->client.port;
		if (c->server.present && c->server.group >= 0)
			m |= 1ull << c->server.port;
	}
	return m;
}

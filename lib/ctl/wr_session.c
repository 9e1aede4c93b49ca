/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_session: the one way a stream file goes onto an open engine (next hops, port MACs, TX offloads, responders, telemetry, captures). */
#include <errno.h>
#include <string.h>

#include "wr_engine_priv.h"
#include "wr_session.h"
#include "wr_session_hosts.h"
#include "wr_tcp_classes.h"
#include "wr_telemetry.h"

/* What the hosts send when they stop (DHCP RELEASE, leaves) has this long
 * to leave before the service ends: a burst through a TX queue takes
 * microseconds; the margin is for a control thread that was asleep. */
#define HOSTS_LINGER_MS 20

void
wr_session_init(struct wr_session *s, struct wr_engine *e,
		const struct wr_session_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->e = e;
	if (o != NULL)
		s->o = *o;
}

/* Which ports answer ARP/ICMP/ND: the profile's `arp: true`, arp_all, or
 * a stream of the port resolving its eth.dst (its next hop will ask for
 * us sooner or later, and must get an answer). */
static void
want_responders(struct wr_session *s, const struct wr_stream_file *f)
{
	const struct wr_config *cfg = wr_engine_config(s->e);
	unsigned int i;
	uint32_t k;

	bool streams;

	s->any_responder = false;
	for (i = 0; i < wr_engine_n_ports(s->e); i++) {
		s->want[i] = s->o.arp_all ||
			     (i < cfg->n_ports && cfg->ports[i].arp);
		for (k = 0, streams = false; k < f->n_streams; k++) {
			streams |= f->streams[k].port == i;
			if (f->streams[k].port == i && f->streams[k].dst_arp)
				s->want[i] = true;
		}
		/* A port without streams has no address to answer for. */
		s->want[i] &= streams;
		s->any_responder |= s->want[i];
	}
}

/* A capture of what a port receives needs the port polled, and one of
 * what it sends needs sent mbufs freed with reference counts (no
 * MBUF_FAST_FREE): asked for as a responder's TX is. */
static int
captures_need(struct wr_session *s, bool *tx_cap, struct wr_error *err)
{
	unsigned int i, n = wr_engine_n_ports(s->e);

	memset(tx_cap, 0, WR_PORTS_MAX * sizeof(*tx_cap));
	for (i = 0; i < s->o.n_captures; i++) {
		const struct wr_engine_cap *c = &s->o.captures[i];

		if (c->port >= n)
			return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				"--capture %u=%s: port %u does not exist: "
				"there %s %u port%s", c->port, c->file, c->port,
				n == 1 ? "is" : "are", n, n == 1 ? "" : "s");
		if (c->dir & WR_CAP_RX)
			wr_engine_set_rx(s->e, c->port, true);
		if (c->dir & WR_CAP_TX)
			tx_cap[c->port] = true;
	}
	return 0;
}

static int
tx_plan(struct wr_session *s, const struct wr_stream_file *f,
	const bool *tx_cap, struct wr_error *err)
{
	const struct wr_config *cfg = wr_engine_config(s->e);
	unsigned int i, n;
	uint32_t k;
	int rc;

	for (i = 0; i < wr_engine_n_ports(s->e); i++) {
		for (k = 0, n = 0; k < f->n_streams; k++)
			n += f->streams[k].port == i;
		/* The hosts' queue has a pool of its own: no
		 * MBUF_FAST_FREE, as for a responder. */
		rc = wr_port_tx_plan(wr_engine_port(s->e, i), n,
				     s->want[i] || tx_cap[i] || s->hosts_port[i],
				     cfg->link_wait_ms, err);
		/* Without a spare one, the hosts' frames (and the
		 * responder's) go through the port's RX lcore
		 * (wr_host_svc.h). */
		if (rc == 0 && (s->hosts_port[i] || s->want[i]))
			rc = wr_port_txq_reserve(wr_engine_port(s->e, i),
				(uint16_t)s->e->port_n_lcores[i],
				cfg->link_wait_ms, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A template kept from before the ports were known has the default MACs
 * where the stream asked for its port's or its next hop's: built again
 * once they are written in (wr_frame.h has no MAC edit of a template). */
static void
drop_stale(struct wr_session *s, const struct wr_stream_file *f)
{
	uint32_t k;

	for (k = 0; s->o.prepared != NULL && k < f->n_streams; k++)
		if (f->streams[k].mac_port != 0 || f->streams[k].dst_arp) {
			wr_frame_tmpl_free(s->o.prepared->tmpl[k]);
			s->o.prepared->tmpl[k] = NULL;
		}
}

/* The ports with hosts: each must exist (the stream file was checked
 * against the ports before they were known in serve) and is polled. */
static int
want_hosts(struct wr_session *s, const struct wr_stream_file *f,
	   struct wr_error *err)
{
	unsigned int n = wr_engine_n_ports(s->e);
	uint32_t g;

	memset(s->hosts_port, 0, sizeof(s->hosts_port));
	for (g = 0; g < f->hosts.n; g++) {
		const struct wr_host_group *hg = &f->hosts.groups[g];

		if (hg->port >= n)
			return wr_error_set(err, -EINVAL, f->path,
				hg->where.line, hg->where.col, NULL,
				"hosts[%u].port: port %u does not exist: "
				"there %s %u port%s", g, hg->port,
				n == 1 ? "is" : "are", n, n == 1 ? "" : "s");
		s->hosts_port[hg->port] = true;
		wr_engine_set_rx(s->e, hg->port, true);
	}
	return 0;
}

/* The hosts and the ports' responders created and started before the
 * streams are loaded (the service polls their ports itself meanwhile):
 * the streams' next hops asked for and written into them (their
 * templates are built after), the hosts' bring-up waited for: addresses,
 * DAD and gateways are settled before the first frame of a stream. */
static int
hosts_start(struct wr_session *s, struct wr_stream_file *f,
	    struct wr_error *err)
{
	int rc;

	if (f->hosts.n == 0 && !s->any_responder)
		return 0;
	rc = wr_host_svc_create(&s->hosts, s->e, f, s->want,
				s->o.host_lcore_set ? (int)s->o.host_lcore : -1,
				err);
	if (rc == 0) {
		s->e->hosts = s->hosts;
		rc = wr_host_svc_start(s->hosts, err);
	}
	if (rc == 0)
		rc = wr_host_svc_resolve(s->hosts, f, WR_ARPD_TIMEOUT_MS, err);
	if (rc != 0)
		return rc;
	s->hosts_down = wr_host_svc_wait_up(s->hosts, s->o.hosts_wait_set ?
					    s->o.hosts_wait_ms :
					    WR_HOST_SVC_WAIT_MS);
	return 0;
}

static void
hosts_end(struct wr_session *s)
{
	if (s->hosts == NULL)
		return;
	/* Not while workers still poll the ports (an unload that stops
	 * them itself: wr_engine_unload()). */
	if (!s->e->launched)
		wr_host_svc_rx_own(s->hosts, true);
	wr_host_svc_stop(s->hosts, HOSTS_LINGER_MS);
	s->e->hosts = NULL;
	wr_host_svc_free(s->hosts);
	s->hosts = NULL;
}

int
wr_session_load(struct wr_session *s, struct wr_stream_file *f,
		struct wr_error *err)
{
	bool tx_cap[WR_PORTS_MAX];
	unsigned int i;
	int rc;

	wr_session_unload(s);
	want_responders(s, f);
	rc = want_hosts(s, f, err);
	if (rc == 0)
		rc = captures_need(s, tx_cap, err);
	if (rc == 0)
		rc = tx_plan(s, f, tx_cap, err);
	if (rc == 0)
		rc = hosts_start(s, f, err);
	if (rc == 0) {
		wr_engine_port_macs(s->e, f);
		drop_stale(s, f);
		/* Streams from DHCP/SLAAC hosts: their addresses are known
		 * now, before the templates are built. */
		rc = wr_session_hosts_fill(s->hosts, s->o.prepared, f, err);
	}
	if (rc == 0)
		rc = wr_engine_load(s->e, f, s->o.prepared, s->any_responder,
				    err);
	if (rc != 0) {
		hosts_end(s);
		return rc;
	}
	s->loaded = true;
	if (s->hosts != NULL) {
		rc = wr_host_svc_attach(s->hosts, err);
		if (rc != 0)
			goto fail;
	}
	/* The TCP classes: their hosts are up, their lanes made. */
	rc = wr_tcp_classes_load(&s->tcp, s->e, s->hosts, f, err);
	if (rc != 0)
		goto fail;
	/* Telemetry is a convenience: the streams go on without it. */
	s->telemetry_rc = s->o.telemetry ? wr_telemetry_attach(s->e) : 0;
	/* Captures cover the session's first load: a later one (run
	 * --repeat) finds them ended with the streams they saw. */
	for (i = 0; !s->caps_started && i < s->o.n_captures; i++) {
		rc = wr_engine_capture_start(s->e, &s->o.captures[i], err);
		if (rc < 0)
			goto fail;
		s->cap_id[s->n_caps++] = rc;
	}
	s->caps_started = true;
	/* The workers poll the ports from their start on. */
	if (s->hosts != NULL)
		wr_host_svc_rx_own(s->hosts, false);
	return 0;
fail:
	wr_session_unload(s);
	return rc;
}

void
wr_session_unload(struct wr_session *s)
{
	if (!s->loaded)
		return;
	/* The telemetry callbacks read the streams' state and the
	 * responders' counters: neither may once it is freed. */
	if (s->o.telemetry)
		wr_telemetry_detach();
	/* The hosts, while the ports are up: they say goodbye (DHCP
	 * release, leaves) from the RX queues the workers left. */
	hosts_end(s);
	wr_engine_unload(s->e);
	/* After both: the engines read the classes' programs, the hosts
	 * the peers' entries. */
	wr_tcp_classes_free(s->tcp);
	s->tcp = NULL;
	s->loaded = false;
}

void
wr_session_traffic_stopped(struct wr_session *s)
{
	if (s->hosts != NULL)
		wr_host_svc_rx_own(s->hosts, true);
}

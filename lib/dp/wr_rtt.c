/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_rtt: the ping-pong loop of `wirerate rtt`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "wr_engine_priv.h"
#include "wr_rtt.h"
#include "wr_rx.h"
#include "wr_sig.h"
#include "wr_clock_eal.h"

/* One frame is in flight, but a NIC may keep sent mbufs in its TX ring
 * until it frees them in batches (tx_free_thresh, typically 32): the pool
 * outlasts a full ring of 4096 (the largest ring we configure). */
#define WR_RTT_POOL_MBUFS 8191
#define WR_RTT_POOL_CACHE 0

struct rte_mempool *
wr_rtt_pool_create(const char *name, uint16_t max_len, int socket_id)
{
	return rte_pktmbuf_pool_create(name, WR_RTT_POOL_MBUFS,
				       WR_RTT_POOL_CACHE, 0,
				       RTE_PKTMBUF_HEADROOM + max_len,
				       socket_id);
}

int
wr_rtt_reset(struct wr_rtt *r, uint64_t tsc_hz)
{
	if (r->mp == NULL || r->t == NULL || r->count == 0 ||
	    wr_frame_tmpl_sig_off(r->t) == 0)
		return -EINVAL;
	if (wr_latency_tsc_init(&r->tsc, tsc_hz) != 0)
		return -EINVAL;
	r->sent = r->received = r->lost = r->late = r->foreign = 0;
	r->rc = 0;
	r->done = 0;
	wr_latency_init(&r->hist);
	wr_latency_jitter_init(&r->jitter);
	memset(&r->hints, 0, sizeof(r->hints));
	if (wr_frame_tmpl_rx_hint(r->t, &r->hints.raw[0]) == 0)
		r->hints.n = 1;
	return 0;
}

/* Account one received burst; @return true when it held the echo of @p seq. */
static bool
rx_burst_account(struct wr_rtt *r, struct rte_mbuf **pkts, uint16_t n,
		 uint64_t now, uint64_t seq)
{
	bool found = false;
	uint16_t i;

	for (i = 0; i < n; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(pkts[i], const uint8_t *);
		struct wr_sig sig;
		int off = wr_frame_sig_offset(p, rte_pktmbuf_data_len(pkts[i]),
					      &r->hints);

		if (off < 0 || wr_sig_decode(p + off, &sig) != 0 ||
		    sig.stream_id != r->sig_id) {
			r->foreign++;
		} else if (sig.seq != seq || found) {
			/* An earlier round trip's echo, after its timeout,
			 * or a copy of this one. */
			r->late++;
		} else {
			uint64_t ns = wr_latency_tsc_to_ns(&r->tsc,
							   now - sig.tx_tsc);

			found = true;
			wr_latency_record(&r->hist, ns);
			wr_latency_jitter_update(&r->jitter, ns);
		}
	}
	rte_pktmbuf_free_bulk(pkts, n);
	return found;
}

/* A quiescent point: no burst in progress.  @return true when the port
 * went away (see struct wr_rtt). */
static inline bool
rtt_port_gone(struct wr_rtt *r)
{
	if (r->epoch == NULL)
		return false;
	__atomic_store_n(&r->ack, __atomic_load_n(r->epoch, __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
	return __atomic_load_n(r->gone, __ATOMIC_RELAXED) != 0;
}

int
wr_rtt_lcore(void *arg)
{
	struct wr_rtt *r = arg;
	struct wr_frame_gen gen;
	const uint16_t max_len = wr_frame_tmpl_max_len(r->t);
	uint64_t i;

	wr_frame_gen_init(&gen, r->t, 0, 1);
	for (i = 0; i < r->count; i++) {
		struct rte_mbuf *pkts[WR_RX_BURST], *m;
		uint64_t seq = r->first_seq + i, tsc, deadline;
		uint8_t *data;
		uint16_t len, n;
		bool back = false;

		if (__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
			r->rc = -EINTR;
			break;
		}
		if (unlikely(rtt_port_gone(r))) {
			r->rc = -ENOLINK;
			break;
		}
		m = rte_pktmbuf_alloc(r->mp);
		if (m == NULL) {
			r->rc = -ENOBUFS;
			break;
		}
		/* The pool serves every size of a sweep: start each frame
		 * from the template, as wr_frame_gen_next() requires. */
		data = rte_pktmbuf_mtod(m, uint8_t *);
		rte_memcpy(data, wr_frame_tmpl_bytes(r->t), max_len);
		len = wr_frame_gen_next(&gen, data);
		m->data_len = len;
		m->pkt_len = len;
		tsc = rte_rdtsc();
		wr_frame_sig_write(r->t, data, len, r->sig_id, seq, tsc);
		deadline = tsc + r->timeout_tsc;
		while (rte_eth_tx_burst(r->port_id, r->tx_queue, &m, 1) == 0) {
			if (unlikely(rtt_port_gone(r))) {
				rte_pktmbuf_free(m);
				r->rc = -ENOLINK;
				goto out;
			}
			if (rte_rdtsc() >= deadline) {
				rte_pktmbuf_free(m);
				m = NULL;
				break;
			}
		}
		if (m == NULL) {
			r->lost++;
			continue;
		}
		r->sent++;
		for (;;) {
			uint64_t now;

			n = rte_eth_rx_burst(r->port_id, r->rx_queue, pkts,
					     WR_RX_BURST);
			now = rte_rdtsc();
			if (n > 0 && rx_burst_account(r, pkts, n, now, seq)) {
				back = true;
				break;
			}
			if (now >= deadline)
				break;
			if (__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
				/* Neither back nor lost: not counted. */
				r->rc = -EINTR;
				goto out;
			}
			if (unlikely(rtt_port_gone(r))) {
				r->rc = -ENOLINK;
				goto out;
			}
		}
		if (back)
			r->received++;
		else
			r->lost++;
	}
out:
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	return r->rc;
}

/* What `wirerate rtt` holds on one engine port for a sweep. */
struct wr_rtt_ses {
	struct wr_engine *e;
	unsigned int port;       /* engine port index */
	unsigned int lcore;      /* the port's first TX lcore */
	struct rte_mempool *mp;
	struct wr_rtt *r;        /* cache-aligned: the lcore writes it */
};

int
wr_rtt_ses_open(struct wr_rtt_ses **out, struct wr_engine *e,
		unsigned int port, uint16_t max_len, struct wr_error *err)
{
	const struct wr_port *p;
	struct wr_rtt_ses *s;

	*out = NULL;
	if (port >= e->n_ports)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "rtt: port %u does not exist", port);
	p = &e->ports[port];
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	s->e = e;
	s->port = port;
	s->lcore = e->port_lcores[port][0];
	s->mp = wr_rtt_pool_create("wr_rtt", max_len, p->socket_id >= 0 ?
				   p->socket_id :
				   (int)rte_lcore_to_socket_id(s->lcore));
	s->r = rte_zmalloc("wr_rtt", sizeof(*s->r), RTE_CACHE_LINE_SIZE);
	if (s->mp == NULL || s->r == NULL) {
		int rc = wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				      "rtt: no memory for mbufs: %s (are "
				      "hugepages reserved?)",
				      rte_strerror(rte_errno));

		wr_rtt_ses_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

unsigned int
wr_rtt_ses_lcore(const struct wr_rtt_ses *s)
{
	return s->lcore;
}

const struct wr_rtt *
wr_rtt_ses_result(const struct wr_rtt_ses *s)
{
	return s->r;
}

int
wr_rtt_ses_mtu(const struct wr_rtt_ses *s, uint16_t *mtu)
{
	return rte_eth_dev_get_mtu(s->e->ports[s->port].port_id, mtu);
}

int
wr_rtt_ses_measure(struct wr_rtt_ses *s, const struct wr_frame_tmpl *t,
		   uint32_t sig_id, uint64_t count, uint64_t timeout_ns,
		   uint64_t first_seq, const uint32_t *stop,
		   void (*wait)(void *ctx, uint64_t ns), void *ctx,
		   uint64_t poll_ns, struct wr_error *err)
{
	struct wr_engine *e = s->e;
	struct wr_rtt *r = s->r;
	int rc;

	r->port_id = e->ports[s->port].port_id;
	r->tx_queue = 0;
	r->rx_queue = 0;
	r->mp = s->mp;
	r->t = t;
	r->sig_id = sig_id;
	r->count = count;
	/* Each size refines the TSC's calibration (wr_clock_eal.h). */
	wr_tsc_refine();
	r->timeout_tsc = wr_tsc_from_ns(timeout_ns);
	r->first_seq = first_seq;
	r->stop = stop;
	/* A port that goes away mid-size (a memif peer killed): the lcore
	 * leaves it before the PMD tears it down (wr_engine.h). */
	r->gone = &e->port_gone[s->port];
	r->epoch = &e->epoch;
	if (wr_rtt_reset(r, wr_tsc_hz()) != 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "rtt: bad settings");
	wr_engine_watch(e, &r->ack, &r->done);
	rc = rte_eal_remote_launch(wr_rtt_lcore, r, s->lcore);
	if (rc != 0) {
		wr_engine_watch(e, NULL, NULL);
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "cannot launch lcore %u: %s", s->lcore,
				    rte_strerror(-rc));
	}
	/* rte_eal_wait_lcore() spins: let time pass until the lcore says
	 * done. */
	while (!__atomic_load_n(&r->done, __ATOMIC_ACQUIRE)) {
		wr_engine_links_check(e);
		wait(ctx, poll_ns);
	}
	rc = rte_eal_wait_lcore(s->lcore);
	wr_engine_watch(e, NULL, NULL);
	return rc;
}

void
wr_rtt_ses_close(struct wr_rtt_ses *s)
{
	if (s == NULL)
		return;
	rte_free(s->r);
	/* A NIC may still hold sent frames of the pool in its TX ring: close
	 * the port (which frees them) before the pool, and both before EAL
	 * goes (wr_engine_close; closing a port twice is harmless). */
	if (s->mp != NULL) {
		wr_port_close(&s->e->ports[s->port]);
		rte_mempool_free(s->mp);
	}
	free(s);
}

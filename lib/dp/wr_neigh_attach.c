/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_neigh_attach: the neighbour responders put on a loaded engine's RX queues and taken off them (wr_arpd_attach, wr_arpd_detach: wr_neigh.h). */
#include <errno.h>
#include <stdbool.h>

#include <rte_malloc.h>

#include "wr_engine_priv.h"
#include "wr_neigh.h"
#include "wr_rx.h"

/*
 * Here, not in wr_neigh.c: these walk the engine's lcores and RX queues,
 * and the RX path calls the responder (wr_rx.c -> wr_arpd_input()), so
 * with them wr_neigh and wr_rx/wr_engine included each other
 * (wr-check-layout).  The responder itself knows its port and queue only.
 */

/* wr_rx_poll() hands the responder what one burst holds. */
_Static_assert(WR_RX_BURST <= WR_ARPD_BURST_MAX,
	       "wr_arpd_input() takes the RX path's whole burst");

/* The lcore that polls @p q, and the TX queue it sends on port @p port_id. */
static int
answer_queue(struct wr_engine *e, const struct wr_rxq *q, uint16_t port_id,
	     uint16_t *queue_id)
{
	unsigned int i, j, k;

	for (i = 0; i < e->n_lcores; i++) {
		const struct wr_lcore_ctx *c = e->lctx[e->lcores[i]];

		for (j = 0; j < c->n_rxq; j++) {
			if (c->rxq[j] != q)
				continue;
			for (k = 0; k < c->n_txq; k++)
				if (c->txq[k].port_id == port_id) {
					*queue_id = c->txq[k].queue_id;
					return 0;
				}
			return -EINVAL;
		}
	}
	return -EINVAL;
}

int
wr_arpd_attach(struct wr_engine *e, const bool *want, struct wr_arpd **out,
	       struct wr_error *err)
{
	unsigned int i;
	uint32_t s;
	uint16_t qid;
	int rc;

	for (i = 0; i < e->n_ports; i++)
		out[i] = NULL;
	for (i = 0; i < e->n_ports; i++) {
		struct wr_arpd *d;

		if (!want[i])
			continue;
		for (s = 0; s < e->f->n_streams; s++)
			if (e->f->streams[s].port == i)
				break;
		if (s == e->f->n_streams)
			continue;
		/* Its first RX queue: non-IP frames (ARP) hash to queue 0
		 * under RSS; doc/rx.md. */
		if (e->n_rxq[i] == 0 ||
		    answer_queue(e, e->rxq[i][0], e->ports[i].port_id,
				 &qid) != 0) {
			wr_arpd_detach(e, out);
			return wr_error_set(err, -EINVAL, e->cfg_path, 0, 0,
				NULL, "ports[%u].arp: the lcore that polls "
				"port %s (its first RX queue) must also send "
				"on it: make its first rx_lcores entry one of "
				"its tx_lcores", i,
				e->ports[i].device);
		}
		d = rte_zmalloc_socket("wr_arpd", sizeof(*d),
				       RTE_CACHE_LINE_SIZE,
				       e->ports[i].socket_id);
		if (d == NULL) {
			wr_arpd_detach(e, out);
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		}
		rc = wr_arpd_init(d, &e->ports[i], qid, e->f, i);
		if (rc != 0) {
			rte_free(d);
			wr_arpd_detach(e, out);
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "out of memory");
		}
		out[i] = d;
		e->rxq[i][0]->arpd = d;
	}
	return 0;
}

void
wr_arpd_detach(struct wr_engine *e, struct wr_arpd **out)
{
	unsigned int i;

	for (i = 0; i < e->n_ports; i++) {
		if (out[i] == NULL)
			continue;
		if (e->n_rxq[i] > 0 && e->rxq[i][0]->arpd == out[i])
			e->rxq[i][0]->arpd = NULL;
		wr_arpd_fini(out[i]);
		rte_free(out[i]);
		out[i] = NULL;
	}
}

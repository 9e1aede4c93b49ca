/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_port: ethdev setup, link wait, counters and teardown. */
/* rte_eth_read_clock() is still experimental in DPDK 22.11; it is the only
 * way to map hardware RX timestamps onto the TSC. */
#define ALLOW_EXPERIMENTAL_API
/* struct ucred (SO_PEERCRED). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_ethdev.h>
#include <rte_kvargs.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "wr_bench_result.h"
#include "wr_config.h"
#include "wr_eal.h"
#include "wr_offload.h"
#include "wr_port.h"
#include "wr_runtime.h"
#include "wr_clock_eal.h"

#define WR_DESC_DEFAULT 1024
/* RX queue pool: enough for the ring plus a few bursts in flight. */
#define WR_RX_POOL_EXTRA 1024
#define WR_RX_POOL_CACHE 256
/* IEEE 802.3: a frame is its 14-byte Ethernet header, the MTU's bytes and
 * a 4-byte FCS (WR_FCS_LEN, wr_stream.h); the FCS never reaches an mbuf. */
#define WR_ETH_OVERHEAD 18u
/* NICs program RX buffer sizes in 1 KB units (ixgbe SRRCTL.BSIZEPKT; i40e
 * and ice in 128 B): a jumbo RX buffer rounded up to 1 KB is used whole. */
#define WR_RX_ROOM_ALIGN 1024u
/* rte_eth_memif.c: ETH_MEMIF_DEFAULT_PKT_BUFFER_SIZE, its bsize= default. */
#define WR_MEMIF_BSIZE_DEFAULT 2048u

/*
 * memif reports RTE_ETHER_MAX_LEN as its longest frame and cannot set an
 * MTU, yet its data path applies neither: it splits a longer frame over
 * several of its shared buffers, whose size is the memif client's bsize=
 * (the client creates the regions).  A frame split so comes back from a
 * DPDK 22.11 reflector duplicated, reordered or mixed with others, with no
 * error (TESTBED.md): one buffer is memif's real limit.  As the client,
 * wirerate's own bsize= is it; as the server it cannot read the client's,
 * and takes its own bsize= as the user's word for it (doc/echo.md).
 * @return true, *bsize and *client for a memif port.
 */
static bool
memif_bsize(const struct rte_eth_dev_info *info, uint32_t *bsize,
	    bool *client)
{
	const struct rte_devargs *da;
	struct rte_kvargs *kv;
	const char *v;
	char *end;
	unsigned long n;

	if (strcmp(info->driver_name, "net_memif") != 0)
		return false;
	*bsize = WR_MEMIF_BSIZE_DEFAULT;
	*client = false; /* memif's default role is the server */
	da = info->device != NULL ? rte_dev_devargs(info->device) : NULL;
	if (da == NULL || da->args == NULL ||
	    (kv = rte_kvargs_parse(da->args, NULL)) == NULL)
		return true;
	v = rte_kvargs_get(kv, "role");
	*client = v != NULL && strcmp(v, "client") == 0;
	v = rte_kvargs_get(kv, "bsize");
	if (v != NULL) {
		n = strtoul(v, &end, 0);
		/* memif took the same string (strtoul too): a value it
		 * refused never probed the port. */
		if (end != v && n > 0 && n <= UINT16_MAX)
			*bsize = (uint32_t)n;
	}
	rte_kvargs_free(kv);
	return true;
}

/*
 * Plan the port for frames up to @p max_frame bytes (FCS included): the
 * MTU to configure (*mtu, 0: leave the PMD's) and the RX buffers' data
 * room (*room), or -EMSGSIZE when the device cannot take such frames.
 * Frames within the PMD's MTU (1500 unless a kernel interface says less)
 * change nothing: an ordinary run keeps the PMD's MTU and the 2 KB pool.
 */
static int
frame_plan(struct wr_port *p, const struct rte_eth_dev_info *info,
	   uint32_t max_frame, uint16_t *mtu, uint16_t *room,
	   struct wr_error *err)
{
	uint32_t len = max_frame - WR_FCS_LEN, bsize;
	uint16_t cur;
	bool client = false;
	char why[200];

	*mtu = 0;
	*room = RTE_MBUF_DEFAULT_DATAROOM;
	if (memif_bsize(info, &bsize, &client))
		p->buf_limit = bsize;
	/* The PMD's MTU before configure: 1500, or a kernel interface's. */
	if (rte_eth_dev_get_mtu(p->port_id, &cur) != 0)
		cur = RTE_ETHER_MTU;
	if (max_frame == 0 || (max_frame <= RTE_ETHER_MAX_LEN &&
			       max_frame - WR_ETH_OVERHEAD <= cur))
		return 0;
	if (p->buf_limit != 0) {
		if (wr_bench_frame_fits((uint16_t)max_frame, 0, 0,
					p->buf_limit, why, sizeof(why)) != 0)
			return wr_error_set(err, -EMSGSIZE, NULL, 0, 0, NULL,
				"port %s: %s (memif's buffers: the memif "
				"client's bsize=, %u here; memif splits a "
				"longer frame over several and its echoes come "
				"back corrupted): give %s bsize=%u or more%s; "
				"not sent", p->device, why, p->buf_limit,
				client ? "this port (the client)" :
				"the client", len, client ? "" :
				", and this port the same bsize=");
	} else if (wr_bench_frame_fits((uint16_t)max_frame,
				       info->max_mtu, info->max_rx_pktlen, 0,
				       why, sizeof(why)) != 0) {
		return wr_error_set(err, -EMSGSIZE, NULL, 0, 0, NULL,
				    "port %s (%s): %s, the most its driver "
				    "allows; not sent", p->device,
				    info->driver_name, why);
	} else if (max_frame - WR_ETH_OVERHEAD > cur) {
		*mtu = (uint16_t)(max_frame - WR_ETH_OVERHEAD);
	}
	/* One segment per frame: the RX path parses the first segment only
	 * and no PMD needs RX scatter for it; the pool grows only here. */
	if (len > RTE_MBUF_DEFAULT_DATAROOM)
		*room = (uint16_t)RTE_ALIGN_CEIL(len, WR_RX_ROOM_ALIGN);
	return 0;
}

int
wr_port_find(const char *device, uint16_t *port_id, struct wr_error *err)
{
	char names[512] = "", name[RTE_ETH_NAME_MAX_LEN];
	size_t used = 0;
	uint16_t pid;

	if (rte_eth_dev_get_port_by_name(device, port_id) == 0)
		return 0;
	RTE_ETH_FOREACH_DEV(pid) {
		if (rte_eth_dev_get_name_by_port(pid, name) != 0)
			continue;
		used += snprintf(names + used, sizeof(names) - used, "%s%s",
				 used ? ", " : "", name);
		if (used >= sizeof(names))
			break;
	}
	return wr_error_set(err, -ENODEV, NULL, 0, 0, NULL,
			    "port \"%s\" does not exist; EAL found: %s",
			    device, names[0] ? names : "no ports at all");
}

static int queues_setup(struct wr_port *p, struct wr_error *err);

/* What the configured port takes: memif one buffer, anything else its MTU
 * (frames of more are cut or dropped by a NIC or a kernel), the longest
 * frame it receives and one RX buffer. */
static uint32_t
frame_max(const struct wr_port *p, const struct rte_eth_dev_info *info,
	  uint16_t room)
{
	uint32_t max = (uint32_t)room + WR_FCS_LEN;
	uint16_t mtu;

	if (p->buf_limit != 0)
		return RTE_MIN(max, p->buf_limit + WR_FCS_LEN);
	if (rte_eth_dev_get_mtu(p->port_id, &mtu) == 0)
		max = RTE_MIN(max, (uint32_t)mtu + WR_ETH_OVERHEAD);
	/* (net_null and net_ring report UINT32_MAX: no limit.) */
	if (info->max_rx_pktlen != 0 &&
	    info->max_rx_pktlen < max - WR_FCS_LEN)
		max = info->max_rx_pktlen + WR_FCS_LEN;
	return max;
}

/*
 * RSS over what varies between a stream's frames: IPv4/IPv6 addresses and
 * TCP/UDP ports (the Toeplitz hash most NICs default to), as far as the
 * device hashes them.  A PMD that hashes nothing (memif, af_packet, net_ring)
 * gets no RSS request: its queues are filled by its peer or its own fanout.
 */
static uint64_t
rss_fields(const struct rte_eth_dev_info *info)
{
	return (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP) &
		info->flow_type_rss_offloads;
}

int
wr_port_setup(struct wr_port *p, uint16_t n_txq, uint16_t n_rxq,
	      uint16_t txd, uint16_t rxd, uint32_t max_frame,
	      struct wr_error *err)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	char pool_name[RTE_MEMPOOL_NAMESIZE];
	uint16_t mtu, room;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_info_get(p->port_id, &info);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "port %s: cannot read device info: %s",
				    p->device, rte_strerror(-rc));
	snprintf(p->driver, sizeof(p->driver), "%s", info.driver_name);
	p->socket_id = rte_eth_dev_socket_id(p->port_id);
	if (n_txq > info.max_tx_queues)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "port %s: %u TX lcores need %u TX queues, "
				    "the device has %u",
				    p->device, n_txq, n_txq, info.max_tx_queues);
	if (n_rxq > info.max_rx_queues)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "port %s: %u RX lcores need %u RX queues, "
				    "the device has %u",
				    p->device, n_rxq, n_rxq, info.max_rx_queues);
	/* A port that only receives, or only sends, still configures one
	 * queue of the other kind: several PMDs refuse zero. */
	p->n_txq = n_txq ? n_txq : 1;
	p->n_rxq = n_rxq ? n_rxq : 1;
	p->rss_hf = p->n_rxq > 1 ? rss_fields(&info) : 0;
	if (p->rss_hf != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = p->rss_hf;
	}
	p->txd = txd ? txd : WR_DESC_DEFAULT;
	p->rxd = rxd ? rxd : WR_DESC_DEFAULT;
	p->tx_offload_capa = info.tx_offload_capa;
	/* Checksum offloads do not depend on the streams (wr_offload.h):
	 * asked for whenever both are offered.  MBUF_FAST_FREE does, and is
	 * decided by wr_port_tx_plan(). */
	p->tx_offloads = 0;
	if ((info.tx_offload_capa & (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
				     RTE_ETH_TX_OFFLOAD_UDP_CKSUM)) ==
	    (RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM))
		p->tx_offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM |
			RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	/* TCP streams (issue 9) offload theirs where the port offers it too. */
	if (p->tx_offloads != 0 &&
	    (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_TCP_CKSUM))
		p->tx_offloads |= RTE_ETH_TX_OFFLOAD_TCP_CKSUM;
	p->tx_cksum = p->tx_offloads != 0;
	conf.txmode.offloads = p->tx_offloads;
	p->rx_offloads = 0;
	p->rx_hwts = false;
	if ((info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP) &&
	    rte_mbuf_dyn_rx_timestamp_register(&p->hwts_off,
					       &p->hwts_flag) == 0) {
		p->rx_offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
		p->rx_hwts = true;
	}
	conf.rxmode.offloads = p->rx_offloads;
	p->buf_limit = 0;
	rc = frame_plan(p, &info, max_frame, &mtu, &room, err);
	if (rc != 0)
		return rc;
	conf.rxmode.mtu = mtu;
	p->mtu_set = mtu;

	rc = rte_eth_dev_configure(p->port_id, p->n_rxq, p->n_txq, &conf);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "port %s: configure failed: %s", p->device,
				    rte_strerror(-rc));
	p->configured = true;
	/* rte_eth_dev_configure() records the MTU; a PMD with an MTU of its
	 * own (a kernel interface under net_tap or af_packet) applies it
	 * only here.  Those without (net_ring, net_null) say -ENOTSUP. */
	if (mtu != 0) {
		rc = rte_eth_dev_set_mtu(p->port_id, mtu);
		if (rc != 0 && rc != -ENOTSUP)
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "port %s: cannot set MTU %u for "
					    "%u-byte frames: %s; not sent",
					    p->device, mtu, max_frame,
					    rte_strerror(-rc));
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &p->rxd, &p->txd);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "port %s: descriptor counts: %s", p->device,
				    rte_strerror(-rc));
	rc = rte_eth_macaddr_get(p->port_id, &p->mac);
	if (rc != 0)
		memset(&p->mac, 0, sizeof(p->mac));
	p->frame_max = frame_max(p, &info, room);

	snprintf(pool_name, sizeof(pool_name), "wr_rx_p%u", p->port_id);
	p->rx_pool = rte_pktmbuf_pool_create(pool_name,
					     (unsigned int)p->n_rxq * p->rxd +
					     WR_RX_POOL_EXTRA + WR_PORT_RX_HOLD,
					     WR_RX_POOL_CACHE, 0,
					     RTE_PKTMBUF_HEADROOM + room,
					     p->socket_id);
	if (p->rx_pool == NULL)
		return wr_error_set(err, -rte_errno, NULL, 0, 0, NULL,
				    "port %s: no memory for the RX pool: %s "
				    "(are hugepages reserved?)",
				    p->device, rte_strerror(rte_errno));
	return queues_setup(p, err);
}

static int
queues_setup(struct wr_port *p, struct wr_error *err)
{
	uint16_t q;
	int rc;

	for (q = 0; q < p->n_rxq; q++) {
		rc = rte_eth_rx_queue_setup(p->port_id, q, p->rxd,
					    p->socket_id, NULL, p->rx_pool);
		if (rc != 0)
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "port %s: RX queue %u setup: %s",
					    p->device, q, rte_strerror(-rc));
	}
	for (q = 0; q < p->n_txq; q++) {
		rc = rte_eth_tx_queue_setup(p->port_id, q, p->txd,
					    p->socket_id, NULL);
		if (rc != 0)
			return wr_error_set(err, rc, NULL, 0, 0, NULL,
					    "port %s: TX queue %u setup: %s",
					    p->device, q, rte_strerror(-rc));
	}
	return 0;
}

static void drop_xstats_init(struct wr_port *p);

int
wr_port_clock_pair(const struct wr_port *p, uint64_t *tsc, uint64_t *dev)
{
	uint64_t t0, t1;
	int rc;

	t0 = rte_rdtsc();
	rc = rte_eth_read_clock(p->port_id, dev);
	t1 = rte_rdtsc();
	if (rc != 0)
		return rc;
	*tsc = t0 + (t1 - t0) / 2;
	return 0;
}

int
wr_port_start(struct wr_port *p, struct wr_error *err)
{
	int rc = rte_eth_dev_start(p->port_id);

	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "port %s: start failed: %s", p->device,
				    rte_strerror(-rc));
	p->started = true;
	rte_eth_stats_reset(p->port_id);
	memset(&p->base, 0, sizeof(p->base));
	/* Some PMDs cannot reset their counters: keep a baseline instead. */
	rte_eth_stats_get(p->port_id, &p->base);
	drop_xstats_init(p);
	return 0;
}

/* Find the port's TX-drop extended counters and take their baselines. */
static void
drop_xstats_init(struct wr_port *p)
{
	struct rte_eth_xstat_name *names;
	int n, i;

	p->n_drop_xstats = 0;
	n = rte_eth_xstats_get_names(p->port_id, NULL, 0);
	if (n <= 0)
		return;
	names = calloc((size_t)n, sizeof(*names));
	if (names == NULL)
		return;
	if (rte_eth_xstats_get_names(p->port_id, names, (unsigned int)n) == n)
		for (i = 0; i < n && p->n_drop_xstats < WR_PORT_DROP_XSTATS_MAX;
		     i++)
			if (wr_xstat_is_tx_drop(names[i].name))
				p->drop_xstat_id[p->n_drop_xstats++] =
					(uint64_t)i;
	free(names);
	if (p->n_drop_xstats > 0 &&
	    rte_eth_xstats_get_by_id(p->port_id, p->drop_xstat_id,
				     p->drop_xstat_base,
				     p->n_drop_xstats) != (int)p->n_drop_xstats)
		p->n_drop_xstats = 0;
}

unsigned int
wr_port_drop_xstats(const struct wr_port *p, struct wr_port_xstat *out,
		    unsigned int max)
{
	struct rte_eth_xstat_name names[WR_PORT_DROP_XSTATS_MAX];
	uint64_t v[WR_PORT_DROP_XSTATS_MAX];
	unsigned int i, n = 0;

	if (p->n_drop_xstats == 0 ||
	    rte_eth_xstats_get_by_id(p->port_id, p->drop_xstat_id, v,
				     p->n_drop_xstats) != (int)p->n_drop_xstats ||
	    rte_eth_xstats_get_names_by_id(p->port_id, names,
					   p->n_drop_xstats,
					   (uint64_t *)p->drop_xstat_id) !=
	    (int)p->n_drop_xstats)
		return 0;
	for (i = 0; i < p->n_drop_xstats && n < max; i++) {
		if (v[i] == p->drop_xstat_base[i])
			continue;
		/* Both RTE_ETH_XSTATS_NAME_SIZE: copied whole (a "%s" into
		 * it makes fortified builds warn of a truncation). */
		memcpy(out[n].name, names[i].name, sizeof(out[n].name));
		out[n].name[sizeof(out[n].name) - 1] = '\0';
		out[n].value = v[i] - p->drop_xstat_base[i];
		n++;
	}
	return n;
}

/*
 * Configure the stopped-then-started port again with TX offloads
 * @p offloads and @p n_txq TX queues, its queues set up again (a TX queue
 * inherits offloads from rte_eth_conf), started, the link waited for.
 */
static int
reconfigure(struct wr_port *p, uint64_t offloads, uint16_t n_txq,
	    uint32_t link_wait_ms, struct wr_error *err)
{
	struct rte_eth_conf conf;
	int rc;

	if (p->started) {
		rte_eth_dev_stop(p->port_id);
		p->started = false;
	}
	memset(&conf, 0, sizeof(conf));
	conf.txmode.offloads = offloads;
	conf.rxmode.offloads = p->rx_offloads;
	conf.rxmode.mtu = p->mtu_set;
	if (p->rss_hf != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = p->rss_hf;
	}
	rc = rte_eth_dev_configure(p->port_id, p->n_rxq, n_txq, &conf);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "port %s: reconfigure for TX: %s",
				    p->device, rte_strerror(-rc));
	p->tx_offloads = offloads;
	p->n_txq = n_txq;
	rc = queues_setup(p, err);
	if (rc == 0)
		rc = wr_port_start(p, err);
	if (rc == 0 && wr_port_wait_link(p, link_wait_ms) != 0)
		rc = wr_error_set(err, -ETIMEDOUT, NULL, 0, 0, NULL,
				  "port %s: link still down after %u ms "
				  "(link_wait_ms)", p->device, link_wait_ms);
	return rc;
}

int
wr_port_tx_plan(struct wr_port *p, unsigned int n_streams, bool responder,
		uint32_t link_wait_ms, struct wr_error *err)
{
	struct wr_offload_caps caps = {
		.ipv4_cksum = p->tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM,
		.udp_cksum = p->tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM,
		.fast_free = p->tx_offload_capa &
			RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE,
	};
	struct wr_offload_use use = wr_offload_choose(&caps, n_streams,
						      responder);
	uint64_t want = p->tx_offloads & ~RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;

	if (use.fast_free)
		want |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (want == p->tx_offloads)
		return 0;
	/* Only a NIC offering MBUF_FAST_FREE gets here: the virtual
	 * devices do not. */
	return reconfigure(p, want, p->n_txq, link_wait_ms, err);
}

int
wr_port_txq_reserve(struct wr_port *p, uint16_t n_used,
		    uint32_t link_wait_ms, struct wr_error *err)
{
	struct rte_eth_dev_info info;
	int rc;

	if (p->n_txq > n_used)
		return 0;
	rc = rte_eth_dev_info_get(p->port_id, &info);
	if (rc != 0)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "port %s: cannot read device info: %s",
				    p->device, rte_strerror(-rc));
	if (info.max_tx_queues <= n_used)
		return 1;
	/* A memif's queue count is part of its connection: the 22.11
	 * client does not connect again after its peer saw it change, and
	 * the link stays down ("link still down after 5000 ms", two
	 * wirerate instances over memif with hosts).  No spare queue there,
	 * as on af_packet: the RX lcore sends the hosts' frames. */
	if (strcmp(info.driver_name, "net_memif") == 0)
		return 1;
	return reconfigure(p, p->tx_offloads, (uint16_t)(n_used + 1),
			   link_wait_ms, err);
}

int
wr_port_describe(uint16_t port_id, struct wr_port_info *o)
{
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	struct rte_ether_addr mac;
	int rc;

	memset(o, 0, sizeof(*o));
	if (!rte_eth_dev_is_valid_port(port_id))
		return -ENODEV;
	rc = rte_eth_dev_info_get(port_id, &info);
	if (rc != 0)
		return rc;
	o->port_id = port_id;
	rte_eth_dev_get_name_by_port(port_id, o->name);
	snprintf(o->driver, sizeof(o->driver), "%s", info.driver_name);
	if (rte_eth_macaddr_get(port_id, &mac) == 0)
		memcpy(o->mac, mac.addr_bytes, 6);
	o->socket_id = rte_eth_dev_socket_id(port_id);
	memset(&link, 0, sizeof(link));
	if (rte_eth_link_get_nowait(port_id, &link) == 0) {
		o->link_up = link.link_status == RTE_ETH_LINK_UP;
		o->link_speed_mbps =
			link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ?
			0 : link.link_speed;
	}
	o->max_rx_queues = info.max_rx_queues;
	o->max_tx_queues = info.max_tx_queues;
	o->rx_queues = info.nb_rx_queues;
	o->tx_queues = info.nb_tx_queues;
	o->tx_ipv4_cksum = info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM;
	o->tx_udp_cksum = info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	o->tx_fast_free = info.tx_offload_capa &
		RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	o->tx_multi_seg = info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	o->rx_timestamp = info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	if (rte_eth_dev_get_mtu(port_id, &o->mtu) != 0)
		o->mtu = 0;
	o->max_mtu = info.max_mtu;
	o->max_rx_pktlen = info.max_rx_pktlen;
	return 0;
}

int
wr_port_wait_link(struct wr_port *p, uint32_t timeout_ms)
{
	struct rte_eth_link link;
	uint32_t waited = 0;

	for (;;) {
		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(p->port_id, &link) == 0 &&
		    link.link_status == RTE_ETH_LINK_UP) {
			p->link_up = true;
			p->link_speed_mbps =
				link.link_speed == RTE_ETH_SPEED_NUM_UNKNOWN ?
					0 : link.link_speed;
			return 0;
		}
		if (waited >= timeout_ms)
			return -ETIMEDOUT;
		rte_delay_us_sleep(10 * 1000);
		waited += 10;
	}
}

int
wr_port_stats(const struct wr_port *p, struct rte_eth_stats *st)
{
	int rc = rte_eth_stats_get(p->port_id, st);

	if (rc != 0)
		return rc;
	st->opackets -= p->base.opackets;
	st->obytes -= p->base.obytes;
	st->oerrors -= p->base.oerrors;
	st->ipackets -= p->base.ipackets;
	st->ibytes -= p->base.ibytes;
	st->imissed -= p->base.imissed;
	st->ierrors -= p->base.ierrors;
	st->rx_nombuf -= p->base.rx_nombuf;
	return 0;
}

void
wr_port_drain(struct wr_port *p, uint32_t timeout_ms)
{
	struct rte_eth_stats st;
	uint64_t last = UINT64_MAX;
	uint32_t waited = 0, still = 0;

	/* Two readings 1 ms apart with no change: the ring is empty (or the
	 * PMD counts at tx_burst time, as virtual devices do). */
	while (waited < timeout_ms && still < 2) {
		if (rte_eth_stats_get(p->port_id, &st) != 0)
			return;
		still = st.opackets == last ? still + 1 : 0;
		last = st.opackets;
		rte_delay_us_sleep(1000);
		waited++;
	}
}

struct tx_files {
	const char *path[RTE_ETHDEV_QUEUE_STAT_CNTRS];
	unsigned int n;
};

static int
tx_file_of(const char *key __rte_unused, const char *value, void *arg)
{
	struct tx_files *f = arg;

	if (f->n < RTE_DIM(f->path))
		f->path[f->n++] = value;
	return 0;
}

int
wr_port_tx_files_check(const struct wr_port *p, struct wr_error *err)
{
	struct rte_eth_dev_info info;
	const struct rte_devargs *da;
	struct rte_kvargs *kv = NULL;
	struct rte_eth_stats st;
	struct tx_files f = { .n = 0 };
	unsigned int q;
	int rc = 0;

	if (rte_eth_dev_info_get(p->port_id, &info) != 0 ||
	    info.driver_name == NULL || strcmp(info.driver_name, "net_pcap") != 0 ||
	    (da = rte_dev_devargs(info.device)) == NULL || da->args == NULL ||
	    rte_eth_stats_get(p->port_id, &st) != 0)
		return 0;
	/* net_pcap's own parse: its queues take the tx_pcap= files in
	 * this order. */
	kv = rte_kvargs_parse(da->args, NULL);
	if (kv == NULL)
		return 0;
	rte_kvargs_process(kv, "tx_pcap", tx_file_of, &f);
	for (q = 0; q < f.n && q < info.nb_tx_queues && rc == 0; q++) {
		uint64_t want = st.q_opackets[q] == 0 ? 0 :
				24 + 16 * st.q_opackets[q] + st.q_obytes[q];
		struct stat sb;

		if (stat(f.path[q], &sb) != 0)
			rc = wr_error_set(err, -EIO, NULL, 0, 0, NULL, "net_pcap's "
					  "tx_pcap %s: %s after %" PRIu64
					  " frames were sent to it", f.path[q],
					  strerror(errno), st.q_opackets[q]);
		else if ((uint64_t)sb.st_size != want &&
			 !(want == 0 && sb.st_size == 24)) {
			/* No output is left cut short: the file is this run's
			 * (checked before EAL to be a regular file or a new one,
			 * and net_pcap truncated it at its start). */
			bool gone = S_ISREG(sb.st_mode) && unlink(f.path[q]) == 0;

			rc = wr_error_set(err, -EIO, NULL, 0, 0, NULL, "net_pcap's "
					  "tx_pcap %s: held %" PRIu64 " bytes "
					  "where the %" PRIu64 " frames sent to it "
					  "make %" PRIu64 " (a full disk?): not "
					  "every frame was written%s", f.path[q],
					  (uint64_t)sb.st_size,
					  st.q_opackets[q], want, gone ?
					  "; the file is removed" : "");
		}
	}
	rte_kvargs_free(kv);
	return rc;
}

void
wr_port_close(struct wr_port *p)
{
	/* EAL's interrupt thread settled around each step: why in
	 * wr_port_close_all(). */
	if (p->started) {
		wr_port_intr_settle();
		rte_eth_dev_stop(p->port_id);
		p->started = false;
		wr_port_intr_settle();
	}
	if (p->configured) {
		rte_eth_dev_close(p->port_id);
		p->configured = false;
		wr_port_intr_settle();
	}
	if (p->rx_pool != NULL) {
		rte_mempool_free(p->rx_pool);
		p->rx_pool = NULL;
	}
}

/* How long wr_port_intr_settle() waits for EAL's interrupt thread: it
 * handles an event in microseconds; a second covers a thread the kernel
 * scheduled out on a CPU a busy lcore holds. */
#define WR_INTR_SETTLE_NS (1000 * 1000 * 1000ull)

static void
intr_reached(void *arg)
{
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
}

void
wr_port_intr_settle(void)
{
	unsigned int round;
	uint64_t end;
	int done;

	/* EAL runs alarms in its interrupt thread, one callback at a time,
	 * in the order their descriptors became ready: an alarm set now runs
	 * after the events already pending (a memif peer's disconnect, the
	 * pending unregistration that frees its control channel).  Two
	 * rounds: what the first handled may have queued another. */
	for (round = 0; round < 2; round++) {
		done = 0;
		if (rte_eal_alarm_set(1, intr_reached, &done) != 0)
			return;
		end = rte_get_timer_cycles() + rte_get_timer_hz() *
			(WR_INTR_SETTLE_NS / 1000000000ull);
		while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
			if (rte_get_timer_cycles() > end) {
				/* Waits for it if it has just started. */
				rte_eal_alarm_cancel(intr_reached, &done);
				return;
			}
			rte_delay_us_sleep(20);
		}
	}
}

void
wr_port_close_all(struct wr_port *ports, unsigned int n)
{
	unsigned int i;

	/* One port at a time, the interrupt thread settled after each: a
	 * memif port stopped or closed disconnects its peer, and when the
	 * peer is another port of this process (config/2ports.yaml) the
	 * interrupt thread disconnects that one and frees its control
	 * channel.  Done while this thread stops or closes the same port,
	 * or after rte_eal_cleanup() freed the heap, that was "EAL: Error:
	 * Invalid memory" in 21 of 60 runs and a SIGSEGV in exit() now and
	 * then.  And first of all: a run that ended on a lost link may find
	 * the thread still inside the driver's disconnect of that port (its
	 * munmap() told the run, wr_engine_ports.c), which a stop now would
	 * run a second time beside it ("Invalid memory" in 8 of 12 peer
	 * kills, a SIGSEGV in one).  No port set up, nothing to settle: EAL
	 * may not even be up (an option it refused), and its alarm then
	 * prints a line of its own beside ours. */
	for (i = 0; i < n && !ports[i].started && !ports[i].configured; i++)
		;
	if (i == n) {
		for (i = 0; i < n; i++)
			wr_port_close(&ports[i]);
		return;
	}
	wr_port_intr_settle();
	for (i = 0; i < n; i++)
		if (ports[i].started) {
			rte_eth_dev_stop(ports[i].port_id);
			ports[i].started = false;
			wr_port_intr_settle();
		}
	for (i = 0; i < n; i++) {
		if (ports[i].configured) {
			rte_eth_dev_close(ports[i].port_id);
			ports[i].configured = false;
			wr_port_intr_settle();
		}
		wr_port_close(&ports[i]);
	}
}

/* EAL's argv: the program name, the log level, the profile's arguments,
 * the user's. */
#define WR_PORT_LIST_ARGS (WR_EAL_ARGS_MAX * 2 + 8)

int
wr_port_list(const struct wr_config *cfg, char **user, int n_user,
	     const char *const *names, unsigned int n_names,
	     struct wr_port_info **out, unsigned int *n_out,
	     struct wr_error *err)
{
	struct wr_port_info *pi;
	struct wr_eal *eal = calloc(1, sizeof(*eal));
	unsigned int k, n = 0;
	int rc = 0;
	uint16_t pid;

	*out = NULL;
	*n_out = 0;
	if (eal == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "out of memory");
	/* The same start as a run's, on the same arguments. */
	rc = wr_eal_start(eal, cfg, NULL, user, n_user, err);
	wr_eal_log_pass(eal, rc == 0);
	if (rc != 0) {
		if (eal->up)
			wr_eal_cleanup();
		free(eal);
		return rc;
	}
	free(eal);
	pi = calloc(RTE_MAX_ETHPORTS, sizeof(*pi));
	if (pi == NULL) {
		rc = wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				  "out of memory");
		goto out;
	}
	if (n_names > 0) {
		for (k = 0; k < n_names; k++) {
			rc = wr_port_find(names[k], &pid, err);
			if (rc != 0)
				goto out;
			if (n < RTE_MAX_ETHPORTS &&
			    wr_port_describe(pid, &pi[n]) == 0)
				n++;
		}
	} else {
		RTE_ETH_FOREACH_DEV(pid)
			if (wr_port_describe(pid, &pi[n]) == 0)
				n++;
	}
out:
	/* EAL's start was the calibration's interval (wr_clock_eal.h). */
	wr_tsc_calibrate();
	RTE_ETH_FOREACH_DEV(pid) {
		rte_eth_dev_close(pid);
		wr_port_intr_settle();
	}
	wr_eal_cleanup();
	if (rc != 0) {
		free(pi);
		return rc;
	}
	*out = pi;
	*n_out = n;
	return 0;
}

int
wr_port_memif_decoy(const struct wr_port *p, char *path, size_t len)
{
	const struct rte_devargs *da;
	struct rte_eth_dev_info info;
	struct sockaddr_un a;
	struct rte_kvargs *kv;
	const char *v;
	bool server = true, abstract = true;
	size_t n;
	int fd;

	path[0] = '\0';
	if (rte_eth_dev_info_get(p->port_id, &info) != 0 ||
	    info.driver_name == NULL ||
	    strcmp(info.driver_name, "net_memif") != 0 ||
	    info.device == NULL)
		return -1;
	da = rte_dev_devargs(info.device);
	kv = da != NULL && da->args != NULL ? rte_kvargs_parse(da->args, NULL) :
		NULL;
	if (kv == NULL)
		return -1;
	/* memif's defaults: the server role, an abstract socket. */
	v = rte_kvargs_get(kv, "role");
	server = v == NULL || strcmp(v, "server") == 0;
	v = rte_kvargs_get(kv, "socket-abstract");
	abstract = v == NULL || strcmp(v, "yes") == 0;
	v = rte_kvargs_get(kv, "socket");
	if (v != NULL)
		snprintf(path, len, "%s", v);
	rte_kvargs_free(kv);
	n = strlen(path);
	if (!server || abstract || n == 0 || n + 1 >= sizeof(a.sun_path))
		return -1;
	/* The abstract name a peer that keeps DPDK's default connects to:
	 * a NUL, then the path. */
	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	memcpy(a.sun_path + 1, path, n);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&a,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) != 0 ||
	    listen(fd, 4) != 0) {
		/* Taken (someone's abstract memif socket): nothing to see. */
		close(fd);
		return -1;
	}
	return fd;
}

bool
wr_port_memif_decoy_hit(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	bool mine;
	int c;

	if (fd < 0)
		return false;
	/* Anyone may connect to an abstract name: only a peer of this
	 * user (or root) is taken for the one that was meant, so another
	 * user cannot end the run by connecting.  Nothing is sent to any. */
	while ((c = accept4(fd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
		mine = getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 &&
		       (cr.uid == getuid() || cr.uid == 0);
		close(c);
		if (mine)
			return true;
		len = sizeof(cr);
	}
	return false;
}

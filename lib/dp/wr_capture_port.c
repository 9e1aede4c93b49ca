/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_capture_port: capture sessions: copies on the lcores, a writer thread, pcapng files. */
/* rte_pcapng is experimental in DPDK 22.11 (and what dpdk-dumpcap uses). */
#define ALLOW_EXPERIMENTAL_API

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>
#include <rte_pcapng.h>
#include <rte_ring.h>
#include <rte_version.h>

#include "wr_bpf.h"
#include "wr_capture_port.h"
#include "wr_config.h"
#include "wr_frame.h"
#include "wr_out.h"
#include "wr_sig.h"

/* The ring between the lcores and the writer, and the copies in flight:
 * 8192 frames are 0.5 ms at 14.88 Mpps (10GbE at 64 B), enough to ride
 * out a writer's scheduling hiccup; beyond, frames are "capture dropped". */
#define WR_CAP_RING 8192
/* Copies' memory at most: a jumbo snap length gets fewer of them. */
#define WR_CAP_POOL_BYTES (64u << 20)
#define WR_CAP_POOL_CACHE 256
/* Frames the writer takes at once (one writev). */
#define WR_CAP_WRITE_BURST 64
/* How long the writer sleeps on an empty ring: short against the ring's
 * 0.5 ms at line rate, long enough not to busy a CPU. */
#define WR_CAP_IDLE_NS (100 * 1000)
/* Frames one TX queue may hold (sent, not yet freed by the PMD): a NIC's
 * ring of 4096 and a burst or two pending. */
#define WR_CAP_TX_HELD 8192
/* Stream name comments: names up to this long. */
#define WR_CAP_NAME_MAX 64
/* Blocks written at the start or end of a file. */
#define WR_CAP_BLOCK_MAX 4096

/* The mark of a frame a TX callback copied and holds (the capture's
 * session number), in an mbuf dynamic field; 0: none. */
static int wr_cap_mark_off = -1;
static uint32_t wr_cap_sessions;

struct wr_cap_txq {
	struct wr_cap *c;
	uint16_t queue;
	const struct rte_eth_rxtx_callback *cb;
	/* FIFO of frames held: the frame and its copy (NULL: not kept). */
	struct rte_mbuf **held;
	struct rte_mbuf **copy;
	uint32_t head, n;
	uint64_t seen, drop;        /* one writer: this queue's lcore */
} __rte_cache_aligned;

struct wr_cap_rxq_count {
	uint64_t seen, drop;        /* one writer: the queue's lcore */
} __rte_cache_aligned;

/* A received frame the RX lcore holds for the writer (one more reference
 * on each of its segments), which copies it into a block and lets go. */
struct wr_cap_hold {
	struct rte_mbuf *m;
	uint64_t tsc;               /* its receive time */
	uint32_t queue;
	uint32_t pad;
};

struct wr_cap {
	struct wr_cap_cfg cfg;
	char file[WR_CAP_PATH_MAX];
	struct wr_bpf filter;
	bool has_filter;
	uint32_t snaplen;
	uint32_t mark;
	struct rte_mempool *mp;
	struct rte_ring *ring;      /* blocks (TX copies) */
	struct rte_ring *hold;      /* received frames held (wr_cap_hold) */
	uint64_t copy_drop;         /* the writer's: the copies' pool empty */
	char (*names)[WR_CAP_NAME_MAX];
	/* Published to the lcores: stop copying (a limit, an error, close). */
	uint32_t stop_copy;
	struct wr_cap_rxq_count rxc[WR_PORT_LCORES_MAX];
	struct wr_cap_txq txq[WR_PORT_LCORES_MAX];
	bool tx_attached;
	/* The writer's side. */
	pthread_t writer;
	bool writer_up;
	uint32_t closing;           /* main: empty the ring and end */
	struct wr_out_tmp out;
	rte_pcapng_t *pc;
	uint32_t file_k;            /* the ring's next file */
	char cur[WR_CAP_PATH_MAX];  /* being written */
	uint64_t file_frames, file_bytes, file_start_tsc;
	uint64_t file_seen0, file_drop0;
	uint64_t start_ns;
	/* Wall time and TSC read together at open: TSC -> ns since the epoch. */
	uint64_t wall0_ns, tsc0;
	/* Status, written by the writer, read by anyone. */
	uint64_t written, bytes, over_limit;
	uint32_t files;
	uint32_t full;
	int error;
	char last[WR_CAP_PATH_MAX];
	uint16_t max_port_id;
};

static uint64_t
tsc_to_ns(const struct wr_cap *c, uint64_t tsc)
{
	int64_t d = (int64_t)(tsc - c->tsc0);
	__int128 ns = (__int128)d * 1000000000 / (__int128)c->cfg.tsc_hz;

	return (uint64_t)((__int128)c->wall0_ns + ns);
}

/* Frames the capture saw (or, @p drops, dropped) on all its queues. */
static uint64_t
sum_queues(const struct wr_cap *c, bool drops)
{
	uint64_t n = 0;
	unsigned int q;

	if (drops)
		n += __atomic_load_n(&c->copy_drop, __ATOMIC_RELAXED);
	for (q = 0; q < WR_PORT_LCORES_MAX; q++)
		n += drops ?
		     __atomic_load_n(&c->rxc[q].drop, __ATOMIC_RELAXED) +
		     __atomic_load_n(&c->txq[q].drop, __ATOMIC_RELAXED) :
		     __atomic_load_n(&c->rxc[q].seen, __ATOMIC_RELAXED) +
		     __atomic_load_n(&c->txq[q].seen, __ATOMIC_RELAXED);
	return n;
}

static void
count(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* write() all of it. */
static int
write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The section header and one interface per DPDK port (port-id order, the
 * interface id rte_pcapng_copy() writes). */
static int
file_header(struct wr_cap *c)
{
	uint8_t buf[WR_CAP_BLOCK_MAX];
	char desc[256], name[RTE_ETH_NAME_MAX_LEN], hw[128], comment[WR_CAP_PATH_MAX + 160];
	struct utsname u;
	size_t len;
	uint16_t pid;
	int rc;

	if (uname(&u) != 0)
		snprintf(u.sysname, sizeof(u.sysname), "Linux");
	snprintf(hw, sizeof(hw), "%s", u.machine);
	snprintf(comment, sizeof(comment), "wirerate capture of port %u (%s), "
		 "%s%s%s", c->cfg.port_index,
		 c->cfg.dir == WR_CAP_RX ? "received" :
		 c->cfg.dir == WR_CAP_TX ? "sent" : "received and sent",
		 c->has_filter ? "filter: " : "every frame",
		 c->has_filter ? c->cfg.filter->expr : "", "");
	{
		char os[sizeof(u.sysname) + sizeof(u.release) + 2];
		char app[128];

		snprintf(os, sizeof(os), "%s %s", u.sysname, u.release);
		snprintf(app, sizeof(app), "wirerate %s (%s)", WR_VERSION,
			 rte_version());
		len = wr_pcapng_shb(buf, sizeof(buf), hw, os, app, comment);
	}
	if (len == 0)
		return -ENOBUFS;
	rc = write_all(c->out.fd, buf, len);
	c->file_bytes = len;
	/* Interface k is port id k (what rte_pcapng_copy() writes): every
	 * id up to the highest in use, a gap named as such. */
	for (pid = 0; rc == 0 && pid <= c->max_port_id; pid++) {
		if (rte_eth_dev_get_name_by_port(pid, name) != 0)
			snprintf(name, sizeof(name), "dpdk:%u (no port)", pid);
		if (pid == c->cfg.port_id)
			snprintf(desc, sizeof(desc), "wirerate port %u, DPDK "
				 "port %u", c->cfg.port_index, pid);
		else
			snprintf(desc, sizeof(desc), "DPDK port %u", pid);
		len = wr_pcapng_idb(buf, sizeof(buf), name, desc,
				    c->cfg.lim.snaplen);
		if (len == 0)
			return -ENOBUFS;
		rc = write_all(c->out.fd, buf, len);
		c->file_bytes += len;
	}
	return rc;
}

/* A new file: temporary beside its name, the header, and rte_pcapng's
 * handle writing into it (see below). */
static int
file_open(struct wr_cap *c)
{
	int null_fd, rc;

	rc = wr_cap_file_name(c->file, c->file_k, c->cfg.lim.files, c->cur,
			      sizeof(c->cur));
	if (rc == 0)
		rc = wr_out_tmp_open(&c->out, c->cur);
	if (rc != 0)
		return rc;
	rc = file_header(c);
	if (rc != 0) {
		wr_out_tmp_abort(&c->out);
		return rc;
	}
	/*
	 * rte_pcapng_fdopen() writes DPDK's own section and interface blocks
	 * first (interfaces named "dpdk:N", which is what wirerate's replace):
	 * it is given /dev/null, and the descriptor it keeps is then made
	 * the file's.  From there on rte_pcapng_write_packets() appends the
	 * frames' blocks to the file.
	 */
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0) {
		rc = -errno;
		wr_out_tmp_abort(&c->out);
		return rc;
	}
	c->pc = rte_pcapng_fdopen(null_fd, NULL, NULL, NULL, NULL);
	if (c->pc == NULL) {
		close(null_fd);
		wr_out_tmp_abort(&c->out);
		return -ENOMEM;
	}
	if (dup2(c->out.fd, null_fd) < 0) {
		rc = -errno;
		rte_pcapng_close(c->pc);
		c->pc = NULL;
		wr_out_tmp_abort(&c->out);
		return rc;
	}
	__atomic_store_n(&c->bytes, c->bytes + c->file_bytes,
			 __ATOMIC_RELAXED);
	c->file_frames = 0;
	c->file_start_tsc = rte_rdtsc();
	c->file_seen0 = sum_queues(c, false);
	c->file_drop0 = sum_queues(c, true);
	return 0;
}

/* The statistics block, then the file under its name. */
static int
file_close(struct wr_cap *c)
{
	uint8_t buf[WR_CAP_BLOCK_MAX];
	char comment[256];
	uint64_t seen = sum_queues(c, false) - c->file_seen0;
	uint64_t drop = sum_queues(c, true) - c->file_drop0;
	uint64_t now = tsc_to_ns(c, rte_rdtsc());
	size_t len;
	int rc;

	if (drop > 0)
		snprintf(comment, sizeof(comment), "capture dropped %llu "
			 "frames: the capture could not keep up (its ring or "
			 "memory was full); wirerate's RX counters count "
			 "them all", (unsigned long long)drop);
	else
		snprintf(comment, sizeof(comment), "capture dropped 0 frames");
	len = wr_pcapng_isb(buf, sizeof(buf), c->cfg.port_id, now,
			    tsc_to_ns(c, c->file_start_tsc), now, seen, drop,
			    comment);
	rc = len == 0 ? -ENOBUFS : write_all(c->out.fd, buf, len);
	/* Closes the duplicate descriptor; the file's own stays open. */
	rte_pcapng_close(c->pc);
	c->pc = NULL;
	if (rc != 0) {
		wr_out_tmp_abort(&c->out);
		return rc;
	}
	c->file_bytes += len;
	rc = wr_out_tmp_commit(&c->out);
	if (rc == 0) {
		__atomic_store_n(&c->files, c->files + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&c->bytes, c->bytes + len, __ATOMIC_RELAXED);
		snprintf(c->last, sizeof(c->last), "%s", c->cur);
	}
	return rc;
}

/* A write error (or a full disk): the file being written goes, the
 * capture ends with the error. */
static void
fail(struct wr_cap *c, int rc)
{
	if (c->pc != NULL) {
		rte_pcapng_close(c->pc);
		c->pc = NULL;
	}
	wr_out_tmp_abort(&c->out);
	__atomic_store_n(&c->error, rc, __ATOMIC_RELAXED);
	__atomic_store_n(&c->stop_copy, 1, __ATOMIC_RELEASE);
}

/* A limit of this file reached: the next file of the ring, or the end. */
static void
limit_reached(struct wr_cap *c)
{
	int rc = file_close(c);

	if (rc != 0) {
		fail(c, rc);
		return;
	}
	if (c->cfg.lim.files > 1) {
		c->file_k = (c->file_k + 1) % c->cfg.lim.files;
		rc = file_open(c);
		if (rc != 0)
			fail(c, rc);
		return;
	}
	__atomic_store_n(&c->full, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&c->stop_copy, 1, __ATOMIC_RELEASE);
}

static bool
file_open_now(const struct wr_cap *c)
{
	return c->pc != NULL;
}

/* Whether the file has room for a block of @p len bytes more (and the
 * final statistics block). */
static bool
fits(const struct wr_cap *c, uint32_t len)
{
	const struct wr_cap_limits *l = &c->cfg.lim;

	/* A file holds one frame at least, whatever its limit. */
	return c->file_frames == 0 ||
	       ((l->frames == 0 || c->file_frames < l->frames) &&
		(l->bytes == 0 || c->file_bytes + len + 512 <= l->bytes));
}

/* Times, interface and comment of one block before it is written. */
static void
finish_block(struct wr_cap *c, struct rte_mbuf *m)
{
	uint8_t *epb = rte_pktmbuf_mtod(m, uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m), caplen, n;
	const uint8_t *frame;
	struct wr_sig sig;
	char comment[WR_PCAPNG_COMMENT_ROOM];
	int off;

	if (m->nb_segs != 1 || wr_pcapng_epb_set_ts(epb, len,
			tsc_to_ns(c, wr_pcapng_epb_ts(epb))) != 0)
		return;
	/* A frame carrying a signature names its stream (found where the
	 * receive path finds it). */
	if (wr_pcapng_epb_frame(epb, len, &frame, &caplen) != 0 ||
	    (off = wr_frame_sig_offset(frame, caplen, &c->cfg.hints)) < 0 ||
	    wr_sig_decode_any(frame + off, caplen - (uint32_t)off, &sig) < 0)
		return;
	if (WR_SIG_STREAM(sig.stream_id) >= c->cfg.n_streams)
		return;
	snprintf(comment, sizeof(comment), "stream %s lane %u seq %llu",
		 c->names[WR_SIG_STREAM(sig.stream_id)],
		 WR_SIG_LANE(sig.stream_id), (unsigned long long)sig.seq);
	n = wr_pcapng_epb_comment(epb, len, len + rte_pktmbuf_tailroom(m),
				  comment);
	if (n > len && rte_pktmbuf_append(m, (uint16_t)(n - len)) == NULL)
		return;
}

/* Copy @p m as a block (its TSC in the timestamp field, the writer turns
 * it into ns); NULL when the pool is empty. */
static inline struct rte_mbuf *
copy_one(struct wr_cap *c, uint16_t queue, struct rte_mbuf *m, uint64_t tsc,
	 enum rte_pcapng_direction dir)
{
	struct rte_mbuf *mc = rte_pcapng_copy(c->cfg.port_id, queue, m, c->mp,
					      c->snaplen, 0, dir);
	uint8_t *epb;

	if (mc == NULL)
		return NULL;
	epb = rte_pktmbuf_mtod(mc, uint8_t *);
	/* The block's timestamp words, high first (its layout is fixed by
	 * the format); wr_pcapng_epb_set_ts() checks them in the writer. */
	memcpy(epb + 12, &(uint32_t){ (uint32_t)(tsc >> 32) }, 4);
	memcpy(epb + 16, &(uint32_t){ (uint32_t)tsc }, 4);
	return mc;
}

/* The received frames held for the capture, copied into blocks here (off
 * the RX lcore) and let go; @return how many were taken. */
static unsigned int
copy_held(struct wr_cap *c, struct rte_mbuf **m, unsigned int max,
	  unsigned int *n)
{
	struct wr_cap_hold h[WR_CAP_WRITE_BURST];
	unsigned int i, k;

	if (c->hold == NULL)
		return 0; /* a TX capture */
	k = rte_ring_sc_dequeue_burst_elem(c->hold, h, sizeof(h[0]), max,
					   NULL);
	for (i = 0; i < k; i++) {
		struct rte_mbuf *mc = copy_one(c, (uint16_t)h[i].queue, h[i].m,
					       h[i].tsc,
					       RTE_PCAPNG_DIRECTION_IN);

		rte_pktmbuf_free(h[i].m);
		if (mc != NULL)
			m[(*n)++] = mc;
		else
			count(&c->copy_drop, 1);
	}
	if (k > 0)
		__atomic_fetch_sub(c->cfg.rx_held, k, __ATOMIC_RELAXED);
	return k;
}

/* Write what the rings hold; @return how many frames were taken. */
static unsigned int
drain_once(struct wr_cap *c)
{
	struct rte_mbuf *m[WR_CAP_WRITE_BURST];
	unsigned int n = 0, i, k, taken;
	ssize_t w;

	taken = copy_held(c, m, WR_CAP_WRITE_BURST / 2, &n);
	k = rte_ring_sc_dequeue_burst(c->ring, (void **)(m + n),
				      WR_CAP_WRITE_BURST - n, NULL);
	n += k;
	taken += k;
	/* Once each: a block that starts the next file is not redone. */
	for (i = 0; i < n; i++)
		finish_block(c, m[i]);
	i = 0;
	while (i < n) {
		if (!file_open_now(c)) {
			/* Ended (a limit, an error): the rest is over it. */
			__atomic_store_n(&c->over_limit, c->over_limit + n - i,
					 __ATOMIC_RELAXED);
			rte_pktmbuf_free_bulk(m + i, n - i);
			break;
		}
		/* As many as the file takes. */
		for (k = i; k < n; k++) {
			uint32_t len = rte_pktmbuf_pkt_len(m[k]);

			if (!fits(c, len))
				break;
			c->file_frames++;
			c->file_bytes += len;
		}
		if (k > i) {
			uint64_t bytes = 0;
			unsigned int j;

			for (j = i; j < k; j++)
				bytes += rte_pktmbuf_pkt_len(m[j]);
			w = rte_pcapng_write_packets(c->pc, m + i,
						     (uint16_t)(k - i));
			/* DPDK 22.11 leaves the blocks to the caller
			 * (later releases free them). */
			rte_pktmbuf_free_bulk(m + i, k - i);
			if (w < 0) {
				fail(c, errno ? -errno : -EIO);
				i = k;
				continue;
			}
			__atomic_store_n(&c->written, c->written + k - i,
					 __ATOMIC_RELAXED);
			__atomic_store_n(&c->bytes, c->bytes + bytes,
					 __ATOMIC_RELAXED);
			i = k;
		}
		if (i < n)
			limit_reached(c);
	}
	return taken;
}

static void *
writer_main(void *arg)
{
	struct wr_cap *c = arg;
	const struct wr_cap_limits *l = &c->cfg.lim;
	struct timespec idle = { 0, WR_CAP_IDLE_NS };

	for (;;) {
		bool closing = __atomic_load_n(&c->closing, __ATOMIC_ACQUIRE);

		if (drain_once(c) > 0)
			continue;
		if (closing)
			break;
		if (l->duration_ns > 0 && file_open_now(c) &&
		    rte_rdtsc() - c->file_start_tsc >=
		    (uint64_t)((double)l->duration_ns * c->cfg.tsc_hz / 1e9))
			limit_reached(c);
		nanosleep(&idle, NULL);
	}
	if (file_open_now(c)) {
		int rc = file_close(c);

		if (rc != 0)
			fail(c, rc);
	}
	return NULL;
}

/* The copies' pool: blocks of up to the snap length, the EPB's header in
 * the headroom, its options and a stream comment in the tailroom. */
static int
pool_create(struct wr_cap *c, unsigned int id)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	uint32_t room = rte_pcapng_mbuf_size(c->snaplen) -
		(uint32_t)sizeof(struct rte_mbuf) + WR_PCAPNG_COMMENT_ROOM +
		RTE_PKTMBUF_HEADROOM;
	unsigned int n = WR_CAP_POOL_BYTES / (room + 256);

	if (n > WR_CAP_RING * 2 - 1)
		n = WR_CAP_RING * 2 - 1;
	snprintf(name, sizeof(name), "wr_cap%u", id);
	c->mp = rte_pktmbuf_pool_create(name, n, WR_CAP_POOL_CACHE, 0,
					(uint16_t)room, c->cfg.socket_id);
	if (c->mp == NULL)
		return -ENOMEM;
	snprintf(name, sizeof(name), "wr_capr%u", id);
	c->ring = rte_ring_create(name, WR_CAP_RING, c->cfg.socket_id,
				  RING_F_SC_DEQ);
	if (c->ring == NULL || !(c->cfg.dir & WR_CAP_RX))
		return c->ring == NULL ? -ENOMEM : 0;
	snprintf(name, sizeof(name), "wr_caph%u", id);
	c->hold = rte_ring_create_elem(name, sizeof(struct wr_cap_hold),
				       WR_CAP_RING, c->cfg.socket_id,
				       RING_F_SC_DEQ);
	return c->hold == NULL ? -ENOMEM : 0;
}

static void
free_all(struct wr_cap *c)
{
	unsigned int q;
	struct rte_mbuf *m;

	if (c->ring != NULL) {
		while (rte_ring_dequeue(c->ring, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(c->ring);
	}
	if (c->hold != NULL) {
		struct wr_cap_hold h;

		while (rte_ring_dequeue_elem(c->hold, &h, sizeof(h)) == 0) {
			rte_pktmbuf_free(h.m);
			__atomic_fetch_sub(c->cfg.rx_held, 1, __ATOMIC_RELAXED);
		}
		rte_ring_free(c->hold);
	}
	rte_mempool_free(c->mp);
	wr_bpf_free(&c->filter);
	for (q = 0; q < WR_PORT_LCORES_MAX; q++) {
		rte_free(c->txq[q].held);
		rte_free(c->txq[q].copy);
	}
	free(c->names);
	rte_free(c);
}

int
wr_cap_open(struct wr_cap **out, const struct wr_cap_cfg *cfg,
	    struct wr_error *err)
{
	struct wr_cap *c;
	struct timespec ts;
	char why[256];
	unsigned int id, i;
	int rc;

	*out = NULL;
	if (wr_cap_limits_check(&cfg->lim, why, sizeof(why)) != 0)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "%s", why);
	if (cfg->n_txq > WR_PORT_LCORES_MAX)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "capture: too many TX queues");
	if (wr_cap_mark_off < 0) {
		static const struct rte_mbuf_dynfield mark = {
			.name = "wirerate_capture_mark",
			.size = sizeof(uint32_t),
			.align = __alignof__(uint32_t),
		};

		wr_cap_mark_off = rte_mbuf_dynfield_register(&mark);
		if (wr_cap_mark_off < 0)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "capture: no mbuf field left for "
					    "its mark: %s",
					    rte_strerror(rte_errno));
	}
	c = rte_zmalloc_socket("wr_cap", sizeof(*c), RTE_CACHE_LINE_SIZE,
			       cfg->socket_id);
	if (c == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
				    "capture: out of memory");
	c->cfg = *cfg;
	c->cfg.filter = NULL;
	c->out.fd = -1;
	snprintf(c->file, sizeof(c->file), "%s", cfg->file);
	c->cfg.file = c->file;
	c->snaplen = cfg->lim.snaplen ? cfg->lim.snaplen : cfg->frame_max;
	id = __atomic_add_fetch(&wr_cap_sessions, 1, __ATOMIC_RELAXED);
	c->mark = id;
	{
		uint16_t pid;

		RTE_ETH_FOREACH_DEV(pid)
			if (pid > c->max_port_id)
				c->max_port_id = pid;
	}
	c->names = calloc(cfg->n_streams ? cfg->n_streams : 1,
			  sizeof(*c->names));
	rc = c->names == NULL ? -ENOMEM : pool_create(c, id);
	if (rc != 0) {
		free_all(c);
		return wr_error_set(err, rc, NULL, 0, 0, NULL, "capture %s: "
				    "no memory for its copies (are hugepages "
				    "reserved?)", cfg->file);
	}
	for (i = 0; i < cfg->n_streams; i++)
		snprintf(c->names[i], WR_CAP_NAME_MAX, "%s",
			 cfg->stream_names[i]);
	c->cfg.stream_names = NULL;
	if (cfg->filter != NULL) {
		rc = wr_bpf_load(&c->filter, cfg->filter, "--capture-filter",
				 err);
		if (rc != 0) {
			free_all(c);
			return rc;
		}
		c->has_filter = true;
		/* For the file's comment. */
		c->cfg.filter = cfg->filter;
	}
	for (i = 0; i < cfg->n_txq && (cfg->dir & WR_CAP_TX); i++) {
		struct wr_cap_txq *t = &c->txq[i];

		t->c = c;
		t->queue = (uint16_t)i;
		t->held = rte_zmalloc_socket("wr_cap_held", WR_CAP_TX_HELD *
			sizeof(void *), RTE_CACHE_LINE_SIZE, cfg->socket_id);
		t->copy = rte_zmalloc_socket("wr_cap_copy", WR_CAP_TX_HELD *
			sizeof(void *), RTE_CACHE_LINE_SIZE, cfg->socket_id);
		if (t->held == NULL || t->copy == NULL) {
			free_all(c);
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "capture: out of memory");
		}
	}
	if (cfg->tsc0 != 0) {
		c->tsc0 = cfg->tsc0;
		c->wall0_ns = cfg->wall0_ns;
	} else {
		clock_gettime(CLOCK_REALTIME, &ts);
		c->tsc0 = rte_rdtsc();
		c->wall0_ns = (uint64_t)ts.tv_sec * 1000000000ull +
			      (uint64_t)ts.tv_nsec;
	}
	c->start_ns = c->wall0_ns;
	rc = file_open(c);
	if (rc != 0) {
		free_all(c);
		return wr_error_set(err, rc, c->cur[0] ? c->cur : cfg->file, 0,
				    0, NULL, "cannot write the capture: %s",
				    strerror(-rc));
	}
	rc = rte_ctrl_thread_create(&c->writer, "wr-cap", NULL, writer_main, c);
	if (rc != 0) {
		rte_pcapng_close(c->pc);
		wr_out_tmp_abort(&c->out);
		free_all(c);
		return wr_error_set(err, -rc, NULL, 0, 0, NULL, "capture: "
				    "cannot start its writer: %s", strerror(rc));
	}
	c->writer_up = true;
	*out = c;
	return 0;
}

bool
wr_cap_wants_rx(const struct wr_cap *c)
{
	return (c->cfg.dir & WR_CAP_RX) != 0;
}

static inline uint32_t *
mark_of(struct rte_mbuf *m)
{
	return RTE_MBUF_DYNFIELD(m, wr_cap_mark_off, uint32_t *);
}

/* One more reference on each segment of @p m, whose only owner so far may
 * be the RX lcore (a plain store) or not (another capture holds it). */
static inline void
hold_ref(struct rte_mbuf *m)
{
	for (; m != NULL; m = m->next) {
		if (rte_mbuf_refcnt_read(m) == 1)
			rte_mbuf_refcnt_set(m, 2);
		else
			rte_mbuf_refcnt_update(m, 1);
	}
}

void
wr_cap_rx(struct wr_cap *c, uint16_t queue, struct rte_mbuf **pkts,
	  uint16_t n, uint64_t tsc, const struct wr_clock_map *hw,
	  int hwts_off, uint64_t hwts_flag)
{
	struct wr_cap_hold h[WR_CAP_RX_BURST_MAX];
	struct wr_cap_rxq_count *rc = &c->rxc[queue % WR_PORT_LCORES_MAX];
	uint16_t i, k = 0, seen = 0;
	uint32_t held, room;
	unsigned int enq = 0;

	if (!(c->cfg.dir & WR_CAP_RX) ||
	    __atomic_load_n(&c->stop_copy, __ATOMIC_ACQUIRE))
		return;
	for (i = 0; i < n; i++) {
		uint64_t t = tsc;

		if (c->has_filter && !wr_bpf_run(&c->filter, pkts[i]))
			continue;
		seen++;
		if (hw != NULL && (pkts[i]->ol_flags & hwts_flag))
			t = wr_clock_to_tsc(hw, *RTE_MBUF_DYNFIELD(pkts[i],
					    hwts_off, rte_mbuf_timestamp_t *));
		h[k++] = (struct wr_cap_hold){ pkts[i], t, queue, 0 };
	}
	/* No copy here: the frames themselves go to the writer, as many as
	 * the port's RX pool spares for held frames (its queues then still
	 * have every mbuf they need); the rest are capture dropped. */
	held = __atomic_load_n(c->cfg.rx_held, __ATOMIC_RELAXED);
	room = held < c->cfg.rx_hold_max ? c->cfg.rx_hold_max - held : 0;
	if (k > room)
		k = (uint16_t)room;
	if (k > 0) {
		for (i = 0; i < k; i++)
			hold_ref(h[i].m);
		__atomic_fetch_add(c->cfg.rx_held, k, __ATOMIC_RELAXED);
		enq = rte_ring_mp_enqueue_burst_elem(c->hold, h, sizeof(h[0]),
						     k, NULL);
		for (i = (uint16_t)enq; i < k; i++)
			rte_pktmbuf_free(h[i].m); /* our extra reference */
		if (enq < k)
			__atomic_fetch_sub(c->cfg.rx_held, k - enq,
					   __ATOMIC_RELAXED);
	}
	count(&rc->seen, seen);
	if (seen > enq)
		count(&rc->drop, seen - enq);
}

/* Frames at the head of the queue's FIFO that the PMD freed (only our
 * reference is left) were sent: their copies go to the writer. */
static void
tx_confirm(struct wr_cap_txq *t, bool closing)
{
	struct wr_cap *c = t->c;
	struct rte_mbuf *m;

	while (t->n > 0) {
		uint32_t h = t->head;
		struct rte_mbuf *mc = t->copy[h];

		m = t->held[h];
		if (rte_mbuf_refcnt_read(m) != 1) {
			if (!closing)
				break;
			/* Never sent (still wirerate's when the capture
			 * ends): left out. */
			if (mc != NULL) {
				rte_pktmbuf_free(mc);
				count(&t->seen, (uint64_t)-1);
			}
			mc = NULL;
		}
		if (mc != NULL && rte_ring_mp_enqueue(c->ring, mc) != 0) {
			rte_pktmbuf_free(mc);
			count(&t->drop, 1);
		}
		*mark_of(m) = 0;
		rte_pktmbuf_free(m);
		t->head = (h + 1) % WR_CAP_TX_HELD;
		t->n--;
	}
}

static uint16_t
tx_callback(uint16_t port_id __rte_unused, uint16_t queue,
	    struct rte_mbuf **pkts, uint16_t n, void *arg)
{
	struct wr_cap_txq *t = arg;
	struct wr_cap *c = t->c;
	uint64_t tsc = rte_rdtsc();
	bool copying = !__atomic_load_n(&c->stop_copy, __ATOMIC_ACQUIRE);
	uint16_t i;

	tx_confirm(t, false);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *mc = NULL;
		uint32_t slot;

		/* Offered again after the NIC refused it: copied already. */
		if (*mark_of(m) == c->mark)
			continue;
		if (!copying ||
		    (c->has_filter && !wr_bpf_run(&c->filter, m)))
			continue;
		count(&t->seen, 1);
		if (t->n == WR_CAP_TX_HELD) {
			count(&t->drop, 1);
			continue;
		}
		mc = copy_one(c, queue, m, tsc, RTE_PCAPNG_DIRECTION_OUT);
		if (mc == NULL)
			count(&t->drop, 1);
		slot = (t->head + t->n) % WR_CAP_TX_HELD;
		t->held[slot] = m;
		t->copy[slot] = mc;
		t->n++;
		*mark_of(m) = c->mark;
		rte_mbuf_refcnt_update(m, 1);
	}
	return n;
}

int
wr_cap_attach_tx(struct wr_cap *c, uint64_t port_tx_offloads,
		 struct wr_error *err)
{
	uint16_t q;

	if (!(c->cfg.dir & WR_CAP_TX))
		return 0;
	if (port_tx_offloads & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		return wr_error_set(err, -ENOTSUP, NULL, 0, 0, NULL,
				    "capture of port %u's TX: the port frees "
				    "sent frames without reference counts "
				    "(MBUF_FAST_FREE); give --capture when "
				    "the run starts", c->cfg.port_index);
	for (q = 0; q < c->cfg.n_txq; q++) {
		c->txq[q].cb = rte_eth_add_tx_callback(c->cfg.port_id, q,
						       tx_callback, &c->txq[q]);
		if (c->txq[q].cb == NULL) {
			int rc = -rte_errno;

			wr_cap_detach_tx(c);
			return wr_error_set(err, rc ? rc : -ENOTSUP, NULL, 0, 0,
					    NULL, "capture of port %u's TX: "
					    "no TX callback on queue %u: %s",
					    c->cfg.port_index, q,
					    rte_strerror(-rc));
		}
	}
	c->tx_attached = true;
	return 0;
}

void
wr_cap_detach_tx(struct wr_cap *c)
{
	uint16_t q;

	for (q = 0; q < c->cfg.n_txq; q++)
		if (c->txq[q].cb != NULL)
			rte_eth_remove_tx_callback(c->cfg.port_id, q,
						   c->txq[q].cb);
}

void
wr_cap_status(const struct wr_cap *c, struct wr_cap_status *st)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->file, sizeof(st->file), "%s",
		 c->pc != NULL ? c->cur : c->last[0] ? c->last : c->cur);
	st->files = __atomic_load_n(&c->files, __ATOMIC_RELAXED);
	st->seen = sum_queues(c, false);
	st->dropped = sum_queues(c, true);
	st->written = __atomic_load_n(&c->written, __ATOMIC_RELAXED);
	st->bytes = __atomic_load_n(&c->bytes, __ATOMIC_RELAXED);
	st->over_limit = __atomic_load_n(&c->over_limit, __ATOMIC_RELAXED);
	st->running = true;
	st->full = __atomic_load_n(&c->full, __ATOMIC_RELAXED) != 0;
	st->error = __atomic_load_n(&c->error, __ATOMIC_RELAXED);
}

int
wr_cap_close(struct wr_cap *c, struct wr_cap_status *st)
{
	uint16_t q;
	int rc;

	if (c == NULL)
		return 0;
	__atomic_store_n(&c->stop_copy, 1, __ATOMIC_RELEASE);
	/* The lcores left the callbacks (the caller waited): what is still
	 * held was sent if the PMD freed it.  A NIC frees sent mbufs
	 * lazily: ask it to now. */
	for (q = 0; q < c->cfg.n_txq; q++) {
		struct wr_cap_txq *t = &c->txq[q];

		if (t->held == NULL)
			continue;
		if (t->n > 0)
			(void)rte_eth_tx_done_cleanup(c->cfg.port_id, q, 0);
		tx_confirm(t, true);
		if (t->cb != NULL)
			rte_free((void *)(uintptr_t)t->cb);
		t->cb = NULL;
	}
	__atomic_store_n(&c->closing, 1, __ATOMIC_RELEASE);
	if (c->writer_up)
		pthread_join(c->writer, NULL);
	if (st != NULL) {
		wr_cap_status(c, st);
		st->running = false;
	}
	rc = c->error;
	free_all(c);
	return rc;
}

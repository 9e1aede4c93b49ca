/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_neigh: the addresses a port's responder answers for, the next hops it asks for, and their answers written into the streams. */
#include <errno.h>
#include <string.h>

#include "wr_neigh.h"
#include "wr_describe.h"
#include "wr_frame.h"
#include "wr_proto.h"

int
wr_arpd_sources(const struct wr_stream_file *f, unsigned int pi,
		struct wr_addrs *v4, struct wr_addrs *v6)
{
	uint32_t s;
	int rc = 0;

	for (s = 0; s < f->n_streams && rc == 0; s++)
		if (f->streams[s].port == pi)
			rc = wr_nd_stream_sources(&f->streams[s], v4, v6);
	return rc;
}

/*
 * The next hop a stream's eth.dst resolves to (its IPv4 one, or in q->ip6
 * its IPv6 one for `dst: nd`), the source address to ask from, and the
 * tags the question goes out behind: packet 0's.
 * @return 0, or a negative errno (the stream's tags do not build).
 */
static int
next_hop(const struct wr_stream *s, struct wr_arpd_query *q)
{
	unsigned int kind;
	__uint128_t dst, src;
	int n;

	memset(q, 0, sizeof(*q));
	n = wr_frame_l2_tags(s, q->tags, sizeof(q->tags));
	if (n < 0)
		return n;
	q->tags_len = (uint16_t)n;
	q->v6 = s->dst_nd;
	kind = q->v6 ? WR_VAL_IPV6 : WR_VAL_IPV4;
	/* The loader checked both exist (check_resolve). */
	dst = wr_stream_addr(s, kind, WR_ROLE_DST_ADDR)->value;
	src = wr_stream_addr(s, kind, WR_ROLE_SRC_ADDR)->value;
	if (q->v6) {
		q->ip6 = s->gateway6 != 0 ? s->gateway6 : dst;
		q->src_ip6 = src;
	} else {
		q->ip = s->gateway != 0 ? s->gateway : (uint32_t)dst;
		q->src_ip = (uint32_t)src;
	}
	return 0;
}

static bool
same_query(const struct wr_arpd_query *a, const struct wr_arpd_query *b)
{
	return a->v6 == b->v6 && a->tags_len == b->tags_len &&
	       memcmp(a->tags, b->tags, a->tags_len) == 0 &&
	       (a->v6 ? a->ip6 == b->ip6 : a->ip == b->ip);
}

int
wr_arpd_queries(const struct wr_stream_file *f, unsigned int pi,
		struct wr_arpd_query *q, unsigned int *n, struct wr_error *err)
{
	struct wr_arpd_query want;
	unsigned int i;
	uint32_t s;
	int rc;

	*n = 0;
	for (s = 0; s < f->n_streams; s++) {
		const struct wr_stream *st = &f->streams[s];

		if (st->port != pi || !st->dst_arp)
			continue;
		rc = next_hop(st, &want);
		if (rc != 0)
			return wr_error_set(err, rc, f->path, st->mark.line,
					    st->mark.col, NULL,
					    "streams[%u]: more than %u tags to ask "
					    "its next hop behind", s, WR_ARP_TAGS_MAX);
		for (i = 0; i < *n; i++)
			if (same_query(&q[i], &want))
				break;
		if (i == *n)
			q[(*n)++] = want;
	}
	return 0;
}

int
wr_arpd_apply(struct wr_stream_file *f, unsigned int pi,
	      const struct wr_arpd_query *q, unsigned int n_q,
	      unsigned int n_req, uint32_t timeout_ms, const char *device,
	      struct wr_error *err)
{
	struct wr_arpd_query want;
	unsigned int i;
	uint32_t s;

	for (s = 0; s < f->n_streams; s++) {
		struct wr_stream *st = &f->streams[s];

		if (st->port != pi || !st->dst_arp)
			continue;
		(void)next_hop(st, &want); /* as in wr_arpd_queries() */
		for (i = 0; i < n_q; i++)
			if (same_query(&q[i], &want))
				break;
		if (i == n_q || !__atomic_load_n(&q[i].done, __ATOMIC_ACQUIRE)) {
			char addr[48];

			wr_describe_val(want.v6 ? WR_VAL_IPV6 : WR_VAL_IPV4,
					want.v6 ? want.ip6 : want.ip, addr,
					sizeof(addr));
			return wr_error_set(err, -EHOSTUNREACH, f->path,
				     st->mark.line, st->mark.col, NULL,
				     "streams[%u].eth.dst: %s: no %s from %s on "
				     "port %s after %u request%s in %u ms", s,
				     want.v6 ? "nd" : "arp",
				     want.v6 ? "Neighbor Advertisement" : "ARP reply",
				     addr, device, n_req, n_req == 1 ? "" : "s",
				     timeout_ms);
		}
		wr_stream_set_mac(st, true, wr_mac_from_bytes(q[i].mac));
	}
	return 0;
}

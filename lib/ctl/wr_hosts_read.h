/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_hosts_read: a port's emulated hosts copied from their service (wr_host_svc_read), a chunk at a time, for the server's hosts.* and the end of `wirerate run`. */
#ifndef WR_HOSTS_READ_H
#define WR_HOSTS_READ_H

/**
 * @file
 * The hosts are the service's (wr_host_svc.h): the control plane reads
 * copies, a range of a port's table at a time, each read answered by one
 * pass of the service.  WR_HOSTS_READ_CHUNK hosts a read is about 1.2 MB
 * copied in a pass: at 1 M frames a second the service's ring (8 ms) does
 * not fill meanwhile.  Counting the hosts by state reads the whole table
 * so: 100,000 hosts are 49 reads.  The copies are shown by
 * wr_hosts_view.h.  One thread at a time (wr_host_svc_read()'s rule).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

/* wr_host_svc.h uses WR_PORTS_MAX without its header. */
#include "wr_engine.h"
#include "wr_host_svc.h"
#include "wr_hosts_view.h"

#define WR_HOSTS_READ_CHUNK 2048u
#define WR_HOSTS_READ_COUNTERS_MAX 256u

/** The buffers of a read (about 1.5 MB). */
struct wr_hosts_read;

struct wr_hosts_read *wr_hosts_read_new(void);
void wr_hosts_read_free(struct wr_hosts_read *h);

/**
 * Copy hosts [@p first, @p first + @p max) of engine port @p port (at most
 * WR_HOSTS_READ_CHUNK; @p max 0: none) and, with @p counters, its counters,
 * into the copy @p *snap points to afterwards (valid until the next read
 * or the free).  @p svc NULL, or a port without hosts: an empty copy.
 * @p specs: the stream file's groups (names in the copy).
 * @return 0, -ETIMEDOUT (the service did not answer).
 */
int wr_hosts_read(struct wr_hosts_read *h, struct wr_host_svc *svc,
		  const struct wr_host_specs *specs, unsigned int port,
		  uint32_t first, uint32_t max, bool counters,
		  const struct wr_hosts_snap **snap);

/**
 * Port @p port's hosts counted by state (every host read) and its
 * counters: wr_hosts_view_counters()'s object for the whole table.
 * @return it, or NULL with @p *rc -ETIMEDOUT or -ENOMEM.
 */
json_t *wr_hosts_read_counters(struct wr_host_svc *svc,
			       const struct wr_host_specs *specs,
			       unsigned int port, int *rc);

/**
 * Every port's (of @p n_ports) with hosts: wr_hosts_read_counters()'s
 * objects, in port order: stats.get's and the results JSON's "hosts".
 * A port whose service did not answer is left out.  NULL on ENOMEM.
 */
json_t *wr_hosts_read_json(struct wr_host_svc *svc,
			   const struct wr_host_specs *specs,
			   unsigned int n_ports);

/**
 * The end of a run: each port's hosts summary (wr_hosts_view_summary()),
 * with @p table every host's line (wr_hosts_view_table()).
 * @return 0, -ETIMEDOUT (a service that did not answer: said in @p out),
 *         -ENOMEM.
 */
int wr_hosts_read_print(struct wr_host_svc *svc,
			const struct wr_host_specs *specs,
			unsigned int n_ports, bool table, FILE *out);

#endif /* WR_HOSTS_READ_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_session_hosts: streams whose addresses hosts have only once up (DHCP, SLAAC), filled between the hosts' bring-up and the streams' load. */
#ifndef WR_SESSION_HOSTS_H
#define WR_SESSION_HOSTS_H

#include "wr_engine.h"
#include "wr_error.h"
#include "wr_host_svc.h"
#include "wr_stream.h"

/**
 * After the hosts' bring-up (@p svc started, its wait over), before the
 * streams are loaded: fill the streams of @p f that send from hosts whose
 * addresses came up only now (DHCP, SLAAC: wr_stream_hosts_fill()) from
 * the hosts' tables the service copies, and drop their templates @p prep
 * kept (NULL: none).  At every load: a repetition's hosts lease again.
 * Main lcore.
 * @return 0; -EHOSTUNREACH (a stream none of whose hosts came up);
 *         -ETIMEDOUT (a table the service did not hand over); -ENOMEM.
 */
int wr_session_hosts_fill(struct wr_host_svc *svc, struct wr_prepared *prep,
			  struct wr_stream_file *f, struct wr_error *err);

#endif /* WR_SESSION_HOSTS_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_describe: a tcp: class in words (`wirerate check`) and what each of its sides sends (`wirerate dump`). */
#ifndef WR_TCP_DESCRIBE_H
#define WR_TCP_DESCRIBE_H

#include <stddef.h>

#include "wr_error.h"
#include "wr_host_spec.h"
#include "wr_tcp_spec.h"

/** Room for one class's description or wire view. */
#define WR_TCP_DESCRIBE_MAX 16384

/**
 * Lines describing class @p c of a file whose hosts are @p h: its clients
 * (hosts, port, addresses, source ports), its server (emulated or real),
 * how connections are opened (rate, ramp, concurrency, count or
 * duration), what each connection does (the HTTP exchange, or the
 * program step by step and who closes), its data and its TCP options.
 * Every line starts with @p indent.  @return as snprintf.
 */
int wr_tcp_describe_class(const struct wr_tcp_class *c,
			  const struct wr_host_specs *h, const char *indent,
			  char *buf, size_t len);

/**
 * What each side of @p c sends, as wr_tcp_app compiles it: the client's
 * SYN and the server's SYN-ACK (addresses, ports, window, options), then
 * each side's first message (HTTP: the header block as text, and the last
 * request or response when it differs; raw: each send's size and first
 * bytes).  @return 0, or wr_tcp_app_init()'s error (@p err set).
 */
int wr_tcp_describe_wire(const struct wr_tcp_class *c,
			 const struct wr_host_specs *h, const char *indent,
			 char *buf, size_t len, struct wr_error *err);

#endif /* WR_TCP_DESCRIBE_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml_priv: the stream-file loader's parts, one file a concern (wr_yaml.c the file and the stream, _stack the headers, _size sizes and payload, _sched the schedule). */
#ifndef WR_YAML_PRIV_H
#define WR_YAML_PRIV_H

/*
 * Each reads the key its name says at node @p n of the stream being
 * loaded into @p s, or checks keys across the stream @p n (a mapping);
 * @return 0 or -EINVAL with the error at the node (wr_ywalk).
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_stream.h"
#include "wr_ytree.h"

/* wr_yaml_stack.c: `stack:` or the shorthand eth, vlan, ipv4, udp. */
int wr_yaml_headers(struct wr_ywalk *w, const struct wr_ynode *n,
		    struct wr_stream *s);
/* eth: {dst: arp|nd} has one next hop to resolve. */
int wr_yaml_check_resolve(struct wr_ywalk *w, const struct wr_ynode *n,
			  const struct wr_stream *s);
/* The frame compiler takes the stack; its error as the loader's. */
int wr_yaml_check_stack(struct wr_ywalk *w, struct wr_stream *s);

/* wr_yaml_size.c */
int wr_yaml_size(struct wr_ywalk *w, const struct wr_ynode *n,
		 struct wr_size_spec *sz);
int wr_yaml_payload(struct wr_ywalk *w, const struct wr_ynode *n,
		    struct wr_payload_spec *p);
int wr_yaml_latency(struct wr_ywalk *w, const struct wr_ynode *v,
		    struct wr_stream *s);
/* The smallest frame holds the headers, the signature and the string. */
int wr_yaml_check_fit(struct wr_ywalk *w, const struct wr_ynode *stream,
		      struct wr_stream *s);

/* wr_yaml_sched.c */
int wr_yaml_rate(struct wr_ywalk *w, const struct wr_ynode *n,
		 struct wr_rate_spec *rate);
/* A duration above 0 ("5s", "500ms"). */
int wr_yaml_duration(struct wr_ywalk *w, const struct wr_ynode *n,
		     uint64_t *ns);
/* One of @p names (NULL-terminated): @return its index. */
int wr_yaml_name_of(struct wr_ywalk *w, const struct wr_ynode *n,
		    const char *const *names, const char *what);
int wr_yaml_bursts(struct wr_ywalk *w, const struct wr_ynode *n,
		   struct wr_stream *s);
int wr_yaml_ramp(struct wr_ywalk *w, const struct wr_ynode *n,
		 struct wr_stream *s);
/* Keys that only make sense together, or not at all together. */
int wr_yaml_check_schedule(struct wr_ywalk *w, const struct wr_ynode *n,
			   const struct wr_stream *s);

/* wr_yaml_hosts.c: the file's `hosts:` (doc/hosts.md). */
int wr_yaml_hosts(struct wr_ywalk *w, const struct wr_ynode *n,
		  struct wr_host_specs *out);
/* Whether a1 + i*s1 (i < c1) and a2 + j*s2 (j < c2) share a value (exact). */
/** A hosts group's or a TCP class's name into @p name (@p cap bytes):
 * 1 to cap - 1 letters, digits, '_', '.' or '-'.  @return 0, -EINVAL. */
int wr_yaml_name(struct wr_ywalk *w, const struct wr_ynode *n, char *name,
		 size_t cap);

bool wr_yaml_progressions_meet(uint64_t a1, uint64_t s1, uint32_t c1,
			       uint64_t a2, uint64_t s2, uint32_t c2);

/* wr_yaml_tcp.c: the file's `tcp:` (doc/tcp.md), after its hosts:. */
int wr_yaml_tcp(struct wr_ywalk *w, const struct wr_ynode *n,
		const struct wr_host_specs *hosts, struct wr_tcp_specs *out);

#endif /* WR_YAML_PRIV_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml: loading stream files with libyaml, with file:line:col errors. */
#ifndef WR_YAML_H
#define WR_YAML_H

/**
 * @file
 * The stream file format (README.md "Stream files" documents every key):
 *
 *     version: 1
 *     seed: 42                      # optional, default 1
 *     streams:
 *       - name: udp-64
 *         port: 0
 *         size: 64                  # or {inc: {from, to, step}}, {random: {min, max}},
 *                                   # {mix: [{size: 64, weight: 7}, ...]}, imix
 *         count: 1000               # optional; default unlimited
 *         rate: max                 # optional; "250 kpps", "1.2 Mpps", "10 Gbps L1", "50%"
 *         eth: {src: 02:00:00:00:00:01, dst: 02:00:00:00:00:02}
 *         vlan: {id: 100, pcp: 3}   # optional
 *         ipv4: {src: 10.0.0.1, dst: 10.0.0.2, ttl: 64, dscp: 0, ecn: 0, id: 0, df: true}
 *         udp: {src: 1024, dst: 1024}
 *         payload: {pattern: "deadbeef"}   # or {string: "..."}, inc, zeros
 *         latency: false
 *
 * A varying field replaces its scalar with a mapping:
 *     src: {inc: {from: 10.0.0.1, to: 10.0.0.254, step: 1}}
 *     src: {random: {min: 1024, max: 65535}}
 *     src: {list: [1, 2, 3]}
 *
 * Unknown keys, duplicate keys, wrong types, out-of-range values, a payload
 * that does not fit the smallest frame and a frame too small for its headers
 * are errors: the loader fills struct wr_error with the file, the 1-based
 * line and column of the offending node, the key path
 * ("streams[1].ipv4.src") and what was expected, and returns -EINVAL
 * (-ENOENT/-EACCES/-EIO for a file that cannot be read).  Nothing is
 * returned half-filled: on error @p out is left empty.
 *
 * Thread-safety: reentrant; no global state.
 */

#include <stddef.h>

#include "wr_error.h"
#include "wr_stream.h"
#include "wr_ytree.h" /* WR_YAML_PCAP_ANY, WR_YAML_PCAP_NONE */

/**
 * Load and validate a stream file.
 * @param path  file to read
 * @param out   filled on success; free with wr_stream_file_free()
 * @param err   filled on failure
 * @return 0; -EINVAL (the file is not a valid stream file: @p err has
 *         file:line:col, the key and what was expected), -ENOENT, -EACCES
 *         or -EIO (reading the file), -ENOMEM
 */
int wr_yaml_load_streams(const char *path, struct wr_stream_file *out,
			 struct wr_error *err);

/**
 * Same, from @p len bytes at @p buf (tests, RPC).  @p name is the file name
 * errors report.  @return as wr_yaml_load_streams().
 */
int wr_yaml_load_streams_buf(const char *name, const char *buf, size_t len,
			     struct wr_stream_file *out, struct wr_error *err);

/* wr_yaml_load_streams_at()'s @p pcap_dir: WR_YAML_PCAP_ANY,
 * WR_YAML_PCAP_NONE (wr_ytree.h, where the walk keeps it). */

/**
 * Same, with the captures pcap: may name confined (text a client of the
 * server sent: doc/api.md): @p pcap_dir an open directory (the server's
 * --pcap-dir) in which pcap: names a file by a relative name, never
 * leaving it (wr_in_open_beneath()); WR_YAML_PCAP_NONE: no pcap: at all;
 * WR_YAML_PCAP_ANY: as wr_yaml_load_streams_buf().  A name that cannot be
 * opened there, whatever the reason (absent, outside, a link, "/etc/shadow"),
 * gets one and the same error, so that a client learns nothing of the
 * server's files.  @return as wr_yaml_load_streams().
 */
int wr_yaml_load_streams_at(const char *name, const char *buf, size_t len,
			    int pcap_dir, struct wr_stream_file *out,
			    struct wr_error *err);

#endif /* WR_YAML_H */

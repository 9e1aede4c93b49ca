/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_spec: the stateful classes a stream file declares (its `tcp:` key), as plain data. */
#ifndef WR_TCP_SPEC_H
#define WR_TCP_SPEC_H

/**
 * @file
 * A stream file may declare classes of TCP connections (doc/tcp.md).  Their
 * endpoints stand on emulated hosts (`hosts:`, doc/hosts.md): the hosts'
 * MACs, VLANs and addresses (static, DHCP or SLAAC), their ARP/ND answered
 * and their gateways resolved by the host engine.
 *
 *   hosts:
 *     - {name: c, port: 0, count: 100, mac: 02:00:00:00:01:01,
 *        ipv4: {addr: 10.1.0.1, prefix: 16}}
 *     - {name: s, port: 1, count: 1, mac: 02:00:00:00:02:01,
 *        ipv4: {addr: 10.1.1.1, prefix: 16}}
 *   tcp:
 *     - name: web
 *       client: {hosts: c, sport: [1024, 65535]} # absent: a server alone
 *       server: {hosts: s, port: 80}    # or {addr: [10.0.0.2], port: 80}:
 *                                       #   a real server, clients alone
 *       ip: 4                           # the family (default: 4, or 6
 *                                       #   when the hosts have only v6)
 *       rate: 10000                     # connections opened per second
 *       ramp: 5s                        # rate reached linearly over 5 s
 *       concurrency: 100000             # most open at once (default 1M)
 *       count: 1000000                  # or duration: 30s (one of them)
 *       http: {method: GET, path: /, requests: 1, status: 200, body: 64}
 *       # or, raw: the steps in order, from the client's side
 *       program:
 *         - send: 1MB          # the client sends 1 MB (the server takes it)
 *         - recv: 64           # the server sends 64 B (the client takes it)
 *         - think: 10ms        # the side that acts next waits
 *         - close: fin         # or rst; {by: server, with: fin}
 *       data: pattern          # or {file: PATH}: what the bytes are
 *       tcp: {mss: 1460, wscale: 7, sack: true, timestamps: true,
 *             window: 256KB, init_cwnd: 10, rto_min: 200ms, ...}
 *
 * A class's client side runs on its client hosts' port, its server side
 * on its server hosts' port: either alone (against a real server, for
 * real clients), or both in one run (through a device under test, or back
 * to back).  This is the model: what the loader (lib/core/load) fills and
 * the TCP engine (lib/core/tcp) reads.  Sizes are bytes, times ns.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_host_spec.h"

#define WR_TCP_CLASS_NAME_MAX 32
#define WR_TCP_CLASSES_MAX 32
#define WR_TCP_STEPS_MAX 32
#define WR_TCP_SERVERS_MAX 64
#define WR_TCP_PATH_MAX 256
#define WR_TCP_HOSTNAME_MAX 128
#define WR_TCP_FILE_MAX 4096
/** A step's byte count that means: until the other side closes (a real
 * peer's close; with both sides emulated, the run's end).  Only a
 * program's last step sends so (the loader refuses steps after it). */
#define WR_TCP_UNTIL_CLOSE UINT64_MAX

/** Which side does something. */
enum wr_tcp_side {
	WR_TCP_CLIENT = 0,
	WR_TCP_SERVER = 1,
};

/** What a step of a raw program does. */
enum wr_tcp_op {
	WR_TCP_OP_SEND = 0,     /**< @c by sends @c bytes, the other side takes them */
	WR_TCP_OP_THINK,        /**< the side that acts next waits @c ns */
	WR_TCP_OP_CLOSE,        /**< @c by closes: FIN, or RST when @c rst */
};

/** Where in the stream file something was declared, for errors found
 * later (a hosts group that does not exist, a port the engine lacks). */
struct wr_tcp_where {
	uint32_t line;
	uint32_t col;
};

struct wr_tcp_step {
	uint8_t op;             /**< enum wr_tcp_op */
	uint8_t by;             /**< enum wr_tcp_side: SEND's sender, CLOSE's closer;
				 *   `send:` is the client's, `recv:` the server's */
	bool rst;               /**< CLOSE: abort with RST instead of FIN */
	uint64_t bytes;         /**< SEND: how many, or WR_TCP_UNTIL_CLOSE
				 *   (the sender sends until the run ends) */
	uint64_t ns;            /**< THINK */
	struct wr_tcp_where where;
};

/** HTTP/1.1 (RFC 9112) on a connection: @c requests requests, each
 * answered before the next is sent (keep-alive), then the client closes. */
struct wr_tcp_http {
	char method[16];        /**< default GET */
	char path[WR_TCP_PATH_MAX]; /**< default / */
	char host[WR_TCP_HOSTNAME_MAX]; /**< Host: header; "" = the server's address */
	uint64_t request_body;  /**< the request's Content-Length (0: none sent) */
	uint16_t status;        /**< the emulated server's status (default 200) */
	uint64_t response_body; /**< the emulated server's body bytes (default 64) */
	uint32_t requests;      /**< per connection (default 1) */
	uint64_t think_ns;      /**< the client's wait between responses and the next request */
	bool close_by_server;   /**< the server closes after the last response
				 *   (Connection: close) instead of the client */
};

/** What the bytes sent are (the server's body, a raw send). */
enum wr_tcp_data {
	WR_TCP_DATA_PATTERN = 0, /**< byte at stream offset i: doc/tcp.md's pattern */
	WR_TCP_DATA_FILE,        /**< a file's bytes, repeated when the send is longer */
};

/** The TCP options and timers of a class (RFC 7323, 2018, 6298, 5681). */
struct wr_tcp_opts {
	uint16_t mss;           /**< announced and used at most (default 1460;
				 *   IPv6 default 1440) */
	uint8_t wscale;         /**< window scale announced (default 7) */
	bool sack;              /**< SACK-permitted offered (default true) */
	bool timestamps;        /**< timestamps offered (default true) */
	uint32_t window;        /**< receive window in bytes (default 256 KB) */
	uint32_t init_cwnd;     /**< initial window in segments (default 10, RFC 6928) */
	uint64_t rto_init_ns;   /**< default 1 s (RFC 6298 2.1) */
	uint64_t rto_min_ns;    /**< default 200 ms (as Linux; RFC 6298 says 1 s) */
	uint64_t rto_max_ns;    /**< default 60 s */
	uint32_t syn_retries;   /**< SYN retransmissions before `timeout` (default 5) */
	uint32_t retries;       /**< data retransmissions of one segment before
				 *   `timeout` (default 8) */
	uint64_t time_wait_ns;  /**< TIME_WAIT (default 1 s; 2 MSL would hold
				 *   ports for minutes at high rates) */
	uint64_t idle_timeout_ns; /**< a connection with nothing received this
				   *  long is aborted, counted `timeout`
				   *  (default 30 s) */
};

/** One endpoint of a class. */
struct wr_tcp_end {
	bool present;           /**< the class has this side emulated */
	char hosts[WR_HOST_GROUP_NAME_MAX]; /**< the hosts group it stands on */
	int32_t group;          /**< its index in the file's hosts (the loader
				 *   sets it), -1 for a real server by address */
	uint16_t port;          /**< the group's port (copied by the loader) */
	/* client: */
	uint16_t sport_lo;      /**< source ports used (default 1024..65535) */
	uint16_t sport_hi;
	/* server (emulated or real): */
	uint16_t dport;         /**< the port listened on / connected to (default 80) */
	/** A real server's addresses (client side alone): the clients connect
	 * to them in turn; host-order integers as in wr_stream.h. */
	__uint128_t addr[WR_TCP_SERVERS_MAX];
	uint32_t n_addr;
	struct wr_tcp_where where;
};

/** One class of connections. */
struct wr_tcp_class {
	char name[WR_TCP_CLASS_NAME_MAX];
	struct wr_tcp_where where;
	struct wr_tcp_end client;
	struct wr_tcp_end server;
	uint8_t ip;             /**< 4 or 6 */
	uint64_t rate_milli;    /**< connections per 1000 s (0: as fast as the
				 *   concurrency allows) */
	uint64_t ramp_ns;       /**< rate reached linearly over this (0: at once) */
	uint32_t concurrency;   /**< open at once at most (default 1,048,576) */
	uint64_t count;         /**< connections in all (0: by duration) */
	uint64_t duration_ns;   /**< opening ends after this (0: by count);
				 *   neither: the run's --duration (or stop)
				 *   ends it; a server alone has neither */
	bool is_http;           /**< http: (else program:); neither key:
				 *   HTTP with its defaults */
	struct wr_tcp_http http;
	/** The loader guarantees: 1..WR_TCP_STEPS_MAX steps, not all THINK;
	 * nothing after a RST close or an until-close send; a side sends or
	 * closes nothing after its own CLOSE.  A program without a CLOSE
	 * step (or whose closes leave one side open) ends as HTTP's does:
	 * the client sends its FIN after the last step. */
	struct wr_tcp_step steps[WR_TCP_STEPS_MAX];
	uint32_t n_steps;
	uint8_t data;           /**< enum wr_tcp_data */
	char data_file[WR_TCP_FILE_MAX]; /**< DATA_FILE: as written, resolved
					  *  against the stream file's folder */
	uint64_t data_size;     /**< DATA_FILE: its size when loaded (> 0) */
	struct wr_tcp_opts tcp;
};

/** Every class of a stream file. */
struct wr_tcp_specs {
	struct wr_tcp_class *classes;   /**< owned, n entries */
	uint32_t n;
};

/** The defaults of every key (what a class is before its keys are read). */
void wr_tcp_class_defaults(struct wr_tcp_class *c);

/** Index of the class called @p name, or -1. */
int wr_tcp_specs_find(const struct wr_tcp_specs *s, const char *name);

/** True when some class has side @p side on port @p port. */
bool wr_tcp_specs_on_port(const struct wr_tcp_specs *s, uint16_t port,
			  enum wr_tcp_side side);

/** Free what @p s owns.  NULL-safe. */
void wr_tcp_specs_free(struct wr_tcp_specs *s);

#endif /* WR_TCP_SPEC_H */

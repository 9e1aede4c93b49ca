/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_priv: what the files of `wirerate serve` share: limits, the server's state, its connections and sessions, and their order (bottom to top, below). */
#ifndef WR_SERVER_PRIV_H
#define WR_SERVER_PRIV_H

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <math.h>
#include <stdarg.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_version.h>

#include "wr_auth.h"
#include "wr_bench.h"
#include "wr_describe.h"
#include "wr_engine_priv.h"
#include "wr_http.h"
#include "wr_in.h"
#include "wr_rpc.h"
#include "wr_rtt.h"
#include "wr_server.h"
#include "wr_session.h"
#include "wr_tcp_read.h"
#include "wr_clock_eal.h"
#include "wr_yaml.h"

extern int wr_server_logtype;
#define SRV_LOG(level, ...) \
	rte_log(RTE_LOG_##level, wr_server_logtype, "wirerate: " __VA_ARGS__)

#define SESSION_MAX 64
/* Who a connection is: "uid:N" over the Unix socket (SO_PEERCRED) or the
 * console without a token (its peer's uid), "token" for a TCP login,
 * "http-token" for the console's own token.  A session left by its last
 * connection is resumed or replaced without force by the same one. */
#define PRINCIPAL_MAX 24
/* Events kept for events.poll: a client polling once a second misses none
 * unless a thousand streams end in that second. */
#define EVENTS_MAX 1024
/* Fairness (issue 17: twelve clients that sent and never read stalled
 * everyone's server.info for 24.7 s).  Each turn of the loop serves every
 * connection with work at most TURN_REQS requests, TURN_READ bytes read and
 * TURN_WRITE bytes written, so a request of another client waits for at
 * most one such share of each busy connection.  A connection with WQ_HIGH
 * bytes of replies queued is not read until it has taken all but WQ_LOW of
 * them; one whose queue passes WQ_MAX (events for a subscriber that does
 * not read) or that takes nothing for the idle timeout is closed.  WQ_HIGH
 * holds a few hundred stats.get replies of a small run; a reply is always
 * queued below WQ_HIGH, whatever its size. */
#define TURN_REQS 8
#define TURN_READ (64u << 10)
#define TURN_WRITE (256u << 10)
#define WQ_HIGH (256u << 10)
#define WQ_LOW (64u << 10)
#define WQ_MAX (4u << 20)
/* Buffers start small and grow to what a connection uses; a large one is
 * given back once empty. */
#define BUF_MIN 4096u
#define BUF_KEEP (64u << 10)
/* Connections accepted per listener per turn (a flood of connects does not
 * hold the loop). */
#define ACCEPT_TURN 32
/* TCP connections that have not logged in (doc/api.md): a pool of their own
 * (a new one closes the oldest when full), LOGIN_MS to log in, requests of
 * at most PREAUTH_REQUEST_MAX bytes.  The Unix socket and logged-in clients
 * share --max-clients and never wait for this pool. */
#define PREAUTH_MAX 64
#define LOGIN_MS 3000
#define PREAUTH_REQUEST_MAX 4096
/* Descriptors beside the clients': EAL's, the PMDs', the listeners. */
#define FD_RESERVE 64
#define MAX_CLIENTS_DEFAULT 1024
/* epoll wait while traffic runs: stream ends, durations and wait replies
 * are seen within 5 ms; idle, link changes within 200 ms. */
#define TICK_RUN_MS 5
#define TICK_IDLE_MS 200
#define LINK_POLL_MS 200
/* A first burst later than this after start_at is said (a log line, a
 * traffic_late event, stats' tx_late_ns): on a quiet machine it leaves
 * 36-58 us after the instant through af_packet (doc/api.md), so 1 ms is a
 * TX lcore that did not have its CPU then (3.6-6.7 ms in issue 31). */
#define START_LATE_NS (1000 * 1000ull)
/* start_at more than a day ahead is a mistake (a date in ms, not s). */
#define START_AT_MAX_S (24 * 3600.0)
#define DRAIN_DEFAULT_NS (200 * 1000 * 1000ull)
/* Captures a server keeps (running or done, until server.reset). */
#define SRV_CAPS_MAX 32
/* capture.fetch: bytes per call at most (a reply of 1.4 MB of base64). */
#define CAP_FETCH_MAX (1u << 20)

/* A WebSocket message holds one request: its frames' headers besides. */
#define WS_SLACK 256

/* Benchmark jobs kept (bench.list): the oldest finished one goes first. */
#define JOBS_MAX 16
/* A job's log kept for bench.result: beyond it, the rest is dropped. */
#define JOB_LOG_MAX (4u << 20)

enum srv_state { ST_IDLE, ST_RUNNING, ST_DONE, ST_BENCH };
/* What a connection speaks: JSON-RPC lines (Unix, --listen), an HTTP
 * request of the console (--http), JSON-RPC messages over the console's
 * WebSocket once upgraded, or HTTP/1.1 requests with bodies, kept alive,
 * of the --otg listener (the OTG API and the console's routes). */
enum conn_proto { PROTO_RPC, PROTO_HTTP, PROTO_WS, PROTO_OTG };

struct otg_req;
struct otg_resp;
struct ssl_st;
struct ssl_ctx_st;

/* A benchmark through the server (bench.start): the library the CLI runs
 * (wr_bench.h), its stream file its own, its log and results kept. */
enum job_state { JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED,
		 JOB_CANCELLED };

struct server;
struct otg_remote;

struct job {
	unsigned int id;
	enum wr_bench_kind kind;
	enum job_state state;
	char session[SESSION_MAX];   /* who started it */
	struct wr_bench_opts o;
	char *strs[40];              /* option strings o points into: one
				      * per option there is, and then some */
	unsigned int n_strs;
	struct wr_stream_file f;
	struct wr_bench b;
	struct wr_bench_hooks hooks;
	struct wr_bench_result r;
	bool has_result;
	volatile int cancel;
	char *log;
	size_t log_len;
	char line[256];              /* the last trial's line */
	struct wr_bench_progress progress;
	uint64_t progress_ms;        /* wr_srv_now_ms() when it came */
	char progress_test[16];
	double queued_at, started_at, finished_at;
	char error[WR_ERROR_MSG_MAX + WR_ERROR_PATH_MAX + 8];
	struct server *s;
};

/* A session owns ports.  Its name is public (ports.info, events); acting as
 * it takes its secret, which only the connection that made it is given
 * (ports.acquire's result) and which its client presents to join it again.
 * It lives while a connection acts as it or it owns a port. */
struct session {
	struct session *next;
	char name[SESSION_MAX];
	char secret[WR_AUTH_SECRET_LEN + 1];
	unsigned int n_conns;        /* connections acting as it */
	char principal[PRINCIPAL_MAX]; /* who made it (struct conn's) */
	unsigned int n_ports;        /* ports it owns */
};

struct conn {
	struct conn *next;
	struct conn *dead_next;      /* closed, to be freed (conn_reap()) */
	int fd;                      /* -1: closed, freed at the end of the turn */
	unsigned int id;
	bool tcp, authed, subscribed;
	bool foreign;                /* the console's, no token: not the server's user */
	char principal[PRINCIPAL_MAX]; /* "" until known (a TCP login) */
	uint32_t peer_uid;           /* with foreign: its uid, UINT32_MAX unknown */
	enum conn_proto proto;
	struct wr_ws_rx ws;          /* PROTO_WS: frames being read */
	bool closing;                /* closed once its queue is written */
	bool spoke;                  /* sent a whole request */
	bool quiet;                  /* handling a notification: no reply, not even an error */
	struct session *sess;        /* NULL only for TCP before its login */
	char peer[WR_AUTH_ADDR_MAX + 8]; /* TCP: "ADDR:PORT", for the log */
	char addr[WR_AUTH_ADDR_MAX];     /* TCP: ADDR, the login limiter's key */
	int pslot;                   /* TCP before login: its slot in the pool */
	uint64_t login_deadline_ms;
	char *rbuf;
	size_t rlen, roff, rcap;     /* requests from roff to rlen */
	char *wbuf;
	size_t wlen, woff, wcap;     /* replies from woff to wlen */
	uint32_t ev_mask;            /* what epoll watches */
	bool held;                   /* not read: its replies are not taken */
	bool parked;                 /* not read: its traffic.stop waits for the drain */
	json_t *stop_id;             /* that traffic.stop's id (parked) */
	bool ready;                  /* whole requests left for a later turn */
	uint64_t turn;               /* the turn it was last served in */
	uint64_t wturn;              /* the turn wrote counts in */
	size_t wrote;                /* bytes written in that turn */
	uint64_t wprog_ms;           /* replies last moved (or the queue was empty) */
	uint64_t last_ms;
	json_t *wait_id;             /* traffic.wait pending (may be JSON null) */
	bool waiting;
	uint64_t wait_deadline_ms;   /* 0: no timeout */
	/* The --otg listener's (tls, wr_server_tls.c). */
	bool otg;                    /* accepted there (PROTO_OTG, or its WS) */
	struct ssl_st *ssl;          /* its TLS; NULL: plain */
	bool tls_wwant;              /* a read needs room to write: EPOLLOUT */
	bool in_otg;                 /* its request is being handled, which
				      * may turn the loop: not read meanwhile,
				      * not freed until it returns */
	bool continued;              /* "100 Continue" sent for the request
				      * at roff */
	/* handlers (wr_server_otg.c): wr_srv_call() runs a method as this
	 * connection, its reply (result or error) kept here, not sent. */
	bool sinking;
	char *sink;                  /* the reply's line (malloc'd) */
};

struct server {
	struct wr_engine *e;
	struct wr_session sess;      /* how traffic.start loads the streams */
	/* Given by the loop (wr_server.c) to the files below it: a whole
	 * request of a connection to the dispatch (wr_server_io.c's), one turn
	 * of the loop while a benchmark job waits (wr_server_jobs.c's). */
	bool (*handle_line)(struct server *s, struct conn *c, const char *line,
			    size_t len);
	void (*loop_turn)(struct server *s, int timeout_ms);
	const struct wr_server_opts *o;
	const volatile int *stop;
	int ep, ufd, tfd, hfd;
	char unix_path[108];
	struct conn *conns;
	struct conn *dead;           /* closed this turn, freed at its end */
	unsigned int n_conns;        /* Unix and logged-in TCP: --max-clients */
	unsigned int n_preauth;      /* TCP before login: PREAUTH_MAX */
	struct conn *pre[PREAUTH_MAX];
	unsigned int next_id, n_ready;
	uint64_t turn;
	uint64_t idle_ms, owner_ms;
	struct session *sessions;
	struct wr_auth_limit logins;
	/* Ports: owning session (NULL none), release deadline of a vanished owner. */
	struct session *owner[WR_PORTS_MAX];
	uint64_t orphan_ms[WR_PORTS_MAX];
	bool link_up[WR_PORTS_MAX];
	uint64_t next_link_ms;
	/* Streams: the loaded set, and whether the engine has it built. */
	bool loaded, built;
	struct wr_stream_file f;
	char *source;                /* the loaded text, for streams.list */
	char source_name[WR_ERROR_FILE_MAX];
	enum srv_state state;
	bool paused[WR_STREAMS_MAX];
	bool ended[WR_STREAMS_MAX];
	bool stopped_some;           /* a traffic.stop of some streams */
	bool duration;               /* started with a duration */
	uint64_t run_count[WR_STREAMS_MAX]; /* each stream's count in this run, 0: none */
	uint64_t deadline_tsc;       /* duration: UINT64_MAX none */
	uint64_t drain_ns;
	/* A stop under way (wr_srv_finish()): the lcores stop sending, then
	 * echoes are received until drain_end_tsc (set once every lcore has
	 * stopped); the loop polls it and answers everyone meanwhile. */
	bool stopping;
	uint64_t drain_end_tsc;      /* 0: not yet (lcores still sending) */
	const char *stop_reason;
	char started_at[40];
	const char *reason;
	/* CLOCK_REALTIME and TSC read together at start: TSC instants to wall time. */
	double ref_wall;
	uint64_t ref_tsc;
	/* traffic.start's start_at (0: none) and its TSC deadline; whether a
	 * first burst later than START_LATE_NS was said (log, event). */
	double start_at;
	uint64_t start_at_tsc;
	bool late_said;
	/* stats.clear baselines, subtracted from what stats.get reports. */
	bool have_base;
	struct wr_report_row base_ports[WR_PORTS_MAX];
	struct wr_report_row base_streams[WR_STREAMS_MAX];
	uint64_t base_elapsed_ns;
	struct wr_latency *base_hist;  /* per stream, WR_STREAMS_MAX, when cleared */
	/* The loaded streams' raw layers for reading captures (made at the
	 * first read after a load; cap_hints_ok false: to be made). */
	struct wr_pkt_hints cap_hints;
	bool cap_hints_ok;
	/* The services' own: each port's hosts counters by name (NULL: no
	 * hosts there), the TCP classes' and engines' counters. */
	json_t *base_hosts[WR_PORTS_MAX];
	struct wr_tcp_read_base base_tcp;
	/* Events, by sequence number (seq % EVENTS_MAX). */
	json_t *ev[EVENTS_MAX];
	uint64_t ev_seq;             /* sequence of the last event, 0: none */
	/* Benchmark jobs, oldest first; the one queued or running. */
	struct job *jobs[JOBS_MAX];
	unsigned int n_jobs, next_job;
	struct job *job;
	/* rtt keeps its port's session (its mbufs may be in the port's
	 * ring) for the next rtt; closed with the server. */
	struct wr_rtt_ses *rtt_ses;
	unsigned int rtt_port;
	uint16_t rtt_max_frame;
	/* Captures (capture.*, section "captures" below). */
	struct srv_cap {
		bool used;
		enum { CAP_ARMED, CAP_RUNNING, CAP_DONE } state;
		unsigned int port;
		enum wr_cap_dir dir;
		struct wr_filter filter;
		bool has_filter;
		struct wr_cap_limits lim;
		char file[WR_CAP_PATH_MAX];
		int engine_id;           /* while running */
		struct wr_cap_status st; /* when done */
		/* capture.open's: a file a client sent, in parts (uploading
		 * until the last), by connection and name. */
		bool uploading;
		unsigned int up_conn;    /* its connection's id (never reused) */
		uint32_t up_part;
		char up_name[128];
		/* Where its records are, and the filters' matches (made at
		 * the first read; wr_server_frames.c). */
		struct cap_index *idx;
	} caps[SRV_CAPS_MAX];
	char cap_dir[WR_CAP_PATH_MAX - 64]; /* room for /capture-N-K.pcapng */
	struct srv_frames *frames;   /* capture.frame's tshark children (wr_server_frames.c) */
	bool cap_dir_made;           /* a temporary directory of ours */
	/* The --otg listener (tls, wr_server_tls.c): its socket, its TLS
	 * context (NULL: http://), its certificate's SHA-256 fingerprint, and
	 * the OTG handler (wr_server_otg.h's) and the listener's requests
	 * (wr_server_otg_http.c's), given by the loop. */
	int ofd;
	struct ssl_ctx_st *tls;
	char tls_fp[3 * 32];
	void (*otg_handle)(struct server *s, struct conn *c,
			   const struct otg_req *rq, struct otg_resp *out);
	ssize_t (*otg_http)(struct server *s, struct conn *c);
	/* handlers (wr_server_otg*.c): the OTG client's config, its plan and
	 * the servers it runs on; NULL until a config is set. */
	struct srv_otg *otg;
	/* multi (wr_server_otg_remote.c): turns of the loop run from inside
	 * a handler waiting for another server; while > 0, connections
	 * closed are not freed (the handler's own and the outer turn's
	 * events still point at them), wr_srv_conn_reap() leaves them for the
	 * outermost turn. */
	unsigned int otg_nest;
	/* traffic.start's hold: the run goes on receiving once its streams
	 * have sent, until traffic.stop or its duration (a receiver of
	 * streams another server sends). */
	bool hold;
	/* Other servers' APIs an OTG config named, open while this one runs
	 * (their sessions own the ports; wr_server_otg_remote.c). */
	struct otg_remote *otg_remotes;
	/* The runs kept (wr_server_runs.c): its store, the trial recorded. */
	struct srv_runs *runs;
};

struct call {
	struct server *s;
	struct conn *c;
	const struct wr_rpc_req *req;
	json_t *id;
	bool close;                  /* set by the handler: close the connection */
};

/*
 * The files, bottom to top: each calls only the files below it (and the
 * helpers above, which are everyone's).  Where a lower file must reach a
 * higher one (a connection's request to the dispatch, a job's wait to the
 * loop), the loop gives it the function in struct server (handle_line,
 * loop_turn) when it starts.
 *
 *   wr_server_sessions.c  sessions, the connections acting as them, ports owned
 *   wr_server_tls.c       TLS of the --otg listener: its connections'
 *                         reads and writes, its certificate
 *   wr_server_io.c        output (replies, errors, events), sockets,
 *                         connections, the console (HTTP, WebSocket)
 *   wr_server_otg_http.c  the --otg listener's HTTP/1.1 requests (bodies,
 *                         keep-alive, who may) to the OTG handler
 *                         (s->otg_handle) or the console's routes; reached
 *                         from io.c through s->otg_http
 *   wr_server_owner.c     what a method checks before it acts
 *   wr_server_caps.c      captures (capture.*)
 *   wr_server_hosts.c     emulated hosts (hosts.*), read from their service
 *   wr_server_tcp.c       stateful classes (tcp.*), read and changed
 *                         through the session (wr_session_tcp.h)
 *   wr_server_runs.c      the runs kept (runs.*): a trial's samples
 *                         from its start to its end, a job's result
 *   wr_server_traffic.c   streams and traffic (streams.*, traffic.*, server.reset)
 *   wr_server_stats.c     statistics (stats.*)
 *   wr_server_jobs.c      benchmark jobs (bench.*)
 *   wr_server_methods.c   ports, sessions, events, logins; the dispatch table
 *   wr_server.c           the loop, its timers and options
 */

/* Clocks: monotonic milliseconds, and wall-clock (Unix) seconds. */
static inline uint64_t
wr_srv_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static inline double
wr_srv_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* wr_server_sessions.c */
void wr_srv_conn_join(struct server *s, struct conn *c, struct session *x);
void wr_srv_conn_leave(struct server *s, struct conn *c);
bool wr_srv_conn_own_session(struct server *s, struct conn *c);
void wr_srv_port_set_owner(struct server *s, unsigned int p, struct session *x);
bool wr_srv_promote(struct server *s, struct conn *c);
struct session *wr_srv_session_find(struct server *s, const char *name);
struct session *wr_srv_session_new(struct server *s, const char *name,
				   const char *principal);

/* wr_server_io.c */
bool wr_srv_conn_queue(struct server *s, struct conn *c, const void *a, size_t an,
		       const void *b, size_t bn);
bool wr_srv_conn_send(struct server *s, struct conn *c, char *line);
void wr_srv_conn_watch(struct server *s, struct conn *c);
void wr_srv_event_push(struct server *s, const char *type, json_t *ev);
size_t wr_srv_queued(const struct conn *c);
bool wr_srv_reply_error(struct server *s, struct conn *c, json_t *id, int code,
			json_t *data, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void wr_srv_set_ready(struct server *s, struct conn *c, bool ready);
void wr_srv_conn_accept(struct server *s, int lfd, bool tcp, enum conn_proto proto);
void wr_srv_conn_close(struct server *s, struct conn *c);
bool wr_srv_conn_flush(struct server *s, struct conn *c);
void wr_srv_conn_reap(struct server *s);
void wr_srv_conn_serve(struct server *s, struct conn *c);
int wr_srv_listen_unix(struct server *s, const char *path, struct wr_error *err);
int wr_srv_open_tcp(const char *opt, const char *host, uint16_t port, bool listen_now,
		    int *fd_out, struct wr_error *err);
int wr_srv_unix_path_check(const char *path, struct wr_error *err);
void wr_srv_web_linger(struct conn *c);
uint32_t wr_srv_peer_uid(int fd, const struct sockaddr_storage *sa);
bool wr_srv_uid_in_group(uint32_t uid, int64_t gid);
/** The console's answer to the request head @p req (@p n bytes; < 0: a
 * malformed one, answered @p status): as web_http() answers it. */
ssize_t wr_srv_web_answer(struct server *s, struct conn *c, ssize_t n,
			  const struct wr_http_req *req, int status);

/* wr_server_tls.c */
/** Reads and writes of a connection, through its TLS when it has one:
 * as recv()/send() (-1 with errno EAGAIN: try later). */
ssize_t wr_srv_io_recv(struct conn *c, void *buf, size_t len);
ssize_t wr_srv_io_send(struct conn *c, const void *buf, size_t len);
/** Bytes its TLS has decrypted and not given yet (epoll cannot see them). */
bool wr_srv_io_pending(const struct conn *c);
/** A new --otg connection: its TLS (accepting).  @return false: close it. */
bool wr_srv_tls_conn(struct server *s, struct conn *c);
void wr_srv_tls_close(struct conn *c);
/** The --otg listener's TLS context: the certificate loaded, or made. */
int wr_srv_tls_open(struct server *s, struct wr_error *err);
void wr_srv_tls_free(struct server *s);
/** Before EAL: --tls-cert/--tls-key/--tls-client-ca load and match. */
int wr_srv_tls_check(const struct wr_server_opts *o, struct wr_error *err);

/* wr_server_otg_http.c */
/** The --otg connection's next request, answered (as next_request()). */
ssize_t wr_srv_otg_http(struct server *s, struct conn *c);

/* wr_server_owner.c */
/** A benchmark job has the engine: @return true (and replied) when one runs. */
bool wr_srv_bench_busy(struct call *k);
bool wr_srv_owns(struct server *s, struct conn *c, json_t *id, uint64_t mask);
uint64_t wr_srv_ports_of(const struct server *s, const bool *sel);
/** The ports of tcp: class @p cls of the loaded file (< 0: every class). */
uint64_t wr_srv_tcp_ports_of(const struct server *s, int cls);

/* wr_server_caps.c */
void wr_srv_caps_begin(struct server *s);
int wr_srv_caps_dir(struct server *s, struct wr_error *err);
void wr_srv_caps_end(struct server *s);
void wr_srv_caps_forget(struct server *s);
void wr_srv_caps_prepare(struct server *s);
json_t *wr_srv_m_cap_fetch(struct call *k);
json_t *wr_srv_m_cap_start(struct call *k);
json_t *wr_srv_m_cap_status(struct call *k);
json_t *wr_srv_m_cap_stop(struct call *k);

/* wr_server_frames.c */
json_t *wr_srv_m_frame(struct call *k);
json_t *wr_srv_m_cap_open(struct call *k);
json_t *wr_srv_m_cap_read(struct call *k);
json_t *wr_srv_m_cap_frame(struct call *k);
void wr_srv_frames_tick(struct server *s);
void wr_srv_frames_free(struct server *s);

/* wr_server_capidx.c */
/* One record of a capture's files, as a walk meets it. */
struct rec {
	uint64_t n;                  /* 1-based, across a ring's files */
	const struct pcap_pkthdr *h;
	const uint8_t *data;
	double t;                    /* seconds since the first record */
};

typedef int rec_fn(void *arg, const struct rec *r);

/* A mark at each file's first record and every IDX_STEP-th after it in
 * that file: record n is at most IDX_STEP - 1 reads past the last mark
 * at or before it.  1,000,000 records: 15,625 marks, 375 KB. */
#define IDX_STEP 64
/* The filters whose matches a capture keeps (what the page's filter box
 * had lately); the least recently used goes. */
#define IDX_FILTERS 4

struct cap_mark {
	uint64_t rec;       /* its record's number */
	uint64_t off;       /* where libpcap reads that record from */
	uint32_t file;      /* in the ring's file of this index */
};

struct cap_match {
	char *expr;         /* NULL: free */
	uint64_t n;         /* records it takes */
	uint64_t *rec;      /* their numbers, ascending */
	uint64_t used;
};

struct cap_index {
	uint64_t n;                 /* records */
	long t0_s, t0_ns;           /* the first record's time */
	struct cap_mark *mark;
	uint64_t n_marks, cap_marks;
	struct cap_match match[IDX_FILTERS];
	uint64_t clock;
};

/* Reading records by number through the index: one file open at a time,
 * read forward from where it stands when the record is ahead within its
 * mark, else from the mark. */
struct cap_reader {
	const struct srv_cap *c;
	pcap_t *p;
	uint32_t file;
	uint64_t next;          /* the record pcap_next_ex() gives next */
	struct rec r;
};

/*
 * Every record of capture @p c (each file of its ring in turn) through
 * @p fn until it returns non-zero.  @return 0 (or fn's value), or -EINVAL
 * with what libpcap said and the record's number in @p why.
 */
int wr_srv_cap_walk(const struct srv_cap *c, rec_fn *fn, void *arg, char *why,
		    size_t why_len);
/** Capture @p c's index, made if it has none.  @return 0, -EINVAL (why),
 * -ENOMEM. */
int wr_srv_cap_index(struct srv_cap *c, char *why, size_t why_len);
/** Forget capture @p c's index (before its slot is cleared). */
void wr_srv_cap_index_free(struct srv_cap *c);
/** Record @p n (1-based) of @p rd's indexed capture into rd->r (valid
 * until the next read).  @return 0, -ENOENT (no such record), -EINVAL. */
int wr_srv_cap_reader_get(struct cap_reader *rd, uint64_t n, char *why,
			  size_t why_len);
void wr_srv_cap_reader_close(struct cap_reader *rd);
/** The records filter @p flt (its text @p expr) takes in indexed capture
 * @p c, kept by the text.  NULL with @p *rc -EINVAL (why) or -ENOMEM. */
const struct cap_match *wr_srv_cap_matches(struct srv_cap *c,
					   struct wr_filter *flt,
					   const char *expr, char *why,
					   size_t why_len, int *rc);

/* wr_server_hosts.c */
/** stats.get's "hosts": hosts.counters' entry of each port with hosts
 * (a port whose service did not answer is left out); NULL: no hosts. */
json_t *wr_srv_hosts_json(struct server *s);
/** stats.clear: each port's hosts counters now, into @p base (the ports
 * without hosts NULL).  @return 0; -ETIMEDOUT (@p *port did not answer:
 * @p base then empty), -ENOMEM. */
int wr_srv_hosts_base(struct server *s, json_t *base[WR_PORTS_MAX],
		      unsigned int *port);
json_t *wr_srv_m_hosts_counters(struct call *k);
json_t *wr_srv_m_hosts_list(struct call *k);

/* wr_server_tcp.c */
/** stats.get's "tcp" (wr_tcp_read_json()); NULL: no stateful classes ran. */
json_t *wr_srv_tcp_json(struct server *s, bool hist);
/** A run with tcp: classes is over when its clients are (streams too). */
bool wr_srv_tcp_running(struct server *s);
json_t *wr_srv_m_tcp_list(struct call *k);
json_t *wr_srv_m_tcp_stats(struct call *k);
json_t *wr_srv_m_tcp_set(struct call *k);

/* wr_server_runs.c */
struct srv_runs;
/** --runs-dir opened (none given: nothing kept, the methods list none). */
int wr_srv_runs_open(struct server *s, struct wr_error *err);
void wr_srv_runs_free(struct server *s);
/** A trial started (traffic.start), a turn while it runs (a sample a
 * second), its end (the final counters collected): then it is kept. */
void wr_srv_runs_begin(struct server *s);
void wr_srv_runs_tick(struct server *s);
void wr_srv_runs_end(struct server *s);
/** A benchmark job ended: kept with its result. */
void wr_srv_runs_job(struct server *s, struct job *j);
/** A latency histogram as stats.get gives it: [[lo_ns, hi_ns, count], ...]. */
json_t *wr_srv_hist_json(const struct wr_latency *h);
json_t *wr_srv_m_runs_delete(struct call *k);
json_t *wr_srv_m_runs_get(struct call *k);
json_t *wr_srv_m_runs_list(struct call *k);

/* wr_server_traffic.c */
extern const char *const wr_srv_state_names[];
/** TSC instant @p t in wall-clock (Unix) time: against start_at's own
 * deadline when the run had one, else the start's reference pair. */
double wr_srv_tsc_wall(const struct server *s, uint64_t t);
/** How long after the start_at deadline TSC instant @p t is, in ns. */
int64_t wr_srv_late_ns(const struct server *s, uint64_t t);
/** Once a run's first burst is known: more than START_LATE_NS after its
 * start_at is a log line and a traffic_late event (the main loop). */
void wr_srv_late_check(struct server *s);
void wr_srv_finish(struct server *s, const char *reason);
void wr_srv_finish_now(struct server *s, const char *reason, bool drain);
int wr_srv_parse_streams(struct server *s, const char *name, const char *text,
			 struct wr_stream_file *f, struct wr_error *err);
void wr_srv_traffic_tick(struct server *s);
void wr_srv_unbuild(struct server *s);
json_t *wr_srv_yaml_error_data(const struct wr_error *err, char *line, size_t len);
json_t *wr_srv_m_check(struct call *k);
json_t *wr_srv_m_list(struct call *k);
json_t *wr_srv_m_protocols(struct call *k);
json_t *wr_srv_m_parse(struct call *k);
json_t *wr_srv_m_load(struct call *k);
json_t *wr_srv_m_pause(struct call *k);
json_t *wr_srv_m_remove(struct call *k);
json_t *wr_srv_m_reset(struct call *k);
json_t *wr_srv_m_resume(struct call *k);
json_t *wr_srv_m_start(struct call *k);
json_t *wr_srv_m_stop(struct call *k);
json_t *wr_srv_m_update(struct call *k);
json_t *wr_srv_m_wait(struct call *k);

/* wr_server_stats.c */
json_t *wr_srv_m_clear(struct call *k);
json_t *wr_srv_m_stats(struct call *k);
json_t *wr_srv_stats_json(struct server *s, bool hist);

/* wr_server_jobs.c */
extern const char *const wr_srv_job_state_names[];
void wr_srv_job_free(struct job *j);
void wr_srv_job_run(struct server *s);
json_t *wr_srv_m_bench_cancel(struct call *k);
json_t *wr_srv_m_bench_list(struct call *k);
json_t *wr_srv_m_bench_result(struct call *k);
json_t *wr_srv_m_bench_start(struct call *k);
json_t *wr_srv_m_bench_status(struct call *k);

/* wr_server_methods.c */
/** Run the handler of @p k's method (wr_srv_call()).  NULL: it replied
 * itself (an error) or defers. */
json_t *wr_srv_method_run(struct call *k);
/** Dispatch one line.  @return false when the connection must close. */
bool wr_srv_handle_line(struct server *s, struct conn *c, const char *line, size_t len);
void wr_srv_logins_summary(struct server *s, uint64_t now);

#endif /* WR_SERVER_PRIV_H */

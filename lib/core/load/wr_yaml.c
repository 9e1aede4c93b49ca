/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_yaml: the stream-file loader, YAML tree to a validated struct wr_stream_file. */

/*
 * Every key of a stream file (version 1).  Anything else is an error.
 *
 * Top level
 *   version: 1        required; the only version this loader reads.
 *   seed: <u64>       optional, default 1; the seed of every stream that
 *                     does not set its own.
 *   loops: <u64>      passes through a sequence whose streams end with
 *                     `next: first` (0 = for ever, the default, as
 *                     Ostinato's "goto first"); an error when no stream
 *                     says `next:`.
 *   tcp: [...]        classes of TCP connections on the hosts: groups
 *                     (wr_yaml_tcp.c, doc/tcp.md); a file with tcp: may
 *                     leave streams: out.
 *   streams: [...]    required, 1..256 (WR_STREAMS_MAX) stream mappings.
 *                     A stream's index is its position in this list.
 *
 * Stream
 *   name: <text>      required; 1..63 characters of [A-Za-z0-9_.-], unique
 *                     in the file (it names the stream in reports).
 *   port: <int>       0..31 (WR_PORTS_MAX - 1), default 0: index into the
 *                     profile's ports.
 *   size: ...         frame size with FCS; default the smallest frame that
 *                     holds headers, signature and string, 64 at least:
 *                       <int> 64..9018        fixed
 *                       imix                  simple IMIX 64:7, 594:4, 1518:1
 *                       {inc: {from, to, step}}   step default 1
 *                       {random: {min, max}}
 *                       {mix: [{size, weight}, ...]}  1..1024 entries,
 *                                             weights >= 1, sum <= 1000000
 *   count: <u64>|unlimited   frames to send, default unlimited (0 also
 *                     means unlimited).
 *   rate: ...         default max; "250 kpps", "1.2 Mpps", "10 Gbps L1",
 *                     "800 Mbps L2", "50%" (wr_parse_rate()).
 *   seed: <u64>       optional, overrides the file's seed for this stream.
 *   latency: <bool>|loss   default false; true carries a wr_sig after UDP
 *                     (loss, reorder, latency): 24 bytes, or the 18-byte
 *                     compact one where 24 do not fit (64-byte frames);
 *                     loss the 16-byte loss-only one.
 *   vary: together|product   how varying fields combine, default together
 *                     (enum wr_combine).
 *   eth:  {src, dst}  MACs, default 02:00:00:00:00:01 -> 02:00:00:00:00:02
 *                     (locally administered: they cannot clash with a
 *                     vendor's address).  dst: arp resolves the next hop's
 *                     MAC by ARP when the run starts (doc/arp.md): the next
 *                     hop is ipv4.gateway when given, else ipv4.dst, which
 *                     must then be fixed; a `wirerate check` or `dump`
 *                     shows the default dst in its place.
 *   vlan: {id, pcp}   optional; its presence adds an 802.1Q tag.  id
 *                     required 0..4095, pcp 0..7 default 0.
 *   ipv4: {src, dst, ttl, dscp, ecn, id, df}
 *                     src/dst default 198.18.0.1 -> 198.19.0.1 (RFC 2544
 *                     appendix C.2.2: 198.18.0.0/15 is for benchmarking),
 *                     ttl 0..255 default 64, dscp 0..63 default 0, id
 *                     0..65535 default 0, ecn 0..3 default 0 (fixed only),
 *                     df true|false default true (fixed only).
 *                     gateway: a dotted quad, only with eth: {dst: arp}:
 *                     the router whose MAC eth.dst resolves to (ipv4.dst
 *                     may then vary: every frame goes through the router).
 *   udp:  {src, dst}  ports 0..65535, default 1024 -> 1024.
 *   src: hosts.NAME   the stream sends from the hosts of group NAME (on
 *                     its port): frame k from host k mod count, its MAC,
 *                     VLAN IDs and IPv4 or first global IPv6 address in
 *                     eth.src, the tags' vlan.id and the outermost IP src
 *                     (doc/hosts.md, "Streams from hosts"; a field of its
 *                     own may say hosts.NAME instead: eth.src, vlan.id,
 *                     ipv4.src, ipv6.src).
 *   dst: hosts.NAME.groups   to the multicast groups group NAME joins
 *                     (igmp:, mld:): eth.dst and the outermost IP dst;
 *                     ipv4.dst / ipv6.dst / eth.dst may say so alone.
 *   payload: zeros | inc | {pattern: "<hex>"} | {string: "<text>"}
 *                     default zeros; a pattern repeats, a string is
 *                     followed by zeros and must fit the smallest frame.
 *
 * Schedules (wr_sched.h; all optional)
 *   duration: <dur>   "5s", "500ms", ...: an activation of the stream ends
 *                     after this long, or after `count` frames, whichever
 *                     comes first.
 *   burst: <int>      1..512 (WR_BURST_MAX): frames per TX burst for this
 *                     stream, instead of the profile's `burst`; 1 spaces
 *                     every frame on its own.
 *   bursts: {frames: N, gap: <dur>}
 *                     trains of N (1..1000000) frames at the stream's rate
 *                     (back to back with rate max), gap > 0 from a train's
 *                     last frame to the next train's first.
 *   next: next|first|stop
 *                     what follows the stream in its port's sequence
 *                     (wr_order).  When any stream of a port says `next:`,
 *                     the streams of that port run one at a time in file
 *                     order instead of together (those without `next:` say
 *                     next), so each of them must end: count, duration or
 *                     a ramp with at_end: stop.
 *   ramp: {shape, from, to, step, step_time, at_end}
 *                     shape staircase (default) | linear; from, to, step
 *                     rates as `rate:` but not max; step_time a duration
 *                     > 0; at_end hold (default) | stop.  Replaces `rate:`
 *                     (giving both is an error) and cannot be combined
 *                     with `bursts:`.
 *
 * Varying header fields (eth.*, vlan.*, ipv4 src/dst/ttl/dscp/id, udp.*,
 * every field of a stack layer): instead of a scalar, a vary mapping in
 * the grammar of wr_vary.h (inc, dec, random, list), read by
 * wr_vary_parse().
 *
 * Across keys: the smallest frame must hold the stack's headers (eth 14 +
 * vlan 4 + ipv4 20 + udp 8 for the shorthand) (+ signature 24 with latency)
 * + a string payload + FCS 4; else the error is at `size`, saying what is
 * needed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "wr_config.h"
#include "wr_fe.h"
#include "wr_replay_yaml.h"
#include "wr_stream_hosts.h"
#include "wr_yaml.h"
#include "wr_yaml_priv.h"
#include "wr_ytree.h"

#define DEFAULT_SEED 1
#define DEFAULT_SIZE 64

static const char *const top_keys[] = {
	"version", "seed", "loops", "rx_classes", "hosts", "tcp", "streams",
	NULL
};
static const char *const stream_keys[] = {
	"name", "port", "size", "count", "rate", "seed", "latency", "vary",
	"eth", "vlan", "ipv4", "udp", "payload", "duration", "burst", "bursts",
	"next", "ramp", "stack", "gateway", "isg", "src", "dst", WR_REPLAY_KEYS,
	WR_FE_KEYS, NULL
};
static const char *const next_names[] = {
#define WR_X(e, name) [WR_SCHED_NEXT_##e] = name,
	WR_SCHED_NEXTS(WR_X)
#undef WR_X
	NULL
};

static const char *const combine_names[] = {
	[WR_COMBINE_TOGETHER] = "together",
	[WR_COMBINE_PRODUCT] = "product",
};

static int
parse_name(struct wr_ywalk *w, const struct wr_ynode *n, char *name)
{
	static const char what[] = "a name of 1 to 63 letters, digits, "
				   "'_', '.' or '-'";
	const char *t = wr_ynode_text(n);
	size_t i, len = strlen(t);

	if (len == 0 || len >= WR_STREAM_NAME_MAX)
		return wr_ywalk_expected(w, n, what);
	for (i = 0; i < len; i++) {
		char c = t[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' ||
		      c == '-'))
			return wr_ywalk_expected(w, n, what);
	}
	memcpy(name, t, len + 1);
	return 0;
}

static int
parse_count(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *count)
{
	if (strcmp(wr_ynode_text(n), "unlimited") == 0) {
		*count = 0;
		return 0;
	}
	if (wr_parse_u64(wr_ynode_text(n), 0, UINT64_MAX, count, NULL, 0) == 0)
		return 0;
	return wr_ywalk_expected(w, n, "a frame count (an unsigned 64-bit "
				 "integer) or unlimited");
}

static int
parse_vary(struct wr_ywalk *w, const struct wr_ynode *n, enum wr_combine *c)
{
	const char *t = wr_ynode_text(n);

	if (strcmp(t, combine_names[WR_COMBINE_TOGETHER]) == 0)
		*c = WR_COMBINE_TOGETHER;
	else if (strcmp(t, combine_names[WR_COMBINE_PRODUCT]) == 0)
		*c = WR_COMBINE_PRODUCT;
	else
		return wr_ywalk_expected(w, n, "together or product");
	return 0;
}

static void
stream_defaults(struct wr_stream *s, const struct wr_ynode *n, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->mark.line = n->line;
	s->mark.col = n->col;
	s->rate.unit = WR_RATE_MAX;
	s->seed = seed;
	s->combine = WR_COMBINE_TOGETHER;
	s->size.mode = WR_SIZE_FIXED;
	s->size.fixed = s->size.min = s->size.max = DEFAULT_SIZE;
	s->payload.kind = WR_PAYLOAD_ZEROS;
}

static int
parse_stream(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t file_seed,
	     struct wr_stream *s)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	stream_defaults(s, n, file_seed);
	rc = wr_ywalk_keys(w, n, "a stream mapping {name, size, rate, ...}",
			   stream_keys);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "name");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "name");
	rc = WR_YWALK_KEY(w, "name", parse_name(w, v, s->name));
	if (rc == 0 && (v = wr_ynode_get(n, "port")) != NULL) {
		rc = WR_YWALK_KEY(w, "port", wr_ywalk_u64(w, v, 0, WR_PORTS_MAX - 1,
						      &u));
		s->port = (uint16_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "seed")) != NULL) {
		rc = WR_YWALK_KEY(w, "seed", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						      &s->seed));
		s->seed_set = true;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "count")) != NULL)
		rc = WR_YWALK_KEY(w, "count", parse_count(w, v, &s->count));
	if (rc == 0 && (v = wr_ynode_get(n, "rate")) != NULL)
		rc = WR_YWALK_KEY(w, "rate", wr_yaml_rate(w, v, &s->rate));
	if (rc == 0 && (v = wr_ynode_get(n, "latency")) != NULL)
		rc = WR_YWALK_KEY(w, "latency", wr_yaml_latency(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "vary")) != NULL)
		rc = WR_YWALK_KEY(w, "vary", parse_vary(w, v, &s->combine));
	if (rc == 0)
		rc = wr_yaml_headers(w, n, s);
	if (rc == 0)
		rc = wr_yaml_stream_hosts(w, n, s);
	if (rc == 0 && (v = wr_ynode_get(n, "size")) != NULL)
		rc = WR_YWALK_KEY(w, "size", wr_yaml_size(w, v, &s->size));
	if (rc == 0 && (v = wr_ynode_get(n, "payload")) != NULL)
		rc = WR_YWALK_KEY(w, "payload", wr_yaml_payload(w, v, &s->payload));
	if (rc == 0 && (v = wr_ynode_get(n, "duration")) != NULL)
		rc = WR_YWALK_KEY(w, "duration", wr_yaml_duration(w, v,
							&s->duration_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "isg")) != NULL)
		rc = WR_YWALK_KEY(w, "isg", wr_yaml_duration(w, v, &s->isg_ns));
	if (rc == 0 && (v = wr_ynode_get(n, "burst")) != NULL) {
		rc = WR_YWALK_KEY(w, "burst", wr_ywalk_u64(w, v, 1, WR_BURST_MAX,
							   &u));
		s->burst = (uint32_t)u;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "bursts")) != NULL)
		rc = WR_YWALK_KEY(w, "bursts", wr_yaml_bursts(w, v, s));
	if (rc == 0 && (v = wr_ynode_get(n, "next")) != NULL) {
		int i = WR_YWALK_KEY(w, "next", wr_yaml_name_of(w, v, next_names,
						"next, first or stop"));

		rc = i < 0 ? i : 0;
		s->has_next = i >= 0;
		s->next = i >= 0 ? (enum wr_sched_next)i : WR_SCHED_NEXT_NEXT;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "ramp")) != NULL)
		rc = WR_YWALK_KEY(w, "ramp", wr_yaml_ramp(w, v, s));
	if (rc == 0 && wr_fe_yaml_wants(n))
		rc = wr_fe_yaml_parse(w, n, s);
	else if (rc == 0)
		rc = wr_replay_yaml_parse(w, n, s);
	if (rc == 0)
		rc = wr_yaml_check_schedule(w, n, s);
	if (rc == 0)
		rc = wr_yaml_check_fit(w, n, s);
	if (rc == 0 && s->dst_arp)
		rc = wr_yaml_check_resolve(w, n, s);
	if (rc == 0 && s->replay == NULL && s->fe == NULL)
		rc = wr_yaml_check_stack(w, s);
	return rc;
}

static bool
any_next(const struct wr_stream_file *f)
{
	uint32_t i;

	for (i = 0; i < f->n_streams; i++)
		if (f->streams[i].has_next)
			return true;
	return false;
}

/* In a sequence the next stream starts when the active one ends, so each
 * stream of a sequenced port must end by itself. */
static int
check_sequences(struct wr_ywalk *w, const struct wr_ynode *list,
		const struct wr_stream_file *f)
{
	uint32_t i, j;
	size_t old;
	int rc;

	for (i = 0; i < f->n_streams; i++) {
		const struct wr_stream *s = &f->streams[i];

		if (s->count != 0 || s->duration_ns != 0 ||
		    (s->has_ramp && s->ramp.at_end == WR_RAMP_END_STOP) ||
		    !wr_stream_file_port_sequenced(f, s->port))
			continue;
		for (j = 0; j < f->n_streams; j++)
			if (f->streams[j].port == s->port &&
			    f->streams[j].has_next)
				break;
		old = wr_ywalk_push_index(w, i);
		rc = wr_ywalk_fail(w, list->kids[i], "port %u runs its streams "
			"one after another (streams[%u] says next:), so this "
			"stream must end: give it count, duration or a ramp "
			"with at_end: stop", s->port, j);
		wr_ywalk_pop(w, old);
		return rc;
	}
	return 0;
}

static int
parse_file(struct wr_ywalk *w, const struct wr_ynode *root,
	   struct wr_stream_file *f)
{
	const struct wr_ynode *v, *list;
	size_t i, j, old;
	int rc;

	rc = wr_ywalk_version(w, root, WR_FILE_VERSION, &f->version);
	if (rc == 0)
		rc = wr_ywalk_keys(w, root, "a mapping {version, seed, streams}",
				   top_keys);
	if (rc != 0)
		return rc;
	f->seed = DEFAULT_SEED;
	v = wr_ynode_get(root, "seed");
	if (v != NULL) {
		rc = WR_YWALK_KEY(w, "seed", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						      &f->seed));
		if (rc != 0)
			return rc;
		f->seed_set = true;
	}
	v = wr_ynode_get(root, "loops");
	if (v != NULL) {
		rc = WR_YWALK_KEY(w, "loops", wr_ywalk_u64(w, v, 0, UINT64_MAX,
						       &f->loops));
		if (rc != 0)
			return rc;
	}
	if (wr_ynode_get(root, "rx_classes") != NULL) {
		rc = WR_YWALK_KEY(w, "rx_classes", wr_rx_classes_parse(w,
				  wr_ynode_get(root, "rx_classes"), &f->classes));
		if (rc != 0)
			return rc;
	}
	if (wr_ynode_get(root, "hosts") != NULL &&
	    (rc = WR_YWALK_KEY(w, "hosts", wr_yaml_hosts(w, wr_ynode_get(root, "hosts"), &f->hosts))) != 0)
		return rc;
	if (wr_ynode_get(root, "tcp") != NULL &&
	    (rc = WR_YWALK_KEY(w, "tcp", wr_yaml_tcp(w, wr_ynode_get(root, "tcp"), &f->hosts, &f->tcp))) != 0)
		return rc;
	list = wr_ynode_get(root, "streams");
	/* A file of tcp classes alone needs no stateless stream; nor one of
	 * hosts alone (an OTG config's devices without flows: they answer
	 * ARP and ND and resolve their gateways). */
	if (list == NULL && (f->tcp.n > 0 || f->hosts.n > 0) && v == NULL)
		return 0;
	if (list == NULL)
		return wr_ywalk_missing(w, root, "streams");
	old = wr_ywalk_push_key(w, "streams");
	if (list->type != WR_YNODE_SEQ)
		rc = wr_ywalk_expected(w, list, "a list of streams");
	else if (list->n_kids == 0)
		rc = wr_ywalk_fail(w, list, "expected at least one stream, "
				   "got an empty list");
	else if (list->n_kids > WR_STREAMS_MAX)
		rc = wr_ywalk_fail(w, list, "expected at most %u streams, "
				   "got %zu", WR_STREAMS_MAX, list->n_kids);
	if (rc != 0)
		goto out;
	f->streams = calloc(list->n_kids, sizeof(*f->streams));
	if (f->streams == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < list->n_kids && rc == 0; i++) {
		size_t oi = wr_ywalk_push_index(w, i);

		/* Counted before parsing so a half-parsed stream is freed. */
		f->n_streams = (uint32_t)i + 1;
		rc = parse_stream(w, list->kids[i], f->seed, &f->streams[i]);
		for (j = 0; j < i && rc == 0; j++) {
			const struct wr_ynode *name;

			if (strcmp(f->streams[j].name, f->streams[i].name) != 0)
				continue;
			name = wr_ynode_get(list->kids[i], "name");
			rc = WR_YWALK_KEY(w, "name", wr_ywalk_fail(w, name,
				"duplicate stream name \"%s\" (first at line %u)",
				f->streams[i].name,
				wr_ynode_get(list->kids[j], "name")->line));
		}
		wr_ywalk_pop(w, oi);
	}
	if (rc == 0)
		rc = check_sequences(w, list, f);
	/* Streams' fields from hosts, now that both are read; the filled
	 * fields go through the frame compiler as the file's own do. */
	if (rc == 0) {
		wr_ywalk_pop(w, old);
		rc = wr_yaml_hosts_resolve(w, f, &f->hosts);
		old = wr_ywalk_push_key(w, "streams");
	}
	for (i = 0; rc == 0 && i < f->n_streams; i++) {
		size_t oi;

		if (f->streams[i].n_host_refs == 0)
			continue;
		oi = wr_ywalk_push_index(w, i);
		rc = wr_yaml_check_stack(w, &f->streams[i]);
		wr_ywalk_pop(w, oi);
	}
out:
	wr_ywalk_pop(w, old);
	if (rc == 0 && v != NULL && !any_next(f))
		rc = WR_YWALK_KEY(w, "loops", wr_ywalk_fail(w, v, "loops repeats "
			"a sequence, but no stream says next: (add next: first "
			"to the last stream of the sequence)"));
	return rc;
}

int
wr_yaml_load_streams_buf(const char *name, const char *buf, size_t len,
			 struct wr_stream_file *out, struct wr_error *err)
{
	return wr_yaml_load_streams_at(name, buf, len, WR_YAML_PCAP_ANY, out,
				       err);
}

int
wr_yaml_load_streams_at(const char *name, const char *buf, size_t len,
			int pcap_dir, struct wr_stream_file *out,
			struct wr_error *err)
{
	struct wr_stream_file f;
	struct wr_ynode *root = NULL;
	struct wr_ywalk w;
	int rc;

	memset(out, 0, sizeof(*out));
	wr_error_clear(err);
	memset(&f, 0, sizeof(f));
	rc = wr_ytree_parse(name, buf, len, &root, err);
	if (rc != 0)
		return rc;
	wr_ywalk_init(&w, name, err);
	w.pcap_dir = pcap_dir;
	if (root == NULL || (root->type == WR_YNODE_SCALAR && root->len == 0))
		rc = wr_error_set(err, -EINVAL, name, root ? root->line : 1,
				  root ? root->col : 1, NULL,
				  "the file is empty: expected a mapping with "
				  "version: %u and streams", WR_FILE_VERSION);
	else if (root->type != WR_YNODE_MAP)
		rc = wr_ywalk_expected(&w, root,
				       "a mapping with version and streams");
	else
		rc = parse_file(&w, root, &f);
	wr_ytree_free(root);
	/* The digest names exactly the bytes that were read, so a results
	 * file can say which stream file produced it. */
	if (rc == 0 && EVP_Digest(buf, len, f.sha256, NULL, EVP_sha256(),
				  NULL) != 1)
		rc = wr_error_set(err, -EIO, name, 0, 0, NULL,
				  "sha256 of the file failed");
	if (rc == -ENOMEM && err != NULL && err->msg[0] == '\0')
		wr_error_set(err, rc, name, 0, 0, NULL, "out of memory");
	if (rc != 0) {
		wr_stream_file_free(&f);
		return rc;
	}
	snprintf(f.path, sizeof(f.path), "%s", name);
	*out = f;
	return 0;
}

int
wr_yaml_load_streams(const char *path, struct wr_stream_file *out,
		     struct wr_error *err)
{
	size_t len;
	char *buf;
	int rc;

	memset(out, 0, sizeof(*out));
	wr_error_clear(err);
	rc = wr_ytree_read_file(path, &buf, &len, err);
	if (rc != 0)
		return rc;
	rc = wr_yaml_load_streams_buf(path, buf, len, out, err);
	free(buf);
	return rc;
}


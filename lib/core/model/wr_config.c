/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_config: the profile loader, YAML tree to a validated struct wr_config. */

/*
 * Every key of a profile (version 1).  Anything else is an error.
 *
 *   version: 1              required; the only version this loader reads.
 *   eal: [<text>, ...]      optional, 0..64 (WR_EAL_ARGS_MAX) non-empty EAL
 *                           arguments, passed after the program name in
 *                           this order ("--lcores=0@0,1@1", "-a", "0000:3b:00.0").
 *   ports: [...]            optional, 1..32 (WR_PORTS_MAX) port mappings;
 *                           leave it out to use every port EAL probed.
 *                           A stream's `port: N` is the N-th entry.
 *     device: <text>        required; the name EAL gives the port (a vdev
 *                           name such as net_null0, or a PCI address),
 *                           1..127 characters, unique in the profile.
 *     tx_lcores: [<int>...] optional, 0..16 distinct lcore ids, one TX queue
 *                           each; left out: assigned automatically; []: the
 *                           port only receives (no stream may use it).
 *     rx_lcores: [<int>...] optional, 0..16 distinct lcore ids, one RX queue
 *                           each (RSS or the peer's queue pairs fill them,
 *                           doc/rx.md); may be TX lcores of this or another
 *                           port; left out: the port's first TX lcore;
 *                           []: the port only sends (nothing it receives
 *                           is counted, echoes included).
 *     rx_lcore: <int>       optional, the same as rx_lcores: [<int>]; not
 *                           with rx_lcores.
 *     txd: <int>            optional TX / RX descriptor ring sizes: a power
 *     rxd: <int>            of two in 64..4096; left out: the app's default.
 *     arp: <bool>           optional, default false: poll the port's RX and
 *                           answer ARP requests and ICMP echo requests for
 *                           the source addresses of the port's streams
 *                           (doc/arp.md); also on with `run --arp`, and on a
 *                           port whose streams resolve eth.dst by ARP.
 *     src_mac: <MAC>        optional: the source MAC of the port's streams
 *                           whose eth says `src: port` (default: the
 *                           port's own); TRex's port src_mac.
 *     dst_mac: <MAC>        optional: the destination of those that say
 *                           `dst: port` (default 02:00:00:00:00:02); TRex's
 *                           port dest_mac (doc/trex.md).
 *   burst: <int>            1..512 (WR_BURST_MAX), default 64: frames per
 *                           rte_eth_tx_burst() call.
 *   stats_interval_ms: <int> 100..60000, default 1000.
 *   link_wait_ms: <int>     0..60000, default 5000: how long to wait for
 *                           link up before starting.
 *   settle_ms: <int>        0..60000, default 0: how long to wait after
 *                           every link is up before the first frame (a
 *                           peer such as a memif client may report link up
 *                           before it forwards in both directions).
 *   rx_classes: [...]       optional, up to 16 named tcpdump filters
 *                           counting received frames without our signature
 *                           per port (wr_filter.h); a stream file may add
 *                           more.
 *   max_frame: <int>        64..9018, optional: the largest frame (bytes,
 *                           FCS included) the ports must send and receive;
 *                           above 1518 their MTU and RX buffers are raised
 *                           for it (wr_port_setup).  run, sweep and rfc2544
 *                           raise it to their own largest frame; `serve`,
 *                           which learns its streams later, needs it for
 *                           jumbo frames.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_config.h"
#include "wr_runtime.h"
#include "wr_parse.h"
#include "wr_ytree.h"

#define PROFILE_VERSION 1
/* Defaults: a 64-frame burst amortises the PMD call and the doorbell
 * write over more frames than testpmd's default 32 while a burst of 64-byte
 * mbufs still fits in L1; one report line a second; 5 s covers a NIC's
 * autonegotiation (2-3 s is common on 10GbE). */
#define DEFAULT_BURST 64
#define DEFAULT_STATS_INTERVAL_MS 1000
#define DEFAULT_LINK_WAIT_MS 5000
/* Below 100 ms the reporting costs more than it tells; above a minute a
 * run looks hung. */
#define STATS_INTERVAL_MIN_MS 100
#define STATS_INTERVAL_MAX_MS 60000
#define LINK_WAIT_MAX_MS 60000
/* Same bound as link_wait_ms: a settle time above a minute is a mistake. */
#define SETTLE_MAX_MS 60000
/* The smallest Ethernet frame and the largest wirerate builds (WR_FRAME_MAX,
 * RFC 2544's jumbo size), FCS included. */
#define MAX_FRAME_MIN 64
#define MAX_FRAME_MAX 9018
/* Descriptor rings: 64 is below any NIC's useful minimum, 4096 is the
 * largest most PMDs accept (ixgbe, i40e, ice); a power of two because
 * several PMDs require it. */
#define DESC_MIN 64
#define DESC_MAX 4096
/* lcore ids are below RTE_MAX_LCORE (128 in Debian's DPDK build).  The core
 * library cannot see DPDK, so it takes anything below 1024 and the app
 * checks the real bound after rte_eal_init(). */
#define LCORE_ID_MAX 1023

static const char *const top_keys[] = {
	"version", "eal", "ports", "burst", "stats_interval_ms",
	"link_wait_ms", "settle_ms", "max_frame", "rx_classes", NULL
};
static const char *const port_keys[] = {
	"device", "tx_lcores", "rx_lcores", "rx_lcore", "txd", "rxd", "arp",
	"src_mac", "dst_mac", NULL
};

void
wr_config_init(struct wr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->burst = DEFAULT_BURST;
	cfg->stats_interval_ms = DEFAULT_STATS_INTERVAL_MS;
	cfg->link_wait_ms = DEFAULT_LINK_WAIT_MS;
}

void
wr_config_free(struct wr_config *cfg)
{
	unsigned int i;

	if (cfg == NULL)
		return;
	for (i = 0; i < cfg->n_eal_args; i++) {
		free(cfg->eal_args[i]);
		cfg->eal_args[i] = NULL;
	}
	cfg->n_eal_args = 0;
	wr_rx_classes_free(&cfg->classes);
}

static int
parse_eal(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_config *cfg)
{
	char why[WR_RUNTIME_PREFIX_MAX + 160];
	const struct wr_ynode *a;
	const char *name;
	size_t i, old;
	int rc = 0, k, at;

	if (n->type != WR_YNODE_SEQ)
		return wr_ywalk_expected(w, n, "a list of EAL arguments");
	if (n->n_kids > WR_EAL_ARGS_MAX)
		return wr_ywalk_fail(w, n, "expected at most %u EAL arguments, "
				     "got %zu", WR_EAL_ARGS_MAX, n->n_kids);
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		a = n->kids[i];
		old = wr_ywalk_push_index(w, i);
		if (wr_ynode_text(a)[0] == '\0') {
			rc = wr_ywalk_expected(w, a, "a non-empty EAL argument");
		} else {
			cfg->eal_marks[i].line = a->line;
			cfg->eal_marks[i].col = a->col;
			cfg->eal_args[i] = strdup(a->str);
			if (cfg->eal_args[i] == NULL)
				rc = -ENOMEM;
			else
				cfg->n_eal_args = (unsigned int)i + 1;
		}
		wr_ywalk_pop(w, old);
	}
	/* A file prefix that names another directory: EAL's clean-up at
	 * exit would empty it.  Found here, with its line. */
	for (i = 0; rc == 0 && (k = wr_runtime_prefix_opt(cfg->eal_args,
			(int)cfg->n_eal_args, (int)i, &at, &name)) >= 0;
	     i = (size_t)k + 1) {
		if (name == NULL ||
		    wr_runtime_prefix_check(name, why, sizeof(why)) == 0)
			continue;
		old = wr_ywalk_push_index(w, (size_t)at);
		rc = wr_ywalk_fail(w, n->kids[at], "%s", why);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

/* A list of 0..16 distinct lcore ids (tx_lcores, rx_lcores) into @p ids;
 * @p what names the queue kind in errors. */
static int
parse_lcores(struct wr_ywalk *w, const struct wr_ynode *n, const char *what,
	     unsigned int *ids, uint16_t *n_ids)
{
	size_t i, j, old;
	uint64_t v;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ)
		return wr_ywalk_expected(w, n, "a list of lcore ids");
	if (n->n_kids > WR_PORT_LCORES_MAX)
		return wr_ywalk_fail(w, n, "expected at most %u lcore ids, "
				     "got %zu", WR_PORT_LCORES_MAX, n->n_kids);
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		rc = wr_ywalk_u64(w, n->kids[i], 0, LCORE_ID_MAX, &v);
		for (j = 0; j < i && rc == 0; j++)
			if (ids[j] == v)
				rc = wr_ywalk_fail(w, n->kids[i], "duplicate "
						   "lcore %u: one %s queue per "
						   "lcore", (unsigned int)v,
						   what);
		ids[i] = (unsigned int)v;
		wr_ywalk_pop(w, old);
	}
	if (rc == 0)
		*n_ids = (uint16_t)n->n_kids;
	return rc;
}

/* A MAC such as 02:00:00:00:00:02. */
static int
parse_mac(struct wr_ywalk *w, const struct wr_ynode *n, uint64_t *out)
{
	char why[WR_PARSE_WHY_MAX];

	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_mac(wr_ynode_text(n), out, why, sizeof(why)) != 0)
		return wr_ywalk_expected(w, n, "a MAC such as 02:00:00:00:00:02");
	return 0;
}

static int
parse_desc(struct wr_ywalk *w, const struct wr_ynode *n, uint16_t *out)
{
	uint64_t v;

	if (wr_parse_u64(wr_ynode_text(n), DESC_MIN, DESC_MAX, &v, NULL, 0) != 0 ||
	    (v & (v - 1)) != 0)
		return wr_ywalk_expected(w, n, "a power of two in 64..4096");
	*out = (uint16_t)v;
	return 0;
}

static int
parse_port(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_port_cfg *p)
{
	const struct wr_ynode *v;
	uint64_t u;
	int rc;

	memset(p, 0, sizeof(*p));
	rc = wr_ywalk_keys(w, n, "a port mapping {device, tx_lcores, ...}",
			   port_keys);
	if (rc != 0)
		return rc;
	v = wr_ynode_get(n, "device");
	if (v == NULL)
		return wr_ywalk_missing(w, n, "device");
	if (wr_ynode_text(v)[0] == '\0' || v->len >= WR_DEVICE_NAME_MAX)
		return WR_YWALK_KEY(w, "device", wr_ywalk_expected(w, v,
				"a device name of 1 to 127 characters such as "
				"net_null0 or 0000:3b:00.0"));
	memcpy(p->device, v->str, v->len + 1);
	p->device_mark.line = v->line;
	p->device_mark.col = v->col;
	if ((v = wr_ynode_get(n, "tx_lcores")) != NULL) {
		p->tx_lcores_mark.line = v->line;
		p->tx_lcores_mark.col = v->col;
		rc = WR_YWALK_KEY(w, "tx_lcores", parse_lcores(w, v, "TX",
				  p->tx_lcores, &p->n_tx_lcores));
		p->no_tx = rc == 0 && p->n_tx_lcores == 0;
	}
	if (rc == 0 && wr_ynode_get(n, "rx_lcores") != NULL &&
	    (v = wr_ynode_get(n, "rx_lcore")) != NULL)
		return WR_YWALK_KEY(w, "rx_lcore", wr_ywalk_fail(w, v,
			"give rx_lcores or rx_lcore, not both"));
	if (rc == 0 && (v = wr_ynode_get(n, "rx_lcores")) != NULL) {
		p->rx_lcore_mark.line = v->line;
		p->rx_lcore_mark.col = v->col;
		p->rx_lcores_key = "rx_lcores";
		rc = WR_YWALK_KEY(w, "rx_lcores", parse_lcores(w, v, "RX",
				  p->rx_lcores, &p->n_rx_lcores));
		p->no_rx = rc == 0 && p->n_rx_lcores == 0;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "rx_lcore")) != NULL) {
		p->rx_lcore_mark.line = v->line;
		p->rx_lcore_mark.col = v->col;
		p->rx_lcores_key = "rx_lcore";
		rc = WR_YWALK_KEY(w, "rx_lcore", wr_ywalk_u64(w, v, 0, LCORE_ID_MAX,
							  &u));
		p->rx_lcores[0] = (unsigned int)u;
		p->n_rx_lcores = 1;
	}
	if (rc == 0 && p->no_tx && p->no_rx)
		return wr_ywalk_fail(w, n, "port %s has neither TX nor RX "
				     "lcores (tx_lcores: [] and rx_lcores: "
				     "[]): leave it out of the profile",
				     p->device);
	if (rc == 0 && (v = wr_ynode_get(n, "txd")) != NULL)
		rc = WR_YWALK_KEY(w, "txd", parse_desc(w, v, &p->txd));
	if (rc == 0 && (v = wr_ynode_get(n, "rxd")) != NULL)
		rc = WR_YWALK_KEY(w, "rxd", parse_desc(w, v, &p->rxd));
	if (rc == 0 && (v = wr_ynode_get(n, "arp")) != NULL)
		rc = WR_YWALK_KEY(w, "arp", wr_ywalk_bool(w, v, &p->arp));
	if (rc == 0 && (v = wr_ynode_get(n, "src_mac")) != NULL) {
		rc = WR_YWALK_KEY(w, "src_mac", parse_mac(w, v, &p->src_mac));
		p->has_src_mac = rc == 0;
	}
	if (rc == 0 && (v = wr_ynode_get(n, "dst_mac")) != NULL) {
		rc = WR_YWALK_KEY(w, "dst_mac", parse_mac(w, v, &p->dst_mac));
		p->has_dst_mac = rc == 0;
	}
	return rc;
}

static int
parse_ports(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_config *cfg)
{
	size_t i, j, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ)
		return wr_ywalk_expected(w, n, "a list of ports");
	if (n->n_kids == 0 || n->n_kids > WR_PORTS_MAX)
		return wr_ywalk_fail(w, n, "expected 1 to %u ports (leave "
				     "ports out to use every probed port), "
				     "got %zu", WR_PORTS_MAX, n->n_kids);
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		rc = parse_port(w, n->kids[i], &cfg->ports[i]);
		for (j = 0; j < i && rc == 0; j++) {
			const struct wr_ynode *dev;

			if (strcmp(cfg->ports[j].device, cfg->ports[i].device))
				continue;
			dev = wr_ynode_get(n->kids[i], "device");
			rc = WR_YWALK_KEY(w, "device", wr_ywalk_fail(w, dev,
				"duplicate device \"%s\" (first at line %u)",
				cfg->ports[i].device,
				wr_ynode_get(n->kids[j], "device")->line));
		}
		wr_ywalk_pop(w, old);
	}
	if (rc == 0)
		cfg->n_ports = (unsigned int)n->n_kids;
	return rc;
}

static int
parse_u32(struct wr_ywalk *w, const struct wr_ynode *root, const char *key,
	  uint32_t min, uint32_t max, uint32_t *out)
{
	const struct wr_ynode *v = wr_ynode_get(root, key);
	uint64_t u;
	int rc;

	if (v == NULL)
		return 0;
	rc = WR_YWALK_KEY(w, key, wr_ywalk_u64(w, v, min, max, &u));
	if (rc == 0)
		*out = (uint32_t)u;
	return rc;
}

static int
parse_profile(struct wr_ywalk *w, const struct wr_ynode *root,
	      struct wr_config *cfg)
{
	const struct wr_ynode *v;
	unsigned int version;
	int rc;

	rc = wr_ywalk_version(w, root, PROFILE_VERSION, &version);
	if (rc == 0)
		rc = wr_ywalk_keys(w, root, "a profile mapping", top_keys);
	if (rc == 0 && (v = wr_ynode_get(root, "eal")) != NULL)
		rc = WR_YWALK_KEY(w, "eal", parse_eal(w, v, cfg));
	if (rc == 0 && (v = wr_ynode_get(root, "ports")) != NULL)
		rc = WR_YWALK_KEY(w, "ports", parse_ports(w, v, cfg));
	if (rc == 0)
		rc = parse_u32(w, root, "burst", 1, WR_BURST_MAX, &cfg->burst);
	if (rc == 0)
		rc = parse_u32(w, root, "stats_interval_ms",
			       STATS_INTERVAL_MIN_MS, STATS_INTERVAL_MAX_MS,
			       &cfg->stats_interval_ms);
	if (rc == 0)
		rc = parse_u32(w, root, "link_wait_ms", 0, LINK_WAIT_MAX_MS,
			       &cfg->link_wait_ms);
	if (rc == 0)
		rc = parse_u32(w, root, "settle_ms", 0, SETTLE_MAX_MS,
			       &cfg->settle_ms);
	if (rc == 0)
		rc = parse_u32(w, root, "max_frame", MAX_FRAME_MIN,
			       MAX_FRAME_MAX, &cfg->max_frame);
	if (rc == 0 && (v = wr_ynode_get(root, "rx_classes")) != NULL)
		rc = WR_YWALK_KEY(w, "rx_classes", wr_rx_classes_parse(w, v,
				  &cfg->classes));
	return rc;
}

int
wr_config_load(const char *path, struct wr_config *cfg, struct wr_error *err)
{
	size_t len;
	char *buf;
	int rc;

	wr_config_init(cfg);
	wr_error_clear(err);
	rc = wr_ytree_read_file(path, &buf, &len, err);
	if (rc != 0)
		return rc;
	rc = wr_config_load_buf(path, buf, len, cfg, err);
	free(buf);
	return rc;
}

int
wr_config_load_buf(const char *path, const char *buf, size_t len,
		   struct wr_config *cfg, struct wr_error *err)
{
	struct wr_ynode *root = NULL;
	struct wr_config tmp;
	struct wr_ywalk w;
	int rc;

	wr_config_init(cfg);
	wr_config_init(&tmp);
	wr_error_clear(err);
	rc = wr_ytree_parse(path, buf, len, &root, err);
	if (rc != 0)
		return rc;
	wr_ywalk_init(&w, path, err);
	if (root == NULL || (root->type == WR_YNODE_SCALAR && root->len == 0))
		rc = wr_error_set(err, -EINVAL, path, root ? root->line : 1,
				  root ? root->col : 1, NULL,
				  "the file is empty: expected a mapping with "
				  "version: %u", PROFILE_VERSION);
	else if (root->type != WR_YNODE_MAP)
		rc = wr_ywalk_expected(&w, root, "a profile mapping");
	else
		rc = parse_profile(&w, root, &tmp);
	wr_ytree_free(root);
	if (rc == -ENOMEM && err != NULL && err->msg[0] == '\0')
		wr_error_set(err, rc, path, 0, 0, NULL, "out of memory");
	if (rc != 0) {
		wr_config_free(&tmp);
		return rc;
	}
	snprintf(tmp.path, sizeof(tmp.path), "%s", path);
	*cfg = tmp;
	return 0;
}

bool
wr_config_eal_replaces_profile(char *const *args, int n)
{
	static const char *const opts[] = {
		"-a", "--allow", "-b", "--block", "--vdev", "--no-pci",
		"-l", "-c", "--lcores",
	};
	size_t i, len;
	int k;

	for (k = 0; k < n; k++) {
		for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
			len = strlen(opts[i]);
			/* "-a X", "-aX", "--vdev X", "--vdev=X" */
			if (strncmp(args[k], opts[i], len) != 0)
				continue;
			if (args[k][len] == '\0' ||
			    (opts[i][1] != '-' && args[k][1] != '-') ||
			    args[k][len] == '=')
				return true;
		}
	}
	return false;
}

int
wr_config_eal_without_hugepages(char *const *in, int n, char **out, int cap)
{
	static char no_huge[] = "--no-huge", m[] = "-m", mb[] = "512";
	static char no_shconf[] = "--no-shconf";
	int i, k = 0;
	bool found = false;

	for (i = 0; i < n; i++)
		if (strcmp(in[i], "--no-huge") == 0)
			return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(in[i], "--in-memory") == 0) {
			if (k + 4 > cap)
				return -1;
			out[k++] = no_huge;
			out[k++] = m;
			out[k++] = mb;
			out[k++] = no_shconf;
			found = true;
			continue;
		}
		if (k + 1 > cap)
			return -1;
		out[k++] = in[i];
	}
	return found ? k : -1;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_config: port and lcore profiles (the YAML files in config/). */
#ifndef WR_CONFIG_H
#define WR_CONFIG_H

/**
 * @file
 * A profile says how EAL starts and which ports the streams' `port:` indices
 * mean:
 *
 *     version: 1
 *     eal: [--no-pci, --in-memory, --vdev=net_null0, --lcores=0@0,1@1]
 *     ports:
 *       - device: net_null0       # the name EAL gives the port (vdev name or PCI address)
 *         tx_lcores: [1]          # one TX queue per lcore; optional (auto); []: receive only
 *         rx_lcores: [1, 2]       # optional: one RX queue per lcore; []: send only
 *         rx_lcore: 1             # optional: the same as rx_lcores: [1]
 *         txd: 1024               # optional descriptor ring sizes
 *         rxd: 1024
 *         arp: true               # optional: answer ARP / ICMP echo for the streams' sources
 *     burst: 64                   # optional TX burst, 1..512
 *     stats_interval_ms: 1000     # optional
 *     link_wait_ms: 5000          # optional: how long to wait for link up
 *     settle_ms: 0                # optional: pause after link up before sending
 *     max_frame: 9018             # optional: size the ports for frames this large
 *
 * `ports:` may be left out: then every port EAL probed is used, in port-id
 * order, and the worker lcores are shared out among them.
 *
 * Errors as in wr_yaml.h: file:line:col, key path, what was expected.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_error.h"
#include "wr_filter.h"

#define WR_PORTS_MAX 32
#define WR_PORT_LCORES_MAX 16
#define WR_DEVICE_NAME_MAX 128
#define WR_EAL_ARGS_MAX 64
#define WR_BURST_MAX 512

/** Where a value was in the profile (1-based; 0: not given there). */
struct wr_config_mark {
	unsigned int line, col;
};

struct wr_port_cfg {
	char device[WR_DEVICE_NAME_MAX];
	/* Kept from loading, for errors only EAL can find (a device that
	 * does not exist, an lcore it did not enable). */
	struct wr_config_mark device_mark, tx_lcores_mark, rx_lcore_mark;
	unsigned int tx_lcores[WR_PORT_LCORES_MAX];
	uint16_t n_tx_lcores;   /**< 0: assign automatically (or none: no_tx) */
	bool no_tx;             /**< tx_lcores: []: the port only receives */
	/** The lcores polling the port's RX queues, one queue each (rx_lcores,
	 *  or rx_lcore for one); none given: the port's first TX lcore. */
	unsigned int rx_lcores[WR_PORT_LCORES_MAX];
	uint16_t n_rx_lcores;   /**< 0: none given (or none at all: no_rx) */
	bool no_rx;             /**< rx_lcores: []: the port only sends */
	/** The key they were given under: "rx_lcores", or "rx_lcore" (the
	 *  one-queue form), for the errors EAL finds later. */
	const char *rx_lcores_key;
	uint16_t txd;           /**< 0: default */
	uint16_t rxd;           /**< 0: default */
	bool arp;               /**< answer ARP and ICMP echo (doc/arp.md) */
	/** `src_mac:` / `dst_mac:` what streams whose eth says `port` send
	 * (doc/trex.md); without src_mac the port's own MAC, without
	 * dst_mac wirerate's default destination. */
	bool has_src_mac, has_dst_mac;
	uint64_t src_mac, dst_mac;
};

struct wr_config {
	char path[WR_ERROR_FILE_MAX];
	char *eal_args[WR_EAL_ARGS_MAX]; /**< owned strings */
	unsigned int n_eal_args;
	struct wr_config_mark eal_marks[WR_EAL_ARGS_MAX];
	struct wr_port_cfg ports[WR_PORTS_MAX];
	unsigned int n_ports;   /**< 0: use every probed port */
	uint32_t burst;         /**< default 64 */
	uint32_t stats_interval_ms; /**< default 1000 */
	uint32_t link_wait_ms;  /**< default 5000 */
	uint32_t settle_ms;     /**< default 0: pause after link up, before TX */
	/** The largest frame (bytes, FCS included) the ports must take:
	 *  the profile's max_frame, raised by run, sweep and rfc2544 to
	 *  their streams' or sizes' largest before wr_engine_open(), which
	 *  sizes each port's MTU and RX buffers for it and refuses a port
	 *  that cannot take it.  0 (and any size up to 1518) leaves the
	 *  ports as their PMD sets them. */
	uint32_t max_frame;
	/** rx_classes: named filters counting the frames without our
	 *  signature per port (wr_filter.h). */
	struct wr_rx_classes classes;
};

/** Fill @p cfg with the defaults (no EAL args, no ports). */
void wr_config_init(struct wr_config *cfg);

/**
 * Load a profile.  @return 0, -EINVAL (bad content, @p err says where),
 * or -ENOENT/-EACCES/-EIO.  On error @p cfg is left as wr_config_init made it.
 */
int wr_config_load(const char *path, struct wr_config *cfg, struct wr_error *err);

/**
 * Same, from @p len bytes at @p buf (need not be NUL-terminated); @p path
 * is the name errors report.  @return 0, -EINVAL or -ENOMEM.
 */
int wr_config_load_buf(const char *path, const char *buf, size_t len,
		       struct wr_config *cfg, struct wr_error *err);

/**
 * Whether EAL options a user gave on the command line take the place of the
 * default profile: true when they choose devices (-a, --allow, -b, --block,
 * --vdev, --no-pci) or lcores (-l, -c, --lcores), which the default profile
 * sets too.  Other options (--log-level, -m, ...) are added to the profile's.
 */
bool wr_config_eal_replaces_profile(char *const *args, int n);

/**
 * EAL arguments for a machine with no free hugepages: each "--in-memory"
 * becomes "--no-huge -m 512 --no-shconf" (EAL refuses the two together;
 * 512 MB of ordinary memory holds a virtual device's pools; --no-shconf
 * leaves no runtime files, as --in-memory would not have).  Arguments are
 * copied as pointers into @p out (@p cap entries).
 * @return the number of arguments in @p out, or -1 when nothing needs to
 *         change (no --in-memory, or --no-huge already given) or @p cap is
 *         too small.
 */
int wr_config_eal_without_hugepages(char *const *in, int n, char **out,
				    int cap);

/** Free what @p cfg owns.  NULL-safe. */
void wr_config_free(struct wr_config *cfg);

#endif /* WR_CONFIG_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp4_cfg: a host group's DHCPv4 settings (its `ipv4: {dhcp: {...}}` key), parsed and applied. */
#ifndef WR_DHCP4_CFG_H
#define WR_DHCP4_CFG_H

/**
 * @file
 * What a group's `dhcp:` key says (doc/hosts.md): retransmissions and
 * their first wait, the host name, the client identifier, option 82, the
 * BROADCAST flag, the parameter request list.  Parsed once by the loader
 * (through the module's parse), read by the module on every message.
 * Pure functions; any thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include "wr_dhcp4_msg.h"
#include "wr_host_spec.h"
#include "wr_ytree.h"

/** How a host names itself in option 61 (RFC 2132 section 9.14). */
enum wr_dhcp4_cid {
	WR_DHCP4_CID_MAC = 0,   /**< type 1 (Ethernet) and the MAC: the default */
	WR_DHCP4_CID_NONE,      /**< no option 61: the server keys on chaddr */
	WR_DHCP4_CID_TEXT,      /**< type 0 and the expanded client_id text */
};

/**
 * A group's `dhcp:` config (flat: freed with free()).  Texts are
 * templates (see the file comment), NUL-terminated; "" is absent.
 */
struct wr_dhcp4_cfg {
	uint8_t retries;        /**< retransmissions of a message after the first (default 4) */
	uint8_t cid_mode;       /**< enum wr_dhcp4_cid */
	bool broadcast;         /**< set the BROADCAST flag (RFC 2131 section 4.1) */
	bool option82;          /**< send option 82 (RFC 3046) */
	uint32_t timeout_ms;    /**< first retransmission wait (default 4000), doubled up to 64 s */
	uint8_t n_prl;
	uint8_t prl[WR_DHCP4_PRL_MAX]; /**< option 55's codes */
	char hostname[WR_DHCP4_TMPL_MAX];
	char client_id[WR_DHCP4_TMPL_MAX];
	char circuit_id[WR_DHCP4_TMPL_MAX];
	char remote_id[WR_DHCP4_TMPL_MAX];
};

/**
 * Parse a group's `dhcp` value @p n (NULL or the scalar `dhcp`: every
 * default; a mapping of retries, timeout, hostname, client_id, option82,
 * broadcast, request) into a malloc'ed struct wr_dhcp4_cfg: the module's
 * parse (struct wr_host_proto).  Errors with file:line:col through @p w.
 * @return 0, -EINVAL, -ENOMEM.
 */
int wr_dhcp4_cfg_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		       const struct wr_host_group *g, void **cfg);

/**
 * Option 82's value for @p cfg and @p v (circuit-id sub-option 1, then
 * remote-id 2, each only when its text is set) into @p out (255 bytes).
 * @return its length, or a negative errno as wr_dhcp4_expand.
 */
int wr_dhcp4_opt82(const struct wr_dhcp4_cfg *cfg,
		   const struct wr_dhcp4_vars *v, uint8_t *out);

/** The retransmission wait before try @p k (0: after the first message)
 * without its random part: timeout_ms << k, at most 64 s (RFC 2131 4.1). */
uint64_t wr_dhcp4_backoff_ms(const struct wr_dhcp4_cfg *cfg, unsigned int k);

#endif /* WR_DHCP4_CFG_H */

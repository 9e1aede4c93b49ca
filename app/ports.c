/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate ports: list the DPDK ports EAL probes, with what a traffic generator needs to know of them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_app.h"
#include "wr_config.h"
#include "wr_port.h"
#include "wr_clock_eal.h"

/* Devices named on the command line: as many as EAL has ports. */
#define WR_PORTS_NAMES_MAX 1024

static void
mac_str(const uint8_t m[6], char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
		 m[3], m[4], m[5]);
}

static void
print_text(const struct wr_port_info *pi, unsigned int n)
{
	char mac[18];
	unsigned int i;

	printf("%-4s %-24s %-16s %-17s %-12s %-4s %-5s %-13s %s\n", "port",
	       "name", "driver", "mac", "link", "numa", "mtu", "rxq/txq",
	       "offloads");
	for (i = 0; i < n; i++) {
		const struct wr_port_info *p = &pi[i];
		char link[24], q[48];

		mac_str(p->mac, mac, sizeof(mac));
		if (p->link_speed_mbps)
			snprintf(link, sizeof(link), "%s %uG",
				 p->link_up ? "up" : "down",
				 p->link_speed_mbps / 1000);
		else
			snprintf(link, sizeof(link), "%s", p->link_up ?
				 "up" : "down");
		snprintf(q, sizeof(q), "%u/%u max %u/%u", p->rx_queues,
			 p->tx_queues, p->max_rx_queues, p->max_tx_queues);
		printf("%-4u %-24s %-16s %-17s %-12s %-4d %-5u %-13s%s%s%s%s%s"
		       "%s\n", p->port_id, p->name, p->driver, mac, link,
		       p->socket_id, p->mtu, q, p->tx_ipv4_cksum ? " tx_ipv4_cksum" : "",
		       p->tx_udp_cksum ? " tx_udp_cksum" : "",
		       p->rx_timestamp ? " rx_timestamp" : "",
		       p->tx_fast_free ? " mbuf_fast_free" : "",
		       p->tx_multi_seg ? " multi_seg" : "",
		       p->tx_ipv4_cksum || p->tx_udp_cksum || p->rx_timestamp ||
		       p->tx_fast_free || p->tx_multi_seg ? "" : " none");
	}
}

static const char *
jb(bool b)
{
	return b ? "true" : "false";
}

static void
print_json(const struct wr_port_info *pi, unsigned int n)
{
	struct wr_tsc_cal tsc;
	char mac[18];
	unsigned int i;

	printf("{\"schema\": \"wirerate-ports/1\", \"ports\": [");
	for (i = 0; i < n; i++) {
		const struct wr_port_info *p = &pi[i];

		mac_str(p->mac, mac, sizeof(mac));
		/* Names are EAL device names and driver names: no
		 * character JSON would need escaped. */
		printf("%s\n  {\"port_id\": %u, \"name\": \"%s\", "
		       "\"driver\": \"%s\", \"mac\": \"%s\", "
		       "\"link_up\": %s, \"link_speed_mbps\": %u, "
		       "\"numa_node\": %d, \"max_rx_queues\": %u, "
		       "\"max_tx_queues\": %u, \"rx_queues\": %u, "
		       "\"tx_queues\": %u, \"mtu\": %u, \"max_mtu\": %u, "
		       "\"max_rx_pktlen\": %u, \"offloads\": {"
		       "\"tx_ipv4_cksum\": %s, \"tx_udp_cksum\": %s, "
		       "\"rx_timestamp\": %s, \"mbuf_fast_free\": %s, "
		       "\"multi_seg\": %s}}", i ? "," : "", p->port_id, p->name,
		       p->driver, mac, jb(p->link_up), p->link_speed_mbps,
		       p->socket_id, p->max_rx_queues, p->max_tx_queues,
		       p->rx_queues, p->tx_queues, p->mtu, p->max_mtu,
		       p->max_rx_pktlen, jb(p->tx_ipv4_cksum),
		       jb(p->tx_udp_cksum), jb(p->rx_timestamp),
		       jb(p->tx_fast_free), jb(p->tx_multi_seg));
	}
	/* The TSC's frequency as wirerate measured it while EAL started
	 * (wr_clock_eal.h): what its times and rates would be computed with. */
	wr_tsc_get(&tsc);
	printf("\n], \"tsc\": ");
	fflush(stdout);
	wr_tsc_cal_json(stdout, &tsc);
	printf("}\n");
}

/* What ports' arguments fill in. */
struct ports_args {
	const char *cfg_path;
	bool json;
	const char *names[WR_PORTS_NAMES_MAX];
	unsigned int n_names;
};

static int
ports_opt(void *ctx, const struct wr_cli_opt *opt, const char *val)
{
	struct ports_args *a = ctx;

	if (opt->code == 'c')
		a->cfg_path = val;
	else /* 'j' */
		a->json = true;
	return WR_EXIT_OK;
}

static int
ports_arg(void *ctx, const char *arg)
{
	struct ports_args *a = ctx;

	if (a->n_names == WR_PORTS_NAMES_MAX) {
		fprintf(stderr, "wirerate: ports: at most %u devices\n",
			WR_PORTS_NAMES_MAX);
		return WR_EXIT_USAGE;
	}
	a->names[a->n_names++] = arg;
	return WR_EXIT_OK;
}

int
wr_cmd_ports(const struct wr_cli_cmd *cmd, int argc, char **argv)
{
	struct ports_args a;
	struct wr_port_info *pi = NULL;
	struct wr_cli_rest rest;
	struct wr_config cfg;
	struct wr_error err;
	const char *cfg_path;
	unsigned int n = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = wr_cli_parse(cmd, argc, argv, ports_opt, ports_arg, &a, &rest);
	if (rc != WR_EXIT_OK || rest.help)
		return rc;
	cfg_path = a.cfg_path;
	rc = wr_app_profile(cfg_path, rest.eal, rest.n_eal, &cfg, &cfg_path);
	if (rc != WR_EXIT_OK)
		return rc;
	wr_error_clear(&err);
	rc = wr_port_list(&cfg, rest.eal, rest.n_eal, a.names, a.n_names,
			  &pi, &n, &err);
	wr_config_free(&cfg);
	if (rc != 0) {
		wr_app_print_error(&err);
		return rc == -EINVAL || rc == -ENODEV ? WR_EXIT_USAGE :
			WR_EXIT_FAIL;
	}
	if (a.json)
		print_json(pi, n);
	else if (n == 0)
		printf("EAL found no ports: give a device (-a PCI address or "
		       "--vdev) after --, or a --config\n");
	else
		print_text(pi, n);
	free(pi);
	return WR_EXIT_OK;
}

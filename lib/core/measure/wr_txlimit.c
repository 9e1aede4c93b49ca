/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_txlimit: what held a generator below its rate (the line, the port, the CPU, the pacer), from its counters. */
#include <stdio.h>
#include <string.h>

#include "wr_txlimit.h"

bool
wr_txlimit_placeholder(const char *driver)
{
	/* DPDK 22.11's virtual PMDs: each link_update reports a constant. */
	static const char *const virt[] = {
		"net_null", "net_ring", "net_pcap", "net_af_packet",
		"net_af_xdp", "net_tap", "net_vhost", "net_kni",
		"net_virtio_user", "net_memif",
	};
	unsigned int i;

	if (driver == NULL)
		return false;
	for (i = 0; i < sizeof(virt) / sizeof(virt[0]); i++)
		if (strcmp(driver, virt[i]) == 0)
			return true;
	return false;
}

uint32_t
wr_txlimit_line_mbps(const char *driver, uint32_t link_mbps)
{
	return wr_txlimit_placeholder(driver) ? 0 : link_mbps;
}

const char *
wr_txlimit_name(enum wr_txlimit l)
{
	static const char *const names[] = {
#define WR_TXLIMIT_NAME(s, n) [WR_TXLIMIT_##s] = n,
		WR_TXLIMITS(WR_TXLIMIT_NAME)
#undef WR_TXLIMIT_NAME
	};

	return (unsigned int)l < sizeof(names) / sizeof(names[0]) ?
	       names[l] : "?";
}

/* Percent of @p part in @p whole, rounded down, 0 when whole is 0. */
static unsigned int
pct_of(uint64_t part, uint64_t whole)
{
	return whole ? (unsigned int)((unsigned __int128)part * 100 / whole) :
	       0;
}

/* The time the TX lcores were off their CPU (wall less user and system). */
static uint64_t
off_cpu_ns(const struct wr_thread_usage *u)
{
	uint64_t on = u->user_ns + u->sys_ns;

	return u->wall_ns > on ? u->wall_ns - on : 0;
}

/* The port's own rules: its ring refused bursts, the lcore worked in the
 * kernel for it, or waited there for it.  @p off: the lcore's time off
 * its CPU. */
static bool
port_rules(const struct wr_txlimit_tx *t, uint64_t off, char *why,
	   size_t why_len)
{
	const struct wr_thread_usage *u = &t->usage;
	uint64_t refused = t->tx_full + t->alloc_fail;
	uint64_t on = u->user_ns + u->sys_ns;
	uint32_t burst = t->burst ? t->burst : 1;

	if (refused > 0 && (unsigned __int128)refused * burst * 1000000 >=
	    (unsigned __int128)t->sent * WR_TXLIMIT_REFUSED_PPM) {
		if (why != NULL)
			snprintf(why, why_len, "the TX port did not take "
				 "frames faster: %llu bursts refused (its ring "
				 "was full)", (unsigned long long)refused);
		return true;
	}
	if (u->wall_ns == 0)
		return false;
	if (off * 100 >= u->wall_ns * WR_TXLIMIT_OFF_CPU_PCT &&
	    u->nvcsw > u->nivcsw) {
		if (why != NULL)
			snprintf(why, why_len, "the TX port blocked the TX "
				 "lcore: off its CPU %u %% of the time, "
				 "waiting in the kernel (%llu waits)",
				 pct_of(off, u->wall_ns),
				 (unsigned long long)u->nvcsw);
		return true;
	}
	if (on > 0 && u->sys_ns * 2 >= on) {
		if (why != NULL)
			snprintf(why, why_len, "the TX port took the TX "
				 "lcore's time: %u %% of its CPU time in the "
				 "kernel, sending for the port as af_packet "
				 "and tap do", pct_of(u->sys_ns, on));
		return true;
	}
	return false;
}

bool
wr_txlimit_port(const struct wr_txlimit_tx *t, char *why, size_t why_len)
{
	return port_rules(t, off_cpu_ns(&t->usage), why, why_len);
}

enum wr_txlimit
wr_txlimit_of(const struct wr_txlimit_tx *t, char *why, size_t why_len)
{
	const struct wr_thread_usage *u = &t->usage;
	uint64_t off = off_cpu_ns(u), on = u->user_ns + u->sys_ns;
	uint64_t due = t->sent + t->pacer_skipped;
	bool preempted = u->wall_ns != 0 &&
			 off * 100 >= u->wall_ns * WR_TXLIMIT_OFF_CPU_PCT &&
			 u->nivcsw >= u->nvcsw && u->nivcsw > 0;

	/* Preempted for long, and at its own pace it would have sent all
	 * that fell due had it kept its CPU: the CPU, whatever the port
	 * costs. */
	if (preempted && on > 0 && (unsigned __int128)t->sent * u->wall_ns >=
	    (unsigned __int128)due * on) {
		if (why != NULL)
			snprintf(why, why_len, "the TX lcore's CPU was taken: "
				 "off it %u %% of the time, preempted %llu "
				 "times (another thread ran there)",
				 pct_of(off, u->wall_ns),
				 (unsigned long long)u->nivcsw);
		return WR_TXLIMIT_CPU;
	}
	if (port_rules(t, off, why, why_len))
		return WR_TXLIMIT_PORT;
	if (preempted) {
		if (why != NULL)
			snprintf(why, why_len, "the TX lcore's CPU: off it %u "
				 "%% of the time (preempted %llu times) and "
				 "too slow on it", pct_of(off, u->wall_ns),
				 (unsigned long long)u->nivcsw);
		return WR_TXLIMIT_CPU;
	}
	if (t->pacer_skipped > 0) {
		if (why != NULL)
			snprintf(why, why_len, "the TX lcore could not keep "
				 "up on its CPU: %llu frames late and skipped",
				 (unsigned long long)t->pacer_skipped);
		return WR_TXLIMIT_CPU;
	}
	if (why != NULL)
		snprintf(why, why_len, "the pacer's schedule fell short "
			 "(no burst refused, no frame skipped, the TX lcore "
			 "on its CPU)");
	return WR_TXLIMIT_PACER;
}

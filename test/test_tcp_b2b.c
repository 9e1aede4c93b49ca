/* SPDX-License-Identifier: BSD-3-Clause */
/* The TCP engine back to back: a client engine and a server engine through a link with a fake clock that drops, reorders and duplicates by a seeded schedule; every connection completes with exact counts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_tcp_priv.h"
#include "wr_test.h"
#include "test_tcp_util.h"

/* Every frame either engine sent arrived at the other (less what the
 * link lost, plus its duplicates) and was counted there once: by a
 * connection, as of no connection, or as a SYN refused. */
static void
expect_conserved(struct tt_pair *p)
{
	struct wr_tcp_counters cc, sc;
	struct wr_tcp_port_counters pcc, pcs;
	uint64_t sent, recv;

	wr_tcp_counters(p->cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p->srv, 0, WR_TCP_SERVER, &sc);
	wr_tcp_port_counters(p->cli, &pcc);
	wr_tcp_port_counters(p->srv, &pcs);
	sent = cc.tx_segs + sc.tx_segs + pcc.rst_sent_no_conn +
	       pcs.rst_sent_no_conn;
	recv = cc.rx_segs + sc.rx_segs + pcc.rx_no_conn + pcs.rx_no_conn +
	       pcc.syn_dropped + pcs.syn_dropped;
	CU_ASSERT_EQUAL(sent + p->duped, recv + p->lost);
	CU_ASSERT_EQUAL(pcc.rx_frames + pcs.rx_frames, recv);
	CU_ASSERT_EQUAL(pcc.rx_bad + pcs.rx_bad + pcc.tx_nobuf + pcs.tx_nobuf, 0);
}

/* Both sides of @p n connections that each moved @p c2s and @p s2c bytes
 * and closed cleanly (the client first: it holds TIME_WAIT). */
static void
expect_clean(struct tt_pair *p, uint64_t n, uint64_t c2s, uint64_t s2c)
{
	struct wr_tcp_counters cc, sc;

	wr_tcp_counters(p->cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p->srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT_EQUAL(cc.attempted, n);
	CU_ASSERT_EQUAL(cc.established, n);
	CU_ASSERT_EQUAL(cc.closed, n);
	CU_ASSERT_EQUAL(cc.failed_refused + cc.failed_timeout +
			cc.failed_reset + cc.failed_other + cc.aborted, 0);
	CU_ASSERT_EQUAL(cc.active, 0);
	CU_ASSERT_EQUAL(sc.attempted, n);
	CU_ASSERT_EQUAL(sc.established, n);
	CU_ASSERT_EQUAL(sc.closed, n);
	CU_ASSERT_EQUAL(sc.failed_refused + sc.failed_timeout +
			sc.failed_reset + sc.failed_other + sc.aborted, 0);
	CU_ASSERT_EQUAL(sc.active, 0);
	CU_ASSERT_EQUAL(cc.tx_bytes, n * c2s);
	CU_ASSERT_EQUAL(sc.rx_bytes, n * c2s);
	CU_ASSERT_EQUAL(sc.tx_bytes, n * s2c);
	CU_ASSERT_EQUAL(cc.rx_bytes, n * s2c);
	CU_ASSERT(wr_tcp_done(p->cli));
	CU_ASSERT(wr_tcp_done(p->srv));
	expect_conserved(p);
}

static void
hist_n(struct wr_tcp *t, enum wr_tcp_side side, enum wr_tcp_hist_id id,
       uint64_t n)
{
	struct wr_latency *h = aligned_alloc(64, sizeof(*h));

	wr_latency_init(h);
	wr_tcp_hist(t, 0, side, id, h);
	CU_ASSERT_EQUAL(wr_latency_count(h), n);
	free(h);
}

static void
test_clean(void)
{
	struct tt_pair p;
	struct wr_tcp_counters cc, sc;

	tt_pair_init(&p, 200, 50, 64);
	tt_class_program(&p, 100000, 50000);
	tt_pair_create(&p);
	tt_run(&p, 20000000000ull, NULL);
	expect_clean(&p, 200, 100000, 50000);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p.srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT_EQUAL(cc.rexmit_segs + sc.rexmit_segs, 0);
	CU_ASSERT_EQUAL(cc.ooo_segs + sc.ooo_segs + cc.dup_segs + sc.dup_segs, 0);
	CU_ASSERT_EQUAL(cc.rx_segs, sc.tx_segs);
	CU_ASSERT_EQUAL(sc.rx_segs, cc.tx_segs);
	CU_ASSERT_EQUAL(cc.rx_frame_bytes, sc.tx_frame_bytes);
	CU_ASSERT_EQUAL(sc.rx_frame_bytes, cc.tx_frame_bytes);
	hist_n(p.cli, WR_TCP_CLIENT, WR_TCP_HIST_HANDSHAKE, 200);
	hist_n(p.cli, WR_TCP_CLIENT, WR_TCP_HIST_TTFB, 200);
	hist_n(p.cli, WR_TCP_CLIENT, WR_TCP_HIST_COMPLETE, 200);
	hist_n(p.srv, WR_TCP_SERVER, WR_TCP_HIST_COMPLETE, 200);
	/* the client closed first: every connection waits, then is freed */
	CU_ASSERT_EQUAL(cc.time_wait, 200);
	CU_ASSERT_EQUAL(sc.time_wait, 0);
	p.now += 1200000000ull;
	wr_tcp_poll(p.cli, p.now);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	CU_ASSERT_EQUAL(cc.time_wait, 0);
	CU_ASSERT_EQUAL(p.cli->free_head != WR_TCP_NIL, 1);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
test_lossy(void)
{
	struct tt_pair p;
	struct wr_tcp_counters cc, sc;

	tt_pair_init(&p, 100, 20, 64);
	tt_class_program(&p, 200000, 30000);
	tt_pair_create(&p);
	p.drop = 20;            /* 2 % */
	p.dup = 10;
	p.reorder = 50;
	tt_run(&p, 120000000000ull, NULL);
	expect_clean(&p, 100, 200000, 30000);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p.srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT(p.lost > 0 && p.duped > 0 && p.reordered > 0);
	CU_ASSERT(cc.rexmit_segs > 0);
	CU_ASSERT(sc.rexmit_segs > 0);
	CU_ASSERT(sc.ooo_segs > 0);
	CU_ASSERT(sc.dup_segs > 0);
	CU_ASSERT(cc.dup_acks > 0);
	/* what was received is what was sent less what the link lost */
	CU_ASSERT(cc.rx_segs + sc.rx_segs <=
		  cc.tx_segs + sc.tx_segs + p.duped - 0);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
test_time_wait_ports(void)
{
	struct tt_pair p;
	struct wr_tcp_port_counters pc;

	/* four source ports, 20 connections, two at a time: each port is
	 * used again only after its TIME_WAIT */
	tt_pair_init(&p, 20, 2, 16);
	p.spec.client.sport_lo = 2000;
	p.spec.client.sport_hi = 2003;
	p.spec.tcp.time_wait_ns = 50000000ull;
	tt_pair_create(&p);
	tt_run(&p, 20000000000ull, NULL);
	expect_clean(&p, 20, 100, 100);
	wr_tcp_port_counters(p.cli, &pc);
	CU_ASSERT(pc.ports_busy > 0);
	wr_tcp_port_counters(p.srv, &pc);
	CU_ASSERT_EQUAL(pc.rx_no_conn, 0);
	/* 20 connections over 4 ports at 50 ms of TIME_WAIT: at least 4
	 * waits one after the other */
	CU_ASSERT(p.now >= 4 * 50000000ull);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
test_v6_lossy(void)
{
	struct tt_pair p;

	tt_pair_init(&p, 30, 10, 32);
	p.spec.ip = 6;
	p.cl_loc.ip = (__uint128_t)0xfd00000000000000ull << 64 | 1;
	p.sv_loc.ip = (__uint128_t)0xfd00000000000000ull << 64 | 2;
	p.srv_ip = p.sv_loc.ip;
	tt_class_program(&p, 50000, 50000);
	tt_pair_create(&p);
	p.drop = 30;
	p.reorder = 30;
	tt_run(&p, 120000000000ull, NULL);
	expect_clean(&p, 30, 50000, 50000);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
test_http_lossy(void)
{
	struct tt_pair p;
	struct wr_tcp_counters cc, sc;
	uint64_t req, resp;

	/* three requests a connection, keep-alive, 20 kB bodies; the server
	 * closes after the last (Connection: close): it holds TIME_WAIT */
	tt_pair_init(&p, 40, 10, 64);
	p.spec.is_http = true;
	p.spec.n_steps = 0;
	p.spec.http.requests = 3;
	p.spec.http.response_body = 20000;
	tt_pair_create(&p);
	p.drop = 20;
	p.dup = 10;
	p.reorder = 40;
	tt_run(&p, 120000000000ull, NULL);
	req = p.cli->cls[0].app[WR_TCP_CLIENT]->msg_len;
	resp = p.srv->cls[0].app[WR_TCP_SERVER]->msg_len;
	CU_ASSERT(req > 0 && resp > 20000);
	expect_clean(&p, 40, 3 * req, 3 * resp);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p.srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT_EQUAL(cc.http_requests, 120);
	CU_ASSERT_EQUAL(cc.http_responses, 120);
	CU_ASSERT_EQUAL(cc.http_status[2], 120);
	CU_ASSERT_EQUAL(sc.http_requests, 120);
	CU_ASSERT_EQUAL(sc.http_responses, 120);
	CU_ASSERT_EQUAL(cc.app_errors + sc.app_errors, 0);
	CU_ASSERT(cc.rexmit_segs + sc.rexmit_segs > 0);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
stop_at_half(struct tt_pair *p)
{
	struct wr_tcp_counters cc;

	wr_tcp_counters(p->cli, 0, WR_TCP_CLIENT, &cc);
	if (cc.established == 10 && cc.rx_bytes == 0 && cc.active == 10 &&
	    cc.tx_bytes > 0)
		wr_tcp_stop(p->cli, true, p->now);
}

static void
test_abort(void)
{
	struct tt_pair p;
	struct wr_tcp_counters cc, sc;

	/* ten long transfers, aborted once all are under way */
	tt_pair_init(&p, 10, 10, 16);
	tt_class_program(&p, 50000000, 10);
	tt_pair_create(&p);
	tt_run(&p, 60000000000ull, stop_at_half);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p.srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT_EQUAL(cc.failed_other, 10);
	CU_ASSERT_EQUAL(cc.active, 0);
	CU_ASSERT_EQUAL(sc.failed_reset, 10);
	CU_ASSERT_EQUAL(sc.active, 0);
	CU_ASSERT_EQUAL(cc.closed + sc.closed, 0);
	CU_ASSERT(wr_tcp_done(p.cli) && wr_tcp_done(p.srv));
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
test_rate_ramp(void)
{
	struct tt_pair p;
	struct wr_tcp_counters cc;
	struct wr_tcp_ctl ctl = { .class_idx = 0, .pause = true };

	/* 1000 connections/s reached over 1 s, for 2 s: 500 + 1000 */
	tt_pair_init(&p, 0, 1000, 4096);
	p.spec.count = 0;
	p.spec.duration_ns = 2000000000ull;
	p.spec.rate_milli = 1000000;
	p.spec.ramp_ns = 1000000000ull;
	p.cli_max = 4096;
	tt_pair_create(&p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p.cli);
	tt_run(&p, 20000000000ull, NULL);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	CU_ASSERT(cc.attempted >= 1499 && cc.attempted <= 1500);
	CU_ASSERT_EQUAL(cc.closed, cc.attempted);
	/* paused from the start by a control request: none opens */
	tt_pair_create(&p);
	CU_ASSERT_EQUAL(wr_tcp_ctl(p.cli, &ctl), 0);
	CU_ASSERT_EQUAL(wr_tcp_ctl(p.cli, &ctl), -EBUSY);
	tt_run(&p, 500000000ull, NULL);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	CU_ASSERT_EQUAL(cc.attempted, 0);
	ctl.pause = false;
	ctl.resume = true;
	ctl.set_rate = true;
	ctl.rate_milli = 10000000;      /* 10,000/s from now, no ramp */
	CU_ASSERT_EQUAL(wr_tcp_ctl(p.cli, &ctl), 0);
	for (uint64_t end = p.now + 100000000ull; p.now < end; p.now += 10000)
		wr_tcp_poll(p.cli, p.now);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	CU_ASSERT(cc.attempted >= 999 && cc.attempted <= 1000);
	tt_pair_fini(&p);
}

static void
test_http_server_time_wait(void)
{
	struct tt_pair p;
	struct wr_tcp_counters sc;

	/* the server closes first (HTTP's Connection: close) and holds
	 * TIME_WAIT; the client takes the same two ports again at once: the
	 * server takes each new SYN (RFC 6191), no wait of 1 s each */
	tt_pair_init(&p, 10, 1, 16);
	p.spec.is_http = true;
	p.spec.n_steps = 0;
	p.spec.client.sport_lo = 3000;
	p.spec.client.sport_hi = 3001;
	tt_pair_create(&p);
	tt_run(&p, 20000000000ull, NULL);
	CU_ASSERT(p.now < 100000000ull);
	wr_tcp_counters(p.srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT_EQUAL(sc.closed, 10);
	CU_ASSERT_EQUAL(sc.time_wait, 2);
	CU_ASSERT_EQUAL(sc.failed_reset + sc.failed_timeout, 0);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static void
stop_at_1s(struct tt_pair *p)
{
	if (p->now >= 1000000000ull && p->now < 1000010000ull)
		wr_tcp_stop(p->cli, false, p->now);
}

static void
test_until_close(void)
{
	struct tt_pair p;
	struct wr_tcp_counters cc, sc;

	/* clients send without end; a graceful stop at 1 s closes each
	 * after what it sent, every byte of which the server counted */
	tt_pair_init(&p, 4, 4, 16);
	p.spec.n_steps = 1;
	p.spec.steps[0] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND,
		.by = WR_TCP_CLIENT, .bytes = WR_TCP_UNTIL_CLOSE };
	tt_pair_create(&p);
	p.drop = 5;
	tt_run(&p, 60000000000ull, stop_at_1s);
	wr_tcp_counters(p.cli, 0, WR_TCP_CLIENT, &cc);
	wr_tcp_counters(p.srv, 0, WR_TCP_SERVER, &sc);
	CU_ASSERT_EQUAL(cc.closed, 4);
	CU_ASSERT_EQUAL(sc.closed, 4);
	CU_ASSERT(cc.tx_bytes > 10000000);
	CU_ASSERT_EQUAL(cc.tx_bytes, sc.rx_bytes);
	CU_ASSERT_EQUAL(cc.app_errors + sc.app_errors, 0);
	CU_ASSERT(wr_tcp_done(p.cli) && wr_tcp_done(p.srv));
	expect_conserved(&p);
	if (CU_get_number_of_failures() > p.f0)
		tt_dump(&p);
	tt_pair_fini(&p);
}

static CU_TestInfo b2b_tests[] = {
	{ "back to back, a clean link", test_clean },
	{ "back to back, loss, duplicates, reordering", test_lossy },
	{ "TIME_WAIT: four ports used again", test_time_wait_ports },
	{ "back to back over IPv6, lossy", test_v6_lossy },
	{ "HTTP keep-alive, lossy", test_http_lossy },
	{ "a new SYN ends the server's TIME_WAIT", test_http_server_time_wait },
	{ "abort: RSTs to every connection", test_abort },
	{ "a send without end, stopped gracefully", test_until_close },
	{ "rate, ramp, duration; pause and rate by wr_tcp_ctl", test_rate_ramp },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "tcp_b2b", .pTests = b2b_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

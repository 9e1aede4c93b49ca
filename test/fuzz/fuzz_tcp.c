/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: frames into the TCP engine (wr_tcp_input), a server and a client engine, raw and as segments wrapped in right checksums so that the state machine is reached. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wr_csum.h"
#include "wr_tcp.h"
#include "wr_tcp_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[WR_TCP_FRAME_MAX];
static uint32_t sent;
/* What the engine's last segment ends with (its seq + length, SYN and FIN
 * counted): a wrapped segment's ACK may be taken relative to it, so that
 * handshakes complete without guessing an ISN. */
static uint32_t peer_next;

static uint8_t *
io_frame(void *ctx, uint32_t room)
{
	(void)ctx;
	return room <= sizeof(out) ? out : NULL;
}

static void
io_send(void *ctx, uint32_t len, uint16_t l3, uint16_t l4)
{
	const uint8_t *th = out + l4;
	uint32_t hl, ipl;

	(void)ctx;
	if (len > sizeof(out) || l4 + 20u > len || l3 >= l4)
		abort();        /* the engine wrote past what it was lent */
	sent++;
	hl = (uint32_t)(th[12] >> 4) * 4u;
	ipl = (uint32_t)(out[l3 + 2] << 8 | out[l3 + 3]) + l3;
	peer_next = (uint32_t)th[4] << 24 | (uint32_t)th[5] << 16 |
		    (uint32_t)th[6] << 8 | th[7];
	peer_next += ipl - l4 - hl + ((th[13] & 3) ? 1 : 0);
}

/* @p seg (a TCP header and payload) to 10.0.0.2 from 10.0.0.1 in an
 * Ethernet/IPv4 frame with right checksums. */
static uint32_t
wrap(uint8_t *f, const uint8_t *seg, uint32_t n, bool rel)
{
	uint64_t s;
	uint16_t c;

	memset(f, 0, 34);
	f[12] = 0x08;
	f[14] = 0x45;
	f[16] = (uint8_t)((20 + n) >> 8);
	f[17] = (uint8_t)(20 + n);
	f[22] = 64;
	f[23] = 6;
	memcpy(f + 26, "\x0a\0\0\x01\x0a\0\0\x02", 8);
	c = wr_csum_ipv4(wr_csum_sum(f + 14, 20));
	f[24] = (uint8_t)(c >> 8);
	f[25] = (uint8_t)c;
	memcpy(f + 34, seg, n);
	if (rel && n >= 12) {
		/* the ACK field as a signed 16-bit step from peer_next */
		uint32_t a = peer_next + (uint32_t)(int32_t)(int16_t)
			     (seg[10] << 8 | seg[11]);

		f[34 + 8] = (uint8_t)(a >> 24);
		f[34 + 9] = (uint8_t)(a >> 16);
		f[34 + 10] = (uint8_t)(a >> 8);
		f[34 + 11] = (uint8_t)a;
	}
	if (n >= 18) {
		f[34 + 16] = f[34 + 17] = 0;
		s = 0x0a000001ull + 0x0a000002ull + 6 + n +
		    wr_csum_sum(f + 34, n);
		c = (uint16_t)~wr_csum_fold(s);
		f[34 + 16] = (uint8_t)(c >> 8);
		f[34 + 17] = (uint8_t)c;
	}
	return 34 + n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wr_tcp_class spec;
	static struct wr_tcp_local srv = { .ip = 0x0a000002 };
	static struct wr_tcp_local cli = { .ip = 0x0a000002 };
	static const __uint128_t peer = 0x0a000001;
	struct wr_tcp_class_rt rt = { .spec = &spec };
	struct wr_tcp_cfg cfg = { .n_lanes = 1, .seed = 7, .n_classes = 1,
				  .max_conns = 8 };
	struct wr_tcp *t = NULL;
	struct wr_error err;
	static uint8_t f[WR_TCP_FRAME_MAX + 64];
	uint64_t now = 1000000;
	size_t i = 1;

	if (size < 1)
		return 0;
	wr_tcp_class_defaults(&spec);
	spec.client.present = spec.server.present = true;
	spec.count = 4;
	spec.n_steps = 3;
	spec.steps[0] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND, .by = 0, .bytes = 3000 };
	spec.steps[1] = (struct wr_tcp_step){ .op = WR_TCP_OP_SEND, .by = 1, .bytes = 100 };
	spec.steps[2] = (struct wr_tcp_step){ .op = WR_TCP_OP_CLOSE, .by = 0 };
	cfg.classes = &rt;
	cfg.io = (struct wr_tcp_io){ .frame = io_frame, .send = io_send };
	/* the first byte: bit 0 the client side (else the server), bit 1
	 * raw frames (else wrapped segments), bit 2 abort at the end, bit 3
	 * ACKs relative to the engine's last segment */
	peer_next = 0;
	if (data[0] & 1) {
		rt.clients = &cli;
		rt.n_clients = 1;
		rt.servers = &peer;
		rt.n_servers = 1;
		spec.client.sport_lo = 1000;
		spec.client.sport_hi = 1003;
		spec.server.dport = 80;
	} else {
		rt.listen = &srv;
		rt.n_listen = 1;
	}
	if (wr_tcp_create(&t, &cfg, &err) != 0)
		abort();
	wr_tcp_start(t, now);
	wr_tcp_poll(t, now);
	/* then frames: a 2-byte length, the bytes, a time step */
	while (i + 3 <= size) {
		uint32_t n = (uint32_t)(data[i] << 8 | data[i + 1]) % 2048;
		uint8_t step = data[i + 2];

		i += 3;
		if (n > size - i)
			n = (uint32_t)(size - i);
		if (data[0] & 2)
			(void)wr_tcp_input(t, data + i, n, now);
		else
			(void)wr_tcp_input(t, f, wrap(f, data + i, n, data[0] & 8),
					   now);
		i += n;
		now += (uint64_t)step << (step & 0x80 ? 22 : 12);
		wr_tcp_poll(t, now);
	}
	wr_tcp_stop(t, (data[0] & 4) != 0, now);
	wr_tcp_poll(t, now + 5000000000ull);
	wr_tcp_free(t);
	return 0;
}

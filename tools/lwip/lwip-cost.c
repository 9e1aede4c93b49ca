/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lwip-cost: what a TCP connection costs in lwIP as Debian ships it (liblwip-dev 2.1.3,
 * its lwipopts.h), for README's "Why our own TCP".  Not part of the build:
 *
 *   cc -O2 -o /tmp/lwip-cost tools/lwip/lwip-cost.c $(pkg-config --cflags --libs lwip) -lpthread
 *   /tmp/lwip-cost [N]          # N connections (default 20000)
 *
 * Prints sizeof(struct tcp_pcb), the heap bytes a connection holds after tcp_connect()
 * (its pcb, the SYN kept for retransmission: mallinfo2's in-use bytes over N), the time
 * tcp_connect() took per connection, and the time one received segment takes with 1k,
 * N/2 and N connections open: lwIP finds a segment's connection by walking one global
 * list (tcp_in.c, tcp_input: for (pcb = tcp_active_pcbs; ...)), so that time grows with
 * the connections.  Without a bind, tcp_connect() gives each connection a local port
 * no other holds, from 0xc000-0xffff: 16,384 client connections a stack.  Everything is one stack per process behind one core lock
 * (LOCK_TCPIP_CORE): tcp_active_pcbs, tcp_tw_pcbs, tcp_listen_pcbs, tcp_ticks are globals.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lwip/init.h"
#include "lwip/inet_chksum.h"
#include "lwip/ip4.h"
#include "lwip/netif.h"
#include "lwip/prot/ip4.h"
#include "lwip/prot/tcp.h"
#include "lwip/tcp.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/tcpip.h"

static volatile int up;
static unsigned long out_frames;

static void done(void *arg)
{
	(void)arg;
	up = 1;
}

/* The link: every frame lwIP sends (SYNs, RSTs) is counted and dropped. */
static err_t drop_out(struct netif *n, struct pbuf *p, const ip4_addr_t *a)
{
	(void)n; (void)p; (void)a;
	out_frames++;
	return ERR_OK;
}

static err_t nif_init(struct netif *n)
{
	n->output = drop_out;
	n->mtu = 1500;
	n->flags = NETIF_FLAG_UP | NETIF_FLAG_LINK_UP;
	return ERR_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A SYN to 10.0.0.1:81 from 10.200.0.1:1: of no connection (an RST answers it) after
 * lwIP walked every active connection. */
static struct pbuf *segment(void)
{
	struct pbuf *p = pbuf_alloc(PBUF_RAW, 40, PBUF_RAM);
	struct ip_hdr *ip = p->payload;
	struct tcp_hdr *th = (struct tcp_hdr *)((char *)p->payload + 20);
	ip_addr_t s, d;

	memset(p->payload, 0, 40);
	IPH_VHL_SET(ip, 4, 5);
	IPH_LEN_SET(ip, lwip_htons(40));
	IPH_TTL_SET(ip, 64);
	IPH_PROTO_SET(ip, IP_PROTO_TCP);
	IP4_ADDR(&ip->src, 10, 200, 0, 1);
	IP4_ADDR(&ip->dest, 10, 0, 0, 1);
	IPH_CHKSUM_SET(ip, inet_chksum(ip, 20));
	th->src = lwip_htons(1);
	th->dest = lwip_htons(81);
	th->seqno = lwip_htonl(1);
	TCPH_HDRLEN_FLAGS_SET(th, 5, TCP_SYN);
	th->wnd = lwip_htons(65535);
	ip_addr_copy_from_ip4(s, ip->src);
	ip_addr_copy_from_ip4(d, ip->dest);
	pbuf_remove_header(p, 20);
	th->chksum = ip_chksum_pseudo(p, IP_PROTO_TCP, 20, &s, &d);
	pbuf_add_header(p, 20);
	return p;
}

static double input_ns(struct netif *n)
{
	const int reps = 2000;
	double t0 = now_s();
	int i;

	for (i = 0; i < reps; i++)
		ip4_input(segment(), n);
	return (now_s() - t0) / reps * 1e9;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000, k, active = 0;
	struct netif nif;
	ip4_addr_t ip, mask, gw;
	size_t heap0, heap1;
	double t0, t_conn, in_1k = 0, in_half = 0, in_n;
	struct tcp_pcb *pcb;

	tcpip_init(done, NULL);
	while (!up)
		sched_yield();
	LOCK_TCPIP_CORE();
	IP4_ADDR(&ip, 10, 0, 0, 1);
	IP4_ADDR(&mask, 255, 0, 0, 0);
	IP4_ADDR(&gw, 10, 0, 0, 254);
	netif_add(&nif, &ip, &mask, &gw, NULL, nif_init, ip4_input);
	netif_set_default(&nif);
	netif_set_up(&nif);
	netif_set_link_up(&nif);

	heap0 = mallinfo2().uordblks;
	t0 = now_s();
	for (k = 0; k < n; k++) {
		ip_addr_t peer;

		IP_ADDR4(&peer, 10, 1 + (k >> 16), (k >> 8) & 0xff, k & 0xff);
		pcb = tcp_new();
		/* Bound by hand: tcp_connect()'s own choice takes a local port no other
		 * connection holds, whatever the peer, from 0xc000-0xffff: 16,384
		 * connections a stack at most. */
		if (pcb != NULL) {
			ip_set_option(pcb, SOF_REUSEADDR);
			tcp_bind(pcb, IP_ADDR_ANY, 1024 + k % 60000);
		}
		if (pcb == NULL || tcp_connect(pcb, &peer, 80, NULL) != ERR_OK) {
			fprintf(stderr, "lwip-cost: connection %lu failed\n", k);
			return 1;
		}
		if (k + 1 == 1000)
			in_1k = input_ns(&nif);
		if (k + 1 == n / 2)
			in_half = input_ns(&nif);
	}
	t_conn = now_s() - t0;
	heap1 = mallinfo2().uordblks;
	in_n = input_ns(&nif);
	for (pcb = tcp_active_pcbs; pcb != NULL; pcb = pcb->next)
		active++;
	UNLOCK_TCPIP_CORE();

	printf("lwIP %s (Debian liblwip-dev, its lwipopts.h: TCP_WND %d, TCP_SND_BUF %d, MEMP_MEM_MALLOC %d)\n",
	       LWIP_VERSION_STRING, TCP_WND, TCP_SND_BUF, MEMP_MEM_MALLOC);
	printf("sizeof(struct tcp_pcb)        %zu\n", sizeof(struct tcp_pcb));
	printf("sizeof(struct tcp_pcb_listen) %zu\n", sizeof(struct tcp_pcb_listen));
	printf("sizeof(struct tcp_seg)        %zu\n", sizeof(struct tcp_seg));
	printf("sizeof(struct pbuf)           %zu\n", sizeof(struct pbuf));
	printf("connections (SYN_SENT)        %lu (tcp_active_pcbs: %lu; frames out %lu)\n",
	       n, active, out_frames);
	printf("heap per connection           %.0f bytes (malloc in use, pcb + SYN kept for retransmission)\n",
	       (double)(heap1 - heap0) / n);
	printf("tcp_connect() per connection  %.0f ns (tcp_bind: a walk of every list)\n",
	       t_conn / n * 1e9);
	printf("one segment in, 1000 open     %.0f ns\n", in_1k);
	printf("one segment in, %lu open %*s%.0f ns\n", n / 2, (int)(12 - snprintf(NULL, 0, "%lu", n / 2)), "", in_half);
	printf("one segment in, %lu open %*s%.0f ns\n", n, (int)(12 - snprintf(NULL, 0, "%lu", n)), "", in_n);
	return 0;
}

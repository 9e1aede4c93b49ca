/* SPDX-License-Identifier: BSD-3-Clause */
/* host_pcap: a stream file's hosts run on frames from a capture (what a peer says to them), and what they send written to another, for test_host_scapy.py to decode with Scapy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>

#include "wr_host.h"
#include "wr_yaml.h"

/*
 * Usage: host_pcap STREAMS.yaml IN.pcap OUT.pcap
 * The hosts of port 0 start at 0; the engine runs in 1 ms ticks to 2 s
 * (DAD over, gateways asked twice); IN's frames go in from 2 s, 1 ms
 * apart; ticks go on to 2.5 s.  Each frame sent is written with the time
 * it was sent at.  Exit 0, or 1 with the reason on stderr.
 */

#define MS 1000000ull

struct out {
	pcap_dumper_t *d;
	uint64_t now;
	uint64_t n;
};

static int
write_frame(void *ctx, const uint8_t *frame, uint32_t len)
{
	struct out *o = ctx;
	struct pcap_pkthdr h = { 0 };

	h.ts.tv_sec = (time_t)(o->now / 1000000000ull);
	h.ts.tv_usec = (suseconds_t)(o->now % 1000000000ull / 1000);
	h.caplen = len;
	h.len = len;
	pcap_dump((u_char *)o->d, &h, frame);
	o->n++;
	return 0;
}

static void
run_to(struct wr_hosts *hs, struct out *o, uint64_t *t, uint64_t end)
{
	for (; *t <= end; *t += MS) {
		o->now = *t;
		wr_hosts_tick(hs, *t);
	}
}

static int
run(struct wr_stream_file *f, pcap_t *in, struct out *o)
{
	struct wr_hosts *hs;
	struct wr_error err;
	struct pcap_pkthdr *ph;
	const u_char *data;
	uint64_t t = 0;

	if (wr_hosts_create(&hs, &f->hosts, 0, f->seed, write_frame, o, &err) != 0) {
		fprintf(stderr, "host_pcap: %s\n", err.msg);
		return 1;
	}
	o->now = 0;
	wr_hosts_start(hs, 0);
	run_to(hs, o, &t, 2000 * MS);
	while (pcap_next_ex(in, &ph, &data) == 1) {
		o->now = t;
		wr_hosts_input(hs, data, ph->caplen, t);
		t += MS;
		wr_hosts_tick(hs, t);
	}
	run_to(hs, o, &t, 2500 * MS);
	wr_hosts_free(hs);
	return 0;
}

int
main(int argc, char **argv)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct wr_stream_file f;
	struct wr_error err;
	struct out o = { 0 };
	pcap_t *in, *dead;
	int rc;

	if (argc != 4) {
		fprintf(stderr, "usage: host_pcap STREAMS.yaml IN.pcap OUT.pcap\n");
		return 2;
	}
	if (wr_yaml_load_streams(argv[1], &f, &err) != 0) {
		fprintf(stderr, "host_pcap: %s:%u:%u: %s: %s\n", err.file, err.line,
			err.col, err.path, err.msg);
		return 1;
	}
	in = pcap_open_offline(argv[2], ebuf);
	dead = pcap_open_dead(DLT_EN10MB, 65535);
	o.d = dead ? pcap_dump_open(dead, argv[3]) : NULL;
	if (in == NULL || o.d == NULL) {
		fprintf(stderr, "host_pcap: %s\n", in ? pcap_geterr(dead) : ebuf);
		return 1;
	}
	rc = run(&f, in, &o);
	pcap_dump_close(o.d);
	pcap_close(dead);
	pcap_close(in);
	wr_stream_file_free(&f);
	fprintf(stderr, "host_pcap: %llu frames sent\n", (unsigned long long)o.n);
	return rc;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_filter: tcpdump filter expressions (captures, rx_classes) compiled by libpcap. */
#ifndef WR_FILTER_H
#define WR_FILTER_H

/**
 * @file
 * Two things take tcpdump's filter language: `--capture-filter EXPR` (which
 * frames a capture keeps) and `rx_classes:` (named filters that count, per
 * port, the received frames that carry no signature of ours).  Both are
 * compiled here by libpcap's pcap_compile() for Ethernet (DLT_EN10MB), the
 * one compiler of that language everybody trusts, into classic BPF.  The
 * data path translates the program to eBPF and has DPDK's rte_bpf verify
 * and JIT-compile it (wr_bpf.h in lib/dp) when the run starts, so
 * everything a user can get wrong is found here, before EAL starts: an
 * expression libpcap refuses is one error line naming it and libpcap's
 * reason.
 *
 * wr_filter_match() runs the classic program with libpcap's own
 * interpreter (pcap_offline_filter): the reference the JIT is tested
 * against, and what tests use.
 *
 * A class definition (profile or stream file):
 *
 *     rx_classes:
 *       - {name: arp, filter: "arp"}
 *       - {name: ospf, filter: "ip proto 89"}
 *       - {name: icmp-errors, filter: "icmp[icmptype] == icmp-unreach"}
 *
 * name: 1..31 characters of [A-Za-z0-9_.-], unique, not "foreign";
 * filter: 1..1023 characters libpcap compiles.  At most WR_RX_CLASSES_MAX.
 * A frame without our signature counts in the first class (in file order,
 * the profile's before the stream file's) whose filter matches it, else in
 * rx_foreign.  Every polled port counts every class.
 *
 * Threads: any; no global state.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pcap/pcap.h>

#include "wr_error.h"

#define WR_FILTER_EXPR_MAX 1024
#define WR_RX_CLASS_NAME_MAX 32
/** Classes per run (the data path runs them as one program:
 * wr_filter_merge()). */
#define WR_RX_CLASSES_MAX 16

/** One compiled expression; bpf.bf_insns is owned (wr_filter_free()). */
struct wr_filter {
	char expr[WR_FILTER_EXPR_MAX];
	struct bpf_program bpf;
	bool compiled;
};

/**
 * Compile @p expr (tcpdump's language) for Ethernet frames.
 * @param why  on -EINVAL, libpcap's reason (@p why_len bytes)
 * @return 0; -EINVAL (empty, too long, libpcap refused it, or DPDK's eBPF
 *         cannot take it: wr_filter_bpf_ok()); -ENOMEM.
 */
int wr_filter_compile(struct wr_filter *f, const char *expr, char *why,
		      size_t why_len);

/**
 * Whether DPDK's eBPF (wr_bpf.h) can take the classic program @p p: the
 * one rule of what the data path translates, found here before EAL so that
 * `wirerate check` refuses exactly what `run` would.  It refuses a jump
 * backwards (libpcap's `protochain` loops: classic BPF has no backward
 * jump, libpcap's offsets wrap around to one, and DPDK's verifier refuses
 * loops), a jump past the end, and the instructions and operands the
 * translation has no eBPF for.  wr_filter_compile() calls it.
 * @param why  on false, what is not taken (@p why_len bytes)
 */
bool wr_filter_bpf_ok(const struct bpf_program *p, char *why, size_t why_len);

/** Free the program.  NULL-safe; @p f may be compiled again after. */
void wr_filter_free(struct wr_filter *f);

/**
 * Run the classic program on @p caplen bytes of a frame of @p len bytes
 * (libpcap's interpreter).  @return true when it matches.
 */
bool wr_filter_match(const struct wr_filter *f, const uint8_t *frame,
		     uint32_t caplen, uint32_t len);

struct wr_rx_class {
	char name[WR_RX_CLASS_NAME_MAX];
	struct wr_filter filter;
	char file[WR_ERROR_FILE_MAX]; /**< where it was defined, for errors */
	unsigned int line, col;
};

struct wr_rx_classes {
	unsigned int n;
	struct wr_rx_class c[WR_RX_CLASSES_MAX];
};

struct wr_ywalk;
struct wr_ynode;

/**
 * Parse an `rx_classes:` list (@p n, a YAML sequence) into @p out,
 * appending after the classes it holds.  Errors name file:line:col, the
 * key path and, for a filter, libpcap's reason.
 * @return 0, -EINVAL or -ENOMEM (through @p w's error).
 */
int wr_rx_classes_parse(struct wr_ywalk *w, const struct wr_ynode *n,
			struct wr_rx_classes *out);

/**
 * Check that the profile's classes @p a and the stream file's @p b can be
 * used together: no name in both, at most WR_RX_CLASSES_MAX in all.
 * @return 0 or -EINVAL (@p err names the second definition).
 */
int wr_rx_classes_check_pair(const struct wr_rx_classes *a,
			     const struct wr_rx_classes *b,
			     struct wr_error *err);

/** Free every program of @p cs and empty it.  NULL-safe. */
void wr_rx_classes_free(struct wr_rx_classes *cs);

/**
 * The index of the first class of @p cs matching the frame (libpcap's
 * interpreter, for tests and checks), or -1.
 */
int wr_rx_classes_match(const struct wr_rx_classes *cs, const uint8_t *frame,
			uint32_t caplen, uint32_t len);

/**
 * The @p n filters of @p fs (at most WR_RX_CLASSES_MAX) as one classic
 * program that runs them in order and returns 1 + the index of the first
 * that takes the frame, @p n + 1 when none does, and 0 when a load beyond
 * the frame stopped it (libpcap's interpreter and DPDK's eBPF end a
 * program there with 0, so the filters from that one on did not all
 * run: the caller runs them one by one).  One program instead of @p n:
 * one call a frame, and DPDK's JIT compiles it once.
 * @param out compiled on success; free it with wr_filter_free()
 * @return 0; -E2BIG (longer than the 4096 instructions DPDK converts);
 *         -EINVAL (a filter not compiled, @p n out of range, a return
 *         libpcap never emits); -ENOMEM.
 */
int wr_filter_merge(const struct wr_filter *const *fs, unsigned int n,
		    struct wr_filter *out);

#endif /* WR_FILTER_H */

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bpf: libpcap's classic BPF translated to DPDK eBPF, verified, JIT. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <bpf_def.h>

#include "wr_bpf.h"

/*
 * One translation of a classic program, for two targets.
 *
 * The mbuf program takes the mbuf (RTE_BPF_ARG_PTR_MBUF): packet loads are
 * eBPF's own LD_ABS/LD_IND, which DPDK's JIT makes into a bounds check
 * against data_len and loads of three mbuf fields before the byte itself,
 * and which read through rte_pktmbuf_read() beyond the first segment; a
 * load beyond the frame returns 0 from the program, as in classic BPF.  It
 * answers every frame.
 *
 * The direct program takes a pointer to the frame's bytes (RTE_BPF_ARG_PTR
 * of a fixed size, direct_len): every absolute load is within those bytes
 * and is a plain load; an indirect load ([x + k]) is checked against
 * direct_len in the program and, past it, the program returns
 * WR_BPF_FALLBACK for the mbuf program to answer.  It runs only on frames
 * whose first segment holds direct_len bytes, so it reads what libpcap's
 * interpreter reads and returns what it returns.  Measured with cachegrind
 * on the rx_classes benchmark's three classes (a UDP frame of the third),
 * JIT code and net_ring's receive together: 127 instructions a frame with
 * the mbuf program, 86 with the direct one, 77 with its registers below.
 * A program with a length load or loads past D_LEN_MAX has none.
 *
 * Registers: A in r0, r2 and r3 for a moment.  The mbuf program: X in r7,
 * the mbuf in r6 (LD_ABS clobbers r1..r5), M[k] on the stack, r8 for A
 * across an MSH load.  The direct program, which calls nothing: the frame
 * where it came, in r1, X in r4, and up to five scratch words in r5..r9,
 * so that DPDK's JIT has no stack to set up and only the words' registers
 * to save (the 8 instructions a frame above).  A and X are kept
 * zero-extended (32-bit operations), so 64-bit compares equal classic
 * BPF's 32-bit ones.
 *
 * Where DPDK 22.11's eBPF would answer otherwise than libpcap:
 * - DPDK's x86 JIT encodes "test imm, reg" with an 8-bit immediate where
 *   x86 takes 32 bits: a JSET with a constant of -128..127
 *   ("tcp[13] & 2 != 0") jumped into the middle of an instruction
 *   (SIGSEGV).  Such a JSET takes its constant from a register.  (Any
 *   other JSET keeps its immediate: sign-extended, it sets only bits
 *   32..63, which A never has.)
 * - An immediate is sign-extended to 64 bits: a compare with a constant
 *   above 2^31 takes it from a register too.
 * - A shift by X of 32 or more makes A 0 in libpcap, where x86 shifts by
 *   X & 31: tested before the shift.
 * - Its x86 JIT puts the epilogue at the first EXIT and jumps back to it
 *   from the others, and sized one such jump short for a distance of -130
 *   (it ran past the code): a program here has one EXIT, at its end.
 * And where DPDK would crash on what libpcap answers: an indirect index
 * near 2^32 wraps rte_pktmbuf_read()'s bounds check, so the mbuf program
 * checks X + k against the frame's length first.
 */
enum target { T_MBUF, T_DIRECT };

#define R_A 0
#define R_T1 2
#define R_T2 3
#define R_SAVE 8
#define R_FP 10
/* The direct program's first register for scratch words, and how many. */
#define R_MEM0 5
#define MEM_REGS 5
/* The smallest direct_len: the shortest Ethernet frame without its FCS. */
#define D_LEN_MIN 60
/* Beyond this, a program's absolute loads reach past frames most links
 * carry: no direct program. */
#define D_LEN_MAX 9000

struct emit {
	struct ebpf_insn *ins;     /* NULL: count only */
	uint32_t n;
};

static void
put(struct emit *d, uint8_t code, uint8_t dst, uint8_t src, int16_t off,
    int32_t imm)
{
	if (d->ins != NULL)
		d->ins[d->n] = (struct ebpf_insn){ .code = code, .dst_reg = dst,
			.src_reg = src, .off = off, .imm = imm };
	d->n++;
}

/* The offset of a jump, about to be emitted, to eBPF index @p to. */
static int16_t
jmp_to(const struct emit *d, uint32_t to)
{
	return (int16_t)((int64_t)to - (int64_t)d->n - 1);
}

static int16_t
mem_off(uint32_t k)
{
	return (int16_t)(-8 * (int32_t)(BPF_MEMWORDS - k));
}

static uint32_t
ld_size(uint16_t code)
{
	return BPF_SIZE(code) == BPF_W ? 4 : BPF_SIZE(code) == BPF_H ? 2 : 1;
}

/* A direct load of @p code's size, made a number (network order). */
static void
put_load(struct emit *d, uint16_t code, uint8_t dst, uint8_t base, int16_t off)
{
	put(d, BPF_LDX | BPF_MEM | (uint8_t)BPF_SIZE(code), dst, base, off, 0);
	if (ld_size(code) > 1)
		put(d, BPF_ALU | EBPF_END | EBPF_TO_BE, dst, 0, 0,
		    (int32_t)ld_size(code) * 8);
}

/* What a program needs, and where its words are. */
struct scan {
	uint32_t len;              /* T_DIRECT: direct_len */
	bool ind;                  /* an indirect load: the fallback exit */
	bool div;                  /* a division by X: the exit with 0 */
	uint16_t mem_read;         /* scratch words loaded */
	uint16_t mem_used;         /* scratch words loaded or stored */
	uint8_t r_p;               /* the mbuf or the frame */
	uint8_t r_x;               /* X */
	uint8_t mem_reg[BPF_MEMWORDS]; /* M[k]'s register, 0: the stack */
};

/* A or X (@p dst) = a constant, a scratch word or the frame's length
 * (@p mode: BPF_IMM, BPF_MEM, BPF_LEN; the mbuf program's only). */
static void
put_word(struct emit *d, const struct scan *s, uint32_t mode, uint8_t dst,
	 uint32_t k)
{
	if (mode == BPF_IMM)
		put(d, BPF_ALU | EBPF_MOV | BPF_K, dst, 0, 0, (int32_t)k);
	else if (mode == BPF_MEM && s->mem_reg[k] != 0)
		put(d, BPF_ALU | EBPF_MOV | BPF_X, dst, s->mem_reg[k], 0, 0);
	else if (mode == BPF_MEM)
		put(d, BPF_LDX | BPF_MEM | BPF_W, dst, R_FP, mem_off(k), 0);
	else
		put(d, BPF_LDX | BPF_MEM | BPF_W, dst, s->r_p,
		    offsetof(struct rte_mbuf, pkt_len), 0);
}

/* M[k] = @p src (A or X). */
static void
put_store(struct emit *d, const struct scan *s, uint8_t src, uint32_t k)
{
	if (s->mem_reg[k] != 0)
		put(d, BPF_ALU | EBPF_MOV | BPF_X, s->mem_reg[k], src, 0, 0);
	else
		put(d, BPF_STX | BPF_MEM | BPF_W, R_FP, src, mem_off(k), 0);
}

/* @return false when @p p cannot be translated for @p t: what no target
 * takes is wr_filter_bpf_ok()'s (also asked before EAL, by `check`), the
 * direct program's own limits are here. */
static bool
scan(const struct bpf_program *p, enum target t, struct scan *s)
{
	uint32_t i, r;

	memset(s, 0, sizeof(*s));
	s->len = D_LEN_MIN;
	if (!wr_filter_bpf_ok(p, NULL, 0))
		return false;
	for (i = 0; i < p->bf_len; i++) {
		const struct bpf_insn *c = &p->bf_insns[i];
		uint32_t op = BPF_OP(c->code), mode = BPF_MODE(c->code);

		switch (BPF_CLASS(c->code)) {
		case BPF_LD:
		case BPF_LDX:
			if (mode == BPF_ABS || mode == BPF_MSH) {
				if (t == T_DIRECT && c->k > D_LEN_MAX)
					return false;
				s->len = RTE_MAX(s->len, c->k + (mode ==
					BPF_MSH ? 1 : ld_size(c->code)));
			} else if (mode == BPF_IND) {
				s->ind = true;
			} else if (mode == BPF_MEM) {
				s->mem_read |= (uint16_t)(1u << c->k);
				s->mem_used |= (uint16_t)(1u << c->k);
			} else if (mode == BPF_LEN && t == T_DIRECT) {
				/* The frame's length is not passed. */
				return false;
			}
			break;
		case BPF_ST:
		case BPF_STX:
			s->mem_used |= (uint16_t)(1u << c->k);
			break;
		case BPF_ALU:
			if ((op == BPF_DIV || op == BPF_MOD) &&
			    BPF_SRC(c->code) == BPF_X)
				s->div = true;
			break;
		default:
			break;
		}
	}
	if (t == T_MBUF) {
		s->r_p = 6;
		s->r_x = 7;
		return true;
	}
	s->r_p = 1;
	s->r_x = 4;
	if (__builtin_popcount(s->mem_used) <= MEM_REGS)
		for (i = 0, r = R_MEM0; i < BPF_MEMWORDS; i++)
			if (s->mem_used & (1u << i))
				s->mem_reg[i] = (uint8_t)r++;
	return s->len <= D_LEN_MAX;
}

/* The exits after the program: past direct_len (the direct program's
 * indirect loads, 3 instructions), then the one that returns 0 (a division
 * by 0; the mbuf program's indirect loads beyond the frame: 2), then the
 * program's one EXIT. */
static uint32_t
exit_zero(const struct scan *s, enum target t, uint32_t exits)
{
	return exits + (s->ind && t == T_DIRECT ? 3 : 0);
}

static uint32_t
exit_last(const struct scan *s, enum target t, uint32_t exits)
{
	return exit_zero(s, t, exits) +
		(s->div || (s->ind && t == T_MBUF) ? 2 : 0);
}

/* One translation pass: the program, its target and what scan() found;
 * @p at (bf_len + 1 entries) holds each classic instruction's first eBPF
 * index from the pass before, its last entry where the exits start. */
struct xlat {
	const struct bpf_program *p;
	enum target t;
	const struct scan *s;
	uint32_t *at;
	uint32_t exits;
};

static void
emit_prologue(struct emit *d, const struct xlat *x)
{
	const struct scan *s = x->s;
	uint32_t k;

	if (s->r_p != 1)
		put(d, EBPF_ALU64 | EBPF_MOV | BPF_X, s->r_p, 1, 0, 0);
	put(d, BPF_ALU | EBPF_MOV | BPF_K, R_A, 0, 0, 0);
	put(d, BPF_ALU | EBPF_MOV | BPF_K, s->r_x, 0, 0, 0);
	/* The scratch registers 0 wherever paths meet, from here on: the
	 * verifier prunes a path only at a state equal to one it has seen,
	 * in every register (with constants left in them it walked every
	 * path: a 175-instruction VLAN filter took 8 s to load, against
	 * 2 ms for DPDK's converter).  The mbuf program's packet loads make
	 * r1..r5 undefined: r2 is set again after each. */
	put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
	if (x->t == T_DIRECT)
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T2, 0, 0, 0);
	else
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_SAVE, 0, 0, 0);
	/* Defined for the verifier; libpcap's programs store before they
	 * load. */
	for (k = 0; k < BPF_MEMWORDS; k++)
		if (s->mem_reg[k] != 0)
			put(d, BPF_ALU | EBPF_MOV | BPF_K, s->mem_reg[k], 0, 0,
			    0);
		else if (s->mem_read & (1u << k))
			put(d, BPF_ST | BPF_MEM | BPF_W, R_FP, 0, mem_off(k), 0);
}

/* A = the frame's bytes at k. */
static void
emit_ld_abs(struct emit *d, const struct xlat *x, const struct bpf_insn *c)
{
	if (x->t == T_MBUF) {
		put(d, BPF_LD | BPF_ABS | (uint8_t)BPF_SIZE(c->code), 0, 0, 0,
		    (int32_t)c->k);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
	} else {
		put_load(d, c->code, R_A, x->s->r_p, (int16_t)c->k);
	}
}

/* A = the frame's bytes at X + k. */
static void
emit_ld_ind(struct emit *d, const struct xlat *x, const struct bpf_insn *c)
{
	const struct scan *s = x->s;
	uint32_t k;

	if (x->t == T_MBUF) {
		/* X + k beyond the frame: 0, as libpcap, before DPDK sees
		 * it.  DPDK's load adds them in 32 bits, and
		 * rte_pktmbuf_read()'s bounds check wraps on an offset near
		 * 2^32 ("ip[3 - ip[42 - ip[9]]]": a NULL segment read,
		 * SIGSEGV). */
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, (int32_t)c->k);
		put(d, EBPF_ALU64 | BPF_ADD | BPF_X, R_T1, s->r_x, 0, 0);
		put(d, BPF_LDX | BPF_MEM | BPF_W, R_T2, s->r_p,
		    offsetof(struct rte_mbuf, pkt_len), 0);
		put(d, BPF_JMP | BPF_JGT | BPF_X, R_T1, R_T2,
		    jmp_to(d, exit_zero(s, x->t, x->exits)), 0);
		put(d, BPF_LD | BPF_IND | (uint8_t)BPF_SIZE(c->code), 0,
		    s->r_x, 0, (int32_t)c->k);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
		return;
	}
	/* X + k in 64 bits (no wrap), bounded both ways for the verifier. */
	k = s->len - ld_size(c->code);
	put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, (int32_t)c->k);
	put(d, EBPF_ALU64 | BPF_ADD | BPF_X, R_T1, s->r_x, 0, 0);
	put(d, BPF_JMP | BPF_JGT | BPF_K, R_T1, 0, jmp_to(d, x->exits),
	    (int32_t)k);
	put(d, BPF_JMP | EBPF_JSGT | BPF_K, R_T1, 0, jmp_to(d, x->exits),
	    (int32_t)k);
	put(d, BPF_JMP | EBPF_JSLT | BPF_K, R_T1, 0, jmp_to(d, x->exits), 0);
	put(d, EBPF_ALU64 | EBPF_MOV | BPF_X, R_T2, s->r_p, 0, 0);
	put(d, EBPF_ALU64 | BPF_ADD | BPF_X, R_T2, R_T1, 0, 0);
	put_load(d, c->code, R_A, R_T2, 0);
	/* 0 again (the prologue says why). */
	put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
	put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T2, 0, 0, 0);
}

/* X = 4 * (the frame's byte at k & 0xf): an IPv4 header's length. */
static void
emit_ldx_msh(struct emit *d, const struct xlat *x, const struct bpf_insn *c)
{
	const struct scan *s = x->s;

	if (x->t == T_MBUF) {
		/* LD_ABS loads into A. */
		put(d, EBPF_ALU64 | EBPF_MOV | BPF_X, R_SAVE, R_A, 0, 0);
		put(d, BPF_LD | BPF_ABS | BPF_B, 0, 0, 0, (int32_t)c->k);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
		put(d, BPF_ALU | EBPF_MOV | BPF_X, s->r_x, R_A, 0, 0);
		put(d, EBPF_ALU64 | EBPF_MOV | BPF_X, R_A, R_SAVE, 0, 0);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_SAVE, 0, 0, 0);
	} else {
		put(d, BPF_LDX | BPF_MEM | BPF_B, s->r_x, s->r_p,
		    (int16_t)c->k, 0);
	}
	put(d, BPF_ALU | BPF_AND | BPF_K, s->r_x, 0, 0, 0xf);
	put(d, BPF_ALU | BPF_LSH | BPF_K, s->r_x, 0, 0, 2);
}

static void
emit_alu(struct emit *d, const struct xlat *x, const struct bpf_insn *c)
{
	uint8_t op = (uint8_t)BPF_OP(c->code), r_x = x->s->r_x;

	if (op == BPF_NEG) {
		put(d, BPF_ALU | BPF_NEG, R_A, 0, 0, 0);
	} else if (BPF_SRC(c->code) == BPF_X &&
		   (op == BPF_LSH || op == BPF_RSH)) {
		/* libpcap: A = 0 for a shift by 32 or more, where x86 (and
		 * DPDK's JIT) shift by X & 31. */
		put(d, BPF_JMP | BPF_JGT | BPF_K, r_x, 0, 2, 31);
		put(d, BPF_ALU | op | BPF_X, R_A, r_x, 0, 0);
		put(d, BPF_JMP | BPF_JA, 0, 0, 1, 0);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_A, 0, 0, 0);
	} else if (BPF_SRC(c->code) == BPF_X) {
		/* Classic BPF returns 0 on a division by 0. */
		if (op == BPF_DIV || op == BPF_MOD)
			put(d, BPF_JMP | BPF_JEQ | BPF_K, r_x, 0,
			    jmp_to(d, exit_zero(x->s, x->t, x->exits)), 0);
		put(d, BPF_ALU | op | BPF_X, R_A, r_x, 0, 0);
	} else {
		put(d, BPF_ALU | op | BPF_K, R_A, 0, 0, (int32_t)c->k);
	}
}

/* Classic instruction @p i, a jump. */
static void
emit_jmp(struct emit *d, const struct xlat *x, uint32_t i)
{
	const struct bpf_insn *c = &x->p->bf_insns[i];
	uint32_t jt = x->at[i + 1 + c->jt], jf = x->at[i + 1 + c->jf];
	uint8_t op = (uint8_t)BPF_OP(c->code);

	/* Every choice below is made on the classic program alone, so that
	 * every pass emits the same sizes.  wr_filter_merge() leaves "ja 0"
	 * between programs: nothing to emit. */
	if (op == BPF_JA) {
		if (c->k != 0)
			put(d, BPF_JMP | BPF_JA, 0, 0,
			    jmp_to(d, x->at[i + 1 + c->k]), 0);
		return;
	}
	if (c->jt == c->jf) { /* not a condition */
		if (c->jt != 0)
			put(d, BPF_JMP | BPF_JA, 0, 0, jmp_to(d, jt), 0);
		return;
	}
	if (BPF_SRC(c->code) == BPF_K &&
	    (op == BPF_JSET ? (int32_t)c->k >= -128 && (int32_t)c->k <= 127 :
	     c->k > INT32_MAX)) {
		/* The constant in a register (see the top of the file), then
		 * that register made 0 again on both ways (the prologue says
		 * why). */
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, (int32_t)c->k);
		put(d, BPF_JMP | op | BPF_X, R_A, R_T1, 2, 0);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
		put(d, BPF_JMP | BPF_JA, 0, 0, jmp_to(d, jf), 0);
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_T1, 0, 0, 0);
		put(d, BPF_JMP | BPF_JA, 0, 0, jmp_to(d, jt), 0);
		return;
	}
	/* "jt 0": the inverse jump to jf alone. */
	if (c->jt == 0 && op != BPF_JSET) {
		op = op == BPF_JEQ ? EBPF_JNE : op == BPF_JGT ? EBPF_JLE :
			EBPF_JLT;
		jt = jf;
	}
	if (BPF_SRC(c->code) == BPF_X)
		put(d, BPF_JMP | op | BPF_X, R_A, x->s->r_x, jmp_to(d, jt), 0);
	else
		put(d, BPF_JMP | op | BPF_K, R_A, 0, jmp_to(d, jt),
		    (int32_t)c->k);
	if (c->jf != 0 && (c->jt != 0 || op == BPF_JSET))
		put(d, BPF_JMP | BPF_JA, 0, 0, jmp_to(d, jf), 0);
}

static void
emit_ret(struct emit *d, const struct xlat *x, const struct bpf_insn *c)
{
	/* To the one EXIT at the end: DPDK 22.11's x86 JIT jumps from a
	 * later EXIT back to the epilogue it put at the first, and sized
	 * one such jump short (rel8) for a distance of -130: it landed past
	 * the code (seen with four merged rx_classes). */
	if (BPF_RVAL(c->code) == BPF_K)
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_A, 0, 0, (int32_t)c->k);
	else if (BPF_RVAL(c->code) == BPF_X)
		put(d, BPF_ALU | EBPF_MOV | BPF_X, R_A, x->s->r_x, 0, 0);
	put(d, BPF_JMP | BPF_JA, 0, 0,
	    jmp_to(d, exit_last(x->s, x->t, x->exits)), 0);
}

/* Classic instruction @p i. */
static void
emit_insn(struct emit *d, const struct xlat *x, uint32_t i)
{
	const struct bpf_insn *c = &x->p->bf_insns[i];
	uint32_t cls = BPF_CLASS(c->code);
	uint8_t r_x = x->s->r_x;

	/* Loads by class and mode; the others by class (their mode bits are
	 * the operation's). */
	switch (cls == BPF_LD || cls == BPF_LDX ? cls | BPF_MODE(c->code) : cls) {
	case BPF_LD | BPF_ABS:
		emit_ld_abs(d, x, c);
		break;
	case BPF_LD | BPF_IND:
		emit_ld_ind(d, x, c);
		break;
	case BPF_LDX | BPF_MSH:
		emit_ldx_msh(d, x, c);
		break;
	case BPF_LD | BPF_IMM:
	case BPF_LD | BPF_MEM:
	case BPF_LD | BPF_LEN:
	case BPF_LDX | BPF_IMM:
	case BPF_LDX | BPF_MEM:
	case BPF_LDX | BPF_LEN:
		put_word(d, x->s, BPF_MODE(c->code), cls == BPF_LD ? R_A : r_x,
			 c->k);
		break;
	case BPF_ST:
		put_store(d, x->s, R_A, c->k);
		break;
	case BPF_STX:
		put_store(d, x->s, r_x, c->k);
		break;
	case BPF_ALU:
		emit_alu(d, x, c);
		break;
	case BPF_JMP:
		emit_jmp(d, x, i);
		break;
	case BPF_RET:
		emit_ret(d, x, c);
		break;
	default: /* BPF_MISC */
		if (BPF_MISCOP(c->code) == BPF_TAX)
			put(d, BPF_ALU | EBPF_MOV | BPF_X, r_x, R_A, 0, 0);
		else
			put(d, BPF_ALU | EBPF_MOV | BPF_X, R_A, r_x, 0, 0);
		break;
	}
}

/* Emit @p p for @p t; @p at as struct xlat says. */
static void
emit(const struct bpf_program *p, enum target t, const struct scan *s,
     uint32_t *at, struct emit *d)
{
	const struct xlat x = {
		.p = p, .t = t, .s = s, .at = at, .exits = at[p->bf_len],
	};
	uint32_t i;

	emit_prologue(d, &x);
	for (i = 0; i < p->bf_len; i++) {
		at[i] = d->n;
		emit_insn(d, &x, i);
	}
	at[p->bf_len] = d->n;
	if (s->ind && t == T_DIRECT) {
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_A, 0, 0, 1);
		put(d, EBPF_ALU64 | BPF_LSH | BPF_K, R_A, 0, 0, 32);
		put(d, BPF_JMP | BPF_JA, 0, 0,
		    jmp_to(d, exit_last(s, t, x.exits)), 0);
	}
	if (s->div || (s->ind && t == T_MBUF)) {
		put(d, BPF_ALU | EBPF_MOV | BPF_K, R_A, 0, 0, 0);
		put(d, BPF_JMP | BPF_JA, 0, 0,
		    jmp_to(d, exit_last(s, t, x.exits)), 0);
	}
	put(d, BPF_JMP | EBPF_EXIT, 0, 0, 0, 0);
}

/*
 * Translate @p p for @p t and load it.  @return the program (JIT-compiled
 * where DPDK has a JIT for the CPU), or NULL: -ENOTSUP (not translatable),
 * -ENOMEM, or rte_errno's negative (the verifier refused it).
 */
static struct rte_bpf *
translate(const struct bpf_program *p, enum target t, uint32_t *len, int *rc)
{
	struct rte_bpf_prm prm;
	struct rte_bpf *bpf = NULL;
	struct emit d = { NULL, 0 };
	struct scan s;
	uint32_t *at;

	if (p->bf_len == 0 || !scan(p, t, &s)) {
		*rc = -ENOTSUP;
		return NULL;
	}
	at = calloc(p->bf_len + 1, sizeof(*at));
	if (at == NULL) {
		*rc = -ENOMEM;
		return NULL;
	}
	/* Once to learn where every instruction lands (sizes depend on the
	 * classic program only), once more with the jumps right. */
	emit(p, t, &s, at, &d);
	*rc = -ENOTSUP; /* a jump beyond eBPF's 16-bit offsets */
	if (d.n <= INT16_MAX) {
		d.ins = calloc(d.n, sizeof(*d.ins));
		*rc = -ENOMEM;
	}
	if (d.ins != NULL) {
		d.n = 0;
		emit(p, t, &s, at, &d);
		memset(&prm, 0, sizeof(prm));
		prm.ins = d.ins;
		prm.nb_ins = d.n;
		if (t == T_MBUF) {
			prm.prog_arg.type = RTE_BPF_ARG_PTR_MBUF;
			prm.prog_arg.size = sizeof(struct rte_mbuf);
			prm.prog_arg.buf_size = RTE_MBUF_DEFAULT_BUF_SIZE;
		} else {
			prm.prog_arg.type = RTE_BPF_ARG_PTR;
			prm.prog_arg.size = s.len;
		}
		bpf = rte_bpf_load(&prm);
		*rc = bpf != NULL ? 0 : rte_errno == ENOMEM ? -ENOMEM : -EINVAL;
		*len = s.len;
		free(d.ins);
	}
	free(at);
	return bpf;
}

int
wr_bpf_load(struct wr_bpf *b, const struct wr_filter *f, const char *what,
	    struct wr_error *err)
{
	struct rte_bpf_jit jit;
	uint32_t len;
	int rc;

	memset(b, 0, sizeof(*b));
	if (!f->compiled)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "%s: no compiled filter", what);
	b->bpf = translate(&f->bpf, T_MBUF, &len, &rc);
	if (b->bpf == NULL && rc == -ENOMEM)
		return wr_error_set(err, rc, NULL, 0, 0, NULL,
				    "%s: out of memory", what);
	if (b->bpf == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL, "%s: DPDK's "
				    "eBPF cannot take \"%s\" (%s)", what, f->expr,
				    rc == -ENOTSUP ? "an instruction it has no "
				    "translation for" : "its verifier refused it");
	if (rte_bpf_get_jit(b->bpf, &jit) == 0)
		b->jit = jit.func;
	/* Without a JIT, the interpreter on the frame would cost more than
	 * on the mbuf: no direct program. */
	if (b->jit == NULL)
		return 0;
	b->direct_bpf = translate(&f->bpf, T_DIRECT, &len, &rc);
	if (b->direct_bpf != NULL && rte_bpf_get_jit(b->direct_bpf, &jit) == 0 &&
	    jit.func != NULL) {
		b->direct = (uint64_t (*)(const void *))jit.func;
		b->direct_len = len;
	} else if (b->direct_bpf != NULL) {
		rte_bpf_destroy(b->direct_bpf);
		b->direct_bpf = NULL;
	}
	return 0;
}

void
wr_bpf_free(struct wr_bpf *b)
{
	if (b == NULL)
		return;
	if (b->bpf != NULL)
		rte_bpf_destroy(b->bpf);
	if (b->direct_bpf != NULL)
		rte_bpf_destroy(b->direct_bpf);
	memset(b, 0, sizeof(*b));
}

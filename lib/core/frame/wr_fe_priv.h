/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_fe_priv: what wr_fe.c (values) and wr_fe_tmpl.c (the generator) share: TRex's generator and a variable's runs. */
#ifndef WR_FE_PRIV_H
#define WR_FE_PRIV_H

#include <stdint.h>

#include "wr_fe.h"

/* TRex's generator (vm_rand16, its "fastrand"): x' = 214013 x + 2531011 mod
 * 2^32, each draw the 15 bits 16..30 of the new state. */
#define WR_FE_LCG_A 214013u
#define WR_FE_LCG_C 2531011u
/* The seed TRex gives the first core's generator: random_seed * (0 + 1) *
 * 514229 (one core: the frames of TRex with one data-path core). */
#define WR_FE_LCG_CORE0 514229u

static inline uint32_t
wr_fe_lcg_step(uint32_t s)
{
	return WR_FE_LCG_A * s + WR_FE_LCG_C;
}

static inline uint64_t
wr_fe_lcg_r15(uint32_t s)
{
	return (s >> 16) & 0x7fff;
}

/** The map of @p n steps, x -> a x + c (mod 2^32). */
void wr_fe_lcg_jump(uint64_t n, uint32_t *a, uint32_t *c);

/** State @p s after @p n steps. */
uint32_t wr_fe_lcg_skip(uint32_t s, uint64_t n);

/** A RANDOM or REPEAT variable's value from state @p s (before its draws). */
uint64_t wr_fe_rand_value(const struct wr_fe_var *v, uint32_t s);

/** An INC/DEC variable's offset (from min for INC, from max for DEC, or a
 * list index from 0) after run @p n >= 1. */
uint64_t wr_fe_run_offset(const struct wr_fe_var *v, uint64_t n);

#endif /* WR_FE_PRIV_H */

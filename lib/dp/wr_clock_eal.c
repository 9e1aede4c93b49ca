/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_clock_eal: calibrating the TSC against CLOCK_MONOTONIC_RAW (see wr_clock_eal.h). */
#include <errno.h>
#include <stdbool.h>
#include <time.h>

#include <rte_atomic.h>
#include <rte_cycles.h>

#include "wr_clock_eal.h"

/* Reads per sample, the narrowest kept: on this VM one read in a few
 * thousand is stretched by an interrupt; 5 reads take ~0.5 us. */
#define WR_TSC_READS 5
#define WR_NS_PER_S 1000000000ull
/* A refinement reaches the lcores when it moves the figure by more than
 * this (10 ppb, 26 Hz of 2.6 GHz: 0.1 us over 10 s): each lcore then
 * recomputes its streams' conversions (microseconds), a few times a run
 * rather than at every report. */
#define WR_TSC_REPUBLISH_PPB 10

/* The process's calibration: written on the main lcore only; the
 * published frequency is the one word other threads read. */
static struct {
	bool begun;
	struct wr_tsc_sample first;
	uint64_t res_ns;
	struct wr_tsc_cal cal;
} wr_tsc;
static uint64_t wr_tsc_pub;

/* The TSC after everything before it: the reference read must fall
 * between the two TSC reads of a sample.  MFENCE then LFENCE (Intel SDM,
 * RDTSC; AMD orders it with MFENCE alone). */
static inline uint64_t
tsc_ordered(void)
{
	rte_mb();
#if defined(RTE_ARCH_X86)
	__asm__ volatile("lfence" ::: "memory");
#endif
	return rte_rdtsc();
}

static struct wr_tsc_sample
sample(void)
{
	struct wr_tsc_sample s = WR_TSC_SAMPLE_NONE;
	struct timespec ts;
	unsigned int i;

	for (i = 0; i < WR_TSC_READS; i++) {
		uint64_t before = tsc_ordered(), after;

		if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
			continue;
		after = tsc_ordered();
		wr_tsc_sample_keep(&s, before, (uint64_t)ts.tv_sec * WR_NS_PER_S +
				   (uint64_t)ts.tv_nsec, after);
	}
	return s;
}

void
wr_tsc_begin(void)
{
	struct timespec res;

	if (wr_tsc.begun)
		return;
	wr_tsc.res_ns = clock_getres(CLOCK_MONOTONIC_RAW, &res) == 0 ?
		(uint64_t)res.tv_sec * WR_NS_PER_S + (uint64_t)res.tv_nsec : 1;
	if (wr_tsc.res_ns == 0)
		wr_tsc.res_ns = 1;
	wr_tsc.first = sample();
	wr_tsc.begun = true;
}

static void
publish(const struct wr_tsc_cal *c)
{
	uint64_t pub = __atomic_load_n(&wr_tsc_pub, __ATOMIC_RELAXED);
	uint64_t off = pub > c->hz ? pub - c->hz : c->hz - pub;

	wr_tsc.cal = *c;
	if (pub == 0 || (unsigned __int128)off * WR_NS_PER_S >
	    (unsigned __int128)c->hz * WR_TSC_REPUBLISH_PPB) {
		__atomic_store_n(&wr_tsc_pub, c->hz, __ATOMIC_RELEASE);
		return;
	}
	/* The figure in use is the published one: its bound is the fit's
	 * plus how far it is from the fit. */
	wr_tsc.cal.hz = pub;
	wr_tsc.cal.err_ppb += (uint64_t)(((unsigned __int128)off * WR_NS_PER_S +
					  c->hz - 1) / c->hz);
}

/* A fit from the first sample to now; 0 or wr_tsc_cal_fit()'s error. */
static int
fit_now(struct wr_tsc_cal *c)
{
	struct wr_tsc_sample now = sample();

	return wr_tsc_cal_fit(c, &wr_tsc.first, &now, wr_tsc.res_ns,
			      rte_get_tsc_hz());
}

int
wr_tsc_calibrate(void)
{
	struct wr_tsc_cal c;
	struct timespec ts;
	int rc;

	if (__atomic_load_n(&wr_tsc_pub, __ATOMIC_RELAXED) != 0) {
		wr_tsc_refine();
		return 0;
	}
	wr_tsc_begin();
	if (wr_tsc.first.width != UINT64_MAX &&
	    clock_gettime(CLOCK_MONOTONIC_RAW, &ts) == 0) {
		uint64_t now = (uint64_t)ts.tv_sec * WR_NS_PER_S +
			       (uint64_t)ts.tv_nsec;

		/* EAL's start takes 150 ms or more: this wait is for a
		 * caller that started nothing in between. */
		if (now - wr_tsc.first.ns < WR_TSC_MIN_SPAN_NS) {
			uint64_t left = WR_TSC_MIN_SPAN_NS -
					(now - wr_tsc.first.ns);
			struct timespec d = { (time_t)(left / WR_NS_PER_S),
					      (long)(left % WR_NS_PER_S) };

			while (nanosleep(&d, &d) != 0 && errno == EINTR)
				;
		}
	}
	rc = fit_now(&c);
	if (rc != 0)
		wr_tsc_cal_eal(&c, rte_get_tsc_hz());
	publish(&c);
	return rc;
}

void
wr_tsc_refine(void)
{
	struct wr_tsc_cal c;

	if (!wr_tsc.begun || fit_now(&c) != 0 ||
	    !wr_tsc_cal_better(&wr_tsc.cal, &c))
		return;
	publish(&c);
}

void
wr_tsc_get(struct wr_tsc_cal *c)
{
	if (__atomic_load_n(&wr_tsc_pub, __ATOMIC_RELAXED) == 0) {
		wr_tsc_cal_eal(c, rte_get_tsc_hz());
		return;
	}
	*c = wr_tsc.cal;
}

uint64_t
wr_tsc_hz(void)
{
	uint64_t hz = __atomic_load_n(&wr_tsc_pub, __ATOMIC_ACQUIRE);

	return hz != 0 ? hz : rte_get_tsc_hz();
}

const uint64_t *
wr_tsc_hz_word(void)
{
	return &wr_tsc_pub;
}

uint64_t
wr_tsc_to_ns(uint64_t ticks)
{
	uint64_t hz = wr_tsc_hz();

	return hz == 0 ? 0 : (uint64_t)((unsigned __int128)ticks * WR_NS_PER_S / hz);
}

uint64_t
wr_tsc_from_ns(uint64_t ns)
{
	unsigned __int128 t = ((unsigned __int128)ns * wr_tsc_hz() +
			       WR_NS_PER_S - 1) / WR_NS_PER_S;

	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_clock: fitting the device-clock to TSC map. */
#include <errno.h>

#include "wr_clock.h"

int
wr_clock_fit(struct wr_clock_map *m, const struct wr_clock_pair *a,
	     const struct wr_clock_pair *b)
{
	uint64_t dt = b->tsc - a->tsc, dd = b->dev - a->dev;
	unsigned __int128 q;

	if (b->tsc <= a->tsc || b->dev <= a->dev)
		return -EINVAL;
	/* One division per refit, never per frame.  Rounded to nearest. */
	q = (((unsigned __int128)dt << WR_CLOCK_SHIFT) + dd / 2) / dd;
	if (q == 0 || q > UINT64_MAX)
		return -EINVAL;
	m->mult = (uint64_t)q;
	m->dev0 = b->dev;
	m->tsc0 = b->tsc;
	return 0;
}

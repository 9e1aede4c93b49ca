/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_bench_drivers: the benchmark drivers by kind, and what the callers ask of a benchmark's kind (its init, its result's tables and files). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_bench_drivers.h"

/* The top of the benchmark files: it names the drivers, which call down
 * into wr_bench.c; wr_bench.c names none of them (a benchmark's drv). */
static const struct wr_bench_driver *const drivers[] = {
	[WR_BENCH_SWEEP] = &wr_bench_driver_sweep,
	[WR_BENCH_RFC2544] = &wr_bench_driver_rfc2544,
	[WR_BENCH_RTT] = &wr_bench_driver_rtt,
};

static const struct wr_bench_driver *
driver_of(enum wr_bench_kind kind)
{
	return (unsigned int)kind < sizeof(drivers) / sizeof(drivers[0]) ?
	       drivers[kind] : NULL;
}

const char *
wr_bench_kind_name(enum wr_bench_kind kind)
{
	const struct wr_bench_driver *d = driver_of(kind);

	return d != NULL ? d->name : NULL;
}

int
wr_bench_kind_find(const char *name, enum wr_bench_kind *kind)
{
	for (unsigned int i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (drivers[i] != NULL && strcmp(drivers[i]->name, name) == 0) {
			*kind = (enum wr_bench_kind)i;
			return 0;
		}
	return -ENOENT;
}

int
wr_bench_init(struct wr_bench *b, enum wr_bench_kind kind,
	      const struct wr_bench_opts *o, const struct wr_bench_hooks *h,
	      const struct wr_stream_file *f, unsigned int n_ports,
	      struct wr_error *err)
{
	memset(b, 0, sizeof(*b));
	b->o = o;
	b->h = h;
	b->kind = kind;
	b->f = f;
	b->drv = driver_of(kind);
	if (b->drv == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "no benchmark of kind %d", (int)kind);
	return b->drv->init(b, n_ports, err);
}

void
wr_bench_result_print(FILE *out, const struct wr_bench_result *r)
{
	const struct wr_bench_driver *d = driver_of(r->kind);

	if (d != NULL && d->print != NULL)
		d->print(out, r);
}

int
wr_bench_result_csv(FILE *out, const void *arg)
{
	const struct wr_bench_result *r = arg;
	const struct wr_bench_driver *d = driver_of(r->kind);

	return d != NULL ? d->csv(out, r) : -EINVAL;
}

int
wr_bench_result_json(FILE *out, const void *arg)
{
	const struct wr_bench_result *r = arg;
	const struct wr_bench_driver *d = driver_of(r->kind);

	return d != NULL ? d->json(out, r) : -EINVAL;
}

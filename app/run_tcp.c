/* SPDX-License-Identifier: BSD-3-Clause */
/* wirerate run: the stream file's tcp: classes in its live lines, its summary, --json and --stats-jsonl (read by lib/ctl/wr_tcp_read, shown by wr_tcp_view). */
#include <errno.h>
#include <stdio.h>

#include <jansson.h>

#include "wr_app.h"
#include "wr_engine.h"
#include "wr_report.h"
#include "wr_tcp_read.h"

unsigned int
wr_run_tcp_lines(struct wr_run_ext *x, const struct wr_report_view *v,
		 bool tty, FILE *out)
{
	char prefix[32] = "";

	if (wr_session_tcp_n(&x->sess) == 0)
		return 0;
	/* As wr_report_interval's lines: the time in a pipe. */
	if (!tty)
		snprintf(prefix, sizeof(prefix), "%8.1fs ",
			 (double)v->elapsed_ns / 1e9);
	return wr_tcp_read_lines(&x->sess, &x->tcp_lines, v->interval_ns,
				 prefix, out);
}

void
wr_run_tcp_summary(struct wr_run_ext *x, struct wr_engine *e, FILE *out)
{
	int rc;

	if (wr_session_tcp_n(&x->sess) == 0)
		return;
	rc = wr_tcp_read_summary(&x->sess, wr_engine_n_ports(e),
				 wr_engine_view(e)->elapsed_ns, out);
	if (rc != 0)
		fprintf(stderr, "wirerate: tcp: summary: %s\n", strerror(-rc));
}

int
wr_run_tcp_json(FILE *out, const struct wr_run_ext *x, const char *sep,
		bool hist)
{
	json_t *t;
	int rc;

	if (x->sess.e == NULL || wr_session_tcp_n(&x->sess) == 0)
		return 0;
	t = wr_tcp_read_json(&x->sess, wr_engine_n_ports(x->sess.e), hist,
			     NULL);
	if (t == NULL)
		return -ENOMEM;
	fprintf(out, ",%s\"tcp\": ", sep);
	rc = json_dumpf(t, out, JSON_COMPACT);
	json_decref(t);
	return rc == 0 ? 0 : -EIO;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_engine_hosts: a loaded stream's template built again, for streams whose addresses the hosts had only after their bring-up. */
#include <errno.h>

#include "wr_engine_priv.h"
#include "wr_tx.h"

int
wr_engine_stream_rebuild(struct wr_engine *e, uint32_t s, struct wr_error *err)
{
	const struct wr_frame_tmpl *old;
	struct wr_frame_tmpl *t = NULL;
	unsigned int j, k;
	int rc;

	if (e->launched || e->f == NULL || s >= e->f->n_streams ||
	    e->tmpl[s] == NULL)
		return wr_error_set(err, -EINVAL, NULL, 0, 0, NULL,
				    "stream %u has no template to build again "
				    "(not loaded, replayed, or running)", s);
	rc = wr_engine_tmpl_create(e->f, s, &t, err);
	if (rc != 0)
		return rc;
	old = e->tmpl[s];
	for (j = 0; j < e->n_ts[s]; j++) {
		rc = wr_tx_stream_retemplate(e->ts[s][j], t);
		if (rc == 0)
			continue;
		/* Back to the old one: the stream stays as it was loaded. */
		for (k = 0; k < j; k++)
			wr_tx_stream_retemplate(e->ts[s][k], old);
		wr_frame_tmpl_free(t);
		return wr_error_set(err, rc, e->f->path,
				    e->f->streams[s].mark.line,
				    e->f->streams[s].mark.col, NULL,
				    "stream %s: its frames changed length with "
				    "its hosts' addresses", e->f->streams[s].name);
	}
	/* A lent template goes back to its wr_prepared at the unload. */
	if (!e->tmpl_lent[s])
		wr_frame_tmpl_free(e->tmpl[s]);
	e->tmpl[s] = t;
	e->tmpl_lent[s] = false;
	if (e->stream_rows != NULL)
		wr_engine_row_hosts(&e->stream_rows[s], &e->f->streams[s]);
	return 0;
}

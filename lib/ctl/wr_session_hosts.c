/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_session_hosts: streams whose addresses the hosts have only once up (DHCP, SLAAC), filled from the hosts' tables after bring-up, before the streams are loaded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_session_hosts.h"
#include "wr_stream_hosts.h"

/* Every host of engine port @p port, copied by the service (the one
 * thread that touches the table): *@p out malloc'ed, *@p n of them. */
static int
read_port(struct wr_host_svc *svc, unsigned int port,
	  struct wr_host_svc_host **out, uint32_t *n, struct wr_error *err)
{
	struct wr_host_svc_req r;
	int rc;

	memset(&r, 0, sizeof(r));
	r.port = port;
	rc = wr_host_svc_read(svc, &r);
	if (rc == 0) {
		*out = calloc(r.n_total ? r.n_total : 1, sizeof(**out));
		if (*out == NULL)
			return wr_error_set(err, -ENOMEM, NULL, 0, 0, NULL,
					    "out of memory");
		memset(&r, 0, sizeof(r));
		r.port = port;
		r.max_hosts = WR_HOSTS_PORT_MAX;
		r.hosts = *out;
		rc = wr_host_svc_read(svc, &r);
		*n = r.n_hosts;
	}
	if (rc != 0) {
		free(*out);
		*out = NULL;
		return wr_error_set(err, rc, NULL, 0, 0, NULL, "port %u: the "
				    "hosts' table could not be read (%s)", port,
				    strerror(-rc));
	}
	return 0;
}

int
wr_session_hosts_fill(struct wr_host_svc *svc, struct wr_prepared *prep,
		      struct wr_stream_file *f, struct wr_error *err)
{
	struct wr_host_svc_host *tab = NULL;
	unsigned int port;
	uint32_t k, n = 0;
	int rc = 0;

	for (port = 0; rc == 0 && svc != NULL && port < WR_PORTS_MAX;
	     port++) {
		bool any = false;

		for (k = 0; k < f->n_streams; k++)
			any |= f->streams[k].hosts_late && f->streams[k].port == port;
		if (!any)
			continue;
		rc = read_port(svc, port, &tab, &n, err);
		for (k = 0; rc == 0 && k < f->n_streams; k++) {
			struct wr_stream *st = &f->streams[k];

			if (!st->hosts_late || st->port != port)
				continue;
			rc = wr_stream_hosts_fill(st, &tab[0].h, n, sizeof(tab[0]),
						  err);
			/* A template the file's check kept has the
			 * addresses 0: built at the load instead. */
			if (rc == 0 && prep != NULL) {
				wr_frame_tmpl_free(prep->tmpl[k]);
				prep->tmpl[k] = NULL;
			}
		}
		free(tab);
		tab = NULL;
	}
	if (rc != 0 && err->file[0] == '\0')
		snprintf(err->file, sizeof(err->file), "%s", f->path);
	return rc;
}

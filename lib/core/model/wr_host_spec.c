/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_host_spec: the model of a stream file's hosts: find a group, free them. */
#include <stdlib.h>
#include <string.h>

#include "wr_host_spec.h"

int
wr_host_specs_find(const struct wr_host_specs *s, const char *name)
{
	uint32_t i;

	for (i = 0; s != NULL && i < s->n; i++)
		if (strcmp(s->groups[i].name, name) == 0)
			return (int)i;
	return -1;
}

void
wr_host_specs_free(struct wr_host_specs *s)
{
	uint32_t i, j;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++)
		for (j = 0; j < WR_HOST_PROTO_MAX; j++)
			free(s->groups[i].proto_cfg[j]);
	free(s->groups);
	s->groups = NULL;
	s->n = 0;
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_otg_refs: what every part of a plan shares: JSON paths, members refused by path, the config's global names, references to its ports. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_otg_priv.h"

bool
wr_otg_key_in(const char *key, const char *const *keys)
{
	unsigned int i;

	for (i = 0; keys[i] != NULL; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

static bool
holds_something(const json_t *v)
{
	if (json_is_array(v))
		return json_array_size(v) > 0;
	if (json_is_object(v))
		return json_object_size(v) > 0;
	return !json_is_null(v);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
wr_otg_refuse_others(const json_t *obj, const char *path,
		     const char *const *keys, struct wr_otg_err *err)
{
	const char *key, *sorted[64];
	size_t i, n = 0;
	json_t *v;
	int rc = 0;

	/* In name order: the same config, the same errors, whatever order
	 * the object's hash table keeps. */
	json_object_foreach((json_t *)obj, key, v)
		if (!wr_otg_key_in(key, keys) && holds_something(v) &&
		    n < sizeof(sorted) / sizeof(sorted[0]))
			sorted[n++] = key;
	qsort(sorted, n, sizeof(sorted[0]), cmp_str);
	for (i = 0; i < n; i++) {
		char at[WR_OTG_PATH_MAX];

		key = sorted[i];
		wr_otg_at(at, "%s%s%s", path, path[0] ? "." : "", key);
		rc = wr_otg_err_add(err, at, "not supported by wirerate (refused, "
				    "not ignored: doc/otg.md lists what is)");
	}
	return rc;
}

void
wr_otg_at(char *out, const char *fmt, ...)
{
	va_list ap;

	/* A path past WR_OTG_PATH_MAX is cut: it still says where. */
	va_start(ap, fmt);
	vsnprintf(out, WR_OTG_PATH_MAX, fmt, ap);
	va_end(ap);
}

const char *
wr_otg_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* ---- names ---- */

/* OTG names are global ("x-unique: global"): one name, one object, across
 * ports, layer1, captures, devices, their ethernets, addresses and VLANs,
 * and flows, since requests name any of them without saying which kind. */
int
wr_otg_name_add(json_t *names, const json_t *obj, const char *path,
		struct wr_otg_err *err)
{
	const char *name = wr_otg_str(obj, "name");
	const char *had;

	if (name == NULL)
		return 0;               /* required: wr_otg_check() said so */
	had = json_string_value(json_object_get(names, name));
	if (had != NULL)
		return wr_otg_err_add(err, path, "name \"%s\" is already the "
				      "name of %s (names are unique in a config)",
				      name, had);
	return json_object_set_new(names, name, json_string(path)) == 0 ? 0 :
	       -ENOMEM;
}

int
wr_otg_port_find(const struct wr_otg_plan *p, const char *name)
{
	unsigned int i;

	if (name == NULL)
		return -1;
	for (i = 0; i < p->n_ports; i++)
		if (strcmp(p->ports[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A name in a list of port names (layer1, captures, connections): the
 * plan's port, or an error naming the ports there are. */
int
wr_otg_port_ref(const struct wr_otg_plan *p, const json_t *name,
		const char *path, struct wr_otg_err *err)
{
	const char *s = json_string_value(name);
	int i = wr_otg_port_find(p, s);

	if (i < 0)
		wr_otg_err_add(err, path, "no port is called \"%s\" (ports[].name)",
			       s != NULL ? s : "");
	return i;
}

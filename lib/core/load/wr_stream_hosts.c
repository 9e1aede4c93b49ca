/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_stream_hosts: streams that take their addresses from emulated hosts: references read, checked against `hosts:`, fields filled. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_mcast.h"
#include "wr_stream_hosts.h"

#define PREFIX "hosts."
#define GROUPS ".groups"

bool
wr_yaml_is_host_ref(const struct wr_ynode *v)
{
	return v != NULL && v->type == WR_YNODE_SCALAR &&
	       strncmp(v->str, PREFIX, strlen(PREFIX)) == 0;
}

static bool
is_src(uint8_t kind)
{
	return kind <= WR_HREF_VLAN;
}

/* The layer of @p s that is the outermost IP layer of its family, as
 * wr_stream_addr() finds it (the one on the port's own link). */
static bool
outermost_ip(const struct wr_stream *s, uint32_t layer, unsigned int kind)
{
	uint32_t i;

	for (i = 0; i < layer; i++) {
		const struct wr_proto *p = s->layers[i].proto;
		int j = p->l3 ? wr_proto_field_role(p, WR_ROLE_SRC_ADDR) : -ENOENT;

		if (j >= 0 && p->fields[j].kind == kind)
			return false;
	}
	return true;
}

/* The tag @p layer is: 0 right behind the first layer, 1 behind that,
 * -1 when a layer that is not a tag comes between. */
static int
tag_of(const struct wr_stream *s, uint32_t layer)
{
	uint32_t i;

	if (layer == 0 || layer > WR_HOST_TAGS_MAX)
		return -1;
	for (i = 1; i <= layer; i++)
		if (strcmp(s->layers[i].proto->name, "vlan") != 0)
			return -1;
	return (int)layer - 1;
}

static int
add_ref(struct wr_stream *s, const struct wr_host_ref *r)
{
	struct wr_host_ref *a;

	a = realloc(s->host_refs, (s->n_host_refs + 1) * sizeof(*a));
	if (a == NULL)
		return -ENOMEM;
	s->host_refs = a;
	a[s->n_host_refs++] = *r;
	return 0;
}

static struct wr_host_ref *
find_ref(const struct wr_stream *s, uint32_t layer, unsigned int field)
{
	uint32_t i;

	for (i = 0; i < s->n_host_refs; i++)
		if (s->host_refs[i].layer == layer && s->host_refs[i].field == field)
			return &s->host_refs[i];
	return NULL;
}

/* What field @p field of layer @p layer can take from hosts: its kind,
 * or -1 with @p why saying which fields can. */
static int
ref_kind(const struct wr_stream *s, uint32_t layer, unsigned int field,
	 struct wr_host_ref *r)
{
	const struct wr_proto *p = s->layers[layer].proto;
	const struct wr_proto_field *pf = &p->fields[field];

	if (layer == 0 && pf->role == WR_ROLE_LINK_SRC)
		return WR_HREF_SRC_MAC;
	if (layer == 0 && pf->role == WR_ROLE_LINK_DST)
		return WR_HREF_DST_MAC;
	if (strcmp(p->name, "vlan") == 0 && strcmp(pf->name, "id") == 0 &&
	    tag_of(s, layer) >= 0) {
		r->tag = (uint8_t)tag_of(s, layer);
		return WR_HREF_VLAN;
	}
	if (p->l3 && (pf->kind == WR_VAL_IPV4 || pf->kind == WR_VAL_IPV6) &&
	    (pf->role == WR_ROLE_SRC_ADDR || pf->role == WR_ROLE_DST_ADDR) &&
	    outermost_ip(s, layer, pf->kind)) {
		r->v6 = pf->kind == WR_VAL_IPV6;
		return pf->role == WR_ROLE_SRC_ADDR ? WR_HREF_SRC_IP : WR_HREF_DST_IP;
	}
	return -1;
}

/* "hosts.NAME" or "hosts.NAME.groups" into @p r's group. */
static int
ref_name(struct wr_ywalk *w, const struct wr_ynode *v, bool groups,
	 struct wr_host_ref *r)
{
	const char *name = v->str + strlen(PREFIX);
	size_t len = strlen(name), i, gl = strlen(GROUPS);

	if (groups) {
		if (len <= gl || strcmp(name + len - gl, GROUPS) != 0)
			return wr_ywalk_fail(w, v, "a destination from hosts is "
				"the multicast groups they joined: hosts.NAME.groups, "
				"got \"%s\"", v->str);
		len -= gl;
	}
	if (len == 0 || len >= sizeof(r->group))
		return wr_ywalk_fail(w, v, "expected hosts.NAME%s with the name "
				     "of a group of hosts (1 to %zu characters), "
				     "got \"%s\"", groups ? GROUPS : "",
				     sizeof(r->group) - 1, v->str);
	for (i = 0; i < len; i++)
		if (name[i] == '.')
			return wr_ywalk_fail(w, v, groups ?
				"expected hosts.NAME.groups, got \"%s\"" :
				"a source from hosts is hosts.NAME (the groups "
				"they joined are a destination), got \"%s\"",
				v->str);
	memcpy(r->group, name, len);
	r->group[len] = '\0';
	return 0;
}

int
wr_yaml_host_ref(struct wr_ywalk *w, const struct wr_ynode *v,
		 struct wr_stream *s, uint32_t layer, unsigned int field)
{
	const struct wr_layer *l = &s->layers[layer];
	struct wr_host_ref r;
	size_t old;
	int kind, rc;

	memset(&r, 0, sizeof(r));
	old = wr_ywalk_push_key(w, l->proto->fields[field].name);
	kind = ref_kind(s, layer, field, &r);
	if (kind < 0) {
		rc = wr_ywalk_fail(w, v, "hosts give eth.src and eth.dst of the "
			"first layer, vlan.id of the tags right behind it, and "
			"src and dst of the outermost ipv4 and ipv6 layers; "
			"not %s.%s here", l->proto->name,
			l->proto->fields[field].name);
		goto out;
	}
	r.kind = (uint8_t)kind;
	r.layer = (uint8_t)layer;
	r.field = (uint8_t)field;
	r.mark.line = v->line;
	r.mark.col = v->col;
	snprintf(r.path, sizeof(r.path), "%.*s", (int)w->plen, w->path);
	rc = ref_name(w, v, !is_src(r.kind), &r);
	if (rc == 0)
		rc = add_ref(s, &r);
out:
	wr_ywalk_pop(w, old);
	return rc;
}

/* Refer field @p field of layer @p layer to @p like's group, as the
 * stream-level key (@p v) or an IP reference (@p implied) asks. */
static int
ref_field(struct wr_ywalk *w, const struct wr_ynode *v, struct wr_stream *s,
	  uint32_t layer, unsigned int field, const struct wr_host_ref *like,
	  bool implied)
{
	const struct wr_layer *l = &s->layers[layer];
	struct wr_host_ref r;
	int kind;

	const struct wr_host_ref *had = find_ref(s, layer, field);

	/* The same group named in the layer too (the shorthand's vlan:
	 * needs an id): one statement twice, not two. */
	if (had != NULL && !implied && strcmp(had->group, like->group) == 0)
		return 0;
	if (had != NULL || l->set[field]) {
		if (implied)
			return 0;
		return wr_ywalk_fail(w, v, "%s.%s is given in the layer too (%s): "
			"give it in one place", l->proto->name,
			l->proto->fields[field].name, l->key);
	}
	memset(&r, 0, sizeof(r));
	kind = ref_kind(s, layer, field, &r);
	if (kind < 0)
		return 0;
	r.kind = (uint8_t)kind;
	r.layer = (uint8_t)layer;
	r.field = (uint8_t)field;
	r.implied = implied;
	r.mark = like->mark;
	memcpy(r.group, like->group, sizeof(r.group));
	memcpy(r.path, like->path, sizeof(r.path));
	return add_ref(s, &r);
}

/* The field of role @p role of the outermost IP layer (either family:
 * the first one), its layer in @p *layer; -1 when the stack has none. */
static int
first_ip(const struct wr_stream *s, unsigned int role, uint32_t *layer)
{
	uint32_t i;

	for (i = 0; i < s->n_layers; i++) {
		const struct wr_proto *p = s->layers[i].proto;
		int j = p->l3 ? wr_proto_field_role(p, role) : -ENOENT;

		if (j >= 0 && (p->fields[j].kind == WR_VAL_IPV4 ||
			       p->fields[j].kind == WR_VAL_IPV6)) {
			*layer = i;
			return j;
		}
	}
	return -1;
}

/* The stream-level `src:` (@p dst false) or `dst:` at @p v. */
static int
stream_key(struct wr_ywalk *w, const struct wr_ynode *v, struct wr_stream *s,
	   bool dst)
{
	const struct wr_proto *p0;
	struct wr_host_ref like;
	uint32_t layer, i;
	int rc, j;

	if (!wr_yaml_is_host_ref(v))
		return wr_ywalk_expected(w, v, dst ?
			"hosts.NAME.groups: the multicast groups a group of "
			"hosts joined" : "hosts.NAME: the group of hosts the "
			"stream sends from");
	if (s->n_layers == 0)
		return wr_ywalk_fail(w, v, "a replayed stream's frames are its "
				     "capture's: %s: from hosts needs generated "
				     "headers", dst ? "dst" : "src");
	memset(&like, 0, sizeof(like));
	like.mark.line = v->line;
	like.mark.col = v->col;
	snprintf(like.path, sizeof(like.path), "%.*s", (int)w->plen, w->path);
	rc = ref_name(w, v, dst, &like);
	if (rc != 0)
		return rc;
	p0 = s->layers[0].proto;
	j = wr_proto_field_role(p0, dst ? WR_ROLE_LINK_DST : WR_ROLE_LINK_SRC);
	if (j >= 0 && ((dst && s->dst_arp) ||
		       (s->mac_port & (dst ? WR_MAC_PORT_DST : WR_MAC_PORT_SRC))))
		return wr_ywalk_fail(w, v, "eth.%s is given in the layer too "
				     "(%s): give it in one place",
				     dst ? "dst" : "src", s->layers[0].key);
	if (j >= 0 && (rc = ref_field(w, v, s, 0, (unsigned int)j, &like,
				      false)) != 0)
		return rc;
	for (i = 1; !dst && i < s->n_layers && tag_of(s, i) >= 0; i++) {
		j = wr_proto_field_find(s->layers[i].proto, "id");
		rc = ref_field(w, v, s, i, (unsigned int)j, &like, false);
		if (rc != 0)
			return rc;
	}
	j = first_ip(s, dst ? WR_ROLE_DST_ADDR : WR_ROLE_SRC_ADDR, &layer);
	if (j >= 0)
		rc = ref_field(w, v, s, layer, (unsigned int)j, &like, false);
	return rc;
}

int
wr_yaml_stream_hosts(struct wr_ywalk *w, const struct wr_ynode *n,
		     struct wr_stream *s)
{
	const struct wr_ynode *v;
	uint32_t i, n0;
	int rc = 0, j;

	if ((v = wr_ynode_get(n, "src")) != NULL)
		rc = WR_YWALK_KEY(w, "src", stream_key(w, v, s, false));
	if (rc == 0 && (v = wr_ynode_get(n, "dst")) != NULL)
		rc = WR_YWALK_KEY(w, "dst", stream_key(w, v, s, true));
	if (rc != 0 || s->n_layers == 0)
		return rc;
	/* An IP address from hosts brings its MAC: a frame from host k's
	 * IPv4 with another MAC is no frame of host k (and a group's
	 * address with a unicast MAC reaches no member).  Unless the file
	 * gave the MAC, or said port or arp. */
	n0 = s->n_host_refs;
	for (i = 0; i < n0 && rc == 0; i++) {
		const struct wr_host_ref r = s->host_refs[i];
		bool dst = r.kind == WR_HREF_DST_IP;

		if (r.kind != WR_HREF_SRC_IP && !dst)
			continue;
		if ((dst && s->dst_arp) ||
		    (s->mac_port & (dst ? WR_MAC_PORT_DST : WR_MAC_PORT_SRC)))
			continue;
		j = wr_proto_field_role(s->layers[0].proto,
					dst ? WR_ROLE_LINK_DST : WR_ROLE_LINK_SRC);
		if (j >= 0)
			rc = ref_field(w, NULL, s, 0, (unsigned int)j, &r, true);
	}
	return rc;
}

/* ---- against the file's hosts ---- */

static int
ref_fail(struct wr_ywalk *w, const struct wr_host_ref *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
ref_fail(struct wr_ywalk *w, const struct wr_host_ref *r, const char *fmt, ...)
{
	char msg[WR_ERROR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return wr_error_set(w->err, -EINVAL, w->file, r->mark.line, r->mark.col,
			    r->path, "%s", msg);
}

/* "a, b, c" for an unknown group's message. */
static void
group_names(const struct wr_host_specs *hs, char *buf, size_t len)
{
	size_t k = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < hs->n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? ", " : "",
				      hs->groups[i].name);
}

static const struct wr_host_addr_spec *
family(const struct wr_host_group *g, bool v6)
{
	return v6 ? &g->v6 : &g->v4;
}

/* Host @p k's value of a static reference @p r of group @p g. */
static __uint128_t
static_value(const struct wr_host_group *g, const struct wr_host_ref *r,
	     uint64_t k)
{
	switch (r->kind) {
	case WR_HREF_SRC_MAC:
		return (g->mac + k * g->mac_step) & 0xffffffffffffull;
	case WR_HREF_VLAN:
		return (g->vlan[r->tag] + k * g->vlan_step[r->tag]) & 0xfff;
	default: {
		const struct wr_host_addr_spec *a = family(g, r->v6);
		__uint128_t v = a->addr + (__uint128_t)k * a->step;

		return r->v6 ? v : (uint32_t)v;
	}
	}
}

/* Field @p fs takes host k's value on frame k: one INC range (the
 * template's one edit a frame), as the hosts' loader keeps every group's
 * values from wrapping (MACs in 48 bits, VLAN IDs to 4094, addresses in
 * their family). */
static void
fill_static(struct wr_field_spec *fs, const struct wr_host_group *g,
	    const struct wr_host_ref *r)
{
	__uint128_t v0 = static_value(g, r, 0), last;

	wr_field_free(fs);
	last = static_value(g, r, g->count - 1);
	if (g->count == 1 || last == v0) {
		wr_field_fixed(fs, v0);
		return;
	}
	memset(fs, 0, sizeof(*fs));
	fs->mode = WR_VARY_INC;
	fs->value = fs->from = v0;
	fs->to = last;
	fs->step = static_value(g, r, 1) - v0;
}

/* The multicast MAC of group @p ip (RFC 1112 section 6.4: 01:00:5e and
 * the low 23 bits; RFC 2464 section 7: 33:33 and the low 32 bits). */
static __uint128_t
group_mac(__uint128_t ip, bool v6)
{
	return v6 ? 0x333300000000ull | (uint32_t)ip :
		    0x01005e000000ull | ((uint32_t)ip & 0x7fffff);
}

/* The family a destination reference takes: its IP layer's, or for
 * eth.dst the stream's IP dst from the same group, else the one the
 * group joins groups of (IGMP first). */
static bool
dst_family(const struct wr_stream *s, const struct wr_host_ref *r,
	   const struct wr_host_group *g)
{
	uint32_t i;

	if (r->kind == WR_HREF_DST_IP)
		return r->v6;
	for (i = 0; i < s->n_host_refs; i++)
		if (s->host_refs[i].kind == WR_HREF_DST_IP)
			return s->host_refs[i].v6;
	return g->proto_cfg[WR_HOST_PROTO_igmp] == NULL &&
	       g->proto_cfg[WR_HOST_PROTO_mld] != NULL;
}

/* `hosts.NAME.groups`: frame k to group k mod G of the groups the group
 * joins (wr_mcast_cfg's ranges, in order), or to its MAC. */
static int
fill_groups(struct wr_ywalk *w, struct wr_stream *s,
	    const struct wr_host_ref *r, const struct wr_host_group *g)
{
	bool v6 = dst_family(s, r, g);
	const struct wr_mcast_cfg *mc =
		g->proto_cfg[v6 ? WR_HOST_PROTO_mld : WR_HOST_PROTO_igmp];
	struct wr_field_spec *fs = &s->layers[r->layer].field[r->field];
	uint32_t i, k, n = 0;
	__uint128_t v;

	if (mc == NULL || mc->n_groups == 0)
		return ref_fail(w, r, "group %s joins no %s groups (its %s: is "
				"not given): %s cannot go to them", g->name,
				v6 ? "IPv6" : "IPv4", v6 ? "mld" : "igmp",
				r->kind == WR_HREF_DST_MAC ? "eth.dst" :
				v6 ? "ipv6.dst" : "ipv4.dst");
	wr_field_free(fs);
	memset(fs, 0, sizeof(*fs));
	fs->list = malloc(mc->n_groups * sizeof(*fs->list));
	if (fs->list == NULL) {
		wr_field_fixed(fs, 0);
		return -ENOMEM;
	}
	for (i = 0; i < mc->n_ranges && i < WR_MCAST_RANGES_MAX; i++)
		for (k = 0; k < mc->r[i].count && n < mc->n_groups; k++) {
			v = mc->r[i].group + (__uint128_t)k * mc->r[i].step;
			fs->list[n++] = r->kind == WR_HREF_DST_MAC ? group_mac(v, v6) : v;
		}
	fs->mode = n > 1 ? WR_VARY_LIST : WR_VARY_FIXED;
	fs->list_len = n > 1 ? n : 0;
	fs->value = fs->list[0];
	if (n <= 1) {
		free(fs->list);
		fs->list = NULL;
	}
	s->layers[r->layer].set[r->field] = true;
	return 0;
}

/* The group a reference names, checked against the stream: its index. */
static int
ref_group(struct wr_ywalk *w, const struct wr_stream *s,
	  const struct wr_host_ref *r, const struct wr_host_specs *hs)
{
	const struct wr_host_group *g;
	char names[256];
	int gi;

	gi = wr_host_specs_find(hs, r->group);
	if (gi < 0) {
		group_names(hs, names, sizeof(names));
		return hs->n == 0 ?
			ref_fail(w, r, "no group of hosts is called \"%s\": the "
				 "file declares none (hosts: [...])", r->group) :
			ref_fail(w, r, "no group of hosts is called \"%s\" "
				 "(groups: %s)", r->group, names);
	}
	g = &hs->groups[gi];
	/* Receivers may sit behind a router on another port: only a
	 * source must be on the stream's own link. */
	if (is_src(r->kind) && g->port != s->port)
		return ref_fail(w, r, "group %s is on port %u (line %u), the "
				"stream on port %u: a stream sends from hosts of "
				"its own port", g->name, g->port, g->where.line,
				s->port);
	return gi;
}

static int
resolve_stream(struct wr_ywalk *w, struct wr_stream *s,
	       const struct wr_host_specs *hs)
{
	const struct wr_host_ref *first_src = NULL, *first_dst = NULL;
	uint32_t i;
	int gi, rc;

	for (i = 0; i < s->n_host_refs; i++) {
		const struct wr_host_ref *r = &s->host_refs[i], **first;
		const struct wr_host_group *g;
		struct wr_field_spec *fs;

		first = is_src(r->kind) ? &first_src : &first_dst;
		if (*first != NULL && strcmp((*first)->group, r->group) != 0)
			return ref_fail(w, r, "the stream's %s come from group "
				"%s already (line %u): frame k is one host's, so "
				"one group gives them all", is_src(r->kind) ?
				"sources" : "destinations", (*first)->group,
				(*first)->mark.line);
		gi = ref_group(w, s, r, hs);
		if (gi < 0)
			return gi;
		if (*first == NULL)
			*first = r;
		g = &hs->groups[gi];
		if (s->combine == WR_COMBINE_PRODUCT)
			return ref_fail(w, r, "a stream from hosts sends frame k "
				"from host k mod %u, every field of the host in "
				"step: vary: product would pair one host's MAC with "
				"another's address; use vary: together", g->count);
		if (!is_src(r->kind)) {
			rc = fill_groups(w, s, r, g);
			if (rc != 0)
				return rc;
			s->host_dst = (uint32_t)gi + 1;
			continue;
		}
		s->host_src = (uint32_t)gi + 1;
		s->hosts_from = g->count;
		fs = &s->layers[r->layer].field[r->field];
		switch (r->kind) {
		case WR_HREF_VLAN:
			if (r->tag >= g->n_tags)
				return ref_fail(w, r, "group %s's hosts carry %u "
					"VLAN tag%s; this vlan layer is tag %u "
					"(outer first)", g->name, g->n_tags,
					g->n_tags == 1 ? "" : "s", r->tag + 1);
			break;
		case WR_HREF_SRC_IP:
			if (family(g, r->v6)->mode == WR_HOST_ADDR_NONE)
				return ref_fail(w, r, "group %s has no %s address "
					"(its %s: is not given): %s cannot come "
					"from it", g->name, r->v6 ? "IPv6" : "IPv4",
					r->v6 ? "ipv6" : "ipv4",
					r->v6 ? "ipv6.src" : "ipv4.src");
			if (family(g, r->v6)->mode != WR_HOST_ADDR_STATIC) {
				/* Leased or autoconfigured: known once the
				 * hosts are up (wr_stream_hosts_fill). */
				s->hosts_late = true;
				wr_field_free(fs);
				wr_field_fixed(fs, 0);
				continue;
			}
			break;
		default:
			break;
		}
		fill_static(fs, g, r);
		s->layers[r->layer].set[r->field] = true;
	}
	if (first_src == NULL)
		return 0;
	/* A tag's TPID and PCP are the host's too, unless the file gave
	 * them: a QinQ host's outer tag is 802.1ad's 0x88a8. */
	for (i = 0; i < s->n_host_refs; i++) {
		const struct wr_host_ref *r = &s->host_refs[i];
		const struct wr_host_group *g = &hs->groups[s->host_src - 1];
		struct wr_layer *l = &s->layers[r->layer];
		int j;

		if (r->kind != WR_HREF_VLAN)
			continue;
		j = wr_proto_field_find(l->proto, "tpid");
		if (j >= 0 && !l->set[j] && g->tpid[r->tag] != 0)
			wr_field_fixed(&l->field[j], g->tpid[r->tag]);
		j = wr_proto_field_find(l->proto, "pcp");
		if (j >= 0 && !l->set[j])
			wr_field_fixed(&l->field[j], g->pcp[r->tag]);
	}
	return 0;
}

int
wr_yaml_hosts_resolve(struct wr_ywalk *w, struct wr_stream_file *f,
		      const struct wr_host_specs *hs)
{
	uint32_t i;
	int rc;

	for (i = 0; i < f->n_streams; i++) {
		if (f->streams[i].n_host_refs == 0)
			continue;
		rc = resolve_stream(w, &f->streams[i], hs);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* ---- after bring-up ---- */

/* @p h's first global IPv6 address in use (preferred), 0 when none. */
static __uint128_t
global6(const struct wr_host *h)
{
	uint32_t i;

	for (i = 0; i < h->n_ip6 && i < WR_HOST_IP6_MAX; i++)
		if (h->ip6[i].origin != WR_IP6_LINK_LOCAL &&
		    h->ip6[i].state == WR_IP6_PREFERRED)
			return h->ip6[i].addr;
	return 0;
}

/* Host @p h's value of reference @p r, false when it has none (not up). */
static bool
host_value(const struct wr_host *h, const struct wr_host_ref *r,
	   __uint128_t *v)
{
	uint32_t i;

	switch (r->kind) {
	case WR_HREF_SRC_MAC:
		for (*v = 0, i = 0; i < 6; i++)
			*v = *v << 8 | h->mac[i];
		return true;
	case WR_HREF_VLAN:
		*v = h->tci[r->tag] & 0xfff;
		return r->tag < h->n_tags;
	case WR_HREF_SRC_IP:
		if (r->v6) {
			*v = global6(h);
			return *v != 0;
		}
		*v = h->ip4;
		return h->ip4_state == WR_IP4_UP && h->ip4 != 0;
	default:
		return false;
	}
}

int
wr_stream_hosts_fill(struct wr_stream *s, const struct wr_host *hosts,
		     uint32_t n, size_t stride, struct wr_error *err)
{
	struct wr_field_spec *lists;
	uint32_t i, k, up = 0, skipped = 0, nr = s->n_host_refs;
	__uint128_t v;
	bool ok;
	int rc = 0;

	if (s->host_src == 0 || nr == 0)
		return 0;
	lists = calloc(nr, sizeof(*lists));
	if (lists == NULL)
		return -ENOMEM;
	for (k = 0; k < nr; k++) {
		lists[k].list = malloc((n ? n : 1) * sizeof(*lists[k].list));
		if (lists[k].list == NULL) {
			rc = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		const struct wr_host *h = (const struct wr_host *)
			((const char *)hosts + (size_t)i * stride);

		if (h->group != s->host_src - 1)
			continue;
		for (k = 0, ok = true; k < nr && ok; k++)
			ok = !is_src(s->host_refs[k].kind) ||
			     host_value(h, &s->host_refs[k], &v);
		if (!ok) {
			skipped++;
			continue;
		}
		for (k = 0; k < nr; k++)
			if (is_src(s->host_refs[k].kind) &&
			    host_value(h, &s->host_refs[k], &v))
				lists[k].list[up] = v;
		up++;
	}
	if (up == 0) {
		rc = wr_error_set(err, -EHOSTUNREACH, NULL, s->mark.line,
				  s->mark.col, s->name, "stream %s sends from "
				  "hosts.%s, and none of its %u hosts came up",
				  s->name, wr_stream_hosts_src(s), skipped);
		goto out;
	}
	for (k = 0; k < nr; k++) {
		const struct wr_host_ref *r = &s->host_refs[k];
		struct wr_field_spec *fs = &s->layers[r->layer].field[r->field];

		if (!is_src(r->kind))
			continue;
		wr_field_free(fs);
		*fs = lists[k];
		fs->mode = WR_VARY_LIST;
		fs->list_len = up;
		fs->value = fs->list[0];
		lists[k].list = NULL;
		s->layers[r->layer].set[r->field] = true;
	}
	s->hosts_from = up;
	s->hosts_skipped = skipped;
	s->hosts_filled = true;
out:
	for (k = 0; k < nr; k++)
		free(lists[k].list);
	free(lists);
	return rc;
}

const char *
wr_stream_hosts_src(const struct wr_stream *s)
{
	uint32_t i;

	for (i = 0; i < s->n_host_refs; i++)
		if (is_src(s->host_refs[i].kind))
			return s->host_refs[i].group;
	return "";
}

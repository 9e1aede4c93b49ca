/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_sessions: who the clients of `wirerate serve` are: sessions, the connections acting as them, the ports they own, a TCP login's promotion; the bottom of the server's files. */
#include "wr_server_priv.h"

/* ---- sessions ---- */

struct session *
wr_srv_session_find(struct server *s, const char *name)
{
	struct session *x;

	for (x = s->sessions; x != NULL; x = x->next)
		if (strcmp(x->name, name) == 0)
			return x;
	return NULL;
}

/* A new session with a fresh secret; NULL when out of memory or random
 * bytes.  It lives once a connection joins it. */
struct session *
wr_srv_session_new(struct server *s, const char *name, const char *principal)
{
	struct session *x = calloc(1, sizeof(*x));

	if (x == NULL)
		return NULL;
	if (wr_auth_secret_new(x->secret, sizeof(x->secret)) != 0) {
		free(x);
		return NULL;
	}
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->principal, sizeof(x->principal), "%s", principal);
	x->next = s->sessions;
	s->sessions = x;
	return x;
}

/* Forget a session no connection acts as and that owns nothing. */
static void
session_unref(struct server *s, struct session *x)
{
	struct session **pp;

	if (x->n_conns > 0 || x->n_ports > 0)
		return;
	for (pp = &s->sessions; *pp != NULL; pp = &(*pp)->next)
		if (*pp == x) {
			*pp = x->next;
			break;
		}
	free(x);
}

void
wr_srv_port_set_owner(struct server *s, unsigned int p, struct session *x)
{
	struct session *old = s->owner[p];

	s->orphan_ms[p] = 0;
	if (old == x)
		return;
	s->owner[p] = x;
	if (x != NULL)
		x->n_ports++;
	if (old != NULL) {
		old->n_ports--;
		session_unref(s, old);
	}
}

/* The connection stops acting as its session.  The last connection of a
 * session that owns ports leaves them owned for owner_timeout (its client
 * may come back with the secret); then they are released. */
void
wr_srv_conn_leave(struct server *s, struct conn *c)
{
	struct session *x = c->sess;
	unsigned int p;

	if (x == NULL)
		return;
	c->sess = NULL;
	x->n_conns--;
	for (p = 0; x->n_conns == 0 && p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			s->orphan_ms[p] = wr_srv_now_ms() + s->owner_ms;
	session_unref(s, x);
}

void
wr_srv_conn_join(struct server *s, struct conn *c, struct session *x)
{
	unsigned int p;

	if (c->sess == x)
		return;
	x->n_conns++;
	wr_srv_conn_leave(s, c);
	c->sess = x;
	for (p = 0; p < s->e->n_ports; p++)
		if (s->owner[p] == x)
			s->orphan_ms[p] = 0;
}

/* A connection's own session, "conn-ID" (client names never start so). */
bool
wr_srv_conn_own_session(struct server *s, struct conn *c)
{
	char name[SESSION_MAX];
	struct session *x;

	snprintf(name, sizeof(name), "conn-%u", c->id);
	x = wr_srv_session_new(s, name, c->principal);
	if (x == NULL)
		return false;
	wr_srv_conn_join(s, c, x);
	return true;
}

/* A TCP connection that logged in leaves the pre-login pool for the
 * clients' (--max-clients) and gets a session of its own. */
bool
wr_srv_promote(struct server *s, struct conn *c)
{
	if (s->n_conns >= s->o->max_clients)
		return false;
	if (!wr_srv_conn_own_session(s, c))
		return false;
	s->pre[c->pslot] = NULL;
	c->pslot = -1;
	s->n_preauth--;
	s->n_conns++;
	c->authed = true;
	return true;
}

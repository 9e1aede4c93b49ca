/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp4_cfg: a host group's `ipv4: {dhcp: {...}}` key parsed into struct wr_dhcp4_cfg. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_dhcp4_cfg.h"
#include "wr_parse.h"

/* RFC 3046 section 2.0: the relay agent information's sub-options. */
#define SUBOPT_CIRCUIT_ID 1
#define SUBOPT_REMOTE_ID 2
/* RFC 2131 section 4.1's first wait. */
#define DEFAULT_TIMEOUT_MS 4000
/* Four retransmissions after the first: the 4, 8, 16, 32, 64 s of
 * RFC 2131 section 4.1, about two minutes in all. */
#define DEFAULT_RETRIES 4
#define RETRIES_MAX 10
/* Below 100 ms a server on a loaded link answers too late; above 64 s is
 * RFC 2131's own cap on one wait. */
#define TIMEOUT_MIN_MS 100
#define TIMEOUT_MAX_MS 64000
/* What a client asks for unless told otherwise: mask, router, DNS,
 * domain name, broadcast address, lease time, T1, T2 (RFC 2132 codes). */
static const uint8_t default_prl[] = { 1, 3, 6, 15, 28, 51, 58, 59 };

static const char *const keys[] = {
	"retries", "timeout", "hostname", "client_id", "option82",
	"broadcast", "request", NULL,
};
static const char *const o82_keys[] = { "circuit_id", "remote_id", NULL };

static void
defaults(struct wr_dhcp4_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->retries = DEFAULT_RETRIES;
	c->timeout_ms = DEFAULT_TIMEOUT_MS;
	c->cid_mode = WR_DHCP4_CID_MAC;
	c->n_prl = sizeof(default_prl);
	memcpy(c->prl, default_prl, sizeof(default_prl));
}

/* A template into @p out, its longest expansion at most @p max bytes.
 * @return that length, or -EINVAL with the error at @p n. */
static int
parse_tmpl(struct wr_ywalk *w, const struct wr_ynode *n, char *out,
	   size_t max, const char *what)
{
	char why[WR_PARSE_WHY_MAX];
	int len;

	if (n->type != WR_YNODE_SCALAR || n->len == 0)
		return wr_ywalk_expected(w, n, what);
	if (n->len >= WR_DHCP4_TMPL_MAX || strlen(wr_ynode_text(n)) != n->len)
		return wr_ywalk_fail(w, n, "expected %s of at most %u "
				     "characters, got %zu", what,
				     WR_DHCP4_TMPL_MAX - 1, n->len);
	len = wr_dhcp4_expand_max(n->str, why, sizeof(why));
	if (len < 0)
		return wr_ywalk_fail(w, n, "%s in \"%s\"", why, n->str);
	if ((size_t)len > max)
		return wr_ywalk_fail(w, n, "\"%s\" may expand to %d bytes; "
				     "the option holds %zu", n->str, len, max);
	memcpy(out, n->str, n->len + 1);
	return len;
}

static int
parse_timeout(struct wr_ywalk *w, const struct wr_ynode *n, uint32_t *out)
{
	char why[WR_PARSE_WHY_MAX];
	uint64_t ns;

	if (n->type != WR_YNODE_SCALAR ||
	    wr_parse_duration_ns(n->str, &ns, why, sizeof(why)) != 0 ||
	    ns % 1000000 != 0 || ns < TIMEOUT_MIN_MS * 1000000ull ||
	    ns > TIMEOUT_MAX_MS * 1000000ull)
		return wr_ywalk_expected(w, n, "a duration of whole "
					 "milliseconds from 100ms to 64s, "
					 "such as 4s");
	*out = (uint32_t)(ns / 1000000);
	return 0;
}

static int
parse_prl(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_dhcp4_cfg *c)
{
	uint64_t v;
	size_t i, j, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ || n->n_kids == 0 ||
	    n->n_kids > WR_DHCP4_PRL_MAX)
		return wr_ywalk_fail(w, n, "expected a list of 1 to %u option "
				     "codes such as [1, 3, 6]",
				     WR_DHCP4_PRL_MAX);
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		/* 0 and 255 are the pad and end options, not parameters. */
		rc = wr_ywalk_u64(w, n->kids[i], 1, 254, &v);
		for (j = 0; rc == 0 && j < i; j++)
			if (c->prl[j] == v)
				rc = wr_ywalk_fail(w, n->kids[i], "option %u "
						   "listed twice", (unsigned)v);
		c->prl[i] = (uint8_t)v;
		wr_ywalk_pop(w, old);
	}
	c->n_prl = (uint8_t)n->n_kids;
	return rc;
}

static int
parse_o82(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_dhcp4_cfg *c)
{
	const struct wr_ynode *ci, *ri;
	int rc, lc = 0, lr = 0;

	rc = wr_ywalk_keys(w, n, "a mapping {circuit_id, remote_id}", o82_keys);
	if (rc != 0)
		return rc;
	ci = wr_ynode_get(n, "circuit_id");
	ri = wr_ynode_get(n, "remote_id");
	if (ci == NULL && ri == NULL)
		return wr_ywalk_fail(w, n, "expected circuit_id, remote_id or "
				     "both");
	/* RFC 3046 section 2.0: the option's 255 bytes hold both
	 * sub-options, each with its code and length. */
	if (ci != NULL) {
		lc = WR_YWALK_KEY(w, "circuit_id", parse_tmpl(w, ci,
				  c->circuit_id, ri ? 255 - 4 : 255 - 2,
				  "a circuit-id text such as \"port{index}\""));
		if (lc < 0)
			return lc;
	}
	if (ri != NULL) {
		lr = WR_YWALK_KEY(w, "remote_id", parse_tmpl(w, ri,
				  c->remote_id, ci ? 255 - 4 - (size_t)lc :
				  255 - 2, "a remote-id text such as "
				  "\"{mac_hex}\""));
		if (lr < 0)
			return lr;
	}
	c->option82 = true;
	return 0;
}

static int
parse_cid(struct wr_ywalk *w, const struct wr_ynode *n, struct wr_dhcp4_cfg *c)
{
	const char *s = wr_ynode_text(n);
	int rc;

	if (n->type == WR_YNODE_SCALAR && strcmp(s, "mac") == 0) {
		c->cid_mode = WR_DHCP4_CID_MAC;
		return 0;
	}
	if (n->type == WR_YNODE_SCALAR && strcmp(s, "none") == 0) {
		c->cid_mode = WR_DHCP4_CID_NONE;
		return 0;
	}
	/* Type 0 and the text (RFC 2132 section 9.14): 254 bytes left. */
	rc = parse_tmpl(w, n, c->client_id, 254, "\"mac\", \"none\" or a "
			"text such as \"client-{index}\"");
	if (rc < 0)
		return rc;
	c->cid_mode = WR_DHCP4_CID_TEXT;
	return 0;
}

/* One key of the mapping. */
static int
parse_key(struct wr_ywalk *w, const char *k, const struct wr_ynode *v,
	  struct wr_dhcp4_cfg *c)
{
	uint64_t u;
	int rc;

	if (strcmp(k, "retries") == 0) {
		rc = wr_ywalk_u64(w, v, 0, RETRIES_MAX, &u);
		c->retries = (uint8_t)u;
		return rc;
	}
	if (strcmp(k, "timeout") == 0)
		return parse_timeout(w, v, &c->timeout_ms);
	if (strcmp(k, "hostname") == 0) {
		/* RFC 2132 section 3.14: one option, 255 bytes at most. */
		rc = parse_tmpl(w, v, c->hostname, 255, "a host name such as "
				"\"client-{index}\"");
		return rc < 0 ? rc : 0;
	}
	if (strcmp(k, "client_id") == 0)
		return parse_cid(w, v, c);
	if (strcmp(k, "option82") == 0)
		return parse_o82(w, v, c);
	if (strcmp(k, "broadcast") == 0)
		return wr_ywalk_bool(w, v, &c->broadcast);
	return parse_prl(w, v, c);
}

int
wr_dhcp4_cfg_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		   const struct wr_host_group *g, void **cfg)
{
	struct wr_dhcp4_cfg c;
	size_t i;
	int rc = 0;

	(void)g;
	defaults(&c);
	/* `ipv4: dhcp` (the loader gives the scalar, or nothing) takes every
	 * default; `ipv4: {dhcp: {...}}` a mapping of them. */
	if (n != NULL && n->type == WR_YNODE_SCALAR) {
		const char *s = wr_ynode_text(n);

		if (strcmp(s, "dhcp") != 0 && strcmp(s, "") != 0 &&
		    strcmp(s, "~") != 0 && strcmp(s, "null") != 0)
			return wr_ywalk_expected(w, n, "dhcp, or a mapping "
						 "{retries, timeout, hostname, "
						 "client_id, option82, "
						 "broadcast, request}");
	} else if (n != NULL) {
		rc = wr_ywalk_keys(w, n, "a mapping {retries, timeout, "
				   "hostname, client_id, option82, broadcast, "
				   "request}", keys);
		for (i = 0; rc == 0 && i + 1 < n->n_kids; i += 2)
			rc = WR_YWALK_KEY(w, n->kids[i]->str,
					  parse_key(w, n->kids[i]->str,
						    n->kids[i + 1], &c));
		if (rc != 0)
			return rc;
	}
	*cfg = malloc(sizeof(c));
	if (*cfg == NULL)
		return -ENOMEM;
	memcpy(*cfg, &c, sizeof(c));
	return 0;
}

int
wr_dhcp4_opt82(const struct wr_dhcp4_cfg *cfg, const struct wr_dhcp4_vars *v,
	       uint8_t *out)
{
	size_t n = 0;
	int len;

	if (cfg->circuit_id[0] != '\0') {
		len = wr_dhcp4_expand(cfg->circuit_id, v, out + 2, 255 - 2);
		if (len < 0)
			return len;
		out[0] = SUBOPT_CIRCUIT_ID;
		out[1] = (uint8_t)len;
		n = 2 + (size_t)len;
	}
	if (cfg->remote_id[0] != '\0') {
		if (n + 2 > 255)
			return -ENOSPC;
		len = wr_dhcp4_expand(cfg->remote_id, v, out + n + 2,
				      255 - n - 2);
		if (len < 0)
			return len;
		out[n] = SUBOPT_REMOTE_ID;
		out[n + 1] = (uint8_t)len;
		n += 2 + (size_t)len;
	}
	return (int)n;
}

uint64_t
wr_dhcp4_backoff_ms(const struct wr_dhcp4_cfg *cfg, unsigned int k)
{
	/* RFC 2131 section 4.1: 4 s, doubled each retransmission, up to 64 s. */
	uint64_t ms = cfg->timeout_ms;

	while (k-- > 0 && ms < 64000)
		ms *= 2;
	return ms < 64000 ? ms : 64000;
}

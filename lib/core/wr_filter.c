/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_filter: compiling tcpdump expressions with libpcap; the rx_classes: list. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wr_filter.h"
#include "wr_ytree.h"

/* The snap length the programs are compiled for: the largest frame
 * wirerate receives (9018 with FCS) fits; libpcap only uses it to bound
 * loads, which the data path bounds by the frame anyway. */
#define WR_FILTER_SNAPLEN 65535

int
wr_filter_compile(struct wr_filter *f, const char *expr, char *why,
		  size_t why_len)
{
	pcap_t *p;
	size_t len = strlen(expr);
	int rc = 0;

	memset(f, 0, sizeof(*f));
	if (len == 0 || len >= sizeof(f->expr)) {
		snprintf(why, why_len, "expected a tcpdump filter expression "
			 "of 1 to %u characters", WR_FILTER_EXPR_MAX - 1);
		return -EINVAL;
	}
	memcpy(f->expr, expr, len + 1);
	p = pcap_open_dead(DLT_EN10MB, WR_FILTER_SNAPLEN);
	if (p == NULL)
		return -ENOMEM;
	/* Optimised, as tcpdump does; no netmask ("ip broadcast" is refused). */
	if (pcap_compile(p, &f->bpf, expr, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		snprintf(why, why_len, "libpcap cannot compile \"%s\": %s",
			 expr, pcap_geterr(p));
		rc = -EINVAL;
	} else {
		f->compiled = true;
	}
	pcap_close(p);
	return rc;
}

void
wr_filter_free(struct wr_filter *f)
{
	if (f == NULL || !f->compiled)
		return;
	pcap_freecode(&f->bpf);
	f->compiled = false;
}

bool
wr_filter_match(const struct wr_filter *f, const uint8_t *frame,
		uint32_t caplen, uint32_t len)
{
	struct pcap_pkthdr h;

	memset(&h, 0, sizeof(h));
	h.caplen = caplen;
	h.len = len;
	return f->compiled && pcap_offline_filter(&f->bpf, &h, frame) != 0;
}

/* A class name: short, printable in a column and a JSON key. */
static bool
name_ok(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= WR_RX_CLASS_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

static const char *const class_keys[] = { "name", "filter", NULL };

static int
parse_class(struct wr_ywalk *w, const struct wr_ynode *n,
	    struct wr_rx_classes *out)
{
	struct wr_rx_class *c = &out->c[out->n];
	const struct wr_ynode *name, *filter;
	char why[WR_FILTER_EXPR_MAX + 256];
	unsigned int i;
	int rc;

	rc = wr_ywalk_keys(w, n, "a class mapping {name, filter}", class_keys);
	if (rc != 0)
		return rc;
	if ((name = wr_ynode_get(n, "name")) == NULL)
		return wr_ywalk_missing(w, n, "name");
	if ((filter = wr_ynode_get(n, "filter")) == NULL)
		return wr_ywalk_missing(w, n, "filter");
	if (name->type != WR_YNODE_SCALAR || !name_ok(name->str, name->len) ||
	    strcmp(name->str, "foreign") == 0)
		return WR_YWALK_KEY(w, "name", wr_ywalk_expected(w, name,
			"a class name of 1 to 31 letters, digits, '_', '-' or "
			"'.', not \"foreign\""));
	for (i = 0; i < out->n; i++)
		if (strcmp(out->c[i].name, name->str) == 0)
			return WR_YWALK_KEY(w, "name", wr_ywalk_fail(w, name,
				"duplicate class \"%s\" (first at line %u)",
				name->str, out->c[i].line));
	rc = WR_YWALK_KEY(w, "filter", wr_ywalk_scalar(w, filter,
			  "a tcpdump filter expression"));
	if (rc != 0)
		return rc;
	memset(c, 0, sizeof(*c));
	rc = wr_filter_compile(&c->filter, filter->str, why, sizeof(why));
	if (rc == -EINVAL)
		return WR_YWALK_KEY(w, "filter", wr_ywalk_fail(w, filter, "%s",
								 why));
	if (rc != 0)
		return rc;
	memcpy(c->name, name->str, name->len + 1);
	snprintf(c->file, sizeof(c->file), "%s", w->file);
	c->line = name->line;
	c->col = name->col;
	out->n++;
	return 0;
}

int
wr_rx_classes_parse(struct wr_ywalk *w, const struct wr_ynode *n,
		    struct wr_rx_classes *out)
{
	size_t i, old;
	int rc = 0;

	if (n->type != WR_YNODE_SEQ)
		return wr_ywalk_expected(w, n, "a list of classes {name, filter}");
	if (out->n + n->n_kids > WR_RX_CLASSES_MAX)
		return wr_ywalk_fail(w, n, "expected at most %u classes, got "
				     "%zu", WR_RX_CLASSES_MAX,
				     out->n + n->n_kids);
	for (i = 0; i < n->n_kids && rc == 0; i++) {
		old = wr_ywalk_push_index(w, i);
		rc = parse_class(w, n->kids[i], out);
		wr_ywalk_pop(w, old);
	}
	return rc;
}

int
wr_rx_classes_check_pair(const struct wr_rx_classes *a,
			 const struct wr_rx_classes *b, struct wr_error *err)
{
	unsigned int i, j;

	for (i = 0; i < b->n; i++) {
		const struct wr_rx_class *c = &b->c[i];

		for (j = 0; j < a->n; j++)
			if (strcmp(a->c[j].name, c->name) == 0)
				return wr_error_set(err, -EINVAL, c->file,
					c->line, c->col, NULL,
					"rx_classes[%u].name: class \"%s\" is "
					"also defined in %s:%u", i, c->name,
					a->c[j].file, a->c[j].line);
	}
	if (a->n + b->n > WR_RX_CLASSES_MAX)
		return wr_error_set(err, -EINVAL, b->c[0].file, b->c[0].line,
				    b->c[0].col, NULL, "rx_classes: %u classes "
				    "with the profile's %u, at most %u", b->n,
				    a->n, WR_RX_CLASSES_MAX);
	return 0;
}

void
wr_rx_classes_free(struct wr_rx_classes *cs)
{
	unsigned int i;

	if (cs == NULL)
		return;
	for (i = 0; i < cs->n; i++)
		wr_filter_free(&cs->c[i].filter);
	cs->n = 0;
}

int
wr_rx_classes_match(const struct wr_rx_classes *cs, const uint8_t *frame,
		    uint32_t caplen, uint32_t len)
{
	unsigned int i;

	for (i = 0; i < cs->n; i++)
		if (wr_filter_match(&cs->c[i].filter, frame, caplen, len))
			return (int)i;
	return -1;
}

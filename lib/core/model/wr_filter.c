/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_filter: compiling tcpdump expressions with libpcap; the rx_classes: list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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
	char reason[160];
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
	if (rc == 0 && !wr_filter_bpf_ok(&f->bpf, reason, sizeof(reason))) {
		snprintf(why, why_len, "DPDK's eBPF cannot take \"%s\" (%s)",
			 expr, reason);
		wr_filter_free(f);
		rc = -EINVAL;
	}
	return rc;
}

bool
wr_filter_bpf_ok(const struct bpf_program *p, char *why, size_t why_len)
{
	uint32_t i;

	for (i = 0; i < p->bf_len; i++) {
		const struct bpf_insn *c = &p->bf_insns[i];
		uint32_t op = BPF_OP(c->code), mode = BPF_MODE(c->code);
		/* Where a jump lands, counted wide: libpcap's offsets are
		 * unsigned 32 bits and a "backward" one wraps. */
		uint64_t to = 0;
		bool ok = true;

		switch (BPF_CLASS(c->code)) {
		case BPF_LD:
		case BPF_LDX:
			if (BPF_CLASS(c->code) == BPF_LDX &&
			    (BPF_SIZE(c->code) != (mode == BPF_MSH ? BPF_B :
						   BPF_W) ||
			     mode == BPF_ABS || mode == BPF_IND))
				ok = false;
			else if (BPF_CLASS(c->code) == BPF_LD &&
				 mode == BPF_MSH)
				ok = false;
			/* eBPF's load offsets are signed 32 bits. */
			else if ((mode == BPF_ABS || mode == BPF_MSH) &&
				 c->k > INT32_MAX)
				ok = false;
			else if (mode == BPF_MEM && c->k >= BPF_MEMWORDS)
				ok = false;
			else if (mode != BPF_ABS && mode != BPF_MSH &&
				 mode != BPF_IND && mode != BPF_MEM &&
				 mode != BPF_LEN && mode != BPF_IMM)
				ok = false;
			break;
		case BPF_ST:
		case BPF_STX:
			ok = c->k < BPF_MEMWORDS;
			break;
		case BPF_ALU:
			ok = op <= BPF_XOR && !((op == BPF_DIV ||
				op == BPF_MOD) && BPF_SRC(c->code) == BPF_K &&
				c->k == 0);
			break;
		case BPF_JMP:
			if (op > BPF_JSET) {
				ok = false;
				break;
			}
			to = (uint64_t)i + 1 + (op == BPF_JA ? c->k :
				(c->jt > c->jf ? c->jt : c->jf));
			if (op == BPF_JA && c->k > INT32_MAX) {
				snprintf(why, why_len, "a loop: instruction "
					 "%u jumps back to %u; DPDK's verifier "
					 "takes no loops", i,
					 (uint32_t)(i + 1 + c->k));
				return false;
			}
			if (to >= p->bf_len) {
				snprintf(why, why_len, "instruction %u jumps "
					 "past the program's end", i);
				return false;
			}
			break;
		case BPF_RET:
			break;
		case BPF_MISC:
			ok = BPF_MISCOP(c->code) == BPF_TAX ||
			     BPF_MISCOP(c->code) == BPF_TXA;
			break;
		default:
			ok = false;
		}
		if (!ok) {
			snprintf(why, why_len, "instruction %u (code 0x%04x, k "
				 "%u) has no translation", i, c->code, c->k);
			return false;
		}
	}
	return true;
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

/* The longest merged program: the kernel's limit for a socket filter
 * (BPF_MAXINSNS).  Its eBPF translation must also keep its jumps within
 * 16 bits (wr_bpf.c); when it does not, the classes run one by one. */
#define WR_FILTER_MERGE_MAX 4096

/* Instructions program @p f takes in the merged one: its own, the
 * resets of A and X before all but the first, and two after it when a
 * "ret a" must be tested; -EINVAL for a return libpcap never emits. */
static int
merged_len(const struct bpf_program *f, bool first)
{
	bool ret_a = false;
	u_int j;

	for (j = 0; j < f->bf_len; j++) {
		const struct bpf_insn *in = &f->bf_insns[j];

		if (BPF_CLASS(in->code) != BPF_RET)
			continue;
		if (BPF_RVAL(in->code) == BPF_A)
			ret_a = true;
		else if (BPF_RVAL(in->code) != BPF_K)
			return -EINVAL;
	}
	return (int)f->bf_len + (first ? 0 : 2) + (ret_a ? 2 : 0);
}

static struct bpf_insn
insn(uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	struct bpf_insn in = { .code = code, .jt = jt, .jf = jf, .k = k };

	return in;
}

/* The scratch words @p f stores or loads, a bit each. */
static uint32_t
mem_used(const struct bpf_program *f)
{
	uint32_t used = 0;
	u_int j;

	for (j = 0; j < f->bf_len; j++) {
		const struct bpf_insn *in = &f->bf_insns[j];

		if ((BPF_CLASS(in->code) == BPF_ST ||
		     BPF_CLASS(in->code) == BPF_STX ||
		     in->code == (BPF_LD | BPF_MEM) ||
		     in->code == (BPF_LDX | BPF_MEM)) && in->k < BPF_MEMWORDS)
			used |= 1u << in->k;
	}
	return used;
}

/* Whether program @p f has an absolute load of the size and offset of
 * @p ld. */
static bool
has_load(const struct bpf_program *f, const struct bpf_insn *ld)
{
	u_int j;

	for (j = 0; j < f->bf_len; j++)
		if (f->bf_insns[j].code == ld->code && f->bf_insns[j].k == ld->k)
			return true;
	return false;
}

/* Bytes every Ethernet frame has (60, FCS excluded, IEEE 802.3). */
#define WR_FILTER_MIN_FRAME 60

static unsigned int
load_size(const struct bpf_insn *in)
{
	return BPF_SIZE(in->code) == BPF_W ? 4 :
	       BPF_SIZE(in->code) == BPF_H ? 2 : 1;
}

/*
 * The absolute loads that two programs or more make (for Ethernet "ldh
 * [12]", the EtherType, in nearly every one; "ldb [23]", the IPv4
 * protocol, in many), as many as scratch words are left that no program
 * uses: each is loaded once before the programs into its word (*@p slot),
 * and the programs' own loads of it become reads of the word (one
 * instruction instead of DPDK's bounds check and load from the mbuf).
 * Only loads within the first 60 bytes: the merged program stops where
 * one is beyond the frame, and its caller then runs the filters one by one
 * (exact, slower), which no frame of legal size then needs.
 * @return how many (in @p ld and @p slot).
 */
static unsigned int
shared_loads(const struct wr_filter *const *fs, unsigned int n,
	     struct bpf_insn *ld, unsigned int *slot)
{
	uint32_t used = 0;
	unsigned int c, d, j, k, m = 0, same;

	for (c = 0; c < n; c++)
		used |= mem_used(&fs[c]->bpf);
	for (c = 0; c < n; c++) {
		const struct bpf_program *f = &fs[c]->bpf;

		for (j = 0; j < f->bf_len; j++) {
			const struct bpf_insn *in = &f->bf_insns[j];

			if (BPF_CLASS(in->code) != BPF_LD ||
			    BPF_MODE(in->code) != BPF_ABS ||
			    (uint64_t)in->k + load_size(in) >
			    WR_FILTER_MIN_FRAME)
				continue;
			for (k = 0; k < m; k++)
				if (ld[k].code == in->code && ld[k].k == in->k)
					break;
			if (k < m)
				continue;
			for (d = c + 1, same = 1; d < n; d++)
				same += has_load(&fs[d]->bpf, in);
			if (same < 2)
				continue;
			for (k = 0; k < BPF_MEMWORDS && (used & (1u << k)); k++)
				;
			if (k == BPF_MEMWORDS)
				return m;
			used |= 1u << k;
			slot[m] = k;
			ld[m++] = *in;
		}
	}
	return m;
}

/* The entry of @p ld (@p m of them) that @p in loads, or NULL. */
static const struct bpf_insn *
shared(const struct bpf_insn *ld, unsigned int m, const struct bpf_insn *in)
{
	unsigned int k;

	for (k = 0; k < m; k++)
		if (ld[k].code == in->code && ld[k].k == in->k)
			return &ld[k];
	return NULL;
}

/*
 * The programs one after the other.  Each "ret #0" (no match) becomes a
 * jump to the next program, each "ret #k" with k != 0 "ret #(c + 1)", a
 * "ret a" a jump to a test of A after the program; jt/jf offsets inside a
 * program stay as they were (one instruction for one), and the jumps out
 * of it are "ja", whose offset has 32 bits.  The next program starts with
 * A = X = 0, as it would alone.  Its scratch words need no reset: libpcap's
 * programs never load a word no earlier store on the same path wrote (the
 * kernel refuses such a socket filter, and tcpdump attaches libpcap's
 * programs to sockets), so no program reads what an earlier one left.
 * The shared loads (shared_loads()) run first.
 */
int
wr_filter_merge(const struct wr_filter *const *fs, unsigned int n,
		struct wr_filter *out)
{
	struct bpf_insn *ins, ld[BPF_MEMWORDS];
	const struct bpf_insn *sh;
	unsigned int c, k, pc = 0, total = 1, next, slot[BPF_MEMWORDS], m;
	int len;

	memset(out, 0, sizeof(*out));
	if (n == 0 || n > WR_RX_CLASSES_MAX)
		return -EINVAL;
	for (c = 0; c < n; c++) {
		if (!fs[c]->compiled)
			return -EINVAL;
		len = merged_len(&fs[c]->bpf, c == 0);
		if (len < 0)
			return len;
		total += (unsigned int)len;
	}
	m = shared_loads(fs, n, ld, slot);
	total += 2 * m;
	if (total > WR_FILTER_MERGE_MAX)
		return -E2BIG;
	/* free()d by pcap_freecode() (wr_filter_free()), as libpcap's own. */
	ins = calloc(total, sizeof(*ins));
	if (ins == NULL)
		return -ENOMEM;
	for (k = 0; k < m; k++) {
		ins[pc++] = ld[k];
		ins[pc++] = insn(BPF_ST, 0, 0, slot[k]);
	}
	for (c = 0; c < n; c++) {
		const struct bpf_program *f = &fs[c]->bpf;
		unsigned int start = pc, j, epi;

		next = start + (unsigned int)merged_len(f, c == 0);
		if (c > 0) {
			ins[pc++] = insn(BPF_LD | BPF_IMM, 0, 0, 0);
			ins[pc++] = insn(BPF_LDX | BPF_IMM, 0, 0, 0);
		}
		epi = pc + f->bf_len;   /* the test of A, when there is one */
		for (j = 0; j < f->bf_len; j++, pc++) {
			const struct bpf_insn *in = &f->bf_insns[j];

			if (in->code == (BPF_RET | BPF_K) && in->k == 0)
				ins[pc] = insn(BPF_JMP | BPF_JA, 0, 0,
					       next - pc - 1);
			else if (in->code == (BPF_RET | BPF_K))
				ins[pc] = insn(BPF_RET | BPF_K, 0, 0, c + 1);
			else if (in->code == (BPF_RET | BPF_A))
				ins[pc] = insn(BPF_JMP | BPF_JA, 0, 0,
					       epi - pc - 1);
			else if ((sh = shared(ld, m, in)) != NULL)
				ins[pc] = insn(BPF_LD | BPF_MEM, 0, 0,
					       slot[sh - ld]);
			else
				ins[pc] = *in;
		}
		if (pc < next) {
			/* A == 0: no match, on to the next program. */
			ins[pc++] = insn(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 0);
			ins[pc++] = insn(BPF_RET | BPF_K, 0, 0, c + 1);
		}
	}
	ins[pc++] = insn(BPF_RET | BPF_K, 0, 0, n + 1);
	out->bpf.bf_len = pc;
	out->bpf.bf_insns = ins;
	out->compiled = true;
	snprintf(out->expr, sizeof(out->expr), "%u classes merged", n);
	return 0;
}

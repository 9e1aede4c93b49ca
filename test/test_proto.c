/* SPDX-License-Identifier: BSD-3-Clause */
/* test_proto: the registry of protocol modules against its documentation. */
#include <stdlib.h>

#include "wr_proto.h"
#include "wr_test.h"

#ifndef WR_DOC
#define WR_DOC "doc"
#endif

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = calloc(1, (size_t)len + 1)) != NULL &&
	    fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The text of the "#### " section whose heading names `@p name`, up to the
 * next heading ("#" at a line's start), in @p out; false when there is none. */
static bool
section(const char *doc, const char *name, char *out, size_t len)
{
	char tick[64];
	const char *h, *eol, *end;

	snprintf(tick, sizeof(tick), "`%s`", name);
	for (h = strstr(doc, "\n#### "); h != NULL; h = strstr(h + 1, "\n#### ")) {
		eol = strchr(h + 1, '\n');
		if (eol == NULL)
			return false;
		/* The heading's own line. */
		if (strstr(h, tick) == NULL || strstr(h, tick) > eol)
			continue;
		end = strstr(eol, "\n#");
		if (end == NULL)
			end = doc + strlen(doc);
		snprintf(out, len, "%.*s", (int)(end - h), h);
		return true;
	}
	return false;
}

/* Each registered module has its section in doc/stack.md naming every key
 * it takes (its fields and option lists), and a row in the table of what
 * each layer carries. */
static void
test_doc_names_every_module(void)
{
	char *doc = slurp(WR_DOC "/stack.md");
	static char sec[16384];
	char key[80], row[80];
	unsigned int i, j;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_TRUE(wr_n_protos >= 20);
	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];
		bool found = section(doc, p->name, sec, sizeof(sec));

		if (!found)
			fprintf(stderr, "doc/stack.md: no section for %s\n", p->name);
		CU_ASSERT_TRUE(found);
		if (!found)
			continue;
		for (j = 0; j < p->n_fields; j++) {
			snprintf(key, sizeof(key), "`%s`", p->fields[j].name);
			if (strstr(sec, key) == NULL)
				fprintf(stderr, "doc/stack.md: %s has no %s\n", p->name, key);
			CU_ASSERT_PTR_NOT_NULL(strstr(sec, key));
		}
		if (p->opts != NULL) {
			snprintf(key, sizeof(key), "`%s`", p->opts->key);
			CU_ASSERT_PTR_NOT_NULL(strstr(sec, key));
		}
		/* "| `name`" or ", `name`" in the carries table. */
		snprintf(row, sizeof(row), "| `%s`", p->name);
		snprintf(key, sizeof(key), ", `%s` |", p->name);
		if (strstr(doc, row) == NULL && strstr(doc, key) == NULL)
			fprintf(stderr, "doc/stack.md: no row for %s\n", p->name);
		CU_ASSERT_TRUE(strstr(doc, row) != NULL || strstr(doc, key) != NULL);
	}
	free(doc);
}

/* The table the Python TRex converter reads is what the registry says:
 * python/wirerate/trex/registry.json is wr_proto_json()'s output, byte
 * for byte (WR_REGEN=1 writes it anew after a module changed). */
static void
test_json_table(void)
{
	static const char path[] = WR_DOC "/../python/wirerate/trex/registry.json";
	size_t n = wr_proto_json(NULL, 0);
	char *want = malloc(n + 1), *got;
	FILE *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_EQUAL(wr_proto_json(want, n + 1), n);
	CU_ASSERT_EQUAL(strlen(want), n);
	if (getenv("WR_REGEN") != NULL && (f = fopen(path, "w")) != NULL) {
		fputs(want, f);
		fclose(f);
	}
	got = slurp(path);
	if (got == NULL || strcmp(got, want) != 0)
		fprintf(stderr, "\n    %s differs from the registry: run this test "
			"with WR_REGEN=1 and commit it\n", path);
	CU_ASSERT_PTR_NOT_NULL(got);
	CU_ASSERT_TRUE(got != NULL && strcmp(got, want) == 0);
	free(got);
	free(want);
}

/* Every module's header length and fragment rule as data (rx_hlen, what
 * registry.json gives readers without the hook) are what its rx hook
 * finds, over random headers the hook takes. */
static void
test_rx_hlen(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	unsigned int i, k, b, taken;

	for (i = 0; i < wr_n_protos; i++) {
		const struct wr_proto *p = wr_protos[i];
		uint8_t h[WR_HDR_MAX];

		for (k = taken = 0; k < 20000; k++) {
			struct wr_rx_next nx;
			int hl;

			for (b = 0; b < sizeof(h); b++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				h[b] = (uint8_t)x;
			}
			nx.frag = false;
			hl = wr_proto_rx(p, h, sizeof(h), &nx);
			if (hl > 0 && nx.frag != (p->rx_hlen.frag_mask != 0 &&
			    ((h[p->rx_hlen.frag_off] << 8 | h[p->rx_hlen.frag_off + 1]) &
			     p->rx_hlen.frag_mask) != 0)) {
				fprintf(stderr, "\n    %s: rx says frag %d\n", p->name, nx.frag);
				CU_FAIL("rx_hlen.frag");
				break;
			}
			if (hl <= 0 || p->rx_hlen.chain)
				continue;
			taken++;
			if (wr_proto_rx_hlen(p, h, sizeof(h)) != (uint32_t)hl) {
				fprintf(stderr, "\n    %s: rx %d, rx_hlen %u\n", p->name,
					hl, wr_proto_rx_hlen(p, h, sizeof(h)));
				CU_FAIL("rx_hlen");
				break;
			}
		}
		/* Random bytes pass every hook but VXLAN's (flags 0x08
		 * and zeros) and raw's (no rx); a chain is not compared. */
		if (strcmp(p->name, "vxlan") != 0 && p->hlen != 0 &&
		    !p->rx_hlen.chain && taken == 0) {
			fprintf(stderr, "\n    %s: no header taken\n", p->name);
			CU_FAIL("no random header taken");
		}
	}
}

int
main(int argc, char **argv)
{
	static CU_TestInfo tests[] = {
		{ "doc_names_every_module", test_doc_names_every_module },
		{ "json_table", test_json_table },
		{ "rx_hlen", test_rx_hlen },
		CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
		{ "proto", NULL, NULL, NULL, NULL, tests },
		CU_SUITE_INFO_NULL,
	};

	return wr_test_main(argc, argv, suites);
}

/* SPDX-License-Identifier: BSD-3-Clause */
/* test_fe: the field engine's frames on any number of lanes, its values against their closed forms, TRex's generator, and the template's refusals. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wr_fe.h"
#include "wr_fe_priv.h"
#include "wr_frame.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* An IPv4/UDP frame of 90 bytes without FCS. */
#define FRAME "\"0200000000020200000000010800450000480001000040110000c0a80001c0a800020400" \
	"040000340000" "000000000000000000000000000000000000000000000000000000000000000000000000" \
	"0000000000000000000000000000000000000000\""

static int
load(const char *body, struct wr_stream_file *f, struct wr_error *e)
{
	char text[4096];

	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: s\n    frame: %s\n%s",
		 FRAME, body);
	wr_error_clear(e);
	return wr_yaml_load_streams_buf("fe.yaml", text, strlen(text), f, e);
}

/* Every kind of variable and write at once; frames 0..n-1 of it. */
static const char every_kind[] =
	"    seed: 77\n"
	"    vars:\n"
	"      - {name: a, size: 1, inc: {min: 3, max: 250, step: 7, init: 9}, next_var: b}\n"
	"      - {name: b, size: 2, dec: {list: [53, 80, 443, 8080], step: 3}, next_var: c}\n"
	"      - {name: c, size: 1, repeat: {min: 0, max: 200, seed: 3, limit: 2}}\n"
	"      - {name: r1, size: 1, random: {min: 10, max: 20}}\n"
	"      - {name: r4, size: 4, random: {min: 16.0.0.0, max: 18.0.0.254}}\n"
	"      - {name: r8, size: 8, random: {}}\n"
	"      - {name: rl, size: 2, random: {list: [1, 2, 3]}}\n"
	"      - {name: p, size: 4, repeat: {min: 5, max: 0xffff0000, seed: 9, limit: 7}}\n"
	"      - {name: t, tuple: {ip: {min: 10.0.0.1, max: 10.0.0.3}, port: {min: 1, max: 5}, flows: 11}}\n"
	"      - {name: w, size: 8, inc: {min: 0xffffffffffffff00, max: 0xffffffffffffffff, step: 100}}\n"
	"    fields:\n"
	"      - {offset: 22, var: a}\n"
	"      - {offset: 34, var: b, add: -3}\n"
	"      - {offset: 15, var: c}\n"
	"      - {offset: 42, var: r1}\n"
	"      - {offset: 26, var: r4}\n"
	"      - {offset: 46, var: r8, order: little}\n"
	"      - {offset: 54, var: rl}\n"
	"      - {offset: 56, var: p}\n"
	"      - {offset: 30, var: t.ip}\n"
	"      - {offset: 36, var: t.port}\n"
	"      - {offset: 60, var: w}\n"
	"      - {offset: 68, var: a, width: 2, mask: 0x0ff0, shift: 4, add: 1}\n"
	"      - {offset: 68, var: r1, width: 2, mask: 0xf00f, shift: -1}\n"
	"    checksums: [{ipv4: 14}, {udp: 34, ip: 14}]\n";

static uint8_t *
frames(const struct wr_frame_tmpl *t, unsigned int n, unsigned int lanes)
{
	uint16_t len = wr_frame_tmpl_max_len(t);
	uint8_t *out = calloc(n, len);
	unsigned int j, k;

	for (j = 0; j < lanes; j++) {
		struct wr_frame_gen g;

		wr_frame_gen_init(&g, t, j, lanes);
		/* One frame at a time here, bursts of 5 there: the same. */
		for (k = j; k < n; k += lanes) {
			memcpy(out + (size_t)k * len, wr_frame_tmpl_bytes(t), len);
			if (lanes == 3 && k + 5 * lanes < n) {
				void *objs[5];
				uint16_t lens[5];
				unsigned int q;

				for (q = 0; q < 5; q++) {
					objs[q] = out + (size_t)(k + q * lanes) * len;
					memcpy(objs[q], wr_frame_tmpl_bytes(t), len);
				}
				wr_frame_gen_burst_at(&g, objs, 0, lens, 5);
				k += 4 * lanes;
				continue;
			}
			wr_frame_gen_next(&g, out + (size_t)k * len);
		}
	}
	return out;
}

static uint64_t
get_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

/* Lanes: K lcores together write exactly the frames one writes; and the
 * bytes hold wr_fe_value_at()'s values (the closed forms). */
static void
test_lanes_and_values(void)
{
	struct wr_stream_file f;
	struct wr_frame_tmpl *t;
	struct wr_error e;
	const unsigned int n = 997;
	uint8_t *one, *more;
	unsigned int k, lanes;
	uint16_t len;

	CU_ASSERT_EQUAL_FATAL(load(every_kind, &f, &e), 0);
	CU_ASSERT_EQUAL_FATAL(wr_frame_tmpl_create(&f.streams[0], 0, &t, &e), 0);
	len = wr_frame_tmpl_max_len(t);
	one = frames(t, n, 1);
	for (lanes = 2; lanes <= 5; lanes++) {
		more = frames(t, n, lanes);
		CU_ASSERT_EQUAL(memcmp(one, more, (size_t)n * len), 0);
		free(more);
	}
	for (k = 0; k < n; k++) {
		const struct wr_fe_spec *fe = f.streams[0].fe;
		const uint8_t *b = one + (size_t)k * len;
		uint64_t v;

		CU_ASSERT_EQUAL(b[22], wr_fe_value_at(fe, 0, k, 77));
		CU_ASSERT_EQUAL(get_be(b + 34, 2),
				(wr_fe_value_at(fe, 1, k, 77) - 3) & 0xffff);
		CU_ASSERT_EQUAL(get_be(b + 26, 4), wr_fe_value_at(fe, 4, k, 77));
		v = wr_fe_value_at(fe, 5, k, 77);
		CU_ASSERT_EQUAL(get_be(b + 46, 8), __builtin_bswap64(v));
		CU_ASSERT_EQUAL(get_be(b + 30, 4), wr_fe_value_at(fe, 8, k, 77));
		CU_ASSERT_EQUAL(get_be(b + 36, 2), wr_fe_value_at(fe, 9, k, 77));
		CU_ASSERT(get_be(b + 30, 4) >= 0x0a000001 && get_be(b + 30, 4) <= 0x0a000003);
	}
	/* The tuple: the port moves when the address wraps, 11 flows. */
	CU_ASSERT_EQUAL(get_be(one + 3 * len + 36, 2), 2);
	CU_ASSERT_EQUAL(get_be(one + 11 * len + 30, 4), 0x0a000001);
	CU_ASSERT_EQUAL(get_be(one + 11 * len + 36, 2), 1);
	free(one);
	wr_frame_tmpl_free(t);
	wr_stream_file_free(&f);
}

/* cache: frame k is frame k mod cache, on every lane. */
static void
test_cache(void)
{
	struct wr_stream_file f;
	struct wr_frame_tmpl *t;
	struct wr_error e;
	uint8_t *a, *b;
	uint16_t len;
	unsigned int k;

	CU_ASSERT_EQUAL_FATAL(load("    vars:\n"
		"      - {name: r, size: 4, random: {}}\n"
		"    fields: [{offset: 26, var: r}]\n"
		"    cache: 13\n", &f, &e), 0);
	CU_ASSERT_EQUAL_FATAL(wr_frame_tmpl_create(&f.streams[0], 0, &t, &e), 0);
	len = wr_frame_tmpl_max_len(t);
	a = frames(t, 100, 1);
	b = frames(t, 100, 3);
	CU_ASSERT_EQUAL(memcmp(a, b, 100u * len), 0);
	for (k = 13; k < 100; k++)
		CU_ASSERT_EQUAL(memcmp(a + (size_t)k * len, a + (size_t)(k % 13) * len,
				       len), 0);
	CU_ASSERT_NOT_EQUAL(memcmp(a, a + len, len), 0);
	free(a);
	free(b);
	wr_frame_tmpl_free(t);
	wr_stream_file_free(&f);
}

/* TRex's generator: a jump of n steps is n steps. */
static void
test_lcg(void)
{
	uint32_t s = 514229u, x = s;
	uint64_t n;

	for (n = 0; n < 5000; n++) {
		CU_ASSERT_EQUAL(wr_fe_lcg_skip(s, n), x);
		x = wr_fe_lcg_step(x);
	}
	/* the first draw of seed 1 is rand()'s of the old MSVC runtime: 41 */
	CU_ASSERT_EQUAL(wr_fe_lcg_r15(wr_fe_lcg_step(1)), 41);
}

/* What a template refuses: two writes into the same bits, a write over a
 * computed checksum, a checksum the frame does not hold, a write past the
 * smallest trimmed frame. */
static void
test_refusals(void)
{
	static const struct {
		const char *body;
		const char *msg;
	} cases[] = {
		{ "    vars: [{name: a, size: 2, inc: {min: 0, max: 9}}]\n"
		  "    fields: [{offset: 34, var: a}, {offset: 35, var: a, width: 1, mask: 1}]\n",
		  "writes bits of byte 35 another write already writes" },
		{ "    vars: [{name: a, size: 2, inc: {min: 0, max: 9}}]\n"
		  "    fields: [{offset: 40, var: a}]\n"
		  "    checksums: [{udp: 34, ip: 14}]\n",
		  "writes over the checksum at offset 40" },
		{ "    checksums: [{tcp: 34, ip: 14}]\n",
		  "the frame holds no tcp header at offset 34" },
		{ "    vars: [{name: l, size: 2, inc: {min: 60, max: 90}}]\n"
		  "    fields: [{offset: 80, var: l}]\n"
		  "    trim: l\n",
		  "past the smallest trimmed frame (60 bytes)" },
	};
	struct wr_stream_file f;
	struct wr_frame_tmpl *t;
	struct wr_error e;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(load(cases[i].body, &f, &e), 0);
		wr_error_clear(&e);
		rc = wr_frame_tmpl_create(&f.streams[0], 0, &t, &e);
		if (rc == 0) {
			fprintf(stderr, "\n    case %u built\n", i);
			wr_frame_tmpl_free(t);
		}
		CU_ASSERT_EQUAL(rc, -EINVAL);
		if (strstr(e.msg, cases[i].msg) == NULL)
			fprintf(stderr, "\n    case %u: rc %d: %s\n", i, rc, e.msg);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, cases[i].msg));
		CU_ASSERT_EQUAL(e.line, 3); /* the stream's */
		wr_stream_file_free(&f);
	}
}

static CU_TestInfo fe_tests[] = {
	{ "lanes_and_values", test_lanes_and_values },
	{ "cache", test_cache },
	{ "lcg", test_lcg },
	{ "refusals", test_refusals },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "fe", .pTests = fe_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

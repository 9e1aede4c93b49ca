/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the stream-file loader (wr_yaml): shipped files, model, error fixtures. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>

#include <openssl/evp.h>

#include "wr_proto.h"
#include "wr_yaml.h"
#include "wr_test.h"
#include "wr_test_fixture.h"

/* A field of a loaded stream's stack by its key ("ipv4.src"). */
#define SF(s, key) (*wr_stream_field((s), (key)))

static const struct wr_stream_file zero_file;

static int
load_buf(const char *text, struct wr_stream_file *f, struct wr_error *e)
{
	return wr_yaml_load_streams_buf("buf.yaml", text, strlen(text), f, e);
}

static int
load_path(const char *dir, const char *name, struct wr_stream_file *f,
	  struct wr_error *e)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return wr_yaml_load_streams(path, f, e);
}

/* ---- shipped files ---- */

static void
test_every_shipped_file_loads(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	struct dirent *d;
	unsigned int n = 0;
	DIR *dir;
	int rc;

	dir = opendir(WR_STREAMS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	while ((d = readdir(dir)) != NULL) {
		if (!wr_test_is_yaml(d->d_name))
			continue;
		rc = load_path(WR_STREAMS, d->d_name, &f, &e);
		if (rc != 0)
			wr_test_print_error(&e);
		CU_ASSERT_EQUAL(rc, 0);
		if (rc == 0) {
			/* streams:, or tcp: classes alone (doc/tcp.md). */
			CU_ASSERT(f.n_streams >= 1 || f.tcp.n >= 1);
			CU_ASSERT_EQUAL(f.version, 1);
			CU_ASSERT_PTR_NOT_NULL(strstr(f.path, d->d_name));
		}
		wr_stream_file_free(&f);
		n++;
	}
	closedir(dir);
	/* The eight files this module ships; more is fine. */
	CU_ASSERT(n >= 8);
}

static void
assert_default_headers(const struct wr_stream *s)
{
	uint32_t i, j;

	/* The shorthand's stack, every field fixed. */
	CU_ASSERT_EQUAL_FATAL(s->n_layers, 3);
	for (i = 0; i < s->n_layers; i++)
		for (j = 0; j < s->layers[i].proto->n_fields; j++)
			CU_ASSERT_EQUAL(s->layers[i].field[j].mode, WR_VARY_FIXED);
	CU_ASSERT_EQUAL(SF(s, "eth.src").value, 0x020000000001ull);
	CU_ASSERT_EQUAL(SF(s, "eth.dst").value, 0x020000000002ull);
	CU_ASSERT_EQUAL(SF(s, "ipv4.src").value, 0xc6120001ull);
	CU_ASSERT_EQUAL(SF(s, "ipv4.dst").value, 0xc6130001ull);
	CU_ASSERT_EQUAL(SF(s, "ipv4.ttl").value, 64);
	CU_ASSERT_EQUAL(SF(s, "ipv4.dscp").value, 0);
	CU_ASSERT_EQUAL(SF(s, "ipv4.id").value, 0);
	CU_ASSERT_EQUAL(SF(s, "udp.src").value, 1024);
	CU_ASSERT_EQUAL(SF(s, "udp.dst").value, 1024);
	CU_ASSERT_PTR_NULL(wr_stream_field(s, "vlan.id"));
	CU_ASSERT_EQUAL(SF(s, "ipv4.ecn").value, 0);
	CU_ASSERT_EQUAL(SF(s, "ipv4.df").value, 1);
}

static void
test_udp64(void)
{
	unsigned char digest[32];
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_stream *s;
	char path[512];
	size_t len;
	char *buf;
	FILE *fp;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "udp-64.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL(f.n_streams, 1);
	CU_ASSERT_EQUAL(f.seed, 1);
	CU_ASSERT_FALSE(f.seed_set);
	s = &f.streams[0];
	CU_ASSERT_STRING_EQUAL(s->name, "udp-64");
	CU_ASSERT_EQUAL(s->port, 0);
	CU_ASSERT_EQUAL(s->count, 0);
	CU_ASSERT_EQUAL(s->rate.unit, WR_RATE_MAX);
	CU_ASSERT_EQUAL(s->seed, 1);
	CU_ASSERT_FALSE(s->seed_set);
	CU_ASSERT_FALSE(s->latency);
	CU_ASSERT_EQUAL(s->combine, WR_COMBINE_TOGETHER);
	CU_ASSERT_EQUAL(s->size.mode, WR_SIZE_FIXED);
	CU_ASSERT_EQUAL(s->size.fixed, 64);
	CU_ASSERT_EQUAL(s->size.min, 64);
	CU_ASSERT_EQUAL(s->size.max, 64);
	CU_ASSERT_EQUAL(s->payload.kind, WR_PAYLOAD_ZEROS);
	CU_ASSERT_PTR_NULL(s->payload.bytes);
	assert_default_headers(s);
	/* The stream mapping starts at "  - name:" on line 10, column 5. */
	CU_ASSERT_EQUAL(s->mark.line, 10);
	CU_ASSERT_EQUAL(s->mark.col, 5);

	/* The digest is of the file's bytes: recompute it from the file. */
	snprintf(path, sizeof(path), "%s/udp-64.yaml", WR_STREAMS);
	fp = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
	buf = malloc(65536);
	if (buf == NULL) {
		CU_FAIL("out of memory");
		fclose(fp);
		return;
	}
	len = fread(buf, 1, 65536, fp);
	fclose(fp);
	CU_ASSERT_EQUAL(EVP_Digest(buf, len, digest, NULL, EVP_sha256(), NULL), 1);
	CU_ASSERT_EQUAL(memcmp(digest, f.sha256, 32), 0);
	free(buf);
	wr_stream_file_free(&f);
}

static void
test_two_streams(void)
{
	static const uint8_t dead[] = { 0xde, 0xad, 0xbe, 0xef };
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_stream *a, *b;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "two-streams.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL_FATAL(f.n_streams, 2);
	a = &f.streams[0];
	b = &f.streams[1];
	CU_ASSERT_STRING_EQUAL(a->name, "flow-a");
	CU_ASSERT_STRING_EQUAL(b->name, "flow-b");
	CU_ASSERT_EQUAL(wr_stream_file_find(&f, "flow-b"), 1);
	CU_ASSERT_EQUAL(a->port, 0);
	CU_ASSERT_EQUAL(b->port, 0);
	CU_ASSERT_EQUAL(a->size.fixed, 64);
	CU_ASSERT_EQUAL(b->size.fixed, 1024);
	CU_ASSERT_EQUAL(b->size.min, 1024);
	CU_ASSERT_EQUAL(a->rate.unit, WR_RATE_PPS);
	CU_ASSERT_EQUAL(a->rate.value, 1000000000ull);
	CU_ASSERT_EQUAL(b->rate.unit, WR_RATE_BPS_L2);
	CU_ASSERT_EQUAL(b->rate.value, 500000000ull);
	CU_ASSERT_EQUAL(SF(a, "eth.src").value, 0x020000000001ull);
	CU_ASSERT_EQUAL(SF(a, "eth.dst").value, 0x020000000002ull);
	CU_ASSERT_EQUAL(SF(b, "eth.src").value, 0x020000000003ull);
	CU_ASSERT_EQUAL(SF(b, "eth.dst").value, 0x020000000004ull);
	CU_ASSERT_EQUAL(SF(a, "ipv4.src").value, 0x0a000001u);
	CU_ASSERT_EQUAL(SF(a, "ipv4.dst").value, 0x0a000101u);
	CU_ASSERT_EQUAL(SF(b, "ipv4.src").value, 0x0a000002u);
	CU_ASSERT_EQUAL(SF(b, "ipv4.dst").value, 0x0a000102u);
	CU_ASSERT_EQUAL(SF(a, "ipv4.ttl").value, 64);
	CU_ASSERT_EQUAL(SF(b, "ipv4.ttl").value, 32);
	CU_ASSERT_EQUAL(SF(b, "ipv4.dscp").value, 46);
	CU_ASSERT_EQUAL(SF(a, "udp.src").value, 5000);
	CU_ASSERT_EQUAL(SF(a, "udp.dst").value, 5001);
	CU_ASSERT_EQUAL(SF(b, "udp.src").value, 6000);
	CU_ASSERT_EQUAL(SF(b, "udp.dst").value, 6001);
	CU_ASSERT_EQUAL(a->payload.kind, WR_PAYLOAD_INC);
	CU_ASSERT_EQUAL(b->payload.kind, WR_PAYLOAD_PATTERN);
	CU_ASSERT_EQUAL_FATAL(b->payload.len, 4);
	CU_ASSERT_EQUAL(memcmp(b->payload.bytes, dead, 4), 0);
	CU_ASSERT_EQUAL(a->count, 0);
	CU_ASSERT_EQUAL(SF(a, "ipv4.df").value, 1);
	CU_ASSERT_PTR_NULL(wr_stream_field(a, "vlan.id"));
	wr_stream_file_free(&f);
}

static void
test_rfc2544(void)
{
	static const uint16_t sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };
	struct wr_stream_file f;
	struct wr_error e;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "rfc2544-sizes.yaml", &f,
					&e), 0);
	CU_ASSERT_EQUAL_FATAL(f.n_streams, 7);
	for (i = 0; i < 7; i++) {
		CU_ASSERT_EQUAL(f.streams[i].size.mode, WR_SIZE_FIXED);
		CU_ASSERT_EQUAL(f.streams[i].size.fixed, sizes[i]);
		CU_ASSERT_EQUAL(f.streams[i].count, 1000);
		CU_ASSERT_EQUAL(f.streams[i].rate.unit, WR_RATE_PPS);
		CU_ASSERT_EQUAL(f.streams[i].rate.value, 100000000ull);
	}
	CU_ASSERT_STRING_EQUAL(f.streams[6].name, "rfc2544-1518");
	CU_ASSERT_TRUE(f.seed_set);
	wr_stream_file_free(&f);
}

static void
test_flows_vary(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_field_spec *src, *sport;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "flows-vary.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL(f.seed, 42);
	CU_ASSERT_EQUAL(f.streams[0].seed, 42);
	CU_ASSERT_FALSE(f.streams[0].seed_set);
	src = wr_stream_field(&f.streams[0], "ipv4.src");
	CU_ASSERT_EQUAL(src->mode, WR_VARY_INC);
	CU_ASSERT_EQUAL(src->from, 0x0a000001u);
	CU_ASSERT_EQUAL(src->to, 0x0a0000feu);
	CU_ASSERT_EQUAL(src->step, 1);
	CU_ASSERT_EQUAL(src->value, 0x0a000001u);
	CU_ASSERT_EQUAL(wr_field_period(src), 254);
	sport = wr_stream_field(&f.streams[0], "udp.src");
	CU_ASSERT_EQUAL(sport->mode, WR_VARY_RANDOM);
	CU_ASSERT_EQUAL(sport->from, 1024);
	CU_ASSERT_EQUAL(sport->to, 65535);
	CU_ASSERT_EQUAL(sport->value, 1024);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.dst").mode, WR_VARY_FIXED);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.dst").value, 4789);
	wr_stream_file_free(&f);
}

static void
test_imix_vlan_latency(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_size_spec *sz;
	unsigned int i;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "imix.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL_FATAL(f.n_streams, 2);
	for (i = 0; i < 2; i++) {
		sz = &f.streams[i].size;
		CU_ASSERT_EQUAL(sz->mode, WR_SIZE_MIX);
		CU_ASSERT_EQUAL_FATAL(sz->n_mix, 3);
		CU_ASSERT_EQUAL(sz->mix[0].size, 64);
		CU_ASSERT_EQUAL(sz->mix[0].weight, 7);
		CU_ASSERT_EQUAL(sz->mix[1].size, 594);
		CU_ASSERT_EQUAL(sz->mix[1].weight, 4);
		CU_ASSERT_EQUAL(sz->mix[2].size, 1518);
		CU_ASSERT_EQUAL(sz->mix[2].weight, 1);
		CU_ASSERT_EQUAL(sz->min, 64);
		CU_ASSERT_EQUAL(sz->max, 1518);
	}
	CU_ASSERT_EQUAL(f.streams[0].rate.unit, WR_RATE_BPS_L1);
	CU_ASSERT_EQUAL(f.streams[0].rate.value, 10000000000ull);
	CU_ASSERT_EQUAL(f.streams[1].rate.unit, WR_RATE_PERCENT);
	CU_ASSERT_EQUAL(f.streams[1].rate.value, 500000);
	wr_stream_file_free(&f);

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "vlan.yaml", &f, &e), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(wr_stream_field(&f.streams[0], "vlan.id"));
	CU_ASSERT_EQUAL(SF(&f.streams[0], "vlan.id").value, 100);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "vlan.pcp").value, 3);
	CU_ASSERT_EQUAL(SF(&f.streams[1], "vlan.id").mode, WR_VARY_LIST);
	CU_ASSERT_EQUAL_FATAL(SF(&f.streams[1], "vlan.id").list_len, 4);
	CU_ASSERT_EQUAL(SF(&f.streams[1], "vlan.id").list[3], 13);
	CU_ASSERT_EQUAL(SF(&f.streams[1], "vlan.id").value, 10);
	wr_stream_file_free(&f);

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "latency.yaml", &f, &e), 0);
	CU_ASSERT_TRUE(f.streams[0].latency);
	CU_ASSERT_EQUAL(f.streams[0].size.fixed, 128);
	CU_ASSERT_EQUAL(f.streams[0].count, 1000000);
	wr_stream_file_free(&f);
}

/* ---- buffers: defaults, modes, boundaries ---- */

static void
test_minimal_defaults(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_buf("version: 1\nstreams:\n  - name: x\n",
				       &f, &e), 0);
	CU_ASSERT_STRING_EQUAL(f.path, "buf.yaml");
	CU_ASSERT_EQUAL(f.n_streams, 1);
	CU_ASSERT_EQUAL(f.streams[0].size.fixed, 64);
	CU_ASSERT_EQUAL(f.streams[0].size.mode, WR_SIZE_FIXED);
	CU_ASSERT_EQUAL(f.streams[0].rate.unit, WR_RATE_MAX);
	CU_ASSERT_EQUAL(f.streams[0].count, 0);
	CU_ASSERT_EQUAL(f.streams[0].seed, 1);
	assert_default_headers(&f.streams[0]);
	wr_stream_file_free(&f);
}

static void
test_seeds_and_scalars(void)
{
	static const char text[] =
		"version: 1\n"
		"seed: 7\n"
		"streams:\n"
		"  - name: own\n"
		"    seed: 0x10\n"
		"    count: 12345678901234\n"
		"    port: 31\n"
		"    vary: product\n"
		"    latency: false\n"
		"    ipv4: {ecn: 3, df: false, id: 65535, dscp: 63}\n"
		"  - name: inherit.2_x-y\n"
		"    count: unlimited\n"
		"    rate: \"12.5 %\"\n";
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_buf(text, &f, &e), 0);
	CU_ASSERT_EQUAL(f.seed, 7);
	CU_ASSERT_EQUAL(f.streams[0].seed, 16);
	CU_ASSERT_TRUE(f.streams[0].seed_set);
	CU_ASSERT_EQUAL(f.streams[0].count, 12345678901234ull);
	CU_ASSERT_EQUAL(f.streams[0].port, 31);
	CU_ASSERT_EQUAL(f.streams[0].combine, WR_COMBINE_PRODUCT);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.ecn").value, 3);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.df").value, 0);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.id").value, 65535);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.dscp").value, 63);
	CU_ASSERT_EQUAL(f.streams[1].seed, 7);
	CU_ASSERT_FALSE(f.streams[1].seed_set);
	CU_ASSERT_EQUAL(f.streams[1].count, 0);
	CU_ASSERT_EQUAL(f.streams[1].rate.unit, WR_RATE_PERCENT);
	CU_ASSERT_EQUAL(f.streams[1].rate.value, 125000);
	CU_ASSERT_EQUAL(f.streams[1].mark.line, 11);
	CU_ASSERT_EQUAL(f.streams[1].mark.col, 5);
	wr_stream_file_set_seed(&f, 99);
	CU_ASSERT_EQUAL(f.streams[0].seed, 99);
	wr_stream_file_free(&f);
}

static void
test_names(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	char text[256], name[80];

	memset(name, 'n', 63);
	name[63] = '\0';
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: %s\n",
		 name);
	CU_ASSERT_EQUAL(load_buf(text, &f, &e), 0);
	CU_ASSERT_STRING_EQUAL(f.streams[0].name, name);
	wr_stream_file_free(&f);
	strcat(name, "n"); /* 64 characters do not fit WR_STREAM_NAME_MAX */
	snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: %s\n",
		 name);
	CU_ASSERT_EQUAL(load_buf(text, &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "streams[0].name");
	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n  - name: \"\"\n", &f,
				 &e), -EINVAL);
	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n  - name: a/b\n", &f,
				 &e), -EINVAL);
	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n  - name: [a]\n", &f,
				 &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "streams[0].name");
}

static void
test_vary_modes(void)
{
	static const char text[] =
		"version: 1\n"
		"streams:\n"
		"  - name: v\n"
		"    eth:\n"
		"      src: {inc: {from: 02:00:00:00:00:10, to: 02:00:00:00:01:00, step: 16}}\n"
		"      dst: {dec: {from: ff:ff:ff:ff:ff:ff, to: ff:ff:ff:ff:ff:00}}\n"
		"    ipv4:\n"
		"      src: {list: [10.0.0.3, 10.0.0.1, 10.0.0.2]}\n"
		"      dst: {random: {min: 10.1.0.0, max: 10.1.255.255}}\n"
		"      ttl: {dec: {from: 255, to: 1, step: 2}}\n"
		"      dscp: {list: [0, 46, 63]}\n"
		"      id: {inc: {from: 0, to: 65535}}\n"
		"    udp:\n"
		"      src: {random: {min: 7, max: 7}}\n"
		"      dst: {inc: {from: 1, to: 1}}\n";
	struct wr_stream_file f;
	struct wr_error e;
	int rc;

	rc = load_buf(text, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").mode, WR_VARY_INC);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").from, 0x020000000010ull);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").to, 0x020000000100ull);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").step, 16);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").value, 0x020000000010ull);
	CU_ASSERT_EQUAL(wr_field_period(wr_stream_field(&f.streams[0], "eth.src")), 16);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.dst").mode, WR_VARY_DEC);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.dst").from, 0xffffffffffffull);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.dst").to, 0xffffffffff00ull);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.dst").step, 1);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.dst").value, 0xffffffffffffull);
	CU_ASSERT_EQUAL(wr_field_period(wr_stream_field(&f.streams[0], "eth.dst")), 256);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.src").mode, WR_VARY_LIST);
	CU_ASSERT_EQUAL_FATAL(SF(&f.streams[0], "ipv4.src").list_len, 3);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.src").list[0], 0x0a000003u);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.src").list[1], 0x0a000001u);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.src").list[2], 0x0a000002u);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.src").value, 0x0a000003u);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.dst").mode, WR_VARY_RANDOM);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.dst").from, 0x0a010000u);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.dst").to, 0x0a01ffffu);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.dst").value, 0x0a010000u);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.ttl").mode, WR_VARY_DEC);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.ttl").step, 2);
	CU_ASSERT_EQUAL(wr_field_period(wr_stream_field(&f.streams[0], "ipv4.ttl")), 128);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.dscp").list[1], 46);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "ipv4.id").to, 65535);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.src").mode, WR_VARY_RANDOM);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.src").from, 7);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.dst").mode, WR_VARY_INC);
	CU_ASSERT_EQUAL(wr_field_period(wr_stream_field(&f.streams[0], "udp.dst")), 1);
	wr_stream_file_free(&f);
}

static void
test_field_widths(void)
{
	/* Each field's range comes from its width in its protocol module. */
	static const struct {
		const char *ok, *bad, *path;
	} cases[] = {
		{ "vlan: {id: 4095, pcp: 7}", "vlan: {id: 0, pcp: 8}",
		  "streams[0].vlan.pcp" },
		{ "ipv4: {dscp: 63}", "ipv4: {dscp: 64}", "streams[0].ipv4.dscp" },
		{ "ipv4: {ttl: 255}", "ipv4: {ttl: 256}", "streams[0].ipv4.ttl" },
		{ "ipv4: {id: 0xffff}", "ipv4: {id: 0x10000}", "streams[0].ipv4.id" },
		{ "udp: {dst: 65535}", "udp: {dst: 65536}", "streams[0].udp.dst" },
		{ "ipv4: {ecn: 3}", "ipv4: {ecn: 4}", "streams[0].ipv4.ecn" },
		{ "udp: {src: {inc: {from: 1, to: 9, step: 65535}}}",
		  "udp: {src: {inc: {from: 1, to: 9, step: 0}}}",
		  "streams[0].udp.src.inc.step" },
	};
	struct wr_stream_file f;
	struct wr_error e;
	char text[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: w\n"
			 "    %s\n", cases[i].ok);
		CU_ASSERT_EQUAL(load_buf(text, &f, &e), 0);
		wr_stream_file_free(&f);
		snprintf(text, sizeof(text), "version: 1\nstreams:\n  - name: w\n"
			 "    %s\n", cases[i].bad);
		CU_ASSERT_EQUAL(load_buf(text, &f, &e), -EINVAL);
		CU_ASSERT_EQUAL(e.line, 4);
		CU_ASSERT_STRING_EQUAL(e.path, cases[i].path);
	}
}

static void
test_size_modes(void)
{
	static const char text[] =
		"version: 1\n"
		"streams:\n"
		"  - name: inc\n"
		"    size: {inc: {from: 64, to: 1518, step: 100}}\n"
		"  - name: inc1\n"
		"    size: {inc: {from: 64, to: 9018}}\n"
		"  - name: rnd\n"
		"    size: {random: {min: 128, max: 256}}\n"
		"  - name: mix\n"
		"    size: {mix: [{size: 1518, weight: 1}, {size: 9018, weight: 999999}]}\n";
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_size_spec *sz;

	CU_ASSERT_EQUAL_FATAL(load_buf(text, &f, &e), 0);
	sz = &f.streams[0].size;
	CU_ASSERT_EQUAL(sz->mode, WR_SIZE_INC);
	CU_ASSERT_EQUAL(sz->from, 64);
	CU_ASSERT_EQUAL(sz->to, 1518);
	CU_ASSERT_EQUAL(sz->step, 100);
	CU_ASSERT_EQUAL(sz->min, 64);
	CU_ASSERT_EQUAL(sz->max, 1464); /* 64 + 14 * 100: the last step <= 1518 */
	sz = &f.streams[1].size;
	CU_ASSERT_EQUAL(sz->step, 1);
	CU_ASSERT_EQUAL(sz->max, 9018);
	sz = &f.streams[2].size;
	CU_ASSERT_EQUAL(sz->mode, WR_SIZE_RANDOM);
	CU_ASSERT_EQUAL(sz->from, 128);
	CU_ASSERT_EQUAL(sz->to, 256);
	CU_ASSERT_EQUAL(sz->min, 128);
	CU_ASSERT_EQUAL(sz->max, 256);
	sz = &f.streams[3].size;
	CU_ASSERT_EQUAL(sz->mode, WR_SIZE_MIX);
	CU_ASSERT_EQUAL(sz->n_mix, 2);
	CU_ASSERT_EQUAL(sz->min, 1518);
	CU_ASSERT_EQUAL(sz->max, 9018);
	CU_ASSERT_EQUAL(sz->mix[1].weight, 999999);
	wr_stream_file_free(&f);
}

/* Headers + signature + string must fit the smallest frame, exactly. */
static void
test_size_fit_boundaries(void)
{
	static const struct {
		const char *extra; /* more keys of the stream */
		unsigned int need;
	} cases[] = {
		{ "", 64 }, /* 14 + 20 + 8 + 4 = 46: every legal size fits */
		/* 14 + 20 + 8 + 18 (the compact signature) + 4 = 64. */
		{ "latency: true", 64 },
		{ "vlan: {id: 1}", 64 },
		{ "vlan: {id: 1}\n    latency: true", 68 },
		{ "payload: {string: \"eighteen bytes!!!!\"}", 64 },
		{ "payload: {string: \"nineteen bytes!!!!!\"}", 65 },
		{ "latency: true\n    vlan: {id: 1}\n"
		  "    payload: {string: \"0123456789\"}", 78 },
	};
	struct wr_stream_file f;
	struct wr_error e;
	char text[512], msg[64];
	unsigned int size;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size = cases[i].need - 1; size <= cases[i].need; size++) {
			snprintf(text, sizeof(text), "version: 1\nstreams:\n"
				 "  - name: s\n    size: %u\n    %s\n", size,
				 cases[i].extra);
			rc = load_buf(text, &f, &e);
			if (size < cases[i].need) {
				CU_ASSERT_EQUAL(rc, -EINVAL);
				CU_ASSERT_STRING_EQUAL(e.path, "streams[0].size");
				CU_ASSERT_EQUAL(e.line, 4);
				snprintf(msg, sizeof(msg), "need at least %u",
					 cases[i].need);
				/* 63 is refused as a size before any fit. */
				if (size >= 64)
					CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, msg));
			} else {
				if (rc != 0)
					wr_test_print_error(&e);
				CU_ASSERT_EQUAL(rc, 0);
			}
			wr_stream_file_free(&f);
		}
	}
}

static void
test_payloads(void)
{
	static const char text[] =
		"version: 1\n"
		"streams:\n"
		"  - name: p1\n"
		"    payload: {pattern: \"0x00 11 22\"}\n"
		"  - name: p2\n"
		"    payload: {string: \"a\\0b\"}\n"
		"  - name: p3\n"
		"    payload: zeros\n";
	static const uint8_t pat[] = { 0x00, 0x11, 0x22 };
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_buf(text, &f, &e), 0);
	CU_ASSERT_EQUAL(f.streams[0].payload.kind, WR_PAYLOAD_PATTERN);
	CU_ASSERT_EQUAL_FATAL(f.streams[0].payload.len, 3);
	CU_ASSERT_EQUAL(memcmp(f.streams[0].payload.bytes, pat, 3), 0);
	/* A "\0" escape is a byte of the string, not its end. */
	CU_ASSERT_EQUAL(f.streams[1].payload.kind, WR_PAYLOAD_STRING);
	CU_ASSERT_EQUAL_FATAL(f.streams[1].payload.len, 3);
	CU_ASSERT_EQUAL(memcmp(f.streams[1].payload.bytes, "a\0b", 3), 0);
	CU_ASSERT_EQUAL(f.streams[2].payload.kind, WR_PAYLOAD_ZEROS);
	wr_stream_file_free(&f);
}

static void
test_string_longer_than_any_frame(void)
{
	/* 8972 bytes fit a 9018-byte frame; 8973 fit none. */
	static const char head[] = "version: 1\nstreams:\n  - name: big\n"
				   "    size: 9018\n    payload: {string: \"";
	struct wr_stream_file f;
	struct wr_error e;
	size_t n, hl = strlen(head);
	char *text = malloc(hl + 9000 + 8);

	if (text == NULL) {
		CU_FAIL("out of memory");
		return;
	}
	for (n = 8972; n <= 8973; n++) {
		memcpy(text, head, hl);
		memset(text + hl, 'x', n);
		strcpy(text + hl + n, "\"}\n");
		if (n == 8972) {
			CU_ASSERT_EQUAL(load_buf(text, &f, &e), 0);
			CU_ASSERT_EQUAL(f.streams[0].payload.len, 8972);
		} else {
			CU_ASSERT_EQUAL(load_buf(text, &f, &e), -EINVAL);
			CU_ASSERT_STRING_EQUAL(e.path, "streams[0].payload.string");
			CU_ASSERT_EQUAL(e.line, 5);
			CU_ASSERT_EQUAL(e.col, 23);
			CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "at most 8972 bytes"));
			CU_ASSERT_EQUAL(memcmp(&f, &zero_file, sizeof(f)), 0);
		}
		wr_stream_file_free(&f);
	}
	free(text);
}

static void
test_list_limits(void)
{
	static const char head[] = "version: 1\nstreams:\n  - name: l\n"
				   "    udp: {src: {list: [";
	struct wr_stream_file f;
	struct wr_error e;
	size_t n, i, k, hl = strlen(head);
	char *text = malloc(hl + 65537 * 2 + 16);

	if (text == NULL) {
		CU_FAIL("out of memory");
		return;
	}
	for (n = 65536; n <= 65537; n++) {
		memcpy(text, head, hl);
		k = hl;
		for (i = 0; i < n; i++) {
			text[k++] = (char)('0' + i % 10);
			text[k++] = ',';
		}
		strcpy(text + k - 1, "]}}\n");
		if (n == 65536) {
			CU_ASSERT_EQUAL(load_buf(text, &f, &e), 0);
			CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.src").list_len,
					65536);
			CU_ASSERT_EQUAL(SF(&f.streams[0], "udp.src").list[65535],
					5);
		} else {
			CU_ASSERT_EQUAL(load_buf(text, &f, &e), -EINVAL);
			CU_ASSERT_STRING_EQUAL(e.path, "streams[0].udp.src.list");
			CU_ASSERT_EQUAL(e.line, 4);
			CU_ASSERT_EQUAL(e.col, 23);
		}
		wr_stream_file_free(&f);
	}
	free(text);
}

static void
test_too_many_streams(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	const size_t cap = 32 + 257 * 32;
	char *text = malloc(cap);
	size_t k;
	unsigned int i;

	if (text == NULL) {
		CU_FAIL("out of memory");
		return;
	}
	k = (size_t)snprintf(text, cap, "version: 1\nstreams:\n");
	for (i = 0; i < WR_STREAMS_MAX; i++)
		k += (size_t)snprintf(text + k, cap - k, "  - name: s%u\n", i);
	CU_ASSERT_EQUAL(load_buf(text, &f, &e), 0);
	CU_ASSERT_EQUAL(f.n_streams, WR_STREAMS_MAX);
	CU_ASSERT_EQUAL(wr_stream_file_find(&f, "s255"), 255);
	wr_stream_file_free(&f);
	snprintf(text + k, cap - k, "  - name: s%u\n", i);
	CU_ASSERT_EQUAL(load_buf(text, &f, &e), -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "streams");
	CU_ASSERT_EQUAL(e.line, 3);
	free(text);
}

static void
test_nesting_and_nul(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	char text[256];
	int i, k;

	k = sprintf(text, "version: 1\nstreams: ");
	for (i = 0; i < 40; i++)
		text[k++] = '[';
	text[k] = '\0';
	strcat(text, "\n");
	CU_ASSERT_EQUAL(load_buf(text, &f, &e), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "nested deeper"));
	CU_ASSERT_EQUAL(e.line, 2);

	/* A NUL escape does not cut an address short. */
	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n  - name: n\n"
				 "    ipv4: {src: \"10.0.0.1\\0junk\"}\n", &f, &e),
			-EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "streams[0].ipv4.src");
	CU_ASSERT_EQUAL(memcmp(&f, &zero_file, sizeof(f)), 0);
}

static void
test_unreadable(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	memset(&f, 0x5a, sizeof(f));
	CU_ASSERT_EQUAL(wr_yaml_load_streams(WR_FIXTURES "/no-such-file.yaml",
					     &f, &e), -ENOENT);
	CU_ASSERT_STRING_EQUAL(e.file, WR_FIXTURES "/no-such-file.yaml");
	CU_ASSERT_EQUAL(e.line, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cannot open"));
	CU_ASSERT_EQUAL(memcmp(&f, &zero_file, sizeof(f)), 0);
	/* A directory is -EIO as wr_yaml.h says; the message says why. */
	CU_ASSERT_EQUAL(wr_yaml_load_streams(WR_FIXTURES, &f, &e), -EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "directory"));
	CU_ASSERT_EQUAL(memcmp(&f, &zero_file, sizeof(f)), 0);
}

static void
test_error_format(void)
{
	struct wr_stream_file f;
	struct wr_error e;
	char buf[512];

	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n  - name: a\n"
				 "  - name: b\n    rate: 0\n", &f, &e), -EINVAL);
	wr_error_format(&e, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "buf.yaml:5:11: streams[1].rate: expected "
			       "a rate such as \"max\", \"250 kpps\", \"1.2 "
			       "Mpps\", \"10 Gbps L1\" or \"50%\", got \"0\"");
}

/* ---- one fixture per failure mode ---- */

static const struct wr_bad_case bad_cases[] = {
	{ "bad-fe-init-range.yaml", 7, 58, "streams[0].vars[0].inc.init",
	  "init must lie in [min, max]" },
	{ "bad-fe-latency.yaml", 6, 14, "streams[0].latency",
	  "latency does not apply to a field-engine frame: stream" },
	{ "bad-fe-next-var.yaml", 7, 61, "streams[0].vars[0].next_var",
	  "c must be the variable right after a in vars:" },
	{ "bad-fe-trim-range.yaml", 8, 11, "streams[0].trim",
	  "len takes values 40..100: a frame is cut to 14..54 bytes" },
	{ "bad-fe-unknown-var.yaml", 9, 27, "streams[0].fields[0].var",
	  "no variable b in vars:" },
	{ "bad-fe-var-size.yaml", 7, 25, "streams[0].vars[0].size",
	  "expected 1, 2, 4 or 8 (bytes), got \"3\"" },
	{ "bad-fe-without-frame.yaml", 7, 7, "streams[0].vars",
	  "vars belongs to a frame: stream" },
	{ "bad-fe-write-past.yaml", 9, 18, "streams[0].fields[0].offset",
	  "expected an integer in 0..50, got \"52\"" },
	{ "bad-alias.yaml", 4, 10, "", "aliases (*defaults) are not supported" },
	{ "bad-anchor.yaml", 4, 10, "", "anchors (&defaults) are not supported" },
	{ "bad-arp-varying-dst.yaml", 4, 16, "streams[0].eth.dst",
	  "dst: arp resolves one next hop, and the IPv4 destination varies" },
	{ "bad-burst-range.yaml", 4, 12, "streams[0].burst",
	  "expected an integer in 1..512, got \"513\"" },
	{ "bad-bursts-no-gap.yaml", 4, 13, "streams[0].bursts",
	  "missing required key \"gap\"" },
	{ "bad-bool.yaml", 4, 14, "streams[0].latency",
	  "expected true, false or loss, got \"yes\"" },
	{ "bad-comments-only.yaml", 1, 1, "", "the file is empty" },
	{ "bad-count.yaml", 4, 12, "streams[0].count", "got \"-1\"" },
	{ "bad-dec-order.yaml", 5, 32, "streams[0].ipv4.ttl.dec.to",
	  "expected a value <= from (1) for dec, got \"64\"" },
	{ "bad-duration-zero.yaml", 4, 15, "streams[0].duration",
	  "expected a duration above 0 (5s, 500ms, 10us), got \"0s\"" },
	{ "bad-dup-name.yaml", 6, 11, "streams[2].name",
	  "duplicate stream name \"same\" (first at line 3)" },
	{ "bad-duplicate-key.yaml", 7, 7, "streams[0].udp.src",
	  "duplicate key \"src\" (first at line 5)" },
	{ "bad-ecn-vary.yaml", 5, 12, "streams[0].ipv4.ecn",
	  "expected an integer in 0..3 (ecn is fixed per stream), got a mapping" },
	{ "bad-empty.yaml", 1, 1, "", "the file is empty" },
	{ "bad-gateway-multicast.yaml", 5, 21, "streams[0].ipv4.gateway",
	  "expected a unicast IPv4 address" },
	{ "bad-gateway-without-arp.yaml", 4, 21, "streams[0].ipv4.gateway",
	  "a gateway is the next hop eth: {dst: arp} or {dst: nd} resolves" },
	{ "bad-inc-order.yaml", 5, 35, "streams[0].udp.src.inc.to",
	  "expected a value >= from (2000) for inc, got \"1000\"" },
	{ "bad-ipv4.yaml", 6, 39, "streams[1].ipv4.dst.inc.to",
	  "expected an IPv4 address such as 198.18.0.1, got \"10.0.0.300\"" },
	{ "bad-key-type.yaml", 4, 7, "streams[0]",
	  "expected a key name, got a sequence" },
	{ "bad-list-empty.yaml", 5, 19, "streams[0].ipv4.src.list",
	  "expected a list of 1 to 65536 values, got 0" },
	{ "bad-loops-no-next.yaml", 2, 8, "loops",
	  "no stream says next:" },
	{ "bad-mac.yaml", 5, 12, "streams[0].eth.src",
	  "expected a MAC address such as 02:00:00:00:00:01, got "
	  "\"02:00:00:00:00\"" },
	{ "bad-missing-name.yaml", 3, 5, "streams[0]",
	  "missing required key \"name\"" },
	{ "bad-mix-weight-sum.yaml", 8, 31, "streams[0].size.mix[2].weight",
	  "sum to at most 1000000" },
	{ "bad-mix-weight-zero.yaml", 7, 31, "streams[0].size.mix[1].weight",
	  "expected an integer in 1..1000000, got \"0\"" },
	{ "bad-name-chars.yaml", 3, 11, "streams[0].name", "got \"my stream\"" },
	{ "bad-next.yaml", 5, 11, "streams[0].next",
	  "expected next, first or stop, got \"goto-first\"" },
	{ "bad-no-streams.yaml", 1, 1, "", "missing required key \"streams\"" },
	{ "bad-no-version.yaml", 1, 1, "", "missing required key \"version\"" },
	{ "bad-pattern.yaml", 4, 24, "streams[0].payload.pattern",
	  "expected two hex digits per byte, got \"deadbee\"" },
	{ "bad-payload-kind.yaml", 4, 14, "streams[0].payload", "got \"ones\"" },
	{ "bad-payload-string-too-long.yaml", 5, 11, "streams[0].size",
	  "64 bytes cannot hold eth 14 + ipv4 20 + udp 8 + string payload "
	  "30 + FCS 4: need at least 76" },
	{ "bad-ramp-and-rate.yaml", 5, 11, "streams[0].ramp",
	  "give either rate or ramp, not both" },
	{ "bad-ramp-bursts.yaml", 5, 11, "streams[0].ramp",
	  "a ramp cannot be combined with bursts" },
	{ "bad-ramp-max.yaml", 4, 32, "streams[0].ramp.to",
	  "a ramp needs numbers, not max), got \"max\"" },
	{ "bad-ramp-shape.yaml", 4, 19, "streams[0].ramp.shape",
	  "expected staircase or linear, got \"sawtooth\"" },
	{ "bad-random-order.yaml", 4, 37, "streams[0].size.random.max",
	  "expected a size >= min (1518), got \"64\"" },
	{ "bad-range-port.yaml", 4, 11, "streams[0].port",
	  "expected an integer in 0..31, got \"32\"" },
	{ "bad-range-ttl.yaml", 4, 17, "streams[0].ipv4.ttl",
	  "expected an integer in 0..255, got \"256\"" },
	{ "bad-range-vlan-id.yaml", 5, 28, "streams[0].vlan.id.list[2]",
	  "expected an integer in 0..4095, got \"4096\"" },
	{ "bad-rate-zero.yaml", 4, 11, "streams[0].rate",
	  "expected a positive rate" },
	{ "bad-rate.yaml", 4, 11, "streams[0].rate",
	  "expected L1 or L2 after a bit rate" },
	{ "bad-root-type.yaml", 1, 1, "", "got a sequence" },
	{ "bad-seed.yaml", 2, 7, "seed",
	  "expected an unsigned 64-bit integer, got \"lucky\"" },
	{ "bad-sequence-unending.yaml", 6, 5, "streams[1]",
	  "port 0 runs its streams one after another (streams[0] says next:), "
	  "so this stream must end" },
	{ "bad-size-mix-latency.yaml", 6, 11, "streams[0].size",
	  "the smallest frame, 64 bytes, cannot hold" },
	{ "bad-size-small.yaml", 4, 11, "streams[0].size",
	  "expected a frame size in 64..9018" },
	{ "bad-size-vlan-latency.yaml", 5, 11, "streams[0].size",
	  "64 bytes cannot hold eth 14 + vlan 4 + ipv4 20 + udp 8 + "
	  "latency signature 18 + FCS 4: need at least 68" },
	{ "bad-stack-and-shorthand.yaml", 4, 11, "streams[0].ipv4",
	  "a stream with stack: gives every layer there" },
	{ "bad-stack-field.yaml", 6, 16, "streams[0].stack[1].ipv6.ttl",
	  "unknown key \"ttl\"; expected one of: src, dst, tc, flow, hop, next" },
	{ "bad-stack-gateway.yaml", 4, 14, "streams[0].gateway",
	  "expected the router's unicast IPv6 address, such as fe80::1 or "
	  "2001:db8::1, got \"ff02::1\"" },
	{ "bad-stack-nd-varying.yaml", 5, 9, "streams[0].stack[0].eth.dst",
	  "dst: nd resolves one next hop, and the IPv6 destination varies: give a gateway" },
	{ "bad-stack-ext-on-ipv4.yaml", 4, 24, "streams[0].stack[2].ipv6_dst",
	  "an extension header goes on an IPv6 layer or another extension header" },
	{ "bad-stack-ext-order.yaml", 8, 9, "streams[0].stack[3].ipv6_hbh",
	  "ipv6_hbh out of the order RFC 8200 section 4.1 gives" },
	{ "bad-stack-srh-empty.yaml", 4, 24, "streams[0].stack[2].srh",
	  "a segment routing header needs segments" },
	{ "bad-stack-gre-c-varies.yaml", 4, 24, "streams[0].stack[2].gre",
	  "c decides the header's length: it cannot vary" },
	{ "bad-stack-ipv4-options.yaml", 6, 9, "streams[0].stack[1].ipv4",
	  "options of more than 40 bytes (RFC 791: IHL is 15 words at most)" },
	{ "bad-stack-not-eth.yaml", 3, 5, "streams[0].stack",
	  "expected eth as the first layer, got ipv4" },
	{ "bad-stack-prefix.yaml", 6, 39, "streams[0].stack[1].ipv6.src.random.prefix",
	  "expected an IPv6 prefix such as 2001:db8::/64, got \"2001:db8::/129\"" },
	{ "bad-stack-raw-type.yaml", 4, 13, "streams[0].stack[0].eth.type",
	  "the layer above (raw) has no EtherType: give type" },
	{ "bad-stack-tcp-over-eth.yaml", 6, 9, "streams[0].stack[1].tcp",
	  "eth cannot carry tcp: expected a layer with an EtherType" },
	{ "bad-stack-too-small.yaml", 4, 11, "streams[0].size",
	  "64 bytes cannot hold eth 14 + vlan 4 + vlan 4 + ipv6 40 + tcp 20 + "
	  "FCS 4: need at least 86" },
	{ "bad-stack-unknown-layer.yaml", 6, 9, "streams[0].stack[1].ipx",
	  "expected a layer, one of: eth, " },
	{ "bad-stack-vxlan-no-inner.yaml", 5, 29, "streams[0].stack[3].vxlan",
	  "vxlan needs an inner frame: expected an eth layer after it" },
	{ "bad-stack-wide-value.yaml", 7, 20, "streams[0].stack[2].udp.src",
	  "expected an integer in 0..65535, got \"2001:db8::1\"" },
	{ "bad-streams-empty.yaml", 2, 10, "streams",
	  "expected at least one stream" },
	{ "bad-streams-type.yaml", 3, 3, "streams",
	  "expected a list of streams, got a mapping" },
	/* libyaml finds the unclosed '[' of line 4 when line 5 starts. */
	{ "bad-syntax.yaml", 5, 9, "",
	  "invalid YAML: did not find expected ',' or ']'" },
	{ "bad-tab.yaml", 4, 10, "", "got a tab character" },
	{ "bad-tag.yaml", 4, 11, "", "tags (tag:yaml.org,2002:int) are not "
	  "supported" },
	{ "bad-two-docs.yaml", 4, 1, "", "expected one YAML document" },
	{ "bad-type.yaml", 4, 11, "streams[0].port",
	  "expected an integer in 0..31, got a sequence" },
	{ "bad-unknown-key.yaml", 7, 7, "streams[0].ipv4.tos",
	  "unknown key \"tos\"; expected one of: src, dst, ttl, dscp, ecn, id, df" },
	{ "bad-unknown-top-key.yaml", 2, 1, "stream",
	  "unknown key \"stream\"; expected one of: version, seed, loops, rx_classes, hosts, tcp, streams" },
	{ "bad-vary-mode.yaml", 5, 13, "streams[0].udp.dst.cycle",
	  "unknown key \"cycle\"; expected one of: inc, dec, random, list" },
	{ "bad-vary-two-modes.yaml", 5, 36, "streams[0].udp.dst.random",
	  "expected one key, got both \"inc\" and \"random\"" },
	{ "bad-vary.yaml", 4, 11, "streams[0].vary",
	  "expected together or product, got \"cartesian\"" },
	{ "bad-version.yaml", 1, 10, "version",
	  "expected version 1 (the only version this wirerate reads), got \"2\"" },
	{ "bad-vlan-no-id.yaml", 4, 11, "streams[0].vlan",
	  "missing required key \"id\"" },
};

static void
test_bad_fixtures(void)
{
	const struct wr_bad_case *c;
	struct wr_stream_file f;
	struct wr_error e;
	char path[512];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		c = &bad_cases[i];
		snprintf(path, sizeof(path), "%s/%s", WR_FIXTURES, c->file);
		memset(&f, 0x5a, sizeof(f));
		rc = wr_yaml_load_streams(path, &f, &e);
		wr_test_check_error(c, path, rc, &e);
		/* Nothing half-filled: the output is all zero. */
		CU_ASSERT_EQUAL(memcmp(&f, &zero_file, sizeof(f)), 0);
	}
}

/* Every stream-file fixture is in the table above, so none is forgotten. */
static void
test_every_fixture_listed(void)
{
	wr_test_every_fixture_listed(WR_FIXTURES, "bad-", "bad-config-", bad_cases,
				     sizeof(bad_cases) / sizeof(bad_cases[0]));
}

/* duration, burst, bursts, next, loops and ramp; the port rule. */
static void
test_schedules(void)
{
	static const char text[] =
		"version: 1\n"
		"loops: 3\n"
		"streams:\n"
		"  - {name: a, count: 10, duration: 2.5s, burst: 1, next: next}\n"
		"  - {name: b, duration: 500ms, bursts: {frames: 32, gap: 10us},"
		" next: first}\n"
		"  - {name: c, port: 1, ramp: {from: 10%, to: 50%, step: 10%,"
		" step_time: 1s}}\n"
		"  - {name: d, port: 2, ramp: {shape: linear, from: 1 Mpps,"
		" to: 100 kpps, step: 100 kpps, step_time: 100ms, at_end: stop},"
		" next: stop}\n";
	struct wr_stream_file f;
	struct wr_error e;
	const struct wr_stream *s;
	int rc;

	rc = load_buf(text, &f, &e);
	if (rc != 0)
		wr_test_print_error(&e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(f.loops, 3);
	s = &f.streams[0];
	CU_ASSERT_EQUAL(s->count, 10);
	CU_ASSERT_EQUAL(s->duration_ns, 2500000000ull);
	CU_ASSERT_EQUAL(s->burst, 1);
	CU_ASSERT(s->has_next && s->next == WR_SCHED_NEXT_NEXT);
	CU_ASSERT_EQUAL(s->train_frames, 0);
	CU_ASSERT_FALSE(s->has_ramp);
	s = &f.streams[1];
	CU_ASSERT_EQUAL(s->duration_ns, 500000000ull);
	CU_ASSERT_EQUAL(s->burst, 0);
	CU_ASSERT_EQUAL(s->train_frames, 32);
	CU_ASSERT_EQUAL(s->train_gap_ns, 10000);
	CU_ASSERT(s->has_next && s->next == WR_SCHED_NEXT_FIRST);
	s = &f.streams[2];
	CU_ASSERT_FALSE(s->has_next);
	CU_ASSERT_TRUE(s->has_ramp);
	CU_ASSERT_EQUAL(s->ramp.shape, WR_RAMP_STAIRCASE);
	CU_ASSERT_EQUAL(s->ramp.at_end, WR_RAMP_END_HOLD);
	CU_ASSERT_EQUAL(s->ramp.from.unit, WR_RATE_PERCENT);
	CU_ASSERT_EQUAL(s->ramp.from.value, 100000);
	CU_ASSERT_EQUAL(s->ramp.to.value, 500000);
	CU_ASSERT_EQUAL(s->ramp.step.value, 100000);
	CU_ASSERT_EQUAL(s->ramp.step_ns, 1000000000ull);
	s = &f.streams[3];
	CU_ASSERT_EQUAL(s->ramp.shape, WR_RAMP_LINEAR);
	CU_ASSERT_EQUAL(s->ramp.at_end, WR_RAMP_END_STOP);
	CU_ASSERT_EQUAL(s->ramp.from.unit, WR_RATE_PPS);
	CU_ASSERT_EQUAL(s->ramp.from.value, 1000000000ull);
	CU_ASSERT_EQUAL(s->ramp.to.value, 100000000ull);
	CU_ASSERT_EQUAL(s->ramp.step_ns, 100000000ull);
	/* A port is sequenced when one of its streams says next:. */
	CU_ASSERT_TRUE(wr_stream_file_port_sequenced(&f, 0));
	CU_ASSERT_FALSE(wr_stream_file_port_sequenced(&f, 1));
	CU_ASSERT_TRUE(wr_stream_file_port_sequenced(&f, 2));
	CU_ASSERT_FALSE(wr_stream_file_port_sequenced(&f, 3));
	wr_stream_file_free(&f);

	/* Without the keys: no limits, continuous, not sequenced, loops 0. */
	rc = load_buf("version: 1\nstreams: [{name: x}]\n", &f, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(f.loops, 0);
	CU_ASSERT_EQUAL(f.streams[0].duration_ns, 0);
	CU_ASSERT_EQUAL(f.streams[0].burst, 0);
	CU_ASSERT_EQUAL(f.streams[0].train_frames, 0);
	CU_ASSERT_FALSE(f.streams[0].has_next);
	CU_ASSERT_FALSE(f.streams[0].has_ramp);
	CU_ASSERT_FALSE(wr_stream_file_port_sequenced(&f, 0));
	wr_stream_file_free(&f);

	/* A sequenced stream may end by its ramp alone. */
	rc = load_buf("version: 1\nstreams:\n  - {name: x, next: stop, ramp: "
		      "{from: 1 kpps, to: 2 kpps, step: 1 kpps, step_time: 1s, "
		      "at_end: stop}}\n  - {name: y, count: 5}\n", &f, &e);
	CU_ASSERT_EQUAL(rc, 0);
	wr_stream_file_free(&f);
	/* ... but a hold ramp never ends. */
	rc = load_buf("version: 1\nstreams:\n  - {name: x, next: stop, ramp: "
		      "{from: 1 kpps, to: 2 kpps, step: 1 kpps, step_time: 1s}}\n",
		      &f, &e);
	CU_ASSERT_EQUAL(rc, -EINVAL);
	CU_ASSERT_STRING_EQUAL(e.path, "streams[0]");
}

/* The shipped schedule examples say what their comments say. */
static void
test_schedule_examples(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "sequence.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL(f.loops, 2);
	CU_ASSERT_EQUAL(f.n_streams, 2);
	CU_ASSERT_EQUAL(f.streams[0].next, WR_SCHED_NEXT_NEXT);
	CU_ASSERT_EQUAL(f.streams[1].next, WR_SCHED_NEXT_FIRST);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "ramp.yaml", &f, &e), 0);
	CU_ASSERT_TRUE(f.streams[0].has_ramp);
	CU_ASSERT_EQUAL(f.streams[0].ramp.at_end, WR_RAMP_END_STOP);
	wr_stream_file_free(&f);
	CU_ASSERT_EQUAL_FATAL(load_path(WR_STREAMS, "bursts.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL(f.streams[0].train_frames, 32);
	CU_ASSERT_EQUAL(f.streams[0].train_gap_ns, 100000);
	CU_ASSERT_EQUAL(f.streams[0].duration_ns, 2000000000ull);
	wr_stream_file_free(&f);
}

static void
test_latency_loss(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	memset(&f, 0, sizeof(f));
	CU_ASSERT_EQUAL_FATAL(load_buf("version: 1\nstreams:\n"
				       "  - {name: a, size: 64, latency: loss}\n"
				       "  - {name: b, size: 70, latency: true}\n"
				       "  - {name: c, latency: false}\n", &f, &e), 0);
	CU_ASSERT_TRUE(f.streams[0].latency);
	CU_ASSERT_TRUE(f.streams[0].sig_short);
	CU_ASSERT_TRUE(f.streams[1].latency);
	CU_ASSERT_FALSE(f.streams[1].sig_short);
	CU_ASSERT_FALSE(f.streams[2].latency);
	wr_stream_file_free(&f);
	/* A word that is neither. */
	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n"
				 "  - {name: a, latency: sometimes}\n", &f, &e),
			-EINVAL);
	CU_ASSERT_EQUAL(e.line, 3);
	CU_ASSERT_STRING_EQUAL(e.path, "streams[0].latency");
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "true, false or loss"));
	/* The loss-only signature still needs its 16 bytes. */
	CU_ASSERT_EQUAL(load_buf("version: 1\nstreams:\n"
				 "  - {name: a, size: 64, latency: loss,"
				 " vlan: {id: 1}, payload: {string: \"xy\"}}\n",
				 &f, &e), -EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "loss signature 16"));
}

static CU_TestInfo shipped_tests[] = {
	{ "schedule_examples", test_schedule_examples },
	{ "every_shipped_file_loads", test_every_shipped_file_loads },
	{ "udp64", test_udp64 },
	{ "two_streams", test_two_streams },
	{ "rfc2544", test_rfc2544 },
	{ "flows_vary", test_flows_vary },
	{ "imix_vlan_latency", test_imix_vlan_latency },
	CU_TEST_INFO_NULL,
};

/* A stack's gateway: with dst: nd, an IPv6 router, and the dst may vary. */
static void
test_stack_gateway(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_FIXTURES, "stack-gateway.yaml", &f, &e), 0);
	CU_ASSERT_TRUE(f.streams[0].dst_arp);
	CU_ASSERT_TRUE(f.streams[0].dst_nd);
	CU_ASSERT_TRUE(f.streams[0].gateway6 == (((__uint128_t)0xfe80000000000000ull << 64) | 1));
	CU_ASSERT_EQUAL(f.streams[0].n_layers, 3);
	CU_ASSERT_EQUAL(f.streams[0].size.fixed, 66); /* the smallest that holds it */
	wr_stream_file_free(&f);
}

/* Without size:, the shorthand's stack too gets the smallest frame that
 * holds it, and never less than 64 bytes. */
static void
test_size_default_fits(void)
{
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_path(WR_FIXTURES, "size-default-fits.yaml", &f, &e), 0);
	CU_ASSERT_EQUAL(f.streams[0].n_layers, 4);
	CU_ASSERT_EQUAL(f.streams[0].size.fixed, 74);
	CU_ASSERT_EQUAL(f.streams[1].size.fixed, 64);
	wr_stream_file_free(&f);
}

/* eth src/dst: port, in a stack and in the shorthand (the first layer's
 * LINK_SRC/LINK_DST roles), until the run writes the port's MACs. */
static void
test_mac_port(void)
{
	static const char text[] =
		"version: 1\nstreams:\n"
		"  - name: a\n    stack: [eth: {src: port, dst: port}, ipv4, udp]\n"
		"  - name: b\n    eth: {dst: port}\n";
	static const char inner[] =
		"version: 1\nstreams:\n"
		"  - name: c\n    stack: [eth, ipv4, gre, eth: {src: port}, ipv4]\n";
	struct wr_stream_file f;
	struct wr_error e;

	CU_ASSERT_EQUAL_FATAL(load_buf(text, &f, &e), 0);
	CU_ASSERT_EQUAL(f.streams[0].mac_port, WR_MAC_PORT_SRC | WR_MAC_PORT_DST);
	CU_ASSERT_EQUAL(f.streams[1].mac_port, WR_MAC_PORT_DST);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").value, 0x020000000001ull);
	wr_stream_set_mac(&f.streams[0], false, 0x0a0b0c0d0e0full);
	wr_stream_set_mac(&f.streams[1], true, 0x0a0b0c0d0e10ull);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.src").value, 0x0a0b0c0d0e0full);
	CU_ASSERT_EQUAL(SF(&f.streams[0], "eth.dst").value, 0x020000000002ull);
	CU_ASSERT_EQUAL(SF(&f.streams[1], "eth.dst").value, 0x0a0b0c0d0e10ull);
	wr_stream_file_free(&f);
	/* Only the first layer's MACs are the port's. */
	CU_ASSERT_EQUAL(load_buf(inner, &f, &e), -EINVAL);
	CU_ASSERT_EQUAL(e.line, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "MAC"));
}

static CU_TestInfo model_tests[] = {
	{ "stack_gateway", test_stack_gateway },
	{ "mac_port", test_mac_port },
	{ "size_default_fits", test_size_default_fits },
	{ "minimal_defaults", test_minimal_defaults },
	{ "latency_loss", test_latency_loss },
	{ "seeds_and_scalars", test_seeds_and_scalars },
	{ "names", test_names },
	{ "vary_modes", test_vary_modes },
	{ "field_widths", test_field_widths },
	{ "size_modes", test_size_modes },
	{ "size_fit_boundaries", test_size_fit_boundaries },
	{ "payloads", test_payloads },
	{ "string_longer_than_any_frame", test_string_longer_than_any_frame },
	{ "list_limits", test_list_limits },
	{ "too_many_streams", test_too_many_streams },
	{ "schedules", test_schedules },
	CU_TEST_INFO_NULL,
};

static CU_TestInfo error_tests[] = {
	{ "bad_fixtures", test_bad_fixtures },
	{ "every_fixture_listed", test_every_fixture_listed },
	{ "nesting_and_nul", test_nesting_and_nul },
	{ "unreadable", test_unreadable },
	{ "error_format", test_error_format },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "yaml_shipped", .pTests = shipped_tests },
	{ .pName = "yaml_model", .pTests = model_tests },
	{ .pName = "yaml_errors", .pTests = error_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

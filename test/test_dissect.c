/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of wr_dissect: every shipped stream's frames decoded, each field where the builder's layout put it, with the value the file gave. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_describe.h"
#include "wr_dissect.h"
#include "wr_frame.h"
#include "wr_proto.h"
#include "wr_test.h"
#include "wr_yaml.h"

/* The decode's field @p name of layer @p y, or NULL. */
static const struct wr_dissect_field *
field_of(const struct wr_dissect *d, const struct wr_dissect_layer *y, const char *name)
{
	uint32_t i;

	for (i = y->field0; i < (uint32_t)y->field0 + y->n_fields; i++)
		if (strcmp(d->field[i].name, name) == 0)
			return &d->field[i];
	return NULL;
}

/*
 * Layer @p li of the decode against the builder's layout of the stream's
 * layer @p l at @p off: every registry field the layout places (but a
 * tag's TPID, which is the layer below's EtherType) at the bytes and bits
 * its span says, and a value the file fixed as the file wrote it.
 * @return the fields checked.
 */
static unsigned int
check_layer(const char *where, const struct wr_dissect *d, uint32_t li,
	    const struct wr_layer *l, uint16_t off)
{
	const struct wr_dissect_layer *y = &d->layer[li];
	const struct wr_proto *p = l->proto;
	struct wr_layout lo;
	unsigned int j, n = 0;

	CU_ASSERT_EQUAL_FATAL(wr_proto_layout(l, &lo), 0);
	CU_ASSERT_PTR_EQUAL(y->proto, p);
	CU_ASSERT_EQUAL(y->off, off);
	CU_ASSERT_EQUAL(y->len, lo.hlen);
	for (j = 0; j < p->n_fields; j++) {
		const struct wr_proto_field *pf = &p->fields[j];
		const struct wr_dissect_field *f = field_of(d, y, pf->name);
		unsigned int start = pf->span * 8u - pf->shift - pf->bits;
		char want[WR_DISSECT_VAL_MAX], key[64];

		if (lo.off[j] == WR_OFF_NONE || pf->role == WR_ROLE_MY_ETHERTYPE) {
			CU_ASSERT_PTR_NULL(f);
			continue;
		}
		if (f == NULL) {
			fprintf(stderr, "%s: layer %u: no field %s\n", where, li, pf->name);
			CU_FAIL("field missing");
			continue;
		}
		snprintf(key, sizeof(key), "%s.%s", p->name, pf->name);
		CU_ASSERT_STRING_EQUAL(f->key, key);
		CU_ASSERT_EQUAL(f->off, off + lo.off[j] + start / 8);
		CU_ASSERT_EQUAL(f->len, (start + pf->bits - 1) / 8 - start / 8 + 1);
		CU_ASSERT_EQUAL(f->bit, start % 8);
		CU_ASSERT_EQUAL(f->bits, pf->bits);
		if (l->set[j] && l->field[j].mode == WR_VARY_FIXED) {
			wr_describe_val(pf->role == WR_ROLE_NEXT_ETHERTYPE ? WR_VAL_HEX : pf->kind,
					l->field[j].value, want, sizeof(want));
			if (strcmp(f->value, want) != 0)
				fprintf(stderr, "%s: %s = %s, the file gave %s\n", where, key,
					f->value, want);
			CU_ASSERT_STRING_EQUAL(f->value, want);
		}
		n++;
	}
	return n;
}

/* Fields of layer @p y of @p a equal those of layer @p z of @p b. */
static void
same_fields(const struct wr_dissect *a, const struct wr_dissect_layer *y,
	    const struct wr_dissect *b, const struct wr_dissect_layer *z)
{
	uint32_t i;

	CU_ASSERT_EQUAL_FATAL(y->n_fields, z->n_fields);
	for (i = 0; i < y->n_fields; i++) {
		const struct wr_dissect_field *f = &a->field[y->field0 + i];
		const struct wr_dissect_field *g = &b->field[z->field0 + i];

		CU_ASSERT_STRING_EQUAL(f->key, g->key);
		CU_ASSERT_EQUAL(f->off, g->off);
		CU_ASSERT_EQUAL(f->len, g->len);
		CU_ASSERT_STRING_EQUAL(f->value, g->value);
	}
}

/*
 * Every stream of every shipped file (the registry's stacks: tags, MPLS,
 * IPv4 options, IPv6 extension headers, SRv6, GRE, VXLAN, Geneve, GTP-U,
 * SCTP, raw bytes, ARP, ICMP) with a signature: frame 0 and frame 5
 * decoded by the stream's layers, each field where the layout puts it;
 * the same bytes read as a received frame give the same layers, and where
 * a header has nothing optional, the same fields.
 */
static void
test_every_shipped_stack(void)
{
	struct wr_dissect *d = malloc(sizeof(*d)), *r = malloc(sizeof(*r));
	unsigned int n_streams = 0, n_fields = 0, n_same = 0;
	uint8_t *buf = malloc(WR_FRAME_MAX);
	DIR *dir = opendir(WR_STREAMS);
	struct dirent *de;

	CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	while ((de = readdir(dir)) != NULL) {
		struct wr_stream_file f;
		struct wr_error e;
		char path[512], where[600];
		uint32_t i, li;

		if (strstr(de->d_name, ".yaml") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", WR_STREAMS, de->d_name);
		CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams(path, &f, &e), 0);
		for (i = 0; i < f.n_streams; i++) {
			struct wr_stream *s = &f.streams[i];
			const struct wr_proto *proto[WR_LAYERS_MAX];
			uint16_t off[WR_LAYERS_MAX];
			struct wr_pkt_hints h = { 0 };
			struct wr_frame_tmpl *t;
			struct wr_frame_gen g;
			uint32_t n, len, k;

			if (s->replay != NULL || s->n_layers == 0)
				continue;
			if (!s->layers[s->n_layers - 1].proto->no_payload) {
				s->latency = true;
				s->sig_short = false;
				s->size.mode = WR_SIZE_FIXED;
				s->size.fixed = 300;
			}
			if (wr_frame_tmpl_create(s, i, &t, &e) != 0) {
				fprintf(stderr, "%s %s: %s\n", de->d_name, s->name, e.msg);
				CU_FAIL("template");
				continue;
			}
			if (wr_frame_tmpl_rx_hint(t, &h.raw[0]) == 0)
				h.n = 1;
			n = wr_frame_tmpl_layers(t, proto, off);
			CU_ASSERT_EQUAL(n, s->n_layers);
			for (k = 0; k < 6; k += 5) {
				memcpy(buf, wr_frame_tmpl_bytes(t), wr_frame_tmpl_max_len(t));
				wr_frame_gen_init(&g, t, k, 1);
				len = wr_frame_gen_next(&g, buf);
				if (s->latency)
					wr_frame_sig_write(t, buf, (uint16_t)len, WR_SIG_ID(i, 0), k, 0);
				snprintf(where, sizeof(where), "%s %s frame %u", de->d_name,
					 s->name, k);
				CU_ASSERT_EQUAL_FATAL(wr_dissect_built(buf, len, s->layers,
								       s->n_layers, d), 0);
				CU_ASSERT_EQUAL(d->len, len);
				CU_ASSERT_FALSE(d->truncated);
				CU_ASSERT(d->n_layers == n || d->n_layers == n + 1);
				for (li = 0; li < n && li < d->n_layers; li++)
					n_fields += check_layer(where, d, li, &s->layers[li], off[li]);
				/* The payload: the signature where the builder put it. */
				CU_ASSERT_EQUAL(d->has_sig, s->latency);
				if (s->latency) {
					CU_ASSERT_EQUAL(d->layer[n].off, wr_frame_tmpl_sig_off(t));
					CU_ASSERT_EQUAL(WR_SIG_STREAM(d->sig.stream_id), i);
					CU_ASSERT_EQUAL(d->sig.seq, k);
				}
				CU_ASSERT(d->summary[0] != '\0');
				CU_ASSERT_PTR_NOT_NULL(d->top);
				/* The same bytes received. */
				CU_ASSERT_EQUAL(wr_dissect_frame(buf, len, &h, r), 0);
				CU_ASSERT_EQUAL(r->has_sig, s->latency);
				for (li = 0; li < n && li < d->n_layers; li++) {
					const struct wr_dissect_layer *y = &d->layer[li];
					uint32_t m;

					for (m = 0; m < r->n_layers; m++)
						if (r->layer[m].off == y->off)
							break;
					if (m == r->n_layers) {
						fprintf(stderr, "%s: layer %u (%s at %u) not received\n",
							where, li, y->name, y->off);
						CU_FAIL("layer not received");
						continue;
					}
					CU_ASSERT_EQUAL(r->layer[m].len, y->len);
					/* Received headers have the fields the builder
					 * laid out (GRE's optional parts by its own
					 * layout); options are bytes. */
					if (r->layer[m].proto == y->proto &&
					    (y->len == y->proto->hlen || y->proto->opts == NULL)) {
						same_fields(d, y, r, &r->layer[m]);
						n_same++;
					}
				}
			}
			wr_frame_tmpl_free(t);
			n_streams++;
		}
		wr_stream_file_free(&f);
	}
	closedir(dir);
	fprintf(stderr, "dissect: %u streams, %u fields at their layout, %u layers "
		"received alike\n", n_streams, n_fields, n_same);
	CU_ASSERT(n_streams >= 30);
	CU_ASSERT(n_fields >= 500);
	CU_ASSERT(n_same >= 100);
	free(buf);
	free(d);
	free(r);
}

/* A frame cut anywhere: every layer and field inside the bytes there are,
 * the header cut short marked. */
static void
test_every_cut(void)
{
	static const char yaml[] =
		"version: 1\n"
		"streams:\n"
		"  - name: v\n"
		"    size: 200\n"
		"    latency: true\n"
		"    stack:\n"
		"      - eth: {src: \"02:00:00:00:00:01\", dst: \"02:00:00:00:00:02\"}\n"
		"      - vlan: {tpid: 0x88a8, id: 7}\n"
		"      - vlan: {id: 8}\n"
		"      - ipv4: {src: 10.0.0.1, dst: 10.0.0.2, options: [{type: 148, data: \"0000\"}]}\n"
		"      - udp: {src: 1}\n"
		"      - vxlan: {vni: 9}\n"
		"      - eth: {}\n"
		"      - ipv6: {src: \"2001:db8::1\", dst: \"2001:db8::2\"}\n"
		"      - tcp: {dst: 80}\n";
	struct wr_dissect *d = malloc(sizeof(*d));
	struct wr_stream_file f;
	struct wr_frame_tmpl *t;
	struct wr_error e;
	uint32_t len, cut, i, k;
	const uint8_t *b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL_FATAL(wr_yaml_load_streams_at("cut", yaml, strlen(yaml),
						      WR_YAML_PCAP_NONE, &f, &e), 0);
	CU_ASSERT_EQUAL_FATAL(wr_frame_tmpl_create(&f.streams[0], 0, &t, &e), 0);
	b = wr_frame_tmpl_bytes(t);
	len = wr_frame_tmpl_max_len(t);
	CU_ASSERT_EQUAL(wr_dissect_frame(b, len, NULL, d), 0);
	CU_ASSERT_EQUAL(d->n_layers, 10); /* nine headers and the payload */
	CU_ASSERT_STRING_EQUAL(d->top->name, "tcp");
	CU_ASSERT_FALSE(d->truncated);
	for (cut = 0; cut <= len; cut++) {
		CU_ASSERT_EQUAL_FATAL(wr_dissect_frame(b, cut, NULL, d), 0);
		for (i = 0; i < d->n_layers; i++) {
			const struct wr_dissect_layer *y = &d->layer[i];

			CU_ASSERT(y->off + y->len <= cut);
			for (k = y->field0; k < (uint32_t)y->field0 + y->n_fields; k++)
				CU_ASSERT(d->field[k].off >= y->off &&
					  d->field[k].off + d->field[k].len <= y->off + y->len);
		}
	}
	/* Cut inside the inner IPv6 header: it is there, marked. */
	CU_ASSERT_EQUAL(wr_dissect_frame(b, 14 + 8 + 24 + 8 + 8 + 14 + 20, NULL, d), 0);
	CU_ASSERT_TRUE(d->truncated);
	CU_ASSERT_STRING_EQUAL(d->layer[d->n_layers - 1].name, "ipv6");
	CU_ASSERT_TRUE(d->layer[d->n_layers - 1].truncated);
	CU_ASSERT_STRING_EQUAL(d->top->name, "eth");
	CU_ASSERT_PTR_NOT_NULL(strstr(d->summary, "[truncated]"));
	wr_frame_tmpl_free(t);
	wr_stream_file_free(&f);
	free(d);
}

/* The JSON every view renders: the contract's keys and the frame's hex. */
static void
test_json(void)
{
	static const uint8_t frame[] = {
		0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00,
		0x45, 0, 0, 28, 0, 1, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 1, 0, 1,
		0x04, 0x00, 0x12, 0xb5, 0, 8, 0, 0,
	};
	struct wr_dissect *d = malloc(sizeof(*d));
	json_t *j, *l, *f;
	char hex[2 * sizeof(frame) + 1];
	size_t i;

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	CU_ASSERT_EQUAL(wr_dissect_frame(frame, sizeof(frame), NULL, d), 0);
	j = wr_dissect_json(d, frame, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(j);
	for (i = 0; i < sizeof(frame); i++)
		snprintf(hex + 2 * i, 3, "%02x", frame[i]);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(j, "len")), sizeof(frame));
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "hex")), hex);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "top")), "udp");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(j, "summary")),
			       "10.0.0.1 \u2192 10.1.0.1 UDP 1024 \u2192 4789 len 0");
	CU_ASSERT_PTR_NULL(json_object_get(j, "stream"));
	l = json_object_get(j, "layers");
	CU_ASSERT_EQUAL(json_array_size(l), 3);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(l, 2), "proto")),
			       "udp");
	/* The first field of Ethernet: the destination, in wire order. */
	f = json_array_get(json_object_get(json_array_get(l, 0), "fields"), 0);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "key")), "eth.dst");
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "value")), "02:00:00:00:00:02");
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(f, "off")), 0);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(f, "len")), 6);
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(f, "bits")), 48);
	f = json_array_get(json_object_get(json_array_get(l, 0), "fields"), 2);
	CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(f, "value")), "0x0800");
	json_decref(j);
	/* Nothing but a cut link header: no registered layer. */
	CU_ASSERT_EQUAL(wr_dissect_frame(frame, 10, NULL, d), 0);
	CU_ASSERT_TRUE(d->truncated);
	CU_ASSERT_EQUAL(wr_dissect_frame(NULL, 0, NULL, d), 0);
	CU_ASSERT_EQUAL(d->n_layers, 0);
	CU_ASSERT_EQUAL(wr_dissect_frame(NULL, 5, NULL, d), -EINVAL);
	free(d);
}

/* Values as stream files write them (wr_describe_val is this). */
static void
test_val(void)
{
	char b[WR_DISSECT_VAL_MAX];

	wr_dissect_val(WR_VAL_MAC, 0x020000000001ull, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "02:00:00:00:00:01");
	wr_dissect_val(WR_VAL_IPV4, 0xc6120001u, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "198.18.0.1");
	wr_dissect_val(WR_VAL_IPV6, (__uint128_t)0x20010db8u << 96 | 1, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "2001:db8::1");
	wr_dissect_val(WR_VAL_HEX, 0x800, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "0x0800");
	wr_dissect_val(WR_VAL_INT, 4789, b, sizeof(b));
	CU_ASSERT_STRING_EQUAL(b, "4789");
}

static CU_TestInfo dissect_tests[] = {
	{ "every_shipped_stack", test_every_shipped_stack },
	{ "every_cut", test_every_cut },
	{ "json", test_json },
	{ "val", test_val },
	CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
	{ .pName = "dissect", .pTests = dissect_tests },
	CU_SUITE_INFO_NULL,
};

int
main(int argc, char **argv)
{
	return wr_test_main(argc, argv, suites);
}

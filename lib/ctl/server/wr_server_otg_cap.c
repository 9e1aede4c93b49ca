/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_otg_cap: POST /monitor/capture: a port's capture fetched from its server (capture.stop, capture.fetch) and answered as pcapng, or as pcap when the config's capture says so. */
#include <openssl/evp.h>

#include "wr_server_otg_priv.h"

/* ---- captures' bytes ---- */

struct bytes {
	uint8_t *b;
	size_t len, cap;
};

static int
bytes_add(struct bytes *x, const void *p, size_t n)
{
	if (x->len + n > x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 65536;
		uint8_t *nb;

		while (cap < x->len + n)
			cap *= 2;
		nb = realloc(x->b, cap);
		if (nb == NULL)
			return -ENOMEM;
		x->b = nb;
		x->cap = cap;
	}
	memcpy(x->b + x->len, p, n);
	x->len += n;
	return 0;
}

/* base64 (capture.fetch's data) appended to @p x. */
static int
b64_add(struct bytes *x, const char *t)
{
	size_t n = strlen(t), pad = 0;
	uint8_t *buf;
	int got, rc;

	if (n == 0)
		return 0;
	if (n % 4 != 0)
		return -EINVAL;
	pad = (t[n - 1] == '=') + (n > 1 && t[n - 2] == '=');
	buf = malloc(n / 4 * 3 + 1);
	if (buf == NULL)
		return -ENOMEM;
	got = EVP_DecodeBlock(buf, (const unsigned char *)t, (int)n);
	rc = got < 0 || (size_t)got < pad ? -EINVAL :
	     bytes_add(x, buf, (size_t)got - pad);
	free(buf);
	return rc;
}

/* pcapng (what wirerate's captures write) as pcap with nanosecond stamps
 * (magic a1b23c4d), for a capture whose format is pcap: the enhanced
 * packet blocks of the first interface's link type, in their order. */
static int
pcapng_to_pcap(const struct bytes *in, struct bytes *out)
{
	uint32_t linktype = 1, tsres_ns = 1000; /* if_tsresol default: us */
	size_t off = 0;
	bool hdr = false;

	while (off + 12 <= in->len) {
		uint32_t type, len;

		memcpy(&type, in->b + off, 4);
		memcpy(&len, in->b + off + 4, 4);
		if (len < 12 || off + len > in->len || len % 4 != 0)
			return -EINVAL;
		if (type == 1 && len >= 20) {        /* interface description */
			size_t o2 = off + 16;
			uint16_t lt;

			memcpy(&lt, in->b + off + 8, 2);
			linktype = lt;
			while (o2 + 4 <= off + len - 4) {
				uint16_t code, olen;

				memcpy(&code, in->b + o2, 2);
				memcpy(&olen, in->b + o2 + 2, 2);
				if (code == 0)
					break;
				if (code == 9 && olen == 1) { /* if_tsresol */
					uint8_t r = in->b[o2 + 4];
					uint32_t ns = 1000000000u;

					while (!(r & 0x80) && r-- > 0 && ns > 1)
						ns /= 10;
					tsres_ns = ns;
				}
				o2 += 4 + ((olen + 3u) & ~3u);
			}
		} else if (type == 6 && len >= 32) { /* enhanced packet */
			uint32_t th, tl, caplen, olen, rec[4];
			uint64_t ts;

			if (!hdr) {
				const uint32_t g[6] = { 0xa1b23c4d, 2u | (4u << 16),
							0, 0, 262144, linktype };

				if (bytes_add(out, g, sizeof(g)) != 0)
					return -ENOMEM;
				hdr = true;
			}
			memcpy(&th, in->b + off + 12, 4);
			memcpy(&tl, in->b + off + 16, 4);
			memcpy(&caplen, in->b + off + 20, 4);
			memcpy(&olen, in->b + off + 24, 4);
			if (28 + (size_t)caplen > len)
				return -EINVAL;
			ts = (((uint64_t)th << 32) | tl) * tsres_ns;
			rec[0] = (uint32_t)(ts / 1000000000u);
			rec[1] = (uint32_t)(ts % 1000000000u);
			rec[2] = caplen;
			rec[3] = olen;
			if (bytes_add(out, rec, sizeof(rec)) != 0 ||
			    bytes_add(out, in->b + off + 28, caplen) != 0)
				return -ENOMEM;
		}
		off += len;
	}
	if (!hdr) {
		const uint32_t g[6] = { 0xa1b23c4d, 2u | (4u << 16), 0, 0,
					262144, linktype };

		return bytes_add(out, g, sizeof(g));
	}
	return 0;
}

void
wr_srv_otg_capture(struct server *s, struct conn *c, struct srv_otg *o,
		   const struct otg_req *rq, struct otg_resp *out)
{
	struct bytes b = { NULL, 0, 0 }, pcap = { NULL, 0, 0 };
	struct wr_otg_err e;
	json_t *req, *res;
	uint64_t off = 0;
	int p, k, rc = 0;

	if (!o->have_plan) {
		wr_srv_otg_fail1(out, 409, NULL, "no config: POST /config first");
		return;
	}
	if ((req = wr_srv_otg_body(rq, "Capture.Request", out)) == NULL)
		return;
	p = wr_srv_otg_port(o, json_string_value(json_object_get(req,
								 "port_name")));
	wr_otg_err_init(&e);
	if (p < 0 || o->cap_id[p] < 0) {
		e.code = p < 0 ? 404 : 409;
		wr_otg_err_add(&e, "port_name", p < 0 ? "no port named \"%.128s\" "
			       "in the config" : "port \"%.128s\" has no capture: "
			       "control/state port capture start first",
			       json_string_value(json_object_get(req, "port_name")));
		goto fail;
	}
	k = wr_srv_otg_target_of(o, (unsigned int)p);
	/* The file is whole once the capture ends: stopped here if it runs. */
	if (o->cap_on[p]) {
		if (wr_srv_otg_own(s, c, o, &e) != 0 ||
		    wr_srv_otg_tcall(s, c, &o->t[k], "capture.stop", json_pack(
				     "{s:i}", "id", o->cap_id[p]), &res, &e) != 0)
			goto fail;
		json_decref(res);
		o->cap_on[p] = false;
	}
	for (;;) {
		bool eof;

		if (wr_srv_otg_tcall(s, c, &o->t[k], "capture.fetch", json_pack(
				     "{s:i, s:I}", "id", o->cap_id[p], "offset",
				     (json_int_t)off), &res, &e) != 0)
			goto fail;
		rc = b64_add(&b, json_string_value(json_object_get(res, "data")) ?:
			     "");
		off += (uint64_t)json_integer_value(json_object_get(res, "length"));
		eof = json_is_true(json_object_get(res, "eof")) ||
		      json_integer_value(json_object_get(res, "length")) == 0;
		json_decref(res);
		if (rc != 0 || eof)
			break;
	}
	if (rc == 0 && !o->plan.ports[p].cap.pcapng)
		rc = pcapng_to_pcap(&b, &pcap);
	if (rc != 0) {
		e.code = 500;
		e.kind = WR_OTG_INTERNAL;
		wr_otg_err_add(&e, "port_name", "the capture's file: %s",
			       strerror(-rc));
		goto fail;
	}
	json_decref(req);
	wr_otg_err_free(&e);
	out->status = 200;
	if (o->plan.ports[p].cap.pcapng) {
		out->raw = b.b;
		out->raw_len = b.len;
	} else {
		free(b.b);
		out->raw = pcap.b;
		out->raw_len = pcap.len;
	}
	if (out->raw == NULL)
		out->raw = malloc(1);
	return;
fail:
	free(b.b);
	free(pcap.b);
	json_decref(req);
	wr_srv_otg_fail(out, &e);
}


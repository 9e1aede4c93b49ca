/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_dhcp6_msg: DHCPv6 messages as a client reads them (RFC 8415 sections 8, 21), its DUID, section 15's retransmission times. */
#include <string.h>

#include "wr_bytes.h"
#include "wr_dhcp6_msg.h"

uint16_t
wr_dhcp6_duid(uint8_t *out, uint8_t type, const uint8_t mac[6])
{
	wr_put16(out, type);
	wr_put16(out + 2, 1);   /* hardware type 1: Ethernet (RFC 826) */
	if (type == 1) {
		wr_put32(out + 4, 0);
		memcpy(out + 8, mac, 6);
		return 14;
	}
	memcpy(out + 4, mac, 6);
	return 10;
}

uint32_t
wr_dhcp6_next_rt(uint32_t rt_ms, uint32_t irt_ms, uint32_t mrt_ms, uint32_t r,
		 bool solicit)
{
	/* RAND uniform in [-0.1, 0.1] (section 15), in thousandths; the
	 * first SOLICIT's RAND strictly positive (section 18.2.1). */
	int64_t rp = (int64_t)(r % 201) - 100;
	int64_t rt;

	if (rt_ms == 0) {
		if (solicit)
			rp = (int64_t)(r % 100) + 1;
		rt = (int64_t)irt_ms + (int64_t)irt_ms * rp / 1000;
	} else {
		rt = 2 * (int64_t)rt_ms + (int64_t)rt_ms * rp / 1000;
	}
	if (mrt_ms != 0 && rt > (int64_t)mrt_ms)
		rt = (int64_t)mrt_ms + (int64_t)mrt_ms * rp / 1000;
	return rt < 1 ? 1 : (uint32_t)rt;
}

/* A status code option's code (the message text after it is not read). */
static enum wr_dhcp6_bad
status_of(const uint8_t *v, uint16_t len, bool *has, uint16_t *code)
{
	if (len < 2)
		return WR_DHCP6_BAD_OPTION;
	*has = true;
	*code = (uint16_t)wr_get16(v);
	return WR_DHCP6_OK;
}

/* IA_NA (12 bytes before its options) or IA_PD: the IA's first lease
 * option and status. */
static enum wr_dhcp6_bad
parse_ia(const uint8_t *v, uint16_t len, bool pd, struct wr_dhcp6_ia *ia)
{
	uint32_t off = 12;

	if (len < 12)
		return WR_DHCP6_BAD_IA;
	ia->present = true;
	ia->iaid = (uint32_t)wr_get32(v);
	ia->t1 = (uint32_t)wr_get32(v + 4);
	ia->t2 = (uint32_t)wr_get32(v + 8);
	while (off < len) {
		uint16_t code, olen;
		const uint8_t *o = v + off;
		enum wr_dhcp6_bad rc;

		if (len - off < 4)
			return WR_DHCP6_BAD_OPTION;
		code = (uint16_t)wr_get16(o);
		olen = (uint16_t)wr_get16(o + 2);
		if (olen > len - off - 4)
			return WR_DHCP6_BAD_OPTION;
		o += 4;
		if (code == WR_DHCP6_OPT_STATUS_CODE) {
			rc = status_of(o, olen, &ia->has_status, &ia->status);
			if (rc != WR_DHCP6_OK)
				return rc;
		} else if (!ia->has_lease &&
			   code == (pd ? WR_DHCP6_OPT_IAPREFIX : WR_DHCP6_OPT_IAADDR)) {
			/* IAADDR: address, preferred, valid, options;
			 * IAPREFIX: preferred, valid, length, prefix, options. */
			uint32_t fixed = pd ? 25 : 24, i = fixed;

			if (olen < fixed)
				return WR_DHCP6_BAD_IA;
			ia->has_lease = true;
			if (pd) {
				ia->preferred_s = (uint32_t)wr_get32(o);
				ia->valid_s = (uint32_t)wr_get32(o + 4);
				ia->plen = o[8];
				ia->addr = wr_get128(o + 9);
				if (ia->plen > 128)
					return WR_DHCP6_BAD_IA;
			} else {
				ia->addr = wr_get128(o);
				ia->plen = 128;
				ia->preferred_s = (uint32_t)wr_get32(o + 16);
				ia->valid_s = (uint32_t)wr_get32(o + 20);
			}
			/* The lease option's own options: its status. */
			while (i < olen) {
				uint16_t c2, l2;

				if (olen - i < 4)
					return WR_DHCP6_BAD_OPTION;
				c2 = (uint16_t)wr_get16(o + i);
				l2 = (uint16_t)wr_get16(o + i + 2);
				if (l2 > olen - i - 4)
					return WR_DHCP6_BAD_OPTION;
				if (c2 == WR_DHCP6_OPT_STATUS_CODE) {
					rc = status_of(o + i + 4, l2,
						       &ia->lease_has_status,
						       &ia->lease_status);
					if (rc != WR_DHCP6_OK)
						return rc;
				}
				i += 4u + l2;
			}
		}
		off += 4u + olen;
	}
	return WR_DHCP6_OK;
}

enum wr_dhcp6_bad
wr_dhcp6_parse(const uint8_t *p, uint32_t len, struct wr_dhcp6_msg *m)
{
	uint32_t off = 4;

	memset(m, 0, sizeof(*m));
	if (len < 4)
		return WR_DHCP6_BAD_SHORT;
	m->type = p[0];
	m->xid = (uint32_t)wr_get24(p + 1);
	if (m->type != WR_DHCP6_ADVERTISE && m->type != WR_DHCP6_REPLY)
		return WR_DHCP6_BAD_TYPE;
	while (off < len) {
		uint16_t code, olen;
		const uint8_t *o = p + off;
		enum wr_dhcp6_bad rc = WR_DHCP6_OK;

		if (len - off < 4)
			return WR_DHCP6_BAD_OPTION;
		code = (uint16_t)wr_get16(o);
		olen = (uint16_t)wr_get16(o + 2);
		if (olen > len - off - 4)
			return WR_DHCP6_BAD_OPTION;
		o += 4;
		switch (code) {
		case WR_DHCP6_OPT_CLIENTID:
		case WR_DHCP6_OPT_SERVERID:
			if (olen < 2 || olen > WR_DHCP6_DUID_MAX)
				return WR_DHCP6_BAD_DUID;
			if (code == WR_DHCP6_OPT_CLIENTID) {
				m->client_id = o;
				m->client_id_len = olen;
			} else {
				m->server_id = o;
				m->server_id_len = olen;
			}
			break;
		case WR_DHCP6_OPT_PREFERENCE:
			if (olen != 1)
				return WR_DHCP6_BAD_OPTION;
			m->has_preference = true;
			m->preference = o[0];
			break;
		case WR_DHCP6_OPT_RAPID_COMMIT:
			m->rapid_commit = true;
			break;
		case WR_DHCP6_OPT_STATUS_CODE:
			rc = status_of(o, olen, &m->has_status, &m->status);
			break;
		case WR_DHCP6_OPT_IA_NA:
			if (!m->na.present)
				rc = parse_ia(o, olen, false, &m->na);
			break;
		case WR_DHCP6_OPT_IA_PD:
			if (!m->pd.present)
				rc = parse_ia(o, olen, true, &m->pd);
			break;
		default:
			break;
		}
		if (rc != WR_DHCP6_OK)
			return rc;
		off += 4u + olen;
	}
	if (m->client_id == NULL)
		return WR_DHCP6_BAD_NO_CLIENTID;
	if (m->server_id == NULL)
		return WR_DHCP6_BAD_NO_SERVERID;
	return WR_DHCP6_OK;
}

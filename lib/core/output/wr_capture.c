/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_capture: capture options and pcapng blocks (draft-ietf-opsawg-pcapng). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wr_parse.h"
#include "wr_capture.h"

/* Block types and option codes (draft-ietf-opsawg-pcapng, section 4). */
#define PCAPNG_SHB 0x0A0D0D0Au
#define PCAPNG_IDB 0x00000001u
#define PCAPNG_ISB 0x00000005u
#define PCAPNG_EPB 0x00000006u
#define PCAPNG_BOM 0x1A2B3C4Du
#define OPT_END 0
#define OPT_COMMENT 1
#define SHB_HARDWARE 2
#define SHB_OS 3
#define SHB_USERAPPL 4
#define IF_NAME 2
#define IF_DESCRIPTION 3
#define IF_TSRESOL 9
#define ISB_STARTTIME 2
#define ISB_ENDTIME 3
#define ISB_IFRECV 4
#define ISB_IFDROP 5
#define LINKTYPE_ETHERNET 1
/* if_tsresol 9: 10^-9 s, the resolution wirerate's timestamps have. */
#define TSRESOL_NS 9
/* EPB: type, length, interface, timestamp (2 words), caplen, origlen. */
#define EPB_HDR 28u

int
wr_capspec_parse(const char *arg, struct wr_capspec *out, char *why,
		 size_t why_len)
{
	const char *eq = strchr(arg, '='), *colon;
	char port[16];
	uint64_t v;
	size_t n;

	memset(out, 0, sizeof(*out));
	out->dir = WR_CAP_RX;
	if (eq == NULL || eq == arg || eq[1] == '\0')
		goto bad;
	colon = memchr(arg, ':', (size_t)(eq - arg));
	n = (size_t)((colon ? colon : eq) - arg);
	if (n == 0 || n >= sizeof(port))
		goto bad;
	memcpy(port, arg, n);
	port[n] = '\0';
	if (wr_parse_u64(port, 0, UINT16_MAX, &v, NULL, 0) != 0)
		goto bad;
	out->port = (uint16_t)v;
	if (colon != NULL) {
		n = (size_t)(eq - colon - 1);
		if (n == 2 && strncmp(colon + 1, "rx", 2) == 0)
			out->dir = WR_CAP_RX;
		else if (n == 2 && strncmp(colon + 1, "tx", 2) == 0)
			out->dir = WR_CAP_TX;
		else if (n == 4 && strncmp(colon + 1, "both", 4) == 0)
			out->dir = WR_CAP_BOTH;
		else
			goto bad;
	}
	if (strlen(eq + 1) >= sizeof(out->file)) {
		snprintf(why, why_len, "expected a file name shorter than %u "
			 "bytes", WR_CAP_PATH_MAX);
		return -EINVAL;
	}
	snprintf(out->file, sizeof(out->file), "%s", eq + 1);
	return 0;
bad:
	snprintf(why, why_len, "expected PORT[:rx|tx|both]=FILE such as "
		 "0=rx.pcapng or 1:both=p1.pcapng");
	return -EINVAL;
}

int
wr_cap_limits_check(const struct wr_cap_limits *l, char *why, size_t why_len)
{
	if (l->files > WR_CAP_FILES_MAX) {
		snprintf(why, why_len, "--capture-files: at most %u files",
			 WR_CAP_FILES_MAX);
		return -EINVAL;
	}
	if (l->files > 1 && l->frames == 0 && l->bytes == 0 &&
	    l->duration_ns == 0) {
		snprintf(why, why_len, "--capture-files %u: a ring of files "
			 "needs a limit per file: --capture-count, "
			 "--capture-size or --capture-duration", l->files);
		return -EINVAL;
	}
	if (l->snaplen > 65535) {
		snprintf(why, why_len, "--snaplen: expected 1..65535 bytes "
			 "(0: whole frames)");
		return -EINVAL;
	}
	return 0;
}

int
wr_cap_file_name(const char *base, uint32_t k, uint32_t files, char *out,
		 size_t out_len)
{
	const char *slash = strrchr(base, '/'), *dot = strrchr(base, '.');
	int n;

	if (files <= 1)
		n = snprintf(out, out_len, "%s", base);
	else if (dot != NULL && dot != base && (slash == NULL || dot > slash + 1))
		n = snprintf(out, out_len, "%.*s-%u%s", (int)(dot - base), base,
			     k, dot);
	else
		n = snprintf(out, out_len, "%s-%u", base, k);
	return n < 0 || (size_t)n >= out_len ? -ENAMETOOLONG : 0;
}

static void
put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static uint32_t
get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static size_t
pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* Append option @p code with @p len bytes of @p v at @p buf + *off
 * (padded to 32 bits); false when it does not fit in @p cap. */
static bool
opt(uint8_t *buf, size_t cap, size_t *off, uint16_t code, const void *v,
    size_t len)
{
	if (len > UINT16_MAX || *off + 4 + pad4(len) > cap)
		return false;
	memcpy(buf + *off, &code, 2);
	memcpy(buf + *off + 2, &(uint16_t){ (uint16_t)len }, 2);
	if (len > 0)
		memcpy(buf + *off + 4, v, len);
	memset(buf + *off + 4 + len, 0, pad4(len) - len);
	*off += 4 + pad4(len);
	return true;
}

static bool
opt_str(uint8_t *buf, size_t cap, size_t *off, uint16_t code, const char *s)
{
	return s == NULL || opt(buf, cap, off, code, s, strlen(s));
}

static bool
opt_ts(uint8_t *buf, size_t cap, size_t *off, uint16_t code, uint64_t ns)
{
	uint32_t w[2] = { (uint32_t)(ns >> 32), (uint32_t)ns };

	return ns == 0 || opt(buf, cap, off, code, w, sizeof(w));
}

/* opt_endofopt, the trailing length, and the length in the header. */
static size_t
close_block(uint8_t *buf, size_t cap, size_t off)
{
	if (!opt(buf, cap, &off, OPT_END, NULL, 0) || off + 4 > cap)
		return 0;
	put32(buf + 4, (uint32_t)(off + 4));
	put32(buf + off, (uint32_t)(off + 4));
	return off + 4;
}

size_t
wr_pcapng_shb(uint8_t *buf, size_t cap, const char *hardware, const char *os,
	      const char *app, const char *comment)
{
	size_t off = 24;
	uint64_t section_len = UINT64_MAX; /* not given */

	if (cap < off)
		return 0;
	put32(buf, PCAPNG_SHB);
	put32(buf + 8, PCAPNG_BOM);
	memcpy(buf + 12, &(uint16_t){ 1 }, 2);
	memcpy(buf + 14, &(uint16_t){ 0 }, 2);
	memcpy(buf + 16, &section_len, 8);
	if (!opt_str(buf, cap, &off, OPT_COMMENT, comment) ||
	    !opt_str(buf, cap, &off, SHB_HARDWARE, hardware) ||
	    !opt_str(buf, cap, &off, SHB_OS, os) ||
	    !opt_str(buf, cap, &off, SHB_USERAPPL, app))
		return 0;
	return close_block(buf, cap, off);
}

size_t
wr_pcapng_idb(uint8_t *buf, size_t cap, const char *name, const char *desc,
	      uint32_t snaplen)
{
	const uint8_t tsresol = TSRESOL_NS;
	size_t off = 16;

	if (cap < off)
		return 0;
	put32(buf, PCAPNG_IDB);
	memcpy(buf + 8, &(uint16_t){ LINKTYPE_ETHERNET }, 2);
	memcpy(buf + 10, &(uint16_t){ 0 }, 2);
	put32(buf + 12, snaplen);
	if (!opt_str(buf, cap, &off, IF_NAME, name) ||
	    !opt_str(buf, cap, &off, IF_DESCRIPTION, desc) ||
	    !opt(buf, cap, &off, IF_TSRESOL, &tsresol, 1))
		return 0;
	return close_block(buf, cap, off);
}

size_t
wr_pcapng_isb(uint8_t *buf, size_t cap, uint32_t iface, uint64_t ts_ns,
	      uint64_t start_ns, uint64_t end_ns, uint64_t recv, uint64_t drop,
	      const char *comment)
{
	size_t off = 20;

	if (cap < off)
		return 0;
	put32(buf, PCAPNG_ISB);
	put32(buf + 8, iface);
	put32(buf + 12, (uint32_t)(ts_ns >> 32));
	put32(buf + 16, (uint32_t)ts_ns);
	if (!opt_str(buf, cap, &off, OPT_COMMENT, comment) ||
	    !opt_ts(buf, cap, &off, ISB_STARTTIME, start_ns) ||
	    !opt_ts(buf, cap, &off, ISB_ENDTIME, end_ns) ||
	    !opt(buf, cap, &off, ISB_IFRECV, &recv, 8) ||
	    !opt(buf, cap, &off, ISB_IFDROP, &drop, 8))
		return 0;
	return close_block(buf, cap, off);
}

static bool
is_epb(const uint8_t *epb, uint32_t len)
{
	return len >= EPB_HDR + 4 && len % 4 == 0 &&
	       get32(epb) == PCAPNG_EPB && get32(epb + 4) == len &&
	       get32(epb + len - 4) == len &&
	       EPB_HDR + pad4(get32(epb + 20)) + 4 <= len;
}

int
wr_pcapng_epb_set_ts(uint8_t *epb, uint32_t len, uint64_t ts_ns)
{
	if (!is_epb(epb, len))
		return -EINVAL;
	put32(epb + 12, (uint32_t)(ts_ns >> 32));
	put32(epb + 16, (uint32_t)ts_ns);
	return 0;
}

uint64_t
wr_pcapng_epb_ts(const uint8_t *epb)
{
	return (uint64_t)get32(epb + 12) << 32 | get32(epb + 16);
}

int
wr_pcapng_epb_frame(const uint8_t *epb, uint32_t len, const uint8_t **frame,
		    uint32_t *caplen)
{
	if (!is_epb(epb, len))
		return -EINVAL;
	*frame = epb + EPB_HDR;
	*caplen = get32(epb + 20);
	return 0;
}

uint32_t
wr_pcapng_epb_comment(uint8_t *epb, uint32_t len, uint32_t room,
		      const char *comment)
{
	size_t opts, end, off, clen = strlen(comment);
	uint16_t code, olen;

	if (!is_epb(epb, len))
		return 0;
	/* The options run from after the padded frame to the trailing
	 * length; a comment goes before opt_endofopt if there is one. */
	opts = EPB_HDR + pad4(get32(epb + 20));
	end = len - 4;
	for (off = opts; off + 4 <= end; off += 4 + pad4(olen)) {
		memcpy(&code, epb + off, 2);
		memcpy(&olen, epb + off + 2, 2);
		if (code == OPT_END)
			break;
	}
	if (off > end)
		return 0;
	if (off + 4 + pad4(clen) + (len - off) > room)
		return 0;
	/* Whatever follows (opt_endofopt, the trailer) moves down. */
	memmove(epb + off + 4 + pad4(clen), epb + off, len - off);
	{
		size_t o = off;

		if (!opt(epb, room, &o, OPT_COMMENT, comment, clen))
			return 0;
	}
	len += (uint32_t)(4 + pad4(clen));
	put32(epb + 4, len);
	put32(epb + len - 4, len);
	return len;
}

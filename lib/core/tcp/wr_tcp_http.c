/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_tcp_http: an HTTP/1.x message parser in 16 bytes of state (start line, framing headers, Content-Length / chunked / to-the-close bodies). */
#include <stddef.h>
#include <string.h>

#include "wr_tcp_http.h"

/* Phases.  Lines end at LF; a CR before it is ignored (RFC 9112 2.2
 * lets a recipient take a bare LF as a line's end). */
enum {
	P_BEGIN = 0,    /* nothing taken yet */
	P_VER,          /* "HTTP/1." at parse's position */
	P_VER_MINOR,    /* the minor version digit */
	P_SP,           /* the space(s) after the version */
	P_CODE,         /* three digits (parse: how many so far) */
	P_REASON,       /* the reason phrase, skipped to LF */
	P_METHOD,       /* a request's method token */
	P_TARGET,       /* its target */
	P_RVER,         /* "HTTP/1." at parse's position */
	P_RVER_MINOR,
	P_REOL,         /* after the version: CR then LF */
	P_LINE,         /* the start of a header line */
	P_NAME,         /* a field name being matched */
	P_VALUE,        /* a field value being read */
	P_SKIP,         /* skipped to LF */
	P_LENGTH,       /* a body of `left` bytes */
	P_TO_CLOSE,     /* a body to the close */
	P_CSIZE,        /* a chunk's size (hex) */
	P_CEXT,         /* its extensions, skipped to LF */
	P_CDATA,        /* its data, `left` bytes */
	P_CDATA_END,    /* the CRLF after the data */
	P_TRAILER,      /* the start of a trailer line (or the blank line) */
	P_TSKIP,        /* a trailer line, skipped to LF */
	P_DONE,         /* the message ended */
	P_BAD,
};

/* The framing fields, matched case-insensitively (RFC 9110 5.1). */
enum { H_NONE = 0, H_LENGTH, H_TE, H_CONN, H__N };
static const char *const names[H__N] = {
	"", "content-length", "transfer-encoding", "connection",
};
static const uint8_t name_len[H__N] = { 0, 14, 17, 10 };

/* parse, in P_NAME / P_VALUE:
 *   bits 0..1   the field (H_*)
 *   bits 2..7   position in its name / in the token being matched
 *   bit  8      a token's match failed (skip to ',')
 *   bit  9      a token began (a non-blank byte seen)
 *   bit  10     the token is "keep-alive" (else "close" / "chunked")
 *   bit  11     Content-Length: digits ended (blank after them) */
#define PF_FIELD(x)   ((x) & 3u)
#define PF_POS(x)     (((x) >> 2) & 63u)
#define PF_FAIL       0x100u
#define PF_TOKEN      0x200u
#define PF_KEEP       0x400u
#define PF_ENDED      0x800u

/* In the head, `left` holds the Content-Length in its low bits and the
 * status above them: no framing length comes near 2^54 bytes. */
#define LEN_BITS 54
#define LEN_MASK ((1ull << LEN_BITS) - 1)

static inline uint8_t
lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c + 32) : c;
}

static inline bool
blank(uint8_t c)
{
	return c == ' ' || c == '\t';
}

/* tchar of RFC 9110 5.6.2. */
static bool
tchar(uint8_t c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	    (c >= 'A' && c <= 'Z'))
		return true;
	return c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int
hexval(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = lower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

void
wr_tcp_http_begin(struct wr_tcp_http_st *s, bool response, bool no_body)
{
	s->phase = P_BEGIN;
	s->flags = (uint8_t)((response ? WR_TCP_HTTP_F_RESPONSE : 0) |
			     (no_body ? WR_TCP_HTTP_F_NO_BODY : 0));
	s->parse = 0;
	s->left = 0;
}

bool
wr_tcp_http_idle(const struct wr_tcp_http_st *s)
{
	return s->phase == P_BEGIN;
}

bool
wr_tcp_http_bad(const struct wr_tcp_http_st *s)
{
	return s->phase == P_BAD;
}

uint64_t
wr_tcp_http_blind(const struct wr_tcp_http_st *s)
{
	switch (s->phase) {
	case P_LENGTH:
	case P_CDATA:
		return s->left & LEN_MASK;
	case P_TO_CLOSE:
		return UINT64_MAX;
	default:
		return 0;
	}
}

uint64_t
wr_tcp_http_body_off(const struct wr_tcp_http_st *s, uint64_t body_len)
{
	if (s->phase != P_LENGTH || (s->left & LEN_MASK) > body_len)
		return UINT64_MAX;
	return body_len - (s->left & LEN_MASK);
}

/* The token a Connection / Transfer-Encoding value is matched against. */
static const char *
token_want(uint16_t parse)
{
	if (PF_FIELD(parse) == H_TE)
		return "chunked";
	return (parse & PF_KEEP) ? "keep-alive" : "close";
}

/* A token of a Connection or Transfer-Encoding value ended. */
static void
token_end(struct wr_tcp_http_st *s)
{
	unsigned int f = PF_FIELD(s->parse);
	bool hit;

	if (!(s->parse & PF_TOKEN))
		return; /* an empty list element: ", ," */
	hit = !(s->parse & PF_FAIL) &&
	      PF_POS(s->parse) == strlen(token_want(s->parse));
	if (f == H_CONN) {
		if (hit)
			s->flags |= (s->parse & PF_KEEP) ? WR_TCP_HTTP_F_KEEP :
				    WR_TCP_HTTP_F_CLOSE;
	} else if (hit) {
		s->flags |= WR_TCP_HTTP_F_CHUNKED;
	} else {
		/* The last coding decides (RFC 9112 6.3: chunked must be
		 * the final one; a response coded after it ends at the
		 * close). */
		s->flags &= (uint8_t)~WR_TCP_HTTP_F_CHUNKED;
	}
	s->parse = (uint16_t)f;
}

/* One byte of a Connection / Transfer-Encoding value (not LF). */
static void
token_byte(struct wr_tcp_http_st *s, uint8_t c)
{
	unsigned int pos = PF_POS(s->parse);
	const char *want;

	if (c == ',') {
		token_end(s);
		return;
	}
	if (blank(c) || c == '\r') {
		if (s->parse & PF_TOKEN)
			s->parse |= PF_ENDED;
		return;
	}
	if (s->parse & PF_ENDED)
		s->parse |= PF_FAIL; /* a blank inside: "clo se" */
	if (!(s->parse & PF_TOKEN)) {
		s->parse |= PF_TOKEN;
		if (PF_FIELD(s->parse) == H_CONN && lower(c) == 'k')
			s->parse |= PF_KEEP;
	}
	if (s->parse & PF_FAIL)
		return;
	want = token_want(s->parse);
	if (pos < strlen(want) && lower(c) == (uint8_t)want[pos])
		s->parse = (uint16_t)((s->parse & ~(63u << 2)) | ((pos + 1) << 2));
	else
		s->parse |= PF_FAIL;
}

/* One byte of a field value (not LF).  @return false: bad. */
static bool
value_byte(struct wr_tcp_http_st *s, uint8_t c)
{
	uint64_t len;

	switch (PF_FIELD(s->parse)) {
	case H_LENGTH:
		if (blank(c) || c == '\r') {
			if (s->parse & PF_TOKEN)
				s->parse |= PF_ENDED;
			return true;
		}
		if (c < '0' || c > '9' || (s->parse & PF_ENDED))
			return false;
		len = s->left & LEN_MASK;
		if (len > (LEN_MASK - 9) / 10)
			return false; /* beyond any length we could count */
		len = len * 10 + (uint64_t)(c - '0');
		s->left = (s->left & ~LEN_MASK) | len;
		s->parse |= PF_TOKEN;
		return true;
	case H_TE:
	case H_CONN:
		token_byte(s, c);
		return true;
	default:
		return true;
	}
}

/* The field value ended (LF). */
static bool
value_end(struct wr_tcp_http_st *s)
{
	switch (PF_FIELD(s->parse)) {
	case H_LENGTH:
		if (!(s->parse & PF_TOKEN))
			return false; /* "Content-Length:" with no digits */
		s->flags |= WR_TCP_HTTP_F_LENGTH;
		return true;
	case H_TE:
	case H_CONN:
		token_end(s);
		return true;
	default:
		return true;
	}
}

/* A field value begins: a Content-Length starts again (the last one
 * read frames the message). */
static void
value_begin(struct wr_tcp_http_st *s, unsigned int field)
{
	s->parse = (uint16_t)field;
	if (field == H_LENGTH)
		s->left &= ~LEN_MASK;
}

/* One byte of a field name (not ':' nor LF). */
static void
name_byte(struct wr_tcp_http_st *s, uint8_t c)
{
	unsigned int f = PF_FIELD(s->parse), pos = PF_POS(s->parse), j;

	c = lower(c);
	if (f == H_NONE && pos > 0)
		return; /* already no framing field */
	if (f != H_NONE && pos < name_len[f] && (uint8_t)names[f][pos] == c) {
		s->parse = (uint16_t)(f | ((pos + 1) << 2));
		return;
	}
	/* Another name sharing the prefix read so far ("con" of
	 * content-length and connection). */
	for (j = 1; j < H__N; j++)
		if (pos < name_len[j] && (uint8_t)names[j][pos] == c &&
		    (pos == 0 || memcmp(names[j], names[f], pos) == 0)) {
			s->parse = (uint16_t)(j | ((pos + 1) << 2));
			return;
		}
	s->parse = (uint16_t)(H_NONE | (1u << 2)); /* pos > 0: given up */
}

/* The peer closes after this message: Connection: close, or HTTP/1.0
 * without keep-alive (RFC 9112 9.3). */
static bool
closes(uint8_t f)
{
	return (f & WR_TCP_HTTP_F_CLOSE) ||
	       ((f & WR_TCP_HTTP_F_HTTP10) && !(f & WR_TCP_HTTP_F_KEEP));
}

/* The head ended (its blank line): where the body is.  The status stays
 * in left's top bits until the message ends. */
static void
head_end(struct wr_tcp_http_st *s)
{
	uint64_t status = s->left >> LEN_BITS;
	uint8_t f = s->flags;

	s->parse = 0;
	if (f & WR_TCP_HTTP_F_RESPONSE) {
		if (status >= 100 && status < 200 && status != 101) {
			/* Interim (100 Continue, 103 Early Hints): the
			 * final response follows (RFC 9110 15.2). */
			wr_tcp_http_begin(s, true, f & WR_TCP_HTTP_F_NO_BODY);
			return;
		}
		/* RFC 9112 6.3: no body after HEAD, 1xx, 204, 304. */
		if ((f & WR_TCP_HTTP_F_NO_BODY) || status < 200 ||
		    status == 204 || status == 304) {
			s->phase = P_DONE;
			return;
		}
	}
	if (f & WR_TCP_HTTP_F_CHUNKED) {
		s->left &= ~LEN_MASK;
		s->phase = P_CSIZE;
	} else if (f & WR_TCP_HTTP_F_LENGTH) {
		s->phase = (s->left & LEN_MASK) > 0 ? P_LENGTH : P_DONE;
	} else if (f & WR_TCP_HTTP_F_RESPONSE) {
		s->phase = P_TO_CLOSE;
	} else {
		s->phase = P_DONE; /* a request without a body */
	}
}

/* "HTTP/1." matched at parse's position; @return false: bad. */
static bool
version_byte(struct wr_tcp_http_st *s, uint8_t c, uint8_t next)
{
	static const char ver[] = "HTTP/1.";

	if (c != (uint8_t)ver[s->parse])
		return false;
	if (++s->parse == sizeof(ver) - 1) {
		s->parse = 0;
		s->phase = next;
	}
	return true;
}

/* One byte of the start line.  @return false: bad. */
static bool
start_byte(struct wr_tcp_http_st *s, uint8_t c)
{
	switch (s->phase) {
	case P_BEGIN:
		if (s->flags & WR_TCP_HTTP_F_RESPONSE) {
			s->phase = P_VER;
			return version_byte(s, c, P_VER_MINOR);
		}
		if (c == '\r' || c == '\n')
			return true; /* RFC 9112 2.2: blank lines before a request */
		s->phase = P_METHOD;
		return tchar(c);
	case P_VER:
		return version_byte(s, c, P_VER_MINOR);
	case P_VER_MINOR:
	case P_RVER_MINOR:
		if (c < '0' || c > '9')
			return false;
		if (c == '0')
			s->flags |= WR_TCP_HTTP_F_HTTP10;
		s->phase = s->phase == P_VER_MINOR ? P_SP : P_REOL;
		return true;
	case P_SP:
		if (c != ' ')
			return false;
		s->phase = P_CODE;
		return true;
	case P_CODE:
		if (c == ' ' && s->parse == 0)
			return true; /* a second space before the code */
		if (c < '0' || c > '9')
			return false;
		s->left = ((s->left >> LEN_BITS) * 10 + (uint64_t)(c - '0')) << LEN_BITS;
		if (++s->parse == 3) {
			uint64_t st = s->left >> LEN_BITS;

			if (st < 100 || st > 599)
				return false; /* outside RFC 9110 15's classes */
			s->parse = 0;
			s->phase = P_REASON;
		}
		return true;
	case P_REASON:
		if (s->parse == 0 && c != ' ' && c != '\r')
			return false; /* "2000": a fourth digit */
		s->parse = 1;
		return true;
	case P_METHOD:
		if (c == ' ') {
			s->phase = P_TARGET;
			s->parse = 0;
			return true;
		}
		return tchar(c);
	case P_TARGET:
		if (c == ' ') {
			if (s->parse == 0)
				return false;
			s->phase = P_RVER;
			s->parse = 0;
			return true;
		}
		s->parse = 1;
		return c > ' ' && c != 0x7f;
	case P_RVER:
		return version_byte(s, c, P_RVER_MINOR);
	case P_REOL:
		return c == '\r';
	default:
		return false;
	}
}

/* A LF in the head: @return false: bad. */
static bool
head_lf(struct wr_tcp_http_st *s)
{
	switch (s->phase) {
	case P_BEGIN:
		return !(s->flags & WR_TCP_HTTP_F_RESPONSE);
	case P_REASON:
	case P_REOL:
		s->phase = P_LINE;
		s->parse = 0;
		return true;
	case P_LINE:
		head_end(s);
		return true;
	case P_NAME:
		return false; /* a line without a colon (RFC 9112 5) */
	case P_VALUE:
		if (!value_end(s))
			return false;
		s->phase = P_LINE;
		s->parse = 0;
		return true;
	case P_SKIP:
		s->phase = P_LINE;
		s->parse = 0;
		return true;
	default:
		return false;
	}
}

/* One head byte other than LF.  @return false: bad. */
static bool
head_byte(struct wr_tcp_http_st *s, uint8_t c)
{
	switch (s->phase) {
	case P_LINE:
		if (c == '\r')
			return true;
		if (blank(c)) {
			s->phase = P_SKIP; /* obs-fold: a value's continuation */
			return true;
		}
		if (!tchar(c))
			return false;
		s->phase = P_NAME;
		s->parse = 0;
		name_byte(s, c);
		return true;
	case P_NAME:
		if (c == ':') {
			unsigned int f = PF_FIELD(s->parse);

			if (f != H_NONE && PF_POS(s->parse) != name_len[f])
				f = H_NONE; /* a prefix: "connect:" */
			value_begin(s, f);
			s->phase = P_VALUE;
			return true;
		}
		if (!tchar(c))
			return false; /* RFC 9112 5.1: no blank before ':' */
		name_byte(s, c);
		return true;
	case P_VALUE:
		return value_byte(s, c);
	case P_SKIP:
		return true;
	default:
		return start_byte(s, c);
	}
}

/* One byte of a chunked body's framing (not data).  @return false: bad. */
static bool
chunk_byte(struct wr_tcp_http_st *s, uint8_t c)
{
	int h;

	switch (s->phase) {
	case P_CSIZE:
		h = hexval(c);
		if (h >= 0 && !(s->parse & PF_ENDED)) {
			if ((s->left & LEN_MASK) > (LEN_MASK >> 4))
				return false;
			s->left = (s->left & ~LEN_MASK) |
				  ((s->left & LEN_MASK) * 16 + (uint64_t)h);
			s->parse |= PF_TOKEN;
			return true;
		}
		if (!(s->parse & PF_TOKEN))
			return false; /* no digits */
		if (blank(c) || c == '\r') {
			s->parse |= PF_ENDED;
			return true;
		}
		if (c == ';') {
			s->phase = P_CEXT;
			return true;
		}
		if (c != '\n')
			return false;
		/* fall through: the size line ended */
		/* FALLTHROUGH */
	case P_CEXT:
		if (c != '\n')
			return true;
		s->parse = 0;
		s->phase = (s->left & LEN_MASK) > 0 ? P_CDATA : P_TRAILER;
		return true;
	case P_CDATA_END:
		if (c == '\r' && s->parse == 0) {
			s->parse = 1;
			return true;
		}
		if (c != '\n')
			return false;
		s->parse = 0;
		s->phase = P_CSIZE;
		return true;
	case P_TRAILER:
		if (c == '\r')
			return true;
		if (c == '\n') {
			s->phase = P_DONE;
			return true;
		}
		s->phase = P_TSKIP;
		return true;
	case P_TSKIP:
		if (c == '\n')
			s->phase = P_TRAILER;
		return true;
	default:
		return false;
	}
}

void
wr_tcp_http_feed(struct wr_tcp_http_st *s, const uint8_t *p, uint32_t len,
		 struct wr_tcp_http_res *r)
{
	uint32_t i = 0;

	memset(r, 0, sizeof(*r));
	if (s->phase == P_BAD) {
		r->ev = WR_TCP_HTTP_BAD;
		return;
	}
	while (i < len && s->phase != P_DONE) {
		bool ok;

		if (s->phase == P_LENGTH || s->phase == P_CDATA) {
			uint64_t left = s->left & LEN_MASK;
			uint64_t n = len - i < left ? len - i : left;

			i += (uint32_t)n;
			s->left -= n; /* the low bits: no borrow */
			if (n == left)
				s->phase = s->phase == P_LENGTH ? P_DONE : P_CDATA_END;
			continue;
		}
		if (s->phase == P_TO_CLOSE) {
			i = len;
			break;
		}
		if (p == NULL)
			ok = false; /* framing bytes are never blind */
		else if (s->phase >= P_CSIZE)
			ok = chunk_byte(s, p[i]);
		else if (p[i] == '\n')
			ok = head_lf(s);
		else
			ok = head_byte(s, p[i]);
		if (!ok) {
			s->phase = P_BAD;
			r->used = i;
			r->ev = WR_TCP_HTTP_BAD;
			return;
		}
		i++;
		if (s->phase == P_LENGTH || s->phase == P_CDATA)
			break; /* a body begins: the caller may check it */
	}
	r->used = i;
	if (s->phase == P_DONE) {
		r->ev = WR_TCP_HTTP_DONE;
		r->status = (uint16_t)(s->left >> LEN_BITS);
		r->close = closes(s->flags);
	}
}

void
wr_tcp_http_eof(struct wr_tcp_http_st *s, struct wr_tcp_http_res *r)
{
	memset(r, 0, sizeof(*r));
	if (s->phase == P_TO_CLOSE) {
		s->phase = P_DONE;
		r->ev = WR_TCP_HTTP_DONE;
		r->status = (uint16_t)(s->left >> LEN_BITS);
		r->to_close = true;
		r->close = true;
	} else if (s->phase == P_BEGIN || s->phase == P_DONE) {
		r->ev = WR_TCP_HTTP_MORE;
	} else {
		s->phase = P_BAD;
		r->ev = WR_TCP_HTTP_BAD;
	}
}

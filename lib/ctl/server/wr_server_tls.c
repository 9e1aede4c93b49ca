/* SPDX-License-Identifier: BSD-3-Clause */
/* wr_server_tls: TLS of the --otg listener of `wirerate serve` (OpenSSL, non-blocking, in the one epoll loop): its connections' reads and writes, the certificate made at start or loaded, client certificates asked for. */
#include <ifaddrs.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "wr_server_priv.h"

/* ---- reads and writes ---- */

/* A TLS call's failure as recv()/send() say theirs: -1 with EAGAIN when
 * it waits for the socket (a read that must write first asks for EPOLLOUT),
 * 0 when the peer closed, -1 with EIO when the session broke. */
static ssize_t
tls_fail(struct conn *c, int rc, bool reading)
{
	switch (SSL_get_error(c->ssl, rc)) {
	case SSL_ERROR_WANT_WRITE:
		if (reading)
			c->tls_wwant = true;
		/* fall through */
	case SSL_ERROR_WANT_READ:
		errno = EAGAIN;
		return -1;
	case SSL_ERROR_ZERO_RETURN:
		return 0;
	default:
		ERR_clear_error();
		errno = EIO;
		return -1;
	}
}

ssize_t
wr_srv_io_recv(struct conn *c, void *buf, size_t len)
{
	size_t n = 0;
	int rc;

	if (c->ssl == NULL)
		return read(c->fd, buf, len);
	/* The handshake too: an accepting SSL does it in its first reads. */
	rc = SSL_read_ex(c->ssl, buf, len, &n);
	return rc == 1 ? (ssize_t)n : tls_fail(c, rc, true);
}

ssize_t
wr_srv_io_send(struct conn *c, const void *buf, size_t len)
{
	size_t n = 0;
	int rc;

	if (c->ssl == NULL)
		return send(c->fd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	/* Before the handshake is done (a 401 answered at once): wait for
	 * the reads that finish it. */
	if (!SSL_is_init_finished(c->ssl)) {
		errno = EAGAIN;
		return -1;
	}
	rc = SSL_write_ex(c->ssl, buf, len, &n);
	return rc == 1 ? (ssize_t)n : tls_fail(c, rc, false);
}

bool
wr_srv_io_pending(const struct conn *c)
{
	return c->ssl != NULL && SSL_pending(c->ssl) > 0;
}

bool
wr_srv_tls_conn(struct server *s, struct conn *c)
{
	if (s->tls == NULL)
		return true;
	c->ssl = SSL_new(s->tls);
	if (c->ssl == NULL || SSL_set_fd(c->ssl, c->fd) != 1) {
		SSL_free(c->ssl);
		c->ssl = NULL;
		ERR_clear_error();
		return false;
	}
	SSL_set_accept_state(c->ssl);
	return true;
}

/* A close_notify when the session is up (one try: the socket is
 * non-blocking and the peer may be gone), then the session freed. */
void
wr_srv_tls_close(struct conn *c)
{
	if (c->ssl == NULL)
		return;
	if (SSL_is_init_finished(c->ssl))
		SSL_shutdown(c->ssl);
	SSL_free(c->ssl);
	c->ssl = NULL;
	ERR_clear_error();
}

/* ---- the certificate ---- */

/* OpenSSL's reason for what just failed, for an error message. */
static const char *
tls_why(void)
{
	static char why[160];
	unsigned long e = ERR_peek_last_error();

	if (e == 0)
		return "unknown error";
	ERR_error_string_n(e, why, sizeof(why));
	ERR_clear_error();
	return why;
}

/* The names a client may reach @p host by: that address; the loopback's
 * names when it is one; every IPv4 address of the machine (as now) when
 * it is 0.0.0.0. */
static void
san_of(const char *host, char *san, size_t len)
{
	struct ifaddrs *ifs = NULL, *i;
	struct in_addr a;
	char ip[INET_ADDRSTRLEN];
	size_t n;

	if (inet_pton(AF_INET, host, &a) == 1 && a.s_addr == htonl(INADDR_ANY)) {
		snprintf(san, len, "DNS:localhost");
		if (getifaddrs(&ifs) != 0)
			return;
		for (i = ifs; i != NULL; i = i->ifa_next) {
			if (i->ifa_addr == NULL || i->ifa_addr->sa_family != AF_INET ||
			    inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)
					       i->ifa_addr)->sin_addr, ip,
				      sizeof(ip)) == NULL)
				continue;
			n = strlen(san);
			if (len - n > sizeof(ip) + 4)
				snprintf(san + n, len - n, ",IP:%s", ip);
		}
		freeifaddrs(ifs);
	} else if ((ntohl(a.s_addr) >> 24) == 127) {
		snprintf(san, len, "IP:%s,IP:127.0.0.1,IP:::1,DNS:localhost",
			 host);
	} else {
		snprintf(san, len, "IP:%s", host);
	}
}

/* EC P-256, self-signed, valid from an hour ago for a year, its subject
 * alternative names the address the listener is on (and the loopback's
 * names when that is where it is): made in memory at each start, never
 * written anywhere. */
static int
make_cert(SSL_CTX *ctx, const char *host, struct wr_error *err)
{
	static const char *const names[] = { "CN", "wirerate OTG" };
	EVP_PKEY *pk = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509V3_CTX v3;
	X509_EXTENSION *ext;
	X509_NAME *nm;
	uint64_t serial = 0;
	char san[1024];
	int rc = -EIO;

	if (pk == NULL || x == NULL ||
	    RAND_bytes((unsigned char *)&serial, sizeof(serial)) != 1)
		goto out;
	serial >>= 1; /* a positive serial number */
	nm = X509_get_subject_name(x);
	if (X509_set_version(x, 2) != 1 ||
	    ASN1_INTEGER_set_uint64(X509_get_serialNumber(x), serial) != 1 ||
	    X509_gmtime_adj(X509_getm_notBefore(x), -3600) == NULL ||
	    X509_gmtime_adj(X509_getm_notAfter(x), 365L * 86400) == NULL ||
	    X509_set_pubkey(x, pk) != 1 ||
	    X509_NAME_add_entry_by_txt(nm, names[0], MBSTRING_ASC,
				       (const unsigned char *)names[1], -1, -1,
				       0) != 1 ||
	    X509_set_issuer_name(x, nm) != 1)
		goto out;
	san_of(host, san, sizeof(san));
	X509V3_set_ctx(&v3, x, x, NULL, NULL, 0);
	{
		const struct { int nid; const char *v; } exts[] = {
			{ NID_subject_alt_name, san },
			{ NID_basic_constraints, "critical,CA:FALSE" },
			{ NID_ext_key_usage, "serverAuth" },
			{ NID_subject_key_identifier, "hash" },
		};
		size_t i;

		for (i = 0; i < RTE_DIM(exts); i++) {
			ext = X509V3_EXT_conf_nid(NULL, &v3, exts[i].nid,
						  exts[i].v);
			if (ext == NULL || X509_add_ext(x, ext, -1) != 1) {
				X509_EXTENSION_free(ext);
				goto out;
			}
			X509_EXTENSION_free(ext);
		}
	}
	if (X509_sign(x, pk, EVP_sha256()) == 0 ||
	    SSL_CTX_use_certificate(ctx, x) != 1 ||
	    SSL_CTX_use_PrivateKey(ctx, pk) != 1)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		wr_error_set(err, rc, NULL, 0, 0, "--otg", "cannot make a "
			     "certificate: %s", tls_why());
	X509_free(x);
	EVP_PKEY_free(pk);
	return rc;
}

/* The context every --otg connection's TLS is made from: TLS 1.2 and up,
 * writes that may be partial and retried from a moved buffer (the
 * connection's queue moves), the certificate of --tls-cert/--tls-key or
 * one made now, client certificates asked for (not required: a token
 * does too) when --tls-client-ca gives their CA. */
static int
tls_ctx(const struct wr_server_opts *o, bool make, SSL_CTX **out,
	struct wr_error *err)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	STACK_OF(X509_NAME) *cas;
	int rc = 0;

	if (ctx == NULL)
		return wr_error_set(err, -ENOMEM, NULL, 0, 0, "--otg",
				    "TLS: %s", tls_why());
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE |
			 SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	if (o->tls_cert != NULL) {
		if (SSL_CTX_use_certificate_chain_file(ctx, o->tls_cert) != 1)
			rc = wr_error_set(err, -EINVAL, NULL, 0, 0,
					  "--tls-cert", "%s: not a PEM "
					  "certificate (chain): %s",
					  o->tls_cert, tls_why());
		else if (SSL_CTX_use_PrivateKey_file(ctx, o->tls_key,
						     SSL_FILETYPE_PEM) != 1)
			rc = wr_error_set(err, -EINVAL, NULL, 0, 0,
					  "--tls-key", "%s: not a PEM private "
					  "key: %s", o->tls_key, tls_why());
		else if (SSL_CTX_check_private_key(ctx) != 1)
			rc = wr_error_set(err, -EINVAL, NULL, 0, 0,
					  "--tls-key", "%s is not the key of "
					  "%s's certificate", o->tls_key,
					  o->tls_cert);
	} else if (make) {
		rc = make_cert(ctx, o->otg_host, err);
	}
	if (rc == 0 && o->tls_client_ca != NULL) {
		cas = SSL_load_client_CA_file(o->tls_client_ca);
		if (cas == NULL ||
		    SSL_CTX_load_verify_locations(ctx, o->tls_client_ca,
						  NULL) != 1) {
			sk_X509_NAME_pop_free(cas, X509_NAME_free);
			rc = wr_error_set(err, -EINVAL, NULL, 0, 0,
					  "--tls-client-ca", "%s: not PEM "
					  "CA certificates: %s",
					  o->tls_client_ca, tls_why());
		} else {
			SSL_CTX_set_client_CA_list(ctx, cas);
			SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
		}
	}
	if (rc != 0) {
		SSL_CTX_free(ctx);
		return rc;
	}
	*out = ctx;
	return 0;
}

int
wr_srv_tls_check(const struct wr_server_opts *o, struct wr_error *err)
{
	SSL_CTX *ctx = NULL;
	int rc = tls_ctx(o, false, &ctx, err);

	SSL_CTX_free(ctx);
	return rc;
}

int
wr_srv_tls_open(struct server *s, struct wr_error *err)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;
	X509 *x;
	int rc;

	if (!s->o->otg_tls)
		return 0;
	rc = tls_ctx(s->o, true, &s->tls, err);
	if (rc != 0)
		return rc;
	/* Its SHA-256 fingerprint, as `openssl x509 -fingerprint -sha256`
	 * prints it: what a lab pins when it does not check a chain. */
	x = SSL_CTX_get0_certificate(s->tls);
	if (x == NULL || X509_digest(x, EVP_sha256(), md, &n) != 1 || n != 32)
		return wr_error_set(err, -EIO, NULL, 0, 0, "--otg", "the "
				    "certificate's fingerprint: %s", tls_why());
	for (i = 0; i < n; i++)
		snprintf(s->tls_fp + (i ? 3 * i - 1 : 0), 4, "%s%02X",
			 i ? ":" : "", md[i]);
	return 0;
}

void
wr_srv_tls_free(struct server *s)
{
	SSL_CTX_free(s->tls);
	s->tls = NULL;
}

/*
 * What the webhook loads and reloads (serve_internal.h): the profile, one
 * copy per worker, and the serving certificate.
 */
#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/input.h"
#include "wingen/chain/chain.h"

/* ---- the profile pool --------------------------------------------------- */

/* One generation: copies of one text. */
struct pset {
	struct wg_profile *copies;
	size_t n;
	struct wg_profile **free;	/* the copies not taken */
	size_t nfree;
	char *text;	/* what they were loaded from; NULL: the default */
	size_t len;
	size_t out;	/* copies taken */
	bool retired;
};

struct wg_pool {
	pthread_mutex_t mu;
	pthread_cond_t back;	/* a copy came back */
	struct pset *cur;
	unsigned copies;
	char *failed;	/* the text that last failed to load, or NULL: */
	size_t failed_len;	/* the same text again is no news */
};

static void pset_free(struct pset *s)
{
	for (size_t i = 0; i < s->n; i++)
		wg_profile_release(&s->copies[i]);
	free(s->copies);
	free(s->free);
	free(s->text);
	free(s);
}

struct wg_pool *wg_pool_new(unsigned copies)
{
	struct wg_pool *pool = wg_xcalloc(1, sizeof(*pool));

	pthread_mutex_init(&pool->mu, NULL);
	pthread_cond_init(&pool->back, NULL);
	pool->copies = copies ? copies : 1;
	return pool;
}

void wg_pool_free(struct wg_pool *pool)
{
	if (!pool)
		return;
	if (pool->cur)
		pset_free(pool->cur);
	free(pool->failed);
	pthread_cond_destroy(&pool->back);
	pthread_mutex_destroy(&pool->mu);
	free(pool);
}

static int load_copy(struct wg_ctx *ctx, const char *path, const char *text,
		     size_t len, struct wg_profile *out)
{
	struct wg_profile_opts popts;
	const struct wg_profile_opts *o = wg_chain_opts(NULL, &popts);

	if (!path)
		return wg_profile_load_default(ctx, o, out);
	return wg_profile_load_data(ctx, path, text, len, o, out);
}

int wg_pool_load(struct wg_pool *pool, struct wg_ctx *ctx, const char *path,
		 bool force, bool *unchanged)
{
	struct wg_input in = { 0 };
	struct pset *s, *old;
	bool same;

	*unchanged = false;
	if (path && wg_input_read(ctx, path, &in))
		return -1;
	pthread_mutex_lock(&pool->mu);
	old = pool->cur;
	same = old && (path ? old->text && old->len == in.len
				      && !memcmp(old->text, in.data, in.len)
			    : !old->text);
	pthread_mutex_unlock(&pool->mu);
	if (!same && path && pool->failed && pool->failed_len == in.len
	    && !memcmp(pool->failed, in.data, in.len))
		same = true;
	if (same && !force) {
		*unchanged = true;
		wg_input_release(&in);
		return 0;
	}
	s = wg_xcalloc(1, sizeof(*s));
	s->copies = wg_xcalloc(pool->copies, sizeof(*s->copies));
	s->free = wg_xcalloc(pool->copies, sizeof(*s->free));
	if (path) {
		s->len = in.len;
		s->text = wg_input_take_data(&in);
	}
	wg_input_release(&in);
	for (; s->n < pool->copies; s->n++) {
		/* the first load reports; the others read the same text */
		struct wg_ctx quiet, *c = ctx;

		if (s->n) {
			wg_ctx_init(&quiet);
			c = &quiet;
		}
		if (load_copy(c, path, s->text, s->len, &s->copies[s->n])) {
			if (c != ctx)
				wg_ctx_release(&quiet);
			free(pool->failed);
			pool->failed = s->text;
			pool->failed_len = s->len;
			s->text = NULL;
			pset_free(s);
			return -1;
		}
		if (c != ctx)
			wg_ctx_release(&quiet);
		s->free[s->nfree++] = &s->copies[s->n];
	}
	free(pool->failed);
	pool->failed = NULL;
	pthread_mutex_lock(&pool->mu);
	old = pool->cur;
	pool->cur = s;
	if (old) {
		old->retired = true;
		if (old->out)
			old = NULL;	/* freed when the last copy is back */
	}
	pthread_mutex_unlock(&pool->mu);
	if (old)
		pset_free(old);
	return 0;
}

const struct wg_profile *wg_pool_take(struct wg_pool *pool, void **token)
{
	struct wg_profile *p;
	struct pset *s;

	pthread_mutex_lock(&pool->mu);
	while (!pool->cur->nfree)
		pthread_cond_wait(&pool->back, &pool->mu);
	s = pool->cur;
	p = s->free[--s->nfree];
	s->out++;
	pthread_mutex_unlock(&pool->mu);
	*token = s;
	return p;
}

void wg_pool_give(struct wg_pool *pool, void *token, const struct wg_profile *p)
{
	struct pset *s = token, *done = NULL;

	pthread_mutex_lock(&pool->mu);
	s->out--;
	if (s->retired && !s->out)
		done = s;
	else
		s->free[s->nfree++] = (struct wg_profile *)p;
	pthread_cond_signal(&pool->back);
	pthread_mutex_unlock(&pool->mu);
	if (done)
		pset_free(done);
}

/* ---- the certificate ---------------------------------------------------- */

#define MAX_CHAIN 16

struct cert {
	gnutls_pcert_st pcert[MAX_CHAIN];
	unsigned n;
	gnutls_privkey_t key;
	char *cert_text, *key_text;	/* as read, to see a change */
	size_t cert_len, key_len;
	struct cert *older;
};

/* The certificate served; older ones hang off it until released. */
static _Atomic(struct cert *) current;

static void cert_free(struct cert *c)
{
	for (unsigned i = 0; i < c->n; i++)
		gnutls_pcert_deinit(&c->pcert[i]);
	if (c->key)
		gnutls_privkey_deinit(c->key);
	if (c->key_text) {
		/* a private key does not linger in freed memory */
		memset(c->key_text, 0, c->key_len);
		free(c->key_text);
	}
	free(c->cert_text);
	free(c);
}

void wg_certs_release(void)
{
	struct cert *c = atomic_exchange(&current, NULL);

	while (c) {
		struct cert *next = c->older;

		cert_free(c);
		c = next;
	}
}

int wg_certs_retrieve(gnutls_session_t session, const gnutls_datum_t *req_ca,
		      int nreqs, const gnutls_pk_algorithm_t *pk_algos,
		      int pk_algos_length, gnutls_pcert_st **pcert,
		      unsigned *pcert_length, gnutls_privkey_t *key)
{
	struct cert *c = atomic_load(&current);

	(void)session, (void)req_ca, (void)nreqs, (void)pk_algos;
	(void)pk_algos_length;
	if (!c)
		return -1;
	*pcert = c->pcert;
	*pcert_length = c->n;
	*key = c->key;
	return 0;
}

/* Whether the key is the certificate's: their public keys match. */
static bool key_fits(struct cert *c)
{
	gnutls_pubkey_t from_key = NULL;
	gnutls_datum_t a = { NULL, 0 }, b = { NULL, 0 };
	bool fits = false;

	if (gnutls_pubkey_init(&from_key) == 0
	    && gnutls_pubkey_import_privkey(from_key, c->key, 0, 0) == 0
	    && gnutls_pubkey_export2(from_key, GNUTLS_X509_FMT_DER, &a) == 0
	    && gnutls_pubkey_export2(c->pcert[0].pubkey, GNUTLS_X509_FMT_DER,
				     &b) == 0)
		fits = a.size == b.size && !memcmp(a.data, b.data, a.size);
	gnutls_free(a.data);
	gnutls_free(b.data);
	if (from_key)
		gnutls_pubkey_deinit(from_key);
	return fits;
}

/* When the leaf certificate expires (0: unknown). */
static time_t expiry(const struct cert *c)
{
	gnutls_x509_crt_t crt;
	time_t t = 0;

	if (gnutls_x509_crt_init(&crt) < 0)
		return 0;
	if (gnutls_x509_crt_import(crt, &c->pcert[0].cert,
				   GNUTLS_X509_FMT_DER) == 0)
		t = gnutls_x509_crt_get_expiration_time(crt);
	gnutls_x509_crt_deinit(crt);
	return t;
}

int wg_certs_load(struct wg_ctx *ctx, const char *cert_file,
		  const char *key_file, bool *unchanged, struct wg_buf *note)
{
	struct wg_input cin = { 0 }, kin = { 0 };
	struct cert *c, *old = atomic_load(&current);
	gnutls_datum_t cd, kd;
	time_t until;
	int rc;

	*unchanged = false;
	if (wg_input_read(ctx, cert_file, &cin))
		return -1;
	if (wg_input_read(ctx, key_file, &kin)) {
		wg_input_release(&cin);
		return -1;
	}
	if (old && old->cert_len == cin.len && old->key_len == kin.len
	    && !memcmp(old->cert_text, cin.data, cin.len)
	    && !memcmp(old->key_text, kin.data, kin.len)) {
		*unchanged = true;
		wg_input_release(&cin);
		memset(kin.data, 0, kin.len);
		wg_input_release(&kin);
		return 0;
	}
	c = wg_xcalloc(1, sizeof(*c));
	c->cert_len = cin.len;
	c->cert_text = wg_input_take_data(&cin);
	c->key_len = kin.len;
	c->key_text = wg_input_take_data(&kin);
	wg_input_release(&cin);
	wg_input_release(&kin);
	cd = (gnutls_datum_t){ (unsigned char *)c->cert_text,
			       (unsigned)c->cert_len };
	kd = (gnutls_datum_t){ (unsigned char *)c->key_text,
			       (unsigned)c->key_len };
	c->n = MAX_CHAIN;
	rc = gnutls_pcert_list_import_x509_raw(c->pcert, &c->n, &cd,
					       GNUTLS_X509_FMT_PEM, 0);
	if (rc < 0) {
		c->n = 0;
		wg_report_at(ctx, WG_SEV_ERROR, cert_file, 0, 0, "not a PEM "
			     "certificate GnuTLS can use: %s",
			     gnutls_strerror(rc));
		goto fail;
	}
	if (c->n == 0) {
		wg_report_at(ctx, WG_SEV_ERROR, cert_file, 0, 0,
			     "no certificate in the file");
		goto fail;
	}
	rc = gnutls_privkey_init(&c->key);
	if (rc == 0)
		rc = gnutls_privkey_import_x509_raw(c->key, &kd,
						    GNUTLS_X509_FMT_PEM,
						    NULL, 0);
	if (rc < 0) {
		wg_report_at(ctx, WG_SEV_ERROR, key_file, 0, 0, "not a PEM "
			     "private key GnuTLS can use (unencrypted): %s",
			     gnutls_strerror(rc));
		goto fail;
	}
	if (!key_fits(c)) {
		wg_report_at(ctx, WG_SEV_ERROR, key_file, 0, 0, "this key is "
			     "not the key of the certificate in %s",
			     cert_file);
		goto fail;
	}
	until = expiry(c);
	if (note && until) {
		struct tm tm;
		char when[32];

		gmtime_r(&until, &tm);
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
		wg_buf_addf(note, "%s%s", until < time(NULL)
			    ? "EXPIRED " : "", when);
	}
	c->older = old;
	atomic_store(&current, c);
	return 0;
fail:
	cert_free(c);
	return -1;
}

#ifndef WINGEN_SERVE_INTERNAL_H
#define WINGEN_SERVE_INTERNAL_H

/*
 * Between the files of src/serve: the profile pool and the certificate
 * (assets.c), log lines (logline.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <gnutls/abstract.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/profile/profile.h"
#include "wingen/serve/server.h"

/* ---- the profile: one loaded copy per worker --------------------------- */

/*
 * A loaded profile is read only, but matching its patterns writes the
 * PCRE2 match data each pattern keeps (base/regex.h): so each worker
 * thread takes a copy of its own for a request, and gives it back.  A
 * reload loads a whole new set of copies from the file's text, once, and
 * swaps it in; the old set is freed when its last copy comes back.
 */
struct wg_pool;

struct wg_pool *wg_pool_new(unsigned copies);
void wg_pool_free(struct wg_pool *pool);

/*
 * Loads path (NULL: the embedded default profile) into a new set and
 * makes it current.  The text is read once; when it is the text of the
 * current set, nothing is loaded and *unchanged is set (force loads it
 * all the same).  Returns 0, or -1 with the problems on ctx (the current
 * set stays).
 */
int wg_pool_load(struct wg_pool *pool, struct wg_ctx *ctx, const char *path,
		 bool force, bool *unchanged);

/* A copy of the current profile for one request (waits when every copy
 * is out), and its return. */
const struct wg_profile *wg_pool_take(struct wg_pool *pool, void **token);
void wg_pool_give(struct wg_pool *pool, void *token,
		  const struct wg_profile *p);

/* ---- the certificate ---------------------------------------------------- */

/*
 * The serving certificate: read from PEM files, its chain and key handed
 * to GnuTLS at each handshake by wg_certs_retrieve (libmicrohttpd's
 * MHD_OPTION_HTTPS_CERT_CALLBACK).  A reload swaps in a new one; old ones
 * are kept until wg_certs_release() (a handshake may still use one; a
 * rotation a month costs nothing).  One per process: GnuTLS's callback
 * has no argument.
 */
int wg_certs_load(struct wg_ctx *ctx, const char *cert_file,
		  const char *key_file, bool *unchanged, struct wg_buf *note);
void wg_certs_release(void);
gnutls_certificate_retrieve_function2 wg_certs_retrieve;

/* ---- log lines ---------------------------------------------------------- */

struct wg_logline {
	struct wg_buf b;
	enum wg_log_format format;
};

/* Begins a line: time, level and message. */
void wg_logline_begin(struct wg_logline *l, enum wg_log_format format,
		      enum wg_log_level level, const char *msg);
/* A field whose value is text (quoted as needed), or a number or a
 * boolean written as is. */
void wg_logline_str(struct wg_logline *l, const char *key, const char *value);
void wg_logline_raw(struct wg_logline *l, const char *key, const char *value);
/* Ends the line ("\n"); l->b holds it. */
void wg_logline_end(struct wg_logline *l);

#endif

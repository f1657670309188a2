#ifndef WINGEN_SERVE_REVIEW_H
#define WINGEN_SERVE_REVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/yaml/node.h"
#include "wingen/yaml/resource.h"

/*
 * The AdmissionReview codec (admission.k8s.io/v1), the contract of the
 * Kubernetes documentation "Dynamic Admission Control": a request body
 * read into a tree by wingen's JSON reader (yaml/json_reader.h: the tree
 * the YAML reader would make of it, from yajl's parse), and the response
 * written as JSON with the patch in base64 (GnuTLS's encoder).
 */

/* The API server's limit on one object in a request (3 MiB), and the
 * largest body read: an UPDATE carries object and oldObject. */
#define WG_REVIEW_MAX_OBJECT ((size_t)3 << 20)
#define WG_REVIEW_MAX_BODY ((size_t)7 << 20)

/* Why a body is no review wingen can answer (no uid to answer to): an
 * HTTP error, never a review that admits. */
enum wg_review_error {
	WG_REVIEW_OK = 0,
	WG_REVIEW_MALFORMED,	/* not JSON, or not one document */
	WG_REVIEW_NOT_REVIEW,	/* not an admission.k8s.io/v1 AdmissionReview
				   with a request mapping */
	WG_REVIEW_NO_UID,	/* request.uid missing or empty */
	WG_REVIEW_TOO_LARGE,	/* body over WG_REVIEW_MAX_BODY */
};

/* A request, as read.  Strings are NUL-terminated copies in the list's
 * arena ("" when absent); object and old_object are nodes of the tree
 * (NULL when absent or null). */
struct wg_review {
	const char *uid;
	const char *kind_group, *kind_version, *kind;	/* request.kind */
	const char *resource;		/* request.resource.resource */
	const char *sub_resource;
	const char *name, *namespace_;
	const char *operation;		/* CREATE, UPDATE, DELETE, CONNECT */
	bool dry_run;
	struct wg_node *object;
	struct wg_node *old_object;
	size_t object_bytes;		/* the object's JSON text, in bytes */
	size_t old_object_bytes;
};

/*
 * Reads body (len bytes, body[len] == '\0') into list's arena as a
 * review.  The tree points into body: keep body as long as list.
 * Returns WG_REVIEW_OK and fills *out, or an error with why set to a
 * one-line reason (in list's arena; a parse error keeps its line:col).
 * ctx gets the reader's diagnostics; its limits bound the tree (depth,
 * scalar size).  Nothing is printed.
 */
enum wg_review_error wg_review_decode(struct wg_ctx *ctx,
				      struct wg_resources *list,
				      const char *body, size_t len,
				      struct wg_review *out,
				      const char **why);

/* An answer to a review. */
struct wg_review_answer {
	bool allowed;
	int code;		/* status.code; 0: no status */
	const char *message;	/* status.message, or NULL */
	const char *patch;	/* an RFC 6902 patch as JSON text, or NULL */
	size_t patch_len;
	const char *const *warnings;	/* shown to kubectl users */
	size_t nwarnings;
};

/*
 * Appends the response AdmissionReview (admission.k8s.io/v1) answering
 * the request uid to out: response.uid, allowed, status, patchType
 * JSONPatch and the patch in base64, warnings.  Returns 0, or -1 when
 * the patch could not be encoded (nothing useful in out then).
 */
int wg_review_encode(struct wg_buf *out, const char *uid,
		     const struct wg_review_answer *answer);

/* The message of an error, for an HTTP error body. */
const char *wg_review_error_name(enum wg_review_error e);

#endif

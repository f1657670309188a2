/*
 * Selection: what would otherwise pass through untouched.  Objects of
 * kinds wingen does not know that hold a Windows image (in a pod
 * template, or anywhere); references a workload's pods depend on (a
 * TaskRun's taskRef) to objects the stream does not hold; and objects
 * other objects run (a Tekton Task) with Windows images that nothing in
 * the stream runs.  Each is a warning (an error with --strict) that names
 * what is missing and what would handle it.
 */
#include "select_internal.h"

#include <string.h>

#include "wingen/k8s/images.h"

/* ---- kinds wingen does not know ------------------------------------------ */

/* Pod-template-shaped maps below an object, at most this deep. */
#define SHAPE_DEPTH 12

struct shapes {
	struct wg_arena *arena;
	const char *paths[WG_KIND_MAX_TEMPLATES];	/* "[]" for items */
	size_t n;
	struct wg_node *first;		/* the first template found */
	const char *first_path;		/* its path, with indexes */
};

/* A map whose spec holds a containers list: a PodTemplateSpec. */
static bool template_shaped(const struct wg_node *m)
{
	return wg_is_map(m)
	       && wg_is_seq(wg_map_get(wg_map_get(m, "spec"), "containers"));
}

static void add_shape(struct shapes *sh, struct wg_node *n, const char *gen,
		      const char *exact)
{
	for (size_t i = 0; i < sh->n; i++)
		if (strcmp(sh->paths[i], gen) == 0)
			return;
	if (sh->n == WG_KIND_MAX_TEMPLATES)
		return;
	if (!sh->n) {
		sh->first = n;
		sh->first_path = wg_arena_strdup(sh->arena, exact);
	}
	sh->paths[sh->n++] = wg_arena_strdup(sh->arena, gen);
}

/* Walks n: gen is its path with "[]" for items, exact with indexes. */
static void find_shapes(struct shapes *sh, struct wg_node *n,
			struct wg_buf *gen, struct wg_buf *exact,
			unsigned depth)
{
	size_t glen = gen->len, elen = exact->len;

	if (depth > SHAPE_DEPTH)
		return;
	if (depth && template_shaped(n)) {
		add_shape(sh, n, gen->buf, exact->buf);
		return;
	}
	if (wg_is_map(n)) {
		for (size_t i = 0; i < n->len; i++) {
			const struct wg_node *k = wg_map_key(n, i);

			if (depth == 0 && (wg_scalar_is(k, "metadata")
					   || wg_scalar_is(k, "status")))
				continue;
			wg_path_append_key(gen, k->u.str, k->len);
			wg_path_append_key(exact, k->u.str, k->len);
			find_shapes(sh, wg_map_value(n, i), gen, exact,
				    depth + 1);
			gen->len = glen;
			gen->buf[glen] = '\0';
			exact->len = elen;
			exact->buf[elen] = '\0';
		}
	} else if (wg_is_seq(n)) {
		for (size_t i = 0; i < n->len; i++) {
			wg_buf_addstr(gen, "[]");
			wg_buf_addf(exact, "[%zu]", i);
			find_shapes(sh, wg_seq_item(n, i), gen, exact,
				    depth + 1);
			gen->len = glen;
			gen->buf[glen] = '\0';
			exact->len = elen;
			exact->buf[elen] = '\0';
		}
	}
}

static bool is_known_kind(const struct wg_resource *res)
{
	for (int k = 0; k < WG_KIND_KNOWN_COUNT; k++)
		if (wg_is_kind(res, (enum wg_known_kind)k))
			return true;
	return false;
}

/*
 * An object of a kind wingen does not know, holding a pod template whose
 * image a windows.select entry matches, or whose image names Windows
 * (images.h), would pass through untouched: its pods would land anywhere.
 * A warning (an error with --strict) names the object, the template and
 * the workloads: entry that would handle it.
 */
static bool unknown_template(struct wg_ctx *ctx, struct wg_resources *list,
			     struct wg_resource *res)
{
	const struct wg_profile *p = ctx->profile;
	const struct wg_node *api = wg_map_get(res->root, "apiVersion");
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	struct shapes sh = { .arena = &list->arena };
	struct wg_buf gen = WG_BUF_INIT, exact = WG_BUF_INIT;
	struct wg_buf paths = WG_BUF_INIT;
	struct wg_kind guess = { .name_max = 253, .origin = WG_KIND_DECLARED };
	struct wg_kind_set set = { &guess, 1 };
	struct wg_selection tmp = { 0 };
	struct wg_sel_match m = { ctx, res, 0 };
	struct wg_image_ref ref;
	const struct wg_node *img;
	const char *g, *what = NULL;
	size_t glen;
	bool said = false;	/* true: nothing more to look for */

	if (!wg_is_map(res->root) || !wg_is_scalar(kind)
	    || !wg_api_group(api, &g, &glen) || !glen || is_known_kind(res))
		return true;
	wg_buf_addstr(&gen, "");
	wg_buf_addstr(&exact, "");
	find_shapes(&sh, res->root, &gen, &exact, 0);
	wg_buf_release(&gen);
	if (!sh.n) {
		wg_buf_release(&exact);
		return false;
	}
	guess.kind = wg_scalar_dup(&list->arena, kind);
	guess.groups = wg_arena_strndup(&list->arena, g, glen);
	for (size_t i = 0; i < sh.n; i++)
		guess.templates[i] = sh.paths[i];
	tmp.npods = wg_podspec_find_all(&list->arena, &set, res, &tmp.pods);
	for (size_t i = 0; !what && i < p->nselect; i++) {
		int rc;

		if (!p->select[i].image)
			continue;
		m.entry = i;
		rc = wg_sel_entry_matches(&m, &p->select[i], &tmp);
		if (rc < 0) {
			said = true;	/* the PCRE2 error is said */
			goto out;
		}
		if (rc)
			what = wg_arena_printf(&list->arena, "an image "
					       "windows.select[%zu] matches",
					       i);
	}
	/* the one rule: an image that names Windows, whatever the profile
	 * selects by */
	if (!what && (img = wg_sel_windows_image(&tmp, &ref, &exact)))
		what = wg_arena_printf(&list->arena, "image '%.*s', which "
			"names Windows (%s)", (int)img->len, img->u.str,
			wg_image_windows_why(&list->arena, img->u.str, &ref));
	if (!what)
		goto out;
	for (size_t k = 0; k < sh.n; k++)
		wg_buf_addf(&paths, "%s\"%s\"", k ? ", " : "", sh.paths[k]);
	wg_warning(ctx, res, sh.first, sh.first_path, "holds a pod template "
		   "with %s, but %s of group %s is not a kind wingen knows, so "
		   "nothing schedules its pods; declare it in the profile: "
		   "workloads: [{group: %s, kind: %s, templates: [%s]}]", what,
		   guess.kind, guess.groups, guess.groups, guess.kind,
		   paths.buf);
	said = true;
out:
	wg_buf_release(&exact);
	wg_buf_release(&paths);
	return said;
}

/* ---- Windows images anywhere --------------------------------------------- */

/*
 * Whether image names Windows, and why (in arena): the one rule's reading
 * of it (images.h), or a windows.select image pattern of the profile.
 */
#define HUNT_PATHS 16

struct hunt {
	struct wg_ctx *ctx;
	struct wg_resource *res;
	struct wg_arena *arena;
	const struct wg_node *first;	/* the first Windows image */
	const char *first_path;
	const char *why;		/* why it names Windows */
	size_t n;			/* how many */
	const char *paths[HUNT_PATHS];	/* the first few's paths */
};

/*
 * Whether image (at path) names Windows, and why (in arena): the one
 * rule's reading of it (images.h), or a windows.select image pattern of
 * the profile.
 */
static const char *names_windows(struct hunt *h, const struct wg_node *image,
				 const char *path)
{
	const struct wg_profile *p = h->ctx->profile;
	struct wg_arena *a = h->arena;
	struct wg_image_ref ref;

	if (!wg_is_scalar(image) || !image->len)
		return NULL;
	wg_image_parse(image->u.str, image->len, &ref);
	if (ref.windows)
		return wg_image_windows_why(a, wg_scalar_dup(a, image), &ref);
	for (size_t i = 0; i < p->nselect; i++) {
		int rc;

		if (!p->select[i].image)
			continue;
		rc = wg_regex_match_within(h->ctx, p->select[i].image,
					   image->u.str, image->len);
		if (rc == -2)
			wg_sel_budget_spent(h->ctx, h->res, image, path, i,
					    "image", p->select[i].image);
		if (rc > 0)
			return wg_arena_printf(a, "windows.select[%zu] "
					       "matches it", i);
	}
	return NULL;
}

static int hunt_image(struct wg_node *node, struct wg_node *key,
		      const char *path, void *payload)
{
	struct hunt *h = payload;

	/* the object's own metadata and status hold no pod */
	if (!strncmp(path, "metadata", 8) || !strncmp(path, "status", 6))
		return 0;
	const char *why;

	if (!key || !wg_scalar_is(key, "image")
	    || !(why = names_windows(h, node, path)))
		return 0;
	if (h->n < HUNT_PATHS)
		h->paths[h->n] = wg_arena_strdup(h->arena, path);
	if (!h->n++) {
		h->why = why;
		h->first = node;
		h->first_path = h->paths[0];
	}
	return 0;
}

/* The Windows images of res: how many, the first and its path. */
static size_t windows_images(struct wg_ctx *ctx, struct wg_arena *arena,
			     struct wg_resource *res, struct hunt *h)
{
	memset(h, 0, sizeof(*h));
	h->ctx = ctx;
	h->res = res;
	h->arena = arena;
	wg_node_walk(res->root, hunt_image, h);
	return h->n;
}

/* path with each "[N]" made "[]". */
static const char *generic(struct wg_arena *a, const char *path, size_t len)
{
	struct wg_buf b = WG_BUF_INIT;
	const char *out;

	for (size_t i = 0; i < len; i++) {
		if (path[i] == '[' && i + 1 < len && path[i + 1] >= '0'
		    && path[i + 1] <= '9') {
			while (i < len && path[i] != ']')
				i++;
			wg_buf_addstr(&b, "[]");
			continue;
		}
		wg_buf_add(&b, path + i, 1);
	}
	out = wg_arena_strdup(a, b.buf ? b.buf : "");
	wg_buf_release(&b);
	return out;
}

/* The length of path without its last step (".key", "[N]", "[key]"). */
static size_t parent_len(const char *path, size_t len)
{
	if (len && path[len - 1] == ']') {
		while (len && path[len - 1] != '[')
			len--;
		return len ? len - 1 : 0;
	}
	while (len && path[len - 1] != '.' && path[len - 1] != ']')
		len--;
	return len && path[len - 1] == '.' ? len - 1 : len;
}

static const char *const placing[] = { "nodeSelector", "tolerations",
				       "affinity", NULL };

static bool holds_placing(const struct wg_node *m)
{
	for (size_t i = 0; placing[i]; i++)
		if (wg_map_get(m, placing[i]))
			return true;
	return false;
}

/*
 * Where, from the pod at path[0, plen), the object already keeps its pods'
 * nodeSelector, tolerations or affinity: the map that holds one, on the
 * way from the container at path[0, clen) up to the pod (the nearest
 * first), else a map right under the pod.  "" when the pod holds them or
 * none is found (*found false then); else a path from the pod, ending in
 * '.'.  A hint copied into a profile must name where the kind's pods take
 * them (a runner's spec.template.spec, not its spec.template).
 */
static const char *placing_at(struct wg_arena *a, const struct wg_node *root,
			      const char *path, size_t plen, size_t clen,
			      bool *found)
{
	const struct wg_node *pod = plen ? wg_path_get(root,
		wg_arena_strndup(a, path, plen)) : root;

	*found = true;
	for (size_t len = clen; len > plen; len = parent_len(path, len)) {
		const struct wg_node *m = wg_path_get(root,
			wg_arena_strndup(a, path, len));
		size_t from = plen ? plen + 1 : 0;

		if (wg_is_map(m) && holds_placing(m))
			return wg_arena_printf(a, "%s.", generic(a,
					       path + from, len - from));
	}
	if (wg_is_map(pod) && holds_placing(pod))
		return "";
	for (size_t i = 0; wg_is_map(pod) && i < pod->len; i++) {
		const struct wg_node *k = wg_map_key(pod, i);

		if (wg_is_map(wg_map_value(pod, i))
		    && holds_placing(wg_map_value(pod, i)))
			return wg_arena_printf(a, "%.*s.", (int)k->len,
					       k->u.str);
	}
	*found = false;
	return "";
}

/*
 * Where the pod and the container of an image at path are (its container
 * the map that holds it): the pod is the map that holds the container,
 * the container a list item ("steps[]") or a key ("container").  Returns
 * the container's path from the pod; *plen is the pod's path length,
 * *clen the container's.
 */
static const char *image_container(struct wg_arena *a, const char *path,
				   size_t *plen, size_t *clen)
{
	const char *ctr, *key, *pod_end;

	*clen = strlen(path) - strlen(".image");
	if (*clen && path[*clen - 1] == ']') {	/* an item of a list */
		const char *open = path + *clen - 1;

		while (open > path && *open != '[')
			open--;
		pod_end = open;
		while (pod_end > path && pod_end[-1] != '.' && pod_end[-1] != ']')
			pod_end--;
		key = pod_end;
		ctr = wg_arena_printf(a, "%.*s[]", (int)(open - key), key);
	} else {
		pod_end = path + *clen;
		while (pod_end > path && pod_end[-1] != '.' && pod_end[-1] != ']')
			pod_end--;
		key = pod_end;
		ctr = wg_arena_strndup(a, key, (size_t)(path + *clen - key));
	}
	if (pod_end > path && pod_end[-1] == '.')
		pod_end--;
	*plen = (size_t)(pod_end - path);
	return ctr;
}

/*
 * The workloads: entry that would take the Windows images at paths[0, n):
 * the pods of the first, with the containers of every one in such a pod
 * (a job's "container" and another's "steps[]": a pod whose container the
 * entry leaves out would be pinned to Linux), and their nodeSelector and
 * tolerations where the object keeps them (placing_at).
 */
static const char *entry_for(struct wg_arena *a, const struct wg_node *root,
			     const char *group, const char *kind,
			     const char *const *paths, size_t n)
{
	struct wg_buf ctrs = WG_BUF_INIT;
	const char *ctr, *pods, *at, *out;
	size_t plen, clen, len2, clen2;
	bool found;

	ctr = image_container(a, paths[0], &plen, &clen);
	pods = generic(a, paths[0], plen);
	at = placing_at(a, root, paths[0], plen, clen, &found);
	wg_buf_addf(&ctrs, "\"%s\"", ctr);
	for (size_t i = 1; i < n; i++) {
		const char *c = image_container(a, paths[i], &len2, &clen2);
		char *quoted = wg_arena_printf(a, "\"%s\"", c);

		if (strcmp(generic(a, paths[i], len2), pods) == 0
		    && !strstr(ctrs.buf, quoted))
			wg_buf_addf(&ctrs, ", %s", quoted);
	}
	out = wg_arena_printf(a, "workloads: [{group: %s, kind: %s, pods: "
			      "\"%s\", containers: [%s], nodeSelector: "
			      "%snodeSelector, tolerations: %stolerations}]%s",
			      group, kind, pods, ctrs.buf, at, at, found ? ""
			      : " (with the paths, from each pod, where its "
			      "pods take a nodeSelector and tolerations)");
	wg_buf_release(&ctrs);
	return out;
}

/*
 * The object embedded in root (a TriggerTemplate's resource template, an
 * Argo Events trigger's resource) that holds the node at path: the
 * deepest map on the way with an apiVersion and a kind of the kinds
 * table (kinds.h).  NULL when none; else *len is its path's length.
 */
static const struct wg_kind *embedded_in(struct wg_arena *a,
					 const struct wg_kind_set *kinds,
					 const struct wg_node *root,
					 const char *path, size_t *len)
{
	for (size_t l = parent_len(path, strlen(path)); l;
	     l = parent_len(path, l)) {
		struct wg_resource in = { 0 };
		const struct wg_kind *k;

		in.root = wg_path_get(root, wg_arena_strndup(a, path, l));
		if (wg_is_map(in.root)
		    && wg_is_scalar(wg_map_get(in.root, "apiVersion"))
		    && (k = wg_kind_of(kinds, &in))) {
			*len = l;
			return k;
		}
	}
	return NULL;
}

/* A node selector pair or a node selector requirement that says
 * kubernetes.io/os windows. */
static int says_windows(struct wg_node *node, struct wg_node *key,
			const char *path, void *payload)
{
	const struct wg_node *values = wg_map_get(node, "values");

	(void)path;
	(void)payload;
	if (key && wg_scalar_is(key, WG_LABEL_OS))
		return wg_scalar_is(node, "windows");
	if (!wg_is_map(node)
	    || !wg_scalar_is(wg_map_get(node, "key"), WG_LABEL_OS)
	    || !wg_scalar_is(wg_map_get(node, "operator"), "In")
	    || !wg_is_seq(values))
		return 0;
	for (size_t i = 0; i < values->len; i++)
		if (wg_scalar_is(wg_seq_item(values, i), "windows"))
			return 1;
	return 0;
}

/* An object of a kind wingen does not know with a Windows image outside
 * any pod template. */
static void unknown_image(struct wg_ctx *ctx, struct wg_resources *list,
			  struct wg_resource *res)
{
	const struct wg_node *api = wg_map_get(res->root, "apiVersion");
	const struct wg_node *kind = wg_map_get(res->root, "kind");
	struct wg_arena *a = &list->arena;
	const struct wg_kind *inner;
	struct hunt h;
	const char *g, *k, *group;
	size_t glen, at;

	if (!wg_is_scalar(kind) || !wg_api_group(api, &g, &glen) || !glen
	    || !windows_images(ctx, a, res, &h))
		return;
	k = wg_scalar_dup(a, kind);
	group = wg_arena_strndup(a, g, glen);
	if ((inner = embedded_in(a, &ctx->profile->kinds, res->root,
				 h.first_path, &at))) {
		struct wg_node *obj = wg_path_get(res->root,
			wg_arena_strndup(a, h.first_path, at));

		/* a workloads: entry of the outer kind would edit the inner
		 * object where it holds no pod settings (a PipelineRun's are
		 * in its pod templates, not beside its steps) */
		if (wg_node_walk(obj, says_windows, NULL)) {
			wg_info(ctx, res, h.first, h.first_path, "'%.*s' "
				"names Windows, in the %s embedded at %.*s, "
				"which places its pods on Windows nodes itself: "
				"wingen does not check them against the "
				"profile's builds", (int)h.first->len,
				h.first->u.str, inner->kind, (int)at,
				h.first_path);
			return;
		}
		wg_warning(ctx, res, h.first, h.first_path, "'%.*s' names "
			   "Windows (%s)%s, in the %s embedded at %.*s, but "
			   "wingen places the pods of the objects of the "
			   "stream, not of objects embedded in a %s of group "
			   "%s (a kind it does not know), so nothing schedules "
			   "them on Windows nodes; give the embedded %s its "
			   "pods' nodeSelector %s: windows and the Windows "
			   "taint's toleration yourself", (int)h.first->len,
			   h.first->u.str, h.why, h.n > 1 ? wg_arena_printf(a,
			   " (and %zu more in the object)", h.n - 1) : "",
			   inner->kind, (int)at, h.first_path, k, group,
			   inner->kind, WG_LABEL_OS);
		return;
	}
	wg_warning(ctx, res, h.first, h.first_path, "'%.*s' names Windows "
		   "(%s)%s, but %s of group %s is not a kind wingen knows, "
		   "so nothing schedules its pods on Windows nodes; declare "
		   "where its pods are in the profile: %s", (int)h.first->len,
		   h.first->u.str, h.why, h.n > 1 ? wg_arena_printf(a, " (and %zu "
		   "more in the object)", h.n - 1) : "", k, group,
		   entry_for(a, res->root, group, k, h.paths,
			     h.n < HUNT_PATHS ? h.n : HUNT_PATHS));
}

/* ---- declared kinds ------------------------------------------------------ */

/* Whether the image at path (generic, "[]" for items) is in a container
 * of sh, a shape the profile declares (pods and containers from the
 * object's root). */
static bool covered(struct wg_arena *a, const struct wg_pod_shape *sh,
		    const char *path)
{
	for (size_t p = 0; p < WG_SHAPE_MAX_PODS && sh->pods[p]; p++)
		for (size_t c = 0; c < WG_SHAPE_MAX_CONTAINERS
				   && sh->containers[c]; c++)
			if (strcmp(path, wg_arena_printf(a, "%s%s%s.image",
					sh->pods[p], *sh->pods[p] ? "." : "",
					sh->containers[c])) == 0)
				return true;
	return false;
}

/*
 * An object of a kind the profile's workloads: declares with pods, one of
 * whose Windows images no containers: path of the entry takes: its pod is
 * decided without it, and pinned to Linux when nothing else in it names
 * Windows (the one rule: an image that names Windows is never pinned to
 * Linux).  An error at the first such image, with the path to add.
 */
static void uncovered(struct wg_ctx *ctx, struct wg_resources *list,
		      struct wg_resource *res, const struct wg_kind *k)
{
	struct wg_arena *a = &list->arena;
	struct hunt h;
	size_t n;

	if (wg_scalar_is(wg_map_get(wg_path_get(res->root,
				"metadata.annotations"), WG_ANNOTATION_WINDOWS),
			 "false")
	    || !windows_images(ctx, a, res, &h))
		return;	/* opted out: its images are said to run on Linux */
	n = h.n < HUNT_PATHS ? h.n : HUNT_PATHS;
	for (size_t i = 0; i < n; i++) {
		const char *g = generic(a, h.paths[i], strlen(h.paths[i]));
		size_t plen, clen;
		const char *ctr = image_container(a, h.paths[i], &plen, &clen);

		if (covered(a, k->shape, g))
			continue;
		wg_error(ctx, res, wg_path_get(res->root, h.paths[i]),
			 h.paths[i], "'%s' names Windows, but no containers: "
			 "path of the workloads: entry for %s (pods \"%s\") "
			 "takes it: the pod that runs it would be decided "
			 "without it, and pinned to Linux when nothing else in "
			 "it names Windows; add \"%s\" to the entry's "
			 "containers (from each pod)",
			 wg_scalar_dup(a, wg_path_get(res->root, h.paths[i])),
			 k->kind, k->shape->pods[0], ctr);
		return;
	}
}

/* ---- references --------------------------------------------------------- */

struct refs {
	struct wg_ctx *ctx;
	struct wg_resources *list;
	struct wg_resource *res;
	const struct wg_resource **ran;	/* objects a reference names */
	size_t nran, cap;
};

static void on_ref(const struct wg_podspec_ref *r, void *payload)
{
	struct refs *w = payload;
	struct wg_arena *a = &w->list->arena;

	if (r->target) {
		if (w->nran == w->cap) {
			size_t cap = w->cap ? 2 * w->cap : 16;
			const struct wg_resource **n = wg_arena_alloc(a, cap
				* sizeof(*n));

			if (w->nran)
				memcpy(n, w->ran, w->nran * sizeof(*n));
			w->ran = n;
			w->cap = cap;
		}
		w->ran[w->nran++] = r->target;
		return;
	}
	if (r->pods && wg_map_get(wg_path_get(w->res->root,
					      "metadata.annotations"),
				  WG_ANNOTATION_WINDOWS)) {
		/* the object says itself what its pods are */
		wg_info(w->ctx, w->res, r->at, r->path, "names %s, which %s: "
			"its pods are what annotation %s says, and wingen "
			"cannot check the images they run against the build",
			r->what, r->remote ? "comes from outside the stream"
			: "is not in the stream", WG_ANNOTATION_WINDOWS);
		return;
	}
	if (!r->pods)
		wg_warning(w->ctx, w->res, r->at, r->path, "names %s, which "
			   "is not in the stream: wingen cannot tell whether "
			   "its templates run Windows images (their pods are "
			   "placed by their own nodeSelector and "
			   "tolerations); add it to the stream", r->what);
	else
		wg_warning(w->ctx, w->res, r->at, r->path, "names %s, which "
			   "%s: wingen cannot see the images its pods run, so "
			   "it neither places them on Windows nodes nor pins "
			   "them to Linux; %s, or annotate the object %s: "
			   "\"true\" (or \"false\")", r->what, r->remote
			   ? "comes from outside the stream"
			   : "is not in the stream", r->remote
			   ? "render it into the stream"
			   : "add it to the stream", WG_ANNOTATION_WINDOWS);
}

static bool was_run(const struct refs *w, const struct wg_resource *res)
{
	for (size_t i = 0; i < w->nran; i++)
		if (w->ran[i] == res)
			return true;
	return false;
}

/* An object others run (a Task), with a Windows image, that no object of
 * the stream runs: what places its pods is not there. */
static void not_run(struct wg_ctx *ctx, struct wg_resources *list,
		    struct wg_resource *res, const char *runners)
{
	struct hunt h;

	if (!windows_images(ctx, &list->arena, res, &h))
		return;
	wg_warning(ctx, res, h.first, h.first_path, "'%.*s' names Windows "
		   "(%s), but no %s of the stream runs this %s, and it is "
		   "they that place its pods: add the run, or give the runs "
		   "that use it a pod template with nodeSelector %s: windows "
		   "and the Windows taint's toleration", (int)h.first->len,
		   h.first->u.str, h.why, runners,
		   wg_scalar_dup(&list->arena, wg_map_get(res->root, "kind")),
		   WG_LABEL_OS);
}

struct callers {
	struct wg_ctx *ctx;
	struct wg_resource *res;
};

/*
 * A setting of an Argo steps or DAG template is taken by the pods it runs
 * that set none (workflowpod.go's boundary template); wingen writes a
 * pod's own (a Windows pod's, one pinned to Linux), which replaces it, and
 * reads and pins the workflow's, which it overrides: said, since which
 * pods run under it is known only when the workflow runs.
 */
static void on_caller(const struct wg_node *v, const char *path,
		      void *payload)
{
	struct callers *c = payload;

	if (strstr(path, ".securityContext"))
		return;	/* it places nothing */
	wg_warning(c->ctx, c->res, v, path, "is taken by the pods this "
		   "template runs that set none of their own, but wingen "
		   "places each pod by its own setting (a Windows pod's, "
		   "one pinned to Linux) or the workflow's: give the pods "
		   "it runs this setting themselves");
}

void wg_sel_unknown(struct wg_ctx *ctx, struct wg_resources *list)
{
	const struct wg_kind_set *kinds = &ctx->profile->kinds;
	struct refs w = { ctx, list, NULL, NULL, 0, 0 };
	const char *runners;

	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		const struct wg_kind *k;

		if ((res->flags & (WG_RES_DELETED | WG_RES_GENERATED))
		    || !wg_is_map(res->root))
			continue;
		k = wg_kind_of(kinds, res);
		if (!k || !k->shape)
			continue;
		if (k->origin == WG_KIND_DECLARED)
			uncovered(ctx, list, res, k);
		w.res = res;
		wg_podspec_refs(&list->arena, kinds, list, res, on_ref, &w);
		if (wg_select(ctx, list, res)->workload) {
			struct callers c = { ctx, res };

			wg_podspec_callers(&list->arena, kinds, res,
					   on_caller, &c);
		}
	}
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];

		if ((res->flags & (WG_RES_DELETED | WG_RES_GENERATED))
		    || !wg_is_map(res->root) || wg_kind_of(kinds, res)
		    || wg_select(ctx, list, res)->workload)
			continue;
		if (wg_podspec_named_kind(&list->arena, res, &runners)) {
			if (!was_run(&w, res))
				not_run(ctx, list, res, runners);
			continue;
		}
		if (!unknown_template(ctx, list, res))
			unknown_image(ctx, list, res);
	}
}

/*
 * retarget: moves the workloads of a retired Windows release to a build
 * of the profile (windows.retarget: {ltsc2019: ltsc2022}, or --retarget
 * ltsc2019=ltsc2022).  It runs first, before anything selects: what it
 * rewrites is what selection reads (a build number in nodeSelector or
 * affinity, a RuntimeClass name, image tags, the wingen.dev/ build
 * annotations), and without it each of those is an error for a build the
 * profile does not have.
 *
 * For every workload that is not opted out (wingen.dev/windows: "false"),
 * in every pod template:
 *   - nodeSelector node.kubernetes.io/windows-build of a retired release
 *     becomes the target's build number;
 *   - required node affinity on that key: the retired build in an In list
 *     becomes the target's, the list without repeats;
 *   - runtimeClassName naming a RuntimeClass of the stream that schedules
 *     onto the retired build, or a name wingen gives that build's
 *     RuntimeClass (windows-ltsc2019, windows-2019, windows-1809-arm64),
 *     becomes the target's RuntimeClass;
 *   - every image that names the retired release goes through the
 *     profile's windows.images rules, then the image families
 *     (transforms/images.h); one with no known rewrite is an error naming
 *     the image and a rule that would do it (the object then reaches no
 *     output, as after any error);
 *   - label wingen.dev/windows-build (fan-out's) on the pods and in the
 *     selector;
 * and on the object, annotations wingen.dev/windows-build and
 * wingen.dev/windows-builds (the retired entry replaced, no repeats).
 *
 * Then RuntimeClasses of the input that schedule onto a retired build are
 * dropped when nothing references them any more (an info), and kept with
 * a warning when something still does.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "wingen/base/names.h"
#include "images.h"
#include "tx.h"
#include "wingen/core/retarget.h"
#include "wingen/k8s/images.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/kinds.h"

struct rt {
	struct wg_ctx *ctx;
	const struct wg_profile *p;
	struct wg_resources *list;
	struct wg_arena *arena;
	struct wg_resource *res;
	struct wg_buf path;
	size_t edits;		/* fields set so far (the change log may be
				   off: ctx skip_changes) */
};

/* The retarget of the release text names (a release name, alias or build
 * number), or NULL. */
static const struct wg_retarget *retired_word(const struct wg_profile *p,
					      const char *s, size_t len)
{
	char w[40];

	if (!len || len >= sizeof(w))
		return NULL;
	memcpy(w, s, len);
	w[len] = '\0';
	return wg_profile_retarget_of(p, wg_release_find(w));
}

static const struct wg_retarget *retired_node(const struct wg_profile *p,
					      const struct wg_node *v)
{
	return wg_is_scalar(v) ? retired_word(p, v->u.str, v->len) : NULL;
}

/* The retarget of a RuntimeClass name: one of the stream that schedules
 * onto a retired build, or a name wingen gives a retired build's, when
 * neither a build of the profile nor a class of the stream that
 * schedules elsewhere has it. */
static const struct wg_retarget *retired_rc(struct rt *t, const char *s,
					    size_t len)
{
	const struct wg_release *r = wg_retarget_rc_schedules(t->list, s,
							      len);

	if (r)
		return wg_profile_retarget_of(t->p, r);
	for (size_t i = 0; i < t->p->nbuilds; i++)
		if (strlen(t->p->builds[i].runtime_class) == len
		    && memcmp(t->p->builds[i].runtime_class, s, len) == 0)
			return NULL;
	for (size_t i = 0; i < t->list->len; i++) {
		const struct wg_resource *o = t->list->items[i];
		const struct wg_node *n = wg_resource_name_node(o);

		if (wg_is_kind(o, WG_KIND_RUNTIME_CLASS) && wg_is_scalar(n)
		    && n->len == len && memcmp(n->u.str, s, len) == 0)
			return NULL;	/* the stream's, scheduling elsewhere */
	}
	return wg_profile_retarget_of(t->p, wg_retarget_rc_release(s, len,
								   NULL));
}

/* The word that names build b in annotations and labels: its release, or
 * its RuntimeClass when an earlier build has the same release. */
static const char *build_word(const struct wg_profile *p,
			      const struct wg_build *b)
{
	if (wg_profile_find_build(p, b->release->name) == b)
		return b->release->name;
	return b->runtime_class;
}

static const char *reason(struct rt *t, const struct wg_retarget *r,
			  const char *what)
{
	return wg_arena_printf(t->arena, "%s: %s is retired, its workloads "
			       "move to %s%s%s", r->why, r->from->name,
			       r->to->release->name, what ? "; " : "",
			       what ? what : "");
}

/* Sets m[key] to text, recording the change at field. */
static void set(struct rt *t, struct wg_node *m, const char *key,
		const char *text, const char *field, const char *why)
{
	struct wg_node *old = wg_map_get(m, key);
	struct wg_node *v = wg_node_new_str(t->arena, text);

	wg_map_set(t->arena, m, key, v);
	t->edits++;
	wg_record_change(t->ctx, WG_CHANGE_SET, t->res, old, field, old, v,
			 why);
}

/* ---- images ------------------------------------------------------------- */

struct image {
	struct wg_node *container;
	const char *field;
	const char *text;	/* the rewrite, or NULL: none needed */
	const char *why;
};

/*
 * The rewrites of every image of the pod templates that names a retired
 * release, in *out (n of them); false after an error (reported): an image
 * the target's hosts still cannot run.
 */
static bool plan_images(struct rt *t, const struct wg_podspec *ps,
			size_t npods, struct image **out, size_t *n)
{
	struct wg_container_iter it;
	struct wg_container c;
	bool ok = true;
	size_t cap = 0;

	for (size_t k = 0; k < npods; k++)
		for (wg_container_iter_init(&it, ps[k].spec);
		     wg_container_next(&it, &c);)
			cap++;
	*out = wg_arena_zalloc(t->arena, (cap + 1) * sizeof(**out));
	*n = 0;
	for (size_t k = 0; k < npods; k++) {
		wg_container_iter_init(&it, ps[k].spec);
		while (wg_container_next(&it, &c)) {
			const struct wg_node *image = wg_map_get(c.node,
								 "image");
			const struct wg_retarget *r;
			struct wg_image_ref ref;
			const char *text, *note, *field;
			enum wg_image_fit fit;
			bool same;

			if (!wg_is_scalar(image))
				continue;
			wg_image_parse(image->u.str, image->len, &ref);
			if (!(r = wg_profile_retarget_of(t->p, ref.release)))
				continue;
			field = wg_arena_strdup(t->arena, wg_container_path(
				&t->path, &ps[k], &c, "image",
				(const char *)NULL));
			text = tx_image_for_build(t->ctx, t->p, t->arena,
						  t->res, image, field, r->to,
						  &note);
			if (!text) {
				ok = false;
				continue;
			}
			same = strlen(text) == image->len
			       && memcmp(text, image->u.str, image->len) == 0;
			wg_image_parse(text, strlen(text), &ref);
			fit = wg_image_fit(&ref, r->to->release, r->to->arch,
					   r->to->handler);
			if (fit == WG_FIT_RELEASE || fit == WG_FIT_ARCH) {
				wg_error(t->ctx, t->res, image, field,
					 "'%s'%s is built for %s, which %s "
					 "hosts (%s) cannot run%s%s; add a "
					 "rule that rewrites it: %s", text,
					 same ? "" : " (as rewritten)",
					 fit == WG_FIT_ARCH ? ref.arch
					 : ref.release->name,
					 r->to->release->name, r->why,
					 note && same ? ": no known rewrite, "
					 : "", note && same ? note : "",
					 tx_image_rule_hint(t->arena, text));
				ok = false;
				continue;
			}
			if (same)
				continue;
			(*out)[*n].container = c.node;
			(*out)[*n].field = field;
			(*out)[*n].text = text;
			(*out)[*n].why = reason(t, r, note);
			(*n)++;
		}
	}
	return ok;
}

/* ---- one pod template --------------------------------------------------- */

/* The In lists of required node affinity on the build key. */
static void affinity(struct rt *t, const struct wg_podspec *ps)
{
	const struct wg_node *terms = wg_path_get(ps->spec,
		"affinity.nodeAffinity.requiredDuringSchedulingIgnored"
		"DuringExecution.nodeSelectorTerms");

	for (size_t i = 0; wg_is_seq(terms) && i < terms->len; i++) {
		const struct wg_node *exprs = wg_map_get(wg_seq_item(terms, i),
							 "matchExpressions");

		for (size_t j = 0; wg_is_seq(exprs) && j < exprs->len; j++) {
			struct wg_node *e = wg_seq_item(exprs, j);
			struct wg_node *vals = wg_map_get(e, "values"), *old;
			const struct wg_retarget *hit = NULL;

			if (!wg_scalar_is(wg_map_get(e, "key"),
					  WG_LABEL_WINDOWS_BUILD)
			    || !wg_scalar_is(wg_map_get(e, "operator"), "In")
			    || !wg_is_seq(vals))
				continue;
			old = wg_node_clone(t->arena, vals);
			for (size_t k = 0; k < vals->len; k++) {
				const struct wg_retarget *r = retired_node(
					t->p, wg_seq_item(vals, k));

				if (!r)
					continue;
				hit = r;
				wg_seq_delete_at(vals, k);
				wg_seq_insert(t->arena, vals, k,
					      wg_node_new_str(t->arena,
						r->to->release->build));
			}
			if (!hit)
				continue;
			for (size_t k = 1; k < vals->len; k++)
				for (size_t m = 0; m < k; m++)
					if (wg_node_equal(wg_seq_item(vals, m),
							  wg_seq_item(vals,
								      k))) {
						wg_seq_delete_at(vals, k--);
						break;
					}
			wg_podspec_path(&t->path, ps, "affinity",
					"nodeAffinity",
					"requiredDuringSchedulingIgnoredDuring"
					"Execution", "nodeSelectorTerms",
					(const char *)NULL);
			wg_buf_addf(&t->path, "[%zu].matchExpressions[%zu]."
				    "values", i, j);
			wg_record_change(t->ctx, WG_CHANGE_SET, t->res, old,
				t->path.buf,
				old, vals, reason(t, hit, "the build in the "
						  "In list"));
		}
	}
}

/* A nodeSelector value of another key that names the retired release
 * (AKS's kubernetes.azure.com/os-sku: Windows2019, a team's own pool
 * label): wingen cannot know what the new build's nodes carry there, and
 * keeping it would leave the moved pods with no node once the old pool is
 * gone, so it is said out loud. */
static void other_release_labels(struct rt *t, const struct wg_podspec *ps,
				 const struct wg_node *ns)
{
	for (size_t i = 0; wg_is_map(ns) && i < ns->len; i++) {
		const struct wg_node *k = ns->u.items[2 * i];
		const struct wg_node *v = ns->u.items[2 * i + 1];
		const struct wg_retarget *hit = NULL;
		const char *text;

		if (!wg_is_scalar(k) || !wg_is_scalar(v)
		    || wg_scalar_is(k, WG_LABEL_WINDOWS_BUILD))
			continue;
		text = wg_scalar_dup(t->arena, v);	/* scalars are not NUL-ended */
		for (size_t j = 0; !hit && j < t->p->nretarget; j++) {
			const struct wg_release *rel = t->p->retarget[j].from;

			if (strstr(text, rel->name))
				hit = &t->p->retarget[j];
			for (size_t a = 0; !hit && a < 3 && rel->aliases[a];
			     a++)
				if (strlen(rel->aliases[a]) == 4
				    && strstr(text, rel->aliases[a]))
					hit = &t->p->retarget[j];
		}
		if (hit)
			wg_warning(t->ctx, t->res, v, wg_podspec_path(&t->path,
				   ps, "nodeSelector", wg_scalar_dup(t->arena, k),
				   (const char *)NULL), "'%s' looks like "
				   "it names %s, which %s retires: retarget "
				   "does not know what %s nodes carry under "
				   "this key; change it, or the moved pods "
				   "find no node once the %s nodes are gone",
				   text, hit->from->name, hit->why, hit->to->release->name,
				   hit->from->name);
	}
}

static void pod(struct rt *t, const struct wg_podspec *ps)
{
	struct wg_node *ns = wg_map_get(ps->spec, "nodeSelector");
	struct wg_node *rc = wg_map_get(ps->spec, "runtimeClassName");
	struct wg_node *labels = wg_podspec_labels(ps);
	const struct wg_retarget *r;

	if (wg_is_map(ns)
	    && (r = retired_node(t->p, wg_map_get(ns,
						  WG_LABEL_WINDOWS_BUILD))))
		set(t, ns, WG_LABEL_WINDOWS_BUILD, r->to->release->build,
		    wg_podspec_path(&t->path, ps, "nodeSelector",
				    WG_LABEL_WINDOWS_BUILD, (const char *)NULL),
		    reason(t, r, NULL));
	affinity(t, ps);
	other_release_labels(t, ps, ns);
	if (wg_is_scalar(rc) && (r = retired_rc(t, rc->u.str, rc->len))) {
		/* through podspec.h: a shape's pod (a Tekton run) keeps its
		 * runtimeClassName in a pod template of its own */
		struct wg_node *v = wg_node_new_str(t->arena,
						    r->to->runtime_class);

		wg_podspec_set(t->arena, ps, "runtimeClassName", v);
		wg_record_change(t->ctx, WG_CHANGE_SET, t->res, rc,
				 wg_podspec_own_path(&t->path, ps,
						     "runtimeClassName",
						     (const char *)NULL),
				 rc, v, reason(t, r, wg_arena_printf(t->arena,
				 "the RuntimeClass of %s",
				 r->to->release->name)));
	}
	if (wg_is_map(labels)
	    && (r = retired_node(t->p, wg_map_get(labels, WG_LABEL_BUILD))))
		set(t, labels, WG_LABEL_BUILD, build_word(t->p, r->to),
		    wg_podspec_tmpl_path(&t->path, ps, "metadata", "labels",
					 WG_LABEL_BUILD, (const char *)NULL),
		    reason(t, r, "fan-out's build label"));
}

/* ---- the object --------------------------------------------------------- */

/* wingen.dev/windows-builds with each retired entry replaced, no build
 * twice; NULL when none is retired. */
static const char *builds_list(struct rt *t, const struct wg_node *v,
			       const struct wg_retarget **hit)
{
	char *text = wg_scalar_dup(t->arena, v);
	const char *sep = strstr(text, ", ") ? ", " : ",";
	const struct wg_build *seen[16];
	struct wg_buf out = WG_BUF_INIT;
	size_t nseen = 0, len;
	const char *res;

	*hit = NULL;
	for (char *rest = text, *item; (item = wg_list_next(&rest, &len));) {
		const struct wg_retarget *r;
		const struct wg_build *b;
		const char *word;
		bool dup = false;

		r = retired_word(t->p, item, len);
		if (!r)
			r = wg_profile_retarget_of(t->p, wg_retarget_rc_release(
							   item, len, NULL));
		if (r)
			*hit = r;
		word = r ? build_word(t->p, r->to) : item;
		b = r ? r->to : wg_profile_find_build(t->p, item);
		for (size_t i = 0; b && i < nseen; i++)
			dup = dup || seen[i] == b;
		if (dup)
			continue;
		if (b && nseen < 16)
			seen[nseen++] = b;
		wg_buf_addf(&out, "%s%s", out.len ? sep : "", word);
	}
	res = *hit ? wg_arena_strdup(t->arena, out.buf) : NULL;
	wg_buf_release(&out);
	return res;
}

static void annotations(struct rt *t)
{
	struct wg_node *anns = wg_path_get(t->res->root,
					   "metadata.annotations");
	const struct wg_node *one = wg_map_get(anns, WG_ANNOTATION_BUILD);
	const struct wg_node *many = wg_map_get(anns, WG_ANNOTATION_BUILDS);
	const struct wg_retarget *r = retired_node(t->p, one);
	const char *list;

	if (!r && wg_is_scalar(one))
		r = wg_profile_retarget_of(t->p, wg_retarget_rc_release(
						   one->u.str, one->len, NULL));
	if (r)
		set(t, anns, WG_ANNOTATION_BUILD, build_word(t->p, r->to),
		    "metadata.annotations.[" WG_ANNOTATION_BUILD "]",
		    reason(t, r, NULL));
	if (wg_is_scalar(many) && (list = builds_list(t, many, &r)))
		set(t, anns, WG_ANNOTATION_BUILDS, list,
		    "metadata.annotations.[" WG_ANNOTATION_BUILDS "]",
		    reason(t, r, NULL));
}

/* Fan-out's build label in the workload's own selector. */
static void selector(struct rt *t, const struct wg_kind *kind)
{
	struct wg_node *sel;
	const struct wg_retarget *r;
	const char *field;

	if (!kind->selector || kind->selector_shape == WG_SELECTOR_NONE)
		return;
	sel = wg_path_get(t->res->root, kind->selector);
	field = kind->selector;
	if (kind->selector_shape == WG_SELECTOR_LABELS) {
		sel = wg_map_get(sel, "matchLabels");
		field = wg_arena_printf(t->arena, "%s.matchLabels", field);
	}
	if (!wg_is_map(sel) || !(r = retired_node(t->p, wg_map_get(
						   sel, WG_LABEL_BUILD))))
		return;
	set(t, sel, WG_LABEL_BUILD, build_word(t->p, r->to),
	    wg_arena_printf(t->arena, "%s.[%s]", field, WG_LABEL_BUILD),
	    reason(t, r, "fan-out's build label"));
}

/* ---- fan-out's copies ---------------------------------------------------- */

static bool same_scope(const struct wg_resource *a, const struct wg_resource *b)
{
	const struct wg_node *na = wg_resource_namespace_node(a);
	const struct wg_node *nb = wg_resource_namespace_node(b);

	return wg_node_equal(wg_map_get(a->root, "kind"),
			     wg_map_get(b->root, "kind"))
	       && (na && nb ? wg_node_equal(na, nb) : !na && !nb);
}

/* The object of res's kind and namespace called name, or NULL. */
static struct wg_resource *named(struct rt *t, const struct wg_resource *res,
				 const char *name)
{
	for (size_t i = 0; i < t->list->len; i++) {
		struct wg_resource *o = t->list->items[i];

		if (o != res && !(o->flags & WG_RES_DELETED)
		    && wg_scalar_is(wg_resource_name_node(o), name)
		    && same_scope(o, res))
			return o;
	}
	return NULL;
}

/* name with its "-<from>" suffix made "-<to>", or NULL without one. */
static const char *renamed(struct rt *t, const struct wg_node *name,
			   const struct wg_retarget *r)
{
	size_t n = strlen(r->from->name);
	const char *word = build_word(t->p, r->to);
	char *s;

	if (!wg_is_scalar(name) || name->len <= n + 1
	    || name->u.str[name->len - n - 1] != '-'
	    || strncasecmp(name->u.str + name->len - n, r->from->name, n))
		return NULL;
	s = wg_arena_printf(t->arena, "%.*s-%s", (int)(name->len - n - 1),
			    name->u.str, word);
	for (char *c = s + name->len - n; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return s;
}

static void drop(struct rt *t, struct wg_resource *res, const char *why)
{
	res->flags |= WG_RES_DELETED;
	wg_record_change(t->ctx, WG_CHANGE_REMOVE, res,
			 wg_resource_name_node(res), NULL, NULL, NULL, why);
	wg_info(t->ctx, res, wg_resource_name_node(res), "metadata.name",
		"dropped: %s", why);
}

/* The HorizontalPodAutoscalers that scale res (named old). */
static void follow_hpas(struct rt *t, struct wg_resource *res,
			const struct wg_node *kind, const char *old,
			const char *new_name, const struct wg_retarget *r)
{
	for (size_t i = 0; i < t->list->len; i++) {
		struct wg_resource *h = t->list->items[i];
		struct wg_node *ref = wg_path_get(h->root,
						  "spec.scaleTargetRef");
		const struct wg_node *hn = wg_resource_namespace_node(h);
		const struct wg_node *rn = wg_resource_namespace_node(res);
		struct wg_resource *was = t->res;
		const char *to;

		if ((h->flags & WG_RES_DELETED) || !wg_is_kind(h, WG_KIND_HPA)
		    || !wg_node_equal(wg_map_get(ref, "kind"), kind)
		    || !wg_scalar_is(wg_map_get(ref, "name"), old)
		    || !(hn && rn ? wg_node_equal(hn, rn) : !hn && !rn))
			continue;
		t->res = h;
		if (!new_name) {
			drop(t, h, reason(t, r, wg_arena_printf(t->arena,
				"it scales %s, the copy of a retired build",
				old)));
		} else {
			set(t, ref, "name", new_name,
			    "spec.scaleTargetRef.name",
			    reason(t, r, "it scales the renamed copy"));
			if ((to = renamed(t, wg_resource_name_node(h), r)))
				set(t, wg_map_get(h->root, "metadata"), "name",
				    to, "metadata.name",
				    reason(t, r, "fan-out's copy of the "
					   "retired build, renamed"));
		}
		t->res = was;
	}
}

/*
 * A copy fan-out made for the retired build (annotation
 * wingen.dev/windows-build naming it, named <name>-<release>) is renamed
 * for the target: the API server refuses a changed selector on a live
 * Deployment, StatefulSet, DaemonSet or ReplicaSet, so the copy becomes a
 * new object.  When the target's copy is already there, this one goes.
 * Returns false when it went.
 */
static bool copy(struct rt *t)
{
	const struct wg_node *ann = wg_map_get(wg_path_get(t->res->root,
		"metadata.annotations"), WG_ANNOTATION_BUILD);
	const struct wg_retarget *r = retired_node(t->p, ann);
	struct wg_node *name = wg_resource_name_node(t->res);
	const struct wg_node *kind = wg_map_get(t->res->root, "kind");
	const char *old, *to, *why;
	struct wg_resource *sibling;

	if (!r || !(to = renamed(t, name, r)))
		return true;
	old = wg_scalar_dup(t->arena, name);
	if ((sibling = named(t, t->res, to))) {
		why = reason(t, r, wg_arena_printf(t->arena, "fan-out's copy "
			"for %s, and the copy for %s is already there (%s)",
			r->from->name, r->to->release->name,
			wg_resource_label(t->arena, sibling)));
		drop(t, t->res, why);
		follow_hpas(t, t->res, kind, old, NULL, r);
		return false;
	}
	set(t, wg_map_get(t->res->root, "metadata"), "name", to,
	    "metadata.name", reason(t, r, "fan-out's copy of the retired "
				    "build, renamed: a live object's selector "
				    "cannot change"));
	follow_hpas(t, t->res, kind, old, to, r);
	return true;
}

static bool opted_out(const struct wg_resource *res)
{
	return wg_scalar_is(wg_map_get(wg_path_get(res->root,
						   "metadata.annotations"),
				       WG_ANNOTATION_WINDOWS), "false");
}

static void workload(struct rt *t, const struct wg_kind *kind)
{
	struct wg_podspec *ps;
	struct image *img;
	size_t npods = wg_podspec_find_all(t->arena, &t->p->kinds, t->res,
					   &ps), nimg;

	/* An image with no known rewrite is an error, which keeps the
	 * object out of every output; the rest is still moved, so that the
	 * error is the one thing reported, not each field it left behind. */
	if (plan_images(t, ps, npods, &img, &nimg) && !copy(t))
		return;
	for (size_t i = 0; i < nimg; i++) {
		struct wg_node *old = wg_map_get(img[i].container, "image");
		struct wg_node *v = wg_node_new_str(t->arena, img[i].text);

		wg_map_set(t->arena, img[i].container, "image", v);
		t->edits++;
		wg_record_change(t->ctx, WG_CHANGE_SET, t->res, old,
				 img[i].field, old, v, img[i].why);
	}
	for (size_t k = 0; k < npods; k++)
		pod(t, &ps[k]);
	selector(t, kind);
	annotations(t);
}

/* ---- RuntimeClasses of retired builds ------------------------------------ */

/* The first workload whose pods still name RuntimeClass name, or NULL. */
static const struct wg_resource *user_of(struct rt *t, const struct wg_node *name)
{
	for (size_t i = 0; i < t->list->len; i++) {
		const struct wg_resource *res = t->list->items[i];
		struct wg_podspec *ps;
		size_t n;

		if (res->flags & WG_RES_DELETED)
			continue;
		n = wg_podspec_find_all(t->arena, &t->p->kinds, res, &ps);
		for (size_t k = 0; k < n; k++)
			if (wg_node_equal(wg_map_get(ps[k].spec,
						     "runtimeClassName"),
					  name))
				return res;
	}
	return NULL;
}

static void runtime_classes(struct rt *t)
{
	for (size_t i = 0; i < t->list->len; i++) {
		struct wg_resource *res = t->list->items[i];
		const struct wg_node *name = wg_resource_name_node(res);
		const struct wg_retarget *r;
		const struct wg_resource *user;

		if ((res->flags & (WG_RES_DELETED | WG_RES_GENERATED))
		    || !wg_is_kind(res, WG_KIND_RUNTIME_CLASS)
		    || !wg_is_scalar(name))
			continue;
		r = wg_profile_retarget_of(t->p, wg_retarget_rc_schedules(
						   t->list, name->u.str,
						   name->len));
		if (!r)
			continue;
		t->res = res;
		user = user_of(t, name);
		if (user) {
			wg_warning(t->ctx, res, name, "metadata.name",
				   "schedules onto %s, which %s retires, but "
				   "%s still names it (runtimeClassName; "
				   "retarget leaves a workload opted out with "
				   "%s: \"false\" alone): kept",
				   r->from->name, r->why,
				   wg_resource_label(t->arena, user),
				   WG_ANNOTATION_WINDOWS);
			continue;
		}
		res->flags |= WG_RES_DELETED;
		wg_record_change(t->ctx, WG_CHANGE_REMOVE, res, name, NULL,
				 NULL, NULL, reason(t, r, wg_arena_printf(
					t->arena, "it schedules onto %s and no "
					"workload names it any more",
					r->from->name)));
		wg_info(t->ctx, res, name, "metadata.name",
			"dropped: it schedules onto %s, which %s retires, and "
			"no workload names it any more", r->from->name,
			r->why);
	}
}

/*
 * A workload moved to a build whose own workload the stream already holds
 * (a chart that renders one agent per release) would run twice on its
 * nodes: said out loud (edits: the count before res was moved).
 */
static void same_nodes(struct rt *t, struct wg_resource *res, size_t edits)
{
	const struct wg_resource *sib;

	if (t->edits == edits || (res->flags & WG_RES_DELETED))
		return;
	for (size_t i = 0; i < t->p->nretarget; i++) {
		const struct wg_retarget *r = &t->p->retarget[i];

		if (!(sib = wg_retarget_sibling(t->list, res, r->from, r->to)))
			continue;
		wg_warning(t->ctx, res, wg_resource_name_node(res),
			   "metadata.name", "moved to %s (%s), whose nodes "
			   "already run %s: both would run there; drop this "
			   "one (a chart: turn its %s variant off)",
			   r->to->release->name, r->why,
			   wg_resource_label(t->arena, sib), r->from->name);
		return;
	}
}

static int run(struct wg_ctx *ctx, struct wg_resources *list,
	       const void *config)
{
	struct rt t = { ctx, ctx->profile, list, &list->arena, NULL,
			WG_BUF_INIT, 0 };

	(void)config;
	if (!t.p || !t.p->nretarget)
		return 0;
	for (size_t i = 0; i < list->len; i++) {
		struct wg_resource *res = list->items[i];
		const struct wg_kind *kind;
		size_t edits = t.edits;

		if ((res->flags & (WG_RES_DELETED | WG_RES_GENERATED))
		    || !(kind = wg_kind_of(&t.p->kinds, res))
		    || opted_out(res))
			continue;
		t.res = res;
		workload(&t, kind);
		same_nodes(&t, res, edits);
	}
	runtime_classes(&t);
	wg_buf_release(&t.path);
	return 0;
}

const struct wg_plugin wg_tx_retarget = {
	.name = "retarget",
	.summary = "move workloads of a retired Windows build to a build of "
		   "the profile (windows.retarget, --retarget OLD=NEW)",
	.kind = WG_PLUGIN_TRANSFORM,
	.run_list = run,
};

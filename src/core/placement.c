/*
 * The stream held against the cluster's nodes (core/placement.h).  Each
 * check narrows the nodes step by step (labels, then required affinity,
 * then taints) so that a failure can say which step left none, and which
 * label of a selector no node has.
 */
#include "wingen/core/placement.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/names.h"
#include "wingen/k8s/keys.h"
#include "wingen/k8s/podspec.h"

/* A requirement on a node label, and where it came from. */
struct want {
	const char *key, *value;
	const char *from;	/* NULL: the pod; else "RuntimeClass NAME" or
				   "spec.os.name" */
};

struct wants {
	struct want *items;
	size_t len, cap;
};

struct tols {
	const struct wg_node **items;
	size_t len, cap;
};

struct run {
	struct wg_ctx *ctx;
	const struct wg_placement *pl;
	const struct wg_cluster *c;
	struct wg_arena arena;	/* messages, for the run */
	bool *set, *next;	/* a set of nodes: one flag per node */
	const char **failed_rc;	/* RuntimeClasses of builds with errors */
	size_t nfailed_rc;
	const char **unknown_rc;	/* names warned about once */
	size_t nunknown_rc, unknown_cap;
	size_t errors;
};

static size_t count(const struct run *r, const bool *set)
{
	size_t n = 0;

	for (size_t i = 0; i < r->c->len; i++)
		n += set[i];
	return n;
}

static void add_want(struct wants *w, const char *key, const char *value,
		     const char *from)
{
	WG_GROW(w->items, w->cap, w->len + 1);
	w->items[w->len++] = (struct want){ key, value, from };
}

/* The string pairs of a nodeSelector mapping (others are the API
 * server's to reject). */
static void add_selector(struct run *r, struct wants *w,
			 const struct wg_node *m, const char *from)
{
	for (size_t i = 0; wg_is_map(m) && i < m->len; i++) {
		const struct wg_node *v = wg_map_value(m, i);

		if (wg_is_scalar(v) && !wg_node_is_null(v))
			add_want(w, wg_scalar_dup(&r->arena, wg_map_key(m, i)),
				 wg_scalar_dup(&r->arena, v), from);
	}
}

static void add_tolerations(struct tols *t, const struct wg_node *seq)
{
	for (size_t i = 0; wg_is_seq(seq) && i < seq->len; i++) {
		WG_GROW(t->items, t->cap, t->len + 1);
		t->items[t->len++] = wg_seq_item(seq, i);
	}
}

static bool has_label(const struct wg_cluster_node *n, const struct want *w)
{
	const char *v = wg_cluster_node_label(n, w->key);

	return v && strcmp(v, w->value) == 0;
}

/* os first, then arch, then the rest as written: the order a reader
 * narrows a cluster down in ("Windows, arm64, build 20348"). */
static int rank(const char *key)
{
	if (strcmp(key, WG_LABEL_OS) == 0)
		return 0;
	if (strcmp(key, WG_LABEL_ARCH) == 0)
		return 1;
	return 2;
}

/* Whether w's item i asks what an earlier one does (a nodeSelector and
 * the RuntimeClass's both saying kubernetes.io/os=windows). */
static bool repeated(const struct wants *w, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (strcmp(w->items[k].key, w->items[i].key) == 0
		    && strcmp(w->items[k].value, w->items[i].value) == 0)
			return true;
	return false;
}

/* Appends the distinct values of key among the nodes of set, bounded. */
static size_t values_of(struct run *r, const bool *set, const char *key,
			struct wg_names *l)
{
	const char **seen = wg_xcalloc(r->c->len + 1, sizeof(*seen));
	size_t nseen = 0;

	for (size_t i = 0; i < r->c->len; i++) {
		const char *v = set[i] ? wg_cluster_node_label(&r->c->nodes[i],
							       key) : NULL;
		bool dup = false;

		for (size_t k = 0; v && k < nseen && !dup; k++)
			dup = strcmp(seen[k], v) == 0;
		if (!v || dup)
			continue;
		seen[nseen++] = v;
		if (wg_names_next(l))
			wg_buf_addf(&l->text, "%s=%s", key, v);
	}
	free(seen);
	return nseen;
}

/* How many nodes of r->set run the Windows build x asks for by the
 * node.kubernetes.io/windows-build label without having the label (the
 * build read from nodeInfo); 0 for any other label. */
static size_t lacking(const struct run *r, const struct want *x)
{
	size_t lack = 0;

	if (strcmp(x->key, WG_LABEL_WINDOWS_BUILD) != 0)
		return 0;
	for (size_t n = 0; n < r->c->len; n++) {
		const struct wg_cluster_node *cn = &r->c->nodes[n];

		lack += r->set[n] && cn->build
			&& cn->build_from != WG_BUILD_LABEL
			&& strcmp(cn->build, x->value) == 0;
	}
	return lack;
}

/*
 * Narrows set to the nodes with every label of w.  When none has them
 * all, returns why ("no node has K=V with K2=V2; those nodes have K=X"),
 * in r's arena, and leaves set as it was before the label that emptied
 * it; else NULL.  *culprit is that label.
 */
static const char *narrow_labels(struct run *r, const struct wants *w,
				 const struct want **culprit)
{
	struct wg_buf msg = WG_BUF_INIT, context = WG_BUF_INIT;
	const char *out = NULL;

	*culprit = NULL;
	for (int pass = 0; pass < 3 && !*culprit; pass++) {
		for (size_t i = 0; i < w->len && !*culprit; i++) {
			const struct want *x = &w->items[i];
			size_t after;

			if (rank(x->key) != pass || repeated(w, i))
				continue;
			for (size_t n = 0; n < r->c->len; n++)
				r->next[n] = r->set[n]
					     && has_label(&r->c->nodes[n], x);
			after = count(r, r->next);
			if (!after) {
				*culprit = x;
				break;
			}
			wg_buf_addf(&context, "%s%s=%s",
				    context.len ? ", " : "", x->key, x->value);
			memcpy(r->set, r->next, r->c->len * sizeof(*r->set));
		}
	}
	if (*culprit) {
		const struct want *x = *culprit;
		struct wg_names l = WG_NAMES_INIT;
		size_t nv = values_of(r, r->set, x->key, &l);
		const char *vals = wg_names_end(&l, &r->arena);
		const char *those = context.len ? "those nodes" : "the nodes";
		size_t lack;

		wg_buf_addf(&msg, "no node has %s=%s", x->key, x->value);
		if (context.len)
			wg_buf_addf(&msg, " with %s", context.buf);
		if (x->from)
			wg_buf_addf(&msg, " (the label comes from %s)",
				    x->from);
		if (nv)
			wg_buf_addf(&msg, "; %s have %s", those, vals);
		else if ((lack = lacking(r, x)))
			wg_buf_addf(&msg, "; %zu of %s %s build %s without "
				    "the label (read from status.nodeInfo; a "
				    "selector matches the label only)", lack,
				    those, lack == 1 ? "runs" : "run",
				    x->value);
		else
			wg_buf_addf(&msg, "; none of %s has the label %s",
				    those, x->key);
		out = wg_arena_strdup(&r->arena, msg.buf);
	}
	wg_buf_release(&msg);
	wg_buf_release(&context);
	return out;
}

/* The first taint of n that keeps a pod off it and that none of t
 * tolerates, or NULL.  Taints of the node's state do not count. */
static const struct wg_node *untolerated(const struct wg_cluster_node *n,
					 const struct tols *t)
{
	for (size_t i = 0; n->taints && i < n->taints->len; i++) {
		const struct wg_node *taint = wg_seq_item(n->taints, i);
		bool ok = !wg_taint_repels(taint)
			  || wg_taint_is_condition(taint);

		for (size_t k = 0; !ok && k < t->len; k++)
			ok = wg_toleration_tolerates(t->items[k], taint);
		if (!ok)
			return taint;
	}
	return NULL;
}

/*
 * Narrows set to the nodes none of whose taints is left untolerated by t.
 * When that leaves none, returns the taints in the way, each with its
 * node count ("os=windows:NoSchedule on 3 nodes"), bounded; else NULL.
 */
static const char *narrow_taints(struct run *r, const struct tols *t)
{
	const char **texts = wg_xcalloc(r->c->len + 1, sizeof(*texts));
	size_t *counts = wg_xcalloc(r->c->len + 1, sizeof(*counts));
	size_t ntexts = 0, left = 0;
	struct wg_names l = WG_NAMES_INIT;
	const char *out = NULL;

	for (size_t n = 0; n < r->c->len; n++) {
		const struct wg_node *taint;
		const char *text;
		size_t k;

		if (!r->set[n])
			continue;
		taint = untolerated(&r->c->nodes[n], t);
		if (!taint) {
			left++;
			continue;
		}
		text = wg_taint_text(&r->arena, taint);
		for (k = 0; k < ntexts && strcmp(texts[k], text) != 0; k++)
			;
		if (k == ntexts)
			texts[ntexts++] = text;
		counts[k]++;
	}
	if (!left) {
		for (size_t k = 0; k < ntexts; k++)
			if (wg_names_next(&l))
				wg_buf_addf(&l.text, "%s on %zu %s", texts[k],
					    counts[k], counts[k] == 1 ? "node"
					    : "nodes");
		out = wg_names_end(&l, &r->arena);
	} else {
		for (size_t n = 0; n < r->c->len; n++)
			r->set[n] = r->set[n]
				    && !untolerated(&r->c->nodes[n], t);
	}
	free(texts);
	free(counts);
	return out;
}

static void all_nodes(struct run *r)
{
	for (size_t n = 0; n < r->c->len; n++)
		r->set[n] = true;
}

/* ---- builds ------------------------------------------------------------- */

static bool rc_failed(const struct run *r, const char *name)
{
	for (size_t i = 0; i < r->nfailed_rc; i++)
		if (strcmp(r->failed_rc[i], name) == 0)
			return true;
	return false;
}

static const struct wg_resource *find_rc(const struct wg_resources *list,
					 const char *name);

static void check_builds(struct run *r)
{
	const struct wg_profile *p = r->pl->profile;

	r->failed_rc = wg_arena_zalloc(&r->arena, (p->nbuilds + 1)
						  * sizeof(*r->failed_rc));
	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];
		struct wants w = { 0 };
		const struct want *culprit;
		const char *why;

		/* The embedded default lists every supported build as a
		 * route and generates the RuntimeClasses of those the stream
		 * uses: only those need nodes. */
		if (wg_profile_is_embedded(p)
		    && !find_rc(r->pl->list, b->runtime_class)
		    && !find_rc(r->pl->classes, b->runtime_class))
			continue;
		add_want(&w, WG_LABEL_OS, "windows", NULL);
		add_want(&w, WG_LABEL_ARCH, b->arch, NULL);
		add_want(&w, WG_LABEL_WINDOWS_BUILD, b->release->build, NULL);
		all_nodes(r);
		why = narrow_labels(r, &w, &culprit);
		if (why) {
			wg_report_at(r->ctx, WG_SEV_ERROR, p->path, b->pos.line,
				     b->pos.col, "windows.builds[%zu] (%s on "
				     "%s) has no node: %s", i, b->release->name,
				     b->arch, why);
			r->errors++;
			r->failed_rc[r->nfailed_rc++] = b->runtime_class;
		}
		free(w.items);
	}
}

/* ---- RuntimeClasses ----------------------------------------------------- */

/* A live RuntimeClass (one with an error of this check's is still what
 * its pods name). */
static bool is_runtime_class(const struct wg_resource *res)
{
	return !(res->flags & WG_RES_DELETED)
	       && wg_is_kind(res, WG_KIND_RUNTIME_CLASS);
}

/* The build a generated RuntimeClass was made from, or NULL. */
static const struct wg_build *made_from(const struct run *r,
					const struct wg_resource *res,
					const char *name)
{
	const struct wg_profile *p = r->pl->profile;

	if (!(res->flags & WG_RES_GENERATED) || !name)
		return NULL;
	for (size_t i = 0; i < p->nbuilds; i++)
		if (strcmp(p->builds[i].runtime_class, name) == 0)
			return &p->builds[i];
	return NULL;
}

/*
 * An error about RuntimeClass res: at node when it was read, at the
 * build in the profile when the generator made it from one (it has no
 * place of its own), else against the object.
 */
static void rc_error(struct run *r, const struct wg_resource *res,
		     const char *name, const struct wg_node *node,
		     const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void rc_error(struct run *r, const struct wg_resource *res,
		     const char *name, const struct wg_node *node,
		     const char *field, const char *fmt, ...)
{
	const struct wg_build *b = made_from(r, res, name);
	struct wg_buf msg = WG_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	wg_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (b)
		wg_report_at(r->ctx, WG_SEV_ERROR, r->pl->profile->path,
			     b->pos.line, b->pos.col, "RuntimeClass/%s (made "
			     "from windows.builds[%zu]): %s: %s", name,
			     (size_t)(b - r->pl->profile->builds), field,
			     msg.buf);
	else
		wg_error(r->ctx, res, node, field, "%s", msg.buf);
	r->errors++;
	wg_buf_release(&msg);
}

/* The live RuntimeClass named name (len bytes) in list, or NULL. */
static const struct wg_resource *find_rc(const struct wg_resources *list,
					 const char *name)
{
	for (size_t i = 0; list && i < list->len; i++) {
		const struct wg_resource *res = list->items[i];

		if (is_runtime_class(res)
		    && wg_scalar_is(wg_resource_name_node(res), name))
			return res;
	}
	return NULL;
}

static void check_rc(struct run *r, const struct wg_resource *res)
{
	const struct wg_node *sched = wg_map_get(res->root, "scheduling");
	const struct wg_node *sel = wg_map_get(sched, "nodeSelector");
	const struct wg_node *tn = wg_map_get(sched, "tolerations");
	char *name = wg_scalar_dup(&r->arena, wg_resource_name_node(res));
	struct wants w = { 0 };
	struct tols t = { 0 };
	const struct want *culprit;
	const char *why;

	/* No scheduling: the RuntimeClass places nothing; its pods are
	 * checked on their own. */
	if (!wg_is_map(sched) || (name && rc_failed(r, name)))
		return;
	add_selector(r, &w, sel, NULL);
	add_tolerations(&t, wg_map_get(sched, "tolerations"));
	all_nodes(r);
	if ((why = narrow_labels(r, &w, &culprit)))
		rc_error(r, res, name, sel, "scheduling.nodeSelector",
			 "selects no node: %s", why);
	else if ((why = narrow_taints(r, &t)))
		rc_error(r, res, name, tn ? tn : sel, "scheduling.tolerations",
			 "tolerates none of the %zu nodes it selects: %s",
			 count(r, r->set), why);
	free(w.items);
	free(t.items);
}

/* ---- workloads ---------------------------------------------------------- */

/* The RuntimeClass a pod names: from the stream, else from classes; NULL
 * when neither has it (warned once per name). */
static const struct wg_resource *pod_rc(struct run *r,
					const struct wg_resource *res,
					const struct wg_node *rcn,
					const char *field, const char *name)
{
	const struct wg_resource *rc = find_rc(r->pl->list, name);

	if (!rc)
		rc = find_rc(r->pl->classes, name);
	if (rc)
		return rc;
	for (size_t i = 0; i < r->nunknown_rc; i++)
		if (strcmp(r->unknown_rc[i], name) == 0)
			return NULL;
	WG_GROW(r->unknown_rc, r->unknown_cap, r->nunknown_rc + 1);
	r->unknown_rc[r->nunknown_rc++] = name;
	wg_warning(r->ctx, res, rcn, field, "RuntimeClass "
		   "'%s' is neither in the stream nor the profile's: the "
		   "nodes it selects are not known, so its pods are checked "
		   "by their own scheduling only", name);
	return NULL;
}

static void check_pod(struct run *r, const struct wg_resource *res,
		      const struct wg_podspec *ps, struct wg_buf *path)
{
	const struct wg_node *spec = ps->spec;
	const struct wg_node *rcn = wg_map_get(spec, "runtimeClassName");
	const struct wg_node *os = wg_path_get(spec, "os.name");
	const struct wg_node *at = wg_map_get(spec, "nodeSelector");
	const struct wg_resource *rc = NULL;
	enum wg_severity sev = ps->kind->node_agent ? WG_SEV_WARNING
						    : WG_SEV_ERROR;
	const char *what = ps->kind->node_agent ? "runs on no node"
						: "cannot be placed";
	struct wants w = { 0 };
	struct tols t = { 0 };
	struct wg_pod_needs needs = { 0 };
	const struct want *culprit;
	const char *why, *rcname = NULL;

	if (wg_is_scalar(rcn) && !wg_node_is_null(rcn) && rcn->len) {
		rcname = wg_scalar_dup(&r->arena, rcn);
		wg_podspec_path(path, ps, "runtimeClassName", (const char *)NULL);
		rc = pod_rc(r, res, rcn, path->buf, rcname);
	}
	add_selector(r, &w, at, NULL);
	/* the kubelet admits a pod only on a node of its spec.os */
	if (wg_is_scalar(os) && !wg_node_is_null(os) && os->len)
		add_want(&w, WG_LABEL_OS, wg_scalar_dup(&r->arena, os),
			 "spec.os.name");
	add_tolerations(&t, wg_map_get(spec, "tolerations"));
	if (rc) {
		const struct wg_node *sched = wg_map_get(rc->root,
							 "scheduling");

		add_selector(r, &w, wg_map_get(sched, "nodeSelector"),
			     wg_arena_printf(&r->arena, "its RuntimeClass %s",
					     rcname));
		add_tolerations(&t, wg_map_get(sched, "tolerations"));
	}
	all_nodes(r);
	if ((why = narrow_labels(r, &w, &culprit))) {
		const struct wg_node *node = culprit->from ? NULL : at;

		if (culprit->from && os && strcmp(culprit->from,
						  "spec.os.name") == 0)
			node = os;
		else if (culprit->from)
			node = rcn;
		wg_podspec_path(path, ps, node == os ? "os" : node == rcn
				? "runtimeClassName" : "nodeSelector",
				(const char *)NULL);
		wg_report(r->ctx, sev, res, node ? node : spec, path->buf,
			  "%s: %s", what, why);
		r->errors += sev == WG_SEV_ERROR;
		goto out;
	}
	/* required node affinity, node by node among those left */
	{
		const struct wg_node *aff = wg_path_get(spec,
			"affinity.nodeAffinity."
			"requiredDuringSchedulingIgnoredDuringExecution");
		size_t fit = count(r, r->set), left = 0;

		needs.spec = spec;
		for (size_t n = 0; n < r->c->len; n++) {
			r->set[n] = r->set[n]
				    && wg_node_affinity_admits(&r->c->nodes[n],
							       &needs);
			left += r->set[n];
		}
		if (!left) {
			wg_podspec_path(path, ps, "affinity", "nodeAffinity",
					"requiredDuringSchedulingIgnoredDuringExecution",
					(const char *)NULL);
			wg_report(r->ctx, sev, res, aff ? aff : spec, path->buf,
				  "%s: of the %zu %s its node selector "
				  "fits, none matches its required node "
				  "affinity", what, fit,
				  fit == 1 ? "node" : "nodes");
			r->errors += sev == WG_SEV_ERROR;
			goto out;
		}
	}
	if ((why = narrow_taints(r, &t))) {
		const struct wg_node *tn = wg_map_get(spec, "tolerations");

		wg_podspec_path(path, ps, "tolerations", (const char *)NULL);
		wg_report(r->ctx, sev, res, tn ? tn : spec, path->buf,
			  "%s: every node it fits has a taint it does not "
			  "tolerate%s%s: %s", what, rc ? " (nor does its "
			  "RuntimeClass " : "", rc ? wg_arena_printf(
			  &r->arena, "%s)", rcname) : "", why);
		r->errors += sev == WG_SEV_ERROR;
	}
out:
	free(w.items);
	free(t.items);
}

static void check_workloads(struct run *r)
{
	const struct wg_resources *list = r->pl->list;
	struct wg_buf path = WG_BUF_INIT;
	struct wg_arena a = WG_ARENA_INIT;

	for (size_t i = 0; i < list->len; i++) {
		const struct wg_resource *res = list->items[i];
		struct wg_podspec *ps;
		size_t n;

		if (res->flags & (WG_RES_DELETED | WG_RES_ERROR))
			continue;
		n = wg_podspec_find_all(&a, &r->pl->profile->kinds, res, &ps);
		for (size_t k = 0; k < n; k++) {
			const struct wg_node *nn = wg_map_get(ps[k].spec,
							      "nodeName");

			if (ps[k].kind->no_pods
			    || (wg_is_scalar(nn) && !wg_node_is_null(nn)
				&& nn->len))
				continue;
			check_pod(r, res, &ps[k], &path);
		}
		wg_arena_clear(&a);
	}
	wg_arena_release(&a);
	wg_buf_release(&path);
}

/* The RuntimeClasses of classes the stream's pods name and the stream
 * does not hold: they are checked as the stream's are. */
static void check_named_classes(struct run *r)
{
	const struct wg_resources *cl = r->pl->classes;
	struct wg_arena a = WG_ARENA_INIT;

	for (size_t i = 0; cl && i < cl->len; i++) {
		const struct wg_resource *rc = cl->items[i];
		char *name = wg_scalar_dup(&a, wg_resource_name_node(rc));
		bool named = false;

		if (!is_runtime_class(rc) || !name
		    || find_rc(r->pl->list, name))
			continue;
		for (size_t k = 0; k < r->pl->list->len && !named; k++) {
			const struct wg_resource *res = r->pl->list->items[k];
			struct wg_podspec *ps;
			size_t n;

			if (res->flags & WG_RES_DELETED)
				continue;
			n = wg_podspec_find_all(&a, &r->pl->profile->kinds,
						res, &ps);
			for (size_t j = 0; j < n && !named; j++)
				named = wg_scalar_is(wg_map_get(ps[j].spec,
						     "runtimeClassName"), name);
		}
		if (named)
			check_rc(r, rc);
	}
	wg_arena_release(&a);
}

size_t wg_placement_check(struct wg_ctx *ctx, const struct wg_placement *pl)
{
	struct run r = { .ctx = ctx, .pl = pl, .c = pl->cluster };

	wg_arena_init(&r.arena);
	r.set = wg_xcalloc(r.c->len + 1, sizeof(*r.set));
	r.next = wg_xcalloc(r.c->len + 1, sizeof(*r.next));
	check_builds(&r);
	for (size_t i = 0; i < pl->list->len; i++)
		if (is_runtime_class(pl->list->items[i])
		    && !(pl->list->items[i]->flags & WG_RES_ERROR))
			check_rc(&r, pl->list->items[i]);
	check_named_classes(&r);
	check_workloads(&r);
	free(r.set);
	free(r.next);
	free(r.unknown_rc);
	wg_arena_release(&r.arena);
	return r.errors;
}

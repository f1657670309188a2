/*
 * The proof of a chart migration (docs/helm.md, "Prove"): the chart is
 * rendered again with its new values (a temporary file given to helm
 * with -f, or a temporary copy of the chart holding the new values.yaml
 * and templates), and every pod spec of that render must be what the
 * chain made of the first one, with nothing left for the chain to
 * change.  An object carried without spec.os.name (chart_map.c) must
 * render as the chain made it without that, and the chain may still add
 * it (and make the removals it forces) there: nothing else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/output.h"
#include "wingen/k8s/podspec.h"
#include "wingen/profile/profile.h"

static const struct wg_kind_set *kinds(const struct chart_run *r)
{
	return r->ctx->profile ? &r->ctx->profile->kinds : NULL;
}

/* A pod spec without its top-level keys set to false: a bool field of
 * the pod spec (hostPID, hostNetwork, ...) is false when absent. */
static struct wg_node *without_false(struct wg_arena *a,
				     const struct wg_node *spec)
{
	struct wg_node *c = wg_node_clone(a, spec);

	for (size_t i = c->len; i-- > 0;)
		if (wg_node_bool(wg_map_value(c, i)) == WG_BOOL_FALSE)
			wg_map_delete_at(c, i);
	return c;
}

/* The first top-level key where two pod specs differ (in arena). */
static const char *first_difference(struct wg_arena *a,
				    const struct wg_node *x,
				    const struct wg_node *y)
{
	for (int pass = 0; pass < 2; pass++) {
		const struct wg_node *m = pass ? y : x, *o = pass ? x : y;

		for (size_t i = 0; i < m->len; i++) {
			char *k = wg_scalar_dup(a, wg_map_key(m, i));
			const struct wg_node *ov = wg_map_get(o, k);

			if (!ov || !wg_node_equal(ov, wg_map_value(m, i)))
				return k;
		}
	}
	return "containers";
}

/* An error about an object of render two, at its template's line for
 * key (the object's first line when none writes it): "LABEL: what". */
static void at_key(struct chart_run *r, const struct chart_origin *o,
		   const char *key, const char *label, const char *what)
{
	const struct wg_chart_tpl *t = NULL;
	uint32_t line = key ? chart_key_line(r, o, key, &t) : 0;

	if (!line)
		chart_locate(r, o, "", 0, 0, &t, &line, NULL);
	wg_report_at(r->ctx, WG_SEV_ERROR, chart_where(r, t, o->src), line, 0,
		     "%s: %s", label, what);
}

/* As at_key(), at the line of path's nearest key the template writes. */
static void at_path(struct chart_run *r, const struct chart_origin *o,
		    const char *path, const char *label, const char *what)
{
	const struct wg_chart_tpl *t = NULL;
	uint32_t line = chart_path_line(r, o, path, &t);

	if (!line)
		chart_locate(r, o, "", 0, 0, &t, &line, NULL);
	wg_report_at(r->ctx, WG_SEV_ERROR, chart_where(r, t, o->src), line, 0,
		     "%s: %s", label, what);
}

/* The chain's errors on render two, moved to template lines. */
static int chain_errors(struct chart_run *r, struct chart_render *two,
			const struct wg_ctx *scratch)
{
	size_t before = r->ctx->log.ndiags;
	int rc = 0;

	for (size_t i = 0; i < scratch->log.ndiags; i++) {
		const struct wg_diag *d = &scratch->log.diags[i];

		if (d->severity != WG_SEV_ERROR)
			continue;
		wg_report_at(r->ctx, WG_SEV_ERROR, d->file, d->line, d->col,
			     "rendered with the new values: %s%s%s",
			     d->field ? d->field : "", d->field ? ": " : "",
			     d->message);
		rc = -1;
	}
	chart_reposition(r, two, before);
	return rc;
}

/* Render one and two have as many objects of each template. */
static int same_objects(struct chart_run *r, const struct chart_render *one,
			const struct chart_render *two)
{
	if (two->nread == one->nread)
		return 0;
	for (size_t i = 0; i < two->nread + one->nread; i++) {
		const struct chart_render *a = i < two->nread ? two : one;
		const struct chart_render *b = a == two ? one : two;
		const struct wg_resource *res =
			a->list.items[i < two->nread ? i : i - two->nread];
		const struct chart_origin *o = chart_origin_of(res);

		if (!o || chart_same_object(b, o))
			continue;
		at_key(r, o, NULL, wg_resource_label(&r->arena, res),
		       a == two ? "rendered with the new values, the chart "
				  "makes this object, which it did not make "
				  "before"
				: "rendered with the new values, the chart no "
				  "longer makes this object");
		return -1;
	}
	wg_report_at(r->ctx, WG_SEV_ERROR, r->dir, 0, 0, "rendered with the "
		     "new values, the chart makes %zu objects instead of %zu",
		     two->nread, one->nread);
	return -1;
}

static void fail(struct chart_run *r, enum chart_failure_kind kind,
		 size_t seq, const char *path, const char *field)
{
	WG_GROW(r->failures, r->failures_cap, r->nfailures + 1);
	r->failures[r->nfailures++] = (struct chart_failure){
		kind, seq, wg_arena_strdup(&r->arena, path),
		field ? wg_arena_strdup(&r->arena, field) : NULL };
}

/* The pod-spec key a path lies under (after "spec." of a pod spec's
 * path), or NULL. */
static const char *pod_field(struct chart_run *r, const struct wg_resource *res,
			     const char *path)
{
	struct wg_podspec *ps;
	struct wg_buf b = WG_BUF_INIT;
	const char *field = NULL;
	size_t n = wg_podspec_find_all(&r->arena, kinds(r), res, &ps);

	for (size_t p = 0; p < n && !field; p++) {
		size_t len;

		wg_podspec_path(&b, &ps[p], "x", NULL);
		len = b.len - 1;
		if (strncmp(path, b.buf, len) == 0 && path[len])
			field = wg_arena_strndup(&r->arena, path + len,
						 strcspn(path + len, ".["));
	}
	wg_buf_release(&b);
	return field;
}

/* Object res of render two against render one's: what differs goes to
 * r->failures. */
static int same_object(struct chart_run *r, const struct chart_render *one,
		       struct wg_resource *res)
{
	const struct chart_origin *o = chart_origin_of(res);
	const struct wg_resource *was = chart_same_object(one, o);
	const struct chart_origin *wo = was ? chart_origin_of(was) : NULL;
	struct wg_tdiff_list d = { .items = NULL };
	struct wg_resource b2 = *res, want = was ? *was : *res;
	struct wg_podspec *p2, *p1;
	size_t n2, n1, nf = r->nfailures;

	if (!was)
		return 0;	/* same_objects() said so */
	if (wo->no_os) {
		/* the chain may still add os.name there, and remove what
		 * it forces: only what it did so in render one */
		struct wg_tdiff_list f = { .items = NULL };

		wg_tree_diff(&r->arena, wo->no_os, was->root, &f);
		wg_tree_diff(&r->arena, o->before, res->root, &d);
		for (size_t i = 0; i < d.len; i++) {
			bool forced = false;

			for (size_t j = 0; j < f.len && !forced; j++)
				forced = strcmp(f.items[j].path,
						d.items[i].path) == 0;
			if (forced)
				continue;
			fail(r, CHART_MORE_THAN_OS, wo->seq, d.items[i].path,
			     pod_field(r, was, d.items[i].path));
			break;
		}
		wg_tdiff_list_release(&f);
		want.root = (struct wg_node *)wo->no_os;
	} else if (wg_tree_diff(&r->arena, o->before, res->root, &d)) {
		fail(r, CHART_STILL_CHANGES, wo->seq, d.items[0].path,
		     pod_field(r, was, d.items[0].path));
	}
	wg_tdiff_list_release(&d);
	b2.root = o->before;
	n2 = wg_podspec_find_all(&r->arena, kinds(r), &b2, &p2);
	n1 = wg_podspec_find_all(&r->arena, kinds(r), &want, &p1);
	for (size_t p = 0; p < n1 && p < n2; p++) {
		const struct wg_node *s1 = without_false(&r->arena,
							 p1[p].spec);
		const struct wg_node *s2 = without_false(&r->arena,
							 p2[p].spec);
		struct wg_buf path = WG_BUF_INIT;
		const char *f;

		if (wg_node_equal(s1, s2))
			continue;
		f = first_difference(&r->arena, s1, s2);
		/* one failure per field */
		for (size_t k = nf; k < r->nfailures && f; k++)
			if (r->failures[k].field
			    && strcmp(r->failures[k].field, f) == 0)
				f = NULL;
		if (!f)
			continue;
		wg_podspec_path(&path, &p1[p], f, NULL);
		fail(r, CHART_SPEC_DIFFERS, wo->seq, path.buf, f);
		wg_buf_release(&path);
	}
	return r->nfailures > nf ? -1 : 0;
}

const char *chart_carried_by(const struct chart_run *r, size_t seq,
			     const char *field)
{
	for (size_t i = 0; field && i < r->ncarried; i++)
		if (r->carried[i].seq == seq
		    && strcmp(r->carried[i].field, field) == 0)
			return r->carried[i].key;
	return NULL;
}

void chart_report_failures(struct chart_run *r,
			   const struct chart_render *one)
{
	static const char *const what[] = {
		[CHART_STILL_CHANGES] = "the chain still changes it",
		[CHART_SPEC_DIFFERS] = "it differs from what wingen build "
				       "makes of the chart",
		[CHART_MORE_THAN_OS] = "the chain changes it, beyond the "
				       "spec.os.name the object was migrated "
				       "without",
	};

	for (size_t i = 0; i < r->nfailures; i++) {
		const struct chart_failure *f = &r->failures[i];
		const struct wg_resource *res = NULL;
		const char *key = chart_carried_by(r, f->seq, f->field);

		for (size_t j = 0; j < one->list.len && !res; j++)
			if (chart_origin_of(one->list.items[j])
			    && chart_origin_of(one->list.items[j])->seq
			       == f->seq)
				res = one->list.items[j];
		if (!res)
			continue;
		at_path(r, chart_origin_of(res), f->path,
		       wg_resource_label(&r->arena, res),
		       wg_arena_printf(&r->arena, "%s: rendered with the new "
			       "values, %s%s%s%s", f->path, what[f->kind],
			       key ? ": the values key " : "",
			       key ? key : "",
			       key ? " set for it does not reach it (the "
				     "template reads it under a condition "
				     "this render does not meet, or for "
				     "another object), nor does the "
				     "template's literal YAML carry it"
				   : " (a values key feeds more than this "
				     "object, or not this field)"));
	}
}

/* Render two (with first/last values, or of r->render_dir), held to
 * render one. */
static int verify(struct chart_run *r, const struct chart_render *one,
		  const char *first, const char *last)
{
	struct chart_render two;
	struct wg_ctx scratch;
	int rc = 0;

	if (chart_render(r, first, last, &two)) {
		chart_render_release(&two);
		r->problems++;
		return -1;
	}
	wg_ctx_init(&scratch);
	scratch.limits = r->ctx->limits;
	scratch.profile = r->ctx->profile;
	scratch.skip_changes = true;
	r->o->chain(r->o->chain_arg, &scratch, &two.list, false);
	rc = chain_errors(r, &two, &scratch);
	wg_ctx_release(&scratch);
	if (same_objects(r, one, &two))
		rc = -1;
	r->problems += rc != 0;
	for (size_t i = 0; i < two.list.len; i++)
		if (chart_origin_of(two.list.items[i])
		    && same_object(r, one, two.list.items[i]))
			rc = -1;
	chart_render_release(&two);
	return rc;
}

/* A temporary file holding text, for helm -f; its path, or NULL.  A
 * signal or an exit removes it (output.h, scratch files). */
static char *temp_values(struct wg_ctx *ctx, const struct wg_buf *text)
{
	return wg_scratch_file_write(ctx, "wingen-values", text->buf,
				     text->len);
}

/* The proof for template edits: the chart copied with its new values.yaml
 * and templates, rendered with the user's arguments. */
static int verify_copy(struct chart_run *r, const struct chart_render *one,
		       const struct wg_buf *values)
{
	/* removed by a signal or an exit too (output.h, scratch folders) */
	char *base = wg_scratch_dir_make(r->ctx, "wingen-chart");
	struct wg_chart_file *files = wg_xcalloc(r->ntedits + 1,
						 sizeof(*files));
	size_t n = 0;
	char *copy = NULL;
	int rc = -1;

	if (!base)
		goto out;
	copy = wg_xmalloc(strlen(base) + 8);
	sprintf(copy, "%s/chart", base);
	if (r->edits.len)
		files[n++] = (struct wg_chart_file){ "values.yaml",
						     values->buf, values->len };
	for (size_t i = 0; i < r->ntedits; i++)
		files[n++] = (struct wg_chart_file){ r->tedits[i].t->path,
			r->tedits[i].text.buf, r->tedits[i].text.len };
	if (wg_chart_copy(r->ctx, r->dir, copy, files, n) == 0) {
		r->render_dir = copy;
		rc = verify(r, one, NULL, NULL);
		r->render_dir = NULL;
	}
out:
	wg_scratch_dir_remove(base);
	free(copy);
	free(files);
	return rc;
}

/* Each template's edits applied into its text buffer. */
static int apply_tpl_edits(struct chart_run *r)
{
	for (size_t i = 0; i < r->ntedits; i++) {
		struct chart_tpl_edit *te = &r->tedits[i];

		if (wg_edits_apply(&te->edits, te->t->text, te->t->len,
				   &te->text) == 0)
			continue;
		wg_report_at(r->ctx, WG_SEV_ERROR,
			     chart_where(r, te->t, NULL), 1, 0,
			     "two edits of the template's literal YAML "
			     "overlap");
		r->problems++;
		return -1;
	}
	return 0;
}

int chart_prove(struct chart_run *r, const struct chart_render *one,
		const struct wg_buf *values)
{
	char *tmp;
	int rc;

	if (r->ntedits)
		return apply_tpl_edits(r) ? -1 : verify_copy(r, one, values);
	tmp = temp_values(r->ctx, values);
	if (!tmp)
		return -1;
	rc = verify(r, one, r->o->mode == WG_CHART_VALUES_OUT ? NULL : tmp,
		    r->o->mode == WG_CHART_VALUES_OUT ? tmp : NULL);
	wg_scratch_file_remove(tmp);
	return rc;
}

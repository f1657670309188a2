/*
 * Chart migration, the whole run (docs/helm.md):
 *
 *   helm template -> render one -> chain -> each changed object's changes
 *     carried to values keys and template literal edits (chart_map.c);
 *     an object whose spec.os.name cannot be carried with the removals
 *     it forces is carried without them, with a warning
 *   values and templates -> render two -> the proof (chart_proof.c)
 *
 * Nothing is written here: the caller gets the files to write, and gets
 * them only when the proof holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chart_internal.h"
#include "wingen/base/alloc.h"
#include "wingen/base/input.h"
#include "wingen/k8s/podspec.h"
#include "wingen/profile/profile.h"

#define MAX_FIELDS 3

static bool changed(const struct wg_resource *res)
{
	const struct chart_origin *o = chart_origin_of(res);

	return o && !wg_node_equal(o->before, res->root);
}

/* Forgets every planned edit: the mapping starts again. */
static void map_reset(struct chart_run *r)
{
	r->edits.len = 0;
	chart_tpl_edits_release(r);
	free(r->shared);
	r->shared = NULL;
	r->nshared = r->shared_cap = 0;
	r->ncarried = 0;
	r->problems = 0;
}

/* What the chain makes of each object when os.name is left out. */
static int chain_without_os(struct chart_run *r,
			    const struct chart_render *one)
{
	struct wg_ctx scratch;
	int rc;

	if (chart_read(r, one->in.data, one->in.len, &r->noos)) {
		chart_render_release(&r->noos);
		return -1;
	}
	r->have_noos = true;
	wg_ctx_init(&scratch);
	scratch.limits = r->ctx->limits;
	scratch.profile = r->ctx->profile;
	scratch.skip_changes = true;
	rc = r->o->chain(r->o->chain_arg, &scratch, &r->noos.list, true);
	wg_ctx_release(&scratch);
	return rc;
}

/* Whether a path lies under (or is) one of list's. */
static bool under(const struct wg_pathlist *list, const char *path)
{
	for (size_t i = 0; i < list->len; i++) {
		size_t n = strlen(list->items[i]);

		if (strncmp(path, list->items[i], n) == 0
		    && (path[n] == '\0' || path[n] == '.' || path[n] == '['))
			return true;
	}
	return false;
}

/* The removals of the full chain's result that its result without
 * spec.os.name does not make. */
static void forced(struct chart_run *r, const struct wg_node *no_os,
		   const struct wg_node *full, struct wg_pathlist *out)
{
	struct wg_tdiff_list d = { .items = NULL };

	wg_tree_diff(&r->arena, no_os, full, &d);
	for (size_t i = 0; i < d.len; i++)
		if (d.items[i].kind == WG_TDIFF_REMOVE)
			wg_pathlist_add(out, d.items[i].path);
	wg_tdiff_list_release(&d);
}

/*
 * Maps every changed object once quietly.  One that cannot be carried
 * because a removal spec.os.name forces cannot be (a Linux-only field the
 * template writes literally) is tried again as the chain makes it
 * without os.name; each that maps then is carried so (o->no_os).
 */
static void choose_no_os(struct chart_run *r, const struct chart_render *one)
{
	struct wg_pathlist *left = wg_xcalloc(one->list.len + 1,
					      sizeof(*left));
	bool any = false;

	for (size_t i = 0; i < one->list.len; i++)
		if (changed(one->list.items[i]))
			any |= chart_map_object(r, one, one->list.items[i],
						one->list.items[i]->root,
						&left[i]) > 0;
	map_reset(r);
	if (any && chain_without_os(r, one) == 0) {
		for (size_t i = 0; i < one->list.len; i++) {
			struct wg_resource *res = one->list.items[i];
			struct chart_origin *o = chart_origin_of(res);
			const struct wg_resource *alt;
			struct wg_pathlist f = { 0 };
			bool stuck = false;

			if (!left[i].len
			    || !(alt = chart_same_object(&r->noos, o)))
				continue;
			forced(r, alt->root, res->root, &f);
			for (size_t k = 0; k < left[i].len && !stuck; k++)
				stuck = under(&f, left[i].items[k]);
			if (stuck)
				o->no_os = alt->root;
			wg_pathlist_release(&f);
		}
		/* again with those: each that still cannot be carried keeps
		 * its os.name, and the errors say why */
		for (size_t i = 0; i < one->list.len; i++) {
			struct wg_resource *res = one->list.items[i];
			struct chart_origin *o = chart_origin_of(res);

			if (o && o->no_os
			    && chart_map_object(r, one, res, o->no_os,
						&left[i]))
				o->no_os = NULL;
		}
		map_reset(r);
	}
	for (size_t i = 0; i < one->list.len; i++)
		wg_pathlist_release(&left[i]);
	free(left);
}

/* One field os.name would have removed, into the warning's list. */
static void forced_field(struct chart_run *r, const struct chart_origin *o,
			 const char *path, struct wg_buf *list, size_t *n,
			 const struct wg_chart_tpl **t, uint32_t *line)
{
	const struct wg_chart_tpl *ft;
	uint32_t l = chart_path_line(r, o, path, &ft);
	if ((*n)++ < MAX_FIELDS) {
		wg_buf_addf(list, "%s%s", *n > 1 ? ", " : "", path);
		if (l)
			wg_buf_addf(list, " (%s:%u)",
				    ft->path ? ft->path : ft->rel,
				    (unsigned)l);
	}
	if (!*line && l) {
		*line = l;
		*t = ft;
	}
}

/* The warning for an object carried without spec.os.name: at the first
 * field os.name would have removed, naming a few (a securityContext the
 * removals emptied, by the fields it held). */
static void warn_no_os(struct chart_run *r, const struct wg_resource *res)
{
	const struct chart_origin *o = chart_origin_of(res);
	struct wg_tdiff_list d = { .items = NULL };
	struct wg_buf list = WG_BUF_INIT;
	const struct wg_chart_tpl *t = NULL;
	uint32_t line = 0;
	size_t n = 0;

	wg_tree_diff(&r->arena, o->no_os, res->root, &d);
	for (size_t i = 0; i < d.len; i++) {
		const struct wg_tdiff *x = &d.items[i];

		if (x->kind != WG_TDIFF_REMOVE)
			continue;
		if (!wg_is_map(x->old_value) || !x->old_value->len) {
			forced_field(r, o, x->path, &list, &n, &t, &line);
			continue;
		}
		for (size_t j = 0; j < x->old_value->len; j++) {
			const char *key = wg_scalar_dup(&r->arena,
				wg_map_key(x->old_value, j));

			forced_field(r, o, wg_arena_printf(&r->arena, "%s.%s",
				     x->path, key), &list, &n, &t, &line);
		}
	}
	if (n > MAX_FIELDS)
		wg_buf_addf(&list, " and %zu more", n - MAX_FIELDS);
	if (!line)
		chart_locate(r, o, "", 0, 0, &t, &line, NULL);
	wg_report_at(r->ctx, WG_SEV_WARNING, chart_where(r, t, o->src), line,
		     0, "%s: spec.os.name is left out (migrated without it): "
		     "with os.name windows the API server rejects %s, which "
		     "the template writes and no values key or literal edit "
		     "removes for this object; the rest is migrated, and the "
		     "pod still goes to Windows nodes (os.name does not "
		     "schedule)", wg_resource_label(&r->arena, res),
		     list.len ? list.buf : "Linux-only fields");
	wg_buf_release(&list);
	wg_tdiff_list_release(&d);
}

/*
 * Every changed object's changes carried (or reported).  An object
 * carried without os.name may need nothing else (a chart migrated
 * before): it counts as unchanged, with its warning.  Returns -1 when
 * something cannot be carried.
 */
static int map_all(struct chart_run *r, const struct chart_render *one,
		   struct wg_chart_result *out)
{
	bool *copied = wg_xcalloc(one->nread + 1, sizeof(*copied));

	map_reset(r);
	out->objects = out->without_os = 0;
	/* an object fan-out copies per build: said once, at its template;
	 * its own changes (a new name) follow from that and are not */
	for (size_t i = 0; i < one->list.len; i++) {
		const struct wg_resource *from =
			chart_copied_from(one, one->list.items[i]);
		const struct chart_origin *o = from ? chart_origin_of(from)
						    : NULL;

		if (!o || copied[o->seq])
			continue;
		copied[o->seq] = true;
		out->objects++;
		chart_report_copy(r, one, one->list.items[i]);
	}
	for (size_t i = 0; i < one->list.len; i++) {
		struct wg_resource *res = one->list.items[i];
		const struct chart_origin *og = chart_origin_of(res);
		const struct wg_node *after;

		if (!changed(res) || copied[og->seq])
			continue;
		after = og->no_os ? og->no_os : res->root;
		if (og->no_os) {
			/* said once, though the mapping may run twice */
			if (!r->nbanned)
				warn_no_os(r, res);
			out->without_os++;
		}
		if (wg_node_equal(og->before, after))
			continue;
		out->objects++;
		chart_map_object(r, one, res, after, NULL);
	}
	free(copied);
	return r->problems ? -1 : 0;
}

/* After a failed proof: the fields a values key was set for that did not
 * reach them are banned from values (the literal YAML may carry them).
 * True when the mapping should run again. */
static bool retry(struct chart_run *r)
{
	size_t n = r->nbanned;

	if (n || r->problems)
		return false;	/* once; and not after other trouble */
	for (size_t i = 0; i < r->nfailures; i++) {
		const struct chart_failure *f = &r->failures[i];
		const char *key = chart_carried_by(r, f->seq, f->field);

		if (!key)
			continue;
		WG_GROW(r->banned, r->banned_cap, r->nbanned + 1);
		r->banned[r->nbanned++] = (struct chart_carried){ f->seq,
			f->field, key };
	}
	if (r->nbanned == n)
		return false;
	r->nfailures = 0;
	return true;
}

/* The RuntimeClasses the pods of the render name after the chain, and
 * those of them the chain made (fan-out's for several builds). */
static void runtime_classes(struct chart_run *r, const struct chart_render *rd,
			    struct wg_chart_result *out)
{
	for (size_t i = 0; i < rd->list.len; i++) {
		const struct wg_resource *res = rd->list.items[i];
		struct wg_podspec *ps;
		size_t n;

		if (res->flags & WG_RES_GENERATED) {
			const struct wg_node *nm = wg_resource_name_node(res);

			if (wg_is_scalar(nm))
				wg_pathlist_add(&out->made_runtime_classes,
						wg_scalar_dup(&r->arena, nm));
			continue;
		}
		n = wg_podspec_find_all(&r->arena, r->ctx->profile
					? &r->ctx->profile->kinds : NULL,
					res, &ps);
		for (size_t p = 0; p < n; p++) {
			const struct wg_node *v =
				wg_map_get(ps[p].spec, "runtimeClassName");
			const char *name;
			bool have = false;

			if (!wg_is_scalar(v) || wg_node_is_null(v))
				continue;
			name = wg_scalar_dup(&r->arena, v);
			for (size_t k = 0; k < out->runtime_classes.len; k++)
				have |= strcmp(out->runtime_classes.items[k],
					       name) == 0;
			if (!have)
				wg_pathlist_add(&out->runtime_classes, name);
		}
	}
}

static void add_write(struct wg_chart_result *out, const char *path,
		      const char *old, size_t old_len, struct wg_buf *text)
{
	struct wg_chart_write *w;

	WG_GROW(out->writes, out->cap, out->nwrites + 1);
	w = &out->writes[out->nwrites++];
	w->path = wg_xstrdup(path);
	w->old = old ? wg_xstrndup(old, old_len) : NULL;
	w->old_len = old ? old_len : 0;
	w->text = wg_buf_detach(text, &w->len);
}

/* The values text: the overlay, or values.yaml edited. */
static int values_text(struct chart_run *r, struct wg_buf *text)
{
	const char *why;
	size_t line;

	if (r->o->mode == WG_CHART_VALUES_OUT) {
		wg_values_overlay(text, &r->edits, r->dir);
		return 0;
	}
	if (wg_values_edit_text(r->c.values_text, r->c.values_len, &r->edits,
				text, &why, &line) == 0)
		return 0;
	return wg_report_at(r->ctx, WG_SEV_ERROR, r->c.values_path,
			    (uint32_t)line + 1, 0, "cannot edit the values as "
			    "text: %s (--values-out writes them to a file of "
			    "their own)", why);
}

static void writes(struct chart_run *r, struct wg_buf *text,
		   struct wg_chart_result *out)
{
	if (r->o->mode == WG_CHART_VALUES_OUT) {
		struct wg_input in;
		struct wg_ctx scratch;
		bool have;

		wg_ctx_init(&scratch);
		have = access(r->o->values_out, F_OK) == 0
		       && wg_input_read(&scratch, r->o->values_out, &in) == 0;
		add_write(out, r->o->values_out, have ? in.data : NULL,
			  have ? in.len : 0, text);
		if (have)
			wg_input_release(&in);
		wg_ctx_release(&scratch);
		return;
	}
	if (r->edits.len)
		add_write(out, r->c.values_path, r->c.values_text,
			  r->c.values_len, text);
	for (size_t i = 0; i < r->ntedits; i++) {
		const struct wg_chart_tpl *t = r->tedits[i].t;

		add_write(out, chart_where(r, t, NULL), t->text, t->len,
			  &r->tedits[i].text);
		out->templates++;
	}
}

int wg_chart_migrate(struct wg_ctx *ctx, const char *dir,
		     const struct wg_chart_opts *o,
		     struct wg_chart_result *out)
{
	struct chart_run r;
	struct chart_render one;
	struct wg_buf text = WG_BUF_INIT;
	size_t before;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	r.ctx = ctx;
	r.o = o;
	r.dir = dir;
	r.one = &one;
	wg_arena_init(&r.arena);
	wg_arena_init(&r.edits.arena);
	memset(&one, 0, sizeof(one));
	wg_resources_init(&one.list);
	out->renders++;
	/* a gzip bomb among the packed subcharts never reaches helm */
	if (wg_chart_check_packed(ctx, dir)
	    || chart_render(&r, NULL, NULL, &one))
		goto done;
	before = ctx->log.ndiags;
	rc = o->chain(o->chain_arg, ctx, &one.list, false);
	/* the chain's messages point into the render: move them to the
	 * templates (this reads the chart when there are any) */
	chart_reposition(&r, &one, before);
	rc = rc || wg_ctx_failed(ctx) ? -1 : 0;
	runtime_classes(&r, &one, out);
	for (size_t i = 0; i < one.list.len; i++)
		out->objects += changed(one.list.items[i])
				|| chart_copied_from(&one, one.list.items[i]);
	/* the templates are read only for a chart that needs a change: a
	 * large chart's CRDs cost more than its render */
	if (rc || !out->objects || chart_load(&r)) {
		rc = rc || !out->objects ? rc : -1;
		goto done;
	}
	rc = -1;
	choose_no_os(&r, &one);
	if (map_all(&r, &one, out))
		goto done;
	if (!out->objects) {
		rc = 0;
		goto done;
	}
	out->keys = r.edits.len;
	if (values_text(&r, &text))
		goto done;
	out->renders++;
	if (chart_prove(&r, &one, &text) && retry(&r)) {
		/* once more without the values keys that did not reach */
		wg_buf_reset(&text);
		if (map_all(&r, &one, out) || values_text(&r, &text))
			goto done;
		out->keys = r.edits.len;
		out->renders++;
		chart_prove(&r, &one, &text);
	}
	if (r.nfailures)
		chart_report_failures(&r, &one);
	if (r.problems || r.nfailures)
		goto done;
	writes(&r, &text, out);
	rc = 0;
done:
	chart_tpl_edits_release(&r);
	free(r.shared);
	free(r.carried);
	free(r.banned);
	free(r.failures);
	if (r.have_ix)
		wg_pos_index_release(&r.ix);
	if (r.have_noos)
		chart_render_release(&r.noos);
	wg_buf_release(&text);
	chart_render_release(&one);
	wg_values_edits_release(&r.edits);
	if (r.loaded)
		wg_chart_release(&r.c);
	wg_arena_release(&r.arena);
	return rc;
}

void wg_chart_result_release(struct wg_chart_result *r)
{
	for (size_t i = 0; i < r->nwrites; i++) {
		free(r->writes[i].path);
		free(r->writes[i].old);
		free(r->writes[i].text);
	}
	free(r->writes);
	wg_pathlist_release(&r->runtime_classes);
	wg_pathlist_release(&r->made_runtime_classes);
	memset(r, 0, sizeof(*r));
}

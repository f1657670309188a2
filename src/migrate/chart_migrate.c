#define _GNU_SOURCE	/* memmem */
/*
 * Chart migration, the whole run (docs/helm.md):
 *
 *   helm template -> render 1 -> chain -> per object, per pod spec field:
 *     the changed field's values key (chart_hooks.c) and the value it
 *     needs (chart_values.c); what no key carries is an error naming
 *     the template, the object and the field
 *   values -> render 2 -> the proof: every pod spec equals what the chain
 *     made of render 1, and the chain changes nothing in it
 *
 * Nothing is written here: the caller gets the files to write, and gets
 * them only when the proof holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wingen/base/alloc.h"
#include "wingen/base/input.h"
#include "wingen/base/output.h"
#include "wingen/k8s/podspec.h"
#include "wingen/migrate/chart.h"
#include "wingen/migrate/migrate.h"
#include "wingen/yaml/reader.h"

#define MAX_KEYS 16

/* Pod-spec fields whose values hooks take additions: the keys or items
 * the chain adds go next to what the chart's values already hold (a
 * template may write some inline and append the values). */
static const char *const additive[] = {
	"nodeSelector", "tolerations", "runtimeClassName", NULL,
};

/* Never carried through values as a whole: containers are lists of
 * objects that templates build item by item. */
static const char *const not_whole[] = {
	"containers", "initContainers", "ephemeralContainers", NULL,
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (strcmp(*l, s) == 0)
			return true;
	return false;
}

struct render {
	struct wg_input in;
	struct wg_resources list;
	struct wg_source_map sources;
	char **keys;		/* per resource: source, kind, nth */
};

struct tpl_edit;

struct run {
	struct wg_ctx *ctx;
	const struct wg_chart_opts *o;
	struct wg_chart c;
	const char *dir;
	const char *render_dir;	/* an edited copy of dir, or NULL */
	struct wg_values_edits edits;
	struct wg_arena arena;
	size_t problems;
	struct tpl_edit *tedits;	/* --in-place: template literal edits */
	size_t ntedits, tedits_cap;
	struct wg_pos_index ix;	/* of render 1, for the edits' blocks */
	bool have_ix;
	struct shared *shared;	/* fields whose key also feeds another
				   object the chain leaves alone */
	size_t nshared, shared_cap;
};

/* A pod-spec field not carried by its values key, because the key also
 * feeds another object whose same field must stay as it is. */
struct shared {
	const char *path;	/* the field, in the object */
	size_t object;		/* the object, in render 1 */
	const char *key;
	size_t other;		/* the object the key also feeds */
	bool reported;
};

struct tpl_edit {
	const struct wg_chart_tpl *t;
	struct wg_edits edits;
	struct wg_buf text;	/* the edited template */
};

/* ---- rendering ---------------------------------------------------------- */

static int helm_template(struct run *r, const char *first_values,
			 const char *last_values, struct render *out)
{
	struct wg_buf text = WG_BUF_INIT;
	int rc;

	rc = wg_helm_template(r->ctx, r->o->helm,
			      r->render_dir ? r->render_dir : r->dir,
			      first_values, r->o->helm_args, r->o->nhelm_args,
			      last_values, &text);
	memset(out, 0, sizeof(*out));
	wg_resources_init(&out->list);
	if (rc) {
		wg_buf_release(&text);
		return -1;
	}
	out->in.name = wg_xstrdup(r->dir);
	out->in.data = wg_buf_detach(&text, &out->in.len);
	wg_source_map_build(&out->sources, out->in.data, out->in.len);
	if (wg_read_stream(r->ctx, &out->in, &out->list))
		return -1;
	out->keys = wg_xcalloc(out->list.len + 1, sizeof(*out->keys));
	for (size_t i = 0; i < out->list.len; i++) {
		struct wg_resource *res = out->list.items[i];
		const char *src = wg_source_map_get(&out->sources,
						    wg_node_line(res->root));
		const char *kind = wg_resource_kind(&out->list.arena, res);
		size_t nth = 0;
		char *k = wg_arena_printf(&out->list.arena, "%s\x1f%s",
					  src ? src : "?", kind ? kind : "?");

		for (size_t j = 0; j < i; j++)
			nth += strncmp(out->keys[j], k, strlen(k)) == 0
			       && out->keys[j][strlen(k)] == '\x1f';
		out->keys[i] = wg_arena_printf(&out->list.arena, "%s\x1f%zu",
					       k, nth);
		res->payload = wg_node_clone(&out->list.arena, res->root);
	}
	return 0;
}

static void render_release(struct render *r)
{
	free(r->keys);
	wg_source_map_release(&r->sources);
	wg_resources_release(&r->list);
	wg_input_release(&r->in);
}

/*
 * The chain inserts objects (RuntimeClasses, fan-out's copies) among those
 * read, which keep their order: the keys follow the objects read (those
 * with a payload), NULL for the others.
 */
static void realign_keys(struct render *rd)
{
	char **keys = wg_xcalloc(rd->list.len + 1, sizeof(*keys));
	size_t k = 0;

	for (size_t i = 0; i < rd->list.len; i++)
		if (rd->list.items[i]->payload && rd->keys[k])
			keys[i] = rd->keys[k++];
	free(rd->keys);
	rd->keys = keys;
}

static const char *source_of(const struct render *rd, size_t i)
{
	return wg_source_map_get(&rd->sources,
				 wg_node_line(rd->list.items[i]->root));
}

/* ---- mapping changes to values ----------------------------------------- */

/* Which of the template's objects of its kind res is, and of how many. */
static void position_in_source(const struct render *rd, size_t i,
			       size_t *nth, size_t *count)
{
	const char *key = rd->keys[i], *last = strrchr(key, '\x1f');
	size_t n = (size_t)(last - key) + 1;

	*nth = *count = 0;
	for (size_t j = 0; j < rd->list.len; j++)
		if (rd->keys[j] && strncmp(rd->keys[j], key, n) == 0) {
			*nth += j < i;
			(*count)++;
		}
}

/* What the chain added to an additive field (NULL: it also took
 * something away, which values cannot say). */
static struct wg_node *added(struct wg_arena *a, const struct wg_node *b,
			     const struct wg_node *v)
{
	struct wg_node *out;

	if (!v)
		return NULL;
	if (wg_is_scalar(v))
		return (struct wg_node *)v;
	if (wg_is_map(v)) {
		out = wg_node_new_map(a);
		for (size_t i = 0; wg_is_map(b) && i < b->len; i++)
			if (!wg_map_get(v, wg_scalar_dup(a, wg_map_key(b, i))))
				return NULL;	/* a key removed */
		for (size_t i = 0; i < v->len; i++) {
			char *k = wg_scalar_dup(a, wg_map_key(v, i));
			const struct wg_node *was = wg_map_get(b, k);

			if (!was || !wg_node_equal(was, wg_map_value(v, i)))
				wg_map_set(a, out, k, wg_map_value(v, i));
		}
		return out;
	}
	out = wg_node_new_seq(a);
	for (size_t i = 0; wg_is_seq(b) && i < b->len; i++) {
		bool kept = false;

		for (size_t j = 0; !kept && j < v->len; j++)
			kept = wg_node_equal(wg_seq_item(b, i),
					     wg_seq_item(v, j));
		if (!kept)
			return NULL;
	}
	for (size_t i = 0; i < v->len; i++) {
		bool had = false;

		for (size_t j = 0; wg_is_seq(b) && !had && j < b->len; j++)
			had = wg_node_equal(wg_seq_item(b, j),
					    wg_seq_item(v, i));
		if (!had)
			wg_seq_append(a, out, wg_seq_item(v, i));
	}
	return out;
}

/* Whether a change at path lies under one of the carried field paths. */
static bool carried(const struct wg_pathlist *done, const char *path)
{
	for (size_t i = 0; i < done->len; i++) {
		size_t n = strlen(done->items[i]);

		if (strncmp(path, done->items[i], n) == 0
		    && (path[n] == '\0' || path[n] == '.' || path[n] == '['))
			return true;
	}
	return false;
}

/* A template's path as the user sees it: CHART/rel. */
static const char *where(struct run *r, const char *rel)
{
	return rel ? wg_arena_printf(&r->arena, "%s/%s", r->dir, rel) : r->dir;
}

static const char *label(struct run *r, const struct render *rd, size_t i)
{
	return wg_resource_label(&r->arena, rd->list.items[i]);
}

static bool in_keys(const char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

/*
 * Another object of the render that takes field f from the values key
 * key (its template reads it and, by the pick rule, uses it) while the
 * chain leaves its f as it is: setting the key would change that object
 * too (a Linux DaemonSet sharing node.nodeSelector with a Windows one).
 * Its index, or -1.  Objects without a pod spec do not count: a file's
 * parts are told apart by kind only, and a ClusterRoleBinding's roleRef
 * says "kind: ClusterRole" too.
 */
static long shared_reader(struct run *r, const struct render *rd, size_t i,
			  const char *f, const char *key)
{
	for (size_t j = 0; j < rd->list.len; j++) {
		struct wg_resource *res = rd->list.items[j], tb;
		const struct wg_chart_tpl *t;
		const char *keys[MAX_KEYS];
		struct wg_podspec *psb, *psa;
		size_t nth, count, nkeys, nb, na;
		bool reads = false, changed = false;

		if (j == i || (res->flags & WG_RES_GENERATED) || !res->payload
		    || !(t = wg_chart_tpl_find(&r->c, source_of(rd, j))))
			continue;
		position_in_source(rd, j, &nth, &count);
		nkeys = wg_chart_hook_keys(&r->c, t,
					   wg_resource_kind(&r->arena, res),
					   nth, count, f, &r->arena, keys,
					   MAX_KEYS);
		if (!in_keys(keys, nkeys, key))
			continue;
		tb = *res;
		tb.root = res->payload;
		nb = wg_podspec_find_all(&r->arena, NULL, &tb, &psb);
		na = wg_podspec_find_all(&r->arena, NULL, res, &psa);
		for (size_t p = 0; p < nb && p < na; p++) {
			const struct wg_node *bv = wg_map_get(psb[p].spec, f);
			const struct wg_node *av = wg_map_get(psa[p].spec, f);
			const char *pk = wg_chart_hook_pick(&r->c, keys, nkeys,
							    bv);

			if (!pk || strcmp(pk, key) != 0)
				continue;
			reads = true;
			changed |= (bv || av)
				   && !(bv && av && wg_node_equal(bv, av));
		}
		if (reads && !changed)
			return (long)j;
	}
	return -1;
}

/* One pod-spec field that changed: carried by a values key, or left in
 * the residual (reported later).  Returns true when carried. */
static bool carry(struct run *r, const struct render *rd, size_t i,
		  const struct wg_chart_tpl *t, const char *f, const struct wg_node *b,
		  const struct wg_node *v, const char *path)
{
	const char *keys[MAX_KEYS], *key, *conflict;
	size_t nth, count, nkeys;
	long other;
	struct wg_node *add;
	const char *why;
	const struct wg_node *cur;

	if (!t)
		return false;
	position_in_source(rd, i, &nth, &count);
	nkeys = wg_chart_hook_keys(&r->c, t,
				   wg_resource_kind(&r->arena, rd->list.items[i]),
				   nth, count, f, &r->arena, keys, MAX_KEYS);
	key = wg_chart_hook_pick(&r->c, keys, nkeys, b);
	if (!key)
		return false;
	other = shared_reader(r, rd, i, f, key);
	if (other >= 0) {
		/* not through the key: the template's literal YAML for this
		 * object alone (--in-place), or an error naming both */
		WG_GROW(r->shared, r->shared_cap, r->nshared + 1);
		r->shared[r->nshared++] = (struct shared){
			wg_arena_strdup(&r->arena, path), i, key,
			(size_t)other, false };
		return false;
	}
	why = wg_arena_printf(&r->arena, "%s: %s", label(r, rd, i), path);
	cur = wg_chart_value(&r->c, key);
	if (in_list(additive, f)) {
		add = added(&r->arena, b, v);
		if (!add)
			return false;
	} else {
		/* a whole field: only when values feed all of it */

		bool unset = wg_node_is_null(cur) || (cur && !wg_is_scalar(cur)
						      && cur->len == 0);

		/* values feed all of it: it renders as the values hold it,
		 * or it is absent and the values are empty */
		if (b ? !cur || !wg_node_equal(cur, b) : cur && !unset)
			return false;
		/* a removed flag becomes false (the API's default: the
		 * proof counts "false" as absent), anything else null */
		add = v ? (struct wg_node *)v
		      : wg_node_new_plain(&r->arena,
					  wg_node_bool(cur) == WG_BOOL_TRUE
					  ? "false" : "null");
		cur = NULL;
	}
	if (wg_values_edits_merge(&r->edits, key, cur, add, why,
				  &conflict)) {
		wg_report_at(r->ctx, WG_SEV_ERROR, where(r, t->path ? t->path : t->rel), 0, 0,
			     "%s: the values key %s feeds %s and %s, which "
			     "need different values", label(r, rd, i), key,
			     path, conflict);
		r->problems++;
	}
	return true;
}

static struct wg_edits *tpl_edits(struct run *r, const struct wg_chart_tpl *t)
{
	for (size_t i = 0; i < r->ntedits; i++)
		if (r->tedits[i].t == t)
			return &r->tedits[i].edits;
	WG_GROW(r->tedits, r->tedits_cap, r->ntedits + 1);
	memset(&r->tedits[r->ntedits], 0, sizeof(r->tedits[0]));
	r->tedits[r->ntedits].t = t;
	wg_buf_init(&r->tedits[r->ntedits].text);
	return &r->tedits[r->ntedits++].edits;
}

/* The rendered lines of a removed pair: from its key's line to the end
 * of its value's last line; NULL when they cannot be found. */
static const char *removed_block(struct run *r, const struct render *rd,
				 const struct wg_pos_map *map,
				 const struct wg_tdiff *d, size_t *len)
{
	const struct wg_pos_node *kp, *vp;
	size_t a, z;

	if (!wg_is_map(d->parent))
		return NULL;
	kp = wg_pos_map_key(map, d->parent, d->index);
	vp = wg_pos_map_get(map, d->old_value);
	if (!kp || !vp || vp->end <= kp->start)
		return NULL;
	a = wg_pos_offset(&r->ix, kp->line, 0);
	z = wg_pos_next_line(&r->ix, vp->end - 1);
	*len = z - a;
	return rd->in.data + a;
}

/*
 * The additions of left from k on into the collection d->parent (a
 * pod-spec field's mapping or sequence), made at once into the
 * template's literal block of that field: the first addition plans the
 * edit for all, the later ones find it planned.
 */
static bool add_to_block(struct run *r, const struct wg_chart_tpl *t,
			 const struct wg_tdiff_list *left, size_t k,
			 const char *field, const char *b, const char *e)
{
	const struct wg_tdiff *d = &left->items[k];
	struct wg_node *add;
	size_t line;

	for (size_t j = 0; j < k; j++)
		if (left->items[j].kind == WG_TDIFF_ADD
		    && left->items[j].parent == d->parent)
			return true;	/* planned with the first */
	add = wg_is_map(d->parent) ? wg_node_new_map(&r->arena)
				   : wg_node_new_seq(&r->arena);
	for (size_t j = k; j < left->len; j++) {
		const struct wg_tdiff *o = &left->items[j];

		if (o->kind != WG_TDIFF_ADD || o->parent != d->parent)
			continue;
		if (wg_is_map(add) && o->new_key)
			wg_map_set(&r->arena, add,
				   wg_scalar_dup(&r->arena, o->new_key),
				   (struct wg_node *)o->new_value);
		else if (wg_is_seq(add))
			wg_seq_append(&r->arena, add,
				      (struct wg_node *)o->new_value);
	}
	return wg_tpl_insert_into_block(t->text, b, e, field, add,
					tpl_edits(r, t), &line) == 0;
}

/*
 * --in-place: a change no values key carries, made in the template's
 * literal text (chart_tpledit.c).  Returns true when an edit was planned.
 */
static bool edit_template(struct run *r, const struct render *rd, size_t i,
			  const struct wg_chart_tpl *t,
			  const struct wg_tdiff_list *left, size_t k,
			  const struct wg_pos_map *map,
			  const struct wg_podspec *psb, size_t nb)
{
	const struct wg_tdiff *d = &left->items[k];
	const char *kind = wg_resource_kind(&r->arena, rd->list.items[i]);
	const char *b, *e, *block;
	size_t nth, count, blen, same = 0, total = 0, start, stop;

	/* a packed subchart's templates are not edited: in a .tgz in place
	 * they would be overwritten by the next helm dependency build */
	if (!t || !t->path || r->o->mode == WG_CHART_VALUES_OUT)
		return false;
	position_in_source(rd, i, &nth, &count);
	wg_chart_tpl_part(t, kind, nth, count, &b, &e);
	if (d->kind == WG_TDIFF_ADD) {
		bool podspec = false;
		const char *field = NULL;

		for (size_t p = 0; p < nb; p++) {
			podspec |= d->parent == psb[p].spec;
			for (size_t f = 0; !field && f < psb[p].spec->len; f++)
				if (wg_map_value(psb[p].spec, f) == d->parent)
					field = wg_scalar_dup(&r->arena,
						wg_map_key(psb[p].spec, f));
		}
		if (podspec)
			return d->new_key
			       && wg_tpl_insert_podspec_key(t->text, b, e,
							    d->new_key,
							    d->new_value,
							    tpl_edits(r, t))
				  == 0;
		return field && add_to_block(r, t, left, k, field, b, e);
	}
	if (d->kind != WG_TDIFF_REMOVE || !map)
		return false;
	block = removed_block(r, rd, map, d, &blen);
	if (!block)
		return false;
	/* the k-th of the object's removals of this same block takes the
	 * k-th place the template writes it, when the counts agree */
	for (size_t j = 0; j < left->len; j++) {
		const char *o;
		size_t olen;

		if (left->items[j].kind != WG_TDIFF_REMOVE
		    || !(o = removed_block(r, rd, map, &left->items[j], &olen))
		    || olen != blen || memcmp(o, block, blen) != 0)
			continue;
		same += j < k;
		total++;
	}
	if (wg_tpl_find_block(b, e, block, blen, same, &start, &stop, t->text)
	    != total)
		return false;
	wg_edits_add(tpl_edits(r, t), start, stop, NULL, 0);
	return true;
}

/* The 1-based line of t's text, in [b, e), of the first line whose text
 * (its indentation skipped) starts with "key:", or holds key when
 * anywhere; 0 when none. */
static uint32_t line_in(const struct wg_chart_tpl *t, const char *b,
			const char *e, const char *key, bool anywhere)
{
	size_t kl = strlen(key);
	uint32_t line = 1;

	for (const char *p = t->text; p < b; p++)
		line += *p == '\n';
	for (const char *l = b; l < e; line++) {
		const char *nl = memchr(l, '\n', (size_t)(e - l));
		const char *le = nl ? nl : e, *q = l;

		while (q < le && *q == ' ')
			q++;
		if (anywhere ? memmem(l, (size_t)(le - l), key, kl) != NULL
		    : (size_t)(le - q) > kl && memcmp(q, key, kl) == 0
		      && q[kl] == ':')
			return line;
		l = nl ? nl + 1 : e;
	}
	return 0;
}

/* The last mapping key of a path ("a.b[0].c" -> "c"; "a.b[0]" -> "b"),
 * in arena. */
static const char *last_key(struct wg_arena *a, const char *path)
{
	const char *end = path + strlen(path), *s;

	while (end > path && end[-1] == ']') {
		while (end > path && end[-1] != '[')
			end--;
		if (end > path)
			end--;
	}
	for (s = end; s > path && s[-1] != '.'; s--)
		;
	return wg_arena_strndup(a, s, (size_t)(end - s));
}

/* A change of object i that neither a values key nor a template literal
 * edit carries: one error, at the template line concerned. */
static void report_left(struct run *r, const struct render *rd, size_t i,
			const struct wg_chart_tpl *t, const char *src,
			const struct wg_tdiff *d)
{
	bool vo = r->o->mode == WG_CHART_VALUES_OUT;
	const char *b = NULL, *e = NULL, *kind;
	size_t nth, count;
	uint32_t line = 0;

	if (t) {
		kind = wg_resource_kind(&r->arena, rd->list.items[i]);
		position_in_source(rd, i, &nth, &count);
		wg_chart_tpl_part(t, kind, nth, count, &b, &e);
	}
	for (size_t s = 0; s < r->nshared; s++) {
		struct shared *sh = &r->shared[s];
		size_t n = strlen(sh->path), on, oc;
		const struct wg_chart_tpl *ot;
		const char *osrc, *ob, *oe, *okey = sh->key;
		uint32_t oline = 0;

		if (sh->object != i || strncmp(d->path, sh->path, n) != 0
		    || (d->path[n] && d->path[n] != '.' && d->path[n] != '['))
			continue;
		if (sh->reported)
			return;		/* reported with the first change */
		osrc = source_of(rd, sh->other);
		ot = wg_chart_tpl_find(&r->c, osrc);
		if (ot) {
			position_in_source(rd, sh->other, &on, &oc);
			wg_chart_tpl_part(ot, wg_resource_kind(&r->arena,
					  rd->list.items[sh->other]), on, oc,
					  &ob, &oe);
			if (strncmp(okey, ot->values_prefix,
				    strlen(ot->values_prefix)) == 0)
				okey += strlen(ot->values_prefix);
			oline = line_in(ot, ob, oe, wg_arena_printf(
					&r->arena, ".Values.%s", okey), true);
		}
		if (t)
			line = line_in(t, b, e, last_key(&r->arena, sh->path),
				       false);
		wg_report_at(r->ctx, WG_SEV_ERROR, where(r, t && t->path ? t->path : src), line, 0,
			     "%s: %s: the values key %s feeds it and also %s "
			     "(%s%s%.0u), which must not get this change (the "
			     "chain leaves that field as it is); %s",
			     label(r, rd, i), sh->path, sh->key,
			     label(r, rd, sh->other), osrc ? osrc : "?",
			     oline ? ":" : "", oline,
			     vo ? "--values-out cannot set it for this object "
				  "alone (--in-place edits this template's "
				  "literal YAML where it can)"
				: "and this template's literal YAML cannot take "
				  "the change here (it goes into the object's "
				  "one literal block of that field)");
		r->problems++;
		sh->reported = true;	/* once per field */
		return;
	}
	if (t) {
		line = line_in(t, b, e, last_key(&r->arena, d->path), false);
		if (!line && d->kind == WG_TDIFF_ADD)
			line = line_in(t, b, e, "containers", false);
	}
	if (t && t->pack && !vo) {
		wg_report_at(r->ctx, WG_SEV_ERROR, where(r, t && t->path ? t->path : src), line, 0,
			     "%s: %s: no values hook carries this change (%s "
			     "reads no .Values key that feeds it, nor do the "
			     "named templates it includes), and the template "
			     "is in the packed subchart %s, which migrate "
			     "does not rewrite (helm dependency build would "
			     "overwrite it): unpack it (tar -xzf %s/%s -C "
			     "%s/charts, then remove the .tgz) and migrate "
			     "again to edit its literal YAML",
			     label(r, rd, i), d->path, src, t->pack, r->dir,
			     t->pack, r->dir);
		r->problems++;
		return;
	}
	wg_report_at(r->ctx, WG_SEV_ERROR, where(r, t && t->path ? t->path : src), line, 0,
		     "%s: %s: no values hook carries this change (%s reads "
		     "no .Values key that feeds it, nor do the named "
		     "templates it includes)%s", label(r, rd, i), d->path,
		     src ? src : "the template",
		     vo ? "; --values-out cannot express it (--in-place "
			  "edits the template's literal YAML where it can)"
			: "; and the template's literal YAML cannot be edited "
			  "here (a new pod-spec key needs one literal "
			  "'containers:' line; a removed key, its lines "
			  "written literally as often as rendered; an added "
			  "entry, one literal block of its field)");
	r->problems++;
}

/* The changes of one object: carried by values, or reported. */
static void map_object(struct run *r, const struct render *rd, size_t i)
{
	struct wg_resource *res = rd->list.items[i];
	struct wg_node *before = res->payload;
	struct wg_resource tb = *res;
	struct wg_podspec *psb, *psa;
	struct wg_pathlist done = { 0 };
	size_t nb, na;
	struct wg_tdiff_list left = { .items = NULL };
	struct wg_pos_map map = { NULL, NULL, 0, 0, NULL };
	const char *src = source_of(rd, i);
	const struct wg_chart_tpl *t = wg_chart_tpl_find(&r->c, src);
	struct wg_buf path = WG_BUF_INIT;

	tb.root = before;
	nb = wg_podspec_find_all(&r->arena, NULL, &tb, &psb);
	na = wg_podspec_find_all(&r->arena, NULL, res, &psa);
	for (size_t p = 0; nb == na && p < na; p++) {
		const struct wg_node *sa = psa[p].spec, *sb = psb[p].spec;

		/* every key of after, then the ones the chain removed */
		for (size_t k = 0; k < sa->len + sb->len; k++) {
			const struct wg_node *key = k < sa->len
				? wg_map_key(sa, k) : wg_map_key(sb, k - sa->len);
			const char *f = wg_scalar_dup(&r->arena, key);
			const struct wg_node *bv = wg_map_get(sb, f);
			const struct wg_node *av = wg_map_get(sa, f);

			if ((k >= sa->len && av) || in_list(not_whole, f)
			    || (bv && av && wg_node_equal(bv, av)))
				continue;
			wg_podspec_path(&path, &psa[p], f, NULL);
			if (carry(r, rd, i, t, f, bv, av, path.buf))
				wg_pathlist_add(&done, path.buf);
		}
	}
	wg_buf_release(&path);
	wg_tree_diff(&r->arena, before, res->root, &left);
	if (r->o->mode != WG_CHART_VALUES_OUT && !r->have_ix) {
		const char *err;
		size_t err_line;

		r->have_ix = wg_pos_index_build(&r->ix, rd->in.data,
						rd->in.len, &err,
						&err_line) == 0;
		if (!r->have_ix)
			wg_pos_index_release(&r->ix);
	}
	if (r->have_ix && res->index < r->ix.ndocs && r->ix.docs[res->index].root)
		wg_pos_map_add_tree(&map, before, r->ix.docs[res->index].root);
	for (size_t k = 0; k < left.len; k++) {
		const char *field = left.items[k].path;

		if (carried(&done, field)
		    || edit_template(r, rd, i, t, &left, k,
				     r->have_ix ? &map : NULL, psb, nb))
			continue;
		report_left(r, rd, i, t, src, &left.items[k]);
		r->problems++;
	}
	wg_pos_map_release(&map);
	wg_tdiff_list_release(&left);
	wg_pathlist_release(&done);
}

/* ---- the proof --------------------------------------------------------- */

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

static long find_key(const struct render *rd, const char *key)
{
	for (size_t i = 0; key && i < rd->list.len; i++)
		if (rd->keys[i] && strcmp(rd->keys[i], key) == 0)
			return (long)i;
	return -1;
}

static int verify(struct run *r, const struct render *one,
		  const char *first, const char *last)
{
	struct render two;
	struct wg_ctx scratch;
	int rc = 0;

	if (helm_template(r, first, last, &two)) {
		render_release(&two);
		return -1;
	}
	wg_ctx_init(&scratch);
	scratch.limits = r->ctx->limits;
	scratch.profile = r->ctx->profile;
	scratch.skip_changes = true;
	r->o->chain(r->o->chain_arg, &scratch, &two.list);
	realign_keys(&two);
	for (size_t i = 0; i < scratch.log.ndiags; i++) {
		const struct wg_diag *d = &scratch.log.diags[i];

		if (d->severity == WG_SEV_ERROR) {
			wg_report_at(r->ctx, WG_SEV_ERROR, d->file, d->line,
				     d->col, "rendered with the new values: "
				     "%s", d->message);
			rc = -1;
		}
	}
	wg_ctx_release(&scratch);
	if (two.list.len != one->list.len) {
		wg_report_at(r->ctx, WG_SEV_ERROR, r->dir, 0, 0,
			     "rendered with the new values, the chart makes "
			     "%zu objects instead of %zu", two.list.len,
			     one->list.len);
		rc = -1;
	}
	for (size_t i = 0; i < two.list.len; i++) {
		struct wg_resource *res = two.list.items[i];
		struct wg_tdiff_list d = { .items = NULL };
		long j = find_key(one, two.keys[i]);
		struct wg_podspec *p2, *p1;
		size_t n2, n1 = 0;

		if (res->flags & WG_RES_GENERATED)
			continue;
		if (wg_tree_diff(&r->arena, res->payload, res->root, &d)) {
			wg_report_at(r->ctx, WG_SEV_ERROR, where(r, source_of(&two, i)),
				     0, 0, "%s: %s: rendered with the new "
				     "values, the chain still changes it",
				     label(r, &two, i), d.items[0].path);
			rc = -1;
		}
		wg_tdiff_list_release(&d);
		if (j < 0)
			continue;
		{
			struct wg_resource b2 = *res;

			b2.root = res->payload;
			n2 = wg_podspec_find_all(&r->arena, NULL, &b2, &p2);
		}
		n1 = wg_podspec_find_all(&r->arena, NULL,
					 one->list.items[j], &p1);
		for (size_t p = 0; p < n1 && p < n2; p++) {
			if (wg_node_equal(without_false(&r->arena, p1[p].spec),
					  without_false(&r->arena, p2[p].spec)))
				continue;
			wg_report_at(r->ctx, WG_SEV_ERROR, where(r, source_of(&two, i)),
				     0, 0, "%s: rendered with the new values, "
				     "the pod spec differs from what wingen "
				     "build makes of the chart (a values key "
				     "feeds more than this object, or not "
				     "this field)", label(r, &two, i));
			rc = -1;
		}
	}
	r->problems += rc != 0;
	render_release(&two);
	return rc;
}

/* ---- the result --------------------------------------------------------- */

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

/* A temporary file holding text, for helm -f; its path, or NULL. */
static char *temp_values(struct wg_ctx *ctx, const struct wg_buf *text)
{
	const char *dir = getenv("TMPDIR");
	char *path = wg_xmalloc(strlen(dir && *dir ? dir : "/tmp") + 32);
	int fd;

	sprintf(path, "%s/wingen-values-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || wg_write_all(fd, text->buf, text->len) || close(fd)) {
		wg_report_at(ctx, WG_SEV_ERROR, path, 0, 0,
			     "cannot write a temporary values file");
		free(path);
		return NULL;
	}
	return path;
}

/* Each template's edits applied into its text buffer. */
static int apply_tpl_edits(struct run *r)
{
	for (size_t i = 0; i < r->ntedits; i++) {
		struct tpl_edit *te = &r->tedits[i];

		if (wg_edits_apply(&te->edits, te->t->text, te->t->len,
				   &te->text) == 0)
			continue;
		wg_report_at(r->ctx, WG_SEV_ERROR, where(r, te->t->path), 0, 0,
			     "two edits of the template's literal YAML "
			     "overlap");
		r->problems++;
		return -1;
	}
	return 0;
}

/* The proof for template edits: the chart copied with its new values.yaml
 * and templates, rendered with the user's arguments. */
static int verify_copy(struct run *r, const struct render *one,
		       const struct wg_buf *values)
{
	const char *tdir = getenv("TMPDIR");
	char *base = wg_xmalloc(strlen(tdir && *tdir ? tdir : "/tmp") + 32);
	struct wg_chart_file *files = wg_xcalloc(r->ntedits + 1,
						 sizeof(*files));
	size_t n = 0;
	char *copy = NULL;
	int rc = -1;

	sprintf(base, "%s/wingen-chart-XXXXXX", tdir && *tdir ? tdir : "/tmp");
	if (!mkdtemp(base)) {
		wg_report_at(r->ctx, WG_SEV_ERROR, base, 0, 0, "cannot make a "
			     "temporary folder for the second render");
		goto out;
	}
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
	wg_chart_copy_remove(base);
out:
	free(copy);
	free(base);
	free(files);
	return rc;
}

int wg_chart_migrate(struct wg_ctx *ctx, const char *dir,
		     const struct wg_chart_opts *o,
		     struct wg_chart_result *out)
{
	struct run r;
	struct render one;
	struct wg_values_arg vals[64];
	size_t nv = wg_chart_values_args(o->helm_args, o->nhelm_args, vals,
					 64);
	struct wg_buf text = WG_BUF_INIT;
	char *tmp = NULL;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	memset(out, 0, sizeof(*out));
	r.ctx = ctx;
	r.o = o;
	r.dir = dir;
	wg_arena_init(&r.arena);
	wg_arena_init(&r.edits.arena);
	memset(&one, 0, sizeof(one));
	wg_resources_init(&one.list);
	out->renders++;
	if (helm_template(&r, NULL, NULL, &one))
		goto done;
	if (o->chain(o->chain_arg, ctx, &one.list) || wg_ctx_failed(ctx))
		goto done;
	realign_keys(&one);
	for (size_t i = 0; i < one.list.len; i++) {
		struct wg_resource *res = one.list.items[i];

		if ((res->flags & WG_RES_GENERATED) || !res->payload
		    || wg_node_equal(res->payload, res->root))
			continue;
		/* the templates are read only for a chart that needs a
		 * change: a large chart's CRDs cost more than its render */
		if (!out->objects++
		    && wg_chart_load(ctx, &r.c, dir, vals, nv))
			goto done;
		map_object(&r, &one, i);
	}
	if (r.problems || !out->objects) {
		rc = r.problems ? -1 : 0;
		goto done;
	}
	out->keys = r.edits.len;
	if (o->mode == WG_CHART_VALUES_OUT) {
		wg_values_overlay(&text, &r.edits, dir);
	} else {
		const char *why;
		size_t line;

		if (wg_values_edit_text(r.c.values_text, r.c.values_len,
					&r.edits, &text, &why, &line)) {
			wg_report_at(ctx, WG_SEV_ERROR, r.c.values_path,
				     (uint32_t)line + 1, 0, "cannot edit the "
				     "values as text: %s (--values-out writes "
				     "them to a file of their own)", why);
			goto done;
		}
	}
	out->renders++;
	if (r.ntedits) {
		/* template edits: the proof renders an edited copy */
		if (apply_tpl_edits(&r) || verify_copy(&r, &one, &text))
			goto done;
	} else {
		tmp = temp_values(ctx, &text);
		if (!tmp || verify(&r, &one, o->mode == WG_CHART_VALUES_OUT
				   ? NULL : tmp, o->mode == WG_CHART_VALUES_OUT
				   ? tmp : NULL))
			goto done;
	}
	if (o->mode == WG_CHART_VALUES_OUT) {
		struct wg_input in;
		struct wg_ctx scratch;
		bool have;

		wg_ctx_init(&scratch);
		have = access(o->values_out, F_OK) == 0
		       && wg_input_read(&scratch, o->values_out, &in) == 0;
		add_write(out, o->values_out, have ? in.data : NULL,
			  have ? in.len : 0, &text);
		if (have)
			wg_input_release(&in);
		wg_ctx_release(&scratch);
	} else {
		if (r.edits.len)
			add_write(out, r.c.values_path, r.c.values_text,
				  r.c.values_len, &text);
		for (size_t i = 0; i < r.ntedits; i++) {
			const struct wg_chart_tpl *t = r.tedits[i].t;

			add_write(out, where(&r, t->path), t->text, t->len,
				  &r.tedits[i].text);
			out->templates++;
		}
	}
	rc = 0;
done:
	for (size_t i = 0; i < r.ntedits; i++) {
		wg_edits_release(&r.tedits[i].edits);
		wg_buf_release(&r.tedits[i].text);
	}
	free(r.tedits);
	free(r.shared);
	if (r.have_ix)
		wg_pos_index_release(&r.ix);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	wg_buf_release(&text);
	render_release(&one);
	wg_values_edits_release(&r.edits);
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
	memset(r, 0, sizeof(*r));
}

/*
 * The profile in effect, written back as a profile (--print-profile):
 * every default filled in, so what wingen will do can be read and saved.
 * Loading the output gives the same profile.
 */
#include <string.h>

#include "profile_internal.h"
#include "wingen/base/buf.h"
#include "wingen/yaml/writer.h"

static struct wg_node *str(struct wg_arena *a, const char *s)
{
	return wg_node_new_str(a, s);
}

static struct wg_node *boolean(struct wg_arena *a, bool b)
{
	return wg_node_new_plain(a, b ? "true" : "false");
}

/* The name that finds build b again: its release, or its RuntimeClass
 * when an earlier build has the same release. */
static const char *build_name(const struct wg_profile *p,
			      const struct wg_build *b)
{
	if (wg_profile_find_build(p, b->release->name) == b)
		return b->release->name;
	return b->runtime_class;
}

static struct wg_node *strings(struct wg_arena *a, const char *const *v,
			       size_t n)
{
	struct wg_node *seq = wg_node_new_seq(a);

	for (size_t i = 0; i < n; i++)
		wg_seq_append(a, seq, str(a, v[i]));
	return seq;
}

static struct wg_node *builds(struct wg_arena *a, const struct wg_profile *p)
{
	struct wg_node *seq = wg_node_new_seq(a);

	for (size_t i = 0; i < p->nbuilds; i++) {
		const struct wg_build *b = &p->builds[i];
		struct wg_node *m = wg_node_new_map(a);

		/* A build the catalogue does not know has only its number. */
		if (wg_release_find(b->release->build) == b->release)
			wg_map_set(a, m, "release", str(a, b->release->name));
		wg_map_set(a, m, "build",
			   wg_node_new_scalar(a, b->release->build,
					      strlen(b->release->build),
					      WG_STYLE_SINGLE));
		wg_map_set(a, m, "arch", str(a, b->arch));
		wg_map_set(a, m, "handler", str(a, b->handler));
		wg_map_set(a, m, "runtimeClass", str(a, b->runtime_class));
		if (b->overhead) {
			struct wg_node *o = wg_node_new_map(a);

			wg_map_set(a, o, "podFixed",
				   wg_node_clone(a, b->overhead));
			wg_map_set(a, m, "overhead", o);
		}
		wg_seq_append(a, seq, m);
	}
	return seq;
}

static struct wg_node *selects(struct wg_arena *a, const struct wg_profile *p)
{
	struct wg_node *seq = wg_node_new_seq(a);

	for (size_t i = 0; i < p->nselect; i++) {
		const struct wg_select *s = &p->select[i];
		struct wg_node *m = wg_node_new_map(a);
		struct wg_buf text = WG_BUF_INIT;

		if (s->nkinds)
			wg_map_set(a, m, "kinds", strings(a, s->kinds,
							  s->nkinds));
		if (s->name)
			wg_map_set(a, m, "name", str(a, s->name->source));
		if (s->namespace_)
			wg_map_set(a, m, "namespace",
				   str(a, s->namespace_->source));
		if (s->image)
			wg_map_set(a, m, "image", str(a, s->image->source));
		if (s->labels) {
			wg_label_selector_write(s->labels, &text);
			wg_map_set(a, m, "labelSelector", str(a, text.buf));
			wg_buf_reset(&text);
		}
		if (s->annotations) {
			wg_label_selector_write(s->annotations, &text);
			wg_map_set(a, m, "annotationSelector",
				   str(a, text.buf));
		}
		wg_buf_release(&text);
		if (s->nbuilds) {
			struct wg_node *bs = wg_node_new_seq(a);

			for (size_t k = 0; k < s->nbuilds; k++)
				wg_seq_append(a, bs, str(a, build_name(
						 p, s->builds[k])));
			wg_map_set(a, m, "builds", bs);
		}
		wg_seq_append(a, seq, m);
	}
	return seq;
}

static struct wg_node *windows(struct wg_arena *a, const struct wg_profile *p)
{
	struct wg_node *w = wg_node_new_map(a), *m;

	wg_map_set(a, w, "builds", builds(a, p));
	wg_map_set(a, w, "default", str(a, build_name(p, p->default_build)));
	m = wg_map_set(a, w, "taint", wg_node_new_map(a));
	wg_map_set(a, m, "key", str(a, p->taint.key));
	if (p->taint.value)
		wg_map_set(a, m, "value", str(a, p->taint.value));
	wg_map_set(a, m, "effect", str(a, p->taint.effect));
	wg_map_set(a, w, "select", selects(a, p));
	if (p->nimages) {
		struct wg_node *seq = wg_map_set(a, w, "images",
						 wg_node_new_seq(a));

		for (size_t i = 0; i < p->nimages; i++) {
			m = wg_node_new_map(a);
			wg_map_set(a, m, "match",
				   str(a, p->images[i].match.source));
			wg_map_set(a, m, "replace",
				   str(a, p->images[i].replace));
			wg_seq_append(a, seq, m);
		}
	}
	if (p->nretarget) {
		m = wg_map_set(a, w, "retarget", wg_node_new_map(a));
		for (size_t i = 0; i < p->nretarget; i++)
			wg_map_set(a, m, p->retarget[i].from->name,
				   str(a, build_name(p, p->retarget[i].to)));
	}
	return w;
}

/* A declared shape, as workloads: reads it (pods, containers, the
 * settings' paths in wg_pod_field_keys' order, as the schema names
 * them). */
static void shape(struct wg_arena *a, struct wg_node *m,
		  const struct wg_pod_shape *sh)
{
	struct wg_node *c = wg_node_new_seq(a);

	wg_map_set(a, m, "pods", str(a, sh->pods[0]));
	for (size_t j = 0; j < WG_SHAPE_MAX_CONTAINERS && sh->containers[j];
	     j++)
		wg_seq_append(a, c, str(a, sh->containers[j]));
	wg_map_set(a, m, "containers", c);
	for (int f = 0; f < WG_POD_NFIELDS; f++)
		if (sh->fields[f])
			wg_map_set(a, m, wg_pod_field_keys[f],
				   str(a, sh->fields[f]));
}

/* The declared kinds, as workloads: reads them. */
static struct wg_node *workloads(struct wg_arena *a, const struct wg_profile *p)
{
	struct wg_node *seq = wg_node_new_seq(a);

	for (size_t i = 0; i < p->kinds.len; i++) {
		const struct wg_kind *k = &p->kinds.items[i];
		struct wg_node *m = wg_node_new_map(a);
		struct wg_node *t = wg_node_new_seq(a);

		wg_map_set(a, m, "group", str(a, k->groups));
		wg_map_set(a, m, "kind", str(a, k->kind));
		if (k->shape) {
			shape(a, m, k->shape);
		} else {
			for (size_t j = 0; j < WG_KIND_MAX_TEMPLATES
					   && k->templates[j]; j++)
				wg_seq_append(a, t, str(a, k->templates[j]));
			wg_map_set(a, m, "templates", t);
		}
		if (k->selector)
			wg_map_set(a, m, "selector", str(a, k->selector));
		if (k->pods)
			wg_map_set(a, m, "replicas", str(a, k->pods));
		if (k->node_agent)
			wg_map_set(a, m, "nodeAgent", boolean(a, true));
		wg_seq_append(a, seq, m);
	}
	return seq;
}

void wg_profile_write(const struct wg_profile *p,
		      void (*write_plugins)(const struct wg_profile *p,
					    struct wg_arena *arena,
					    struct wg_node *root),
		      struct wg_buf *out)
{
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_node *root = wg_node_new_map(&a), *m, *t;
	struct wg_yaml_writer w;

	wg_map_set(&a, root, "apiVersion", str(&a, WG_PROFILE_API_VERSION));
	wg_map_set(&a, root, "kind", str(&a, WG_PROFILE_KIND));
	m = wg_map_set(&a, root, "metadata", wg_node_new_map(&a));
	wg_map_set(&a, m, "name", str(&a, p->name));
	if (p->nresources)
		wg_map_set(&a, root, "resources",
			   strings(&a, p->resources, p->nresources));
	if (p->templates)
		wg_map_set(&a, root, "templates", str(&a, p->templates));
	wg_map_set(&a, root, "windows", windows(&a, p));
	if (write_plugins)	/* windows.network, linux.pin, ... */
		write_plugins(p, &a, root);
	if (p->kinds.len)
		wg_map_set(&a, root, "workloads", workloads(&a, p));
	t = wg_map_set(&a, root, "transforms", wg_node_new_seq(&a));
	for (size_t i = 0; i < p->nchain; i++) {
		const char *name = p->chain[i].name;

		if (p->chain[i].config) {
			m = wg_node_new_map(&a);
			wg_map_set(&a, m, "name", str(&a, name));
			wg_map_set(&a, m, "config",
				   wg_node_clone(&a, p->chain[i].config));
			wg_seq_append(&a, t, m);
		} else {
			wg_seq_append(&a, t, str(&a, name));
		}
	}
	wg_yaml_writer_init(&w, out);
	wg_yaml_writer_doc(&w, root);
	wg_yaml_writer_finish(&w);
	wg_yaml_writer_release(&w);
	wg_arena_release(&a);
}

/*
 * The profile's chain, from names to plugins (chain.h).  What the profile
 * loader did before it stopped knowing the registry: the messages and
 * positions are the same.
 */
#include "wingen/chain/chain.h"

#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/base/suggest.h"
#include "wingen/chain/registry.h"
#include "wingen/core/plugin.h"

/* Plugin names for the did-you-mean hint, at most. */
#define MAX_NAMES 64

static void plugin_names(const char **names, size_t *n)
{
	*n = 0;
	for (size_t i = 0; wg_plugins[i] && *n < MAX_NAMES; i++)
		names[(*n)++] = wg_plugins[i]->name;
}

/* Resolves one entry into p->steps; false when it is not kept. */
static bool add_step(struct wg_ctx *ctx, struct wg_profile *p,
		     const struct wg_step_spec *e)
{
	const struct wg_plugin *plugin = wg_plugin_find(e->name);
	const char *names[MAX_NAMES];
	size_t n;

	if (!plugin) {
		const char *hint;

		plugin_names(names, &n);
		hint = wg_suggest(e->name, names, n);
		if (hint)
			wg_profile_report_setting(ctx, p, WG_SEV_ERROR, e->at,
						  e->field, "unknown plugin "
						  "'%s'; did you mean '%s'?",
						  e->name, hint);
		else
			wg_profile_report_setting(ctx, p, WG_SEV_ERROR, e->at,
						  e->field, "unknown plugin "
						  "'%s' (see 'wingen help "
						  "plugins')", e->name);
		return false;
	}
	if (e->config && !plugin->configure) {
		struct wg_buf f = WG_BUF_INIT;

		/* field ends ".name": the config is its sibling. */
		wg_buf_add(&f, e->field, strlen(e->field) - 4);
		wg_buf_addstr(&f, "config");
		wg_profile_report_setting(ctx, p, WG_SEV_ERROR, e->config,
					  f.buf, "plugin '%s' takes no config",
					  e->name);
		wg_buf_release(&f);
		return false;
	}
	for (size_t i = 0; i < p->nsteps; i++)
		if (p->steps[i].plugin == plugin) {
			wg_profile_report_setting(ctx, p, WG_SEV_ERROR, e->at,
						  e->field, "plugin '%s' is "
						  "listed twice", e->name);
			return false;
		}
	p->steps[p->nsteps].plugin = plugin;
	p->steps[p->nsteps].config = wg_chain_settings(p, plugin->name);
	if (plugin->configure
	    && plugin->configure(ctx, &p->arena, p->path, e->config,
				 &p->steps[p->nsteps].config))
		return false;
	p->nsteps++;
	return true;
}

/* Every plugin's settings, in the chain or not (plugin.h): a bad one is
 * an error whatever transforms: lists.  Each plugin reads them once. */
static void read_settings(struct wg_ctx *ctx, struct wg_profile *p)
{
	size_t n = 0;

	for (size_t i = 0; wg_plugins[i]; i++)
		n += wg_plugins[i]->settings != NULL;
	p->settings = wg_arena_zalloc(&p->arena,
				      (n + 1) * sizeof(*p->settings));
	p->nsettings = 0;
	for (size_t i = 0; wg_plugins[i]; i++) {
		const struct wg_plugin *plugin = wg_plugins[i];
		struct wg_plugin_settings *s = &p->settings[p->nsettings];

		if (!plugin->settings)
			continue;
		s->plugin = plugin->name;
		s->value = NULL;
		/* an error is on ctx and fails the load; the value is
		 * kept anyway (the defaults where it was bad) */
		plugin->settings(ctx, p, &p->arena, &s->value);
		p->nsettings++;
	}
}

const void *wg_chain_settings(const struct wg_profile *p, const char *name)
{
	for (size_t i = 0; p && i < p->nsettings; i++)
		if (strcmp(p->settings[i].plugin, name) == 0)
			return p->settings[i].value;
	return NULL;
}

void wg_chain_write_settings(const struct wg_profile *p,
			     struct wg_arena *arena, struct wg_node *root)
{
	for (size_t i = 0; wg_plugins[i]; i++) {
		const struct wg_plugin *plugin = wg_plugins[i];
		const void *s = wg_chain_settings(p, plugin->name);

		if (plugin->write_settings && s)
			plugin->write_settings(s, arena, root);
	}
}

/*
 * A profile that retargets runs retarget first, listed or not: it rewrites
 * what every other plugin selects by, and the runtime-class generator
 * reads the builds used before any workload transform.  Listed anywhere
 * but first is an error at the entry; not listed, it is added.
 */
static void retarget_first(struct wg_ctx *ctx, struct wg_profile *p,
			   struct wg_step_spec *kept, size_t *n)
{
	static const struct wg_step_spec added = { "retarget", NULL,
						   "transforms", NULL };
	const struct wg_step_spec *e = &added;

	for (size_t i = 0; i < p->nchain; i++) {
		if (strcmp(p->chain[i].name, "retarget") != 0)
			continue;
		if (i > 0) {
			wg_profile_report_setting(ctx, p, WG_SEV_ERROR,
						  p->chain[i].at,
						  p->chain[i].field,
						  "plugin 'retarget' must come "
						  "first: every other plugin "
						  "selects by the builds it "
						  "rewrites");
			return;
		}
		e = &p->chain[i];
	}
	if (add_step(ctx, p, e))
		kept[(*n)++] = *e;
}

void wg_chain_resolve(struct wg_ctx *ctx, struct wg_profile *p)
{
	struct wg_step_spec *kept;
	size_t n = 0, cap;

	read_settings(ctx, p);

	if (p->chain_default) {
		for (cap = 0; wg_plugins[cap]; cap++)
			;
		p->chain = wg_arena_zalloc(&p->arena,
					   (cap + 1) * sizeof(*p->chain));
		for (size_t i = 0; i < cap; i++) {
			p->chain[i].name = wg_plugins[i]->name;
			p->chain[i].field = "transforms";
		}
		p->nchain = cap;
	}
	p->steps = wg_arena_zalloc(&p->arena,
				   (p->nchain + 2) * sizeof(*p->steps));
	kept = wg_arena_zalloc(&p->arena, (p->nchain + 2) * sizeof(*kept));
	if (p->nretarget)
		retarget_first(ctx, p, kept, &n);
	for (size_t i = 0; i < p->nchain; i++)
		if ((!p->nretarget || strcmp(p->chain[i].name, "retarget"))
		    && add_step(ctx, p, &p->chain[i]))
			kept[n++] = p->chain[i];
	p->chain = kept;
	p->nchain = n;
}

const struct wg_profile_opts *wg_chain_opts(const struct wg_profile_opts *opts,
					    struct wg_profile_opts *out)
{
	if (opts)
		*out = *opts;
	else
		memset(out, 0, sizeof(*out));
	out->resolve_chain = wg_chain_resolve;
	return out;
}

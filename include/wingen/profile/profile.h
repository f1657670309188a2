#ifndef WINGEN_PROFILE_H
#define WINGEN_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/arena.h"
#include "wingen/k8s/catalog.h"
#include "wingen/k8s/kinds.h"
#include "wingen/base/ctx.h"
#include "wingen/k8s/labelsel.h"
#include "wingen/yaml/node.h"
#include "wingen/base/regex.h"

/*
 * The profile: which Windows builds the cluster runs, how Windows nodes are
 * tainted, which workloads are Windows workloads, and the plugin chain.
 * Loaded from YAML with libcyaml (apiVersion wingen.dev/v1alpha1, kind
 * Profile) and then checked for meaning; see docs/profile.md.
 *
 * Everything a loaded profile points to lives in its arena and is freed by
 * wg_profile_release().  A loaded profile is read-only.
 */

/* Where a profile setting was written, for messages (1-based; 0: unknown). */
struct wg_pos {
	uint32_t line, col;
};

/* One target build: one RuntimeClass. */
struct wg_build {
	const struct wg_release *release;	/* catalog entry */
	const char *arch;		/* "amd64" (default) or "arm64" */
	const char *handler;		/* default "runhcs-wcow-process" */
	const char *runtime_class;	/* default "windows-<release>" */
	const struct wg_node *overhead;	/* overhead.podFixed mapping, or NULL */
	struct wg_pos pos;
};

struct wg_taint {
	const char *key;	/* e.g. "os" */
	const char *value;	/* e.g. "windows"; NULL for none (Exists) */
	const char *effect;	/* NoSchedule, PreferNoSchedule, NoExecute */
};

/* One windows.select entry: every field that is set must match (AND). */
struct wg_select {
	const char **kinds;	/* exact kind names; none: any workload kind */
	size_t nkinds;
	struct wg_regex *name;	/* anchored; NULL when not set */
	struct wg_regex *namespace_;	/* anchored; NULL when not set */
	struct wg_regex *image;	/* searched in every container image */
	struct wg_label_selector *labels;	/* labelSelector, or NULL */
	struct wg_label_selector *annotations;	/* annotationSelector */
	const struct wg_build **builds;	/* builds: fan-out targets; none: */
	size_t nbuilds;			/* the default build */
	struct wg_pos pos;
};

/* One windows.images rule for fan-out: match -> replace ($release...). */
struct wg_image_rule {
	struct wg_regex match;
	const char *replace;
	struct wg_pos pos;
};

/* The path of the embedded default profile, in messages. */
#define WG_PROFILE_EMBEDDED_PATH "<default>"

struct wg_profile {
	const char *path;	/* the file, or WG_PROFILE_EMBEDDED_PATH */
	const char *dir;	/* its folder: base of resources and templates */
	const char *name;	/* metadata.name */

	const char **resources;	/* as written (relative to dir) */
	size_t nresources;

	struct wg_build *builds;	/* at least one */
	size_t nbuilds;
	const struct wg_build *default_build;	/* windows.default */

	struct wg_taint taint;
	struct wg_select *select;
	size_t nselect;
	struct wg_image_rule *images;
	size_t nimages;

	/* windows.network, windows.services and linux.pin are the
	 * settings of the plugins that read them (the Services check,
	 * linux-pin): in settings below, not fields of this struct. */

	const char *templates;	/* folder overriding embedded templates */

	/* The plugin chain, in order: resolved from chain (below) by the
	 * load option resolve_chain (src/chain/chain.c); the profile itself
	 * knows no plugin. */
	struct wg_step *steps;	/* core/pipeline.h */
	size_t nsteps;

	struct wg_arena arena;

	/* What the loader resolved (added after the fields above). */
	const char **resource_paths;	/* resources joined to dir: what to
					   read; "-" stays "-" */
	const char *templates_path;	/* templates joined to dir, or
					   --templates as given; NULL: none */
	bool load_restrictor_none;	/* files may lie outside dir */
	struct wg_kind_set kinds;	/* workloads: the kinds it declares */
	/* transforms: as written (what resolve_chain reads): the entries,
	 * or chain_default when the key is absent (every plugin, in the
	 * registry's order); the resolver rewrites chain to the steps it
	 * kept, by name. */
	struct wg_step_spec *chain;
	size_t nchain;
	bool chain_default;
	const struct wg_node *root;	/* the profile's tree, for positions */
	/* windows.retarget, then --retarget (added after the fields above):
	 * the releases being retired, each with the build of the profile
	 * its workloads move to (transforms/retarget.c does the edits). */
	const struct wg_retarget *retarget;
	size_t nretarget;
	/* What each plugin with a settings hook read of the tree, by the
	 * chain resolver (chain/chain.h), in the chain or not; opaque here. */
	struct wg_plugin_settings *settings;
	size_t nsettings;
};

/* One plugin's settings: its name, and the struct it owns. */
struct wg_plugin_settings {
	const char *plugin;
	const void *value;
};

/*
 * One retarget: workloads that target release from (its build number in
 * nodeSelector or affinity, its RuntimeClass, its images, the wingen.dev/
 * build annotations and labels) are rewritten for build to.  from is a
 * release of the catalogue that is not one of the profile's builds (the
 * embedded default drops its own build of from, since its builds are
 * routes); to is one of them and is not itself retargeted.
 */
struct wg_retarget {
	const struct wg_release *from;
	const struct wg_build *to;
	const char *why;	/* "windows.retarget.ltsc2019" or
				   "--retarget ltsc2019=ltsc2022" */
	const struct wg_node *at;	/* its value in the profile; NULL:
					   the command line */
};

/* The retarget of release r, or NULL. */
const struct wg_retarget *wg_profile_retarget_of(const struct wg_profile *p,
						 const struct wg_release *r);

struct wg_step;

/* One entry of transforms: as written. */
struct wg_step_spec {
	const char *name;		/* the plugin's name */
	const struct wg_node *at;	/* the name's node; NULL: default */
	const char *field;		/* "transforms[1].name", ... */
	const struct wg_node *config;	/* its config:, or NULL */
};

/*
 * Load options: what the command line adds.
 */
struct wg_profile_opts {
	const char *templates;	/* --templates DIR, overrides the profile */
	bool load_restrictor_none;	/* --load-restrictor none */
	/*
	 * Turns p->chain into p->steps (the plugins are the core's: this
	 * layer does not know them), reporting problems with
	 * wg_profile_report_setting(); called by the loader after its own
	 * checks, so the problems sort with them and fail the load alike.
	 * NULL: the chain is not resolved (p->steps stays empty).
	 */
	void (*resolve_chain)(struct wg_ctx *ctx, struct wg_profile *p);
	/* --retarget OLD=NEW, each as written (added after the fields
	 * above): checked as windows.retarget entries are, and added after
	 * them; one for a release the profile retargets too wins. */
	const char *const *retarget;
	size_t nretarget;
};

/*
 * Reports a problem of a profile setting as the loader reports its own:
 * file:line:col of node, or when node is NULL of the nearest node on
 * field's key path, and field.  For the chain resolver.  Returns -1 for
 * an error, else 0.
 */
int wg_profile_report_setting(struct wg_ctx *ctx, const struct wg_profile *p,
			      enum wg_severity sev, const struct wg_node *node,
			      const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Loads and checks the profile at path ("-": stdin).  Every problem is
 * reported on ctx (not only the first) as
 *   profile.yaml:LINE:COL: error: windows.builds[1].handler: 'Runhcs' is
 *   not a DNS label
 * Returns 0 and fills *out (caller releases), or -1 (out untouched).
 */
int wg_profile_load(struct wg_ctx *ctx, const char *path,
		    const struct wg_profile_opts *opts,
		    struct wg_profile *out);

/* Loads the embedded default profile (ltsc2022, amd64, os=windows taint,
 * select by Windows base-image registry). */
int wg_profile_load_default(struct wg_ctx *ctx,
			    const struct wg_profile_opts *opts,
			    struct wg_profile *out);

/*
 * Loads and checks a profile held in memory (len bytes of data), as
 * wg_profile_load() does a file: name is used in messages, and its folder
 * ("." for a name without one, or starting with '<') is the base of
 * relative paths.  For a profile that arrives inside another document, such
 * as a KRM functionConfig.  data may be freed once this returns.
 */
int wg_profile_load_data(struct wg_ctx *ctx, const char *name,
			 const char *data, size_t len,
			 const struct wg_profile_opts *opts,
			 struct wg_profile *out);

/* Whether p is the embedded default profile (its entries a catalogue of
 * Windows images and its builds routes, not choices a user wrote). */
bool wg_profile_is_embedded(const struct wg_profile *p);

/* The build with this release name / alias / number, or NULL.  A
 * RuntimeClass name of a build is accepted too (for two builds of one
 * release, e.g. amd64 and arm64); the first build that fits wins. */
const struct wg_build *wg_profile_find_build(const struct wg_profile *p,
					     const char *name);

/*
 * Writes the profile in effect as YAML (for --print-profile), every
 * default filled in.  write_plugins (may be NULL) adds the plugins'
 * settings to the tree after windows:'s own keys and before workloads:
 * (the core's wg_chain_write_settings: this layer knows no plugin).
 */
struct wg_buf;
void wg_profile_write(const struct wg_profile *p,
		      void (*write_plugins)(const struct wg_profile *p,
					    struct wg_arena *arena,
					    struct wg_node *root),
		      struct wg_buf *out);


void wg_profile_release(struct wg_profile *p);

/*
 * The toleration of a taint, as the generated RuntimeClass and the
 * workload transforms write it: {key, operator: Equal, value, effect}, or
 * {key, operator: Exists, effect} when the taint has no value.  New nodes
 * in arena.
 */
struct wg_node *wg_taint_toleration(struct wg_arena *arena,
				    const struct wg_taint *taint);

/*
 * Reads the template called name from the profile's templates folder
 * (templates_path) into in, under the load restrictor (a symbolic link may
 * not lead out of the profile's folder).  Returns 1 when read, 0 when
 * there is no folder or no such file in it (use the embedded template:
 * template.h), -1 on an error reported on ctx.
 */
struct wg_input;
int wg_profile_read_template(struct wg_ctx *ctx, const struct wg_profile *p,
			     const char *name, struct wg_input *in);

#endif

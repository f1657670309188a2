#ifndef WINGEN_PROFILE_INTERNAL_H
#define WINGEN_PROFILE_INTERNAL_H

/*
 * What the profile loader's files share (profile_load.c, profile_schema.c,
 * profile_check.c, profile_write.c, ...); not a public contract.
 *
 * Their calls go one way: load calls check and schema; check calls
 * workloads, retarget and schema; all of them report through
 * profile_report.c and ask profile_builds.c, which call none of them.
 */

#include <cyaml/cyaml.h>
#include <stdarg.h>

#include "wingen/base/suggest.h"
#include "wingen/profile/profile.h"
#include "wingen/k8s/keys.h"

/* ---- the profile as libcyaml loads it ---------------------------------- */

struct raw_metadata {
	char *name;
};

struct raw_build {
	char *release;
	char *build;
	char *arch;
	char *handler;
	char *runtime_class;
	/* overhead: read from the node tree (a free-form ResourceList) */
};

struct raw_taint {
	char *key;
	char *value;
	char *effect;
};

struct raw_select {
	char **kinds;
	unsigned kinds_count;
	char *name;
	char *namespace_;
	char *image;
	char *label_selector;
	char *annotation_selector;
	char **builds;
	unsigned builds_count;
};

struct raw_image_rule {
	char *match;
	char *replace;
};

/* windows.network, windows.services and linux: in the schema so that the
 * document is checked whole (keys, types, positions); their values are
 * the settings of the plugins that read them from the tree (the Services
 * check, linux-pin: core/plugin.h), and nothing here reads these. */
struct raw_network {
	bool dsr;
	char *mode;
};

struct raw_services {
	bool fix;
};

struct raw_windows {
	struct raw_build *builds;
	unsigned builds_count;
	char *default_;
	struct raw_taint *taint;
	struct raw_select *select;
	unsigned select_count;
	struct raw_image_rule *images;
	unsigned images_count;
	struct raw_network *network;
	struct raw_services *services;
};

struct raw_linux {
	bool *pin;
};

/* One workloads: entry: a kind the profile declares (kinds.h). */
struct raw_workload {
	char *group;
	char *kind;
	char **templates;
	unsigned templates_count;
	char *selector;
	char *replicas;
	bool *node_agent;
	/* a shape (kinds.h): pods that are not PodTemplateSpecs */
	char *pods;
	char **containers;
	unsigned containers_count;
	char *fields[WG_POD_NFIELDS];	/* nodeSelector, tolerations, ... */
};

struct raw_profile {
	char *api_version;
	char *kind;
	struct raw_metadata *metadata;
	char **resources;
	unsigned resources_count;
	struct raw_windows *windows;
	struct raw_linux *linux_;
	char *templates;
	/* transforms: read from the node tree (names or {name, config}) */
	struct raw_workload *workloads;
	unsigned workloads_count;
};

/* The top-level schema (profile_schema.c). */
extern const cyaml_schema_value_t wg_profile_schema;

/*
 * What the profile's JSON Schema says of a key beyond its libcyaml type
 * (profile_schema.c keeps one next to each field; profile_jsonschema.c
 * reads them).  For a sequence, of its items.
 */
enum wg_key_values {
	WG_KV_ANY = 0,		/* what the libcyaml type allows */
	WG_KV_API_VERSION,	/* WG_PROFILE_API_VERSION */
	WG_KV_KIND,		/* WG_PROFILE_KIND */
	WG_KV_DNS_SUBDOMAIN,
	WG_KV_RELEASE,		/* of the catalogue: name, alias or build */
	WG_KV_BUILD_NUMBER,	/* 10.0.N */
	WG_KV_ARCH,		/* wg_profile_arches */
	WG_KV_HANDLER,		/* a DNS label; the runtimes' own offered */
	WG_KV_LABEL_KEY,
	WG_KV_LABEL_VALUE,
	WG_KV_EFFECT,		/* wg_profile_effects */
	WG_KV_BUILD_OF_PROFILE,	/* names one of windows.builds */
	WG_KV_WORKLOAD_KIND,	/* the kinds table's, or workloads:' */
	WG_KV_SETTING,		/* a plugin setting: the plugin's values */
	/* keys libcyaml skips, read from the node tree: */
	WG_KV_NOT_READ,		/* anything: the loader skips it */
	WG_KV_OVERHEAD,		/* {podFixed: {resource: quantity}} */
	WG_KV_RETARGET,		/* {release: build of the profile} */
	WG_KV_TRANSFORMS,	/* [plugin | {name: plugin, config}] */
};

enum {
	WG_KEY_REQUIRED = 1,	/* the meaning check requires it */
	WG_KEY_NONEMPTY = 2,	/* a sequence that may not be empty */
	WG_KEY_EITHER = 4,	/* one of the mapping's keys with this flag
				   is required (workloads: templates or
				   pods) */
	WG_KEY_WITH_LAST = 8,	/* required when the mapping's last
				   WG_KEY_EITHER key is given (pods needs
				   containers and nodeSelector) */
};

struct wg_key_doc {
	enum wg_key_values values;
	unsigned flags;		/* WG_KEY_* */
	const char *text;	/* one line: what the key is */
};

/* The documentation of a mapping's fields, index for index (ended where
 * they end), or NULL for fields not of wg_profile_schema. */
const struct wg_key_doc *wg_profile_key_docs(const cyaml_schema_field_t *f);

/* The values windows.builds[].arch and windows.taint.effect take, each
 * ended by NULL (profile_check.c). */
extern const char *const wg_profile_arches[];
extern const char *const wg_profile_effects[];

#define WG_PROFILE_KIND "Profile"
/* The embedded default profile: a template (template.h) of this name. */
#define WG_PROFILE_DEFAULT "profile-default.yaml"

/* ---- loading state ------------------------------------------------------ */

struct wg_profile_loader {
	struct wg_ctx *ctx;
	const char *file;		/* for messages */
	const struct wg_profile_opts *opts;
	struct wg_node *root;		/* the document, in p->arena */
	struct wg_profile *p;		/* being filled */
	bool fatal;			/* the tree cannot be loaded */
};

/*
 * Reports a problem of the profile: file:line:col from node (or the
 * nearest node that exists on field's path when node is NULL), field the
 * key path ("windows.builds[1].handler").  Returns -1 for an error, else 0.
 * (profile_report.c, as are the two below)
 */
int wg_profile_report(struct wg_profile_loader *L, enum wg_severity sev,
		       const struct wg_node *node, const char *field,
		       const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The node at a key path of the profile, or its nearest existing parent. */
const struct wg_node *wg_profile_node(const struct wg_profile_loader *L,
				      const char *field);
/* The same below any root. */
const struct wg_node *wg_profile_nearest(const struct wg_node *root,
					 const char *field);

/*
 * Checks the node tree against wg_profile_schema: unknown keys (with a
 * did-you-mean hint), missing required keys, wrong kinds, null values and
 * booleans libcyaml 1.3.1 would misread.  Sets L->fatal when the tree
 * cannot be handed to libcyaml.  (profile_schema.c)
 */
void wg_profile_check_tree(struct wg_profile_loader *L);

/*
 * Loads data with libcyaml into *out, routing libcyaml's log into ctx as
 * one diagnostic against file with the key path from libcyaml's backtrace.
 * Its position is libcyaml's line and column, or, when root is given (data
 * is then root written out again), that of the node at the key path in
 * root.  Returns 0 or -1.  (profile_schema.c)
 */
int wg_profile_cyaml_load(struct wg_ctx *ctx, const char *file,
			  const char *data, size_t len,
			  const struct wg_node *root, struct raw_profile **out);
void wg_profile_cyaml_free(struct raw_profile *raw);

/* Checks workloads: into L->p->kinds, reporting every problem with its
 * position; runs before windows.select, whose kinds: may name them.
 * (profile_workloads.c) */
void wg_profile_check_workloads(struct wg_profile_loader *L,
				const struct raw_profile *raw);

/* Checks windows.retarget (read from the node tree: a mapping of
 * releases to builds) and the command line's --retarget into L->p;
 * runs after windows.builds and windows.default. (profile_retarget.c) */
void wg_profile_check_retarget(struct wg_profile_loader *L);

/* The meaning check: raw -> L->p, reporting every problem. (profile_check.c) */
void wg_profile_check(struct wg_profile_loader *L,
		      const struct raw_profile *raw);


#endif

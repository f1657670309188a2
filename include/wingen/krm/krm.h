#ifndef WINGEN_KRM_H
#define WINGEN_KRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wingen/base/buf.h"
#include "wingen/base/ctx.h"
#include "wingen/base/input.h"
#include "wingen/k8s/nodes.h"
#include "wingen/yaml/node.h"
#include "wingen/profile/profile.h"
#include "wingen/yaml/resource.h"
#include "wingen/yaml/writer.h"

/*
 * KRM functions: one ResourceList in, one ResourceList out (the KRM
 * Functions Specification, kubernetes-sigs/kustomize
 * cmd/config/docs/api-conventions/functions-spec.md).
 *
 *   apiVersion: config.kubernetes.io/v1     (or v1beta1, v2alpha1: echoed)
 *   kind: ResourceList
 *   items: [...]            the objects, as they are: a List is not
 *                           expanded (kpt rejects them anyway)
 *   functionConfig: {...}   a wingen Profile, a ConfigMap, or nothing
 *   results: [...]          written: every diagnostic and every change
 *
 * Items are never edited here; annotations (internal.config.kubernetes.io/...,
 * config.kubernetes.io/{path,index}, config.k8s.io/id,
 * kustomize.config.k8s.io/id, ...) travel with them untouched.  Items
 * annotated config.kubernetes.io/local-config: "true" and kpt's Kptfile
 * are held back from the chain and written back where they were.
 */

/* A node of the profile text made of the functionConfig, and the node of
 * the ResourceList it came from (krm_config.c). */
struct wg_krm_pos {
	uint32_t line, col;		/* 0-based, in the profile text */
	const struct wg_node *src;	/* the node it was written from: its
					   position, or its origin (a
					   setting), or none (0:0: the
					   default profile's) */
};

/* A node of the profile made of a ConfigMap setting, and the setting's
 * value in the ResourceList (krm_config.c). */
struct wg_krm_origin {
	const struct wg_node *made;
	const struct wg_node *from;
};

/* What wingen keeps about each item (the resource's payload). */
struct wg_krm_item {
	size_t pos;		/* position in items */
	const char *path;	/* path annotation (internal, else legacy) */
	unsigned index;		/* index annotation; 0 when absent */
	bool held;		/* kept out of the chain */
};

struct wg_krm {
	const struct wg_input *in;	/* the text read; not owned */
	struct wg_node *api_version;	/* as read; NULL when unusable */
	struct wg_node *function_config;	/* NULL when absent or null */
	struct wg_node *fc_key;		/* its key, for positions */
	struct wg_resources list;	/* the items that go through the
					   chain (owns every node) */
	struct wg_resource **items;	/* every item, input order */
	size_t nitems, items_cap;
	bool flow;	/* the ResourceList came in flow style (JSON) */
	bool unchanged;	/* the items are as read (the run failed): the
			   change log is not reported as results */
	struct wg_krm_pos *fc_pos;	/* sorted by position */
	size_t nfc_pos;
	struct wg_krm_origin *fc_origins;
	size_t nfc_origins, fc_origins_cap;
	const struct wg_node *fc_nodes;	/* data.nodes of a ConfigMap
					   functionConfig (set by
					   wg_krm_profile()), or NULL */
};

/* API versions of ResourceList that are accepted (and echoed). */
extern const char *const wg_krm_api_versions[];

void wg_krm_init(struct wg_krm *krm);
void wg_krm_release(struct wg_krm *krm);

/*
 * Reads the ResourceList of in (one document) into krm, which must be
 * initialised.  Items become resources with file in->name and index their
 * position in items.  Problems (not a ResourceList, an unknown
 * apiVersion, items not a sequence, an item not a mapping, a second
 * document) are reported on ctx.  Returns 0 or -1; after -1 krm still
 * holds what could be read (api_version may be set).
 */
int wg_krm_read(struct wg_ctx *ctx, const struct wg_input *in,
		struct wg_krm *krm);

/* Whether the first document of in is a mapping with kind: ResourceList
 * (a quick look, for "wingen" run with no command).  Reports nothing. */
bool wg_krm_sniff(const struct wg_input *in);

/*
 * The profile of the run, from the functionConfig (krm_config.c):
 *  - absent: the embedded default profile;
 *  - apiVersion wingen.dev/v1alpha1, kind Profile: that profile, through
 *    the profile loader; metadata other than name is dropped (orchestrators
 *    annotate it) and resources: is ignored with a warning (the items are
 *    the resources);
 *  - a ConfigMap (kpt's "-- key=value", a Kptfile's configMap:): the
 *    default profile with its data keys applied (see wg_krm_config_keys;
 *    strict: "true" sets ctx->strict);
 *  - anything else: an error.
 * Problems are reported at the functionConfig's place in the ResourceList.
 * Returns 0 and fills *out (caller releases), or -1.
 */
int wg_krm_profile(struct wg_ctx *ctx, struct wg_krm *krm,
		   const struct wg_profile_opts *opts, struct wg_profile *out);

/*
 * The profile's diagnostics name the profile text made of the
 * functionConfig; this moves those from index first of ctx's log on to
 * the ResourceList: the position of the setting they are about, the
 * functionConfig as their object, and for a ConfigMap "data.KEY" as their
 * field.  wg_krm_profile() does it for the loader's; call it again after
 * the chain for the plugins' (a select entry that matched nothing).
 */
void wg_krm_rebase(struct wg_ctx *ctx, const struct wg_krm *krm,
		   size_t first);

/* One ConfigMap key: its name and what it sets, for help and docs. */
struct wg_krm_key {
	const char *name;
	const char *help;
};

/* Every ConfigMap key, ended by an entry with name NULL. */
extern const struct wg_krm_key wg_krm_config_keys[];

/* File name given to generated objects (config.kubernetes.io/path). */
#define WG_KRM_GENERATED_PATH "runtimeclasses.yaml"

/*
 * Gives every generated resource of krm->list that has no path annotation
 * the path WG_KRM_GENERATED_PATH and the next free index in it, under
 * both the internal.config.kubernetes.io and the legacy
 * config.kubernetes.io keys, so kpt writes them to a file of their own.
 */
void wg_krm_annotate_generated(struct wg_krm *krm);

/*
 * Appends the output ResourceList to out: the input's apiVersion, the
 * items (krm->list after the chain, held items back in their place,
 * deleted ones left out) and the results: one per diagnostic of ctx's log
 * (with ctx->strict, warnings count as errors), then one "info" per
 * change, each with resourceRef, field {path, currentValue,
 * proposedValue (v2alpha1: proposedValues, a list)} and file {path,
 * index} where known (no changes when
 * krm->unchanged).  Block style, even when the input was JSON.  Returns 0,
 * or -1 when libyaml cannot write it (reported on ctx).
 */
int wg_krm_write(struct wg_ctx *ctx, struct wg_krm *krm, struct wg_buf *out);

/*
 * The same, handed to sink as it is written (a megabyte at a time) instead
 * of held: the output list is never in memory whole.  What reached the
 * sink stays there, so call it only once nothing can fail but the sink:
 * after wg_krm_check_writable().  Returns 0, or -1 (reported on ctx;
 * "cannot write the output" when the sink failed).
 */
int wg_krm_write_sink(struct wg_ctx *ctx, struct wg_krm *krm,
		      wg_yaml_sink sink, void *data);

/*
 * Reports an error on ctx for every item of krm->list that libyaml's
 * emitter would refuse (wg_yaml_unwritable: text a transform generated
 * that is not UTF-8), so that the run fails before any output.  Returns
 * how many it reported.
 */
size_t wg_krm_check_writable(struct wg_ctx *ctx, const struct wg_krm *krm);

/*
 * The cluster's nodes given to the function (krm_nodes.c), for the same
 * checks as check --nodes:
 *  - Node items marked config.kubernetes.io/local-config: "true": held
 *    back from the chain and written back where they were, as every
 *    local-config item is (kpt keeps them in the package; kustomize drops
 *    local-config objects from its output, so they are never applied);
 *    a Node item without the mark is a resource of the package, passed
 *    through as any, with a warning;
 *  - the functionConfig ConfigMap's data key "nodes": the text kubectl
 *    get nodes -o json (or -o yaml) prints, read with the manifest
 *    reader; its diagnostics are placed at that value in the
 *    ResourceList, their place in the text said in the message
 *    ("data.nodes, line 3 column 5: ...").
 * Both may be given; the nodes add up.
 */
struct wg_krm_nodes {
	struct wg_input text;		/* data.nodes, owned; NULL data when
					   not given */
	struct wg_resources list;	/* the Nodes read from text */
	struct wg_cluster cluster;	/* every node given; empty: none */
};

void wg_krm_nodes_init(struct wg_krm_nodes *n);
void wg_krm_nodes_release(struct wg_krm_nodes *n);

/* Reads the nodes of krm (after wg_krm_profile()) into n, which must be
 * initialised; krm must outlive n->cluster.  Returns 0 or -1 (reported on
 * ctx, at the ResourceList). */
int wg_krm_nodes_read(struct wg_ctx *ctx, const struct wg_krm *krm,
		      struct wg_krm_nodes *n);

#endif

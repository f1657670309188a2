/*
 * The cluster's nodes of a KRM run (krm.h): Node items marked
 * local-config, and the functionConfig's data.nodes text.
 */
#include <stdlib.h>
#include <string.h>

#include "wingen/base/alloc.h"
#include "wingen/k8s/keys.h"
#include "wingen/krm/krm.h"
#include "wingen/yaml/reader.h"

/* The name data.nodes is read under; its diagnostics are moved to the
 * ResourceList (place()) and never show it. */
#define NODES_NAME "<data.nodes>"

void wg_krm_nodes_init(struct wg_krm_nodes *n)
{
	memset(n, 0, sizeof(*n));
	wg_resources_init(&n->list);
	wg_cluster_init(&n->cluster);
}

void wg_krm_nodes_release(struct wg_krm_nodes *n)
{
	wg_cluster_release(&n->cluster);
	wg_resources_release(&n->list);
	free(n->text.name);
	free(n->text.data);
	memset(n, 0, sizeof(*n));
}

/*
 * The diagnostics from first on that are about the data.nodes text: at
 * the value in the ResourceList, the place in the text in the message.
 * The value may be a block scalar or a JSON string with escapes, so a
 * place in the text has no exact place in the ResourceList.
 */
static void place(struct wg_ctx *ctx, const struct wg_krm *krm,
		  size_t first)
{
	struct wg_log *log = &ctx->log;
	const struct wg_node *v = krm->fc_nodes;

	for (size_t i = first; i < log->ndiags; i++) {
		struct wg_diag *d = &log->diags[i];

		if (!d->file || strcmp(d->file, NODES_NAME) != 0)
			continue;
		if (d->line)
			d->message = wg_arena_printf(&log->arena, "data.nodes, "
						     "line %u column %u: %s",
						     (unsigned)d->line,
						     (unsigned)d->col,
						     d->message);
		else
			d->message = wg_arena_printf(&log->arena, "data.nodes: "
						     "%s", d->message);
		d->file = wg_arena_strdup(&log->arena, krm->in->name);
		d->line = wg_node_line(v) + 1;
		d->col = wg_node_col(v) + 1;
		if (!d->field)
			d->field = "data.nodes";
	}
}

static int read_text(struct wg_ctx *ctx, const struct wg_krm *krm,
		     struct wg_krm_nodes *n)
{
	const struct wg_node *v = krm->fc_nodes;
	size_t first = ctx->log.ndiags;
	int rc;

	n->text.name = wg_xstrdup(NODES_NAME);
	n->text.data = wg_xmalloc(v->len + 1);
	memcpy(n->text.data, v->u.str, v->len);
	n->text.data[v->len] = '\0';
	n->text.len = v->len;
	n->text.mapped = 0;
	n->text.borrowed = false;
	rc = wg_read_stream(ctx, &n->text, &n->list);
	if (rc == 0)
		rc = wg_cluster_read(ctx, &n->cluster, &n->list, NODES_NAME);
	place(ctx, krm, first);
	return rc;
}

static bool local_config(const struct wg_node *root)
{
	return wg_scalar_is(wg_map_get(wg_path_get(root,
						   "metadata.annotations"),
				       WG_KRM_LOCAL_CONFIG), "true");
}

int wg_krm_nodes_read(struct wg_ctx *ctx, const struct wg_krm *krm,
		      struct wg_krm_nodes *n)
{
	int rc = 0;

	for (size_t i = 0; i < krm->nitems; i++) {
		const struct wg_resource *res = krm->items[i];

		if (!wg_is_node_object(res))
			continue;
		if (!local_config(res->root)) {
			wg_warning(ctx, res, NULL, NULL, "a Node among the "
				   "items without the annotation "
				   WG_KRM_LOCAL_CONFIG ": \"true\" is a "
				   "resource of the package, passed through "
				   "and not used as one of the cluster's "
				   "nodes; annotate it to check against it");
			continue;
		}
		if (wg_cluster_add(ctx, &n->cluster, res))
			rc = -1;
	}
	if (krm->fc_nodes && wg_is_scalar(krm->fc_nodes)
	    && read_text(ctx, krm, n))
		rc = -1;
	return rc;
}

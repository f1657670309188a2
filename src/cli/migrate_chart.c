/*
 * wingen migrate on Helm chart sources (folders holding Chart.yaml): each
 * chart is rendered by the real helm, the chain runs in post-renderer mode
 * (no RuntimeClass: a chart release must not own a cluster-scoped object
 * every other release also needs), and the changes come back as values
 * (src/migrate/chart_migrate.c).  All or nothing across the charts given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "migrate_chart.h"
#include "wingen/base/alloc.h"
#include "wingen/base/output.h"
#include "wingen/base/udiff.h"
#include "wingen/chain/registry.h"
#include "wingen/core/pipeline.h"
#include "wingen/core/plugin.h"
#include "wingen/migrate/chart.h"

/* Plugins whose changes spec.os.name brings: the field, and the removals
 * the API server then requires (docs/transforms.md). */
static bool os_step(const struct wg_plugin *pl)
{
	return pl == wg_plugin_find("pod-os")
	       || pl == wg_plugin_find("windows-security");
}

static int chain(void *arg, struct wg_ctx *ctx, struct wg_resources *list,
		 bool without_os)
{
	const struct wg_profile *p = arg;
	struct wg_profile q;
	struct wg_step *steps;
	size_t n = 0;
	int rc;

	if (!without_os)
		return wg_cli_run_chain_mode(ctx, p, list, WG_RC_NONE);
	steps = wg_xcalloc(p->nsteps + 1, sizeof(*steps));
	for (size_t i = 0; i < p->nsteps; i++)
		if (!os_step(p->steps[i].plugin))
			steps[n++] = p->steps[i];
	q = *p;
	q.steps = steps;
	q.nsteps = n;
	rc = wg_cli_run_chain_mode(ctx, &q, list, WG_RC_NONE);
	free(steps);
	return rc;
}

static void add_once(struct wg_pathlist *l, const char *s)
{
	for (size_t i = 0; i < l->len; i++)
		if (strcmp(l->items[i], s) == 0)
			return;
	wg_pathlist_add(l, s);
}

static bool differs(const struct wg_chart_write *w)
{
	return !w->old || w->old_len != w->len
	       || memcmp(w->old, w->text, w->len) != 0;
}

/* One chart's line of the summary. */
static void summary(const char *chart, const struct wg_chart_result *r,
		    bool diff, const char *helm)
{
	if (!r->objects) {
		fprintf(stderr, "migrate: chart %s needs no change (rendered "
			"with %s", chart, helm);
		if (r->without_os)
			fprintf(stderr, "; spec.os.name left out of %zu "
				"object%s, as the warnings say",
				r->without_os, r->without_os == 1 ? "" : "s");
		fputs(")\n", stderr);
		return;
	}
	fprintf(stderr, "migrate: chart %s: %zu object%s changed; %s %zu "
		"values key%s", chart, r->objects, r->objects == 1 ? "" : "s",
		diff ? "would set" : "set", r->keys, r->keys == 1 ? "" : "s");
	if (r->keys)
		fprintf(stderr, " in %s", r->writes[0].path);
	if (r->templates)
		fprintf(stderr, ", %s the literal YAML of %zu template%s",
			diff ? "would edit" : "edited", r->templates,
			r->templates == 1 ? "" : "s");
	fputs(" (proved by a second helm template)\n", stderr);
}

/*
 * No RuntimeClass goes into a chart: say which ones the charts' pods
 * name, which the cluster needs before they start (a pod naming a
 * missing one is rejected at admission).
 */
static void runtime_classes(const struct wg_chart_result *res, size_t n)
{
	struct wg_pathlist names = { 0 }, made = { 0 };

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < res[i].runtime_classes.len; k++)
			add_once(&names, res[i].runtime_classes.items[k]);
		for (size_t k = 0; k < res[i].made_runtime_classes.len; k++)
			add_once(&made, res[i].made_runtime_classes.items[k]);
	}
	if (!names.len) {
		fprintf(stderr, "migrate: no RuntimeClass is written into a "
			"chart; install them once per cluster: wingen "
			"runtimeclasses [PROFILE] | kubectl apply -f -\n");
	} else {
		fprintf(stderr, "migrate: the chart's pods name RuntimeClass");
		for (size_t k = 0; k < names.len; k++)
			fprintf(stderr, "%s %s", k ? "," : "", names.items[k]);
		fprintf(stderr, "; no RuntimeClass is written into a chart: "
			"install them once per cluster: wingen runtimeclasses "
			"[PROFILE] | kubectl apply -f -\n");
	}
	/* fan-out's RuntimeClass of a workload on several builds is made
	 * for the stream, not printed by wingen runtimeclasses */
	for (size_t k = 0; k < made.len; k++)
		fprintf(stderr, "migrate: RuntimeClass %s (made for a "
			"workload on several builds) is not one wingen "
			"runtimeclasses prints: helm template NAME CHART | "
			"wingen build [PROFILE] writes it among its "
			"RuntimeClasses; a pod naming a RuntimeClass the "
			"cluster lacks is rejected\n",
			made.items[k]);
	wg_pathlist_release(&names);
	wg_pathlist_release(&made);
}

int wg_cli_migrate_charts(struct wg_ctx *ctx, const struct wg_profile *p,
			  const struct wg_pathlist *charts,
			  const struct wg_cli_chart_opts *co)
{
	struct wg_chart_result *res = wg_xcalloc(charts->len + 1,
						 sizeof(*res));
	struct wg_chart_opts o = {
		.helm = wg_helm_binary(co->helm),
		.helm_args = co->helm_args->items,
		.nhelm_args = co->helm_args->len,
		.mode = co->values_out ? WG_CHART_VALUES_OUT
			: co->diff ? WG_CHART_DIFF : WG_CHART_IN_PLACE,
		.values_out = co->values_out,
		.chain = chain,
		.chain_arg = (void *)p,
	};
	struct wg_buf out = WG_BUF_INIT;
	int rc;

	for (size_t i = 0; i < charts->len; i++)
		wg_chart_migrate(ctx, charts->items[i], &o, &res[i]);
	rc = wg_cli_report(ctx, false);
	if (rc == WG_EXIT_OK && co->diff) {
		for (size_t i = 0; i < charts->len; i++)
			for (size_t j = 0; j < res[i].nwrites; j++) {
				const struct wg_chart_write *w =
					&res[i].writes[j];

				if (differs(w) && ++*co->nchanged)
					wg_udiff(&out, wg_cli_diff_name(w->path),
						 w->old, w->old_len, w->text,
						 w->len, 3);
			}
		if (!co->check)
			rc = wg_cli_write(ctx, NULL, &out);
	} else if (rc == WG_EXIT_OK) {
		struct wg_file_update *up = NULL;
		size_t n = 0, cap = 0, before = ctx->log.ndiags;

		for (size_t i = 0; i < charts->len; i++)
			for (size_t j = 0; j < res[i].nwrites; j++) {
				const struct wg_chart_write *w =
					&res[i].writes[j];

				if (!differs(w))
					continue;
				WG_GROW(up, cap, n + 1);
				/* replaced only if still as read */
				up[n++] = (struct wg_file_update){
					.path = w->path, .data = w->text,
					.len = w->len, .check = true,
					.old = w->old, .old_len = w->old_len };
			}
		if (n && wg_output_replace_all(ctx, up, n)) {
			for (size_t i = before; i < ctx->log.ndiags; i++)
				wg_diag_print(stderr, &ctx->log.diags[i]);
			rc = WG_EXIT_FAIL;
		}
		free(up);
	}
	for (size_t i = 0; rc == WG_EXIT_OK && i < charts->len; i++)
		summary(charts->items[i], &res[i], co->diff, o.helm);
	if (rc == WG_EXIT_OK)
		runtime_classes(res, charts->len);
	for (size_t i = 0; i < charts->len; i++)
		wg_chart_result_release(&res[i]);
	free(res);
	wg_buf_release(&out);
	return rc;
}

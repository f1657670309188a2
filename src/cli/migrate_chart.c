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
#include "wingen/migrate/chart.h"

static int chain(void *arg, struct wg_ctx *ctx, struct wg_resources *list)
{
	return wg_cli_run_chain_mode(ctx, arg, list, WG_RC_NONE);
}

static bool differs(const struct wg_chart_write *w)
{
	return !w->old || w->old_len != w->len
	       || memcmp(w->old, w->text, w->len) != 0;
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

				if (differs(w))
					wg_udiff(&out, wg_cli_diff_name(w->path),
						 w->old, w->old_len, w->text,
						 w->len, 3);
			}
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
	for (size_t i = 0; rc == WG_EXIT_OK && i < charts->len; i++) {
		const char *verb = co->diff ? "would set" : "set";

		if (!res[i].objects) {
			fprintf(stderr, "migrate: chart %s needs no change "
				"(rendered with %s)\n", charts->items[i],
				o.helm);
			continue;
		}
		fprintf(stderr, "migrate: chart %s: %zu object%s changed; %s "
			"%zu values key%s", charts->items[i], res[i].objects,
			res[i].objects == 1 ? "" : "s", verb, res[i].keys,
			res[i].keys == 1 ? "" : "s");
		if (res[i].keys)
			fprintf(stderr, " in %s", res[i].writes[0].path);
		if (res[i].templates)
			fprintf(stderr, ", %s %zu template%s' literal YAML",
				co->diff ? "would edit" : "edited",
				res[i].templates,
				res[i].templates == 1 ? "" : "s");
		fputs(" (proved by a second helm template)\n", stderr);
	}
	if (rc == WG_EXIT_OK)
		fprintf(stderr, "migrate: no RuntimeClass is written into a "
			"chart; install them once per cluster: wingen "
			"runtimeclasses [PROFILE] | kubectl apply -f -\n");
	for (size_t i = 0; i < charts->len; i++)
		wg_chart_result_release(&res[i]);
	free(res);
	wg_buf_release(&out);
	return rc;
}

/* Diagnostics and the change log: positions, refs, printing, strict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/names.h"
#include "wingen/yaml/reader.h"

static char *print_all(const struct wg_log *log, enum wg_severity worst)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	wg_log_print(f, log, worst);
	fclose(f);
	return text;
}

START_TEST(report_uses_node_position_and_object)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_resource *res;
	struct wg_node *sel;
	char *text;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "kind: Deployment\nmetadata:\n"
				"  name: web\n  namespace: prod\nspec:\n"
				"  nodeSelector:\n    kubernetes.io/os: linux\n",
				&list), 0);
	res = list.items[0];
	sel = wg_path_get(res->root, "spec.nodeSelector.[kubernetes.io/os]");
	ck_assert_int_eq(wg_error(&ctx, res, sel, "spec.nodeSelector",
				  "'%s' conflicts", "linux"), -1);
	ck_assert_int_eq(wg_warning(&ctx, res, NULL, NULL, "just %d", 1), 0);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 1);
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_WARNING], 1);
	ck_assert_str_eq(ctx.log.diags[0].ref.kind, "Deployment");
	ck_assert_str_eq(ctx.log.diags[0].ref.namespace_, "prod");
	text = print_all(&ctx.log, WG_SEV_INFO);
	ck_assert_str_eq(text,
		"test.yaml:7:23: error: Deployment/prod/web: spec.nodeSelector: "
		"'linux' conflicts\n"
		"test.yaml:1:1: warning: Deployment/prod/web: just 1\n");
	free(text);
	text = print_all(&ctx.log, WG_SEV_ERROR);
	ck_assert_ptr_null(strstr(text, "warning"));
	free(text);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(strict_turns_warnings_into_failure)
{
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	wg_report_at(&ctx, WG_SEV_WARNING, "p.yaml", 3, 0, "w");
	ck_assert(!wg_ctx_failed(&ctx));
	ctx.strict = true;
	ck_assert(wg_ctx_failed(&ctx));
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(messages_outlive_their_inputs)
{
	struct wg_ctx ctx;
	char file[] = "gone.yaml";
	char *text;

	wg_ctx_init(&ctx);
	wg_report_at(&ctx, WG_SEV_ERROR, file, 0, 0, "cannot open");
	wg_report_at(&ctx, WG_SEV_ERROR, NULL, 0, 0, "no file");
	memset(file, 'x', sizeof(file) - 1);
	text = print_all(&ctx.log, WG_SEV_ERROR);
	ck_assert_str_eq(text, "gone.yaml: error: cannot open\n"
			 "wingen: error: no file\n");
	free(text);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(changes_render_values_as_flow)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_resource *res;
	struct wg_node *old, *new_;
	const struct wg_change *c;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "kind: Pod\nmetadata: {name: p}\n"
				"spec: {nodeSelector: {a: b}}\n", &list), 0);
	res = list.items[0];
	old = wg_path_get(res->root, "spec.nodeSelector");
	new_ = wg_node_clone(&list.arena, old);
	wg_map_set(&list.arena, new_, "kubernetes.io/os",
		   wg_node_new_str(&list.arena, "windows"));
	ctx.plugin = "node-selector";
	wg_record_change(&ctx, WG_CHANGE_SET, res, old, "spec.nodeSelector",
			 old, new_, "image matched windows.select[0]");
	ck_assert_uint_eq(ctx.log.nchanges, 1);
	c = &ctx.log.changes[0];
	ck_assert_str_eq(c->old_value, "{a: b}");
	ck_assert_str_eq(c->new_value, "{a: b, kubernetes.io/os: windows}");
	ck_assert_str_eq(c->plugin, "node-selector");
	ck_assert_str_eq(c->ref.name, "p");
	ck_assert_uint_eq(c->line, 3);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* A log that counts changes (check's text report) keeps each change's
 * object and position, and nothing it would only print. */
START_TEST(refs_only_log_keeps_the_object)
{
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_resources list;
	struct wg_resource *res;
	struct wg_node *old;
	const struct wg_change *c;

	wg_ctx_init(&ctx);
	ctx.log.refs_only = true;
	wg_resources_init(&list);
	ck_assert_int_eq(t_read(&ctx, &in, "kind: Pod\nmetadata: {name: p}\n"
				"spec: {nodeSelector: {a: b}}\n", &list), 0);
	res = list.items[0];
	old = wg_path_get(res->root, "spec.nodeSelector");
	ctx.plugin = "node-selector";
	wg_record_change(&ctx, WG_CHANGE_SET, res, old, "spec.nodeSelector",
			 old, old, "why");
	ck_assert_uint_eq(ctx.log.nchanges, 1);
	c = &ctx.log.changes[0];
	ck_assert_str_eq(c->ref.name, "p");
	ck_assert_str_eq(c->ref.kind, "Pod");
	ck_assert_ptr_eq(c->subject, res);
	ck_assert_uint_eq(c->line, 3);
	ck_assert_ptr_null(c->field);
	ck_assert_ptr_null(c->old_value);
	ck_assert_ptr_null(c->new_value);
	ck_assert_ptr_null(c->plugin);
	ck_assert_ptr_null(c->reason);
	wg_resources_release(&list);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(list_items_cut_and_trimmed)
{
	char text[] = " ltsc2019 ,ltsc2022,, 1809 ";
	const char *want[] = { "ltsc2019", "ltsc2022", "", "1809" };
	char *rest = text, *item;
	size_t len = 99, n = 0;

	while ((item = wg_list_next(&rest, &len))) {
		ck_assert_uint_lt(n, 4);
		ck_assert_str_eq(item, want[n]);
		ck_assert_uint_eq(len, strlen(want[n]));
		n++;
	}
	ck_assert_uint_eq(n, 4);
	ck_assert_ptr_null(wg_list_next(&rest, &len));
	rest = text;
	text[0] = '\0';
	ck_assert_str_eq(wg_list_next(&rest, &len), "");
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_null(rest);
}
END_TEST

static Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("diag");

	tcase_add_test(tc, report_uses_node_position_and_object);
	tcase_add_test(tc, strict_turns_warnings_into_failure);
	tcase_add_test(tc, messages_outlive_their_inputs);
	tcase_add_test(tc, changes_render_values_as_flow);
	tcase_add_test(tc, refs_only_log_keeps_the_object);
	tcase_add_test(tc, list_items_cut_and_trimmed);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(diag_suite)

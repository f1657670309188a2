/* Chart migration without Helm: the render's Source comments, the values
 * arguments, the chart on disk (tests/data/helm/charts), values hooks,
 * and the values edits (merged, as an overlay, as text edits). */
#define _GNU_SOURCE	/* memmem */
#include <string.h>

#include "testutil.h"
#include "wingen/migrate/chart.h"
#include "wingen/migrate/migrate.h"

static const char render[] =
	"---\n"
	"# Source: web/templates/service.yaml\n"
	"apiVersion: v1\n"
	"kind: Service\n"
	"---\n"
	"# Source: web/charts/redis/templates/sts.yaml\r\n"
	"apiVersion: apps/v1\n"
	"kind: StatefulSet\n";

START_TEST(source_comments_name_the_template)
{
	struct wg_source_map m;

	wg_source_map_build(&m, render, sizeof(render) - 1);
	ck_assert_ptr_null(wg_source_map_get(&m, 0));
	ck_assert_str_eq(wg_source_map_get(&m, 2), "templates/service.yaml");
	ck_assert_str_eq(wg_source_map_get(&m, 7),
			 "charts/redis/templates/sts.yaml");
	wg_source_map_release(&m);
}
END_TEST

START_TEST(values_files_among_helm_args)
{
	char *args[] = { "--set", "a=b", "-f", "one.yaml", "--values=two.yaml",
			 "-fthree.yaml", "--values", "four.yaml", "--namespace",
			 "x", "--set-string=c=d", "--set-json", "e=1" };
	struct wg_values_arg out[8];

	ck_assert_uint_eq(wg_chart_values_args(args, 13, out, 8), 6);
	ck_assert_int_eq(out[0].kind, WG_VALUES_SET);
	ck_assert_str_eq(out[0].arg, "a=b");
	ck_assert_str_eq(out[1].arg, "one.yaml");
	ck_assert_str_eq(out[2].arg, "two.yaml");
	ck_assert_str_eq(out[3].arg, "three.yaml");
	ck_assert_str_eq(out[4].arg, "four.yaml");
	for (int i = 1; i < 5; i++)
		ck_assert_int_eq(out[i].kind, WG_VALUES_FILE);
	ck_assert_int_eq(out[5].kind, WG_VALUES_SET_STRING);
	ck_assert_str_eq(out[5].arg, "c=d");
}
END_TEST

/* --set as Helm reads it: dotted keys, escapes, list items, typed values */
START_TEST(set_values_read_as_helm_reads_them)
{
	struct wg_arena a = WG_ARENA_INIT;
	struct wg_node *v = wg_node_new_map(&a);
	const char *why;
	const struct wg_node *n;

	ck_assert_int_eq(wg_chart_set_values(&a, v,
		"node.nodeSelector.kubernetes\\.io/os=windows,replicas=3,"
		"on=TRUE,zip=0123,list={x,y},tol[1].key=os,name=a\\,b",
		false, &why), 0);
	n = wg_path_get(v, "node.nodeSelector");
	ck_assert(wg_is_map(n));
	ck_assert_str_eq(wg_map_key(n, 0)->u.str, "kubernetes.io/os");
	ck_assert(wg_scalar_is(wg_map_value(n, 0), "windows"));
	/* typed: an integer and a bool plain, "0123" a string */
	ck_assert_int_eq(wg_map_get(v, "replicas")->style, WG_STYLE_PLAIN);
	ck_assert_int_eq(wg_node_bool(wg_map_get(v, "on")), WG_BOOL_TRUE);
	ck_assert_int_eq(wg_map_get(v, "zip")->style, WG_STYLE_DOUBLE);
	n = wg_map_get(v, "list");
	ck_assert(wg_is_seq(n) && n->len == 2);
	n = wg_map_get(v, "tol");
	ck_assert(wg_is_seq(n) && n->len == 2);
	ck_assert(wg_node_is_null(wg_seq_item(n, 0)));
	ck_assert(wg_scalar_is(wg_map_get(wg_seq_item(n, 1), "key"), "os"));
	ck_assert(wg_scalar_is(wg_map_get(v, "name"), "a,b"));
	/* --set-string: every value a string */
	ck_assert_int_eq(wg_chart_set_values(&a, v, "replicas=4", true, &why),
			 0);
	ck_assert_int_eq(wg_map_get(v, "replicas")->style, WG_STYLE_DOUBLE);
	/* what Helm refuses */
	ck_assert_int_eq(wg_chart_set_values(&a, v, "novalue", false, &why),
			 -1);
	ck_assert_ptr_nonnull(why);
	ck_assert_int_eq(wg_chart_set_values(&a, v, "l[x]=1", false, &why),
			 -1);
	ck_assert_int_eq(wg_chart_set_values(&a, v, "l={a,b", false, &why),
			 -1);
	wg_arena_release(&a);
}
END_TEST

static struct wg_ctx ctx;
static struct wg_chart chart;
static struct wg_arena arena;

static void load(const char *name)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/helm/charts/%s", WG_TEST_DATA, name);
	wg_ctx_init(&ctx);
	wg_arena_init(&arena);
	ck_assert_int_eq(wg_chart_load(&ctx, &chart, dir, NULL, 0), 0);
}

static void unload(void)
{
	wg_chart_release(&chart);
	wg_arena_release(&arena);
	wg_ctx_release(&ctx);
}

START_TEST(hooks_through_named_templates)
{
	const struct wg_chart_tpl *t;
	const char *keys[4];

	load("mixed");
	ck_assert_uint_eq(chart.ndefines, 1);
	ck_assert_str_eq(chart.defines[0].name, "mixed.sched");
	t = wg_chart_tpl_find(&chart, "templates/windows.yaml");
	ck_assert_ptr_nonnull(t);
	/* nodeSelector only through the include */
	ck_assert_uint_eq(wg_chart_hook_keys(&chart, t, "Deployment", 0, 1,
					     "nodeSelector", &arena, keys, 4),
			  1);
	ck_assert_str_eq(keys[0], "nodeSelector");
	ck_assert_uint_eq(wg_chart_hook_keys(&chart, t, "Deployment", 0, 1,
					     "tolerations", &arena, keys, 4),
			  1);
	ck_assert_str_eq(keys[0], "web.tolerations");
	ck_assert_uint_eq(wg_chart_hook_keys(&chart, t, "Deployment", 0, 1,
					     "runtimeClassName", &arena, keys,
					     4), 0);
	unload();
}
END_TEST

START_TEST(a_file_of_several_objects_reads_its_own_part)
{
	const struct wg_chart_tpl *t;
	const char *keys[4];

	load("hooks");
	t = wg_chart_tpl_find(&chart, "templates/web.yaml");
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(wg_chart_tpl_segments(t, "Deployment"), 1);
	ck_assert_uint_eq(wg_chart_tpl_segments(t, "Service"), 1);
	ck_assert_uint_eq(wg_chart_hook_keys(&chart, t, "Service", 0, 1,
					     "nodeSelector", &arena, keys, 4),
			  0);
	ck_assert_uint_eq(wg_chart_hook_keys(&chart, t, "Deployment", 0, 1,
					     "os", &arena, keys, 4), 1);
	ck_assert_str_eq(keys[0], "web.os");
	unload();
}
END_TEST

/* An object's YAML comes from its template's part and the named templates
 * that part includes, in another file (aws-ebs-csi-driver's
 * _node-windows.tpl): the spans say which file holds each. */
START_TEST(spans_follow_includes_into_their_files)
{
	struct wg_chart_span spans[8];
	const struct wg_chart_tpl *t;
	size_t n;

	load("named");
	t = wg_chart_tpl_find(&chart, "templates/node-windows.yaml");
	ck_assert_ptr_nonnull(t);
	n = wg_chart_spans(&chart, t, t->text, t->text + t->len, spans, 8);
	/* the part, then "node-windows" once though it is included twice */
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_eq(spans[0].t, t);
	ck_assert_str_eq(spans[1].t->rel, "templates/_node-windows.tpl");
	ck_assert_ptr_nonnull(memmem(spans[1].b, (size_t)(spans[1].e
				     - spans[1].b), "containers:", 11));
	ck_assert_ptr_null(memmem(spans[0].b, (size_t)(spans[0].e
				  - spans[0].b), "containers:", 11));
	/* no room: the part alone */
	ck_assert_uint_eq(wg_chart_spans(&chart, t, t->text, t->text + t->len,
					 spans, 1), 1);
	/* a template that includes nothing: itself */
	t = wg_chart_tpl_find(&chart, "templates/node.yaml");
	ck_assert_uint_eq(wg_chart_spans(&chart, t, t->text, t->text + t->len,
					 spans, 8), 1);
	unload();
}
END_TEST

START_TEST(pick_prefers_the_component_key)
{
	const char *keys[] = { "global.nodeSelector", "server.nodeSelector" };

	load("hooks");
	ck_assert_str_eq(wg_chart_hook_pick(&chart, keys, 2, NULL),
			 "server.nodeSelector");
	ck_assert_ptr_null(wg_chart_hook_pick(&chart, keys, 0, NULL));
	/* a set component value wins */
	keys[1] = "web.nodeSelector";
	ck_assert_str_eq(wg_chart_hook_pick(&chart, keys, 2, NULL),
			 "web.nodeSelector");
	unload();
}
END_TEST

static struct wg_node *tree(struct wg_resources *list, struct wg_input *in,
			    const char *text)
{
	ck_assert_int_eq(t_read(&ctx, in, text, list), 0);
	return list->items[0]->root;
}

START_TEST(edits_merge_and_conflict)
{
	struct wg_values_edits e;
	struct wg_resources l1, l2;
	struct wg_input i1, i2;
	struct wg_node *a, *b;
	const char *conflict;
	struct wg_buf out = WG_BUF_INIT;

	wg_ctx_init(&ctx);
	memset(&e, 0, sizeof(e));
	wg_arena_init(&e.arena);
	wg_resources_init(&l1);
	wg_resources_init(&l2);
	a = tree(&l1, &i1, "apiVersion: v1\nkind: X\nm: {kubernetes.io/os: linux}\n");
	b = tree(&l2, &i2, "apiVersion: v1\nkind: X\nm: {kubernetes.io/os: windows}\n");
	ck_assert_int_eq(wg_values_edits_merge(&e, "nodeSelector", NULL,
					       wg_map_get(a, "m"), "A",
					       &conflict), 0);
	/* the same again is no conflict */
	ck_assert_int_eq(wg_values_edits_merge(&e, "nodeSelector", NULL,
					       wg_map_get(a, "m"), "A2",
					       &conflict), 0);
	ck_assert_int_eq(wg_values_edits_merge(&e, "nodeSelector", NULL,
					       wg_map_get(b, "m"), "B",
					       &conflict), -1);
	ck_assert_str_eq(conflict, "A");
	ck_assert_uint_eq(e.len, 1);
	wg_values_overlay(&out, &e, "web");
	ck_assert_ptr_nonnull(strstr(out.buf, "\nnodeSelector:\n  kubernetes.io/os: linux\n"));
	wg_buf_release(&out);
	wg_values_edits_release(&e);
	wg_resources_release(&l1);
	wg_resources_release(&l2);
	wg_input_release(&i1);
	wg_input_release(&i2);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(values_edited_as_text_keep_comments)
{
	static const char values[] =
		"# top comment\n"
		"web:\n"
		"  # the web server\n"
		"  nodeSelector: {}   # per cluster\n"
		"  replicas: 2\n";
	struct wg_values_edits e;
	struct wg_resources l;
	struct wg_input in;
	struct wg_node *a;
	const char *conflict, *why;
	struct wg_buf out = WG_BUF_INIT;
	size_t line;

	wg_ctx_init(&ctx);
	memset(&e, 0, sizeof(e));
	wg_arena_init(&e.arena);
	wg_resources_init(&l);
	a = tree(&l, &in, "apiVersion: v1\nkind: X\nm: {kubernetes.io/os: linux}\n"
		 "t: [{key: os, value: windows}]\n");
	ck_assert_int_eq(wg_values_edits_merge(&e, "web.nodeSelector", NULL,
					       wg_map_get(a, "m"), "A",
					       &conflict), 0);
	ck_assert_int_eq(wg_values_edits_merge(&e, "api.tolerations", NULL,
					       wg_map_get(a, "t"), "A",
					       &conflict), 0);
	ck_assert_int_eq(wg_values_edit_text(values, sizeof(values) - 1, &e,
					     &out, &why, &line), 0);
	ck_assert_str_eq(out.buf,
		"# top comment\n"
		"web:\n"
		"  # the web server\n"
		"  nodeSelector:   # per cluster\n"
		"    kubernetes.io/os: linux\n"
		"  replicas: 2\n"
		"api:\n"
		"  tolerations:\n"
		"  - key: os\n"
		"    value: windows\n");
	wg_buf_release(&out);
	wg_values_edits_release(&e);
	wg_resources_release(&l);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

START_TEST(template_literal_edits)
{
	static const char tpl[] =
		"spec:\n"
		"  {{- with .Values.x }}\n"
		"  x: {{ . }}\n"
		"  {{- end }}\n"
		"  containers:\n"
		"    - name: a\n"
		"      securityContext:\n"
		"        capabilities:\n"
		"          drop: [ALL]\n"
		"    - name: b\n"
		"      securityContext:\n"
		"        capabilities:\n"
		"          drop: [ALL]\n";
	static const char block[] =
		"        securityContext:\n"
		"          capabilities:\n"
		"            drop: [ALL]\n";
	const char *end = tpl + sizeof(tpl) - 1;
	struct wg_edits edits = { NULL, 0, 0 };
	struct wg_resources l;
	struct wg_input in;
	struct wg_node *a;
	struct wg_buf out = WG_BUF_INIT;
	size_t start = 0, stop = 0;

	wg_ctx_init(&ctx);
	wg_resources_init(&l);
	a = tree(&l, &in, "apiVersion: v1\nkind: X\nnodeSelector: {kubernetes.io/os: linux}\n");
	/* a new key in front of the one literal containers: line */
	ck_assert_int_eq(wg_tpl_insert_podspec_key(tpl, tpl, end,
						   wg_map_key(a, 2),
						   wg_map_value(a, 2), &edits),
			 0);
	/* a block is found at another indentation, as often as written */
	ck_assert_uint_eq(wg_tpl_find_block(tpl, end, block, sizeof(block) - 1,
					    1, &start, &stop, tpl), 2);
	wg_edits_add(&edits, start, stop, NULL, 0);
	ck_assert_int_eq(wg_edits_apply(&edits, tpl, sizeof(tpl) - 1, &out), 0);
	ck_assert_str_eq(out.buf,
		"spec:\n"
		"  {{- with .Values.x }}\n"
		"  x: {{ . }}\n"
		"  {{- end }}\n"
		"  nodeSelector: {kubernetes.io/os: linux}\n"
		"  containers:\n"
		"    - name: a\n"
		"      securityContext:\n"
		"        capabilities:\n"
		"          drop: [ALL]\n"
		"    - name: b\n");
	/* no literal containers: line in the part: refused */
	ck_assert_int_eq(wg_tpl_insert_podspec_key(tpl, tpl, tpl + 20,
						   wg_map_key(a, 2),
						   wg_map_value(a, 2), &edits),
			 -1);
	wg_edits_release(&edits);
	wg_buf_release(&out);
	wg_resources_release(&l);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* entries added to a field's one literal block, after its literal lines */
START_TEST(template_block_additions)
{
	static const char tpl[] =
		"    spec:\r\n"
		"      nodeSelector:\r\n"
		"        kubernetes.io/os: windows\r\n"
		"{{- with .Values.node.nodeSelector }}\r\n"
		"{{ toYaml . | indent 8 }}\r\n"
		"{{- end }}\r\n"
		"      tolerations:\r\n"
		"      - key: a\r\n"
		"        operator: Exists\r\n"
		"      containers: []\r\n";
	const char *end = tpl + sizeof(tpl) - 1;
	struct wg_edits edits = { NULL, 0, 0 };
	struct wg_resources l;
	struct wg_input in;
	struct wg_node *a;
	struct wg_buf out = WG_BUF_INIT;
	size_t line;

	wg_ctx_init(&ctx);
	wg_resources_init(&l);
	a = tree(&l, &in, "apiVersion: v1\nkind: X\n"
		 "ns: {kubernetes.io/arch: amd64}\n"
		 "tol: [{key: os, effect: NoSchedule}]\n"
		 "dup: {kubernetes.io/os: linux}\n");
	ck_assert_int_eq(wg_tpl_insert_into_block(tpl, tpl, end,
						  "nodeSelector",
						  wg_map_value(a, 2), &edits,
						  &line), 0);
	ck_assert_uint_eq(line, 2);
	/* a sequence written "- " at the key's column */
	ck_assert_int_eq(wg_tpl_insert_into_block(tpl, tpl, end,
						  "tolerations",
						  wg_map_value(a, 3), &edits,
						  &line), 0);
	ck_assert_int_eq(wg_edits_apply(&edits, tpl, sizeof(tpl) - 1, &out), 0);
	ck_assert_str_eq(out.buf,
		"    spec:\r\n"
		"      nodeSelector:\r\n"
		"        kubernetes.io/os: windows\r\n"
		"        kubernetes.io/arch: amd64\r\n"
		"{{- with .Values.node.nodeSelector }}\r\n"
		"{{ toYaml . | indent 8 }}\r\n"
		"{{- end }}\r\n"
		"      tolerations:\r\n"
		"      - key: a\r\n"
		"        operator: Exists\r\n"
		"      - {key: os, effect: NoSchedule}\r\n"
		"      containers: []\r\n");
	/* a key the block writes already is no addition; no such field */
	ck_assert_int_eq(wg_tpl_insert_into_block(tpl, tpl, end,
						  "nodeSelector",
						  wg_map_value(a, 4), &edits,
						  &line), -1);
	ck_assert_int_eq(wg_tpl_insert_into_block(tpl, tpl, end, "affinity",
						  wg_map_value(a, 2), &edits,
						  &line), -1);
	ck_assert_uint_eq(line, 0);
	wg_edits_release(&edits);
	wg_buf_release(&out);
	wg_resources_release(&l);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* a block that opens with an action: its entries' column from its later
 * lines, the new ones after its last line outside an if; refused when an
 * if's branches write them at two columns */
START_TEST(template_block_opened_by_an_action)
{
	static const char seq[] =
		"      tolerations:\n"
		"      {{- with .Values.tolerations }}\n"
		"      {{- toYaml . | nindent 6 }}\n"
		"      {{- end }}\n"
		"      {{- if .Values.x }}\n"
		"      containers: []\n"
		"      {{- end }}\n";
	static const char branches[] =
		"      nodeSelector:\n"
		"        {{- if .Values.nodeSelector }}\n"
		"        {{ toYaml .Values.nodeSelector | nindent 8 }}\n"
		"        {{- else }}\n"
		"          kubernetes.io/os: windows\n"
		"        {{- end }}\n"
		"      containers: []\n";
	static const char deeper[] =
		"      nodeSelector:\n"
		"        {{- with .Values.nodeSelector }}\n"
		"        {{- toYaml . | nindent 10 }}\n"
		"        {{- end }}\n"
		"      containers: []\n";
	struct wg_edits edits = { NULL, 0, 0 };
	struct wg_resources l;
	struct wg_input in;
	struct wg_node *a;
	struct wg_buf out = WG_BUF_INIT;
	size_t line;

	wg_ctx_init(&ctx);
	wg_resources_init(&l);
	a = tree(&l, &in, "apiVersion: v1\nkind: X\n"
		 "ns: {kubernetes.io/arch: amd64}\n"
		 "tol: [{key: os, effect: NoSchedule}]\n");
	ck_assert_int_eq(wg_tpl_insert_into_block(seq, seq,
						  seq + sizeof(seq) - 1,
						  "tolerations",
						  wg_map_value(a, 3), &edits,
						  &line), 0);
	ck_assert_int_eq(wg_edits_apply(&edits, seq, sizeof(seq) - 1, &out), 0);
	ck_assert_str_eq(out.buf,
		"      tolerations:\n"
		"      {{- with .Values.tolerations }}\n"
		"      {{- toYaml . | nindent 6 }}\n"
		"      {{- end }}\n"
		"      - {key: os, effect: NoSchedule}\n"
		"      {{- if .Values.x }}\n"
		"      containers: []\n"
		"      {{- end }}\n");
	wg_edits_release(&edits);
	wg_buf_release(&out);
	ck_assert_int_eq(wg_tpl_insert_into_block(branches, branches,
						  branches + sizeof(branches) - 1,
						  "nodeSelector",
						  wg_map_value(a, 2), &edits,
						  &line), -1);
	ck_assert_uint_eq(edits.len, 0);
	ck_assert_int_eq(wg_tpl_insert_into_block(deeper, deeper,
						  deeper + sizeof(deeper) - 1,
						  "nodeSelector",
						  wg_map_value(a, 2), &edits,
						  &line), 0);
	ck_assert_int_eq(wg_edits_apply(&edits, deeper, sizeof(deeper) - 1,
					&out), 0);
	ck_assert_str_eq(out.buf,
		"      nodeSelector:\n"
		"        {{- with .Values.nodeSelector }}\n"
		"        {{- toYaml . | nindent 10 }}\n"
		"        {{- end }}\n"
		"          kubernetes.io/arch: amd64\n"
		"      containers: []\n");
	wg_edits_release(&edits);
	wg_buf_release(&out);
	wg_resources_release(&l);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

/* a packed subchart: read in memory, under its alias */
START_TEST(packed_subchart_read_under_its_alias)
{
	const struct wg_chart_tpl *t;
	const struct wg_node *v;

	load("packed");
	ck_assert_ptr_null(wg_chart_tpl_find(&chart,
		"charts/web/templates/deployment.yaml"));
	t = wg_chart_tpl_find(&chart, "charts/front/templates/deployment.yaml");
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_null(t->path);		/* never edited */
	ck_assert_str_eq(t->pack, "charts/web-0.1.0.tgz");
	ck_assert_str_eq(t->values_prefix, "front.");
	/* the subchart's values under the alias; the parent's win */
	v = wg_chart_value(&chart, "front.replicas");
	ck_assert(wg_scalar_is(v, "1"));
	ck_assert(wg_is_map(wg_chart_value(&chart, "front.nodeSelector")));
	unload();
}
END_TEST

/* the archive itself: files, and what is refused */
START_TEST(tgz_read_and_refused)
{
	char path[512];
	struct wg_input in;
	struct wg_tgz t;
	const char *why;
	bool deploy = false;

	snprintf(path, sizeof(path), "%s/helm/charts/packed/charts/"
		 "web-0.1.0.tgz", WG_TEST_DATA);
	wg_ctx_init(&ctx);
	ck_assert_int_eq(wg_input_read(&ctx, path, &in), 0);
	ck_assert_int_eq(wg_tgz_read(in.data, in.len, 1 << 20, &t, &why), 0);
	for (size_t i = 0; i < t.len; i++)
		deploy |= strcmp(t.files[i].path,
				 "web/templates/deployment.yaml") == 0
			  && strstr(t.files[i].data, "kind: Deployment");
	ck_assert(deploy);
	wg_tgz_release(&t);
	/* unpacked beyond the limit: an error, not memory */
	ck_assert_int_eq(wg_tgz_read(in.data, in.len, 1024, &t, &why), -1);
	ck_assert_ptr_nonnull(strstr(why, "limit"));
	/* cut short; not gzip at all */
	ck_assert_int_eq(wg_tgz_read(in.data, in.len / 2, 1 << 20, &t, &why),
			 -1);
	ck_assert_int_eq(wg_tgz_read("plain text", 10, 1 << 20, &t, &why), -1);
	ck_assert_ptr_nonnull(why);
	wg_input_release(&in);
	wg_ctx_release(&ctx);
}
END_TEST

static Suite *chart_suite(void)
{
	Suite *s = suite_create("chart");
	TCase *tc = tcase_create("chart");

	tcase_add_test(tc, source_comments_name_the_template);
	tcase_add_test(tc, values_files_among_helm_args);
	tcase_add_test(tc, set_values_read_as_helm_reads_them);
	tcase_add_test(tc, hooks_through_named_templates);
	tcase_add_test(tc, a_file_of_several_objects_reads_its_own_part);
	tcase_add_test(tc, spans_follow_includes_into_their_files);
	tcase_add_test(tc, pick_prefers_the_component_key);
	tcase_add_test(tc, edits_merge_and_conflict);
	tcase_add_test(tc, values_edited_as_text_keep_comments);
	tcase_add_test(tc, template_literal_edits);
	tcase_add_test(tc, template_block_additions);
	tcase_add_test(tc, template_block_opened_by_an_action);
	tcase_add_test(tc, packed_subchart_read_under_its_alias);
	tcase_add_test(tc, tgz_read_and_refused);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(chart_suite)

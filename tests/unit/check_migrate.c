/*
 * migrate's engine end to end, without transforms: each case edits the
 * trees by hand (as a transform would) and checks the text that comes out
 * of wg_migrate_finish(), byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/migrate/migrate.h"

typedef void (*edit_fn)(struct wg_arena *a, struct wg_resources *list);

struct result {
	int rc;
	char *text;	/* the new text */
	char *message;	/* first diagnostic, "" when none */
	unsigned line;	/* its line */
	size_t objects, reformatted;
	bool changed;
};

static struct result run(const char *text, edit_fn fn, bool fallback)
{
	struct wg_migrate_opts opts = { .reformat_fallback = fallback };
	struct wg_migrate_file f;
	struct wg_resources list;
	struct wg_input in;
	struct wg_ctx ctx;
	struct result r;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	t_input(&in, "m.yaml", text);
	ck_assert_int_eq(wg_migrate_load_input(&ctx, &f, &in, &list), 0);
	ck_assert_ptr_null(f.skip);
	wg_migrate_edits_begin(&list);
	fn(&list.arena, &list);
	wg_migrate_edits_end(&list);
	r.rc = wg_migrate_finish(&ctx, &f, &list, &opts);
	r.text = wg_xstrndup(f.out.buf, f.out.len);
	r.message = wg_xstrdup(t_first_message(&ctx));
	r.line = ctx.log.ndiags ? ctx.log.diags[0].line : 0;
	r.objects = f.objects_changed;
	r.reformatted = f.reformatted;
	r.changed = f.changed;
	wg_migrate_file_release(&f);
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
	return r;
}

static void done(struct result *r)
{
	free(r->text);
	free(r->message);
}

/* Runs a case that must succeed and give exactly want. */
static void expect(const char *in, edit_fn fn, const char *want)
{
	struct result r = run(in, fn, false);

	ck_assert_msg(r.rc == 0, "refused: %s", r.message);
	ck_assert_str_eq(r.text, want);
	ck_assert_int_eq(r.changed, strcmp(in, want) != 0);
	done(&r);
}

/* Runs a case that must be refused at line (1-based) with why in the
 * message, leaving the text unchanged. */
static void expect_refusal(const char *in, edit_fn fn, unsigned line,
			   const char *why)
{
	struct result r = run(in, fn, false);

	ck_assert_int_eq(r.rc, -1);
	ck_assert_str_eq(r.text, in);
	ck_assert_msg(strstr(r.message, why), "message: %s", r.message);
	ck_assert_uint_eq(r.line, line);
	done(&r);
}

static struct wg_node *root(struct wg_resources *list, size_t i)
{
	ck_assert_uint_gt(list->len, i);
	return list->items[i]->root;
}

static struct wg_node *at(struct wg_resources *list, size_t i,
			  const char *path)
{
	struct wg_node *n = wg_path_get(root(list, i), path);

	ck_assert_msg(n != NULL, "no '%s'", path);
	return n;
}

static void set_str(struct wg_arena *a, struct wg_node *m, const char *key,
		    const char *value)
{
	wg_map_set(a, m, key, wg_node_new_str(a, value));
}

/* {key: os, effect: NoSchedule} */
static struct wg_node *toleration(struct wg_arena *a, const char *key)
{
	struct wg_node *t = wg_node_new_map(a);

	set_str(a, t, "key", key);
	set_str(a, t, "effect", "NoSchedule");
	return t;
}

/* What the scheduling transforms do: nodeSelector and tolerations. */
static void schedule_windows(struct wg_arena *a, struct wg_resources *list)
{
	struct wg_node *spec = at(list, 0, "spec");
	struct wg_node *ns = wg_map_ensure_map(a, spec, "nodeSelector");
	struct wg_node *tol = wg_map_ensure_seq(a, spec, "tolerations");

	set_str(a, ns, "kubernetes.io/os", "windows");
	wg_seq_append(a, tol, toleration(a, "os"));
}

static void add_os(struct wg_arena *a, struct wg_resources *list)
{
	set_str(a, wg_map_ensure_map(a, at(list, 0, "spec"), "nodeSelector"),
		"kubernetes.io/os", "windows");
}

START_TEST(block_map_and_compact_sequence)
{
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
	       "  containers:\n  - name: c\n    image: i\n",
	       schedule_windows,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
	       "  containers:\n  - name: c\n    image: i\n"
	       "  nodeSelector:\n    kubernetes.io/os: windows\n"
	       "  tolerations:\n  - key: os\n    effect: NoSchedule\n");
}
END_TEST

START_TEST(four_space_indent_and_indented_sequences)
{
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n    name: p\nspec:\n"
	       "    containers:\n        -   name: c\n            image: i\n",
	       schedule_windows,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n    name: p\nspec:\n"
	       "    containers:\n        -   name: c\n            image: i\n"
	       "    nodeSelector:\n        kubernetes.io/os: windows\n"
	       "    tolerations:\n        -   key: os\n"
	       "            effect: NoSchedule\n");
}
END_TEST

START_TEST(existing_node_selector_extended)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector:\n"
	       "    app: web   # keep\n  # about containers\n"
	       "  containers: []\n",
	       add_os,
	       "apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector:\n"
	       "    app: web   # keep\n    kubernetes.io/os: windows\n"
	       "  # about containers\n  containers: []\n");
}
END_TEST

static void selector_second(struct wg_arena *a, struct wg_resources *list)
{
	struct wg_node *ns = wg_node_new_map(a);

	set_str(a, ns, "kubernetes.io/os", "windows");
	wg_map_insert(a, at(list, 0, "spec"), 1, "nodeSelector", ns);
	wg_seq_append(a, at(list, 0, "spec.containers"),
		      wg_node_new_str(a, "x"));
}

START_TEST(comments_deeper_than_the_key_stay_with_the_value)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
	       "  - name: a\n    # image: old\n  # - name: b\n"
	       "  # about volumes\n  volumes: []\n",
	       selector_second,
	       "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
	       "  - name: a\n    # image: old\n  - x\n  nodeSelector:\n"
	       "    kubernetes.io/os: windows\n  # - name: b\n"
	       "  # about volumes\n  volumes: []\n");
}
END_TEST

START_TEST(flow_node_selector_extended)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n"
	       "  nodeSelector: {app: web}  # flow\n  containers: []\n",
	       add_os,
	       "apiVersion: v1\nkind: Pod\nspec:\n"
	       "  nodeSelector: {app: web, kubernetes.io/os: windows}  # flow\n"
	       "  containers: []\n");
	expect("apiVersion: v1\nkind: Pod\nspec:\n"
	       "  nodeSelector: { app: 'web' }\n",
	       add_os,
	       "apiVersion: v1\nkind: Pod\nspec:\n"
	       "  nodeSelector: { app: 'web', kubernetes.io/os: windows }\n");
}
END_TEST

START_TEST(multi_line_flow_refused_or_reformatted)
{
	static const char in[] =
		"# head\napiVersion: v1\nkind: Pod\nspec:\n"
		"  nodeSelector: {\n    app: web\n  }\n# tail\n";
	struct result r;

	expect_refusal(in, add_os, 5, "flow collection written over several "
		       "lines");
	r = run(in, add_os, true);
	ck_assert_int_eq(r.rc, 0);
	ck_assert_uint_eq(r.reformatted, 1);
	ck_assert_str_eq(r.text, "# head\napiVersion: v1\nkind: Pod\nspec:\n"
			 "  nodeSelector: {app: web, kubernetes.io/os: "
			 "windows}\n# tail\n");
	done(&r);
}
END_TEST

static void add_to_x(struct wg_arena *a, struct wg_resources *list)
{
	set_str(a, at(list, 0, "data.x"), "b", "2");
}

START_TEST(reformatted_document_ending_in_a_block_scalar)
{
	struct result r = run("apiVersion: v1\nkind: ConfigMap\ndata:\n"
			      "  x: {\n    a: 1 }\n  script: |\n    echo hi\n"
			      "---\napiVersion: v1\nkind: Pod\n",
			      add_to_x, true);

	ck_assert_int_eq(r.rc, 0);
	ck_assert_str_eq(r.text, "apiVersion: v1\nkind: ConfigMap\ndata:\n"
			 "  x: {a: 1, b: \"2\"}\n  script: |\n    echo hi\n"
			 "---\napiVersion: v1\nkind: Pod\n");
	done(&r);
}
END_TEST

START_TEST(crlf_line_ends)
{
	expect("apiVersion: v1\r\nkind: Pod\r\nspec:\r\n  containers:\r\n"
	       "  - name: c\r\n",
	       schedule_windows,
	       "apiVersion: v1\r\nkind: Pod\r\nspec:\r\n  containers:\r\n"
	       "  - name: c\r\n  nodeSelector:\r\n"
	       "    kubernetes.io/os: windows\r\n  tolerations:\r\n"
	       "  - key: os\r\n    effect: NoSchedule\r\n");
}
END_TEST

START_TEST(missing_final_newline_stays_missing)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  containers: []",
	       add_os,
	       "apiVersion: v1\nkind: Pod\nspec:\n  containers: []\n"
	       "  nodeSelector:\n    kubernetes.io/os: windows");
}
END_TEST

static void drop_privileged(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	ck_assert_ptr_nonnull(wg_map_delete(at(list, 0, "spec.securityContext"),
					    "privileged"));
}

static void drop_security_context(struct wg_arena *a,
				  struct wg_resources *list)
{
	(void)a;
	ck_assert_ptr_nonnull(wg_map_delete(at(list, 0, "spec"),
					    "securityContext"));
}

START_TEST(removed_key_keeps_comment_lines)
{
	static const char in[] =
		"apiVersion: v1\nkind: Pod\nspec:\n  securityContext:\n"
		"    # why privileged\n    privileged: true   # risky\n"
		"    runAsUser: 0\n  hostNetwork: true\n";

	expect(in, drop_privileged,
	       "apiVersion: v1\nkind: Pod\nspec:\n  securityContext:\n"
	       "    # why privileged\n    runAsUser: 0\n"
	       "  hostNetwork: true\n");
	expect(in, drop_security_context,
	       "apiVersion: v1\nkind: Pod\nspec:\n    # why privileged\n"
	       "  hostNetwork: true\n");
}
END_TEST

static void drop_two(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	wg_map_delete(at(list, 0, "spec.securityContext"), "seLinuxOptions");
	wg_map_delete(at(list, 0, "spec.securityContext"), "privileged");
}

START_TEST(removed_block_and_multi_line_values)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  securityContext:\n"
	       "    seLinuxOptions: |\n      level: s0\n\n    fsGroup: 1\n"
	       "    privileged: this is\n      long\n  x: {\n    a: 1 }\n",
	       drop_two,
	       "apiVersion: v1\nkind: Pod\nspec:\n  securityContext:\n"
	       "    fsGroup: 1\n  x: {\n    a: 1 }\n");
}
END_TEST

static void drop_first_key(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	wg_map_delete(at(list, 0, "spec.containers.[0]"), "securityContext");
}

START_TEST(removed_first_key_of_compact_item)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
	       "  - securityContext:\n      privileged: true\n    name: c\n"
	       "    image: i\n",
	       drop_first_key,
	       "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
	       "  - name: c\n    image: i\n");
	/* a comment line in between stays, so the key stays below it */
	expect("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
	       "  - securityContext: {}\n    # the name\n    name: c\n",
	       drop_first_key,
	       "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n"
	       "  -     # the name\n    name: c\n");
}
END_TEST

static void drop_second_item(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	wg_seq_delete_at(at(list, 0, "spec.tolerations"), 1);
}

static void insert_first_item(struct wg_arena *a, struct wg_resources *list)
{
	wg_seq_insert(a, at(list, 0, "spec.tolerations"), 0,
		      toleration(a, "os"));
}

START_TEST(sequence_items_removed_and_inserted)
{
	static const char in[] =
		"apiVersion: v1\nkind: Pod\nspec:\n  tolerations:\n"
		"  - key: a\n  # second\n  - key: b\n    value: x\n"
		"  - key: c\n";

	expect(in, drop_second_item,
	       "apiVersion: v1\nkind: Pod\nspec:\n  tolerations:\n"
	       "  - key: a\n  # second\n  - key: c\n");
	expect(in, insert_first_item,
	       "apiVersion: v1\nkind: Pod\nspec:\n  tolerations:\n"
	       "  - key: os\n    effect: NoSchedule\n  - key: a\n"
	       "  # second\n  - key: b\n    value: x\n  - key: c\n");
}
END_TEST

static void set_scalars(struct wg_arena *a, struct wg_resources *list)
{
	struct wg_node *spec = at(list, 0, "spec");

	set_str(a, spec, "runtimeClassName", "windows");
	set_str(a, spec, "schedulerName", "y");
	set_str(a, spec, "priorityClassName", "yes");
	set_str(a, spec, "hostname", "bar");
	wg_map_set(a, spec, "enableServiceLinks",
		   wg_node_new_plain(a, "false"));
}

START_TEST(scalar_replaced_keeping_quotes)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n"
	       "  runtimeClassName: 'old'\n  schedulerName: \"x\"\n"
	       "  priorityClassName: plain\n  hostname: foo # c\n"
	       "  enableServiceLinks: \"true\"\n",
	       set_scalars,
	       "apiVersion: v1\nkind: Pod\nspec:\n"
	       "  runtimeClassName: 'windows'\n  schedulerName: \"y\"\n"
	       "  priorityClassName: \"yes\"\n  hostname: bar # c\n"
	       "  enableServiceLinks: false\n");
}
END_TEST

START_TEST(null_value_becomes_a_block)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector:\n"
	       "  containers: []\n",
	       add_os,
	       "apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector:\n"
	       "    kubernetes.io/os: windows\n  containers: []\n");
	expect("apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector: ~ # none\n"
	       "  containers: []\n",
	       add_os,
	       "apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector: # none\n"
	       "    kubernetes.io/os: windows\n  containers: []\n");
}
END_TEST

START_TEST(empty_flow_sequence_extended)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  tolerations: []\n",
	       schedule_windows,
	       "apiVersion: v1\nkind: Pod\nspec:\n"
	       "  tolerations: [{key: os, effect: NoSchedule}]\n"
	       "  nodeSelector:\n    kubernetes.io/os: windows\n");
}
END_TEST

static void label(struct wg_arena *a, struct wg_resources *list)
{
	set_str(a, at(list, 0, "metadata.labels"), "os", "windows");
}

START_TEST(anchors_and_aliases_refused)
{
	expect_refusal("apiVersion: v1\nkind: Pod\nmetadata:\n"
		       "  labels: &l\n    app: a\n  annotations: *l\n",
		       label, 4, "anchor");
	expect_refusal("apiVersion: v1\nkind: Pod\nx: &l\n  app: a\n"
		       "metadata:\n  labels: *l\n",
		       label, 6, "alias");
}
END_TEST

static void set_description(struct wg_arena *a, struct wg_resources *list)
{
	set_str(a, at(list, 0, "metadata.annotations"), "description", "x");
}

START_TEST(multi_line_plain_scalar_refused)
{
	expect_refusal("apiVersion: v1\nkind: Pod\nmetadata:\n"
		       "  annotations:\n    description: this is\n"
		       "      long\n",
		       set_description, 5, "multi-line plain scalar");
	/* a multi-line quoted one is replaced whole */
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n"
	       "    description: \"this is\n      long\"  # c\n",
	       set_description,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  annotations:\n"
	       "    description: \"x\"  # c\n");
}
END_TEST

START_TEST(list_item_edited)
{
	expect("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n"
	       "  kind: Pod\n  spec:\n    containers: []\n",
	       add_os,
	       "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n"
	       "  kind: Pod\n  spec:\n    containers: []\n"
	       "    nodeSelector:\n      kubernetes.io/os: windows\n");
}
END_TEST

static void os_first(struct wg_arena *a, struct wg_resources *list)
{
	struct wg_node *os = wg_node_new_map(a);

	set_str(a, os, "name", "windows");
	wg_map_insert(a, at(list, 0, "spec"), 0, "os", os);
	set_str(a, at(list, 0, "spec.containers.[0]"), "name", "d");
	wg_map_insert(a, at(list, 0, "spec.containers.[0]"), 0, "os",
		      wg_node_new_str(a, "w"));
}

START_TEST(key_inserted_before_the_first)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  # the containers\n"
	       "  containers:\n  - name: c\n",
	       os_first,
	       "apiVersion: v1\nkind: Pod\nspec:\n  # the containers\n"
	       "  os:\n    name: windows\n  containers:\n  - os: w\n"
	       "    name: d\n");
}
END_TEST

static void empty_selector(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	wg_map_delete(at(list, 0, "spec.nodeSelector"),
		      "beta.kubernetes.io/os");
	wg_seq_delete_at(at(list, 0, "spec.tolerations"), 0);
}

START_TEST(emptied_collections_become_flow)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector:\n"
	       "    beta.kubernetes.io/os: linux  # old\n  tolerations:\n"
	       "  - key: a\n",
	       empty_selector,
	       "apiVersion: v1\nkind: Pod\nspec:\n  nodeSelector: {}\n"
	       "  tolerations: []\n");
}
END_TEST

static void both_docs(struct wg_arena *a, struct wg_resources *list)
{
	for (size_t i = 0; i < list->len; i++)
		set_str(a, wg_map_ensure_map(a, at(list, i, "spec"), "os"),
			"name", "windows");
}

START_TEST(multi_document_with_comments)
{
	expect("# head\napiVersion: v1\nkind: Pod\nspec:\n  containers: []\n"
	       "\n# trailing comment of the first\n--- # second\n# about b\n"
	       "apiVersion: v1\nkind: Pod\nspec:\n  containers: []\n...\n"
	       "---\n# empty\n",
	       both_docs,
	       "# head\napiVersion: v1\nkind: Pod\nspec:\n  containers: []\n"
	       "  os:\n    name: windows\n"
	       "\n# trailing comment of the first\n--- # second\n# about b\n"
	       "apiVersion: v1\nkind: Pod\nspec:\n  containers: []\n"
	       "  os:\n    name: windows\n...\n---\n# empty\n");
}
END_TEST

static void relabel(struct wg_arena *a, struct wg_resources *list)
{
	set_str(a, at(list, 0, "metadata.labels"), "app", "ok");
	set_str(a, at(list, 0, "metadata.labels"), "tier", "wé");
}

START_TEST(utf8_columns)
{
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n  name: café  # ü\n"
	       "  labels: {ä: 1}\n  annotations:\n    x: y\n",
	       relabel,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: café  # ü\n"
	       "  labels: {ä: 1, app: ok, tier: wé}\n  annotations:\n"
	       "    x: y\n");
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n"
	       "    app: \"ünï\" # ß\n",
	       relabel,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n"
	       "    app: \"ok\" # ß\n    tier: wé\n");
}
END_TEST

static void change_kinds(struct wg_arena *a, struct wg_resources *list)
{
	struct wg_node *spec = at(list, 0, "spec");
	struct wg_node *args = wg_node_new_seq(a);

	wg_seq_append(a, args, wg_node_new_str(a, "a"));
	wg_seq_append(a, args, wg_node_new_str(a, "b"));
	wg_map_set(a, spec, "args", args);
	set_str(a, spec, "securityContext", "x");
}

START_TEST(value_changes_kind)
{
	expect("apiVersion: v1\nkind: Pod\nspec:\n  args: foo  # c\n"
	       "  securityContext:\n    a: 1\n    # inner\n    b: 2\n"
	       "  last: z\n",
	       change_kinds,
	       "apiVersion: v1\nkind: Pod\nspec:\n  args:  # c\n  - a\n"
	       "  - b\n  securityContext: x\n    # inner\n  last: z\n");
}
END_TEST

START_TEST(one_line_flow_object)
{
	expect("--- {apiVersion: v1, kind: Pod, spec: {}}  # json-ish\n",
	       add_os,
	       "--- {apiVersion: v1, kind: Pod, spec: {nodeSelector: "
	       "{kubernetes.io/os: windows}}}  # json-ish\n");
	expect_refusal("{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
		       " \"spec\": {}}\n", add_os, 1, "several lines");
}
END_TEST

static void drop_nested(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	wg_seq_delete_at(at(list, 0, "spec.matrix.[0]"), 0);
}

START_TEST(item_sharing_a_line_refused)
{
	expect_refusal("apiVersion: v1\nkind: Pod\nspec:\n  matrix:\n"
		       "  - - a\n    - b\n",
		       drop_nested, 5, "shares its line");
}
END_TEST

static void nothing(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	(void)list;
}

START_TEST(unchanged_file_is_byte_identical)
{
	struct result r = run("# c\napiVersion: v1\nkind: Pod\n"
			      "spec: {a: 1}\n...\n", nothing, false);

	ck_assert_int_eq(r.rc, 0);
	ck_assert(!r.changed);
	ck_assert_uint_eq(r.objects, 0);
	ck_assert_str_eq(r.text, "# c\napiVersion: v1\nkind: Pod\n"
			 "spec: {a: 1}\n...\n");
	done(&r);
}
END_TEST

/* What fan-out does: a copy of the object, right after it. */
static void add_copy(struct wg_arena *a, struct wg_resources *list)
{
	struct wg_resource *src = list->items[0];
	struct wg_node *copy = wg_node_clone(a, src->root);

	set_str(a, wg_path_get(copy, "metadata"), "name", "copy");
	wg_resources_insert(list, 1, wg_resource_new(list, copy, src->file,
						     src->index));
}

START_TEST(added_objects_become_documents)
{
	expect("apiVersion: v1\nkind: Pod\nmetadata:\n  name: a  # first\n"
	       "# after a\n---\napiVersion: v1\nkind: Service\n",
	       add_copy,
	       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a  # first\n"
	       "# after a\n---\napiVersion: v1\nkind: Pod\nmetadata:\n"
	       "  name: copy\n---\napiVersion: v1\nkind: Service\n");
	expect("apiVersion: v1\r\nkind: Pod\r\nmetadata: {name: a}",
	       add_copy,
	       "apiVersion: v1\r\nkind: Pod\r\nmetadata: {name: a}\r\n"
	       "---\r\napiVersion: v1\r\nkind: Pod\r\n"
	       "metadata: {name: copy}");
	expect_refusal("apiVersion: v1\nkind: List\nitems:\n"
		       "- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n",
		       add_copy, 4, "item of a List");
}
END_TEST

static void remove_object(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	list->items[0]->flags |= WG_RES_DELETED;
}

static void remove_second(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	list->items[1]->flags |= WG_RES_DELETED;
}

/* A dropped object (retarget's RuntimeClass of a retired build) takes its
 * document with it, from its "---" to the next, comments inside it too;
 * a comment before the "---" is the previous document's and stays.  An
 * item of a List is not deleted as text. */
START_TEST(removed_object_is_deleted_as_text)
{
	expect("apiVersion: v1\nkind: Pod\n---\napiVersion: v1\n"
	       "kind: Service\n", remove_object,
	       "---\napiVersion: v1\nkind: Service\n");
	expect("apiVersion: v1\nkind: Pod # keep\n# after the pod\n---\n"
	       "# about the service\napiVersion: v1\nkind: Service\n",
	       remove_second,
	       "apiVersion: v1\nkind: Pod # keep\n# after the pod\n");
	expect_refusal("apiVersion: v1\nkind: List\nitems:\n"
		       "- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n"
		       "- apiVersion: v1\n  kind: Pod\n  metadata: {name: b}\n",
		       remove_object, 4, "item of a List");
}
END_TEST

START_TEST(templates_are_recognised_by_the_scanner)
{
	static const char *const yes[] = {
		"metadata:\n  name: {{ .Release.Name }}\n",
		"{{- if .Values.enabled }}\napiVersion: v1\n{{- end }}\n",
		"image: repo/app:{{ .Values.tag }}\n",
		NULL,
	};
	static const char *const no[] = {
		"a: '{{ not a template }}'\n",
		"a: \"{{x}}\"\n",
		"a: |\n  {{ in a block }}\n",
		"# {{ in a comment }}\na: b\n",
		"a: {b: {c: d}}\n",
		NULL,
	};

	for (size_t i = 0; yes[i]; i++)
		ck_assert_msg(wg_migrate_is_template(yes[i], strlen(yes[i])),
			      "%s", yes[i]);
	for (size_t i = 0; no[i]; i++)
		ck_assert_msg(!wg_migrate_is_template(no[i], strlen(no[i])),
			      "%s", no[i]);
}
END_TEST

START_TEST(skips_templates_and_non_objects)
{
	static const char *const texts[] = {
		"a: {{ .Values.x }}\n", "replicaCount: 1\n", "", NULL,
	};

	for (size_t i = 0; texts[i]; i++) {
		struct wg_migrate_file f;
		struct wg_resources list;
		struct wg_input in;
		struct wg_ctx ctx;

		wg_ctx_init(&ctx);
		wg_resources_init(&list);
		t_input(&in, "x.yaml", texts[i]);
		ck_assert_int_eq(wg_migrate_load_input(&ctx, &f, &in, &list),
				 0);
		ck_assert_ptr_nonnull(f.skip);
		ck_assert_uint_eq(list.len, 0);
		ck_assert_str_eq(f.skip, i == 0 ? "a Helm template (template "
				 "actions, and it does not read as YAML)"
				 : "no Kubernetes objects (apiVersion and "
				   "kind)");
		wg_migrate_file_release(&f);
		wg_resources_release(&list);
		wg_ctx_release(&ctx);
	}
}
END_TEST

/* "{{" in a plain scalar of valid YAML (a PrometheusRule description) is
 * no reason to skip the file: the Deployment beside it is migrated. */
START_TEST(yaml_with_braces_in_plain_scalars_is_migrated)
{
	static const char text[] =
		"apiVersion: monitoring.coreos.com/v1\n"
		"kind: PrometheusRule\n"
		"metadata: {name: r}\n"
		"spec:\n"
		"  groups:\n"
		"  - rules:\n"
		"    - annotations:\n"
		"        description: Pod {{ $labels.pod }} is down\n"
		"---\n"
		"apiVersion: apps/v1\n"
		"kind: Deployment\n"
		"metadata: {name: w}\n";
	struct wg_migrate_file f;
	struct wg_resources list;
	struct wg_input in;
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	t_input(&in, "x.yaml", text);
	ck_assert(wg_migrate_is_template(text, strlen(text)));
	ck_assert_int_eq(wg_migrate_load_input(&ctx, &f, &in, &list), 0);
	ck_assert_ptr_null(f.skip);
	ck_assert_uint_eq(list.len, 2);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	wg_migrate_file_release(&f);
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
}
END_TEST

/* A skipped template that names a workload kind says which, and where. */
START_TEST(skipped_text_names_its_workload)
{
	static const struct {
		const char *text;
		const char *kind;
		unsigned line;
	} cases[] = {
		{ "apiVersion: v1\nkind: ConfigMap\n---\nkind: Deployment\n",
		  "Deployment", 4 },
		{ "{\"kind\": \"CronJob\", \"apiVersion\": \"batch/v1\"}\n",
		  "CronJob", 1 },
		{ "- kind: 'Pod'\n", "Pod", 1 },
		{ "kind: PodDisruptionBudget\nkind: Podx\n", NULL, 0 },
		{ "mykind: Deployment\n", NULL, 0 },
		{ "kind: ConfigMap # Deployment\n", NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned line = 99;
		const char *k = wg_migrate_text_workload(
			cases[i].text, strlen(cases[i].text), &line);

		if (cases[i].kind)
			ck_assert_str_eq(k, cases[i].kind);
		else
			ck_assert_ptr_null(k);
		ck_assert_uint_eq(line, cases[i].line);
	}
}
END_TEST

/* ---- random edits over the corpus ------------------------------------ */

static unsigned long seed;

static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)((seed >> 33) % n);
}

struct picks {
	struct wg_node *nodes[4096];
	size_t n;
};

static int pick(struct wg_node *n, struct wg_node *key, const char *path,
		void *payload)
{
	struct picks *p = payload;

	(void)key;
	(void)path;
	if (p->n < 4096 && n->kind != WG_NODE_SCALAR)
		p->nodes[p->n++] = n;
	return 0;
}

/* A few edits of the kinds transforms make, at random collections. */
static void random_edits(struct wg_arena *a, struct wg_node *root)
{
	static struct picks p;
	char key[16];

	p.n = 0;
	wg_node_walk(root, pick, &p);
	for (int e = 0; e < 3 && p.n; e++) {
		struct wg_node *c = p.nodes[rnd((unsigned)p.n)];
		unsigned op = rnd(4), len = c->len;
		struct wg_node *m = wg_node_new_map(a);

		set_str(a, m, "name", "n");
		wg_map_set(a, m, "v", wg_node_new_plain(a, "3"));
		snprintf(key, sizeof(key), "k%u", rnd(1000));
		if (c->kind == WG_NODE_MAP && op == 0 && len)
			wg_map_delete_at(c, rnd(len));
		else if (c->kind == WG_NODE_MAP && op == 1
			 && wg_map_find(c, key) < 0)
			wg_map_insert(a, c, rnd(len + 1), key, m);
		else if (c->kind == WG_NODE_MAP && op == 2 && len
			 && wg_is_scalar(wg_map_value(c, len - 1)))
			wg_map_replace_at(c, len - 1, wg_node_new_str(a, "v 1"));
		else if (c->kind == WG_NODE_SEQ && op == 0 && len)
			wg_seq_delete_at(c, rnd(len));
		else if (c->kind == WG_NODE_SEQ)
			wg_seq_insert(a, c, rnd(len + 1),
				      op == 1 ? m : wg_node_new_str(a, "10.0"));
	}
}

static unsigned long corpus_file;

static void edit_corpus(struct wg_arena *a, struct wg_resources *list)
{
	seed = corpus_file;
	for (size_t i = 0; i < list->len; i++)
		random_edits(a, list->items[i]->root);
}

/*
 * Every edit either comes out right (wg_migrate_finish() reads each edited
 * document back and compares) or is refused for a reason of the layout,
 * never because the engine lost its way.
 */
START_TEST(random_edits_over_the_corpus)
{
	static const char *const layout[] = {
		"block scalar", "multi-line plain scalar", "anchor", "alias",
		"merge", "several lines", "whole object", "shares its line",
		NULL,
	};
	char cmd[512];
	size_t ok = 0, refused = 0;
	FILE *ls;
	char path[1024];

	snprintf(cmd, sizeof(cmd), "ls '%s'/*.yaml '%s'/*.yml 2>/dev/null",
		 WG_CORPUS, WG_CORPUS);
	ls = popen(cmd, "r");
	ck_assert_ptr_nonnull(ls);
	while (fgets(path, sizeof(path), ls)) {
		struct wg_migrate_opts opts = { .reformat_fallback = false };
		struct wg_migrate_file f;
		struct wg_resources list;
		struct wg_ctx ctx;
		bool known = false;
		int rc;

		path[strcspn(path, "\n")] = '\0';
		corpus_file = ok + refused + 1;
		wg_ctx_init(&ctx);
		wg_resources_init(&list);
		if (wg_migrate_load(&ctx, &f, path, &list) == 0 && !f.skip) {
			/* held to the end of a run: in its arena, not in
			 * pieces of the heap (wg_input_read_in) */
			ck_assert_msg(f.in.borrowed, "%s", path);
			wg_migrate_edits_begin(&list);
			edit_corpus(&list.arena, &list);
			wg_migrate_edits_end(&list);
			rc = wg_migrate_finish(&ctx, &f, &list, &opts);
			for (size_t i = 0; rc && layout[i]; i++)
				known = known || strstr(t_first_message(&ctx),
							layout[i]);
			ck_assert_msg(rc == 0 || known, "%s: %s", path,
				      t_first_message(&ctx));
			if (rc)
				refused++;
			else
				ok++;
		}
		wg_migrate_file_release(&f);
		wg_resources_release(&list);
		wg_ctx_release(&ctx);
	}
	pclose(ls);
	/* the corpus may be absent; when present most files must pass */
	ck_assert_msg(ok + refused == 0 || ok >= 4 * refused,
		      "%zu edited, %zu refused", ok, refused);
}
END_TEST

static Suite *migrate_suite(void)
{
	Suite *s = suite_create("migrate");
	TCase *tc = tcase_create("edits");

	tcase_add_test(tc, block_map_and_compact_sequence);
	tcase_add_test(tc, four_space_indent_and_indented_sequences);
	tcase_add_test(tc, existing_node_selector_extended);
	tcase_add_test(tc, comments_deeper_than_the_key_stay_with_the_value);
	tcase_add_test(tc, flow_node_selector_extended);
	tcase_add_test(tc, multi_line_flow_refused_or_reformatted);
	tcase_add_test(tc, reformatted_document_ending_in_a_block_scalar);
	tcase_add_test(tc, crlf_line_ends);
	tcase_add_test(tc, missing_final_newline_stays_missing);
	tcase_add_test(tc, removed_key_keeps_comment_lines);
	tcase_add_test(tc, removed_first_key_of_compact_item);
	tcase_add_test(tc, removed_block_and_multi_line_values);
	tcase_add_test(tc, sequence_items_removed_and_inserted);
	tcase_add_test(tc, scalar_replaced_keeping_quotes);
	tcase_add_test(tc, null_value_becomes_a_block);
	tcase_add_test(tc, empty_flow_sequence_extended);
	tcase_add_test(tc, anchors_and_aliases_refused);
	tcase_add_test(tc, multi_line_plain_scalar_refused);
	tcase_add_test(tc, list_item_edited);
	tcase_add_test(tc, key_inserted_before_the_first);
	tcase_add_test(tc, emptied_collections_become_flow);
	tcase_add_test(tc, multi_document_with_comments);
	tcase_add_test(tc, utf8_columns);
	tcase_add_test(tc, value_changes_kind);
	tcase_add_test(tc, item_sharing_a_line_refused);
	tcase_add_test(tc, one_line_flow_object);
	tcase_add_test(tc, unchanged_file_is_byte_identical);
	tcase_add_test(tc, removed_object_is_deleted_as_text);
	tcase_add_test(tc, added_objects_become_documents);
	tcase_add_test(tc, templates_are_recognised_by_the_scanner);
	tcase_add_test(tc, skips_templates_and_non_objects);
	tcase_add_test(tc, yaml_with_braces_in_plain_scalars_is_migrated);
	tcase_add_test(tc, skipped_text_names_its_workload);
	suite_add_tcase(s, tc);
	tc = tcase_create("corpus");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, random_edits_over_the_corpus);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(migrate_suite)

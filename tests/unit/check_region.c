/*
 * The read-back of an edited document by its edited runs of pairs
 * (wg_readback_regions): whenever it says "the same", reading the whole
 * edited document back must say so too.  Crafted edits cover what it must
 * accept (so the fast path is used at all) and what it must leave to the
 * whole read-back: edits whose text reads differently in the document
 * than alone, and tree changes no edit made.  Then every workload of the
 * corpus is edited as the transforms edit them, with both read-backs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/k8s/podspec.h"
#include "wingen/migrate/migrate.h"

/* One edit: replace del bytes at the first occurrence of at (plus skip
 * bytes) by text. */
struct edit {
	const char *at;
	size_t skip, del;
	const char *text;
};

struct outcome {
	bool regions;	/* wg_readback_regions said "the same" */
	bool whole;	/* the whole document read back as intended */
	size_t read;	/* bytes the regions read back */
};

/*
 * orig edited by edits, held against the tree of intended (what the
 * chain would have made): both read-backs' answers.
 */
static struct outcome try_edits(const char *orig, const struct edit *edits,
				size_t n, const char *intended)
{
	struct wg_pos_index ix;
	struct wg_edits ed = { NULL, 0, 0 };
	struct wg_buf out = WG_BUF_INIT;
	struct wg_resources before, after;
	struct wg_input in1, in2;
	struct wg_ctx ctx;
	struct wg_limits lim;
	const char *err;
	size_t err_line;
	struct outcome o;
	const struct wg_node *want;

	wg_ctx_init(&ctx);
	wg_limits_default(&lim);
	wg_resources_init(&before);
	wg_resources_init(&after);
	ck_assert_int_eq(t_read(&ctx, &in1, orig, &before), 0);
	ck_assert_int_eq(t_read(&ctx, &in2, intended, &after), 0);
	ck_assert_uint_eq(before.len, 1);
	ck_assert_uint_eq(after.len, 1);
	ck_assert_int_eq(wg_pos_index_build(&ix, orig, strlen(orig), &err,
					    &err_line), 0);
	for (size_t i = 0; i < n; i++) {
		const char *p = strstr(orig, edits[i].at);

		ck_assert_msg(p != NULL, "no '%s'", edits[i].at);
		p += edits[i].skip;
		wg_edits_add(&ed, (size_t)(p - orig),
			     (size_t)(p - orig) + edits[i].del, edits[i].text,
			     edits[i].text ? strlen(edits[i].text) : 0);
	}
	ck_assert_int_eq(wg_edits_apply(&ed, orig, strlen(orig), &out), 0);
	o.regions = wg_readback_regions(&ix, ix.docs[0].root, 0, strlen(orig),
					before.items[0]->root,
					after.items[0]->root, &ed, out.buf,
					out.len, &lim, &o.read);
	want = after.items[0]->root;
	o.whole = wg_migrate_reads_back(&lim, "t.yaml", out.buf, out.len,
					&want, 1);
	/* the one rule: never "the same" where the whole text is not */
	ck_assert_msg(!o.regions || o.whole,
		      "regions accepted a text that does not read back:\n%s",
		      out.buf);
	wg_edits_release(&ed);
	wg_buf_release(&out);
	wg_pos_index_release(&ix);
	wg_resources_release(&before);
	wg_resources_release(&after);
	wg_input_release(&in1);
	wg_input_release(&in2);
	wg_ctx_release(&ctx);
	return o;
}

static const char deployment[] =
	"apiVersion: apps/v1\n"
	"kind: Deployment\n"
	"metadata:\n"
	"  name: web   # the front end\n"
	"  labels:\n"
	"    app: web\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      containers:\n"
	"      - name: web\n"
	"        image: nginx\n"
	"        securityContext:\n"
	"          runAsUser: 1000\n"
	"          privileged: false\n"
	"      # volumes next\n"
	"      volumes:\n"
	"      - name: data\n"
	"        emptyDir: {}\n"
	"\n"
	"---\n";

/*
 * The tree the chain would make of deployment, in flow style: its name,
 * its app label, the container's securityContext and what the pod spec
 * ends with.  malloc'd.
 */
static char *deployment_tree(const char *name, const char *app,
			     const char *security, const char *last)
{
	size_t cap = 1024;
	char *t = wg_xmalloc(cap);
	int n = snprintf(t, cap,
			 "apiVersion: apps/v1\nkind: Deployment\n"
			 "metadata: {name: %s, labels: {app: %s}}\n"
			 "spec:\n  template:\n    spec:\n"
			 "      containers: [{name: web, image: nginx,"
			 " securityContext: {%s}}]\n"
			 "      volumes: [{name: data, emptyDir: {}}]\n"
			 "%s", name, app, security, last);

	ck_assert(n > 0 && (size_t)n < cap);
	return t;
}

static const char pinned[] = "      nodeSelector: {kubernetes.io/os: linux}\n";
static const char unchanged_security[] = "runAsUser: 1000, privileged: false";

/* nodeSelector at the end of the pod spec, after its last pair (a
 * compact sequence): only the new pair is read back */
START_TEST(pin_at_the_end_of_the_pod_spec)
{
	struct edit e[] = { { "---", 0, 0,
			      "      nodeSelector:\n"
			      "        kubernetes.io/os: linux\n" } };
	char *intended = deployment_tree("web", "web", unchanged_security,
					 pinned);
	struct outcome o = try_edits(deployment, e, 1, intended);

	free(intended);
	ck_assert(o.regions);
	ck_assert(o.whole);
	ck_assert_uint_eq(o.read, strlen(e[0].text));
}
END_TEST

/* New pairs in two mappings, and two insertions at one place of one
 * mapping: each place's new pairs are read back alone, and nothing
 * else. */
START_TEST(new_pairs_in_two_mappings)
{
	struct edit e[] = {
		{ "spec:\n  template", 0, 0, "    tier: web\n" },
		{ "---", 0, 0, "      nodeSelector:\n"
			       "        kubernetes.io/os: linux\n" },
		{ "---", 0, 0, "      hostname: web\n" },
	};
	/* the label goes in through the app's flow mapping */
	char *intended = deployment_tree("web", "web, tier: web",
					 unchanged_security,
					 "      nodeSelector: "
					 "{kubernetes.io/os: linux}\n"
					 "      hostname: web\n");
	struct outcome o = try_edits(deployment, e, 3, intended);

	free(intended);
	ck_assert(o.regions);
	ck_assert(o.whole);
	ck_assert_uint_eq(o.read, strlen(e[0].text) + strlen(e[1].text)
				  + strlen(e[2].text));
}
END_TEST

/* New pairs at one place in two mappings (the pod spec's and the
 * Deployment spec's end): not read alone (one run would read both). */
START_TEST(new_pairs_at_one_place_in_two_mappings)
{
	struct edit e[] = {
		{ "---", 0, 0, "      nodeSelector:\n"
			       "        kubernetes.io/os: linux\n" },
		{ "---", 0, 0, "  replicas: 2\n" },
	};
	char *intended = deployment_tree("web", "web", unchanged_security,
					 "      nodeSelector: "
					 "{kubernetes.io/os: linux}\n"
					 "  replicas: 2\n");
	struct outcome o = try_edits(deployment, e, 2, intended);

	free(intended);
	ck_assert(o.whole);
	ck_assert(!o.regions
		  || o.read > strlen(e[0].text) + strlen(e[1].text));
}
END_TEST

/* A new pair whose last line falls back to the template's column: alone
 * that is no mapping, and in the document it is a key of the template */
START_TEST(new_pairs_that_leave_their_column)
{
	struct edit e[] = { { "---", 0, 0, "      nodeSelector: {}\n"
					    "    hostname: web\n" } };
	char *intended = deployment_tree("web", "web", unchanged_security,
					 "      nodeSelector: {}\n"
					 "      hostname: web\n");
	struct outcome o = try_edits(deployment, e, 1, intended);

	free(intended);
	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* a key removed from a container's mapping, an item of a sequence, and
 * a scalar replaced inside a line */
START_TEST(removal_in_a_container_and_a_replaced_scalar)
{
	struct edit e[] = {
		{ "          runAsUser", 0, strlen("          runAsUser: 1000\n"),
		  NULL },
		{ "app: web", 5, 3, "api" },
	};
	char *intended = deployment_tree("web", "api", "privileged: false", "");
	struct outcome o = try_edits(deployment, e, 2, intended);

	free(intended);
	ck_assert(o.regions);
	ck_assert(o.whole);
}
END_TEST

static const char pod[] =
	"kind: Pod\n"
	"metadata:\n  name: p\n"
	"spec:\n"
	"  containers:\n"
	"  - name: c\n"
	"    image: nginx\n"
	"  hostname: a\n"
	"  dnsPolicy: Default\n"
	"  restartPolicy: Always\n";

/* Edits in two places of one mapping, a pair removed in the middle and a
 * pair added at its end: two runs of the pod spec, each read alone, and
 * the pair between them compared as trees. */
START_TEST(two_runs_in_one_mapping)
{
	struct edit e[] = {
		{ "  hostname", 0, strlen("  hostname: a\n"), NULL },
		{ "Always\n", 7, 0,
		  "  nodeSelector:\n    kubernetes.io/os: linux\n" },
	};
	const char *intended =
		"kind: Pod\nmetadata: {name: p}\n"
		"spec: {containers: [{name: c, image: nginx}],"
		" dnsPolicy: Default, restartPolicy: Always,"
		" nodeSelector: {kubernetes.io/os: linux}}\n";
	struct outcome o = try_edits(pod, e, 2, intended);

	ck_assert(o.regions);
	ck_assert(o.whole);
	/* a removal too: the runs hold their pairs, not the new ones alone */
	ck_assert_uint_gt(o.read, strlen(e[1].text));
}
END_TEST

/* A value on a sequence item's dash line: no run inside the item can
 * start there, so the run is the sequence's pair. */
START_TEST(edit_on_a_dash_line)
{
	struct edit e[] = { { "name: c", 6, 1, "d" } };
	const char *intended =
		"kind: Pod\nmetadata: {name: p}\n"
		"spec: {containers: [{name: d, image: nginx}], hostname: a,"
		" dnsPolicy: Default, restartPolicy: Always}\n";
	struct outcome o = try_edits(pod, e, 1, intended);

	ck_assert(o.regions);
	ck_assert(o.whole);
}
END_TEST

/* inserted at the pod template's column: it lands in the template, not
 * the pod spec the chain changed */
START_TEST(insertion_at_the_wrong_column)
{
	struct edit e[] = { { "---", 0, 0,
			      "    nodeSelector:\n"
			      "      kubernetes.io/os: linux\n" } };
	char *intended = deployment_tree("web", "web", unchanged_security,
					 pinned);
	struct outcome o = try_edits(deployment, e, 1, intended);

	free(intended);
	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* the chain changed a field no edit wrote: only the trees show it */
START_TEST(tree_change_without_an_edit)
{
	struct edit e[] = { { "---", 0, 0,
			      "      nodeSelector:\n"
			      "        kubernetes.io/os: linux\n" } };
	char *intended = deployment_tree("web-2", "web", unchanged_security,
					 pinned);
	struct outcome o = try_edits(deployment, e, 1, intended);

	free(intended);
	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* "..." ends the document where it stands: alone the run reads the
 * same, in the document the rest becomes another document */
START_TEST(document_end_marker_in_a_run)
{
	static const char orig[] =
		"kind: ConfigMap\n"
		"metadata:\n  name: a\n"
		"data:\n  x: \"1\"\n"
		"apiVersion: v1\n";
	struct edit e[] = { { "apiVersion", 0, 0, "  y: \"2\"\n...\n" } };
	const char *intended =
		"kind: ConfigMap\nmetadata: {name: a}\n"
		"data: {x: \"1\", y: \"2\"}\napiVersion: v1\n";
	struct outcome o = try_edits(orig, e, 1, intended);

	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* A kept block scalar ("|+") and the blank line that belongs to it. */
static const char kept_scalar[] =
	"kind: ConfigMap\n"
	"data:\n"
	"  a: |+\n"
	"    x\n"
	"\n"
	"  b: y\n";

/* a kept block scalar takes the blank lines after it: a pair inserted
 * before them takes them away */
START_TEST(kept_block_scalar_and_blank_lines)
{
	struct edit e[] = { { "    x\n", 6, 0, "  c: z\n" } };
	const char *intended =
		"kind: ConfigMap\ndata: {a: \"x\\n\\n\", c: z, b: y}\n";
	struct outcome o = try_edits(kept_scalar, e, 1, intended);

	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* the same insertion after the blank lines is right, and accepted */
START_TEST(kept_block_scalar_insertion_after_it)
{
	struct edit e[] = { { "  b: y", 0, 0, "  c: z\n" } };
	const char *intended =
		"kind: ConfigMap\ndata: {a: \"x\\n\\n\", c: z, b: y}\n";
	struct outcome o = try_edits(kept_scalar, e, 1, intended);

	ck_assert(o.regions);
	ck_assert(o.whole);
	ck_assert_uint_eq(o.read, strlen(e[0].text));	/* alone */
}
END_TEST

/* the run's text takes the blank lines after its last value: a kept
 * block scalar reads them in the document, and so it must alone */
START_TEST(kept_block_scalar_value_replaced)
{
	struct edit e[] = { { "    x\n", 4, 1, "z" } };
	const char *intended = "kind: ConfigMap\ndata: {a: \"z\\n\", b: y}\n";
	struct outcome o = try_edits(kept_scalar, e, 1, intended);

	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* a quote left open swallows what follows in the document */
START_TEST(open_quote)
{
	struct edit e[] = { { "---", 0, 0, "      hostname: \"web\n" } };
	char *intended = deployment_tree("web", "web", unchanged_security,
					 "      hostname: web\n");
	struct outcome o = try_edits(deployment, e, 1, intended);

	free(intended);
	ck_assert(!o.regions);
	ck_assert(!o.whole);
}
END_TEST

/* lone CR line breaks: not followed, read whole */
START_TEST(lone_cr_breaks_read_whole)
{
	static const char orig[] =
		"kind: ConfigMap\rdata:\r  a: b\r";
	struct edit e[] = { { "  a: b\r", 7, 0, "  c: d\r" } };
	const char *intended = "kind: ConfigMap\ndata: {a: b, c: d}\n";
	struct outcome o = try_edits(orig, e, 1, intended);

	ck_assert(!o.regions);
	ck_assert(o.whole);
}
END_TEST

/* ---- the corpus, edited as the transforms edit it --------------------- */

struct tally {
	size_t files, read, wrong, edited;
};

/* What Linux pinning and windows-security do to every pod spec: a
 * nodeSelector added, runAsUser and seccompProfile removed from each
 * container, and the pod's hostname replaced when it has one. */
static void edit_workloads(struct wg_resources *list)
{
	struct wg_arena *a = &list->arena;

	for (size_t i = 0; i < list->len; i++) {
		struct wg_podspec *ps;
		size_t n = wg_podspec_find_all(a, NULL, list->items[i], &ps);

		for (size_t k = 0; k < n; k++) {
			struct wg_container_iter it;
			struct wg_container c;
			struct wg_node *ns = wg_map_ensure_map(a, ps[k].spec,
							       "nodeSelector");

			wg_map_set(a, ns, "kubernetes.io/os",
				   wg_node_new_str(a, "linux"));
			if (wg_map_get(ps[k].spec, "hostname"))
				wg_map_set(a, ps[k].spec, "hostname",
					   wg_node_new_str(a, "renamed"));
			wg_container_iter_init(&it, ps[k].spec);
			while (wg_container_next(&it, &c)) {
				struct wg_node *sc = wg_map_get(c.node,
								"securityContext");

				if (wg_is_map(sc)) {
					wg_map_delete(sc, "runAsUser");
					wg_map_delete(sc, "seccompProfile");
				}
			}
		}
	}
}

static void corpus_file(const char *path, const struct wg_input *src,
			void *data)
{
	struct tally *t = data;
	struct wg_migrate_opts opts = { .check_regions = true };
	struct wg_migrate_file f;
	struct wg_resources list;
	struct wg_input in;
	struct wg_ctx ctx;

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	in.name = wg_xstrdup(path);
	in.data = wg_xstrndup(src->data, src->len);
	in.len = src->len;
	in.mapped = 0;
	in.borrowed = false;
	if (wg_migrate_load_input(&ctx, &f, &in, &list) == 0 && !f.skip) {
		wg_migrate_edits_begin(&list);
		edit_workloads(&list);
		wg_migrate_edits_end(&list);
		wg_migrate_finish(&ctx, &f, &list, &opts);
		t->files++;
		t->read += f.regions_read;
		t->edited += f.objects_changed;
		ck_assert_msg(f.regions_wrong == 0,
			      "%s: %zu documents accepted by their runs "
			      "do not read back whole", path, f.regions_wrong);
		t->wrong += f.regions_wrong;
	}
	wg_migrate_file_release(&f);
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
}

START_TEST(corpus_runs_agree_with_whole_documents)
{
	struct tally t = { 0, 0, 0, 0 };

	if (!t_each_corpus_file(corpus_file, &t))
		return;	/* no corpus here: the shell suites say so */
	ck_assert_uint_gt(t.files, 50);
	ck_assert_uint_eq(t.wrong, 0);
	/* the fast path is taken for nearly every edited object (114 of
	 * 115 when this was written), not skipped */
	ck_assert_msg(t.read * 10 >= t.edited * 9, "%zu of %zu by runs",
		      t.read, t.edited);
}
END_TEST

static Suite *region_suite(void)
{
	Suite *s = suite_create("region");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, pin_at_the_end_of_the_pod_spec);
	tcase_add_test(tc, new_pairs_in_two_mappings);
	tcase_add_test(tc, new_pairs_at_one_place_in_two_mappings);
	tcase_add_test(tc, new_pairs_that_leave_their_column);
	tcase_add_test(tc, removal_in_a_container_and_a_replaced_scalar);
	tcase_add_test(tc, two_runs_in_one_mapping);
	tcase_add_test(tc, edit_on_a_dash_line);
	tcase_add_test(tc, insertion_at_the_wrong_column);
	tcase_add_test(tc, tree_change_without_an_edit);
	tcase_add_test(tc, document_end_marker_in_a_run);
	tcase_add_test(tc, kept_block_scalar_and_blank_lines);
	tcase_add_test(tc, kept_block_scalar_insertion_after_it);
	tcase_add_test(tc, kept_block_scalar_value_replaced);
	tcase_add_test(tc, open_quote);
	tcase_add_test(tc, lone_cr_breaks_read_whole);
	tcase_add_test(tc, corpus_runs_agree_with_whole_documents);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(region_suite)

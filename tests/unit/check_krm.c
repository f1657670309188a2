/* KRM functions: reading a ResourceList, held items, results, generated
 * objects' annotations, the functionConfig as a profile. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/krm/krm.h"
#include "wingen/transforms/linux_pin.h"
#include "wingen/transforms/services.h"

/* The plugins' settings read from the profile (chain/chain.h). */
static const struct wg_linux_pin_settings *pin_of(const struct wg_profile *p)
{
	const struct wg_linux_pin_settings *s = wg_chain_settings(p,
								 "linux-pin");

	ck_assert_ptr_nonnull(s);
	return s;
}

struct fixture {
	struct wg_ctx ctx;
	struct wg_input in;
	struct wg_krm krm;
};

static int open_rl(struct fixture *f, const char *text)
{
	wg_ctx_init(&f->ctx);
	wg_krm_init(&f->krm);
	t_input(&f->in, "<stdin>", text);
	return wg_krm_read(&f->ctx, &f->in, &f->krm);
}

static void close_rl(struct fixture *f)
{
	wg_krm_release(&f->krm);
	wg_input_release(&f->in);
	wg_ctx_release(&f->ctx);
}

static char *write_rl(struct fixture *f)
{
	struct wg_buf out = WG_BUF_INIT;

	ck_assert_int_eq(wg_krm_write(&f->ctx, &f->krm, &out), 0);
	return wg_buf_detach(&out, NULL);
}

static const char *item_name(const struct wg_resource *res)
{
	static char name[64];
	const struct wg_node *n = wg_path_get(res->root, "metadata.name");

	snprintf(name, sizeof(name), "%.*s", (int)n->len, n->u.str);
	return name;
}

START_TEST(items_held_and_located)
{
	struct fixture f;
	const struct wg_krm_item *it;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1beta1\n"
		"kind: ResourceList\n"
		"items:\n"
		"- apiVersion: kpt.dev/v1\n  kind: Kptfile\n"
		"  metadata: {name: pkg}\n"
		"- apiVersion: v1\n  kind: Pod\n"
		"  metadata:\n    name: a\n    annotations:\n"
		"      config.kubernetes.io/path: old.yaml\n"
		"      config.kubernetes.io/index: '7'\n"
		"      internal.config.kubernetes.io/path: new.yaml\n"
		"      internal.config.kubernetes.io/index: '3'\n"
		"- apiVersion: v1\n  kind: ConfigMap\n"
		"  metadata:\n    name: local\n    annotations:\n"
		"      config.kubernetes.io/local-config: \"true\"\n"
		"- apiVersion: v1\n  kind: List\n  metadata: {name: l}\n"
		"  items: [{apiVersion: v1, kind: Pod, metadata: {name: x}}]"
		"\n"),
		0);
	ck_assert(wg_scalar_is(f.krm.api_version,
			       "config.kubernetes.io/v1beta1"));
	ck_assert_ptr_null(f.krm.function_config);
	ck_assert_uint_eq(f.krm.nitems, 4);
	/* The Kptfile and the local config stay out of the chain; a List
	 * is one item, not expanded. */
	ck_assert_uint_eq(f.krm.list.len, 2);
	ck_assert_str_eq(item_name(f.krm.list.items[0]), "a");
	ck_assert_str_eq(item_name(f.krm.list.items[1]), "l");
	ck_assert(((struct wg_krm_item *)f.krm.items[0]->payload)->held);
	ck_assert(((struct wg_krm_item *)f.krm.items[2]->payload)->held);
	/* The internal annotations win over the legacy ones. */
	it = f.krm.items[1]->payload;
	ck_assert_str_eq(it->path, "new.yaml");
	ck_assert_uint_eq(it->index, 3);
	ck_assert_uint_eq(f.krm.items[1]->index, 1);
	close_rl(&f);
}
END_TEST

START_TEST(bad_resource_lists)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		{ "apiVersion: v1\nkind: Pod\n",
		  "expected kind ResourceList, not 'Pod'" },
		{ "kind: ResourceList\napiVersion: config.kubernetes.io/v9\n"
		  "items: []\n", "apiVersion 'config.kubernetes.io/v9' of "
		  "ResourceList is not supported (use "
		  "config.kubernetes.io/v1)" },
		{ "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		  "items: {a: b}\n", "items: expected a sequence, found a "
		  "mapping" },
		{ "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		  "items: [a]\n", "items[0]: expected an object, found a "
		  "scalar" },
		{ "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		  "---\nkind: Pod\n", "a ResourceList is one YAML document; "
		  "this is a second one" },
		{ "", "the input is empty: a KRM function reads a "
		  "ResourceList" },
		{ "[1, 2]\n", "expected a ResourceList, found a sequence" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;

		ck_assert_int_eq(open_rl(&f, cases[i].text), -1);
		ck_assert_str_eq(t_first_message(&f.ctx), cases[i].message);
		close_rl(&f);
	}
}
END_TEST

START_TEST(sniff_only_resource_lists)
{
	struct wg_input in;

	t_input(&in, "-", "apiVersion: config.kubernetes.io/v1\n"
		"kind: ResourceList\nitems: []\n");
	ck_assert(wg_krm_sniff(&in));
	wg_input_release(&in);
	t_input(&in, "-", "{\"kind\": \"ResourceList\", \"items\": []}");
	ck_assert(wg_krm_sniff(&in));
	wg_input_release(&in);
	t_input(&in, "-", "apiVersion: v1\nkind: Pod\n");
	ck_assert(!wg_krm_sniff(&in));
	wg_input_release(&in);
	t_input(&in, "-", "kind: [unclosed\n");
	ck_assert(!wg_krm_sniff(&in));
	wg_input_release(&in);
}
END_TEST

START_TEST(write_keeps_order_and_places_held_items)
{
	struct fixture f;
	struct wg_resource *gen;
	char *out;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items:\n"
		"- {apiVersion: kpt.dev/v1, kind: Kptfile, "
		"metadata: {name: k}}\n"
		"- {kind: Pod, metadata: {name: p1}}\n"
		"- {kind: CM, metadata: {name: h, annotations: "
		"{config.kubernetes.io/local-config: 'true'}}}\n"
		"- {kind: Pod, metadata: {name: p2}}\n"
		"- {kind: Pod, metadata: {name: p3}}\n"
		"- {kind: CM, metadata: {name: last, annotations: "
		"{config.kubernetes.io/local-config: 'true'}}}\n"), 0);
	/* What a chain may do: add an object in front, drop one. */
	gen = wg_resource_new(&f.krm.list, wg_node_new_map(&f.krm.list.arena),
			      NULL, 0);
	gen->flags |= WG_RES_GENERATED;
	wg_map_set(&f.krm.list.arena, gen->root, "kind",
		   wg_node_new_str(&f.krm.list.arena, "RuntimeClass"));
	wg_resources_insert(&f.krm.list, 0, gen);
	f.krm.list.items[2]->flags |= WG_RES_DELETED;	/* p2 */
	out = write_rl(&f);
	ck_assert_str_eq(out,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items:\n"
		"- kind: RuntimeClass\n"
		"- {apiVersion: kpt.dev/v1, kind: Kptfile, "
		"metadata: {name: k}}\n"
		"- {kind: Pod, metadata: {name: p1}}\n"
		"- {kind: CM, metadata: {name: h, annotations: "
		"{config.kubernetes.io/local-config: 'true'}}}\n"
		"- {kind: Pod, metadata: {name: p3}}\n"
		"- {kind: CM, metadata: {name: last, annotations: "
		"{config.kubernetes.io/local-config: 'true'}}}\n");
	free(out);
	close_rl(&f);
}
END_TEST

START_TEST(json_in_block_out)
{
	struct fixture f;
	char *out;

	ck_assert_int_eq(open_rl(&f,
		"{\"apiVersion\": \"config.kubernetes.io/v1\", "
		"\"kind\": \"ResourceList\", \"items\": [{\"kind\": \"Pod\", "
		"\"metadata\": {\"name\": \"p\", \"labels\": {\"v\": \"1.10\", "
		"\"on\": \"yes\", \"n\": 5}}}]}"), 0);
	ck_assert(f.krm.flow);
	out = write_rl(&f);
	/* Block style; quotes only where a string would change type. */
	ck_assert_str_eq(out,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items:\n- kind: Pod\n  metadata:\n    name: p\n"
		"    labels:\n      v: \"1.10\"\n      \"on\": \"yes\"\n"
		"      \"n\": 5\n");
	free(out);
	close_rl(&f);
}
END_TEST

START_TEST(results_from_the_log)
{
	struct fixture f;
	struct wg_resource *pod;
	struct wg_node *value;
	char *out;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items:\n"
		"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\n"
		"    namespace: ns\n    annotations:\n"
		"      internal.config.kubernetes.io/path: pods/p.yaml\n"
		"      internal.config.kubernetes.io/index: '2'\n"), 0);
	pod = f.krm.list.items[0];
	f.ctx.strict = true;
	wg_warning(&f.ctx, pod, NULL, "spec.os", "a %s", "warning");
	wg_report_at(&f.ctx, WG_SEV_INFO, "<stdin>", 1, 1, "a note");
	f.ctx.plugin = "tolerations";
	value = wg_node_new_map(&f.krm.list.arena);
	wg_map_set(&f.krm.list.arena, value, "key",
		   wg_node_new_str(&f.krm.list.arena, "os"));
	wg_record_change(&f.ctx, WG_CHANGE_ADD, pod, NULL,
			 "spec.tolerations[0]", NULL, value,
			 "windows.select[0]");
	out = write_rl(&f);
	ck_assert_ptr_nonnull(strstr(out,
		"results:\n"
		"- message: a warning\n"
		"  severity: error\n"
		"  resourceRef:\n    apiVersion: v1\n    kind: Pod\n"
		"    name: p\n    namespace: ns\n"
		"  field:\n    path: spec.os\n"
		"  file:\n    path: pods/p.yaml\n    index: 2\n"
		"- message: a note\n  severity: info\n"
		"- message: \"added by tolerations: windows.select[0]\"\n"
		"  severity: info\n"
		"  resourceRef:\n    apiVersion: v1\n    kind: Pod\n"
		"    name: p\n    namespace: ns\n"
		"  field:\n    path: spec.tolerations[0]\n"
		"    proposedValue: {key: os}\n"
		"  file:\n    path: pods/p.yaml\n    index: 2\n"));
	free(out);
	/* v2alpha1 proposes a list of values. */
	f.krm.api_version = wg_node_new_str(&f.krm.list.arena,
					    "config.kubernetes.io/v2alpha1");
	out = write_rl(&f);
	ck_assert_ptr_nonnull(strstr(out, "apiVersion: "
				     "config.kubernetes.io/v2alpha1\n"));
	ck_assert_ptr_nonnull(strstr(out, "    proposedValues:\n"
				     "    - {key: os}\n"));
	free(out);
	/* After a failure the items go back as read: no change results. */
	f.krm.unchanged = true;
	out = write_rl(&f);
	ck_assert_ptr_null(strstr(out, "added by"));
	free(out);
	close_rl(&f);
}
END_TEST

START_TEST(generated_objects_get_a_file)
{
	struct fixture f;
	struct wg_resource *gen;
	const struct wg_node *ann;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items:\n- kind: RuntimeClass\n  metadata:\n    name: old\n"
		"    annotations:\n"
		"      config.kubernetes.io/path: runtimeclasses.yaml\n"
		"      config.kubernetes.io/index: '1'\n"), 0);
	gen = wg_resource_new(&f.krm.list, wg_node_new_map(&f.krm.list.arena),
			      NULL, 0);
	gen->flags |= WG_RES_GENERATED;
	wg_resources_append(&f.krm.list, gen);
	wg_krm_annotate_generated(&f.krm);
	ann = wg_path_get(gen->root, "metadata.annotations");
	/* The package's runtimeclasses.yaml keeps its documents 0 and 1. */
	ck_assert(wg_scalar_is(wg_map_get(ann, "config.kubernetes.io/index"),
			       "2"));
	ck_assert(wg_scalar_is(wg_map_get(ann,
					  "internal.config.kubernetes.io/path"),
			       WG_KRM_GENERATED_PATH));
	ck_assert_uint_eq(ann->len, 4);
	close_rl(&f);
}
END_TEST

START_TEST(config_map_settings)
{
	struct fixture f;
	struct wg_profile p;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items: []\nfunctionConfig:\n  apiVersion: v1\n"
		"  kind: ConfigMap\n  metadata: {name: function-input}\n"
		"  data:\n    releases: ltsc2022, 2025\n    arch: arm64\n"
		"    taint: 'node/win:NoExecute'\n    linux-pin: 'false'\n"
		"    strict: 'true'\n"), 0);
	ck_assert_int_eq(wg_krm_profile(&f.ctx, &f.krm, WG_CHAIN_OPTS, &p), 0);
	ck_assert_uint_eq(p.nbuilds, 2);
	ck_assert_str_eq(p.builds[0].release->name, "ltsc2022");
	ck_assert_str_eq(p.builds[1].release->name, "ltsc2025");
	ck_assert_str_eq(p.builds[1].arch, "arm64");
	ck_assert_ptr_eq(p.default_build, &p.builds[0]);
	ck_assert_str_eq(p.taint.key, "node/win");
	ck_assert_ptr_null(p.taint.value);
	ck_assert_str_eq(p.taint.effect, "NoExecute");
	ck_assert(!pin_of(&p)->pin);
	ck_assert(f.ctx.strict);
	/* No select key: the image rule (core/select.h), no entries. */
	ck_assert_uint_eq(p.nselect, 0);
	wg_profile_release(&p);
	close_rl(&f);
}
END_TEST

START_TEST(config_map_errors_point_at_the_setting)
{
	struct fixture f;
	struct wg_profile p;
	const struct wg_diag *d;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items: []\nfunctionConfig:\n  apiVersion: v1\n"
		"  kind: ConfigMap\n  metadata: {name: fi}\n"
		"  data:\n    relase: ltsc2022\n    handler: Bad_Handler\n"),
			 0);
	ck_assert_int_eq(wg_krm_profile(&f.ctx, &f.krm, NULL, &p), -1);
	ck_assert_uint_eq(f.ctx.log.counts[WG_SEV_ERROR], 2);
	d = &f.ctx.log.diags[0];
	ck_assert_str_eq(d->message, "unknown setting 'relase'; did you mean "
			 "'release'?");
	ck_assert_str_eq(d->file, "<stdin>");
	ck_assert_uint_eq(d->line, 9);
	ck_assert_uint_eq(d->col, 5);
	ck_assert_str_eq(d->field, "data.relase");
	ck_assert_str_eq(d->ref.kind, "ConfigMap");
	/* The loader's own error, moved from the generated profile text
	 * to the value in the ResourceList. */
	d = &f.ctx.log.diags[1];
	ck_assert_str_eq(d->file, "<stdin>");
	ck_assert_uint_eq(d->line, 10);
	ck_assert_uint_eq(d->col, 14);
	ck_assert_str_eq(d->field, "data.handler");
	ck_assert_ptr_nonnull(strstr(d->message, "Bad_Handler"));
	close_rl(&f);
}
END_TEST

/* kpt writes "-- key=value" settings as one flow mapping on one line:
 * positions far to the right are still exact, and still name the key. */
START_TEST(settings_far_right_on_one_line)
{
	struct fixture f;
	struct wg_profile p;
	struct wg_buf text = WG_BUF_INIT;
	const struct wg_diag *d;

	wg_buf_addstr(&text, "apiVersion: config.kubernetes.io/v1\n"
		      "kind: ResourceList\nitems: []\nfunctionConfig: "
		      "{apiVersion: v1, kind: ConfigMap, metadata: {name: fi}, "
		      "data: {select-name: '");
	for (int i = 0; i < 300; i++)
		wg_buf_addch(&text, 'x');
	wg_buf_addstr(&text, "', handler: Bad_H}}\n");
	ck_assert_int_eq(open_rl(&f, text.buf), 0);
	ck_assert_int_eq(wg_krm_profile(&f.ctx, &f.krm, NULL, &p), -1);
	d = &f.ctx.log.diags[0];
	ck_assert_str_eq(d->field, "data.handler");
	ck_assert_uint_eq(d->line, 4);
	/* line 4 starts with "functionConfig" */
	ck_assert_uint_eq(d->col, strstr(text.buf, "Bad_H")
				  - strstr(text.buf, "functionConfig") + 1);
	wg_buf_release(&text);
	close_rl(&f);
}
END_TEST

START_TEST(profile_function_config)
{
	struct fixture f;
	struct wg_profile p;

	ck_assert_int_eq(open_rl(&f,
		"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"
		"items: []\nfunctionConfig:\n"
		"  apiVersion: wingen.dev/v1alpha1\n  kind: Profile\n"
		"  metadata:\n    name: fleet\n    annotations:\n"
		"      config.kubernetes.io/index: '0'\n"
		"  windows:\n    builds:\n    - release: ltsc2019\n"
		"      handler: runhcs-wcow-hypervisor\n"), 0);
	ck_assert_int_eq(wg_krm_profile(&f.ctx, &f.krm, NULL, &p), 0);
	ck_assert_str_eq(p.name, "fleet");
	ck_assert_str_eq(p.builds[0].handler, "runhcs-wcow-hypervisor");
	/* Its warning (an old release) is where the release is written. */
	ck_assert_uint_ge(f.ctx.log.ndiags, 1);
	ck_assert_str_eq(f.ctx.log.diags[0].file, "<stdin>");
	ck_assert_uint_eq(f.ctx.log.diags[0].line, 13);
	ck_assert_uint_eq(f.ctx.log.diags[0].col, 16);
	ck_assert_str_eq(f.ctx.log.diags[0].ref.kind, "Profile");
	wg_profile_release(&p);
	close_rl(&f);
}
END_TEST

START_TEST(help_lists_every_setting)
{
	const struct wg_command *fn = wg_command_find("fn");

	ck_assert_ptr_nonnull(fn);
	for (size_t i = 0; wg_krm_config_keys[i].name; i++) {
		char want[64];

		snprintf(want, sizeof(want), "    %s=",
			 wg_krm_config_keys[i].name);
		ck_assert_msg(strstr(fn->help, want), "'wingen help fn' does "
			      "not list '%s'", wg_krm_config_keys[i].name);
	}
}
END_TEST


/* ---- streaming the output ------------------------------------------------ */

/* A sink that keeps what it gets, and fails at call fail_at (0: never). */
struct chunks {
	struct wg_buf all;
	size_t calls, largest, fail_at;
};

static int keep_chunk(void *data, const char *bytes, size_t len)
{
	struct chunks *c = data;

	c->calls++;
	if (c->fail_at && c->calls >= c->fail_at)
		return 1;
	wg_buf_add(&c->all, bytes, len);
	if (len > c->largest)
		c->largest = len;
	return 0;
}

/* A ResourceList of n ConfigMaps, about 300 bytes each. */
static char *big_list(size_t n)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addstr(&b, "apiVersion: config.kubernetes.io/v1\n"
		      "kind: ResourceList\nitems:\n");
	for (size_t i = 0; i < n; i++)
		wg_buf_addf(&b, "- apiVersion: v1\n  kind: ConfigMap\n"
			    "  metadata:\n    name: cm-%zu\n"
			    "    annotations:\n"
			    "      config.kubernetes.io/path: cm.yaml\n"
			    "  data:\n    text: \"%zu lorem ipsum dolor sit "
			    "amet, consectetur adipiscing elit, sed do "
			    "eiusmod tempor incididunt ut labore et dolore "
			    "magna aliqua\"\n", i, i);
	return wg_buf_detach(&b, NULL);
}

START_TEST(streamed_output_is_the_held_output)
{
	struct fixture f;
	struct chunks c = { WG_BUF_INIT, 0, 0, 0 };
	char *text = big_list(12000), *held;

	ck_assert_int_eq(open_rl(&f, text), 0);
	held = write_rl(&f);
	ck_assert_int_eq(wg_krm_write_sink(&f.ctx, &f.krm, keep_chunk, &c),
			 0);
	ck_assert_uint_gt(strlen(held), 3u << 20);
	ck_assert_uint_eq(c.all.len, strlen(held));
	ck_assert(memcmp(c.all.buf, held, c.all.len) == 0);
	/* in pieces of about a megabyte, not the whole list at once */
	ck_assert_uint_ge(c.calls, 3);
	ck_assert_uint_lt(c.largest, (1u << 20) + (64u << 10));
	free(held);
	wg_buf_release(&c.all);
	close_rl(&f);
	free(text);
}
END_TEST

START_TEST(failing_sink_fails_the_write)
{
	struct fixture f;
	struct chunks c = { WG_BUF_INIT, 0, 0, 2 };
	char *text = big_list(8000);

	ck_assert_int_eq(open_rl(&f, text), 0);
	ck_assert_int_eq(wg_krm_write_sink(&f.ctx, &f.krm, keep_chunk, &c),
			 -1);
	ck_assert_uint_eq(c.calls, 2);	/* and nothing after */
	ck_assert_ptr_nonnull(strstr(t_first_message(&f.ctx),
				     "cannot write the output"));
	wg_buf_release(&c.all);
	close_rl(&f);
	free(text);
}
END_TEST

START_TEST(unwritable_text_is_found_before_writing)
{
	struct fixture f;
	struct wg_resource *res;
	struct wg_node *labels;

	ck_assert_int_eq(open_rl(&f, "apiVersion: config.kubernetes.io/v1\n"
				 "kind: ResourceList\nitems:\n"
				 "- apiVersion: v1\n  kind: ConfigMap\n"
				 "  metadata: {name: é}\n"), 0);
	res = f.krm.list.items[0];
	/* parsed text, é included, is writable */
	ck_assert_ptr_null(wg_yaml_unwritable(res->root));
	ck_assert_uint_eq(wg_krm_check_writable(&f.ctx, &f.krm), 0);
	/* a generated value cut inside a character is not */
	labels = wg_map_set(&f.krm.list.arena,
			    wg_map_get(res->root, "metadata"), "labels",
			    wg_node_new_map(&f.krm.list.arena));
	wg_map_set(&f.krm.list.arena, labels, "cut",
		   wg_node_new_strn(&f.krm.list.arena, "\xc3", 1));
	ck_assert_ptr_eq(wg_yaml_unwritable(res->root),
			 wg_map_get(labels, "cut"));
	ck_assert_uint_eq(wg_krm_check_writable(&f.ctx, &f.krm), 1);
	ck_assert(wg_ctx_failed(&f.ctx));
	/* overlong and truncated forms, as libyaml's own check */
	ck_assert_ptr_nonnull(wg_yaml_unwritable(
		wg_node_new_strn(&f.krm.list.arena, "\xc0\xaf", 2)));
	ck_assert_ptr_nonnull(wg_yaml_unwritable(
		wg_node_new_strn(&f.krm.list.arena, "a\xe2\x82", 3)));
	ck_assert_ptr_null(wg_yaml_unwritable(
		wg_node_new_strn(&f.krm.list.arena, "\xe2\x82\xac", 3)));
	close_rl(&f);
}
END_TEST

START_TEST(shared_keys_only_inside_items)
{
	struct fixture f;
	const struct wg_node *fc, *item;

	wg_ctx_init(&f.ctx);
	wg_krm_init(&f.krm);
	f.krm.list.share_keys = true;
	t_input(&f.in, "<stdin>", "apiVersion: config.kubernetes.io/v1\n"
		"kind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n"
		"  kind: ConfigMap\n  data:\n    taint: a=b:NoSchedule\n"
		"items:\n- apiVersion: v1\n  kind: ConfigMap\n"
		"  data:\n    taint: x\n- apiVersion: v1\n  kind: Secret\n");
	ck_assert_int_eq(wg_krm_read(&f.ctx, &f.in, &f.krm), 0);
	fc = f.krm.function_config;
	ck_assert_ptr_nonnull(fc);
	/* the functionConfig's keys keep their lines for its messages */
	ck_assert(wg_node_has_pos(wg_map_key(fc, 0)));
	ck_assert(wg_node_has_pos(wg_map_key(wg_map_get(fc, "data"), 0)));
	ck_assert_uint_eq(wg_node_line(wg_map_key(wg_map_get(fc, "data"),
						  0)), 6);
	/* the items' keys are one node per key text */
	item = f.krm.list.items[0]->root;
	ck_assert(!wg_node_has_pos(wg_map_key(item, 0)));
	ck_assert_ptr_eq(wg_map_key(item, 0),
			 wg_map_key(f.krm.list.items[1]->root, 0));
	close_rl(&f);
}
END_TEST

static Suite *krm_suite(void)
{
	Suite *s = suite_create("krm");
	TCase *tc = tcase_create("krm");

	tcase_add_test(tc, items_held_and_located);
	tcase_add_test(tc, bad_resource_lists);
	tcase_add_test(tc, sniff_only_resource_lists);
	tcase_add_test(tc, write_keeps_order_and_places_held_items);
	tcase_add_test(tc, json_in_block_out);
	tcase_add_test(tc, results_from_the_log);
	tcase_add_test(tc, generated_objects_get_a_file);
	tcase_add_test(tc, config_map_settings);
	tcase_add_test(tc, config_map_errors_point_at_the_setting);
	tcase_add_test(tc, settings_far_right_on_one_line);
	tcase_add_test(tc, profile_function_config);
	tcase_add_test(tc, help_lists_every_setting);
	tcase_add_test(tc, streamed_output_is_the_held_output);
	tcase_add_test(tc, failing_sink_fails_the_write);
	tcase_add_test(tc, unwritable_text_is_found_before_writing);
	tcase_add_test(tc, shared_keys_only_inside_items);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(krm_suite)

/*
 * migrate --in-place's write-through (migrate_through.h): the text written
 * to the temporary through a window of WG_THROUGH_WINDOW bytes must be, byte
 * for byte, the text wg_migrate_finish() holds whole without it, with the
 * same changed and emptied verdicts, on files several windows long; an
 * unchanged file gets no temporary; the window stays a window.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate/migrate_through.h"
#include "testutil.h"
#include "wingen/base/alloc.h"
#include "wingen/base/buf.h"
#include "wingen/migrate/migrate.h"

typedef void (*edit_fn)(struct wg_arena *a, struct wg_resources *list);

/* n Deployments, about 400 bytes each, with comments; final_break: whether
 * the text ends with a line break. */
static char *deployments(size_t n, bool final_break)
{
	struct wg_buf b = WG_BUF_INIT;

	wg_buf_addstr(&b, "# a folder of manifests, made into one file\n");
	for (size_t i = 0; i < n; i++)
		wg_buf_addf(&b,
			    "---\n# deployment %zu\napiVersion: apps/v1\n"
			    "kind: Deployment\nmetadata:\n  name: app-%zu\n"
			    "  labels: {app: app-%zu}\nspec:\n  replicas: 2\n"
			    "  template:\n    metadata:\n      labels:\n"
			    "        app: app-%zu\n    spec:\n      containers:\n"
			    "      - name: main  # the only one\n"
			    "        image: mcr.microsoft.com/app:%zu\n"
			    "        args: [\"--port\", \"80\"]\n",
			    i, i, i, i, i);
	if (!final_break)
		b.len--;
	return wg_buf_detach(&b, NULL);
}

static void pin(struct wg_arena *a, struct wg_node *root)
{
	struct wg_node *spec = wg_path_get(root, "spec.template.spec");

	ck_assert_ptr_nonnull(spec);
	wg_map_set(a, wg_map_ensure_map(a, spec, "nodeSelector"),
		   "kubernetes.io/os", wg_node_new_str(a, "windows"));
}

static void every_third(struct wg_arena *a, struct wg_resources *list)
{
	for (size_t i = 0; i < list->len; i += 3)
		pin(a, list->items[i]->root);
}

static void last_only(struct wg_arena *a, struct wg_resources *list)
{
	pin(a, list->items[list->len - 1]->root);
}

static void none(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	(void)list;
}

static void drop_all(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	for (size_t i = 0; i < list->len; i++)
		list->items[i]->flags |= WG_RES_DELETED;
}

static void drop_last(struct wg_arena *a, struct wg_resources *list)
{
	(void)a;
	list->items[list->len - 1]->flags |= WG_RES_DELETED;
}

struct outcome {
	int rc;
	bool changed, emptied;
	char *text;	/* whole: f.out; through: the temporary's, or NULL */
	size_t text_len;
	size_t window_cap;	/* through: the window handed back */
};

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	struct wg_buf b = WG_BUF_INIT;
	char chunk[65536];
	size_t n;

	ck_assert_ptr_nonnull(fp);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		wg_buf_add(&b, chunk, n);
	fclose(fp);
	wg_buf_addch(&b, '\0');
	return wg_buf_detach(&b, len);
}

static struct outcome run(const char *path, const char *text, edit_fn fn,
			  bool through)
{
	struct wg_migrate_scratch scratch = { 0 };
	struct wg_migrate_opts opts = { .write_through = through,
					.scratch = &scratch };
	struct wg_migrate_file f;
	struct wg_resources list;
	struct wg_input in;
	struct wg_ctx ctx;
	struct outcome o = { 0 };

	wg_ctx_init(&ctx);
	wg_resources_init(&list);
	t_input(&in, path, text);
	ck_assert_int_eq(wg_migrate_load_input(&ctx, &f, &in, &list), 0);
	wg_migrate_edits_begin(&list);
	fn(&list.arena, &list);
	wg_migrate_edits_end(&list);
	o.rc = wg_migrate_finish(&ctx, &f, &list, &opts);
	o.changed = f.changed;
	o.emptied = f.emptied;
	if (!through) {
		o.text = wg_xstrndup(f.out.buf, f.out.len);
		o.text_len = f.out.len;
	} else {
		ck_assert_uint_eq(f.out.len, 0);
		if (f.temp.tmp) {
			ck_assert_int_lt(f.temp.fd, 0);	/* closed */
			o.text = slurp(f.temp.tmp, &o.text_len);
			o.text_len--;
		}
		o.window_cap = scratch.window.cap;
	}
	wg_migrate_file_release(&f);	/* drops the temporary */
	wg_migrate_scratch_release(&scratch);
	wg_resources_release(&list);
	wg_ctx_release(&ctx);
	return o;
}

/* Files in dir other than "." and "..". */
static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void same_both_ways(size_t ndocs, bool final_break, edit_fn fn,
			   bool want_changed, bool want_emptied)
{
	char dir[] = "/tmp/wingen-through-XXXXXX";
	char path[sizeof(dir) + 16];
	char *text = deployments(ndocs, final_break);
	struct outcome whole, through;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.yaml", dir);
	/* several windows: the flushes between documents are exercised */
	ck_assert_uint_gt(strlen(text), 3 * WG_THROUGH_WINDOW);
	whole = run(path, text, fn, false);
	through = run(path, text, fn, true);
	ck_assert_int_eq(whole.rc, 0);
	ck_assert_int_eq(through.rc, 0);
	ck_assert_int_eq(whole.changed, want_changed);
	ck_assert_int_eq(whole.emptied, want_emptied);
	ck_assert_int_eq(through.changed, whole.changed);
	ck_assert_int_eq(through.emptied, whole.emptied);
	if (want_changed && !want_emptied) {
		ck_assert_ptr_nonnull(through.text);
		ck_assert_uint_eq(through.text_len, whole.text_len);
		ck_assert_msg(memcmp(through.text, whole.text,
				     whole.text_len) == 0,
			      "the temporary differs from the text held whole");
	} else {
		/* unchanged, or the file goes: no temporary was kept */
		ck_assert_ptr_null(through.text);
	}
	/* the window, not the file, is what was held */
	ck_assert_uint_le(through.window_cap, 2 * WG_THROUGH_WINDOW);
	/* the temporary went with the file's release */
	ck_assert_uint_eq(entries(dir), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	free(whole.text);
	free(through.text);
	free(text);
}

START_TEST(edits_throughout)
{
	same_both_ways(3000, true, every_third, true, false);
}
END_TEST

/* Nothing differs until the last document: the temporary starts with the
 * input's bytes that were passed over, not written, while equal. */
START_TEST(edit_in_the_last_document_only)
{
	same_both_ways(3000, true, last_only, true, false);
	same_both_ways(3000, false, last_only, true, false);
}
END_TEST

START_TEST(unchanged_file_gets_no_temporary)
{
	same_both_ways(3000, true, none, false, false);
	same_both_ways(3000, false, none, false, false);
}
END_TEST

/* The end of the text is what the last flush kept: a missing final break
 * stays missing when the last document goes, and every object dropped
 * leaves only comments (the file is to be removed). */
START_TEST(documents_dropped_at_the_end)
{
	same_both_ways(3000, false, drop_last, true, false);
	same_both_ways(3000, true, drop_all, true, true);
}
END_TEST

static void window_is(const struct wg_migrate_file *f, const char *want)
{
	ck_assert_uint_eq(f->out.len, strlen(want));
	ck_assert(memcmp(f->out.buf, want, f->out.len) == 0);
}

/* A flush keeps the last line (its break may still go, and the next check
 * for content reads whole lines) and writes nothing while the text is the
 * input's; at the first difference the temporary gets the input's bytes
 * passed over, then the new text. */
START_TEST(flush_keeps_the_last_line)
{
	char dir[] = "/tmp/wingen-through-XXXXXX";
	char path[sizeof(dir) + 16];
	struct wg_buf window = WG_BUF_INIT;
	struct wg_migrate_file f;
	struct wg_ctx ctx;
	size_t len;
	char *got;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/m.yaml", dir);
	wg_ctx_init(&ctx);
	memset(&f, 0, sizeof(f));
	t_input(&f.in, path, "a: 1\nb: 2\n");
	wg_through_begin(&f, &window);
	wg_buf_addstr(&f.out, "a: 1\nb: 2\n");
	ck_assert_int_eq(wg_through_flush(&ctx, &f), 0);
	window_is(&f, "b: 2\n");
	ck_assert_uint_eq(f.out_base, 5);
	ck_assert(f.out_same);
	ck_assert_ptr_null(f.temp.tmp);
	wg_buf_addstr(&f.out, "c: 3\nd: 4");
	ck_assert_int_eq(wg_through_flush(&ctx, &f), 0);
	window_is(&f, "d: 4");
	ck_assert(!f.out_same);
	ck_assert_ptr_nonnull(f.temp.tmp);
	ck_assert_int_eq(wg_through_end(&ctx, &f, &window), 0);
	ck_assert(f.changed);
	ck_assert(!f.emptied);
	got = slurp(f.temp.tmp, &len);
	ck_assert_str_eq(got, "a: 1\nb: 2\nc: 3\nd: 4");
	free(got);
	ck_assert_uint_eq(ctx.log.ndiags, 0);
	wg_migrate_file_release(&f);
	wg_buf_release(&window);
	wg_ctx_release(&ctx);
	ck_assert_uint_eq(entries(dir), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(nothing_left_reads_lines)
{
	static const char *const empty[] = {
		"", "# a\n---\n  # b\r\n...\n", "\n\n---", "\t# c",
		"--- # x\r\n... \n",
	};
	static const char *const content[] = {
		"# a\nkind: Pod\n", "  x", "---\n# a\n- b\n", "--- {}\n",
		"--- {apiVersion: v1, kind: Pod}", "---x\n", "... y",
	};

	for (size_t i = 0; i < sizeof(empty) / sizeof(*empty); i++)
		ck_assert_msg(wg_migrate_nothing_left(empty[i],
						      strlen(empty[i])),
			      "'%s'", empty[i]);
	for (size_t i = 0; i < sizeof(content) / sizeof(*content); i++)
		ck_assert_msg(!wg_migrate_nothing_left(content[i],
						       strlen(content[i])),
			      "'%s'", content[i]);
}
END_TEST

static Suite *through_suite(void)
{
	Suite *s = suite_create("through");
	TCase *tc = tcase_create("window");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, edits_throughout);
	tcase_add_test(tc, edit_in_the_last_document_only);
	tcase_add_test(tc, unchanged_file_gets_no_temporary);
	tcase_add_test(tc, documents_dropped_at_the_end);
	tcase_add_test(tc, flush_keeps_the_last_line);
	tcase_add_test(tc, nothing_left_reads_lines);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(through_suite)

/* The profile fields fan-out and the Services check read: select entries'
 * builds, windows.images rules, windows.network and windows.services. */
#include <string.h>

#include "testutil.h"
#include "wingen/chain/chain.h"
#include "wingen/profile/profile.h"
#include "wingen/transforms/linux_pin.h"
#include "wingen/transforms/services.h"

/* The plugins' settings read from the profile (chain/chain.h). */
static const struct wg_services_settings *svc_of(const struct wg_profile *p)
{
	const struct wg_services_settings *s = wg_chain_settings(p, "services");

	ck_assert_ptr_nonnull(s);
	return s;
}

#define HEAD "apiVersion: wingen.dev/v1alpha1\nkind: Profile\n" \
	     "metadata: {name: t}\n"

static struct wg_ctx ctx;

static void setup(void)
{
	wg_ctx_init(&ctx);
}

static void teardown(void)
{
	wg_ctx_release(&ctx);
}

static int load(const char *text, struct wg_profile *p)
{
	return wg_profile_load_data(&ctx, "profile.yaml", text, strlen(text),
				    WG_CHAIN_OPTS, p);
}

/* The error on field whose message holds s. */
static const struct wg_diag *error_on(const char *field, const char *s)
{
	for (size_t i = 0; i < ctx.log.ndiags; i++) {
		const struct wg_diag *d = &ctx.log.diags[i];

		if (d->severity == WG_SEV_ERROR && d->field
		    && strcmp(d->field, field) == 0 && strstr(d->message, s))
			return d;
	}
	ck_abort_msg("no error '%s' on %s; first: %s", s, field,
		     t_first_message(&ctx));
	return NULL;
}

START_TEST(fields_load)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds:\n"
			      "    - release: ltsc2019\n"
			      "    - release: ltsc2022\n"
			      "    - release: ltsc2025\n      arch: arm64\n"
			      "  select:\n"
			      "    - image: x\n"
			      "      builds: [1809, windows-ltsc2025-arm64]\n"
			      "  images:\n"
			      "    - match: '^(app):ltsc\\d+$'\n"
			      "      replace: '$1:$release'\n"
			      "    - {match: ':1809$', replace: ':ltsc2022'}\n"
			      "  network: {dsr: true, mode: l2bridge}\n"
			      "  services: {fix: true}\n", &p), 0);
	ck_assert_uint_eq(p.select[0].nbuilds, 2);
	ck_assert_ptr_eq(p.select[0].builds[0], &p.builds[0]);
	ck_assert_ptr_eq(p.select[0].builds[1], &p.builds[2]);
	ck_assert_uint_eq(p.nimages, 2);
	ck_assert_str_eq(p.images[0].replace, "$1:$release");
	ck_assert_str_eq(p.images[1].replace, ":ltsc2022");
	ck_assert_int_eq(wg_regex_match(&p.images[0].match, "app:ltsc2019",
					12), 1);
	ck_assert_int_eq(wg_regex_match(&p.images[1].match, "x:ltsc2019",
					10), 0);
	ck_assert_uint_eq(p.images[1].pos.line, 16);
	ck_assert(svc_of(&p)->dsr);
	ck_assert_str_eq(svc_of(&p)->mode, "l2bridge");
	ck_assert(svc_of(&p)->fix);
	wg_profile_release(&p);
}
END_TEST

START_TEST(defaults)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds: [{release: ltsc2022}]"
			      "\n", &p), 0);
	ck_assert_uint_eq(p.nimages, 0);
	ck_assert(!svc_of(&p)->dsr);
	ck_assert_str_eq(svc_of(&p)->mode, "overlay");
	ck_assert(!svc_of(&p)->fix);
	for (size_t i = 0; i < p.nselect; i++)
		ck_assert_uint_eq(p.select[i].nbuilds, 0);
	wg_profile_release(&p);
}
END_TEST

START_TEST(image_rule_errors)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds: [{release: ltsc2022}]"
			      "\n  images:\n"
			      "    - {replace: x}\n"
			      "    - {match: '(unclosed', replace: x}\n"
			      "    - {match: x}\n", &p), -1);
	error_on("windows.images[0]", "missing required key 'match'");
	error_on("windows.images[1].match", "is not a valid PCRE2 pattern");
	error_on("windows.images[2]", "missing required key 'replace'");
	ck_assert_uint_eq(ctx.log.counts[WG_SEV_ERROR], 3);
}
END_TEST

START_TEST(entry_builds_errors)
{
	struct wg_profile p;

	ck_assert_int_eq(load(HEAD "windows:\n  builds: [{release: ltsc2022}]"
			      "\n  select:\n"
			      "    - {image: x, builds: [ltsc2022, ltsc2025]}\n",
			      &p), -1);
	error_on("windows.select[0].builds[1]", "'ltsc2025' is not one of "
		 "windows.builds");
}
END_TEST

static Suite *profile_fanout_suite(void)
{
	Suite *s = suite_create("profile_fanout");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, fields_load);
	tcase_add_test(tc, defaults);
	tcase_add_test(tc, image_rule_errors);
	tcase_add_test(tc, entry_builds_errors);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(profile_fanout_suite)

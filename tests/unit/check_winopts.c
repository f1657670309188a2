#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "wingen/k8s/podcheck.h"
#include "wingen/k8s/podspec.h"

/* runAsUserName as validateWindowsSecurityContextOptions judges it
 * (Kubernetes pkg/apis/core/validation/validation.go). */
static const struct {
	const char *name;
	const char *error;	/* a part of the reason; NULL: valid */
} names[] = {
	{ "ContainerUser", NULL },
	{ "NT AUTHORITY\\SYSTEM", NULL },
	{ "NT AUTHORITY\\Local service", NULL },
	{ "contoso.example.com\\svc-web", NULL },
	{ "CONTOSODOMAIN1234\\web", NULL },	/* a DNS name, upper case */
	{ "CONTOSO\\user.name", NULL },
	{ "", "cannot be an empty string" },
	{ "a\tb", "control characters" },
	{ "a\x7f", "control characters" },
	{ "a\\b\\c", "more than one backslash" },
	{ "CONTOSO DOMAIN 12\\web", "NetBios nor the DNS format" },
	{ ".CONTOSO\\web", "NetBios nor the DNS format" },
	{ "CON|TOSO\\web", "NetBios nor the DNS format" },
	{ "con:toso\\web", "NetBios nor the DNS format" },
	{ "-contoso\\web", NULL },	/* NetBIOS allows a leading dash */
	{ "\\web", "NetBios nor the DNS format" },
	{ "CONTOSO\\", "User cannot be empty" },
	{ "CONTOSO\\. .", "only periods or spaces" },
	{ "web@contoso", "cannot contain the following characters" },
	{ "web[1]", "cannot contain the following characters" },
	{ "a=b", "cannot contain the following characters" },
};

START_TEST(test_run_as_user_name)
{
	const char *why = wg_k8s_run_as_user_name_error(names[_i].name,
							strlen(names[_i].name));

	if (!names[_i].error)
		ck_assert_msg(why == NULL, "'%s': %s", names[_i].name, why);
	else
		ck_assert_msg(why && strstr(why, names[_i].error), "'%s': %s",
			      names[_i].name, why ? why : "valid");
}
END_TEST

START_TEST(test_lengths)
{
	char name[512];

	/* user: 104 characters at most */
	memset(name, 'u', 104);
	ck_assert_ptr_null(wg_k8s_run_as_user_name_error(name, 104));
	ck_assert_ptr_nonnull(wg_k8s_run_as_user_name_error(name, 105));
	/* domain: under 256 (a DNS name of labels of 63 at most) */
	for (size_t i = 0; i < 255; i++)
		name[i] = (i % 64 == 63) ? '.' : 'd';
	name[255] = '\\';
	name[256] = 'u';
	ck_assert_ptr_null(wg_k8s_run_as_user_name_error(name, 257));
	memmove(name + 1, name, 257);
	name[0] = 'd';
	ck_assert_ptr_nonnull(strstr(wg_k8s_run_as_user_name_error(name, 258),
				     "under 256"));
	/* a DNS label of 64 is no DNS name, and too long for NetBIOS */
	memset(name, 'd', 64);
	memcpy(name + 64, "\\u", 2);
	ck_assert_ptr_nonnull(wg_k8s_run_as_user_name_error(name, 66));
}
END_TEST

/* gmsaCredentialSpec: 64 KiB at most, not empty. */
START_TEST(test_gmsa_spec_size)
{
	static const size_t sizes[] = { 65536, 65537 };

	for (size_t k = 0; k < 2; k++) {
		size_t n = sizes[k];
		char *yaml = malloc(n + 256);
		struct wg_ctx ctx;
		struct wg_input in;
		struct wg_resources list;
		struct wg_podspec ps;
		int len;

		len = snprintf(yaml, 256, "apiVersion: v1\nkind: Pod\n"
			       "metadata: {name: p}\nspec:\n"
			       "  securityContext:\n    windowsOptions:\n"
			       "      gmsaCredentialSpec: '");
		memset(yaml + len, 'x', n);
		strcpy(yaml + len + n, "'\n  containers: [{name: c}]\n");
		wg_ctx_init(&ctx);
		wg_resources_init(&list);
		ck_assert_int_eq(t_read(&ctx, &in, yaml, &list), 0);
		ck_assert(wg_podspec_find(list.items[0], &ps));
		ck_assert_uint_eq(wg_k8s_check_windows_options(&ctx,
							list.items[0], &ps),
				  k);
		if (k)
			ck_assert_ptr_nonnull(strstr(t_first_message(&ctx),
						     "under 64 KiB"));
		wg_resources_release(&list);
		wg_input_release(&in);
		wg_ctx_release(&ctx);
		free(yaml);
	}
}
END_TEST

static Suite *winopts_suite(void)
{
	Suite *s = suite_create("winopts");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_run_as_user_name, 0,
			    sizeof(names) / sizeof(names[0]));
	tcase_add_test(tc, test_lengths);
	tcase_add_test(tc, test_gmsa_spec_size);
	suite_add_tcase(s, tc);
	return s;
}

WG_TEST_MAIN(winopts_suite)

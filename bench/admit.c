/*
 * admit: the webhook's cost without HTTP or TLS, for callgrind and perf.
 *   admit REVIEW.json [N]
 * Answers the review in the file N times (default 1000) with
 * wg_admit_run() under the embedded default profile, as one worker of
 * wingen serve does, and prints the last answer's outcome and size.
 * Instructions a review: valgrind --tool=callgrind
 * --toggle-collect=wg_admit_run admit REVIEW.json 300, divided by 300.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wingen/base/ctx.h"
#include "wingen/chain/chain.h"
#include "wingen/profile/profile.h"
#include "wingen/serve/admit.h"

int main(int argc, char **argv)
{
	struct wg_admit_opts o = { WG_ADMIT_MUTATE, false, NULL };
	struct wg_profile_opts po;
	struct wg_profile profile;
	struct wg_admit a;
	struct wg_ctx ctx;
	long n = argc > 2 ? atol(argv[2]) : 1000;
	char *body;
	long len;
	FILE *f;

	if (argc < 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: admit REVIEW.json [N]\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	body = malloc((size_t)len + 1);
	if (fread(body, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "admit: cannot read %s\n", argv[1]);
		return 1;
	}
	fclose(f);
	body[len] = '\0';
	wg_ctx_init(&ctx);
	if (wg_profile_load_default(&ctx, wg_chain_opts(NULL, &po), &profile)) {
		fprintf(stderr, "admit: the default profile does not load\n");
		return 1;
	}
	wg_ctx_release(&ctx);
	wg_admit_init(&a);
	for (long i = 0; i < n; i++)
		wg_admit_run(&a, &profile, &o, body, (size_t)len);
	printf("%s %d %zu bytes %ld ops\n", wg_admit_outcome_name(a.outcome),
	       a.http_status, a.body.len, a.patch_ops);
	wg_admit_release(&a);
	wg_profile_release(&profile);
	free(body);
	return 0;
}

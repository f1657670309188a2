#include "wingen/k8s/images.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * Microsoft's image families (images.h).  Facts, with their upstream
 * sources:
 *  - base images and their tags: Microsoft's "Windows Server 2019 now
 *    available" post (servercore:1809 and :ltsc2019, nanoserver:1809 only,
 *    windows:1809; no windows/server before 2022), the MCR pages of
 *    windows/servercore, nanoserver, server and windows;
 *  - variant tags (4.8-windowsservercore-ltsc2019, 8.0-nanoserver-1809):
 *    the READMEs of microsoft/dotnet-framework-docker, dotnet/dotnet-docker
 *    and PowerShell/PowerShell-Docker, and Docker's official images
 *    (windowsservercore-1809, nanoserver-ltsc2022);
 *  - which .NET Framework versions are published on which release:
 *    microsoft/dotnet-framework-docker's README (4.8.1 is built for 2022
 *    and later only, and Windows Server 2025 ships with 4.8.1, so 4.8 has
 *    no ltsc2025 tags; 3.5 is published for every release);
 *  - the pause image is one multi-platform manifest that includes every
 *    Windows build (Kubernetes Windows intro: registry.k8s.io/pause:3.6 and
 *    mcr.microsoft.com/oss/kubernetes/pause:3.6);
 *  - HostProcess containers need not match the host's build (Kubernetes
 *    task "Create a Windows HostProcess Pod"), and the HostProcess base
 *    image (kubernetes-sigs/windows-host-process-containers-base-image) is
 *    made for them.
 */

static const struct wg_fx_version fx_versions[] = {
	{ "3.5", { "ltsc2016", "ltsc2019", "ltsc2022", "ltsc2025", NULL },
	  NULL },
	{ "4.6.2", { "ltsc2016", NULL }, "4.8" },
	{ "4.7", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.1", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.2", { "ltsc2016", "ltsc2019", NULL }, "4.8" },
	{ "4.8", { "ltsc2016", "ltsc2019", "ltsc2022", NULL }, "4.8.1" },
	{ "4.8.1", { "ltsc2022", "ltsc2025", NULL }, NULL },
	{ NULL, { NULL }, NULL },
};

/* WCF has no 3.5 images. */
static const struct wg_fx_version fx_wcf_versions[] = {
	{ "4.6.2", { "ltsc2016", NULL }, "4.8" },
	{ "4.7", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.1", { "ltsc2016", NULL }, "4.8" },
	{ "4.7.2", { "ltsc2016", "ltsc2019", NULL }, "4.8" },
	{ "4.8", { "ltsc2016", "ltsc2019", "ltsc2022", NULL }, "4.8.1" },
	{ "4.8.1", { "ltsc2022", "ltsc2025", NULL }, NULL },
	{ NULL, { NULL }, NULL },
};

#define MCR "mcr.microsoft.com/"
#define FX(sub, versions)                                                \
	{ "dotnet/framework/" sub,                                       \
	  { MCR "dotnet/framework/" sub, NULL, NULL }, WG_TAGS_VARIANT,  \
	  WG_COL_SERVERCORE, true, false, versions, NULL,                \
	  MCR "dotnet/framework/" sub ":4.8-windowsservercore-ltsc2019", \
	  ".NET Framework on Server Core; versions per release known" }
#define DOTNET(sub)                                                      \
	{ "dotnet/" sub, { MCR "dotnet/" sub, NULL, NULL },              \
	  WG_TAGS_VARIANT, WG_COL_NONE, false, false, NULL, NULL,        \
	  MCR "dotnet/" sub ":8.0-nanoserver-1809",                      \
	  "multi-platform; Windows by its -nanoserver-/-windowsservercore- " \
	  "variant tags" }

const struct wg_image_family wg_image_families[] = {
	{ "windows/servercore",
	  { MCR "windows/servercore", "microsoft/windowsservercore", NULL },
	  WG_TAGS_RELEASE, WG_COL_SERVERCORE, true, false, NULL, NULL,
	  MCR "windows/servercore:ltsc2022", "base image" },
	{ "windows/nanoserver",
	  { MCR "windows/nanoserver", "microsoft/nanoserver", NULL },
	  WG_TAGS_RELEASE, WG_COL_NANOSERVER, true, false, NULL, NULL,
	  MCR "windows/nanoserver:1809",
	  "base image; tagged 1809 (not ltsc2019) for Windows Server 2019" },
	{ "windows/server", { MCR "windows/server", NULL, NULL },
	  WG_TAGS_RELEASE, WG_COL_SERVER, true, false, NULL, NULL,
	  MCR "windows/server:ltsc2022",
	  "base image, from Windows Server 2022 on" },
	{ "windows", { MCR "windows", NULL, NULL },
	  WG_TAGS_RELEASE, WG_COL_SERVERCORE, true, false, NULL,
	  "windows/server", MCR "windows:1809",
	  "the full base image, up to 20H2; windows/server from 2022 on" },
	{ "windows/servercore/iis",
	  { MCR "windows/servercore/iis", "microsoft/iis", NULL },
	  WG_TAGS_VARIANT, WG_COL_SERVERCORE, true, false, NULL, NULL,
	  MCR "windows/servercore/iis:windowsservercore-ltsc2019",
	  "IIS on Server Core" },
	FX("runtime", fx_versions),
	FX("aspnet", fx_versions),
	FX("sdk", fx_versions),
	FX("wcf", fx_wcf_versions),
	{ "dotnet-framework (Docker Hub)",
	  { "microsoft/dotnet-framework", NULL, NULL }, WG_TAGS_VARIANT,
	  WG_COL_SERVERCORE, true, false, NULL, NULL,
	  "microsoft/dotnet-framework:4.7.2-runtime-windowsservercore-1803",
	  "retired Docker Hub repository" },
	DOTNET("runtime"),
	DOTNET("aspnet"),
	DOTNET("sdk"),
	{ "dotnet/runtime-deps", { MCR "dotnet/runtime-deps", NULL, NULL },
	  WG_TAGS_NONE, WG_COL_NONE, false, false, NULL, NULL,
	  MCR "dotnet/runtime-deps:8.0",
	  "Linux images only (dotnet/dotnet-docker publishes no Windows "
	  "variant of it)" },
	{ "powershell", { MCR "powershell", NULL, NULL }, WG_TAGS_VARIANT,
	  WG_COL_NONE, false, false, NULL, NULL,
	  MCR "powershell:lts-nanoserver-1809",
	  "multi-platform; Windows by its variant tags" },
	{ "oss/kubernetes/pause",
	  { MCR "oss/kubernetes/pause", "registry.k8s.io/pause", NULL },
	  WG_TAGS_NONE, WG_COL_NONE, false, true, NULL, NULL,
	  MCR "oss/kubernetes/pause:3.6",
	  "one multi-platform manifest for every Windows build" },
	{ "HostProcess base image",
	  { MCR "oss/kubernetes/"
	    "windows-host-process-containers-base-image", NULL, NULL },
	  WG_TAGS_NONE, WG_COL_NONE, true, true, NULL, NULL,
	  MCR "oss/kubernetes/windows-host-process-containers-base-image:"
	  "v1.0.0", "HostProcess containers: runs on every build" },
	{ NULL, { NULL, NULL, NULL }, 0, WG_COL_NONE, false, false, NULL, NULL,
	  NULL, NULL },
};

/* The variant words of the generic suffix rule, and the column of the
 * base image each is built on. */
static const struct {
	const char *word;
	enum wg_tag_column column;
} variants[] = {
	{ "windowsservercore", WG_COL_SERVERCORE },
	{ "nanoserver", WG_COL_NANOSERVER },
	{ "servercore", WG_COL_SERVERCORE },
	{ "windows", WG_COL_SERVERCORE },
};
#define NVARIANTS (sizeof(variants) / sizeof(*variants))

static const char *const arches[] = { "amd64", "arm64" };

const char *wg_release_tag(const struct wg_release *r,
			   enum wg_tag_column column)
{
	if (!r)
		return NULL;
	switch (column) {
	case WG_COL_SERVERCORE:
		return r->servercore;
	case WG_COL_NANOSERVER:
		return r->nanoserver;
	case WG_COL_SERVER:
		return r->server;
	case WG_COL_NONE:
		break;
	}
	return NULL;
}

static bool same(const char *s, size_t len, const char *want)
{
	return want && strlen(want) == len && strncasecmp(s, want, len) == 0;
}

/* The release whose base images are tagged s (any column). */
static const struct wg_release *release_word(const char *s, size_t len)
{
	for (const struct wg_release *r = wg_releases; r->name; r++)
		if (same(s, len, r->servercore) || same(s, len, r->nanoserver)
		    || same(s, len, r->server))
			return r;
	return NULL;
}

/* "10.0.N" or "10.0.N.R": the release of build N, or NULL. */
static const struct wg_release *full_version(const char *s, size_t len)
{
	char buf[32];
	char *end;
	unsigned long n;

	if (len >= sizeof(buf) || len < 6 || strncmp(s, "10.0.", 5) != 0
	    || !isdigit((unsigned char)s[5]))
		return NULL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	n = strtoul(buf + 5, &end, 10);
	if (*end == '.' && isdigit((unsigned char)end[1]))
		end += 1 + strspn(end + 1, "0123456789");
	if (*end || n > 99999)
		return NULL;
	return wg_release_by_number((unsigned)n);
}

/* Length of a "-KB1234567" suffix ending s[0..len), or 0. */
static size_t kb_suffix(const char *s, size_t len)
{
	size_t d = 0;

	while (d < len && isdigit((unsigned char)s[len - 1 - d]))
		d++;
	if (!d || len < d + 3
	    || strncasecmp(s + len - d - 3, "-KB", 3) != 0)
		return 0;
	return d + 3;
}

/* Whether name is repo, or ends with "/" and repo's path (its part after
 * a registry host: a component with a '.' or ':'), as a mirror does. */
static bool repo_is(const char *name, size_t len, const char *repo)
{
	const char *path = repo, *slash = strchr(repo, '/');
	size_t n;

	if (same(name, len, repo))
		return true;
	if (slash && memchr(repo, '.', (size_t)(slash - repo)))
		path = slash + 1;
	n = strlen(path);
	return len > n && name[len - n - 1] == '/'
	       && strncasecmp(name + len - n, path, n) == 0;
}

static const struct wg_image_family *family_of(const char *name, size_t len)
{
	const struct wg_image_family *best = NULL;
	size_t best_len = 0;

	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++) {
		for (size_t i = 0; i < 3 && f->repos[i]; i++) {
			size_t n = strlen(f->repos[i]);

			if (repo_is(name, len, f->repos[i]) && n > best_len) {
				best = f;
				best_len = n;
			}
		}
	}
	return best;
}

static const struct wg_image_family *family_named(const char *name)
{
	for (const struct wg_image_family *f = wg_image_families; f->name;
	     f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

/*
 * The release the tag (at tag_at, tag_len bytes of s) names, into ref.
 * release_tags: a bare release tag counts (a base image's repository);
 * versions: a full version 10.0.N(.R) counts.
 */
static void parse_tag(const char *s, struct wg_image_ref *ref,
		      bool release_tags, bool versions)
{
	const char *tag = s + ref->tag_at;
	size_t len = ref->tag_len, kb;

	for (size_t i = 0; i < 2; i++) {
		size_t n = strlen(arches[i]) + 1;

		if (len > n && tag[len - n] == '-'
		    && strncasecmp(tag + len - n + 1, arches[i], n - 1) == 0) {
			ref->arch = arches[i];
			ref->arch_at = ref->tag_at + len - n;
			ref->arch_len = n;
			len -= n;
			break;
		}
	}
	if (versions && (ref->release = full_version(tag, len))) {
		ref->rel_at = ref->tag_at;
		ref->rel_len = len;
		ref->patch = true;
		return;
	}
	/* the generic suffix rule: <anything>-<variant>-<release> */
	for (size_t i = 0; i < NVARIANTS; i++) {
		size_t wl = strlen(variants[i].word);

		for (size_t at = 0; at + wl + 1 < len; at++) {
			const char *w = tag + at + wl + 1;
			size_t rest = len - at - wl - 1;
			const struct wg_release *r;

			if ((at && tag[at - 1] != '-')
			    || strncasecmp(tag + at, variants[i].word, wl)
			    || tag[at + wl] != '-')
				continue;
			kb = kb_suffix(w, rest);
			r = release_word(w, rest - kb);
			if (!r)
				continue;
			ref->release = r;
			ref->variant = variants[i].word;
			ref->rel_at = (size_t)(w - s);
			ref->rel_len = rest - kb;
			ref->patch = kb != 0;
			return;
		}
	}
	if (!release_tags)
		return;
	kb = kb_suffix(tag, len);
	if ((ref->release = release_word(tag, len - kb))) {
		ref->rel_at = ref->tag_at;
		ref->rel_len = len - kb;
		ref->patch = kb != 0;
	}
}

void wg_image_parse(const char *s, size_t len, struct wg_image_ref *ref)
{
	const char *at = memchr(s, '@', len), *colon = NULL;
	size_t end = at ? (size_t)(at - s) : len;
	const struct wg_image_family *f;

	memset(ref, 0, sizeof(*ref));
	ref->digest = at != NULL;
	for (size_t i = end; i > 0; i--) {
		if (s[i - 1] == '/')
			break;
		if (s[i - 1] == ':') {
			colon = s + i - 1;
			break;
		}
	}
	ref->name_len = colon ? (size_t)(colon - s) : end;
	if (colon) {
		ref->tag_at = (size_t)(colon - s) + 1;
		ref->tag_len = end - ref->tag_at;
	}
	f = ref->family = family_of(s, ref->name_len);
	if (ref->tag_len)
		parse_tag(s, ref, f && f->form == WG_TAGS_RELEASE,
			  f && f->windows);
	ref->windows = ref->release || (f && f->windows);
}

const struct wg_release *wg_image_release(const char *image, size_t len)
{
	struct wg_image_ref ref;

	wg_image_parse(image, len, &ref);
	return ref.release;
}

const struct wg_release *wg_release_for_tag(const char *tag)
{
	struct wg_image_ref ref;

	if (!tag)
		return NULL;
	memset(&ref, 0, sizeof(ref));
	ref.tag_len = strlen(tag);
	parse_tag(tag, &ref, true, true);
	return ref.release;
}

enum wg_image_fit wg_image_fit(const struct wg_image_ref *ref,
			       const struct wg_release *host,
			       const char *arch)
{
	if (ref->release && host && !wg_release_can_run(host, ref->release))
		return WG_FIT_RELEASE;
	if (ref->arch && arch && strcmp(ref->arch, arch) != 0)
		return WG_FIT_ARCH;
	return ref->release ? WG_FIT_RUNS : WG_FIT_ANY;
}

/* The tag host gets in column: its own, else (23H2: no images of its own)
 * the newest one its hosts run. */
static const struct wg_release *tag_release(const struct wg_release *host,
					    enum wg_tag_column column)
{
	const struct wg_release *best = NULL;

	if (wg_release_tag(host, column))
		return host;
	for (const struct wg_release *o = wg_releases; o->name; o++)
		if (wg_release_tag(o, column) && wg_release_can_run(host, o))
			best = o;
	return best;
}

static bool published(const struct wg_fx_version *v,
		      const struct wg_release *r)
{
	for (size_t i = 0; i < 5 && v->releases[i]; i++)
		if (strcmp(v->releases[i], r->name) == 0)
			return true;
	return false;
}

static const struct wg_fx_version *fx_find(const struct wg_fx_version *t,
					   const char *s, size_t len)
{
	for (; t && t->version; t++)
		if (same(s, len, t->version))
			return t;
	return NULL;
}

struct edit {
	size_t at, len;
	const char *text;
};

static const char *apply(struct wg_arena *a, const char *s, size_t len,
			 struct edit *e, size_t n)
{
	size_t total = len + 1, pos = 0;
	char *out, *o;

	/* edits are given in order and do not overlap */
	for (size_t i = 0; i < n; i++)
		total += strlen(e[i].text);
	o = out = wg_arena_alloc(a, total);
	for (size_t i = 0; i < n; i++) {
		memcpy(o, s + pos, e[i].at - pos);
		o += e[i].at - pos;
		memcpy(o, e[i].text, strlen(e[i].text));
		o += strlen(e[i].text);
		pos = e[i].at + e[i].len;
	}
	memcpy(o, s + pos, len - pos);
	o[len - pos] = '\0';
	return out;
}

static enum wg_tag_column column_of(const struct wg_image_ref *ref)
{
	for (size_t i = 0; ref->variant && i < NVARIANTS; i++)
		if (strcmp(variants[i].word, ref->variant) == 0)
			return variants[i].column;
	return ref->family ? ref->family->column : WG_COL_SERVERCORE;
}

int wg_image_rewrite(struct wg_arena *a, const char *s, size_t len,
		     const struct wg_release *host, const char *arch,
		     const char **out, const char **why)
{
	struct wg_image_ref ref;
	enum wg_image_fit fit;
	struct edit e[4];
	size_t n = 0;
	const struct wg_image_family *f;
	const struct wg_release *to = NULL;
	const char *fam;
	bool retag;

	*out = NULL;
	*why = NULL;
	wg_image_parse(s, len, &ref);
	fit = wg_image_fit(&ref, host, arch);
	if (fit == WG_FIT_ANY || fit == WG_FIT_RUNS)
		return 0;
	f = ref.family;
	fam = f ? f->name : "the variant tag rule";
	if (ref.digest) {
		*why = wg_arena_printf(a, "a digest pins its bytes");
		return -1;
	}
	/* an arm64 copy of an image of a release without arm64 images
	 * (nanoserver:ltsc2022-amd64 for an arm64 ltsc2025 host) needs the
	 * host's tag too: "ltsc2022-arm64" is no tag Microsoft publishes */
	retag = fit == WG_FIT_RELEASE
		|| (fit == WG_FIT_ARCH && ref.release && arch
		    && strcmp(arch, "arm64") == 0
		    && !wg_release_arm64_images(ref.release));
	if (retag && ref.patch) {
		*why = wg_arena_printf(a, "tag '%.*s' pins one patch of %s, "
				       "and which patch of %s to take is not "
				       "known", (int)ref.tag_len,
				       s + ref.tag_at, ref.release->name,
				       host->name);
		return -1;
	}
	if (retag) {
		enum wg_tag_column col = column_of(&ref);
		const struct wg_image_family *succ =
			f && f->successor ? family_named(f->successor) : NULL;

		to = tag_release(host, col);
		/* the full windows image ends with 20H2: windows/server
		 * carries it on */
		if (succ && (!to || to->number >= 20348u)) {
			const char *repo = succ->repos[0];
			const char *path = strchr(repo, '/') + 1;
			const char *old = f->repos[0];
			size_t olen = strlen(strchr(old, '/') + 1);

			col = succ->column;
			to = tag_release(host, col);
			if (to && ref.name_len >= olen) {
				e[n++] = (struct edit){ ref.name_len - olen,
							olen, path };
				fam = succ->name;
			}
		}
		if (!to) {
			*why = wg_arena_printf(a, "%s has no tag for %s", fam,
					       host->name);
			return -1;
		}
		if (arch && strcmp(arch, "arm64") == 0 && ref.arch
		    && !wg_release_arm64_images(to)) {
			*why = wg_arena_printf(a, "%s has no arm64 images "
					       "for %s", fam, to->name);
			return -1;
		}
		if (f && f->versions && ref.variant) {
			const char *tag = s + ref.tag_at;
			size_t vl = strcspn(tag, "-");
			const struct wg_fx_version *v =
				fx_find(f->versions, tag, vl);

			if (v && !published(v, to)) {
				const struct wg_fx_version *next =
					v->successor ? fx_find(f->versions,
						v->successor,
						strlen(v->successor)) : NULL;

				if (!next || !published(next, to)) {
					*why = wg_arena_printf(a, ".NET "
						"Framework %s is not published "
						"for %s", v->version, to->name);
					return -1;
				}
				e[n++] = (struct edit){ ref.tag_at, vl,
							next->version };
			}
		}
		e[n++] = (struct edit){ ref.rel_at, ref.rel_len,
					wg_release_tag(to, col) };
	}
	if (ref.arch && arch && strcmp(ref.arch, arch) != 0)
		e[n++] = (struct edit){ ref.arch_at, ref.arch_len,
					wg_arena_printf(a, "-%s", arch) };
	*out = apply(a, s, len, e, n);
	if (retag)
		*why = wg_arena_printf(a, "built for %s, rewritten for %s",
				       ref.release->name, to->name);
	if (ref.arch && arch && strcmp(ref.arch, arch) != 0)
		*why = wg_arena_printf(a, "%s%sarch %s rewritten for %s",
				       *why ? *why : "", *why ? ", " : "",
				       ref.arch, arch);
	*why = wg_arena_printf(a, "%s (%s)", *why, fam);
	return 1;
}

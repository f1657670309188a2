#ifndef WINGEN_IMAGES_H
#define WINGEN_IMAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "wingen/base/arena.h"
#include "wingen/k8s/catalog.h"

/*
 * Microsoft's image families and the one tag grammar: the one place that
 * says whether an image is a Windows image, which release and arch it is
 * built for, and how to write it for another build.  Selection (the
 * decision of core/select.h), the compatibility errors, fan-out,
 * retarget and the unknown-kind detector read images only through here;
 * nothing else parses a tag.
 *
 * A reference is [registry/]path[:tag][@digest].  Its family is the entry
 * whose repository path it is, or ends with after a '/' (so a mirror such
 * as myacr.azurecr.io/mirror/windows/servercore is servercore).
 *
 * The tag is read as words, split at '-' and '_', case-insensitive, for
 * ANY repository (contoso.azurecr.io/shop/orders:2.4.1-ltsc2022 names
 * ltsc2022).  The first release named counts:
 *   ltsc2016 ltsc2019 ltsc2022 ltsc2025      anywhere in the tag
 *   ltsc-2019 ... ltsc-2025                   anywhere (New Relic's)
 *   10.0.NNNNN[.R], NNNNN a known build       anywhere: pins one patch
 *   1709 1803 1809 1903 1909 2004 20H2, and  right after a Windows word
 *     ltsc2019 ... (a base image's tag)       (nanoserver-1809, windows-
 *   2016 2019 2022 2025 (an LTSC's year)      2019), or as the first word
 *                                             of a base image family's tag
 *                                             (servercore:1809); alone on
 *                                             another repository a number
 *                                             is a version (myapp:1809)
 *   windows2022 win2019 windowsltsc2025: a   anywhere (v2025.7-windows2022)
 *     Windows word and an LTSC in one word
 *   KB<digits> right after the release        pins one patch
 * Windows words: windowsservercore, servercore, nanoserver, windows, win,
 * ltsc, hostprocess.  The last word amd64 or arm64 names the arch.
 *
 * An image is a Windows image (windows true) when, in this order: its
 * family is one of Windows images, or its repository is under
 * mcr.microsoft.com/windows/ or mcr.microsoft.com/dotnet/framework/; its
 * tag names a release or has a Windows word; or the last component of its
 * name has one (windows-exporter, cyclonus-windows, kruise-daemon-win,
 * envoy-build-windows2019: a release there counts when the tag names
 * none, with no known rewrite).
 * A Windows image that names no release (golang:1.22-windowsservercore,
 * v1.30.0-calico-hostprocess) may run on any build: nothing to judge.
 * Multi-platform images (pause:3.9, nginx) are not Windows images.
 */

/* How a family's tags name a release. */
enum wg_tag_form {
	WG_TAGS_RELEASE = 1,	/* servercore:ltsc2019 */
	WG_TAGS_VARIANT,	/* aspnet:4.8-windowsservercore-ltsc2019 */
	WG_TAGS_NONE,		/* pause:3.6: one multi-platform manifest */
};

/* Which column of struct wg_release a family's release tags are. */
enum wg_tag_column {
	WG_COL_NONE = 0,
	WG_COL_SERVERCORE,
	WG_COL_NANOSERVER,
	WG_COL_SERVER,
};

/* A .NET Framework version, and the releases it is published for. */
struct wg_fx_version {
	const char *version;		/* "4.8" */
	const char *releases[5];	/* release names, NULL-ended */
	const char *successor;		/* the in-place update that takes
					   its place where it is missing */
};

struct wg_image_family {
	const char *name;	/* "windows/servercore/iis" */
	const char *repos[3];	/* repository paths it is known by:
				   "mcr.microsoft.com/windows/servercore",
				   "microsoft/windowsservercore" */
	enum wg_tag_form form;
	enum wg_tag_column column;	/* release tags, or the variant's */
	bool windows;		/* every image of it is a Windows image */
	bool any_build;		/* runs on every Windows build (HostProcess
				   base image, multi-platform pause) */
	const struct wg_fx_version *versions;	/* NULL: any version */
	const char *successor;	/* the family whose tags go on for releases
				   this one has none for (windows ->
				   windows/server), or NULL */
	const char *example;	/* one image of it */
	const char *note;
};

/* Every family, ended by an entry with name NULL. */
extern const struct wg_image_family wg_image_families[];

/* How a tag spells its release (rewrites keep the spelling). */
enum wg_spelling {
	WG_SPELL_NONE = 0,
	WG_SPELL_TAG,		/* a base image's tag: ltsc2019, 1809, 20H2 */
	WG_SPELL_LTSC_DASH,	/* ltsc-2019 */
	WG_SPELL_YEAR,		/* 2019, after a Windows word */
	WG_SPELL_BUILD,		/* 10.0.17763[.R] */
};

/* What says an image is a Windows image. */
enum wg_windows_by {
	WG_BY_NONE = 0,		/* nothing: not a Windows image */
	WG_BY_FAMILY,		/* its repository */
	WG_BY_TAG,		/* a release or a Windows word of its tag */
	WG_BY_NAME,		/* a Windows word of its name */
};

/* What a reference says.  Offsets point into the text parsed. */
struct wg_image_ref {
	size_t name_len;	/* [registry/]path */
	size_t tag_at, tag_len;	/* the tag; tag_len 0 when none */
	size_t rel_at, rel_len;	/* the release's words ("ltsc-2022") */
	size_t arch_at, arch_len;	/* the arch word, without its dash */
	size_t word_at, word_len;	/* what says Windows (by) */
	bool digest;		/* @sha256:...: the bytes are pinned */
	const struct wg_image_family *family;	/* NULL: not a family */
	const struct wg_release *release;	/* NULL: names none */
	enum wg_spelling spelling;	/* how the release is written */
	const char *variant;	/* the Windows word just before the release
				   ("windowsservercore", "nanoserver",
				   "windows"): the base it is tagged after;
				   NULL otherwise */
	const char *arch;	/* "amd64", "arm64", or NULL: not named */
	bool patch;		/* pins one patch (KB or full version) */
	bool windows;		/* a Windows image (by != WG_BY_NONE) */
	enum wg_windows_by by;
};

/* Parses len bytes of image.  Never fails: a reference that names no
 * release has release NULL. */
void wg_image_parse(const char *image, size_t len, struct wg_image_ref *out);

/* Why image (parsed into ref) is a Windows image, for messages: "tag
 * 'windows-ltsc-2022': ltsc2022" (the release when the words spell it
 * otherwise), "tag 'ltsc2022'", "tag 'hostprocess'", "name 'windows'",
 * "its repository"; NULL when it is not one.  In arena (or static). */
const char *wg_image_windows_why(struct wg_arena *arena, const char *image,
				 const struct wg_image_ref *ref);

/* The release image names, or NULL. */
const struct wg_release *wg_image_release(const char *image, size_t len);

/* The release a bare tag names as a base image's tag would ("ltsc2019",
 * "1809-amd64", "nanoserver-1809", "10.0.17763.5458"), or NULL. */
const struct wg_release *wg_release_for_tag(const char *tag);

/* Whether a host of release host and arch (NULL: any) runs the image,
 * with the isolation its containerd runtime handler gives (catalog.h
 * wg_handler_can_run; NULL: process isolation). */
enum wg_image_fit {
	WG_FIT_ANY = 0,		/* names no release: nothing to judge */
	WG_FIT_RUNS,		/* names a release the host runs */
	WG_FIT_RELEASE,		/* built for a release the host cannot run
				   with the handler's isolation */
	WG_FIT_ARCH,		/* built for another architecture */
};
enum wg_image_fit wg_image_fit(const struct wg_image_ref *ref,
			       const struct wg_release *host,
			       const char *arch, const char *handler);

/*
 * The image as a host of release host and arch, whose pods run with
 * runtime handler handler (NULL: process isolation), needs it.
 *  1  *out is the rewritten reference (in arena), *why says what changed
 *     ("tag ltsc2019 -> ltsc2022 (windows/servercore)"); the release is
 *     written as the image wrote it (ltsc-2019 -> ltsc-2022, windows-2019
 *     -> windows-2022), the arch word replaced;
 *  0  the image runs there as it is, or names no release: *out = NULL;
 * -1  it names a release or arch the host cannot run and there is no
 *     known rewrite (a digest, a patch tag, a .NET Framework version not
 *     published for host, a family with no tag for it, a release word
 *     with no Windows word before it on a repository that is no family):
 *     *why says why.
 * From the same input the same output: fan-out and retarget agree.
 */
int wg_image_rewrite(struct wg_arena *arena, const char *image, size_t len,
		     const struct wg_release *host, const char *arch,
		     const char *handler, const char **out,
		     const char **why);

/* The tag of release r in column (NULL when r has none). */
const char *wg_release_tag(const struct wg_release *r,
			   enum wg_tag_column column);

#endif

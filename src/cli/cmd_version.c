/*
 * wingen version: wingen's own version and, for each library it links,
 * the version it was built with and the one it runs with.  They differ
 * when a shared library was upgraded (or downgraded) under the binary,
 * which is the first thing to know about a bug report.
 */
#include <stdio.h>
#include <string.h>

#include <cyaml/cyaml.h>
#include <pcre2.h>
#include <yaml.h>

#include "cli.h"

/* libyaml's and libcyaml's headers carry no version macro, so the build
 * passes what pkg-config found (CMakeLists.txt); PCRE2's come from pcre2.h. */
#ifndef WINGEN_BUILT_LIBYAML
#define WINGEN_BUILT_LIBYAML "unknown"
#endif
#ifndef WINGEN_BUILT_LIBCYAML
#define WINGEN_BUILT_LIBCYAML "unknown"
#endif
#define WG_STR2(x) #x
#define WG_STR(x) WG_STR2(x)

/* "10.42 2022-12-11" from pcre2_config: the running library's version. */
static void pcre2_running(char *out, size_t size)
{
	char buf[64] = "";
	int n = pcre2_config(PCRE2_CONFIG_VERSION, NULL);
	if (n > 0 && (size_t)n <= sizeof(buf))
		pcre2_config(PCRE2_CONFIG_VERSION, buf);
	snprintf(out, size, "%s", buf[0] ? buf : "unknown");
}

int wg_cmd_version(int argc, char **argv)
{
	if (argc > 1 && (strcmp(argv[1], "--help") == 0
			 || strcmp(argv[1], "-h") == 0))
		return wg_print_help("version");
	if (argc > 1)
		return wg_usage_error("version", "unexpected argument '%s'",
				      argv[1]);
	char pcre[64];
	pcre2_running(pcre, sizeof(pcre));
	/* cyaml_version: 0bR0000000JJJJJJJJNNNNNNNNPPPPPPPP (cyaml.h). */
	unsigned cv = (unsigned)cyaml_version;
	printf("wingen %s\n", WINGEN_VERSION);
	printf("%-9s built with %-10s running %s\n", "libyaml",
	       WINGEN_BUILT_LIBYAML, yaml_get_version_string());
	printf("%-9s built with %-10s running %u.%u.%u\n", "libcyaml",
	       WINGEN_BUILT_LIBCYAML, (cv >> 16) & 0xffu, (cv >> 8) & 0xffu,
	       cv & 0xffu);
	printf("%-9s built with %-10s running %s\n", "PCRE2",
	       WG_STR(PCRE2_MAJOR) "." WG_STR(PCRE2_MINOR), pcre);
	return WG_EXIT_OK;
}

#include "wingen/yaml/scalar.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Two readers matter.  kubectl reads YAML through go-yaml v2 (YAML 1.1
 * flavoured): it is what wingen's output must survive, and what -o json
 * mirrors.  Other tools (go-yaml v3, kpt's kyaml, PyYAML, ruamel) read
 * YAML 1.2 or the 1.1 spec to the letter.  Generated strings are quoted
 * when any of them would read something other than a string.
 */

static bool eq(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && memcmp(s, lit, len) == 0;
}

static bool one_of(const char *s, size_t len, const char *const *set)
{
	for (; *set; set++)
		if (eq(s, len, *set))
			return true;
	return false;
}

static const char *const nulls[] = { "~", "null", "Null", "NULL", NULL };
static const char *const bools11[] = {
	"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
	"true", "True", "TRUE", "false", "False", "FALSE",
	"on", "On", "ON", "off", "Off", "OFF", NULL,
};
static const char *const bools12[] = {
	"true", "True", "TRUE", "false", "False", "FALSE", NULL,
};
static const char *const infnan[] = {
	".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
	"-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN", NULL,
};

static bool all_in(const char *s, size_t len, const char *set)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr(set, s[i]) || !s[i])
			return false;
	return true;
}

/* Copies s without '_' into out (NUL-terminated); false if too long. */
static bool strip_underscores(const char *s, size_t len, char *out,
			      size_t outsz)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '_')
			continue;
		if (n + 1 >= outsz)
			return false;
		out[n++] = s[i];
	}
	out[n] = '\0';
	return true;
}

/* go-yaml v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool float_v2(const char *s)
{
	const char *p = s;

	if (*p == '+' || *p == '-')
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	} else {
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
		if (*p == '.') {
			p++;
			while (isdigit((unsigned char)*p))
				p++;
		}
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return false;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return *p == '\0';
}

/* Go's strconv.ParseInt/ParseUint(s, 0, 64) succeeding. */
static bool int_v2(const char *s)
{
	const char *p = s;
	int base = 10;

	if (*p == '+' || *p == '-')
		p++;
	if (!*p)
		return false;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
		base = 8;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		base = 2;
		p += 2;
	} else if (p[0] == '0' && p[1]) {
		base = 8;
		p += 1;
	}
	if (!*p || *p == '+' || *p == '-')
		return false;
	for (const char *q = p; *q; q++) {
		int d = isdigit((unsigned char)*q) ? *q - '0'
			: isalpha((unsigned char)*q)
			? tolower((unsigned char)*q) - 'a' + 10 : 99;
		if (d >= base)
			return false;
	}
	/* Out of 64-bit range go-yaml falls back to float: the digits are
	 * still a number, and the JSON writer keeps them exact. */
	return true;
}

/*
 * Most scalars are words: longer than any null, bool or .inf spelling (5)
 * and not starting like a number.  Those are strings at once.
 */
static bool plainly_a_word(const char *s, size_t len)
{
	return len > 5 && !strchr("+-.0123456789", s[0]);
}

enum wg_scalar_type wg_resolve_yaml11(const char *s, size_t len)
{
	char tmp[128];

	if (len && plainly_a_word(s, len))
		return WG_TYPE_STR;
	if (len == 0 || one_of(s, len, nulls))
		return WG_TYPE_NULL;
	if (one_of(s, len, bools11))
		return WG_TYPE_BOOL;
	if (eq(s, len, "<<"))
		return WG_TYPE_MERGE;
	if (one_of(s, len, infnan))
		return WG_TYPE_FLOAT;
	if (!strchr("+-.0123456789", s[0]))
		return WG_TYPE_STR;
	if (memchr(s, '\0', len) || !strip_underscores(s, len, tmp, sizeof(tmp))) {
		/* Very long digit strings: decide on the digits alone. */
		if (all_in(s[0] == '-' || s[0] == '+' ? s + 1 : s,
			   s[0] == '-' || s[0] == '+' ? len - 1 : len,
			   "0123456789"))
			return WG_TYPE_INT;
		return WG_TYPE_STR;
	}
	if (!tmp[0])
		return WG_TYPE_STR;
	if (int_v2(tmp))
		return WG_TYPE_INT;
	if (float_v2(tmp))
		return WG_TYPE_FLOAT;
	if (len >= 10 && isdigit((unsigned char)s[0]) && s[4] == '-') {
		/* go-yaml v2 takes 2006-01-02 and its RFC 3339 forms. */
		if (isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2])
		    && isdigit((unsigned char)s[3]) && isdigit((unsigned char)s[5])
		    && isdigit((unsigned char)s[6]) && s[7] == '-'
		    && isdigit((unsigned char)s[8]) && isdigit((unsigned char)s[9]))
			return WG_TYPE_TIMESTAMP;
	}
	return WG_TYPE_STR;
}

enum wg_scalar_type wg_resolve_yaml12(const char *s, size_t len)
{
	size_t i = 0;

	if (len && plainly_a_word(s, len))
		return WG_TYPE_STR;
	if (len == 0 || one_of(s, len, nulls))
		return WG_TYPE_NULL;
	if (one_of(s, len, bools12))
		return WG_TYPE_BOOL;
	if (one_of(s, len, infnan))
		return WG_TYPE_FLOAT;
	if (len > 2 && s[0] == '0' && s[1] == 'o' && all_in(s + 2, len - 2, "01234567"))
		return WG_TYPE_INT;
	if (len > 2 && s[0] == '0' && s[1] == 'x'
	    && all_in(s + 2, len - 2, "0123456789abcdefABCDEF"))
		return WG_TYPE_INT;
	if (s[0] == '-' || s[0] == '+')
		i = 1;
	if (i < len && all_in(s + i, len - i, "0123456789"))
		return WG_TYPE_INT;
	if (len < 128 && !memchr(s, '\0', len)) {
		char tmp[128];

		memcpy(tmp, s, len);
		tmp[len] = '\0';
		if (float_v2(tmp))
			return WG_TYPE_FLOAT;
	}
	return WG_TYPE_STR;
}

/*
 * The YAML 1.1 spec's own regular expressions, broader than go-yaml's:
 * sexagesimal numbers (1:20), floats with several dots (10.0.17763),
 * binary, timestamps with any digit count.  Only used to decide quoting.
 */
static bool spec11_number_like(const char *s, size_t len)
{
	size_t i = 0;
	bool digit = false, colon = false, dot = false;

	if (s[0] == '-' || s[0] == '+')
		i = 1;
	if (i == len)
		return false;
	for (; i < len; i++) {
		char c = s[i];

		if (isdigit((unsigned char)c) || c == '_')
			digit = digit || isdigit((unsigned char)c);
		else if (c == ':')
			colon = true;
		else if (c == '.')
			dot = true;
		else if ((c == 'e' || c == 'E') && dot && i + 1 < len
			 && (s[i + 1] == '-' || s[i + 1] == '+'))
			i++;
		else
			return false;
	}
	return digit || (dot && !colon && len > 1);
}

static bool spec11_timestamp_like(const char *s, size_t len)
{
	return len >= 8 && isdigit((unsigned char)s[0])
	       && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2])
	       && isdigit((unsigned char)s[3]) && s[4] == '-';
}

static bool contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);

	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return true;
	return false;
}

static bool plain_safe(const char *s, size_t len)
{
	unsigned char c0 = (unsigned char)s[0];

	if (strchr("-?:,[]{}#&*!|>'\"%@`", c0) || isspace(c0))
		return false;
	if (isspace((unsigned char)s[len - 1]) || s[len - 1] == ':')
		return false;
	bool ascii = true;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
		if (c == ':' && i + 1 < len && isspace((unsigned char)s[i + 1]))
			return false;
		if (c == '#' && i > 0 && isspace((unsigned char)s[i - 1]))
			return false;
		ascii = ascii && c < 0x80;
	}
	/* UTF-8 BOM and non-breaking/line separators confuse some readers. */
	if (!ascii && (contains(s, len, "\xef\xbb\xbf")
		       || contains(s, len, "\xc2\x85")
		       || contains(s, len, "\xe2\x80\xa8")
		       || contains(s, len, "\xe2\x80\xa9")))
		return false;
	return true;
}

bool wg_scalar_needs_quotes(const char *s, size_t len)
{
	if (len == 0)
		return true;
	if (!plain_safe(s, len))
		return true;
	if (wg_resolve_yaml11(s, len) != WG_TYPE_STR
	    || wg_resolve_yaml12(s, len) != WG_TYPE_STR)
		return true;
	if (eq(s, len, "=") || spec11_number_like(s, len)
	    || spec11_timestamp_like(s, len))
		return true;
	return false;
}

/* Appends a JSON number for an integer text (sign, base prefix, '_'). */
static void int_to_json(struct wg_buf *out, const char *tmp)
{
	const char *p = tmp;
	bool neg = false;
	int base = 10;
	uint64_t v = 0;
	bool overflow = false;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O'))
		base = 8, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && p[1])
		base = 8, p += 1;
	for (const char *q = p; *q; q++) {
		unsigned d = isdigit((unsigned char)*q)
			? (unsigned)(*q - '0')
			: (unsigned)(tolower((unsigned char)*q) - 'a' + 10);
		if (v > (UINT64_MAX - d) / (uint64_t)base)
			overflow = true;
		v = v * (uint64_t)base + d;
	}
	if (overflow && base == 10) {
		/* Keep every digit: JSON numbers have no size limit. */
		while (p[0] == '0' && p[1])
			p++;
		if (neg)
			wg_buf_addch(out, '-');
		wg_buf_addstr(out, p);
		return;
	}
	if (overflow) {
		wg_buf_addch(out, '"');
		wg_buf_addstr(out, tmp);
		wg_buf_addch(out, '"');
		return;
	}
	if (neg && v)
		wg_buf_addch(out, '-');
	wg_buf_addf(out, "%" PRIu64, v);
}

/* Appends a JSON number for a float text matching float_v2(). */
static void float_to_json(struct wg_buf *out, const char *tmp)
{
	const char *p = tmp;
	const char *frac, *exp;

	if (*p == '+')
		p++;
	else if (*p == '-')
		wg_buf_addch(out, *p++);
	frac = p;
	while (isdigit((unsigned char)*frac))
		frac++;
	/* integer part without leading zeros, at least one digit */
	while (p < frac - 1 && *p == '0')
		p++;
	if (p == frac)
		wg_buf_addch(out, '0');
	else
		wg_buf_add(out, p, (size_t)(frac - p));
	exp = frac;
	if (*exp == '.') {
		exp++;
		while (isdigit((unsigned char)*exp))
			exp++;
		if (exp - frac > 1)
			wg_buf_add(out, frac, (size_t)(exp - frac));
	}
	if (*exp)
		wg_buf_addstr(out, exp);
	else if (tmp[0] == '-' && (p == frac || (*p == '0' && p + 1 == frac))
		 && exp - frac <= 1)
		/* "-0." as "-0" would read back as the integer 0 */
		wg_buf_addstr(out, ".0");
}

int wg_scalar_to_json(struct wg_buf *out, const char *s, size_t len)
{
	char tmp[128];

	switch (wg_resolve_yaml11(s, len)) {
	case WG_TYPE_NULL:
		wg_buf_addstr(out, "null");
		return 0;
	case WG_TYPE_BOOL:
		wg_buf_addstr(out, strchr("yYtToO", s[0]) && !(len > 1 &&
			      (s[1] == 'f' || s[1] == 'F')) ? "true" : "false");
		return 0;
	case WG_TYPE_INT:
		if (strip_underscores(s, len, tmp, sizeof(tmp))) {
			int_to_json(out, tmp);
		} else {
			/* a long run of decimal digits */
			size_t i = 0;

			if (s[0] == '+')
				i = 1;
			else if (s[0] == '-')
				wg_buf_addch(out, '-'), i = 1;
			while (i + 1 < len && s[i] == '0')
				i++;
			wg_buf_add(out, s + i, len - i);
		}
		return 0;
	case WG_TYPE_FLOAT:
		if (one_of(s, len, infnan))
			return -1;
		strip_underscores(s, len, tmp, sizeof(tmp));
		float_to_json(out, tmp);
		return 0;
	default:
		break;
	}
	wg_json_quote(out, s, len);
	return 0;
}

/*
 * The code point of the UTF-8 sequence at s[i] when YAML cannot hold it
 * raw in a double-quoted scalar: C1 controls (U+0080-U+009F, NEL among
 * them), U+2028, U+2029, U+FFFE and U+FFFF.  0 otherwise.
 */
static unsigned yaml_unsafe(const char *s, size_t len, size_t i)
{
	const unsigned char *u = (const unsigned char *)s + i;

	if (u[0] == 0xc2 && i + 1 < len && u[1] >= 0x80 && u[1] <= 0x9f)
		return u[1];
	if (i + 2 >= len)
		return 0;
	if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9))
		return 0x2000u | (u[2] - 0x80u);
	if (u[0] == 0xef && u[1] == 0xbf && (u[2] == 0xbe || u[2] == 0xbf))
		return 0xff00u | (u[2] - 0x80u + 0xc0u);
	return 0;
}

void wg_json_quote(struct wg_buf *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0;

	wg_buf_grow(out, len + 2);
	wg_buf_addch(out, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char u[7];
		unsigned cp = yaml_unsafe(s, len, i);

		if (cp) {
			/* Valid JSON raw, but a YAML reader (wingen's own)
			 * takes it as a line break or rejects it. */
			wg_buf_add(out, s + run, i - run);
			wg_buf_addf(out, "\\u%04x", cp);
			i += cp < 0x800 ? 1 : 2;
			run = i + 1;
			continue;
		}
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			continue;
		wg_buf_add(out, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\n': esc = "\\n"; break;
		case '\t': esc = "\\t"; break;
		case '\r': esc = "\\r"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		default:
			u[0] = '\\', u[1] = 'u', u[2] = '0', u[3] = '0';
			u[4] = hex[c >> 4], u[5] = hex[c & 15], u[6] = '\0';
			esc = u;
		}
		wg_buf_addstr(out, esc);
	}
	wg_buf_add(out, s + run, len - run);
	wg_buf_addch(out, '"');
}

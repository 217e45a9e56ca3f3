// SPDX-License-Identifier: MIT
/* Did-you-mean for commands, options and event names: an edit distance. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "model/suggest.h"

#define MAXLEN 63

unsigned int mt_suggest_distance(const char *a, const char *b)
{
	/* three rows of the DP table: a swap looks two rows back */
	unsigned int rows[3][MAXLEN + 1];
	size_t la = strnlen(a, MAXLEN), lb = strnlen(b, MAXLEN);
	unsigned int *pp = rows[0], *p = rows[1], *c = rows[2], *t;

	for (size_t j = 0; j <= lb; j++)
		p[j] = (unsigned int)j;
	for (size_t i = 1; i <= la; i++) {
		char ai = (char)tolower((unsigned char)a[i - 1]);

		c[0] = (unsigned int)i;
		for (size_t j = 1; j <= lb; j++) {
			char bj = (char)tolower((unsigned char)b[j - 1]);
			unsigned int v = p[j - 1] + (ai != bj);

			if (p[j] + 1 < v)
				v = p[j] + 1;
			if (c[j - 1] + 1 < v)
				v = c[j - 1] + 1;
			if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == bj && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			c[j] = v;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

const char *mt_suggest(const char *word, const char *const *names, size_t n)
{
	size_t len = strlen(word);
	unsigned int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3, best = limit + 1;
	const char *pick = NULL;
	bool tie = false;

	for (size_t i = 0; i < n; i++) {
		unsigned int d;

		if (!names[i] || !names[i][0])
			continue;
		d = mt_suggest_distance(word, names[i]);
		if (d < best) {
			best = d;
			pick = names[i];
			tie = false;
		} else if (d == best && pick && strcmp(pick, names[i])) {
			tie = true;
		}
	}
	return tie ? NULL : pick;
}

static bool is_sep(char c)
{
	return c == '-' || c == '_' || c == ':';
}

/* The next part of *s, its length; *s moves past it and its separator. */
static size_t next_part(const char **s, const char **part)
{
	size_t len;

	while (**s && is_sep(**s))
		(*s)++;
	*part = *s;
	for (len = 0; (*s)[len] && !is_sep((*s)[len]); len++)
		;
	*s += len;
	return len;
}

static bool has_parts(const char *word, const char *name)
{
	const char *w = word, *nm = name, *wp, *np;
	size_t wl, nl;

	while ((wl = next_part(&w, &wp))) {
		for (;;) {
			nl = next_part(&nm, &np);
			if (!nl)
				return false;
			if (nl == wl && !strncasecmp(wp, np, wl))
				break;
		}
	}
	return true;
}

size_t mt_suggest_parts(const char *word, const char *const *names, size_t n,
			const char **out, size_t max)
{
	const char *w = word, *part;
	size_t parts = 0, found = 0;

	while (next_part(&w, &part))
		parts++;
	if (parts < 2)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!names[i] || !has_parts(word, names[i]))
			continue;
		if (found < max)
			out[found] = names[i];
		found++;
	}
	return found;
}

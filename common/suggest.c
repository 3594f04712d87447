/*
 * suggest.c - the near-miss rule behind every "did you mean" (see
 * suggest.h).  Names are short (keys, paths, metric names), so the
 * distance is the plain dynamic programme with three rows.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/strbuf.h"
#include "common/suggest.h"
#include "common/xalloc.h"

static int
lower(char c)
{
	return tolower((unsigned char)c);
}

size_t
suggest_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best, d;
	size_t *prev2, *prev, *cur, *tmp;

	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	prev2 = xcalloc(lb + 1, sizeof(size_t));
	prev = xcalloc(lb + 1, sizeof(size_t));
	cur = xcalloc(lb + 1, sizeof(size_t));
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		best = cur[0];
		for (j = 1; j <= lb; j++) {
			size_t cost = lower(a[i - 1]) != lower(b[j - 1]);

			d = prev[j] + 1;			/* deletion */
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;		/* insertion */
			if (prev[j - 1] + cost < d)
				d = prev[j - 1] + cost;		/* substitution */
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;		/* swap */
			cur[j] = d;
			if (d < best)
				best = d;
		}
		if (best > limit) {
			/* every later row is at least as far */
			d = limit + 1;
			goto done;
		}
		tmp = prev2;
		prev2 = prev;
		prev = cur;
		cur = tmp;
	}
	d = prev[lb] > limit ? limit + 1 : prev[lb];
done:
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

/* The name without separators and in lower case; the caller frees it. */
static char *
squash(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *p = out;

	for (; *s; s++)
		if (*s != '_' && *s != '-' && *s != '.')
			*p++ = (char)lower(*s);
	*p = '\0';
	return out;
}

/* The largest distance still a near miss between names this long. */
static size_t
threshold(const char *a, const char *b)
{
	size_t l = strlen(a) > strlen(b) ? strlen(a) : strlen(b);
	size_t t = l / 3;

	return t < 1 ? 1 : t > 3 ? 3 : t;
}

bool
suggest_near(const char *typed, const char *candidate)
{
	char *a, *b;
	bool same;

	if (!typed || !candidate || !strcmp(typed, candidate) || !*typed)
		return false;
	a = squash(typed);
	b = squash(candidate);
	same = *a && !strcmp(a, b);
	free(a);
	free(b);
	if (same)
		return true;
	/* the name without its unit or suffix: throughput -> throughput_bps */
	if (strlen(typed) >= 3 && !strncasecmp(candidate, typed, strlen(typed)) &&
	    strchr("_-.", candidate[strlen(typed)]) && candidate[strlen(typed)])
		return true;
	/* one-letter names (P, c) are near everything one letter long */
	if (strlen(typed) < 2 || strlen(candidate) < 2)
		return false;
	return suggest_distance(typed, candidate,
	    threshold(typed, candidate)) <= threshold(typed, candidate);
}

const char *
suggest_best(const char *typed, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t i, d, bestd = (size_t)-1;

	for (i = 0; i < n; i++) {
		if (!names[i] || !suggest_near(typed, names[i]))
			continue;
		d = suggest_distance(typed, names[i], 3);
		/* a separator only is the nearest miss of all */
		{
			char *a = squash(typed), *b = squash(names[i]);

			if (!strcmp(a, b))
				d = 0;
			free(a);
			free(b);
		}
		if (d < bestd) {
			best = names[i];
			bestd = d;
		}
	}
	return best;
}

bool
suggest_append(struct strbuf *sb, const char *typed,
    const char *const *names, size_t n)
{
	const char *best = suggest_best(typed, names, n);

	if (!best)
		return false;
	strbuf_addf(sb, "; did you mean '%s'?", best);
	return true;
}

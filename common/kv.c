/*
 * kv.c - sorted key=value sets and the condition-token grammar.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kv.h"
#include "common/strbuf.h"
#include "common/utf8.h"
#include "common/xalloc.h"

void
kvset_init(struct kvset *s)
{
	s->items = NULL;
	s->n = 0;
	s->alloc = 0;
}

void
kvset_release(struct kvset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->items[i].key);
		free(s->items[i].value);
	}
	free(s->items);
	kvset_init(s);
}

/* Index of key, or -(insertion point) - 1. */
static long
kvset_find(const struct kvset *s, const char *key)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->items[mid].key, key);

		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -(long)lo - 1;
}

void
kvset_set(struct kvset *s, const char *key, const char *value)
{
	long at = kvset_find(s, key);
	size_t pos;

	if (at >= 0) {
		free(s->items[at].value);
		s->items[at].value = xstrdup(value);
		return;
	}
	pos = (size_t)(-at - 1);
	ALLOC_GROW(s->items, s->n + 1, s->alloc);
	memmove(&s->items[pos + 1], &s->items[pos],
	    (s->n - pos) * sizeof(s->items[0]));
	s->items[pos].key = xstrdup(key);
	s->items[pos].value = xstrdup(value);
	s->n++;
}

const char *
kvset_get(const struct kvset *s, const char *key)
{
	long at = kvset_find(s, key);

	return at >= 0 ? s->items[at].value : NULL;
}

bool
kvset_remove(struct kvset *s, const char *key)
{
	long at = kvset_find(s, key);

	if (at < 0)
		return false;
	free(s->items[at].key);
	free(s->items[at].value);
	memmove(&s->items[at], &s->items[at + 1],
	    (s->n - (size_t)at - 1) * sizeof(s->items[0]));
	s->n--;
	return true;
}

void
kvset_merge(struct kvset *dst, const struct kvset *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		kvset_set(dst, src->items[i].key, src->items[i].value);
}

void
kvset_copy(struct kvset *dst, const struct kvset *src)
{
	kvset_release(dst);
	kvset_merge(dst, src);
}

void
kvset_join(const struct kvset *s, struct strbuf *sb, const char *sep)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (i)
			strbuf_addstr(sb, sep);
		strbuf_addstr(sb, s->items[i].key);
		strbuf_addch(sb, '=');
		strbuf_addstr(sb, s->items[i].value);
	}
}

static bool
kv_valid_text(const char *s, bool is_key)
{
	size_t len = strlen(s);
	const unsigned char *p;

	if (len == 0 || len > 256 || !utf8_valid(s) || utf8_first_control(s))
		return false;
	if (isspace((unsigned char)s[0]) || isspace((unsigned char)s[len - 1]))
		return false;
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == ',' || *p == ';')
			return false;
		if (is_key && *p == '=')
			return false;
	}
	return true;
}

bool
kv_valid_key(const char *key)
{
	return kv_valid_text(key, true);
}

bool
kv_valid_value(const char *value)
{
	return kv_valid_text(value, false);
}

bool
path_id_valid(const char *id)
{
	size_t len = strlen(id);
	const unsigned char *p;

	if (len == 0 || len > PATH_ID_MAX || !utf8_valid(id) ||
	    utf8_first_control(id))
		return false;
	if (id[0] == ' ' || id[len - 1] == ' ')
		return false;
	for (p = (const unsigned char *)id; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == ',')
			return false;
	return true;
}

static bool
all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* "1k", "1m", "1024b", "2g", "512kb": digits then a unit letter or two. */
static bool
is_size_token(const char *t)
{
	const char *p = t;

	while (isdigit((unsigned char)*p))
		p++;
	if (p == t)
		return false;
	if (!strcmp(p, "k") || !strcmp(p, "m") || !strcmp(p, "g") ||
	    !strcmp(p, "b") || !strcmp(p, "kb") || !strcmp(p, "mb") ||
	    !strcmp(p, "gb") || !strcmp(p, "K") || !strcmp(p, "M") ||
	    !strcmp(p, "G") || !strcmp(p, "KB") || !strcmp(p, "MB") ||
	    !strcmp(p, "GB") || !strcmp(p, "B"))
		return true;
	return false;
}

int
cond_rate_canon(const char *rate, char *out, size_t size)
{
	static const char units[] = "KMGT";
	uint64_t whole = 0;	/* the number x 10^frac_digits */
	int frac_digits = 0, exp3 = 0, i;
	const char *p = rate;
	bool digits = false, dot = false;

	for (; *p; p++) {
		if (*p == '.' && !dot) {
			dot = true;
			continue;
		}
		if (!isdigit((unsigned char)*p))
			break;
		if (whole > (UINT64_MAX - 9) / 10 || frac_digits > 12)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
		frac_digits += dot;
		digits = true;
	}
	if (!digits)
		return -1;
	if (*p) {
		const char *u = strchr(units, toupper((unsigned char)*p));

		if (!u || p[1])
			return -1;
		exp3 = (int)(u - units) + 1;
	}
	/* bit/s = whole x 10^(3 exp3 - frac_digits): make it whole */
	for (i = 3 * exp3 - frac_digits; i < 0; i++) {
		if (whole % 10)
			return -1;	/* 1.0001k: not a whole bit/s */
		whole /= 10;
	}
	for (; i > 0; i--) {
		if (whole > UINT64_MAX / 10)
			return -1;
		whole *= 10;
	}
	for (exp3 = 0; whole && whole % 1000 == 0 && exp3 < 4; exp3++)
		whole /= 1000;
	if (exp3)
		snprintf(out, size, "%llu%c", (unsigned long long)whole,
		    units[exp3 - 1]);
	else
		snprintf(out, size, "%llu", (unsigned long long)whole);
	return 0;
}

int
cond_token_parse(const char *tok, struct kvset *out, struct strbuf *why)
{
	const char *eq = strchr(tok, '=');
	const char *dash;
	char *key = NULL, *val = NULL;
	char rate[32];
	int ret = -1;

	if (eq) {
		key = xstrndup(tok, (size_t)(eq - tok));
		val = xstrdup(eq + 1);
	} else if ((tok[0] == 'c' || tok[0] == 'P') && all_digits(tok + 1)) {
		key = xstrndup(tok, 1);
		val = xstrdup(tok + 1);
	} else if (tok[0] == 'b' && isdigit((unsigned char)tok[1]) &&
	    cond_rate_canon(tok + 1, rate, sizeof(rate)) == 0) {
		key = xstrdup("b");
		val = xstrdup(tok + 1);
	} else if (is_size_token(tok)) {
		size_t i, len = strlen(tok);

		key = xstrdup("size");
		val = xstrdup(tok);
		for (i = 0; i < len; i++)
			val[i] = (char)tolower((unsigned char)val[i]);
		if (len > 2 && val[len - 1] == 'b' && !isdigit(
		    (unsigned char)val[len - 2]))
			val[len - 1] = '\0';	/* 1kb -> 1k */
	} else if (!strcmp(tok, "tcp") || !strcmp(tok, "udp") ||
	    !strcmp(tok, "TCP") || !strcmp(tok, "UDP")) {
		key = xstrdup("proto");
		val = xstrdup(tok[0] == 't' || tok[0] == 'T' ? "tcp" : "udp");
	} else if (!strcmp(tok, "R") || !strcmp(tok, "reverse")) {
		key = xstrdup("dir");
		val = xstrdup("reverse");
	} else if (!strcmp(tok, "bidir")) {
		key = xstrdup("dir");
		val = xstrdup("bidir");
	} else if ((dash = strchr(tok, '-')) && dash != tok && dash[1]) {
		key = xstrndup(tok, (size_t)(dash - tok));
		val = xstrdup(dash + 1);
	} else {
		ret = 1;
		goto cleanup;
	}
	/* one spelling of a rate, whichever form gave it (b200M, b-200M,
	 * b=200m, b=200000000 are one condition) */
	if (!strcmp(key, "b") && cond_rate_canon(val, rate, sizeof(rate)) == 0) {
		free(val);
		val = xstrdup(rate);
	}
	if (!kv_valid_key(key) || !kv_valid_value(val)) {
		strbuf_addstr(why, "condition token '");
		utf8_add_escaped(why, tok);
		strbuf_addstr(why, "' has an empty or unsafe key or value "
		    "(',', '=', ';', a blank at either end, or a control "
		    "character: C0, C1 or bidirectional)");
		goto cleanup;
	}
	kvset_set(out, key, val);
	ret = 0;
cleanup:
	free(key);
	free(val);
	return ret;
}

int
cond_parse(const char *text, struct kvset *out, struct strbuf *why)
{
	char *copy = xstrdup(text);
	char *p = copy, *tok;
	int ret = 0;

	while ((tok = strsep(&p, "_,")) != NULL) {
		if (!*tok)
			continue;
		ret = cond_token_parse(tok, out, why);
		if (ret == 1) {
			strbuf_addstr(why, "condition token '");
			utf8_add_escaped(why, tok);
			strbuf_addstr(why, "' is not k=v, name-value (ka-on), "
			    "cN, PN, bRATE (b200M), a size (1k, 1m, 1024b), "
			    "tcp/udp, reverse or bidir");
		}
		if (ret) {
			ret = -1;
			break;
		}
	}
	free(copy);
	return ret;
}

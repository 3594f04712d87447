/*
 * spec.c - reading a report spec: one JSON object with the title, the
 * paths and their labels, defaults (estimator, pooling, stats, where)
 * and a list of sections, each inheriting from its group.  Every
 * problem is reported as "FILE: LOCATION: what", LOCATION being a JSON
 * path such as sections[2].chart.kind or line:column for bad JSON.
 */
#include "common/compat.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "common/err.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "report/internal.h"

/* Keys every section may set and its sections inherit, besides the
 * analyze options the option table marks as inherited. */
static const char *const inherited_own[] = { "metric", "where", "paths" };

static const char *const verb_names[] = {
	"compare", "delta", "percentiles", "ratio", "relative", "trend",
	"trials", "variance",
};

static const char *const chart_names[] = {
	"bars", "relative", "ecdf", "timeseries", "box", "days",
};

int
report_spec_error(const struct report_spec *spec, const char *loc,
    const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s: %s: %s", spec->file, loc && *loc ? loc : "(top level)",
	    sb.buf);
	strbuf_release(&sb);
	return -1;
}

char *
report_slug(const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	bool dash = false;

	for (; s && *s && sb.len < max; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && sb.len)
				strbuf_addch(&sb, '-');
			strbuf_addch(&sb, (char)c);
			dash = false;
		} else if (c >= 'A' && c <= 'Z') {
			if (dash && sb.len)
				strbuf_addch(&sb, '-');
			strbuf_addch(&sb, (char)(c - 'A' + 'a'));
			dash = false;
		} else {
			dash = true;
		}
	}
	if (!sb.len)
		strbuf_addch(&sb, 'x');
	return strbuf_detach(&sb, NULL);
}

/* "parent.key" or "parent[i]" (caller frees). */
static char *
loc_key(const char *parent, const char *key)
{
	return *parent ? xasprintf("%s.%s", parent, key) : xstrdup(key);
}

static char *
loc_index(const char *parent, size_t i)
{
	return xasprintf("%s[%zu]", parent, i);
}

static bool
in_list(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] && !strcmp(s, list[i]))
			return true;
	return false;
}

static void
join_list(struct strbuf *sb, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!list[i])
			continue;
		if (sb->len)
			strbuf_addstr(sb, ", ");
		strbuf_addstr(sb, list[i]);
	}
}

/* Reject keys outside allowed and keys given twice. */
static int
check_keys(const struct report_spec *spec, const cJSON *obj, const char *loc,
    const char *const *allowed, size_t nallowed)
{
	const cJSON *it, *prev;

	cJSON_ArrayForEach(it, obj) {
		for (prev = obj->child; prev != it; prev = prev->next) {
			if (!strcmp(prev->string, it->string))
				return report_spec_error(spec, loc, "key '%s' "
				    "given twice", it->string);
		}
		if (!in_list(it->string, allowed, nallowed)) {
			struct strbuf sb = STRBUF_INIT;
			int ret;

			join_list(&sb, allowed, nallowed);
			ret = report_spec_error(spec, loc, "unknown key '%s' "
			    "(allowed here: %s)", it->string, sb.buf);
			strbuf_release(&sb);
			return ret;
		}
	}
	return 0;
}

/* Is s valid UTF-8 without control characters other than line breaks
 * and tabs (which paragraphs may hold)? */
static bool
text_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = report_utf8_len(p);

		if (n == 0)
			return false;
		if (n == 1 && (*p < 0x20 || *p == 0x7f) && *p != '\n' &&
		    *p != '\t' && *p != '\r')
			return false;
		p += n;
	}
	return true;
}

/* A string member (NULL *out when absent and not required). */
static int
get_string(const struct report_spec *spec, const cJSON *obj, const char *key,
    const char *loc, bool required, char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *l;
	int ret = 0;

	if (!it) {
		if (required)
			return report_spec_error(spec, loc, "'%s' is required",
			    key);
		return 0;
	}
	l = loc_key(loc, key);
	if (!cJSON_IsString(it) || !it->valuestring)
		ret = report_spec_error(spec, l, "want a string");
	else if (!text_ok(it->valuestring))
		ret = report_spec_error(spec, l, "not valid UTF-8 text");
	else {
		free(*out);
		*out = xstrdup(it->valuestring);
	}
	free(l);
	return ret;
}

static int
get_bool(const struct report_spec *spec, const cJSON *obj, const char *key,
    const char *loc, bool *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *l;

	if (!it)
		return 0;
	if (!cJSON_IsBool(it)) {
		l = loc_key(loc, key);
		report_spec_error(spec, l, "want true or false");
		free(l);
		return -1;
	}
	*out = cJSON_IsTrue(it);
	return 0;
}

static int
get_number(const struct report_spec *spec, const cJSON *obj, const char *key,
    const char *loc, double min, double max, bool integer, double *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *l;

	if (!it)
		return 0;
	if (!cJSON_IsNumber(it) || !(it->valuedouble >= min) ||
	    !(it->valuedouble <= max) ||
	    (integer && it->valuedouble != floor(it->valuedouble))) {
		l = loc_key(loc, key);
		report_spec_error(spec, l, "want %s from %g to %g",
		    integer ? "an integer" : "a number", min, max);
		free(l);
		return -1;
	}
	*out = it->valuedouble;
	return 0;
}

/* ------------------------------------------------------------------
 * Inheritance
 */

/* Set key to value in a list of key/value pairs (replacing its value,
 * else appending). */
static void
kv_set(struct report_kv **kv, size_t *n, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (!strcmp((*kv)[i].key, key)) {
			free((*kv)[i].value);
			(*kv)[i].value = xstrdup(value);
			return;
		}
	}
	*kv = xreallocarray(*kv, *n + 1, sizeof(**kv));
	(*kv)[*n].key = xstrdup(key);
	(*kv)[*n].value = xstrdup(value);
	(*n)++;
}

static void
kv_unset(struct report_kv **kv, size_t *n, const char *key)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*kv)[i].key, key))
			continue;
		free((*kv)[i].key);
		free((*kv)[i].value);
		memmove(&(*kv)[i], &(*kv)[i + 1], (*n - i - 1) * sizeof(**kv));
		(*n)--;
		return;
	}
}

static void
kv_release(struct report_kv *kv, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

const char *
report_section_opt(const struct report_section *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nopts; i++)
		if (!strcmp(s->opts[i].key, name))
			return s->opts[i].value;
	return NULL;
}

/* Is key one a section passes down to the sections it holds? */
static bool
inherited_key(const char *key)
{
	const struct analyze_option *opt = analyze_option_by_spec(key);

	return in_list(key, inherited_own, ARRAY_SIZE(inherited_own)) ||
	    !strcmp(key, "footnotes") || (opt && opt->inherit);
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void
note_copy(struct report_note *dst, const struct report_note *src)
{
	dst->path = dup_or_null(src->path);
	dst->condition = dup_or_null(src->condition);
	dst->trial = src->trial;
	dst->metric = dup_or_null(src->metric);
	dst->scope = dup_or_null(src->scope);
	dst->text = xstrdup(src->text);
}

/* Start child with what it inherits from parent. */
static void
inherit(struct report_section *child, const struct report_section *parent)
{
	size_t i;

	child->metric = dup_or_null(parent->metric);
	for (i = 0; i < parent->nwhere; i++)
		kv_set(&child->where, &child->nwhere, parent->where[i].key,
		    parent->where[i].value);
	for (i = 0; i < parent->nopts; i++)
		if (analyze_option_find(parent->opts[i].key)->inherit)
			kv_set(&child->opts, &child->nopts,
			    parent->opts[i].key, parent->opts[i].value);
	child->paths = xcalloc(parent->npaths + 1, sizeof(*child->paths));
	for (i = 0; i < parent->npaths; i++) {
		child->paths[i].id = xstrdup(parent->paths[i].id);
		child->paths[i].label = xstrdup(parent->paths[i].label);
	}
	child->npaths = parent->npaths;
	child->notes = xcalloc(parent->nnotes + 1, sizeof(*child->notes));
	for (i = 0; i < parent->nnotes; i++)
		note_copy(&child->notes[i], &parent->notes[i]);
	child->nnotes = parent->nnotes;
	child->depth = parent->depth + 1;
}

static void
paths_release(struct report_path *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].id);
		free(p[i].label);
	}
	free(p);
}

static int
parse_paths(const struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s)
{
	struct report_path *np;
	const cJSON *e;
	size_t n = 0, j;

	if (!cJSON_IsObject(it) && !cJSON_IsArray(it))
		return report_spec_error(spec, loc, "want an object of path "
		    "labels ({\"A\": \"Same AZ\"}) or a list of path IDs");
	np = xcalloc((size_t)cJSON_GetArraySize(it) + 1, sizeof(*np));
	cJSON_ArrayForEach(e, it) {
		const char *id, *label = NULL;
		char *l = cJSON_IsObject(it) ? loc_key(loc, e->string) :
		    loc_index(loc, n);

		if (cJSON_IsObject(it)) {
			id = e->string;
			if (!cJSON_IsString(e) || !text_ok(e->valuestring)) {
				report_spec_error(spec, l, "want the path's "
				    "label (a string)");
				goto bad;
			}
			label = e->valuestring;
		} else {
			if (!cJSON_IsString(e)) {
				report_spec_error(spec, l, "want a path ID");
				goto bad;
			}
			id = e->valuestring;
			for (j = 0; j < s->npaths; j++)
				if (!strcmp(s->paths[j].id, id))
					label = s->paths[j].label;
		}
		if (!path_id_valid(id)) {
			report_spec_error(spec, l, "bad path ID: want %s",
			    PATH_ID_RULE);
			goto bad;
		}
		for (j = 0; j < n; j++) {
			if (!strcmp(np[j].id, id)) {
				report_spec_error(spec, l, "path '%s' listed "
				    "twice", id);
				goto bad;
			}
		}
		np[n].id = xstrdup(id);
		np[n].label = xstrdup(label ? label : "");
		n++;
		free(l);
		continue;
bad:
		free(l);
		paths_release(np, n);
		return -1;
	}
	paths_release(s->paths, s->npaths);
	s->paths = np;
	s->npaths = n;
	s->paths_own = true;
	return 0;
}

static int
parse_where(const struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s)
{
	const cJSON *e;
	size_t i = 0;

	if (!cJSON_IsObject(it) && !cJSON_IsArray(it))
		return report_spec_error(spec, loc, "want an object "
		    "({\"day\": \"2026-08-28\"}, null drops an inherited "
		    "filter) or a list of \"KEY=VALUE\"");
	cJSON_ArrayForEach(e, it) {
		struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
		struct where w = WHERE_INIT;
		char *l = cJSON_IsObject(it) ? loc_key(loc, e->string) :
		    loc_index(loc, i);
		int bad = 0;

		if (cJSON_IsObject(it) && cJSON_IsNull(e)) {
			/* null drops a filter the section inherited */
			kv_unset(&s->where, &s->nwhere, e->string);
			free(l);
			i++;
			continue;
		}
		if (cJSON_IsObject(it) && cJSON_IsString(e))
			strbuf_addf(&text, "%s=%s", e->string, e->valuestring);
		else if (cJSON_IsObject(it) && cJSON_IsNumber(e) &&
		    e->valuedouble == floor(e->valuedouble) &&
		    fabs(e->valuedouble) < 1e15)
			strbuf_addf(&text, "%s=%.0f", e->string,
			    e->valuedouble);
		else if (cJSON_IsArray(it) && cJSON_IsString(e))
			strbuf_addstr(&text, e->valuestring);
		else
			bad = report_spec_error(spec, l, "want a string value");
		if (!bad && where_add(&w, text.buf, &why))
			bad = report_spec_error(spec, l, "bad filter '%s'%s%s",
			    text.buf, why.len ? ": " : "", why.buf);
		if (!bad) {
			const char *eq = strchr(text.buf, '=');
			char *key = xstrndup(text.buf, (size_t)(eq - text.buf));

			kv_set(&s->where, &s->nwhere, key, eq + 1);
			free(key);
		}
		where_release(&w);
		strbuf_release(&text);
		strbuf_release(&why);
		free(l);
		if (bad)
			return -1;
		i++;
	}
	return 0;
}

static int
parse_notes(const struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s)
{
	static const char *const keys[] = {
		"path", "condition", "trial", "metric", "text",
	};
	const cJSON *e;
	size_t i = 0;

	if (!cJSON_IsArray(it))
		return report_spec_error(spec, loc, "want a list of {\"path\", "
		    "\"condition\", \"trial\", \"metric\", \"text\"}");
	cJSON_ArrayForEach(e, it) {
		char *l = loc_index(loc, i++);
		struct report_note n;
		double trial = 0;
		int bad = 0;

		memset(&n, 0, sizeof(n));
		if (!cJSON_IsObject(e))
			bad = report_spec_error(spec, l, "want an object");
		if (!bad)
			bad = check_keys(spec, e, l, keys, ARRAY_SIZE(keys));
		if (!bad)
			bad = get_string(spec, e, "path", l, false, &n.path) ||
			    get_string(spec, e, "condition", l, false,
			    &n.condition) ||
			    get_string(spec, e, "metric", l, false,
			    &n.metric) ||
			    get_string(spec, e, "text", l, true, &n.text) ||
			    get_number(spec, e, "trial", l, 1, 1e9, true,
			    &trial);
		if (!bad && n.metric && !metric_by_name(n.metric))
			bad = report_spec_error(spec, l, "unknown metric '%s'",
			    n.metric);
		n.trial = (long)trial;
		if (bad) {
			free(n.path);
			free(n.condition);
			free(n.metric);
			free(n.text);
			free(l);
			return -1;
		}
		s->notes = xreallocarray(s->notes, s->nnotes + 1,
		    sizeof(*s->notes));
		s->notes[s->nnotes++] = n;
		free(l);
	}
	return 0;
}

/* The text an option has on a command line, from its JSON value in a
 * spec; -1 after naming what the option wants. */
static int
option_text(const struct report_spec *spec, const struct analyze_option *opt,
    const cJSON *it, const char *l, struct strbuf *text)
{
	const cJSON *e;

	switch (opt->type) {
	case ANALYZE_ARG_FLAG:
		if (!cJSON_IsBool(it))
			return report_spec_error(spec, l, "want true or false");
		strbuf_addstr(text, cJSON_IsTrue(it) ? "true" : "false");
		return 0;
	case ANALYZE_ARG_NUMBER:
		if (!cJSON_IsNumber(it))
			return report_spec_error(spec, l, "want a number");
		strbuf_add_double(text, it->valuedouble);
		return 0;
	case ANALYZE_ARG_LIST:
		if (cJSON_IsArray(it)) {
			cJSON_ArrayForEach(e, it) {
				if (!cJSON_IsString(e) ||
				    strchr(e->valuestring, ','))
					return report_spec_error(spec, l,
					    "want a string or a list of "
					    "strings without commas");
				strbuf_addf(text, "%s%s", text->len ? "," : "",
				    e->valuestring);
			}
			return 0;
		}
		break;
	case ANALYZE_ARG_TEXT:
	case ANALYZE_ARG_WHERE:
		break;
	}
	if (!cJSON_IsString(it) || !it->valuestring)
		return report_spec_error(spec, l, "want a string");
	if (!text_ok(it->valuestring))
		return report_spec_error(spec, l, "not valid UTF-8 text");
	strbuf_addstr(text, it->valuestring);
	return 0;
}

/* obj's value of the analyze option opt (if any), checked by the option's
 * own setter and kept in s->opts as command-line text. */
static int
parse_option(const struct report_spec *spec, const cJSON *obj,
    const char *loc, const struct analyze_option *opt,
    struct report_section *s)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, opt->spec);
	struct strbuf text = STRBUF_INIT, why = STRBUF_INIT;
	struct analyze_opts o;
	char *l;
	int ret = 0;

	if (!it)
		return 0;
	l = loc_key(loc, opt->spec);
	analyze_opts_init(&o);
	if (option_text(spec, opt, it, l, &text))
		ret = -1;
	else if (analyze_option_set(opt, &o, text.buf, &why))
		ret = report_spec_error(spec, l, "bad value '%s': %s", text.buf,
		    why.buf);
	else
		kv_set(&s->opts, &s->nopts, opt->name, text.buf);
	analyze_opts_release(&o);
	strbuf_release(&text);
	strbuf_release(&why);
	free(l);
	return ret;
}

/* The analyze options obj sets: the inherited ones, or the section's
 * own (which section_keys() has let through). */
static int
parse_options(const struct report_spec *spec, const cJSON *obj,
    const char *loc, bool inherited, struct report_section *s)
{
	size_t n, i;
	const struct analyze_option *opts = analyze_option_list(&n);

	for (i = 0; i < n; i++)
		if (opts[i].spec && opts[i].inherit == inherited &&
		    parse_option(spec, obj, loc, &opts[i], s))
			return -1;
	return 0;
}

/* The inheritable keys of obj, applied over what s inherited. */
static int
parse_inherited(const struct report_spec *spec, const cJSON *obj,
    const char *loc, struct report_section *s)
{
	const cJSON *it;
	char *l = NULL;
	int ret = -1;

	if (get_string(spec, obj, "metric", loc, false, &s->metric) ||
	    parse_options(spec, obj, loc, true, s))
		goto cleanup;
	if (cJSON_GetObjectItemCaseSensitive(obj, "metric") &&
	    !metric_by_name(s->metric)) {
		struct strbuf sb = STRBUF_INIT;

		metric_names_join(&sb, ", ");
		l = loc_key(loc, "metric");
		report_spec_error(spec, l, "unknown metric '%s' (known: %s)",
		    s->metric, sb.buf);
		strbuf_release(&sb);
		goto cleanup;
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "where");
	if (it) {
		l = loc_key(loc, "where");
		if (parse_where(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "paths");
	if (it) {
		l = loc_key(loc, "paths");
		if (parse_paths(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "footnotes");
	if (it) {
		l = loc_key(loc, "footnotes");
		if (parse_notes(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	ret = 0;
cleanup:
	free(l);
	return ret;
}

/* ------------------------------------------------------------------
 * Sections
 */

static int parse_sections(struct report_spec *spec, const cJSON *arr,
    const char *loc, struct report_section *parent);

static int
parse_chart(struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s)
{
	static const char *const keys[] = {
		"kind", "id", "title", "stat", "log", "width", "height",
	};
	struct report_chart *c = xcalloc(1, sizeof(*c));
	char *kind = NULL, *l = NULL;
	double w = 0, h = 0;
	size_t i;
	int ret = -1;

	c->loc = xstrdup(loc);
	if (cJSON_IsString(it)) {
		kind = xstrdup(it->valuestring);
	} else if (cJSON_IsObject(it)) {
		if (check_keys(spec, it, loc, keys, ARRAY_SIZE(keys)) ||
		    get_string(spec, it, "kind", loc, true, &kind) ||
		    get_string(spec, it, "id", loc, false, &c->id) ||
		    get_string(spec, it, "title", loc, false, &c->title) ||
		    get_string(spec, it, "stat", loc, false, &c->stat) ||
		    get_bool(spec, it, "log", loc, &c->logscale) ||
		    get_number(spec, it, "width", loc, REPORT_CHART_MIN_PX,
		    REPORT_CHART_MAX_PX, true, &w) ||
		    get_number(spec, it, "height", loc, REPORT_CHART_MIN_PX,
		    REPORT_CHART_MAX_PX, true, &h))
			goto cleanup;
	} else {
		report_spec_error(spec, loc, "want a chart kind or an object "
		    "{\"kind\": ...}");
		goto cleanup;
	}
	for (i = 0; i < ARRAY_SIZE(chart_names); i++)
		if (!strcmp(kind, chart_names[i]))
			break;
	if (i == ARRAY_SIZE(chart_names)) {
		struct strbuf sb = STRBUF_INIT;

		join_list(&sb, chart_names, ARRAY_SIZE(chart_names));
		l = cJSON_IsObject(it) ? loc_key(loc, "kind") : xstrdup(loc);
		report_spec_error(spec, l, "unknown chart kind '%s' (known: "
		    "%s)", kind, sb.buf);
		strbuf_release(&sb);
		goto cleanup;
	}
	c->kind = (enum report_chart_kind)i;
	if (c->kind == REPORT_CHART_ECDF && !(cJSON_IsObject(it) &&
	    cJSON_GetObjectItemCaseSensitive(it, "log")))
		c->logscale = true;
	if (c->stat) {
		struct analyze_opts o;
		struct strbuf why = STRBUF_INIT;

		analyze_opts_init(&o);
		if (analyze_opts_set_stats(&o, c->stat, &why) ||
		    o.nstats != 1) {
			l = loc_key(loc, "stat");
			report_spec_error(spec, l, "want one statistic (p50, "
			    "p99, max, mean ...)%s%s", why.len ? ": " : "",
			    why.buf);
		}
		analyze_opts_release(&o);
		strbuf_release(&why);
		if (l)
			goto cleanup;
	}
	if (c->id) {
		char *slug = report_slug(c->id, 40);

		free(c->id);
		c->id = slug;
	}
	c->width = (long)w;
	c->height = (long)h;
	s->chart = c;
	c = NULL;
	ret = 0;
cleanup:
	if (c) {
		free(c->loc);
		free(c->id);
		free(c->title);
		free(c->stat);
		free(c);
	}
	free(kind);
	free(l);
	return ret;
}

/* Can a chart of this kind sit on a section of this type and verb? */
static bool
chart_fits(const struct report_section *s, enum report_chart_kind k)
{
	bool pct = s->type == REPORT_SEC_VERB && !strcmp(s->verb,
	    "percentiles");
	bool rel = s->type == REPORT_SEC_VERB && !strcmp(s->verb, "relative");
	bool trials = s->type == REPORT_SEC_VERB && !strcmp(s->verb, "trials");
	bool pivot = s->type == REPORT_SEC_PIVOT;
	bool alone = s->type == REPORT_SEC_CHART;

	switch (k) {
	case REPORT_CHART_BARS:
		return pct || pivot || alone;
	case REPORT_CHART_RELATIVE:
		return rel || alone;
	case REPORT_CHART_ECDF:
	case REPORT_CHART_TIMESERIES:
	case REPORT_CHART_BOX:
	case REPORT_CHART_DAYS:
		return pct || trials || pivot || alone;
	}
	return false;
}

static int
parse_pairs(struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s)
{
	static const char *const keys[] = { "minuend", "subtrahend", "label" };
	const cJSON *e;
	size_t i = 0, n = (size_t)cJSON_GetArraySize(it);

	if (!cJSON_IsArray(it) || n == 0)
		return report_spec_error(spec, loc, "want a list of pairs "
		    "(\"G-G'\" or {\"minuend\": \"G\", \"subtrahend\": \"G'\", "
		    "\"label\": ...})");
	s->args = xcalloc(n + 1, sizeof(char *));
	s->arg_labels = xcalloc(n + 1, sizeof(char *));
	cJSON_ArrayForEach(e, it) {
		char *l = loc_index(loc, i), *a = NULL, *b = NULL;
		int bad = 0;

		if (cJSON_IsString(e)) {
			const char *dash = strchr(e->valuestring, '-');

			if (!dash || dash == e->valuestring || !dash[1] ||
			    !text_ok(e->valuestring))
				bad = report_spec_error(spec, l, "want "
				    "MINUEND-SUBTRAHEND, e.g. \"G-G'\"");
			else
				s->args[i] = xstrdup(e->valuestring);
		} else if (cJSON_IsObject(e)) {
			bad = check_keys(spec, e, l, keys, ARRAY_SIZE(keys)) ||
			    get_string(spec, e, "minuend", l, true, &a) ||
			    get_string(spec, e, "subtrahend", l, true, &b) ||
			    get_string(spec, e, "label", l, false,
			    &s->arg_labels[i]);
			if (!bad)
				s->args[i] = xasprintf("%s-%s", a, b);
		} else {
			bad = report_spec_error(spec, l, "want \"A-B\" or an "
			    "object");
		}
		free(a);
		free(b);
		free(l);
		s->nargs = ++i;
		if (bad)
			return -1;
	}
	return 0;
}

static int
parse_columns(struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s, const char *stat)
{
	static const char *const keys[] = {
		"key", "label", "condition", "stat", "delta", "ratio",
	};
	const cJSON *e;
	size_t i = 0, n = (size_t)cJSON_GetArraySize(it), j;

	if (!cJSON_IsArray(it) || n == 0)
		return report_spec_error(spec, loc, "want a list of columns");
	s->cols = xcalloc(n, sizeof(*s->cols));
	cJSON_ArrayForEach(e, it) {
		struct report_pivot_col *c = &s->cols[i];
		const cJSON *d;
		char *l = loc_index(loc, i);
		int bad = 0;

		s->ncols = ++i;
		if (!cJSON_IsObject(e)) {
			bad = report_spec_error(spec, l, "want an object");
			goto next;
		}
		if (check_keys(spec, e, l, keys, ARRAY_SIZE(keys)) ||
		    get_string(spec, e, "key", l, false, &c->key) ||
		    get_string(spec, e, "label", l, false, &c->label) ||
		    get_string(spec, e, "condition", l, false, &c->cond) ||
		    get_string(spec, e, "stat", l, false, &c->stat)) {
			bad = -1;
			goto next;
		}
		d = cJSON_GetObjectItemCaseSensitive(e, "delta");
		if (d)
			c->derive = 'd';
		else if ((d = cJSON_GetObjectItemCaseSensitive(e, "ratio")))
			c->derive = 'r';
		if (!!d + !!c->cond != 1) {
			bad = report_spec_error(spec, l, "give exactly one of "
			    "\"condition\", \"delta\" or \"ratio\"");
			goto next;
		}
		if (d) {
			const char *ka, *kb;

			if (!cJSON_IsArray(d) || cJSON_GetArraySize(d) != 2 ||
			    !cJSON_IsString(cJSON_GetArrayItem(d, 0)) ||
			    !cJSON_IsString(cJSON_GetArrayItem(d, 1))) {
				bad = report_spec_error(spec, l, "\"%s\" wants "
				    "two earlier column keys [\"a\", \"b\"]",
				    c->derive == 'd' ? "delta" : "ratio");
				goto next;
			}
			ka = cJSON_GetArrayItem(d, 0)->valuestring;
			kb = cJSON_GetArrayItem(d, 1)->valuestring;
			c->a = c->b = SIZE_MAX;
			for (j = 0; j + 1 < i; j++) {
				if (!strcmp(s->cols[j].key, ka))
					c->a = j;
				if (!strcmp(s->cols[j].key, kb))
					c->b = j;
			}
			if (c->a == SIZE_MAX || c->b == SIZE_MAX ||
			    s->cols[c->a].derive || s->cols[c->b].derive) {
				bad = report_spec_error(spec, l, "no earlier "
				    "condition column with key '%s'",
				    c->a == SIZE_MAX || s->cols[c->a].derive ?
				    ka : kb);
				goto next;
			}
			if (c->stat) {
				bad = report_spec_error(spec, l, "a derived "
				    "column takes the stat of its operands");
				goto next;
			}
			c->stat = xstrdup(s->cols[c->a].stat);
			if (!c->label)
				c->label = xasprintf("%s %s %s",
				    s->cols[c->a].label,
				    c->derive == 'd' ? "−" : "/",
				    s->cols[c->b].label);
		} else {
			struct kvset kv = KVSET_INIT;
			struct strbuf why = STRBUF_INIT;

			if (!*c->cond) {
				/* "": the cell with no condition at all */
			} else if (cond_parse(c->cond, &kv, &why) ||
			    kv.n == 0) {
				bad = report_spec_error(spec, l, "bad "
				    "condition '%s'%s%s", c->cond, why.len ?
				    ": " : "", why.buf);
			} else {
				struct strbuf canon = STRBUF_INIT;

				kvset_join(&kv, &canon, ",");
				free(c->cond);
				c->cond = strbuf_detach(&canon, NULL);
			}
			kvset_release(&kv);
			strbuf_release(&why);
			if (bad)
				goto next;
			if (!c->label)
				c->label = xstrdup(*c->cond ? c->cond :
				    "no condition");
		}
		if (c->stat && !c->derive) {
			struct analyze_opts o;
			struct strbuf why = STRBUF_INIT;

			analyze_opts_init(&o);
			if (analyze_opts_set_stats(&o, c->stat, &why) ||
			    o.nstats != 1)
				bad = report_spec_error(spec, l, "bad stat "
				    "'%s'", c->stat);
			analyze_opts_release(&o);
			strbuf_release(&why);
		} else if (!c->stat) {
			c->stat = xstrdup(stat);
		}
		if (!c->key) {
			c->key = report_slug(c->label, 40);
		} else if (!kv_valid_key(c->key)) {
			bad = report_spec_error(spec, l, "bad key '%s'",
			    c->key);
		}
		for (j = 0; !bad && j + 1 < i; j++)
			if (!strcmp(s->cols[j].key, c->key))
				bad = report_spec_error(spec, l, "column key "
				    "'%s' used twice (set \"key\")", c->key);
next:
		free(l);
		if (bad)
			return -1;
	}
	return 0;
}

/* Section keys by type (beyond type, id, title, text); the analyze
 * options a verb section takes are the option table's. */
static bool
section_key_ok(const struct report_section *s, const char *key)
{
	static const char *const common[] = { "type", "id", "title", "text" };
	const struct analyze_option *opt = analyze_option_by_spec(key);

	if (in_list(key, common, ARRAY_SIZE(common)))
		return true;
	if (s->type == REPORT_SEC_TEXT)
		return false;
	if (inherited_key(key))
		return true;
	switch (s->type) {
	case REPORT_SEC_GROUP:
		return !strcmp(key, "sections");
	case REPORT_SEC_PIVOT:
		return !strcmp(key, "columns") || !strcmp(key, "stat") ||
		    !strcmp(key, "chart");
	case REPORT_SEC_CHART:
		return !strcmp(key, "chart") || !strcmp(key, "by");
	case REPORT_SEC_VERB:
		if (!strcmp(key, "chart"))
			return true;
		if (!strcmp(s->verb, "delta") && !strcmp(key, "pairs"))
			return true;
		if (!strcmp(s->verb, "ratio") && !strcmp(key, "ratio"))
			return true;
		return opt && analyze_option_for_verb(opt, s->verb);
	case REPORT_SEC_TEXT:
		break;
	}
	return false;
}

static int
section_keys(struct report_spec *spec, const cJSON *obj, const char *loc,
    const struct report_section *s)
{
	const cJSON *it, *prev;

	cJSON_ArrayForEach(it, obj) {
		for (prev = obj->child; prev != it; prev = prev->next)
			if (!strcmp(prev->string, it->string))
				return report_spec_error(spec, loc, "key '%s' "
				    "given twice", it->string);
		if (!section_key_ok(s, it->string))
			return report_spec_error(spec, loc, "key '%s' does not "
			    "apply to a section of type '%s'", it->string,
			    cJSON_GetObjectItemCaseSensitive(obj,
			    "type")->valuestring);
	}
	return 0;
}

static int
parse_section(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *parent, struct report_section *s)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(obj, "type"), *it;
	const char *t;
	char *l = NULL;
	int ret = -1;

	inherit(s, parent);
	s->loc = xstrdup(loc);
	if (!cJSON_IsObject(obj))
		return report_spec_error(spec, loc, "want an object");
	if (!type || !cJSON_IsString(type)) {
		struct strbuf sb = STRBUF_INIT;

		join_list(&sb, verb_names, ARRAY_SIZE(verb_names));
		report_spec_error(spec, loc, "'type' is required: group, text, "
		    "pivot, throughput, chart, %s", sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	t = type->valuestring;
	if (!strcmp(t, "group")) {
		s->type = REPORT_SEC_GROUP;
	} else if (!strcmp(t, "text")) {
		s->type = REPORT_SEC_TEXT;
	} else if (!strcmp(t, "pivot") || !strcmp(t, "throughput")) {
		s->type = REPORT_SEC_PIVOT;
		s->verb = xstrdup("percentiles");
		if (!strcmp(t, "throughput") && !s->metric)
			s->metric = xstrdup(metric_name(
			    METRIC_THROUGHPUT_BPS));
	} else if (!strcmp(t, "chart")) {
		s->type = REPORT_SEC_CHART;
		s->verb = xstrdup("percentiles");
	} else if (in_list(t, verb_names, ARRAY_SIZE(verb_names))) {
		s->type = REPORT_SEC_VERB;
		s->verb = xstrdup(t);
	} else {
		struct strbuf sb = STRBUF_INIT;

		join_list(&sb, verb_names, ARRAY_SIZE(verb_names));
		l = loc_key(loc, "type");
		report_spec_error(spec, l, "unknown section type '%s' (known: "
		    "group, text, pivot, throughput, chart, %s)", t, sb.buf);
		strbuf_release(&sb);
		goto cleanup;
	}
	if (section_keys(spec, obj, loc, s) ||
	    get_string(spec, obj, "title", loc, false, &s->title) ||
	    get_string(spec, obj, "text", loc, false, &s->text) ||
	    get_string(spec, obj, "id", loc, false, &s->id) ||
	    parse_inherited(spec, obj, loc, s) ||
	    parse_options(spec, obj, loc, false, s))
		goto cleanup;
	if (s->type == REPORT_SEC_TEXT && !s->text && !s->title) {
		report_spec_error(spec, loc, "a text section needs 'text'");
		goto cleanup;
	}
	if (s->type == REPORT_SEC_GROUP) {
		it = cJSON_GetObjectItemCaseSensitive(obj, "sections");
		if (!it) {
			report_spec_error(spec, loc, "a group needs "
			    "'sections'");
			goto cleanup;
		}
		if (s->depth >= REPORT_MAX_DEPTH) {
			report_spec_error(spec, loc, "groups nest at most %d "
			    "deep", REPORT_MAX_DEPTH);
			goto cleanup;
		}
		l = loc_key(loc, "sections");
		ret = parse_sections(spec, it, l, s);
		goto cleanup;
	}
	if (s->type == REPORT_SEC_TEXT) {
		ret = 0;
		goto cleanup;
	}
	if (!s->metric) {
		report_spec_error(spec, loc, "no 'metric' here or in a group "
		    "above");
		goto cleanup;
	}
	if (s->verb && !strcmp(s->verb, "delta")) {
		it = cJSON_GetObjectItemCaseSensitive(obj, "pairs");
		l = loc_key(loc, "pairs");
		if (!it) {
			report_spec_error(spec, loc, "a delta section needs "
			    "'pairs'");
			goto cleanup;
		}
		if (parse_pairs(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	if (s->verb && !strcmp(s->verb, "ratio")) {
		const char *across = report_section_opt(s, "across");
		char *r = NULL;
		const char *slash;

		if (!across) {
			report_spec_error(spec, loc, "'across' is required");
			goto cleanup;
		}
		if (get_string(spec, obj, "ratio", loc, true, &r))
			goto cleanup;
		slash = strchr(r, '/');
		if (!kv_valid_key(across) || !slash || slash == r ||
		    !slash[1] || strchr(slash + 1, '/')) {
			l = loc_key(loc, !kv_valid_key(across) ? "across" :
			    "ratio");
			report_spec_error(spec, l, "want \"across\": KEY and "
			    "\"ratio\": \"NUM/DEN\", e.g. \"c\" and \"16/1\"");
			free(r);
			goto cleanup;
		}
		s->args = xcalloc(2, sizeof(char *));
		s->args[0] = r;
		s->nargs = 1;
	}
	if (s->verb && !strcmp(s->verb, "compare")) {
		const char *by = report_section_opt(s, "by");

		if (!by || !*by) {
			report_spec_error(spec, loc, "a compare section needs "
			    "'by' (instance_type, day, region ...)");
			goto cleanup;
		}
	}
	if (s->type == REPORT_SEC_PIVOT) {
		const char *stats = report_section_opt(s, "stats");
		char *stat = NULL;
		size_t i;

		if (get_string(spec, obj, "stat", loc, false, &stat))
			goto cleanup;
		if (!stat)
			stat = stats ? xstrndup(stats, strcspn(stats, ",")) :
			    xstrdup("p50");
		it = cJSON_GetObjectItemCaseSensitive(obj, "columns");
		if (it) {
			l = loc_key(loc, "columns");
			if (parse_columns(spec, it, l, s, stat)) {
				free(stat);
				goto cleanup;
			}
			FREE_AND_NULL(l);
		}
		for (i = 0; i < s->ncols; i++)
			if (!s->cols[i].stat)
				s->cols[i].stat = xstrdup(stat);
		/* the percentiles query asks for the pivot's statistics */
		{
			char **names = xcalloc(s->ncols + 2, sizeof(char *));
			size_t nn = 0, k;
			struct strbuf sb = STRBUF_INIT;

			names[nn++] = stat;
			for (i = 0; i < s->ncols; i++) {
				for (k = 0; k < nn; k++)
					if (!strcmp(names[k], s->cols[i].stat))
						break;
				if (k == nn)
					names[nn++] = s->cols[i].stat;
			}
			for (k = 0; k < nn; k++)
				strbuf_addf(&sb, "%s%s", k ? "," : "",
				    names[k]);
			kv_set(&s->opts, &s->nopts, "stats", sb.buf);
			strbuf_release(&sb);
			free(names);
		}
		free(stat);
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "chart");
	if (it) {
		l = loc_key(loc, "chart");
		if (parse_chart(spec, it, l, s))
			goto cleanup;
		if (!chart_fits(s, s->chart->kind)) {
			report_spec_error(spec, l, "a %s chart does not fit a "
			    "'%s' section", chart_names[s->chart->kind], t);
			goto cleanup;
		}
		FREE_AND_NULL(l);
	} else if (s->type == REPORT_SEC_CHART) {
		report_spec_error(spec, loc, "a chart section needs 'chart'");
		goto cleanup;
	}
	if (s->id) {
		char *slug = report_slug(s->id, 40);

		free(s->id);
		s->id = slug;
	} else {
		s->id = report_slug(s->title ? s->title : t, 40);
	}
	if (s->chart && !s->chart->id)
		s->chart->id = xstrdup(s->id);
	if (s->chart && !s->chart->title && s->title)
		s->chart->title = xstrdup(s->title);
	ret = 0;
cleanup:
	free(l);
	return ret;
}

static int
parse_sections(struct report_spec *spec, const cJSON *arr, const char *loc,
    struct report_section *parent)
{
	const cJSON *e;
	size_t i = 0, n;

	if (!cJSON_IsArray(arr))
		return report_spec_error(spec, loc, "want a list of sections");
	n = (size_t)cJSON_GetArraySize(arr);
	parent->children = xcalloc(n + 1, sizeof(*parent->children));
	cJSON_ArrayForEach(e, arr) {
		char *l = loc_index(loc, i);
		int ret;

		parent->nchildren = i + 1;
		ret = parse_section(spec, e, l, parent, &parent->children[i]);
		free(l);
		if (ret)
			return -1;
		i++;
	}
	return 0;
}

static void
section_release(struct report_section *s)
{
	size_t i;

	for (i = 0; i < s->nchildren; i++)
		section_release(&s->children[i]);
	free(s->children);
	free(s->loc);
	free(s->id);
	free(s->title);
	free(s->text);
	free(s->verb);
	free(s->metric);
	kv_release(s->where, s->nwhere);
	kv_release(s->opts, s->nopts);
	paths_release(s->paths, s->npaths);
	for (i = 0; i < s->nargs; i++) {
		free(s->args[i]);
		if (s->arg_labels)
			free(s->arg_labels[i]);
	}
	free(s->args);
	free(s->arg_labels);
	for (i = 0; i < s->ncols; i++) {
		free(s->cols[i].key);
		free(s->cols[i].label);
		free(s->cols[i].cond);
		free(s->cols[i].stat);
	}
	free(s->cols);
	if (s->chart) {
		free(s->chart->loc);
		free(s->chart->id);
		free(s->chart->title);
		free(s->chart->stat);
		free(s->chart);
	}
	for (i = 0; i < s->nnotes; i++) {
		free(s->notes[i].path);
		free(s->notes[i].condition);
		free(s->notes[i].metric);
		free(s->notes[i].scope);
		free(s->notes[i].text);
	}
	free(s->notes);
	memset(s, 0, sizeof(*s));
}

void
report_spec_release(struct report_spec *spec)
{
	size_t i;

	free(spec->file);
	free(spec->text);
	cJSON_Delete(spec->json);
	free(spec->title);
	for (i = 0; i < spec->nintro; i++)
		free(spec->intro[i]);
	free(spec->intro);
	free(spec->font);
	section_release(&spec->root);
	memset(spec, 0, sizeof(*spec));
}

/* Line and column (from 1) of byte offset off in text. */
static void
line_col(const char *text, size_t off, size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			(*col)++;
		}
	}
}

static int
parse_charts_defaults(struct report_spec *spec, const cJSON *it)
{
	static const char *const keys[] = {
		"font", "font_size", "width", "height",
	};
	double fs = (double)spec->font_size;
	double w = (double)spec->width, h = (double)spec->height;

	if (!cJSON_IsObject(it))
		return report_spec_error(spec, "charts", "want an object "
		    "{\"font\", \"font_size\", \"width\", \"height\"}");
	if (check_keys(spec, it, "charts", keys, ARRAY_SIZE(keys)) ||
	    get_string(spec, it, "font", "charts", false, &spec->font) ||
	    get_number(spec, it, "font_size", "charts", 6, 48, true, &fs) ||
	    get_number(spec, it, "width", "charts", REPORT_CHART_MIN_PX,
	    REPORT_CHART_MAX_PX, true, &w) ||
	    get_number(spec, it, "height", "charts", REPORT_CHART_MIN_PX,
	    REPORT_CHART_MAX_PX, true, &h))
		return -1;
	spec->font_size = (long)fs;
	spec->width = (long)w;
	spec->height = (long)h;
	return 0;
}

int
report_spec_load(const char *file, struct report_spec *spec)
{
	const char *keys[32];
	size_t nkeys = 0, i, nopts;
	const struct analyze_option *opts = analyze_option_list(&nopts);
	struct strbuf sb = STRBUF_INIT;
	const char *end = NULL;
	const cJSON *it, *e;
	int ret = -1;

	memset(spec, 0, sizeof(*spec));
	spec->file = xstrdup(file);
	spec->font = xstrdup("DejaVu Sans");
	spec->font_size = 12;
	spec->width = 1200;
	spec->height = 700;
	spec->root.depth = -1;
	spec->root.loc = xstrdup("");
	if (strbuf_read_file(&sb, file, REPORT_SPEC_MAX_BYTES)) {
		error_errno("cannot read spec '%s'", file);
		goto cleanup;
	}
	spec->len = sb.len;
	spec->text = strbuf_detach(&sb, NULL);
	if (memchr(spec->text, '\0', spec->len)) {
		report_spec_error(spec, NULL, "not a JSON text (NUL byte)");
		goto cleanup;
	}
	/* the length counts the NUL: cJSON wants to see it after the value */
	spec->json = cJSON_ParseWithLengthOpts(spec->text, spec->len + 1, &end,
	    1);
	if (!spec->json) {
		const char *at = cJSON_GetErrorPtr();
		size_t line, col, off;
		char *l;

		off = at && at >= spec->text && at <= spec->text + spec->len ?
		    (size_t)(at - spec->text) : spec->len;
		line_col(spec->text, off, &line, &col);
		l = xasprintf("line %zu, column %zu", line, col);
		report_spec_error(spec, l, "bad JSON%s", off >= spec->len ?
		    " (unexpected end)" : "");
		free(l);
		goto cleanup;
	}
	if (!cJSON_IsObject(spec->json)) {
		report_spec_error(spec, NULL, "want a JSON object");
		goto cleanup;
	}
	/* the top level: the spec's own keys and every inherited one */
	keys[nkeys++] = "title";
	keys[nkeys++] = "intro";
	keys[nkeys++] = "sections";
	keys[nkeys++] = "charts";
	for (i = 0; i < ARRAY_SIZE(inherited_own); i++)
		keys[nkeys++] = inherited_own[i];
	for (i = 0; i < nopts && nkeys + 1 < ARRAY_SIZE(keys); i++)
		if (opts[i].spec && opts[i].inherit)
			keys[nkeys++] = opts[i].spec;
	keys[nkeys++] = "footnotes";
	if (check_keys(spec, spec->json, "", keys, nkeys) ||
	    get_string(spec, spec->json, "title", "", true, &spec->title) ||
	    parse_inherited(spec, spec->json, "", &spec->root))
		goto cleanup;
	it = cJSON_GetObjectItemCaseSensitive(spec->json, "intro");
	if (it && cJSON_IsString(it) && text_ok(it->valuestring)) {
		spec->intro = xcalloc(1, sizeof(char *));
		spec->intro[spec->nintro++] = xstrdup(it->valuestring);
	} else if (it && cJSON_IsArray(it)) {
		spec->intro = xcalloc((size_t)cJSON_GetArraySize(it) + 1,
		    sizeof(char *));
		cJSON_ArrayForEach(e, it) {
			if (!cJSON_IsString(e) || !text_ok(e->valuestring)) {
				char *l = loc_index("intro", spec->nintro);

				report_spec_error(spec, l, "want a paragraph "
				    "(a string)");
				free(l);
				goto cleanup;
			}
			spec->intro[spec->nintro++] = xstrdup(e->valuestring);
		}
	} else if (it) {
		report_spec_error(spec, "intro", "want a string or a list of "
		    "paragraphs");
		goto cleanup;
	}
	it = cJSON_GetObjectItemCaseSensitive(spec->json, "charts");
	if (it && parse_charts_defaults(spec, it))
		goto cleanup;
	it = cJSON_GetObjectItemCaseSensitive(spec->json, "sections");
	if (!it) {
		report_spec_error(spec, NULL, "'sections' is required");
		goto cleanup;
	}
	if (parse_sections(spec, it, "sections", &spec->root))
		goto cleanup;
	ret = 0;
cleanup:
	strbuf_release(&sb);
	return ret;
}

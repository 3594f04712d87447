/*
 * spec.c - reading a report spec: one JSON object with the title, the
 * paths and their labels, defaults (estimator, pooling, stats, where)
 * and a list of sections (spec_section.c), each inheriting from its
 * group.  This file holds the typed getters, the keys a group passes
 * down, and the top level.  Every problem is reported as "FILE:
 * LOCATION: what", LOCATION being a JSON path such as
 * sections[2].chart.kind or line:column for bad JSON.
 */
#include "common/compat.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "common/err.h"
#include "common/escape.h"
#include "common/infile.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/utf8.h"
#include "common/where.h"
#include "common/xalloc.h"
#include "report/internal.h"
#include "report/spec.h"

/* Keys every section may set and its sections inherit, besides the
 * analyze options the option table marks as inherited. */
static const char *const inherited_own[] = { "metric", "where", "paths" };

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
char *
spec_loc_key(const char *parent, const char *key)
{
	return *parent ? xasprintf("%s.%s", parent, key) : xstrdup(key);
}

char *
spec_loc_index(const char *parent, size_t i)
{
	return xasprintf("%s[%zu]", parent, i);
}

bool
spec_in_list(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i] && !strcmp(s, list[i]))
			return true;
	return false;
}

void
spec_join_list(struct strbuf *sb, const char *const *list, size_t n)
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
int
spec_check_keys(const struct report_spec *spec, const cJSON *obj,
    const char *loc, const char *const *allowed, size_t nallowed)
{
	const cJSON *it, *prev;

	cJSON_ArrayForEach(it, obj) {
		for (prev = obj->child; prev != it; prev = prev->next) {
			if (!strcmp(prev->string, it->string))
				return report_spec_error(spec, loc, "key '%s' "
				    "given twice", it->string);
		}
		if (!spec_in_list(it->string, allowed, nallowed)) {
			struct strbuf sb = STRBUF_INIT;
			int ret;

			spec_join_list(&sb, allowed, nallowed);
			ret = report_spec_error(spec, loc, "unknown key '%s' "
			    "(allowed here: %s)", it->string, sb.buf);
			strbuf_release(&sb);
			return ret;
		}
	}
	return 0;
}

bool
spec_text_ok(const char *s)
{
	char buf[SPEC_FAULT_MAX];

	return !spec_text_fault(s, buf);
}

/* The same rule as ingest's for names and tags (utf8_is_control()), but
 * for line breaks and tabs: a C1 or bidirectional control in a title or
 * label would reach the page and make it read as something else. */
const char *
spec_text_fault(const char *s, char *buf)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = report_utf8_len(p);
		uint32_t cp;

		if (n == 0)
			return "not valid UTF-8 text";
		cp = utf8_decode(p, n);
		if (utf8_is_control(cp) && cp != '\n' && cp != '\t' &&
		    cp != '\r') {
			snprintf(buf, SPEC_FAULT_MAX, "holds the control "
			    "character U+%04X (C0 but line breaks and tabs, "
			    "C1 and bidirectional controls are refused)",
			    (unsigned)cp);
			return buf;
		}
		p += n;
	}
	return NULL;
}

/* A string member (NULL *out when absent and not required). */
int
spec_get_string(const struct report_spec *spec, const cJSON *obj,
    const char *key, const char *loc, bool required, char **out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *l, fbuf[SPEC_FAULT_MAX];
	const char *fault;
	int ret = 0;

	if (!it) {
		if (required)
			return report_spec_error(spec, loc, "'%s' is required",
			    key);
		return 0;
	}
	l = spec_loc_key(loc, key);
	if (!cJSON_IsString(it) || !it->valuestring)
		ret = report_spec_error(spec, l, "want a string");
	else if ((fault = spec_text_fault(it->valuestring, fbuf)))
		ret = report_spec_error(spec, l, "%s", fault);
	else {
		free(*out);
		*out = xstrdup(it->valuestring);
	}
	free(l);
	return ret;
}

int
spec_get_bool(const struct report_spec *spec, const cJSON *obj, const char *key,
    const char *loc, bool *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *l;

	if (!it)
		return 0;
	if (!cJSON_IsBool(it)) {
		l = spec_loc_key(loc, key);
		report_spec_error(spec, l, "want true or false");
		free(l);
		return -1;
	}
	*out = cJSON_IsTrue(it);
	return 0;
}

int
spec_get_number(const struct report_spec *spec, const cJSON *obj,
    const char *key, const char *loc, double min, double max, bool integer,
    double *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *l;

	if (!it)
		return 0;
	if (!cJSON_IsNumber(it) || !(it->valuedouble >= min) ||
	    !(it->valuedouble <= max) ||
	    (integer && it->valuedouble != floor(it->valuedouble))) {
		l = spec_loc_key(loc, key);
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
void
spec_kv_set(struct report_kv **kv, size_t *n, const char *key,
    const char *value)
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

void
spec_kv_release(struct report_kv *kv, size_t n)
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
bool
spec_inherited_key(const char *key)
{
	const struct analyze_option *opt = analyze_option_by_spec(key);

	return spec_in_list(key, inherited_own, ARRAY_SIZE(inherited_own)) ||
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
void
spec_inherit(struct report_section *child, const struct report_section *parent)
{
	size_t i;

	child->metric = dup_or_null(parent->metric);
	for (i = 0; i < parent->nwhere; i++)
		spec_kv_set(&child->where, &child->nwhere, parent->where[i].key,
		    parent->where[i].value);
	for (i = 0; i < parent->nopts; i++)
		if (analyze_option_find(parent->opts[i].key)->inherit)
			spec_kv_set(&child->opts, &child->nopts,
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

void
spec_paths_release(struct report_path *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].id);
		free(p[i].label);
	}
	free(p);
}

/* Why e is not a string of spec text (into buf, SPEC_FAULT_MAX bytes),
 * or NULL when it is one. */
static const char *
string_fault(const cJSON *e, char *buf)
{
	if (!cJSON_IsString(e) || !e->valuestring)
		return "not a string";
	return spec_text_fault(e->valuestring, buf);
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
		const char *id, *label = NULL, *fault;
		char fbuf[SPEC_FAULT_MAX];
		char *l = cJSON_IsObject(it) ? spec_loc_key(loc, e->string) :
		    spec_loc_index(loc, n);

		if (cJSON_IsObject(it)) {
			id = e->string;
			if ((fault = string_fault(e, fbuf))) {
				report_spec_error(spec, l, "want the path's "
				    "label (a string): %s", fault);
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
		spec_paths_release(np, n);
		return -1;
	}
	spec_paths_release(s->paths, s->npaths);
	s->paths = np;
	s->npaths = n;
	s->paths_own = true;
	return 0;
}

/*
 * "condition": "P=4,proto=tcp" is a condition where one filter belongs:
 * no run has the key "condition" (meta.json's condition becomes its
 * keys).  Name the keys to use instead.  Returns 0, or -1
 * after reporting it.
 */
static int
where_condition_hint(const struct report_spec *spec, const char *loc,
    const char *text)
{
	const char *eq = strchr(text, '=');
	struct kvset keys = KVSET_INIT;
	struct strbuf why = STRBUF_INIT, names = STRBUF_INIT,
	    obj = STRBUF_INIT;
	size_t i;
	int ret = 0;

	/* a value may hold '=' (tags are free text): only the key
	 * "condition", which no run can have, is taken for this mistake */
	if (strncmp(text, "condition=", 10))
		return 0;
	if (cond_parse(eq + 1, &keys, &why) || keys.n == 0) {
		ret = report_spec_error(spec, loc, "'%s' is not a filter: a "
		    "where key is a condition key or a tag (pathstat keys lists "
		    "them), its value one value", text);
		goto cleanup;
	}
	for (i = 0; i < keys.n; i++) {
		strbuf_addf(&names, "%s%s", i == 0 ? "" : i + 1 == keys.n ?
		    " and " : ", ", keys.items[i].key);
		strbuf_addstr(&obj, i ? ", " : "");
		escape_json(&obj, keys.items[i].key);
		strbuf_addstr(&obj, ": ");
		escape_json(&obj, keys.items[i].value);
	}
	ret = report_spec_error(spec, loc, "'%s' is a condition, not one "
	    "filter: %s %s own; write {%s}", text, names.buf,
	    keys.n > 1 ? "are keys of their" : "is a key of its", obj.buf);
cleanup:
	kvset_release(&keys);
	strbuf_release(&why);
	strbuf_release(&names);
	strbuf_release(&obj);
	return ret;
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
		char *l = cJSON_IsObject(it) ? spec_loc_key(loc, e->string) :
		    spec_loc_index(loc, i);
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
		if (!bad)
			bad = where_condition_hint(spec, l, text.buf);
		if (!bad) {
			const char *eq = strchr(text.buf, '=');
			char *key = xstrndup(text.buf, (size_t)(eq - text.buf));

			spec_kv_set(&s->where, &s->nwhere, key, eq + 1);
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
		char *l = spec_loc_index(loc, i++);
		struct report_note n;
		double trial = 0;
		int bad = 0;

		memset(&n, 0, sizeof(n));
		if (!cJSON_IsObject(e))
			bad = report_spec_error(spec, l, "want an object");
		if (!bad)
			bad = spec_check_keys(spec, e, l, keys,
			    ARRAY_SIZE(keys));
		if (!bad)
			bad = spec_get_string(spec, e, "path", l, false,
			    &n.path) ||
			    spec_get_string(spec, e, "condition", l, false,
			    &n.condition) ||
			    spec_get_string(spec, e, "metric", l, false,
			    &n.metric) ||
			    spec_get_string(spec, e, "text", l, true,
			    &n.text) ||
			    spec_get_number(spec, e, "trial", l, 1, 1e9, true,
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
	const char *fault;
	char fbuf[SPEC_FAULT_MAX];

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
				if ((fault = spec_text_fault(e->valuestring,
				    fbuf)))
					return report_spec_error(spec, l,
					    "%s", fault);
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
	if ((fault = spec_text_fault(it->valuestring, fbuf)))
		return report_spec_error(spec, l, "%s", fault);
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
	l = spec_loc_key(loc, opt->spec);
	analyze_opts_init(&o);
	if (option_text(spec, opt, it, l, &text))
		ret = -1;
	else if (analyze_option_set(opt, &o, text.buf, &why))
		ret = report_spec_error(spec, l, "bad value '%s': %s", text.buf,
		    why.buf);
	else
		spec_kv_set(&s->opts, &s->nopts, opt->name, text.buf);
	analyze_opts_release(&o);
	strbuf_release(&text);
	strbuf_release(&why);
	free(l);
	return ret;
}

/* The analyze options obj sets: the inherited ones, or the section's
 * own (which spec_section.c has let through). */
int
spec_parse_options(const struct report_spec *spec, const cJSON *obj,
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
int
spec_parse_inherited(const struct report_spec *spec, const cJSON *obj,
    const char *loc, struct report_section *s)
{
	const cJSON *it;
	char *l = NULL;
	int ret = -1;

	if (spec_get_string(spec, obj, "metric", loc, false, &s->metric) ||
	    spec_parse_options(spec, obj, loc, true, s))
		goto cleanup;
	if (cJSON_GetObjectItemCaseSensitive(obj, "metric") &&
	    !metric_by_name(s->metric)) {
		struct strbuf sb = STRBUF_INIT;

		metric_unknown(&sb, s->metric);
		l = spec_loc_key(loc, "metric");
		report_spec_error(spec, l, "%s", sb.buf);
		strbuf_release(&sb);
		goto cleanup;
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "where");
	if (it) {
		l = spec_loc_key(loc, "where");
		if (parse_where(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "paths");
	if (it) {
		l = spec_loc_key(loc, "paths");
		if (parse_paths(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	it = cJSON_GetObjectItemCaseSensitive(obj, "footnotes");
	if (it) {
		l = spec_loc_key(loc, "footnotes");
		if (parse_notes(spec, it, l, s))
			goto cleanup;
		FREE_AND_NULL(l);
	}
	ret = 0;
cleanup:
	free(l);
	return ret;
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
	free(spec->baseline);
	spec_section_release(&spec->root);
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
	if (spec_check_keys(spec, it, "charts", keys, ARRAY_SIZE(keys)) ||
	    spec_get_string(spec, it, "font", "charts", false,
	    &spec->font) ||
	    spec_get_number(spec, it, "font_size", "charts", 6, 48, true,
	    &fs) ||
	    spec_get_number(spec, it, "width", "charts", REPORT_CHART_MIN_PX,
	    REPORT_CHART_MAX_PX, true, &w) ||
	    spec_get_number(spec, it, "height", "charts", REPORT_CHART_MIN_PX,
	    REPORT_CHART_MAX_PX, true, &h))
		return -1;
	spec->font_size = (long)fs;
	spec->width = (long)w;
	spec->height = (long)h;
	return 0;
}

/* The defaults a spec starts from, before its text is read. */
static void
spec_start(struct report_spec *spec, const char *name)
{
	memset(spec, 0, sizeof(*spec));
	spec->file = xstrdup(name);
	spec->font = xstrdup("DejaVu Sans");
	spec->font_size = 12;
	spec->width = 1200;
	spec->height = 700;
	spec->root.depth = -1;
	spec->root.loc = xstrdup("");
}

/* Parse and check spec->text (spec->len bytes), as read from spec->file. */
static int
spec_parse(struct report_spec *spec)
{
	const char *keys[32];
	size_t nkeys = 0, i, nopts;
	const struct analyze_option *opts = analyze_option_list(&nopts);
	const char *end = NULL;
	const cJSON *it, *e;
	const char *fault;
	char fbuf[SPEC_FAULT_MAX];
	int ret = -1;

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
	if (spec_check_keys(spec, spec->json, "", keys, nkeys) ||
	    spec_get_string(spec, spec->json, "title", "", true,
	    &spec->title) ||
	    spec_parse_inherited(spec, spec->json, "", &spec->root))
		goto cleanup;
	it = cJSON_GetObjectItemCaseSensitive(spec->json, "intro");
	if (it && cJSON_IsString(it) && (fault = string_fault(it, fbuf))) {
		report_spec_error(spec, "intro", "%s", fault);
		goto cleanup;
	} else if (it && cJSON_IsString(it)) {
		spec->intro = xcalloc(1, sizeof(char *));
		spec->intro[spec->nintro++] = xstrdup(it->valuestring);
	} else if (it && cJSON_IsArray(it)) {
		spec->intro = xcalloc((size_t)cJSON_GetArraySize(it) + 1,
		    sizeof(char *));
		cJSON_ArrayForEach(e, it) {
			if ((fault = string_fault(e, fbuf))) {
				char *l = spec_loc_index("intro",
				    spec->nintro);

				report_spec_error(spec, l, "want a paragraph "
				    "(a string): %s", fault);
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
	if (spec_parse_sections(spec, it, "sections", &spec->root))
		goto cleanup;
	ret = 0;
cleanup:
	return ret;
}

int
report_spec_load(const char *file, struct report_spec *spec)
{
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;

	spec_start(spec, file);
	/* A FIFO or device named as the spec is refused, never waited on. */
	if (infile_read(file, REPORT_SPEC_MAX_BYTES, &sb, &why)) {
		error("cannot read spec '%s': %s", file, why.buf);
		strbuf_release(&sb);
		strbuf_release(&why);
		return -1;
	}
	strbuf_release(&why);
	spec->len = sb.len;
	spec->text = strbuf_detach(&sb, NULL);
	return spec_parse(spec);
}

int
report_spec_load_text(const char *name, const char *text,
    struct report_spec *spec)
{
	spec_start(spec, name);
	spec->len = strlen(text);
	spec->text = xstrdup(text);
	return spec_parse(spec);
}

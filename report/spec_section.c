/*
 * spec_section.c - the sections of a report spec: each one's type and
 * the keys that type takes, what it inherits, and what each type needs
 * (a group's sections, a delta's pairs, a ratio's NUM/DEN, a pivot's
 * columns, a chart), checked as spec.c checks the top level.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "common/err.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/units.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/export.h"
#include "report/internal.h"
#include "report/spec.h"

static const char *const verb_names[] = {
	"compare", "delta", "mtu", "percentiles", "ratio", "relative", "trend",
	"trials", "variance",
};

static const char *const chart_names[] = {
	"bars", "relative", "ecdf", "timeseries", "box", "days", "heatmap",
};

/* The unit the section's options set, or NULL. */
const char *
report_section_unit(const struct report_section *s)
{
	const char *unit = NULL;
	size_t i;

	/* inherited first, then own: the last one holds */
	for (i = 0; i < s->nopts; i++)
		if (!strcmp(s->opts[i].key, "unit"))
			unit = s->opts[i].value;
	return unit;
}

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
		if (spec_check_keys(spec, it, loc, keys, ARRAY_SIZE(keys)) ||
		    spec_get_string(spec, it, "kind", loc, true, &kind) ||
		    spec_get_string(spec, it, "id", loc, false, &c->id) ||
		    spec_get_string(spec, it, "title", loc, false, &c->title) ||
		    spec_get_string(spec, it, "stat", loc, false, &c->stat) ||
		    spec_get_bool(spec, it, "log", loc, &c->logscale) ||
		    spec_get_number(spec, it, "width", loc, REPORT_CHART_MIN_PX,
		    REPORT_CHART_MAX_PX, true, &w) ||
		    spec_get_number(spec, it, "height", loc,
		    REPORT_CHART_MIN_PX, REPORT_CHART_MAX_PX, true, &h))
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

		spec_join_list(&sb, chart_names, ARRAY_SIZE(chart_names));
		l = cJSON_IsObject(it) ? spec_loc_key(loc, "kind") :
		    xstrdup(loc);
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
			l = spec_loc_key(loc, "stat");
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
		return pct || trials || pivot || alone ||
		    (s->type == REPORT_SEC_CALENDAR &&
		    s->calendar != REPORT_CAL_WEEKS);
	case REPORT_CHART_HEATMAP:
		return alone;
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
		char *l = spec_loc_index(loc, i), *a = NULL, *b = NULL;
		int bad = 0;

		if (cJSON_IsString(e)) {
			const char *dash = strchr(e->valuestring, '-');

			if (!dash || dash == e->valuestring || !dash[1] ||
			    !spec_text_ok(e->valuestring))
				bad = report_spec_error(spec, l, "want "
				    "MINUEND-SUBTRAHEND, e.g. \"G-G'\"");
			else
				s->args[i] = xstrdup(e->valuestring);
		} else if (cJSON_IsObject(e)) {
			bad = spec_check_keys(spec, e, l, keys,
			    ARRAY_SIZE(keys)) ||
			    spec_get_string(spec, e, "minuend", l, true, &a) ||
			    spec_get_string(spec, e, "subtrahend", l, true,
			    &b) ||
			    spec_get_string(spec, e, "label", l, false,
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

/* A derived column c (index i of s->cols): "delta" or "ratio" d of two
 * earlier condition columns, taking their stat. */
static int
column_derived(struct report_spec *spec, struct report_section *s,
    struct report_pivot_col *c, size_t i, const cJSON *d, const char *l)
{
	const char *ka, *kb;
	size_t j;

	if (!cJSON_IsArray(d) || cJSON_GetArraySize(d) != 2 ||
	    !cJSON_IsString(cJSON_GetArrayItem(d, 0)) ||
	    !cJSON_IsString(cJSON_GetArrayItem(d, 1)))
		return report_spec_error(spec, l, "\"%s\" wants two earlier "
		    "column keys [\"a\", \"b\"]", c->derive == 'd' ?
		    "delta" : "ratio");
	ka = cJSON_GetArrayItem(d, 0)->valuestring;
	kb = cJSON_GetArrayItem(d, 1)->valuestring;
	c->a = c->b = SIZE_MAX;
	for (j = 0; j < i; j++) {
		if (!strcmp(s->cols[j].key, ka))
			c->a = j;
		if (!strcmp(s->cols[j].key, kb))
			c->b = j;
	}
	if (c->a == SIZE_MAX || c->b == SIZE_MAX || s->cols[c->a].derive ||
	    s->cols[c->b].derive)
		return report_spec_error(spec, l, "no earlier condition column "
		    "with key '%s'", c->a == SIZE_MAX || s->cols[c->a].derive ?
		    ka : kb);
	if (c->stat)
		return report_spec_error(spec, l, "a derived column takes the "
		    "stat of its operands");
	if (!!s->cols[c->a].metric != !!s->cols[c->b].metric ||
	    (s->cols[c->a].metric && strcmp(s->cols[c->a].metric,
	    s->cols[c->b].metric)))
		return report_spec_error(spec, l, "columns '%s' and '%s' show "
		    "different metrics: no difference or ratio of them", ka,
		    kb);
	c->stat = xstrdup(s->cols[c->a].stat);
	if (!c->label)
		c->label = xasprintf("%s %s %s", s->cols[c->a].label,
		    c->derive == 'd' ? "−" : "/", s->cols[c->b].label);
	return 0;
}

/* A condition column: its condition made canonical ("" is the cell with
 * no condition at all), and its stat checked. */
static int
column_condition(struct report_spec *spec, struct report_pivot_col *c,
    const char *l)
{
	struct kvset kv = KVSET_INIT;
	struct strbuf why = STRBUF_INIT, canon = STRBUF_INIT;
	struct analyze_opts o;
	int bad = 0;

	if (*c->cond && (cond_parse(c->cond, &kv, &why) || kv.n == 0)) {
		bad = report_spec_error(spec, l, "bad condition '%s'%s%s",
		    c->cond, why.len ? ": " : "", why.buf);
	} else if (*c->cond) {
		kvset_join(&kv, &canon, ",");
		free(c->cond);
		c->cond = strbuf_detach(&canon, NULL);
	}
	kvset_release(&kv);
	if (!bad && !c->label)
		c->label = xstrdup(*c->cond ? c->cond : "no condition");
	if (!bad && c->stat) {
		strbuf_reset(&why);
		analyze_opts_init(&o);
		if (analyze_opts_set_stats(&o, c->stat, &why) || o.nstats != 1)
			bad = report_spec_error(spec, l, "bad stat '%s'",
			    c->stat);
		analyze_opts_release(&o);
	}
	strbuf_release(&why);
	return bad;
}

/* A static column: "values" {"PATH": "text" or number, ...}, the
 * spec's own cells (a structure, a monthly cost). */
static int
column_static(struct report_spec *spec, struct report_pivot_col *c,
    const cJSON *v, const char *l)
{
	const cJSON *e;
	size_t n = 0;

	if (!cJSON_IsObject(v))
		return report_spec_error(spec, l, "\"values\" wants an object "
		    "{\"PATH\": text or number, ...}");
	c->nvalues = (size_t)cJSON_GetArraySize(v);
	c->vpath = xcalloc(c->nvalues + 1, sizeof(char *));
	c->vtext = xcalloc(c->nvalues + 1, sizeof(char *));
	c->vnum = xcalloc(c->nvalues + 1, sizeof(double));
	cJSON_ArrayForEach(e, v) {
		char fbuf[SPEC_FAULT_MAX];
		const char *fault = cJSON_IsString(e) ?
		    spec_text_fault(e->valuestring, fbuf) : NULL;

		if (fault) {
			c->nvalues = n;
			return report_spec_error(spec, l, "value of path "
			    "'%s': %s", e->string, fault);
		}
		c->vpath[n] = xstrdup(e->string);
		if (cJSON_IsString(e)) {
			c->vtext[n] = xstrdup(e->valuestring);
			c->vnum[n] = NAN;
		} else if (cJSON_IsNumber(e) && isfinite(e->valuedouble)) {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add_double(&sb, e->valuedouble);
			c->vtext[n] = strbuf_detach(&sb, NULL);
			c->vnum[n] = e->valuedouble;
		} else {
			c->nvalues = n;
			return report_spec_error(spec, l, "value of path '%s' "
			    "wants text or a number", e->string);
		}
		n++;
	}
	if (!c->label)
		c->label = xstrdup("value");
	return 0;
}

/* Column i of a pivot from e. */
static int
parse_column(struct report_spec *spec, const cJSON *e, const char *l,
    struct report_section *s, size_t i, const char *stat)
{
	static const char *const keys[] = {
		"key", "label", "condition", "stat", "delta", "ratio",
		"metric", "values",
	};
	struct report_pivot_col *c = &s->cols[i];
	const cJSON *d, *v;
	size_t j;

	if (!cJSON_IsObject(e))
		return report_spec_error(spec, l, "want an object");
	if (spec_check_keys(spec, e, l, keys, ARRAY_SIZE(keys)) ||
	    spec_get_string(spec, e, "key", l, false, &c->key) ||
	    spec_get_string(spec, e, "label", l, false, &c->label) ||
	    spec_get_string(spec, e, "condition", l, false, &c->cond) ||
	    spec_get_string(spec, e, "stat", l, false, &c->stat) ||
	    spec_get_string(spec, e, "metric", l, false, &c->metric))
		return -1;
	d = cJSON_GetObjectItemCaseSensitive(e, "delta");
	v = cJSON_GetObjectItemCaseSensitive(e, "values");
	if (d)
		c->derive = 'd';
	else if ((d = cJSON_GetObjectItemCaseSensitive(e, "ratio")))
		c->derive = 'r';
	if (!!d + !!c->cond + !!v != 1)
		return report_spec_error(spec, l, "give exactly one of "
		    "\"condition\", \"delta\", \"ratio\" or \"values\"");
	if (c->metric && !c->cond)
		return report_spec_error(spec, l, "\"metric\" belongs to a "
		    "column with a \"condition\"");
	if (c->metric && !metric_by_name(c->metric))
		return report_spec_error(spec, l, "no metric '%s'", c->metric);
	if (v) {
		if (c->stat)
			return report_spec_error(spec, l, "a column of "
			    "\"values\" has no stat");
		c->derive = 's';
		if (column_static(spec, c, v, l))
			return -1;
	} else if (d ? column_derived(spec, s, c, i, d, l) :
	    column_condition(spec, c, l)) {
		return -1;
	}
	if (!c->stat)
		c->stat = xstrdup(stat);
	if (!c->key)
		c->key = report_slug(c->label, 40);
	else if (!kv_valid_key(c->key))
		return report_spec_error(spec, l, "bad key '%s'", c->key);
	for (j = 0; j < i; j++)
		if (!strcmp(s->cols[j].key, c->key))
			return report_spec_error(spec, l, "column key '%s' "
			    "used twice (set \"key\")", c->key);
	return 0;
}

static int
parse_columns(struct report_spec *spec, const cJSON *it, const char *loc,
    struct report_section *s, const char *stat)
{
	const cJSON *e;
	size_t i = 0, n = (size_t)cJSON_GetArraySize(it);

	if (!cJSON_IsArray(it) || n == 0)
		return report_spec_error(spec, loc, "want a list of columns");
	s->cols = xcalloc(n, sizeof(*s->cols));
	cJSON_ArrayForEach(e, it) {
		char *l = spec_loc_index(loc, i);
		int bad;

		s->ncols = i + 1;
		bad = parse_column(spec, e, l, s, i, stat);
		free(l);
		if (bad)
			return -1;
		i++;
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

	if (spec_in_list(key, common, ARRAY_SIZE(common)))
		return true;
	if (s->type == REPORT_SEC_TEXT)
		return false;
	if (spec_inherited_key(key))
		return true;
	switch (s->type) {
	case REPORT_SEC_GROUP:
		return !strcmp(key, "sections");
	case REPORT_SEC_PIVOT:
		return !strcmp(key, "columns") || !strcmp(key, "stat") ||
		    !strcmp(key, "chart") || !strcmp(key, "from_csv");
	case REPORT_SEC_CHART:
		return !strcmp(key, "chart") || !strcmp(key, "by");
	case REPORT_SEC_CALENDAR:
		/* percentiles' options, but the split is the calendar's */
		if (!strcmp(key, "chart"))
			return true;
		return opt && strcmp(key, "by") &&
		    analyze_option_for_verb(opt, "percentiles");
	case REPORT_SEC_VERB:
		if (!strcmp(key, "chart"))
			return true;
		if (!strcmp(key, "from_csv"))
			return export_sql_verb(s->verb);
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

/* The section's type (and verb) from its "type"; a throughput section
 * defaults to the throughput metric, whatever a group above says. */
static int
section_type(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(obj, "type");
	struct strbuf sb = STRBUF_INIT;
	const char *t;
	char *l;

	if (type && cJSON_IsString(type)) {
		t = type->valuestring;
		if (!strcmp(t, "group")) {
			s->type = REPORT_SEC_GROUP;
		} else if (!strcmp(t, "text")) {
			s->type = REPORT_SEC_TEXT;
		} else if (!strcmp(t, "pivot") || !strcmp(t, "throughput")) {
			s->type = REPORT_SEC_PIVOT;
			s->verb = xstrdup("percentiles");
			/* the documented default wins over a metric a
			 * group above names; the section's own "metric"
			 * (read after this) still replaces it */
			if (!strcmp(t, "throughput")) {
				free(s->metric);
				s->metric = xstrdup(metric_name(
				    METRIC_THROUGHPUT_BPS));
			}
		} else if (!strcmp(t, "chart")) {
			s->type = REPORT_SEC_CHART;
			s->verb = xstrdup("percentiles");
		} else if (!strcmp(t, "days") || !strcmp(t, "loss") ||
		    !strcmp(t, "weeks")) {
			s->type = REPORT_SEC_CALENDAR;
			s->verb = xstrdup("percentiles");
			s->calendar = !strcmp(t, "days") ? REPORT_CAL_DAYS :
			    !strcmp(t, "loss") ? REPORT_CAL_LOSS :
			    REPORT_CAL_WEEKS;
		} else if (spec_in_list(t, verb_names,
		    ARRAY_SIZE(verb_names))) {
			s->type = REPORT_SEC_VERB;
			s->verb = xstrdup(t);
			/* mtu has a metric of its own, whatever a group's */
			if (!strcmp(t, "mtu")) {
				free(s->metric);
				s->metric = xstrdup(metric_name(
				    METRIC_PATH_MTU));
			}
		} else {
			spec_join_list(&sb, verb_names, ARRAY_SIZE(verb_names));
			l = spec_loc_key(loc, "type");
			report_spec_error(spec, l, "unknown section type '%s' "
			    "(known: group, text, pivot, throughput, chart, "
			    "days, loss, weeks, %s)", t, sb.buf);
			free(l);
			strbuf_release(&sb);
			return -1;
		}
		return 0;
	}
	spec_join_list(&sb, verb_names, ARRAY_SIZE(verb_names));
	report_spec_error(spec, loc, "'type' is required: group, text, pivot, "
	    "throughput, chart, days, loss, weeks, %s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* A group: its sections, nested no deeper than REPORT_MAX_DEPTH. */
static int
section_group(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, "sections");
	char *l;
	int ret;

	if (!it)
		return report_spec_error(spec, loc, "a group needs 'sections'");
	if (s->depth >= REPORT_MAX_DEPTH)
		return report_spec_error(spec, loc, "groups nest at most %d "
		    "deep", REPORT_MAX_DEPTH);
	l = spec_loc_key(loc, "sections");
	ret = spec_parse_sections(spec, it, l, s);
	free(l);
	return ret;
}

/* A ratio: "across" KEY and "ratio" NUM/DEN, the verb's argument. */
static int
section_ratio(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s)
{
	const char *across = report_section_opt(s, "across");
	const char *slash;
	char *r = NULL, *l;

	if (!across)
		return report_spec_error(spec, loc, "'across' is required");
	if (spec_get_string(spec, obj, "ratio", loc, true, &r))
		return -1;
	slash = strchr(r, '/');
	if (!kv_valid_key(across) || !slash || slash == r || !slash[1] ||
	    strchr(slash + 1, '/')) {
		l = spec_loc_key(loc, !kv_valid_key(across) ? "across" :
		    "ratio");
		report_spec_error(spec, l, "want \"across\": KEY and "
		    "\"ratio\": \"NUM/DEN\", e.g. \"c\" and \"16/1\"");
		free(l);
		free(r);
		return -1;
	}
	s->args = xcalloc(2, sizeof(char *));
	s->args[0] = r;
	s->nargs = 1;
	return 0;
}

/* What a verb needs beyond the options: delta pairs, a ratio, compare's
 * 'by'. */
static int
section_verb(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s)
{
	const cJSON *it;
	const char *by;
	char *l;
	int ret;

	if (!strcmp(s->verb, "delta")) {
		it = cJSON_GetObjectItemCaseSensitive(obj, "pairs");
		if (!it)
			return report_spec_error(spec, loc, "a delta section "
			    "needs 'pairs'");
		l = spec_loc_key(loc, "pairs");
		ret = parse_pairs(spec, it, l, s);
		free(l);
		return ret;
	}
	if (!strcmp(s->verb, "ratio"))
		return section_ratio(spec, obj, loc, s);
	by = report_section_opt(s, "by");
	if (!strcmp(s->verb, "compare") && (!by || !*by))
		return report_spec_error(spec, loc, "a compare section needs "
		    "'by' (instance_type, day, region ...)");
	return 0;
}

/* A pivot: its statistic and columns; the percentiles query then asks
 * for every statistic the columns show. */
static int
section_pivot(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s)
{
	const char *stats = report_section_opt(s, "stats");
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, "columns");
	struct strbuf sb = STRBUF_INIT;
	char *stat = NULL, **names, *l;
	size_t i, k, nn = 0;

	if (spec_get_string(spec, obj, "stat", loc, false, &stat))
		return -1;
	if (!stat)
		stat = stats ? xstrndup(stats, strcspn(stats, ",")) :
		    xstrdup("p50");
	if (it) {
		l = spec_loc_key(loc, "columns");
		if (parse_columns(spec, it, l, s, stat)) {
			free(l);
			free(stat);
			return -1;
		}
		free(l);
	}
	for (i = 0; i < s->ncols; i++)
		if (!s->cols[i].stat)
			s->cols[i].stat = xstrdup(stat);
	names = xcalloc(s->ncols + 2, sizeof(char *));
	names[nn++] = stat;
	for (i = 0; i < s->ncols; i++) {
		for (k = 0; k < nn; k++)
			if (!strcmp(names[k], s->cols[i].stat))
				break;
		if (k == nn)
			names[nn++] = s->cols[i].stat;
	}
	for (k = 0; k < nn; k++)
		strbuf_addf(&sb, "%s%s", k ? "," : "", names[k]);
	spec_kv_set(&s->opts, &s->nopts, "stats", sb.buf);
	strbuf_release(&sb);
	free(names);
	free(stat);
	return 0;
}

/* The section's chart, if any (a chart section must have one), and one
 * that fits the section; type names the section's type for the error. */
static int
section_chart(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s, const char *type)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, "chart");
	char *l;
	int ret = 0;

	if (!it)
		return s->type == REPORT_SEC_CHART ? report_spec_error(spec,
		    loc, "a chart section needs 'chart'") : 0;
	l = spec_loc_key(loc, "chart");
	if (parse_chart(spec, it, l, s))
		ret = -1;
	else if (!chart_fits(s, s->chart->kind))
		ret = report_spec_error(spec, l, "a %s chart does not fit a "
		    "'%s' section", chart_names[s->chart->kind], type);
	free(l);
	return ret;
}

/* from_csv: the table's rows come from an engine's CSV.  Charts draw
 * from the database's samples, which such a table does not have. */
static int
section_from_csv(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *s)
{
	char *l;
	int ret = 0;

	if (spec_get_string(spec, obj, "from_csv", loc, false, &s->from_csv))
		return -1;
	if (!s->from_csv)
		return 0;
	l = spec_loc_key(loc, "from_csv");
	if (!*s->from_csv || !spec_text_ok(s->from_csv) ||
	    strchr(s->from_csv, '\n') || strchr(s->from_csv, '\t'))
		ret = report_spec_error(spec, l, "want a file name");
	else if (s->chart)
		ret = report_spec_error(spec, l, "a table from a CSV has no "
		    "samples to chart: give the chart its own section");
	free(l);
	return ret;
}

/* A section's "unit" (its own or inherited) is one its metric has. */
static int
section_unit_check(struct report_spec *spec, const char *loc,
    const struct report_section *s)
{
	struct strbuf why = STRBUF_INIT;
	const char *unit = report_section_unit(s);
	int ret = 0;

	if (unit && units_check(metric_by_name(s->metric), unit, &why))
		ret = report_spec_error(spec, loc, "unit '%s': %s", unit,
		    why.buf);
	strbuf_release(&why);
	return ret;
}

/* File stems: the section's id (or title, or type) as a slug; its
 * chart's id and title default to the section's. */
static void
section_ids(struct report_section *s, const char *type)
{
	if (s->id) {
		char *slug = report_slug(s->id, 40);

		free(s->id);
		s->id = slug;
	} else {
		s->id = report_slug(s->title ? s->title : type, 40);
	}
	if (s->chart && !s->chart->id)
		s->chart->id = xstrdup(s->id);
	if (s->chart && !s->chart->title && s->title)
		s->chart->title = xstrdup(s->title);
}

static int
parse_section(struct report_spec *spec, const cJSON *obj, const char *loc,
    struct report_section *parent, struct report_section *s)
{
	const char *type;

	spec_inherit(s, parent);
	s->loc = xstrdup(loc);
	if (!cJSON_IsObject(obj))
		return report_spec_error(spec, loc, "want an object");
	if (section_type(spec, obj, loc, s))
		return -1;
	type = cJSON_GetObjectItemCaseSensitive(obj, "type")->valuestring;
	if (section_keys(spec, obj, loc, s) ||
	    spec_get_string(spec, obj, "title", loc, false, &s->title) ||
	    spec_get_string(spec, obj, "text", loc, false, &s->text) ||
	    spec_get_string(spec, obj, "id", loc, false, &s->id) ||
	    spec_parse_inherited(spec, obj, loc, s) ||
	    spec_parse_options(spec, obj, loc, false, s))
		return -1;
	switch (s->type) {
	case REPORT_SEC_TEXT:
		if (!s->text && !s->title)
			return report_spec_error(spec, loc, "a text section "
			    "needs 'text'");
		return 0;
	case REPORT_SEC_GROUP:
		return section_group(spec, obj, loc, s);
	case REPORT_SEC_CALENDAR:
		/* split by the calendar's key, whatever a group says */
		spec_kv_set(&s->opts, &s->nopts, "by",
		    s->calendar == REPORT_CAL_WEEKS ? "week" : "day");
		break;
	case REPORT_SEC_VERB:
	case REPORT_SEC_PIVOT:
	case REPORT_SEC_CHART:
		break;
	}
	if (!s->metric)
		return report_spec_error(spec, loc, "no 'metric' here or in a "
		    "group above");
	if (section_unit_check(spec, loc, s))
		return -1;
	if ((s->type == REPORT_SEC_VERB && section_verb(spec, obj, loc, s)) ||
	    (s->type == REPORT_SEC_PIVOT && section_pivot(spec, obj, loc, s)) ||
	    section_chart(spec, obj, loc, s, type) ||
	    section_from_csv(spec, obj, loc, s))
		return -1;
	section_ids(s, type);
	return 0;
}

int
spec_parse_sections(struct report_spec *spec, const cJSON *arr, const char *loc,
    struct report_section *parent)
{
	const cJSON *e;
	size_t i = 0, n;
	int bad = 0;

	if (!cJSON_IsArray(arr))
		return report_spec_error(spec, loc, "want a list of sections");
	n = (size_t)cJSON_GetArraySize(arr);
	parent->children = xcalloc(n + 1, sizeof(*parent->children));
	/* every section's mistake at once: one per run of the report
	 * would make a spec with several take as many tries */
	cJSON_ArrayForEach(e, arr) {
		char *l = spec_loc_index(loc, i);

		parent->nchildren = i + 1;
		if (parse_section(spec, e, l, parent, &parent->children[i]))
			bad = -1;
		free(l);
		i++;
	}
	return bad;
}

void
spec_section_release(struct report_section *s)
{
	size_t i;

	for (i = 0; i < s->nchildren; i++)
		spec_section_release(&s->children[i]);
	free(s->children);
	free(s->loc);
	free(s->id);
	free(s->title);
	free(s->text);
	free(s->verb);
	free(s->metric);
	free(s->from_csv);
	spec_kv_release(s->where, s->nwhere);
	spec_kv_release(s->opts, s->nopts);
	spec_paths_release(s->paths, s->npaths);
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
		free(s->cols[i].metric);
		for (size_t k = 0; k < s->cols[i].nvalues; k++) {
			free(s->cols[i].vpath[k]);
			free(s->cols[i].vtext[k]);
		}
		free(s->cols[i].vpath);
		free(s->cols[i].vtext);
		free(s->cols[i].vnum);
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


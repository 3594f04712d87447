/*
 * section_text.c - what a section says of itself, shared by the files
 * that draw or dress it (section.c, pivot.c, month.c, chart*.c): its
 * analyze options, a path's label, the where text and the caption's
 * opening (metric, unit, estimator, pooling), and the note in its place
 * when it could not be made.  It depends on no other
 * file of report/ but spec.c's error printer, so the chart families and
 * pivots use it without calling back into section.c.
 */
#include "common/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "common/escape.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/table.h"
#include "common/xalloc.h"
#include "report/internal.h"
#include "stats/stats.h"

const char *
report_path_label(const struct report_section *s, const char *id)
{
	size_t i;

	for (i = 0; i < s->npaths; i++)
		if (!strcmp(s->paths[i].id, id))
			return s->paths[i].label;
	return "";
}

/* The time keys a period is given by in a where. */
static bool
period_key(const char *key)
{
	return !strcmp(key, "day") || !strcmp(key, "week") ||
	    !strcmp(key, "month");
}

/* Does section s read a verdict off what came before its period (the
 * weeks' week-over-week change, the trend's steps and slope)? */
static bool
needs_context(const struct report_section *s)
{
	return (s->type == REPORT_SEC_CALENDAR &&
	    s->calendar == REPORT_CAL_WEEKS) ||
	    (s->type == REPORT_SEC_VERB && s->verb &&
	    !strcmp(s->verb, "trend"));
}

/* The where value of period key with the time before it: "..END" (END
 * the last of a list or range); NULL for an open end ("D.."), which
 * then needs no filter at all.  Owned by the caller. */
static char *
period_widened(const char *v)
{
	const char *dots = strstr(v, ".."), *end = strrchr(v, ',');

	if (dots)
		return dots[2] ? xasprintf("..%s", dots + 2) : NULL;
	return xasprintf("..%s", end ? end + 1 : v);
}

bool
report_period_context(const struct report_section *s)
{
	size_t i;

	if (!needs_context(s))
		return false;
	for (i = 0; i < s->nwhere; i++)
		if (period_key(s->where[i].key) && *s->where[i].value)
			return true;
	return false;
}

int
report_section_opts(const struct report_spec *spec,
    const struct report_section *s, struct analyze_opts *o)
{
	bool widen = report_period_context(s);
	struct strbuf why = STRBUF_INIT, kv = STRBUF_INIT;
	const struct analyze_option *opt;
	size_t i;
	int ret = -1;

	analyze_opts_init(o);
	analyze_option_set(analyze_option_find("metric"), o, s->metric, &why);
	opt = analyze_option_find("where");
	for (i = 0; i < s->nwhere; i++) {
		strbuf_reset(&kv);
		/* a period's weeks and trend keep the time before it: the
		 * previous week for week-over-week, the level a step leaves */
		if (widen && period_key(s->where[i].key) &&
		    *s->where[i].value) {
			char *w = period_widened(s->where[i].value);

			if (!w)
				continue;
			strbuf_addf(&kv, "%s=%s", s->where[i].key, w);
			free(w);
		} else {
			strbuf_addf(&kv, "%s=%s", s->where[i].key,
			    s->where[i].value);
		}
		if (analyze_option_set(opt, o, kv.buf, &why)) {
			report_spec_error(spec, s->loc, "where: %s", why.buf);
			goto cleanup;
		}
	}
	/* checked when the spec was read; a failure here is a bug */
	for (i = 0; i < s->nopts; i++) {
		opt = analyze_option_find(s->opts[i].key);
		if (analyze_option_set(opt, o, s->opts[i].value, &why)) {
			report_spec_error(spec, s->loc, "%s: %s", opt->spec,
			    why.buf);
			goto cleanup;
		}
	}
	/* delta pairs name their own paths: do not filter them away */
	if (s->npaths && strcmp(s->verb, "delta")) {
		strbuf_reset(&kv);
		for (i = 0; i < s->npaths; i++)
			strbuf_addf(&kv, "%s%s", i ? "," : "", s->paths[i].id);
		if (analyze_option_set(analyze_option_find("paths"), o, kv.buf,
		    &why)) {
			report_spec_error(spec, s->loc, "paths: %s", why.buf);
			goto cleanup;
		}
	}
	ret = 0;
cleanup:
	strbuf_release(&why);
	strbuf_release(&kv);
	if (ret)
		analyze_opts_release(o);
	return ret;
}

void
report_where_text(const struct report_section *s, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < s->nwhere; i++) {
		const char *v = s->where[i].value;

		if (i)
			strbuf_addstr(sb, ", ");
		if (!*v) {
			strbuf_addf(sb, "%s unset", s->where[i].key);
			continue;
		}
		strbuf_addf(sb, "%s=", s->where[i].key);
		/* an empty alternative: "target=,nlb" reads
		 * "target=(unset),nlb" */
		for (; *v; v++) {
			bool first = v == s->where[i].value;

			if (*v == ',' && (first || v[1] == ',' || !v[1]))
				strbuf_addstr(sb, first ? "(unset)," :
				    ",(unset)");
			else
				strbuf_addch(sb, *v);
		}
	}
}

/* "A — Same AZ (baseline)" as Markdown (escaped here). */
void
report_path_md(struct strbuf *sb, const char *id, const char *label)
{
	escape_md(sb, id);
	if (label && *label) {
		strbuf_addstr(sb, " — ");
		escape_md(sb, label);
	}
}

/* The start of every caption: metric, unit, estimator and pooling. */
void
report_caption_method(const struct report_section *s,
    const struct analyze_opts *o, const struct table *t, const char *unit,
    struct strbuf *cap)
{
	const struct metric *m = metric_by_name(s->metric);
	size_t r, tool = 0;
	long ec;

	strbuf_addf(cap, "%s (%s), %s", m->title, s->metric, unit && *unit ?
	    unit : m->display_unit);
	if (s->verb && !strcmp(s->verb, "mtu")) {
		strbuf_addstr(cap, "; one result per pathprobe --mtu run");
		return;
	}
	/* the estimator the table's rows name (analyze's estimator
	 * column): oha's own numbers are "tool", never type7 */
	ec = t ? table_col(t, "estimator") : -1;
	for (r = 0; ec >= 0 && r < t->nrows; r++) {
		const char *e = table_str(t, r, ec);

		if (e && !strcmp(e, "tool"))
			tool++;
	}
	if (t && t->nrows && tool == t->nrows) {
		strbuf_addstr(cap, "; estimator: the tool's own (summary "
		    "only, no per-request samples); mean of per-trial values");
		return;
	}
	strbuf_addf(cap, "; estimator %s; %s", stats_estimator_name(o->est),
	    o->pool == STATS_POOL_POOLED ? "pooled" : "mean of per-trial "
	    "values");
	if (tool)
		strbuf_addf(cap, " (%zu row%s of the tool's own numbers only: "
		    "mean of per-trial values)", tool, tool == 1 ? "" : "s");
}

void
report_caption_where(const struct report_section *s, struct strbuf *cap)
{
	if (!s->nwhere)
		return;
	strbuf_addstr(cap, "; where ");
	report_where_text(s, cap);
	if (report_period_context(s))
		strbuf_addstr(cap, ", with the time before that period: the "
		    "context a week-over-week change and a step need (a step "
		    "in the period reads against the weeks before it)");
}

/* Append "; name = lo–hi what" to sb. */
void
report_caption_range(struct strbuf *sb, const char *name, int64_t lo,
    int64_t hi, const char *what)
{
	if (sb->len)
		strbuf_addstr(sb, "; ");
	if (lo == hi)
		strbuf_addf(sb, "%s = %lld%s%s", name, (long long)lo,
		    *what ? " " : "", what);
	else
		strbuf_addf(sb, "%s = %lld–%lld%s%s", name, (long long)lo,
		    (long long)hi, *what ? " " : "", what);
}

/* Where a section failed, index.md says so in its place: a reader of
 * the bundle must not mistake a missing table for one never planned. */
void
report_failed_marker(struct report_bundle *b, const struct report_section *s,
    struct strbuf *md)
{
	strbuf_addstr(md, "\n> **Missing:** ");
	if (s->title) {
		strbuf_addstr(md, "the section \"");
		escape_md(md, s->title);
		strbuf_addstr(md, "\" (");
	} else {
		strbuf_addstr(md, "a section (");
	}
	escape_md(md, s->loc);
	strbuf_addstr(md, " in the spec) could not be made; `pathstat "
	    "report` said why on standard error and exited 1; the other "
	    "sections are complete.\n");
	b->nmissing++;
}

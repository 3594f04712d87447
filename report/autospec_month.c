/*
 * autospec_month.c - the generated spec's group for a metric measured on
 * many days (AUTOSPEC_MONTH_DAYS or more): monitoring, read over the
 * whole period rather than as one campaign day with the others set
 * against it.  It leads with a days x paths table of the metric's
 * statistics followed across a dimension (common/metric.h's
 * METRIC_STATS_TRIALS: p50,p99 for latency, the slow side p50,p5 for
 * throughput, as analyze shows them; with the day chart), loss per day
 * beside it where attempts can fail, a weekly summary with the
 * week-over-week change and its interval, the trend per day, the
 * instance types compared where they vary, and an hours x days heatmap
 * per path.  Kept apart from autospec.c, which decides when to call it.
 */
#include "common/compat.h"

#include <stdlib.h>
#include <string.h>

#include "common/metric.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "report/autospec.h"
#include "report/internal.h"

/* "A, B and C" */
static void
month_list(struct strbuf *sb, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 == n ? " and " :
		    ", ", v[i]);
}

/* The section comparing each instance type with the main one over the
 * whole period, into sub; stem: the ids' start, stats: analyze's. */
static void
month_types_section(cJSON *sub, const struct autospec_month *am,
    const char *stem, const char *stats)
{
	struct strbuf text = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf title = STRBUF_INIT;
	cJSON *sec;

	strbuf_addf(&id, "%s-instance-types", stem);
	strbuf_addf(&title, "Instance types against %s", am->main_itype);
	strbuf_addf(&text, "Each instance type against %s over the "
	    "whole period, for the paths measured on both (their days "
	    "differ: the comparison pools each type's days); the "
	    "ratio's interval is Welch's t on the trials' values "
	    "(the caption says how many a side).",
	    am->main_itype);
	if (am->gaps)
		strbuf_addf(&text, " Not every type has every day: %s; "
		    "its ratios pool the days it has, so a change on "
		    "the days it lacks moves them.", am->gaps);
	sec = autospec_section(sub, "compare", id.buf, title.buf, text.buf);
	cJSON_AddStringToObject(sec, "by", "instance_type");
	cJSON_AddStringToObject(sec, "baseline", am->main_itype);
	cJSON_AddStringToObject(sec, "stats", stats);
	strbuf_release(&text);
	strbuf_release(&id);
	strbuf_release(&title);
}

/* An hours x days heatmap section per path, into sub, of statistic
 * tail (p99 of latency: an hour that lost probes reads ≥ timeout,
 * marked; p5 of throughput: its slow hours). */
static void
month_heatmaps(cJSON *sub, const struct autospec_month *am, const char *stem,
    const char *tail)
{
	const struct metric *m = am->m;
	struct strbuf id = STRBUF_INIT, title = STRBUF_INIT;
	cJSON *sec, *w;
	size_t i;

	for (i = 0; i < am->npaths; i++) {
		strbuf_reset(&id);
		strbuf_addf(&id, "%s-heatmap-%s", stem, am->paths[i]);
		strbuf_reset(&title);
		strbuf_addf(&title, "Hours × days, %s", am->paths[i]);
		sec = autospec_section(sub, "chart", id.buf, title.buf, NULL);
		w = cJSON_AddObjectToObject(sec, "where");
		cJSON_AddStringToObject(w, "path", am->paths[i]);
		strbuf_reset(&title);
		strbuf_addf(&title, "%s, %s: %s per hour and day", m->title,
		    am->paths[i], tail);
		autospec_chart(sec, "heatmap", tail, title.buf);
	}
	strbuf_release(&id);
	strbuf_release(&title);
}

void
autospec_month_group(cJSON *arr, const struct autospec_month *am)
{
	const struct metric *m = am->m;
	struct strbuf text = STRBUF_INIT, stem = STRBUF_INIT, id = STRBUF_INIT;
	struct strbuf title = STRBUF_INIT;
	cJSON *grp, *sub, *sec;
	/* analyze's defaults (static): the list, and its tail for charts */
	const char *stats = metric_default_stats(m, METRIC_STATS_TRIALS);
	const char *comma = strchr(stats, ',');
	char *head = xstrndup(stats, comma ? (size_t)(comma - stats) :
	    strlen(stats));
	const char *tail = comma ? comma + 1 : stats;
	/* a reporting interval of iperf3 never fails: no loss to show */
	bool loss = !m->series;

	strbuf_addf(&stem, "%s%s%s", am->study ? am->study : "",
	    am->study ? "-" : "", m->name);
	strbuf_addf(&text, "%zu runs of %zu path%s (", am->nruns, am->npaths,
	    am->npaths == 1 ? "" : "s");
	month_list(&text, am->paths, am->npaths);
	strbuf_addf(&text, ") over %s..%s (%zu days), read over the whole "
	    "period: each day's %s%s%s per path, %sthe weeks and their "
	    "week-over-week change, the trend, ", am->days[0],
	    am->days[am->ndays - 1], am->ndays, head, comma ? " and " : "",
	    comma ? tail : "", loss ? "loss per day beside them, " : "");
	if (am->nitypes > 1) {
		strbuf_addstr(&text, "the instance types (");
		month_list(&text, am->itypes, am->nitypes);
		strbuf_addstr(&text, ") compared, ");
	}
	strbuf_addstr(&text, "and each path's hours × days.");
	strbuf_addf(&title, "%s (%s)", m->title, m->name);
	grp = autospec_section(arr, "group", NULL, title.buf, text.buf);
	cJSON_AddStringToObject(grp, "metric", m->name);
	sub = cJSON_AddArrayToObject(grp, "sections");

	strbuf_addf(&id, "%s-days", stem.buf);
	strbuf_reset(&text);
	strbuf_addf(&text, "Each day's %s%s%s per path (UTC days)", head,
	    comma ? " and " : "", comma ? tail : "");
	if (m->higher_better)
		strbuf_addf(&text, "; higher is better, so %s is the slow "
		    "side", tail);
	if (m->timeout_bound)
		strbuf_addstr(&text, "; a cell that read a timed-out probe is "
		    "≥ timeout, a lower bound");
	strbuf_addch(&text, '.');
	sec = autospec_section(sub, "days", id.buf, "Days × paths", text.buf);
	cJSON_AddStringToObject(sec, "stats", stats);
	strbuf_reset(&title);
	strbuf_addf(&title, "%s: %s per day", m->title, tail);
	autospec_chart(sec, "days", tail, title.buf);

	if (loss) {
		strbuf_reset(&id);
		strbuf_addf(&id, "%s-loss", stem.buf);
		autospec_section(sub, "loss", id.buf, "Loss per day", "The "
		    "share of each path's attempts that failed, per day: a "
		    "lossy day shows here even where its latency looks "
		    "normal.");
	}

	strbuf_reset(&id);
	strbuf_addf(&id, "%s-weeks", stem.buf);
	sec = autospec_section(sub, "weeks", id.buf, "Weeks", "Each path's ISO "
	    "weeks and the change of p50 from the week before.");
	cJSON_AddStringToObject(sec, "stats", stats);
	cJSON_AddTrueToObject(sec, "ci");

	strbuf_reset(&id);
	strbuf_addf(&id, "%s-trend", stem.buf);
	sec = autospec_section(sub, "trend", id.buf, "Trend", "Each path's "
	    "statistic day by day: the slope over the period, and a change "
	    "point where the series steps.");
	cJSON_AddStringToObject(sec, "by", "day");
	cJSON_AddStringToObject(sec, "stats", stats);

	if (am->nitypes > 1)
		month_types_section(sub, am, stem.buf, stats);
	month_heatmaps(sub, am, stem.buf, tail);
	strbuf_release(&text);
	strbuf_release(&stem);
	strbuf_release(&id);
	strbuf_release(&title);
	free(head);
}

/*
 * shown.c - the statistics a verb shows: the user's --stats, else the
 * metric's defaults (common/metric.h: metric_default_stats(), one rule
 * for analyze, its --sql and report), and the words that say which were
 * chosen and why.
 */
#include "common/compat.h"

#include <string.h>

#include "analyze/internal.h"
#include "common/err.h"
#include "common/metric.h"
#include "common/strbuf.h"
#include "common/table.h"

/* The names a default list may hold.  stat_names are owned strings in a
 * user's analyze_opts; a resolved copy borrows these instead (writable
 * because the array is of char *, never written). */
char name_p50[] = "p50", name_p99[] = "p99";
static char name_p1[] = "p1", name_p5[] = "p5", name_p95[] = "p95",
	name_min[] = "min", name_max[] = "max", name_mean[] = "mean";
static char *const names[] = {
	name_p1, name_p5, name_p50, name_p95, name_p99, name_min, name_max,
	name_mean,
};

/* The use of a verb's statistics; false for mtu, which shows its own. */
static bool
verb_use(const char *verb, enum metric_stats_use *use)
{
	static const char *const per_trial[] = { "trials", "compare", "trend",
		"variance" };
	size_t i;

	if (!strcmp(verb, "mtu"))
		return false;
	*use = METRIC_STATS_TABLE;
	for (i = 0; i < ARRAY_SIZE(per_trial); i++)
		if (!strcmp(verb, per_trial[i]))
			*use = METRIC_STATS_TRIALS;
	return true;
}

/* Set o's stats from a default list, borrowing names[]. */
static void
set_default(struct analyze_opts *o, const char *list)
{
	const char *p = list;

	memset(o->stats, 0, sizeof(o->stats));
	memset(o->stat_names, 0, sizeof(o->stat_names));
	o->nstats = 0;
	while (*p) {
		size_t len = strcspn(p, ","), i;
		const char *why = NULL;

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (strlen(names[i]) == len &&
			    !strncmp(names[i], p, len))
				break;
		if (i == ARRAY_SIZE(names) || o->nstats == ANALYZE_MAX_STATS ||
		    stats_name_parse(names[i], &o->stats[o->nstats], &why))
			BUG("default statistics '%s': '%.*s'", list, (int)len,
			    p);
		o->stat_names[o->nstats++] = names[i];
		p += len + (p[len] == ',');
	}
}

void
analyze_shown_stats(const char *verb, const struct analyze_opts *o,
    struct analyze_opts *o2)
{
	const struct metric *m = metric_by_name(o->metric);
	enum metric_stats_use use;

	*o2 = *o;
	if (o->stats_given || o->stats_resolved || !m ||
	    !verb_use(verb, &use))
		return;
	set_default(o2, metric_default_stats(m, use));
	o2->stats_resolved = true;
	o2->stats_why = metric_default_stats_why(m);
}

void
analyze_default_stats(const struct analyze_opts *o, struct analyze_opts *o2)
{
	analyze_shown_stats("trials", o, o2);
}

void
analyze_stats_list(const struct analyze_opts *o, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < o->nstats; i++)
		strbuf_addf(sb, "%s%s", i ? "," : "", o->stat_names[i]);
}

void
analyze_stats_note(struct table *t, const struct analyze_opts *o)
{
	struct strbuf list = STRBUF_INIT;

	if (!o->stats_resolved || !o->stats_why || !t->nrows)
		return;
	analyze_stats_list(o, &list);
	table_add_note(t, "Statistics %s, the default for %s: %s.", list.buf,
	    o->metric, o->stats_why);
	table_append_hidden_col(t, "stats_default", list.buf);
	table_append_hidden_col(t, "stats_why", o->stats_why);
	strbuf_release(&list);
}

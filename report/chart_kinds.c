/*
 * chart_kinds.c - the table of chart kinds: which family (chart_*.c)
 * draws each kind a spec may name, and report_chart_write(), which runs
 * one chart through chart.c's core and its family.  The only file that
 * depends on every family, so that the core depends on none of them
 * (the families depend on the core, not the core on them).
 */
#include "common/compat.h"

#include <stddef.h>

#include "common/err.h"
#include "report/chart.h"
#include "report/internal.h"

/* Families without a pivot table take it and ignore it: one signature
 * for the table. */
static int
kind_relative(struct chart *ch, const struct table *pivot)
{
	(void)pivot;
	return chart_relative(ch);
}

static int
kind_ecdf(struct chart *ch, const struct table *pivot)
{
	(void)pivot;
	return chart_ecdf(ch);
}

static int
kind_timeseries(struct chart *ch, const struct table *pivot)
{
	(void)pivot;
	return chart_timeseries(ch);
}

static int
kind_box(struct chart *ch, const struct table *pivot)
{
	(void)pivot;
	return chart_box(ch);
}

static int
kind_days(struct chart *ch, const struct table *pivot)
{
	(void)pivot;
	return chart_days(ch);
}

static int
kind_heatmap(struct chart *ch, const struct table *pivot)
{
	(void)pivot;
	return chart_heatmap(ch);
}

static const struct chart_kind {
	enum report_chart_kind kind;
	int (*fill)(struct chart *ch, const struct table *pivot);
} chart_kinds[] = {
	{ REPORT_CHART_BARS, chart_bars },
	{ REPORT_CHART_RELATIVE, kind_relative },
	{ REPORT_CHART_ECDF, kind_ecdf },
	{ REPORT_CHART_TIMESERIES, kind_timeseries },
	{ REPORT_CHART_BOX, kind_box },
	{ REPORT_CHART_DAYS, kind_days },
	{ REPORT_CHART_HEATMAP, kind_heatmap },
};

int
report_chart_write(struct report_bundle *b, struct report_section *s,
    const struct table *pivot, size_t no)
{
	const struct chart_kind *k = NULL;
	struct chart ch;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(chart_kinds); i++)
		if (chart_kinds[i].kind == s->chart->kind)
			k = &chart_kinds[i];
	if (!k)
		BUG("chart kind %d has no family", (int)s->chart->kind);
	chart_init(&ch, b, s, no);
	ret = k->fill(&ch, pivot);
	if (!ret)
		ret = chart_finish(&ch);
	chart_release(&ch);
	return ret;
}

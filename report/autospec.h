/*
 * autospec.h - the report spec pathstat writes itself from what a
 * database holds (autospec.c): what `pathstat report` without --spec
 * renders and `pathstat report --init` prints for the user to edit.
 * Private to report/.
 */
#ifndef PATHSTAT_REPORT_AUTOSPEC_H
#define PATHSTAT_REPORT_AUTOSPEC_H

#include "common/compat.h"

#include <cJSON.h>

struct report_spec;
struct strbuf;

/* The name a generated spec goes by in messages, chart scripts and
 * index.md ("... from the spec generated from the database"). */
#define REPORT_AUTOSPEC_NAME	"generated from the database"

/*
 * The spec made from what the database at db_path holds, as the text
 * --init prints (*text, the caller frees) and, when spec is not NULL,
 * read into spec (report_spec_release it) and marked generated: per
 * study (the "study" tag; runs without one in a group of their own),
 * one group per metric with its percentile table and bar chart, its
 * ECDF, deltas against the path baseline (NULL: none), per-trial spread
 * where cells have several trials, and comparisons across days and
 * instance types where those vary.  Returns 0; -2 when baseline names
 * no path the database holds; -1 otherwise (a database without runs
 * too); both after printing what went wrong.
 */
int report_autospec_spec(const char *db_path, const char *baseline,
    struct report_spec *spec, char **text);

/* A metric measured on at least this many days is read as monitoring
 * (autospec_month.c): over the whole period, not as one campaign day. */
#define AUTOSPEC_MONTH_DAYS	7

struct metric;

/* What the month group of one metric is made from (borrowed). */
struct autospec_month {
	const struct metric *m;
	const char	*study;		/* NULL: no study tag */
	size_t		nruns;
	const char *const *days;	/* sorted, ndays >= 1 */
	size_t		ndays;
	const char *const *paths;	/* in order */
	size_t		npaths;
	const char *const *itypes;	/* instance types, NULL-free */
	size_t		nitypes;
	const char	*main_itype;	/* the one with the most runs */
	const char	*gaps;		/* "T lacks 5 of 21 days (D1..D5)";
					 * NULL: every type has every day */
};

/* Append the month group of am to arr (autospec_month.c). */
void autospec_month_group(cJSON *arr, const struct autospec_month *am);

/* Append a section {"type", "id", "title", "text"} to arr (the id
 * slugged; id and text may be NULL) and return it (autospec_doc.c). */
cJSON *autospec_section(cJSON *arr, const char *type, const char *id,
    const char *title, const char *text);
/* {"kind": kind, "title": title} (and "stat") as sec's chart. */
void autospec_chart(cJSON *sec, const char *kind, const char *stat,
    const char *title);

/* Append doc to out as JSON text a person would write: two-space
 * indents, short lists and objects on one line, a final newline. */
void report_autospec_print(const cJSON *doc, struct strbuf *out);

#endif

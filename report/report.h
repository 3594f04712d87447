/*
 * report.h - the public face of report/: `pathstat report` (one JSON
 * spec in, one bundle folder out), and footnotes that hygiene findings (or a
 * spec's own notes) attach to table cells in index.md.
 */
#ifndef PATHSTAT_REPORT_REPORT_H
#define PATHSTAT_REPORT_REPORT_H

#include "common/compat.h"

struct strbuf;
struct table;

/*
 * Append s to sb with every byte that could end a line or confuse a
 * reader replaced: control characters (newlines and tabs too) by spaces,
 * invalid UTF-8 by '?'; no quotes: for '#' comment lines in .gp and
 * .dat files.
 */
void report_gp_comment_text(struct strbuf *sb, const char *s);

/*
 * A finding about one cell: the shape `pathstat check` reports (path,
 * condition, trial, metric) and the shape of a spec's "footnotes".
 * NULL means "any"; a trial of 0 or less means the whole cell (check's
 * findings use -1).  Findings carry no scope: give attach only those
 * found under the table's own where (analyze_check with the same
 * filters).
 */
struct report_finding {
	const char	*path;		/* path ID, or NULL: every path */
	/* canonical condition ("" = none), or NULL: any */
	const char	*condition;
	long		trial;		/* the trial concerned, or <= 0 */
	const char	*metric;	/* metric name, or NULL: any metric */
	const char	*text;		/* plain text; escaped when rendered */
	/* "k=v,k=v" (check's campaign tags): a row with a column k must
	 * hold v there (a --by day table); NULL: any row */
	const char	*scope;
};

/* The footnotes of one index.md, numbered from 1 in order of first use;
 * the same text always gets the same number. */
struct report_footnotes {
	char	**texts;	/* footnote texts (owned), texts[i] is [^i+1] */
	size_t	n;		/* footnotes used */
	size_t	alloc;		/* texts allocated */
};

#define REPORT_FOOTNOTES_INIT { NULL, 0, 0 }

void report_footnotes_init(struct report_footnotes *fn);
void report_footnotes_release(struct report_footnotes *fn);

/* The number of the footnote saying text (added when new). */
size_t report_footnote_ref(struct report_footnotes *fn, const char *text);

/*
 * Attach findings to the rows of t, a table built by analyze_build():
 * a row matches when its "path" column (or "minuend"/"subtrahend" for
 * delta tables) equals the finding's path and its "condition" column
 * equals the finding's condition; metric must equal t's "metric" column
 * when both are set.  The marker [^n] is appended to the row's Markdown
 * path cell (column "path", else "pair"), keeping its display text.
 * Returns how many markers were attached.
 */
size_t report_footnotes_attach(struct report_footnotes *fn, struct table *t,
    const struct report_finding *f, size_t nf);

/* Append "[^n]: text" definitions (escaped) for every footnote to md,
 * preceded by a blank line; nothing when there are none. */
void report_footnotes_render(const struct report_footnotes *fn,
    struct strbuf *md);

int cmd_report(int argc, char **argv);

#endif

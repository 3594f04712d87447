/*
 * units.h - the unit a table or chart shows a metric in, chosen once per
 * table or chart (common/units.c).  A metric of the BITRATE family
 * (common/metric.h) is shown in bit/s, kbit/s, Mbit/s or Gbit/s (SI,
 * powers of 1000): the largest step in which the largest value shown is
 * at least 1, with 3 significant digits, unless the user forced a step
 * (analyze --unit, a report spec's "unit").  A FIXED metric keeps its
 * one display unit and its decimals.  Only what a person reads is
 * scaled: JSON and CSV keep the stored unit (bit/s), unscaled.
 */
#ifndef PATHSTAT_COMMON_UNITS_H
#define PATHSTAT_COMMON_UNITS_H

#include "common/compat.h"

struct metric;
struct strbuf;

/* md_number()'s decimals for "3 significant digits" (common/table.h). */
#define UNITS_SIG3	(-3)

struct unit_choice {
	const char	*name;		/* "Mbit/s"; static */
	double		scale;		/* stored value x scale = shown */
	int		decimals;	/* for md_number(): UNITS_SIG3 or a
					 * fixed count */
	bool		forced;		/* the user named it */
};

/*
 * Is name a unit metric m can be shown in?  0 when it is (or name is
 * NULL or "auto"); -1 with "want bit/s, kbit/s, Mbit/s or Gbit/s" (the
 * units m has) in why.  m NULL: any unit of any family is accepted.
 */
int units_check(const struct metric *m, const char *name, struct strbuf *why);
/* Every unit name pathstat shows, comma separated (help, errors). */
const char *units_all(void);

/*
 * The unit to show values of m in, given the largest absolute value the
 * table or chart shows (stored unit; NaN or 0 when none) and the forced
 * unit name (NULL or "auto": choose).  chart: the decimals of charts'
 * value labels and compare/trend tables (display_decimals) for a FIXED
 * metric, else its table decimals.  A forced name m cannot show is
 * ignored here (units_check() refuses it first).
 */
void units_choose(const struct metric *m, const char *forced,
    double max_abs, bool chart, struct unit_choice *out);
/* The same over an array of stored values (non-finite ones skipped). */
void units_choose_values(const struct metric *m, const char *forced,
    const double *v, size_t n, bool chart, struct unit_choice *out);

/*
 * The unit of numbers written as text into JSON and CSV (trials' values
 * list): always the stored unit, unscaled, with the metric's table
 * decimals, or whole bit/s for a bit rate.  The same rule for analyze
 * and for the queries of --sql (export/sql_cells.c), so both give one text.
 */
void units_machine(const struct metric *m, struct unit_choice *out);

/* Append stored value v in unit u (no unit name): "50.0", "n/a". */
void units_format(struct strbuf *sb, const struct unit_choice *u, double v);

#endif

/*
 * sql.c - `pathstat analyze percentiles|delta|ratio|trials|compare ...
 * --sql ENGINE`: the query that computes the same table as `analyze
 * --format csv` (compare: its columns but the intervals, test and
 * verdict) on Athena, Trino, Spark or DuckDB over the tables `pathstat
 * export --ddl` makes.  This file is the entry: the checks, the
 * statistics and the header; the CTEs every verb shares are in
 * sql_build.c, the verbs' final SELECTs in sql_cells.c, sql_contrast.c
 * and sql_compare.c.  The cells, failures, estimators and pooling are
 * analyze's (analyze/cells.c, analyze/verbs.c); each engine's spellings
 * are in dialect.c.
 */
#include "common/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/options.h"
#include "analyze/pooling.h"
#include "common/err.h"
#include "common/keycat.h"
#include "common/kv.h"
#include "common/metric.h"
#include "common/parse.h"
#include "common/strbuf.h"
#include "common/units.h"
#include "common/xalloc.h"
#include "export/export.h"
#include "export/internal.h"
#include "export/sql_internal.h"
#include "stats/verdict.h"

/* ------------------------------------------------------------------
 * Entry
 */

bool
export_engine_known(const char *name)
{
	enum export_engine e;

	return export_engine_parse(name, &e) == 0;
}

bool
export_sql_verb(const char *verb)
{
	return !strcmp(verb, "percentiles") || !strcmp(verb, "delta") ||
	    !strcmp(verb, "ratio") || !strcmp(verb, "trials") ||
	    !strcmp(verb, "compare");
}

/* The statistics: the user's (trials and compare: p50 and p99 unless
 * --stats or analyze resolved them).  delta has no growth column (left
 * to analyze, see the header), so it needs no hidden p50 and p99. */
static void
set_stats(struct q *x)
{
	static char p50[] = "p50", p99[] = "p99";
	const struct analyze_opts *o = x->o;
	bool trials_verb = !strcmp(x->verb, "trials");
	size_t j;

	x->nst = 0;
	/* trials and compare: p50 and p99 by default
	 * (analyze_default_stats()), unless analyze resolved them */
	if ((trials_verb || !strcmp(x->verb, "compare")) &&
	    !o->stats_given && !o->stats_resolved) {
		x->st[0].s.kind = x->st[1].s.kind = STATS_NAME_PCT;
		x->st[0].s.pct = 50.0;
		x->st[1].s.pct = 99.0;
		x->st[0].label = p50;
		x->st[1].label = p99;
		x->nst = 2;
	} else {
		for (j = 0; j < o->nstats; j++) {
			x->st[j].s = o->stats[j];
			x->st[j].label = o->stat_names[j];
		}
		x->nst = o->nstats;
	}
	for (j = 0; j < x->nst; j++)
		x->st[j].shown = true;
	/* the tool summary's name of each (analyze: trials_values() for
	 * the trials verb, tool_stat_of() for --pool trials) */
	for (j = 0; j < x->nst; j++) {
		struct qstat *s = &x->st[j];

		s->tool[0] = '\0';
		s->tool_p50 = false;
		/* an end-of-test value has no tool statistics of its own */
		if (x->m->source == METRIC_FROM_SUMMARY)
			continue;
		if (trials_verb) {
			snprintf(s->tool, sizeof(s->tool), "%s", s->label);
			continue;
		}
		switch (s->s.kind) {
		case STATS_NAME_MIN:
			snprintf(s->tool, sizeof(s->tool), "min");
			break;
		case STATS_NAME_MAX:
			snprintf(s->tool, sizeof(s->tool), "max");
			break;
		case STATS_NAME_MEAN:
			snprintf(s->tool, sizeof(s->tool), "mean");
			break;
		case STATS_NAME_N:
			break;
		case STATS_NAME_PCT:
			if (s->label[0] == 'p')
				snprintf(s->tool, sizeof(s->tool), "%s",
				    s->label);
			else
				snprintf(s->tool, sizeof(s->tool), "p%g",
				    s->s.pct);
			/* tool_stat_of(): the summary's p50 first */
			s->tool_p50 = s->s.pct == 50.0 && strcmp(s->tool,
			    "p50");
			break;
		}
	}
}

/* compare: the columns analyze adds, and why the query has none. */
static void
compare_header(struct q *x)
{
	add(x, "-- compare: analyze's columns but diff_lo, diff_hi, "
	    "diff_ci_reason, ratio_lo,\n-- ratio_hi, ratio_ci_covers, "
	    "ratio_ci_reason, test, p, p_adj, verdict, unit,\n-- "
	    "days_baseline and days_value, which `pathstat analyze compare` "
	    "adds:\n-- Welch t intervals on trial-level values (a pooled "
	    "percentile's are\n-- linearized from every sample) or on "
	    "days, an exact Mann-Whitney or\n-- Brunner-Munzel p, its "
	    "adjustment across all rows and the verdict\n-- rule "
	    "measured in docs/research/verdicts.md have no exact SQL form on\n-- "
	    "these engines.\n");
}

/* The comment on top: the command, the engine, the method. */
static void
header(struct q *x, int nargs, char **args)
{
	/* trials' CSV is the long form (one row per trial); the query
	 * gives the form of its JSON (one row per cell, values as lists) */
	const char *form = strcmp(x->verb, "trials") ? "csv" : "json";
	char **argv;
	size_t argc, i;

	argv = analyze_opts_argv(x->o, x->verb, (size_t)nargs, args, &argc);
	add(x, "--");
	for (i = 0; i < argc; i++) {
		/* the command that prints the same table */
		if (!strcmp(argv[i], "--sql") && i + 1 < argc) {
			i++;
			continue;
		}
		add(x, " ");
		if (i && !strcmp(argv[i - 1], "--format"))
			add(x, form);
		else
			sql_comment_text(x->sb, argv[i]);
	}
	analyze_argv_free(argv, argc);
	addf(x, "\n-- %s, over the tables of `pathstat export --ddl %s` "
	    "(schema %d):\n-- the same columns and rows as `pathstat analyze "
	    "... --format %s`%s.\n", x->d->name, x->o->sql,
	    EXPORT_SCHEMA_VERSION, form, strcmp(form, "json") ? "" :
	    "\n-- (one row per cell, the trials' values as lists; its "
	    "--format csv is the long\n-- form, one row per trial)");
	if (x->o->est == STATS_EST_TYPE7 && x->d->type7)
		add(x, "-- type 7 percentiles: the engine's exact "
		    "interpolating aggregate.\n");
	else if (x->o->est == STATS_EST_TYPE7)
		add(x, "-- type 7 percentiles: sorted values, interpolated "
		    "(this engine has no exact\n-- percentile; "
		    "approx_percentile would not give analyze's numbers).\n");
	else
		add(x, "-- oha's percentiles: sorted[floor(p n)], no "
		    "interpolation.\n");
	if (sql_type7_list(x))
		add(x, "-- A group's percentiles come from one such aggregate "
		    "over the array of their\n-- fractions (pa), each an "
		    "element of it: the engine gathers and sorts the\n-- "
		    "group's values once, not once per percentile.\n");
	if (!strcmp(x->verb, "compare"))
		compare_header(x);
	if (!strcmp(x->verb, "delta"))
		add(x, "-- No growth column: analyze prints growth (Δp99/Δp50) "
		    "only where a Welch t\n-- interval of Δp50 on trial-level "
		    "values excludes 0, which needs every sample;\n-- the ratio "
		    "of this query's Δp99 and Δp50 is growth without that "
		    "gate.\n");
	if (!strcmp(x->verb, "trials") || x->trials)
		add(x, "-- Trials with the same number (several days pooled) "
		    "in the order they ran, as analyze\n-- lists them.\n");
}

/* The arguments and --by each verb needs: 0, or -2 after saying what
 * is wrong. */
static int
verb_args(const char *verb, const struct analyze_opts *o, int nargs,
    char **args)
{
	if ((!strcmp(verb, "percentiles") || !strcmp(verb, "trials") ||
	    !strcmp(verb, "compare")) && nargs > 0) {
		error("%s takes no arguments (got '%s')", verb, args[0]);
		return -2;
	}
	if (!strcmp(verb, "compare") && !o->nby) {
		error("compare needs --by KEY (instance_type, day, region, az "
		    "or a tag)");
		return -2;
	}
	if (!strcmp(verb, "delta") && nargs < 1) {
		error("delta needs at least one PAIR, e.g. \"G-G'\" or H-B");
		return -2;
	}
	return 0;
}

int
export_sql_print(FILE *fp, sqlite3 *db, const char *verb,
    const struct analyze_opts *o, int nargs, char **args)
{
	struct q x;
	struct strbuf sb = STRBUF_INIT, why = STRBUF_INIT;
	enum export_engine engine;
	size_t i;
	int ret = -1;

	memset(&x, 0, sizeof(x));
	x.sb = &sb;
	x.o = o;
	x.verb = verb;
	x.trials = o->pool == STATS_POOL_PER_TRIAL;
	x.sumdef = o->pool == STATS_POOL_POOLED &&
	    !(o->given & (1u << ANALYZE_OPT_POOL));
	if (!o->sql || export_engine_parse(o->sql, &engine)) {
		error("unknown engine '%s' (known: %s)", o->sql ? o->sql : "",
		    EXPORT_ENGINES);
		return -2;
	}
	x.d = export_dialect(engine);
	x.m = metric_by_name(o->metric);
	if (!x.m) {
		metric_names_join(&why, ", ");
		error("unknown metric '%s' (known: %s)", o->metric, why.buf);
		ret = -2;
		goto cleanup;
	}
	x.connect = x.m->timeout_bound;
	if (x.m->source == METRIC_FROM_SUMMARY)
		x.sumdef = false;
	if (verb_args(verb, o, nargs, args)) {
		ret = -2;
		goto cleanup;
	}
	if (export_model_load_keys(db, &x.model))
		goto cleanup;
	for (i = 0; i < o->where.n; i++) {
		strbuf_reset(&why);
		if (export_check_key(db, o->where.items[i].key, &why)) {
			error("bad --where: %s", why.buf);
			ret = -2;
			goto cleanup;
		}
	}
	x.dimcol = xcalloc(o->nby + 1, sizeof(*x.dimcol));
	for (i = 0; i < o->nby; i++) {
		strbuf_reset(&why);
		if (export_check_key(db, o->by[i], &why)) {
			error("bad --by: %s", why.buf);
			ret = -2;
			goto cleanup;
		}
		x.dimcol[i] = export_model_column(&x.model, o->by[i]);
		if (!x.dimcol[i] && !sql_fixed_key(o->by[i])) {
			error("bad --by: no run has the key '%s'", o->by[i]);
			ret = -2;
			goto cleanup;
		}
	}
	/* the tags a cell may pool: percentiles' pooled_over, compare's
	 * also_differ */
	if (!strcmp(verb, "percentiles") || !strcmp(verb, "compare")) {
		int nk = pooling_candidates(db, o->by, o->nby, &x.pkeys);

		if (nk < 0)
			goto cleanup;
		x.pcol = xcalloc((size_t)nk + 1, sizeof(*x.pcol));
		for (i = 0; i < (size_t)nk; i++) {
			x.pcol[x.npk] = export_model_column(&x.model,
			    x.pkeys[i]);
			/* compare's also_differ names no provenance key,
			 * as analyze's does not (an export may have them) */
			if ((!x.pcol[x.npk] && !sql_fixed_key(x.pkeys[i])) ||
			    (!strcmp(verb, "compare") &&
			    keycat_is_provenance(x.pkeys[i]))) {
				free(x.pkeys[i]);
				continue;
			}
			x.pkeys[x.npk++] = x.pkeys[i];
		}
	}
	set_stats(&x);
	header(&x, nargs, args);
	sql_base_ctes(&x);
	if (!strcmp(verb, "trials")) {
		sql_trials_select(&x);
	} else {
		sql_cell_stats(&x);
		if (!strcmp(verb, "percentiles")) {
			sql_percentiles_select(&x);
		} else if (!strcmp(verb, "compare")) {
			sql_compare_select(&x);
		} else if (!strcmp(verb, "delta")) {
			ret = sql_delta_select(&x, db, nargs, args);
			if (ret)
				goto cleanup;
		} else {
			ret = sql_ratio_select(&x, nargs, args);
			if (ret)
				goto cleanup;
		}
	}
	add(&x, ";\n");
	fputs(sb.buf, fp);
	ret = 0;
cleanup:
	for (i = 0; i < x.npk; i++)
		free(x.pkeys[i]);
	free(x.pkeys);
	free(x.pcol);
	export_model_release(&x.model);
	free(x.dimcol);
	strbuf_release(&sb);
	strbuf_release(&why);
	return ret;
}

/*
 * export.h - what other parts may ask of export/ besides `pathstat
 * export` itself (cmds.h): the query that computes an analyze table on
 * an engine over the exported datasets (`pathstat analyze ... --sql
 * ENGINE`, sql.c).
 */
#ifndef PATHSTAT_EXPORT_EXPORT_H
#define PATHSTAT_EXPORT_EXPORT_H

#include "common/compat.h"

#include <stdio.h>

#include <sqlite3.h>

struct analyze_opts;

/* The engines --sql and --ddl know, as typed: "athena, trino, spark,
 * duckdb". */
#define EXPORT_ENGINES	"athena, trino, spark, duckdb"

/* Is name one of EXPORT_ENGINES? */
bool export_engine_known(const char *name);

/* Does `analyze VERB --sql` exist (percentiles, delta, ratio, trials,
 * compare)? */
bool export_sql_verb(const char *verb);

/*
 * Print to fp the query that computes `pathstat analyze VERB` with o's
 * options and args (as `--format csv` prints it: the same columns, rows
 * and order; compare's without the columns only analyze computes, which
 * the query's header names; export/sql*.c) on engine o->sql over the tables `pathstat export --ddl`
 * makes.  db gives the key columns' names (as export names them) and
 * the path IDs that split a delta pair.  The options --sql cannot
 * honour are refused by the caller (analyze/options.c's table).
 * Returns 0; -1 after an error; -2 after a usage error (bad args).
 */
int export_sql_print(FILE *fp, sqlite3 *db, const char *verb,
    const struct analyze_opts *o, int nargs, char **args);

/*
 * The three above as analyze's --sql printer (analyze/options.h), which
 * main() installs: analyze never calls into export/.
 */
extern const struct analyze_sql_printer export_sql_printer;

#endif

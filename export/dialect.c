/*
 * dialect.c - how Athena, Trino, Spark SQL and DuckDB spell what differs
 * between them, in one table: the DDL's types and identifier quotes
 * (ddl.c) and the pieces of the queries `analyze --sql` prints (sql*.c).
 * A template's $1, $2 and $3 stand for its arguments.
 */
#include "common/compat.h"

#include <string.h>

#include "common/escape.h"
#include "common/strbuf.h"
#include "analyze/options.h"
#include "export/export.h"
#include "export/internal.h"

/*
 * Sources, as read for each spelling: Trino's functions and operators
 * (array_agg with ORDER BY, array_sort placing NULLs last, element_at,
 * cardinality, array_join skipping NULLs, transform, regexp_extract_all,
 * format); Athena engine version 3 runs Trino's SQL, with Hive's DDL
 * (backquoted identifiers); Spark SQL's literals (backslash escapes in
 * string literals), percentile (exact, linear interpolation; an array of
 * fractions gives an array),
 * collect_list (skips NULLs), array_sort (structs field by field, NULL
 * first), element_at (1-based, INT index), format_string; DuckDB's quantile_cont, list, list_sort,
 * list_extract, string_agg, printf and lambda functions.
 */
static const struct dialect dialects[] = {
	[ENGINE_ATHENA] = {
		.name = "Amazon Athena (engine v3)",
		.ddl_quote = '`', .quote = '"',
		.t_string = "string", .t_int64 = "bigint",
		.t_double = "double", .t_timestamp = "timestamp",
		.schema = "pathstat.", .backslash = false,
		.t_text = "varchar", .t_index = "bigint",
		.sorted = "array_sort(array_agg($1))",
		.element = "element_at($1, $2)",
		.type7 = NULL,
		.contains = "strpos($1, $2) > 0",
		.format = "format('$2', $1)",
		.join = "array_join(array_agg($1 ORDER BY $2), '$3')",
		.order3 = "$1, $2 NULLS FIRST, $3",
		.natural = "array_join(transform(regexp_extract_all($1, "
		    "'[0-9]+|[^0-9]+'), seg -> IF(regexp_like(seg, '^[0-9]'), "
		    "lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), '')",
	},
	[ENGINE_TRINO] = {
		.name = "Trino, Hive connector",
		.ddl_quote = '"', .quote = '"',
		.t_string = "varchar", .t_int64 = "bigint",
		.t_double = "double", .t_timestamp = "timestamp",
		.schema = "pathstat.", .backslash = false,
		.t_text = "varchar", .t_index = "bigint",
		.sorted = "array_sort(array_agg($1))",
		.element = "element_at($1, $2)",
		.type7 = NULL,
		.contains = "strpos($1, $2) > 0",
		.format = "format('$2', $1)",
		.join = "array_join(array_agg($1 ORDER BY $2), '$3')",
		.order3 = "$1, $2 NULLS FIRST, $3",
		.natural = "array_join(transform(regexp_extract_all($1, "
		    "'[0-9]+|[^0-9]+'), seg -> IF(regexp_like(seg, '^[0-9]'), "
		    "lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), '')",
	},
	[ENGINE_SPARK] = {
		.name = "Spark SQL",
		.ddl_quote = '`', .quote = '`',
		.t_string = "STRING", .t_int64 = "BIGINT",
		.t_double = "DOUBLE", .t_timestamp = "TIMESTAMP",
		.schema = "pathstat.", .backslash = true,
		.t_text = "STRING", .t_index = "INT",
		.sorted = "array_sort(collect_list($1))",
		.element = "element_at($1, $2)",
		.type7 = "percentile($1, $2)",
		/* one aggregate for several fractions: the group's values
		 * are gathered and sorted once, not once per fraction */
		.type7_list = "percentile($1, array($2))",
		.contains = "instr($1, $2) > 0",
		.format = "format_string('$2', $1)",
		/* no ordered string aggregate: sort (key, text) structs */
		.join = "array_join(transform(array_sort(collect_list("
		    "named_struct($2, 'v', $1))), e -> e.v), '$3')",
		.order3 = "'o1', $1, 'o2', $2, 'o3', $3",
		.natural = "array_join(transform(regexp_extract_all($1, "
		    "'([0-9]+|[^0-9]+)', 1), seg -> IF(seg RLIKE '^[0-9]', "
		    "lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), '')",
	},
	[ENGINE_DUCKDB] = {
		.name = "DuckDB",
		.ddl_quote = '"', .quote = '"',
		.t_string = "VARCHAR", .t_int64 = "BIGINT",
		.t_double = "DOUBLE", .t_timestamp = "TIMESTAMPTZ",
		.schema = "", .backslash = false,
		.t_text = "VARCHAR", .t_index = "BIGINT",
		.sorted = "list_sort(list($1) FILTER (WHERE $1 IS NOT NULL))",
		.element = "list_extract($1, $2)",
		.type7 = "quantile_cont($1, $2)",
		.contains = "strpos($1, $2) > 0",
		.format = "printf('$2', $1)",
		.join = "string_agg($1, '$3' ORDER BY $2)",
		.order3 = "$1, $2 NULLS FIRST, $3",
		.natural = "array_to_string(list_transform("
		    "regexp_extract_all($1, '[0-9]+|[^0-9]+'), lambda seg: "
		    "CASE WHEN regexp_matches(seg, '^[0-9]') THEN "
		    "lpad(regexp_replace(seg, '^0+', ''), 20, '0') ELSE seg "
		    "END), '')",
	},
};

const struct dialect *
export_dialect(enum export_engine engine)
{
	return &dialects[engine];
}

int
export_engine_parse(const char *s, enum export_engine *out)
{
	if (!strcmp(s, "athena"))
		*out = ENGINE_ATHENA;
	else if (!strcmp(s, "trino"))
		*out = ENGINE_TRINO;
	else if (!strcmp(s, "spark"))
		*out = ENGINE_SPARK;
	else if (!strcmp(s, "duckdb"))
		*out = ENGINE_DUCKDB;
	else
		return -1;
	return 0;
}

void
dialect_expand(struct strbuf *sb, const char *tmpl, const char *a1,
    const char *a2, const char *a3)
{
	const char *p;

	for (p = tmpl; *p; p++) {
		if (p[0] == '$' && p[1] >= '1' && p[1] <= '3') {
			const char *a = p[1] == '1' ? a1 : p[1] == '2' ? a2 :
			    a3;

			strbuf_addstr(sb, a ? a : "");
			p++;
			continue;
		}
		strbuf_addch(sb, *p);
	}
}

void
dialect_string(struct strbuf *sb, const struct dialect *d, const char *s)
{
	escape_sql_literal(sb, s, d->backslash);
}

void
dialect_ident(struct strbuf *sb, const struct dialect *d, const char *s)
{
	escape_sql_ident(sb, s, d->quote);
}

const struct analyze_sql_printer export_sql_printer = {
	.engines = EXPORT_ENGINES,
	.engine_known = export_engine_known,
	.has_verb = export_sql_verb,
	.print = export_sql_print,
};

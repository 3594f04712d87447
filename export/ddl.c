/*
 * ddl.c - `pathstat export --ddl ENGINE`: the statements that make the
 * exported datasets tables in Athena (with partition projection on
 * day), Trino's Hive connector, Spark SQL, or views in DuckDB.  Each
 * engine's spellings are in one table (dialect.c); the statements
 * share one shape.
 */
#include "common/compat.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/err.h"
#include "common/escape.h"
#include "common/strbuf.h"
#include "common/xalloc.h"
#include "export/internal.h"

static const char *
type_name(const struct dialect *d, enum pq_type t)
{
	switch (t) {
	case PQ_INT64:
		return d->t_int64;
	case PQ_DOUBLE:
		return d->t_double;
	case PQ_TIMESTAMP_US:
		return d->t_timestamp;
	case PQ_STRING:
		break;
	}
	return d->t_string;
}

/* A partition key's column (and folder) name. */
static const char *
pkey_column(const struct export_model *m, size_t k)
{
	return m->pkey_index[k] == (size_t)-1 ? m->pkeys[k] :
	    m->keys[m->pkey_index[k]].column;
}

/* s is a calendar date, YYYY-MM-DD: Athena's "date" projection builds
 * each day from its first to NOW, so a day that is no date (2026-02-30,
 * 2026-13-01) would never be built and its partition would vanish. */
static bool
is_date(const char *s)
{
	int i, y = 0, mo = 0, d = 0, digit;
	struct tm tm;

	for (i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != '-')
				return false;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			return false;
		digit = s[i] - '0';
		if (i < 4)
			y = y * 10 + digit;
		else if (i < 7)
			mo = mo * 10 + digit;
		else
			d = d * 10 + digit;
	}
	if (s[10] != '\0' || y < 1)
		return false;
	/* timegm normalises 02-30 to 03-02: a date only if it stays put */
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = 12;
	return timegm(&tm) != (time_t)-1 && tm.tm_year == y - 1900 &&
	    tm.tm_mon == mo - 1 && tm.tm_mday == d;
}

/*
 * Athena's projection for partition key k: "date" (day as YYYY-MM-DD,
 * from the first day on), "enum" (the values seen), or NULL when it
 * cannot project (a partition without the key, a value the folder
 * name escapes, or one an enum cannot list: a ',', an empty value,
 * blanks at an end; projection would build another path).  *min gets
 * the first day.
 */
static const char *
projection(const struct export_model *m, size_t k, const char **min)
{
	bool dates = true;
	const char *v;
	size_t i;

	*min = NULL;
	for (i = 0; i < m->nparts; i++) {
		v = m->parts[i].values[k];
		/* "enum" values are ","-separated: a "," would split one
		 * and its partition would vanish */
		if (!v || export_value_needs_escape(v) || strchr(v, ',') ||
		    (m->parts[i].opaque && strchr(v, '~')))
			return NULL;
		if (!is_date(v))
			dates = false;
		else if (!*min || strcmp(v, *min) < 0)
			*min = v;
	}
	if (dates && !strcmp(m->pkeys[k], "day"))
		return "date";
	/* an enum's values are one ","-separated list: a value with a
	 * comma or an empty one would project to another folder, and one
	 * with blanks at an end too if Athena trims (AWS's documentation
	 * says white space is part of a value: not worth the bet).  A "$"
	 * is read as a group reference where the value goes into the
	 * location template: Trino's projection (Athena's engine) fails
	 * the query with "Illegal group reference" (t7620). */
	for (i = 0; i < m->nparts; i++) {
		v = m->parts[i].values[k];
		if (!*v || strchr(v, ',') || strchr(v, '$') ||
		    isspace((unsigned char)v[0]) ||
		    isspace((unsigned char)v[strlen(v) - 1]))
			return NULL;
	}
	return "enum";
}

/* The distinct values of partition key k, ","-joined (sorted by
 * partition folder, so repeated values are adjacent only per key 0). */
static void
enum_values(const struct export_model *m, size_t k, struct strbuf *sb)
{
	char **seen = NULL;
	size_t n = 0, i, j;
	const char *v;
	bool dup;

	for (i = 0; i < m->nparts; i++) {
		v = m->parts[i].values[k];
		dup = false;
		for (j = 0; j < n && !dup; j++)
			dup = !strcmp(seen[j], v);
		if (dup)
			continue;
		seen = xreallocarray(seen, n + 1, sizeof(*seen));
		seen[n++] = (char *)v;
		strbuf_addf(sb, "%s%s", n > 1 ? "," : "", v);
	}
	free(seen);
}

static void
ident(FILE *fp, const struct dialect *d, const char *name)
{
	struct strbuf sb = STRBUF_INIT;

	/* export's column names are [a-z0-9_] (export/model.c), so the
	 * quote never needs doubling; escape_sql_ident would if one did */
	escape_sql_ident(&sb, name, d->ddl_quote);
	fputs(sb.buf, fp);
	strbuf_release(&sb);
}

/* The column list; partition columns last when with_pkeys (Trino and
 * Spark declare them with the others). */
static void
column_list(FILE *fp, const struct dialect *d, const struct export_model *m,
    enum export_dataset ds, bool with_pkeys)
{
	struct export_cols cols = { NULL, 0, 0 };
	size_t i, n;

	export_dataset_cols(m, ds, NULL, &cols);
	n = cols.n + (with_pkeys && ds != DS_FINDINGS ? m->npkeys : 0);
	fputs(" (\n", fp);
	for (i = 0; i < cols.n; i++) {
		fputs("  ", fp);
		ident(fp, d, cols.items[i].name);
		fprintf(fp, " %s%s\n", type_name(d, cols.items[i].type),
		    i + 1 < n ? "," : "");
	}
	for (i = 0; ds != DS_FINDINGS && with_pkeys && i < m->npkeys; i++) {
		fputs("  ", fp);
		ident(fp, d, pkey_column(m, i));
		fprintf(fp, " %s%s\n", d->t_string, cols.n + i + 1 < n ? "," :
		    "");
	}
	fputs(")", fp);
	export_cols_release(&cols);
}

static void
athena_table(FILE *fp, const struct dialect *d, const struct export_model *m,
    enum export_dataset ds, const char *loc)
{
	const char *name = export_dataset_name(ds), *min, *kind;
	struct strbuf vals = STRBUF_INIT;
	bool project = m->npkeys > 0 && ds != DS_FINDINGS;
	size_t k;

	for (k = 0; project && k < m->npkeys; k++)
		if (!projection(m, k, &min))
			project = false;
	fprintf(fp, "CREATE EXTERNAL TABLE IF NOT EXISTS pathstat.%s", name);
	column_list(fp, d, m, ds, false);
	fputc('\n', fp);
	if (ds != DS_FINDINGS && m->npkeys) {
		fputs("PARTITIONED BY (", fp);
		for (k = 0; k < m->npkeys; k++) {
			fputs(k ? ", " : "", fp);
			ident(fp, d, pkey_column(m, k));
			fprintf(fp, " %s", d->t_string);
		}
		fputs(")\n", fp);
	}
	fprintf(fp, "STORED AS PARQUET\nLOCATION '%s/%s/'", loc, name);
	if (project) {
		fputs("\nTBLPROPERTIES (\n  'projection.enabled' = 'true',\n",
		    fp);
		for (k = 0; k < m->npkeys; k++) {
			const char *col = pkey_column(m, k);

			kind = projection(m, k, &min);
			fprintf(fp, "  'projection.%s.type' = '%s',\n", col,
			    kind);
			if (!strcmp(kind, "date")) {
				fprintf(fp, "  'projection.%s.format' = "
				    "'yyyy-MM-dd',\n", col);
				fprintf(fp, "  'projection.%s.range' = "
				    "'%s,NOW',\n", col, min);
				fprintf(fp, "  'projection.%s.interval' = "
				    "'1',\n", col);
				fprintf(fp, "  'projection.%s.interval.unit' = "
				    "'DAYS',\n", col);
			} else {
				strbuf_reset(&vals);
				enum_values(m, k, &vals);
				fprintf(fp, "  'projection.%s.values' = "
				    "'%s',\n", col, vals.buf);
			}
		}
		fprintf(fp, "  'storage.location.template' = '%s/%s/", loc,
		    name);
		for (k = 0; k < m->npkeys; k++)
			fprintf(fp, "%s%s=${%s}", k ? "/" : "",
			    pkey_column(m, k), pkey_column(m, k));
		fputs("/'\n)", fp);
	}
	fputs(";\n", fp);
	if (ds != DS_FINDINGS && m->npkeys && !project)
		fprintf(fp, "-- no partition projection (a partition lacks a "
		    "key, or a value needs escaping):\n-- load the partitions, "
		    "and again after each export that adds one\n"
		    "MSCK REPAIR TABLE pathstat.%s;\n", name);
	fputc('\n', fp);
	strbuf_release(&vals);
}

static void
trino_table(FILE *fp, const struct dialect *d, const struct export_model *m,
    enum export_dataset ds, const char *loc)
{
	const char *name = export_dataset_name(ds);
	size_t k;

	fprintf(fp, "CREATE TABLE IF NOT EXISTS pathstat.%s", name);
	column_list(fp, d, m, ds, true);
	fprintf(fp, "\nWITH (\n  format = 'PARQUET',\n"
	    "  external_location = '%s/%s'", loc, name);
	if (ds != DS_FINDINGS && m->npkeys) {
		fputs(",\n  partitioned_by = ARRAY[", fp);
		for (k = 0; k < m->npkeys; k++)
			fprintf(fp, "%s'%s'", k ? ", " : "", pkey_column(m, k));
		fputc(']', fp);
	}
	fputs("\n);\n", fp);
	if (ds != DS_FINDINGS && m->npkeys)
		fprintf(fp, "CALL system.sync_partition_metadata('pathstat', "
		    "'%s', 'FULL');\n", name);
	fputc('\n', fp);
}

static void
spark_table(FILE *fp, const struct dialect *d, const struct export_model *m,
    enum export_dataset ds, const char *loc)
{
	const char *name = export_dataset_name(ds);
	size_t k;

	fprintf(fp, "CREATE TABLE IF NOT EXISTS pathstat.%s", name);
	column_list(fp, d, m, ds, true);
	fputs("\nUSING PARQUET\n", fp);
	if (ds != DS_FINDINGS && m->npkeys) {
		fputs("PARTITIONED BY (", fp);
		for (k = 0; k < m->npkeys; k++) {
			fputs(k ? ", " : "", fp);
			ident(fp, d, pkey_column(m, k));
		}
		fputs(")\n", fp);
	}
	fprintf(fp, "LOCATION '%s/%s';\n", loc, name);
	if (ds != DS_FINDINGS && m->npkeys)
		fprintf(fp, "MSCK REPAIR TABLE pathstat.%s;\n", name);
	fputc('\n', fp);
}

static void
duckdb_view(FILE *fp, const struct export_model *m, enum export_dataset ds,
    const char *loc)
{
	const char *name = export_dataset_name(ds);
	bool parts = ds != DS_FINDINGS && m->npkeys;
	size_t k;

	fprintf(fp, "CREATE OR REPLACE VIEW %s AS\nSELECT * FROM read_parquet("
	    "'%s/%s/%s*.parquet',\n    hive_partitioning = %s", name, loc,
	    name, parts ? "**/" : "", parts ? "true" : "false");
	if (parts) {
		fputs(", hive_types = {", fp);
		for (k = 0; k < m->npkeys; k++)
			fprintf(fp, "%s'%s': VARCHAR", k ? ", " : "",
			    pkey_column(m, k));
		fputc('}', fp);
	}
	fputs(",\n    union_by_name = true);\n\n", fp);
}

/* A location the statements can quote: no quote, backslash or control
 * character. */
static bool
quotable(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '\'' || *p == '\\')
			return false;
	return true;
}

int
export_ddl(FILE *fp, enum export_engine engine, const char *location,
    bool local, const struct export_model *m)
{
	const struct dialect *d = export_dialect(engine);
	struct strbuf loc = STRBUF_INIT;
	size_t k;
	int ds, ret = -2;

	if (!quotable(location)) {
		error("location '%s' holds a quote, backslash or control "
		    "character", location);
		goto cleanup;
	}
	if (local) {
		if (engine == ENGINE_ATHENA) {
			error("Athena reads S3: give --location "
			    "s3://bucket/prefix (where DIR was synced to)");
			goto cleanup;
		}
		if (engine != ENGINE_DUCKDB)
			strbuf_addstr(&loc, "file://");
	} else if (!strstr(location, "://")) {
		error("--location '%s' is not a URI such as "
		    "s3://bucket/prefix", location);
		goto cleanup;
	} else if (engine == ENGINE_ATHENA && strncmp(location, "s3://", 5)) {
		error("Athena reads S3: --location '%s' does not start with "
		    "s3://", location);
		goto cleanup;
	}
	strbuf_addstr(&loc, location);
	while (loc.len > 1 && loc.buf[loc.len - 1] == '/' &&
	    strcmp(loc.buf + loc.len - 3, "://"))
		strbuf_setlen(&loc, loc.len - 1);

	fprintf(fp, "-- pathstat export, schema %d: %s over %s\n",
	    EXPORT_SCHEMA_VERSION, d->name, loc.buf);
	if (m->npkeys) {
		fputs("-- samples, runs and summaries are partitioned by ", fp);
		for (k = 0; k < m->npkeys; k++)
			fprintf(fp, "%s%s", k ? ", " : "", pkey_column(m, k));
		fputs("\n", fp);
	}
	switch (engine) {
	case ENGINE_ATHENA:
		fputs("-- run one statement per query (Athena's console or "
		    "'aws athena start-query-execution')\n\n"
		    "CREATE DATABASE IF NOT EXISTS pathstat;\n\n", fp);
		break;
	case ENGINE_TRINO:
		fputs("-- run in the catalog of the Hive connector "
		    "(trino --catalog hive)\n", fp);
		if (m->npkeys)
			fputs("-- run them all again after an export that adds "
			    "a partition: sync_partition_metadata loads it\n",
			    fp);
		fputs("\nCREATE SCHEMA IF NOT EXISTS pathstat;\n\n", fp);
		break;
	case ENGINE_SPARK:
		if (m->npkeys)
			fputs("-- run them all again after an export that adds "
			    "a partition: MSCK REPAIR TABLE loads it\n", fp);
		fputs("\nCREATE DATABASE IF NOT EXISTS pathstat;\n\n", fp);
		break;
	case ENGINE_DUCKDB:
		if (!strncmp(loc.buf, "s3://", 5))
			fputs("-- s3:// needs the httpfs extension and "
			    "credentials:\nINSTALL httpfs;\nLOAD httpfs;\n"
			    "CREATE SECRET IF NOT EXISTS pathstat_s3 "
			    "(TYPE s3, PROVIDER credential_chain);\n", fp);
		fputs("\n", fp);
		break;
	}
	for (ds = 0; ds < DS_COUNT; ds++) {
		enum export_dataset e = (enum export_dataset)ds;

		switch (engine) {
		case ENGINE_ATHENA:
			athena_table(fp, d, m, e, loc.buf);
			break;
		case ENGINE_TRINO:
			trino_table(fp, d, m, e, loc.buf);
			break;
		case ENGINE_SPARK:
			spark_table(fp, d, m, e, loc.buf);
			break;
		case ENGINE_DUCKDB:
			duckdb_view(fp, m, e, loc.buf);
			break;
		}
	}
	ret = 0;
cleanup:
	strbuf_release(&loc);
	return ret;
}

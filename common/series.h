/*
 * series.h - a run's samples of one metric stored as column blobs (the
 * series table, schema 009), and the SQL that reads them back as rows.
 *
 * A run's samples of a metric are stored SERIES_CHUNK to a series row
 * (chunk 0, 1, ...; only the last holds fewer), in seq order; a row:
 *   value   rows x IEEE 754 binary64, little-endian; a NaN is SQL NULL
 *   t_us    rows x int64, little-endian, SERIES_T_NONE for no time;
 *           the column is NULL when no sample has a time
 *   status  rows x one byte (enum sample_status); NULL when all are 0
 * Inside pathstat, SQL reads the rows with the table-valued function
 * series_rows(run_id, metric) -> (seq, t_us, value, status); for
 * sqlite3 users the samples view (schema 009) decodes the same blobs in
 * plain SQL, more slowly.
 */
#ifndef PATHSTAT_COMMON_SERIES_H
#define PATHSTAT_COMMON_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#define SERIES_T_NONE	INT64_MIN
/* samples a series row holds: schema/009-series.sql's view says 56 too */
#define SERIES_CHUNK	56

void series_put_f64(unsigned char *out, double x);
double series_get_f64(const unsigned char *in);
void series_put_i64(unsigned char *out, int64_t x);
int64_t series_get_i64(const unsigned char *in);

/*
 * Register series_rows, the aggregate pathstat_series_pack(kind, seq,
 * x) that migration 009 packs the old samples rows with (kind 'v', 't'
 * or 's'), and pathstat_series_ok(rows, value, status): the ok samples
 * with a value in one series row, counted from its blobs without
 * series_rows' row per sample.  0, or an SQLite error code.
 */
int series_register(sqlite3 *db);

#endif

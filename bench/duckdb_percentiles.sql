-- duckdb_percentiles.sql - the DuckDB peer of `pathstat analyze
-- percentiles` over `pathstat export`'s Parquet: type-7
-- p50/p95/p99 (DuckDB's quantile_cont) and max of every (path,
-- condition, metric) cell of connect_ms, http_ms and throughput_bps,
-- pooled over runs, the successful samples only.  Run after the views
-- of `pathstat export --ddl duckdb --out DIR`.
SELECT path, condition, metric, count(*) AS n,
       quantile_cont(value, 0.5) AS p50,
       quantile_cont(value, 0.95) AS p95,
       quantile_cont(value, 0.99) AS p99,
       max(value) AS max
FROM samples
WHERE metric IN ('connect_ms', 'http_ms', 'throughput_bps')
  AND status = 'ok' AND value IS NOT NULL
GROUP BY path, condition, metric
ORDER BY 1, 2, 3;

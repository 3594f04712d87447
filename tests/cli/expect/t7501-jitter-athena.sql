-- pathstat analyze trials --db s.db --metric jitter_ms --stats p50,mean,n --quantile type7 --pool pooled --format json
-- Amazon Athena (engine v3), over the tables of `pathstat export --ddl athena` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format json`
-- (one row per cell, the trials' values as lists; its --format csv is the long
-- form, one row per trial).
-- type 7 percentiles: sorted values, interpolated (this engine has no exact
-- percentile; approx_percentile would not give analyze's numbers).
-- Trials with the same number (several days pooled) in the order they ran, as analyze
-- lists them.
WITH
-- each run's end-of-test value: iperf3's end-of-test jitter (the receiver's sum)
e0 AS (
  SELECT m.run_id, max(m.value) * 1e0 AS value
  FROM pathstat.summaries m
  WHERE m.metric = 'jitter_ms' AND m.stat = 'end' AND m.value IS NOT NULL
  GROUP BY m.run_id
),
e AS (
  SELECT run_id, value FROM e0
),
-- no tool-only trials: the summary is the value
u AS (
  SELECT run_id, 0 AS ntool FROM e WHERE 1 = 0
),
-- the trials: runs with the value, each n = 1, no failures
t AS (
  SELECT r.run_id, r.path, r.condition,
    r.trial, r.started_at, 1 AS n, 0 AS failures, 0 AS tool_only, 0 AS timeouts
  FROM pathstat.runs r
  JOIN e ON e.run_id = r.run_id
  WHERE 1 = 1
),
-- the values, with their cell
v AS (
  SELECT t.path, t.condition, t.run_id, e.value
  FROM e
  JOIN t ON t.run_id = e.run_id
),
-- the cells: path, condition and --by keys
c AS (
  SELECT path, condition, count(*) AS trials, sum(n) AS n, sum(failures) AS failures,
    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 END) AS timeouts,
    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS raw_trials, sum(tool_only) AS tool_trials
  FROM t
  GROUP BY path, condition
),
-- each trial's statistics
pt AS (
  SELECT run_id,
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(value) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(value)), CAST(least(floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0) + 2, count(value)) AS bigint)) - element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS s1,
    avg(value) AS s2,
    count(value) AS s3
  FROM v
  GROUP BY run_id
),
tt AS (
  SELECT t.path, t.condition, t.run_id, t.trial, t.started_at, t.n, t.timeouts,
    CASE WHEN t.n > 0 THEN pt.s1 END AS s1,
    CASE WHEN t.n > 0 THEN pt.s2 END AS s2,
    CASE WHEN t.n > 0 THEN pt.s3 END AS s3
  FROM t
  LEFT JOIN pt ON pt.run_id = t.run_id
  LEFT JOIN u ON u.run_id = t.run_id
),
-- one row per trial and statistic
tl AS (
  SELECT path, condition, 1 AS k, trial, started_at, run_id, s1 AS x, ln(CASE WHEN s1 > 0 THEN s1 END) AS lx
    FROM tt WHERE s1 IS NOT NULL
  UNION ALL SELECT path, condition, 2 AS k, trial, started_at, run_id, s2 AS x, ln(CASE WHEN s2 > 0 THEN s2 END) AS lx
    FROM tt WHERE s2 IS NOT NULL
  UNION ALL SELECT path, condition, 3 AS k, trial, started_at, run_id, s3 AS x, ln(CASE WHEN s3 > 0 THEN s3 END) AS lx
    FROM tt WHERE s3 IS NOT NULL
),
-- the spread: mean, median, range; the median of the logs for the robust z
ts AS (
  SELECT path, condition, k, count(*) AS nt, avg(x) AS mean,
    CASE WHEN count(x) = 0 THEN NULL ELSE element_at(array_sort(array_agg(x)), CAST(floor(CAST(count(x) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(x) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(x) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(x)), CAST(least(floor(CAST(count(x) - 1 AS DOUBLE) * 0.5e0) + 2, count(x)) AS bigint)) - element_at(array_sort(array_agg(x)), CAST(floor(CAST(count(x) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS median,
    min(x) AS mn, max(x) AS mx,
    CASE WHEN count(lx) = 0 THEN NULL ELSE element_at(array_sort(array_agg(lx)), CAST(floor(CAST(count(lx) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(lx) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(lx) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(lx)), CAST(least(floor(CAST(count(lx) - 1 AS DOUBLE) * 0.5e0) + 2, count(lx)) AS bigint)) - element_at(array_sort(array_agg(lx)), CAST(floor(CAST(count(lx) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS medlog
  FROM tl
  GROUP BY path, condition, k
),
-- the median absolute deviation of the logs
tm AS (
  SELECT path, condition, k,
    CASE WHEN count(dev) = 0 THEN NULL ELSE element_at(array_sort(array_agg(dev)), CAST(floor(CAST(count(dev) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(dev) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(dev) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(dev)), CAST(least(floor(CAST(count(dev) - 1 AS DOUBLE) * 0.5e0) + 2, count(dev)) AS bigint)) - element_at(array_sort(array_agg(dev)), CAST(floor(CAST(count(dev) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS mad
  FROM (SELECT tl.path, tl.condition, tl.k, abs(tl.lx - ts.medlog) AS dev
    FROM tl JOIN ts ON tl.path = ts.path AND tl.condition = ts.condition AND tl.k = ts.k) d
  GROUP BY path, condition, k
),
-- each trial's outlier flag (stats_outlier_trials()): 2x or more from the
-- median trial and beyond the robust z calibrated for that many trials
tf AS (
  SELECT tl.*, ts.mean, ts.nt,
    CASE WHEN ts.nt < 3 OR ts.mn <= 0 THEN 0
      WHEN abs(tl.lx - ts.medlog) >= 0.6931471805592522e0
        AND abs(tl.lx - ts.medlog) >= CASE ts.nt WHEN 3 THEN 21.72e0 WHEN 4 THEN 6.89e0 WHEN 5 THEN 7.92e0 WHEN 6 THEN 5.53e0 WHEN 7 THEN 5.87e0 WHEN 8 THEN 4.94e0 WHEN 9 THEN 5.07e0 WHEN 10 THEN 4.59e0 WHEN 11 THEN 4.66e0 WHEN 12 THEN 4.35e0 WHEN 13 THEN 4.44e0 WHEN 14 THEN 4.23e0 WHEN 15 THEN 4.28e0 WHEN 16 THEN 4.12e0 WHEN 17 THEN 4.17e0 WHEN 18 THEN 4.05e0 WHEN 19 THEN 4.09e0 WHEN 20 THEN 4e0 WHEN 21 THEN 4.03e0 WHEN 22 THEN 3.95e0 WHEN 23 THEN 3.97e0 WHEN 24 THEN 3.91e0 WHEN 25 THEN 3.94e0 WHEN 26 THEN 3.88e0 WHEN 27 THEN 3.91e0 WHEN 28 THEN 3.86e0 WHEN 29 THEN 3.87e0 ELSE 3.84e0 END * 1.4826e0 * tm.mad
      THEN 1 ELSE 0 END AS outlier
  FROM tl
  JOIN ts ON tl.path = ts.path AND tl.condition = ts.condition AND tl.k = ts.k
  JOIN tm ON tl.path = tm.path AND tl.condition = tm.condition AND tl.k = tm.k
),
-- the per-trial values as analyze prints them, in trial order
tv AS (
  SELECT path, condition, k,
    array_join(array_agg(format('%.3f', x) ORDER BY trial, started_at NULLS FIRST, run_id), ', ') AS vals,
    max(CASE WHEN mean = 0 THEN NULL ELSE 100e0 * abs(x - mean) / abs(mean) END) AS dev,
    CASE WHEN sum(outlier) = 0 THEN '' ELSE array_join(array_agg(CASE WHEN outlier = 1 THEN CAST(trial AS varchar) END ORDER BY trial, started_at NULLS FIRST, run_id), ',') END AS outl
  FROM tf
  GROUP BY path, condition, k
),
ks AS (
  SELECT 1 AS k, 'p50' AS stat
  UNION ALL SELECT 2 AS k, 'mean' AS stat
  UNION ALL SELECT 3 AS k, 'n' AS stat
)
SELECT c.path AS "path", c.condition AS "condition",
  'jitter_ms' AS "metric",
  CASE WHEN c.tool_trials > 0 AND c.raw_trials = 0 THEN 'tool' ELSE 'type7' END AS "estimator", 'pooled' AS "pool", 'runs' AS "n_counts",
  ks.stat AS "stat", coalesce(ts.nt, 0) AS "trials", coalesce(tv.vals, '') AS "values",
  ts.mean AS "mean", ts.median AS "median", ts.mn AS "min", ts.mx AS "max", tv.dev AS "max_dev_pct",
  tv.outl AS "outliers",
  CASE WHEN ts.nt IS NULL THEN NULL WHEN ts.nt < 3 OR ts.mn <= 0 THEN 'none (< 3 trials)'
    WHEN tm.mad > 0 THEN '2x median and calibrated z' ELSE '2x median (MAD 0)' END AS "outlier_rule"
FROM c
CROSS JOIN ks
LEFT JOIN ts ON ts.path = c.path AND ts.condition = c.condition AND ts.k = ks.k
LEFT JOIN tm ON tm.path = c.path AND tm.condition = c.condition AND tm.k = ks.k
LEFT JOIN tv ON tv.path = c.path AND tv.condition = c.condition AND tv.k = ks.k
ORDER BY array_join(transform(regexp_extract_all(c.path, '[0-9]+|[^0-9]+'), seg -> IF(regexp_like(seg, '^[0-9]'), lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), ''), c.condition, ks.k;

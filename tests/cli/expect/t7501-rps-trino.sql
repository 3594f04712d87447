-- statistics mean,min,max, the default for rps: one value per run, so the mean of the runs, the slowest (min) and the fastest (max): percentiles of a few runs would only name one of them (p99 of 3 is the best run); higher is better.
-- pathstat analyze percentiles --db s.db --metric rps --by day --quantile type7 --pool trials --format csv
-- Trino, Hive connector, over the tables of `pathstat export --ddl trino` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format csv`.
-- type 7 percentiles: sorted values, interpolated (this engine has no exact
-- percentile; approx_percentile would not give analyze's numbers).
-- Trials with the same number (several days pooled) in the order they ran, as analyze
-- lists them.
WITH
-- each run's end-of-test value: oha's summary.requestsPerSec
e0 AS (
  SELECT m.run_id, max(m.value) * 1e0 AS value
  FROM pathstat.summaries m
  WHERE m.metric = 'rps' AND m.stat = 'requests_per_sec' AND m.value IS NOT NULL
  GROUP BY m.run_id
),
-- a run without it (no JSON summary): its successful requests over the span
-- from the first start to the last end
e AS (
  SELECT run_id, value FROM e0
  UNION ALL
  SELECT s.run_id, CAST(count(*) AS DOUBLE) / ((max(s.t_us + s.value * 1e3) - min(s.t_us)) / 1e6) AS value
  FROM pathstat.samples s
  LEFT JOIN e0 ON e0.run_id = s.run_id
  WHERE s.metric = 'http_ms' AND s.status = 'ok' AND s.value IS NOT NULL AND s.t_us IS NOT NULL
    AND e0.run_id IS NULL
  GROUP BY s.run_id
  HAVING max(s.t_us + s.value * 1e3) > min(s.t_us)
),
-- no tool-only trials: the summary is the value
u AS (
  SELECT run_id, 0 AS ntool FROM e WHERE 1 = 0
),
-- the trials: runs with the value, each n = 1, no failures
t AS (
  SELECT r.run_id, r.path, r.condition, coalesce(r."day", '') AS d1,
    coalesce(r."az", '') AS g1, coalesce(r."instance_type", '') AS g2, coalesce(r."region", '') AS g3, coalesce(r."study", '') AS g4, coalesce(r."via", '') AS g5,
    r.trial, r.started_at, 1 AS n, 0 AS failures, 0 AS tool_only, 0 AS timeouts
  FROM pathstat.runs r
  JOIN e ON e.run_id = r.run_id
  WHERE 1 = 1
),
-- the values, with their cell
v AS (
  SELECT t.path, t.condition, t.d1, t.run_id, e.value
  FROM e
  JOIN t ON t.run_id = e.run_id
),
-- the cells: path, condition and --by keys
c AS (
  SELECT path, condition, d1, count(*) AS trials, sum(n) AS n, sum(failures) AS failures,
    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 END) AS timeouts,
    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS raw_trials, sum(tool_only) AS tool_trials,
    count(DISTINCT g1) AS ng1, count(DISTINCT g2) AS ng2, count(DISTINCT g3) AS ng3, count(DISTINCT g4) AS ng4, count(DISTINCT g5) AS ng5
  FROM t
  GROUP BY path, condition, d1
),
-- each trial's statistics
pt AS (
  SELECT run_id,
    avg(value) AS s1,
    min(value) AS s2,
    max(value) AS s3
  FROM v
  GROUP BY run_id
),
tt AS (
  SELECT t.path, t.condition, t.d1, t.run_id, t.trial, t.started_at, t.n, t.timeouts,
    CASE WHEN t.n > 0 THEN pt.s1 END AS s1,
    CASE WHEN t.n > 0 THEN pt.s2 END AS s2,
    CASE WHEN t.n > 0 THEN pt.s3 END AS s3
  FROM t
  LEFT JOIN pt ON pt.run_id = t.run_id
  LEFT JOIN u ON u.run_id = t.run_id
),
-- across trials: the mean, with median, min and max
p AS (
  SELECT path, condition, d1,
    avg(s1) AS s1, CASE WHEN count(s1) = 0 THEN NULL ELSE element_at(array_sort(array_agg(s1)), CAST(floor(CAST(count(s1) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(s1) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(s1) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(s1)), CAST(least(floor(CAST(count(s1) - 1 AS DOUBLE) * 0.5e0) + 2, count(s1)) AS bigint)) - element_at(array_sort(array_agg(s1)), CAST(floor(CAST(count(s1) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS s1_med, min(s1) AS s1_min, max(s1) AS s1_max,
    avg(s2) AS s2, CASE WHEN count(s2) = 0 THEN NULL ELSE element_at(array_sort(array_agg(s2)), CAST(floor(CAST(count(s2) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(s2) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(s2) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(s2)), CAST(least(floor(CAST(count(s2) - 1 AS DOUBLE) * 0.5e0) + 2, count(s2)) AS bigint)) - element_at(array_sort(array_agg(s2)), CAST(floor(CAST(count(s2) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS s2_med, min(s2) AS s2_min, max(s2) AS s2_max,
    avg(s3) AS s3, CASE WHEN count(s3) = 0 THEN NULL ELSE element_at(array_sort(array_agg(s3)), CAST(floor(CAST(count(s3) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(s3) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(s3) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(s3)), CAST(least(floor(CAST(count(s3) - 1 AS DOUBLE) * 0.5e0) + 2, count(s3)) AS bigint)) - element_at(array_sort(array_agg(s3)), CAST(floor(CAST(count(s3) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS s3_med, min(s3) AS s3_min, max(s3) AS s3_max
  FROM tt
  GROUP BY path, condition, d1
),
cs AS (
  SELECT c.path, c.condition, c.d1, c.trials, c.n, c.failures, c.timeouts, c.raw_trials, c.tool_trials, c.ng1, c.ng2, c.ng3, c.ng4, c.ng5,
    p.s1, p.s1_med, p.s1_min, p.s1_max, 0 AS ge1,
    p.s2, p.s2_med, p.s2_min, p.s2_max, 0 AS ge2,
    p.s3, p.s3_med, p.s3_min, p.s3_max, 0 AS ge3
  FROM c
  LEFT JOIN p ON p.path = c.path AND p.condition = c.condition AND p.d1 = c.d1
)
SELECT cs.path AS "path", cs.condition AS "condition", cs.d1 AS "day",
  'rps' AS "metric",
  CASE WHEN cs.tool_trials > 0 AND cs.raw_trials = 0 THEN 'tool' WHEN cs.tool_trials > 0 THEN 'type7+tool' ELSE 'type7' END AS "estimator", 'trials' AS "pool", 'runs' AS "n_counts",
  cs.n AS "n", cs.trials AS "trials", cs.failures AS "failures",
  cs.s1 AS "mean", cs.s1_med AS "mean_median", cs.s1_min AS "mean_min", cs.s1_max AS "mean_max",
  cs.s2 AS "min", cs.s2_med AS "min_median", cs.s2_min AS "min_min", cs.s2_max AS "min_max",
  cs.s3 AS "max", cs.s3_med AS "max_median", cs.s3_min AS "max_min", cs.s3_max AS "max_max",
  substr(CASE WHEN cs.ng1 > 1 THEN ',az' ELSE '' END || CASE WHEN cs.ng2 > 1 THEN ',instance_type' ELSE '' END || CASE WHEN cs.ng3 > 1 THEN ',region' ELSE '' END || CASE WHEN cs.ng4 > 1 THEN ',study' ELSE '' END || CASE WHEN cs.ng5 > 1 THEN ',via' ELSE '' END, 2) AS "pooled_over"
FROM cs
ORDER BY array_join(transform(regexp_extract_all(cs.path, '[0-9]+|[^0-9]+'), seg -> IF(regexp_like(seg, '^[0-9]'), lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), ''), cs.condition, array_join(transform(regexp_extract_all(cs.d1, '[0-9]+|[^0-9]+'), seg -> IF(regexp_like(seg, '^[0-9]'), lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), '');

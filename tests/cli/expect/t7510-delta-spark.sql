-- pathstat analyze delta --db s.db --metric http_ms --quantile type7 --pool pooled --format csv G-G' H-B
-- Spark SQL, over the tables of `pathstat export --ddl spark` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format csv`.
-- type 7 percentiles: the engine's exact interpolating aggregate.
-- A group's percentiles come from one such aggregate over the array of their
-- fractions (pa), each an element of it: the engine gathers and sorts the
-- group's values once, not once per percentile.
-- No growth column: analyze prints growth (Δp99/Δp50) only where a Welch t
-- interval of Δp50 on trial-level values excludes 0, which needs every sample;
-- the ratio of this query's Δp99 and Δp50 is growth without that gate.
WITH
-- each run's samples of the metric: rows, and failed ones (left out, as analyze does)
k AS (
  SELECT s.run_id, count(*) AS nrows,
    sum(CASE WHEN s.status = 'ok' AND s.value IS NOT NULL THEN 0 ELSE 1 END) AS failed,
    sum(CASE WHEN s.status = 'timeout' THEN 1 ELSE 0 END) AS timeouts
  FROM pathstat.samples s
  WHERE s.metric = 'http_ms'
  GROUP BY s.run_id
),
-- the tool's own statistics: a run without samples has only these
u AS (
  SELECT m.run_id, count(*) AS ntool
  FROM pathstat.summaries m
  WHERE m.metric = 'http_ms' AND m.value IS NOT NULL
  GROUP BY m.run_id
),
-- the trials: the metric's own runs, and runs with samples of it
t AS (
  SELECT r.run_id, r.path, r.condition,
    r.trial, r.started_at,
    coalesce(k.nrows, 0) - coalesce(k.failed, 0) AS n,
    CASE WHEN r.metric = 'http_ms' THEN r.failures ELSE coalesce(k.failed, 0) END AS failures,
    CASE WHEN coalesce(k.nrows, 0) - coalesce(k.failed, 0) = 0 AND u.ntool > 0 THEN 1 ELSE 0 END AS tool_only,
    coalesce(k.timeouts, 0) AS timeouts
  FROM pathstat.runs r
  LEFT JOIN k ON k.run_id = r.run_id
  LEFT JOIN u ON u.run_id = r.run_id
  WHERE (r.metric = 'http_ms' OR k.run_id IS NOT NULL)
),
-- the successful values, with their cell
v AS (
  SELECT t.path, t.condition, t.run_id, s.value
  FROM pathstat.samples s
  JOIN t ON t.run_id = s.run_id
  WHERE s.metric = 'http_ms' AND s.status = 'ok' AND s.value IS NOT NULL
),
-- the cells: path, condition and --by keys
c AS (
  SELECT path, condition, count(*) AS trials, sum(n) AS n, sum(failures) AS failures,
    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 END) AS timeouts,
    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS raw_trials, sum(tool_only) AS tool_trials
  FROM t
  GROUP BY path, condition
),
-- pooled: all successful samples of the cell together
p AS (
  SELECT path, condition,
    element_at(pa, 1) AS s1,
    element_at(pa, 2) AS s2,
    element_at(pa, 3) AS s3,
    s4
  FROM (
    SELECT path, condition,
      percentile(value, array(0.5e0, 0.95e0, 0.99e0)) AS pa,
      max(value) AS s4
    FROM v
    GROUP BY path, condition
  ) a
),
cs AS (
  SELECT c.path, c.condition, c.trials, c.n, c.failures, c.timeouts, c.raw_trials, c.tool_trials,
    p.s1, 0 AS ge1,
    p.s2, 0 AS ge2,
    p.s3, 0 AS ge3,
    p.s4, 0 AS ge4
  FROM c
  LEFT JOIN p ON p.path = c.path AND p.condition = c.condition
)
,
delta AS (
  SELECT 0 AS o_pair, 0 AS o_side, '' AS o_cond,
    'G-G\'' AS pair, 'G' AS minuend, 'G\'' AS subtrahend, '' AS condition,
    CAST(NULL AS STRING) AS metric, CAST(NULL AS STRING) AS estimator, CAST(NULL AS STRING) AS pool, CAST(NULL AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2, CAST(NULL AS DOUBLE) AS s3, CAST(NULL AS DOUBLE) AS s4,
    CAST(NULL AS BIGINT) AS n_a, CAST(NULL AS BIGINT) AS n_b, CAST(NULL AS BIGINT) AS t_a, CAST(NULL AS BIGINT) AS t_b
  FROM cs
  HAVING sum(CASE WHEN cs.path = 'G' THEN 1 ELSE 0 END) = 0 OR sum(CASE WHEN cs.path = 'G\'' THEN 1 ELSE 0 END) = 0
  UNION ALL
  SELECT 0, CASE WHEN a.path IS NOT NULL THEN 1 ELSE 2 END, coalesce(a.condition, b.condition),
    'G-G\'', 'G', 'G\'', coalesce(a.condition, b.condition),
    'http_ms', 'type7', 'pooled',
    CASE WHEN a.ge1 = 1 OR b.ge1 = 1 THEN NULL ELSE a.s1 - b.s1 END,
    CASE WHEN a.ge2 = 1 OR b.ge2 = 1 THEN NULL ELSE a.s2 - b.s2 END,
    CASE WHEN a.ge3 = 1 OR b.ge3 = 1 THEN NULL ELSE a.s3 - b.s3 END,
    CASE WHEN a.ge4 = 1 OR b.ge4 = 1 THEN NULL ELSE a.s4 - b.s4 END,
    a.n, b.n, a.trials, b.trials
  FROM (SELECT * FROM cs WHERE cs.path = 'G') a
  FULL OUTER JOIN (SELECT * FROM cs WHERE cs.path = 'G\'') b ON a.condition = b.condition
  UNION ALL
  SELECT 1 AS o_pair, 0 AS o_side, '' AS o_cond,
    'H-B' AS pair, 'H' AS minuend, 'B' AS subtrahend, '' AS condition,
    CAST(NULL AS STRING) AS metric, CAST(NULL AS STRING) AS estimator, CAST(NULL AS STRING) AS pool, CAST(NULL AS DOUBLE) AS s1, CAST(NULL AS DOUBLE) AS s2, CAST(NULL AS DOUBLE) AS s3, CAST(NULL AS DOUBLE) AS s4,
    CAST(NULL AS BIGINT) AS n_a, CAST(NULL AS BIGINT) AS n_b, CAST(NULL AS BIGINT) AS t_a, CAST(NULL AS BIGINT) AS t_b
  FROM cs
  HAVING sum(CASE WHEN cs.path = 'H' THEN 1 ELSE 0 END) = 0 OR sum(CASE WHEN cs.path = 'B' THEN 1 ELSE 0 END) = 0
  UNION ALL
  SELECT 1, CASE WHEN b.path IS NOT NULL THEN 1 ELSE 2 END, coalesce(a.condition, b.condition),
    'H-B', 'H', 'B', coalesce(a.condition, b.condition),
    'http_ms', 'type7', 'pooled',
    CASE WHEN a.ge1 = 1 OR b.ge1 = 1 THEN NULL ELSE a.s1 - b.s1 END,
    CASE WHEN a.ge2 = 1 OR b.ge2 = 1 THEN NULL ELSE a.s2 - b.s2 END,
    CASE WHEN a.ge3 = 1 OR b.ge3 = 1 THEN NULL ELSE a.s3 - b.s3 END,
    CASE WHEN a.ge4 = 1 OR b.ge4 = 1 THEN NULL ELSE a.s4 - b.s4 END,
    a.n, b.n, a.trials, b.trials
  FROM (SELECT * FROM cs WHERE cs.path = 'H') a
  FULL OUTER JOIN (SELECT * FROM cs WHERE cs.path = 'B') b ON a.condition = b.condition
)
SELECT pair AS `pair`, minuend AS `minuend`, subtrahend AS `subtrahend`, condition AS `condition`,
  metric AS `metric`, estimator AS `estimator`, pool AS `pool`, s1 AS `p50`, s2 AS `p95`, s3 AS `p99`, s4 AS `max`,
  n_a AS `n_minuend`, n_b AS `n_subtrahend`, t_a AS `trials_minuend`, t_b AS `trials_subtrahend`
FROM delta
ORDER BY o_pair, o_side, o_cond;

-- pathstat analyze percentiles --db s.db --metric connect_ms --quantile type7 --pool pooled --format csv
-- Amazon Athena (engine v3), over the tables of `pathstat export --ddl athena` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format csv`.
-- type 7 percentiles: sorted values, interpolated (this engine has no exact
-- percentile; approx_percentile would not give analyze's numbers).
WITH
-- each run's samples of the metric: rows, and failed ones (left out, as analyze does)
k AS (
  SELECT s.run_id, count(*) AS nrows,
    sum(CASE WHEN s.status = 'ok' AND s.value IS NOT NULL THEN 0 ELSE 1 END) AS failed,
    sum(CASE WHEN s.status = 'timeout' THEN 1 ELSE 0 END) AS timeouts
  FROM pathstat.samples s
  WHERE s.metric = 'connect_ms'
  GROUP BY s.run_id
),
-- the tool's own statistics: a run without samples has only these
u AS (
  SELECT m.run_id, count(*) AS ntool,
    max(CASE WHEN m.stat = 'p50' THEN m.value END) AS s1,
    max(CASE WHEN m.stat = 'p95' THEN m.value END) AS s2,
    max(CASE WHEN m.stat = 'p99' THEN m.value END) AS s3,
    max(CASE WHEN m.stat = 'max' THEN m.value END) AS s4
  FROM pathstat.summaries m
  WHERE m.metric = 'connect_ms' AND m.value IS NOT NULL
  GROUP BY m.run_id
),
-- the trials: the metric's own runs, and runs with samples of it
t AS (
  SELECT r.run_id, r.path, r.condition,
    coalesce(r."az", '') AS g1, coalesce(r."day", '') AS g2, coalesce(r."instance_type", '') AS g3, coalesce(r."region", '') AS g4, coalesce(r."study", '') AS g5, coalesce(r."via", '') AS g6,
    r.trial, r.started_at,
    coalesce(k.nrows, 0) - coalesce(k.failed, 0) AS n,
    CASE WHEN r.metric = 'connect_ms' THEN r.failures ELSE coalesce(k.failed, 0) END AS failures,
    CASE WHEN coalesce(k.nrows, 0) - coalesce(k.failed, 0) = 0 AND u.ntool > 0 THEN 1 ELSE 0 END AS tool_only,
    coalesce(k.timeouts, 0) AS timeouts
  FROM pathstat.runs r
  LEFT JOIN k ON k.run_id = r.run_id
  LEFT JOIN u ON u.run_id = r.run_id
  WHERE (r.metric = 'connect_ms' OR k.run_id IS NOT NULL)
),
-- the successful values, with their cell
v AS (
  SELECT t.path, t.condition, t.run_id, s.value
  FROM pathstat.samples s
  JOIN t ON t.run_id = s.run_id
  WHERE s.metric = 'connect_ms' AND s.status = 'ok' AND s.value IS NOT NULL
),
-- the cells: path, condition and --by keys
c AS (
  SELECT path, condition, count(*) AS trials, sum(n) AS n, sum(failures) AS failures,
    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 END) AS timeouts,
    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS raw_trials, sum(tool_only) AS tool_trials,
    count(DISTINCT g1) AS ng1, count(DISTINCT g2) AS ng2, count(DISTINCT g3) AS ng3, count(DISTINCT g4) AS ng4, count(DISTINCT g5) AS ng5, count(DISTINCT g6) AS ng6
  FROM t
  GROUP BY path, condition
),
-- pooled: all successful samples of the cell together
p AS (
  SELECT path, condition,
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint)) + (CAST(count(value) - 1 AS DOUBLE) * 0.5e0 - floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0)) * (element_at(array_sort(array_agg(value)), CAST(least(floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0) + 2, count(value)) AS bigint)) - element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.5e0) + 1 AS bigint))) END AS s1,
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.95e0) + 1 AS bigint)) + (CAST(count(value) - 1 AS DOUBLE) * 0.95e0 - floor(CAST(count(value) - 1 AS DOUBLE) * 0.95e0)) * (element_at(array_sort(array_agg(value)), CAST(least(floor(CAST(count(value) - 1 AS DOUBLE) * 0.95e0) + 2, count(value)) AS bigint)) - element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.95e0) + 1 AS bigint))) END AS s2,
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.99e0) + 1 AS bigint)) + (CAST(count(value) - 1 AS DOUBLE) * 0.99e0 - floor(CAST(count(value) - 1 AS DOUBLE) * 0.99e0)) * (element_at(array_sort(array_agg(value)), CAST(least(floor(CAST(count(value) - 1 AS DOUBLE) * 0.99e0) + 2, count(value)) AS bigint)) - element_at(array_sort(array_agg(value)), CAST(floor(CAST(count(value) - 1 AS DOUBLE) * 0.99e0) + 1 AS bigint))) END AS s3,
    max(value) AS s4
  FROM v
  GROUP BY path, condition
),
-- a cell with only the tool's summaries: per trial, the mean of the tool's numbers
q AS (
  SELECT t.path, t.condition,
    avg(u.s1) AS s1,
    avg(u.s2) AS s2,
    avg(u.s3) AS s3,
    avg(u.s4) AS s4
  FROM t
  JOIN u ON u.run_id = t.run_id
  WHERE t.tool_only = 1
  GROUP BY t.path, t.condition
),
cs AS (
  SELECT c.path, c.condition, c.trials, c.n, c.failures, c.timeouts, c.raw_trials, c.tool_trials, c.ng1, c.ng2, c.ng3, c.ng4, c.ng5, c.ng6,
    CASE WHEN c.raw_trials = 0 AND c.tool_trials > 0 THEN q.s1 ELSE p.s1 END AS s1,
      CASE WHEN c.timeouts > 0 AND CAST(c.n + c.timeouts - 1 AS BIGINT) * 50 > CAST(c.n - 1 AS BIGINT) * 100 THEN 1 ELSE 0 END AS ge1,
    CASE WHEN c.raw_trials = 0 AND c.tool_trials > 0 THEN q.s2 ELSE p.s2 END AS s2,
      CASE WHEN c.timeouts > 0 AND CAST(c.n + c.timeouts - 1 AS BIGINT) * 95 > CAST(c.n - 1 AS BIGINT) * 100 THEN 1 ELSE 0 END AS ge2,
    CASE WHEN c.raw_trials = 0 AND c.tool_trials > 0 THEN q.s3 ELSE p.s3 END AS s3,
      CASE WHEN c.timeouts > 0 AND CAST(c.n + c.timeouts - 1 AS BIGINT) * 99 > CAST(c.n - 1 AS BIGINT) * 100 THEN 1 ELSE 0 END AS ge3,
    CASE WHEN c.raw_trials = 0 AND c.tool_trials > 0 THEN q.s4 ELSE p.s4 END AS s4,
      CASE WHEN c.timeouts > 0 THEN 1 ELSE 0 END AS ge4
  FROM c
  LEFT JOIN p ON p.path = c.path AND p.condition = c.condition
  LEFT JOIN q ON q.path = c.path AND q.condition = c.condition
)
SELECT cs.path AS "path", cs.condition AS "condition",
  'connect_ms' AS "metric",
  CASE WHEN cs.tool_trials > 0 AND cs.raw_trials = 0 THEN 'tool' ELSE 'type7' END AS "estimator", CASE WHEN cs.tool_trials > 0 AND cs.raw_trials = 0 THEN 'trials' ELSE 'pooled' END AS "pool",
  cs.n AS "n", cs.trials AS "trials", cs.failures AS "failures", cs.timeouts AS "timeouts",
  CASE WHEN cs.n + cs.failures > 0 THEN 100e0 * CAST(cs.failures AS DOUBLE) / CAST(cs.n + cs.failures AS DOUBLE) END AS "loss_pct",
  cs.s1 AS "p50", cs.ge1 AS "p50_ge_timeout",
  cs.s2 AS "p95", cs.ge2 AS "p95_ge_timeout",
  cs.s3 AS "p99", cs.ge3 AS "p99_ge_timeout",
  cs.s4 AS "max", cs.ge4 AS "max_ge_timeout",
  substr(CASE WHEN cs.ng1 > 1 THEN ',az' ELSE '' END || CASE WHEN cs.ng2 > 1 THEN ',day' ELSE '' END || CASE WHEN cs.ng3 > 1 THEN ',instance_type' ELSE '' END || CASE WHEN cs.ng4 > 1 THEN ',region' ELSE '' END || CASE WHEN cs.ng5 > 1 THEN ',study' ELSE '' END || CASE WHEN cs.ng6 > 1 THEN ',via' ELSE '' END, 2) AS "pooled_over"
FROM cs
ORDER BY array_join(transform(regexp_extract_all(cs.path, '[0-9]+|[^0-9]+'), seg -> IF(regexp_like(seg, '^[0-9]'), lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), ''), cs.condition;

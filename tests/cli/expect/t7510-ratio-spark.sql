-- pathstat analyze ratio --db s.db --metric http_ms --quantile type7 --pool trials --across c --format csv 16/1
-- Spark SQL, over the tables of `pathstat export --ddl spark` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format csv`.
-- type 7 percentiles: the engine's exact interpolating aggregate.
-- A group's percentiles come from one such aggregate over the array of their
-- fractions (pa), each an element of it: the engine gathers and sorts the
-- group's values once, not once per percentile.
-- Trials with the same number (several days pooled) in the order they ran, as analyze
-- lists them.
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
  SELECT m.run_id, count(*) AS ntool,
    max(CASE WHEN m.stat = 'p50' THEN m.value END) AS s1,
    max(CASE WHEN m.stat = 'p95' THEN m.value END) AS s2,
    max(CASE WHEN m.stat = 'p99' THEN m.value END) AS s3,
    max(CASE WHEN m.stat = 'max' THEN m.value END) AS s4
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
-- each trial's statistics
pt AS (
  SELECT run_id,
    element_at(pa, 1) AS s1,
    element_at(pa, 2) AS s2,
    element_at(pa, 3) AS s3,
    s4
  FROM (
    SELECT run_id,
      percentile(value, array(0.5e0, 0.95e0, 0.99e0)) AS pa,
      max(value) AS s4
    FROM v
    GROUP BY run_id
  ) a
),
tt AS (
  SELECT t.path, t.condition, t.run_id, t.trial, t.started_at, t.n, t.timeouts,
    CASE WHEN t.n > 0 THEN pt.s1 WHEN t.tool_only = 1 THEN u.s1 END AS s1,
    CASE WHEN t.n > 0 THEN pt.s2 WHEN t.tool_only = 1 THEN u.s2 END AS s2,
    CASE WHEN t.n > 0 THEN pt.s3 WHEN t.tool_only = 1 THEN u.s3 END AS s3,
    CASE WHEN t.n > 0 THEN pt.s4 WHEN t.tool_only = 1 THEN u.s4 END AS s4
  FROM t
  LEFT JOIN pt ON pt.run_id = t.run_id
  LEFT JOIN u ON u.run_id = t.run_id
),
-- across trials: the mean, with median, min and max
p AS (
  SELECT path, condition,
    avg(s1) AS s1, percentile(s1, 0.5e0) AS s1_med, min(s1) AS s1_min, max(s1) AS s1_max,
    avg(s2) AS s2, percentile(s2, 0.5e0) AS s2_med, min(s2) AS s2_min, max(s2) AS s2_max,
    avg(s3) AS s3, percentile(s3, 0.5e0) AS s3_med, min(s3) AS s3_min, max(s3) AS s3_max,
    avg(s4) AS s4, percentile(s4, 0.5e0) AS s4_med, min(s4) AS s4_min, max(s4) AS s4_max
  FROM tt
  GROUP BY path, condition
),
cs AS (
  SELECT c.path, c.condition, c.trials, c.n, c.failures, c.timeouts, c.raw_trials, c.tool_trials,
    p.s1, p.s1_med, p.s1_min, p.s1_max, 0 AS ge1,
    p.s2, p.s2_med, p.s2_min, p.s2_max, 0 AS ge2,
    p.s3, p.s3_med, p.s3_min, p.s3_max, 0 AS ge3,
    p.s4, p.s4_med, p.s4_min, p.s4_max, 0 AS ge4
  FROM c
  LEFT JOIN p ON p.path = c.path AND p.condition = c.condition
)
,
rn AS (
  SELECT cs.*, CASE WHEN cs.condition = 'c=16' THEN '' ELSE substr(replace(',' || cs.condition || ',', ',c=16,', ','), 2, length(cs.condition) - 5) END AS rest
  FROM cs
  WHERE instr(',' || cs.condition || ',', ',c=16,') > 0
),
rd AS (
  SELECT cs.*, CASE WHEN cs.condition = 'c=1' THEN '' ELSE substr(replace(',' || cs.condition || ',', ',c=1,', ','), 2, length(cs.condition) - 4) END AS rest
  FROM cs
  WHERE instr(',' || cs.condition || ',', ',c=1,') > 0
)
SELECT coalesce(a.path, b.path) AS `path`, coalesce(a.rest, b.rest) AS `condition`,
  'http_ms' AS `metric`,
  'type7' AS `estimator`, 'trials' AS `pool`,
  'c' AS `across`, '16' AS `numerator`, '1' AS `denominator`,
  CASE WHEN a.ge1 = 1 OR b.ge1 = 1 THEN NULL ELSE CASE WHEN b.s1 = 0 THEN NULL ELSE a.s1 / b.s1 END END AS `p50`,
  CASE WHEN a.ge2 = 1 OR b.ge2 = 1 THEN NULL ELSE CASE WHEN b.s2 = 0 THEN NULL ELSE a.s2 / b.s2 END END AS `p95`,
  CASE WHEN a.ge3 = 1 OR b.ge3 = 1 THEN NULL ELSE CASE WHEN b.s3 = 0 THEN NULL ELSE a.s3 / b.s3 END END AS `p99`,
  CASE WHEN a.ge4 = 1 OR b.ge4 = 1 THEN NULL ELSE CASE WHEN b.s4 = 0 THEN NULL ELSE a.s4 / b.s4 END END AS `max`,
  a.n AS `n_numerator`, b.n AS `n_denominator`
FROM rn a
FULL OUTER JOIN rd b ON a.path = b.path AND a.rest = b.rest
ORDER BY array_join(transform(regexp_extract_all(coalesce(a.path, b.path), '([0-9]+|[^0-9]+)', 1), seg -> IF(seg RLIKE '^[0-9]', lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), ''), coalesce(a.condition, b.condition);

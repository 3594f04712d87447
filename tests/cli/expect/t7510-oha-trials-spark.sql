-- pathstat analyze percentiles --db s.db --metric http_ms --where ka=on --by day --paths G',G --quantile oha --pool trials --format csv
-- Spark SQL, over the tables of `pathstat export --ddl spark` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format csv`.
-- oha's percentiles: sorted[floor(p n)], no interpolation.
-- Trials with the same number (several days pooled) in the order they ran, as analyze
-- lists them.
WITH
-- each run's samples of the metric: rows, and failed ones (left out, as analyze does)
k AS (
  SELECT s.run_id, count(*) AS nrows,
    sum(CASE WHEN s.status = 'ok' AND s.value IS NOT NULL THEN 0 ELSE 1 END) AS failed,
    sum(CASE WHEN s.status = 'timeout' THEN 1 ELSE 0 END) AS timeouts
  FROM pathstat.samples s
  WHERE s.metric = 'http_ms' AND (s.`ka` = 'on') AND s.path IN ('G\'', 'G')
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
  WHERE m.metric = 'http_ms' AND m.value IS NOT NULL AND (m.`ka` = 'on') AND m.path IN ('G\'', 'G')
  GROUP BY m.run_id
),
-- the trials: the metric's own runs, and runs with samples of it
t AS (
  SELECT r.run_id, r.path, r.condition, coalesce(r.`day`, '') AS d1,
    coalesce(r.`az`, '') AS g1, coalesce(r.`instance_type`, '') AS g2, coalesce(r.`region`, '') AS g3, coalesce(r.`study`, '') AS g4, coalesce(r.`via`, '') AS g5,
    r.trial, r.started_at,
    coalesce(k.nrows, 0) - coalesce(k.failed, 0) AS n,
    CASE WHEN r.metric = 'http_ms' THEN r.failures ELSE coalesce(k.failed, 0) END AS failures,
    CASE WHEN coalesce(k.nrows, 0) - coalesce(k.failed, 0) = 0 AND u.ntool > 0 THEN 1 ELSE 0 END AS tool_only,
    coalesce(k.timeouts, 0) AS timeouts
  FROM pathstat.runs r
  LEFT JOIN k ON k.run_id = r.run_id
  LEFT JOIN u ON u.run_id = r.run_id
  WHERE (r.metric = 'http_ms' OR k.run_id IS NOT NULL) AND (r.`ka` = 'on') AND r.path IN ('G\'', 'G')
),
-- the successful values, with their cell
v AS (
  SELECT t.path, t.condition, t.d1, t.run_id, s.value
  FROM pathstat.samples s
  JOIN t ON t.run_id = s.run_id
  WHERE s.metric = 'http_ms' AND s.status = 'ok' AND s.value IS NOT NULL AND (s.`ka` = 'on') AND s.path IN ('G\'', 'G')
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
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(collect_list(value)), CAST(least(floor(0.5e0 * CAST(count(value) AS DOUBLE)), count(value) - 1) + 1 AS INT)) END AS s1,
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(collect_list(value)), CAST(least(floor(0.95e0 * CAST(count(value) AS DOUBLE)), count(value) - 1) + 1 AS INT)) END AS s2,
    CASE WHEN count(value) = 0 THEN NULL ELSE element_at(array_sort(collect_list(value)), CAST(least(floor(0.99e0 * CAST(count(value) AS DOUBLE)), count(value) - 1) + 1 AS INT)) END AS s3,
    max(value) AS s4
  FROM v
  GROUP BY run_id
),
tt AS (
  SELECT t.path, t.condition, t.d1, t.run_id, t.trial, t.started_at, t.n, t.timeouts,
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
  SELECT path, condition, d1,
    avg(s1) AS s1, percentile(s1, 0.5e0) AS s1_med, min(s1) AS s1_min, max(s1) AS s1_max,
    avg(s2) AS s2, percentile(s2, 0.5e0) AS s2_med, min(s2) AS s2_min, max(s2) AS s2_max,
    avg(s3) AS s3, percentile(s3, 0.5e0) AS s3_med, min(s3) AS s3_min, max(s3) AS s3_max,
    avg(s4) AS s4, percentile(s4, 0.5e0) AS s4_med, min(s4) AS s4_min, max(s4) AS s4_max
  FROM tt
  GROUP BY path, condition, d1
),
cs AS (
  SELECT c.path, c.condition, c.d1, c.trials, c.n, c.failures, c.timeouts, c.raw_trials, c.tool_trials, c.ng1, c.ng2, c.ng3, c.ng4, c.ng5,
    p.s1, p.s1_med, p.s1_min, p.s1_max, 0 AS ge1,
    p.s2, p.s2_med, p.s2_min, p.s2_max, 0 AS ge2,
    p.s3, p.s3_med, p.s3_min, p.s3_max, 0 AS ge3,
    p.s4, p.s4_med, p.s4_min, p.s4_max, 0 AS ge4
  FROM c
  LEFT JOIN p ON p.path = c.path AND p.condition = c.condition AND p.d1 = c.d1
)
SELECT cs.path AS `path`, cs.condition AS `condition`, cs.d1 AS `day`,
  'http_ms' AS `metric`,
  CASE WHEN cs.tool_trials > 0 AND cs.raw_trials = 0 THEN 'tool' WHEN cs.tool_trials > 0 THEN 'oha+tool' ELSE 'oha' END AS `estimator`, 'trials' AS `pool`,
  cs.n AS `n`, cs.trials AS `trials`, cs.failures AS `failures`,
  cs.s1 AS `p50`, cs.s1_med AS `p50_median`, cs.s1_min AS `p50_min`, cs.s1_max AS `p50_max`,
  cs.s2 AS `p95`, cs.s2_med AS `p95_median`, cs.s2_min AS `p95_min`, cs.s2_max AS `p95_max`,
  cs.s3 AS `p99`, cs.s3_med AS `p99_median`, cs.s3_min AS `p99_min`, cs.s3_max AS `p99_max`,
  cs.s4 AS `max`, cs.s4_med AS `max_median`, cs.s4_min AS `max_min`, cs.s4_max AS `max_max`,
  substr(CASE WHEN cs.ng1 > 1 THEN ',az' ELSE '' END || CASE WHEN cs.ng2 > 1 THEN ',instance_type' ELSE '' END || CASE WHEN cs.ng3 > 1 THEN ',region' ELSE '' END || CASE WHEN cs.ng4 > 1 THEN ',study' ELSE '' END || CASE WHEN cs.ng5 > 1 THEN ',via' ELSE '' END, 2) AS `pooled_over`
FROM cs
ORDER BY CASE cs.path WHEN 'G\'' THEN 0 WHEN 'G' THEN 1 END, cs.condition, array_join(transform(regexp_extract_all(cs.d1, '([0-9]+|[^0-9]+)', 1), seg -> IF(seg RLIKE '^[0-9]', lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), '');

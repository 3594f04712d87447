-- pathstat analyze compare --db s.db --metric connect_ms --by day --stats p50,max --quantile type7 --pool pooled --format csv
-- Spark SQL, over the tables of `pathstat export --ddl spark` (schema 1):
-- the same columns and rows as `pathstat analyze ... --format csv`.
-- type 7 percentiles: the engine's exact interpolating aggregate.
-- compare: analyze's columns but diff_lo, diff_hi, diff_ci_reason, ratio_lo,
-- ratio_hi, ratio_ci_covers, ratio_ci_reason, test, p, p_adj, verdict, unit,
-- days_baseline and days_value, which `pathstat analyze compare` adds:
-- Welch t intervals on trial-level values (a pooled percentile's are
-- linearized from every sample) or on days, an exact Mann-Whitney or
-- Brunner-Munzel p, its adjustment across all rows and the verdict
-- rule measured in docs/research/verdicts.md have no exact SQL form on
-- these engines.
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
    max(CASE WHEN m.stat = 'max' THEN m.value END) AS s2
  FROM pathstat.summaries m
  WHERE m.metric = 'connect_ms' AND m.value IS NOT NULL
  GROUP BY m.run_id
),
-- the trials: the metric's own runs, and runs with samples of it
t AS (
  SELECT r.run_id, r.path, r.condition, coalesce(r.`day`, '') AS d1,
    coalesce(r.`az`, '') AS g1, coalesce(r.`instance_type`, '') AS g2, coalesce(r.`region`, '') AS g3, coalesce(r.`study`, '') AS g4, coalesce(r.`via`, '') AS g5,
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
  SELECT t.path, t.condition, t.d1, t.run_id, s.value
  FROM pathstat.samples s
  JOIN t ON t.run_id = s.run_id
  WHERE s.metric = 'connect_ms' AND s.status = 'ok' AND s.value IS NOT NULL
),
-- the cells: path, condition and --by keys
c AS (
  SELECT path, condition, d1, count(*) AS trials, sum(n) AS n, sum(failures) AS failures,
    sum(CASE WHEN tool_only = 0 THEN timeouts ELSE 0 END) AS timeouts,
    sum(CASE WHEN n > 0 THEN 1 ELSE 0 END) AS raw_trials, sum(tool_only) AS tool_trials,
    count(DISTINCT g1) AS ng1, count(DISTINCT g2) AS ng2, count(DISTINCT g3) AS ng3, count(DISTINCT g4) AS ng4, count(DISTINCT g5) AS ng5, min(g1) AS gv1, min(g2) AS gv2, min(g3) AS gv3, min(g4) AS gv4, min(g5) AS gv5
  FROM t
  GROUP BY path, condition, d1
),
-- pooled: all successful samples of the cell together
p AS (
  SELECT path, condition, d1,
    percentile(value, 0.5e0) AS s1,
    max(value) AS s2
  FROM v
  GROUP BY path, condition, d1
),
-- a cell with only the tool's summaries: per trial, the mean of the tool's numbers
q AS (
  SELECT t.path, t.condition, t.d1,
    avg(u.s1) AS s1,
    avg(u.s2) AS s2
  FROM t
  JOIN u ON u.run_id = t.run_id
  WHERE t.tool_only = 1
  GROUP BY t.path, t.condition, t.d1
),
cs AS (
  SELECT c.path, c.condition, c.d1, c.trials, c.n, c.failures, c.timeouts, c.raw_trials, c.tool_trials, c.ng1, c.ng2, c.ng3, c.ng4, c.ng5, c.gv1, c.gv2, c.gv3, c.gv4, c.gv5,
    CASE WHEN c.raw_trials = 0 AND c.tool_trials > 0 THEN q.s1 ELSE p.s1 END AS s1,
      CASE WHEN c.timeouts > 0 AND CAST(c.n + c.timeouts - 1 AS BIGINT) * 50 > CAST(c.n - 1 AS BIGINT) * 100 THEN 1 ELSE 0 END AS ge1,
    CASE WHEN c.raw_trials = 0 AND c.tool_trials > 0 THEN q.s2 ELSE p.s2 END AS s2,
      CASE WHEN c.timeouts > 0 THEN 1 ELSE 0 END AS ge2
  FROM c
  LEFT JOIN p ON p.path = c.path AND p.condition = c.condition AND p.d1 = c.d1
  LEFT JOIN q ON q.path = c.path AND q.condition = c.condition AND q.d1 = c.d1
)
,
-- each trial's statistics
pt AS (
  SELECT run_id,
    percentile(value, 0.5e0) AS s1,
    max(value) AS s2
  FROM v
  GROUP BY run_id
),
tt AS (
  SELECT t.path, t.condition, t.d1, t.run_id, t.trial, t.started_at, t.n, t.timeouts,
    CASE WHEN t.n > 0 THEN pt.s1 WHEN t.tool_only = 1 THEN u.s1 END AS s1,
    CASE WHEN t.n > 0 THEN pt.s2 WHEN t.tool_only = 1 THEN u.s2 END AS s2
  FROM t
  LEFT JOIN pt ON pt.run_id = t.run_id
  LEFT JOIN u ON u.run_id = t.run_id
),
-- the trials with a value of each statistic, per cell
nt AS (
  SELECT path, condition, d1, count(s1) AS nt1, count(s2) AS nt2
  FROM tt
  GROUP BY path, condition, d1
),
-- the baseline: the least value of the table (one for all rows)
bl AS (
  SELECT min(cs.d1) AS v FROM cs
),
-- the statistics compared (n is not one)
ks AS (
  SELECT 1 AS k, 'p50' AS stat
  UNION ALL SELECT 2 AS k, 'max' AS stat
)
SELECT c.path AS `path`, c.condition AS `condition`,
  'connect_ms' AS `metric`,
  CASE WHEN c.tool_trials > 0 AND c.raw_trials = 0 THEN 'tool' ELSE 'type7' END AS `estimator`, CASE WHEN c.tool_trials > 0 AND c.raw_trials = 0 THEN 'trials' ELSE 'pooled' END AS `pool`,
  'day' AS `by`, b.d1 AS `baseline`, c.d1 AS `value`, ks.stat AS `stat`,
  CASE ks.k WHEN 1 THEN CASE WHEN b.ge1 = 1 THEN NULL ELSE b.s1 END WHEN 2 THEN CASE WHEN b.ge2 = 1 THEN NULL ELSE b.s2 END END AS `baseline_stat`,
  CASE ks.k WHEN 1 THEN CASE WHEN c.ge1 = 1 THEN NULL ELSE c.s1 END WHEN 2 THEN CASE WHEN c.ge2 = 1 THEN NULL ELSE c.s2 END END AS `value_stat`,
  CASE ks.k WHEN 1 THEN CASE WHEN b.ge1 = 1 OR c.ge1 = 1 THEN NULL ELSE c.s1 - b.s1 END WHEN 2 THEN CASE WHEN b.ge2 = 1 OR c.ge2 = 1 THEN NULL ELSE c.s2 - b.s2 END END AS `diff`,
  CASE ks.k WHEN 1 THEN CASE WHEN b.ge1 = 1 OR c.ge1 = 1 THEN NULL ELSE CASE WHEN b.s1 = 0 THEN NULL ELSE c.s1 / b.s1 END END WHEN 2 THEN CASE WHEN b.ge2 = 1 OR c.ge2 = 1 THEN NULL ELSE CASE WHEN b.s2 = 0 THEN NULL ELSE c.s2 / b.s2 END END END AS `ratio`,
  CASE ks.k WHEN 1 THEN coalesce(nb.nt1, 0) WHEN 2 THEN coalesce(nb.nt2, 0) END AS `trials_baseline`, CASE ks.k WHEN 1 THEN coalesce(nc.nt1, 0) WHEN 2 THEN coalesce(nc.nt2, 0) END AS `trials_value`,
  CASE ks.k WHEN 1 THEN b.ge1 WHEN 2 THEN b.ge2 END AS `baseline_ge_timeout`, CASE ks.k WHEN 1 THEN c.ge1 WHEN 2 THEN c.ge2 END AS `value_ge_timeout`,
  substr(CASE WHEN b.ng1 = 1 AND c.ng1 = 1 AND b.gv1 <> c.gv1 THEN '; az: ' || CASE WHEN b.gv1 = '' THEN '(none)' ELSE b.gv1 END || ' vs ' || CASE WHEN c.gv1 = '' THEN '(none)' ELSE c.gv1 END ELSE '' END || CASE WHEN b.ng2 = 1 AND c.ng2 = 1 AND b.gv2 <> c.gv2 THEN '; instance_type: ' || CASE WHEN b.gv2 = '' THEN '(none)' ELSE b.gv2 END || ' vs ' || CASE WHEN c.gv2 = '' THEN '(none)' ELSE c.gv2 END ELSE '' END || CASE WHEN b.ng3 = 1 AND c.ng3 = 1 AND b.gv3 <> c.gv3 THEN '; region: ' || CASE WHEN b.gv3 = '' THEN '(none)' ELSE b.gv3 END || ' vs ' || CASE WHEN c.gv3 = '' THEN '(none)' ELSE c.gv3 END ELSE '' END || CASE WHEN b.ng4 = 1 AND c.ng4 = 1 AND b.gv4 <> c.gv4 THEN '; study: ' || CASE WHEN b.gv4 = '' THEN '(none)' ELSE b.gv4 END || ' vs ' || CASE WHEN c.gv4 = '' THEN '(none)' ELSE c.gv4 END ELSE '' END || CASE WHEN b.ng5 = 1 AND c.ng5 = 1 AND b.gv5 <> c.gv5 THEN '; via: ' || CASE WHEN b.gv5 = '' THEN '(none)' ELSE b.gv5 END || ' vs ' || CASE WHEN c.gv5 = '' THEN '(none)' ELSE c.gv5 END ELSE '' END, 3) AS `also_differ`
FROM cs c
CROSS JOIN bl
JOIN cs b ON b.path = c.path AND b.condition = c.condition AND b.d1 = bl.v
CROSS JOIN ks
LEFT JOIN nt nb ON nb.path = b.path AND nb.condition = b.condition AND nb.d1 = b.d1
LEFT JOIN nt nc ON nc.path = c.path AND nc.condition = c.condition AND nc.d1 = c.d1
WHERE c.d1 <> bl.v
ORDER BY array_join(transform(regexp_extract_all(c.path, '([0-9]+|[^0-9]+)', 1), seg -> IF(seg RLIKE '^[0-9]', lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), ''), c.condition, array_join(transform(regexp_extract_all(c.d1, '([0-9]+|[^0-9]+)', 1), seg -> IF(seg RLIKE '^[0-9]', lpad(regexp_replace(seg, '^0+', ''), 20, '0'), seg)), ''), ks.k;

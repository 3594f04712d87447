-- window_percentiles.sql - the pure-SQL peer of `pathstat analyze
-- percentiles` (peer (c)): type-7 p50/p95/p99 and max of every
-- (path, condition, metric) cell of connect_ms, http_ms and
-- throughput_bps, pooled over runs, from a pathstat database with
-- window functions only.  Run as: sqlite3 -json DB < this file.
--
-- Type 7: h = (n - 1) p, x[floor h] + (h - floor h)(x[floor h + 1] -
-- x[floor h]) on the 0-based sorted values, with numpy's lerp (the
-- formula pathstat uses) so the results can be compared exactly.
WITH s AS (
	SELECT r.path_id AS pid, r.cond_id AS cid, s.metric AS mid,
	       s.value AS v
	FROM samples s JOIN runs r ON r.id = s.run_id
	WHERE s.metric IN (1, 2, 3) AND s.status = 0 AND s.value IS NOT NULL
),
ranked AS (
	SELECT pid, cid, mid, v,
	       row_number() OVER (PARTITION BY pid, cid, mid ORDER BY v) AS rn,
	       count(*) OVER (PARTITION BY pid, cid, mid) AS n,
	       max(v) OVER (PARTITION BY pid, cid, mid) AS mx
	FROM s
),
q(p) AS (VALUES (0.5), (0.95), (0.99)),
picked AS (
	SELECT pid, cid, mid, n, mx, p, (n - 1) * p AS h, rn, v
	FROM ranked JOIN q
	WHERE rn BETWEEN CAST((n - 1) * p AS INTEGER) + 1
	    AND CAST((n - 1) * p AS INTEGER) + 2
),
pct AS (
	SELECT pid, cid, mid, n, mx, p, h - CAST(h AS INTEGER) AS t,
	       max(CASE WHEN rn = CAST(h AS INTEGER) + 1 THEN v END) AS lo,
	       coalesce(max(CASE WHEN rn = CAST(h AS INTEGER) + 2 THEN v END),
	           max(CASE WHEN rn = CAST(h AS INTEGER) + 1 THEN v END)) AS hi
	FROM picked GROUP BY pid, cid, mid, p
),
val AS (
	SELECT pid, cid, mid, n, mx, p,
	       CASE WHEN t >= 0.5 THEN hi - (hi - lo) * (1 - t)
	            ELSE lo + (hi - lo) * t END AS x
	FROM pct
)
SELECT p.name AS path, c.canon AS condition, m.name AS metric,
       max(val.n) AS n,
       max(CASE WHEN val.p = 0.5 THEN x END) AS p50,
       max(CASE WHEN val.p = 0.95 THEN x END) AS p95,
       max(CASE WHEN val.p = 0.99 THEN x END) AS p99,
       max(val.mx) AS max
FROM val
JOIN paths p ON p.id = val.pid
JOIN conditions c ON c.id = val.cid
JOIN metrics m ON m.id = val.mid
GROUP BY val.pid, val.cid, val.mid
ORDER BY 1, 2, 3;

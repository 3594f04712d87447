-- 007-http-bps.sql: the metric http_bps (user_version 7).
-- oha's response bytes per second times 8 (summary.sizePerSec, which is
-- requests per second times the response size), in bit/s.  Like rps,
-- jitter_ms and loss_pct it is one end-of-test value per run, read from
-- the summaries ingest already stores (metric 'http', stat
-- 'size_per_sec_bytes'): no samples carry it, and nothing is re-ingested.
-- The row makes the metrics table name every metric the registry
-- (common/metric.c) knows.
INSERT OR IGNORE INTO metrics (id, name, unit) VALUES (10, 'http_bps', 'bit/s');

-- 005-unmeasured-status.sql: the sample status 'unmeasured' (user_version 5).
-- A probe that succeeded but gave no value of a metric: pathprobe's
-- rtt_us is empty when the SYN was retransmitted (Karn's rule forbids
-- that RTT sample), so such a probe's handshake_ms row is kept with this
-- status and counts among the metric's failures, next to the failed
-- probes' rows, instead of silently shrinking n.
-- OR IGNORE: running it on a database that has the row already (a
-- downgraded user_version) changes nothing.
INSERT OR IGNORE INTO sample_status (id, name) VALUES (6, 'unmeasured');

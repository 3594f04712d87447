-- 003-handshake-metric.sql: the metric handshake_ms (user_version 3).
-- pathprobe's format 2 writes, per successful probe, the kernel's own
-- SYN -> SYN/ACK round trip (Linux TCP_INFO tcpi_rtt, in µs: column
-- rtt_us); ingest stores it in ms, one sample per successful probe, in
-- the same run as that probe's connect_ms.  connect_ms is what an
-- application waits for connect(); handshake_ms is what the path costs,
-- without the prober's own system call and wakeup time.
-- OR IGNORE: running it on a database that has the row already (a
-- downgraded user_version) changes nothing.
INSERT OR IGNORE INTO metrics (id, name, unit) VALUES (8, 'handshake_ms', 'ms');

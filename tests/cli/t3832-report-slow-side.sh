# t3832: the report without a spec shows each metric's slow side.
# Lower is better (latency): p50, p95, p99, max as before.  Higher
# is better (iperf3 throughput): p50 and the low percentiles p5, p1 and
# min, named as the slow side; no p95/p99, the fastest tail.  One value
# per run (oha's requests per second, n = 3 runs a cell): no percentiles
# at all (p99 of 3 runs is the best run), the runs' mean, min and max,
# and each run's value in the trial-to-trial spread, whose statistic is
# that value (mean), not a p50/p99 pair of one number; the deltas and
# the day and instance-type comparisons compare the runs' means.

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out b --no-render --baseline A
expect_code 0 "report without a spec exits 0 ($ERR)"
md=b/index.md
# section of the page under heading $1 (up to the next level-3 heading)
section() { sed -n "/^### $1/,/^### [^$(printf '%s' "$1" | cut -c1)]/p" "$md"; }
section 'Throughput (throughput' > tp.md
section 'Requests per second' > rps.md
section 'TCP connect time' > conn.md
ok '[ -s tp.md ] && [ -s rps.md ] && [ -s conn.md ]' "the page has throughput, rps and connect-time sections"
ok 'grep -q "^| Path | p50 (Gbit/s) | p5 (Gbit/s) | p1 (Gbit/s) | min (Gbit/s) |$" tp.md' \
    "throughput's percentiles: p50, p5, p1, min"
ok '! grep -q "p95 (Gbit/s)\|p99 (Gbit/s)\|max (Gbit/s)" tp.md' "throughput shows no fastest tail (p95, p99, max)"
ok 'grep -q "Higher is better, so the slow side is the low percentiles" tp.md' "the slow side is named"
ok 'grep -q "^| Path | mean (req/s) | min (req/s) | max (req/s) |$" rps.md' \
    "requests per second (a value per run): mean, min, max"
ok '! grep -q "p[0-9]* (req/s)" rps.md' "no percentile of 3 runs, in any table of the section (delta, spread, days)"
ok 'grep -q "p99 of 3 is the best run" rps.md' "the page says why"
ok 'grep -q "Stat: mean" rps.md && grep -q "each run.s value" rps.md' \
    "each run's value in the trial spread, whose statistic is the mean"
ok 'grep -q "| Δmean (req/s) |" rps.md && grep -q "^_Table [0-9]*: Days against .*Stat: mean" rps.md' \
    "the delta and the days comparison of rps compare means"
ok 'grep -q "| Δp50 (Gbit/s) | Δp5 (Gbit/s) | Δp1 (Gbit/s) |" tp.md' "throughput's delta: p50, p5, p1"
ok 'grep -q "^| Path | p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |$" conn.md' \
    "latency keeps p50, p95, p99, max"
test_done

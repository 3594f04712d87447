# t2972: analyze without --stats shows each metric's own statistics,
# the rule the report uses (common/metric.c,
# metric_default_stats()).  Latency: p50, p95, p99, max as before, no
# words.  Higher is better (throughput): p50 and the slow side, p5, p1,
# min -- not p95/p99, its fastest seconds.  One value per run (rps, 3
# runs a cell): the runs' mean, min and max, not a p99 that is only the
# best run.  Per trial and across a dimension (trials, variance):
# p50,p99 / p50,p5 / mean.  The caption and JSON say which and why;
# --stats still wins, without those words; the --sql query computes the
# same columns (t7500-t7502 run them on DuckDB).

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
W="--db s.db --where size=1m --where c=16"

hdr() { printf '%s\n' "$OUT" | grep '^| Path' | head -1; }

run "$PS" analyze percentiles --db s.db --metric connect_ms --format md
ok 'hdr | grep -q "| p50 (ms) | p95 (ms) | p99 (ms) | max (ms) |$"' \
    "latency: p50, p95, p99, max ($(hdr))"
expect_out_lacks "the default for" "... and no words about it"

run "$PS" analyze percentiles --db s.db --metric throughput_bps --format md
ok 'hdr | grep -Eq "\| p50 \(Gbit/s\) \| p5 \(Gbit/s\) \| p1 \(Gbit/s\) \| min \(Gbit/s\) \|( side \| UDP loss % \|)?$"' \
    "throughput: p50, p5, p1, min ($(hdr))"
expect_out_lacks "p99 (Gbit/s)" "... no p99, its fastest tail"
expect_out_has "_Statistics p50,p5,p1,min, the default for throughput\\_bps: higher is better, so the slow side is the low percentiles" \
    "the caption names them and says why"

run "$PS" analyze percentiles --db s.db --metric throughput_bps --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert r and all(x[\"stats_default\"]==\"p50,p5,p1,min\" and \"higher is better\" in x[\"stats_why\"] and \"p1\" in x and \"p99\" not in x for x in r), r[0]'" \
    "JSON rows carry stats_default and stats_why"
run "$PS" analyze percentiles --db s.db --metric throughput_bps --format csv
expect_out_lacks "stats_default" "CSV keeps the columns --sql gives"

run "$PS" analyze percentiles $W --metric rps --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert r and all([k for k in x if k in (\"mean\",\"min\",\"max\",\"p50\",\"p99\")]==[\"mean\",\"min\",\"max\"] and x[\"min\"]<=x[\"mean\"]<=x[\"max\"] for x in r), r[0]'" \
    "rps (a value per run): mean, min, max and no percentile"

run "$PS" analyze trials --db s.db --metric throughput_bps --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert sorted({x[\"stat\"] for x in r})==[\"p5\",\"p50\"], r[0]'" \
    "trials of throughput: p50 and p5"
run "$PS" analyze trials $W --metric rps --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert {x[\"stat\"] for x in r}=={\"mean\"} and all(x[\"trials\"]==3 for x in r), r[0]'" \
    "trials of rps: each run's value (mean)"
run "$PS" analyze trials --db s.db --metric connect_ms --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert sorted({x[\"stat\"] for x in r})==[\"p50\",\"p99\"] and \"stats_default\" not in r[0], r[0]'" \
    "trials of latency: p50 and p99 as before"
run "$PS" analyze variance $W --metric rps --format md
expect_out_has "| mean |" "variance of rps: the mean"

# growth = Δp99/Δp50 is no statistic throughput's defaults show
run "$PS" analyze delta --db s.db --metric throughput_bps --format md B-A
expect_out_lacks "growth" "throughput's delta: no growth column in Markdown, nor words"
run "$PS" analyze delta --db s.db --metric throughput_bps --format json B-A
expect_out_has '"growth":' "... JSON keeps the key (the contract)"

# --stats wins, and needs no words
run "$PS" analyze percentiles --db s.db --metric throughput_bps --stats p50,p99 --format json
expect_out_lacks "stats_default" "--stats p50,p99: no default words"
expect_out_has '"p99":' "... and p99 as asked"

# the --sql query: the same statistics, and why
run "$PS" analyze percentiles --db s.db --metric rps --sql duckdb
expect_out_has "-- statistics mean,min,max, the default for rps" "--sql says which and why"
expect_out_has 'AS "mean"' "... and computes the mean"
expect_out_lacks 'AS "p99"' "... and no p99"
run "$PS" analyze trials --db s.db --metric throughput_bps --sql duckdb
expect_out_has "m.stat = 'p5'" "--sql trials of throughput: p5"

# the report's automatic sections take the same rule
export SOURCE_DATE_EPOCH=1788000000
run "$PS" report --db s.db --init
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
spec = json.load(sys.stdin)
seen = {}
def walk(o, metric=None):
    if isinstance(o, dict):
        metric = o.get(\"metric\", metric)
        if o.get(\"type\") == \"percentiles\" and \"stats\" in o:
            seen.setdefault(metric, set()).add(o[\"stats\"])
        for v in o.values(): walk(v, metric)
    elif isinstance(o, list):
        for v in o: walk(v, metric)
walk(spec)
want = {\"connect_ms\": \"p50,p95,p99,max\", \"throughput_bps\": \"p50,p5,p1,min\", \"rps\": \"mean,min,max\"}
for m, w in want.items():
    assert seen.get(m) == {w}, (m, seen.get(m))
'" "report --init: percentiles sections with analyze's defaults"
test_done

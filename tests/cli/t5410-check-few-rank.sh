# t5410: few-samples flags a percentile that is one of the last few
# samples even where an interval exists: the second article's
# p99 of 300 requests is the 3rd-slowest request, with per-request files
# (A) and from oha's own percentiles alone (B); --stats p50,p99 finds it.
# Counter-example: p95 of 300 (the 15th-slowest) passes.

"$PY" "$FIX/check/gen_check.py" plant few-300 --out few
"$PS" ingest -q --db few.db few 2>/dev/null
expect_sql few.db "SELECT count(*) FROM runs" 6 "6 oha runs ingested"
run "$PS" check --db few.db --only few-samples --stats p50,p99 --format json
expect_code 3 "p99 of 300 requests: a finding"
printf '%s' "$OUT" > few.json
ok "\"\$PY\" -c '
import json
r = json.load(open(\"few.json\"))
assert sorted(x[\"path\"] for x in r) == [\"A\", \"B\"], r
for x in r:
    e = x[\"evidence\"]
    assert \"p99 of 300 is the 3rd-slowest, within the last 3 samples\" in e, e
    assert \"p50\" not in e, e
    assert \"send ≥ 400 requests per run for a p99\" in x[\"action\"], x
'" "A (per-request) and B (oha's own p99): the 3rd-slowest of 300, rank in the message"
run "$PS" check --db few.db --only few-samples --stats p50,p95
expect_code 0 "counter-example: p95 of 300 is the 15th-slowest"
expect_out_has "No findings" "p95: no finding"
test_done

# t2714: one rule decides an outlier trial in a small selection too.
# oha, 4 paths x keep-alive on/off x 3 trials of
# 2,000 requests, trials 1-3 % apart; H2 ka-off trial 2 a TIME_WAIT trial
# (30 % of its requests 5x slower: p50 unmoved, p95/p99 5x; gen_check.py
# trial-timewait).  Selected alone (--where path=H2 --where ka=off: one
# cell, fewer than the 4 that share a spread), the cell's own rule judges
# its p50, p95 and p99: check outlier-trial flags trial 2, analyze trials
# marks it on p95 and p99, and --pool trials --ci withdraws the interval
# naming it.  (Since the column is the one rule's verdict on the cell,
# every row of the cell names trial 2, and the rule column says it was
# found on p95 and p99.)  Before, only p50 was judged in a selection that small:
# analyze trials marked trial 2 on p95 while check found nothing and the
# p95 interval was printed ([0.644, 9.864] ms).  H1 ka-off alone (no
# TIME_WAIT trial) keeps its intervals and gets no finding.

"$PY" "$FIX/check/gen_check.py" plant trial-timewait --out o
"$PS" ingest -q --db o.db o 2>/dev/null
expect_sql o.db "SELECT count(*) FROM runs" 24 "4 paths x 2 conditions x 3 trials"

H2="--where path=H2 --where ka=off"
H1="--where path=H1 --where ka=off"
WHY="trial 2 is an outlier (check outlier-trial): no interval"
js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = json.load(sys.stdin)
$1"; }

run "$PS" check --db o.db --only outlier-trial $H2 --format json
expect_code 3 "check outlier-trial, H2 ka-off alone: a finding"
ok "js 'f = [x for x in r if x[\"check\"] == \"outlier-trial\"]
assert len(f) == 1 and f[0][\"trial\"] == 2 and f[0][\"path\"] == \"H2\", f'" \
    "check: one finding, H2 ka-off trial 2"
run "$PS" check --db o.db --only outlier-trial $H2
expect_out_has "1 cell of 3 trials of this metric and tool is in this campaign (of the runs selected), fewer than the 4 that share a spread, so the cell's own rule decides" \
    "check: the evidence says the cell's own rule judged it"
expect_out_has "p95 is" "check: judged on p95"
expect_out_has "exhaustion on the client" "check: the cause is TIME_WAIT (ka=off, slower)"

run "$PS" analyze trials --db o.db --metric http_ms $H2 --stats p50,p95,p99 \
    --format json
expect_code 0 "analyze trials: exit 0"
ok "js 'o = {x[\"stat\"]: (x[\"outliers\"], x[\"outlier_rule\"]) for x in r}
w = (\"2\", \"trial 2 on p95, p99\")
assert o == {\"p50\": w, \"p95\": w, \"p99\": w}, o'" \
    "analyze trials: trial 2 marked on every row of its cell, found on p95 and p99 (the rule's verdict is the cell's)"
run "$PS" analyze trials --db o.db --metric http_ms $H2 --stats p50
expect_out_has "_Trial-level intervals withdrawn in the other tables (check outlier-trial's rule: each trial's p50, p95 and p99, over the selection's cells of that trial count): H2 c=1,ka=off,size=1k: $WHY._" \
    "analyze trials --stats p50: a note names the trial the other tables withdraw for"

run "$PS" analyze percentiles --db o.db --metric http_ms $H2 --pool trials \
    --ci --stats p50,p95,p99 --format json
expect_code 0 "percentiles --pool trials --ci: exit 0"
ok "js 'x = r[0]
assert len(r) == 1
for s in (\"p50\", \"p95\", \"p99\"):
    assert x[s + \"_lo\"] is None and x[s + \"_hi\"] is None, x
    assert x[s + \"_ci_reason\"] == \"$WHY\", x
assert x[\"p95\"] > 0'" \
    "--pool trials: every interval withdrawn, the reason names trial 2"
run "$PS" analyze percentiles --db o.db --metric http_ms $H2 --pool trials \
    --ci --stats p95
expect_out_has "_† $WHY._" "Markdown: the footnote names the outlier trial"

run "$PS" analyze delta --db o.db --metric http_ms --where ka=off \
    --where path=H2,H1 --pool trials --ci --stats p50,p95 H2-H1 --format json
expect_code 0 "delta H2-H1 (two cells): exit 0"
ok "js 'x = r[0]
assert x[\"p95_lo\"] is None and \"trial 2 is an outlier\" in x[\"p95_ci_reason\"], x'" \
    "delta of two cells: H2's outlier trial withdraws the delta's interval"

# counter-example: H1 ka-off alone, no TIME_WAIT trial
run "$PS" check --db o.db --only outlier-trial $H1
expect_code 0 "H1 ka-off alone: no outlier trial"
run "$PS" analyze trials --db o.db --metric http_ms $H1 --stats p50,p95,p99 \
    --format json
ok "js 'assert all(x[\"outliers\"] == \"\" for x in r), r'" \
    "H1 ka-off: analyze trials marks nothing"
run "$PS" analyze trials --db o.db --metric http_ms $H1 --stats p50,p95,p99
expect_out_lacks "intervals withdrawn" "H1 ka-off: no withdrawal note"
run "$PS" analyze percentiles --db o.db --metric http_ms $H1 --pool trials \
    --ci --stats p50,p95,p99 --format json
ok "js 'assert all(r[0][s + \"_lo\"] is not None for s in (\"p50\", \"p95\", \"p99\")), r'" \
    "H1 ka-off: every interval printed"
test_done

# t2703: an outlier trial withdraws the cell's trial-level intervals.
# The second article's pitfall at its design: oha,
# 4 paths x keep-alive on/off x 3 trials of 2,000 requests, trials 1-3 %
# apart, H2 ka-off trial 2 a TIME_WAIT trial (30 % of its requests 5x
# slower: p50 unmoved; gen_check.py trial-timewait).  check outlier-trial
# finds it on p95/p99 against the campaign's pooled spread; analyze uses
# the same rule and prints no interval for that cell, saying which trial
# (JSON <stat>_ci_reason, a Markdown footnote).  Before, its --pool
# trials p99 interval was printed (such intervals covered 65 %).  With
# two cells of eight hit (trial-outliers: also a 2x trial in H3 ka-on)
# the cause may be shared, and every cell's interval goes; the reason
# names TIME_WAIT only for keep-alive-off cells (it named it for
# keep-alive-on cells too).

"$PY" "$FIX/check/gen_check.py" plant trial-timewait --out o
"$PS" ingest -q --db o.db o 2>/dev/null
expect_sql o.db "SELECT count(*) FROM runs" 24 "4 paths x 2 conditions x 3 trials"
run "$PS" check --db o.db --only outlier-trial --format json
expect_code 3 "check outlier-trial finds the TIME_WAIT trial"
ok "printf '%s' \"\$OUT\" | grep -q '\"trial\": 2'" "check: trial 2"

A="--db o.db --metric http_ms"
js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = json.load(sys.stdin)
def p(x): return x.get('path', x.get('pair', ''))
h2 = [x for x in r if p(x).startswith('H2') and 'ka=off' in x['condition']][0]
rest = [x for x in r if not (p(x).startswith('H2') and 'ka=off' in x['condition'])]
$1"; }
WHY="trial 2 is an outlier (check outlier-trial): no interval"

run "$PS" analyze percentiles $A --pool trials --ci --stats p50,p95,p99 \
    --format json
expect_code 0 "percentiles --pool trials --ci: exit 0"
ok "js 'assert h2[\"p99_ci_reason\"] == \"$WHY\", h2
assert h2[\"p99_lo\"] is None and h2[\"p99_hi\"] is None and h2[\"p99\"] > 0
assert h2[\"p50_ci_reason\"] == \"$WHY\" and h2[\"p50_lo\"] is None'" \
    "JSON: H2 ka-off p99 (and p50) interval withdrawn, p99_ci_reason names trial 2"
ok "js 'assert len(rest) == 7 and all(x[\"p99_lo\"] is not None and x.get(\"p99_ci_reason\") is None for x in rest), rest'" \
    "JSON: the 7 other cells keep their intervals"

run "$PS" analyze percentiles $A --pool trials --ci --stats p50,p99
expect_out_has "_† $WHY._" "Markdown: the footnote names the outlier trial"
ok "printf '%s' \"\$OUT\" | grep '^| H2 | c=1,ka=off' | grep -q '†'" \
    "Markdown: H2 ka-off carries the mark"

run "$PS" analyze percentiles $A --ci --stats p25,p50 --format json
ok "js 'assert h2[\"p50_ci_reason\"] == \"$WHY\" and h2[\"p50_lo\"] is None'" \
    "pooled percentiles: withdrawn too"

run "$PS" analyze delta $A --pool trials --ci --format json H2-H1
ok "js 'assert h2[\"p99_ci_reason\"] == \"$WHY\" and h2[\"p99_lo\"] is None, h2
assert h2[\"growth_lo\"] is None and h2[\"growth_ci_reason\"] == \"$WHY\", h2
assert rest[0][\"p99_lo\"] is not None'" \
    "delta and growth: withdrawn for ka-off, kept for ka-on"

run "$PS" analyze ratio $A --pool trials --ci --format json --across ka on/off
ok "printf '%s' \"\$OUT\" | grep -q '$WHY'" "ratio: the reason is carried"

# two cells of eight with an outlier trial: a shared cause, no interval
"$PY" "$FIX/check/gen_check.py" plant trial-outliers --out b
"$PS" ingest -q --db b.db b 2>/dev/null
run "$PS" analyze percentiles --db b.db --metric http_ms --pool trials --ci \
    --stats p99 --format json
ok "js 'assert h2[\"p99_ci_reason\"] == \"$WHY\"
assert all(x[\"p99_lo\"] is None for x in rest)
assert sum(x[\"p99_ci_reason\"].startswith(\"2 of the 8 cells of 3 trials have an outlier trial\") for x in rest) == 6, rest'" \
    "two outlier cells of 8: every other cell withdrawn, the shared cause said"
# TIME_WAIT is a cause only where every request opens a connection: the
# keep-alive-on cells' reason names other shared causes
ok "js 'sh = [x for x in rest if x[\"p99_ci_reason\"].startswith(\"2 of the 8\")]
on = [x for x in sh if \"ka=on\" in x[\"condition\"].split(\",\")]
off = [x for x in sh if \"ka=off\" in x[\"condition\"].split(\",\")]
assert on and off, rest
assert all(\"(TIME_WAIT)\" not in x[\"p99_ci_reason\"] and \"keep-alive is on\" in x[\"p99_ci_reason\"] for x in on), on
assert all(\"(TIME_WAIT)\" in x[\"p99_ci_reason\"] for x in off), off'" \
    "the shared cause: TIME_WAIT named for keep-alive-off cells only"

# counter-example: nothing planted, every interval printed
"$PY" "$FIX/check/gen_check.py" plant trial-outliers-clean --out c
"$PS" ingest -q --db c.db c 2>/dev/null
run "$PS" analyze percentiles --db c.db --metric http_ms --pool trials --ci \
    --stats p50,p99 --format json
ok "js 'assert all(x[\"p99_lo\"] is not None and x[\"p50_lo\"] is not None for x in r)'" \
    "clean campaign: every interval printed"
test_done

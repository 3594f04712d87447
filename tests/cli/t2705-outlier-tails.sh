# t2705: the outlier-trial rule judges a cell's tails by the cell's own
# spread too (coverage cell oha-5x10000-bimodal).  oha, 4
# paths x keep-alive on/off x 5 trials of 2,000 requests whose trials
# spread 15-30 % (gen_check.py trial-timewait5): the campaign's typical
# spread sets its bar near 96x, so a TIME_WAIT trial (p95/p99 about 5x)
# passes it.  H2 ka-off's trials agree within 1 % but for trials 2 and 4,
# TIME_WAIT trials: the cell's own rule on p95 and p99 (>= 2x and a
# robust z beyond its own spread) finds them, check outlier-trial says
# so, and analyze withdraws that cell's intervals.  Before, nothing was
# found and its --pool trials p95 interval was printed ([0.906, 7.412]):
# where the coverage harness printed such intervals they covered 88.8 %.

"$PY" "$FIX/check/gen_check.py" plant trial-timewait5 --out o
"$PS" ingest -q --db o.db o 2>/dev/null
expect_sql o.db "SELECT count(*) FROM runs" 40 "4 paths x 2 conditions x 5 trials"

run "$PS" check --db o.db --only outlier-trial --format json
expect_code 3 "check outlier-trial finds the TIME_WAIT trials"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys
r = json.load(sys.stdin)
f = [x for x in r if x[\"check\"] == \"outlier-trial\"]
assert len(f) == 1 and len(f[0][\"runs\"].split(\",\")) == 2, f
assert \"trial2/\" in f[0][\"files\"] and \"trial4/\" in f[0][\"files\"], f
assert f[0][\"path\"] == \"H2\" and \"ka=off\" in f[0][\"condition\"], f'" \
    "check: one finding, trials 2 and 4 of H2 ka-off, nothing else"

run "$PS" check --db o.db --only outlier-trial
expect_out_has "nor is 2× where the cell's other trials agree closely" \
    "check: the evidence says which spread found it"
expect_out_has "p95 is" "check: judged on p95"

A="--db o.db --metric http_ms"
js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = json.load(sys.stdin)
def p(x): return x.get('path', x.get('pair', ''))
h2 = [x for x in r if p(x).startswith('H2') and 'ka=off' in x['condition']][0]
rest = [x for x in r if not (p(x).startswith('H2') and 'ka=off' in x['condition'])]
$1"; }
WHY="trials 2, 4 are outliers (check outlier-trial): no interval"

run "$PS" analyze percentiles $A --pool trials --ci --stats p50,p95,p99 \
    --format json
expect_code 0 "percentiles --pool trials --ci: exit 0"
ok "js 'assert h2[\"p95_ci_reason\"] == \"$WHY\", h2
assert h2[\"p95_lo\"] is None and h2[\"p99_lo\"] is None and h2[\"p95\"] > 0'" \
    "JSON: H2 ka-off p95/p99 intervals withdrawn, the reason names trials 2, 4"
ok "js 'assert len(rest) == 7 and all(x[\"p95_lo\"] is not None and x.get(\"p95_ci_reason\") is None for x in rest), rest'" \
    "JSON: the 7 other cells keep theirs (one cell of 8: no shared cause)"

run "$PS" analyze percentiles $A --pool trials --ci --stats p95
expect_out_has "_† $WHY._" "Markdown: the footnote names the outlier trials"

# counter-example: the same campaign without TIME_WAIT, nothing found
"$PY" "$FIX/check/gen_check.py" plant trial-timewait5-clean --out c
"$PS" ingest -q --db c.db c 2>/dev/null
run "$PS" check --db c.db --only outlier-trial
expect_code 0 "clean: no outlier trial"
run "$PS" analyze percentiles --db c.db --metric http_ms --pool trials --ci \
    --stats p50,p95,p99 --format json
ok "js 'assert all(x[\"p99_lo\"] is not None and x[\"p95_lo\"] is not None for x in r)'" \
    "clean: every interval printed"
test_done

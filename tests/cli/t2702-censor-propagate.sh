# t2702: a statistic "≥ timeout" stays censored downstream.
# The second article's design: 3 trials x 300 probes, 3 timeouts per
# trial (1 % loss) on path A under m5, against clean paths and
# instance types (tests/cli/helper/censor-trials.sh).  Before, Δp99 =
# "≥ timeout" came with a numeric growth 1.59 [0.12, 3.06], compare
# printed the successes' p99 with a ratio and "inconclusive", and JSON
# carried p99_lo/p99_hi beside p99_ge_timeout = 1.  Now no verb uses it
# as a number: delta, growth, ratio, relative, compare, trials,
# variance, a report's pivot (and its derived columns) and the charts'
# data; JSON has no interval for it and says why (<stat>_ci_reason)
# wherever an interval is absent.  tests/cli/helper/censor-check.py
# holds the JSON rules.
. "$TOP/tests/cli/helper/censor-trials.sh"
censor_trials_tree
"$PS" ingest -q --db s.db tree 2>/dev/null
A="--db s.db --metric connect_ms"
chk() { printf '%s' "$OUT" | "$PY" "$TOP/tests/cli/helper/censor-check.py" "$@"; }
# js CODE: Python on the JSON in $OUT (as r); CODE must exit 0
js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = json.load(sys.stdin)
$1"; }

# percentiles: the flag, no interval, the reason
for pool in pooled trials; do
	run "$PS" analyze percentiles $A --by instance_type --pool $pool --ci \
	    --stats p50,p95,p99,max --format json
	expect_code 0 "percentiles --pool $pool --ci: exit 0"
	ok 'chk | grep -qx "censored [1-9][0-9]*"' \
	    "percentiles --pool $pool: censored statistics seen"
	ok 'chk >/dev/null' \
	    "percentiles --pool $pool: censored p99 has no _lo/_hi, every absent interval a _ci_reason"
done
ok "js 'a = [x for x in r if x[\"path\"] == \"A\" and x[\"instance_type\"] == \"m5\" and x[\"condition\"] == \"c=1\"][0]; assert a[\"p99_ge_timeout\"] == 1 and a[\"p99_lo\"] is None and a[\"p99_ci_reason\"] == \"censored: ≥ timeout\" and a[\"p99\"] > 0'" \
    "percentiles: A m5 p99 keeps the successes' value (contract), flag 1, reason censored"

# item 9: the percentiles are of the successes; the caption says so
run "$PS" analyze percentiles $A --by instance_type --stats p50,p99
expect_out_has "the all-attempts p(X·(1 − L)) (1 % loss: p99 is the all-attempts p98.01" \
    "percentiles with timeouts: the caption says they are of the successes"
run "$PS" analyze percentiles $A --where instance_type=c5 --stats p50,p99
expect_out_lacks "all-attempts p(X" "no timeouts: no such caption"

# delta --pool trials --ci: the reported case
run "$PS" analyze delta $A --pool trials --ci --where instance_type=m5 A-B
expect_code 0 "delta --pool trials --ci: exit 0"
# B's p99 (mean of its trials') is 21.986, the timeout 1000 ms: Δp99 ≥
# 1000 - 21.986 = 978.014, growth ≥ 978.014 / 2.000 = 489.01, over the
# all-attempts Δp50 (A's p50 of its 300 attempts is above that of its
# 297 successes: 2.000 apart from B's, not 1.990)
expect_out_has "| A-B | c=1 | 1.990 [1.990, 1.990] | 2.003 [2.003, 2.003] | ≥ 978.014 (minuend ≥ timeout) | ≥ 977.380 (minuend ≥ timeout) | ≥ 489.01 (Δp99 ≥ timeout) |" \
    "delta --pool trials: Δp99 and growth are the bounds ≥ timeout implies, never numbers"
expect_out_has "the bound it implies is shown" "delta: the caption says how the bound is read"
for pool in trials pooled; do
	run "$PS" analyze delta $A --pool $pool --ci --where instance_type=m5 \
	    --format json A-B
	ok 'chk --value-null | grep -qx "censored [1-9][0-9]*"' \
	    "delta --pool $pool JSON: censored contrasts flagged"
	ok 'chk --value-null >/dev/null' "delta --pool $pool JSON: no number, no interval, a reason"
	ok "js 'a = [x for x in r if x[\"condition\"] == \"c=1\"][0]; assert a[\"growth\"] is None and a[\"growth_ge_timeout\"] == 1 and a[\"growth_lo\"] is None and a[\"growth_ci_reason\"] == \"censored: ≥ timeout\"'" \
	    "delta --pool $pool JSON: growth null, growth_ge_timeout 1, its reason"
	ok "js 'a = [x for x in r if x[\"condition\"] == \"c=16\"][0]; assert a[\"growth\"] is not None and a[\"growth_ge_timeout\"] == 0 and a[\"p99_ge_timeout\"] == 0'" \
	    "delta --pool $pool JSON: the clean condition keeps its growth"
done
# default pooling without --ci: the same words
run "$PS" analyze delta $A --where instance_type=m5 A-B
expect_out_has "| ≥ 978.016 (minuend ≥ timeout) | ≥ 977.160 (minuend ≥ timeout) | ≥ 489.01 (Δp99 ≥ timeout) |" \
    "delta (pooled): Δp99 and growth as bounds"
# both sides censored: no bound at all
run "$PS" analyze delta $A --where instance_type=m5 --where c=1 A-A
expect_out_has "| A-A | c=1 | 0.000 | 0.000 | ≥ timeout | ≥ timeout | –, censored: Δp99 ≥ timeout |" \
    "delta with both sides ≥ timeout: no bound, no growth"
run "$PS" analyze ratio $A --across c 16/1 --by instance_type
expect_out_has "| A | – | m5 | 1.09 | 1.08 | ≤ 0.03 (denominator ≥ timeout) |" \
    "ratio over a censored denominator: at most 25.984 / 1000"

# ratio across c: the denominator's p99 is censored
run "$PS" analyze ratio $A --across c 16/1 --by instance_type --ci --format json
ok 'chk --value-null | grep -qx "censored [1-9][0-9]*"' "ratio JSON: censored ratios flagged"
ok 'chk --value-null >/dev/null' "ratio JSON: no number, no interval, a reason"
ok "js 'a = [x for x in r if x[\"path\"] == \"A\" and x[\"instance_type\"] == \"m5\"][0]; assert a[\"p99\"] is None and a[\"p99_ge_timeout\"] == 1 and a[\"p50\"] is not None'" \
    "ratio: A m5 p99 over a censored p99 is none; p50 is a number"

# relative: no percentage of a censored statistic
run "$PS" analyze relative $A --by instance_type --stats p50,p99
expect_out_has "| A | c=1 | m5 | 891 | 3 | 100.0 | ≥ timeout |" \
    "relative: A m5 p99 ≥ timeout, not a percentage"
run "$PS" analyze relative $A --by instance_type --stats p50,p99 --format json
ok 'chk --value-null | grep -qx "censored 1"' "relative JSON: one censored statistic, null"

# compare across instance types: no value, ratio, test or verdict
run "$PS" analyze compare $A --by instance_type --where c=1
expect_code 0 "compare --by instance_type: exit 0"
# 1000 ms / 23.984 = 41.694: the ratio "≥ timeout" implies
expect_out_has "| A | c=1 | c5 | m5 | p99 | 23.984 | ≥ timeout | ≥ 976.016 | ≥ 41.694 (m5 ≥ timeout) | – | – | no verdict: m5 ≥ timeout |" \
    "compare: censored p99 is no number: the bounds it implies, no test, no verdict"
ok '! printf "%s\n" "$OUT" | grep "^| A | c=1 | c5 | m5 | p99 |" | grep -q inconclusive' \
    "compare: no inconclusive verdict on the censored row"
run "$PS" analyze compare $A --by instance_type --where c=1 --format json
ok 'chk >/dev/null' "compare JSON: every absent interval has a reason"
ok "js 'a = [x for x in r if x[\"path\"] == \"A\" and x[\"stat\"] == \"p99\"][0]; assert a[\"value_ge_timeout\"] == 1 and a[\"baseline_ge_timeout\"] == 0 and a[\"value_stat\"] is None and a[\"ratio\"] is None and a[\"ratio_lo\"] is None and a[\"p\"] is None and a[\"ratio_ci_reason\"] == \"censored: ≥ timeout\"'" \
    "compare JSON: value_ge_timeout 1, value, ratio, interval and p null"
ok "js 'a = [x for x in r if x[\"path\"] == \"A\" and x[\"stat\"] == \"p50\"][0]; assert a[\"ratio\"] is not None and a[\"ratio_lo\"] is not None and a[\"value_ge_timeout\"] == 0'" \
    "compare JSON: p50 of the same pair is compared as before"

# trials: the censored trials are named, no spread of them
run "$PS" analyze trials $A --by instance_type --where c=1
expect_out_has "| A | c=1 | m5 | p99 | 3 | ≥ timeout, ≥ timeout, ≥ timeout | ≥ timeout | ≥ timeout |" \
    "trials: each censored trial ≥ timeout, no mean or deviation"
run "$PS" analyze trials $A --by instance_type --where c=1 --format json
ok "js 'a = [x for x in r if x[\"path\"] == \"A\" and x[\"instance_type\"] == \"m5\" and x[\"stat\"] == \"p99\"][0]; assert a[\"ge_timeout_trials\"] == \"1,2,3\" and a[\"mean\"] is None and a[\"max_dev_pct\"] is None and a[\"outliers\"] is None'" \
    "trials JSON: ge_timeout_trials 1,2,3; mean, deviation, outliers null"
run "$PS" analyze trials $A --by instance_type --where c=1 --format csv
ok '[ "$(printf "%s\n" "$OUT" | awk -F, "NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"ge_timeout\") c = i; next } \$1 == \"A\" && \$3 == \"m5\" && \$8 == \"p99\" { s += \$c } END { print s }")" = 3 ]' \
    "trials CSV (long): ge_timeout = 1 on each of A m5's three p99 trials"

# variance: no spread of censored trials
run "$PS" analyze variance $A --where c=1 --where instance_type=m5 --format json
ok "js 'a = [x for x in r if x[\"path\"] == \"A\" and x[\"stat\"] == \"p99\"][0]; assert a[\"trials_ge_timeout\"] == 3 and a[\"cv_between_trials_pct\"] is None and a[\"halfwidth_now_pct\"] is None'" \
    "variance JSON: 3 censored trials, no between-trials CV or half-width"
ok "js 'a = [x for x in r if x[\"path\"] == \"B\" and x[\"stat\"] == \"p99\"][0]; assert a[\"trials_ge_timeout\"] == 0 and a[\"cv_within_trial_pct\"] is not None'" \
    "variance JSON: the clean path keeps its numbers"

# a report: pivot (with derived columns), bars and box charts
cat > spec.json <<'JSON'
{
  "title": "Censored p99",
  "stats": "p50,p99",
  "where": {"instance_type": "m5"},
  "sections": [
    {"type": "pivot", "id": "p99", "title": "p99 by concurrency",
     "metric": "connect_ms", "stat": "p99", "chart": "bars",
     "columns": [
       {"key": "c1", "label": "c=1", "condition": "c=1"},
       {"key": "c16", "label": "c=16", "condition": "c=16"},
       {"key": "d", "label": "c=16 − c=1", "delta": ["c16", "c1"]},
       {"key": "r", "label": "c=16 / c=1", "ratio": ["c16", "c1"]}
     ]},
    {"type": "percentiles", "id": "pct", "title": "Percentiles",
     "metric": "connect_ms", "chart": "bars"},
    {"type": "chart", "id": "box", "title": "Trials", "metric": "connect_ms",
     "chart": {"kind": "box", "stat": "p99"}}
  ]
}
JSON
run "$PS" report --db s.db --spec spec.json --out b --no-render
expect_code 0 "report with a censored p99: exit 0"
ok 'grep "^| A | ≥ timeout (1000 ms)" b/tables/01-p99.md | grep -q "| 25.984 | –, censored | –, censored |"' \
    "pivot: A's c=1 p99 ≥ timeout, and no difference or ratio derived from it"
ok '! awk -F, "NR > 1 && \$1 == \"A\"" b/tables/01-p99.csv | grep -q "23\\.9"' \
    "pivot CSV: the successes' p99 of A c=1 is not written as a value"
ok 'grep -q "^# censored: group 0 c=1 ≥ timeout" b/charts/01-p99.dat' \
    "pivot bars .dat: the censored bar is marked"
ok 'grep -q "^# censored: group 0 p99 ≥ timeout" b/charts/02-pct.dat' \
    "percentiles bars .dat: the censored bar is marked"
ok '[ "$(awk "/^0 / { print \$3 }" b/charts/02-pct.dat)" = NaN ]' \
    "percentiles bars .dat: A c=1's p99 is NaN, not the successes' value"
ok 'grep -q "≥ timeout" b/charts/02-pct.gp' "bars script labels the bar ≥ timeout"
ok 'grep -q "^# censored: group 0: 3 trial(s) ≥ timeout, no box" b/charts/03-box.dat' \
    "box .dat: the box with censored trials is marked and not drawn"

# a table an engine computed (from_csv): the flags give the same words
"$PS" analyze delta $A --where instance_type=m5 --format csv A-B > d.csv
cat > spec2.json <<'JSON'
{"title": "from_csv", "sections": [
 {"type": "delta", "id": "d", "title": "D", "metric": "connect_ms",
  "pairs": ["A-B"], "where": {"instance_type": "m5"}, "from_csv": "d.csv"}]}
JSON
run "$PS" report --db s.db --spec spec2.json --out b2 --no-render --no-checks
ok 'grep -q "^| A − B | c=1 | 1.990 | 2.009 | ≥ timeout | ≥ timeout | –, censored |" b2/tables/01-d.md' \
    "from_csv delta: censored Δp99 and growth say so (no bound: the CSV has no timeout)"
test_done

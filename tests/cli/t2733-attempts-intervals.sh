# t2733: delta --attempts all --ci: a side with timeouts has no
# interval, and <stat>_ci_reason says why, word for word as
# docs/research/intervals.md lists it: its order-statistic interval over
# all attempts reaches the timeouts (A at c=16, 4 % timeouts: p95), or
# stays below them while the trials' intervals are of the successes
# (p50); a pair without timeouts keeps its interval.
"$PY" "$FIX/attempts/gen_attempts.py" tree tree
"$PS" ingest -q --db s.db tree 2>/dev/null

reach="all attempts: the order-statistic interval reaches the timed-out attempts (its upper end ≥ timeout)"
tl="all attempts: the trials' intervals are of their completed attempts; none is drawn over timed-out ones"
# field PAIR COND KEY: the JSON value
field() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = [x for x in json.load(sys.stdin) if x['pair'] == '$1' and x['condition'] == '$2'][0]
print(r['$3'])"; }
run "$PS" analyze delta --db s.db --metric connect_ms --stats p50,p95 \
    --attempts all --ci --format json A-B C-B
expect_code 0 "delta --attempts all --ci: exit 0"
ok '[ "$(field A-B c=16 p95_ci_reason)" = "$reach" ] && [ "$(field A-B c=16 p95_lo)" = None ]' \
    "4 % timeouts, p95: the interval reaches the timeouts, withheld, says so"
ok '[ "$(field A-B c=16 p50_ci_reason)" = "$tl" ] && [ "$(field A-B c=16 p50_hi)" = None ]' \
    "p50 below the timeouts: withheld, the trials' intervals are of the successes"
all_c16=$(field C-B c=16 p50_ci_reason)
run "$PS" analyze delta --db s.db --metric connect_ms --stats p50,p95 \
    --ci --format json A-B C-B
ok '[ "$all_c16" = "$(field C-B c=16 p50_ci_reason)" ] && [ "$all_c16" != "$tl" ]' \
    "no timeouts on either side: the interval (here its reason) as --attempts completed gives it"
ok 'grep -qF "\`$reach\`" "$TOP/docs/research/intervals.md"' \
    "intervals.md lists the reaching reason word for word"
ok 'grep -qF "\`$tl\`" "$TOP/docs/research/intervals.md"' \
    "intervals.md lists the completed-trials reason word for word"
test_done

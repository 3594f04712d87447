# t3862: one run that three checks see as one event (B's trial 5 falls
# from 10.2 to 0.77 Gbit/s at 8 s: burst-cliff, run-order and
# outlier-trial, helper/one-event-tree.py) gets one footnote on the page,
# naming the three checks and each one's evidence, not three footnotes
# that tell the same story.

export SOURCE_DATE_EPOCH=1788000000
run "$PY" "$TOP/tests/cli/helper/one-event-tree.py" tree
expect_code 0 "the tree is written ($ERR)"
run "$PS" ingest -q --db o.db tree
expect_code 0 "it ingests ($ERR)"
run "$PS" check --db o.db --only burst-cliff,run-order,outlier-trial --format json
printf '%s' "$OUT" > f.json
run "$PY" -c '
import json
r = json.load(open("f.json"))
print(" ".join(sorted("%s:%s:%s:%s" % (x["check"], x["path"], x["trial"], x["runs"]) for x in r)))'
ok '[ "$OUT" = "burst-cliff:B:5:10 outlier-trial:B:5:10 run-order:B:5:10" ]' \
    "check: three findings on one run ($OUT)"

run "$PS" report --db o.db --out r --no-render
expect_code 0 "the report without a spec ($ERR)"
ok '[ "$(grep -c "^\[^[0-9]*\]: trial 5: " r/index.md)" = 1 ]' \
    "one footnote for the run ($(grep -c "^\[^[0-9]*\]: trial 5: " r/index.md))"
ok 'grep -q "^\[^[0-9]*\]: trial 5: pathstat check, burst-cliff, run-order and outlier-trial, one event seen by 3 checks: burst-cliff: throughput held .* run-order: .* outlier-trial: trial 5.s p50 is 0.77 Gbit/s" r/index.md' \
    "it names the three checks and gives each one's evidence"
n=$(grep -o '^\[^[0-9]*\]: trial 5: ' r/index.md | grep -o '[0-9]*' | head -1)
ok '[ -n "$n" ] && [ "$(grep -c "^| B .*\[^$n\]" r/index.md)" -ge 1 ] && ! grep -q "\[^$n\]\[^$n\]" r/index.md' \
    "B's rows carry its mark once"
test_done

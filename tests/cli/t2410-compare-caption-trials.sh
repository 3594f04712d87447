# t2410: compare's caption states the trials its rows compare, not the
# minimum its interval needs ("Welch t ... from 3 trials a side" read as
# what was done where rows had 14), and the report's instance-type
# caption says the ratio's interval is Welch's t on the trials, as it
# is, not resampling.  Two instance types on 14 days, a run a day each
# (helper/burst-tree.py): 14 trials a side, as analyze's JSON counts.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 14 A,B c6i.large,c7i.large
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" analyze compare --db m.db --metric throughput_bps --by instance_type --format json
printf '%s\n' "$OUT" > cmp.json
run "$PY" -c '
import json
r = json.load(open("cmp.json"))
n = sorted({x["trials_baseline"] for x in r} | {x["trials_value"] for x in r})
print("%d" % n[0] if n[0] == n[-1] else "%d–%d" % (n[0], n[-1]))'
want=$OUT
ok '[ "$want" = 14 ]' "analyze's rows compare 14 trials a side ($want)"
run "$PS" analyze compare --db m.db --metric throughput_bps --by instance_type
expect_out_has "Welch t on trial-level values, which needs 3 trials a side (the rows compare $want trials a side" \
    "the caption gives the trials compared"
expect_out_lacks "from 3 trials a side" "not the minimum as what was done"
run "$PS" report --db m.db --out b --no-render
expect_code 0 "report ($ERR)"
ok 'grep -q "the rows compare 14 trials a side" b/index.md' "the report's compare caption too"
ok '! grep -q "resampling trials" b/index.md' "no caption says the interval comes from resampling"
ok 'grep -q "ratio.s interval is Welch.s t on the trials. values" b/index.md' "it says Welch's t"
test_done

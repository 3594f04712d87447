# t3845: the report says which instance types lack which days.  Two
# types on 21 days, r7i.large missing 2026-11-05..09 (helper/burst-tree.py,
# then those folders removed): the instance-type comparison pools each
# type's days, so its text names the days r7i.large lacks, as analyze
# --by day --by instance_type lists them.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 21 A,B c6i.large,r7i.large
rm -rf tree/r7i.large/2026-11-0[5-9]
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" analyze percentiles --db m.db --metric throughput_bps --by day --by instance_type --format json
printf '%s\n' "$OUT" > cells.json
run "$PY" -c '
import json
rows = json.load(open("cells.json"))
days = sorted({r["day"] for r in rows})
have = {r["day"] for r in rows if r["instance_type"] == "r7i.large"}
miss = [d for d in days if d not in have]
print("r7i.large lacks %d of %d days (%s..%s)" % (len(miss), len(days), miss[0], miss[-1]))'
want=$OUT
ok '[ "$want" = "r7i.large lacks 5 of 21 days (2026-11-05..2026-11-09)" ]' "analyze: $want"
run "$PS" report --db m.db --out b --no-render
expect_code 0 "report ($ERR)"
ok 'grep -q "Not every type has every day: $want; its ratios pool the days it has" b/index.md' \
    "the instance types' text says which days r7i.large lacks"
ok '! grep -q "c6i.large lacks" b/index.md' "and nothing of c6i.large, which has them all"
test_done

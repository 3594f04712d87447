# t3843: a report of a period keeps the context its verdicts need and
# says what it covers.  21 days of A and D (helper/burst-tree.py), D
# stepping +10 % on 2026-11-16, the Monday of ISO week 47; the --init
# spec with "where": {"week": "2026-W47"} added.  The days table holds
# the period alone; the weeks table gives W47 its week-over-week change
# from W46 (analyze's p50 of each week) and the trend reads D's step as
# a step at 2026-11-16, both from the time before the period; the page
# names the period under its intro.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 21 A,D c6i.large "" D
ok '[ "$OUT" = 42 ]' "21 days of A and D written ($OUT files)"
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" report --db m.db --init
printf '%s\n' "$OUT" > init.json
run "$PY" -c '
import json
s = json.load(open("init.json"))
s["where"] = {"week": "2026-W47"}
json.dump(s, open("week.json", "w"), indent=2)'
run "$PS" report --db m.db --spec week.json --out b --no-render
expect_code 0 "a weekly report ($ERR)"
ok 'grep -q "^\*\*Period:\*\* week=2026-W47\. " b/index.md' "the page says which period it covers"

"$PS" analyze percentiles --db m.db --metric throughput_bps --by week --by path --format json > weeks.json
"$PS" analyze percentiles --db m.db --metric throughput_bps --where week=2026-W47 --by day --by path --format json > days.json
run "$PY" - <<'PY'
import csv, glob, json, sys
bad = []
weeks = {(r["week"], r["path"]): r for r in json.load(open("weeks.json"))}
rows = {(r["week"], r["path"]): r for r in csv.DictReader(open(glob.glob("b/tables/*throughput-bps-weeks.csv")[0]))}
for p in "AD":
    r = rows.get(("2026-W47", p))
    if not r or not r["p50_wow"]:
        bad.append("%s: no week-over-week for 2026-W47" % p)
        continue
    want = weeks[("2026-W47", p)]["p50"] / weeks[("2026-W46", p)]["p50"] - 1
    if abs(float(r["p50_wow"]) - want) > 1e-9:
        bad.append("%s: wow %s, analyze's weeks %r" % (p, r["p50_wow"], want))
if abs(float(rows[("2026-W47", "D")]["p50_wow"]) - 0.10) > 0.005:
    bad.append("D's wow is not the planted +10 %")
days = {(r["day"], r["path"]): r for r in json.load(open("days.json"))}
drows = list(csv.DictReader(open(glob.glob("b/tables/*throughput-bps-days.csv")[0])))
if sorted(r["day"] for r in drows) != sorted({d for d, _ in days}):
    bad.append("days table holds %s" % [r["day"] for r in drows])
for r in drows:
    for col, v in r.items():
        if col == "day":
            continue
        p, st = col.rsplit("_", 1)
        if abs(float(v) - days[(r["day"], p)][st]) > 1e-6 * float(v):
            bad.append("days %s %s" % (r["day"], col))
print("; ".join(bad[:6]))
sys.exit(1 if bad else 0)
PY
ok '[ $RC = 0 ]' "W47's week-over-week from W46 (analyze's weeks) and the days of W47 alone, as analyze gives them ($OUT)"
ok 'grep -q "^| D .* | step at 2026-11-16, +" b/tables/*throughput-bps-trend.md' "the trend reads D's step in the week as a step"
ok 'grep -q "where week=2026-W47, with the time before that period" b/tables/*throughput-bps-trend.md' "and its caption says it read the time before the period"
test_done

# t3840: the report reads a metric measured day after day with analyze's
# default statistics (common/metric.h, one home): throughput's slow side
# p50,p5, not p50/p99, in the days x paths table, the weeks, the trend and
# the day chart, and `report --init` writes the same.  Planted: path E's
# run of 2026-11-02 is a burst-credit run (0.77 Gbit/s for its last 14
# of 30 s, helper/burst-tree.py); its day's p5 must read 0.77 in the
# report as analyze's p5 does.  Every cell of the days, weeks and trend
# tables is cross-checked against `analyze --format json` for the same
# selection.  iperf3's reporting intervals never fail: no "Loss per day"
# table for throughput or retransmits.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 14
ok '[ "$OUT" = 70 ]' "14 days x 5 paths of iperf3 written ($OUT files)"
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"

run "$PS" report --db m.db --init
expect_code 0 "report --init"
printf '%s\n' "$OUT" > init.json
run "$PY" -c '
import json, sys
spec = json.load(open("init.json"))
bad = []
def walk(secs, metric=None):
    for s in secs:
        m = s.get("metric", metric)
        if s.get("type") == "group":
            walk(s.get("sections", []), m)
            continue
        if m == "throughput_bps" and s.get("type") in ("days", "weeks", "trend", "compare"):
            if s.get("stats") != "p50,p5":
                bad.append("%s %s: stats %r" % (s.get("type"), s.get("id"), s.get("stats")))
        if m in ("throughput_bps", "retransmits") and s.get("type") == "loss":
            bad.append("loss section %s" % s.get("id"))
walk(spec.get("sections", []))
print("; ".join(bad))
sys.exit(1 if bad else 0)'
ok '[ $RC = 0 ]' "--init: throughput's days, weeks and trend show p50,p5 and no loss per day ($OUT)"

run "$PS" report --db m.db --out b --no-render
expect_code 0 "report without a spec ($ERR)"
days=$(ls b/tables/*throughput-bps-days.csv 2>/dev/null | head -1)
ok '[ -n "$days" ] && [ "$(head -1 "$days")" = "day,A_p50,A_p5,B_p50,B_p5,C_p50,C_p5,D_p50,D_p5,E_p50,E_p5" ]' \
    "the days x paths table shows p50 and p5 ($(head -1 "$days"))"
ok 'grep -q "^| 2026-11-02 |.* | 0.767 |$" b/tables/*throughput-bps-days.md' \
    "E's burst-credit day reads p5 0.767 Gbit/s on the page"
ok '! ls b/tables/*-loss.md >/dev/null 2>&1' "no Loss per day table for iperf3's intervals"
ok 'grep -q "^set title .Throughput: p5 per day" b/charts/*throughput-bps-days.gp' "the day chart draws p5"

run "$PS" analyze percentiles --db m.db --metric throughput_bps --by day --by path --format json
printf '%s\n' "$OUT" > days.json
run "$PS" analyze percentiles --db m.db --metric throughput_bps --by week --by path --format json
printf '%s\n' "$OUT" > weeks.json
cat > cross.py <<'PY'
import csv, glob, json, sys
bad = []
days = {(r["day"], r["path"]): r for r in json.load(open("days.json"))}
weeks = {(r["week"], r["path"]): r for r in json.load(open("weeks.json"))}
n = 0
for row in csv.DictReader(open(glob.glob("b/tables/*throughput-bps-days.csv")[0])):
    for col, v in row.items():
        if col == "day":
            continue
        path, stat = col.rsplit("_", 1)
        want = days[(row["day"], path)][stat]
        n += 1
        if abs(float(v) - want) > 1e-6 * abs(want):
            bad.append("days %s %s: %s, analyze %r" % (row["day"], col, v, want))
for row in csv.DictReader(open(glob.glob("b/tables/*throughput-bps-weeks.csv")[0])):
    a = weeks[(row["week"], row["path"])]
    for stat in ("p50", "p5"):
        n += 1
        if abs(float(row[stat]) - a[stat]) > 1e-6 * abs(a[stat]):
            bad.append("weeks %s %s %s: %s, analyze %r" % (row["path"], row["week"], stat, row[stat], a[stat]))
for row in csv.DictReader(open(glob.glob("b/tables/*throughput-bps-trend.csv")[0])):
    for pt in json.loads(row["series"]):
        a = days[(pt["point"], row["path"])][row["stat"]]
        n += 1
        if abs(pt["value"] - a) > 1e-6 * abs(a):
            bad.append("trend %s %s %s: %r, analyze %r" % (row["path"], row["stat"], pt["point"], pt["value"], a))
print("%d cells" % n, "; ".join(bad[:5]))
sys.exit(1 if bad or n != 14 * 10 + 15 * 2 + 14 * 10 else 0)
PY
run "$PY" cross.py
ok '[ $RC = 0 ]' "every days, weeks and trend cell equals analyze's ($OUT)"

if have_prereq NUMPY; then
	run "$PY" -c '
import glob, json, numpy as np
d = json.load(open(glob.glob("tree/*/2026-11-02/E/run.json")[0]))
v = [i["sum"]["bits_per_second"] for i in d["intervals"]]
print(round(float(np.percentile(v, 5)) / 1e9, 3))'
	ok '[ "$OUT" = 0.767 ]' "numpy's p5 of E's burst-credit run is the page's ($OUT)"
fi
test_done

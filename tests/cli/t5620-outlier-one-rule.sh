# t5620: one outlier rule, one function.  `analyze trials`' column, the
# note under it (the cells whose trial-level intervals are withdrawn),
# `check outlier-trial` and the report's box chart name the same trials,
# a fast one only where the rule names it.  Before, the column judged
# one statistic of one cell ("2x median and calibrated z") while the
# note, the check and the withdrawal used the campaign's rule: a 3x
# trial among 3 was in the note and not in the column, and a trial at
# 0.52x the median (the fast one) was in the note and the check but not
# in the column.
# Campaign: 9 pathprobe paths of 3 trials x 300 probes, each trial's
# samples the lognormal (sigma 0.3) quantile grid times the trial's
# scale (so each trial's p50, p95, p99 are exactly that scale times the
# grid's), trials 1-4 % apart; S trial 3 at 3x (its siblings 10 %
# apart: the cell's own robust z cannot call it), F trial 3 at 0.52x
# (fast, beyond the 1.5x the campaign's spread allows), G trial 3 at
# 0.8x (fast, within it: named nowhere).

cat > mk.py <<'PY'
import json, math, os, random
from statistics import NormalDist
random.seed(5620)
grid = [math.exp(0.3 * NormalDist().inv_cdf((i + 0.5) / 300)) for i in range(300)]
def probe(path, trial, scale):
    d = "s/%s/t%d" % (path, trial)
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": trial}, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=300 interval_s=0.2 timeout_s=5 start=2026-09-01T0%d:00:00Z" % trial,
            "seq,unix_ns,connect_ms,result"]
    v = [scale * x for x in grid]
    random.shuffle(v)
    for i, x in enumerate(v):
        rows.append("%d,%d,%.6f,ok" % (i, 1788220800000000000 + trial * 3600000000000 + i * 200000000, x))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
cells = {"P1": (1.00, 1.03, 0.97), "P2": (1.01, 0.98, 1.02), "P3": (0.99, 1.02, 1.00),
         "P4": (1.00, 0.97, 1.01), "P5": (1.02, 1.00, 0.98), "P6": (0.98, 1.01, 1.03),
         "S": (1.00, 1.10, 3.00), "F": (1.00, 1.04, 0.52), "G": (1.00, 1.04, 0.80)}
for p, sc in cells.items():
    for t, s in enumerate(sc, 1):
        probe(p, t, s)
PY
"$REAL_PY" mk.py
"$PS" ingest -q --db t.db s 2>/dev/null
expect_sql t.db "SELECT count(*) FROM runs" 27 "9 paths x 3 trials"

run "$PS" analyze trials --db t.db --metric connect_ms --stats p50,p99 --format json
expect_code 0 "analyze trials exits 0"
printf '%s' "$OUT" > trials.json
run "$PS" analyze trials --db t.db --metric connect_ms --stats p50,p99
printf '%s' "$OUT" > trials.md
run "$PS" check --db t.db --only outlier-trial --format json
expect_code 3 "check outlier-trial has findings"
printf '%s' "$OUT" > check.json

cat > cmp.py <<'PY'
import json, re, sys
t = json.load(open("trials.json"))
c = json.load(open("check.json"))
md = open("trials.md", encoding="utf-8").read()
col = {}
for x in t:
    col.setdefault(x["path"], set()).add(x["outliers"])
note = re.search(r"Trial-level intervals withdrawn in the other tables \(.*? cells of that trial count\): (.*)\._", md)
named = {}
for part in (note.group(1).split("; ") if note else []):
    m = re.match(r"([^\s:]+)(?: [^:]*)?: trials? ([\d, ]+) (is an outlier|are outliers)", part)
    if m:
        named[m.group(1)] = ",".join(m.group(2).replace(" ", "").split(","))
chk = {}
for x in c:
    chk.setdefault(x["path"], []).append(str(x["trial"]))
what = sys.argv[1]
if what == "rows":
    bad = {p: v for p, v in col.items() if len(v) != 1}
    assert not bad, bad
    print("every row of a cell names the same trials")
elif what == "column":
    got = {p: v.pop() for p, v in col.items() if any(v)}
    assert got == {"S": "3", "F": "3"}, got
    print(got)
elif what == "note":
    assert named == {"S": "3", "F": "3"}, (named, note.group(1) if note else None)
    print(named)
elif what == "check":
    got = {p: ",".join(v) for p, v in chk.items()}
    assert got == {"S": "3", "F": "3"}, got
    print(got)
elif what == "G":
    # G's 0.8x trial is no outlier: named nowhere (the note may withdraw
    # G for a cause the cells share, naming no trial of it)
    assert "G" not in col or col["G"] == {""}, col
    assert "G" not in named and "G" not in chk, (named, chk)
    print("G: none")
elif what == "fast":
    f = [x for x in c if x["path"] == "F"][0]
    assert "the fast one" in f["cause"] and "0.52" in f["evidence"], f
    rule = [x["outlier_rule"] for x in t if x["path"] == "F"]
    # p99 is not judged on 300 probes (3 above it: fewer than 5)
    assert all(r == "trial 3 on p50, p95" for r in rule), rule
    print(rule[0])
PY
ok '"$REAL_PY" cmp.py rows' "every row of a cell names the same trials (the rule's verdict is the cell's)"
ok '"$REAL_PY" cmp.py column' "the column names S trial 3 (3x) and F trial 3 (0.52x), and nothing else"
ok '"$REAL_PY" cmp.py note' "the note under the table names the same trials"
ok '"$REAL_PY" cmp.py check' "check outlier-trial names the same trials"
ok '"$REAL_PY" cmp.py G' "G's 0.8x trial (fast, within the campaign's spread): named nowhere"
ok '"$REAL_PY" cmp.py fast' "the fast trial: the check says it is the fast one, the rule column on which statistics"

# the long CSV's outlier column: the same trials on every row of theirs
run "$PS" analyze trials --db t.db --metric connect_ms --stats p50,p99 --format csv
printf '%s\n' "$OUT" > trials.csv
ok "\"\$REAL_PY\" -c '
import csv
r = list(csv.DictReader(open(\"trials.csv\")))
got = sorted((x[\"path\"], x[\"stat\"], x[\"trial\"]) for x in r if x[\"outlier\"] == \"1\")
assert got == [(\"F\", \"p50\", \"3\"), (\"F\", \"p99\", \"3\"), (\"S\", \"p50\", \"3\"), (\"S\", \"p99\", \"3\")], got
'" "the CSV (long) marks S trial 3 and F trial 3 on each statistic's row"

# the report's box chart marks the same trials
export SOURCE_DATE_EPOCH=1788000000
run "$PS" report --db t.db --out r --no-render
expect_code 0 "report exits 0 ($ERR)"
dat=$(ls r/charts/*trials*.dat 2>/dev/null | head -1)
cat > box.py <<'PY'
import re, sys
txt = open(sys.argv[1], encoding="utf-8").read()
groups = dict((int(g), l) for g, l in re.findall(r"^# group (\d+): (.*)$", txt, re.M))
body = "\n".join(l for l in txt.splitlines() if not l.startswith("#"))
blocks = re.split(r"\n\s*\n\s*\n", body.strip("\n") + "\n")
idx2 = [l.split() for l in blocks[2].splitlines() if l.strip()] if len(blocks) > 2 else []
got = sorted((groups[int(x)].split()[0], t) for x, v, t in idx2 if x != "NaN")
assert got == [("F", "3"), ("S", "3")], got
print(got)
PY
ok '[ -n "$dat" ] && "$REAL_PY" box.py "$dat"' "the box chart names S trial 3 and F trial 3 ($dat)"
test_done

# t5600: one outlier-trial rule.  Before, `analyze trials`
# flagged a trial in about 20 % of cells of 5 identically distributed
# trials (robust z 3.5 on a MAD of five values), `check outlier-trial`
# found nothing on the same data (3x the median) and missed a 3x trial
# half the time, and the report's box chart named trials 1.25x off.
# Seeded cells here: 20 paths of 5 identical trials, 5 paths where one of
# 5 trials is 3x slower, 20 paths of 3 trials with a 10 % trial effect.
# analyze trials and check must flag exactly the same trials.

cat > mk.py <<'PY'
import json, math, os, random
random.seed(5600)
def probe(d, path, trial, scale, n=300):
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": trial}, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=2026-09-0%dT00:00:00Z" % (n, trial),
            "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        rows.append("%d,%d,%.5f,ok" % (i, 1788220800000000000 + trial * 86400000000000 + i * 200000000,
                                       scale * random.lognormvariate(0, 0.3)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for k in range(20):
    for t in range(1, 6):
        probe("s/N%02d/t%d" % (k, t), "N%02d" % k, t, 1.0)
for k in range(5):
    for t in range(1, 6):
        probe("s/X%d/t%d" % (k, t), "X%d" % k, t, 3.0 if t == 2 else 1.0)
for k in range(20):
    for t in range(1, 4):
        probe("s/B%02d/t%d" % (k, t), "B%02d" % k, t, math.exp(random.gauss(0, 0.1)))
PY
"$PY" mk.py
"$PS" ingest -q --db t.db s 2>/dev/null

run "$PS" analyze trials --db t.db --metric connect_ms --stats p50 --format json
expect_code 0 "analyze trials runs"
printf '%s' "$OUT" > trials.json
ok "\"\$PY\" -c '
import json
r = json.load(open(\"trials.json\"))
bad = [(x[\"path\"], x[\"outliers\"]) for x in r if x[\"path\"][0] in \"NB\" and x[\"outliers\"]]
assert not bad, bad
'" "identically distributed trials (5 a cell, or 3 with a 10 % trial effect): no outlier in 40 cells"
ok "\"\$PY\" -c '
import json
r = json.load(open(\"trials.json\"))
x = [(x[\"path\"], x[\"outliers\"]) for x in r if x[\"path\"][0] == \"X\"]
assert x == [(\"X%d\" % k, \"2\") for k in range(5)], x
'" "a trial 3x slower than its four siblings: flagged in every cell, and only it"

run "$PS" check --db t.db --only outlier-trial --format json
expect_code 3 "check finds the slow trials"
printf '%s' "$OUT" > check.json
ok "\"\$PY\" -c '
import json
t = json.load(open(\"trials.json\"))
c = json.load(open(\"check.json\"))
a = sorted((x[\"path\"], o) for x in t for o in x[\"outliers\"].split(\",\") if o)
b = sorted((x[\"path\"], str(x[\"trial\"])) for x in c)
assert a == b and len(a) == 5, (a, b)
'" "check outlier-trial flags exactly the trials analyze trials flags"

run "$PS" check --help
expect_out_has "2x or more from the median trial" "check --help states the shared rule"
test_done

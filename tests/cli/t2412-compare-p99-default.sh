# t2412: under the default pooling a p99 row of compare says what would
# give it a verdict.  A pooled percentile beyond p25-p75 has no interval,
# so every p99 row read "inconclusive (+x %)" and nothing more, even a
# 12 % slower type at the smallest p there is: the row now says that a
# pooled p99 has no interval and that --pool trials gives one, which
# then calls it worse (its values the means of the trials' type 7 p99s,
# numpy).

have_prereq NUMPY || skip_all "numpy missing (the oracle of the trials' p99s)"

cat > mk.py <<'PY'
import json, os, random
random.seed(2412)
for ty, scale in (("c6i.large", 1.0), ("c7i.large", 1.12)):
    for t in range(1, 6):
        d = "cmp/%s/t%d" % (ty, t)
        os.makedirs(d, exist_ok=True)
        json.dump({"instance_type": ty, "path": "W", "trial": t}, open(d + "/meta.json", "w"))
        rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=400 interval_s=0.2 timeout_s=0.4 start=2026-09-01T00:00:00Z",
                "seq,unix_ns,connect_ms,result"]
        for i in range(400):
            rows.append("%d,%d,%.4f,ok" % (i, 1788220800000000000 + i * 200000000, scale * random.lognormvariate(0, 0.05)))
        open(d + "/probe.csv", "w").write("\n".join(rows) + "\n")
PY
"$PY" mk.py
"$PS" ingest -q --db c.db cmp 2>/dev/null

js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --stats p50,p99 --format json
expect_code 0 "compare runs"
ok "js 'w=[x for x in r if x[\"stat\"]==\"p99\"][0]; assert w[\"verdict\"].startswith(\"inconclusive: a pooled p99 has no interval, so no verdict; --pool trials gives one (+\"), w'" "default pooling: the p99 row says --pool trials gives a verdict"
ok "js 'w=[x for x in r if x[\"stat\"]==\"p50\"][0]; assert w[\"verdict\"].startswith(\"worse\"), w'" "p50 keeps its verdict"
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --stats p99
expect_out_has "1 row(s) of a pooled percentile beyond p25–p75" "a caption says which rows, and why"
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --stats p99 --pool trials --format json
ok "js 'w=r[0]; assert w[\"pool\"] == \"trials\" and w[\"ratio_lo\"] is not None and w[\"verdict\"].startswith(\"worse\"), w'" "--pool trials: an interval, and worse"
cat > oracle.py <<'PY'
import csv, glob, json, sys
import numpy as np
def trials(ty):
    return [np.percentile([float(x[2]) for x in csv.reader(l for l in open(f) if not l.startswith("#")) if x[3] == "ok"], 99)
            for f in sorted(glob.glob("cmp/%s/t*/probe.csv" % ty))]
r = json.load(sys.stdin)[0]
b, v = np.mean(trials("c6i.large")), np.mean(trials("c7i.large"))
assert abs(r["baseline_stat"] - b) < 1e-9 and abs(r["value_stat"] - v) < 1e-9, (r, b, v)
PY
ok "printf '%s' \"\$OUT\" | \"\$PY\" oracle.py" "its p99s are the means of the trials' type 7 p99s"
test_done

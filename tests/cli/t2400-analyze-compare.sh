# t2400: compare, trend and variance on campaigns built so the answer is
# known: a 20 % slower instance type over 5 trials a side (worse), an
# identical one (same), 3 trials a side (inconclusive, and it says why),
# a step between days (a change point at the step), a steady drift (a
# Theil-Sen slope near the true one), and spread that lives between days.

cat > mk.py <<'PY'
import json, os, random
random.seed(2400)
def probe(d, path, trial, tags, scale, n=300):
    os.makedirs(d, exist_ok=True)
    meta = dict(tags, path=path, trial=trial)
    json.dump(meta, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=2026-09-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        rows.append("%d,%d,%.4f,ok" % (i, 1788220800000000000 + i * 200000000,
                                       scale * random.lognormvariate(0, 0.05)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
# compare: instance types
for t in range(1, 6):
    probe("cmp/c6i/W/t%d" % t, "W", t, {"instance_type": "c6i.large"}, 1.00)
    probe("cmp/c7g/W/t%d" % t, "W", t, {"instance_type": "c7g.xlarge"}, 1.20)
    probe("cmp/c6i/S/t%d" % t, "S", t, {"instance_type": "c6i.large"}, 2.00)
    probe("cmp/c7g/S/t%d" % t, "S", t, {"instance_type": "c7g.xlarge"}, 2.00)
for t in range(1, 4):
    probe("cmp/c6i/F/t%d" % t, "F", t, {"instance_type": "c6i.large"}, 3.00)
    probe("cmp/c7g/F/t%d" % t, "F", t, {"instance_type": "c7g.xlarge"}, 3.60)
# trend: a step on day 4 (path P), a drift of +0.05 ms a day (path Q)
for day in range(1, 8):
    tag = {"day": "2026-09-%02d" % day}
    probe("trend/P/d%d" % day, "P", 1, tag, 1.0 if day < 4 else 1.5)
    probe("trend/Q/d%d" % day, "Q", 1, tag, 1.0 + 0.05 * day)
# variance: days differ by 30 %, trials within a day by 1 %
for day in range(1, 5):
    for t in range(1, 4):
        probe("var/V/d%d/t%d" % (day, t), "V", t, {"day": "2026-10-%02d" % day, "hostname": "h1"},
              (1.3 if day % 2 else 1.0) * (1 + 0.01 * t))
PY
"$PY" mk.py
"$PS" ingest -q --db c.db cmp trend var 2>/dev/null

js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline c6i.large --stats p50 --format json
expect_code 0 "compare runs"
ok "js 'w=[x for x in r if x[\"path\"]==\"W\"][0]; assert w[\"verdict\"].startswith(\"worse\"), w; assert abs(w[\"ratio\"]-1.2) < 0.02, w; assert w[\"ratio_lo\"] > 1.05 and w[\"p_adj\"] < 0.05 and w[\"test\"] == \"mann-whitney\"'" "20 % slower on 5 vs 5 trials: worse, ratio ≈ 1.2, interval beyond 5 %"
ok "js 's=[x for x in r if x[\"path\"]==\"S\"][0]; assert s[\"verdict\"].startswith(\"same\"), s; assert 0.95 < s[\"ratio_lo\"] and s[\"ratio_hi\"] < 1.05'" "identical: same, interval within ±5 %"
ok "js 'f=[x for x in r if x[\"path\"]==\"F\"][0]; assert \"can never reach\" in f[\"verdict\"], f'" "3 vs 3 trials: inconclusive, and it says why"
ok "js 'assert all(x[\"p_adj\"] >= x[\"p\"] for x in r if x[\"p\"] is not None)'" "the adjustment never lowers a p-value"
cat > t7.py <<'PY'
import csv, glob, json, sys
def t7(v, p):
    v = sorted(v); h = (len(v) - 1) * p / 100.0; lo = int(h); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])
def vals(pattern):
    out = []
    for f in sorted(glob.glob(pattern)):
        out += [float(r[2]) for r in csv.reader(l for l in open(f) if not l.startswith("#")) if r[3] == "ok"]
    return out
r = json.load(sys.stdin)
w = [x for x in r if x["path"] == "W"][0]
b, v = t7(vals("cmp/c6i/W/*/probe.csv"), 50), t7(vals("cmp/c7g/W/*/probe.csv"), 50)
assert abs(w["baseline_stat"] - b) < 1e-9 and abs(w["value_stat"] - v) < 1e-9 and abs(w["ratio"] - v / b) < 1e-12, (w, b, v)
PY
ok "printf '%s' \"\$OUT\" | \"\$PY\" t7.py" "baseline, value and ratio are the pooled type7 p50s of the raw files"

run "$PS" analyze trend --db c.db --metric connect_ms --by day --where path=P,Q --stats p50 --format json
expect_code 0 "trend runs"
ok "js 'p=[x for x in r if x[\"path\"]==\"P\"][0]; assert p[\"change_points\"] == \"2026-09-04\", p; assert p[\"verdict\"].startswith(\"step at 2026-09-04\")'" "a step on day 4 is found there"
ok "js 'q=[x for x in r if x[\"path\"]==\"Q\"][0]; assert abs(q[\"slope\"] - 0.05) < 0.01, q; assert q[\"slope_lo\"] > 0, q'" "a drift of 0.05 ms/day: Theil-Sen slope ≈ 0.05 with an interval above 0"

run "$PS" analyze variance --db c.db --metric connect_ms --where path=V --stats p50 --target 5% --format json
expect_code 0 "variance runs"
ok "js 'v=r[0]; assert v[\"trials\"] == 12 and v[\"days\"] == 4 and v[\"instances\"] == 1, v; assert v[\"cv_between_days_pct\"] > 5 * v[\"cv_between_trials_pct\"], v'" "spread put between days, not between trials"
run "$PS" analyze variance --db c.db --metric connect_ms --where path=V --stats p50 --target 20% --format json
ok "js 'assert r[0][\"trials_needed\"] is not None'" "a looser target needs a number of trials"
test_done

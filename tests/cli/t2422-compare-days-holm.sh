# t2422: where a compare row's unit is the day (the sides measured on
# days of their own), the trials of one type are not exchangeable with
# another's (each day has its effect), so max-T's permutation of trials
# does not apply: the table adjusts with Holm, says so, and p_adj is
# Holm's adjustment of the rows' p (computed here from its definition).
# Four instance types, each on 3 days of its own, 3 trials a day.

cat > mk.py <<'PY'
import json, os, random, time
random.seed(2422)
def probe(d, trial, ty, scale, day, n=200):
    os.makedirs(d, exist_ok=True)
    json.dump({"instance_type": ty, "path": "W", "trial": trial}, open(os.path.join(d, "meta.json"), "w"))
    t0 = 1788220800 + 86400 * day + 600 * trial
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=%s"
            % (n, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0))), "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        rows.append("%d,%d,%.4f,ok" % (i, t0 * 10**9 + i * 200000000, scale * random.lognormvariate(0, 0.05)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for k, ty in enumerate(["a", "b", "c", "d"]):
    for day in range(3):
        eff = random.lognormvariate(0, 0.1)
        for t in range(1, 4):
            probe("cmp/%s/d%d/t%d" % (ty, day, t), t, ty, (1.3 if ty == "d" else 1.0) * eff, 3 * k + day)
PY
"$PY" mk.py
"$PS" ingest -q --db c.db cmp 2>/dev/null

run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline a --stats p50 --format json
expect_code 0 "compare runs"
printf '%s' "$OUT" > got.json
cat > chk.py <<'PY'
import json
r = json.load(open("got.json"))
assert len(r) == 3 and all(x["unit"] == "days" for x in r), r
# Holm, by its definition
ps = sorted((x["p"], i) for i, x in enumerate(r))
m, run, want = len(ps), 0.0, {}
for j, (p, i) in enumerate(ps):
    run = max(run, min(1.0, (m - j) * p))
    want[i] = run
for i, x in enumerate(r):
    assert abs(x["p_adj"] - want[i]) < 1e-12, (x, want[i])
PY
ok '"$PY" chk.py' "days as the unit: p_adj is Holm's adjustment of the rows' p"
run "$PS" analyze compare --db c.db --metric connect_ms --by instance_type --baseline a --stats p50
expect_out_has "adjusted across the rows with Holm (the rows' unit is not the trials of one day" "the note says Holm, and why"
test_done

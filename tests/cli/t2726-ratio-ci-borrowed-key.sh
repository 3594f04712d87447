# t2726: ratio's JSON says, per statistic, how many cells of their
# design its interval borrowed the spread of (<stat>_ci_borrowed; 0: the
# pair's own), as percentiles' does.  8 paths x 2 conditions (ka-on,
# ka-off) x 5 trials x 300 probes, one design of 16 cells: each path's
# off/on ratio borrows from 16 (--pool trials too); one path alone (two
# cells) from none.  Before, ratio's JSON had no such key.

cat > mk.py <<'PY'
import json, os, random
random.seed(2726)
t0 = [1788220800]
def probe(d, path, trial, cond, vals):
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": trial, "condition": cond}, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(vals),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(vals):
        rows.append("%d,%d,%.3f,ok" % (i, t0[0] * 10**9 + i * 200000000, v))
    t0[0] += 300
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for p in range(1, 9):
    for cond, sc in (("ka-on", 1.0), ("ka-off", 1.3)):
        for t in range(1, 6):
            b = random.gauss(0, 0.08)
            probe("c/P%d/%s/t%d" % (p, cond, t), "P%d" % p, t, cond,
                  [10 * sc * random.lognormvariate(b, 0.3) for _ in range(300)])
PY
"$PY" mk.py
"$PS" ingest -q --db c.db c 2>/dev/null

for pool in pooled trials; do
	run "$PS" analyze ratio --db c.db --metric connect_ms --ci --pool $pool \
	    --stats p50 --across ka off/on --format json
	expect_code 0 "ratio --ci --pool $pool, the campaign: exit 0"
	ok "\"\$PY\" -c 'import json
rows = json.load(open(\".out\"))
assert len(rows) == 8, rows
for r in rows:
    assert r[\"p50_ci_borrowed\"] == 16 and r[\"p50_ci_covers\"] == \"trials\", r'" \
	    "--pool $pool, the campaign: p50_ci_borrowed = 16"
done
run "$PS" analyze ratio --db c.db --metric connect_ms --ci --stats p50 \
    --across ka off/on --where path=P3 --format json
expect_code 0 "ratio --ci, P3 alone: exit 0"
ok "\"\$PY\" -c 'import json
rows = json.load(open(\".out\"))
assert len(rows) == 1 and rows[0][\"p50_ci_borrowed\"] == 0, rows
assert rows[0][\"p50_ci_covers\"] == \"trials\", rows'" \
    "P3 alone: p50_ci_borrowed = 0"

test_done

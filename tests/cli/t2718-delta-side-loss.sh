# t2718: delta and ratio carry each side's loss and say what their
# percentiles are of.  A and B are 3 pathprobe runs of 300 probes with
# a 0.4 s timeout (seeded numpy); A loses 20 of 900 (2.2 %), B 9 of 900
# (1.0 %).  Their Δp95 is A's p92.89 of all attempts against B's p94.05:
# the table says so.  Main carried no loss in delta or ratio at all.
# Ratio: condition c=2 over c=1 of path A, the same counts per side.

have_prereq NUMPY || skip_all "numpy missing"
"$PY" - <<'PYEOF'
import json, os
import numpy as np
rng = np.random.default_rng(21)
lost = {("A", "1"): (7, 7, 6), ("B", "1"): (3, 3, 3), ("A", "2"): (1, 0, 0)}
for (path, c), per in lost.items():
    for t in range(3):
        d = "tree/%s/c%s/t%d" % (path, c, t + 1)
        os.makedirs(d)
        json.dump({"path": path, "trial": t + 1, "tool": "pathprobe",
                   "condition": "c" + c}, open(d + "/meta.json", "w"))
        x = np.round(20 * np.exp(0.2 * rng.normal(size=300)), 3)
        bad = set(rng.choice(300, per[t], replace=False))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=127.0.0.1:9 addr=127.0.0.1 "
                    "count=300 interval_s=0.2 timeout_s=0.4 "
                    "start=2026-08-29T02:20:00Z\n")
            f.write("seq,unix_ns,connect_ms,result\n")
            for i, v in enumerate(x):
                ns = 1787970000 * 10**9 + t * 10**12 + i * 2 * 10**8
                f.write("%d,%d,,timeout\n" % (i, ns) if i in bad else
                        "%d,%d,%.3f,ok\n" % (i, ns, v))
PYEOF
"$PS" ingest -q --db s.db tree 2>/dev/null
expect_sql s.db "SELECT count(*) FROM runs" 9 "nine runs"

cat > want.py <<'PYEOF'
import csv, glob, json, sys
def side(path, c):
    ok = bad = 0
    for f in glob.glob("tree/%s/c%s/t*/probe.csv" % (path, c)):
        for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
            if r["result"] == "ok":
                ok += 1
            else:
                bad += 1
    return bad, 100.0 * bad / (ok + bad)
rows = json.load(open(sys.argv[1]))
a, b = sys.argv[2], sys.argv[3]
for r in rows:
    for name, (p, c) in ((a, (r.get("minuend") or r["path"],
                               "1" if a == "minuend" else "2")),
                         (b, (r.get("subtrahend") or r["path"], "1"))):
        fail, pct = side(p, c)
        assert r["failures_" + name] == fail, (name, r, fail)
        assert r["timeouts_" + name] == fail, (name, r, fail)
        assert abs(r["loss_pct_" + name] - pct) < 1e-9, (name, r, pct)
PYEOF
run "$PS" analyze delta --db s.db --metric connect_ms --where c=1 A-B --format json
expect_code 0 "delta --format json: exit 0"
printf '%s' "$OUT" > d.json
ok "\"\$PY\" want.py d.json minuend subtrahend" \
    "delta JSON: failures, timeouts and loss % of each side equal the files'"
run "$PS" analyze delta --db s.db --metric connect_ms --where c=1 A-B
expect_out_has "| loss % (minuend) | loss % (subtrahend) |" "Markdown shows each side's loss"
expect_out_has "percentiles are of its completed attempts" "the caption names the target"
expect_out_has "p95: the minuend's p92.89 of all attempts against the subtrahend's p94.05 " \
    "and where the sides' loss shifts Δp95 apart"
run "$PS" analyze delta --db s.db --metric connect_ms --where c=1 A-B --format csv
ok "printf '%s' \"\$OUT\" | head -1 | grep -q 'failures_minuend,timeouts_minuend,failures_subtrahend,timeouts_subtrahend,loss_pct_minuend,loss_pct_subtrahend'" \
    "CSV has the same keys"

run "$PS" analyze ratio --db s.db --metric connect_ms --paths A --across c 2/1 --format json
expect_code 0 "ratio --format json: exit 0"
printf '%s' "$OUT" > r.json
ok "\"\$PY\" want.py r.json numerator denominator" \
    "ratio JSON: each side's failures, timeouts and loss % equal the files'"
test_done

# t2721: a crashed or short trial is down-weighted, not a reason to
# withhold a cell of many.  Two paths of 63 trials x 300 probes
# (lognormal sigma 0.3, trial effect sigma 0.05); one of A's trials
# crashed after 150 probes.  `--pool trials` p99 needs 299 samples a
# trial for an order-statistic interval; before, that one trial made
# the whole cell's p99 "too few samples" (percentiles, and the delta of
# the two paths).  Now the p99 interval is printed, the short trial's
# value entering with its own larger variance; with 3 trials one of
# which is short (fewer than 90 % with the samples), still withheld.

cat > mk.py <<'PY'
import json, os, random
random.seed(2721)
t0 = [1788220800]
def probe(d, path, trial, vals):
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": trial}, open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(vals),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(vals):
        rows.append("%d,%d,%.3f,ok" % (i, t0[0] * 10**9 + i * 200000000, v))
    t0[0] += 600
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for path, m in (("A", 10), ("B", 11)):
    for t in range(1, 64):
        n = 150 if (path, t) == ("A", 17) else 300
        b = random.gauss(0, 0.05)
        probe("c/%s/t%d" % (path, t), path, t,
              [m * random.lognormvariate(b, 0.3) for _ in range(n)])
for t in (1, 2, 3):
    n = 150 if t == 2 else 300
    probe("c/S/t%d" % t, "S", t,
          [10 * random.lognormvariate(0, 0.3) for _ in range(n)])
PY
"$PY" mk.py
"$PS" ingest -q --db c.db c 2>/dev/null
expect_sql c.db "SELECT count(*) FROM runs" 129 "2 paths x 63 trials, and 3"

js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = {x.get('path', x.get('minuend')): x for x in json.load(sys.stdin)}
$1"; }

run "$PS" analyze percentiles --db c.db --metric connect_ms --ci \
    --pool trials --stats p99 --format json
expect_code 0 "percentiles --pool trials --ci --stats p99: exit 0"
ok "js 'a = r[\"A\"]
assert a[\"p99_ci_reason\"] is None, a
assert a[\"p99_lo\"] < a[\"p99\"] < a[\"p99_hi\"], a
assert a[\"p99_ci_covers\"] == \"trials\"'" \
    "A (one trial of 150 among 63): a p99 interval"
ok "js 's = r[\"S\"]
assert s[\"p99_lo\"] is None, s
assert s[\"p99_ci_reason\"].startswith(\"too few samples\"), s'" \
    "S (one trial of 150 among 3): still withheld"

run "$PS" analyze delta --db c.db --metric connect_ms --ci --pool trials \
    --stats p99 A-B --format json
expect_code 0 "delta --pool trials --ci --stats p99 A B: exit 0"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json, sys
x = json.load(sys.stdin)[0]
assert x[\"p99_lo\"] is not None and x[\"p99_lo\"] < x[\"p99\"] < x[\"p99_hi\"], x'" \
    "delta A - B: a p99 interval"

test_done

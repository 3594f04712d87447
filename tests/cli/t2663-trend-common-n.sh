# t2663: days whose probe count changes by 2x or more are compared at a
# common n.  14 days of one path whose probes follow
# the same lognormal every day (median 10 ms, sigma 0.3, a 1 % wander),
# 300 probes a day, then 50 from the 8th: a type 7 p99 of 50 reads about
# 5 % below one of 300, so before this rule --threshold 0 said "step at
# 2026-11-08, -4.6 % (step p = 0.0005)" with no change in the path.  Now
# each day's p99 is its expected value over 50 of its samples: stable.

cat > mk.py <<'PY'
import json, os, math
from statistics import NormalDist
nd = NormalDist()
wander = [0.3, -0.5, 0.1, 0.6, -0.2, -0.4, 0.2, 0.5, -0.3, 0.0, 0.4, -0.6, 0.1, -0.1]
import sys
split = int(sys.argv[1])
for day in range(14):
    n = 300 if day < 7 else split
    d = "m%d/S/d%02d" % (split, day)
    os.makedirs(d, exist_ok=True)
    json.dump({"path": "S", "trial": 1, "day": "2026-11-%02d" % (day + 1)}, open(os.path.join(d, "meta.json"), "w"))
    t0 = 1793491200 + day * 86400
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=2026-11-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    scale = 10 * math.exp(0.01 * wander[day])
    for i in range(n):
        v = scale * math.exp(0.3 * nd.inv_cdf((i + 0.5) / n))
        rows.append("%d,%d,%.5f,ok" % (i, t0 * 1000000000 + i * 200000000, v))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
PY
"$PY" mk.py 50
"$PY" mk.py 200
"$PS" ingest -q --db t.db m50 2>/dev/null
"$PS" ingest -q --db u.db m200 2>/dev/null

run "$PS" analyze trend --db t.db --metric connect_ms --by day --stats p99 --threshold 0
expect_code 0 "trend runs"
expect_out_has "2026-11-08: 18.958" "the table still shows each day's own p99 (50 probes)"
expect_out_has "| stable (Mann" "300 then 50 probes a day, the same path: stable at --threshold 0"
ok '! printf "%s\n" "$OUT" | grep -q "step at"' "and no step where the probe count changed"
expect_out_has "the points hold 50 to 300 samples: each p99 compared at 50 samples" \
    "the verdict says the p99s were compared at a common n"

run "$PS" analyze trend --db t.db --metric connect_ms --by day --stats p99 --threshold 0 --quantile hd
expect_code 0 "trend runs with Harrell-Davis"
ok '! printf "%s\n" "$OUT" | grep -q "compared at"' "the common n is type 7's (another estimator: not applied)"

run "$PS" analyze trend --db u.db --metric connect_ms --by day --stats p99 --threshold 0
expect_code 0 "trend runs on 300 then 200"
ok '! printf "%s\n" "$OUT" | grep -q "compared at"' "counts within 2x: each day's own p99"

test_done

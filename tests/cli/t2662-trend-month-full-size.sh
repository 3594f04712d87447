# t2662: the month design at its full sizes: 30 days of 24 hourly
# runs of 60 probes, pooled per day; S steps +1.5 ms on 2026-11-18 over a
# 12 ms baseline (+12.5 %), D drifts +0.5 %/day from 12 ms, 2 % day
# effects.  bench/verdicts measures this design (docs/research/verdicts.md: the
# step named in 95.5 % of p50 series, the drift in 99.8 %; with the null's
# rho capped at 0.9 instead of 0.7 the step was named in 81.8 %); this is
# one seeded month of it through ingest and analyze trend.

cat > mk.py <<'PY'
import json, math, os, random
random.seed(2662)
def run(path, day, hour, scale):
    d = "m/%s/d%02d/h%02d" % (path, day, hour)
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": hour + 1, "day": "2026-11-%02d" % (day + 1)},
              open(os.path.join(d, "meta.json"), "w"))
    t0 = 1793491200 + day * 86400 + hour * 3600   # 2026-11-01
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=60 interval_s=0.2 timeout_s=0.4 start=2026-11-01T00:00:00Z",
            "seq,unix_ns,connect_ms,result"]
    for i in range(60):
        rows.append("%d,%d,%.5f,ok" % (i, t0 * 1000000000 + i * 200000000,
                                       scale * random.lognormvariate(0, 0.3)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for path, f in (("S", lambda d: 12.0 if d < 17 else 13.5),
                ("D", lambda d: 12.0 * 1.005 ** d)):
    for day in range(30):
        w = math.exp(0.02 * random.gauss(0, 1))
        for hour in range(24):
            run(path, day, hour, f(day) * w)
PY
"$PY" mk.py
"$PS" ingest -q --db t.db m 2>/dev/null

js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }
row() { echo "x=[x for x in r if x[\"path\"]==\"$1\" and x[\"stat\"]==\"$2\"][0]"; }

run "$PS" analyze trend --db t.db --metric connect_ms --by day --format json
expect_code 0 "trend runs over the month"
ok "js '$(row S p50); assert x[\"verdict_kind\"] == \"step\", x; assert x[\"step_at\"] == \"2026-11-18\", x'" \
    "S: the +1.5 ms step is a step on 2026-11-18"
ok "js '$(row S p50); assert \"drifting\" not in x[\"verdict\"], x'" \
    "S: and not also a drift"
ok "js '$(row D p50); assert x[\"verdict_kind\"] == \"drift\", x; assert x[\"verdict\"].startswith(\"drifting up\"), x'" \
    "D: +0.5 %/day is drifting up"
ok "js '$(row D p99); assert x[\"verdict_kind\"] == \"drift\", x'" \
    "D's p99 (1,440 probes a day): drifting too"

run "$PS" analyze trend --db t.db --metric connect_ms --by day --stats p50
expect_code 0 "the text table"
expect_out_has "step at 2026-11-18" "the step's day is printed"

test_done

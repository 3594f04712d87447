# t2661: a step that the step-beyond-the-line test misses but Mann–Kendall
# finds is called a step when two means fit the series better than a line
# ("a step is called a step, not a drift, when a step explains
# the series").  14 days whose p50 rises about 17 % on 2026-11-08 with a
# little day-to-day wander; before this rule: "drifting up, +25.0 %".

cat > mk.py <<'PY'
import json, os
ys = [10.3, 10.19, 9.52, 9.98, 10.12, 10.73, 10.27, 12.05, 11.66, 11.9, 12.21, 12.2, 11.96, 12.29]
for day, v in enumerate(ys):
    d = "m/S/d%02d" % day
    os.makedirs(d, exist_ok=True)
    json.dump({"path": "S", "trial": 1, "day": "2026-11-%02d" % (day + 1)}, open(os.path.join(d, "meta.json"), "w"))
    t0 = 1793491200 + day * 86400
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=61 interval_s=0.2 timeout_s=0.4 start=2026-11-01T00:00:00Z",
            "seq,unix_ns,connect_ms,result"]
    for i in range(61):
        rows.append("%d,%d,%.5f,ok" % (i, t0 * 1000000000 + i * 200000000, v * (1 + 0.001 * (i - 30))))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
PY
"$PY" mk.py
"$PS" ingest -q --db t.db m 2>/dev/null

run "$PS" analyze trend --db t.db --metric connect_ms --by day --stats p50
expect_code 0 "trend runs"
expect_out_has "step at 2026-11-08, +16.9 %" "the rise is a step on its day, with the means' difference"
expect_out_has "two means fit better than a line" "the verdict says why it is a step"
ok '! printf "%s\n" "$OUT" | grep -q "drifting up"' "and not a drift"
expect_out_has "unless two means fit the series better than a line" "the caption states the rule"

run "$PS" analyze trend --db t.db --metric connect_ms --by day --stats p50 --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; x=json.load(sys.stdin)[0]; assert x[\"verdict_kind\"] == \"step\" and x[\"step_at\"] == \"2026-11-08\", x'" \
    "JSON: verdict_kind step at 2026-11-08"

test_done

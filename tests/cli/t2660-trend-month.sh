# t2660: trend verdicts that name what changed and trend on
# correlated and unequal days.  A seeded month-like
# campaign: 5 paths x 20 days x 3 hourly runs of 20 probes.  D steps
# +1.5 ms on 2026-11-11 (before: "drifting ... and stepped"), C drifts
# +0.5 %/day, A alternates instance types weekly (before: "stepped" with
# no word of the instance type), E loses 30 % of its probes on one day
# (before: its p99 printed as the month's lowest number), B is noise.
# Plus 12 noise paths whose day effects follow AR(1) rho = 0.5 (before:
# 10-19 % of such series got a verdict).

cat > mk.py <<'PY'
import json, math, os, random
random.seed(2660)
def probe(d, path, tags, scale, n=20, lost=0.0, hour=0):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(tags, path=path, trial=hour + 1), open(os.path.join(d, "meta.json"), "w"))
    day = int(tags["day"][-2:])
    t0 = 1793491200 + (day - 1) * 86400 + hour * 3600   # 2026-11-01
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=0.4 start=2026-11-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    for i in range(n):
        ns = (t0 * 1000000000) + i * 200000000
        if random.random() < lost:
            rows.append("%d,%d,,timeout" % (i, ns))
        else:
            rows.append("%d,%d,%.5f,ok" % (i, ns, scale * random.lognormvariate(0, 0.1)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
def series(path, days, f, it=lambda d: "c6i.large", lost=lambda d: 0.0, rho=0.0, wob=0.01):
    u = 0.0
    for day in range(days):
        z = random.gauss(0, 1)
        u = z if day == 0 else rho * u + math.sqrt(1 - rho * rho) * z
        w = math.exp(wob * u)
        for h in range(3):
            probe("m/%s/d%02d/h%d" % (path, day, h), path,
                  {"day": "2026-11-%02d" % (day + 1), "instance_type": it(day)},
                  f(day) * w, lost=lost(day), hour=h)
series("A", 20, lambda d: 2.0 if (d // 7) % 2 == 0 else 1.7,
       it=lambda d: "c6i.large" if (d // 7) % 2 == 0 else "c7i.large")
series("B", 20, lambda d: 2.0)
series("C", 20, lambda d: 2.0 * 1.005 ** d)
series("D", 20, lambda d: 2.0 if d < 10 else 3.5)
series("E", 20, lambda d: 2.0, lost=lambda d: 0.3 if d == 13 else 0.0)
for k in range(20):
    series("N%02d" % k, 14, lambda d: 2.0, rho=0.5, wob=0.05)
PY
"$PY" mk.py
"$PS" ingest -q --db t.db m 2>/dev/null

js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }
row() { echo "x=[x for x in r if x[\"path\"]==\"$1\" and x[\"stat\"]==\"$2\"][0]"; }

run "$PS" analyze trend --db t.db --metric connect_ms --by day --where path=A,B,C,D,E --format json
expect_code 0 "trend runs"
ok "js '$(row D p50); assert x[\"verdict\"].startswith(\"step at 2026-11-11\"), x; assert x[\"verdict_kind\"] == \"step\", x; assert x[\"step_at\"] == \"2026-11-11\", x'" \
    "D: a +1.5 ms step is a step at 2026-11-11, not also a drift"
ok "js '$(row D p99); assert x[\"verdict_kind\"] == \"step\" and x[\"step_at\"] == \"2026-11-11\", x'" \
    "D's p99: the same step (before: drifting with no step)"
ok "js '$(row C p50); assert x[\"verdict_kind\"] == \"drift\", x; assert x[\"verdict\"].startswith(\"drifting up\"), x'" \
    "C: +0.5 %/day is a drift"
ok "js '$(row A p50); assert \"instance_type\" in x[\"verdict\"], x; assert \"instance_type\" in x[\"changed_with\"], x'" \
    "A: the change is named with the instance type"
ok "js '$(row B p50); assert x[\"verdict_kind\"] == \"stable\", x'" "B: noise is stable"
# E: 30 % of one day's probes time out: that day's p99 is ≥ timeout
ok "js '$(row E p99); s=x[\"series\"]; assert isinstance(s, list) and len(s) == 20, s; c=[p for p in s if p[\"censored\"]]; assert [p[\"point\"] for p in c] == [\"2026-11-14\"], c; assert c[0][\"value\"] is None and not c[0][\"in_fit\"], c; assert x[\"points\"] == 19 and x[\"censored_points\"] == 1, x'" \
    "E: the lossy day's p99 is marked censored in JSON, with no number, out of the fit"
ok "js '$(row E p50); assert not [p for p in x[\"series\"] if p[\"censored\"]], x'" \
    "E: its p50 (no timeout read) is not censored"
ok "js 'assert all(isinstance(p[\"value\"], float) for x in r for p in x[\"series\"] if not p[\"censored\"])'" \
    "every other point carries its value as a number"

run "$PS" analyze trend --db t.db --metric connect_ms --by day --where path=E --stats p99 --format text
expect_code 0 "trend as text"
expect_out_has "2026-11-14: ≥ timeout" "the censored day reads ≥ timeout, not a number"
expect_out_has "left out of the slopes" "and the note says it is left out of the fit"

run "$PS" analyze trend --db t.db --metric connect_ms --by day --where path=A --stats p50 --format text
expect_out_has "Confounded: the points of a series also differ in instance_type" \
    "trend says the points of A's series differ in instance type"

# trend --by day --by instance_type: day with another split key
run "$PS" analyze trend --db t.db --metric connect_ms --by day --by instance_type --where path=A --stats p50 --format json
expect_code 0 "trend --by day --by instance_type is accepted"
ok "js 'assert sorted(x[\"instance_type\"] for x in r) == [\"c6i.large\", \"c7i.large\"], r; assert all(x[\"verdict_kind\"] in (\"stable\", \"none\") for x in r), r'" \
    "one series per instance type, each stable"
run "$PS" analyze trend --db t.db --metric connect_ms --by instance_type --by day --where path=A --stats p50 --format csv
expect_code 0 "either order: the time key is the day"

# compare: week 1 against week 2 also differ in instance type
run "$PS" analyze compare --db t.db --metric connect_ms --by day --where path=A --where day=2026-11-01,2026-11-08 --stats p50 --format json
expect_code 0 "compare runs"
ok "js 'assert r and all(x[\"also_differ\"] == \"instance_type: c6i.large vs c7i.large\" for x in r), r'" \
    "compare names the other key the days differ in (JSON also_differ)"
run "$PS" analyze compare --db t.db --metric connect_ms --by day --where path=A --where day=2026-11-01,2026-11-08 --stats p50 --format text
expect_out_has "Confounded: the values compared also differ in instance_type" "and its caption"

# correlated days (AR(1) rho 0.5, 5 % day effects, 14 days): noise
# (p50 only: a path's p50 and p99 share its day effects)
run "$PS" analyze trend --db t.db --metric connect_ms --by day --where "path=$(seq -f 'N%02g' 0 19 | paste -sd,)" --stats p50 --format json
expect_code 0 "trend on the correlated paths"
nv=$(printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); print(sum(x['verdict_kind'] not in ('stable','none') for x in r))")
ok "[ \"$nv\" -le 3 ]" "AR(1) day effects: at most 3 of 20 series get a verdict (got $nv; 4 or more has p < 2 % at a 5 % rate)"
ok "js 'assert all(x[\"rho\"] >= 0.3 for x in r), r'" "the null assumes correlated days (rho in JSON)"
test_done

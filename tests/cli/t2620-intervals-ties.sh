# t2620: intervals on our users' designs.  Rate-capped trials
# (most values at the cap) put a pooled percentile on a run of ties:
# compare --by day printed ratio 1.055 [1.053, 1.057] where the trials'
# own p50s (183, 183, 179 against 178, 199, 189) ask for about
# [0.91, 1.18]; the interval now comes from the trials' own values, and
# the caption says so.  No interval reaches values the samples cannot
# make (a delta below min a - max b).  A p99 of 3 runs x 30 intervals
# has none (check few-samples' rule), and one iperf3 run (a time
# series) has no within-run interval.  The numbers behind the rules are
# checked in tests/unit/t-interval.c; coverage in docs/research/coverage.md.

cat > mk.py <<'PY'
import json, os
def probe(d, path, trial, tags, values):
    os.makedirs(d, exist_ok=True)
    json.dump(dict(tags, path=path, trial=trial), open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(values),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(values):
        rows.append("%d,%d,%.3f,ok" % (i, 1788220800000000000 + i * 200000000, v))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
# the tied pattern: 8 values a trial, most at the trial's cap, trial
# p50s 183, 181, 179 against 178, 199, 189; each day's pooled p50 sits
# inside a run of ties wider than the linearization's window
cap = lambda c, low: sorted(low + [c] * (8 - len(low)))
day1 = [cap(183, [150]), cap(181, [152]), cap(179, [140, 160, 183])]
day2 = [cap(178, [120, 150, 160]), cap(199, []), cap(189, [130])]
for t, v in enumerate(day1, 1):
    probe("ties/d1/P/t%d" % t, "P", t, {"day": "2026-09-01"}, v)
for t, v in enumerate(day2, 1):
    probe("ties/d2/P/t%d" % t, "P", t, {"day": "2026-09-02"}, v)
# far-apart trials: a t interval on 3 values reaches beyond the data
for t, m in enumerate([100, 110, 400], 1):
    probe("wide/A/t%d" % t, "A", t, {}, [m - 3, m - 2, m - 1, m, m + 1, m + 2, m + 3])
for t, m in enumerate([300, 310, 355], 1):
    probe("wide/B/t%d" % t, "B", t, {}, [m - 3, m - 2, m - 1, m, m + 1, m + 2, m + 3])
json.dump({"day1": day1, "day2": day2}, open("trials.json", "w"))
PY
"$PY" mk.py
"$PS" ingest -q --db t.db ties wide 2>/dev/null
P="--db t.db --metric connect_ms"

jl() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }

run "$PS" analyze compare $P --where path=P --by day --stats p50 --ci --format json
expect_code 0 "compare --by day runs"
ok "jl 'm=r[0]; assert m[\"ratio_ci_covers\"] == \"trials\", m; assert m[\"ratio_hi\"] - m[\"ratio_lo\"] > 0.1, m'" "tied trials: the ratio interval is not the zero-width [1.053, 1.057] kind"
cat > welch.py <<'PY'
import json, math, sys
r = json.load(sys.stdin)[0]
t = json.load(open("trials.json"))
def p50(v):
    v = sorted(v); return (v[3] + v[4]) / 2
a = [p50(v) for v in t["day2"]]; b = [p50(v) for v in t["day1"]]
ma, mb = sum(a) / 3, sum(b) / 3
va = sum((x - ma) ** 2 for x in a) / 2 / 3 / ma ** 2
vb = sum((x - mb) ** 2 for x in b) / 2 / 3 / mb ** 2
# the log-scale half-width from the trials' own p50s (t of >= 2 df)
half = 4.303 * math.sqrt(va + vb)
got = math.log(r["ratio_hi"] / r["ratio_lo"]) / 2
# the pooled interval was 0.24x this wide, or of width 0
assert got >= 0.5 * half, (got, half)
assert r["ratio_lo"] < r["ratio"] < r["ratio_hi"], r
PY
ok "printf '%s' \"\$OUT\" | \"\$PY\" welch.py" "the ratio interval is as wide as the trials' own p50s ask (Welch, by hand)"
run "$PS" analyze compare $P --where path=P --by day --stats p50 --ci
expect_out_has "from the trials' own values (ties at the pooled percentile" "the caption says the interval comes from the trials"
run "$PS" analyze percentiles $P --where path=P --by day --stats p50 --ci
expect_out_has "interval(s) from the trials' own values around the pooled estimate" "percentiles says which intervals come from the trials"

run "$PS" analyze ratio $P --where path=P --across day 2026-09-02/2026-09-01 --stats p50 --ci
expect_out_has "take the trials' own values for their intervals" "ratio says which cells' intervals come from the trials"

# no interval beyond what the samples can make
run "$PS" analyze delta $P A-B --stats p50 --ci --pool trials --format json
expect_code 0 "delta --ci runs"
ok "jl 'd=r[0]; assert d[\"p50_lo\"] >= 97 - 358 - 1e-9, d; assert d[\"p50_hi\"] <= 403 - 297 + 1e-9, d'" "delta interval within [min A - max B, max A - min B]"
run "$PS" analyze percentiles $P --where path=A --stats p50 --ci --pool trials --format json
ok "jl 'a=r[0]; assert a[\"p50_lo\"] >= 97 and a[\"p50_hi\"] <= 403, a'" "a percentile's interval within its samples' range"

run "$PS" analyze percentiles $P --where path=P --by day --stats p50 --ci --pool trials
expect_out_lacks "plateau of equal values" "trials on caps of their own (183, 181, 179) keep their interval"

# p99 of trials too small for it: withheld, with check few-samples' rule
run "$PS" analyze percentiles $P --where path=P --by day --stats p99 --ci --pool trials
expect_out_has "too few samples for an interval on this percentile (see check few-samples); pathstat plan --width W% says how many a trial" "p99 of 8 samples a trial: no interval, and why"
test_done

# t2709: a trend across the onset of loss is not "stable".
# 14 days of one path, 300 probes a day (lognormal, median
# 10 ms), and from the 8th day 4 of each day's 300 probes time out
# (1.3 % loss): the p99 of all attempts is then "≥ timeout" (the
# timeout is 1 s, 50x the successes' p99).  Those days are marked and
# left out of the fit, and before this test the 7 days left were judged
# alone: "stable (Mann-Kendall p = 0.24, step p = 0.45); 7 points ≥
# timeout left out", verdict_kind stable, which is how the
# review found it.  Now such a series gets no verdict, says where the
# censored points are, and JSON's verdict_kind is "censored"; a step
# found on the other points is still reported, and a series without a
# censored point is judged as before.  And JSON says why a slope has no
# interval (slope_ci_reason, as <stat>_ci_reason elsewhere): before,
# slope_lo/slope_hi were null with no reason below 5 points.

cat > mk.py <<'PY'
import json, os, random
random.seed(2709)
def probe(d, path, day, lost=0, scale=10.0, n=300):
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": 1, "day": "2026-09-%02d" % (day + 1)},
              open(os.path.join(d, "meta.json"), "w"))
    t0 = 1788220800 + day * 86400 + {"L": 0, "S": 3600, "D": 7200}[path]
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=1 start=2026-09-01T00:00:00Z" % n,
            "seq,unix_ns,connect_ms,result"]
    gone = set(random.sample(range(n), lost))
    for i in range(n):
        ns = t0 * 10**9 + i * 200000000
        if i in gone:
            rows.append("%d,%d,,timeout" % (i, ns))
        else:
            rows.append("%d,%d,%.4f,ok" % (i, ns, scale * random.lognormvariate(0, 0.3)))
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for day in range(14):
    # L: 1.3 % loss from the 8th day on
    probe("t/L/d%02d" % day, "L", day, lost=4 if day >= 7 else 0)
    # S: one day of 30 % loss, the rest clean
    probe("t/S/d%02d" % day, "S", day, lost=90 if day == 4 else 0)
    # D: a +60 % step on the 8th day, and one lossy day before it
    probe("t/D/d%02d" % day, "D", day, lost=90 if day == 2 else 0,
          scale=16.0 if day >= 7 else 10.0)
PY
"$PY" mk.py
"$PS" ingest -q --db t.db t 2>/dev/null
T="--db t.db --metric connect_ms --by day"
js() { printf '%s' "$OUT" | "$PY" -c "import json,sys; r=json.load(sys.stdin); $1"; }
row() { echo "x=[x for x in r if x[\"path\"]==\"$1\" and x[\"stat\"]==\"$2\"][0]"; }

run "$PS" analyze trend $T --stats p50,p99 --format json
expect_code 0 "trend runs"
ok "js '$(row L p99); assert x[\"censored_points\"] == 7, x; assert x[\"verdict_kind\"] == \"censored\", x'" \
    "L p99: 7 days ≥ timeout, verdict_kind censored (was stable)"
ok "js '$(row L p99); assert x[\"verdict\"].startswith(\"no verdict: 7 of 14 points ≥ timeout (from 2026-09-08 on)\"), x; assert \"stable\" not in x[\"verdict\"].split(\"alone\")[0], x'" \
    "L p99: no verdict, and it says the loss began on 2026-09-08"
ok "js '$(row L p50); assert x[\"censored_points\"] == 0 and x[\"verdict_kind\"] == \"stable\", x'" \
    "L p50 (no timeout read): judged as before, stable"
ok "js '$(row S p99); assert x[\"verdict_kind\"] == \"censored\", x; assert x[\"verdict\"].startswith(\"no verdict: 1 of 14 points ≥ timeout (on 2026-09-05)\"), x'" \
    "S p99: one lossy day, no verdict, and which day"
ok "js '$(row D p99); assert x[\"verdict_kind\"] == \"step\" and x[\"step_at\"] == \"2026-09-08\", x; assert x[\"verdict\"].endswith(\"; 1 point ≥ timeout left out\"), x'" \
    "D p99: the step on the other points is still found, the lossy day counted"

run "$PS" analyze trend $T --stats p99 --where path=L
expect_code 0 "trend as Markdown"
expect_out_has "| no verdict: 7 of 14 points ≥ timeout (from 2026-09-08 on), beyond the others by a change the fit cannot measure; the 7 others alone: stable" \
    "Markdown: the verdict cell withholds and names the onset"
expect_out_has 'never "stable"' "the caption says a censored series is never called stable"

# why a Sen interval is absent
run "$PS" analyze trend $T --stats p50,p99 --where path=L --where day=2026-09-01,2026-09-02,2026-09-03,2026-09-04 --format json
ok "js '$(row L p50); assert x[\"slope\"] is not None and x[\"slope_lo\"] is None and x[\"slope_ci_reason\"] == \"no Sen interval below the verdicts\x27 minimum of points\", x'" \
    "4 points: a slope, no interval, and slope_ci_reason says why"
run "$PS" analyze trend $T --stats p99 --where path=L --where day=2026-09-08,2026-09-09,2026-09-10 --format json
ok "js '$(row L p99); assert x[\"slope\"] is None and x[\"slope_ci_reason\"] == \"no slope: fewer than 2 points with a value\", x'" \
    "every point ≥ timeout: no slope, and why"
run "$PS" analyze trend $T --stats p50 --where path=L --format json
ok "js '$(row L p50); assert x[\"slope_lo\"] is not None and x[\"slope_ci_reason\"] is None, x'" \
    "14 points: the interval, and no reason"
test_done

# t2715: where analyze withholds an interval and points to a check, the
# check says so; a footnote only under a table that shows its mark
# (the acceptance review).
#
# few-samples: 3 trials x 150 probes.  `--pool trials` withholds the p99
# interval ("too few samples ... (see check few-samples)": each trial's
# p99 needs 299 samples for any 95 % interval), but check few-samples
# judged the pooled 450 and found nothing.  It now judges each run too,
# as the withholding does.  3 x 300 probes: an interval, no finding.
#
# Footnote: `analyze delta --ci --stats p50,p75` printed "† no pooled
# interval beyond p25–p75" under a table with no † in it (the mark was
# on growth, a column Markdown leaves out without p50 and p99).

cat > mk.py <<'PY'
import json, os, random
random.seed(2715)
t0 = [1788220800]
def probe(d, path, trial, vals):
    os.makedirs(d, exist_ok=True)
    json.dump({"path": path, "trial": trial},
              open(os.path.join(d, "meta.json"), "w"))
    rows = ["# pathprobe 1 target=h:5201 addr=10.0.0.2 count=%d interval_s=0.2 timeout_s=2 start=2026-09-01T00:00:00Z" % len(vals),
            "seq,unix_ns,connect_ms,result"]
    for i, v in enumerate(vals):
        rows.append("%d,%d,%.3f,ok" % (i, t0[0] * 10**9 + i * 200000000, v))
    t0[0] += 600
    open(os.path.join(d, "probe.csv"), "w").write("\n".join(rows) + "\n")
for path, n, m in (("SMALL", 150, 10), ("BIG", 300, 12)):
    for t in (1, 2, 3):
        probe("a/%s/t%d" % (path, t), path, t,
              [m * random.lognormvariate(0, 0.3) for _ in range(n)])
PY
"$PY" mk.py
"$PS" ingest -q --db a.db a 2>/dev/null
expect_sql a.db "SELECT count(*) FROM runs" 6 "2 paths x 3 trials"

FEW="too few samples for an interval on this percentile (see check few-samples); pathstat plan --width W% says how many a trial"
js() { printf '%s' "$OUT" | "$PY" -c "import json, sys
r = json.load(sys.stdin)
$1"; }

run "$PS" analyze percentiles --db a.db --metric connect_ms --pool trials \
    --ci --stats p50,p99 --format json
expect_code 0 "percentiles --pool trials --ci: exit 0"
ok "js 'x = {y[\"path\"]: y for y in r}
assert x[\"SMALL\"][\"p99_lo\"] is None and x[\"SMALL\"][\"p99_ci_reason\"] == \"$FEW\", x
assert x[\"BIG\"][\"p99_lo\"] is not None, x'" \
    "3 x 150: the p99 interval withheld, pointing to check few-samples; 3 x 300: printed"

run "$PS" check --db a.db --only few-samples --format json
expect_code 3 "check few-samples: a finding"
ok "js 'f = [x for x in r if x[\"check\"] == \"few-samples\"]
assert [x[\"path\"] for x in f] == [\"SMALL\"], f'" \
    "check few-samples: SMALL (3 x 150) only, not BIG (3 x 300)"
run "$PS" check --db a.db --only few-samples
expect_out_has "p99 needs ≥ 299 successful probes in each run for the interval of analyze --pool trials" \
    "check: the evidence says what the trial-level interval needs"
expect_out_has "the smallest run here has 150; the pooled percentile" \
    "check: it names the smallest run"
expect_out_has "this cell has 450 successful probes in 3 runs" \
    "check: and the pooled count"
expect_out_has "collect ≥ 299 probes in every run" "check: the action"

run "$PS" analyze delta --db a.db --metric connect_ms --ci --stats p50,p75 \
    SMALL-BIG
expect_code 0 "delta --ci --stats p50,p75: exit 0"
expect_out_lacks "†" "delta p50,p75: no mark, and no footnote without one"
run "$PS" analyze delta --db a.db --metric connect_ms --ci --stats p50,p75 \
    SMALL-BIG --format json
ok "js 'assert r[0][\"growth_ci_reason\"].startswith(\"no pooled interval beyond\"), r'" \
    "delta JSON: growth_ci_reason still says why"
run "$PS" analyze delta --db a.db --metric connect_ms --ci --stats p50,p99 \
    SMALL-BIG
expect_out_has "_† no pooled interval beyond p25–p75: use --pool trials._" \
    "delta p50,p99: the marked cells keep their footnote"
test_done

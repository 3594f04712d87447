# t2100: the second article's own published numbers, fed in as oha JSON
# summaries (no raw requests), reproduce the figures it printed from
# them: B-A ≈ 0.012 ms, H-B growth ≈ 1.4, G-G' growth ≈ 1.3, D's
# concurrency ratio ≈ 3.5, G's keep-alive ratio ≈ 4.0.  Summary-only runs
# are per trial (by default, or --pool trials), as the tool's own
# numbers; --pool pooled has nothing to pool and says so.

cat > mk.py <<'PY'
import json, os
# keep-alive on, c=1, 1 KB, p50 from §6 / §9; p99 chosen so that the
# deltas the article prints hold (B-A 0.006, H-B 1.78, H-G 1.26, G-G' 0.139)
p = {
    ("A", "ka-on_c1_1k"): (0.065, 0.080),
    ("B", "ka-on_c1_1k"): (0.077, 0.086),
    ("F", "ka-on_c1_1k"): (0.257, 0.300),
    ("D", "ka-on_c1_1k"): (0.463, 0.560),
    ("G", "ka-on_c1_1k"): (0.509, 0.606),
    ("Gp", "ka-on_c1_1k"): (0.401, 0.467),
    ("H", "ka-on_c1_1k"): (1.330, 1.866),
    ("D", "ka-on_c16_1k"): (0.463 * 3.5, 0.560 * 3.5),
    ("G", "ka-off_c1_1k"): (2.021, 2.400),
}
for (path, cond), (p50, p99) in p.items():
    for trial in (1, 2, 3):
        d = "tree/%s/%s/trial%d" % (path, cond, trial)
        os.makedirs(d)
        json.dump({"path": path.replace("p", "'"), "trial": trial, "condition": cond},
                  open(d + "/meta.json", "w"))
        doc = {"summary": {"successRate": 1.0, "total": 1.0 + trial / 1000.0, "slowest": p99 / 1000,
                           "fastest": p50 / 2000, "average": p50 / 1000,
                           "requestsPerSec": 10000.0, "totalData": 10240000,
                           "sizePerRequest": 1024, "sizePerSec": 1.0e7},
               "responseTimeHistogram": {},
               "latencyPercentiles": {"p10": p50 / 1000, "p25": p50 / 1000, "p50": p50 / 1000,
                                      "p75": p50 / 1000, "p90": p99 / 1000, "p95": p99 / 1000,
                                      "p99": p99 / 1000, "p99.9": p99 / 1000, "p99.99": p99 / 1000},
               "rps": {"mean": 1.0, "stddev": 0.0, "max": 1.0, "min": 1.0, "percentiles": {}},
               "details": {}, "statusCodeDistribution": {"200": 10000}, "errorDistribution": {}}
        open(d + "/oha.json", "w").write(json.dumps(doc, indent=2))
PY
"$PY" mk.py
run "$PS" ingest --db a.db tree
expect_code 0 "article summaries ingested"

run "$PS" analyze percentiles --db a.db --metric http_ms --pool pooled --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert r and all(x[\"p50\"] is None for x in r)'" "--pool pooled: summary-only runs give no pooled number"
run "$PS" analyze percentiles --db a.db --metric http_ms --pool pooled
expect_out_has "summary only: use --pool trials" "pooled Markdown says why the cell is empty"
run "$PS" analyze percentiles --db a.db --metric http_ms --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert r and all(x[\"pool\"] == \"trials\" and x[\"estimator\"] == \"tool\" and x[\"p50\"] is not None for x in r)'" "default: the trials' mean of the tool's own numbers"

num() { # json field of the first row matching pair or path
	printf '%s' "$OUT" | "$PY" -c "import json,sys; r=[x for x in json.load(sys.stdin) if x.get('$1') == sys.argv[1] and ('$3' == '' or x.get('condition') == '$3')]; print('%.6f' % r[0]['$2'])" "$4"
}
near() { "$PY" -c "import sys; sys.exit(0 if abs(float('$1') - float('$2')) <= float('$3') else 1)"; }

run "$PS" analyze delta --db a.db --metric http_ms --pool trials --stats p50,p99 --where ka=on --where c=1 "B-A" "H-B" "G-G'" --format json
d=$(num pair p50 "" "B-A"); ok "near $d 0.012 0.0005" "B-A at p50 ≈ 0.012 ms (got $d)"
g=$(num pair growth "" "H-B"); ok "near $g 1.4 0.05" "H-B growth Δp99/Δp50 ≈ 1.4 (got $g)"
d=$(num pair p50 "" "H-B"); ok "near $d 1.25 0.005" "H-B at p50 ≈ 1.25 ms (got $d)"
g=$(num pair growth "" "G-G'"); ok "near $g 1.3 0.05" "G-G' growth ≈ 1.3 (got $g)"
d=$(num pair p50 "" "G-G'"); ok "near $d 0.108 0.0005" "G-G' at p50 ≈ 0.108 ms (got $d)"

run "$PS" analyze ratio --db a.db --metric http_ms --pool trials --stats p50 --across c 16/1 --format json
r=$(num path p50 "" D); ok "near $r 3.5 0.01" "D concurrency ratio c=16/c=1 ≈ 3.5 (got $r)"
run "$PS" analyze ratio --db a.db --metric http_ms --pool trials --stats p50 --across ka off/on --format json
r=$(num path p50 "" G); ok "near $r 4.0 0.05" "G keep-alive off/on ≈ 4.0 (got $r)"
run "$PS" analyze ratio --db a.db --metric http_ms --pool trials --stats p50 --across ka off/on
expect_out_has "tool summary" "the table says the numbers are the tool's own"
test_done

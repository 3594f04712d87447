# t2810: `analyze trials` and `analyze trend` with --format csv print the
# long ("tidy") form: one row per path,
# condition, statistic and trial (trials) or point (trend), the value at
# full precision in the stored unit (bit/s) with a unit column, start
# times in ISO 8601 with Z.  The values are checked against numpy
# (type 7 = numpy's default percentile) on the samples the database
# holds; the fixture is tests/fixtures/units/gen_units.py's.

"$PY" "$FIX/units/gen_units.py" tree
"$PS" ingest -q --db t.db tree 2>/dev/null

run "$PS" analyze trials --db t.db --metric throughput_bps --format csv
expect_code 0 "trials --format csv"
printf '%s\n' "$OUT" > trials.csv
ok "[ \"\$(head -1 trials.csv)\" = 'path,condition,metric,unit,estimator,pool,stat,trial,run_id,started_at,value,outlier' ]" \
    "trials' long form has the documented columns"
ok "[ \$(wc -l < trials.csv) = 25 ]" "one row per path, stat and trial (2 x 2 x 6)"
expect_out_has 'S,"P=4,proto=tcp",throughput_bps,bit/s,type7,pooled,p50,1,1,2026-09-10T03:00:00Z,' \
    "a row: keys, unit bit/s, trial, run, ISO 8601 start time"

run "$PS" analyze trend --db t.db --metric throughput_bps --format csv
expect_code 0 "trend --format csv"
printf '%s\n' "$OUT" > trend.csv
ok "[ \"\$(head -1 trend.csv)\" = 'path,condition,metric,unit,estimator,pool,by,point,stat,value,n,trials,censored' ]" \
    "trend's long form has the documented columns"
ok "[ \$(wc -l < trend.csv) = 9 ]" "one row per path, day and stat (2 x 2 x 2)"
expect_out_has 'T,"P=4,proto=tcp",throughput_bps,bit/s,type7,pooled,day,2026-09-11,p5,' \
    "a trend point row (throughput: p50 and p5, its slow side, by default)"

# Markdown and JSON stay wide
run "$PS" analyze trials --db t.db --metric throughput_bps --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r = json.load(sys.stdin); assert len(r) == 4 and \"values\" in r[0]'" \
    "trials' JSON is still one row per statistic"

# --where and an empty result
run "$PS" analyze trials --db t.db --metric throughput_bps --where path=S --stats p50 --format csv
ok "[ \$(printf '%s\n' \"\$OUT\" | wc -l) = 7 ]" "--where and --stats narrow the long form"

if have_prereq NUMPY; then
	sqlite3 -batch -separator , t.db "SELECT r.id, s.value FROM samples s
	    JOIN runs r ON r.id = s.run_id WHERE s.metric = 3 AND s.status = 0" > samples.csv
	cat > oracle.py <<'PY'
import csv, collections, sys
import numpy as np
vals = collections.defaultdict(list)
for rid, v in csv.reader(open("samples.csv")):
    vals[int(rid)].append(float(v))
bad = []
for r in csv.DictReader(open("trials.csv")):
    q = {"p50": 50, "p5": 5, "p99": 99}[r["stat"]]
    want = np.percentile(vals[int(r["run_id"])], q)
    got = float(r["value"])
    if abs(got - want) > 1e-9 * abs(want):
        bad.append((r["run_id"], r["stat"], got, want))
# trend: pooled per path and day; a run's day is its start date
runs = {}
for r in csv.DictReader(open("trials.csv")):
    day = r["started_at"][:10]
    runs.setdefault((r["path"], day), set()).add(int(r["run_id"]))
for r in csv.DictReader(open("trend.csv")):
    pool = [v for rid in runs[(r["path"], r["point"])] for v in vals[rid]]
    q = {"p50": 50, "p5": 5, "p99": 99}[r["stat"]]
    want = np.percentile(pool, q)
    if abs(float(r["value"]) - want) > 1e-9 * abs(want) or int(r["n"]) != len(pool):
        bad.append(("trend", r["path"], r["point"], r["stat"], r["value"], want))
if bad:
    print(bad[:5])
    sys.exit(1)
PY
	run "$PY" oracle.py
	expect_code 0 "every long-form value equals numpy's percentile of the stored samples ($OUT)"
else
	echo "# SKIP numpy oracle: numpy is not installed"
fi

test_done

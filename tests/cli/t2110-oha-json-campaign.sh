# t2110: the second article as practised: a campaign of oha JSON
# summaries only (no per-request files): paths x conditions x 3 trials,
# two days, two instance types (day 1 the busiest, on one instance type;
# day 2 on both).  The defaults must give its tables: every default
# percentile cell is the mean of the trials' own oha percentiles (numpy
# is the oracle, reading the files themselves), the estimator is named
# in the row and caption, and `report` with no spec exits 0 with no
# missing section and finds the instance-type comparison on day 2.
# Also a plain three-file tree (one file per tool): its default report
# exits 0.

export SOURCE_DATE_EPOCH=1788000000
cat > mk.py <<'PY'
import json, os, sys
tpl = json.load(open(sys.argv[1]))
# c7g.2xlarge's factor and the tree's folder (a second campaign below)
slow = float(sys.argv[2]) if len(sys.argv) > 2 else 1.1
top = sys.argv[3] if len(sys.argv) > 3 else "tree"
conds = ["ka-on_c1_1m", "ka-on_c16_1m", "ka-off_c1_1m", "ka-off_c16_1m"]
runs = []
for path in ["A", "B", "G"]:
    for cond in conds:
        runs.append(("2026-08-28", "m7g.large", path, cond))
for itype in ["m7g.large", "c7g.2xlarge"]:
    for path in ["A", "B"]:
        for cond in conds[:2]:
            runs.append(("2026-08-29", itype, path, cond))
k = 0
for day, itype, path, cond in runs:
    for trial in (1, 2, 3):
        k += 1
        f = (1 + "ABG".index(path) * 0.5) * (1 + conds.index(cond) * 0.25) \
            * (1 + 0.03 * trial + 0.011 * (k % 7)) \
            * (slow if itype.startswith("c7g") else 1.0) \
            * (1.02 if day.endswith("29") else 1.0)
        doc = json.loads(json.dumps(tpl))
        for key in doc["latencyPercentiles"]:
            doc["latencyPercentiles"][key] *= f
        for key in ("slowest", "fastest", "average"):
            doc["summary"][key] *= f
        d = "%s/%s/%s/%s/%s/trial%d" % (top, day, itype, path, cond, trial)
        os.makedirs(d)
        json.dump({"path": path, "trial": trial, "condition": cond,
                   "day": day, "instance_type": itype},
                  open(d + "/meta.json", "w"))
        open(d + "/oha.json", "w").write(json.dumps(doc, indent=2))
PY
"$PY" mk.py "$FIX/reference/oha/synthetic-v1.15.0-normal.json"
run "$PS" ingest --quiet --db a.db tree
expect_code 0 "a JSON-only campaign ingested"

# the oracle: numpy's mean of each cell's trials' own percentiles (ms),
# max = oha's slowest, read from the files, not the database
cat > oracle.py <<'PY'
import glob, json, os, sys
import numpy as np
rows = json.load(open(sys.argv[1]))
tok = {"ka-on": "ka=on", "ka-off": "ka=off", "c1": "c=1", "c16": "c=16",
       "1m": "size=1m"}
cells = {}
for meta in glob.glob("tree/**/meta.json", recursive=True):
    m = json.load(open(meta))
    d = json.load(open(os.path.join(os.path.dirname(meta), "oha.json")))
    cond = ",".join(sorted(tok[t] for t in m["condition"].split("_")))
    v = dict((p, d["latencyPercentiles"][p] * 1000) for p in ("p50", "p95", "p99"))
    v["max"] = d["summary"]["slowest"] * 1000
    cells.setdefault((m["path"], cond), []).append(v)
bad = []
if len(rows) != len(cells):
    bad.append("%d rows, %d cells" % (len(rows), len(cells)))
for r in rows:
    want = cells.get((r["path"], r["condition"]))
    if not want:
        bad.append("no cell %s %s" % (r["path"], r["condition"]))
        continue
    if r["trials"] != len(want):
        bad.append("%s %s: %s trials, want %d" % (r["path"], r["condition"], r["trials"], len(want)))
    for s in ("p50", "p95", "p99", "max"):
        w = float(np.mean([t[s] for t in want]))
        if not isinstance(r.get(s), (int, float)) or abs(r[s] - w) > 1e-9 * abs(w):
            bad.append("%s %s %s: %r, want %r" % (r["path"], r["condition"], s, r.get(s), w))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
run "$PS" analyze percentiles --db a.db --metric http_ms --format json
expect_code 0 "default percentiles of summary-only runs"
printf '%s' "$OUT" > pct.json
if have_prereq NUMPY; then
	run "$PY" oracle.py pct.json
	ok '[ $RC = 0 ]' "every default cell is numpy's mean of the trials' oha percentiles ($OUT)"
fi
ok "\"\$PY\" -c 'import json,sys; r=json.load(open(\"pct.json\")); sys.exit(0 if r and all(x[\"estimator\"] == \"tool\" and x[\"pool\"] == \"trials\" for x in r) else 1)'" \
	"JSON rows name the tool's estimator and the per-trial pool"

# the interval rule of trial means: a t interval on the trials' values
# (log scale for a percentile: m·exp(∓t·se/m), se = sd/√T), scipy's t
cat > ci.py <<'PY'
import glob, json, os, sys
import numpy as np
from scipy import stats
rows = json.load(open(sys.argv[1]))
tok = {"ka-on": "ka=on", "ka-off": "ka=off", "c1": "c=1", "c16": "c=16",
       "1m": "size=1m"}
vals = {}
for meta in glob.glob("tree/**/meta.json", recursive=True):
    m = json.load(open(meta))
    if m["path"] != "G":
        continue
    d = json.load(open(os.path.join(os.path.dirname(meta), "oha.json")))
    cond = ",".join(sorted(tok[t] for t in m["condition"].split("_")))
    vals.setdefault(cond, []).append(d["latencyPercentiles"]["p50"] * 1000)
bad = []
for r in rows:
    u = vals[r["condition"]]
    T, mu = len(u), float(np.mean(u))
    se = float(np.std(u, ddof=1)) / np.sqrt(T)
    t = stats.t.ppf(0.975, T - 1)
    lo, hi = mu * np.exp(-t * se / mu), mu * np.exp(t * se / mu)
    if abs(r["p50_lo"] - lo) > 1e-9 * lo or abs(r["p50_hi"] - hi) > 1e-9 * hi:
        bad.append("%s: [%r, %r], want [%r, %r]" % (r["condition"], r["p50_lo"], r["p50_hi"], lo, hi))
print("\n".join(bad))
sys.exit(1 if bad or len(rows) != 4 else 0)
PY
run "$PS" analyze percentiles --db a.db --metric http_ms --ci --stats p50 --where path=G --format json
printf '%s' "$OUT" > ci.json
if have_prereq NUMPY && have_prereq SCIPY; then
	run "$PY" ci.py ci.json
	ok '[ $RC = 0 ]' "the interval of a trial mean of oha's own p50 is scipy's t interval ($OUT)"
fi

run "$PS" analyze percentiles --db a.db --metric http_ms --format md
expect_out_lacks "summary only" "no CLI hint in the cells"
expect_out_has "| oha, mean of 3 trials |" "a row names its estimator: oha's own, mean of 3 trials"
expect_out_has "| oha, mean of 9 trials |" "and a cell of 9 trials says 9"
expect_out_has "oha's own percentiles" "the caption names the estimator"

# the --pool trials caption agrees with the JSON (no type7 for oha's numbers)
run "$PS" analyze trials --db a.db --metric http_ms --stats p50
expect_code 0 "trials of summary-only runs"
expect_out_lacks "type7" "the trials caption does not say type7 for oha's own numbers"
run "$PS" analyze compare --db a.db --metric http_ms --by instance_type --baseline m7g.large --where day=2026-08-29 --stats p50 --format json
expect_code 0 "compare instance types on day 2"
ok "\"\$PY\" -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if r and all(x[\"estimator\"] == \"tool\" for x in r) else 1)' \"\$OUT\"" \
	"compare JSON names the tool's estimator for rows of oha's own numbers"

for verb in "delta B-A" "ratio --across c 16/1" "relative" "trend --by day"; do
	# shellcheck disable=SC2086
	run "$PS" analyze $verb --db a.db --metric http_ms --format md
	expect_code 0 "analyze $verb on summary-only runs"
	expect_out_lacks "summary only" "analyze $verb: no CLI hint in the cells"
done

# the small items
run "$PS" runs --db a.db --format md
expect_out_has "| 20 (oha's count; summary only) |" "runs shows oha's request count for a JSON-only run, not Samples 0"
run "$PS" analyze delta B-A --db a.db --metric http_ms --stats p50 --format md
ok '! printf "%s" "$OUT" | head -1 | grep -q growth' "delta --stats p50 prints no growth column"
run "$PS" analyze delta B-A --db a.db --metric http_ms --stats p50 --format json
expect_out_has '"growth"' "its JSON keeps the growth key (the contract)"
run "$PS" analyze delta "G−G′" --db a.db --metric http_ms
expect_code 2 "a pair with a Unicode minus is a usage error"
expect_err_has "Unicode minus" "with a hint to type ASCII"
ok '[ "$(printf "%s\n" "$ERR" | wc -l)" -le 2 ]' "a usage error prints the wrong line and a pointer to --help, not the usage block"
expect_err_has "see 'pathstat analyze --help'" "the pointer to --help"
for cmd in ingest runs keys check report; do
	run "$PS" $cmd --db a.db --bogus
	expect_code 2 "$cmd --bogus is a usage error"
	ok '[ "$(printf "%s\n" "$ERR" | wc -l)" -le 2 ] && printf "%s" "$ERR" | grep -q "see .pathstat $cmd --help."' \
		"$cmd: the wrong line and a pointer to --help, no usage block"
done
run "$PS" analyze percentiles --db a.db --metric http_ms --stats p999
expect_code 2 "--stats p999 is a usage error"
expect_err_has "did you mean p99.9?" "that suggests p99.9"

run "$PS" analyze compare --db a.db --metric http_ms --by day --stats p50 --where instance_type=m7g.large
expect_code 0 "compare --by day without --baseline"
expect_out_has "against the baseline (2026-08-28: no --baseline, so the first value in order, one for the whole table)" "one baseline for the table, the earliest, and it says so"
run "$PS" analyze compare --db a.db --metric http_ms --by day --pool pooled --stats p50 --where instance_type=m7g.large
expect_out_lacks "nan" "compare of cells without a value prints no nan"
expect_out_has "| – | – | not compared: a side has no value |" "and no p beside a value of –"
cat > bad.json <<'EOF'
{"title": "two mistakes", "sections": [
  {"type": "percentiles", "metric": "http_mss"},
  {"type": "delta", "metric": "http_ms", "pairs": [{"minuend": "B", "subtrahend": "A"}], "stats": "p999"}
]}
EOF
run "$PS" report --db a.db --spec bad.json --out bad --no-render
ok '[ $RC != 0 ]' "a spec with two mistakes fails"
expect_err_has "sections[0].metric: unknown metric 'http_mss'" "it names the first mistake"
expect_err_has "sections[1].stats: bad value 'p999'" "and the second"

# rps where oha left per-request files only: successful requests over the
# span from the first start to the last end (start + duration), derived
mkdir -p csvonly/A
printf '{"path": "A", "trial": 1, "condition": "ka-on_c1_1k"}\n' > csvonly/A/meta.json
cp "$FIX/oha/small.csv" csvonly/A/oha.csv
run "$PS" ingest --quiet --db c.db csvonly
expect_code 0 "a per-request CSV without oha's JSON ingested"
run "$PS" analyze percentiles --db c.db --metric rps --stats p50 --format json
# (starts are stored to the microsecond, as t_us)
want=$("$PY" -c 'import csv; r = list(csv.DictReader(open("csvonly/A/oha.csv"))); s = [round(float(x["request-start"]) * 1e6) / 1e6 for x in r]; e = [a + float(x["request-duration"]) for a, x in zip(s, r)]; print(repr(len(r) / (max(e) - min(s))))')
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); sys.exit(0 if len(r) == 1 and abs(r[0][\"p50\"] - $want) <= 1e-9 * $want else 1)'" \
	"rps derived from the requests' span ($want req/s)"
run "$PS" analyze percentiles --db c.db --metric rps --stats p50 --format md
expect_out_has "1 run without the tool's own value: derived from the per-request samples" "and named as derived"

# the report with no spec (charts planned but not rendered: a chart it
# cannot make fails the section before gnuplot runs, and rendering costs
# seconds)
render=--no-render
run "$PS" report --db a.db --out rep $render
expect_code 0 "report with no spec on a JSON-only tree exits 0 ($(printf '%s' "$ERR" | tail -3))"
expect_err_lacks "could not be made" "no section is missing"
ok '! grep -q "Missing:" rep/index.md' "index.md marks no missing section"
ok '! grep "^|" rep/index.md | grep -q "use --pool"' "no CLI hint in the report's cells"
ok '! grep -qiw "nan" rep/index.md' "the report prints no nan"
ok '! grep -q "^### Distribution (ECDF)" rep/index.md' "no ECDF planned without samples"
ok '[ "$(grep -c "there is no distribution (ECDF) to draw" rep/index.md)" = 1 ]' "and it says why once (for the one metric of samples)"
ok 'grep -q "^## .*Instance types against\|^### Instance types against" rep/index.md' "an instance-type comparison section"
ok '! grep -q "nothing to compare" rep/index.md' "it finds the instance-type comparison on day 2"
ok 'grep -q "c7g.2xlarge" rep/index.md' "the comparison names c7g.2xlarge"

# footnotes scoped to their table: with c7g.2xlarge twice as slow,
# check pooled-groups tells the cells that pool both instance types to
# "split the cell with --by instance_type"; the table that compares
# instance types is split so already and carries no such footnote
"$PY" mk.py "$FIX/reference/oha/synthetic-v1.15.0-normal.json" 2.0 tree2
run "$PS" ingest --quiet --db f.db tree2
run "$PS" check --db f.db --only pooled-groups
expect_out_has "split the cell with --by instance" "check finds the pooled instance types"
run "$PS" report --db f.db --out rep2 --no-render
expect_code 0 "the report of that campaign exits 0"
ok '! grep -q "pooled-groups" rep2/index.md' "no 'split with --by instance_type' footnote in the table split by instance type"

# a plain three-file tree: one file of each tool in one run folder
mkdir -p plain/A
printf '{"path": "A"}\n' > plain/A/meta.json
cp "$FIX/pathprobe/all-ok.csv" plain/A/probe.csv
cp "$FIX/reference/oha/synthetic-v1.15.0-normal.json" plain/A/oha.json
cp "$FIX/reference/iperf3/3.12/tcp_P1.json" plain/A/iperf3.json
run "$PS" ingest --quiet --db p.db plain
expect_code 0 "a plain three-file tree ingested ($ERR)"
run "$PS" report --db p.db --out prep $render
expect_code 0 "its default report exits 0 ($(printf '%s' "$ERR" | tail -3))"
expect_err_lacks "could not be made" "no section missing there"
test_done

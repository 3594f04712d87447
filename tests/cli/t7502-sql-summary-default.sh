# t7502: oha runs with only a JSON summary (no per-request files) under
# analyze's default pool: a cell whose trials are all summaries is shown
# per trial (the mean of the trials' own oha percentiles, estimator
# tool, pool trials), the others pooled; a mixed cell pools its raw
# trials.  The query `analyze ... --sql duckdb` prints without --pool
# follows that rule and gives analyze's table (--format csv) on DuckDB
# over the export: a JSON-only campaign (t2110's generator: paths x
# conditions x 3 trials, two days, two instance types) and the sample
# tree with a JSON-only fourth trial of G and a path Z with nothing else
# (t7500's).  It says nothing on stderr.  (trials over days: one day,
# as runs without a start time that share a trial number may come in
# another order; docs/export.md.)  tests/cli/helper/sql-check.py
# does the comparing.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

cat > mk.py <<'PY'
import json, os, sys
tpl = json.load(open(sys.argv[1]))
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
            * (1.1 if itype.startswith("c7g") else 1.0) \
            * (1.02 if day.endswith("29") else 1.0)
        doc = json.loads(json.dumps(tpl))
        for key in doc["latencyPercentiles"]:
            doc["latencyPercentiles"][key] *= f
        for key in ("slowest", "fastest", "average"):
            doc["summary"][key] *= f
        d = "tree/%s/%s/%s/%s/trial%d" % (day, itype, path, cond, trial)
        os.makedirs(d)
        json.dump({"path": path, "trial": trial, "condition": cond,
                   "day": day, "instance_type": itype},
                  open(d + "/meta.json", "w"))
        open(d + "/oha.json", "w").write(json.dumps(doc, indent=2))
PY
"$PY" mk.py "$FIX/reference/oha/synthetic-v1.15.0-normal.json"
"$PS" ingest -q --db a.db tree 2>/dev/null
"$PS" export -q --db a.db --out ax 2>/dev/null
"$PS" export --db a.db --ddl duckdb --out ax > a.sql
ok "\"$PS\" analyze percentiles --db a.db --metric http_ms --format csv | \
    grep -q '^A,\"c=1,ka=on,size=1m\",http_ms,tool,trials,0,9,0,'" \
    "the campaign's default cells are per trial"

cp -r "$TOP/samples/tree" st
src=st/ecs-conn/2026-08-30/trial2/G_ka-off_c1_1k
d4=st/ecs-conn/2026-08-31/trial4/G_ka-off_c1_1k
dz=st/ecs-conn/2026-08-31/trial1/Z_ka-off_c1_1k
mkdir -p "$d4" "$dz"
{ cat "$src/G_ka-off_c1_1k.json"; echo; } > "$d4/G_ka-off_c1_1k.json"
{ cat "$src/G_ka-off_c1_1k.json"; echo; echo; } > "$dz/Z.json"
echo '{"path": "G", "trial": 4, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$d4/meta.json"
echo '{"path": "Z", "trial": 1, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$dz/meta.json"
"$PS" ingest -q --db s.db st 2>/dev/null
"$PS" export -q --db s.db --out sx 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out sx > s.sql

run "$PS" analyze percentiles --db a.db --metric http_ms --sql duckdb
expect_code 0 "--sql without --pool over summary-only runs: exit 0"
expect_err_lacks "pools every cell" "... and no note that it pools them"

check() { # DB VIEWS: the cases on stdin
	"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" "$1" "$2" \
	    "$DUCKDB_DIR/query.mjs" > check.out 2>&1
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) _report 0 "$1: --sql duckdb = analyze: ${line#ok - }" ;;
		"not ok - "*) _report 1 "$1: --sql duckdb = analyze: ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done < check.out
}
check a.db a.sql <<'CASES'
percentiles --metric http_ms
percentiles --metric http_ms --stats p10,p50,p99.9,min,max,mean,n --by day,instance_type
percentiles --metric http_ms --quantile oha --where path=A,B
delta --metric http_ms B-A
delta --metric http_ms G-A --by day
ratio --metric http_ms --across c 16/1
trials --metric http_ms --stats p50,p99,n --where day=2026-08-28
CASES
check s.db s.sql <<'CASES'
percentiles --metric http_ms
percentiles --metric http_ms --where path=G,Z --stats p50,p99,p99.9,min,max,mean,n
delta --metric http_ms G-Z Z-G A-C
trials --metric http_ms --where path=G,Z --stats p50,p99.9,mean,max,n
CASES
test_done

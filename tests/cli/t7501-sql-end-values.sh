# t7501: the query `pathstat analyze ... --sql duckdb` prints for an
# end-of-test metric (rps, jitter_ms, loss_pct, http_bps: one value per
# run from the tool's summary, common/metric.c) gives analyze's own
# table (--format csv) on DuckDB over an export of the sample tree:
# percentiles pooled and per trial, delta, ratio and trials; --where,
# --by and --paths; and oha runs with only per-request samples (no JSON
# summary), whose rps is derived from them as analyze derives it.
# tests/cli/helper/sql-check.py does the comparing.  Then the Athena,
# Trino and Spark text against golden files (tests/cli/expect/
# t7501-*.sql; regenerate with the commands below after a deliberate
# change), which keep to the spellings the sample queries use.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

cp -r "$TOP/samples/tree" tree
# oha's SQLite requests alone (no JSON): rps derived from the requests
# (one request fewer, so not the same content as the run it copies)
src=tree/ecs-conn/2026-08-30/trial2/G_ka-off_c1_1k
d4=tree/ecs-conn/2026-08-31/trial4/G_ka-off_c1_1k
mkdir -p "$d4"
cp "$src/G_ka-off_c1_1k.db" "$d4/"
"$PY" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("DELETE FROM oha WHERE rowid = (SELECT max(rowid) FROM oha)")
c.commit()
c.execute("VACUUM")' "$d4/G_ka-off_c1_1k.db"
echo '{"path": "G", "trial": 4, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$d4/meta.json"
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql
ok "\"$PS\" analyze percentiles --db s.db --metric rps --where path=G \
    --format csv | grep -q '^G,\"c=1,ka=off,size=1k\",rps,type7,pooled,runs,4,4,'" \
    "the tree has a run whose rps is derived from its requests"

cat > cases <<'CASES'
percentiles --metric rps
percentiles --metric rps --pool trials
percentiles --metric rps --stats p10,p50,p99.99,max,min,mean,n --by day
percentiles --metric rps --where path=G,H --quantile oha
percentiles --metric http_bps
percentiles --metric http_bps --where c=16 --paths H,B,G --pool trials
percentiles --metric jitter_ms
percentiles --metric jitter_ms --by instance_type --pool trials
percentiles --metric loss_pct --stats p50,mean,max,n
percentiles --metric loss_pct --by day
delta --metric rps "G-G'" H-B
delta --metric http_bps "G-G'" --pool trials
delta --metric jitter_ms A-B
ratio --metric rps --across c 16/1
ratio --metric http_bps --across ka off/on --pool trials
trials --metric rps
trials --metric loss_pct --stats p50,mean,n
trials --metric http_bps --where path=G
CASES
"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" s.db views.sql \
    "$DUCKDB_DIR/query.mjs" < cases > check.out 2>&1
while IFS= read -r line; do
	case "$line" in
	"ok - "*) _report 0 "--sql duckdb = analyze: ${line#ok - }" ;;
	"not ok - "*) _report 1 "--sql duckdb = analyze: ${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < check.out

golden() { # NAME ENGINE ARGS...: the query equals expect/t7501-NAME-ENGINE.sql
	name=$1 engine=$2
	shift 2
	"$PS" analyze "$@" --db s.db --sql "$engine" > "$name-$engine.sql" \
	    2> err
	rc=$?
	ok "[ $rc = 0 ] && [ ! -s err ]" "$name --sql $engine: exit 0, no message"
	ok "diff -u \"$TOP/tests/cli/expect/t7501-$name-$engine.sql\" \
	    \"$name-$engine.sql\"" "$name --sql $engine equals the golden file"
}
for e in athena trino spark; do
	golden rps $e percentiles --metric rps --pool trials --by day
	golden jitter $e trials --metric jitter_ms --stats p50,mean,n
done
test_done

# t2701: the query `analyze percentiles --sql duckdb` prints flags "≥
# timeout" as analyze does at every boundary of t2700 (type 7 and oha,
# pooled and per trial; refusals apart), run on DuckDB over an export.
# tests/cli/helper/sql-check.py does the comparing.
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq
. "$TOP/tests/cli/helper/censor-tree.sh"
censor_tree
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql
cat > cases <<'CASES'
percentiles --metric connect_ms --stats p30,p90,p95,p99,max,min
percentiles --metric connect_ms --stats p30,p90,p95,p99,max --quantile oha
percentiles --metric connect_ms --stats p90,p95,p99,p99.9,max --pool trials
percentiles --metric connect_ms --stats p30,p99,max --pool trials --quantile oha
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
test_done

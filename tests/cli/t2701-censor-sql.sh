# t2701: the query `analyze percentiles --sql duckdb` prints flags "≥
# timeout" as analyze does at every boundary of t2700 (type 7 and oha,
# pooled and per trial; refusals apart), run on DuckDB over an export;
# and on t2702's tree (3 x 300 probes, 1 % timeouts on one path) delta,
# ratio and trials leave a censored statistic without a number and flag
# it (<stat>_ge_timeout, growth_ge_timeout, ge_timeout_trials) as
# analyze does.  tests/cli/helper/sql-check.py does
# the comparing.
# tier: duckdb
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

# downstream of "≥ timeout": delta, ratio, trials
. "$TOP/tests/cli/helper/censor-trials.sh"
rm -rf tree
censor_trials_tree
"$PS" ingest -q --db d.db tree 2>/dev/null
"$PS" export -q --db d.db --out ex2 2>/dev/null
"$PS" export --db d.db --ddl duckdb --out ex2 > views2.sql
cat > cases2 <<'CASES'
delta --metric connect_ms --by instance_type A-B
delta --metric connect_ms --by instance_type --pool trials A-B
ratio --metric connect_ms --by instance_type --across c 16/1 --pool trials
trials --metric connect_ms --by instance_type --stats p50,p99,max --quantile oha
CASES
"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" d.db views2.sql \
    "$DUCKDB_DIR/query.mjs" < cases2 > check2.out 2>&1
while IFS= read -r line; do
	case "$line" in
	"ok - "*) _report 0 "--sql duckdb = analyze: ${line#ok - }" ;;
	"not ok - "*) _report 1 "--sql duckdb = analyze: ${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < check2.out
test_done

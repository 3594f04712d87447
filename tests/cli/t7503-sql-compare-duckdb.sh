# t7503: `pathstat analyze compare --by KEY --sql duckdb`, run on DuckDB
# over an export, gives analyze's compare table (--format csv) for every
# column the query has (export/sql_compare.c): path, condition, the other
# --by keys, metric, estimator, pool, by, baseline, value, stat, both
# statistics, diff, ratio, the trials with a value on either side and the
# "≥ timeout" flags and also_differ (the other keys in which the two
# cells differ), the same rows in the same order, numbers to 1e-9.
# The columns analyze alone has (intervals, test, p, p_adj, verdict)
# are named in the query's header and left out of it, and
# the options that only act on them are usage errors.  On the sample tree
# with oha runs of only a JSON summary (a tool-only cell), connect probes
# with a max "≥ timeout", an end-of-test metric, and on a generated tree
# of two days on two instance types and a day on each alone.  tests/cli/helper/sql-check.py
# compares.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

cp -r "$TOP/samples/tree" tree
# oha JSON alone: a fourth trial of G on a day of its own (a cell of the
# tool's numbers only) and path Z (as t7500)
src=tree/ecs-conn/2026-08-30/trial2/G_ka-off_c1_1k
d4=tree/ecs-conn/2026-08-31/trial4/G_ka-off_c1_1k
dz=tree/ecs-conn/2026-08-31/trial1/Z_ka-off_c1_1k
mkdir -p "$d4" "$dz"
{ cat "$src/G_ka-off_c1_1k.json"; echo; } > "$d4/G_ka-off_c1_1k.json"
{ cat "$src/G_ka-off_c1_1k.json"; echo; echo; } > "$dz/Z.json"
echo '{"path": "G", "trial": 4, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$d4/meta.json"
echo '{"path": "Z", "trial": 1, "condition": "ka-off_c1_1k", "tool": "oha"}' \
    > "$dz/meta.json"
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql

. "$TOP/tests/cli/helper/two-types-tree.sh"
"$PS" export --db m.db --ddl duckdb --out mx > mviews.sql

ok "\"$PS\" analyze compare --db s.db --metric http_ms --by day \
    --where path=G --format csv | grep -q ',tool,trials,day,'" \
    "the tree has a compared cell of the tool's numbers only"
ok "\"$PS\" analyze compare --db s.db --metric connect_ms --by day \
    --stats max --format csv | grep -Eq ',(0,1|1,[01]),\"\",trials,,\$'" \
    "the tree has a compared max \"≥ timeout\""

cat > cases <<'CASES'
compare --metric http_ms --by instance_type
compare --metric http_ms --by instance_type --pool trials --stats p50,p90,mean,min,max,n
compare --metric http_ms --by day --where path=G,Z
compare --metric http_ms --by day --where path=G,Z --pool pooled --stats p50,p99,mean
compare --metric http_ms --by day --where path=G --pool trials --quantile oha
compare --metric connect_ms --by day --stats p50,p99,max,mean
compare --metric connect_ms --by region,day --baseline 2026-08-29 --pool trials
compare --metric rps --by day
compare --metric http_ms --by instance_type,day --paths H,B,G
compare --metric http_ms --by trial --pool trials --where path=H,B
CASES
"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" s.db views.sql \
    "$DUCKDB_DIR/query.mjs" < cases > check.out 2>&1
cat > mcases <<'CASES'
compare --metric throughput_bps --by instance_type
compare --metric throughput_bps --by day --pool trials --stats p10,p50,p99,mean
compare --metric connect_ms --by instance_type,day --baseline 2026-09-02
compare --metric http_ms --by day,instance_type --quantile oha --pool trials
compare --metric throughput_bps --by day --where day=2026-09-03..2026-09-04
compare --metric connect_ms --by day --baseline 2026-09-03
CASES
"$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" m.db mviews.sql \
    "$DUCKDB_DIR/query.mjs" < mcases >> check.out 2>&1
while IFS= read -r line; do
	case "$line" in
	"ok - "*) _report 0 "--sql duckdb = analyze: ${line#ok - }" ;;
	"not ok - "*) _report 1 "--sql duckdb = analyze: ${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < check.out
n=$(grep -c '^ok - compare' check.out)
ok "[ $n -eq 16 ]" "DuckDB gave analyze's compare table for all 16 queries ($n)"
ok "\"$PS\" analyze compare --db m.db --metric connect_ms --by day \
    --baseline 2026-09-03 --format csv | grep -q 'instance_type: c6i.large vs c7g.xlarge'" \
    "a compared pair of days also differs in instance type (also_differ)"

# the header names what analyze adds; the options only they use are
# usage errors that say why
run "$PS" analyze compare --db s.db --metric http_ms --by day --sql duckdb
expect_code 0 "compare --sql prints a query"
expect_out_has "test, p, p_adj, verdict, unit,
-- days_baseline and days_value," "its header names the columns analyze adds"
expect_out_has "no exact SQL form on
-- these engines" "and says why"
run "$PS" analyze compare --db s.db --metric http_ms --by day --threshold 10 \
    --sql duckdb
expect_code 2 "--threshold with --sql is a usage error"
expect_err_has "--threshold: it sets the verdict's threshold" "saying why"
run "$PS" analyze compare --db s.db --metric http_ms --by day --level 0.9 \
    --sql duckdb
expect_code 2 "--level with --sql is a usage error"
run "$PS" analyze compare --db s.db --metric http_ms --sql duckdb
expect_code 2 "compare --sql without --by is a usage error"
expect_err_has "compare needs --by KEY" "saying what it needs"
# --stats n alone: analyze compares nothing (no rows, exit 1); the
# query runs and returns no row
"$PS" analyze compare --db s.db --metric http_ms --by day --stats n \
    --sql duckdb > n.sql
ok "[ \"\$(duckq -f views.sql \"\$(cat n.sql)\" | tail -1)\" = '[]' ]" \
    "compare --stats n: the query runs and has no rows"
run "$PS" analyze compare --db s.db --metric http_ms --by c --sql duckdb
expect_code 2 "compare --by a condition key is refused as analyze refuses it"
test_done

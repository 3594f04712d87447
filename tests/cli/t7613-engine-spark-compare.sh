# t7613: Spark runs the queries of `pathstat analyze compare --by KEY
# --sql spark` over `pathstat export --ddl spark`'s tables: every column
# the query has equals `analyze compare --format csv` (1e-9, the same
# rows in the same order; the intervals, test, p, adjusted p and verdict
# are analyze's alone, export/sql_compare.c), on the sample
# tree (days, instance types, a max "≥ timeout", an end-of-test metric)
# and on a generated tree of two days on two instance types.
# tests/cli/helper/engine-check.py runs one Spark for all of them.
. "$TOP/tests/cli/engines.sh"
engines_python_prereq pyspark
command -v java >/dev/null 2>&1 || skip_all "Spark needs java (Debian: openjdk-17-jre-headless)"

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl spark --out ex > s.sql
. "$TOP/tests/cli/helper/two-types-tree.sh"
"$PS" export --db m.db --ddl spark --out mx > m.sql

cat > cases <<'CASES'
@ s.db s.sql
compare --metric http_ms --by instance_type --pool trials --stats p50,p90,mean,min,max,n
compare --metric connect_ms --by day --stats p50,p99,max,mean
compare --metric connect_ms --by region,day --baseline 2026-08-29 --pool trials
compare --metric rps --by day
@ m.db m.sql
compare --metric throughput_bps --by instance_type
compare --metric connect_ms --by instance_type,day --baseline 2026-09-02
compare --metric connect_ms --by day --baseline 2026-09-03
compare --metric http_ms --by day,instance_type --quantile oha --pool trials
CASES
TMPDIR=$TMP SPARK_LOCAL_IP=127.0.0.1 engines_py "$TOP/tests/cli/helper/engine-check.py" spark \
    "$PS" < cases > check.out 2> spark.err
engines_report check.out "Spark: "
[ -s check.out ] || tail -5 spark.err
n=$(grep -c '^ok - compare' check.out)
ok "[ $n -eq 8 ]" "Spark gave analyze's compare table for all 8 queries ($n)"
test_done

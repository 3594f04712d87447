# t7510: `analyze ... --sql athena|trino|spark` over the sample tree,
# compared with golden files (tests/cli/expect/t7510-*.sql, reviewed by
# hand against each engine's documentation; DuckDB runs its own in
# t7500; regenerate with the commands below after a deliberate change):
# connect probes' failure flags, oha's rule per trial with --by and a
# path ID holding a quote (Spark escapes it with a backslash), delta with
# growth, ratio per trial, trials with the outlier rules, compare with
# a baseline and "≥ timeout" flags.  Then the
# options a query cannot honour: usage errors that say why.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
golden() { # NAME ENGINE ARGS...: the query equals expect/t7510-NAME-ENGINE.sql
	name=$1 engine=$2
	shift 2
	"$PS" analyze "$@" --db s.db --sql "$engine" > "$name-$engine.sql" \
	    2> err
	rc=$?
	ok "[ $rc = 0 ] && [ ! -s err ]" "$name --sql $engine: exit 0, no message"
	ok "diff -u \"$TOP/tests/cli/expect/t7510-$name-$engine.sql\" \
	    \"$name-$engine.sql\"" "$name --sql $engine equals the golden file"
}
for e in athena trino spark; do
	golden connect $e percentiles --metric connect_ms
	golden oha-trials $e percentiles --metric http_ms --quantile oha \
	    --pool trials --by day --where ka=on --paths "G',G"
	golden delta $e delta --metric http_ms "G-G'" H-B --pool pooled
	golden ratio $e ratio --metric http_ms --across c 16/1 --pool trials
	golden trials $e trials --metric http_ms --by instance_type --pool pooled
	golden compare $e compare --metric connect_ms --by day --stats p50,max
done
ok "! grep -il 'approx_percentile *(' ./*.sql" "no query calls approx_percentile"
ok "grep -q \"'G\\\\\\\\''\" oha-trials-spark.sql && grep -q \"'G'''\" \
    oha-trials-trino.sql" "G' is 'G\\\\'' in Spark, 'G''' in Trino"

usage() { # DESC MESSAGE ARGS...: exit 2 with MESSAGE
	desc=$1 msg=$2
	shift 2
	run "$PS" analyze "$@" --db s.db
	expect_code 2 "$desc: exit 2"
	expect_err_has "$msg" "$desc: says why"
	expect_out_lacks "SELECT" "$desc: prints no query"
}
usage "--ci" "--sql cannot honour --ci: intervals are computed by" \
    percentiles --metric http_ms --ci --sql athena
usage "--seed" "--sql cannot honour --seed: it seeds the bootstrap" \
    delta --metric http_ms H-B --seed 3 --sql trino
usage "--level" "--sql cannot honour --level" \
    percentiles --metric http_ms --level 0.9 --sql spark
usage "--quantile hd" "--sql cannot honour --quantile hd: Harrell-Davis" \
    percentiles --metric http_ms --quantile hd --sql duckdb
usage "--format json" "--sql cannot honour --format: the query's result" \
    percentiles --metric http_ms --format json --sql duckdb
usage "variance" "--sql: variance has no query form" \
    variance --metric http_ms --by day --sql duckdb
usage "compare --threshold" "--sql cannot honour --threshold: it sets the verdict's" \
    compare --metric http_ms --by day --threshold 10 --sql trino
usage "an unknown engine" "bad --sql 'mysql': want athena, trino, spark, duckdb" \
    percentiles --metric http_ms --sql mysql
usage "an unknown --by key" "bad --by: no run has the key 'nonsense'" \
    percentiles --metric http_ms --by nonsense --sql duckdb
usage "a bad pair" "bad pair 'GG': want MINUEND-SUBTRAHEND" \
    delta --metric http_ms GG --sql athena
usage "ratio without --across" "ratio needs --across KEY" \
    ratio --metric http_ms 16/1 --sql spark
run "$PS" analyze percentiles --metric http_ms --format csv --sql duckdb \
    --db s.db
expect_code 0 "--format csv with --sql: the query's own columns"
expect_out_has "-- pathstat analyze percentiles --db s.db --metric http_ms" \
    "the query names the analyze command it stands for"
test_done

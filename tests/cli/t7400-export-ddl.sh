# t7400: --ddl prints each engine's statements over the sample tree's
# export, compared with golden files (tests/cli/expect/t7400-*.sql,
# reviewed by hand against each engine's documentation; regenerate with
# the commands below after a deliberate change): Athena with partition
# projection on day (date), on another key (enum), and without
# projection where a folder name escapes a value or an enum cannot list
# one (a comma: MSCK REPAIR); Trino's
# Hive connector; Spark SQL partitioned and not; DuckDB views over S3.
# With --out DIR the DDL takes the partitioning from DIR/manifest.json.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
L=s3://bucket/prefix
golden() { # NAME ARGS...: the DDL equals expect/t7400-NAME.sql
	name=$1
	shift
	"$PS" export --db s.db "$@" > "$name.sql" 2> err
	rc=$?
	ok "[ $rc = 0 ] && [ ! -s err ]" "--ddl $name: exit 0, no message"
	ok "diff -u \"$TOP/tests/cli/expect/t7400-$name.sql\" \"$name.sql\"" \
	    "--ddl $name equals the golden file"
}
golden athena --ddl athena --location $L
golden athena-day-instance --ddl athena --location $L \
    --partition-by day,instance_type
golden athena-path --ddl athena --location $L --partition-by path
golden trino --ddl trino --location $L
golden spark --ddl spark --location $L/
golden spark-none --ddl spark --location $L --partition-by none
golden duckdb --ddl duckdb --location $L

# the partitioning of an export in DIR is what --ddl --out DIR describes
"$PS" export -q --db s.db --out ex --partition-by instance_type
run "$PS" export --db s.db --ddl duckdb --out ex
expect_out_has "hive_types = {'instance_type': VARCHAR}" \
    "--out DIR: partitioned as DIR's export was"
expect_out_has "read_parquet('$(cd ex && pwd -P)/samples/**/*.parquet'" \
    "--out DIR: an absolute path"
run "$PS" export --db s.db --ddl trino --out ex
expect_out_has "external_location = 'file://$(cd ex && pwd -P)/samples'" \
    "Trino over a local folder: a file:// URI"
# an enum projection is one ","-separated list: a value with a comma
# would project to two folders that are not there, so no projection
cp -r tree/tokyo-osaka tc
sed 's/"instance_type": "c6i.large"/"instance_type": "c6i.large,spot"/' \
    tree/tokyo-osaka/meta.json > tc/meta.json
"$PS" ingest -q --db c.db tc 2>/dev/null
run "$PS" export --db c.db --ddl athena --location $L \
    --partition-by instance_type
expect_out_has "MSCK REPAIR TABLE pathstat.samples;" \
    "a partition value with a comma: MSCK REPAIR, not projection"
ok "! printf %s \"\$OUT\" | grep -q projection.enabled" "... and no projection at all"
run "$PS" export --db c.db --ddl athena --location $L --partition-by day
expect_out_has "'projection.day.type' = 'date'" \
    "... while the same runs by day are projected"
grep -c "CREATE EXTERNAL TABLE" athena.sql > n
ok "[ \$(cat n) = 4 ]" "four tables: samples, runs, summaries, findings"
ok "! grep -q '\`day\` string,' athena.sql" \
    "the partition column is not among the file columns"
test_done

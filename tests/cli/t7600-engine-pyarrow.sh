# t7600: pyarrow, Apache Arrow's Parquet reader (independent of pathstat
# and of DuckDB), reads every file `pathstat export` writes from the
# sample tree: schema, logical types, codec, encodings, dictionary pages,
# row-group statistics and key-value metadata as the manifest says, and
# every run, sample (bit for bit) and summary equal to the database, for
# each codec, the basic encodings, Hive-escaped partition folders
# (a path named G') and small files.  A file moved to the wrong
# partition is caught.  tests/cli/helper/arrow-check.py does the
# checking.  Runs under make test-engines (tests/cli/engines.sh).
. "$TOP/tests/cli/engines.sh"
engines_python_prereq pyarrow

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
check() { # DIR DESC [--where K=V]...
	dir=$1 desc=$2
	shift 2
	engines_py "$TOP/tests/cli/helper/arrow-check.py" s.db "$dir" "$@" \
	    > check.out 2>&1
	engines_report check.out "$desc: "
}
i=0
for opt in "" "--codec gzip --basic-encodings" "--codec none" \
    "--partition-by instance_type,path" "--partition-by none --file-size 8k"; do
	i=$((i + 1))
	run "$PS" export --db s.db --out "v$i" $opt
	expect_code 0 "export ${opt:-(defaults)}"
	check "v$i" "${opt:-defaults}"
done
run "$PS" export --db s.db --out sub --where study=ecs-conn
expect_code 0 "export a --where subset"
check sub "--where study=ecs-conn" --where study=ecs-conn

# the checker is not blind: a day's file in another day's folder
cp v1/samples/day=2026-08-29/part-00000.parquet \
    v1/samples/day=2026-08-31/part-00000.parquet
ok "! engines_py \"\$TOP/tests/cli/helper/arrow-check.py\" s.db v1 \
    > bad.out 2>&1 && grep -q '^not ok - pyarrow: row counts' bad.out &&
    grep -q \"pathstat.partition = 'day=2026-08-29'\" bad.out" \
    "a file in the wrong partition fails the row count and its metadata"
test_done

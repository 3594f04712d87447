# t7100: DuckDB, an independent reader, reads every file `pathstat export`
# writes from the sample tree, and finds the database in it: every run,
# sample (values bit for bit), summary and finding; each run's key
# columns; samples per run; and quantile_cont over the export equals
# `pathstat analyze percentiles` (type 7) to 1e-9 on every cell.  For
# each codec, with the basic encodings, partitioned otherwise, and a
# --where subset.  tests/cli/helper/export-check.py does the comparing.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
check() { # DIR DESC MODE [--where K=V]...
	dir=$1 desc=$2 mode=$3
	shift 3
	"$PY" "$TOP/tests/cli/helper/export-check.py" "$mode" s.db "$dir" \
	    "$DUCKDB_DIR/query.mjs" "$PS" "$@" > check.out 2>&1
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) _report 0 "$desc: ${line#ok - }" ;;
		"not ok - "*) _report 1 "$desc: ${line#not ok - }" ;;
		*) echo "$line" ;;
		esac
	done < check.out
}

run "$PS" export --db s.db --out zstd
expect_code 0 "export with the defaults"
expect_err_has "samples: 4 partitions written (41862 rows" \
    "four days of samples, every row"
check zstd "zstd" same
check zstd "zstd" quantiles

i=0
for opt in "--codec gzip" "--codec none" "--basic-encodings" \
    "--partition-by instance_type,path" "--partition-by none" \
    "--file-size 8k --codec gzip"; do
	i=$((i + 1))
	run "$PS" export --db s.db --out "v$i" $opt
	expect_code 0 "export $opt"
	check "v$i" "$opt" same
done
ok "[ -d v4/samples/instance_type=c7g.xlarge/path=G%27 ]" \
    "a path ID with a quote is escaped in its folder name"
ok "[ \$(ls v5/samples) = part-00000.parquet ]" \
    "--partition-by none: one folder"
n=$(find v6/samples -name 'part-*.parquet' | wc -l)
ok "[ $n -gt 4 ]" "--file-size 8k: more than one part file per day ($n)"

run "$PS" export --db s.db --out sub --where study=ecs-conn --where ka=off
expect_code 0 "export a --where subset"
check sub "--where study=ecs-conn ka=off" same --where study=ecs-conn \
    --where ka=off
test_done

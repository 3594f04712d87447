# t7611: a tag whose value is literally __HIVE_DEFAULT_PARTITION__ read
# back as NULL in DuckDB while analyze kept it: its folder
# now escapes the first '_' (%5F), which DuckDB decodes to the value.
. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
	} > "$1"
}
mkdir -p tree/B tree/C
probe tree/B/probe.csv 0.35
probe tree/C/probe.csv 0.50
echo '{"path": "B", "trial": 1, "day": "__HIVE_DEFAULT_PARTITION__"}' > tree/B/meta.json
echo '{"path": "C", "trial": 1, "day": "2026-08-29"}' > tree/C/meta.json
"$PS" ingest -q --db t.db tree 2>/dev/null
run "$PS" export -q --db t.db --out ex
expect_code 0 "export"
run duckq "SELECT path, day FROM read_parquet('ex/runs/*/*.parquet', hive_partitioning = true) ORDER BY path"
expect_out_has '{"path":"B","day":"__HIVE_DEFAULT_PARTITION__"}' "DuckDB reads the literal value, not NULL"
expect_out_has '{"path":"C","day":"2026-08-29"}' "and the other as it is"
test_done

# t7630: a database written before ingest refused implausible run
# starts may hold one (2^63-1, 1e13, -1000 Unix seconds): export took
# it times 10^6 into a microsecond timestamp, a signed overflow that
# wrote 1969 or -8.4e18 into Parquet.  It is now exported as unknown
# (NULL), with a warning naming the run; plausible starts are as before.
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
for p in A B C D; do
	mkdir -p tree/$p
	probe tree/$p/probe.csv 0.5
	echo "{\"path\": \"$p\", \"trial\": 1}" > tree/$p/meta.json
done
"$PS" ingest -q --db t.db tree 2>/dev/null
sql t.db "UPDATE runs SET started_at = 9223372036854775807 WHERE path_id = (SELECT id FROM paths WHERE name = 'A');
    UPDATE runs SET started_at = 10000000000000 WHERE path_id = (SELECT id FROM paths WHERE name = 'B');
    UPDATE runs SET started_at = -1000 WHERE path_id = (SELECT id FROM paths WHERE name = 'C')"
expect_sql t.db "SELECT count(*) FROM runs WHERE started_at > 4102444800 OR started_at < 0" 3 "the database holds the three starts"
run "$PS" export --db t.db --out ex
expect_code 0 "export exits 0"
expect_err_has "its stored start 9223372036854775807 (Unix seconds) is outside 2000-01-01..2100-01-01 UTC: exported as unknown" \
    "the 2^63-1 start is named"
expect_err_has "its stored start -1000 (Unix seconds)" "and the one before 1970"
run duckq "SELECT path, CAST(started_at AS VARCHAR) AS s FROM read_parquet('ex/runs/*/*.parquet', hive_partitioning = true) ORDER BY path"
expect_out_has '{"path":"A","s":null}' "A's start is NULL"
expect_out_has '{"path":"B","s":null}' "B's start is NULL"
expect_out_has '{"path":"C","s":null}' "C's start is NULL"
expect_out_has '{"path":"D","s":"2026-08-28 01:00:00' "D's start is as stored"
test_done

# t7612: odd but legal partition values.  A 300-byte day tag
# (tags may have 1,024 bytes) made every default export fail with
# ENAMETOOLONG; a tag whose value is literally __HIVE_DEFAULT_PARTITION__
# got the folder of a missing value (NULL to every engine); a ',' in a
# value went verbatim into Athena's comma-separated projection list, so
# that partition vanished.  Now a long value's folder holds its first
# 64 bytes and a hash (the value stays in the runs' tags column), the
# literal Hive null name is escaped, and a value with ',' turns Athena's
# projection off (MSCK REPAIR instead).  DuckDB reads the literal back in
# t7611.
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
	} > "$1"
}
long=$("$PY" -c 'print("d" * 300)')
mkdir -p tree/A tree/B tree/C
probe tree/A/probe.csv 0.21
probe tree/B/probe.csv 0.35
probe tree/C/probe.csv 0.50
echo "{\"path\": \"A\", \"trial\": 1, \"day\": \"$long\", \"site\": \"a,b\"}" > tree/A/meta.json
echo '{"path": "B", "trial": 1, "day": "__HIVE_DEFAULT_PARTITION__", "site": "c"}' > tree/B/meta.json
echo '{"path": "C", "trial": 1, "site": "c"}' > tree/C/meta.json
"$PS" ingest -q --db t.db tree 2>/dev/null
run "$PS" export --db t.db --out ex
expect_code 0 "a default export with a 300-byte day"
ok "[ -z \"\$(find ex -name '*' | awk -F/ '{ for (i = 1; i <= NF; i++) if (length(\$i) > 255) print }')\" ]" \
    "every folder name is at most 255 bytes"
ok "ls ex/samples | grep -q '^day=d\\{64\\}~[0-9a-f]\\{16\\}\$'" \
    "the long value's folder: its first 64 bytes and a hash"
ok "[ -d 'ex/samples/day=%5F_HIVE_DEFAULT_PARTITION__' ]" \
    "the literal Hive null name is escaped"
ok "[ ! -e 'ex/samples/day=__HIVE_DEFAULT_PARTITION__' ] && \
    [ -d 'ex/samples/day=2026-08-28' ]" \
    "no run is taken for a missing day (C's day is its start time)"
run "$PS" export --db t.db --ddl athena --location s3://b/p --partition-by site
expect_code 0 "Athena DDL partitioned by a key with a ',' in a value"
ok "! echo \"\$OUT\" | grep -q \"projection.site.values' = 'a,b\"" "the ',' value is not put into an enum list"
expect_out_has "MSCK REPAIR TABLE pathstat.samples;" "the partitions are loaded instead"
run "$PS" export --db t.db --ddl athena --location s3://b/p --partition-by path
expect_out_has "'projection.path.values' = 'A,B,C'" "plain values keep their projection"
test_done

# t7702: the collector's provenance tags (command lines, session, kernel,
# host, tool versions: common/keycat.c) are not key columns of the
# export unless --provenance asks: every run has its own
# value, so as columns they only widen the rows.  The runs' tags column
# keeps them; the DDL declares what the export wrote (from its
# manifest); analyze's pooled_over and the --sql query's agree without
# them, on DuckDB.
# tier: duckdb
. "$TOP/tests/cli/duckdb.sh"

cat > mk.py <<'PY'
import json, os
json.dump({"study": "s1", "region": "r1"}, open("meta.json", "w"))
for day_i, day in enumerate(("2026-08-28", "2026-08-29")):
    for path in ("A", "B"):
        for trial in (1, 2):
            t = trial + 2 * day_i
            d = "tree/%s/%s/trial%d" % (day, path, t)
            os.makedirs(d)
            json.dump({"path": path, "trial": t, "day": day,
                       "session": "sess-%s-%s-%d" % (day, path, t),
                       "kernel": "Linux 6.1.0-%d" % day_i,
                       "collector_command": "pathstat-collect --path %s --target 10.0.0.%d --count 30" % (path, t)},
                      open(d + "/meta.json", "w"))
            with open(d + "/probe.csv", "w") as f:
                f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=30 "
                        "interval_s=0.2 timeout_s=0.4 start=%sT01:00:00Z\n" % day)
                f.write("seq,unix_ns,connect_ms,result\n")
                for s in range(30):
                    v = (1.0 + (path == "B")) * (1 + 0.01 * ((s * 7 + t) % 13))
                    f.write("%d,%d,%.3f,ok\n" % (s, 1787878800000000000 + day_i * 86400 * 10**9 + s * 200000000, v))
PY
"$REAL_PY" mk.py
"$PS" ingest --quiet --db s.db tree
# the key columns a dataset's manifest entry lists, one per line
cat > cols.py <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for c in m["datasets"][sys.argv[2]]["columns"]:
    if c.get("key"):
        print(c["key"])
PY
keycols() { "$PY" cols.py "$1/manifest.json" "$2" | tr '\n' ' '; }

run "$PS" export -q --db s.db --out ex
expect_code 0 "export without --provenance exits 0 ($ERR)"
cols=$(keycols ex runs)
ok 'case " $cols" in *" hour "*) true ;; *) false ;; esac' "runs has the hour key column ($cols)"
for k in session kernel collector_command; do
	ok 'case " $cols" in *" $k "*) false ;; *) true ;; esac' "runs has no $k column"
done
scols=$(keycols ex samples)
ok 'case " $scols" in *" session "*) false ;; *) true ;; esac' "nor samples ($scols)"
# Athena's DDL declares each column (DuckDB's views read the files')
run "$PS" export --db s.db --ddl athena --out ex --location s3://b/p
expect_code 0 "the DDL of that export ($ERR)"
expect_out_has '`hour` string' "declares the hour column"
expect_out_lacks '`session`' "and no session column"
expect_out_lacks '`collector_command`' "nor collector_command"

run "$PS" export --db s.db --out ex --partition-by session
expect_code 2 "--partition-by a provenance tag without --provenance: usage error"
expect_err_has "'session' is a provenance tag" "and says why"

run "$PS" export --db s.db --out ex --provenance
expect_code 0 "export --provenance into the same folder ($ERR)"
expect_err_has "runs: 2 partitions written" "the runs are rewritten with the new columns"
cols=$(keycols ex runs)
for k in session kernel collector_command hour; do
	ok 'case " $cols" in *" $k "*) true ;; *) false ;; esac' "--provenance: runs has $k ($cols)"
done
run "$PS" export --db s.db --ddl athena --out ex --location s3://b/p
expect_out_has '`session` string' "the DDL over a --provenance export declares session (from its manifest)"
run "$PS" export --db s.db --ddl athena --location s3://b/p
expect_code 0 "the DDL from the database alone ($ERR)"
expect_out_lacks '`session`' "does not"
run "$PS" export --db s.db --ddl athena --location s3://b/p --provenance
expect_out_has '`session` string' "unless --provenance says so"
run "$PS" export --db s.db --out ex2 --partition-by session --provenance
expect_code 0 "--partition-by session with --provenance ($ERR)"
ok '[ -d "ex2/runs/session=sess-2026-08-28-A-1" ]' "one folder per session"

# analyze's pooled_over names no provenance key (the caption does)
run "$PS" analyze percentiles --db s.db --metric connect_ms --format csv
expect_code 0 "percentiles over both days ($ERR)"
expect_out_has ",day" "pooled_over names day"
expect_out_lacks "session" "and no provenance key"

# the tags column and the --sql queries, on DuckDB
if DUCKDB_DIR=$(sh "$TOP/tests/duckdb/setup.sh" 2>/dev/null); then
	"$PS" export -q --db s.db --out ex3
	run node "$DUCKDB_DIR/query.mjs" "SELECT count(*) AS n FROM read_parquet('ex3/runs/**/*.parquet', hive_partitioning = true) WHERE tags LIKE '%session=sess-%' AND tags LIKE '%collector_command=pathstat-collect --path%'"
	expect_code 0 "DuckDB reads the runs dataset ($ERR)"
	expect_out_has '"n":"8"' "every run's tags column holds its session and command line: $OUT"
	for d in ex ex3; do
		"$PS" export --db s.db --ddl duckdb --out $d > views-$d.sql
		printf '%s\n' "percentiles --metric connect_ms" \
		    "percentiles --metric connect_ms --by day --pool trials" \
		    "delta --metric connect_ms B-A" \
		    "trials --metric connect_ms --pool pooled" |
		    "$PY" "$TOP/tests/cli/helper/sql-check.py" "$PS" s.db \
		    views-$d.sql "$DUCKDB_DIR/query.mjs" > check.out 2>&1
		while IFS= read -r line; do
			case "$line" in
			"ok - "*) _report 0 "$d: --sql duckdb = analyze: ${line#ok - }" ;;
			"not ok - "*) _report 1 "$d: --sql duckdb = analyze: ${line#not ok - }" ;;
			*) echo "$line" ;;
			esac
		done < check.out
	done
else
	echo "# DuckDB not installed: the tags column and --sql are checked by t7500 only"
fi
test_done

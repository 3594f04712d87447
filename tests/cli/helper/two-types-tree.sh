# two-types-tree.sh - sourced by the compare --sql tests (t7503 DuckDB,
# t7613 Spark, t7621 Trino): a generated tree "big" of two days on two
# instance types, and a day on each instance type alone (compared, those
# days also differ in instance type: also_differ), ingested into m.db
# and exported to mx partitioned by day, instance_type and path.  The
# test then writes its engine's DDL.  Uses $PS, $PY and $TOP.
for d in 2026-09-01 2026-09-02; do
	for it in c6i.large c7g.xlarge; do
		"$PY" "$TOP/tests/cli/helper/flat-tree.py" big "$d" "$it" A,B 3 \
		    > /dev/null
	done
done
"$PY" "$TOP/tests/cli/helper/flat-tree.py" big 2026-09-03 c6i.large A,B 3 \
    > /dev/null
"$PY" "$TOP/tests/cli/helper/flat-tree.py" big 2026-09-04 c7g.xlarge A,B 3 \
    > /dev/null
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
"$PS" ingest -q --db m.db --layout "$L.json" --layout "$L.csv" big 2>/dev/null
"$PS" export -q --db m.db --out mx --partition-by day,instance_type,path \
    2>/dev/null

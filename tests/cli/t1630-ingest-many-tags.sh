# t1630: tags cannot break queries.  One 29 kB meta.json with
# 2,100 keys made analyze, report, export and run_view fail for every
# run ("too many columns in result set": SQLite returns at most 2,000).
# Now a meta.json with more keys than a run may have tags (128) is
# rejected with that reason; and runs whose tags add up to more than
# 2,000 distinct keys still analyze, check, report, export and view:
# queries read keys beyond the first 200 per run (common/runsel.c), and
# run_view and export's runs have columns for the 200 keys most runs
# hold, every tag staying in the tags column.
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
	} > "$1"
}
mkdir -p tree/A tree/B
probe tree/A/probe.csv 0.21
probe tree/B/probe.csv 1.65
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
"$PY" -c "
import json; d = {'path': 'B', 'trial': 1}
d.update({'k%04d' % i: 'v' for i in range(2100)}); print(json.dumps(d))" > tree/B/meta.json
run "$PS" ingest --db t.db tree
expect_code 1 "a meta.json with 2,100 keys is rejected"
expect_err_has "tree/B/meta.json: 2102 keys: a run may have at most 128 tags" "with its reason"
run "$PS" analyze percentiles --db t.db --metric connect_ms --format csv
expect_code 0 "the other runs analyze"

# 24 runs with 100 keys each: 2,400 distinct keys in the database
rm -rf tree2
for i in $(seq 1 24); do
	mkdir -p tree2/P$i
	probe tree2/P$i/probe.csv "0.$i"
	"$PY" -c "
import json; d = {'path': 'P$i', 'trial': 1}
d.update({'r${i}k%03d' % j: 'v%d' % j for j in range(100)}); print(json.dumps(d))" > tree2/P$i/meta.json
done
run "$PS" ingest -q --db m.db tree2
expect_code 0 "24 runs with 2,400 distinct tag keys are stored"
ok "[ \"\$(sqlite3 m.db 'SELECT count(DISTINCT key) FROM run_tags')\" -eq 2400 ]" "all their tags"
run "$PS" analyze percentiles --db m.db --metric connect_ms --format csv
expect_code 0 "analyze works"
expect_out_has "P24," "every path is there"
run "$PS" analyze percentiles --db m.db --metric connect_ms --where r24k099=v99 --format csv
expect_code 0 "--where on a key past the first 200"
expect_out_has "P24," "selects its run"
run "$PS" check --db m.db
ok "{ [ $RC -eq 0 ] || [ $RC -eq 3 ]; } && ! grep -q \"too many columns\" \"\$TMP/.err\"" "check works"
run "$PS" report --db m.db --no-render --no-checks --out rep
expect_code 0 "report works"
run "$PS" export -q --db m.db --out ex
expect_code 0 "export works"
run sqlite3 m.db "SELECT count(*) FROM run_view"
expect_out_has "24" "run_view works"
ok "sqlite3 m.db 'SELECT tags FROM run_view' | grep -q 'r24k099=v99'" "every tag is in run_view's tags column"
test_done

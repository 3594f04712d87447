# t3430: spreadsheet formula injection.  A tag or condition
# value starting with =, +, - or @ reached the report's tables/*.csv
# (and the CSV downloads of index.html, which embed them) unchanged, so
# a spreadsheet ran it.  Now such text cells begin with ' there and
# index.md says so; numbers stay exact, and `--format csv` (scripts)
# stays exact text.
mkdir -p tree/A
{
	echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
	echo "seq,unix_ns,connect_ms,result"
	echo "0,1787878800000000000,0.21,ok"
	echo "1,1787878800200000000,0.22,ok"
} > tree/A/probe.csv
echo '{"path": "A", "trial": 1, "site": "=HYPERLINK(\"http://x\",\"y\")", "rack": "@SUM(1)"}' > tree/A/meta.json
"$PS" ingest -q --db t.db tree 2>/dev/null
echo '{ "title": "x", "sections": [ { "type": "percentiles", "id": "p", "metric": "connect_ms", "by": "site,rack" } ] }' > s.json
run "$PS" report --db t.db --no-render --no-checks --html --spec s.json --out o
expect_code 0 "a report"
ok "grep -qF \"\\\"'=HYPERLINK(\" o/tables/01-p.csv" "the = cell begins with '"
ok "grep -qF \"'@SUM(1)\" o/tables/01-p.csv" "the @ cell begins with '"
ok "! grep -q ',\"\\?[=@]' o/tables/01-p.csv" "no cell starts with = or @"
ok "grep -q ',0.215,' o/tables/01-p.csv" "numbers are exact"
ok "grep -q \"2 text fields starting with =, +, - or @ begin with '\" o/index.md" "index.md says so"
ok "grep -q \"begin with '\" o/index.html" "and so does index.html"
run "$PS" analyze percentiles --db t.db --metric connect_ms --by site,rack --format csv
expect_out_has ',"=HYPERLINK(""http://x"",""y"")",@SUM(1),' "--format csv stays exact"
test_done

# t3420: a refused report printed "nothing written into 'rh'" and then
# "wrote rh/index.md ...".  Now a refusal says only that.
mkdir -p tree/A
{
	echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
	echo "seq,unix_ns,connect_ms,result"
	echo "0,1787878800000000000,0.21,ok"
	echo "1,1787878800200000000,0.22,ok"
} > tree/A/probe.csv
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
"$PS" ingest -q --db t.db tree 2>/dev/null
run "$PS" report --db t.db --no-render --no-checks --out rh
expect_code 0 "a bundle"
expect_err_has "wrote rh/index.md" "says what it wrote"
echo "my notes" > rh/index.md
run "$PS" report --db t.db --no-render --no-checks --out rh
expect_code 1 "a changed index.md is not replaced"
expect_err_has "nothing written into 'rh'" "the refusal says nothing was written"
ok "! grep -q 'wrote rh' \"\$TMP/.err\"" "and no 'wrote' line follows"
ok "[ \"\$(cat rh/index.md)\" = 'my notes' ]" "index.md is left as it was"
test_done

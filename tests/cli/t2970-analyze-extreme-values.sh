# t2970: odd but legal values gave wrong output (issue 22): at 1.7e308 ms
# relative's p50 was empty (100 * 1.7e308 overflowed before the
# division) and --ci for three identical trials was [0, null] (their
# mean overflowed a plain sum).  Now p50 is 100 and the interval is the
# value itself, both pooled and per trial.
for t in 1 2 3; do
	mkdir -p tree/A$t
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,178787880000000000$t,1.7e308,ok"
		echo "1,1787878800200000000,1.7e308,ok"
		echo "2,1787878800400000000,1.7e308,ok"
	} > tree/A$t/probe.csv
	echo "{\"path\": \"A\", \"trial\": $t}" > tree/A$t/meta.json
done
"$PS" ingest -q --db t.db tree 2>/dev/null
run "$PS" analyze relative --db t.db --metric connect_ms --format csv
expect_code 0 "relative"
expect_out_has 'A,"",connect_ms,type7,pooled,9,3,100,100,100,100' "p50 is 100, and so is every other statistic"
for pool in pooled trials; do
	run "$PS" analyze percentiles --db t.db --metric connect_ms --ci --stats p50 --pool $pool --format json
	expect_code 0 "--ci --pool $pool"
	ok "echo \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)[0]
assert r[\"p50_lo\"] == r[\"p50_hi\"] == 1.7e308, r'" "--pool $pool: the interval of identical trials is the value"
done
test_done

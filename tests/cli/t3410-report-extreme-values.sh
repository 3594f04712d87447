# t3410: one probe value of 1e308 or 5e-324 ms (ingest accepts both) or
# a constant series made report loop forever, even with --no-render:
# the log axis' tic loop (inf <= inf, or a step stuck at 0) that the bar
# and line charts share.  Every chart kind, log and linear,
# now finishes under timeout(1), and its script holds no inf or nan.
T="timeout 60"
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
		echo "2,1787878800400000000,$2,ok"
	} > "$1"
}
spec() { # LOG
	echo '{ "title": "Extreme", "sections": ['
	for k in bars ecdf box timeseries; do
		echo "{ \"type\": \"percentiles\", \"id\": \"p-$k\", \"metric\": \"connect_ms\", \"chart\": { \"kind\": \"$k\", \"log\": $1 } },"
	done
	echo "{ \"type\": \"relative\", \"id\": \"r\", \"metric\": \"connect_ms\", \"chart\": { \"kind\": \"relative\", \"log\": $1 } } ] }"
}
spec true > log.json
spec false > lin.json
for v in 1e308 5e-324 1.7976931348623157e308; do
	rm -rf tree t.db
	mkdir -p tree/A tree/B
	probe tree/A/probe.csv 0.21
	probe tree/B/probe.csv "$v"
	echo '{"path": "A", "trial": 1}' > tree/A/meta.json
	echo '{"path": "B", "trial": 1}' > tree/B/meta.json
	"$PS" ingest -q --db t.db tree 2>/dev/null
	for s in log lin; do
		run $T "$PS" report --db t.db --no-checks --no-render --force \
		    --spec $s.json --out "out-$s-$v"
		expect_code 0 "$v ms, $s axes: report finishes"
		ok "ls out-$s-$v/charts/*.gp >/dev/null && \
		    ! grep -hv 'datafile missing' out-$s-$v/charts/*.gp | \
		    grep -qiw 'inf\\|nan'" \
		    "$v ms, $s axes: no inf or nan in the scripts"
	done
done
# a constant series on a log axis
rm -rf tree t.db
mkdir -p tree/A
probe tree/A/probe.csv 0.5
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
"$PS" ingest -q --db t.db tree 2>/dev/null
run $T "$PS" report --db t.db --no-checks --no-render --spec log.json --out const
expect_code 0 "a constant series on log axes: report finishes"
test_done

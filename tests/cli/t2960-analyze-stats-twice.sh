# t2960: --stats max,max gave JSON with the key "max" twice:
# a statistic given twice is now one column, in every format.  Also
# --stats ...,n: the count is percentiles' own n column, not a second "n".
probe() { # FILE V
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
	} > "$1"
}
mkdir -p tree/A
probe tree/A/probe.csv 0.21
echo '{"path": "A", "trial": 1}' > tree/A/meta.json
"$PS" ingest -q --db t.db tree 2>/dev/null
run "$PS" analyze percentiles --db t.db --metric connect_ms --stats max,p50,max,p50.0 --format json
expect_code 0 "--stats with repeats"
echo "$OUT" > out.json
ok "\"\$PY\" -c '
import json, sys
def unique(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
json.load(open(\"out.json\"), object_pairs_hook=unique)'" "every JSON key once"
run "$PS" analyze percentiles --db t.db --metric connect_ms --stats max,max --format csv
ok "[ \"\$(echo \"\$OUT\" | head -1 | tr ',' '\n' | grep -c '^max$')\" -eq 1 ]" "one max column in CSV"
for stats in p50,n n,p50,n; do
	run "$PS" analyze percentiles --db t.db --metric connect_ms --stats $stats --format json
	expect_code 0 "--stats $stats"
	echo "$OUT" > out.json
	ok "\"\$PY\" -c '
import json
def unique(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
rows = json.load(open(\"out.json\"), object_pairs_hook=unique)
assert rows[0][\"n\"] == 2, rows'" "--stats $stats: one n key, the count (2)"
	run "$PS" analyze percentiles --db t.db --metric connect_ms --stats $stats --format csv
	ok "[ \"\$(echo \"\$OUT\" | head -1 | tr ',' '\n' | grep -c '^n$')\" -eq 1 ]" "--stats $stats: one n column in CSV"
done
test_done

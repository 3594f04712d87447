# t3838: the report without a spec holds one campaign for every metric
# of a study.  A study measured on two days whose metrics
# have their most runs on different days (connect_ms: 2 runs on
# 2026-08-28, 3 on 2026-08-29; throughput_bps: 3 on 2026-08-28, 1 on
# 2026-08-29) used to get each metric's tables from its own day; now
# both hold 2026-08-28 (both metrics were measured on both days, and it
# has 5 runs to 4), the other day is compared against it, and the page
# states the rule.  A metric measured only on a third day says that it
# is not on the campaign the other tables hold.

export SOURCE_DATE_EPOCH=1788000000
probe() { # DIR PATH TRIAL DAY N (N makes each file's content its own)
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": $3, \"day\": \"$4\"}" > "$1/meta.json"
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,0.2$5,ok"
		echo "1,1787878800200000000,0.3$5,ok"
		echo "2,1787878800400000000,0.4$5,ok"
	} > "$1/probe.csv"
}
iperf() { # DIR PATH TRIAL DAY SOURCE-TRIAL
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": $3, \"day\": \"$4\"}" > "$1/meta.json"
	cp "$TOP/samples/tree/tokyo-osaka/2026-08-28/A/trial$5/tcp_P1.json" "$1/tcp_P1.json"
}
mkdir -p t
echo '{"study": "s1", "instance_type": "c6i.large"}' > t/meta.json
probe t/c1 A 1 2026-08-28 1
probe t/c2 A 2 2026-08-28 2
probe t/c3 A 1 2026-08-29 3
probe t/c4 A 2 2026-08-29 4
probe t/c5 A 3 2026-08-29 5
iperf t/i1 A 1 2026-08-28 1
iperf t/i2 A 2 2026-08-28 2
iperf t/i3 A 3 2026-08-28 3
mkdir -p t/i4
echo '{"path": "A", "trial": 1, "day": "2026-08-29"}' > t/i4/meta.json
cp "$TOP/samples/tree/tokyo-osaka/2026-08-28/B/trial1/tcp_P1.json" t/i4/tcp_P1.json
run "$PS" ingest --quiet --db c.db t
expect_code 0 "the two-day study ingested ($ERR)"

# what each metric alone would have picked: the day with most of its runs
run "$REAL_PY" -c "import sqlite3; print('\n'.join('|'.join(map(str, r)) for r in sqlite3.connect('c.db').execute(\"SELECT m.name, d.value, count(*) FROM runs r JOIN metrics m ON m.id = r.metric JOIN run_tags d ON d.run_id = r.id AND d.key = 'day' GROUP BY 1, 2 ORDER BY 1, 2\")))"
ok 'echo "$OUT" | grep -q "connect_ms|2026-08-29|3" && echo "$OUT" | grep -q "throughput_bps|2026-08-28|3"' \
    "connect_ms has most runs on 08-29, throughput_bps on 08-28 ($(echo $OUT))"

run "$PS" report --db c.db --init
expect_code 0 "--init exits 0 ($ERR)"
echo "$OUT" > spec.json
cat > wheres.py <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def walk(secs, out):
    for s in secs:
        if s.get("type") == "group" and "metric" in s:
            out.append((s["metric"], (s.get("where") or {}).get("day")))
        walk(s.get("sections", []), out)
out = []
walk(doc["sections"], out)
print(" ".join("%s=%s" % x for x in out))
PY
w=$("$REAL_PY" wheres.py spec.json)
ok '[ "$w" = "connect_ms=2026-08-28 throughput_bps=2026-08-28 retransmits=2026-08-28" ] || [ "$w" = "connect_ms=2026-08-28 throughput_bps=2026-08-28" ]' \
    "every metric's tables hold 2026-08-28 ($w)"

run "$PS" report --db c.db --out b --no-render
expect_code 0 "the bundle is written ($ERR)"
md=$(cat b/index.md)
case "$md" in *"One rule picks the campaign the tables hold, once per study and the same for every metric"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the introduction states the rule"
case "$md" in *"Every table below holds the runs on 2026-08-28 and c6i.large unless it says otherwise."*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the study's paragraph names its campaign"
n=$(grep -c "The tables hold the runs on 2026-08-28, the campaign every table here holds" b/index.md)
ok '[ "$n" -ge 2 ]' "each metric's paragraph says it holds that campaign ($n)"
ok '! grep -q "2026-08-29, the campaign" b/index.md' "no metric holds the other day"
case "$md" in *"#### Days against 2026-08-28"*"2026-08-29"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the other day is compared against it"

# a third metric's runs only on another day: said, not hidden
mkdir -p t2
cp -r t/* t2/
mkdir -p t2/u1
echo '{"path": "A", "trial": 1, "day": "2026-08-30"}' > t2/u1/meta.json
cp "$TOP/samples/tree/tokyo-osaka/2026-08-28/A/trial1/udp.json" t2/u1/udp.json 2>/dev/null ||
	cp "$(ls "$TOP"/samples/tree/tokyo-osaka/2026-08-28/A/trial1/udp*.json | head -1)" t2/u1/
run "$PS" ingest --quiet --db c2.db t2
expect_code 0 "with UDP runs on a third day ($ERR)"
run "$PS" report --db c2.db --out b2 --no-render
expect_code 0 "the bundle is written ($ERR)"
case "$(cat b2/index.md)" in *"UDP jitter"*"Measured only on 2026-08-30 and c6i.large, not on the campaign the other tables hold (2026-08-28 and c6i.large)."*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "a metric measured only on another day says so"
test_done

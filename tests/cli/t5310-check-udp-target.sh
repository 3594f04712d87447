# t5310: udp-sender-limited reads what the iperf3 files record before it
# accuses a run: -b 200M reached on every path is the rate asked for (no
# finding); -b 10G that no path reached is the sender's limit, said as
# such (not "-b 0"); a reverse (-R) TCP run is no yardstick for UDP.

gen() { "$PY" "$FIX/check/gen_check.py" plant "$1" --out "$1" &&
	"$PS" ingest -q --db "$1.db" "$1" 2>/dev/null; }

gen udp-target
expect_sql udp-target.db "SELECT count(*) FROM summaries WHERE metric = 'iperf3' AND stat = 'target_bitrate' AND value = 200000000" 12 "ingest stores -b 200M of every UDP run"
run "$PS" check --db udp-target.db --only udp-sender-limited
expect_code 0 "-b 200M reached on 4 paths: no finding"

gen udp-short
run "$PS" check --db udp-short.db --only udp-sender-limited --format json
expect_code 3 "-b 10G that no path reached: a finding"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert [x[\"path\"] for x in r] == [\"A\", \"B\", \"C\", \"D\"], r
x = r[0]
assert \"the files record -b 10 Gbit/s (target_bitrate)\" in x[\"evidence\"], x
assert \"-b 0\" not in x[\"evidence\"] + x[\"cause\"], x
assert \"reverse\" not in x[\"evidence\"] and \"TCP\" not in x[\"evidence\"], x
'" "the evidence names the recorded -b and compares with no -R TCP run"
test_done

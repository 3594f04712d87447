# t3861: the first article's §8 decision table with a measured MTU
# column (metric path_mtu) says for a path whose MTU could not be
# measured what the MTU table says, in the same words and with the same
# reason ("could not measure: no answer to UDP probes ..."), never "no
# samples"; measured paths keep their number, and the CSV has no number
# for the unmeasured one.

export SOURCE_DATE_EPOCH=1788000000
F="$TOP/tests/fixtures/pathprobe-mtu"
probe() { # DIR PATH
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": 1, \"day\": \"2026-08-28\"}" > "$1/meta.json"
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,8.1,ok"
		echo "1,1787878800200000000,8.3,ok"
		echo "2,1787878800400000000,8.2,ok"
	} > "$1/probe.csv"
}
mtu() { # DIR PATH MTUFILE
	mkdir -p "$1/mtu"
	echo "{\"path\": \"$2\", \"day\": \"2026-08-28\"}" > "$1/meta.json"
	cp "$3" "$1/mtu/mtu.txt"
}
for p in C D E; do probe "tree/$p/connect" $p; done
mtu tree/C/m C "$F/found.txt"
mtu tree/D/m D "$F/found.txt"
mtu tree/E/m E "$F/unknown.txt"
run "$PS" ingest -q --db m.db tree
expect_code 0 "connect runs and mtu.txt files ingest ($ERR)"

cat > spec.json <<'JSON'
{"title": "Decision", "sections": [
 {"type": "pivot", "id": "decision", "title": "Decision", "metric": "connect_ms",
  "paths": ["C", "D", "E"], "stat": "p50",
  "columns": [
   {"key": "speed", "label": "Connect p50 (ms)", "condition": ""},
   {"key": "mtu", "label": "MTU (bytes)", "metric": "path_mtu", "condition": ""}
  ]},
 {"type": "mtu", "id": "mtu", "title": "MTU"}]}
JSON
run "$PS" report --db m.db --spec spec.json --out b --no-render --no-checks
expect_code 0 "the report with an MTU column ($ERR)"
why=$("$PS" analyze mtu --db m.db --where path=E --format json |
    "$PY" -c 'import json, sys; r = json.load(sys.stdin)[0]; print(r["reason"])')
ok '[ -n "$why" ]' "the MTU table gives E's reason ($why)"
ok 'grep -qF "| E | could not measure | 9001 | 1 | $why |" b/tables/*-mtu.md' \
    "the MTU table: E could not measure, and why"
ok 'grep -qF "| E | 8.200 | could not measure: $why |" b/tables/*-decision.md' \
    "the decision table's MTU column: the same words and the same reason"
ok '! grep -q "no samples" b/tables/*-decision.md' "never 'no samples'"
ok 'grep -q "^| C | 8.200 | 8500 |" b/tables/*-decision.md' "a measured MTU keeps its number"
ok 'grep -q "^E,\"\",8.2,$" b/tables/*-decision.csv' "the CSV has no number where it could not measure"
test_done

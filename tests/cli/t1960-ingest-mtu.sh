# t1960: pathprobe --mtu results (mtu/mtu.txt in a pathstat-collect tree)
# reach the tables.  Ingest stores each as a run of the metric path_mtu
# with its result in mtu_results (schema 006): bytes, the route MTU, the
# method, and an unknown MTU as unknown with its reason, never 0 or a
# blank.  analyze mtu tables "Path | MTU (measured)" per path and per
# day (a change such as 9001 -> 8500 across days shows), report has an
# mtu section, and re-ingest replaces a changed result.

F="$TOP/tests/fixtures/pathprobe-mtu"
# session DIR PATH DAY MTUFILE: a collector session folder with mtu.txt
session() {
	mkdir -p "$1/mtu"
	printf '{"path": "%s", "day": "%s", "instance_type": "c6i.large", "session": "%s"}\n' \
	    "$2" "$3" "$(basename "$1")" > "$1/meta.json"
	cp "$4" "$1/mtu/mtu.txt"
	echo "pathprobe --mtu 10.1.0.5" > "$1/mtu/cmd.txt"
	: > "$1/mtu/stderr.txt"
	echo 0 > "$1/mtu/exit_status"
}
# C: 9001 on the first day, 8500 on the second (the change AWS made to
# inter-region peering); E: the PrivateLink NLB, no answer; B: a router
# answered EHOSTUNREACH.
sed 's/mtu=8500 /mtu=9001 /; s/2026-08-28T01/2026-08-27T01/' "$F/found.txt" > c1.txt
session res/C/20260827T010000Z C 2026-08-27 c1.txt
session res/C/20260828T010000Z C 2026-08-28 "$F/found.txt"
session res/E/20260828T020000Z E 2026-08-28 "$F/unknown.txt"
session res/B/20260828T030000Z B 2026-08-28 "$F/unreachable.txt"

run "$PS" ingest --db m.db res
expect_code 0 "a tree with mtu.txt files ingests"
expect_err_has "4 files: 4 stored" "the four mtu.txt are stored, not passed over"
expect_sql m.db "SELECT kind, count(*) FROM files GROUP BY kind" "pathprobe-mtu|4" \
    "their kind: pathprobe-mtu"
expect_sql m.db "SELECT path, day, status, coalesce(mtu, 'NULL'), route_mtu, method
    FROM mtu_view ORDER BY path, day" "B|2026-08-28|unknown|NULL|9001|udp-df
C|2026-08-27|found|9001|9001|udp-df
C|2026-08-28|found|8500|9001|udp-df
E|2026-08-28|unknown|NULL|9001|udp-df" "mtu_view: per path and day, unknown as NULL"
expect_sql m.db "SELECT count(*) FROM mtu_results WHERE mtu = 0 OR
    (status = 'unknown' AND (reason IS NULL OR reason = ''))" "0" \
    "never 0, never an unknown without its reason"
expect_sql m.db "SELECT reason FROM mtu_view WHERE path = 'E'" \
    "no answer to UDP probes with the DF bit set (UDP or ICMP filtered on the way; an NLB behind PrivateLink forwards no ICMP)" \
    "E's reason in words"
expect_sql m.db "SELECT st.name FROM samples s JOIN sample_status st ON
    st.id = s.status JOIN runs r ON r.id = s.run_id JOIN paths p ON
    p.id = r.path_id WHERE p.name = 'E'" "unmeasured" \
    "the unknown MTU's sample: no value, status unmeasured"
expect_sql m.db "SELECT tool, (SELECT name FROM metrics WHERE id = metric), trial
    FROM runs GROUP BY tool, metric, trial" "pathprobe|path_mtu|1" \
    "runs of tool pathprobe, metric path_mtu"

# The article's table: Path | MTU (measured).
run "$PS" analyze mtu --db m.db
expect_code 0 "analyze mtu: exit 0"
expect_out_has "| Path | Condition | MTU (measured) | Route MTU | Runs | Method | Why not measured |" \
    "analyze mtu: the columns"
expect_out_has "| C | – | 8500–9001 (varies) | 9001 | 2 | udp-df | – |" \
    "C: 9001 one day, 8500 the next: varies"
expect_out_has "| E | – | could not measure | 9001 | 1 | udp-df | no answer to UDP probes" \
    "E: could not measure, and why"
expect_out_has "| B | – | could not measure | 9001 | 1 | udp-df | host unreachable: a router or the host answered EHOSTUNREACH |" \
    "B: could not measure: EHOSTUNREACH"
run "$PS" analyze mtu --db m.db --by day --where path=C
expect_code 0 "analyze mtu --by day: exit 0"
expect_out_has "| C | – | 2026-08-27 | 9001 | 9001 | 1 | udp-df | – |" "C on 2026-08-27: 9001"
expect_out_has "| C | – | 2026-08-28 | 8500 | 9001 | 1 | udp-df | – |" "C on 2026-08-28: 8500"
run "$PS" analyze mtu --db m.db --where day=2026-08-28 --format json
expect_code 0 "analyze mtu --format json: exit 0"
printf '%s' "$OUT" > mtu.json
ok "\"\$PY\" -c '
import json
r = {x[\"path\"]: x for x in json.load(open(\"mtu.json\"))}
assert list(r[\"C\"]) == [\"path\", \"condition\", \"metric\", \"mtu\", \"mtu_min\", \"mtu_max\", \"status\", \"route_mtu\", \"runs\", \"measured\", \"unknown\", \"method\", \"reason\"], list(r[\"C\"])
assert (r[\"C\"][\"mtu\"], r[\"C\"][\"status\"], r[\"C\"][\"reason\"]) == (8500, \"found\", None), r[\"C\"]
assert (r[\"E\"][\"mtu\"], r[\"E\"][\"status\"], r[\"E\"][\"unknown\"]) == (None, \"unknown\", 1), r[\"E\"]
assert r[\"E\"][\"reason\"].startswith(\"no answer\"), r[\"E\"]
'" "JSON: mtu a number or null with status and reason, never 0"
run "$PS" analyze mtu --db m.db --metric connect_ms
expect_code 2 "analyze mtu --metric connect_ms: usage error"
expect_err_has "mtu tables the metric path_mtu" "... saying why"
run "$PS" analyze mtu --db m.db --where day=2026-08-01
expect_code 2 "a day no run has: usage error"
expect_err_has "bad --where: no run has day=2026-08-01" "... naming it"
run "$PS" analyze percentiles --db m.db --metric path_mtu --where day=2026-08-28
expect_code 0 "percentiles --metric path_mtu: exit 0"
expect_out_has "failures = runs that could not measure it" "... unknown results counted as failures"
run "$PS" check --db m.db
expect_code 0 "check judges no MTU result (one value per run)"

# A report section of type mtu.
cat > spec.json <<'JSON'
{"title": "Paths", "metric": "connect_ms",
 "paths": {"C": "Cross-region peering", "E": "PrivateLink", "B": "Peering, gone"},
 "sections": [
  {"type": "mtu", "id": "mtu", "title": "Path MTU", "where": {"day": "2026-08-28"}},
  {"type": "mtu", "id": "mtu-days", "title": "Path MTU per day", "by": ["day"],
   "paths": ["C"]}
 ]}
JSON
run "$PS" report --db m.db --spec spec.json --out b --no-render
expect_code 0 "report with mtu sections: exit 0"
ok 'grep -q "^| C — Cross-region peering | 8500 | 9001 | 1 | – |$" b/tables/01-mtu.md' \
    "report: C's 8500"
ok 'grep -q "^| E — PrivateLink | could not measure | 9001 | 1 | no answer to UDP probes" b/tables/01-mtu.md' \
    "report: E could not measure"
ok 'grep -q "Path MTU (measured) (path\\\\_mtu), bytes; one result per pathprobe --mtu run" b/index.md' \
    "report: the caption names the metric, no estimator"
ok 'grep -q "^| C — Cross-region peering | 2026-08-27 | 9001 |" b/tables/02-mtu-days.md &&
    grep -q "^| C — Cross-region peering | 2026-08-28 | 8500 |" b/tables/02-mtu-days.md' \
    "report: C per day, 9001 then 8500"
ok 'grep -q "\"argv\":.*\"analyze\", \"mtu\"" b/provenance.json' "provenance: the analyze mtu command"
ok '! grep -q "\\[\\^" b/tables/01-mtu.md' "no hygiene footnotes on MTU cells"

# Without a spec, the path MTU gets its mtu table per day, not percentiles.
run "$PS" report --db m.db --out auto --no-render
expect_code 0 "report without a spec: exit 0"
ok 'grep -q "^### Path MTU per day" auto/index.md && grep -q "^| C | 2026-08-27 | 9001 |" auto/index.md &&
    ! grep -q "Percentiles" auto/index.md' "... an mtu section per day, no percentiles of MTUs"

# Re-ingest: unchanged is a no-op; a changed result replaces the old one.
run "$PS" ingest --db m.db res
expect_err_has "0 stored" "unchanged tree: nothing stored again"
sed 's/target=10.1.0.5:33434 addr=10.1.0.5/target=10.1.9.9:33434 addr=10.1.9.9/' \
    "$F/found.txt" > res/E/20260828T020000Z/mtu/mtu.txt
run "$PS" ingest --db m.db res
expect_code 0 "a changed mtu.txt re-ingests"
expect_sql m.db "SELECT count(*), group_concat(status) FROM mtu_view WHERE path = 'E'" "1|found" \
    "E's result replaced, the old row gone"
expect_sql m.db "SELECT count(*) FROM mtu_results WHERE run_id NOT IN (SELECT id FROM runs)" "0" \
    "no orphan MTU rows"

# A damaged mtu.txt: rejected with the file and reason; the rest stored.
mkdir -p bad/X/s1/mtu
echo '{"path": "X"}' > bad/X/s1/meta.json
echo 'mtu=0 target=h:1 method=udp-df' > bad/X/s1/mtu/mtu.txt
run "$PS" ingest --db m.db bad
expect_code 1 "a bad mtu= value: exit 1"
expect_err_has "bad/X/s1/mtu/mtu.txt: pathprobe --mtu output: bad mtu value '0'" \
    "... naming the file and the value"
test_done

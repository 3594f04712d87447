# t2600: handshake_ms (pathprobe format 2's rtt_us, the kernel's
# SYN -> SYN/ACK round trip) through ingest and analyze, against numpy
# (tests/fixtures/handshake/gen_handshake.py wrote the tree and
# golden.json from the raw files; no pathstat code involved).  Probes
# that failed or whose SYN was retransmitted (ok, but no rtt_us) have
# no handshake RTT: they count among handshake_ms's failures, so n is
# honest about what the percentiles leave out.

cp -r "$TOP/tests/fixtures/handshake/tree" tree
run "$PS" ingest -q --db h.db tree
expect_code 0 "the format 2 tree ingests"

"$PY" "$TOP/tests/cli/helper/golden-cmp.py" \
    "$TOP/tests/fixtures/handshake/golden.json" "$PS" h.db > cmp.out 2>&1
rc=$?
while IFS= read -r line; do
	case "$line" in
	"ok - "*) _report 0 "numpy: ${line#ok - }" ;;
	"not ok - "*) _report 1 "numpy: ${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < cmp.out
ok "[ $rc = 0 ]" "every golden query matches"

# One handshake_ms row per probe: the value, or the probe's status, or
# 'unmeasured' for an ok probe without rtt_us; counted here from the
# CSV with awk.
rows() { grep -hv '^#' "$@" | grep -v '^seq,'; }
want=$(rows tree/A/trial2/probe.csv | awk -F, '{ s = $5 } $4 != "" { s = "ok" }
    $4 == "" && $5 == "ok" { s = "unmeasured" } { n[s]++ }
    END { for (k in n) print k "|" n[k] }' | sort)
expect_sql h.db "SELECT st.name, count(*) FROM samples s JOIN metrics m ON
    m.id = s.metric JOIN sample_status st ON st.id = s.status
    JOIN runs r ON r.id = s.run_id JOIN paths p ON p.id = r.path_id
    WHERE m.name = 'handshake_ms' AND p.name = 'A' AND r.trial = 2
    GROUP BY st.name ORDER BY st.name" "$want" \
    "path A trial 2: one handshake_ms row per probe, by status"
ok 'printf "%s\n" "$want" | grep -q "^unmeasured|[1-9]"' \
    "... some of them unmeasured (the fixture has retransmitted SYNs)"
want=$(rows tree/*/*/probe.csv | awk -F, '$4 == "" && $5 == "ok"' | wc -l)
expect_sql h.db "SELECT count(*) FROM sample_view WHERE metric =
    'handshake_ms' AND status = 'unmeasured' AND value IS NULL" "$want" \
    "sample_view names the unmeasured rows ($want)"
# ... and pairs with connect_ms by seq and t_us.
expect_sql h.db "SELECT count(*) FROM samples c JOIN samples h ON
    h.run_id = c.run_id AND h.seq = c.seq AND h.t_us = c.t_us
    WHERE c.metric = 1 AND h.metric = 8" "1080" \
    "every probe's two rows share seq and t_us (9 runs x 120)"

# The table says what the failures are.
run "$PS" analyze percentiles --db h.db --metric handshake_ms
expect_code 0 "percentiles --metric handshake_ms: exit 0"
expect_out_has "failures = probes without a kernel RTT (failed, or the SYN was retransmitted)" \
    "caption: what a handshake_ms failure is"
n=$(rows tree/A/*/probe.csv | awk -F, '$4 != ""' | wc -l)
expect_out_has "| A | – | $n | 3 | $((360 - n)) |" \
    "path A: n $n of 360 probes, $((360 - n)) without an RTT"

# The other verbs take it like any metric.
for v in relative trials "delta C-A" variance; do
	run "$PS" analyze $v --db h.db --metric handshake_ms
	expect_code 0 "analyze $v --metric handshake_ms: exit 0"
done
# compare sets a tag's values side by side within a path: --by path
# would give a table without rows, so it is refused, naming delta.
run "$PS" analyze compare --db h.db --metric handshake_ms --by path
expect_code 2 "analyze compare --by path: usage error"
expect_err_has "compare --by path: compare sets the values of a tag (instance_type, day, az ...) side by side within a path and condition; paths are compared with delta A-B" \
    "... naming delta"
run "$PS" analyze delta --db h.db --metric handshake_ms --format json C-A
expect_code 0 "delta C-A: exit 0"
printf '%s' "$OUT" > d.json
ok "\"\$PY\" -c 'import json,sys; d=json.load(open(\"d.json\"))[0]; sys.exit(not (d[\"metric\"] == \"handshake_ms\" and 8 < d[\"p50\"] < 9.5))'" \
    "delta C-A in handshake_ms: about 8.7 ms"
test_done

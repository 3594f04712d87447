# t5500: hidden-failures on an interrupted iperf3 run (stored as partial)
# and syn-retransmit on a probe with a 3 s timeout, against clean ones.

mkdir -p p/A/trial1 p/A/trial2 p/A/trial3
for t in 1 2 3; do printf '{"path": "A", "trial": %d}\n' $t > p/A/trial$t/meta.json; done
cp "$SAMPLES/iperf3/3.12/tcp_P1.json" p/A/trial1/tcp_P1.json
cp "$SAMPLES/iperf3/3.12/tcp_P1.json" p/A/trial2/tcp_P1.json
cp "$SAMPLES/iperf3/3.12/interrupted_sigint_client.json" p/A/trial3/
"$PS" ingest -q --db p.db p 2>/dev/null
run "$PS" check --db p.db --only hidden-failures --format json
expect_code 3 "a partial iperf3 run is a finding"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert len(r) == 1, r
x = r[0]
assert (x[\"path\"], x[\"trial\"], x[\"metric\"]) == (\"A\", 3, \"throughput_bps\"), x
assert \"stored as partial (interrupt - the client has terminated)\" in x[\"evidence\"], x
assert x[\"files\"] == \"p/A/trial3/interrupted_sigint_client.json\", x
'" "hidden-failures names the interrupted run and the reason"
run "$PS" check --db p.db --where trial=1 --only hidden-failures
expect_code 0 "counter-example: the complete runs"

"$PY" "$FIX/check/gen_check.py" plant syn --out syn
"$PS" ingest -q --db syn.db syn 2>/dev/null
run "$PS" check --db syn.db --format json
expect_code 3 "SYN retransmits in connect times"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert [x[\"check\"] for x in r] == [\"syn-retransmit\"], r
e = r[0][\"evidence\"]
assert \"4 of 400 connects took 1009 ms to 3013 ms\" in e and \"1 s (3), 3 s (1)\" in e, e
assert \"timeout was 3 s\" in e and \"1 s initial RTO\" in r[0][\"cause\"]
assert \"as loss\" in r[0][\"action\"]
'" "syn-retransmit: 3 at +1 s, 1 at +3 s, the 3 s timeout"
"$PY" "$FIX/check/gen_check.py" plant syn-clean --out clean
"$PS" ingest -q --db clean.db clean 2>/dev/null
run "$PS" check --db clean.db
expect_code 0 "counter-example: the same probe without retransmits"

# samples/tree has no connect value >= 400 ms (0.4 s timeouts instead)
cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
run "$PS" check --db s.db --only syn-retransmit
expect_code 0 "samples/tree: no SYN-retransmit mode"
test_done

# t5800: busy-client, the client's own time in connect_ms (connect_ms -
# handshake_ms per probe), on probe runs drawn from real measured ones
# (tests/fixtures/check/prober-gaps.json): a client whose CPU was shared
# while pathprobe slept, and one that wakes 0.6 ms late on every probe,
# are findings naming the run and the figures; the noisiest measured
# clean client, a --resolve-each run (DNS inside the timing on purpose)
# and format 1 runs (no handshake RTT) are not.

# figures DIR: "n median_ms slow" of the run's gaps, from the CSV alone
figures() {
	"$PY" - "$1" <<'PY'
import csv, glob, sys
f = glob.glob(sys.argv[1] + "/**/probe.csv", recursive=True)[0]
rows = [l for l in open(f) if not l.startswith("#")]
g = sorted(float(r["connect_ms"]) - int(r["rtt_us"]) / 1000.0
           for r in csv.DictReader(rows) if r["result"] == "ok" and r["rtt_us"])
n = len(g)
h = (n - 1) * 0.5
i = int(h)
med = g[i] + (h - i) * (g[i + 1] - g[i]) if i + 1 < n else g[i]
print(n, "%.3f" % med, sum(1 for x in g if x >= 1.0 - 1e-9))
PY
}

for p in busy-client busy-client-slow busy-client-clean busy-client-dns; do
	"$PY" "$FIX/check/gen_check.py" plant $p --out $p
	"$PS" ingest -q --db $p.db $p 2>/dev/null || echo "# ingest $p failed"
done

# (--stats p50,p95: a p99 of these 300-probe runs is the 3rd-slowest
# probe, which few-samples rightly flags; t5410 tests that)
run "$PS" check --db busy-client.db --stats p50,p95 --format json
expect_code 3 "a client busy while pathprobe waited: exit 3"
printf '%s' "$OUT" > busy.json
read -r n med slow <<EOF2
$(figures busy-client)
EOF2
echo "# busy-client: $n probes, median gap $med ms, $slow of them 1 ms or more"
ok "\"\$PY\" -c '
import json, sys
r = json.load(open(\"busy.json\"))
assert [x[\"check\"] for x in r] == [\"busy-client\"], r
x = r[0]
assert (x[\"path\"], x[\"trial\"], x[\"metric\"], x[\"severity\"]) == (\"C\", 1, \"connect_ms\", \"warning\"), x
assert x[\"files\"] == \"busy-client/busy-client/C/trial1/probe.csv\", x
ev = x[\"evidence\"]
assert \"over $n probes: median $med ms\" in ev, ev
share = 100.0 * $slow / $n
assert (\"; %d probes (%.1f %%) added 1 ms or more (threshold 10 %%)\" % ($slow, share)) in ev, ev
assert \"client was busy or descheduled\" in x[\"cause\"], x
assert \"publish handshake_ms\" in x[\"action\"], x
'" "busy-client names run C trial 1, its file and the figures ($slow of $n probes 1 ms late)"
ok "[ \$((slow * 10)) -ge \$n ]" "the planted run has 10 % or more slow probes by the CSV itself"

run "$PS" check --db busy-client-slow.db --only busy-client
expect_code 3 "a client 0.6 ms late on every probe: exit 3"
read -r n med slow <<EOF2
$(figures busy-client-slow)
EOF2
expect_out_has "over $n probes: median $med ms (threshold 0.5 ms)" \
    "busy-client: the median gap ($med ms) against its threshold"
expect_out_has "handshake\\_ms median 8." "... and the handshake RTT beside it"

run "$PS" check --db busy-client-clean.db --stats p50,p95
expect_code 0 "counter-example: the noisiest measured clean client"
read -r n med slow <<EOF2
$(figures busy-client-clean)
EOF2
echo "# busy-client-clean: $n probes, median gap $med ms, $slow of them 1 ms or more"
ok "[ \$slow -gt 0 ] && [ \$((slow * 10)) -lt \$n ]" \
    "... which has slow probes, fewer than 10 % ($slow of $n)"

run "$PS" check --db busy-client-dns.db --stats p50,p95
expect_code 0 "counter-example: --resolve-each times DNS on purpose"
expect_sql busy-client-dns.db "SELECT value FROM summaries WHERE stat = 'resolve_each'" \
    "1.0" "ingest keeps resolve_each from the header"

# Format 1 files have no handshake RTT: nothing to judge.
cp -r "$TOP/samples/tree/tokyo-osaka" f1
"$PS" ingest -q --db f1.db f1 2>/dev/null
run "$PS" check --db f1.db --only busy-client
expect_code 0 "format 1 probe runs: no busy-client finding"
test_done

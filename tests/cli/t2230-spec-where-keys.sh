# t2230: a report spec's where names keys that exist (a
# condition string under "condition" answered "no throughput_bps data
# where condition=P=4,proto=tcp" with no hint), and ingest takes options
# after the paths (`pathstat ingest TREE -q` read -q as a path).

cp -r "$TOP/samples/tree" tree
run "$PS" ingest --db s.db tree -q
expect_code 0 "ingest TREE -q: the option after the path is an option"
expect_err_lacks "cannot read" "... not a path that cannot be read"
expect_err_lacks "stored" "... and it is quiet"
run env POSIXLY_CORRECT=1 "$PS" ingest --db s.db tree -q
expect_code 2 "a getopt that leaves options in place: usage error"
expect_err_has "pathstat ingest: '-q' after the paths: give options before them (a path named so goes after '--')" \
    "... saying where options go"

spec() { # FILE WHERE-JSON [METRIC]
	cat > "$1" <<SPEC
{ "title": "T", "paths": {"A": "Same AZ", "B": "Cross-AZ"},
  "sections": [ { "type": "percentiles", "id": "tput",
    "metric": "${3:-throughput_bps}", "where": $2 } ] }
SPEC
}

spec cond.json '{"condition": "P=4,proto=tcp"}'
run "$PS" report --db s.db --spec cond.json --out b1 --no-render
expect_code 1 "where.condition: refused"
expect_err_has "pathstat report: cond.json: sections[0].where.condition: 'condition=P=4,proto=tcp' is a condition, not one filter: P and proto are keys of their own; write {\"P\": \"4\", \"proto\": \"tcp\"}" \
    "... naming P and proto as the keys to use"
spec cond1.json '{"condition": "udp"}'
run "$PS" report --db s.db --spec cond1.json --out b1 --no-render
expect_err_has "'condition=udp' is a condition, not one filter: proto is a key of its own; write {\"proto\": \"udp\"}" \
    "one key: proto"

spec typo.json '{"instancetype": "c6i.large"}'
run "$PS" report --db s.db --spec typo.json --out b2 --no-render
expect_code 1 "a where key no run has: the section fails"
expect_err_has "pathstat report: typo.json: sections[0]: where: no run has the key 'instancetype'; did you mean 'instance_type'? (keys: path, trial, tool, P, c, ka, proto, size, az, instance_type, region, study, via, day, hour, week, month)" \
    "... did you mean instance_type, with the keys"
expect_err_lacks "no throughput_bps data" "... not 'no data'"

spec value.json '{"instance_type": "c6i.lrge"}'
run "$PS" report --db s.db --spec value.json --out b3 --no-render
expect_err_has "sections[0]: where: no run has instance_type=c6i.lrge; did you mean 'c6i.large'?" \
    "a value no run has: did you mean c6i.large"

spec metric.json '{"P": "4"}' throughputbps
run "$PS" report --db s.db --spec metric.json --out b4 --no-render
expect_err_has "sections[0].metric: unknown metric 'throughputbps' (known: connect_ms, http_ms, throughput_bps, jitter_ms, loss_pct, retransmits, rps, handshake_ms, path_mtu, http_bps); did you mean 'throughput_bps'?" \
    "an unknown metric: did you mean throughput_bps"

spec good.json '{"P": "4", "proto": "tcp"}'
run "$PS" report --db s.db --spec good.json --out b5 --no-render
expect_code 0 "the keys the hint names make the section"

# an end-of-test metric in a report: n counts runs; no values over time
cat > rps.json <<'SPEC'
{ "title": "RPS", "where": {"size": "1m", "c": "16"},
  "sections": [ { "type": "percentiles", "id": "rps", "metric": "rps",
    "stats": "p50", "chart": {"kind": "bars"} },
  { "type": "percentiles", "id": "rps-ts", "metric": "rps",
    "chart": {"kind": "timeseries"} } ] }
SPEC
run "$PS" report --db s.db --spec rps.json --out b6 --no-render
expect_code 1 "a time series of rps: the section fails"
expect_err_has "rps.json: sections[1].chart: rps is one end-of-test value per run: it has no values over time (bars or box show it)" \
    "... saying why"
ok "grep -q 'n = 3 runs per row; trials = 3 per row' b6/index.md" \
    "the rps table's caption counts runs"
ok "grep -q '| B | 1478.6 |' b6/index.md" "B: 1478.6 req/s"
test_done

# t5100: check on samples/tree finds every planted pitfall (burst cliff,
# TIME_WAIT outlier, oha errors, probe timeouts, the 1 MB instance cap,
# UDP -b 0, A and B capped at 4.96 and 12.41, A and B's HTTP latency
# pooled over two instance types 1.09x apart) and what the tree's small
# request counts imply (one finding where days or instance types tell
# the same story), and nothing else: article 1's genuine path differences
# (C > E > D in P=4, run one path after another) are no run-order finding.
# The NLB supplement's runs (tagged via=direct and via=nlb) share C's and
# D's connect cells with the main runs when nothing selects them apart:
# trial 1 three times (unbalanced-trials); --where via= keeps the main
# runs, as article 1's day below does.
# The full list is tests/fixtures/check/samples-findings.txt.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null

run "$PS" check --db s.db --format json
expect_code 3 "findings: exit 3"
expect_err_has "25 findings (21 warnings, 4 notices): burst-cliff 1, instance-cap 3, udp-sender-limited 1, outlier-trial 1, hidden-failures 2, few-samples 11, pooled-groups 2, missing-cells 3, unbalanced-trials 1 (61 rows in CSV and JSON: one per path and cell)" "the summary line counts them by check, as the text lists them (one story on several paths is one), and says how many rows"
"$PS" check --db s.db --format md 2>/dev/null > list.md
ok '[ "$(grep -c "^[0-9]*\. " list.md)" = 25 ]' "the text lists the 25 findings the summary counts ($(grep -c "^[0-9]*\. " list.md))"
printf '%s' "$OUT" > f.json
"$PY" -c '
import json
for x in json.load(open("f.json")):
    print("%s %s %s %s %s %s" % (x["check"], x["metric"], x["path"],
          x["condition"] or "-", "-" if x["trial"] is None else x["trial"],
          x["scope"]))' | LC_ALL=C sort > got.txt
LC_ALL=C sort "$FIX/check/samples-findings.txt" > want.txt
ok "cmp -s got.txt want.txt" "exactly the expected findings ($(wc -l < want.txt))"
cmp -s got.txt want.txt || diff want.txt got.txt | head -20

# field checks: q CHECK PATH TRIAL-or-- PYTHON-EXPR-on-x
q() {
	"$PY" -c '
import json, sys
check, path, cond, expr = sys.argv[1:5]
r = [x for x in json.load(open("f.json")) if x["check"] == check and
     x["path"] == path and (cond == "*" or x["condition"] == cond)]
assert r, "no such finding"
x = r[0]
assert eval(expr), (expr, x)' "$@"
}
ok "q burst-cliff C P=4,proto=tcp 'x[\"trial\"] == 3 and x[\"files\"] == \"tree/tokyo-osaka/2026-08-28/C/trial3/tcp_P4.json\"'" "burst-cliff names C's trial-3 P=4 file"
ok "q burst-cliff C P=4,proto=tcp '\"10.46 Gbit/s\" in x[\"evidence\"] and \"0.77 Gbit/s\" in x[\"evidence\"] and \"at 16 s\" in x[\"evidence\"]'" "burst-cliff: 10.46 -> 0.77 Gbit/s at 16 s"
ok "q burst-cliff C P=4,proto=tcp '\"burst credits\" in x[\"cause\"] and \"fresh\" in x[\"action\"]'" "burst-cliff: cause and action"
ok "q outlier-trial F c=1,ka=off,size=1k 'x[\"trial\"] == 2 and \"5.1×\" in x[\"evidence\"] and \"3.395 ms\" in x[\"evidence\"]'" "outlier-trial: F trial 2 at 5.1x"
ok "q outlier-trial F c=1,ka=off,size=1k '\"TIME_WAIT\" in x[\"cause\"] and \"tcp_tw_reuse\" in x[\"action\"] and \"--rst\" in x[\"action\"]'" "outlier-trial: TIME_WAIT, tcp_tw_reuse and --rst"
ok "q hidden-failures H '*' 'x[\"trial\"] == 3 and \"3 of 303 requests failed\" in x[\"evidence\"] and \"connection closed before message completed ×3\" in x[\"evidence\"]'" "hidden-failures: H's 3 oha errors"
ok "q hidden-failures E '' '\"2 of 300 probes failed: 2 timeout\" in x[\"evidence\"] and x[\"files\"].endswith(\"2026-08-29/E/trial1/probe.csv\")'" "hidden-failures: E's 2 timeouts on 2026-08-29"
ok "q instance-cap G c=16,ka=on,size=1m '\"all 5 paths at the instance\x27s 12.3–12.4 Gbit/s\" in x[\"evidence\"] and \"c7g.xlarge\" in x[\"cause\"] and \"not measurable\" in x[\"action\"]'" "instance-cap: 5 paths at 12.4 Gbit/s on c7g.xlarge"
ok "q udp-sender-limited A P=1,proto=udp '\"same rate on 4 paths\" in x[\"evidence\"] and \"2.41-4.96 Gbit/s\" in x[\"evidence\"] and \"-b 0\" in x[\"cause\"]'" "udp-sender-limited: 4.98 on A-D while TCP differs"
ok "q few-samples H c=16,ka=on,size=1m '\"p99 needs ≥ 299\" in x[\"evidence\"] and \"2,995\" in x[\"evidence\"] and \"2nd-slowest\" in x[\"evidence\"] and \"150 successful requests\" in x[\"evidence\"]'" "few-samples: 150-request runs"
ok "q few-samples A c=1,ka=on,size=1k 'x[\"evidence\"].split(\"; instance_type=c6i.large: \")[0].startswith(\"in 2 of 2 instance types: instance_type=c7g.xlarge: p99.9 needs ≥ 2,995\") and \"p99 needs\" not in x[\"evidence\"].split(\"; instance_type=c6i.large: \")[0] and \"1,500 pooled\" in x[\"evidence\"]'" "few-samples: 500 requests pass p99, fail p99.9 (c7g.xlarge's numbers, each instance type's quoted)"
ok "q missing-cells E P=1,proto=udp '\"A, B, C, D (4 of 5 paths)\" in x[\"evidence\"] and \"not measured\" in x[\"action\"]'" "missing-cells: E has no UDP"

run "$PS" check --db s.db
expect_out_has "**instance-cap** (warning): http_ms, paths B, D, G, G', H, c=16,ka=on,size=1m" "Markdown tells a shared story once, with every path"
expect_out_has "paths A, B, D, F, G, G', H, c=1,ka=off,size=1k" "Markdown merges cells with the same evidence"

run "$PS" check --db s.db --where day=2026-08-28 --where study=tokyo-osaka --where via= --format json
expect_code 3 "--where limits the runs"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert sorted({x[\"check\"] for x in r}) == [\"burst-cliff\", \"few-samples\", \"instance-cap\", \"missing-cells\", \"udp-sender-limited\"], r; f=[x for x in r if x[\"check\"]==\"few-samples\"]; assert f and all(x[\"metric\"]==\"connect_ms\" and \"p99 of 300 is about the 3rd-slowest\" in x[\"evidence\"] for x in f), f'" "article 1's day: cliff, A and B capped, UDP and E's missing UDP, and p99 of 300 probes (the 3rd-slowest)"
run "$PS" check --db s.db --where day=2026-08-28 --where study=tokyo-osaka --only run-order,outlier-trial,syn-retransmit
expect_code 0 "article 1's clean table: no run-order, outlier or SYN finding"

run "$PS" check --db s.db --where study=ecs-conn --stats p50 --only few-samples
expect_code 0 "--stats p50: no cell is too small for a median"
run "$PS" check --db s.db --where study=tokyo-osaka --where day=2026-08-28 --stats p99 --only few-samples --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); t=[x for x in r if x[\"metric\"]==\"throughput_bps\"]; assert len(t) == 14 and all((\"3 successful samples\" if \"udp\" in x[\"condition\"] else \"90 successful samples\") in x[\"evidence\"] for x in t), r'" "--stats p99 applies to throughput: 90 intervals per TCP cell, one receiver value a UDP run"

start=$(date +%s)
run "$PS" check --db s.db
end=$(date +%s)
ok "[ $((end - start)) -le 5 ]" "the sample tree is checked in seconds ($((end - start)) s)"
test_done

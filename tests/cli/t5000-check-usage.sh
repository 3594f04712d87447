# t5000: check's command line: help, bad options (exit 2), a missing
# database (exit 1), clean (exit 0) and findings (exit 1), --only, the
# three formats and the JSON keys report/ and scripts rely on.

run "$PS" check --help
expect_code 0 "check --help exits 0"
for id in burst-cliff run-order instance-cap udp-sender-limited outlier-trial \
    hidden-failures syn-retransmit few-samples mixed-estimators missing-cells \
    unbalanced-trials; do
	expect_out_has "$id" "help lists $id"
done
run "$PS" help check
expect_code 0 "pathstat help check"
expect_out_has "usage: pathstat check" "help check prints the usage"
run "$PS"
expect_err_has "check" "the command list names check"

for bad in "--only bogus" "--only burst-cliff,nope" "--only ," "--format yaml" \
    "--stats p101" "--stats max" "--where nokey" "--bogus" "extra-arg"; do
	run "$PS" check --db x.db $bad
	expect_code 2 "bad invocation '$bad': exit 2"
done
run "$PS" check --db x.db --only nope
expect_err_has "unknown check 'nope'" "an unknown check is named"

run "$PS" check --db nowhere.db
expect_code 1 "missing database: exit 1"
expect_err_has "nowhere.db" "missing database named"

# one clean probe: nothing to find
"$PY" "$FIX/check/gen_check.py" plant syn-clean --out clean
"$PS" ingest -q --db c.db clean 2>/dev/null
for f in md csv json; do
	run "$PS" check --db c.db --format $f
	expect_code 0 "clean runs, --format $f: exit 0"
	expect_err_has "no findings" "--format $f: the summary line says so"
done
run "$PS" check --db c.db --format json
ok "[ \"\$OUT\" = '[]' ]" "clean JSON is an empty array"
run "$PS" check --db c.db
expect_out_has "No findings" "clean Markdown says so"

# the same probe with retransmitted SYNs: one finding
"$PY" "$FIX/check/gen_check.py" plant syn --out syn
"$PS" ingest -q --db s.db syn 2>/dev/null
run "$PS" check --db s.db
expect_code 3 "a finding: exit 3 (1 is a failure)"
expect_err_has "1 finding (1 warning, 0 notices): syn-retransmit 1" "summary line on stderr"
expect_out_has "1. **syn-retransmit** (warning): connect_ms, path C" "Markdown names check, metric and path"
for w in "Evidence:" "Likely cause:" "What to do:" "Files: \`syn/syn/C/trial1/probe.csv\`"; do
	expect_out_has "$w" "Markdown has '$w'"
done
# findings are 3, a failure 1, even when it follows the findings
if [ -w /dev/full ]; then
	run sh -c "\"$PS\" check --db s.db > /dev/full"
	expect_code 1 "findings printed to a full disk: exit 1 (a failure), not 3"
fi
run "$PS" check --db nowhere.db
expect_code 1 "no database: exit 1, not a finding"
run "$PS" check --db s.db --format json
expect_code 3 "JSON with a finding: exit 3"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c '
import json, sys
r = json.load(sys.stdin)
assert len(r) == 1, r
want = [\"check\", \"severity\", \"metric\", \"path\", \"condition\", \"trial\",
        \"scope\", \"runs\", \"files\", \"evidence\", \"cause\", \"action\"]
assert list(r[0]) == want, list(r[0])
x = r[0]
assert x[\"check\"] == \"syn-retransmit\" and x[\"severity\"] == \"warning\"
assert x[\"path\"] == \"C\" and x[\"condition\"] == \"\" and x[\"trial\"] == 1
assert x[\"files\"] == \"syn/syn/C/trial1/probe.csv\" and x[\"runs\"] == \"1\"
'" "JSON: one flat object with the documented keys, in order"
run "$PS" check --db s.db --format csv
expect_out_has "check,severity,metric,path,condition,trial,scope,runs,files,evidence,cause,action" "CSV header"
run "$PS" check --db s.db --only burst-cliff,few-samples
expect_code 0 "--only leaves the other checks out"
run "$PS" check --db s.db --where path=X
expect_code 2 "--where naming a path no run has: usage error"
expect_err_has "pathstat check: bad --where: no run has the path 'X' (paths: C)" \
    "... naming the paths"
run "$PS" check --db s.db --where path=C --where trial=99
expect_code 2 "a trial no run has: usage error"
run "$PS" check --db s.db --where path=
expect_code 1 "--where that together matches nothing: exit 1, not a clean bill"
expect_err_has "pathstat check: no run matches all the --where filters together: nothing to check" \
    "... saying so"
PATHSTAT_DB=s.db run "$PS" check --format json
expect_code 3 "\$PATHSTAT_DB names the database"
test_done

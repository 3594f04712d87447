# t1902: with --layout A --layout B only B
# counted: every file that only A matched was rejected with "the layout
# 'B' does not match", and nothing said A was dropped.  Now the first
# layout that matches a file applies; a file none matches names them
# all; a layout no file matched is named.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read nfiles nruns < counts
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
echo "not a result" > results/2026-09-01/c6i.large/README.txt

run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "two layouts: exit 0 (README.txt is skipped, not rejected)"
expect_err_lacks "does not match" "no file is refused for the layout it did not match"
expect_sql t.db "SELECT count(*) FROM runs" "$nruns" "every run of both kinds is stored"
expect_sql t.db "SELECT count(*) FROM run_view WHERE tool = 'pathprobe' AND path IN ('A', 'B') AND trial BETWEEN 1 AND 3" 6 \
    "the .csv files got their keys from the second layout"
expect_sql t.db "SELECT count(*) FROM run_view WHERE tool = 'iperf3' AND day = '2026-09-01'" 30 \
    "the .json files got theirs from the first"

# the first that matches wins, even when a later one would too
run "$PS" ingest --db first.db --layout "{tag:day}/{tag:instance_type}/{path}_{*}" --layout "$L.json" \
    --layout "$L.csv" results/2026-09-01/c6i.large/A_tcp_P4_run2.json
expect_code 0 "a catch-all first"
expect_sql first.db "SELECT path || ' ' || trial || ' ' || condition FROM run_view" "A 1 P=4,proto=tcp" \
    "its keys, not the later layouts' (no trial: 1; the file's own condition)"
expect_err_has "warning: --layout '$L.json' matched no file (or an earlier layout matched each first)" \
    "a layout that matched nothing is named"

# a file no layout matches names every layout
mkdir -p other/x && cp results/2026-09-01/c6i.large/A_tcp_R_run1.json other/x/odd-name.json
run "$PS" ingest --db o.db --layout "$L.json" --layout "$L.csv" other
expect_code 1 "a file no layout matches: exit 1"
expect_err_has "other/x/odd-name.json: no path ID: none of the layouts ('$L.json', '$L.csv') matches this file, and no meta.json or --tag gives one" \
    "both layouts are named"
expect_err_has "warning: --layout '$L.json' matched no file" "the unused layouts are named"

# many files rejected for one reason: said once, with the count
run "$PS" ingest --db one.db --layout "$L.json" results
expect_code 1 "the .csv files without their layout: exit 1"
expect_err_has "pathstat ingest: no path ID: the layout '$L.json' does not match this file, and no meta.json or --tag gives one: 6 files (first 'results/2026-09-01/c6i.large/A_probe_run1.csv'; --dry-run lists each)" \
    "one reason, said once for its six files"
ok "[ \$(printf '%s\n' \"\$ERR\" | grep -c 'no path ID') = 1 ]" "one line"
expect_sql one.db "SELECT count(*) FROM files WHERE status = 'rejected' AND reason LIKE 'no path ID%'" 6 \
    "each is recorded with its reason (runs --files lists them)"

# a bad second layout is a usage error, naming it
run "$PS" ingest --db t.db --layout "$L.json" --layout '{path' results
expect_code 2 "a bad --layout: exit 2"
expect_err_has "bad --layout '{path': '{' without '}'" "the bad one is named"
test_done

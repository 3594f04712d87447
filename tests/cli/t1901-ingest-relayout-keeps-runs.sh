# t1901: a re-ingest with another layout used
# to delete good runs: a probe file stored with a .csv layout was
# "rejected ... no path ID" under a .json layout and its run was gone; on
# the whole tree every probe run vanished while the summary said only
# "rejected".  Now the file keeps its runs, is named, and the exit
# status is 1; the summary counts it as kept.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read nfiles nruns < counts
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
F=results/2026-09-01/c6i.large/B_probe_run2.csv

# one file, named alone: the layout sees the folders it is in
run "$PS" ingest --db one.db --layout "$L.csv" "$F"
expect_code 0 "one file with the .csv layout: stored"
expect_sql one.db "SELECT path || ' ' || trial || ' ' || tool || ' ' || day || ' ' || instance_type FROM run_view" \
    "B 2 pathprobe 2026-09-01 c6i.large" "its keys from the layout"
run "$PS" ingest --db one.db --layout "$L.json" "$F"
expect_code 1 "the same file with a .json layout: exit 1"
expect_err_has "pathstat ingest: c6i.large/B_probe_run2.csv: now rejected: no path ID: the layout '$L.json' does not match this file, and no meta.json or --tag gives one: the runs it gave before are kept (give it a path ID again, or remove it and run ingest --prune)" \
    "the file is named, with why and what happened to its runs"
expect_err_has "1 files: 0 stored (0 partial), 0 unchanged, 0 skipped, 0 rejected, 1 kept as stored; runs: 0 added, 0 replaced, 0 removed, 1 in the database" \
    "the summary counts it as kept"
expect_sql one.db "SELECT path || ' ' || trial FROM run_view" "B 2" "its run is still there"
expect_sql one.db "SELECT status FROM files" "ok" "its file is still recorded as read"

# the whole tree: every probe file keeps its run
run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "the tree with both layouts"
expect_sql t.db "SELECT count(*) FROM runs" "$nruns" "every run stored"
run "$PS" ingest --db t.db --layout "$L.json" results
expect_code 1 "the tree with the .json layout only: exit 1"
expect_err_has "pathstat ingest: now rejected: no path ID: the layout '$L.json' does not match this file, and no meta.json or --tag gives one: 6 files (first 'results/2026-09-01/c6i.large/A_probe_run1.csv'; --dry-run lists each): the runs it gave before are kept" \
    "said once for the six probe files"
expect_err_has "36 files: 0 stored (0 partial), 30 unchanged, 0 skipped, 0 rejected, 6 kept as stored; runs: 0 added, 0 replaced, 0 removed, $nruns in the database" \
    "the summary: 6 kept, no run removed"
expect_sql t.db "SELECT count(*) FROM runs WHERE tool = 'pathprobe'" 6 "all six probe runs are there"
expect_sql t.db "SELECT count(*) FROM runs" "$nruns" "and every other run"
run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "both layouts again: exit 0"
expect_err_has "36 unchanged" "nothing to do"
test_done

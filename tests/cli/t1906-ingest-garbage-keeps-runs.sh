# t1906: a good file overwritten with garbage
# made its run vanish with exit 0 ("skipped: not a known result format",
# and the stored trial was gone).  Now a file that gave runs keeps them
# while it is garbage, empty, cut short into nothing, or unreadable: it
# is named and the exit status is 1, every time, until it is good again.
# A good file replaced by another good one replaces its runs, named.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read nfiles nruns < counts
D=results/2026-09-01/c6i.large
F=$D/B_probe_run2.csv
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
ing() { run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" "$@" results; }
probe2() { sql t.db "SELECT count(*) || ' ' || coalesce(sum(samples), 0) FROM (SELECT (SELECT count(*) FROM samples s WHERE s.run_id = r.run_id) AS samples FROM run_view r WHERE path = 'B' AND trial = 2 AND tool = 'pathprobe')"; }

ing
expect_code 0 "the tree"
cp "$F" good.csv
expect_sql t.db "SELECT count(*) FROM runs" "$nruns" "every run"

echo garbage > "$F"
ing
expect_code 1 "garbage over a good file: exit 1"
expect_err_has "pathstat ingest: $F: now skipped: not a known result format: the runs it gave before are kept (restore it, or remove it and run ingest --prune)" \
    "named, with what happened to its runs"
expect_err_has "$nfiles files: 0 stored (0 partial), $((nfiles - 1)) unchanged, 0 skipped, 0 rejected, 1 kept as stored; runs: 0 added, 0 replaced, 0 removed, $nruns in the database" \
    "the summary: kept, nothing removed"
ok '[ "$(probe2)" = "1 3" ]' "its run and samples are there ($(probe2))"
expect_sql t.db "SELECT status || ' ' || kind FROM files WHERE relpath = '$F'" "ok pathprobe-csv" "its file is still the good one"
ing
expect_code 1 "and again: still exit 1"
expect_err_has "$F: now skipped" "still named"

: > "$F"
ing
expect_code 1 "an empty file over a good one: exit 1"
expect_err_has "$F: now rejected: empty file (the tool wrote nothing): the runs it gave before are kept" "named"
head -c 40 good.csv > "$F"
ing
expect_code 1 "a file cut before its first probe: exit 1"
expect_err_has "$F: now rejected:" "named"
ok '[ "$(probe2)" = "1 3" ]' "the run is still there"

cp good.csv "$F"
PATHSTAT_TEST_UNLINK_AFTER_WALK=$F ing
expect_code 1 "a file gone between walk and read: exit 1"
expect_err_has "$F: vanished while the tree was being read: the runs it gave before are kept" "named"
ok '[ "$(probe2)" = "1 3" ]' "the run is still there"

cp good.csv "$F"
ing
expect_code 0 "the good file back: exit 0"
expect_err_has "$nfiles unchanged" "it is what was stored: unchanged"

# a good file replaced by another good one: its runs are replaced, named
sed 's/,0\.\([0-9]*\),ok/,1.\1,ok/' good.csv > "$F"
ing
expect_code 0 "another good file: exit 0"
expect_err_has "pathstat ingest: $F: content changed: its 1 run (3 samples) replaced by 1 (3)" "the replacement is named, runs and samples"
expect_err_has "runs: 0 added, 1 replaced, 0 removed, $nruns in the database" "and counted"
expect_sql t.db "SELECT count(*) FROM samples s JOIN run_view r ON r.run_id = s.run_id WHERE r.file = '$F' AND s.value >= 1" 3 \
    "its samples are the new ones"
test_done

# t1904: a renamed file kept its old keys and
# name: after mv A_tcp_P4_run1.json A_tcp_P4_run3.json a re-ingest said
# "1 skipped" (same content as the old name), then "1 unchanged", and
# there was no trial 3.  A rename is a gone file and a new one: the new
# name is stored with its own keys, the old one is reported gone, and
# --prune removes it.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read nfiles nruns < counts
D=results/2026-09-01/c6i.large
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
ing() { run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" "$@" results; }
trials() { sql t.db "SELECT group_concat(trial || ':' || file, ' ') FROM (SELECT trial, file FROM run_view WHERE path = 'A' AND condition = 'P=4,proto=tcp' ORDER BY trial)"; }

ing
expect_code 0 "the tree"
mv "$D/A_tcp_P4_run1.json" "$D/A_tcp_P4_run4.json"
ing
expect_code 0 "after the rename: exit 0"
expect_err_lacks "same content" "the new name is not taken for a copy of the old"
expect_err_has "pathstat ingest: warning: $D/A_tcp_P4_run1.json: gone from the tree: its 1 run kept" "the old name is gone, named"
expect_err_has "pathstat ingest: warning: 1 file gone: its 1 run kept; --prune removes it" "and counted"
expect_err_has "$nfiles files: 1 stored (0 partial), $((nfiles - 1)) unchanged, 0 skipped, 0 rejected, 0 kept as stored; runs: 1 added, 0 replaced, 0 removed, $((nruns + 1)) in the database" \
    "the summary: one run added, none removed"
ok '[ "$(trials)" = "1:$D/A_tcp_P4_run1.json 2:$D/A_tcp_P4_run2.json 3:$D/A_tcp_P4_run3.json 4:$D/A_tcp_P4_run4.json" ]' \
    "trial 4 under its new name; trial 1 kept until pruned ($(trials))"
ing
expect_err_has "$nfiles unchanged" "again: nothing new"
expect_err_has "1 file gone" "the gone file is still said"
ing --prune
expect_code 0 "--prune: exit 0"
expect_err_has "pathstat ingest: $D/A_tcp_P4_run1.json: gone: removed, with its 1 run" "--prune names the file it removes"
expect_err_has "runs: 0 added, 0 replaced, 1 removed, $nruns in the database" "the summary counts the run removed"
ok '[ "$(trials)" = "2:$D/A_tcp_P4_run2.json 3:$D/A_tcp_P4_run3.json 4:$D/A_tcp_P4_run4.json" ]' \
    "trials 2, 3 and 4: the renamed file's keys apply ($(trials))"
expect_sql t.db "SELECT count(*) FROM files WHERE relpath = '$D/A_tcp_P4_run1.json'" 0 "the old name is forgotten"
ing
expect_err_lacks "gone" "after --prune nothing is gone"
test_done

# t1905: a deleted file stayed in the database
# forever, in every table, and nothing said so.  Now files the database
# has under the folders walked that are gone are reported (their runs
# kept), --dry-run lists them, and --prune removes them, naming each.
# Only what was walked is judged: a folder not given, or a file still
# there but passed over by the walk, is not gone.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read n1 r1 < counts
"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-02 > counts
read n2 r2 < counts
D=results/2026-09-01/c6i.large
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
ing() { run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" "$@"; }

ing results
expect_code 0 "two days"
rm "$D/B_probe_run2.csv"
ing results
expect_code 0 "a file deleted: exit 0"
expect_err_has "pathstat ingest: warning: $D/B_probe_run2.csv: gone from the tree: its 1 run kept" "named"
expect_err_has "pathstat ingest: warning: 1 file gone: its 1 run kept; --prune removes it" "counted, with the way out"
expect_sql t.db "SELECT count(*) FROM run_view WHERE path = 'B' AND tool = 'pathprobe' AND trial = 2 AND day = '2026-09-01'" 1 \
    "its run is kept"

# a folder inside the tree, given alone, judges only itself
ing results/2026-09-02
expect_err_lacks "gone" "ingesting the other day finds nothing gone"

# a file the walk passes over but that is there is not gone
ln -s /etc/hostname "$D/A_oha_run9.json" 2>/dev/null
mv "$D/A_oha_run1.json" "$D/.A_oha_run1.json"
ln -s "$TMP/$D/.A_oha_run1.json" "$D/A_oha_run1.json"
run "$PS" ingest -n --db t.db --layout "$L.json" --layout "$L.csv" results
expect_out_lacks "A_oha_run1.json: gone" "a symlink to a hidden file inside the tree is the file"
rm "$D/A_oha_run1.json" "$D/A_oha_run9.json"
mv "$D/.A_oha_run1.json" "$D/A_oha_run1.json"

# a whole day deleted: 36 files; ten are named, all are counted
rm -r results/2026-09-02
ing results
expect_code 0 "a day deleted: exit 0"
expect_err_has "pathstat ingest: warning: $((n2 + 1)) files gone: their $((r2 + 1)) runs kept; --prune removes them (--dry-run lists every one)" \
    "the day's files and runs are counted"
ok "[ \$(printf '%s\n' \"\$ERR\" | grep -c 'gone from the tree') = 10 ]" "ten are named"
run "$PS" ingest -n --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "--dry-run: exit 0"
ok "[ \$(printf '%s\n' \"\$OUT\" | grep -c ': gone: its 1 run kept until --prune$') = $((n2 + 1 - 6)) ]" \
    "--dry-run lists every gone file (the bidir ones have two runs)"
expect_out_has "results/2026-09-02/c6i.large/A_tcp_bidir_run1.json: gone: its 2 runs kept until --prune" \
    "with its runs"
expect_err_has "$((n2 + 1)) gone ($((r2 + 1)) runs)" "and counts them"
expect_sql t.db "SELECT count(*) FROM runs" "$((r1 + r2))" "--dry-run removed nothing"

ing --prune results
expect_code 0 "--prune: exit 0"
ok "[ \$(printf '%s\n' \"\$ERR\" | grep -c ': gone: removed, with its') = $((n2 + 1)) ]" "--prune names every file it removes"
expect_err_has "pathstat ingest: $D/B_probe_run2.csv: gone: removed, with its 1 run" "one of them"
expect_err_has "runs: 0 added, 0 replaced, $((r2 + 1)) removed, $((r1 - 1)) in the database" "the summary counts the runs removed"
expect_sql t.db "SELECT count(*) FROM run_tags WHERE key = 'day' AND value = '2026-09-02'" 0 "no run of the day is left"
expect_sql t.db "SELECT count(*) FROM files WHERE relpath LIKE 'results/2026-09-02/%' OR relpath = '$D/B_probe_run2.csv'" 0 \
    "nor their files"
expect_sql t.db "SELECT count(*) FROM runs" "$((r1 - 1))" "the other day's runs are all there"
expect_sql t.db "SELECT count(*) FROM runs r WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.id = r.file_id OR f.id = r.summary_file_id)" 0 \
    "no run is left without its file"
for t in samples sample_values summaries run_tags run_counts; do
	expect_sql t.db "SELECT count(*) FROM $t x WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = x.run_id)" 0 \
	    "no row of $t is left without its run"
done
test_done

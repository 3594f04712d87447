# t1907: -q did not silence 252 lines of
# "keys say dir=bidir but the file says dir=bidir-up", and a partial
# file's reason was printed twice ("truncated JSON at byte 3000: ...;
# truncated JSON at byte 3000: ...").  Now a layout's bidir agrees with
# the file's bidir-up/bidir-down, a disagreement is said once for all
# its files, each reason once, and -q prints errors only.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 > counts
read nfiles nruns < counts
D=results/2026-09-01/c6i.large
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
for f in "$D"/*_tcp_P4_*.json; do mv "$f" "$(echo "$f" | sed 's/_P4_/_P8_/')"; done

run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "exit 0"
expect_err_lacks "dir=bidir" "bidir in a name agrees with the file's bidir-up and bidir-down"
expect_err_has "pathstat ingest: warning: the keys say P=8 but the file says P=4: 6 files (first '$D/A_tcp_P8_run1.json'): using the file's" \
    "a real disagreement: said once, with the files it concerns"
ok "[ \$(printf '%s\n' \"\$ERR\" | grep -c 'the keys say') = 1 ]" "one line for six files"
expect_sql t.db "SELECT count(*) FROM run_view WHERE condition = 'P=4,proto=tcp'" 6 "the file's own P is stored"

run "$PS" ingest -q --force --db q.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "-q: exit 0"
ok '[ -z "$ERR" ] && [ -z "$OUT" ]' "-q: nothing at all on stderr or stdout ($ERR)"
expect_sql q.db "SELECT count(*) FROM runs" "$nruns" "-q: everything stored"

# a cut --bidir file: two runs cut at the same byte, and the file too
mkdir -p cut/A
head -c 3000 "$SAMPLES/iperf3/3.12/tcp_bidir.json" > cut/A/bidir.json
run "$PS" ingest --db c.db --tag path=A cut
expect_code 0 "a cut --bidir file is partial: exit 0"
expect_err_has "pathstat ingest: cut/A/bidir.json: partial: truncated JSON at byte 3000: kept 1 complete intervals, no end-of-test summary
" "its reason, once"
ok "[ \$(printf '%s\n' \"\$ERR\" | grep -o 'truncated JSON' | wc -l) = 1 ]" "and only once"
expect_sql c.db "SELECT reason FROM files" "truncated JSON at byte 3000: kept 1 complete intervals, no end-of-test summary" \
    "the file's recorded reason, once"

# -q keeps errors, and only them
echo garbage > cut/A/bidir.json
printf '' > cut/A/empty.json
run "$PS" ingest -q --db c.db --tag path=A cut
expect_code 1 "-q with errors: exit 1"
ok "[ \"\$ERR\" = \"pathstat ingest: cut/A/bidir.json: now skipped: not a known result format: the runs it gave before are kept (restore it, or remove it and run ingest --prune)
pathstat ingest: cut/A/empty.json: empty file (the tool wrote nothing)\" ]" \
    "-q: the errors and nothing else ($ERR)"
test_done

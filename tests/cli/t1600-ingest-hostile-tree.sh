# t1600: a hostile synced tree.  meta.json follows the data
# files' rules (a link out of the tree is refused and then not applied);
# FIFOs never block (a FIFO named meta.json, a data file swapped for a
# FIFO after the walk); a file swapped for a link out of the tree after
# the walk is judged by what was opened; an empty folder is fine under
# UBSan; a link to a folder walked before is no loop; half-valid
# metadata is refused whole, with its reason, also on a re-run; text
# after the JSON object, a \u0000 in a key, bytes that are not UTF-8 in
# meta.json or in a folder's name never reach the database or JSON
# output.  Everything that could hang runs under timeout(1), so a
# regression fails instead of hanging the suite.

T="timeout 60"
probe() { # FILE VALUE
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=2 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$2,ok"
	} > "$1"
}

# ---- meta.json: a link out of the tree is refused, then not applied
mkdir -p tree/A tree/B elsewhere
echo '{"path": "OUTSIDE", "region": "evil"}' > elsewhere/o.json
ln -s "$TMP/elsewhere/o.json" tree/A/meta.json
probe tree/A/probe.csv 1.5
echo '{"path": "B", "trial": 1}' > tree/B/meta.json
probe tree/B/probe.csv 2.5
run $T "$PS" ingest --db m.db tree
expect_code 1 "a meta.json linking out of the tree: exit 1"
expect_err_has "tree/A/meta.json: meta.json refused: symlink leads out of the tree" "the link is refused, named"
expect_err_has "tree/A/probe.csv: a meta.json above it is broken (tree/A/meta.json: symlink leads out" "the file below it says why"
expect_sql m.db "SELECT count(*) FROM paths WHERE name = 'OUTSIDE'" 0 "the outside file's path is not stored"
expect_sql m.db "SELECT count(*) FROM run_tags WHERE value = 'evil'" 0 "nor its tags"
expect_sql m.db "SELECT status FROM files WHERE relpath = 'tree/A/probe.csv'" rejected "the file is recorded as rejected"
expect_sql m.db "SELECT count(*) FROM run_view WHERE path = 'B'" 1 "the rest is stored"
# a link inside the tree is followed, as for data files
rm tree/A/meta.json && ln -s ../B/meta.json tree/A/meta.json
run $T "$PS" ingest --db m.db tree
expect_code 0 "a meta.json linking inside the tree is used"
expect_sql m.db "SELECT count(*) FROM run_view WHERE path = 'B'" 2 "with its keys"

# ---- FIFOs: as meta.json, as a data file, and swapped in after the walk
mkdir -p fifo/A fifo/B swapf/C1 swapf/C2
mkfifo fifo/A/meta.json
probe fifo/A/probe.csv 1
echo '{"path": "B", "trial": 1}' > fifo/B/meta.json
mkfifo fifo/B/probe.csv
run $T "$PS" ingest --db f.db fifo
ok "[ $RC != 124 ]" "a FIFO named meta.json or probe.csv does not block ingest"
expect_code 1 "and is refused: exit 1"
expect_err_has "fifo/A/meta.json: meta.json refused: not a regular file (a FIFO)" "the FIFO meta.json is named"
expect_err_has "fifo/B/probe.csv: skipped: not a regular file" "the FIFO data file is skipped"
echo '{"path": "C", "trial": 1}' > swapf/C1/meta.json
echo '{"path": "C", "trial": 2}' > swapf/C2/meta.json
probe swapf/C1/probe.csv 3
probe swapf/C2/probe.csv 4
mkfifo swapf/.fifo
PATHSTAT_TEST_RENAME_AFTER_WALK=swapf/.fifo:swapf/C2/probe.csv \
    run $T "$PS" ingest --db f.db swapf
ok "[ $RC != 124 ]" "a data file swapped for a FIFO after the walk does not block"
expect_code 1 "and is refused: exit 1"
expect_err_has "swapf/C2/probe.csv: not a regular file (a FIFO)" "it is judged by what was opened"
expect_sql f.db "SELECT group_concat(trial) FROM run_view WHERE path = 'C'" 1 "the other file is stored"

# ---- a data file swapped for a link out of the tree after the walk
mkdir -p swap/A
echo '{"path": "S", "trial": 1}' > swap/A/meta.json
probe swap/A/probe.csv 1
probe elsewhere/secret.csv 666
ln -s "$TMP/elsewhere/secret.csv" swap/.link
PATHSTAT_TEST_RENAME_AFTER_WALK=swap/.link:swap/A/probe.csv \
    run $T "$PS" ingest --db s.db swap
expect_code 1 "a file swapped for a link out of the tree: exit 1"
expect_err_has "swap/A/probe.csv: replaced by another file since the tree was walked" "it is named and not read"
expect_sql s.db "SELECT count(*) FROM samples" 0 "the outside file's content is not stored"

# ---- an empty folder (qsort(NULL, 0) under UBSan), links to folders
mkdir -p empty/A/nothing/deeper empty/B
echo '{"path": "E", "trial": 1}' > empty/A/meta.json
probe empty/A/probe.csv 1
ln -s ../A empty/B/again
ln -s .. empty/A/nothing/up
run $T "$PS" ingest --db e.db empty
expect_sql e.db "SELECT count(*) FROM run_view WHERE path = 'E'" 1 "empty folders are walked past (no sanitizer report)"
expect_err_has "empty/B/again: skipped: it leads to '$TMP/empty/A', a folder already walked" "a link to a folder walked before is skipped"
expect_err_lacks "empty/B/again: symlink loop" "and not called a loop"
expect_err_has "empty/A/nothing/up: symlink loop" "a link to a folder being walked is a loop"
rm empty/A/nothing/up
run $T "$PS" ingest --db e2.db empty
expect_code 0 "a link to a folder walked before is not an error"

# ---- half-valid metadata is refused whole (the reported example)
mkdir -p half/Z
echo '{"path":"Z","trial":-1,"az":"x","instance_type":"c6i"}' > half/Z/meta.json
probe half/Z/probe.csv 1
run "$PS" ingest --db h.db half
expect_code 1 "meta.json with a bad trial: exit 1"
expect_err_has "half/Z/meta.json: bad meta.json: key 'trial': trial '-1' is not a non-negative integer" "the bad key is named"
expect_sql h.db "SELECT status || ': ' || reason FROM files" "rejected: a meta.json above it is broken (half/Z/meta.json: key 'trial': trial '-1' is not a non-negative integer)" "the file is rejected with the reason, not stored ok with defaults"
expect_sql h.db "SELECT count(*) FROM runs" 0 "no run with trial 1 and no tags"
run "$PS" ingest --db h.db half
expect_code 1 "a re-run rejects it again"
expect_err_has "1 files: 0 stored (0 partial), 0 unchanged, 0 skipped, 1 rejected" "and does not call it unchanged"

# ---- text after the object, NUL escapes, bytes that are not UTF-8
mkdir -p text/after text/nul text/bad text/tag
echo '{"path": "T", "trial": 1} {"path": "U"}' > text/after/meta.json
printf '{"path": "N4\\u0000evil", "trial": 1}\n' > text/nul/meta.json
printf '{"path": "B\377D", "trial": 1}\n' > text/bad/meta.json
printf '{"path": "ok", "trial": 1, "r\\u00e9gion": "caf\\u00e9", "az": "\\ud800"}\n' > text/tag/meta.json
i=1
for d in after nul bad tag; do probe text/$d/probe.csv $i; i=$((i + 1)); done
mkdir -p "text/$(printf 'N\377')"
probe "text/$(printf 'N\377')/probe.csv" 9
run "$PS" ingest --db t.db text
expect_code 1 "bad text in meta.json: exit 1"
expect_err_has "text/after/meta.json: bad meta.json: text after the JSON object" "text after the object is refused"
expect_err_has "text/nul/meta.json: bad meta.json: a \\u0000 (NUL)" "an escaped NUL is refused, not cut"
expect_err_has "text/bad/meta.json: bad meta.json: not valid UTF-8" "bytes that are not UTF-8 are refused"
expect_err_has "text/N\\xff: skipped: the name is not valid UTF-8" "a folder name that is not UTF-8 is refused, shown escaped"
expect_sql t.db "SELECT count(*) FROM paths WHERE name IN ('N4', 'T', 'U')" 0 "no cut or half-read path is stored"
run "$PS" runs --db t.db --files --format json
expect_code 0 "runs --files --format json"
printf '%s' "$OUT" > files.json
ok "\"\$PY\" -c 'import json,sys; json.loads(open(\"files.json\", \"rb\").read().decode(\"utf-8\", \"strict\"))'" "the JSON output is valid UTF-8 and valid JSON"
test_done

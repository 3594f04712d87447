# t1910: "Ingesting a subfolder re-keys runs".  After
# `ingest samples/tree`, `ingest samples/tree/tokyo-osaka/2026-08-28/`
# stored its 51 files again as new runs without the meta.json above the
# folder: --where study=tokyo-osaka fell from 56 runs to 5.  Now the
# database remembers each tree: a folder or file inside one is read as
# part of it (its stored names, meta.json up to the tree's root), from
# any working folder; keys that would change are named and kept unless
# --rekey; a tree given after a folder inside it takes its files over;
# another tree of the same name is refused.

cp -r "$TOP/samples/tree" tree
study() { sql "$1" "SELECT count(*) FROM run_tags WHERE key = 'study' AND value = 'tokyo-osaka'"; }
run "$PS" ingest --db t.db tree
expect_code 0 "the sample tree"
total=$(sql t.db "SELECT count(*) FROM runs")
ok '[ "$(study t.db)" = 56 ]' "56 runs of the study tokyo-osaka"
expect_sql t.db "SELECT name || ' ' || path FROM roots" "tree $TMP/tree" "the tree is remembered by name and real path"

run "$PS" ingest --db t.db tree/tokyo-osaka/2026-08-28/
expect_code 0 "its day folder again: exit 0"
expect_err_has "51 files: 0 stored (0 partial), 51 unchanged, 0 skipped, 0 rejected, 0 kept as stored; runs: 0 added, 0 replaced, 0 removed, $total in the database" \
    "51 unchanged: the same stored names, the same keys"
ok '[ "$(study t.db)" = 56 ]' "still 56 runs of the study"

F=tokyo-osaka/2026-08-28/A/trial1/probe.csv
run sh -c 'cd tree/tokyo-osaka/2026-08-28/A && "$1" ingest --db "$2" trial1/probe.csv' sh "$PS" "$TMP/t.db"
expect_err_has "1 unchanged" "one file named from a folder inside the tree: unchanged"
mkdir -p elsewhere
run sh -c 'cd elsewhere && "$1" ingest --db "$2" "../tree/$3"' sh "$PS" "$TMP/t.db" "$F"
expect_err_has "1 unchanged" "from a folder outside it: unchanged"
run "$PS" ingest --db t.db "$TMP/tree/$F"
expect_err_has "1 unchanged" "by its absolute path: unchanged"
expect_sql t.db "SELECT count(*) FROM files WHERE relpath NOT LIKE 'tree/%'" 0 "no file under another name"

# a file named alone, outside any tree ingested: its own folder is its
# root, whatever the working folder (the meta.json above is not read)
mkdir -p lone/P/trial1
echo '{"study": "from-above"}' > lone/meta.json
echo '{"path": "P", "trial": 1}' > lone/P/trial1/meta.json
cp "tree/$F" lone/P/trial1/p.csv
run sh -c 'cd lone && "$1" ingest --db "$2" P/trial1/p.csv' sh "$PS" "$TMP/l.db"
expect_code 0 "a lone file from the folder above its own"
expect_sql l.db "SELECT path || ' ' || trial || ' ' || coalesce((SELECT value FROM run_tags WHERE key = 'study'), '-') FROM run_view" \
    "P 1 -" "keys from its own folder's meta.json only"
expect_sql l.db "SELECT relpath FROM files" "trial1/p.csv" "stored as its folder's name and its own"

# a meta.json added above files: the change is named, and made only
# with --rekey
echo '{"region": "ap-northeast-3"}' > tree/tokyo-osaka/2026-08-28/A/meta.json
run "$PS" ingest --db t.db tree/tokyo-osaka/2026-08-28/A
expect_code 1 "keys that would change: exit 1"
expect_err_has "pathstat ingest: keys would change (tag region: ap-northeast-1 -> ap-northeast-3): 10 files (first 'tree/$F'; --dry-run lists each): kept as stored; --rekey applies the new keys" \
    "the change is named, said once for its files"
expect_sql t.db "SELECT count(*) FROM run_tags WHERE key = 'region' AND value = 'ap-northeast-3'" 0 "nothing changed"
run "$PS" ingest -n --db t.db tree/tokyo-osaka/2026-08-28/A
expect_out_has "tree/$F: no --layout: path=A trial=1 tool=pathprobe az=apne1-az4 day=2026-08-28 instance_type=c6i.large region=ap-northeast-3 study=tokyo-osaka: keys would change (tag region: ap-northeast-1 -> ap-northeast-3): kept as stored without --rekey" \
    "--dry-run names it per file"
run "$PS" ingest --rekey --db t.db tree/tokyo-osaka/2026-08-28/A
expect_code 0 "--rekey: exit 0"
expect_err_has "pathstat ingest: keys changed (tag region: ap-northeast-1 -> ap-northeast-3): 10 files (first 'tree/$F'): runs re-keyed (--rekey)" \
    "--rekey says what it changed"
expect_sql t.db "SELECT count(*) FROM run_tags WHERE key = 'region' AND value = 'ap-northeast-3'" 10 "the runs carry the new keys"
ok '[ "$(study t.db)" = 56 ]' "and keep the inherited ones"
expect_sql t.db "SELECT count(*) FROM runs" "$total" "no run added or lost"

# a folder ingested first, then its tree: the tree takes its files over
run "$PS" ingest --db s.db tree/tokyo-osaka/2026-08-28
expect_code 0 "the day folder alone, first"
ok '[ "$(study s.db)" = 0 ]' "(it knows nothing of the study)"
run "$PS" ingest -n --db s.db tree
expect_err_has "pathstat ingest: the tree '2026-08-28' ($TMP/tree/tokyo-osaka/2026-08-28) is inside a tree given: its files would be named 'tree/tokyo-osaka/2026-08-28/...'" \
    "--dry-run says the tree would take the folder's files over"
expect_out_has "tree/$F: no --layout: path=A trial=1 tool=pathprobe az=apne1-az4 day=2026-08-28 instance_type=c6i.large region=ap-northeast-3 study=tokyo-osaka: keys would change (tag az: (none) -> apne1-az4," \
    "and judges those files by what is stored for them"
expect_sql s.db "SELECT count(*) FROM files WHERE relpath LIKE 'tree/%'" 0 "(a dry run: nothing renamed)"
run "$PS" ingest --db s.db tree
expect_code 1 "then the tree: the day's keys would change"
expect_err_has "pathstat ingest: the tree '2026-08-28' ($TMP/tree/tokyo-osaka/2026-08-28) is inside 'tree': its 51 files are now named 'tree/tokyo-osaka/2026-08-28/...'" \
    "the folder's files are named as the tree's"
expect_err_has "keys would change (tag az: (none) -> apne1-az4, tag instance_type: (none) -> c6i.large, tag region: (none) -> ap-northeast-1, tag study: (none) -> tokyo-osaka)" \
    "the keys the tree gives are named"
expect_err_lacks "same content" "no file is taken for a copy"
run "$PS" ingest --rekey --db s.db tree
expect_code 0 "--rekey"
ok '[ "$(study s.db)" = 56 ]' "56 runs of the study, as from the tree alone"
expect_sql s.db "SELECT count(*) FROM runs" "$total" "as many runs as from the tree alone"
expect_sql s.db "SELECT name FROM roots" "tree" "one tree remembered"

# another tree of the same name is refused; a tree moved is the same tree
mkdir -p other && cp -r tree other/tree
run "$PS" ingest --db t.db other/tree
expect_code 1 "another tree named 'tree': exit 1"
expect_err_has "pathstat ingest: other/tree: not ingested: the database holds another tree named 'tree' ($TMP/tree), and stored names begin with the tree's name; rename one of the folders, or use another --db" \
    "refused, naming both"
rm -r tree
run "$PS" ingest --db t.db other/tree
expect_code 0 "the tree moved: exit 0"
expect_err_has "the tree 'tree' was at $TMP/tree, now at $TMP/other/tree: the same tree (the same stored names)" "the move is said"
expect_err_has "unchanged" "its files are unchanged"
expect_err_lacks "gone" "and none is gone"
test_done

# t1915: a database from before ingest knew its trees (schema < 4)
# stored a tree given as mig/t1 under 'mig/t1/...'; now the tree's
# files are named from its own name, 't1/...'.  The upgraded database's
# first ingest said every file was "skipped: same content" as its old
# name, a changed file then added its run beside the stale one (both
# pooled, CONFLICT), and --prune removed nothing.  Now the new tree
# takes the names it was stored under then, said once; given another
# way (from another folder), the old names are named as under no tree,
# with what to do.  The old database is made by moving a current one's
# names back under 'mig/' and its version back to 3, as before roots.

mk_tree() {
	for p in A B C; do
		mkdir -p mig/t1/$p
		echo "{\"path\": \"$p\", \"trial\": 1}" > mig/t1/$p/meta.json
	done
	cp "$FIX/pathprobe/all-ok.csv" mig/t1/A/probe.csv
	cp "$FIX/pathprobe/mixed.csv" mig/t1/B/probe.csv
	sed '3s/,[0-9.]*,ok/,7.25,ok/' "$FIX/pathprobe/all-ok.csv" > mig/t1/C/probe.csv
}
old_db() { # DB: the tree ingested, then named as before schema 4
	"$PS" ingest -q --db "$1" mig/t1 2>/dev/null
	sqlite3 "$1" "UPDATE files SET relpath = 'mig/' || relpath;
	    DELETE FROM root_layouts; DELETE FROM roots; PRAGMA user_version = 3"
}
mk_tree
ok "! cmp -s mig/t1/A/probe.csv mig/t1/B/probe.csv && ! cmp -s mig/t1/A/probe.csv mig/t1/C/probe.csv" "three files of different content"
old_db old.db
expect_sql old.db "SELECT count(*) FROM files WHERE relpath LIKE 'mig/t1/%'" 3 "the old database names them 'mig/t1/...'"

# ---- given as then: the tree takes its old names
cp old.db a.db
run "$PS" ingest --db a.db mig/t1
expect_code 0 "first ingest after the upgrade: exit 0"
expect_err_has "3 files stored as 'mig/t1/...' (before this database knew its trees) are now named 't1/...'" \
    "the renaming is said"
expect_err_has "3 unchanged" "the files are unchanged, not copies"
expect_err_lacks "same content as" "no file is taken for a copy"
expect_sql a.db "SELECT count(*) FROM files WHERE relpath LIKE 't1/%'" 3 "stored as 't1/...'"
expect_sql a.db "SELECT count(*) FROM runs" 3 "three runs"
# a changed file replaces its run, not beside it
sed '3s/,[0-9.]*,ok/,3.5,ok/' "$FIX/pathprobe/all-ok.csv" > mig/t1/A/probe.csv
run "$PS" ingest --db a.db mig/t1
expect_err_has "t1/A/probe.csv: content changed: its 1 run (20 samples) replaced by 1 (20)" "a changed file replaces its run"
expect_sql a.db "SELECT count(*) FROM runs" 3 "still three runs"
run "$PS" runs --db a.db --columns path,conflict
expect_out_lacks "CONFLICT" "no run pooled with a stale one"
rm mig/t1/C/probe.csv
run "$PS" ingest --db a.db --prune mig/t1
expect_err_has "t1/C/probe.csv" "--prune names the file gone"
expect_sql a.db "SELECT count(*) FROM runs" 2 "and removes its run"
rm -rf mig
mk_tree

# ---- given another way: the old names are said to be under no tree
cp old.db b.db
mkdir elsewhere
run sh -c 'cd elsewhere && "$1" ingest --db ../b.db ../mig/t1' sh "$PS"
expect_err_has "3 files stored before this database knew its trees (first 'mig/t1/A/probe.csv') are under no tree given since" \
    "the names it cannot map are said, with the first"
expect_err_has "give the tree as it was given then" "with what to do"
run "$PS" ingest --db b.db mig/t1
expect_err_lacks "under no tree" "given as then, said no more"
expect_sql b.db "SELECT count(*) FROM files WHERE relpath LIKE 'mig/%'" 0 "no old name left"
expect_sql b.db "SELECT count(*) FROM runs" 3 "three runs, one per file"
test_done

# t7200: run ids and files do not depend on database row ids; a second
# export writes only what changed.  Nothing changed:
# no file is touched (not even manifest.json).  A new day ingested: only
# that day's partitions (and the findings) are written, every other file
# keeps its inode and time.  A changed file: only its day.  --force and
# another codec rewrite everything; --where drops what it leaves out;
# leftovers of ours (temporary files, unlisted part files) go, other
# files stay.

cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null
# every file with its inode, mtime and size
listing() { find "$1" -type f -printf '%P %i %T@ %s\n' | sort; }
changed() { # OLD NEW: the files new or touched since OLD
	join -a 2 "$1" "$2" | awk 'NF != 7 || $2 != $5 || $3 != $6 { print $1 }'
}

run "$PS" export --db s.db --out ex
expect_code 0 "first export"
listing ex > l1

# the same tree ingested again with --force: other row ids, same files
"$PS" ingest -q --db o.db tree 2>/dev/null
"$PS" ingest -q --force --db o.db tree 2>/dev/null
ok "[ \"\$(sqlite3 s.db 'SELECT min(id) FROM runs')\" != \
    \"\$(sqlite3 o.db 'SELECT min(id) FROM runs')\" ]" \
    "the two databases number their runs differently"
run "$PS" export --db o.db --out other
expect_code 0 "export of the other database"
diffs=$(cd ex && find . -name '*.parquet' | while read -r f; do
	cmp -s "$f" "../other/$f" || echo "$f"; done)
ok "[ -z \"$diffs\" ] && [ \$(find other -name '*.parquet' | wc -l) -eq \
    \$(find ex -name '*.parquet' | wc -l) ]" \
    "every Parquet file is the same, byte for byte (run ids too)"
sleep 1
run "$PS" export --db s.db --out ex
expect_code 0 "second export, nothing changed"
expect_err_has "nothing changed" "it says so"
expect_err_has "samples: 0 partitions written, 4 unchanged" "no partition written"
listing ex > l2
ok "cmp -s l1 l2" "no file touched, manifest.json included"

# a new day: the 08-29 probes again, three days later
mkdir -p tree/tokyo-osaka/2026-09-01
echo '{"day": "2026-09-01"}' > tree/tokyo-osaka/2026-09-01/meta.json
for d in tree/tokyo-osaka/2026-08-29/*/; do
	p=$(basename "$d")
	mkdir -p "tree/tokyo-osaka/2026-09-01/$p/trial1"
	cp "$d/trial1/meta.json" "tree/tokyo-osaka/2026-09-01/$p/trial1/"
	sed -e 's/start=2026-08-29/start=2026-09-01/' \
	    -e 's/^\([0-9]*\),17878/\1,17881/' "$d/trial1/probe.csv" \
	    > "tree/tokyo-osaka/2026-09-01/$p/trial1/probe.csv"
done
run "$PS" ingest -q --db s.db tree
expect_code 0 "the new day ingested"
run "$PS" export --db s.db --out ex
expect_code 0 "export after the new day"
expect_err_has "samples: 1 partition written (900 rows" \
    "one partition of samples written: the new day"
expect_err_has "runs: 1 partition written" "one of runs"
listing ex > l3
changed l2 l3 > c3
ok "! grep -v -e '^samples/day=2026-09-01/' -e '^runs/day=2026-09-01/' \
    -e '^summaries/day=2026-09-01/' -e '^findings/' -e '^manifest.json$' c3" \
    "nothing else was written"
ok "grep -q '^samples/day=2026-09-01/part-00000.parquet$' c3" \
    "the new day's samples are there"

# a changed file: only its day again
sed -i 's/^5,\([0-9]*\),\([0-9.]*\),ok$/5,\1,99.999,ok/' \
    tree/tokyo-osaka/2026-08-29/A/trial1/probe.csv
"$PS" ingest -q --db s.db tree 2>/dev/null
sleep 1
run "$PS" export --db s.db --out ex
expect_code 0 "export after a changed file"
listing ex > l4
changed l3 l4 > c4
ok "grep -q '^samples/day=2026-08-29/' c4 &&
    ! grep -v -e 'day=2026-08-29/' -e '^findings/' -e '^manifest.json$' c4" \
    "only the changed file's day was written"

# --force: every file written again, byte for byte the same
sleep 1
run "$PS" export --db s.db --out ex --force
expect_code 0 "--force"
listing ex > l5
n5=$(changed l4 l5 | wc -l)
ok "[ $n5 -eq $(wc -l < l4) ] || [ $n5 -eq $(( $(wc -l < l4) - 1 )) ]" \
    "--force rewrote the files ($n5)"
cp -r ex forced
run "$PS" export --db s.db --out ex --codec gzip
expect_err_has "samples: 5 partitions written" "another codec rewrites all"
run "$PS" export --db s.db --out ex
expect_err_has "samples: 5 partitions written" "and back"
ok "diff -r forced ex" "the same bytes as before: deterministic"

# leftovers: ours go, others stay
echo junk > ex/samples/day=2026-08-28/.part-00000.parquet.tmp
mkdir -p ex/samples/day=1999-01-01
cp ex/samples/day=2026-08-28/part-00000.parquet ex/samples/day=1999-01-01/
echo mine > ex/samples/README.txt
run "$PS" export --db s.db --out ex
expect_code 0 "export over leftovers"
expect_err_has "removed 1 part file" "the unlisted part file is removed"
ok "[ ! -e ex/samples/day=2026-08-28/.part-00000.parquet.tmp ] &&
    [ ! -e ex/samples/day=1999-01-01 ]" "temporary file and empty folder gone"
ok "[ -f ex/samples/README.txt ]" "a file that is not ours stays"

# --where: what it leaves out is removed
run "$PS" export --db s.db --out ex --where day=2026-09-01
expect_code 0 "export of one day into the same folder"
ok "[ \"\$(ls ex/samples)\" = \"README.txt
day=2026-09-01\" ]" "only that day is left"
expect_err_has "removed" "and it says what went"
run "$PS" export --db s.db --out ex
ok "[ \$(ls ex/samples | wc -l) -eq 6 ]" "a full export brings the days back"

# one export at a time into a folder
if command -v flock >/dev/null 2>&1; then
	flock ex sleep 3 &
	sleep 0.5
	run "$PS" export --db s.db --out ex --force
	expect_code 1 "a folder another export holds: exit 1"
	expect_err_has "another export is writing" "and why"
	wait
else
	echo "# flock(1) not here: the lock is not tried"
fi
test_done

# t1930: ingest --dry-run (-n) prints, per file, which layout matched (or
# the path none matched), the keys its runs would get (the content's own
# included) and what would happen, then the files gone; it writes
# nothing: no database is made, an existing one is not changed or even
# brought to a newer schema.

"$PY" "$TOP/tests/cli/helper/flat-tree.py" results 2026-09-01 c6i.large A 1 > counts
read nfiles nruns < counts
D=results/2026-09-01/c6i.large
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
echo "notes" > "$D/README.txt"
cp "$D/A_tcp_R_run1.json" "$D/A_tcp_R_warm_run2.json"
printf ' \n' >> "$D/A_tcp_R_warm_run2.json"

# has_line LINE DESC: stdout has exactly this line
has_line() {
	printf '%s\n' "$OUT" | grep -qFx -- "$1"
	_report $? "$2" "stdout lacks the line '$1': $(printf '%s' "$OUT" | head -c 800)"
}

run "$PS" ingest -n --db new.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "--dry-run on a database that does not exist: exit 0"
ok '[ ! -e new.db ] && [ ! -e new.db-wal ]' "no database is made"
has_line "$D/A_tcp_P4_run1.json: layout 1: path=A trial=1 tool=iperf3 condition=P=4,proto=tcp day=2026-09-01 instance_type=c6i.large: new" "a file: its layout, its keys with the file's own condition, new"
has_line "$D/A_tcp_bidir_run1.json: layout 1: path=A trial=1 tool=iperf3 condition=P=1,dir=bidir-up,proto=tcp / P=1,dir=bidir-down,proto=tcp day=2026-09-01 instance_type=c6i.large: new" "a --bidir file: both runs' conditions"
has_line "$D/A_probe_run1.csv: layout 2: path=A trial=1 tool=pathprobe day=2026-09-01 instance_type=c6i.large: new; tool 'probe' read as pathprobe" "the second layout, and the alias, on the file's line"
has_line "$D/A_tcp_R_warm_run2.json: layout 1: path=A trial=2 tool=iperf3 condition=P=1,dir=reverse,proto=tcp day=2026-09-01 instance_type=c6i.large label=warm: new; condition 'warm' kept as the tag label=warm: not in the condition grammar" "a token kept as a tag, on the file's line"
has_line "$D/README.txt: no layout matches '2026-09-01/c6i.large/README.txt': (no keys): skipped: not a known result format" "a file no layout matches: the path it was matched as, and why not stored"
expect_err_has "pathstat ingest: dry run, nothing written: $((nfiles + 2)) files: $((nfiles + 1)) new, 0 changed, 0 re-keyed, 0 unchanged, 1 skipped, 0 rejected, 0 kept as stored; 0 gone (0 runs)" \
    "a summary on stderr"
ok "[ \$(printf '%s\n' \"\$OUT\" | wc -l) = $((nfiles + 2)) ]" "one line per file"

run "$PS" ingest --db t.db --layout "$L.json" --layout "$L.csv" results
expect_code 0 "the real ingest"
rm "$D/A_oha_run1.json"
echo garbage > "$D/A_tcp_P4_run1.json"
sql t.db .dump > before.sql
cp t.db before.db
run "$PS" ingest -n --db t.db --layout "$L.json" results
expect_code 1 "files that would be kept: exit 1, as the ingest would"
has_line "$D/A_tcp_R_run1.json: layout 1: path=A trial=1 tool=iperf3 condition=P=1,dir=reverse,proto=tcp day=2026-09-01 instance_type=c6i.large: unchanged" "unchanged"
expect_out_has "$D/A_tcp_P4_run1.json: layout 1: path=A trial=1 condition=P=4,proto=tcp day=2026-09-01 instance_type=c6i.large: kept as stored: its 1 run, read on " \
    "garbage over a stored file: kept as stored, with its runs"
expect_out_has "(now skipped: not a known result format)" "and why"
expect_out_has "$D/A_probe_run1.csv: no layout matches '2026-09-01/c6i.large/A_probe_run1.csv': (no keys): kept as stored: its 1 run, read on " \
    "a layout that no longer matches a stored file"
has_line "$D/A_oha_run1.json: gone: its 1 run kept until --prune" "the gone file"
sql t.db .dump > after.sql
ok 'cmp -s before.sql after.sql && cmp -s before.db t.db' "the database is the same, byte for byte"
run "$PS" ingest -n --prune --rekey --tag site=lab --db t.db --layout "$L.json" --layout "$L.csv" results
expect_out_has "$D/A_oha_run1.json: gone: its 1 run would be removed" "with --prune: would be removed"
expect_out_has "$D/A_tcp_R_run1.json: layout 1: path=A trial=1 tool=iperf3 condition=P=1,dir=reverse,proto=tcp day=2026-09-01 instance_type=c6i.large site=lab: re-keyed (tag site: (none) -> lab)" \
    "with --rekey: re-keyed, and how"
ok 'cmp -s before.db t.db' "still nothing written"

# an older database is read as it is, not brought to the newest schema
"$PS" ingest -q --db old.db --layout "$L.json" "$D/A_tcp_R_run1.json"
sql old.db "DROP TABLE roots; PRAGMA user_version = 3"
run "$PS" ingest -n --db old.db --layout "$L.json" results
expect_code 1 "an older database: the dry run works (exit 1: files it lacks keys for)"
expect_out_has "$D/A_tcp_R_run1.json: layout 1: path=A trial=1" "and reads it (a file of a tree it does not know is new)"
expect_sql old.db "PRAGMA user_version" 3 "the database is not migrated"
test_done

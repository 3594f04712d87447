# t1920: a flat-named tree through a week of changes,
# re-synced and re-ingested every day: a day added, a file renamed, one
# deleted and pruned, one overwritten with garbage, the tree laid out
# anew (and --prune), a tag added to every run (refused, then --rekey).
# After every step the runs in the database must be what the summary
# line said (before + added - removed = "N in the database" = a count of
# the runs table), and the keys what the step meant them to be.

gen() { "$PY" "$TOP/tests/cli/helper/flat-tree.py" results "$1" "${2:-c6i.large}" > counts; read nfiles nruns < counts; }
L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
LAYOUT="--layout $L.json --layout $L.csv"
runs() { sql t.db "SELECT count(*) FROM runs"; }
# step DESC WANT_RC ADDED REPLACED REMOVED INGEST-ARGS...: one day's ingest
step() {
	desc=$1 want_rc=$2 want_add=$3 want_rep=$4 want_rem=$5
	shift 5
	before=$(runs)
	run "$PS" ingest --db t.db "$@"
	expect_code "$want_rc" "$desc: exit $want_rc"
	said=$(printf '%s\n' "$ERR" | sed -n 's/.*runs: \([0-9]*\) added, \([0-9]*\) replaced, \([0-9]*\) removed, \([0-9]*\) in the database.*/\1 \2 \3 \4/p')
	set -- $said
	ok "[ \"$1 $2 $3\" = \"$want_add $want_rep $want_rem\" ]" \
	    "$desc: the summary says $1 added, $2 replaced, $3 removed (want $want_add, $want_rep, $want_rem)"
	after=$(runs)
	ok "[ $after = \$(($before + $1 - $3)) ] && [ $after = $4 ]" \
	    "$desc: runs $before + $1 - $3 = $after, as it says ($4 in the database)"
}
days() { sql t.db "SELECT group_concat(value || ':' || n, ' ') FROM (SELECT value, count(*) AS n FROM run_tags WHERE key = 'day' GROUP BY value ORDER BY value)"; }

# Monday: the first day
gen 2026-09-01
step "Monday, the first day" 0 "$nruns" 0 0 $LAYOUT results
ok '[ "$(days)" = "2026-09-01:42" ]' "Monday: 42 runs of 2026-09-01 ($(days))"

# Tuesday: a second day, on two instance types
gen 2026-09-02
gen 2026-09-02 c7g.xlarge
step "Tuesday, a day added" 0 84 0 0 $LAYOUT results
ok '[ "$(days)" = "2026-09-01:42 2026-09-02:84" ]' "Tuesday: $(days)"
expect_sql t.db "SELECT count(DISTINCT value) FROM run_tags WHERE key = 'instance_type'" 2 "Tuesday: two instance types"

# Wednesday: a day added, and a file renamed (trial 1 becomes trial 4)
gen 2026-09-03
D1=results/2026-09-01/c6i.large
mv "$D1/A_tcp_P4_run1.json" "$D1/A_tcp_P4_run4.json"
step "Wednesday, a day added and a file renamed" 0 43 0 0 $LAYOUT results
expect_err_has "1 file gone: its 1 run kept; --prune removes it" "Wednesday: the old name is gone, its run kept"
expect_sql t.db "SELECT group_concat(trial) FROM (SELECT trial FROM run_view WHERE day = '2026-09-01' AND path = 'A' AND condition = 'P=4,proto=tcp' ORDER BY trial)" \
    "1,2,3,4" "Wednesday: trial 4 stored, trial 1 kept until pruned"

# Thursday: a day added, a file deleted, and --prune
gen 2026-09-04
D2=results/2026-09-02/c7g.xlarge
rm "$D2/B_tcp_bidir_run3.json"
step "Thursday, a day added, a file deleted, --prune" 0 42 0 3 $LAYOUT --prune results
expect_err_has "$D1/A_tcp_P4_run1.json: gone: removed, with its 1 run" "Thursday: the renamed file's old name pruned"
expect_err_has "$D2/B_tcp_bidir_run3.json: gone: removed, with its 2 runs" "Thursday: the deleted file pruned"
expect_sql t.db "SELECT group_concat(trial) FROM (SELECT trial FROM run_view WHERE day = '2026-09-01' AND path = 'A' AND condition = 'P=4,proto=tcp' ORDER BY trial)" \
    "2,3,4" "Thursday: the renamed file is trial 4 only"
ok '[ "$(days)" = "2026-09-01:42 2026-09-02:82 2026-09-03:42 2026-09-04:42" ]' "Thursday: $(days)"

# Friday: a day added, and a good file overwritten with garbage
gen 2026-09-05
D3=results/2026-09-03/c6i.large
echo '{"garbage": true}' > "$D3/B_oha_run2.json"
step "Friday, a day added, a file garbled" 1 42 0 0 $LAYOUT results
expect_err_has "$D3/B_oha_run2.json: now skipped: not a known result format: the runs it gave before are kept" \
    "Friday: the garbled file keeps its run, named"
expect_sql t.db "SELECT count(*) FROM run_view WHERE day = '2026-09-03' AND path = 'B' AND tool = 'oha' AND trial = 2" 1 \
    "Friday: its run is there"

# Saturday: the tree laid out anew (instance type above the day), with
# the layout to match: every file is a gone one and a new one, and
# --prune removes the old names; the garbled file's old name goes too
mkdir new
for d in results/*/; do
	day=$(basename "$d")
	for t in "$d"*/; do
		it=$(basename "$t")
		mkdir -p "new/$it/$day"
		mv "$t"* "new/$it/$day/"
	done
done
rm -r results && mv new results
N='{tag:instance_type}/{tag:day}/{path}_{cond}_run{trial}'
total=$(runs)
step "Saturday, the tree laid out anew" 0 $((total - 1)) 0 "$total" --layout "$N.json" --layout "$N.csv" --prune results
expect_err_lacks "same content" "Saturday: no file is taken for a copy of its gone self"
expect_err_has "results/c6i.large/2026-09-03/B_oha_run2.json: skipped: not a known result format" \
    "Saturday: the garbled file, under its new name, is skipped"
ok '[ "$(days)" = "2026-09-01:42 2026-09-02:82 2026-09-03:41 2026-09-04:42 2026-09-05:42" ]' \
    "Saturday: every day's runs, under the same keys ($(days))"
expect_sql t.db "SELECT count(*) FROM files WHERE relpath LIKE 'results/2026-%'" 0 "Saturday: no old name is left"

# Sunday: a tag for every run: refused without --rekey, then applied
step "Sunday, a tag added: refused" 1 0 0 0 --layout "$N.json" --layout "$N.csv" --tag site=lab results
expect_err_has "keys would change (tag site: (none) -> lab): $(sql t.db "SELECT count(*) FROM files WHERE status IN ('ok', 'partial')") files" \
    "Sunday: the change is named once, for every file"
expect_sql t.db "SELECT count(*) FROM run_tags WHERE key = 'site'" 0 "Sunday: nothing changed"
total=$(runs)
step "Sunday, a tag added: --rekey" 0 0 "$total" 0 --layout "$N.json" --layout "$N.csv" --tag site=lab --rekey results
expect_sql t.db "SELECT count(*) FROM run_tags WHERE key = 'site' AND value = 'lab'" "$total" "Sunday: every run has the tag"
ok '[ "$(days)" = "2026-09-01:42 2026-09-02:82 2026-09-03:41 2026-09-04:42 2026-09-05:42" ]' \
    "Sunday: and keeps its other keys ($(days))"
step "Sunday, once more" 0 0 0 0 --layout "$N.json" --layout "$N.csv" --tag site=lab results
expect_err_has "0 stored" "Sunday: nothing left to do"
test_done

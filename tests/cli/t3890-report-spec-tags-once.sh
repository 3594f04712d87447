# t3890: the spec a report makes reads every run's tags in one query.
# It wants each run's value of every tag key (the side tags such as
# via=nlb, what each table pools across): asked of each metric's run
# selection, that was one subquery per tag key and run, a tenth of a
# team campaign's no-spec report over 21 days.  run_tags hands them all
# over in run order in one pass, counted with PATHSTAT_DEBUG_SPEC_TAGS=1;
# the bundle and the made spec are the same byte for byte with each
# metric's selection reading them (PATHSTAT_DEBUG_NO_SPEC_TAGS_ONCE=1).

team_campaign 7 5 2

counts() { debug_counts "# runs' tags read with the run, # from one read of all"; }

PATHSTAT_DEBUG_SPEC_TAGS=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
n=$(sql t.db "SELECT count(*) FROM runs")
ok '[ -n "$line" ] && [ "${line% *}" = 0 ] && [ "${line#* }" -ge "$n" ]' \
    "every run's tags from the one read (${line:-none counted}, $n runs)"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_SPEC_TAGS"

PATHSTAT_DEBUG_NO_SPEC_TAGS_ONCE=1 PATHSTAT_DEBUG_SPEC_TAGS=1 run "$PS" \
    report --db t.db --out r3 --no-render
expect_code 0 "the report reading them with each run exits 0 ($ERR)"
line2=$(counts)
ok '[ "$line2" = "${line#* } 0" ]' \
    "without it, each run's with the run (${line2:-none counted})"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

# the sample tree: its NLB runs are set apart by their tag via
cp -r "$TOP/samples/tree" tree2
"$PS" ingest -q --db s.db tree2 2>/dev/null
PATHSTAT_DEBUG_SPEC_TAGS=1 run "$PS" report --db s.db --out s --no-render
expect_code 0 "the samples' report exits 0 ($ERR)"
line=$(counts)
ok '[ -n "$line" ] && [ "${line% *}" = 0 ]' \
    "the samples' tags from the one read (${line:-none counted})"
ok 'grep -q "Runs tagged via (direct, nlb) share their cells" s/index.md' \
    "the NLB runs are set apart by their tag"
PATHSTAT_DEBUG_NO_SPEC_TAGS_ONCE=1 run "$PS" report --db s.db --out s2 \
    --no-render
expect_code 0 "... and reading them with each run ($ERR)"
ok 'same_bundle s s2' "the same bundle byte for byte"
"$PS" report --db s.db --init >init1.json 2>/dev/null
PATHSTAT_DEBUG_NO_SPEC_TAGS_ONCE=1 "$PS" report --db s.db --init \
    >init2.json 2>/dev/null
ok 'cmp init1.json init2.json && [ -s init1.json ]' \
    "the made spec (--init) is the same byte for byte"

test_done

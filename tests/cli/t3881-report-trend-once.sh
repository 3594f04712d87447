# t3881: a report tests each trend series once.  A team campaign's
# no-spec report has, for each metric, a trend table of p50 and p99 a
# path, and a day chart marking the change points of the same p99
# series: the chart ran trend's tests again, and each draws thousands of
# simulated series (18 % of the report's CPU over 21 days).  The report
# now keeps each series' tests by its points.  The day chart asks trend
# for its section's p50 and p99 (the table the trend section builds,
# which the report's table memo then copies, t3883); with that memo off
# here, 30 series are tested (3 metrics x 5 paths x 2 statistics) and
# the trend section's 30 come from the memo, counted with
# PATHSTAT_DEBUG_TREND=1.  The bundle is the same byte for byte with the
# memo off (PATHSTAT_DEBUG_NO_TREND_MEMO=1).

PATHSTAT_DEBUG_NO_TABLE_MEMO=1
export PATHSTAT_DEBUG_NO_TABLE_MEMO
team_campaign 14 5 2
PATHSTAT_DEBUG_TREND=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(debug_counts '# trend series tested, # from the memo')
ok '[ "$line" = "30 30" ]' \
    "30 trend series tested, the trend sections' 30 from the memo (${line:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_TREND"

# the same bundle when each series is tested again
PATHSTAT_DEBUG_NO_TREND_MEMO=1 PATHSTAT_DEBUG_TREND=1 run "$PS" report \
    --db t.db --out r3 --no-render
expect_code 0 "the report without the memo exits 0 ($ERR)"
line=$(debug_counts '# trend series tested, # from the memo')
ok '[ "$line" = "60 0" ]' \
    "without it, 60 tested and none from the memo (${line:-none counted})"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

test_done

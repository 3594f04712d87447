# t3846: the report's trend table is compact: no "Series" column of 14
# "day: value" pairs per row (the CSV keeps each series, the days table
# and chart show the values), and a mixing list that every row shares
# said once in the caption, not repeated in each verdict.  Two instance
# types on 14 days (helper/burst-tree.py): every day's point mixes them.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 14 A,B c6i.large,c7i.large
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" report --db m.db --out b --no-render
expect_code 0 "report ($ERR)"
md=$(ls b/tables/*throughput-bps-trend.md 2>/dev/null)
ok '[ -n "$md" ] && ! grep -q "Series (" "$md" && ! grep -q "2026-11-01: " "$md"' "no series text in the page's trend table"
ok '[ "$(grep -c "^| [AB] " "$md")" = 4 ] && ! grep "^| [AB] " "$md" | grep -q "mixes"' "no verdict repeats the mixing list"
ok '[ "$(grep -o "every series mixes instance\\\\_type (c6i.large, c7i.large)" "$md" | wc -l)" = 1 ]' "the caption says it once"
csv=$(ls b/tables/*throughput-bps-trend.csv 2>/dev/null)
ok 'grep -q "\"\"point\"\": \"\"2026-11-14\"\"" "$csv" && grep -q "the series mixes instance_type" "$csv"' "the CSV keeps each series and the full verdict"
test_done

# t3895: a report reads each page of its database about once.  A team
# campaign's no-spec report selects its runs and reads their summaries
# again for each section, chart and check, through a reader's 2 MiB
# page cache: on a database larger than that it read the same pages
# from the file again and again (84 days: 238,140 page reads of a
# 9,381-page database), each statement in a read transaction of its
# own (a lock and an unlock of the file each).  The report's connection
# now keeps up to 64 MiB of pages and, in WAL mode, reads in one
# transaction: counted with PATHSTAT_DEBUG_PAGES=1, at most the
# database's pages read; the bundle the same byte for byte as a
# plain reader's (PATHSTAT_DEBUG_NO_READ_CACHE=1), which reads more.

team_campaign 14 20 4

pages=$(sql t.db 'PRAGMA page_count')
ok '[ "$pages" -gt 512 ]' \
    "the database ($pages pages) is larger than a reader's 2 MiB cache"
counts() { debug_counts '# database pages read'; }

PATHSTAT_DEBUG_PAGES=1 run "$PS" report --db t.db --out r --no-render
expect_code 0 "the no-spec report exits 0 ($ERR)"
line=$(counts)
ok '[ -n "$line" ] && [ "$line" -le "$pages" ]' \
    "at most the $pages pages read (${line:-none counted})"
run "$PS" report --db t.db --out r2 --no-render
ok '[ -z "$(printf "%s\n" "$ERR" | grep debug)" ]' \
    "no debug line without PATHSTAT_DEBUG_PAGES"

PATHSTAT_DEBUG_NO_READ_CACHE=1 PATHSTAT_DEBUG_PAGES=1 run "$PS" report \
    --db t.db --out r3 --no-render
expect_code 0 "the report as a plain reader exits 0 ($ERR)"
off=$(counts)
ok '[ -n "$off" ] && [ "$off" -gt "$((2 * pages))" ]' \
    "a plain reader reads pages again (${off:-none counted} of $pages)"
ok 'same_bundle r r3' \
    "tables, charts and index.md are the same byte for byte"

test_done

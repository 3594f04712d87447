# t3877: `analyze compare --by az` on the sample tree has no rows, as its
# `--sql duckdb` query has none: each path and condition was measured in
# one availability zone, so there is nothing to set beside it.  Analyze
# said only "no rows from the 20 connect_ms runs" and a note blamed the
# baseline ("--baseline picks another", which no value would fix); the
# query said nothing and exited 0.  Both now give the reason, the number
# of paths and conditions counted here from `pathstat runs`.

cp -r "$TOP/samples/tree" tree
run "$PS" ingest -q --db s.db tree
expect_code 0 "the sample tree ingests ($ERR)"
run "$PS" runs --db s.db --format json
printf '%s' "$OUT" > runs.json
run "$PY" -c '
import json, collections
az = collections.defaultdict(set)
for r in json.load(open("runs.json")):
    if r["metric"] == "connect_ms":
        az[(r["path"], r["condition"])].add(r["az"])
print(len(az), max(len(v) for v in az.values()))'
ok '[ "$OUT" = "7 1" ]' "7 paths and conditions, each under one az ($OUT)"
why="no path and condition has runs under two values of az (each of the 7 has one)"

run "$PS" analyze compare --db s.db --by az --metric connect_ms --format md
expect_code 1 "no rows is a failure"
ok 'printf "%s" "$ERR" | grep -qF "no rows from the 20 connect_ms runs: $why"' \
    "the error says why ($ERR)"
ok 'printf "%s" "$OUT" | grep -qF "_No path and condition has runs under two values of az (each of the 7 has one)"' \
    "so does the table's note"
ok '! printf "%s" "$OUT" | grep -q "picks another"' "no --baseline hint that could not help"

run "$PS" analyze compare --db s.db --by az --metric connect_ms --sql duckdb
expect_code 0 "the query is printed"
printf '%s\n' "$OUT" > q.sql
ok '[ "$(head -1 q.sql)" = "-- on this database the query gives no rows: $why: compare sets a key'"'"'s values side by side within a path and condition; delta A-B compares paths." ]' \
    "the query says why in a comment ($(head -1 q.sql))"
ok 'printf "%s" "$ERR" | grep -qF "warning: compare: the query gives no rows on this database: $why"' \
    "and on stderr"

# a key with rows: nothing said
run "$PS" analyze compare --db s.db --by day --metric connect_ms --sql duckdb
ok '[ $RC = 0 ] && ! printf "%s" "$OUT$ERR" | grep -q "gives no rows"' "compare --by day has rows: no such comment"

. "$TOP/tests/cli/duckdb.sh"
duckdb_prereq
"$PS" export -q --db s.db --out ex 2>/dev/null
"$PS" export --db s.db --ddl duckdb --out ex > views.sql
ok "[ \"\$(duckq -f views.sql \"\$(cat q.sql)\" | tail -1)\" = '[]' ]" \
    "DuckDB: the query gives no rows"
test_done

# t3889: a section whose where only names paths (path=A, or path=B,A)
# has data on the paths of its metric without a where that it names.
# Each heatmap of a no-spec report names one path, and checking the
# paths it has data for selected its metric's runs again, scanning every
# run of the metric for each heatmap: 15 of a team campaign's 43 run
# selections.  The report now takes the paths of the metric without a
# where (read once for its first section) and keeps those named, in
# their order: 28 selections read, counted with PATHSTAT_DEBUG_RUNSEL=1,
# and the bundle the same byte for byte as when each is read
# (PATHSTAT_DEBUG_NO_PATHS_NAMED=1).  A named path without data is the
# same error either way.  The table memo (t3883) is off, as in t3882.

PATHSTAT_DEBUG_NO_TABLE_MEMO=1
export PATHSTAT_DEBUG_NO_TABLE_MEMO
# These counts are of each heatmap building its own path's table, as
# before the heatmaps shared one table of all paths (t3891).
PATHSTAT_DEBUG_NO_HEATMAP_ROWS=1
export PATHSTAT_DEBUG_NO_HEATMAP_ROWS
team_campaign 14 5 2

memo_on_off RUNSEL NO_PATHS_NAMED '# run selections read, # replayed' r \
    --jobs 1
ok '[ "$ON" = "28 47" ]' \
    "28 run selections read, 47 replayed (${ON:-none counted})"
ok '[ "$OFF" = "43 47" ]' \
    "reading each, 43 read and 47 replayed (${OFF:-none counted})"

# two paths named in another order, a path without data, a section's
# paths outside its where: the same tables and errors either way
cat > s.json <<'JSON'
{ "title": "Named", "sections": [
  { "type": "percentiles", "id": "ba", "metric": "connect_ms",
    "where": {"path": "B,A"} } ] }
JSON
memo_on_off RUNSEL NO_PATHS_NAMED '# run selections read, # replayed' n \
    --spec s.json --no-checks
ok '[ "$(cut -d, -f1 n/tables/01-ba.csv | sort -u | tr "\n" " ")" = "A B path " ]' \
    "the section shows the two ($(cut -d, -f1 n/tables/01-ba.csv | tr "\n" " "))"

for where in '"path": "Z"' '"path": "A,Z"'; do
	for paths in '' ', "paths": {"B": "b"}'; do
		cat > e.json <<JSON
{ "title": "Named", "sections": [
  { "type": "percentiles", "id": "x", "metric": "connect_ms",
    "where": {$where}$paths } ] }
JSON
		run "$PS" report --db t.db --spec e.json --out e --no-render \
		    --no-checks --force
		code=$RC err=$(printf "%s\n" "$ERR" | sed "s/ in [0-9.]* s/ in T s/")
		PATHSTAT_DEBUG_NO_PATHS_NAMED=1 run "$PS" report --db t.db \
		    --spec e.json --out e2 --no-render --no-checks --force
		ok '[ "$code" = "$RC" ] && [ "$err" = "$(printf "%s\n" "$ERR" | sed "s/e2/e/g; s/ in [0-9.]* s/ in T s/")" ]' \
		    "where {$where}$paths: the same exit ($code) and message ($err)"
	done
done

test_done

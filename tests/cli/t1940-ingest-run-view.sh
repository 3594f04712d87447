# t1940: data out, tidy: run_view has a column per tag key
# (ingest writes it again as tag keys appear), times are ISO 8601 with Z
# in the views as in the CLI, and an empty condition is an empty string
# in the view, in runs --format csv and json.

mk() { # DIR META: a one-probe pathprobe file with a meta.json
	mkdir -p "$1"
	printf '%s\n' "$2" > "$1/meta.json"
	printf '%s\n' "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=1 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z" \
	    "seq,unix_ns,connect_ms,result" "0,1787878805000000000,0.2$(printf '%s' "$1" | cksum | cut -c1-3),ok" > "$1/probe.csv"
}
mk tree/A '{"path": "A", "trial": 1, "instance_type": "c6i.large", "day": "2026-08-28"}'
run "$PS" ingest --db t.db tree
expect_code 0 "one run"
expect_sql t.db "SELECT group_concat(name, ' ') FROM pragma_table_info('run_view')" \
    "run_id path condition trial tool metric day instance_type status reason failures attempts started_utc tags file summary_file" \
    "run_view: a column per tag, after metric"
expect_sql t.db "SELECT path || '|' || condition || '|' || instance_type || '|' || day || '|' || started_utc FROM run_view" \
    "A||c6i.large|2026-08-28|2026-08-28T01:00:00Z" "the tags' values; the start in ISO 8601 with Z; the empty condition ''"
expect_sql t.db "SELECT typeof(condition) || ' ' || length(condition) FROM run_view" "text 0" "an empty condition is an empty string, not NULL"
expect_sql t.db "SELECT count(*) FROM file_view WHERE ingested_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'" 1 \
    "file_view: ISO 8601 with Z too"
run "$PS" runs --db t.db --format csv
expect_out_has 'A,"",1,pathprobe,connect_ms,2026-08-28,c6i.large,1,0,ok,,2026-08-28T01:00:00Z,tree/A/probe.csv,,0' \
    "runs --format csv: \"\" for the empty condition, the same time"
run "$PS" runs --db t.db --format json
expect_out_has '"condition": "", ' "runs --format json: \"\" for the empty condition"
expect_out_has '"started_utc": "2026-08-28T01:00:00Z"' "runs --format json: the same time"

# new tags: new columns; tags named like run_view's own columns, or like
# another tag but for case, get "tag:" names
mk tree/B '{"path": "B", "trial": 1, "status": "beta", "Day": "Friday", "region": "r1"}'
run "$PS" ingest --db t.db tree
expect_code 0 "tags named like columns"
expect_sql t.db "SELECT group_concat(name, ' ') FROM pragma_table_info('run_view')" \
    "run_id path condition trial tool metric tag:Day day instance_type region tag:status status reason failures attempts started_utc tags file summary_file" \
    "run_view: the new tags' columns, clashes as tag:NAME"
expect_sql t.db "SELECT \"tag:status\" || ' ' || status || ' ' || \"tag:Day\" || ' ' || region FROM run_view WHERE path = 'B'" \
    "beta ok Friday r1" "each clashing tag keeps its value apart from the column it is named like"
expect_sql t.db "SELECT count(*) FROM run_view WHERE region IS NULL" 1 "a run without a tag: NULL in its column"
sql t.db "SELECT sql FROM sqlite_schema WHERE name = 'run_view'" > v1
run "$PS" ingest --db t.db tree
sql t.db "SELECT sql FROM sqlite_schema WHERE name = 'run_view'" > v2
ok 'cmp -s v1 v2' "an ingest with no new tag key leaves the view as it is"
test_done

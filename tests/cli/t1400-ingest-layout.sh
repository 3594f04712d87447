# t1400: --layout patterns from the articles' trees, --tag, and their
# priority over meta.json.

probe() {
	{
		echo "# pathprobe 1 target=h:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,$2,ok"
		echo "1,1787878800200000000,$3,ok"
		echo "2,1787878800400000000,$4,ok"
	} > "$1"
}
# the first article: instance type / path / condition / trial folders
mkdir -p t1/c6i.large/A/tcp/trial1 t1/c6i.large/A/tcp/trial2 t1/c7g.xlarge/B/udp/trial1
probe t1/c6i.large/A/tcp/trial1/probe.csv 0.21 0.22 0.23
probe t1/c6i.large/A/tcp/trial2/probe.csv 0.24 0.22 0.23
probe t1/c7g.xlarge/B/udp/trial1/probe.csv 1.65 1.66 1.67
run "$PS" ingest --db l1.db --layout '{tag:instance_type}/{path}/{cond}/trial{trial}/{*}' t1
expect_code 0 "layout with tag, path, cond, trial"
expect_sql l1.db "SELECT group_concat(path || ':' || condition || ':' || trial, ' ') FROM (SELECT * FROM run_view ORDER BY path, trial)" "A:proto=tcp:1 A:proto=tcp:2 B:proto=udp:1" "keys from the path"
expect_sql l1.db "SELECT value FROM run_tags t JOIN run_view r ON r.run_id = t.run_id WHERE r.path = 'B' AND t.key = 'instance_type'" "c7g.xlarge" "{tag:instance_type} becomes a tag"

# the second article: flat names, trial from a folder
mkdir -p t2/trial1 t2/trial2
cp "$TOP/tests/fixtures/reference/oha/synthetic-v1.15.0-normal.json" t2/trial1/A_ka-on_c1_1k.json
cp "$TOP/tests/fixtures/reference/oha/synthetic-v1.15.0-single.json" t2/trial2/A_ka-on_c1_1k.json
cp "$TOP/tests/fixtures/reference/oha/synthetic-v1.15.0-all_failed.json" t2/trial1/G_ka-off_c16_1m.json
run "$PS" ingest --db l2.db --layout 'trial{trial}/{path}_{cond}.json' --tag instance_type=c7g.xlarge t2
expect_code 0 "flat names with trial from the folder"
expect_sql l2.db "SELECT group_concat(path || ':' || condition || ':' || trial, ' ') FROM (SELECT * FROM run_view ORDER BY path, trial)" "A:c=1,ka=on,size=1k:1 A:c=1,ka=on,size=1k:2 G:c=16,ka=off,size=1m:1" "path and condition split from the file name"
expect_sql l2.db "SELECT count(DISTINCT run_id) FROM run_tags WHERE key = 'instance_type' AND value = 'c7g.xlarge'" 3 "--tag applies to every file"
expect_sql l2.db "SELECT failures FROM run_view WHERE path = 'G'" 200 "all-failed oha run keeps its 200 failures"

# priority: meta.json < --layout < --tag
mkdir -p t3/X/trial1
echo '{"path": "META", "trial": 9, "region": "from-meta"}' > t3/meta.json
probe t3/X/trial1/probe.csv 1 2 3
run "$PS" ingest --db l3.db --layout '{path}/trial{trial}/{*}' --tag region=from-tag t3
expect_sql l3.db "SELECT path || ':' || trial FROM run_view" "X:1" "--layout wins over meta.json"
expect_sql l3.db "SELECT value FROM run_tags WHERE key = 'region'" "from-tag" "--tag wins over meta.json"
run "$PS" ingest --db l3b.db --layout '{path}/trial{trial}/{*}' --tag path=TAGGED t3
expect_sql l3b.db "SELECT path FROM run_view" "TAGGED" "--tag path wins over --layout"

# a layout that does not match and no other path: rejected with the reason
mkdir -p t4/loose && probe t4/loose/p.csv 1 2 3
run "$PS" ingest --db l4.db --layout 'trial{trial}/{path}_{cond}.json' t4
expect_code 1 "no path ID: exit 1"
expect_err_has "the layout 'trial{trial}/{path}_{cond}.json' does not match" "the unmatched layout is named"

# a token the condition grammar does not know is kept as the tag label,
# and said once; an unsafe captured value is refused with the reason
mkdir -p t5/A/weird t5/B/=v && probe t5/A/weird/p.csv 1 2 3 && probe t5/B/=v/p.csv 4 5 6
run "$PS" ingest --db l5.db --layout '{path}/{cond}/{*}' t5
expect_code 1 "an unsafe condition value: exit 1"
expect_err_has "t5/A/weird/p.csv: condition 'weird' kept as the tag label=weird: not in the condition grammar" \
    "the unknown token is named, kept as a tag"
expect_err_has "t5/B/=v/p.csv: layout '{path}/{cond}/{*}': condition token '=v' has an empty or unsafe key or value" \
    "the unsafe token is named"
expect_sql l5.db "SELECT group_concat(path || ':' || condition || ':' || label) FROM run_view" "A::weird" "stored under the tag label"

# keys with Markdown/SQL/shell specials survive as data
mkdir -p t6/x && probe t6/x/p.csv 1 2 3
run "$PS" ingest --db l6.db --tag "path=G'; DROP TABLE runs; --" --tag 'note=a|b`c$(x)' t6
expect_code 0 "odd characters in keys are data"
expect_sql l6.db "SELECT path FROM run_view" "G'; DROP TABLE runs; --" "a path ID with quotes reaches the DB as data"
test_done

# t1000: ingest of a small tree keyed by meta.json: runs, tags, samples,
# failures, re-ingest, changed files, unknown and broken files.

mkdir -p tree/A/trial1 tree/A/trial2 tree/B/trial1
echo '{"instance_type": "c6i.large", "region": "ap-northeast-1"}' > tree/meta.json
for p in A B; do echo "{\"path\": \"$p\"}" > tree/$p/meta.json; done
echo '{"trial": 1}' > tree/A/trial1/meta.json
echo '{"trial": 2, "instance_type": "c7g.xlarge"}' > tree/A/trial2/meta.json
echo '{"trial": 1}' > tree/B/trial1/meta.json
probe() { # file start_ns values... ("t" = timeout, "r" = refused)
	f=$1; shift; ns=$1; shift
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=$# interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		i=0
		for v in "$@"; do
			case $v in
			t) echo "$i,$((ns + i * 200000000)),,timeout" ;;
			r) echo "$i,$((ns + i * 200000000)),,refused" ;;
			*) echo "$i,$((ns + i * 200000000)),$v,ok" ;;
			esac
			i=$((i + 1))
		done
	} > "$f"
}
probe tree/A/trial1/probe.csv 1787878800000000000 0.21 0.22 t 0.20 0.25
probe tree/A/trial2/probe.csv 1787878900000000000 0.23 0.21 0.20 r
probe tree/B/trial1/probe.csv 1787879000000000000 1.65 1.70 1.74
echo "not a result" > tree/notes.txt
: > tree/A/trial1/stderr.txt                    # collector sidecars: quiet
echo "pathprobe -n 5 h 5201" > tree/A/trial1/cmd.txt
echo 0 > tree/A/trial1/exit_status
echo '{"unrelated": true}' > tree/B/other.json
mkdir -p tree/.hidden && probe tree/.hidden/probe.csv 1 1.0
probe tree/A/trial1/probe.csv.s3sync 1 1.0
probe tree/A/trial1/probe.csv.1a2B3c4D 1 1.0

run "$PS" ingest --db t.db tree
expect_code 0 "ingest of a clean tree exits 0"
expect_err_has "tree/notes.txt: skipped" "unknown file named as skipped"
expect_err_lacks "stderr.txt: empty" "an empty collector stderr.txt is not an error"
expect_err_has "3 collector sidecar files" "sidecars are counted, not listed"
expect_err_lacks ".hidden" "hidden folders are not walked"
expect_err_lacks "s3sync" "sync temp files are not walked"
expect_err_lacks "1a2B3c4D" "s3transfer temp files are not walked"
expect_err_has "3 stored" "summary line counts stored files"
expect_sql t.db "SELECT count(*) FROM runs" 3 "three runs"
expect_sql t.db "SELECT count(*) FROM samples" 12 "every probe is a sample, failures too"
expect_sql t.db "SELECT count(*) FROM samples WHERE value IS NULL" 2 "failed probes have no value"
expect_sql t.db "SELECT group_concat(failures) FROM (SELECT failures FROM runs ORDER BY id)" "1,1,0" "failures per run"
expect_sql t.db "SELECT value FROM run_tags t JOIN runs r ON r.id = t.run_id WHERE r.trial = 2 AND t.key = 'instance_type'" "c7g.xlarge" "nearer meta.json wins"
expect_sql t.db "SELECT value FROM run_tags WHERE key = 'region' LIMIT 1" "ap-northeast-1" "root meta.json tags apply below"
expect_sql t.db "SELECT status FROM files WHERE relpath = 'tree/notes.txt'" "skipped" "unknown file recorded as skipped"

run "$PS" runs --db t.db --format json
expect_code 0 "runs --format json"
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert len(r)==3; assert all(k in x for x in r for k in (\"path\",\"condition\",\"trial\",\"tool\",\"samples\",\"status\",\"file\",\"instance_type\",\"region\"))'" "runs json rows carry the contract keys and tags"
run "$PS" runs --db t.db --where path=B --format csv
expect_out_has "B," "runs --where path=B"
expect_out_lacks "tree/A/" "runs --where filters other paths"
run "$PS" runs --db t.db --where instance_type=c7g.xlarge --format csv
ok "[ \$(printf '%s\n' \"\$OUT\" | wc -l) = 2 ]" "runs --where on a tag"

run "$PS" ingest --db t.db tree
expect_code 0 "re-ingest exits 0"
expect_err_has "5 unchanged" "re-ingest skips unchanged files, known and unknown"
expect_sql t.db "SELECT count(*) FROM runs" 3 "re-ingest adds no run"
expect_sql t.db "SELECT count(*) FROM samples" 12 "re-ingest adds no sample"

probe tree/B/trial1/probe.csv 1787879000000000000 1.65 1.70 1.74 1.80
run "$PS" ingest --db t.db tree
expect_sql t.db "SELECT count(*) FROM runs" 3 "a changed file replaces its run"
expect_sql t.db "SELECT count(*) FROM samples" 13 "a changed file replaces its samples"

echo '{"trial": 5}' > tree/B/trial1/meta.json
run "$PS" ingest --db t.db tree
expect_code 1 "a changed meta.json: keys would change, exit 1"
expect_err_has "tree/B/trial1/probe.csv: keys would change (trial: 1 -> 5): kept as stored; --rekey applies the new keys" \
    "the change is named and refused"
expect_sql t.db "SELECT trial FROM runs r JOIN paths p ON p.id = r.path_id WHERE p.name = 'B'" 1 "the stored keys stay"
run "$PS" ingest --rekey --db t.db tree
expect_code 0 "--rekey: exit 0"
expect_sql t.db "SELECT trial FROM runs r JOIN paths p ON p.id = r.path_id WHERE p.name = 'B'" 5 "--rekey: a changed meta.json re-keys the file"

cp tree/A/trial1/probe.csv tree/A/trial1/copy.csv
run "$PS" ingest --db t.db tree
expect_err_has "tree/A/trial1/copy.csv: skipped: same content as 'tree/A/trial1/probe.csv'" "duplicate content under the same keys is skipped and named"
expect_sql t.db "SELECT count(*) FROM runs" 3 "duplicate content under the same keys adds no run"
rm tree/A/trial1/copy.csv

PATHSTAT_DB=env.db run "$PS" ingest tree/A
expect_code 0 "PATHSTAT_DB picks the database"
ok "[ -f env.db ]" "database created at \$PATHSTAT_DB"
cd tree && run "$PS" ingest A && cd ..
ok "[ -f tree/pathstat.db ]" "default database ./pathstat.db"
run "$PS" ingest --db tree/pathstat.db tree
expect_err_lacks "pathstat.db" "the database itself is not ingested"

# gzip is read transparently (also two members, as `cat a.gz b.gz` makes)
mkdir -p gz/C/trial1 && echo '{"path": "C", "trial": 1}' > gz/C/trial1/meta.json
probe gz/C/trial1/probe.csv 1787879100000000000 8.89 8.90 8.91
gzip -9 gz/C/trial1/probe.csv
run "$PS" ingest --db gz.db gz
expect_code 0 "a .gz file ingests"
expect_sql gz.db "SELECT kind || ':' || (SELECT count(*) FROM samples) FROM files" "pathprobe-csv:3" "sniffed and parsed through gzip"
head -c 20 gz/C/trial1/probe.csv.gz > gz/C/trial1/cut.csv.gz
run "$PS" ingest --db gz.db gz
expect_code 1 "a cut gzip file: exit 1"
expect_err_has "cut.csv.gz: broken gzip data" "a cut gzip file says so"

# two files claiming the same run keys: both kept, reported as a conflict
mkdir -p cf/A/trial1 && echo '{"path": "A", "trial": 1}' > cf/A/trial1/meta.json
probe cf/A/trial1/one.csv 1787879200000000000 0.21 0.22
probe cf/A/trial1/two.csv 1787879300000000000 0.23 0.24
run "$PS" ingest --db cf.db cf
expect_code 0 "conflicting files both ingest"
expect_err_has "conflict: path A: 2 runs share their keys (trial 1, tool pathprobe, condition (none))" "ingest warns about the conflict, once for the path"
expect_sql cf.db "SELECT count(*) FROM runs" 2 "both runs kept"
run "$PS" runs --db cf.db --format json
ok "printf '%s' \"\$OUT\" | \"\$PY\" -c 'import json,sys; r=json.load(sys.stdin); assert len(r) == 2 and all(x[\"conflict\"] == 1 for x in r)'" "runs marks both as conflicting"
run "$PS" runs --db cf.db
expect_out_has "CONFLICT" "Markdown shows CONFLICT"
test_done

# t1500: every reference sample file (iperf3 3.0.11-3.22 with external
# captures, oha v1.15 JSON) through the whole ingest command: each file's
# status and run count in the database match the table Python's json
# module made (tests/fixtures/iperf3-expected.txt) and oha's oracle.

cp -r "$SAMPLES" ref
run "$PS" ingest --db r.db --layout '{tag:version}/{tag:name}' --tag path=ref ref
expect_code 1 "reference samples include files that must be rejected: exit 1"
cat > cmp.py <<'PY'
import sqlite3, sys
want = {}
for line in open(sys.argv[1]):
    f = line.split()
    if f and f[0] == "file":
        want["ref/iperf3/" + f[1]] = (f[2], int(f[3]))
db = sqlite3.connect("r.db")
got = {r[0]: (r[1], r[2]) for r in db.execute(
    "SELECT relpath, status, (SELECT count(*) FROM runs WHERE file_id = files.id "
    "OR summary_file_id = files.id) FROM files")}
bad = [k for k in want if got.get(k) != want[k]]
for k in bad[:10]:
    print("#   %s: got %s want %s" % (k, got.get(k), want[k]))
missing = [k for k in got if k.startswith("ref/iperf3/") and k.endswith((".json", ".jsonl", ".res")) and k not in want]
for k in missing[:5]:
    print("#   %s: not in the expected table" % k)
sys.exit(1 if bad or missing else 0)
PY
run "$PY" cmp.py "$TOP/tests/fixtures/iperf3-expected.txt"
expect_code 0 "every iperf3 sample: status and run count as expected ($(grep -c '^file' "$TOP/tests/fixtures/iperf3-expected.txt") files)"
[ "$RC" = 0 ] || echo "$OUT"
expect_sql r.db "SELECT count(*) FROM files WHERE relpath LIKE 'ref/oha/%.json' AND kind = 'oha-json' AND status = 'ok'" 4 "all four oha JSON samples ingest"
expect_sql r.db "SELECT kind || ':' || status FROM files WHERE relpath = 'ref/oha/schema.json'" "unknown:skipped" "oha's schema.json is not a result"
expect_sql r.db "SELECT failures FROM runs r JOIN files f ON f.id = r.summary_file_id WHERE f.relpath LIKE '%all_failed.json'" 200 "all-failed oha run keeps its 200 failures"
expect_sql r.db "SELECT count(*) FROM files WHERE (relpath LIKE 'ref/iperf3/%README.cmds' OR relpath LIKE '%SOURCES') AND status = 'skipped'" 4 "notes files are recorded (as skipped)"
expect_sql r.db "SELECT count(*) FROM runs WHERE status NOT IN ('ok', 'partial')" 0 "runs are ok or partial only"
test_done

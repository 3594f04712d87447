# t1200: ingest of the committed sample tree checked against the
# generator's own record (samples/expected.json, written independently of
# the C code): every run with its keys, tags, sample and failure counts,
# the oha JSON paired with its per-request file, oha's own p50.

cp -r "$TOP/samples/tree" tree
run "$PS" ingest --db s.db tree
expect_code 0 "the sample tree ingests cleanly"
expect_err_has "0 rejected" "nothing rejected"

run "$PS" runs --db s.db --format json
expect_code 0 "runs --format json"
printf '%s' "$OUT" > runs.json
"$PS" runs --db s.db --files --format json > files.json
cat > check.py <<'PY'
import json, sqlite3, sys
exp = json.load(open(sys.argv[1]))["runs"]
runs = json.load(open("runs.json"))
db = sqlite3.connect("s.db")
bad = []
def key(path, cond, trial, tool, tags):
    return (path, cond, int(trial), tool, tuple(sorted(tags.items())))
got = {}
for r in runs:
    tags = {k: v for k, v in r.items() if k not in ("path", "condition", "trial",
            "tool", "metric", "samples", "failures", "status", "reason",
            "started_utc", "file", "summary_file", "conflict") and v is not None}
    got.setdefault(key(r["path"], r["condition"], r["trial"], r["tool"], tags), []).append(r)
if len(runs) != len(exp):
    bad.append("runs: got %d, want %d" % (len(runs), len(exp)))
for e in exp:
    k = key(e["path"], e["condition"], e["trial"], e["tool"], e["tags"])
    g = got.get(k)
    if not g or len(g) != 1:
        bad.append("missing or doubled: %s" % (k,))
        continue
    g = g[0]
    if g["samples"] != e["samples"]:
        bad.append("%s: samples %s want %s" % (k, g["samples"], e["samples"]))
    if g["failures"] != e["failures"]:
        bad.append("%s: failures %s want %s" % (k, g["failures"], e["failures"]))
    # oha's CSV and JSON carry no absolute time: the start stays unknown
    if e.get("per_request") != "csv" and g["started_utc"] != e["start_utc"]:
        bad.append("%s: start %s want %s" % (k, g["started_utc"], e["start_utc"]))
    if g["conflict"]:
        bad.append("%s: marked conflict" % (k,))
    if e["tool"] == "oha":
        # both files feed the one run
        files = sorted(x for x in (g["file"], g["summary_file"]) if x)
        want = sorted("tree/" + f for f in e["file"])
        if files != want:
            bad.append("%s: files %s want %s" % (k, files, want))
        p50 = e["oha"]["latencyPercentiles"]["p50"]
        row = db.execute("SELECT s.value FROM summaries s JOIN runs r ON r.id = s.run_id "
                         "JOIN files f ON f.id = r.summary_file_id WHERE f.relpath = ? "
                         "AND s.metric = 'http_ms' AND s.stat = 'p50'",
                         ("tree/" + [f for f in e["file"] if f.endswith(".json")][0],)).fetchone()
        if p50 is None and row and row[0] is not None or p50 is not None and (not row or abs(row[0] - p50 * 1000) > 1e-9):
            bad.append("%s: oha p50 %s want %s ms" % (k, row, p50 * 1000 if p50 else None))
print("\n".join(bad[:20]))
sys.exit(1 if bad else 0)
PY
run "$PY" check.py "$TOP/samples/expected.json"
expect_code 0 "every run matches expected.json (keys, tags, counts, start, pairing, oha p50)"
[ "$RC" = 0 ] || echo "$OUT" | sed 's/^/#   /'

expect_sql s.db "SELECT count(*) FROM runs r JOIN files f ON f.id = r.file_id WHERE f.kind = 'oha-csv' AND r.started_at IS NOT NULL" 0 "no start time is invented for oha CSV runs"
expect_sql s.db "SELECT count(*) FROM runs WHERE tool = 'oha' AND (file_id IS NULL OR summary_file_id IS NULL)" 0 "every oha run has both its requests and its summary"
expect_sql s.db "SELECT failures FROM runs r JOIN files f ON f.id = r.summary_file_id WHERE f.relpath LIKE '%trial3/H_ka-on_c16_1k/%'" 3 "oha errors counted as failures although the SQLite file holds successes only"

# The same tree twice (fresh database, other order of arguments) gives the
# same rows: ingest is deterministic.
run "$PS" ingest --db s2.db tree/tokyo-osaka tree/ecs-conn
dump() { sqlite3 "$1" "SELECT path, condition, trial, tool, metric, count(*), sum(value) FROM sample_view GROUP BY run_id ORDER BY 1,2,3,4,5,6,7"; }
ok "[ \"\$(dump s.db)\" = \"\$(dump s2.db)\" ]" "two ingests of the same tree agree sample for sample"
test_done

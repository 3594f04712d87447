# t1911: real oha outputs (tests/fixtures/oha-real, written by oha binaries
# built with cargo at several versions, see its make.sh and SOURCES files)
# are ingested: every file's kind and the version its keys or schema tell,
# each run's sample count equal to the file's own request count, and
# pathstat's --quantile oha percentiles (and min, max, mean) of the
# per-request rows equal oha's own JSON summary of the SAME run (oha
# wrote the JSON and the --db-url file together), read by Python from
# the files.  The CSV run's --db-url file (same run) gives the same
# samples as its CSV.
have_prereq NUMPY || skip_all "python3 with numpy not available"
REAL="$FIX/oha-real"
vers=$(cd "$REAL" && ls -d v[0-9]* 2>/dev/null)
[ -n "$vers" ] || skip_all "no real oha outputs in tests/fixtures/oha-real"

cat > oracle.py <<'PY'
import glob, json, os, sqlite3, sys
root, dbpath, pctpath, ver = sys.argv[1:5]
v = tuple(int(x) for x in ver.split("."))
db = sqlite3.connect(dbpath)
pct = {(r["path"], r["condition"]): r for r in json.load(open(pctpath))}
bad, checks = [], 0

def want_version(kind):
    if kind == "oha-json":
        for lo, name in (((1, 15), "oha >=1.15"), ((1, 13), "oha >=1.13 <1.15"),
                         ((1, 4, 5), "oha >=1.4.5 <1.13"),
                         ((0, 6, 4), "oha >=0.6.4 <1.4.5")):
            if v >= lo:
                return name
        return "oha >=0.5.4 <0.6.4"
    if kind == "oha-sqlite":
        return "oha >=1.9" if v >= (1, 9) else "oha >=1.5 <1.9" \
            if v >= (1, 5) else "oha >=1.4.6 <1.5"
    return "oha >=1.9"

def rows_of(f):
    """durations (s) in the file's order, and the request count"""
    if f.endswith(".db"):
        c = sqlite3.connect("file:%s?mode=ro" % f, uri=True)
        d = [r[0] for r in c.execute("SELECT duration FROM oha ORDER BY rowid")]
        c.close()
        return d
    lines = open(f).read().split("\n")
    return [float(x.split(",")[4]) for x in lines[1:] if x]

kinds = {".json": "oha-json", ".db": "oha-sqlite", ".csv": "oha-csv"}
files = dict((r[0], r[1:]) for r in db.execute(
    "SELECT relpath, kind, tool_version, status FROM file_view")
    if os.path.splitext(r[0])[1] in kinds and not r[0].endswith("meta.json"))
ondisk = sorted(os.path.relpath(p, os.path.dirname(root))
                for p in glob.glob(root + "/**/*", recursive=True)
                if os.path.splitext(p)[1] in kinds and not p.endswith("meta.json"))
if sorted(files) != ondisk:
    bad.append("files %s, on disk %s" % (sorted(files), ondisk))
for rel, (kind, tv, status) in sorted(files.items()):
    checks += 1
    want = kinds[os.path.splitext(rel)[1]]
    if (kind, tv, status) != (want, want_version(want), "ok"):
        bad.append("%s: %s / %s / %s, want %s / %s / ok" % (rel, kind, tv, status,
                                                        want, want_version(want)))

runs = db.execute("SELECT run_id, path, condition, trial, file, summary_file,"
                  " failures, attempts FROM run_view WHERE tool = 'oha'").fetchall()
csvdb = {}
for rid, path, cond, trial, f, sf, failures, attempts in runs:
    fp = os.path.join(os.path.dirname(root), f)
    durs = rows_of(fp) if not f.endswith(".json") else []
    n = db.execute("SELECT count(*) FROM samples WHERE run_id = ?", (rid,)).fetchone()[0]
    checks += 1
    if n != len(durs):
        bad.append("%s: %d samples, the file has %d requests" % (f, n, len(durs)))
    if f.endswith(".db") and "csv" in f.split("/")[-3] or f.endswith(".csv"):
        vals = [r[0] for r in db.execute(
            "SELECT value FROM samples WHERE run_id = ? ORDER BY value", (rid,))]
        csvdb[f.endswith(".csv")] = vals
        continue
    if not sf:
        if f.endswith(".json"):
            continue            # a JSON without --db-url (oha < 1.4.6)
        bad.append("%s: no JSON paired" % f)
        continue
    doc = json.load(open(os.path.join(os.path.dirname(root), sf)))
    nst = sum(doc["statusCodeDistribution"].values())
    nerr = sum(doc["errorDistribution"].values())
    checks += 1
    if nst != len(durs) or (failures, attempts) != (nerr, nst + nerr):
        bad.append("%s: JSON %d responses %d errors; rows %d, run %s/%s" % (
            sf, nst, nerr, len(durs), failures, attempts))
    # oha's rule on the rows (Python, independent of pathstat) gives the
    # JSON's own numbers: the fixture is one run
    s = sorted(durs)
    lp = doc["latencyPercentiles"]
    for k, x in lp.items():
        checks += 1
        i = int(float(k[1:]) / 100.0 * len(s))
        if x != s[i]:
            bad.append("%s %s: JSON %r, rows sorted[%d] %r" % (sf, k, x, i, s[i]))
    # pathstat's --quantile oha from the samples = oha's JSON (ms)
    r = pct.get((path, cond))
    if not r:
        bad.append("no percentile row for %s %s" % (path, cond))
        continue
    for k, x in lp.items():
        checks += 1
        if r.get(k) != x * 1000:
            bad.append("%s %s %s: pathstat %r, oha %r" % (path, cond, k, r.get(k), x * 1000))
    sm = doc["summary"]
    for k, st in (("fastest", "min"), ("slowest", "max")):
        checks += 1
        if r.get(st) != sm[k] * 1000:
            bad.append("%s %s %s: pathstat %r, oha %s %r" % (path, cond, st, r.get(st), k, sm[k] * 1000))
    checks += 1
    if abs(r["mean"] - sm["average"] * 1000) > 1e-12 * r["mean"]:
        bad.append("%s %s mean: pathstat %r, oha %r" % (path, cond, r["mean"], sm["average"] * 1000))
    # and the summaries ingest kept are oha's numbers
    got = dict(db.execute("SELECT stat, value FROM summary_view WHERE run_id = ?"
                          " AND metric = 'http_ms' AND estimator = 'oha'", (rid,)))
    for k, x in lp.items():
        checks += 1
        if got.get(k) != x * 1000:
            bad.append("%s summaries %s: %r, oha %r" % (sf, k, got.get(k), x * 1000))
if v >= (1, 9):
    checks += 1
    if len(csvdb) != 2 or csvdb[True] != csvdb[False] or not csvdb[True]:
        bad.append("the CSV and the --db-url file of one run differ")
print("%d checks" % checks)
print("\n".join(bad[:15]))
sys.exit(1 if bad or checks < 10 else 0)
PY

for d in $vers; do
	ver=${d#v}
	rm -rf real && cp -R "$REAL/$d" real
	run "$PS" ingest --quiet --db "$d.db" real
	expect_code 0 "oha $ver: every real output ingested"
	run "$PS" analyze percentiles --db "$d.db" --metric http_ms --quantile oha \
	    --stats p10,p25,p50,p75,p90,p95,p99,p99.9,p99.99,min,max,mean --format json
	expect_code 0 "oha $ver: --quantile oha percentiles"
	printf '%s' "$OUT" > "$d.pct.json"
	run "$PY" oracle.py "$TMP/real" "$d.db" "$d.pct.json" "$ver"
	ok '[ $RC = 0 ]' "oha $ver: kinds, versions, counts; --quantile oha = oha's JSON of the same run ($OUT)"
done
test_done

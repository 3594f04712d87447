# t1912: the emulated oha fixtures against real oha outputs
# (tests/fixtures/oha-real, made by its make.sh with oha binaries built by
# cargo).  Per real version: the JSON key paths (in order, maps opaque)
# and percentile keys equal those of the emulated file of that version;
# the --db-url table's columns and CREATE text equal the emulated .sql's
# and fake-oha's; the CSV header equals small.csv's and fake-oha's; the
# URL form of the rows; the flags fake-oha advertises exist in the real
# --help.  Then samples/check_formats.py (the rules the sample generator
# follows: number layout, BTreeMap order, percentile index, Welford mean,
# histogram counts, metrics rounding, requestsPerSec) runs on the real
# v1.15+ outputs, so a wrong rule in the emulation fails here, and its
# number layout and mean rules on every version.
have_prereq NUMPY || skip_all "python3 not available"
REAL="$FIX/oha-real"
vers=$(cd "$REAL" && ls -d v[0-9]* 2>/dev/null)
[ -n "$vers" ] || skip_all "no real oha outputs in tests/fixtures/oha-real"

cat > cmp.py <<'PY'
import json, os, re, sqlite3, sys
real, fix, top, ver = sys.argv[1:5]
v = tuple(int(x) for x in ver.split("."))
bad, checks = [], 0
MAPS = {"responseTimeHistogram", "latencyPercentiles", "firstByteHistogram",
        "firstBytePercentiles", "statusCodeDistribution", "errorDistribution",
        "percentiles"}

def load(p):
    t = open(p, encoding="utf-8", errors="replace").read()
    return json.JSONDecoder().raw_decode(t[t.index("{"):])[0]

def paths(d, pre="", ordered=True):
    out = []
    for k, x in d.items():
        out.append(pre + k)
        if isinstance(x, dict) and k not in MAPS:
            out += paths(x, pre + k + ".", ordered)
    return out if ordered else sorted(out)

def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        bad.append(msg)

doc = load(os.path.join(real, "json-db/ka-on_c1_1k/oha.json"))
if v >= (1, 15):
    emu = [(os.path.join(fix, "reference/oha/synthetic-v1.15.0-normal.json"), True)]
    import glob
    emu += [(sorted(glob.glob(os.path.join(top, "samples/tree/**/*_ka-on_c1_1k.json"),
                              recursive=True))[0], True)]
elif v >= (1, 13):
    emu = [(os.path.join(fix, "oha/v1.13-breakdown.json"), True)]
elif v >= (1, 4, 5):
    emu = [(os.path.join(fix, "oha/v1.4.5-crlf-junk.json"), False)]
else:
    emu = [(os.path.join(fix, "oha/v0.5.4.json"), False)]
for path, ordered in emu:
    e = load(path)
    for k in [k for k in e if "Successful" in k]:
        del e[k]                # --stats-success-breakdown, not asked of the real one
    pr, pe = paths(doc, ordered=ordered), paths(e, ordered=ordered)
    check(pr == pe, "%s: key paths %s, real %s" % (os.path.basename(path),
          [x for x in pe if x not in pr] or pe, [x for x in pr if x not in pe] or pr))
    for m in ("latencyPercentiles", "firstBytePercentiles"):
        if m in doc or m in e:
            check(sorted(doc.get(m, {})) == sorted(e.get(m, {})),
                  "%s: %s keys differ" % (os.path.basename(path), m))
    check(sorted(doc["rps"]["percentiles"]) == sorted(e["rps"]["percentiles"]),
          "%s: rps.percentiles keys" % os.path.basename(path))

# --db-url: columns and CREATE text
def norm(sql):
    sql = re.sub(r"\s+", " ", sql).strip().rstrip(";")
    return re.sub(r"\( ", "(", re.sub(r" \)", ")", sql)).replace("IF NOT EXISTS ", "")
dbf = os.path.join(real, "json-db/ka-on_c1_1k/oha.db")
if os.path.exists(dbf):
    c = sqlite3.connect("file:%s?mode=ro" % dbf, uri=True)
    rsql = c.execute("SELECT sql FROM sqlite_master WHERE name = 'oha'").fetchone()[0]
    rcols = [r[1:4] for r in c.execute("PRAGMA table_info(oha)")]
    urls = {r[0] for r in c.execute("SELECT url FROM oha")}
    c.close()
    sqlf = "v1.9.sql" if v >= (1, 9) else "v1.5.sql" if v >= (1, 5) else "v1.4.6.sql"
    text = open(os.path.join(fix, "oha", sqlf)).read()
    esql = re.search(r"^CREATE TABLE[^;]*;", text, re.M).group(0)
    check(norm(rsql) == norm(esql), "CREATE: real %r, %s %r" % (norm(rsql), sqlf, norm(esql)))
    m = sqlite3.connect(":memory:")
    m.execute(esql)
    ecols = [r[1:4] for r in m.execute("PRAGMA table_info(oha)")]
    check(rcols == ecols, "columns: real %s, %s %s" % (rcols, sqlf, ecols))
    ins = re.findall(r"INSERT INTO oha VALUES \('([^']*)'", text)
    if v >= (1, 11):
        check(urls == {"/bytes/1024"}, "url of v1.11+: origin form, real %s" % urls)
        check(all(u.startswith("/") for u in ins), "%s urls origin form: %s" % (sqlf, ins[:2]))
    elif v >= (1, 5):
        check(all(u.startswith("http://127.0.0.1:") for u in urls), "url of v1.5-1.10: absolute, real %s" % urls)
        check(all(u.startswith("http://") for u in ins), "%s urls absolute: %s" % (sqlf, ins[:2]))
    if v >= (1, 9):
        fake = open(os.path.join(top, "tests/cli/helper/fake-oha")).read()
        fsql = re.search(r'"(CREATE TABLE[^)]*\))"', fake.replace('"\n          "', ""))
        check(fsql and norm(fsql.group(1)) == norm(rsql), "fake-oha CREATE %r" % (fsql and fsql.group(1)))

csvf = os.path.join(real, "csv/ka-on_c4_1k/oha.csv")
if v >= (1, 9):
    check(os.path.exists(csvf), "v1.9+ writes --output-format csv")
if os.path.exists(csvf):
    head = open(csvf).readline().rstrip("\n")
    check(head == open(os.path.join(fix, "oha/small.csv")).readline().rstrip("\n"),
          "CSV header %r differs from small.csv" % head)
    fake = open(os.path.join(top, "tests/cli/helper/fake-oha")).read()
    check(("echo \"%s\"" % head) in fake, "fake-oha's CSV header differs from %r" % head)
    rows = [x.split(",") for x in open(csvf).read().split("\n")[1:] if x]
    # keep-alive, -c 4: DNS and DNS+dialup only on the 4 requests that
    # opened a connection, 0 on the rest (what small.csv and the sample
    # generator assume)
    opened = [r for r in rows if float(r[2]) != 0]
    check(len(opened) == 4 and all(float(r[1]) == 0 for r in rows if float(r[2]) == 0),
          "CSV: %d rows with DNS+dialup, want 4 (c=4, keep-alive)" % len(opened))
    check(all(len(r) == 7 for r in rows) and [float(r[0]) for r in rows] ==
          sorted(float(r[0]) for r in rows), "CSV rows: 7 fields, sorted by request-start")

# fake-oha's advertised flags exist in the real --help
help_ = open(os.path.join(real, "help.txt")).read()
version = open(os.path.join(real, "version.txt")).read()
check(re.fullmatch(r"oha \d+\.\d+\.\d+\n", version) is not None, "version line %r" % version)
if v >= (1, 15):
    fake = open(os.path.join(top, "tests/cli/helper/fake-oha")).read()
    fh = re.search(r"ver=1\.15\.0\n\thelp='([^']*)'", fake).group(1)
    for flag in re.findall(r"--[a-z-]+|-[nc] ", fh):
        check(flag.strip() in help_, "fake-oha flag %s not in the real --help" % flag)
    for val in ("text", "json", "csv", "quiet"):
        check(val in help_, "--output-format %s in the real --help" % val)
print("%d checks" % checks)
print("\n".join(bad[:12]))
sys.exit(1 if bad or checks < 5 else 0)
PY

# every version: serde_json's number layout (ryu before v1.13, zmij
# after), Rust Display histogram labels, and the Welford mean, by the
# functions of samples/check_formats.py
cat > layout.py <<'PY'
import glob, json, sqlite3, sys
sys.path.insert(0, sys.argv[1])
import check_formats as cf
n = 0
for p in sorted(glob.glob(sys.argv[2] + "/json-db/*/oha.json")):
    t = open(p).read()
    cf.check_serde_text(p, t, json.loads(t))
    c = sqlite3.connect("file:%s?mode=ro" % (p[:-4] + "db"), uri=True)
    durs = [r[0] for r in c.execute("SELECT duration FROM oha ORDER BY rowid")]
    st = cf.oha_stats_from_rows(durs, None, 0)
    if st["average"] != json.loads(t)["summary"]["average"]:
        cf.fail(p, "average is not the Welford mean of the rows in collection order")
    n += 1
print("%d files; %s" % (n, "; ".join(cf.failures[:5])))
sys.exit(1 if cf.failures or n == 0 else 0)
PY

for d in $vers; do
	ver=${d#v}
	run "$PY" layout.py "$TOP/samples" "$REAL/$d"
	ok '[ $RC = 0 ]' "oha $ver: serde number layout, histogram labels, Welford average ($OUT)"
	run "$PY" cmp.py "$REAL/$d" "$FIX" "$TOP" "$ver"
	ok '[ $RC = 0 ]' "oha $ver: emulated fixtures have the real keys, columns and header ($OUT)"
	case $ver in
	1.1[5-9]*|1.[2-9][0-9]*|[2-9]*)
		# the sample generator's rules, checked on real output: data
		# files and meta.json only (check_formats refuses other files)
		rm -rf cf && mkdir cf
		(cd "$REAL/$d" && find . -name 'oha.*' -o -name meta.json) |
		    while read -r f; do f=${f#./}; mkdir -p "cf/${f%/*}"; cp "$REAL/$d/$f" "cf/$f"; done
		run "$PY" "$TOP/samples/check_formats.py" cf --refs "$FIX/reference"
		ok '[ $RC = 0 ]' "oha $ver: check_formats.py's rules hold on the real output ($OUT)"
		;;
	esac
done
test_done

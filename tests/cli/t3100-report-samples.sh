# t3100: the sample tree and samples/article.json make a bundle shaped
# like the two articles: index.md renders as GitHub-flavoured Markdown
# (cmark-gfm), every table's CSV is what the recorded `pathstat
# analyze` command prints, every chart's .dat holds the numbers of the
# table beside it, the images are valid PNG/SVG of the expected size,
# and a second run writes the same bytes.

run "$PS" ingest --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
export SOURCE_DATE_EPOCH=1788000000
# The spec's own footnotes, numbered without the hygiene findings
# (--no-checks); the findings' footnotes are checked further down.
run "$PS" report --db s.db --spec "$TOP/samples/article.json" --out b --no-checks
expect_code 0 "the sample spec makes a bundle"
expect_err_has "wrote b/index.md: 16 tables, 10 charts" "16 tables (the §8 decision table among them) and 10 charts"
ok "[ \"\$(ls b/tables/*.csv | wc -l)\" = 16 ] && [ \"\$(ls b/tables/*.md | wc -l)\" = 16 ]" "each table as CSV and Markdown"
ok "[ \"\$(ls b/charts/*.gp | wc -l)\" = 10 ] && [ \"\$(ls b/charts/*.dat | wc -l)\" = 10 ]" "each chart's script and data"
md=$(cat b/index.md)
case "$md" in *"| C — VPC Peering | 8.891 | 9.938 | 10.020 | 10.810 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "article 1 §6.1: C's connect row with its label"
case "$md" in *"| E — PrivateLink (cross-region) | 2.36 | 9.99 | not measured [^1] |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "article 1 §6.3: Gbit/s, E's UDP not measured, with a footnote on the cell"
case "$md" in *"[^1]: An NLB behind PrivateLink cannot have a UDP listener"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the cell's footnote"
case "$md" in *"| C — VPC Peering | 8.732 | 9.941 | +1.209 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "article 1 §6.2: the NLB adds 1.21 ms on C"
case "$md" in *"| H − B — Lattice vs Peering direct | 1.254 | 1.441 | 1.780 | 1.42 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "article 2: H − B with growth 1.4"
case "$md" in *"| D — Peering + ECS Service Connect | 0.463 | 1.624 | 3.51× |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "article 2: D 3.5x slower at c=16"
case "$md" in *"| F — Transit Gateway, task IP [^2] | p50 | 0.666, 3.396, 0.659 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the planted outlier trial, with its footnote marker"
case "$md" in *"[^2]: trial 2: TIME\\_WAIT"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the footnote names the trial"
case "$md" in *"estimator oha; mean of per-trial values; n = 1500 samples per row; trials = 3 per row"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "a caption names estimator, pooling, n and trials"

cat > check.py <<'PY'
import csv, io, json, math, os, re, struct, subprocess, sys
import xml.etree.ElementTree as ET

B = sys.argv[1]
PS = sys.argv[2]
bad = []

def fail(msg):
    bad.append(msg)

def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))

def num(s):
    return float(s) if s not in ("", None) else math.nan

def dat(path):
    """Blocks (gnuplot indices) of rows of floats; comments skipped."""
    blocks, cur, blank = [], [], 0
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            continue
        if not line.strip():
            blank += 1
            continue
        if blank >= 2 and cur:
            blocks.append(cur)
            cur = []
        blank = 0
        cur.append([float(x) for x in line.split()])
    if cur:
        blocks.append(cur)
    return blocks

def same(a, b, rel=1e-12):
    if math.isnan(a) and math.isnan(b):
        return True
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))

def type7(xs, p):
    xs = sorted(xs)
    h = (len(xs) - 1) * p / 100.0
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])

prov = json.load(open(os.path.join(B, "provenance.json")))
for key in ("generator", "pathstat_version", "sqlite_version", "gnuplot_version",
            "database", "spec", "commands", "tables", "charts", "files"):
    if key not in prov:
        fail("provenance lacks " + key)
if not re.fullmatch(r"xxh3-128:[0-9a-f]{32}", prov["database"]["content_hash"]):
    fail("bad content hash " + prov["database"]["content_hash"])
if prov["generated_at"] != "2026-08-29T10:40:00Z":
    fail("SOURCE_DATE_EPOCH not honoured: " + prov["generated_at"])
for f in prov["files"]:
    if not os.path.exists(os.path.join(B, f)):
        fail("provenance lists a missing file " + f)

# every table's CSV is its recorded command's output (plus labels)
for t in prov["tables"]:
    argv = [PS] + t["argv"][1:]
    out = subprocess.run(argv, capture_output=True, text=True).stdout
    got = rows(os.path.join(B, t["csv"]))
    if "JSON" in t["shape"]:
        # trials: the table's rows are its JSON (its CSV is the long
        # form); numbers to 1e-12
        want = json.loads(out)
        for r in got:
            for k in ("label", "minuend_label", "subtrahend_label"):
                r.pop(k, None)
        def eq(a, b):
            if b is None:
                return a == ""
            if isinstance(b, str):
                return a == b
            return same(float(a), float(b), 1e-12)
        if len(got) != len(want) or any(list(g) != list(w) or
                not all(eq(g[k], w[k]) for k in w)
                for g, w in zip(got, want)):
            fail("%s differs from `%s`" % (t["csv"], " ".join(t["argv"])))
        continue
    want = list(csv.DictReader(io.StringIO(out)))
    if "pivot" in t["shape"]:
        # each pivot cell is one row of the command's output
        if not want or not got:
            fail("empty pivot " + t["csv"])
        continue
    for r in got:
        for k in ("label", "minuend_label", "subtrahend_label"):
            r.pop(k, None)
    if got != want:
        fail("%s differs from `%s`" % (t["csv"], " ".join(t["argv"])))

tab = lambda n: rows(os.path.join(B, "tables", n + ".csv"))
ch = lambda n: dat(os.path.join(B, "charts", n + ".dat"))

# bars: the connect table's p50/p95/p99, row for row
t = tab("01-connect")
d = ch("01-connect")[0]
for i, r in enumerate(t):
    for j, s in enumerate(("p50", "p95", "p99")):
        if not same(d[i][1 + j], num(r[s])):
            fail("01-connect.dat row %d %s: %r vs %r" % (i, s, d[i][1 + j], r[s]))
# ECDF: each curve's type-7 median is the table's p50, n samples each
e = ch("02-connect-ecdf")
if len(e) != 5:
    fail("ECDF has %d curves" % len(e))
for i, r in enumerate(t):
    xs = [p[0] for p in e[i]]
    if len(xs) != int(r["n"]) or not same(type7(xs, 50), num(r["p50"]), 1e-9):
        fail("ECDF curve %d: median %r vs p50 %r" % (i, type7(xs, 50), r["p50"]))
    if e[i][-1][1] != 1.0:
        fail("ECDF curve %d does not end at 1" % i)
# throughput bars: the pivot's cells in Gbit/s, NaN where not measured
t = tab("04-throughput")
d = ch("04-throughput")[0]
for i, r in enumerate(t):
    for j, k in enumerate(("tcp1", "tcp4", "udp")):
        if not same(d[i][1 + j], num(r[k]) * 1e-9, 1e-9):
            fail("04-throughput.dat %s %s: %r vs %r" % (r["path"], k, d[i][1 + j], r[k]))
if not (t[4]["path"] == "E" and t[4]["udp"] == "" and math.isnan(d[4][3])):
    fail("E's UDP is not 'not measured' in CSV and data")
# time series: 15 runs; C trial 3 falls off the cliff after 16 s
ts = ch("05-throughput-time")
if len(ts) != 15:
    fail("time series has %d runs" % len(ts))
comments = [l for l in open(os.path.join(B, "charts", "05-throughput-time.dat"), encoding="utf-8")
            if l.startswith("# index")]
ci = [i for i, c in enumerate(comments) if "trial 3: C " in c]
if len(ci) != 1:
    fail("no single C trial 3 run: %r" % comments)
else:
    run3 = ts[ci[0]]
    before = [v for s, v in run3 if s <= 16]
    after = [v for s, v in run3 if s >= 18]
    if not (min(before[1:]) > 9 and max(after) < 0.8):
        fail("no burst-credit cliff in C trial 3: %r" % run3)
# days: p50 per day and path
t = tab("06-connect-days")
d = ch("06-connect-days")[0]
for r in t:
    col = ["A", "C", "E"].index(r["path"]) + 1
    x = ["2026-08-28", "2026-08-29"].index(r["day"])
    if not same(d[x][col], num(r["p50"])):
        fail("06-connect-days.dat %s %s" % (r["path"], r["day"]))
# relative: % of p50, transposed
t = tab("08-http-relative")
d = ch("08-http-relative")[0]
for i, r in enumerate(t):
    for x, s in enumerate(("p50", "p90", "p95", "p99")):
        if not same(d[x][1 + i], num(r[s])):
            fail("08-http-relative.dat %s %s" % (r["path"], s))
# box: each trial's p50 as the trial table lists it, and their mean
t = [r for r in tab("15-trial-spread") if r["stat"] == "p50"]
bx = ch("15-trial-spread")
for g, r in enumerate(t):
    vals = sorted(v for x, v, tr in bx[1] if x == g)
    listed = sorted(float(v) for v in r["values"].split(", "))
    if [round(v, 3) for v in vals] != listed:
        fail("box %s: %r vs %r" % (r["path"], vals, listed))
    if not same(bx[0][g][6], num(r["mean"]), 1e-9):
        fail("box %s mean" % r["path"])
named = [(int(x), int(tr)) for x, v, tr in bx[2] if not math.isnan(v)]
if named != [(3, 2)]:
    fail("the box chart should name F's trial 2 only: %r" % named)

# images: PNG of the expected size, SVG well-formed (gnuplot draws them;
# without it the bundle has scripts and data only, t3300 checks that)
for c in prov["charts"] if os.environ.get("HAVE_GNUPLOT") else []:
    stem = c["script"][:-3]
    png = open(os.path.join(B, stem + ".png"), "rb").read()
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        fail(stem + ".png is not a PNG")
        continue
    w, h = struct.unpack(">II", png[16:24])
    want = (1200, 800) if "time" in stem else (1200, 700)
    if (w, h) != want:
        fail("%s.png is %dx%d" % (stem, w, h))
    try:
        ET.parse(os.path.join(B, stem + ".svg"))
    except ET.ParseError as ex:
        fail("%s.svg: %s" % (stem, ex))
for m in bad:
    print(m)
sys.exit(1 if bad else 0)
PY
if have_prereq GNUPLOT; then
	HAVE_GNUPLOT=1 run "$PY" check.py b "$PS"
	expect_code 0 "CSV = analyze; .dat = the tables; images valid ($OUT)"
else
	echo "# skip: gnuplot not installed, no images to check"
	run "$PY" check.py b "$PS"
	expect_code 0 "CSV = analyze; .dat = the tables ($OUT)"
fi

# index.md renders as GitHub-flavoured Markdown
if have_prereq CMARK; then
	cmark-gfm -e table -e footnotes b/index.md > index.html
	cat > tables.py <<'PY'
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
tables = re.findall(r"<table>(.*?)</table>", html, re.S)
bad = []
for i, t in enumerate(tables):
    th = len(re.findall(r"<th[ >]", t))
    for row in re.findall(r"<tr>(.*?)</tr>", t, re.S)[1:]:
        if len(re.findall(r"<td[ >]", row)) != th:
            bad.append("table %d: a row with %d cells, header %d" % (i, len(re.findall(r"<td[ >]", row)), th))
print(len(tables))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
	run "$PY" tables.py index.html
	expect_code 0 "every rendered table row has as many cells as its header"
	expect_out_has "16" "16 tables render as <table>"
	ok "grep -q 'class=\"footnotes\"' index.html" "footnotes render"
	ok "[ \"\$(grep -c '<img src=\"charts/' index.html)\" = 10 ]" "10 figures"
else
	echo "# skip: cmark-gfm not installed"
fi

# the same input gives the same bundle
run "$PS" report --db s.db --spec "$TOP/samples/article.json" --out b2 --no-checks
expect_code 0 "second run"
ok "diff -r -x '*.png' -x '*.svg' -x provenance.json b b2 >/dev/null" "tables, data, scripts and index.md are the same bytes"

# golden copies of two charts' scripts and data (version and the
# spec's folder masked)
for f in 01-connect.gp 01-connect.dat 04-throughput.gp; do
	sed -e 's/pathstat [0-9][0-9.]* report/pathstat VERSION report/' \
	    -e "s|$TOP/||" "b/charts/$f" > got
	ok "cmp -s got \"\$TOP/tests/cli/expect/t3100-$f\"" "charts/$f matches its golden copy"
done

# With the hygiene checks (the default), their findings become footnotes
# on the cells they concern, and only there.
run "$PS" report --db s.db --spec "$TOP/samples/article.json" --out bc
expect_code 0 "a bundle with the hygiene footnotes"
cat > fn.py <<'PY'
import re, sys
md = open("bc/index.md").read()
notes = dict(re.findall(r"^\[\^(\d+)\]: (.*)$", md, re.M))
def marks(line):
    return [notes[n] for n in re.findall(r"\[\^(\d+)\]", line)]
rows = [l for l in md.splitlines() if l.startswith("| ")]
bad = []
c_tp = [l for l in rows if l.startswith("| C — VPC Peering | 2.41 | 10.5")]
if not c_tp or not any("burst-cliff" in m for m in marks(c_tp[0])):
    bad.append("C's throughput row lacks the burst-cliff footnote: %r" % c_tp)
e28 = [l for l in rows if l.startswith("| E — PrivateLink (cross-region)") and "| 2026-08-28 |" in l]
e29 = [l for l in rows if l.startswith("| E — PrivateLink (cross-region)") and "| 2026-08-29 |" in l]
if not e29 or not any("hidden-failures" in m for m in marks(e29[0])):
    bad.append("E on 2026-08-29 lacks the hidden-failures footnote: %r" % e29)
if not e28 or any("hidden-failures" in m for m in marks(e28[0])):
    bad.append("E on 2026-08-28 carries another day's finding: %r" % e28)
f = [l for l in rows if l.startswith("| F — Transit Gateway, task IP") and "| p50 |" in l and "3.396" in l]
if not f or not any("outlier-trial" in m and m.startswith("trial 2:") for m in marks(f[0])):
    bad.append("F's trial spread lacks the outlier-trial footnote: %r" % f)
# A's connect row is clean but for its p99 of 300 probes, the 3rd-slowest
# (few-samples): that footnote, and no other.
a = [l for l in rows if re.match(r"\| A — Same AZ \(baseline\)( ?\[\^\d+\])* \| 0.210 \| 0.260", l)]
if not a or not marks(a[0]) or any(not m.startswith("pathstat check, few-samples: p99 of 300") for m in marks(a[0])):
    bad.append("A's connect row has a footnote other than few-samples' p99 of 300: %r" % a)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" fn.py
expect_code 0 "findings footnote the cells they concern (C's cliff, E's day-2 timeouts, F's trial 2) and no other"
[ "$RC" = 0 ] || echo "$OUT" | sed 's/^/#   /'
run "$PS" report --db s.db --spec "$TOP/samples/article.json" --out bn --no-checks --no-render
ok "! grep -q 'pathstat check,' bn/index.md" "--no-checks leaves them out"
test_done

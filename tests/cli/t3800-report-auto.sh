# t3800: `pathstat report` without --spec writes a bundle of what the
# database holds, and `--init` prints the very spec it uses.  On the
# sample tree: a group per study, and in each a table for every metric
# that study has (the oracle: `analyze percentiles` under --where
# study=S finds rows for it); the campaign the tables hold is the day
# and instance type with the most runs, the others compared against it;
# trials only where cells have several; deltas against --baseline;
# check findings as footnotes.  `--init > spec.json` then `--spec
# spec.json` gives the same bundle (tables, data and scripts byte for
# byte; only the spec's name differs).  A database without study tags,
# runs that differ in a tag inside one cell, an empty database, and
# usage errors.
# tier: browser

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"

run "$PS" report --db s.db --out auto --no-render
expect_code 0 "report without --spec exits 0 ($ERR)"
ok '[ -f auto/index.md ] && [ -f auto/provenance.json ]' "it writes a bundle"
expect_err_has "wrote auto/index.md" "and says so"

# the oracle: which metrics each study has, asked of analyze itself
cat > oracle.py <<'PY'
import json, re, sqlite3, subprocess, sys
ps, db, md = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
con = sqlite3.connect(db)
metrics = [r[0] for r in con.execute("SELECT name FROM metrics ORDER BY id")]
studies = [r[0] for r in con.execute(
    "SELECT DISTINCT value FROM run_tags WHERE key = 'study' ORDER BY value")]
# index.md cut into one chunk per study
parts = re.split(r"^## Study (.*)$", md, flags=re.M)
chunks = dict(zip(parts[1::2], parts[2::2]))
bad, seen = [], 0
for s in studies:
    if s not in chunks:
        bad.append("no section for study %s" % s)
        continue
    for m in metrics:
        out = subprocess.run([ps, "analyze", "percentiles", "--db", db,
                              "--metric", m, "--where", "study=" + s,
                              "--format", "json"],
                             capture_output=True, text=True)
        rows = json.loads(out.stdout) if out.returncode == 0 else []
        esc = m.replace("_", "\\_")
        has = re.search(r"^_Table \d+: [^\n]*\(%s\)" % re.escape(esc),
                        chunks[s], flags=re.M)
        if rows and not has:
            bad.append("study %s: no table for %s" % (s, m))
        if not rows and has:
            bad.append("study %s: a table for %s, which it lacks" % (s, m))
        seen += bool(rows)
if seen < 5:
    bad.append("only %d (study, metric) pairs found" % seen)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" oracle.py "$PS" s.db auto/index.md
ok '[ $RC = 0 ]' "a table for every metric each study has, and none for what it lacks ($OUT)"

md=$(cat auto/index.md)
case "$md" in *"## Study ecs-conn"*"## Study tokyo-osaka"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "one group per study, in order"
case "$md" in *"The tables hold the runs on 2026-08-28 and c6i.large, the campaign every table here holds"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the campaign the tables hold is named"
case "$md" in *"#### Days against 2026-08-28"*"| C"*"2026-08-29"*"#### Instance types against c6i.large"*"c7g.xlarge"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "days and instance types compared against it, where they vary"
case "$md" in *"| G"*"| 2026-08-31 | p50 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "ecs-conn's second day compared for G"
case "$md" in *"### TCP connect time (connect\\_ms)"*"#### Trial-to-trial spread"*"## Study tokyo-osaka"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "trial spread where cells have 3 trials (L1, L2)"
tokyo=${md#*"## Study tokyo-osaka"}
conn=${tokyo%%"### Throughput"*}
case "$conn" in *"Trial-to-trial"*) r=1 ;; *) r=0 ;; esac
ok "[ $r = 0 ]" "none for tokyo-osaka's one-probe cells"
case "$md" in *"Against the baseline"*) r=1 ;; *) r=0 ;; esac
ok "[ $r = 0 ]" "no deltas without --baseline"
case "$md" in *"--baseline PATH adds each path's difference"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the intro says how to get them"
case "$md" in *"[^"*"]: "*"pathstat check, burst-cliff"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "check findings are footnotes (the burst-credit cliff)"
case "$md" in *"Percentiles, P=4,proto=tcp"*"Distribution (ECDF), P=4,proto=tcp"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "a table and an ECDF per condition when cells are many"
ok "[ \"\$(ls auto/charts/*.gp | wc -l)\" -ge 20 ]" "the charts' scripts are written"
cat > prov.py <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
s = p["spec"]
assert s["path"] is None, s["path"]
assert s["generated_by"] == "pathstat report --db s.db --init", s["generated_by"]
assert p["commands"][1] == "pathstat report --db s.db --out auto", p["commands"]
assert s["document"]["sections"][0]["title"] == "Study ecs-conn"
PY
ok '"$PY" prov.py auto/provenance.json' "provenance.json records how the spec was made and the command"

# --init prints that spec; given back with --spec it makes the same bundle
run "$PS" report --db s.db --init
expect_code 0 "--init exits 0"
printf '%s\n' "$OUT" > spec.json
ok '"$PY" -c "import json; json.load(open(\"spec.json\"))"' "--init prints JSON"
ok '[ ! -e auto2 ] && [ -z "$(ls -d .pathstat-report-* 2>/dev/null)" ]' "--init writes no bundle"
run "$PS" report --db s.db --init
ok '[ "$(printf "%s\n" "$OUT")" = "$(cat spec.json)" ]' "--init is deterministic"
case "$(cat spec.json)" in *'  "sections": ['*'"type": "percentiles"'*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the spec is indented for a person to edit"
run "$PS" report --db s.db --spec spec.json --out edited --no-render
expect_code 0 "report --spec of --init's output exits 0"
same=0
for f in $(cd auto && find tables charts -type f | sort); do
	case "$f" in
	*.gp) a=$(sed 1d "auto/$f"); b=$(sed 1d "edited/$f") ;;
	*) a=$(cat "auto/$f"); b=$(cat "edited/$f") ;;
	esac
	[ "$a" = "$b" ] || { same=1; echo "# differs: $f"; }
done
ok "[ $same = 0 ]" "the same tables, data and chart scripts (but for the spec's name in each script's first line)"
ok '[ "$(cd auto && find . -type f | sort)" = "$(cd edited && find . -type f | sort)" ]' "the same files"
ok '[ "$(grep -v "^_Made by pathstat" auto/index.md)" = "$(grep -v "^_Made by pathstat" edited/index.md)" ]' \
    "the same index.md (but for the line naming the spec)"
case "$(grep '^_Made by' auto/index.md)" in *"from a spec it made from the database"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "index.md says the spec was made from the database"

# --baseline: each path against it, where it has data
run "$PS" report --db s.db --out base --no-render --no-checks --baseline A
expect_code 0 "--baseline A exits 0"
md=$(cat base/index.md)
case "$md" in *"#### Against the baseline A"*"| B − A | c=1,ka=on,size=1k | 0.012 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "ecs-conn: B − A at ka-on c1 (p50 +0.012 ms, samples/README.md)"
case "$md" in *"| C − A | 8.681 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "tokyo-osaka: C − A connect p50 = 8.891 − 0.210"
case "$md" in *"The baseline path A has no connect\\_ms runs"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "where A has no data (ecs-conn's L1/L2 connect), it says so"
run "$PS" report --db s.db --init --baseline A
case "$OUT" in *'"minuend": "H"'*'"subtrahend": "A"'*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "--init --baseline A writes the pairs into the spec"
run "$PS" report --db s.db --init --baseline Z
expect_code 2 "--baseline naming no path is a usage error"
expect_err_has "no path 'Z' in the database (paths: A, B, C, D, E, F, G, G', H, L1, L2)" "it names the paths that exist"

# usage
run "$PS" report --db s.db --init --out x
expect_code 2 "--init with --out is a usage error"
run "$PS" report --db s.db --spec spec.json --baseline A --out x
expect_code 2 "--baseline with --spec is a usage error"
expect_err_has "a spec of your own names its delta pairs" "and says why"
run "$PS" report --db s.db
expect_code 2 "no --out and no --init is a usage error"
run "$PS" report --help
case "$OUT" in *"--init"*"--baseline PATH"*"--html"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "--help names --init, --baseline and --html"

# no study tag; runs of one cell that differ in a tag; the campaign
# picked by run count
probe() { # DIR PATH TRIAL META-EXTRA N (N makes each file's content its own)
	mkdir -p "$1"
	echo "{\"path\": \"$2\", \"trial\": $3$4}" > "$1/meta.json"
	{
		echo "# pathprobe 1 target=10.0.0.2:5201 addr=10.0.0.2 count=3 interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z"
		echo "seq,unix_ns,connect_ms,result"
		echo "0,1787878800000000000,0.2$5,ok"
		echo "1,1787878800200000000,0.3$5,ok"
		echo "2,1787878800400000000,0.4$5,ok"
	} > "$1/probe.csv"
}
probe plain/a1 A 1 ', "az": "az1", "day": "2026-08-28"' 1
probe plain/a2 A 2 ', "az": "az2", "day": "2026-08-28"' 2
probe plain/b1 B 1 ', "az": "az1", "day": "2026-08-28"' 3
probe plain/b2 B 2 ', "az": "az1", "day": "2026-08-29"' 4
run "$PS" ingest --db p.db plain
expect_code 0 "a tree without study tags ingested"
run "$PS" report --db p.db --out plain-b --no-render
expect_code 0 "a database without study tags makes a bundle"
md=$(cat plain-b/index.md)
case "$md" in *"## Study"*) r=1 ;; *"## TCP connect time (connect\\_ms)"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "without study tags, the metric groups are the top level"
case "$md" in *"Each cell pools runs that differ in: az."*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "a tag that differs inside one cell is named as pooled"
case "$md" in *"The tables hold the runs on 2026-08-28"*"Measured only outside it"*) r=1 ;; *"The tables hold the runs on 2026-08-28"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the day with most runs is the one the tables hold"
case "$md" in *"### Days against 2026-08-28"*"| B"*"| 2026-08-29 | p50 |"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "and B's other day is compared with it"

# an empty database
run "$PS" ingest --db e.db "$TOP/samples/README.md"
run "$PS" report --db e.db --out empty
expect_code 1 "a database without runs exits 1"
expect_err_has "holds no runs" "and says why"
ok '[ ! -e empty/index.md ]' "and writes no bundle"
run "$PS" report --db missing.db --init
expect_code 1 "a missing database exits 1"
test_done

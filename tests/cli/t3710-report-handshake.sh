# t3710: report tables and charts handshake_ms (the kernel's handshake
# RTT) like any metric, beside connect_ms: the worked spec of
# docs/report.md ("Connect time and handshake RTT") on the format 2 tree
# of tests/fixtures/handshake.  The numbers are numpy's (golden.json);
# the bars chart's script is compared with a golden copy.

cp -r "$TOP/tests/fixtures/handshake/tree" tree
"$PS" ingest -q --db h.db tree || echo "# ingest failed"
cat > spec.json <<'JSON'
{
  "title": "Connect time and handshake RTT",
  "paths": {"A": "Same AZ", "B": "Cross-AZ", "C": "Cross-region peering"},
  "stats": "p50,p99",
  "sections": [
    {"type": "group", "title": "Per path", "sections": [
      {"type": "percentiles", "id": "connect",
       "title": "TCP connect time (what an application waits)",
       "metric": "connect_ms", "chart": "bars"},
      {"type": "percentiles", "id": "handshake",
       "title": "Handshake RTT (what the path costs)",
       "metric": "handshake_ms", "chart": "bars"}
    ]},
    {"type": "chart", "id": "handshake-ecdf", "title": "Handshake RTT, every probe",
     "metric": "handshake_ms", "chart": "ecdf"},
    {"type": "pivot", "id": "handshake-p50", "title": "Handshake RTT p50",
     "metric": "handshake_ms", "stat": "p50"}
  ]
}
JSON
run "$PS" report --db h.db --spec spec.json --out b --no-render
expect_code 0 "a bundle with handshake_ms sections"
for f in tables/02-handshake.csv tables/02-handshake.md charts/02-handshake.gp \
    charts/02-handshake.dat charts/03-handshake-ecdf.gp charts/03-handshake-ecdf.dat \
    tables/04-handshake-p50.csv; do
	ok "[ -s b/$f ]" "$f written"
done

# Table and chart hold numpy's numbers (pooled type 7 p50, p99, n,
# failures), the same in the CSV and the .dat.
cat > nums.py <<'PY'
import csv, json, sys
g = json.load(open(sys.argv[1]))
want = {r["path"]: r for q in g["queries"]
        if q["args"] == ["analyze", "percentiles", "--metric", "handshake_ms"]
        for r in q["rows"]}
bad = []
rows = list(csv.DictReader(open("b/tables/02-handshake.csv")))
for r in rows:
    w = want[r["path"]]
    if r["metric"] != "handshake_ms" or int(r["n"]) != w["n"] or \
       int(r["failures"]) != w["failures"]:
        bad.append("csv %s: %r" % (r["path"], r))
    for s in ("p50", "p99"):
        if abs(float(r[s]) - w[s]) > 1e-9 * max(1, w[s]):
            bad.append("csv %s %s: %s, numpy %r" % (r["path"], s, r[s], w[s]))
dat = [l.split() for l in open("b/charts/02-handshake.dat") if l[0].isdigit()]
for (x, p50, p99), r in zip(dat, rows):
    if abs(float(p50) - float(r["p50"])) > 1e-12 or \
       abs(float(p99) - float(r["p99"])) > 1e-12:
        bad.append(".dat row %s differs from the table" % x)
if len(rows) != 3 or len(dat) != 3:
    bad.append("%d table rows, %d .dat rows" % (len(rows), len(dat)))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" nums.py "$TOP/tests/fixtures/handshake/golden.json"
expect_code 0 "handshake_ms table and bars: numpy's numbers ($OUT)"

ok 'grep -q "TCP handshake RTT (kernel) (handshake\\\\_ms), ms" b/index.md' \
    "caption names the metric and its title"
ok 'grep -q "failures = probes without a kernel RTT (failed, or the SYN was retransmitted)" b/index.md' \
    "caption says what a handshake_ms failure is"
ok 'grep -q "\"--metric\", \"handshake_ms\"" b/provenance.json' \
    "provenance: the analyze command of the handshake table"
ok 'grep -q "| A — Same AZ | 0.209 |" b/tables/04-handshake-p50.md' \
    "pivot: A's handshake p50 (numpy: 0.209)"
ok 'grep -q "^# columns: x (group index), then one column per series: p50 p99 (in ms" b/charts/02-handshake.dat' \
    ".dat: the series and the unit"
sed -e 's/pathstat [0-9][0-9.]* report/pathstat VERSION report/' \
    b/charts/02-handshake.gp > got
ok "cmp -s got \"\$TOP/tests/cli/expect/t3710-02-handshake.gp\"" \
    "charts/02-handshake.gp matches its golden copy"
ok 'grep -q "^set xlabel .TCP handshake RTT (kernel) (ms).$" b/charts/03-handshake-ecdf.gp && [ "$(grep -c "^[0-9]" b/charts/03-handshake-ecdf.dat)" = 1031 ]' \
    "ECDF of every handshake RTT (343 + 344 + 344 values)"

if have_prereq GNUPLOT; then
	run "$PS" report --db h.db --spec spec.json --out r
	expect_code 0 "rendered"
	ok "[ -s r/charts/02-handshake.png ] && [ -s r/charts/03-handshake-ecdf.svg ]" \
	    "handshake charts rendered"
else
	echo "# skip rendering: gnuplot not installed"
fi
test_done

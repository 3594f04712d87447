# t3841: a pivot column selects by any key, a tag as well as a condition
# (the collector refuses --tag target=..., so a user tags the NLB runs
# via=nlb): C and D ran direct (untagged) and through an NLB (via=nlb),
# E direct only (helper/burst-tree.py).  The column "via=nlb" shows the
# NLB runs, the column "P=1" the direct runs alone (it does not pool the
# runs another column selects), each cell equal to analyze's for the
# same selection; a column that selects nothing is a spec error naming
# what there is.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 3 C,D,E c6i.large C,D
ok '[ "$OUT" = 15 ]' "3 days of C, D (direct and NLB) and E written ($OUT files)"
run "$PS" ingest --quiet --db v.db --layout '{tag:instance_type}/{tag:day}/{path}/{tag:via}/{*}' \
    --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
cat > spec.json <<'JSON'
{"title": "NLB", "sections": [
 {"type": "pivot", "id": "nlb", "title": "NLB", "metric": "throughput_bps",
  "paths": ["C", "D", "E"], "stat": "p50",
  "columns": [
   {"key": "direct", "label": "Direct", "condition": "P=1"},
   {"key": "nlb", "label": "Via the NLB", "condition": "via=nlb"},
   {"key": "added", "label": "NLB minus direct", "delta": ["nlb", "direct"]}
  ]}]}
JSON
run "$PS" report --db v.db --spec spec.json --out b --no-render --no-checks
expect_code 0 "a pivot with a tag column ($ERR)"
csv=$(ls b/tables/*-nlb.csv 2>/dev/null)
for p in C D E; do
	"$PS" analyze percentiles --db v.db --metric throughput_bps --where path=$p \
	    --where via= --stats p50 --format json > direct-$p.json
	"$PS" analyze percentiles --db v.db --metric throughput_bps --where path=$p \
	    --where via=nlb --stats p50 --format json > nlb-$p.json 2>/dev/null
done
run "$PY" -c '
import csv, json, sys
bad = []
rows = {r["path"]: r for r in csv.DictReader(open(sys.argv[1]))}
for p in "CDE":
    d = json.load(open("direct-%s.json" % p))[0]["p50"]
    try:
        n = json.load(open("nlb-%s.json" % p))[0]["p50"]
    except (ValueError, IndexError):
        n = None
    r = rows[p]
    if abs(float(r["direct"]) - d) > 1e-6 * d:
        bad.append("%s direct %s, analyze (untagged) %r" % (p, r["direct"], d))
    if n is None:
        if r["nlb"] != "":
            bad.append("%s nlb %s where no NLB run" % (p, r["nlb"]))
    elif r["nlb"] == "" or abs(float(r["nlb"]) - n) > 1e-6 * n:
        bad.append("%s nlb %r, analyze via=nlb %r" % (p, r["nlb"], n))
    elif abs(float(r["added"]) - (n - d)) > 1e-6 * d:
        bad.append("%s added %s" % (p, r["added"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)' "$csv"
ok '[ $RC = 0 ]' "each cell is analyze's for its selection: via=nlb the NLB runs, P=1 the direct runs alone ($OUT)"
ok 'grep -q "^| E | .* | not measured |" b/tables/*-nlb.md' "E has no NLB runs: not measured"

sed 's/via=nlb/via=alb/' spec.json > typo.json
run "$PS" report --db v.db --spec typo.json --out b2 --no-render --no-checks
ok '[ $RC = 1 ]' "a column that selects nothing is a spec error (exit $RC)"
expect_err_has "sections[0].columns[1]: condition 'via=alb' selects no run of the table's paths (there: 'P=1,proto=tcp,via=(none)', 'P=1,proto=tcp,via=nlb')" \
    "naming what there is"
sed 's/"P=1"/"P=4"/' spec.json > p4.json
run "$PS" report --db v.db --spec p4.json --out b3 --no-render --no-checks
ok '[ $RC = 1 ]' "a condition column that selects nothing too (exit $RC)"
expect_err_has "sections[0].columns[0]: condition 'P=4' selects no run" "and says which"
test_done

# t3842: a footnote about a cell gives the cell's merged counts, and each
# run's where they differ, never one run's for the whole cell: D's three
# runs lost 9 of 300 probes each (27 of 900 in its row), C's 3, 6 and 12
# (helper/fail-tree.py).  The counts are cross-checked against
# analyze's failures and n for the same cell.  Busy-client likewise: two
# runs of check's planted busy client (the second an hour later) are one
# footnote with the slow probes of both, counted from the CSVs here.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/fail-tree.py"
run "$PS" ingest --quiet --db f.db --layout '{tag:day}/{path}/trial{trial}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" report --db f.db --out b --no-render
expect_code 0 "report ($ERR)"
run "$PS" analyze percentiles --db f.db --metric connect_ms --format json
printf '%s\n' "$OUT" > cells.json
run "$PY" -c '
import json, re, sys
cells = {c["path"]: c for c in json.load(open("cells.json"))}
notes = [l for l in open("b/index.md") if l.startswith("[^") and "hidden-failures" in l]
bad, seen = [], set()
for p in "CD":
    want = "%d of %d probes failed over the cell" % (cells[p]["failures"], cells[p]["n"] + cells[p]["failures"])
    if not any(want in l for l in notes):
        bad.append("%s: no footnote says %r" % (p, want))
for l in notes:
    if re.search(r"(?<![0-9,])[0-9]+ of 300 probes failed", l):
        bad.append("one run quoted for the cell: " + l[:120])
print("; ".join(bad))
sys.exit(1 if bad or len(notes) != 2 else 0)'
ok '[ $RC = 0 ]' "each hidden-failures footnote gives its cell's counts, analyze's failures of n + failures ($OUT)"
ok 'grep -q "27 of 900 probes failed over the cell.s 3 runs (9 of 300 in each)" b/index.md' "D: 27 of 900, 9 of 300 in each run"
ok 'grep -q "21 of 900 probes failed over the cell.s 3 runs (per run: 3, 6 and 12 of 300)" b/index.md' "C: 21 of 900, each run's where they differ"
ok 'grep -q "describe only the 873 successful probes" b/index.md' "and the cell's successes"

"$PY" "$FIX/check/gen_check.py" plant busy-client --out bc
run "$PY" - <<'PY'
import glob, json, os
src = glob.glob("bc/**/trial1/probe.csv", recursive=True)[0]
d = os.path.join(os.path.dirname(os.path.dirname(src)), "trial2")
os.makedirs(d, exist_ok=True)
json.dump({"path": "C", "trial": 2}, open(d + "/meta.json", "w"))
lines = open(src).read().splitlines()
out = [lines[0].replace("T04:00:00Z", "T05:00:00Z"), lines[1]]
for l in lines[2:]:
    f = l.split(",")
    f[1] = str(int(f[1]) + 3600 * 10**9)
    out.append(",".join(f))
open(d + "/probe.csv", "w").write("\n".join(out) + "\n")
slow = n = 0
for f in glob.glob("bc/**/probe.csv", recursive=True):
    rows = [l.split(",") for l in open(f).read().splitlines()[2:]]
    g = [float(r[2]) - int(r[3]) / 1000.0 for r in rows if r[4] == "ok" and r[3]]
    n += len(g)
    slow += sum(1 for x in g if x >= 1.0 - 1e-9)
print(slow, n)
PY
read slow n <<EOF2
$OUT
EOF2
run "$PS" ingest -q --db bc.db bc
expect_code 0 "two busy-client runs of one cell ingest ($ERR)"
run "$PS" report --db bc.db --out bcb --no-render
ok 'grep -q "busy-client: $slow of $n probes added 1 ms or more to the handshake (.*) over the cell.s 2 runs" bcb/index.md' \
    "busy-client: the cell's $slow of $n slow probes, not one run's"
test_done

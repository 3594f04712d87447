# t3700: a bundle that does not mislead.  A failed section leaves a
# marker in index.md; without gnuplot index.md links the .gp and .dat,
# never a PNG that is not there; time-series panels that differ 10x get
# their own y scale; log bars start well below the smallest bar; the
# relative chart's axis stays at or above 0; value labels of the days
# chart are spread apart; a footnote describes the cell it sits on (a
# week of 200-probe days pooled is 1,400 probes: no few-samples note,
# and one note per story, not one per day); one caption per table, the
# method details once in a Methods section the captions link to.

"$PY" - "$FIX/check" <<'PYEOF'
import os, sys
sys.path.insert(0, sys.argv[1])
import gen_check as gc
gs = gc.gs
import random
rng = random.Random(3700)
# throughput: one fast path and one at 50 Mbit/s (panels 480x apart)
top = "tree/tput"
gs.write_meta(top, {"study": "tput", "instance_type": "c6i.large",
                    "day": "2026-09-10"})
now = gs.epoch("2026-09-10", 3, 0)
for path, lv in (("F", 24.0), ("S", 0.05)):
    for trial in (1, 2):
        d = os.path.join(top, path, "trial%d" % trial)
        gs.write_meta(d, {"path": path, "trial": trial})
        now = gc.iperf_run(d, path, trial, "P4", now,
                           gc.series(rng, lv, sigma=0.01), 9) + 12
# connect: a week of days, 200 probes a day; three paths close together
# (labels that would collide) and one far below (a log axis)
top = "tree/week"
gs.write_meta(top, {"study": "week", "instance_type": "c6i.large"})
for k in range(7):
    day = "2026-09-%02d" % (11 + k)
    for path, rtt in (("P", 10.0), ("Q", 10.1), ("R", 10.2), ("T", 0.102)):
        d = os.path.join(top, day, path)
        gs.write_meta(d, {"path": path, "trial": 1, "day": day})
        gc.probe_run(d, path, 1, gs.epoch(day, 2, 10 * k), rtt, k,
                     count=200)
PYEOF
"$PS" ingest -q --db t.db tree 2>/dev/null

cat > spec.json <<'EOF'
{ "title": "Honest", "sections": [
  { "type": "chart", "id": "tput-time", "metric": "throughput_bps",
    "where": {"study": "tput"}, "chart": "timeseries" },
  { "type": "percentiles", "id": "week", "metric": "connect_ms",
    "where": {"study": "week"}, "stats": "p50,p99",
    "chart": {"kind": "bars", "log": true} },
  { "type": "pivot", "id": "week-pivot", "metric": "connect_ms",
    "where": {"study": "week"}, "stat": "p99",
    "columns": [ {"key": "all", "label": "p99 (ms)", "condition": ""} ] },
  { "type": "relative", "id": "rel", "metric": "connect_ms",
    "where": {"study": "week"}, "paths": ["P", "Q", "R"],
    "stats": "p50,p99,max", "chart": "relative" },
  { "type": "chart", "id": "days", "metric": "connect_ms",
    "where": {"study": "week", "path": "P,Q,R"}, "stats": "p50",
    "chart": "days" },
  { "type": "percentiles", "id": "broken", "title": "A section that fails",
    "metric": "connect_ms", "where": {"study": "week"}, "paths": ["P", "NOPE"] },
  { "type": "text", "title": "After it", "text": "still here" } ] }
EOF

run "$PS" report --db t.db --spec spec.json --out b
expect_code 1 "a failed section: exit 1"
expect_err_has "path 'NOPE'" "stderr says why"
expect_err_has "1 section could not be made; index.md marks its place" "and that index.md marks it"
marker='> **Missing:** the section "A section that fails" (sections\[5\] in the spec) could not be made'
ok "grep -qF '$marker' b/index.md" "index.md marks the missing section where it would have been"
ok "grep -q '^## After it' b/index.md" "and goes on after it"

# time series: the 50 Mbit/s panel has its own scale
gp=b/charts/01-tput-time.gp
ok "[ \$(grep -c 'set yrange \[0:' $gp) = 2 ]" "one y range per panel"
ok "grep -q 'set yrange \[0:0.05' $gp && grep -q 'set yrange \[0:2[67]' $gp" "0.05 Gbit/s and 24 Gbit/s panels each fill their panel"
ok "grep -q 'each panel has its own y scale' b/index.md" "the caption says the scales differ"

# log bars: the smallest bar (T, ~0.1 ms) is not a sliver above the axis
gp=b/charts/02-week.gp
ok "\"\$PY\" -c '
import re, sys
gp = open(\"$gp\").read()
lo = float(re.search(r\"set yrange \[([0-9.e+-]+):\", gp).group(1))
dat = [l.split() for l in open(\"b/charts/02-week.dat\") if not l.startswith(\"#\")]
small = min(float(v) for r in dat for v in r[1:])
assert 0 < lo <= small / 3, (lo, small)
'" "log bars start at least 3x below the smallest bar"

# relative chart: the axis never runs below 0
gp=b/charts/04-rel.gp
ok "\"\$PY\" -c '
import re
gp = open(\"$gp\").read()
lo, hi = map(float, re.search(r\"set yrange \[([0-9.e+-]+):([0-9.e+-]+)\]\", gp).groups())
assert 0 <= lo <= 100 <= hi, (lo, hi)
'" "relative chart: y range within [0, max]"
ok "! grep -q \"'100.0' at first 0,\" $gp" "no label on p50 (100 by definition)"

# days chart: the labels of P, Q, R (10.0, 10.1, 10.2 ms) do not overlap
gp=b/charts/05-days.gp
ok "\"\$PY\" -c '
import re, collections
gp = open(\"$gp\").read()
lo, hi = map(float, re.search(r\"set yrange \[([0-9.e+-]+):([0-9.e+-]+)\]\", gp).groups())
at = collections.defaultdict(list)
for x, y in re.findall(r\"set label \d+ .[0-9.]+. at first (\d+), first ([0-9.e+-]+)\", gp):
    at[x].append(float(y))
assert len(at) == 7 and all(len(v) == 3 for v in at.values()), at
# 12 px of text on a plot of ~560 px of 700
gap = min(b - a for v in at.values() for a, b in zip(sorted(v), sorted(v)[1:]))
assert gap >= (hi - lo) * 12 / 600, (gap, hi - lo)
'" "days chart: labels spread at least a line of text apart"

# footnotes describe the week-pooled cell: no per-day few-samples note
ok "! grep -q 'few-samples' b/index.md" "1,400 pooled probes: no few-samples footnote from 200-probe days"
ok "! grep -q '\[^[0-9]*\]\[^' b/index.md" "no cell carries a row of footnotes"

# one caption per table; the method details once, in Methods
ok "[ \$(grep -c '^_Table ' b/index.md) = 3 ]" "three tables, three captions"
ok "! grep -q '^_connect' b/index.md" "no second caption under a table"
ok "grep -q '^## Methods' b/index.md" "a Methods section"
ok "[ \$(grep -c '^\*\*M[0-9]*\.\*\* connect' b/index.md) -ge 1 ] && grep -q 'methods: \[M1\](#methods)' b/index.md" "captions link to it"
ok "grep -q 'methods: \[M1\](../index.md#methods)' b/tables/02-week.md" "and from tables/ too"

# without gnuplot: no image links, the script and the data instead
run env PATH=/nonexistent "$PS" report --db t.db --spec spec.json --out nog
ok "! grep -q '](charts/[^)]*\.png)' nog/index.md && ! grep -q '\.svg)' nog/index.md" "no link to a PNG or SVG that does not exist"
ok "grep -q '\[gnuplot script\](charts/01-tput-time.gp) · \[data\](charts/01-tput-time.dat)' nog/index.md" "the .gp and .dat are linked"
ok "grep -q 'Not rendered: gnuplot was not available' nog/index.md" "and index.md says why and how to render"

if have_prereq GNUPLOT; then
	ok "[ -s b/charts/05-days.png ] && [ -s b/charts/01-tput-time.png ]" "rendered"
fi
test_done

# t2900: a month of hourly monitoring: 5 paths x 24
# hours x 30 days of 20-probe runs (helper/month-tree.py: C drifting
# +0.5 %/day, D stepping +1.5 ms on day 18, E losing 30 % of its probes
# 10:00-13:59 on day 22, A and B alternating instance types by ISO
# week), laid out without {trial}.  Time is a key: day ranges, hour
# ranges and ISO weeks select what numpy selects from the files; week
# and month are listed by keys and split by --by; runs --columns hour.
# Ingest names the key conflict once per path.  The report without a
# spec leads with a days x paths table, a weekly summary, a trend
# section, loss per day (E's lost day marked), an hours x days heatmap
# per path, and compares the instance types.  A throughput section
# keeps throughput_bps under a spec whose metric is connect_ms.  (Step
# and drift verdicts are branch trend's test.)

"$PY" "$TOP/tests/cli/helper/month-tree.py" tree > counts
read nfiles nprobes < counts
ok '[ "$nfiles" = 3600 ] && [ "$nprobes" = 72000 ]' "a month written: $nfiles files, $nprobes probes"

run "$PS" ingest --db m.db --layout '{tag:day}/{path}/{*}' tree
expect_code 0 "the month ingests"
nconf=$(printf '%s\n' "$ERR" | grep -c 'conflict: path ')
ok '[ "$nconf" = 5 ]' "the key conflict is named once per path ($nconf lines)"
for p in A B C D E; do
	expect_err_has "conflict: path $p: 720 runs in 30 groups of 24 share their keys (trial 1, tool pathprobe, condition (none)) on 30 days, 2026-11-01..2026-11-30" \
	    "path $p: its runs, groups and days"
done
expect_err_has "analyze keeps every run, a trial of its cell with its samples pooled" "and what analysis does with them"
expect_err_has "conflict: 3600 runs on 5 paths share their keys" "and the total"

# keys: week and month, derived from the day
run "$PS" keys --db m.db --format csv
expect_out_has "week,\"tag, else the day's ISO week\",2026-W44,120" "keys: 2026-11-01 (a Sunday) is in ISO week 44"
expect_out_has "week,\"tag, else the day's ISO week\",2026-W45,840" "keys: week 45 has 7 days x 5 paths x 24 hours"
expect_out_has "month,\"tag, else the day's month\",2026-11,3600" "keys: one month"

# the oracle: numpy over the files themselves
cat > oracle.py <<'PY'
import datetime, glob, json, os, subprocess, sys
import numpy as np
ps, db = sys.argv[1], sys.argv[2]
def vals(path, keep):
    out = []
    for f in glob.glob("tree/*/%s/probe-*.csv" % path):
        day = f.split("/")[1]
        hour = int(f[-6:-4])
        if not keep(datetime.date.fromisoformat(day), hour):
            continue
        for line in open(f):
            p = line.strip().split(",")
            if len(p) == 4 and p[3] == "ok":
                out.append(float(p[2]))
    return np.array(out)
def analyze(*args):
    r = subprocess.run([ps, "analyze", "percentiles", "--db", db, "--metric",
                        "connect_ms", "--stats", "p50,p99", "--format",
                        "json"] + list(args), capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    return json.loads(r.stdout), ""
cases = [
    ("C, day=2026-11-03..2026-11-09", "C", ["--where", "day=2026-11-03..2026-11-09"],
     lambda d, h: "2026-11-03" <= d.isoformat() <= "2026-11-09"),
    ("A, week=2026-W46", "A", ["--where", "week=2026-W46"],
     lambda d, h: d.isocalendar()[1] == 46),
    ("B, hour=9..17", "B", ["--where", "hour=9..17"], lambda d, h: 9 <= h <= 17),
    ("D, day=2026-11-18.. (open end)", "D", ["--where", "day=2026-11-18.."],
     lambda d, h: d.isoformat() >= "2026-11-18"),
    ("C, week=2026-W45..2026-W46", "C", ["--where", "week=2026-W45..2026-W46"],
     lambda d, h: d.isocalendar()[1] in (45, 46)),
]
bad = []
for name, path, args, keep in cases:
    rows, err = analyze("--where", "path=" + path, *args)
    v = vals(path, keep)
    if rows is None or len(rows) != 1:
        bad.append("%s: %s" % (name, err or rows))
        continue
    r = rows[0]
    want = (len(v), round(float(np.percentile(v, 50)), 9), round(float(np.percentile(v, 99)), 9))
    got = (r["n"], round(r["p50"], 9), round(r["p99"], 9))
    if want != got:
        bad.append("%s: got n, p50, p99 %s, numpy %s" % (name, got, want))
# --by week: one row per ISO week, each numpy's
rows, err = analyze("--where", "path=A", "--by", "week")
weeks = sorted({datetime.date.fromisoformat(os.path.basename(os.path.dirname(os.path.dirname(f)))).isocalendar()[1]
                for f in glob.glob("tree/*/A/probe-00.csv")})
if rows is None or [r["week"] for r in rows] != ["2026-W%02d" % w for w in weeks]:
    bad.append("--by week: %s" % (err or [r.get("week") for r in rows]))
else:
    for r, w in zip(rows, weeks):
        v = vals("A", lambda d, h, w=w: d.isocalendar()[1] == w)
        if r["n"] != len(v) or abs(r["p50"] - np.percentile(v, 50)) > 1e-9:
            bad.append("--by week %s: n %d p50 %r, numpy %d %r" % (r["week"], r["n"], r["p50"], len(v), np.percentile(v, 50)))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
if have_prereq NUMPY; then
	run "$PY" oracle.py "$PS" m.db
	ok '[ $RC = 0 ]' "day, hour and week ranges and --by week select what numpy selects ($OUT)"
fi

# ranges refused when they cannot mean what they say
run "$PS" analyze percentiles --db m.db --metric connect_ms --where day=2026-11-09..2026-11-03
expect_code 2 "a range backwards is a usage error"
expect_err_has "bad range 'day=2026-11-09..2026-11-03': 2026-11-09 comes after 2026-11-03" "and says so"
run "$PS" analyze percentiles --db m.db --metric connect_ms --where day=2026-11-1..2026-11-03
expect_code 2 "a day not as YYYY-MM-DD is refused (it would compare as text)"
run "$PS" analyze percentiles --db m.db --metric connect_ms --where day=2026-12-01..2026-12-31
expect_code 2 "a range no run falls in is a usage error"
expect_err_has "no run has day in 2026-12-01..2026-12-31" "naming the range"

# runs --columns hour, as --by hour splits them
run "$PS" runs --db m.db --where path=E --where day=2026-11-22 --where hour=10..11 --columns path,day,hour,week,samples,failures --format csv
expect_code 0 "runs --columns hour"
ok '[ "$(printf "%s\n" "$OUT" | sed -n 2,3p | tr "\n" " ")" = "E,2026-11-22,10,2026-W47,14,6 E,2026-11-22,11,2026-W47,14,6 " ]' \
    "E's lost hours: 14 of 20 probes, week 47 ($OUT)"

# the report without a spec: a month
export SOURCE_DATE_EPOCH=1796000000
run "$PS" report --db m.db --out b --no-render
expect_code 0 "report without a spec exits 0 ($ERR)"
md=$(cat b/index.md 2>/dev/null)
case "$md" in *"2026-11-01..2026-11-30 (30 days)"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the headline is the whole period"
case "$md" in *"the campaign with the most runs"*) r=1 ;; *) r=0 ;; esac
ok "[ $r = 0 ]" "not one day picked as the campaign"
case "$md" in *"#### Days against"*) r=1 ;; *) r=0 ;; esac
ok "[ $r = 0 ]" "no list of days against one day"
days_md=$(ls b/tables/*-days.md 2>/dev/null | head -1)
ok '[ -n "$days_md" ] && grep -q "^| Day | A p50 (ms) | A p99 (ms) | B p50" "$days_md"' "a days x paths table of p50/p99 ($days_md)"
ok '[ "$(grep -c "^| 2026-11-" "$days_md")" = 30 ]' "one row per day"
ok 'grep -q "^| 2026-11-22 |.*≥ timeout" "$days_md"' "E's lost day shows its p99 as censored"
loss_md=$(ls b/tables/*-loss.md 2>/dev/null | head -1)
ok '[ -n "$loss_md" ] && grep -q "^| 2026-11-22 | 0.0 | 0.0 | 0.0 | 0.0 | 5.0 |" "$loss_md"' "loss per day: E lost 5.0 % on 2026-11-22 (24 of 480)"
weeks_md=$(ls b/tables/*-weeks.md 2>/dev/null | head -1)
ok '[ -n "$weeks_md" ] && grep -q "^| C | 2026-W46 |" "$weeks_md"' "a weekly summary ($weeks_md)"
ok 'grep -q "week-over-week" "$weeks_md"' "with its week-over-week change"
ok 'ls b/tables/*-trend.md >/dev/null 2>&1' "a trend section"
days_gp=$(ls b/charts/*-days.gp 2>/dev/null | head -1)
ok '[ -n "$days_gp" ] && grep -q "^set xtics rotate by 45 right (.11-01. 0, .11-04. 3," "$days_gp"' "the day chart's axis: MM-DD, thinned, rotated"
ok 'grep -q "^set label [0-9]* .≥ timeout. at 21, " "$days_gp"' "E's lost day (x = 21) marked on the day chart"
ok 'grep -q "^set arrow [0-9]* from 17, graph 0" "$days_gp" && grep -q "D changes 11-18" "$days_gp"' "D's change point (day 18) marked on the day chart"
ok '[ "$(grep -c " 1$" "$(ls b/charts/*-heatmap-e.dat | head -1)")" = 4 ]' "the heatmap marks E's four lost hours"
ok '[ -f b/charts/$(cd b/charts && ls *-heatmap-e.gp 2>/dev/null | head -1) ] && ls b/charts/*-heatmap-e.dat >/dev/null 2>&1' "an hours x days heatmap for E"
ok '[ "$(ls b/charts/*-heatmap-*.gp 2>/dev/null | wc -l)" = 5 ]' "one heatmap per path"
hm=$(ls b/charts/*-heatmap-e.dat 2>/dev/null | head -1)
ok '[ -n "$hm" ] && [ "$(grep -vc "^#" "$hm")" -ge 720 ]' "the heatmap holds 24 x 30 cells"
case "$md" in *"Instance types"*"c6i.large"*"c7i.large"*) r=0 ;; *) r=1 ;; esac
ok "[ $r = 0 ]" "the instance types are compared"
ok 'grep -rq "c7i.large" b/tables/*instance-types*.md' "in a table of their own"
ok '! grep -qiw "nan" b/index.md b/tables/*.md' "no nan anywhere"

# a throughput section keeps its metric under a spec whose metric is
# connect_ms
"$PY" - "$FIX/check" <<'PYEOF'
import os, sys, random
sys.path.insert(0, sys.argv[1])
import gen_check as gc
gs = gc.gs
rng = random.Random(2900)
for trial in (1, 2):
    d = "tput/F/trial%d" % trial
    gs.write_meta(d, {"path": "F", "trial": trial})
    gc.iperf_run(d, "F", trial, "P4", gs.epoch("2026-11-02", 3, trial),
                 gc.series(rng, 9.5), 9)
PYEOF
"$PS" ingest -q --db t.db tput 2>/dev/null
cat > spec.json <<'EOF'
{ "title": "Inherited", "metric": "connect_ms", "sections": [
  { "type": "throughput", "id": "tput", "title": "Daily iperf3 throughput",
    "stat": "p50" } ] }
EOF
run "$PS" report --db t.db --spec spec.json --out tb --no-render
expect_code 0 "a throughput section under a connect_ms spec ($ERR)"
ok 'grep -q "bit/s" tb/tables/01-tput.md && ! grep -q "(ms)" tb/tables/01-tput.md' "it shows throughput, not milliseconds"
test_done

# t3852: the hours × days heatmap of a campaign run by cron at one hour
# a day (8 instance types × 5 paths × 21 days, r7i.large missing the
# second week) draws what exists.  gnuplot 5.4 draws no image of a grid
# of 21 values and 483 NaN cells (the chart was blank); each cell with
# a value is now a box of its own.  The throughput grid was NaN in every
# cell (its chart statistic, p99, is not among throughput's default
# statistics, and the grid read a column the table did not have): it
# now holds what analyze gives for the same selection.

L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
"$PY" "$TOP/tests/cli/helper/shape-tree.py" cron cron >/dev/null
run "$PS" ingest -q --db c.db --layout "$L.json" --layout "$L.csv" cron
expect_code 0 "the cron campaign ingested ($ERR)"
run "$PS" report --db c.db --out r --no-render
expect_code 0 "the report exits 0 ($ERR)"
nh=$(ls r/charts/*heatmap*.gp | grep -c .)
ok '[ "$nh" = 15 ]' "15 heatmaps (connect time, throughput and retransmits, 5 paths each: $nh)"
img=$(grep -l "with image" r/charts/*heatmap*.gp | grep -c .)
box=$(grep -l "using 1:2:(0.5):(0.5):3 with boxxyerror fc palette" r/charts/*heatmap*.gp | grep -c .)
ok '[ "$img" = 0 ] && [ "$box" = 15 ]' "every heatmap draws a box per cell, none an image ($box, $img)"

hdat=$(ls r/charts/*-throughput-bps-heatmap-a.dat)
stat=$(sed -n 's/^# x = day.* \(p[0-9]*\) in .*/\1/p' "$hdat")
run "$PS" analyze percentiles --db c.db --metric throughput_bps \
    --where path=A --by day --by hour --stats "$stat" --format csv
printf '%s\n' "$OUT" > a.csv
cat > cmp.py <<'PY'
import csv, sys
dat, want, stat = sys.argv[1], sys.argv[2], sys.argv[3]
days = {}
got = {}
for l in open(dat, encoding="utf-8"):
    if l.startswith("# day "):
        i, d = l[6:].strip().split(": ")
        days[int(i)] = d
    elif l.strip() and not l.startswith("#"):
        x, y, v, c = l.split()
        if v != "NaN":
            got[(days[int(x)], "%02d" % int(y))] = float(v)
rows = list(csv.DictReader(open(want)))
exp = {(r["day"], r["hour"]): float(r[stat]) / 1e9 for r in rows}
bad = [k for k in exp if k not in got or abs(got[k] - exp[k]) > 1e-9 * exp[k]]
print("cells", len(got), "analyze", len(exp), "differ", len(bad) + len(set(got) - set(exp)))
PY
"$REAL_PY" cmp.py "$hdat" a.csv "$stat" > cmp.out 2>&1
ok 'grep -q "^cells 21 analyze 21 differ 0$" cmp.out' \
    "the throughput grid of A holds analyze's 21 values of $stat ($(cat cmp.out))"
cdat=$(ls r/charts/*-connect-ms-heatmap-a.dat)
nv=$(grep -v "^#" "$cdat" | awk 'NF == 4 && $3 != "NaN"' | grep -c .)
ok '[ "$nv" = 21 ]' "the connect-time grid of A has 21 values, one a day ($nv)"
test_done

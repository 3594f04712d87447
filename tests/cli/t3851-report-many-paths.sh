# t3851: a chart of very many paths draws a readable few and says what
# it left out.  10,000 paths made the ECDF 10,000 lines, which timed
# gnuplot out (the section was marked missing), and bars 10,000 groups
# (a 21 MB SVG).  300 paths (one tiny iperf3 run each) show the rule
# without the time: an ECDF draws at most 20 lines and bars at most 40
# groups, those of the lowest and the highest median (first bar) and
# evenly between, and the caption says "20 of 300 lines drawn".  The
# bench (bench/run.sh) reports the 10,000-path tree.

L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
"$PY" "$TOP/tests/cli/helper/shape-tree.py" many many-paths 300 >/dev/null
run "$PS" ingest -q --db m.db --layout "$L.json" many
expect_code 0 "300 paths ingested ($ERR)"
run "$PS" report --db m.db --out r --no-render
expect_code 0 "the report exits 0 ($ERR)"
ecdf=$(ls r/charts/*-throughput-bps-ecdf.gp)
nl=$(grep -c "with steps" "$ecdf")
ok '[ "$nl" = 20 ]' "the throughput ECDF draws 20 lines ($nl)"
ok 'grep -q "20 of 300 lines drawn (the cells of the lowest and the highest median and evenly between; the table has every cell)" r/index.md' \
    "its caption says how many of how many"
pdat=$(ls r/charts/*-throughput-bps-pct.dat)
ng=$(grep -c "^# group " "$pdat")
ok '[ "$ng" = 40 ]' "the bars chart draws 40 groups ($ng)"
ok 'grep -q "40 of 300 groups drawn" r/index.md' "its caption says so"
# the groups drawn span the values: the slowest and the fastest path
# (throughput is 1..97 Gbit/s by path number modulo 97, plus k bit/s)
ok 'grep -q "^# group 0: p00000" "$pdat" && grep -q ": p00290$" "$pdat"' \
    "the lowest (p00000) and the highest (p00290) are among them"
run "$PS" analyze percentiles --db m.db --metric throughput_bps --format csv
rows=$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)
ok '[ "$rows" = 300 ]' "the table still has every path ($rows)"
test_done

# t3870: a campaign of 10,000 paths (helper/shape-tree.py many-paths,
# one run of 2 intervals each): the report without a spec, rendered,
# exits 0 and every chart draws its data (each capped by design: the
# ECDF at 20 lines, and it says so), and every number of its tables is
# analyze's (helper/table-check.py).  About 20 s CPU and a minute of
# gnuplot, so in the sim tier.
# tier: sim

have_prereq GNUPLOT || skip_all "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
have_prereq NUMPY || skip_all "numpy is not installed (the PNG check decodes with it)"

L='{tag:day}/{tag:instance_type}/{path}_{cond}_run{trial}'
run "$PY" "$TOP/tests/cli/helper/shape-tree.py" tree many-paths 10000
ok '[ "$OUT" = 10000 ]' "10,000 runs written ($OUT)"
run "$PS" ingest -q --db m.db --layout "$L.json" tree
expect_code 0 "ingested ($ERR)"
run "$PS" report --db m.db --out r --html
expect_code 0 "the report of 10,000 paths exits 0 ($ERR)"
expect_err_lacks "could not be made" "no section is missing"
ok '[ "$(grep -c "^| p[0-9]" r/tables/01-throughput-bps-pct.md)" = 10000 ]' \
    "its percentiles table has every path"
ok '[ "$(grep -c "20 of 10000 lines drawn" r/index.md)" = 2 ]' \
    "each ECDF draws 20 of the 10,000 lines and says so"
"$PY" "$TOP/tests/cli/helper/chart-drawn.py" r/charts/*.svg > drawn
n=$(grep -c . drawn)
bad=$(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    v["data"] == 0 || v["svg"] == 0 || v["png"] == 0 { print $1 }' drawn)
ok '[ "$n" = 4 ] && [ -z "$bad" ]' "each of its $n charts draws its data in SVG and PNG ($(echo $bad))"
run "$PY" "$TOP/tests/cli/helper/table-check.py" "$PS" r
ok '[ $RC = 0 ]' "every number of its tables is analyze's ($(printf '%s\n' "$OUT" | grep MISMATCH | head -3))"
test_done

# t2820: a report of 50 and 100 Mbit/s paths reads in Mbit/s, the
# same in reports: tables, their captions and methods, the bar,
# box, time-series and ECDF charts' axes, data and value labels all
# follow the unit chosen from the data; a spec's "unit" forces one for a
# section; a unit the metric cannot have, or no unit at all, is a spec
# error naming what exists.  The tables' CSV keeps bit/s.

"$PY" "$FIX/units/gen_units.py" tree
"$PS" ingest -q --db t.db tree 2>/dev/null

cat > spec.json <<'JSON'
{ "title": "Units", "sections": [
  { "type": "percentiles", "id": "tput", "metric": "throughput_bps",
    "stats": "p50,p99", "chart": {"kind": "bars"} },
  { "type": "trials", "id": "spread", "metric": "throughput_bps",
    "chart": {"kind": "box"} },
  { "type": "chart", "id": "time", "metric": "throughput_bps",
    "chart": "timeseries" },
  { "type": "chart", "id": "ecdf", "metric": "throughput_bps",
    "chart": "ecdf" },
  { "type": "percentiles", "id": "forced", "metric": "throughput_bps",
    "unit": "Gbit/s", "stats": "p50" }
]}
JSON
run "$PS" report --db t.db --spec spec.json --out b --no-render --no-checks
expect_code 0 "a report of sub-Gbit paths"
OUT=$(cat b/index.md)
expect_out_has "| Path | p50 (Mbit/s) | p99 (Mbit/s) |" "the table is in Mbit/s"
expect_out_has " | 50.3 | 51.4 |" "S reads 50.3, not 0.05"
expect_out_has "_Table 1: Throughput (throughput\\_bps), Mbit/s;" "the caption names the table's unit"
expect_out_has "Per-trial values (Mbit/s)" "the trials table is in Mbit/s"
expect_out_has "| Path | p50 (Gbit/s) |" "the spec's unit forces Gbit/s for its section"
expect_out_has "| S | 0.0503 |" "forced Gbit/s keeps 3 significant digits"
expect_out_has "Throughput (throughput\\_bps) in Mbit/s; estimator type7, pooled; n = 60 per bar" \
    "the bar chart's caption names Mbit/s"
expect_out_lacks "| 0.05 |" "no 0.05 cell"
ok "grep -q \"set ylabel 'Throughput (Mbit/s)'\" b/charts/01-tput.gp" "the bar chart's axis is in Mbit/s"
ok "grep -q \"sprintf('%.1f', \\\$2)\" b/charts/01-tput.gp" "its value labels have 3 significant digits (50.3)"
ok "grep -q '^0 50.33' b/charts/01-tput.dat" "its data are in Mbit/s"
ok "grep -q \"(Mbit/s)'\" b/charts/02-spread.gp" "the box chart's axis is in Mbit/s"
ok "grep -q 'in Mbit/s' b/charts/03-time.dat && grep -q 'Mbit/s' b/charts/03-time.gp" "the time series is in Mbit/s"
ok "grep -q \"set xlabel 'Throughput (Mbit/s)'\" b/charts/04-ecdf.gp" "the ECDF's axis is in Mbit/s"
ok "grep -v '^#' b/charts/04-ecdf.dat | awk 'NF == 2 && (\$1 < 40 || \$1 > 120) { bad = 1 } END { exit bad }'" \
    "the ECDF's values are in Mbit/s"
ok "grep -q ',5033' b/tables/01-tput.csv" "the table's CSV keeps bit/s"

# a unit the metric cannot have, an unknown unit
cat > bad.json <<'JSON'
{ "title": "Units", "sections": [
  { "type": "percentiles", "id": "c", "metric": "connect_ms", "unit": "Gbit/s" } ]}
JSON
run "$PS" report --db t.db --spec bad.json --out b2
expect_code 1 "a unit the metric cannot have is a spec error"
expect_err_has "sections[0]: unit 'Gbit/s': connect_ms is shown in ms only (or auto)" "it names the unit the metric has"
cat > bad.json <<'JSON'
{ "title": "Units", "sections": [
  { "type": "percentiles", "id": "t", "metric": "throughput_bps", "unit": "Mbps" } ]}
JSON
run "$PS" report --db t.db --spec bad.json --out b3
expect_code 1 "an unknown unit is a spec error"
expect_err_has "sections[0].unit: bad value 'Mbps': want auto, bit/s, kbit/s, Mbit/s, Gbit/s" "it names the units"

test_done

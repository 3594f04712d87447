# t3834: the first article's §8 decision table comes out of the sample
# tree's spec.  A pivot whose columns name their own metric
# and statistic (TCP connect p50 from connect_ms, 4-parallel TCP p50
# from throughput_bps) beside static columns the spec gives per path
# (MTU, structure, fixed monthly cost): each measured cell equals what
# `analyze percentiles` prints for that metric, path and condition; the
# static cells are the spec's; the caption names each column's metric.
# A spec that mixes metrics in a delta, or gives values and a condition
# in one column, is refused at its location.

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out b --no-render --no-checks --spec "$TOP/samples/article.json"
expect_code 0 "report with the article's spec exits 0 ($ERR)"
csv=$(ls b/tables/*-decision.csv 2>/dev/null)
ok '[ -n "$csv" ]' "the bundle has the decision table ($csv)"

w="--where study=tokyo-osaka --where day=2026-08-28 --where instance_type=c6i.large --where via="
"$PS" analyze percentiles --db s.db --metric connect_ms $w --stats p50 --format csv > conn.csv 2>/dev/null
"$PS" analyze percentiles --db s.db --metric throughput_bps $w --where P=4 --where proto=tcp --stats p50 --unit Gbit/s --format csv > tp.csv 2>/dev/null
cat > cmp.py <<'PY'
import csv, sys
dec = {r["path"]: r for r in csv.DictReader(open(sys.argv[1]))}
conn = {r["path"]: float(r["p50"]) for r in csv.DictReader(open("conn.csv"))}
tp = {r["path"]: float(r["p50"]) for r in csv.DictReader(open("tp.csv"))}
bad = []
if sorted(dec) != ["C", "D", "E"]:
    bad.append("rows %r" % sorted(dec))
for p, r in dec.items():
    if abs(float(r["latency_p50"]) - conn[p]) > 1e-9:
        bad.append("%s latency %s != %s" % (p, r["latency_p50"], conn[p]))
    if abs(float(r["tcp4_p50"]) - tp[p]) > 1e-9 * max(1, tp[p]):
        bad.append("%s throughput %s != %s" % (p, r["tcp4_p50"], tp[p]))
want = {"C": ("8500", "0"), "D": ("8500", "204"), "E": ("", "38")}
for p, (mtu, cost) in want.items():
    got = (dec[p]["mtu"], dec[p]["cost_month"])
    if tuple(float(x) if x else None for x in got) != tuple(float(x) if x else None for x in (mtu, cost)):
        bad.append("%s static %r != %r" % (p, got, (mtu, cost)))
if "Hub-and-spoke" not in dec["D"]["structure"]:
    bad.append("D structure %r" % dec["D"]["structure"])
print(len(dec), len(bad))
print("; ".join(bad))
PY
run "$REAL_PY" cmp.py "$csv"
ok '[ $RC = 0 ] && [ "$(printf "%s\n" "$OUT" | head -1)" = "3 0" ]' \
    "each measured cell is analyze's number for its own metric, each static cell the spec's ($(printf '%s' "$OUT" | tail -1))"
md=$(sed -n '/^### Speed, throughput, structure and cost/,/^Data:/p' b/index.md)
case "$md" in *"| Path | Speed: TCP connect p50 (ms) | Throughput: 4-parallel TCP p50 (Gbit/s) | MTU (bytes, article 1 §9) | Structure | Fixed cost (USD/month, always-on) |"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "the Markdown header: latency, throughput, MTU, structure, cost"
case "$md" in *"| D — Transit Gateway inter-region peering | 11.010 | 9.67 | 8500 | Hub-and-spoke"*"| 204 |"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "D's row as the article has it: 11.01 ms, 9.67 Gbit/s, 8500, hub-and-spoke, 204"
case "$md" in *"the p50 of Throughput (throughput\\_bps) in Gbit/s"*"Structure: from the spec"*) r=0 ;; *) r=1 ;; esac
ok '[ $r = 0 ]' "the caption names the throughput column's metric and the spec's columns"

# refusals, at the column's location
cat > bad1.json <<'J'
{ "title": "t", "sections": [ { "type": "pivot", "id": "x", "metric": "connect_ms",
  "columns": [ { "key": "a", "condition": "" },
               { "key": "b", "metric": "throughput_bps", "condition": "P=4,proto=tcp" },
               { "key": "d", "delta": ["b", "a"] } ] } ] }
J
run "$PS" report --db s.db --out x1 --no-render --spec bad1.json
ok '[ $RC != 0 ]' "a delta of two metrics is refused (exit $RC)"
expect_err_has "sections[0].columns[2]" "at the column's location"
expect_err_has "different metrics" "saying why"
cat > bad2.json <<'J'
{ "title": "t", "sections": [ { "type": "pivot", "id": "x", "metric": "connect_ms",
  "columns": [ { "key": "a", "condition": "", "values": { "A": 1 } } ] } ] }
J
run "$PS" report --db s.db --out x2 --no-render --spec bad2.json
ok '[ $RC != 0 ]' "values and a condition in one column are refused (exit $RC)"
expect_err_has "exactly one of" "saying which keys exclude each other"
test_done

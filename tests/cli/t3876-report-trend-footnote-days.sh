# t3876: a trend table's row spans the days, so a check's story told on
# many days is one footnote on it naming the days, not one footnote a
# day.  Path E drops off a burst cliff on each of 15 days
# (helper/burst-tree.py, E's 2026-11-02 run given to every day, its low
# level a little higher each day so each day's evidence differs): its
# trend row carried 15 burst-cliff marks.  The days named are counted
# here from check --per-campaign.

export SOURCE_DATE_EPOCH=1796000000
run "$PY" "$TOP/tests/cli/helper/burst-tree.py" tree 15 A,E
expect_code 0 "the tree is written"
run "$PY" - <<'PY'
import glob, json
src = json.load(open("tree/c6i.large/2026-11-02/E/run.json"))
for f in sorted(glob.glob("tree/c6i.large/*/E/run.json")):
    k = 1 + int(f.split("/")[2][-2:]) / 50.0
    d = json.load(open(f))
    for i, iv in enumerate(d["intervals"]):
        s = src["intervals"][i]
        low = s["sum"]["bits_per_second"] < 2e9
        for a, b in ((iv["sum"], s["sum"]), (iv["streams"][0], s["streams"][0])):
            a["bits_per_second"] = b["bits_per_second"] * (k if low else 1)
            a["bytes"] = int(b["bytes"] * (k if low else 1))
    json.dump(d, open(f, "w"))
PY
expect_code 0 "E falls off the cliff every day"
run "$PS" ingest --quiet --db m.db --layout '{tag:instance_type}/{tag:day}/{path}/{*}' tree
expect_code 0 "the tree ingests ($ERR)"
run "$PS" check --db m.db --per-campaign --only burst-cliff --format json
printf '%s' "$OUT" > f.json
run "$PY" -c '
import json
r = [x for x in json.load(open("f.json")) if x["path"] == "E"]
days = sorted(x["scope"].split("day=")[1].split(",")[0] for x in r)
print(len(days), ", ".join(days))'
ndays=${OUT%% *}
days=${OUT#* }
ok '[ "$ndays" = 15 ]' "check sees the cliff on 15 days, one finding each ($ndays)"

run "$PS" report --db m.db --out b --no-render
expect_code 0 "report ($ERR)"
md=$(ls b/tables/*throughput-bps-trend.md 2>/dev/null)
ok '[ -n "$md" ]' "a trend table"
marks=$(grep "^| E " "$md" | head -1 | grep -o "\[^[0-9]*\]" | wc -l)
ok '[ "$marks" -le 2 ]' "E's trend row carries at most 2 marks, burst-cliff's and few-samples' ($marks)"
ok '[ "$(grep -c "^\[^[0-9]*\]: trial 1: pathstat check, burst-cliff: " b/index.md)" = 1 ]' \
    "one burst-cliff footnote ($(grep -c "burst-cliff: " b/index.md))"
ok 'grep -qF "burst-cliff: on 15 days ($days): throughput held" b/index.md' \
    "it names the 15 days"
ok 'grep -q "burst-cliff: on 15 days .*(numbers from 2026-11-01; pathstat check --per-campaign gives each day.s)" b/index.md' \
    "and whose numbers it quotes"
test_done

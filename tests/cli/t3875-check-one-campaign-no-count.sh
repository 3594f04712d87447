# t3875: a finding that folds several runs of one campaign (two runs of
# check's planted busy client, the second an hour later) gives its
# evidence without a count of campaigns: "in 1 of 1 campaigns" told the
# reader nothing.  Where the cell is in several campaigns the count
# stays ("in 3 of 3 campaigns" on the sample tree's few-samples).

export SOURCE_DATE_EPOCH=1796000000
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
PY
expect_code 0 "a second run of the busy cell ($ERR)"
run "$PS" ingest -q --db bc.db bc
expect_code 0 "two busy-client runs of one cell ingest ($ERR)"
run "$PS" check --db bc.db --only busy-client --format json
expect_code 3 "check finds the busy client"
printf '%s' "$OUT" > f.json
run "$PY" -c '
import json
r = json.load(open("f.json"))
print(len(r), len(r[0]["runs"]), r[0]["evidence"][:60])'
ok 'case "$OUT" in "1 "[2-9]" "[0-9]*" of "[0-9]*" probes added 1 ms"*) true;; *) false;; esac' \
    "one finding over the cell.s runs, its evidence the counts alone ($OUT)"
run "$PS" report --db bc.db --out r --no-render
expect_code 0 "report ($ERR)"
ok '! grep -q "of 1 campaign" r/index.md' "the page does not say \"of 1 campaign\""
ok 'grep -q "busy-client: [0-9]* of [0-9]* probes added 1 ms" r/index.md' \
    "its footnote gives the probes at once"

run "$PS" ingest -q --db s.db "$TOP/samples/tree"
expect_code 0 "the sample tree ingests ($ERR)"
run "$PS" check --db s.db --only few-samples
ok 'printf "%s\n" "$OUT" | grep -q "Evidence: in 3 of 3 campaigns: p99 of 300"' \
    "several campaigns keep their count"
test_done

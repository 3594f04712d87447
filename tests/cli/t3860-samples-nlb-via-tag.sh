# t3860: the sample tree and the sample spec use only keys a user of the
# collector can write.  Article 1's NLB supplement (§6.2) is tagged
# via=direct / via=nlb, as `pathstat-collect --tag via=nlb` tags it: the
# collector refuses a tag `target` (it writes `target` itself), so a
# tree or spec built on target=nlb shows users something they cannot
# reproduce.  The sample spec's NLB pivot reads the tag, each cell as
# numpy gave it (samples/expected.json, headline connect_ms_nlb_p50_type7),
# and the report without a spec keeps the tagged runs out of the main
# runs' cells (C's p50 stays 8.891 ms, not pooled with the NLB runs) and
# says so.

COLLECT="$TOP/collect/pathstat-collect"
cp -r "$TOP/samples/tree" tree
"$PS" ingest -q --db s.db tree 2>/dev/null

# Every key the tree's meta.json files and the spec's pivot columns give
# that is neither a run key, a key the collector has an option for, nor a
# condition key of the tools: the collector must take it as --tag.  With
# the tag given twice it stops at "given twice" when it takes the key and
# at "written by the collector" / "reserved" when it does not.
"$PY" - "$TOP/samples/article.json" > keys.txt <<'PY'
import json, os, sys
own = {"path", "trial", "condition", "cond", "tool",
       "instance_type", "az", "region", "day"}
cond = {"P", "c", "ka", "proto", "size"}
keys = set()
for root, _, files in os.walk("tree"):
    if "meta.json" in files:
        m = json.load(open(os.path.join(root, "meta.json")))
        keys |= set(m) - own
        for tok in str(m.get("condition", "")).replace("_", ",").split(","):
            if "=" in tok and tok.split("=")[0] not in cond:
                keys.add(tok.split("=")[0])
def walk(x):
    if isinstance(x, dict):
        for col in x.get("columns", []) if x.get("type") == "pivot" else []:
            for tok in col.get("condition", "").split(","):
                if "=" in tok and tok.split("=")[0] not in cond:
                    keys.add(tok.split("=")[0])
        for k, v in (x.get("where") or {}).items() if isinstance(x.get("where"), dict) else []:
            if k not in cond and k not in own:
                keys.add(k)
        for v in x.values():
            walk(v)
    elif isinstance(x, list):
        for v in x:
            walk(v)
walk(json.load(open(sys.argv[1])))
print("\n".join(sorted(keys)))
PY
ok 'grep -qx via keys.txt' "the NLB runs carry the tag via ($(tr '\n' ' ' < keys.txt))"
refused=""
for k in $(cat keys.txt); do
	"$COLLECT" --path C --host 192.0.2.1 --tag "$k=x" --tag "$k=x" 2> err.txt
	grep -q "tag key '$k' given twice" err.txt || refused="$refused $k: $(head -1 err.txt)"
done
ok '[ -z "$refused" ]' "the collector takes every such key as a tag ($refused)"

run "$PS" report --db s.db --spec "$TOP/samples/article.json" --out b --no-render --no-checks
expect_code 0 "the sample spec makes its bundle ($ERR)"
csv=$(ls b/tables/*-nlb.csv 2>/dev/null)
run "$PY" - "$csv" "$TOP/samples/expected.json" <<'PY'
import csv, json, sys
want = json.load(open(sys.argv[2]))["headline"]["connect_ms_nlb_p50_type7"]
rows = {r["path"]: r for r in csv.DictReader(open(sys.argv[1]))}
bad = []
for p in "CD":
    for col, key in (("direct", "%s via=direct" % p), ("nlb", "%s via=nlb" % p),
                     ("added", "%s nlb-direct p50" % p)):
        got = rows[p][col]
        if got == "" or abs(float(got) - want[key]) > 1e-9:
            bad.append("%s %s %r, numpy %r" % (p, col, got, want[key]))
if abs(float(rows["C"]["main"]) - 8.891) > 1e-9:
    bad.append("C main %r, numpy 8.891" % rows["C"]["main"])
if rows["E"]["nlb"] != "":
    bad.append("E nlb %r where E has no NLB run" % rows["E"]["nlb"])
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
ok '[ $RC = 0 ]' "the NLB pivot selects by the tag: direct, via the NLB, added, main as numpy gives them ($OUT)"

run "$PS" report --db s.db --out auto --no-render --no-checks
expect_code 0 "the report without a spec ($ERR)"
ok 'grep -q "Runs tagged via (direct, nlb) share their cells with runs that lack the tag and are left out of these tables" auto/index.md' \
    "it says which tagged runs it leaves out of the main runs' cells"
c=$(ls auto/tables/*-tokyo-osaka-connect-ms-pct.csv 2>/dev/null)
run "$PY" -c '
import csv, sys
r = {x["path"]: x for x in csv.DictReader(open(sys.argv[1]))}
print(r["C"]["p50"], r["C"]["n"], r["D"]["p50"], r["D"]["n"])
sys.exit(0 if (abs(float(r["C"]["p50"]) - 8.891) < 1e-9 and r["C"]["n"] == "300"
               and abs(float(r["D"]["p50"]) - 11.01) < 1e-9) else 1)' "$c"
ok '[ $RC = 0 ]' "C's and D's connect cells hold the main runs alone (p50 8.891 and 11.01 ms of 300 probes: $OUT)"
test_done

# t2000: analyze against numpy.  golden.json holds, for each analyze
# invocation, the rows and numbers numpy computes straight from the raw
# files of samples/tree (tests/fixtures/analyze/gen_golden.py; no pathstat
# code involved).  This test needs no numpy: it compares JSON output.

cp -r "$TOP/samples/tree" samples_tree
mkdir -p samples && mv samples_tree samples/tree
run "$PS" ingest -q --db g.db samples/tree
expect_code 0 "sample tree ingested"
cat > cmp.py <<'PY'
import json, subprocess, sys
golden = json.load(open(sys.argv[1]))
ps, db = sys.argv[2], sys.argv[3]
fails = 0
for q in golden["queries"]:
    args = [ps] + q["args"][:2] + ["--db", db, "--format", "json"] + q["args"][2:]
    p = subprocess.run(args, capture_output=True, text=True)
    name = " ".join(q["args"])
    if p.returncode != 0:
        print("not ok - %s: exit %d %s" % (name, p.returncode, p.stderr[-300:]))
        fails += 1
        continue
    got = json.loads(p.stdout)
    index = {tuple(str(r.get(k)) for k in q["key"]): r for r in got}
    bad = []
    for want in q["rows"]:
        k = tuple(str(want[x]) for x in q["key"])
        r = index.get(k)
        if r is None:
            bad.append("missing row %s" % (k,))
            continue
        for f, v in want.items():
            if f in q["key"]:
                continue
            g = r.get(f)
            if isinstance(v, float):
                if g is None or abs(g - v) > 1e-9 * max(1.0, abs(v)):
                    bad.append("%s %s: got %r want %r" % (k, f, g, v))
            elif g != v:
                bad.append("%s %s: got %r want %r" % (k, f, g, v))
    if len(got) < len(q["rows"]):
        bad.append("%d rows, want at least %d" % (len(got), len(q["rows"])))
    if bad:
        fails += 1
        print("not ok - %s" % name)
        for b in bad[:8]:
            print("#   " + b)
    else:
        print("ok - %s (%d rows)" % (name, len(q["rows"])))
sys.exit(1 if fails else 0)
PY
"$PY" cmp.py "$TOP/tests/fixtures/analyze/golden.json" "$PS" g.db > cmp.out 2>&1
rc=$?
while IFS= read -r line; do
	case "$line" in
	"ok - "*) _report 0 "numpy: ${line#ok - }" ;;
	"not ok - "*) _report 1 "numpy: ${line#not ok - }" ;;
	*) echo "$line" ;;
	esac
done < cmp.out
ok "[ $rc = 0 ]" "every golden query matches"
test_done

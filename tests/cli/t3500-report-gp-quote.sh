# t3500: titles and labels that start or end with a quote, hold doubled
# quotes, backslashes, newlines, @, backquotes or system( (a
# title starting with an apostrophe broke the script, "unexpected or
# unrecognized token", and no chart was drawn).  Every chart renders and
# shows each label exactly; nothing runs.  The full round trip of a
# generated list of strings through gnuplot is in tests/unit/t-report.c.

have_prereq GNUPLOT || skip_all "gnuplot not installed"

cat > mk.py <<'PY'
import json, os
labels = [
    "'Direct' path", "a''b", "''", "x'", "back\\slash\\", "@font",
    "`touch pwned-bq`", "system('touch pwned-sys')",
    "line one\nline two", "\"dq\" and 'sq'",
]
ids = ["P%d" % i for i in range(len(labels))]
for i, pid in enumerate(ids):
    for trial in (1, 2):
        d = "tree/%s/t%d" % (pid, trial)
        os.makedirs(d)
        json.dump({"path": pid, "trial": trial}, open(d + "/meta.json", "w"))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h%d:%d addr=10.0.0.2 count=30 "
                    "interval_s=0.2 timeout_s=0.4 start=2026-08-2%dT01:00:00Z\n"
                    % (i, trial, 7 + trial))
            f.write("seq,unix_ns,connect_ms,result\n")
            base = 1787792400000000000 + (trial - 1) * 86400 * 10**9
            for s in range(30):
                f.write("%d,%d,%.3f,ok\n" % (s, base + s * 200000000,
                        (i + 1) * (1 + 0.01 * ((s * 7) % 11))))
spec = {
    "title": "'Direct' vs ''peered'' — it's `x` @y",
    "paths": dict(zip(ids, labels)),
    "metric": "connect_ms",
    "sections": [
        {"type": "percentiles", "id": "p", "stats": "p50,p99",
         "chart": {"kind": "bars", "title": "'quoted' title''"}},
        {"type": "relative", "id": "r", "stats": "p50,p90", "chart": "relative"},
        {"type": "chart", "id": "e", "chart": {"kind": "ecdf", "title": "'ecdf'"}},
        {"type": "chart", "id": "t", "chart": {"kind": "timeseries"}},
        {"type": "trials", "id": "b", "chart": {"kind": "box", "stat": "p50"}},
        {"type": "percentiles", "id": "d", "by": ["day"], "stats": "p50",
         "chart": {"kind": "days", "title": "x''"}},
    ],
}
json.dump(spec, open("spec.json", "w"), ensure_ascii=False, indent=1)
json.dump(labels, open("labels.json", "w"), ensure_ascii=False)
PY
"$PY" mk.py
run "$PS" ingest -q --db q.db tree
expect_code 0 "paths ingested"
run "$PS" report --db q.db --spec spec.json --out b --no-checks
expect_code 0 "the report is made"
expect_err_has "6 charts (6 rendered)" "every chart renders"
expect_err_lacks "unrecognized token" "gnuplot reads every script"
ok "[ -z \"\$(find . -name 'pwned*')\" ]" "no label ran a command"
cat > svg.py <<'PY'
import glob, json, sys
import xml.etree.ElementTree as ET
texts = set()
for f in sorted(glob.glob("b/charts/*.svg")):
    for e in ET.parse(f).getroot().iter():
        if e.tag.endswith("text"):
            texts.add("".join(e.itertext()))
want = []
for label in json.load(open("labels.json")):
    want += label.split("\n")	# a newline is a line break
want += ["'quoted' title''", "'ecdf'", "x''"]
missing = [w for w in want if not any(w in t for t in texts)]
print(missing)
sys.exit(1 if missing else 0)
PY
run "$PY" svg.py
expect_code 0 "each label and title is drawn exactly ($OUT)"
test_done

# t3200: labels, path IDs and titles that try to run commands through
# gnuplot (double quotes, single quotes, backquotes, @macros, newlines)
# or to break Markdown (pipes, HTML) render as text and run nothing;
# Japanese and Chinese labels reach the images intact.  Every chart kind
# is drawn.  Without gnuplot the scripts, data and Markdown are still
# checked (--no-render); only the images are not.

# paths: a plain one, one whose ID is hostile, one labelled in CJK
cat > mk.py <<'PY'
import json, os, sys
ids = ["A", "P'; system('touch PWN-ID'); x|y \"<b>", "C"]
vals = {"A": 0.2, ids[1]: 1.5, "C": 9.0}
for i, pid in enumerate(ids):
    for trial in (1, 2, 3):
        d = "tree/p%d/trial%d" % (i, trial)
        os.makedirs(d)
        json.dump({"path": pid, "trial": trial}, open(d + "/meta.json", "w"))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=40 "
                    "interval_s=0.2 timeout_s=0.4 start=2026-08-2%dT01:00:00Z\n" % (7 + trial))
            f.write("seq,unix_ns,connect_ms,result\n")
            base = 1787792400000000000 + (trial - 1) * 86400 * 10**9
            for s in range(40):
                v = vals[pid] * (1 + 0.01 * ((s * 7) % 11)) * (1 + 0.05 * trial)
                f.write("%d,%d,%.3f,ok\n" % (s, base + s * 200000000, v))
# the spec: every label a different attack
sent = sys.argv[1]
labels = {
    "A": 'x" ; system("touch %s/pwned-dq") ; "' % sent,
    ids[1]: "`touch %s/pwned-bq` @mac | <script>alert(1)</script> *b* \\\\" % sent,
    "C": "東京 同一AZ\n跨可用區 對等連線",
}
spec = {
    "title": "t'); system('touch %s/pwned-title'); print('x | y" % sent,
    "intro": "- not a list\n# not a heading\n<img src=x onerror=alert(1)>",
    "paths": labels,
    "metric": "connect_ms",
    "sections": [
        {"type": "percentiles", "id": "p", "title": "`touch %s/pwned-h` | x" % sent,
         "stats": "p50,p95,p99", "chart": {"kind": "bars", "title": "a\"b`c'd@e"}},
        {"type": "relative", "id": "r", "stats": "p50,p90,p99", "chart": "relative"},
        {"type": "chart", "id": "e", "chart": {"kind": "ecdf", "title":
         "ecdf\nset output '%s/pwned-nl'\nsystem('touch %s/pwned-nl2')" % (sent, sent)}},
        {"type": "chart", "id": "t", "chart": {"kind": "timeseries"}},
        {"type": "trials", "id": "b", "chart": {"kind": "box", "stat": "p50"},
         "footnotes": [{"path": ids[1], "text": "note with | pipe and <i>html</i>"}]},
        {"type": "percentiles", "id": "d", "by": ["day"], "stats": "p50",
         "chart": {"kind": "days", "title": "日本語のタイトル 中文标题"}},
    ],
}
json.dump(spec, open("spec.json", "w"), ensure_ascii=False, indent=1)
PY
"$PY" mk.py "$TMP"
run "$PS" ingest --db h.db tree
expect_code 0 "hostile path IDs ingest"
if have_prereq GNUPLOT; then
	run "$PS" report --db h.db --spec spec.json --out b
	expect_code 0 "the report is made ($ERR)"
	expect_err_has "6 charts (6 rendered)" "all six chart kinds rendered"
	ok "[ -z \"\$(find . -name 'pwned*' -o -name 'PWN*')\" ]" "no label, ID or title ran a command"
	ok "[ \"\$(ls b/charts/*.png | wc -l)\" = 6 ] && [ \"\$(ls b/charts/*.svg | wc -l)\" = 6 ]" "six PNG and six SVG"
else
	echo "# skip: gnuplot not installed, the images are not drawn or checked"
	run "$PS" report --db h.db --spec spec.json --out b --no-render
	expect_code 0 "the report is made ($ERR)"
	ok "[ \"\$(ls b/charts/*.gp | wc -l)\" = 6 ]" "six chart scripts"
fi

cat > svg.py <<'PY'
import glob, sys
import xml.etree.ElementTree as ET
text = []
for f in sorted(glob.glob("b/charts/*.svg")):
    root = ET.parse(f).getroot()          # well-formed, or this raises
    text.append(" ".join("".join(e.itertext()) for e in root.iter()))
text = "\n".join(text)
# a newline in a label or title is a line break on the chart
# (every string comes back as it was), so each line is a text of its own
want = ['x" ; system("touch', "`touch", "<script>alert(1)</script>",
        "東京 同一AZ", "跨可用區 對等連線", "set output '", "system('touch",
        "日本語のタイトル 中文标题", "P'; system('touch PWN-ID'); x|y \"<b>"]
missing = [w for w in want if w not in text]
print(missing)
sys.exit(1 if missing else 0)
PY
if have_prereq GNUPLOT; then
	run "$PY" svg.py
	expect_code 0 "the SVGs are well-formed and show every label as text ($OUT)"
fi
# each script: outside string literals there is no backquote and no
# "system"; single-quoted literals never hold a quote (gnuplot misreads
# '' at a literal's start), and the only double-quoted strings are our
# own "\047", "\n" and "\t" (escape_gnuplot, common/escape.c)
cat > gp.py <<'PY'
import glob, sys
bad = []
for f in sorted(glob.glob("b/charts/*.gp")):
    for no, line in enumerate(open(f, encoding="utf-8"), 1):
        if line.lstrip().startswith("#"):
            continue
        out, i = [], 0
        while i < len(line):
            c = line[i]
            if c == "'":
                j = line.find("'", i + 1)
                if j < 0:
                    bad.append("%s:%d: a literal runs past the line" % (f, no))
                    break
                if line[j + 1:j + 2] == "'" and j > i + 1:
                    bad.append("%s:%d: '' inside a literal" % (f, no))
                i = j + 1
            elif c == '"':
                j = line.find('"', i + 1)
                lit = line[i:j + 1] if j > 0 else line[i:]
                if lit not in ('"\\047"', '"\\n"', '"\\t"'):
                    bad.append("%s:%d: double-quoted %s" % (f, no, lit))
                i = j + 1 if j > 0 else len(line)
            else:
                out.append(c)
                i += 1
        rest = "".join(out)
        if not rest.lstrip().startswith("#") and ("`" in rest or "system" in rest):
            bad.append("%s:%d: %s" % (f, no, line.strip()))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
run "$PY" gp.py
expect_code 0 "user text appears in the scripts only inside single-quoted literals ($OUT)"
ok "! grep -v '^#' b/charts/*.dat | grep -q 'pwned\\|touch'" "data files hold labels only in comments"

# Markdown: the pipe stays in its cell, no HTML gets through
if have_prereq CMARK; then
	cmark-gfm -e table -e footnotes -e tagfilter b/index.md > index.html
	ok "! grep -qi '<script\\|<img src=x\\|<b>\\|<i>' index.html" "no tag from a label reaches the HTML"
	ok "grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' index.html" "the HTML label is shown as text"
	cat > cells.py <<'PY'
import re, sys
html = open("index.html", encoding="utf-8").read()
# the page's own contents list (a list of links to the headings) is
# the one list the report writes before its first heading
html = re.sub(r"<p><strong>Contents</strong></p>.*?(?=<h2>)", "", html,
              count=1, flags=re.S)
bad = []
for t in re.findall(r"<table>(.*?)</table>", html, re.S):
    th = len(re.findall(r"<th[ >]", t))
    for row in re.findall(r"<tr>(.*?)</tr>", t, re.S)[1:]:
        if len(re.findall(r"<td[ >]", row)) != th:
            bad.append(row)
print(bad)
sys.exit(1 if bad or "<ul>" in html or html.count("<h1>") != 1 else 0)
PY
	run "$PY" cells.py
	expect_code 0 "labels with | keep every row's cell count; intro opens no list or heading"
fi
test_done

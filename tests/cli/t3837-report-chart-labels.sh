# t3837: no two texts of any chart of the sample tree's bundles overlap,
# and the trial box chart is small multiples with y axes from the data.
# The worst case of the sample tree is the report without a
# spec (33 trial boxes of http_ms under 5 conditions mixing 1 KB and
# 1 MB, and every other chart kind it makes); the first article's spec
# adds the pivot, relative and day charts, and a month of monitoring
# (helper/month-tree.py, as t2900) the month's day chart, where E's
# lossy day carries both a "≥ timeout" mark and its loss label, and the
# heatmaps.  gnuplot renders each chart's
# SVG, headless Chromium lays every text out, and each text's box (its
# getBBox through its transform: a rotated tic label is a rotated box)
# is tested against every other of its chart (separating axes).  The
# checker is shown to fail on an SVG whose two labels overlap.
# tier: browser

have_prereq GNUPLOT || skip_all "gnuplot is not installed (Debian: apt-get install gnuplot-nox)"
have_prereq CHROMIUM || skip_all "chromium is not installed (Debian: apt-get install chromium)"

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out auto
expect_code 0 "report without a spec exits 0 ($ERR)"
run "$PS" report --db s.db --out art --spec "$TOP/samples/article.json"
expect_code 0 "report with the article's spec exits 0 ($ERR)"
"$PY" "$TOP/tests/cli/helper/month-tree.py" tree >/dev/null
run "$PS" ingest --quiet --db m.db --layout '{tag:day}/{path}/{*}' tree
run "$PS" report --db m.db --out month
expect_code 0 "report of a month without a spec exits 0 ($ERR)"
ok 'grep -q "≥ timeout" month/charts/01-connect-ms-days.gp && grep -q "% lost" month/charts/01-connect-ms-days.gp' \
    "the month's day chart has both kinds of mark"

# one page holding every SVG inline and a script that writes each
# text's corners (in its SVG's own pixels) into the page
cat > boxes.py <<'PY'
import html, os, re, sys
out = sys.argv[1]
parts = ["<!doctype html><html><body>"]
for f in sys.argv[2:]:
    s = open(f, encoding="utf-8").read()
    s = re.sub(r"<\?xml[^>]*\?>", "", s)
    s = re.sub(r"<!DOCTYPE[^>]*>", "", s, flags=re.S)
    parts.append('<div class="chart" data-name="%s">%s</div>'
                 % (html.escape(os.path.basename(f)), s))
parts.append("""<pre id="boxes"></pre><script>
const out = [];
document.querySelectorAll("div.chart").forEach(d => {
  const svg = d.querySelector("svg");
  const base = svg.getScreenCTM().inverse();
  d.querySelectorAll("text").forEach(t => {
    const txt = t.textContent.trim();
    if (!txt) return;
    const b = t.getBBox();
    if (b.width <= 0 || b.height <= 0) return;
    const m = base.multiply(t.getScreenCTM());
    const pts = [[b.x, b.y], [b.x + b.width, b.y],
                 [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
      .map(p => { const q = new DOMPoint(p[0], p[1]).matrixTransform(m);
                  return [q.x, q.y]; });
    out.push(JSON.stringify({chart: d.dataset.name, text: txt, pts: pts}));
  });
});
document.getElementById("boxes").textContent = out.join("\\n");
</script></body></html>""")
open(out, "w", encoding="utf-8").write("\n".join(parts))
PY
# pairs of text boxes of one chart that intersect (by more than half a
# pixel: glyph boxes of stacked lines may touch)
cat > overlap.py <<'PY'
import html, itertools, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="boxes">(.*?)</pre>', dom, re.S)
boxes = [json.loads(l) for l in html.unescape(m.group(1) if m else "").splitlines()
         if l.strip()]
def shrink(p, d=0.5):
    cx = sum(x for x, _ in p) / 4
    cy = sum(y for _, y in p) / 4
    r = []
    for x, y in p:
        dx, dy = x - cx, y - cy
        n = (dx * dx + dy * dy) ** .5 or 1
        r.append((x - d * dx / n, y - d * dy / n))
    return r
def normals(p):
    for i in range(4):
        (x1, y1), (x2, y2) = p[i], p[(i + 1) % 4]
        yield (y1 - y2, x2 - x1)
def apart(a, b):
    for n in list(normals(a)) + list(normals(b)):
        pa = [x * n[0] + y * n[1] for x, y in a]
        pb = [x * n[0] + y * n[1] for x, y in b]
        if max(pa) <= min(pb) or max(pb) <= min(pa):
            return True
    return False
charts = {}
for b in boxes:
    charts.setdefault(b["chart"], []).append(b)
bad = []
for c, bs in sorted(charts.items()):
    for a, b in itertools.combinations(bs, 2):
        if not apart(shrink(a["pts"]), shrink(b["pts"])):
            bad.append("%s: %r / %r" % (c, a["text"][:30], b["text"][:30]))
print("charts", len(charts))
print("texts", len(boxes))
print("overlaps", len(bad), " | ".join(bad[:4]))
PY
chromium_dom() {
	HOME="$TMP/home" XDG_CONFIG_HOME="$TMP/home/.config" \
	XDG_CACHE_HOME="$TMP/home/.cache" timeout 120 chromium --headless \
	    --no-sandbox --disable-gpu --disable-background-networking \
	    --disable-component-update --disable-sync --no-first-run \
	    --user-data-dir="$TMP/profile" --dump-dom "$1"
}
mkdir -p home
# the checker fails where it should: two labels at one place
cat > bad.svg <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100">
<text x="20" y="50" font-size="14">overlapping label</text>
<g transform="translate(60,52) rotate(-5)"><text font-size="14">another one</text></g>
<text x="20" y="90" font-size="14">apart</text>
</svg>
SVG
"$REAL_PY" boxes.py bad.html bad.svg && chromium_dom "file://$TMP/bad.html" >bad.dom 2>/dev/null
"$REAL_PY" overlap.py bad.dom >bad.out 2>&1
val() { sed -n "s/^$1 //p" "$2" | cut -d' ' -f1; }
ok '[ "$(val texts bad.out)" = 3 ] && [ "$(val overlaps bad.out)" = 1 ]' \
    "the checker finds the one overlapping pair of a made-up SVG ($(tr '\n' ' ' <bad.out))"

for b in auto art month; do
	"$REAL_PY" boxes.py "$b.html" "$b"/charts/*.svg
	chromium_dom "file://$TMP/$b.html" >"$b.dom" 2>"$b.err"
	"$REAL_PY" overlap.py "$b.dom" >"$b.out" 2>&1
	nsvg=$(ls "$b"/charts/*.svg | grep -c .)
	ok '[ "$(val charts $b.out)" = "$nsvg" ] && [ "$(val texts $b.out)" -ge 100 ]' \
	    "$b: Chromium laid out the texts of all $nsvg charts ($(val texts $b.out) texts)"
	ok '[ "$(val overlaps $b.out)" = 0 ]' \
	    "$b: no two texts of any chart overlap ($(sed -n 's/^overlaps //p' $b.out))"
done

# the trial box chart of http_ms: one panel per condition, each its own
# x axis of paths and y axis
gp=$(ls auto/charts/*-ecs-conn-http-ms-trials.gp)
ok 'grep -q "set multiplot layout 3, 2" "$gp" && [ "$(grep -c "^	set xtics (" "$gp")" = 5 ] && [ "$(grep -c "^	set yrange \[" "$gp")" = 5 ]' \
    "http_ms trials: 5 panels, one per condition, each with its own axes"
ok 'grep -q "one panel per condition (5)" auto/index.md' "the caption says so"
ticeq=$(grep -E '(set xtics \(|, \\$)' "$gp" | grep -c "=")
ok '[ "$ticeq" = 0 ] && grep -q "set title .c=16,ka=on,size=1m" "$gp"' \
    "the tic labels name paths only (the condition is the panel's title)"
# every y range a chart script sets starts at or above 0 (all metrics
# here are non-negative)
neg=$(grep -ho "set yrange \[[^:]*" auto/charts/*.gp art/charts/*.gp | sed 's/.*\[//' | grep -c '^-' )
ok '[ "$neg" = 0 ]' "no chart's y axis starts below 0 ($neg)"
box=$(grep -h "set yrange" "$gp" | tail -1)
ok 'echo "$box" | grep -q "set yrange \[9\.[0-9]*:11\.[0-9]*\]"' \
    "the 1 MB panel's axis is from its data, about 10.2-10.7 ms padded ($box)"
test_done

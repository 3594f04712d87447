#!/usr/bin/env python3
"""marks-page.py OUT.html CHART.svg ... - one page holding each chart's
SVG inline and a script that, once Chromium has laid it out, writes one
JSON line per mark of pathstat check (the point symbols of the plot
whose legend names pathstat check, its key sample left out) into
<pre id="marks">: the chart, whether the mark's centre lies inside a bar
(a polygon of another plot, key swatches left out) and the texts its box
crosses (tests/cli/t3853)."""
import html, os, re, sys
out = sys.argv[1]
parts = ["<!doctype html><html><body>"]
for f in sys.argv[2:]:
    s = open(f, encoding="utf-8").read()
    s = re.sub(r"<\?xml[^>]*\?>", "", s)
    s = re.sub(r"<!DOCTYPE[^>]*>", "", s, flags=re.S)
    parts.append('<div class="chart" data-name="%s">%s</div>'
                 % (html.escape(os.path.basename(f)), s))
parts.append("""<pre id="marks"></pre><script>
const out = [];
const box = (e, base) => { const r = e.getBoundingClientRect();
  return [r.left - base.left, r.top - base.top, r.right - base.left, r.bottom - base.top]; };
document.querySelectorAll("div.chart").forEach(d => {
  const svg = d.querySelector("svg"), base = svg.getBoundingClientRect();
  const bars = [], marks = [], texts = [];
  svg.querySelectorAll("g[id^=gnuplot_plot]").forEach(g => {
    const t = g.querySelector("title"), flag = t && /pathstat check/.test(t.textContent);
    if (flag) {
      const key = g.querySelector("text"), kb = key ? box(key, base) : null;
      g.querySelectorAll("use").forEach(u => {
        const b = box(u, base), cx = (b[0] + b[2]) / 2, cy = (b[1] + b[3]) / 2;
        if (kb && cy > kb[1] - 12 && cy < kb[3] + 12 && cx < kb[0] && cx > kb[0] - 60) return;
        marks.push(b);
      });
    } else {
      g.querySelectorAll("polygon").forEach(p => {
        const b = box(p, base);
        if (b[3] - b[1] > 12 || (b[2] - b[0] < 25)) bars.push(b);
      });
    }
  });
  svg.querySelectorAll("text").forEach(t => { if (t.textContent.trim()) texts.push([t.textContent.trim(), box(t, base)]); });
  marks.forEach(m => {
    const cx = (m[0] + m[2]) / 2, cy = (m[1] + m[3]) / 2;
    const inbar = bars.some(b => cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3]);
    const hit = texts.filter(([s, b]) => m[0] + 1 < b[2] && b[0] < m[2] - 1 && m[1] + 1 < b[3] && b[1] < m[3] - 1).map(x => x[0]);
    out.push(JSON.stringify({chart: d.dataset.name, inbar: inbar, texts: hit}));
  });
});
document.getElementById("marks").textContent = out.join("\\n");
</script></body></html>""")
open(out, "w", encoding="utf-8").write("\n".join(parts))

# t3831: the page stays a size a reader can open and attach
# (the report without a spec was 5.2 MB, 3.3 MB on the sample tree).
# The sample tree's report without a spec, --html: index.html under
# 2.2 MB; a chart's data (.dat), script (.gp) and a table's Markdown
# copy are named as files of the bundle, not carried as data: downloads
# (each table's CSV still is); every line of an inline chart is the
# line gnuplot drew to a tenth of a pixel (its path compacted: H and V
# for steps, no repeated point), checked point by point against the
# chart's own SVG; a contents list links the page's sections.
# tier: browser

have_prereq GNUPLOT || skip_all "gnuplot is not installed: no charts to size"

CHECK="$TOP/tests/cli/helper/html-check.py"
export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out b --html --baseline A
expect_code 0 "report --html without a spec exits 0 ($ERR)"
size=$(wc -c < b/index.html)
ok '[ "$size" -lt 2200000 ]' "index.html is under 2.2 MB ($size bytes; 3.3 MB before)"
ok '! grep -q "download=\"[^\"]*\.\(dat\|gp\|md\)\"" b/index.html' \
    "no chart data, script or table copy rides in the page as a download"
ok 'grep -q "(charts/[^ ]*\.dat in the bundle)" b/index.html' \
    "a chart's data is named as a file of the bundle"
ntab=$(grep -c '^_Table [0-9]*:' b/index.md)
nfig=$(grep -c '^!\[' b/index.md)
run "$PY" "$CHECK" b/index.html --tables "$ntab" --svgs "$nfig" --csv b
ok '[ $RC = 0 ]' "the page still stands alone: $ntab tables, $nfig charts, each table's CSV a download"
printf '%s\n' "$OUT" | grep -v '^ok' | sed 's/^/# /'

cat > paths.py <<'PY'
import re, sys

def points(d):
    """The vertices of an SVG path of M, L, H, V (absolute)."""
    out, x, y, sx, sy = [], 0.0, 0.0, 0.0, 0.0
    for cmd, args in re.findall(r"([MLHVZ])\s*([^MLHVZ]*)", d):
        nums = [float(v) for v in re.findall(r"-?[0-9.]+", args)]
        if cmd == "Z":
            x, y = sx, sy
            out.append(("Z", x, y))
            continue
        if cmd in "ML":
            x, y = nums[0], nums[1]
        elif cmd == "H":
            x = nums[0]
        else:
            y = nums[0]
        if cmd == "M":
            sx, sy = x, y
        out.append((cmd == "M", x, y))
    return out

def tenth(v):
    return int(v * 10 + (0.5 if v >= 0 else -0.5))

def dedup(pts):
    """A vertex that lands on the one before, to a tenth of a pixel,
    adds nothing to the picture."""
    keep = []
    for p in pts:
        if keep and p[0] is False and tenth(p[1]) == tenth(keep[-1][1]) and \
                tenth(p[2]) == tenth(keep[-1][2]):
            continue
        keep.append(p)
    return keep

page = open(sys.argv[1], encoding="utf-8").read()
charts = re.findall(r'<span class="chart" id="chart-([^"]*)">(<svg.*?</svg>)', page, re.S)
checked = worst = saved = 0
for stem, svg in charts:
    orig = open("b/charts/%s.svg" % stem, encoding="utf-8").read()
    a = re.findall(r"<path[^>]*\sd='([^']*)'", orig)
    b = re.findall(r'<path[^>]*\sd="([^"]*)"', svg)
    if len(a) != len(b):
        print("%s: %d paths drawn, %d in the page" % (stem, len(a), len(b)))
        sys.exit(1)
    for da, db in zip(a, b):
        pa, pb = dedup(points(da)), points(db)
        if len(pa) != len(pb):
            print("%s: a line of %d points became %d" % (stem, len(pa), len(pb)))
            sys.exit(1)
        for p, q in zip(pa, pb):
            worst = max(worst, abs(p[1] - q[1]), abs(p[2] - q[2]))
        saved += len(da) - len(db)
        checked += 1
print(checked, "%.3f" % worst, saved)
PY
run "$REAL_PY" paths.py b/index.html
read -r npaths worst saved <<EOF2
$OUT
EOF2
ok '[ $RC = 0 ] && [ "${npaths:-0}" -ge 100 ]' "every line of every inline chart compared with gnuplot's ($OUT)"
ok '"$REAL_PY" -c "import sys; sys.exit(not float(sys.argv[1]) <= 0.051)" "${worst:-9}"' \
    "no vertex moved more than a twentieth of a pixel (worst ${worst:-?} px)"
ok '[ "${saved:-0}" -gt 500000 ]' "compact lines save ${saved:-0} bytes"

nt=$(sed -n '/^\*\*Contents\*\*$/,/^## /p' b/index.md | grep -c '^ *- \[')
nh=$(grep -c '^###\? ' b/index.md)
ok '[ "$nt" = "$nh" ] && [ "$nt" -ge 5 ]' "the contents list names each of the $nh level-2/3 headings ($nt entries)"
test_done

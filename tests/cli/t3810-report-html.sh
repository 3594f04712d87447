# t3810: `pathstat report --html` writes index.html beside index.md: the
# same report as one page that stands alone (tests/cli/helper/
# html-check.py reads it with Python's own HTML parser): every table,
# every chart inline as SVG (or a note where gnuplot did not draw it),
# the table CSVs as data: downloads holding the bundle's bytes, links
# only within the page, ids unique, no script, nothing loaded from
# outside.  Labels from file names, meta.json and the spec that try to
# write HTML (a study tag, a path ID, spec labels and titles) are shown
# as text.  Without --html there is no index.html; a second run
# replaces it like any other bundle file.

CHECK="$TOP/tests/cli/helper/html-check.py"
# a tree whose study tag and one path ID are hostile HTML
cat > mk.py <<'PY'
import json, os
study = "s\"'><img src=x onerror=alert(1)>&amp;"
ids = ["A", "P<b>x</b>&lt;\"'"]
json.dump({"study": study, "region": "r1"}, open("meta.json", "w"))
for i, pid in enumerate(ids):
    for trial in (1, 2):
        d = "tree/p%d/trial%d" % (i, trial)
        os.makedirs(d)
        json.dump({"path": pid, "trial": trial}, open(d + "/meta.json", "w"))
        with open(d + "/probe.csv", "w") as f:
            f.write("# pathprobe 1 target=h:5201 addr=10.0.0.2 count=30 "
                    "interval_s=0.2 timeout_s=0.4 start=2026-08-28T01:00:00Z\n")
            f.write("seq,unix_ns,connect_ms,result\n")
            for s in range(30):
                v = (0.2 + i) * (1 + 0.01 * ((s * 7 + trial) % 13))
                f.write("%d,%d,%.3f,ok\n" % (s, 1787878800000000000 + s * 200000000, v))
spec = {
    "title": "T </title><script>alert(1)</script>",
    "intro": "<iframe src=//evil></iframe> [link](javascript:alert(1)) ![i](http://x/y.png)",
    "paths": {"A": "<svg onload=alert(1)>", ids[1]: "label & \"quotes\""},
    "metric": "connect_ms",
    "sections": [
        {"type": "percentiles", "id": "p", "title": "<h1>head</h1>",
         "chart": {"kind": "bars", "title": "</svg><script>x</script>"}},
        {"type": "chart", "id": "e", "chart": "ecdf"},
        {"type": "trials", "id": "t", "chart": {"kind": "box", "stat": "p50"},
         "footnotes": [{"path": "A", "text": "<a href=http://x>note</a>"}]},
    ],
}
json.dump(spec, open("spec.json", "w"))
PY
"$PY" mk.py
mv meta.json tree/meta.json
run "$PS" ingest --db h.db tree
expect_code 0 "a tree with hostile names ingests"
study="s\"'><img src=x onerror=alert(1)>&amp;"
pid="P<b>x</b>&lt;\"'"

# the bundle made from the database, with and without charts
run "$PS" report --db h.db --out noc --html --no-render
expect_code 0 "--html --no-render exits 0 ($ERR)"
ok '[ -f noc/index.html ]' "index.html is written"
ok '"$PY" -c "import json,sys; p=json.load(open(\"noc/provenance.json\")); assert \"index.html\" in p[\"files\"] and \"index.html\" in p[\"file_hashes\"]"' \
    "provenance.json lists and hashes it"
ntab=$(grep -c '^_Table [0-9]*:' noc/index.md)
nfig=$(grep -c '^!\[' noc/index.md)
run "$PY" "$CHECK" noc/index.html --tables "$ntab" --svgs 0 --text "Study $study" --text "$pid" --csv noc
ok '[ $RC = 0 ]' "it stands alone; $ntab tables; hostile study and path shown as text"
printf '%s\n' "$OUT" | grep -v '^ok' | sed 's/^/# /'
ok "[ \"\$(grep -c 'class=\"missing\">Chart not rendered' noc/index.html)\" = $nfig ]" \
    "each of the $nfig unrendered charts says so in its place"

if have_prereq GNUPLOT; then
	run "$PS" report --db h.db --out auto --html
	expect_code 0 "--html with gnuplot exits 0 ($ERR)"
	ntab=$(grep -c '^_Table [0-9]*:' auto/index.md)
	nfig=$(grep -c '^!\[' auto/index.md)
	run "$PY" "$CHECK" auto/index.html --tables "$ntab" --svgs "$nfig" --text "$pid" --csv auto
	ok '[ $RC = 0 ]' "every chart inline as SVG ($nfig), every table ($ntab), nothing outside"
	printf '%s\n' "$OUT" | grep -v '^ok' | sed 's/^/# /'
	# the ids of one chart do not clash with another's
	ok "[ \"\$(grep -o 'id=\"f1-gpPt0\"' auto/index.html | wc -l)\" = 1 ] && [ \"\$(grep -o 'id=\"f2-gpPt0\"' auto/index.html | wc -l)\" = 1 ]" \
	    "each chart's ids carry its own prefix"
	ok "! grep -q '<title>Gnuplot' auto/index.html && ! grep -q '<?xml' auto/index.html" \
	    "gnuplot's XML prolog and titles are left out"

	run "$PS" report --db h.db --spec spec.json --out spec --html
	expect_code 0 "a spec with hostile titles and labels, --html"
	ntab=$(grep -c '^_Table [0-9]*:' spec/index.md)
	nfig=$(grep -c '^!\[' spec/index.md)
	run "$PY" "$CHECK" spec/index.html --tables "$ntab" --svgs "$nfig" \
	    --text "T </title><script>alert(1)</script>" \
	    --text "<iframe src=//evil></iframe> [link](javascript:alert(1))" \
	    --text "<svg onload=alert(1)>" --text '<h1>head</h1>' \
	    --text '<a href=http://x>note</a>' --csv spec
	ok '[ $RC = 0 ]' "hostile titles, labels, intro and notes are text; the page stands alone"
	printf '%s\n' "$OUT" | grep -v '^ok' | sed 's/^/# /'
	ok "grep -q '<title>T &lt;/title&gt;&lt;script&gt;' spec/index.html" "the page title is escaped"
else
	echo "# gnuplot not installed: inline SVG charts not checked"
fi

# without --html: none; a second --html run replaces it as its own
run "$PS" report --db h.db --out plain --no-render
ok '[ ! -e plain/index.html ]' "without --html there is no index.html"
run "$PS" report --db h.db --out noc --html --no-render
expect_code 0 "a second --html run into the same bundle exits 0 ($ERR)"
echo edited >> noc/index.html
run "$PS" report --db h.db --out noc --html --no-render
expect_code 1 "an index.html changed by hand is not replaced without --force"
expect_err_has "refusing to replace 'noc/index.html'" "and it is named"
run "$PS" report --db h.db --out noc --no-render --force
expect_code 0 "--force writes over it"
test_done

# t3442: `pathstat report --jobs N` runs up to N gnuplot programs at
# once, and the bundle does not depend on N: the files of --jobs 1 and
# --jobs 4 are the same byte for byte (provenance.json but for the
# command line that names --jobs), with a fake gnuplot on the sample
# tree and with a real one (and --html) on four charts.  A gnuplot that
# fails on two charts, the first failing last, leaves the other charts
# rendered, and its errors name the charts in the charts' order
# whatever order the runs ended in: stderr and the bundle are the same
# for both N.  The runs do overlap (four charts
# that take a second each are done in about one), and --jobs 0, --jobs
# x are usage errors.

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"

# the bundles of dir $1 and $2 the same, provenance.json without the
# command lines (they name --jobs); each was written as "b" and renamed,
# since provenance.json and the messages name the folder
same_bundle() { # DIR1 DIR2
	diff -r -x provenance.json "$1" "$2" >/dev/null &&
	    grep -v '"pathstat report ' "$1/provenance.json" > "$1.prov" &&
	    grep -v '"pathstat report ' "$2/provenance.json" > "$2.prov" &&
	    cmp -s "$1.prov" "$2.prov"
}

# a fake gnuplot: images made of its script's checksum; it fails on
# the charts named in $FAIL (the first one slowly, so that with several
# runs at once the later ones end before it)
cat > fake.sh <<'EOF'
#!/bin/sh
case "$1" in --version) echo "gnuplot 5.4 patchlevel 4"; exit 0 ;; esac
case " $FAIL " in
*" ${1%.gp} "*)
	[ "${1%.gp}" = "${FAIL%% *}" ] && sleep 1
	echo "\"$1\" line 1: no such thing in ${1%.gp}" >&2
	exit 1 ;;
esac
[ -n "${SLOW:-}" ] && sleep "$SLOW"
sum=$(cksum < "$1")
printf 'png %s\n' "$sum" > "${1%.gp}.png"
printf '<svg xmlns="http://www.w3.org/2000/svg"><!-- %s --></svg>\n' "$sum" > "${1%.gp}.svg"
EOF
chmod +x fake.sh

for j in 1 4; do
	run env PATHSTAT_GNUPLOT="$TMP/fake.sh" "$PS" report --db s.db --out b --jobs $j
	expect_code 0 "fake gnuplot, --jobs $j"
	mv b f$j
done
ok 'same_bundle f1 f4' "fake gnuplot: --jobs 1 and --jobs 4 give the same bundle"
n=$(ls f4/charts/*.png | wc -l)
ok '[ "$n" -gt 10 ]' "with every chart rendered ($n)"

cat > spec.json <<'EOF'
{ "title": "Four", "sections": [
  { "type": "percentiles", "id": "a", "metric": "connect_ms", "stats": "p50", "chart": "bars" },
  { "type": "percentiles", "id": "b", "metric": "connect_ms", "stats": "p99", "chart": "bars" },
  { "type": "percentiles", "id": "c", "metric": "connect_ms", "stats": "p50", "chart": "ecdf" },
  { "type": "percentiles", "id": "d", "metric": "connect_ms", "stats": "p99", "chart": "ecdf" } ] }
EOF
if have_prereq GNUPLOT; then
	for j in 1 4; do
		run "$PS" report --db s.db --spec spec.json --out b --jobs $j --html
		expect_code 0 "gnuplot, --jobs $j"
		mv b g$j
	done
	ok 'same_bundle g1 g4' "gnuplot: --jobs 1 and --jobs 4 give the same bundle, images and page included"
fi

# two charts fail, the first one slowly
a=$(ls f1/charts/*.gp | sed -n 3p); a=$(basename "${a%.gp}")
z=$(ls f1/charts/*.gp | sed -n 5p); z=$(basename "${z%.gp}")
for j in 1 4; do
	run env PATHSTAT_GNUPLOT="$TMP/fake.sh" FAIL="$a $z" "$PS" report --db s.db --out b --jobs $j
	expect_code 1 "failing charts, --jobs $j: exit 1"
	mv b e$j
	printf '%s\n' "$ERR" | sed 's/ in [0-9.]* s; with errors/ in T s; with errors/' > err$j
done
expect_err_has "gnuplot failed on charts/$a.gp:" "the error names the chart"
expect_err_has "line 1: no such thing in $a" "and shows gnuplot's words"
ok 'cmp -s err1 err4' "stderr is the same with --jobs 1 and 4"
ok 'grep -n "gnuplot failed" err4 | head -1 | grep -q "$a"' "the first failing chart is named first"
ok '[ "$(grep -c "gnuplot failed" err4)" = 2 ]' "both failing charts are named"
ok 'same_bundle e1 e4' "and the bundle is the same"
ok '[ ! -e e4/charts/$a.png ] && [ -s e4/charts/$z.gp ]' "the failing charts have no image, their scripts are kept"
ok '[ "$(ls e4/charts/*.png | wc -l)" = $((n - 2)) ]' "every other chart is rendered"
ok '[ "$(grep -c "^> \*\*Missing:\*\*" e4/index.md)" = 2 ]' "index.md marks the two missing sections"

# the runs overlap: four charts of a second each
start=$(date +%s)
run env PATHSTAT_GNUPLOT="$TMP/fake.sh" SLOW=1 "$PS" report --db s.db --spec spec.json --out p4 --jobs 4
took=$(( $(date +%s) - start ))
expect_code 0 "four slow charts, --jobs 4"
expect_err_has "4 charts (4 rendered)" "all four rendered"
ok '[ $took -lt 4 ]' "in less than the 4 s one after another take (took ${took}s)"

for bad in 0 x; do
	run "$PS" report --db s.db --out u --jobs $bad
	expect_code 2 "--jobs $bad: usage error"
	expect_err_has "bad --jobs '$bad'" "--jobs $bad: says which option"
done
ok '[ ! -e u ]' "and writes nothing"
test_done

# t3839: a cell pathstat check flags is marked on its chart too.
# On the sample tree, check finds the planted burst cliff in path
# C's third P=4 run: the report without a spec marks that trial on the
# throughput box chart (index 3 of its .dat holds the trial with the
# same value as its point in index 1, the script draws it with a legend
# naming the check) and the C group on the P=4 bars; the first
# article's pivot chart marks C's 4-parallel bar; each figure's caption
# names the check and the cells.  Checks about sample counts
# (few-samples) mark nothing; --no-checks leaves every chart unmarked.
# With gnuplot, the SVG shows the legend's words.
# tier: browser

export SOURCE_DATE_EPOCH=1788000000
run "$PS" ingest --quiet --db s.db "$TOP/samples/tree"
expect_code 0 "sample tree ingested"
run "$PS" report --db s.db --out auto --no-render
expect_code 0 "report without a spec exits 0 ($ERR)"

# the finding itself, as pathstat check gives it
run "$PS" check --db s.db --only burst-cliff --format json
ok 'echo "$OUT" | grep -q "\"check\": \"burst-cliff\".*\"path\": \"C\", \"condition\": \"P=4,proto=tcp\", \"trial\": 3"' \
    "pathstat check finds the burst cliff in C's P=4 trial 3"

dat=$(ls auto/charts/*-tokyo-osaka-throughput-bps-trials.dat)
gp=${dat%.dat}.gp
cat > flags.py <<'PY'
import re, sys
txt = open(sys.argv[1], encoding="utf-8").read()
groups = dict((int(g), l) for g, l in re.findall(r"^# group (\d+): (.*)$", txt, re.M))
body = "\n".join(l for l in txt.splitlines() if not l.startswith("#"))
blocks = re.split(r"\n\s*\n\s*\n", body.strip("\n") + "\n")
idx1 = [l.split() for l in blocks[1].splitlines() if l.strip()]
idx3 = [l.split() for l in blocks[3].splitlines() if l.strip()] if len(blocks) > 3 else []
print("flagged", len(idx3))
for x, v, trial in idx3:
    same = [r for r in idx1 if r[0] == x and r[2] == trial]
    print("cell", groups[int(x)], "trial", trial, "value", v,
          "point", same[0][1] if same else "none")
PY
"$REAL_PY" flags.py "$dat" >flags.out 2>&1
ok 'grep -q "^flagged 1$" flags.out' "the box chart's data holds one flagged trial ($(head -1 flags.out))"
ok 'grep -q "^cell C · P=4,proto=tcp trial 3 value \([0-9.]*\) point \1$" flags.out' \
    "it is C's P=4 trial 3, at its own point's value ($(sed -n 2p flags.out))"
ok 'grep -q "index 3 using 1:2 with points pt 9" "$gp" && grep -q "flagged by pathstat check: burst-cliff" "$gp"' \
    "the script draws the mark and a legend naming the check"
ok 'grep -q "▲ marks what pathstat check flagged (the table.s footnotes say what it found and what to do): burst-cliff in C · P=4,proto=tcp, trial 3" auto/index.md' \
    "the box chart's caption names the check and the cell"

# the P=4 percentiles bars: C's group marked, half way up its bars
bgp=$(grep -l "P=4,proto=tcp" auto/charts/*-tokyo-osaka-throughput-bps-pct-*.gp | head -1)
bdat=${bgp%.gp}.dat
ok '[ -n "$bgp" ] && grep -q "index 1 using 1:2 with points pt 9" "$bgp"' "the P=4 bar chart draws marks"
cgroup=$(sed -n 's/^# group \([0-9]*\): C\b.*/\1/p' "$bdat")
ok 'sed -n "/^# index 1/,\$p" "$bdat" | grep -q "^$cgroup "' "one of them on C's group ($cgroup)"
n_few=$(grep -c "few-samples in" auto/index.md)
ok '[ "$n_few" = 0 ] && grep -q "pathstat check, few-samples" auto/index.md' \
    "few-samples findings stay footnotes and mark no chart ($n_few)"

# the article's pivot: the mark on C's 4-parallel bar
run "$PS" report --db s.db --out art --no-render --spec "$TOP/samples/article.json"
expect_code 0 "report with the article's spec exits 0 ($ERR)"
ok 'grep -q "burst-cliff in C · 4-parallel TCP (p50, Gbit/s)" art/index.md' \
    "the pivot chart's caption names C's 4-parallel cell"
# C is row 2; the 4-parallel bar is the second of three: x = 2 + 0
ok 'sed -n "/^# index 1/,\$p" art/charts/04-throughput.dat | grep -q "^2 "' \
    "the mark sits on that bar (x = 2)"

run "$PS" report --db s.db --out plain --no-render --no-checks
expect_code 0 "with --no-checks ($ERR)"
nm=$(grep -l "pathstat check finding\|flagged by pathstat check" plain/charts/*.gp | grep -c .)
ok '[ "$nm" = 0 ] && ! grep -q "▲ marks" plain/index.md' "--no-checks: no chart is marked ($nm)"

if have_prereq GNUPLOT; then
	run "$PS" report --db s.db --out r
	expect_code 0 "rendered ($ERR)"
	svg=$(ls r/charts/*-tokyo-osaka-throughput-bps-trials.svg)
	ok 'grep -q "flagged by pathstat check: burst-cliff" "$svg"' "the SVG shows the legend naming the check"
else
	ok true "# skip: gnuplot is not installed"
fi
test_done
